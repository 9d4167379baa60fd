/* py_conv: the convolution, unfold/fold and pooling kernels under
 * torch.nn.functional's image ops, as private functions of torch._C
 * (_nn_conv, _nn_unfold, _nn_fold, _nn_pool). The Python layer
 * (python/torch/nn/_functional_image.py) owns the signatures, defaults,
 * padding strings and unbatched inputs; these take batched inputs and one
 * int per spatial dim, already expanded. See py.h for the conventions.
 */
#include "py.h"

#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

#define FN(name)                                                                                   \
    static PyObject *name(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)

static int opt_tensor(PyObject *o, const char *fname, const char *what, nn_tensor **out) {
    *out = NULL;
    if (!o || o == Py_None) return 0;
    return py_tensor_arg(o, fname, what, out);
}

/* [n] ints (a sequence of exactly n, or one int repeated). */
static int ints_n(PyObject *o, const char *what, int n, int64_t *out) {
    int64_t v[NN_MAX_DIMS];
    int got = 0;
    if (py_ints_arg(o, what, v, &got) < 0) return -1;
    if (got == 1) { /* an int, or a one-element sequence: PyTorch repeats both */
        for (int i = 0; i < n; i++) out[i] = v[0];
        return 0;
    }
    if (got != n) {
        PyErr_Format(PyExc_RuntimeError, "expected %s to have %d values, but got %d", what, n, got);
        return -1;
    }
    for (int i = 0; i < n; i++) out[i] = v[i];
    return 0;
}

/* _nn_conv(input, weight, bias, stride, padding, dilation, output_padding,
 * groups, transposed) */
FN(f_conv) {
    (void)m;
    PARSE("_nn_conv", 9, "input", "weight", "bias", "stride", "padding", "dilation",
          "output_padding", "groups", "transposed");
    nn_tensor *x, *w, *b;
    int64_t s[3], p[3], d[3], op[3], groups;
    bool tr;
    if (py_tensor_arg(a_[0], "conv", "input", &x) < 0 ||
        py_tensor_arg(a_[1], "conv", "weight", &w) < 0 || opt_tensor(a_[2], "conv", "bias", &b) < 0)
        return NULL;
    int nsp = x->ndim - 2;
    if (nsp < 1 || nsp > 3) {
        PyErr_Format(PyExc_RuntimeError, "convolution: expected a 3-D, 4-D or 5-D input, got %d-D",
                     x->ndim);
        return NULL;
    }
    if (ints_n(a_[3], "stride", nsp, s) < 0 || ints_n(a_[4], "padding", nsp, p) < 0 ||
        ints_n(a_[5], "dilation", nsp, d) < 0 || ints_n(a_[6], "output_padding", nsp, op) < 0 ||
        py_int_arg(a_[7], "groups", &groups) < 0 || py_bool_arg(a_[8], "transposed", &tr) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_conv(py_ctx(), x, w, b, s, p, d, op, groups, tr),
                                "ConvolutionBackward0");
}

/* _nn_unfold(input, kernel_size, dilation, padding, stride) */
FN(f_unfold) {
    (void)m;
    PARSE("_nn_unfold", 5, "input", "kernel_size", "dilation", "padding", "stride");
    nn_tensor *x;
    int64_t k[2], d[2], p[2], s[2];
    if (py_tensor_arg(a_[0], "unfold", "input", &x) < 0 || ints_n(a_[1], "kernel_size", 2, k) < 0 ||
        ints_n(a_[2], "dilation", 2, d) < 0 || ints_n(a_[3], "padding", 2, p) < 0 ||
        ints_n(a_[4], "stride", 2, s) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_unfold(py_ctx(), x, k, d, p, s), "Im2ColBackward0");
}

