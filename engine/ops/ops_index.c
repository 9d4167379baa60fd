/* Index ops: gather and scatter (with backwards), the sorting indices
 * (argsort, under sort and topk), and the counting ops with no gradient
 * (one_hot, nonzero, bincount, histc), plus the compositions on top of
 * them and of the shape ops (sort, topk, index_select, flip, repeat,
 * repeat_interleave), which autograd sees as the ops they are made of.
 *
 * The kernels copy their operands to contiguous layouts and walk the
 * index tensor's elements in row-major order. Messages follow torch's. */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"

static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    nn_error_setv(&ctx->err, code, fmt, ap);
    va_end(ap);
    return NULL;
}

nn_status nn_dim_wrap_torch(nn_ctx *ctx, int64_t dim, int ndim, int *out) {
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "Dimension out of range (expected to be in range of [%lld, %lld], but "
                            "got %lld)",
                            (long long)-n, (long long)(n - 1), (long long)dim);
    *out = (int)(dim < 0 ? dim + n : dim);
    return NN_OK;
}

static void contiguous_strides(int ndim, const int64_t *shape, int64_t *st) {
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        st[d] = s;
        s *= shape[d];
    }
}

static nn_params params_dim(int64_t dim) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = dim;
    return p;
}

/* ---- gather / scatter ----
 * gather: out[..., j, ...] = x[..., idx[..., j, ...], ...] along p.i[0].
 * scatter: out = copy of x, then out[..., idx[j], ...] = src[j] (p.flags 1:
 * += src[j]). */

static bool check_index(nn_ctx *ctx, const char *op, const nn_tensor *x, int dim,
                        const nn_tensor *idx, const nn_tensor *src) {
    if (idx->dtype != NN_INT64 && nn_tensor_numel(idx) > 0) {
        fail(ctx, NN_ERR_RUNTIME, "%s(): Expected dtype int64 for index", op);
        return false;
    }
    int xn = x->ndim ? x->ndim : 1, in = idx->ndim ? idx->ndim : 1;
    if (in != xn && nn_tensor_numel(idx) > 0) {
        fail(ctx, NN_ERR_RUNTIME,
             "Index tensor must have the same number of dimensions as %s tensor",
             src ? "self" : "input");
        return false;
    }
    for (int d = 0; d < idx->ndim && d < x->ndim; d++) {
        if (d != dim && idx->shape[d] > x->shape[d]) {
            char a[128], b[128];
            fail(ctx, NN_ERR_RUNTIME,
                 "Size does not match at dimension %d expected index %s to be smaller than self "
                 "%s apart from dimension %d",
                 d, nn_tensor_shape_str(idx, a, sizeof a), nn_tensor_shape_str(x, b, sizeof b),
                 dim);
            return false;
        }
        if (src && idx->shape[d] > (src->ndim ? src->shape[d] : 1)) {
            char a[128], b[128];
            fail(ctx, NN_ERR_RUNTIME,
                 "Size does not match at dimension %d expected index %s to be smaller than src "
                 "%s",
                 d, nn_tensor_shape_str(idx, a, sizeof a), nn_tensor_shape_str(src, b, sizeof b));
            return false;
        }
    }
    return true;
}

/* Walk idx's elements in row-major order, one row (idx's last dim) at a
 * time, and move one element per index: gather reads x's contiguous layout
 * at the indexed position into src's (the output's) layout at idx's
 * coordinates; scatter writes (or adds) the other way. The loops are typed
 * so that a 10^6-element scatter_add runs at memory speed. */
typedef struct walk_geo {
    int ndim, dim;
    int64_t shape[NN_MAX_DIMS];
    int64_t xst[NN_MAX_DIMS], sst[NN_MAX_DIMS];
    int64_t xsize; /* x.shape[dim] */
} walk_geo;

typedef struct move_arg {
    char *dst;
    const char *src;
    size_t es;
    nn_dtype dt;
    bool gather, add;
} move_arg;

/* One row: n indices iv, x offsets bx + k*xs_k + v*xs_v, src offsets
 * bs + k*ss. */
#define MOVE_ROW(T, BODY)                                                                          \
    do {                                                                                           \
        T *d_ = (T *)m->dst;                                                                       \
        const T *s_ = (const T *)m->src;                                                           \
        for (int64_t k = 0; k < n; k++) {                                                          \
            int64_t v = iv[k];                                                                     \
            int64_t xo = bx + k * xs_k + v * xs_v, so = bs + k * ss;                               \
            BODY;                                                                                  \
        }                                                                                          \
    } while (0)

static void move_block(const move_arg *m, const int64_t *iv, int64_t n, int64_t xsize, int64_t bx,
                       int64_t xs_k, int64_t xs_v, int64_t bs, int64_t ss) {
    if (m->gather || !m->add) {
        switch (m->es) {
        case 8:
            if (m->gather)
                MOVE_ROW(uint64_t, d_[so] = s_[xo]);
            else
                MOVE_ROW(uint64_t, d_[xo] = s_[so]);
            return;
        case 4:
            if (m->gather)
                MOVE_ROW(uint32_t, d_[so] = s_[xo]);
            else
                MOVE_ROW(uint32_t, d_[xo] = s_[so]);
            return;
        case 2:
            if (m->gather)
                MOVE_ROW(uint16_t, d_[so] = s_[xo]);
            else
                MOVE_ROW(uint16_t, d_[xo] = s_[so]);
            return;
        default:
            if (m->gather)
                MOVE_ROW(uint8_t, d_[so] = s_[xo]);
            else
                MOVE_ROW(uint8_t, d_[xo] = s_[so]);
            return;
        }
    }
    switch (m->dt) {
    case NN_FLOAT32: MOVE_ROW(float, d_[xo] += s_[so]); return;
    case NN_FLOAT64: MOVE_ROW(double, d_[xo] += s_[so]); return;
    case NN_INT64:
        MOVE_ROW(int64_t, d_[xo] = (int64_t)((uint64_t)d_[xo] + (uint64_t)s_[so]));
        return;
    case NN_INT32:
        MOVE_ROW(int32_t, d_[xo] = (int32_t)((uint32_t)d_[xo] + (uint32_t)s_[so]));
        return;
    case NN_INT16: MOVE_ROW(int16_t, d_[xo] = (int16_t)(d_[xo] + s_[so])); return;
    case NN_INT8: MOVE_ROW(int8_t, d_[xo] = (int8_t)(d_[xo] + s_[so])); return;
    case NN_UINT8: MOVE_ROW(uint8_t, d_[xo] = (uint8_t)(d_[xo] + s_[so])); return;
    default: MOVE_ROW(bool, d_[xo] = d_[xo] || s_[so]); return;
    }
}
#undef MOVE_ROW

