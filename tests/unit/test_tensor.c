/* Tensors: creation, scalars and promotion, views and refcounts, raw
 * contiguous/cast, item(), the in-place set-up ops and their autograd rules,
 * the allocation cap and its size parser, and bad shapes as clear errors.
 *
 * Owned by the tensor tester; engine/nn_tensor.c and engine/nn_mem.c are
 * the lead's. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "nn_mem.h"
#include "testutil.h"

static void release_all(nn_tensor **ts, int n) {
    for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
}

/* ---- creation ---- */

NN_TEST(tensor_zeros_ones_full) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *z = nn_zeros(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3));
    nn_tensor *o = nn_ones(ctx, NN_INT64, 1, TU_SHAPE(4));
    nn_tensor *f = nn_full(ctx, NN_FLOAT32, 3, TU_SHAPE(1, 2, 2), -2.5);
    nn_tensor *b = nn_full(ctx, NN_BOOL, 1, TU_SHAPE(3), 7);
    nn_tensor *s = nn_full(ctx, NN_FLOAT32, 0, NULL, 3);
    nn_tensor *e = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(0, 5));
    CHECK(tu_close(z, 2, TU_SHAPE(2, 3), TU_VALS(0, 0, 0, 0, 0, 0), 0, 0, "zeros"));
    CHECK(o && o->dtype == NN_INT64 &&
          tu_close(o, 1, TU_SHAPE(4), TU_VALS(1, 1, 1, 1), 0, 0, "ones"));
    CHECK(tu_close(f, 3, TU_SHAPE(1, 2, 2), TU_VALS(-2.5, -2.5, -2.5, -2.5), 0, 0, "full"));
    CHECK(tu_close(b, 1, TU_SHAPE(3), TU_VALS(1, 1, 1), 0, 0, "full bool"));
    CHECK(s && s->ndim == 0 && nn_tensor_numel(s) == 1 && nn_tensor_get_flat(s, 0) == 3);
    CHECK(e && nn_tensor_numel(e) == 0 && e->shape[1] == 5);
    CHECK(z && nn_tensor_is_contiguous(z) && z->strides[0] == 3 && z->strides[1] == 1);
    nn_tensor *zl = nn_zeros_like(ctx, f);
    CHECK(zl && zl->dtype == NN_FLOAT32 && nn_tensor_same_shape(zl, f));
    nn_tensor *ts[] = {z, o, f, b, s, e, zl};
    release_all(ts, 7);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_arange) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = nn_arange(ctx, 0, 5, 1, NN_INT64);
    CHECK(a && a->dtype == NN_INT64 &&
          tu_close(a, 1, TU_SHAPE(5), TU_VALS(0, 1, 2, 3, 4), 0, 0, "0..5"));
    nn_tensor *n = nn_arange(ctx, 0, -3, -1, NN_FLOAT32);
    CHECK(tu_close(n, 1, TU_SHAPE(3), TU_VALS(0, -1, -2), 0, 0, "negative step"));
    nn_tensor *fs = nn_arange(ctx, 1, 2, 0.25, NN_FLOAT64);
    CHECK(tu_close(fs, 1, TU_SHAPE(4), TU_VALS(1, 1.25, 1.5, 1.75), 0, 0, "float step"));
    nn_tensor *odd = nn_arange(ctx, 0, 1, 0.3, NN_FLOAT64);
    CHECK(tu_close(odd, 1, TU_SHAPE(4), TU_VALS(0, 0.3, 0.6, 0.9), 1e-15, 0, "0:1:0.3"));
    nn_tensor *e1 = nn_arange(ctx, 2, 2, 1, NN_FLOAT32);
    CHECK(e1 && e1->ndim == 1 && e1->shape[0] == 0);
    /* An end on the wrong side of start is an error, as in PyTorch. */
    nn_tensor *e2 = nn_arange(ctx, 5, 2, 1, NN_FLOAT32);
    CHECK(e2 == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "negative step") != NULL);
    nn_tensor *half = nn_arange(ctx, 0.5, 3, 1, NN_INT64); /* 0.5, 1.5, 2.5 truncated */
    CHECK(tu_close(half, 1, TU_SHAPE(3), TU_VALS(0, 1, 2), 0, 0, "int arange of halves"));
    CHECK(nn_arange(ctx, 0, 5, 0, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "step") != NULL);
    CHECK(nn_arange(ctx, 0, INFINITY, 1, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_arange(ctx, 0, NAN, 1, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_arange(ctx, 0, 1e300, 1e-300, NN_FLOAT32) == NULL &&
          nn_ctx_status(ctx) == NN_ERR_MEMORY);
    nn_tensor *ts[] = {a, n, fs, odd, e1, e2, half};
    release_all(ts, 7);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_linspace) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *z = nn_linspace(ctx, 0, 1, 0, NN_FLOAT32);
    CHECK(z && z->ndim == 1 && z->shape[0] == 0);
    nn_tensor *one = nn_linspace(ctx, 2, 5, 1, NN_FLOAT64);
    CHECK(tu_close(one, 1, TU_SHAPE(1), TU_VALS(2), 0, 0, "steps 1 gives start"));
    nn_tensor *q = nn_linspace(ctx, 0, 1, 5, NN_FLOAT64);
    CHECK(tu_close(q, 1, TU_SHAPE(5), TU_VALS(0, 0.25, 0.5, 0.75, 1), 0, 0, "quarters"));
    /* Endpoints are exact even where the step is not representable. */
    nn_tensor *t = nn_linspace(ctx, 0.1, 0.7, 7, NN_FLOAT64);
    CHECK(t && nn_tensor_get_flat(t, 0) == 0.1 && nn_tensor_get_flat(t, 6) == 0.7);
    nn_tensor *s = nn_linspace(ctx, -1, 1, 7, NN_FLOAT32);
    CHECK(s && nn_tensor_get_flat(s, 0) == -1 && nn_tensor_get_flat(s, 6) == 1);
    CHECK(tu_close(s, 1, TU_SHAPE(7), TU_VALS(-1, -2 / 3.0, -1 / 3.0, 0, 1 / 3.0, 2 / 3.0, 1), 1e-6,
                   1e-7, "symmetric"));
    nn_tensor *down = nn_linspace(ctx, 3, -3, 4, NN_FLOAT64);
    CHECK(tu_close(down, 1, TU_SHAPE(4), TU_VALS(3, 1, -1, -3), 1e-15, 0, "decreasing"));
    CHECK(nn_linspace(ctx, 0, 1, -1, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_linspace(ctx, 0, 1, INT64_MAX, NN_FLOAT32) == NULL &&
          nn_ctx_status(ctx) == NN_ERR_MEMORY);
    nn_tensor *ts[] = {z, one, q, t, s, down};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_eye) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *sq = nn_eye(ctx, 3, -1, NN_FLOAT32);
    CHECK(tu_close(sq, 2, TU_SHAPE(3, 3), TU_VALS(1, 0, 0, 0, 1, 0, 0, 0, 1), 0, 0, "eye 3"));
    nn_tensor *wide = nn_eye(ctx, 2, 3, NN_INT64);
    CHECK(tu_close(wide, 2, TU_SHAPE(2, 3), TU_VALS(1, 0, 0, 0, 1, 0), 0, 0, "eye 2x3"));
    nn_tensor *tall = nn_eye(ctx, 3, 2, NN_BOOL);
    CHECK(tu_close(tall, 2, TU_SHAPE(3, 2), TU_VALS(1, 0, 0, 1, 0, 0), 0, 0, "eye 3x2"));
    nn_tensor *empty = nn_eye(ctx, 0, -1, NN_FLOAT64);
    CHECK(empty && nn_tensor_numel(empty) == 0);
    CHECK(nn_eye(ctx, -2, -1, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    CHECK(nn_eye(ctx, (int64_t)1 << 40, -1, NN_FLOAT32) == NULL &&
          nn_ctx_status(ctx) == NN_ERR_MEMORY);
    nn_tensor *ts[] = {sq, wide, tall, empty};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

static void moments(const nn_tensor *t, double *mean, double *sd, double *lo, double *hi) {
    int64_t n = nn_tensor_numel(t);
    double s = 0, s2 = 0;
    *lo = INFINITY, *hi = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        s += v, s2 += v * v;
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
    *mean = s / (double)n;
    *sd = sqrt(s2 / (double)n - *mean * *mean);
}

NN_TEST(tensor_rand_randn_statistics) {
    nn_ctx *ctx = nn_ctx_new(123);
    double m, sd, lo, hi;
    for (int k = 0; k < 2; k++) {
        nn_dtype dt = k ? NN_FLOAT64 : NN_FLOAT32;
        nn_tensor *u = nn_rand(ctx, dt, 2, TU_SHAPE(100, 1000));
        moments(u, &m, &sd, &lo, &hi);
        /* 10^5 samples: the standard error of the mean is about 0.001. */
        CHECK_NEAR(m, 0.5, 0.01);
        CHECK_NEAR(sd, sqrt(1 / 12.0), 0.01);
        CHECK(lo >= 0 && hi < 1 && lo < 0.001 && hi > 0.999);
        nn_tensor *g = nn_randn(ctx, dt, 1, TU_SHAPE(100000));
        moments(g, &m, &sd, &lo, &hi);
        CHECK(fabs(m) < 0.01);
        CHECK_NEAR(sd, 1.0, 0.01);
        CHECK(lo < -3.5 && hi > 3.5 && isfinite(lo) && isfinite(hi));
        nn_tensor_release(u);
        nn_tensor_release(g);
    }
    CHECK(nn_rand(ctx, NN_INT64, 1, TU_SHAPE(3)) == NULL && nn_ctx_status(ctx) == NN_ERR_TYPE);
    CHECK(nn_randn(ctx, NN_BOOL, 1, TU_SHAPE(3)) == NULL && nn_ctx_status(ctx) == NN_ERR_TYPE);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_random_is_reproducible_per_seed) {
    nn_ctx *a = nn_ctx_new(7), *b = nn_ctx_new(7), *c = nn_ctx_new(8);
    nn_tensor *xa = nn_randn(a, NN_FLOAT64, 1, TU_SHAPE(64));
    nn_tensor *xb = nn_randn(b, NN_FLOAT64, 1, TU_SHAPE(64));
    nn_tensor *xc = nn_randn(c, NN_FLOAT64, 1, TU_SHAPE(64));
    CHECK(tu_close_tensor(xa, xb, 0, 0, "same seed"));
    int same = 0;
    for (int i = 0; i < 64; i++) same += nn_tensor_get_flat(xa, i) == nn_tensor_get_flat(xc, i);
    CHECK(same == 0);
    /* Reseeding replays the sequence, for every generator. */
    nn_ctx_seed(a, 99);
    nn_tensor *r1 = nn_rand(a, NN_FLOAT32, 1, TU_SHAPE(5));
    nn_tensor *n1 = nn_randn(a, NN_FLOAT32, 1, TU_SHAPE(5)); /* odd count: a spare normal */
    nn_tensor *i1 = nn_randint(a, -5, 5, 1, TU_SHAPE(9));
    nn_ctx_seed(a, 99);
    nn_tensor *r2 = nn_rand(a, NN_FLOAT32, 1, TU_SHAPE(5));
    nn_tensor *n2 = nn_randn(a, NN_FLOAT32, 1, TU_SHAPE(5));
    nn_tensor *i2 = nn_randint(a, -5, 5, 1, TU_SHAPE(9));
    CHECK(tu_close_tensor(r1, r2, 0, 0, "rand after reseed"));
    CHECK(tu_close_tensor(n1, n2, 0, 0, "randn after reseed"));
    CHECK(tu_close_tensor(i1, i2, 0, 0, "randint after reseed"));
    nn_tensor *ts[] = {xa, xb, xc, r1, n1, i1, r2, n2, i2};
    release_all(ts, 9);
    nn_ctx_free(a);
    nn_ctx_free(b);
    nn_ctx_free(c);
}

NN_TEST(tensor_randint) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *t = nn_randint(ctx, -2, 3, 1, TU_SHAPE(10000));
    CHECK(t && t->dtype == NN_INT64);
    int counts[5] = {0};
    bool in_range = true;
    for (int64_t i = 0; t && i < 10000; i++) {
        double v = nn_tensor_get_flat(t, i);
        if (v < -2 || v > 2 || v != floor(v))
            in_range = false;
        else
            counts[(int)v + 2]++;
    }
    CHECK(in_range);
    for (int k = 0; k < 5; k++)
        CHECK_MSG(counts[k] > 1800 && counts[k] < 2200, "count[%d] %d", k, counts[k]);
    nn_tensor *one = nn_randint(ctx, 4, 5, 1, TU_SHAPE(20));
    bool fours = one != NULL;
    for (int i = 0; fours && i < 20; i++) fours = nn_tensor_get_flat(one, i) == 4;
    CHECK(fours);
    /* The whole int64 range minus one: no overflow in high - low. */
    nn_tensor *wide = nn_randint(ctx, INT64_MIN, INT64_MAX, 1, TU_SHAPE(100));
    CHECK(wide != NULL);
    CHECK(nn_randint(ctx, 3, 3, 1, TU_SHAPE(2)) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(nn_randint(ctx, 5, 1, 1, TU_SHAPE(2)) == NULL && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "low") != NULL);
    CHECK(nn_randint(ctx, 0, 2, 1, TU_SHAPE(-1)) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    nn_tensor *ts[] = {t, one, wide};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_from_doubles_and_data) {
    nn_ctx *ctx = nn_ctx_new(0);
    const double v[] = {1.5, -1.5, 2.9, -0.1, 0, 1e10};
    nn_tensor *f = nn_tensor_from_doubles(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3), v);
    CHECK(tu_close(f, 2, TU_SHAPE(2, 3), v, 1e-7, 0, "float32"));
    nn_tensor *i = nn_tensor_from_doubles(ctx, NN_INT64, 1, TU_SHAPE(6), v);
    CHECK(tu_close(i, 1, TU_SHAPE(6), TU_VALS(1, -1, 2, 0, 0, 1e10), 0, 0, "int64 truncates"));
    nn_tensor *b = nn_tensor_from_doubles(ctx, NN_BOOL, 1, TU_SHAPE(6), v);
    CHECK(tu_close(b, 1, TU_SHAPE(6), TU_VALS(1, 1, 1, 1, 0, 1), 0, 0, "bool"));
    const int64_t raw[] = {INT64_MAX, -7};
    nn_tensor *r = nn_tensor_from_data(ctx, NN_INT64, 1, TU_SHAPE(2), raw);
    CHECK(r && ((const int64_t *)nn_tensor_data(r))[0] == INT64_MAX);
    nn_tensor *e = nn_tensor_from_doubles(ctx, NN_FLOAT64, 1, TU_SHAPE(0), NULL);
    CHECK(e && nn_tensor_numel(e) == 0);
    CHECK(nn_tensor_from_doubles(ctx, NN_FLOAT32, 1, TU_SHAPE(-2), v) == NULL &&
          nn_ctx_status(ctx) == NN_ERR_SHAPE);
    nn_tensor *ts[] = {f, i, b, r, e};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

/* ---- scalars and promotion ---- */

NN_TEST(tensor_scalars_and_promotion) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *s = nn_scalar(ctx, 2.5, NN_FLOAT32), *w = nn_scalar_wrapped(ctx, 2.5);
    CHECK(s && s->ndim == 0 && !s->is_wrapped_number && s->dtype == NN_FLOAT32);
    CHECK(w && w->ndim == 0 && w->is_wrapped_number && w->dtype == NN_FLOAT64);
    double x = 0;
    CHECK(nn_tensor_item(ctx, w, &x) == NN_OK && x == 2.5);
    nn_tensor *f32 = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    nn_tensor *f64 = nn_zeros(ctx, NN_FLOAT64, 1, TU_SHAPE(2));
    nn_tensor *i64 = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(2));
    nn_tensor *bl = nn_zeros(ctx, NN_BOOL, 1, TU_SHAPE(2));
    nn_tensor *wi = nn_scalar(ctx, 3, NN_INT64);
    wi->is_wrapped_number = true;
    nn_tensor *wb = nn_scalar(ctx, 1, NN_BOOL);
    wb->is_wrapped_number = true;
    /* Same category: the wider type. */
    CHECK(nn_dtype_promote(f32, f64) == NN_FLOAT64 && nn_dtype_promote(f64, f32) == NN_FLOAT64);
    CHECK(nn_dtype_promote(f32, f32) == NN_FLOAT32);
    /* Across categories: the higher category. */
    CHECK(nn_dtype_promote(i64, f32) == NN_FLOAT32 && nn_dtype_promote(bl, i64) == NN_INT64);
    CHECK(nn_dtype_promote(bl, f64) == NN_FLOAT64 && nn_dtype_promote(bl, bl) == NN_BOOL);
    /* Wrapped numbers do not widen within a category... */
    CHECK(nn_dtype_promote(f32, w) == NN_FLOAT32 && nn_dtype_promote(w, f32) == NN_FLOAT32);
    CHECK(nn_dtype_promote(i64, wi) == NN_INT64 && nn_dtype_promote(f32, wi) == NN_FLOAT32);
    CHECK(nn_dtype_promote(f64, wb) == NN_FLOAT64 && nn_dtype_promote(i64, wb) == NN_INT64);
    /* ...and a higher category gives that category's default type. */
    CHECK(nn_dtype_promote(i64, w) == NN_FLOAT32 && nn_dtype_promote(bl, w) == NN_FLOAT32);
    CHECK(nn_dtype_promote(bl, wi) == NN_INT64);
    /* Two wrapped numbers: a Python float counts as the default float32
     * (torch.where(mask, 1.0, 0.0) is float32). */
    CHECK(nn_dtype_promote(w, wi) == NN_FLOAT32 && nn_dtype_promote(w, w) == NN_FLOAT32);
    nn_tensor *ts[] = {s, w, f32, f64, i64, bl, wi, wb};
    release_all(ts, 8);
    nn_ctx_free(ctx);
}

/* PyTorch: a 0-dim tensor takes part in promotion like a wrapped number
 * (it does not widen a dimensioned tensor of the same category):
 * torch.ones(2) * torch.tensor(2., dtype=torch.float64) is float32, while
 * torch.ones(2, dtype=torch.int64) * torch.tensor(2.5, dtype=torch.float64)
 * is float64 (the 0-dim tensor's own type, not the default). */
NN_TEST(tensor_promotion_zero_dim_tensors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *f32 = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    nn_tensor *i64 = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(2));
    nn_tensor *d0 = nn_scalar(ctx, 2, NN_FLOAT64), *f0 = nn_scalar(ctx, 2, NN_FLOAT32);
    CHECK_MSG(nn_dtype_promote(f32, d0) == NN_FLOAT32, "float32[2] with a 0-dim float64: %s",
              nn_dtype_name(nn_dtype_promote(f32, d0)));
    CHECK(nn_dtype_promote(i64, d0) == NN_FLOAT64);
    CHECK(nn_dtype_promote(d0, f0) == NN_FLOAT64); /* both 0-dim: ordinary rules */
    nn_tensor *ts[] = {f32, i64, d0, f0};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

/* ---- views, refcounts, contiguous, cast ---- */

NN_TEST(tensor_views_share_storage) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *base = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALS(0, 1, 2, 3, 4, 5));
    nn_tensor *t = nn_tensor_view_raw(ctx, base, 2, TU_SHAPE(3, 2), TU_SHAPE(1, 3), 0);
    nn_tensor *col = nn_tensor_view_raw(ctx, base, 1, TU_SHAPE(2), TU_SHAPE(3), 1);
    nn_tensor *bc = nn_tensor_view_raw(ctx, base, 2, TU_SHAPE(4, 3), TU_SHAPE(0, 1), 3);
    CHECK(t && t->storage == base->storage && base->storage->refcount == 4);
    CHECK(tu_close(t, 2, TU_SHAPE(3, 2), TU_VALS(0, 3, 1, 4, 2, 5), 0, 0, "transpose view"));
    CHECK(tu_close(col, 1, TU_SHAPE(2), TU_VALS(1, 4), 0, 0, "column view"));
    CHECK(tu_close(bc, 2, TU_SHAPE(4, 3), TU_VALS(3, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 5), 0, 0,
                   "broadcast view"));
    CHECK(!nn_tensor_is_contiguous(t) && !nn_tensor_is_contiguous(col));
    CHECK(!t->requires_grad && t->grad_fn == NULL);
    /* Writes through a view land in the base. */
    nn_tensor_set_flat(t, 1, 30);
    CHECK(nn_tensor_get_flat(base, 3) == 30);
    /* Release the base first: the views keep the storage alive (ASan checks). */
    nn_tensor_release(base);
    CHECK(t->storage->refcount == 3 && nn_tensor_get_flat(col, 1) == 4);
    nn_tensor_release(col);
    nn_tensor *v2 = nn_tensor_view_raw(ctx, t, 1, TU_SHAPE(3), TU_SHAPE(1), 0); /* view of a view */
    nn_tensor_release(t);
    nn_tensor_release(bc);
    CHECK(v2 && v2->storage->refcount == 1 &&
          tu_close(v2, 1, TU_SHAPE(3), TU_VALS(0, 1, 2), 0, 0, "view of view"));
    nn_tensor_release(v2);
    /* Detach is a view too. */
    nn_tensor *x = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(2));
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *d = nn_tensor_detach(ctx, x);
    CHECK(d && d->storage == x->storage && !d->requires_grad);
    nn_tensor_release(x);
    CHECK(nn_tensor_get_flat(d, 1) == 1);
    nn_tensor_release(d);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_contiguous_and_cast_raw) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a =
        tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(2, 3), TU_VALS(-1.7, -0.5, 0, 0.5, 1.7, NAN));
    nn_tensor *same = nn_tensor_contiguous_raw(ctx, a);
    CHECK(same == a && a->refcount == 2);
    nn_tensor_release(same);
    nn_tensor *t = nn_tensor_view_raw(ctx, a, 2, TU_SHAPE(3, 2), TU_SHAPE(1, 3), 0);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    CHECK(c && c != t && c->storage != a->storage && nn_tensor_is_contiguous(c));
    CHECK(tu_close_tensor(c, t, 0, 0, "contiguous copy"));
    /* Size-1 dims with odd strides still count as contiguous. */
    nn_tensor *odd = nn_tensor_view_raw(ctx, a, 2, TU_SHAPE(1, 3), TU_SHAPE(99, 1), 3);
    CHECK(odd && nn_tensor_is_contiguous(odd));
    nn_tensor *i = nn_tensor_cast_raw(ctx, a, NN_INT64);
    CHECK(i && i->dtype == NN_INT64);
    /* Truncation toward zero, as C and PyTorch do; NaN becomes INT64_MIN as
     * on PyTorch's x86 builds. */
    CHECK(tu_close(i, 2, TU_SHAPE(2, 3), TU_VALS(-1, 0, 0, 0, 1, (double)INT64_MIN), 0, 0,
                   "to int64"));
    nn_tensor *b = nn_tensor_cast_raw(ctx, a, NN_BOOL);
    CHECK(tu_close(b, 2, TU_SHAPE(2, 3), TU_VALS(1, 1, 0, 1, 1, 1), 0, 0, "to bool (NaN is true)"));
    nn_tensor *bf = nn_tensor_cast_raw(ctx, b, NN_FLOAT32);
    CHECK(tu_close(bf, 2, TU_SHAPE(2, 3), TU_VALS(1, 1, 0, 1, 1, 1), 0, 0, "bool to float"));
    nn_tensor *ct = nn_tensor_cast_raw(ctx, t, NN_FLOAT32); /* strided source */
    CHECK(tu_close(ct, 2, TU_SHAPE(3, 2), TU_VALS(-1.7, 0.5, -0.5, 1.7, 0, NAN), 1e-7, 0,
                   "cast of a view"));
    nn_tensor *keep = nn_tensor_cast_raw(ctx, a, NN_FLOAT64);
    CHECK(keep == a);
    nn_tensor *ts[] = {a, t, c, odd, i, b, bf, ct, keep};
    release_all(ts, 9);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_item) {
    nn_ctx *ctx = nn_ctx_new(0);
    double v = 0;
    nn_tensor *s = nn_scalar(ctx, -4, NN_INT64);
    CHECK(nn_tensor_item(ctx, s, &v) == NN_OK && v == -4);
    nn_tensor *one = nn_full(ctx, NN_FLOAT32, 3, TU_SHAPE(1, 1, 1), 0.25);
    CHECK(nn_tensor_item(ctx, one, &v) == NN_OK && v == 0.25);
    nn_tensor *two = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    v = 99;
    CHECK(nn_tensor_item(ctx, two, &v) == NN_ERR_VALUE && v == 99);
    CHECK(strstr(nn_ctx_error(ctx), "[2]") != NULL);
    nn_tensor *none = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(3, 0));
    CHECK(nn_tensor_item(ctx, none, &v) == NN_ERR_VALUE);
    nn_tensor *ts[] = {s, one, two, none};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

