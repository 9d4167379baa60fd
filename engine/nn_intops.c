/* nn_intops: floor division, remainder and bitwise ops (see nn_intops.h).
 * Not on the hot path of training: a plain broadcast walk per element, but
 * for int64 operands laid out alike (or an int64 number), as `idx % n` has. */
#include "nn_intops.h"

#include <math.h>
#include <stdio.h>

static nn_status bcast_shape(nn_ctx *ctx, const nn_tensor *a, const nn_tensor *b, int *nd,
                             int64_t *sh) {
    *nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    for (int i = 0; i < *nd; i++) {
        int ia = i - (*nd - a->ndim), ib = i - (*nd - b->ndim);
        int64_t sa = ia >= 0 ? a->shape[ia] : 1, sb = ib >= 0 ? b->shape[ib] : 1;
        if (sa != sb && sa != 1 && sb != 1)
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "The size of tensor a (%lld) must match the size of tensor b "
                                "(%lld) at non-singleton dimension %d",
                                (long long)sa, (long long)sb, i);
        sh[i] = sa == 1 ? sb : sa;
    }
    return NN_OK;
}

static int64_t bcast_off(const nn_tensor *t, int nd, const int64_t *idx) {
    int64_t off = t->offset;
    for (int i = 0; i < t->ndim; i++) {
        int j = i + (nd - t->ndim);
        if (t->shape[i] != 1) off += idx[j] * t->strides[i];
    }
    return off;
}

static const void *at(const nn_tensor *t, int64_t off) {
    return (const char *)t->storage->data + off * (int64_t)nn_dtype_size(t->dtype);
}

static int64_t floordiv_i(int64_t x, int64_t y) {
    if (y == -1) return (int64_t)(0 - (uint64_t)x);
    int64_t q = x / y;
    if ((x % y != 0) && ((x < 0) != (y < 0))) q--;
    return q;
}

typedef enum kind { FLOORDIV, REMAINDER, AND, OR, XOR, LSHIFT, RSHIFT, GCD, LCM, TRUNCDIV } kind;

static int64_t gcd_i(int64_t a, int64_t b) {
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a, y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    while (x != 0) {
        uint64_t c = x;
        x = y % x;
        y = c;
    }
    return (int64_t)y;
}

/* Shifts as PyTorch 1.13's kernels do them on x86-64: C's shift, whose
 * count the processor takes modulo the operand width (32 for the types C
 * promotes to int, 64 for int64). */
static int64_t shift_i(int64_t x, int64_t y, bool left, int bits) {
    int s = (int)(y & (bits <= 32 ? 31 : 63));
    if (left)
        return bits <= 32 ? (int64_t)(int32_t)((uint32_t)x << s) : (int64_t)((uint64_t)x << s);
    return bits <= 32 ? (int64_t)((int32_t)x >> s) : x >> s;
}

static const char *kind_name(kind k) {
    static const char *const names[] = {"floor_divide", "remainder", "bitwise_and", "bitwise_or",
                                        "bitwise_xor",  "lshift",    "rshift",      "gcd",
                                        "lcm",          "div_trunc"};
    return names[k];
}

/* int64 [a] (op) [b] over contiguous operands, [b] of [a]'s size or one
 * element (`idx % n`, `x // 2`): the same arithmetic as the walk below,
 * without its per-element offsets and loads. False on a zero divisor (the
 * walk then reports it). */
static bool int64_dense(const int64_t *x, const int64_t *y, bool scalar, int64_t *o, int64_t n,
                        kind k) {
    for (int64_t e = 0; e < n; e++) {
        int64_t u = x[e], v = y[scalar ? 0 : e];
        switch (k) {
        case AND: o[e] = u & v; break;
        case OR: o[e] = u | v; break;
        case XOR: o[e] = u ^ v; break;
        default: {
            if (v == 0) return false;
            int64_t q =
                k == TRUNCDIV ? (v == -1 ? (int64_t)(0 - (uint64_t)u) : u / v) : floordiv_i(u, v);
            o[e] = k == REMAINDER ? (int64_t)((uint64_t)u - (uint64_t)q * (uint64_t)v) : q;
        }
        }
    }
    return true;
}

