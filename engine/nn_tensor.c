#include "nn_tensor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"

typedef struct dtype_info {
    const char *name;
    size_t size;
    int category; /* 0 bool, 1 int, 2 float, 3 complex: PyTorch's categories */
    nn_dtype compute;
} dtype_info;

static const dtype_info DTYPES[NN_DTYPE_COUNT] = {
    [NN_FLOAT32] = {"float32", 4, 2, NN_FLOAT32},
    [NN_FLOAT64] = {"float64", 8, 2, NN_FLOAT64},
    [NN_INT64] = {"int64", 8, 1, NN_INT64},
    [NN_BOOL] = {"bool", 1, 0, NN_BOOL},
    [NN_INT32] = {"int32", 4, 1, NN_INT64},
    [NN_INT16] = {"int16", 2, 1, NN_INT64},
    [NN_INT8] = {"int8", 1, 1, NN_INT64},
    [NN_UINT8] = {"uint8", 1, 1, NN_INT64},
    [NN_FLOAT16] = {"float16", 2, 2, NN_FLOAT32},
    [NN_BFLOAT16] = {"bfloat16", 2, 2, NN_FLOAT32},
    [NN_COMPLEX64] = {"complex64", 8, 3, NN_COMPLEX64},
    [NN_COMPLEX128] = {"complex128", 16, 3, NN_COMPLEX128},
};

static const dtype_info *info(nn_dtype dt) {
    NN_ASSERT((unsigned)dt < NN_DTYPE_COUNT);
    return &DTYPES[dt];
}

size_t nn_dtype_size(nn_dtype dt) {
    return info(dt)->size;
}

const char *nn_dtype_name(nn_dtype dt) {
    return (unsigned)dt < NN_DTYPE_COUNT ? DTYPES[dt].name : "?";
}

bool nn_dtype_from_name(const char *name, nn_dtype *out) {
    for (int i = 0; i < NN_DTYPE_COUNT; i++)
        if (strcmp(DTYPES[i].name, name) == 0) {
            *out = (nn_dtype)i;
            return true;
        }
    return false;
}

bool nn_dtype_is_float(nn_dtype dt) {
    return info(dt)->category == 2;
}

bool nn_dtype_is_complex(nn_dtype dt) {
    return info(dt)->category == 3;
}

nn_dtype nn_dtype_to_complex(nn_dtype dt) {
    if (nn_dtype_is_complex(dt)) return dt;
    return dt == NN_FLOAT64 ? NN_COMPLEX128 : NN_COMPLEX64;
}

nn_dtype nn_dtype_to_real(nn_dtype dt) {
    return dt == NN_COMPLEX128 ? NN_FLOAT64 : dt == NN_COMPLEX64 ? NN_FLOAT32 : dt;
}

bool nn_dtype_is_int(nn_dtype dt) {
    return info(dt)->category == 1;
}

bool nn_dtype_is_narrow(nn_dtype dt) {
    return info(dt)->compute != dt;
}

nn_dtype nn_dtype_compute(nn_dtype dt) {
    return info(dt)->compute;
}

static int category(nn_dtype dt) {
    return info(dt)->category;
}

nn_dtype nn_dtype_promote_types(nn_dtype a, nn_dtype b) {
    if (a == b) return a;
    if (category(a) == 3 || category(b) == 3) { /* complex of the wider real part */
        bool wide = a == NN_COMPLEX128 || b == NN_COMPLEX128 || a == NN_FLOAT64 || b == NN_FLOAT64;
        return wide ? NN_COMPLEX128 : NN_COMPLEX64;
    }
    if (category(a) != category(b)) return category(a) > category(b) ? a : b;
    if (category(a) == 2) {
        if ((a == NN_FLOAT16 && b == NN_BFLOAT16) || (a == NN_BFLOAT16 && b == NN_FLOAT16))
            return NN_FLOAT32;
        return nn_dtype_size(a) >= nn_dtype_size(b) ? a : b;
    }
    /* Integers: uint8 with int8 needs int16; otherwise the wider wins
     * (uint8 is the narrowest besides int8). */
    if (a == NN_UINT8 || b == NN_UINT8) {
        nn_dtype other = a == NN_UINT8 ? b : a;
        return other == NN_INT8 ? NN_INT16 : other;
    }
    return nn_dtype_size(a) >= nn_dtype_size(b) ? a : b;
}

bool nn_dtype_can_cast(nn_dtype from, nn_dtype to) {
    return category(from) <= category(to);
}

bool nn_dtype_value_fits(nn_dtype dt, double v) {
    switch (dt) {
    case NN_INT64: return !(v < -9.2233720368547758e18 || v > 9.2233720368547758e18);
    case NN_INT32: return !(v < -2147483648.0 || v > 2147483647.0);
    case NN_INT16: return !(v < -32768.0 || v > 32767.0);
    case NN_INT8: return !(v < -128.0 || v > 127.0);
    /* c10 lets a negative value wrap into uint8 when its magnitude fits. */
    case NN_UINT8: return !(v < -255.0 || v > 255.0);
    default: return true;
    }
}

/* PyTorch's result_type: the operands fall in three classes, tensors with
 * dims, 0-dim tensors and wrapped numbers (a Python float counts as the
 * default float32), each promoted within itself; a lower class only
 * matters when its category is higher (c10's combine_categories). */
static int rank(const nn_tensor *t) {
    return t->is_wrapped_number ? 0 : t->ndim == 0 ? 1 : 2;
}

static int combine(int higher, int lower) {
    if (higher < 0) return lower;
    if (lower < 0) return higher;
    if (category((nn_dtype)higher) == 3) return higher;
    if (category((nn_dtype)lower) == 3) /* c10: keep a floating higher's width */
        return category((nn_dtype)higher) == 2 ? (int)nn_dtype_to_complex((nn_dtype)higher) : lower;
    if (category((nn_dtype)higher) == 2) return higher;
    if (higher == NN_BOOL || category((nn_dtype)lower) == 2)
        return nn_dtype_promote_types((nn_dtype)higher, (nn_dtype)lower);
    return higher;
}

nn_dtype nn_dtype_result_type(const nn_tensor *const *ts, int n) {
    int r[3] = {-1, -1, -1};
    for (int i = 0; i < n; i++) {
        const nn_tensor *t = ts[i];
        nn_dtype dt = t->is_wrapped_number && category(t->dtype) == 2   ? NN_FLOAT32
                      : t->is_wrapped_number && category(t->dtype) == 3 ? NN_COMPLEX64
                                                                        : t->dtype;
        int k = rank(t);
        r[k] = r[k] < 0 ? (int)dt : (int)nn_dtype_promote_types((nn_dtype)r[k], dt);
    }
    int res = combine(r[2], combine(r[1], r[0]));
    return res < 0 ? NN_FLOAT32 : (nn_dtype)res;
}

