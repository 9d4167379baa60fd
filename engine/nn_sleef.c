#include "nn_sleef.h"

#include "nn_thread.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each function: SLEEF's stem, its accuracy suffix (PyTorch 1.13's
 * Vectorized<float>/<double> use the 1.0-ulp versions, erfc the 1.5-ulp
 * one), and libm's fallbacks. */
static const struct {
    const char *stem, *ulp;
    float (*f)(float);
    double (*d)(double);
} table[NN_SLEEF_COUNT] = {
    [NN_SLEEF_EXP] = {"exp", "u10", expf, exp},
    [NN_SLEEF_EXPM1] = {"expm1", "u10", expm1f, expm1},
    [NN_SLEEF_EXP2] = {"exp2", "u10", exp2f, exp2},
    [NN_SLEEF_LOG] = {"log", "u10", logf, log},
    [NN_SLEEF_LOG1P] = {"log1p", "u10", log1pf, log1p},
    [NN_SLEEF_LOG2] = {"log2", "u10", log2f, log2},
    [NN_SLEEF_LOG10] = {"log10", "u10", log10f, log10},
    [NN_SLEEF_SIN] = {"sin", "u10", sinf, sin},
    [NN_SLEEF_COS] = {"cos", "u10", cosf, cos},
    [NN_SLEEF_TAN] = {"tan", "u10", tanf, tan},
    [NN_SLEEF_ASIN] = {"asin", "u10", asinf, asin},
    [NN_SLEEF_ACOS] = {"acos", "u10", acosf, acos},
    [NN_SLEEF_ATAN] = {"atan", "u10", atanf, atan},
    [NN_SLEEF_SINH] = {"sinh", "u10", sinhf, sinh},
    [NN_SLEEF_COSH] = {"cosh", "u10", coshf, cosh},
    [NN_SLEEF_TANH] = {"tanh", "u10", tanhf, tanh},
    [NN_SLEEF_ERF] = {"erf", "u10", erff, erf},
    [NN_SLEEF_ERFC] = {"erfc", "u15", erfcf, erfc},
    [NN_SLEEF_LGAMMA] = {"lgamma", "u10", lgammaf, lgamma},
};

static const struct {
    const char *stem, *ulp;
    float (*f)(float, float);
    double (*d)(double, double);
} table2[NN_SLEEF_COUNT2] = {
    [NN_SLEEF_ATAN2] = {"atan2", "u10", atan2f, atan2},
    [NN_SLEEF_HYPOT] = {"hypot", "u05", hypotf, hypot},
    [NN_SLEEF_POW] = {"pow", "u10", powf, pow},
};

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX2_PATH 1
typedef nn_sleef_v8f vec_f;
typedef nn_sleef_v4d vec_d;
static vec_f vfs[NN_SLEEF_COUNT];
static vec_d vds[NN_SLEEF_COUNT];
/* Whether nn_sleef_expf16_k is used (nn_sleef_exp16) */
static bool exp16;
#endif

#ifdef HAVE_AVX2_PATH
/* tanh of eight floats: SLEEF 3.5.1's Sleef_tanhf8_u10avx2 (the function
 * PyTorch 1.13's Vectorized<float>::tanh calls), transcribed instruction by
 * instruction from Debian's libsleef.so.3: the same operations in the same
 * order, so the same bits (compared over all 2^32 floats when it was
 * written; load() compares it with the library's function again at start).
 * Why a copy: the library's function is one chain of ~125 dependent
 * instructions with two divisions, and a loop calling it keeps only about
 * two vectors in flight; this one works on [k] vectors side by side (each
 * step for all of them before the next), which the core overlaps: 4096
 * floats in ~7.2 us instead of ~10.5 (bench: docs/benchmarks.md, "The MLP
 * step, fifth session"). Inlined with a constant [k] (TANH_K, or 1 for the
 * last vectors), so its arrays live in registers.
 *
 * The loop is bound by the vector pipes (about 100 operations per 8
 * floats), so seven of the library's operations are left out where that
 * cannot change a result: |x| + 0 before the multiply by 1/ln 2 (|x| is
 * never -0); adding +0 to the low part of the reduced argument (a sum
 * whose first term is a difference of distinct values or an exact
 * cancellation, never -0); the two negations of e^-a's parts, folded into
 * subtractions (a - b is a + (-b) in IEEE arithmetic); and the test for an
 * exp argument below -104 with its two and-nots (the argument is |x|,
 * never below 0). A NaN's payload could differ, but every NaN the steps
 * make ends as 1, or as the all-ones pattern for a NaN input, before and
 * after. Checked over all 2^32 inputs against libsleef's
 * Sleef_tanhf8_u10avx2 (a throwaway program built with the project's
 * flags: GNU C's default -ffp-contract=fast fuses multiplies and adds and
 * changes the bits); load() compares the two at every start. */
