/* ops_nn: neural-network ops (softmax, log_softmax, the losses, embedding,
 * layer_norm, dropout, scaled dot-product attention), each one node with a
 * fused forward and backward.
 *
 * These ops sit on the training hot path, so they do not build themselves
 * from other ops: every kernel reads contiguous inputs once and writes its
 * output directly. A kernel body is written once for both float types as an
 * always-inlined function with a constant [f64] flag; the two thin wrappers
 * that call it let the compiler drop the branches. Arithmetic runs in double
 * (sums over a row stay accurate in float32) while exp/log run in the
 * storage precision. Attention goes through CBLAS gemms, one batch at a time.
 *
 * Outputs are new tensors the caller owns. Extra tensors a backward needs
 * (log-probabilities, layer-norm statistics, the dropout mask, attention
 * probabilities) live in node->saved[] and are only kept for recorded nodes.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_sleef.h"
#include "nn_thread.h"
#include "nn_vmath.h"
#include "ops_rows.h"

#define KERNEL static inline __attribute__((always_inline))

/* ---- element access shared by the kernels ---- */

KERNEL double ld(const void *p, int64_t i, bool f64) {
    return f64 ? ((const double *)p)[i] : (double)((const float *)p)[i];
}
KERNEL void st(void *p, int64_t i, double v, bool f64) {
    if (f64)
        ((double *)p)[i] = v;
    else
        ((float *)p)[i] = (float)v;
}
/* Scalar contexts keep libm's expf: it beats the polynomial when nothing
 * vectorises. */
KERNEL double ex(double v, bool f64) {
    return f64 ? exp(v) : (double)expf((float)v);
}
KERNEL double lg(double v, bool f64) {
    return f64 ? log(v) : (double)logf((float)v);
}
KERNEL double lg1p(double v, bool f64) {
    return f64 ? log1p(v) : (double)log1pf((float)v);
}

/* ---- helpers ---- */

static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    nn_error_setv(&ctx->err, code, fmt, ap);
    va_end(ap);
    return NULL;
}

/* [t] as a contiguous tensor of [dt]: a new reference, or a copy. */
static nn_tensor *dense(nn_ctx *ctx, nn_tensor *t, nn_dtype dt) {
    nn_tensor *c = nn_tensor_cast_raw(ctx, t, dt);
    if (!c) return NULL;
    nn_tensor *d = nn_tensor_contiguous_raw(ctx, c);
    nn_tensor_release(c);
    return d;
}

/* [t] broadcast to [shape] and laid out densely in [dt]. */
static nn_tensor *dense_to(nn_ctx *ctx, nn_tensor *t, nn_dtype dt, int nd, const int64_t *shape) {
    if (t->ndim == nd && memcmp(t->shape, shape, sizeof(int64_t) * (size_t)nd) == 0)
        return dense(ctx, t, dt);
    int64_t strides[NN_MAX_DIMS];
    int lead = nd - t->ndim;
    for (int i = 0; i < nd; i++) {
        int j = i - lead;
        strides[i] = (j < 0 || t->shape[j] == 1) ? 0 : t->strides[j];
    }
    nn_tensor *v = nn_tensor_view_raw(ctx, t, nd, shape, strides, t->offset);
    if (!v) return NULL;
    nn_tensor *out = nn_tensor_empty(ctx, dt, nd, shape);
    if (out && nn_tensor_copy_(ctx, out, v)) {
        nn_tensor_release(out);
        out = NULL;
    }
    nn_tensor_release(v);
    return out;
}

static bool is_f64(const nn_tensor *t) {
    return t->dtype == NN_FLOAT64;
}

/* A float tensor, or a TypeError that names the op and the argument. */
static bool need_float(nn_ctx *ctx, const char *op, const char *what, const nn_tensor *t) {
    if (nn_dtype_is_float(t->dtype)) return true;
    nn_error_set(&ctx->err, NN_ERR_TYPE,
                 "%s: %s must be a float tensor, not %s (convert it with .float())", op, what,
                 nn_dtype_name(t->dtype));
    return false;
}

static const char *shape_s(const nn_tensor *t, char *buf, int n) {
    return nn_tensor_shape_str(t, buf, n);
}

/* The float dtype two operands compute in. */
static nn_dtype float_promote(const nn_tensor *a, const nn_tensor *b) {
    return nn_float_dtype(nn_dtype_promote(a, b));
}

/* [dout] read as one number (mean/sum reductions). */
static double first(const nn_tensor *t) {
    return nn_tensor_get_flat(t, 0);
}

/* ---- softmax / log_softmax ----
 * params: i[0] the dim (wrapped by the forward). The input is viewed as
 * [outer, C, inner] with C along the dim. */

static void split3(const nn_tensor *t, int dim, int64_t *outer, int64_t *c, int64_t *inner) {
    *outer = *inner = 1;
    *c = t->ndim ? t->shape[dim] : 1;
    for (int i = 0; i < dim; i++) *outer *= t->shape[i];
    for (int i = dim + 1; i < t->ndim; i++) *inner *= t->shape[i];
}

/* A 0-dim tensor has one dim for softmax's purposes (as in PyTorch). */
static bool wrap_dim(nn_ctx *ctx, const char *op, int64_t dim, const nn_tensor *t, int *out) {
    if (nn_dim_wrap(ctx, dim, t->ndim ? t->ndim : 1, out) == NN_OK) return true;
    char sh[128], msg[NN_ERROR_MSG_MAX];
    snprintf(msg, sizeof msg, "%s", ctx->err.msg);
    nn_error_set(&ctx->err, NN_ERR_INDEX, "%s on shape %s: %s", op, shape_s(t, sh, sizeof sh), msg);
    return false;
}

/* Sum of a contiguous run with four accumulators in double. */
#define SUM_RUN(T)                                                                                 \
    static double sum_run_##T(const T *p, int64_t n) {                                             \
        double a0 = 0, a1 = 0, a2 = 0, a3 = 0;                                                     \
        int64_t i = 0;                                                                             \
        for (; i + 4 <= n; i += 4) {                                                               \
            a0 += p[i];                                                                            \
            a1 += p[i + 1];                                                                        \
            a2 += p[i + 2];                                                                        \
            a3 += p[i + 3];                                                                        \
        }                                                                                          \
        for (; i < n; i++) a0 += p[i];                                                             \
        return (a0 + a1) + (a2 + a3);                                                              \
    }
SUM_RUN(float)
SUM_RUN(double)

/* Softmax of one contiguous row in the storage type, so that the exp pass
 * vectorises. Rows of all -inf come out nan (as in PyTorch): the max is -inf
 * and -inf - -inf is nan; single -inf entries get probability 0. A nan
 * anywhere makes the whole row nan. */
#define SOFTMAX_ROW(T, EXP, LOG)                                                                   \
    static void softmax_row_##T(const T *x, T *y, int64_t c, bool log_out) {                       \
        T m = -INFINITY;                                                                           \
        bool has_nan = false;                                                                      \
        for (int64_t k = 0; k < c; k++) {                                                          \
            has_nan |= x[k] != x[k];                                                               \
            m = x[k] > m ? x[k] : m;                                                               \
        }                                                                                          \
        if (has_nan) m = NAN;                                                                      \
        for (int64_t k = 0; k < c; k++) y[k] = EXP(x[k] - m);                                      \
        double s = sum_run_##T(y, c);                                                              \
        if (log_out) {                                                                             \
            T ls = (T)LOG(s);                                                                      \
            for (int64_t k = 0; k < c; k++) y[k] = (x[k] - m) - ls;                                \
        } else {                                                                                   \
            T inv = (T)(1.0 / s);                                                                  \
            for (int64_t k = 0; k < c; k++) y[k] *= inv;                                           \
        }                                                                                          \
    }
SOFTMAX_ROW(double, exp, log)

/* Softmax and log_softmax along a dim that is not the last, [outer, c,
 * inner] contiguous, one column of [c] values [inner] apart at a time, as
 * PyTorch 1.13's host_softmax (SoftMax.cpp) computes log_softmax there: the
 * max by std::max, libm's exp in the type summed in double, the log in
 * double, y = (x - max) - log rounded once. Softmax there is
 * nn_cols_softmax_* (ops_rows.c); this loop gives it only where SLEEF is
 * missing (exp / sum in double: nndb's own bits). */
#define SOFTMAX_COLS(T, EXP)                                                                       \
    static void softmax_cols_##T(const T *x, T *y, int64_t outer, int64_t c, int64_t inner,        \
                                 bool log_out) {                                                   \
        for (int64_t o = 0; o < outer; o++)                                                        \
            for (int64_t j = 0; j < inner; j++) {                                                  \
                const T *xs = x + o * c * inner + j;                                               \
                T *ys = y + o * c * inner + j, m = xs[0];                                          \
                for (int64_t d = 1; d < c; d++) m = m < xs[d * inner] ? xs[d * inner] : m;         \
                double s = 0;                                                                      \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    T z = EXP(xs[d * inner] - m);                                                  \
                    if (!log_out) ys[d * inner] = z;                                               \
                    s += z;                                                                        \
                }                                                                                  \
                if (log_out) {                                                                     \
                    s = log(s);                                                                    \
                    for (int64_t d = 0; d < c; d++)                                                \
                        ys[d * inner] = (T)((double)(xs[d * inner] - m) - s);                      \
                } else {                                                                           \
                    s = s == 0 ? NAN : 1 / s;                                                      \
                    for (int64_t d = 0; d < c; d++) ys[d * inner] = (T)(ys[d * inner] * s);        \
                }                                                                                  \
            }                                                                                      \
    }
SOFTMAX_COLS(float, expf)
SOFTMAX_COLS(double, exp)

/* Their backward along such a dim, PyTorch 1.13's host_softmax_backward:
 * per column a double sum of g (log_softmax) or of g y rounded in the type
 * (softmax), then dx = g - exp(y) sum or y (g - sum) in double, rounded
 * once. */
#define SOFTMAX_COLS_GRAD(T, EXP)                                                                  \
    static void softmax_cols_grad_##T(const T *g, const T *y, T *dx, int64_t outer, int64_t c,     \
                                      int64_t inner, bool log_out) {                               \
        for (int64_t o = 0; o < outer; o++)                                                        \
            for (int64_t j = 0; j < inner; j++) {                                                  \
                int64_t base = o * c * inner + j;                                                  \
                double s = 0;                                                                      \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = base + d * inner;                                                  \
                    s += log_out ? g[i] : (T)(g[i] * y[i]);                                        \
                }                                                                                  \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = base + d * inner;                                                  \
                    dx[i] = log_out ? (T)(g[i] - (double)EXP(y[i]) * s) : (T)(y[i] * (g[i] - s));  \
                }                                                                                  \
            }                                                                                      \
    }
SOFTMAX_COLS_GRAD(float, expf)
SOFTMAX_COLS_GRAD(double, exp)

/* Independent rows split across the engine's threads: each task calls
 * [fn] on one contiguous range of whole rows, so every row is computed as
 * at one thread and the results have the same bits at any thread count.
 * [row_len] elements a row and [min_per_task] set the size threshold. */
typedef void (*rows_fn)(void *arg, int64_t begin, int64_t end);
typedef struct rows_par {
    rows_fn fn;
    void *arg;
    int64_t rows;
} rows_par;

static void rows_par_task(void *a, int task, int n_tasks) {
    const rows_par *p = a;
    int64_t b, e;
    nn_parallel_range(p->rows, task, n_tasks, 1, &b, &e);
    if (b < e) p->fn(p->arg, b, e);
}

static void rows_parallel(int64_t rows, int64_t row_len, int64_t min_per_task, rows_fn fn,
                          void *arg) {
    int tasks = nn_parallel_tasks(rows * row_len, min_per_task);
    if (tasks > rows) tasks = (int)rows;
    rows_par p = {fn, arg, rows};
    nn_parallel_run(tasks, rows_par_task, &p);
}

typedef struct softmax_rows_arg {
    const float *x, *g;
    float *y;
    int64_t c;
    bool log_out;
} softmax_rows_arg;

static void softmax_rows_part(void *arg, int64_t b, int64_t e) {
    const softmax_rows_arg *a = arg;
    nn_rows_softmax_f32(a->x + b * a->c, a->y + b * a->c, e - b, a->c, a->log_out);
}

/* Backward: x holds the output y, y the input gradient dx. */
static void softmax_grad_rows_part(void *arg, int64_t b, int64_t e) {
    const softmax_rows_arg *a = arg;
    nn_rows_softmax_grad_f32(a->g + b * a->c, a->x + b * a->c, a->y + b * a->c, e - b, a->c,
                             a->log_out);
}

/* Scratch of [n] doubles (pooled); NULL with ctx->err set on failure. */
static nn_tensor *scratch(nn_ctx *ctx, int64_t n) {
    return nn_tensor_empty(ctx, NN_FLOAT64, 1, &n);
}

static nn_tensor *softmax_forward(nn_ctx *ctx, nn_node *node, bool log_out) {
    const char *op = log_out ? "log_softmax" : "softmax";
    nn_tensor *a = node->in[0].t;
    int dim;
    if (!need_float(ctx, op, "the input", a) || !wrap_dim(ctx, op, node->p.i[0], a, &dim))
        return NULL;
    node->p.i[0] = dim;
    int64_t outer, c, inner;
    split3(a, dim, &outer, &c, &inner);
    nn_tensor *x = dense(ctx, a, a->dtype);
    nn_tensor *y = x ? nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape) : NULL;
    /* PyTorch's last-dim kernels for the last dim only ([N, C, 1] along
     * dim 1 takes its other path) */
    bool rows = a->ndim == 0 || dim == a->ndim - 1;
    if (y && nn_tensor_numel(a) == 0) {
        /* nothing to compute (a dim of size 0) */
    } else if (y && rows) {
        /* The common case: contiguous rows (float32 in ops_rows.c). */
        if (is_f64(a)) {
            if (!nn_rows_softmax_f64(nn_tensor_data(x), nn_tensor_data(y), outer, c, log_out))
                for (int64_t o = 0; o < outer; o++)
                    softmax_row_double((const double *)nn_tensor_data(x) + o * c,
                                       (double *)nn_tensor_data(y) + o * c, c, log_out);
        } else {
            softmax_rows_arg ra = {nn_tensor_data(x), NULL, nn_tensor_data(y), c, log_out};
            rows_parallel(outer, c, NN_PAR_MIN_DEAR, softmax_rows_part, &ra);
        }
    } else if (y && is_f64(a)) {
        const double *xp = nn_tensor_data(x);
        double *yp = nn_tensor_data(y);
        if (!(log_out ? nn_cols_log_softmax_f64(xp, yp, outer, c, inner)
                      : nn_cols_softmax_f64(xp, yp, outer, c, inner, nn_get_num_threads())))
            softmax_cols_double(xp, yp, outer, c, inner, log_out);
    } else if (y) {
        const float *xp = nn_tensor_data(x);
        float *yp = nn_tensor_data(y);
        if (!(log_out ? nn_cols_log_softmax_f32(xp, yp, outer, c, inner)
                      : nn_cols_softmax_f32(xp, yp, outer, c, inner, nn_get_num_threads())))
            softmax_cols_float(xp, yp, outer, c, inner, log_out);
    }
    nn_tensor_release(x);
    return y;
}

