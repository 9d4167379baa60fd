/* Elementwise ops against PyTorch: the C side of tests/torch/ref_elementwise.py.
 *
 * Owned by the elementwise tester. Every case name the script writes maps to
 * a function here computing the same thing with nndb's ops; the runner
 * compares the output and the gradients of sum(out * up). The "_nc" cases
 * first rebuild their 2-D inputs as transposed views over a fresh buffer
 * (with a storage offset), so kernels and backwards meet strides that are
 * not row-major, and the gradient checked is the one of that view leaf. */
#include "testutil.h"

/* Replace in[k] (2-D) by a view with the same values whose storage holds
 * the transpose, starting 3 elements into the buffer. The view is a leaf
 * that requires grad exactly when the original did; the reference runner
 * reads the gradient of in[k], so it reads the view's. in[k] is released. */
static bool make_noncontig(nn_ctx *ctx, nn_tensor **in, int k) {
    nn_tensor *x = in[k];
    if (!x || x->ndim != 2) return true;
    int64_t r = x->shape[0], c = x->shape[1], n = r * c + 3;
    nn_tensor *big = nn_zeros(ctx, x->dtype, 1, &n);
    if (!big) return false;
    nn_tensor *bv = nn_tensor_view_raw(ctx, big, 2, TU_SHAPE(c, r), TU_SHAPE(r, 1), 3);
    nn_tensor *xt = nn_tensor_view_raw(ctx, x, 2, TU_SHAPE(c, r),
                                       TU_SHAPE(x->strides[1], x->strides[0]), x->offset);
    nn_tensor *v = nn_tensor_view_raw(ctx, big, 2, TU_SHAPE(r, c), TU_SHAPE(1, r), 3);
    bool ok = bv && xt && v && nn_tensor_copy_(ctx, bv, xt) == NN_OK;
    ok = ok && !nn_tensor_is_contiguous(v);
    if (ok) {
        v->requires_grad = x->requires_grad;
        in[k] = v;
        nn_tensor_release(x);
    } else {
        nn_tensor_release(v);
    }
    nn_tensor_release(bv);
    nn_tensor_release(xt);
    nn_tensor_release(big);
    return ok;
}

static bool all_noncontig(nn_ctx *ctx, nn_tensor **in) {
    for (int k = 0; k < 3; k++)
        if (!make_noncontig(ctx, in, k)) return false;
    return true;
}

/* DEF(name, expr): f_name computes expr from a = in[0], b = in[1], c = in[2].
 * DEF_NC also defines f_name_nc, which first makes the inputs non-contiguous. */
#define DEF(name, expr)                                                                            \
    static nn_tensor *f_##name(nn_ctx *ctx, nn_tensor **in, void *arg) {                           \
        (void)arg;                                                                                 \
        nn_tensor *a = in[0], *b = in[1], *c = in[2];                                              \
        (void)a;                                                                                   \
        (void)b;                                                                                   \
        (void)c;                                                                                   \
        return (expr);                                                                             \
    }
#define DEF_NC(name, expr)                                                                         \
    DEF(name, expr)                                                                                \
    static nn_tensor *f_##name##_nc(nn_ctx *ctx, nn_tensor **in, void *arg) {                      \
        return all_noncontig(ctx, in) ? f_##name(ctx, in, arg) : NULL;                             \
    }

/* a (op) wrapped number, as a Python scalar in PyTorch. */
static nn_tensor *with_wrapped(nn_ctx *ctx, nn_tensor *(*op)(nn_ctx *, nn_tensor *, nn_tensor *),
                               nn_tensor *a, double s) {
    nn_tensor *w = nn_scalar_wrapped(ctx, s);
    nn_tensor *r = w ? op(ctx, a, w) : NULL;
    nn_tensor_release(w);
    return r;
}

