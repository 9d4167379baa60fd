/* The op table, the executor, hooks and backward. */
#include "nn_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_anomaly.h"
#include "nn_ctx.h"
#include "nn_mem.h"
#include "nn_ops_impl.h"

typedef struct op_entry {
    const char *name;
    nn_forward_fn forward;
    nn_backward_fn backward;
} op_entry;

static const op_entry op_table[NN_OP_COUNT] = {
#define NN_OP(E, fn, nm)        [NN_OP_##E] = {nm, op_##fn##_forward, op_##fn##_backward},
#define NN_OP_NOGRAD(E, fn, nm) [NN_OP_##E] = {nm, op_##fn##_forward, NULL},
#include "nn_ops.def"
#undef NN_OP
#undef NN_OP_NOGRAD
};

const char *nn_op_name(nn_op op) {
    return (unsigned)op < NN_OP_COUNT ? op_table[op].name : "?";
}

bool nn_op_is_differentiable(nn_op op) {
    return (unsigned)op < NN_OP_COUNT && op_table[op].backward != NULL;
}

int nn_op_from_name(const char *name) {
    for (int i = 0; i < NN_OP_COUNT; i++)
        if (strcmp(op_table[i].name, name) == 0) return i;
    return -1;
}

/* ---- costs ---- */

double nn_cost_numel(const nn_tensor *t) {
    return t ? (double)nn_tensor_numel(t) : 0;
}

double nn_cost_bytes(const nn_tensor *t) {
    return t ? (double)nn_tensor_numel(t) * (double)nn_dtype_size(t->dtype) : 0;
}

void nn_node_cost(const nn_node *node, const nn_tensor *out, nn_phase phase, nn_op_cost *c) {
    memset(c, 0, sizeof *c);
    nn_op_cost fwd = {0, 0, nn_cost_bytes(out)};
    for (int i = 0; i < node->n_in; i++) fwd.bytes_read += nn_cost_bytes(node->in[i].t);
    if (phase == NN_PHASE_BACKWARD && nn_cost_matmul(node, out, true, c)) return;
    bool known = nn_cost_elementwise(node, out, &fwd) || nn_cost_reduce(node, out, &fwd) ||
                 nn_cost_matmul(node, out, false, &fwd) || nn_cost_shape(node, out, &fwd) ||
                 nn_cost_nn(node, out, &fwd) || nn_cost_more(node, out, &fwd) ||
                 nn_cost_pointwise_more(node, out, &fwd) || nn_cost_special(node, out, &fwd) ||
                 nn_cost_fused(node, out, &fwd) || nn_cost_conv(node, out, &fwd) ||
                 nn_cost_norm(node, out, &fwd) || nn_cost_attn(node, out, &fwd);
    /* A torch.autograd.Function's node runs the user's Python: no FLOP
     * model, its bytes only. Every engine op has one (the assert catches
     * an op added without it). */
    NN_ASSERT(known || node->op == NN_OP_CUSTOM);
    if (phase == NN_PHASE_FORWARD) {
        *c = fwd;
        return;
    }
    /* Backward, outside the matrix products: the output gradient and the
     * inputs are read, each input gradient written, and the FLOPs are the
     * forward's once per input that needs a gradient (an estimate; see
     * docs/instruments.md). */
    c->bytes_read = nn_cost_bytes(out) + fwd.bytes_read;
    for (int i = 0; i < node->n_in; i++) {
        if (!node->in[i].needs_grad) continue;
        c->flops += fwd.flops;
        c->bytes_written += nn_cost_bytes(node->in[i].t);
    }
}

/* ---- node lifetime ---- */

void nn_node_retain(nn_node *n) {
    n->refcount++;
}

/* Drop what a node saved for its backward. [keep_leaves]: keep the leaf
 * inputs (parameters, data), which backward() leaves in place so the graph
 * view can still name them and show their .grad; they cost nothing extra
 * while their owner holds them too. */
static void release_saved(nn_node *n, bool keep_leaves) {
    if (n->out && n->out->storage->keeper == n) n->out->storage->keeper = NULL;
    for (int i = 0; i < n->n_in; i++) {
        if (n->in[i].t && n->in[i].t->storage->keeper == n) n->in[i].t->storage->keeper = NULL;
        if (keep_leaves && !n->in[i].fn) continue;
        nn_tensor_release(n->in[i].t);
        n->in[i].t = NULL;
    }
    nn_tensor_release(n->out);
    nn_tensor_release(n->saved[0]);
    nn_tensor_release(n->saved[1]);
    n->out = n->saved[0] = n->saved[1] = NULL;
}

/* Iterative, so that releasing a long chain (a loop of 10^5 ops) cannot
 * overflow the C stack. */
/* Set while nn_node_release frees a chain of nodes: a relu output their
 * inputs let go belongs to a node about to go too (no bits to make). */
static _Thread_local int nodes_releasing;

void nn_node_release(nn_node *n) {
    if (!n || --n->refcount > 0) return;
    nn_node *stack = n;
    n->link = NULL;
    nodes_releasing++;
    while (stack) {
        nn_node *m = stack;
        stack = m->link;
        /* A front end's record of a custom node goes first, while this
         * node still holds its inputs' nodes: what the record releases
         * (saved tensors) then cannot free a chain of nodes recursively. */
        if (m->op == NN_OP_CUSTOM && m->recorded) {
            nn_custom *c = (nn_custom *)(intptr_t)m->p.i[0];
            if (c && c->drop) c->drop(c);
        }
        release_saved(m, false);
        nn_tensor_release(m->grad);
        nn_tensor_release(m->retained_grad);
        for (int i = 0; i < m->n_in; i++) {
            nn_node *f = m->in[i].fn;
            if (f && --f->refcount == 0) {
                f->link = stack;
                stack = f;
            }
        }
        if (m->in != m->in_inline) nn_mem_free(m->in);
        nn_mem_free(m);
    }
    nodes_releasing--;
}

/* ---- hooks ---- */

static bool run_hooks(nn_ctx *ctx, nn_hook_event *ev) {
    for (int i = 0; i < ctx->n_hooks; i++) {
        nn_hook_slot *h = &ctx->hooks[i];
        nn_error_clear(&ctx->err);
        if (h->fn(ctx, ev, h->user) == NN_HOOK_STOP) {
            if (!ctx->err.code) {
                const nn_label *l = &ev->node->label;
                nn_error_set(&ctx->err, NN_ERR_STOPPED, "stopped by %s %s %s %s%s%s", h->name,
                             ev->after ? "after" : "before",
                             ev->phase == NN_PHASE_FORWARD ? "forward" : "backward",
                             nn_op_name(ev->node->op), l->module ? " in " : "",
                             l->module ? l->module : "");
            }
            return false;
        }
    }
    return true;
}

/* ---- executor ---- */

static nn_status null_input(nn_ctx *ctx, nn_op op, int i) {
    return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: input %d is missing", nn_op_name(op), i);
}

/* ---- narrow dtypes ----
 * The kernels handle float32, float64, int64 and bool. An op with an input
 * in a narrow dtype (float16, bfloat16, int32, int16, int8, uint8) runs on
 * the inputs widened to their compute dtype (nn_to, so autograd flows back
 * to the narrow leaf and its gradient has its dtype), and its result is
 * rounded to the promoted dtype: PyTorch's CPU kernels compute half in
 * float and round once per op, and small ints wrap the same way. */

/* Ops that move elements without arithmetic: they run on any dtype as they
 * are (views stay views), unless autograd records them, whose backwards
 * compute in the compute dtypes. */
