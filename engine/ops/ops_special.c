/* torch.special and the special functions of torch: digamma, polygamma,
 * lgamma, erfinv, erfc, erfcx, the modified Bessel functions i0, i0e, i1,
 * i1e, the normal distribution's ndtr, ndtri and log_ndtr, sinc, entr,
 * exp2 and logit (unary, one node kind NN_OP_SPECIAL with the function in
 * p.i[0]), and zeta, xlogy, xlog1py, and the float remainder and floor and
 * truncating divisions (binary, NN_OP_SPECIAL2).
 *
 * The scalar code is special_math.h (its header says where each algorithm
 * comes from); the transcendental functions PyTorch takes from SLEEF come
 * from nn_sleef. Forward and backward are elementwise kernels in the input's
 * float type whose every step rounds as the tensor ops of PyTorch's
 * formulas (derivatives.yaml) round, so values and gradients are PyTorch's
 * bits, not only close to them. */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_sleef.h"

#define SF_T         float
#define SF_SUFFIX    _f
#define SF_FMA       fmaf
#define SF_TRUNC     truncf
#define SF_LOG       logf
#define SF_SIN       sinf
#define SF_FABS      fabsf
#define SF_SQRT      sqrtf
#define SF_EXP       expf
#define SF_ERF       erff
#define SF_I1_SKIP_A 12
#define SF_I1_SKIP_B 18
#include "special_math.h"
#undef SF_T
#undef SF_SUFFIX
#undef SF_FMA
#undef SF_TRUNC
#undef SF_LOG
#undef SF_SIN
#undef SF_FABS
#undef SF_SQRT
#undef SF_EXP
#undef SF_ERF
#undef SF_I1_SKIP_A
#undef SF_I1_SKIP_B
#define SF_T         double
#define SF_SUFFIX    _d
#define SF_FMA       fma
#define SF_TRUNC     trunc
#define SF_LOG       log
#define SF_SIN       sin
#define SF_FABS      fabs
#define SF_SQRT      sqrt
#define SF_EXP       exp
#define SF_ERF       erf
#define SF_I1_SKIP_A 0
#define SF_I1_SKIP_B 0
#include "special_math.h"

/* ---- zeta and polygamma (always accumulated in double, as PyTorch's CPU
 * accumulate type for float is double) ---- */

static double zeta_d(double x, double q) {
    static const double A[] = {12.0,
                               -720.0,
                               30240.0,
                               -1209600.0,
                               47900160.0,
                               -1.8924375803183791606e9,
                               7.47242496e10,
                               -2.950130727918164224e12,
                               1.1646782814350067249e14,
                               -4.5979787224074726105e15,
                               1.8152105401943546773e17,
                               -7.1661652561756670113e18};
    const double machep = 1.11022302462515654042E-16;
    if (x == 1) return INFINITY;
    if (x < 1) return NAN;
    if (q <= 0) {
        if (q == floor(q)) return INFINITY;
        if (x != floor(x)) return NAN;
    }
    double s = pow(q, -x), a = q, b = 0;
    int i = 0;
    while (i < 9 || a <= 9.0) {
        i += 1;
        a += 1;
        b = pow(a, -x);
        s += b;
        if (-machep * s < b && b < machep * s) return s;
    }
    double w = a;
    s += b * w / (x - 1);
    s = fma(-0.5, b, s); /* s -= b / 2, fused as PyTorch's build fuses it */
    a = 1;
    double k = 0;
    for (i = 0; i < 12; i++) {
        a *= x + k;
        b /= w;
        double t = a * b / A[i];
        s = s + t;
        t = fabs(t / s);
        if (t < machep) return s;
        k += 1;
        a *= x + k;
        b /= w;
        k += 1;
    }
    return s;
}

/* ---- the unary functions ---- */

/* which = function | order << 8 (polygamma's n); logit's eps is p.f[0]. */
#define FN(which)    ((which)&0xff)
#define ORDER(which) ((which) >> 8)

static float lgamma_f(float x) {
    return nn_sleef_float(NN_SLEEF_LGAMMA)(x);
}
static double lgamma_d(double x) {
    return nn_sleef_double(NN_SLEEF_LGAMMA)(x);
}

/* erfcx(x) = exp(x^2) erfc(x): in long double while erfc has range, then
 * Laplace's continued fraction erfc(x) ~ exp(-x^2) / (x sqrt(pi)) K. */
