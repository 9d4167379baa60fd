/* py_ops_reduce: torch's reductions and scans over the engine: sum, mean,
 * prod, var/std (unbiased or correction=), norm, logsumexp, max/min (all,
 * along a dim as torch.return_types, or elementwise with a tensor),
 * amax/amin, argmax/argmin, all/any, count_nonzero, median, kthvalue,
 * cumsum/cumprod and softmax/log_softmax. keepdims= is accepted for
 * keepdim=, as torch's argument parser does. */
#include <math.h>
#include <string.h>

#include "py_ops.h"

/* dim=None / an int / a tuple of ints; n = 0 for all dims. */
static int dims_arg(PyObject *o, int64_t *dims, int *n) {
    *n = 0;
    if (!py_given(o)) return 0;
    return py_ints_arg(o, "dim", dims, n);
}

/* The same, each checked against [t]'s dims with torch's message. */
static int dims_of(PyObject *o, const nn_tensor *t, int64_t *dims, int *n) {
    if (dims_arg(o, dims, n) < 0) return -1;
    for (int i = 0; i < *n; i++) {
        int d;
        if (py_ops_dim(dims[i], t->ndim, &d) < 0) return -1;
    }
    return 0;
}

/* One dim, checked. */
static int dim_of(PyObject *o, const nn_tensor *t, int64_t *dim) {
    int d;
    if (py_int_arg(o, "dim", dim) < 0 || py_ops_dim(*dim, t->ndim, &d) < 0) return -1;
    return 0;
}

/* keepdim= or its numpy spelling keepdims= (a_[k] and a_[k2]). */
static int keepdim_arg(PyObject *k, PyObject *k2, bool *out) {
    *out = false;
    if (k && k2) {
        PyErr_SetString(PyExc_TypeError, "got both keepdim and keepdims");
        return -1;
    }
    PyObject *o = k ? k : k2;
    return o ? py_bool_arg(o, "keepdim", out) : 0;
}

/* ---- sum, mean, nansum-free basics ---- */

typedef nn_tensor *(*reduce_fn)(nn_ctx *, nn_tensor *, const int64_t *, int, bool);

static PyObject *reduce(const char *name, reduce_fn fn, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "keepdim", "$dtype", "out", "keepdims");
    nn_tensor *t, *src;
    int64_t dims[NN_MAX_DIMS];
    int n;
    bool keep;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || dims_of(a_[1], t, dims, &n) < 0 ||
        keepdim_arg(a_[2], a_[5], &keep) < 0 || py_ops_cast(t, a_[3], &src) < 0)
        return NULL;
    if (fn == nn_mean && a_[3] && a_[3] != Py_None && !nn_dtype_is_float(src->dtype) &&
        !nn_dtype_is_complex(src->dtype)) {
        /* PyTorch names the dtype asked for, not the input's */
        nn_dtype asked = src->dtype;
        nn_tensor_release(src);
        return PyErr_Format(PyExc_RuntimeError,
                            "mean(): could not infer output dtype. Optional dtype must be either "
                            "a floating point or complex dtype. Got: %s",
                            nn_dtype_scalar_name(asked));
    }
    nn_tensor *r = fn(py_ctx(), src, n ? dims : NULL, n, keep);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

#define REDUCE(name, fn) PY_OP_VIA(name, reduce, fn)
REDUCE(sum, nn_sum)
REDUCE(mean, nn_mean)

/* logsumexp(input, dim, keepdim=False) */
PY_OP(logsumexp)
static PyObject *logsumexp_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("logsumexp", 2, "input", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    int64_t dims[NN_MAX_DIMS];
    int n;
    bool keep;
    if (py_tensor_arg(a_[0], "logsumexp", "input", &t) < 0 || dims_of(a_[1], t, dims, &n) < 0 ||
        keepdim_arg(a_[2], a_[4], &keep) < 0)
        return NULL;
    return py_tensor_wrap(nn_logsumexp(py_ctx(), t, n ? dims : NULL, n, keep));
}

