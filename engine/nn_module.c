/* nn_module: the module tree, its forwards, traversal, repr and state. See
 * nn_module.h and docs/modules.md. */
#include "nn_module.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_init.h"
#include "nn_ops.h"

static const char *const kind_names[NN_MODULE_KIND_COUNT] = {
    [NN_MODULE_LINEAR] = "Linear",
    [NN_MODULE_EMBEDDING] = "Embedding",
    [NN_MODULE_LAYER_NORM] = "LayerNorm",
    [NN_MODULE_DROPOUT] = "Dropout",
    [NN_MODULE_RELU] = "ReLU",
    [NN_MODULE_LEAKY_RELU] = "LeakyReLU",
    [NN_MODULE_TANH] = "Tanh",
    [NN_MODULE_SIGMOID] = "Sigmoid",
    [NN_MODULE_GELU] = "GELU",
    [NN_MODULE_SILU] = "SiLU",
    [NN_MODULE_SOFTMAX] = "Softmax",
    [NN_MODULE_FLATTEN] = "Flatten",
    [NN_MODULE_SEQUENTIAL] = "Sequential",
    [NN_MODULE_MODULE_LIST] = "ModuleList",
    [NN_MODULE_ATTENTION] = "CausalSelfAttention",
    [NN_MODULE_BLOCK] = "Block",
    [NN_MODULE_GPT] = "GPT",
    [NN_MODULE_BATCH_NORM1D] = "BatchNorm1d",
    [NN_MODULE_GROUP_NORM] = "GroupNorm",
};

const char *nn_module_kind_name(nn_module_kind kind) {
    return kind >= 0 && kind < NN_MODULE_KIND_COUNT ? kind_names[kind] : "Module";
}

nn_gpt_config nn_gpt_config_default(void) {
    nn_gpt_config c = {.vocab_size = 256,
                       .block_size = 64,
                       .n_layer = 2,
                       .n_head = 4,
                       .n_embd = 64,
                       .dropout = 0.0,
                       .bias = true,
                       .tied = true};
    return c;
}

/* ---- lifetime ---- */

static nn_module *module_new(nn_ctx *ctx, nn_module_kind kind) {
    nn_module *m = calloc(1, sizeof *m);
    if (!m) {
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", kind_names[kind]);
        return NULL;
    }
    m->refcount = 1;
    m->kind = kind;
    m->training = true;
    return m;
}

nn_module *nn_module_retain(nn_module *m) {
    if (m) m->refcount++;
    return m;
}

void nn_module_release(nn_module *m) {
    if (!m || --m->refcount > 0) return;
    for (int i = 0; i < m->n_params; i++) nn_tensor_release(m->params[i].t);
    for (int i = 0; i < m->n_buffers; i++) nn_tensor_release(m->buffers[i].t);
    for (int i = 0; i < m->n_children; i++) nn_module_release(m->children[i].m);
    free(m->children);
    free(m);
}

/* A fresh float32 parameter of [shape] (zeros until initialised). */
static nn_tensor *new_param(nn_ctx *ctx, nn_module *m, const char *name, int ndim,
                            const int64_t *shape) {
    NN_ASSERT(m->n_params < NN_MODULE_MAX_SLOTS);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, ndim, shape);
    if (!t) return NULL;
    nn_tensor_requires_grad_(ctx, t, true);
    nn_module_slot *s = &m->params[m->n_params++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->t = t;
    return t;
}

/* Register [name] as None (Linear(bias=False)'s bias). */
static void none_param(nn_module *m, const char *name) {
    NN_ASSERT(m->n_params < NN_MODULE_MAX_SLOTS);
    nn_module_slot *s = &m->params[m->n_params++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->t = NULL;
}

static bool contains(const nn_module *root, const nn_module *m) {
    if (root == m) return true;
    for (int i = 0; i < root->n_children; i++)
        if (contains(root->children[i].m, m)) return true;
    return false;
}

/* Add [child] under [name], taking over the caller's reference. */
static nn_status add_child_take(nn_ctx *ctx, nn_module *m, const char *name, nn_module *child) {
    if (!child) return ctx->err.code ? ctx->err.code : NN_ERR_VALUE;
    if (m->n_children == m->cap_children) {
        int cap = m->cap_children ? 2 * m->cap_children : 4;
        nn_module_entry *grown = realloc(m->children, sizeof *grown * (size_t)cap);
        if (!grown) {
            nn_module_release(child);
            return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory adding a child",
                                kind_names[m->kind]);
        }
        m->children = grown;
        m->cap_children = cap;
    }
    nn_module_entry *c = &m->children[m->n_children++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->m = child;
    return NN_OK;
}

static nn_status add_child_index_take(nn_ctx *ctx, nn_module *m, nn_module *child) {
    char name[24];
    snprintf(name, sizeof name, "%d", m->n_children);
    return add_child_take(ctx, m, name, child);
}

/* ---- constructors ---- */

static nn_module *fail_free(nn_module *m) {
    nn_module_release(m);
    return NULL;
}

/* torch.nn.Linear.reset_parameters: kaiming_uniform_(a=sqrt(5)), which is
 * U(-1/sqrt(in), 1/sqrt(in)), and the bias from the same bound. */
static nn_status linear_reset(nn_ctx *ctx, nn_module *m) {
    nn_tensor *w = m->params[0].t, *b = m->params[1].t;
    if (nn_init_kaiming_uniform_(ctx, w, sqrt(5.0), NN_INIT_FAN_IN, "leaky_relu"))
        return ctx->err.code;
    if (b) {
        int64_t fi, fo;
        if (nn_init_fans(ctx, w, &fi, &fo)) return ctx->err.code;
        double bound = fi > 0 ? 1.0 / sqrt((double)fi) : 0.0;
        if (nn_init_uniform_(ctx, b, -bound, bound)) return ctx->err.code;
    }
    return NN_OK;
}

nn_module *nn_module_linear(nn_ctx *ctx, int64_t in, int64_t out, bool bias) {
    if (in < 0 || out < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "Linear: in_features and out_features must be >= 0, got %lld and %lld",
                     (long long)in, (long long)out);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_LINEAR);
    if (!m) return NULL;
    m->cfg.in = in;
    m->cfg.out = out;
    m->cfg.bias = bias;
    int64_t ws[2] = {out, in};
    if (!new_param(ctx, m, "weight", 2, ws)) return fail_free(m);
    if (bias) {
        if (!new_param(ctx, m, "bias", 1, &out)) return fail_free(m);
    } else {
        none_param(m, "bias");
    }
    if (linear_reset(ctx, m)) return fail_free(m);
    return m;
}

nn_module *nn_module_embedding(nn_ctx *ctx, int64_t num, int64_t dim) {
    if (num < 0 || dim < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "Embedding: num_embeddings and embedding_dim must be >= 0, got %lld and %lld",
                     (long long)num, (long long)dim);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_EMBEDDING);
    if (!m) return NULL;
    m->cfg.in = num;
    m->cfg.out = dim;
    int64_t ws[2] = {num, dim};
    nn_tensor *w = new_param(ctx, m, "weight", 2, ws);
    if (!w || nn_init_normal_(ctx, w, 0.0, 1.0)) return fail_free(m);
    return m;
}

