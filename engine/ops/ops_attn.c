/* ops_attn: multi-head self-attention over a packed projection, one node:
 * the core of nn.MultiheadAttention when query, key and value are the same
 * tensor (every TransformerEncoderLayer and the decoder's self-attention).
 *
 * Input qkv [A, B, 3E] is the in_proj's output, q | k | v along the last
 * dim; (A, B) is (L, N) when seq_first, else (N, L). Each of the H heads
 * has hd = E / H features. Optional inputs: mask [Bm, Lm, L], added to the
 * scores (Bm is 1 or N*H, Lm is 1 or L), and drop [N*H, L, L], the dropout
 * multipliers (0 or 1/(1-p), drawn by the caller from torch's stream). The
 * output [A, B, E] holds the heads side by side, in the input's layout: it
 * is the out_proj's input, so no head is ever copied out or back.
 *
 * Per block b = n*H + h, as PyTorch 1.13's multi_head_attention_forward
 * computes it (so each step rounds as there):
 *   Qs = Q / sqrt(hd);  S = Qs K^T (+ mask);  P = softmax(S) by rows;
 *   Pd = P * drop;  O = Pd V.
 * Backward, with dO the output's gradient:
 *   dV = Pd^T dO;  dP = (dO V^T) * drop;  dS = P (dP - rowsum(dP P));
 *   dQ = (dS K) / sqrt(hd);  dK = dS^T Qs;  dmask = dS (summed over its
 *   broadcast dims by the engine).
 * P [N*H, L, L] is saved for a recorded node; Q, K, V are read from qkv
 * in place (the gemms take their row strides), and dq, dk, dv are written
 * into one [A, B, 3E] gradient, so the split of the projection costs
 * nothing either way. */
#include <math.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_ops_impl.h"
#include "ops_rows.h"

enum { MHA_SEQ_FIRST = 1, MHA_MASK = 2, MHA_DROP = 4 };

typedef struct mha_geom {
    int64_t n, l, e, heads, hd;
    int64_t s_n, s_l; /* element strides of qkv (and its gradient): batch, position */
    int64_t o_n, o_l; /* the same for the output [A, B, E] */
    int64_t m_b, m_l; /* mask strides of a block and of a row (0 when broadcast) */
} mha_geom;

/* Sets the error for [t] and returns false. */
static bool mha_fail(nn_ctx *ctx, nn_status code, const char *msg, const nn_tensor *t) {
    char s[128];
    nn_tensor_shape_str(t, s, sizeof s);
    nn_error_set(&ctx->err, code, "multi_head_self_attention: %s; got %s %s", msg, s,
                 nn_dtype_name(t->dtype));
    return false;
}