/* Whether any of iv[0..n) lies outside [0, xsize): branch-free, so
 * that it vectorises (AVX2 compares 64-bit lanes). */
NN_KERNEL_CLONES static bool any_out_of_bounds(const int64_t *iv, int64_t n, int64_t xsize) {
    uint64_t bad = 0;
    for (int64_t k = 0; k < n; k++) bad |= (uint64_t)iv[k] >= (uint64_t)xsize;
    return bad != 0;
}

/* d[iv[k]] += s[k], the common 1-D scatter_add / index_add, in one pass:
 * the bounds check rides along (an index out of bounds adds into d[0] of
 * the fresh output, which the caller then drops), so idx is read once. */
static int64_t add_row_f32(float *d, const float *s, const int64_t *iv, int64_t n, int64_t xsize) {
    uint64_t bad = 0;
    int64_t k = 0;
    for (; k + 4 <= n; k += 4) {
        int64_t a[4];
        float v[4];
        for (int j = 0; j < 4; j++) {
            int64_t i = iv[k + j];
            uint64_t out = (uint64_t)i >= (uint64_t)xsize;
            bad |= out;
            a[j] = out ? 0 : i;
            v[j] = s[k + j];
        }
        for (int j = 0; j < 4; j++) d[a[j]] += v[j];
    }
    for (; k < n; k++) {
        int64_t i = iv[k];
        uint64_t out = (uint64_t)i >= (uint64_t)xsize;
        bad |= out;
        d[out ? 0 : i] += s[k];
    }
    if (!bad) return -1;
    for (k = 0; k < n; k++)
        if (iv[k] < 0 || iv[k] >= xsize) return k;
    return -1;
}

/* add_row_f32 split across the engine's threads when the row is long and
 * the destination small (1-D scatter_add / index_add of 10^6 values into
 * 1000 slots). The row is cut into a fixed number of chunks (four per
 * thread) that the threads claim one at a time, so a thread the machine
 * is slow to run leaves its share to the others instead of holding them
 * up. Chunk 0 adds into [d] in order, every other chunk into its own
 * zeroed copy of [d], and the copies are then added into [d] in chunk
 * order: the sums do not depend on which thread ran which chunk (they are
 * deterministic for a given thread count); at one thread they are
 * PyTorch's sequential order. */
typedef struct add_par {
    float *d;
    const float *s;
    const int64_t *iv;
    int64_t n, xsize;
    int chunks;
    atomic_int next;
    float *priv;     /* (chunks - 1) * xsize zeros */
    int64_t bad[64]; /* per chunk: first position out of bounds, or -1 */
} add_par;

static void add_par_task(void *arg, int task, int n_tasks) {
    (void)task, (void)n_tasks;
    add_par *p = arg;
    for (int c; (c = atomic_fetch_add(&p->next, 1)) < p->chunks;) {
        int64_t b, e;
        nn_parallel_range(p->n, c, p->chunks, 64, &b, &e);
        float *d = c == 0 ? p->d : p->priv + (int64_t)(c - 1) * p->xsize;
        int64_t at = add_row_f32(d, p->s + b, p->iv + b, e - b, p->xsize);
        p->bad[c] = at < 0 ? -1 : b + at;
    }
}

static int64_t add_row_f32_par(float *d, const float *s, const int64_t *iv, int64_t n,
                               int64_t xsize) {
    int tasks = nn_parallel_tasks(n, (int64_t)1 << 16);
    int chunks = tasks > 16 ? 64 : 4 * tasks;
    if (tasks <= 1 || xsize * chunks > n / 8) return add_row_f32(d, s, iv, n, xsize);
    float *priv = nn_mem_calloc((size_t)(chunks - 1) * (size_t)xsize * sizeof(float),
                                "scatter_add's per-chunk sums", NULL);
    if (!priv) return add_row_f32(d, s, iv, n, xsize);
    add_par p = {.d = d, .s = s, .iv = iv, .n = n, .xsize = xsize, .chunks = chunks, .priv = priv};
    atomic_init(&p.next, 0);
    nn_parallel_run(tasks, add_par_task, &p);
    for (int c = 1; c < chunks; c++) {
        const float *q = priv + (int64_t)(c - 1) * xsize;
        for (int64_t i = 0; i < xsize; i++) d[i] += q[i];
    }
    nn_mem_free(priv);
    for (int c = 0; c < chunks; c++)
        if (p.bad[c] >= 0) return p.bad[c];
    return -1;
}

/* d[k] = x[iv[k]] for 4-byte elements, in one pass as add_row_f32 (an
 * index out of bounds reads x[0]; the caller drops the output). */
NN_KERNEL_CLONES static int64_t gather_row32(uint32_t *d, const uint32_t *x, const int64_t *iv,
                                             int64_t n, int64_t xsize) {
    uint64_t bad = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t i = iv[k];
        uint64_t out = (uint64_t)i >= (uint64_t)xsize;
        bad |= out;
        d[k] = x[out ? 0 : i];
    }
    if (!bad) return -1;
    for (int64_t k = 0; k < n; k++)
        if (iv[k] < 0 || iv[k] >= xsize) return k;
    return -1;
}

/* One row of idx, in blocks small enough to stay in L1 between the bounds
 * check (branch-free, vectorised) and the moves. Returns the position in
 * the row of the first index out of bounds, or -1. */
static int64_t move_row(const move_arg *m, const int64_t *iv, int64_t n, int64_t xsize, int64_t bx,
                        int64_t xs_k, int64_t xs_v, int64_t bs, int64_t ss) {
    enum { BLOCK = 2048 };
    if (xs_k == 0 && xs_v == 1 && ss == 1) {
        if (m->add && !m->gather && m->dt == NN_FLOAT32)
            return add_row_f32_par((float *)m->dst + bx, (const float *)m->src + bs, iv, n, xsize);
        if (m->gather && m->es == 4)
            return gather_row32((uint32_t *)m->dst + bs, (const uint32_t *)m->src + bx, iv, n,
                                xsize);
    }
    for (int64_t b = 0; b < n; b += BLOCK) {
        int64_t len = n - b < BLOCK ? n - b : BLOCK;
        const int64_t *blk = iv + b;
        if (any_out_of_bounds(blk, len, xsize)) {
            for (int64_t k = 0; k < len; k++)
                if (blk[k] < 0 || blk[k] >= xsize) return b + k;
        }
        move_block(m, blk, len, xsize, bx + b * xs_k, xs_k, xs_v, bs + b * ss, ss);
    }
    return -1;
}

/* Rows [r0, r1) of idx (its last dim); returns the first row with an
 * index out of bounds (its position in *at), or -1. */
