/* Neural-network ops against PyTorch: the C side of tests/torch/ref_nn.py.
 *
 * Owned by the nn-ops engineer. Every case name the script writes (in a
 * _f32 and a _f64 flavour) maps to a function here computing the same thing
 * with nndb's ops; the runner compares the output and the gradients of
 * sum(out * up) for each float input. */
#include "testutil.h"

#define MEAN NN_REDUCTION_MEAN
#define SUM  NN_REDUCTION_SUM
#define NONE NN_REDUCTION_NONE

/* DEF(name, expr): f_name computes expr from in[0..2]. */
#define DEF(name, expr)                                                                            \
    static nn_tensor *f_##name(nn_ctx *ctx, nn_tensor **in, void *arg) {                           \
        (void)arg;                                                                                 \
        return (expr);                                                                             \
    }

DEF(softmax_dim1, nn_softmax(ctx, in[0], 1))
DEF(softmax_dim0, nn_softmax(ctx, in[0], 0))
DEF(softmax_3d_mid, nn_softmax(ctx, in[0], 1))
DEF(log_softmax_dim1, nn_log_softmax(ctx, in[0], -1))
DEF(log_softmax_3d_first, nn_log_softmax(ctx, in[0], 0))
DEF(softmax_mask, nn_softmax(ctx, in[0], 1))
DEF(log_softmax_mask, nn_log_softmax(ctx, in[0], 1))

DEF(ce_mean, nn_cross_entropy(ctx, in[0], in[1], -100, 0, MEAN))
DEF(ce_sum, nn_cross_entropy(ctx, in[0], in[1], -100, 0, SUM))
DEF(ce_none, nn_cross_entropy(ctx, in[0], in[1], -100, 0, NONE))
DEF(ce_ls_mean, nn_cross_entropy(ctx, in[0], in[1], -100, 0.1, MEAN))
DEF(ce_ls_sum, nn_cross_entropy(ctx, in[0], in[1], -100, 0.1, SUM))
DEF(ce_ls_none, nn_cross_entropy(ctx, in[0], in[1], -100, 0.1, NONE))
DEF(ce_ignore2, nn_cross_entropy(ctx, in[0], in[1], 2, 0, MEAN))
DEF(ce_3d_mean, nn_cross_entropy(ctx, in[0], in[1], -100, 0, MEAN))
DEF(ce_3d_none, nn_cross_entropy(ctx, in[0], in[1], -100, 0, NONE))
DEF(ce_3d_ls_sum, nn_cross_entropy(ctx, in[0], in[1], -100, 0.25, SUM))
DEF(ce_1d, nn_cross_entropy(ctx, in[0], in[1], -100, 0, MEAN))
DEF(ce_probs_mean, nn_cross_entropy(ctx, in[0], in[1], -100, 0, MEAN))
DEF(ce_probs_ls_none, nn_cross_entropy(ctx, in[0], in[1], -100, 0.2, NONE))

DEF(nll_mean, nn_nll_loss(ctx, in[0], in[1], -100, MEAN))
DEF(nll_none, nn_nll_loss(ctx, in[0], in[1], -100, NONE))
DEF(nll_3d_sum, nn_nll_loss(ctx, in[0], in[1], -100, SUM))

DEF(mse_mean, nn_mse_loss(ctx, in[0], in[1], MEAN))
DEF(mse_sum, nn_mse_loss(ctx, in[0], in[1], SUM))
DEF(mse_none, nn_mse_loss(ctx, in[0], in[1], NONE))
DEF(mse_bcast, nn_mse_loss(ctx, in[0], in[1], MEAN))

DEF(bce_mean, nn_binary_cross_entropy(ctx, in[0], in[1], MEAN))
DEF(bce_sum, nn_binary_cross_entropy(ctx, in[0], in[1], SUM))
DEF(bce_none, nn_binary_cross_entropy(ctx, in[0], in[1], NONE))
DEF(bce_edge, nn_binary_cross_entropy(ctx, in[0], in[1], NONE))
DEF(bcel_mean, nn_binary_cross_entropy_with_logits(ctx, in[0], in[1], MEAN))
DEF(bcel_sum, nn_binary_cross_entropy_with_logits(ctx, in[0], in[1], SUM))
DEF(bcel_none, nn_binary_cross_entropy_with_logits(ctx, in[0], in[1], NONE))
DEF(bcel_large, nn_binary_cross_entropy_with_logits(ctx, in[0], in[1], NONE))

DEF(embedding_repeat, nn_embedding(ctx, in[0], in[1]))
DEF(embedding_1d, nn_embedding(ctx, in[0], in[1]))

DEF(ln_plain, nn_layer_norm(ctx, in[0], 1, NULL, NULL, 1e-5))
DEF(ln_affine, nn_layer_norm(ctx, in[0], 1, in[1], in[2], 1e-5))
DEF(ln_2d_affine, nn_layer_norm(ctx, in[0], 2, in[1], in[2], 1e-3))
DEF(ln_weight_only, nn_layer_norm(ctx, in[0], 1, in[1], NULL, 1e-5))

DEF(sdpa_full, nn_scaled_dot_product_attention(ctx, in[0], in[1], in[2], false, 0))
DEF(sdpa_causal, nn_scaled_dot_product_attention(ctx, in[0], in[1], in[2], true, 0))
DEF(sdpa_causal_square, nn_scaled_dot_product_attention(ctx, in[0], in[1], in[2], true, 0))
DEF(sdpa_scale, nn_scaled_dot_product_attention(ctx, in[0], in[1], in[2], false, 0.3))

/* Each case runs in both float types with the same C function. */
/* clang-format off */
#define ROW2(name) {#name "_f32", f_##name}, {#name "_f64", f_##name}
/* clang-format on */

static const tu_ref_fn table[] = {
    ROW2(softmax_dim1),
    ROW2(softmax_dim0),
    ROW2(softmax_3d_mid),
    ROW2(log_softmax_dim1),
    ROW2(log_softmax_3d_first),
    ROW2(softmax_mask),
    ROW2(log_softmax_mask),
    ROW2(ce_mean),
    ROW2(ce_sum),
    ROW2(ce_none),
    ROW2(ce_ls_mean),
    ROW2(ce_ls_sum),
    ROW2(ce_ls_none),
    ROW2(ce_ignore2),
    ROW2(ce_3d_mean),
    ROW2(ce_3d_none),
    ROW2(ce_3d_ls_sum),
    ROW2(ce_1d),
    ROW2(ce_probs_mean),
    ROW2(ce_probs_ls_none),
    ROW2(nll_mean),
    ROW2(nll_none),
    ROW2(nll_3d_sum),
    ROW2(mse_mean),
    ROW2(mse_sum),
    ROW2(mse_none),
    ROW2(mse_bcast),
    ROW2(bce_mean),
    ROW2(bce_sum),
    ROW2(bce_none),
    ROW2(bce_edge),
    ROW2(bcel_mean),
    ROW2(bcel_sum),
    ROW2(bcel_none),
    ROW2(bcel_large),
    ROW2(embedding_repeat),
    ROW2(embedding_1d),
    ROW2(ln_plain),
    ROW2(ln_affine),
    ROW2(ln_2d_affine),
    ROW2(ln_weight_only),
    ROW2(sdpa_full),
    ROW2(sdpa_causal),
    ROW2(sdpa_causal_square),
    ROW2(sdpa_scale),
};

NN_TEST(nn_torch_refs) {
    int failed = tu_run_torch_refs("nn", table, (int)(sizeof table / sizeof table[0]));
    CHECK_MSG(failed == 0, "%d nn reference cases failed", failed);
}