/* _nn_fold(input, output_size, kernel_size, dilation, padding, stride) */
FN(f_fold) {
    (void)m;
    PARSE("_nn_fold", 6, "input", "output_size", "kernel_size", "dilation", "padding", "stride");
    nn_tensor *x;
    int64_t o[2], k[2], d[2], p[2], s[2];
    if (py_tensor_arg(a_[0], "fold", "input", &x) < 0 || ints_n(a_[1], "output_size", 2, o) < 0 ||
        ints_n(a_[2], "kernel_size", 2, k) < 0 || ints_n(a_[3], "dilation", 2, d) < 0 ||
        ints_n(a_[4], "padding", 2, p) < 0 || ints_n(a_[5], "stride", 2, s) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_fold(py_ctx(), x, o, k, d, p, s), "Col2ImBackward0");
}

/* _nn_pool(input, is_max, adaptive, kernel_size, stride, padding, dilation,
 * ceil_mode, count_include_pad, divisor_override, return_indices, name):
 * the output, or (output, indices) with return_indices. [name] is the
 * grad_fn name torch shows. */
FN(f_pool) {
    (void)m;
    PARSE("_nn_pool", 12, "input", "is_max", "adaptive", "kernel_size", "stride", "padding",
          "dilation", "ceil_mode", "count_include_pad", "divisor_override", "return_indices",
          "name");
    nn_tensor *x;
    bool is_max, adaptive, ceil_mode, include_pad, want;
    int64_t k[3], s[3] = {1, 1, 1}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1};
    double div = 0;
    if (py_tensor_arg(a_[0], "pool", "input", &x) < 0 ||
        py_bool_arg(a_[1], "is_max", &is_max) < 0 || py_bool_arg(a_[2], "adaptive", &adaptive) < 0)
        return NULL;
    int nsp = x->ndim - 2;
    if (nsp < 1 || nsp > 3) {
        PyErr_Format(PyExc_RuntimeError,
                     "pooling: expected a batched 3-D, 4-D or 5-D input, got "
                     "%d-D",
                     x->ndim);
        return NULL;
    }
    if (ints_n(a_[3], "kernel_size", nsp, k) < 0) return NULL;
    if (!adaptive && (ints_n(a_[4], "stride", nsp, s) < 0 || ints_n(a_[5], "padding", nsp, p) < 0 ||
                      ints_n(a_[6], "dilation", nsp, d) < 0))
        return NULL;
    if (py_bool_arg(a_[7], "ceil_mode", &ceil_mode) < 0 ||
        py_bool_arg(a_[8], "count_include_pad", &include_pad) < 0 ||
        (a_[9] != Py_None && py_float_arg(a_[9], "divisor_override", &div) < 0) ||
        py_bool_arg(a_[10], "return_indices", &want) < 0)
        return NULL;
    if (a_[9] != Py_None && div == 0) {
        PyErr_SetString(PyExc_RuntimeError, "divisor must be not zero");
        return NULL;
    }
    const char *name = PyUnicode_Check(a_[11]) ? PyUnicode_AsUTF8(a_[11]) : NULL;
    if (name) name = nn_ctx_intern(py_ctx(), name); /* the tensor keeps the pointer */
    nn_tensor *ind = NULL;
    nn_tensor *r = nn_pool(py_ctx(), x, is_max, adaptive, k, s, p, d, ceil_mode, include_pad, div,
                           want ? &ind : NULL);
    PyObject *out = name ? py_tensor_wrap_named(r, name) : py_tensor_wrap(r);
    if (!out || !want) {
        nn_tensor_release(ind);
        return out;
    }
    PyObject *io = py_tensor_wrap(ind);
    if (!io) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *t = PyTuple_Pack(2, out, io);
    Py_DECREF(out);
    Py_DECREF(io);
    return t;
}

#define ENTRY(pyname, fn)                                                                          \
    { pyname, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, NULL }

PyMethodDef py_conv_functions[] = {
    ENTRY("_nn_conv", f_conv), ENTRY("_nn_unfold", f_unfold), ENTRY("_nn_fold", f_fold),
    ENTRY("_nn_pool", f_pool), {NULL, NULL, 0, NULL},
};
