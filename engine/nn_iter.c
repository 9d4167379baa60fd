/* The strided iterator, broadcasting, and reduction geometry shared by the
 * kernels (declared in nn_ops_impl.h). */
#include <string.h>

#include "nn_ops_impl.h"

void nn_iter_init(nn_iter *it, int ndim, const int64_t *shape) {
    it->ndim = ndim;
    it->nargs = 0;
    for (int i = 0; i < ndim; i++) it->shape[i] = shape[i];
}

void nn_iter_add_strided(nn_iter *it, const nn_tensor *t, const int64_t *elem_strides) {
    NN_ASSERT(it->nargs < NN_ITER_MAX_ARGS);
    int k = it->nargs++;
    int64_t es = (int64_t)nn_dtype_size(t->dtype);
    for (int i = 0; i < it->ndim; i++) it->strides[k][i] = elem_strides[i] * es;
    it->data[k] = nn_tensor_data(t);
}

void nn_iter_add(nn_iter *it, const nn_tensor *t) {
    int64_t st[NN_MAX_DIMS];
    int lead = it->ndim - t->ndim;
    NN_ASSERT(lead >= 0);
    for (int i = 0; i < it->ndim; i++) {
        int j = i - lead;
        st[i] = (j < 0 || t->shape[j] == 1) ? 0 : t->strides[j];
    }
    nn_iter_add_strided(it, t, st);
}

void nn_iter_run(nn_iter *it, nn_iter_loop loop, void *arg) {
    int64_t shape[NN_MAX_DIMS], strides[NN_ITER_MAX_ARGS][NN_MAX_DIMS];
    int nd = 0;
    /* Drop size-1 dims, then merge dim i into the next inner one when every
     * operand steps over it as one run. */
    for (int i = 0; i < it->ndim; i++) {
        if (it->shape[i] == 0) return;
        if (it->shape[i] == 1) continue;
        if (nd > 0) {
            bool merge = true;
            for (int k = 0; k < it->nargs && merge; k++)
                merge = strides[k][nd - 1] == it->strides[k][i] * it->shape[i];
            if (merge) {
                shape[nd - 1] *= it->shape[i];
                for (int k = 0; k < it->nargs; k++) strides[k][nd - 1] = it->strides[k][i];
                continue;
            }
        }
        shape[nd] = it->shape[i];
        for (int k = 0; k < it->nargs; k++) strides[k][nd] = it->strides[k][i];
        nd++;
    }
    char *ptr[NN_ITER_MAX_ARGS];
    int64_t inner[NN_ITER_MAX_ARGS];
    for (int k = 0; k < it->nargs; k++) {
        ptr[k] = it->data[k];
        inner[k] = nd ? strides[k][nd - 1] : 0;
    }
    if (nd <= 1) {
        loop(ptr, inner, nd ? shape[0] : 1, arg);
        return;
    }
    /* Odometer over the outer dims. */
    int64_t idx[NN_MAX_DIMS] = {0};
    int64_t n_inner = shape[nd - 1];
    for (;;) {
        loop(ptr, inner, n_inner, arg);
        int d = nd - 2;
        for (; d >= 0; d--) {
            idx[d]++;
            for (int k = 0; k < it->nargs; k++) ptr[k] += strides[k][d];
            if (idx[d] < shape[d]) break;
            for (int k = 0; k < it->nargs; k++) ptr[k] -= strides[k][d] * shape[d];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

nn_status nn_broadcast_shapes(nn_ctx *ctx, int na, const int64_t *a, int nb, const int64_t *b,
                              int *nout, int64_t *out) {
    int n = na > nb ? na : nb;
    for (int i = 0; i < n; i++) {
        int64_t x = i - (n - na) >= 0 ? a[i - (n - na)] : 1;
        int64_t y = i - (n - nb) >= 0 ? b[i - (n - nb)] : 1;
        if (x != y && x != 1 && y != 1) {
            char sa[128], sb[128];
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "shapes %s and %s cannot be broadcast together: "
                                "dim %d has size %lld vs %lld (sizes must match or be 1)",
                                nn_shape_str(sa, sizeof sa, na, a),
                                nn_shape_str(sb, sizeof sb, nb, b), i - n, (long long)x,
                                (long long)y);
        }
        out[i] = x == 1 ? y : x;
    }
    *nout = n;
    return NN_OK;
}

nn_status nn_reduce_mask(nn_ctx *ctx, int ndim, const int64_t *dims, int n_dims,
                         bool mask[NN_MAX_DIMS]) {
    bool all = dims == NULL || n_dims <= 0;
    for (int i = 0; i < NN_MAX_DIMS; i++) mask[i] = all && i < ndim;
    if (all) return NN_OK;
    for (int k = 0; k < n_dims; k++) {
        int d;
        if (nn_dim_wrap(ctx, dims[k], ndim, &d)) return ctx->err.code;
        if (ndim == 0) continue; /* dim 0 or -1 of a scalar reduces nothing */
        if (mask[d])
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "dim %lld appears twice in the dims",
                                (long long)dims[k]);
        mask[d] = true;
    }
    return NN_OK;
}

int nn_reduce_shape(const nn_tensor *a, const bool mask[NN_MAX_DIMS], bool keepdim,
                    int64_t *out_shape) {
    int n = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (!mask[i])
            out_shape[n++] = a->shape[i];
        else if (keepdim)
            out_shape[n++] = 1;
    }
    return n;
}

