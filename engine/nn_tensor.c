#include "nn_tensor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_ctx.h"
#include "nn_mem.h"
#include "nn_ops_impl.h"

size_t nn_dtype_size(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return 4;
    case NN_FLOAT64: return 8;
    case NN_INT64: return 8;
    case NN_BOOL: return 1;
    }
    return 1;
}

const char *nn_dtype_name(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "float32";
    case NN_FLOAT64: return "float64";
    case NN_INT64: return "int64";
    case NN_BOOL: return "bool";
    }
    return "?";
}

bool nn_dtype_is_float(nn_dtype dt) {
    return dt == NN_FLOAT32 || dt == NN_FLOAT64;
}

/* 0 bool, 1 int, 2 float: PyTorch's categories. */
static int category(nn_dtype dt) {
    return dt == NN_BOOL ? 0 : dt == NN_INT64 ? 1 : 2;
}

/* PyTorch ranks operands: tensors with dims, then 0-dim tensors, then
 * wrapped numbers. A lower-ranked operand only matters when its category is
 * higher; then a 0-dim tensor brings its own dtype and a wrapped number the
 * default of its category. */
static int rank(const nn_tensor *t) {
    return t->is_wrapped_number ? 0 : t->ndim == 0 ? 1 : 2;
}

nn_dtype nn_dtype_promote(const nn_tensor *a, const nn_tensor *b) {
    if (rank(a) != rank(b)) {
        const nn_tensor *hi = rank(a) > rank(b) ? a : b, *lo = rank(a) > rank(b) ? b : a;
        if (category(lo->dtype) <= category(hi->dtype)) return hi->dtype;
        if (!lo->is_wrapped_number) return lo->dtype;
        return category(lo->dtype) == 2 ? NN_FLOAT32 : NN_INT64;
    }
    if (a->dtype == b->dtype) return a->dtype;
    if (category(a->dtype) != category(b->dtype))
        return category(a->dtype) > category(b->dtype) ? a->dtype : b->dtype;
    return NN_FLOAT64; /* float32 with float64 */
}

/* ---- lifetime ---- */

nn_tensor *nn_tensor_retain(nn_tensor *t) {
    if (t) t->refcount++;
    return t;
}

static void storage_release(nn_storage *s) {
    if (s && --s->refcount == 0) nn_mem_free(s);
}

void nn_tensor_release(nn_tensor *t) {
    if (!t || --t->refcount > 0) return;
    storage_release(t->storage);
    nn_tensor_release(t->grad);
    if (t->grad_fn) nn_node_release(t->grad_fn);
    nn_mem_free(t);
}

/* ---- creation ---- */

static nn_status numel_checked(nn_ctx *ctx, int ndim, const int64_t *shape, int64_t *out) {
    if (ndim < 0 || ndim > NN_MAX_DIMS)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "tensors have at most %d dims, got %d",
                            NN_MAX_DIMS, ndim);
    /* [span] is the product of the sizes with 0 counted as 1: the strides
     * are built from it, so it must stay far from overflow even when a zero
     * size makes the tensor empty. */
    int64_t n = 1, span = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            char buf[128];
            return nn_error_set(&ctx->err, NN_ERR_SHAPE, "negative size %lld in shape %s",
                                (long long)shape[i], nn_shape_str(buf, sizeof buf, ndim, shape));
        }
        int64_t d = shape[i] ? shape[i] : 1;
        if (span > INT64_MAX / 16 / d) {
            char buf[128];
            return nn_error_set(&ctx->err, NN_ERR_MEMORY, "shape %s has too many elements",
                                nn_shape_str(buf, sizeof buf, ndim, shape));
        }
        span *= d;
        n *= shape[i];
    }
    *out = n;
    return NN_OK;
}

static void contiguous_strides(int ndim, const int64_t *shape, int64_t *strides) {
    int64_t s = 1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = s;
        s *= shape[i] > 0 ? shape[i] : 1;
    }
}

#define STORAGE_HEADER 64

