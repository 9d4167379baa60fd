/* The tensor ops of issue 11 against PyTorch: the C side of
 * tests/torch/ref_tensor_ops.py (each case name, in a _f32 and a _f64
 * flavour, maps to a function computing the same thing with nndb's ops;
 * the runner compares outputs and the gradients of sum(out * up)). */
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)

#define DEF(name, expr)                                                                            \
    static nn_tensor *f_##name(nn_ctx *ctx, nn_tensor **in, void *arg) {                           \
        (void)arg;                                                                                 \
        return (expr);                                                                             \
    }

/* values of a (values, indices) op; the indices are dropped */
static nn_tensor *values_only(nn_tensor *v, nn_tensor *idx) {
    nn_tensor_release(idx);
    return v;
}
static nn_tensor *sort_v(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool desc) {
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_sort(ctx, a, dim, desc, &idx);
    return values_only(v, idx);
}
static nn_tensor *topk_v(nn_ctx *ctx, nn_tensor *a, int64_t k, int64_t dim, bool largest) {
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_topk(ctx, a, k, dim, largest, &idx);
    return values_only(v, idx);
}

DEF(sin, nn_sin(ctx, in[0]))
DEF(cos, nn_cos(ctx, in[0]))
DEF(log2, nn_log2(ctx, in[0]))
DEF(log10, nn_log10(ctx, in[0]))
DEF(nan_to_num, nn_nan_to_num(ctx, in[0], 0.5, 3.0, -2.0))
DEF(tril, nn_tril(ctx, in[0], 0))
DEF(tril_m1, nn_tril(ctx, in[0], -1))
DEF(triu_p1, nn_triu(ctx, in[0], 1))
DEF(cumsum_d1, nn_cumsum(ctx, in[0], 1))
DEF(cumsum_d0, nn_cumsum(ctx, in[0], 0))
DEF(cumprod_d1, nn_cumprod(ctx, in[0], 1))
DEF(cumprod_zeros, nn_cumprod(ctx, in[0], 1))
DEF(sort_d1, sort_v(ctx, in[0], 1, false))
DEF(sort_desc_d0, sort_v(ctx, in[0], 0, true))
DEF(topk2, topk_v(ctx, in[0], 2, 1, true))
DEF(topk_small, topk_v(ctx, in[0], 2, 0, false))
DEF(gather_d1, nn_gather(ctx, in[0], 1, in[1]))
DEF(gather_d0, nn_gather(ctx, in[0], 0, in[1]))
DEF(scatter_d1, nn_scatter(ctx, in[0], 1, in[1], in[2], false))
DEF(scatter_add_d1, nn_scatter(ctx, in[0], 1, in[1], in[2], true))
DEF(index_select_d0, nn_index_select(ctx, in[0], 0, in[1]))
DEF(flip_01, nn_flip(ctx, in[0], S(0, 2), 2))
DEF(repeat_23, nn_repeat(ctx, in[0], S(2, 1, 3), 3))
DEF(repeat_new_dim, nn_repeat(ctx, in[0], S(2, 1, 1), 3))
DEF(repeat_interleave_d1, nn_repeat_interleave(ctx, in[0], 2, 1, false))
DEF(repeat_interleave_flat, nn_repeat_interleave(ctx, in[0], 3, 0, true))
DEF(bn_train_2d, nn_batch_norm(ctx, in[0], NULL, NULL, in[1], in[2], true, 0.1, 1e-5))
DEF(bn_train_3d, nn_batch_norm(ctx, in[0], NULL, NULL, in[1], in[2], true, 0.1, 1e-5))
DEF(bn_plain, nn_batch_norm(ctx, in[0], NULL, NULL, NULL, NULL, true, 0.1, 1e-3))
DEF(gn_affine, nn_group_norm(ctx, in[0], 3, in[1], in[2], 1e-5))
DEF(gn_plain_4d, nn_group_norm(ctx, in[0], 2, NULL, NULL, 1e-3))

