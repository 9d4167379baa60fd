/* More of torch's pointwise math, each one node with its own backward:
 * tan, the inverse and hyperbolic trigonometric functions, expm1, erf,
 * reciprocal, the roundings (floor, ceil, round, trunc, whose gradient is
 * zero, and frac), the binary atan2 and fmod, and the product reduction
 * prod.
 *
 * The unary kernels work on a contiguous copy in the input's float type
 * (ints and bools compute in float32, as the other unary math does); the
 * roundings keep an integer input's dtype and values, as torch does. Narrow
 * dtypes are widened and rounded back by nn_exec. Backwards are written with
 * the public ops, which run directly inside a backward. */
#include <math.h>
#include <string.h>

#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_sleef.h"

enum {
    X_TAN,
    X_ASIN,
    X_ACOS,
    X_ATAN,
    X_SINH,
    X_COSH,
    X_EXPM1,
    X_ERF,
    X_RECIPROCAL,
    X_FLOOR,
    X_CEIL,
    X_ROUND,
    X_TRUNC,
    X_FRAC
};

static bool is_rounding(int which) {
    return which == X_FLOOR || which == X_CEIL || which == X_ROUND || which == X_TRUNC;
}

/* C's round() rounds halves away from zero; torch rounds them to even. */
static double round_half_even(double x) {
    return nearbyint(x);
}

static double apply(int which, double x) {
    switch (which) {
    case X_TAN: return tan(x);
    case X_ASIN: return asin(x);
    case X_ACOS: return acos(x);
    case X_ATAN: return atan(x);
    case X_SINH: return sinh(x);
    case X_COSH: return cosh(x);
    case X_EXPM1: return expm1(x);
    case X_ERF: return erf(x);
    case X_RECIPROCAL: return 1.0 / x;
    case X_FLOOR: return floor(x);
    case X_CEIL: return ceil(x);
    case X_ROUND: return round_half_even(x);
    case X_TRUNC: return trunc(x);
    default: return x - trunc(x);
    }
}

static float applyf(int which, float x) {
    switch (which) {
    case X_TAN: return tanf(x);
    case X_ASIN: return asinf(x);
    case X_ACOS: return acosf(x);
    case X_ATAN: return atanf(x);
    case X_SINH: return sinhf(x);
    case X_COSH: return coshf(x);
    case X_EXPM1: return expm1f(x);
    case X_ERF: return erff(x);
    case X_RECIPROCAL: return 1.0f / x;
    case X_FLOOR: return floorf(x);
    case X_CEIL: return ceilf(x);
    case X_ROUND: return nearbyintf(x);
    case X_TRUNC: return truncf(x);
    default: return x - truncf(x);
    }
}

