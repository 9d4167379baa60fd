/* Neural-network ops (engine/ops/ops_nn.c): hand-computed values, every user
 * error, and finite-difference gradient checks in float64 for every input
 * that takes a gradient. PyTorch comparisons live in test_torch_nn.c. */
#include <stdlib.h>

#include "testutil.h"

#define GC_EPS  1e-6
#define GC_RTOL 1e-5
#define GC_ATOL 1e-7

static void release_all(nn_tensor **ts, int n) {
    for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
}

static nn_tensor *leaf64(nn_ctx *ctx, int ndim, const int64_t *shape, const double *v) {
    nn_tensor *t = tu_tensor(ctx, NN_FLOAT64, ndim, shape, v);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

static nn_tensor *randn_leaf(nn_ctx *ctx, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, ndim, shape);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

static nn_tensor *ids(nn_ctx *ctx, int ndim, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_INT64, ndim, shape, v);
}

/* The error a failed call left: code and a substring of its message. */
static bool failed_with(nn_ctx *ctx, nn_tensor *r, nn_status code, const char *needle) {
    bool ok = r == NULL && nn_ctx_status(ctx) == code && strstr(nn_ctx_error(ctx), needle);
    if (!ok)
        fprintf(stderr, "  expected %s containing '%s', got %s: %s\n", nn_status_name(code), needle,
                r ? "a result" : nn_status_name(nn_ctx_status(ctx)), nn_ctx_error(ctx));
    nn_tensor_release(r);
    nn_ctx_clear_error(ctx);
    return ok;
}

static double lse(const double *x, int n) {
    double m = -INFINITY, s = 0;
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    for (int i = 0; i < n; i++) s += exp(x[i] - m);
    return m + log(s);
}

/* ---- softmax / log_softmax ---- */

NN_TEST(nn_softmax_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALS(1, 2, 3, 1, 1, 1));
    nn_tensor *y = nn_softmax(ctx, x, -1), *ly = nn_log_softmax(ctx, x, 1);
    double l = lse(TU_VALS(1, 2, 3), 3);
    double e[6] = {exp(1 - l), exp(2 - l), exp(3 - l), 1 / 3.0, 1 / 3.0, 1 / 3.0};
    double le[6] = {1 - l, 2 - l, 3 - l, -log(3), -log(3), -log(3)};
    CHECK(y && y->dtype == NN_FLOAT32);
    CHECK(tu_close(y, 2, TU_SHAPE(2, 3), e, 1e-6, 1e-7, "softmax"));
    CHECK(tu_close(ly, 2, TU_SHAPE(2, 3), le, 1e-6, 1e-7, "log_softmax"));
    /* Along dim 0: columns of a [2, 3]. */
    nn_tensor *y0 = nn_softmax(ctx, x, 0);
    double a = 1 / (1 + exp(-1.0)), b = 1 / (1 + exp(-2.0));
    CHECK(tu_close(y0, 2, TU_SHAPE(2, 3), TU_VALS(0.5, a, b, 0.5, 1 - a, 1 - b), 1e-6, 1e-7,
                   "softmax dim 0"));
    /* A 0-dim input is one class. */
    nn_tensor *s = nn_scalar(ctx, 3.5, NN_FLOAT64), *ys = nn_softmax(ctx, s, 0);
    CHECK(tu_close(ys, 0, NULL, TU_VALS(1), 0, 0, "softmax of a scalar"));
    nn_tensor *ts[] = {x, y, ly, y0, s, ys};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

NN_TEST(nn_softmax_neg_inf_mask) {
    nn_ctx *ctx = nn_ctx_new(0);
    /* Row 0: one masked entry gets probability 0; row 1: all masked is nan. */
    nn_tensor *x =
        leaf64(ctx, 2, TU_SHAPE(2, 3), TU_VALS(0, -INFINITY, 0, -INFINITY, -INFINITY, -INFINITY));
    nn_tensor *y = nn_softmax(ctx, x, 1), *ly = nn_log_softmax(ctx, x, 1);
    CHECK(tu_close(y, 2, TU_SHAPE(2, 3), TU_VALS(0.5, 0, 0.5, NAN, NAN, NAN), 1e-12, 0, "masked"));
    CHECK(tu_close(ly, 2, TU_SHAPE(2, 3), TU_VALS(-log(2), -INFINITY, -log(2), NAN, NAN, NAN),
                   1e-12, 0, "log masked"));
    /* The masked entry gets no gradient; the softmax backward of a row whose
     * gradients are equal is 0. */
    nn_tensor *up = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3), TU_VALS(1, 5, 3, 0, 0, 0));
    CHECK(nn_backward(ctx, y, up, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 2, TU_SHAPE(2, 3), TU_VALS(-0.5, 0, 0.5, NAN, NAN, NAN),
                   1e-12, 0, "masked grad"));
    nn_tensor *ts[] = {x, y, ly, up};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(nn_softmax_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3));
    nn_tensor *i = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(3));
    CHECK(failed_with(ctx, nn_softmax(ctx, x, 2), NN_ERR_INDEX, "[2, 3]"));
    CHECK(failed_with(ctx, nn_log_softmax(ctx, x, -3), NN_ERR_INDEX, "log_softmax"));
    CHECK(failed_with(ctx, nn_softmax(ctx, i, 0), NN_ERR_TYPE, "int64"));
    nn_tensor_release(x);
    nn_tensor_release(i);
    nn_ctx_free(ctx);
}

static nn_tensor *gc_softmax(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_softmax(ctx, in[0], *(int64_t *)arg);
}
static nn_tensor *gc_log_softmax(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_log_softmax(ctx, in[0], *(int64_t *)arg);
}