/* eval: the running statistics are data (torch refuses their gradient) */
static nn_tensor *f_bn_eval(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *m = nn_tensor_detach(ctx, in[3]), *v = nn_tensor_detach(ctx, in[4]);
    nn_tensor *r = nn_batch_norm(ctx, in[0], m, v, in[1], in[2], false, 0.1, 1e-5);
    nn_tensor_release(m);
    nn_tensor_release(v);
    return r;
}

/* einsum is written over these ops in the torch extension; these are the
 * permute/reshape/matmul forms it builds, checked against torch.einsum. */
static nn_tensor *f_einsum_mm(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_matmul(ctx, in[0], in[1]);
}
static nn_tensor *f_einsum_attn(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *kt = nn_transpose(ctx, in[1], -2, -1);
    nn_tensor *r = kt ? nn_matmul(ctx, in[0], kt) : NULL;
    nn_tensor_release(kt);
    return r;
}
static nn_tensor *f_einsum_bmm(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_matmul(ctx, in[0], in[1]);
}
static nn_tensor *f_einsum_dot(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_matmul(ctx, in[0], in[1]);
}
static nn_tensor *f_einsum_t(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_transpose(ctx, in[0], 0, 1);
}
static nn_tensor *f_einsum_sum_outer(nn_ctx *ctx, nn_tensor **in, void *arg) {
    int64_t one = 1;
    nn_tensor *a = nn_sum(ctx, in[0], &one, 1, true), *b = nn_sum(ctx, in[1], &one, 1, false);
    nn_tensor *bt = b ? nn_unsqueeze(ctx, b, 0) : NULL;
    nn_tensor *r = a && bt ? nn_matmul(ctx, a, bt) : NULL;
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(bt);
    return r;
}

/* clang-format off */
#define ROW2(name) {#name "_f32", f_##name}, {#name "_f64", f_##name}
/* clang-format on */

static const tu_ref_fn table[] = {
    ROW2(sin),
    ROW2(cos),
    ROW2(log2),
    ROW2(log10),
    ROW2(nan_to_num),
    ROW2(tril),
    ROW2(tril_m1),
    ROW2(triu_p1),
    ROW2(cumsum_d1),
    ROW2(cumsum_d0),
    ROW2(cumprod_d1),
    ROW2(cumprod_zeros),
    ROW2(sort_d1),
    ROW2(sort_desc_d0),
    ROW2(topk2),
    ROW2(topk_small),
    ROW2(gather_d1),
    ROW2(gather_d0),
    ROW2(scatter_d1),
    ROW2(scatter_add_d1),
    ROW2(index_select_d0),
    ROW2(flip_01),
    ROW2(repeat_23),
    ROW2(repeat_new_dim),
    ROW2(repeat_interleave_d1),
    ROW2(repeat_interleave_flat),
    ROW2(einsum_mm),
    ROW2(einsum_attn),
    ROW2(einsum_bmm),
    ROW2(einsum_dot),
    ROW2(einsum_t),
    ROW2(einsum_sum_outer),
    ROW2(bn_train_2d),
    ROW2(bn_train_3d),
    ROW2(bn_eval),
    ROW2(bn_plain),
    ROW2(gn_affine),
    ROW2(gn_plain_4d),
};

NN_TEST(tensor_ops_torch_refs) {
    int failed = tu_run_torch_refs("tensor_ops", table, (int)(sizeof table / sizeof table[0]));
    CHECK_MSG(failed == 0, "%d tensor_ops reference cases failed", failed);
}

/* ---- float64 finite-difference checks of every backward ---- */

#define GC_EPS  1e-6
#define GC_RTOL 1e-5
#define GC_ATOL 1e-7

