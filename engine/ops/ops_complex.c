/* ops_complex: the existing ops' complex paths. add, sub, mul, div and neg
 * promote both operands to the complex result dtype and run one loop per
 * element pair; sum and mean reduce the real view (the pair dim kept);
 * abs is the modulus. The ops' forwards in ops_elementwise.c and
 * ops_reduce.c hand complex operands here.
 *
 * Backwards follow PyTorch's convention for complex gradients (the
 * conjugate Wirtinger derivative): mul's input gets dout * conj(other),
 * div's dout / conj(b), abs's dout * sgn(z). A real input of a complex
 * result gets the real part (nn_backward's fit_grad casts it).
 */
#include <math.h>
#include <string.h>

#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_ops_impl.h"

bool nn_complex_involved(const nn_node *node) {
    for (int i = 0; i < node->n_in; i++)
        if (nn_dtype_is_complex(node->in[i].t->dtype)) return true;
    return false;
}

#define CBIN_LOOP(NAME, T, RE, IM)                                                                 \
    static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {                           \
        (void)arg;                                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T *a = (const T *)(d[1] + i * s[1]), *b = (const T *)(d[2] + i * s[2]);          \
            T *o = (T *)(d[0] + i * s[0]);                                                         \
            T ar = a[0], ai = a[1], br = b[0], bi = b[1];                                          \
            (void)ar, (void)ai, (void)br, (void)bi;                                                \
            T re = (RE), im = (IM);                                                                \
            o[0] = re;                                                                             \
            o[1] = im;                                                                             \
        }                                                                                          \
    }

CBIN_LOOP(cadd_f, float, ar + br, ai + bi)
CBIN_LOOP(cadd_d, double, ar + br, ai + bi)
CBIN_LOOP(csub_f, float, ar - br, ai - bi)
CBIN_LOOP(csub_d, double, ar - br, ai - bi)
CBIN_LOOP(cmul_f, float, ar *br - ai * bi, ar *bi + ai * br)
CBIN_LOOP(cmul_d, double, ar *br - ai * bi, ar *bi + ai * br)

/* Division as c10::complex does it (scaling by the larger of |br|, |bi|). */
#define CDIV_LOOP(NAME, T, ABS)                                                                    \
    static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {                           \
        (void)arg;                                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T *a = (const T *)(d[1] + i * s[1]), *b = (const T *)(d[2] + i * s[2]);          \
            T *o = (T *)(d[0] + i * s[0]);                                                         \
            T ar = a[0], ai = a[1], br = b[0], bi = b[1];                                          \
            T abs_c = ABS(br), abs_d = ABS(bi), re, im;                                            \
            if (abs_c >= abs_d) {                                                                  \
                if (abs_c == 0 &&                                                                  \
                    abs_d == 0) { /* divide by zeros should yield a complex inf or nan */          \
                    re = ar / abs_c;                                                               \
                    im = ai / abs_d;                                                               \
                } else {                                                                           \
                    T rat = bi / br, scl = (T)1.0 / (br + bi * rat);                               \
                    re = (ar + ai * rat) * scl;                                                    \
                    im = (ai - ar * rat) * scl;                                                    \
                }                                                                                  \
            } else {                                                                               \
                T rat = br / bi, scl = (T)1.0 / (bi + br * rat);                                   \
                re = (ar * rat + ai) * scl;                                                        \
                im = (ai * rat - ar) * scl;                                                        \
            }                                                                                      \
            o[0] = re;                                                                             \
            o[1] = im;                                                                             \
        }                                                                                          \
    }
CDIV_LOOP(cdiv_f, float, fabsf)
CDIV_LOOP(cdiv_d, double, fabs)

nn_tensor *nn_complex_binary(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, a->ndim, a->shape, b->ndim, b->shape, &nd, shape)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    bool f = dt == NN_COMPLEX64;
    nn_iter_loop loop;
    switch (node->op) {
    case NN_OP_ADD: loop = f ? cadd_f : cadd_d; break;
    case NN_OP_SUB: loop = f ? csub_f : csub_d; break;
    case NN_OP_MUL: loop = f ? cmul_f : cmul_d; break;
    default: loop = f ? cdiv_f : cdiv_d; break;
    }
    nn_tensor *ca = nn_tensor_cast_raw(ctx, a, dt),
              *cb = ca ? nn_tensor_cast_raw(ctx, b, dt) : NULL;
    nn_tensor *out = cb ? nn_tensor_empty(ctx, dt, nd, shape) : NULL;
    if (out) {
        nn_iter it;
        nn_iter_init(&it, nd, shape);
        nn_iter_add(&it, out);
        nn_iter_add(&it, ca);
        nn_iter_add(&it, cb);
        nn_iter_run(&it, loop, NULL);
    }
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

/* neg: both parts negated. */
nn_tensor *nn_complex_neg(nn_ctx *ctx, nn_tensor *x) {
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!out) return NULL;
    if (nn_tensor_copy_(ctx, out, x)) {
        nn_tensor_release(out);
        return NULL;
    }
    int64_t n = 2 * nn_tensor_numel(out);
    if (out->dtype == NN_COMPLEX64) {
        float *p = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) p[i] = -p[i];
    } else {
        double *p = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) p[i] = -p[i];
    }
    out->storage->version = 0;
    return out;
}