static double erfcx_pos(double x) {
    if (x != x) return x;
    if (x < 26.0) {
        long double lx = x;
        return (double)(expl(lx * lx) * erfcl(lx));
    }
    if (x > 1e8) return 0.5641895835477563 / x;
    /* continued fraction, evaluated from the tail (30 levels converge to
     * double precision for x >= 26) */
    double f = 0;
    for (int k = 30; k >= 1; k--) f = (k / 2.0) / (x + f);
    return 0.5641895835477563 / (x + f);
}

/* x < 0: 2 exp(x^2) - erfcx(-x), with x^2 and exp rounded in the input's
 * type as PyTorch's (Faddeeva) code rounds them. */
static double erfcx_d(double x) {
    if (!(x < 0)) return erfcx_pos(x);
    if (x < -26.7) return INFINITY;
    double e = 2 * exp(x * x);
    return x < -6.1 ? e : e - erfcx_pos(-x);
}

static float erfcx_f(float x) {
    if (!(x < 0)) return (float)erfcx_pos((double)x);
    if (x < -26.7f) return INFINITY;
    float e = 2 * expf(x * x);
    return x < -6.1f ? e : e - (float)erfcx_pos(-(double)x);
}

/* PyTorch's ndtr: 0.5 erfc(-x / sqrt 2) written as in calc_ndtr. */
#define NDTR_BODY(T, ERF, ERFC)                                                                    \
    T t = x * (T)M_SQRT1_2;                                                                        \
    T z = t < 0 ? -t : t;                                                                          \
    T y;                                                                                           \
    if (z < (T)M_SQRT1_2)                                                                          \
        y = (T)0.5 + (T)0.5 * ERF(t);                                                              \
    else {                                                                                         \
        y = (T)0.5 * ERFC(z);                                                                      \
        if (t > 0) y = 1 - y;                                                                      \
    }                                                                                              \
    return y;

static float ndtr_f(float x) {
    NDTR_BODY(float, erff, erfcf)
}
static double ndtr_d(double x) {
    NDTR_BODY(double, erf, erfc)
}

static float log_ndtr_f(float x) {
    float t = x * (float)M_SQRT1_2;
    if (x < -1.0f) return logf(erfcx_f(-t) / 2) - t * t;
    return log1pf(-erfcf(t) / 2);
}
static double log_ndtr_d(double x) {
    double t = x * M_SQRT1_2;
    if (x < -1.0) return log(erfcx_d(-t) / 2) - t * t;
    return log1p(-erfc(t) / 2);
}

#define SINC_BODY(T, SIN)                                                                          \
    if (x == 0) return 1;                                                                          \
    T p = (T)M_PI * x;                                                                             \
    return SIN(p) / p;

static float sinc_f(float x) {
    SINC_BODY(float, sinf)
}
static double sinc_d(double x) {
    SINC_BODY(double, sin)
}

#define ENTR_BODY(T, LOG)                                                                          \
    if (x != x) return x;                                                                          \
    if (x > 0) return -x * LOG(x);                                                                 \
    if (x == 0) return 0;                                                                          \
    return -(T)INFINITY;

static float entr_f(float x) {
    ENTR_BODY(float, logf)
}
static double entr_d(double x) {
    ENTR_BODY(double, log)
}

static float apply_f(int which, float x) {
    switch (FN(which)) {
    case NN_SPECIAL_DIGAMMA: return sf_digamma_f(x);
    case NN_SPECIAL_POLYGAMMA: {
        int n = ORDER(which);
        if (n == 0) return sf_digamma_f(x);
        if (n == 1) return sf_trigamma_f(x);
        /* (-1)^(n+1) n! zeta(n + 1, x): n! = exp(lgamma(n + 1)) in double,
         * then float, as torch 1.13's kernel rounds it */
        float fac = (float)exp(lgamma((double)n + 1.0));
        return ((n % 2) ? 1.0f : -1.0f) * fac * (float)zeta_d((double)(n + 1), (double)x);
    }
    case NN_SPECIAL_LGAMMA: return lgamma_f(x);
    case NN_SPECIAL_ERFINV: return sf_erfinv_f(x);
    case NN_SPECIAL_ERFC: return nn_sleef_float(NN_SLEEF_ERFC)(x);
    case NN_SPECIAL_ERFCX: return erfcx_f(x);
    case NN_SPECIAL_I0: return sf_i0_f(x, false);
    case NN_SPECIAL_I0E: return sf_i0_f(x, true);
    case NN_SPECIAL_I1: return sf_i1_f(x, false);
    case NN_SPECIAL_I1E: return sf_i1_f(x, true);
    case NN_SPECIAL_NDTRI: return sf_ndtri_f(x);
    case NN_SPECIAL_NDTR: return ndtr_f(x);
    case NN_SPECIAL_LOG_NDTR: return log_ndtr_f(x);
    case NN_SPECIAL_SINC: return sinc_f(x);
    case NN_SPECIAL_ENTR: return entr_f(x);
    case NN_SPECIAL_EXP2: return exp2f(x);
    case NN_SPECIAL_ASINH: return asinhf(x);
    case NN_SPECIAL_ACOSH: return acoshf(x);
    case NN_SPECIAL_ATANH: return atanhf(x);
    default: return NAN;
    }
}

