/* Elementwise ops: arithmetic with broadcasting and type promotion, unary
 * math and activations, comparisons and logic.
 *
 * Every kernel runs on the strided iterator (nn_iter) and has a unit-stride
 * fast path the compiler vectorises. Unary backwards share one fused loop
 * that reads dout, x and y = f(x) and writes dx in a single pass. */
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "nn_ops_impl.h"
#include "nn_sleef.h"
#include "nn_vmath.h"

/* ---- helpers ---- */

static nn_tensor *in0(nn_node *n) {
    return n->in[0].t;
}
static nn_tensor *in1(nn_node *n) {
    return n->in[1].t;
}

/* Broadcast shape of inputs [a] and [b]; on success writes out_ndim/out_shape. */
static bool bshape(nn_ctx *ctx, const nn_tensor *a, const nn_tensor *b, int *nd, int64_t *shape) {
    return nn_broadcast_shapes(ctx, a->ndim, a->shape, b->ndim, b->shape, nd, shape) == NN_OK;
}

/* Run [loop] with out, a, b (already of one dtype) over the broadcast shape. */
static void run3(nn_tensor *out, const nn_tensor *a, const nn_tensor *b, nn_iter_loop loop,
                 void *arg) {
    nn_iter it;
    nn_iter_init(&it, out->ndim, out->shape);
    nn_iter_add(&it, out);
    nn_iter_add(&it, a);
    nn_iter_add(&it, b);
    nn_iter_run_parallel(&it, loop, arg, NN_PAR_MIN_ELEMWISE);
}

static void run2(nn_tensor *out, const nn_tensor *a, nn_iter_loop loop, void *arg,
                 int64_t min_per_task) {
    nn_iter it;
    nn_iter_init(&it, out->ndim, out->shape);
    nn_iter_add(&it, out);
    nn_iter_add(&it, a);
    nn_iter_run_parallel(&it, loop, arg, min_per_task);
}

/* ---- the output's layout ----
 * A new output takes the layout PyTorch's TensorIterator gives it
 * (nn_elementwise_layout): the exp of a transposed, permuted or
 * channels_last tensor has that tensor's strides, and nn_iter walks every
 * operand of the output's layout as one run over flat memory, as PyTorch's
 * kernel does (the same speed as a contiguous input's, and the same vector
 * blocks and scalar tail, so the same bits). Anything else stays
 * row-major. */
static nn_tensor *new_out(nn_ctx *ctx, nn_dtype dt, int nd, const int64_t *shape, int n,
                          const nn_tensor *const *ops) {
    int64_t st[NN_MAX_DIMS];
    if (nn_elementwise_layout(nd, shape, n, ops, st))
        return nn_tensor_empty_strided(ctx, dt, nd, shape, st);
    return nn_tensor_empty(ctx, dt, nd, shape);
}

/* [t] in [dt], a dense layout kept (the cast of a transposed operand is
 * walked with it as one run); otherwise contiguous, as nn_tensor_cast_raw. */
static nn_tensor *cast_dense(nn_ctx *ctx, nn_tensor *t, nn_dtype dt) {
    if (t->dtype == dt || nn_tensor_is_contiguous(t) || !nn_tensor_is_dense(t))
        return nn_tensor_cast_raw(ctx, t, dt);
    return nn_tensor_copy_strided_raw(ctx, t, dt, t->strides);
}

/* [t] (of [out]'s shape) dense with [out]'s layout: element i of both
 * flat memories is the same element. */
static bool same_layout(const nn_tensor *t, const nn_tensor *out) {
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] != 1 && t->strides[i] != out->strides[i]) return false;
    return nn_tensor_is_dense(t);
}

/* [t] laid out as [out], for the kernels that walk flat memory. */
static nn_tensor *like_out(nn_ctx *ctx, nn_tensor *t, const nn_tensor *out) {
    if (nn_tensor_is_contiguous(out)) return nn_tensor_contiguous_raw(ctx, t);
    if (same_layout(t, out)) return nn_tensor_retain(t);
    return nn_tensor_copy_strided_raw(ctx, t, t->dtype, out->strides);
}

/* ---- binary kernels ---- */

#define BINARY_LOOP(NAME, T, EXPR)                                                                 \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {          \
        (void)arg;                                                                                 \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == z && s[1] == z && s[2] == z) {                                                 \
            T *o = (T *)d[0];                                                                      \
            const T *x = (const T *)d[1], *y = (const T *)d[2];                                    \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = x[i], b = y[i];                                                              \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else if (s[0] == z && s[1] == z && s[2] == 0) {                                          \
            T *o = (T *)d[0];                                                                      \
            const T *x = (const T *)d[1];                                                          \
            const T b = *(const T *)d[2];                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = x[i];                                                                        \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else if (s[0] == z && s[1] == 0 && s[2] == z) {                                          \
            T *o = (T *)d[0];                                                                      \
            const T a = *(const T *)d[1];                                                          \
            const T *y = (const T *)d[2];                                                          \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T b = y[i];                                                                        \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T a = *(const T *)(d[1] + i * s[1]), b = *(const T *)(d[2] + i * s[2]);            \
                *(T *)(d[0] + i * s[0]) = (EXPR);                                                  \
            }                                                                                      \
        }                                                                                          \
    }

#define BINARY_ALL(NAME, EXPR)                                                                     \
    BINARY_LOOP(NAME##_f32, float, EXPR)                                                           \
    BINARY_LOOP(NAME##_f64, double, EXPR)                                                          \
    BINARY_LOOP(NAME##_i64, int64_t, EXPR)

/* int64 arithmetic wraps on overflow, as PyTorch's does, instead of being
 * undefined behaviour in C: it is done in uint64_t. */
#define WRAP(op) (int64_t)((uint64_t)a op(uint64_t) b)
#define BINARY_FLOAT_AND_WRAPPED(NAME, OP)                                                         \
    BINARY_LOOP(NAME##_f32, float, a OP b)                                                         \
    BINARY_LOOP(NAME##_f64, double, a OP b)                                                        \
    BINARY_LOOP(NAME##_i64, int64_t, WRAP(OP))
BINARY_FLOAT_AND_WRAPPED(add, +)
BINARY_FLOAT_AND_WRAPPED(sub, -)
BINARY_FLOAT_AND_WRAPPED(mul, *)
BINARY_ALL(maximum, (a != a || a > b) ? a : b)
BINARY_ALL(minimum, (a != a || a < b) ? a : b)
BINARY_LOOP(div_f32, float, a / b)
BINARY_LOOP(div_f64, double, a / b)
/* pow as PyTorch 1.13's kernels compute it. A Python-number exponent e
 * (pow(Tensor, Scalar)): 2, 3, -2 are products, 0.5, -0.5, -1 are sqrt,
 * rsqrt and reciprocal, other values SLEEF's pow with e rounded to the
 * tensor's type on whole vector blocks and libm's pow in double on the
 * rest. Tensor exponents: SLEEF on whole blocks, libm on the rest, where
 * every operand is contiguous or a broadcast scalar (nn_sleef.h). */
typedef struct pow_arg {
    bool scalar; /* the exponent is a Python number, [e] */
    double e;
} pow_arg;

#define POW_SCALAR(T, SQRT)                                                                        \
    (e == 2      ? a * a                                                                           \
     : e == 3    ? a * a * a                                                                       \
     : e == -2   ? (T)1 / (a * a)                                                                  \
     : e == 0.5  ? SQRT(a)                                                                         \
     : e == -0.5 ? (T)1 / SQRT(a)                                                                  \
     : e == -1   ? (T)1 / a                                                                        \
     : e == 1    ? a                                                                               \
     : e == 0    ? (T)1                                                                            \
     : i < tail  ? vpow(a, (T)e)                                                                   \
                 : (T)pow((double)a, e))

/* The common Python-number exponents over a contiguous input, each its own
 * loop so that the compiler vectorises it; false for the others. */
#define POW_FAST(NAME, T, SQRT)                                                                    \
    NN_KERNEL_CLONES static bool NAME(T *o, const T *x, int64_t n, double e) {                     \
        if (e == 2)                                                                                \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] * x[i];                                    \
        else if (e == 1)                                                                           \
            for (int64_t i = 0; i < n; i++) o[i] = x[i];                                           \
        else if (e == 3)                                                                           \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] * x[i] * x[i];                             \
        else if (e == 0.5)                                                                         \
            for (int64_t i = 0; i < n; i++) o[i] = SQRT(x[i]);                                     \
        else                                                                                       \
            return false;                                                                          \
        return true;                                                                               \
    }
POW_FAST(pow_fast_f32, float, sqrtf)
POW_FAST(pow_fast_f64, double, sqrt)

#define POW_LOOP(NAME, T, SQRT, SLEEF2, LIBM, FAST)                                                \
    static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {                           \
        const pow_arg *pa = arg;                                                                   \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (pa && pa->scalar && s[0] == z && s[1] == z &&                                          \
            FAST((T *)d[0], (const T *)d[1], n, pa->e))                                            \
            return;                                                                                \
        bool contig = s[0] == z && (s[1] == z || s[1] == 0) && (s[2] == z || s[2] == 0);           \
        int64_t tail = contig ? nn_sleef_tail(n, z == 4) : 0;                                      \
        T (*vpow)(T, T) = SLEEF2(NN_SLEEF_POW);                                                    \
        double e = pa ? pa->e : 0;                                                                 \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T a = *(const T *)(d[1] + i * s[1]), b = *(const T *)(d[2] + i * s[2]);                \
            *(T *)(d[0] + i * s[0]) = pa && pa->scalar ? POW_SCALAR(T, SQRT)                       \
                                      : i < tail       ? vpow(a, b)                                \
                                                       : LIBM(a, b);                                     \
        }                                                                                          \
    }
POW_LOOP(pow_f32, float, sqrtf, nn_sleef_float2, powf, pow_fast_f32)
POW_LOOP(pow_f64, double, sqrt, nn_sleef_double2, pow, pow_fast_f64)
/* Integer powers by squaring; wraps on overflow like PyTorch's int64. The
 * forward rejects negative exponents before this runs. */
static inline int64_t ipow(int64_t a, int64_t b) {
    uint64_t r = 1, base = (uint64_t)a;
    while (b > 0) {
        if (b & 1) r *= base;
        base *= base;
        b >>= 1;
    }
    return (int64_t)r;
}
BINARY_LOOP(pow_i64, int64_t, ipow(a, b))

typedef struct binary_kernels {
    nn_iter_loop f32, f64, i64;
} binary_kernels;

static const binary_kernels k_add = {add_f32, add_f64, add_i64};
static const binary_kernels k_sub = {sub_f32, sub_f64, sub_i64};
static const binary_kernels k_mul = {mul_f32, mul_f64, mul_i64};
static const binary_kernels k_div = {div_f32, div_f64, NULL};
static const binary_kernels k_pow = {pow_f32, pow_f64, pow_i64};
static const binary_kernels k_max = {maximum_f32, maximum_f64, maximum_i64};
static const binary_kernels k_min = {minimum_f32, minimum_f64, minimum_i64};

/* Promote, broadcast, cast, run. [float_only]: ints compute in float32 (div). */
static nn_tensor *binary(nn_ctx *ctx, nn_node *node, const binary_kernels *k, bool float_only) {
    nn_tensor *a = in0(node), *b = in1(node);
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (!bshape(ctx, a, b, &nd, shape)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    /* bool with bool stays bool (add is or, mul is and, as in PyTorch):
     * computed in int64, then made bool. */
    bool to_bool = dt == NN_BOOL && !float_only && k->i64;
    if (dt == NN_BOOL) dt = NN_INT64;
    if (float_only || !k->i64) dt = nn_float_dtype(dt);
    const nn_tensor *ops[2] = {a, b};
    nn_tensor *ca = cast_dense(ctx, a, dt), *cb = ca ? cast_dense(ctx, b, dt) : NULL;
    /* pow(Scalar, Tensor) is row-major in PyTorch (its own meta function) */
    bool pow_scalar = k == &k_pow && a->is_wrapped_number && a->ndim == 0;
    nn_tensor *out = !cb          ? NULL
                     : pow_scalar ? nn_tensor_empty(ctx, dt, nd, shape)
                                  : new_out(ctx, dt, nd, shape, 2, ops);
    if (out)
        run3(out, ca, cb, dt == NN_FLOAT32 ? k->f32 : dt == NN_FLOAT64 ? k->f64 : k->i64, NULL);
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    if (out && to_bool) {
        nn_tensor *bl = cast_dense(ctx, out, NN_BOOL);
        nn_tensor_release(out);
        out = bl;
    }
    return out;
}

static bool both_bool(nn_node *node) {
    return in0(node)->dtype == NN_BOOL && in1(node)->dtype == NN_BOOL;
}

nn_tensor *op_add_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_binary(ctx, node);
    return binary(ctx, node, &k_add, false);
}
nn_tensor *op_sub_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_binary(ctx, node);
    if (both_bool(node)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "Subtraction, the `-` operator, with two bool tensors is not supported. Use "
                     "the `^` or `logical_xor()` operator instead.");
        return NULL;
    }
    return binary(ctx, node, &k_sub, false);
}
nn_tensor *op_mul_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_binary(ctx, node);
    return binary(ctx, node, &k_mul, false);
}
nn_tensor *op_div_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_binary(ctx, node);
    return binary(ctx, node, &k_div, true);
}
nn_tensor *op_pow_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *e = in1(node);
    if (!nn_dtype_is_float(nn_dtype_promote(in0(node), e)) && !nn_dtype_is_float(e->dtype)) {
        int64_t n = nn_tensor_numel(e);
        for (int64_t i = 0; i < n; i++)
            if (nn_tensor_get_flat(e, i) < 0) {
                nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                             "Integers to negative integer powers are not allowed.");
                return NULL;
            }
    }
    if (nn_dtype_is_float(nn_dtype_promote(in0(node), e)) && e->is_wrapped_number && e->ndim == 0) {
        /* pow(Tensor, Scalar) */
        nn_tensor *a = in0(node);
        nn_dtype dt = nn_float_dtype(nn_dtype_promote(a, e));
        pow_arg pa = {true, nn_tensor_get_flat(e, 0)};
        const nn_tensor *ops[1] = {a};
        nn_tensor *ca =
            nn_tensor_is_dense(a) ? cast_dense(ctx, a, dt) : nn_contiguous_as(ctx, a, dt);
        nn_tensor *cb = ca ? nn_tensor_cast_raw(ctx, e, dt) : NULL;
        nn_tensor *out = cb ? new_out(ctx, dt, a->ndim, a->shape, 1, ops) : NULL;
        if (out) run3(out, ca, cb, dt == NN_FLOAT32 ? pow_f32 : pow_f64, &pa);
        nn_tensor_release(ca);
        nn_tensor_release(cb);
        return out;
    }
    return binary(ctx, node, &k_pow, false);
}
nn_tensor *op_maximum_forward(nn_ctx *ctx, nn_node *node) {
    return binary(ctx, node, &k_max, false);
}
nn_tensor *op_minimum_forward(nn_ctx *ctx, nn_node *node) {
    return binary(ctx, node, &k_min, false);
}