static int64_t walk_rows(const walk_geo *g, const int64_t *iv, int64_t r0, int64_t r1,
                         const move_arg *m, int64_t *at) {
    int nd = g->ndim, last = nd - 1;
    int64_t inner = nd ? g->shape[last] : 1;
    int64_t xs_v = nd ? g->xst[g->dim] : 0;
    bool dim_last = nd == 0 || g->dim == last;
    int64_t xs_k = dim_last ? 0 : g->xst[last], ss = nd ? g->sst[last] : 0;
    int64_t c[NN_MAX_DIMS] = {0};
    for (int64_t rest = r0, d = last - 1; d >= 0; d--) {
        c[d] = rest % g->shape[d];
        rest /= g->shape[d];
    }
    for (int64_t r = r0; r < r1; r++) {
        int64_t bx = 0, bs = 0;
        for (int d = 0; d < last; d++) {
            if (d != g->dim) bx += c[d] * g->xst[d];
            bs += c[d] * g->sst[d];
        }
        *at = move_row(m, iv + r * inner, inner, g->xsize, bx, xs_k, xs_v, bs, ss);
        if (*at >= 0) return r;
        for (int d = last - 1; d >= 0; d--) {
            if (++c[d] < g->shape[d]) break;
            c[d] = 0;
        }
    }
    return -1;
}

/* A gather's rows split across the engine's threads (each output element
 * is written once, from its own index); every task stops at its first
 * index out of bounds and the first of those in row-major order is the one
 * reported, as the serial walk would. Scatters stay serial: with repeated
 * indices the last write (row-major) must win. */
enum { WALK_MAX_TASKS = 64 };

typedef struct walk_job {
    const walk_geo *g;
    const int64_t *iv;
    const move_arg *m;
    int64_t rows;
    int64_t bad_row[WALK_MAX_TASKS], bad_at[WALK_MAX_TASKS];
} walk_job;

static void walk_task(void *arg, int task, int n_tasks) {
    walk_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->rows, task, n_tasks, 1, &b, &e);
    j->bad_row[task] = b < e ? walk_rows(j->g, j->iv, b, e, j->m, &j->bad_at[task]) : -1;
}

static bool walk_index(nn_ctx *ctx, const walk_geo *g, const int64_t *iv, int64_t n,
                       const move_arg *m) {
    if (n == 0) return true;
    /* The output is a fresh tensor: an index out of bounds stops the walk
     * before any move through it, and the partial result is dropped. */
    int64_t inner = g->ndim ? g->shape[g->ndim - 1] : 1;
    walk_job j = {.g = g, .iv = iv, .m = m, .rows = n / inner};
    int n_tasks = m->gather ? nn_parallel_tasks(n, NN_PAR_MIN_ELEMWISE) : 1;
    if (n_tasks > j.rows) n_tasks = (int)j.rows;
    if (n_tasks > WALK_MAX_TASKS) n_tasks = WALK_MAX_TASKS;
    if (n_tasks > 1)
        nn_parallel_run(n_tasks, walk_task, &j);
    else
        walk_task(&j, 0, n_tasks = 1);
    for (int t = 0; t < n_tasks; t++) {
        if (j.bad_row[t] < 0) continue;
        const int64_t *row = iv + j.bad_row[t] * inner;
        fail(ctx, NN_ERR_RUNTIME, "index %lld is out of bounds for dimension %d with size %lld",
             (long long)row[j.bad_at[t]], g->dim, (long long)g->xsize);
        return false;
    }
    return true;
}

static void geo_init(walk_geo *g, const nn_tensor *x, const nn_tensor *idx, const nn_tensor *src,
                     int dim) {
    memset(g, 0, sizeof *g);
    g->ndim = idx->ndim;
    g->dim = dim;
    memcpy(g->shape, idx->shape, sizeof(int64_t) * (size_t)idx->ndim);
    contiguous_strides(x->ndim, x->shape, g->xst);
    if (src) contiguous_strides(src->ndim, src->shape, g->sst);
    g->xsize = x->ndim ? x->shape[dim] : 1;
}

/* out (idx's shape, x's dtype) = x gathered. Raw: no autograd. */
static nn_tensor *gather_raw(nn_ctx *ctx, nn_tensor *x, int dim, nn_tensor *idx) {
    nn_tensor *xc = nn_tensor_contiguous_raw(ctx, x);
    nn_tensor *ic = xc ? nn_tensor_contiguous_raw(ctx, idx) : NULL;
    nn_tensor *out = ic ? nn_tensor_empty(ctx, x->dtype, idx->ndim, idx->shape) : NULL;
    bool ok = out != NULL;
    if (ok) {
        walk_geo g;
        geo_init(&g, x, idx, out, dim);
        move_arg m = {nn_tensor_data(out),
                      nn_tensor_data(xc),
                      nn_dtype_size(x->dtype),
                      x->dtype,
                      true,
                      false};
        ok = walk_index(ctx, &g, nn_tensor_data(ic), nn_tensor_numel(idx), &m);
    }
    nn_tensor_release(xc);
    nn_tensor_release(ic);
    if (!ok) {
        nn_tensor_release(out);
        return NULL;
    }
    return out;
}

/* A copy of x with src scattered (or added) at idx. Raw. [src] NULL means
 * zeros (the backward of scatter). */
static nn_tensor *scatter_raw(nn_ctx *ctx, nn_tensor *x, int dim, nn_tensor *idx, nn_tensor *src,
                              bool add) {
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
    if (!out) return NULL;
    if (nn_tensor_copy_(ctx, out, x)) {
        nn_tensor_release(out);
        return NULL;
    }
    nn_tensor *zeros = src ? NULL : nn_zeros(ctx, x->dtype, idx->ndim, idx->shape);
    nn_tensor *sc = src ? nn_tensor_cast_raw(ctx, src, x->dtype) : nn_tensor_retain(zeros);
    nn_tensor *scc = sc ? nn_tensor_contiguous_raw(ctx, sc) : NULL;
    nn_tensor *ic = scc ? nn_tensor_contiguous_raw(ctx, idx) : NULL;
    bool ok = ic != NULL;
    if (ok) {
        walk_geo g;
        geo_init(&g, x, idx, scc, dim);
        move_arg m = {nn_tensor_data(out),
                      nn_tensor_data(scc),
                      nn_dtype_size(x->dtype),
                      x->dtype,
                      false,
                      add};
        ok = walk_index(ctx, &g, nn_tensor_data(ic), nn_tensor_numel(idx), &m);
    }
    nn_tensor_release(zeros);
    nn_tensor_release(sc);
    nn_tensor_release(scc);
    nn_tensor_release(ic);
    if (!ok) {
        nn_tensor_release(out);
        return NULL;
    }
    return out;
}

