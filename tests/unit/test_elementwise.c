/* Elementwise ops: finite-difference gradient checks in float64 for every
 * differentiable op, and the behaviour PyTorch references do not cover:
 * error values, result dtypes, gradient dtypes, empty tensors, and strided
 * layouts larger than the reference cases.
 *
 * Owned by the elementwise tester; the PyTorch comparisons live in
 * test_torch_elementwise.c. */
#include "nn_rng.h"
#include "testutil.h"

/* ---- inputs ---- */

enum { ANY, POS, AWAY0, GT_M1 };

/* A float64 leaf of [shape] with random values in domain [dom]: POS is
 * >= 0.3, AWAY0 keeps |x| >= 0.2 (away from the kinks of relu, abs and the
 * pole of div), GT_M1 stays above -0.7 (log1p). */
static nn_tensor *leaf(nn_ctx *ctx, int ndim, const int64_t *shape, int dom) {
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT64, ndim, shape);
    if (!t) return NULL;
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double v = nn_rng_normal(&ctx->rng);
        if (dom == POS) v = fabs(v) + 0.3;
        if (dom == AWAY0) v = v < 0 ? v - 0.2 : v + 0.2;
        if (dom == GT_M1) v = fabs(v) - 0.7;
        nn_tensor_set_flat(t, i, v);
    }
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

/* ---- op adaptors for tu_gradcheck ---- */

#define G(name, expr)                                                                              \
    static nn_tensor *g_##name(nn_ctx *ctx, nn_tensor **in, void *arg) {                           \
        (void)arg;                                                                                 \
        nn_tensor *a = in[0], *b = in[1];                                                          \
        (void)b;                                                                                   \
        return (expr);                                                                             \
    }

G(add, nn_add(ctx, a, b))
G(sub, nn_sub(ctx, a, b))
G(mul, nn_mul(ctx, a, b))
G(div, nn_div(ctx, a, b))
G(pow, nn_pow(ctx, a, b))
G(maximum, nn_maximum(ctx, a, b))
G(minimum, nn_minimum(ctx, a, b))
G(add_scalar, nn_add_scalar(ctx, a, -1.25))
G(mul_scalar, nn_mul_scalar(ctx, a, 0.75))
G(pow_2, nn_pow_scalar(ctx, a, 2.0))
G(pow_3, nn_pow_scalar(ctx, a, 3.0))
G(pow_half, nn_pow_scalar(ctx, a, 0.5))
G(pow_m1p5, nn_pow_scalar(ctx, a, -1.5))
G(neg, nn_neg(ctx, a))
G(exp, nn_exp(ctx, a))
G(log, nn_log(ctx, a))
G(log1p, nn_log1p(ctx, a))
G(sqrt, nn_sqrt(ctx, a))
G(rsqrt, nn_rsqrt(ctx, a))
G(abs, nn_abs(ctx, a))
G(sign, nn_sign(ctx, a))
G(clamp_both, nn_clamp(ctx, a, -0.45, 0.55))
G(clamp_lo, nn_clamp(ctx, a, -0.35, NAN))
G(clamp_hi, nn_clamp(ctx, a, NAN, 0.25))
G(relu, nn_relu(ctx, a))
G(leaky_relu, nn_leaky_relu(ctx, a, 0.2))
G(tanh, nn_tanh(ctx, a))
G(sigmoid, nn_sigmoid(ctx, a))
G(gelu, nn_gelu(ctx, a, false))
G(gelu_tanh, nn_gelu(ctx, a, true))
G(silu, nn_silu(ctx, a))
G(softplus, nn_softplus(ctx, a, 1.0, 20.0))
G(softplus_b3, nn_softplus(ctx, a, 3.0, 2.0))

/* where(cond, a, b) with a fixed [3, 1] condition broadcasting against a
 * [3, 1] and b [4]. */