NN_TEST(nn_softmax_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *x = randn_leaf(ctx, 3, TU_SHAPE(2, 3, 4));
    for (int64_t d = 0; d < 3; d++) {
        CHECK(tu_gradcheck(ctx, "softmax", gc_softmax, &x, 1, &d, GC_EPS, GC_RTOL, GC_ATOL));
        CHECK(
            tu_gradcheck(ctx, "log_softmax", gc_log_softmax, &x, 1, &d, GC_EPS, GC_RTOL, GC_ATOL));
    }
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

/* ---- cross_entropy / nll_loss ---- */

NN_TEST(nn_cross_entropy_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    double xv[6] = {1, 2, 3, 0.5, -1, 2};
    nn_tensor *x = leaf64(ctx, 2, TU_SHAPE(2, 3), xv);
    nn_tensor *t = ids(ctx, 1, TU_SHAPE(2), TU_VALS(0, 2));
    double l0 = lse(xv, 3) - 1, l1 = lse(xv + 3, 3) - 2;
    nn_tensor *mean = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_MEAN);
    nn_tensor *sum = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_SUM);
    nn_tensor *none = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_NONE);
    CHECK(tu_close(mean, 0, NULL, TU_VALS((l0 + l1) / 2), 1e-12, 0, "ce mean"));
    CHECK(tu_close(sum, 0, NULL, TU_VALS(l0 + l1), 1e-12, 0, "ce sum"));
    CHECK(tu_close(none, 1, TU_SHAPE(2), TU_VALS(l0, l1), 1e-12, 0, "ce none"));
    /* ignore_index: the ignored row counts neither in the sum nor the mean. */
    nn_tensor *t2 = ids(ctx, 1, TU_SHAPE(2), TU_VALS(0, -1));
    nn_tensor *ig = nn_cross_entropy(ctx, x, t2, -1, 0, NN_REDUCTION_MEAN);
    CHECK(tu_close(ig, 0, NULL, TU_VALS(l0), 1e-12, 0, "ce ignore mean"));
    CHECK(nn_backward(ctx, ig, NULL, false) == NN_OK);
    double p[3];
    for (int k = 0; k < 3; k++) p[k] = exp(xv[k] - lse(xv, 3));
    CHECK(tu_close(nn_tensor_grad(x), 2, TU_SHAPE(2, 3), TU_VALS(p[0] - 1, p[1], p[2], 0, 0, 0),
                   1e-12, 1e-15, "ce ignore grad"));
    /* All targets ignored: the mean is 0/0 = nan, as in PyTorch; sum is 0. */
    nn_tensor *t3 = ids(ctx, 1, TU_SHAPE(2), TU_VALS(-100, -100));
    nn_tensor *allig = nn_cross_entropy(ctx, x, t3, -100, 0, NN_REDUCTION_MEAN);
    nn_tensor *allig_s = nn_cross_entropy(ctx, x, t3, -100, 0, NN_REDUCTION_SUM);
    CHECK(tu_close(allig, 0, NULL, TU_VALS(NAN), 0, 0, "ce all ignored"));
    CHECK(tu_close(allig_s, 0, NULL, TU_VALS(0), 0, 0, "ce all ignored sum"));
    /* Label smoothing: (1 - ls) nll + ls * mean over classes of -logp. */
    double ls = 0.2, s0 = 0, s1 = 0;
    for (int k = 0; k < 3; k++) {
        s0 += lse(xv, 3) - xv[k];
        s1 += lse(xv + 3, 3) - xv[3 + k];
    }
    nn_tensor *sm = nn_cross_entropy(ctx, x, t, -100, ls, NN_REDUCTION_NONE);
    CHECK(tu_close(sm, 1, TU_SHAPE(2),
                   TU_VALS((1 - ls) * l0 + ls * s0 / 3, (1 - ls) * l1 + ls * s1 / 3), 1e-12, 0,
                   "ce label smoothing"));
    /* A [C] input with a 0-dim target. */
    nn_tensor *x1 = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), xv);
    nn_tensor *t1 = ids(ctx, 0, NULL, TU_VALS(1));
    nn_tensor *c1 = nn_cross_entropy(ctx, x1, t1, -100, 0, NN_REDUCTION_NONE);
    CHECK(tu_close(c1, 0, NULL, TU_VALS(lse(xv, 3) - 2), 1e-12, 0, "ce [C]"));
    nn_tensor *ts[] = {x, t, mean, sum, none, t2, ig, t3, allig, allig_s, sm, x1, t1, c1};
    release_all(ts, 14);
    nn_ctx_free(ctx);
}

NN_TEST(nn_cross_entropy_masked_logit) {
    /* A -inf logit (a masked class) without smoothing stays finite. */
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(1, 3), TU_VALS(0, -INFINITY, 0));
    nn_tensor *t = ids(ctx, 1, TU_SHAPE(1), TU_VALS(0));
    nn_tensor *l = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_MEAN);
    CHECK(tu_close(l, 0, NULL, TU_VALS(log(2)), 1e-6, 0, "ce masked logit"));
    nn_tensor *ts[] = {x, t, l};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

NN_TEST(nn_cross_entropy_probs) {
    /* Class-probability targets: -sum t logp, mean over rows. */
    nn_ctx *ctx = nn_ctx_new(0);
    double xv[6] = {1, 2, 3, 0.5, -1, 2}, tv[6] = {0.2, 0.3, 0.5, 1, 0, 0};
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3), xv);
    nn_tensor *t = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3), tv);
    double e = 0;
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 3; k++) e -= tv[r * 3 + k] * (xv[r * 3 + k] - lse(xv + r * 3, 3));
    nn_tensor *l = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_MEAN);
    CHECK(tu_close(l, 0, NULL, TU_VALS(e / 2), 1e-12, 0, "ce probs"));
    nn_tensor *ts[] = {x, t, l};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

