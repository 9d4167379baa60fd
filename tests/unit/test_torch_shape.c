/* Shape and indexing ops against PyTorch: each function here computes what
 * the case of the same name in tests/torch/ref_shape.py computes, and the
 * runner compares outputs and gradients. */
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)

/* Release [t] and pass [r] through: lets a case chain two ops in one line. */
static nn_tensor *drop(nn_tensor *t, nn_tensor *r) {
    nn_tensor_release(t);
    return r;
}

/* t = op(...) on a transposed (non-contiguous) view of in[0]. */
static nn_tensor *t0(nn_ctx *ctx, nn_tensor **in) {
    return nn_transpose(ctx, in[0], 0, 1);
}

/* ---- reshape / view / flatten ---- */

static nn_tensor *reshape_infer(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_reshape(ctx, in[0], 2, S(4, -1));
}
static nn_tensor *reshape_noncontig(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_reshape(ctx, t, 1, S(-1)) : NULL);
}
static nn_tensor *reshape_to_scalar(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_reshape(ctx, in[0], 0, NULL);
}
static nn_tensor *reshape_f64(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = nn_reshape(ctx, in[0], 3, S(3, 2, 2));
    return drop(t, t ? nn_mul_scalar(ctx, t, 2) : NULL);
}
static nn_tensor *view_split_dim(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_view(ctx, in[0], 3, S(2, 3, 2));
}
static nn_tensor *flatten_from1(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_flatten(ctx, in[0], 1, -1);
}
static nn_tensor *flatten_mid_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_flatten(ctx, in[0], -3, -2);
}

/* ---- permute / transpose ---- */

static nn_tensor *permute_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_permute(ctx, in[0], S(-1, 0, 1));
}
static nn_tensor *transpose_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_transpose(ctx, in[0], -1, -3);
}
static nn_tensor *permute_then_reshape(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = nn_permute(ctx, in[0], S(1, 0, 2));
    return drop(t, t ? nn_reshape(ctx, t, 2, S(3, 8)) : NULL);
}

/* ---- squeeze / unsqueeze ---- */

static nn_tensor *squeeze_all(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_squeeze(ctx, in[0], NN_ALL_DIMS);
}
static nn_tensor *squeeze_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_squeeze(ctx, in[0], -2);
}
static nn_tensor *squeeze_noop(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_squeeze(ctx, in[0], 1);
}
static nn_tensor *unsqueeze_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_unsqueeze(ctx, in[0], -1);
}
static nn_tensor *unsqueeze_mid(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_unsqueeze(ctx, in[0], 1);
}

/* ---- expand / contiguous ---- */

static nn_tensor *expand_new_dims(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_expand(ctx, in[0], 3, S(2, 3, 4));
}
static nn_tensor *expand_keep(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_expand(ctx, in[0], 2, S(-1, 5));
}
static nn_tensor *expand_transposed(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_expand(ctx, t, 3, S(2, 4, 3)) : NULL);
}
static nn_tensor *expand_scalar(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_expand(ctx, in[0], 2, S(2, 3));
}
static nn_tensor *contiguous_t(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_contiguous(ctx, t) : NULL);
}

/* ---- slice / select ---- */

static nn_tensor *slice_step(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_slice(ctx, in[0], 1, 1, 6, 2);
}
static nn_tensor *slice_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_slice(ctx, in[0], 0, -4, -1, 1);
}
static nn_tensor *slice_clamp(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_slice(ctx, in[0], -1, -100, 100, 1);
}
static nn_tensor *slice_step3_open(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_slice(ctx, in[0], 0, 1, NN_SLICE_END, 3);
}
static nn_tensor *slice_empty(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_slice(ctx, in[0], 0, 3, 1, 1);
}
static nn_tensor *slice_of_transposed(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_slice(ctx, t, 0, 1, 3, 1) : NULL);
}
static nn_tensor *slice_twice(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = nn_slice(ctx, in[0], 1, 1, NN_SLICE_END, 1);
    return drop(t, t ? nn_slice(ctx, t, 0, 0, NN_SLICE_END, 2) : NULL);
}
static nn_tensor *select_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_select(ctx, in[0], 1, -1);
}
static nn_tensor *select_first(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_select(ctx, in[0], 0, 0);
}
static nn_tensor *select_to_scalar(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_select(ctx, in[0], 0, 2);
}

/* ---- cat / stack / split / chunk ---- */

static nn_tensor *cat3_dim1(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_cat(ctx, in, 3, 1);
}
static nn_tensor *cat_neg_dim(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_cat(ctx, in, 2, -1);
}
static nn_tensor *cat_six(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_cat(ctx, in, 6, 0);
}
static nn_tensor *cat_promote(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_cat(ctx, in, 2, 0);
}
static nn_tensor *cat_noncontig(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    if (!t) return NULL;
    nn_tensor *parts[2] = {t, in[1]};
    return drop(t, nn_cat(ctx, parts, 2, 0));
}
static nn_tensor *cat_legacy_empty(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_cat(ctx, in, 2, 0);
}
static nn_tensor *stack_dim1(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_stack(ctx, in, 3, 1);
}
static nn_tensor *stack_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_stack(ctx, in, 2, -1);
}

