/* Reductions: hand-checked values, empty and NaN edge cases, bad input, and
 * finite-difference gradient checks in float64 (several dims and keepdim,
 * non-contiguous inputs, ties). */
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)
#define V(...) TU_VALS(__VA_ARGS__)

static nn_tensor *t64(nn_ctx *ctx, int nd, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_FLOAT64, nd, shape, v);
}

/* A [rows, cols] float64 tensor whose storage is laid out transposed (cols
 * major): a non-contiguous input without going through any op. */
static nn_tensor *transposed_leaf(nn_ctx *ctx, int64_t rows, int64_t cols) {
    nn_tensor *base = nn_randn(ctx, NN_FLOAT64, 2, S(cols, rows));
    int64_t shape[2] = {rows, cols}, st[2] = {1, rows};
    nn_tensor *v = nn_tensor_view_raw(ctx, base, 2, shape, st, 0);
    nn_tensor_release(base);
    nn_tensor_requires_grad_(ctx, v, true);
    return v;
}

static nn_tensor *randn_leaf(nn_ctx *ctx, int nd, const int64_t *shape) {
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, nd, shape);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

NN_TEST(reduce_sum_mean_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(2, 3), V(1, 2, 3, 4, 5, 6));
    nn_tensor *s = nn_sum(ctx, x, NULL, 0, false);
    CHECK(tu_close(s, 0, NULL, V(21), 0, 0, "sum all"));
    nn_tensor *s0 = nn_sum(ctx, x, S(0), 1, false);
    CHECK(tu_close(s0, 1, S(3), V(5, 7, 9), 0, 0, "sum dim 0"));
    nn_tensor *s1 = nn_sum(ctx, x, S(-1), 1, true);
    CHECK(tu_close(s1, 2, S(2, 1), V(6, 15), 0, 0, "sum dim -1 keepdim"));
    nn_tensor *m = nn_mean(ctx, x, S(1), 1, false);
    CHECK(tu_close(m, 1, S(2), V(2, 5), 0, 0, "mean dim 1"));
    nn_tensor *m01 = nn_mean(ctx, x, S(0, 1), 2, true);
    CHECK(tu_close(m01, 2, S(1, 1), V(3.5), 0, 0, "mean dims 0,1 keepdim"));
    nn_tensor *ts[] = {x, s, s0, s1, m, m01};
    for (int i = 0; i < 6; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_sum_float32_is_accurate) {
    /* 1e6 copies of 0.1f: a naive float accumulator drifts by about 1%. */
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t n = 1000000;
    nn_tensor *x = nn_full(ctx, NN_FLOAT32, 1, &n, 0.1);
    nn_tensor *s = nn_sum(ctx, x, NULL, 0, false);
    double v = 0;
    CHECK(nn_tensor_item(ctx, s, &v) == NN_OK);
    CHECK_NEAR(v, 1e6 * (double)0.1f, 1e-7);
    CHECK(s->dtype == NN_FLOAT32);
    nn_tensor_release(x);
    nn_tensor_release(s);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_int_and_bool_sum_is_int64) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *i = tu_tensor(ctx, NN_INT64, 2, S(2, 2), V(1, 2, 3, 4));
    nn_tensor *b = tu_tensor(ctx, NN_BOOL, 1, S(3), V(1, 0, 1));
    nn_tensor *si = nn_sum(ctx, i, S(0), 1, false), *sb = nn_sum(ctx, b, NULL, 0, false);
    CHECK(si && si->dtype == NN_INT64 && tu_close(si, 1, S(2), V(4, 6), 0, 0, "int sum"));
    CHECK(sb && sb->dtype == NN_INT64 && tu_close(sb, 0, NULL, V(2), 0, 0, "bool sum"));
    nn_tensor *mi = nn_max_all(ctx, i), *mb = nn_max_all(ctx, b);
    CHECK(mi && mi->dtype == NN_INT64 && tu_close(mi, 0, NULL, V(4), 0, 0, "int max"));
    CHECK(mb && mb->dtype == NN_BOOL && tu_close(mb, 0, NULL, V(1), 0, 0, "bool max"));
    /* mean / var / norm need floats, with PyTorch's RuntimeError text. */
    CHECK(nn_mean(ctx, i, NULL, 0, false) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "Got: Long") != NULL);
    CHECK(nn_var(ctx, i, NULL, 0, 1, false) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    CHECK(nn_norm(ctx, i, 2, NULL, 0, false) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    /* logsumexp computes ints in float32, as PyTorch. */
    nn_tensor *l = nn_logsumexp(ctx, i, S(1), 1, false);
    CHECK(l && l->dtype == NN_FLOAT32 &&
          tu_close(l, 1, S(2), V(2.3132617, 4.3132617), 1e-6, 0, "int logsumexp"));
    nn_tensor *ts[] = {i, b, si, sb, mi, mb, l};
    for (int k = 0; k < 7; k++) nn_tensor_release(ts[k]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_max_min_with_indices) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(2, 3), V(1, 3, 3, 2, 2, 1));
    nn_tensor *idx = NULL;
    nn_tensor *mx = nn_max_dim(ctx, x, 1, false, &idx);
    CHECK(tu_close(mx, 1, S(2), V(3, 2), 0, 0, "max values"));
    /* The first extreme wins, as PyTorch. */
    CHECK(idx && idx->dtype == NN_INT64 && tu_close(idx, 1, S(2), V(1, 0), 0, 0, "max idx"));
    nn_tensor *idx2 = NULL;
    nn_tensor *mn = nn_min_dim(ctx, x, 0, true, &idx2);
    CHECK(tu_close(mn, 2, S(1, 3), V(1, 2, 1), 0, 0, "min values keepdim"));
    CHECK(tu_close(idx2, 2, S(1, 3), V(0, 1, 1), 0, 0, "min idx keepdim"));
    nn_tensor *mv = nn_max_dim(ctx, x, -2, false, NULL); /* indices not wanted */
    CHECK(tu_close(mv, 1, S(3), V(2, 3, 3), 0, 0, "max dim -2"));
    nn_tensor *am = nn_argmax(ctx, x, 1, false, false), *an = nn_argmin(ctx, x, 0, true, true);
    CHECK(tu_close(am, 1, S(2), V(1, 0), 0, 0, "argmax"));
    CHECK(tu_close(an, 2, S(1, 1), V(0), 0, 0, "argmin all keepdim"));
    nn_tensor *ma = nn_max_all(ctx, x), *mi = nn_min_all(ctx, x);
    CHECK(tu_close(ma, 0, NULL, V(3), 0, 0, "max all"));
    CHECK(tu_close(mi, 0, NULL, V(1), 0, 0, "min all"));
    CHECK(ctx->aux == NULL);
    nn_tensor *ts[] = {x, idx, mx, idx2, mn, mv, am, an, ma, mi};
    for (int i = 0; i < 10; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_nan_propagates_in_max) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 1, S(4), V(1, NAN, 3, NAN));
    nn_tensor *idx = NULL;
    nn_tensor *m = nn_max_dim(ctx, x, 0, false, &idx), *a = nn_max_all(ctx, x);
    CHECK(tu_close(m, 0, NULL, V(NAN), 0, 0, "nan max"));
    CHECK(tu_close(idx, 0, NULL, V(1), 0, 0, "first nan index"));
    CHECK(tu_close(a, 0, NULL, V(NAN), 0, 0, "nan max all"));
    nn_tensor *ts[] = {x, idx, m, a};
    for (int i = 0; i < 4; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_var_std_norm_logsumexp_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(2, 2), V(1, 3, -2, 2));
    nn_tensor *v1 = nn_var(ctx, x, S(1), 1, 1, false), *v0 = nn_var(ctx, x, NULL, 0, 0, false);
    CHECK(tu_close(v1, 1, S(2), V(2, 8), 1e-15, 0, "var bessel"));
    /* mean 1; deviations 0, 2, -3, 1 -> 14 / 4 */
    CHECK(tu_close(v0, 0, NULL, V(3.5), 1e-15, 0, "var population"));
    nn_tensor *sd = nn_std(ctx, x, S(0), 1, 1, true);
    CHECK(tu_close(sd, 2, S(1, 2), V(sqrt(4.5), sqrt(0.5)), 1e-15, 0, "std"));
    nn_tensor *n2 = nn_norm(ctx, x, 2, NULL, 0, false), *n1 = nn_norm(ctx, x, 1, S(1), 1, false);
    nn_tensor *ni = nn_norm(ctx, x, INFINITY, S(0), 1, false),
              *n3 = nn_norm(ctx, x, 3, NULL, 0, false);
    nn_tensor *n0 = nn_norm(ctx, x, 0, NULL, 0, false);
    CHECK(tu_close(n2, 0, NULL, V(sqrt(18)), 1e-15, 0, "norm 2"));
    CHECK(tu_close(n1, 1, S(2), V(4, 4), 0, 0, "norm 1"));
    CHECK(tu_close(ni, 1, S(2), V(2, 3), 0, 0, "norm inf"));
    CHECK(tu_close(n3, 0, NULL, V(cbrt(1 + 27 + 8 + 8)), 1e-14, 0, "norm 3"));
    CHECK(tu_close(n0, 0, NULL, V(4), 0, 0, "norm 0"));
    nn_tensor *l = nn_logsumexp(ctx, x, S(1), 1, false);
    CHECK(tu_close(l, 1, S(2), V(log(exp(1) + exp(3)), log(exp(-2) + exp(2))), 1e-15, 0, "lse"));
    nn_tensor *ts[] = {x, v1, v0, sd, n2, n1, ni, n3, n0, l};
    for (int i = 0; i < 10; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_logsumexp_large_and_infinite) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(3, 2), V(1000, 1000, -INFINITY, -INFINITY, INFINITY, 1));
    nn_tensor *l = nn_logsumexp(ctx, x, S(1), 1, false);
    CHECK(tu_close(l, 1, S(3), V(1000 + log(2), -INFINITY, INFINITY), 1e-15, 0, "lse edges"));
    nn_tensor_release(x);
    nn_tensor_release(l);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_empty) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *e = nn_zeros(ctx, NN_FLOAT32, 2, S(0, 3));
    nn_tensor *s = nn_sum(ctx, e, NULL, 0, false), *s0 = nn_sum(ctx, e, S(0), 1, false);
    CHECK(tu_close(s, 0, NULL, V(0), 0, 0, "empty sum"));
    CHECK(tu_close(s0, 1, S(3), V(0, 0, 0), 0, 0, "empty sum dim 0"));
    nn_tensor *m = nn_mean(ctx, e, NULL, 0, false);
    CHECK(tu_close(m, 0, NULL, V(NAN), 0, 0, "empty mean is nan"));
    nn_tensor *l = nn_logsumexp(ctx, e, S(0), 1, false);
    CHECK(tu_close(l, 1, S(3), V(-INFINITY, -INFINITY, -INFINITY), 0, 0, "empty lse"));
    nn_tensor *n = nn_norm(ctx, e, 2, NULL, 0, false);
    CHECK(tu_close(n, 0, NULL, V(0), 0, 0, "empty norm"));
    CHECK(nn_norm(ctx, e, INFINITY, NULL, 0, false) == NULL && ctx->err.code == NN_ERR_VALUE);
    /* Reducing the non-empty dim gives an empty result, not an error. */
    nn_tensor *idx = NULL;
    nn_tensor *mk = nn_max_dim(ctx, e, 1, false, &idx);
    CHECK(mk && mk->ndim == 1 && mk->shape[0] == 0 && idx && idx->shape[0] == 0);
    CHECK(nn_max_all(ctx, e) == NULL && ctx->err.code == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "[0, 3]") != NULL);
    CHECK(nn_max_dim(ctx, e, 0, false, NULL) == NULL && strstr(nn_ctx_error(ctx), "[0, 3]"));
    CHECK(nn_argmin(ctx, e, 0, true, false) == NULL && strstr(nn_ctx_error(ctx), "[0, 3]"));
    CHECK(ctx->aux == NULL);
    nn_tensor *ts[] = {e, s, s0, m, l, n, mk, idx};
    for (int i = 0; i < 8; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_bad_dims_are_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, S(2, 3));
    CHECK(nn_sum(ctx, x, S(2), 1, false) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_mean(ctx, x, S(-3), 1, false) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_sum(ctx, x, S(1, -1), 2, false) == NULL && ctx->err.code == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "twice") != NULL);
    CHECK(nn_max_dim(ctx, x, 5, false, NULL) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_argmax(ctx, x, -4, false, false) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_norm(ctx, x, NAN, NULL, 0, false) == NULL && ctx->err.code == NN_ERR_VALUE);
    CHECK(ctx->aux == NULL);
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_scalar_input) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_scalar(ctx, 2.5, NN_FLOAT64);
    nn_tensor *s = nn_sum(ctx, x, S(0), 1, false), *idx = NULL;
    nn_tensor *m = nn_max_dim(ctx, x, -1, true, &idx);
    CHECK(tu_close(s, 0, NULL, V(2.5), 0, 0, "sum of scalar"));
    CHECK(tu_close(m, 0, NULL, V(2.5), 0, 0, "max of scalar"));
    CHECK(tu_close(idx, 0, NULL, V(0), 0, 0, "index in scalar"));
    nn_tensor *ts[] = {x, s, m, idx};
    for (int i = 0; i < 4; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_sum_backward_is_a_view_of_dout) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = randn_leaf(ctx, 2, S(4, 5));
    nn_tensor *s = nn_sum(ctx, x, S(1), 1, false);
    nn_tensor *up = t64(ctx, 1, S(4), V(1, 2, 3, 4));
    CHECK(nn_backward(ctx, s, up, false) == NN_OK);
    double ex[20];
    for (int i = 0; i < 20; i++) ex[i] = 1 + i / 5;
    CHECK(tu_close(nn_tensor_grad(x), 2, S(4, 5), ex, 0, 0, "sum grad"));
    nn_tensor *ts[] = {x, s, up};
    for (int i = 0; i < 3; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_max_ties_split_the_gradient) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(1, 3), V(1, 3, 3));
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *m = nn_max_all(ctx, x);
    CHECK(nn_backward(ctx, m, NULL, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 2, S(1, 3), V(0, 0.5, 0.5), 0, 0, "max all ties"));
    nn_tensor_clear_grad(x);
    /* Along a dim the gradient goes to the one index returned. */
    nn_tensor *idx = NULL;
    nn_tensor *md = nn_max_dim(ctx, x, 1, false, &idx);
    CHECK(nn_backward(ctx, md, NULL, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 2, S(1, 3), V(0, 1, 0), 0, 0, "max dim ties"));
    nn_tensor *ts[] = {x, m, idx, md};
    for (int i = 0; i < 4; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(reduce_norm_at_zero_has_zero_gradient) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT64, 1, S(3));
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *n = nn_norm(ctx, x, 2, NULL, 0, false);
    CHECK(nn_backward(ctx, n, NULL, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 1, S(3), V(0, 0, 0), 0, 0, "norm grad at 0"));
    nn_tensor *sd = nn_std(ctx, x, NULL, 0, 1, false);
    nn_tensor_clear_grad(x);
    CHECK(nn_backward(ctx, sd, NULL, false) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(x), 1, S(3), V(0, 0, 0), 0, 0, "std grad at 0"));
    nn_tensor *ts[] = {x, n, sd};
    for (int i = 0; i < 3; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

/* ---- finite differences ---- */

typedef struct red_arg {
    int op; /* 0 sum 1 mean 2 var 3 std 4 lse 5 norm 6 max_all 7 min_all 8 max_dim 9 min_dim */
    int64_t dims[3];
    int n_dims;
    bool keepdim;
    int64_t correction;
    double p;
} red_arg;

static nn_tensor *red_fn(nn_ctx *ctx, nn_tensor **in, void *argp) {
    const red_arg *a = argp;
    switch (a->op) {
    case 0: return nn_sum(ctx, in[0], a->dims, a->n_dims, a->keepdim);
    case 1: return nn_mean(ctx, in[0], a->dims, a->n_dims, a->keepdim);
    case 2: return nn_var(ctx, in[0], a->dims, a->n_dims, a->correction, a->keepdim);
    case 3: return nn_std(ctx, in[0], a->dims, a->n_dims, a->correction, a->keepdim);
    case 4: return nn_logsumexp(ctx, in[0], a->dims, a->n_dims, a->keepdim);
    case 5: return nn_norm(ctx, in[0], a->p, a->dims, a->n_dims, a->keepdim);
    case 6: return nn_max_all(ctx, in[0]);
    case 7: return nn_min_all(ctx, in[0]);
    case 8: return nn_max_dim(ctx, in[0], a->dims[0], a->keepdim, NULL);
    default: return nn_min_dim(ctx, in[0], a->dims[0], a->keepdim, NULL);
    }
}

static const char *red_names[] = {"sum",  "mean",    "var",     "std",     "logsumexp",
                                  "norm", "max_all", "min_all", "max_dim", "min_dim"};

/* Run one gradcheck on a fresh [2, 3, 4] input and on a transposed [5, 3]. */
static void check_op(nn_ctx *ctx, red_arg a) {
    char name[96];
    nn_tensor *x = randn_leaf(ctx, 3, S(2, 3, 4));
    snprintf(name, sizeof name, "%s dims %d keepdim %d p %g", red_names[a.op], a.n_dims, a.keepdim,
             a.p);
    CHECK_MSG(tu_gradcheck(ctx, name, red_fn, &x, 1, &a, 1e-6, 1e-6, 1e-8), "%s", name);
    nn_tensor_release(x);
    /* Non-contiguous: dims here must be valid for 2-D. */
    red_arg b = a;
    for (int i = 0; i < b.n_dims; i++) b.dims[i] = b.dims[i] % 2;
    if (b.n_dims == 2 && b.dims[0] == b.dims[1]) b.n_dims = 1;
    if (a.op >= 8) b.dims[0] = a.dims[0] % 2;
    nn_tensor *t = transposed_leaf(ctx, 5, 3);
    snprintf(name, sizeof name, "%s (transposed input)", red_names[a.op]);
    CHECK_MSG(tu_gradcheck(ctx, name, red_fn, &t, 1, &b, 1e-6, 1e-6, 1e-8), "%s", name);
    nn_tensor_release(t);
}

NN_TEST(reduce_gradcheck_all_ops) {
    nn_ctx *ctx = nn_ctx_new(7);
    const double ps[] = {2, 1, 3, 1.5, 0.5, INFINITY};
    for (int op = 0; op <= 9; op++) {
        red_arg a = {op, {1, 0, 0}, 1, false, 1, 2};
        check_op(ctx, a); /* one dim */
        a.keepdim = true;
        a.dims[0] = -1;
        check_op(ctx, a); /* negative dim, keepdim */
        if (op >= 6) continue;
        a.dims[0] = 0, a.dims[1] = 2, a.n_dims = 2, a.keepdim = false;
        check_op(ctx, a); /* two dims */
        a.n_dims = 0, a.keepdim = true;
        check_op(ctx, a); /* everything, keepdim */
        if (op == 2 || op == 3) {
            a.correction = 0, a.n_dims = 1;
            check_op(ctx, a);
        }
        if (op == 5)
            for (int k = 1; k < 6; k++) {
                a.p = ps[k], a.n_dims = 1, a.keepdim = k & 1;
                check_op(ctx, a);
            }
    }
    nn_ctx_free(ctx);
}

/* A hook that runs its own max along a dim after every forward max: it
 * takes the indices hand-over (ctx->aux) before the outer wrapper can. */
static nn_hook_action nested_max_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    if (ev->phase == NN_PHASE_FORWARD && ev->after && ev->node->op == NN_OP_MAX) {
        nn_tensor *idx = NULL;
        nn_tensor *v = nn_max_dim(ctx, ev->node->in[0].t, 0, false, &idx);
        *(int *)user += v != NULL && idx != NULL;
        nn_tensor_release(v);
        nn_tensor_release(idx);
    }
    return NN_HOOK_CONTINUE;
}

NN_TEST(reduce_max_indices_survive_a_hook) {
    nn_ctx *ctx = nn_ctx_new(0);
    int ran = 0;
    int id = nn_hook_add(ctx, "nested", nested_max_hook, &ran);
    nn_tensor *x = t64(ctx, 2, S(2, 3), V(1, 5, 2, 7, 0, 3));
    for (int grad = 0; grad < 2; grad++) {
        nn_tensor_requires_grad_(ctx, x, grad);
        nn_tensor *idx = NULL;
        nn_tensor *m = nn_max_dim(ctx, x, 1, false, &idx);
        CHECK(tu_close(m, 1, S(2), V(5, 7), 0, 0, "values"));
        CHECK(tu_close(idx, 1, S(2), V(1, 0), 0, 0, "indices after the hook"));
        nn_tensor_release(m);
        nn_tensor_release(idx);
    }
    CHECK(ran == 2);
    CHECK(ctx->aux == NULL);
    nn_hook_remove(ctx, id);
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}
