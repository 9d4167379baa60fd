/* py_special: the special functions over the engine's ops_special.c, as
 * torch.NAME and Tensor.NAME (digamma, polygamma, lgamma, erfinv, erfc, i0,
 * exp2, sinc, asinh, acosh, atanh, logit, xlogy, igamma, igammac and their
 * in-place forms)
 * and as the private torch._C._special_NAME that torch.special
 * (python/torch/special/) exposes under PyTorch's names. */
#include <math.h>

#include "py_ops.h"

/* ---- unary ---- */

static PyObject *special_unary(const char *name, nn_special_fn fn, const char *fn_name,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 1, "input", "$out");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    return py_tensor_wrap_named(nn_special(py_ctx(), t, fn, 0), fn_name);
}

#define SPECIAL(name, fn, fn_name) PY_OP_VIA(name, special_unary, NN_SPECIAL_##fn, fn_name)

SPECIAL(digamma, DIGAMMA, "DigammaBackward0")
SPECIAL(lgamma, LGAMMA, "LgammaBackward0")
SPECIAL(erfinv, ERFINV, "ErfinvBackward0")
SPECIAL(erfc, ERFC, "ErfcBackward0")
SPECIAL(i0, I0, "I0Backward0")
SPECIAL(exp2, EXP2, "Exp2Backward0")
SPECIAL(sinc, SINC, "SincBackward0")
SPECIAL(asinh, ASINH, "AsinhBackward0")
SPECIAL(acosh, ACOSH, "AcoshBackward0")
SPECIAL(atanh, ATANH, "AtanhBackward0")
SPECIAL(arcsinh, ASINH, "AsinhBackward0")
SPECIAL(arccosh, ACOSH, "AcoshBackward0")
SPECIAL(arctanh, ATANH, "AtanhBackward0")
SPECIAL(_special_i0e, I0E, "SpecialI0EBackward0")
SPECIAL(_special_i1, I1, "SpecialI1Backward0")
SPECIAL(_special_i1e, I1E, "SpecialI1EBackward0")
SPECIAL(_special_ndtri, NDTRI, "SpecialNdtriBackward0")
SPECIAL(_special_ndtr, NDTR, "SpecialNdtrBackward0")
SPECIAL(_special_log_ndtr, LOG_NDTR, "SpecialLogNdtrBackward0")
SPECIAL(_special_erfcx, ERFCX, "SpecialErfcxBackward0")
SPECIAL(_special_entr, ENTR, "SpecialEntrBackward0")

/* torch.special's Bessel and Airy functions: PyTorch gives them no
 * gradient, so the result never requires grad (the input is detached). */
static PyObject *special_unary_nograd(const char *name, nn_special_fn fn, PyObject *const *args,
                                      Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 1, "input", "$out");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    nn_tensor *d = nn_tensor_detach(py_ctx(), t);
    if (!d) return py_engine_error();
    nn_tensor *r = nn_special(py_ctx(), d, fn, 0);
    nn_tensor_release(d);
    return py_tensor_wrap(r);
}

#define SPECIAL_NOGRAD(name, fn) PY_OP_VIA(name, special_unary_nograd, NN_SPECIAL_##fn)

SPECIAL_NOGRAD(_special_bessel_j0, BESSEL_J0)
SPECIAL_NOGRAD(_special_bessel_j1, BESSEL_J1)
SPECIAL_NOGRAD(_special_bessel_y0, BESSEL_Y0)
SPECIAL_NOGRAD(_special_bessel_y1, BESSEL_Y1)
SPECIAL_NOGRAD(_special_modified_bessel_i0, MODIFIED_I0)
SPECIAL_NOGRAD(_special_modified_bessel_i1, MODIFIED_I1)
SPECIAL_NOGRAD(_special_modified_bessel_k0, MODIFIED_K0)
SPECIAL_NOGRAD(_special_modified_bessel_k1, MODIFIED_K1)
SPECIAL_NOGRAD(_special_scaled_modified_bessel_k0, SCALED_K0)
SPECIAL_NOGRAD(_special_scaled_modified_bessel_k1, SCALED_K1)
SPECIAL_NOGRAD(_special_airy_ai, AIRY_AI)
SPECIAL_NOGRAD(_special_spherical_bessel_j0, SPHERICAL_J0)