static nn_tensor *g_where(nn_ctx *ctx, nn_tensor **in, void *arg) {
    (void)arg;
    nn_tensor *cond = nn_full(ctx, NN_BOOL, 2, TU_SHAPE(3, 1), 0);
    nn_tensor_set_flat(cond, 0, 1);
    nn_tensor_set_flat(cond, 2, 1);
    nn_tensor *r = nn_where(ctx, cond, in[0], in[1]);
    nn_tensor_release(cond);
    return r;
}

/* to(float32) and back: linear, so the check holds up to float32 rounding. */
static nn_tensor *g_to_roundtrip(nn_ctx *ctx, nn_tensor **in, void *arg) {
    (void)arg;
    nn_tensor *h = nn_to(ctx, in[0], NN_FLOAT32);
    nn_tensor *r = h ? nn_to(ctx, h, NN_FLOAT64) : NULL;
    nn_tensor_release(h);
    return r;
}

typedef struct gc_case {
    const char *name;
    tu_fn fn;
    int dom_a, dom_b; /* -1: unary */
} gc_case;

static bool gradcheck_case(nn_ctx *ctx, const gc_case *c, int ndim_a, const int64_t *sa, int ndim_b,
                           const int64_t *sb) {
    nn_tensor *in[2] = {leaf(ctx, ndim_a, sa, c->dom_a),
                        c->dom_b >= 0 ? leaf(ctx, ndim_b, sb, c->dom_b) : NULL};
    bool ok = in[0] && (c->dom_b < 0 || in[1]) &&
              tu_gradcheck(ctx, c->name, c->fn, in, c->dom_b >= 0 ? 2 : 1, NULL, 1e-6, 1e-6, 1e-8);
    nn_tensor_release(in[0]);
    nn_tensor_release(in[1]);
    return ok;
}

static const gc_case binary_cases[] = {
    {"add", g_add, ANY, ANY},         {"sub", g_sub, ANY, ANY},
    {"mul", g_mul, ANY, ANY},         {"div", g_div, ANY, AWAY0},
    {"pow", g_pow, POS, ANY},         {"maximum", g_maximum, ANY, ANY},
    {"minimum", g_minimum, ANY, ANY}, {"where", g_where, ANY, ANY},
};

static const gc_case unary_cases[] = {
    {"add_scalar", g_add_scalar, ANY, -1},
    {"mul_scalar", g_mul_scalar, ANY, -1},
    {"pow_scalar_2", g_pow_2, ANY, -1},
    {"pow_scalar_3", g_pow_3, ANY, -1},
    {"pow_scalar_0.5", g_pow_half, POS, -1},
    {"pow_scalar_-1.5", g_pow_m1p5, POS, -1},
    {"neg", g_neg, ANY, -1},
    {"exp", g_exp, ANY, -1},
    {"log", g_log, POS, -1},
    {"log1p", g_log1p, GT_M1, -1},
    {"sqrt", g_sqrt, POS, -1},
    {"rsqrt", g_rsqrt, POS, -1},
    {"abs", g_abs, AWAY0, -1},
    {"sign", g_sign, AWAY0, -1},
    {"clamp_both", g_clamp_both, ANY, -1},
    {"clamp_lo", g_clamp_lo, ANY, -1},
    {"clamp_hi", g_clamp_hi, ANY, -1},
    {"relu", g_relu, AWAY0, -1},
    {"leaky_relu", g_leaky_relu, AWAY0, -1},
    {"tanh", g_tanh, ANY, -1},
    {"sigmoid", g_sigmoid, ANY, -1},
    {"gelu", g_gelu, ANY, -1},
    {"gelu_tanh", g_gelu_tanh, ANY, -1},
    {"silu", g_silu, ANY, -1},
    {"softplus", g_softplus, ANY, -1},
    {"softplus_beta3_threshold2", g_softplus_b3, ANY, -1},
};