/* dst += alpha * src (src broadcast to dst), same float dtype or converted. */
typedef struct {
    nn_dtype dt;
    double alpha;
} axpy_arg;

static void axpy_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    axpy_arg *a = argp;
    if (a->dt == NN_FLOAT32) {
        float al = (float)a->alpha;
        if (s[0] == 4 && s[1] == 4) {
            float *o = (float *)d[0];
            const float *x = (const float *)d[1];
            for (int64_t i = 0; i < n; i++) o[i] += al * x[i];
        } else {
            for (int64_t i = 0; i < n; i++)
                *(float *)(d[0] + i * s[0]) += al * *(const float *)(d[1] + i * s[1]);
        }
    } else if (a->dt == NN_FLOAT64) {
        for (int64_t i = 0; i < n; i++)
            *(double *)(d[0] + i * s[0]) += a->alpha * *(const double *)(d[1] + i * s[1]);
    } else if (a->dt == NN_INT64) {
        for (int64_t i = 0; i < n; i++)
            *(int64_t *)(d[0] + i * s[0]) = (int64_t)((uint64_t) * (int64_t *)(d[0] + i * s[0]) +
                                                      (uint64_t)(int64_t)a->alpha * (uint64_t) *
                                                          (const int64_t *)(d[1] + i * s[1]));
    } else if (a->dt == NN_BOOL) {
        for (int64_t i = 0; i < n; i++)
            *(uint8_t *)(d[0] + i * s[0]) |= *(const uint8_t *)(d[1] + i * s[1]) && a->alpha != 0;
    } else if (nn_dtype_is_float(a->dt)) { /* float16, bfloat16: computed in float, rounded */
        for (int64_t i = 0; i < n; i++)
            nn_dtype_store(a->dt, d[0] + i * s[0],
                           (float)nn_dtype_load(a->dt, d[0] + i * s[0]) +
                               (float)a->alpha * (float)nn_dtype_load(a->dt, d[1] + i * s[1]));
    } else { /* small ints: in int64, wrapped back */
        for (int64_t i = 0; i < n; i++) {
            uint64_t v =
                (uint64_t)nn_dtype_load_int(a->dt, d[0] + i * s[0]) +
                (uint64_t)(int64_t)a->alpha * (uint64_t)nn_dtype_load_int(a->dt, d[1] + i * s[1]);
            nn_dtype_store(a->dt, d[0] + i * s[0], (double)(int64_t)v);
        }
    }
}

nn_status nn_raw_add_into(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src, double alpha) {
    int n;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, dst->ndim, dst->shape, src->ndim, src->shape, &n, shape))
        return ctx->err.code;
    if (n != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * (size_t)n) != 0) {
        char a[128], b[128];
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "cannot add a tensor of shape %s in place into one of shape %s",
                            nn_tensor_shape_str(src, a, sizeof a),
                            nn_tensor_shape_str(dst, b, sizeof b));
    }
    nn_tensor *s = nn_tensor_cast_raw(ctx, src, dst->dtype);
    if (!s) return ctx->err.code;
    nn_iter it;
    axpy_arg a = {dst->dtype, alpha};
    nn_iter_init(&it, dst->ndim, dst->shape);
    nn_iter_add(&it, dst);
    nn_iter_add(&it, s);
    nn_iter_run(&it, axpy_loop, &a);
    nn_tensor_release(s);
    return NN_OK;
}
