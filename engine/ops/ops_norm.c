/* Batch and group normalisation. Batch norm in float32/float64 is one node
 * (batch_norm, below, ATen's arithmetic); group norm and batch norm in the
 * narrow or mixed dtypes are composed of the public ops (mean, var, sub,
 * rsqrt, mul, add), so autograd, the hooks and the module labels see each
 * step. The statistics are PyTorch's: the biased variance normalises, and
 * BatchNorm's running variance is updated with the unbiased one. */
#include <math.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_thread.h"
#include "ops_lanes.h"

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

/* ---- batch_norm as one node ----
 * inputs: x [N, C, *], then weight and bias [C] when flags has BN_WEIGHT /
 * BN_BIAS, then mean and invstd [C]: the batch's statistics in training,
 * the running ones in evaluation (nn_batch_norm computes them, so the node
 * is a pure function of its inputs). flags BN_TRAIN: the statistics are
 * functions of x, and the backward says so. The arithmetic is ATen's CPU
 * kernel's (aten/src/ATen/native/cpu/batch_norm_kernel.cpp):
 *   forward   y = x * alpha + beta, alpha = invstd * w, beta = b - mean * alpha
 *   backward  sum = sum(dy), dotp = sum((x - mean) dy) per channel;
 *             training  dx = (dy - sum / n - (x - mean) k) invstd w,
 *                       k = dotp invstd^2 / n
 *             eval      dx = dy invstd w
 *             dw = dotp invstd, db = sum
 * with the sums over a channel's n = N * L values in double (an [N, C]
 * input's statistics as ATen's kernel for it: bn_stats_rows), and each
 * multiply-add of the forward fused, as ATen's build contracts them. */

enum { BN_WEIGHT = 1, BN_BIAS = 2, BN_TRAIN = 4 };

static nn_tensor *bn_weight(const nn_node *n) {
    return (n->p.flags & BN_WEIGHT) ? n->in[1].t : NULL;
}
static int bn_bias_slot(const nn_node *n) {
    return (n->p.flags & BN_WEIGHT) ? 2 : 1;
}
static nn_tensor *bn_bias(const nn_node *n) {
    return (n->p.flags & BN_BIAS) ? n->in[bn_bias_slot(n)].t : NULL;
}
static int bn_stat_slot(const nn_node *n) {
    return 1 + !!(n->p.flags & BN_WEIGHT) + !!(n->p.flags & BN_BIAS);
}

/* [N, C, L] geometry of [x]: L is the product of the dims after C. */
static void bn_geom(const nn_tensor *x, int64_t *N, int64_t *C, int64_t *L) {
    *N = x->shape[0];
    *C = x->shape[1];
    *L = 1;
    for (int d = 2; d < x->ndim; d++) *L *= x->shape[d];
}

/* Row sums in eight double lanes (one accumulator would serialise on the
 * add's latency). GCC leaves the float32 loops below scalar (a convert and
 * a double add per element), so their whole blocks of eight go through
 * these, written with vector types (the plain sum is ops_lanes.h's, shared
 * with sum): lane j still adds element i + j, converted to double, in the
 * same order, so the bits are the same. */

#define BN_LANES_BEGIN                                                                             \
    lanes_v4d a_lo, a_hi;                                                                          \
    memcpy(&a_lo, a, sizeof a_lo);                                                                 \
    memcpy(&a_hi, a + 4, sizeof a_hi)
#define BN_LANES_END                                                                               \
    memcpy(a, &a_lo, sizeof a_lo);                                                                 \
    memcpy(a + 4, &a_hi, sizeof a_hi)
#define BN_LOAD8(lo, hi, ptr)                                                                      \
    lanes_v4f lo, hi;                                                                              \
    memcpy(&lo, (ptr), sizeof lo);                                                                 \
    memcpy(&hi, (ptr) + 4, sizeof hi)

