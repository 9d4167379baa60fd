/* py_ops_elementwise: torch's pointwise ops over the engine: unary math,
 * arithmetic with torch's dtype promotion (Python numbers are wrapped
 * scalars that do not widen a tensor's dtype), comparisons and logic,
 * clamp, where, lerp/addcmul/addcdiv, isclose/allclose/equal, each as
 * torch.NAME and Tensor.NAME, with the in-place forms Tensor.NAME_. */
#include <math.h>
#include <string.h>

#include "nn_intops.h"
#include "py_ops.h"

/* ---- unary ---- */

typedef nn_tensor *(*unary_fn)(nn_ctx *, nn_tensor *);

static PyObject *unary(const char *name, unary_fn fn, const char *fn_name, PyObject *const *args,
                       Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 1, "input", "$out");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    if (nn_dtype_is_complex(t->dtype)) {
        PyObject *c = py_ops_complex_fallback(name, a_, 1);
        if (c && py_given(a_[1])) return py_ops_out_result(c, a_[1]);
        if (c || PyErr_Occurred()) return c;
    }
    nn_tensor *r = fn(py_ctx(), t);
    return fn_name ? py_tensor_wrap_named(r, fn_name) : py_tensor_wrap(r);
}

#define UNARY_NAMED(name, fn, fn_name) PY_OP_VIA(name, unary, fn, fn_name)
#define UNARY(name, fn)                UNARY_NAMED(name, fn, NULL)

static nn_tensor *square_of(nn_ctx *ctx, nn_tensor *a) {
    /* torch.square is pow(x, 2): an integer tensor stays integer */
    nn_tensor *two = nn_scalar_wrapped_int(ctx, 2);
    nn_tensor *r = two ? nn_pow(ctx, a, two) : NULL;
    nn_tensor_release(two);
    return r;
}

static nn_tensor *positive_of(nn_ctx *ctx, nn_tensor *a) {
    if (a->dtype == NN_BOOL) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "The `+` operator, on a bool tensor is not supported.");
        return NULL;
    }
    return nn_tensor_retain(a);
}

UNARY(exp, nn_exp)
UNARY(log, nn_log)
UNARY(log1p, nn_log1p)
UNARY(log2, nn_log2)
UNARY(log10, nn_log10)
UNARY(sqrt, nn_sqrt)
UNARY(rsqrt, nn_rsqrt)
UNARY(abs, nn_abs)
UNARY(neg, nn_neg)
UNARY(sign, nn_sign)
UNARY(sin, nn_sin)
UNARY(cos, nn_cos)
UNARY(tan, nn_tan)
UNARY(asin, nn_asin)
UNARY(acos, nn_acos)
UNARY(atan, nn_atan)
UNARY(sinh, nn_sinh)
UNARY(cosh, nn_cosh)
UNARY(tanh, nn_tanh)
UNARY(sigmoid, nn_sigmoid)
UNARY(relu, nn_relu)
UNARY(expm1, nn_expm1)
UNARY(erf, nn_erf)
UNARY(reciprocal, nn_reciprocal)
UNARY(floor, nn_floor)
UNARY(ceil, nn_ceil)
UNARY(trunc, nn_trunc)
UNARY(frac, nn_frac)
UNARY(square, square_of)
UNARY(positive, positive_of)
UNARY(isnan, nn_isnan)
UNARY(isinf, nn_isinf)
UNARY(isfinite, nn_isfinite)
UNARY(logical_not, nn_logical_not)
UNARY(bitwise_not, nn_bitwise_not)

/* round(input, *, decimals=0) */
PY_OP(round)
static PyObject *round_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("round", 1, "input", "$decimals", "out");
    nn_tensor *t;
    int64_t dec = 0;
    if (py_tensor_arg(a_[0], "round", "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "decimals", &dec) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    if (dec == 0) return py_tensor_wrap(nn_round(ctx, t));
    /* torch's kernel with decimals is for floating types only (without
     * decimals an integer tensor rounds to itself) */
    if (!nn_dtype_is_float(t->dtype) && !nn_dtype_is_complex(t->dtype))
        return PyErr_Format(PyExc_RuntimeError, "\"round_cpu\" not implemented for '%s'",
                            nn_dtype_scalar_name(t->dtype));
    /* as torch's kernel: nearbyint(x * 10^d) / 10^d, or for d < 0
     * nearbyint(x / 10^-d) * 10^-d, with 10^|d| in the tensor's type */
    nn_tensor *p10 = nn_scalar_wrapped(ctx, pow(10.0, (double)(dec < 0 ? -dec : dec)));
    nn_tensor *s = p10 ? (dec > 0 ? nn_mul(ctx, t, p10) : nn_div(ctx, t, p10)) : NULL;
    nn_tensor *r = s ? nn_round(ctx, s) : NULL;
    nn_tensor *q = r ? (dec > 0 ? nn_div(ctx, r, p10) : nn_mul(ctx, r, p10)) : NULL;
    nn_tensor_release(p10);
    nn_tensor_release(s);
    nn_tensor_release(r);
    return py_tensor_wrap_named(q, "RoundBackward1");
}

/* gelu(input, approximate='none') */
PY_OP(gelu)
static PyObject *gelu_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("gelu", 1, "input", "$approximate");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "gelu", "input", &t) < 0) return NULL;
    bool tanh_form = false;
    if (py_given(a_[1])) {
        const char *s = PyUnicode_Check(a_[1]) ? PyUnicode_AsUTF8(a_[1]) : "";
        if (!s) return NULL;
        if (strcmp(s, "tanh") == 0)
            tanh_form = true;
        else if (strcmp(s, "none") != 0) {
            PyErr_SetString(PyExc_RuntimeError,
                            "approximate argument must be either none or tanh.");
            return NULL;
        }
    }
    return py_tensor_wrap(nn_gelu(py_ctx(), t, tanh_form));
}

