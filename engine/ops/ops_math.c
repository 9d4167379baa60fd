/* More elementwise math (sin, cos, log2, log10, nan_to_num) and the
 * triangle masks (tril, triu), each one node with its own backward.
 *
 * The kernels work on the input in its float type, a dense layout kept (ints and
 * bools compute in float32, as the other unary math does); their backwards
 * are written with the public ops, which run directly inside a backward. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_sleef.h"

enum { M_SIN, M_COS, M_LOG2, M_LOG10 };

/* Through SLEEF, as PyTorch computes them (nn_sleef.h). */
static const nn_sleef_fn sleef_of[] = {NN_SLEEF_SIN, NN_SLEEF_COS, NN_SLEEF_LOG2, NN_SLEEF_LOG10};

static nn_tensor *math_forward(nn_ctx *ctx, nn_node *node, int which) {
    nn_tensor *a = node->in[0].t;
    nn_dtype dt = nn_float_dtype(a->dtype);
    nn_tensor *c = NULL;
    nn_tensor *out = nn_map_operands(ctx, a, dt, &c, NULL);
    if (out) {
        int64_t n = nn_tensor_numel(out);
        if (dt == NN_FLOAT32)
            nn_sleef_map_f32(sleef_of[which], nn_tensor_data(out), nn_tensor_data(c), n, n);
        else
            nn_sleef_map_f64(sleef_of[which], nn_tensor_data(out), nn_tensor_data(c), n, n);
    }
    nn_tensor_release(c);
    return out;
}

/* din = dout * f'(x): sin' = cos, cos' = -sin, log2' = 1 / (x ln 2),
 * log10' = 1 / (x ln 10). */
static nn_status math_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                               int which) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *x = node->in[0].t, *d = NULL, *r = NULL;
    switch (which) {
    case M_SIN: d = nn_cos(ctx, x); break;
    case M_COS: {
        nn_tensor *s = nn_sin(ctx, x);
        d = s ? nn_neg(ctx, s) : NULL;
        nn_tensor_release(s);
        break;
    }
    default: {
        /* grad / (x ln b), as PyTorch divides */
        nn_tensor *s =
            nn_mul_scalar(ctx, x, which == M_LOG2 ? 0.6931471805599453 : 2.3025850929940456);
        r = s ? nn_div(ctx, dout, s) : NULL;
        nn_tensor_release(s);
        din[0] = r;
        return r ? NN_OK : ctx->err.code;
    }
    }
    if (d) r = nn_mul(ctx, dout, d);
    nn_tensor_release(d);
    din[0] = r;
    return r ? NN_OK : ctx->err.code;
}

#define MATH_OP(name, W)                                                                           \
    nn_tensor *op_##name##_forward(nn_ctx *ctx, nn_node *node) {                                   \
        return math_forward(ctx, node, W);                                                         \
    }                                                                                              \
    nn_status op_##name##_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) { \
        return math_backward(ctx, node, dout, din, W);                                             \
    }
MATH_OP(sin, M_SIN)
MATH_OP(cos, M_COS)
MATH_OP(log2, M_LOG2)
MATH_OP(log10, M_LOG10)
#undef MATH_OP

static nn_tensor *call1(nn_ctx *ctx, nn_op op, nn_tensor *a, const nn_params *p) {
    return nn_exec(ctx, op, &a, 1, p);
}

nn_tensor *nn_sin(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_SIN, a, NULL);
}
nn_tensor *nn_cos(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_COS, a, NULL);
}
nn_tensor *nn_log2(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_LOG2, a, NULL);
}
nn_tensor *nn_log10(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_LOG10, a, NULL);
}

/* ---- nan_to_num: p.f = {nan, posinf, neginf} ---- */

/* A dense layout (a transpose, channels_last) is kept, as PyTorch's
 * TensorIterator keeps it (nn_map_operands). */
