/* Batch and group normalisation, composed of the public ops (mean, var,
 * sub, rsqrt, mul, add), so autograd, the hooks and the module labels see
 * each step; the statistics are PyTorch's: the biased variance normalises,
 * and BatchNorm's running variance is updated with the unbiased one. */
#include <math.h>
#include <string.h>

#include "nn_ops_impl.h"

/* Release [old] and pass [r] through (chains of ops in one line). */
static nn_tensor *then(nn_tensor *old, nn_tensor *r) {
    nn_tensor_release(old);
    return r;
}

/* [v] of shape [C] viewed as [1, C, 1, ...] for an input of [ndim] dims. */
static nn_tensor *channel_view(nn_ctx *ctx, nn_tensor *v, int ndim) {
    int64_t shape[NN_MAX_DIMS];
    for (int d = 0; d < ndim; d++) shape[d] = d == 1 ? nn_tensor_numel(v) : 1;
    return nn_reshape(ctx, v, ndim, shape);
}

static bool check_channel(nn_ctx *ctx, const char *what, const nn_tensor *t, int64_t c) {
    if (!t || nn_tensor_numel(t) == c) return true;
    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s should contain %lld elements not %lld", what,
                 (long long)c, (long long)nn_tensor_numel(t));
    return false;
}

static bool check_group_param(nn_ctx *ctx, const char *what, const nn_tensor *t,
                              const nn_tensor *x) {
    if (!t || (t->ndim == 1 && t->shape[0] == x->shape[1])) return true;
    char a[128], b[128];
    nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                 "Expected %s to be a vector of size equal to the number of channels in input, "
                 "but got %s of shape %s and input of shape %s",
                 what, what, nn_tensor_shape_str(t, a, sizeof a),
                 nn_tensor_shape_str(x, b, sizeof b));
    return false;
}

/* y * w + b with w, b of [C] (either may be NULL); takes over [y]. */
static nn_tensor *affine(nn_ctx *ctx, nn_tensor *y, nn_tensor *w, nn_tensor *b) {
    int nd = y->ndim;
    if (w) {
        nn_tensor *wv = channel_view(ctx, w, nd);
        y = then(y, wv ? nn_mul(ctx, y, wv) : NULL);
        nn_tensor_release(wv);
    }
    if (y && b) {
        nn_tensor *bv = channel_view(ctx, b, nd);
        y = then(y, bv ? nn_add(ctx, y, bv) : NULL);
        nn_tensor_release(bv);
    }
    return y;
}

/* (x - mean) * rsqrt(var + eps) */
static nn_tensor *normalise(nn_ctx *ctx, nn_tensor *x, nn_tensor *mean, nn_tensor *var,
                            double eps) {
    nn_tensor *ve = nn_add_scalar(ctx, var, eps);
    nn_tensor *inv = ve ? nn_rsqrt(ctx, ve) : NULL;
    nn_tensor *xc = inv ? nn_sub(ctx, x, mean) : NULL;
    nn_tensor *y = xc ? nn_mul(ctx, xc, inv) : NULL;
    nn_tensor_release(ve);
    nn_tensor_release(inv);
    nn_tensor_release(xc);
    return y;
}

/* running = (1 - f) running + f stat, without autograd. */
static nn_status ema_(nn_ctx *ctx, nn_tensor *running, nn_tensor *stat, double f) {
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *s = nn_tensor_cast_raw(ctx, stat, running->dtype);
    nn_tensor *a = s ? nn_mul_scalar(ctx, running, 1.0 - f) : NULL;
    nn_tensor *b = a ? nn_mul_scalar(ctx, s, f) : NULL;
    nn_tensor *r = b ? nn_add(ctx, a, b) : NULL;
    nn_status st = r ? nn_tensor_copy_(ctx, running, r) : ctx->err.code;
    nn_tensor_release(s);
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(r);
    nn_ctx_set_grad(ctx, prev);
    return st;
}