/* nan_to_num(input, nan=0.0, posinf=None, neginf=None) */
PY_OP(nan_to_num)
static PyObject *nan_to_num_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("nan_to_num", 1, "input", "nan", "posinf", "neginf", "$out");
    nn_tensor *t;
    double v[3] = {NAN, NAN, NAN};
    if (py_tensor_arg(a_[0], "nan_to_num", "input", &t) < 0) return NULL;
    static const char *const what[] = {"nan", "posinf", "neginf"};
    for (int i = 0; i < 3; i++)
        if (py_given(a_[i + 1]) && py_float_arg(a_[i + 1], what[i], &v[i]) < 0) return NULL;
    return py_tensor_wrap(nn_nan_to_num(py_ctx(), t, v[0], v[1], v[2]));
}

/* ---- binary ---- */

typedef nn_tensor *(*binary_fn)(nn_ctx *, nn_tensor *, nn_tensor *);

/* Both operands (new references): tensors or numbers (two numbers make a
 * 0-dim result, as torch.add(1, 2)); TypeErrors worded as torch's. */
static int operands(const char *name, PyObject *x, PyObject *y, nn_tensor **a, nn_tensor **b) {
    PyObject *v[2] = {x, y};
    static const char *const what[] = {"input", "other"};
    nn_tensor *out[2] = {NULL, NULL};
    for (int i = 0; i < 2; i++) {
        if (py_tensor_check(v[i]) || PyNumber_Check(v[i]) || PyList_Check(v[i]) ||
            PyTuple_Check(v[i])) {
            if (py_operand(v[i], name, what[i], &out[i]) == 0) continue;
        } else {
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument '%s' (position %d) must be Tensor, not %s", name, what[i],
                         py_arg_position(name, what[i], i + 1), Py_TYPE(v[i])->tp_name);
        }
        nn_tensor_release(out[0]);
        return -1;
    }
    *a = out[0];
    *b = out[1];
    return 0;
}

static PyObject *binary(const char *name, binary_fn fn, const char *fn_name, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$out");
    nn_tensor *a, *b;
    if (operands(name, a_[0], a_[1], &a, &b) < 0) return NULL;
    nn_tensor *r = fn(py_ctx(), a, b);
    nn_tensor_release(a);
    nn_tensor_release(b);
    return fn_name ? py_tensor_wrap_named(r, fn_name) : py_tensor_wrap(r);
}

#define BINARY_NAMED(name, fn, fn_name) PY_OP_VIA(name, binary, fn, fn_name)
#define BINARY(name, fn)                BINARY_NAMED(name, fn, NULL)

static nn_tensor *logical_xor_of(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    /* (a != 0) != (b != 0) */
    nn_tensor *z = nn_scalar_wrapped_int(ctx, 0);
    nn_tensor *p = z ? nn_ne(ctx, a, z) : NULL;
    nn_tensor *q = p ? nn_ne(ctx, b, z) : NULL;
    nn_tensor *r = q ? nn_ne(ctx, p, q) : NULL;
    nn_tensor_release(z);
    nn_tensor_release(p);
    nn_tensor_release(q);
    return r;
}

static nn_tensor *float_power_of(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    nn_tensor *x = nn_to(ctx, a, NN_FLOAT64);
    nn_tensor *y = x ? nn_to(ctx, b, NN_FLOAT64) : NULL;
    if (y && b->is_wrapped_number) y->is_wrapped_number = true;
    nn_tensor *r = y ? nn_pow(ctx, x, y) : NULL;
    nn_tensor_release(x);
    nn_tensor_release(y);
    return r;
}