nn_dtype nn_dtype_promote(const nn_tensor *a, const nn_tensor *b) {
    const nn_tensor *ts[2] = {a, b};
    return nn_dtype_result_type(ts, 2);
}

const char *nn_dtype_scalar_name(nn_dtype dt) {
    static const char *const names[NN_DTYPE_COUNT] = {[NN_FLOAT32] = "Float",
                                                      [NN_FLOAT64] = "Double",
                                                      [NN_INT64] = "Long",
                                                      [NN_BOOL] = "Bool",
                                                      [NN_INT32] = "Int",
                                                      [NN_INT16] = "Short",
                                                      [NN_INT8] = "Char",
                                                      [NN_UINT8] = "Byte",
                                                      [NN_FLOAT16] = "Half",
                                                      [NN_BFLOAT16] = "BFloat16",
                                                      [NN_COMPLEX64] = "ComplexFloat",
                                                      [NN_COMPLEX128] = "ComplexDouble"};
    return (unsigned)dt < NN_DTYPE_COUNT ? names[dt] : "?";
}

/* ---- element conversion ---- */

static uint32_t f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Maratyszcza's FP16 conversions, which c10::Half uses: float arithmetic
 * does the round-to-nearest-even. */
uint16_t nn_f32_to_f16(float f) {
    const float scale_to_inf = 0x1.0p+112f, scale_to_zero = 0x1.0p-110f;
    float base = (fabsf(f) * scale_to_inf) * scale_to_zero;
    const uint32_t w = f32_bits(f), shl1_w = w + w, sign = w & 0x80000000u;
    uint32_t bias = shl1_w & 0xFF000000u;
    if (bias < 0x71000000u) bias = 0x71000000u;
    base = f32_from_bits((bias >> 1) + 0x07800000u) + base;
    const uint32_t bits = f32_bits(base);
    const uint32_t exp_bits = (bits >> 13) & 0x00007C00u, mantissa_bits = bits & 0x00000FFFu;
    const uint32_t nonsign = exp_bits + mantissa_bits;
    return (uint16_t)((sign >> 16) | (shl1_w > 0xFF000000u ? 0x7E00u : nonsign));
}

float nn_f16_to_f32(uint16_t h) {
    const uint32_t w = (uint32_t)h << 16, sign = w & 0x80000000u, two_w = w + w;
    const uint32_t exp_offset = 0xE0u << 23;
    const float normalized = f32_from_bits((two_w >> 4) + exp_offset) * 0x1.0p-112f;
    const float denormalized = f32_from_bits((two_w >> 17) | (126u << 23)) - 0.5f;
    const uint32_t cutoff = 1u << 27;
    return f32_from_bits(sign | (two_w < cutoff ? f32_bits(denormalized) : f32_bits(normalized)));
}

uint16_t nn_f32_to_bf16(float f) {
    if (isnan(f)) return 0x7FC0;
    uint32_t u = f32_bits(f);
    return (uint16_t)((u + ((u >> 16) & 1) + 0x7FFFu) >> 16);
}

float nn_bf16_to_f32(uint16_t h) {
    return f32_from_bits((uint32_t)h << 16);
}

/* float -> int32 as x86's cvttsd2si does it: NaN and out-of-range give
 * INT32_MIN; narrower ints then keep the low bits. */
static int32_t trunc_i32(double v) {
    return (v > -2147483649.0 && v < 2147483648.0) ? (int32_t)v : INT32_MIN;
}

double nn_dtype_load(nn_dtype dt, const void *p) {
    switch (dt) {
    case NN_FLOAT32: return *(const float *)p;
    case NN_FLOAT64: return *(const double *)p;
    case NN_INT64: return (double)*(const int64_t *)p;
    case NN_BOOL: return *(const uint8_t *)p;
    case NN_INT32: return *(const int32_t *)p;
    case NN_INT16: return *(const int16_t *)p;
    case NN_INT8: return *(const int8_t *)p;
    case NN_UINT8: return *(const uint8_t *)p;
    case NN_FLOAT16: return nn_f16_to_f32(*(const uint16_t *)p);
    case NN_BFLOAT16: return nn_bf16_to_f32(*(const uint16_t *)p);
    case NN_COMPLEX64: return *(const float *)p;
    case NN_COMPLEX128: return *(const double *)p;
    }
    return 0;
}

int64_t nn_dtype_load_int(nn_dtype dt, const void *p) {
    switch (dt) {
    case NN_INT64: return *(const int64_t *)p;
    case NN_BOOL: return *(const uint8_t *)p;
    case NN_INT32: return *(const int32_t *)p;
    case NN_INT16: return *(const int16_t *)p;
    case NN_INT8: return *(const int8_t *)p;
    case NN_UINT8: return *(const uint8_t *)p;
    default: return (int64_t)nn_dtype_load(dt, p);
    }
}

void nn_dtype_store(nn_dtype dt, void *p, double v) {
    switch (dt) {
    case NN_FLOAT32: *(float *)p = (float)v; break;
    case NN_FLOAT64: *(double *)p = v; break;
    case NN_INT64: /* NaN and out-of-range values become INT64_MIN, as x86 and PyTorch do */
        *(int64_t *)p =
            (v >= -9.2233720368547758e18 && v < 9.2233720368547758e18) ? (int64_t)v : INT64_MIN;
        break;
    case NN_BOOL: *(uint8_t *)p = v != 0; break;
    case NN_INT32: *(int32_t *)p = trunc_i32(v); break;
    case NN_INT16: *(int16_t *)p = (int16_t)(uint16_t)(uint32_t)trunc_i32(v); break;
    case NN_INT8: *(int8_t *)p = (int8_t)(uint8_t)(uint32_t)trunc_i32(v); break;
    case NN_UINT8: *(uint8_t *)p = (uint8_t)(uint32_t)trunc_i32(v); break;
    case NN_FLOAT16: *(uint16_t *)p = nn_f32_to_f16((float)v); break;
    case NN_BFLOAT16: *(uint16_t *)p = nn_f32_to_bf16((float)v); break;
    case NN_COMPLEX64: ((float *)p)[0] = (float)v, ((float *)p)[1] = 0; break;
    case NN_COMPLEX128: ((double *)p)[0] = v, ((double *)p)[1] = 0; break;
    }
}

/* An integer into an integer dtype: wraps to the narrow type. */
static void store_int(nn_dtype dt, void *p, int64_t v) {
    switch (dt) {
    case NN_INT64: *(int64_t *)p = v; break;
    case NN_INT32: *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v; break;
    case NN_INT16: *(int16_t *)p = (int16_t)(uint16_t)(uint64_t)v; break;
    case NN_INT8: *(int8_t *)p = (int8_t)(uint8_t)(uint64_t)v; break;
    case NN_UINT8: *(uint8_t *)p = (uint8_t)(uint64_t)v; break;
    case NN_BOOL: *(uint8_t *)p = v != 0; break;
    default: nn_dtype_store(dt, p, (double)v); break;
    }
}

