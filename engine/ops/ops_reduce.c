/* Reductions: sum, mean, max/min (over everything, or along one dim with
 * indices), argmax/argmin, var, std, logsumexp and norm, forward and
 * backward.
 *
 * One accumulation engine serves the float reductions. The strided iterator
 * walks the input with the accumulator's strides set to 0 over the reduced
 * dims: a reduction over inner dims then runs as a row loop with register
 * accumulators, one over outer dims as an axpy into the accumulator row that
 * the compiler vectorises. Accumulators are double for float32 and float64
 * alike, so float32 sums are exact to about 1e-16 before the final rounding
 * (closer to the true value than PyTorch's float cascade, and well within
 * the float32 tolerance). Multi-pass reductions (var, logsumexp) feed the
 * first pass's result back as a per-output operand.
 *
 * Backwards read dout through strides over the input's shape (0 on the
 * reduced dims), so sum and mean hand back a stride-0 view of dout and copy
 * nothing; the others run one fused loop over the input.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_sleef.h"
#include "ops_lanes.h"

static nn_tensor *in0(nn_node *n) {
    return n->in[0].t;
}

/* ---- geometry ---- */

typedef struct rgeo {
    bool mask[NN_MAX_DIMS]; /* reduced dims of the input */
    int out_ndim;
    int64_t out_shape[NN_MAX_DIMS];
    int64_t count; /* input elements per output element */
} rgeo;

static bool geo_init(nn_ctx *ctx, const nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim,
                     rgeo *g) {
    if (nn_reduce_mask(ctx, a->ndim, dims, n_dims, g->mask)) return false;
    g->out_ndim = nn_reduce_shape(a, g->mask, keepdim, g->out_shape);
    g->count = 1;
    for (int i = 0; i < a->ndim; i++)
        if (g->mask[i]) g->count *= a->shape[i];
    return true;
}

/* Element strides that read [o] (a tensor of the reduction's output shape,
 * with or without the kept dims) over the input's shape: 0 on reduced dims. */
static void over_input(const nn_tensor *o, int in_ndim, const bool *mask, bool keepdim,
                       int64_t *st) {
    int j = 0;
    for (int i = 0; i < in_ndim; i++) {
        if (mask[i]) {
            st[i] = 0;
            if (keepdim) j++;
        } else {
            st[i] = o->strides[j++];
        }
    }
}

/* acc[j] = loop's reduction of src over the dims [mask] selects (acc
 * already holds the starting values), split across threads for large
 * inputs: acc walked with the input's geometry, its reduced dims at stride
 * 0. */
static void reduce_into(nn_tensor *acc, const nn_tensor *src, const bool *mask, bool keepdim,
                        nn_iter_loop loop, void *arg) {
    int64_t ast[NN_MAX_DIMS];
    over_input(acc, src->ndim, mask, keepdim, ast);
    nn_iter it;
    nn_iter_init(&it, src->ndim, src->shape);
    nn_iter_add_strided(&it, acc, ast);
    nn_iter_add(&it, src);
    nn_iter_run_reduce_parallel(&it, loop, arg, NN_PAR_MIN_REDUCE);
}

bool nn_reduce_needs_float(nn_ctx *ctx, const char *op, nn_dtype dt) {
    const char *tn = nn_dtype_scalar_name(dt);
    if (!strcmp(op, "mean"))
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "mean(): could not infer output dtype. Input dtype must be either a floating "
                     "point or complex dtype. Got: %s",
                     tn);
    else if (!strcmp(op, "norm"))
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "norm(): input dtype should be either floating point or complex. Got %s "
                     "instead.",
                     tn);
    else if (!strcmp(op, "var") || !strcmp(op, "std"))
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "std and var only support floating point and complex dtypes");
    else
        return false;
    return true;
}

static nn_tensor *need_float(nn_ctx *ctx, const char *op, const nn_tensor *a) {
    if (!nn_reduce_needs_float(ctx, op, a->dtype))
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "%s: needs a float tensor, got %s; convert it first (e.g. x.float())", op,
                     nn_dtype_name(a->dtype));
    return NULL;
}

static nn_tensor *empty_error(nn_ctx *ctx, const char *op, const nn_tensor *a, const char *how) {
    char s[128];
    nn_error_set(&ctx->err, NN_ERR_VALUE,
                 "%s: cannot reduce the tensor of shape %s %s: there are no elements", op,
                 nn_tensor_shape_str(a, s, sizeof s), how);
    return NULL;
}

/* ---- float accumulation kernels ----
 * Operands: d[0] the double accumulator, d[1] the input (T), d[2] a double
 * per-output operand m (the accumulator itself when a mode needs none).
 * STEP updates `acc` from `x` (as double), `m` and the parameter `p`. */

typedef enum acc_mode {
    ACC_SUM,
    ACC_SQDEV, /* (x - m)^2 */
    ACC_EXP,   /* exp(x - m) */
    ACC_MAX,   /* NaN wins, as PyTorch */
    ACC_MIN,
    ACC_ABSMAX, /* max |x| */
    ACC_ABSMIN,
    ACC_ABS,   /* |x| */
    ACC_SQ,    /* x^2 */
    ACC_POW,   /* |x|^p */
    ACC_NZ,    /* x != 0 */
    ACC_EQ,    /* x == m, NaN matching NaN */
    ACC_EQS,   /* x == m, NaN matching nothing (amax's ties) */
    ACC_ABSEQ, /* |x| == m or x is NaN */
    ACC_NMODES
} acc_mode;

#define ACC_LOOP(NAME, T, STEP)                                                                    \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        const double p = *(const double *)argp;                                                    \
        (void)p;                                                                                   \
        if (s[0] == 0) {                                                                           \
            double acc = *(double *)d[0];                                                          \
            const double m = *(const double *)d[2];                                                \
            (void)m;                                                                               \
            for (int64_t i = 0; i < n; i++) {                                                      \
                const double x = (double)*(const T *)(d[1] + i * s[1]);                            \
                STEP;                                                                              \
            }                                                                                      \
            *(double *)d[0] = acc;                                                                 \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                double acc = *(double *)(d[0] + i * s[0]);                                         \
                const double m = *(const double *)(d[2] + i * s[2]);                               \
                const double x = (double)*(const T *)(d[1] + i * s[1]);                            \
                (void)m;                                                                           \
                STEP;                                                                              \
                *(double *)(d[0] + i * s[0]) = acc;                                                \
            }                                                                                      \
        }                                                                                          \
    }