nn_tensor *op_nan_to_num_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    nn_tensor *c = NULL;
    nn_tensor *out = nn_map_operands(ctx, a, a->dtype, &c, NULL);
    if (!out) return NULL;
    int64_t n = nn_tensor_numel(out);
    double vn = node->p.f[0], vp = node->p.f[1], vm = node->p.f[2];
    if (a->dtype == NN_FLOAT32) {
        const float *x = nn_tensor_data(c);
        float *y = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            y[i] = isnan(x[i])   ? (float)vn
                   : isinf(x[i]) ? (x[i] > 0 ? (float)vp : (float)vm)
                                 : x[i];
    } else if (a->dtype == NN_FLOAT64) {
        const double *x = nn_tensor_data(c);
        double *y = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++)
            y[i] = isnan(x[i]) ? vn : isinf(x[i]) ? (x[i] > 0 ? vp : vm) : x[i];
    } else {
        memcpy(nn_tensor_data(out), nn_tensor_data(c), (size_t)n * nn_dtype_size(a->dtype));
    }
    nn_tensor_release(c);
    return out;
}

/* The gradient passes where x is finite, as torch's grad * isfinite(x). */
nn_status op_nan_to_num_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *fin = nn_isfinite(ctx, node->in[0].t);
    nn_tensor *zero = fin ? nn_scalar_wrapped(ctx, 0.0) : NULL;
    din[0] = zero ? nn_where(ctx, fin, dout, zero) : NULL;
    nn_tensor_release(fin);
    nn_tensor_release(zero);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *nn_nan_to_num(nn_ctx *ctx, nn_tensor *a, double nan, double posinf, double neginf) {
    nn_params p;
    memset(&p, 0, sizeof p);
    double big = a->dtype == NN_FLOAT32 ? (double)FLT_MAX : DBL_MAX;
    p.f[0] = isnan(nan) ? 0.0 : nan;
    p.f[1] = isnan(posinf) ? big : posinf;
    p.f[2] = isnan(neginf) ? -big : neginf;
    return call1(ctx, NN_OP_NAN_TO_NUM, a, &p);
}

/* ---- tril / triu: p.i[0] = diagonal, p.flags 1 for triu ---- */

static nn_tensor *triangle(nn_ctx *ctx, nn_tensor *a, int64_t diag, bool upper) {
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
    nn_tensor *out = c ? nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    int64_t rows = a->shape[a->ndim - 2], cols = a->shape[a->ndim - 1];
    int64_t mat = rows * cols, n = nn_tensor_numel(a);
    size_t es = nn_dtype_size(a->dtype);
    const char *x = nn_tensor_data(c);
    char *y = nn_tensor_data(out);
    for (int64_t k = 0; k < n; k++) {
        int64_t r = (k % mat) / cols, col = k % cols;
        bool keep = upper ? col - r >= diag : col - r <= diag;
        if (keep)
            memcpy(y + k * (int64_t)es, x + k * (int64_t)es, es);
        else
            memset(y + k * (int64_t)es, 0, es);
    }
    nn_tensor_release(c);
    return out;
}

nn_tensor *op_tril_forward(nn_ctx *ctx, nn_node *node) {
    return triangle(ctx, node->in[0].t, node->p.i[0], node->p.flags == 1);
}

nn_status op_tril_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    din[0] = triangle(ctx, dout, node->p.i[0], node->p.flags == 1);
    return din[0] ? NN_OK : ctx->err.code;
}

static nn_tensor *tri(nn_ctx *ctx, nn_tensor *a, int64_t diagonal, bool upper) {
    int d;
    if (a->ndim < 2 && nn_dim_wrap_torch(ctx, -2, a->ndim, &d)) return NULL; /* torch's error */
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = diagonal;
    p.flags = upper ? 1 : 0;
    return call1(ctx, NN_OP_TRIL, a, &p);
}

nn_tensor *nn_tril(nn_ctx *ctx, nn_tensor *a, int64_t diagonal) {
    return tri(ctx, a, diagonal, false);
}
nn_tensor *nn_triu(nn_ctx *ctx, nn_tensor *a, int64_t diagonal) {
    return tri(ctx, a, diagonal, true);
}