NN_TEST(elementwise_gradcheck_binary_broadcast) {
    nn_ctx *ctx = nn_ctx_new(11);
    for (size_t i = 0; i < sizeof binary_cases / sizeof binary_cases[0]; i++) {
        const gc_case *c = &binary_cases[i];
        /* [3, 1] with [4], then [2, 3] with a 0-dim operand on either side. */
        CHECK_MSG(gradcheck_case(ctx, c, 2, TU_SHAPE(3, 1), 1, TU_SHAPE(4)), "%s [3,1]x[4]",
                  c->name);
        if (c->fn == g_where) continue;
        CHECK_MSG(gradcheck_case(ctx, c, 2, TU_SHAPE(2, 3), 0, NULL), "%s [2,3]x[]", c->name);
        CHECK_MSG(gradcheck_case(ctx, c, 0, NULL, 2, TU_SHAPE(2, 3)), "%s []x[2,3]", c->name);
    }
    nn_ctx_free(ctx);
}

NN_TEST(elementwise_gradcheck_unary) {
    nn_ctx *ctx = nn_ctx_new(12);
    for (size_t i = 0; i < sizeof unary_cases / sizeof unary_cases[0]; i++) {
        const gc_case *c = &unary_cases[i];
        CHECK_MSG(gradcheck_case(ctx, c, 2, TU_SHAPE(2, 3), 0, NULL), "%s", c->name);
        CHECK_MSG(gradcheck_case(ctx, c, 0, NULL, 0, NULL), "%s 0-dim", c->name);
    }
    nn_ctx_free(ctx);
}

