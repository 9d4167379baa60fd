/* nn_ops_impl: what op implementations share (engine-internal; front ends do
 * not include this). Declares every op's forward/backward pair from the op
 * table, the strided iterator the elementwise and reduction kernels run on,
 * and small helpers.
 *
 * An op's forward reads node->in[i].t and node->p, returns a new output
 * tensor (or NULL with ctx->err set), and may put extra tensors for its
 * backward in node->saved[] (released with the node). When node->recorded
 * is false nobody will call the backward, so the forward may skip saving.
 *
 * An op's backward gets [dout] (shape of the output) and writes din[i] (new
 * references) for each input with node->in[i].needs_grad; other entries stay
 * NULL. din[i] may have the broadcast shape: the engine sums it down to the
 * input's shape. Backwards may call the public ops: inside an op they run
 * directly, with no hooks and no recording.
 */
#ifndef NN_OPS_IMPL_H
#define NN_OPS_IMPL_H

#include "nn_ops.h"
#include "nn_thread.h"

typedef nn_tensor *(*nn_forward_fn)(nn_ctx *ctx, nn_node *node);
typedef nn_status (*nn_backward_fn)(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din);

#define NN_OP(E, fn, name)                                                                         \
    nn_tensor *op_##fn##_forward(nn_ctx *ctx, nn_node *node);                                      \
    nn_status op_##fn##_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din);
#define NN_OP_NOGRAD(E, fn, name) nn_tensor *op_##fn##_forward(nn_ctx *ctx, nn_node *node);
#include "nn_ops.def"
#undef NN_OP
#undef NN_OP_NOGRAD

/* ---- costs ----
 * Each op family counts its own ops' forward FLOPs and bytes next to their
 * kernels (nn_node_cost in nn_graph.c asks each in turn). Returns false for
 * an op of another family. [c] starts zeroed with the generic byte counts
 * (inputs read, output written), which a family may change (views). With
 * [backward], a family that knows its backward exactly (the matrix
 * products) fills the backward cost and returns true through *exact. */
