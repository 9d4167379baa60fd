/* ops_fft: complex views, conj, and the three FFT primitives torch.fft is
 * built from (PyTorch's _fft_c2c, _fft_r2c, _fft_c2r), on FFTW.
 *
 * A complex tensor stores (real, imag) pairs; view_as_real sees the same
 * storage as a real tensor with a last dim of 2 and doubled strides, and
 * view_as_complex goes back. conj makes a copy with the imaginary parts
 * negated (PyTorch sets a lazy conjugate bit instead; the values are the
 * same).
 *
 * The transforms take any strides: FFTW's guru64 interface is given the
 * transformed dims (in the caller's order, the last one halved for r2c/c2r)
 * and the other dims as a batch, with the input's strides, and writes a
 * contiguous output. FFTW (Debian's libfftw3, fftw3 for float64 and fftw3f
 * for float32) is used, not a hand-written FFT: it is exact to a few ulps
 * for every length, prime lengths included, which is what PyTorch's
 * pocketfft gives. Plans are made with FFTW_ESTIMATE for each call (no
 * measuring, no wisdom kept between calls).
 *
 * Normalisation (p.i[0]) is PyTorch's fft_norm_mode: 0 none, 1 divide by
 * sqrt(n), 2 divide by n, n the product of the signal sizes. The backwards
 * are PyTorch's (tools/autograd/derivatives.yaml and FunctionsManual.cpp):
 * c2c's is c2c in the other direction with the same scaling; r2c's pads a
 * one-sided gradient with zeros, runs c2c backward and keeps the real part;
 * c2r's is r2c with the mirrored entries doubled.
 */
#include <complex.h>
#include <fftw3.h>
#include <math.h>
#include <string.h>

#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_ops_impl.h"

static nn_tensor *in0(nn_node *n) {
    return n->in[0].t;
}

/* A real (float) view of complex [t] with a last dim of 2: no copy. */
nn_tensor *nn_complex_as_real_raw(nn_ctx *ctx, const nn_tensor *t) {
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    if (t->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "tensors have at most %d dims", NN_MAX_DIMS);
        return NULL;
    }
    for (int d = 0; d < t->ndim; d++) {
        shape[d] = t->shape[d];
        strides[d] = 2 * t->strides[d];
    }
    shape[t->ndim] = 2;
    strides[t->ndim] = 1;
    nn_tensor *v = nn_tensor_view_raw(ctx, t, t->ndim + 1, shape, strides, 2 * t->offset);
    if (v) v->dtype = nn_dtype_to_real(t->dtype);
    return v;
}

/* The complex view of real [t] (last dim 2 with stride 1, other strides
 * and the offset even), with PyTorch's errors. */
nn_tensor *nn_real_as_complex_raw(nn_ctx *ctx, const nn_tensor *t) {
    if (t->dtype != NN_FLOAT32 && t->dtype != NN_FLOAT64) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "view_as_complex is only supported for float and double tensors, but got a "
                     "tensor of scalar type: %s",
                     nn_dtype_scalar_name(t->dtype));
        return NULL;
    }
    if (t->ndim == 0 || t->shape[t->ndim - 1] != 2) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "Tensor must have a last dimension of size 2");
        return NULL;
    }
    if (t->strides[t->ndim - 1] != 1) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "Tensor must have a last dimension with stride 1");
        return NULL;
    }
    int64_t strides[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim - 1; d++) {
        if (t->strides[d] % 2 != 0) {
            nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                         "Tensor must have a stride divisible by 2 for all but last dimension");
            return NULL;
        }
        strides[d] = t->strides[d] / 2;
    }
    if (t->offset % 2 != 0) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "Tensor must have a storage_offset divisible by 2");
        return NULL;
    }
    nn_tensor *v = nn_tensor_view_raw(ctx, t, t->ndim - 1, t->shape, strides, t->offset / 2);
    if (v) v->dtype = nn_dtype_to_complex(t->dtype);
    return v;
}

/* ---- view_as_real, view_as_complex ---- */

nn_tensor *op_view_as_real_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    if (!nn_dtype_is_complex(x->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "view_as_real is only supported for complex tensors");
        return NULL;
    }
    return nn_complex_as_real_raw(ctx, x);
}

