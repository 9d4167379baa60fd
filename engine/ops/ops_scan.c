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

/* The scan of [lanes] independent lines of [len] elements: lane j's step s
 * sits at j * ls + s * ss from [x]/[y] (ss negative runs backward from the
 * given end). Each lane is one chain of adds (or multiplies) in its own
 * order, so running lanes side by side changes no bit: SCAN_LANES lines at
 * once hide the add's latency (rows of a last-dim scan) or make one vector
 * step (columns of a scan over an outer dim, ls == 1). */
enum { SCAN_LANES = 8, SCAN_COLS = 512 };

#define SCAN_KERNEL(T, ACC, SFX, STEP)                                                             \
    NN_KERNEL_CLONES static void scan_lanes_##SFX(const T *x, T *y, int64_t lanes, int64_t ls,     \
                                                  int64_t len, int64_t ss, bool prod) {            \
        ACC acc[SCAN_COLS];                                                                        \
        for (int64_t j = 0; j < lanes; j++) acc[j] = prod ? 1 : 0;                                 \
        if (ls == 1) {                                                                             \
            for (int64_t s = 0; s < len; s++) {                                                    \
                const T *xs = x + s * ss;                                                          \
                T *ys = y + s * ss;                                                                \
                if (prod)                                                                          \
                    for (int64_t j = 0; j < lanes; j++) {                                          \
                        acc[j] = STEP(acc[j], xs[j], *);                                           \
                        ys[j] = (T)acc[j];                                                         \
                    }                                                                              \
                else                                                                               \
                    for (int64_t j = 0; j < lanes; j++) {                                          \
                        acc[j] = STEP(acc[j], xs[j], +);                                           \
                        ys[j] = (T)acc[j];                                                         \
                    }                                                                              \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        if (lanes == SCAN_LANES) {                                                                 \
            /* rows: eight chains in registers, no vector shuffles */                              \
            ACC r[SCAN_LANES] = {0};                                                               \
            for (int j = 0; j < SCAN_LANES; j++) r[j] = acc[j];                                    \
            for (int64_t s = 0; s < len; s++) {                                                    \
                _Pragma("GCC unroll 8") for (int j = 0; j < SCAN_LANES; j++) {                     \
                    const int64_t i = j * ls + s * ss;                                             \
                    r[j] = prod ? STEP(r[j], x[i], *) : STEP(r[j], x[i], +);                       \
                    y[i] = (T)r[j];                                                                \
                }                                                                                  \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t s = 0; s < len; s++)                                                          \
            for (int64_t j = 0; j < lanes; j++) {                                                  \
                const int64_t i = j * ls + s * ss;                                                 \
                acc[j] = prod ? STEP(acc[j], x[i], *) : STEP(acc[j], x[i], +);                     \
                y[i] = (T)acc[j];                                                                  \
            }                                                                                      \
    }
/* float sums and products in double (acc_type), int64 wrapping */
#define STEP_FLOAT(a, v, OP) ((a)OP(double)(v))
#define STEP_INT(a, v, OP)   ((int64_t)((uint64_t)(a)OP(uint64_t)(v)))
SCAN_KERNEL(float, double, f32, STEP_FLOAT)
SCAN_KERNEL(double, double, f64, STEP_FLOAT)
SCAN_KERNEL(int64_t, int64_t, i64, STEP_INT)

typedef struct scan_job {
    const char *x;
    char *y;
    scan_geom g;
    int64_t blocks, width; /* lane blocks per outer index, lanes a block */
    nn_dtype dt;
    bool prod, reverse;
} scan_job;

static void scan_task(void *argp, int task, int n_tasks) {
    const scan_job *j = argp;
    const scan_geom g = j->g;
    const size_t es = nn_dtype_size(j->dt);
    /* lanes: columns of the inner dims (ls 1, ss inner), or rows (ls len, ss 1) */
    const bool rows = g.inner == 1;
    const int64_t ls = rows ? g.len : 1, ss = rows ? 1 : g.inner;
    const int64_t nl = rows ? g.outer : g.inner;
    int64_t b, e;
    nn_parallel_range(rows ? j->blocks : g.outer * j->blocks, task, n_tasks, 1, &b, &e);
    for (int64_t u = b; u < e; u++) {
        int64_t o = rows ? 0 : u / j->blocks, l0 = (rows ? u : u % j->blocks) * j->width;
        int64_t lanes = nl - l0 < j->width ? nl - l0 : j->width;
        int64_t off = o * g.len * g.inner + l0 * ls + (j->reverse ? (g.len - 1) * ss : 0);
        int64_t step = j->reverse ? -ss : ss;
        const char *x = j->x + (size_t)off * es;
        char *y = j->y + (size_t)off * es;
        if (j->dt == NN_FLOAT32)
            scan_lanes_f32((const float *)x, (float *)y, lanes, ls, g.len, step, j->prod);
        else if (j->dt == NN_FLOAT64)
            scan_lanes_f64((const double *)x, (double *)y, lanes, ls, g.len, step, j->prod);
        else
            scan_lanes_i64((const int64_t *)x, (int64_t *)y, lanes, ls, g.len, step, j->prod);
    }
}

/* out = cumsum (prod false) or cumprod of [a] along [dim]; [reverse] runs
 * from the end (the backward of cumsum). No autograd. Each line of the dim
 * is its own chain, so the split across threads changes no bit. */
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
    if (g.outer * g.len * g.inner > 0) {
        int64_t width = g.inner == 1 ? SCAN_LANES : SCAN_COLS;
        int64_t nl = g.inner == 1 ? g.outer : g.inner;
        scan_job j = {nn_tensor_data(c),
                      nn_tensor_data(out),
                      g,
                      (nl + width - 1) / width,
                      width,
                      dt,
                      prod,
                      reverse};
        int64_t units = g.inner == 1 ? j.blocks : g.outer * j.blocks;
        int tasks = nn_parallel_tasks(g.outer * g.len * g.inner, NN_PAR_MIN_ELEMWISE);
        if (tasks > units) tasks = (int)units;
        nn_parallel_run(tasks, scan_task, &j);
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
