/* py_ops: torch's op functions over the engine, each exposed as
 * torch.NAME(input, ...) and Tensor.NAME(...) (see PY_OP in py.h). */
#include <string.h>

#include "nn_intops.h"
#include "py.h"

#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

/* ---- unary elementwise ---- */

typedef nn_tensor *(*unary_fn)(nn_ctx *, nn_tensor *);

static PyObject *unary(const char *name, unary_fn fn, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames) {
    PARSE(name, 1, "input", "$out");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    return py_tensor_wrap(fn(py_ctx(), t));
}

#define UNARY(name, fn)                                                                            \
    PY_OP(name)                                                                                    \
    static PyObject *name##_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {     \
        return unary(#name, fn, args, nargs, kwnames);                                             \
    }

UNARY(exp, nn_exp)
UNARY(log, nn_log)
UNARY(sqrt, nn_sqrt)
UNARY(tanh, nn_tanh)
UNARY(sigmoid, nn_sigmoid)
UNARY(relu, nn_relu)
UNARY(abs, nn_abs)
UNARY(neg, nn_neg)
UNARY(sin, nn_sin)
UNARY(cos, nn_cos)

/* ---- binary elementwise ---- */

typedef nn_tensor *(*binary_fn)(nn_ctx *, nn_tensor *, nn_tensor *);

static PyObject *binary(const char *name, binary_fn fn, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$out");
    nn_tensor *a, *b;
    if (py_operand(a_[0], name, "input", &a) < 0) return NULL;
    if (py_operand(a_[1], name, "other", &b) < 0) {
        nn_tensor_release(a);
        return NULL;
    }
    nn_tensor *r = fn(py_ctx(), a, b);
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap(r);
}

#define BINARY(name, fn)                                                                           \
    PY_OP(name)                                                                                    \
    static PyObject *name##_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {     \
        return binary(#name, fn, args, nargs, kwnames);                                            \
    }

BINARY(mul, nn_mul)
BINARY(matmul, nn_matmul)
BINARY(maximum, nn_maximum)
BINARY(minimum, nn_minimum)
BINARY(floor_divide, nn_floor_divide)
BINARY(remainder, nn_remainder)

/* add(input, other, *, alpha=1) */
PY_OP(add)
static PyObject *add_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("add", 2, "input", "other", "$alpha", "out");
    nn_ctx *ctx = py_ctx();
    nn_tensor *a, *b;
    if (py_operand(a_[0], "add", "input", &a) < 0) return NULL;
    if (py_operand(a_[1], "add", "other", &b) < 0) {
        nn_tensor_release(a);
        return NULL;
    }
    double alpha = 1;
    if (a_[2] && py_float_arg(a_[2], "alpha", &alpha) < 0) {
        nn_tensor_release(a);
        nn_tensor_release(b);
        return NULL;
    }
    if (alpha != 1) {
        nn_tensor *s = nn_mul_scalar(ctx, b, alpha);
        nn_tensor_release(b);
        b = s;
    }
    nn_tensor *r = b ? nn_add(ctx, a, b) : NULL;
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap(r);
}

/* ---- reductions ---- */

/* sum/mean(input, dim=None, keepdim=False, *, dtype=None) */
typedef nn_tensor *(*reduce_fn)(nn_ctx *, nn_tensor *, const int64_t *, int, bool);

