/* ops_lanes: the eight-lane double accumulation shared by the reductions
 * that must keep the plain loop's bits (sum, BatchNorm's statistics and
 * backward sums): a[k] += x[i + k] over the blocks of eight in [0, n8).
 * float32 is written with vector types, because GCC leaves the plain loop
 * scalar (a convert and a double add per element); each double lane adds
 * the same elements in the same order, so the bits are those of the plain
 * loop. Internal to the engine's kernels. */
#ifndef OPS_LANES_H
#define OPS_LANES_H

#include <stdint.h>
#include <string.h>

typedef float lanes_v4f __attribute__((vector_size(16)));
typedef double lanes_v4d __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) void lanes_sum_float(const float *x, int64_t n8,
                                                                  double *a) {
    lanes_v4d lo, hi;
    memcpy(&lo, a, sizeof lo);
    memcpy(&hi, a + 4, sizeof hi);
    for (int64_t i = 0; i < n8; i += 8) {
        lanes_v4f x0, x1;
        memcpy(&x0, x + i, sizeof x0);
        memcpy(&x1, x + i + 4, sizeof x1);
        lo += __builtin_convertvector(x0, lanes_v4d);
        hi += __builtin_convertvector(x1, lanes_v4d);
    }
    memcpy(a, &lo, sizeof lo);
    memcpy(a + 4, &hi, sizeof hi);
}

static inline __attribute__((always_inline)) void lanes_sum_double(const double *x, int64_t n8,
                                                                   double *a) {
    for (int64_t i = 0; i < n8; i += 8)
        for (int k = 0; k < 8; k++) a[k] += x[i + k];
}

#endif