nn_tensor *op_gather_forward(nn_ctx *ctx, nn_node *node) {
    return gather_raw(ctx, node->in[0].t, (int)node->p.i[0], node->in[1].t);
}

/* dx = zeros(x).scatter_add(dim, idx, dout) */
nn_status op_gather_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *x = node->in[0].t;
    nn_tensor *z = nn_zeros(ctx, dout->dtype, x->ndim, x->shape);
    din[0] = z ? scatter_raw(ctx, z, (int)node->p.i[0], node->in[1].t, dout, true) : NULL;
    nn_tensor_release(z);
    return din[0] ? NN_OK : ctx->err.code;
}

nn_tensor *op_scatter_forward(nn_ctx *ctx, nn_node *node) {
    return scatter_raw(ctx, node->in[0].t, (int)node->p.i[0], node->in[1].t, node->in[2].t,
                       node->p.flags == 1);
}

/* dx = dout (scatter: with the overwritten places zeroed); dsrc = dout
 * gathered at idx, zero where src is larger than idx. */
nn_status op_scatter_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    int dim = (int)node->p.i[0];
    nn_tensor *idx = node->in[1].t, *src = node->in[2].t;
    if (node->in[0].needs_grad) {
        din[0] = node->p.flags == 1 ? nn_tensor_retain(dout)
                                    : scatter_raw(ctx, dout, dim, idx, NULL, false);
        if (!din[0]) return ctx->err.code;
    }
    if (node->in[2].needs_grad) {
        nn_tensor *g = gather_raw(ctx, dout, dim, idx);
        if (!g) return ctx->err.code;
        if (nn_tensor_same_shape(g, src)) {
            din[2] = g;
        } else {
            /* src bigger than idx: the gathered block sits at its start. */
            nn_tensor *z = nn_zeros(ctx, dout->dtype, src->ndim, src->shape);
            nn_tensor *view =
                z ? nn_tensor_view_raw(ctx, z, g->ndim, g->shape, z->strides, 0) : NULL;
            nn_status st = view ? nn_tensor_copy_(ctx, view, g) : ctx->err.code;
            nn_tensor_release(view);
            nn_tensor_release(g);
            if (st) {
                nn_tensor_release(z);
                return st;
            }
            din[2] = z;
        }
    }
    return NN_OK;
}

nn_tensor *nn_gather(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index) {
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    if (!check_index(ctx, "gather", a, d, index, NULL)) return NULL;
    nn_tensor *in[2] = {a, index};
    nn_params p = params_dim(d);
    return nn_exec(ctx, NN_OP_GATHER, in, 2, &p);
}

nn_tensor *nn_scatter(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index, nn_tensor *src,
                      bool add) {
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    if (!check_index(ctx, add ? "scatter_add" : "scatter", a, d, index, src)) return NULL;
    if (src->dtype != a->dtype)
        return fail(ctx, NN_ERR_RUNTIME, "%s(): Expected self.dtype to be equal to src.dtype",
                    add ? "scatter_add" : "scatter");
    nn_tensor *in[3] = {a, index, src};
    nn_params p = params_dim(d);
    p.flags = add ? 1 : 0;
    return nn_exec(ctx, NN_OP_SCATTER, in, 3, &p);
}

/* ---- argsort: p.i[0] dim, flags bit 0 descending ----
 * A stable merge sort per row. NaN sorts above every number, as torch. */

typedef struct sort_key {
    uint64_t u; /* the value as an unsigned integer in the same order */
    int64_t i;
} sort_key;

/* A double as a uint64 whose unsigned order is the numeric order: the sign
 * bit flipped for positives, every bit for negatives. -0.0 counts as 0.0
 * (a stable sort keeps them in input order, as PyTorch) and every NaN as
 * the largest key. */
static uint64_t order_key(double v) {
    if (isnan(v)) return UINT64_MAX;
    if (v == 0) v = 0.0;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b >> 63 ? ~b : b | (1ULL << 63);
}

static inline bool key_before(const sort_key *a, const sort_key *b, bool desc) {
    return desc ? a->u > b->u : a->u < b->u;
}

/* Stable: insertion sort below 16 keys, merges above. */
static void merge_sort(sort_key *k, sort_key *tmp, int64_t n, bool desc) {
    if (n < 16) {
        for (int64_t i = 1; i < n; i++) {
            sort_key x = k[i];
            int64_t j = i;
            for (; j > 0 && key_before(&x, &k[j - 1], desc); j--) k[j] = k[j - 1];
            k[j] = x;
        }
        return;
    }
    int64_t h = n / 2;
    merge_sort(k, tmp, h, desc);
    merge_sort(k + h, tmp, n - h, desc);
    if (!key_before(&k[h], &k[h - 1], desc)) return; /* already in order */
    int64_t i = 0, j = h, o = 0;
    while (i < h && j < n) tmp[o++] = key_before(&k[j], &k[i], desc) ? k[j++] : k[i++];
    while (i < h) tmp[o++] = k[i++];
    memcpy(k, tmp, sizeof *k * (size_t)o);
}

/* One slice's value i (of a contiguous tensor) as a double, as
 * nn_tensor_get_flat reads it. */
static inline double slice_value(const nn_tensor *c, const void *cd, int64_t at) {
    switch (c->dtype) {
    case NN_FLOAT32: return ((const float *)cd)[at];
    case NN_FLOAT64: return ((const double *)cd)[at];
    case NN_INT64: return (double)((const int64_t *)cd)[at];
    default: return nn_tensor_get_flat(c, at);
    }
}

/* The slices along one dim of a contiguous tensor (outer x inner of them,
 * len long, inner apart) and an int64 output of kout per slice, split across
 * the engine's threads a run of slices each. A slice's result depends on
 * that slice alone: the same at any thread count. */
typedef struct slices_job {
    const nn_tensor *c;
    int64_t *out;
    int64_t len, inner, kout, n_slices;
    int64_t kth;   /* kth: which */
    bool flag;     /* argsort, topk: descending / largest; kth: NaN first */
    int kind;      /* 0 argsort, 1 topk, 2 kth */
    char *scratch; /* per task: scratch_bytes */
    size_t scratch_bytes;
} slices_job;

static void sort_slice(const slices_job *j, int64_t s, void *scratch);
static void kth_slice(const slices_job *j, int64_t s, void *scratch);

static void slices_task(void *arg, int task, int n_tasks) {
    const slices_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->n_slices, task, n_tasks, 1, &b, &e);
    void *scratch = j->scratch + (size_t)task * j->scratch_bytes;
    for (int64_t s = b; s < e; s++) {
        if (j->kind == 2)
            kth_slice(j, s, scratch);
        else
            sort_slice(j, s, scratch);
    }
}