static bool mha_check(nn_ctx *ctx, const nn_node *node, mha_geom *g) {
    const nn_tensor *qkv = node->in[0].t;
    int heads = (int)node->p.i[0], k = 1;
    if (qkv->ndim != 3 || qkv->shape[2] % 3 != 0)
        return mha_fail(ctx, NN_ERR_SHAPE, "qkv must be [A, B, 3E]", qkv);
    if (qkv->dtype != NN_FLOAT32 && qkv->dtype != NN_FLOAT64)
        return mha_fail(ctx, NN_ERR_TYPE, "qkv must be float32 or float64", qkv);
    bool seq_first = node->p.flags & MHA_SEQ_FIRST;
    g->l = qkv->shape[seq_first ? 0 : 1];
    g->n = qkv->shape[seq_first ? 1 : 0];
    g->e = qkv->shape[2] / 3;
    g->heads = heads;
    if (heads <= 0 || g->e % heads != 0)
        return mha_fail(ctx, NN_ERR_VALUE, "E must be a multiple of num_heads", qkv);
    g->hd = g->e / heads;
    int64_t row3 = 3 * g->e;
    g->s_l = seq_first ? g->n * row3 : row3;
    g->s_n = seq_first ? row3 : g->l * row3;
    g->o_l = seq_first ? g->n * g->e : g->e;
    g->o_n = seq_first ? g->e : g->l * g->e;
    g->m_b = g->m_l = 0;
    if (node->p.flags & MHA_MASK) {
        const nn_tensor *m = node->in[k++].t;
        int64_t nh = g->n * heads;
        if (m->ndim != 3 || (m->shape[0] != 1 && m->shape[0] != nh) ||
            (m->shape[1] != 1 && m->shape[1] != g->l) || m->shape[2] != g->l)
            return mha_fail(ctx, NN_ERR_SHAPE, "the mask must be [1 or N*H, 1 or L, L]", m);
        if (m->dtype != qkv->dtype)
            return mha_fail(ctx, NN_ERR_TYPE, "the mask must have qkv's dtype", m);
        g->m_l = m->shape[1] == 1 ? 0 : g->l;
        g->m_b = m->shape[0] == 1 ? 0 : m->shape[1] * g->l;
    }
    if (node->p.flags & MHA_DROP) {
        const nn_tensor *d = node->in[k].t;
        if (d->ndim != 3 || d->shape[0] != g->n * heads || d->shape[1] != g->l ||
            d->shape[2] != g->l || d->dtype != qkv->dtype)
            return mha_fail(ctx, NN_ERR_SHAPE, "the dropout multipliers must be [N*H, L, L]", d);
    }
    if (g->l > INT32_MAX / 4 || row3 * g->n > INT32_MAX)
        return mha_fail(ctx, NN_ERR_VALUE, "the sequence is too long for one gemm", qkv);
    return true;
}

static void mha_gemm(bool f64, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
                     int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc) {
    enum CBLAS_TRANSPOSE t_a = ta ? CblasTrans : CblasNoTrans, t_b = tb ? CblasTrans : CblasNoTrans;
    if (f64)
        nn_blas_dgemm(CblasRowMajor, t_a, t_b, (int)m, (int)n, (int)k, 1.0, a, (int)lda, b,
                      (int)ldb, 0.0, c, (int)ldc);
    else
        nn_blas_sgemm(CblasRowMajor, t_a, t_b, (int)m, (int)n, (int)k, 1.0f, a, (int)lda, b,
                      (int)ldb, 0.0f, c, (int)ldc);
}

/* ---- the element loops, once per float type ---- */

#define MHA_LOOPS(T, SFX)                                                                          \
    /* qs [L, hd] = q / div, q read with row stride [sl] */                                        \
    static void mha_scale_q_##SFX(const T *q, int64_t sl, T *qs, int64_t l, int64_t hd, T div) {   \
        for (int64_t i = 0; i < l; i++)                                                            \
            for (int64_t j = 0; j < hd; j++) qs[i * hd + j] = q[i * sl + j] / div;                 \
    }                                                                                              \
    /* dq (row stride [sl]) = dqs [L, hd] / div */                                                 \
    static void mha_unscale_q_##SFX(const T *dqs, T *dq, int64_t sl, int64_t l, int64_t hd,        \
                                    T div) {                                                       \
        for (int64_t i = 0; i < l; i++)                                                            \
            for (int64_t j = 0; j < hd; j++) dq[i * sl + j] = dqs[i * hd + j] / div;               \
    }                                                                                              \
    /* s [L, L] += mask rows (row stride [ml], 0 when one row serves all) */                       \
    static void mha_add_mask_##SFX(T *s, const T *m, int64_t ml, int64_t l) {                      \
        for (int64_t i = 0; i < l; i++)                                                            \
            for (int64_t j = 0; j < l; j++) s[i * l + j] += m[i * ml + j];                         \
    }                                                                                              \
    static void mha_mul_##SFX(T *o, const T *a, const T *b, int64_t n) {                           \
        for (int64_t i = 0; i < n; i++) o[i] = a[i] * b[i];                                        \
    }

MHA_LOOPS(float, f32)
MHA_LOOPS(double, f64)

/* Softmax of each row of s [L, L] in place; a row of -inf comes out NaN
 * (exp(-inf - -inf)), as in PyTorch. */