nn_status op_add_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad) din[0] = nn_tensor_retain(dout);
    if (node->in[1].needs_grad) din[1] = nn_tensor_retain(dout);
    return NN_OK;
}

nn_status op_sub_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad) din[0] = nn_tensor_retain(dout);
    if (node->in[1].needs_grad && !(din[1] = nn_neg(ctx, dout))) return ctx->err.code;
    return NN_OK;
}

/* [t], conjugated when complex (a new reference either way). */
static nn_tensor *conj_if_complex(nn_ctx *ctx, nn_tensor *t) {
    return nn_dtype_is_complex(t->dtype) ? nn_conj(ctx, t) : nn_tensor_retain(t);
}

/* mul and div with a complex operand: PyTorch's conjugate gradients,
 * d(a*b)/da = dout * conj(b), d(a/b)/da = dout / conj(b),
 * d(a/b)/db = -dout * conj(out / b). */
static nn_status complex_muldiv_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout,
                                         nn_tensor **din, bool div) {
    nn_tensor *cb = conj_if_complex(ctx, in1(node));
    if (!cb) return ctx->err.code;
    if (node->in[0].needs_grad) din[0] = div ? nn_div(ctx, dout, cb) : nn_mul(ctx, dout, cb);
    nn_tensor_release(cb);
    if (node->in[0].needs_grad && !din[0]) return ctx->err.code;
    if (node->in[1].needs_grad) {
        nn_tensor *t = div ? nn_div(ctx, node->out, in1(node)) : nn_tensor_retain(in0(node));
        nn_tensor *ct = t ? conj_if_complex(ctx, t) : NULL;
        nn_tensor *u = ct ? nn_mul(ctx, dout, ct) : NULL;
        din[1] = u && div ? nn_neg(ctx, u) : nn_tensor_retain(u);
        nn_tensor_release(t);
        nn_tensor_release(ct);
        nn_tensor_release(u);
        if (!din[1]) return ctx->err.code;
    }
    return NN_OK;
}

/* The output gradient [dout] of a backward nothing else reads (the engine
 * says so, ctx->grad_out_writable; exclusively held, contiguous, no graph
 * built over it) may take an input gradient of its own shape and dtype in
 * place: the same kernel over the same operands, so the same bits, and one
 * buffer of the output's size fewer (attention's [B, H, T, T] gradient
 * goes through the softmax, masked_fill and scale backwards in one). */
static bool grad_writable(const nn_ctx *ctx, const nn_node *node, int i, const nn_tensor *dout) {
    /* Only for an input with a node: a leaf's .grad must be a buffer of
     * its own, which would cost a copy. */
    return node->in[i].needs_grad && node->in[i].fn && ctx->grad_out_writable &&
           dout->refcount == 1 && dout->storage->refcount == 1 && !dout->requires_grad &&
           nn_tensor_is_contiguous(dout) &&
           (dout->dtype == NN_FLOAT32 || dout->dtype == NN_FLOAT64);
}

/* Whether [a] broadcast against [like] gives [like]'s shape and dtype. */
static bool fits_into(const nn_tensor *like, const nn_tensor *a) {
    if (a->ndim > like->ndim || nn_dtype_promote(like, a) != like->dtype) return false;
    for (int i = 0; i < a->ndim; i++) {
        int64_t n = a->shape[a->ndim - 1 - i];
        if (n != 1 && n != like->shape[like->ndim - 1 - i]) return false;
    }
    return true;
}

nn_status op_mul_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_complex_involved(node)) return complex_muldiv_backward(ctx, node, dout, din, false);
    /* One gradient, dout times the other operand, may go over dout: it is
     * computed last, after the other has read dout. */
    int w = -1;
    for (int i = 0; i < 2 && w < 0; i++)
        if (grad_writable(ctx, node, i, dout) && fits_into(dout, node->in[1 - i].t)) w = i;
    for (int i = 0; i < 2; i++)
        if (node->in[i].needs_grad && i != w && !(din[i] = nn_mul(ctx, dout, node->in[1 - i].t)))
            return ctx->err.code;
    if (w >= 0) {
        nn_tensor *cb = nn_tensor_cast_raw(ctx, node->in[1 - w].t, dout->dtype);
        if (!cb) return ctx->err.code;
        run3(dout, dout, cb, dout->dtype == NN_FLOAT32 ? k_mul.f32 : k_mul.f64, NULL);
        nn_tensor_release(cb);
        din[w] = nn_tensor_retain(dout);
    }
    return NN_OK;
}

nn_status op_div_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_complex_involved(node)) return complex_muldiv_backward(ctx, node, dout, din, true);
    /* d(a/b)/da = 1/b; d(a/b)/db = -a/b^2 = -out/b */
    if (node->in[1].needs_grad) { /* -g * ((a / b) / b), as PyTorch rounds it */
        nn_tensor *t = nn_div(ctx, node->out, in1(node)), *u = t ? nn_mul(ctx, dout, t) : NULL;
        din[1] = u ? nn_neg(ctx, u) : NULL;
        nn_tensor_release(t);
        nn_tensor_release(u);
        if (!din[1]) return ctx->err.code;
    }
    if (!node->in[0].needs_grad) return NN_OK;
    /* dout / b over dout itself when nothing else reads it (b's gradient,
     * above, has read it): attention scaled as scores / sqrt(d) */
    if (grad_writable(ctx, node, 0, dout) && fits_into(dout, in1(node))) {
        nn_tensor *cb = nn_tensor_cast_raw(ctx, in1(node), dout->dtype);
        if (!cb) return ctx->err.code;
        run3(dout, dout, cb, dout->dtype == NN_FLOAT32 ? k_div.f32 : k_div.f64, NULL);
        nn_tensor_release(cb);
        din[0] = nn_tensor_retain(dout);
        return NN_OK;
    }
    if (!(din[0] = nn_div(ctx, dout, in1(node)))) return ctx->err.code;
    return NN_OK;
}

/* ---- fused backward loops: dx = f(g, a, b, y) over 5 operands ---- */

typedef struct grad_arg {
    double p[4];
} grad_arg;

#define GRAD5_LOOP(NAME, T, EXPR)                                                                  \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        const grad_arg *ga = argp;                                                                 \
        (void)ga;                                                                                  \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T g = *(const T *)(d[1] + i * s[1]), a = *(const T *)(d[2] + i * s[2]);                \
            T b = *(const T *)(d[3] + i * s[3]), y = *(const T *)(d[4] + i * s[4]);                \
            (void)y;                                                                               \
            *(T *)(d[0] + i * s[0]) = (EXPR);                                                      \
        }                                                                                          \
    }

/* maximum: ties split the gradient in half, as PyTorch does; where either
 * side is NaN no comparison holds and both get the whole gradient. */
GRAD5_LOOP(gmax_a_f32, float, a < b ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmax_a_f64, double, a < b ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmax_b_f32, float, b < a ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmax_b_f64, double, b < a ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmin_a_f32, float, a > b ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmin_a_f64, double, a > b ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmin_b_f32, float, b > a ? 0 : a == b ? g / 2 : g)
GRAD5_LOOP(gmin_b_f64, double, b > a ? 0 : a == b ? g / 2 : g)
/* pow: d/da = b a^(b-1); d/db = y log a (0 where a == 0 and b >= 0, as PyTorch) */

/* din = loop(dout, a, b, out) over the broadcast shape, in the float dtype of dout. */
static nn_tensor *grad5(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_iter_loop f32,
                        nn_iter_loop f64, const grad_arg *arg) {
    nn_dtype dt = dout->dtype;
    nn_tensor *a = nn_tensor_cast_raw(ctx, in0(node), dt);
    nn_tensor *b = a ? nn_tensor_cast_raw(ctx, in1(node), dt) : NULL;
    nn_tensor *y = node->out ? node->out : dout;
    /* laid out as PyTorch's where(a == b, grad / 2, grad): the comparison's
     * layout first, then the gradient's */
    const nn_tensor *ops[3] = {in0(node), in1(node), dout};
    nn_tensor *r = b ? new_out(ctx, dt, dout->ndim, dout->shape, 3, ops) : NULL;
    if (r) {
        nn_iter it;
        nn_iter_init(&it, r->ndim, r->shape);
        nn_iter_add(&it, r);
        nn_iter_add(&it, dout);
        nn_iter_add(&it, a);
        nn_iter_add(&it, b);
        nn_iter_add(&it, y);
        nn_iter_run_parallel(&it, dt == NN_FLOAT32 ? f32 : f64, (void *)arg, NN_PAR_MIN_ELEMWISE);
    }
    nn_tensor_release(a);
    nn_tensor_release(b);
    return r;
}

#define GRAD_PAIR(NAME)                                                                            \
    nn_status op_##NAME##_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) { \
        grad_arg ga = {{0}};                                                                       \
        if (!nn_dtype_is_float(dout->dtype)) return NN_OK;                                         \
        if (node->in[0].needs_grad &&                                                              \
            !(din[0] = grad5(ctx, node, dout, g##NAME##_a_f32, g##NAME##_a_f64, &ga)))             \
            return ctx->err.code;                                                                  \
        if (node->in[1].needs_grad &&                                                              \
            !(din[1] = grad5(ctx, node, dout, g##NAME##_b_f32, g##NAME##_b_f64, &ga)))             \
            return ctx->err.code;                                                                  \
        return NN_OK;                                                                              \
    }

#define gmaximum_a_f32 gmax_a_f32
#define gmaximum_a_f64 gmax_a_f64
#define gmaximum_b_f32 gmax_b_f32
#define gmaximum_b_f64 gmax_b_f64
#define gminimum_a_f32 gmin_a_f32
#define gminimum_a_f64 gmin_a_f64
#define gminimum_b_f32 gmin_b_f32
#define gminimum_b_f64 gmin_b_f64
GRAD_PAIR(maximum)
GRAD_PAIR(minimum)
/* pow's gradients as PyTorch's pow_backward_self / _exponent compose them
 * from tensor ops (so each step rounds as there):
 *   d/da = where(b == 0, 0, g * (b * a.pow(b - 1)))  (b a Python number e:
 *          g * (e * a.pow(e - 1)), zero for e == 0);
 *   d/db = g * where(a == 0 & b >= 0, 0, y * log(a)). */
static nn_tensor *pow_grad_base(nn_ctx *ctx, nn_node *node, nn_tensor *dout) {
    nn_tensor *a = in0(node), *b = in1(node);
    if (b->is_wrapped_number && b->ndim == 0) {
        double e = nn_tensor_get_flat(b, 0);
        if (e == 0) return nn_zeros_like(ctx, dout);
        /* a.pow(1) is a itself: skip that pass (the common x.pow(2)) */
        nn_tensor *s = nn_scalar_wrapped(ctx, e - 1);
        nn_tensor *p = !s ? NULL : e == 2 ? nn_tensor_retain(a) : nn_pow(ctx, a, s);
        nn_tensor *m = p ? nn_mul_scalar(ctx, p, e) : NULL;
        nn_tensor *r = m ? nn_mul(ctx, dout, m) : NULL;
        nn_tensor *all[] = {s, p, m};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
        return r;
    }
    nn_tensor *bm1 = nn_add_scalar(ctx, b, -1.0);
    nn_tensor *p = bm1 ? nn_pow(ctx, a, bm1) : NULL;
    nn_tensor *m = p ? nn_mul(ctx, b, p) : NULL;
    nn_tensor *r = m ? nn_mul(ctx, dout, m) : NULL;
    nn_tensor *zero = r ? nn_scalar_wrapped(ctx, 0.0) : NULL;
    nn_tensor *c = zero ? nn_eq(ctx, b, zero) : NULL;
    nn_tensor *w = c ? nn_where(ctx, c, zero, r) : NULL;
    nn_tensor *all[] = {bm1, p, m, r, zero, c};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    return w;
}

static nn_tensor *pow_grad_exponent(nn_ctx *ctx, nn_node *node, nn_tensor *dout) {
    nn_tensor *a = in0(node), *b = in1(node);
    nn_tensor *l = nn_log(ctx, a);
    nn_tensor *m = l ? nn_mul(ctx, node->out, l) : NULL;
    nn_tensor *zero = m ? nn_scalar_wrapped(ctx, 0.0) : NULL;
    nn_tensor *c1 = zero ? nn_eq(ctx, a, zero) : NULL;
    nn_tensor *c2 = c1 ? nn_ge(ctx, b, zero) : NULL;
    nn_tensor *c = c2 ? nn_logical_and(ctx, c1, c2) : NULL;
    nn_tensor *w = c ? nn_where(ctx, c, zero, m) : NULL;
    nn_tensor *r = w ? nn_mul(ctx, dout, w) : NULL;
    nn_tensor *all[] = {l, m, zero, c1, c2, c, w};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    return r;
}

nn_status op_pow_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (!nn_dtype_is_float(dout->dtype)) return NN_OK;
    if (node->in[0].needs_grad && !(din[0] = pow_grad_base(ctx, node, dout))) return ctx->err.code;
    if (node->in[1].needs_grad && !(din[1] = pow_grad_exponent(ctx, node, dout)))
        return ctx->err.code;
    return NN_OK;
}

/* ---- unary ops ----
 * Each has a forward expression in x (and params p[]) and a derivative
 * expression in g (dout), x and y (the output). */

typedef struct unary_arg {
    double p[4];
} unary_arg;

#define UNARY_LOOP(NAME, T, EXPR)                                                                  \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        const unary_arg *ua = argp;                                                                \
        const T p0 = (T)ua->p[0], p1 = (T)ua->p[1];                                                \
        (void)p0;                                                                                  \
        (void)p1;                                                                                  \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == z && s[1] == z) {                                                              \
            T *o = (T *)d[0];                                                                      \
            const T *in = (const T *)d[1];                                                         \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T x = in[i];                                                                       \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T x = *(const T *)(d[1] + i * s[1]);                                               \
                *(T *)(d[0] + i * s[0]) = (EXPR);                                                  \
            }                                                                                      \
        }                                                                                          \
    }

#define UGRAD_LOOP(NAME, T, EXPR)                                                                  \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        const unary_arg *ua = argp;                                                                \
        const T p0 = (T)ua->p[0], p1 = (T)ua->p[1];                                                \
        (void)p0;                                                                                  \
        (void)p1;                                                                                  \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == z && s[1] == z && s[2] == z && s[3] == z) {                                    \
            T *o = (T *)d[0];                                                                      \
            const T *gp = (const T *)d[1], *xp = (const T *)d[2], *yp = (const T *)d[3];           \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T g = gp[i], x = xp[i], y = yp[i];                                                 \
                (void)g;                                                                           \
                (void)x;                                                                           \
                (void)y;                                                                           \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else if (s[0] == z && s[1] == 0 && s[2] == z && s[3] == z) {                             \
            /* one gradient for all (x.sum().backward() hands an expanded                          \
             * one): vectorised as above, not a branch per element */                              \
            T *o = (T *)d[0];                                                                      \
            const T g = *(const T *)d[1], *xp = (const T *)d[2], *yp = (const T *)d[3];            \
            (void)g;                                                                               \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T x = xp[i], y = yp[i];                                                            \
                (void)x;                                                                           \
                (void)y;                                                                           \
                o[i] = (EXPR);                                                                     \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T g = *(const T *)(d[1] + i * s[1]), x = *(const T *)(d[2] + i * s[2]);            \
                T y = *(const T *)(d[3] + i * s[3]);                                               \
                (void)g;                                                                           \
                (void)x;                                                                           \
                (void)y;                                                                           \
                *(T *)(d[0] + i * s[0]) = (EXPR);                                                  \
            }                                                                                      \
        }                                                                                          \
    }