static bool is_int_like(nn_dtype dt) {
    return category(dt) < 2;
}

/* ---- lifetime ---- */

nn_tensor *nn_tensor_retain(nn_tensor *t) {
    if (t) t->refcount++;
    return t;
}

static void storage_release(nn_storage *s) {
    if (!s) return;
    if (--s->refcount > 0) {
        /* only the keeping relu node's alias is left */
        if (s->refcount == 1 && s->keeper) nn_node_output_orphaned(s->keeper, s);
        return;
    }
    if (s->release) s->release(s->user);
    nn_mem_free(s);
}

void nn_tensor_release(nn_tensor *t) {
    if (!t || --t->refcount > 0) return;
    /* The node first: a relu node that only [t] held lets its alias of
     * the output go before [t]'s reference, so no bits are made for it. */
    if (t->grad_fn) nn_node_release(t->grad_fn);
    storage_release(t->storage);
    nn_tensor_release(t->grad);
    nn_tensor_release(t->base); /* a root: no chain to recurse down */
    nn_mem_free(t);
}

void nn_tensor_set_(nn_tensor *t, const nn_tensor *src) {
    src->storage->refcount++;
    storage_release(t->storage);
    t->storage = src->storage;
    t->dtype = src->dtype;
    t->ndim = src->ndim;
    t->offset = src->offset;
    for (int d = 0; d < src->ndim; d++) {
        t->shape[d] = src->shape[d];
        t->strides[d] = src->strides[d];
    }
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

/* A contiguous tensor of [nbytes] over a new storage (the shape already
 * checked) placed in the pool as [place]; NULL and [err] set, naming the
 * tensor, when memory runs out. */
static nn_tensor *new_tensor(nn_error *err, nn_dtype dt, int ndim, const int64_t *shape,
                             size_t nbytes, nn_mem_place place) {
    nn_storage *s = nn_mem_alloc_placed(STORAGE_HEADER + nbytes, place, NULL, err);
    if (!s) {
        /* Name the tensor only on failure: formatting costs more than the
         * allocation itself on the hot path. */
        char why[NN_ERROR_MSG_MAX], sbuf[128];
        snprintf(why, sizeof why, "%s", err->msg);
        nn_error_set(err, NN_ERR_MEMORY, "a %s tensor of shape %s: %s", nn_dtype_name(dt),
                     nn_shape_str(sbuf, sizeof sbuf, ndim, shape), why);
        return NULL;
    }
    nn_tensor *t = nn_mem_alloc(sizeof *t, "a tensor header", err);
    if (!t) {
        nn_mem_free(s);
        return NULL;
    }
    s->refcount = 1;
    s->version = 0;
    s->finite_version = 0;
    s->nbytes = nbytes;
    s->data = (char *)s + STORAGE_HEADER;
    s->release = NULL;
    s->husk = false;
    s->keeper = NULL;
    s->user = NULL;
    memset(t, 0, sizeof *t);
    t->refcount = 1;
    t->dtype = dt;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) t->shape[i] = shape[i];
    contiguous_strides(ndim, shape, t->strides);
    t->storage = s;
    return t;
}

static nn_tensor *empty_impl(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                             nn_mem_place place) {
    int64_t n = 0;
    if (numel_checked(ctx, ndim, shape, &n)) return NULL;
    return new_tensor(&ctx->err, dt, ndim, shape, (size_t)n * nn_dtype_size(dt), place);
}

nn_tensor *nn_tensor_empty(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return empty_impl(ctx, dt, ndim, shape, NN_MEM_STEP);
}

/* An empty tensor over new storage with the element [strides] given, which
 * must lay [shape] out densely without overlap (nn_tensor_is_dense): the
 * output of an elementwise op that keeps its input's layout. */
nn_tensor *nn_tensor_empty_strided(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                   const int64_t *strides) {
    nn_tensor *t = empty_impl(ctx, dt, ndim, shape, NN_MEM_STEP);
    if (t)
        for (int i = 0; i < ndim; i++) t->strides[i] = strides[i];
    return t;
}

nn_tensor *nn_tensor_empty_lasting(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return empty_impl(ctx, dt, ndim, shape, NN_MEM_LASTING);
}

nn_tensor *nn_tensor_from_external(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                   const int64_t *strides, void *data, size_t nbytes,
                                   void (*release)(void *user), void *user) {
    int64_t n = 0;
    if (numel_checked(ctx, ndim, shape, &n)) return NULL;
    int64_t lo = 0, hi = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            lo = hi = 0;
            break;
        }
        int64_t span = (shape[i] - 1) * strides[i];
        if (span < 0)
            lo += span;
        else
            hi += span;
    }
    size_t esize = nn_dtype_size(dt);
    if (n > 0 && (lo < 0 || (size_t)(hi + 1) * esize > nbytes))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "external memory of %zu bytes does not hold the strided view", nbytes),
               NULL;
    nn_storage *s = nn_mem_alloc(sizeof *s, "a storage header", &ctx->err);
    if (!s) return NULL;
    nn_tensor *t = nn_mem_alloc(sizeof *t, "a tensor header", &ctx->err);
    if (!t) {
        nn_mem_free(s);
        return NULL;
    }
    s->refcount = 1;
    s->version = 0;
    s->finite_version = 0;
    s->nbytes = nbytes;
    s->data = data;
    s->release = release;
    s->husk = false;
    s->keeper = NULL;
    s->user = user;
    memset(t, 0, sizeof *t);
    t->refcount = 1;
    t->dtype = dt;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
    }
    t->storage = s;
    return t;
}

nn_tensor *nn_tensor_bytes_err(nn_error *err, int64_t n) {
    return new_tensor(err, NN_UINT8, 1, &n, (size_t)n, NN_MEM_STEP);
}

nn_tensor *nn_full(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape, double value) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (!t) return NULL;
    int64_t n = nn_tensor_numel(t);
    char *d = t->storage->data;
    size_t es = nn_dtype_size(dt);
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
    default:
        if (n > 0) nn_dtype_store(dt, d, value);
        for (int64_t i = 1; i < n; i++) memcpy(d + (size_t)i * es, d, es);
        break;
    }
    return t;
}

nn_tensor *nn_zeros(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t) memset(t->storage->data, 0, t->storage->nbytes);
    return t;
}