static bool moves_only(const char *name) {
    static const char *const names[] = {"reshape",       "permute",    "expand", "slice",
                                        "select",        "contiguous", "cat",    "index",
                                        "masked_select", "to",         "custom"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

/* Ops whose integer results are int64 whatever the integer input (sums
 * and indices), so a small-int input is not narrowed back. */
static bool int_result_is_int64(const char *name) {
    static const char *const names[] = {"sum",     "argmax", "argmin", "cumsum",
                                        "cumprod", "prod",   "nansum", "argsort"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

/* The kernel names torch 1.13's CPU build reports for the ops it has no
 * float16 (or bfloat16) kernel for: nndb raises the same RuntimeError. */
typedef struct missing_kernel {
    const char *op, *kernel;
} missing_kernel;

static const missing_kernel NO_HALF[] = {
    {"exp", "exp_vml_cpu"},
    {"log", "log_vml_cpu"},
    {"log1p", "log1p_vml_cpu"},
    {"sqrt", "sqrt_vml_cpu"},
    {"rsqrt", "rsqrt_cpu"},
    {"tanh", "tanh_vml_cpu"},
    {"sigmoid", "sigmoid_cpu"},
    {"relu", "clamp_min_cpu"},
    {"gelu", "GeluKernelImpl"},
    {"silu", "silu_cpu"},
    {"softplus", "softplus_cpu"},
    {"leaky_relu", "leaky_relu_cpu"},
    {"clamp", "clamp_scalar_cpu"},
    {"logsumexp", "exp_vml_cpu"},
    {"matmul", "addmm_impl_cpu_"},
    {"linear", "addmm_impl_cpu_"},
    {"scaled_dot_product_attention", "addmm_impl_cpu_"},
    {"softmax", "softmax_lastdim_kernel_impl"},
    {"log_softmax", "log_softmax_lastdim_kernel_impl"},
    {"cross_entropy", "log_softmax_lastdim_kernel_impl"},
    {"nll_loss", "nll_loss_out_frame"},
    {"binary_cross_entropy", "binary_cross_entropy"},
    {"binary_cross_entropy_with_logits", "clamp_min_cpu"},
    {"layer_norm", "LayerNormKernelImpl"},
    {"cumsum", "cumsum_out_cpu"},
    {NULL, NULL},
};

static const missing_kernel NO_BFLOAT16[] = {
    {"mse_loss", "mse_cpu"},
    {"binary_cross_entropy", "binary_cross_entropy"},
    {NULL, NULL},
};

static const char *missing(const missing_kernel *table, const char *op) {
    for (const missing_kernel *m = table; m->op; m++)
        if (strcmp(m->op, op) == 0) return m->kernel;
    return NULL;
}

static nn_tensor *exec_impl(nn_ctx *ctx, nn_op op, nn_tensor *const *inputs, int n_inputs,
                            const nn_params *params);

/* The input of [op] that holds positions (int64), which takes no part in
 * the result's dtype (a gather of an int32 tensor is int32); -1 if none. */
static int index_input(nn_op op) {
    switch (op) {
    case NN_OP_GATHER:
    case NN_OP_SCATTER:
    case NN_OP_AS_STRIDED: return 1;
    case NN_OP_PUT: return 2;
    default: return -1;
    }
}

/* Run [op] on narrow inputs as the comment above says. */
static nn_tensor *exec_widened(nn_ctx *ctx, nn_op op, nn_tensor *const *inputs, int n_inputs,
                               const nn_params *params) {
    const char *name = op_table[op].name;
    int skip = index_input(op);
    nn_dtype p;
    if (skip >= 0 && skip < n_inputs && n_inputs <= NN_NODE_INLINE_INPUTS) {
        const nn_tensor *data[NN_NODE_INLINE_INPUTS];
        int n = 0;
        for (int i = 0; i < n_inputs; i++)
            if (i != skip) data[n++] = inputs[i];
        p = nn_dtype_result_type(data, n);
    } else {
        p = nn_dtype_result_type((const nn_tensor *const *)inputs, n_inputs);
    }
    if (!nn_dtype_is_float(p) && nn_reduce_needs_float(ctx, name, p)) return NULL;
    const char *kernel = p == NN_FLOAT16    ? missing(NO_HALF, name)
                         : p == NN_BFLOAT16 ? missing(NO_BFLOAT16, name)
                                            : NULL;
    if (kernel && op == NN_OP_MATMUL) { /* torch 1.13 names the BLAS call */
        int a = inputs[0]->ndim, b = inputs[1]->ndim;
        kernel = a == 1 && b == 1   ? "dot"
                 : a == 2 && b == 1 ? "addmv_impl_cpu"
                 : a >= 3 && b >= 3 ? "bmm"
                                    : kernel;
    }
    if (kernel) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", kernel,
                     p == NN_FLOAT16 ? "Half" : "BFloat16");
        return NULL;
    }
    nn_tensor *wide_inline[NN_NODE_INLINE_INPUTS], **wide = wide_inline;
    if (n_inputs > NN_NODE_INLINE_INPUTS) {
        wide = nn_mem_calloc(sizeof *wide * (size_t)n_inputs, "widened inputs", &ctx->err);
        if (!wide) return NULL;
    }
    nn_tensor *out = NULL;
    int made = 0;
    for (; made < n_inputs; made++) {
        nn_tensor *t = inputs[made];
        wide[made] = nn_dtype_is_narrow(t->dtype) ? nn_to(ctx, t, nn_dtype_compute(t->dtype))
                                                  : nn_tensor_retain(t);
        if (!wide[made]) break;
    }
    if (made == n_inputs) out = exec_impl(ctx, op, wide, n_inputs, params);
    for (int i = 0; i < made; i++) nn_tensor_release(wide[i]);
    if (wide != wide_inline) nn_mem_free(wide);
    if (out && out->dtype != p && out->dtype == nn_dtype_compute(p) &&
        (nn_dtype_is_float(p) || !int_result_is_int64(name))) {
        nn_tensor *narrowed = nn_to(ctx, out, p);
        nn_tensor_release(out);
        out = narrowed;
        /* Front ends name this node's grad_fn after the op it rounds. */
        if (out && out->grad_fn) out->grad_fn->p.flags = NN_TO_ROUNDS_OP;
    }
    return out;
}

/* The ops that take complex tensors (docs/language-tensors.md): the data
 * movers, the arithmetic, sum and mean, abs, and ops_fft.c's. Every other
 * op refuses a complex input here, in PyTorch's words, before its kernel
 * could read the pairs as real numbers. */
static bool takes_complex(nn_op op) {
    switch (op) {
    case NN_OP_ADD:
    case NN_OP_SUB:
    case NN_OP_MUL:
    case NN_OP_DIV:
    case NN_OP_NEG:
    case NN_OP_ABS:
    case NN_OP_TO:
    case NN_OP_SUM:
    case NN_OP_MEAN:
    case NN_OP_RESHAPE:
    case NN_OP_PERMUTE:
    case NN_OP_EXPAND:
    case NN_OP_SLICE:
    case NN_OP_SELECT:
    case NN_OP_EQ:
    case NN_OP_NE:
    case NN_OP_INDEX:
    case NN_OP_CONTIGUOUS:
    case NN_OP_CAT:
    case NN_OP_VIEW_AS_REAL:
    case NN_OP_VIEW_AS_COMPLEX:
    case NN_OP_CONJ:
    case NN_OP_FFT_C2C:
    case NN_OP_FFT_R2C:
    case NN_OP_FFT_C2R: return true;
    default: return false;
    }
}

nn_tensor *nn_exec(nn_ctx *ctx, nn_op op, nn_tensor *const *inputs, int n_inputs,
                   const nn_params *params) {
    NN_ASSERT((unsigned)op < NN_OP_COUNT && n_inputs >= 0);
    bool narrow = false, grad = false;
    for (int i = 0; i < n_inputs; i++) {
        if (!inputs[i]) return null_input(ctx, op, i), NULL;
        if (nn_tensor_check_storage(ctx, inputs[i])) return NULL;
        /* a view whose base was written since its history was made */
        if (nn_view_stale(inputs[i]) && ctx->grad_enabled && ctx->depth == 0 &&
            nn_view_refresh(ctx, inputs[i]))
            return NULL;
        if (nn_dtype_is_complex(inputs[i]->dtype) && !takes_complex(op)) {
            nn_error_set(&ctx->err, NN_ERR_RUNTIME, "\"%s_cpu\" not implemented for '%s'",
                         op_table[op].name, nn_dtype_scalar_name(inputs[i]->dtype));
            return NULL;
        }
        narrow |= nn_dtype_is_narrow(inputs[i]->dtype);
        grad |= inputs[i]->requires_grad;
    }
    if (narrow && op != NN_OP_TO &&
        (!moves_only(op_table[op].name) || (grad && ctx->grad_enabled && op != NN_OP_CUSTOM)))
        return exec_widened(ctx, op, inputs, n_inputs, params);
    return exec_impl(ctx, op, inputs, n_inputs, params);
}

/* ---- what a recorded node keeps ----
 * PyTorch's nodes save only what their backward reads (relu its result,
 * conv its input and weight, add nothing), so an intermediate whose only
 * other owner was the next op is freed during the forward. nndb's nodes
 * hold every input and their output so that the debugger can show them;
 * while no hook asks for that (nn_hook_set_keeps_values), a node keeps
 * what its backward reads and holds the rest as husks (nn_tensor_husk:
 * shape and dtype, no bytes). Leaf inputs stay: their owner holds them
 * anyway, and the graph view names them. Only the ops below, whose
 * backwards (and torch/autograd/_higher.py's rules) were read for this,
 * let anything go; every other op keeps all. */

static bool values_kept(const nn_ctx *ctx) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (ctx->hooks[i].keeps_values) return true;
    return false;
}

static bool complex_node(const nn_node *n) {
    for (int i = 0; i < n->n_in; i++)
        if (nn_dtype_is_complex(n->in[i].t->dtype)) return true;
    return false;
}

/* Whether [n]'s backward reads the values of input [i]. backward_reads_input
 * below answers the same question for the in-place version check, for more
 * ops (views, sums, matmul), while it checks conv and max_pool inputs always
 * and mul's alike for every dtype; this list holds only the ops audited for
 * dropping (complex mul reads both operands, conjugated). */
static bool grad_reads_input(const nn_node *n, int i) {
    switch (n->op) {
    case NN_OP_ADD:
    case NN_OP_SUB:
    case NN_OP_MAX_POOL: /* its saved indices */
    case NN_OP_RELU:     /* these read their output (unary_grad) */
    case NN_OP_EXP:
    case NN_OP_SQRT:
    case NN_OP_RSQRT:
    case NN_OP_TANH:
    case NN_OP_SIGMOID: return false;
    case NN_OP_CONV:
    case NN_OP_LINEAR:
    case NN_OP_MATMUL: return i < 2 && n->in[1 - i].needs_grad; /* not the bias */
    case NN_OP_MUL: return complex_node(n) || n->in[1 - i].needs_grad;
    case NN_OP_DIV: return i == 1 || n->in[1].needs_grad; /* a / b: b, and a for b's */
    case NN_OP_WHERE: return i == 0; /* the condition, not the values chosen from */
    case NN_OP_SOFTMAX:
    case NN_OP_LOG_SOFTMAX: return false; /* their output */
    case NN_OP_PERMUTE:                   /* the gradient permuted back */
    case NN_OP_CONTIGUOUS: return false;  /* the gradient as it is */
    case NN_OP_AS_STRIDED: return i == 1; /* the positions; the base's shape only */
    default: return true;
    }
}

static bool grad_reads_output(const nn_node *n) {
    switch (n->op) {
    case NN_OP_ADD:
    case NN_OP_SUB:
    case NN_OP_MAX_POOL:
    case NN_OP_CONV:
    case NN_OP_LINEAR:
    case NN_OP_MATMUL:
    case NN_OP_WHERE:
    case NN_OP_PERMUTE:
    case NN_OP_CONTIGUOUS:
    case NN_OP_AS_STRIDED:
    case NN_OP_GELU:       /* its input (and erf's kept factor, saved[0]) */
    case NN_OP_LAYER_NORM: /* its input, weight and statistics (saved) */
    case NN_OP_MUL: return false;
    case NN_OP_DIV: return n->in[1].needs_grad; /* b's gradient, -g (a / b) / b */
    default: return true;
    }
}

/* Replace [*t] by its husk; false (and [*t] as it was) when one cannot be
 * made. */
static bool to_husk(nn_ctx *ctx, nn_tensor **t) {
    nn_tensor *h = nn_tensor_husk(ctx, *t);
    if (!h) {
        nn_error_clear(&ctx->err);
        return false;
    }
    nn_tensor_release(*t);
    *t = h;
    return true;
}

/* Whether input [i] of [n] is the output of a GELU or a layer norm, as it
 * made it, that it can make again with the same bits from the inputs it
 * keeps: the whole output (a contiguous float tensor of its own storage,
 * unchanged since), every input of the producer kept, and a GELU that kept
 * no factor (erf's saved[0] comes from a kernel that computes the output
 * alongside; the layer norm's statistics do not change its output). A
 * GPT's MLP keeps the GELU's input for the GELU's backward and its output
 * for c_proj's weight gradient, as PyTorch does (12 MiB each a layer at
 * GPT-2 124M B4 T256), and the layer norms' outputs are c_attn's, c_fc's
 * and the LM head's inputs (3 MiB each) beside the layer norms' own
 * inputs; all of them live at the step's peak (the LM head's backward). A
 * linear lets the output go and recomputes it in its own backward
 * (nn_node_restore_inputs): at that shape the peak falls by 144 + 75 MiB
 * for one GELU forward and two layer norms a layer in backward (under 1%
 * of the step; docs/benchmarks.md, issue 27). */
static bool recomputable(const nn_node *n, int i) {
    const nn_input *in = &n->in[i];
    const nn_node *p = in->fn;
    if (n->op != NN_OP_LINEAR || i != 0 || !p || in->dropped || in->recompute || !in->t ||
        in->t->storage->husk || in->version != p->out_version || p->n_in > NN_NODE_INLINE_INPUTS ||
        !(p->op == NN_OP_LAYER_NORM || (p->op == NN_OP_GELU && !p->saved[0])))
        return false;
    for (int j = 0; j < p->n_in; j++)
        if (p->in[j].dropped || !p->in[j].t || p->in[j].t->storage->husk) return false;
    const nn_tensor *x = p->in[0].t, *y = in->t;
    return (y->dtype == NN_FLOAT32 || y->dtype == NN_FLOAT64) && x->dtype == y->dtype &&
           nn_tensor_same_shape(x, y) && nn_tensor_is_contiguous(y) && y->offset == 0 &&
           (size_t)nn_tensor_numel(y) * nn_dtype_size(y->dtype) == y->storage->nbytes;
}

/* Replace what [n]'s backward does not read by husks (when one cannot be
 * made, the value simply stays). [out_storage]: the output's storage (the
 * output may be a husk already: exec_impl makes it one at once). */
static void drop_unread(nn_ctx *ctx, nn_node *n, const nn_storage *out_storage) {
    /* A view's input may become a husk (permute: attention's output y,
     * 3 MiB a layer at GPT-2 124M B4 T256, was kept only by its transpose
     * and that transpose's contiguous copy); nn_inplace_check still knows
     * which storage the view shares. */
    if (n->n_in > 0 && n->in[0].t && out_storage == n->in[0].t->storage)
        n->view_of = n->in[0].t->storage;
    for (int i = 0; i < n->n_in; i++) {
        nn_input *in = &n->in[i];
        if (in->fn && !grad_reads_input(n, i) && to_husk(ctx, &in->t)) in->dropped = true;
    }
    if (!n->out_dropped && !grad_reads_output(n) && to_husk(ctx, &n->out)) n->out_dropped = true;
    /* relu's backward reads only which outputs are above zero: once
     * nothing but this node holds the output (the next op kept what it
     * needs of it, max_pool its offsets), a bit per element replaces it. */
    nn_tensor *y = n->out;
    if (n->op == NN_OP_RELU && !n->saved[0] && !y->storage->keeper &&
        (y->dtype == NN_FLOAT32 || y->dtype == NN_FLOAT64) && nn_tensor_is_contiguous(y) &&
        y->offset == 0 &&
        (size_t)nn_tensor_numel(y) * nn_dtype_size(y->dtype) == y->storage->nbytes)
        y->storage->keeper = n;
    /* A GELU's or layer norm's output under a linear: once nothing but
     * this node holds it (the temporary is gone after the forward), a husk
     * replaces it (nn_node_output_orphaned) and backward makes it again. A
     * tensor the user keeps stays as it is, read as before. */
    if (n->n_in > 0 && recomputable(n, 0) && !n->in[0].t->storage->keeper)
        n->in[0].t->storage->keeper = n;
}

nn_tensor *nn_node_output(nn_ctx *ctx, const nn_node *n) {
    if (!n->out || n->op != NN_OP_RELU || !n->saved[0] || !nn_tensor_released(n->out))
        return nn_tensor_retain(n->out);
    nn_tensor *r = nn_tensor_empty(ctx, n->out->dtype, n->out->ndim, n->out->shape);
    if (!r) return NULL;
    const uint8_t *bits = nn_tensor_data(n->saved[0]);
    int64_t count = nn_tensor_numel(r);
    for (int64_t i = 0; i < count; i++) {
        int on = (bits[i >> 3] >> (i & 7)) & 1;
        if (r->dtype == NN_FLOAT32)
            ((float *)nn_tensor_data(r))[i] = (float)on;
        else
            ((double *)nn_tensor_data(r))[i] = on;
    }
    return r;
}

/* Set while a backward pass runs: a relu output freed then is about to be
 * read (its node comes soon), so making its bits would be work for nothing
 * (a ResNet block's relu under the next conv, freed by that conv's backward). */
static _Thread_local int backward_runs;

/* nn_node_output_orphaned for a linear's input that its producer can make
 * again (recomputable): a husk replaces it, and the bytes go. */
static void input_orphaned(nn_node *n, nn_storage *s) {
    nn_input *in = &n->in[0];
    nn_tensor *y = in->t;
    if (backward_runs || nodes_releasing || !y || y->storage != s || y->refcount != 1 ||
        s->version != in->version || !recomputable(n, 0))
        return;
    nn_error err = {0};
    nn_tensor *h = nn_tensor_husk_err(&err, y);
    if (!h) return; /* out of memory: keep the input as it is */
    in->t = h;
    in->recompute = true;
    nn_tensor_release(y); /* frees the bytes */
}

void nn_node_output_orphaned(nn_node *n, nn_storage *s) {
    s->keeper = NULL;
    if (n->op != NN_OP_RELU) {
        input_orphaned(n, s);
        return;
    }
    nn_tensor *y = n->out;
    if (backward_runs || nodes_releasing || !y || y->storage != s || y->refcount != 1 ||
        n->saved[0])
        return;
    nn_error err = {0};
    nn_tensor *bits = nn_tensor_bytes_err(&err, (nn_tensor_numel(y) + 7) / 8);
    nn_tensor *h = bits ? nn_tensor_husk_err(&err, y) : NULL;
    if (!h) { /* out of memory: keep the output as it is */
        nn_tensor_release(bits);
        return;
    }
    nn_relu_sign_bits(y, bits->storage->data);
    n->saved[0] = bits;
    n->out = h;
    nn_tensor_release(y); /* frees the bytes */
}

static bool is_view_op(nn_op op) {
    return op == NN_OP_RESHAPE || op == NN_OP_PERMUTE || op == NN_OP_EXPAND || op == NN_OP_SLICE ||
           op == NN_OP_SELECT;
}

/* [out], just made by a view op from [in], becomes a view of in's base (or
 * of in): PyTorch's _base, what an in-place write through the view rewrites
 * (nn_inplace.c). Here, inlined, because every view op runs it. */
static inline void view_set_base(const nn_ctx *ctx, nn_tensor *out, nn_tensor *in) {
    bool chained = nn_tensor_is_view(in);
    nn_tensor *root = chained ? in->base : in;
    root->refcount++;
    out->base = root;
    out->view_version = out->storage->version;
    /* PyTorch's creation meta: no_grad mode marks the view, and a view of
     * a marked view keeps the mark (named by its own node). */
    out->view_kind = ctx->grad_enabled ? NN_VIEW_DEFAULT : NN_VIEW_NO_GRAD;
    if (out->view_kind == NN_VIEW_DEFAULT && chained) out->view_kind = in->view_kind;
}

static nn_tensor *exec_impl(nn_ctx *ctx, nn_op op, nn_tensor *const *inputs, int n_inputs,
                            const nn_params *params) {
    bool nested = ctx->depth > 0;
    if (!nested && nn_ctx_check_interrupt(ctx)) return NULL;
    bool record = false;
    if (!nested && ctx->grad_enabled && op_table[op].backward)
        for (int i = 0; i < n_inputs; i++) record |= inputs[i]->requires_grad;

    nn_node stack_node, *node = &stack_node;
    if (record) {
        node = nn_mem_alloc(sizeof *node, "an autograd node", &ctx->err);
        if (!node) return NULL;
    }
    memset(node, 0, sizeof *node);
    node->op = op;
    node->n_in = n_inputs;
    node->in = node->in_inline;
    if (n_inputs > NN_NODE_INLINE_INPUTS) {
        node->in = nn_mem_calloc(sizeof(nn_input) * (size_t)n_inputs, "node inputs", &ctx->err);
        if (!node->in) {
            if (record) nn_mem_free(node);
            return NULL;
        }
    }
    if (params) node->p = *params;
    node->label = ctx->label;
    node->recorded = record;
    node->seq = ctx->next_seq++;
    for (int i = 0; i < n_inputs; i++) {
        node->in[i].t = inputs[i]; /* borrowed until recorded */
        node->in[i].needs_grad = inputs[i]->requires_grad;
    }

    nn_tensor *out = NULL;
    nn_hook_event ev = {NN_PHASE_FORWARD, false, node, NULL, NULL, NULL, 0, 0};
    bool hooks = !nested && ctx->n_hooks > 0;
    /* Hooks and the forward run nested: ops they call run directly. */
    ctx->depth++;
    bool go = !hooks || run_hooks(ctx, &ev);
    if (go) out = op_table[op].forward(ctx, node);
    if (out && hooks) {
        ev.after = true;
        ev.output = out;
        go = run_hooks(ctx, &ev);
    }
    ctx->depth--;
    if (!out || !go) goto fail;
    if (!nested && is_view_op(op) && out != inputs[0] && out->storage == inputs[0]->storage)
        view_set_base(ctx, out, inputs[0]);
    /* Integer and bool results carry no gradient (x.long(), argmax). */
    if (record && !nn_dtype_is_float(out->dtype) && !nn_dtype_is_complex(out->dtype)) {
        record = false;
        nn_tensor_release(node->saved[0]);
        nn_tensor_release(node->saved[1]);
        node->saved[0] = node->saved[1] = NULL;
        if (node->in != node->in_inline) nn_mem_free(node->in);
        nn_mem_free(node);
        return out;
    }
    if (!record) {
        nn_tensor_release(node->saved[0]);
        nn_tensor_release(node->saved[1]);
        if (node->in != node->in_inline) nn_mem_free(node->in);
        return out;
    }
    int taken = 0;
    for (; taken < n_inputs; taken++) {
        nn_tensor *t = inputs[taken];
        nn_input *in = &node->in[taken];
        in->version = t->storage->version;
        if (t->grad_fn) {
            in->t = nn_tensor_detach(ctx, t);
            if (!in->t) break;
            in->fn = t->grad_fn;
            nn_node_retain(t->grad_fn);
        } else {
            in->t = nn_tensor_retain(t);
        }
    }
    bool drop = !values_kept(ctx);
    if (taken == n_inputs) {
        /* An output the backward does not read (a Linear's, an add's):
         * its husk at once, not a view that drop_unread then replaces by
         * one (two allocations and a release fewer an op). */
        if (drop && !grad_reads_output(node)) {
            if ((node->out = nn_tensor_husk(ctx, out))) {
                node->out->requires_grad = false; /* as the view's */
                node->out_dropped = true;
            } else {
                nn_error_clear(&ctx->err); /* the value stays, as in to_husk */
            }
        }
        if (!node->out) node->out = nn_tensor_detach(ctx, out);
    }
    node->out_version = out->storage->version;
    node->out_dtype = out->dtype;
    node->out_ndim = out->ndim;
    memcpy(node->out_shape, out->shape, sizeof(int64_t) * (size_t)out->ndim);
    if (!node->out) {
        /* Out of memory while recording: inputs not yet taken are borrowed. */
        for (int i = taken; i < n_inputs; i++) node->in[i].t = NULL;
        node->refcount = 1;
        nn_tensor_release(out);
        nn_node_release(node);
        return NULL;
    }
    node->refcount = 1; /* the output's grad_fn */
    if (drop) drop_unread(ctx, node, out->storage);
    out->requires_grad = true;
    out->grad_fn = node;
    return out;

fail:
    nn_tensor_release(out);
    nn_tensor_release(node->saved[0]);
    nn_tensor_release(node->saved[1]);
    if (node->in != node->in_inline) nn_mem_free(node->in);
    if (record) nn_mem_free(node);
    return NULL;
}

/* ---- backward ---- */

/* PyTorch's sum_to_size: sum over the leading dims and the dims the
 * target has as 1, keeping them, then view as the target shape. The sum is
 * nn_sum itself, so a broadcast operand's gradient has the bits of the
 * same sum written by hand (makemore's backprop exercise compares them
 * with ==), and it is recorded when the backward builds a graph. */
nn_tensor *nn_sum_to_shape(nn_ctx *ctx, nn_tensor *g, int ndim, const int64_t *shape) {
    if (g->ndim == ndim && memcmp(g->shape, shape, sizeof(int64_t) * (size_t)ndim) == 0)
        return nn_tensor_retain(g);
    int lead = g->ndim - ndim;
    if (lead < 0) {
        char a[128], b[128];
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "cannot sum a gradient of shape %s to shape %s",
                     nn_tensor_shape_str(g, a, sizeof a), nn_shape_str(b, sizeof b, ndim, shape));
        return NULL;
    }
    nn_dtype dt = nn_float_dtype(g->dtype);
    nn_tensor *src = dt == g->dtype ? nn_tensor_retain(g) : nn_tensor_cast_raw(ctx, g, dt);
    if (!src) return NULL;
    int64_t dims[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < g->ndim; i++) {
        int j = i - lead;
        if (j < 0 || (shape[j] == 1 && g->shape[i] != 1)) dims[n++] = i;
    }
    nn_tensor *out = src;
    if (n > 0) {
        out = nn_sum(ctx, src, dims, n, true);
        nn_tensor_release(src);
        if (!out) return NULL;
    }
    if (lead > 0 || out->ndim != ndim) {
        nn_tensor *v = nn_reshape(ctx, out, ndim, shape);
        nn_tensor_release(out);
        out = v;
    }
    return out;
}