nn_status op_view_as_real_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *c = nn_contiguous(ctx, dout);
    din[0] = c ? nn_view_as_complex(ctx, c) : NULL;
    nn_tensor_release(c);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *op_view_as_complex_forward(nn_ctx *ctx, nn_node *node) {
    return nn_real_as_complex_raw(ctx, in0(node));
}

nn_status op_view_as_complex_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout,
                                      nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    din[0] = nn_view_as_real(ctx, dout);
    return din[0] ? NN_OK : ctx->err.code;
}

/* ---- conj (materialised) ---- */

nn_tensor *op_conj_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    if (!nn_dtype_is_complex(x->dtype)) return nn_tensor_contiguous_raw(ctx, x);
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!out) return NULL;
    nn_status st = nn_tensor_copy_(ctx, out, x);
    if (st) {
        nn_tensor_release(out);
        return NULL;
    }
    int64_t n = nn_tensor_numel(out);
    if (out->dtype == NN_COMPLEX64) {
        float *p = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) p[2 * i + 1] = -p[2 * i + 1];
    } else {
        double *p = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) p[2 * i + 1] = -p[2 * i + 1];
    }
    out->storage->version = 0;
    return out;
}

nn_status op_conj_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    din[0] = nn_conj(ctx, dout);
    return din[0] ? NN_OK : ctx->err.code;
}

/* ---- the transforms ---- */

/* FFTW's geometry for [x] (the input) and a contiguous [out]: the
 * transformed dims in [dims] order, every other dim as a batch dim. [n]
 * are the logical sizes of the transformed dims (the real side's sizes for
 * r2c and c2r). */
typedef struct fft_geo {
    int rank, batch_rank;
    fftw_iodim64 dims[NN_MAX_DIMS], batch[NN_MAX_DIMS];
} fft_geo;

static void fft_geo_init(fft_geo *g, const nn_tensor *x, const nn_tensor *out, const int64_t *dims,
                         int n_dims, const int64_t *n) {
    bool is_fft[NN_MAX_DIMS] = {false};
    g->rank = n_dims;
    for (int k = 0; k < n_dims; k++) {
        int d = (int)dims[k];
        is_fft[d] = true;
        g->dims[k].n = n[k];
        g->dims[k].is = x->strides[d];
        g->dims[k].os = out->strides[d];
    }
    g->batch_rank = 0;
    for (int d = 0; d < x->ndim; d++) {
        if (is_fft[d]) continue;
        fftw_iodim64 *b = &g->batch[g->batch_rank++];
        b->n = x->shape[d];
        b->is = x->strides[d];
        b->os = out->strides[d];
    }
}

/* Scale every element of contiguous [out] by [s]. */
static void scale_out(nn_tensor *out, double s) {
    if (s == 1.0) return;
    int64_t n = nn_tensor_numel(out) * (nn_dtype_is_complex(out->dtype) ? 2 : 1);
    if (nn_dtype_to_real(out->dtype) == NN_FLOAT32) {
        float *p = nn_tensor_data(out), fs = (float)s;
        for (int64_t i = 0; i < n; i++) p[i] *= fs;
    } else {
        double *p = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) p[i] *= s;
    }
}

static double norm_scale(int mode, const int64_t *n, int n_dims) {
    double total = 1;
    for (int k = 0; k < n_dims; k++) total *= (double)n[k];
    if (mode == 1) return 1.0 / sqrt(total);
    if (mode == 2) return 1.0 / total;
    return 1.0;
}

enum { KIND_C2C, KIND_R2C, KIND_C2R };

