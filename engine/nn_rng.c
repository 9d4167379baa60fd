#include "nn_rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void nn_rng_seed(nn_rng *rng, uint64_t seed) {
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&x);
    rng->has_spare = 0;
    rng->spare_normal = 0;
}

static uint64_t rotl(uint64_t x, int k) {
    return (x << k) | (x >> (64 - k));
}

uint64_t nn_rng_next(nn_rng *rng) {
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double nn_rng_uniform(nn_rng *rng) {
    return (double)(nn_rng_next(rng) >> 11) * 0x1.0p-53;
}

double nn_rng_normal(nn_rng *rng) {
    if (rng->has_spare) {
        rng->has_spare = 0;
        return rng->spare_normal;
    }
    double u1 = 1.0 - nn_rng_uniform(rng); /* (0, 1]: log is finite */
    double u2 = nn_rng_uniform(rng);
    double r = sqrt(-2.0 * log(u1));
    double a = 6.283185307179586 * u2;
    rng->spare_normal = r * sin(a);
    rng->has_spare = 1;
    return r * cos(a);
}

uint64_t nn_rng_below(nn_rng *rng, uint64_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = nn_rng_next(rng);
    while (x >= limit);
    return x % n;
}