#define TANH_K 4
static inline __attribute__((always_inline, target("avx2,fma"))) void
tanh_vec(int k, const __m256 *x, __m256 *out) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256 absm = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 sgnm = _mm256_castsi256_ps(_mm256_set1_epi32((int)0x80000000u));
    const __m256i ione = _mm256_set1_epi32(0x3f800000);
    __m256 a[TANH_K], sx[TANH_K], sy[TANH_K], u[TANH_K], tx[TANH_K], ty[TANH_K];
    __m256 dx[TANH_K], dy[TANH_K], ex[TANH_K], nx[TANH_K], ny[TANH_K], px[TANH_K], py[TANH_K];
    __m256i q[TANH_K];
    /* d = exp(|x|) as a float pair (SLEEF's expk2f): q = rint(|x| / ln 2),
     * s = |x| - q ln 2 in two parts (hi, lo) */
    for (int j = 0; j < k; j++) {
        a[j] = _mm256_and_ps(x[j], absm);
        q[j] = _mm256_cvtps_epi32(_mm256_mul_ps(a[j], _mm256_set1_ps(1.44269502f)));
    }
    for (int j = 0; j < k; j++) {
        __m256 qf = _mm256_cvtepi32_ps(q[j]);
        __m256 t1 = _mm256_mul_ps(qf, _mm256_set1_ps(-0.693145752f));
        __m256 s1 = _mm256_add_ps(t1, a[j]);
        __m256 v = _mm256_sub_ps(s1, a[j]);
        __m256 e1 = _mm256_add_ps(_mm256_sub_ps(a[j], _mm256_sub_ps(s1, v)), _mm256_sub_ps(t1, v));
        __m256 t2 = _mm256_mul_ps(qf, _mm256_set1_ps(-1.42860677e-06f));
        __m256 s2 = _mm256_add_ps(t2, s1);
        __m256 w = _mm256_sub_ps(s2, s1);
        __m256 e2 = _mm256_add_ps(_mm256_sub_ps(t2, w), _mm256_sub_ps(s1, _mm256_sub_ps(s2, w)));
        sx[j] = s2;
        sy[j] = _mm256_add_ps(e1, e2);
    }
    /* the polynomial */
    for (int j = 0; j < k; j++) {
        u[j] =
            _mm256_fmadd_ps(sx[j], _mm256_set1_ps(0.000198096022f), _mm256_set1_ps(0.00139425648f));
        u[j] = _mm256_fmadd_ps(sx[j], u[j], _mm256_set1_ps(0.0083334567f));
        u[j] = _mm256_fmadd_ps(sx[j], u[j], _mm256_set1_ps(0.0416663736f));
    }
    for (int j = 0; j < k; j++) {
        __m256 c = _mm256_set1_ps(0.166666657f);
        __m256 p = _mm256_mul_ps(sx[j], u[j]);
        __m256 pl = _mm256_fmadd_ps(sy[j], u[j], _mm256_fmsub_ps(sx[j], u[j], p));
        __m256 r = _mm256_add_ps(p, c);
        __m256 rv = _mm256_sub_ps(r, p);
        __m256 rl = _mm256_add_ps(
            pl, _mm256_add_ps(_mm256_sub_ps(c, rv), _mm256_sub_ps(p, _mm256_sub_ps(r, rv))));
        tx[j] = _mm256_mul_ps(r, sx[j]);
        ty[j] =
            _mm256_fmadd_ps(sx[j], rl, _mm256_fmadd_ps(sy[j], r, _mm256_fmsub_ps(sx[j], r, tx[j])));
    }
    for (int j = 0; j < k; j++) {
        __m256 h = _mm256_set1_ps(0.5f);
        __m256 r = _mm256_add_ps(h, tx[j]);
        __m256 x2 = _mm256_mul_ps(sx[j], sx[j]);
        __m256 sq = _mm256_add_ps(sx[j], sx[j]);
        __m256 m = _mm256_mul_ps(x2, r);
        __m256 b = _mm256_add_ps(m, sx[j]);
        __m256 bv = _mm256_sub_ps(b, sx[j]);
        __m256 bl = _mm256_sub_ps(sx[j], _mm256_sub_ps(b, bv));
        __m256 x2l = _mm256_fmadd_ps(sy[j], sq, _mm256_fmsub_ps(sx[j], sx[j], x2));
        __m256 ml = _mm256_fmadd_ps(r, x2l, _mm256_fmsub_ps(x2, r, m));
        __m256 rv = _mm256_sub_ps(r, tx[j]);
        __m256 rl = _mm256_add_ps(
            ty[j], _mm256_add_ps(_mm256_sub_ps(h, rv), _mm256_sub_ps(tx[j], _mm256_sub_ps(r, rv))));
        ml = _mm256_fmadd_ps(x2, rl, ml);
        __m256 el =
            _mm256_add_ps(_mm256_add_ps(bl, _mm256_sub_ps(m, bv)), _mm256_add_ps(ml, sy[j]));
        __m256 f = _mm256_add_ps(b, one);
        __m256 fl = _mm256_add_ps(_mm256_add_ps(b, _mm256_sub_ps(one, f)), el);
        /* times 2^q, as two factors 2^(q>>1) and 2^(q - (q>>1)) */
        __m256i qh = _mm256_srai_epi32(q[j], 1);
        __m256 p1 = _mm256_castsi256_ps(_mm256_add_epi32(_mm256_slli_epi32(qh, 23), ione));
        __m256 p2 = _mm256_castsi256_ps(
            _mm256_add_epi32(ione, _mm256_slli_epi32(_mm256_sub_epi32(q[j], qh), 23)));
        dx[j] = _mm256_mul_ps(_mm256_mul_ps(p1, f), p2);
        dy[j] = _mm256_mul_ps(_mm256_mul_ps(p1, fl), p2);
    }
    /* e = 1 / d; n = d - e, p = d + e */
    for (int j = 0; j < k; j++) ex[j] = _mm256_div_ps(one, dx[j]);
    for (int j = 0; j < k; j++) {
        __m256 ey = _mm256_mul_ps(
            ex[j], _mm256_fnmadd_ps(dy[j], ex[j], _mm256_fnmadd_ps(dx[j], ex[j], one)));
        nx[j] = _mm256_sub_ps(dx[j], ex[j]);
        ny[j] = _mm256_sub_ps(
            _mm256_add_ps(_mm256_sub_ps(_mm256_sub_ps(dx[j], nx[j]), ex[j]), dy[j]), ey);
        px[j] = _mm256_add_ps(ex[j], dx[j]);
        py[j] = _mm256_add_ps(
            _mm256_add_ps(_mm256_add_ps(ex[j], _mm256_sub_ps(dx[j], px[j])), dy[j]), ey);
    }
    /* tanh |x| = n / p; 1 beyond 8.664339742 and where that is NaN; x's sign */
    for (int j = 0; j < k; j++) ex[j] = _mm256_div_ps(one, px[j]);
    for (int j = 0; j < k; j++) {
        __m256 r = ex[j];
        __m256 z = _mm256_mul_ps(nx[j], r);
        __m256 zl = _mm256_fmsub_ps(r, nx[j], z);
        __m256 c = _mm256_fnmadd_ps(r, py[j], _mm256_fnmadd_ps(r, px[j], one));
        zl = _mm256_fmadd_ps(z, c, _mm256_fmadd_ps(r, ny[j], zl));
        __m256 y = _mm256_add_ps(zl, z);
        __m256 big = _mm256_cmp_ps(_mm256_set1_ps(8.664339742f), a[j], _CMP_LT_OS);
        y = _mm256_blendv_ps(y, one, _mm256_or_ps(_mm256_cmp_ps(y, zero, _CMP_UNORD_Q), big));
        y = _mm256_xor_ps(_mm256_and_ps(sgnm, x[j]), y);
        out[j] = _mm256_or_ps(y, _mm256_cmp_ps(x[j], zero, _CMP_UNORD_Q));
    }
}

