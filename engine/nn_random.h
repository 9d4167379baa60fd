/* nn_random: PyTorch's random tensor functions over nn_rng, drawing from the
 * stream exactly as torch 1.13 on the CPU does (which draw, which
 * conversion, which order), so the same seed gives the same tensors.
 *
 * Every function takes [gen], an explicit generator (torch's generator=),
 * or NULL for the context's default one (ctx->rng). nn_rand, nn_randn,
 * nn_randint, nn_tensor_uniform_ and nn_tensor_normal_ (nn_tensor.h) are
 * these with gen = NULL.
 *
 * Order of draws: a fill visits the elements of a contiguous tensor in
 * row-major order, and of any other tensor in memory order (dims sorted by
 * stride, as TensorIterator does). normal_ on a contiguous tensor of 16 or
 * more elements uses nn_rng's block fill; otherwise one normal per element
 * (with the generator's spare). Returned tensors are new references; the
 * in-place fills need no_grad on a leaf that requires grad and bump the
 * storage version.
 */
#ifndef NN_RANDOM_H
#define NN_RANDOM_H

#include "nn_ctx.h"
#include "nn_tensor.h"

nn_tensor *nn_rand_gen(nn_ctx *ctx, nn_rng *gen, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_randn_gen(nn_ctx *ctx, nn_rng *gen, nn_dtype dt, int ndim, const int64_t *shape);
/* Integers in [low, high) (high > low) in [dt]: one draw modulo the range
 * per element. */
nn_tensor *nn_randint_gen(nn_ctx *ctx, nn_rng *gen, int64_t low, int64_t high, nn_dtype dt,
                          int ndim, const int64_t *shape);
/* A permutation of 0..n-1 (n >= 0) in [dt]: PyTorch's swap shuffle. */
nn_tensor *nn_randperm(nn_ctx *ctx, nn_rng *gen, int64_t n, nn_dtype dt);
/* torch.bernoulli(p): 0/1 in p's dtype, each 1 with probability p[i]. */
nn_tensor *nn_bernoulli(nn_ctx *ctx, nn_tensor *p, nn_rng *gen);
/* torch.multinomial(probs, n, replacement): probs [k] or [m, k] of
 * non-negative finite weights (not necessarily summing to 1); int64 indices
 * [n] or [m, n]. Without replacement (or n == 1) it is PyTorch's
 * exponential-race: argmax / topk of probs / Exp(1). */
nn_tensor *nn_multinomial(nn_ctx *ctx, nn_tensor *probs, int64_t n, bool replacement, nn_rng *gen);

/* Tensor.cauchy_(median, sigma), log_normal_(mean, std) (std > 0) and
 * geometric_(p) (0 < p < 1; any number dtype): one double per element,
 * drawn and transformed as torch 1.13's CPU kernels do. */
nn_status nn_tensor_cauchy_(nn_ctx *ctx, nn_tensor *t, double median, double sigma, nn_rng *gen);
nn_status nn_tensor_log_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std, nn_rng *gen);
nn_status nn_tensor_geometric_(nn_ctx *ctx, nn_tensor *t, double p, nn_rng *gen);
/* torch.poisson(rates): counts in rates' float dtype (rates >= 0), ATen's
 * sampler. torch.binomial(count, prob): count and prob of one float dtype
 * and one number of elements (the caller broadcasts), ATen's BTRS /
 * inversion sampler in that dtype. Row-major order, one element at a time. */
nn_tensor *nn_poisson(nn_ctx *ctx, nn_tensor *rates, nn_rng *gen);
nn_tensor *nn_binomial(nn_ctx *ctx, nn_tensor *count, nn_tensor *prob, nn_rng *gen);

nn_status nn_tensor_uniform_gen_(nn_ctx *ctx, nn_tensor *t, double lo, double hi, nn_rng *gen);
nn_status nn_tensor_normal_gen_(nn_ctx *ctx, nn_tensor *t, double mean, double std, nn_rng *gen);
/* Each element 1 with probability p, else 0 (any dtype). */
nn_status nn_tensor_bernoulli_(nn_ctx *ctx, nn_tensor *t, double p, nn_rng *gen);
/* Exp(lambd) values, lambd > 0. */
nn_status nn_tensor_exponential_(nn_ctx *ctx, nn_tensor *t, double lambd, nn_rng *gen);
/* Integers in [low, high) in t's dtype (Tensor.random_(from, to)). */
nn_status nn_tensor_random_(nn_ctx *ctx, nn_tensor *t, int64_t low, int64_t high, nn_rng *gen);

/* torch.empty((), dtype=torch.int64).random_(generator=gen).item(): a seed
 * in [0, 2^63) drawn the way DataLoader and RandomSampler draw theirs. */
int64_t nn_random_seed_draw(nn_rng *gen);
/* randperm(n) from [gen] into p[0..n): what nn_randperm draws, for callers
 * with a buffer of their own (a DataLoader's epoch order). A DataLoader
 * matches torch's when each iter() calls nn_random_seed_draw on its
 * generator (or the default one), and a shuffled epoch is
 * nn_random_perm_into(its generator), or, without one, the permutation
 * from a fresh nn_rng seeded with nn_random_seed_draw(&ctx->rng); see
 * nn_loader_config in nn_data.h. */
void nn_random_perm_into(nn_rng *gen, int64_t *p, int64_t n);

#endif