/* prod(input, dim=None, keepdim=False, *, dtype=None): one dim at most */
PY_OP(prod)
static PyObject *prod_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("prod", 1, "input", "dim", "keepdim", "$dtype", "out", "keepdims");
    nn_tensor *t, *src;
    int64_t dim = 0;
    bool keep;
    if (py_tensor_arg(a_[0], "prod", "input", &t) < 0 || keepdim_arg(a_[2], a_[5], &keep) < 0)
        return NULL;
    if (py_given(a_[1]) && dim_of(a_[1], t, &dim) < 0) return NULL;
    if (py_ops_cast(t, a_[3], &src) < 0) return NULL;
    nn_tensor *r = nn_prod(py_ctx(), src, dim, !py_given(a_[1]), keep);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

/* ---- var / std: (input, dim=None, unbiased=True, keepdim=False, *,
 * correction=None); var(x, False) is the unbiased flag, as in torch ---- */

static PyObject *var_std(const char *name, bool is_std, bool with_mean, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "unbiased", "keepdim", "$correction", "out", "keepdims");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    PyObject *dv = a_[1], *ub = a_[2];
    if (dv && PyBool_Check(dv)) {
        ub = dv;
        dv = NULL;
    }
    int64_t dims[NN_MAX_DIMS], corr = 1;
    int n;
    bool keep, unbiased = true;
    if (dims_of(dv, t, dims, &n) < 0 || keepdim_arg(a_[3], a_[6], &keep) < 0) return NULL;
    if (py_given(ub) && py_bool_arg(ub, "unbiased", &unbiased) < 0) return NULL;
    corr = unbiased ? 1 : 0;
    if (py_given(a_[4]) && py_int_arg(a_[4], "correction", &corr) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *r = is_std ? nn_std(ctx, t, n ? dims : NULL, n, corr, keep)
                          : nn_var(ctx, t, n ? dims : NULL, n, corr, keep);
    if (!with_mean) return py_tensor_wrap(r);
    nn_tensor *m = r ? nn_mean(ctx, t, n ? dims : NULL, n, keep) : NULL;
    if (!m) {
        nn_tensor_release(r);
        return py_engine_error();
    }
    nn_tensor *pair[2] = {r, m};
    return py_ops_tuple(pair, 2, NULL);
}

PY_OP_VIA(var, var_std, false, false)
PY_OP_VIA(std, var_std, true, false)
PY_OP_VIA(var_mean, var_std, false, true)
PY_OP_VIA(std_mean, var_std, true, true)

/* norm(input, p='fro', dim=None, keepdim=False, dtype=None) */
PY_OP(norm)
static PyObject *norm_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("norm", 1, "input", "p", "dim", "keepdim", "out", "dtype", "keepdims");
    nn_tensor *t, *src;
    int64_t dims[NN_MAX_DIMS];
    int n;
    bool keep;
    double p = 2;
    if (py_tensor_arg(a_[0], "norm", "input", &t) < 0 || dims_of(a_[2], t, dims, &n) < 0 ||
        keepdim_arg(a_[3], a_[6], &keep) < 0)
        return NULL;
    if (py_given(a_[1]) && PyUnicode_Check(a_[1])) {
        const char *s = PyUnicode_AsUTF8(a_[1]);
        if (!s) return NULL;
        if (strcmp(s, "fro") != 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "norm(): p='%s' is not available in nndb; use a number "
                         "or 'fro'",
                         s);
            return NULL;
        }
    } else if (py_given(a_[1]) && py_float_arg(a_[1], "p", &p) < 0) {
        return NULL;
    }
    if (py_ops_cast(t, a_[5], &src) < 0) return NULL;
    nn_tensor *r = nn_norm(py_ctx(), src, p, n ? dims : NULL, n, keep);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

/* ---- max / min ---- */