nn_tensor *nn_zeros_fresh(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    nn_tensor *t = empty_impl(ctx, dt, ndim, shape, NN_MEM_FRESH);
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

/* linspace in float and double as PyTorch 1.13's CPU kernel computes it
 * (its AVX2 build, which fills runs of two vectors of V values): the step in
 * the dtype; in each run a vector starts from base = start + step * idx, or
 * end - step * (steps - 1 - idx) past the middle (both fused multiply-adds,
 * as the compiler contracts them there) and adds i * step to it (not fused);
 * the values after the last run are computed one at a time, fused. Same
 * last bits as PyTorch, so histogram edges print alike. */
#define LINSPACE_KERNEL(NAME, T, V, FMA)                                                           \
    static void NAME(T *o, T start, T end, int64_t steps) {                                        \
        T step = (end - start) / (T)(steps - 1);                                                   \
        int64_t half = steps / 2, idx = 0;                                                         \
        for (; idx + 2 * (V) <= steps;)                                                            \
            for (int h = 0; h < 2; h++, idx += (V)) {                                              \
                T base =                                                                           \
                    idx < half ? FMA(step, (T)idx, start) : FMA(-step, (T)(steps - idx - 1), end); \
                for (int i = 0; i < (V); i++) o[idx + i] = base + (T)i * step;                     \
            }                                                                                      \
        for (; idx < steps; idx++)                                                                 \
            o[idx] =                                                                               \
                idx < half ? FMA(step, (T)idx, start) : FMA(-step, (T)(steps - idx - 1), end);     \
    }
LINSPACE_KERNEL(linspace_f32, float, 8, fmaf)
LINSPACE_KERNEL(linspace_f64, double, 4, fma)

nn_tensor *nn_linspace(nn_ctx *ctx, double start, double end, int64_t steps, nn_dtype dt) {
    if (steps < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "linspace needs steps >= 0, got %lld",
                     (long long)steps);
        return NULL;
    }
    nn_tensor *t = nn_tensor_empty(ctx, dt, 1, &steps);
    if (!t) return NULL;
    if (steps > 1 && dt == NN_FLOAT32) {
        linspace_f32(t->storage->data, (float)start, (float)end, steps);
        return t;
    }
    if (steps > 1 && dt == NN_FLOAT64) {
        linspace_f64(t->storage->data, start, end, steps);
        return t;
    }
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

/* PyTorch's is_non_overlapping_and_dense: the elements fill numel
 * consecutive slots, in some order of the dims (a transpose, a permute, a
 * channels_last tensor). Size-1 dims may have any stride. */
bool nn_tensor_is_dense(const nn_tensor *t) {
    int nd = 0, dims[NN_MAX_DIMS];
    for (int i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 0) return true;
        if (t->shape[i] != 1) dims[nd++] = i;
    }
    /* the dims of size 2 and up, by stride, innermost first (insertion sort) */
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0 && t->strides[dims[j]] < t->strides[dims[j - 1]]; j--) {
            int d = dims[j];
            dims[j] = dims[j - 1];
            dims[j - 1] = d;
        }
    int64_t need = 1;
    for (int i = 0; i < nd; i++) {
        if (t->strides[dims[i]] != need) return false;
        need *= t->shape[dims[i]];
    }
    return true;
}

bool nn_tensor_same_shape(const nn_tensor *a, const nn_tensor *b) {
    if (a->ndim != b->ndim) return false;
    for (int i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

bool nn_tensor_any_all_dense(const nn_tensor *t, bool is_any, bool *out) {
    if (!nn_tensor_is_contiguous(t)) return false;
    int64_t n = nn_tensor_numel(t);
    const void *d = nn_tensor_data(t);
#define SCAN_(T)                                                                                   \
    {                                                                                              \
        const T *x = d;                                                                            \
        int64_t i = 0;                                                                             \
        if (is_any)                                                                                \
            while (i < n && x[i] == 0) i++;                                                        \
        else                                                                                       \
            while (i < n && x[i] != 0) i++;                                                        \
        *out = is_any ? i < n : i == n;                                                            \
        return true;                                                                               \
    }
    switch (t->dtype) {
    case NN_BOOL:
    case NN_UINT8:
    case NN_INT8:
        if (!is_any) { /* no zero byte */
            *out = n == 0 || !memchr(d, 0, (size_t)n);
            return true;
        } else { /* a nonzero byte: eight at a time */
            const uint8_t *x = d;
            int64_t i = 0;
            for (; i + 8 <= n; i += 8) {
                uint64_t w;
                memcpy(&w, x + i, sizeof w);
                if (w) break;
            }
            while (i < n && x[i] == 0) i++;
            *out = i < n;
            return true;
        }
    case NN_INT16: SCAN_(int16_t)
    case NN_INT32: SCAN_(int32_t)
    case NN_INT64: SCAN_(int64_t)
    case NN_FLOAT32: SCAN_(float)
    case NN_FLOAT64: SCAN_(double)
    default: return false;
    }
#undef SCAN_
}

bool nn_tensor_equal_dense(const nn_tensor *a, const nn_tensor *b, bool *out) {
    nn_dtype dt = a->dtype;
    if (b->dtype != dt || !nn_tensor_same_shape(a, b) || !nn_tensor_is_contiguous(a) ||
        !nn_tensor_is_contiguous(b) || dt == NN_FLOAT16 || dt == NN_BFLOAT16 ||
        nn_dtype_is_complex(dt))
        return false;
    int64_t n = nn_tensor_numel(a);
    const void *p = nn_tensor_data(a), *q = nn_tensor_data(b);
    *out = true;
    if (dt == NN_FLOAT32) {
        const float *x = p, *y = q;
        for (int64_t i = 0; i < n && *out; i++) *out = x[i] == y[i];
    } else if (dt == NN_FLOAT64) {
        const double *x = p, *y = q;
        for (int64_t i = 0; i < n && *out; i++) *out = x[i] == y[i];
    } else {
        *out = memcmp(p, q, (size_t)n * nn_dtype_size(dt)) == 0;
    }
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
    return nn_dtype_load(dt, (const char *)base + off * (int64_t)nn_dtype_size(dt));
}

static void store(nn_dtype dt, void *base, int64_t off, double v) {
    nn_dtype_store(dt, (char *)base + off * (int64_t)nn_dtype_size(dt), v);
}

/* The element accessors never touch a released storage (nn_tensor_released):
 * they read 0 and write nothing; callers check nn_tensor_check_storage first. */
double nn_tensor_get_flat(const nn_tensor *t, int64_t i) {
    if (!t->storage->data) return 0.0;
    return load(t->dtype, t->storage->data, flat_offset(t, i));
}

void nn_tensor_get_flat_complex(const nn_tensor *t, int64_t i, double *re, double *im) {
    if (!t->storage->data) {
        *re = *im = 0.0;
        return;
    }
    const char *p =
        (const char *)t->storage->data + flat_offset(t, i) * (int64_t)nn_dtype_size(t->dtype);
    *re = nn_dtype_load(t->dtype, p);
    *im = t->dtype == NN_COMPLEX64    ? ((const float *)p)[1]
          : t->dtype == NN_COMPLEX128 ? ((const double *)p)[1]
                                      : 0.0;
}

void nn_tensor_set_flat(nn_tensor *t, int64_t i, double v) {
    if (!t->storage->data) return;
    store(t->dtype, t->storage->data, flat_offset(t, i), v);
}

int64_t nn_tensor_get_flat_int(const nn_tensor *t, int64_t i) {
    if (!t->storage->data) return 0;
    return nn_dtype_load_int(t->dtype, (const char *)t->storage->data +
                                           flat_offset(t, i) * (int64_t)nn_dtype_size(t->dtype));
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

nn_tensor *nn_tensor_view_dtype(nn_ctx *ctx, const nn_tensor *t, nn_dtype dt) {
    const char *from = nn_dtype_scalar_name(t->dtype), *to = nn_dtype_scalar_name(dt);
    if (dt == NN_BOOL && t->dtype != NN_BOOL) {
        /* nndb's kernels read a bool as C's bool, which holds only 0 and 1:
         * bytes that are all 0 or 1 can be viewed, others cannot */
        bool ok = nn_dtype_size(t->dtype) == 1 && nn_tensor_is_contiguous(t);
        const unsigned char *p = ok ? (const unsigned char *)nn_tensor_data(t) : NULL;
        for (int64_t i = 0, n = ok ? nn_tensor_numel(t) : 0; i < n && ok; i++) ok = p[i] <= 1;
        if (!ok) {
            nn_error_set(&ctx->err, NN_ERR_NOT_IMPLEMENTED,
                         "view(dtype): nndb views %s as Bool only when it is contiguous and "
                         "every byte is 0 or 1 (its bools must be); use t != 0",
                         from);
            return NULL;
        }
    }
    int64_t es = (int64_t)nn_dtype_size(t->dtype), ns = (int64_t)nn_dtype_size(dt);
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS], offset = t->offset;
    int nd = t->ndim;
    for (int d = 0; d < nd; d++) shape[d] = t->shape[d], strides[d] = t->strides[d];
    if (es != ns) {
        /* PyTorch's view_dtype: the last dim is scaled by the ratio of the
         * sizes and must be contiguous; the other strides and the offset
         * must convert to whole elements of the new size. */
        if (nd == 0) {
            nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                         "self.dim() cannot be 0 to view %s as %s (different element sizes)", from,
                         to);
            return NULL;
        }
        if (es > ns) {
            int64_t r = es / ns;
            if (strides[nd - 1] != 1) {
                nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                             "self.stride(-1) must be 1 to view %s as %s (different element "
                             "sizes), but got %lld",
                             from, to, (long long)strides[nd - 1]);
                return NULL;
            }
            for (int d = 0; d < nd - 1; d++) strides[d] *= r;
            shape[nd - 1] *= r;
            offset *= r;
        } else {
            int64_t r = ns / es;
            /* PyTorch's checks in its order: what must hold, and the value */
            char what[64] = "";
            long long got = 0;
            if (shape[nd - 1] % r) {
                snprintf(what, sizeof what, "self.size(-1) must be divisible by %lld",
                         (long long)r);
                got = shape[nd - 1];
            } else if (offset % r) {
                snprintf(what, sizeof what, "self.storage_offset() must be divisible by %lld",
                         (long long)r);
                got = offset;
            } else if (strides[nd - 1] != 1) {
                snprintf(what, sizeof what, "self.stride(-1) must be 1");
                got = strides[nd - 1];
            }
            for (int d = 0; d < nd - 1 && !*what; d++)
                if (strides[d] % r) {
                    snprintf(what, sizeof what, "self.stride(%d) must be divisible by %lld", d,
                             (long long)r);
                    got = strides[d];
                }
            if (*what) {
                nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                             "%s to view %s as %s (different element sizes), but got %lld", what,
                             from, to, got);
                return NULL;
            }
            for (int d = 0; d < nd - 1; d++) strides[d] /= r;
            shape[nd - 1] /= r;
            offset /= r;
        }
    }
    nn_tensor *v = nn_tensor_view_raw(ctx, t, nd, shape, strides, offset);
    if (v) v->dtype = dt;
    return v;
}