__attribute__((target("avx2,fma"))) static int64_t tanh_map_avx2(float *out, const float *in,
                                                                 int64_t n) {
    int64_t i = 0;
    for (; i + 8 * TANH_K <= n; i += 8 * TANH_K) {
        __m256 x[TANH_K], y[TANH_K];
        for (int j = 0; j < TANH_K; j++) x[j] = _mm256_loadu_ps(in + i + 8 * j);
        tanh_vec(TANH_K, x, y);
        for (int j = 0; j < TANH_K; j++) _mm256_storeu_ps(out + i + 8 * j, y[j]);
    }
    for (; i + 8 <= n; i += 8) {
        __m256 x[1], y[1];
        x[0] = _mm256_loadu_ps(in + i);
        tanh_vec(1, x, y);
        _mm256_storeu_ps(out + i, y[0]);
    }
    return i;
}

/* tanh_vec on sixteen floats (AVX-512F), with the same operations left
 * out, so the same results lane by lane (checked over all 2^32 inputs in
 * the same way, and at every start by tanh16_matches). Where a 16-lane
 * core runs a 512-bit operation in the time of a 256-bit one (AMD Zen 5),
 * twice the floats an instruction. AVX-512F has no float and/xor (that is
 * AVX-512DQ), so the magnitude mask goes through the integer one, and the
 * sign's and + xor is one ternary-logic operation; its compares give mask
 * registers, so the blendv becomes a masked blend. */