NN_TEST(nn_cross_entropy_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 5));
    nn_tensor *bad = ids(ctx, 1, TU_SHAPE(2), TU_VALS(1, 7));
    nn_tensor *neg = ids(ctx, 1, TU_SHAPE(2), TU_VALS(-3, 0));
    nn_tensor *short_t = ids(ctx, 1, TU_SHAPE(3), TU_VALS(0, 0, 0));
    nn_tensor *bt = nn_zeros(ctx, NN_BOOL, 1, TU_SHAPE(2));
    nn_tensor *pt = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 4));
    nn_tensor *xi = nn_zeros(ctx, NN_INT64, 2, TU_SHAPE(2, 5));
    nn_tensor *x0 = nn_scalar(ctx, 1, NN_FLOAT32);
    nn_tensor *ok = ids(ctx, 1, TU_SHAPE(2), TU_VALS(0, 1));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, bad, -100, 0, NN_REDUCTION_MEAN), NN_ERR_INDEX,
                      "target 7"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, bad, -100, 0, NN_REDUCTION_MEAN), NN_ERR_INDEX,
                      "5 classes"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, neg, -100, 0, NN_REDUCTION_SUM), NN_ERR_INDEX,
                      "target -3"));
    /* a target batch other than the input's: PyTorch's ValueError, first */
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, short_t, -100, 0, NN_REDUCTION_MEAN),
                      NN_ERR_VALUE,
                      "Expected input batch_size (2) to match target batch_size (3)."));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, bt, -100, 0, NN_REDUCTION_MEAN), NN_ERR_TYPE,
                      "bool"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, pt, -100, 0, NN_REDUCTION_MEAN), NN_ERR_SHAPE,
                      "[2, 4]"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, xi, ok, -100, 0, NN_REDUCTION_MEAN), NN_ERR_TYPE,
                      "int64"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x0, ok, -100, 0, NN_REDUCTION_MEAN), NN_ERR_SHAPE,
                      "0-dim"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, ok, -100, 1.5, NN_REDUCTION_MEAN), NN_ERR_VALUE,
                      "label_smoothing"));
    CHECK(failed_with(ctx, nn_cross_entropy(ctx, x, ok, -100, 0, (nn_reduction)7), NN_ERR_VALUE,
                      "reduction"));
    /* nll_loss: the same checks, and no probability targets. */
    CHECK(failed_with(ctx, nn_nll_loss(ctx, x, bad, -100, NN_REDUCTION_MEAN), NN_ERR_INDEX,
                      "target 7"));
    CHECK(failed_with(ctx, nn_nll_loss(ctx, x, short_t, -100, NN_REDUCTION_MEAN), NN_ERR_VALUE,
                      "target batch_size (3)"));
    CHECK(failed_with(ctx, nn_nll_loss(ctx, x, pt, -100, NN_REDUCTION_MEAN), NN_ERR_TYPE, "int64"));
    nn_tensor *ts[] = {x, bad, neg, short_t, bt, pt, xi, x0, ok};
    release_all(ts, 9);
    nn_ctx_free(ctx);
}

NN_TEST(nn_nll_loss_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = leaf64(ctx, 2, TU_SHAPE(3, 2), TU_VALS(-1, -2, -3, -4, -5, -6));
    nn_tensor *t = ids(ctx, 1, TU_SHAPE(3), TU_VALS(1, 0, 9));
    nn_tensor *l = nn_nll_loss(ctx, x, t, 9, NN_REDUCTION_MEAN);
    CHECK(tu_close(l, 0, NULL, TU_VALS(2.5), 1e-12, 0, "nll mean"));
    CHECK(nn_backward(ctx, l, NULL, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 2, TU_SHAPE(3, 2), TU_VALS(0, -0.5, -0.5, 0, 0, 0), 1e-12, 0,
                   "nll grad"));
    nn_tensor *n = nn_nll_loss(ctx, x, t, 9, NN_REDUCTION_NONE);
    CHECK(tu_close(n, 1, TU_SHAPE(3), TU_VALS(2, 3, 0), 1e-12, 0, "nll none"));
    nn_tensor *ts[] = {x, t, l, n};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

typedef struct ce_arg {
    int64_t ignore;
    double ls;
    nn_reduction red;
} ce_arg;

static nn_tensor *gc_ce(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const ce_arg *a = arg;
    return nn_cross_entropy(ctx, in[0], in[1], a->ignore, a->ls, a->red);
}
static nn_tensor *gc_nll(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const ce_arg *a = arg;
    return nn_nll_loss(ctx, in[0], in[1], a->ignore, a->red);
}

NN_TEST(nn_cross_entropy_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(2);
    nn_tensor *x2 = randn_leaf(ctx, 2, TU_SHAPE(4, 5));
    nn_tensor *t2 = ids(ctx, 1, TU_SHAPE(4), TU_VALS(0, 4, -100, 2));
    nn_tensor *x3 = randn_leaf(ctx, 3, TU_SHAPE(2, 3, 4));
    nn_tensor *t3 = ids(ctx, 2, TU_SHAPE(2, 4), TU_VALS(0, 1, 2, 1, 2, 1, 0, -100));
    nn_reduction reds[3] = {NN_REDUCTION_MEAN, NN_REDUCTION_SUM, NN_REDUCTION_NONE};
    for (int r = 0; r < 3; r++) {
        for (int s = 0; s < 2; s++) {
            ce_arg a = {-100, s ? 0.15 : 0, reds[r]};
            nn_tensor *in2[2] = {x2, t2}, *in3[2] = {x3, t3};
            CHECK(
                tu_gradcheck(ctx, "cross_entropy 2d", gc_ce, in2, 2, &a, GC_EPS, GC_RTOL, GC_ATOL));
            CHECK(
                tu_gradcheck(ctx, "cross_entropy 3d", gc_ce, in3, 2, &a, GC_EPS, GC_RTOL, GC_ATOL));
            if (!s) {
                CHECK(tu_gradcheck(ctx, "nll 2d", gc_nll, in2, 2, &a, GC_EPS, GC_RTOL, GC_ATOL));
                CHECK(tu_gradcheck(ctx, "nll 3d", gc_nll, in3, 2, &a, GC_EPS, GC_RTOL, GC_ATOL));
            }
        }
    }
    /* Probability targets: gradients for the logits and the target. */
    nn_tensor *tp = nn_rand(ctx, NN_FLOAT64, 3, TU_SHAPE(2, 3, 4));
    nn_tensor_requires_grad_(ctx, tp, true);
    for (int r = 0; r < 3; r++) {
        ce_arg a = {-100, 0.1, reds[r]};
        nn_tensor *in[2] = {x3, tp};
        CHECK(tu_gradcheck(ctx, "cross_entropy probs", gc_ce, in, 2, &a, GC_EPS, GC_RTOL, GC_ATOL));
    }
    nn_tensor *ts[] = {x2, t2, x3, t3, tp};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

/* ---- mse_loss, binary_cross_entropy (+ with logits) ---- */

NN_TEST(nn_pointwise_loss_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), TU_VALS(0.25, 0.5, 1));
    nn_tensor *t = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), TU_VALS(0, 1, 0));
    nn_tensor *mse = nn_mse_loss(ctx, x, t, NN_REDUCTION_MEAN);
    CHECK(tu_close(mse, 0, NULL, TU_VALS((0.0625 + 0.25 + 1) / 3), 1e-12, 0, "mse"));
    /* BCE clamps each log at -100: x = 1 with t = 0 costs 100, not inf. */
    nn_tensor *bce = nn_binary_cross_entropy(ctx, x, t, NN_REDUCTION_NONE);
    CHECK(tu_close(bce, 1, TU_SHAPE(3), TU_VALS(-log(0.75), -log(0.5), 100), 1e-12, 0, "bce"));
    nn_tensor *z = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), TU_VALS(0, 800, -800));
    nn_tensor *bcel = nn_binary_cross_entropy_with_logits(ctx, z, t, NN_REDUCTION_SUM);
    /* log 2 + 0 (800 with target 1) + 0 (-800 with target 0), without overflow. */
    CHECK(tu_close(bcel, 0, NULL, TU_VALS(log(2)), 1e-12, 0, "bce with logits, large"));
    /* mse broadcasts the target. */
    nn_tensor *xb = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALS(1, 2, 3, 4));
    nn_tensor *tb = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(2), TU_VALS(1, 1));
    nn_tensor *mb = nn_mse_loss(ctx, xb, tb, NN_REDUCTION_SUM);
    CHECK(mb && mb->dtype == NN_FLOAT32);
    CHECK(tu_close(mb, 0, NULL, TU_VALS(0 + 1 + 4 + 9), 1e-6, 0, "mse broadcast"));
    nn_tensor *ts[] = {x, t, mse, bce, z, bcel, xb, tb, mb};
    release_all(ts, 9);
    nn_ctx_free(ctx);
}

