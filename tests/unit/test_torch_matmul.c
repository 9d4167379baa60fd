/* matmul and linear against PyTorch: each function here computes what the
 * case of the same name in tests/torch/ref_matmul.py computes, and the
 * runner compares outputs and gradients (float32 and float64). */
#include "testutil.h"

/* Release [t] and pass [r] through. */
static nn_tensor *drop(nn_tensor *t, nn_tensor *r) {
    nn_tensor_release(t);
    return r;
}

static nn_tensor *tr(nn_ctx *ctx, nn_tensor *t) {
    return nn_transpose(ctx, t, -1, -2);
}

#define FN(name) static nn_tensor *name(nn_ctx *ctx, nn_tensor **in, void *arg)

FN(mm) {
    return nn_matmul(ctx, in[0], in[1]);
}
FN(mm_at_b) {
    nn_tensor *t = tr(ctx, in[0]);
    return drop(t, t ? nn_matmul(ctx, t, in[1]) : NULL);
}
FN(mm_a_bt) {
    nn_tensor *t = tr(ctx, in[1]);
    return drop(t, t ? nn_matmul(ctx, in[0], t) : NULL);
}
FN(mm_at_bt) {
    nn_tensor *a = tr(ctx, in[0]), *b = a ? tr(ctx, in[1]) : NULL;
    nn_tensor *r = b ? nn_matmul(ctx, a, b) : NULL;
    nn_tensor_release(a);
    return drop(b, r);
}
FN(mm_sum_after) {
    nn_tensor *c = nn_matmul(ctx, in[0], in[1]);
    return drop(c, c ? nn_sum(ctx, c, NULL, 0, false) : NULL);
}
FN(linear_bias) {
    return nn_linear(ctx, in[0], in[1], in[2]);
}
FN(linear_nobias) {
    return nn_linear(ctx, in[0], in[1], NULL);
}
FN(linear_wt) {
    nn_tensor *w = tr(ctx, in[1]);
    return drop(w, w ? nn_linear(ctx, in[0], w, in[2]) : NULL);
}
FN(linear_xt) {
    nn_tensor *x = tr(ctx, in[0]);
    return drop(x, x ? nn_linear(ctx, x, in[1], NULL) : NULL);
}
FN(linear_mean_after) {
    nn_tensor *y = nn_linear(ctx, in[0], in[1], in[2]);
    return drop(y, y ? nn_mean(ctx, y, NULL, 0, false) : NULL);
}

static const tu_ref_fn matmul_cases[] = {
    {"mm_2d", mm},
    {"mm_2d_f64", mm},
    {"mm_dot", mm},
    {"mm_mv", mm},
    {"mm_vm", mm},
    {"mm_batch_shared", mm},
    {"mm_shared_batch", mm},
    {"mm_bmm_f64", mm},
    {"mm_broadcast", mm},
    {"mm_broadcast_f64", mm},
    {"mm_vec_batch", mm},
    {"mm_batch_vec", mm},
    {"mm_at_b", mm_at_b},
    {"mm_a_bt", mm_a_bt},
    {"mm_at_bt_f64", mm_at_bt},
    {"mm_batch_transposed", mm_at_b},
    {"mm_empty_k", mm},
    {"mm_empty_batch", mm},
    {"mm_int64", mm},
    {"mm_big_f32", mm},
    {"mm_sum_after", mm_sum_after},
    {"linear_bias", linear_bias},
    {"linear_nobias", linear_nobias},
    {"linear_3d", linear_bias},
    {"linear_1d", linear_bias},
    {"linear_f64", linear_bias},
    {"linear_wt", linear_wt},
    {"linear_xt_f64", linear_xt},
    {"linear_mean_after", linear_mean_after},
};

NN_TEST(matmul_torch_refs) {
    int failed = tu_run_torch_refs("matmul", matmul_cases,
                                   (int)(sizeof matmul_cases / sizeof matmul_cases[0]));
    CHECK_MSG(failed == 0, "%d matmul reference cases failed", failed);
}