/* A gradient tensor we may write into: exclusively ours and contiguous. */
static bool exclusive(const nn_tensor *t) {
    return t->refcount == 1 && t->storage->refcount == 1 && nn_tensor_is_contiguous(t);
}

/* A leaf's .grad that a contribution may be added into where it is: any
 * .grad of the leaf's shape and dtype. PyTorch's AccumulateGrad adds in
 * place (variable_grad += new_grad) outside create_graph, whoever else
 * holds the tensor: `g = w.grad` before a second backward sees the sum,
 * and `g is w.grad` stays true. [contiguous] for writers that need it (the
 * linear's gemm with beta 1). */
static bool leaf_grad_in_place(const nn_tensor *leaf, bool contiguous) {
    const nn_tensor *g = leaf->grad;
    return g && g->dtype == leaf->dtype && nn_tensor_same_shape(g, leaf) &&
           (!contiguous || nn_tensor_is_contiguous(g));
}

/* *slot += g. [g] is consumed (its reference moves or is released). With
 * [must_own], a first *slot is exclusively ours (a leaf's .grad: the
 * optimizer and the user may write into it). An existing *slot that is
 * shared is copied first, unless [in_place] (a leaf's .grad: added into
 * where it is, as PyTorch does; leaf_grad_in_place). */
