#include "nn_rng.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The fill kernel is compiled for AVX2+FMA too when GCC can (see
 * nn_ops_impl.h): fmaf is then one instruction, and the results are the same
 * on every version because every fused step is written as fmaf. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define RNG_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define RNG_CLONES
#endif

enum { MT_M = 397 };

void nn_rng_seed(nn_rng *rng, uint64_t seed) {
    memset(rng, 0, sizeof *rng);
    rng->seed = seed;
    rng->mt[0] = (uint32_t)seed;
    for (uint32_t j = 1; j < NN_RNG_MT_N; j++)
        rng->mt[j] = 1812433253u * (rng->mt[j - 1] ^ (rng->mt[j - 1] >> 30)) + j;
    rng->left = 1;
    rng->next = 0;
}

nn_rng *nn_rng_new(uint64_t seed) {
    nn_rng *rng = malloc(sizeof *rng);
    if (rng) nn_rng_seed(rng, seed);
    return rng;
}

void nn_rng_free(nn_rng *rng) {
    free(rng);
}

static uint32_t twist(uint32_t u, uint32_t v) {
    uint32_t y = (u & 0x80000000u) | (v & 0x7fffffffu);
    return (y >> 1) ^ ((v & 1u) ? 0x9908b0dfu : 0u);
}

static void next_state(nn_rng *rng) {
    uint32_t *s = rng->mt;
    int k = 0;
    for (; k < NN_RNG_MT_N - MT_M; k++) s[k] = s[k + MT_M] ^ twist(s[k], s[k + 1]);
    for (; k < NN_RNG_MT_N - 1; k++) s[k] = s[k + MT_M - NN_RNG_MT_N] ^ twist(s[k], s[k + 1]);
    s[k] = s[k + MT_M - NN_RNG_MT_N] ^ twist(s[k], s[0]);
    rng->left = NN_RNG_MT_N;
    rng->next = 0;
}