/* ---- strided copies (contiguous(), clone of a view, copy_, casts) ---- */

typedef struct u128 {
    uint64_t lo, hi;
} u128;

/* n elements of es bytes from s (stride ss bytes) to d (stride ds): one
 * typed move each, so the compiler keeps the element in a register
 * (a memcpy call per element was most of the cost of a transpose). */
#define COPY_RUN(T)                                                                                \
    do {                                                                                           \
        if (ds == (int64_t)sizeof(T) && ss == (int64_t)sizeof(T)) {                                \
            memcpy(d, s, (size_t)n * sizeof(T));                                                   \
        } else if (ds == (int64_t)sizeof(T) && ss == 0) { /* a broadcast value: fill */            \
            T v_ = *(const T *)s;                                                                  \
            for (int64_t i = 0; i < n; i++) ((T *)d)[i] = v_;                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) *(T *)(d + i * ds) = *(const T *)(s + i * ss);         \
        }                                                                                          \
    } while (0)

static inline void copy_run(char *d, int64_t ds, const char *s, int64_t ss, int64_t n, size_t es) {
    switch (es) {
    case 1: COPY_RUN(uint8_t); break;
    case 2: COPY_RUN(uint16_t); break;
    case 4: COPY_RUN(uint32_t); break;
    case 8: COPY_RUN(uint64_t); break;
    default: COPY_RUN(u128); break;
    }
}
#undef COPY_RUN

/* A dtype conversion goes through the same values as nn_dtype_load and
 * nn_dtype_store (a double, or an int64 between integer dtypes), but a
 * block at a time with the dtype switch outside the loop: a switch per
 * element was most of the cost of x.double(). */
enum { CONVERT_BLOCK = 256 };

#define LOAD_RUN(T)                                                                                \
    do {                                                                                           \
        if (ss == (int64_t)sizeof(T)) /* a loop the compiler vectorises */                         \
            for (int64_t i = 0; i < n; i++) out[i] = ((const T *)s)[i];                            \
        else                                                                                       \
            for (int64_t i = 0; i < n; i++) out[i] = *(const T *)(s + i * ss);                     \
    } while (0)

static void load_run(nn_dtype dt, const char *s, int64_t ss, int64_t n, double *out) {
    switch (dt) {
    case NN_FLOAT32: LOAD_RUN(float); break;
    case NN_FLOAT64: LOAD_RUN(double); break;
    case NN_INT64: LOAD_RUN(int64_t); break;
    case NN_INT32: LOAD_RUN(int32_t); break;
    case NN_INT16: LOAD_RUN(int16_t); break;
    case NN_INT8: LOAD_RUN(int8_t); break;
    case NN_BOOL:
    case NN_UINT8: LOAD_RUN(uint8_t); break;
    default:
        for (int64_t i = 0; i < n; i++) out[i] = nn_dtype_load(dt, s + i * ss);
        break;
    }
}

