/* nn_graph: autograd nodes, the executor and its hooks, and backward.
 *
 * Every op call goes through nn_exec: it calls the hooks registered on the
 * context before and after the node, runs the op's forward, and, when
 * gradients are needed, records a node. backward() walks the recorded nodes
 * in reverse creation order through the same hooks. A node is refcounted:
 * by the tensor it produced (grad_fn) and by the nodes that consumed that
 * tensor; it comes from the engine's memory pool and goes back when the last
 * reference does. Nodes hold their inputs (leaves themselves, non-leaves as
 * aliases without history) and an alias of their output, so the debugger can
 * show every value; backward() without retain_graph frees these. While no
 * hook keeps values (nn_hook_set_keeps_values), a node holds only what its
 * backward reads, the rest as husks (shape, no bytes).
 */
#ifndef NN_GRAPH_H
#define NN_GRAPH_H

#include "nn_tensor.h"

typedef enum nn_op {
#define NN_OP(E, fn, name)        NN_OP_##E,
#define NN_OP_NOGRAD(E, fn, name) NN_OP_##E,
#include "nn_ops.def"
#undef NN_OP
#undef NN_OP_NOGRAD
    NN_OP_COUNT
} nn_op;

const char *nn_op_name(nn_op op);
bool nn_op_is_differentiable(nn_op op);
/* Op by name ("matmul"), or -1. */
int nn_op_from_name(const char *name);

/* Parameters of a node; each op documents which fields it uses. */
typedef struct nn_params {
    int64_t dims[NN_MAX_DIMS]; /* reduce dims, permutation, target shape */
    int n_dims;                /* <= 0: all dims (reductions) */
    int64_t i[4];              /* integer parameters (dim, start, stop, step, ...) */
    double f[4];               /* float parameters (slope, eps, p, ...) */
    bool keepdim;
    int flags;
} nn_params;

/* flags of a "to" node that rounds a narrow-dtype op's result back to the
 * narrow dtype (nn_exec): its input's node is the op the user called. */
#define NN_TO_ROUNDS_OP 1
/* flags of a put node (CopySlices) recorded for a write through a view
 * (nn_inplace.c): the base's new history, whatever op made the base */
#define NN_PUT_VIEW_WRITE 1

/* Where a node was recorded: set by front ends with nn_ctx_set_label.
 * Strings are interned in the context and live as long as it. */
typedef struct nn_label {
    const char *module; /* "model.2", or NULL */
    const char *file;   /* "train.nn", or NULL */
    int line;           /* 0 when unknown */
} nn_label;

typedef struct nn_input {
    nn_tensor *t;     /* leaf: the tensor itself; non-leaf: alias without history */
    nn_node *fn;      /* producer of a non-leaf input, else NULL */
    uint32_t version; /* storage version when recorded */
    bool needs_grad;
    bool dropped; /* [t] is a husk: backward does not read this input's values */
    /* [t] is a husk whose values the producer [fn] makes again from its own
     * kept inputs when backward reads them (nn_node_restore_inputs) */
    bool recompute;
} nn_input;

#define NN_NODE_INLINE_INPUTS 4

struct nn_node {
    int32_t refcount;
    nn_op op;
    uint64_t seq; /* creation order; backward runs in decreasing seq */
    int n_in;
    nn_input *in; /* in_inline, or a pooled array for many inputs (cat) */
    nn_input in_inline[NN_NODE_INLINE_INPUTS];
    nn_tensor *out;       /* alias of the output, no history */
    uint32_t out_version; /* the output's storage version when recorded */
    nn_dtype out_dtype;   /* the output's dtype and shape, kept when backward frees [out] */
    int out_ndim;
    int64_t out_shape[NN_MAX_DIMS];
    nn_tensor *saved[2]; /* op-specific tensors (indices, masks, statistics) */
    nn_params p;
    nn_label label;
    nn_tensor *grad;          /* d loss / d out, while backward runs */
    nn_tensor *retained_grad; /* kept when the output called retain_grad */
    bool recorded;            /* false for nodes that only ran (no autograd) */
    bool retain;              /* keep the output's gradient */
    bool freed;               /* saved tensors released by backward */
    bool out_dropped;         /* [out] is a husk: backward does not read the output */
    /* The storage the output shares with input 0 (a view), recorded before
     * either became a husk; for identity checks only (no reference held:
     * a tensor that has this node as grad_fn and this storage keeps it). */
    const void *view_of;
    uint32_t visit; /* traversal mark */
    nn_node *link;  /* scratch list link */
};

void nn_node_retain(nn_node *n);
void nn_node_release(nn_node *n);
/* [s], kept by node [n] (s->keeper), has lost every reference but
 * [n]'s own. [s] is the output of a relu [n]: [n] keeps one bit per
 * element (saved[0]: set where the output is not <= 0) and a husk of the
 * output, and the bytes go. [s] is the input of a linear [n] that a GELU
 * or a layer norm made from inputs it keeps: [n] holds a husk of it
 * (nn_input.recompute) and the bytes go. Does nothing while a backward
 * pass runs or if memory is short. */