nn_module *nn_module_layer_norm(nn_ctx *ctx, int n, const int64_t *shape, double eps, bool affine) {
    if (n < 1 || n > NN_MAX_DIMS || !shape) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "LayerNorm: normalized_shape needs 1 to %d dims, got %d", NN_MAX_DIMS, n);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (shape[i] < 0) {
            nn_error_set(&ctx->err, NN_ERR_VALUE, "LayerNorm: normalized_shape has size %lld < 0",
                         (long long)shape[i]);
            return NULL;
        }
    if (!(eps >= 0)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "LayerNorm: eps must be >= 0, got %g", eps);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_LAYER_NORM);
    if (!m) return NULL;
    m->cfg.n_norm = n;
    memcpy(m->cfg.norm_shape, shape, sizeof(int64_t) * (size_t)n);
    m->cfg.eps = eps;
    m->cfg.affine = affine;
    if (affine) {
        nn_tensor *w = new_param(ctx, m, "weight", n, shape);
        nn_tensor *b = w ? new_param(ctx, m, "bias", n, shape) : NULL;
        if (!b || nn_init_ones_(ctx, w)) return fail_free(m);
    } else {
        none_param(m, "weight");
        none_param(m, "bias");
    }
    return m;
}

/* A buffer [name] of [shape] filled with [value] (NULL dtype slot for None). */
static nn_tensor *new_buffer(nn_ctx *ctx, nn_module *m, const char *name, nn_dtype dt, int ndim,
                             const int64_t *shape, double value) {
    NN_ASSERT(m->n_buffers < NN_MODULE_MAX_SLOTS);
    nn_tensor *t = nn_full(ctx, dt, ndim, shape, value);
    if (!t) return NULL;
    nn_module_slot *s = &m->buffers[m->n_buffers++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->t = t;
    return t;
}

static void none_buffer(nn_module *m, const char *name) {
    NN_ASSERT(m->n_buffers < NN_MODULE_MAX_SLOTS);
    nn_module_slot *s = &m->buffers[m->n_buffers++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->t = NULL;
}

/* weight (ones) and bias (zeros) of [c], or both None. */
static bool affine_params(nn_ctx *ctx, nn_module *m, int64_t c, bool affine) {
    if (!affine) {
        none_param(m, "weight");
        none_param(m, "bias");
        return true;
    }
    nn_tensor *w = new_param(ctx, m, "weight", 1, &c);
    nn_tensor *b = w ? new_param(ctx, m, "bias", 1, &c) : NULL;
    return b && !nn_init_ones_(ctx, w);
}

nn_module *nn_module_batch_norm1d(nn_ctx *ctx, int64_t c, double eps, double momentum, bool affine,
                                  bool track) {
    if (c < 0 || !(eps >= 0)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "BatchNorm1d: num_features must be >= 0 and eps >= 0, got %lld and %g",
                     (long long)c, eps);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_BATCH_NORM1D);
    if (!m) return NULL;
    m->cfg.in = c;
    m->cfg.eps = eps;
    m->cfg.momentum = momentum;
    m->cfg.affine = affine;
    m->cfg.track_running_stats = track;
    if (!affine_params(ctx, m, c, affine)) return fail_free(m);
    if (track) {
        if (!new_buffer(ctx, m, "running_mean", NN_FLOAT32, 1, &c, 0) ||
            !new_buffer(ctx, m, "running_var", NN_FLOAT32, 1, &c, 1) ||
            !new_buffer(ctx, m, "num_batches_tracked", NN_INT64, 0, NULL, 0))
            return fail_free(m);
    } else {
        none_buffer(m, "running_mean");
        none_buffer(m, "running_var");
        none_buffer(m, "num_batches_tracked");
    }
    return m;
}

nn_module *nn_module_group_norm(nn_ctx *ctx, int64_t groups, int64_t c, double eps, bool affine) {
    if (groups <= 0 || c < 0 || c % groups != 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "num_channels must be divisible by num_groups");
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_GROUP_NORM);
    if (!m) return NULL;
    m->cfg.in = c;
    m->cfg.num_groups = groups;
    m->cfg.eps = eps;
    m->cfg.affine = affine;
    if (!affine_params(ctx, m, c, affine)) return fail_free(m);
    return m;
}

/* torch's _BatchNorm.forward: count the batch, pick the averaging factor,
 * normalise with the batch's statistics when training (or when there are
 * no running ones), else with the running ones. */
static nn_tensor *batch_norm_forward(nn_ctx *ctx, nn_module *m, nn_tensor *x) {
    nn_module_slot *p = m->params, *b = m->buffers;
    if (x->ndim != 2 && x->ndim != 3) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "expected 2D or 3D input (got %dD input)", x->ndim);
        return NULL;
    }
    double factor = isnan(m->cfg.momentum) ? 0.0 : m->cfg.momentum;
    if (m->training && m->cfg.track_running_stats && b[2].t) {
        nn_tensor *one = nn_scalar(ctx, 1, NN_INT64);
        bool prev = nn_ctx_set_grad(ctx, false);
        nn_status st = one ? nn_tensor_add_(ctx, b[2].t, one, 1.0) : ctx->err.code;
        nn_ctx_set_grad(ctx, prev);
        nn_tensor_release(one);
        if (st) return NULL;
        if (isnan(m->cfg.momentum)) factor = 1.0 / nn_tensor_get_flat(b[2].t, 0);
    }
    bool use_batch = m->training || (!b[0].t && !b[1].t);
    bool pass_running = !m->training || m->cfg.track_running_stats;
    return nn_batch_norm(ctx, x, pass_running ? b[0].t : NULL, pass_running ? b[1].t : NULL, p[0].t,
                         p[1].t, use_batch, factor, m->cfg.eps);
}

nn_module *nn_module_dropout(nn_ctx *ctx, double p) {
    if (!(p >= 0 && p <= 1)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "Dropout: p is the probability of zeroing an element and must lie in [0, 1], "
                     "got %g",
                     p);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_DROPOUT);
    if (m) m->cfg.p = p;
    return m;
}

nn_module *nn_module_relu(nn_ctx *ctx) {
    return module_new(ctx, NN_MODULE_RELU);
}

nn_module *nn_module_leaky_relu(nn_ctx *ctx, double slope) {
    nn_module *m = module_new(ctx, NN_MODULE_LEAKY_RELU);
    if (m) m->cfg.slope = slope;
    return m;
}

nn_module *nn_module_tanh(nn_ctx *ctx) {
    return module_new(ctx, NN_MODULE_TANH);
}

nn_module *nn_module_sigmoid(nn_ctx *ctx) {
    return module_new(ctx, NN_MODULE_SIGMOID);
}

nn_module *nn_module_gelu(nn_ctx *ctx, bool approximate_tanh) {
    nn_module *m = module_new(ctx, NN_MODULE_GELU);
    if (m) m->cfg.approx_tanh = approximate_tanh;
    return m;
}

nn_module *nn_module_silu(nn_ctx *ctx) {
    return module_new(ctx, NN_MODULE_SILU);
}