static void load_run_int(nn_dtype dt, const char *s, int64_t ss, int64_t n, int64_t *out) {
    switch (dt) {
    case NN_INT64: LOAD_RUN(int64_t); break;
    case NN_INT32: LOAD_RUN(int32_t); break;
    case NN_INT16: LOAD_RUN(int16_t); break;
    case NN_INT8: LOAD_RUN(int8_t); break;
    case NN_BOOL:
    case NN_UINT8: LOAD_RUN(uint8_t); break;
    default:
        for (int64_t i = 0; i < n; i++) out[i] = nn_dtype_load_int(dt, s + i * ss);
        break;
    }
}
#undef LOAD_RUN

static void store_run(nn_dtype dt, char *d, int64_t ds, int64_t n, const double *in) {
    switch (dt) {
    case NN_FLOAT32:
        if (ds == 4)
            for (int64_t i = 0; i < n; i++) ((float *)d)[i] = (float)in[i];
        else
            for (int64_t i = 0; i < n; i++) *(float *)(d + i * ds) = (float)in[i];
        break;
    case NN_FLOAT64:
        if (ds == 8)
            memcpy(d, in, (size_t)n * sizeof *in);
        else
            for (int64_t i = 0; i < n; i++) *(double *)(d + i * ds) = in[i];
        break;
    case NN_BOOL:
        for (int64_t i = 0; i < n; i++) *(uint8_t *)(d + i * ds) = in[i] != 0;
        break;
    default:
        for (int64_t i = 0; i < n; i++) nn_dtype_store(dt, d + i * ds, in[i]);
        break;
    }
}

static void store_run_int(nn_dtype dt, char *d, int64_t ds, int64_t n, const int64_t *in) {
    switch (dt) {
    case NN_INT64:
        if (ds == 8)
            memcpy(d, in, (size_t)n * sizeof *in);
        else
            for (int64_t i = 0; i < n; i++) *(int64_t *)(d + i * ds) = in[i];
        break;
    case NN_INT32:
        for (int64_t i = 0; i < n; i++)
            *(int32_t *)(d + i * ds) = (int32_t)(uint32_t)(uint64_t)in[i];
        break;
    case NN_BOOL:
        for (int64_t i = 0; i < n; i++) *(uint8_t *)(d + i * ds) = in[i] != 0;
        break;
    default:
        for (int64_t i = 0; i < n; i++) store_int(dt, d + i * ds, in[i]);
        break;
    }
}

static void copy_loop(char **d, const int64_t *s, int64_t n, void *arg) {
    const nn_dtype *dts = arg; /* [dst dtype, src dtype] */
    if (dts[0] == dts[1]) {
        copy_run(d[0], s[0], d[1], s[1], n, nn_dtype_size(dts[0]));
        return;
    }
    if (dts[0] == NN_FLOAT64 && dts[1] == NN_FLOAT32) { /* exact: one pass */
        if (s[0] == 8 && s[1] == 4) {
            for (int64_t i = 0; i < n; i++) ((double *)d[0])[i] = ((const float *)d[1])[i];
            return;
        }
        for (int64_t i = 0; i < n; i++)
            *(double *)(d[0] + i * s[0]) = *(const float *)(d[1] + i * s[1]);
        return;
    }
    if (nn_dtype_is_complex(dts[0]) && nn_dtype_is_complex(dts[1])) { /* both parts */
        for (int64_t i = 0; i < n; i++) {
            double re = load(dts[1], d[1] + i * s[1], 0), im;
            if (dts[1] == NN_COMPLEX64)
                im = ((const float *)(d[1] + i * s[1]))[1];
            else
                im = ((const double *)(d[1] + i * s[1]))[1];
            if (dts[0] == NN_COMPLEX64)
                ((float *)(d[0] + i * s[0]))[0] = (float)re,
                                      ((float *)(d[0] + i * s[0]))[1] = (float)im;
            else
                ((double *)(d[0] + i * s[0]))[0] = re, ((double *)(d[0] + i * s[0]))[1] = im;
        }
        return;
    }
    bool ints = is_int_like(dts[0]) && is_int_like(dts[1]); /* exact, wrapping */
    for (int64_t b = 0; b < n; b += CONVERT_BLOCK) {
        int64_t len = n - b < CONVERT_BLOCK ? n - b : CONVERT_BLOCK;
        char *dp = d[0] + b * s[0];
        const char *sp = d[1] + b * s[1];
        if (ints) {
            int64_t buf[CONVERT_BLOCK];
            load_run_int(dts[1], sp, s[1], len, buf);
            store_run_int(dts[0], dp, s[0], len, buf);
        } else {
            double buf[CONVERT_BLOCK];
            load_run(dts[1], sp, s[1], len, buf);
            store_run(dts[0], dp, s[0], len, buf);
        }
    }
}

/* The copy's iteration space: size-1 dims dropped, dims both operands step
 * over as one run merged; byte strides ([0] dst, [1] src). */
typedef struct copy_geo {
    int nd;
    int64_t shape[NN_MAX_DIMS];
    int64_t st[2][NN_MAX_DIMS];
    char *data[2];
    nn_dtype dts[2];
    int j; /* the tiled copy's second dim (the first is the last) */
    int64_t tile, row_blocks, units;
} copy_geo;

static int64_t abs64(int64_t v) {
    return v < 0 ? -v : v;
}

/* Whether no two elements of dst's space share memory (a permutation of a
 * dense layout, sliced or not): then the order of the writes does not
 * matter. */
