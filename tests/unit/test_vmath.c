/* The vectorisable float32 exp/tanh/sigmoid against libm in double. */
#include "nn_vmath.h"
#include "testutil.h"

/* Error of [got] in units of the last place of the float nearest [ref]. */
static double ulps(float got, double ref) {
    if (isnan(ref)) return isnan(got) ? 0 : INFINITY;
    if (isinf(ref)) return got == ref ? 0 : INFINITY;
    float r = (float)ref;
    if (isinf(r)) return got == r ? 0 : INFINITY; /* beyond float's range */
    double u = (double)nextafterf(fabsf(r), INFINITY) - fabsf(r);
    return fabs((double)got - ref) / (u > 0 ? u : 1e-45);
}

NN_TEST(vmath_exp_tanh_sigmoid_within_few_ulp) {
    double we = 0, wt = 0, ws = 0;
    for (float x = -110.0f; x < 100.0f; x += 0.00137f) {
        double e = ulps(nn_expf(x), exp((double)x));
        double t = ulps(nn_tanhf(x), tanh((double)x));
        double sr = 1.0 / (1.0 + exp(-(double)x));
        double s = sr > 1e-37 ? ulps(nn_sigmoidf(x), sr) : 0;
        we = e > we ? e : we;
        wt = t > wt ? t : wt;
        ws = s > ws ? s : ws;
    }
    for (float x = -1e-3f; x < 1e-3f; x += 3e-7f) {
        double t = ulps(nn_tanhf(x), tanh((double)x));
        wt = t > wt ? t : wt;
    }
    CHECK_MSG(we <= 2, "exp max error %.2f ulp", we);
    CHECK_MSG(wt <= 3, "tanh max error %.2f ulp", wt);
    CHECK_MSG(ws <= 3, "sigmoid max error %.2f ulp", ws);
}

NN_TEST(vmath_erf_close_to_libm) {
    double worst_abs = 0, worst_rel = 0;
    for (float x = -7.0f; x < 7.0f; x += 0.00071f) {
        double r = erf((double)x), e = fabs((double)nn_erff(x) - r);
        worst_abs = e > worst_abs ? e : worst_abs;
        if (fabs(r) > 1e-30 && e / fabs(r) > worst_rel) worst_rel = e / fabs(r);
    }
    CHECK_MSG(worst_abs < 4e-7, "erf max absolute error %.3g", worst_abs);
    CHECK_MSG(worst_rel < 1e-6, "erf max relative error %.3g", worst_rel);
    CHECK(nn_erff(INFINITY) == 1.0f && nn_erff(-INFINITY) == -1.0f && isnan(nn_erff(NAN)));
    CHECK(nn_erff(0) == 0 && nn_erff(-0.0f) == 0);
}