static inline uint32_t draw32(nn_rng *rng) {
    if (--rng->left == 0) next_state(rng);
    uint32_t y = rng->mt[rng->next++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static inline uint64_t draw64(nn_rng *rng) {
    uint64_t hi = draw32(rng);
    return hi << 32 | draw32(rng);
}

uint32_t nn_rng_next32(nn_rng *rng) {
    return draw32(rng);
}

uint64_t nn_rng_next(nn_rng *rng) {
    return draw64(rng);
}

static inline double u53(nn_rng *rng) {
    return (double)(draw64(rng) & ((1ULL << 53) - 1)) * 0x1.0p-53;
}

static inline float u24(nn_rng *rng) {
    return (float)(draw32(rng) & ((1u << 24) - 1)) * 0x1.0p-24f;
}

double nn_rng_uniform(nn_rng *rng) {
    return u53(rng);
}

float nn_rng_uniform_f32(nn_rng *rng) {
    return u24(rng);
}

/* The words of a whole twist are drawn in one go, then converted; the
 * conversion (fmaf) is one instruction in the AVX2 clone. */
RNG_CLONES static void uniform_block_f32(float *x, const uint32_t *w, int n, float from,
                                         float span) {
    for (int i = 0; i < n; i++)
        x[i] = fmaf((float)(w[i] & ((1u << 24) - 1)) * 0x1.0p-24f, span, from);
}

void nn_rng_fill_uniform_f32(nn_rng *rng, float *x, int64_t n, float from, float to) {
    uint32_t w[256];
    float span = to - from;
    for (int64_t i = 0; i < n; i += 256) {
        int k = n - i < 256 ? (int)(n - i) : 256;
        for (int j = 0; j < k; j++) w[j] = draw32(rng);
        uniform_block_f32(x + i, w, k, from, span);
    }
}

void nn_rng_fill_uniform_f64(nn_rng *rng, double *x, int64_t n, double from, double to) {
    double span = to - from;
    for (int64_t i = 0; i < n; i++) x[i] = fma(u53(rng), span, from);
}

double nn_rng_normal(nn_rng *rng) {
    if (rng->has_normal) {
        rng->has_normal = false;
        return rng->normal;
    }
    double u1 = nn_rng_uniform(rng);
    double u2 = nn_rng_uniform(rng);
    double r = sqrt(-2.0 * log(1.0 - u2));
    double theta = 2.0 * 3.14159265358979323846 * u1;
    rng->normal = r * sin(theta);
    rng->has_normal = true;
    return r * cos(theta);
}

uint64_t nn_rng_below(nn_rng *rng, uint64_t n) {
    if (n >= (1ULL << 32)) return nn_rng_next(rng) % n;
    return nn_rng_next32(rng) % n;
}

/* ---- the float32 normal fill: PyTorch's normal_fill_16_AVX2 one lane at a
 * time. Its log and sincos are the Cephes polynomials of avx_mathfun.h;
 * torch's compiler fused each multiply that feeds only an add into an FMA,
 * so those steps are fmaf here, and everything else is rounded step by
 * step as there. */

static inline uint32_t f2u(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float u2f(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float cephes_logf(float x) {
    if (x < FLT_MIN) x = FLT_MIN; /* the argument is in (0, 1] here */
    uint32_t ix = f2u(x);
    int32_t ei = (int32_t)(ix >> 23) - 0x7f;
    x = u2f((ix & ~0x7f800000u) | 0x3f000000u); /* mantissa, in [0.5, 1) */
    float e = (float)ei + 1.0f;
    bool small = x < 0.707106781186547524f;
    float tmp = small ? x : 0.0f;
    x = x - 1.0f;
    e = e - (small ? 1.0f : 0.0f);
    x = x + tmp;
    float z = x * x;
    float y = fmaf(7.0376836292E-2f, x, -1.1514610310E-1f);
    y = fmaf(y, x, 1.1676998740E-1f);
    y = fmaf(y, x, -1.2420140846E-1f);
    y = fmaf(y, x, 1.4249322787E-1f);
    y = fmaf(y, x, -1.6668057665E-1f);
    y = fmaf(y, x, 2.0000714765E-1f);
    y = fmaf(y, x, -2.4999993993E-1f);
    y = fmaf(y, x, 3.3333331174E-1f);
    y = y * x;
    y = fmaf(y, z, e * -2.12194440e-4f);
    y = fmaf(-z, 0.5f, y);
    return fmaf(e, 0.693359375f, x + y);
}

static inline void cephes_sincosf(float x, float *s, float *c) {
    uint32_t sign_sin = f2u(x) & 0x80000000u;
    x = fabsf(x);
    float y = x * 1.27323954473516f;
    int32_t j = (int32_t)y;
    j = (j + 1) & ~1;
    y = (float)j;
    uint32_t swap_sin = ((uint32_t)j & 4u) << 29;
    bool poly = (j & 2) == 0;
    x = fmaf(y, -0.78515625f, x);
    x = fmaf(y, -2.4187564849853515625e-4f, x);
    x = fmaf(y, -3.77489497744594108e-8f, x);
    uint32_t sign_cos = (~(uint32_t)(j - 2) & 4u) << 29;
    sign_sin ^= swap_sin;
    float z = x * x;
    float yc = fmaf(2.443315711809948E-005f, z, -1.388731625493765E-003f);
    yc = fmaf(yc, z, 4.166664568298827E-002f);
    yc = yc * z;
    yc = fmaf(yc, z, -(z * 0.5f));
    yc = yc + 1.0f;
    float ys = fmaf(-1.9515295891E-4f, z, 8.3321608736E-3f);
    ys = fmaf(ys, z, -1.6666654611E-1f);
    ys = ys * z;
    ys = fmaf(ys, x, x);
    float ysin2 = poly ? ys : 0.0f, ysin1 = poly ? 0.0f : yc;
    ys = ys - ysin2;
    yc = yc - ysin1;
    *s = u2f(f2u(ysin1 + ysin2) ^ sign_sin);
    *c = u2f(f2u(yc + ys) ^ sign_cos);
}

RNG_CLONES static void normal16_f32(float *d, float mean, float std) {
    const float two_pi = (float)(2.0 * 3.14159265358979323846);
    float out[16];
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j], u2 = d[j + 8];
        float radius = sqrtf(-2.0f * cephes_logf(u1));
        float s, c;
        cephes_sincosf(two_pi * u2, &s, &c);
        out[j] = fmaf(radius * c, std, mean);
        out[j + 8] = fmaf(radius * s, std, mean);
    }
    memcpy(d, out, sizeof out);
}

void nn_rng_fill_normal_f32(nn_rng *rng, float *x, int64_t n, float mean, float std) {
    nn_rng_fill_uniform_f32(rng, x, n, 0.0f, 1.0f);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal16_f32(x + i, mean, std);
    if (n % 16) {
        float *tail = x + n - 16;
        nn_rng_fill_uniform_f32(rng, tail, 16, 0.0f, 1.0f);
        normal16_f32(tail, mean, std);
    }
}

static void normal16_f64(double *d, double mean, double std) {
    for (int j = 0; j < 8; j++) {
        double u1 = 1.0 - d[j], u2 = d[j + 8];
        double radius = sqrt(-2.0 * log(u1));
        double theta = 2.0 * 3.14159265358979323846 * u2;
        d[j] = fma(radius * cos(theta), std, mean);
        d[j + 8] = fma(radius * sin(theta), std, mean);
    }
}

void nn_rng_fill_normal_f64(nn_rng *rng, double *x, int64_t n, double mean, double std) {
    for (int64_t i = 0; i < n; i++) x[i] = u53(rng);
    for (int64_t i = 0; i + 16 <= n; i += 16) normal16_f64(x + i, mean, std);
    if (n % 16) {
        double *tail = x + n - 16;
        for (int i = 0; i < 16; i++) tail[i] = u53(rng);
        normal16_f64(tail, mean, std);
    }
}

/* ---- state, in CPUGeneratorImplState's layout (little-endian x86-64):
 *   0 u64 initial seed   8 i32 left   12 i32 seeded   16 u64 next
 *   24 u64[624] the twister words   5016 f64 normal_x   5024 f64 normal_y
 *   5032 f64 normal_rho   5040 i32 normal_is_valid   5048 f32 float spare
 *   5052 bool float spare valid */

enum {
    ST_SEED = 0,
    ST_LEFT = 8,
    ST_SEEDED = 12,
    ST_NEXT = 16,
    ST_MT = 24,
    ST_NORMAL_Y = 5024,
    ST_NORMAL_VALID = 5040,
    ST_F32 = 5048,
    ST_F32_VALID = 5052
};

void nn_rng_get_state(const nn_rng *rng, uint8_t out[NN_RNG_STATE_BYTES]) {
    memset(out, 0, NN_RNG_STATE_BYTES);
    int32_t seeded = 1;
    uint64_t next = rng->next;
    memcpy(out + ST_SEED, &rng->seed, 8);
    memcpy(out + ST_LEFT, &rng->left, 4);
    memcpy(out + ST_SEEDED, &seeded, 4);
    memcpy(out + ST_NEXT, &next, 8);
    for (int i = 0; i < NN_RNG_MT_N; i++) {
        uint64_t w = rng->mt[i];
        memcpy(out + ST_MT + 8 * i, &w, 8);
    }
    if (rng->has_normal) {
        int32_t valid = 1;
        memcpy(out + ST_NORMAL_Y, &rng->normal, 8);
        memcpy(out + ST_NORMAL_VALID, &valid, 4);
    }
    if (rng->has_normal_f32) {
        memcpy(out + ST_F32, &rng->normal_f32, 4);
        out[ST_F32_VALID] = 1;
    }
}

bool nn_rng_set_state(nn_rng *rng, const uint8_t *state, size_t n) {
    if (n != NN_RNG_STATE_BYTES) return false;
    int32_t left, valid;
    uint64_t next, seed;
    memcpy(&seed, state + ST_SEED, 8);
    memcpy(&left, state + ST_LEFT, 4);
    memcpy(&next, state + ST_NEXT, 8);
    /* PyTorch checks left; next must index the words for the draws left. */
    if (left < 1 || left > NN_RNG_MT_N || next > NN_RNG_MT_N) return false;
    nn_rng r = {.seed = seed, .left = left, .next = (uint32_t)next};
    for (int i = 0; i < NN_RNG_MT_N; i++) {
        uint64_t w;
        memcpy(&w, state + ST_MT + 8 * i, 8);
        r.mt[i] = (uint32_t)w;
    }
    memcpy(&valid, state + ST_NORMAL_VALID, 4);
    if (valid) {
        r.has_normal = true;
        memcpy(&r.normal, state + ST_NORMAL_Y, 8);
    }
    if (state[ST_F32_VALID]) {
        r.has_normal_f32 = true;
        memcpy(&r.normal_f32, state + ST_F32, 4);
    }
    *rng = r;
    return true;
}
