/* nn_vmath: float32 exp and tanh written so the compiler can vectorise the
 * loops that call them (libm's expf/tanhf are scalar calls, and tanh sits on
 * every tanh-MLP's hot path). Accurate to a few ulp over the whole float
 * range; NaN in gives NaN out. Internal to the engine's kernels. */
#ifndef NN_VMATH_H
#define NN_VMATH_H

#include <stdint.h>
#include <string.h>

/* e^x: x = n ln2 + r with |r| <= ln2/2, e^r by its Taylor series to r^7
 * (relative error below 1e-8 there), then scaled by 2^n through the
 * exponent bits. Inputs beyond the float range saturate to 0 or inf. */
static inline float nn_expf(float x) {
    const float log2e = 1.44269504088896341f;
    const float ln2_hi = 0.693359375f, ln2_lo = -2.12194440e-4f;
    /* NaN is clamped too (to 0) so the integer work below stays defined; the
     * NaN is put back at the end. */
    float xc = x != x ? 0.0f : x;
    xc = xc > 88.8f ? 88.8f : xc;
    xc = xc < -104.0f ? -104.0f : xc;
    /* Round to nearest by adding and removing 1.5 * 2^23: no libm call, so
     * the loop vectorises on any x86-64. */
    const float shifter = 12582912.0f;
    float n = (xc * log2e + shifter) - shifter;
    float r = xc - n * ln2_hi - n * ln2_lo;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    /* 2^n as two factors, so n = 128 (x just below the overflow bound) and
     * n = -126 still have normal exponents. */
    int32_t k = (int32_t)n, k1 = k / 2, k2 = k - k1; /* k in [-150, 128] */
    uint32_t b1 = (uint32_t)(k1 + 127) << 23, b2 = (uint32_t)(k2 + 127) << 23;
    float s1, s2;
    memcpy(&s1, &b1, sizeof s1);
    memcpy(&s2, &b2, sizeof s2);
    float y = p * s1 * s2;
    y = x > 88.72283f ? __builtin_inff() : y;
    y = x < -103.97f ? 0.0f : y;
    return x != x ? x : y;
}

/* tanh: near 0 its odd Taylor series (to x^11, error below 1e-8 relative for
 * |x| < 0.3); elsewhere (1 - t) / (1 + t) with t = e^(-2|x|), which has no
 * cancellation there. Both are computed and one selected, so the loop has
 * no branch. */
static inline float nn_tanhf(float x) {
    float ax = __builtin_fabsf(x);
    float x2 = x * x;
    float s = -1382.0f / 155925.0f;
    s = s * x2 + 62.0f / 2835.0f;
    s = s * x2 - 17.0f / 315.0f;
    s = s * x2 + 2.0f / 15.0f;
    s = s * x2 - 1.0f / 3.0f;
    s = x + x * x2 * s;
    float t = nn_expf(-2.0f * (ax > 9.0f ? 9.0f : ax));
    float big = (1.0f - t) / (1.0f + t);
    big = ax > 9.0f ? 1.0f : big;
    big = x < 0 ? -big : big;
    float y = ax < 0.3f ? s : big;
    return x != x ? x : y;
}

/* erf: near 0 its Taylor series (to x^13, below 1e-8 relative for
 * |x| < 0.5); elsewhere Abramowitz and Stegun's 7.1.26,
 * 1 - t (a1 + t (a2 + ...)) e^(-x^2) with t = 1 / (1 + p|x|), whose error is
 * below 1.5e-7 absolute, a few ulp where erf >= 0.5. Branch-free like the
 * others; exact GELU calls it on every element. */
static inline float nn_erff(float x) {
    float ax = __builtin_fabsf(x);
    float x2 = x * x;
    float s = -1.0f / 9360.0f; /* x^13 / (6! 13) */
    s = s * x2 + 1.0f / 1320.0f;
    s = s * x2 - 1.0f / 216.0f;
    s = s * x2 + 1.0f / 42.0f;
    s = s * x2 - 1.0f / 10.0f;
    s = s * x2 + 1.0f / 3.0f;
    s = x * (1.1283791670955126f - x2 * 1.1283791670955126f * s);
    float t = 1.0f / (1.0f + 0.3275911f * ax);
    float p = 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    float big = 1.0f - p * t * nn_expf(-x2);
    big = x < 0 ? -big : big;
    float y = ax < 0.5f ? s : big;
    return x != x ? x : y;
}

static inline float nn_sigmoidf(float x) {
    return 1.0f / (1.0f + nn_expf(-x));
}

#endif