NN_TEST(nn_pointwise_loss_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(0.5, 1.5, 0.2));
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor *t4 = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4));
    nn_tensor *xn = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(0.5, NAN, 0.2));
    nn_tensor *xi = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(3));
    /* PyTorch's RuntimeError and words, then the element */
    CHECK(failed_with(ctx, nn_binary_cross_entropy(ctx, x, t, NN_REDUCTION_MEAN), NN_ERR_RUNTIME,
                      "all elements of input should be between 0 and 1 (element 1 is 1.5"));
    CHECK(failed_with(ctx, nn_binary_cross_entropy(ctx, xn, t, NN_REDUCTION_MEAN), NN_ERR_RUNTIME,
                      "element 1 is nan"));
    CHECK(failed_with(ctx, nn_binary_cross_entropy(ctx, x, t4, NN_REDUCTION_MEAN), NN_ERR_SHAPE,
                      "[4]"));
    CHECK(failed_with(ctx, nn_binary_cross_entropy_with_logits(ctx, x, t4, NN_REDUCTION_MEAN),
                      NN_ERR_SHAPE, "input [3], target [4]"));
    CHECK(failed_with(ctx, nn_mse_loss(ctx, x, t4, NN_REDUCTION_MEAN), NN_ERR_SHAPE,
                      "tensor a (3) must match the size of tensor b (4)"));
    CHECK(failed_with(ctx, nn_mse_loss(ctx, xi, t, NN_REDUCTION_MEAN), NN_ERR_TYPE, "int64"));
    CHECK(failed_with(ctx, nn_mse_loss(ctx, x, t, (nn_reduction)-1), NN_ERR_VALUE, "reduction"));
    nn_tensor *ts[] = {x, t, t4, xn, xi};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

typedef struct pw_arg {
    int kind;
    nn_reduction red;
} pw_arg;

static nn_tensor *gc_pw(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const pw_arg *a = arg;
    if (a->kind == 0) return nn_mse_loss(ctx, in[0], in[1], a->red);
    if (a->kind == 1) return nn_binary_cross_entropy(ctx, in[0], in[1], a->red);
    return nn_binary_cross_entropy_with_logits(ctx, in[0], in[1], a->red);
}