BINARY(mul, nn_mul)
BINARY(multiply, nn_mul)
BINARY(true_divide, nn_div)
BINARY(maximum, nn_maximum)
BINARY(minimum, nn_minimum)
/* floor_divide and remainder: float results from ops_special.c (remainder
 * with its gradient), integer ones from nn_intops.c. */
static nn_tensor *floor_divide_of(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    if (nn_dtype_is_float(nn_dtype_promote(a, b)))
        return nn_special2(ctx, a, b, NN_SPECIAL2_FLOOR_DIVIDE);
    return nn_floor_divide(ctx, a, b);
}

static nn_tensor *remainder_of(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    if (nn_dtype_is_float(nn_dtype_promote(a, b)))
        return nn_special2(ctx, a, b, NN_SPECIAL2_REMAINDER);
    return nn_remainder(ctx, a, b);
}

BINARY_NAMED(floor_divide, floor_divide_of, "FloorDivideBackward0")
BINARY(bitwise_left_shift, nn_bitwise_left_shift)
BINARY(bitwise_right_shift, nn_bitwise_right_shift)
BINARY(gcd, nn_gcd)
BINARY(lcm, nn_lcm)
BINARY_NAMED(remainder, remainder_of, "RemainderBackward0")
BINARY(fmod, nn_fmod)
BINARY(atan2, nn_atan2)
BINARY(arctan2, nn_atan2)
BINARY(eq, nn_eq)
BINARY(ne, nn_ne)
BINARY(not_equal, nn_ne)
BINARY(lt, nn_lt)
BINARY(less, nn_lt)
BINARY(le, nn_le)
BINARY(less_equal, nn_le)
BINARY(gt, nn_gt)
BINARY(greater, nn_gt)
BINARY(ge, nn_ge)
BINARY(greater_equal, nn_ge)
BINARY(logical_and, nn_logical_and)
BINARY(logical_or, nn_logical_or)
BINARY(logical_xor, logical_xor_of)
BINARY(bitwise_and, nn_bitwise_and)
BINARY(bitwise_or, nn_bitwise_or)
BINARY(bitwise_xor, nn_bitwise_xor)
BINARY(float_power, float_power_of)

/* pow(input, exponent): either may be a number */
PY_OP(pow)
static PyObject *pow_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("pow", 2, "input", "exponent", "$out");
    if (!py_given(a_[2]) && py_ops_any_complex(a_, 2)) {
        PyObject *c = py_ops_complex_fallback("pow", a_, 2);
        if (c || PyErr_Occurred()) return c;
    }
    nn_tensor *a, *b;
    if (operands("pow", a_[0], a_[1], &a, &b) < 0) return NULL;
    nn_tensor *r = nn_pow(py_ctx(), a, b);
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap(r);
}

/* add/sub(input, other, *, alpha=1): input +- alpha * other */
static PyObject *add_sub(const char *name, bool sub, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$alpha", "out");
    nn_ctx *ctx = py_ctx();
    nn_tensor *a, *b;
    if (operands(name, a_[0], a_[1], &a, &b) < 0) return NULL;
    if (py_given(a_[2])) {
        nn_tensor *al;
        if (py_operand(a_[2], name, "alpha", &al) < 0) {
            nn_tensor_release(a);
            nn_tensor_release(b);
            return NULL;
        }
        if (!nn_dtype_is_float(b->dtype) && nn_dtype_is_float(al->dtype) &&
            !nn_dtype_is_float(a->dtype)) {
            nn_tensor_release(a);
            nn_tensor_release(b);
            nn_tensor_release(al);
            PyErr_SetString(PyExc_RuntimeError,
                            "For integral input tensors, argument alpha must not be a floating "
                            "point number.");
            return NULL;
        }
        if (nn_dtype_is_float(nn_dtype_promote(a, b)) && al->ndim == 0) {
            /* one rounding, fma(b, alpha, a), as PyTorch (ops_fused.c) */
            double alpha = nn_tensor_get_flat(al, 0);
            nn_tensor_release(al);
            nn_tensor *r = nn_add_alpha(ctx, a, b, sub ? -alpha : alpha);
            nn_tensor_release(a);
            nn_tensor_release(b);
            return py_tensor_wrap_named(r, sub ? "SubBackward0" : "AddBackward0");
        }
        nn_tensor *s = nn_mul(ctx, b, al);
        nn_tensor_release(al);
        nn_tensor_release(b);
        b = s;
    }
    nn_tensor *r = b ? (sub ? nn_sub(ctx, a, b) : nn_add(ctx, a, b)) : NULL;
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap(r);
}

PY_OP_VIA(add, add_sub, false)
PY_OP_VIA(sub, add_sub, true)
PY_OP_VIA(subtract, add_sub, true)