/* Join pieces in reverse order along [dim], then release them. */
static nn_tensor *rev_cat(nn_ctx *ctx, nn_tensor **pieces, int n, int64_t dim) {
    nn_tensor *r[16] = {0};
    for (int i = 0; i < n && i < 16; i++) r[i] = pieces[n - 1 - i];
    nn_tensor *out = nn_cat(ctx, r, n, dim);
    for (int i = 0; i < n; i++) nn_tensor_release(pieces[i]);
    return out;
}
static nn_tensor *split_dim1(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *p[16];
    int n;
    if (nn_split(ctx, in[0], 3, 1, p, 16, &n)) return NULL;
    return rev_cat(ctx, p, n, 1);
}
static nn_tensor *chunk_dim0(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *p[16];
    int n;
    if (nn_chunk(ctx, in[0], 3, 0, p, 16, &n)) return NULL;
    return rev_cat(ctx, p, n, 0);
}
static nn_tensor *chunk_even_neg(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *p[16];
    int n;
    if (nn_chunk(ctx, in[0], 4, -1, p, 16, &n)) return NULL;
    return rev_cat(ctx, p, n, -1);
}

/* ---- integer indexing ---- */

static nn_tensor *index_two(nn_ctx *ctx, nn_tensor **in, int64_t dim) {
    return nn_index(ctx, in[0], dim, in + 1, 2);
}
static nn_tensor *index_logits(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return index_two(ctx, in, 0);
}
static nn_tensor *index_repeat(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_index(ctx, in[0], 0, in + 1, 1);
}
static nn_tensor *index_dim1_neg_2d(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_index(ctx, in[0], 1, in + 1, 1);
}
static nn_tensor *index_broadcast2(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return index_two(ctx, in, 1);
}
static nn_tensor *index_scalar_idx(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_index(ctx, in[0], 0, in + 1, 1);
}
static nn_tensor *index_noncontig(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_index(ctx, t, 0, in + 1, 1) : NULL);
}
static nn_tensor *index_int64(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_index(ctx, in[0], 0, in + 1, 1);
}
static nn_tensor *index_bool_tensor(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_index(ctx, in[0], 1, in + 1, 1);
}

/* ---- masks ---- */

static nn_tensor *masked(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_masked_select(ctx, in[0], in[1]);
}
static nn_tensor *masked_noncontig(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *t = t0(ctx, in);
    return drop(t, t ? nn_masked_select(ctx, t, in[1]) : NULL);
}

/* ---- in-place assignment, on a copy ---- */

static nn_tensor *clone(nn_ctx *ctx, nn_tensor *x) {
    nn_tensor *c = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    if (c && nn_tensor_copy_(ctx, c, x)) return drop(c, NULL);
    return c;
}
static nn_tensor *index_put(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *c = clone(ctx, in[0]);
    if (c && nn_index_put_(ctx, c, 0, in + 1, 2, in[3])) return drop(c, NULL);
    return c;
}
static nn_tensor *masked_fill(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *c = clone(ctx, in[0]);
    if (c && nn_masked_fill_(ctx, c, in[1], in[2])) return drop(c, NULL);
    return c;
}

#define CASE(name)                                                                                 \
    { #name, name }
static const tu_ref_fn shape_cases[] = {
    CASE(reshape_infer),
    CASE(reshape_noncontig),
    CASE(reshape_to_scalar),
    CASE(reshape_f64),
    CASE(view_split_dim),
    CASE(flatten_from1),
    CASE(flatten_mid_neg),
    CASE(permute_neg),
    CASE(transpose_neg),
    CASE(permute_then_reshape),
    CASE(squeeze_all),
    CASE(squeeze_neg),
    CASE(squeeze_noop),
    CASE(unsqueeze_neg),
    CASE(unsqueeze_mid),
    CASE(expand_new_dims),
    CASE(expand_keep),
    CASE(expand_transposed),
    CASE(expand_scalar),
    CASE(contiguous_t),
    CASE(slice_step),
    CASE(slice_neg),
    CASE(slice_clamp),
    CASE(slice_step3_open),
    CASE(slice_empty),
    CASE(slice_of_transposed),
    CASE(slice_twice),
    CASE(select_neg),
    CASE(select_first),
    CASE(select_to_scalar),
    CASE(cat3_dim1),
    CASE(cat_neg_dim),
    CASE(cat_six),
    CASE(cat_promote),
    CASE(cat_noncontig),
    CASE(cat_legacy_empty),
    CASE(stack_dim1),
    CASE(stack_neg),
    CASE(split_dim1),
    CASE(chunk_dim0),
    CASE(chunk_even_neg),
    CASE(index_logits),
    CASE(index_repeat),
    CASE(index_dim1_neg_2d),
    CASE(index_broadcast2),
    CASE(index_scalar_idx),
    CASE(index_noncontig),
    CASE(index_int64),
    CASE(index_bool_tensor),
    {"masked_full", masked},
    {"masked_leading", masked},
    CASE(masked_noncontig),
    {"masked_none", masked},
    {"masked_int64", masked},
    {"index_put_bcast", index_put},
    {"index_put_nan", index_put},
    {"masked_fill_leading", masked_fill},
    {"masked_fill_full_int", masked_fill},
};

NN_TEST(shape_torch_refs) {
    int failed =
        tu_run_torch_refs("shape", shape_cases, (int)(sizeof shape_cases / sizeof shape_cases[0]));
    CHECK_MSG(failed == 0, "%d shape reference cases failed", failed);
}