NN_TEST(nn_pointwise_loss_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *x = randn_leaf(ctx, 2, TU_SHAPE(3, 4));
    nn_tensor *tb = randn_leaf(ctx, 1, TU_SHAPE(4)); /* broadcast target for mse */
    /* Probabilities away from 0 and 1, where the finite differences are clean. */
    nn_tensor *p = nn_rand(ctx, NN_FLOAT64, 2, TU_SHAPE(3, 4));
    nn_tensor_clamp_(ctx, p, 0.1, 0.9);
    nn_tensor_requires_grad_(ctx, p, true);
    nn_tensor *tp = nn_rand(ctx, NN_FLOAT64, 2, TU_SHAPE(3, 4));
    nn_tensor_requires_grad_(ctx, tp, true);
    nn_reduction reds[3] = {NN_REDUCTION_MEAN, NN_REDUCTION_SUM, NN_REDUCTION_NONE};
    for (int r = 0; r < 3; r++) {
        pw_arg mse = {0, reds[r]}, bce = {1, reds[r]}, bcel = {2, reds[r]};
        nn_tensor *in_mse[2] = {x, tb}, *in_bce[2] = {p, tp}, *in_bcel[2] = {x, tp};
        CHECK(tu_gradcheck(ctx, "mse", gc_pw, in_mse, 2, &mse, GC_EPS, GC_RTOL, GC_ATOL));
        CHECK(tu_gradcheck(ctx, "bce", gc_pw, in_bce, 2, &bce, GC_EPS, GC_RTOL, GC_ATOL));
        CHECK(tu_gradcheck(ctx, "bce_with_logits", gc_pw, in_bcel, 2, &bcel, GC_EPS, GC_RTOL,
                           GC_ATOL));
    }
    nn_tensor *ts[] = {x, tb, p, tp};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

/* ---- embedding ---- */

NN_TEST(nn_embedding_values_and_repeats) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *w = leaf64(ctx, 2, TU_SHAPE(3, 2), TU_VALS(1, 2, 3, 4, 5, 6));
    nn_tensor *idx = ids(ctx, 2, TU_SHAPE(2, 2), TU_VALS(2, 0, 2, 2));
    nn_tensor *e = nn_embedding(ctx, w, idx);
    CHECK(tu_close(e, 3, TU_SHAPE(2, 2, 2), TU_VALS(5, 6, 1, 2, 5, 6, 5, 6), 0, 0, "embedding"));
    nn_tensor *up =
        tu_tensor(ctx, NN_FLOAT64, 3, TU_SHAPE(2, 2, 2), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8));
    CHECK(nn_backward(ctx, e, up, false) == NN_OK);
    /* Row 2 was used three times: its gradient accumulates. */
    CHECK(tu_close(nn_tensor_grad(w), 2, TU_SHAPE(3, 2), TU_VALS(3, 4, 0, 0, 13, 16), 0, 0,
                   "embedding grad"));
    nn_tensor *ts[] = {w, idx, e, up};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(nn_embedding_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *w = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(5, 3));
    nn_tensor *w1 = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(5));
    nn_tensor *big = ids(ctx, 1, TU_SHAPE(2), TU_VALS(1, 5));
    nn_tensor *neg = ids(ctx, 1, TU_SHAPE(2), TU_VALS(-1, 0));
    nn_tensor *fl = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    CHECK(failed_with(ctx, nn_embedding(ctx, w, big), NN_ERR_INDEX, "index 5"));
    CHECK(failed_with(ctx, nn_embedding(ctx, w, big), NN_ERR_INDEX, "[5, 3]"));
    CHECK(failed_with(ctx, nn_embedding(ctx, w, neg), NN_ERR_INDEX, "index -1"));
    CHECK(failed_with(ctx, nn_embedding(ctx, w, fl), NN_ERR_TYPE, "float32"));
    CHECK(failed_with(ctx, nn_embedding(ctx, w1, neg), NN_ERR_SHAPE, "[5]"));
    nn_tensor *ts[] = {w, w1, big, neg, fl};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

static nn_tensor *gc_embedding(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_embedding(ctx, in[0], in[1]);
}

NN_TEST(nn_embedding_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(4);
    nn_tensor *w = randn_leaf(ctx, 2, TU_SHAPE(4, 3));
    nn_tensor *idx = ids(ctx, 2, TU_SHAPE(2, 3), TU_VALS(3, 1, 3, 0, 3, 1));
    nn_tensor *in[2] = {w, idx};
    CHECK(tu_gradcheck(ctx, "embedding", gc_embedding, in, 2, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    nn_tensor_release(w);
    nn_tensor_release(idx);
    nn_ctx_free(ctx);
}

/* ---- layer_norm ---- */

NN_TEST(nn_layer_norm_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 4), TU_VALS(1, 2, 3, 4, 2, 2, 2, 2));
    nn_tensor *w = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(4), TU_VALS(1, 2, 1, 1));
    nn_tensor *b = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(4), TU_VALS(0, 0, 0, 10));
    /* Row 0: mean 2.5, biased variance 1.25. Row 1: constant, so 0 (eps keeps it finite). */
    double r = 1 / sqrt(1.25 + 1e-5);
    nn_tensor *y = nn_layer_norm(ctx, x, 1, NULL, NULL, 1e-5);
    CHECK(tu_close(y, 2, TU_SHAPE(2, 4), TU_VALS(-1.5 * r, -0.5 * r, 0.5 * r, 1.5 * r, 0, 0, 0, 0),
                   1e-12, 1e-15, "layer_norm"));
    nn_tensor *ya = nn_layer_norm(ctx, x, 1, w, b, 1e-5);
    CHECK(tu_close(ya, 2, TU_SHAPE(2, 4),
                   TU_VALS(-1.5 * r, -1.0 * r, 0.5 * r, 1.5 * r + 10, 0, 0, 0, 10), 1e-12, 1e-15,
                   "layer_norm affine"));
    /* Over both dims: one group of 8. */
    nn_tensor *y2 = nn_layer_norm(ctx, x, 2, NULL, NULL, 0);
    double m = 18 / 8.0, v = 0;
    const double xs[8] = {1, 2, 3, 4, 2, 2, 2, 2};
    for (int i = 0; i < 8; i++) v += (xs[i] - m) * (xs[i] - m) / 8;
    double e2[8];
    for (int i = 0; i < 8; i++) e2[i] = (xs[i] - m) / sqrt(v);
    CHECK(tu_close(y2, 2, TU_SHAPE(2, 4), e2, 1e-12, 1e-15, "layer_norm 2 dims"));
    nn_tensor *ts[] = {x, w, b, y, ya, y2};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

NN_TEST(nn_layer_norm_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 4));
    nn_tensor *w3 = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor *xi = nn_zeros(ctx, NN_INT64, 2, TU_SHAPE(2, 4));
    CHECK(failed_with(ctx, nn_layer_norm(ctx, x, 3, NULL, NULL, 1e-5), NN_ERR_VALUE, "last 3"));
    CHECK(failed_with(ctx, nn_layer_norm(ctx, x, 0, NULL, NULL, 1e-5), NN_ERR_VALUE, "[2, 4]"));
    CHECK(failed_with(ctx, nn_layer_norm(ctx, x, 1, w3, NULL, 1e-5), NN_ERR_SHAPE,
                      "weight has shape [3]"));
    CHECK(failed_with(ctx, nn_layer_norm(ctx, x, 1, NULL, w3, 1e-5), NN_ERR_SHAPE,
                      "bias has shape [3]"));
    CHECK(failed_with(ctx, nn_layer_norm(ctx, xi, 1, NULL, NULL, 1e-5), NN_ERR_TYPE, "int64"));
    /* any eps is accepted, as PyTorch's layer_norm does (OpInfo samples a negative one) */
    nn_tensor *neg = nn_layer_norm(ctx, x, 1, NULL, NULL, -0.5);
    CHECK(neg != NULL);
    if (neg) nn_tensor_release(neg);
    nn_tensor *ts[] = {x, w3, xi};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

