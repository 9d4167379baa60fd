/* py_probe: `nndb probe` and `nndb doctor` inside Python (engine/probe/).
 *
 * _C._probe_cli(argv) runs the very command-line code (nn_probe_cli) with
 * its two streams captured in memory, so %probe and %doctor print exactly
 * what the commands print when their stdout is not a terminal (no colour:
 * a memory stream is never a tty). _C._probe_read(root, doctor, bandwidth)
 * gives the same reports for any machine tree together with the readings
 * and findings as Python values (typed: an int reading stays an int, a real
 * one a float, which the JSON report does not keep), for nndb.probe's
 * gpus() and doctor().
 */
#include <stdio.h>
#include <stdlib.h>

#include "probe/nn_doctor.h"
#include "probe/nn_probe.h"
#include "probe/nn_probe_cli.h"
#include "probe/nn_probe_report.h"
#include "py.h"

/* _probe_cli(argv) -> (status, stdout text, stderr text); argv[0] is
 * "probe" or "doctor". */
static PyObject *f_probe_cli(PyObject *m, PyObject *seq) {
    (void)m;
    PyObject *fast = PySequence_Fast(seq, "_probe_cli(argv): argv must be a list of str");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    char **argv = PyMem_Calloc((size_t)n + 1, sizeof *argv);
    if (!argv) {
        Py_DECREF(fast);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* Borrowed UTF-8 buffers, alive as long as the list's strings. */
        argv[i] = (char *)PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
        if (!argv[i]) {
            PyMem_Free(argv);
            Py_DECREF(fast);
            return NULL;
        }
    }
    char *out_text = NULL, *err_text = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *out = open_memstream(&out_text, &out_len);
    FILE *err = open_memstream(&err_text, &err_len);
    PyObject *result = NULL;
    if (out && err) {
        int status;
        /* The probe reads files and may time a PCIe copy: let other threads run. */
        Py_BEGIN_ALLOW_THREADS status = nn_probe_cli((int)n, argv, out, err);
        Py_END_ALLOW_THREADS fclose(out);
        fclose(err);
        out = err = NULL;
        result = Py_BuildValue("(is#s#)", status, out_text ? out_text : "", (Py_ssize_t)out_len,
                               err_text ? err_text : "", (Py_ssize_t)err_len);
    } else {
        PyErr_NoMemory();
    }
    if (out) fclose(out);
    if (err) fclose(err);
    free(out_text);
    free(err_text);
    PyMem_Free(argv);
    Py_DECREF(fast);
    return result;
}

/* A reading as a Python value: int, float or str; None when unavailable. */
static PyObject *reading_value(const nn_probe_reading *x) {
    if (!x->available) Py_RETURN_NONE;
    switch (x->kind) {
    case NN_PROBE_INT: return PyLong_FromLongLong((long long)x->i);
    case NN_PROBE_NUM: return PyFloat_FromDouble(x->num);
    case NN_PROBE_STR:
        return PyUnicode_DecodeUTF8(x->str ? x->str : "", x->str ? (Py_ssize_t)strlen(x->str) : 0,
                                    "replace");
    }
    Py_RETURN_NONE;
}