/* The order n of polygamma: a non-negative int. */
static int polygamma_order(PyObject *o, int64_t *n) {
    if (py_int_arg(o, "n", n) < 0) return -1;
    if (*n < 0) {
        PyErr_SetString(PyExc_RuntimeError, "polygamma(n, x) does not support negative n.");
        return -1;
    }
    return 0;
}

static PyObject *polygamma_of(nn_tensor *t, int64_t n) {
    const char *names[] = {"PolygammaBackward0"};
    return py_tensor_wrap_named(nn_special(py_ctx(), t, NN_SPECIAL_POLYGAMMA, (int)n), names[0]);
}

/* torch.polygamma(n, input): the order first */
PY_OP(polygamma)
static PyObject *polygamma_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("polygamma", 2, "n", "input", "$out");
    int64_t n;
    nn_tensor *t;
    if (polygamma_order(a_[0], &n) < 0) return NULL;
    if (py_tensor_arg(a_[1], "polygamma", "input", &t) < 0) return NULL;
    return polygamma_of(t, n);
}

/* Tensor.polygamma(n): self first on the C stack, so the method swaps. */
static PyObject *polygamma_self_first(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                      PyObject *kwnames) {
    PyObject *argv[2];
    if (nargs != 1 || kwnames) {
        PyErr_SetString(PyExc_TypeError, "polygamma() takes exactly one argument (n)");
        return NULL;
    }
    argv[0] = args[0];
    argv[1] = self;
    return polygamma_impl(argv, 2, NULL);
}

static PyObject *polygamma_inplace(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames) {
    PyObject *r = polygamma_self_first(self, args, nargs, kwnames);
    return r ? py_ops_inplace_result(self, r, "polygamma_") : NULL;
}

/* logit(input, eps=None) */
PY_OP(logit)
static PyObject *logit_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("logit", 1, "input", "eps", "$out");
    nn_tensor *t;
    double eps = -1;
    if (py_tensor_arg(a_[0], "logit", "input", &t) < 0) return NULL;
    if (py_given(a_[1]) && py_float_arg(a_[1], "eps", &eps) < 0) return NULL;
    if (t->dtype == NN_FLOAT16) { /* 1.13's kernel: floats and bfloat16 */
        PyErr_SetString(PyExc_RuntimeError, "\"logit_cpu\" not implemented for 'Half'");
        return NULL;
    }
    return py_tensor_wrap_named(nn_logit(py_ctx(), t, eps), "LogitBackward0");
}

/* ---- binary ---- */

static PyObject *special_binary(const char *name, nn_special2_fn fn, const char *fn_name,
                                PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$out");
    nn_tensor *a = NULL, *b = NULL;
    if (py_operand(a_[0], name, "input", &a) < 0) return NULL;
    if (py_operand(a_[1], name, "other", &b) < 0) {
        nn_tensor_release(a);
        return NULL;
    }
    if (a->is_wrapped_number && b->is_wrapped_number) {
        nn_tensor_release(a);
        nn_tensor_release(b);
        PyErr_Format(PyExc_TypeError, "%s(): expected at least one Tensor argument", name);
        return NULL;
    }
    nn_tensor *r = nn_special2(py_ctx(), a, b, fn);
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap_named(r, fn_name);
}

#define SPECIAL2(name, fn, fn_name) PY_OP_VIA(name, special_binary, NN_SPECIAL2_##fn, fn_name)

/* igamma(input, other), igammac: two tensors (PyTorch takes no numbers
 * here), promoted to a float type ("igamma_cpu" has no integer kernel). */