nn_tensor *nn_tensor_empty(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    int64_t n = 0;
    if (numel_checked(ctx, ndim, shape, &n)) return NULL;
    size_t nbytes = (size_t)n * nn_dtype_size(dt);
    nn_storage *s = nn_mem_alloc(STORAGE_HEADER + nbytes, NULL, &ctx->err);
    if (!s) {
        /* Name the tensor only on failure: formatting costs more than the
         * allocation itself on the hot path. */
        char why[NN_ERROR_MSG_MAX], sbuf[128];
        snprintf(why, sizeof why, "%s", ctx->err.msg);
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "a %s tensor of shape %s: %s", nn_dtype_name(dt),
                     nn_shape_str(sbuf, sizeof sbuf, ndim, shape), why);
        return NULL;
    }
    nn_tensor *t = nn_mem_alloc(sizeof *t, "a tensor header", &ctx->err);
    if (!t) {
        nn_mem_free(s);
        return NULL;
    }
    s->refcount = 1;
    s->version = 0;
    s->nbytes = nbytes;
    s->data = (char *)s + STORAGE_HEADER;
    memset(t, 0, sizeof *t);
    t->refcount = 1;
    t->dtype = dt;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) t->shape[i] = shape[i];
    contiguous_strides(ndim, shape, t->strides);
    t->storage = s;
    return t;
}

nn_tensor *nn_full(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape, double value) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (!t) return NULL;
    int64_t n = nn_tensor_numel(t);
    void *d = t->storage->data;
    switch (dt) {
    case NN_FLOAT32:
        for (int64_t i = 0; i < n; i++) ((float *)d)[i] = (float)value;
        break;
    case NN_FLOAT64:
        for (int64_t i = 0; i < n; i++) ((double *)d)[i] = value;
        break;
    case NN_INT64:
        for (int64_t i = 0; i < n; i++) ((int64_t *)d)[i] = (int64_t)value;
        break;
    case NN_BOOL: memset(d, value != 0, (size_t)n); break;
    }
    return t;
}

nn_tensor *nn_zeros(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t) memset(t->storage->data, 0, t->storage->nbytes);
    return t;
}

nn_tensor *nn_ones(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return nn_full(ctx, dt, ndim, shape, 1.0);
}

nn_tensor *nn_zeros_like(nn_ctx *ctx, const nn_tensor *t) {
    return nn_zeros(ctx, t->dtype, t->ndim, t->shape);
}

nn_tensor *nn_arange(nn_ctx *ctx, double start, double end, double step, nn_dtype dt) {
    if (step == 0 || !isfinite(start) || !isfinite(end) || !isfinite(step)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "arange needs finite bounds and a nonzero step");
        return NULL;
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "arange(%g, %g, %g): the step goes away from the end; "
                     "use a %s step",
                     start, end, step, step > 0 ? "negative" : "positive");
        return NULL;
    }
    double count = ceil((end - start) / step);
    if (count > 1e15) {
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "arange(%g, %g, %g) has too many elements", start,
                     end, step);
        return NULL;
    }
    int64_t n = (int64_t)count;
    nn_tensor *t = nn_tensor_empty(ctx, dt, 1, &n);
    if (!t) return NULL;
    for (int64_t i = 0; i < n; i++) nn_tensor_set_flat(t, i, start + (double)i * step);
    return t;
}

nn_tensor *nn_linspace(nn_ctx *ctx, double start, double end, int64_t steps, nn_dtype dt) {
    if (steps < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "linspace needs steps >= 0, got %lld",
                     (long long)steps);
        return NULL;
    }
    nn_tensor *t = nn_tensor_empty(ctx, dt, 1, &steps);
    if (!t) return NULL;
    double d = steps > 1 ? (end - start) / (double)(steps - 1) : 0;
    if (steps == 1) end = start;
    /* Fill from both ends as PyTorch does, so the last value is exactly end. */
    for (int64_t i = 0; i < steps; i++)
        nn_tensor_set_flat(
            t, i, i < steps / 2 ? start + d * (double)i : end - d * (double)(steps - 1 - i));
    return t;
}

nn_tensor *nn_eye(nn_ctx *ctx, int64_t n, int64_t m, nn_dtype dt) {
    int64_t shape[2] = {n, m < 0 ? n : m};
    nn_tensor *t = nn_zeros(ctx, dt, 2, shape);
    if (!t) return NULL;
    for (int64_t i = 0; i < n && i < shape[1]; i++) nn_tensor_set_flat(t, i * shape[1] + i, 1);
    return t;
}

nn_tensor *nn_tensor_from_doubles(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                  const double *values) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (!t) return NULL;
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) nn_tensor_set_flat(t, i, values[i]);
    return t;
}

nn_tensor *nn_tensor_from_data(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                               const void *data) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t && t->storage->nbytes) memcpy(t->storage->data, data, t->storage->nbytes);
    return t;
}

nn_tensor *nn_scalar(nn_ctx *ctx, double value, nn_dtype dt) {
    return nn_full(ctx, dt, 0, NULL, value);
}

nn_tensor *nn_scalar_wrapped_int(nn_ctx *ctx, int64_t value) {
    nn_tensor *t = nn_tensor_empty(ctx, NN_INT64, 0, NULL);
    if (t) {
        *(int64_t *)t->storage->data = value;
        t->is_wrapped_number = true;
    }
    return t;
}