static double apply_d(int which, double x) {
    switch (FN(which)) {
    case NN_SPECIAL_DIGAMMA: return sf_digamma_d(x);
    case NN_SPECIAL_POLYGAMMA: {
        int n = ORDER(which);
        if (n == 0) return sf_digamma_d(x);
        if (n == 1) return sf_trigamma_d(x);
        double fac = exp(lgamma((double)n + 1.0));
        return ((n % 2) ? 1.0 : -1.0) * fac * zeta_d((double)(n + 1), x);
    }
    case NN_SPECIAL_LGAMMA: return lgamma_d(x);
    case NN_SPECIAL_ERFINV: return sf_erfinv_d(x);
    case NN_SPECIAL_ERFC: return nn_sleef_double(NN_SLEEF_ERFC)(x);
    case NN_SPECIAL_ERFCX: return erfcx_d(x);
    case NN_SPECIAL_I0: return sf_i0_d(x, false);
    case NN_SPECIAL_I0E: return sf_i0_d(x, true);
    case NN_SPECIAL_I1: return sf_i1_d(x, false);
    case NN_SPECIAL_I1E: return sf_i1_d(x, true);
    case NN_SPECIAL_NDTRI: return sf_ndtri_d(x);
    case NN_SPECIAL_NDTR: return ndtr_d(x);
    case NN_SPECIAL_LOG_NDTR: return log_ndtr_d(x);
    case NN_SPECIAL_SINC: return sinc_d(x);
    case NN_SPECIAL_ENTR: return entr_d(x);
    case NN_SPECIAL_EXP2: return exp2(x);
    case NN_SPECIAL_ASINH: return asinh(x);
    case NN_SPECIAL_ACOSH: return acosh(x);
    case NN_SPECIAL_ATANH: return atanh(x);
    default: return NAN;
    }
}

/* PyTorch's vectorised loops run SLEEF over whole blocks of 2 vectors
 * (16 floats or 8 doubles on AVX2) of a contiguous run and the scalar
 * libm code over the rest: the index where the scalar tail starts. */
static int64_t tail_start(int64_t n, nn_dtype dt) {
    int64_t block = dt == NN_FLOAT32 ? 16 : 8;
    return n - n % block;
}

/* logit(x) = log(x / (1 - x)), x first clamped to [eps, 1 - eps] when
 * eps >= 0; x == 1 gives inf. */