static nn_status softmax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                                  bool log_out) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *y = node->out;
    int64_t outer, c, inner;
    split3(y, (int)node->p.i[0], &outer, &c, &inner);
    nn_tensor *g = dense(ctx, dout, y->dtype), *yd = g ? dense(ctx, y, y->dtype) : NULL;
    /* Rows of float32 write dx over the output gradient when nothing else
     * reads it (the row kernels read a row of g before they write it): as
     * PyTorch's softmax_backward_data, one buffer of the scores' size
     * fewer for attention's [B, H, T, T]. */
    bool rows = y->ndim == 0 || node->p.i[0] == y->ndim - 1;
    bool over = rows && !is_f64(y) && g == dout && node->in[0].fn && ctx->grad_out_writable &&
                dout->refcount == 2 && dout->storage->refcount == 1 && !dout->requires_grad;
    nn_tensor *dx = !yd    ? NULL
                    : over ? nn_tensor_retain(dout)
                           : nn_tensor_empty(ctx, y->dtype, y->ndim, y->shape);
    if (dx && nn_tensor_numel(y) == 0) {
        /* nothing to compute (a dim of size 0) */
    } else if (dx && rows && !is_f64(y)) {
        softmax_rows_arg ra = {nn_tensor_data(yd), nn_tensor_data(g), nn_tensor_data(dx), c,
                               log_out};
        rows_parallel(outer, c, NN_PAR_MIN_ELEMWISE, softmax_grad_rows_part, &ra);
    } else if (dx && rows &&
               nn_rows_softmax_grad_f64(nn_tensor_data(g), nn_tensor_data(yd), nn_tensor_data(dx),
                                        outer, c, log_out)) {
        /* float64 rows with PyTorch's bits (ops_rows.c) */
    } else if (dx && is_f64(y)) {
        const double *gp = nn_tensor_data(g), *yp = nn_tensor_data(yd);
        double *dp = nn_tensor_data(dx);
        if (!nn_cols_softmax_grad_f64(gp, yp, dp, outer, c, inner, log_out))
            softmax_cols_grad_double(gp, yp, dp, outer, c, inner, log_out);
    } else if (dx) {
        const float *gp = nn_tensor_data(g), *yp = nn_tensor_data(yd);
        float *dp = nn_tensor_data(dx);
        if (!nn_cols_softmax_grad_f32(gp, yp, dp, outer, c, inner, log_out))
            softmax_cols_grad_float(gp, yp, dp, outer, c, inner, log_out);
    }
    nn_tensor_release(g);
    nn_tensor_release(yd);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

nn_tensor *op_softmax_forward(nn_ctx *ctx, nn_node *node) {
    return softmax_forward(ctx, node, false);
}
nn_status op_softmax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return softmax_backward(ctx, node, dout, din, false);
}
nn_tensor *op_log_softmax_forward(nn_ctx *ctx, nn_node *node) {
    return softmax_forward(ctx, node, true);
}
nn_status op_log_softmax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return softmax_backward(ctx, node, dout, din, true);
}

/* ---- class losses: cross_entropy and nll_loss ----
 * params: i[0] ignore_index, i[1] reduction, f[0] label smoothing (cross
 * entropy only); the forward stores the number of counted targets in f[3]
 * for the backward's mean. Logits are viewed as [N, C, S] (S the product of
 * the trailing dims d1..dk), targets as [N, S]. */

typedef struct cls_geom {
    int64_t n, c, s;
    bool probs; /* float target: class probabilities of the logits' shape */
} cls_geom;

static nn_status class_geom(nn_ctx *ctx, const char *op, const nn_tensor *x, const nn_tensor *t,
                            bool allow_probs, cls_geom *g) {
    char a[128], b[128], e[128];
    if (x->ndim == 0)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s: the input must have a class dim ([C], [N, C] or [N, C, d...]); "
                            "got a 0-dim tensor",
                            op);
    /* A batch that differs from the target's (a target of another shape;
     * a 0-dim one counts as 0) is checked first, as PyTorch's nll_loss_nd
     * does, with its ValueError in its words. */
    int64_t tb = t->ndim ? t->shape[0] : 0;
    if (x->ndim >= 2 && !nn_tensor_same_shape(x, t) && tb != x->shape[0])
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "Expected input batch_size (%lld) to match target batch_size (%lld).",
                            (long long)x->shape[0], (long long)tb);
    g->c = x->ndim == 1 ? x->shape[0] : x->shape[1];
    g->n = x->ndim == 1 ? 1 : x->shape[0];
    g->s = 1;
    for (int i = 2; i < x->ndim; i++) g->s *= x->shape[i];
    g->probs = nn_dtype_is_float(t->dtype);
    if (g->probs) {
        if (!allow_probs)
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "%s: the target must be int64 class indices, not %s", op,
                                nn_dtype_name(t->dtype));
        if (!nn_tensor_same_shape(x, t))
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "%s: a float target holds class probabilities and must have the "
                                "input's shape %s; got %s (for class indices pass an int64 "
                                "target)",
                                op, shape_s(x, a, sizeof a), shape_s(t, b, sizeof b));
        return NN_OK;
    }
    if (t->dtype != NN_INT64)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: the target must be int64 class indices%s, not %s (convert it "
                            "with .long())",
                            op, allow_probs ? " or float class probabilities" : "",
                            nn_dtype_name(t->dtype));
    /* The expected index target: the input's shape without the class dim. */
    int64_t want[NN_MAX_DIMS];
    int nw = 0;
    for (int i = 0; i < x->ndim; i++)
        if (i != (x->ndim == 1 ? 0 : 1)) want[nw++] = x->shape[i];
    bool ok = t->ndim == nw;
    for (int i = 0; ok && i < nw; i++) ok = t->shape[i] == want[i];
    if (!ok)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s: input of shape %s (class dim %d) needs a target of shape %s; "
                            "got %s",
                            op, shape_s(x, a, sizeof a), x->ndim == 1 ? 0 : 1,
                            nn_shape_str(e, sizeof e, nw, want), shape_s(t, b, sizeof b));
    return NN_OK;
}

/* Every target is a class in [0, C) or ignore_index; the count of the rest. */
static nn_status check_targets(nn_ctx *ctx, const char *op, const int64_t *t, int64_t n, int64_t c,
                               int64_t ignore, int64_t *count) {
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (t[i] == ignore) continue;
        if (t[i] < 0 || t[i] >= c)
            return nn_error_set(&ctx->err, NN_ERR_INDEX,
                                "%s: target %lld (at position %lld) is out of bounds for %lld "
                                "classes; targets must lie in [0, %lld) or equal ignore_index "
                                "(%lld)",
                                op, (long long)t[i], (long long)i, (long long)c, (long long)c,
                                (long long)ignore);
        k++;
    }
    *count = k;
    return NN_OK;
}

/* One pass per (n, s): log-softmax over C into [logp], then the loss of
 * that position, into [loss] (reduction none) or summed into *total. */
KERNEL void ce_kernel(const void *x, void *logp, const int64_t *tgt, const void *probs, void *loss,
                      double *total, const cls_geom *g, int64_t ignore, double ls, bool f64) {
    int64_t c = g->c, s = g->s;
    double acc = 0;
    for (int64_t n = 0; n < g->n; n++) {
        for (int64_t j = 0; j < s; j++) {
            int64_t base = n * c * s + j, pos = n * s + j;
            double m = -INFINITY, sum = 0;
            for (int64_t k = 0; k < c; k++) {
                double v = ld(x, base + k * s, f64);
                if (v > m || isnan(v)) m = v;
            }
            for (int64_t k = 0; k < c; k++) sum += ex(ld(x, base + k * s, f64) - m, f64);
            double lse = m + lg(sum, f64);
            for (int64_t k = 0; k < c; k++)
                st(logp, base + k * s, ld(x, base + k * s, f64) - lse, f64);
            double l = 0;
            if (probs) {
                /* -sum_k t'_k logp_k with t' = (1 - ls) t + ls / C */
                for (int64_t k = 0; k < c; k++) {
                    double tk = (1 - ls) * ld(probs, base + k * s, f64) + ls / (double)c;
                    if (tk != 0) l -= tk * ld(logp, base + k * s, f64);
                }
            } else if (tgt[pos] != ignore) {
                l = -(1 - ls) * ld(logp, base + tgt[pos] * s, f64);
                /* Skipped at ls == 0 so that a -inf logit (a masked class)
                 * does not turn 0 * -inf into nan. */
                if (ls > 0) {
                    double sl = 0;
                    for (int64_t k = 0; k < c; k++) sl += ld(logp, base + k * s, f64);
                    l -= ls / (double)c * sl;
                }
            }
            if (loss)
                st(loss, pos, l, f64);
            else
                acc += l;
        }
    }
    *total = acc;
}
static void ce_f32(const void *x, void *lp, const int64_t *t, const void *pr, void *loss,
                   double *tot, const cls_geom *g, int64_t ig, double ls) {
    ce_kernel(x, lp, t, pr, loss, tot, g, ig, ls, false);
}
static void ce_f64(const void *x, void *lp, const int64_t *t, const void *pr, void *loss,
                   double *tot, const cls_geom *g, int64_t ig, double ls) {
    ce_kernel(x, lp, t, pr, loss, tot, g, ig, ls, true);
}

/* Cross entropy over contiguous rows (index targets, no trailing dims: the
 * [N, C] case of every classifier) in the storage type: the log-softmax
 * row, then the loss from it. Targets are already checked. */
/* Row [b]'s loss [l] into nll_loss's partial sums (nll_cascade_f32's
 * levels, in double): PyTorch 1.13 adds a float64 loss that way too. */
static inline void nll_cascade_add(double *p, double l, int64_t b) {
    p[0] += l;
    for (int j = 0; j + 1 < 8; j++) {
        if (b & ((int64_t)15 << (4 * j))) break;
        p[j + 1] += p[j];
        p[j] = 0;
    }
}

#define CE_ROWS(T)                                                                                 \
    static void ce_rows_##T(const T *x, T *logp, const int64_t *tgt, T *loss, double *total,       \
                            int64_t n, int64_t c, int64_t ignore, double ls) {                     \
        double acc = 0, p[8] = {0};                                                                \
        bool pt_rows = ROWS_PT_##T(x, logp, n, c);                                                 \
        for (int64_t r = 0; r < n; r++) {                                                          \
            const T *xr = x + r * c;                                                               \
            T *lr = logp + r * c;                                                                  \
            if (!pt_rows) softmax_row_##T(xr, lr, c, true);                                        \
            double l = 0;                                                                          \
            if (tgt[r] != ignore) {                                                                \
                l = -(1 - ls) * (double)lr[tgt[r]];                                                \
                if (ls > 0) l -= ls / (double)c * sum_run_##T(lr, c);                              \
            }                                                                                      \
            if (loss)                                                                              \
                loss[r] = (T)l;                                                                    \
            else if (ls == 0 && tgt[r] != ignore)                                                  \
                nll_cascade_add(p, l, r);                                                          \
            else                                                                                   \
                acc += l;                                                                          \
        }                                                                                          \
        for (int j = 0; j < 8; j++) acc += p[j];                                                   \
        *total = acc;                                                                              \
    }
/* The log-softmax rows with PyTorch's bits where nndb has them
 * (nn_rows_softmax_f64: SLEEF's exp and log in its vector order). */
#define ROWS_PT_double(x, logp, n, c) nn_rows_softmax_f64(x, logp, n, c, true)
CE_ROWS(double)

/* The sum of nll_loss's per-position losses as PyTorch 1.13 adds them in
 * float (nll_loss_out_frame, and nll_loss2d_forward_out_frame for inputs
 * with trailing dims, [N, C, S] here): partial sums on 8 levels, level j
 * folded into level j + 1 whenever the position's index b S + s is a
 * multiple of 16^(j+1), ignored positions skipped, the levels added in
 * order at the end. The loss at position p is -x[(b c + tgt[p]) S + s], or
 * rl[p] when [x] is NULL. Checked bit for bit against PyTorch
 * (tests/py/softmax_bits.py, tests/py/class_loss_dims_bits.py). */
static double nll_cascade_f32(const float *x, int64_t c, int64_t S, const double *rl,
                              const int64_t *tgt, int64_t n, int64_t ignore) {
    float p[8] = {0};
    for (int64_t b = 0; b < n * S; b++) {
        if (tgt[b] == ignore) continue;
        p[0] -= x ? x[((b / S) * c + tgt[b]) * S + b % S] : -(float)rl[b];
        for (int j = 0; j + 1 < 8; j++) {
            if (b & ((int64_t)15 << (4 * j))) break;
            p[j + 1] += p[j];
            p[j] = 0;
        }
    }
    float o = 0;
    for (int j = 0; j < 8; j++) o += p[j];
    return o;
}

/* float32 rows split across the engine's threads (a 50257-class LM head
 * has 6M logits at 128 positions): each task takes whole rows and writes
 * their losses into [rl]; the caller adds them in row order, so the result
 * has the same bits at any thread count. Without [logp] (a forward that
 * keeps nothing for backward) the log-softmax rows are not written. */
typedef struct ce_rows_job {
    const float *x;
    float *logp, *stats;
    const int64_t *tgt;
    double *rl;
    int64_t n, c, ignore;
    double ls;
} ce_rows_job;

static void ce_rows_task(void *arg, int task, int n_tasks) {
    const ce_rows_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->n, task, n_tasks, 1, &b, &e);
    if (!j->logp && j->ls == 0) {
        nn_rows_cross_entropy_f32(j->x + b * j->c, j->tgt + b, j->ignore, j->rl + b,
                                  j->stats ? j->stats + 2 * b : NULL, e - b, j->c);
        return;
    }
    /* All the task's rows in one call: rows of a few classes then run eight
     * side by side (ops_rows.c), with the same arithmetic per element. */
    nn_rows_softmax_f32(j->x + b * j->c, j->logp + b * j->c, e - b, j->c, true);
    for (int64_t r = b; r < e; r++) {
        float *lr = j->logp + r * j->c;
        double l = 0;
        if (j->tgt[r] != j->ignore) {
            l = -(1 - j->ls) * (double)lr[j->tgt[r]];
            if (j->ls > 0) l -= j->ls / (double)j->c * sum_run_float(lr, j->c);
        }
        j->rl[r] = l;
    }
}