/* Run [j] over its slices; false (error set) when the scratch cannot be
 * had. About 16K elements per thread before a split: each element costs
 * a few comparisons at least. */
static bool run_slices(nn_ctx *ctx, slices_job *j, size_t scratch_bytes) {
    int n_tasks = nn_parallel_tasks(j->n_slices * j->len, 16384);
    if (n_tasks > j->n_slices) n_tasks = (int)(j->n_slices > 0 ? j->n_slices : 1);
    if (n_tasks < 1) n_tasks = 1;
    j->scratch_bytes = (scratch_bytes + 63) & ~(size_t)63;
    j->scratch = nn_mem_alloc(j->scratch_bytes * (size_t)n_tasks, "sort keys", &ctx->err);
    if (!j->scratch) return false;
    if (n_tasks == 1)
        slices_task(j, 0, 1);
    else
        nn_parallel_run(n_tasks, slices_task, j);
    nn_mem_free(j->scratch);
    return true;
}

/* key a is before key b in the order whose first k topk returns: the
 * larger w (the order key, flipped for smallest), then the lower index. */
static inline bool key_better(const sort_key *a, const sort_key *b) {
    return a->u > b->u || (a->u == b->u && a->i < b->i);
}

/* Sift h[p] down a heap of n whose root is its worst key. */
static void heap_sift(sort_key *h, int64_t n, int64_t p) {
    sort_key x = h[p];
    for (;;) {
        int64_t c = 2 * p + 1;
        if (c >= n) break;
        if (c + 1 < n && key_better(&h[c], &h[c + 1])) c++; /* the worse child */
        if (!key_better(&x, &h[c])) break;
        h[p] = h[c];
        p = c;
    }
    h[p] = x;
}

static void sort_slice(const slices_job *j, int64_t s, void *scratch) {
    sort_key *k = scratch;
    const void *cd = nn_tensor_data(j->c);
    int64_t len = j->len, inner = j->inner, kout = j->kout;
    int64_t o = s / inner, in = s % inner;
    int64_t base = o * len * inner + in, obase = o * kout * inner + in;
    if (j->kind == 1 && kout * 4 <= len) {
        /* topk with k small against the slice: a heap of the best k seen
         * so far, worst at the root, under the same order as the stable
         * sort below (larger key first, then lower index; the key flipped
         * for smallest), so the same k come out in the same order. A later
         * element replaces the root only when its key is strictly better:
         * on a tie the earlier index wins. */
        uint64_t flip = j->flag ? 0 : UINT64_MAX;
        for (int64_t i = 0; i < kout; i++) {
            k[i].u = order_key(slice_value(j->c, cd, base + i * inner)) ^ flip;
            k[i].i = i;
        }
        for (int64_t p = kout / 2 - 1; p >= 0; p--) heap_sift(k, kout, p);
        /* Most elements lose to the root on a plain compare with its value
         * (a NaN fails the compare and goes on to the keys). */
        double root = slice_value(j->c, cd, base + k[0].i * inner);
        for (int64_t i = kout; i < len; i++) {
            double v = slice_value(j->c, cd, base + i * inner);
            if (j->flag ? v <= root : v >= root) continue;
            uint64_t w = order_key(v) ^ flip;
            if (w > k[0].u) {
                k[0].u = w;
                k[0].i = i;
                heap_sift(k, kout, 0);
                root = slice_value(j->c, cd, base + k[0].i * inner);
            }
        }
        for (int64_t m = kout - 1; m > 0; m--) { /* the worst left goes last */
            sort_key t = k[0];
            k[0] = k[m];
            k[m] = t;
            heap_sift(k, m, 0);
        }
    } else {
        for (int64_t i = 0; i < len; i++) {
            k[i].u = order_key(slice_value(j->c, cd, base + i * inner));
            k[i].i = i;
        }
        merge_sort(k, k + len, len, j->flag);
    }
    for (int64_t i = 0; i < kout; i++) j->out[obase + i * inner] = k[i].i;
}

/* The indices of the stable sort of [a] along [dim] (descending: [desc]),
 * its first [kout] per slice. Raw: no autograd. */
static nn_tensor *sort_indices(nn_ctx *ctx, nn_tensor *a, int dim, int64_t kout, bool desc,
                               bool topk) {
    int nd = a->ndim;
    int64_t len = nd ? a->shape[dim] : 1, outer = 1, inner = 1;
    for (int d = 0; d < dim; d++) outer *= a->shape[d];
    for (int d = dim + 1; d < nd; d++) inner *= a->shape[d];
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)nd);
    if (nd)
        shape[dim] = kout;
    else
        kout = 1; /* a 0-d tensor's topk(0) is its element, as PyTorch's */
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
    nn_tensor *out = c ? nn_tensor_empty(ctx, NN_INT64, nd, shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    slices_job j = {.c = c,
                    .out = nn_tensor_data(out),
                    .len = len,
                    .inner = inner,
                    .kout = kout,
                    .n_slices = len && kout ? outer * inner : 0,
                    .flag = desc,
                    .kind = topk ? 1 : 0};
    bool ok = run_slices(ctx, &j, sizeof(sort_key) * (size_t)(2 * len + 1));
    nn_tensor_release(c);
    if (!ok) {
        nn_tensor_release(out);
        return NULL;
    }
    return out;
}

nn_tensor *op_argsort_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    int dim = (int)node->p.i[0];
    bool desc = node->p.flags & 1;
    int64_t len = a->ndim ? a->shape[dim] : 1;
    return sort_indices(ctx, a, dim, len, desc, false);
}

/* ---- selection: the k-th smallest of each slice ----
 * O(len) per slice against the sort's O(len log len). Which of equal
 * values is picked follows PyTorch: median orders ties by position (its
 * nth_element comparator), kthvalue takes whichever PyTorch's own
 * quickselect (Numerical Recipes' select, median-of-three pivot) leaves at
 * k, so the same steps are taken here. */

typedef struct kth_key {
    double v;
    int64_t i;
} kth_key;

static inline bool gt_or_nan(double a, double b) { /* NaN above every number */
    return (isnan(a) && !isnan(b)) || a > b;
}

static inline bool key_less(const kth_key *a, const kth_key *b) { /* a strict total order */
    return a->v < b->v || (a->v == b->v && a->i < b->i);
}

static void kth_swap(kth_key *x, int64_t a, int64_t b) {
    kth_key t = x[a];
    x[a] = x[b];
    x[b] = t;
}