/* ---- in-place set-up ops ---- */

NN_TEST(tensor_copy_) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *d = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3));
    nn_tensor *row = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), TU_VALS(1, 2, 3.5));
    uint32_t v0 = d->storage->version;
    CHECK(nn_tensor_copy_(ctx, d, row) == NN_OK);
    CHECK(d->storage->version == v0 + 1);
    CHECK(tu_close(d, 2, TU_SHAPE(2, 3), TU_VALS(1, 2, 3.5, 1, 2, 3.5), 0, 0, "broadcast row"));
    nn_tensor *i = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(3));
    CHECK(nn_tensor_copy_(ctx, i, row) == NN_OK);
    CHECK(tu_close(i, 1, TU_SHAPE(3), TU_VALS(1, 2, 3), 0, 0, "into int64"));
    /* Sources that do not broadcast to the destination's shape. */
    nn_tensor *two = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    CHECK(nn_tensor_copy_(ctx, d, two) == NN_ERR_SHAPE);
    CHECK(strstr(nn_ctx_error(ctx), "tensor a (3) must match the size of tensor b (2)"));
    CHECK(nn_tensor_copy_(ctx, row, d) == NN_ERR_SHAPE); /* would need dst to grow */
    CHECK(!strcmp(nn_ctx_error(ctx),
                  "output with shape [3] doesn't match the broadcast shape [2, 3]"));
    CHECK(tu_close(row, 1, TU_SHAPE(3), TU_VALS(1, 2, 3.5), 0, 0, "untouched on error"));
    nn_tensor *ts[] = {d, row, i, two};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_copy_overlapping) {
    nn_ctx *ctx = nn_ctx_new(0);
    /* x.copy_(x.T) transposes in place. */
    nn_tensor *x =
        tu_tensor(ctx, NN_FLOAT64, 2, TU_SHAPE(3, 3), TU_VALS(0, 1, 2, 3, 4, 5, 6, 7, 8));
    nn_tensor *xt = nn_tensor_view_raw(ctx, x, 2, TU_SHAPE(3, 3), TU_SHAPE(1, 3), 0);
    CHECK(nn_tensor_copy_(ctx, x, xt) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(3, 3), TU_VALS(0, 3, 6, 1, 4, 7, 2, 5, 8), 0, 0, "x = x.T"));
    /* Shifted overlap both ways: a[1:] = a[:-1] and a[:-1] = a[1:]. */
    nn_tensor *a = tu_tensor(ctx, NN_INT64, 1, TU_SHAPE(5), TU_VALS(1, 2, 3, 4, 5));
    nn_tensor *hi = nn_tensor_view_raw(ctx, a, 1, TU_SHAPE(4), TU_SHAPE(1), 1);
    nn_tensor *lo = nn_tensor_view_raw(ctx, a, 1, TU_SHAPE(4), TU_SHAPE(1), 0);
    CHECK(nn_tensor_copy_(ctx, hi, lo) == NN_OK);
    CHECK(tu_close(a, 1, TU_SHAPE(5), TU_VALS(1, 1, 2, 3, 4), 0, 0, "a[1:] = a[:-1]"));
    CHECK(nn_tensor_copy_(ctx, lo, hi) == NN_OK);
    CHECK(tu_close(a, 1, TU_SHAPE(5), TU_VALS(1, 2, 3, 4, 4), 0, 0, "a[:-1] = a[1:]"));
    /* Broadcast from a part of itself: every row becomes the first row. */
    nn_tensor *r0 = nn_tensor_view_raw(ctx, x, 1, TU_SHAPE(3), TU_SHAPE(1), 0);
    CHECK(nn_tensor_copy_(ctx, x, r0) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(3, 3), TU_VALS(0, 3, 6, 0, 3, 6, 0, 3, 6), 0, 0, "x[:] = x[0]"));
    nn_tensor *ts[] = {x, xt, a, hi, lo, r0};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_fill_zero_add_mul_clamp) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3), TU_VALS(0, 1, 2, 3, 4, 5));
    /* fill_ on a strided view only touches the view's elements. */
    nn_tensor *col = nn_tensor_view_raw(ctx, x, 1, TU_SHAPE(2), TU_SHAPE(3), 1);
    CHECK(nn_tensor_fill_(ctx, col, -1) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(0, -1, 2, 3, -1, 5), 0, 0, "fill_ column"));
    nn_tensor *row = tu_tensor(ctx, NN_FLOAT64, 1, TU_SHAPE(3), TU_VALS(10, 20, 30));
    CHECK(nn_tensor_add_(ctx, x, row, 0.5) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(5, 9, 17, 8, 9, 20), 0, 0, "add_ alpha"));
    CHECK(nn_tensor_add_(ctx, row, x, 1) != NN_OK); /* [2,3] does not fit in [3] */
    CHECK(nn_tensor_mul_(ctx, x, row) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(50, 180, 510, 80, 180, 600), 0, 0, "mul_"));
    CHECK(x->dtype == NN_FLOAT32);
    CHECK(nn_tensor_mul_scalar_(ctx, x, 0.1) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(5, 18, 51, 8, 18, 60), 1e-6, 0, "mul_ scalar"));
    CHECK(nn_tensor_clamp_(ctx, x, 8, 50) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(8, 18, 50, 8, 18, 50), 1e-6, 0, "clamp_"));
    CHECK(nn_tensor_clamp_(ctx, x, NAN, 10) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(8, 10, 10, 8, 10, 10), 1e-6, 0, "clamp_ hi"));
    CHECK(nn_tensor_clamp_(ctx, x, 9, NAN) == NN_OK);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(9, 10, 10, 9, 10, 10), 1e-6, 0, "clamp_ lo"));
    uint32_t v = x->storage->version;
    CHECK(nn_tensor_zero_(ctx, x) == NN_OK && x->storage->version == v + 1);
    CHECK(tu_close(x, 2, TU_SHAPE(2, 3), TU_VALS(0, 0, 0, 0, 0, 0), 0, 0, "zero_"));
    nn_tensor *ts[] = {x, col, row};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_normal_uniform_) {
    nn_ctx *ctx = nn_ctx_new(21);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT64, 1, TU_SHAPE(100000));
    double m, sd, lo, hi;
    CHECK(nn_tensor_normal_(ctx, x, 3, 0.5) == NN_OK);
    moments(x, &m, &sd, &lo, &hi);
    CHECK_NEAR(m, 3, 0.01);
    CHECK_NEAR(sd, 0.5, 0.01);
    CHECK(nn_tensor_uniform_(ctx, x, -2, 6) == NN_OK);
    moments(x, &m, &sd, &lo, &hi);
    CHECK_NEAR(m, 2, 0.05);
    CHECK(lo >= -2 && hi < 6);
    CHECK(nn_tensor_normal_(ctx, x, 0, 0) == NN_OK);
    moments(x, &m, &sd, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    /* Argument errors leave the tensor alone and bump nothing. */
    uint32_t v = x->storage->version;
    CHECK(nn_tensor_normal_(ctx, x, 0, -1) == NN_ERR_RUNTIME); /* PyTorch's RuntimeError */
    CHECK(nn_tensor_normal_(ctx, x, 0, NAN) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_uniform_(ctx, x, 1, 0) == NN_ERR_VALUE);
    CHECK(nn_tensor_uniform_(ctx, x, NAN, 1) == NN_ERR_VALUE);
    CHECK(x->storage->version == v);
    nn_tensor *i = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(3));
    CHECK(nn_tensor_normal_(ctx, i, 0, 1) == NN_ERR_TYPE);
    CHECK(nn_tensor_uniform_(ctx, i, 0, 1) == NN_ERR_TYPE);
    /* A transposed view is filled in memory order, as PyTorch's
     * TensorIterator walks it: its storage holds the same sequence as a
     * contiguous tensor from the same seed. */
    nn_tensor *c = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(3, 4));
    nn_tensor *buf = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(4, 3));
    nn_tensor *t = nn_tensor_view_raw(ctx, buf, 2, TU_SHAPE(3, 4), TU_SHAPE(1, 3), 0);
    nn_ctx_seed(ctx, 5);
    CHECK(nn_tensor_normal_(ctx, c, 0, 1) == NN_OK);
    nn_ctx_seed(ctx, 5);
    CHECK(nn_tensor_normal_(ctx, t, 0, 1) == NN_OK);
    nn_tensor *mem = nn_tensor_view_raw(ctx, buf, 2, TU_SHAPE(3, 4), TU_SHAPE(4, 1), 0);
    CHECK(tu_close_tensor(mem, c, 0, 0, "normal_ on a view"));
    nn_tensor *ts[] = {x, i, c, buf, t, mem};
    release_all(ts, 6);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_inplace_rules) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *w = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(3));
    nn_tensor *o = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(3));
    nn_tensor_requires_grad_(ctx, w, true);
    /* Every set-up op refuses a leaf that requires grad while recording... */
    CHECK(nn_tensor_copy_(ctx, w, o) == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "no_grad") != NULL);
    CHECK(nn_tensor_fill_(ctx, w, 2) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_zero_(ctx, w) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_add_(ctx, w, o, 1) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_mul_(ctx, w, o) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_mul_scalar_(ctx, w, 2) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_clamp_(ctx, w, 0, 1) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_normal_(ctx, w, 0, 1) == NN_ERR_RUNTIME);
    CHECK(nn_tensor_uniform_(ctx, w, 0, 1) == NN_ERR_RUNTIME);
    CHECK(tu_close(w, 1, TU_SHAPE(3), TU_VALS(1, 1, 1), 0, 0, "untouched"));
    /* ...and allows it under no_grad. */
    bool prev = nn_ctx_set_grad(ctx, false);
    CHECK(nn_tensor_add_(ctx, w, o, 2) == NN_OK);
    CHECK(nn_tensor_mul_(ctx, w, o) == NN_OK);
    nn_ctx_set_grad(ctx, prev);
    CHECK(tu_close(w, 1, TU_SHAPE(3), TU_VALS(3, 3, 3), 0, 0, "under no_grad"));
    /* A non-leaf with history is refused too, naming the reason. */
    nn_tensor *h = nn_mul(ctx, w, o);
    CHECK(h && nn_tensor_fill_(ctx, h, 0) == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "history") != NULL);
    nn_tensor *ts[] = {w, o, h};
    release_all(ts, 3);
    nn_ctx_free(ctx);
}