typedef struct ln_arg {
    int n_norm;
    bool weight, bias;
} ln_arg;

static nn_tensor *gc_layer_norm(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const ln_arg *a = arg;
    return nn_layer_norm(ctx, in[0], a->n_norm, a->weight ? in[1] : NULL, a->bias ? in[2] : NULL,
                         1e-5);
}

NN_TEST(nn_layer_norm_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(5);
    nn_tensor *x = randn_leaf(ctx, 3, TU_SHAPE(2, 3, 4));
    nn_tensor *w1 = randn_leaf(ctx, 1, TU_SHAPE(4)), *b1 = randn_leaf(ctx, 1, TU_SHAPE(4));
    nn_tensor *w2 = randn_leaf(ctx, 2, TU_SHAPE(3, 4)), *b2 = randn_leaf(ctx, 2, TU_SHAPE(3, 4));
    const ln_arg cases[] = {{1, false, false}, {1, true, true}, {1, true, false},
                            {1, false, true},  {2, true, true}, {3, false, false}};
    for (int i = 0; i < 6; i++) {
        nn_tensor *in[3] = {x, cases[i].n_norm == 2 ? w2 : w1, cases[i].n_norm == 2 ? b2 : b1};
        CHECK_MSG(tu_gradcheck(ctx, "layer_norm", gc_layer_norm, in, 3, (void *)&cases[i], GC_EPS,
                               GC_RTOL, GC_ATOL),
                  "case %d", i);
    }
    nn_tensor *ts[] = {x, w1, b1, w2, b2};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

NN_TEST(nn_layer_norm_saves_stats) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = leaf64(ctx, 2, TU_SHAPE(2, 2), TU_VALS(1, 3, 5, 5));
    nn_tensor *y = nn_layer_norm(ctx, x, 1, NULL, NULL, 0.5);
    CHECK(y && y->grad_fn && y->grad_fn->saved[0] && y->grad_fn->saved[1]);
    if (y && y->grad_fn) {
        CHECK(tu_close(y->grad_fn->saved[0], 2, TU_SHAPE(2, 1), TU_VALS(2, 5), 0, 0, "mean"));
        CHECK(tu_close(y->grad_fn->saved[1], 2, TU_SHAPE(2, 1),
                       TU_VALS(1 / sqrt(1.5), 1 / sqrt(0.5)), 1e-12, 0, "rstd"));
    }
    nn_tensor_release(x);
    nn_tensor_release(y);
    nn_ctx_free(ctx);
}

/* ---- dropout ---- */

NN_TEST(nn_dropout_statistics_and_mask) {
    nn_ctx *ctx = nn_ctx_new(42);
    int64_t n = 20000;
    double p = 0.3;
    nn_tensor *x = nn_ones(ctx, NN_FLOAT32, 1, &n);
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *y = nn_dropout(ctx, x, p, true);
    int64_t zeros = 0, bad = 0;
    double sum = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(y, i);
        sum += v;
        if (v == 0)
            zeros++;
        else if (fabs(v - 1 / (1 - p)) > 1e-6)
            bad++;
    }
    CHECK(bad == 0);
    CHECK_MSG(fabs((double)zeros / (double)n - p) < 0.015, "dropped fraction %g",
              (double)zeros / (double)n);
    CHECK_MSG(fabs(sum / (double)n - 1) < 0.03, "mean %g, expected about 1", sum / (double)n);
    /* With x all ones the output is the mask; the backward must use the same one. */
    nn_tensor *up = nn_ones(ctx, NN_FLOAT32, 1, &n);
    CHECK(nn_backward(ctx, y, up, false) == NN_OK);
    CHECK(tu_close_tensor(nn_tensor_grad(x), y, 0, 0, "dropout grad is the mask"));
    /* The same seed gives the same mask. */
    nn_ctx_seed(ctx, 42);
    nn_tensor *y2 = nn_dropout(ctx, x, p, true);
    CHECK(tu_close_tensor(y2, y, 0, 0, "same seed, same mask"));
    nn_tensor *ts[] = {x, y, up, y2};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(nn_dropout_edges_and_errors) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *x = leaf64(ctx, 1, TU_SHAPE(4), TU_VALS(1, -2, 3, 4));
    nn_tensor *all = nn_dropout(ctx, x, 1, true);
    CHECK(tu_close(all, 1, TU_SHAPE(4), TU_VALS(0, 0, 0, 0), 0, 0, "p = 1"));
    nn_tensor *ev = nn_dropout(ctx, x, 0.5, false), *p0 = nn_dropout(ctx, x, 0, true);
    CHECK(tu_close(ev, 1, TU_SHAPE(4), TU_VALS(1, -2, 3, 4), 0, 0, "eval"));
    CHECK(tu_close(p0, 1, TU_SHAPE(4), TU_VALS(1, -2, 3, 4), 0, 0, "p = 0"));
    /* Eval mode is still differentiable (gradient passes through). */
    CHECK(ev && ev->requires_grad);
    nn_tensor *up = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(4), TU_VALS(1, 2, 3, 4));
    CHECK(nn_backward(ctx, ev, up, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 1, TU_SHAPE(4), TU_VALS(1, 2, 3, 4), 0, 0, "eval grad"));
    CHECK(failed_with(ctx, nn_dropout(ctx, x, 1.5, true), NN_ERR_VALUE, "1.5"));
    CHECK(failed_with(ctx, nn_dropout(ctx, x, -0.1, false), NN_ERR_VALUE, "[0, 1]"));
    CHECK(failed_with(ctx, nn_dropout(ctx, x, NAN, true), NN_ERR_VALUE, "nan"));
    nn_tensor *ts[] = {x, all, ev, p0, up};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