nn_tensor *nn_scalar_wrapped(nn_ctx *ctx, double value) {
    nn_tensor *t = nn_full(ctx, NN_FLOAT64, 0, NULL, value);
    if (t) t->is_wrapped_number = true;
    return t;
}

/* ---- shape and element access ---- */

int64_t nn_tensor_numel(const nn_tensor *t) {
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++) n *= t->shape[i];
    return n;
}

bool nn_tensor_is_contiguous(const nn_tensor *t) {
    if (nn_tensor_numel(t) == 0) return true; /* nothing to lay out */
    int64_t s = 1;
    for (int i = t->ndim - 1; i >= 0; i--) {
        if (t->shape[i] == 1) continue;
        if (t->strides[i] != s) return false;
        s *= t->shape[i];
    }
    return true;
}

bool nn_tensor_same_shape(const nn_tensor *a, const nn_tensor *b) {
    if (a->ndim != b->ndim) return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

/* Storage offset (elements) of flat row-major index i. */
static int64_t flat_offset(const nn_tensor *t, int64_t i) {
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        off += (i % n) * t->strides[d];
        i /= n;
    }
    return off;
}

static double load(nn_dtype dt, const void *base, int64_t off) {
    switch (dt) {
    case NN_FLOAT32: return ((const float *)base)[off];
    case NN_FLOAT64: return ((const double *)base)[off];
    case NN_INT64: return (double)((const int64_t *)base)[off];
    case NN_BOOL: return ((const uint8_t *)base)[off];
    }
    return 0;
}

static void store(nn_dtype dt, void *base, int64_t off, double v) {
    switch (dt) {
    case NN_FLOAT32: ((float *)base)[off] = (float)v; break;
    case NN_FLOAT64: ((double *)base)[off] = v; break;
    case NN_INT64: /* NaN and out-of-range values become INT64_MIN, as x86 and PyTorch do */
        ((int64_t *)base)[off] =
            (v >= -9.2233720368547758e18 && v < 9.2233720368547758e18) ? (int64_t)v : INT64_MIN;
        break;
    case NN_BOOL: ((uint8_t *)base)[off] = v != 0; break;
    }
}

double nn_tensor_get_flat(const nn_tensor *t, int64_t i) {
    return load(t->dtype, t->storage->data, flat_offset(t, i));
}

void nn_tensor_set_flat(nn_tensor *t, int64_t i, double v) {
    store(t->dtype, t->storage->data, flat_offset(t, i), v);
}

nn_status nn_tensor_item(nn_ctx *ctx, const nn_tensor *t, double *out) {
    if (nn_tensor_numel(t) != 1) {
        char buf[128];
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "item() needs a tensor with one element, got shape %s",
                            nn_tensor_shape_str(t, buf, sizeof buf));
    }
    *out = nn_tensor_get_flat(t, 0);
    return NN_OK;
}

void nn_tensor_to_doubles(const nn_tensor *t, double *out) {
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) out[i] = nn_tensor_get_flat(t, i);
}

char *nn_tensor_shape_str(const nn_tensor *t, char *buf, int bufsize) {
    return nn_shape_str(buf, bufsize, t->ndim, t->shape);
}

nn_status nn_dim_wrap(nn_ctx *ctx, int64_t dim, int ndim, int *out) {
    int64_t n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "dim %lld is out of range for a tensor with %d dims "
                            "(expected %lld to %lld)",
                            (long long)dim, ndim, (long long)-n, (long long)(n - 1));
    *out = (int)(dim < 0 ? dim + n : dim);
    return NN_OK;
}

nn_tensor *nn_tensor_view_raw(nn_ctx *ctx, const nn_tensor *t, int ndim, const int64_t *shape,
                              const int64_t *strides, int64_t offset) {
    nn_tensor *v = nn_mem_alloc(sizeof *v, "a tensor header", &ctx->err);
    if (!v) return NULL;
    memset(v, 0, sizeof *v);
    v->refcount = 1;
    v->dtype = t->dtype;
    v->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        v->shape[i] = shape[i];
        v->strides[i] = strides[i];
    }
    v->offset = offset;
    v->storage = t->storage;
    t->storage->refcount++;
    return v;
}

static void copy_loop(char **d, const int64_t *s, int64_t n, void *arg) {
    const nn_dtype *dts = arg; /* [dst dtype, src dtype] */
    if (dts[0] == dts[1]) {
        size_t es = nn_dtype_size(dts[0]);
        if (s[0] == (int64_t)es && s[1] == (int64_t)es) {
            memcpy(d[0], d[1], (size_t)n * es);
            return;
        }
        for (int64_t i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], es);
        return;
    }
    for (int64_t i = 0; i < n; i++)
        store(dts[0], d[0] + i * s[0], 0, load(dts[1], d[1] + i * s[1], 0));
}