/* An in-place write to a saved input, through any set-up op or through a
 * view of the same storage, is caught by backward. */
NN_TEST(tensor_inplace_version_detected_by_backward) {
    for (int k = 0; k < 5; k++) {
        nn_ctx *ctx = nn_ctx_new(0);
        nn_tensor *x = nn_full(ctx, NN_FLOAT64, 1, TU_SHAPE(2), 2);
        nn_tensor *c = nn_full(ctx, NN_FLOAT64, 1, TU_SHAPE(2), 3);
        nn_tensor_requires_grad_(ctx, x, true);
        nn_tensor *y = nn_mul(ctx, x, c);
        nn_tensor *view = nn_tensor_view_raw(ctx, c, 1, TU_SHAPE(1), TU_SHAPE(1), 1);
        nn_status st = NN_OK;
        switch (k) {
        case 0: st = nn_tensor_add_(ctx, c, c, 1); break;
        case 1: st = nn_tensor_clamp_(ctx, c, 0, 1); break;
        case 2: st = nn_tensor_uniform_(ctx, c, 0, 1); break;
        case 3: st = nn_tensor_fill_(ctx, view, 7); break;
        case 4: st = nn_tensor_mul_scalar_(ctx, view, 2); break;
        }
        CHECK_MSG(st == NN_OK, "write %d: %s", k, nn_ctx_error(ctx));
        nn_tensor *up = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(2));
        CHECK_MSG(nn_backward(ctx, y, up, false) == NN_ERR_RUNTIME, "write %d not detected", k);
        CHECK(strstr(nn_ctx_error(ctx), "modified by an inplace operation") != NULL);
        nn_tensor *ts[] = {x, c, y, view, up};
        release_all(ts, 5);
        nn_ctx_free(ctx);
    }
}