static PyObject *extreme(const char *name, bool is_max, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    if (a_[1] && py_tensor_check(a_[1])) {
        nn_tensor *r = (is_max ? nn_maximum : nn_minimum)(ctx, t, py_tensor_of(a_[1]));
        return py_tensor_wrap(r);
    }
    if (!py_given(a_[1])) {
        if (a_[2] || a_[4]) {
            PyErr_Format(PyExc_TypeError,
                         "%s() received an invalid combination of arguments - got (Tensor, "
                         "keepdim=bool), but expected one of: (Tensor input), (Tensor input, int "
                         "dim, bool keepdim)",
                         name);
            return NULL;
        }
        if (nn_tensor_numel(t) == 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                         "Specify the reduction dim with the 'dim' argument.",
                         name);
            return NULL;
        }
        return py_tensor_wrap(is_max ? nn_max_all(ctx, t) : nn_min_all(ctx, t));
    }
    int64_t dim;
    bool keep;
    if (dim_of(a_[1], t, &dim) < 0 || keepdim_arg(a_[2], a_[4], &keep) < 0) return NULL;
    nn_tensor *idx = NULL;
    nn_tensor *v =
        is_max ? nn_max_dim(ctx, t, dim, keep, &idx) : nn_min_dim(ctx, t, dim, keep, &idx);
    return py_ops_values_indices(name, v, idx, NULL);
}

PY_OP_VIA(max, extreme, true)
PY_OP_VIA(min, extreme, false)

/* amax/amin(input, dim=(), keepdim=False): max over several dims at once
 * in one pass (the engine's amax, PyTorch's bits and even split of the
 * gradient among ties). */
static PyObject *aextreme(const char *name, bool is_max, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    int64_t dims[NN_MAX_DIMS];
    int nd;
    bool keep;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || dims_of(a_[1], t, dims, &nd) < 0 ||
        keepdim_arg(a_[2], a_[4], &keep) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    bool seen[NN_MAX_DIMS] = {false};
    for (int i = 0; i < nd; i++) {
        int d;
        if (nn_dim_wrap(ctx, dims[i], t->ndim ? t->ndim : 1, &d)) return py_engine_error();
        if (seen[d]) {
            PyErr_Format(PyExc_RuntimeError, "dim %d appears multiple times in the list of dims",
                         d);
            return NULL;
        }
        seen[d] = true;
    }
    if (t->ndim == 0) nd = 0; /* dim 0 or -1 of a 0-dim tensor: the tensor */
    nn_tensor *r = (is_max ? nn_amax : nn_amin)(ctx, t, dims, nd, keep);
    return py_tensor_wrap_named(r, is_max ? "AmaxBackward0" : "AminBackward0");
}

PY_OP_VIA(amax, aextreme, true)
PY_OP_VIA(amin, aextreme, false)

static PyObject *argext(const char *name, bool is_max, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    int64_t dim = 0;
    bool keep;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || keepdim_arg(a_[2], a_[4], &keep) < 0)
        return NULL;
    bool all = !py_given(a_[1]);
    if (!all && dim_of(a_[1], t, &dim) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    return py_tensor_wrap(is_max ? nn_argmax(ctx, t, dim, all, keep)
                                 : nn_argmin(ctx, t, dim, all, keep));
}

PY_OP_VIA(argmax, argext, true)
PY_OP_VIA(argmin, argext, false)

/* ---- all / any / count_nonzero: counts of nonzero elements ---- */

static nn_tensor *count_nz(nn_ctx *ctx, nn_tensor *t, const int64_t *dims, int n, bool keep,
                           bool zeros) {
    nn_tensor *z = nn_scalar_wrapped_int(ctx, 0);
    nn_tensor *hit = z ? (zeros ? nn_eq(ctx, t, z) : nn_ne(ctx, t, z)) : NULL;
    nn_tensor *cnt = hit ? nn_sum(ctx, hit, n ? dims : NULL, n, keep) : NULL;
    nn_tensor_release(z);
    nn_tensor_release(hit);
    return cnt;
}

/* PyTorch 1.13's signatures of any and all: the dim is one int (a tuple
 * of dims came in PyTorch 2.2), keepdim a bool, and neither axis= nor
 * keepdims= is taken. */
static const char *const any_all_fn_sigs[] = {
    "(Tensor input, *, Tensor out)",
    "(Tensor input, int dim, bool keepdim, *, Tensor out)",
    "(Tensor input, name dim, bool keepdim, *, Tensor out)",
};
static const char *const any_all_meth_sigs[] = {"()", "(int dim, bool keepdim)",
                                                "(name dim, bool keepdim)"};

