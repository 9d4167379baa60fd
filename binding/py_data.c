/* py_data: the engine's built-in datasets, their plantable bugs, character
 * vocabularies and the plot drawing, as private torch._C kernels for
 * python/nndb/data.py and python/nndb/plot.py.
 *
 * Two small types: _C._DataSet owns one nn_dataset (nn_data.h) and
 * _C._Vocab one reference to an nn_vocab (nn_text.h). They are readied on
 * first use, so the module needs only this file's function table. The
 * kernels take positional arguments already checked and defaulted by the
 * Python layer, which gives the public signatures and messages; the
 * engine still checks every value it is given.
 */
#include <stdlib.h>
#include <string.h>

#include "nn_data.h"
#include "nn_plot.h"
#include "nn_text.h"
#include "py.h"

/* ---- _Vocab ---- */

typedef struct vocab_obj {
    PyObject_HEAD nn_vocab *v;
} vocab_obj;

static PyTypeObject vocab_type;

static void vocab_dealloc(PyObject *self) {
    nn_vocab_release(((vocab_obj *)self)->v);
    Py_TYPE(self)->tp_free(self);
}

/* A _Vocab for [v] (borrowed; a reference is taken), or None for NULL. */
static PyObject *vocab_wrap(nn_vocab *v) {
    if (!v) Py_RETURN_NONE;
    if (PyType_Ready(&vocab_type) < 0) return NULL;
    vocab_obj *o = PyObject_New(vocab_obj, &vocab_type);
    if (!o) return NULL;
    o->v = nn_vocab_retain(v);
    return (PyObject *)o;
}

#define VOCAB(self) (((vocab_obj *)(self))->v)

static PyObject *vocab_size(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(nn_vocab_size(VOCAB(self)));
}

/* itos(id) -> str, or None when out of range. */
static PyObject *vocab_itos(PyObject *self, PyObject *arg) {
    long long id = PyLong_AsLongLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    const char *s = nn_vocab_itos(VOCAB(self), id);
    if (!s) Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* stoi(char) -> id, or -1. */
static PyObject *vocab_stoi(PyObject *self, PyObject *arg) {
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s) return NULL;
    return PyLong_FromLongLong(nn_vocab_stoi(VOCAB(self), s));
}

static PyObject *vocab_encode(PyObject *self, PyObject *arg) {
    const char *s = PyUnicode_AsUTF8(arg);
    if (!s) return NULL;
    return py_tensor_wrap(nn_vocab_encode(py_ctx(), VOCAB(self), s));
}

static PyObject *vocab_decode(PyObject *self, PyObject *arg) {
    nn_tensor *t;
    if (py_tensor_arg(arg, "decode", "ids", &t) < 0) return NULL;
    char *s = nn_vocab_decode(py_ctx(), VOCAB(self), t);
    if (!s) return py_engine_error();
    PyObject *r = PyUnicode_FromString(s);
    free(s);
    return r;
}