/* a + 3 with 3 a Python int: a wrapped int64 scalar. */
static nn_tensor *add_wrapped_int(nn_ctx *ctx, nn_tensor *a, int64_t s) {
    nn_tensor *w = nn_scalar(ctx, (double)s, NN_INT64);
    if (w) w->is_wrapped_number = true;
    nn_tensor *r = w ? nn_add(ctx, a, w) : NULL;
    nn_tensor_release(w);
    return r;
}

DEF_NC(add, nn_add(ctx, a, b))
DEF_NC(sub, nn_sub(ctx, a, b))
DEF_NC(mul, nn_mul(ctx, a, b))
DEF_NC(div, nn_div(ctx, a, b))
DEF_NC(pow, nn_pow(ctx, a, b))
DEF_NC(maximum, nn_maximum(ctx, a, b))
DEF_NC(minimum, nn_minimum(ctx, a, b))

DEF_NC(add_scalar_2p5, nn_add_scalar(ctx, a, 2.5))
DEF_NC(mul_scalar_m3, nn_mul_scalar(ctx, a, -3.0))
DEF_NC(pow_scalar_2, nn_pow_scalar(ctx, a, 2.0))
DEF_NC(pow_scalar_3, nn_pow_scalar(ctx, a, 3.0))
DEF_NC(pow_scalar_0p5, nn_pow_scalar(ctx, a, 0.5))
DEF_NC(pow_scalar_m1p5, nn_pow_scalar(ctx, a, -1.5))
DEF_NC(pow_scalar_0, nn_pow_scalar(ctx, a, 0.0))
DEF_NC(pow_scalar_1, nn_pow_scalar(ctx, a, 1.0))

DEF_NC(neg, nn_neg(ctx, a))
DEF_NC(exp, nn_exp(ctx, a))
DEF_NC(log, nn_log(ctx, a))
DEF_NC(log1p, nn_log1p(ctx, a))
DEF_NC(sqrt, nn_sqrt(ctx, a))
DEF_NC(rsqrt, nn_rsqrt(ctx, a))
DEF_NC(abs, nn_abs(ctx, a))
DEF_NC(sign, nn_sign(ctx, a))
DEF_NC(clamp_both, nn_clamp(ctx, a, -0.5, 0.7))
DEF_NC(clamp_lo, nn_clamp(ctx, a, -0.3, NAN))
DEF_NC(clamp_hi, nn_clamp(ctx, a, NAN, 0.4))
DEF(clamp_half, nn_clamp(ctx, a, -0.5, 0.5))
DEF_NC(relu, nn_relu(ctx, a))
DEF_NC(leaky_relu, nn_leaky_relu(ctx, a, 0.1))
DEF_NC(tanh, nn_tanh(ctx, a))
DEF_NC(sigmoid, nn_sigmoid(ctx, a))
DEF_NC(gelu, nn_gelu(ctx, a, false))
DEF_NC(gelu_tanh, nn_gelu(ctx, a, true))
DEF_NC(silu, nn_silu(ctx, a))
DEF_NC(softplus, nn_softplus(ctx, a, 1.0, 20.0))
DEF_NC(softplus_b2t1, nn_softplus(ctx, a, 2.0, 1.0))

DEF(mul_wrapped_2p5, with_wrapped(ctx, nn_mul, a, 2.5))
DEF(add_wrapped_int3, add_wrapped_int(ctx, a, 3))

DEF_NC(where, nn_where(ctx, a, b, c))

DEF_NC(to_f64, nn_to(ctx, a, NN_FLOAT64))
DEF(to_f32, nn_to(ctx, a, NN_FLOAT32))
DEF(to_i64, nn_to(ctx, a, NN_INT64))
DEF(to_bool, nn_to(ctx, a, NN_BOOL))