static nn_tensor *logit_forward(nn_ctx *ctx, nn_tensor *a, double eps) {
    nn_dtype dt = nn_float_dtype(a->dtype);
    nn_tensor *c = nn_contiguous_as(ctx, a, dt);
    nn_tensor *out = c ? nn_tensor_empty(ctx, dt, a->ndim, a->shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    int64_t n = nn_tensor_numel(out), t0 = tail_start(n, dt);
    if (dt == NN_FLOAT32) {
        const float *x = nn_tensor_data(c);
        float *y = nn_tensor_data(out), lo = (float)eps, hi = 1.0f - (float)eps;
        nn_sleef_f1 vlog = nn_sleef_float(NN_SLEEF_LOG);
        for (int64_t i = 0; i < n; i++) {
            float v = x[i];
            if (eps >= 0) v = v < lo ? lo : v > hi ? hi : v;
            y[i] = i < t0 ? vlog(v / (1 - v)) : v == 1 ? INFINITY : logf(v / (1 - v));
        }
    } else {
        const double *x = nn_tensor_data(c);
        double *y = nn_tensor_data(out), lo = eps, hi = 1.0 - eps;
        nn_sleef_d1 vlog = nn_sleef_double(NN_SLEEF_LOG);
        for (int64_t i = 0; i < n; i++) {
            double v = x[i];
            if (eps >= 0) v = v < lo ? lo : v > hi ? hi : v;
            y[i] = i < t0 ? vlog(v / (1 - v)) : v == 1 ? INFINITY : log(v / (1 - v));
        }
    }
    nn_tensor_release(c);
    return out;
}

nn_tensor *op_special_forward(nn_ctx *ctx, nn_node *node) {
    if (FN(node->p.i[0]) == NN_SPECIAL_LOGIT)
        return logit_forward(ctx, node->in[0].t, node->p.f[0]);
    return nn_unary_float_map(ctx, node->in[0].t, (int)node->p.i[0], apply_f, apply_d);
}

/* The derivative times g, each step rounded as the tensor ops of
 * PyTorch's backward formula round: x the input, y the output. */
#define GRAD_BODY(T, F, SUF, EXPF, SQRTF, LOGF, SINF, COSF)                                        \
    switch (FN(which)) {                                                                           \
    case NN_SPECIAL_DIGAMMA: return g * sf_trigamma##SUF(x);                                       \
    case NN_SPECIAL_POLYGAMMA: return g * F((ORDER(which) + 1) << 8 | NN_SPECIAL_POLYGAMMA, x);    \
    case NN_SPECIAL_LGAMMA: return g * sf_digamma##SUF(x);                                         \
    case NN_SPECIAL_ERFINV: return (T)(0.5 * sqrt(M_PI)) * EXPF(y * y) * g;                        \
    case NN_SPECIAL_ERFC: return (T)(-2.0 / sqrt(M_PI)) * EXPF(-(x * x)) * g;                      \
    case NN_SPECIAL_ERFCX: return ((T)2.0 * x * y - (T)(2.0 / sqrt(M_PI))) * g;                    \
    case NN_SPECIAL_I0: return g * sf_i1##SUF(x, false);                                           \
    case NN_SPECIAL_I0E: return g * (sf_i1##SUF(x, true) - (T)((x > 0) - (x < 0)) * y);            \
    case NN_SPECIAL_I1: return (x == 0 ? (T)0.5 : sf_i0##SUF(x, false) - y / x) * g;               \
    case NN_SPECIAL_I1E:                                                                           \
        return (x == 0 ? (T)0.5 : sf_i0##SUF(x, true) - y * ((T)((x > 0) - (x < 0)) + 1 / x)) * g; \
    case NN_SPECIAL_NDTRI: return g * (T)sqrt(2 * M_PI) * EXPF(y * y / 2);                         \
    case NN_SPECIAL_NDTR: return g * ((T)(M_2_SQRTPI / (2 * M_SQRT2)) * EXPF(-(T)0.5 * (x * x)));  \
    case NN_SPECIAL_LOG_NDTR: return g / (T)sqrt(2 * M_PI) * EXPF(-(y + x * x / 2));               \
    case NN_SPECIAL_SINC: {                                                                        \
        if (x == 0) return 0;                                                                      \
        T px = x * (T)M_PI;                                                                        \
        return g * ((px * COSF(px) - SINF(px)) / (x * x * (T)M_PI));                               \
    }                                                                                              \
    case NN_SPECIAL_ENTR: return g * -(1 + LOGF(x));                                               \
    case NN_SPECIAL_EXP2: return g * y * (T)M_LN2;                                                 \
    case NN_SPECIAL_ASINH: return g * (1 / SQRTF(x * x + 1));                                      \
    case NN_SPECIAL_ACOSH: return g * (1 / SQRTF(x * x - 1));                                      \
    case NN_SPECIAL_ATANH: return g / (1 - x * x);                                                 \
    default: return NAN;                                                                           \
    }

/* logit's backward: 0 outside [eps, 1 - eps] (NaN outside [0, 1] without
 * eps), g / (x (1 - x)) inside. */
#define LOGIT_GRAD(T)                                                                              \
    if (eps < 0) {                                                                                 \
        if (x < 0 || x > 1) return (T)NAN;                                                         \
    } else if (x < (T)eps || x > 1 - (T)eps)                                                       \
        return 0;                                                                                  \
    return g / (x * (1 - x));

static float logit_grad_f(double eps, float g, float x) {
    LOGIT_GRAD(float)
}
static double logit_grad_d(double eps, double g, double x) {
    LOGIT_GRAD(double)
}

static float grad_f(int which, float g, float x, float y) {
    GRAD_BODY(float, apply_f, _f, nn_sleef_float(NN_SLEEF_EXP), sqrtf, nn_sleef_float(NN_SLEEF_LOG),
              nn_sleef_float(NN_SLEEF_SIN), nn_sleef_float(NN_SLEEF_COS))
}

static double grad_d(int which, double g, double x, double y){
    GRAD_BODY(double, apply_d, _d, nn_sleef_double(NN_SLEEF_EXP), sqrt,
              nn_sleef_double(NN_SLEEF_LOG), nn_sleef_double(NN_SLEEF_SIN),
              nn_sleef_double(NN_SLEEF_COS))}

nn_status op_special_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    int which = (int)node->p.i[0];
    nn_tensor *x = node->in[0].t, *y = node->out;
    nn_dtype dt = dout->dtype;
    nn_tensor *cg = nn_contiguous_as(ctx, dout, dt);
    nn_tensor *cx = cg ? nn_contiguous_as(ctx, x, dt) : NULL;
    nn_tensor *cy = cx ? nn_contiguous_as(ctx, y, dt) : NULL;
    nn_tensor *out = cy ? nn_tensor_empty(ctx, dt, dout->ndim, dout->shape) : NULL;
    if (out) {
        int64_t n = nn_tensor_numel(out);
        if (dt == NN_FLOAT32) {
            const float *g = nn_tensor_data(cg), *xs = nn_tensor_data(cx), *ys = nn_tensor_data(cy);
            float *o = nn_tensor_data(out);
            if (FN(which) == NN_SPECIAL_LOGIT)
                for (int64_t i = 0; i < n; i++) o[i] = logit_grad_f(node->p.f[0], g[i], xs[i]);
            else
                for (int64_t i = 0; i < n; i++) o[i] = grad_f(which, g[i], xs[i], ys[i]);
        } else {
            const double *g = nn_tensor_data(cg), *xs = nn_tensor_data(cx),
                         *ys = nn_tensor_data(cy);
            double *o = nn_tensor_data(out);
            if (FN(which) == NN_SPECIAL_LOGIT)
                for (int64_t i = 0; i < n; i++) o[i] = logit_grad_d(node->p.f[0], g[i], xs[i]);
            else
                for (int64_t i = 0; i < n; i++) o[i] = grad_d(which, g[i], xs[i], ys[i]);
        }
    }
    nn_tensor_release(cg);
    nn_tensor_release(cx);
    nn_tensor_release(cy);
    din[0] = out;
    return out ? NN_OK : ctx->err.code;
}

nn_tensor *nn_special(nn_ctx *ctx, nn_tensor *a, nn_special_fn fn, int order) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = (int64_t)fn | (int64_t)order << 8;
    return nn_exec(ctx, NN_OP_SPECIAL, &a, 1, &p);
}

nn_tensor *nn_logit(nn_ctx *ctx, nn_tensor *a, double eps) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = NN_SPECIAL_LOGIT;
    p.f[0] = eps;
    return nn_exec(ctx, NN_OP_SPECIAL, &a, 1, &p);
}

/* ---- binary: zeta(x, q), xlogy(x, y), xlog1py(x, y) ---- */

typedef struct bin_arg {
    int which;
} bin_arg;

/* PyTorch's div_floor_floating: floor(a / b) computed from fmod so that it
 * is exact, with b == 0 giving a / b. */
#define DIV_FLOOR_BODY(T, FMOD, FLOOR)                                                             \
    if (b == 0) return a / b;                                                                      \
    T mod = FMOD(a, b);                                                                            \
    T div = (a - mod) / b;                                                                         \
    if (mod != 0 && (b < 0) != (mod < 0)) div -= (T)1;                                             \
    T fd;                                                                                          \
    if (div != 0) {                                                                                \
        fd = FLOOR(div);                                                                           \
        if (div - fd > (T)0.5) fd += (T)1;                                                         \
    } else {                                                                                       \
        fd = copysign((T)0, a / b);                                                                \
    }                                                                                              \
    return fd;

static float div_floor_f(float a, float b) {
    DIV_FLOOR_BODY(float, fmodf, floorf)
}
static double div_floor_d(double a, double b) {
    DIV_FLOOR_BODY(double, fmod, floor)
}

#define REMAINDER_BODY(T, FMOD)                                                                    \
    T mod = FMOD(a, b);                                                                            \
    if (mod != 0 && (b < 0) != (mod < 0)) mod += b;                                                \
    return mod;

static float remainder_f(float a, float b) {
    REMAINDER_BODY(float, fmodf)
}
static double remainder_d(double a, double b) {
    REMAINDER_BODY(double, fmod)
}

static double bin_apply(int which, double a, double b, bool f32) {
    switch (which) {
    case NN_SPECIAL2_REMAINDER:
        return f32 ? (double)remainder_f((float)a, (float)b) : remainder_d(a, b);
    case NN_SPECIAL2_FLOOR_DIVIDE:
    case NN_SPECIAL2_DIV_FLOOR:
        return f32 ? (double)div_floor_f((float)a, (float)b) : div_floor_d(a, b);
    case NN_SPECIAL2_DIV_TRUNC: return f32 ? (double)truncf((float)a / (float)b) : trunc(a / b);
    case NN_SPECIAL2_ZETA: return zeta_d(a, b);
    case NN_SPECIAL2_XLOGY:
        if (b != b) return NAN;
        if (a == 0) return 0;
        return f32 ? (double)((float)a * logf((float)b)) : a * log(b);
    default:
        if (b != b) return NAN;
        if (a == 0) return 0;
        return f32 ? (double)((float)a * log1pf((float)b)) : a * log1p(b);
    }
}

static void bin_loop_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    int which = ((bin_arg *)arg)->which;
    for (int64_t i = 0; i < n; i++) {
        float a = *(const float *)(d[1] + i * s[1]), b = *(const float *)(d[2] + i * s[2]);
        *(float *)(d[0] + i * s[0]) = (float)bin_apply(which, a, b, true);
    }
}

