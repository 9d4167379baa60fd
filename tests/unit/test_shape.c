/* Shape and indexing ops: view geometry (shared storage, strides, offsets),
 * copies, every error case, in-place assignment, and finite-difference
 * gradient checks in float64 for each differentiable op. */
#include <stdarg.h>

#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)
#define V(...) TU_VALS(__VA_ARGS__)

/* Release every tensor in a NULL-terminated list. */
static void rel(nn_tensor *t, ...) {
    va_list ap;
    va_start(ap, t);
    while (t) {
        nn_tensor_release(t);
        t = va_arg(ap, nn_tensor *);
    }
    va_end(ap);
}

/* 0, 1, 2, ... in row-major order. */
static nn_tensor *seq(nn_ctx *ctx, nn_dtype dt, int nd, const int64_t *shape) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, nd, shape);
    for (int64_t i = 0; i < nn_tensor_numel(t); i++) nn_tensor_set_flat(t, i, (double)i);
    return t;
}

static nn_tensor *ints(nn_ctx *ctx, int nd, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_INT64, nd, shape, v);
}

/* A float64 leaf that requires grad, with random values. */
static nn_tensor *leaf(nn_ctx *ctx, int nd, const int64_t *shape) {
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, nd, shape);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

static bool has(nn_ctx *ctx, const char *what) {
    bool ok = strstr(nn_ctx_error(ctx), what) != NULL;
    if (!ok) fprintf(stderr, "  error \"%s\" lacks \"%s\"\n", nn_ctx_error(ctx), what);
    return ok;
}

static bool strides_are(const nn_tensor *t, int nd, const int64_t *st) {
    if (!t || t->ndim != nd) return false;
    for (int i = 0; i < nd; i++)
        if (t->strides[i] != st[i]) return false;
    return true;
}

/* ---- geometry ---- */