static nn_tensor *binary(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, kind k) {
    int nd;
    int64_t sh[NN_MAX_DIMS];
    if (bcast_shape(ctx, a, b, &nd, sh)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    bool bitwise = k == AND || k == OR || k == XOR;
    if ((bitwise || k == GCD || k == LCM || k == LSHIFT || k == RSHIFT) && nn_dtype_is_float(dt)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'", kind_name(k),
                     nn_dtype_scalar_name(dt));
        return NULL;
    }
    if ((k == LSHIFT || k == RSHIFT || k == GCD || k == LCM) && dt == NN_BOOL) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for 'Bool'",
                     kind_name(k));
        return NULL;
    }
    if (!bitwise && dt == NN_BOOL) dt = NN_INT64;
    int bits = (int)nn_dtype_size(dt) * 8;
    nn_tensor *r = nn_tensor_empty(ctx, dt, nd, sh);
    if (!r) return NULL;
    int64_t n = nn_tensor_numel(r), idx[NN_MAX_DIMS] = {0};
    size_t es = nn_dtype_size(dt);
    char *out = r->storage->data;
    bool dense_kind =
        k == FLOORDIV || k == REMAINDER || k == TRUNCDIV || k == AND || k == OR || k == XOR;
    if (dense_kind && dt == NN_INT64 && a->dtype == NN_INT64 && b->dtype == NN_INT64 &&
        nn_tensor_numel(a) == n && (nn_tensor_numel(b) == n || nn_tensor_numel(b) == 1) &&
        nn_tensor_is_contiguous(a) && nn_tensor_is_contiguous(b) &&
        int64_dense(nn_tensor_data(a), nn_tensor_data(b), nn_tensor_numel(b) == 1 && n != 1,
                    (int64_t *)(void *)out, n, k))
        return r;
    for (int64_t e = 0; e < n; e++) {
        const void *pa = at(a, bcast_off(a, nd, idx)), *pb = at(b, bcast_off(b, nd, idx));
        if (!nn_dtype_is_float(dt)) {
            int64_t x = nn_dtype_load_int(a->dtype, pa), y = nn_dtype_load_int(b->dtype, pb), v;
            if (nn_dtype_is_float(a->dtype)) x = (int64_t)nn_dtype_load(a->dtype, pa);
            if (nn_dtype_is_float(b->dtype)) y = (int64_t)nn_dtype_load(b->dtype, pb);
            switch (k) {
            case AND: v = x & y; break;
            case OR: v = x | y; break;
            case XOR: v = x ^ y; break;
            case LSHIFT:
            case RSHIFT: v = shift_i(x, y, k == LSHIFT, bits); break;
            case GCD: v = gcd_i(x, y); break;
            case LCM: {
                int64_t g = gcd_i(x, y);
                v = g == 0 ? 0 : (int64_t)((uint64_t)(x / g) * (uint64_t)y);
                v = v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
                break;
            }
            default:
                if (y == 0) {
                    nn_tensor_release(r);
                    nn_error_set(&ctx->err, NN_ERR_RUNTIME, "ZeroDivisionError");
                    return NULL;
                }
                v = k == TRUNCDIV ? (y == -1 ? (int64_t)(0 - (uint64_t)x) : x / y)
                                  : floordiv_i(x, y);
                if (k == REMAINDER) v = (int64_t)((uint64_t)x - (uint64_t)v * (uint64_t)y);
            }
            if (dt == NN_INT64)
                ((int64_t *)out)[e] = v;
            else if (dt == NN_BOOL)
                ((bool *)out)[e] = v != 0;
            else /* narrow ints wrap through int32, as PyTorch's casts do */
                nn_dtype_store(dt, out + e * (int64_t)es, (double)(int32_t)(uint32_t)(uint64_t)v);
        } else {
            double x = nn_dtype_load(a->dtype, pa), y = nn_dtype_load(b->dtype, pb), v;
            if (k == REMAINDER) {
                v = fmod(x, y);
                if (v != 0 && ((v < 0) != (y < 0))) v += y;
            } else {
                v = floor(x / y);
            }
            nn_dtype_store(dt, out + e * (int64_t)es, v);
        }
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < sh[d]) break;
            idx[d] = 0;
        }
    }
    return r;
}

nn_tensor *nn_floor_divide(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, FLOORDIV);
}

nn_tensor *nn_remainder(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, REMAINDER);
}

nn_tensor *nn_bitwise_and(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, AND);
}

nn_tensor *nn_bitwise_or(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, OR);
}

nn_tensor *nn_bitwise_xor(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, XOR);
}

nn_tensor *nn_bitwise_not(nn_ctx *ctx, nn_tensor *a) {
    if (nn_dtype_is_float(a->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"bitwise_not_cpu\" not implemented for '%s'",
                     nn_dtype_scalar_name(a->dtype));
        return NULL;
    }
    nn_tensor *r = nn_tensor_empty(ctx, a->dtype, a->ndim, a->shape);
    if (!r) return NULL;
    int64_t n = nn_tensor_numel(r);
    for (int64_t e = 0; e < n; e++) {
        int64_t v = nn_tensor_get_flat_int(a, e);
        if (a->dtype == NN_BOOL)
            ((bool *)r->storage->data)[e] = !v;
        else
            nn_tensor_set_flat(r, e, (double)~v);
    }
    if (a->dtype == NN_INT64) {
        int64_t *o = r->storage->data;
        for (int64_t e = 0; e < n; e++) o[e] = ~nn_tensor_get_flat_int(a, e);
    }
    return r;
}

nn_tensor *nn_bitwise_left_shift(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, LSHIFT);
}

nn_tensor *nn_bitwise_right_shift(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, RSHIFT);
}

nn_tensor *nn_gcd(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, GCD);
}

nn_tensor *nn_lcm(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, LCM);
}

nn_tensor *nn_trunc_divide(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return binary(ctx, a, b, TRUNCDIV);
}
