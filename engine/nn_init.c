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

/* ---- truncated normal ----
 * torch.nn.init.trunc_normal_ as torch 1.13 computes it: uniform_ between
 * 2 cdf(a') - 1 and 2 cdf(b') - 1, then erfinv_, mul_(std * sqrt(2)),
 * add_(mean) and clamp_(a, b), each in the tensor's dtype. erfinv is
 * PyTorch's calc_erfinv (a rational first guess and two Newton steps), its
 * multiply-adds fused as torch's build fuses them. */

static double norm_cdf(double x) {
    return (1. + erf(x / sqrt(2.))) / 2.;
}

static float erfinv_f32(float y) {
    static const float a[4] = {0.886226899f, -1.645349621f, 0.914624893f, -0.140543331f};
    static const float b[4] = {-2.118377725f, 1.442710462f, -0.329097515f, 0.012229801f};
    static const float c[4] = {-1.970840454f, -1.624906493f, 3.429567803f, 1.641345311f};
    static const float d[2] = {3.543889200f, 1.637067800f};
    float ya = fabsf(y);
    if (ya > 1.0f) return NAN;
    if (ya == 1.0f) return copysignf(INFINITY, y);
    float x, z, num, dem;
    if (ya <= 0.7f) {
        z = y * y;
        num = fmaf(fmaf(fmaf(a[3], z, a[2]), z, a[1]), z, a[0]);
        dem = fmaf(fmaf(fmaf(fmaf(b[3], z, b[2]), z, b[1]), z, b[0]), z, 1.0f);
        x = y * num / dem;
    } else {
        z = sqrtf(-logf((1.0f - ya) / 2.0f));
        num = fmaf(fmaf(fmaf(c[3], z, c[2]), z, c[1]), z, c[0]);
        dem = fmaf(fmaf(d[1], z, d[0]), z, 1.0f);
        x = copysignf(num, y) / dem;
    }
    const float k = 2.0f / (float)sqrt(3.14159265358979323846);
    x = x - (erff(x) - y) / (k * expf(-x * x));
    x = x - (erff(x) - y) / (k * expf(-x * x));
    return x;
}

static double erfinv_f64(double y) {
    static const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
    static const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
    static const double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
    static const double d[2] = {3.543889200, 1.637067800};
    double ya = fabs(y);
    if (ya > 1.0) return NAN;
    if (ya == 1.0) return copysign(INFINITY, y);
    double x, z, num, dem;
    if (ya <= 0.7) {
        z = y * y;
        num = fma(fma(fma(a[3], z, a[2]), z, a[1]), z, a[0]);
        dem = fma(fma(fma(fma(b[3], z, b[2]), z, b[1]), z, b[0]), z, 1.0);
        x = y * num / dem;
    } else {
        z = sqrt(-log((1.0 - ya) / 2.0));
        num = fma(fma(fma(c[3], z, c[2]), z, c[1]), z, c[0]);
        dem = fma(fma(d[1], z, d[0]), z, 1.0);
        x = copysign(num, y) / dem;
    }
    const double k = 2.0 / sqrt(3.14159265358979323846);
    x = x - (erf(x) - y) / (k * exp(-x * x));
    x = x - (erf(x) - y) / (k * exp(-x * x));
    return x;
}

nn_status nn_init_trunc_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std, double a,
                                double b) {
    if (need_float(ctx, "trunc_normal_", t)) return ctx->err.code;
    if (!(std > 0) || !isfinite(mean) || !(a < b))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "trunc_normal_: needs std > 0, a finite mean and a < b; got mean=%g, "
                            "std=%g, a=%g, b=%g",
                            mean, std, a, b);
    double lo = norm_cdf((a - mean) / std), hi = norm_cdf((b - mean) / std);
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = nn_tensor_uniform_(ctx, t, 2 * lo - 1, 2 * hi - 1);
    nn_ctx_set_grad(ctx, prev);
    if (st) return st;
    int64_t n = nn_tensor_numel(t);
    double scale = std * sqrt(2.);
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        if (t->dtype == NN_FLOAT32) {
            float x = erfinv_f32((float)v) * (float)scale + (float)mean;
            x = fminf(fmaxf(x, (float)a), (float)b);
            v = x;
        } else {
            double x = erfinv_f64(v) * scale + mean;
            v = fmin(fmax(x, a), b);
        }
        nn_tensor_set_flat(t, i, v);
    }
    return NN_OK;
}

/* ---- orthogonal ---- */

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
    /* The normal matrix is drawn as torch draws it, tensor.new(rows,
     * cols).normal_(0, 1) in the tensor's dtype, row-major; column-major
     * m x n storage of its transpose (when flipped) is the same array. The
     * QR here is in double, so the result agrees with torch's LAPACK one to
     * rounding, not bit for bit. */
    nn_tensor *draw = nn_tensor_empty(ctx, t->dtype, 2, (int64_t[]){rows, cols});
    if (!draw || nn_tensor_normal_(ctx, draw, 0, 1)) {
        nn_tensor_release(draw);
        free(buf);
        return ctx->err.code;
    }
    nn_tensor_to_doubles(draw, out);
    nn_tensor_release(draw);
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
