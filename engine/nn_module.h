/* nn_module: a tree of layers mirroring torch.nn (Linear, Embedding,
 * LayerNorm, Dropout, activations, Sequential, ModuleList, an MLP helper, a
 * causal self-attention block, a pre-norm transformer Block and a GPT model).
 *
 * A module has a kind, a training flag, named parameters (leaf float tensors
 * that require grad), named buffers, and ordered named children. While a
 * module's forward runs, every node it records carries its dotted path from
 * the root ("model.blocks.1.attn") as the node's label.
 *
 * Ownership: constructors return a module with one reference, owned by the
 * caller and given back with nn_module_release (which accepts NULL).
 * Modules are refcounted so a language can share them; a module holds a
 * reference to each child and each parameter and buffer tensor. Modules and
 * tensors passed in are borrowed (retained when kept). Functions returning
 * nn_module * or nn_tensor * from a lookup return borrowed pointers, valid
 * while the module holds them. On a user error a function returns NULL or a
 * status and fills ctx->err.
 */
#ifndef NN_MODULE_H
#define NN_MODULE_H

#include <stddef.h>

#include "nn_ctx.h"
#include "nn_state.h"

typedef enum nn_module_kind {
    NN_MODULE_LINEAR,
    NN_MODULE_EMBEDDING,
    NN_MODULE_LAYER_NORM,
    NN_MODULE_DROPOUT,
    NN_MODULE_RELU,
    NN_MODULE_LEAKY_RELU,
    NN_MODULE_TANH,
    NN_MODULE_SIGMOID,
    NN_MODULE_GELU,
    NN_MODULE_SILU,
    NN_MODULE_SOFTMAX,
    NN_MODULE_FLATTEN,
    NN_MODULE_SEQUENTIAL,
    NN_MODULE_MODULE_LIST,
    NN_MODULE_ATTENTION, /* CausalSelfAttention */
    NN_MODULE_BLOCK,     /* pre-norm transformer block */
    NN_MODULE_GPT,
    NN_MODULE_BATCH_NORM1D,
    NN_MODULE_GROUP_NORM,
    NN_MODULE_KIND_COUNT
} nn_module_kind;

#define NN_MODULE_NAME_MAX  32  /* a parameter, buffer or child name */
#define NN_MODULE_PATH_MAX  256 /* a dotted path */
#define NN_MODULE_MAX_SLOTS 4   /* parameters (or buffers) of one module */

/* A named tensor slot; [t] is NULL for a parameter registered as None (the
 * bias of Linear(bias=False)), which parameters() and state_dict skip. */
typedef struct nn_module_slot {
    char name[NN_MODULE_NAME_MAX];
    nn_tensor *t;
} nn_module_slot;

typedef struct nn_module_entry {
    char name[NN_MODULE_NAME_MAX];
    struct nn_module *m;
} nn_module_entry;

/* GPT hyper-parameters (nanoGPT's names). */
typedef struct nn_gpt_config {
    int64_t vocab_size;
    int64_t block_size; /* longest sequence (position embeddings) */
    int64_t n_layer, n_head, n_embd;
    double dropout; /* embeddings, residual branches */
    bool bias;      /* biases in Linear and LayerNorm layers of the blocks */
    bool tied;      /* output head shares the token embedding's weight */
} nn_gpt_config;

/* nanoGPT's small defaults scaled down: vocab 256, block 64, 2 layers, 4
 * heads, 64 channels, no dropout, biases, tied head. */
nn_gpt_config nn_gpt_config_default(void);

typedef struct nn_module {
    int32_t refcount;
    nn_module_kind kind;
    bool training; /* true after construction, as in PyTorch */
    nn_module_slot params[NN_MODULE_MAX_SLOTS];
    int n_params;
    nn_module_slot buffers[NN_MODULE_MAX_SLOTS];
    int n_buffers;
    nn_module_entry *children;
    int n_children, cap_children;
    /* The kind's configuration (each kind reads its own fields). */
    struct {
        int64_t in, out; /* Linear in/out_features; Embedding num, dim */
        bool bias;       /* Linear */
        int n_norm;      /* LayerNorm: normalized_shape */
        int64_t norm_shape[NN_MAX_DIMS];
        double eps;                 /* LayerNorm */
        bool affine;                /* LayerNorm elementwise_affine */
        double p;                   /* Dropout */
        double slope;               /* LeakyReLU */
        bool approx_tanh;           /* GELU approximate='tanh' */
        int64_t dim;                /* Softmax */
        int64_t start_dim, end_dim; /* Flatten */
        int64_t n_embd, n_head;     /* attention, Block */
        nn_gpt_config gpt;          /* GPT */
        /* BatchNorm1d: num_features is [in]; momentum NAN for None */
        double momentum;
        bool track_running_stats;
        int64_t num_groups; /* GroupNorm (num_channels is [in]) */
    } cfg;
} nn_module;