/* Whether PyTorch's argument parser takes [o] for an int: an int that is
 * not a bool, a numpy integer, a 0-dim integer tensor without grad. */
static bool parser_int(PyObject *o) {
    if (PyBool_Check(o)) return false;
    if (PyLong_Check(o)) return true;
    nn_tensor *t = py_tensor_of(o);
    if (t)
        return t->ndim == 0 && nn_dtype_is_int(t->dtype) && t->dtype != NN_BOOL &&
               !t->requires_grad;
    const char *tn = Py_TYPE(o)->tp_name;
    return strncmp(tn, "numpy.", 6) == 0 && strcmp(tn, "numpy.bool_") != 0 && PyIndex_Check(o);
}

int py_ops_any_all_fits(const char *name, bool method, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PyObject *dim = nargs >= 2 ? args[1] : NULL, *keep = nargs >= 3 ? args[2] : NULL;
    bool other = nargs > 3;
    for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); k++) {
        PyObject *kn = PyTuple_GET_ITEM(kwnames, k);
        if (PyUnicode_CompareWithASCIIString(kn, "dim") == 0)
            dim = args[nargs + k];
        else if (PyUnicode_CompareWithASCIIString(kn, "keepdim") == 0)
            keep = args[nargs + k];
        else if (method || (PyUnicode_CompareWithASCIIString(kn, "input") != 0 &&
                            PyUnicode_CompareWithASCIIString(kn, "out") != 0))
            other = true;
    }
    bool keep_ok = !keep || PyBool_Check(keep);
    if (!other && keep_ok && dim && (dim == Py_None || PyUnicode_Check(dim))) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s: You passed a dimname (string) to this op in place of a dimension index "
                     "but it does not yet support this behavior. Please pass a dimension index to "
                     "work around this.",
                     name);
        return -1;
    }
    if (!other && keep_ok && (dim ? parser_int(dim) : !keep)) return 0;
    int skip = method ? 1 : 0;
    return py_invalid_args(name, method ? any_all_meth_sigs : any_all_fn_sigs, 3, args + skip,
                           nargs - skip, kwnames);
}

static PyObject *any_all(const char *name, bool is_any, bool method, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames) {
    if (py_ops_any_all_fits(name, method, args, nargs, kwnames) < 0) return NULL;
    PARSE(name, 1, "input", "dim", "keepdim", "$out");
    nn_tensor *t;
    int64_t dims[NN_MAX_DIMS];
    int n;
    bool keep;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || dims_of(a_[1], t, dims, &n) < 0 ||
        keepdim_arg(a_[2], NULL, &keep) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    bool hit;
    /* over every element of a contiguous tensor (`torch.isnan(loss).any()`):
     * read in place with an early exit */
    if (!py_given(a_[1]) && !keep && nn_tensor_any_all_dense(t, is_any, &hit))
        return py_tensor_wrap(nn_scalar(ctx, hit, t->dtype == NN_UINT8 ? NN_UINT8 : NN_BOOL));
    /* along dims: the engine's reduction, each row read in place up to its
     * first deciding element (complex keeps the count below) */
    nn_tensor *r = NULL;
    if (!nn_dtype_is_complex(t->dtype)) {
        r = (is_any ? nn_any : nn_all)(ctx, t, dims, n, keep);
    } else {
        nn_tensor *cnt = count_nz(ctx, t, dims, n, keep, !is_any);
        nn_tensor *z = cnt ? nn_scalar_wrapped_int(ctx, 0) : NULL;
        r = z ? (is_any ? nn_gt(ctx, cnt, z) : nn_eq(ctx, cnt, z)) : NULL;
        nn_tensor_release(cnt);
        nn_tensor_release(z);
    }
    if (r && t->dtype == NN_UINT8) { /* torch keeps uint8 for uint8 inputs */
        nn_tensor *u = nn_to(ctx, r, NN_UINT8);
        nn_tensor_release(r);
        r = u;
    }
    return py_tensor_wrap(r);
}