#define ACC_MODES(X, T, SFX)                                                                       \
    X(sqdev##SFX, T, acc += (x - m) * (x - m))                                                     \
    X(exp##SFX, T, acc += exp(x - m))                                                              \
    X(max##SFX, T, acc = (x > acc || x != x) ? x : acc)                                            \
    X(min##SFX, T, acc = (x < acc || x != x) ? x : acc)                                            \
    X(absmax##SFX, T, acc = (fabs(x) > acc || x != x) ? fabs(x) : acc)                             \
    X(absmin##SFX, T, acc = (fabs(x) < acc || x != x) ? fabs(x) : acc)                             \
    X(abs##SFX, T, acc += fabs(x))                                                                 \
    X(sq##SFX, T, acc += x * x)                                                                    \
    X(pow##SFX, T, acc += pow(fabs(x), p))                                                         \
    X(nz##SFX, T, acc += (x != 0))                                                                 \
    X(eq##SFX, T, acc += (x == m || (x != x && m != m)))                                           \
    X(eqs##SFX, T, acc += (x == m))                                                                \
    X(abseq##SFX, T, acc += (fabs(x) == m || x != x))

#define X(NAME, T, STEP) ACC_LOOP(acc_##NAME, T, STEP)
ACC_MODES(X, float, _f32)
ACC_MODES(X, double, _f64)
#undef X

/* Sum gets its own loops: it is on every training step. Eight independent
 * accumulators break the add-latency chain of a row (blocked summation). */
#define SUM_LOOP(NAME, T)                                                                          \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        (void)argp;                                                                                \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == 0) {                                                                           \
            double a[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                                \
            int64_t i = 0;                                                                         \
            if (s[1] == z) {                                                                       \
                const T *x = (const T *)d[1];                                                      \
                i = n & ~(int64_t)7;                                                               \
                lanes_sum_##T(x, i, a);                                                            \
                for (; i < n; i++) a[0] += (double)x[i];                                           \
            } else {                                                                               \
                for (; i < n; i++) a[i & 7] += (double)*(const T *)(d[1] + i * s[1]);              \
            }                                                                                      \
            *(double *)d[0] += ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));  \
        } else if (s[0] == 8 && s[1] == z) {                                                       \
            double *acc = (double *)d[0];                                                          \
            const T *x = (const T *)d[1];                                                          \
            for (int64_t i = 0; i < n; i++) acc[i] += (double)x[i];                                \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                *(double *)(d[0] + i * s[0]) += (double)*(const T *)(d[1] + i * s[1]);             \
        }                                                                                          \
    }
SUM_LOOP(acc_sum_f32, float)
SUM_LOOP(acc_sum_f64, double)

static const nn_iter_loop acc_kernels[ACC_NMODES][2] = {
    [ACC_SUM] = {acc_sum_f32, acc_sum_f64},
    [ACC_SQDEV] = {acc_sqdev_f32, acc_sqdev_f64},
    [ACC_EXP] = {acc_exp_f32, acc_exp_f64},
    [ACC_MAX] = {acc_max_f32, acc_max_f64},
    [ACC_MIN] = {acc_min_f32, acc_min_f64},
    [ACC_ABSMAX] = {acc_absmax_f32, acc_absmax_f64},
    [ACC_ABSMIN] = {acc_absmin_f32, acc_absmin_f64},
    [ACC_ABS] = {acc_abs_f32, acc_abs_f64},
    [ACC_SQ] = {acc_sq_f32, acc_sq_f64},
    [ACC_POW] = {acc_pow_f32, acc_pow_f64},
    [ACC_NZ] = {acc_nz_f32, acc_nz_f64},
    [ACC_EQ] = {acc_eq_f32, acc_eq_f64},
    [ACC_EQS] = {acc_eqs_f32, acc_eqs_f64},
    [ACC_ABSEQ] = {acc_abseq_f32, acc_abseq_f64},
};

/* Reduce float tensor [x] over g->mask into a new contiguous double tensor
 * of the output shape, starting from [init]. [m]: a double tensor of the
 * output shape the mode reads per output element, or NULL. */
static nn_tensor *reduce_acc(nn_ctx *ctx, const nn_tensor *x, const rgeo *g, bool keepdim,
                             acc_mode mode, double p, double init, const nn_tensor *m) {
    nn_tensor *acc = nn_full(ctx, NN_FLOAT64, g->out_ndim, g->out_shape, init);
    if (!acc) return NULL;
    int64_t ast[NN_MAX_DIMS], mst[NN_MAX_DIMS];
    over_input(acc, x->ndim, g->mask, keepdim, ast);
    if (m) over_input(m, x->ndim, g->mask, keepdim, mst);
    nn_iter it;
    nn_iter_init(&it, x->ndim, x->shape);
    nn_iter_add_strided(&it, acc, ast);
    nn_iter_add(&it, x);
    nn_iter_add_strided(&it, m ? m : acc, m ? mst : ast);
    nn_iter_run_reduce_parallel(&it, acc_kernels[mode][x->dtype == NN_FLOAT64], &p,
                                NN_PAR_MIN_REDUCE);
    return acc;
}

/* ---- integer sum / max / min (int64 accumulators; bool is cast first) ---- */

typedef enum int_mode { INT_SUM, INT_MAX, INT_MIN } int_mode;

static void int_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    const int_mode mode = *(const int_mode *)argp;
    for (int64_t i = 0; i < n; i++) {
        int64_t *acc = (int64_t *)(d[0] + i * s[0]);
        const int64_t x = *(const int64_t *)(d[1] + i * s[1]);
        if (mode == INT_SUM) /* wraps on overflow, as PyTorch's int64 sum */
            *acc = (int64_t)((uint64_t)*acc + (uint64_t)x);
        else if (mode == INT_MAX ? x > *acc : x < *acc)
            *acc = x;
    }
}

/* Bool and int64 sums in typed loops (the int64 sum wraps, so any order
 * gives the same result). Bool reads its bytes (no int64 copy of the
 * input: `(x > 0).sum()` reads one byte an element), a row in blocks into
 * a uint32 the compiler widens in vectors, then into the int64. (The
 * narrow integers reach the kernels widened to int64 by nn_exec.) */
#define ISUM_LOOP(NAME, T)                                                                         \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        (void)argp;                                                                                \
        if (s[0] == 0 && s[1] == 1 && sizeof(T) == 1) {                                            \
            const uint8_t *x = (const uint8_t *)d[1];                                              \
            uint64_t total = 0;                                                                    \
            for (int64_t i = 0; i < n;) {                                                          \
                int64_t e = n - i < (1 << 23) ? n : i + (1 << 23);                                 \
                uint32_t acc = 0;                                                                  \
                for (; i < e; i++) acc += x[i];                                                    \
                total += acc;                                                                      \
            }                                                                                      \
            *(int64_t *)d[0] = (int64_t)((uint64_t) * (int64_t *)d[0] + total);                    \
        } else if (s[0] == 0 && s[1] == (int64_t)sizeof(T)) {                                      \
            const T *x = (const T *)d[1];                                                          \
            uint64_t acc = 0;                                                                      \
            for (int64_t i = 0; i < n; i++) acc += (uint64_t)(int64_t)x[i];                        \
            *(int64_t *)d[0] = (int64_t)((uint64_t) * (int64_t *)d[0] + acc);                      \
        } else if (s[0] == 8 && s[1] == (int64_t)sizeof(T)) {                                      \
            uint64_t *o = (uint64_t *)d[0];                                                        \
            const T *x = (const T *)d[1];                                                          \
            for (int64_t i = 0; i < n; i++) o[i] += (uint64_t)(int64_t)x[i];                       \
        } else if (s[0] == 0) {                                                                    \
            uint64_t acc = 0;                                                                      \
            for (int64_t i = 0; i < n; i++)                                                        \
                acc += (uint64_t)(int64_t) * (const T *)(d[1] + i * s[1]);                         \
            *(int64_t *)d[0] = (int64_t)((uint64_t) * (int64_t *)d[0] + acc);                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                int64_t *o = (int64_t *)(d[0] + i * s[0]);                                         \
                *o = (int64_t)((uint64_t)*o + (uint64_t)(int64_t) * (const T *)(d[1] + i * s[1])); \
            }                                                                                      \
        }                                                                                          \
    }
ISUM_LOOP(isum_bool, uint8_t)
ISUM_LOOP(isum_i64, int64_t)

/* A contiguous tensor summed whole: chunks across the threads (the
 * iterator splits only kept dims), their int64 partials added. */
typedef struct isum_job {
    const char *x;
    int64_t n, es;
    nn_iter_loop loop;
    int64_t part[64];
} isum_job;

static void isum_task(void *argp, int task, int n_tasks) {
    isum_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->n, task, n_tasks, 64, &b, &e);
    char *d[2] = {(char *)&j->part[task], (char *)j->x + b * j->es};
    int64_t st[2] = {0, j->es};
    j->part[task] = 0;
    if (e > b) j->loop(d, st, e - b, NULL);
}

static nn_tensor *reduce_int(nn_ctx *ctx, nn_tensor *a, const rgeo *g, bool keepdim,
                             int_mode mode) {
    nn_iter_loop isum = mode != INT_SUM        ? NULL
                        : a->dtype == NN_BOOL  ? isum_bool
                        : a->dtype == NN_INT64 ? isum_i64
                                               : NULL;
    if (isum) {
        nn_tensor *acc = nn_full(ctx, NN_INT64, g->out_ndim, g->out_shape, 0);
        if (!acc) return NULL;
        int64_t n = nn_tensor_numel(a);
        if (nn_tensor_numel(acc) == 1 && nn_tensor_is_contiguous(a)) {
            isum_job *j = malloc(sizeof *j);
            if (j) {
                *j = (isum_job){nn_tensor_data(a), n, (int64_t)nn_dtype_size(a->dtype), isum, {0}};
                int tasks = nn_parallel_tasks(n, NN_PAR_MIN_REDUCE);
                if (tasks > 64) tasks = 64;
                nn_parallel_run(tasks, isum_task, j);
                uint64_t t = 0;
                for (int i = 0; i < tasks; i++) t += (uint64_t)j->part[i];
                *(int64_t *)nn_tensor_data(acc) = (int64_t)t;
                free(j);
                return acc;
            }
        }
        reduce_into(acc, a, g->mask, keepdim, isum, NULL);
        return acc;
    }
    nn_tensor *x = nn_tensor_cast_raw(ctx, a, NN_INT64);
    if (!x) return NULL;
    nn_tensor *acc = nn_full(ctx, NN_INT64, g->out_ndim, g->out_shape, 0);
    if (acc && mode != INT_SUM) {
        /* The extremes of int64 are not exact doubles: write them directly. */
        int64_t v = mode == INT_MAX ? INT64_MIN : INT64_MAX, n = nn_tensor_numel(acc);
        int64_t *p = acc->storage->data;
        for (int64_t i = 0; i < n; i++) p[i] = v;
    }
    if (acc) reduce_into(acc, x, g->mask, keepdim, int_loop, &mode);
    nn_tensor_release(x);
    return acc;
}

/* ---- finishing: out (dtype dt) = f(acc) elementwise over contiguous data ---- */

typedef enum fin_mode { FIN_COPY, FIN_DIV, FIN_SQRT_DIV, FIN_LOG_ADD, FIN_ROOT } fin_mode;

/* out = f(acc, b) with [b] a second double operand (logsumexp's max) or a
 * scalar [c]. Consumes [acc]. */
static nn_tensor *finish(nn_ctx *ctx, nn_tensor *acc, nn_dtype dt, fin_mode mode, double c,
                         const nn_tensor *b) {
    if (!acc) return NULL;
    int64_t n = nn_tensor_numel(acc);
    double *a = acc->storage->data;
    const double *bv = b ? (const double *)b->storage->data : NULL;
    switch (mode) {
    case FIN_COPY: break;
    case FIN_DIV:
        for (int64_t i = 0; i < n; i++) a[i] /= c;
        break;
    case FIN_SQRT_DIV:
        for (int64_t i = 0; i < n; i++) a[i] = sqrt(a[i] / c);
        break;
    case FIN_LOG_ADD:
        for (int64_t i = 0; i < n; i++) a[i] = log(a[i]) + bv[i];
        break;
    case FIN_ROOT:
        for (int64_t i = 0; i < n; i++) a[i] = pow(a[i], c);
        break;
    }
    if (dt == NN_FLOAT64) return acc;
    nn_tensor *out = nn_tensor_empty(ctx, dt, acc->ndim, acc->shape);
    if (out) {
        float *o = out->storage->data;
        for (int64_t i = 0; i < n; i++) o[i] = (float)a[i];
    }
    nn_tensor_release(acc);
    return out;
}

/* ---- fused backward loops over the input's shape ----
 * Operands: d[0] din (T), d[1] x, d[2] g = dout, d[3] y = out (T, read
 * through strides over the input), d[4] a double per-output operand when
 * the mode has one. EXPR is evaluated in double. */

typedef struct bw_arg {
    double p0, p1;
} bw_arg;

static inline double sgn(double x) {
    return (double)((x > 0) - (x < 0));
}

#define BW_LOOP(NAME, T, AUX, EXPR)                                                                \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        const bw_arg *ba = argp;                                                                   \
        const double p0 = ba->p0, p1 = ba->p1;                                                     \
        (void)p0;                                                                                  \
        (void)p1;                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const double x = (double)*(const T *)(d[1] + i * s[1]);                                \
            const double g = (double)*(const T *)(d[2] + i * s[2]);                                \
            const double y = (double)*(const T *)(d[3] + i * s[3]);                                \
            const double a = AUX ? *(const double *)(d[4] + i * s[4]) : 0.0;                       \
            (void)a;                                                                               \
            (void)y;                                                                               \
            *(T *)(d[0] + i * s[0]) = (T)(EXPR);                                                   \
        }                                                                                          \
    }

/* var: p0 = 2 / (N - correction), a = mean. std: p0 = 1 / (N - correction),
 * and a zero std gives a zero gradient, as PyTorch. norm, general p (p1):
 * PyTorch's three regimes, p0 unused. amax/amin: PyTorch's
 * scale_grad_by_count, (g / count) * (x == y) with [a] the count of ties:
 * a NaN result matches nothing, so its count is 0 and its inputs' gradient
 * (g / 0) * 0 = NaN, as PyTorch's (the quotient is the float one: a
 * double quotient of floats rounds to the same float). */
#define BW_MODES(X, T, SFX)                                                                        \
    X(var##SFX, T, 1, g *p0 *(x - a))                                                              \
    X(std##SFX, T, 1, y == 0 ? 0.0 : g * p0 * (x - a) / y)                                         \
    X(lse##SFX, T, 0, g *exp(x - y))                                                               \
    X(norm2##SFX, T, 0, y == 0 ? 0.0 : g * x / y)                                                  \
    X(norm1##SFX, T, 0, g *sgn(x))                                                                 \
    X(norminf##SFX, T, 1, (fabs(x) == y || x != x) ? sgn(x) * g / a : 0.0)                         \
    X(normp##SFX, T, 0,                                                                            \
      p1 < 1   ? (x == 0 ? 0.0 : sgn(x) * pow(fabs(x), p1 - 1) * g * pow(y, 1 - p1))               \
      : p1 < 2 ? sgn(x) * pow(fabs(x), p1 - 1) * (y == 0 ? 0.0 : g / pow(y, p1 - 1))               \
               : x * pow(fabs(x), p1 - 2) * (y == 0 ? 0.0 : g / pow(y, p1 - 1)))                   \
    X(maxall##SFX, T, 1, (x == y || (x != x && y != y)) ? g / a : 0.0)                             \
    X(amax##SFX, T, 1, (g / a) * (x == y ? 1.0 : 0.0))

#define X(NAME, T, AUX, EXPR) BW_LOOP(bw_##NAME, T, AUX, EXPR)
BW_MODES(X, float, _f32)
BW_MODES(X, double, _f64)
#undef X

/* var and std's gradients as PyTorch 1.13 computes them, each step in the
 * input's type: (2 / dof) * g * (x - x.mean(dims, keepdim)), the mean being
 * PyTorch's (its float sum divided by the count: [a], in T), 2 / dof
 * rounded to T first (a double scalar times a float tensor); std first
 * takes g / (2 std), 0 where std is 0. p0 = 2 / dof. */
#define BW_LOOP_T(NAME, T, EXPR)                                                                   \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        const bw_arg *ba = argp;                                                                   \
        const T c = (T)ba->p0;                                                                     \
        for (int64_t i = 0; i < n; i++) {                                                          \
            const T x = *(const T *)(d[1] + i * s[1]);                                             \
            const T g = *(const T *)(d[2] + i * s[2]);                                             \
            const T y = *(const T *)(d[3] + i * s[3]);                                             \
            const T a = *(const T *)(d[4] + i * s[4]);                                             \
            (void)y;                                                                               \
            *(T *)(d[0] + i * s[0]) = (EXPR);                                                      \
        }                                                                                          \
    }
#define BW_PT_MODES(X, T, SFX)                                                                     \
    X(varpt##SFX, T, (g * c) * (x - a))                                                            \
    X(stdpt##SFX, T, ((y == 0 ? (T)0 : g / (y * 2)) * c) * (x - a))
#define X(NAME, T, EXPR) BW_LOOP_T(bw_##NAME, T, EXPR)
BW_PT_MODES(X, float, _f32)
BW_PT_MODES(X, double, _f64)
#undef X

typedef struct bw_kernels {
    nn_iter_loop f32, f64;
} bw_kernels;
#define X(NAME, T, AUX, EXPR) static const bw_kernels k_##NAME = {bw_##NAME##_f32, bw_##NAME##_f64};
BW_MODES(X, , )
#undef X
#define X(NAME, T, EXPR) static const bw_kernels k_##NAME = {bw_##NAME##_f32, bw_##NAME##_f64};
BW_PT_MODES(X, , )
#undef X

/* din = kernel(x, dout, out, aux) over the input's shape, in dout's dtype.
 * The reduction geometry comes from the node (dims and keepdim). */
static nn_status backward_fused(nn_ctx *ctx, nn_node *node, nn_tensor *dout, const rgeo *g,
                                bool keepdim, const bw_kernels *k, const nn_tensor *aux, double p0,
                                double p1, nn_tensor **din) {
    nn_dtype dt = dout->dtype;
    nn_tensor *x = nn_tensor_cast_raw(ctx, in0(node), dt);
    nn_tensor *y = x ? nn_tensor_cast_raw(ctx, node->out, dt) : NULL;
    nn_tensor *r = y ? nn_tensor_empty(ctx, dt, x->ndim, x->shape) : NULL;
    if (r) {
        int64_t gst[NN_MAX_DIMS], yst[NN_MAX_DIMS], ast[NN_MAX_DIMS];
        over_input(dout, x->ndim, g->mask, keepdim, gst);
        over_input(y, x->ndim, g->mask, keepdim, yst);
        nn_iter it;
        nn_iter_init(&it, x->ndim, x->shape);
        nn_iter_add(&it, r);
        nn_iter_add(&it, x);
        nn_iter_add_strided(&it, dout, gst);
        nn_iter_add_strided(&it, y, yst);
        if (aux) {
            over_input(aux, x->ndim, g->mask, keepdim, ast);
            nn_iter_add_strided(&it, aux, ast);
        }
        bw_arg ba = {p0, p1};
        nn_iter_run_parallel(&it, dt == NN_FLOAT32 ? k->f32 : k->f64, &ba, NN_PAR_MIN_ELEMWISE);
    }
    nn_tensor_release(x);
    nn_tensor_release(y);
    *din = r;
    return r ? NN_OK : ctx->err.code;
}

/* The node's reduction geometry again (its dims were checked in forward). */
static rgeo node_geo(nn_ctx *ctx, nn_node *node) {
    rgeo g;
    bool ok = geo_init(ctx, in0(node), node->p.dims, node->p.n_dims, node->p.keepdim, &g);
    NN_ASSERT(ok);
    return g;
}

/* dout * scale broadcast back over the input: a stride-0 view, no copy. */
static nn_status expand_back(nn_ctx *ctx, nn_node *node, nn_tensor *dout, double scale,
                             nn_tensor **din) {
    nn_tensor *x = in0(node);
    rgeo g = node_geo(ctx, node);
    nn_tensor *src = scale == 1.0 ? nn_tensor_retain(dout) : nn_mul_scalar(ctx, dout, scale);
    if (!src) return ctx->err.code;
    int64_t st[NN_MAX_DIMS];
    over_input(src, x->ndim, g.mask, node->p.keepdim, st);
    *din = nn_tensor_view_raw(ctx, src, x->ndim, x->shape, st, src->offset);
    nn_tensor_release(src);
    return *din ? NN_OK : ctx->err.code;
}

/* ---- sum, mean ---- */

/* float32/float64 sum in PyTorch's order (ops_sum.c); with [mean], PyTorch's
 * CPU mean: that sum divided in the input's type by the count (an empty
 * mean is 0/0 = NaN). */
static nn_tensor *sum_in_order(nn_ctx *ctx, const nn_tensor *x, const rgeo *g, bool mean) {
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, g->out_ndim, g->out_shape);
    if (!out) return NULL;
    nn_sum_pytorch_order(x, g->mask, out);
    if (!mean) return out;
    int64_t n = nn_tensor_numel(out);
    if (x->dtype == NN_FLOAT64) {
        double *o = nn_tensor_data(out), c = (double)g->count;
        for (int64_t i = 0; i < n; i++) o[i] = o[i] / c;
    } else {
        float *o = nn_tensor_data(out), c = (float)g->count;
        for (int64_t i = 0; i < n; i++) o[i] = o[i] / c;
    }
    return out;
}

nn_tensor *op_sum_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    if (nn_dtype_is_complex(x->dtype)) return nn_complex_reduce(ctx, node, false);
    rgeo g;
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, node->p.keepdim, &g)) return NULL;
    if (!nn_dtype_is_float(x->dtype)) return reduce_int(ctx, x, &g, node->p.keepdim, INT_SUM);
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return sum_in_order(ctx, x, &g, false);
    nn_tensor *acc = reduce_acc(ctx, x, &g, node->p.keepdim, ACC_SUM, 0, 0, NULL);
    return finish(ctx, acc, x->dtype, FIN_COPY, 0, NULL);
}

nn_status op_sum_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    return expand_back(ctx, node, dout, 1.0, &din[0]);
}

nn_tensor *op_mean_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    if (nn_dtype_is_complex(x->dtype)) return nn_complex_reduce(ctx, node, true);
    rgeo g;
    if (!nn_dtype_is_float(x->dtype)) return need_float(ctx, "mean", x);
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, node->p.keepdim, &g)) return NULL;
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return sum_in_order(ctx, x, &g, true);
    nn_tensor *acc = reduce_acc(ctx, x, &g, node->p.keepdim, ACC_SUM, 0, 0, NULL);
    /* An empty mean is 0/0 = NaN, as in PyTorch. */
    return finish(ctx, acc, x->dtype, FIN_DIV, (double)g.count, NULL);
}

nn_status op_mean_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    rgeo g = node_geo(ctx, node);
    return expand_back(ctx, node, dout, 1.0 / (double)g.count, &din[0]);
}

/* ---- var, std: p.i[0] is the correction ---- */

/* Every dim of [x] longer than 1 is reduced: PyTorch's iterator then has
 * no kept dim, and var/std take its all-dims kernel. */
static bool all_reduced(const nn_tensor *x, const rgeo *g) {
    for (int i = 0; i < x->ndim; i++)
        if (!g->mask[i] && x->shape[i] != 1) return false;
    return true;
}

/* One output's Welford steps in PyTorch's order, as var_welford says. */
static inline __attribute__((always_inline)) void welford_step(double v, double nf, double *mean,
                                                               double *m2) {
    double delta = v - *mean;
    *mean = *mean + delta / nf;
    *m2 = fma(delta, v - *mean, *m2);
}

/* The result of one output from its m2 and count, into out[o]. */
static inline void welford_finish(double m2, int64_t cnt, double correction, bool take_sqrt,
                                  bool f32, void *out, int64_t o) {
    double nf = (double)cnt, div = nf > correction ? nf - correction : 0;
    double var = m2 / div, r = take_sqrt ? sqrt(var) : var;
    if (f32)
        ((float *)out)[o] = (float)r;
    else
        ((double *)out)[o] = r;
}

typedef struct welford_job {
    const nn_tensor *x;
    void *out;
    int kd[NN_MAX_DIMS], rd[NN_MAX_DIMS], nk, nr;
    int64_t n_out;
    double correction;
    bool take_sqrt, f32;
} welford_job;

static int64_t welford_offset(const welford_job *j, int64_t o) {
    const nn_tensor *x = j->x;
    int64_t off = x->offset, rem = o;
    for (int k = j->nk - 1; k >= 0; k--) {
        off += (rem % x->shape[j->kd[k]]) * x->strides[j->kd[k]];
        rem /= x->shape[j->kd[k]];
    }
    return off;
}

enum { WELFORD_LANES = 8 };

/* WELFORD_LANES outputs with one reduced dim ([len] elements [st] apart from
 * each output's offset) side by side: each lane is its own chain of the
 * same steps, so its bits are the serial loop's, while the divisions and
 * fused multiply-adds of eight chains overlap (and fma is an instruction
 * in the cloned builds, a libm call in the default one). */
#define WELFORD_LANES_FN(NAME, T)                                                                  \
    NN_KERNEL_CLONES static void NAME(const T *base, const int64_t *off, int64_t len, int64_t st,  \
                                      double *m2_out) {                                            \
        double mean[WELFORD_LANES] = {0}, m2[WELFORD_LANES] = {0};                                 \
        for (int64_t k = 0; k < len; k++) {                                                        \
            const double nf = (double)(k + 1);                                                     \
            for (int l = 0; l < WELFORD_LANES; l++) {                                              \
                const double v = (double)base[off[l] + k * st];                                    \
                const double delta = v - mean[l];                                                  \
                mean[l] = mean[l] + delta / nf;                                                    \
                m2[l] = fma(delta, v - mean[l], m2[l]);                                            \
            }                                                                                      \
        }                                                                                          \
        for (int l = 0; l < WELFORD_LANES; l++) m2_out[l] = m2[l];                                 \
    }
WELFORD_LANES_FN(welford_lanes_f32, float)
WELFORD_LANES_FN(welford_lanes_f64, double)

/* The general walk: one output, any number of reduced dims. */
NN_KERNEL_CLONES static void welford_one(const welford_job *j, int64_t o) {
    const nn_tensor *x = j->x;
    const char *base = (const char *)x->storage->data;
    size_t es = j->f32 ? sizeof(float) : sizeof(double);
    int64_t off = welford_offset(j, o), idx[NN_MAX_DIMS] = {0}, cnt = 0;
    double mean = 0, m2 = 0;
    for (;;) {
        const char *p = base + (size_t)off * es;
        double v = j->f32 ? (double)*(const float *)p : *(const double *)p;
        welford_step(v, (double)++cnt, &mean, &m2);
        int r = 0;
        for (; r < j->nr; r++) {
            off += x->strides[j->rd[r]];
            if (++idx[r] < x->shape[j->rd[r]]) break;
            off -= idx[r] * x->strides[j->rd[r]];
            idx[r] = 0;
        }
        if (r == j->nr) break;
    }
    welford_finish(m2, cnt, j->correction, j->take_sqrt, j->f32, j->out, o);
}

static void welford_task(void *argp, int task, int n_tasks) {
    const welford_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->n_out, task, n_tasks, WELFORD_LANES, &b, &e);
    if (j->nr != 1) {
        for (int64_t o = b; o < e; o++) welford_one(j, o);
        return;
    }
    const nn_tensor *x = j->x;
    const int64_t len = x->shape[j->rd[0]], st = x->strides[j->rd[0]];
    for (int64_t o = b; o < e; o += WELFORD_LANES) {
        int64_t off[WELFORD_LANES];
        double m2[WELFORD_LANES];
        int lanes = e - o < WELFORD_LANES ? (int)(e - o) : WELFORD_LANES;
        for (int l = 0; l < WELFORD_LANES; l++) off[l] = welford_offset(j, o + (l < lanes ? l : 0));
        if (j->f32)
            welford_lanes_f32((const float *)x->storage->data, off, len, st, m2);
        else
            welford_lanes_f64((const double *)x->storage->data, off, len, st, m2);
        for (int l = 0; l < lanes; l++)
            welford_finish(m2[l], len, j->correction, j->take_sqrt, j->f32, j->out, o + l);
    }
}

/* var/std of float32/float64 [x] along the dims in [g] as PyTorch 1.13's
 * kernel computes them (WelfordOps over double, binary_kernel_reduce): for
 * each output, its elements one at a time in its iterator's order (the
 * reduced dims by input stride, smallest innermost), mean += delta / n and
 * m2 += delta * (x - mean) with one rounding (its AVX2 build contracts it),
 * then m2 / max(0, n - correction), the square root for std, in double,
 * rounded to x's type. Into contiguous [out]. Outputs are independent, so
 * they run eight side by side (one reduced dim) and split across threads
 * with the same bits. (PyTorch splits one output's reduction across
 * threads from 32768 elements; nndb does not.) */
static void var_welford(const nn_tensor *x, const rgeo *g, double correction, bool take_sqrt,
                        nn_tensor *out) {
    welford_job j = {.x = x,
                     .out = out->storage->data,
                     .n_out = nn_tensor_numel(out),
                     .correction = correction,
                     .take_sqrt = take_sqrt,
                     .f32 = x->dtype == NN_FLOAT32};
    for (int i = 0; i < x->ndim; i++) {
        if (!g->mask[i])
            j.kd[j.nk++] = i;
        else if (x->shape[i] > 1)
            j.rd[j.nr++] = i;
    }
    /* reduced dims, innermost (smallest stride) first; ties keep the later
     * dim innermost, as a row-major walk */
    for (int a = 1; a < j.nr; a++)
        for (int b = a; b > 0; b--) {
            int64_t sa = llabs(x->strides[j.rd[b]]), sb = llabs(x->strides[j.rd[b - 1]]);
            if (sa < sb || (sa == sb && j.rd[b] > j.rd[b - 1])) {
                int t = j.rd[b];
                j.rd[b] = j.rd[b - 1];
                j.rd[b - 1] = t;
            }
        }
    int tasks = nn_parallel_tasks(nn_tensor_numel(x), NN_PAR_MIN_DEAR);
    int64_t groups = (j.n_out + WELFORD_LANES - 1) / WELFORD_LANES;
    if (tasks > groups) tasks = (int)groups;
    nn_parallel_run(tasks, welford_task, &j);
}

static nn_tensor *var_forward(nn_ctx *ctx, nn_node *node, bool is_std) {
    nn_tensor *x = in0(node);
    const char *name = is_std ? "std" : "var";
    rgeo g;
    if (!nn_dtype_is_float(x->dtype)) return need_float(ctx, name, x);
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, node->p.keepdim, &g)) return NULL;
    bool kd = node->p.keepdim;
    /* float32/float64 keep nothing for backward: var_backward computes
     * PyTorch's mean again, as PyTorch's formula does */
    if ((x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) && all_reduced(x, &g)) {
        /* PyTorch's path for a reduction over every dim (its bits) */
        double m, r;
        nn_var_all_pytorch_order(x, (double)node->p.i[0], is_std, &m, &r);
        return nn_full(ctx, x->dtype, g.out_ndim, g.out_shape, r);
    }
    if ((x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) && g.count > 0) {
        nn_tensor *out = nn_tensor_empty(ctx, x->dtype, g.out_ndim, g.out_shape);
        if (out) var_welford(x, &g, (double)node->p.i[0], is_std, out);
        return out;
    }
    nn_tensor *mean = finish(ctx, reduce_acc(ctx, x, &g, kd, ACC_SUM, 0, 0, NULL), NN_FLOAT64,
                             FIN_DIV, (double)g.count, NULL);
    if (!mean) return NULL;
    nn_tensor *ss = reduce_acc(ctx, x, &g, kd, ACC_SQDEV, 0, 0, mean);
    /* PyTorch divides by max(0, N - correction): 0 gives NaN or inf. */
    double div = (double)g.count - (double)node->p.i[0];
    if (div < 0) div = 0;
    nn_tensor *out = finish(ctx, ss, x->dtype, is_std ? FIN_SQRT_DIV : FIN_DIV, div, NULL);
    if (out && node->recorded)
        node->saved[0] = mean;
    else
        nn_tensor_release(mean);
    return out;
}

static nn_status var_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                              bool is_std) {
    if (!node->in[0].needs_grad) return NN_OK;
    rgeo g = node_geo(ctx, node);
    double n = (double)g.count - (double)node->p.i[0];
    nn_tensor *x = in0(node);
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) {
        /* PyTorch's formula in x's type, with PyTorch's mean (BW_PT_MODES);
         * over every dim with no degree of freedom left, its NaN. The
         * forward kept nothing else for these types. */
        nn_tensor *mean = sum_in_order(ctx, x, &g, true);
        nn_tensor *gx = mean ? nn_tensor_cast_raw(ctx, dout, x->dtype) : NULL;
        nn_status st = gx ? NN_OK : ctx->err.code;
        double c = node->p.n_dims == 0 && n <= 0 ? NAN : 2.0 / n;
        if (gx)
            st = backward_fused(ctx, node, gx, &g, node->p.keepdim, is_std ? &k_stdpt : &k_varpt,
                                mean, c, 0, &din[0]);
        nn_tensor_release(gx);
        nn_tensor_release(mean);
        return st;
    }
    return backward_fused(ctx, node, dout, &g, node->p.keepdim, is_std ? &k_std : &k_var,
                          node->saved[0], is_std ? 1.0 / n : 2.0 / n, 0, &din[0]);
}