nn_module *nn_module_softmax(nn_ctx *ctx, int64_t dim) {
    nn_module *m = module_new(ctx, NN_MODULE_SOFTMAX);
    if (m) m->cfg.dim = dim;
    return m;
}

nn_module *nn_module_flatten(nn_ctx *ctx, int64_t start_dim, int64_t end_dim) {
    nn_module *m = module_new(ctx, NN_MODULE_FLATTEN);
    if (m) {
        m->cfg.start_dim = start_dim;
        m->cfg.end_dim = end_dim;
    }
    return m;
}

static nn_module *container(nn_ctx *ctx, nn_module_kind kind, nn_module *const *children, int n) {
    if (n < 0 || (n > 0 && !children)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: bad list of %d children", kind_names[kind], n);
        return NULL;
    }
    nn_module *m = module_new(ctx, kind);
    if (!m) return NULL;
    for (int i = 0; i < n; i++) {
        if (!children[i]) {
            nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: child %d is not a module", kind_names[kind],
                         i);
            return fail_free(m);
        }
        if (add_child_index_take(ctx, m, nn_module_retain(children[i]))) return fail_free(m);
    }
    return m;
}

nn_module *nn_module_sequential(nn_ctx *ctx, nn_module *const *children, int n) {
    return container(ctx, NN_MODULE_SEQUENTIAL, children, n);
}

nn_module *nn_module_module_list(nn_ctx *ctx, nn_module *const *children, int n) {
    return container(ctx, NN_MODULE_MODULE_LIST, children, n);
}

nn_status nn_module_append(nn_ctx *ctx, nn_module *m, nn_module *child) {
    if (!m || !child) return nn_error_set(&ctx->err, NN_ERR_VALUE, "append: needs two modules");
    if (m->kind != NN_MODULE_SEQUENTIAL && m->kind != NN_MODULE_MODULE_LIST)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "append: only Sequential and ModuleList take new children, not %s",
                            kind_names[m->kind]);
    if (contains(child, m))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "append: the %s being appended contains the %s it is appended to; a "
                            "module cannot contain itself",
                            kind_names[child->kind], kind_names[m->kind]);
    return add_child_index_take(ctx, m, nn_module_retain(child));
}

static nn_module *activation(nn_ctx *ctx, nn_module_kind act) {
    switch (act) {
    case NN_MODULE_RELU: return nn_module_relu(ctx);
    case NN_MODULE_LEAKY_RELU: return nn_module_leaky_relu(ctx, 0.01);
    case NN_MODULE_TANH: return nn_module_tanh(ctx);
    case NN_MODULE_SIGMOID: return nn_module_sigmoid(ctx);
    case NN_MODULE_GELU: return nn_module_gelu(ctx, false);
    case NN_MODULE_SILU: return nn_module_silu(ctx);
    default:
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "MLP: act must be an activation (ReLU, LeakyReLU, Tanh, Sigmoid, GELU, "
                     "SiLU), not %s",
                     nn_module_kind_name(act));
        return NULL;
    }
}

nn_module *nn_module_mlp(nn_ctx *ctx, const int64_t *sizes, int n, nn_module_kind act) {
    if (n < 2 || !sizes) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "MLP: needs at least two sizes (inputs and outputs), got %d", n);
        return NULL;
    }
    nn_module *probe = activation(ctx, act);
    if (!probe) return NULL;
    nn_module_release(probe);
    nn_module *m = module_new(ctx, NN_MODULE_SEQUENTIAL);
    if (!m) return NULL;
    for (int i = 0; i + 1 < n; i++) {
        if (add_child_index_take(ctx, m, nn_module_linear(ctx, sizes[i], sizes[i + 1], true)))
            return fail_free(m);
        if (i + 2 < n && add_child_index_take(ctx, m, activation(ctx, act))) return fail_free(m);
    }
    return m;
}

static bool heads_ok(nn_ctx *ctx, const char *who, int64_t n_embd, int64_t n_head) {
    if (n_embd <= 0 || n_head <= 0 || n_embd % n_head != 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "%s: n_embd (%lld) must be a positive multiple of n_head (%lld)", who,
                     (long long)n_embd, (long long)n_head);
        return false;
    }
    return true;
}

nn_module *nn_module_attention(nn_ctx *ctx, int64_t n_embd, int64_t n_head, double dropout,
                               bool bias) {
    if (!heads_ok(ctx, "CausalSelfAttention", n_embd, n_head)) return NULL;
    nn_module *m = module_new(ctx, NN_MODULE_ATTENTION);
    if (!m) return NULL;
    m->cfg.n_embd = n_embd;
    m->cfg.n_head = n_head;
    if (add_child_take(ctx, m, "qkv", nn_module_linear(ctx, n_embd, 3 * n_embd, bias)) ||
        add_child_take(ctx, m, "proj", nn_module_linear(ctx, n_embd, n_embd, bias)) ||
        add_child_take(ctx, m, "drop", nn_module_dropout(ctx, dropout)))
        return fail_free(m);
    return m;
}

nn_module *nn_module_block(nn_ctx *ctx, int64_t n_embd, int64_t n_head, double dropout, bool bias) {
    if (!heads_ok(ctx, "Block", n_embd, n_head)) return NULL;
    nn_module *m = module_new(ctx, NN_MODULE_BLOCK);
    if (!m) return NULL;
    m->cfg.n_embd = n_embd;
    m->cfg.n_head = n_head;
    /* Built in nanoGPT's order (ln_1, attn, ln_2, mlp), so the default
     * initialisations draw from the generator as torch's Block does. */
    if (add_child_take(ctx, m, "ln1", nn_module_layer_norm(ctx, 1, &n_embd, 1e-5, true)) ||
        add_child_take(ctx, m, "attn", nn_module_attention(ctx, n_embd, n_head, dropout, bias)) ||
        add_child_take(ctx, m, "ln2", nn_module_layer_norm(ctx, 1, &n_embd, 1e-5, true)))
        return fail_free(m);
    nn_module *mlp = module_new(ctx, NN_MODULE_SEQUENTIAL);
    if (!mlp) return fail_free(m);
    if (add_child_index_take(ctx, mlp, nn_module_linear(ctx, n_embd, 4 * n_embd, bias)) ||
        add_child_index_take(ctx, mlp, nn_module_gelu(ctx, false)) ||
        add_child_index_take(ctx, mlp, nn_module_linear(ctx, 4 * n_embd, n_embd, bias)) ||
        add_child_index_take(ctx, mlp, nn_module_dropout(ctx, dropout))) {
        nn_module_release(mlp);
        return fail_free(m);
    }
    if (add_child_take(ctx, m, "mlp", mlp)) return fail_free(m);
    if (!bias) {
        /* LayerNorm without a bias (nanoGPT's bias=False): drop the slot. */
        for (int i = 0; i < m->n_children; i++) {
            nn_module *c = m->children[i].m;
            if (c->kind != NN_MODULE_LAYER_NORM) continue;
            nn_tensor_release(c->params[1].t);
            c->params[1].t = NULL;
        }
    }
    return m;
}

