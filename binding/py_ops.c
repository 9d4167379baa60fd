/* py_ops: what the op areas share (py_ops.h): tuples of results,
 * torch.return_types, ints given as varargs, generators, dtype= casts and
 * the in-place rule. The ops themselves live in py_ops_*.c. */
#include "py_ops.h"

#include <string.h>

/* The ops are in the area tables; these stay for the module's assembly. */
PyMethodDef py_ops_functions[] = {{NULL, NULL, 0, NULL}};
PyMethodDef py_ops_methods[] = {{NULL, NULL, 0, NULL}};

void py_ops_release(nn_tensor **ts, int n) {
    for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
}

bool py_ops_any_complex(PyObject *const *objs, int n) {
    for (int i = 0; i < n; i++) {
        if (!objs[i]) continue;
        nn_tensor *t = py_tensor_of(objs[i]);
        if (t ? nn_dtype_is_complex(t->dtype) : PyComplex_Check(objs[i])) return true;
    }
    return false;
}

PyObject *py_ops_complex_fallback(const char *name, PyObject *const *objs, int n) {
    PyObject *mod = PyImport_ImportModule("torch._complex_ops");
    if (!mod) return NULL;
    PyObject *fn = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    if (!fn) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *r = PyObject_Vectorcall(fn, objs, (size_t)n, NULL);
    Py_DECREF(fn);
    return r;
}

int py_ops_check_cast_dtype(nn_dtype r, nn_dtype t) {
    if (nn_dtype_can_cast(r, t)) return 0;
    PyErr_Format(PyExc_RuntimeError, "result type %s can't be cast to the desired output type %s",
                 nn_dtype_scalar_name(r), nn_dtype_scalar_name(t));
    return -1;
}

int py_ops_check_cast(const nn_tensor *r, const nn_tensor *t) {
    return py_ops_check_cast_dtype(r->dtype, t->dtype);
}

PyObject *py_ops_out_result(PyObject *result, PyObject *out) {
    nn_tensor *r = py_tensor_of(result), *o = py_tensor_of(out);
    PyObject *res = Py_None;
    /* only when the shape differs: a view given as out stays a view of
     * its base, as in PyTorch */
    if (!r || !o || !nn_tensor_same_shape(r, o)) {
        PyObject *shape = PyObject_GetAttrString(result, "shape");
        res = shape ? PyObject_CallMethod(out, "resize_", "O", shape) : NULL;
        Py_XDECREF(shape);
        Py_XDECREF(res);
    }
    res = res ? PyObject_CallMethod(out, "copy_", "O", result) : NULL;
    Py_DECREF(result);
    if (!res) return NULL;
    Py_DECREF(res);
    return Py_NewRef(out);
}

PyObject *py_ops_tuple(nn_tensor **ps, int n, const char *fn_name) {
    PyObject *tup = PyTuple_New(n);
    if (!tup) {
        py_ops_release(ps, n);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyObject *o = fn_name ? py_tensor_wrap_named(ps[i], fn_name) : py_tensor_wrap(ps[i]);
        ps[i] = NULL;
        if (!o) {
            py_ops_release(ps + i + 1, n - i - 1);
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, o);
    }
    return tup;
}

/* ---- torch.return_types: struct sequences of (values, indices) whose
 * repr is torch's, one line per field ---- */

static const char *const rt_names[] = {"max",    "min",  "sort",   "topk",  "kthvalue",
                                       "median", "mode", "cummax", "cummin"};
#define RT_COUNT ((int)(sizeof rt_names / sizeof rt_names[0]))
static PyTypeObject *rt_types[RT_COUNT];

PyObject *py_ops_pair_repr(PyObject *self) {
    PyObject *v = PyObject_Repr(PyStructSequence_GetItem(self, 0));
    PyObject *i = v ? PyObject_Repr(PyStructSequence_GetItem(self, 1)) : NULL;
    PyObject *r =
        i ? PyUnicode_FromFormat("%s(\nvalues=%U,\nindices=%U)", Py_TYPE(self)->tp_name, v, i)
          : NULL;
    Py_XDECREF(v);
    Py_XDECREF(i);
    return r;
}