#define TANH16_K 4
static inline __attribute__((always_inline, target("avx512f"))) __m512 and16(__m512 a, __m512 b) {
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

static inline __attribute__((always_inline, target("avx512f,avx2,fma"))) void
tanh_vec16(int k, const __m512 *x, __m512 *out) {
    const __m512 zero = _mm512_setzero_ps(), one = _mm512_set1_ps(1.0f);
    const __m512 absm = _mm512_castsi512_ps(_mm512_set1_epi32(0x7fffffff));
    const __m512 sgnm = _mm512_castsi512_ps(_mm512_set1_epi32((int)0x80000000u));
    const __m512 ones = _mm512_castsi512_ps(_mm512_set1_epi32(-1));
    const __m512i ione = _mm512_set1_epi32(0x3f800000);
    __m512 a[TANH16_K], sx[TANH16_K], sy[TANH16_K], u[TANH16_K], tx[TANH16_K], ty[TANH16_K];
    __m512 dx[TANH16_K], dy[TANH16_K], ex[TANH16_K], nx[TANH16_K], ny[TANH16_K];
    __m512 px[TANH16_K], py[TANH16_K];
    __m512i q[TANH16_K];
    for (int j = 0; j < k; j++) {
        a[j] = and16(x[j], absm);
        q[j] = _mm512_cvtps_epi32(_mm512_mul_ps(a[j], _mm512_set1_ps(1.44269502f)));
    }
    for (int j = 0; j < k; j++) {
        __m512 qf = _mm512_cvtepi32_ps(q[j]);
        __m512 t1 = _mm512_mul_ps(qf, _mm512_set1_ps(-0.693145752f));
        __m512 s1 = _mm512_add_ps(t1, a[j]);
        __m512 v = _mm512_sub_ps(s1, a[j]);
        __m512 e1 = _mm512_add_ps(_mm512_sub_ps(a[j], _mm512_sub_ps(s1, v)), _mm512_sub_ps(t1, v));
        __m512 t2 = _mm512_mul_ps(qf, _mm512_set1_ps(-1.42860677e-06f));
        __m512 s2 = _mm512_add_ps(t2, s1);
        __m512 w = _mm512_sub_ps(s2, s1);
        __m512 e2 = _mm512_add_ps(_mm512_sub_ps(t2, w), _mm512_sub_ps(s1, _mm512_sub_ps(s2, w)));
        sx[j] = s2;
        sy[j] = _mm512_add_ps(e1, e2);
    }
    for (int j = 0; j < k; j++) {
        u[j] =
            _mm512_fmadd_ps(sx[j], _mm512_set1_ps(0.000198096022f), _mm512_set1_ps(0.00139425648f));
        u[j] = _mm512_fmadd_ps(sx[j], u[j], _mm512_set1_ps(0.0083334567f));
        u[j] = _mm512_fmadd_ps(sx[j], u[j], _mm512_set1_ps(0.0416663736f));
    }
    for (int j = 0; j < k; j++) {
        __m512 c = _mm512_set1_ps(0.166666657f);
        __m512 p = _mm512_mul_ps(sx[j], u[j]);
        __m512 pl = _mm512_fmadd_ps(sy[j], u[j], _mm512_fmsub_ps(sx[j], u[j], p));
        __m512 r = _mm512_add_ps(p, c);
        __m512 rv = _mm512_sub_ps(r, p);
        __m512 rl = _mm512_add_ps(
            pl, _mm512_add_ps(_mm512_sub_ps(c, rv), _mm512_sub_ps(p, _mm512_sub_ps(r, rv))));
        tx[j] = _mm512_mul_ps(r, sx[j]);
        ty[j] =
            _mm512_fmadd_ps(sx[j], rl, _mm512_fmadd_ps(sy[j], r, _mm512_fmsub_ps(sx[j], r, tx[j])));
    }
    for (int j = 0; j < k; j++) {
        __m512 h = _mm512_set1_ps(0.5f);
        __m512 r = _mm512_add_ps(h, tx[j]);
        __m512 x2 = _mm512_mul_ps(sx[j], sx[j]);
        __m512 sq = _mm512_add_ps(sx[j], sx[j]);
        __m512 m = _mm512_mul_ps(x2, r);
        __m512 b = _mm512_add_ps(m, sx[j]);
        __m512 bv = _mm512_sub_ps(b, sx[j]);
        __m512 bl = _mm512_sub_ps(sx[j], _mm512_sub_ps(b, bv));
        __m512 x2l = _mm512_fmadd_ps(sy[j], sq, _mm512_fmsub_ps(sx[j], sx[j], x2));
        __m512 ml = _mm512_fmadd_ps(r, x2l, _mm512_fmsub_ps(x2, r, m));
        __m512 rv = _mm512_sub_ps(r, tx[j]);
        __m512 rl = _mm512_add_ps(
            ty[j], _mm512_add_ps(_mm512_sub_ps(h, rv), _mm512_sub_ps(tx[j], _mm512_sub_ps(r, rv))));
        ml = _mm512_fmadd_ps(x2, rl, ml);
        __m512 el =
            _mm512_add_ps(_mm512_add_ps(bl, _mm512_sub_ps(m, bv)), _mm512_add_ps(ml, sy[j]));
        __m512 f = _mm512_add_ps(b, one);
        __m512 fl = _mm512_add_ps(_mm512_add_ps(b, _mm512_sub_ps(one, f)), el);
        __m512i qh = _mm512_srai_epi32(q[j], 1);
        __m512 p1 = _mm512_castsi512_ps(_mm512_add_epi32(_mm512_slli_epi32(qh, 23), ione));
        __m512 p2 = _mm512_castsi512_ps(
            _mm512_add_epi32(ione, _mm512_slli_epi32(_mm512_sub_epi32(q[j], qh), 23)));
        dx[j] = _mm512_mul_ps(_mm512_mul_ps(p1, f), p2);
        dy[j] = _mm512_mul_ps(_mm512_mul_ps(p1, fl), p2);
    }
    for (int j = 0; j < k; j++) ex[j] = _mm512_div_ps(one, dx[j]);
    for (int j = 0; j < k; j++) {
        __m512 ey = _mm512_mul_ps(
            ex[j], _mm512_fnmadd_ps(dy[j], ex[j], _mm512_fnmadd_ps(dx[j], ex[j], one)));
        nx[j] = _mm512_sub_ps(dx[j], ex[j]);
        ny[j] = _mm512_sub_ps(
            _mm512_add_ps(_mm512_sub_ps(_mm512_sub_ps(dx[j], nx[j]), ex[j]), dy[j]), ey);
        px[j] = _mm512_add_ps(ex[j], dx[j]);
        py[j] = _mm512_add_ps(
            _mm512_add_ps(_mm512_add_ps(ex[j], _mm512_sub_ps(dx[j], px[j])), dy[j]), ey);
    }
    for (int j = 0; j < k; j++) ex[j] = _mm512_div_ps(one, px[j]);
    for (int j = 0; j < k; j++) {
        __m512 r = ex[j];
        __m512 z = _mm512_mul_ps(nx[j], r);
        __m512 zl = _mm512_fmsub_ps(r, nx[j], z);
        __m512 c = _mm512_fnmadd_ps(r, py[j], _mm512_fnmadd_ps(r, px[j], one));
        zl = _mm512_fmadd_ps(z, c, _mm512_fmadd_ps(r, ny[j], zl));
        __m512 y = _mm512_add_ps(zl, z);
        __mmask16 big = _mm512_cmp_ps_mask(_mm512_set1_ps(8.664339742f), a[j], _CMP_LT_OS);
        y = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(y, zero, _CMP_UNORD_Q) | big, y, one);
        y = _mm512_castsi512_ps(_mm512_ternarylogic_epi32(
            _mm512_castps_si512(sgnm), _mm512_castps_si512(x[j]), _mm512_castps_si512(y), 0x6A));
        /* or with the all-ones of an unordered compare: all ones */
        out[j] = _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(x[j], zero, _CMP_UNORD_Q), ones);
    }
}