/* Float math in the operand's precision; float32 exp and tanh are the
 * vectorisable versions from nn_vmath.h. (float32 tanh-GELU has kernels of
 * its own below, with PyTorch's bits.) */
#define F32(fn)      F32_##fn
#define F32_exp      nn_expf
#define F32_exp_libm expf
#define F32_tanh     nn_tanhf
#define F32_log      logf
#define F32_log1p    log1pf
#define F32_sqrt     sqrtf
#define F32_fabs     fabsf
#define F32_erf      nn_erff
#define F32_fma      fmaf
#define F64(fn)      F64_##fn
#define F64_exp      exp
#define F64_exp_libm exp
#define F64_tanh     tanh
#define F64_log      log
#define F64_log1p    log1p
#define F64_sqrt     sqrt
#define F64_fabs     fabs
#define F64_erf      erf
#define F64_fma      fma

#define SQRT_2_OVER_PI 0.7978845608028654
#define INV_SQRT_2     0.7071067811865476
#define INV_SQRT_2PI   0.3989422804014327

/* gelu, tanh form: 0.5 x (1 + tanh(k (x + 0.044715 x^3))) */
#define GELU_T(M, T)                                                                               \
    ((T)0.5 * x * ((T)1 + M(tanh)((T)SQRT_2_OVER_PI * (x + (T)0.044715 * x * x * x))))
#define GELU_T_GRAD(M, T)                                                                          \
    ({                                                                                             \
        T u_ = (T)SQRT_2_OVER_PI * (x + (T)0.044715 * x * x * x);                                  \
        T t_ = M(tanh)(u_);                                                                        \
        g *((T)0.5 * ((T)1 + t_) +                                                                 \
            (T)0.5 * x * ((T)1 - t_ * t_) * (T)SQRT_2_OVER_PI * ((T)1 + (T)0.134145 * x * x));     \
    })
#define GELU_E(M, T) ((T)0.5 * x * ((T)1 + M(erf)(x * (T)INV_SQRT_2)))
#define GELU_E_GRAD(M, T)                                                                          \
    (g * ((T)0.5 * ((T)1 + M(erf)(x * (T)INV_SQRT_2)) +                                            \
          x * (T)INV_SQRT_2PI * M(exp)((T)-0.5 * x * x)))
#define SIGM(M, T, v) ((T)1 / ((T)1 + M(exp)(-(v))))
/* softplus: p0 = beta, p1 = threshold; PyTorch's scalar path (libm's exp
 * and log1p), for the strided runs its vectorised loop leaves to it (the
 * contiguous ones take unary_sleef and exp_grad_sleef) */
#define SOFTPLUS(M, T) (x * p0 > p1 ? x : M(log1p)(M(exp_libm)(x * p0)) / p0)
#define SOFTPLUS_GRAD(M, T)                                                                        \
    ({                                                                                             \
        T z_ = M(exp_libm)(x * p0);                                                                \
        x *p0 > p1 ? g : g *z_ / (z_ + (T)1);                                                      \
    })

/* clamp's forward as two compares that the compiler turns into max and
 * min instructions: a NaN x fails both and passes; a NaN bound (a side
 * left out) fails its compare and is ignored. */
#define CLAMP(lo_x) ((lo_x) > p1 ? p1 : (lo_x))
/* X(name, forward, derivative) for each float unary op. tanh's derivative
 * g (1 - y^2) is fused, g * fma(-y, y, 1), as PyTorch's AVX2 kernel is
 * compiled. NaN follows
 * PyTorch: relu passes it (and its gradient), clamp passes it but not its
 * gradient. */
#define UNARY_OPS(X)                                                                               \
    X(neg, -x, -g)                                                                                 \
    X(exp, M(exp)(x), g *y)                                                                        \
    X(log, M(log)(x), g / x)                                                                       \
    X(log1p, M(log1p)(x), g / ((T)1 + x))                                                          \
    X(sqrt, M(sqrt)(x), g / ((T)2 * y))                                                            \
    X(rsqrt, (T)1 / M(sqrt)(x), (T)-0.5 * g * (y * y * y))                                         \
    X(abs, M(fabs)(x), x > 0 ? g : x < 0 ? -g : (T)0)                                              \
    X(sign, (T)((x > 0) - (x < 0)), (T)0)                                                          \
    X(clamp, CLAMP(x < p0 ? p0 : x), ((p0 != p0 || x >= p0) && (p1 != p1 || x <= p1)) ? g : (T)0)  \
    X(relu, x <= 0 ? (T)0 : x, y <= 0 ? (T)0 : g)                                                  \
    X(leaky_relu, x > 0 ? x : x * p0, x > 0 ? g : g * p0)                                          \
    X(tanh, M(tanh)(x), g *M(fma)(-y, y, (T)1))                                                    \
    X(sigmoid, SIGM(M, T, x), g *((T)1 - y) * y)                                                   \
    X(gelu_tanh, GELU_T(M, T), GELU_T_GRAD(M, T))                                                  \
    X(gelu_erf, GELU_E(M, T), GELU_E_GRAD(M, T))                                                   \
    X(silu, x *SIGM(M, T, x), ({                                                                   \
          T s_ = SIGM(M, T, x);                                                                    \
          g *s_ *((T)1 + x * ((T)1 - s_));                                                         \
      }))                                                                                          \
    X(softplus, SOFTPLUS(M, T), SOFTPLUS_GRAD(M, T))

#define M F32
#define T float
#define X(name, fwd, bwd)                                                                          \
    UNARY_LOOP(u_##name##_f32, float, fwd) UGRAD_LOOP(ug_##name##_f32, float, bwd)
UNARY_OPS(X)
#undef X
#undef M
#undef T
#define M F64
#define T double
#define X(name, fwd, bwd)                                                                          \
    UNARY_LOOP(u_##name##_f64, double, fwd) UGRAD_LOOP(ug_##name##_f64, double, bwd)
UNARY_OPS(X)
#undef X
#undef M
#undef T

typedef struct unary_kernels {
    nn_iter_loop f32, f64, g32, g64;
} unary_kernels;

#define X(name, fwd, bwd)                                                                          \
    static const unary_kernels k_##name = {u_##name##_f32, u_##name##_f64, ug_##name##_f32,        \
                                           ug_##name##_f64};
UNARY_OPS(X)
#undef X

/* Exact GELU in float32 through PyTorch 1.13's ATen kernel (Activation.cpp,
 * GeluKernelImpl and GeluBackwardKernelImpl), which PyTorch uses where oneDNN
 * is not (below): on whole blocks of 16 elements with unit or zero stride its
 * vectorised erf and exp, which in 1.13 are SLEEF's erff8_u10 and expf8_u10;
 * the rest of the run and strided runs through libm's erff and expf, as its
 * scalar path. Forward x 0.5 (1 + erf(x / sqrt 2)); backward dy (cdf + x pdf)
 * with pdf = e^(-x^2 / 2) / sqrt(2 pi). (Checked bit for bit against
 * Debian's PyTorch in tests/py/nn_seq_misc.py.) */
#define GELU_ALPHA 0.70710678118654752440f
#define GELU_BETA  ((float)(1.12837916709551257390 * 0.70710678118654752440 * 0.5))
#define GELU_BLK   256

NN_KERNEL_CLONES static void gelu_aten_pre(const float *x, int64_t xs, float *a, float *b,
                                           int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs];
        a[i] = xv * GELU_ALPHA;
        if (b) b[i] = xv * xv * -0.5f;
    }
}

NN_KERNEL_CLONES static void gelu_fwd_fin(float *o, const float *x, int64_t xs, const float *e,
                                          int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs];
        o[i] = xv * 0.5f * (1.0f + e[i]);
    }
}

NN_KERNEL_CLONES static void gelu_bwd_fin(float *o, const float *g, int64_t gs, const float *x,
                                          int64_t xs, const float *e1, const float *e2, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs];
        float cdf = 0.5f * (1.0f + e1[i]);
        float pdf = GELU_BETA * e2[i];
        o[i] = g[i * gs] * fmaf(xv, pdf, cdf); /* GCC fuses PyTorch's vector form */
    }
}

static inline float gelu_scalar(float x) {
    return x * 0.5f * (1.0f + erff(x * GELU_ALPHA));
}
static inline float gelu_grad_scalar(float g, float x) {
    float cdf = 0.5f * (1.0f + erff(x * GELU_ALPHA));
    float pdf = GELU_BETA * expf(x * x * -0.5f);
    return g * (cdf + x * pdf); /* its scalar form is not fused */
}

/* Each operand's stride must be 0 or one float for the vectorised path,
 * as in PyTorch's cpu_kernel_vec; the output contiguous. */
static void gelu_erf_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (s[0] != z || (s[1] != z && s[1] != 0)) {
        for (int64_t i = 0; i < n; i++)
            *(float *)(d[0] + i * s[0]) = gelu_scalar(*(const float *)(d[1] + i * s[1]));
        return;
    }
    float *o = (float *)d[0];
    const float *x = (const float *)d[1];
    int64_t xs = s[1] / z, vec = nn_sleef_tail(n, true);
    float e[GELU_BLK];
    for (int64_t i0 = 0; i0 < vec; i0 += GELU_BLK) {
        int64_t m = vec - i0 < GELU_BLK ? vec - i0 : GELU_BLK;
        gelu_aten_pre(x + i0 * xs, xs, e, NULL, m);
        nn_sleef_map_f32(NN_SLEEF_ERF, e, e, m, m);
        gelu_fwd_fin(o + i0, x + i0 * xs, xs, e, m);
    }
    for (int64_t i = vec; i < n; i++) o[i] = gelu_scalar(x[i * xs]);
}

static void gelu_erf_grad_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (s[0] != z || (s[1] != z && s[1] != 0) || (s[2] != z && s[2] != 0)) {
        for (int64_t i = 0; i < n; i++)
            *(float *)(d[0] + i * s[0]) = gelu_grad_scalar(*(const float *)(d[1] + i * s[1]),
                                                           *(const float *)(d[2] + i * s[2]));
        return;
    }
    float *o = (float *)d[0];
    const float *g = (const float *)d[1], *x = (const float *)d[2];
    int64_t gs = s[1] / z, xs = s[2] / z, vec = nn_sleef_tail(n, true);
    float e1[GELU_BLK], e2[GELU_BLK];
    for (int64_t i0 = 0; i0 < vec; i0 += GELU_BLK) {
        int64_t m = vec - i0 < GELU_BLK ? vec - i0 : GELU_BLK;
        gelu_aten_pre(x + i0 * xs, xs, e1, e2, m);
        nn_sleef_map_f32(NN_SLEEF_ERF, e1, e1, m, m);
        nn_sleef_map_f32(NN_SLEEF_EXP, e2, e2, m, m);
        gelu_bwd_fin(o + i0, g + i0 * gs, gs, x + i0 * xs, xs, e1, e2, m);
    }
    for (int64_t i = vec; i < n; i++) o[i] = gelu_grad_scalar(g[i * gs], x[i * xs]);
}

