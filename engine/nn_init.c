/* nn_init: torch.nn.init's functions over ctx->rng. See nn_init.h. */
#include "nn_init.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_tensor.h"

static nn_status need_float(nn_ctx *ctx, const char *fn, const nn_tensor *t) {
    if (!t) return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: no tensor given", fn);
    if (!nn_dtype_is_float(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: needs a float tensor, got %s; convert it with .float() first", fn,
                            nn_dtype_name(t->dtype));
    return NN_OK;
}

nn_status nn_init_fans(nn_ctx *ctx, const nn_tensor *t, int64_t *fan_in, int64_t *fan_out) {
    if (!t) return nn_error_set(&ctx->err, NN_ERR_VALUE, "fan computation: no tensor given");
    if (t->ndim < 2) {
        char s[128];
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "fan in and fan out cannot be computed for a tensor of shape %s: it "
                            "needs at least 2 dims ([out, in, ...])",
                            nn_tensor_shape_str(t, s, sizeof s));
    }
    int64_t rf = 1;
    for (int i = 2; i < t->ndim; i++) rf *= t->shape[i];
    *fan_in = t->shape[1] * rf;
    *fan_out = t->shape[0] * rf;
    return NN_OK;
}

nn_status nn_init_calculate_gain(nn_ctx *ctx, const char *nl, double param, double *gain) {
    static const char *const ones[] = {"linear",           "conv1d",           "conv2d",
                                       "conv3d",           "conv_transpose1d", "conv_transpose2d",
                                       "conv_transpose3d", "sigmoid"};
    if (!nl) nl = "leaky_relu";
    for (size_t i = 0; i < sizeof ones / sizeof ones[0]; i++)
        if (!strcmp(nl, ones[i])) {
            *gain = 1.0;
            return NN_OK;
        }
    if (!strcmp(nl, "tanh")) {
        *gain = 5.0 / 3.0;
    } else if (!strcmp(nl, "relu")) {
        *gain = sqrt(2.0);
    } else if (!strcmp(nl, "leaky_relu")) {
        double slope = isnan(param) ? 0.01 : param;
        *gain = sqrt(2.0 / (1.0 + slope * slope));
    } else if (!strcmp(nl, "selu")) {
        *gain = 3.0 / 4.0;
    } else {
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "unsupported nonlinearity '%s'; use linear, conv1d, conv2d, conv3d, "
                            "conv_transpose1d/2d/3d, sigmoid, tanh, relu, leaky_relu or selu",
                            nl);
    }
    return NN_OK;
}

/* In-place set-up writes on a parameter need no_grad, as in torch.nn.init. */
#define NO_GRAD(ctx, expr)                                                                         \
    do {                                                                                           \
        bool prev_ = nn_ctx_set_grad((ctx), false);                                                \
        nn_status st_ = (expr);                                                                    \
        nn_ctx_set_grad((ctx), prev_);                                                             \
        return st_;                                                                                \
    } while (0)

nn_status nn_init_uniform_(nn_ctx *ctx, nn_tensor *t, double a, double b) {
    if (need_float(ctx, "uniform_", t)) return ctx->err.code;
    if (!(a <= b))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "uniform_: needs a <= b, got a=%g, b=%g", a,
                            b);
    NO_GRAD(ctx, nn_tensor_uniform_(ctx, t, a, b));
}

nn_status nn_init_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std) {
    if (need_float(ctx, "normal_", t)) return ctx->err.code;
    if (!(std >= 0) || !isfinite(mean))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "normal_: needs a finite mean and std >= 0, got mean=%g, std=%g", mean,
                            std);
    NO_GRAD(ctx, nn_tensor_normal_(ctx, t, mean, std));
}

nn_status nn_init_constant_(nn_ctx *ctx, nn_tensor *t, double value) {
    if (!t) return nn_error_set(&ctx->err, NN_ERR_VALUE, "constant_: no tensor given");
    NO_GRAD(ctx, nn_tensor_fill_(ctx, t, value));
}

nn_status nn_init_zeros_(nn_ctx *ctx, nn_tensor *t) {
    return nn_init_constant_(ctx, t, 0.0);
}

nn_status nn_init_ones_(nn_ctx *ctx, nn_tensor *t) {
    return nn_init_constant_(ctx, t, 1.0);
}

