/* nn_rng: a seedable random generator that gives the same numbers on every
 * machine (xoshiro256** seeded through splitmix64; normals by Box-Muller in
 * double precision). The state is a plain struct the caller owns. */
#ifndef NN_RNG_H
#define NN_RNG_H

#include <stdint.h>

typedef struct nn_rng {
    uint64_t s[4];
    double spare_normal; /* second Box-Muller value, valid when has_spare */
    int has_spare;
} nn_rng;

void nn_rng_seed(nn_rng *rng, uint64_t seed);
uint64_t nn_rng_next(nn_rng *rng);
/* Uniform in [0, 1) with 53 random bits. */
double nn_rng_uniform(nn_rng *rng);
/* Standard normal. */
double nn_rng_normal(nn_rng *rng);
/* Uniform integer in [0, n), without modulo bias; n > 0. */
uint64_t nn_rng_below(nn_rng *rng, uint64_t n);

#endif
