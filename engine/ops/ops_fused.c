/* The pointwise ops PyTorch computes with one rounding where the formula
 * has two: add and sub with alpha (fma(b, alpha, a)), addcmul
 * (fma(value t1, t2, s)), lerp (fma(w, e - s, s) for |w| < 0.5, else
 * fma(-(e - s), 1 - w, e)), and addcdiv (s + (value t1) / t2, whose
 * division cannot fuse). PyTorch's AVX2 kernels are compiled with
 * multiply-add contraction, so these are its bits; nndb's plain ops round
 * every step (ISO C), so these ops are one node each (NN_OP_FUSED, the kind
 * in p.i[0], the scalar in p.f[0]). Float inputs only: the bindings compose
 * integer cases from the plain ops. Backwards are PyTorch's formulas
 * (derivatives.yaml) written with the public ops. */
#include <math.h>
#include <string.h>

#include "nn_ops_impl.h"

enum { F_ADD_ALPHA, F_ADDCMUL, F_ADDCDIV, F_LERP };

typedef struct fused_arg {
    int kind;
    double v;
} fused_arg;

/* One loop per kind and type, compiled per ISA level (NN_KERNEL_CLONES):
 * without FMA in the target, fmaf is a call into libm per element (38x
 * slower than PyTorch's addcmul on [512, 4096]); on x86-64-v3/v4 it is an
 * instruction and the dense loop vectorises. The bits are the same in
 * every clone (fma is exact; ISO C mode keeps the other steps unfused).
 * The row is dense (every operand a stride of one element, the common
 * case), or has a broadcast third operand (lerp's scalar weight, a
 * broadcast tensor), or is strided. */
#define FUSED_LOOP(NAME, T, HAS_C, EXPR)                                                           \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        const T v = (T)((const fused_arg *)argp)->v;                                               \
        (void)v;                                                                                   \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        T *restrict o = (T *)d[0];                                                                 \
        const T *restrict pa = (const T *)d[1], *restrict pb = (const T *)d[2];                    \
        const T *restrict pc = HAS_C ? (const T *)d[3] : NULL;                                     \
        if (s[0] == z && s[1] == z && s[2] == z && (!HAS_C || s[3] == z)) {                        \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = pa[i], b = pb[i], c = HAS_C ? pc[i] : 0;                                     \
                (void)c;                                                                           \
                o[i] = EXPR;                                                                       \
            }                                                                                      \
        } else if (HAS_C && s[0] == z && s[1] == z && s[2] == z && s[3] == 0) {                    \
            const T c = *pc;                                                                       \
            (void)c;                                                                               \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = pa[i], b = pb[i];                                                            \
                o[i] = EXPR;                                                                       \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = *(const T *)(d[1] + i * s[1]), b = *(const T *)(d[2] + i * s[2]);            \
                T c = HAS_C ? *(const T *)(d[3] + i * s[3]) : 0;                                   \
                (void)c;                                                                           \
                *(T *)(d[0] + i * s[0]) = EXPR;                                                    \
            }                                                                                      \
        }                                                                                          \
    }
/* lerp: both candidates are computed and one kept, so the loop has no
 * branch to stop it vectorising; |w| < 0.5 in float equals the test in
 * double (the conversion is exact) and a NaN weight takes the second. */
#define LERP(T, FMA, ABS) (ABS(c) < (T)0.5 ? FMA(c, b - a, a) : FMA(-(b - a), (T)1 - c, b))
FUSED_LOOP(add_alpha_f32, float, 0, fmaf(b, v, a))
FUSED_LOOP(add_alpha_f64, double, 0, fma(b, v, a))
FUSED_LOOP(addcmul_f32, float, 1, fmaf((v * b), c, a))
FUSED_LOOP(addcmul_f64, double, 1, fma((v * b), c, a))
FUSED_LOOP(addcdiv_f32, float, 1, a + v * b / c)
FUSED_LOOP(addcdiv_f64, double, 1, a + v * b / c)
FUSED_LOOP(lerp_f32, float, 1, LERP(float, fmaf, fabsf))
FUSED_LOOP(lerp_f64, double, 1, LERP(double, fma, fabs))

static const nn_iter_loop fused_loops[][2] = {
    [F_ADD_ALPHA] = {add_alpha_f32, add_alpha_f64},
    [F_ADDCMUL] = {addcmul_f32, addcmul_f64},
    [F_ADDCDIV] = {addcdiv_f32, addcdiv_f64},
    [F_LERP] = {lerp_f32, lerp_f64},
};

nn_tensor *op_fused_forward(nn_ctx *ctx, nn_node *node) {
    int n_in = node->n_in, nd = 0;
    int64_t shape[NN_MAX_DIMS];
    nn_dtype dt = node->in[0].t->dtype;
    for (int i = 0; i < n_in; i++) {
        nn_tensor *t = node->in[i].t;
        if (i == 0) {
            nd = t->ndim;
            memcpy(shape, t->shape, sizeof(int64_t) * (size_t)t->ndim);
        } else {
            int nd2;
            int64_t sh2[NN_MAX_DIMS];
            if (nn_broadcast_shapes(ctx, nd, shape, t->ndim, t->shape, &nd2, sh2)) return NULL;
            nd = nd2;
            memcpy(shape, sh2, sizeof shape);
            if (!(t->is_wrapped_number && nn_dtype_is_float(dt)))
                dt = nn_dtype_promote_types(dt, t->dtype);
        }
    }
    /* a wrapped scalar weight of lerp does not widen */
    if (!nn_dtype_is_float(dt)) dt = NN_FLOAT32;
    nn_tensor *c[3] = {NULL, NULL, NULL};
    nn_tensor *out = NULL;
    bool ok = true;
    for (int i = 0; i < n_in && ok; i++) ok = (c[i] = nn_tensor_cast_raw(ctx, node->in[i].t, dt));
    if (ok) out = nn_tensor_empty(ctx, dt, nd, shape);
    if (out) {
        fused_arg fa = {(int)node->p.i[0], node->p.f[0]};
        nn_iter it;
        nn_iter_init(&it, nd, shape);
        nn_iter_add(&it, out);
        for (int i = 0; i < n_in; i++) nn_iter_add(&it, c[i]);
        nn_iter_run_parallel(&it, fused_loops[fa.kind][dt == NN_FLOAT32 ? 0 : 1], &fa,
                             NN_PAR_MIN_ELEMWISE);
    }
    for (int i = 0; i < 3; i++) nn_tensor_release(c[i]);
    return out;
}