nn_tensor *op_var_forward(nn_ctx *ctx, nn_node *node) {
    return var_forward(ctx, node, false);
}
nn_status op_var_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return var_backward(ctx, node, dout, din, false);
}
nn_tensor *op_std_forward(nn_ctx *ctx, nn_node *node) {
    return var_forward(ctx, node, true);
}
nn_status op_std_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return var_backward(ctx, node, dout, din, true);
}

/* ---- norm: p.f[0] is p ---- */

/* The 2-norm of each contiguous run of [len] values, in the order PyTorch
 * 1.13's vectorised kernel for a norm over the last dim of a contiguous
 * tensor appears to take (norm_kernel_tensor_iterator_impl): the squares of
 * whole vectors (8 floats, 4 doubles) fused into per-lane sums in the
 * input's type, the lanes added left to right, the rest added square by
 * square, then sqrt; a run shorter than a vector with fused squares. Not
 * its order on every input: over 1000 random runs of 3 to 5000 values, 974
 * had its bits (662 with the double sums this replaced) and the rest
 * differ in the last bit; a vector of 50 gradient norms of very different
 * sizes also differs, so the order of its tail is not fully known. Cloned
 * (NN_KERNEL_CLONES) so fmaf is an instruction and the lanes one vector; in
 * the default clone each fmaf is a call into libm (same bits, 10x slower). */