/* PyTorch's quick_select_template: x[k] ends as the k-th smallest. */
static void select_torch(kth_key *x, int64_t n, int64_t k) {
    int64_t L = 0, R = n - 1;
    for (;;) {
        if (R <= L) return;
        if (R == L + 1) {
            if (gt_or_nan(x[L].v, x[R].v)) kth_swap(x, L, R);
            return;
        }
        int64_t P = L + (R - L) / 2;
        kth_swap(x, P, L + 1);
        if (gt_or_nan(x[L + 1].v, x[R].v)) kth_swap(x, L + 1, R);
        if (gt_or_nan(x[L].v, x[R].v)) kth_swap(x, L, R);
        if (gt_or_nan(x[L + 1].v, x[L].v)) kth_swap(x, L + 1, L);
        int64_t i = L + 1, j = R;
        double piv = x[L].v;
        for (;;) {
            do i++;
            while (gt_or_nan(piv, x[i].v));
            do j--;
            while (gt_or_nan(x[j].v, piv));
            if (j < i) break;
            kth_swap(x, i, j);
        }
        kth_swap(x, L, j);
        if (j <= k) L = i;
        if (j >= k) R = j - 1;
    }
}

/* Quickselect under key_less (no NaN: median returns a slice's NaN first). */
static void select_ordered(kth_key *x, int64_t n, int64_t k) {
    int64_t lo = 0, hi = n - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2;
        if (key_less(&x[mid], &x[lo])) kth_swap(x, mid, lo);
        if (key_less(&x[hi], &x[lo])) kth_swap(x, hi, lo);
        if (key_less(&x[hi], &x[mid])) kth_swap(x, hi, mid);
        kth_key pivot = x[mid];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (key_less(&x[i], &pivot)) i++;
            while (key_less(&pivot, &x[j])) j--;
            if (i <= j) kth_swap(x, i++, j--);
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break;
    }
}

static void kth_slice(const slices_job *j, int64_t s, void *scratch) {
    kth_key *keys = scratch;
    const void *cd = nn_tensor_data(j->c);
    int64_t len = j->len, inner = j->inner, k = j->kth;
    int64_t base = s / inner * len * inner + s % inner, first_nan = -1;
    for (int64_t i = 0; i < len; i++) {
        keys[i].v = slice_value(j->c, cd, base + i * inner);
        keys[i].i = i;
        if (first_nan < 0 && isnan(keys[i].v)) first_nan = i;
    }
    if (j->flag && first_nan >= 0) {
        j->out[s] = first_nan;
        return;
    }
    if (j->flag)
        select_ordered(keys, len, k);
    else
        select_torch(keys, len, k);
    j->out[s] = keys[k].i;
}

nn_tensor *nn_kth_indices(nn_ctx *ctx, nn_tensor *a, int64_t k, int dim, bool nan_first) {
    int nd = a->ndim;
    int64_t len = nd ? a->shape[dim] : 1, outer = 1, inner = 1;
    for (int d = 0; d < dim; d++) outer *= a->shape[d];
    for (int d = dim + 1; d < nd; d++) inner *= a->shape[d];
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)nd);
    if (nd) shape[dim] = 1;
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
    nn_tensor *out = c ? nn_tensor_empty(ctx, NN_INT64, nd, shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    slices_job j = {.c = c,
                    .out = nn_tensor_data(out),
                    .len = len,
                    .inner = inner,
                    .kout = 1,
                    .kth = k,
                    .n_slices = outer * inner,
                    .flag = nan_first,
                    .kind = 2};
    bool ok = run_slices(ctx, &j, sizeof(kth_key) * (size_t)(len ? len : 1));
    nn_tensor_release(c);
    if (!ok) {
        nn_tensor_release(out);
        return NULL;
    }
    return out;
}

nn_tensor *nn_argsort(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool descending) {
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    nn_params p = params_dim(d);
    p.flags = descending ? 1 : 0;
    return nn_exec(ctx, NN_OP_ARGSORT, &a, 1, &p);
}

nn_tensor *nn_sort(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool descending, nn_tensor **indices) {
    *indices = NULL;
    nn_tensor *idx = nn_argsort(ctx, a, dim, descending);
    if (!idx) return NULL;
    nn_tensor *v = a->ndim ? nn_gather(ctx, a, dim, idx) : nn_contiguous(ctx, a);
    if (!v) {
        nn_tensor_release(idx);
        return NULL;
    }
    *indices = idx;
    return v;
}

nn_tensor *nn_topk(nn_ctx *ctx, nn_tensor *a, int64_t k, int64_t dim, bool largest,
                   nn_tensor **indices) {
    *indices = NULL;
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    int64_t len = a->ndim ? a->shape[d] : 1;
    if (k < 0 || k > len) return fail(ctx, NN_ERR_RUNTIME, "selected index k out of range");
    /* The first k of argsort's stable order (sorted=False gives them in
     * that order too), by selection when k is small (sort_slice). */
    nn_tensor *ic = sort_indices(ctx, a, d, k, largest, true);
    if (!ic) return NULL;
    nn_tensor *v = a->ndim ? nn_gather(ctx, a, d, ic) : nn_contiguous(ctx, a);
    if (!v) {
        nn_tensor_release(ic);
        return NULL;
    }
    *indices = ic;
    return v;
}

/* ---- compositions of the shape ops ---- */

nn_tensor *nn_index_select(nn_ctx *ctx, nn_tensor *a, int64_t dim, nn_tensor *index) {
    if (index->ndim > 1)
        return fail(ctx, NN_ERR_INDEX, "index_select(): Index is supposed to be a vector");
    if (index->dtype != NN_INT64)
        return fail(ctx, NN_ERR_RUNTIME, "index_select(): Expected dtype int32 or int64 for index");
    int d = 0;
    if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
    int64_t size = a->ndim ? a->shape[d] : 1, n = nn_tensor_numel(index);
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)nn_tensor_get_flat(index, i);
        if (v < 0 || v >= size)
            return fail(ctx, NN_ERR_RUNTIME,
                        "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld",
                        (long long)v, (long long)size);
    }
    if (a->ndim == 0) return nn_reshape(ctx, a, 0, NULL);
    nn_tensor *i1 = index->ndim == 0 ? nn_reshape(ctx, index, 1, &n) : nn_tensor_retain(index);
    nn_tensor *r = i1 ? nn_index(ctx, a, d, &i1, 1) : NULL;
    nn_tensor_release(i1);
    return r;
}