/* nanoGPT's self.apply(self._init_weights) and then its loop over the
 * c_proj weights, in torch's order, so the values are torch's: N(0, 0.02)
 * for wte, wpe, every Linear weight of every block (biases zeroed) and
 * lm_head (the tied weight is drawn twice, as there), then N(0, 0.02 /
 * sqrt(2 n_layer)) for each block's attention and MLP projections. */
static nn_status gpt_init(nn_ctx *ctx, nn_module *m) {
    const nn_gpt_config *c = &m->cfg.gpt;
    double std = 0.02, proj_std = 0.02 / sqrt(2 * (double)c->n_layer);
    if (nn_init_normal_(ctx, nn_module_param(m->children[0].m, "weight"), 0.0, std) ||
        nn_init_normal_(ctx, nn_module_param(m->children[1].m, "weight"), 0.0, std))
        return ctx->err.code;
    nn_module *blocks = m->children[3].m;
    for (int l = 0; l < blocks->n_children; l++) {
        nn_module *b = blocks->children[l].m;
        nn_module *attn = b->children[1].m, *mlp = b->children[3].m;
        nn_module *lins[4] = {attn->children[0].m, attn->children[1].m, mlp->children[0].m,
                              mlp->children[2].m};
        for (int i = 0; i < 4; i++) {
            if (nn_init_normal_(ctx, lins[i]->params[0].t, 0.0, std)) return ctx->err.code;
            if (lins[i]->params[1].t && nn_init_zeros_(ctx, lins[i]->params[1].t))
                return ctx->err.code;
        }
    }
    if (nn_init_normal_(ctx, nn_module_param(m->children[5].m, "weight"), 0.0, std))
        return ctx->err.code;
    for (int l = 0; l < blocks->n_children; l++) {
        nn_module *b = blocks->children[l].m;
        nn_module *attn = b->children[1].m, *mlp = b->children[3].m;
        if (nn_init_normal_(ctx, attn->children[1].m->params[0].t, 0.0, proj_std) ||
            nn_init_normal_(ctx, mlp->children[2].m->params[0].t, 0.0, proj_std))
            return ctx->err.code;
    }
    return NN_OK;
}

nn_module *nn_module_gpt(nn_ctx *ctx, const nn_gpt_config *cfg) {
    nn_gpt_config c = cfg ? *cfg : nn_gpt_config_default();
    if (c.vocab_size <= 0 || c.block_size <= 0 || c.n_layer < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "GPT: vocab_size and block_size must be > 0 and n_layer >= 0; got "
                     "vocab_size=%lld, block_size=%lld, n_layer=%lld",
                     (long long)c.vocab_size, (long long)c.block_size, (long long)c.n_layer);
        return NULL;
    }
    if (!heads_ok(ctx, "GPT", c.n_embd, c.n_head)) return NULL;
    if (!(c.dropout >= 0 && c.dropout <= 1)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "GPT: dropout must lie in [0, 1], got %g", c.dropout);
        return NULL;
    }
    nn_module *m = module_new(ctx, NN_MODULE_GPT);
    if (!m) return NULL;
    m->cfg.gpt = c;
    m->cfg.n_embd = c.n_embd;
    m->cfg.n_head = c.n_head;
    /* nanoGPT's construction order: wte, wpe, the blocks, ln_f, lm_head. */
    if (add_child_take(ctx, m, "tok_emb", nn_module_embedding(ctx, c.vocab_size, c.n_embd)) ||
        add_child_take(ctx, m, "pos_emb", nn_module_embedding(ctx, c.block_size, c.n_embd)) ||
        add_child_take(ctx, m, "drop", nn_module_dropout(ctx, c.dropout)))
        return fail_free(m);
    nn_module *blocks = module_new(ctx, NN_MODULE_MODULE_LIST);
    if (!blocks) return fail_free(m);
    for (int64_t l = 0; l < c.n_layer; l++)
        if (add_child_index_take(ctx, blocks,
                                 nn_module_block(ctx, c.n_embd, c.n_head, c.dropout, c.bias))) {
            nn_module_release(blocks);
            return fail_free(m);
        }
    nn_module *ln_f = nn_module_layer_norm(ctx, 1, &c.n_embd, 1e-5, true);
    if (ln_f && !c.bias) {
        nn_tensor_release(ln_f->params[1].t);
        ln_f->params[1].t = NULL;
    }
    if (add_child_take(ctx, m, "blocks", blocks) || add_child_take(ctx, m, "ln_f", ln_f) ||
        add_child_take(ctx, m, "head", nn_module_linear(ctx, c.n_embd, c.vocab_size, false)))
        return fail_free(m);
    if (c.tied) {
        nn_module *head = m->children[5].m;
        nn_tensor_release(head->params[0].t);
        head->params[0].t = nn_tensor_retain(nn_module_param(m->children[0].m, "weight"));
    }
    if (gpt_init(ctx, m)) return fail_free(m);
    return m;
}

/* ---- forward ---- */

static nn_tensor *forward_at(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *path);

static nn_tensor *child_forward(nn_ctx *ctx, nn_module *m, int i, nn_tensor *x, const char *path) {
    char sub[NN_MODULE_PATH_MAX];
    /* A path longer than the buffer is cut (the label only). */
    if (snprintf(sub, sizeof sub, "%s%s%s", path, *path ? "." : "", m->children[i].name) < 0)
        sub[0] = 0;
    return forward_at(ctx, m->children[i].m, x, sub);
}

/* Replace *x by f(*x): the old reference is released. */
static bool step(nn_tensor **x, nn_tensor *y) {
    nn_tensor_release(*x);
    *x = y;
    return y != NULL;
}

static nn_tensor *attention_forward(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *path) {
    int64_t C = m->cfg.n_embd, H = m->cfg.n_head, D = C / H;
    if (x->ndim == 2 && x->shape[1] == C) {
        /* One unbatched sequence [T, C]: run it as a batch of one. */
        nn_tensor *x3 = nn_unsqueeze(ctx, x, 0);
        nn_tensor *y = x3 ? attention_forward(ctx, m, x3, path) : NULL;
        nn_tensor_release(x3);
        if (y) step(&y, nn_squeeze(ctx, y, 0));
        return y;
    }
    if (x->ndim != 3 || x->shape[2] != C) {
        char s[128];
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "CausalSelfAttention: expects input [B, T, %lld] or [T, %lld], got %s",
                     (long long)C, (long long)C, nn_tensor_shape_str(x, s, sizeof s));
        return NULL;
    }
    int64_t B = x->shape[0], T = x->shape[1];
    nn_tensor *qkv = child_forward(ctx, m, 0, x, path);
    if (!qkv) return NULL;
    nn_tensor *part[3] = {NULL, NULL, NULL};
    int n = 0;
    nn_status st = nn_split(ctx, qkv, C, -1, part, 3, &n);
    nn_tensor_release(qkv);
    if (st) return NULL;
    /* [B, T, C] -> [B, H, T, D] for each of q, k, v. */
    int64_t heads[4] = {B, T, H, D};
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        ok = ok && step(&part[i], nn_reshape(ctx, part[i], 4, heads));
        ok = ok && step(&part[i], nn_transpose(ctx, part[i], 1, 2));
    }
    nn_tensor *y =
        ok ? nn_scaled_dot_product_attention(ctx, part[0], part[1], part[2], true, 0) : NULL;
    for (int i = 0; i < 3; i++) nn_tensor_release(part[i]);
    int64_t back[3] = {B, T, C};
    if (!y || !step(&y, nn_transpose(ctx, y, 1, 2)) || !step(&y, nn_reshape(ctx, y, 3, back)))
        return NULL;
    nn_tensor *out = child_forward(ctx, m, 1, y, path);
    nn_tensor_release(y);
    if (!out) return NULL;
    if (!step(&out, child_forward(ctx, m, 2, out, path))) return NULL;
    return out;
}