NN_TEST(shape_reshape_is_a_view_when_it_can_be) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT32, 3, S(2, 3, 4));
    nn_tensor *y = nn_reshape(ctx, x, 2, S(4, -1));
    CHECK(y && y->storage == x->storage && y->shape[1] == 6 && strides_are(y, 2, S(6, 1)));
    nn_tensor_set_flat(y, 5, 100);
    CHECK(nn_tensor_get_flat(x, 5) == 100); /* writes show through */
    /* A transposed tensor can still be split along a dim without copying. */
    nn_tensor *t = nn_transpose(ctx, x, 0, 2); /* [4, 3, 2] strides [1, 4, 12] */
    nn_tensor *u = nn_reshape(ctx, t, 4, S(2, 2, 3, 2));
    CHECK(u && u->storage == x->storage && strides_are(u, 4, S(2, 1, 4, 12)));
    /* Merging dims that are not adjacent in memory copies. */
    nn_tensor *c = nn_reshape(ctx, t, 1, S(24));
    CHECK(c && c->storage != x->storage && strides_are(c, 1, S(1)));
    CHECK(c && nn_tensor_get_flat(c, 1) == 12 && nn_tensor_get_flat(c, 2) == 4);
    /* view of the same is an error that says what to do, in PyTorch's words. */
    CHECK(nn_view(ctx, t, 1, S(24)) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK(has(ctx, "view size is not compatible") && has(ctx, "Use .reshape(...) instead."));
    nn_tensor *v = nn_view(ctx, x, 3, S(6, 1, 4));
    CHECK(v && v->storage == x->storage);
    /* A scalar and a [1, 1] tensor reshape both ways. */
    nn_tensor *s = nn_reshape(ctx, v, 3, S(1, -1, 1));
    CHECK(s && s->shape[1] == 24);
    rel(x, y, t, u, c, v, s, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_reshape_errors_in_pytorchs_words) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT32, 2, S(2, 3));
    CHECK(nn_reshape(ctx, x, 2, S(4, 2)) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK(has(ctx, "shape '[4, 2]' is invalid for input of size 6"));
    CHECK(nn_reshape(ctx, x, 2, S(4, -1)) == NULL && has(ctx, "shape '[4, -1]' is invalid"));
    CHECK(nn_reshape(ctx, x, 2, S(-1, -1)) == NULL &&
          has(ctx, "only one dimension can be inferred"));
    CHECK(nn_reshape(ctx, x, 2, S(-2, -3)) == NULL && has(ctx, "invalid shape dimension -2"));
    CHECK(nn_reshape(ctx, x, 9, S(1, 1, 1, 1, 1, 1, 1, 2, 3)) == NULL && has(ctx, "at most"));
    nn_tensor *e = nn_zeros(ctx, NN_FLOAT32, 2, S(0, 3));
    CHECK(nn_reshape(ctx, e, 2, S(0, -1)) == NULL && has(ctx, "can be any value and is ambiguous"));
    nn_tensor *e2 = nn_reshape(ctx, e, 3, S(3, 0, 5));
    CHECK(e2 && nn_tensor_numel(e2) == 0);
    CHECK(nn_reshape(ctx, NULL, 1, S(1)) == NULL && ctx->err.code == NN_ERR_VALUE);
    CHECK(nn_flatten(ctx, x, 1, 0) == NULL && has(ctx, "start_dim"));
    CHECK(nn_flatten(ctx, x, 0, 2) == NULL && ctx->err.code == NN_ERR_INDEX);
    nn_tensor *f = nn_flatten(ctx, x, 0, -1);
    CHECK(f && f->ndim == 1 && f->shape[0] == 6 && f->storage == x->storage);
    rel(x, e, e2, f, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_permute_and_transpose_strides) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_INT64, 3, S(2, 3, 4));
    nn_tensor *p = nn_permute(ctx, x, S(2, 0, -2));
    CHECK(p && p->storage == x->storage && p->shape[0] == 4 && p->shape[1] == 2 &&
          p->shape[2] == 3 && strides_are(p, 3, S(1, 12, 4)));
    CHECK(p && !nn_tensor_is_contiguous(p) && nn_tensor_get_flat(p, 1) == 4);
    nn_tensor *t = nn_transpose(ctx, x, -1, 0);
    CHECK(t && strides_are(t, 3, S(1, 4, 12)) && t->shape[0] == 4 && t->shape[2] == 2);
    CHECK(nn_permute(ctx, x, S(0, 1, 1)) == NULL && ctx->err.code == NN_ERR_VALUE &&
          has(ctx, "twice"));
    CHECK(nn_permute(ctx, x, S(0, 1, 3)) == NULL && ctx->err.code == NN_ERR_INDEX &&
          has(ctx, "dim 3 is out of range"));
    CHECK(nn_transpose(ctx, x, 0, -4) == NULL && ctx->err.code == NN_ERR_INDEX);
    rel(x, p, t, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_squeeze_and_unsqueeze) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_BOOL, 4, S(1, 3, 1, 2));
    nn_tensor *a = nn_squeeze(ctx, x, NN_ALL_DIMS);
    CHECK(a && a->ndim == 2 && a->shape[0] == 3 && a->storage == x->storage);
    nn_tensor *b = nn_squeeze(ctx, x, -2);
    CHECK(b && b->ndim == 3 && b->shape[2] == 2);
    nn_tensor *c = nn_squeeze(ctx, x, 1); /* size 3: a no-op, as in PyTorch */
    CHECK(c && c != x && nn_tensor_same_shape(c, x) && c->storage == x->storage);
    CHECK(nn_squeeze(ctx, x, 4) == NULL && ctx->err.code == NN_ERR_INDEX);
    nn_tensor *d = nn_unsqueeze(ctx, x, -1);
    CHECK(d && d->ndim == 5 && d->shape[4] == 1 && d->storage == x->storage);
    nn_tensor *e = nn_unsqueeze(ctx, x, 0);
    CHECK(e && e->ndim == 5 && e->shape[0] == 1 && e->shape[2] == 3);
    CHECK(nn_unsqueeze(ctx, x, 5) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_unsqueeze(ctx, x, -6) == NULL);
    nn_tensor *s = nn_scalar(ctx, 3, NN_FLOAT64);
    nn_tensor *s1 = nn_unsqueeze(ctx, s, 0), *s0 = nn_squeeze(ctx, s1, 0);
    CHECK(s1 && s1->ndim == 1 && s0 && s0->ndim == 0 && nn_tensor_get_flat(s0, 0) == 3);
    nn_tensor *big = nn_zeros(ctx, NN_FLOAT32, 8, S(1, 1, 1, 1, 1, 1, 1, 2));
    CHECK(nn_unsqueeze(ctx, big, 0) == NULL && has(ctx, "at most 8"));
    rel(x, a, b, c, d, e, s, s1, s0, big, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_expand_uses_stride_zero) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT32, 2, S(3, 1));
    nn_tensor *e = nn_expand(ctx, x, 3, S(2, -1, 4));
    CHECK(e && e->storage == x->storage && strides_are(e, 3, S(0, 1, 0)) && e->shape[0] == 2 &&
          e->shape[1] == 3 && e->shape[2] == 4);
    CHECK(e && nn_tensor_get_flat(e, 4) == 1 && nn_tensor_get_flat(e, 23) == 2);
    nn_tensor *y = seq(ctx, NN_FLOAT32, 2, S(3, 2));
    CHECK(nn_expand(ctx, y, 2, S(3, 4)) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK(has(ctx, "The expanded size of the tensor (4) must match the existing size (2) at "
                   "non-singleton dimension 1.  Target sizes: [3, 4].  Tensor sizes: [3, 2]"));
    CHECK(nn_expand(ctx, y, 3, S(-1, 3, 2)) == NULL && has(ctx, "non-existing dimension 0"));
    CHECK(nn_expand(ctx, y, 1, S(2)) == NULL && has(ctx, "fewer dims"));
    CHECK(nn_expand(ctx, y, 2, S(3, -3)) == NULL && ctx->err.code == NN_ERR_SHAPE);
    nn_tensor *z = nn_expand(ctx, x, 2, S(3, 0)); /* size 1 may expand to 0 */
    CHECK(z && nn_tensor_numel(z) == 0);
    /* contiguous() of an expanded view materialises the repeats. */
    nn_tensor *c = nn_contiguous(ctx, e);
    CHECK(c && c->storage != x->storage && nn_tensor_is_contiguous(c) &&
          nn_tensor_get_flat(c, 13) == 0);
    rel(x, e, y, z, c, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_contiguous_copies_only_when_needed) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT64, 2, S(2, 3));
    nn_tensor *same = nn_contiguous(ctx, x);
    CHECK(same == x && x->refcount == 2);
    nn_tensor *t = nn_transpose(ctx, x, 0, 1);
    nn_tensor *c = nn_contiguous(ctx, t);
    CHECK(c && c->storage != x->storage && strides_are(c, 2, S(2, 1)));
    CHECK(tu_close(c, 2, S(3, 2), V(0, 3, 1, 4, 2, 5), 0, 0, "contiguous(x.T)"));
    rel(same, x, t, c, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_slice_geometry_and_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT32, 2, S(5, 6));
    nn_tensor *a = nn_slice(ctx, x, 1, 1, 6, 2);
    CHECK(a && a->storage == x->storage && a->offset == 1 && a->shape[1] == 3 &&
          strides_are(a, 2, S(6, 2)));
    CHECK(tu_close(a, 2, S(5, 3), V(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29), 0, 0,
                   "x[:, 1:6:2]"));
    nn_tensor *b = nn_slice(ctx, x, 0, -4, -1, 1);
    CHECK(b && b->shape[0] == 3 && b->offset == 6);
    nn_tensor *c = nn_slice(ctx, x, -1, -100, 100, 1);
    CHECK(c && nn_tensor_same_shape(c, x) && c->offset == 0);
    nn_tensor *d = nn_slice(ctx, x, 0, 3, 1, 1);
    CHECK(d && d->shape[0] == 0 && d->shape[1] == 6);
    nn_tensor *e = nn_slice(ctx, x, 0, 7, NN_SLICE_END, 1);
    CHECK(e && e->shape[0] == 0);
    nn_tensor *f = nn_slice(ctx, a, 1, 1, NN_SLICE_END, 1); /* slice of a slice */
    CHECK(f && f->offset == 3 && f->shape[1] == 2 && f->strides[1] == 2);
    CHECK(nn_slice(ctx, x, 0, 0, 5, 0) == NULL && ctx->err.code == NN_ERR_VALUE &&
          has(ctx, "step must be positive"));
    CHECK(nn_slice(ctx, x, 0, 5, 0, -1) == NULL && has(ctx, "flip"));
    CHECK(nn_slice(ctx, x, 2, 0, 1, 1) == NULL && ctx->err.code == NN_ERR_INDEX);
    nn_tensor *s = nn_scalar(ctx, 1, NN_FLOAT32);
    CHECK(nn_slice(ctx, s, 0, 0, 1, 1) == NULL && has(ctx, "0-dim"));
    rel(x, a, b, c, d, e, f, s, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_select_geometry_and_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_INT64, 3, S(2, 3, 4));
    nn_tensor *a = nn_select(ctx, x, 1, -1);
    CHECK(a && a->storage == x->storage && a->offset == 8 && strides_are(a, 2, S(12, 1)));
    CHECK(tu_close(a, 2, S(2, 4), V(8, 9, 10, 11, 20, 21, 22, 23), 0, 0, "x[:, -1]"));
    nn_tensor *b = nn_select(ctx, a, 0, 1);
    nn_tensor *c = b ? nn_select(ctx, b, 0, 3) : NULL;
    CHECK(c && c->ndim == 0 && nn_tensor_get_flat(c, 0) == 23);
    CHECK(nn_select(ctx, x, 1, 3) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(has(ctx, "index 3") && has(ctx, "dim 1 of size 3"));
    CHECK(nn_select(ctx, x, 2, -5) == NULL && has(ctx, "index -5") && has(ctx, "size 4"));
    CHECK(nn_select(ctx, c, 0, 0) == NULL && has(ctx, "0-dim"));
    rel(x, a, b, c, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_cat_values_dtypes_and_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = seq(ctx, NN_FLOAT32, 2, S(2, 2));
    nn_tensor *b = tu_tensor(ctx, NN_FLOAT64, 2, S(2, 1), V(10, 20));
    nn_tensor *ab[2] = {a, b};
    nn_tensor *c = nn_cat(ctx, ab, 2, -1);
    CHECK(c && c->dtype == NN_FLOAT64);
    CHECK(tu_close(c, 2, S(2, 3), V(0, 1, 10, 2, 3, 20), 0, 0, "cat promote"));
    /* More inputs than a node holds inline. */
    nn_tensor *p[6];
    for (int i = 0; i < 6; i++) p[i] = nn_full(ctx, NN_INT64, 1, S(i + 1), i);
    nn_tensor *many = nn_cat(ctx, p, 6, 0);
    CHECK(many && many->dtype == NN_INT64 && many->shape[0] == 21 &&
          nn_tensor_get_flat(many, 20) == 5 && nn_tensor_get_flat(many, 2) == 1 &&
          nn_tensor_get_flat(many, 3) == 2);
    nn_tensor *bools[2] = {nn_ones(ctx, NN_BOOL, 1, S(2)), nn_zeros(ctx, NN_BOOL, 1, S(1))};
    nn_tensor *cb = nn_cat(ctx, bools, 2, 0);
    CHECK(cb && cb->dtype == NN_BOOL && tu_close(cb, 1, S(3), V(1, 1, 0), 0, 0, "cat bool"));
    /* Errors. */
    nn_tensor *d = seq(ctx, NN_FLOAT32, 2, S(3, 2));
    nn_tensor *ad[2] = {a, d};
    CHECK(nn_cat(ctx, ad, 2, 1) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK(has(ctx, "Sizes of tensors must match except in dimension 1. Expected size 2 but got "
                   "size 3 for tensor number 1 in the list."));
    nn_tensor *ok = nn_cat(ctx, ad, 2, 0);
    CHECK(ok && ok->shape[0] == 5);
    CHECK(nn_cat(ctx, ab, 2, 2) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_cat(ctx, ab, 0, 0) == NULL && has(ctx, "at least one"));
    nn_tensor *s = nn_scalar(ctx, 1, NN_FLOAT32);
    nn_tensor *ss[2] = {s, s};
    CHECK(nn_cat(ctx, ss, 2, 0) == NULL && has(ctx, "zero-dimensional tensor (at position 0)"));
    nn_tensor *v3 = nn_zeros(ctx, NN_FLOAT32, 3, S(2, 2, 1));
    nn_tensor *a3[2] = {a, v3};
    CHECK(nn_cat(ctx, a3, 2, 0) == NULL && has(ctx, "same number of dimensions: got 2 and 3"));
    nn_tensor *withnull[2] = {a, NULL};
    CHECK(nn_cat(ctx, withnull, 2, 0) == NULL && has(ctx, "missing"));
    rel(a, b, c, many, bools[0], bools[1], cb, d, ok, s, v3, NULL);
    for (int i = 0; i < 6; i++) nn_tensor_release(p[i]);
    nn_ctx_free(ctx);
}

NN_TEST(shape_stack_split_chunk) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = seq(ctx, NN_FLOAT32, 1, S(3)), *b = nn_full(ctx, NN_FLOAT32, 1, S(3), 9);
    nn_tensor *ab[2] = {a, b};
    nn_tensor *s = nn_stack(ctx, ab, 2, -1);
    CHECK(tu_close(s, 2, S(3, 2), V(0, 9, 1, 9, 2, 9), 0, 0, "stack dim -1"));
    nn_tensor *c = nn_ones(ctx, NN_FLOAT32, 1, S(4));
    nn_tensor *ac[2] = {a, c};
    CHECK(nn_stack(ctx, ac, 2, 0) == NULL && has(ctx, "but got [3] at entry 0 and [4] at entry 1"));
    CHECK(nn_stack(ctx, ab, 2, 2) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(nn_stack(ctx, ab, 0, 0) == NULL);

    nn_tensor *x = seq(ctx, NN_FLOAT32, 2, S(7, 2)), *out[8];
    int n = -1;
    CHECK(nn_split(ctx, x, 3, 0, out, 8, &n) == NN_OK && n == 3);
    CHECK(n == 3 && out[0]->shape[0] == 3 && out[2]->shape[0] == 1 &&
          out[2]->storage == x->storage && nn_tensor_get_flat(out[2], 1) == 13);
    for (int i = 0; i < n; i++) nn_tensor_release(out[i]);
    CHECK(nn_chunk(ctx, x, 3, 0, out, 8, &n) == NN_OK && n == 3 && out[2]->shape[0] == 1);
    for (int i = 0; i < n; i++) nn_tensor_release(out[i]);
    /* torch.chunk(6 rows, 4) gives 3 pieces of 2. */
    nn_tensor *y = seq(ctx, NN_FLOAT32, 1, S(6));
    CHECK(nn_chunk(ctx, y, 4, -1, out, 8, &n) == NN_OK && n == 3 && out[2]->shape[0] == 2);
    for (int i = 0; i < n; i++) nn_tensor_release(out[i]);
    nn_tensor *e = nn_zeros(ctx, NN_FLOAT32, 1, S(0));
    CHECK(nn_chunk(ctx, e, 3, 0, out, 8, &n) == NN_OK && n == 3 && out[1]->shape[0] == 0);
    for (int i = 0; i < n; i++) nn_tensor_release(out[i]);
    CHECK(nn_split(ctx, x, 1, 0, out, 4, &n) != NN_OK && has(ctx, "room for only 4") && n == 0);
    CHECK(nn_split(ctx, x, 0, 0, out, 8, &n) == NN_ERR_VALUE);
    CHECK(nn_chunk(ctx, x, 0, 0, out, 8, &n) == NN_ERR_VALUE);
    CHECK(nn_split(ctx, x, 2, 2, out, 8, &n) == NN_ERR_INDEX);
    rel(a, b, s, c, x, y, e, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_index_values_and_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT32, 2, S(4, 5));
    nn_tensor *rows = ints(ctx, 1, S(4), V(0, 1, 2, 3)), *cols = ints(ctx, 1, S(4), V(4, 0, -1, 2));
    nn_tensor *rc[2] = {rows, cols};
    nn_tensor *g = nn_index(ctx, x, 0, rc, 2); /* logits[arange(n), y] */
    CHECK(tu_close(g, 1, S(4), V(4, 5, 14, 17), 0, 0, "x[arange, y]"));
    nn_tensor *col = ints(ctx, 2, S(2, 1), V(-1, 0));
    nn_tensor *h = nn_index(ctx, x, -1, &col, 1); /* x[:, [[-1], [0]]] */
    CHECK(tu_close(h, 3, S(4, 2, 1), V(4, 0, 9, 5, 14, 10, 19, 15), 0, 0, "x[:, idx2d]"));
    /* Errors name the offending value and the dim size. */
    nn_tensor *bad = ints(ctx, 1, S(3), V(0, 7, 1));
    CHECK(nn_index(ctx, x, 1, &bad, 1) == NULL && ctx->err.code == NN_ERR_INDEX);
    CHECK(has(ctx, "index 7") && has(ctx, "dim 1 of size 5"));
    nn_tensor *neg = ints(ctx, 1, S(1), V(-5));
    CHECK(nn_index(ctx, x, 0, &neg, 1) == NULL && has(ctx, "index -5") && has(ctx, "size 4"));
    nn_tensor *fl = nn_zeros(ctx, NN_FLOAT32, 1, S(2));
    CHECK(nn_index(ctx, x, 0, &fl, 1) == NULL && ctx->err.code == NN_ERR_TYPE && has(ctx, "int64"));
    nn_tensor *bm = nn_zeros(ctx, NN_BOOL, 1, S(4));
    CHECK(nn_index(ctx, x, 0, &bm, 1) == NULL && has(ctx, "masked_select"));
    nn_tensor *r3 = ints(ctx, 1, S(3), V(0, 1, 2));
    nn_tensor *mis[2] = {r3, rows};
    CHECK(nn_index(ctx, x, 0, mis, 2) == NULL && ctx->err.code == NN_ERR_INDEX &&
          has(ctx, "indexing tensors could not be broadcast together with shapes [3], [4]"));
    nn_tensor *three[3] = {rows, rows, rows};
    CHECK(nn_index(ctx, x, 0, three, 3) == NULL && has(ctx, "shape [4, 5]"));
    CHECK(nn_index(ctx, x, 0, three, 0) == NULL && has(ctx, "at least one"));
    CHECK(nn_index(ctx, x, 2, &rows, 1) == NULL && ctx->err.code == NN_ERR_INDEX);
    nn_tensor *sc = nn_scalar(ctx, 1, NN_FLOAT32);
    CHECK(nn_index(ctx, sc, 0, &rows, 1) == NULL && has(ctx, "0-dim"));
    /* Every dtype gathers. */
    nn_tensor *xb = nn_gt(ctx, x, sc), *rep = ints(ctx, 1, S(3), V(1, 1, 0));
    nn_tensor *gb = nn_index(ctx, xb, 0, &rep, 1);
    CHECK(gb && gb->dtype == NN_BOOL && gb->shape[0] == 3 && nn_tensor_get_flat(gb, 1) == 1 &&
          nn_tensor_get_flat(gb, 11) == 0 && nn_tensor_get_flat(gb, 12) == 1);
    nn_tensor *empty = nn_tensor_empty(ctx, NN_INT64, 1, S(0));
    nn_tensor *ge = nn_index(ctx, x, 0, &empty, 1);
    CHECK(ge && ge->ndim == 2 && ge->shape[0] == 0 && ge->shape[1] == 5);
    rel(x, rows, cols, g, col, h, bad, neg, fl, bm, r3, sc, xb, rep, gb, empty, ge, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_masked_select_values_and_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_FLOAT64, 2, S(3, 2));
    nn_tensor *m = tu_tensor(ctx, NN_BOOL, 2, S(3, 2), V(1, 0, 0, 1, 1, 1));
    nn_tensor *a = nn_masked_select(ctx, x, m);
    CHECK(tu_close(a, 1, S(4), V(0, 3, 4, 5), 0, 0, "x[m]"));
    nn_tensor *lm = tu_tensor(ctx, NN_BOOL, 1, S(3), V(0, 1, 1));
    nn_tensor *b = nn_masked_select(ctx, x, lm);
    CHECK(tu_close(b, 2, S(2, 2), V(2, 3, 4, 5), 0, 0, "x[rows]"));
    nn_tensor *im = nn_zeros(ctx, NN_INT64, 2, S(3, 2));
    CHECK(nn_masked_select(ctx, x, im) == NULL && ctx->err.code == NN_ERR_TYPE && has(ctx, "bool"));
    nn_tensor *wm = nn_zeros(ctx, NN_BOOL, 1, S(2));
    CHECK(nn_masked_select(ctx, x, wm) == NULL && ctx->err.code == NN_ERR_SHAPE &&
          has(ctx, "[2]") && has(ctx, "[3, 2]") && has(ctx, "expand()"));
    CHECK(nn_masked_select(ctx, x, NULL) == NULL && has(ctx, "missing"));
    rel(x, m, a, lm, b, im, wm, NULL);
    nn_ctx_free(ctx);
}

/* ---- in-place assignment ---- */

NN_TEST(shape_index_put_plants_a_nan) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, S(2, 3));
    nn_tensor *i = nn_scalar(ctx, 0, NN_INT64), *j = nn_scalar(ctx, 1, NN_INT64);
    nn_tensor *ij[2] = {i, j}, *nanv = nn_scalar_wrapped(ctx, NAN);
    uint32_t v0 = x->storage->version;
    CHECK(nn_index_put_(ctx, x, 0, ij, 2, nanv) == NN_OK); /* x[0, 1] = nan */
    CHECK(x->storage->version == v0 + 1);
    CHECK(tu_close(x, 2, S(2, 3), V(0, NAN, 0, 0, 0, 0), 0, 0, "x[0, 1] = nan"));
    /* The value broadcasts over the selected region: x[:, [2, 0]] = [[7], [8]]. */
    nn_tensor *cols = ints(ctx, 1, S(2), V(2, 0));
    nn_tensor *val = tu_tensor(ctx, NN_FLOAT64, 2, S(2, 1), V(7, 8));
    CHECK(nn_index_put_(ctx, x, 1, &cols, 1, val) == NN_OK);
    CHECK(tu_close(x, 2, S(2, 3), V(7, NAN, 7, 8, 0, 8), 0, 0, "x[:, idx] = v"));
    /* Through a view, the base sees the write. */
    nn_tensor *t = nn_transpose(ctx, x, 0, 1);
    nn_tensor *one = nn_scalar(ctx, 1, NN_INT64), *five = nn_scalar_wrapped(ctx, 5);
    CHECK(nn_index_put_(ctx, t, 0, &one, 1, five) == NN_OK); /* x.T[1] = 5 */
    CHECK(tu_close(x, 2, S(2, 3), V(7, 5, 7, 8, 5, 8), 0, 0, "x.T[1] = 5"));
    /* A value read from the same storage sees the old data: x[[0, 1]] = x[[1, 0]]. */
    nn_tensor *r01 = ints(ctx, 1, S(2), V(0, 1)), *r10 = ints(ctx, 1, S(2), V(1, 0));
    nn_tensor *sw = nn_index(ctx, x, 0, &r10, 1);
    nn_tensor *swv = sw ? nn_reshape(ctx, sw, 2, S(2, 3)) : NULL;
    nn_tensor *xv = nn_reshape(ctx, x, 2, S(2, 3)); /* a view of x as the value */
    nn_tensor *sw2 = nn_index(ctx, xv, 0, &r10, 1);
    CHECK(nn_index_put_(ctx, x, 0, &r01, 1, sw2) == NN_OK);
    CHECK(tu_close(x, 2, S(2, 3), V(8, 5, 8, 7, 5, 7), 0, 0, "row swap"));
    /* Errors. */
    nn_tensor *wrong = nn_zeros(ctx, NN_FLOAT32, 1, S(3));
    CHECK(nn_index_put_(ctx, x, 1, &cols, 1, wrong) == NN_ERR_SHAPE && has(ctx, "[3]") &&
          has(ctx, "[2, 2]"));
    nn_tensor *bad = ints(ctx, 1, S(1), V(3));
    CHECK(nn_index_put_(ctx, x, 0, &bad, 1, five) == NN_ERR_INDEX && has(ctx, "index 3"));
    CHECK(nn_index_put_(ctx, x, 0, &one, 1, NULL) == NN_ERR_VALUE);
    rel(x, i, j, nanv, cols, val, t, one, five, r01, r10, sw, swv, xv, sw2, wrong, bad, NULL);
    nn_ctx_free(ctx);
}