nn_tensor *nn_flip(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims) {
    bool seen[NN_MAX_DIMS] = {false};
    nn_tensor *r = nn_tensor_retain(a);
    for (int k = 0; k < n_dims && r; k++) {
        int d = 0;
        if (nn_dim_wrap_torch(ctx, dims[k], a->ndim, &d)) {
            nn_tensor_release(r);
            return NULL;
        }
        if (seen[d]) {
            nn_tensor_release(r);
            return fail(ctx, NN_ERR_RUNTIME,
                        "dims has duplicates, original flip dims size=%d, "
                        "but unique flip dims size=%d",
                        n_dims, n_dims - 1);
        }
        seen[d] = true;
    }
    if (a->ndim == 0) return r;
    for (int k = 0; k < n_dims && r; k++) {
        int d = 0;
        nn_dim_wrap_torch(ctx, dims[k], a->ndim, &d);
        int64_t len = a->shape[d];
        nn_tensor *rev = nn_arange(ctx, (double)len - 1, -1, -1, NN_INT64);
        nn_tensor *next = rev ? nn_index(ctx, r, d, &rev, 1) : NULL;
        nn_tensor_release(rev);
        nn_tensor_release(r);
        r = next;
    }
    return r;
}

/* x.repeat(reps): view x as [1, s0, 1, s1, ...] (leading dims added when
 * reps has more), expand to [r0, s0, r1, s1, ...], reshape to [r0 s0, ...]. */
nn_tensor *nn_repeat(nn_ctx *ctx, nn_tensor *a, const int64_t *reps, int n) {
    if (n < a->ndim)
        return fail(ctx, NN_ERR_RUNTIME,
                    "Number of dimensions of repeat dims can not be smaller than number of "
                    "dimensions of tensor");
    if (2 * n > NN_MAX_DIMS)
        return fail(ctx, NN_ERR_VALUE, "repeat: at most %d dims are supported", NN_MAX_DIMS / 2);
    for (int i = 0; i < n; i++)
        if (reps[i] < 0)
            return fail(ctx, NN_ERR_RUNTIME,
                        "Trying to create tensor with negative dimension %lld: [%lld]",
                        (long long)reps[i], (long long)reps[i]);
    int64_t pad[NN_MAX_DIMS], two[NN_MAX_DIMS], big[NN_MAX_DIMS], fin[NN_MAX_DIMS];
    for (int i = 0; i < n; i++) {
        int src = i - (n - a->ndim);
        pad[i] = src >= 0 ? a->shape[src] : 1;
        two[2 * i] = 1;
        two[2 * i + 1] = pad[i];
        big[2 * i] = reps[i];
        big[2 * i + 1] = pad[i];
        fin[i] = reps[i] * pad[i];
    }
    nn_tensor *v = nn_reshape(ctx, a, 2 * n, two);
    nn_tensor *e = v ? nn_expand(ctx, v, 2 * n, big) : NULL;
    nn_tensor_release(v);
    nn_tensor *c = e ? nn_contiguous(ctx, e) : NULL;
    nn_tensor_release(e);
    nn_tensor *r = c ? nn_reshape(ctx, c, n, fin) : NULL;
    nn_tensor_release(c);
    return r;
}

/* repeat_interleave(x, r, dim): each slice along dim r times in a row.
 * all_dims flattens first (dim=None). */
nn_tensor *nn_repeat_interleave(nn_ctx *ctx, nn_tensor *a, int64_t repeats, int64_t dim,
                                bool all_dims) {
    if (repeats < 0) return fail(ctx, NN_ERR_RUNTIME, "repeats can not be negative");
    nn_tensor *x = all_dims ? nn_flatten(ctx, a, 0, -1) : nn_tensor_retain(a);
    if (!x) return NULL;
    int d = 0;
    if (nn_dim_wrap_torch(ctx, all_dims ? 0 : dim, x->ndim, &d)) {
        nn_tensor_release(x);
        return NULL;
    }
    if (x->ndim == 0) {
        int64_t one = 1;
        nn_tensor *y = nn_reshape(ctx, x, 1, &one);
        nn_tensor_release(x);
        if (!(x = y)) return NULL;
    }
    int64_t s1[NN_MAX_DIMS], s2[NN_MAX_DIMS], fin[NN_MAX_DIMS];
    if (x->ndim + 1 > NN_MAX_DIMS) {
        nn_tensor_release(x);
        return fail(ctx, NN_ERR_VALUE, "repeat_interleave: too many dims");
    }
    for (int i = 0, j = 0; i < x->ndim; i++) {
        s1[j] = x->shape[i];
        s2[j] = x->shape[i];
        fin[i] = x->shape[i] * (i == d ? repeats : 1);
        j++;
        if (i == d) {
            s1[j] = 1;
            s2[j] = repeats;
            j++;
        }
    }
    nn_tensor *v = nn_reshape(ctx, x, x->ndim + 1, s1);
    nn_tensor *e = v ? nn_expand(ctx, v, x->ndim + 1, s2) : NULL;
    nn_tensor *c = e ? nn_contiguous(ctx, e) : NULL;
    nn_tensor *r = c ? nn_reshape(ctx, c, x->ndim, fin) : NULL;
    nn_tensor_release(v);
    nn_tensor_release(e);
    nn_tensor_release(c);
    nn_tensor_release(x);
    return r;
}

/* ---- counting ops (no gradient) ---- */

/* one_hot: p.i[0] = num_classes (resolved by the wrapper). */
nn_tensor *op_one_hot_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    int64_t nc = node->p.i[0], n = nn_tensor_numel(a), shape[NN_MAX_DIMS];
    memcpy(shape, a->shape, sizeof(int64_t) * (size_t)a->ndim);
    shape[a->ndim] = nc;
    nn_tensor *out = nn_zeros(ctx, NN_INT64, a->ndim + 1, shape);
    if (!out) return NULL;
    int64_t *o = nn_tensor_data(out);
    for (int64_t i = 0; i < n; i++) o[i * nc + (int64_t)nn_tensor_get_flat(a, i)] = 1;
    return out;
}

nn_tensor *nn_one_hot(nn_ctx *ctx, nn_tensor *a, int64_t num_classes) {
    if (a->dtype != NN_INT64)
        return fail(ctx, NN_ERR_RUNTIME, "one_hot is only applicable to index tensor.");
    if (a->ndim + 1 > NN_MAX_DIMS)
        return fail(ctx, NN_ERR_VALUE, "one_hot: at most %d dims are supported", NN_MAX_DIMS);
    int64_t n = nn_tensor_numel(a), lo = 0, hi = -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)nn_tensor_get_flat(a, i);
        if (i == 0 || v < lo) lo = v;
        if (i == 0 || v > hi) hi = v;
    }
    if (num_classes == -1) {
        if (n == 0)
            return fail(ctx, NN_ERR_RUNTIME,
                        "Can not infer total number of classes from empty tensor.");
        num_classes = hi + 1;
    }
    if (n > 0 && lo < 0) return fail(ctx, NN_ERR_RUNTIME, "Class values must be non-negative.");
    if (n > 0 && hi >= num_classes)
        return fail(ctx, NN_ERR_RUNTIME, "Class values must be smaller than num_classes.");
    if (num_classes < 0) return fail(ctx, NN_ERR_RUNTIME, "num_classes should be positive");
    nn_params p = params_dim(num_classes);
    return nn_exec(ctx, NN_OP_ONE_HOT, &a, 1, &p);
}