static nn_tensor *more_forward(nn_ctx *ctx, nn_node *node, int which) {
    nn_tensor *a = node->in[0].t;
    if (is_rounding(which) && !nn_dtype_is_float(a->dtype)) {
        if (a->dtype == NN_BOOL) {
            static const char *const names[] = {
                [X_FLOOR] = "floor", [X_CEIL] = "ceil", [X_ROUND] = "round", [X_TRUNC] = "trunc"};
            nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s_vml_cpu\" not implemented for 'Bool'",
                         names[which]);
            return NULL;
        }
        /* torch returns an integer tensor's values unchanged, in a new tensor */
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
        nn_tensor *out = c ? nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape) : NULL;
        if (out)
            memcpy(nn_tensor_data(out), nn_tensor_data(c),
                   (size_t)nn_tensor_numel(a) * nn_dtype_size(a->dtype));
        nn_tensor_release(c);
        return out;
    }
    if (which == X_FRAC && !nn_dtype_is_float(a->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"frac_cpu\" not implemented for '%s'",
                     nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    /* tan, asin, acos, atan, expm1 and erf through SLEEF, as PyTorch's
     * kernels; sinh and cosh SLEEF on whole vector blocks, libm on the
     * rest (nn_sleef.h) */
    static const nn_sleef_fn sleef_of[] = {
        [X_TAN] = NN_SLEEF_TAN,     [X_ASIN] = NN_SLEEF_ASIN, [X_ACOS] = NN_SLEEF_ACOS,
        [X_ATAN] = NN_SLEEF_ATAN,   [X_SINH] = NN_SLEEF_SINH, [X_COSH] = NN_SLEEF_COSH,
        [X_EXPM1] = NN_SLEEF_EXPM1, [X_ERF] = NN_SLEEF_ERF};
    if (which <= X_ERF) {
        nn_dtype dt = nn_float_dtype(a->dtype);
        /* a dense layout is kept and walked as flat memory: the same blocks
         * and tail as a contiguous input */
        nn_tensor *c = NULL;
        bool dense;
        nn_tensor *out = nn_map_operands(ctx, a, dt, &c, &dense);
        if (out) {
            int64_t n = nn_tensor_numel(out);
            bool f32 = dt == NN_FLOAT32;
            /* sinh and cosh: a strided view's rows are PyTorch's runs, each
             * with its own libm tail, or libm throughout (nn_vector_runs) */
            bool tails = which == X_SINH || which == X_COSH;
            int64_t run = tails && !dense ? nn_vector_runs(a) : n;
            char *o = nn_tensor_data(out);
            const char *x = nn_tensor_data(c);
            size_t es = nn_dtype_size(dt);
            for (int64_t r = 0; r < n; r += (run > 0 ? run : n)) {
                int64_t m = run > 0 && run < n - r ? run : n - r;
                int64_t tail = !tails ? m : run > 0 ? nn_sleef_tail(m, f32) : 0;
                if (f32)
                    nn_sleef_map_f32(sleef_of[which], (float *)(o + (size_t)r * es),
                                     (const float *)(x + (size_t)r * es), m, tail);
                else
                    nn_sleef_map_f64(sleef_of[which], (double *)(o + (size_t)r * es),
                                     (const double *)(x + (size_t)r * es), m, tail);
            }
        }
        nn_tensor_release(c);
        return out;
    }
    return nn_unary_float_map(ctx, a, which, applyf, apply);
}

/* 1 / (s * (1 + x^2)) or s / sqrt(1 - x^2): the inverse functions' slopes. */
static nn_tensor *one_over(nn_ctx *ctx, nn_tensor *v, double sign) {
    nn_tensor *num = nn_scalar_wrapped(ctx, sign);
    nn_tensor *r = num ? nn_div(ctx, num, v) : NULL;
    nn_tensor_release(num);
    return r;
}

static nn_tensor *slope(nn_ctx *ctx, nn_node *node, int which) {
    nn_tensor *x = node->in[0].t, *y = node->out;
    switch (which) {
    case X_TAN: { /* 1 + tan^2 */
        nn_tensor *y2 = nn_mul(ctx, y, y);
        nn_tensor *r = y2 ? nn_add_scalar(ctx, y2, 1.0) : NULL;
        nn_tensor_release(y2);
        return r;
    }
    case X_ASIN:
    case X_ACOS: { /* +-1 / sqrt(1 - x^2) */
        nn_tensor *x2 = nn_mul(ctx, x, x);
        nn_tensor *m = x2 ? nn_mul_scalar(ctx, x2, -1.0) : NULL;
        nn_tensor *s = m ? nn_add_scalar(ctx, m, 1.0) : NULL;
        nn_tensor *q = s ? nn_sqrt(ctx, s) : NULL;
        nn_tensor *r = q ? one_over(ctx, q, which == X_ASIN ? 1.0 : -1.0) : NULL;
        nn_tensor *all[] = {x2, m, s, q};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
        return r;
    }
    case X_ATAN: { /* 1 / (1 + x^2) */
        nn_tensor *x2 = nn_mul(ctx, x, x);
        nn_tensor *s = x2 ? nn_add_scalar(ctx, x2, 1.0) : NULL;
        nn_tensor *r = s ? one_over(ctx, s, 1.0) : NULL;
        nn_tensor_release(x2);
        nn_tensor_release(s);
        return r;
    }
    case X_SINH: return nn_cosh(ctx, x);
    case X_COSH: return nn_sinh(ctx, x);
    case X_EXPM1: return nn_add_scalar(ctx, y, 1.0);
    case X_ERF: { /* 2 / sqrt(pi) exp(-x^2) */
        nn_tensor *x2 = nn_mul(ctx, x, x);
        nn_tensor *m = x2 ? nn_mul_scalar(ctx, x2, -1.0) : NULL;
        nn_tensor *e = m ? nn_exp(ctx, m) : NULL;
        nn_tensor *r = e ? nn_mul_scalar(ctx, e, 2.0 / sqrt(M_PI)) : NULL;
        nn_tensor_release(x2);
        nn_tensor_release(m);
        nn_tensor_release(e);
        return r;
    }
    case X_RECIPROCAL: { /* -y^2 */
        nn_tensor *y2 = nn_mul(ctx, y, y);
        nn_tensor *r = y2 ? nn_mul_scalar(ctx, y2, -1.0) : NULL;
        nn_tensor_release(y2);
        return r;
    }
    default: return NULL;
    }
}

static nn_status more_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                               int which) {
    if (!node->in[0].needs_grad) return NN_OK;
    if (which == X_FRAC) {
        din[0] = nn_tensor_retain(dout);
        return NN_OK;
    }
    if (is_rounding(which)) {
        din[0] = nn_zeros_like(ctx, dout);
        return din[0] ? NN_OK : ctx->err.code;
    }
    if (which == X_ATAN) { /* grad / (x^2 + 1), as PyTorch divides */
        nn_tensor *x = node->in[0].t;
        nn_tensor *x2 = nn_mul(ctx, x, x);
        nn_tensor *s = x2 ? nn_add_scalar(ctx, x2, 1.0) : NULL;
        din[0] = s ? nn_div(ctx, dout, s) : NULL;
        nn_tensor_release(x2);
        nn_tensor_release(s);
        return din[0] ? NN_OK : ctx->err.code;
    }
    nn_tensor *d = slope(ctx, node, which);
    din[0] = d ? nn_mul(ctx, dout, d) : NULL;
    nn_tensor_release(d);
    return din[0] ? NN_OK : ctx->err.code;
}