static void bin_loop_f64(char **d, const int64_t *s, int64_t n, void *arg) {
    int which = ((bin_arg *)arg)->which;
    for (int64_t i = 0; i < n; i++) {
        double a = *(const double *)(d[1] + i * s[1]), b = *(const double *)(d[2] + i * s[2]);
        *(double *)(d[0] + i * s[0]) = bin_apply(which, a, b, false);
    }
}

/* [a] and [b] promoted to their float type and broadcast: out, and the
 * casts in *ca, *cb (new references). */
static nn_tensor *bin_setup(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_tensor **ca, nn_tensor **cb,
                            int *nd, int64_t *shape) {
    *ca = *cb = NULL;
    if (nn_broadcast_shapes(ctx, a->ndim, a->shape, b->ndim, b->shape, nd, shape)) return NULL;
    nn_dtype dt = nn_float_dtype(nn_dtype_promote(a, b));
    if (nn_dtype_promote(a, b) == NN_FLOAT64) dt = NN_FLOAT64;
    *ca = nn_tensor_cast_raw(ctx, a, dt);
    *cb = *ca ? nn_tensor_cast_raw(ctx, b, dt) : NULL;
    return *cb ? nn_tensor_empty(ctx, dt, *nd, shape) : NULL;
}

nn_tensor *op_special2_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *ca, *cb;
    int nd;
    int64_t shape[NN_MAX_DIMS];
    nn_tensor *out = bin_setup(ctx, node->in[0].t, node->in[1].t, &ca, &cb, &nd, shape);
    if (out) {
        bin_arg arg = {(int)node->p.i[0]};
        nn_iter it;
        nn_iter_init(&it, nd, shape);
        nn_iter_add(&it, out);
        nn_iter_add(&it, ca);
        nn_iter_add(&it, cb);
        nn_iter_run(&it, out->dtype == NN_FLOAT32 ? bin_loop_f32 : bin_loop_f64, &arg);
    }
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