/* any/all as functions and methods: their signatures differ in PyTorch's
 * messages, so each has its own entry (PY_OP shares one). */
#define ANY_ALL(name, is_any)                                                                      \
    static PyObject *name##_fn(PyObject *m, PyObject *const *args, Py_ssize_t nargs,               \
                               PyObject *kwnames) {                                                \
        (void)m;                                                                                   \
        return any_all(#name, is_any, false, args, nargs, kwnames);                                \
    }                                                                                              \
    static PyObject *name##_meth_impl(PyObject *const *args, Py_ssize_t nargs,                     \
                                      PyObject *kwnames) {                                         \
        return any_all(#name, is_any, true, args, nargs, kwnames);                                 \
    }                                                                                              \
    static PyObject *name##_meth(PyObject *self, PyObject *const *args, Py_ssize_t nargs,          \
                                 PyObject *kwnames) {                                              \
        if (kwnames && py_method_refuse_out(#name, kwnames) < 0) return NULL;                      \
        return py_call_method(name##_meth_impl, self, args, nargs, kwnames);                       \
    }
ANY_ALL(all, false)
ANY_ALL(any, true)

PY_OP(count_nonzero)
static PyObject *count_nonzero_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("count_nonzero", 1, "input", "dim");
    nn_tensor *t;
    int64_t dims[NN_MAX_DIMS];
    int n;
    if (py_tensor_arg(a_[0], "count_nonzero", "input", &t) < 0 || dims_of(a_[1], t, dims, &n) < 0)
        return NULL;
    return py_tensor_wrap(count_nz(py_ctx(), t, dims, n, false, false));
}

/* ---- median / kthvalue: from a sort ---- */

/* The k-th smallest (0-based) along [dim] of a sort, as values and
 * indices. */
static PyObject *kth_along(const char *name, nn_tensor *t, int64_t k, int64_t dim, bool keep,
                           const char *values_fn) {
    nn_ctx *ctx = py_ctx();
    int d;
    if (nn_dim_wrap(ctx, dim, t->ndim ? t->ndim : 1, &d)) return py_engine_error();
    nn_tensor *src = t->ndim ? nn_tensor_retain(t) : nn_reshape(ctx, t, 1, (int64_t[]){1});
    if (!src) return py_engine_error();
    int64_t len = src->shape[d];
    if (k < 0 || k >= len) {
        PyErr_Format(PyExc_RuntimeError, "%s(): selected number k out of range for dimension %d",
                     name, d);
        nn_tensor_release(src);
        return NULL;
    }
    /* the positions by selection, the values gathered at them (gather
     * carries the gradient) */
    nn_tensor *i = nn_kth_indices(ctx, src, k, d, strcmp(name, "median") == 0);
    nn_tensor *v = i ? nn_gather(ctx, src, d, i) : NULL;
    nn_tensor_release(src);
    if (v && (!keep || !t->ndim)) {
        nn_tensor *v0 = t->ndim ? nn_squeeze(ctx, v, d) : nn_reshape(ctx, v, 0, NULL);
        nn_tensor *i0 = !v0 ? NULL : t->ndim ? nn_squeeze(ctx, i, d) : nn_reshape(ctx, i, 0, NULL);
        nn_tensor_release(v);
        nn_tensor_release(i);
        v = v0;
        i = i0;
        if (i) {
            nn_tensor *ic = nn_contiguous(ctx, i);
            nn_tensor_release(i);
            i = ic;
        }
    }
    if (!v || !i) {
        nn_tensor_release(v);
        nn_tensor_release(i);
        return py_engine_error();
    }
    return py_ops_values_indices(name, v, i, values_fn);
}

PY_OP(median)
static PyObject *median_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("median", 1, "input", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    bool keep;
    if (py_tensor_arg(a_[0], "median", "input", &t) < 0 || keepdim_arg(a_[2], a_[4], &keep) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    if (!py_given(a_[1])) {
        int64_t n = nn_tensor_numel(t);
        if (n == 0) return py_tensor_wrap(nn_full(ctx, t->dtype, 0, NULL, NAN));
        nn_tensor *flat = nn_reshape(ctx, t, 1, &n);
        if (!flat) return py_engine_error();
        PyObject *r = kth_along("median", flat, (n - 1) / 2, 0, false, "MedianBackward0");
        nn_tensor_release(flat);
        if (!r) return NULL;
        PyObject *v = Py_NewRef(PyStructSequence_GetItem(r, 0));
        Py_DECREF(r);
        return v;
    }
    int64_t dim;
    if (py_int_arg(a_[1], "dim", &dim) < 0) return NULL;
    int d;
    if (nn_dim_wrap(ctx, dim, t->ndim ? t->ndim : 1, &d)) return py_engine_error();
    int64_t len = t->ndim ? t->shape[d] : 1;
    return kth_along("median", t, (len - 1) / 2, dim, keep, "MedianBackward1");
}

PY_OP(kthvalue)
static PyObject *kthvalue_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE_NP("kthvalue", 2, "input", "k", "dim", "keepdim", "$out", "keepdims");
    nn_tensor *t;
    int64_t k, dim = -1;
    bool keep;
    if (py_tensor_arg(a_[0], "kthvalue", "input", &t) < 0 || py_int_arg(a_[1], "k", &k) < 0 ||
        keepdim_arg(a_[3], a_[5], &keep) < 0)
        return NULL;
    if (py_given(a_[2]) && py_int_arg(a_[2], "dim", &dim) < 0) return NULL;
    return kth_along("kthvalue", t, k - 1, dim, keep, "KthvalueBackward0");
}

/* ---- scans ---- */

static PyObject *scan(const char *name, bool prod, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames) {
    PARSE_NP(name, 2, "input", "dim", "$dtype", "out");
    nn_tensor *t, *src;
    int64_t dim;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || dim_of(a_[1], t, &dim) < 0 ||
        py_ops_cast(t, a_[2], &src) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *r = prod ? nn_cumprod(ctx, src, dim) : nn_cumsum(ctx, src, dim);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

PY_OP_VIA(cumsum, scan, false)
PY_OP_VIA(cumprod, scan, true)

/* ---- softmax / log_softmax(input, dim, dtype=None) ---- */

static PyObject *softmax_like(const char *name, bool log, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE_NP(name, 1, "input", "dim", "dtype", "_stacklevel");
    nn_tensor *t, *src;
    int64_t dim;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    if (!py_given(a_[1])) {
        PyErr_Format(PyExc_TypeError,
                     "%s() received an invalid combination of arguments - got (Tensor), but "
                     "expected one of:\n * (Tensor input, int dim, torch.dtype dtype)\n * (Tensor "
                     "input, str dim, *, torch.dtype dtype)",
                     name);
        return NULL;
    }
    if (dim_of(a_[1], t, &dim) < 0 || py_ops_cast(t, a_[2], &src) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *r = log ? nn_log_softmax(ctx, src, dim) : nn_softmax(ctx, src, dim);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

PY_OP_VIA(softmax, softmax_like, false)
PY_OP_VIA(log_softmax, softmax_like, true)

/* ---- in place ---- */

PY_INPLACE(cumsum)
PY_INPLACE(cumprod)

/* ---- tables ---- */

// clang-format off
#define BOTH(X)                                                                                    \
    X(sum) X(mean) X(prod) X(var) X(std) X(var_mean) X(std_mean) X(norm) X(logsumexp) X(max)       \
    X(min) X(amax) X(amin) X(argmax) X(argmin) X(all) X(any) X(count_nonzero) X(median)            \
    X(kthvalue) X(cumsum) X(cumprod) X(softmax) X(log_softmax)
// clang-format on
#define FN_ROW(name)   PY_FN_ENTRY(#name, name, NULL),
#define METH_ROW(name) PY_METH_ENTRY(#name, name, NULL),

PyMethodDef py_ops_reduce_functions[] = {
    BOTH(FN_ROW){NULL, NULL, 0, NULL},
};

PyMethodDef py_ops_reduce_methods[] = {
    BOTH(METH_ROW) PY_INPLACE_ENTRY(cumsum),
    PY_INPLACE_ENTRY(cumprod),
    {NULL, NULL, 0, NULL},
};