__attribute__((target("avx512f,avx2,fma"))) static int64_t
tanh_map_avx512(float *out, const float *in, int64_t n) {
    int64_t i = 0;
    for (; i + 16 * TANH16_K <= n; i += 16 * TANH16_K) {
        __m512 x[TANH16_K], y[TANH16_K];
        for (int j = 0; j < TANH16_K; j++) x[j] = _mm512_loadu_ps(in + i + 16 * j);
        tanh_vec16(TANH16_K, x, y);
        for (int j = 0; j < TANH16_K; j++) _mm512_storeu_ps(out + i + 16 * j, y[j]);
    }
    for (; i + 16 <= n; i += 16) {
        __m512 x[1], y[1];
        x[0] = _mm512_loadu_ps(in + i);
        tanh_vec16(1, x, y);
        _mm512_storeu_ps(out + i, y[0]);
    }
    return i;
}

/* The start-up checks below: does an inline copy give the loaded library's
 * AVX2 bits? Compared once, at load, over PROBE_N inputs (a ramp of [step]
 * with a small jitter, and [special] - each branch's edges, infinities,
 * NaN, subnormals - every third slot from the end), so that another SLEEF
 * build with another function keeps calling its own. [in] gets the inputs
 * and [want] the library's results. */
enum { PROBE_N = 256 };