/* div(input, other, *, rounding_mode=None) */
static PyObject *div_common(const char *name, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PARSE(name, 2, "input", "other", "$rounding_mode", "out");
    int mode = 0; /* 0 true division, 1 trunc, 2 floor */
    if (py_given(a_[2])) {
        const char *s = PyUnicode_Check(a_[2]) ? PyUnicode_AsUTF8(a_[2]) : NULL;
        if (s && strcmp(s, "trunc") == 0)
            mode = 1;
        else if (s && strcmp(s, "floor") == 0)
            mode = 2;
        else {
            PyErr_Format(PyExc_RuntimeError,
                         "div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                         "found '%s'",
                         s ? s : "?");
            return NULL;
        }
    }
    nn_ctx *ctx = py_ctx();
    nn_tensor *a, *b;
    if (operands(name, a_[0], a_[1], &a, &b) < 0) return NULL;
    nn_tensor *r;
    if (mode && nn_dtype_is_float(nn_dtype_promote(a, b))) {
        r = nn_special2(ctx, a, b, mode == 2 ? NN_SPECIAL2_DIV_FLOOR : NN_SPECIAL2_DIV_TRUNC);
        nn_tensor_release(a);
        nn_tensor_release(b);
        return py_tensor_wrap_named(r, "DivBackward2");
    } else if (mode == 2) {
        r = nn_floor_divide(ctx, a, b);
    } else if (mode == 1) {
        r = nn_trunc_divide(ctx, a, b);
    } else {
        r = nn_div(ctx, a, b);
    }
    nn_tensor_release(a);
    nn_tensor_release(b);
    return py_tensor_wrap(r);
}

PY_OP_VIA(div, div_common)
PY_OP_VIA(divide, div_common)

/* ---- clamp ---- */

/* A bound of clamp: NULL when None or absent, else a new reference. */
static int bound(PyObject *o, const char *what, nn_tensor **out) {
    *out = NULL;
    if (!py_given(o)) return 0;
    return py_operand(o, "clamp", what, out);
}

static bool is_number(PyObject *o) {
    return o && (PyLong_Check(o) || PyFloat_Check(o));
}

static PyObject *clamp_common(const char *name, PyObject *input, PyObject *lo, PyObject *hi) {
    nn_tensor *t;
    if (py_tensor_arg(input, name, "input", &t) < 0) return NULL;
    if (!py_given(lo) && !py_given(hi)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "torch.clamp: At least one of 'min' or 'max' must not be None");
        return NULL;
    }
    nn_ctx *ctx = py_ctx();
    bool numbers = (!py_given(lo) || is_number(lo)) && (!py_given(hi) || is_number(hi));
    if (numbers) {
        double l = NAN, h = NAN;
        if (py_given(lo) && py_float_arg(lo, "min", &l) < 0) return NULL;
        if (py_given(hi) && py_float_arg(hi, "max", &h) < 0) return NULL;
        bool ints = (!py_given(lo) || PyLong_Check(lo)) && (!py_given(hi) || PyLong_Check(hi));
        /* torch.clamp(x, min=a, max=b) with a > b gives b everywhere */
        if (!isnan(l) && !isnan(h) && l > h) l = h;
        nn_tensor *r = (ints ? nn_clamp_int : nn_clamp)(ctx, t, l, h);
        if (!py_given(hi) && strcmp(name, "clamp_min") == 0)
            return py_tensor_wrap_named(r, "ClampMinBackward0");
        if (!py_given(lo) && strcmp(name, "clamp_max") == 0)
            return py_tensor_wrap_named(r, "ClampMaxBackward0");
        return py_tensor_wrap(r);
    }
    /* tensor bounds: min(max(x, lo), hi) */
    nn_tensor *l, *h;
    if (bound(lo, "min", &l) < 0) return NULL;
    if (bound(hi, "max", &h) < 0) {
        nn_tensor_release(l);
        return NULL;
    }
    nn_tensor *cur = nn_tensor_retain(t);
    if (cur && l) {
        nn_tensor *m = nn_maximum(ctx, cur, l);
        nn_tensor_release(cur);
        cur = m;
    }
    if (cur && h) {
        nn_tensor *m = nn_minimum(ctx, cur, h);
        nn_tensor_release(cur);
        cur = m;
    }
    nn_tensor_release(l);
    nn_tensor_release(h);
    return py_tensor_wrap_named(cur, "ClampBackward0");
}