/* abs: the modulus, a real tensor (hypot, as std::abs of a complex). */
nn_tensor *nn_complex_abs(nn_ctx *ctx, nn_tensor *x) {
    nn_tensor *out = nn_tensor_empty(ctx, nn_dtype_to_real(x->dtype), x->ndim, x->shape);
    nn_tensor *c = out ? nn_tensor_contiguous_raw(ctx, x) : NULL;
    if (!c) {
        nn_tensor_release(out);
        return NULL;
    }
    int64_t n = nn_tensor_numel(out);
    if (out->dtype == NN_FLOAT32) {
        const float *p = nn_tensor_data(c);
        float *o = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) o[i] = hypotf(p[2 * i], p[2 * i + 1]);
    } else {
        const double *p = nn_tensor_data(c);
        double *o = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) o[i] = hypot(p[2 * i], p[2 * i + 1]);
    }
    nn_tensor_release(c);
    return out;
}

/* d|z| = dout * sgn(z), sgn(z) = z / |z| and 0 at 0 (PyTorch's abs_backward). */
nn_tensor *nn_complex_abs_grad(nn_ctx *ctx, nn_tensor *x, nn_tensor *dout) {
    nn_tensor *sg = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    nn_tensor *c = sg ? nn_tensor_contiguous_raw(ctx, x) : NULL;
    if (!c) {
        nn_tensor_release(sg);
        return NULL;
    }
    int64_t n = nn_tensor_numel(sg);
    if (sg->dtype == NN_COMPLEX64) {
        const float *p = nn_tensor_data(c);
        float *o = nn_tensor_data(sg);
        for (int64_t i = 0; i < n; i++) {
            float r = hypotf(p[2 * i], p[2 * i + 1]);
            o[2 * i] = r == 0 ? 0 : p[2 * i] / r;
            o[2 * i + 1] = r == 0 ? 0 : p[2 * i + 1] / r;
        }
    } else {
        const double *p = nn_tensor_data(c);
        double *o = nn_tensor_data(sg);
        for (int64_t i = 0; i < n; i++) {
            double r = hypot(p[2 * i], p[2 * i + 1]);
            o[2 * i] = r == 0 ? 0 : p[2 * i] / r;
            o[2 * i + 1] = r == 0 ? 0 : p[2 * i + 1] / r;
        }
    }
    nn_tensor_release(c);
    nn_tensor *g = nn_mul(ctx, dout, sg);
    nn_tensor_release(sg);
    return g;
}

/* sum and mean of complex [x]: the real view reduced over the same dims,
 * then seen as complex again. */
nn_tensor *nn_complex_reduce(nn_ctx *ctx, nn_node *node, bool mean) {
    nn_tensor *x = node->in[0].t;
    bool mask[NN_MAX_DIMS];
    if (nn_reduce_mask(ctx, x->ndim, node->p.dims, node->p.n_dims, mask)) return NULL;
    int64_t dims[NN_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < x->ndim; d++)
        if (mask[d]) dims[nd++] = d;
    nn_tensor *r = nn_complex_as_real_raw(ctx, x);
    if (!r) return NULL;
    nn_tensor *s;
    if (nd == 0) /* nothing to reduce (a 0-dim input): copied below */
        s = nn_tensor_retain(r);
    else
        s = mean ? nn_mean(ctx, r, dims, nd, node->p.keepdim)
                 : nn_sum(ctx, r, dims, nd, node->p.keepdim);
    nn_tensor_release(r);
    if (!s) return NULL;
    nn_tensor *c = nn_tensor_empty(ctx, nn_dtype_to_real(x->dtype), s->ndim, s->shape);
    if (c && nn_tensor_copy_(ctx, c, s)) nn_tensor_release(c), c = NULL;
    nn_tensor_release(s);
    if (!c) return NULL;
    nn_tensor *out = nn_real_as_complex_raw(ctx, c);
    nn_tensor_release(c);
    if (out) out->storage->version = 0;
    return out;
}

/* == and != : both parts equal (any part differs), over the real views of
 * both operands promoted to the complex result dtype. */
nn_tensor *nn_complex_compare(nn_ctx *ctx, nn_node *node, bool ne) {
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    nn_dtype dt = nn_dtype_promote(a, b);
    nn_tensor *ca = nn_tensor_cast_raw(ctx, a, dt),
              *cb = ca ? nn_tensor_cast_raw(ctx, b, dt) : NULL;
    nn_tensor *ra = cb ? nn_complex_as_real_raw(ctx, ca) : NULL;
    nn_tensor *rb = ra ? nn_complex_as_real_raw(ctx, cb) : NULL;
    nn_tensor *e = rb ? (ne ? nn_ne(ctx, ra, rb) : nn_eq(ctx, ra, rb)) : NULL;
    nn_tensor *re = e ? nn_select(ctx, e, -1, 0) : NULL, *im = re ? nn_select(ctx, e, -1, 1) : NULL;
    nn_tensor *out = im ? (ne ? nn_logical_or(ctx, re, im) : nn_logical_and(ctx, re, im)) : NULL;
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    nn_tensor_release(ra);
    nn_tensor_release(rb);
    nn_tensor_release(e);
    nn_tensor_release(re);
    nn_tensor_release(im);
    return out;
}