/* "Linear", "CausalSelfAttention", ... (PyTorch's class names). */
const char *nn_module_kind_name(nn_module_kind kind);

/* ---- lifetime ---- */
nn_module *nn_module_retain(nn_module *m);
void nn_module_release(nn_module *m);

/* ---- constructors (default init as PyTorch's; see docs/modules.md) ---- */
nn_module *nn_module_linear(nn_ctx *ctx, int64_t in_features, int64_t out_features, bool bias);
nn_module *nn_module_embedding(nn_ctx *ctx, int64_t num_embeddings, int64_t embedding_dim);
/* normalized_shape is shape[0..n) (n >= 1). */
nn_module *nn_module_layer_norm(nn_ctx *ctx, int n, const int64_t *shape, double eps, bool affine);
nn_module *nn_module_dropout(nn_ctx *ctx, double p);
/* BatchNorm1d over [N, C] or [N, C, L]: weight (ones) and bias (zeros) when
 * [affine]; buffers running_mean, running_var, num_batches_tracked (int64)
 * when [track_running_stats]. [momentum] NAN means None (a cumulative
 * average). GroupNorm: num_channels divisible by num_groups. */
nn_module *nn_module_batch_norm1d(nn_ctx *ctx, int64_t num_features, double eps, double momentum,
                                  bool affine, bool track_running_stats);
nn_module *nn_module_group_norm(nn_ctx *ctx, int64_t num_groups, int64_t num_channels, double eps,
                                bool affine);
nn_module *nn_module_relu(nn_ctx *ctx);
nn_module *nn_module_leaky_relu(nn_ctx *ctx, double negative_slope);
nn_module *nn_module_tanh(nn_ctx *ctx);
nn_module *nn_module_sigmoid(nn_ctx *ctx);
nn_module *nn_module_gelu(nn_ctx *ctx, bool approximate_tanh);
nn_module *nn_module_silu(nn_ctx *ctx);
nn_module *nn_module_softmax(nn_ctx *ctx, int64_t dim);
nn_module *nn_module_flatten(nn_ctx *ctx, int64_t start_dim, int64_t end_dim);
/* Containers retain children[0..n) (borrowed; the caller keeps its own
 * references). Children are named "0", "1", ... */
nn_module *nn_module_sequential(nn_ctx *ctx, nn_module *const *children, int n);
nn_module *nn_module_module_list(nn_ctx *ctx, nn_module *const *children, int n);
/* Append [child] (retained) to a Sequential or ModuleList under the next
 * index. A child that contains [m] (a cycle) is an error. */
nn_status nn_module_append(nn_ctx *ctx, nn_module *m, nn_module *child);
/* Sequential(Linear(sizes[0], sizes[1]), act, ..., Linear(sizes[n-2],
 * sizes[n-1])): an activation of kind [act] (ReLU, LeakyReLU (0.01), Tanh,
 * Sigmoid, GELU, SiLU) between the linear layers, none after the last. */
nn_module *nn_module_mlp(nn_ctx *ctx, const int64_t *sizes, int n, nn_module_kind act);
/* Children qkv (Linear C -> 3C), proj (Linear C -> C), drop (Dropout). */
nn_module *nn_module_attention(nn_ctx *ctx, int64_t n_embd, int64_t n_head, double dropout,
                               bool bias);
/* Children ln1, attn, ln2, mlp (Sequential: Linear C -> 4C, GELU, Linear 4C
 * -> C, Dropout): x + attn(ln1(x)), then x + mlp(ln2(x)). */
nn_module *nn_module_block(nn_ctx *ctx, int64_t n_embd, int64_t n_head, double dropout, bool bias);
/* Children tok_emb, pos_emb, drop, blocks (ModuleList of Blocks), ln_f,
 * head (Linear n_embd -> vocab, no bias; its weight is tok_emb's when
 * tied). nanoGPT's init: see docs/modules.md. */
nn_module *nn_module_gpt(nn_ctx *ctx, const nn_gpt_config *cfg);