/* x + f(ln(x)) with f child [fi] and ln child [li]. */
static nn_tensor *residual(nn_ctx *ctx, nn_module *m, int li, int fi, nn_tensor *x,
                           const char *path) {
    nn_tensor *h = child_forward(ctx, m, li, x, path);
    if (!h || !step(&h, child_forward(ctx, m, fi, h, path))) return NULL;
    nn_tensor *y = nn_add(ctx, x, h);
    nn_tensor_release(h);
    return y;
}

static nn_tensor *block_forward(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *path) {
    nn_tensor *h = residual(ctx, m, 0, 1, x, path);
    if (!h || !step(&h, residual(ctx, m, 2, 3, h, path))) return NULL;
    return h;
}

static nn_tensor *gpt_forward(nn_ctx *ctx, nn_module *m, nn_tensor *idx, const char *path) {
    const nn_gpt_config *c = &m->cfg.gpt;
    char s[128];
    if (idx->dtype != NN_INT64 || idx->ndim < 1 || idx->ndim > 2) {
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "GPT: expects int64 token ids [B, T] or [T], got %s %s",
                     nn_dtype_name(idx->dtype), nn_tensor_shape_str(idx, s, sizeof s));
        return NULL;
    }
    int64_t T = idx->shape[idx->ndim - 1];
    if (T > c->block_size) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "GPT: a sequence of length %lld is longer than block_size %lld; crop it to "
                     "the last %lld tokens",
                     (long long)T, (long long)c->block_size, (long long)c->block_size);
        return NULL;
    }
    nn_tensor *x = child_forward(ctx, m, 0, idx, path);
    nn_tensor *pos = x ? nn_arange(ctx, 0, (double)T, 1, NN_INT64) : NULL;
    nn_tensor *pe = pos ? child_forward(ctx, m, 1, pos, path) : NULL;
    nn_tensor_release(pos);
    if (!pe) {
        nn_tensor_release(x);
        return NULL;
    }
    bool ok = step(&x, nn_add(ctx, x, pe));
    nn_tensor_release(pe);
    ok = ok && step(&x, child_forward(ctx, m, 2, x, path));
    nn_module *blocks = m->children[3].m;
    char bpath[NN_MODULE_PATH_MAX];
    snprintf(bpath, sizeof bpath, "%s%s%s", path, *path ? "." : "", m->children[3].name);
    for (int l = 0; ok && l < blocks->n_children; l++)
        ok = step(&x, child_forward(ctx, blocks, l, x, bpath));
    ok = ok && step(&x, child_forward(ctx, m, 4, x, path));
    ok = ok && step(&x, child_forward(ctx, m, 5, x, path));
    return ok ? x : NULL;
}

static nn_tensor *run_kind(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *path) {
    nn_module_slot *p = m->params;
    switch (m->kind) {
    case NN_MODULE_LINEAR: return nn_linear(ctx, x, p[0].t, p[1].t);
    case NN_MODULE_EMBEDDING: return nn_embedding(ctx, p[0].t, x);
    case NN_MODULE_LAYER_NORM: {
        int n = m->cfg.n_norm;
        bool same = x->ndim >= n;
        for (int i = 0; same && i < n; i++)
            same = x->shape[x->ndim - n + i] == m->cfg.norm_shape[i];
        if (!same) {
            char a[128], b[128];
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "LayerNorm: normalized_shape %s must match the last dims of the input, "
                         "got input %s",
                         nn_shape_str(a, sizeof a, n, m->cfg.norm_shape),
                         nn_tensor_shape_str(x, b, sizeof b));
            return NULL;
        }
        return nn_layer_norm(ctx, x, n, p[0].t, p[1].t, m->cfg.eps);
    }
    case NN_MODULE_DROPOUT: return nn_dropout(ctx, x, m->cfg.p, m->training);
    case NN_MODULE_RELU: return nn_relu(ctx, x);
    case NN_MODULE_LEAKY_RELU: return nn_leaky_relu(ctx, x, m->cfg.slope);
    case NN_MODULE_TANH: return nn_tanh(ctx, x);
    case NN_MODULE_SIGMOID: return nn_sigmoid(ctx, x);
    case NN_MODULE_GELU: return nn_gelu(ctx, x, m->cfg.approx_tanh);
    case NN_MODULE_SILU: return nn_silu(ctx, x);
    case NN_MODULE_SOFTMAX: return nn_softmax(ctx, x, m->cfg.dim);
    case NN_MODULE_FLATTEN: return nn_flatten(ctx, x, m->cfg.start_dim, m->cfg.end_dim);
    case NN_MODULE_SEQUENTIAL: {
        nn_tensor *h = nn_tensor_retain(x);
        for (int i = 0; h && i < m->n_children; i++) step(&h, child_forward(ctx, m, i, h, path));
        return h;
    }
    case NN_MODULE_MODULE_LIST:
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "ModuleList is a list, not a layer: index it (%s[0](x)) or loop over it",
                     *path ? path : "layers");
        return NULL;
    case NN_MODULE_ATTENTION: return attention_forward(ctx, m, x, path);
    case NN_MODULE_BLOCK: return block_forward(ctx, m, x, path);
    case NN_MODULE_GPT: return gpt_forward(ctx, m, x, path);
    case NN_MODULE_BATCH_NORM1D: return batch_norm_forward(ctx, m, x);
    case NN_MODULE_GROUP_NORM:
        return nn_group_norm(ctx, x, m->cfg.num_groups, p[0].t, p[1].t, m->cfg.eps);
    case NN_MODULE_KIND_COUNT: break;
    }
    NN_ASSERT(!"unknown module kind");
    return NULL;
}

/* Run [m] with the label [path]; the caller's label (file and line kept)
 * comes back afterwards, also on errors. */
static nn_tensor *forward_at(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *path) {
    nn_label saved = ctx->label;
    nn_ctx_set_label(ctx, path, saved.file, saved.line);
    nn_tensor *y = run_kind(ctx, m, x, path);
    ctx->label = saved;
    return y;
}

nn_tensor *nn_module_forward(nn_ctx *ctx, nn_module *m, nn_tensor *x, const char *name) {
    if (!m || !x) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "forward: needs a module and an input tensor");
        return NULL;
    }
    return forward_at(ctx, m, x, name ? name : "model");
}