/* ---- the allocation cap and sizes ---- */

NN_TEST(tensor_mem_parse_size) {
    CHECK(nn_mem_parse_size("1024") == 1024);
    CHECK(nn_mem_parse_size("4K") == 4096 && nn_mem_parse_size("4k") == 4096);
    CHECK(nn_mem_parse_size("512M") == (size_t)512 << 20);
    CHECK(nn_mem_parse_size("2G") == (size_t)2 << 30 && nn_mem_parse_size("2g") == (size_t)2 << 30);
    CHECK(nn_mem_parse_size("1.5G") == (size_t)3 << 29);
    CHECK(nn_mem_parse_size("1GiB") == (size_t)1 << 30 && nn_mem_parse_size("3KB") == 3072);
    CHECK(nn_mem_parse_size("1T") == (size_t)1 << 40);
    /* Malformed: 0, so the default cap stays. */
    const char *bad[] = {"",     "abc", "G",   "12X", "-5", "0",   "5 M",
                         "1e30", "1GG", "nan", "M12", "0x", "inf", "4KX"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(nn_mem_parse_size(bad[i]) == 0, "\"%s\" parsed as %zu", bad[i],
                  nn_mem_parse_size(bad[i]));
}

/* Big blocks (1 MiB and up) are cut from any free memory: what one phase
 * frees serves the next phase's other sizes (split), freed neighbours merge
 * back, the data keeps its alignment, and a repeated pattern stops calling
 * the system allocator. */
/* Under AddressSanitizer the pool is off by design (every block goes to the
 * system, so ASan sees each use after free): the same calls then cost one
 * system allocation each, and the values, alignment and accounting hold. */
#if defined(__SANITIZE_ADDRESS__)
#define POOLED 0
#else
#define POOLED 1
#endif

NN_TEST(tensor_mem_big_blocks_split_and_merge) {
    nn_error err = {0};
    size_t mib = (size_t)1 << 20;
    nn_mem_trim();
    nn_mem_stats s0 = nn_mem_get_stats();
    char *big = nn_mem_alloc(12 * mib, "test", &err); /* one 12 MiB chunk */
    CHECK(big && ((uintptr_t)big & 63) == 0);
    memset(big, 1, 12 * mib);
    nn_mem_free(big);
    nn_mem_stats s1 = nn_mem_get_stats();
    CHECK(s1.heap_calls == s0.heap_calls + 1);
    /* Three blocks of other sizes fit in the freed chunk: no system call. */
    char *a = nn_mem_alloc(3 * mib, "test", &err);
    char *b = nn_mem_alloc(5 * mib + 100, "test", &err);
    char *c = nn_mem_alloc(2 * mib, "test", &err);
    CHECK(a && b && c);
    CHECK(nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 0 : 3));
    CHECK(((uintptr_t)a & 63) == 0 && ((uintptr_t)b & 63) == 0 && ((uintptr_t)c & 63) == 0);
    memset(a, 2, 3 * mib), memset(b, 3, 5 * mib + 100), memset(c, 4, 2 * mib);
    CHECK(a[3 * mib - 1] == 2 && b[0] == 3 && b[5 * mib + 99] == 3 && c[0] == 4);
    /* Freed in any order, they merge: the whole 12 MiB serves one request again. */
    nn_mem_free(b);
    nn_mem_free(a);
    nn_mem_free(c);
    char *again = nn_mem_alloc(12 * mib, "test", &err);
    CHECK(again != NULL && nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 0 : 4));
    nn_mem_free(again);
    /* A request bigger than any free block grows the pool once; the free
     * block at the region's top takes the growth, so the request starts
     * where the freed memory does instead of in a chunk of its own. */
    char *bigger = nn_mem_alloc(40 * mib, "test", &err);
    CHECK(bigger != NULL && nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 1 : 5));
    if (POOLED) CHECK(bigger == big);
    memset(bigger, 5, 40 * mib);
    nn_mem_free(bigger);
    CHECK(nn_mem_get_stats().in_use == s0.in_use);
    /* trim hands whole free chunks back. */
    nn_mem_trim();
    CHECK(nn_mem_get_stats().cached == 0);
}