static void ce_rows_float(const float *x, float *logp, float *stats, const int64_t *tgt,
                          float *loss, double *total, double *rl, int64_t n, int64_t c,
                          int64_t ignore, double ls) {
    ce_rows_job j = {x, logp, stats, tgt, rl, n, c, ignore, ls};
    int tasks = nn_parallel_tasks(n * c, NN_PAR_MIN_DEAR);
    if (tasks > n) tasks = (int)n;
    nn_parallel_run(tasks, ce_rows_task, &j);
    if (loss) {
        for (int64_t r = 0; r < n; r++) loss[r] = (float)rl[r];
        *total = 0;
        return;
    }
    /* Without label smoothing the loss is nll_loss's of the log-softmax:
     * PyTorch's float sum. */
    if (ls == 0) {
        *total = nll_cascade_f32(NULL, 0, 1, rl, tgt, n, ignore);
        return;
    }
    double acc = 0;
    for (int64_t r = 0; r < n; r++) acc += rl[r];
    *total = acc;
}

/* dx = gs (softmax - (1 - ls) onehot - ls / C) per row, zero for ignored rows. */
#define CE_GRAD_ROWS(T, EXP)                                                                       \
    static void ce_grad_rows_##T(const T *logp, const int64_t *tgt, const T *gout, double g0,      \
                                 T *dx, int64_t n, int64_t c, int64_t ignore, double ls) {         \
        T u = (T)(ls / (double)c);                                                                 \
        for (int64_t r = 0; r < n; r++) {                                                          \
            const T *lr = logp + r * c;                                                            \
            T *dr = dx + r * c;                                                                    \
            if (tgt[r] == ignore) {                                                                \
                memset(dr, 0, sizeof(T) * (size_t)c);                                              \
                continue;                                                                          \
            }                                                                                      \
            T gs = (T)(gout ? (double)gout[r] : g0);                                               \
            for (int64_t k = 0; k < c; k++) dr[k] = gs * (EXP(lr[k]) - u);                         \
            dr[tgt[r]] -= gs * (T)(1 - ls);                                                        \
        }                                                                                          \
    }
CE_GRAD_ROWS(float, nn_expf)
CE_GRAD_ROWS(double, exp)

typedef struct ce_grad_rows_arg {
    const float *logp;
    const int64_t *tgt;
    const float *gout;
    double g0;
    float *dx;
    int64_t c, ignore;
    double ls;
} ce_grad_rows_arg;

/* ce_grad_rows_float when one gradient scales every row (a mean or sum):
 * the exp over the block as one flat loop, which vectorises where a row of
 * three classes does not; then the target's term and ignored rows. The same
 * operations per element in the same order as the row loop. */
NN_KERNEL_CLONES static void ce_grad_block_f32(const float *logp, const int64_t *tgt, float gs,
                                               float *restrict dx, int64_t n, int64_t c,
                                               int64_t ignore, double ls) {
    float u = (float)(ls / (double)c), keep = (float)(1 - ls);
    for (int64_t i = 0; i < n * c; i++) dx[i] = gs * (nn_expf(logp[i]) - u);
    for (int64_t r = 0; r < n; r++) {
        float *dr = dx + r * c;
        if (tgt[r] == ignore)
            memset(dr, 0, sizeof(float) * (size_t)c);
        else
            dr[tgt[r]] -= gs * keep;
    }
}

typedef struct ce_stats_arg {
    const float *x, *stats;
    const int64_t *tgt;
    const float *gout;
    float g0;
    float *dx;
    int64_t c, ignore;
} ce_stats_arg;

static void ce_stats_part(void *arg, int64_t b, int64_t e) {
    const ce_stats_arg *a = arg;
    nn_rows_cross_entropy_grad_f32(a->x + b * a->c, a->stats + 2 * b, a->tgt + b, a->ignore,
                                   a->gout ? a->gout + b : NULL, a->g0, a->dx + b * a->c, e - b,
                                   a->c);
}

static void ce_grad_rows_part(void *arg, int64_t b, int64_t e) {
    const ce_grad_rows_arg *a = arg;
    if (a->ls == 0 &&
        nn_rows_ce_grad_f32(a->logp + b * a->c, a->tgt + b, a->gout ? a->gout + b : NULL,
                            (float)a->g0, a->dx + b * a->c, e - b, a->c, a->ignore))
        return;
    if (!a->gout) {
        ce_grad_block_f32(a->logp + b * a->c, a->tgt + b, (float)a->g0, a->dx + b * a->c, e - b,
                          a->c, a->ignore, a->ls);
        return;
    }
    ce_grad_rows_float(a->logp + b * a->c, a->tgt + b, a->gout ? a->gout + b : NULL, a->g0,
                       a->dx + b * a->c, e - b, a->c, a->ignore, a->ls);
}

/* The output of a class loss: per position (reduction none, shaped like the
 * target without its class dim) or one number. */
static nn_tensor *class_loss_out(nn_ctx *ctx, nn_dtype dt, const nn_tensor *x, nn_reduction red) {
    if (red != NN_REDUCTION_NONE) return nn_tensor_empty(ctx, dt, 0, NULL);
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    for (int i = 0; i < x->ndim; i++)
        if (i != (x->ndim == 1 ? 0 : 1)) shape[nd++] = x->shape[i];
    return nn_tensor_empty(ctx, dt, nd, shape);
}

/* Reduce *total into the 0-dim output: mean divides by [count] (0/0 is nan
 * when every target is ignored, as in PyTorch). */
static void class_loss_finish(nn_tensor *out, nn_reduction red, double total, double count) {
    if (red == NN_REDUCTION_NONE) return;
    nn_tensor_set_flat(out, 0, red == NN_REDUCTION_MEAN ? total / count : total);
}

nn_tensor *op_cross_entropy_forward(nn_ctx *ctx, nn_node *node) {
    const char *op = "cross_entropy";
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t;
    nn_reduction red = (nn_reduction)node->p.i[1];
    int64_t ignore = node->p.i[0];
    double ls = node->p.f[0];
    cls_geom g;
    if (!need_float(ctx, op, "the input (logits)", xin)) return NULL;
    if (class_geom(ctx, op, xin, tin, true, &g)) return NULL;
    nn_dtype dt = xin->dtype;
    bool f64 = is_f64(xin);
    nn_tensor *x = dense(ctx, xin, dt);
    nn_tensor *t = x ? dense(ctx, tin, g.probs ? dt : NN_INT64) : NULL;
    /* The float32 rows of index targets skip the log-softmax when nothing
     * keeps it for backward; they need a double per row instead. */
    bool rows32 = !g.probs && g.s == 1 && !f64;
    /* Recorded without label smoothing, those rows keep each row's max and
     * log-sum-exp (8 bytes a row) for backward instead of the log-softmax
     * (as large as the logits: 196 MiB for a GPT-2 head over 1024
     * positions), and backward recomputes the log-softmax from the logits,
     * which the node keeps as its input (PyTorch keeps the log-softmax). */
    bool stats32 = rows32 && node->recorded && ls == 0;
    /* Label smoothing sums the whole log-softmax row, so it needs the rows
     * written even when backward will not keep them. */
    bool rows = (node->recorded && !stats32) || ls != 0;
    nn_tensor *logp = !t                ? NULL
                      : rows32 && !rows ? scratch(ctx, g.n)
                                        : nn_tensor_empty(ctx, dt, xin->ndim, xin->shape);
    nn_tensor *rl = logp && rows32 && rows ? scratch(ctx, g.n) : NULL;
    int64_t stats_shape[2] = {g.n, 2};
    nn_tensor *stats = logp && stats32 ? nn_tensor_empty(ctx, NN_FLOAT32, 2, stats_shape) : NULL;
    nn_tensor *out = logp && (rl || !rows32 || !rows) && (stats || !stats32)
                         ? class_loss_out(ctx, dt, xin, red)
                         : NULL;
    if (!out) goto fail;
    int64_t count = g.n * g.s;
    if (!g.probs && check_targets(ctx, op, nn_tensor_data(t), g.n * g.s, g.c, ignore, &count))
        goto fail;
    double total = 0;
    const int64_t *tp = g.probs ? NULL : nn_tensor_data(t);
    const void *pp = g.probs ? nn_tensor_data(t) : NULL;
    void *lp = red == NN_REDUCTION_NONE ? nn_tensor_data(out) : NULL;
    if (tp && g.s == 1 && f64)
        ce_rows_double(nn_tensor_data(x), nn_tensor_data(logp), tp, lp, &total, g.n, g.c, ignore,
                       ls);
    else if (rows32)
        ce_rows_float(nn_tensor_data(x), rows ? nn_tensor_data(logp) : NULL,
                      stats ? nn_tensor_data(stats) : NULL, tp, lp, &total,
                      nn_tensor_data(rows ? rl : logp), g.n, g.c, ignore, ls);
    else if (f64)
        ce_f64(nn_tensor_data(x), nn_tensor_data(logp), tp, pp, lp, &total, &g, ignore, ls);
    else
        ce_f32(nn_tensor_data(x), nn_tensor_data(logp), tp, pp, lp, &total, &g, ignore, ls);
    class_loss_finish(out, red, total, (double)count);
    node->p.f[3] = (double)count;
    node->p.i[3] = stats32; /* saved[0]: the row stats, not the log-softmax */
    if (node->recorded) node->saved[0] = nn_tensor_retain(stats32 ? stats : logp);
    nn_tensor_release(x);
    nn_tensor_release(t);
    nn_tensor_release(logp);
    nn_tensor_release(rl);
    nn_tensor_release(stats);
    return out;
fail:
    nn_tensor_release(x);
    nn_tensor_release(t);
    nn_tensor_release(logp);
    nn_tensor_release(rl);
    nn_tensor_release(stats);
    nn_tensor_release(out);
    return NULL;
}

/* The upstream gradient of position [pos]: dout itself per position, or the
 * scalar dout (divided by the count for mean). */
KERNEL double pos_grad(const void *g, int64_t pos, double g0, bool per_pos, bool f64) {
    return per_pos ? ld(g, pos, f64) : g0;
}

/* dx_c = gs (p_c sum_k t'_k - t'_c) with t' the smoothed target; for an
 * index target t' = (1 - ls) onehot + ls / C, so dx_c = gs (p_c - t'_c). */
KERNEL void ce_grad_kernel(const void *logp, const int64_t *tgt, const void *probs,
                           const void *gout, double g0, bool per_pos, void *dx, void *dt,
                           const cls_geom *g, int64_t ignore, double ls, bool f64) {
    int64_t c = g->c, s = g->s;
    double u = ls / (double)c;
    for (int64_t n = 0; n < g->n; n++) {
        for (int64_t j = 0; j < s; j++) {
            int64_t base = n * c * s + j, pos = n * s + j;
            double gs = pos_grad(gout, pos, g0, per_pos, f64);
            if (probs) {
                double tsum = 0;
                for (int64_t k = 0; k < c; k++) tsum += ld(probs, base + k * s, f64);
                tsum = (1 - ls) * tsum + ls;
                for (int64_t k = 0; k < c; k++) {
                    int64_t i = base + k * s;
                    double lp = ld(logp, i, f64);
                    double tk = (1 - ls) * ld(probs, i, f64) + u;
                    if (dx) st(dx, i, gs * (ex(lp, f64) * tsum - tk), f64);
                    if (dt) st(dt, i, -gs * (1 - ls) * lp, f64);
                }
                continue;
            }
            if (!dx) continue;
            int64_t t = tgt[pos];
            if (t == ignore) {
                for (int64_t k = 0; k < c; k++) st(dx, base + k * s, 0.0, f64);
                continue;
            }
            for (int64_t k = 0; k < c; k++) {
                double p = ex(ld(logp, base + k * s, f64), f64);
                st(dx, base + k * s, gs * (p - u - (k == t ? 1 - ls : 0)), f64);
            }
        }
    }
}
static void ce_grad_f32(const void *lp, const int64_t *t, const void *pr, const void *go, double g0,
                        bool pp, void *dx, void *dt, const cls_geom *g, int64_t ig, double ls) {
    ce_grad_kernel(lp, t, pr, go, g0, pp, dx, dt, g, ig, ls, false);
}
static void ce_grad_f64(const void *lp, const int64_t *t, const void *pr, const void *go, double g0,
                        bool pp, void *dx, void *dt, const cls_geom *g, int64_t ig, double ls) {
    ce_grad_kernel(lp, t, pr, go, g0, pp, dx, dt, g, ig, ls, true);
}

/* The scalar upstream gradient for mean/sum reductions. */
static double reduced_grad(const nn_tensor *dout, nn_reduction red, double count) {
    if (red == NN_REDUCTION_NONE) return 0;
    double g0 = first(dout);
    return red == NN_REDUCTION_MEAN ? g0 / count : g0;
}

nn_status op_cross_entropy_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t, *logp = node->saved[0];
    bool want_x = node->in[0].needs_grad, want_t = node->in[1].needs_grad;
    if (!want_x && !want_t) return NN_OK;
    NN_ASSERT(logp != NULL);
    nn_reduction red = (nn_reduction)node->p.i[1];
    cls_geom g;
    if (class_geom(ctx, "cross_entropy", xin, tin, true, &g)) return ctx->err.code;
    nn_dtype dt = xin->dtype;
    bool f64 = dt == NN_FLOAT64, from_stats = node->p.i[3] != 0;
    double g0 = reduced_grad(dout, red, node->p.f[3]);
    nn_tensor *t = dense(ctx, tin, g.probs ? dt : NN_INT64);
    nn_tensor *go = t && red == NN_REDUCTION_NONE ? dense(ctx, dout, dt) : NULL;
    nn_tensor *dx = NULL, *dtg = NULL, *xd = NULL;
    nn_status stt = NN_OK;
    if (!t || (red == NN_REDUCTION_NONE && !go) || (from_stats && !(xd = dense(ctx, xin, dt))) ||
        (want_x && !(dx = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape))) ||
        (want_t && g.probs && !(dtg = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape)))) {
        stt = ctx->err.code;
        goto done;
    }
    const int64_t *tp = g.probs ? NULL : nn_tensor_data(t);
    const void *pp = g.probs ? nn_tensor_data(t) : NULL, *gp = go ? nn_tensor_data(go) : NULL;
    void *dxp = dx ? nn_tensor_data(dx) : NULL, *dtp = dtg ? nn_tensor_data(dtg) : NULL;
    if (from_stats) {
        if (dxp) {
            ce_stats_arg sa = {
                nn_tensor_data(xd), nn_tensor_data(logp), tp, gp, (float)g0, dxp, g.c,
                node->p.i[0]};
            rows_parallel(g.n, g.c, NN_PAR_MIN_DEAR, ce_stats_part, &sa);
        }
    } else if (tp && g.s == 1 && f64) {
        if (node->p.f[0] != 0 || !dxp ||
            !nn_rows_ce_grad_f64(nn_tensor_data(logp), tp, gp, g0, dxp, g.n, g.c, node->p.i[0]))
            ce_grad_rows_double(nn_tensor_data(logp), tp, gp, g0, dxp, g.n, g.c, node->p.i[0],
                                node->p.f[0]);
    } else if (tp && g.s == 1) {
        ce_grad_rows_arg ra = {nn_tensor_data(logp), tp,          gp, g0, dxp, g.c,
                               node->p.i[0],         node->p.f[0]};
        rows_parallel(g.n, g.c, NN_PAR_MIN_DEAR, ce_grad_rows_part, &ra);
    } else if (f64)
        ce_grad_f64(nn_tensor_data(logp), tp, pp, gp, g0, go != NULL, dxp, dtp, &g, node->p.i[0],
                    node->p.f[0]);
    else
        ce_grad_f32(nn_tensor_data(logp), tp, pp, gp, g0, go != NULL, dxp, dtp, &g, node->p.i[0],
                    node->p.f[0]);
    din[0] = dx;
    din[1] = dtg;
    dx = dtg = NULL;
