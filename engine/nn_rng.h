/* nn_rng: PyTorch's CPU generator, bit for bit (torch 1.13's CPUGeneratorImpl).
 *
 * A 32-bit Mersenne Twister (MT19937) seeded as PyTorch seeds it (the low 32
 * bits of the seed through the standard linear recurrence; the whole 64-bit
 * seed is kept for initial_seed), with PyTorch's conversions: a float32
 * uniform takes the low 24 bits of one 32-bit draw, a float64 uniform the low
 * 53 bits of a 64-bit draw made of two 32-bit draws (the first one high), an
 * integer in [0, n) is a draw modulo n (64-bit when n >= 2^32), and a single
 * normal is Box-Muller in double precision that keeps the second value for
 * the next call. Tensors of 16 or more contiguous elements are filled with
 * normals 16 at a time (nn_rng_fill_normal_*), as PyTorch's normal_fill.
 *
 * The state is a plain struct the caller owns; nn_rng_new/nn_rng_free give a
 * heap one ("a generator object seeded with N"). Everything random in the
 * engine draws from an nn_rng: the context's default one (ctx->rng) or an
 * explicit object. get_state/set_state use PyTorch's 5056-byte layout, so a
 * state saved by torch.Generator.get_state() loads here and back.
 */
#ifndef NN_RNG_H
#define NN_RNG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NN_RNG_MT_N 624
/* The seed of a new torch.Generator() (default_rng_seed_val). */
#define NN_RNG_DEFAULT_SEED 67280421310721ULL
/* sizeof(CPUGeneratorImplState) in torch 1.13: what get_state returns. */
#define NN_RNG_STATE_BYTES 5056

typedef struct nn_rng {
    uint64_t seed; /* the seed given to nn_rng_seed (initial_seed) */
    uint32_t mt[NN_RNG_MT_N];
    int32_t left;    /* draws before the next twist, plus one */
    uint32_t next;   /* index of the next word of mt */
    bool has_normal; /* the spare Box-Muller value of nn_rng_normal */
    double normal;
    bool has_normal_f32; /* PyTorch's float spare: kept only for the state */
    float normal_f32;
} nn_rng;

void nn_rng_seed(nn_rng *rng, uint64_t seed);
/* A heap generator seeded with [seed]; NULL when out of memory. */
nn_rng *nn_rng_new(uint64_t seed);
void nn_rng_free(nn_rng *rng);

uint32_t nn_rng_next32(nn_rng *rng);
/* Two 32-bit draws, the first in the high half (CPUGeneratorImpl::random64). */
uint64_t nn_rng_next(nn_rng *rng);
/* Uniform in [0, 1) with 53 bits (float64 rand, bernoulli, exponential). */
double nn_rng_uniform(nn_rng *rng);
/* Uniform in [0, 1) with 24 bits (float32 rand). */
float nn_rng_uniform_f32(nn_rng *rng);
/* Standard normal (at::normal_distribution<double>, with its spare). */
double nn_rng_normal(nn_rng *rng);
/* An integer in [0, n) as randint draws it: next32 % n, or next % n when
 * n >= 2^32 (the modulo bias is PyTorch's). n > 0. */
uint64_t nn_rng_below(nn_rng *rng, uint64_t n);

/* Fill x[0..n) with uniforms in [from, to) as uniform_ fills a tensor:
 * x * (to - from) + from (one rounding) in the element type, x the 24- or
 * 53-bit uniform. */
void nn_rng_fill_uniform_f32(nn_rng *rng, float *x, int64_t n, float from, float to);
void nn_rng_fill_uniform_f64(nn_rng *rng, double *x, int64_t n, double from, double to);

/* Fill x[0..n) with N(mean, std^2) as PyTorch fills a contiguous tensor of
 * n >= 16 elements: n uniforms first, Box-Muller on each block of 16 (the
 * first 8 give the radii, the last 8 the angles), and when 16 does not
 * divide n the last 16 drawn again and transformed. The float32 version is
 * PyTorch's AVX2 one (its own log and sincos polynomials); n < 16 is the
 * caller's business (use nn_rng_normal per element). */
void nn_rng_fill_normal_f32(nn_rng *rng, float *x, int64_t n, float mean, float std);
void nn_rng_fill_normal_f64(nn_rng *rng, double *x, int64_t n, double mean, double std);

/* PyTorch's byte layout of the state. set_state returns false (and leaves
 * [rng] unchanged) when [n] is not NN_RNG_STATE_BYTES or the fields are out
 * of range. */
void nn_rng_get_state(const nn_rng *rng, uint8_t out[NN_RNG_STATE_BYTES]);
bool nn_rng_set_state(nn_rng *rng, const uint8_t *state, size_t n);

#endif