#define MORE_OP(name, W)                                                                           \
    nn_tensor *op_##name##_forward(nn_ctx *ctx, nn_node *node) {                                   \
        return more_forward(ctx, node, X_##W);                                                     \
    }                                                                                              \
    nn_status op_##name##_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) { \
        return more_backward(ctx, node, dout, din, X_##W);                                         \
    }                                                                                              \
    nn_tensor *nn_##name(nn_ctx *ctx, nn_tensor *a) {                                              \
        return nn_exec(ctx, NN_OP_##W, &a, 1, NULL);                                               \
    }
MORE_OP(tan, TAN)
MORE_OP(asin, ASIN)
MORE_OP(acos, ACOS)
MORE_OP(atan, ATAN)
MORE_OP(sinh, SINH)
MORE_OP(cosh, COSH)
MORE_OP(expm1, EXPM1)
MORE_OP(erf, ERF)
MORE_OP(reciprocal, RECIPROCAL)
MORE_OP(floor, FLOOR)
MORE_OP(ceil, CEIL)
MORE_OP(round, ROUND)
MORE_OP(trunc, TRUNC)
MORE_OP(frac, FRAC)
#undef MORE_OP

/* ---- atan2 and fmod: broadcasting binary ops ---- */

typedef struct bin_arg {
    bool fmod;
} bin_arg;

/* atan2 as PyTorch's vectorised loop computes it: SLEEF on whole blocks of
 * 2 vectors of a run where every operand is contiguous, libm on the rest
 * (nn_sleef.h). */
static void bin_f64(char **d, const int64_t *s, int64_t n, void *arg) {
    bool fm = ((bin_arg *)arg)->fmod;
    bool contig = s[0] == 8 && s[1] == 8 && s[2] == 8;
    int64_t tail = contig ? nn_sleef_tail(n, false) : 0;
    nn_sleef_d2 vatan2 = nn_sleef_double2(NN_SLEEF_ATAN2);
    for (int64_t i = 0; i < n; i++) {
        double a = *(const double *)(d[1] + i * s[1]), b = *(const double *)(d[2] + i * s[2]);
        *(double *)(d[0] + i * s[0]) = fm ? fmod(a, b) : i < tail ? vatan2(a, b) : atan2(a, b);
    }
}

static void bin_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    bool fm = ((bin_arg *)arg)->fmod;
    bool contig = s[0] == 4 && s[1] == 4 && s[2] == 4;
    int64_t tail = contig ? nn_sleef_tail(n, true) : 0;
    nn_sleef_f2 vatan2 = nn_sleef_float2(NN_SLEEF_ATAN2);
    for (int64_t i = 0; i < n; i++) {
        float a = *(const float *)(d[1] + i * s[1]), b = *(const float *)(d[2] + i * s[2]);
        *(float *)(d[0] + i * s[0]) = fm ? fmodf(a, b) : i < tail ? vatan2(a, b) : atan2f(a, b);
    }
}