DEF(eq, nn_eq(ctx, a, b))
DEF(ne, nn_ne(ctx, a, b))
DEF(lt, nn_lt(ctx, a, b))
DEF(le, nn_le(ctx, a, b))
DEF(gt, nn_gt(ctx, a, b))
DEF(ge, nn_ge(ctx, a, b))
DEF(eq_wrapped, with_wrapped(ctx, nn_eq, a, 2.5))
DEF(ne_wrapped, with_wrapped(ctx, nn_ne, a, 2.5))
DEF(lt_wrapped, with_wrapped(ctx, nn_lt, a, 2.5))
DEF(le_wrapped, with_wrapped(ctx, nn_le, a, 2.5))
DEF(gt_wrapped, with_wrapped(ctx, nn_gt, a, 2.5))
DEF(ge_wrapped, with_wrapped(ctx, nn_ge, a, 2.5))
DEF(logical_and, nn_logical_and(ctx, a, b))
DEF(logical_or, nn_logical_or(ctx, a, b))
DEF_NC(logical_not, nn_logical_not(ctx, a))
DEF_NC(isnan, nn_isnan(ctx, a))
DEF_NC(isinf, nn_isinf(ctx, a))
DEF_NC(isfinite, nn_isfinite(ctx, a))

#define ROW(n, f)                                                                                  \
    { n, f }