/* Resident pages of [n] bytes at [p] (whole pages inside the range). */
static size_t resident_pages(const char *p, size_t n) {
    uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095,
              hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
    size_t np = hi > lo ? (hi - lo) / 4096 : 0, r = 0;
    unsigned char vec[4096];
    if (np == 0 || np > sizeof vec || mincore((void *)lo, hi - lo, vec) != 0) return 0;
    for (size_t i = 0; i < np; i++) r += vec[i] & 1;
    return r;
}

/* Before the chunk for a huge request (64 MiB and up: an LM head's logits),
 * the pages of the free big blocks go back to the system: they stay in the
 * cache, served again without a system call, but are no longer resident. */
NN_TEST(tensor_mem_huge_request_drops_free_pages) {
    nn_error err = {0};
    size_t mib = (size_t)1 << 20;
    nn_mem_trim();
    char *a = nn_mem_alloc(12 * mib, "test", &err);
    char *keep = nn_mem_alloc(mib, "test", &err); /* above a: a's hole stays apart */
    CHECK(a != NULL && keep != NULL);
    memset(a, 1, 12 * mib);
    nn_mem_free(a);
    if (POOLED) CHECK(resident_pages(a, 12 * mib) > 3000); /* cached, still resident */
    nn_mem_stats s1 = nn_mem_get_stats();
    char *huge = nn_mem_alloc(64 * mib, "test", &err);
    CHECK(huge != NULL && nn_mem_get_stats().heap_calls == s1.heap_calls + 1);
    if (POOLED)
        CHECK_MSG(resident_pages(a, 12 * mib) == 0, "%zu pages", resident_pages(a, 12 * mib));
    char *again = nn_mem_alloc(12 * mib, "test", &err); /* from the cache */
    CHECK(again != NULL && nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 1 : 2));
    if (POOLED) CHECK(again == a);
    memset(again, 2, 12 * mib);
    CHECK(again[0] == 2 && again[12 * mib - 1] == 2);
    nn_mem_free(again);
    nn_mem_free(huge);
    nn_mem_free(keep);
    nn_mem_trim();
}