/* Gradients over the broadcast shape (nn_backward sums them back):
 *   zeta:    d/dq = -x zeta(x + 1, q); none for x (PyTorch has none);
 *   xlogy:   d/dx = log(y) (0 where x == 0 and y is not NaN... as torch:
 *            grad * at::xlogy((self != 0), other)), d/dy = x / y;
 *   xlog1py: d/dx = xlog1py(x != 0, y), d/dy = x / (1 + y). */
typedef struct grad_arg {
    int which, input;
} grad_arg;

static double bin_grad(const grad_arg *ga, double g, double a, double b, bool f32) {
    switch (ga->which) {
    case NN_SPECIAL2_REMAINDER: /* self: g; other: -g * div(a, b, rounding_mode='floor') */
        if (ga->input == 0) return g;
        return f32 ? (double)(-(float)g * div_floor_f((float)a, (float)b)) : -g * div_floor_d(a, b);
    case NN_SPECIAL2_DIV_FLOOR:
    case NN_SPECIAL2_DIV_TRUNC: return 0;
    case NN_SPECIAL2_ZETA: {
        double z = zeta_d(a + 1, b);
        if (f32) return (double)((float)g * ((float)(-a) * (float)z));
        return g * (-a * z);
    }
    case NN_SPECIAL2_XLOGY:
        if (ga->input == 0) {
            double v = bin_apply(NN_SPECIAL2_XLOGY, a != 0, b, f32);
            return f32 ? (double)((float)g * (float)v) : g * v;
        }
        return f32 ? (double)((float)g * (float)a / (float)b) : g * a / b;
    default:
        if (ga->input == 0) {
            double v = bin_apply(NN_SPECIAL2_XLOG1PY, a != 0, b, f32);
            return f32 ? (double)((float)g * (float)v) : g * v;
        }
        return f32 ? (double)((float)g * (float)a / ((float)b + 1.0f)) : g * a / (b + 1.0);
    }
}