__attribute__((target("avx2,fma"))) static void
probe(vec_f lib, float step, int mod, const float *special, size_t count, float *in, float *want) {
    for (int i = 0; i < PROBE_N; i++) in[i] = (i - PROBE_N / 2) * step + (i % mod) * 1.5e-3f;
    for (size_t i = 0; i < count; i++) in[PROBE_N - 1 - 3 * i] = special[i];
    for (int i = 0; i < PROBE_N; i += 8) _mm256_storeu_ps(want + i, lib(_mm256_loadu_ps(in + i)));
}

/* tanh: tiny, around 0.5 where SLEEF is not correctly rounded, large,
 * beyond 8.66 */
static const float tanh_special[] = {
    0.0f, -0.0f,  1e-30f, -1e-38f, 1e-45f, 0.5f,     0.50001f, -0.4999f,  8.6643f, 8.66434f,
    9.0f, -20.0f, 88.0f,  104.5f,  1e30f,  -3.4e38f, INFINITY, -INFINITY, NAN,     -NAN};

/* Whether tanh_map_avx2 gives the library's bits. */
__attribute__((target("avx2,fma"))) static bool tanh_inline_matches(vec_f lib) {
    float in[PROBE_N], want[PROBE_N], got[PROBE_N];
    probe(lib, 0.0793f, 7, tanh_special, sizeof tanh_special / sizeof *tanh_special, in, want);
    tanh_map_avx2(got, in, PROBE_N);
    return memcmp(want, got, sizeof want) == 0;
}

/* Whether tanh_map_avx512 gives the library's AVX2 bits. */
__attribute__((target("avx512f,avx2,fma"))) static bool tanh16_matches(vec_f lib) {
    float in[PROBE_N], want[PROBE_N], got[PROBE_N];
    probe(lib, 0.0793f, 7, tanh_special, sizeof tanh_special / sizeof *tanh_special, in, want);
    tanh_map_avx512(got, in, PROBE_N);
    return memcmp(want, got, sizeof want) == 0;
}

/* Whether nn_sleef_expf16_k gives the library's AVX2 exp's bits on every
 * branch: overflow past 88.72 and above 100, subnormal results, 0 below
 * -104. */
__attribute__((target("avx512f,avx2,fma"))) static bool exp16_matches(vec_f lib) {
    static const float special[] = {0.0f,      -0.0f,    1e-45f,  -1e-30f, 88.0f,  88.7228f,
                                    88.7229f,  89.0f,    100.0f,  100.01f, -87.3f, -103.97f,
                                    -104.0f,   -104.01f, -150.0f, 1e30f,   -1e30f, INFINITY,
                                    -INFINITY, NAN,      -NAN};
    float in[PROBE_N], want[PROBE_N], got[PROBE_N];
    probe(lib, 0.8317f, 5, special, sizeof special / sizeof *special, in, want);
    for (int i = 0; i < PROBE_N; i += 64) {
        __m512 x[4], y[4];
        for (int j = 0; j < 4; j++) x[j] = _mm512_loadu_ps(in + i + 16 * j);
        nn_sleef_expf16_k(4, x, y);
        for (int j = 0; j < 4; j++) _mm512_storeu_ps(got + i + 16 * j, y[j]);
    }
    return memcmp(want, got, sizeof want) == 0;
}
#endif

/* Whether nn_sleef_map_f32's tanh runs tanh_map_avx2, and on machines with
 * AVX-512F tanh_map_avx512 first (set by load()). */
static bool tanh_inline, tanh16;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static nn_sleef_f1 fs[NN_SLEEF_COUNT];
static nn_sleef_d1 ds[NN_SLEEF_COUNT];
static nn_sleef_f2 fs2[NN_SLEEF_COUNT2];
static nn_sleef_d2 ds2[NN_SLEEF_COUNT2];
static const char *source = "libm";