nn_tensor *nn_module_gpt_loss(nn_ctx *ctx, nn_module *m, nn_tensor *idx, nn_tensor *targets,
                              const char *name, nn_tensor **logits) {
    if (logits) *logits = NULL;
    if (!m || m->kind != NN_MODULE_GPT || !idx || !targets) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "gpt_loss: needs a GPT, token ids and targets");
        return NULL;
    }
    if (!nn_tensor_same_shape(idx, targets) || targets->dtype != NN_INT64) {
        char a[128], b[128];
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "gpt_loss: targets must be int64 of the shape of the ids %s, got %s %s",
                     nn_tensor_shape_str(idx, a, sizeof a), nn_dtype_name(targets->dtype),
                     nn_tensor_shape_str(targets, b, sizeof b));
        return NULL;
    }
    const char *root = name ? name : "model";
    nn_tensor *out = forward_at(ctx, m, idx, root);
    if (!out) return NULL;
    nn_label saved = ctx->label;
    nn_ctx_set_label(ctx, root, saved.file, saved.line);
    int64_t flat[2] = {-1, m->cfg.gpt.vocab_size}, tflat = -1;
    nn_tensor *l2 = nn_reshape(ctx, out, 2, flat);
    nn_tensor *t1 = l2 ? nn_reshape(ctx, targets, 1, &tflat) : NULL;
    nn_tensor *loss = t1 ? nn_cross_entropy(ctx, l2, t1, -1, 0.0, NN_REDUCTION_MEAN) : NULL;
    ctx->label = saved;
    nn_tensor_release(l2);
    nn_tensor_release(t1);
    if (loss && logits)
        *logits = out;
    else
        nn_tensor_release(out);
    return loss;
}

/* ---- structure ---- */

int nn_module_num_children(const nn_module *m) {
    return m ? m->n_children : 0;
}

nn_module *nn_module_child(const nn_module *m, int i) {
    return m && i >= 0 && i < m->n_children ? m->children[i].m : NULL;
}

const char *nn_module_child_name(const nn_module *m, int i) {
    return m && i >= 0 && i < m->n_children ? m->children[i].name : NULL;
}

nn_module *nn_module_index(nn_ctx *ctx, nn_module *m, int64_t i) {
    if (m->kind != NN_MODULE_SEQUENTIAL && m->kind != NN_MODULE_MODULE_LIST) {
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "%s is not indexable; only Sequential and ModuleList are (use .name for "
                     "other children)",
                     kind_names[m->kind]);
        return NULL;
    }
    int64_t n = m->n_children, j = i < 0 ? i + n : i;
    if (j < 0 || j >= n) {
        nn_error_set(&ctx->err, NN_ERR_INDEX, "index %lld is out of range for a %s of %lld modules",
                     (long long)i, kind_names[m->kind], (long long)n);
        return NULL;
    }
    return m->children[j].m;
}

static nn_module *child_named(const nn_module *m, const char *name, size_t len) {
    for (int i = 0; i < m->n_children; i++)
        if (strlen(m->children[i].name) == len && !strncmp(m->children[i].name, name, len))
            return m->children[i].m;
    return NULL;
}

static void list_children(const nn_module *m, char *buf, size_t cap) {
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < m->n_children && used + 1 < cap; i++)
        used +=
            (size_t)snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", m->children[i].name);
    if (m->n_children == 0) snprintf(buf, cap, "none");
}

nn_module *nn_module_get(nn_ctx *ctx, nn_module *m, const char *name) {
    nn_module *c = child_named(m, name, strlen(name));
    if (!c) {
        char names[200];
        list_children(m, names, sizeof names);
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s has no child '%s' (children: %s)",
                     kind_names[m->kind], name, names);
    }
    return c;
}

nn_module *nn_module_find(nn_ctx *ctx, nn_module *m, const char *path) {
    const char *p = path;
    while (m && *p) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        nn_module *c = child_named(m, p, len);
        if (!c) {
            char names[200];
            list_children(m, names, sizeof names);
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "no module at '%s': %s at '%.*s' has no child '%.*s' (children: %s)", path,
                         kind_names[m->kind], (int)(p - path > 0 ? p - path - 1 : 0), path,
                         (int)len, p, names);
            return NULL;
        }
        m = c;
        p = dot ? dot + 1 : p + len;
    }
    return m;
}

nn_tensor *nn_module_param(const nn_module *m, const char *name) {
    for (int i = 0; m && i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name)) return m->params[i].t;
    return NULL;
}

nn_tensor *nn_module_find_tensor(nn_ctx *ctx, nn_module *m, const char *path) {
    const char *dot = strrchr(path, '.');
    char mpath[NN_MODULE_PATH_MAX];
    const char *leaf = path;
    nn_module *owner = m;
    if (dot) {
        snprintf(mpath, sizeof mpath, "%.*s", (int)(dot - path), path);
        owner = nn_module_find(ctx, m, mpath);
        if (!owner) return NULL;
        leaf = dot + 1;
    }
    for (int i = 0; i < owner->n_params; i++)
        if (!strcmp(owner->params[i].name, leaf) && owner->params[i].t) return owner->params[i].t;
    for (int i = 0; i < owner->n_buffers; i++)
        if (!strcmp(owner->buffers[i].name, leaf) && owner->buffers[i].t)
            return owner->buffers[i].t;
    nn_error_set(&ctx->err, NN_ERR_VALUE, "no parameter or buffer '%s' in the %s", path,
                 kind_names[m->kind]);
    return NULL;
}

nn_status nn_module_set_param(nn_ctx *ctx, nn_module *m, const char *name, nn_tensor *t) {
    nn_module_slot *s = NULL;
    for (int i = 0; i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name)) s = &m->params[i];
    if (!s)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s has no parameter '%s'",
                            kind_names[m->kind], name);
    if (t) {
        if (!nn_dtype_is_float(t->dtype))
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "%s.%s: a parameter must be a float tensor, got %s",
                                kind_names[m->kind], name, nn_dtype_name(t->dtype));
        if (t->grad_fn)
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "%s.%s: a parameter must be a leaf; detach() the tensor first",
                                kind_names[m->kind], name);
        if (nn_tensor_requires_grad_(ctx, t, true)) return ctx->err.code;
    }
    nn_tensor *old = s->t;
    s->t = nn_tensor_retain(t);
    nn_tensor_release(old);
    return NN_OK;
}

/* ---- traversal ---- */

typedef struct walk {
    nn_ctx *ctx;
    bool dedup;        /* skip modules and tensors seen before (named_parameters) */
    bool buffers;      /* include buffers (state_dict) */
    const void **seen; /* modules and tensors already visited */
    int n_seen, cap_seen;
    nn_status (*visit)(struct walk *w, const char *path, nn_tensor *t);
    void *user;
} walk;

static bool seen_before(walk *w, const void *p) {
    for (int i = 0; i < w->n_seen; i++)
        if (w->seen[i] == p) return true;
    if (w->n_seen == w->cap_seen) {
        int cap = w->cap_seen ? 2 * w->cap_seen : 32;
        const void **grown = realloc(w->seen, sizeof *grown * (size_t)cap);
        if (!grown) return false; /* then duplicates may show; never unsafe */
        w->seen = grown;
        w->cap_seen = cap;
    }
    w->seen[w->n_seen++] = p;
    return false;
}

