#include "nn_sleef.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

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
#endif

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
    if (__builtin_cpu_supports("fma") && __builtin_cpu_supports("avx2"))
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
#endif

void nn_sleef_map_f32(nn_sleef_fn fn, float *out, const float *in, int64_t n, int64_t tail) {
    pthread_once(&once, load);
    int64_t i = 0;
#ifdef HAVE_AVX2_PATH
    if (vfs[fn]) i = map_f32_avx2(vfs[fn], out, in, tail);
#endif
    nn_sleef_f1 f = fs[fn];
    for (; i < tail; i++) out[i] = f(in[i]);
    float (*g)(float) = table[fn].f;
    for (; i < n; i++) out[i] = g(in[i]);
}

void nn_sleef_map_f64(nn_sleef_fn fn, double *out, const double *in, int64_t n, int64_t tail) {
    pthread_once(&once, load);
    int64_t i = 0;
#ifdef HAVE_AVX2_PATH
    if (vds[fn]) i = map_f64_avx2(vds[fn], out, in, tail);
#endif
    nn_sleef_d1 f = ds[fn];
    for (; i < tail; i++) out[i] = f(in[i]);
    double (*g)(double) = table[fn].d;
    for (; i < n; i++) out[i] = g(in[i]);
}