PY_OP(clamp)
static PyObject *clamp_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("clamp", 1, "input", "min", "max", "$out");
    return clamp_common("clamp", a_[0], a_[1], a_[2]);
}
PY_OP(clip)
static PyObject *clip_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("clip", 1, "input", "min", "max", "$out");
    return clamp_common("clip", a_[0], a_[1], a_[2]);
}
PY_OP(clamp_min)
static PyObject *clamp_min_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("clamp_min", 2, "input", "min");
    return clamp_common("clamp_min", a_[0], a_[1], NULL);
}
PY_OP(clamp_max)
static PyObject *clamp_max_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("clamp_max", 2, "input", "max");
    return clamp_common("clamp_max", a_[0], NULL, a_[1]);
}

/* ---- where, lerp, addcmul, addcdiv ---- */

PyObject *py_ops_nonzero_tuple(nn_tensor *t); /* py_ops_shape.c */

PY_OP(where)
static PyObject *where_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("where", 1, "condition", "input", "other", "$out");
    nn_tensor *c;
    if (py_tensor_arg(a_[0], "where", "condition", &c) < 0) return NULL;
    if (!a_[1] && !a_[2]) return py_ops_nonzero_tuple(c);
    if (!a_[1] || !a_[2]) {
        PyErr_SetString(PyExc_TypeError, "where() takes 1 or 3 arguments (condition, input, "
                                         "other)");
        return NULL;
    }
    if (c->dtype != NN_BOOL && c->dtype != NN_UINT8) {
        PyErr_Format(PyExc_RuntimeError,
                     "where expected condition to be a boolean tensor, but got a tensor with "
                     "dtype %s",
                     nn_dtype_scalar_name(c->dtype));
        return NULL;
    }
    if (!py_given(a_[3]) && py_ops_any_complex(a_ + 1, 2)) {
        PyObject *cr = py_ops_complex_fallback("where", a_, 3);
        if (cr || PyErr_Occurred()) return cr;
    }
    nn_tensor *x, *y;
    if (py_operand(a_[1], "where", "input", &x) < 0) return NULL;
    if (py_operand(a_[2], "where", "other", &y) < 0) {
        nn_tensor_release(x);
        return NULL;
    }
    nn_tensor *r = nn_where(py_ctx(), c, x, y);
    nn_tensor_release(x);
    nn_tensor_release(y);
    return py_tensor_wrap(r);
}

/* lerp(input, end, weight) = input + weight * (end - input) */
PY_OP(lerp)
static PyObject *lerp_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("lerp", 3, "input", "end", "weight", "$out");
    nn_tensor *s, *e, *w;
    if (py_tensor_arg(a_[0], "lerp", "input", &s) < 0) return NULL;
    if (py_tensor_arg(a_[1], "lerp", "end", &e) < 0) return NULL;
    if (py_operand(a_[2], "lerp", "weight", &w) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    bool scalar_w = w->is_wrapped_number;
    /* PyTorch's lerp promotes nothing: end, and a tensor weight, must have
     * input's dtype; its kernels are float, bfloat16 and complex (no Half
     * on the CPU), and a Python weight is converted to input's type */
    const char *bad = e->dtype != s->dtype                ? "end"
                      : !scalar_w && w->dtype != s->dtype ? "weight"
                                                          : NULL;
    if (bad) {
        PyErr_Format(PyExc_RuntimeError, "expected dtype %s for `%s` but got dtype %s",
                     py_dtype_c_name(s->dtype), bad,
                     py_dtype_c_name(bad[0] == 'e' ? e->dtype : w->dtype));
    } else if ((!nn_dtype_is_float(s->dtype) && !nn_dtype_is_complex(s->dtype)) ||
               s->dtype == NN_FLOAT16) {
        PyErr_Format(PyExc_RuntimeError, "\"lerp_kernel_%s\" not implemented for '%s'",
                     scalar_w ? "scalar" : "tensor", nn_dtype_scalar_name(s->dtype));
    } else if (scalar_w && nn_dtype_is_complex(w->dtype) && !nn_dtype_is_complex(s->dtype)) {
        PyErr_Format(PyExc_RuntimeError, "value cannot be converted to type %s without overflow",
                     py_dtype_c_name(s->dtype));
    }
    if (PyErr_Occurred()) {
        nn_tensor_release(w);
        return NULL;
    }
    nn_tensor *r;
    if (nn_dtype_is_float(nn_dtype_promote(s, e))) {
        r = nn_lerp(ctx, s, e, w);
    } else {
        nn_tensor *d = nn_sub(ctx, e, s);
        nn_tensor *m = d ? nn_mul(ctx, w, d) : NULL;
        r = m ? nn_add(ctx, s, m) : NULL;
        nn_tensor_release(d);
        nn_tensor_release(m);
    }
    nn_tensor_release(w);
    return py_tensor_wrap_named(r, scalar_w ? "LerpBackward0" : "LerpBackward1");
}