/* a[j] += (p[i + j] - m)^2, the difference and square in float */
static inline __attribute__((always_inline)) void bn_lanes_dev2_f32(const float *p, int64_t n8,
                                                                    float m, double *a) {
    BN_LANES_BEGIN;
    for (int64_t i = 0; i < n8; i += 8) {
        BN_LOAD8(x0, x1, p + i);
        lanes_v4f d0 = x0 - m, d1 = x1 - m;
        a_lo += __builtin_convertvector(d0 * d0, lanes_v4d);
        a_hi += __builtin_convertvector(d1 * d1, lanes_v4d);
    }
    BN_LANES_END;
}
/* a[j] += g[i + j], b[j] += (x[i + j] - m) g[i + j], the product in float */
static inline __attribute__((always_inline)) void
bn_lanes_dot_f32(const float *x, const float *g, int64_t n8, float m, double *a, double *b) {
    lanes_v4d b_lo, b_hi;
    memcpy(&b_lo, b, sizeof b_lo);
    memcpy(&b_hi, b + 4, sizeof b_hi);
    BN_LANES_BEGIN;
    for (int64_t i = 0; i < n8; i += 8) {
        BN_LOAD8(g0, g1, g + i);
        BN_LOAD8(x0, x1, x + i);
        a_lo += __builtin_convertvector(g0, lanes_v4d);
        a_hi += __builtin_convertvector(g1, lanes_v4d);
        b_lo += __builtin_convertvector((x0 - m) * g0, lanes_v4d);
        b_hi += __builtin_convertvector((x1 - m) * g1, lanes_v4d);
    }
    BN_LANES_END;
    memcpy(b, &b_lo, sizeof b_lo);
    memcpy(b + 4, &b_hi, sizeof b_hi);
}
/* float64: the plain loops */
static inline __attribute__((always_inline)) void bn_lanes_dev2_f64(const double *p, int64_t n8,
                                                                    double m, double *a) {
    for (int64_t i = 0; i < n8; i += 8)
        for (int j = 0; j < 8; j++) {
            double d = p[i + j] - m;
            a[j] += d * d;
        }
}
static inline __attribute__((always_inline)) void
bn_lanes_dot_f64(const double *x, const double *g, int64_t n8, double m, double *a, double *b) {
    for (int64_t i = 0; i < n8; i += 8)
        for (int j = 0; j < 8; j++) {
            a[j] += g[i + j];
            b[j] += (x[i + j] - m) * g[i + j];
        }
}

/* ATen's kernel is compiled with contraction: beta = b - mean * alpha and
 * y = x * alpha + beta are one fused multiply-add each (checked against its
 * output). */
#define FMA_f32 fmaf
#define FMA_f64 fma
/* ATen adds a channel's values one after the other in double. A float32
 * mean and variance sum are rounded to float after that, which the order
 * of eight double lanes changes only when a sum falls within a double's
 * rounding of a float's halfway point, so float32 keeps the lanes (as fast
 * as the memory); float64 keeps the values in double and takes ATen's
 * order. */
#define SEQ_f32 0
#define SEQ_f64 1
/* s + d * d: the float32 square is rounded to float before the double
 * sum, the float64 one fused into it (contraction, as in ATen's build) */
#define SQ_ADD_f32(d, s) ((s) + (double)((d) * (d)))
#define SQ_ADD_f64(d, s) fma((d), (d), (s))