void nn_node_output_orphaned(nn_node *n, nn_storage *s);
/* Make again the inputs of [n] that it let go to be recomputed
 * (nn_input.recompute), before its backward or a rule written over its
 * inputs reads them. NN_OK, or the error with ctx->err set (the producer's
 * saved tensors freed or changed in place, out of memory). */
nn_status nn_node_restore_inputs(nn_ctx *ctx, nn_node *n);
/* [n]'s output as its backward reads it: [n]->out retained, or for a relu
 * that keeps its bits, a new tensor of 1 where the output is above zero
 * (or NaN) and 0 elsewhere (for rules written over the output, e.g.
 * torch/autograd/_higher.py's). NULL with ctx->err set on failure. */
nn_tensor *nn_node_output(nn_ctx *ctx, const nn_node *n);

/* [t], which had no history, is about to take [root] as its history (an
 * in-place write recorded on it): nodes under [root] that hold t itself as
 * a leaf input (the write's own node reads t's old values) hold an alias of
 * it instead, so that t and its history do not hold each other. Walks the
 * graph under [root] once. */
void nn_graph_unhold(nn_ctx *ctx, nn_node *root, nn_tensor *t);

/* ---- hooks ---- */
typedef enum nn_phase { NN_PHASE_FORWARD, NN_PHASE_BACKWARD } nn_phase;

typedef struct nn_hook_event {
    nn_phase phase;
    bool after;              /* false: before the node runs */
    nn_node *node;           /* op, params, label, inputs (node->in[i].t) */
    nn_tensor *output;       /* forward: the output once computed; backward: forward's output */
    nn_tensor *grad_output;  /* backward: d loss / d output */
    nn_tensor **grad_inputs; /* backward, after: one per input, NULL where none */
    int64_t position;        /* backward: this node is the position-th (from 1) of count */
    int64_t count;           /* backward: nodes the pass visits; forward: 0 */
} nn_hook_event;

typedef enum nn_hook_action { NN_HOOK_CONTINUE, NN_HOOK_STOP } nn_hook_action;

/* A hook may inspect anything in [ev]; it must not release what it is given.
 * Returning NN_HOOK_STOP aborts the pass with NN_ERR_STOPPED (or the error the
 * hook set in ctx->err); the recorded graph stays for inspection. */
typedef nn_hook_action (*nn_hook_fn)(nn_ctx *ctx, const nn_hook_event *ev, void *user);

/* Register a hook; returns its id (> 0), or 0 when the table is full. */
int nn_hook_add(nn_ctx *ctx, const char *name, nn_hook_fn fn, void *user);
void nn_hook_remove(nn_ctx *ctx, int id);
/* Optional second callback of hook [id]: called once when a backward pass
 * that ran at least one node ends ([ok] false after an error or a stop),
 * before nn_backward returns. DistributedDataParallel waits for its
 * gradient all-reduces here. An error it returns (with ctx->err set) is
 * backward's error when the pass itself succeeded. */
typedef nn_status (*nn_hook_end_fn)(nn_ctx *ctx, bool ok, void *user);
void nn_hook_set_backward_end(nn_ctx *ctx, int id, nn_hook_end_fn end);
/* Mark hook [id] as one that only times nodes (the profiler): backward then
 * keeps its shortcuts that hand a hook no input gradient (a select's or a
 * slice's added straight into the gradient being summed). */
void nn_hook_set_timing_only(nn_ctx *ctx, int id);
/* Mark hook [id] as one that reads a node's input gradients only to find
 * non-finite values (the NaN hunt). Backward then keeps the shortcut that
 * adds a tied embedding's weight gradient straight into the gradient
 * already summed (no dense gradient of the whole table): it takes it only
 * when that sum is finite, and if the sum is not finite afterwards it
 * builds the embedding's own input gradient again for the hook to see. */
void nn_hook_set_nonfinite_only(nn_ctx *ctx, int id, bool on);
/* Mark hook [id] as one that looks at recorded nodes' inputs and outputs
 * after they ran (the debugger: a backward stop, the graph view, the NaN
 * hunt's report). While such a hook is registered, a recorded node keeps
 * every input and its output until backward. Otherwise it keeps only what
 * its backward reads (PyTorch's saved tensors: relu its output, conv its
 * input and weight, add nothing) and holds the rest as husks
 * (nn_tensor_husk: shape and dtype, no bytes), so an intermediate that only
 * the graph held is freed during the forward. */
void nn_hook_set_keeps_values(nn_ctx *ctx, int id);

/* ---- gradient hooks (Tensor.register_hook) ----
 * A function called during backward with the gradient flowing into one
 * tensor: for a non-leaf, its node's output gradient, complete, before the
 * node's backward runs; for a leaf, the sum of this pass's contributions,
 * before it is added to .grad. It returns a replacement (a new reference,
 * same shape) or NULL to keep the gradient; to fail it sets ctx->err and
 * *st. Hooks on one tensor run in the order added. The registry holds the
 * tensor (or its node) until the hook is removed; an entry that nothing
 * else holds any more is dropped, calling [drop](user) when given. The
 * engine knows nothing of the caller: a C function and a user pointer. */