done:
    nn_tensor_release(t);
    nn_tensor_release(go);
    nn_tensor_release(xd);
    nn_tensor_release(dx);
    nn_tensor_release(dtg);
    return stt;
}

/* nll_loss: loss = -logp[target] per counted position. */
KERNEL void nll_kernel(const void *x, const int64_t *tgt, void *loss, double *total,
                       const cls_geom *g, int64_t ignore, bool f64) {
    double acc = 0;
    for (int64_t n = 0; n < g->n; n++) {
        for (int64_t j = 0; j < g->s; j++) {
            int64_t pos = n * g->s + j, t = tgt[pos];
            double l = t == ignore ? 0 : -ld(x, (n * g->c + t) * g->s + j, f64);
            if (loss)
                st(loss, pos, l, f64);
            else
                acc += l;
        }
    }
    *total = acc;
}
static void nll_f32(const void *x, const int64_t *t, void *loss, double *tot, const cls_geom *g,
                    int64_t ig) {
    if (!loss)
        *tot = nll_cascade_f32(x, g->c, g->s, NULL, t, g->n, ig); /* PyTorch's float sum */
    else
        nll_kernel(x, t, loss, tot, g, ig, false);
}
static void nll_f64(const void *x, const int64_t *t, void *loss, double *tot, const cls_geom *g,
                    int64_t ig) {
    if (loss) {
        nll_kernel(x, t, loss, tot, g, ig, true);
        return;
    }
    const double *xd = x;
    double p[8] = {0}, acc = 0; /* PyTorch's double sum, as nll_f32's */
    for (int64_t b = 0; b < g->n * g->s; b++)
        if (t[b] != ig) nll_cascade_add(p, -xd[((b / g->s) * g->c + t[b]) * g->s + b % g->s], b);
    for (int j = 0; j < 8; j++) acc += p[j];
    *tot = acc;
}

KERNEL void nll_grad_kernel(const int64_t *tgt, const void *gout, double g0, bool per_pos, void *dx,
                            const cls_geom *g, int64_t ignore, bool f64) {
    for (int64_t n = 0; n < g->n; n++) {
        for (int64_t j = 0; j < g->s; j++) {
            int64_t pos = n * g->s + j, t = tgt[pos];
            if (t != ignore)
                st(dx, (n * g->c + t) * g->s + j, -pos_grad(gout, pos, g0, per_pos, f64), f64);
        }
    }
}
static void nll_grad_f32(const int64_t *t, const void *go, double g0, bool pp, void *dx,
                         const cls_geom *g, int64_t ig) {
    nll_grad_kernel(t, go, g0, pp, dx, g, ig, false);
}
static void nll_grad_f64(const int64_t *t, const void *go, double g0, bool pp, void *dx,
                         const cls_geom *g, int64_t ig) {
    nll_grad_kernel(t, go, g0, pp, dx, g, ig, true);
}

nn_tensor *op_nll_loss_forward(nn_ctx *ctx, nn_node *node) {
    const char *op = "nll_loss";
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t;
    nn_reduction red = (nn_reduction)node->p.i[1];
    int64_t ignore = node->p.i[0], count = 0;
    cls_geom g;
    if (!need_float(ctx, op, "the input (log-probabilities)", xin)) return NULL;
    if (class_geom(ctx, op, xin, tin, false, &g)) return NULL;
    nn_dtype dt = xin->dtype;
    nn_tensor *x = dense(ctx, xin, dt), *t = x ? dense(ctx, tin, NN_INT64) : NULL;
    nn_tensor *out = t ? class_loss_out(ctx, dt, xin, red) : NULL;
    if (out && check_targets(ctx, op, nn_tensor_data(t), g.n * g.s, g.c, ignore, &count)) {
        nn_tensor_release(out);
        out = NULL;
    }
    if (out) {
        double total = 0;
        void *lp = red == NN_REDUCTION_NONE ? nn_tensor_data(out) : NULL;
        if (is_f64(xin))
            nll_f64(nn_tensor_data(x), nn_tensor_data(t), lp, &total, &g, ignore);
        else
            nll_f32(nn_tensor_data(x), nn_tensor_data(t), lp, &total, &g, ignore);
        class_loss_finish(out, red, total, (double)count);
        node->p.f[3] = (double)count;
    }
    nn_tensor_release(x);
    nn_tensor_release(t);
    return out;
}

nn_status op_nll_loss_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t;
    nn_reduction red = (nn_reduction)node->p.i[1];
    cls_geom g;
    if (class_geom(ctx, "nll_loss", xin, tin, false, &g)) return ctx->err.code;
    nn_dtype dt = nn_float_dtype(dout->dtype);
    double g0 = reduced_grad(dout, red, node->p.f[3]);
    nn_tensor *t = dense(ctx, tin, NN_INT64);
    nn_tensor *go = t && red == NN_REDUCTION_NONE ? dense(ctx, dout, dt) : NULL;
    nn_tensor *dx =
        t && (red != NN_REDUCTION_NONE || go) ? nn_zeros(ctx, dt, xin->ndim, xin->shape) : NULL;
    if (dx) {
        const void *gp = go ? nn_tensor_data(go) : NULL;
        if (dt == NN_FLOAT64)
            nll_grad_f64(nn_tensor_data(t), gp, g0, go != NULL, nn_tensor_data(dx), &g,
                         node->p.i[0]);
        else
            nll_grad_f32(nn_tensor_data(t), gp, g0, go != NULL, nn_tensor_data(dx), &g,
                         node->p.i[0]);
    }
    nn_tensor_release(t);
    nn_tensor_release(go);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

/* ---- pointwise losses: mse_loss, binary_cross_entropy (+ with logits) ----
 * params: i[0] reduction. The loss of each element depends on (x, t) only;
 * mse broadcasts x against t (as PyTorch does), the BCE pair needs equal
 * shapes. */

typedef enum pw_kind { PW_MSE, PW_BCE, PW_BCEL } pw_kind;

static const char *const pw_names[] = {"mse_loss", "binary_cross_entropy",
                                       "binary_cross_entropy_with_logits"};

/* The gradients as PyTorch 1.13's CPU kernels compute them, in the
 * tensor's own type, with [g] the output gradient (per element, or the
 * reduced loss's as T) and [n] the element count (0: no mean):
 * - mse_loss_backward: (T(norm) (x - t)) g with norm 2/n or 2; the
 *   target's is the same with x and t swapped, which is exactly its
 *   negation;
 * - binary_cross_entropy_backward: g (x - t) / max((1 - x) x, 1e-12), then
 *   divided by n; the target's, -logit(x) g / n, stays a double formula
 *   (1.13 takes logit's vector log for whole 16-float runs, libm's for the
 *   rest, which this does not follow);
 * - binary_cross_entropy_with_logits_backward: (sigmoid(x) - t) g, then
 *   divided by n, with [sig] = sigmoid(x) from the sigmoid op; the
 *   target's -x g, divided by n. */
#define PW_GRAD(NAME, T)                                                                           \
    NN_KERNEL_CLONES static void NAME(pw_kind k, const T *x, const T *t, const T *sig,             \
                                      const T *go, T g0, int64_t n, T *dx, T *dt, int64_t count) { \
        T norm = (T)(n ? 2.0 / (double)n : 2.0), nt = (T)n;                                        \
        if (k == PW_MSE && !go) { /* the reduced loss's: a loop that vectorises */                 \
            for (int64_t i = 0; i < count; i++) {                                                  \
                T d = norm * (x[i] - t[i]) * g0;                                                   \
                if (dx) dx[i] = d;                                                                 \
                if (dt) dt[i] = -d;                                                                \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < count; i++) {                                                      \
            T g = go ? go[i] : g0;                                                                 \
            if (k == PW_MSE) {                                                                     \
                T d = norm * (x[i] - t[i]) * g;                                                    \
                if (dx) dx[i] = d;                                                                 \
                if (dt) dt[i] = -d;                                                                \
            } else if (k == PW_BCE) {                                                              \
                if (dx) {                                                                          \
                    T w = ((T)1 - x[i]) * x[i];                                                    \
                    T d = g * (x[i] - t[i]) / (w > (T)1e-12 ? w : (T)1e-12);                       \
                    dx[i] = n ? d / nt : d;                                                        \
                }                                                                                  \
                if (dt) {                                                                          \
                    double d = (double)g * (log1p(-(double)x[i]) - log((double)x[i]));             \
                    dt[i] = (T)(n ? d / (double)n : d);                                            \
                }                                                                                  \
            } else {                                                                               \
                if (dx) {                                                                          \
                    T d = (sig[i] - t[i]) * g;                                                     \
                    dx[i] = n ? d / nt : d;                                                        \
                }                                                                                  \
                if (dt) {                                                                          \
                    T d = -x[i] * g;                                                               \
                    dt[i] = n ? d / nt : d;                                                        \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
PW_GRAD(pw_grad_f32, float)
PW_GRAD(pw_grad_f64, double)

/* The element losses as PyTorch 1.13's CPU kernels compute them, in the
 * tensor's own type, so that their sum (ops_sum.c) gives its bits:
 * mse_loss (x - t)^2; binary_cross_entropy (t - 1) max(log(1 - x), -100)
 * - t max(log x, -100) with the C library's log (1.13 takes log(1 - x),
 * not log1p); binary_cross_entropy_
 * with_logits as its composition of ops, (1 - t) x + m + log(exp(-m) +
 * exp(-x - m)) with m = max(-x, 0), exp and log from SLEEF. */
#define PW_ELEMS(NAME, T, LOG, FT, SLEEF)                                                          \
    NN_KERNEL_CLONES static void NAME(pw_kind k, const T *restrict x, const T *restrict t,         \
                                      T *restrict l, int64_t n) {                                  \
        if (k == PW_MSE) { /* its own loop, which vectorises */                                    \
            for (int64_t i = 0; i < n; i++) l[i] = (x[i] - t[i]) * (x[i] - t[i]);                  \
            return;                                                                                \
        }                                                                                          \
        FT sexp = SLEEF(NN_SLEEF_EXP), slog = SLEEF(NN_SLEEF_LOG);                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            if (k == PW_MSE) {                                                                     \
                T d = x[i] - t[i];                                                                 \
                l[i] = d * d;                                                                      \
            } else if (k == PW_BCE) {                                                              \
                T a = LOG((T)1 - x[i]), b = LOG(x[i]);                                             \
                a = a < (T)-100 ? (T)-100 : a;                                                     \
                b = b < (T)-100 ? (T)-100 : b;                                                     \
                l[i] = (t[i] - (T)1) * a - t[i] * b;                                               \
            } else {                                                                               \
                T m = -x[i] < (T)0 ? (T)0 : -x[i];                                                 \
                T a = ((T)1 - t[i]) * x[i] + m;                                                    \
                l[i] = a + slog(sexp(-m) + sexp(-x[i] - m));                                       \
            }                                                                                      \
        }                                                                                          \
    }
PW_ELEMS(pw_elems_f32, float, logf, nn_sleef_f1, nn_sleef_float)
PW_ELEMS(pw_elems_f64, double, log, nn_sleef_d1, nn_sleef_double)

/* The element losses and the gradients split across the engine's threads:
 * each element's value depends on its inputs only, so any split gives the
 * serial loop's bits. The kernels are compiled per ISA level
 * (NN_KERNEL_CLONES): mse's loops vectorise. */
typedef struct pw_job {
    pw_kind k;
    bool f64, grad;
    const void *x, *t, *sig, *go;
    double g0;
    int64_t n, count;
    void *l, *dx, *dt;
} pw_job;

static const void *pw_at(const void *p, int64_t i, bool f64) {
    return p ? (const char *)p + i * (f64 ? 8 : 4) : NULL;
}

static void pw_task(void *arg, int task, int n_tasks) {
    const pw_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->count, task, n_tasks, 16, &b, &e);
    if (b >= e) return;
    const void *x = pw_at(j->x, b, j->f64), *t = pw_at(j->t, b, j->f64);
    void *l = (void *)pw_at(j->l, b, j->f64), *dx = (void *)pw_at(j->dx, b, j->f64),
         *dt = (void *)pw_at(j->dt, b, j->f64);
    const void *sig = pw_at(j->sig, b, j->f64), *go = pw_at(j->go, b, j->f64);
    if (!j->grad && j->f64)
        pw_elems_f64(j->k, x, t, l, e - b);
    else if (!j->grad)
        pw_elems_f32(j->k, x, t, l, e - b);
    else if (j->f64)
        pw_grad_f64(j->k, x, t, sig, go, j->g0, j->n, dx, dt, e - b);
    else
        pw_grad_f32(j->k, x, t, sig, go, (float)j->g0, j->n, dx, dt, e - b);
}

static void pw_run(const pw_job *j) {
    int tasks = nn_parallel_tasks(j->count, j->k == PW_MSE || j->grad ? NN_PAR_MIN_ELEMWISE
                                                                      : NN_PAR_MIN_DEAR);
    if (tasks > 1)
        nn_parallel_run(tasks, pw_task, (void *)j);
    else
        pw_task((void *)j, 0, 1);
}

/* The shape both operands take, or an error naming both shapes. */
static bool pw_shape(nn_ctx *ctx, pw_kind kind, const nn_tensor *x, const nn_tensor *t, int *nd,
                     int64_t *shape) {
    char a[128], b[128];
    if (kind == PW_MSE) {
        /* PyTorch's broadcast error, as its mse_loss gives it */
        return nn_broadcast_shapes(ctx, x->ndim, x->shape, t->ndim, t->shape, nd, shape) == NN_OK;
    }
    if (!nn_tensor_same_shape(x, t)) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "%s: the target must have the input's shape; input %s, target %s",
                     pw_names[kind], shape_s(x, a, sizeof a), shape_s(t, b, sizeof b));
        return false;
    }
    *nd = x->ndim;
    memcpy(shape, x->shape, sizeof(int64_t) * (size_t)x->ndim);
    return true;
}

/* binary_cross_entropy takes probabilities; anything else (nan included)
 * is PyTorch's RuntimeError, in its words, then the element and the
 * likely fix. */
static bool bce_check(nn_ctx *ctx, const nn_tensor *x) {
    int64_t n = nn_tensor_numel(x);
    bool f64 = is_f64(x);
    const void *p = nn_tensor_data(x);
    for (int64_t i = 0; i < n; i++) {
        double v = ld(p, i, f64);
        if (!(v >= 0 && v <= 1)) {
            nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                         "all elements of input should be between 0 and 1 (element %lld is %g: "
                         "apply sigmoid first, or pass the raw scores to "
                         "binary_cross_entropy_with_logits)",
                         (long long)i, v);
            return false;
        }
    }
    return true;
}