static nn_status accumulate_into(nn_ctx *ctx, nn_tensor **slot, nn_tensor *g, bool must_own,
                                 bool in_place) {
    if (!*slot) {
        if (!must_own || exclusive(g)) {
            *slot = g;
            return NN_OK;
        }
        nn_tensor *c = nn_tensor_empty(ctx, g->dtype, g->ndim, g->shape);
        if (!c || nn_tensor_copy_(ctx, c, g)) {
            nn_tensor_release(c);
            nn_tensor_release(g);
            return ctx->err.code;
        }
        nn_tensor_release(g);
        *slot = c;
        return NN_OK;
    }
    nn_tensor *dst = *slot;
    if (!exclusive(dst) && !in_place) {
        /* a transposed gradient stays one, as PyTorch's old + new does */
        bool keep = !nn_tensor_is_contiguous(dst) && nn_tensor_is_dense(dst);
        nn_tensor *c =
            keep ? nn_tensor_empty_strided(ctx, dst->dtype, dst->ndim, dst->shape, dst->strides)
                 : nn_tensor_empty(ctx, dst->dtype, dst->ndim, dst->shape);
        if (!c || nn_tensor_copy_(ctx, c, dst)) {
            nn_tensor_release(c);
            nn_tensor_release(g);
            return ctx->err.code;
        }
        nn_tensor_release(dst);
        *slot = dst = c;
    }
    nn_status st = nn_raw_add_into(ctx, dst, g, 1.0);
    dst->storage->version++; /* an in-place write, as += is */
    nn_tensor_release(g);
    return st;
}

static nn_status accumulate(nn_ctx *ctx, nn_tensor **slot, nn_tensor *g, bool must_own) {
    return accumulate_into(ctx, slot, g, must_own, false);
}

/* Whether [g] may become [leaf]'s .grad as it is: PyTorch's layout
 * contract (AccumulateGrad's obeys_layout_contract): the strides of a
 * non-overlapping and dense leaf (a transposed weight, a channels_last
 * one) on every dim of size 2 and up, and no 0 stride on the others;
 * row-major for any other leaf. */