static bool geo_dst_disjoint(const copy_geo *g) {
    int order[NN_MAX_DIMS];
    for (int d = 0; d < g->nd; d++) order[d] = d;
    for (int a = 1; a < g->nd; a++) /* insertion sort by |stride| */
        for (int b = a; b > 0 && abs64(g->st[0][order[b]]) < abs64(g->st[0][order[b - 1]]); b--) {
            int t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    int64_t need = (int64_t)nn_dtype_size(g->dts[0]);
    for (int k = 0; k < g->nd; k++) {
        int64_t s = abs64(g->st[0][order[k]]);
        if (s < need) return false;
        need = s * g->shape[order[k]];
    }
    return true;
}

static void geo_init(copy_geo *g, nn_tensor *dst, const nn_tensor *src) {
    const nn_tensor *ops[2] = {dst, src};
    int lead = dst->ndim - src->ndim, nd = 0;
    for (int i = 0; i < dst->ndim; i++) {
        int64_t st[2];
        for (int k = 0; k < 2; k++) {
            const nn_tensor *t = ops[k];
            int j = i - (k ? lead : 0);
            st[k] =
                (j < 0 || t->shape[j] == 1 ? 0 : t->strides[j]) * (int64_t)nn_dtype_size(t->dtype);
        }
        if (dst->shape[i] == 1) continue;
        if (nd > 0 && g->st[0][nd - 1] == st[0] * dst->shape[i] &&
            g->st[1][nd - 1] == st[1] * dst->shape[i]) {
            g->shape[nd - 1] *= dst->shape[i];
            g->st[0][nd - 1] = st[0];
            g->st[1][nd - 1] = st[1];
            continue;
        }
        g->shape[nd] = dst->shape[i];
        g->st[0][nd] = st[0];
        g->st[1][nd] = st[1];
        nd++;
    }
    g->nd = nd;
    g->data[0] = nn_tensor_data(dst);
    g->data[1] = nn_tensor_data(src);
    g->dts[0] = dst->dtype;
    g->dts[1] = src->dtype;
}

/* A transpose (one operand's inner stride long and a shorter one on an
 * outer dim j) copied row by row reads or writes a new cache line per
 * element; in square tiles over (j, last) every line it loads is used whole
 * while it is in L1. Returns whether [g] should be tiled, and sets j. */
static bool geo_pick_tile(copy_geo *g, int64_t numel) {
    int last = g->nd - 1;
    if (g->nd < 2 || numel < 4096) return false;
    for (int k = 1; k >= 0; k--) { /* the source first: its reads miss */
        int64_t inner = abs64(g->st[k][last]);
        if (inner < 64) continue;
        int best = -1;
        for (int d = 0; d < last; d++) {
            int64_t s = abs64(g->st[k][d]);
            if (s > 0 && s < inner && (best < 0 || s < abs64(g->st[k][best]))) best = d;
        }
        if (best < 0) continue;
        if (!geo_dst_disjoint(g)) return false;
        g->j = best;
        size_t es = nn_dtype_size(g->dts[0]) > nn_dtype_size(g->dts[1]) ? nn_dtype_size(g->dts[1])
                                                                        : nn_dtype_size(g->dts[0]);
        g->tile = es >= 8 ? 8 : (int64_t)(64 / es);
        g->row_blocks = (g->shape[best] + g->tile - 1) / g->tile;
        g->units = numel / (g->shape[best] * g->shape[last]) * g->row_blocks;
        return true;
    }
    return false;
}

#if defined(__x86_64__) && defined(__GNUC__)
/* Four rows of a transpose of 4-byte elements, n columns: d (rows ds
 * apart, elements consecutive) from s (columns ss apart, rows
 * consecutive), a 4x4 block in SSE registers at a time (moves and
 * shuffles: every bit as it was). */
static void transpose_4rows_f32(char *d, int64_t ds, const char *s, int64_t ss, int64_t n) {
    int64_t c = 0;
    for (; c + 4 <= n; c += 4) {
        __m128 a0 = _mm_loadu_ps((const float *)(s + (c + 0) * ss));
        __m128 a1 = _mm_loadu_ps((const float *)(s + (c + 1) * ss));
        __m128 a2 = _mm_loadu_ps((const float *)(s + (c + 2) * ss));
        __m128 a3 = _mm_loadu_ps((const float *)(s + (c + 3) * ss));
        _MM_TRANSPOSE4_PS(a0, a1, a2, a3);
        _mm_storeu_ps((float *)(d + 0 * ds) + c, a0);
        _mm_storeu_ps((float *)(d + 1 * ds) + c, a1);
        _mm_storeu_ps((float *)(d + 2 * ds) + c, a2);
        _mm_storeu_ps((float *)(d + 3 * ds) + c, a3);
    }
    for (; c < n; c++)
        for (int i = 0; i < 4; i++)
            ((uint32_t *)(d + i * ds))[c] = ((const uint32_t *)(s + c * ss))[i];
}

/* The same for 8-byte elements, 2x2 blocks. */
static void transpose_2rows_64(char *d, int64_t ds, const char *s, int64_t ss, int64_t n) {
    int64_t c = 0;
    for (; c + 2 <= n; c += 2) {
        __m128d a0 = _mm_loadu_pd((const double *)(s + c * ss));
        __m128d a1 = _mm_loadu_pd((const double *)(s + (c + 1) * ss));
        _mm_storeu_pd((double *)d + c, _mm_unpacklo_pd(a0, a1));
        _mm_storeu_pd((double *)(d + ds) + c, _mm_unpackhi_pd(a0, a1));
    }
    for (; c < n; c++)
        for (int i = 0; i < 2; i++)
            ((uint64_t *)(d + i * ds))[c] = ((const uint64_t *)(s + c * ss))[i];
}
#endif

/* Tiles of unit u (an outer position and a block of rows of dim j), all of
 * the last dim, a tile at a time. */
static void copy_tiles(const copy_geo *g, int64_t u0, int64_t u1) {
    int last = g->nd - 1, j = g->j;
    int64_t T = g->tile, R = g->shape[j], C = g->shape[last];
    int64_t ds_r = g->st[0][j], ss_r = g->st[1][j], ds_c = g->st[0][last], ss_c = g->st[1][last];
    bool same = g->dts[0] == g->dts[1];
    size_t es = nn_dtype_size(g->dts[0]);
    for (int64_t u = u0; u < u1; u++) {
        int64_t rb = u % g->row_blocks, rest = u / g->row_blocks;
        char *d = g->data[0];
        const char *s = g->data[1];
        for (int k = last - 1; k >= 0; k--) { /* the outer dims, j left out */
            if (k == j) continue;
            int64_t c = rest % g->shape[k];
            rest /= g->shape[k];
            d += c * g->st[0][k];
            s += c * g->st[1][k];
        }
        int64_t r0 = rb * T, r1 = r0 + T < R ? r0 + T : R;
        for (int64_t c0 = 0; c0 < C; c0 += T) {
            int64_t n = C - c0 < T ? C - c0 : T;
            /* Ask for the next tile's lines of the operand that steps
             * over lines along c (the prefetcher cannot guess those). */
            if (c0 + T < C) {
                int64_t m = C - c0 - T < T ? C - c0 - T : T;
                if (abs64(ss_c) >= 64)
                    for (int64_t i = 0; i < m; i++)
                        __builtin_prefetch(s + r0 * ss_r + (c0 + T + i) * ss_c, 0);
                if (abs64(ds_c) >= 64)
                    for (int64_t i = 0; i < m; i++)
                        __builtin_prefetch(d + r0 * ds_r + (c0 + T + i) * ds_c, 1);
            }
            int64_t r = r0;
#if defined(__x86_64__) && defined(__GNUC__)
            if (same && es == 4 && ds_c == 4 && ss_r == 4) /* a float32 transpose */
                for (; r + 4 <= r1; r += 4)
                    transpose_4rows_f32(d + r * ds_r + c0 * 4, ds_r, s + r * 4 + c0 * ss_c, ss_c,
                                        n);
            if (same && es == 8 && ds_c == 8 && ss_r == 8) /* float64, int64 */
                for (; r + 2 <= r1; r += 2)
                    transpose_2rows_64(d + r * ds_r + c0 * 8, ds_r, s + r * 8 + c0 * ss_c, ss_c, n);
#endif
            for (; r < r1; r++) {
                char *dp = d + r * ds_r + c0 * ds_c;
                const char *sp = s + r * ss_r + c0 * ss_c;
                if (same) {
                    copy_run(dp, ds_c, sp, ss_c, n, es);
                } else {
                    char *p[2] = {dp, (char *)sp};
                    int64_t st[2] = {ds_c, ss_c};
                    copy_loop(p, st, n, (void *)g->dts);
                }
            }
        }
    }
}

static void copy_tiles_task(void *arg, int task, int n_tasks) {
    const copy_geo *g = arg;
    int64_t b, e;
    nn_parallel_range(g->units, task, n_tasks, 1, &b, &e);
    if (b < e) copy_tiles(g, b, e);
}

/* Copy [src] (broadcast) into [dst], converting dtype; no checks. Every
 * element is written once from its own source element, so neither the
 * tiles nor the split across threads change a bit. */
static void copy_into(nn_tensor *dst, const nn_tensor *src) {
    int64_t numel = nn_tensor_numel(dst);
    if (numel == 0) return;
    copy_geo g;
    geo_init(&g, dst, src);
    if (geo_pick_tile(&g, numel)) {
        int n_tasks = nn_parallel_tasks(numel, NN_PAR_MIN_ELEMWISE);
        if (n_tasks > g.units) n_tasks = (int)g.units;
        if (n_tasks <= 1)
            copy_tiles(&g, 0, g.units);
        else
            nn_parallel_run(n_tasks, copy_tiles_task, &g);
        return;
    }
    nn_iter it;
    nn_dtype dts[2] = {dst->dtype, src->dtype};
    nn_iter_init(&it, dst->ndim, dst->shape);
    nn_iter_add(&it, dst);
    nn_iter_add(&it, src);
    nn_iter_run_parallel(&it, copy_loop, dts, NN_PAR_MIN_ELEMWISE);
}

nn_tensor *nn_tensor_contiguous_raw(nn_ctx *ctx, nn_tensor *t) {
    if (nn_tensor_check_storage(ctx, t)) return NULL;
    if (nn_tensor_is_contiguous(t)) return nn_tensor_retain(t);
    nn_tensor *c = nn_tensor_empty(ctx, t->dtype, t->ndim, t->shape);
    if (c) copy_into(c, t);
    return c;
}

nn_tensor *nn_tensor_copy_strided_raw(nn_ctx *ctx, nn_tensor *t, nn_dtype dt,
                                      const int64_t *strides) {
    if (nn_tensor_check_storage(ctx, t)) return NULL;
    nn_tensor *c = nn_tensor_empty_strided(ctx, dt, t->ndim, t->shape, strides);
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
    if (on && !nn_dtype_is_float(t->dtype) && !nn_dtype_is_complex(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "Only Tensors of floating point and complex dtype can require "
                            "gradients");
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

static void dims_text(char *buf, size_t cap, const int64_t *v, int n) {
    size_t len = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)v[i]);
    if (len < cap) snprintf(buf + len, cap - len, "]");
}

nn_tensor *nn_tensor_husk(nn_ctx *ctx, const nn_tensor *t) {
    return nn_tensor_husk_err(&ctx->err, t);
}

nn_tensor *nn_tensor_husk_err(nn_error *err, const nn_tensor *t) {
    nn_storage *s = nn_mem_alloc(sizeof *s, "a storage header", err);
    nn_tensor *h = s ? nn_mem_alloc(sizeof *h, "a tensor header", err) : NULL;
    if (!h) {
        nn_mem_free(s);
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->refcount = 1;
    s->version = t->storage->version;
    s->husk = true;
    memset(h, 0, sizeof *h);
    h->refcount = 1;
    h->dtype = t->dtype;
    h->ndim = t->ndim;
    memcpy(h->shape, t->shape, sizeof h->shape);
    memcpy(h->strides, t->strides, sizeof h->strides);
    h->offset = t->offset;
    h->requires_grad = t->requires_grad;
    h->storage = s;
    return h;
}

nn_status nn_tensor_check_storage(nn_ctx *ctx, const nn_tensor *t) {
    if (!nn_tensor_released(t)) return NN_OK;
    if (t->storage->husk)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "this value was not kept after the forward: backward does not need it, "
                            "and nndb keeps every node's inputs only while the debugger is on. "
                            "Set a breakpoint or turn %%anomaly on before the forward to keep it");
    char sizes[NN_MAX_DIMS * 24 + 4], strides[NN_MAX_DIMS * 24 + 4];
    dims_text(sizes, sizeof sizes, t->shape, t->ndim);
    dims_text(strides, sizeof strides, t->strides, t->ndim);
    int64_t last = t->offset;
    for (int d = 0; d < t->ndim; d++) last += (t->shape[d] - 1) * t->strides[d];
    size_t item = nn_dtype_size(t->dtype);
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "setStorage: sizes %s, strides %s, storage offset %lld, and itemsize %zu "
                        "requiring a storage size of %lld are out of bounds for storage of size 0",
                        sizes, strides, (long long)t->offset, item,
                        (long long)((last + 1) * (int64_t)item));
}