#define NORM2_RUNS(T, W, SQRT)                                                                     \
    NN_KERNEL_CLONES static void norm2_runs_##T(const T *x, int64_t runs, int64_t len, T *out) {   \
        int64_t r = 0;                                                                             \
        /* four runs side by side: four independent chains of fused lanes                          \
         * (one run's chain is bound by the fma latency), each run's own                           \
         * order unchanged */                                                                      \
        for (; len >= W && r + 4 <= runs; r += 4) {                                                \
            const T *p = x + r * len;                                                              \
            T acc[4][W];                                                                           \
            memset(acc, 0, sizeof acc);                                                            \
            int64_t d = 0;                                                                         \
            for (; d + W <= len; d += W)                                                           \
                for (int q = 0; q < 4; q++)                                                        \
                    for (int l = 0; l < W; l++)                                                    \
                        acc[q][l] = FMA_##T(p[q * len + d + l], p[q * len + d + l], acc[q][l]);    \
            for (int q = 0; q < 4; q++) {                                                          \
                T s = acc[q][0];                                                                   \
                for (int l = 1; l < W; l++) s = s + acc[q][l];                                     \
                for (int64_t e = d; e < len; e++) s = s + p[q * len + e] * p[q * len + e];         \
                out[r + q] = SQRT(s);                                                              \
            }                                                                                      \
        }                                                                                          \
        for (; r < runs; r++) {                                                                    \
            const T *p = x + r * len;                                                              \
            T acc[W] = {0};                                                                        \
            int64_t d = 0;                                                                         \
            for (; d + W <= len; d += W)                                                           \
                for (int l = 0; l < W; l++) acc[l] = FMA_##T(p[d + l], p[d + l], acc[l]);          \
            T s = acc[0];                                                                          \
            for (int l = 1; l < W; l++) s = s + acc[l];                                            \
            if (len < W)                                                                           \
                for (; d < len; d++) s = FMA_##T(p[d], p[d], s);                                   \
            else                                                                                   \
                for (; d < len; d++) s = s + p[d] * p[d];                                          \
            out[r] = SQRT(s);                                                                      \
        }                                                                                          \
    }
#define FMA_float  fmaf
#define FMA_double fma
NORM2_RUNS(float, 8, sqrtf)
NORM2_RUNS(double, 4, sqrt)

/* The runs split across threads in groups of four (each run's order is
 * its own, so the split changes no bits). */
typedef struct norm2_job {
    const nn_tensor *x;
    nn_tensor *out;
    int64_t runs, len;
} norm2_job;

static void norm2_task(void *argp, int task, int n_tasks) {
    const norm2_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->runs, task, n_tasks, 4, &b, &e);
    if (b >= e) return;
    if (j->x->dtype == NN_FLOAT32)
        norm2_runs_float((const float *)nn_tensor_data(j->x) + b * j->len, e - b, j->len,
                         (float *)nn_tensor_data(j->out) + b);
    else
        norm2_runs_double((const double *)nn_tensor_data(j->x) + b * j->len, e - b, j->len,
                          (double *)nn_tensor_data(j->out) + b);
}

/* Whether a norm of [x] over the dims in [g] is one over its trailing dims
 * (or all of them) of a contiguous tensor: PyTorch's last-dim kernel. */
static bool norm_lastdim(const nn_tensor *x, const rgeo *g) {
    if (!nn_tensor_is_contiguous(x) || g->count == 0) return false;
    int d = x->ndim - 1;
    while (d >= 0 && (g->mask[d] || x->shape[d] == 1)) d--;
    for (; d >= 0; d--)
        if (g->mask[d] && x->shape[d] != 1) return false;
    return true;
}

nn_tensor *op_norm_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *x = in0(node);
    double p = node->p.f[0];
    bool kd = node->p.keepdim;
    rgeo g;
    if (!nn_dtype_is_float(x->dtype)) return need_float(ctx, "norm", x);
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, kd, &g)) return NULL;
    if (p == INFINITY || p == -INFINITY) {
        /* Max and min have no identity: an empty inf-norm is an error, as
         * PyTorch. */
        if (g.count == 0) return empty_error(ctx, "norm", x, "with p = inf or -inf");
        nn_tensor *acc = reduce_acc(ctx, x, &g, kd, p > 0 ? ACC_ABSMAX : ACC_ABSMIN, 0,
                                    p > 0 ? 0 : INFINITY, NULL);
        return finish(ctx, acc, x->dtype, FIN_COPY, 0, NULL);
    }
    if (p == 2 && (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) && norm_lastdim(x, &g)) {
        nn_tensor *out = nn_tensor_empty(ctx, x->dtype, g.out_ndim, g.out_shape);
        if (!out) return NULL;
        norm2_job j = {x, out, nn_tensor_numel(out), g.count};
        int tasks = nn_parallel_tasks(nn_tensor_numel(x), NN_PAR_MIN_REDUCE);
        if (tasks > (j.runs + 3) / 4) tasks = (int)((j.runs + 3) / 4);
        nn_parallel_run(tasks > 0 ? tasks : 1, norm2_task, &j);
        return out;
    }
    if (p == 2) {
        nn_tensor *acc = reduce_acc(ctx, x, &g, kd, ACC_SQ, 0, 0, NULL);
        return finish(ctx, acc, x->dtype, FIN_SQRT_DIV, 1, NULL);
    }
    if (p == 1)
        return finish(ctx, reduce_acc(ctx, x, &g, kd, ACC_ABS, 0, 0, NULL), x->dtype, FIN_COPY, 0,
                      NULL);
    if (p == 0)
        return finish(ctx, reduce_acc(ctx, x, &g, kd, ACC_NZ, 0, 0, NULL), x->dtype, FIN_COPY, 0,
                      NULL);
    return finish(ctx, reduce_acc(ctx, x, &g, kd, ACC_POW, p, 0, NULL), x->dtype, FIN_ROOT, 1.0 / p,
                  NULL);
}

nn_status op_norm_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    rgeo g = node_geo(ctx, node);
    bool kd = node->p.keepdim;
    double p = node->p.f[0];
    if (p == 0) {
        din[0] = nn_zeros(ctx, dout->dtype, in0(node)->ndim, in0(node)->shape);
        return din[0] ? NN_OK : ctx->err.code;
    }
    if (p == 2) return backward_fused(ctx, node, dout, &g, kd, &k_norm2, NULL, 0, 0, &din[0]);
    if (p == 1) return backward_fused(ctx, node, dout, &g, kd, &k_norm1, NULL, 0, 0, &din[0]);
    if (isinf(p)) {
        /* The gradient splits evenly among the elements that reach the
         * norm (or are NaN), as PyTorch. */
        nn_tensor *y = nn_tensor_cast_raw(ctx, node->out, NN_FLOAT64);
        nn_tensor *cnt = y ? reduce_acc(ctx, in0(node), &g, kd, ACC_ABSEQ, 0, 0, y) : NULL;
        nn_status st = cnt ? backward_fused(ctx, node, dout, &g, kd, &k_norminf, cnt, 0, 0, &din[0])
                           : ctx->err.code;
        nn_tensor_release(y);
        nn_tensor_release(cnt);
        return st;
    }
    return backward_fused(ctx, node, dout, &g, kd, &k_normp, NULL, 0, p, &din[0]);
}

/* ---- max / min ----
 * p.flags 0: over everything (0-dim result); 1: along dim p.i[0] with
 * keepdim, values and int64 indices; 2: amax/amin, over p.dims (every dim
 * when none), values only (ops_sum.c's kernel, PyTorch's bits). */

/* Scan along one dim: d[0] values (T), d[1] indices, d[2] the input at
 * index 0 of the dim. The first extreme wins; a NaN wins and stops the
 * scan, as PyTorch. */
typedef struct scan_arg {
    int64_t n, stride; /* length of the dim, its byte stride in the input */
    bool is_max;
} scan_arg;

