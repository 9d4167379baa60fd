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

/* exp of [k] vectors of sixteen floats each (k <= 4, a constant where it is
 * inlined): SLEEF 3.5.1's expf u10 as Debian's libsleef.so.3 builds it
 * (Sleef_expf8_u10avx2, the function PyTorch 1.13's Vectorized<float>::exp
 * calls on AVX2 machines; Sleef_expf16_u10avx512f is the same sequence),
 * transcribed instruction by instruction on 16 lanes: the same operations
 * in the same order per lane, so the same bits (compared over all 2^32
 * floats with a throwaway program when it was written: none differ). Why a
 * copy: a call a vector keeps one short dependent chain in flight; [k]
 * vectors step by step side by side keep the core's units busy. Use it only
 * where nn_sleef_exp16() says so (AVX-512F there, bits checked at start). */
static inline __attribute__((always_inline, target("avx512f,avx2,fma"))) void
nn_sleef_expf16_k(int k, const __m512 *d, __m512 *out) {
#define NN_EXPF_C(h) _mm512_castsi512_ps(_mm512_set1_epi32((int)(h)))
    __m512i q[4];
    __m512 s[4], u[4];
    for (int j = 0; j < k; j++) {
        q[j] = _mm512_cvtps_epi32(_mm512_mul_ps(d[j], NN_EXPF_C(0x3fb8aa3b))); /* 1/ln 2 */
        __m512 qf = _mm512_cvtepi32_ps(q[j]);
        s[j] = _mm512_fmadd_ps(qf, NN_EXPF_C(0xbf317200), d[j]); /* -ln 2, high part */
        s[j] = _mm512_fmadd_ps(qf, NN_EXPF_C(0xb5bfbe8e), s[j]); /* and low part */
    }
    for (int j = 0; j < k; j++) {
        u[j] = _mm512_fmadd_ps(s[j], NN_EXPF_C(0x39502bda), NN_EXPF_C(0x3ab696c9));
        u[j] = _mm512_fmadd_ps(s[j], u[j], NN_EXPF_C(0x3c0888a6));
        u[j] = _mm512_fmadd_ps(s[j], u[j], NN_EXPF_C(0x3d2aaa7a));
        u[j] = _mm512_fmadd_ps(s[j], u[j], NN_EXPF_C(0x3e2aaaab));
        u[j] = _mm512_fmadd_ps(s[j], u[j], _mm512_set1_ps(0.5f));
        u[j] = _mm512_add_ps(_mm512_fmadd_ps(u[j], _mm512_mul_ps(s[j], s[j]), s[j]),
                             _mm512_set1_ps(1.0f));
    }
    for (int j = 0; j < k; j++) {
        /* times 2^q as 2^(q>>1) 2^(q - (q>>1)); 0 below -104, inf above 100 */
        const __m512i ione = _mm512_set1_epi32(0x3f800000);
        __m512i qh = _mm512_srai_epi32(q[j], 1);
        __m512 p1 = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_slli_epi32(qh, 23), ione));
        __m512 p2 = _mm512_castsi512_ps(
            _mm512_add_epi32(_mm512_slli_epi32(_mm512_sub_epi32(q[j], qh), 23), ione));
        __mmask16 keep = _mm512_cmp_ps_mask(d[j], _mm512_set1_ps(-104.0f), _CMP_NLT_US);
        __m512 r = _mm512_maskz_mov_ps(keep, _mm512_mul_ps(_mm512_mul_ps(u[j], p1), p2));
        __mmask16 big = _mm512_cmp_ps_mask(d[j], _mm512_set1_ps(100.0f), _CMP_GT_OS);
        out[j] = _mm512_mask_mov_ps(r, big, NN_EXPF_C(0x7f800000));
    }
#undef NN_EXPF_C
}
/* Whether this machine runs nn_sleef_expf16_k and nndb's sixteen-float tanh:
 * AVX-512F in the CPU and enabled by the OS, libsleef.so.3 loaded, and both
 * copies giving the library's bits on the start-up check; false under
 * NNDB_NO_SLEEF=1 and NNDB_NO_AVX512=1. nn_sleef_map_f32 uses them by
 * itself. */
bool nn_sleef_exp16(void);
#endif

/* Where the functions come from: "libsleef.so.3" or "libm". */
const char *nn_sleef_source(void);

#endif