static void mha_softmax(bool f64, void *s, int64_t l) {
    if (!f64) {
        nn_rows_softmax_f32(s, s, l, l, false);
        return;
    }
    double *x = s;
    for (int64_t i = 0; i < l; i++) {
        double *r = x + i * l, m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < l; j++)
            if (r[j] > m || isnan(r[j])) m = r[j];
        for (int64_t j = 0; j < l; j++) sum += (r[j] = exp(r[j] - m));
        for (int64_t j = 0; j < l; j++) r[j] /= sum;
    }
}

/* dp [L, L] = p (dp - rowsum(dp p)) in place. */
static void mha_softmax_grad(bool f64, const void *p, void *dp, int64_t l) {
    if (!f64) {
        nn_rows_softmax_grad_f32(dp, p, dp, l, l, false);
        return;
    }
    const double *y = p;
    double *g = dp;
    for (int64_t i = 0; i < l; i++) {
        double s = 0;
        for (int64_t j = 0; j < l; j++) s += g[i * l + j] * y[i * l + j];
        for (int64_t j = 0; j < l; j++) g[i * l + j] = y[i * l + j] * (g[i * l + j] - s);
    }
}

static const nn_tensor *mha_mask(const nn_node *node) {
    return node->p.flags & MHA_MASK ? node->in[1].t : NULL;
}
static const nn_tensor *mha_drop(const nn_node *node) {
    return node->p.flags & MHA_DROP ? node->in[node->p.flags & MHA_MASK ? 2 : 1].t : NULL;
}

nn_tensor *op_mha_self_forward(nn_ctx *ctx, nn_node *node) {
    mha_geom g;
    if (!mha_check(ctx, node, &g) || nn_blas_require(ctx)) return NULL;
    nn_dtype dt = node->in[0].t->dtype;
    bool f64 = dt == NN_FLOAT64;
    size_t es = nn_dtype_size(dt);
    int64_t ll = g.l * g.l, nh = g.n * g.heads;
    const nn_tensor *qkv_in = node->in[0].t;
    int64_t oshape[3] = {qkv_in->shape[0], qkv_in->shape[1], g.e};
    int64_t pshape[3] = {nh, g.l, g.l}, sshape[1] = {2 * ll + g.l * g.hd};
    nn_tensor *qkv = nn_tensor_contiguous_raw(ctx, node->in[0].t);
    nn_tensor *mask = NULL, *drop = NULL, *p = NULL, *scratch = NULL, *o = NULL;
    if (qkv && mha_mask(node) &&
        !(mask = nn_tensor_contiguous_raw(ctx, (nn_tensor *)mha_mask(node))))
        goto done;
    if (qkv && mha_drop(node) &&
        !(drop = nn_tensor_contiguous_raw(ctx, (nn_tensor *)mha_drop(node))))
        goto done;
    if (!qkv || (node->recorded && !(p = nn_tensor_empty(ctx, dt, 3, pshape))) ||
        !(scratch = nn_tensor_empty(ctx, dt, 1, sshape)) ||
        !(o = nn_tensor_empty(ctx, dt, 3, oshape)))
        goto done;
    const char *qp = nn_tensor_data(qkv), *mp = mask ? nn_tensor_data(mask) : NULL;
    const char *dp = drop ? nn_tensor_data(drop) : NULL;
    char *sp = nn_tensor_data(scratch), *op = nn_tensor_data(o);
    char *pd = sp + (size_t)ll * es, *qs = pd + (size_t)ll * es;
    double div = sqrt((double)g.hd);
    for (int64_t b = 0; b < nh; b++) {
        int64_t n = b / g.heads, h = b % g.heads;
        const char *qb = qp + (size_t)(n * g.s_n + h * g.hd) * es;
        const char *kb = qb + (size_t)g.e * es, *vb = qb + (size_t)(2 * g.e) * es;
        char *pb = p ? (char *)nn_tensor_data(p) + (size_t)(b * ll) * es : sp;
        if (f64)
            mha_scale_q_f64((const double *)qb, g.s_l, (double *)qs, g.l, g.hd, div);
        else
            mha_scale_q_f32((const float *)qb, g.s_l, (float *)qs, g.l, g.hd, (float)div);
        mha_gemm(f64, false, true, g.l, g.l, g.hd, qs, g.hd, kb, g.s_l, pb, g.l);
        if (mp) {
            const char *mb = mp + (size_t)(b * g.m_b) * es;
            if (f64)
                mha_add_mask_f64((double *)pb, (const double *)mb, g.m_l, g.l);
            else
                mha_add_mask_f32((float *)pb, (const float *)mb, g.m_l, g.l);
        }
        mha_softmax(f64, pb, g.l);
        const char *use = pb;
        if (dp) {
            const char *db = dp + (size_t)(b * ll) * es;
            if (f64)
                mha_mul_f64((double *)pd, (const double *)pb, (const double *)db, ll);
            else
                mha_mul_f32((float *)pd, (const float *)pb, (const float *)db, ll);
            use = pd;
        }
        mha_gemm(f64, false, false, g.l, g.hd, g.l, use, g.l, vb, g.s_l,
                 op + (size_t)(n * g.o_n + h * g.hd) * es, g.o_l);
    }
    if (p) node->saved[0] = nn_tensor_retain(p);
done:
    nn_tensor_release(qkv);
    nn_tensor_release(mask);
    nn_tensor_release(drop);
    nn_tensor_release(p);
    nn_tensor_release(scratch);
    return o;
}