#define SCAN_LOOP(NAME, T)                                                                         \
    static void NAME(char **d, const int64_t *s, int64_t rows, void *argp) {                       \
        const scan_arg *sa = argp;                                                                 \
        const int64_t n = sa->n, st = sa->stride;                                                  \
        for (int64_t r = 0; r < rows; r++) {                                                       \
            const char *px = d[2] + r * s[2];                                                      \
            T best = *(const T *)px;                                                               \
            int64_t bi = 0;                                                                        \
            if (best == best) {                                                                    \
                for (int64_t k = 1; k < n; k++) {                                                  \
                    T v = *(const T *)(px + k * st);                                               \
                    if (v != v) {                                                                  \
                        best = v, bi = k;                                                          \
                        break;                                                                     \
                    }                                                                              \
                    if (sa->is_max ? v > best : v < best) best = v, bi = k;                        \
                }                                                                                  \
            }                                                                                      \
            *(T *)(d[0] + r * s[0]) = best;                                                        \
            *(int64_t *)(d[1] + r * s[1]) = bi;                                                    \
        }                                                                                          \
    }
SCAN_LOOP(scan_f32, float)
SCAN_LOOP(scan_f64, double)
SCAN_LOOP(scan_i64, int64_t)

/* The fast scans of a contiguous input, [outer] blocks of [n] rows of
 * [inner] elements, the dim being the rows. Same answers as SCAN_LOOP (the
 * first extreme, or the first NaN), so the split across threads changes
 * nothing.
 *
 * inner == 1 (a reduction over the last dim): two passes over each row,
 * both vectorisable: the extreme value and whether a NaN is there, then the
 * first element equal to it (or the first NaN). The value written is that
 * element, so a row of -0.0 and 0.0 gives the one found first, as the scan.
 *
 * inner > 1: down the columns, SCAN_COLS lanes across the contiguous dim,
 * each lane taking a new value when it beats the lane's best (or is the
 * first NaN met), the index kept as int32 in the block (n < 2^31 checked)
 * for float so lanes of values and indices have one width. */
enum { SCAN_COLS = 1024 };
typedef uint64_t scan_vu64 __attribute__((vector_size(32)));

/* One lane step: the lane's best [m] and index [i] take [v] and [k] where
 * [v] beats [m] (the first extreme wins) or is the first NaN (HAS_NAN).
 * GCC's vector extensions, so every clone gets vector compares and blends
 * (C has no vector ?:, hence the masks). */
#define SCAN_TAKE(IT, HAS_NAN, is_max, v, m)                                                       \
    ((is_max ? (IT)((v) > (m)) : (IT)((v) < (m))) |                                                \
     (HAS_NAN ? (IT)(((v) != (v)) & ((m) == (m))) : (IT){0}))
#define SCAN_BLEND(VT, IT, k, a, b) ((VT)(((k) & (IT)(a)) | (~(k) & (IT)(b))))

#define SCAN_FAST(T, VT, IT, W, SFX, HAS_NAN)                                                      \
    typedef T VT __attribute__((vector_size(32)));                                                 \
    typedef IT IT##_##SFX __attribute__((vector_size(32)));                                        \
    NN_KERNEL_CLONES static void scan_row_##SFX(const T *x, int64_t n, bool is_max, T *val,        \
                                                int64_t *idx) {                                    \
        typedef IT##_##SFX VI;                                                                     \
        VT m[4];                                                                                   \
        VI nan = {0};                                                                              \
        for (int l = 0; l < W; l++) m[0][l] = x[0];                                                \
        m[1] = m[2] = m[3] = m[0];                                                                 \
        int64_t k = 0;                                                                             \
        /* four chains of compare and blend, for their latency */                                  \
        for (; k + 4 * W <= n; k += 4 * W)                                                         \
            for (int j = 0; j < 4; j++) {                                                          \
                VT v;                                                                              \
                memcpy(&v, x + k + j * W, sizeof v);                                               \
                VI t = is_max ? (VI)(v > m[j]) : (VI)(v < m[j]);                                   \
                m[j] = SCAN_BLEND(VT, VI, t, v, m[j]);                                             \
                if (HAS_NAN) nan |= (VI)(v != v);                                                  \
            }                                                                                      \
        T best = x[0];                                                                             \
        bool any_nan = false;                                                                      \
        for (int l = 0; l < W; l++) {                                                              \
            for (int j = 0; j < 4; j++)                                                            \
                best = (is_max ? m[j][l] > best : m[j][l] < best) ? m[j][l] : best;                \
            any_nan |= nan[l] != 0;                                                                \
        }                                                                                          \
        for (; k < n; k++) {                                                                       \
            T v = x[k];                                                                            \
            best = (is_max ? v > best : v < best) ? v : best;                                      \
            if (HAS_NAN) any_nan |= v != v;                                                        \
        }                                                                                          \
        int64_t at = 0;                                                                            \
        const bool find_nan = HAS_NAN && (any_nan || x[0] != x[0]);                                \
        VT b = (VT){0} + best;                                                                     \
        for (; at + W <= n; at += W) {                                                             \
            VT v;                                                                                  \
            memcpy(&v, x + at, sizeof v);                                                          \
            scan_vu64 hit = (scan_vu64)(find_nan ? (VI)(v != v) : (VI)(v == b));                   \
            if ((hit[0] | hit[1]) | (hit[2] | hit[3])) break;                                      \
        }                                                                                          \
        if (find_nan) {                                                                            \
            while (x[at] == x[at]) at++;                                                           \
        } else {                                                                                   \
            while (!(x[at] == best)) at++;                                                         \
        }                                                                                          \
        *val = x[at];                                                                              \
        *idx = at;                                                                                 \
    }                                                                                              \
    NN_KERNEL_CLONES static void scan_cols_##SFX(const T *x, int64_t n, int64_t inner, int64_t w,  \
                                                 bool is_max, T *val, int64_t *idx) {              \
        typedef IT##_##SFX VI;                                                                     \
        VT best[SCAN_COLS / W];                                                                    \
        VI bi[SCAN_COLS / W];                                                                      \
        const int64_t nv = w / W;                                                                  \
        for (int64_t c = 0; c < nv; c++) {                                                         \
            memcpy(&best[c], x + c * W, sizeof best[c]);                                           \
            bi[c] = (VI){0};                                                                       \
        }                                                                                          \
        for (int64_t k = 1; k < n; k++) {                                                          \
            const T *p = x + k * inner;                                                            \
            const VI kk = (VI){0} + (IT)k;                                                         \
            for (int64_t c = 0; c < nv; c++) {                                                     \
                VT v;                                                                              \
                memcpy(&v, p + c * W, sizeof v);                                                   \
                VI t = SCAN_TAKE(VI, HAS_NAN, is_max, v, best[c]);                                 \
                best[c] = SCAN_BLEND(VT, VI, t, v, best[c]);                                       \
                bi[c] = (t & kk) | (~t & bi[c]);                                                   \
            }                                                                                      \
        }                                                                                          \
        for (int64_t c = 0; c < nv; c++)                                                           \
            for (int l = 0; l < W; l++) val[c * W + l] = best[c][l], idx[c * W + l] = bi[c][l];    \
        for (int64_t c = nv * W; c < w; c++) {                                                     \
            T b = x[c];                                                                            \
            int64_t bk = 0;                                                                        \
            for (int64_t k = 1; k < n; k++) {                                                      \
                T v = x[k * inner + c];                                                            \
                if ((is_max ? v > b : v < b) || (HAS_NAN && v != v && b == b)) b = v, bk = k;      \
            }                                                                                      \
            val[c] = b, idx[c] = bk;                                                               \
        }                                                                                          \
    }
SCAN_FAST(float, scan_vf32, int32_t, 8, f32, 1)
SCAN_FAST(double, scan_vf64, int64_t, 4, f64, 1)
SCAN_FAST(int64_t, scan_vi64, int64_t, 4, i64, 0)

typedef struct fast_scan {
    const char *x;
    char *val;
    int64_t *idx;
    int64_t outer, n, inner, blocks; /* blocks: column blocks per outer index */
    nn_dtype dt;
    bool is_max;
} fast_scan;

static void fast_scan_task(void *argp, int task, int n_tasks) {
    const fast_scan *f = argp;
    const size_t es = nn_dtype_size(f->dt);
    int64_t b, e;
    if (f->inner == 1) {
        nn_parallel_range(f->outer, task, n_tasks, 1, &b, &e);
        for (int64_t r = b; r < e; r++) {
            const char *x = f->x + (size_t)(r * f->n) * es;
            char *v = f->val + (size_t)r * es;
            if (f->dt == NN_FLOAT32)
                scan_row_f32((const float *)x, f->n, f->is_max, (float *)v, f->idx + r);
            else if (f->dt == NN_FLOAT64)
                scan_row_f64((const double *)x, f->n, f->is_max, (double *)v, f->idx + r);
            else
                scan_row_i64((const int64_t *)x, f->n, f->is_max, (int64_t *)v, f->idx + r);
        }
        return;
    }
    nn_parallel_range(f->outer * f->blocks, task, n_tasks, 1, &b, &e);
    for (int64_t u = b; u < e; u++) {
        int64_t o = u / f->blocks, c0 = (u % f->blocks) * SCAN_COLS;
        int64_t w = f->inner - c0 < SCAN_COLS ? f->inner - c0 : SCAN_COLS;
        const char *x = f->x + (size_t)(o * f->n * f->inner + c0) * es;
        char *v = f->val + (size_t)(o * f->inner + c0) * es;
        int64_t *ix = f->idx + o * f->inner + c0;
        if (f->dt == NN_FLOAT32)
            scan_cols_f32((const float *)x, f->n, f->inner, w, f->is_max, (float *)v, ix);
        else if (f->dt == NN_FLOAT64)
            scan_cols_f64((const double *)x, f->n, f->inner, w, f->is_max, (double *)v, ix);
        else
            scan_cols_i64((const int64_t *)x, f->n, f->inner, w, f->is_max, (int64_t *)v, ix);
    }
}

/* The fast scans when [x] is contiguous and [vals]/[idx] are fresh
 * contiguous outputs; false (nothing done) otherwise. */
static bool scan_fast(const nn_tensor *x, int dim, bool is_max, nn_tensor *vals, nn_tensor *idx) {
    if (x->ndim == 0 || !nn_tensor_is_contiguous(x) || x->shape[dim] > INT32_MAX) return false;
    fast_scan f = {nn_tensor_data(x),
                   nn_tensor_data(vals),
                   nn_tensor_data(idx),
                   1,
                   x->shape[dim],
                   1,
                   1,
                   x->dtype,
                   is_max};
    for (int d = 0; d < dim; d++) f.outer *= x->shape[d];
    for (int d = dim + 1; d < x->ndim; d++) f.inner *= x->shape[d];
    if (f.outer * f.inner == 0) return true;
    f.blocks = (f.inner + SCAN_COLS - 1) / SCAN_COLS;
    int64_t units = f.inner == 1 ? f.outer : f.outer * f.blocks;
    int tasks = nn_parallel_tasks(nn_tensor_numel(x), NN_PAR_MIN_REDUCE);
    if (tasks > units) tasks = (int)units;
    nn_parallel_run(tasks, fast_scan_task, &f);
    return true;
}

/* Values and indices of the max/min of [a] along [dim] (already wrapped;
 * a 0-dim [a] counts as one element). */