NN_TEST(elementwise_gradcheck_to_roundtrip) {
    nn_ctx *ctx = nn_ctx_new(13);
    nn_tensor *x = leaf(ctx, 2, TU_SHAPE(2, 3), ANY);
    /* Float32 rounding in the middle: a coarse step keeps the quotient exact
     * enough. */
    CHECK(tu_gradcheck(ctx, "to f32 and back", g_to_roundtrip, &x, 1, NULL, 1e-2, 1e-4, 1e-5));
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

/* A chain of ops with a shared input: gradients from several paths add up. */
static nn_tensor *g_chain(nn_ctx *ctx, nn_tensor **in, void *arg) {
    (void)arg;
    nn_tensor *t = nn_tanh(ctx, in[0]);
    nn_tensor *u = nn_mul(ctx, t, in[1]);
    nn_tensor *v = nn_div(ctx, u, in[0]);
    nn_tensor *w = nn_add(ctx, v, t);
    nn_tensor *r = nn_softplus(ctx, w, 1.0, 20.0);
    nn_tensor_release(t);
    nn_tensor_release(u);
    nn_tensor_release(v);
    nn_tensor_release(w);
    return r;
}

NN_TEST(elementwise_gradcheck_chain_broadcast) {
    nn_ctx *ctx = nn_ctx_new(14);
    nn_tensor *in[2] = {leaf(ctx, 2, TU_SHAPE(4, 1), AWAY0), leaf(ctx, 1, TU_SHAPE(5), ANY)};
    CHECK(tu_gradcheck(ctx, "chain", g_chain, in, 2, NULL, 1e-6, 1e-6, 1e-8));
    nn_tensor_release(in[0]);
    nn_tensor_release(in[1]);
    nn_ctx_free(ctx);
}

/* ---- errors ---- */

NN_TEST(elementwise_errors_are_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = nn_ones(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3));
    nn_tensor *b = nn_ones(ctx, NN_FLOAT32, 2, TU_SHAPE(3, 2));
    nn_tensor *f = nn_ones(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3));
    nn_tensor *(*binops[])(nn_ctx *, nn_tensor *, nn_tensor *) = {
        nn_add, nn_sub, nn_mul, nn_div, nn_pow, nn_maximum,     nn_minimum,   nn_eq,
        nn_ne,  nn_lt,  nn_le,  nn_gt,  nn_ge,  nn_logical_and, nn_logical_or};
    for (size_t i = 0; i < sizeof binops / sizeof binops[0]; i++) {
        nn_ctx_clear_error(ctx);
        CHECK_MSG(binops[i](ctx, a, b) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE, "op %zu", i);
        CHECK_MSG(!strcmp(nn_ctx_error(ctx), "The size of tensor a (3) must match the size of "
                                             "tensor b (2) at non-singleton dimension 1"),
                  "op %zu: %s", i, nn_ctx_error(ctx));
        CHECK_MSG(binops[i](ctx, a, NULL) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE,
                  "op %zu with a missing input", i);
    }
    CHECK(nn_exp(ctx, NULL) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_clamp(ctx, a, 1.0, -1.0) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "min") != NULL);
    CHECK(nn_softplus(ctx, a, 0.0, 20.0) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_where(ctx, f, a, a) == NULL && nn_ctx_status(ctx) == NN_ERR_TYPE);
    CHECK(strstr(nn_ctx_error(ctx), "bool") != NULL);
    nn_tensor *cond = nn_full(ctx, NN_BOOL, 1, TU_SHAPE(4), 1);
    CHECK(nn_where(ctx, cond, a, a) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    /* clamp with both bounds "none" is the identity. */
    nn_tensor *id = nn_clamp(ctx, a, NAN, NAN);
    CHECK(id && tu_close_tensor(id, a, 0, 0, "clamp(none, none)"));
    nn_tensor *ts[] = {a, b, f, cond, id};
    for (int i = 0; i < 5; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

/* PyTorch refuses integer tensors raised to negative integer powers
 * ("Integers to negative integer powers are not allowed"); truncating
 * 2 ** -1 to 0 silently is a wrong answer. */
NN_TEST(elementwise_int_pow_negative_exponent_is_an_error) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = tu_tensor(ctx, NN_INT64, 1, TU_SHAPE(2), TU_VALS(2, 3));
    nn_tensor *e = tu_tensor(ctx, NN_INT64, 1, TU_SHAPE(2), TU_VALS(-1, 2));
    nn_tensor *r = nn_pow(ctx, a, e);
    CHECK_MSG(r == NULL && nn_ctx_status(ctx) == NN_ERR_RUNTIME,
              "int64 2 ** -1 gave %g instead of an error", r ? nn_tensor_get_flat(r, 0) : 0.0);
    nn_tensor_release(r);
    nn_tensor_release(a);
    nn_tensor_release(e);
    nn_ctx_free(ctx);
}

/* ---- dtypes of results and gradients ---- */

static nn_dtype dtype_of(nn_ctx *ctx, nn_tensor *t) {
    nn_dtype dt = t ? t->dtype : (nn_dtype)-1;
    if (!t) fprintf(stderr, "  op failed: %s\n", nn_ctx_error(ctx));
    nn_tensor_release(t);
    return dt;
}

NN_TEST(elementwise_result_dtypes) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *i = nn_ones(ctx, NN_INT64, 1, TU_SHAPE(3));
    nn_tensor *f = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor *d = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(3));
    nn_tensor *bl = nn_ones(ctx, NN_BOOL, 1, TU_SHAPE(3));
    nn_tensor *w = nn_scalar_wrapped(ctx, 2.5);
    CHECK(dtype_of(ctx, nn_mul(ctx, i, w)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_mul(ctx, w, i)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_mul(ctx, f, w)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_mul(ctx, d, w)) == NN_FLOAT64);
    CHECK(dtype_of(ctx, nn_mul(ctx, f, d)) == NN_FLOAT64);
    CHECK(dtype_of(ctx, nn_add(ctx, i, i)) == NN_INT64);
    CHECK(dtype_of(ctx, nn_add(ctx, bl, i)) == NN_INT64);
    CHECK(dtype_of(ctx, nn_mul(ctx, i, f)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_div(ctx, i, i)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_exp(ctx, i)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_neg(ctx, i)) == NN_INT64);
    CHECK(dtype_of(ctx, nn_abs(ctx, i)) == NN_INT64);
    CHECK(dtype_of(ctx, nn_lt(ctx, f, d)) == NN_BOOL);
    CHECK(dtype_of(ctx, nn_isnan(ctx, i)) == NN_BOOL);
    CHECK(dtype_of(ctx, nn_logical_not(ctx, f)) == NN_BOOL);
    CHECK(dtype_of(ctx, nn_where(ctx, bl, i, f)) == NN_FLOAT32);
    CHECK(dtype_of(ctx, nn_to(ctx, f, NN_INT64)) == NN_INT64);
    /* Two wrapped numbers compute in the wrapped (float64) type; only the
     * language ever makes them, and it folds constants itself. */
    nn_tensor *w2 = nn_scalar_wrapped(ctx, 1.0);
    nn_tensor *ww = nn_add(ctx, w, w2);
    CHECK(ww && ww->ndim == 0 && nn_tensor_get_flat(ww, 0) == 3.5);
    nn_tensor *ts[] = {i, f, d, bl, w, w2, ww};
    for (int k = 0; k < 7; k++) nn_tensor_release(ts[k]);
    nn_ctx_free(ctx);
}

