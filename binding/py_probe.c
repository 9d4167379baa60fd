/* py_probe: `nndb probe` and `nndb doctor` inside Python (engine/probe/).
 *
 * One function, _C._probe_cli(argv), runs the very command-line code
 * (nn_probe_cli) with its two streams captured in memory, so nndb.probe(),
 * %probe and %doctor print exactly what the commands print when their
 * stdout is not a terminal (no colour: a memory stream is never a tty).
 */
#include <stdio.h>
#include <stdlib.h>

#include "probe/nn_probe_cli.h"
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

PyMethodDef py_probe_functions[] = {
    {"_probe_cli", f_probe_cli, METH_O,
     "_probe_cli(['probe' | 'doctor', options...]) -> (status, stdout, stderr)"},
    {NULL, NULL, 0, NULL},
};
