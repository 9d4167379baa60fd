/* nn_ops: the public op API. Each function runs one op through the executor
 * (hooks, autograd) and returns a new tensor the caller owns, or NULL with
 * ctx->err set. Inputs are borrowed. Names and semantics follow PyTorch
 * (torch, torch.nn.functional); dims may be negative. Numbers mix with
 * tensors through nn_scalar_wrapped, as Python scalars do in PyTorch.
 */
#ifndef NN_OPS_H
#define NN_OPS_H

#include "nn_ctx.h"

/* ---- elementwise (broadcasting) ---- */
nn_tensor *nn_add(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_sub(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_mul(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_div(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_pow(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_maximum(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_minimum(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
/* a + s, a * s, a ** s with a plain number (wrapped scalar). */
nn_tensor *nn_add_scalar(nn_ctx *ctx, nn_tensor *a, double s);
nn_tensor *nn_mul_scalar(nn_ctx *ctx, nn_tensor *a, double s);
nn_tensor *nn_pow_scalar(nn_ctx *ctx, nn_tensor *a, double s);
nn_tensor *nn_neg(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_exp(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_log(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_log1p(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_sqrt(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_rsqrt(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_abs(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_sign(nn_ctx *ctx, nn_tensor *a);
/* Either bound may be NAN for "none". */
nn_tensor *nn_clamp(nn_ctx *ctx, nn_tensor *a, double lo, double hi);
/* clamp with integer bounds: an integer or bool tensor stays integer (bool
 * becomes int64), as torch.clamp(x, 2, 6) does; floats as nn_clamp. */
nn_tensor *nn_clamp_int(nn_ctx *ctx, nn_tensor *a, double lo, double hi);
nn_tensor *nn_where(nn_ctx *ctx, nn_tensor *cond, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_relu(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_leaky_relu(nn_ctx *ctx, nn_tensor *a, double negative_slope);
nn_tensor *nn_tanh(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_sigmoid(nn_ctx *ctx, nn_tensor *a);
/* approximate_tanh: false for the exact erf form, true for "tanh". */
nn_tensor *nn_gelu(nn_ctx *ctx, nn_tensor *a, bool approximate_tanh);
nn_tensor *nn_silu(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_softplus(nn_ctx *ctx, nn_tensor *a, double beta, double threshold);
/* Convert dtype; differentiable between float types. */
nn_tensor *nn_to(nn_ctx *ctx, nn_tensor *a, nn_dtype dt);
/* Test-only: x * x, whose backward is deliberately wrong at flat element 2
 * (the last one when there are fewer): 2 x dout + 1 there. Exists so that
 * the tests can show gradcheck catching a wrong derivative. */
nn_tensor *nn_test_wrong_grad(nn_ctx *ctx, nn_tensor *x);
/* comparisons and logic: bool results, no gradient */
nn_tensor *nn_eq(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_ne(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_lt(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_le(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_gt(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_ge(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_logical_and(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_logical_or(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_logical_not(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_isnan(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_isinf(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_isfinite(nn_ctx *ctx, nn_tensor *a);

/* ---- reductions ----
 * [dims]/[n_dims]: the dims to reduce; n_dims == 0 (or dims NULL) reduces all. */
nn_tensor *nn_sum(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
nn_tensor *nn_mean(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
/* var/std: correction 1 is Bessel's (PyTorch's default), 0 the population form. */
nn_tensor *nn_var(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int64_t correction,
                  bool keepdim);
nn_tensor *nn_std(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int64_t correction,
                  bool keepdim);
nn_tensor *nn_logsumexp(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
/* p-norm (p = 2 default; p = INFINITY for the max norm). */
nn_tensor *nn_norm(nn_ctx *ctx, nn_tensor *a, double p, const int64_t *dims, int n_dims,
                   bool keepdim);
/* max/min over everything (0-dim result). */
nn_tensor *nn_max_all(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_min_all(nn_ctx *ctx, nn_tensor *a);
/* max/min along [dim]: values, and int64 indices into *indices (may be NULL). */
nn_tensor *nn_max_dim(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool keepdim, nn_tensor **indices);
nn_tensor *nn_min_dim(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool keepdim, nn_tensor **indices);
/* amax/amin: the max/min over [dims] (every dim when n_dims is 0), values
 * only; the gradient is split evenly among ties, as PyTorch's. */
nn_tensor *nn_amax(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
nn_tensor *nn_amin(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
/* argmax/argmin along [dim]; all_dims true flattens first (dim ignored). */
nn_tensor *nn_argmax(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim);
nn_tensor *nn_argmin(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim);
/* any/all over [dims] (every dim when n_dims is 0): bool (uint8 for a
 * uint8 input), read in place with an early exit along each row. */
nn_tensor *nn_any(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);
nn_tensor *nn_all(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim);

/* ---- linear algebra (CBLAS) ---- */
/* torch.matmul: 1-D to N-D with batch broadcasting. */
nn_tensor *nn_matmul(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
/* x W^T + b; [bias] may be NULL. x: [..., in], W: [out, in], b: [out]. */
nn_tensor *nn_linear(nn_ctx *ctx, nn_tensor *x, nn_tensor *weight, nn_tensor *bias);

/* ---- shape and indexing ---- */
/* One entry of shape may be -1. A view when strides allow, else a copy. */
nn_tensor *nn_reshape(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape);
/* Like reshape but an error when a view is impossible (torch.view). */
nn_tensor *nn_view(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape);
nn_tensor *nn_flatten(nn_ctx *ctx, nn_tensor *a, int64_t start_dim, int64_t end_dim);
nn_tensor *nn_permute(nn_ctx *ctx, nn_tensor *a, const int64_t *order);
nn_tensor *nn_transpose(nn_ctx *ctx, nn_tensor *a, int64_t d0, int64_t d1);
/* squeeze: dim NN_ALL_DIMS squeezes every size-1 dim. */
#define NN_ALL_DIMS INT64_MIN
nn_tensor *nn_squeeze(nn_ctx *ctx, nn_tensor *a, int64_t dim);
nn_tensor *nn_unsqueeze(nn_ctx *ctx, nn_tensor *a, int64_t dim);
/* -1 keeps a dim's size. */
nn_tensor *nn_expand(nn_ctx *ctx, nn_tensor *a, int ndim, const int64_t *shape);
nn_tensor *nn_contiguous(nn_ctx *ctx, nn_tensor *a);
/* PyTorch's memory formats, for clone(), contiguous(), to() and the *_like
 * factories. PRESERVE (the default, 0) keeps a non-overlapping and dense
 * input's strides and orders any other input's dims by its strides, as
 * an elementwise op's result (nn_elementwise_layout); CHANNELS_LAST(_3D)
 * is NHWC (NDHWC) order of a 4-D (5-D) tensor. */
typedef enum {
    NN_FORMAT_PRESERVE = 0,
    NN_FORMAT_CONTIGUOUS,
    NN_FORMAT_CHANNELS_LAST,
    NN_FORMAT_CHANNELS_LAST_3D,
} nn_memory_format;
/* Whether [t] is laid out in [fmt] (PyTorch's is_contiguous(memory_format=)):
 * channels_last needs 4 dims, channels_last_3d 5; PRESERVE is row-major, as
 * in c10. */
bool nn_tensor_is_format(const nn_tensor *t, nn_memory_format fmt);
/* c10's suggest_memory_format: CHANNELS_LAST(_3D) when a 4-D (5-D) [t]'s
 * strides order its dims as NHWC (NDHWC), ambiguous cases (N111) falling
 * back to CONTIGUOUS; to(memory_format=) returns [t] itself when it names
 * this format. */
nn_memory_format nn_tensor_suggested_format(const nn_tensor *t);
/* The strides of a new tensor of [t]'s shape in [fmt] into [strides]; false
 * (nothing written) when they are row-major, which a contiguous [t] in
 * PRESERVE answers at the cost of nn_tensor_is_contiguous. The caller has
 * checked the rank channels_last needs. */
bool nn_format_strides(const nn_tensor *t, nn_memory_format fmt, int64_t *strides);
/* A recorded copy of [a] in [fmt] (CloneBackward0), its own storage even
 * where [a] already has that layout: clone(memory_format=). */
nn_tensor *nn_clone(nn_ctx *ctx, nn_tensor *a, nn_memory_format fmt);
/* [a] in [dt] laid out in [fmt], recorded (ToCopyBackward0): to(dtype,
 * memory_format=); nn_to is the same in PRESERVE. */
nn_tensor *nn_to_format(nn_ctx *ctx, nn_tensor *a, nn_dtype dt, nn_memory_format fmt);
/* a[..., start:stop:step, ...] along [dim], Python semantics for negative and
 * out-of-range bounds; step > 0. Use NN_SLICE_END for an open stop. */
#define NN_SLICE_END INT64_MAX
nn_tensor *nn_slice(nn_ctx *ctx, nn_tensor *a, int64_t dim, int64_t start, int64_t stop,
                    int64_t step);
/* a[..., index, ...] along [dim]: removes the dim. */
nn_tensor *nn_select(nn_ctx *ctx, nn_tensor *a, int64_t dim, int64_t index);
nn_tensor *nn_cat(nn_ctx *ctx, nn_tensor *const *ts, int n, int64_t dim);
nn_tensor *nn_stack(nn_ctx *ctx, nn_tensor *const *ts, int n, int64_t dim);
/* split into pieces of [size] (last may be smaller); *out_n pieces written to
 * [out] (capacity [cap]). chunk: [chunks] pieces as torch.chunk. */
nn_status nn_split(nn_ctx *ctx, nn_tensor *a, int64_t size, int64_t dim, nn_tensor **out, int cap,
                   int *out_n);
nn_status nn_chunk(nn_ctx *ctx, nn_tensor *a, int64_t chunks, int64_t dim, nn_tensor **out, int cap,
                   int *out_n);
/* Advanced indexing: int64 index tensors idx[0..n_idx) for the dims starting
 * at [dim]; they broadcast together. Result shape:
 * a.shape[:dim] + broadcast(idx) + a.shape[dim+n_idx:]. */
nn_tensor *nn_index(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *const *idx, int n_idx);
/* a[mask] with a bool mask of a's leading shape: 1-D (or [k, rest...]) result. */
nn_tensor *nn_masked_select(nn_ctx *ctx, nn_tensor *a, nn_tensor *mask);
/* A copy of [a] with out.flat[idx] = value (value broadcast to idx's shape;
 * idx int64 row-major positions in a). Differentiable in a and value. */
nn_tensor *nn_put(nn_ctx *ctx, nn_tensor *a, nn_tensor *value, nn_tensor *idx);
/* a.flat[idx] (row-major positions in [a], any shape): recorded as
 * AsStridedBackward0, whose backward adds the gradient back at those
 * positions (a view's history after an in-place write, nn_inplace.c). */
nn_tensor *nn_as_strided_at(nn_ctx *ctx, nn_tensor *a, nn_tensor *idx);
/* In place, not recorded: a[dim-index tensors] = value (broadcast), and
 * a[mask] = value. Storage version bumps. */
nn_status nn_index_put_(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *const *idx, int n_idx,
                        nn_tensor *value);
nn_status nn_masked_fill_(nn_ctx *ctx, nn_tensor *a, nn_tensor *mask, nn_tensor *value);

/* ---- neural-network ops ---- */
nn_tensor *nn_softmax(nn_ctx *ctx, nn_tensor *a, int64_t dim);
nn_tensor *nn_log_softmax(nn_ctx *ctx, nn_tensor *a, int64_t dim);

typedef enum nn_reduction { NN_REDUCTION_MEAN, NN_REDUCTION_SUM, NN_REDUCTION_NONE } nn_reduction;
/* logits [N, C] or [N, C, d...] (or [C]); target int64 class indices [N, d...].
 * Rows whose target is ignore_index count neither in the loss nor the mean. */
nn_tensor *nn_cross_entropy(nn_ctx *ctx, nn_tensor *logits, nn_tensor *target, int64_t ignore_index,
                            double label_smoothing, nn_reduction red);
nn_tensor *nn_nll_loss(nn_ctx *ctx, nn_tensor *logp, nn_tensor *target, int64_t ignore_index,
                       nn_reduction red);
nn_tensor *nn_mse_loss(nn_ctx *ctx, nn_tensor *input, nn_tensor *target, nn_reduction red);
nn_tensor *nn_binary_cross_entropy(nn_ctx *ctx, nn_tensor *probs, nn_tensor *target,
                                   nn_reduction red);
nn_tensor *nn_binary_cross_entropy_with_logits(nn_ctx *ctx, nn_tensor *logits, nn_tensor *target,
                                               nn_reduction red);
/* weight [V, D], idx int64 of any shape -> [idx.shape..., D] */
nn_tensor *nn_embedding(nn_ctx *ctx, nn_tensor *weight, nn_tensor *idx);
/* Normalise over the last [n_norm] dims; weight/bias may be NULL. */
nn_tensor *nn_layer_norm(nn_ctx *ctx, nn_tensor *x, int n_norm, nn_tensor *weight, nn_tensor *bias,
                         double eps);
/* Zero each element with probability p and scale by 1/(1-p) when training;
 * identity otherwise. Uses ctx->rng. */
nn_tensor *nn_dropout(nn_ctx *ctx, nn_tensor *x, double p, bool training);
/* softmax(q k^T * scale + causal mask) v for q,k,v [..., T, D]; scale <= 0
 * means 1/sqrt(D). One node, with its own backward. */
nn_tensor *nn_scaled_dot_product_attention(nn_ctx *ctx, nn_tensor *q, nn_tensor *k, nn_tensor *v,
                                           bool causal, double scale);
/* Multi-head self-attention over the packed projection qkv [A, B, 3E]
 * ((A, B) = (L, N) when seq_first, else (N, L)) with [heads] heads, as
 * PyTorch 1.13's multi_head_attention_forward computes it: per head
 * softmax(q / sqrt(hd) k^T + mask) * drop, times v. mask [1 or N*H, 1 or L,
 * L] is added to the scores, drop [N*H, L, L] multiplies the probabilities
 * (dropout's 0 or 1/(1-p)); either may be NULL. Returns [A, B, E]: the
 * heads side by side, the out_proj's input. One node (ops_attn.c). */
nn_tensor *nn_mha_self_attention(nn_ctx *ctx, nn_tensor *qkv, int64_t heads, bool seq_first,
                                 nn_tensor *mask, nn_tensor *drop);

/* A node whose backward is the caller's (torch.autograd.Function): the
 * caller computed [c->output] from [inputs] itself (without recording);
 * nn_custom records one node over those inputs, named [c->name] for the
 * hooks, whose backward calls c->backward with the output's gradient and
 * fills din[i] (new references) for each input with needs[i]. [c] is owned
 * by the caller and must outlive the node; the output shares c->output's
 * data. */
typedef struct nn_custom {
    const char *name; /* "MyReLUBackward" (interned or static) */
    nn_tensor *output;
    nn_status (*backward)(nn_ctx *ctx, struct nn_custom *c, nn_tensor *dout, int n_in,
                          const bool *needs, nn_tensor **din);
    void *user;
    /* When set, called once as the recorded node that refers to [c] is
     * freed, so a front end can tie [c]'s lifetime to the node's. A caller
     * sets it after nn_custom_apply returned an output whose grad_fn is the
     * node (when none was recorded, nothing refers to [c]). */
    void (*drop)(struct nn_custom *c);
} nn_custom;
nn_tensor *nn_custom_apply(nn_ctx *ctx, nn_tensor *const *inputs, int n, nn_custom *c);

/* ---- more math, scans, gather/scatter, sorting, counting, norms ----
 * (ops_math.c, ops_scan.c, ops_index.c, ops_norm.c) */
nn_tensor *nn_sin(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_cos(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_log2(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_log10(nn_ctx *ctx, nn_tensor *a);
/* NaN for posinf/neginf means the dtype's largest finite value (torch's
 * default); nan NaN means 0. Integer and bool inputs come back unchanged. */
nn_tensor *nn_nan_to_num(nn_ctx *ctx, nn_tensor *a, double nan, double posinf, double neginf);
/* Keep the lower (upper) triangle of the last two dims, [diagonal] above
 * (below) the main one; the rest is 0. */
nn_tensor *nn_tril(nn_ctx *ctx, nn_tensor *a, int64_t diagonal);
nn_tensor *nn_triu(nn_ctx *ctx, nn_tensor *a, int64_t diagonal);
/* Inclusive scans along [dim]; bool becomes int64. */
nn_tensor *nn_cumsum(nn_ctx *ctx, nn_tensor *a, int64_t dim);
nn_tensor *nn_cumprod(nn_ctx *ctx, nn_tensor *a, int64_t dim);
/* torch.gather: int64 [index] of a's ndim; result of index's shape. */
nn_tensor *nn_gather(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index);
/* torch.scatter / scatter_add (out of place): a copy of [a] with [src]
 * (a's dtype) written (added) at [index] along [dim]. */
nn_tensor *nn_scatter(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index, nn_tensor *src,
                      bool add);
/* Stable sort along [dim] (NaN above every number). nn_sort returns the
 * values (a gather, so differentiable) and the int64 indices in *indices. */
nn_tensor *nn_argsort(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool descending);
nn_tensor *nn_sort(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool descending, nn_tensor **indices);
/* The position along [dim] of the [k]-th smallest (0-based) of each slice
 * of [a], by selection (no sort), as an int64 tensor of a's shape with dim
 * 1: kthvalue's and median's indices (gather [a] with them for values with a
 * gradient). NaN is above every number; [nan_first] (median) picks a
 * slice's first NaN when it has one, as PyTorch. No autograd; new ref. */
nn_tensor *nn_kth_indices(nn_ctx *ctx, nn_tensor *a, int64_t k, int dim, bool nan_first);
/* The k largest (smallest) along [dim], in sorted order. */
nn_tensor *nn_topk(nn_ctx *ctx, nn_tensor *a, int64_t k, int64_t dim, bool largest,
                   nn_tensor **indices);
nn_tensor *nn_index_select(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index);
nn_tensor *nn_flip(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims);
/* Tensor.repeat: [reps] has at least a's ndim entries. */
nn_tensor *nn_repeat(nn_ctx *ctx, nn_tensor *a, const int64_t *reps, int n);
/* all_dims: flatten first (dim=None). */
nn_tensor *nn_repeat_interleave(nn_ctx *ctx, nn_tensor *a, int64_t repeats, int64_t dim,
                                bool all_dims);
/* No gradient: int64 results (bincount with weights: float). num_classes -1
 * infers max + 1; histc's min == max takes the data's range. */
nn_tensor *nn_one_hot(nn_ctx *ctx, nn_tensor *a, int64_t num_classes);
nn_tensor *nn_nonzero(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_bincount(nn_ctx *ctx, nn_tensor *a, nn_tensor *weights, int64_t minlength);
nn_tensor *nn_histc(nn_ctx *ctx, nn_tensor *a, int64_t bins, double min, double max);
/* F.batch_norm over every dim but 1 of x [N, C, ...]. training: batch
 * statistics (biased variance) normalise, and the running ones (either may
 * be NULL) move by [momentum] towards the batch mean and the unbiased
 * variance, without autograd; otherwise the running ones normalise.
 * weight/bias [C] may be NULL. */
nn_tensor *nn_batch_norm(nn_ctx *ctx, nn_tensor *x, nn_tensor *running_mean, nn_tensor *running_var,
                         nn_tensor *weight, nn_tensor *bias, bool training, double momentum,
                         double eps);
/* F.group_norm: x [N, C, ...] normalised per sample over each of
 * [num_groups] groups of channels; weight/bias [C] may be NULL. */
nn_tensor *nn_group_norm(nn_ctx *ctx, nn_tensor *x, int64_t num_groups, nn_tensor *weight,
                         nn_tensor *bias, double eps);

/* ---- more pointwise math, atan2, fmod, prod (ops_more.c) ----
 * Float results in the input's float type (ints and bools give float32);
 * floor, ceil, round (halves to even) and trunc keep an integer input as it
 * is and have zero gradient. */
nn_tensor *nn_tan(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_asin(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_acos(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_atan(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_sinh(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_cosh(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_expm1(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_erf(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_reciprocal(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_floor(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_ceil(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_round(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_trunc(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_frac(nn_ctx *ctx, nn_tensor *a);
/* Broadcasting; fmod's result has the dividend's sign (C's fmod, or % on
 * integers). */
nn_tensor *nn_atan2(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
nn_tensor *nn_fmod(nn_ctx *ctx, nn_tensor *a, nn_tensor *b);
/* The product over everything (all_dims) or along [dim]; integer and bool
 * inputs give int64. */
nn_tensor *nn_prod(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim);

/* ---- special functions (ops_special.c) ----
 * Float results in the input's float type (ints and bools give float32). */
typedef enum nn_special_fn {
    NN_SPECIAL_DIGAMMA,
    NN_SPECIAL_POLYGAMMA, /* [order] n >= 0 */
    NN_SPECIAL_LGAMMA,
    NN_SPECIAL_ERFINV,
    NN_SPECIAL_ERFC,
    NN_SPECIAL_ERFCX,
    NN_SPECIAL_I0,
    NN_SPECIAL_I0E,
    NN_SPECIAL_I1,
    NN_SPECIAL_I1E,
    NN_SPECIAL_NDTRI,
    NN_SPECIAL_NDTR,
    NN_SPECIAL_LOG_NDTR,
    NN_SPECIAL_SINC,
    NN_SPECIAL_ENTR,
    NN_SPECIAL_EXP2,
    NN_SPECIAL_ASINH,
    NN_SPECIAL_ACOSH,
    NN_SPECIAL_ATANH,
    NN_SPECIAL_LOGIT, /* [eps] < 0: none */
    /* torch.special's Bessel and Airy functions: no gradient (PyTorch has
     * none; callers detach the input) */
    NN_SPECIAL_BESSEL_J0,
    NN_SPECIAL_BESSEL_J1,
    NN_SPECIAL_BESSEL_Y0,
    NN_SPECIAL_BESSEL_Y1,
    NN_SPECIAL_MODIFIED_I0,
    NN_SPECIAL_MODIFIED_I1,
    NN_SPECIAL_MODIFIED_K0,
    NN_SPECIAL_MODIFIED_K1,
    NN_SPECIAL_SCALED_K0,
    NN_SPECIAL_SCALED_K1,
    NN_SPECIAL_AIRY_AI,
    NN_SPECIAL_SPHERICAL_J0,
} nn_special_fn;
nn_tensor *nn_special(nn_ctx *ctx, nn_tensor *a, nn_special_fn fn, int order);
nn_tensor *nn_logit(nn_ctx *ctx, nn_tensor *a, double eps);
/* Broadcasting, promoted to the inputs' float type. */
typedef enum nn_special2_fn {
    NN_SPECIAL2_ZETA, /* Hurwitz zeta(x, q) */
    NN_SPECIAL2_XLOGY,
    NN_SPECIAL2_XLOG1PY,
    NN_SPECIAL2_REMAINDER,    /* Python's %: the result has the divisor's sign */
    NN_SPECIAL2_FLOOR_DIVIDE, /* no gradient (PyTorch has none) */
    NN_SPECIAL2_DIV_FLOOR,    /* div(rounding_mode='floor'): zero gradient */
    NN_SPECIAL2_DIV_TRUNC,    /* div(rounding_mode='trunc'): zero gradient */
    NN_SPECIAL2_IGAMMA,       /* regularized lower incomplete gamma P(a, x) */
    NN_SPECIAL2_IGAMMAC,      /* regularized upper Q(a, x); both: gradient for x only */
} nn_special2_fn;
nn_tensor *nn_special2(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_special2_fn fn);
/* ---- convolution and pooling (ops_conv.c) ----
 * x is batched: [N, C, *spatial] with 1 to 3 spatial dims; the per-dim
 * arrays have one value per spatial dim. Convolution: weight [Cout, Cin/G,
 * k...] (transposed: [Cin, Cout/G, k...]), bias [Cout] or NULL,
 * output_padding only for transposed (may be NULL). Errors are PyTorch's. */
nn_tensor *nn_conv(nn_ctx *ctx, nn_tensor *x, nn_tensor *weight, nn_tensor *bias,
                   const int64_t *stride, const int64_t *padding, const int64_t *dilation,
                   const int64_t *output_padding, int64_t groups, bool transposed);
/* im2col of [N, C, H, W] into [N, C*kh*kw, L] and its reverse col2im
 * (sums overlapping blocks) into [N, C, out_hw]; two values per array. */
nn_tensor *nn_unfold(nn_ctx *ctx, nn_tensor *x, const int64_t *kernel, const int64_t *dilation,
                     const int64_t *padding, const int64_t *stride);
nn_tensor *nn_fold(nn_ctx *ctx, nn_tensor *x, const int64_t *out_hw, const int64_t *kernel,
                   const int64_t *dilation, const int64_t *padding, const int64_t *stride);
/* Max or average pooling; adaptive: [kernel] is the output size and stride,
 * padding, dilation are unused. divisor_override 0 means none (it may be negative). With
 * [indices] (max only) *indices receives a new reference to the int64
 * indices of the maxima within each plane (NULL on failure). */
nn_tensor *nn_pool(nn_ctx *ctx, nn_tensor *x, bool is_max, bool adaptive, const int64_t *kernel,
                   const int64_t *stride, const int64_t *padding, const int64_t *dilation,
                   bool ceil_mode, bool count_include_pad, double divisor_override,
                   nn_tensor **indices);
/* The int64 indices of the maxima a recorded max-pool [node] took (new
 * reference): the saved ones, or those its window offsets stand for (a 2x2
 * pooling saves one byte per output instead; what create_graph's rule
 * needs). */
nn_tensor *nn_max_pool_node_indices(nn_ctx *ctx, nn_node *node);

/* ---- fused pointwise ops (ops_fused.c), float inputs ----
 * Rounded once where PyTorch fuses a multiply-add: a + alpha b, s + value
 * t1 t2, s + value t1 / t2, lerp(s, e, w) (w a tensor or wrapped scalar). */
nn_tensor *nn_add_alpha(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, double alpha);
nn_tensor *nn_addcmul(nn_ctx *ctx, nn_tensor *s, nn_tensor *t1, nn_tensor *t2, double value);
nn_tensor *nn_addcdiv(nn_ctx *ctx, nn_tensor *s, nn_tensor *t1, nn_tensor *t2, double value);
nn_tensor *nn_lerp(nn_ctx *ctx, nn_tensor *s, nn_tensor *e, nn_tensor *w);

/* ---- complex tensors and the FFT (ops_fft.c) ----
 * view_as_real: complex [a] as a real view with a last dim of 2;
 * view_as_complex: the reverse (last dim 2, stride 1); conj: a copy with
 * the imaginary parts negated (a real input: a copy). The transforms are
 * PyTorch's primitives: [dims] the transformed dims (any order; the last
 * one is halved by r2c and c2r), [norm] 0 none, 1 1/sqrt(n), 2 1/n.
 * c2c: complex -> complex ([forward]: the e^-2pi i sign); r2c: real ->
 * complex, one-sided unless [twosided]; c2r: complex half spectrum ->
 * real, [last_dim_size] the output's size along the last dim. */
nn_tensor *nn_view_as_real(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_view_as_complex(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_conj(nn_ctx *ctx, nn_tensor *a);
nn_tensor *nn_fft_c2c(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      bool forward);
nn_tensor *nn_fft_r2c(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      bool twosided);
nn_tensor *nn_fft_c2r(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      int64_t last_dim_size);

#endif