NN_TEST(shape_masked_fill_and_grad_rules) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = seq(ctx, NN_INT64, 2, S(3, 2));
    nn_tensor *m = tu_tensor(ctx, NN_BOOL, 1, S(3), V(1, 0, 1));
    nn_tensor *v = ints(ctx, 1, S(2), V(-1, -2));
    uint32_t v0 = x->storage->version;
    CHECK(nn_masked_fill_(ctx, x, m, v) == NN_OK && x->storage->version == v0 + 1);
    CHECK(tu_close(x, 2, S(3, 2), V(-1, -2, 2, 3, -1, -2), 0, 0, "x[rows] = v"));
    /* A leaf that requires grad needs no_grad, as in PyTorch. */
    nn_tensor *w = nn_randn(ctx, NN_FLOAT64, 2, S(3, 2));
    nn_tensor_requires_grad_(ctx, w, true);
    nn_tensor *inf = nn_scalar_wrapped(ctx, INFINITY);
    CHECK(nn_masked_fill_(ctx, w, m, inf) == NN_ERR_RUNTIME && has(ctx, "no_grad"));
    nn_tensor *zero = nn_scalar(ctx, 0, NN_INT64);
    CHECK(nn_index_put_(ctx, w, 0, &zero, 1, inf) == NN_ERR_RUNTIME);
    bool prev = nn_ctx_set_grad(ctx, false);
    CHECK(nn_masked_fill_(ctx, w, m, inf) == NN_OK);
    nn_ctx_set_grad(ctx, prev);
    CHECK(isinf(nn_tensor_get_flat(w, 0)) && !isinf(nn_tensor_get_flat(w, 2)));
    /* A tensor with history cannot be written in place at all. */
    nn_tensor *y = nn_exp(ctx, w);
    CHECK(nn_masked_fill_(ctx, y, m, inf) == NN_ERR_RUNTIME && has(ctx, "history"));
    /* A write into a saved input makes a later backward fail clearly. */
    nn_tensor *z = nn_mul(ctx, w, w);
    prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *dw = nn_tensor_detach(ctx, w);
    CHECK(nn_masked_fill_(ctx, dw, m, zero) == NN_OK);
    nn_ctx_set_grad(ctx, prev);
    nn_tensor *up = nn_ones(ctx, NN_FLOAT64, 2, S(3, 2));
    CHECK(nn_backward(ctx, z, up, false) == NN_ERR_RUNTIME &&
          has(ctx, "modified by an inplace operation"));
    CHECK(nn_masked_fill_(ctx, x, v, v) == NN_ERR_TYPE);
    nn_tensor *big = nn_zeros(ctx, NN_INT64, 1, S(3));
    CHECK(nn_masked_fill_(ctx, x, m, big) == NN_ERR_SHAPE);
    rel(x, m, v, w, inf, zero, y, z, dw, up, big, NULL);
    nn_ctx_free(ctx);
}