static nn_tensor *mul3(nn_ctx *ctx, nn_tensor *g, nn_tensor *a, double v) {
    nn_tensor *m = nn_mul_scalar(ctx, a, v);
    nn_tensor *r = m ? nn_mul(ctx, g, m) : NULL;
    nn_tensor_release(m);
    return r;
}

nn_status op_fused_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int kind = (int)node->p.i[0];
    double v = node->p.f[0];
    nn_tensor *a = node->in[0].t, *b = node->in[1].t, *c = node->n_in > 2 ? node->in[2].t : NULL;
    if (node->in[0].needs_grad) {
        if (kind == F_LERP) { /* g * (1 - w) */
            nn_tensor *one = nn_scalar_wrapped(ctx, 1.0);
            nn_tensor *w1 =
                one ? (c->is_wrapped_number ? nn_scalar_wrapped(ctx, 1.0 - nn_tensor_get_flat(c, 0))
                                            : nn_sub(ctx, one, c))
                    : NULL;
            din[0] = w1 ? nn_mul(ctx, dout, w1) : NULL;
            nn_tensor_release(one);
            nn_tensor_release(w1);
        } else {
            din[0] = nn_tensor_retain(dout);
        }
        if (!din[0]) return ctx->err.code;
    }
    if (node->in[1].needs_grad) {
        switch (kind) {
        case F_ADD_ALPHA: din[1] = nn_mul_scalar(ctx, dout, v); break;
        case F_ADDCMUL: din[1] = mul3(ctx, dout, c, v); break;
        case F_ADDCDIV: { /* g * (value / t2) */
            nn_tensor *val = nn_scalar_wrapped(ctx, v);
            nn_tensor *q = val ? nn_div(ctx, val, c) : NULL;
            din[1] = q ? nn_mul(ctx, dout, q) : NULL;
            nn_tensor_release(val);
            nn_tensor_release(q);
            break;
        }
        default: din[1] = nn_mul(ctx, dout, c); break; /* lerp: g * w */
        }
        if (!din[1]) return ctx->err.code;
    }
    if (c && node->in[2].needs_grad) {
        switch (kind) {
        case F_ADDCMUL: din[2] = mul3(ctx, dout, b, v); break;
        case F_ADDCDIV: { /* -g * ((value t1) / (t2 t2)) */
            nn_tensor *vt = nn_mul_scalar(ctx, b, v);
            nn_tensor *c2 = vt ? nn_mul(ctx, c, c) : NULL;
            nn_tensor *q = c2 ? nn_div(ctx, vt, c2) : NULL;
            nn_tensor *ng = q ? nn_neg(ctx, dout) : NULL;
            din[2] = ng ? nn_mul(ctx, ng, q) : NULL;
            nn_tensor *all[] = {vt, c2, q, ng};
            for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
            break;
        }
        default: { /* lerp: g * (end - self) */
            nn_tensor *d = nn_sub(ctx, b, a);
            din[2] = d ? nn_mul(ctx, dout, d) : NULL;
            nn_tensor_release(d);
        }
        }
        if (!din[2]) return ctx->err.code;
    }
    return NN_OK;
}

static nn_tensor *fused(nn_ctx *ctx, int kind, nn_tensor **in, int n, double v) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = kind;
    p.f[0] = v;
    return nn_exec(ctx, NN_OP_FUSED, in, n, &p);
}

nn_tensor *nn_add_alpha(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, double alpha) {
    nn_tensor *in[2] = {a, b};
    return fused(ctx, F_ADD_ALPHA, in, 2, alpha);
}

nn_tensor *nn_addcmul(nn_ctx *ctx, nn_tensor *s, nn_tensor *t1, nn_tensor *t2, double value) {
    nn_tensor *in[3] = {s, t1, t2};
    return fused(ctx, F_ADDCMUL, in, 3, value);
}

nn_tensor *nn_addcdiv(nn_ctx *ctx, nn_tensor *s, nn_tensor *t1, nn_tensor *t2, double value) {
    nn_tensor *in[3] = {s, t1, t2};
    return fused(ctx, F_ADDCDIV, in, 3, value);
}

nn_tensor *nn_lerp(nn_ctx *ctx, nn_tensor *s, nn_tensor *e, nn_tensor *w) {
    nn_tensor *in[3] = {s, e, w};
    return fused(ctx, F_LERP, in, 3, 0);
}

bool nn_cost_fused(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    if (n->op != NN_OP_FUSED) return false;
    c->flops = 2 * nn_cost_numel(out);
    return true;
}