int py_ops_setup(PyObject *module) {
    static PyStructSequence_Field fields[] = {
        {"values", "the values"}, {"indices", "their indices"}, {NULL, NULL}};
    static char type_names[RT_COUNT][40];
    PyObject *ns = PyDict_New();
    if (!ns) return -1;
    for (int k = 0; k < RT_COUNT; k++) {
        snprintf(type_names[k], sizeof type_names[k], "torch.return_types.%s", rt_names[k]);
        PyStructSequence_Desc desc = {type_names[k], NULL, fields, 2};
        rt_types[k] = PyStructSequence_NewType(&desc);
        if (!rt_types[k]) {
            Py_DECREF(ns);
            return -1;
        }
        rt_types[k]->tp_repr = py_ops_pair_repr;
        PyType_Modified(rt_types[k]);
        if (PyDict_SetItemString(ns, rt_names[k], (PyObject *)rt_types[k]) < 0) {
            Py_DECREF(ns);
            return -1;
        }
    }
    int r = PyModule_AddObjectRef(module, "_return_types", ns);
    Py_DECREF(ns);
    return r;
}

PyObject *py_ops_values_indices(const char *name, nn_tensor *values, nn_tensor *indices,
                                const char *values_fn) {
    PyTypeObject *tp = NULL;
    for (int k = 0; k < RT_COUNT; k++)
        if (strcmp(rt_names[k], name) == 0) tp = rt_types[k];
    if (!values || !indices || !tp) {
        nn_tensor_release(values);
        nn_tensor_release(indices);
        if (!tp && !PyErr_Occurred()) {
            PyErr_Format(PyExc_SystemError, "no return type %s", name);
            return NULL;
        }
        return py_engine_error();
    }
    PyObject *v = values_fn ? py_tensor_wrap_named(values, values_fn) : py_tensor_wrap(values);
    PyObject *i = py_tensor_wrap(indices);
    PyObject *r = v && i ? PyStructSequence_New(tp) : NULL;
    if (!r) {
        Py_XDECREF(v);
        Py_XDECREF(i);
        return NULL;
    }
    PyStructSequence_SetItem(r, 0, v);
    PyStructSequence_SetItem(r, 1, i);
    return r;
}

/* ---- arguments ---- */

int py_ops_varints(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   Py_ssize_t first, const char *kwname, int64_t *out, int *n) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *const *rest = args + first;
    Py_ssize_t nrest = nargs - first;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        if (!s) return -1;
        if (strcmp(s, kwname) != 0 || nrest > 0 || nkw > 1) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname, s);
            return -1;
        }
        rest = args + nargs;
        nrest = 1;
    }
    if (nrest == 1 && !PyLong_Check(rest[0]) && !py_tensor_of(rest[0]))
        return py_ints_arg(rest[0], kwname, out, n);
    if (nrest > NN_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "%s(): at most %d dims are supported", fname, NN_MAX_DIMS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nrest; i++)
        if (py_int_arg(rest[i], kwname, &out[i]) < 0) return -1;
    *n = (int)nrest;
    return 0;
}

int py_ops_tensor_varints(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames, const char *kwname, nn_tensor **t, int64_t *out,
                          int *n) {
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument 'input'", fname);
        return -1;
    }
    if (py_tensor_arg(args[0], fname, "input", t) < 0) return -1;
    return py_ops_varints(fname, args, nargs, kwnames, 1, kwname, out, n);
}

PyObject *py_ops_numpy_names(PyObject *kwnames) {
    if (!kwnames) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    PyObject *r = PyTuple_New(n);
    for (Py_ssize_t i = 0; r && i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        const char *s = PyUnicode_AsUTF8(k);
        if (!s) {
            Py_CLEAR(r);
            break;
        }
        PyObject *v = strcmp(s, "axis") == 0       ? PyUnicode_FromString("dim")
                      : strcmp(s, "keepdims") == 0 ? PyUnicode_FromString("keepdim")
                                                   : Py_NewRef(k);
        if (!v) {
            Py_CLEAR(r);
            break;
        }
        PyTuple_SET_ITEM(r, i, v);
    }
    return r;
}

