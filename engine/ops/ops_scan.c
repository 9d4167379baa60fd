/* Scans along a dim: cumsum and cumprod, each one node with its own
 * backward. p.i[0] is the (normalised) dim; the result has the input's
 * dtype (bool becomes int64, as torch), and float sums and products
 * accumulate in double, as torch's CPU kernels do (acc_type<float> is
 * double there).
 *
 * cumprod's backward is exact when the row holds zeros: with z the first
 * zero of a row, dx_k = sum_{i>=k} g_i y_i / x_k for k < z, dx_z is the sum
 * of g_i times the product of the row up to i without x_z, and dx_k = 0
 * beyond z (every product there still holds x_z). O(n) per row. */
#include <string.h>

#include "nn_ops_impl.h"

/* The geometry of a scan over [dim] of a contiguous tensor: [outer] blocks
 * of [len] rows of [inner] elements; element (o, i, k) sits at
 * (o * len + i) * inner + k. */
typedef struct scan_geom {
    int64_t outer, len, inner;
} scan_geom;

static scan_geom geom(const nn_tensor *t, int dim) {
    scan_geom g = {1, t->ndim ? t->shape[dim] : 1, 1};
    for (int d = 0; d < dim; d++) g.outer *= t->shape[d];
    for (int d = dim + 1; d < t->ndim; d++) g.inner *= t->shape[d];
    return g;
}

static nn_dtype scan_dtype(nn_dtype dt) {
    return dt == NN_BOOL ? NN_INT64 : dt;
}

/* out = cumsum (prod false) or cumprod of [a] along [dim]; [reverse] runs
 * from the end (the backward of cumsum). No autograd. */
static nn_tensor *scan_raw(nn_ctx *ctx, nn_tensor *a, int dim, bool prod, bool reverse) {
    nn_dtype dt = scan_dtype(a->dtype);
    nn_tensor *ca = nn_tensor_cast_raw(ctx, a, dt);
    nn_tensor *c = ca ? nn_tensor_contiguous_raw(ctx, ca) : NULL;
    nn_tensor_release(ca);
    nn_tensor *out = c ? nn_tensor_empty(ctx, dt, a->ndim, a->shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    scan_geom g = geom(a, dim);
    for (int64_t o = 0; o < g.outer; o++)
        for (int64_t k = 0; k < g.inner; k++) {
            int64_t base = o * g.len * g.inner + k;
            if (dt == NN_INT64) {
                const int64_t *x = nn_tensor_data(c);
                int64_t *y = nn_tensor_data(out), acc = prod ? 1 : 0;
                for (int64_t s = 0; s < g.len; s++) {
                    int64_t i = base + (reverse ? g.len - 1 - s : s) * g.inner;
                    acc = prod ? (int64_t)((uint64_t)acc * (uint64_t)x[i])
                               : (int64_t)((uint64_t)acc + (uint64_t)x[i]);
                    y[i] = acc;
                }
            } else {
                double acc = prod ? 1.0 : 0.0;
                for (int64_t s = 0; s < g.len; s++) {
                    int64_t i = base + (reverse ? g.len - 1 - s : s) * g.inner;
                    double v = dt == NN_FLOAT32 ? (double)((const float *)nn_tensor_data(c))[i]
                                                : ((const double *)nn_tensor_data(c))[i];
                    acc = prod ? acc * v : acc + v;
                    if (dt == NN_FLOAT32)
                        ((float *)nn_tensor_data(out))[i] = (float)acc;
                    else
                        ((double *)nn_tensor_data(out))[i] = acc;
                }
            }
        }
    nn_tensor_release(c);
    return out;
}

nn_tensor *op_cumsum_forward(nn_ctx *ctx, nn_node *node) {
    return scan_raw(ctx, node->in[0].t, (int)node->p.i[0], false, false);
}

nn_status op_cumsum_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    din[0] = scan_raw(ctx, dout, (int)node->p.i[0], false, true);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *op_cumprod_forward(nn_ctx *ctx, nn_node *node) {
    return scan_raw(ctx, node->in[0].t, (int)node->p.i[0], true, false);
}

/* Float64 throughout, then cast to dout's dtype. */
nn_status op_cumprod_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *x = node->in[0].t;
    nn_tensor *x64 = nn_tensor_cast_raw(ctx, x, NN_FLOAT64);
    nn_tensor *xc = x64 ? nn_tensor_contiguous_raw(ctx, x64) : NULL;
    nn_tensor *g64 = xc ? nn_tensor_cast_raw(ctx, dout, NN_FLOAT64) : NULL;
    nn_tensor *gc = g64 ? nn_tensor_contiguous_raw(ctx, g64) : NULL;
    nn_tensor *r = gc ? nn_tensor_empty(ctx, NN_FLOAT64, x->ndim, x->shape) : NULL;
    nn_tensor_release(x64);
    nn_tensor_release(g64);
    if (!r) {
        nn_tensor_release(xc);
        nn_tensor_release(gc);
        return ctx->err.code;
    }
    const double *xv = nn_tensor_data(xc), *gv = nn_tensor_data(gc);
    double *dv = nn_tensor_data(r);
    scan_geom s = geom(x, (int)node->p.i[0]);
    for (int64_t o = 0; o < s.outer; o++)
        for (int64_t k = 0; k < s.inner; k++) {
            int64_t base = o * s.len * s.inner + k, st = s.inner, z = s.len;
            for (int64_t i = 0; i < s.len; i++)
                if (xv[base + i * st] == 0) {
                    z = i;
                    break;
                }
            /* Before the first zero: suffix sums of g_i y_i, divided by x_k. */
            double y = 1.0, pre = 1.0;
            for (int64_t i = 0; i < z; i++) {
                y *= xv[base + i * st];
                dv[base + i * st] = gv[base + i * st] * y; /* g_i y_i, summed below */
            }
            pre = y; /* product of the row before z */
            double acc = 0;
            for (int64_t i = z - 1; i >= 0; i--) {
                acc += dv[base + i * st];
                dv[base + i * st] = acc / xv[base + i * st];
            }
            if (z < s.len) {
                double p = pre, sum = gv[base + z * st] * p;
                for (int64_t i = z + 1; i < s.len; i++) {
                    p *= xv[base + i * st];
                    sum += gv[base + i * st] * p;
                }
                dv[base + z * st] = sum;
                for (int64_t i = z + 1; i < s.len; i++) dv[base + i * st] = 0;
            }
        }
    nn_tensor_release(xc);
    nn_tensor_release(gc);
    din[0] = nn_tensor_cast_raw(ctx, r, dout->dtype);
    nn_tensor_release(r);
    return din[0] ? NN_OK : ctx->err.code;
}

static nn_tensor *scan(nn_ctx *ctx, nn_op op, nn_tensor *a, int64_t dim) {
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    if (a->ndim == 0) d = 0;
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = d;
    return nn_exec(ctx, op, &a, 1, &p);
}

nn_tensor *nn_cumsum(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    return scan(ctx, NN_OP_CUMSUM, a, dim);
}
nn_tensor *nn_cumprod(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    return scan(ctx, NN_OP_CUMPROD, a, dim);
}