/* Integer fmod: C's %, whose sign follows the dividend as torch's does. */
static void bin_i64(char **d, const int64_t *s, int64_t n, void *arg) {
    (void)arg;
    for (int64_t i = 0; i < n; i++) {
        int64_t a = *(const int64_t *)(d[1] + i * s[1]), b = *(const int64_t *)(d[2] + i * s[2]);
        *(int64_t *)(d[0] + i * s[0]) = b == 0 ? 0 : a % b;
    }
}

static nn_tensor *bin_forward(nn_ctx *ctx, nn_node *node, bool fm) {
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, a->ndim, a->shape, b->ndim, b->shape, &nd, shape)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    bool ints = fm && !nn_dtype_is_float(dt);
    if (ints && dt == NN_BOOL) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"fmod_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    if (ints) {
        int64_t nb = nn_tensor_numel(b);
        for (int64_t i = 0; i < nb; i++)
            if (nn_tensor_get_flat_int(b, i) == 0) {
                nn_error_set(&ctx->err, NN_ERR_RUNTIME, "ZeroDivisionError");
                return NULL;
            }
    }
    dt = ints ? NN_INT64 : nn_float_dtype(dt);
    nn_tensor *ca = nn_tensor_cast_raw(ctx, a, dt);
    nn_tensor *cb = ca ? nn_tensor_cast_raw(ctx, b, dt) : NULL;
    nn_tensor *out = cb ? nn_tensor_empty(ctx, dt, nd, shape) : NULL;
    if (out) {
        bin_arg arg = {fm};
        nn_iter it;
        nn_iter_init(&it, nd, shape);
        nn_iter_add(&it, out);
        nn_iter_add(&it, ca);
        nn_iter_add(&it, cb);
        nn_iter_run(&it, dt == NN_FLOAT32 ? bin_f32 : dt == NN_FLOAT64 ? bin_f64 : bin_i64, &arg);
    }
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

nn_tensor *op_atan2_forward(nn_ctx *ctx, nn_node *node) {
    return bin_forward(ctx, node, false);
}

/* d atan2(a, b) = (b da - a db) / (a^2 + b^2), as PyTorch rounds it:
 * r = 1 / (a^2 + b^2), da = g b r, db = g (-a) r. */
nn_status op_atan2_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    nn_tensor *a2 = nn_mul(ctx, a, a), *b2 = a2 ? nn_mul(ctx, b, b) : NULL;
    nn_tensor *den = b2 ? nn_add(ctx, a2, b2) : NULL;
    nn_tensor *g = den ? nn_reciprocal(ctx, den) : NULL;
    nn_status st = g ? NN_OK : ctx->err.code;
    if (g && node->in[0].needs_grad) {
        nn_tensor *m = nn_mul(ctx, dout, b);
        din[0] = m ? nn_mul(ctx, m, g) : NULL;
        nn_tensor_release(m);
        if (!din[0]) st = ctx->err.code;
    }
    if (g && node->in[1].needs_grad) {
        nn_tensor *na = nn_neg(ctx, a);
        nn_tensor *m = na ? nn_mul(ctx, dout, na) : NULL;
        din[1] = m ? nn_mul(ctx, m, g) : NULL;
        nn_tensor_release(na);
        nn_tensor_release(m);
        if (!din[1]) st = ctx->err.code;
    }
    nn_tensor *all[] = {a2, b2, den, g};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    return st;
}

nn_tensor *op_fmod_forward(nn_ctx *ctx, nn_node *node) {
    return bin_forward(ctx, node, true);
}

/* d fmod(a, b) = da - trunc(a / b) db */
nn_status op_fmod_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad) din[0] = nn_tensor_retain(dout);
    if (!node->in[1].needs_grad) return NN_OK;
    nn_tensor *q = nn_div(ctx, node->in[0].t, node->in[1].t);
    nn_tensor *tq = q ? nn_trunc(ctx, q) : NULL;
    nn_tensor *m = tq ? nn_mul(ctx, dout, tq) : NULL;
    din[1] = m ? nn_neg(ctx, m) : NULL;
    nn_tensor_release(q);
    nn_tensor_release(tq);
    nn_tensor_release(m);
    return din[1] ? NN_OK : ctx->err.code;
}

