/* nn_tensor: n-dimensional arrays with refcounted storage, views and autograd
 * fields.
 *
 * Ownership: every function that returns an nn_tensor * returns a new
 * reference the caller owns and gives back with nn_tensor_release (which
 * accepts NULL). Functions that take tensors borrow them. Views share the
 * storage of their base; the storage lives while any view does. On a user
 * error a function returns NULL (or a status) and fills ctx->err.
 */
#ifndef NN_TENSOR_H
#define NN_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn_error.h"

#define NN_MAX_DIMS 8

/* The first four are the compute dtypes the kernels (ops_*.c) handle. The
 * narrow ones after them are storage dtypes: an op widens such inputs to
 * their compute dtype (nn_dtype_compute) and rounds its result back to the
 * promoted dtype, which is what PyTorch's CPU kernels do per element.
 * Values are stable (checkpoints name dtypes by string, not by number). */
typedef enum nn_dtype {
    NN_FLOAT32,
    NN_FLOAT64,
    NN_INT64,
    NN_BOOL,
    NN_INT32,
    NN_INT16,
    NN_INT8,
    NN_UINT8,
    NN_FLOAT16,  /* IEEE binary16, stored as its bits (uint16_t) */
    NN_BFLOAT16, /* the top 16 bits of a float32, stored as uint16_t */
    /* complex: interleaved (real, imag) pairs of float32 / float64, as C's
     * float complex and PyTorch's ComplexFloat; only the ops that list
     * complex support take them (nn_exec refuses the rest, docs/language-tensors.md) */
    NN_COMPLEX64,
    NN_COMPLEX128,
} nn_dtype;
#define NN_DTYPE_COUNT 12

typedef struct nn_ctx nn_ctx;
typedef struct nn_node nn_node;

typedef struct nn_storage {
    int32_t refcount;
    uint32_t version; /* bumped by every in-place write; autograd checks it */
    /* The NaN hunt's note that every element is finite: version + 1 when
     * that was seen (nn_tensor_mark_finite, nn_anomaly.h), else 0; any
     * in-place write bumps the version and so voids it. */
    uint32_t finite_version;
    size_t nbytes;
    void *data;
    /* Memory owned elsewhere (a NumPy array shared by torch.from_numpy):
     * called once when the last reference goes, instead of freeing data. */
    void (*release)(void *user);
    void *user;
    /* A stand-in with no bytes for values a recorded node let go after the
     * forward because its backward does not read them (nn_tensor_husk). */
    bool husk;
    /* A recorded relu whose backward reads only which of these outputs are
     * above zero, or a recorded linear whose input these are, made by a
     * GELU or a layer norm from inputs it keeps: when every reference but
     * that node's has gone, the relu keeps one bit per element instead,
     * the linear a husk to recompute in backward, and the bytes are freed
     * (nn_node_output_orphaned, nn_graph.c). NULL for every other storage. */
    nn_node *keeper;
} nn_storage;

typedef struct nn_tensor {
    int32_t refcount;
    nn_dtype dtype;
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    int64_t strides[NN_MAX_DIMS]; /* in elements */
    int64_t offset;               /* in elements, into storage */
    nn_storage *storage;
    /* autograd */
    bool requires_grad;
    bool retains_grad;      /* non-leaf whose gradient backward() keeps */
    bool is_wrapped_number; /* a Python scalar: does not promote float32 */
    bool grad_placed;       /* leaves: a gradient was stored once (nn_graph.c) */
    struct nn_tensor *grad; /* leaves: accumulated gradient, or NULL */
    /* leaves, during a backward pass (nn_graph.c): the .grad held before
     * it while this pass's contributions are summed, and the edges left
     * (counted in the pass whose ctx->visit_epoch is grad_pass) */
    struct nn_tensor *grad_before;
    uint32_t grad_pass;
    int32_t grad_edges;
    nn_node *grad_fn; /* the node that produced it; NULL for leaves */
    /* Views (nn_inplace.c): the tensor whose storage this one views, made
     * by a view op (reshape that did not copy, permute, expand, slice,
     * select) at top level, in any grad mode: the root of a chain of views,
     * as PyTorch's _base, held by a reference; NULL for a tensor that is no
     * view. No cycle: a root has no base, and nodes hold aliases without
     * one. A view is one while it shares its base's storage (t.data = ...
     * moves it elsewhere: nn_tensor_is_view). */
    struct nn_tensor *base;
    /* The storage version when this view's grad_fn last matched its
     * base's history: a write to the base, or through another of its
     * views, bumps the version, and nn_view_refresh then makes the view's
     * history a view of the base's new one before it is used. */
    uint32_t view_version;
    uint8_t view_kind;   /* nn_view_kind */
    int32_t view_output; /* NN_VIEW_MULTI: which output of view_fn */
    const char *view_fn; /* NN_VIEW_MULTI: the function's node name (static), or
                            NULL for a view of such an output (its own node names it) */
    /* The front end's object for this tensor (borrowed; the front end
     * clears it when that object goes): what `v._base is y` compares. */
    void *front;
} nn_tensor;