static PyMethodDef vocab_methods[] = {
    {"size", vocab_size, METH_NOARGS, "the number of tokens"},
    {"itos", vocab_itos, METH_O, "itos(id): the token's text, or None"},
    {"stoi", vocab_stoi, METH_O, "stoi(char): the id of one character, or -1"},
    {"encode", vocab_encode, METH_O, "encode(text): int64 ids"},
    {"decode", vocab_decode, METH_O, "decode(ids tensor): the text"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject vocab_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._Vocab",
    .tp_basicsize = sizeof(vocab_obj),
    .tp_dealloc = vocab_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An engine character vocabulary (nn_text.h); nndb.data.Vocab wraps it.",
    .tp_methods = vocab_methods,
};

/* ---- _DataSet ---- */

typedef struct dataset_obj {
    PyObject_HEAD nn_dataset *ds;
} dataset_obj;

static PyTypeObject dataset_type;

static void dataset_dealloc(PyObject *self) {
    nn_data_free(((dataset_obj *)self)->ds);
    Py_TYPE(self)->tp_free(self);
}

/* A _DataSet owning [ds] (freed on failure); NULL [ds] raises the engine's
 * error. */
static PyObject *dataset_wrap(nn_dataset *ds) {
    if (!ds) return py_engine_error();
    if (PyType_Ready(&dataset_type) < 0) {
        nn_data_free(ds);
        return NULL;
    }
    dataset_obj *o = PyObject_New(dataset_obj, &dataset_type);
    if (!o) {
        nn_data_free(ds);
        return NULL;
    }
    o->ds = ds;
    return (PyObject *)o;
}

#define DS(self) (((dataset_obj *)(self))->ds)

/* A tensor sharing the dataset's (borrowed) tensor [t], or None. */
static PyObject *tensor_or_none(nn_tensor *t) {
    if (!t) Py_RETURN_NONE;
    return py_tensor_wrap(nn_tensor_retain(t));
}

/* fields(): every field of the dataset as a dict, so the Python class reads
 * them once and keeps the tensors (ds.x is ds.x). */
static PyObject *dataset_fields(PyObject *self, PyObject *unused) {
    (void)unused;
    nn_dataset *ds = DS(self);
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    struct {
        const char *name;
        PyObject *value;
    } items[] = {
        {"name", PyUnicode_FromString(ds->name)},
        {"n", PyLong_FromLongLong(ds->n)},
        {"x", tensor_or_none(ds->x)},
        {"y", tensor_or_none(ds->y)},
        {"mask", tensor_or_none(ds->mask)},
        {"num_classes", PyLong_FromLongLong(ds->num_classes)},
        {"vocab", vocab_wrap(ds->vocab)},
        {"true_w", tensor_or_none(ds->true_w)},
        {"true_b", tensor_or_none(ds->true_b)},
        {"bug_flags", PyLong_FromUnsignedLong(ds->bugs.flags)},
        {"nan_row", ds->nan_row >= 0 ? PyLong_FromLongLong(ds->nan_row) : Py_NewRef(Py_None)},
        {"nan_col", ds->nan_row >= 0 ? PyLong_FromLongLong(ds->nan_col) : Py_NewRef(Py_None)},
        {"padded_rows", tensor_or_none(ds->padded_rows)},
        {"leaked_rows", tensor_or_none(ds->leaked_rows)},
        {"leaked_from", tensor_or_none(ds->leaked_from)},
        {"description", PyUnicode_FromString(ds->description)},
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++) {
        if (!items[i].value || PyDict_SetItemString(d, items[i].name, items[i].value) < 0)
            failed = 1;
        Py_XDECREF(items[i].value);
    }
    if (failed) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

/* Read the bug parameters of [params] (a dict; absent keys keep the
 * engine's defaults) into [b]. */
static int bugs_from_dict(PyObject *params, nn_data_bugs *b) {
    struct {
        const char *key;
        int64_t *i;
        double *f;
    } fields[] = {
        {"relabel_from", &b->relabel_from, NULL},
        {"relabel_to", &b->relabel_to, NULL},
        {"leak_fraction", NULL, &b->leak_fraction},
        {"scale_column", &b->scale_column, NULL},
        {"scale", NULL, &b->scale},
        {"nan_row", &b->nan_row, NULL},
        {"nan_col", &b->nan_col, NULL},
        {"padding_fraction", NULL, &b->padding_fraction},
    };
    PyObject *seed = PyDict_GetItemString(params, "bug_seed");
    if (seed) {
        int64_t s;
        if (py_int_arg(seed, "bug_seed", &s) < 0) return -1;
        b->seed = (uint64_t)s;
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        PyObject *v = PyDict_GetItemString(params, fields[i].key);
        if (!v || v == Py_None) continue;
        if (fields[i].i ? py_int_arg(v, fields[i].key, fields[i].i) < 0
                        : py_float_arg(v, fields[i].key, fields[i].f) < 0)
            return -1;
    }
    return 0;
}

/* plant(flags, params): a copy with the bugs planted. */
static PyObject *dataset_plant(PyObject *self, PyObject *args) {
    unsigned long flags;
    PyObject *params;
    if (!PyArg_ParseTuple(args, "kO!", &flags, &PyDict_Type, &params)) return NULL;
    nn_data_bugs b = nn_data_bugs_init((unsigned)flags);
    if (bugs_from_dict(params, &b) < 0) return NULL;
    return dataset_wrap(nn_data_plant(py_ctx(), DS(self), &b));
}

/* split(train, val, seed) -> (train, val, test). */
static PyObject *dataset_split(PyObject *self, PyObject *args) {
    double tf, vf;
    long long seed;
    if (!PyArg_ParseTuple(args, "ddL", &tf, &vf, &seed)) return NULL;
    nn_dataset *parts[3] = {NULL, NULL, NULL};
    if (nn_data_split(py_ctx(), DS(self), tf, vf, (uint64_t)seed, &parts[0], &parts[1],
                      &parts[2]) != NN_OK)
        return py_engine_error();
    PyObject *objs[3] = {NULL, NULL, NULL};
    for (int i = 0; i < 3; i++) objs[i] = dataset_wrap(parts[i]); /* each owns or frees its part */
    PyObject *r = NULL;
    if (objs[0] && objs[1] && objs[2]) r = PyTuple_Pack(3, objs[0], objs[1], objs[2]);
    for (int i = 0; i < 3; i++) Py_XDECREF(objs[i]);
    return r;
}

/* subset(rows, name): rows is a 1-d int64 tensor. */
static PyObject *dataset_subset(PyObject *self, PyObject *args) {
    PyObject *rows;
    const char *name;
    if (!PyArg_ParseTuple(args, "Os", &rows, &name)) return NULL;
    nn_tensor *t;
    if (py_tensor_arg(rows, "subset", "indices", &t) < 0) return NULL;
    if (t->dtype != NN_INT64 || t->ndim != 1)
        return PyErr_Format(PyExc_TypeError, "subset() expects a list or 1-d int64 tensor of rows");
    int64_t k = nn_tensor_numel(t);
    int64_t *idx = malloc(sizeof *idx * (size_t)(k ? k : 1));
    if (!idx) return PyErr_NoMemory();
    for (int64_t i = 0; i < k; i++) idx[i] = (int64_t)nn_tensor_get_flat_int(t, i);
    nn_dataset *s = nn_data_subset(py_ctx(), DS(self), idx, k, name);
    free(idx);
    return dataset_wrap(s);
}

static PyMethodDef dataset_methods[] = {
    {"fields", dataset_fields, METH_NOARGS, "every field, as a dict"},
    {"plant", dataset_plant, METH_VARARGS, "plant(flags, params): a copy with bugs planted"},
    {"split", dataset_split, METH_VARARGS, "split(train, val, seed) -> (train, val, test)"},
    {"subset", dataset_subset, METH_VARARGS, "subset(rows, name): a dataset of those rows"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject dataset_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._DataSet",
    .tp_basicsize = sizeof(dataset_obj),
    .tp_dealloc = dataset_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An engine dataset (nn_data.h); nndb.data.Dataset wraps it.",
    .tp_methods = dataset_methods,
};

/* ---- the generators ---- */

static PyObject *f_spirals(PyObject *m, PyObject *args) {
    (void)m;
    long long n, classes, seed;
    double noise;
    if (!PyArg_ParseTuple(args, "LLdL", &n, &classes, &noise, &seed)) return NULL;
    return dataset_wrap(nn_data_spirals(py_ctx(), n, classes, noise, (uint64_t)seed));
}

static PyObject *f_moons(PyObject *m, PyObject *args) {
    (void)m;
    long long n, seed;
    double noise;
    if (!PyArg_ParseTuple(args, "LdL", &n, &noise, &seed)) return NULL;
    return dataset_wrap(nn_data_moons(py_ctx(), n, noise, (uint64_t)seed));
}

static PyObject *f_xor(PyObject *m, PyObject *args) {
    (void)m;
    long long n, seed;
    double noise;
    if (!PyArg_ParseTuple(args, "LdL", &n, &noise, &seed)) return NULL;
    return dataset_wrap(nn_data_xor(py_ctx(), n, noise, (uint64_t)seed));
}

static PyObject *f_blobs(PyObject *m, PyObject *args) {
    (void)m;
    long long n, centers, dim, seed;
    double std;
    if (!PyArg_ParseTuple(args, "LLLdL", &n, &centers, &dim, &std, &seed)) return NULL;
    return dataset_wrap(nn_data_blobs(py_ctx(), n, centers, dim, std, (uint64_t)seed));
}

static PyObject *f_regression(PyObject *m, PyObject *args) {
    (void)m;
    long long n, in_dim, out_dim, seed;
    double noise;
    if (!PyArg_ParseTuple(args, "LLLdL", &n, &in_dim, &out_dim, &noise, &seed)) return NULL;
    return dataset_wrap(nn_data_regression(py_ctx(), n, in_dim, out_dim, noise, (uint64_t)seed));
}

static PyObject *f_copy(PyObject *m, PyObject *args) {
    (void)m;
    long long n, length, vocab, seed;
    if (!PyArg_ParseTuple(args, "LLLL", &n, &length, &vocab, &seed)) return NULL;
    return dataset_wrap(nn_data_copy(py_ctx(), n, length, vocab, (uint64_t)seed));
}

/* words(path or None, block_size, seed) */
static PyObject *f_words(PyObject *m, PyObject *args) {
    (void)m;
    const char *path;
    long long bs, seed;
    if (!PyArg_ParseTuple(args, "zLL", &path, &bs, &seed)) return NULL;
    return dataset_wrap(nn_data_words(py_ctx(), path, bs, (uint64_t)seed));
}

static PyObject *f_text(PyObject *m, PyObject *args) {
    (void)m;
    const char *path;
    long long bs, stride;
    if (!PyArg_ParseTuple(args, "sLL", &path, &bs, &stride)) return NULL;
    return dataset_wrap(nn_data_text(py_ctx(), path, bs, stride));
}

/* bugs() -> ([(name, flag)], {param: default}): the engine's bug table, so
 * the Python layer names and defaults follow it. */
static PyObject *f_bugs(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    PyObject *names = PyList_New(0);
    if (!names) return NULL;
    for (int i = 0; i < NN_DATA_BUG_COUNT; i++) {
        PyObject *t = Py_BuildValue("(sk)", nn_data_bug_name(1u << i), (unsigned long)(1u << i));
        if (!t || PyList_Append(names, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(names);
            return NULL;
        }
        Py_DECREF(t);
    }
    nn_data_bugs b = nn_data_bugs_init(0);
    return Py_BuildValue("(N{s:K,s:L,s:L,s:d,s:L,s:d,s:L,s:L,s:d})", names, "bug_seed",
                         (unsigned long long)b.seed, "relabel_from", (long long)b.relabel_from,
                         "relabel_to", (long long)b.relabel_to, "leak_fraction", b.leak_fraction,
                         "scale_column", (long long)b.scale_column, "scale", b.scale, "nan_row",
                         (long long)b.nan_row, "nan_col", (long long)b.nan_col, "padding_fraction",
                         b.padding_fraction);
}

/* ---- plots ---- */

/* A list of floats into a malloc'ed array. */
static int doubles_of(PyObject *seq, double **out, int64_t *n) {
    PyObject *fast = PySequence_Fast(seq, "a plot series must be a sequence of floats");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    double *v = malloc(sizeof *v * (size_t)(len ? len : 1));
    if (!v) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        v[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v[i] == -1.0 && PyErr_Occurred()) {
            free(v);
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    *out = v;
    *n = len;
    return 0;
}

/* A malloc'ed string from nn_plot into a (text, svg) pair, freeing both. */
static PyObject *text_svg_pair(char *text, char *svg) {
    PyObject *r = NULL;
    if (!text || !svg)
        PyErr_NoMemory();
    else
        r = Py_BuildValue("(ss)", text, svg);
    free(text);
    free(svg);
    return r;
}

#define PLOT_MAX_SERIES 16

/* plot(series, labels, title, xlabel, ylabel, logy) -> (text, svg). series
 * is a list of lists of floats, labels a list of str or None (as long). */
static PyObject *f_plot(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *series, *labels;
    const char *title, *xlabel, *ylabel;
    int logy;
    if (!PyArg_ParseTuple(args, "O!O!zzzp", &PyList_Type, &series, &PyList_Type, &labels, &title,
                          &xlabel, &ylabel, &logy))
        return NULL;
    Py_ssize_t ns = PyList_GET_SIZE(series);
    if (ns < 1 || ns > PLOT_MAX_SERIES || PyList_GET_SIZE(labels) != ns)
        return PyErr_Format(PyExc_ValueError, "plot: 1 to %d series, one label each",
                            PLOT_MAX_SERIES);
    nn_plot_series s[PLOT_MAX_SERIES];
    double *vals[PLOT_MAX_SERIES] = {0};
    memset(s, 0, sizeof s);
    PyObject *r = NULL;
    for (Py_ssize_t i = 0; i < ns; i++) {
        if (doubles_of(PyList_GET_ITEM(series, i), &vals[i], &s[i].n) < 0) goto done;
        s[i].y = vals[i];
        PyObject *l = PyList_GET_ITEM(labels, i);
        if (l != Py_None && !(s[i].label = PyUnicode_AsUTF8(l))) goto done;
    }
    nn_plot_spec spec = {title, xlabel, ylabel, logy != 0};
    r = text_svg_pair(nn_plot_text(s, (int)ns, &spec), nn_plot_svg(s, (int)ns, &spec));
done:
    for (Py_ssize_t i = 0; i < ns; i++) free(vals[i]);
    return r;
}

/* hist(values, bins, title) -> (text, svg). */
static PyObject *f_hist(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *values;
    int bins;
    const char *title;
    if (!PyArg_ParseTuple(args, "Oiz", &values, &bins, &title)) return NULL;
    if (bins < 1 || bins > 1000)
        return PyErr_Format(PyExc_ValueError, "hist(): bins must be between 1 and 1000, got %d",
                            bins);
    double *v;
    int64_t n;
    if (doubles_of(values, &v, &n) < 0) return NULL;
    PyObject *r = text_svg_pair(nn_hist_text(v, n, bins, title), nn_hist_svg(v, n, bins, title));
    free(v);
    return r;
}

#define V(name, fn, doc)                                                                           \
    { name, fn, METH_VARARGS, doc }

PyMethodDef py_data_functions[] = {
    V("_data_spirals", f_spirals, "_data_spirals(n, classes, noise, seed)"),
    V("_data_moons", f_moons, "_data_moons(n, noise, seed)"),
    V("_data_xor", f_xor, "_data_xor(n, noise, seed)"),
    V("_data_blobs", f_blobs, "_data_blobs(n, centers, dim, std, seed)"),
    V("_data_regression", f_regression, "_data_regression(n, in_dim, out_dim, noise, seed)"),
    V("_data_copy", f_copy, "_data_copy(n, length, vocab, seed)"),
    V("_data_words", f_words, "_data_words(path or None, block_size, seed)"),
    V("_data_text", f_text, "_data_text(path, block_size, stride)"),
    {"_data_bugs", f_bugs, METH_NOARGS, "([(name, flag)], {param: default})"},
    V("_plot", f_plot, "_plot(series, labels, title, xlabel, ylabel, logy) -> (text, svg)"),
    V("_hist", f_hist, "_hist(values, bins, title) -> (text, svg)"),
    {NULL, NULL, 0, NULL},
};