/* tanh-GELU in float32 with PyTorch 1.13's bits: ATen's GeluKernelImpl and
 * GeluBackwardKernelImpl (tanh branch; oneDNN takes only the exact form), as
 * built for AVX2, where GCC fuses x + kappa x^3 and 1 - t^2 and
 * 1 + 3 kappa x^2 into FMAs (found by comparing every candidate's bits with
 * PyTorch's over 2^20 inputs). On whole blocks of 16 elements with unit or
 * zero stride tanh is SLEEF's tanhf8_u10 (nn_sleef_map_f32), on the rest of
 * the run and on strided runs libm's tanhf, as cpu_kernel_vec's scalar path.
 * Forward 0.5 x (1 + t) with t = tanh(beta fma(kappa, x^3, x)); backward
 * dy (0.5 (1 + t) + 0.5 x (1 - t^2) beta (1 + 3 kappa x^2)). (Checked bit
 * for bit against Debian's PyTorch in tests/py/nn_seq_misc.py.) */
#define GELU_T_BETA  ((float)(1.41421356237309504880 * 1.12837916709551257390 * 0.5))
#define GELU_T_KAPPA 0.044715f
#define GELU_T_K3    (3.0f * GELU_T_KAPPA)

NN_KERNEL_CLONES static void gelu_tanh_pre(const float *x, int64_t xs, float *u, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs];
        u[i] = GELU_T_BETA * fmaf(GELU_T_KAPPA, xv * xv * xv, xv);
    }
}
NN_KERNEL_CLONES static void gelu_tanh_fin(float *o, const float *x, int64_t xs, const float *t,
                                           int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs];
        o[i] = 0.5f * xv * (1.0f + t[i]);
    }
}
NN_KERNEL_CLONES static void gelu_tanh_bwd_fin(float *o, const float *g, int64_t gs, const float *x,
                                               int64_t xs, const float *t, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float xv = x[i * xs], tv = t[i];
        float dt = fmaf(-tv, tv, 1.0f);
        float du = GELU_T_BETA * fmaf(GELU_T_K3, xv * xv, 1.0f);
        o[i] = g[i * gs] * (0.5f * (1.0f + tv) + 0.5f * xv * dt * du);
    }
}
static inline float gelu_tanh_scalar(float x) {
    return 0.5f * x * (1.0f + tanhf(GELU_T_BETA * fmaf(GELU_T_KAPPA, x * x * x, x)));
}
static inline float gelu_tanh_grad_scalar(float g, float x) {
    float t = tanhf(GELU_T_BETA * fmaf(GELU_T_KAPPA, x * x * x, x));
    float dt = fmaf(-t, t, 1.0f);
    float du = GELU_T_BETA * fmaf(GELU_T_K3, x * x, 1.0f);
    return g * (0.5f * (1.0f + t) + 0.5f * x * dt * du);
}

static void gelu_tanh_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (s[0] != z || (s[1] != z && s[1] != 0)) {
        for (int64_t i = 0; i < n; i++)
            *(float *)(d[0] + i * s[0]) = gelu_tanh_scalar(*(const float *)(d[1] + i * s[1]));
        return;
    }
    float *o = (float *)d[0];
    const float *x = (const float *)d[1];
    int64_t xs = s[1] / z, vec = nn_sleef_tail(n, true);
    float u[GELU_BLK];
    for (int64_t i0 = 0; i0 < vec; i0 += GELU_BLK) {
        int64_t m = vec - i0 < GELU_BLK ? vec - i0 : GELU_BLK;
        gelu_tanh_pre(x + i0 * xs, xs, u, m);
        nn_sleef_map_f32(NN_SLEEF_TANH, u, u, m, m);
        gelu_tanh_fin(o + i0, x + i0 * xs, xs, u, m);
    }
    for (int64_t i = vec; i < n; i++) o[i] = gelu_tanh_scalar(x[i * xs]);
}

static void gelu_tanh_grad_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (s[0] != z || (s[1] != z && s[1] != 0) || (s[2] != z && s[2] != 0)) {
        for (int64_t i = 0; i < n; i++)
            *(float *)(d[0] + i * s[0]) = gelu_tanh_grad_scalar(*(const float *)(d[1] + i * s[1]),
                                                                *(const float *)(d[2] + i * s[2]));
        return;
    }
    float *o = (float *)d[0];
    const float *g = (const float *)d[1], *x = (const float *)d[2];
    int64_t gs = s[1] / z, xs = s[2] / z, vec = nn_sleef_tail(n, true);
    float u[GELU_BLK];
    for (int64_t i0 = 0; i0 < vec; i0 += GELU_BLK) {
        int64_t m = vec - i0 < GELU_BLK ? vec - i0 : GELU_BLK;
        gelu_tanh_pre(x + i0 * xs, xs, u, m);
        nn_sleef_map_f32(NN_SLEEF_TANH, u, u, m, m);
        gelu_tanh_bwd_fin(o + i0, g + i0 * gs, gs, x + i0 * xs, xs, u, m);
    }
    for (int64_t i = vec; i < n; i++) o[i] = gelu_tanh_grad_scalar(g[i * gs], x[i * xs]);
}

/* oneDNN 2.6's jit eltwise GELU (eltwise_gelu_erf, forward and backward,
 * AVX2): PyTorch 1.13 built with oneDNN hands every contiguous float32 GELU
 * with more than one element to it, so nndb computes the same steps for the
 * same bits. Its exp: n = floor(x log2(e) + 0.5), r = x - n ln2 by one FMA,
 * a degree-5 polynomial by FMAs, times 2^(n-1) and 2; inputs below
 * ln(FLT_MIN) give 0. */
static inline float dnnl_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline float dnnl_exp(float v) {
    const float lo = dnnl_bits(0xc2aeac50u), hi = dnnl_bits(0x42b17218u);
    bool tiny = v < lo;
    v = v < hi ? v : hi; /* minps / maxps: a NaN takes the bound */
    v = v > lo ? v : lo;
    float fx = floorf(v * dnnl_bits(0x3fb8aa3bu) + 0.5f);
    float r = fmaf(-fx, dnnl_bits(0x3f317218u), v);
    int32_t n = (int32_t)(fx - 1.0f);
    float pw = tiny ? 0.0f : dnnl_bits((uint32_t)(n + 127) << 23);
    float p = fmaf(dnnl_bits(0x3c07cfceu), r, dnnl_bits(0x3d2b9d0du));
    p = fmaf(p, r, dnnl_bits(0x3e2aad40u));
    p = fmaf(p, r, dnnl_bits(0x3efffee3u));
    p = fmaf(p, r, dnnl_bits(0x3f7ffffbu));
    p = fmaf(p, r, 1.0f);
    return p * pw * 2.0f;
}
/* sign(x) (1 - r t e) with e = exp(-x^2): the sign bit of [x] xor'ed on. */
static inline float dnnl_erf_tail(float x, float e) {
    float t = 1.0f / fmaf(dnnl_bits(0x3ea7ba05u), fabsf(x), 1.0f);
    float q = -e * t;
    float r = fmaf(dnnl_bits(0x3f87dc22u), t, dnnl_bits(0xbfba00e3u));
    r = fmaf(r, t, dnnl_bits(0x3fb5f0e3u));
    r = fmaf(r, t, dnnl_bits(0xbe91a98eu));
    r = fmaf(r, t, dnnl_bits(0x3e827906u));
    float v = fmaf(q, r, 1.0f);
    uint32_t xb, vb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&vb, &v, sizeof vb);
    vb ^= xb & 0x80000000u;
    memcpy(&v, &vb, sizeof v);
    return v;
}
NN_KERNEL_CLONES static void gelu_dnnl_fwd(float *o, const float *s, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float x = s[i] * dnnl_bits(0x3f3504f3u);
        float erf = dnnl_erf_tail(x, dnnl_exp(-(x * x)));
        float h = s[i] * 0.5f;
        o[i] = fmaf(erf, h, h);
    }
}
NN_KERNEL_CLONES static void gelu_dnnl_bwd(float *o, const float *g, int64_t gs, const float *s,
                                           int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float x = s[i] * dnnl_bits(0x3f3504f3u);
        float q = dnnl_exp(-(x * x));
        float tt = x * dnnl_bits(0x3f106ebau) * q;
        float erf = dnnl_erf_tail(x, q);
        o[i] = fmaf(erf, 0.5f, tt + 0.5f) * g[i * gs];
    }
}

/* The forward of gelu_dnnl_fwd and, into [dg], the factor gelu_dnnl_bwd
 * multiplies the upstream gradient by, with the same steps: a recorded GELU
 * keeps it for its backward, which is then one multiply (same bits). */
NN_KERNEL_CLONES static void gelu_dnnl_fwd_grad(float *o, float *dg, const float *s, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float x = s[i] * dnnl_bits(0x3f3504f3u);
        float q = dnnl_exp(-(x * x));
        float erf = dnnl_erf_tail(x, q);
        float h = s[i] * 0.5f;
        o[i] = fmaf(erf, h, h);
        float tt = x * dnnl_bits(0x3f106ebau) * q;
        dg[i] = fmaf(erf, 0.5f, tt + 0.5f);
    }
}
/* A GELU keeps its backward's factor up to this many elements (2 MiB of
 * float32, 4 bytes more per element until the backward): a small model's
 * step gets the backward's exp and erf for free, a large one's peak memory
 * stays as it was. */
enum { GELU_KEEP_MAX = 1 << 19 };

/* d = {out, in, dg}: contiguous (the caller's condition). */
static void gelu_fwd_grad_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    NN_ASSERT(s[0] == z && s[1] == z && s[2] == z);
    gelu_dnnl_fwd_grad((float *)d[0], (float *)d[2], (const float *)d[1], n);
}
/* dx = dy dg, dy contiguous or one value broadcast. */
NN_KERNEL_CLONES static void gelu_saved_grad_loop(float *o, const float *g, bool g_dense,
                                                  const float *dg, int64_t n) {
    if (g_dense)
        for (int64_t i = 0; i < n; i++) o[i] = dg[i] * g[i];
    else
        for (int64_t i = 0; i < n; i++) o[i] = dg[i] * g[0];
}
/* d = {dx, dy, x, dg}: dy times the kept factor where gelu_erf_grad_any_f32
 * would take the oneDNN form, else that function's ATen form. */
static void gelu_saved_grad_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (s[0] != z || s[2] != z || s[3] != z || (s[1] != z && s[1] != 0)) {
        gelu_erf_grad_f32(d, s, n, arg);
        return;
    }
    gelu_saved_grad_loop((float *)d[0], (const float *)d[1], s[1] != 0, (const float *)d[3], n);
}

/* The oneDNN forms for a contiguous input (arg non-NULL), else the ATen ones. */
static void gelu_erf_any_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (((const unary_arg *)arg)->p[2] != 0 && s[0] == z && s[1] == z)
        gelu_dnnl_fwd((float *)d[0], (const float *)d[1], n);
    else
        gelu_erf_f32(d, s, n, arg);
}
static void gelu_erf_grad_any_f32(char **d, const int64_t *s, int64_t n, void *arg) {
    const int64_t z = (int64_t)sizeof(float);
    if (((const unary_arg *)arg)->p[2] != 0 && s[0] == z && s[2] == z && (s[1] == z || s[1] == 0))
        gelu_dnnl_bwd((float *)d[0], (const float *)d[1], s[1] / z, (const float *)d[2], n);
    else
        gelu_erf_grad_f32(d, s, n, arg);
}

/* neg, abs and sign keep integer dtypes, as in PyTorch. */
static void neg_i64(char **d, const int64_t *s, int64_t n, void *a) {
    for (int64_t i = 0; i < n; i++)
        *(int64_t *)(d[0] + i * s[0]) =
            (int64_t)(0 - (uint64_t) * (const int64_t *)(d[1] + i * s[1]));
}
static void abs_i64(char **d, const int64_t *s, int64_t n, void *a) {
    for (int64_t i = 0; i < n; i++) {
        int64_t x = *(const int64_t *)(d[1] + i * s[1]);
        *(int64_t *)(d[0] + i * s[0]) = x < 0 ? (int64_t)(0 - (uint64_t)x) : x;
    }
}
static void sign_i64(char **d, const int64_t *s, int64_t n, void *a) {
    for (int64_t i = 0; i < n; i++) {
        int64_t x = *(const int64_t *)(d[1] + i * s[1]);
        *(int64_t *)(d[0] + i * s[0]) = (x > 0) - (x < 0);
    }
}

/* clamp of an integer tensor by integer bounds (p.flags 1): stays integer.
 * NaN bounds mean "none". */
static void clamp_i64(char **d, const int64_t *s, int64_t n, void *a) {
    const unary_arg *ua = a;
    double lo = ua->p[0], hi = ua->p[1];
    for (int64_t i = 0; i < n; i++) {
        int64_t x = *(const int64_t *)(d[1] + i * s[1]);
        if (lo == lo && (double)x < lo) x = (int64_t)lo;
        if (hi == hi && (double)x > hi) x = (int64_t)hi;
        *(int64_t *)(d[0] + i * s[0]) = x;
    }
}

/* One task's elements [b, e) of unary_sleef's map: the chunks start on
 * multiples of 16, so each element is computed as in the serial call (the
 * vector blocks and the libm tail from [tail] on fall where they did). */
typedef struct sleef_job {
    nn_sleef_fn fn;
    /* sigmoid: 1 / (1 + exp(-x)); silu as well: x / (1 + exp(-x));
     * softplus: log1p(exp(x beta)) / beta, x where x beta > threshold */
    bool sigmoid, silu, softplus, f32;
    double beta, threshold;
    void *out;
    const void *in;
    int64_t n, tail;
    /* sigmoid of a strided view: runs of [run] elements, each with its own
     * libm tail (nn_vector_runs); n otherwise */
    int64_t run;
} sleef_job;