static nn_status walk_module(walk *w, nn_module *m, const char *prefix) {
    if (w->dedup && seen_before(w, m)) return NN_OK;
    char path[NN_MODULE_PATH_MAX];
    for (int pass = 0; pass < (w->buffers ? 2 : 1); pass++) {
        nn_module_slot *slots = pass ? m->buffers : m->params;
        int n = pass ? m->n_buffers : m->n_params;
        for (int i = 0; i < n; i++) {
            if (!slots[i].t || (w->dedup && seen_before(w, slots[i].t))) continue;
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", slots[i].name);
            nn_status st = w->visit(w, path, slots[i].t);
            if (st) return st;
        }
    }
    for (int i = 0; i < m->n_children; i++) {
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", m->children[i].name);
        nn_status st = walk_module(w, m->children[i].m, path);
        if (st) return st;
    }
    return NN_OK;
}

static nn_status walk_run(walk *w, nn_module *m) {
    nn_status st = walk_module(w, m, "");
    free(w->seen);
    return st;
}

typedef struct ptr_list {
    nn_tensor **v;
    int n, cap;
} ptr_list;

static nn_status collect_ptr(walk *w, const char *path, nn_tensor *t) {
    (void)path;
    ptr_list *l = w->user;
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        nn_tensor **grown = realloc(l->v, sizeof *grown * (size_t)cap);
        if (!grown) return nn_error_set(&w->ctx->err, NN_ERR_MEMORY, "parameters: out of memory");
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = t;
    return NN_OK;
}

nn_status nn_module_parameters(nn_ctx *ctx, nn_module *m, nn_tensor ***out, int *n) {
    ptr_list l = {NULL, 0, 0};
    walk w = {.ctx = ctx, .dedup = true, .visit = collect_ptr, .user = &l};
    nn_status st = walk_run(&w, m);
    if (st) {
        free(l.v);
        *out = NULL;
        *n = 0;
        return st;
    }
    *out = l.v ? l.v : calloc(1, sizeof(nn_tensor *));
    *n = l.n;
    return *out ? NN_OK : nn_error_set(&ctx->err, NN_ERR_MEMORY, "parameters: out of memory");
}

static nn_status collect_state(walk *w, const char *path, nn_tensor *t) {
    return nn_state_add(w->ctx, w->user, path, t);
}

nn_status nn_module_named_parameters(nn_ctx *ctx, nn_module *m, nn_state *out) {
    walk w = {.ctx = ctx, .dedup = true, .visit = collect_state, .user = out};
    return walk_run(&w, m);
}

static nn_status count_numel(walk *w, const char *path, nn_tensor *t) {
    (void)path;
    *(int64_t *)w->user += nn_tensor_numel(t);
    return NN_OK;
}

int64_t nn_module_num_params(nn_module *m) {
    int64_t total = 0;
    walk w = {.dedup = true, .visit = count_numel, .user = &total};
    walk_run(&w, m);
    return total;
}

void nn_module_train(nn_module *m, bool mode) {
    if (!m) return;
    m->training = mode;
    for (int i = 0; i < m->n_children; i++) nn_module_train(m->children[i].m, mode);
}

void nn_module_eval(nn_module *m) {
    nn_module_train(m, false);
}

nn_status nn_module_zero_grad(nn_ctx *ctx, nn_module *m, bool set_to_none) {
    nn_tensor **ps;
    int n;
    if (nn_module_parameters(ctx, m, &ps, &n)) return ctx->err.code;
    nn_status st = NN_OK;
    for (int i = 0; i < n && !st; i++) {
        if (set_to_none)
            nn_tensor_clear_grad(ps[i]);
        else if (nn_tensor_grad(ps[i]))
            st = nn_tensor_zero_(ctx, nn_tensor_grad(ps[i]));
    }
    free(ps);
    return st;
}

static nn_status convert_visit(walk *w, const char *path, nn_tensor *t) {
    (void)path;
    if (!nn_dtype_is_float(t->dtype)) return NN_OK;
    return nn_tensor_convert_(w->ctx, t, *(const nn_dtype *)w->user);
}

nn_status nn_module_to_dtype(nn_ctx *ctx, nn_module *m, nn_dtype dt) {
    if (!nn_dtype_is_float(dt))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "Module.to() only accepts floating point dtypes, but got %s",
                            nn_dtype_name(dt));
    walk w = {.ctx = ctx, .dedup = true, .buffers = true, .visit = convert_visit, .user = &dt};
    return walk_run(&w, m);
}

/* ---- repr ---- */

typedef struct sbuf {
    char *s;
    size_t n, cap;
    bool oom;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...) {
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (b->n + (size_t)k + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)k + 1) cap *= 2;
        char *g = realloc(b->s, cap);
        if (!g) {
            b->oom = true;
            return;
        }
        b->s = g;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

/* Python's repr of a float: the shortest digits that read back the same,
 * in fixed notation unless the exponent is below -4 or above 15. */
static void py_float(char *out, size_t cap, double v) {
    if (isnan(v)) {
        snprintf(out, cap, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(out, cap, v > 0 ? "inf" : "-inf");
        return;
    }
    char e[40];
    int prec = 1;
    for (; prec <= 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec - 1, v);
        if (strtod(e, NULL) == v) break;
    }
    /* e is "-d.ddde[+-]XX": pull out the sign, the digits and the exponent. */
    const char *p = e;
    bool neg = *p == '-';
    if (neg) p++;
    char digits[24];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    int exp10 = atoi(p + 1), decpt = exp10 + 1;
    size_t k = 0;
    if (neg) out[k++] = '-';
    out[k] = 0;
    if (decpt <= -4 || decpt > 16) {
        snprintf(out + k, cap - k, "%c%s%s%se%c%02d", digits[0], nd > 1 ? "." : "",
                 nd > 1 ? digits + 1 : "", "", exp10 < 0 ? '-' : '+', abs(exp10));
    } else if (decpt <= 0) {
        snprintf(out + k, cap - k, "0.%0*d%s", -decpt, 0, digits);
        if (decpt == 0) snprintf(out + k, cap - k, "0.%s", digits);
    } else if (decpt >= nd) {
        snprintf(out + k, cap - k, "%s%0*d.0", digits, decpt - nd, 0);
        if (decpt == nd) snprintf(out + k, cap - k, "%s.0", digits);
    } else {
        snprintf(out + k, cap - k, "%.*s.%s", decpt, digits, digits + decpt);
    }
}