/* Plan, run and destroy one FFTW transform from [x] into [out]. */
static nn_status fft_run(nn_ctx *ctx, int kind, bool forward, nn_tensor *x, nn_tensor *out,
                         const int64_t *dims, int n_dims, const int64_t *n) {
    if (nn_tensor_numel(out) == 0) return NN_OK;
    fft_geo g;
    fft_geo_init(&g, x, out, dims, n_dims, n);
    /* FFTW_ESTIMATE does not touch the arrays while planning; c2r may
     * overwrite its input, which is then a private copy. */
    unsigned flags = FFTW_ESTIMATE | (kind == KIND_C2R ? FFTW_DESTROY_INPUT : 0);
    int sign = forward ? FFTW_FORWARD : FFTW_BACKWARD;
    bool ok;
    if (nn_dtype_to_real(out->dtype) == NN_FLOAT64) {
        fftw_plan p;
        void *src = nn_tensor_data(x), *dst = nn_tensor_data(out);
        if (kind == KIND_C2C)
            p = fftw_plan_guru64_dft(g.rank, g.dims, g.batch_rank, g.batch, src, dst, sign, flags);
        else if (kind == KIND_R2C)
            p = fftw_plan_guru64_dft_r2c(g.rank, g.dims, g.batch_rank, g.batch, src, dst, flags);
        else
            p = fftw_plan_guru64_dft_c2r(g.rank, g.dims, g.batch_rank, g.batch, src, dst, flags);
        ok = p != NULL;
        if (ok) {
            fftw_execute(p);
            fftw_destroy_plan(p);
        }
    } else {
        fftwf_plan p;
        fftwf_iodim64 *fd = (fftwf_iodim64 *)g.dims, *fb = (fftwf_iodim64 *)g.batch;
        void *src = nn_tensor_data(x), *dst = nn_tensor_data(out);
        if (kind == KIND_C2C)
            p = fftwf_plan_guru64_dft(g.rank, fd, g.batch_rank, fb, src, dst, sign, flags);
        else if (kind == KIND_R2C)
            p = fftwf_plan_guru64_dft_r2c(g.rank, fd, g.batch_rank, fb, src, dst, flags);
        else
            p = fftwf_plan_guru64_dft_c2r(g.rank, fd, g.batch_rank, fb, src, dst, flags);
        ok = p != NULL;
        if (ok) {
            fftwf_execute(p);
            fftwf_destroy_plan(p);
        }
    }
    if (!ok) return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "FFTW could not plan this transform");
    return NN_OK;
}

/* The transformed dims of [node] as wrapped, distinct indices of [x]. */
static nn_status fft_dims(nn_ctx *ctx, const nn_node *node, const nn_tensor *x, int64_t *dims) {
    bool seen[NN_MAX_DIMS] = {false};
    if (node->p.n_dims < 1)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the FFT needs at least one dim");
    for (int k = 0; k < node->p.n_dims; k++) {
        int d;
        if (nn_dim_wrap(ctx, node->p.dims[k], x->ndim, &d)) return ctx->err.code;
        if (seen[d]) return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "FFT dims must be unique");
        seen[d] = true;
        dims[k] = d;
    }
    return NN_OK;
}

nn_tensor *op_fft_c2c_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    int64_t dims[NN_MAX_DIMS], n[NN_MAX_DIMS];
    if (!nn_dtype_is_complex(x->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "_fft_c2c expects a complex input tensor");
        return NULL;
    }
    if (fft_dims(ctx, node, x, dims)) return NULL;
    int nd = node->p.n_dims;
    for (int k = 0; k < nd; k++) n[k] = x->shape[dims[k]];
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!out) return NULL;
    if (fft_run(ctx, KIND_C2C, node->p.flags != 0, x, out, dims, nd, n)) {
        nn_tensor_release(out);
        return NULL;
    }
    scale_out(out, norm_scale((int)node->p.i[0], n, nd));
    return out;
}