static bool obeys_layout(const nn_tensor *g, const nn_tensor *leaf) {
    if (!nn_tensor_is_dense(leaf)) return nn_tensor_is_contiguous(g);
    for (int i = 0; i < g->ndim; i++)
        if (g->shape[i] != 1 ? g->strides[i] != leaf->strides[i] : g->strides[i] == 0) return false;
    return true;
}

/* A copy of [g] for [leaf]'s .grad: in [g]'s layout when that obeys the
 * contract (what PyTorch keeps as it is: its gradient is seldom shared
 * where nndb's may be), else laid out by the contract
 * (clone_obey_contract): [leaf]'s strides when it is non-overlapping and
 * dense, row-major otherwise. In the lasting blocks when [lasting]
 * (place_first_grad). NULL with ctx->err set on failure; [g] is not
 * released. */
static nn_tensor *copy_for_leaf(nn_ctx *ctx, nn_tensor *g, const nn_tensor *leaf, bool lasting) {
    nn_tensor *c = lasting ? nn_tensor_empty_lasting(ctx, g->dtype, g->ndim, g->shape)
                           : nn_tensor_empty(ctx, g->dtype, g->ndim, g->shape);
    const nn_tensor *like = obeys_layout(g, leaf) ? g : nn_tensor_is_dense(leaf) ? leaf : NULL;
    if (c && like) memcpy(c->strides, like->strides, sizeof(int64_t) * (size_t)like->ndim);
    if (c && nn_tensor_copy_(ctx, c, g)) {
        nn_tensor_release(c);
        return NULL;
    }
    return c;
}

/* A contribution to a leaf's .grad (see accumulate_into). The first one is
 * kept when nothing else holds it and it obeys the layout contract, and
 * copied into the contract's layout otherwise, so a transposed or
 * channels_last parameter's .grad has its strides, as in PyTorch. */
static nn_status accumulate_leaf(nn_ctx *ctx, nn_tensor *leaf, nn_tensor *g) {
    if (leaf->grad)
        return accumulate_into(ctx, &leaf->grad, g, true, leaf_grad_in_place(leaf, false));
    if (g->refcount == 1 && g->storage->refcount == 1 && obeys_layout(g, leaf)) {
        leaf->grad = g;
        return NN_OK;
    }
    leaf->grad = copy_for_leaf(ctx, g, leaf, false);
    nn_tensor_release(g);
    return leaf->grad ? NN_OK : ctx->err.code;
}

/* ---- gradient hooks ---- */

typedef struct grad_hook {
    int id;
    nn_node *node;   /* a non-leaf's node (retained), or NULL */
    nn_tensor *leaf; /* a leaf (retained), or NULL */
    nn_grad_hook_fn fn;
    void *user;
    void (*drop)(void *user);
} grad_hook;

typedef struct pending_leaf {
    nn_tensor *leaf; /* borrowed: its hook holds it */
    nn_tensor *grad; /* this pass's sum so far */
} pending_leaf;

struct nn_grad_hooks {
    grad_hook *h;
    int n, cap, next_id;
    int running; /* > 0 while hooks run: removal only marks */
    pending_leaf *p;
    int np, capp;
};

static void hook_drop(grad_hook *h) {
    if (h->node) nn_node_release(h->node);
    nn_tensor_release(h->leaf);
    h->node = NULL;
    h->leaf = NULL;
    nn_grad_hook_fn fn = h->fn;
    h->fn = NULL;
    if (fn && h->drop) h->drop(h->user);
}

/* Drop removed entries and those whose tensor nobody else holds. */
static void hooks_compact(struct nn_grad_hooks *r) {
    if (r->running) return;
    int k = 0;
    for (int i = 0; i < r->n; i++) {
        grad_hook *h = &r->h[i];
        bool orphan = (h->node && h->node->refcount == 1) || (h->leaf && h->leaf->refcount == 1);
        if (h->fn && orphan) hook_drop(h);
        if (h->fn) r->h[k++] = *h;
    }
    r->n = k;
}

int nn_grad_hook_add(nn_ctx *ctx, nn_tensor *t, nn_grad_hook_fn fn, void *user,
                     void (*drop)(void *user)) {
    if (!ctx->grad_hooks) {
        ctx->grad_hooks = calloc(1, sizeof *ctx->grad_hooks);
        if (!ctx->grad_hooks) {
            nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory for a gradient hook");
            return 0;
        }
    }
    struct nn_grad_hooks *r = ctx->grad_hooks;
    if (!t->requires_grad) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "cannot register a hook on a tensor that doesn't require gradient");
        return 0;
    }
    hooks_compact(r);
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        grad_hook *h = realloc(r->h, sizeof *h * (size_t)cap);
        if (!h) {
            nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory for a gradient hook");
            return 0;
        }
        r->h = h;
        r->cap = cap;
    }
    grad_hook *h = &r->h[r->n++];
    memset(h, 0, sizeof *h);
    h->id = ++r->next_id;
    if (t->grad_fn) {
        h->node = t->grad_fn;
        nn_node_retain(h->node);
    } else {
        h->leaf = nn_tensor_retain(t);
    }
    h->fn = fn;
    h->user = user;
    h->drop = drop;
    return h->id;
}

void nn_grad_hook_remove(nn_ctx *ctx, int id) {
    struct nn_grad_hooks *r = ctx->grad_hooks;
    for (int i = 0; r && i < r->n; i++)
        if (r->h[i].id == id && r->h[i].fn) {
            hook_drop(&r->h[i]);
            hooks_compact(r);
            return;
        }
}

void nn_grad_hooks_clear(nn_ctx *ctx) {
    struct nn_grad_hooks *r = ctx->grad_hooks;
    if (!r) return;
    for (int i = 0; i < r->np; i++) nn_tensor_release(r->p[i].grad);
    r->np = 0;
    for (int i = 0; i < r->n; i++) hook_drop(&r->h[i]);
    r->n = 0;
    free(r->h);
    free(r->p);
    r->h = NULL;
    r->p = NULL;
    r->cap = r->capp = 0;
}

static bool has_hooks(const nn_ctx *ctx) {
    return ctx->grad_hooks && ctx->grad_hooks->n > 0;
}

/* Run the hooks of [node] (or of [leaf]) on *grad, replacing it. */
static nn_status run_grad_hooks(nn_ctx *ctx, nn_node *node, nn_tensor *leaf, nn_tensor **grad);

nn_status nn_grad_hooks_run(nn_ctx *ctx, nn_node *node, nn_tensor *leaf, nn_tensor **grad) {
    return has_hooks(ctx) ? run_grad_hooks(ctx, node, leaf, grad) : NN_OK;
}

static nn_status run_grad_hooks(nn_ctx *ctx, nn_node *node, nn_tensor *leaf, nn_tensor **grad) {
    struct nn_grad_hooks *r = ctx->grad_hooks;
    nn_status st = NN_OK;
    r->running++;
    for (int i = 0; i < r->n && !st; i++) {
        grad_hook *h = &r->h[i];
        if (!h->fn || (node ? h->node != node : h->leaf != leaf)) continue;
        nn_tensor *g = h->fn(ctx, *grad, h->user, &st);
        if (st) {
            nn_tensor_release(g);
            break;
        }
        if (!g) continue;
        if (!nn_tensor_same_shape(g, *grad)) {
            char a[128], b[128];
            st = nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                              "a gradient hook changed the gradient's shape from %s to %s",
                              nn_tensor_shape_str(*grad, a, sizeof a),
                              nn_tensor_shape_str(g, b, sizeof b));
            nn_tensor_release(g);
            break;
        }
        nn_tensor_release(*grad);
        *grad = g;
    }
    r->running--;
    return st;
}

static bool leaf_hooked(const nn_ctx *ctx, const nn_tensor *t) {
    const struct nn_grad_hooks *r = ctx->grad_hooks;
    for (int i = 0; i < r->n; i++)
        if (r->h[i].fn && r->h[i].leaf == t) return true;
    return false;
}

/* What nn_grad asks a pass for: the gradients of [inputs] instead of
 * .grad. NULL for backward(). */
typedef struct grad_capture {
    nn_tensor *const *inputs;
    int n;
    nn_tensor **grads; /* one per input; NULL until something arrives */
} grad_capture;

/* A leaf's gradient contribution: into its .grad, or, when it has hooks,
 * into this pass's sum, which the hooks see at the end of the pass. Under
 * [cap] it goes to the captured input that is [t], or nowhere: no .grad
 * changes. */
/* A leaf's first gradient (a parameter's, kept from step to step) moves to
 * a lasting block (NN_MEM_LASTING), out of the way of the steps'
 * temporaries: LeNet's first linear layer's gradient sat between them and
 * kept the next steps' largest blocks from fitting below it. Once per
 * leaf: a gradient set to None and made again each step stays where it is
 * made (it is freed each step too). A small gradient's copy leaves the
 * block the step made to the step's own temporaries (LeNet's resident peak
 * 3.39 MB with big blocks only, 3.32 with all). Not above a chunk's size
 * (nn_mem_lasting_applies): such a block has memory of its own, and a copy
 * would only cost a moment with both. On failure [g] stays as it is. */
static nn_tensor *place_first_grad(nn_ctx *ctx, nn_tensor *t, nn_tensor *g) {
    if (t->grad || t->grad_placed) return g;
    t->grad_placed = true;
    if (!nn_mem_lasting_applies(nn_tensor_numel(g) * nn_dtype_size(g->dtype))) return g;
    nn_tensor *c = copy_for_leaf(ctx, g, t, true);
    if (!c) {
        nn_error_clear(&ctx->err);
        return g;
    }
    nn_tensor_release(g);
    return c;
}