nn_status op_mha_self_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int mi = node->p.flags & MHA_MASK ? 1 : -1;
    bool wq = node->in[0].needs_grad, wm = mi > 0 && node->in[mi].needs_grad;
    if (!wq && !wm) return NN_OK;
    mha_geom g;
    if (!mha_check(ctx, node, &g) || nn_blas_require(ctx)) return ctx->err.code;
    nn_tensor *p = node->saved[0];
    NN_ASSERT(p != NULL);
    nn_dtype dt = p->dtype;
    bool f64 = dt == NN_FLOAT64;
    size_t es = nn_dtype_size(dt);
    int64_t ll = g.l * g.l, nh = g.n * g.heads;
    int64_t sshape[1] = {2 * ll + 2 * g.l * g.hd}, mshape[3] = {nh, g.l, g.l};
    nn_status st = NN_OK;
    nn_tensor *qkv = nn_tensor_contiguous_raw(ctx, node->in[0].t);
    nn_tensor *go = qkv ? nn_contiguous_as(ctx, dout, dt) : NULL;
    nn_tensor *drop = NULL, *scratch = NULL, *dqkv = NULL, *dmask = NULL;
    if (go && mha_drop(node) &&
        !(drop = nn_tensor_contiguous_raw(ctx, (nn_tensor *)mha_drop(node))))
        goto fail;
    if (!go || !(scratch = nn_tensor_empty(ctx, dt, 1, sshape)) ||
        (wq && !(dqkv = nn_tensor_empty(ctx, dt, 3, qkv->shape))) ||
        (wm && !(dmask = nn_tensor_empty(ctx, dt, 3, mshape))))
        goto fail;
    const char *qp = nn_tensor_data(qkv), *gp = nn_tensor_data(go);
    const char *dr = drop ? nn_tensor_data(drop) : NULL;
    char *sp = nn_tensor_data(scratch), *dqp = dqkv ? nn_tensor_data(dqkv) : NULL;
    char *pd = sp, *dp = pd + (size_t)ll * es, *qs = dp + (size_t)ll * es;
    char *dqs = qs + (size_t)(g.l * g.hd) * es;
    double div = sqrt((double)g.hd);
    for (int64_t b = 0; b < nh; b++) {
        int64_t n = b / g.heads, h = b % g.heads;
        size_t off = (size_t)(n * g.s_n + h * g.hd) * es, ke = (size_t)g.e * es;
        const char *qb = qp + off, *kb = qb + ke, *vb = kb + ke;
        const char *pb = (const char *)nn_tensor_data(p) + (size_t)(b * ll) * es;
        const char *ob = gp + (size_t)(n * g.o_n + h * g.hd) * es;
        const char *db = dr ? dr + (size_t)(b * ll) * es : NULL;
        const char *use = pb;
        if (db) {
            if (f64)
                mha_mul_f64((double *)pd, (const double *)pb, (const double *)db, ll);
            else
                mha_mul_f32((float *)pd, (const float *)pb, (const float *)db, ll);
            use = pd;
        }
        if (dqp) /* dV = Pd^T dO */
            mha_gemm(f64, true, false, g.l, g.hd, g.l, use, g.l, ob, g.o_l, dqp + off + 2 * ke,
                     g.s_l);
        mha_gemm(f64, false, true, g.l, g.l, g.hd, ob, g.o_l, vb, g.s_l, dp, g.l);
        if (db) {
            if (f64)
                mha_mul_f64((double *)dp, (const double *)dp, (const double *)db, ll);
            else
                mha_mul_f32((float *)dp, (const float *)dp, (const float *)db, ll);
        }
        mha_softmax_grad(f64, pb, dp, g.l);
        if (dmask) memcpy((char *)nn_tensor_data(dmask) + (size_t)(b * ll) * es, dp, ll * es);
        if (!dqp) continue;
        if (f64)
            mha_scale_q_f64((const double *)qb, g.s_l, (double *)qs, g.l, g.hd, div);
        else
            mha_scale_q_f32((const float *)qb, g.s_l, (float *)qs, g.l, g.hd, (float)div);
        mha_gemm(f64, false, false, g.l, g.hd, g.l, dp, g.l, kb, g.s_l, dqs, g.hd);
        if (f64)
            mha_unscale_q_f64((const double *)dqs, (double *)(dqp + off), g.s_l, g.l, g.hd, div);
        else
            mha_unscale_q_f32((const float *)dqs, (float *)(dqp + off), g.s_l, g.l, g.hd,
                              (float)div);
        mha_gemm(f64, true, false, g.l, g.hd, g.l, dp, g.l, qs, g.hd, dqp + off + ke, g.s_l);
    }
    din[0] = dqkv;
    if (mi > 0) din[mi] = dmask;
    dqkv = dmask = NULL;
    goto done;
