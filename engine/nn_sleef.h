/* nn_sleef: the SLEEF vectorised math library (Debian's libsleef3, the one
 * Debian's PyTorch links), opened with dlopen when a kernel first needs it,
 * as nn_blas.c opens OpenBLAS.
 *
 * Why: PyTorch's CPU kernels compute exp, log, sin, tanh, lgamma, erf and
 * the rest of its vectorised math with SLEEF's 1-ulp functions, not with
 * libm, and the two differ in the last bit on a few percent of inputs.
 * Learners compare nndb's numbers with PyTorch's using ==, so nndb calls
 * the same functions. SLEEF's scalar "purecfma" variants compute the same
 * bits as the AVX2 lanes PyTorch uses on x86-64 (checked element by element
 * in tests/py/special_bits.py). Without libsleef.so.3 the libm function is
 * used: a last-bit difference, never a failure. */
#ifndef NN_SLEEF_H
#define NN_SLEEF_H

#include <stdbool.h>
#include <stdint.h>

typedef float (*nn_sleef_f1)(float);
typedef double (*nn_sleef_d1)(double);
typedef float (*nn_sleef_f2)(float, float);
typedef double (*nn_sleef_d2)(double, double);

/* The functions, by SLEEF's name stem ("exp", "log1p", "atan2"): SLEEF's
 * scalar function, or [fallback] when the library or the name is missing. */
typedef enum nn_sleef_fn {
    NN_SLEEF_EXP,
    NN_SLEEF_EXPM1,
    NN_SLEEF_EXP2,
    NN_SLEEF_LOG,
    NN_SLEEF_LOG1P,
    NN_SLEEF_LOG2,
    NN_SLEEF_LOG10,
    NN_SLEEF_SIN,
    NN_SLEEF_COS,
    NN_SLEEF_TAN,
    NN_SLEEF_ASIN,
    NN_SLEEF_ACOS,
    NN_SLEEF_ATAN,
    NN_SLEEF_SINH,
    NN_SLEEF_COSH,
    NN_SLEEF_TANH,
    NN_SLEEF_ERF,
    NN_SLEEF_ERFC,
    NN_SLEEF_LGAMMA,
    NN_SLEEF_COUNT
} nn_sleef_fn;

typedef enum nn_sleef_fn2 {
    NN_SLEEF_ATAN2,
    NN_SLEEF_HYPOT,
    NN_SLEEF_POW,
    NN_SLEEF_COUNT2
} nn_sleef_fn2;

nn_sleef_f1 nn_sleef_float(nn_sleef_fn fn);
nn_sleef_d1 nn_sleef_double(nn_sleef_fn fn);
nn_sleef_f2 nn_sleef_float2(nn_sleef_fn2 fn);
nn_sleef_d2 nn_sleef_double2(nn_sleef_fn2 fn);

/* out[i] = fn(in[i]) for i < n, over plain arrays, with SLEEF's AVX2
 * vector functions where available (the same bits as the scalar ones).
 * [tail]: the elements from index [tail] on use libm instead, as PyTorch's
 * vectorised loops do for the remainder after whole vector blocks; pass
 * [n] for functions PyTorch maps entirely through SLEEF. */
void nn_sleef_map_f32(nn_sleef_fn fn, float *out, const float *in, int64_t n, int64_t tail);
void nn_sleef_map_f64(nn_sleef_fn fn, double *out, const double *in, int64_t n, int64_t tail);
/* The start of that scalar remainder for a contiguous run of [n] elements:
 * PyTorch's loops take 2 vectors at a time (16 floats or 8 doubles). */
static inline int64_t nn_sleef_tail(int64_t n, bool is_f32) {
    return n - n % (is_f32 ? 16 : 8);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* SLEEF's AVX2 function of eight floats (Sleef_expf8_u10avx2 for
 * NN_SLEEF_EXP: the one PyTorch 1.13's Vectorized<float>::exp calls on an
 * AVX2 machine), or NULL when libsleef.so.3 or the CPU's AVX2 and FMA are
 * missing. Call it only from code compiled for AVX2. */
typedef __m256 (*nn_sleef_v8f)(__m256);
nn_sleef_v8f nn_sleef_vec_f32(nn_sleef_fn fn);
/* The same for four doubles (Sleef_expd4_u10avx2). */
typedef __m256d (*nn_sleef_v4d)(__m256d);
nn_sleef_v4d nn_sleef_vec_f64(nn_sleef_fn fn);
/* SLEEF's AVX-512F function of sixteen floats (Sleef_expf16_u10avx512f for
 * NN_SLEEF_EXP, the only one offered) where it gives the AVX2 function's
 * bits lane by lane (checked at start) and the CPU and OS have AVX-512F;
 * NULL elsewhere, under NNDB_NO_SLEEF=1 and under NNDB_NO_AVX512=1. Call it
 * only from code compiled for AVX-512F. nn_sleef_map_f32 uses it, and the
 * sixteen-float copy of the tanh, by itself. */
typedef __m512 (*nn_sleef_v16f)(__m512);
nn_sleef_v16f nn_sleef_vec16_f32(nn_sleef_fn fn);
#endif

/* Where the functions come from: "libsleef.so.3" or "libm". */
const char *nn_sleef_source(void);

#endif