static nn_tensor *scan_dim(nn_ctx *ctx, nn_tensor *a, int dim, bool keepdim, bool is_max,
                           nn_tensor **idx_out, const char *name) {
    nn_dtype vdt = a->dtype == NN_BOOL ? NN_INT64 : a->dtype;
    int64_t n = a->ndim ? a->shape[dim] : 1;
    if (n == 0) {
        char s[128];
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "%s: dim %d of the tensor of shape %s is empty: there is no %s of nothing",
                     name, dim, nn_tensor_shape_str(a, s, sizeof s),
                     is_max ? "maximum" : "minimum");
        return NULL;
    }
    bool mask[NN_MAX_DIMS] = {false};
    if (a->ndim) mask[dim] = true;
    int64_t oshape[NN_MAX_DIMS], kshape[NN_MAX_DIMS];
    int ond = nn_reduce_shape(a, mask, keepdim, oshape);
    for (int i = 0; i < a->ndim; i++) kshape[i] = mask[i] ? 1 : a->shape[i];
    nn_tensor *x = nn_tensor_cast_raw(ctx, a, vdt);
    nn_tensor *vals = x ? nn_tensor_empty(ctx, vdt, ond, oshape) : NULL;
    nn_tensor *idx = vals ? nn_tensor_empty(ctx, NN_INT64, ond, oshape) : NULL;
    if (idx && !scan_fast(x, dim, is_max, vals, idx)) {
        int64_t vst[NN_MAX_DIMS], ist[NN_MAX_DIMS];
        over_input(vals, a->ndim, mask, keepdim, vst);
        over_input(idx, a->ndim, mask, keepdim, ist);
        nn_iter it;
        nn_iter_init(&it, a->ndim, kshape);
        nn_iter_add_strided(&it, vals, vst);
        nn_iter_add_strided(&it, idx, ist);
        nn_iter_add_strided(&it, x, x->strides);
        scan_arg sa = {n, a->ndim ? x->strides[dim] * (int64_t)nn_dtype_size(vdt) : 0, is_max};
        nn_iter_run(&it,
                    vdt == NN_FLOAT32   ? scan_f32
                    : vdt == NN_FLOAT64 ? scan_f64
                                        : scan_i64,
                    &sa);
    }
    nn_tensor_release(x);
    if (idx && a->dtype == NN_BOOL) {
        nn_tensor *b = nn_tensor_cast_raw(ctx, vals, NN_BOOL);
        nn_tensor_release(vals);
        vals = b;
    }
    if (!idx || !vals) {
        nn_tensor_release(vals);
        nn_tensor_release(idx);
        return NULL;
    }
    *idx_out = idx;
    return vals;
}

/* amax/amin: PyTorch's checks, then ops_sum.c's kernel (narrow dtypes
 * arrive widened by nn_exec: a selection, exact both ways). */
static nn_tensor *amax_forward(nn_ctx *ctx, nn_node *node, bool is_max) {
    nn_tensor *x = in0(node);
    const char *name = is_max ? "amax" : "amin";
    rgeo g;
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, node->p.keepdim, &g)) return NULL;
    if (node->p.n_dims == 0 && nn_tensor_numel(x) == 0) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "%s(): Expected reduction dim to be specified for input.numel() == 0. "
                     "Specify the reduction dim with the 'dim' argument.",
                     name);
        return NULL;
    }
    for (int i = 0; i < node->p.n_dims; i++) {
        int d = 0;
        if (nn_dim_wrap(ctx, node->p.dims[i], x->ndim ? x->ndim : 1, &d)) return NULL;
        if (x->ndim && x->shape[d] == 0) {
            nn_error_set(&ctx->err, NN_ERR_INDEX,
                         "%s(): Expected reduction dim %d to have non-zero size.", name, d);
            return NULL;
        }
    }
    nn_tensor *out = nn_tensor_empty(ctx, x->dtype, g.out_ndim, g.out_shape);
    if (out && !nn_extreme_pytorch_order(x, g.mask, out, is_max)) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "%s(): not implemented for %s", name,
                     nn_dtype_name(x->dtype));
        nn_tensor_release(out);
        out = NULL;
    }
    return out;
}

/* amax/amin's gradient: PyTorch's even split among the ties (k_amax). */
static nn_status amax_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    rgeo g = node_geo(ctx, node);
    nn_tensor *x = in0(node);
    nn_dtype cdt = x->dtype == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
    nn_tensor *xc = nn_tensor_cast_raw(ctx, x, cdt);
    nn_tensor *y = xc ? nn_tensor_cast_raw(ctx, node->out, NN_FLOAT64) : NULL;
    nn_tensor *cnt = y ? reduce_acc(ctx, xc, &g, node->p.keepdim, ACC_EQS, 0, 0, y) : NULL;
    nn_status st =
        cnt ? backward_fused(ctx, node, dout, &g, node->p.keepdim, &k_amax, cnt, 0, 0, &din[0])
            : ctx->err.code;
    nn_tensor_release(xc);
    nn_tensor_release(y);
    nn_tensor_release(cnt);
    return st;
}

static nn_tensor *max_forward(nn_ctx *ctx, nn_node *node, bool is_max) {
    nn_tensor *x = in0(node);
    const char *name = is_max ? "max" : "min";
    if (node->p.flags == 2) return amax_forward(ctx, node, is_max);
    if (node->p.flags) {
        int dim = 0;
        if (nn_dim_wrap(ctx, node->p.i[0], x->ndim, &dim)) return NULL;
        nn_tensor *idx = NULL;
        nn_tensor *vals = scan_dim(ctx, x, dim, node->p.keepdim, is_max, &idx, name);
        if (!vals) return NULL;
        if (node->recorded) node->saved[0] = nn_tensor_retain(idx);
        /* The public wrapper takes this reference (see nn_max_dim). */
        nn_tensor_release(ctx->aux);
        ctx->aux = idx;
        return vals;
    }
    if (nn_tensor_numel(x) == 0)
        return empty_error(ctx, name, x, "over all elements; give a dim to reduce an empty one");
    rgeo g;
    if (!geo_init(ctx, x, NULL, 0, false, &g)) return NULL;
    if (!nn_dtype_is_float(x->dtype)) {
        nn_tensor *r = reduce_int(ctx, x, &g, false, is_max ? INT_MAX : INT_MIN);
        if (r && x->dtype == NN_BOOL) {
            nn_tensor *b = nn_tensor_cast_raw(ctx, r, NN_BOOL);
            nn_tensor_release(r);
            r = b;
        }
        return r;
    }
    nn_tensor *acc = reduce_acc(ctx, x, &g, false, is_max ? ACC_MAX : ACC_MIN, 0,
                                is_max ? -INFINITY : INFINITY, NULL);
    return finish(ctx, acc, x->dtype, FIN_COPY, 0, NULL);
}

/* Scatter dout into zeros at the saved indices: d[0] din at index 0 of the
 * dim, d[1] dout, d[2] indices. */
typedef struct scatter_arg {
    int64_t stride; /* byte stride of the dim in din */
} scatter_arg;

#define SCATTER_LOOP(NAME, T)                                                                      \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        const int64_t st = ((const scatter_arg *)argp)->stride;                                    \
        for (int64_t i = 0; i < n; i++)                                                            \
            *(T *)(d[0] + i * s[0] + *(const int64_t *)(d[2] + i * s[2]) * st) =                   \
                *(const T *)(d[1] + i * s[1]);                                                     \
    }
SCATTER_LOOP(scatter_f32, float)
SCATTER_LOOP(scatter_f64, double)

static nn_status max_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    if (node->p.flags == 2) return amax_backward(ctx, node, dout, din);
    nn_tensor *x = in0(node);
    if (!node->p.flags) {
        /* Over everything: split evenly among the ties, as PyTorch. */
        rgeo g = node_geo(ctx, node);
        nn_tensor *y = nn_tensor_cast_raw(ctx, node->out, NN_FLOAT64);
        nn_tensor *cnt = y ? reduce_acc(ctx, x, &g, false, ACC_EQ, 0, 0, y) : NULL;
        nn_status st =
            cnt ? backward_fused(ctx, node, dout, &g, false, &k_maxall, cnt, 0, 0, &din[0])
                : ctx->err.code;
        nn_tensor_release(y);
        nn_tensor_release(cnt);
        return st;
    }
    int dim = 0;
    if (nn_dim_wrap(ctx, node->p.i[0], x->ndim, &dim)) return ctx->err.code;
    nn_tensor *idx = node->saved[0];
    NN_ASSERT(idx != NULL);
    nn_tensor *r = nn_zeros(ctx, dout->dtype, x->ndim, x->shape);
    if (!r) return ctx->err.code;
    bool mask[NN_MAX_DIMS] = {false};
    int64_t kshape[NN_MAX_DIMS], gst[NN_MAX_DIMS], ist[NN_MAX_DIMS];
    if (x->ndim) mask[dim] = true;
    for (int i = 0; i < x->ndim; i++) kshape[i] = mask[i] ? 1 : x->shape[i];
    over_input(dout, x->ndim, mask, node->p.keepdim, gst);
    over_input(idx, x->ndim, mask, node->p.keepdim, ist);
    nn_iter it;
    nn_iter_init(&it, x->ndim, kshape);
    nn_iter_add_strided(&it, r, r->strides);
    nn_iter_add_strided(&it, dout, gst);
    nn_iter_add_strided(&it, idx, ist);
    scatter_arg sa = {x->ndim ? r->strides[dim] * (int64_t)nn_dtype_size(r->dtype) : 0};
    nn_iter_run(&it, r->dtype == NN_FLOAT32 ? scatter_f32 : scatter_f64, &sa);
    din[0] = r;
    return NN_OK;
}

nn_tensor *op_max_forward(nn_ctx *ctx, nn_node *node) {
    return max_forward(ctx, node, true);
}
nn_status op_max_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return max_backward(ctx, node, dout, din);
}
nn_tensor *op_min_forward(nn_ctx *ctx, nn_node *node) {
    return max_forward(ctx, node, false);
}
nn_status op_min_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return max_backward(ctx, node, dout, din);
}

/* ---- argmax / argmin: p.i[0] dim, p.flags 1 flattens first ---- */

static nn_tensor *arg_forward(nn_ctx *ctx, nn_node *node, bool is_max) {
    nn_tensor *x = in0(node);
    const char *name = is_max ? "argmax" : "argmin";
    nn_tensor *idx = NULL, *vals = NULL;
    if (x->dtype == NN_BOOL) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Bool'", name);
        return NULL;
    }
    if (node->p.flags) {
        if (nn_tensor_numel(x) == 0)
            return empty_error(ctx, name, x,
                               "over all elements; give a dim to reduce an empty one");
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, x);
        int64_t n = nn_tensor_numel(x), one = 1;
        nn_tensor *flat = c ? nn_tensor_view_raw(ctx, c, 1, &n, &one, c->offset) : NULL;
        nn_tensor_release(c);
        if (!flat) return NULL;
        vals = scan_dim(ctx, flat, 0, false, is_max, &idx, name);
        nn_tensor_release(flat);
        if (vals && node->p.keepdim) {
            /* keepdim over everything: every dim kept as 1. */
            int64_t shape[NN_MAX_DIMS], st[NN_MAX_DIMS];
            for (int i = 0; i < x->ndim; i++) shape[i] = 1, st[i] = 1;
            nn_tensor *v = nn_tensor_view_raw(ctx, idx, x->ndim, shape, st, idx->offset);
            nn_tensor_release(idx);
            idx = v;
        }
    } else {
        int dim = 0;
        if (nn_dim_wrap(ctx, node->p.i[0], x->ndim, &dim)) return NULL;
        vals = scan_dim(ctx, x, dim, node->p.keepdim, is_max, &idx, name);
    }
    nn_tensor_release(vals);
    return vals ? idx : NULL;
}

nn_tensor *op_argmax_forward(nn_ctx *ctx, nn_node *node) {
    return arg_forward(ctx, node, true);
}
nn_tensor *op_argmin_forward(nn_ctx *ctx, nn_node *node) {
    return arg_forward(ctx, node, false);
}

/* ---- any / all: p.dims (every dim when none), p.keepdim ----
 * Whether any (all) of the elements reduced into each output is nonzero
 * (NaN is), the input read in its own type. A row reduced into one output
 * (s[0] == 0) stops at its first nonzero (zero) element, looking 64
 * elements at a time so the compare vectorises; outputs already decided
 * skip their rows. One output per element (an outer reduction) ORs (ANDs)
 * rows into the output. Narrow dtypes arrive widened (nn_exec); the
 * binding makes a uint8 input's result uint8, as torch. */