/* A leaf that gets several contributions in a pass while holding a
 * gradient from before (gradient accumulation, a weight used twice): as
 * PyTorch's engine, the pass's contributions are summed first and the sum
 * is added to the old gradient, old + (g1 + g2), which differs in the last
 * bits from (old + g1) + g2. The old gradient waits in grad_before while
 * .grad collects the pass's sum; when the last edge has delivered (or at
 * the end of the pass) they are added, in place into the old tensor, which
 * the optimizer may hold. */
static nn_status leaf_settle(nn_ctx *ctx, nn_tensor *t) {
    nn_tensor *sum = t->grad;
    t->grad = t->grad_before;
    t->grad_before = NULL;
    t->grad_edges = 0;
    return sum ? accumulate_leaf(ctx, t, sum) : NN_OK;
}

static nn_status leaf_accumulate(nn_ctx *ctx, nn_tensor *t, nn_tensor *g, grad_capture *cap) {
    if (cap) {
        for (int i = 0; i < cap->n; i++)
            if (cap->inputs[i] == t) return accumulate(ctx, &cap->grads[i], g, true);
        nn_tensor_release(g);
        return NN_OK;
    }
    if (!has_hooks(ctx) || !leaf_hooked(ctx, t)) {
        nn_status st = accumulate_leaf(ctx, t, place_first_grad(ctx, t, g));
        if (!st && t->grad_before && --t->grad_edges <= 0) st = leaf_settle(ctx, t);
        return st;
    }
    struct nn_grad_hooks *r = ctx->grad_hooks;
    for (int i = 0; i < r->np; i++)
        if (r->p[i].leaf == t) return accumulate(ctx, &r->p[i].grad, g, true);
    if (r->np == r->capp) {
        int grown = r->capp ? r->capp * 2 : 8;
        pending_leaf *p = realloc(r->p, sizeof *p * (size_t)grown);
        if (!p) {
            nn_tensor_release(g);
            return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory in backward");
        }
        r->p = p;
        r->capp = grown;
    }
    r->p[r->np].leaf = t;
    r->p[r->np].grad = NULL;
    return accumulate(ctx, &r->p[r->np++].grad, g, true);
}

/* The pass ended: the hooked leaves' sums go through their hooks into .grad. */
static nn_status flush_leaves(nn_ctx *ctx, bool ok) {
    struct nn_grad_hooks *r = ctx->grad_hooks;
    nn_status st = NN_OK;
    if (!r) return st;
    for (int i = 0; i < r->np; i++) {
        nn_tensor *g = r->p[i].grad;
        r->p[i].grad = NULL;
        if (!ok || st) {
            nn_tensor_release(g);
            continue;
        }
        st = run_grad_hooks(ctx, NULL, r->p[i].leaf, &g);
        if (st)
            nn_tensor_release(g);
        else
            st = accumulate_leaf(ctx, r->p[i].leaf, g);
    }
    r->np = 0;
    hooks_compact(r);
    return st;
}

static int by_seq_desc(const void *a, const void *b) {
    const nn_node *x = *(nn_node *const *)a, *y = *(nn_node *const *)b;
    return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* A second backward through a graph whose saved tensors the first one
 * freed: PyTorch's words, the ones learners search for. */
static nn_status second_time(nn_ctx *ctx) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "Trying to backward through the graph a second time (or directly access "
                        "saved tensors after they have already been freed). Saved intermediate "
                        "values of the graph are freed when you call .backward() or "
                        "autograd.grad(). Specify retain_graph=True if you need to backward "
                        "through the graph a second time or if you need to access saved tensors "
                        "after calling backward.");
}

static const char *where_str(const nn_node *n, char *buf, int size) {
    const nn_label *l = &n->label;
    int k = snprintf(buf, (size_t)size, "'%s'", nn_op_name(n->op));
    if (l->module && k < size) k += snprintf(buf + k, (size_t)(size - k), " in %s", l->module);
    if (l->file && k < size) snprintf(buf + k, (size_t)(size - k), " (%s:%d)", l->file, l->line);
    return buf;
}

/* Before a pass over the [n] nodes in ctx->order, which collect() has just
 * stamped with a new ctx->visit_epoch: count each leaf's edges (stamped
 * with that epoch), and set aside the .grad of those with several
 * (leaf_settle). Hooked leaves sum their pass on their own (flush_leaves).
 * Returns how many leaves are in *aside (malloc'd, each retained; NULL
 * when none). */
static size_t set_aside_leaves(nn_ctx *ctx, size_t n, nn_tensor ***aside) {
    const uint32_t pass = ctx->visit_epoch;
    for (size_t k = 0; k < n; k++) {
        nn_node *node = ctx->order[k];
        for (int i = 0; i < node->n_in; i++) {
            nn_tensor *t = node->in[i].t;
            if (node->in[i].fn || !node->in[i].needs_grad || !t) continue;
            if (t->grad_pass != pass) {
                t->grad_pass = pass;
                t->grad_edges = 0;
            }
            t->grad_edges++;
        }
    }
    size_t m = 0, cap = 0;
    *aside = NULL;
    for (size_t k = 0; k < n; k++) {
        nn_node *node = ctx->order[k];
        for (int i = 0; i < node->n_in; i++) {
            nn_tensor *t = node->in[i].t;
            if (node->in[i].fn || !node->in[i].needs_grad || !t || t->grad_edges < 2 || !t->grad ||
                t->grad_before || (has_hooks(ctx) && leaf_hooked(ctx, t)))
                continue;
            if (m == cap) {
                size_t grown_cap = cap ? cap * 2 : 16;
                nn_tensor **grown = realloc(*aside, grown_cap * sizeof *grown);
                if (!grown) return m; /* the rest accumulate as they come */
                *aside = grown;
                cap = grown_cap;
            }
            t->grad_before = t->grad;
            t->grad = NULL;
            (*aside)[m++] = nn_tensor_retain(t);
        }
    }
    return m;
}

/* A fresh mark for a walk over the graph: a node whose [visit] equals it
 * was seen in this walk (0 is never a mark, so a new node is unseen). */
static uint32_t next_visit_epoch(nn_ctx *ctx) {
    uint32_t epoch = ++ctx->visit_epoch;
    return epoch ? epoch : ++ctx->visit_epoch;
}

void nn_graph_unhold(nn_ctx *ctx, nn_node *root, nn_tensor *t) {
    /* Inside a pass (a reentrant backward's forward) the epoch is the
     * pass's: leave the nodes as they are (the cycle stays, a leak, not a
     * wrong gradient). */
    if (!root || backward_runs) return;
    uint32_t epoch = next_visit_epoch(ctx);
    root->visit = epoch;
    root->link = NULL;
    nn_node *stack = root;
    while (stack) {
        nn_node *m = stack;
        stack = m->link;
        for (int i = 0; i < m->n_in; i++) {
            nn_input *in = &m->in[i];
            if (!in->fn && in->t == t) {
                nn_tensor *alias = nn_tensor_detach(ctx, t);
                if (!alias) {
                    nn_error_clear(&ctx->err); /* keep it: a leak, not a crash */
                    continue;
                }
                alias->requires_grad = false;
                in->t = alias;
                nn_tensor_release(t);
            }
            nn_node *f = in->fn;
            if (f && f->visit != epoch) {
                f->visit = epoch;
                f->link = stack;
                stack = f;
            }
        }
    }
}