static PyObject *addc(const char *name, bool div, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames) {
    PARSE(name, 3, "input", "tensor1", "tensor2", "$value", "out");
    nn_tensor *s, *t1, *t2;
    if (py_tensor_arg(a_[0], name, "input", &s) < 0) return NULL;
    if (py_tensor_arg(a_[1], name, "tensor1", &t1) < 0) return NULL;
    if (py_tensor_arg(a_[2], name, "tensor2", &t2) < 0) return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *v = NULL;
    if (py_given(a_[3]) && py_operand(a_[3], name, "value", &v) < 0) return NULL;
    if (nn_dtype_is_float(nn_dtype_promote_types(nn_dtype_promote(s, t1), t2->dtype)) &&
        (!v || v->ndim == 0)) {
        /* PyTorch's roundings (ops_fused.c) */
        double value = v ? nn_tensor_get_flat(v, 0) : 1.0;
        nn_tensor_release(v);
        nn_tensor *r = div ? nn_addcdiv(ctx, s, t1, t2, value) : nn_addcmul(ctx, s, t1, t2, value);
        return py_tensor_wrap_named(r, div ? "AddcdivBackward0" : "AddcmulBackward0");
    }
    nn_tensor *p = div ? nn_div(ctx, t1, t2) : nn_mul(ctx, t1, t2);
    nn_tensor *pv = p && v ? nn_mul(ctx, p, v) : p ? nn_tensor_retain(p) : NULL;
    nn_tensor *r = pv ? nn_add(ctx, s, pv) : NULL;
    nn_tensor_release(p);
    nn_tensor_release(pv);
    nn_tensor_release(v);
    return py_tensor_wrap_named(r, div ? "AddcdivBackward0" : "AddcmulBackward0");
}

PY_OP_VIA(addcmul, addc, false)
PY_OP_VIA(addcdiv, addc, true)

/* ---- closeness ---- */

/* |a - b| <= atol + rtol |b|, or equal (infinities), or both NaN with
 * equal_nan: a bool tensor, computed without recording. */
static nn_tensor *isclose_of(nn_tensor *p, nn_tensor *q, double rtol, double atol, bool equal_nan) {
    nn_ctx *ctx = py_ctx();
    if (p->dtype != q->dtype) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s did not match %s",
                     nn_dtype_scalar_name(p->dtype), nn_dtype_scalar_name(q->dtype));
        return NULL;
    }
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *eq = nn_eq(ctx, p, q), *r = NULL;
    if (eq && !nn_dtype_is_float(p->dtype)) {
        if (p->dtype == NN_BOOL) {
            r = nn_tensor_retain(eq);
        } else {
            nn_tensor *pf = nn_to(ctx, p, NN_FLOAT64), *qf = pf ? nn_to(ctx, q, NN_FLOAT64) : NULL;
            r = qf ? isclose_of(pf, qf, rtol, atol, false) : NULL;
            nn_tensor_release(pf);
            nn_tensor_release(qf);
        }
    } else if (eq) {
        nn_tensor *d = nn_sub(ctx, p, q);
        nn_tensor *ad = d ? nn_abs(ctx, d) : NULL;
        nn_tensor *ab = ad ? nn_abs(ctx, q) : NULL;
        nn_tensor *tol = ab ? nn_mul_scalar(ctx, ab, rtol) : NULL;
        nn_tensor *tol2 = tol ? nn_add_scalar(ctx, tol, atol) : NULL;
        nn_tensor *le = tol2 ? nn_le(ctx, ad, tol2) : NULL;
        nn_tensor *fin = le ? nn_isfinite(ctx, ad) : NULL;
        nn_tensor *close = fin ? nn_logical_and(ctx, le, fin) : NULL;
        r = close ? nn_logical_or(ctx, close, eq) : NULL;
        if (r && equal_nan) {
            nn_tensor *n1 = nn_isnan(ctx, p), *n2 = n1 ? nn_isnan(ctx, q) : NULL;
            nn_tensor *both = n2 ? nn_logical_and(ctx, n1, n2) : NULL;
            nn_tensor *r2 = both ? nn_logical_or(ctx, r, both) : NULL;
            nn_tensor *tmp[] = {n1, n2, both, r};
            py_ops_release(tmp, 4);
            r = r2;
        }
        nn_tensor *tmp[] = {d, ad, ab, tol, tol2, le, fin, close};
        py_ops_release(tmp, 8);
    }
    nn_tensor_release(eq);
    nn_ctx_set_grad(ctx, prev);
    return r;
}