static nn_tensor *pw_forward(nn_ctx *ctx, nn_node *node, pw_kind kind) {
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t;
    nn_reduction red = (nn_reduction)node->p.i[0];
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (!need_float(ctx, pw_names[kind], "the input", xin)) return NULL;
    if (!pw_shape(ctx, kind, xin, tin, &nd, shape)) return NULL;
    nn_dtype dt = float_promote(xin, tin);
    nn_tensor *x = dense_to(ctx, xin, dt, nd, shape);
    nn_tensor *t = x ? dense_to(ctx, tin, dt, nd, shape) : NULL;
    nn_tensor *out = NULL;
    if (!t || (kind == PW_BCE && !bce_check(ctx, x))) goto done;
    nn_tensor *elems = nn_tensor_empty(ctx, dt, nd, shape);
    if (!elems) goto done;
    int64_t n = nn_tensor_numel(x);
    pw_job job = {kind,
                  dt == NN_FLOAT64,
                  false,
                  nn_tensor_data(x),
                  nn_tensor_data(t),
                  NULL,
                  NULL,
                  0,
                  0,
                  n,
                  nn_tensor_data(elems),
                  NULL,
                  NULL};
    pw_run(&job);
    if (red == NN_REDUCTION_NONE) {
        out = elems;
        goto done;
    }
    /* reduced as PyTorch's apply_loss_reduction: sum() or mean() */
    out = nn_tensor_empty(ctx, dt, 0, NULL);
    if (out) {
        bool mask[NN_MAX_DIMS];
        for (int i = 0; i < nd; i++) mask[i] = true;
        nn_sum_pytorch_order(elems, mask, out);
        if (red == NN_REDUCTION_MEAN && dt == NN_FLOAT64)
            *(double *)nn_tensor_data(out) /= (double)n;
        else if (red == NN_REDUCTION_MEAN)
            *(float *)nn_tensor_data(out) /= (float)n;
    }
    nn_tensor_release(elems);
done:
    nn_tensor_release(x);
    nn_tensor_release(t);
    return out;
}

/* Gradients come out in the broadcast shape; the engine sums them down. */
static nn_status pw_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                             pw_kind kind) {
    bool want_x = node->in[0].needs_grad, want_t = node->in[1].needs_grad;
    if (!want_x && !want_t) return NN_OK;
    nn_tensor *xin = node->in[0].t, *tin = node->in[1].t;
    nn_reduction red = (nn_reduction)node->p.i[0];
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (!pw_shape(ctx, kind, xin, tin, &nd, shape)) return ctx->err.code;
    nn_dtype dt = float_promote(xin, tin);
    nn_tensor *x = dense_to(ctx, xin, dt, nd, shape);
    nn_tensor *t = x ? dense_to(ctx, tin, dt, nd, shape) : NULL;
    nn_tensor *go = t && red == NN_REDUCTION_NONE ? dense(ctx, dout, dt) : NULL;
    nn_tensor *dx = NULL, *dtg = NULL, *sig = NULL;
    nn_status stt = NN_OK;
    if (!t || (red == NN_REDUCTION_NONE && !go) ||
        (want_x && !(dx = nn_tensor_empty(ctx, dt, nd, shape))) ||
        (want_t && !(dtg = nn_tensor_empty(ctx, dt, nd, shape)))) {
        stt = ctx->err.code;
        nn_tensor_release(dx);
        nn_tensor_release(dtg);
        dx = dtg = NULL;
    } else {
        int64_t count = nn_tensor_numel(x), n = red == NN_REDUCTION_MEAN ? count : 0;
        double g0 = red == NN_REDUCTION_NONE ? 0 : first(dout);
        const void *gp = go ? nn_tensor_data(go) : NULL;
        void *dxp = dx ? nn_tensor_data(dx) : NULL, *dtp = dtg ? nn_tensor_data(dtg) : NULL;
        sig = kind == PW_BCEL && dx ? nn_sigmoid(ctx, x) : NULL;
        const void *sp = sig ? nn_tensor_data(sig) : NULL;
        if (kind == PW_BCEL && dx && !sig) {
            stt = ctx->err.code;
            nn_tensor_release(dx);
            nn_tensor_release(dtg);
            dx = dtg = NULL;
        } else {
            pw_job job = {kind,
                          dt == NN_FLOAT64,
                          true,
                          nn_tensor_data(x),
                          nn_tensor_data(t),
                          sp,
                          gp,
                          g0,
                          n,
                          count,
                          NULL,
                          dxp,
                          dtp};
            pw_run(&job);
        }
    }
    nn_tensor_release(sig);
    nn_tensor_release(x);
    nn_tensor_release(t);
    nn_tensor_release(go);
    din[0] = dx;
    din[1] = dtg;
    return stt;
}

nn_tensor *op_mse_loss_forward(nn_ctx *ctx, nn_node *node) {
    return pw_forward(ctx, node, PW_MSE);
}
nn_status op_mse_loss_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return pw_backward(ctx, node, dout, din, PW_MSE);
}
nn_tensor *op_bce_forward(nn_ctx *ctx, nn_node *node) {
    return pw_forward(ctx, node, PW_BCE);
}
nn_status op_bce_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return pw_backward(ctx, node, dout, din, PW_BCE);
}
nn_tensor *op_bce_with_logits_forward(nn_ctx *ctx, nn_node *node) {
    return pw_forward(ctx, node, PW_BCEL);
}
nn_status op_bce_with_logits_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout,
                                      nn_tensor **din) {
    return pw_backward(ctx, node, dout, din, PW_BCEL);
}

/* ---- embedding: inputs weight [V, D], idx int64 (any shape) ---- */

static bool embedding_check(nn_ctx *ctx, const nn_tensor *w, const nn_tensor *idx) {
    char a[128];
    if (w->ndim != 2) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "embedding: the weight must be a 2-D table [num_embeddings, dim]; got %s",
                     shape_s(w, a, sizeof a));
        return false;
    }
    if (idx->dtype != NN_INT64) {
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "embedding: the indices must be int64, not %s (convert them with .long())",
                     nn_dtype_name(idx->dtype));
        return false;
    }
    if (idx->ndim + 1 > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "embedding: indices of %d dims give an output of %d dims; at most %d",
                     idx->ndim, idx->ndim + 1, NN_MAX_DIMS);
        return false;
    }
    return true;
}

nn_tensor *op_embedding_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *win = node->in[0].t, *iin = node->in[1].t;
    char a[128];
    if (!embedding_check(ctx, win, iin)) return NULL;
    int64_t v = win->shape[0], d = win->shape[1], n = nn_tensor_numel(iin);
    nn_tensor *w = dense(ctx, win, win->dtype), *idx = w ? dense(ctx, iin, NN_INT64) : NULL;
    nn_tensor *out = NULL;
    if (!idx) goto done;
    const int64_t *ip = nn_tensor_data(idx);
    for (int64_t i = 0; i < n; i++) {
        if (ip[i] < 0 || ip[i] >= v) {
            fail(ctx, NN_ERR_INDEX,
                 "embedding: index %lld (at position %lld) is out of range for a table of %lld "
                 "rows (weight %s); indices must lie in [0, %lld)",
                 (long long)ip[i], (long long)i, (long long)v, shape_s(win, a, sizeof a),
                 (long long)v);
            goto done;
        }
    }
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, iin->shape, sizeof(int64_t) * (size_t)iin->ndim);
    shape[iin->ndim] = d;
    out = nn_tensor_empty(ctx, win->dtype, iin->ndim + 1, shape);
    if (!out) goto done;
    size_t row = (size_t)d * nn_dtype_size(win->dtype);
    const char *wp = nn_tensor_data(w);
    char *op = nn_tensor_data(out);
    for (int64_t i = 0; i < n; i++) memcpy(op + (size_t)i * row, wp + (size_t)ip[i] * row, row);
done:
    nn_tensor_release(w);
    nn_tensor_release(idx);
    return out;
}

/* dweight[idx[i]] += dout[i]: repeated indices accumulate. */
KERNEL void embedding_grad_kernel(const void *g, const int64_t *idx, void *dw, int64_t n, int64_t d,
                                  bool f64) {
    for (int64_t i = 0; i < n; i++) {
        int64_t r = idx[i] * d;
        for (int64_t k = 0; k < d; k++)
            st(dw, r + k, ld(dw, r + k, f64) + ld(g, i * d + k, f64), f64);
    }
}
static void embedding_grad_f32(const void *g, const int64_t *idx, void *dw, int64_t n, int64_t d) {
    embedding_grad_kernel(g, idx, dw, n, d, false);
}
static void embedding_grad_f64(const void *g, const int64_t *idx, void *dw, int64_t n, int64_t d) {
    embedding_grad_kernel(g, idx, dw, n, d, true);
}

nn_status op_embedding_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *win = node->in[0].t, *iin = node->in[1].t;
    nn_dtype dt = nn_float_dtype(dout->dtype);
    nn_tensor *g = dense(ctx, dout, dt), *idx = g ? dense(ctx, iin, NN_INT64) : NULL;
    nn_tensor *dw = idx ? nn_zeros(ctx, dt, 2, win->shape) : NULL;
    if (dw) {
        int64_t n = nn_tensor_numel(iin), d = win->shape[1];
        if (dt == NN_FLOAT64)
            embedding_grad_f64(nn_tensor_data(g), nn_tensor_data(idx), nn_tensor_data(dw), n, d);
        else
            embedding_grad_f32(nn_tensor_data(g), nn_tensor_data(idx), nn_tensor_data(dw), n, d);
    }
    nn_tensor_release(g);
    nn_tensor_release(idx);
    din[0] = dw;
    return dw ? NN_OK : ctx->err.code;
}

/* (index, position) pairs: a before b. */
static bool pair_less(const int64_t *a, const int64_t *b) {
    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

static void pair_sift(int64_t *v, int64_t root, int64_t n) {
    for (;;) {
        int64_t c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && pair_less(v + 2 * c, v + 2 * (c + 1))) c++;
        if (!pair_less(v + 2 * root, v + 2 * c)) return;
        int64_t t0 = v[2 * root], t1 = v[2 * root + 1];
        v[2 * root] = v[2 * c], v[2 * root + 1] = v[2 * c + 1];
        v[2 * c] = t0, v[2 * c + 1] = t1;
        root = c;
    }
}

/* Sort [n] (index, position) pairs in place: a heap sort, O(n log n), and
 * no allocation (glibc's qsort mallocs, which the steady state must not:
 * tests/noalloc). The position makes every key distinct, so equal indices
 * come out in their order. */
static void pair_sort(int64_t *v, int64_t n) {
    for (int64_t i = n / 2 - 1; i >= 0; i--) pair_sift(v, i, n);
    for (int64_t end = n - 1; end > 0; end--) {
        int64_t t0 = v[0], t1 = v[1];
        v[0] = v[2 * end], v[1] = v[2 * end + 1];
        v[2 * end] = t0, v[2 * end + 1] = t1;
        pair_sift(v, 0, end);
    }
}

nn_status nn_embedding_grad_add(nn_ctx *ctx, const nn_node *node, nn_tensor *full, nn_tensor *dout,
                                bool *nonfinite) {
    nn_tensor *iin = node->in[1].t;
    bool f64 = full->dtype == NN_FLOAT64;
    nn_tensor *g = dense(ctx, dout, full->dtype), *idx = g ? dense(ctx, iin, NN_INT64) : NULL;
    int64_t n = nn_tensor_numel(iin), d = full->shape[1];
    int64_t *order = idx ? nn_mem_alloc(sizeof(int64_t) * 2 * (size_t)(n ? n : 1),
                                        "the embedding's gradient order", &ctx->err)
                         : NULL;
    double *row = order ? nn_mem_alloc(sizeof(double) * (size_t)(d ? d : 1),
                                       "the embedding's gradient row", &ctx->err)
                        : NULL;
    if (row) {
        const int64_t *ip = nn_tensor_data(idx);
        for (int64_t i = 0; i < n; i++) order[2 * i] = ip[i], order[2 * i + 1] = i;
        pair_sort(order, n);
        const void *gp = nn_tensor_data(g);
        void *fp = nn_tensor_data(full);
        bool bad = false;
        /* Per distinct index: the rows summed in order (as the dense
         * gradient's zero + d1 + d2 ...), then added once, so the bits are
         * those of the dense gradient added to [full]. */
        for (int64_t i = 0; i < n;) {
            int64_t r = order[2 * i], j = i;
            for (int64_t k = 0; k < d; k++) row[k] = ld(gp, order[2 * i + 1] * d + k, f64);
            for (j = i + 1; j < n && order[2 * j] == r; j++)
                for (int64_t k = 0; k < d; k++) {
                    double v = row[k] + ld(gp, order[2 * j + 1] * d + k, f64);
                    row[k] = f64 ? v : (double)(float)v;
                }
            for (int64_t k = 0; k < d; k++) {
                bad |= !isfinite(row[k]);
                st(fp, r * d + k, ld(fp, r * d + k, f64) + row[k], f64);
            }
            i = j;
        }
        full->storage->version++;
        if (nonfinite) *nonfinite = bad;
    }
    nn_mem_free(row);
    nn_mem_free(order);
    nn_tensor_release(g);
    nn_tensor_release(idx);
    return row ? NN_OK : ctx->err.code;
}

/* ---- layer_norm ----
 * inputs: x, then weight and bias when flags has LN_WEIGHT / LN_BIAS.
 * params: i[0] n_norm, f[0] eps. x is viewed as [M, K] with K the product of
 * the last n_norm dims. saved[0] = mean, saved[1] = rstd, each shaped like x
 * with the normalised dims set to 1 (PyTorch's layout). */

enum { LN_WEIGHT = 1, LN_BIAS = 2 };

static nn_tensor *ln_weight(const nn_node *n) {
    return (n->p.flags & LN_WEIGHT) ? n->in[1].t : NULL;
}
static nn_tensor *ln_bias(const nn_node *n) {
    return (n->p.flags & LN_BIAS) ? n->in[(n->p.flags & LN_WEIGHT) ? 2 : 1].t : NULL;
}
static int ln_bias_slot(const nn_node *n) {
    return (n->p.flags & LN_WEIGHT) ? 2 : 1;
}

/* Mean and biased variance in two passes: one-pass sums lose the variance
 * of large-mean rows to cancellation. */