static void sleef_span(const sleef_job *j, int64_t b, int64_t e, int64_t tail_at);

static void sleef_part(const sleef_job *j, int64_t b, int64_t e) {
    if (j->run == j->n) {
        sleef_span(j, b, e, j->tail);
        return;
    }
    if (j->run == 0) { /* the scalar op throughout */
        sleef_span(j, b, e, b);
        return;
    }
    /* [b, e) holds whole runs (sleef_task splits by runs); the last run of
     * a thread split (pt_chunk) may be shorter */
    for (int64_t r = b; r < e; r += j->run) {
        int64_t re = r + j->run < j->n ? r + j->run : j->n;
        sleef_span(j, r, re, r + nn_sleef_tail(re - r, j->f32));
    }
}

static void sleef_span(const sleef_job *j, int64_t b, int64_t e, int64_t tail_at) {
    int64_t n = e - b, tail = tail_at - b;
    tail = tail < 0 ? 0 : tail > n ? n : tail;
    if (j->sigmoid && j->f32) {
        float *o = (float *)j->out + b;
        const float *x = (const float *)j->in + b;
        for (int64_t i = 0; i < n; i++) o[i] = -x[i];
        nn_sleef_map_f32(NN_SLEEF_EXP, o, o, n, tail);
        if (j->silu)
            for (int64_t i = 0; i < n; i++) o[i] = x[i] / (1.0f + o[i]);
        else
            for (int64_t i = 0; i < n; i++) o[i] = 1.0f / (1.0f + o[i]);
    } else if (j->sigmoid) {
        double *o = (double *)j->out + b;
        const double *x = (const double *)j->in + b;
        for (int64_t i = 0; i < n; i++) o[i] = -x[i];
        nn_sleef_map_f64(NN_SLEEF_EXP, o, o, n, tail);
        if (j->silu)
            for (int64_t i = 0; i < n; i++) o[i] = x[i] / (1.0 + o[i]);
        else
            for (int64_t i = 0; i < n; i++) o[i] = 1.0 / (1.0 + o[i]);
    } else if (j->softplus && j->f32) {
        float *o = (float *)j->out + b, beta = (float)j->beta, thr = (float)j->threshold;
        const float *x = (const float *)j->in + b;
        for (int64_t i = 0; i < n; i++) o[i] = x[i] * beta;
        nn_sleef_map_f32(NN_SLEEF_EXP, o, o, n, tail);
        nn_sleef_map_f32(NN_SLEEF_LOG1P, o, o, n, tail);
        for (int64_t i = 0; i < n; i++) o[i] = x[i] * beta > thr ? x[i] : o[i] / beta;
    } else if (j->softplus) {
        double *o = (double *)j->out + b, beta = j->beta, thr = j->threshold;
        const double *x = (const double *)j->in + b;
        for (int64_t i = 0; i < n; i++) o[i] = x[i] * beta;
        nn_sleef_map_f64(NN_SLEEF_EXP, o, o, n, tail);
        nn_sleef_map_f64(NN_SLEEF_LOG1P, o, o, n, tail);
        for (int64_t i = 0; i < n; i++) o[i] = x[i] * beta > thr ? x[i] : o[i] / beta;
    } else if (j->f32) {
        nn_sleef_map_f32(j->fn, (float *)j->out + b, (const float *)j->in + b, n, tail);
    } else {
        nn_sleef_map_f64(j->fn, (double *)j->out + b, (const double *)j->in + b, n, tail);
    }
}

static void sleef_task(void *arg, int task, int n_tasks) {
    const sleef_job *j = arg;
    int64_t b, e;
    if (j->run == j->n) {
        nn_parallel_range(j->n, task, n_tasks, 16, &b, &e);
    } else {
        int64_t run = j->run > 0 ? j->run : 1;
        nn_parallel_range((j->n + run - 1) / run, task, n_tasks, 1, &b, &e);
        b *= run, e *= run;
        e = e < j->n ? e : j->n;
    }
    if (b < e) sleef_part(j, b, e);
}

/* PyTorch's split of a contiguous elementwise loop of [n] elements across
 * its threads (TensorIterator's for_each: at::parallel_for with a grain of
 * 32768): each part runs its own vectorised loop, so each has its own
 * scalar tail. */
static int64_t pt_chunk(int64_t n) {
    return nn_aten_part(n, 32768);
}

/* The runs PyTorch's vectorised loop (cpu_kernel_vec, sigmoid's kernel)
 * walks over a strided [a] in row-major order: the trailing dims laid out
 * densely (a chunk or slice along the last dim: runs of its width). Each
 * run takes whole pairs of 8-float vectors and the rest of the run by the
 * scalar op, whose exp is libm's: an LSTM's gates, chunks of one [B, 4H]
 * tensor, are computed in runs of H. 0 when the last dim is not unit
 * stride (the scalar op throughout); the element count for a contiguous
 * [a], or a layout not in row-major order (then the runs are taken as the
 * contiguous copy's, not PyTorch's). */
int64_t nn_vector_runs(const nn_tensor *a) {
    int64_t n = nn_tensor_numel(a), run = 1, inner = 0;
    int d = a->ndim - 1;
    while (d >= 0 && a->shape[d] == 1) d--;
    if (d < 0 || nn_tensor_is_contiguous(a)) return n;
    /* row-major: strides grow outwards; else a permuted layout */
    for (int e = d; e >= 0; e--) {
        if (a->shape[e] == 1) continue;
        if (a->strides[e] < inner) return n;
        inner = a->strides[e];
    }
    if (a->strides[d] != 1) return 0;
    for (; d >= 0 && (a->shape[d] == 1 || a->strides[d] == run); d--) run *= a->shape[d];
    return run;
}

/* exp, log, log1p and tanh through SLEEF, as PyTorch's kernels compute them
 * (nn_sleef.h says why); sigmoid is 1 / (1 + exp(-x)) with SLEEF's exp on
 * whole vector blocks and libm's on the rest, as PyTorch's vectorised loop
 * does, and softplus (PyTorch 1.13's softplus_kernel) log1p(exp(x beta)) /
 * beta the same way, x itself where x beta > threshold. [out] is
 * contiguous, [c] the contiguous input in out's dtype, [ua] softplus's
 * beta and threshold. Large tensors split across the engine's threads in
 * chunks of 16 elements. */
static bool unary_sleef(const unary_kernels *k, nn_tensor *out, const nn_tensor *c, int64_t run,
                        const unary_arg *ua) {
    nn_sleef_fn fn = k == &k_exp     ? NN_SLEEF_EXP
                     : k == &k_log   ? NN_SLEEF_LOG
                     : k == &k_log1p ? NN_SLEEF_LOG1P
                     : k == &k_tanh  ? NN_SLEEF_TANH
                                     : NN_SLEEF_COUNT;
    bool silu = k == &k_silu, sigmoid = k == &k_sigmoid || silu, softplus = k == &k_softplus;
    if (fn == NN_SLEEF_COUNT && !sigmoid && !softplus) return false;
    /* the vectorised loops with a libm tail per run */
    bool runs = sigmoid || softplus;
    int64_t n = nn_tensor_numel(out);
    bool f32 = out->dtype == NN_FLOAT32;
    sleef_job j = {fn,
                   sigmoid,
                   silu,
                   softplus,
                   f32,
                   ua->p[0],
                   ua->p[1],
                   nn_tensor_data(out),
                   nn_tensor_data(c),
                   n,
                   runs ? nn_sleef_tail(n, f32) : n,
                   runs && run >= 0 && run < n ? run
                   : runs                      ? pt_chunk(n)
                                               : n};
    /* SLEEF's exp is cheap enough to gain only from the memory-bound
     * threshold (bench/python/threads.py: 0.72 at 196608 elements, 1.17
     * at 49152). */
    int tasks = nn_parallel_tasks(n, NN_PAR_MIN_ELEMWISE);
    if (tasks <= 1 || n == 0)
        sleef_part(&j, 0, n);
    else
        nn_parallel_run(tasks, sleef_task, &j);
    return true;
}

/* The size threshold of a unary kernel's split (nn_ops_impl.h): the dear
 * ones compute exp, erf or tanh per element (their gradients: GELU, SiLU,
 * softplus); the rest are memory-bound. */
static int64_t unary_par_min(const unary_kernels *k, bool grad) {
    bool dear =
        k == &k_gelu_tanh || k == &k_gelu_erf || k == &k_silu || k == &k_softplus ||
        (!grad && (k == &k_exp || k == &k_log || k == &k_log1p || k == &k_tanh || k == &k_sigmoid));
    return dear ? NN_PAR_MIN_DEAR : NN_PAR_MIN_ELEMWISE;
}

static nn_tensor *unary(nn_ctx *ctx, nn_node *node, const unary_kernels *k, nn_iter_loop i64) {
    nn_tensor *a = in0(node);
    unary_arg ua = {{node->p.f[0], node->p.f[1], 0, 0}};
    if (a->dtype == NN_BOOL && (k == &k_neg || k == &k_abs)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     k == &k_neg ? "Negation, the `-` operator, on a bool tensor is not supported. "
                                   "If you are trying to invert a mask, use the `~` or "
                                   "`logical_not()` operator instead."
                                 : "\"abs_cpu\" not implemented for 'Bool'");
        return NULL;
    }
    if (a->dtype == NN_BOOL && k == &k_sign) return nn_tensor_cast_raw(ctx, a, NN_BOOL);
    if (k == &k_clamp && node->p.flags == 1 && !nn_dtype_is_float(a->dtype)) i64 = clamp_i64;
    const nn_tensor *ops[1] = {a};
    if (i64 && !nn_dtype_is_float(a->dtype)) {
        nn_tensor *ca = cast_dense(ctx, a, NN_INT64);
        nn_tensor *out = ca ? new_out(ctx, NN_INT64, a->ndim, a->shape, 1, ops) : NULL;
        if (out) run2(out, ca, i64, &ua, NN_PAR_MIN_ELEMWISE);
        nn_tensor_release(ca);
        return out;
    }
    nn_dtype dt = nn_float_dtype(a->dtype);
    nn_tensor *ca = cast_dense(ctx, a, dt);
    nn_tensor *out = ca ? new_out(ctx, dt, a->ndim, a->shape, 1, ops) : NULL;
    if (out && (k == &k_exp || k == &k_log || k == &k_log1p || k == &k_tanh || k == &k_sigmoid ||
                k == &k_silu || k == &k_softplus)) {
        /* over the flat memory of out and of the input in out's layout */
        nn_tensor *c = like_out(ctx, ca, out);
        bool runs = k == &k_sigmoid || k == &k_silu || k == &k_softplus;
        if (c) unary_sleef(k, out, c, runs ? nn_vector_runs(ca) : -1, &ua);
        nn_tensor_release(c);
        nn_tensor_release(ca);
        if (!c) {
            nn_tensor_release(out);
            return NULL;
        }
        return out;
    }
    nn_iter_loop f32 = k == &k_gelu_erf    ? gelu_erf_any_f32
                       : k == &k_gelu_tanh ? gelu_tanh_f32
                                           : k->f32;
    if (k == &k_gelu_erf) ua.p[2] = nn_tensor_is_contiguous(a) && nn_tensor_numel(a) != 1;
    if (out && k == &k_gelu_erf && dt == NN_FLOAT32 && ua.p[2] != 0 && node->recorded &&
        node->in[0].needs_grad && !node->saved[0] && nn_tensor_numel(a) <= GELU_KEEP_MAX) {
        /* Keep the backward's factor (saved[0]): computed here from the
         * same exp and erf, its backward is one multiply. */
        nn_tensor *dg = new_out(ctx, dt, a->ndim, a->shape, 1, ops);
        if (dg) {
            nn_iter it;
            nn_iter_init(&it, out->ndim, out->shape);
            nn_iter_add(&it, out);
            nn_iter_add(&it, ca);
            nn_iter_add(&it, dg);
            nn_iter_run_parallel(&it, gelu_fwd_grad_f32, NULL, unary_par_min(k, false));
            node->saved[0] = dg;
        } else {
            nn_tensor_release(out);
            out = NULL;
        }
    } else if (out) {
        run2(out, ca, dt == NN_FLOAT32 ? f32 : k->f64, &ua, unary_par_min(k, false));
    }
    nn_tensor_release(ca);
    return out;
}

/* The ops whose derivative reads only the output y (and g): their
 * backward passes y where x goes, so a node may let its input go
 * (nn_graph.c's drop_unread), and may write over g. */
static bool grad_from_output(const unary_kernels *k) {
    return k == &k_relu || k == &k_exp || k == &k_sqrt || k == &k_rsqrt || k == &k_tanh ||
           k == &k_sigmoid;
}

/* ---- relu's sign bits (nn_node_output_orphaned, nn_graph.c) ----
 * Bit i of the mask is set where output i is not <= 0 (NaN included), so
 * the backward's "y <= 0 ? 0 : g" reads the bit: the same bits as from y. */

void nn_relu_sign_bits(const nn_tensor *y, uint8_t *bits) {
    int64_t n = nn_tensor_numel(y), i = 0;
    if (y->dtype == NN_FLOAT32) {
        const float *p = nn_tensor_data(y);
#if defined(__SSE2__)
        __m128 zero = _mm_setzero_ps();
        for (; i + 8 <= n; i += 8) {
            int lo = _mm_movemask_ps(_mm_cmpnle_ps(_mm_loadu_ps(p + i), zero));
            int hi = _mm_movemask_ps(_mm_cmpnle_ps(_mm_loadu_ps(p + i + 4), zero));
            bits[i >> 3] = (uint8_t)(lo | hi << 4);
        }
#endif
        for (; i < n; i += 8) {
            unsigned v = 0;
            for (int64_t j = i; j < n && j < i + 8; j++) v |= (unsigned)!(p[j] <= 0) << (j - i);
            bits[i >> 3] = (uint8_t)v;
        }
    } else {
        const double *p = nn_tensor_data(y);
        for (; i < n; i += 8) {
            unsigned v = 0;
            for (int64_t j = i; j < n && j < i + 8; j++) v |= (unsigned)!(p[j] <= 0) << (j - i);
            bits[i >> 3] = (uint8_t)v;
        }
    }
}