nn_tensor *nn_atan2(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, NN_OP_ATAN2, in, 2, NULL);
}

nn_tensor *nn_fmod(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, NN_OP_FMOD, in, 2, NULL);
}

/* ---- prod: over everything (p.n_dims 0) or along one dim p.i[0] ---- */

/* The reduction as (outer, len, inner) over a contiguous copy. */
static void prod_geometry(const nn_tensor *a, const nn_params *p, int64_t *outer, int64_t *len,
                          int64_t *inner) {
    int64_t n = nn_tensor_numel(a);
    if (p->n_dims <= 0) {
        *outer = 1;
        *len = n;
        *inner = 1;
        return;
    }
    int d = (int)p->i[0];
    *outer = 1;
    *inner = 1;
    for (int i = 0; i < d; i++) *outer *= a->shape[i];
    for (int i = d + 1; i < a->ndim; i++) *inner *= a->shape[i];
    *len = a->ndim ? a->shape[d] : 1;
}

static int prod_out_shape(const nn_tensor *a, const nn_params *p, int64_t *shape) {
    if (p->n_dims <= 0) return 0;
    int n = 0, d = (int)p->i[0];
    for (int i = 0; i < a->ndim; i++) {
        if (i != d)
            shape[n++] = a->shape[i];
        else if (p->keepdim)
            shape[n++] = 1;
    }
    return n;
}

/* The products of a contiguous (outer, len, inner) block: along a row
 * (inner 1) with 32 running products (four vectors), so the multiplies pipeline and
 * vectorise; otherwise a row of inner products updated one slice of len at
 * a time, which is contiguous. Integer products wrap as PyTorch's (uint64).
 * Compiled per ISA level (NN_KERNEL_CLONES). */
#define PROD_KERNEL(NAME, T)                                                                       \
    NN_KERNEL_CLONES static void NAME(const T *x, T *y, int64_t outer, int64_t len,                \
                                      int64_t inner) {                                             \
        for (int64_t o = 0; o < outer; o++) {                                                      \
            const T *row = x + o * len * inner;                                                    \
            T *acc = y + o * inner;                                                                \
            if (inner == 1) {                                                                      \
                T p32[32];                                                                         \
                for (int j = 0; j < 32; j++) p32[j] = 1;                                           \
                int64_t k = 0;                                                                     \
                for (; k + 32 <= len; k += 32)                                                     \
                    for (int j = 0; j < 32; j++) p32[j] = (T)(p32[j] * row[k + j]);                \
                T p = 1;                                                                           \
                for (; k < len; k++) p = (T)(p * row[k]);                                          \
                for (int j = 0; j < 32; j++) p = (T)(p * p32[j]);                                  \
                acc[0] = p;                                                                        \
                continue;                                                                          \
            }                                                                                      \
            for (int64_t in = 0; in < inner; in++) acc[in] = 1;                                    \
            for (int64_t k = 0; k < len; k++)                                                      \
                for (int64_t in = 0; in < inner; in++)                                             \
                    acc[in] = (T)(acc[in] * row[k * inner + in]);                                  \
        }                                                                                          \
    }
PROD_KERNEL(prod_f32, float)
PROD_KERNEL(prod_f64, double)
PROD_KERNEL(prod_u64, uint64_t)
#undef PROD_KERNEL

typedef struct prod_job {
    const char *x;
    char *y;
    int64_t outer, len, inner;
    nn_dtype dt;
} prod_job;

static void prod_task(void *argp, int task, int n_tasks) {
    const prod_job *j = argp;
    int64_t b, e;
    nn_parallel_range(j->outer, task, n_tasks, 1, &b, &e);
    size_t es = nn_dtype_size(j->dt);
    const char *x = j->x + (size_t)(b * j->len * j->inner) * es;
    char *y = j->y + (size_t)(b * j->inner) * es;
    switch (j->dt) {
    case NN_INT64: prod_u64((const uint64_t *)x, (uint64_t *)y, e - b, j->len, j->inner); break;
    case NN_FLOAT32: prod_f32((const float *)x, (float *)y, e - b, j->len, j->inner); break;
    default: prod_f64((const double *)x, (double *)y, e - b, j->len, j->inner); break;
    }
}