#define ANYALL_LOOP(NAME, T)                                                                       \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        const bool is_any = *(const bool *)argp;                                                   \
        if (s[0] == 0) {                                                                           \
            uint8_t *o = (uint8_t *)d[0];                                                          \
            if (*o == (uint8_t)is_any) return; /* decided */                                       \
            bool hit = false;                                                                      \
            int64_t i = 0;                                                                         \
            if (s[1] == (int64_t)sizeof(T)) {                                                      \
                const T *x = (const T *)d[1];                                                      \
                for (; i + 64 <= n && !hit; i += 64) {                                             \
                    int acc = 0;                                                                   \
                    if (is_any)                                                                    \
                        for (int k = 0; k < 64; k++) acc |= x[i + k] != 0;                         \
                    else                                                                           \
                        for (int k = 0; k < 64; k++) acc |= x[i + k] == 0;                         \
                    hit = acc != 0;                                                                \
                }                                                                                  \
            }                                                                                      \
            for (; i < n && !hit; i++) {                                                           \
                T v = *(const T *)(d[1] + i * s[1]);                                               \
                hit = is_any ? v != 0 : v == 0;                                                    \
            }                                                                                      \
            if (hit) *o = is_any;                                                                  \
        } else if (s[0] == 1 && s[1] == (int64_t)sizeof(T)) { /* a row into a row */               \
            uint8_t *o = (uint8_t *)d[0];                                                          \
            const T *x = (const T *)d[1];                                                          \
            if (is_any)                                                                            \
                for (int64_t i = 0; i < n; i++) o[i] |= x[i] != 0;                                 \
            else                                                                                   \
                for (int64_t i = 0; i < n; i++) o[i] &= x[i] != 0;                                 \
        } else if (is_any) {                                                                       \
            for (int64_t i = 0; i < n; i++)                                                        \
                *(uint8_t *)(d[0] + i * s[0]) |= *(const T *)(d[1] + i * s[1]) != 0;               \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                *(uint8_t *)(d[0] + i * s[0]) &= *(const T *)(d[1] + i * s[1]) != 0;               \
        }                                                                                          \
    }
ANYALL_LOOP(anyall_f32, float)
ANYALL_LOOP(anyall_f64, double)
ANYALL_LOOP(anyall_i64, int64_t)
ANYALL_LOOP(anyall_bool, uint8_t)

static nn_tensor *anyall_forward(nn_ctx *ctx, nn_node *node, bool is_any) {
    nn_tensor *x = in0(node);
    rgeo g;
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, node->p.keepdim, &g)) return NULL;
    nn_iter_loop loop;
    switch (x->dtype) {
    case NN_FLOAT32: loop = anyall_f32; break;
    case NN_FLOAT64: loop = anyall_f64; break;
    case NN_INT64: loop = anyall_i64; break;
    default: loop = anyall_bool; break;
    }
    nn_tensor *src = x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64 || x->dtype == NN_INT64 ||
                             x->dtype == NN_BOOL
                         ? nn_tensor_retain(x)
                         : nn_tensor_cast_raw(ctx, x, NN_BOOL);
    nn_tensor *out = src ? nn_full(ctx, NN_BOOL, g.out_ndim, g.out_shape, is_any ? 0 : 1) : NULL;
    if (out) reduce_into(out, src, g.mask, node->p.keepdim, loop, &is_any);
    nn_tensor_release(src);
    return out;
}

nn_tensor *op_any_forward(nn_ctx *ctx, nn_node *node) {
    return anyall_forward(ctx, node, true);
}
nn_tensor *op_all_forward(nn_ctx *ctx, nn_node *node) {
    return anyall_forward(ctx, node, false);
}

/* ---- logsumexp ---- */

/* logsumexp of float32/float64 as PyTorch 1.13 composes it
 * (ReduceOps.cpp, logsumexp_out_impl): m = amax(x, dims, keepdim=True)
 * with its infinities set to 0 (all -inf stays -inf, a +inf gives +inf),
 * then sum(exp(x - m), dims).log() + m, every step in x's type: x - m into
 * a tensor in x's memory order (TensorIterator's output layout), exp and
 * log by SLEEF (its vml kernels map every element through SLEEF), the sum
 * in PyTorch's order (ops_sum.c). Checked equal, bit for bit, to
 * torch.logsumexp against that composition in PyTorch. Here x - m and its
 * exp are one pass, and the max of one dim of a contiguous tensor takes
 * the vector scans. */

/* d[0] e, d[1] x, d[2] m (read through strides over x's shape) */
#define LSE_SUB_LOOP(NAME, T)                                                                      \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        (void)argp;                                                                                \
        for (int64_t i = 0; i < n; i++)                                                            \
            *(T *)(d[0] + i * s[0]) =                                                              \
                *(const T *)(d[1] + i * s[1]) - *(const T *)(d[2] + i * s[2]);                     \
    }
LSE_SUB_LOOP(lse_sub_f32, float)
LSE_SUB_LOOP(lse_sub_f64, double)

typedef struct lse_job {
    const char *x, *m;
    char *e;
    int64_t rows, len; /* rows: x - m[row] then exp; len 0: exp over e only */
    bool f32;
} lse_job;

static void lse_rows_task(void *argp, int task, int n_tasks) {
    const lse_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->rows, task, n_tasks, 1, &b, &e);
    for (int64_t r = b; r < e; r++) {
        if (j->f32) {
            const float *x = (const float *)j->x + r * j->len, m = ((const float *)j->m)[r];
            float *o = (float *)j->e + r * j->len;
            for (int64_t i = 0; i < j->len; i++) o[i] = x[i] - m;
            nn_sleef_map_f32(NN_SLEEF_EXP, o, o, j->len, j->len);
        } else {
            const double *x = (const double *)j->x + r * j->len, m = ((const double *)j->m)[r];
            double *o = (double *)j->e + r * j->len;
            for (int64_t i = 0; i < j->len; i++) o[i] = x[i] - m;
            nn_sleef_map_f64(NN_SLEEF_EXP, o, o, j->len, j->len);
        }
    }
}

/* e in the memory order of [x] (the input before an integer one's cast to
 * float, whose PyTorch .to() keeps it): its dims sorted by stride,
 * outermost first (size-1 dims where they stand), packed densely. */
static nn_tensor *lse_like(nn_ctx *ctx, const nn_tensor *x, nn_dtype dt) {
    if (nn_tensor_is_contiguous(x)) return nn_tensor_empty(ctx, dt, x->ndim, x->shape);
    int perm[NN_MAX_DIMS], np = 0;
    for (int d = 0; d < x->ndim; d++)
        if (x->shape[d] != 1) perm[np++] = d;
    for (int a = 1; a < np; a++) /* stable: by |stride| descending */
        for (int b = a; b > 0 && llabs(x->strides[perm[b]]) > llabs(x->strides[perm[b - 1]]); b--) {
            int t = perm[b];
            perm[b] = perm[b - 1];
            perm[b - 1] = t;
        }
    int64_t n = nn_tensor_numel(x), st[NN_MAX_DIMS], acc = 1;
    for (int d = 0; d < x->ndim; d++) st[d] = 1;
    for (int k = np - 1; k >= 0; k--) st[perm[k]] = acc, acc *= x->shape[perm[k]];
    nn_tensor *flat = nn_tensor_empty(ctx, dt, 1, &n);
    nn_tensor *v = flat ? nn_tensor_view_raw(ctx, flat, x->ndim, x->shape, st, 0) : NULL;
    nn_tensor_release(flat);
    return v;
}

static void lse_exp_task(void *argp, int task, int n_tasks) {
    const lse_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->rows, task, n_tasks, 64, &b, &e);
    if (j->f32)
        nn_sleef_map_f32(NN_SLEEF_EXP, (float *)j->e + b, (float *)j->e + b, e - b, e - b);
    else
        nn_sleef_map_f64(NN_SLEEF_EXP, (double *)j->e + b, (double *)j->e + b, e - b, e - b);
}

/* The rows of a contiguous x reduced over its trailing dims, more than one
 * (each summed whole, the same order at any thread count: ops_sum.c): per
 * row its max, then exp(x - m) into a buffer of one row in cache, its sum
 * in PyTorch's order, the same steps as lse_pytorch without the tensor of
 * exps. s gets the sums, m the shifts. */
typedef struct lse_fused {
    const char *x;
    char *s, *m;
    char *buf; /* one row per task */
    int64_t rows, len;
    bool f32;
} lse_fused;

static void lse_fused_task(void *argp, int task, int n_tasks) {
    const lse_fused *j = argp;
    int64_t b, e, idx;
    nn_parallel_range(j->rows, task, n_tasks, 1, &b, &e);
    void *buf = j->buf + (size_t)(task * j->len) * (j->f32 ? sizeof(float) : sizeof(double));
    for (int64_t r = b; r < e; r++) {
        if (j->f32) {
            const float *x = (const float *)j->x + r * j->len;
            float m, *o = buf;
            scan_row_f32(x, j->len, true, &m, &idx);
            m = isinf(m) ? 0.0f : m;
            for (int64_t i = 0; i < j->len; i++) o[i] = x[i] - m;
            nn_sleef_map_f32(NN_SLEEF_EXP, o, o, j->len, j->len);
            ((float *)j->s)[r] = nn_sum_row_f32(o, j->len);
            ((float *)j->m)[r] = m;
        } else {
            const double *x = (const double *)j->x + r * j->len;
            double m, *o = buf;
            scan_row_f64(x, j->len, true, &m, &idx);
            m = isinf(m) ? 0.0 : m;
            for (int64_t i = 0; i < j->len; i++) o[i] = x[i] - m;
            nn_sleef_map_f64(NN_SLEEF_EXP, o, o, j->len, j->len);
            ((double *)j->s)[r] = nn_sum_row_f64(o, j->len);
            ((double *)j->m)[r] = m;
        }
    }
}

/* Where a slice holds a NaN, PyTorch's result is its amax's NaN, sign
 * and all: its add of m is fmadd(m, 1, log s), whose NaN is m's, and m is
 * amax's NaN (nn_extreme_pytorch_order), which may differ from the one the
 * max above kept. [m] and [s] have one element per slice; s's NaN
 * entries take amax's. false with ctx->err set when out of memory. */
static bool lse_nan_of_amax(nn_ctx *ctx, const nn_tensor *x, const rgeo *g, const nn_tensor *m,
                            nn_tensor *s) {
    nn_tensor *am = nn_tensor_empty(ctx, x->dtype, g->out_ndim, g->out_shape);
    if (!am) return false;
    nn_extreme_pytorch_order(x, g->mask, am, true);
    int64_t nm = nn_tensor_numel(s);
    if (x->dtype == NN_FLOAT32) {
        const float *mv = nn_tensor_data(m), *av = nn_tensor_data(am);
        float *sv = nn_tensor_data(s);
        for (int64_t i = 0; i < nm; i++)
            if (isnan(mv[i])) sv[i] = av[i];
    } else {
        const double *mv = nn_tensor_data(m), *av = nn_tensor_data(am);
        double *sv = nn_tensor_data(s);
        for (int64_t i = 0; i < nm; i++)
            if (isnan(mv[i])) sv[i] = av[i];
    }
    nn_tensor_release(am);
    return true;
}