static void *sym(void *h, const char *stem, const char *kind, const char *ulp) {
    char name[64];
    snprintf(name, sizeof name, "Sleef_%s%s1_%spurecfma", stem, kind, ulp);
    return h ? dlsym(h, name) : NULL;
}

/* The "purecfma" variants use fused multiply-adds as the AVX2 ones do; on a
 * CPU without FMA, calling them would fault, so libm is used there. */
static void load(void) {
    void *h = NULL;
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    /* NNDB_NO_SLEEF=1 takes the libm path as a machine without libsleef or
     * AVX2 does (tests/py/executable.py runs it) */
    const char *off = getenv("NNDB_NO_SLEEF");
    if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2") && !(off && *off == '1'))
        h = dlopen("libsleef.so.3", RTLD_NOW | RTLD_LOCAL);
#endif
    if (h) source = "libsleef.so.3";
    for (int i = 0; i < NN_SLEEF_COUNT; i++) {
        void *f = sym(h, table[i].stem, "f", table[i].ulp);
        void *d = sym(h, table[i].stem, "d", table[i].ulp);
        fs[i] = f ? (nn_sleef_f1)(uintptr_t)f : table[i].f;
        ds[i] = d ? (nn_sleef_d1)(uintptr_t)d : table[i].d;
    }
#ifdef HAVE_AVX2_PATH
    for (int i = 0; i < NN_SLEEF_COUNT && h; i++) {
        char name[64];
        snprintf(name, sizeof name, "Sleef_%sf8_%savx2", table[i].stem, table[i].ulp);
        vfs[i] = (vec_f)(uintptr_t)dlsym(h, name);
        snprintf(name, sizeof name, "Sleef_%sd4_%savx2", table[i].stem, table[i].ulp);
        vds[i] = (vec_d)(uintptr_t)dlsym(h, name);
    }
    if (vfs[NN_SLEEF_TANH]) tanh_inline = tanh_inline_matches(vfs[NN_SLEEF_TANH]);
    /* The sixteen-float versions where the CPU has AVX-512F and the OS saves
     * its registers (libgcc's check reads XCR0); NNDB_NO_AVX512=1 keeps the
     * AVX2 path, as a machine without them runs (the same bits either way:
     * for A/B timing and the tests that compare the two). */
    const char *no512 = getenv("NNDB_NO_AVX512");
    if (h && __builtin_cpu_supports("avx512f") && !(no512 && *no512 == '1')) {
        tanh16 = tanh_inline && tanh16_matches(vfs[NN_SLEEF_TANH]);
        exp16 = tanh16 && vfs[NN_SLEEF_EXP] && exp16_matches(vfs[NN_SLEEF_EXP]);
    }
#endif
    for (int i = 0; i < NN_SLEEF_COUNT2; i++) {
        void *f = sym(h, table2[i].stem, "f", table2[i].ulp);
        void *d = sym(h, table2[i].stem, "d", table2[i].ulp);
        fs2[i] = f ? (nn_sleef_f2)(uintptr_t)f : table2[i].f;
        ds2[i] = d ? (nn_sleef_d2)(uintptr_t)d : table2[i].d;
    }
}

nn_sleef_f1 nn_sleef_float(nn_sleef_fn fn) {
    pthread_once(&once, load);
    return fs[fn];
}

nn_sleef_d1 nn_sleef_double(nn_sleef_fn fn) {
    pthread_once(&once, load);
    return ds[fn];
}

nn_sleef_f2 nn_sleef_float2(nn_sleef_fn2 fn) {
    pthread_once(&once, load);
    return fs2[fn];
}

nn_sleef_d2 nn_sleef_double2(nn_sleef_fn2 fn) {
    pthread_once(&once, load);
    return ds2[fn];
}

#ifdef HAVE_AVX2_PATH
nn_sleef_v8f nn_sleef_vec_f32(nn_sleef_fn fn) {
    pthread_once(&once, load);
    return vfs[fn];
}

nn_sleef_v4d nn_sleef_vec_f64(nn_sleef_fn fn) {
    pthread_once(&once, load);
    return vds[fn];
}

bool nn_sleef_exp16(void) {
    pthread_once(&once, load);
    return exp16;
}
#endif

const char *nn_sleef_source(void) {
    pthread_once(&once, load);
    return source;
}

#ifdef HAVE_AVX2_PATH
__attribute__((target("avx2,fma"))) static int64_t map_f32_avx2(vec_f v, float *out,
                                                                const float *in, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(out + i, v(_mm256_loadu_ps(in + i)));
    return i;
}