/* Copy [src] (broadcast) into [dst], converting dtype; no checks. */
static void copy_into(nn_tensor *dst, const nn_tensor *src) {
    nn_iter it;
    nn_dtype dts[2] = {dst->dtype, src->dtype};
    nn_iter_init(&it, dst->ndim, dst->shape);
    nn_iter_add(&it, dst);
    nn_iter_add(&it, src);
    nn_iter_run(&it, copy_loop, dts);
}

nn_tensor *nn_tensor_contiguous_raw(nn_ctx *ctx, nn_tensor *t) {
    if (nn_tensor_is_contiguous(t)) return nn_tensor_retain(t);
    nn_tensor *c = nn_tensor_empty(ctx, t->dtype, t->ndim, t->shape);
    if (c) copy_into(c, t);
    return c;
}

nn_status nn_tensor_convert_(nn_ctx *ctx, nn_tensor *t, nn_dtype dt) {
    if (!nn_dtype_is_float(t->dtype) || !nn_dtype_is_float(dt))
        return nn_error_set(&ctx->err, NN_ERR_TYPE, "cannot convert a %s tensor to %s in place",
                            nn_dtype_name(t->dtype), nn_dtype_name(dt));
    if (t->grad) {
        nn_status st = nn_tensor_convert_(ctx, t->grad, dt);
        if (st) return st;
    }
    if (t->dtype == dt) return NN_OK;
    nn_tensor *c = nn_tensor_empty(ctx, dt, t->ndim, t->shape);
    if (!c) return ctx->err.code;
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) nn_tensor_set_flat(c, i, nn_tensor_get_flat(t, i));
    storage_release(t->storage);
    t->storage = c->storage;
    c->storage->refcount++;
    t->dtype = dt;
    t->offset = 0;
    memcpy(t->strides, c->strides, sizeof t->strides);
    t->storage->version++;
    nn_tensor_release(c);
    return NN_OK;
}

nn_tensor *nn_tensor_cast_raw(nn_ctx *ctx, nn_tensor *t, nn_dtype dt) {
    if (t->dtype == dt) return nn_tensor_retain(t);
    nn_tensor *c = nn_tensor_empty(ctx, dt, t->ndim, t->shape);
    if (c) copy_into(c, t);
    return c;
}

/* ---- autograd fields ---- */

nn_tensor *nn_tensor_detach(nn_ctx *ctx, nn_tensor *t) {
    return nn_tensor_view_raw(ctx, t, t->ndim, t->shape, t->strides, t->offset);
}

bool nn_tensor_is_leaf(const nn_tensor *t) {
    return t->grad_fn == NULL;
}

nn_status nn_tensor_requires_grad_(nn_ctx *ctx, nn_tensor *t, bool on) {
    if (!nn_tensor_is_leaf(t)) {
        if (on) return NN_OK;
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "requires_grad can only be turned off on leaf tensors; "
                            "use detach() to get a tensor without history");
    }
    if (on && !nn_dtype_is_float(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "only float tensors can require gradients, this one is %s",
                            nn_dtype_name(t->dtype));
    t->requires_grad = on;
    return NN_OK;
}

nn_tensor *nn_tensor_grad(const nn_tensor *t) {
    if (t->grad_fn) return t->retains_grad ? t->grad_fn->retained_grad : NULL;
    return t->grad;
}

nn_status nn_tensor_retain_grad(nn_ctx *ctx, nn_tensor *t) {
    if (!t->requires_grad)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "retain_grad() on a tensor that does not require grad");
    if (t->grad_fn) {
        t->retains_grad = true;
        t->grad_fn->retain = true;
    }
    return NN_OK;
}

void nn_tensor_clear_grad(nn_tensor *t) {
    if (t->grad_fn) {
        if (t->grad_fn->retained_grad) {
            nn_tensor_release(t->grad_fn->retained_grad);
            t->grad_fn->retained_grad = NULL;
        }
        return;
    }
    nn_tensor_release(t->grad);
    t->grad = NULL;
}

/* ---- in-place ops ---- */

nn_status nn_tensor_check_inplace(nn_ctx *ctx, const nn_tensor *t, const char *opname) {
    if (t->requires_grad && ctx->grad_enabled && ctx->depth == 0) {
        if (t->grad_fn)
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "%s: in-place ops on tensors with autograd history are not "
                                "recorded; use the out-of-place op, or detach() first",
                                opname);
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "%s: a leaf that requires grad cannot be changed in place while "
                            "gradients are recorded; do it inside no_grad()",
                            opname);
    }
    return NN_OK;
}