/* Reseeds before each call, so the perturbed forwards reuse the mask the
 * analytic backward saw. */
static nn_tensor *gc_dropout(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_ctx_seed(ctx, 1234);
    return nn_dropout(ctx, in[0], 0.4, true);
}

NN_TEST(nn_dropout_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(6);
    nn_tensor *x = randn_leaf(ctx, 2, TU_SHAPE(5, 6));
    CHECK(tu_gradcheck(ctx, "dropout", gc_dropout, &x, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

/* ---- scaled dot-product attention ---- */

NN_TEST(nn_sdpa_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    /* Two queries, two keys; D = 1, scale 1. */
    nn_tensor *q = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 1), TU_VALS(1, 2));
    nn_tensor *k = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 1), TU_VALS(0, 1));
    nn_tensor *v = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 2), TU_VALS(1, 0, 0, 1));
    nn_tensor *o = nn_scaled_dot_product_attention(ctx, q, k, v, false, 1.0);
    double a0 = 1 / (1 + exp(1.0)), a1 = 1 / (1 + exp(2.0)); /* weight of key 0 */
    CHECK(tu_close(o, 2, TU_SHAPE(2, 2), TU_VALS(a0, 1 - a0, a1, 1 - a1), 1e-12, 0, "sdpa"));
    /* Causal: query 0 sees key 0 only. */
    nn_tensor *oc = nn_scaled_dot_product_attention(ctx, q, k, v, true, 1.0);
    CHECK(tu_close(oc, 2, TU_SHAPE(2, 2), TU_VALS(1, 0, a1, 1 - a1), 1e-12, 0, "sdpa causal"));
    /* Default scale is 1/sqrt(D): with D = 4 it halves the scores. */
    nn_tensor *q4 = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(1, 4), TU_VALS(1, 1, 1, 1));
    nn_tensor *k4 = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 4), TU_VALS(0, 0, 0, 0, 1, 1, 1, 1));
    nn_tensor *od = nn_scaled_dot_product_attention(ctx, q4, k4, v, false, 0);
    double w0 = 1 / (1 + exp(2.0));
    CHECK(tu_close(od, 2, TU_SHAPE(1, 2), TU_VALS(w0, 1 - w0), 1e-12, 0, "sdpa default scale"));
    nn_tensor *ts[] = {q, k, v, o, oc, q4, k4, od};
    release_all(ts, 8);
    nn_ctx_free(ctx);
}

NN_TEST(nn_sdpa_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *q = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(2, 3, 4));
    nn_tensor *kd = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(2, 5, 3));
    nn_tensor *k = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(2, 5, 4));
    nn_tensor *vt = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(2, 6, 4));
    nn_tensor *kb = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(3, 5, 4));
    nn_tensor *q1 = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4));
    nn_tensor *qi = nn_zeros(ctx, NN_INT64, 3, TU_SHAPE(2, 3, 4));
    CHECK(failed_with(ctx, nn_scaled_dot_product_attention(ctx, q, kd, k, false, 0), NN_ERR_SHAPE,
                      "k [2, 5, 3]"));
    CHECK(failed_with(ctx, nn_scaled_dot_product_attention(ctx, q, k, vt, false, 0), NN_ERR_SHAPE,
                      "v [2, 6, 4]"));
    CHECK(failed_with(ctx, nn_scaled_dot_product_attention(ctx, q, kb, kb, true, 0), NN_ERR_SHAPE,
                      "batch"));
    CHECK(failed_with(ctx, nn_scaled_dot_product_attention(ctx, q1, q1, q1, true, 0), NN_ERR_SHAPE,
                      "[4]"));
    CHECK(failed_with(ctx, nn_scaled_dot_product_attention(ctx, qi, k, k, true, 0), NN_ERR_TYPE,
                      "int64"));
    nn_tensor *ts[] = {q, kd, k, vt, kb, q1, qi};
    release_all(ts, 7);
    nn_ctx_free(ctx);
}

typedef struct sdpa_arg {
    bool causal;
    double scale;
} sdpa_arg;

static nn_tensor *gc_sdpa(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const sdpa_arg *a = arg;
    return nn_scaled_dot_product_attention(ctx, in[0], in[1], in[2], a->causal, a->scale);
}