/* ---- gradients by finite differences (float64) ---- */

typedef struct shape_arg {
    int which;
} shape_arg;

static nn_tensor *view_chain(nn_ctx *ctx, nn_tensor **in, void *argp) {
    const shape_arg *a = argp;
    nn_tensor *x = in[0], *t = NULL, *r = NULL;
    switch (a->which) {
    case 0: r = nn_reshape(ctx, x, 2, S(-1, 6)); break; /* view */
    case 1:                                             /* copy: non-contiguous input */
        t = nn_transpose(ctx, x, 0, 2);
        r = nn_reshape(ctx, t, 2, S(6, -1));
        break;
    case 2: r = nn_view(ctx, x, 4, S(2, 1, 3, 4)); break;
    case 3: r = nn_flatten(ctx, x, 0, 1); break;
    case 4: r = nn_permute(ctx, x, S(1, -1, 0)); break;
    case 5: r = nn_transpose(ctx, x, 0, -1); break;
    case 6:
        t = nn_unsqueeze(ctx, x, 1);
        r = nn_squeeze(ctx, t, NN_ALL_DIMS);
        break;
    case 7: /* new dims and a size-1 dim, over a non-contiguous input */
        t = nn_slice(ctx, x, 1, 1, 2, 1);
        r = nn_expand(ctx, t, 4, S(3, 2, 5, 4));
        break;
    case 8:
        t = nn_transpose(ctx, x, 1, 2);
        r = nn_contiguous(ctx, t);
        break;
    case 9: r = nn_slice(ctx, x, -1, -3, NN_SLICE_END, 2); break;
    case 10:
        t = nn_permute(ctx, x, S(2, 0, 1));
        r = nn_slice(ctx, t, 1, 1, 100, 1);
        break;
    case 11: r = nn_select(ctx, x, 1, -2); break;
    case 12:
        t = nn_transpose(ctx, x, 0, 1);
        r = nn_select(ctx, t, 2, 3);
        break;
    }
    nn_tensor_release(t);
    return r;
}