nn_status nn_tensor_check_inplace(nn_ctx *ctx, const nn_tensor *t, const char *opname) {
    if (nn_tensor_check_storage(ctx, t)) return ctx->err.code;
    if (t->requires_grad && ctx->grad_enabled && ctx->depth == 0) {
        if (nn_inplace_check_leaf_view(ctx, t)) return ctx->err.code;
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
    if (nn_tensor_check_inplace(ctx, dst, "copy_") || nn_tensor_check_storage(ctx, src))
        return ctx->err.code;
    int n;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, dst->ndim, dst->shape, src->ndim, src->shape, &n, shape))
        return ctx->err.code;
    if (n != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * (size_t)n) != 0) {
        char a[128], b[128];
        return nn_error_set(
            &ctx->err, NN_ERR_SHAPE, "output with shape %s doesn't match the broadcast shape %s",
            nn_tensor_shape_str(dst, a, sizeof a), nn_shape_str(b, sizeof b, n, shape));
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
    /* zero_grad() zeroes every gradient each step (torch 1.13's default):
     * contiguous fills go straight to memory, not through the broadcast copy */
    if (nn_tensor_is_contiguous(t)) {
        int64_t n = nn_tensor_numel(t);
        void *d = nn_tensor_data(t);
        if (value == 0 && !signbit(value)) {
            memset(d, 0, (size_t)n * nn_dtype_size(t->dtype));
            bump(t);
            return NN_OK;
        }
        if (t->dtype == NN_FLOAT32) {
            float v = (float)value, *f = d;
            for (int64_t i = 0; i < n; i++) f[i] = v;
            bump(t);
            return NN_OK;
        }
        if (t->dtype == NN_FLOAT64) {
            double *f = d;
            for (int64_t i = 0; i < n; i++) f[i] = value;
            bump(t);
            return NN_OK;
        }
    }
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