/* Collect the nodes reachable from [root] into ctx->order. */
static nn_status collect(nn_ctx *ctx, nn_node *root, size_t *count) {
    uint32_t epoch = next_visit_epoch(ctx);
    size_t n = 0;
    root->visit = epoch;
    root->link = NULL;
    nn_node *stack = root;
    while (stack) {
        nn_node *m = stack;
        stack = m->link;
        if (n == ctx->order_cap) {
            size_t cap = ctx->order_cap ? ctx->order_cap * 2 : 256;
            nn_node **grown = realloc(ctx->order, cap * sizeof *grown);
            if (!grown) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory in backward");
            ctx->order = grown;
            ctx->order_cap = cap;
        }
        ctx->order[n++] = m;
        for (int i = 0; i < m->n_in; i++) {
            nn_node *f = m->in[i].fn;
            if (f && f->visit != epoch) {
                f->visit = epoch;
                f->link = stack;
                stack = f;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (ctx->order[i]->freed) return second_time(ctx);
    }
    qsort(ctx->order, n, sizeof *ctx->order, by_seq_desc);
    *count = n;
    return NN_OK;
}

/* Whether op's backward reads the values of its input [i] / of its output.
 * backward() reports an in-place change only to values it reads, as
 * PyTorch's check of saved tensors does: `h = x @ w; h += b` trains, while
 * `y = torch.tanh(x); y += 1` cannot (tanh's backward needs y). */
static bool backward_reads_input(const nn_node *n, int i) {
    switch (n->op) {
    case NN_OP_MUL:
    case NN_OP_MATMUL: return n->in[1 - i].needs_grad; /* for the other's gradient */
    case NN_OP_LINEAR: return i == 2 ? false : n->in[1 - i].needs_grad;
    case NN_OP_ADD:
    case NN_OP_SUB:
    case NN_OP_NEG:
    case NN_OP_RESHAPE:
    case NN_OP_PERMUTE:
    case NN_OP_EXPAND:
    case NN_OP_SLICE:
    case NN_OP_SELECT:
    case NN_OP_CONTIGUOUS:
    case NN_OP_CAT:
    case NN_OP_SUM:
    case NN_OP_MEAN:
    case NN_OP_TO:
    case NN_OP_EXP:
    case NN_OP_SQRT:
    case NN_OP_RSQRT:
    case NN_OP_RELU:
    case NN_OP_TANH:
    case NN_OP_SIGMOID: return false;
    case NN_OP_PUT: return i == 2; /* only the positions */
    case NN_OP_AS_STRIDED: return i == 1;
    /* add/sub with alpha, addcmul, addcdiv read their self (input 0) for
     * no gradient; lerp (kind 3 in ops_fused.c) for its weight's */
    case NN_OP_FUSED: return i != 0 || (n->p.i[0] == 3 && n->n_in > 2 && n->in[2].needs_grad);
    default: return true;
    }
}

static bool backward_reads_output(nn_op op) {
    switch (op) {
    case NN_OP_DIV:
    case NN_OP_POW:
    case NN_OP_MAXIMUM:
    case NN_OP_MINIMUM:
    case NN_OP_EXP:
    case NN_OP_SQRT:
    case NN_OP_RSQRT:
    case NN_OP_RELU:
    case NN_OP_TANH:
    case NN_OP_SIGMOID:
    case NN_OP_SOFTMAX:
    case NN_OP_LOG_SOFTMAX:
    case NN_OP_MAX:
    case NN_OP_MIN:
    case NN_OP_VAR:
    case NN_OP_STD:
    case NN_OP_LOGSUMEXP:
    case NN_OP_NORM: return true;
    default: return false;
    }
}

static nn_status check_versions(nn_ctx *ctx, const nn_node *n) {
    if (n->out && !n->out_dropped && backward_reads_output(n->op) &&
        n->out->storage->version != n->out_version) {
        char buf[256], sh[128];
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "one of the variables needed for gradient computation has been "
                            "modified by an inplace operation: the output of %s (shape %s) "
                            "was changed in place after the forward made it (version %u, now "
                            "%u), and this op's gradient needs it. Change a clone() instead.",
                            where_str(n, buf, sizeof buf),
                            nn_tensor_shape_str(n->out, sh, sizeof sh), n->out_version,
                            n->out->storage->version);
    }
    for (int i = 0; i < n->n_in; i++) {
        const nn_input *in = &n->in[i];
        if (in->dropped || !backward_reads_input(n, i)) continue;
        if (in->t && in->t->storage->version != in->version) {
            char buf[256], sh[128];
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "one of the variables needed for gradient computation has been "
                                "modified by an inplace operation: input %d of %s (shape %s) "
                                "was changed in place after the forward used it (version %u, "
                                "now %u). Change a clone() instead, or do the in-place edit "
                                "before the forward.",
                                i, where_str(n, buf, sizeof buf),
                                nn_tensor_shape_str(in->t, sh, sizeof sh), in->version,
                                in->t->storage->version);
        }
    }
    return NN_OK;
}

/* Bring a raw input gradient to the input's shape and dtype. */
static nn_tensor *fit_grad(nn_ctx *ctx, nn_tensor *g, const nn_tensor *like) {
    nn_tensor *s = nn_sum_to_shape(ctx, g, like->ndim, like->shape);
    nn_tensor_release(g);
    if (!s || s->dtype == like->dtype) return s;
    nn_tensor *c = nn_tensor_cast_raw(ctx, s, like->dtype);
    nn_tensor_release(s);
    return c;
}

/* No hook reads input gradients (none, or only the profiler). */
static bool hooks_timing_only(const nn_ctx *ctx) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (!ctx->hooks[i].timing_only) return false;
    return true;
}

/* Every hook reads no gradients, or reads them only to find non-finite
 * values (the NaN hunt), and one of them does. */
static bool hooks_nonfinite_only(const nn_ctx *ctx) {
    bool any = false;
    for (int i = 0; i < ctx->n_hooks; i++) {
        if (!ctx->hooks[i].timing_only && !ctx->hooks[i].nonfinite_only) return false;
        any |= ctx->hooks[i].nonfinite_only;
    }
    return any;
}

/* A saved tensor whose bytes are released (an FSDP weight nobody gathered
 * again) errs as PyTorch's size-0 storage, never read. */
static nn_status saved_present(nn_ctx *ctx, const nn_node *node) {
    for (int i = 0; i < node->n_in + 2; i++) {
        if (i < node->n_in && node->in[i].dropped) continue; /* a husk, never read */
        const nn_tensor *s = i < node->n_in ? node->in[i].t : node->saved[i - node->n_in];
        if (s && nn_tensor_check_storage(ctx, s)) return ctx->err.code;
    }
    return NN_OK;
}

static nn_status backward_node(nn_ctx *ctx, nn_node *node, bool retain_graph, int64_t position,
                               int64_t count, grad_capture *cap) {
    nn_tensor *din_inline[NN_NODE_INLINE_INPUTS] = {0};
    nn_tensor **din = din_inline;
    nn_status st = NN_OK;
    if (nn_node_restore_inputs(ctx, node)) return ctx->err.code;
    if (node->n_in > NN_NODE_INLINE_INPUTS) {
        din = nn_mem_calloc(sizeof(nn_tensor *) * (size_t)node->n_in, "gradients", &ctx->err);
        if (!din) return ctx->err.code;
    }
    /* A select or slice whose input's gradient is already being summed
     * (exclusively ours, same dtype) adds into its window of it and hands
     * back no input gradient; so only when no hook reads them, or when the
     * NaN hunt's would find nothing: the input gradient it would build is
     * zeros and a copy of [node]'s gradient, finite when that is (as the
     * q, k, v split of attention's in_proj: no full-size gradient per part). */
    nn_input *in0 = &node->in[0];
    bool into_sum = (node->op == NN_OP_SELECT || node->op == NN_OP_SLICE) && in0->needs_grad &&
                    in0->fn && in0->fn->grad && exclusive(in0->fn->grad) &&
                    in0->fn->grad->dtype == in0->t->dtype && node->grad->dtype == in0->t->dtype &&
                    (hooks_timing_only(ctx) ||
                     (hooks_nonfinite_only(ctx) && !nn_tensor_nonfinite(node->grad, NULL, NULL)));
    /* An embedding whose weight (a leaf) already has a gradient, as a
     * weight tied to the output layer does when backward reaches the
     * embedding, scatter-adds into it. Not with hooks on that leaf or a
     * capture (autograd.grad), which want the contribution on its own; with
     * the NaN hunt on, the scatter-add says whether its own gradient holds
     * a non-finite value, and only then is it built for the hunt to see. */
    bool into_grad = !into_sum && !cap && node->op == NN_OP_EMBEDDING && in0->needs_grad &&
                     !in0->fn && leaf_grad_in_place(in0->t, true) &&
                     nn_dtype_is_float(in0->t->dtype) && !nn_dtype_is_narrow(in0->t->dtype) &&
                     node->grad->dtype == in0->t->dtype && in0->t->ndim == 2 &&
                     !(has_hooks(ctx) && leaf_hooked(ctx, in0->t)) &&
                     (hooks_timing_only(ctx) || hooks_nonfinite_only(ctx));
    bool seen_grad = into_grad && !hooks_timing_only(ctx), own_nonfinite = false;
    /* A linear whose weight (a leaf) already has a gradient, as a recurrent
     * layer's weights do from the second step on, adds its weight gradient
     * into it with the gemm (beta = 1). The same conditions as the
     * embedding's, and few enough rows that the bits are the same. */
    nn_input *in1 = node->n_in > 1 ? &node->in[1] : NULL;
    bool into_wgrad = !into_sum && !into_grad && !cap && in1 && in1->needs_grad && !in1->fn &&
                      nn_linear_grad_into_ok(node, node->grad) &&
                      leaf_grad_in_place(in1->t, true) && node->grad->dtype == in1->t->dtype &&
                      !(has_hooks(ctx) && leaf_hooked(ctx, in1->t)) && hooks_timing_only(ctx);
    nn_hook_event ev = {NN_PHASE_BACKWARD, false, node,     node->out,
                        node->grad,        NULL,  position, count};
    if (ctx->n_hooks && !run_hooks(ctx, &ev)) {
        st = ctx->err.code;
        goto done;
    }
    if ((st = saved_present(ctx, node))) goto done;
    if (into_sum)
        st = nn_view_grad_add(ctx, node, in0->fn->grad, node->grad);
    else if (into_grad) {
        st = nn_embedding_grad_add(ctx, node, in0->t->grad, node->grad, &own_nonfinite);
        in0->t->grad->storage->version++;
    } else if (into_wgrad) {
        st = nn_linear_grad_into(ctx, node, node->grad, din, in1->t->grad);
        in1->t->grad->storage->version++;
    } else {
        /* Nothing reads the output gradient after this node: its backward
         * may write over it (ctx->grad_out_writable). */
        ctx->grad_out_writable =
            !node->retain && !cap && hooks_timing_only(ctx) && exclusive(node->grad);
        st = op_table[node->op].backward(ctx, node, node->grad, din);
        ctx->grad_out_writable = false;
    }
    if (st) goto done;
    /* already added in: the gradient built again only for the hooks */
    bool rebuilt = seen_grad && own_nonfinite;
    if (rebuilt && (st = op_table[node->op].backward(ctx, node, node->grad, din))) goto done;
    if (ctx->n_hooks) {
        ev.after = true;
        ev.grad_inputs = din;
        if (!run_hooks(ctx, &ev)) {
            st = ctx->err.code;
            goto done;
        }
    }
    /* Every input's gradient in its shape and dtype first, then the node
     * lets go of its own gradient: one handed on unchanged (an add's) is
     * then held by nothing else once a broadcast input's reduction is
     * done, and a leaf's .grad takes it instead of a copy, as PyTorch's
     * AccumulateGrad takes it. */
    for (int i = 0; i < node->n_in && !st && !rebuilt; i++) {
        if (!din[i]) continue;
        if (!node->in[i].needs_grad) {
            nn_tensor_release(din[i]);
            din[i] = NULL;
            continue;
        }
        if (!(din[i] = fit_grad(ctx, din[i], node->in[i].t))) st = ctx->err.code;
    }
    if (!st && !rebuilt && !node->retain) {
        nn_tensor_release(node->grad);
        node->grad = NULL;
    }
    for (int i = 0; i < node->n_in && !st && !rebuilt; i++) {
        nn_input *in = &node->in[i];
        if (!din[i]) continue;
        nn_tensor *g = din[i];
        din[i] = NULL;
        if (in->fn)
            st = accumulate(ctx, &in->fn->grad, g, false);
        else
            st = leaf_accumulate(ctx, in->t, g, cap);
    }
    if (!st && node->retain && !cap)
        st = accumulate(ctx, &node->retained_grad, nn_tensor_retain(node->grad), true);
    if (!st && !retain_graph) {
        release_saved(node, true);
        node->freed = true;
    }
done:
    for (int i = 0; i < node->n_in; i++) nn_tensor_release(din[i]);
    if (din != din_inline) nn_mem_free(din);
    return st;
}