static int close_args(const char *name, PyObject **a_, nn_tensor **p, nn_tensor **q, double *rtol,
                      double *atol, bool *equal_nan) {
    *rtol = 1e-5;
    *atol = 1e-8;
    *equal_nan = false;
    if (py_tensor_arg(a_[0], name, "input", p) < 0 || py_tensor_arg(a_[1], name, "other", q) < 0)
        return -1;
    if (a_[2] && py_float_arg(a_[2], "rtol", rtol) < 0) return -1;
    if (a_[3] && py_float_arg(a_[3], "atol", atol) < 0) return -1;
    if (a_[4] && py_bool_arg(a_[4], "equal_nan", equal_nan) < 0) return -1;
    return 0;
}

PY_OP(isclose)
static PyObject *isclose_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("isclose", 2, "input", "other", "rtol", "atol", "equal_nan");
    nn_tensor *p, *q;
    double rtol, atol;
    bool en;
    if (close_args("isclose", a_, &p, &q, &rtol, &atol, &en) < 0) return NULL;
    return py_tensor_wrap(isclose_of(p, q, rtol, atol, en));
}

PY_OP(allclose)
static PyObject *allclose_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("allclose", 2, "input", "other", "rtol", "atol", "equal_nan");
    nn_tensor *p, *q;
    double rtol, atol;
    bool en;
    if (close_args("allclose", a_, &p, &q, &rtol, &atol, &en) < 0) return NULL;
    nn_tensor *c = isclose_of(p, q, rtol, atol, en);
    if (!c) return py_engine_error();
    bool all = true;
    int64_t n = nn_tensor_numel(c);
    if (!nn_tensor_any_all_dense(c, false, &all))
        for (int64_t i = 0; i < n && all; i++) all = nn_tensor_get_flat_int(c, i) != 0;
    nn_tensor_release(c);
    return PyBool_FromLong(all);
}

/* equal(input, other): same size and elements */
PY_OP(equal)
static PyObject *equal_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("equal", 2, "input", "other");
    nn_tensor *p, *q;
    if (py_tensor_arg(a_[0], "equal", "input", &p) < 0) return NULL;
    if (py_tensor_arg(a_[1], "equal", "other", &q) < 0) return NULL;
    bool eq = nn_tensor_same_shape(p, q);
    int64_t n = nn_tensor_numel(p);
    bool fl = nn_dtype_is_float(p->dtype) || nn_dtype_is_float(q->dtype);
    bool dense;
    if (eq && nn_tensor_equal_dense(p, q, &dense)) return PyBool_FromLong(dense);
    for (int64_t i = 0; eq && i < n; i++)
        eq = fl ? nn_tensor_get_flat(p, i) == nn_tensor_get_flat(q, i)
                : nn_tensor_get_flat_int(p, i) == nn_tensor_get_flat_int(q, i);
    return PyBool_FromLong(eq);
}

/* ---- in-place forms ---- */

PY_INPLACE(exp)
PY_INPLACE(log)
PY_INPLACE(log1p)
PY_INPLACE(log2)
PY_INPLACE(log10)
PY_INPLACE(sqrt)
PY_INPLACE(rsqrt)
PY_INPLACE(abs)
PY_INPLACE(neg)
PY_INPLACE(sign)
PY_INPLACE(sin)
PY_INPLACE(cos)
PY_INPLACE(tan)
PY_INPLACE(asin)
PY_INPLACE(acos)
PY_INPLACE(atan)
PY_INPLACE(sinh)
PY_INPLACE(cosh)
PY_INPLACE(tanh)
PY_INPLACE(sigmoid)
PY_INPLACE(relu)
PY_INPLACE(expm1)
PY_INPLACE(erf)
PY_INPLACE(reciprocal)
PY_INPLACE(floor)
PY_INPLACE(ceil)
PY_INPLACE(trunc)
PY_INPLACE(frac)
PY_INPLACE(round)
PY_INPLACE(square)
PY_INPLACE(nan_to_num)
PY_INPLACE_AS(logical_not, false)
PY_INPLACE_AS(bitwise_not, false)
PY_INPLACE_AS(add, false)
PY_INPLACE_AS(sub, false)
PY_INPLACE_AS(subtract, false)
PY_INPLACE(mul)
PY_INPLACE(multiply)
PY_INPLACE(div)
PY_INPLACE(divide)
PY_INPLACE(true_divide)
PY_INPLACE(pow)
PY_INPLACE(float_power)
PY_INPLACE_AS(floor_divide, false)
PY_INPLACE_AS(remainder, false)
PY_INPLACE(fmod)
PY_INPLACE(atan2)
PY_INPLACE_AS(eq, false)
PY_INPLACE_AS(ne, false)
PY_INPLACE_AS(lt, false)
PY_INPLACE_AS(le, false)
PY_INPLACE_AS(gt, false)
PY_INPLACE_AS(ge, false)
PY_INPLACE_AS(logical_and, false)
PY_INPLACE_AS(logical_or, false)
PY_INPLACE_AS(logical_xor, false)
PY_INPLACE_AS(bitwise_and, false)
PY_INPLACE_AS(bitwise_or, false)
PY_INPLACE_AS(bitwise_xor, false)
PY_INPLACE_AS(bitwise_left_shift, false)
PY_INPLACE_AS(bitwise_right_shift, false)
PY_INPLACE_AS(gcd, false)
PY_INPLACE_AS(lcm, false)
PY_INPLACE(clamp)
PY_INPLACE(clip)
PY_INPLACE(clamp_min)
PY_INPLACE(clamp_max)
PY_INPLACE(lerp)
PY_INPLACE(addcmul)
PY_INPLACE(addcdiv)