static void grad_loop_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    for (int64_t i = 0; i < n; i++) {
        float g = *(const float *)(d[1] + i * s[1]), a = *(const float *)(d[2] + i * s[2]),
              b = *(const float *)(d[3] + i * s[3]);
        *(float *)(d[0] + i * s[0]) = (float)bin_grad(arg, g, a, b, true);
    }
}

static void grad_loop_f64(char **d, const int64_t *s, int64_t n, void *arg) {
    for (int64_t i = 0; i < n; i++) {
        double g = *(const double *)(d[1] + i * s[1]), a = *(const double *)(d[2] + i * s[2]),
               b = *(const double *)(d[3] + i * s[3]);
        *(double *)(d[0] + i * s[0]) = bin_grad(arg, g, a, b, false);
    }
}

nn_status op_special2_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int which = (int)node->p.i[0];
    for (int k = 0; k < 2; k++) {
        if (!node->in[k].needs_grad) continue;
        if (which == NN_SPECIAL2_ZETA && k == 0)
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "the derivative for 'self' is not implemented.");
        if (which == NN_SPECIAL2_FLOOR_DIVIDE)
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "derivative for aten::floor_divide is not implemented");
        nn_tensor *ca, *cb;
        int nd;
        int64_t shape[NN_MAX_DIMS];
        nn_tensor *out = bin_setup(ctx, node->in[0].t, node->in[1].t, &ca, &cb, &nd, shape);
        nn_tensor *cg = out ? nn_tensor_cast_raw(ctx, dout, out->dtype) : NULL;
        if (cg) {
            grad_arg ga = {which, k};
            nn_iter it;
            nn_iter_init(&it, nd, shape);
            nn_iter_add(&it, out);
            nn_iter_add(&it, cg);
            nn_iter_add(&it, ca);
            nn_iter_add(&it, cb);
            nn_iter_run(&it, out->dtype == NN_FLOAT32 ? grad_loop_f32 : grad_loop_f64, &ga);
        } else {
            nn_tensor_release(out);
            out = NULL;
        }
        nn_tensor_release(ca);
        nn_tensor_release(cb);
        nn_tensor_release(cg);
        if (!out) return ctx->err.code;
        din[k] = out;
    }
    return NN_OK;
}

nn_tensor *nn_special2(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_special2_fn fn) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = fn;
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, NN_OP_SPECIAL2, in, 2, &p);
}

/* ---- costs: one FLOP per element (a special function counts as one, as
 * the other transcendental functions do) ---- */
bool nn_cost_special(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    switch (n->op) {
    case NN_OP_SPECIAL:
    case NN_OP_SPECIAL2: c->flops = nn_cost_numel(out); return true;
    default: return false;
    }
}