#define BOTH(n, f) ROW(n "_f32", f), ROW(n "_f64", f)
#define BIN_ROWS(op)                                                                               \
    BOTH(#op, f_##op), BOTH(#op "_bcast", f_##op), BOTH(#op "_0d", f_##op),                        \
        ROW(#op "_0dfirst_f64", f_##op), BOTH(#op "_nc", f_##op##_nc)
#define SCALAR_ROWS(op) BOTH(#op, f_##op), BOTH(#op "_nc", f_##op##_nc)
#define UNARY_ROWS(op)  SCALAR_ROWS(op), ROW(#op "_0d_f32", f_##op), ROW(#op "_wide_f64", f_##op)
#define CMP_ROWS(op)                                                                               \
    BOTH(#op, f_##op), BOTH(#op "_bcast", f_##op), ROW(#op "_int", f_##op),                        \
        ROW(#op "_int_f32", f_##op), ROW(#op "_wrapped", f_##op##_wrapped)
#define TEST_ROWS(op) BOTH(#op, f_##op), ROW(#op "_int", f_##op), ROW(#op "_nc_f32", f_##op##_nc)

static const tu_ref_fn table[] = {
    BIN_ROWS(add),
    BIN_ROWS(sub),
    BIN_ROWS(mul),
    BIN_ROWS(div),
    BIN_ROWS(pow),
    BIN_ROWS(maximum),
    BIN_ROWS(minimum),
    BOTH("maximum_ties", f_maximum),
    BOTH("minimum_ties", f_minimum),
    BOTH("maximum_nan", f_maximum),
    BOTH("minimum_nan", f_minimum),

    SCALAR_ROWS(add_scalar_2p5),
    SCALAR_ROWS(mul_scalar_m3),
    SCALAR_ROWS(pow_scalar_2),
    SCALAR_ROWS(pow_scalar_3),
    SCALAR_ROWS(pow_scalar_0p5),
    SCALAR_ROWS(pow_scalar_m1p5),
    SCALAR_ROWS(pow_scalar_0),
    SCALAR_ROWS(pow_scalar_1),

    UNARY_ROWS(neg),
    UNARY_ROWS(exp),
    UNARY_ROWS(log),
    SCALAR_ROWS(log1p),
    ROW("log1p_0d_f32", f_log1p),
    UNARY_ROWS(sqrt),
    UNARY_ROWS(rsqrt),
    UNARY_ROWS(abs),
    UNARY_ROWS(sign),
    UNARY_ROWS(clamp_both),
    UNARY_ROWS(clamp_lo),
    UNARY_ROWS(clamp_hi),
    UNARY_ROWS(relu),
    UNARY_ROWS(leaky_relu),
    UNARY_ROWS(tanh),
    UNARY_ROWS(sigmoid),
    UNARY_ROWS(gelu),
    UNARY_ROWS(gelu_tanh),
    UNARY_ROWS(silu),
    UNARY_ROWS(softplus),
    UNARY_ROWS(softplus_b2t1),

    /* edge cases */
    BOTH("log_edges", f_log),
    BOTH("sqrt_edges", f_sqrt),
    BOTH("rsqrt_edges", f_rsqrt),
    BOTH("log1p_edges", f_log1p),
    BOTH("div_zero", f_div),
    BOTH("exp_edges", f_exp),
    BOTH("pow_zero_base", f_pow),
    BOTH("relu_nan", f_relu),
    BOTH("clamp_nan", f_clamp_half),
    BOTH("abs_nan", f_abs),
    BOTH("sign_nan", f_sign),
    BOTH("sigmoid_nan", f_sigmoid),
    BOTH("tanh_edges", f_tanh),
    BOTH("sigmoid_edges", f_sigmoid),
    BOTH("clamp_at_bounds", f_clamp_half),

    /* integers and promotion */
    ROW("int_add", f_add),
    ROW("int_sub", f_sub),
    ROW("int_mul", f_mul),
    ROW("int_div", f_div),
    ROW("int_maximum", f_maximum),
    ROW("int_minimum", f_minimum),
    ROW("int_pow", f_pow),
    ROW("int_neg", f_neg),
    ROW("int_abs", f_abs),
    ROW("int_sign", f_sign),
    ROW("int_exp", f_exp),
    ROW("int_sqrt", f_sqrt),
    ROW("int_bcast_add", f_add),
    ROW("int_mul_wrapped_float", f_mul_wrapped_2p5),
    ROW("int_add_wrapped_int", f_add_wrapped_int3),
    ROW("int_mul_f32", f_mul),
    ROW("int_mul_0d_f64", f_mul),
    ROW("bool_add_int", f_add),
    ROW("f32_mul_wrapped", f_mul_wrapped_2p5),
    ROW("f32_mul_f64", f_mul),
    ROW("f64_mul_f32", f_mul),
    ROW("f32_add_f64_bcast", f_add),
    ROW("f32_mul_0d_f64", f_mul),
    ROW("f32_div_int", f_div),

    BOTH("where", f_where),
    BOTH("where_bcast", f_where),
    BOTH("where_nc", f_where_nc),
    ROW("where_mixed", f_where),

    ROW("to_f32_f64", f_to_f64),
    ROW("to_f64_f32", f_to_f32),
    ROW("to_f32_f32", f_to_f32),
    ROW("to_f32_i64", f_to_i64),
    ROW("to_f64_bool", f_to_bool),
    ROW("to_i64_f32", f_to_f32),
    ROW("to_bool_f64", f_to_f64),
    ROW("to_nc_f32_f64", f_to_f64_nc),

    CMP_ROWS(eq),
    CMP_ROWS(ne),
    CMP_ROWS(lt),
    CMP_ROWS(le),
    CMP_ROWS(gt),
    CMP_ROWS(ge),
    ROW("logical_and_f32", f_logical_and),
    ROW("logical_or_f32", f_logical_or),
    ROW("logical_not_f32", f_logical_not),
    ROW("logical_and_bool", f_logical_and),
    ROW("logical_or_bool", f_logical_or),
    ROW("logical_not_bool", f_logical_not),
    ROW("logical_and_int_bcast", f_logical_and),
    ROW("logical_not_int", f_logical_not),
    ROW("logical_not_nc", f_logical_not_nc),
    TEST_ROWS(isnan),
    TEST_ROWS(isinf),
    TEST_ROWS(isfinite),
};

NN_TEST(elementwise_torch_refs) {
    int failed = tu_run_torch_refs("elementwise", table, (int)(sizeof table / sizeof table[0]));
    CHECK_MSG(failed == 0, "%d elementwise reference cases failed", failed);
}