static void extra_repr(const nn_module *m, sbuf *b) {
    char f[40];
    switch (m->kind) {
    case NN_MODULE_LINEAR:
        sb_add(b, "in_features=%lld, out_features=%lld, bias=%s", (long long)m->cfg.in,
               (long long)m->cfg.out, m->params[1].t ? "True" : "False");
        break;
    case NN_MODULE_EMBEDDING:
        sb_add(b, "%lld, %lld", (long long)m->cfg.in, (long long)m->cfg.out);
        break;
    case NN_MODULE_LAYER_NORM:
        sb_add(b, "(");
        for (int i = 0; i < m->cfg.n_norm; i++)
            sb_add(b, "%s%lld", i ? ", " : "", (long long)m->cfg.norm_shape[i]);
        py_float(f, sizeof f, m->cfg.eps);
        sb_add(b, "%s), eps=%s, elementwise_affine=%s", m->cfg.n_norm == 1 ? "," : "", f,
               m->cfg.affine ? "True" : "False");
        break;
    case NN_MODULE_BATCH_NORM1D:
        py_float(f, sizeof f, m->cfg.eps);
        sb_add(b, "%lld, eps=%s, momentum=", (long long)m->cfg.in, f);
        if (isnan(m->cfg.momentum))
            sb_add(b, "None");
        else {
            py_float(f, sizeof f, m->cfg.momentum);
            sb_add(b, "%s", f);
        }
        sb_add(b, ", affine=%s, track_running_stats=%s", m->cfg.affine ? "True" : "False",
               m->cfg.track_running_stats ? "True" : "False");
        break;
    case NN_MODULE_GROUP_NORM:
        py_float(f, sizeof f, m->cfg.eps);
        sb_add(b, "%lld, %lld, eps=%s, affine=%s", (long long)m->cfg.num_groups,
               (long long)m->cfg.in, f, m->cfg.affine ? "True" : "False");
        break;
    case NN_MODULE_DROPOUT:
        py_float(f, sizeof f, m->cfg.p);
        sb_add(b, "p=%s, inplace=False", f);
        break;
    case NN_MODULE_LEAKY_RELU:
        py_float(f, sizeof f, m->cfg.slope);
        sb_add(b, "negative_slope=%s", f);
        break;
    case NN_MODULE_GELU: sb_add(b, "approximate='%s'", m->cfg.approx_tanh ? "tanh" : "none"); break;
    case NN_MODULE_SOFTMAX: sb_add(b, "dim=%lld", (long long)m->cfg.dim); break;
    case NN_MODULE_FLATTEN:
        sb_add(b, "start_dim=%lld, end_dim=%lld", (long long)m->cfg.start_dim,
               (long long)m->cfg.end_dim);
        break;
    default: break;
    }
}

/* Append [s] with every line after the first indented by two spaces
 * (torch.nn.modules.module._addindent). */
static void sb_indented(sbuf *b, const char *s) {
    for (const char *p = s; *p; p++) {
        sb_add(b, "%c", *p);
        if (*p == '\n') sb_add(b, "  ");
    }
}

static void repr_into(const nn_module *m, sbuf *b) {
    sbuf extra = {0};
    extra_repr(m, &extra);
    sb_add(b, "%s(", kind_names[m->kind]);
    if (m->n_children == 0) {
        if (extra.n) sb_add(b, "%s", extra.s);
    } else {
        if (extra.n) {
            sb_add(b, "\n  ");
            sb_indented(b, extra.s);
        }
        for (int i = 0; i < m->n_children; i++) {
            sbuf child = {0};
            repr_into(m->children[i].m, &child);
            sb_add(b, "\n  (%s): ", m->children[i].name);
            if (child.s) sb_indented(b, child.s);
            b->oom |= child.oom;
            free(child.s);
        }
        sb_add(b, "\n");
    }
    sb_add(b, ")");
    b->oom |= extra.oom;
    free(extra.s);
}

char *nn_module_repr_alloc(const nn_module *m) {
    sbuf b = {0};
    repr_into(m, &b);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

size_t nn_module_repr(const nn_module *m, char *buf, size_t cap) {
    char *s = nn_module_repr_alloc(m);
    if (!s) {
        if (cap) buf[0] = 0;
        return 0;
    }
    size_t n = strlen(s);
    if (cap) snprintf(buf, cap, "%s", s);
    free(s);
    return n;
}

/* ---- state ---- */

static nn_status collect_detached(walk *w, const char *path, nn_tensor *t) {
    nn_tensor *d = nn_tensor_detach(w->ctx, t);
    if (!d) return w->ctx->err.code;
    nn_status st = nn_state_add(w->ctx, w->user, path, d);
    nn_tensor_release(d);
    return st;
}

nn_status nn_module_state_dict(nn_ctx *ctx, nn_module *m, nn_state *out) {
    walk w = {.ctx = ctx, .buffers = true, .visit = collect_detached, .user = out};
    return walk_run(&w, m);
}

nn_status nn_module_load_state_dict(nn_ctx *ctx, nn_module *m, const nn_state *s, bool strict) {
    nn_state mine;
    nn_state_init(&mine);
    walk w = {.ctx = ctx, .buffers = true, .visit = collect_state, .user = &mine};
    if (walk_run(&w, m)) {
        nn_state_free(&mine);
        return ctx->err.code;
    }
    /* Check everything before writing anything: the first problem is the
     * error, the count of the others is appended. */
    nn_status first = NN_OK;
    char msg[NN_ERROR_MSG_MAX] = "";
    int problems = 0;
    char a[128], b[128];
#define PROBLEM(code, ...)                                                                         \
    do {                                                                                           \
        if (!problems++) {                                                                         \
            first = (code);                                                                        \
            snprintf(msg, sizeof msg, __VA_ARGS__);                                                \
        }                                                                                          \
    } while (0)
    for (int i = 0; i < mine.n; i++) {
        const char *key = mine.entries[i].name;
        nn_tensor *dst = mine.entries[i].tensor, *src = nn_state_get(s, key);
        if (!src) {
            if (strict)
                PROBLEM(NN_ERR_VALUE,
                        "missing key '%s': the module has it, the state does not (load with "
                        "strict=False to skip it)",
                        key);
            continue;
        }
        if (!nn_tensor_same_shape(src, dst))
            PROBLEM(NN_ERR_SHAPE, "size mismatch for '%s': the state has shape %s, the module %s",
                    key, nn_tensor_shape_str(src, a, sizeof a),
                    nn_tensor_shape_str(dst, b, sizeof b));
        else if (src->dtype != dst->dtype)
            PROBLEM(NN_ERR_TYPE,
                    "dtype mismatch for '%s': the state has %s, the module %s (convert the "
                    "tensor first)",
                    key, nn_dtype_name(src->dtype), nn_dtype_name(dst->dtype));
    }
    if (strict)
        for (int i = 0; i < s->n; i++)
            if (!nn_state_get(&mine, s->entries[i].name))
                PROBLEM(NN_ERR_VALUE,
                        "unexpected key '%s': the %s has no such parameter or buffer (load with "
                        "strict=False to ignore it)",
                        s->entries[i].name, kind_names[m->kind]);
#undef PROBLEM
    if (problems) {
        nn_state_free(&mine);
        if (problems > 1)
            return nn_error_set(&ctx->err, first,
                                "load_state_dict: %s; and %d more problem%s; the module is "
                                "unchanged",
                                msg, problems - 1, problems > 2 ? "s" : "");
        return nn_error_set(&ctx->err, first, "load_state_dict: %s; the module is unchanged", msg);
    }
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_status st = NN_OK;
    for (int i = 0; i < mine.n && !st; i++) {
        nn_tensor *src = nn_state_get(s, mine.entries[i].name);
        if (src && src != mine.entries[i].tensor)
            st = nn_tensor_copy_(ctx, mine.entries[i].tensor, src);
    }
    nn_ctx_set_grad(ctx, prev);
    nn_state_free(&mine);
    return st;
}