static nn_status xavier_std(nn_ctx *ctx, const char *fn, nn_tensor *t, double gain, double *std) {
    if (need_float(ctx, fn, t)) return ctx->err.code;
    int64_t fi, fo;
    if (nn_init_fans(ctx, t, &fi, &fo)) return ctx->err.code;
    if (fi + fo == 0) {
        *std = 0;
        return NN_OK;
    }
    *std = gain * sqrt(2.0 / (double)(fi + fo));
    return NN_OK;
}

nn_status nn_init_xavier_uniform_(nn_ctx *ctx, nn_tensor *t, double gain) {
    double std = 0;
    if (xavier_std(ctx, "xavier_uniform_", t, gain, &std)) return ctx->err.code;
    double a = sqrt(3.0) * fabs(std);
    return nn_init_uniform_(ctx, t, -a, a);
}

nn_status nn_init_xavier_normal_(nn_ctx *ctx, nn_tensor *t, double gain) {
    double std = 0;
    if (xavier_std(ctx, "xavier_normal_", t, gain, &std)) return ctx->err.code;
    return nn_init_normal_(ctx, t, 0.0, fabs(std));
}

static nn_status kaiming_std(nn_ctx *ctx, const char *fn, nn_tensor *t, double a, nn_init_mode mode,
                             const char *nl, double *std) {
    if (need_float(ctx, fn, t)) return ctx->err.code;
    int64_t fi, fo;
    if (nn_init_fans(ctx, t, &fi, &fo)) return ctx->err.code;
    if (mode != NN_INIT_FAN_IN && mode != NN_INIT_FAN_OUT)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: mode must be fan_in or fan_out", fn);
    double gain;
    if (nn_init_calculate_gain(ctx, nl, a, &gain)) return ctx->err.code;
    int64_t fan = mode == NN_INIT_FAN_IN ? fi : fo;
    /* PyTorch skips tensors with no elements (with a warning); a zero fan
     * then only happens for those. */
    *std = fan > 0 ? gain / sqrt((double)fan) : 0.0;
    return NN_OK;
}

nn_status nn_init_kaiming_uniform_(nn_ctx *ctx, nn_tensor *t, double a, nn_init_mode mode,
                                   const char *nonlinearity) {
    double std = 0;
    if (kaiming_std(ctx, "kaiming_uniform_", t, a, mode, nonlinearity, &std)) return ctx->err.code;
    double bound = sqrt(3.0) * std;
    return nn_init_uniform_(ctx, t, -bound, bound);
}

nn_status nn_init_kaiming_normal_(nn_ctx *ctx, nn_tensor *t, double a, nn_init_mode mode,
                                  const char *nonlinearity) {
    double std = 0;
    if (kaiming_std(ctx, "kaiming_normal_", t, a, mode, nonlinearity, &std)) return ctx->err.code;
    return nn_init_normal_(ctx, t, 0.0, std);
}

/* ---- truncated normal ---- */

static double norm_cdf(double x) {
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* The standard normal quantile: Acklam's rational approximation (relative
 * error 1.2e-9) polished by one Halley step against erfc, which brings it
 * to double precision. */
static double norm_ppf(double p) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    if (p <= 0) return -INFINITY;
    if (p >= 1) return INFINITY;
    double x;
    if (p < 0.02425) {
        double q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= 1 - 0.02425) {
        double q = p - 0.5, r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        double q = sqrt(-2 * log1p(-p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double e = norm_cdf(x) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* Write [v] (numel doubles, row-major) into [t] with one recorded copy, so
 * the storage version bumps once and float32 rounding happens once. */
static nn_status write_doubles(nn_ctx *ctx, nn_tensor *t, const double *v) {
    nn_tensor *src = nn_tensor_from_doubles(ctx, t->dtype, t->ndim, t->shape, v);
    if (!src) return ctx->err.code;
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = nn_tensor_copy_(ctx, t, src);
    nn_ctx_set_grad(ctx, prev);
    nn_tensor_release(src);
    return st;
}

nn_status nn_init_trunc_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std, double a,
                                double b) {
    if (need_float(ctx, "trunc_normal_", t)) return ctx->err.code;
    if (!(std > 0) || !isfinite(mean) || !(a < b))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "trunc_normal_: needs std > 0, a finite mean and a < b; got mean=%g, "
                            "std=%g, a=%g, b=%g",
                            mean, std, a, b);
    int64_t n = nn_tensor_numel(t);
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    if (!v) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "trunc_normal_: out of memory");
    /* Draw uniformly between the CDF values of the bounds and map back
     * through the quantile; the clamp only guards against round-off. */
    double lo = norm_cdf((a - mean) / std), hi = norm_cdf((b - mean) / std);
    for (int64_t i = 0; i < n; i++) {
        double p = lo + (hi - lo) * nn_rng_uniform(&ctx->rng);
        double x = mean + std * norm_ppf(p);
        v[i] = x < a ? a : x > b ? b : x;
    }
    nn_status st = write_doubles(ctx, t, v);
    free(v);
    return st;
}