static nn_tensor *lse_pytorch(nn_ctx *ctx, const nn_tensor *x, const nn_tensor *layout,
                              const rgeo *g) {
    const bool f32 = x->dtype == NN_FLOAT32;
    rgeo gk; /* the keepdim geometry of m */
    memcpy(&gk, g, sizeof gk);
    gk.out_ndim = nn_reduce_shape(x, g->mask, true, gk.out_shape);
    nn_tensor *m = nn_tensor_empty(ctx, x->dtype, gk.out_ndim, gk.out_shape), *e = NULL, *s = NULL;
    if (!m) return NULL;
    const int64_t n = nn_tensor_numel(x), nm = nn_tensor_numel(m);
    /* over the trailing dims of a contiguous x: rows */
    bool rows = nn_tensor_is_contiguous(x) && nn_tensor_is_contiguous(layout) && nm * g->count == n;
    for (int d = 0, seen = 0; rows && d < x->ndim; d++) {
        if (x->shape[d] == 1) continue;
        if (seen && !g->mask[d]) rows = false;
        seen |= g->mask[d];
    }
    int tasks = nn_parallel_tasks(n, NN_PAR_MIN_DEAR);
    if (rows && nm >= 2 && g->count >= (f32 ? 8 : 4)) {
        if (tasks > nm) tasks = (int)nm;
        size_t es = f32 ? sizeof(float) : sizeof(double);
        s = nn_tensor_empty(ctx, x->dtype, g->out_ndim, g->out_shape);
        char *buf = s ? malloc((size_t)tasks * (size_t)g->count * es) : NULL;
        if (!buf) {
            if (s) nn_error_set(&ctx->err, NN_ERR_MEMORY, "logsumexp: out of memory");
            goto fail;
        }
        lse_fused f = {
            nn_tensor_data(x), nn_tensor_data(s), nn_tensor_data(m), buf, nm, g->count, f32};
        nn_parallel_run(tasks, lse_fused_task, &f);
        free(buf);
        goto log_add;
    }
    /* m = amax: one reduced dim longer than 1 (or none) of a contiguous x
     * takes the vector scan; the rest the double max, exact either way */
    int dim = -1, nlong = 0;
    for (int d = 0; d < x->ndim; d++)
        if (g->mask[d] && (dim < 0 || x->shape[d] > 1)) {
            if (x->shape[d] > 1) nlong++;
            dim = d;
        }
    nn_tensor *idx = nlong <= 1 && dim >= 0 && nn_tensor_is_contiguous(x)
                         ? nn_tensor_empty(ctx, NN_INT64, gk.out_ndim, gk.out_shape)
                         : NULL;
    bool scanned = idx && scan_fast(x, dim, true, m, idx);
    nn_tensor_release(idx);
    if (!scanned) {
        nn_tensor *acc = reduce_acc(ctx, x, &gk, true, ACC_MAX, 0, -INFINITY, NULL);
        if (!acc) goto fail;
        nn_tensor_release(m);
        m = finish(ctx, acc, x->dtype, FIN_COPY, 0, NULL);
        if (!m) return NULL;
    }
    if (f32) {
        float *mv = nn_tensor_data(m);
        for (int64_t i = 0; i < nm; i++) mv[i] = isinf(mv[i]) ? 0.0f : mv[i];
    } else {
        double *mv = nn_tensor_data(m);
        for (int64_t i = 0; i < nm; i++) mv[i] = isinf(mv[i]) ? 0.0 : mv[i];
    }
    /* e = exp(x - m) */
    e = lse_like(ctx, layout, x->dtype);
    if (!e) goto fail;
    lse_job j = {nn_tensor_data(x), nn_tensor_data(m), nn_tensor_data(e), nm, g->count, f32};
    if (rows) { /* rows of x - m[row] */
        if (tasks > nm) tasks = (int)nm;
        nn_parallel_run(tasks, lse_rows_task, &j);
    } else {
        int64_t mst[NN_MAX_DIMS];
        over_input(m, x->ndim, g->mask, true, mst);
        nn_iter it;
        nn_iter_init(&it, x->ndim, x->shape);
        nn_iter_add(&it, e);
        nn_iter_add(&it, x);
        nn_iter_add_strided(&it, m, mst);
        nn_iter_run_parallel(&it, f32 ? lse_sub_f32 : lse_sub_f64, NULL, NN_PAR_MIN_ELEMWISE);
        j.e = e->storage->data; /* dense from its storage's start */
        j.rows = n;
        nn_parallel_run(tasks, lse_exp_task, &j);
    }
    s = nn_tensor_empty(ctx, x->dtype, g->out_ndim, g->out_shape);
    if (!s) goto fail;
    nn_sum_pytorch_order(e, g->mask, s);
log_add:
    /* log(s) + m; m keepdim has s's element order */
    bool nan_m = false;
    if (f32) {
        float *sv = nn_tensor_data(s);
        const float *mv = nn_tensor_data(m);
        nn_sleef_map_f32(NN_SLEEF_LOG, sv, sv, nm, nm);
        for (int64_t i = 0; i < nm; i++) sv[i] = sv[i] + mv[i], nan_m |= isnan(mv[i]);
    } else {
        double *sv = nn_tensor_data(s);
        const double *mv = nn_tensor_data(m);
        nn_sleef_map_f64(NN_SLEEF_LOG, sv, sv, nm, nm);
        for (int64_t i = 0; i < nm; i++) sv[i] = sv[i] + mv[i], nan_m |= isnan(mv[i]);
    }
    if (nan_m && !lse_nan_of_amax(ctx, x, g, m, s)) {
        nn_tensor_release(s);
        goto fail;
    }
    nn_tensor_release(m);
    nn_tensor_release(e);
    return s;
fail:
    nn_tensor_release(m);
    nn_tensor_release(e);
    return NULL;
}

nn_tensor *op_logsumexp_forward(nn_ctx *ctx, nn_node *node) {
    /* Integer inputs compute in float32, as PyTorch. */
    nn_tensor *x = nn_tensor_cast_raw(ctx, in0(node), nn_float_dtype(in0(node)->dtype));
    if (!x) return NULL;
    bool kd = node->p.keepdim;
    rgeo g;
    nn_tensor *m = NULL, *s = NULL, *out = NULL;
    if (!geo_init(ctx, x, node->p.dims, node->p.n_dims, kd, &g)) goto done;
    if ((x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) && nn_tensor_numel(x) > 0) {
        out = lse_pytorch(ctx, x, in0(node), &g);
        goto done;
    }
    m = reduce_acc(ctx, x, &g, kd, ACC_MAX, 0, -INFINITY, NULL);
    if (!m) goto done;
    /* Shift by the max, but by 0 where it is infinite: all -inf stays -inf
     * (log 0) and a +inf gives +inf, as PyTorch. */
    double *mv = m->storage->data;
    int64_t n = nn_tensor_numel(m);
    for (int64_t i = 0; i < n; i++)
        if (isinf(mv[i])) mv[i] = 0;
    s = reduce_acc(ctx, x, &g, kd, ACC_EXP, 0, 0, m);
    out = finish(ctx, s, x->dtype, FIN_LOG_ADD, 0, m);
done:
    nn_tensor_release(m);
    nn_tensor_release(x);
    return out;
}

nn_status op_logsumexp_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    rgeo g = node_geo(ctx, node);
    return backward_fused(ctx, node, dout, &g, node->p.keepdim, &k_lse, NULL, 0, 0, &din[0]);
}

/* ---- public API ---- */

static nn_tensor *reduce_call(nn_ctx *ctx, nn_op op, nn_tensor *a, const int64_t *dims, int n_dims,
                              bool keepdim, int64_t correction, double p) {
    nn_params prm;
    memset(&prm, 0, sizeof prm);
    if (dims && n_dims > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: %d dims given, at most %d", nn_op_name(op),
                     n_dims, NN_MAX_DIMS);
        return NULL;
    }
    prm.n_dims = dims && n_dims > 0 ? n_dims : 0;
    for (int i = 0; i < prm.n_dims; i++) prm.dims[i] = dims[i];
    prm.keepdim = keepdim;
    prm.i[0] = correction;
    prm.f[0] = p;
    return nn_exec(ctx, op, &a, 1, &prm);
}

nn_tensor *nn_sum(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return reduce_call(ctx, NN_OP_SUM, a, dims, n_dims, keepdim, 0, 0);
}
nn_tensor *nn_mean(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return reduce_call(ctx, NN_OP_MEAN, a, dims, n_dims, keepdim, 0, 0);
}
nn_tensor *nn_var(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int64_t correction,
                  bool keepdim) {
    return reduce_call(ctx, NN_OP_VAR, a, dims, n_dims, keepdim, correction, 0);
}
nn_tensor *nn_std(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, int64_t correction,
                  bool keepdim) {
    return reduce_call(ctx, NN_OP_STD, a, dims, n_dims, keepdim, correction, 0);
}
nn_tensor *nn_logsumexp(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return reduce_call(ctx, NN_OP_LOGSUMEXP, a, dims, n_dims, keepdim, 0, 0);
}
nn_tensor *nn_norm(nn_ctx *ctx, nn_tensor *a, double p, const int64_t *dims, int n_dims,
                   bool keepdim) {
    if (isnan(p)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "norm: p is NaN");
        return NULL;
    }
    return reduce_call(ctx, NN_OP_NORM, a, dims, n_dims, keepdim, 0, p);
}
nn_tensor *nn_max_all(nn_ctx *ctx, nn_tensor *a) {
    return reduce_call(ctx, NN_OP_MAX, a, NULL, 0, false, 0, 0);
}
nn_tensor *nn_min_all(nn_ctx *ctx, nn_tensor *a) {
    return reduce_call(ctx, NN_OP_MIN, a, NULL, 0, false, 0, 0);
}

static nn_tensor *extreme_dim(nn_ctx *ctx, nn_op op, nn_tensor *a, int64_t dim, bool keepdim,
                              nn_tensor **indices) {
    nn_params prm;
    memset(&prm, 0, sizeof prm);
    prm.flags = 1;
    prm.i[0] = dim;
    prm.keepdim = keepdim;
    nn_tensor_release(ctx->aux);
    ctx->aux = NULL;
    nn_tensor *out = nn_exec(ctx, op, &a, 1, &prm);
    nn_tensor *idx = ctx->aux;
    ctx->aux = NULL;
    if (!out) {
        nn_tensor_release(idx);
        return NULL;
    }
    if (indices && !idx) {
        /* A hook ran another max/min between the forward and here and took
         * the hand-over: the recorded node still has them, else recompute. */
        if (out->grad_fn && out->grad_fn->saved[0])
            idx = nn_tensor_retain(out->grad_fn->saved[0]);
        else
            idx = op == NN_OP_MAX ? nn_argmax(ctx, a, dim, false, keepdim)
                                  : nn_argmin(ctx, a, dim, false, keepdim);
        if (!idx) {
            nn_tensor_release(out);
            return NULL;
        }
    }
    if (indices)
        *indices = idx;
    else
        nn_tensor_release(idx);
    return out;
}

nn_tensor *nn_max_dim(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool keepdim, nn_tensor **indices) {
    return extreme_dim(ctx, NN_OP_MAX, a, dim, keepdim, indices);
}
nn_tensor *nn_min_dim(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool keepdim, nn_tensor **indices) {
    return extreme_dim(ctx, NN_OP_MIN, a, dim, keepdim, indices);
}

static nn_tensor *amax_call(nn_ctx *ctx, nn_op op, nn_tensor *a, const int64_t *dims, int n_dims,
                            bool keepdim) {
    nn_params prm;
    memset(&prm, 0, sizeof prm);
    if (dims && n_dims > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: %d dims given, at most %d", nn_op_name(op),
                     n_dims, NN_MAX_DIMS);
        return NULL;
    }
    prm.flags = 2;
    prm.n_dims = dims && n_dims > 0 ? n_dims : 0;
    for (int i = 0; i < prm.n_dims; i++) prm.dims[i] = dims[i];
    prm.keepdim = keepdim;
    return nn_exec(ctx, op, &a, 1, &prm);
}

nn_tensor *nn_amax(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return amax_call(ctx, NN_OP_MAX, a, dims, n_dims, keepdim);
}
nn_tensor *nn_amin(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return amax_call(ctx, NN_OP_MIN, a, dims, n_dims, keepdim);
}

static nn_tensor *arg_call(nn_ctx *ctx, nn_op op, nn_tensor *a, int64_t dim, bool all_dims,
                           bool keepdim) {
    nn_params prm;
    memset(&prm, 0, sizeof prm);
    prm.flags = all_dims;
    prm.i[0] = dim;
    prm.keepdim = keepdim;
    return nn_exec(ctx, op, &a, 1, &prm);
}

nn_tensor *nn_any(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return reduce_call(ctx, NN_OP_ANY, a, dims, n_dims, keepdim, 0, 0);
}
nn_tensor *nn_all(nn_ctx *ctx, nn_tensor *a, const int64_t *dims, int n_dims, bool keepdim) {
    return reduce_call(ctx, NN_OP_ALL, a, dims, n_dims, keepdim, 0, 0);
}

nn_tensor *nn_argmax(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim) {
    return arg_call(ctx, NN_OP_ARGMAX, a, dim, all_dims, keepdim);
}
nn_tensor *nn_argmin(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim) {
    return arg_call(ctx, NN_OP_ARGMIN, a, dim, all_dims, keepdim);
}

/* ---- costs (n: input elements, m: output elements) ----
 * sum, max, min, argmax, argmin: n; mean: n + m (the division); var: 4n + m
 * (mean pass, then a subtraction, a square and a sum per element, one
 * division per output); std: var + m (the square root); logsumexp: 4n + 2m
 * (max, subtract, exp, sum; log and add back per output); norm: 2n + m. */
bool nn_cost_reduce(const nn_node *nd, const nn_tensor *out, nn_op_cost *c) {
    double n = nn_cost_numel(nd->in[0].t), m = nn_cost_numel(out);
    switch (nd->op) {
    case NN_OP_SUM:
    case NN_OP_MAX:
    case NN_OP_MIN:
    case NN_OP_ARGMAX:
    case NN_OP_ARGMIN:
    case NN_OP_ANY:
    case NN_OP_ALL: c->flops = n; return true;
    case NN_OP_MEAN: c->flops = n + m; return true;
    case NN_OP_VAR: c->flops = 4 * n + m; return true;
    case NN_OP_STD: c->flops = 4 * n + 2 * m; return true;
    case NN_OP_LOGSUMEXP: c->flops = 4 * n + 2 * m; return true;
    case NN_OP_NORM: c->flops = 2 * n + m; return true;
    default: return false;
    }
}