__attribute__((target("avx2,fma"))) static int64_t map_f64_avx2(vec_d v, double *out,
                                                                const double *in, int64_t n) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(out + i, v(_mm256_loadu_pd(in + i)));
    return i;
}

__attribute__((target("avx512f,avx2,fma"))) static int64_t
exp_map_avx512(float *out, const float *in, int64_t n) {
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512 x[4], y[4];
        for (int j = 0; j < 4; j++) x[j] = _mm512_loadu_ps(in + i + 16 * j);
        nn_sleef_expf16_k(4, x, y);
        for (int j = 0; j < 4; j++) _mm512_storeu_ps(out + i + 16 * j, y[j]);
    }
    for (; i + 16 <= n; i += 16) {
        __m512 x[1], y[1];
        x[0] = _mm512_loadu_ps(in + i);
        nn_sleef_expf16_k(1, x, y);
        _mm512_storeu_ps(out + i, y[0]);
    }
    return i;
}
#endif

static void map_f32(nn_sleef_fn fn, float *out, const float *in, int64_t n, int64_t tail) {
    int64_t i = 0;
#ifdef HAVE_AVX2_PATH
    /* whole 16-float vectors first where AVX-512F is used, the rest of
     * [tail] 8 at a time: each lane gets the same bits either way */
    if (fn == NN_SLEEF_TANH && tanh16)
        i = tanh_map_avx512(out, in, tail);
    else if (fn == NN_SLEEF_EXP && exp16)
        i = exp_map_avx512(out, in, tail);
    if (fn == NN_SLEEF_TANH && tanh_inline)
        i += tanh_map_avx2(out + i, in + i, tail - i);
    else if (vfs[fn])
        i += map_f32_avx2(vfs[fn], out + i, in + i, tail - i);
#endif
    nn_sleef_f1 f = fs[fn];
    for (; i < tail; i++) out[i] = f(in[i]);
    float (*g)(float) = table[fn].f;
    for (; i < n; i++) out[i] = g(in[i]);
}

static void map_f64(nn_sleef_fn fn, double *out, const double *in, int64_t n, int64_t tail) {
    int64_t i = 0;
#ifdef HAVE_AVX2_PATH
    if (vds[fn]) i = map_f64_avx2(vds[fn], out, in, tail);
#endif
    nn_sleef_d1 f = ds[fn];
    for (; i < tail; i++) out[i] = f(in[i]);
    double (*g)(double) = table[fn].d;
    for (; i < n; i++) out[i] = g(in[i]);
}

/* The maps split across the engine's threads: each element's bits depend
 * only on its value and on which side of [tail] it lies (SLEEF's vector and
 * scalar functions agree), so any split gives the serial loop's bits.
 * exp and log are cheap enough to gain only from the memory-bound
 * threshold; the others (sin, erf, tan, ...) from a quarter of it, as the
 * unary kernels' dear ones (nn_ops_impl.h). A map called from inside a
 * job runs serially (nn_thread.h). */
typedef struct map_job {
    nn_sleef_fn fn;
    bool f32;
    void *out;
    const void *in;
    int64_t n, tail;
} map_job;

static void map_task(void *arg, int task, int n_tasks) {
    const map_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->n, task, n_tasks, 16, &b, &e);
    if (b >= e) return;
    int64_t tail = j->tail - b < 0 ? 0 : j->tail - b > e - b ? e - b : j->tail - b;
    if (j->f32)
        map_f32(j->fn, (float *)j->out + b, (const float *)j->in + b, e - b, tail);
    else
        map_f64(j->fn, (double *)j->out + b, (const double *)j->in + b, e - b, tail);
}

static void map_run(nn_sleef_fn fn, bool f32, void *out, const void *in, int64_t n, int64_t tail) {
    pthread_once(&once, load);
    int64_t min = nn_par_min_elemwise();
    if (fn != NN_SLEEF_EXP && fn != NN_SLEEF_LOG) min /= 4;
    map_job j = {fn, f32, out, in, n, tail};
    int tasks = nn_parallel_tasks(n, min);
    if (tasks > 1)
        nn_parallel_run(tasks, map_task, &j);
    else
        map_task(&j, 0, 1);
}

void nn_sleef_map_f32(nn_sleef_fn fn, float *out, const float *in, int64_t n, int64_t tail) {
    map_run(fn, true, out, in, n, tail);
}

void nn_sleef_map_f64(nn_sleef_fn fn, double *out, const double *in, int64_t n, int64_t tail) {
    map_run(fn, false, out, in, n, tail);
}