static PyObject *igamma_common(const char *name, nn_special2_fn fn, const char *fn_name,
                               PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$out");
    nn_tensor *a, *b;
    if (py_tensor_arg(a_[0], name, "input", &a) < 0) return NULL;
    if (py_tensor_arg(a_[1], name, "other", &b) < 0) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    if (!nn_dtype_is_float(dt)) {
        PyErr_Format(PyExc_RuntimeError, "\"%s_cpu\" not implemented for '%s'", name,
                     nn_dtype_scalar_name(dt));
        return NULL;
    }
    return py_tensor_wrap_named(nn_special2(py_ctx(), a, b, fn), fn_name);
}

PY_OP_VIA(igamma, igamma_common, NN_SPECIAL2_IGAMMA, "IgammaBackward0")
PY_OP_VIA(igammac, igamma_common, NN_SPECIAL2_IGAMMAC, "IgammacBackward0")

SPECIAL2(xlogy, XLOGY, "XlogyBackward0")
SPECIAL2(_special_xlog1py, XLOG1PY, "SpecialXlog1PyBackward0")
SPECIAL2(_special_zeta, ZETA, "SpecialZetaBackward0")

/* ---- in-place forms ---- */

PY_INPLACE(digamma)
PY_INPLACE(lgamma)
PY_INPLACE(erfinv)
PY_INPLACE(erfc)
PY_INPLACE(i0)
PY_INPLACE(exp2)
PY_INPLACE(sinc)
PY_INPLACE(asinh)
PY_INPLACE(acosh)
PY_INPLACE(atanh)
PY_INPLACE(arcsinh)
PY_INPLACE(arccosh)
PY_INPLACE(arctanh)
PY_INPLACE(logit)
PY_INPLACE(xlogy)
PY_INPLACE(igamma)
PY_INPLACE(igammac)

// clang-format off
#define BOTH(X)                                                                                    \
    X(digamma) X(lgamma) X(erfinv) X(erfc) X(i0) X(exp2) X(sinc) X(asinh) X(acosh) X(atanh)        \
    X(arcsinh) X(arccosh) X(arctanh) X(logit) X(xlogy) X(igamma) X(igammac)
#define PRIVATE(X)                                                                                 \
    X(_special_i0e) X(_special_i1) X(_special_i1e) X(_special_ndtri) X(_special_ndtr)              \
    X(_special_log_ndtr) X(_special_erfcx) X(_special_entr) X(_special_xlog1py) X(_special_zeta)   \
    X(_special_bessel_j0) X(_special_bessel_j1) X(_special_bessel_y0) X(_special_bessel_y1)        \
    X(_special_modified_bessel_i0) X(_special_modified_bessel_i1) X(_special_modified_bessel_k0)   \
    X(_special_modified_bessel_k1) X(_special_scaled_modified_bessel_k0)                           \
    X(_special_scaled_modified_bessel_k1) X(_special_airy_ai) X(_special_spherical_bessel_j0)
// clang-format on

#define FN_ROW(name)      PY_FN_ENTRY(#name, name, NULL),
#define METH_ROW(name)    PY_METH_ENTRY(#name, name, NULL),
#define INPLACE_ROW(name) PY_INPLACE_ENTRY(name),

PyMethodDef py_special_functions[] = {
    BOTH(FN_ROW) PRIVATE(FN_ROW) PY_FN_ENTRY("polygamma", polygamma, NULL),
    {NULL, NULL, 0, NULL},
};

PyMethodDef py_special_methods[] = {
    BOTH(METH_ROW) BOTH(INPLACE_ROW){"polygamma", (PyCFunction)(void (*)(void))polygamma_self_first,
                                     METH_FASTCALL | METH_KEYWORDS, NULL},
    {"polygamma_", (PyCFunction)(void (*)(void))polygamma_inplace, METH_FASTCALL | METH_KEYWORDS,
     NULL},
    {NULL, NULL, 0, NULL},
};