bool nn_cost_elementwise(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_reduce(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_matmul(const nn_node *n, const nn_tensor *out, bool backward, nn_op_cost *c);
bool nn_cost_shape(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_nn(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
/* ops_math.c, ops_scan.c and ops_index.c (in ops_index.c) */
bool nn_cost_more(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
/* ops_more.c */
bool nn_cost_pointwise_more(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_special(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_fused(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_conv(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_norm(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
bool nn_cost_attn(const nn_node *n, const nn_tensor *out, nn_op_cost *c);
/* Elements of [t] as a double (0 for NULL). */
double nn_cost_numel(const nn_tensor *t);
double nn_cost_bytes(const nn_tensor *t);

/* ---- complex paths (ops_complex.c, views in ops_fft.c) ---- */
/* Whether any input of [node] is complex. */
bool nn_complex_involved(const nn_node *node);
/* add, sub, mul or div (node->op) of two inputs, one at least complex. */
nn_tensor *nn_complex_binary(nn_ctx *ctx, nn_node *node);
nn_tensor *nn_complex_neg(nn_ctx *ctx, nn_tensor *x);
/* One bit per element of the contiguous float32/float64 [y], in order, set
 * where y is not <= 0 (relu's backward, ops_elementwise.c). */
void nn_relu_sign_bits(const nn_tensor *y, uint8_t *bits);
nn_tensor *nn_complex_abs(nn_ctx *ctx, nn_tensor *x);
nn_tensor *nn_complex_abs_grad(nn_ctx *ctx, nn_tensor *x, nn_tensor *dout);
/* == (or != with [ne]) of two inputs, one at least complex. */
nn_tensor *nn_complex_compare(nn_ctx *ctx, nn_node *node, bool ne);
/* sum (or mean) of a complex input over node->p's dims. */
nn_tensor *nn_complex_reduce(nn_ctx *ctx, nn_node *node, bool mean);
/* Raw views (no autograd): complex as real with a last dim 2, and back. */
nn_tensor *nn_complex_as_real_raw(nn_ctx *ctx, const nn_tensor *t);
nn_tensor *nn_real_as_complex_raw(nn_ctx *ctx, const nn_tensor *t);

/* ---- strided iteration ----
 * An iteration space (shape) and up to NN_ITER_MAX_ARGS operands, each with
 * byte strides over that space (0 where it broadcasts). nn_iter_run merges
 * dims that are contiguous for every operand and calls [loop] once per
 * innermost row with the row's base pointers and byte strides. */
#define NN_ITER_MAX_ARGS 5

typedef struct nn_iter {
    int ndim, nargs;
    int64_t shape[NN_MAX_DIMS];
    int64_t strides[NN_ITER_MAX_ARGS][NN_MAX_DIMS];
    char *data[NN_ITER_MAX_ARGS];
} nn_iter;

typedef void (*nn_iter_loop)(char **data, const int64_t *strides, int64_t n, void *arg);

void nn_iter_init(nn_iter *it, int ndim, const int64_t *shape);
/* Add [t] broadcast to the iteration shape (t must be broadcastable). */
void nn_iter_add(nn_iter *it, const nn_tensor *t);
/* Add [t] with explicit element strides over the iteration shape. */
void nn_iter_add_strided(nn_iter *it, const nn_tensor *t, const int64_t *elem_strides);
void nn_iter_run(nn_iter *it, nn_iter_loop loop, void *arg);
/* nn_iter_run split across the engine's threads (nn_thread.h) when the space
 * holds at least 2 x [min_per_task] elements and operand 0, the output, is
 * written once per element; serial otherwise. [loop] must only write
 * operand 0 and keep no state across calls. */
void nn_iter_run_parallel(nn_iter *it, nn_iter_loop loop, void *arg, int64_t min_per_task);
/* nn_iter_run for a reduction: operand 0 is the accumulator, read and
 * written, with stride 0 on the reduced dims. Split across the engine's
 * threads over one kept dim, each output element on one task with the
 * serial loop's order (the same bits at any thread count), when the space
 * holds at least 2 x [min_per_task] elements; serial otherwise (a full
 * reduction always). */
void nn_iter_run_reduce_parallel(nn_iter *it, nn_iter_loop loop, void *arg, int64_t min_per_task);
/* The strides PyTorch gives an elementwise op's new output of [shape] over
 * the tensor operands [ops] in their order (nn_iter.c says the rule):
 * true with [strides] set when that is not row-major; false for a
 * contiguous output. */
/* The runs PyTorch's vectorised elementwise loop (cpu_kernel_vec) walks
 * over a strided [a] in row-major order, each with its own scalar tail:
 * their length, 0 for the scalar op throughout, numel for one run
 * (ops_elementwise.c says more). */
int64_t nn_vector_runs(const nn_tensor *a);
bool nn_elementwise_layout(int nd, const int64_t *shape, int n, const nn_tensor *const *ops,
                           int64_t *strides);
/* Elements per task below which a kernel stays on one thread, measured at
 * 2 threads with bench/python/threads.py (docs/benchmarks.md, "The engine's
 * thread threshold"): memory-bound loops (add, copies, where, optimizers,
 * layer norm) 98304; dear ones with exp, erf or tanh per element (GELU,
 * SiLU, softplus, softmax and cross-entropy rows) a quarter of it; the
 * reductions over dims, which gain least from a second core, twice it. */
#define NN_PAR_MIN_ELEMWISE (nn_par_min_elemwise())
#define NN_PAR_MIN_DEAR     (nn_par_min_elemwise() / 4)
#define NN_PAR_MIN_REDUCE   (nn_par_min_elemwise() * 2)

/* Broadcast two shapes; the error names both. */
nn_status nn_broadcast_shapes(nn_ctx *ctx, int na, const int64_t *a, int nb, const int64_t *b,
                              int *nout, int64_t *out);

/* Reduction geometry: normalise [dims] for [ndim] dims into a mask; n_dims
 * 0 or dims NULL marks all. Errors name the bad dim. */
nn_status nn_reduce_mask(nn_ctx *ctx, int ndim, const int64_t *dims, int n_dims,
                         bool mask[NN_MAX_DIMS]);
/* Output shape of a reduction over [mask]. Returns its ndim. */
int nn_reduce_shape(const nn_tensor *a, const bool mask[NN_MAX_DIMS], bool keepdim,
                    int64_t *out_shape);

/* nn_dim_wrap with torch's IndexError text ("Dimension out of range
 * (expected to be in range of [-2, 1], but got 2)"); a 0-dim tensor takes
 * dims -1 and 0. Used by ops_math.c, ops_scan.c and ops_index.c. */
nn_status nn_dim_wrap_torch(nn_ctx *ctx, int64_t dim, int ndim, int *out);

/* Raw (unrecorded) helpers the engine and kernels share. */
nn_status nn_raw_add_into(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src, double alpha);

/* The backward of a select or slice [node] as an addition of [dout] into
 * its window of [full], the input's gradient being accumulated, instead of
 * a zero tensor of the input's size per call: a loop over x[t] then costs
 * O(T), not O(T^2), in backward (nn_graph.c decides when it applies). */
nn_status nn_view_grad_add(nn_ctx *ctx, const nn_node *node, nn_tensor *full, nn_tensor *dout);
/* The backward of an embedding [node] as a scatter-add of [dout]'s rows
 * into [full], the weight's gradient already being accumulated (a weight
 * tied to an output layer), instead of a dense zero table of the weight's
 * size added to it: at GPT-2's vocabulary that table is 150 MiB at the
 * step's peak. Same bits as the dense way (nn_graph.c decides when).
 * *[nonfinite] (may be NULL) is set to whether the dense gradient holds a
 * non-finite value: its rows are summed here before they are added, so the
 * NaN hunt learns it without building that gradient. */
nn_status nn_embedding_grad_add(nn_ctx *ctx, const nn_node *node, nn_tensor *full, nn_tensor *dout,
                                bool *nonfinite);
/* A linear node's backward that adds the weight's gradient into [wgrad],
 * the weight's accumulated .grad (contiguous, the weight's shape and
 * dtype), with the gemm itself (beta = 1): no zeroed temporary and no
 * separate addition, as a recurrent layer's weights want once per step.
 * din[1] stays NULL. nn_linear_grad_into_ok says when the bits equal
 * those of dW then wgrad + dW (nn_graph.c decides the rest). */
bool nn_linear_grad_into_ok(const nn_node *node, const nn_tensor *dout);
nn_status nn_linear_grad_into(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                              nn_tensor *wgrad);

/* Kernels compiled three times, for baseline x86-64, x86-64-v3 (AVX2, FMA)
 * and x86-64-v4 (AVX-512); the dynamic loader picks the version the CPU runs
 * best (GCC's function multiversioning), so one binary is both portable and
 * fast.
 * Results are the same: ISO C mode keeps FMA contraction off. Not under
 * the sanitizers, whose runtimes do not take ifuncs well. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                             \
    !defined(__SANITIZE_ADDRESS__)
#define NN_KERNEL_CLONES                                                                           \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define NN_KERNEL_CLONES
#endif

/* The float32/float64 sum of [x] over the dims set in [mask] into [out]
 * (contiguous, x's dtype, the reduction's shape), in PyTorch's order of
 * additions for the thread count set (ops_sum.c). false for other dtypes. */
bool nn_sum_pytorch_order(const nn_tensor *x, const bool *mask, nn_tensor *out);
/* The sum of one contiguous row of [n] >= 8 floats (4 doubles) as that
 * order sums each row of a reduction over the contiguous last dims of a
 * tensor with more than one row (or under 32768 elements, or one thread). */
float nn_sum_row_f32(const float *x, int64_t n);
double nn_sum_row_f64(const double *x, int64_t n);
/* amax (or amin) of [x] over the dims set in [mask] into [out] (contiguous,
 * x's dtype), as PyTorch's kernel: its NaN bits and signed zeros, for the
 * thread count set (ops_sum.c). false for dtypes other than float32/64,
 * int64, uint8 and bool. */
bool nn_extreme_pytorch_order(const nn_tensor *x, const bool *mask, nn_tensor *out, bool is_max);
/* var (or std with [take_sqrt]) of every element of float32/float64 [x],
 * as PyTorch's CPU kernel for a reduction over all dims: the mean in x's
 * type, then the squared deviations summed in double in its iterator's
 * order and thread split. The mean and the result, as doubles (the caller
 * rounds to x's type); false for other dtypes. */
bool nn_var_all_pytorch_order(const nn_tensor *x, double correction, bool take_sqrt, double *mean,
                              double *result);

/* For the reductions that need a float input (mean, var, std, norm): set
 * torch's RuntimeError for [dt] and return true; false for other ops. */
bool nn_reduce_needs_float(nn_ctx *ctx, const char *op, nn_dtype dt);

/* The dtype of an input as a float compute type (ints, bools, float16 and
 * bfloat16 -> float32). */
static inline nn_dtype nn_float_dtype(nn_dtype dt) {
    return dt == NN_FLOAT64 ? NN_FLOAT64 : NN_FLOAT32;
}

/* [a] cast to [dt] and made contiguous: the flat input of a kernel that
 * reads a plain array. NULL with ctx->err set when an allocation fails. */
static inline nn_tensor *nn_contiguous_as(nn_ctx *ctx, nn_tensor *a, nn_dtype dt) {
    nn_tensor *ca = nn_tensor_cast_raw(ctx, a, dt);
    nn_tensor *c = ca ? nn_tensor_contiguous_raw(ctx, ca) : NULL;
    nn_tensor_release(ca);
    return c;
}

/* A float map's operands: [a] as [dt] (*in, a new reference) and a new
 * output of a's shape, returned. A dense layout (a transpose, a permute) is
 * kept and both are walked as flat memory, as PyTorch's TensorIterator
 * does; a non-dense [a] whose dims are not in row-major order (x.t()[::2])
 * is copied into the layout TensorIterator gives its output
 * (nn_elementwise_layout), and any other [a] copied contiguous. *dense
 * (unless NULL) says whether [a] was dense. NULL, with nothing held and
 * ctx->err set, when an allocation fails. */
static inline nn_tensor *nn_map_operands(nn_ctx *ctx, nn_tensor *a, nn_dtype dt, nn_tensor **in,
                                         bool *dense) {
    bool plain = a->ndim < 2 || nn_tensor_is_contiguous(a);
    bool d = !plain && nn_tensor_is_dense(a);
    int64_t st[NN_MAX_DIMS];
    const nn_tensor *ops[1] = {a};
    bool perm = !plain && !d && nn_elementwise_layout(a->ndim, a->shape, 1, ops, st);
    const int64_t *lay = d ? a->strides : st;
    nn_tensor *c = perm             ? nn_tensor_copy_strided_raw(ctx, a, dt, st)
                   : !d             ? nn_contiguous_as(ctx, a, dt)
                   : a->dtype == dt ? nn_tensor_retain(a)
                                    : nn_tensor_copy_strided_raw(ctx, a, dt, a->strides);
    nn_tensor *out = !c          ? NULL
                     : d || perm ? nn_tensor_empty_strided(ctx, dt, a->ndim, a->shape, lay)
                                 : nn_tensor_empty(ctx, dt, a->ndim, a->shape);
    if (!out) {
        nn_tensor_release(c);
        return NULL;
    }
    *in = c;
    if (dense) *dense = d;
    return out;
}

/* The unary math kernels' scaffolding: out[i] = f32(which, a[i]) (or f64)
 * over [a] in its float type (ints and bools compute in float32), a dense
 * layout kept (nn_map_operands: one value at a time, so the order of the
 * walk does not change a bit). Inline so
 * that each caller's f32/f64 become direct calls its compiler can inline
 * and vectorize. Returns a new tensor, or NULL with ctx->err set. */
static inline nn_tensor *nn_unary_float_map(nn_ctx *ctx, nn_tensor *a, int which,
                                            float (*f32)(int which, float x),
                                            double (*f64)(int which, double x)) {
    nn_dtype dt = nn_float_dtype(a->dtype);
    nn_tensor *c = NULL;
    nn_tensor *out = nn_map_operands(ctx, a, dt, &c, NULL);
    if (!out) return NULL;
    int64_t n = nn_tensor_numel(out);
    if (dt == NN_FLOAT32) {
        const float *x = nn_tensor_data(c);
        float *y = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) y[i] = f32(which, x[i]);
    } else {
        const double *x = nn_tensor_data(c);
        double *y = nn_tensor_data(out);
        for (int64_t i = 0; i < n; i++) y[i] = f64(which, x[i]);
    }
    nn_tensor_release(c);
    return out;
}

#endif