NN_TEST(shape_gradcheck_views_and_copies) {
    static const char *names[] = {"reshape view",      "reshape copy",   "view",
                                  "flatten",           "permute",        "transpose",
                                  "squeeze/unsqueeze", "expand",         "contiguous",
                                  "slice step",        "slice permuted", "select",
                                  "select transposed"};
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *x = leaf(ctx, 3, S(2, 3, 4));
    for (int k = 0; k < 13; k++) {
        shape_arg a = {k};
        CHECK_MSG(tu_gradcheck(ctx, names[k], view_chain, &x, 1, &a, 1e-6, 1e-7, 1e-9), "%s",
                  names[k]);
    }
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

static nn_tensor *cat_fn(nn_ctx *ctx, nn_tensor **in, void *argp) {
    const shape_arg *a = argp;
    if (a->which == 0) {
        /* Five inputs (more than a node holds inline), one non-contiguous. */
        nn_tensor *t = nn_transpose(ctx, in[1], 0, 1);
        nn_tensor *parts[5] = {in[0], t, in[2], in[0], in[3]};
        nn_tensor *r = t ? nn_cat(ctx, parts, 5, 1) : NULL;
        nn_tensor_release(t);
        return r;
    }
    nn_tensor *parts[3] = {in[0], in[2], in[0]};
    return nn_stack(ctx, parts, 3, -2);
}

NN_TEST(shape_gradcheck_cat_and_stack) {
    nn_ctx *ctx = nn_ctx_new(2);
    nn_tensor *in[4] = {leaf(ctx, 2, S(3, 2)), leaf(ctx, 2, S(1, 3)), leaf(ctx, 2, S(3, 2)),
                        leaf(ctx, 2, S(3, 4))};
    shape_arg c = {0}, s = {1};
    CHECK(tu_gradcheck(ctx, "cat of 5", cat_fn, in, 4, &c, 1e-6, 1e-7, 1e-9));
    CHECK(tu_gradcheck(ctx, "stack", cat_fn, in, 4, &s, 1e-6, 1e-7, 1e-9));
    rel(in[0], in[1], in[2], in[3], NULL);
    nn_ctx_free(ctx);
}

/* Split and chunk pieces weighted differently, then joined, so each
 * piece's gradient is checked in place. */
static nn_tensor *split_fn(nn_ctx *ctx, nn_tensor **in, void *argp) {
    const shape_arg *a = argp;
    nn_tensor *p[8], *w[8];
    int n = 0;
    nn_status st =
        a->which ? nn_chunk(ctx, in[0], 3, -1, p, 8, &n) : nn_split(ctx, in[0], 2, 0, p, 8, &n);
    if (st) return NULL;
    for (int i = 0; i < n; i++) w[i] = nn_mul_scalar(ctx, p[i], i + 1);
    nn_tensor *r = nn_cat(ctx, w, n, a->which ? -1 : 0);
    for (int i = 0; i < n; i++) rel(p[i], w[i], NULL);
    return r;
}

NN_TEST(shape_gradcheck_split_and_chunk) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *x = leaf(ctx, 2, S(5, 7));
    shape_arg s = {0}, c = {1};
    CHECK(tu_gradcheck(ctx, "split", split_fn, &x, 1, &s, 1e-6, 1e-7, 1e-9));
    CHECK(tu_gradcheck(ctx, "chunk", split_fn, &x, 1, &c, 1e-6, 1e-7, 1e-9));
    nn_tensor_release(x);
    nn_ctx_free(ctx);
}