int py_ops_dim(int64_t dim, int ndim, int *out) {
    int n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n) {
        PyErr_Format(PyExc_IndexError,
                     "Dimension out of range (expected to be in range of [%d, %d], but got %lld)",
                     -n, n - 1, (long long)dim);
        return -1;
    }
    *out = (int)(dim < 0 ? dim + n : dim);
    return 0;
}

int py_ops_generator(PyObject *g, nn_rng **out) {
    *out = NULL;
    if (!py_given(g)) return 0;
    PyObject *cap = PyObject_GetAttrString(g, "_engine");
    if (!cap) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "generator must be a torch.Generator, not %s",
                     Py_TYPE(g)->tp_name);
        return -1;
    }
    *out = PyCapsule_GetPointer(cap, "nndb.rng");
    Py_DECREF(cap);
    return *out ? 0 : -1;
}

int py_ops_cast(nn_tensor *t, PyObject *dtype, nn_tensor **out) {
    nn_dtype dt = t->dtype;
    if (py_dtype_arg(dtype, &dt) < 0) return -1;
    *out = dt == t->dtype ? nn_tensor_retain(t) : nn_to(py_ctx(), t, dt);
    if (!*out) return (py_engine_error(), -1);
    return 0;
}

/* ---- in place ---- */

PyObject *py_ops_inplace_result(PyObject *self, PyObject *result, const char *name) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = py_tensor_of(self), *r = py_tensor_of(result);
    if (!t || !r) {
        Py_DECREF(result);
        PyErr_Format(PyExc_TypeError, "%s(): expected a tensor result", name);
        return NULL;
    }
    /* the result requires grad exactly when self or an operand did */
    bool record = nn_inplace_records(ctx, t, r);
    nn_status st = record ? nn_inplace_check(ctx, t, name) : nn_tensor_check_inplace(ctx, t, name);
    if (st) {
        Py_DECREF(result);
        return py_engine_error();
    }
    if (!nn_tensor_same_shape(t, r)) {
        char a[128], b[128];
        PyErr_Format(PyExc_RuntimeError,
                     "output with shape %s doesn't match the broadcast shape %s",
                     nn_tensor_shape_str(t, a, sizeof a), nn_tensor_shape_str(r, b, sizeof b));
        Py_DECREF(result);
        return NULL;
    }
    if (py_ops_check_cast(r, t) < 0) {
        Py_DECREF(result);
        return NULL;
    }
    if (record) {
        st = nn_tensor_assign_(ctx, t, r);
        if (!st) ((py_tensor *)self)->fn_name = t->grad_fn ? ((py_tensor *)result)->fn_name : NULL;
    } else {
        st = nn_tensor_copy_(ctx, t, r);
    }
    Py_DECREF(result);
    if (py_status(st) < 0) return NULL;
    return Py_NewRef(self);
}

PyObject *py_ops_inplace_call(py_impl_fn impl, const char *name, bool reads_self, PyObject *self,
                              PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = py_tensor_of(self);
    bool record = t && ctx->grad_enabled && t->requires_grad && t->grad_fn;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; t && ctx->grad_enabled && i < nargs + nkw && !record; i++) {
        nn_tensor *o = py_tensor_of(args[i]);
        record = o && o->requires_grad;
    }
    PyObject *base = self, *copy = NULL;
    if (record && reads_self && !(t->requires_grad && !t->grad_fn)) {
        copy = py_tensor_wrap(nn_add_scalar(ctx, t, 0.0));
        if (!copy) return NULL;
        base = copy;
    }
    PyObject *r = py_call_method(impl, base, args, nargs, kwnames);
    Py_XDECREF(copy);
    return r ? py_ops_inplace_result(self, r, name) : NULL;
}