/* [(key, value, unit, source), ...] */
static PyObject *readings_list(const nn_probe_readings *r) {
    PyObject *list = PyList_New(r->n);
    for (int i = 0; list && i < r->n; i++) {
        const nn_probe_reading *x = &r->v[i];
        PyObject *v = reading_value(x);
        PyObject *t = v ? Py_BuildValue("(sNss)", x->key, v, x->unit ? x->unit : "",
                                        x->source ? x->source : "")
                        : NULL;
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static PyObject *gpus_list(const nn_probe_result *res) {
    PyObject *list = PyList_New(res->n_gpus);
    for (int i = 0; list && i < res->n_gpus; i++) {
        const nn_probe_gpu *g = &res->gpus[i];
        PyObject *r = readings_list(&g->r);
        PyObject *d = r ? Py_BuildValue("{s:s,s:I,s:s,s:s,s:N}", "pci", g->bdf, "vendor", g->vendor,
                                        "name", g->name, "driver", g->driver, "readings", r)
                        : NULL;
        if (!d) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, d);
    }
    return list;
}

static PyObject *findings_list(const nn_doctor_report *rep) {
    PyObject *list = PyList_New(rep->n);
    for (int i = 0; list && i < rep->n; i++) {
        const nn_doctor_finding *f = &rep->v[i];
        PyObject *ev = PyList_New(f->n_evidence);
        for (int k = 0; ev && k < f->n_evidence; k++) {
            PyObject *e =
                PyUnicode_DecodeUTF8(f->evidence[k], (Py_ssize_t)strlen(f->evidence[k]), "replace");
            if (!e) {
                Py_CLEAR(ev);
                break;
            }
            PyList_SET_ITEM(ev, k, e);
        }
        PyObject *t =
            ev ? Py_BuildValue(
                     "(sssNNs)", f->id, nn_doctor_severity_name(f->severity), f->device,
                     PyUnicode_DecodeUTF8(f->summary, (Py_ssize_t)strlen(f->summary), "replace"),
                     ev, f->fix)
               : NULL;
        if (!t) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

/* A report writer's output as a str (a memory stream catches it). */
typedef void (*report_fn)(FILE *f, const nn_probe_result *res, const nn_doctor_report *rep);

static void w_probe_text(FILE *f, const nn_probe_result *res, const nn_doctor_report *rep) {
    (void)rep;
    nn_probe_report_text(f, res, false);
}
static void w_probe_json(FILE *f, const nn_probe_result *res, const nn_doctor_report *rep) {
    (void)rep;
    nn_probe_report_json(f, res);
}
static void w_doctor_text(FILE *f, const nn_probe_result *res, const nn_doctor_report *rep) {
    nn_doctor_report_text(f, res, rep, false);
}
static void w_doctor_json(FILE *f, const nn_probe_result *res, const nn_doctor_report *rep) {
    (void)res;
    nn_doctor_report_json(f, rep);
}

static PyObject *report_str(report_fn fn, const nn_probe_result *res, const nn_doctor_report *rep) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return PyErr_NoMemory();
    fn(f, res, rep);
    PyObject *s = NULL;
    if (fclose(f) == 0)
        s = PyUnicode_DecodeUTF8(text ? text : "", (Py_ssize_t)len, "replace");
    else
        PyErr_NoMemory();
    free(text);
    return s;
}

/* _probe_read(root, doctor, bandwidth) -> dict: text and json (the
 * command's two reports), status (the command's exit status), host (the
 * machine-wide readings), gpus, and for the doctor findings, each as
 * (id, severity, device, summary, evidence, fix). root None reads /, or
 * NNDB_SYSROOT when set, as the command does; nndb.probe checks a root is
 * a directory first. */
static PyObject *f_probe_read(PyObject *m, PyObject *args) {
    (void)m;
    const char *root = NULL;
    int doctor = 0, bandwidth = 0;
    if (!PyArg_ParseTuple(args, "zpp:_probe_read", &root, &doctor, &bandwidth)) return NULL;
    nn_probe_options o = nn_probe_default_options();
    o.root = root;
    o.measure_bandwidth = bandwidth && !doctor;
    nn_error e;
    nn_error_clear(&e);
    nn_probe_result *res;
    /* The probe reads files and may time a PCIe copy: let other threads run. */
    Py_BEGIN_ALLOW_THREADS res = nn_probe_run(&o, &e);
    Py_END_ALLOW_THREADS if (!res) {
        PyErr_Format(PyExc_RuntimeError, "nndb %s: %s", doctor ? "doctor" : "probe",
                     e.msg[0] ? e.msg : "out of memory");
        return NULL;
    }
    nn_doctor_report *rep = doctor ? nn_doctor_run(res) : NULL;
    PyObject *out = NULL;
    if (doctor && !rep) {
        PyErr_NoMemory();
    } else {
        int status = rep && nn_doctor_worst(rep) >= NN_DOCTOR_WARN ? 1 : 0;
        PyObject *text = report_str(doctor ? w_doctor_text : w_probe_text, res, rep);
        PyObject *json = text ? report_str(doctor ? w_doctor_json : w_probe_json, res, rep) : NULL;
        PyObject *host = json ? readings_list(&res->host) : NULL;
        PyObject *gpus = host ? gpus_list(res) : NULL;
        PyObject *found = NULL;
        if (gpus) {
            if (rep) {
                found = findings_list(rep);
            } else {
                found = Py_None;
                Py_INCREF(found);
            }
        }
        if (found)
            out = Py_BuildValue("{s:i,s:O,s:O,s:O,s:O,s:O}", "status", status, "text", text, "json",
                                json, "host", host, "gpus", gpus, "findings", found);
        Py_XDECREF(text);
        Py_XDECREF(json);
        Py_XDECREF(host);
        Py_XDECREF(gpus);
        Py_XDECREF(found);
    }
    nn_doctor_free(rep);
    nn_probe_free(res);
    return out;
}

PyMethodDef py_probe_functions[] = {
    {"_probe_read", f_probe_read, METH_VARARGS,
     "_probe_read(root, doctor, bandwidth) -> {status, text, json, host, gpus, findings}"},
    {"_probe_cli", f_probe_cli, METH_O,
     "_probe_cli(['probe' | 'doctor', options...]) -> (status, stdout, stderr)"},
    {NULL, NULL, 0, NULL},
};