static nn_tensor *index_fn(nn_ctx *ctx, nn_tensor **in, void *argp) {
    const shape_arg *a = argp;
    nn_tensor *x = in[0];
    switch (a->which) {
    case 0: return nn_index(ctx, x, 0, in + 1, 1); /* repeated rows */
    case 1: return nn_index(ctx, x, 0, in + 2, 2); /* x[i, j] with repeats */
    case 2: {                                      /* non-contiguous input, dim 1 */
        nn_tensor *t = nn_transpose(ctx, x, 0, 1);
        nn_tensor *r = t ? nn_index(ctx, t, 1, in + 1, 1) : NULL;
        nn_tensor_release(t);
        return r;
    }
    case 3: return nn_masked_select(ctx, x, in[4]);
    default: return nn_masked_select(ctx, x, in[5]);
    }
}

NN_TEST(shape_gradcheck_index_and_masks) {
    nn_ctx *ctx = nn_ctx_new(4);
    nn_tensor *x = leaf(ctx, 2, S(4, 4));
    nn_tensor *in[6] = {
        x,
        ints(ctx, 1, S(5), V(0, 3, 0, -1, 0)),
        ints(ctx, 2, S(2, 3), V(1, 1, 2, 1, 1, -4)),
        ints(ctx, 1, S(3), V(0, 0, 3)),
        tu_tensor(ctx, NN_BOOL, 2, S(4, 4), V(1, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1)),
        tu_tensor(ctx, NN_BOOL, 1, S(4), V(0, 1, 0, 1)),
    };
    static const char *names[] = {"index repeated", "index 2 tensors", "index transposed",
                                  "masked_select", "masked_select rows"};
    for (int k = 0; k < 5; k++) {
        shape_arg a = {k};
        CHECK_MSG(tu_gradcheck(ctx, names[k], index_fn, in, 6, &a, 1e-6, 1e-7, 1e-9), "%s",
                  names[k]);
    }
    /* Repeated indices add up exactly: d/dx sum(x[[0, 3, 0, -1, 0]]) */
    nn_tensor *g = nn_index(ctx, x, 0, in + 1, 1);
    nn_tensor *up = nn_ones(ctx, NN_FLOAT64, 2, S(5, 4));
    nn_tensor_clear_grad(x);
    CHECK(g && nn_backward(ctx, g, up, false) == NN_OK);
    nn_tensor *dx = nn_tensor_grad(x);
    CHECK(dx && nn_tensor_get_flat(dx, 0) == 3 && nn_tensor_get_flat(dx, 12) == 2 &&
          nn_tensor_get_flat(dx, 4) == 0);
    for (int i = 0; i < 6; i++) nn_tensor_release(in[i]);
    rel(g, up, NULL);
    nn_ctx_free(ctx);
}

/* Views of a view, in a graph with other ops: the gradients meet. */
static nn_tensor *diamond_fn(nn_ctx *ctx, nn_tensor **in, void *argp) {
    nn_tensor *x = in[0];
    nn_tensor *a = nn_slice(ctx, x, 0, 0, 2, 1), *b = nn_slice(ctx, x, 0, 1, 3, 1);
    nn_tensor *bt = nn_transpose(ctx, b, 0, 1), *at = nn_transpose(ctx, a, 0, 1);
    nn_tensor *p = nn_mul(ctx, at, bt);
    nn_tensor *e = nn_expand(ctx, in[1], 2, S(3, 2));
    nn_tensor *r = nn_add(ctx, p, e);
    rel(a, b, bt, at, p, e, NULL);
    return r;
}

NN_TEST(shape_gradcheck_views_in_a_graph) {
    nn_ctx *ctx = nn_ctx_new(5);
    nn_tensor *in[2] = {leaf(ctx, 2, S(3, 3)), leaf(ctx, 1, S(1))};
    CHECK(tu_gradcheck(ctx, "overlapping slices", diamond_fn, in, 2, NULL, 1e-6, 1e-7, 1e-9));
    rel(in[0], in[1], NULL);
    nn_ctx_free(ctx);
}