nn_status op_fft_c2c_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    din[0] = nn_fft_c2c(ctx, dout, node->p.dims, node->p.n_dims, (int)node->p.i[0], !node->p.flags);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *op_fft_r2c_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    int64_t dims[NN_MAX_DIMS], n[NN_MAX_DIMS], shape[NN_MAX_DIMS];
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "_fft_r2c expects a floating point input tensor");
        return NULL;
    }
    if (fft_dims(ctx, node, x, dims)) return NULL;
    int nd = node->p.n_dims, last = (int)dims[nd - 1];
    for (int k = 0; k < nd; k++) n[k] = x->shape[dims[k]];
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[last] = x->shape[last] / 2 + 1;
    nn_tensor *half = nn_tensor_empty(ctx, nn_dtype_to_complex(x->dtype), x->ndim, shape);
    if (!half) return NULL;
    if (fft_run(ctx, KIND_R2C, true, x, half, dims, nd, n)) {
        nn_tensor_release(half);
        return NULL;
    }
    scale_out(half, norm_scale((int)node->p.i[0], n, nd));
    if (!node->p.flags) return half; /* onesided */
    /* Two-sided: the other half by conjugate symmetry, X[k] = conj(X[-k])
     * with every transformed index mirrored. */
    nn_tensor *out = nn_tensor_empty(ctx, half->dtype, x->ndim, x->shape);
    if (!out) {
        nn_tensor_release(half);
        return NULL;
    }
    int64_t total = nn_tensor_numel(out);
    bool f32 = out->dtype == NN_COMPLEX64;
    int64_t idx[NN_MAX_DIMS] = {0};
    bool is_fft[NN_MAX_DIMS] = {false};
    for (int k = 0; k < nd; k++) is_fft[dims[k]] = true;
    for (int64_t i = 0; i < total; i++) {
        /* source index in the half spectrum */
        bool mirror = idx[last] >= shape[last];
        int64_t off = 0;
        for (int d = 0; d < x->ndim; d++) {
            int64_t j = idx[d];
            if (mirror && is_fft[d]) j = (x->shape[d] - j) % x->shape[d];
            off += j * half->strides[d];
        }
        if (f32) {
            float *s = (float *)nn_tensor_data(half) + 2 * off,
                  *o = (float *)nn_tensor_data(out) + 2 * i;
            o[0] = s[0];
            o[1] = mirror ? -s[1] : s[1];
        } else {
            double *s = (double *)nn_tensor_data(half) + 2 * off,
                   *o = (double *)nn_tensor_data(out) + 2 * i;
            o[0] = s[0];
            o[1] = mirror ? -s[1] : s[1];
        }
        for (int d = x->ndim - 1; d >= 0; d--) {
            if (++idx[d] < x->shape[d]) break;
            idx[d] = 0;
        }
    }
    nn_tensor_release(half);
    return out;
}

nn_status op_fft_r2c_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *x = in0(node);
    int64_t dims[NN_MAX_DIMS];
    if (fft_dims(ctx, node, x, dims)) return ctx->err.code;
    int last = (int)dims[node->p.n_dims - 1];
    nn_tensor *full = NULL;
    if (node->p.flags || dout->shape[last] == x->shape[last]) {
        full = nn_tensor_retain(dout);
    } else { /* onesided: pad the gradient with zeros to the full length */
        full = nn_zeros(ctx, dout->dtype, x->ndim, x->shape);
        nn_tensor *part = full ? nn_slice(ctx, full, last, 0, dout->shape[last], 1) : NULL;
        nn_status st = part ? nn_tensor_copy_(ctx, part, dout) : ctx->err.code;
        nn_tensor_release(part);
        if (st) {
            nn_tensor_release(full);
            return st;
        }
    }
    nn_tensor *c = nn_fft_c2c(ctx, full, node->p.dims, node->p.n_dims, (int)node->p.i[0], false);
    nn_tensor_release(full);
    if (!c) return ctx->err.code;
    /* the real part (the input is real) */
    din[0] = nn_tensor_cast_raw(ctx, c, x->dtype);
    nn_tensor_release(c);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *op_fft_c2r_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    int64_t dims[NN_MAX_DIMS], n[NN_MAX_DIMS], shape[NN_MAX_DIMS];
    if (!nn_dtype_is_complex(x->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "_fft_c2r expects a complex input tensor");
        return NULL;
    }
    if (fft_dims(ctx, node, x, dims)) return NULL;
    int nd = node->p.n_dims, last = (int)dims[nd - 1];
    int64_t last_size = node->p.i[1];
    if (last_size < 1 || x->shape[last] < last_size / 2 + 1) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "Invalid number of data points (%lld) specified",
                     (long long)last_size);
        return NULL;
    }
    for (int k = 0; k < nd; k++) n[k] = x->shape[dims[k]];
    n[nd - 1] = last_size;
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    shape[last] = last_size;
    /* a private contiguous copy of the half spectrum FFTW reads (and may overwrite) */
    nn_tensor *in = nn_slice(ctx, x, last, 0, last_size / 2 + 1, 1);
    nn_tensor *copy = in ? nn_tensor_empty(ctx, x->dtype, in->ndim, in->shape) : NULL;
    if (copy && nn_tensor_copy_(ctx, copy, in)) nn_tensor_release(copy), copy = NULL;
    nn_tensor_release(in);
    nn_tensor *out = copy ? nn_tensor_empty(ctx, nn_dtype_to_real(x->dtype), x->ndim, shape) : NULL;
    if (out && fft_run(ctx, KIND_C2R, false, copy, out, dims, nd, n)) {
        nn_tensor_release(out);
        out = NULL;
    }
    nn_tensor_release(copy);
    if (out) scale_out(out, norm_scale((int)node->p.i[0], n, nd));
    return out;
}