/* nonzero: [count, ndim] int64 coordinates in row-major order. */
nn_tensor *op_nonzero_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    int64_t n = nn_tensor_numel(a), cnt = 0;
    for (int64_t i = 0; i < n; i++) cnt += nn_tensor_get_flat(a, i) != 0;
    int64_t shape[2] = {cnt, a->ndim};
    nn_tensor *out = nn_tensor_empty(ctx, NN_INT64, 2, shape);
    if (!out) return NULL;
    int64_t *o = nn_tensor_data(out), c[NN_MAX_DIMS] = {0}, k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (nn_tensor_get_flat(a, i) != 0) {
            for (int d = 0; d < a->ndim; d++) o[k * a->ndim + d] = c[d];
            k++;
        }
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++c[d] < a->shape[d]) break;
            c[d] = 0;
        }
    }
    return out;
}

nn_tensor *nn_nonzero(nn_ctx *ctx, nn_tensor *a) {
    return nn_exec(ctx, NN_OP_NONZERO, &a, 1, NULL);
}

/* bincount: in[0] the values, in[1] the weights (optional); p.i[0] the
 * length of the result. */
nn_tensor *op_bincount_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t, *w = node->n_in > 1 ? node->in[1].t : NULL;
    int64_t len = node->p.i[0], n = nn_tensor_numel(a);
    nn_dtype dt = !w ? NN_INT64 : w->dtype == NN_FLOAT32 ? NN_FLOAT32 : NN_FLOAT64;
    nn_tensor *out = nn_zeros(ctx, dt, 1, &len);
    if (!out) return NULL;
    for (int64_t i = 0; i < n; i++) {
        int64_t b = (int64_t)nn_tensor_get_flat(a, i);
        double add = w ? nn_tensor_get_flat(w, i) : 1.0;
        if (dt == NN_INT64)
            ((int64_t *)nn_tensor_data(out))[b] += 1;
        else if (dt == NN_FLOAT32)
            ((float *)nn_tensor_data(out))[b] += (float)add;
        else
            ((double *)nn_tensor_data(out))[b] += add;
    }
    return out;
}

nn_tensor *nn_bincount(nn_ctx *ctx, nn_tensor *a, nn_tensor *weights, int64_t minlength) {
    if (minlength < 0) return fail(ctx, NN_ERR_RUNTIME, "minlength should be >= 0");
    if (a->ndim != 1 || a->dtype != NN_INT64)
        return fail(ctx, NN_ERR_RUNTIME,
                    "bincount only supports 1-d non-negative integral inputs.");
    int64_t n = nn_tensor_numel(a), hi = -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = (int64_t)nn_tensor_get_flat(a, i);
        if (v < 0)
            return fail(ctx, NN_ERR_RUNTIME,
                        "bincount only supports 1-d non-negative integral inputs.");
        if (v > hi) hi = v;
    }
    if (weights && (weights->ndim != 1 || weights->shape[0] != n))
        return fail(ctx, NN_ERR_RUNTIME, "weights should be 1-d and have the same length as input");
    nn_tensor *in[2] = {a, weights};
    nn_params p = params_dim(hi + 1 > minlength ? hi + 1 : minlength);
    return nn_exec(ctx, NN_OP_BINCOUNT, in, weights ? 2 : 1, &p);
}

/* histc: p.i[0] bins, p.f[0..1] the range (already resolved). */
nn_tensor *op_histc_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    int64_t bins = node->p.i[0], n = nn_tensor_numel(a);
    double lo = node->p.f[0], hi = node->p.f[1];
    nn_tensor *out = nn_zeros(ctx, a->dtype, 1, &bins);
    if (!out) return NULL;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(a, i);
        if (!(v >= lo && v <= hi)) continue;
        int64_t b = (int64_t)((v - lo) * (double)bins / (hi - lo));
        if (b >= bins) b = bins - 1;
        nn_tensor_set_flat(out, b, nn_tensor_get_flat(out, b) + 1);
    }
    return out;
}

nn_tensor *nn_histc(nn_ctx *ctx, nn_tensor *a, int64_t bins, double min, double max) {
    if (!nn_dtype_is_float(a->dtype))
        return fail(ctx, NN_ERR_RUNTIME, "\"histogram_cpu\" not implemented for '%s'",
                    a->dtype == NN_INT64 ? "Long" : "Bool");
    if (bins <= 0)
        return fail(ctx, NN_ERR_RUNTIME,
                    "torch.histc(): bins must be > 0, but got %lld for dimension 0",
                    (long long)bins);
    if (min > max) return fail(ctx, NN_ERR_RUNTIME, "torch.histc(): max must be larger than min");
    int64_t n = nn_tensor_numel(a);
    if (min == max && n > 0) {
        min = INFINITY;
        max = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            double v = nn_tensor_get_flat(a, i);
            if (v < min) min = v;
            if (v > max) max = v;
        }
    }
    if (min == max) {
        min -= 1;
        max += 1;
    }
    if (!isfinite(min) || !isfinite(max))
        return fail(ctx, NN_ERR_RUNTIME, "torch.histc(): range of [%g, %g] is not finite", min,
                    max);
    nn_params p = params_dim(bins);
    p.f[0] = min;
    p.f[1] = max;
    return nn_exec(ctx, NN_OP_HISTC, &a, 1, &p);
}

/* ---- costs ----
 * sin, cos, log2, log10: one transcendental per element (counted as one
 * FLOP, as the other unary math); nan_to_num and the triangles: no FLOPs
 * (selection); the scans one per element; sorting n log2 n comparisons per
 * row; gather, scatter and the counting ops move elements (bytes only). */
bool nn_cost_more(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    double numel = nn_cost_numel(n->in[0].t);
    switch (n->op) {
    case NN_OP_SIN:
    case NN_OP_COS:
    case NN_OP_LOG2:
    case NN_OP_LOG10:
    case NN_OP_CUMSUM:
    case NN_OP_CUMPROD: c->flops = numel; return true;
    case NN_OP_ARGSORT: {
        const nn_tensor *a = n->in[0].t;
        double len = a->ndim ? (double)a->shape[n->p.i[0]] : 1;
        c->flops = len > 1 ? numel * log2(len) : 0;
        return true;
    }
    case NN_OP_NAN_TO_NUM:
    case NN_OP_TRIL:
    case NN_OP_GATHER:
    case NN_OP_SCATTER:
    case NN_OP_ONE_HOT:
    case NN_OP_NONZERO:
    case NN_OP_BINCOUNT:
    case NN_OP_HISTC: return true;
    default: return false;
    }
}