/* A lasting block is cut from the top of the highest free block: a
 * temporary made after it comes from below, and the block they leave
 * between them once the temporary goes serves a request as large. */
NN_TEST(tensor_mem_lasting_blocks_from_the_top) {
    nn_error err = {0};
    size_t kib = 1024, mib = kib * kib;
    nn_mem_trim();
    nn_mem_stats s0 = nn_mem_get_stats();
    char *big = nn_mem_alloc(12 * mib, "test", &err);
    CHECK(big != NULL);
    nn_mem_free(big); /* one free 12 MiB chunk */
    nn_mem_stats s1 = nn_mem_get_stats();
    char *keep = nn_mem_alloc_placed(200 * kib, NN_MEM_LASTING, "test", &err);
    char *tmp = nn_mem_alloc(1200 * kib, "test", &err);
    CHECK(keep && tmp && ((uintptr_t)keep & 63) == 0);
    if (POOLED) CHECK(keep > tmp + 10 * mib); /* at the chunk's far end */
    memset(keep, 5, 200 * kib), memset(tmp, 6, 1200 * kib);
    CHECK(keep[0] == 5 && keep[200 * kib - 1] == 5 && tmp[1200 * kib - 1] == 6);
    nn_mem_free(tmp);
    char *two = nn_mem_alloc(2 * 1200 * kib, "test", &err);
    CHECK(two != NULL && keep[0] == 5);
    CHECK(nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 0 : 3));
    nn_mem_free(two);
    nn_mem_free(keep);
    /* all of it merges back into one chunk */
    char *again = nn_mem_alloc(12 * mib, "test", &err);
    CHECK(again != NULL && nn_mem_get_stats().heap_calls == s1.heap_calls + (POOLED ? 0 : 4));
    nn_mem_free(again);
    /* with no free block large enough, a new chunk: the block at its top */
    nn_mem_trim();
    char *last = nn_mem_alloc_placed(mib, NN_MEM_LASTING, "test", &err);
    char *first = nn_mem_alloc(mib, "test", &err);
    CHECK(last && first);
    if (POOLED) CHECK(last > first + 5 * mib);
    memset(last, 7, mib), memset(first, 8, mib);
    CHECK(last[mib - 1] == 7 && first[mib - 1] == 8);
    nn_mem_free(first);
    nn_mem_free(last);
    CHECK(nn_mem_get_stats().in_use == s0.in_use);
    nn_mem_trim();
    CHECK(nn_mem_get_stats().cached == 0);
}