typedef nn_tensor *(*nn_grad_hook_fn)(nn_ctx *ctx, nn_tensor *grad, void *user, nn_status *st);
/* Returns the hook's id (> 0), or 0 with ctx->err set. */
int nn_grad_hook_add(nn_ctx *ctx, nn_tensor *t, nn_grad_hook_fn fn, void *user,
                     void (*drop)(void *user));
void nn_grad_hook_remove(nn_ctx *ctx, int id);
/* Remove every gradient hook (a front end's session ends). */
void nn_grad_hooks_clear(nn_ctx *ctx);

/* ---- cost of a node (for the profiler) ----
 * FLOPs and bytes of one node, from the op family's own count function
 * next to the op (engine/ops/ops_*.c); the conventions are in
 * docs/instruments.md. [out] is the node's output (forward: the hook
 * event's output; backward: node->out). Bytes read are each input's own
 * elements (a broadcast input counts once); bytes written the output's.
 * In backward the inputs' gradients are written and the output gradient
 * read. Added with the profiler (issue 10); the hook API is unchanged. */
typedef struct nn_op_cost {
    double flops;
    double bytes_read, bytes_written;
} nn_op_cost;

void nn_node_cost(const nn_node *node, const nn_tensor *out, nn_phase phase, nn_op_cost *c);

/* ---- executor ----
 * Run [op] on [inputs] with [params] (may be NULL). Returns the output (new
 * reference) or NULL with ctx->err set. Ops called from inside another op's
 * forward or backward run directly: no hooks, no recording. */
nn_tensor *nn_exec(nn_ctx *ctx, nn_op op, nn_tensor *const *inputs, int n_inputs,
                   const nn_params *params);

/* ---- backward ----
 * d[root]/d(leaves). [gradient] may be NULL for a one-element root. Without
 * [retain_graph] the saved tensors of every node visited are freed, and a
 * second backward through them is an error. */
nn_status nn_backward(nn_ctx *ctx, nn_tensor *root, nn_tensor *gradient, bool retain_graph);

/* torch.autograd.grad: the same pass, but the gradients reaching [inputs]
 * come back in grads[i] (new references; NULL for an input the pass did not
 * reach) and no tensor's .grad changes. A non-leaf input's gradient is its
 * output gradient once complete (after its tensor hooks); leaf hooks and
 * retain_grad do not run. The pass still visits every node under [root]. */
nn_status nn_grad(nn_ctx *ctx, nn_tensor *root, nn_tensor *gradient, bool retain_graph,
                  nn_tensor *const *inputs, int n, nn_tensor **grads);

/* ---- a backward pass written above the engine (create_graph) ----
 * torch.autograd.grad(create_graph=True) walks the graph in the language,
 * where each node's gradient is computed with recorded ops. These give it
 * what the engine's own pass uses. */

/* NN_OK when [node]'s backward can still read what it saved; otherwise the
 * error backward() would give (saved tensors freed by an earlier pass
 * without retain_graph, or an input or output changed in place). */
nn_status nn_node_check(nn_ctx *ctx, const nn_node *node);
/* The node's own backward on [dout], as backward() runs it (no hooks, no
 * recording), each gradient fitted to its input's shape and dtype: din[i]
 * (one per input) is a new reference, or NULL where the input needs none. */
nn_status nn_node_vjp(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din);
/* Free the saved tensors of [node], as backward() without retain_graph does. */
void nn_node_free_saved(nn_node *node);
/* Run the gradient hooks of [node]'s output (or of [leaf]) on *grad, which
 * they may replace; NN_OK when there are none. */
nn_status nn_grad_hooks_run(nn_ctx *ctx, nn_node *node, nn_tensor *leaf, nn_tensor **grad);

/* Reentry: a custom node's backward (torch.utils.checkpoint) that runs a
 * forward with recording and a backward pass of its own, inside the
 * engine's backward. nn_graph_reenter saves the pass's state in [s] and
 * makes the context look as at top level (ops record when grad mode is on,
 * backward may run); nn_graph_leave restores it. */
typedef struct nn_graph_reentry {
    int depth;
    bool grad_enabled;
    nn_node **order;
    size_t order_cap;
    void *pending; /* the outer pass's hooked leaves' sums, kept aside */
    int n_pending, cap_pending;
} nn_graph_reentry;
void nn_graph_reenter(nn_ctx *ctx, nn_graph_reentry *s);
void nn_graph_leave(nn_ctx *ctx, const nn_graph_reentry *s);

/* Sum [g] down to [shape] (undoing broadcasting); no autograd. */
nn_tensor *nn_sum_to_shape(nn_ctx *ctx, nn_tensor *g, int ndim, const int64_t *shape);

#endif