static void bump(nn_tensor *t) {
    t->storage->version++;
}

nn_status nn_tensor_copy_(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src) {
    if (nn_tensor_check_inplace(ctx, dst, "copy_")) return ctx->err.code;
    int n;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, dst->ndim, dst->shape, src->ndim, src->shape, &n, shape))
        return ctx->err.code;
    if (n != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * (size_t)n) != 0) {
        char a[128], b[128];
        return nn_error_set(
            &ctx->err, NN_ERR_SHAPE, "copy_: a source of shape %s cannot fill a tensor of shape %s",
            nn_tensor_shape_str(src, a, sizeof a), nn_tensor_shape_str(dst, b, sizeof b));
    }
    /* src may overlap dst (x.copy_(x.T)): go through a temporary then. */
    if (src->storage == dst->storage) {
        nn_tensor *tmp = nn_tensor_empty(ctx, src->dtype, src->ndim, src->shape);
        if (!tmp) return ctx->err.code;
        copy_into(tmp, src);
        copy_into(dst, tmp);
        nn_tensor_release(tmp);
    } else {
        copy_into(dst, src);
    }
    bump(dst);
    return NN_OK;
}

nn_status nn_tensor_fill_(nn_ctx *ctx, nn_tensor *t, double value) {
    if (nn_tensor_check_inplace(ctx, t, "fill_")) return ctx->err.code;
    nn_tensor *s = nn_scalar(ctx, value, t->dtype);
    if (!s) return ctx->err.code;
    copy_into(t, s);
    nn_tensor_release(s);
    bump(t);
    return NN_OK;
}

nn_status nn_tensor_zero_(nn_ctx *ctx, nn_tensor *t) {
    return nn_tensor_fill_(ctx, t, 0.0);
}

nn_status nn_tensor_add_(nn_ctx *ctx, nn_tensor *t, nn_tensor *other, double alpha) {
    if (nn_tensor_check_inplace(ctx, t, "add_")) return ctx->err.code;
    if (nn_raw_add_into(ctx, t, other, alpha)) return ctx->err.code;
    bump(t);
    return NN_OK;
}

/* Apply f(x, arg) to every element of [t] in place, through doubles. Used by
 * the set-up ops, which are not on any hot path. */
typedef struct {
    nn_dtype dt;
    double (*f)(double x, const double *arg);
    const double *arg;
} map_arg;

static void map_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    map_arg *m = argp;
    for (int64_t i = 0; i < n; i++) {
        char *p = d[0] + i * s[0];
        store(m->dt, p, 0, m->f(load(m->dt, p, 0), m->arg));
    }
}

static nn_status map_inplace(nn_ctx *ctx, nn_tensor *t, const char *name,
                             double (*f)(double, const double *), const double *arg) {
    if (nn_tensor_check_inplace(ctx, t, name)) return ctx->err.code;
    nn_iter it;
    map_arg m = {t->dtype, f, arg};
    nn_iter_init(&it, t->ndim, t->shape);
    nn_iter_add(&it, t);
    nn_iter_run(&it, map_loop, &m);
    bump(t);
    return NN_OK;
}

static double f_mul(double x, const double *a) {
    return x * a[0];
}
static double f_clamp(double x, const double *a) {
    if (isnan(x)) return x;
    if (!isnan(a[0]) && x < a[0]) x = a[0];
    if (!isnan(a[1]) && x > a[1]) x = a[1];
    return x;
}
nn_status nn_tensor_mul_scalar_(nn_ctx *ctx, nn_tensor *t, double s) {
    return map_inplace(ctx, t, "mul_", f_mul, &s);
}

nn_status nn_tensor_mul_(nn_ctx *ctx, nn_tensor *t, nn_tensor *other) {
    if (nn_tensor_check_inplace(ctx, t, "mul_")) return ctx->err.code;
    int saved = ctx->depth;
    ctx->depth++;
    nn_tensor *prod = nn_mul(ctx, t, other);
    ctx->depth = saved;
    if (!prod) return ctx->err.code;
    nn_status st = nn_tensor_copy_(ctx, t, prod);
    nn_tensor_release(prod);
    return st;
}

nn_status nn_tensor_clamp_(nn_ctx *ctx, nn_tensor *t, double lo, double hi) {
    double a[2] = {lo, hi};
    return map_inplace(ctx, t, "clamp_", f_clamp, a);
}