typedef struct {
    void *r;
    const void *g;
    const uint8_t *bits;
    int64_t n;
    bool f64;
} sign_grad_arg;

static void sign_grad_task(void *arg, int task, int n_tasks) {
    const sign_grad_arg *a = arg;
    int64_t b, e;
    nn_parallel_range(a->n, task, n_tasks, 64, &b, &e);
    if (a->f64) {
        double *r = a->r;
        const double *g = a->g;
        for (int64_t i = b; i < e; i++) r[i] = (a->bits[i >> 3] >> (i & 7)) & 1 ? g[i] : 0.0;
        return;
    }
    float *r = a->r;
    const float *g = a->g;
    int64_t i = b;
#if defined(__SSE2__)
    const __m128i lo = _mm_setr_epi32(1, 2, 4, 8), hi = _mm_setr_epi32(16, 32, 64, 128);
    for (; i + 8 <= e; i += 8) {
        __m128i m = _mm_set1_epi32(a->bits[i >> 3]);
        __m128 m0 = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(m, lo), lo));
        __m128 m1 = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_and_si128(m, hi), hi));
        _mm_storeu_ps(r + i, _mm_and_ps(m0, _mm_loadu_ps(g + i)));
        _mm_storeu_ps(r + i + 4, _mm_and_ps(m1, _mm_loadu_ps(g + i + 4)));
    }
#endif
    for (; i < e; i++) r[i] = (a->bits[i >> 3] >> (i & 7)) & 1 ? g[i] : 0.0f;
}

/* relu's backward from its sign bits (saved[0]) */
static nn_status relu_bits_grad(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_dtype dt =
        dout->dtype == NN_FLOAT32 || dout->dtype == NN_FLOAT64 ? dout->dtype : node->out->dtype;
    nn_tensor *g = dout->dtype == dt && nn_tensor_is_contiguous(dout)
                       ? nn_tensor_retain(dout)
                       : nn_tensor_contiguous_raw(ctx, dout);
    nn_tensor *c = g && g->dtype != dt ? nn_tensor_cast_raw(ctx, g, dt) : nn_tensor_retain(g);
    nn_tensor_release(g);
    if (!c) return ctx->err.code;
    bool over =
        c == dout && ctx->grad_out_writable && dout->refcount == 2 && dout->storage->refcount == 1;
    nn_tensor *r = over ? nn_tensor_retain(c) : nn_tensor_empty(ctx, dt, c->ndim, c->shape);
    if (r) {
        sign_grad_arg a = {nn_tensor_data(r), nn_tensor_data(c), nn_tensor_data(node->saved[0]),
                           nn_tensor_numel(r), dt == NN_FLOAT64};
        nn_parallel_run(nn_parallel_tasks(a.n, NN_PAR_MIN_ELEMWISE), sign_grad_task, &a);
    }
    nn_tensor_release(c);
    din[0] = r;
    return r ? NN_OK : ctx->err.code;
}

/* SiLU's and softplus's backwards as PyTorch's vectorised kernels compute
 * them, with SLEEF's exp on whole vector blocks and libm's on the rest (as
 * the forwards). SiLU: s = 1 / (1 + exp(-x)), then g * s * (1 + x (1 - s))
 * with that multiply-add fused, as its build contracts it. Softplus
 * (softplus_backward_kernel): z = exp(x beta), g z / (z + 1), or g where
 * x beta > threshold. For contiguous x and g (or both of one dense
 * layout); softplus's g may also be one value for all (stride 0: the
 * expanded gradient of y.sum().backward(), which PyTorch's loop
 * vectorises too). Split across threads on multiples of 16. */
typedef struct exp_grad_job {
    bool f32, softplus;
    double beta, threshold;
    void *r;
    const void *g, *x;
    int64_t gs;     /* g's stride in elements: 1, or 0 (one value for all) */
    int64_t n, run; /* run: PyTorch's thread split (pt_chunk), each its own tail */
} exp_grad_job;

/* g s (1 + x (1 - s)) from o = exp(-x), the multiply-add fused as
 * PyTorch's kernel is compiled; per ISA level, where fma is an
 * instruction (the baseline clone calls libm's, with the same bits). */
NN_KERNEL_CLONES static void silu_grad_fin_f32(float *o, const float *g, const float *x,
                                               int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float sg = 1.0f / (1.0f + o[i]);
        o[i] = g[i] * sg * fmaf(x[i], 1.0f - sg, 1.0f);
    }
}

NN_KERNEL_CLONES static void silu_grad_fin_f64(double *o, const double *g, const double *x,
                                               int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double sg = 1.0 / (1.0 + o[i]);
        o[i] = g[i] * sg * fma(x[i], 1.0 - sg, 1.0);
    }
}

/* The same with one gradient value [g] for all (an expanded gradient) */
NN_KERNEL_CLONES static void silu_grad_fin1_f32(float *o, float g, const float *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        float sg = 1.0f / (1.0f + o[i]);
        o[i] = g * sg * fmaf(x[i], 1.0f - sg, 1.0f);
    }
}

NN_KERNEL_CLONES static void silu_grad_fin1_f64(double *o, double g, const double *x, int64_t n) {
    for (int64_t i = 0; i < n; i++) {
        double sg = 1.0 / (1.0 + o[i]);
        o[i] = g * sg * fma(x[i], 1.0 - sg, 1.0);
    }
}

/* SiLU's backward over one run of nn_iter, as PyTorch's cpu_kernel_vec
 * takes its inner loop: a run where the result, the gradient and x are
 * unit-stride (the gradient may be one value, stride 0) is vectorised,
 * SLEEF's exp on whole blocks of two vectors and libm's on the rest; any
 * other run (a gradient and x of different layouts, a strided x) is the
 * scalar op throughout, libm's exp. d[0] dx, d[1] g, d[2] x. */
#define SILU_GRAD_RUN(NAME, T, MAP, EXP, FMA, FIN, FIN1)                                           \
    static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {                          \
        (void)argp;                                                                                \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == z && (s[1] == z || s[1] == 0) && s[2] == z) {                                  \
            T *o = (T *)d[0];                                                                      \
            const T *g = (const T *)d[1], *x = (const T *)d[2];                                    \
            for (int64_t i = 0; i < n; i++) o[i] = -x[i];                                          \
            MAP(NN_SLEEF_EXP, o, o, n, nn_sleef_tail(n, z == 4));                                  \
            if (s[1])                                                                              \
                FIN(o, g, x, n);                                                                   \
            else                                                                                   \
                FIN1(o, g[0], x, n);                                                               \
            return;                                                                                \
        }                                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T g = *(const T *)(d[1] + i * s[1]), x = *(const T *)(d[2] + i * s[2]);                \
            T sg = (T)1 / ((T)1 + EXP(-x));                                                        \
            *(T *)(d[0] + i * s[0]) = g * sg * FMA(x, (T)1 - sg, (T)1);                            \
        }                                                                                          \
    }
SILU_GRAD_RUN(silu_grad_run_f32, float, nn_sleef_map_f32, expf, fmaf, silu_grad_fin_f32,
              silu_grad_fin1_f32)
SILU_GRAD_RUN(silu_grad_run_f64, double, nn_sleef_map_f64, exp, fma, silu_grad_fin_f64,
              silu_grad_fin1_f64)

/* softplus's g z / (z + 1) from o = z = exp(x beta) */
#define SOFTPLUS_GRAD_SPAN(T, MAP)                                                                 \
    {                                                                                              \
        T *o = (T *)j->r + b, beta = (T)j->beta, thr = (T)j->threshold;                            \
        const T *x = (const T *)j->x + b, *g = (const T *)j->g + b * j->gs;                        \
        for (int64_t i = 0; i < n; i++) o[i] = x[i] * beta;                                        \
        MAP(NN_SLEEF_EXP, o, o, n, tail);                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            T gi = g[i * j->gs];                                                                   \
            o[i] = x[i] * beta > thr ? gi : gi * o[i] / (o[i] + (T)1);                             \
        }                                                                                          \
    }

static void exp_grad_span(const exp_grad_job *j, int64_t b, int64_t e, int64_t tail_at) {
    int64_t n = e - b, tail = tail_at - b;
    tail = tail < 0 ? 0 : tail > n ? n : tail;
    if (j->softplus && j->f32) {
        SOFTPLUS_GRAD_SPAN(float, nn_sleef_map_f32)
    } else if (j->softplus) {
        SOFTPLUS_GRAD_SPAN(double, nn_sleef_map_f64)
    } else if (j->f32) {
        float *o = (float *)j->r + b;
        const float *x = (const float *)j->x + b, *g = (const float *)j->g + b * j->gs;
        for (int64_t i = 0; i < n; i++) o[i] = -x[i];
        nn_sleef_map_f32(NN_SLEEF_EXP, o, o, n, tail);
        if (j->gs)
            silu_grad_fin_f32(o, g, x, n);
        else
            silu_grad_fin1_f32(o, g[0], x, n);
    } else {
        double *o = (double *)j->r + b;
        const double *x = (const double *)j->x + b, *g = (const double *)j->g + b * j->gs;
        for (int64_t i = 0; i < n; i++) o[i] = -x[i];
        nn_sleef_map_f64(NN_SLEEF_EXP, o, o, n, tail);
        if (j->gs)
            silu_grad_fin_f64(o, g, x, n);
        else
            silu_grad_fin1_f64(o, g[0], x, n);
    }
}

static void exp_grad_task(void *arg, int task, int n_tasks) {
    const exp_grad_job *j = arg;
    int64_t b, e;
    if (j->run == j->n) {
        nn_parallel_range(j->n, task, n_tasks, 16, &b, &e);
        if (b < e) exp_grad_span(j, b, e, nn_sleef_tail(j->n, j->f32));
        return;
    }
    nn_parallel_range((j->n + j->run - 1) / j->run, task, n_tasks, 1, &b, &e);
    for (int64_t r = b * j->run; r < e * j->run && r < j->n; r += j->run) {
        int64_t re = r + j->run < j->n ? r + j->run : j->n;
        exp_grad_span(j, r, re, r + nn_sleef_tail(re - r, j->f32));
    }
}

/* How [dout] and [x] (of one shape and float dtype) suit exp_grad_sleef:
 * 1 when both are contiguous or dense with one layout, 2 when x is
 * contiguous or dense and dout one value for all, 0 otherwise. */
static int exp_grad_fits(const nn_tensor *dout, const nn_tensor *x) {
    if (nn_tensor_is_contiguous(x) && nn_tensor_is_contiguous(dout)) return 1;
    if (nn_tensor_is_dense(dout) && same_layout(x, dout)) return 1;
    if (!nn_tensor_is_dense(x)) return 0;
    for (int i = 0; i < dout->ndim; i++)
        if (dout->strides[i] != 0 && dout->shape[i] != 1) return 0;
    return 2;
}

/* The result in g's layout (x's when g is one value for all: [fit] 2). */
static nn_tensor *exp_grad_sleef(nn_ctx *ctx, const nn_tensor *g, const nn_tensor *x, int fit,
                                 bool softplus, const unary_arg *ua) {
    /* g and x contiguous, or dense with one layout: over flat memory */
    int64_t n = nn_tensor_numel(x);
    const nn_tensor *lay = fit == 1 ? g : x;
    nn_tensor *r = nn_tensor_is_contiguous(lay)
                       ? nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape)
                       : nn_tensor_empty_strided(ctx, x->dtype, x->ndim, x->shape, lay->strides);
    if (!r) return NULL;
    bool f32 = x->dtype == NN_FLOAT32;
    exp_grad_job j = {f32,
                      softplus,
                      ua->p[0],
                      ua->p[1],
                      nn_tensor_data(r),
                      nn_tensor_data(g),
                      nn_tensor_data(x),
                      fit == 1 ? 1 : 0,
                      n,
                      pt_chunk(n)};
    int tasks = nn_parallel_tasks(n, NN_PAR_MIN_DEAR);
    if (n > 0) nn_parallel_run(tasks > 1 ? tasks : 1, exp_grad_task, &j);
    return r;
}

