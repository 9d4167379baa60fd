/* Reductions against PyTorch: each function here computes what the case of
 * the same name in tests/torch/ref_reduce.py computes, and the runner
 * compares outputs and gradients (float32 and float64). */
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)

/* Release [t] and pass [r] through. */
static nn_tensor *drop(nn_tensor *t, nn_tensor *r) {
    nn_tensor_release(t);
    return r;
}

/* in[0] transposed (a non-contiguous view that autograd sees). */
static nn_tensor *tr(nn_ctx *ctx, nn_tensor **in) {
    return nn_transpose(ctx, in[0], 0, 1);
}

/* The indices of max/min along [dim] as the output. */
static nn_tensor *indices_of(nn_ctx *ctx, nn_tensor *x, int64_t dim, bool is_max) {
    nn_tensor *idx = NULL;
    nn_tensor *v =
        is_max ? nn_max_dim(ctx, x, dim, false, &idx) : nn_min_dim(ctx, x, dim, false, &idx);
    nn_tensor_release(v);
    return idx;
}

#define FN(name) static nn_tensor *name(nn_ctx *ctx, nn_tensor **in, void *arg)

FN(sum_all) {
    return nn_sum(ctx, in[0], NULL, 0, false);
}
FN(sum_dim1) {
    return nn_sum(ctx, in[0], S(1), 1, false);
}
FN(sum_dims02_keepdim) {
    return nn_sum(ctx, in[0], S(0, 2), 2, true);
}
FN(sum_neg_dim_f64) {
    return nn_sum(ctx, in[0], S(-1), 1, false);
}
FN(sum_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_sum(ctx, t, S(1), 1, false) : NULL);
}
FN(sum_dim0) {
    return nn_sum(ctx, in[0], S(0), 1, false);
}

FN(mean_all) {
    return nn_mean(ctx, in[0], NULL, 0, false);
}
FN(mean_dim0_keepdim) {
    return nn_mean(ctx, in[0], S(0), 1, true);
}
FN(mean_dims_f64) {
    return nn_mean(ctx, in[0], S(-1, 0), 2, false);
}
FN(mean_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_mean(ctx, t, S(0), 1, false) : NULL);
}
FN(mean_empty) {
    return nn_mean(ctx, in[0], S(0), 1, false);
}

FN(max_all) {
    return nn_max_all(ctx, in[0]);
}
FN(min_all) {
    return nn_min_all(ctx, in[0]);
}
FN(max_dim_values) {
    return nn_max_dim(ctx, in[0], 1, false, NULL);
}
FN(max_dim_indices) {
    return indices_of(ctx, in[0], 1, true);
}
FN(max_dim0) {
    return nn_max_dim(ctx, in[0], 0, false, NULL);
}
FN(max_dim_ties_indices) {
    return indices_of(ctx, in[0], 0, true);
}
FN(min_dim_keepdim_f64) {
    return nn_min_dim(ctx, in[0], -1, true, NULL);
}
FN(min_dim_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_min_dim(ctx, t, 1, false, NULL) : NULL);
}
FN(argmax_dim) {
    return nn_argmax(ctx, in[0], 1, false, false);
}
FN(argmax_all) {
    return nn_argmax(ctx, in[0], 0, true, false);
}
FN(argmin_keepdim) {
    return nn_argmin(ctx, in[0], 0, false, true);
}
FN(max_dim1) {
    return nn_max_dim(ctx, in[0], 1, false, NULL);
}

FN(var_dim) {
    return nn_var(ctx, in[0], S(1), 1, 1, false);
}
FN(var_all_corr0) {
    return nn_var(ctx, in[0], NULL, 0, 0, false);
}
FN(var_keepdim_f64) {
    return nn_var(ctx, in[0], S(0, 2), 2, 1, true);
}
FN(var_corr2) {
    return nn_var(ctx, in[0], S(1), 1, 2, false);
}
FN(std_dim) {
    return nn_std(ctx, in[0], S(0), 1, 1, false);
}
FN(std_all_f64) {
    return nn_std(ctx, in[0], NULL, 0, 1, false);
}
FN(std_corr0_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_std(ctx, t, S(1), 1, 0, false) : NULL);
}