nn_status op_fft_c2r_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *x = in0(node);
    int64_t dims[NN_MAX_DIMS];
    if (fft_dims(ctx, node, x, dims)) return ctx->err.code;
    int last = (int)dims[node->p.n_dims - 1];
    nn_tensor *g = nn_fft_r2c(ctx, dout, node->p.dims, node->p.n_dims, (int)node->p.i[0], false);
    if (!g) return ctx->err.code;
    /* entries whose mirror lies outside the half spectrum count twice */
    int64_t dbl = dout->shape[last] - g->shape[last];
    if (dbl > 0) {
        nn_tensor *part = nn_slice(ctx, g, last, 1, 1 + dbl, 1);
        nn_tensor *twice = part ? nn_mul_scalar(ctx, part, 2.0) : NULL;
        nn_status st = twice ? nn_tensor_copy_(ctx, part, twice) : ctx->err.code;
        nn_tensor_release(part);
        nn_tensor_release(twice);
        if (st) {
            nn_tensor_release(g);
            return st;
        }
    }
    /* the forward read only the first last_dim_size/2+1 entries of its input */
    if (g->shape[last] != x->shape[last]) {
        nn_tensor *full = nn_zeros(ctx, g->dtype, x->ndim, x->shape);
        nn_tensor *part = full ? nn_slice(ctx, full, last, 0, g->shape[last], 1) : NULL;
        nn_status st = part ? nn_tensor_copy_(ctx, part, g) : ctx->err.code;
        nn_tensor_release(part);
        nn_tensor_release(g);
        if (st) {
            nn_tensor_release(full);
            return st;
        }
        g = full;
    }
    din[0] = g;
    return NN_OK;
}

/* ---- public ops ---- */

static nn_tensor *call1(nn_ctx *ctx, nn_op op, nn_tensor *a, const nn_params *p) {
    nn_tensor *in[1] = {a};
    return nn_exec(ctx, op, in, 1, p);
}

nn_tensor *nn_view_as_real(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_VIEW_AS_REAL, a, NULL);
}

nn_tensor *nn_view_as_complex(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_VIEW_AS_COMPLEX, a, NULL);
}

nn_tensor *nn_conj(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_CONJ, a, NULL);
}

static nn_tensor *fft_call(nn_ctx *ctx, nn_op op, nn_tensor *a, const int64_t *dims, int n_dims,
                           int norm, int flags, int64_t last_size) {
    nn_params p;
    memset(&p, 0, sizeof p);
    if (n_dims < 1 || n_dims > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the FFT needs 1 to %d dims, got %d", NN_MAX_DIMS,
                     n_dims);
        return NULL;
    }
    memcpy(p.dims, dims, sizeof(int64_t) * (size_t)n_dims);
    p.n_dims = n_dims;
    p.i[0] = norm;
    p.i[1] = last_size;
    p.flags = flags;
    return call1(ctx, op, a, &p);
}

nn_tensor *nn_fft_c2c(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      bool forward) {
    return fft_call(ctx, NN_OP_FFT_C2C, a, dims, n_dims, norm, forward, 0);
}

nn_tensor *nn_fft_r2c(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      bool twosided) {
    return fft_call(ctx, NN_OP_FFT_R2C, a, dims, n_dims, norm, twosided, 0);
}

nn_tensor *nn_fft_c2r(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int norm,
                      int64_t last_dim_size) {
    return fft_call(ctx, NN_OP_FFT_C2R, a, dims, n_dims, norm, 0, last_dim_size);
}