/* How a view was made, for the in-place writes PyTorch refuses on it. */
typedef enum nn_view_kind {
    NN_VIEW_DEFAULT,
    NN_VIEW_NO_GRAD, /* made while grad mode was off */
    NN_VIEW_MULTI,   /* an output of unbind/split/chunk, or a view of one */
} nn_view_kind;

size_t nn_dtype_size(nn_dtype dt);
const char *nn_dtype_name(nn_dtype dt); /* "float32", ... */
/* The dtype named [name] ("float16", "int8", ...); false if none. */
bool nn_dtype_from_name(const char *name, nn_dtype *out);
/* Floating point: float16, bfloat16, float32, float64. */
bool nn_dtype_is_float(nn_dtype dt);
/* complex64 or complex128. */
bool nn_dtype_is_complex(nn_dtype dt);
/* The complex dtype of a real one (float64 -> complex128, others ->
 * complex64) and the real dtype of a complex one (itself otherwise). */
nn_dtype nn_dtype_to_complex(nn_dtype dt);
nn_dtype nn_dtype_to_real(nn_dtype dt);
/* An integer dtype (not bool): int64, int32, int16, int8, uint8. */
bool nn_dtype_is_int(nn_dtype dt);
/* A storage-only dtype that ops widen (int32 ... bfloat16). */
bool nn_dtype_is_narrow(nn_dtype dt);
/* The dtype the kernels compute [dt] in: float16/bfloat16 -> float32,
 * int32/int16/int8/uint8 -> int64, others themselves. */
nn_dtype nn_dtype_compute(nn_dtype dt);
/* PyTorch's torch.promote_types for two dtypes (no scalar rules). */
nn_dtype nn_dtype_promote_types(nn_dtype a, nn_dtype b);
/* PyTorch's torch.can_cast: no float to an integer, nothing but bool to
 * bool (what an in-place op's result must pass to land in its tensor). */
bool nn_dtype_can_cast(nn_dtype from, nn_dtype to);
/* Whether the double [v] converts to integer dtype [dt] without overflow
 * (what torch.tensor([300], dtype=torch.uint8) checks); true for floats. */
bool nn_dtype_value_fits(nn_dtype dt, double v);

/* ---- element conversion, as PyTorch's CPU casts do ----
 * float -> float16/bfloat16 rounds to nearest even, keeps NaN and inf;
 * float16 overflows to inf. A double goes through float first, as c10 does.
 * float -> integer truncates toward zero through int32 (x86's cvtt: NaN and
 * out-of-range give INT32_MIN) and then wraps to the narrow type; int64 ->
 * narrower ints wraps. Any -> bool is nonzero. */
uint16_t nn_f32_to_f16(float f);
float nn_f16_to_f32(uint16_t h);
uint16_t nn_f32_to_bf16(float f);
float nn_bf16_to_f32(uint16_t h);
/* One element at [p] of dtype [dt] as double (int64 beyond 2^53 rounds;
 * complex: the real part, as a cast to a real dtype takes it). */
double nn_dtype_load(nn_dtype dt, const void *p);
void nn_dtype_store(nn_dtype dt, void *p, double v);
/* One integer or bool element exactly. */
int64_t nn_dtype_load_int(nn_dtype dt, const void *p);
/* The dtype two operands compute in (PyTorch's promotion, with wrapped
 * scalars not widening a tensor's float type). */
nn_dtype nn_dtype_promote(const nn_tensor *a, const nn_tensor *b);
/* The same over [n] operands (torch.result_type). */
nn_dtype nn_dtype_result_type(const nn_tensor *const *ts, int n);
/* c10's ScalarType name: "Float", "Long", "Half", "BFloat16", ... */
const char *nn_dtype_scalar_name(nn_dtype dt);

/* ---- lifetime ---- */
nn_tensor *nn_tensor_retain(nn_tensor *t);
void nn_tensor_release(nn_tensor *t);