#define DEF_BN(T, SUF)                                                                             \
    NN_KERNEL_CLONES static double bn_sum_##SUF(const T *p, int64_t n, double s) {                 \
        double a[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                    \
        int64_t i = SEQ_##SUF ? 0 : n & ~(int64_t)7;                                               \
        lanes_sum_##T(p, i, a);                                                                    \
        for (; i < n; i++) s += p[i];                                                              \
        return s + ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));              \
    }                                                                                              \
    /* sum of (p - m)^2, the difference and square in T as ATen */                                 \
    NN_KERNEL_CLONES static double bn_dev2_##SUF(const T *p, int64_t n, T m, double s) {           \
        double a[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                    \
        int64_t i = SEQ_##SUF ? 0 : n & ~(int64_t)7;                                               \
        bn_lanes_dev2_##SUF(p, i, m, a);                                                           \
        for (; i < n; i++) {                                                                       \
            T d = p[i] - m;                                                                        \
            s = SQ_ADD_##SUF(d, s);                                                                \
        }                                                                                          \
        return s + ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));              \
    }                                                                                              \
    /* sum of dy and of (x - m) dy */                                                              \
    NN_KERNEL_CLONES static void bn_dot_##SUF(const T *x, const T *g, int64_t n, T m, double *sum, \
                                              double *dotp) {                                      \
        double a[8] = {0, 0, 0, 0, 0, 0, 0, 0}, b[8] = {0, 0, 0, 0, 0, 0, 0, 0};                   \
        int64_t i = SEQ_##SUF ? 0 : n & ~(int64_t)7;                                               \
        bn_lanes_dot_##SUF(x, g, i, m, a, b);                                                      \
        double s = 0, d = 0;                                                                       \
        for (; i < n; i++) {                                                                       \
            s += g[i];                                                                             \
            d += (x[i] - m) * g[i];                                                                \
        }                                                                                          \
        *sum += s + ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));             \
        *dotp += d + ((b[0] + b[1]) + (b[2] + b[3])) + ((b[4] + b[5]) + (b[6] + b[7]));            \
    }                                                                                              \
    /* mean[c] and the sum of squared deviations var_sum[c] of each channel */                     \
    static void bn_stats_##SUF(const T *x, int64_t N, int64_t C, int64_t L, int64_t c0,            \
                               int64_t c1, T *mean, double *var_sum) {                             \
        const double cnt = (double)(N * L);                                                        \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            double s = 0;                                                                          \
            for (int64_t n = 0; n < N; n++) s = bn_sum_##SUF(x + (n * C + c) * L, L, s);           \
            T m = (T)(s / cnt);                                                                    \
            double v = 0;                                                                          \
            for (int64_t n = 0; n < N; n++) v = bn_dev2_##SUF(x + (n * C + c) * L, L, m, v);       \
            mean[c] = m;                                                                           \
            var_sum[c] = v;                                                                        \
        }                                                                                          \
    }                                                                                              \
    /* The same for an [N, C] input (L = 1), as ATen's kernel for it (its                          \
     * channels-last one) does: the rows split into one part per thread,                           \
     * each part's rows added in T into a per-part row of C, those rows added                      \
     * in double; the squared deviations likewise, each added with one fused                       \
     * multiply-add. The parts are ATen's at nndb's thread count; they are                         \
     * walked here one after the other (the bits depend on the split only). */                     \
    static void bn_stats_rows_##SUF(const T *x, int64_t N, int64_t C, T *mean, double *var_sum,    \
                                    T *buf) {                                                      \
        int64_t chunk = nn_aten_part(N, 1);                                                        \
        for (int64_t c = 0; c < C; c++) var_sum[c] = 0;                                            \
        for (int pass = 0; pass < 2; pass++)                                                       \
            for (int64_t r0 = 0; r0 < N; r0 += chunk) {                                            \
                int64_t r1 = r0 + chunk < N ? r0 + chunk : N;                                      \
                memset(buf, 0, sizeof(T) * (size_t)C);                                             \
                for (int64_t r = r0; r < r1; r++) {                                                \
                    const T *xr = x + r * C;                                                       \
                    if (pass == 0)                                                                 \
                        for (int64_t c = 0; c < C; c++) buf[c] = xr[c] + buf[c];                   \
                    else                                                                           \
                        for (int64_t c = 0; c < C; c++) {                                          \
                            T d = xr[c] - mean[c];                                                 \
                            buf[c] = FMA_##SUF(d, d, buf[c]);                                      \
                        }                                                                          \
                }                                                                                  \
                for (int64_t c = 0; c < C; c++) var_sum[c] += (double)buf[c];                      \
                if (pass == 0 && r1 == N)                                                          \
                    for (int64_t c = 0; c < C; c++) {                                              \
                        mean[c] = (T)(var_sum[c] / (double)N);                                     \
                        var_sum[c] = 0;                                                            \
                    }                                                                              \
            }                                                                                      \
    }                                                                                              \
    NN_KERNEL_CLONES static void bn_fwd_##SUF(const T *x, const T *w, const T *b, const T *mean,   \
                                              const T *invstd, T *y, int64_t N, int64_t C,         \
                                              int64_t L, int64_t c0, int64_t c1) {                 \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            T alpha = w ? invstd[c] * w[c] : invstd[c];                                            \
            T beta = FMA_##SUF(-mean[c], alpha, b ? b[c] : (T)0);                                  \
            for (int64_t n = 0; n < N; n++) {                                                      \
                const T *xp = x + (n * C + c) * L;                                                 \
                T *yp = y + (n * C + c) * L;                                                       \
                for (int64_t i = 0; i < L; i++) yp[i] = FMA_##SUF(xp[i], alpha, beta);             \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    NN_KERNEL_CLONES static void bn_bwd_##SUF(                                                     \
        const T *x, const T *g, const T *w, const T *mean, const T *invstd, bool train, T *dx,     \
        T *dw, T *db, int64_t N, int64_t C, int64_t L, int64_t c0, int64_t c1) {                   \
        const double cnt = (double)(N * L);                                                        \
        for (int64_t c = c0; c < c1; c++) {                                                        \
            const T m = mean[c], is = invstd[c], wc = w ? w[c] : (T)1;                             \
            double sum = 0, dotp = 0;                                                              \
            for (int64_t n = 0; n < N; n++)                                                        \
                bn_dot_##SUF(x + (n * C + c) * L, g + (n * C + c) * L, L, m, &sum, &dotp);         \
            if (dw) dw[c] = (T)(dotp * is);                                                        \
            if (db) db[c] = (T)sum;                                                                \
            if (!dx) continue;                                                                     \
            const T k = (T)(dotp * is * is / cnt), gm = (T)(sum / cnt);                            \
            for (int64_t n = 0; n < N; n++) {                                                      \
                const T *xp = x + (n * C + c) * L, *gp = g + (n * C + c) * L;                      \
                T *dp = dx + (n * C + c) * L;                                                      \
                if (train)                                                                         \
                    for (int64_t i = 0; i < L; i++)                                                \
                        dp[i] = (gp[i] - gm - (xp[i] - m) * k) * is * wc;                          \
                else                                                                               \
                    for (int64_t i = 0; i < L; i++) dp[i] = gp[i] * is * wc;                       \
            }                                                                                      \
        }                                                                                          \
    }

DEF_BN(float, f32)
DEF_BN(double, f64)

/* The kernels above split across the engine's threads by whole channels:
 * each channel's sums are taken by one task in the same order as at one
 * thread, so the results do not depend on the thread count. */
enum { BN_JOB_STATS, BN_JOB_FWD, BN_JOB_BWD };
typedef struct bn_job {
    int kind;
    bool f64, train;
    const void *x, *g, *w, *b, *mean, *invstd;
    void *y, *dw, *db;
    double *var_sum;
    int64_t N, C, L;
} bn_job;

static void bn_task(void *arg, int t, int T) {
    const bn_job *j = arg;
    int64_t c0, c1;
    nn_parallel_range(j->C, t, T, 1, &c0, &c1);
    switch (j->kind) {
    case BN_JOB_STATS:
        if (j->f64)
            bn_stats_f64(j->x, j->N, j->C, j->L, c0, c1, (double *)j->mean, j->var_sum);
        else
            bn_stats_f32(j->x, j->N, j->C, j->L, c0, c1, (float *)j->mean, j->var_sum);
        break;
    case BN_JOB_FWD:
        if (j->f64)
            bn_fwd_f64(j->x, j->w, j->b, j->mean, j->invstd, j->y, j->N, j->C, j->L, c0, c1);
        else
            bn_fwd_f32(j->x, j->w, j->b, j->mean, j->invstd, j->y, j->N, j->C, j->L, c0, c1);
        break;
    default:
        if (j->f64)
            bn_bwd_f64(j->x, j->g, j->w, j->mean, j->invstd, j->train, j->y, j->dw, j->db, j->N,
                       j->C, j->L, c0, c1);
        else
            bn_bwd_f32(j->x, j->g, j->w, j->mean, j->invstd, j->train, j->y, j->dw, j->db, j->N,
                       j->C, j->L, c0, c1);
        break;
    }
}

static void bn_go(bn_job *j) {
    int T = nn_parallel_tasks(j->N * j->C * j->L, NN_PAR_MIN_ELEMWISE);
    if (T > j->C) T = (int)j->C;
    if (T <= 1)
        bn_task(j, 0, 1);
    else
        nn_parallel_run(T, bn_task, j);
}

nn_tensor *op_batch_norm_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *xin = node->in[0].t, *win = bn_weight(node), *bin = bn_bias(node);
    int s = bn_stat_slot(node);
    nn_dtype dt = xin->dtype;
    int64_t N, C, L;
    bn_geom(xin, &N, &C, &L);
    nn_tensor *x = nn_contiguous_as(ctx, xin, dt), *w = NULL, *b = NULL, *y = NULL;
    nn_tensor *mean = x ? nn_contiguous_as(ctx, node->in[s].t, dt) : NULL;
    nn_tensor *invstd = mean ? nn_contiguous_as(ctx, node->in[s + 1].t, dt) : NULL;
    if (!invstd || (win && !(w = nn_contiguous_as(ctx, win, dt))) ||
        (bin && !(b = nn_contiguous_as(ctx, bin, dt))))
        goto done;
    if (!(y = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape))) goto done;
    const void *wp = w ? nn_tensor_data(w) : NULL, *bp = b ? nn_tensor_data(b) : NULL;
    bn_job j = {.kind = BN_JOB_FWD,
                .f64 = dt == NN_FLOAT64,
                .x = nn_tensor_data(x),
                .w = wp,
                .b = bp,
                .mean = nn_tensor_data(mean),
                .invstd = nn_tensor_data(invstd),
                .y = nn_tensor_data(y),
                .N = N,
                .C = C,
                .L = L};
    bn_go(&j);