static nn_status unary_grad(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                            const unary_kernels *k) {
    if (!node->in[0].needs_grad) return NN_OK;
    if (k == &k_relu && node->saved[0] && nn_tensor_released(node->out))
        return relu_bits_grad(ctx, node, dout, din);
    nn_dtype dt = dout->dtype;
    unary_arg ua = {{node->p.f[0], node->p.f[1], 0, 0}};
    bool from_out =
        grad_from_output(k) && node->out->dtype == dt && nn_tensor_same_shape(node->out, dout);
    NN_ASSERT(from_out || !node->in[0].dropped);
    nn_tensor *x = from_out ? nn_tensor_retain(node->out) : cast_dense(ctx, in0(node), dt);
    bool softplus = k == &k_softplus;
    int fit = (k == &k_silu || softplus) && x && (dt == NN_FLOAT32 || dt == NN_FLOAT64) &&
                      x->dtype == dt && nn_tensor_same_shape(x, dout)
                  ? exp_grad_fits(dout, x)
                  : 0;
    if (fit) {
        din[0] = exp_grad_sleef(ctx, dout, x, fit, softplus, &ua);
        nn_tensor_release(x);
        return din[0] ? NN_OK : ctx->err.code;
    }
    /* gelu's kept factor (unary), read where the output would be */
    bool kept = k == &k_gelu_erf && node->saved[0] && dt == NN_FLOAT32 &&
                node->saved[0]->dtype == NN_FLOAT32;
    /* relu's backward on a gradient nothing else reads writes over it, as
     * PyTorch's threshold_backward leaves only one buffer alive; so does
     * gelu's multiply by its kept factor. */
    /* dx is laid out as PyTorch's backward kernel's output over (dout, x):
     * a transposed x with a gradient of its layout, or a broadcast one,
     * gives a transposed dx, computed over flat memory */
    const nn_tensor *ops[2] = {dout, x};
    int64_t st[NN_MAX_DIMS];
    bool strided = x && nn_elementwise_layout(dout->ndim, dout->shape, 2, ops, st);
    bool over = (from_out || kept) && !strided && ctx->grad_out_writable && dout->refcount == 1 &&
                dout->storage->refcount == 1 && nn_tensor_is_contiguous(dout);
    nn_tensor *r = !x        ? NULL
                   : over    ? nn_tensor_retain(dout)
                   : strided ? nn_tensor_empty_strided(ctx, dt, dout->ndim, dout->shape, st)
                             : nn_tensor_empty(ctx, dt, dout->ndim, dout->shape);
    if (r) {
        nn_iter it;
        nn_iter_init(&it, r->ndim, r->shape);
        nn_iter_add(&it, r);
        nn_iter_add(&it, dout);
        nn_iter_add(&it, x);
        /* gelu's backward reads only its input: an output it let go (a
         * husk, no bytes: nn_graph.c's grad_reads_output) is not handed to
         * the loop, which would form pointers into it */
        bool no_out = !from_out && nn_tensor_released(node->out);
        nn_iter_add(&it, kept ? node->saved[0] : no_out ? x : node->out);
        nn_iter_loop g32 = kept                ? gelu_saved_grad_f32
                           : k == &k_gelu_erf  ? gelu_erf_grad_any_f32
                           : k == &k_gelu_tanh ? gelu_tanh_grad_f32
                           : k == &k_silu      ? silu_grad_run_f32
                                               : k->g32,
                     g64 = k == &k_silu ? silu_grad_run_f64 : k->g64;
        if (k == &k_gelu_erf)
            ua.p[2] = nn_tensor_is_contiguous(in0(node)) && nn_tensor_numel(in0(node)) != 1;
        /* the kept factor's multiply is memory-bound: the plain threshold */
        nn_iter_run_parallel(&it, dt == NN_FLOAT32 ? g32 : g64, &ua,
                             kept ? NN_PAR_MIN_ELEMWISE : unary_par_min(k, true));
    }
    nn_tensor_release(x);
    din[0] = r;
    return r ? NN_OK : ctx->err.code;
}

#define UNARY_OP(name, i64)                                                                        \
    nn_tensor *op_##name##_forward(nn_ctx *ctx, nn_node *node) {                                   \
        return unary(ctx, node, &k_##name, i64);                                                   \
    }                                                                                              \
    nn_status op_##name##_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) { \
        return unary_grad(ctx, node, dout, din, &k_##name);                                        \
    }

/* neg and abs take complex inputs (ops_complex.c); neg's backward is neg. */
nn_tensor *op_neg_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_dtype_is_complex(in0(node)->dtype)) return nn_complex_neg(ctx, in0(node));
    return unary(ctx, node, &k_neg, neg_i64);
}
nn_status op_neg_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_dtype_is_complex(in0(node)->dtype) || nn_dtype_is_complex(dout->dtype)) {
        if (node->in[0].needs_grad && !(din[0] = nn_neg(ctx, dout))) return ctx->err.code;
        return NN_OK;
    }
    return unary_grad(ctx, node, dout, din, &k_neg);
}
nn_tensor *op_abs_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_dtype_is_complex(in0(node)->dtype)) return nn_complex_abs(ctx, in0(node));
    return unary(ctx, node, &k_abs, abs_i64);
}
nn_status op_abs_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_dtype_is_complex(in0(node)->dtype)) {
        if (node->in[0].needs_grad && !(din[0] = nn_complex_abs_grad(ctx, in0(node), dout)))
            return ctx->err.code;
        return NN_OK;
    }
    return unary_grad(ctx, node, dout, din, &k_abs);
}
UNARY_OP(exp, NULL)
UNARY_OP(log, NULL)
UNARY_OP(log1p, NULL)
UNARY_OP(sqrt, NULL)
UNARY_OP(rsqrt, NULL)
UNARY_OP(sign, sign_i64)
UNARY_OP(clamp, NULL)
UNARY_OP(relu, NULL)
UNARY_OP(leaky_relu, NULL)
UNARY_OP(tanh, NULL)
UNARY_OP(sigmoid, NULL)
UNARY_OP(silu, NULL)
UNARY_OP(softplus, NULL)

/* gelu: flags 1 selects the tanh approximation. */
nn_tensor *op_gelu_forward(nn_ctx *ctx, nn_node *node) {
    return unary(ctx, node, node->p.flags ? &k_gelu_tanh : &k_gelu_erf, NULL);
}
nn_status op_gelu_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return unary_grad(ctx, node, dout, din, node->p.flags ? &k_gelu_tanh : &k_gelu_erf);
}

/* ---- to(dtype): p.i[0] is the target dtype ---- */

nn_tensor *op_to_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *a = in0(node);
    nn_dtype dt = (nn_dtype)node->p.i[0];
    const nn_tensor *ops[1] = {a};
    int64_t st[NN_MAX_DIMS];
    nn_memory_format fmt = (nn_memory_format)node->p.i[1];
    nn_tensor *out = fmt == NN_FORMAT_PRESERVE ? new_out(ctx, dt, a->ndim, a->shape, 1, ops)
                     : nn_format_strides(a, fmt, st)
                         ? nn_tensor_empty_strided(ctx, dt, a->ndim, a->shape, st)
                         : nn_tensor_empty(ctx, dt, a->ndim, a->shape);
    if (out && nn_tensor_copy_(ctx, out, a)) {
        nn_tensor_release(out);
        return NULL;
    }
    if (out) out->storage->version = 0;
    return out;
}

nn_status op_to_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (node->in[0].needs_grad && !(din[0] = nn_tensor_cast_raw(ctx, dout, in0(node)->dtype)))
        return ctx->err.code;
    return NN_OK;
}

/* ---- where(cond, a, b) ---- */

/* The contiguous runs that masked_fill and its backward give (condition
 * bytes in order, each branch in order or one broadcast value) get loops
 * without strides, which vectorise; anything else walks the strides. */
#define WHERE_LOOP(NAME, T)                                                                        \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {          \
        (void)arg;                                                                                 \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        T *o = (T *)d[0];                                                                          \
        const uint8_t *c = (const uint8_t *)d[1];                                                  \
        const T *a = (const T *)d[2], *b = (const T *)d[3];                                        \
        if (s[0] == z && s[1] == 1 && s[2] == 0 && s[3] == z) {                                    \
            const T a0 = a[0];                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T bi = b[i]; /* read either way: the loop becomes a vector blend */                \
                o[i] = c[i] ? a0 : bi;                                                             \
            }                                                                                      \
        } else if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == 0) {                             \
            const T b0 = b[0];                                                                     \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T ai = a[i];                                                                       \
                o[i] = c[i] ? ai : b0;                                                             \
            }                                                                                      \
        } else if (s[0] == z && s[1] == 1 && s[2] == z && s[3] == z) {                             \
            for (int64_t i = 0; i < n; i++) {                                                      \
                T ai = a[i], bi = b[i];                                                            \
                o[i] = c[i] ? ai : bi;                                                             \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                *(T *)(d[0] + i * s[0]) = *(const uint8_t *)(d[1] + i * s[1])                      \
                                              ? *(const T *)(d[2] + i * s[2])                      \
                                              : *(const T *)(d[3] + i * s[3]);                     \
        }                                                                                          \
    }
WHERE_LOOP(where_f32, float)
WHERE_LOOP(where_f64, double)
WHERE_LOOP(where_i64, int64_t)
WHERE_LOOP(where_u8, uint8_t)

static nn_tensor *where_raw(nn_ctx *ctx, nn_tensor *cond, nn_tensor *a, nn_tensor *b) {
    int nd, nd2;
    int64_t s1[NN_MAX_DIMS], shape[NN_MAX_DIMS];
    if (!bshape(ctx, a, b, &nd, s1)) return NULL;
    if (nn_broadcast_shapes(ctx, cond->ndim, cond->shape, nd, s1, &nd2, shape)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    const nn_tensor *ops[3] = {cond, a, b};
    nn_tensor *c = cast_dense(ctx, cond, NN_BOOL);
    nn_tensor *ca = c ? cast_dense(ctx, a, dt) : NULL;
    nn_tensor *cb = ca ? cast_dense(ctx, b, dt) : NULL;
    nn_tensor *out = cb ? new_out(ctx, dt, nd2, shape, 3, ops) : NULL;
    if (out) {
        nn_iter it;
        nn_iter_init(&it, nd2, shape);
        nn_iter_add(&it, out);
        nn_iter_add(&it, c);
        nn_iter_add(&it, ca);
        nn_iter_add(&it, cb);
        nn_iter_run_parallel(&it,
                             dt == NN_FLOAT32   ? where_f32
                             : dt == NN_FLOAT64 ? where_f64
                             : dt == NN_INT64   ? where_i64
                                                : where_u8,
                             NULL, NN_PAR_MIN_ELEMWISE);
    }
    nn_tensor_release(c);
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

nn_tensor *op_where_forward(nn_ctx *ctx, nn_node *node) {
    return where_raw(ctx, node->in[0].t, node->in[1].t, node->in[2].t);
}

nn_status op_where_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *zero = nn_scalar(ctx, 0, dout->dtype);
    if (!zero) return ctx->err.code;
    zero->is_wrapped_number = true;
    if (node->in[1].needs_grad) din[1] = where_raw(ctx, node->in[0].t, dout, zero);
    /* masked_fill's input gradient, where(mask, 0, dout), over dout itself
     * when nothing else reads it and the mask broadcasts to its shape */
    nn_tensor *cond = node->in[0].t;
    int nd = 0;
    int64_t shape[NN_MAX_DIMS];
    if ((!node->in[1].needs_grad || din[1]) && grad_writable(ctx, node, 2, dout) &&
        cond->ndim <= dout->ndim &&
        !nn_broadcast_shapes(ctx, cond->ndim, cond->shape, dout->ndim, dout->shape, &nd, shape) &&
        memcmp(shape, dout->shape, sizeof(int64_t) * (size_t)nd) == 0) {
        nn_tensor *c = nn_tensor_cast_raw(ctx, cond, NN_BOOL);
        if (!c) {
            nn_tensor_release(zero);
            return ctx->err.code;
        }
        nn_iter it;
        nn_iter_init(&it, dout->ndim, dout->shape);
        nn_iter_add(&it, dout);
        nn_iter_add(&it, c);
        nn_iter_add(&it, zero);
        nn_iter_add(&it, dout);
        nn_iter_run_parallel(&it, dout->dtype == NN_FLOAT32 ? where_f32 : where_f64, NULL,
                             NN_PAR_MIN_ELEMWISE);
        nn_tensor_release(c);
        din[2] = nn_tensor_retain(dout);
    }
    if (node->in[2].needs_grad && !din[2]) din[2] = where_raw(ctx, node->in[0].t, zero, dout);
    nn_tensor_release(zero);
    if ((node->in[1].needs_grad && !din[1]) || (node->in[2].needs_grad && !din[2]))
        return ctx->err.code;
    return NN_OK;
}

/* ---- comparisons and logic (bool results) ---- */

/* Dense rows (and a broadcast scalar operand) get loops that vectorise,
 * compiled per ISA level. */
#define CMP_LOOP(NAME, T, OP)                                                                      \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *arg) {          \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        uint8_t *restrict o = (uint8_t *)d[0];                                                     \
        const T *restrict x = (const T *)d[1], *restrict y = (const T *)d[2];                      \
        if (s[0] == 1 && s[1] == z && s[2] == z) {                                                 \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] OP y[i];                                   \
        } else if (s[0] == 1 && s[1] == z && s[2] == 0) {                                          \
            const T b = *y;                                                                        \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] OP b;                                      \
        } else if (s[0] == 1 && s[1] == 0 && s[2] == z) {                                          \
            const T a = *x;                                                                        \
            for (int64_t i = 0; i < n; i++) o[i] = a OP y[i];                                      \
        } else {                                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                *(uint8_t *)(d[0] + i * s[0]) =                                                    \
                    *(const T *)(d[1] + i * s[1]) OP * (const T *)(d[2] + i * s[2]);               \
        }                                                                                          \
    }