KERNEL void ln_kernel(const void *x, const void *w, const void *b, void *y, void *mean, void *rstd,
                      int64_t m, int64_t k, double eps, bool f64) {
    for (int64_t r = 0; r < m; r++) {
        int64_t base = r * k;
        double mu = 0, var = 0;
        for (int64_t i = 0; i < k; i++) mu += ld(x, base + i, f64);
        mu /= (double)k;
        for (int64_t i = 0; i < k; i++) {
            double dv = ld(x, base + i, f64) - mu;
            var += dv * dv;
        }
        var /= (double)k;
        double rs = 1.0 / sqrt(var + eps);
        if (mean) st(mean, r, mu, f64);
        if (rstd) st(rstd, r, rs, f64);
        for (int64_t i = 0; i < k; i++) {
            double v = (ld(x, base + i, f64) - mu) * rs;
            if (w) v *= ld(w, i, f64);
            if (b) v += ld(b, i, f64);
            st(y, base + i, v, f64);
        }
    }
}
typedef struct ln_rows_arg {
    const float *x, *w, *b;
    float *y, *mean, *rstd;
    int64_t k;
    double eps;
} ln_rows_arg;

static void ln_rows_part(void *arg, int64_t b, int64_t e) {
    const ln_rows_arg *a = arg;
    nn_rows_layer_norm_f32(a->x + b * a->k, a->w, a->b, a->y + b * a->k,
                           a->mean ? a->mean + b : NULL, a->rstd ? a->rstd + b : NULL, e - b, a->k,
                           a->eps);
}

static void ln_f32(const void *x, const void *w, const void *b, void *y, void *mean, void *rstd,
                   int64_t m, int64_t k, double eps) {
    ln_rows_arg ra = {x, w, b, y, mean, rstd, k, eps};
    rows_parallel(m, k, NN_PAR_MIN_ELEMWISE, ln_rows_part, &ra);
}
static void ln_f64(const void *x, const void *w, const void *b, void *y, void *mean, void *rstd,
                   int64_t m, int64_t k, double eps) {
    ln_kernel(x, w, b, y, mean, rstd, m, k, eps, true);
}

/* With xhat = (x - mean) rstd and dxhat = g w:
 *   dx = rstd (dxhat - mean(dxhat) - xhat mean(dxhat xhat))
 *   dw = sum over rows of g xhat, db = sum over rows of g (accumulated in double). */
KERNEL void ln_grad_kernel(const void *x, const void *g, const void *w, const void *mean,
                           const void *rstd, void *dx, double *dw, double *db, int64_t m, int64_t k,
                           bool f64) {
    for (int64_t r = 0; r < m; r++) {
        int64_t base = r * k;
        double mu = ld(mean, r, f64), rs = ld(rstd, r, f64), s1 = 0, s2 = 0;
        for (int64_t i = 0; i < k; i++) {
            double xh = (ld(x, base + i, f64) - mu) * rs, gv = ld(g, base + i, f64);
            double dxh = w ? gv * ld(w, i, f64) : gv;
            s1 += dxh;
            s2 += dxh * xh;
            if (dw) dw[i] += gv * xh;
            if (db) db[i] += gv;
        }
        if (!dx) continue;
        s1 /= (double)k;
        s2 /= (double)k;
        for (int64_t i = 0; i < k; i++) {
            double xh = (ld(x, base + i, f64) - mu) * rs, gv = ld(g, base + i, f64);
            double dxh = w ? gv * ld(w, i, f64) : gv;
            st(dx, base + i, rs * (dxh - s1 - xh * s2), f64);
        }
    }
}
/* On several threads: dx by whole rows, then dw and db by ranges of
 * columns (each range's sums whole in one task, in PyTorch's split of the
 * rows), so the bits do not depend on how nndb's tasks fall. */
typedef struct ln_grad_arg {
    const float *x, *g, *w, *mean, *rstd;
    float *dx;
    double *dw, *db;
    int64_t m, k;
} ln_grad_arg;

static void ln_grad_rows_part(void *arg, int64_t b, int64_t e) {
    const ln_grad_arg *a = arg;
    nn_rows_layer_norm_grad_f32(a->x + b * a->k, a->g + b * a->k, a->w, a->mean + b, a->rstd + b,
                                a->dx + b * a->k, NULL, NULL, e - b, a->k);
}

static void ln_grad_cols_task(void *arg, int task, int n_tasks) {
    const ln_grad_arg *a = arg;
    int64_t b, e;
    nn_parallel_range(a->k, task, n_tasks, 16, &b, &e);
    if (b < e)
        nn_rows_layer_norm_param_grad_f32(a->x, a->g, a->mean, a->rstd, a->dw, a->db, a->m, a->k, b,
                                          e);
}

static void ln_grad_f32(const void *x, const void *g, const void *w, const void *mean,
                        const void *rstd, void *dx, double *dw, double *db, int64_t m, int64_t k) {
    int tasks = nn_parallel_tasks(m * k, NN_PAR_MIN_ELEMWISE);
    if (tasks <= 1) {
        nn_rows_layer_norm_grad_f32(x, g, w, mean, rstd, dx, dw, db, m, k);
        return;
    }
    ln_grad_arg a = {x, g, w, mean, rstd, dx, dw, db, m, k};
    if (dx) rows_parallel(m, k, NN_PAR_MIN_ELEMWISE, ln_grad_rows_part, &a);
    if (dw || db) {
        int64_t col_tasks = (k + 15) / 16;
        nn_parallel_run(col_tasks < tasks ? (int)col_tasks : tasks, ln_grad_cols_task, &a);
    }
}
static void ln_grad_f64(const void *x, const void *g, const void *w, const void *mean,
                        const void *rstd, void *dx, double *dw, double *db, int64_t m, int64_t k) {
    ln_grad_kernel(x, g, w, mean, rstd, dx, dw, db, m, k, true);
}

/* The dense [flat] seen with [like]'s shape, in [dt]. */
static nn_tensor *reshape_cast(nn_ctx *ctx, nn_tensor *flat, const nn_tensor *like, nn_dtype dt) {
    int64_t strides[NN_MAX_DIMS], s = 1;
    for (int i = like->ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= like->shape[i];
    }
    nn_tensor *v = nn_tensor_view_raw(ctx, flat, like->ndim, like->shape, strides, flat->offset);
    nn_tensor *c = v ? nn_tensor_cast_raw(ctx, v, dt) : NULL;
    nn_tensor_release(v);
    return c;
}

static void ln_geom(const nn_tensor *x, int n_norm, int64_t *m, int64_t *k) {
    *m = *k = 1;
    for (int i = 0; i < x->ndim; i++) {
        if (i < x->ndim - n_norm)
            *m *= x->shape[i];
        else
            *k *= x->shape[i];
    }
}

static bool ln_check(nn_ctx *ctx, const nn_node *node) {
    nn_tensor *x = node->in[0].t, *params[2] = {ln_weight(node), ln_bias(node)};
    int64_t n_norm = node->p.i[0];
    char a[128], b[128];
    if (!need_float(ctx, "layer_norm", "the input", x)) return false;
    if (n_norm < 1 || n_norm > x->ndim) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "layer_norm: cannot normalise over the last %lld dims of an input of shape "
                     "%s; choose between 1 and %d",
                     (long long)n_norm, shape_s(x, a, sizeof a), x->ndim);
        return false;
    }
    const int64_t *norm_shape = x->shape + x->ndim - n_norm;
    for (int j = 0; j < 2; j++) {
        const nn_tensor *p = params[j];
        if (!p) continue;
        if (p->ndim != n_norm ||
            memcmp(p->shape, norm_shape, sizeof(int64_t) * (size_t)n_norm) != 0) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "layer_norm: the %s has shape %s but the normalised shape (the last "
                         "%lld dims of input %s) is %s",
                         j ? "bias" : "weight", shape_s(p, a, sizeof a), (long long)n_norm,
                         shape_s(x, b, sizeof b),
                         nn_shape_str(b, sizeof b, (int)n_norm, norm_shape));
            return false;
        }
        if (!need_float(ctx, "layer_norm", j ? "the bias" : "the weight", p)) return false;
    }
    return true;
}

nn_tensor *op_layer_norm_forward(nn_ctx *ctx, nn_node *node) {
    if (!ln_check(ctx, node)) return NULL;
    nn_tensor *xin = node->in[0].t, *win = ln_weight(node), *bin = ln_bias(node);
    int n_norm = (int)node->p.i[0];
    nn_dtype dt = xin->dtype;
    int64_t m, k, stat_shape[NN_MAX_DIMS];
    ln_geom(xin, n_norm, &m, &k);
    for (int i = 0; i < xin->ndim; i++) stat_shape[i] = i < xin->ndim - n_norm ? xin->shape[i] : 1;
    nn_tensor *x = dense(ctx, xin, dt), *w = NULL, *b = NULL, *y = NULL, *mean = NULL, *rstd = NULL;
    if (!x || (win && !(w = dense(ctx, win, dt))) || (bin && !(b = dense(ctx, bin, dt)))) goto done;
    if (node->recorded && (!(mean = nn_tensor_empty(ctx, dt, xin->ndim, stat_shape)) ||
                           !(rstd = nn_tensor_empty(ctx, dt, xin->ndim, stat_shape))))
        goto done;
    if (!(y = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape))) goto done;
    const void *wp = w ? nn_tensor_data(w) : NULL, *bp = b ? nn_tensor_data(b) : NULL;
    void *mp = mean ? nn_tensor_data(mean) : NULL, *rp = rstd ? nn_tensor_data(rstd) : NULL;
    if (dt == NN_FLOAT64)
        ln_f64(nn_tensor_data(x), wp, bp, nn_tensor_data(y), mp, rp, m, k, node->p.f[0]);
    else
        ln_f32(nn_tensor_data(x), wp, bp, nn_tensor_data(y), mp, rp, m, k, node->p.f[0]);
    node->saved[0] = mean;
    node->saved[1] = rstd;
    mean = rstd = NULL;
done:
    nn_tensor_release(x);
    nn_tensor_release(w);
    nn_tensor_release(b);
    nn_tensor_release(mean);
    nn_tensor_release(rstd);
    return y;
}

nn_status op_layer_norm_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t, *win = ln_weight(node), *bin = ln_bias(node);
    nn_tensor *mean = node->saved[0], *rstd = node->saved[1];
    int bslot = ln_bias_slot(node);
    bool want_x = node->in[0].needs_grad, want_w = win && node->in[1].needs_grad,
         want_b = bin && node->in[bslot].needs_grad;
    if (!want_x && !want_w && !want_b) return NN_OK;
    NN_ASSERT(mean && rstd);
    nn_dtype dt = mean->dtype;
    int64_t m, k;
    ln_geom(xin, (int)node->p.i[0], &m, &k);
    nn_tensor *x = dense(ctx, xin, dt), *g = x ? dense(ctx, dout, dt) : NULL, *w = NULL;
    nn_tensor *dx = NULL, *dw = NULL, *db = NULL, *dw64 = NULL, *db64 = NULL;
    nn_status stt = NN_OK;
    if (!g || (win && !(w = dense(ctx, win, dt))) ||
        (want_x && !(dx = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape))) ||
        (want_w && !(dw64 = nn_zeros(ctx, NN_FLOAT64, 1, &k))) ||
        (want_b && !(db64 = nn_zeros(ctx, NN_FLOAT64, 1, &k)))) {
        stt = ctx->err.code;
        goto done;
    }
    const void *wp = w ? nn_tensor_data(w) : NULL;
    void *dxp = dx ? nn_tensor_data(dx) : NULL;
    double *dwp = dw64 ? nn_tensor_data(dw64) : NULL, *dbp = db64 ? nn_tensor_data(db64) : NULL;
    if (dt == NN_FLOAT64)
        ln_grad_f64(nn_tensor_data(x), nn_tensor_data(g), wp, nn_tensor_data(mean),
                    nn_tensor_data(rstd), dxp, dwp, dbp, m, k);
    else
        ln_grad_f32(nn_tensor_data(x), nn_tensor_data(g), wp, nn_tensor_data(mean),
                    nn_tensor_data(rstd), dxp, dwp, dbp, m, k);
    /* Back to the parameters' shapes (the normalised dims) and dtype. */
    if ((want_w && !(dw = reshape_cast(ctx, dw64, win, dt))) ||
        (want_b && !(db = reshape_cast(ctx, db64, bin, dt)))) {
        stt = ctx->err.code;
        nn_tensor_release(dx);
        nn_tensor_release(dw);
        dx = dw = NULL;
        goto done;
    }
    din[0] = dx;
    if (want_w) din[1] = dw;
    if (want_b) din[bslot] = db;
    dx = dw = db = NULL;
done:
    nn_tensor_release(x);
    nn_tensor_release(g);
    nn_tensor_release(w);
    nn_tensor_release(dw64);
    nn_tensor_release(db64);
    nn_tensor_release(dx);
    return stt;
}

/* ---- dropout ----
 * params: f[0] p, flags DROP_TRAIN. In eval mode (or p = 0) the output is an
 * alias of the input, still one node so the debugger sees it. Training does
 * what torch 1.13 does on the CPU: a mask in the input's dtype drawn as
 * bernoulli_(1 - p) (one 53-bit uniform per element, kept when below 1 - p),
 * divided by 1 - p in that dtype, times the input; p = 1 draws nothing and
 * gives zeros. The mask is saved for the backward. */

enum { DROP_TRAIN = 1 };

static bool dropout_identity(const nn_node *node) {
    return !(node->p.flags & DROP_TRAIN) || node->p.f[0] == 0;
}

static void dropout_f32(nn_rng *rng, const float *x, float *mask, float *y, int64_t n, double p) {
    double keep = 1.0 - p;
    float scale = p < 1 ? 1.0f / (float)keep : 0.0f;
    for (int64_t i = 0; i < n; i++) {
        float m = p < 1 && nn_rng_uniform(rng) < keep ? scale : 0.0f;
        mask[i] = m;
        y[i] = x[i] * m;
    }
}
static void dropout_f64(nn_rng *rng, const double *x, double *mask, double *y, int64_t n,
                        double p) {
    double keep = 1.0 - p, scale = p < 1 ? 1.0 / keep : 0.0;
    for (int64_t i = 0; i < n; i++) {
        double m = p < 1 && nn_rng_uniform(rng) < keep ? scale : 0.0;
        mask[i] = m;
        y[i] = x[i] * m;
    }
}