/* A fresh block (an optimizer's state, made once after a step) goes above
 * every block handed out so far, not into the holes the step's
 * temporaries leave: the next step's temporaries find those again and
 * touch no new page. */
NN_TEST(tensor_mem_fresh_blocks_above_the_touched_memory) {
    nn_error err = {0};
    size_t mib = (size_t)1 << 20;
    nn_mem_trim();
    nn_mem_stats s0 = nn_mem_get_stats();
    char *keep = nn_mem_alloc(mib, "test", &err); /* a parameter */
    char *tmp = nn_mem_alloc(12 * mib, "test", &err);
    char *tmp2 = nn_mem_alloc(256 * 1024, "test", &err);
    CHECK(keep && tmp && tmp2);
    memset(tmp, 1, 12 * mib), memset(tmp2, 1, 256 * 1024);
    nn_mem_free(tmp); /* the step's temporaries are gone */
    nn_mem_free(tmp2);
    size_t touched = nn_mem_get_stats().touched;
    char *state = nn_mem_alloc_placed(3 * mib, NN_MEM_FRESH, "test", &err);
    CHECK(state != NULL && ((uintptr_t)state & 63) == 0);
    memset(state, 2, 3 * mib);
    if (POOLED) {
        CHECK(state >= tmp2 + 256 * 1024); /* above what the temporaries touched */
        CHECK(nn_mem_get_stats().touched <= touched + 3 * mib + 4096 + 64);
    }
    /* The next step's temporaries: the same holes, nothing new touched. */
    touched = nn_mem_get_stats().touched;
    nn_mem_stats s1 = nn_mem_get_stats();
    char *again = nn_mem_alloc(12 * mib, "test", &err);
    char *small = nn_mem_alloc(256 * 1024, "test", &err);
    CHECK(again && small && state[0] == 2 && state[3 * mib - 1] == 2);
    if (POOLED) {
        CHECK(again == tmp);
        CHECK(nn_mem_get_stats().touched == touched);
        CHECK(nn_mem_get_stats().heap_calls == s1.heap_calls);
    }
    nn_mem_free(small);
    nn_mem_free(again);
    nn_mem_free(state);
    nn_mem_free(keep);
    CHECK(nn_mem_get_stats().in_use == s0.in_use);
    nn_mem_trim();
    CHECK(nn_mem_get_stats().cached == 0);
}

/* tensor_mem_thread_caches_keep_stats: threads that take a block from a
 * shared slot (allocated by any thread), check it and free it, then put a
 * new one there. */
#define MEM_SLOTS 64
static _Atomic(char *) mem_slots[MEM_SLOTS];
static atomic_int mem_churn_bad;

static void *mem_thread_churn(void *arg) {
    nn_error err = {0};
    unsigned seed = (unsigned)(uintptr_t)&err;
    for (int i = 0; i < 20000; i++) {
        seed = seed * 1103515245u + 12345u;
        int slot = (int)(seed >> 16) % MEM_SLOTS;
        size_t size = 16 + (seed >> 8) % 20000;
        char *p = atomic_exchange(&mem_slots[slot], NULL);
        if (p) {
            if (p[0] != p[1]) atomic_store(&mem_churn_bad, 1);
            nn_mem_free(p);
        }
        p = nn_mem_alloc(size, "test", &err);
        if (!p) {
            atomic_store(&mem_churn_bad, 1);
            continue;
        }
        p[0] = p[1] = (char)slot;
        p = atomic_exchange(&mem_slots[slot], p);
        nn_mem_free(p);
    }
    (void)arg;
    return NULL;
}

/* The per-thread caches of small blocks (nn_mem.c) keep the stats exact:
 * a block freed into the cache and handed out again counts in in_use and
 * allocs, the peak is what was in use at once, the cap holds for blocks from
 * the cache, and threads that allocate and free each other's blocks at the
 * same time leave in_use where it was once they end. */
NN_TEST(tensor_mem_thread_caches_keep_stats) {
    nn_error err = {0};
    nn_mem_stats s0 = nn_mem_get_stats();
    nn_mem_reset_peak();
    char *a = nn_mem_alloc(1000, "test", &err), *b = nn_mem_alloc(1000, "test", &err);
    CHECK(a && b);
    nn_mem_free(a);
    nn_mem_free(b);
    a = nn_mem_alloc(1000, "test", &err); /* from the cache where there is one */
    nn_mem_stats s1 = nn_mem_get_stats();
    CHECK(s1.allocs == s0.allocs + 3);
    CHECK(s1.in_use == s0.in_use + 1024);
    CHECK(s1.peak == s0.in_use + 2048);
    nn_mem_free(a);
    nn_mem_reset_peak();
    CHECK(nn_mem_get_stats().peak == s0.in_use);
    /* The cap: room for two blocks of 1 KiB, not three, cache or not. */
    nn_mem_set_cap(s0.in_use + 2048);
    a = nn_mem_alloc(1000, "test", &err), b = nn_mem_alloc(1000, "test", &err);
    CHECK(a && b);
    CHECK(nn_mem_alloc(1000, "test", &err) == NULL && err.code == NN_ERR_MEMORY);
    nn_mem_free(a);
    a = nn_mem_alloc(1000, "test", &err);
    CHECK(a != NULL);
    CHECK(nn_mem_alloc(1000, "test", &err) == NULL);
    nn_mem_set_cap(s0.cap);
    nn_mem_free(a);
    nn_mem_free(b);
    CHECK(nn_mem_get_stats().in_use == s0.in_use);
    /* Four threads hand blocks to each other through one array of slots. */
    pthread_t th[4];
    for (int i = 0; i < 4; i++) CHECK(pthread_create(&th[i], NULL, mem_thread_churn, NULL) == 0);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < MEM_SLOTS; i++) {
        char *p = atomic_exchange(&mem_slots[i], NULL);
        if (p) CHECK(p[0] == p[1]);
        nn_mem_free(p);
    }
    CHECK(!mem_churn_bad);
    nn_mem_stats s2 = nn_mem_get_stats();
    CHECK(s2.in_use == s0.in_use);
    CHECK(s2.peak >= s0.in_use);
}

NN_TEST(tensor_mem_cap) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_mem_stats st = nn_mem_get_stats();
    CHECK(st.cap > 0);
    nn_tensor *keep = nn_zeros(ctx, NN_FLOAT64, 1, TU_SHAPE(1000)); /* 8 KB in use */
    nn_mem_set_cap(nn_mem_get_stats().in_use + (1u << 20));
    /* Just under the headroom works; the same again is over the cap. */
    nn_tensor *a = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(150000));
    CHECK(a != NULL);
    nn_tensor *b = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(150000));
    CHECK(b == NULL && nn_ctx_status(ctx) == NN_ERR_MEMORY);
    CHECK(strstr(nn_ctx_error(ctx), "NNDB_MEM_CAP") && strstr(nn_ctx_error(ctx), "[150000]"));
    /* Every creator and op reports the cap instead of crashing. */
    CHECK(nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(150000)) == NULL);
    CHECK(nn_arange(ctx, 0, 300000, 1, NN_FLOAT32) == NULL && nn_ctx_status(ctx) == NN_ERR_MEMORY);
    CHECK(nn_exp(ctx, a) == NULL && nn_ctx_status(ctx) == NN_ERR_MEMORY);
    nn_tensor *same = nn_tensor_contiguous_raw(ctx, a); /* no copy, so no allocation */
    CHECK(same == a);
    nn_tensor_release(same);
    nn_mem_set_cap(st.cap);
    b = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(150000));
    CHECK(b != NULL);
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(keep);
    nn_ctx_free(ctx);
}