#define CMP_ALL(NAME, OP)                                                                          \
    CMP_LOOP(NAME##_f32, float, OP)                                                                \
    CMP_LOOP(NAME##_f64, double, OP)                                                               \
    CMP_LOOP(NAME##_i64, int64_t, OP)                                                              \
    static const binary_kernels k_##NAME = {NAME##_f32, NAME##_f64, NAME##_i64};
CMP_ALL(eq, ==)
CMP_ALL(ne, !=)
CMP_ALL(lt, <)
CMP_ALL(le, <=)
CMP_ALL(gt, >)
CMP_ALL(ge, >=)
CMP_LOOP(land_u8, uint8_t, &&)
CMP_LOOP(lor_u8, uint8_t, ||)

static nn_tensor *compare(nn_ctx *ctx, nn_node *node, const binary_kernels *k) {
    nn_tensor *a = in0(node), *b = in1(node);
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (!bshape(ctx, a, b, &nd, shape)) return NULL;
    nn_dtype dt = nn_dtype_promote(a, b);
    if (dt == NN_BOOL) dt = NN_INT64;
    const nn_tensor *ops[2] = {a, b};
    nn_tensor *ca = cast_dense(ctx, a, dt), *cb = ca ? cast_dense(ctx, b, dt) : NULL;
    nn_tensor *out = cb ? new_out(ctx, NN_BOOL, nd, shape, 2, ops) : NULL;
    if (out)
        run3(out, ca, cb, dt == NN_FLOAT32 ? k->f32 : dt == NN_FLOAT64 ? k->f64 : k->i64, NULL);
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

nn_tensor *op_eq_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_compare(ctx, node, false);
    return compare(ctx, node, &k_eq);
}
nn_tensor *op_ne_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_complex_involved(node)) return nn_complex_compare(ctx, node, true);
    return compare(ctx, node, &k_ne);
}
nn_tensor *op_lt_forward(nn_ctx *ctx, nn_node *node) {
    return compare(ctx, node, &k_lt);
}
nn_tensor *op_le_forward(nn_ctx *ctx, nn_node *node) {
    return compare(ctx, node, &k_le);
}
nn_tensor *op_gt_forward(nn_ctx *ctx, nn_node *node) {
    return compare(ctx, node, &k_gt);
}
nn_tensor *op_ge_forward(nn_ctx *ctx, nn_node *node) {
    return compare(ctx, node, &k_ge);
}

static nn_tensor *logical(nn_ctx *ctx, nn_node *node, nn_iter_loop loop) {
    nn_tensor *a = in0(node), *b = in1(node);
    int nd;
    int64_t shape[NN_MAX_DIMS];
    if (!bshape(ctx, a, b, &nd, shape)) return NULL;
    const nn_tensor *ops[2] = {a, b};
    nn_tensor *ca = cast_dense(ctx, a, NN_BOOL);
    nn_tensor *cb = ca ? cast_dense(ctx, b, NN_BOOL) : NULL;
    nn_tensor *out = cb ? new_out(ctx, NN_BOOL, nd, shape, 2, ops) : NULL;
    if (out) run3(out, ca, cb, loop, NULL);
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return out;
}

nn_tensor *op_logical_and_forward(nn_ctx *ctx, nn_node *node) {
    return logical(ctx, node, land_u8);
}
nn_tensor *op_logical_or_forward(nn_ctx *ctx, nn_node *node) {
    return logical(ctx, node, lor_u8);
}

/* Unary tests to bool: [mode] 0 not, 1 isnan, 2 isinf, 3 isfinite. */
#define TEST_LOOP(name, T)                                                                         \
    NN_KERNEL_CLONES static void name(const T *x, uint8_t *o, int64_t n, int mode) {               \
        switch (mode) {                                                                            \
        case 0:                                                                                    \
            for (int64_t i = 0; i < n; i++) o[i] = x[i] == 0;                                      \
            break;                                                                                 \
        case 1:                                                                                    \
            for (int64_t i = 0; i < n; i++) o[i] = isnan(x[i]) != 0;                               \
            break;                                                                                 \
        case 2:                                                                                    \
            for (int64_t i = 0; i < n; i++) o[i] = isinf(x[i]) != 0;                               \
            break;                                                                                 \
        default:                                                                                   \
            for (int64_t i = 0; i < n; i++) o[i] = isfinite(x[i]) != 0;                            \
            break;                                                                                 \
        }                                                                                          \
    }
TEST_LOOP(test_f32, float)
TEST_LOOP(test_f64, double)
#undef TEST_LOOP

static nn_tensor *test_unary(nn_ctx *ctx, nn_node *node, int mode) {
    nn_tensor *a = in0(node);
    /* a dense layout is kept (over flat memory); others walk into a
     * row-major output */
    bool dense = (a->dtype == NN_FLOAT32 || a->dtype == NN_FLOAT64) && a->ndim > 1 &&
                 !nn_tensor_is_contiguous(a) && nn_tensor_is_dense(a);
    nn_tensor *out = dense ? nn_tensor_empty_strided(ctx, NN_BOOL, a->ndim, a->shape, a->strides)
                           : nn_tensor_empty(ctx, NN_BOOL, a->ndim, a->shape);
    if (!out) return NULL;
    int64_t n = nn_tensor_numel(a);
    uint8_t *o = out->storage->data;
    bool fl = nn_dtype_is_float(a->dtype);
    if ((dense || nn_tensor_is_contiguous(a)) &&
        (a->dtype == NN_FLOAT32 || a->dtype == NN_FLOAT64)) {
        /* the usual case (torch.isnan(loss).any()): a typed loop the
         * compiler vectorises, where the walk below loads each element
         * through a flat index */
        if (a->dtype == NN_FLOAT32)
            test_f32(nn_tensor_data(a), o, n, mode);
        else
            test_f64(nn_tensor_data(a), o, n, mode);
        return out;
    }
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(a, i);
        o[i] = mode == 0   ? v == 0
               : mode == 1 ? fl && isnan(v)
               : mode == 2 ? fl && isinf(v)
                           : !fl || isfinite(v);
    }
    return out;
}

nn_tensor *op_logical_not_forward(nn_ctx *ctx, nn_node *node) {
    return test_unary(ctx, node, 0);
}
nn_tensor *op_isnan_forward(nn_ctx *ctx, nn_node *node) {
    return test_unary(ctx, node, 1);
}
nn_tensor *op_isinf_forward(nn_ctx *ctx, nn_node *node) {
    return test_unary(ctx, node, 2);
}
nn_tensor *op_isfinite_forward(nn_ctx *ctx, nn_node *node) {
    return test_unary(ctx, node, 3);
}

/* ---- public API ---- */

static nn_tensor *call2(nn_ctx *ctx, nn_op op, nn_tensor *a, nn_tensor *b) {
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, op, in, 2, NULL);
}

static nn_tensor *call1(nn_ctx *ctx, nn_op op, nn_tensor *a, double p0, double p1, int flags) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.f[0] = p0;
    p.f[1] = p1;
    p.flags = flags;
    return nn_exec(ctx, op, &a, 1, &p);
}

static nn_tensor *with_scalar(nn_ctx *ctx, nn_op op, nn_tensor *a, double s) {
    nn_tensor *w = nn_scalar_wrapped(ctx, s);
    if (!w) return NULL;
    nn_tensor *r = call2(ctx, op, a, w);
    nn_tensor_release(w);
    return r;
}

nn_tensor *nn_add(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_ADD, a, b);
}
nn_tensor *nn_sub(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_SUB, a, b);
}
nn_tensor *nn_mul(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_MUL, a, b);
}
nn_tensor *nn_div(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_DIV, a, b);
}
nn_tensor *nn_pow(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_POW, a, b);
}
nn_tensor *nn_maximum(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_MAXIMUM, a, b);
}
nn_tensor *nn_minimum(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_MINIMUM, a, b);
}
nn_tensor *nn_add_scalar(nn_ctx *ctx, nn_tensor *a, double s) {
    return with_scalar(ctx, NN_OP_ADD, a, s);
}
nn_tensor *nn_mul_scalar(nn_ctx *ctx, nn_tensor *a, double s) {
    return with_scalar(ctx, NN_OP_MUL, a, s);
}
nn_tensor *nn_pow_scalar(nn_ctx *ctx, nn_tensor *a, double s) {
    return with_scalar(ctx, NN_OP_POW, a, s);
}
nn_tensor *nn_neg(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_NEG, a, 0, 0, 0);
}
nn_tensor *nn_exp(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_EXP, a, 0, 0, 0);
}
nn_tensor *nn_log(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_LOG, a, 0, 0, 0);
}
nn_tensor *nn_log1p(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_LOG1P, a, 0, 0, 0);
}
nn_tensor *nn_sqrt(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_SQRT, a, 0, 0, 0);
}
nn_tensor *nn_rsqrt(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_RSQRT, a, 0, 0, 0);
}
nn_tensor *nn_abs(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_ABS, a, 0, 0, 0);
}
nn_tensor *nn_sign(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_SIGN, a, 0, 0, 0);
}
nn_tensor *nn_clamp(nn_ctx *ctx, nn_tensor *a, double lo, double hi) {
    if (!isnan(lo) && !isnan(hi) && lo > hi) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "clamp: min %g is greater than max %g", lo, hi);
        return NULL;
    }
    return call1(ctx, NN_OP_CLAMP, a, lo, hi, 0);
}
nn_tensor *nn_clamp_int(nn_ctx *ctx, nn_tensor *a, double lo, double hi) {
    if (!isnan(lo) && !isnan(hi) && lo > hi) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "clamp: min %g is greater than max %g", lo, hi);
        return NULL;
    }
    return call1(ctx, NN_OP_CLAMP, a, lo, hi, 1);
}
nn_tensor *nn_where(nn_ctx *ctx, nn_tensor *cond, nn_tensor *a, nn_tensor *b) {
    if (cond && cond->dtype != NN_BOOL) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "where: the condition must be a bool tensor, not %s",
                     nn_dtype_name(cond->dtype));
        return NULL;
    }
    nn_tensor *in[3] = {cond, a, b};
    return nn_exec(ctx, NN_OP_WHERE, in, 3, NULL);
}
nn_tensor *nn_relu(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_RELU, a, 0, 0, 0);
}
nn_tensor *nn_leaky_relu(nn_ctx *ctx, nn_tensor *a, double negative_slope) {
    return call1(ctx, NN_OP_LEAKY_RELU, a, negative_slope, 0, 0);
}
nn_tensor *nn_tanh(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_TANH, a, 0, 0, 0);
}
nn_tensor *nn_sigmoid(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_SIGMOID, a, 0, 0, 0);
}
nn_tensor *nn_gelu(nn_ctx *ctx, nn_tensor *a, bool approximate_tanh) {
    return call1(ctx, NN_OP_GELU, a, 0, 0, approximate_tanh);
}
nn_tensor *nn_silu(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_SILU, a, 0, 0, 0);
}
nn_tensor *nn_softplus(nn_ctx *ctx, nn_tensor *a, double beta, double threshold) {
    if (beta == 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "softplus: beta must not be 0");
        return NULL;
    }
    return call1(ctx, NN_OP_SOFTPLUS, a, beta, threshold, 0);
}
nn_tensor *nn_to(nn_ctx *ctx, nn_tensor *a, nn_dtype dt) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = dt;
    return nn_exec(ctx, NN_OP_TO, &a, 1, &p);
}
nn_tensor *nn_to_format(nn_ctx *ctx, nn_tensor *a, nn_dtype dt, nn_memory_format fmt) {
    nn_params p;
    memset(&p, 0, sizeof p);
    p.i[0] = dt;
    p.i[1] = fmt;
    return nn_exec(ctx, NN_OP_TO, &a, 1, &p);
}
nn_tensor *nn_eq(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_EQ, a, b);
}
nn_tensor *nn_ne(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_NE, a, b);
}
nn_tensor *nn_lt(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_LT, a, b);
}
nn_tensor *nn_le(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_LE, a, b);
}
nn_tensor *nn_gt(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_GT, a, b);
}
nn_tensor *nn_ge(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_GE, a, b);
}
nn_tensor *nn_logical_and(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_LOGICAL_AND, a, b);
}
nn_tensor *nn_logical_or(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    return call2(ctx, NN_OP_LOGICAL_OR, a, b);
}
nn_tensor *nn_logical_not(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_LOGICAL_NOT, a, 0, 0, 0);
}
nn_tensor *nn_isnan(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_ISNAN, a, 0, 0, 0);
}
nn_tensor *nn_isinf(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_ISINF, a, 0, 0, 0);
}
nn_tensor *nn_isfinite(nn_ctx *ctx, nn_tensor *a) {
    return call1(ctx, NN_OP_ISFINITE, a, 0, 0, 0);
}

/* ---- the test-only op with a wrong derivative ---- */

nn_tensor *op_test_wrong_grad_forward(nn_ctx *ctx, nn_node *node) {
    return nn_mul(ctx, node->in[0].t, node->in[0].t);
}

nn_status op_test_wrong_grad_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout,
                                      nn_tensor **din) {
    nn_tensor *x = node->in[0].t;
    nn_tensor *gx = nn_mul(ctx, x, dout);
    nn_tensor *g = gx ? nn_mul_scalar(ctx, gx, 2.0) : NULL;
    nn_tensor_release(gx);
    if (!g) return ctx->err.code;
    int64_t n = nn_tensor_numel(g);
    if (n > 0) {
        int64_t k = n > 2 ? 2 : n - 1;
        nn_tensor_set_flat(g, k, nn_tensor_get_flat(g, k) + 1.0);
    }
    din[0] = g;
    return NN_OK;
}

nn_tensor *nn_test_wrong_grad(nn_ctx *ctx, nn_tensor *x) {
    return call1(ctx, NN_OP_TEST_WRONG_GRAD, x, 0, 0, 0);
}

/* ---- costs: one FLOP per output element (a transcendental counts as
 * one), none for a dtype conversion ---- */

bool nn_cost_elementwise(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    switch (n->op) {
    case NN_OP_TO: return true;
    case NN_OP_ADD:
    case NN_OP_SUB:
    case NN_OP_MUL:
    case NN_OP_DIV:
    case NN_OP_POW:
    case NN_OP_MAXIMUM:
    case NN_OP_MINIMUM:
    case NN_OP_NEG:
    case NN_OP_EXP:
    case NN_OP_LOG:
    case NN_OP_LOG1P:
    case NN_OP_SQRT:
    case NN_OP_RSQRT:
    case NN_OP_ABS:
    case NN_OP_SIGN:
    case NN_OP_CLAMP:
    case NN_OP_WHERE:
    case NN_OP_RELU:
    case NN_OP_LEAKY_RELU:
    case NN_OP_TANH:
    case NN_OP_SIGMOID:
    case NN_OP_GELU:
    case NN_OP_SILU:
    case NN_OP_SOFTPLUS:
    case NN_OP_TEST_WRONG_GRAD:
    case NN_OP_EQ:
    case NN_OP_NE:
    case NN_OP_LT:
    case NN_OP_LE:
    case NN_OP_GT:
    case NN_OP_GE:
    case NN_OP_LOGICAL_AND:
    case NN_OP_LOGICAL_OR:
    case NN_OP_LOGICAL_NOT:
    case NN_OP_ISNAN:
    case NN_OP_ISINF:
    case NN_OP_ISFINITE: c->flops = nn_cost_numel(out); return true;
    default: return false;
    }
}