static nn_tensor *leaf(nn_ctx *ctx, int ndim, const int64_t *shape, double scale, double shift) {
    nn_tensor *r = nn_randn(ctx, NN_FLOAT64, ndim, shape);
    nn_tensor *s = r ? nn_mul_scalar(ctx, r, scale) : NULL;
    nn_tensor *t = s ? nn_add_scalar(ctx, s, shift) : NULL;
    nn_tensor_release(r);
    nn_tensor_release(s);
    if (t) nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

static nn_tensor *ids(nn_ctx *ctx, int ndim, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_INT64, ndim, shape, v);
}

NN_TEST(tensor_ops_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(7);
    nn_tensor *x = leaf(ctx, 3, S(2, 3, 4), 1, 0), *p = leaf(ctx, 2, S(3, 4), 0.3, 2.0);
    nn_tensor *in1[1] = {x};
    CHECK(tu_gradcheck(ctx, "sin", f_sin, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "cos", f_cos, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "log2", f_log2, &p, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "log10", f_log10, &p, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "nan_to_num", f_nan_to_num, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "tril", f_tril, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "triu", f_triu_p1, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "cumsum", f_cumsum_d1, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "cumprod", f_cumprod_d1, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "sort", f_sort_d1, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "topk", f_topk2, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "flip", f_flip_01, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "repeat", f_repeat_23, in1, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "repeat_interleave", f_repeat_interleave_d1, in1, 1, NULL, GC_EPS,
                       GC_RTOL, GC_ATOL));
    /* cumprod with zeros (one, two, and at the ends of rows) */
    nn_tensor *z =
        tu_tensor(ctx, NN_FLOAT64, 2, S(3, 5),
                  TU_VALS(1.5, -0.5, 0, 2, 0.7, 0, 1.2, -1.1, 0, 0.9, 0.8, 1.3, -0.6, 1.1, 0));
    nn_tensor_requires_grad_(ctx, z, true);
    CHECK(
        tu_gradcheck(ctx, "cumprod zeros", f_cumprod_zeros, &z, 1, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    /* gather, scatter, index_select */
    nn_tensor *a = leaf(ctx, 2, S(3, 4), 1, 0), *src = leaf(ctx, 2, S(3, 2), 1, 0);
    nn_tensor *gi = ids(ctx, 2, S(3, 3), TU_VALS(0, 3, 3, 1, 1, 0, 2, 0, 2));
    nn_tensor *si = ids(ctx, 2, S(3, 2), TU_VALS(0, 2, 3, 1, 1, 0));
    nn_tensor *sai = ids(ctx, 2, S(3, 2), TU_VALS(0, 0, 3, 3, 1, 1));
    nn_tensor *ii = ids(ctx, 1, S(3), TU_VALS(2, 0, 2));
    nn_tensor *g2[2] = {a, gi}, *s3[3] = {a, si, src}, *sa3[3] = {a, sai, src}, *i2[2] = {a, ii};
    CHECK(tu_gradcheck(ctx, "gather", f_gather_d1, g2, 2, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "scatter", f_scatter_d1, s3, 3, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(
        tu_gradcheck(ctx, "scatter_add", f_scatter_add_d1, sa3, 3, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(tu_gradcheck(ctx, "index_select", f_index_select_d0, i2, 2, NULL, GC_EPS, GC_RTOL,
                       GC_ATOL));
    /* the norms */
    nn_tensor *xb = leaf(ctx, 2, S(6, 4), 2, 1), *w = leaf(ctx, 1, S(4), 1, 0),
              *b = leaf(ctx, 1, S(4), 1, 0);
    nn_tensor *xb3 = leaf(ctx, 3, S(3, 4, 5), 1, 0);
    nn_tensor *bn2[3] = {xb, w, b}, *bn3[3] = {xb3, w, b};
    CHECK(
        tu_gradcheck(ctx, "batch_norm 2d", f_bn_train_2d, bn2, 3, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    CHECK(
        tu_gradcheck(ctx, "batch_norm 3d", f_bn_train_3d, bn3, 3, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    nn_tensor *xg = leaf(ctx, 3, S(2, 6, 5), 1, 0), *wg = leaf(ctx, 1, S(6), 1, 0),
              *bg = leaf(ctx, 1, S(6), 1, 0);
    nn_tensor *gn[3] = {xg, wg, bg};
    CHECK(tu_gradcheck(ctx, "group_norm", f_gn_affine, gn, 3, NULL, GC_EPS, GC_RTOL, GC_ATOL));
    nn_tensor *all[] = {x, p, z, a, src, gi, si, sai, ii, xb, w, b, xb3, xg, wg, bg};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

/* The running statistics: the batch mean and the unbiased variance, by
 * momentum; eval then uses them. */
NN_TEST(tensor_ops_batch_norm_running_stats) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *x = tu_tensor(ctx, NN_FLOAT64, 2, S(4, 2), TU_VALS(1, 10, 2, 20, 3, 30, 6, 40));
    nn_tensor *rm = nn_zeros(ctx, NN_FLOAT64, 1, S(2)), *rv = nn_ones(ctx, NN_FLOAT64, 1, S(2));
    nn_tensor *y = nn_batch_norm(ctx, x, rm, rv, NULL, NULL, true, 0.1, 1e-5);
    CHECK(y != NULL);
    /* means 3, 25; unbiased vars 14/3, 500/3 */
    CHECK(tu_close(rm, 1, S(2), TU_VALS(0.3, 2.5), 1e-12, 1e-12, "running_mean"));
    CHECK(tu_close(rv, 1, S(2), TU_VALS(0.9 + 0.1 * 14.0 / 3, 0.9 + 0.1 * 500.0 / 3), 1e-12, 1e-12,
                   "running_var"));
    nn_tensor *e = nn_batch_norm(ctx, x, rm, rv, NULL, NULL, false, 0.1, 0);
    CHECK(e && tu_close(e, 2, S(4, 2),
                        TU_VALS((1 - 0.3) / sqrt(0.9 + 1.4 / 3), (10 - 2.5) / sqrt(0.9 + 50.0 / 3),
                                (2 - 0.3) / sqrt(0.9 + 1.4 / 3), (20 - 2.5) / sqrt(0.9 + 50.0 / 3),
                                (3 - 0.3) / sqrt(0.9 + 1.4 / 3), (30 - 2.5) / sqrt(0.9 + 50.0 / 3),
                                (6 - 0.3) / sqrt(0.9 + 1.4 / 3), (40 - 2.5) / sqrt(0.9 + 50.0 / 3)),
                        1e-12, 1e-12, "eval"));
    nn_tensor *one = tu_tensor(ctx, NN_FLOAT64, 2, S(1, 2), TU_VALS(1, 2));
    CHECK(nn_batch_norm(ctx, one, NULL, NULL, NULL, NULL, true, 0.1, 1e-5) == NULL &&
          strstr(nn_ctx_error(ctx), "Expected more than 1 value per channel"));
    nn_ctx_clear_error(ctx);
    nn_tensor *all[] = {x, rm, rv, y, e, one};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

/* Errors with torch's texts, and the counting ops. */
NN_TEST(tensor_ops_errors_and_counts) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *x = nn_zeros(ctx, NN_FLOAT32, 2, S(2, 3));
    nn_tensor *fi = tu_tensor(ctx, NN_FLOAT32, 1, S(2), TU_VALS(0, 1));
    nn_tensor *big = ids(ctx, 2, S(1, 1), TU_VALS(5));
    nn_tensor *lab = ids(ctx, 1, S(4), TU_VALS(0, 2, 2, 1));
    CHECK(!nn_gather(ctx, x, 1, fi) && strstr(nn_ctx_error(ctx), "Expected dtype int64"));
    nn_ctx_clear_error(ctx);
    CHECK(!nn_gather(ctx, x, 1, big) && strstr(nn_ctx_error(ctx), "index 5 is out of bounds"));
    nn_ctx_clear_error(ctx);
    CHECK(!nn_cumsum(ctx, x, 2) && nn_ctx_status(ctx) == NN_ERR_INDEX &&
          strstr(nn_ctx_error(ctx), "Dimension out of range (expected to be in range of [-2, 1]"));
    nn_ctx_clear_error(ctx);
    CHECK(!nn_one_hot(ctx, fi, -1) && strstr(nn_ctx_error(ctx), "only applicable to index"));
    nn_ctx_clear_error(ctx);
    nn_tensor *oh = nn_one_hot(ctx, lab, -1);
    CHECK(oh && oh->dtype == NN_INT64 &&
          tu_close(oh, 2, S(4, 3), TU_VALS(1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0), 0, 0, "one_hot"));
    nn_tensor *bc = nn_bincount(ctx, lab, NULL, 5);
    CHECK(bc && tu_close(bc, 1, S(5), TU_VALS(1, 1, 2, 0, 0), 0, 0, "bincount"));
    nn_tensor *nz = nn_nonzero(ctx, lab);
    CHECK(nz && tu_close(nz, 2, S(3, 1), TU_VALS(1, 2, 3), 0, 0, "nonzero"));
    nn_tensor *h = tu_tensor(ctx, NN_FLOAT32, 1, S(5), TU_VALS(0, 0.5, 1, 1, 7));
    nn_tensor *hc = nn_histc(ctx, h, 2, 0, 1);
    CHECK(hc && tu_close(hc, 1, S(2), TU_VALS(1, 3), 0, 0, "histc"));
    nn_tensor *all[] = {x, fi, big, lab, oh, bc, nz, h, hc};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

/* The profiler asks every recorded node for its cost (nn_node_cost asserts
 * that some op family knows the op): each new op answers, forward and
 * backward. */
NN_TEST(tensor_ops_costs) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *x = leaf(ctx, 2, S(3, 4), 1, 0), *p = leaf(ctx, 2, S(3, 4), 0.3, 2.0);
    nn_tensor *i2 = ids(ctx, 2, S(3, 1), TU_VALS(0, 3, 1));
    nn_tensor *lab = ids(ctx, 1, S(3), TU_VALS(0, 3, 1));
    nn_tensor *src = leaf(ctx, 2, S(3, 1), 1, 0);
    nn_tensor *outs[] = {nn_sin(ctx, x),
                         nn_cos(ctx, x),
                         nn_log2(ctx, p),
                         nn_log10(ctx, p),
                         nn_nan_to_num(ctx, x, NAN, NAN, NAN),
                         nn_tril(ctx, x, 0),
                         nn_cumsum(ctx, x, 1),
                         nn_cumprod(ctx, x, 0),
                         nn_gather(ctx, x, 1, i2),
                         nn_scatter(ctx, x, 1, i2, src, true),
                         nn_argsort(ctx, x, 1, false),
                         nn_one_hot(ctx, lab, 4),
                         nn_nonzero(ctx, x),
                         nn_bincount(ctx, lab, NULL, 0),
                         nn_histc(ctx, x, 5, -1, 1)};
    int n = (int)(sizeof outs / sizeof outs[0]);
    for (int k = 0; k < n; k++) {
        CHECK_MSG(outs[k] != NULL, "op %d: %s", k, nn_ctx_error(ctx));
        if (!outs[k] || !outs[k]->grad_fn) continue;
        nn_op_cost c;
        nn_node_cost(outs[k]->grad_fn, outs[k], NN_PHASE_FORWARD, &c);
        CHECK(c.bytes_written > 0);
        nn_node_cost(outs[k]->grad_fn, outs[k], NN_PHASE_BACKWARD, &c);
        CHECK(c.bytes_read > 0);
    }
    for (int k = 0; k < n; k++) nn_tensor_release(outs[k]);
    nn_tensor *all[] = {x, p, i2, lab, src};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}