nn_tensor *op_dropout_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *xin = node->in[0].t;
    double p = node->p.f[0];
    if (!(p >= 0 && p <= 1))
        return fail(ctx, NN_ERR_VALUE, "dropout: p must lie in [0, 1]; got %g", p);
    if (dropout_identity(node))
        return nn_tensor_view_raw(ctx, xin, xin->ndim, xin->shape, xin->strides, xin->offset);
    if (!need_float(ctx, "dropout", "the input", xin)) return NULL;
    nn_dtype dt = xin->dtype;
    nn_tensor *x = dense(ctx, xin, dt);
    nn_tensor *mask = x ? nn_tensor_empty(ctx, dt, xin->ndim, xin->shape) : NULL;
    nn_tensor *y = mask ? nn_tensor_empty(ctx, dt, xin->ndim, xin->shape) : NULL;
    if (y) {
        int64_t n = nn_tensor_numel(x);
        nn_rng *rng = &ctx->rng;
        if (dt == NN_FLOAT64)
            dropout_f64(rng, nn_tensor_data(x), nn_tensor_data(mask), nn_tensor_data(y), n, p);
        else
            dropout_f32(rng, nn_tensor_data(x), nn_tensor_data(mask), nn_tensor_data(y), n, p);
        if (node->recorded) node->saved[0] = nn_tensor_retain(mask);
    }
    nn_tensor_release(x);
    nn_tensor_release(mask);
    return y;
}

nn_status op_dropout_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    if (dropout_identity(node)) {
        din[0] = nn_tensor_retain(dout);
        return NN_OK;
    }
    NN_ASSERT(node->saved[0] != NULL);
    din[0] = nn_mul(ctx, dout, node->saved[0]);
    return din[0] ? NN_OK : ctx->err.code;
}

/* ---- scaled dot-product attention ----
 * inputs q [..., Tq, D], k [..., Tk, D], v [..., Tk, Dv] with equal batch
 * dims; params: f[0] the scale (resolved by the forward), flags SDPA_CAUSAL.
 * Per batch: S = scale q k^T, P = softmax(S + mask) by rows, O = P v. The
 * causal mask hides j > i (aligned top-left, as PyTorch's is_causal), so
 * every row keeps column 0. saved[0] = P [..., Tq, Tk]. */

enum { SDPA_CAUSAL = 1 };

/* Causal attention runs its products by blocks of this many rows (of S for
 * q k^T, P v and dS k; of columns for the P^T dO and dS^T q products) and
 * skips the blocks above the diagonal, whose P is 0: about 3/8 of the work
 * at T = 128. */
enum { SDPA_BLOCK = 32 };

/* Zero a [rows, cols] matrix with row stride [ld]. */
static void sdpa_zero(char *m, int64_t rows, int64_t cols, int64_t ld, size_t es) {
    for (int64_t i = 0; i < rows; i++) memset(m + (size_t)(i * ld) * es, 0, (size_t)cols * es);
}

/* Row-major C = alpha op(A) op(B) in the tensors' float type. */
static void gemm(bool f64, bool ta, bool tb, int64_t m, int64_t n, int64_t k, double alpha,
                 const void *a, int64_t lda, const void *b, int64_t ldb, void *c, int64_t ldc) {
    if (m == 0 || n == 0) return;
    if (k == 0) {
        sdpa_zero(c, m, n, ldc, f64 ? sizeof(double) : sizeof(float));
        return;
    }
    enum CBLAS_TRANSPOSE t_a = ta ? CblasTrans : CblasNoTrans, t_b = tb ? CblasTrans : CblasNoTrans;
    if (f64)
        nn_blas_dgemm(CblasRowMajor, t_a, t_b, (int)m, (int)n, (int)k, alpha, a, (int)lda, b,
                      (int)ldb, 0.0, c, (int)ldc);
    else
        nn_blas_sgemm(CblasRowMajor, t_a, t_b, (int)m, (int)n, (int)k, (float)alpha, a, (int)lda, b,
                      (int)ldb, 0.0f, c, (int)ldc);
}

/* Softmax of each row of S [tq, tk] in place, columns j > i masked when causal. */
KERNEL void attn_softmax_kernel(void *s, int64_t tq, int64_t tk, bool causal, bool f64) {
    for (int64_t i = 0; i < tq; i++) {
        int64_t base = i * tk, lim = causal && i + 1 < tk ? i + 1 : tk;
        double m = -INFINITY, sum = 0;
        for (int64_t j = 0; j < lim; j++) {
            double v = ld(s, base + j, f64);
            if (v > m || isnan(v)) m = v;
        }
        for (int64_t j = 0; j < lim; j++) {
            double e = ex(ld(s, base + j, f64) - m, f64);
            sum += e;
            st(s, base + j, e, f64);
        }
        double inv = 1.0 / sum;
        for (int64_t j = 0; j < lim; j++) st(s, base + j, ld(s, base + j, f64) * inv, f64);
        for (int64_t j = lim; j < tk; j++) st(s, base + j, 0.0, f64);
    }
}
static void attn_softmax_f32(void *s, int64_t tq, int64_t tk, bool causal) {
    nn_rows_attn_softmax_f32(s, tq, tk, causal);
}
static void attn_softmax_f64(void *s, int64_t tq, int64_t tk, bool causal) {
    attn_softmax_kernel(s, tq, tk, causal, true);
}

/* dS = P (dP - rowsum(dP P)), in place over dP; when causal, dP is read
 * only where j <= i (the products skip the rest) and dS is 0 above. */
KERNEL void attn_softmax_grad_kernel(const void *p, void *dp, int64_t tq, int64_t tk, bool causal,
                                     bool f64) {
    for (int64_t i = 0; i < tq; i++) {
        int64_t base = i * tk, lim = causal && i + 1 < tk ? i + 1 : tk;
        double s = 0;
        for (int64_t j = 0; j < lim; j++) s += ld(dp, base + j, f64) * ld(p, base + j, f64);
        for (int64_t j = 0; j < lim; j++)
            st(dp, base + j, ld(p, base + j, f64) * (ld(dp, base + j, f64) - s), f64);
        for (int64_t j = lim; j < tk; j++) st(dp, base + j, 0.0, f64);
    }
}
static void attn_softmax_grad_f32(const void *p, void *dp, int64_t tq, int64_t tk, bool causal) {
    nn_rows_attn_softmax_grad_f32(p, dp, tq, tk, causal);
}
static void attn_softmax_grad_f64(const void *p, void *dp, int64_t tq, int64_t tk, bool causal) {
    attn_softmax_grad_kernel(p, dp, tq, tk, causal, true);
}

typedef struct sdpa_geom {
    int64_t batch, tq, tk, d, dv;
} sdpa_geom;

static bool sdpa_check(nn_ctx *ctx, const nn_tensor *q, const nn_tensor *k, const nn_tensor *v,
                       sdpa_geom *g) {
    const char *op = "scaled_dot_product_attention";
    char a[128], b[128], c[128];
    if (!need_float(ctx, op, "q", q) || !need_float(ctx, op, "k", k) ||
        !need_float(ctx, op, "v", v))
        return false;
    shape_s(q, a, sizeof a);
    shape_s(k, b, sizeof b);
    shape_s(v, c, sizeof c);
    if (q->ndim < 2 || k->ndim != q->ndim || v->ndim != q->ndim) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "%s: q, k and v must have the same number of dims (at least 2: [..., T, "
                     "D]); got q %s, k %s, v %s",
                     op, a, b, c);
        return false;
    }
    int nd = q->ndim;
    bool ok = true;
    g->batch = 1;
    for (int i = 0; i < nd - 2; i++) {
        ok = ok && k->shape[i] == q->shape[i] && v->shape[i] == q->shape[i];
        g->batch *= q->shape[i];
    }
    if (!ok) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "%s: q, k and v must have the same batch dims (all but the last two); got "
                     "q %s, k %s, v %s",
                     op, a, b, c);
        return false;
    }
    g->tq = q->shape[nd - 2];
    g->d = q->shape[nd - 1];
    g->tk = k->shape[nd - 2];
    g->dv = v->shape[nd - 1];
    if (k->shape[nd - 1] != g->d) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "%s: q and k must share the last dim (D); got q %s, k %s", op, a, b);
        return false;
    }
    if (v->shape[nd - 2] != g->tk) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "%s: k and v must have the same length (dim -2); got k %s, v %s", op, b, c);
        return false;
    }
    int64_t big = INT_MAX;
    if (g->tq > big || g->tk > big || g->d > big || g->dv > big) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: a dim of q %s, k %s or v %s exceeds %d", op, a,
                     b, c, INT_MAX);
        return false;
    }
    return true;
}

/* q, k, v or dO ([..., R, C]) as the per-batch products read them: [t]
 * itself when it is of [dt] with unit column stride and a row stride BLAS
 * takes (the heads of a fused qkv projection are such views: no copy), or
 * else a dense copy. *ld gets the row stride; sdpa_at finds batch [b]. */
static nn_tensor *sdpa_operand(nn_ctx *ctx, nn_tensor *t, nn_dtype dt, int64_t *ld) {
    int nd = t->ndim;
    int64_t r = t->shape[nd - 2], c = t->shape[nd - 1];
    int64_t rs = r > 1 ? t->strides[nd - 2] : c > 1 ? c : 1;
    bool ok = t->dtype == dt && (c <= 1 || t->strides[nd - 1] == 1) && rs >= (c > 1 ? c : 1) &&
              rs <= INT_MAX;
    for (int i = 0; ok && i < nd - 2; i++) ok = t->strides[i] >= 0;
    if (ok) {
        *ld = rs;
        return nn_tensor_retain(t);
    }
    *ld = c > 1 ? c : 1;
    return dense(ctx, t, dt);
}

/* The matrix of batch [b] (flat over the batch dims) of an sdpa_operand. */
static const char *sdpa_at(const nn_tensor *t, int64_t b, size_t es) {
    int64_t off = 0;
    for (int i = t->ndim - 3; i >= 0; i--) {
        int64_t n = t->shape[i];
        off += (b % n) * t->strides[i];
        b /= n;
    }
    return (const char *)nn_tensor_data(t) + (size_t)off * es;
}

/* A new [..., R, cols] tensor, [like]'s shape but for the last dim, for an
 * output or gradient of [like]: laid out as [..., R, H, C] (dims -3 and -2 swapped in memory)
 * when [like] itself is such a transposed view, as the heads of a
 * [B, T, H*D] projection are, else contiguous. Attention then writes its
 * output and q, k, v gradients in the layout their callers transpose back
 * to [B, T, H, D], and reshape to [B, T, C] is a view instead of a copy
 * (PyTorch 2's fused CPU attention returns its output so too). *ld gets
 * the row stride. */
static nn_tensor *sdpa_new_like(nn_ctx *ctx, nn_dtype dt, const nn_tensor *like, int64_t cols,
                                int64_t *ld) {
    int nd = like->ndim;
    int64_t shape[NN_MAX_DIMS], phys[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    memcpy(shape, like->shape, sizeof(int64_t) * (size_t)nd);
    shape[nd - 1] = cols;
    bool swap = nd >= 3 && shape[nd - 3] > 1 && shape[nd - 2] > 1 && cols > 0 &&
                like->strides[nd - 3] < like->strides[nd - 2];
    if (!swap) {
        *ld = cols > 1 ? cols : 1;
        return nn_tensor_empty(ctx, dt, nd, shape);
    }
    memcpy(phys, shape, sizeof(int64_t) * (size_t)nd);
    phys[nd - 3] = shape[nd - 2];
    phys[nd - 2] = shape[nd - 3];
    nn_tensor *base = nn_tensor_empty(ctx, dt, nd, phys);
    if (!base) return NULL;
    memcpy(strides, base->strides, sizeof(int64_t) * (size_t)nd);
    strides[nd - 3] = base->strides[nd - 2];
    strides[nd - 2] = base->strides[nd - 3];
    nn_tensor *v = nn_tensor_view_raw(ctx, base, nd, shape, strides, 0);
    nn_tensor_release(base);
    *ld = strides[nd - 2];
    return v;
}

static nn_dtype sdpa_dtype(const nn_node *node) {
    bool f64 = false;
    for (int i = 0; i < 3; i++) f64 |= node->in[i].t->dtype == NN_FLOAT64;
    return f64 ? NN_FLOAT64 : NN_FLOAT32;
}

nn_tensor *op_sdpa_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_blas_require(ctx)) return NULL;
    nn_tensor *qin = node->in[0].t, *kin = node->in[1].t, *vin = node->in[2].t;
    sdpa_geom g;
    if (!sdpa_check(ctx, qin, kin, vin, &g)) return NULL;
    if (!(node->p.f[0] > 0)) node->p.f[0] = g.d > 0 ? 1.0 / sqrt((double)g.d) : 1.0;
    double scale = node->p.f[0];
    bool causal = node->p.flags & SDPA_CAUSAL;
    nn_dtype dt = sdpa_dtype(node);
    bool f64 = dt == NN_FLOAT64;
    size_t es = nn_dtype_size(dt);
    int nd = qin->ndim;
    int64_t pshape[NN_MAX_DIMS];
    memcpy(pshape, qin->shape, sizeof(int64_t) * (size_t)nd);
    pshape[nd - 1] = g.tk;
    /* Unrecorded, P is scratch for one batch at a time. */
    int64_t one[2] = {g.tq, g.tk};
    int64_t lq, lk, lv, lo;
    nn_tensor *q = sdpa_operand(ctx, qin, dt, &lq), *k = q ? sdpa_operand(ctx, kin, dt, &lk) : NULL;
    nn_tensor *v = k ? sdpa_operand(ctx, vin, dt, &lv) : NULL;
    nn_tensor *p = !v               ? NULL
                   : node->recorded ? nn_tensor_empty(ctx, dt, nd, pshape)
                                    : nn_tensor_empty(ctx, dt, 2, one);
    nn_tensor *o = p ? sdpa_new_like(ctx, dt, qin, g.dv, &lo) : NULL; /* in q's layout */
    if (o) {
        char *pp = nn_tensor_data(p);
        int64_t ps = node->recorded ? g.tq * g.tk : 0;
        int64_t bs = causal ? SDPA_BLOCK : g.tq > 0 ? g.tq : 1;
        for (int64_t b = 0; b < g.batch; b++) {
            const char *qb = sdpa_at(q, b, es), *kb = sdpa_at(k, b, es), *vb = sdpa_at(v, b, es);
            char *pb = pp + (size_t)(b * ps) * es, *ob = (char *)sdpa_at(o, b, es);
            /* Row block [r0, r1) of S needs columns [0, nc): j <= i when causal. */
            for (int64_t r0 = 0; r0 < g.tq; r0 += bs) {
                int64_t r1 = r0 + bs < g.tq ? r0 + bs : g.tq, nc = causal && r1 < g.tk ? r1 : g.tk;
                gemm(f64, false, true, r1 - r0, nc, g.d, scale, qb + (size_t)(r0 * lq) * es, lq, kb,
                     lk, pb + (size_t)(r0 * g.tk) * es, g.tk);
            }
            if (f64)
                attn_softmax_f64(pb, g.tq, g.tk, causal);
            else
                attn_softmax_f32(pb, g.tq, g.tk, causal);
            for (int64_t r0 = 0; r0 < g.tq; r0 += bs) {
                int64_t r1 = r0 + bs < g.tq ? r0 + bs : g.tq, nc = causal && r1 < g.tk ? r1 : g.tk;
                gemm(f64, false, false, r1 - r0, g.dv, nc, 1.0, pb + (size_t)(r0 * g.tk) * es, g.tk,
                     vb, lv, ob + (size_t)(r0 * lo) * es, lo);
            }
        }
        if (node->recorded) node->saved[0] = nn_tensor_retain(p);
    }
    nn_tensor_release(q);
    nn_tensor_release(k);
    nn_tensor_release(v);
    nn_tensor_release(p);
    return o;
}