static nn_status backward_run(nn_ctx *ctx, nn_tensor *root, nn_tensor *gradient, bool retain_graph,
                              grad_capture *cap) {
    char sh[128], sh2[128];
    if (ctx->depth > 0)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "backward() cannot run inside an op");
    if (nn_view_refresh(ctx, root)) return ctx->err.code;
    if (!root->requires_grad)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "backward(): this tensor does not require grad and has no grad_fn. "
                            "Did the parameters get requires_grad, and was the forward run "
                            "outside no_grad()?");
    nn_tensor *g;
    if (!gradient) {
        if (nn_tensor_numel(root) != 1)
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                                "backward() without a gradient needs a one-element output; "
                                "this one has shape %s. Reduce it first (e.g. .sum() or "
                                ".mean()), or pass gradient=",
                                nn_tensor_shape_str(root, sh, sizeof sh));
        g = nn_ones(ctx, root->dtype, root->ndim, root->shape);
    } else {
        if (!nn_tensor_same_shape(gradient, root))
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "backward(gradient): the gradient has shape %s but the output "
                                "has shape %s",
                                nn_tensor_shape_str(gradient, sh, sizeof sh),
                                nn_tensor_shape_str(root, sh2, sizeof sh2));
        g = nn_tensor_cast_raw(ctx, gradient, root->dtype);
    }
    if (!g) return ctx->err.code;
    if (!root->grad_fn) {
        nn_status lst = leaf_accumulate(ctx, root, g, cap);
        return lst || cap ? lst : flush_leaves(ctx, true);
    }

    size_t n = 0;
    if (collect(ctx, root->grad_fn, &n)) {
        nn_tensor_release(g);
        return ctx->err.code;
    }
    nn_node *top = root->grad_fn;
    nn_tensor_release(top->grad);
    top->grad = g;
    nn_tensor **aside = NULL;
    size_t n_aside = cap ? 0 : set_aside_leaves(ctx, n, &aside);

    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = NN_OK;
    size_t k = 0;
    backward_runs++;
    for (; k < n && !st; k++) {
        nn_node *node = ctx->order[k];
        if (!node->grad) continue;
        if (nn_ctx_check_interrupt(ctx) || check_versions(ctx, node)) {
            st = ctx->err.code;
            break;
        }
        ctx->depth++;
        if (has_hooks(ctx)) st = run_grad_hooks(ctx, node, NULL, &node->grad);
        /* A non-leaf input's gradient is complete when its node comes up. */
        for (int i = 0; cap && !st && i < cap->n; i++)
            if (cap->inputs[i]->grad_fn == node && !cap->grads[i])
                cap->grads[i] = nn_tensor_retain(node->grad);
        if (!st) st = backward_node(ctx, node, retain_graph, (int64_t)k + 1, (int64_t)n, cap);
        ctx->depth--;
        nn_tensor_release(node->grad);
        node->grad = NULL;
    }
    backward_runs--;
    /* On an error or a stop, drop the gradients still in flight; the graph
     * itself stays for inspection. */
    for (size_t i = 0; i < n; i++) {
        nn_tensor_release(ctx->order[i]->grad);
        ctx->order[i]->grad = NULL;
    }
    for (size_t i = 0; i < n_aside; i++) {
        nn_tensor *t = aside[i];
        nn_status sst = t->grad_before ? leaf_settle(ctx, t) : NN_OK;
        if (!st) st = sst;
        nn_tensor_release(t);
    }
    free(aside);
    nn_status fst = flush_leaves(ctx, st == NN_OK);
    if (!st) st = fst;
    for (int i = 0; i < ctx->n_hooks; i++) {
        nn_hook_slot *h = &ctx->hooks[i];
        if (!h->end) continue;
        nn_status est = h->end(ctx, st == NN_OK, h->user);
        if (!st) st = est;
    }
    nn_ctx_set_grad(ctx, prev);
    return st;
}

nn_status nn_backward(nn_ctx *ctx, nn_tensor *root, nn_tensor *gradient, bool retain_graph) {
    return backward_run(ctx, root, gradient, retain_graph, NULL);
}

nn_status nn_grad(nn_ctx *ctx, nn_tensor *root, nn_tensor *gradient, bool retain_graph,
                  nn_tensor *const *inputs, int n, nn_tensor **grads) {
    grad_capture cap = {inputs, n, grads};
    for (int i = 0; i < n; i++) grads[i] = NULL;
    nn_status st = backward_run(ctx, root, gradient, retain_graph, &cap);
    if (st)
        for (int i = 0; i < n; i++) {
            nn_tensor_release(grads[i]);
            grads[i] = NULL;
        }
    return st;
}

/* ---- a backward pass written above the engine ---- */

nn_status nn_node_check(nn_ctx *ctx, const nn_node *node) {
    if (node->freed) return second_time(ctx);
    if (saved_present(ctx, node)) return ctx->err.code;
    return check_versions(ctx, node);
}

nn_status nn_node_restore_inputs(nn_ctx *ctx, nn_node *n) {
    for (int i = 0; i < n->n_in; i++) {
        nn_input *in = &n->in[i];
        if (!in->recompute) continue;
        nn_node *p = in->fn; /* the GELU or layer norm: its inputs, unchanged since */
        if (nn_node_check(ctx, p)) return ctx->err.code;
        nn_tensor *args[NN_NODE_INLINE_INPUTS];
        for (int j = 0; j < p->n_in; j++) args[j] = p->in[j].t;
        /* run directly, as an op inside a backward: not recorded, no hooks */
        bool prev = nn_ctx_set_grad(ctx, false);
        ctx->depth++;
        nn_tensor *y = nn_exec(ctx, p->op, args, p->n_in, &p->p);
        ctx->depth--;
        nn_ctx_set_grad(ctx, prev);
        if (!y) return ctx->err.code;
        y->storage->version = in->version;
        nn_tensor_release(in->t);
        in->t = y;
        in->recompute = false;
    }
    return NN_OK;
}

nn_status nn_node_vjp(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    for (int i = 0; i < node->n_in; i++) din[i] = NULL;
    /* _graph_nodes made a let-go input again already; any other caller too */
    if (nn_node_restore_inputs(ctx, node) || nn_node_check(ctx, node)) return ctx->err.code;
    bool prev = nn_ctx_set_grad(ctx, false);
    ctx->depth++;
    nn_status st = op_table[node->op].backward(ctx, node, dout, din);
    ctx->depth--;
    nn_ctx_set_grad(ctx, prev);
    for (int i = 0; i < node->n_in; i++) {
        if (!din[i]) continue;
        if (st || !node->in[i].needs_grad) {
            nn_tensor_release(din[i]);
            din[i] = NULL;
            continue;
        }
        din[i] = fit_grad(ctx, din[i], node->in[i].t);
        if (!din[i]) st = ctx->err.code;
    }
    return st;
}

void nn_node_free_saved(nn_node *node) {
    release_saved(node, true);
    node->freed = true;
}

void nn_graph_reenter(nn_ctx *ctx, nn_graph_reentry *s) {
    s->depth = ctx->depth;
    s->grad_enabled = ctx->grad_enabled;
    s->order = ctx->order;
    s->order_cap = ctx->order_cap;
    ctx->depth = 0;
    ctx->order = NULL;
    ctx->order_cap = 0;
    struct nn_grad_hooks *r = ctx->grad_hooks;
    s->pending = r ? r->p : NULL;
    s->n_pending = r ? r->np : 0;
    s->cap_pending = r ? r->capp : 0;
    if (r) {
        r->p = NULL;
        r->np = r->capp = 0;
    }
}

void nn_graph_leave(nn_ctx *ctx, const nn_graph_reentry *s) {
    free(ctx->order);
    ctx->order = s->order;
    ctx->order_cap = s->order_cap;
    ctx->depth = s->depth;
    nn_ctx_set_grad(ctx, s->grad_enabled);
    struct nn_grad_hooks *r = ctx->grad_hooks;
    if (r) { /* the inner passes flushed theirs */
        for (int i = 0; i < r->np; i++) nn_tensor_release(r->p[i].grad);
        free(r->p);
        r->p = s->pending;
        r->np = s->n_pending;
        r->capp = s->cap_pending;
    }
}
