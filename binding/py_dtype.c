/* py_dtype: torch.dtype (one static object per engine dtype, so == is
 * identity as in torch) and torch.Size (a tuple subclass that prints as
 * torch.Size([2, 3])). */
#include "py.h"

typedef struct dtype_object {
    PyObject_HEAD nn_dtype dt;
} dtype_object;

static dtype_object dtypes[NN_DTYPE_COUNT];
static nn_dtype default_dtype = NN_FLOAT32;

nn_dtype py_default_dtype(void) {
    return default_dtype;
}

void py_set_default_dtype(nn_dtype dt) {
    default_dtype = dt;
}

PyObject *py_dtype_object(nn_dtype dt) {
    return (PyObject *)&dtypes[dt];
}

static PyObject *dtype_repr(PyObject *self) {
    return PyUnicode_FromFormat("torch.%s", nn_dtype_name(((dtype_object *)self)->dt));
}

static PyObject *dtype_is_floating_point(PyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(nn_dtype_is_float(((dtype_object *)self)->dt));
}

static PyObject *dtype_is_signed(PyObject *self, void *closure) {
    (void)closure;
    nn_dtype dt = ((dtype_object *)self)->dt;
    return PyBool_FromLong(dt != NN_BOOL && dt != NN_UINT8);
}

static PyObject *dtype_itemsize(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(nn_dtype_size(((dtype_object *)self)->dt));
}

static PyObject *dtype_is_complex(PyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(nn_dtype_is_complex(((dtype_object *)self)->dt));
}

static PyObject *dtype_reduce(PyObject *self, PyObject *unused) {
    (void)unused;
    /* pickles as the attribute of torch that names it */
    return PyUnicode_FromString(nn_dtype_name(((dtype_object *)self)->dt));
}

static PyGetSetDef dtype_getset[] = {
    {"is_floating_point", dtype_is_floating_point, NULL, "a floating-point dtype", NULL},
    {"is_signed", dtype_is_signed, NULL, "a signed dtype", NULL},
    {"is_complex", dtype_is_complex, NULL, "a complex dtype (complex64, complex128)", NULL},
    {"itemsize", dtype_itemsize, NULL, "bytes per element", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject py_dtype_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.dtype",
    .tp_basicsize = sizeof(dtype_object),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_repr = dtype_repr,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
    .tp_doc = "The element type of a tensor: torch.float32, torch.int64, ...",
};

/* ---- torch.Size ---- */

static PyObject *size_repr(PyObject *self) {
    PyObject *items = PyTuple_Type.tp_repr(self);
    if (!items) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(self);
    PyObject *r;
    if (n == 1) {
        /* "(3,)" -> "[3]" */
        PyObject *one = PyObject_Repr(PyTuple_GET_ITEM(self, 0));
        r = one ? PyUnicode_FromFormat("torch.Size([%U])", one) : NULL;
        Py_XDECREF(one);
    } else {
        PyObject *inner = PyUnicode_Substring(items, 1, PyUnicode_GET_LENGTH(items) - 1);
        r = inner ? PyUnicode_FromFormat("torch.Size([%U])", inner) : NULL;
        Py_XDECREF(inner);
    }
    Py_DECREF(items);
    return r;
}

PyObject *py_size_new(int ndim, const int64_t *shape) {
    PyObject *s = PyTuple_Type.tp_alloc(&py_size_type, ndim);
    if (!s) return NULL;
    for (int d = 0; d < ndim; d++) {
        PyObject *v = PyLong_FromLongLong(shape[d]);
        if (!v) {
            Py_DECREF(s);
            return NULL;
        }
        PyTuple_SET_ITEM(s, d, v);
    }
    return s;
}

static PyObject *size_from_tuple(PyObject *t) {
    Py_ssize_t n = PyTuple_GET_SIZE(t);
    PyObject *s = PyTuple_Type.tp_alloc(&py_size_type, n);
    if (!s) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyTuple_GET_ITEM(t, i);
        Py_INCREF(v);
        PyTuple_SET_ITEM(s, i, v);
    }
    return s;
}