/* Per batch, with dO the upstream gradient:
 *   dV = P^T dO, dP = dO V^T, dS = P (dP - rowsum(dP P)),
 *   dQ = scale dS K, dK = scale dS^T Q. */
nn_status op_sdpa_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_blas_require(ctx)) return ctx->err.code;
    bool wq = node->in[0].needs_grad, wk = node->in[1].needs_grad, wv = node->in[2].needs_grad;
    if (!wq && !wk && !wv) return NN_OK;
    nn_tensor *qin = node->in[0].t, *kin = node->in[1].t, *vin = node->in[2].t, *p = node->saved[0];
    NN_ASSERT(p != NULL);
    sdpa_geom g;
    if (!sdpa_check(ctx, qin, kin, vin, &g)) return ctx->err.code;
    nn_dtype dt = p->dtype;
    bool f64 = dt == NN_FLOAT64;
    size_t es = nn_dtype_size(dt);
    double scale = node->p.f[0];
    int64_t one[2] = {g.tq, g.tk};
    int64_t lq, lk, lv, lg, ldq = 0, ldk = 0, ldv = 0;
    nn_tensor *q = sdpa_operand(ctx, qin, dt, &lq), *k = q ? sdpa_operand(ctx, kin, dt, &lk) : NULL;
    nn_tensor *v = k ? sdpa_operand(ctx, vin, dt, &lv) : NULL;
    nn_tensor *go = v ? sdpa_operand(ctx, dout, dt, &lg) : NULL;
    nn_tensor *dp = go ? nn_tensor_empty(ctx, dt, 2, one) : NULL;
    nn_tensor *dq = NULL, *dk = NULL, *dv = NULL;
    nn_status stt = NN_OK;
    /* The gradients in their inputs' layouts (sdpa_new_like). */
    if (!dp || (wq && !(dq = sdpa_new_like(ctx, dt, qin, g.d, &ldq))) ||
        (wk && !(dk = sdpa_new_like(ctx, dt, kin, g.d, &ldk))) ||
        (wv && !(dv = sdpa_new_like(ctx, dt, vin, g.dv, &ldv)))) {
        stt = ctx->err.code;
        goto done;
    }
    const char *pp = nn_tensor_data(p);
    char *dpp = nn_tensor_data(dp);
    bool causal = node->p.flags & SDPA_CAUSAL;
    /* Row blocks [r0, r1) need columns [0, nc) and column blocks [c0, c1)
     * rows [rs, tq) when causal (P and dS are 0 where j > i); else one block. */
    int64_t rb = causal ? SDPA_BLOCK : g.tq > 0 ? g.tq : 1;
    int64_t cb = causal ? SDPA_BLOCK : g.tk > 0 ? g.tk : 1;
    for (int64_t b = 0; b < g.batch; b++) {
        const char *pb = pp + (size_t)(b * g.tq * g.tk) * es, *gb = sdpa_at(go, b, es);
        const char *qb = sdpa_at(q, b, es), *kb = sdpa_at(k, b, es), *vb = sdpa_at(v, b, es);
        char *dqb = dq ? (char *)sdpa_at(dq, b, es) : NULL;
        char *dkb = dk ? (char *)sdpa_at(dk, b, es) : NULL;
        char *dvb = dv ? (char *)sdpa_at(dv, b, es) : NULL;
        for (int64_t c0 = 0; dv && c0 < g.tk; c0 += cb) {
            int64_t c1 = c0 + cb < g.tk ? c0 + cb : g.tk, rs = causal ? (c0 < g.tq ? c0 : g.tq) : 0;
            gemm(f64, true, false, c1 - c0, g.dv, g.tq - rs, 1.0,
                 pb + (size_t)(rs * g.tk + c0) * es, g.tk, gb + (size_t)(rs * lg) * es, lg,
                 dvb + (size_t)(c0 * ldv) * es, ldv);
        }
        if (!dq && !dk) continue;
        for (int64_t r0 = 0; r0 < g.tq; r0 += rb) {
            int64_t r1 = r0 + rb < g.tq ? r0 + rb : g.tq, nc = causal && r1 < g.tk ? r1 : g.tk;
            gemm(f64, false, true, r1 - r0, nc, g.dv, 1.0, gb + (size_t)(r0 * lg) * es, lg, vb, lv,
                 dpp + (size_t)(r0 * g.tk) * es, g.tk);
        }
        if (f64)
            attn_softmax_grad_f64(pb, dpp, g.tq, g.tk, causal);
        else
            attn_softmax_grad_f32(pb, dpp, g.tq, g.tk, causal);
        for (int64_t r0 = 0; dq && r0 < g.tq; r0 += rb) {
            int64_t r1 = r0 + rb < g.tq ? r0 + rb : g.tq, nc = causal && r1 < g.tk ? r1 : g.tk;
            gemm(f64, false, false, r1 - r0, g.d, nc, scale, dpp + (size_t)(r0 * g.tk) * es, g.tk,
                 kb, lk, dqb + (size_t)(r0 * ldq) * es, ldq);
        }
        for (int64_t c0 = 0; dk && c0 < g.tk; c0 += cb) {
            int64_t c1 = c0 + cb < g.tk ? c0 + cb : g.tk, rs = causal ? (c0 < g.tq ? c0 : g.tq) : 0;
            gemm(f64, true, false, c1 - c0, g.d, g.tq - rs, scale,
                 dpp + (size_t)(rs * g.tk + c0) * es, g.tk, qb + (size_t)(rs * lq) * es, lq,
                 dkb + (size_t)(c0 * ldk) * es, ldk);
        }
    }
    din[0] = dq;
    din[1] = dk;
    din[2] = dv;
    dq = dk = dv = NULL;
done:
    nn_tensor_release(q);
    nn_tensor_release(k);
    nn_tensor_release(v);
    nn_tensor_release(go);
    nn_tensor_release(dp);
    nn_tensor_release(dq);
    nn_tensor_release(dk);
    nn_tensor_release(dv);
    return stt;
}

/* ---- public API ---- */

static nn_params params0(void) {
    nn_params p;
    memset(&p, 0, sizeof p);
    return p;
}

static bool reduction_ok(nn_ctx *ctx, const char *op, nn_reduction red) {
    if (red == NN_REDUCTION_MEAN || red == NN_REDUCTION_SUM || red == NN_REDUCTION_NONE)
        return true;
    nn_error_set(&ctx->err, NN_ERR_VALUE,
                 "%s: reduction must be 'mean', 'sum' or 'none' (got code %d)", op, (int)red);
    return false;
}

nn_tensor *nn_softmax(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    nn_params p = params0();
    p.i[0] = dim;
    return nn_exec(ctx, NN_OP_SOFTMAX, &a, 1, &p);
}

nn_tensor *nn_log_softmax(nn_ctx *ctx, nn_tensor *a, int64_t dim) {
    nn_params p = params0();
    p.i[0] = dim;
    return nn_exec(ctx, NN_OP_LOG_SOFTMAX, &a, 1, &p);
}

nn_tensor *nn_cross_entropy(nn_ctx *ctx, nn_tensor *logits, nn_tensor *target, int64_t ignore_index,
                            double label_smoothing, nn_reduction red) {
    if (!reduction_ok(ctx, "cross_entropy", red)) return NULL;
    if (!(label_smoothing >= 0 && label_smoothing <= 1))
        return fail(ctx, NN_ERR_VALUE, "cross_entropy: label_smoothing must lie in [0, 1]; got %g",
                    label_smoothing);
    nn_params p = params0();
    p.i[0] = ignore_index;
    p.i[1] = red;
    p.f[0] = label_smoothing;
    nn_tensor *in[2] = {logits, target};
    return nn_exec(ctx, NN_OP_CROSS_ENTROPY, in, 2, &p);
}

nn_tensor *nn_nll_loss(nn_ctx *ctx, nn_tensor *logp, nn_tensor *target, int64_t ignore_index,
                       nn_reduction red) {
    if (!reduction_ok(ctx, "nll_loss", red)) return NULL;
    nn_params p = params0();
    p.i[0] = ignore_index;
    p.i[1] = red;
    nn_tensor *in[2] = {logp, target};
    return nn_exec(ctx, NN_OP_NLL_LOSS, in, 2, &p);
}

static nn_tensor *pointwise_loss(nn_ctx *ctx, nn_op op, pw_kind kind, nn_tensor *x, nn_tensor *t,
                                 nn_reduction red) {
    if (!reduction_ok(ctx, pw_names[kind], red)) return NULL;
    nn_params p = params0();
    p.i[0] = red;
    nn_tensor *in[2] = {x, t};
    return nn_exec(ctx, op, in, 2, &p);
}

nn_tensor *nn_mse_loss(nn_ctx *ctx, nn_tensor *input, nn_tensor *target, nn_reduction red) {
    return pointwise_loss(ctx, NN_OP_MSE_LOSS, PW_MSE, input, target, red);
}

nn_tensor *nn_binary_cross_entropy(nn_ctx *ctx, nn_tensor *probs, nn_tensor *target,
                                   nn_reduction red) {
    return pointwise_loss(ctx, NN_OP_BCE, PW_BCE, probs, target, red);
}

nn_tensor *nn_binary_cross_entropy_with_logits(nn_ctx *ctx, nn_tensor *logits, nn_tensor *target,
                                               nn_reduction red) {
    return pointwise_loss(ctx, NN_OP_BCE_WITH_LOGITS, PW_BCEL, logits, target, red);
}

nn_tensor *nn_embedding(nn_ctx *ctx, nn_tensor *weight, nn_tensor *idx) {
    nn_tensor *in[2] = {weight, idx};
    return nn_exec(ctx, NN_OP_EMBEDDING, in, 2, NULL);
}

nn_tensor *nn_layer_norm(nn_ctx *ctx, nn_tensor *x, int n_norm, nn_tensor *weight, nn_tensor *bias,
                         double eps) {
    /* any eps, negative included, as PyTorch: var + eps < 0 gives NaN rows */
    nn_params p = params0();
    p.i[0] = n_norm;
    p.f[0] = eps;
    nn_tensor *in[3] = {x, NULL, NULL};
    int n = 1;
    if (weight) {
        in[n++] = weight;
        p.flags |= LN_WEIGHT;
    }
    if (bias) {
        in[n++] = bias;
        p.flags |= LN_BIAS;
    }
    return nn_exec(ctx, NN_OP_LAYER_NORM, in, n, &p);
}

nn_tensor *nn_dropout(nn_ctx *ctx, nn_tensor *x, double p, bool training) {
    if (!(p >= 0 && p <= 1))
        return fail(ctx, NN_ERR_VALUE,
                    "dropout: p is the probability of zeroing an element and must lie in [0, 1]; "
                    "got %g",
                    p);
    nn_params pr = params0();
    pr.f[0] = p;
    pr.flags = training ? DROP_TRAIN : 0;
    return nn_exec(ctx, NN_OP_DROPOUT, &x, 1, &pr);
}

nn_tensor *nn_scaled_dot_product_attention(nn_ctx *ctx, nn_tensor *q, nn_tensor *k, nn_tensor *v,
                                           bool causal, double scale) {
    nn_params p = params0();
    p.f[0] = scale > 0 ? scale : 0;
    p.flags = causal ? SDPA_CAUSAL : 0;
    nn_tensor *in[3] = {q, k, v};
    return nn_exec(ctx, NN_OP_SDPA, in, 3, &p);
}

/* ---- costs (n: input elements) ----
 * softmax, log_softmax: 5n (max, subtract, exp, sum, divide or log-subtract).
 * cross_entropy over logits of L elements and R targets: 5L + 2R (the log
 * softmax, then a gather-negate and a sum per row), 2L more with label
 * smoothing; nll_loss: 2R. mse_loss: 3n; binary_cross_entropy: 5n; with
 * logits: 6n. layer_norm: 6n (mean, variance, normalise) + one rsqrt per row,
 * + n for the weight, + n for the bias. dropout in training: 2n (mask and
 * scale), in eval a view (nothing). embedding: no FLOPs, the gathered rows
 * and the indices read. attention, per batch-head with q [T, D], k [S, D],
 * v [S, Dv]: 2TSD (q k^T) + TS (scale) + 5TS (softmax) + 2TSDv (times v),
 * masked entries included, as the kernel computes them. */
bool nn_cost_nn(const nn_node *nd, const nn_tensor *out, nn_op_cost *c) {
    const nn_tensor *x = nd->in[0].t;
    double n = nn_cost_numel(x);
    switch (nd->op) {
    case NN_OP_SOFTMAX:
    case NN_OP_LOG_SOFTMAX: c->flops = 5 * n; return true;
    case NN_OP_CROSS_ENTROPY: {
        double r = nn_cost_numel(nd->in[1].t);
        c->flops = 5 * n + 2 * r + (nd->p.f[0] > 0 ? 2 * n : 0);
        return true;
    }
    case NN_OP_NLL_LOSS: c->flops = 2 * nn_cost_numel(nd->in[1].t); return true;
    case NN_OP_MSE_LOSS: c->flops = 3 * n; return true;
    case NN_OP_BCE: c->flops = 5 * n; return true;
    case NN_OP_BCE_WITH_LOGITS: c->flops = 6 * n; return true;
    case NN_OP_LAYER_NORM: {
        double d = 1;
        for (int i = x->ndim - (int)nd->p.i[0]; i < x->ndim; i++) d *= (double)x->shape[i];
        c->flops = 6 * n + (d > 0 ? n / d : 0);
        if (nd->p.flags & LN_WEIGHT) c->flops += n;
        if (nd->p.flags & LN_BIAS) c->flops += n;
        return true;
    }
    case NN_OP_DROPOUT:
        if (dropout_identity(nd))
            c->bytes_read = c->bytes_written = 0;
        else
            c->flops = 2 * n;
        return true;
    case NN_OP_EMBEDDING:
        c->bytes_read = nn_cost_bytes(out) + nn_cost_bytes(nd->in[1].t);
        return true;
    case NN_OP_SDPA: {
        const nn_tensor *k = nd->in[1].t, *v = nd->in[2].t;
        double t = (double)x->shape[x->ndim - 2], dq = (double)x->shape[x->ndim - 1];
        double s = (double)k->shape[k->ndim - 2], dv = (double)v->shape[v->ndim - 1];
        double heads = t * dq > 0 ? n / (t * dq) : 0;
        c->flops = heads * (2 * t * s * dq + 6 * t * s + 2 * t * s * dv);
        return true;
    }
    default: return false;
    }
}