NN_TEST(vmath_special_values) {
    CHECK(isnan(nn_expf(NAN)) && isnan(nn_tanhf(NAN)) && isnan(nn_sigmoidf(NAN)));
    CHECK(nn_expf(INFINITY) == INFINITY && nn_expf(-INFINITY) == 0 && nn_expf(89.0f) == INFINITY);
    CHECK(nn_expf(0) == 1.0f);
    CHECK(nn_tanhf(INFINITY) == 1.0f && nn_tanhf(-INFINITY) == -1.0f && nn_tanhf(0) == 0);
    CHECK(nn_sigmoidf(-INFINITY) == 0 && nn_sigmoidf(INFINITY) == 1.0f);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <string.h>

#include "nn_sleef.h"

__attribute__((target("avx512f,avx2,fma"))) static void exp16_map(float *out, const float *in,
                                                                  int n) {
    for (int i = 0; i < n; i += 16) {
        __m512 x[1], y[1];
        x[0] = _mm512_loadu_ps(in + i);
        nn_sleef_expf16_k(1, x, y);
        _mm512_storeu_ps(out + i, y[0]);
    }
}

__attribute__((target("avx2,fma"))) static void lib_map(nn_sleef_v8f f, float *out, const float *in,
                                                        int n) {
    for (int i = 0; i < n; i += 8) _mm256_storeu_ps(out + i, f(_mm256_loadu_ps(in + i)));
}

/* nn_sleef_map_f32's tanh runs its own copy of SLEEF's tanhf8_u10avx2 (four
 * vectors side by side); it must give the library function's bits: every
 * 4093rd float bit pattern (a million, NaNs, infinities and subnormals
 * among them), in runs whose lengths leave blocks of 4, single vectors and
 * a scalar tail. */
NN_TEST(sleef_tanh_copy_has_library_bits) {
    nn_sleef_v8f lib = nn_sleef_vec_f32(NN_SLEEF_TANH);
    if (!lib) return; /* no libsleef or no AVX2: libm's tanhf, nothing to compare */
    enum { N = 1 << 14 };
    static float in[N], a[N], b[N];
    long bad = 0;
    uint64_t u = 0;
    for (int run = 0; u < (1ull << 32); run++) {
        for (int i = 0; i < N; i++, u += 4093) {
            uint32_t w = (uint32_t)u;
            memcpy(&in[i], &w, 4);
        }
        int n = N - (run % 41); /* 0-40 left over after whole blocks */
        lib_map(lib, a, in, n & ~7);
        for (int i = n & ~7; i < n; i++) a[i] = nn_sleef_float(NN_SLEEF_TANH)(in[i]);
        nn_sleef_map_f32(NN_SLEEF_TANH, b, in, n, n);
        for (int i = 0; i < n; i++) bad += memcmp(&a[i], &b[i], 4) != 0;
    }
    CHECK_MSG(bad == 0, "%ld of about a million tanh values differ from libsleef's", bad);
}

/* On AVX-512F machines nn_sleef_map_f32 maps tanh and exp sixteen floats at
 * a time (nn_sleef.c's tanh_map_avx512, nn_sleef_expf16_k, nndb's 16-lane copy of SLEEF's exp)
 * and the softmax and cross-entropy rows take the same exp; each must give
 * the eight-float library function's bits lane by lane. The inputs: the
 * special values and branch edges of both functions (signed zeros,
 * subnormals, 0.5 and 8.664 for tanh, exp's overflow past 88.72 and its
 * subnormal and zero results down to -104, infinities, NaNs with either
 * sign) as every fifth input, between them a spread of magnitudes, in runs of every length from 0
 * to 80 so that 64-float blocks, single 16-float vectors, an 8-float vector and a scalar tail all
 * occur. Where the CPU lacks AVX-512F the maps take the AVX2 path and the test checks that instead.
 */
NN_TEST(sleef_16_lane_maps_have_8_lane_bits) {
    nn_sleef_fn fns[] = {NN_SLEEF_TANH, NN_SLEEF_EXP};
    enum { N = 4096 };
    static float in[N], a[N], b[N];
    static const float special[] = {
        0.0f,        -0.0f,     1e-45f,      -1e-45f,     1.1754942e-38f, -1.1754942e-38f,
        1e-30f,      0.5f,      0.49999997f, 0.50000006f, -0.5f,          8.6643391f,
        8.6643400f,  -8.66434f, 9.0f,        -20.0f,      88.0f,          88.72283f,
        88.72284f,   89.0f,     -87.33654f,  -87.5f,      -103.97f,       -104.0f,
        -104.00001f, -150.0f,   1e30f,       -1e30f,      3.4028235e38f,  -3.4028235e38f,
        INFINITY,    -INFINITY, NAN,         -NAN};
    const int ns = (int)(sizeof special / sizeof special[0]);
    uint32_t w = 0x12345678u;
    for (int i = 0; i < N; i++) {
        if (i % 5 == 0) { /* every fifth, so that every kind of run has them */
            in[i] = special[(i / 5) % ns];
        } else {
            w = w * 1664525u + 1013904223u; /* exponents from 2^-30 to 2^8, either sign */
            in[i] = ldexpf((float)(w >> 8) / 16777216.0f, (int)(w % 39) - 30) * (w & 1 ? -1 : 1);
        }
    }
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        nn_sleef_v8f lib = nn_sleef_vec_f32(fns[f]);
        if (!lib) return; /* no libsleef or no AVX2: libm, nothing to compare */
        long bad = 0;
        for (int off = 0, len = 0; off + len <= N; off += len, len = (len + 1) % 81) {
            lib_map(lib, a + off, in + off, len & ~7);
            for (int i = len & ~7; i < len; i++) a[off + i] = nn_sleef_float(fns[f])(in[off + i]);
            nn_sleef_map_f32(fns[f], b + off, in + off, len, len);
            for (int i = 0; i < len; i++) bad += memcmp(&a[off + i], &b[off + i], 4) != 0;
        }
        CHECK_MSG(bad == 0, "%ld %s values differ from the 8-float function's", bad,
                  fns[f] == NN_SLEEF_EXP ? "exp" : "tanh");
    }
    /* The start-up checks (nn_sleef.c's probe) accept the inline copies on
     * an AVX-512F machine, so the 16-lane paths are what runs there. */
    const char *no512 = getenv("NNDB_NO_AVX512");
    if (__builtin_cpu_supports("avx512f") && !(no512 && *no512 == '1'))
        CHECK_MSG(nn_sleef_exp16(), "the 16-lane maps were turned off at start-up");
    if (nn_sleef_exp16()) { /* the inline copy the rows use, one vector at a time */
        lib_map(nn_sleef_vec_f32(NN_SLEEF_EXP), a, in, N);
        exp16_map(b, in, N);
        CHECK_MSG(memcmp(a, b, sizeof a) == 0, "nn_sleef_expf16_k differs from Sleef_expf8");
    }
}
#endif