nn_tensor *op_prod_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = node->in[0].t;
    nn_dtype dt = nn_dtype_is_float(a->dtype) ? nn_float_dtype(a->dtype) : NN_INT64;
    nn_tensor *c = nn_contiguous_as(ctx, a, dt);
    int64_t shape[NN_MAX_DIMS];
    int nd = prod_out_shape(a, &node->p, shape);
    nn_tensor *out = c ? nn_tensor_empty(ctx, dt, nd, shape) : NULL;
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    prod_job j = {nn_tensor_data(c), nn_tensor_data(out), 0, 0, 0, dt};
    prod_geometry(a, &node->p, &j.outer, &j.len, &j.inner);
    /* each output is its own chain: splitting the outer blocks across
     * threads changes no bit */
    int tasks = nn_parallel_tasks(nn_tensor_numel(c), NN_PAR_MIN_REDUCE);
    if (tasks > j.outer) tasks = (int)j.outer;
    nn_parallel_run(tasks > 1 ? tasks : 1, prod_task, &j);
    nn_tensor_release(c);
    return out;
}

/* din[i] = dout * the product of the other elements of its slice, from
 * prefix and suffix products, so that zeros give exact gradients. */
nn_status op_prod_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!node->in[0].needs_grad) return NN_OK;
    nn_tensor *a = node->in[0].t;
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, a);
    nn_tensor *dc = c ? nn_tensor_contiguous_raw(ctx, dout) : NULL;
    nn_tensor *g = dc ? nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape) : NULL;
    int64_t outer, len, inner;
    prod_geometry(a, &node->p, &outer, &len, &inner);
    double *pre =
        g ? nn_mem_calloc(sizeof(double) * (size_t)(len + 1) * 2, "prod", &ctx->err) : NULL;
    if (!pre) {
        nn_tensor_release(c);
        nn_tensor_release(dc);
        nn_tensor_release(g);
        return ctx->err.code;
    }
    double *suf = pre + len + 1;
    for (int64_t o = 0; o < outer; o++)
        for (int64_t in = 0; in < inner; in++) {
            int64_t base = o * len * inner + in;
            pre[0] = 1;
            for (int64_t k = 0; k < len; k++)
                pre[k + 1] = pre[k] * nn_tensor_get_flat(c, base + k * inner);
            suf[len] = 1;
            for (int64_t k = len - 1; k >= 0; k--)
                suf[k] = suf[k + 1] * nn_tensor_get_flat(c, base + k * inner);
            double go = nn_tensor_get_flat(dc, o * inner + in);
            for (int64_t k = 0; k < len; k++)
                nn_tensor_set_flat(g, base + k * inner, go * pre[k] * suf[k + 1]);
        }
    nn_mem_free(pre);
    nn_tensor_release(c);
    nn_tensor_release(dc);
    din[0] = g;
    return NN_OK;
}

nn_tensor *nn_prod(nn_ctx *ctx, nn_tensor *a, int64_t dim, bool all_dims, bool keepdim) {
    nn_params p;
    memset(&p, 0, sizeof p);
    if (!all_dims) {
        int d;
        if (nn_dim_wrap_torch(ctx, dim, a->ndim, &d)) return NULL;
        p.i[0] = a->ndim ? d : 0;
        p.n_dims = a->ndim ? 1 : 0;
        p.keepdim = keepdim;
    }
    return nn_exec(ctx, NN_OP_PROD, &a, 1, &p);
}

/* ---- costs: one FLOP per element (transcendental or not), none for the
 * roundings; prod one multiply per element. ---- */
bool nn_cost_pointwise_more(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    (void)out;
    switch (n->op) {
    case NN_OP_TAN:
    case NN_OP_ASIN:
    case NN_OP_ACOS:
    case NN_OP_ATAN:
    case NN_OP_SINH:
    case NN_OP_COSH:
    case NN_OP_EXPM1:
    case NN_OP_ERF:
    case NN_OP_RECIPROCAL:
    case NN_OP_FRAC:
    case NN_OP_PROD: c->flops = nn_cost_numel(n->in[0].t); return true;
    case NN_OP_ATAN2:
    case NN_OP_FMOD: c->flops = nn_cost_numel(out); return true;
    case NN_OP_FLOOR:
    case NN_OP_CEIL:
    case NN_OP_ROUND:
    case NN_OP_TRUNC: return true;
    default: return false;
    }
}