static PyObject *size_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *it = NULL;
    if (!PyArg_ParseTuple(args, "|O:Size", &it)) return NULL;
    (void)kw;
    PyObject *t = it ? PySequence_Tuple(it) : PyTuple_New(0);
    if (!t) return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        PyObject *v = PyTuple_GET_ITEM(t, i);
        if (!PyLong_Check(v) && !PyIndex_Check(v)) {
            PyErr_Format(PyExc_TypeError,
                         "torch.Size() takes an iterable of 'int' (item %zd is '%s')", i,
                         Py_TYPE(v)->tp_name);
            Py_DECREF(t);
            return NULL;
        }
    }
    PyObject *s;
    if (type == &py_size_type) {
        s = size_from_tuple(t);
    } else {
        PyObject *a = PyTuple_Pack(1, t);
        s = a ? PyTuple_Type.tp_new(type, a, NULL) : NULL;
        Py_XDECREF(a);
    }
    Py_DECREF(t);
    return s;
}

static PyObject *size_subscript(PyObject *self, PyObject *key) {
    PyObject *r = PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
    if (r && PySlice_Check(key) && PyTuple_CheckExact(r)) {
        PyObject *s = size_from_tuple(r);
        Py_DECREF(r);
        return s;
    }
    return r;
}

static PyObject *size_numel(PyObject *self, PyObject *unused) {
    (void)unused;
    long long n = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(self); i++) {
        long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(self, i));
        if (v == -1 && PyErr_Occurred()) return NULL;
        n *= v;
    }
    return PyLong_FromLongLong(n);
}

static PyObject *size_reduce(PyObject *self, PyObject *unused) {
    (void)unused;
    PyObject *t = PySequence_Tuple(self);
    if (!t) return NULL;
    PyObject *r = Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), t);
    return r;
}

static PyObject *size_concat(PyObject *a, PyObject *b) {
    PyObject *r = PyTuple_Type.tp_as_sequence->sq_concat(a, b);
    if (r && PyTuple_CheckExact(r)) {
        PyObject *s = size_from_tuple(r);
        Py_DECREF(r);
        return s;
    }
    return r;
}

static PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "the number of elements a tensor of this size has"},
    {"__reduce__", size_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMappingMethods size_mapping;
static PySequenceMethods size_sequence;

PyTypeObject py_size_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch.Size",
    .tp_basicsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_TUPLE_SUBCLASS,
    .tp_repr = size_repr,
    .tp_new = size_new,
    .tp_methods = size_methods,
    .tp_as_mapping = &size_mapping,
    .tp_as_sequence = &size_sequence,
    .tp_doc = "The shape of a tensor: a tuple of ints that prints as torch.Size([2, 3]).",
};

int py_dtype_setup(PyObject *m);
int py_dtype_setup(PyObject *m) {
    if (PyType_Ready(&py_dtype_type) < 0) return -1;
    py_size_type.tp_base = &PyTuple_Type;
    py_size_type.tp_basicsize = PyTuple_Type.tp_basicsize;
    py_size_type.tp_itemsize = PyTuple_Type.tp_itemsize;
    size_mapping = *PyTuple_Type.tp_as_mapping;
    size_mapping.mp_subscript = size_subscript;
    size_sequence = *PyTuple_Type.tp_as_sequence;
    size_sequence.sq_concat = size_concat;
    if (PyType_Ready(&py_size_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "dtype", (PyObject *)&py_dtype_type) < 0) return -1;
    if (PyModule_AddObjectRef(m, "Size", (PyObject *)&py_size_type) < 0) return -1;
    static const struct {
        const char *name;
        nn_dtype dt;
    } names[] = {
        {"float32", NN_FLOAT32},
        {"float", NN_FLOAT32},
        {"float64", NN_FLOAT64},
        {"double", NN_FLOAT64},
        {"int64", NN_INT64},
        {"long", NN_INT64},
        {"bool", NN_BOOL},
        {"int32", NN_INT32},
        {"int", NN_INT32},
        {"int16", NN_INT16},
        {"short", NN_INT16},
        {"int8", NN_INT8},
        {"uint8", NN_UINT8},
        {"float16", NN_FLOAT16},
        {"half", NN_FLOAT16},
        {"bfloat16", NN_BFLOAT16},
        {"complex64", NN_COMPLEX64},
        {"cfloat", NN_COMPLEX64},
        {"complex128", NN_COMPLEX128},
        {"cdouble", NN_COMPLEX128},
    };
    for (int d = 0; d < NN_DTYPE_COUNT; d++) {
        dtypes[d].dt = (nn_dtype)d;
        /* immortal: static storage, a reference the module never gives back */
        Py_SET_REFCNT(&dtypes[d], 1 << 29);
        Py_SET_TYPE(&dtypes[d], &py_dtype_type);
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (PyModule_AddObjectRef(m, names[i].name, py_dtype_object(names[i].dt)) < 0) return -1;
    return 0;
}