done:
    nn_tensor_release(x);
    nn_tensor_release(w);
    nn_tensor_release(b);
    nn_tensor_release(mean);
    nn_tensor_release(invstd);
    return y;
}

nn_status op_batch_norm_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t, *win = bn_weight(node), *bin = bn_bias(node);
    int s = bn_stat_slot(node), bslot = bn_bias_slot(node);
    bool want_x = node->in[0].needs_grad, want_w = win && node->in[1].needs_grad,
         want_b = bin && node->in[bslot].needs_grad;
    if (!want_x && !want_w && !want_b) return NN_OK;
    nn_dtype dt = xin->dtype;
    int64_t N, C, L;
    bn_geom(xin, &N, &C, &L);
    nn_tensor *x = nn_contiguous_as(ctx, xin, dt), *g = x ? nn_contiguous_as(ctx, dout, dt) : NULL;
    nn_tensor *mean = g ? nn_contiguous_as(ctx, node->in[s].t, dt) : NULL;
    nn_tensor *invstd = mean ? nn_contiguous_as(ctx, node->in[s + 1].t, dt) : NULL;
    nn_tensor *w = NULL, *dx = NULL, *dw = NULL, *db = NULL;
    nn_status st = NN_OK;
    if (!invstd || (win && !(w = nn_contiguous_as(ctx, win, dt))) ||
        (want_x && !(dx = nn_tensor_empty(ctx, dt, xin->ndim, xin->shape))) ||
        (want_w && !(dw = nn_tensor_empty(ctx, dt, 1, &C))) ||
        (want_b && !(db = nn_tensor_empty(ctx, dt, 1, &C)))) {
        st = ctx->err.code;
        nn_tensor_release(dx);
        nn_tensor_release(dw);
        nn_tensor_release(db);
        goto done;
    }
    bool train = node->p.flags & BN_TRAIN;
    void *dxp = dx ? nn_tensor_data(dx) : NULL, *dwp = dw ? nn_tensor_data(dw) : NULL,
         *dbp = db ? nn_tensor_data(db) : NULL;
    const void *wp = w ? nn_tensor_data(w) : NULL;
    bn_job j = {.kind = BN_JOB_BWD,
                .f64 = dt == NN_FLOAT64,
                .train = train,
                .x = nn_tensor_data(x),
                .g = nn_tensor_data(g),
                .w = wp,
                .mean = nn_tensor_data(mean),
                .invstd = nn_tensor_data(invstd),
                .y = dxp,
                .dw = dwp,
                .db = dbp,
                .N = N,
                .C = C,
                .L = L};
    bn_go(&j);
    din[0] = dx;
    if (want_w) din[1] = dw;
    if (want_b) din[bslot] = db;