fail:
    st = ctx->err.code;
done:
    nn_tensor_release(qkv);
    nn_tensor_release(go);
    nn_tensor_release(drop);
    nn_tensor_release(scratch);
    nn_tensor_release(dqkv);
    nn_tensor_release(dmask);
    return st;
}

nn_tensor *nn_mha_self_attention(nn_ctx *ctx, nn_tensor *qkv, int64_t heads, bool seq_first,
                                 nn_tensor *mask, nn_tensor *drop) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = heads;
    p.flags = (seq_first ? MHA_SEQ_FIRST : 0) | (mask ? MHA_MASK : 0) | (drop ? MHA_DROP : 0);
    nn_tensor *in[3] = {qkv, NULL, NULL};
    int n = 1;
    if (mask) in[n++] = mask;
    if (drop) in[n++] = drop;
    return nn_exec(ctx, NN_OP_MHA_SELF, in, n, &p);
}

/* Per block, as the kernel computes it: 2 L L hd (scores) + L hd (the
 * scale) + L L (mask) + 5 L L (softmax) + L L (dropout) + 2 L L hd (times
 * v). */
bool nn_cost_attn(const nn_node *nd, const nn_tensor *out, nn_op_cost *c) {
    (void)out;
    if (nd->op != NN_OP_MHA_SELF) return false;
    const nn_tensor *x = nd->in[0].t;
    if (x->ndim != 3 || nd->p.i[0] <= 0) return true;
    double l = (double)x->shape[nd->p.flags & MHA_SEQ_FIRST ? 0 : 1];
    double n = (double)x->shape[nd->p.flags & MHA_SEQ_FIRST ? 1 : 0];
    double e = (double)x->shape[2] / 3, heads = (double)nd->p.i[0], hd = e / heads;
    double per = 4 * l * l * hd + l * hd + 5 * l * l;
    if (nd->p.flags & MHA_MASK) per += l * l;
    if (nd->p.flags & MHA_DROP) per += l * l;
    c->flops = n * heads * per;
    return true;
}