/* ---- orthogonal ---- */

/* Thin QR of the column-major m x n matrix [a] (m >= n) by Householder
 * reflections. On return [q] (column-major m x n) holds Q with each column
 * multiplied by the sign of R's diagonal entry, so that R's diagonal is
 * non-negative and the factorisation is unique (torch's d.sign() step). */
static void householder_q(double *a, int64_t m, int64_t n, double *q, double *vs) {
    double *sign = vs + m * n;
    for (int64_t k = 0; k < n; k++) {
        double *v = vs + k * m, *col = a + k * m;
        memset(v, 0, sizeof(double) * (size_t)m);
        double norm = 0;
        for (int64_t i = k; i < m; i++) norm += col[i] * col[i];
        norm = sqrt(norm);
        if (norm == 0) {
            sign[k] = 1;
            continue;
        }
        double alpha = col[k] > 0 ? -norm : norm;
        for (int64_t i = k; i < m; i++) v[i] = col[i];
        v[k] -= alpha;
        double vn = 0;
        for (int64_t i = k; i < m; i++) vn += v[i] * v[i];
        vn = sqrt(vn);
        for (int64_t i = k; i < m; i++) v[i] /= vn;
        for (int64_t j = k; j < n; j++) {
            double *cj = a + j * m, s = 0;
            for (int64_t i = k; i < m; i++) s += v[i] * cj[i];
            for (int64_t i = k; i < m; i++) cj[i] -= 2 * s * v[i];
        }
        sign[k] = alpha < 0 ? -1 : 1; /* R[k][k] == alpha */
    }
    memset(q, 0, sizeof(double) * (size_t)(m * n));
    for (int64_t j = 0; j < n; j++) q[j * m + j] = 1;
    for (int64_t k = n - 1; k >= 0; k--) {
        const double *v = vs + k * m;
        for (int64_t j = 0; j < n; j++) {
            double *qj = q + j * m, s = 0;
            for (int64_t i = k; i < m; i++) s += v[i] * qj[i];
            if (s != 0)
                for (int64_t i = k; i < m; i++) qj[i] -= 2 * s * v[i];
        }
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) q[j * m + i] *= sign[j];
}

nn_status nn_init_orthogonal_(nn_ctx *ctx, nn_tensor *t, double gain) {
    if (need_float(ctx, "orthogonal_", t)) return ctx->err.code;
    if (t->ndim < 2) {
        char s[128];
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "orthogonal_: only tensors with 2 or more dims are supported, got "
                            "shape %s",
                            nn_tensor_shape_str(t, s, sizeof s));
    }
    int64_t numel = nn_tensor_numel(t);
    if (numel == 0) return NN_OK; /* PyTorch returns an empty tensor unchanged */
    int64_t rows = t->shape[0], cols = numel / rows;
    bool flip = rows < cols;
    int64_t m = flip ? cols : rows, n = flip ? rows : cols;
    size_t mn = (size_t)(m * n);
    double *buf = malloc(sizeof(double) * (3 * mn + (size_t)n + (size_t)m * (size_t)n));
    if (!buf) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "orthogonal_: out of memory");
    double *a = buf, *q = buf + mn, *out = buf + 2 * mn, *vs = buf + 3 * mn;
    /* The normal matrix is drawn row-major [rows, cols]; column-major m x n
     * storage of its transpose (when flipped) is the same array. */
    for (size_t i = 0; i < mn; i++) out[i] = nn_rng_normal(&ctx->rng);
    if (flip) {
        memcpy(a, out, sizeof(double) * mn); /* [rows, cols] row-major == [cols x rows] col-major */
    } else {
        for (int64_t r = 0; r < rows; r++)
            for (int64_t c = 0; c < cols; c++) a[c * m + r] = out[r * cols + c];
    }
    householder_q(a, m, n, q, vs);
    /* Back to row-major [rows, cols]: Q (m x n) itself, or Q^T when flipped. */
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            out[r * cols + c] = gain * (flip ? q[r * m + c] : q[c * m + r]);
    nn_status st = write_doubles(ctx, t, out);
    free(buf);
    return st;
}