/* ---- running ----
 * Run [m] on [x]. [name] is the root's path in labels (the language passes
 * the variable's name, "model"); NULL means "model". Nodes recorded while a
 * module runs carry its path; the caller's label is restored on return.
 * GPT takes int64 token ids [B, T] (or [T]) and returns logits [B, T, V]. */
nn_tensor *nn_module_forward(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *name);
/* GPT: mean cross-entropy of the logits against int64 [targets] (same shape
 * as [idx]; -1 is ignored, as in nanoGPT). When [logits] is not NULL it gets
 * a new reference to the logits. */
nn_tensor *nn_module_gpt_loss(nn_ctx *ctx, nn_module *m, nn_tensor *idx, nn_tensor *targets,
                              const char *name, nn_tensor **logits);

/* ---- structure ---- */
int nn_module_num_children(const nn_module *m);
/* Borrowed; NULL when out of range. */
nn_module *nn_module_child(const nn_module *m, int i);
const char *nn_module_child_name(const nn_module *m, int i);
/* Sequential/ModuleList indexing, negative from the end (borrowed). */
nn_module *nn_module_index(nn_ctx *ctx, nn_module *m, int64_t i);
/* Direct child by name (borrowed). */
nn_module *nn_module_get(nn_ctx *ctx, nn_module *m, const char *name);
/* Descendant by dotted path, "" for [m] itself (borrowed). */
nn_module *nn_module_find(nn_ctx *ctx, nn_module *m, const char *path);
/* A parameter or buffer by dotted path ("blocks.1.attn.qkv.bias"), borrowed;
 * NULL with ctx->err set when there is none. */
nn_tensor *nn_module_find_tensor(nn_ctx *ctx, nn_module *m, const char *path);
/* Own parameter [name] (borrowed), or NULL. */
nn_tensor *nn_module_param(const nn_module *m, const char *name);
/* Replace own parameter [name] with [t] (retained; made to require grad),
 * as `m.weight = p` does; NULL registers None. [t] must be a float leaf. */
nn_status nn_module_set_param(nn_ctx *ctx, nn_module *m, const char *name, nn_tensor *t);

/* ---- parameters ----
 * In PyTorch's order (a module's own parameters, then each child's in
 * order), each tensor once even when shared (a tied head). parameters:
 * *out gets a malloc'ed array of borrowed pointers (free it with free()),
 * *n its length. named_parameters appends (path, parameter) pairs to [out]
 * (which holds references). */
nn_status nn_module_parameters(nn_ctx *ctx, nn_module *m, nn_tensor ***out, int *n);
nn_status nn_module_named_parameters(nn_ctx *ctx, nn_module *m, nn_state *out);
int64_t nn_module_num_params(nn_module *m);
/* Set the training flag of [m] and every descendant. */
void nn_module_train(nn_module *m, bool mode);
void nn_module_eval(nn_module *m);
/* module.double() / float() / to(dtype): convert every float parameter and
 * buffer (and their gradients) to [dt] in place, as PyTorch does: the
 * tensors keep their identity, so a reference the caller holds sees the new
 * dtype. An optimizer made before refuses to step afterwards (its state has
 * the old dtype). [dt] must be a float dtype. */
nn_status nn_module_to_dtype(nn_ctx *ctx, nn_module *m, nn_dtype dt);
/* Drop every parameter's gradient, or zero it in place. */
nn_status nn_module_zero_grad(nn_ctx *ctx, nn_module *m, bool set_to_none);

/* ---- text ----
 * PyTorch's repr. nn_module_repr writes into buf[cap] (truncated, always
 * terminated) and returns the full length, as snprintf does;
 * nn_module_repr_alloc returns a malloc'ed string the caller frees, or NULL
 * when out of memory. */
size_t nn_module_repr(const nn_module *m, char *buf, size_t cap);
char *nn_module_repr_alloc(const nn_module *m);

/* ---- state ----
 * state_dict appends every parameter and buffer by dotted path, as PyTorch
 * does (a tied weight under both of its names), as detached aliases that
 * share storage. load_state_dict checks every key, shape and dtype first and
 * copies only when all agree: on any mismatch it returns an error naming the
 * first problem (the key and both shapes or dtypes) and the module is
 * unchanged. With [strict], keys missing from [s] and keys [m] does not have
 * are errors; without, they are skipped. */
nn_status nn_module_state_dict(nn_ctx *ctx, nn_module *m, nn_state *out);
nn_status nn_module_load_state_dict(nn_ctx *ctx, nn_module *m, const nn_state *s, bool strict);

#endif