FN(lse_dim1) {
    return nn_logsumexp(ctx, in[0], S(1), 1, false);
}
FN(lse_all_f64) {
    return nn_logsumexp(ctx, in[0], S(0, 1), 2, false);
}
FN(lse_keepdim) {
    return nn_logsumexp(ctx, in[0], S(-1), 1, true);
}
FN(lse_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_logsumexp(ctx, t, S(0), 1, false) : NULL);
}
FN(lse_empty) {
    return nn_logsumexp(ctx, in[0], S(0), 1, false);
}

FN(norm_2) {
    return nn_norm(ctx, in[0], 2, NULL, 0, false);
}
FN(norm_2_dim1) {
    return nn_norm(ctx, in[0], 2, S(1), 1, false);
}
FN(norm_1_dim) {
    return nn_norm(ctx, in[0], 1, S(0), 1, false);
}
FN(norm_inf_dim) {
    return nn_norm(ctx, in[0], INFINITY, S(1), 1, false);
}
FN(norm_inf_ties) {
    return nn_norm(ctx, in[0], INFINITY, NULL, 0, false);
}
FN(norm_3_f64) {
    return nn_norm(ctx, in[0], 3, S(0, 1), 2, true);
}
FN(norm_1p5) {
    return nn_norm(ctx, in[0], 1.5, S(-1), 1, false);
}
FN(norm_0p5_f64) {
    return nn_norm(ctx, in[0], 0.5, S(1), 1, false);
}
FN(norm_noncontig) {
    nn_tensor *t = tr(ctx, in);
    return drop(t, t ? nn_norm(ctx, t, 2, S(1), 1, false) : NULL);
}

static const tu_ref_fn reduce_cases[] = {
#define CASE(f)                                                                                    \
    { #f, f }
    CASE(sum_all),
    CASE(sum_dim1),
    CASE(sum_dims02_keepdim),
    CASE(sum_neg_dim_f64),
    CASE(sum_noncontig),
    {"sum_empty_dim", sum_dim0},
    {"sum_empty_all", sum_all},
    {"sum_int64", sum_dim1},
    {"sum_bool", sum_all},
    {"sum_large_f32", sum_dim0},
    CASE(mean_all),
    CASE(mean_dim0_keepdim),
    CASE(mean_dims_f64),
    CASE(mean_noncontig),
    CASE(mean_empty),
    CASE(max_all),
    {"max_all_ties", max_all},
    {"min_all_ties_f64", min_all},
    CASE(max_dim_values),
    CASE(max_dim_indices),
    {"max_dim_ties", max_dim0},
    CASE(max_dim_ties_indices),
    CASE(min_dim_keepdim_f64),
    CASE(min_dim_noncontig),
    {"max_dim_int64", max_dim0},
    CASE(argmax_dim),
    CASE(argmax_all),
    CASE(argmin_keepdim),
    {"max_nan", max_dim1},
    CASE(var_dim),
    CASE(var_all_corr0),
    CASE(var_keepdim_f64),
    CASE(var_corr2),
    CASE(std_dim),
    CASE(std_all_f64),
    CASE(std_corr0_noncontig),
    {"lse_dim", lse_dim1},
    CASE(lse_all_f64),
    CASE(lse_keepdim),
    {"lse_large", lse_dim1},
    {"lse_neg_inf", lse_dim1},
    CASE(lse_noncontig),
    CASE(lse_empty),
    CASE(norm_2),
    {"norm_2_dim_f64", norm_2_dim1},
    CASE(norm_1_dim),
    CASE(norm_inf_dim),
    CASE(norm_inf_ties),
    CASE(norm_3_f64),
    CASE(norm_1p5),
    CASE(norm_0p5_f64),
    {"norm_2_zero_row", norm_2_dim1},
    CASE(norm_noncontig),
#undef CASE
};

NN_TEST(reduce_torch_refs) {
    int failed = tu_run_torch_refs("reduce", reduce_cases,
                                   (int)(sizeof reduce_cases / sizeof reduce_cases[0]));
    CHECK_MSG(failed == 0, "%d reduce reference cases failed", failed);
}