/* ---- tables ---- */

// clang-format off
#define BOTH(X)                                                                                    \
    X(exp) X(log) X(log1p) X(log2) X(log10) X(sqrt) X(rsqrt) X(abs) X(neg) X(sign) X(sin) X(cos)   \
    X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(sigmoid) X(relu) X(expm1) X(erf)      \
    X(reciprocal) X(floor) X(ceil) X(trunc) X(frac) X(round) X(square) X(positive) X(isnan)        \
    X(isinf) X(isfinite) X(logical_not) X(bitwise_not) X(nan_to_num) X(add) X(sub) X(subtract)     \
    X(mul) X(multiply) X(div) X(divide) X(true_divide) X(pow) X(float_power) X(maximum)            \
    X(minimum) X(floor_divide) X(remainder) X(fmod) X(atan2) X(arctan2) X(eq) X(ne) X(not_equal)   \
    X(lt) X(less) X(le) X(less_equal) X(gt) X(greater) X(ge) X(greater_equal) X(logical_and)       \
    X(logical_or) X(logical_xor) X(bitwise_and) X(bitwise_or) X(bitwise_xor) X(clamp) X(clip)      \
    X(clamp_min) X(clamp_max) X(where) X(lerp) X(addcmul) X(addcdiv) X(isclose) X(allclose)        \
    X(equal) X(bitwise_left_shift) X(bitwise_right_shift) X(gcd) X(lcm)
// clang-format on

#define FN_ROW(name)   PY_FN_ENTRY(#name, name, NULL),
#define METH_ROW(name) PY_METH_ENTRY(#name, name, NULL),

PyMethodDef py_ops_elementwise_functions[] = {
    BOTH(FN_ROW) PY_FN_ENTRY("gelu", gelu, NULL),
    PY_FN_ENTRY("absolute", abs, NULL),
    PY_FN_ENTRY("negative", neg, NULL),
    PY_FN_ENTRY("arcsin", asin, NULL),
    PY_FN_ENTRY("arccos", acos, NULL),
    PY_FN_ENTRY("arctan", atan, NULL),
    PY_FN_ENTRY("fix", trunc, NULL),
    PY_FN_ENTRY("sgn", sign, NULL),
    {NULL, NULL, 0, NULL},
};

// clang-format off
#define INPLACE_ROWS(X)                                                                            \
    X(exp) X(log) X(log1p) X(log2) X(log10) X(sqrt) X(rsqrt) X(abs) X(neg) X(sign) X(sin) X(cos)   \
    X(tan) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(sigmoid) X(relu) X(expm1) X(erf)      \
    X(reciprocal) X(floor) X(ceil) X(trunc) X(frac) X(round) X(square) X(nan_to_num)               \
    X(logical_not) X(bitwise_not) X(add) X(sub) X(subtract) X(mul) X(multiply) X(div) X(divide)    \
    X(true_divide) X(pow) X(float_power) X(floor_divide) X(remainder) X(fmod) X(atan2) X(eq)       \
    X(ne) X(lt) X(le) X(gt) X(ge) X(logical_and) X(logical_or) X(logical_xor) X(bitwise_and)       \
    X(bitwise_or) X(bitwise_xor) X(clamp) X(clip) X(clamp_min) X(clamp_max) X(lerp) X(addcmul)     \
    X(addcdiv) X(bitwise_left_shift) X(bitwise_right_shift) X(gcd) X(lcm)
// clang-format on
#define INPLACE_ROW(name) PY_INPLACE_ENTRY(name),

PyMethodDef py_ops_elementwise_methods[] = {
    BOTH(METH_ROW) INPLACE_ROWS(INPLACE_ROW) PY_METH_ENTRY("absolute", abs, NULL),
    PY_METH_ENTRY("negative", neg, NULL),
    PY_METH_ENTRY("arcsin", asin, NULL),
    PY_METH_ENTRY("arccos", acos, NULL),
    PY_METH_ENTRY("arctan", atan, NULL),
    PY_METH_ENTRY("fix", trunc, NULL),
    PY_METH_ENTRY("sgn", sign, NULL),
    {NULL, NULL, 0, NULL},
};