/* The gradient of an input always has the input's dtype, whatever the
 * result's promoted dtype. */
NN_TEST(elementwise_grad_dtype_follows_input) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_full(ctx, NN_FLOAT32, 1, TU_SHAPE(3), 2);
    nn_tensor *y = nn_full(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 1), 3);
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor_requires_grad_(ctx, y, true);
    nn_tensor *z = nn_mul(ctx, x, y); /* float64 [2, 3] */
    CHECK(z && z->dtype == NN_FLOAT64);
    nn_tensor *up = nn_ones(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3));
    CHECK(nn_backward(ctx, z, up, false) == NN_OK);
    nn_tensor *gx = nn_tensor_grad(x), *gy = nn_tensor_grad(y);
    CHECK(gx && gx->dtype == NN_FLOAT32 &&
          tu_close(gx, 1, TU_SHAPE(3), TU_VALS(6, 6, 6), 0, 0, "dx"));
    CHECK(gy && gy->dtype == NN_FLOAT64 &&
          tu_close(gy, 2, TU_SHAPE(2, 1), TU_VALS(6, 6), 0, 0, "dy"));
    nn_tensor *h = nn_to(ctx, x, NN_FLOAT64);
    nn_tensor *up3 = nn_full(ctx, NN_FLOAT64, 1, TU_SHAPE(3), 0.5);
    CHECK(nn_backward(ctx, h, up3, false) == NN_OK);
    CHECK(nn_tensor_grad(x)->dtype == NN_FLOAT32);
    CHECK(tu_close(nn_tensor_grad(x), 1, TU_SHAPE(3), TU_VALS(6.5, 6.5, 6.5), 0, 0, "dx + to"));
    /* Casting to an integer dtype cuts the graph, as in PyTorch. */
    nn_tensor *k = nn_to(ctx, x, NN_INT64);
    CHECK(k && !k->requires_grad);
    nn_tensor *ts[] = {x, y, z, up, h, up3, k};
    for (int i = 0; i < 7; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

/* ---- empty tensors and larger strided layouts ---- */

NN_TEST(elementwise_empty_tensors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(0, 3));
    nn_tensor *b = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor_requires_grad_(ctx, a, true);
    nn_tensor_requires_grad_(ctx, b, true);
    nn_tensor *s = nn_add(ctx, a, b);
    CHECK(s && s->ndim == 2 && s->shape[0] == 0 && s->shape[1] == 3);
    nn_tensor *e = s ? nn_exp(ctx, s) : NULL;
    CHECK(e && nn_tensor_numel(e) == 0);
    nn_tensor *up = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(0, 3));
    CHECK(e && nn_backward(ctx, e, up, false) == NN_OK);
    /* b broadcast over zero rows: its gradient is a sum of nothing. */
    CHECK(nn_tensor_grad(b) &&
          tu_close(nn_tensor_grad(b), 1, TU_SHAPE(3), TU_VALS(0, 0, 0), 0, 0, "db"));
    nn_tensor *c = nn_lt(ctx, a, b);
    CHECK(c && c->dtype == NN_BOOL && nn_tensor_numel(c) == 0);
    nn_tensor *z = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(0));
    nn_tensor *bad = nn_add(ctx, z, b); /* [0] with [3] does not broadcast */
    CHECK(bad == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    nn_tensor *ts[] = {a, b, s, e, up, c, z};
    for (int i = 0; i < 7; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

/* A view of [x] ([r, c]) whose storage holds the transpose. */
static nn_tensor *transposed_copy(nn_ctx *ctx, nn_tensor *x) {
    int64_t r = x->shape[0], c = x->shape[1];
    nn_tensor *xt = nn_tensor_view_raw(ctx, x, 2, TU_SHAPE(c, r), TU_SHAPE(1, c), 0);
    nn_tensor *base = nn_tensor_contiguous_raw(ctx, xt);
    nn_tensor *v = nn_tensor_view_raw(ctx, base, 2, TU_SHAPE(r, c), TU_SHAPE(1, r), 0);
    nn_tensor_release(xt);
    nn_tensor_release(base);
    return v;
}

/* Ops on strided views give what they give on contiguous copies, forward
 * and backward, for shapes big enough to go through the iterator's dim
 * merging and every kernel path (unit stride, broadcast scalar, strided).
 * To the last bit but one: a transposed product stays transposed, and the
 * GELU of a non-contiguous tensor takes ATen's form where a contiguous one
 * takes oneDNN's, as in PyTorch (tests/py/elementwise_layout.py has the
 * bits). */
NN_TEST(elementwise_strided_matches_contiguous) {
    nn_ctx *ctx = nn_ctx_new(5);
    for (int dt = 0; dt < 2; dt++) {
        nn_dtype t = dt ? NN_FLOAT64 : NN_FLOAT32;
        nn_tensor *x = nn_randn(ctx, t, 2, TU_SHAPE(37, 19));
        nn_tensor *col = nn_randn(ctx, t, 2, TU_SHAPE(37, 1));
        nn_tensor *v = transposed_copy(ctx, x);
        CHECK(v && !nn_tensor_is_contiguous(v) && tu_close_tensor(v, x, 0, 0, "view values"));
        nn_tensor_requires_grad_(ctx, x, true);
        nn_tensor_requires_grad_(ctx, v, true);
        nn_tensor *r[2];
        nn_tensor *src[2] = {x, v};
        for (int k = 0; k < 2; k++) {
            nn_tensor *p = nn_mul(ctx, src[k], col);
            nn_tensor *q = nn_gelu(ctx, p, false);
            nn_tensor *m = nn_maximum(ctx, q, src[k]);
            r[k] = nn_add_scalar(ctx, m, 1.0);
            nn_tensor_release(p);
            nn_tensor_release(q);
            nn_tensor_release(m);
        }
        double rtol = dt ? 1e-14 : 1e-4; /* GELU's gradient where it nears 0 */
        CHECK(tu_close_tensor(r[1], r[0], rtol, 0, "strided forward"));
        nn_tensor *up = nn_randn(ctx, t, 2, TU_SHAPE(37, 19));
        CHECK(nn_backward(ctx, r[0], up, false) == NN_OK);
        CHECK(nn_backward(ctx, r[1], up, false) == NN_OK);
        CHECK(tu_close_tensor(nn_tensor_grad(v), nn_tensor_grad(x), rtol, 0, "strided backward"));
        nn_tensor *ts[] = {x, col, v, r[0], r[1], up};
        for (int i = 0; i < 6; i++) nn_tensor_release(ts[i]);
    }
    nn_ctx_free(ctx);
}

/* Broadcasting across many dims, with size-1 dims in the middle, checked
 * element by element against a direct formula. */
NN_TEST(elementwise_broadcast_rank5) {
    nn_ctx *ctx = nn_ctx_new(6);
    nn_tensor *a = nn_randn(ctx, NN_FLOAT64, 5, TU_SHAPE(2, 1, 3, 1, 4));
    nn_tensor *b = nn_randn(ctx, NN_FLOAT64, 4, TU_SHAPE(5, 1, 2, 1));
    nn_tensor *s = nn_sub(ctx, a, b);
    CHECK(s && s->ndim == 5);
    int64_t want[5] = {2, 5, 3, 2, 4};
    bool ok = s != NULL;
    for (int i = 0; ok && i < 5; i++) ok = s->shape[i] == want[i];
    CHECK(ok);
    for (int64_t i0 = 0; ok && i0 < 2; i0++)
        for (int64_t i1 = 0; i1 < 5; i1++)
            for (int64_t i2 = 0; i2 < 3; i2++)
                for (int64_t i3 = 0; i3 < 2; i3++)
                    for (int64_t i4 = 0; i4 < 4; i4++) {
                        double av = nn_tensor_get_flat(a, (i0 * 3 + i2) * 4 + i4);
                        double bv = nn_tensor_get_flat(b, i1 * 2 + i3);
                        int64_t flat = (((i0 * 5 + i1) * 3 + i2) * 2 + i3) * 4 + i4;
                        if (nn_tensor_get_flat(s, flat) != av - bv) ok = false;
                    }
    CHECK_MSG(ok, "rank-5 broadcast values");
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(s);
    nn_ctx_free(ctx);
}

/* Comparisons and tests on NaN follow IEEE: NaN is unequal to everything,
 * including itself. */
NN_TEST(elementwise_nan_comparisons) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *n = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(2), TU_VALS(NAN, 1));
    nn_tensor *eq = nn_eq(ctx, n, n), *ne = nn_ne(ctx, n, n), *ge = nn_ge(ctx, n, n);
    CHECK(tu_close(eq, 1, TU_SHAPE(2), TU_VALS(0, 1), 0, 0, "nan == nan"));
    CHECK(tu_close(ne, 1, TU_SHAPE(2), TU_VALS(1, 0), 0, 0, "nan != nan"));
    CHECK(tu_close(ge, 1, TU_SHAPE(2), TU_VALS(0, 1), 0, 0, "nan >= nan"));
    nn_tensor *ts[] = {n, eq, ne, ge};
    for (int i = 0; i < 4; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

/* ---- the engine's worker threads (nn_thread.h) ---- */

#include <stdatomic.h>

#include "nn_thread.h"

typedef struct {
    atomic_int hits[1000];
    atomic_int nested_ok;
} par_count;

static void nested_task(void *p, int task, int n_tasks) {
    (void)task;
    (void)n_tasks;
    atomic_fetch_add((atomic_int *)p, 1);
}

static void count_task(void *p, int task, int n_tasks) {
    par_count *c = p;
    atomic_fetch_add(&c->hits[task], 1);
    if (task == n_tasks - 1) { /* a job started inside a job runs on its caller */
        atomic_int inner = 0;
        nn_parallel_run(5, nested_task, &inner);
        if (atomic_load(&inner) == 5) atomic_store(&c->nested_ok, 1);
    }
}

/* Every task of every job runs exactly once, jobs back to back (a worker
 * waking late must not claim a task of the next job), a job inside a job
 * runs serially, and the ranges tile [0, n) on their alignment. */
NN_TEST(parallel_run_every_task_once) {
    int prev = nn_get_num_threads();
    nn_set_num_threads(3);
    static par_count c;
    bool ok = true;
    for (int rep = 0; rep < 300 && ok; rep++) {
        int n = 1 + rep % 7 + (rep % 50 == 0 ? 993 : 0);
        for (int i = 0; i < n; i++) atomic_store(&c.hits[i], 0);
        atomic_store(&c.nested_ok, 0);
        nn_parallel_run(n, count_task, &c);
        for (int i = 0; i < n; i++) ok = ok && atomic_load(&c.hits[i]) == 1;
        ok = ok && atomic_load(&c.nested_ok) == 1;
    }
    CHECK_MSG(ok, "each task once, nested job serial");
    CHECK(nn_parallel_tasks(1000, 600) == 1);
    CHECK(nn_parallel_tasks(100000, 1000) == 3);
    int64_t prev_end = 0;
    for (int t = 0; t < 4; t++) {
        int64_t b, e;
        nn_parallel_range(1003, t, 4, 16, &b, &e);
        CHECK(b == prev_end);
        CHECK(t == 3 || b % 16 == 0);
        CHECK(t == 3 || e % 16 == 0);
        prev_end = e;
    }
    CHECK(prev_end == 1003);
    nn_set_num_threads(prev);
}