done:
    nn_tensor_release(x);
    nn_tensor_release(g);
    nn_tensor_release(w);
    nn_tensor_release(mean);
    nn_tensor_release(invstd);
    return st;
}

/* Forward FLOPs of the fused batch_norm: a multiply and an add per element. */
bool nn_cost_norm(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    if (n->op != NN_OP_BATCH_NORM) return false;
    c->flops = 2 * nn_cost_numel(out);
    return true;
}

static bool same_dtype_or_null(const nn_tensor *t, nn_dtype dt) {
    return !t || t->dtype == dt;
}

/* The fused path: float32/float64 with every [C] tensor of x's dtype. The
 * statistics are computed here (and the running ones updated, in double, as
 * ATen does); the node then normalises with them. */
static nn_tensor *batch_norm_fused(nn_ctx *ctx, nn_tensor *x, nn_tensor *running_mean,
                                   nn_tensor *running_var, nn_tensor *weight, nn_tensor *bias,
                                   bool training, double momentum, double eps) {
    nn_dtype dt = x->dtype;
    int64_t N, C, L;
    bn_geom(x, &N, &C, &L);
    nn_tensor *mean = nn_tensor_empty(ctx, dt, 1, &C);
    nn_tensor *invstd = mean ? nn_tensor_empty(ctx, dt, 1, &C) : NULL;
    nn_tensor *vs = invstd ? nn_tensor_empty(ctx, NN_FLOAT64, 1, &C) : NULL;
    nn_tensor *xc = vs && training ? nn_contiguous_as(ctx, x, dt) : NULL;
    nn_tensor *rm = NULL, *rv = NULL, *nm = NULL, *nv = NULL, *y = NULL;
    if (!vs || (training && !xc)) goto done;
    bool f64 = dt == NN_FLOAT64;
    double *var_sum = nn_tensor_data(vs);
    void *mp = nn_tensor_data(mean), *ip = nn_tensor_data(invstd);
    const double cnt = (double)(N * L);
    if (training) {
        bn_job j = {.kind = BN_JOB_STATS,
                    .f64 = f64,
                    .x = nn_tensor_data(xc),
                    .mean = mp,
                    .var_sum = var_sum,
                    .N = N,
                    .C = C,
                    .L = L};
        if (L == 1) {
            nn_tensor *buf = nn_tensor_empty(ctx, dt, 1, &C);
            if (!buf) goto done;
            if (f64)
                bn_stats_rows_f64(j.x, N, C, mp, var_sum, nn_tensor_data(buf));
            else
                bn_stats_rows_f32(j.x, N, C, mp, var_sum, nn_tensor_data(buf));
            nn_tensor_release(buf);
        } else {
            bn_go(&j);
        }
        /* ATen keeps var_sum in x's dtype: the float32 path rounds it there. */
        if (!f64)
            for (int64_t c = 0; c < C; c++) var_sum[c] = (float)var_sum[c];
        for (int64_t c = 0; c < C; c++) {
            double var = f64 ? var_sum[c] / cnt : (float)((float)var_sum[c] / (float)cnt);
            double v = 1.0 / sqrt(var + eps);
            if (f64)
                ((double *)ip)[c] = v;
            else
                ((float *)ip)[c] = (float)v;
        }
        /* running = momentum * stat + (1 - momentum) * running, the variance
         * unbiased, in double; written into fresh [C] tensors, then copied
         * into the buffers (their version moves as after copy_). */
        if (running_mean || running_var) {
            if ((running_mean && !(rm = nn_contiguous_as(ctx, running_mean, dt))) ||
                (running_var && !(rv = nn_contiguous_as(ctx, running_var, dt))) ||
                !(nm = nn_tensor_empty(ctx, dt, 1, &C)) || !(nv = nn_tensor_empty(ctx, dt, 1, &C)))
                goto done;
            for (int64_t c = 0; c < C; c++) {
                double m = f64 ? ((double *)mp)[c] : ((float *)mp)[c];
                double uv =
                    f64 ? var_sum[c] / (cnt - 1) : (float)((float)var_sum[c] / (float)(cnt - 1));
                if (f64) {
                    if (rm)
                        ((double *)nn_tensor_data(nm))[c] =
                            momentum * m + (1 - momentum) * ((double *)nn_tensor_data(rm))[c];
                    if (rv)
                        ((double *)nn_tensor_data(nv))[c] =
                            momentum * uv + (1 - momentum) * ((double *)nn_tensor_data(rv))[c];
                } else {
                    /* ATen rounds momentum to the parameters' type first,
                     * so the mean's update is all float; the variance's
                     * unbiased value is a double there, which makes its
                     * first product and the sum double. */
                    float mf = (float)momentum, keep = 1.0f - mf;
                    if (rm)
                        ((float *)nn_tensor_data(nm))[c] =
                            mf * (float)m + keep * ((float *)nn_tensor_data(rm))[c];
                    if (rv)
                        ((float *)nn_tensor_data(nv))[c] =
                            (float)((double)mf * uv +
                                    (double)(keep * ((float *)nn_tensor_data(rv))[c]));
                }
            }
            if ((rm && nn_tensor_copy_(ctx, running_mean, nm)) ||
                (rv && nn_tensor_copy_(ctx, running_var, nv)))
                goto done;
        }
    } else {
        /* ATen's eval invstd: 1 / sqrt(running_var + eps) in x's dtype */
        rm = nn_contiguous_as(ctx, running_mean, dt);
        rv = rm ? nn_contiguous_as(ctx, running_var, dt) : NULL;
        if (!rv) goto done;
        for (int64_t c = 0; c < C; c++) {
            if (f64) {
                ((double *)mp)[c] = ((double *)nn_tensor_data(rm))[c];
                ((double *)ip)[c] = 1.0 / sqrt(((double *)nn_tensor_data(rv))[c] + eps);
            } else {
                ((float *)mp)[c] = ((float *)nn_tensor_data(rm))[c];
                ((float *)ip)[c] = 1.0f / sqrtf(((float *)nn_tensor_data(rv))[c] + (float)eps);
            }
        }
    }
    nn_params p;
    memset(&p, 0, sizeof p);
    p.flags = (weight ? BN_WEIGHT : 0) | (bias ? BN_BIAS : 0) | (training ? BN_TRAIN : 0);
    nn_tensor *in[5];
    int n = 0;
    in[n++] = x;
    if (weight) in[n++] = weight;
    if (bias) in[n++] = bias;
    in[n++] = mean;
    in[n++] = invstd;
    y = nn_exec(ctx, NN_OP_BATCH_NORM, in, n, &p);
done:
    nn_tensor_release(mean);
    nn_tensor_release(invstd);
    nn_tensor_release(vs);
    nn_tensor_release(xc);
    nn_tensor_release(rm);
    nn_tensor_release(rv);
    nn_tensor_release(nm);
    nn_tensor_release(nv);
    return y;
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
    if (training && count <= 1) {
        char s[128];
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "Expected more than 1 value per channel when training, got input size "
                     "torch.Size(%s)",
                     nn_tensor_shape_str(x, s, sizeof s));
        return NULL;
    }
    if (!training && (!running_mean || !running_var)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "batch_norm: running_mean and running_var are needed when not training");
        return NULL;
    }
    nn_dtype dt = x->dtype;
    if ((dt == NN_FLOAT32 || dt == NN_FLOAT64) && same_dtype_or_null(weight, dt) &&
        same_dtype_or_null(bias, dt) && same_dtype_or_null(running_mean, dt) &&
        same_dtype_or_null(running_var, dt))
        return batch_norm_fused(ctx, x, running_mean, running_var, weight, bias, training, momentum,
                                eps);
    /* Other dtypes (float16, bfloat16, mixed): composed of the public ops. */
    nn_tensor *y;
    if (training) {
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