NN_TEST(nn_sdpa_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(7);
    /* Batch [2, 2], Tq = 3, Tk = 4 (causal with Tq != Tk), D = 3, Dv = 2. */
    nn_tensor *q = randn_leaf(ctx, 4, TU_SHAPE(2, 2, 3, 3));
    nn_tensor *k = randn_leaf(ctx, 4, TU_SHAPE(2, 2, 4, 3));
    nn_tensor *v = randn_leaf(ctx, 4, TU_SHAPE(2, 2, 4, 2));
    nn_tensor *in[3] = {q, k, v};
    const sdpa_arg cases[] = {{false, 0}, {true, 0}, {true, 0.7}};
    for (int i = 0; i < 3; i++)
        CHECK_MSG(
            tu_gradcheck(ctx, "sdpa", gc_sdpa, in, 3, (void *)&cases[i], GC_EPS, GC_RTOL, GC_ATOL),
            "case %d", i);
    /* Tq > Tk under the causal mask: the later rows see every key. */
    nn_tensor *q2 = randn_leaf(ctx, 2, TU_SHAPE(5, 2)), *k2 = randn_leaf(ctx, 2, TU_SHAPE(3, 2));
    nn_tensor *v2 = randn_leaf(ctx, 2, TU_SHAPE(3, 4));
    nn_tensor *in2[3] = {q2, k2, v2};
    CHECK(tu_gradcheck(ctx, "sdpa tq > tk", gc_sdpa, in2, 3, (void *)&cases[1], GC_EPS, GC_RTOL,
                       GC_ATOL));
    nn_tensor *ts[] = {q, k, v, q2, k2, v2};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

/* ---- packed multi-head self-attention (ops_attn.c) ---- */

typedef struct mha_arg {
    bool seq_first, mask, drop;
} mha_arg;

/* in: qkv, then the mask and the dropout multipliers when the case has them */
static nn_tensor *gc_mha(nn_ctx *ctx, nn_tensor **in, void *arg) {
    const mha_arg *a = arg;
    int k = 1;
    nn_tensor *mask = a->mask ? in[k++] : NULL;
    nn_tensor *drop = a->drop ? in[k] : NULL;
    return nn_mha_self_attention(ctx, in[0], 2, a->seq_first, mask, drop);
}

NN_TEST(nn_mha_self_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(8);
    /* L = N = 3 (so both layouts fit one mask), E = 4 (2 heads of 2); the
     * mask is broadcast over the blocks, every third multiplier drops. */
    nn_tensor *qkv = randn_leaf(ctx, 3, TU_SHAPE(3, 3, 12));
    nn_tensor *mask = randn_leaf(ctx, 3, TU_SHAPE(1, 3, 3));
    nn_tensor *drop = nn_zeros(ctx, NN_FLOAT64, 3, TU_SHAPE(6, 3, 3));
    for (int i = 0; i < 54; i++) ((double *)nn_tensor_data(drop))[i] = i % 3 ? 1.5 : 0;
    const mha_arg cases[] = {{true, false, false}, {false, true, false}, {true, true, true}};
    for (int i = 0; i < 3; i++) {
        nn_tensor *in[3] = {qkv, cases[i].mask ? mask : drop, drop};
        int n = 1 + cases[i].mask + cases[i].drop;
        CHECK_MSG(tu_gradcheck(ctx, "mha_self", gc_mha, in, n, (void *)&cases[i], GC_EPS, GC_RTOL,
                               GC_ATOL),
                  "case %d", i);
    }
    /* Bad shapes are errors that name them. */
    nn_tensor *bad = nn_zeros(ctx, NN_FLOAT64, 3, TU_SHAPE(3, 3, 10));
    CHECK(failed_with(ctx, nn_mha_self_attention(ctx, bad, 2, true, NULL, NULL), NN_ERR_SHAPE,
                      "[3, 3, 10]"));
    nn_tensor *m2 = nn_zeros(ctx, NN_FLOAT64, 3, TU_SHAPE(2, 3, 3));
    CHECK(
        failed_with(ctx, nn_mha_self_attention(ctx, qkv, 2, true, m2, NULL), NN_ERR_SHAPE, "mask"));
    nn_tensor *ts[] = {qkv, mask, drop, bad, m2};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

/* ---- graph and no-grad behaviour shared by the ops ---- */

NN_TEST(nn_ops_record_one_node) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = randn_leaf(ctx, 2, TU_SHAPE(3, 4));
    nn_tensor *t = ids(ctx, 1, TU_SHAPE(3), TU_VALS(0, 1, 2));
    nn_tensor *l = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_MEAN);
    CHECK(l && l->grad_fn && l->grad_fn->op == NN_OP_CROSS_ENTROPY);
    CHECK(l && l->grad_fn && l->grad_fn->in[0].fn == NULL); /* straight from the leaf */
    CHECK(l && l->grad_fn && l->grad_fn->saved[0] != NULL); /* the log-softmax */
    /* Without grad nothing is recorded and nothing saved. */
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *l2 = nn_cross_entropy(ctx, x, t, -100, 0, NN_REDUCTION_MEAN);
    nn_ctx_set_grad(ctx, prev);
    CHECK(l2 && !l2->grad_fn && !l2->requires_grad);
    nn_tensor *ts[] = {x, t, l, l2};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(nn_ops_noncontiguous_input) {
    /* A transposed view goes through the same kernels as its dense copy. */
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    nn_tensor *xt = nn_tensor_view_raw(ctx, x, 2, TU_SHAPE(3, 2), TU_SHAPE(1, 3), 0);
    nn_tensor *y = nn_softmax(ctx, xt, 1);
    double d = 1 / (1 + exp(3.0));
    CHECK(tu_close(y, 2, TU_SHAPE(3, 2), TU_VALS(d, 1 - d, d, 1 - d, d, 1 - d), 1e-12, 0,
                   "softmax of a transposed view"));
    nn_tensor *ln = nn_layer_norm(ctx, xt, 1, NULL, NULL, 0);
    CHECK(tu_close(ln, 2, TU_SHAPE(3, 2), TU_VALS(-1, 1, -1, 1, -1, 1), 1e-12, 0,
                   "layer_norm of a transposed view"));
    nn_tensor *ts[] = {x, xt, y, ln};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(nn_softmax_float32_exp_accuracy) {
    /* The float32 rows use a polynomial exp: check it against float64 over
     * the whole range a shifted score takes, down to where exp underflows. */
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t n = 2001;
    nn_tensor *x64 = nn_linspace(ctx, -87, 0, n, NN_FLOAT64);
    nn_tensor *x32 = nn_tensor_cast_raw(ctx, x64, NN_FLOAT32);
    nn_tensor *x64r = nn_tensor_cast_raw(ctx, x32, NN_FLOAT64); /* the same inputs */
    nn_tensor *y32 = nn_log_softmax(ctx, x32, 0), *y64 = nn_log_softmax(ctx, x64r, 0);
    nn_tensor *p32 = nn_softmax(ctx, x32, 0), *p64 = nn_softmax(ctx, x64r, 0);
    double worst = 0;
    for (int64_t i = 0; i < n; i++) {
        double a = nn_tensor_get_flat(p32, i), e = nn_tensor_get_flat(p64, i);
        if (e > 1e-37) worst = fmax(worst, fabs(a - e) / e);
    }
    CHECK_MSG(worst < 2e-6, "worst relative error of float32 softmax %g", worst);
    CHECK(tu_close_tensor(y32, y64, 1e-6, 1e-5, "float32 log_softmax"));
    nn_tensor *ts[] = {x64, x32, x64r, y32, y64, p32, p64};
    release_all(ts, 7);
    nn_ctx_free(ctx);
}