/* ---- creation ---- */
nn_tensor *nn_tensor_empty(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
/* An empty tensor with the given element strides, a dense layout of shape. */
nn_tensor *nn_tensor_empty_strided(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                   const int64_t *strides);
/* The same in a block that outlives the step (NN_MEM_LASTING). */
nn_tensor *nn_tensor_empty_lasting(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_zeros(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
/* The same in a block of memory no block has had yet (NN_MEM_FRESH),
 * for state made once after a step and kept (an optimizer's moments). */
nn_tensor *nn_zeros_fresh(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_ones(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_full(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape, double value);
nn_tensor *nn_zeros_like(nn_ctx *ctx, const nn_tensor *t);
nn_tensor *nn_arange(nn_ctx *ctx, double start, double end, double step, nn_dtype dt);
nn_tensor *nn_linspace(nn_ctx *ctx, double start, double end, int64_t steps, nn_dtype dt);
nn_tensor *nn_eye(nn_ctx *ctx, int64_t n, int64_t m, nn_dtype dt);
nn_tensor *nn_rand(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_randn(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape);
nn_tensor *nn_randint(nn_ctx *ctx, int64_t low, int64_t high, int ndim, const int64_t *shape);
/* From [numel] doubles in row-major order (the language builds nested lists
 * into this). Values are converted to [dt]. */
nn_tensor *nn_tensor_from_doubles(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                  const double *values);
/* From raw data already in [dt]'s C type; copied. */
nn_tensor *nn_tensor_from_data(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                               const void *data);
/* A tensor over memory that someone else owns ([data], [nbytes] bytes,
 * element [strides]); no copy. [release]([user]) runs when the last
 * reference to the storage goes. Strides must keep every element inside
 * the block. On failure [release] is not called. */
nn_tensor *nn_tensor_from_external(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape,
                                   const int64_t *strides, void *data, size_t nbytes,
                                   void (*release)(void *user), void *user);
/* A 0-dim tensor. [wrapped] marks a plain number from the language. */
nn_tensor *nn_scalar(nn_ctx *ctx, double value, nn_dtype dt);
nn_tensor *nn_scalar_wrapped(nn_ctx *ctx, double value);
/* A plain integer from the language: int64, does not widen a tensor. */
nn_tensor *nn_scalar_wrapped_int(nn_ctx *ctx, int64_t value);

/* ---- shape and element access ---- */
int64_t nn_tensor_numel(const nn_tensor *t);
bool nn_tensor_is_contiguous(const nn_tensor *t);
/* Non-overlapping and dense: numel consecutive elements in some dim order. */
bool nn_tensor_is_dense(const nn_tensor *t);
/* A copy of [t] in [dt] laid out with [strides] (a dense layout of its shape). */
nn_tensor *nn_tensor_copy_strided_raw(nn_ctx *ctx, nn_tensor *t, nn_dtype dt,
                                      const int64_t *strides);
bool nn_tensor_same_shape(const nn_tensor *a, const nn_tensor *b);
/* Whether any element of a contiguous [t] is nonzero ([is_any]; NaN is) or
 * none is zero, read in place with an early exit, into [*out]. False (and
 * nothing read) when [t] is not contiguous or of a dtype this does not read
 * (float16, bfloat16, complex): the caller takes its general path. */
bool nn_tensor_any_all_dense(const nn_tensor *t, bool is_any, bool *out);
/* Whether contiguous [a] and [b] of one dtype and shape hold equal
 * elements (== on floats: NaN is unequal to itself, -0.0 equals 0.0;
 * integers and bools byte for byte), into [*out]. False (nothing read) for
 * other layouts, mixed dtypes and the dtypes above. */
bool nn_tensor_equal_dense(const nn_tensor *a, const nn_tensor *b, bool *out);
/* Pointer to element 0 of the view. */
static inline void *nn_tensor_data(const nn_tensor *t) {
    return (char *)t->storage->data + t->offset * (int64_t)nn_dtype_size(t->dtype);
}
/* Element at flat row-major index [i] of the view, as double. */
/* Element [i] (row-major) as (real, imag); imag 0 for real dtypes. */
void nn_tensor_get_flat_complex(const nn_tensor *t, int64_t i, double *re, double *im);
double nn_tensor_get_flat(const nn_tensor *t, int64_t i);
void nn_tensor_set_flat(nn_tensor *t, int64_t i, double v);
/* Integer or bool element at flat index [i], exactly (no double rounding). */
int64_t nn_tensor_get_flat_int(const nn_tensor *t, int64_t i);
/* The value of a one-element tensor. */
nn_status nn_tensor_item(nn_ctx *ctx, const nn_tensor *t, double *out);
/* Copy all elements, row-major, into [out] (numel doubles). */
void nn_tensor_to_doubles(const nn_tensor *t, double *out);
/* "[2, 3]" */
char *nn_tensor_shape_str(const nn_tensor *t, char *buf, int bufsize);
/* Normalise a possibly negative [dim] for a tensor of [ndim] dims. */
nn_status nn_dim_wrap(nn_ctx *ctx, int64_t dim, int ndim, int *out);

/* A view of [t]'s storage with the given geometry; no autograd, no checks
 * beyond the caller's. Used by view ops. */
nn_tensor *nn_tensor_view_raw(nn_ctx *ctx, const nn_tensor *t, int ndim, const int64_t *shape,
                              const int64_t *strides, int64_t offset);
/* t.view(dtype): the same bytes read as [dt], PyTorch's rules (a different
 * element size scales the last dim, which must be contiguous); no
 * autograd. NULL with ctx->err set (PyTorch's words) when the geometry does
 * not divide, or when [dt] is bool and t's is not. */
nn_tensor *nn_tensor_view_dtype(nn_ctx *ctx, const nn_tensor *t, nn_dtype dt);
/* A copy of [t] laid out contiguously, or a new reference to [t] when it
 * already is; no autograd (see nn_contiguous for the recorded op). */
nn_tensor *nn_tensor_contiguous_raw(nn_ctx *ctx, nn_tensor *t);
/* Convert to [dt] without autograd (new tensor, or a reference when same). */
nn_tensor *nn_tensor_cast_raw(nn_ctx *ctx, nn_tensor *t, nn_dtype dt);

/* Convert [t] itself to float dtype [dt] (any of the four): its data is replaced by a
 * contiguous converted copy (the header, and so every holder of this
 * tensor, sees the new dtype; other views of the old storage keep the old
 * data). Its gradient is converted too. What module.double() does to each
 * parameter. Only between float dtypes. */
nn_status nn_tensor_convert_(nn_ctx *ctx, nn_tensor *t, nn_dtype dt);

/* [t] takes [src]'s storage, dtype and geometry (what `t.data = src` does);
 * its autograd fields stay. */
void nn_tensor_set_(nn_tensor *t, const nn_tensor *src);

/* ---- autograd fields ---- */
/* Alias sharing data, with no autograd history. */
nn_tensor *nn_tensor_detach(nn_ctx *ctx, nn_tensor *t);
nn_status nn_tensor_requires_grad_(nn_ctx *ctx, nn_tensor *t, bool on);
/* Borrowed: the accumulated gradient of a leaf, or the retained gradient of
 * a non-leaf after backward; NULL when there is none. */
nn_tensor *nn_tensor_grad(const nn_tensor *t);
nn_status nn_tensor_retain_grad(nn_ctx *ctx, nn_tensor *t);
bool nn_tensor_is_leaf(const nn_tensor *t);
/* Drop a leaf's gradient (set_to_none, as PyTorch's zero_grad does). */
void nn_tensor_clear_grad(nn_tensor *t);

/* ---- in-place ops for setting up experiments ----
 * On a leaf that requires grad they need no_grad mode (as in PyTorch); they
 * are not recorded by autograd. Each bumps the storage version, so a
 * backward that needs the old values reports the overwrite. */
nn_status nn_tensor_copy_(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src); /* src broadcasts */
nn_status nn_tensor_fill_(nn_ctx *ctx, nn_tensor *t, double value);
nn_status nn_tensor_zero_(nn_ctx *ctx, nn_tensor *t);
nn_status nn_tensor_add_(nn_ctx *ctx, nn_tensor *t, nn_tensor *other, double alpha);
nn_status nn_tensor_mul_(nn_ctx *ctx, nn_tensor *t, nn_tensor *other);
nn_status nn_tensor_mul_scalar_(nn_ctx *ctx, nn_tensor *t, double s);
nn_status nn_tensor_clamp_(nn_ctx *ctx, nn_tensor *t, double lo, double hi);
nn_status nn_tensor_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std);
nn_status nn_tensor_uniform_(nn_ctx *ctx, nn_tensor *t, double lo, double hi);
/* Whether [t]'s bytes are gone while it still has elements: a view of FSDP's
 * flat parameter between uses (nn_dist_flat_free), whose storage reads as
 * size 0. Reading or writing its data must not happen. */
static inline bool nn_tensor_released(const nn_tensor *t) {
    return t->storage->data == NULL && nn_tensor_numel(t) > 0;
}
/* A header with [t]'s dtype and geometry over a storage with no bytes
 * (nn_tensor_released is then true for it): what an autograd node keeps of
 * a value its backward does not read, so the value itself is freed once
 * nothing else holds it, while shapes (for gradients, costs, the graph
 * view) stay. Reading it fails with a message that says so. */
nn_tensor *nn_tensor_husk(nn_ctx *ctx, const nn_tensor *t);
/* The same, reporting a failure in [err] (no context at hand). */
nn_tensor *nn_tensor_husk_err(nn_error *err, const nn_tensor *t);
/* A 1-D uint8 tensor of [n] bytes, uninitialised; NULL and [err] set when
 * memory runs out. */
nn_tensor *nn_tensor_bytes_err(nn_error *err, int64_t n);
/* NN_OK, or PyTorch's error for a tensor whose storage has size 0 ("setStorage:
 * sizes [..], strides [..], storage offset k, and itemsize n requiring a
 * storage size of m are out of bounds for storage of size 0") in ctx->err. */
nn_status nn_tensor_check_storage(nn_ctx *ctx, const nn_tensor *t);
/* Whether an in-place write to [t] is allowed now; fills ctx->err if not. */
nn_status nn_tensor_check_inplace(nn_ctx *ctx, const nn_tensor *t, const char *opname);

/* ---- in-place writes recorded by autograd (nn_inplace.c) ----
 * Whether writing [other] (may be NULL) into [t] in place must be recorded
 * (gradients on, and t or other requires grad). */
bool nn_inplace_records(const nn_ctx *ctx, const nn_tensor *t, const nn_tensor *other);
/* The writes that cannot be recorded, with PyTorch's errors: into a leaf
 * that requires grad, through a view of one, through a view made in
 * no_grad mode or an output of unbind/split/chunk. */
nn_status nn_inplace_check(nn_ctx *ctx, const nn_tensor *t, const char *opname);
/* PyTorch's "a view of a leaf Variable ..." refusal when [t] is a view (a
 * chain of views) of a leaf that requires grad; NN_OK otherwise. */
nn_status nn_inplace_check_leaf_view(nn_ctx *ctx, const nn_tensor *t);
/* [t] takes the values of [r] (same shape; computed out of place from t
 * and recorded) and r's history. Bumps t's storage version. When [t] is a
 * view, its base takes the history (a CopySlices node) and t becomes a view
 * of that (AsStridedBackward0), as in PyTorch. */
nn_status nn_tensor_assign_(nn_ctx *ctx, nn_tensor *t, nn_tensor *r);
/* t[...] = value (broadcast, converted to t's dtype), recorded when it must
 * be (nn_inplace_records): t, or its base when t is a view, takes the
 * history CopySlices, whose backward sends the gradient of t's elements to
 * [value] and none to t's old values. What copy_, fill_ and zero_ do to a
 * tensor with history. Not recorded: a plain copy_. */
nn_status nn_tensor_write_(nn_ctx *ctx, nn_tensor *t, nn_tensor *value);

/* ---- views and their bases (nn_inplace.c) ---- */
/* Whether [t] is a view of its base now (t->base set, same storage). */
static inline bool nn_tensor_is_view(const nn_tensor *t) {
    return t->base && t->base->storage == t->storage;
}
/* Whether [t] is a view whose history may no longer match its base's (the
 * storage changed since its grad_fn was set): one load and compare. */
static inline bool nn_view_stale(const nn_tensor *t) {
    return t->base && t->view_version != t->storage->version;
}
/* Make a stale view's history match its base's again: a view of the
 * base's current history (AsStridedBackward0) when the base requires grad,
 * PyTorch's error for a view that may not have its history rewritten (made
 * in no_grad mode, an output of unbind/split/chunk). NN_OK for a view that
 * is not stale. */
nn_status nn_view_refresh(nn_ctx *ctx, nn_tensor *t);
/* Mark [t] (a view) as output [i] of a function that returns several views
 * ([fn]: its node's name, a static string), which PyTorch refuses to write
 * in place while gradients are recorded. */
void nn_view_mark_multi(nn_tensor *t, const char *fn, int i);
/* The positions of [v]'s elements in its base's row-major order, as an
 * int64 tensor of v's shape; NULL with ctx->err set if [v] is no view. */
nn_tensor *nn_view_positions(nn_ctx *ctx, const nn_tensor *v);

#endif