NN_TEST(tensor_bad_shapes_are_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    const int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const int64_t eight[8] = {1, 2, 1, 2, 1, 2, 1, 2};
    nn_tensor *t8 = nn_zeros(ctx, NN_FLOAT32, 8, eight);
    CHECK(t8 && t8->ndim == 8 && nn_tensor_numel(t8) == 16);
    nn_tensor_release(t8);
    CHECK(nn_zeros(ctx, NN_FLOAT32, 9, nine) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    CHECK(strstr(nn_ctx_error(ctx), "8") != NULL);
    CHECK(nn_ones(ctx, NN_FLOAT32, -1, nine) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    CHECK(nn_randn(ctx, NN_FLOAT32, 9, nine) == NULL && nn_ctx_status(ctx) == NN_ERR_SHAPE);
    CHECK(nn_tensor_from_doubles(ctx, NN_FLOAT32, 9, nine, TU_VALS(1)) == NULL);
    CHECK(nn_full(ctx, NN_INT64, 2, TU_SHAPE(3, -1), 1) == NULL &&
          nn_ctx_status(ctx) == NN_ERR_SHAPE);
    CHECK(strstr(nn_ctx_error(ctx), "-1") && strstr(nn_ctx_error(ctx), "[3, -1]"));
    /* Products that overflow int64 or size_t: errors, never a wrapped size. */
    const int64_t huge[][3] = {
        {INT64_MAX, 2, 1},        {(int64_t)1 << 32, (int64_t)1 << 32, 1},
        {(int64_t)1 << 62, 1, 1}, {(int64_t)1 << 21, (int64_t)1 << 21, (int64_t)1 << 21},
        {3, INT64_MAX / 2, 5},
    };
    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        nn_ctx_clear_error(ctx);
        nn_tensor *h = nn_zeros(ctx, NN_FLOAT64, 3, huge[i]);
        CHECK_MSG(h == NULL && nn_ctx_status(ctx) == NN_ERR_MEMORY, "huge shape %zu: %s", i,
                  nn_ctx_error(ctx));
        nn_tensor_release(h);
        CHECK(nn_randint(ctx, 0, 2, 3, huge[i]) == NULL);
    }
    /* A zero anywhere makes any other size harmless. */
    nn_tensor *z = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(0, INT64_MAX));
    CHECK(z == NULL || nn_tensor_numel(z) == 0);
    nn_tensor_release(z);
    nn_ctx_free(ctx);
}

/* An empty tensor with an absurd other dim must not overflow the strides. */
NN_TEST(tensor_empty_with_huge_dim_is_an_error) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(0, INT64_MAX, 3));
    CHECK(t == NULL && nn_ctx_status(ctx) == NN_ERR_MEMORY);
    t = nn_zeros(ctx, NN_FLOAT32, 3, TU_SHAPE(0, 1000, 3));
    CHECK(t != NULL && nn_tensor_numel(t) == 0);
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* float -> float16 / bfloat16 round to nearest even: a value exactly
 * between two representable ones goes to the one with an even mantissa. */
NN_TEST(tensor_half_bfloat16_round_to_nearest_even) {
    /* float16 near 1: spacing 2^-10. 1 + 2^-11 ties between 1 (even) and
     * 1 + 2^-10 (odd): goes down; 1 + 3*2^-11 ties up to 1 + 2^-9. */
    CHECK(nn_f32_to_f16(1.0f) == 0x3C00);
    CHECK(nn_f32_to_f16(1.0f + 0x1p-11f) == 0x3C00);
    CHECK(nn_f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3C02);
    CHECK(nn_f32_to_f16(1.0f + 0x1p-11f + 0x1p-20f) == 0x3C01); /* above the tie */
    CHECK(nn_f32_to_f16(65504.0f) == 0x7BFF);
    CHECK(nn_f32_to_f16(65519.0f) == 0x7BFF); /* below the rounding point to inf */
    CHECK(nn_f32_to_f16(65520.0f) == 0x7C00); /* overflows to inf */
    CHECK(nn_f32_to_f16(-INFINITY) == 0xFC00);
    CHECK((nn_f32_to_f16(NAN) & 0x7C00) == 0x7C00 && (nn_f32_to_f16(NAN) & 0x3FF) != 0);
    CHECK(nn_f32_to_f16(0x1p-24f) == 0x0001); /* the smallest subnormal */
    CHECK(nn_f32_to_f16(0x1p-25f) == 0x0000); /* a tie with 0, which is even */
    CHECK(nn_f16_to_f32(0x3555) == 0.333251953125f);
    CHECK(nn_f16_to_f32(0x0001) == 0x1p-24f && isinf(nn_f16_to_f32(0x7C00)));
    /* bfloat16: 1 + 2^-8 ties between 1 and 1 + 2^-7: down; 1 + 3*2^-8 up. */
    CHECK(nn_f32_to_bf16(1.0f + 0x1p-8f) == 0x3F80);
    CHECK(nn_f32_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3F82);
    CHECK(nn_f32_to_bf16(0.1f) == 0x3DCD && nn_bf16_to_f32(0x3DCD) == 0.10009765625f);
    CHECK(nn_f32_to_bf16(NAN) == 0x7FC0 && nn_f32_to_bf16(INFINITY) == 0x7F80);
    /* A double goes through float first, as c10 does. */
    uint16_t h;
    nn_dtype_store(NN_FLOAT16, &h, 0.1);
    CHECK(h == 0x2E66);
}

/* float -> int truncates toward zero through int32 and wraps; int64 ->
 * narrower ints wraps (PyTorch's CPU casts on x86). */
NN_TEST(tensor_int_conversions_wrap) {
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t n = 5;
    nn_tensor *f = nn_tensor_from_doubles(ctx, NN_FLOAT32, 1, &n,
                                          (const double[]){-3.7, 300.0, 1e10, NAN, -1.5});
    nn_tensor *i8 = nn_tensor_cast_raw(ctx, f, NN_INT8), *u8 = nn_tensor_cast_raw(ctx, f, NN_UINT8);
    nn_tensor *i32 = nn_tensor_cast_raw(ctx, f, NN_INT32);
    CHECK(i8 && u8 && i32);
    if (i8 && u8 && i32) {
        CHECK(nn_tensor_get_flat_int(i8, 0) == -3 && nn_tensor_get_flat_int(i8, 1) == 44);
        CHECK(nn_tensor_get_flat_int(i8, 2) == 0 && nn_tensor_get_flat_int(i8, 3) == 0);
        CHECK(nn_tensor_get_flat_int(u8, 1) == 44 && nn_tensor_get_flat_int(u8, 4) == 255);
        CHECK(nn_tensor_get_flat_int(i32, 2) == INT32_MIN &&
              nn_tensor_get_flat_int(i32, 3) == INT32_MIN);
    }
    int64_t two = 2;
    nn_tensor *big = nn_tensor_from_data(ctx, NN_INT64, 1, &two, (const int64_t[]){200, -200});
    nn_tensor *w = big ? nn_tensor_cast_raw(ctx, big, NN_INT8) : NULL;
    CHECK(w && nn_tensor_get_flat_int(w, 0) == -56 && nn_tensor_get_flat_int(w, 1) == 56);
    CHECK(nn_dtype_promote_types(NN_INT8, NN_UINT8) == NN_INT16);
    CHECK(nn_dtype_promote_types(NN_FLOAT16, NN_BFLOAT16) == NN_FLOAT32);
    CHECK(nn_dtype_promote_types(NN_INT32, NN_INT64) == NN_INT64);
    CHECK(nn_dtype_promote_types(NN_INT8, NN_FLOAT16) == NN_FLOAT16);
    CHECK(!nn_dtype_value_fits(NN_UINT8, 300) && nn_dtype_value_fits(NN_INT8, -3.7));
    nn_tensor *ts[] = {f, i8, u8, i32, big, w};
    for (int i = 0; i < 6; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}