static PyObject *reduce(const char *name, reduce_fn fn, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PARSE(name, 1, "input", "dim", "keepdim", "$dtype", "out");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    int64_t dims[NN_MAX_DIMS];
    int n = 0;
    bool keepdim = false;
    if (a_[1] && a_[1] != Py_None && py_ints_arg(a_[1], "dim", dims, &n) < 0) return NULL;
    if (a_[2] && py_bool_arg(a_[2], "keepdim", &keepdim) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *src = nn_tensor_retain(t);
    if (a_[3] && a_[3] != Py_None) {
        nn_dtype dt = t->dtype;
        if (py_dtype_arg(a_[3], &dt) < 0) {
            nn_tensor_release(src);
            return NULL;
        }
        nn_tensor_release(src);
        src = nn_to(ctx, t, dt);
        if (!src) return py_engine_error();
    }
    nn_tensor *r = fn(ctx, src, n ? dims : NULL, n, keepdim);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

#define REDUCE(name, fn)                                                                           \
    PY_OP(name)                                                                                    \
    static PyObject *name##_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {     \
        return reduce(#name, fn, args, nargs, kwnames);                                            \
    }

REDUCE(sum, nn_sum)
REDUCE(mean, nn_mean)

/* ---- shapes ---- */

/* view(*shape) / reshape(*shape): the method takes the shape as varargs */
typedef nn_tensor *(*shape_fn)(nn_ctx *, nn_tensor *, int, const int64_t *);

static PyObject *reshaped(const char *name, shape_fn fn, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument 'input'", name);
        return NULL;
    }
    nn_tensor *t;
    if (py_tensor_arg(args[0], name, "input", &t) < 0) return NULL;
    PyObject *const *sargs = args + 1;
    Py_ssize_t sn = nargs - 1;
    if (kwnames && PyTuple_GET_SIZE(kwnames) == 1 && sn == 0) {
        sargs = args + nargs; /* shape= */
        sn = 1;
    }
    if (sn == 1 && Py_TYPE(sargs[0]) == &py_dtype_type) {
        PyErr_Format(PyExc_NotImplementedError, "%s(dtype) is not supported", name);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int ndim;
    if (sn == 1 && !PyLong_Check(sargs[0])) {
        if (py_ints_arg(sargs[0], "shape", shape, &ndim) < 0) return NULL;
    } else {
        if (sn > NN_MAX_DIMS) {
            PyErr_Format(PyExc_ValueError, "at most %d dims are supported", NN_MAX_DIMS);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < sn; i++)
            if (py_int_arg(sargs[i], "shape", &shape[i]) < 0) return NULL;
        ndim = (int)sn;
    }
    return py_tensor_wrap(fn(py_ctx(), t, ndim, shape));
}

PY_OP(view)
static PyObject *view_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    return reshaped("view", nn_view, args, nargs, kwnames);
}

PY_OP(reshape)
static PyObject *reshape_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    return reshaped("reshape", nn_reshape, args, nargs, kwnames);
}

PyMethodDef py_ops_functions[] = {
    PY_FN_ENTRY("exp", exp, "exp(input): e to the power of each element"),
    PY_FN_ENTRY("log", log, "log(input): natural logarithm"),
    PY_FN_ENTRY("sqrt", sqrt, "sqrt(input)"),
    PY_FN_ENTRY("tanh", tanh, "tanh(input)"),
    PY_FN_ENTRY("sigmoid", sigmoid, "sigmoid(input)"),
    PY_FN_ENTRY("relu", relu, "relu(input)"),
    PY_FN_ENTRY("abs", abs, "abs(input)"),
    PY_FN_ENTRY("neg", neg, "neg(input)"),
    PY_FN_ENTRY("sin", sin, "sin(input)"),
    PY_FN_ENTRY("cos", cos, "cos(input)"),
    PY_FN_ENTRY("add", add, "add(input, other, *, alpha=1)"),
    PY_FN_ENTRY("mul", mul, "mul(input, other)"),
    PY_FN_ENTRY("matmul", matmul, "matmul(input, other)"),
    PY_FN_ENTRY("maximum", maximum, "maximum(input, other)"),
    PY_FN_ENTRY("minimum", minimum, "minimum(input, other)"),
    PY_FN_ENTRY("floor_divide", floor_divide, "floor_divide(input, other)"),
    PY_FN_ENTRY("remainder", remainder, "remainder(input, other)"),
    PY_FN_ENTRY("sum", sum, "sum(input, dim=None, keepdim=False, *, dtype=None)"),
    PY_FN_ENTRY("mean", mean, "mean(input, dim=None, keepdim=False, *, dtype=None)"),
    PY_FN_ENTRY("reshape", reshape, "reshape(input, shape)"),
    {NULL, NULL, 0, NULL},
};

PyMethodDef py_ops_methods[] = {
    PY_METH_ENTRY("exp", exp, NULL),
    PY_METH_ENTRY("log", log, NULL),
    PY_METH_ENTRY("sqrt", sqrt, NULL),
    PY_METH_ENTRY("tanh", tanh, NULL),
    PY_METH_ENTRY("sigmoid", sigmoid, NULL),
    PY_METH_ENTRY("relu", relu, NULL),
    PY_METH_ENTRY("abs", abs, NULL),
    PY_METH_ENTRY("neg", neg, NULL),
    PY_METH_ENTRY("sin", sin, NULL),
    PY_METH_ENTRY("cos", cos, NULL),
    PY_METH_ENTRY("add", add, NULL),
    PY_METH_ENTRY("mul", mul, NULL),
    PY_METH_ENTRY("matmul", matmul, NULL),
    PY_METH_ENTRY("maximum", maximum, NULL),
    PY_METH_ENTRY("minimum", minimum, NULL),
    PY_METH_ENTRY("floor_divide", floor_divide, NULL),
    PY_METH_ENTRY("remainder", remainder, NULL),
    PY_METH_ENTRY("sum", sum, NULL),
    PY_METH_ENTRY("mean", mean, NULL),
    PY_METH_ENTRY("view", view, NULL),
    PY_METH_ENTRY("reshape", reshape, NULL),
    {NULL, NULL, 0, NULL},
};