nn_tensor *nn_batch_norm(nn_ctx *ctx, nn_tensor *x, nn_tensor *running_mean, nn_tensor *running_var,
                         nn_tensor *weight, nn_tensor *bias, bool training, double momentum,
                         double eps) {
    if (x->ndim < 2) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "batch_norm: expected an input of at least 2 dims [N, C, ...], got %d",
                     x->ndim);
        return NULL;
    }
    if (!nn_dtype_is_float(x->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"batch_norm\" not implemented for '%s'",
                     x->dtype == NN_INT64 ? "Long" : "Bool");
        return NULL;
    }
    int64_t c = x->shape[1];
    if (!check_channel(ctx, "running_mean", running_mean, c) ||
        !check_channel(ctx, "running_var", running_var, c) ||
        !check_channel(ctx, "weight", weight, c) || !check_channel(ctx, "bias", bias, c))
        return NULL;
    int64_t dims[NN_MAX_DIMS], count = 1;
    int nd = 0;
    for (int d = 0; d < x->ndim; d++)
        if (d != 1) {
            dims[nd++] = d;
            count *= x->shape[d];
        }
    nn_tensor *y;
    if (training) {
        if (count <= 1) {
            char s[128];
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "Expected more than 1 value per channel when training, got input size "
                         "torch.Size(%s)",
                         nn_tensor_shape_str(x, s, sizeof s));
            return NULL;
        }
        nn_tensor *mean = nn_mean(ctx, x, dims, nd, true);
        nn_tensor *var = mean ? nn_var(ctx, x, dims, nd, 0, true) : NULL;
        y = var ? normalise(ctx, x, mean, var, eps) : NULL;
        if (y && (running_mean || running_var)) {
            int64_t flat = c;
            nn_tensor *m1 = nn_tensor_detach(ctx, mean), *v1 = nn_tensor_detach(ctx, var);
            nn_tensor *mr =
                m1 ? nn_tensor_view_raw(ctx, m1, 1, &flat, &m1->strides[1], m1->offset) : NULL;
            nn_tensor *vr =
                v1 ? nn_tensor_view_raw(ctx, v1, 1, &flat, &v1->strides[1], v1->offset) : NULL;
            bool prev = nn_ctx_set_grad(ctx, false);
            nn_tensor *vu = vr ? nn_mul_scalar(ctx, vr, (double)count / (double)(count - 1)) : NULL;
            nn_ctx_set_grad(ctx, prev);
            nn_status st = mr && vu ? NN_OK : ctx->err.code;
            if (!st && running_mean) st = ema_(ctx, running_mean, mr, momentum);
            if (!st && running_var) st = ema_(ctx, running_var, vu, momentum);
            nn_tensor_release(m1);
            nn_tensor_release(v1);
            nn_tensor_release(mr);
            nn_tensor_release(vr);
            nn_tensor_release(vu);
            if (st) y = then(y, NULL);
        }
        nn_tensor_release(mean);
        nn_tensor_release(var);
    } else {
        if (!running_mean || !running_var) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "batch_norm: running_mean and running_var are needed when not training");
            return NULL;
        }
        nn_tensor *mv = channel_view(ctx, running_mean, x->ndim);
        nn_tensor *vv = mv ? channel_view(ctx, running_var, x->ndim) : NULL;
        y = vv ? normalise(ctx, x, mv, vv, eps) : NULL;
        nn_tensor_release(mv);
        nn_tensor_release(vv);
    }
    return y ? affine(ctx, y, weight, bias) : NULL;
}

nn_tensor *nn_group_norm(nn_ctx *ctx, nn_tensor *x, int64_t num_groups, nn_tensor *weight,
                         nn_tensor *bias, double eps) {
    char s[128];
    if (x->ndim < 2) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "Expected at least 2 dimensions for input tensor but received %d", x->ndim);
        return NULL;
    }
    int64_t c = x->shape[1];
    if (num_groups <= 0 || c % num_groups != 0) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "Expected number of channels in input to be divisible by num_groups, but got "
                     "input of shape %s and num_groups=%lld",
                     nn_tensor_shape_str(x, s, sizeof s), (long long)num_groups);
        return NULL;
    }
    if (!check_group_param(ctx, "weight", weight, x) || !check_group_param(ctx, "bias", bias, x))
        return NULL;
    int64_t g3[3] = {x->shape[0], num_groups, -1}, last = 2;
    nn_tensor *xg = nn_reshape(ctx, x, 3, g3);
    nn_tensor *mean = xg ? nn_mean(ctx, xg, &last, 1, true) : NULL;
    nn_tensor *var = mean ? nn_var(ctx, xg, &last, 1, 0, true) : NULL;
    nn_tensor *yg = var ? normalise(ctx, xg, mean, var, eps) : NULL;
    nn_tensor *y = yg ? nn_reshape(ctx, yg, x->ndim, x->shape) : NULL;
    nn_tensor_release(xg);
    nn_tensor_release(mean);
    nn_tensor_release(var);
    nn_tensor_release(yg);
    return y ? affine(ctx, y, weight, bias) : NULL;
}
