/* lang_nn: the Module and Optimizer types and the nn / optim builtin
 * families, with torch.nn's, torch.nn.init's and torch.optim's names,
 * signatures and keyword arguments. Owned by the nn/data binding engineer;
 * see lang_nn.h and docs/language-nn.md.
 *
 * A Module value wraps one reference to an engine nn_module. So that
 * `model.parameters()` gives the same tensor objects every time (and
 * `model[0].weight is model[0].weight`), a wrapper caches the values it
 * hands out: one per parameter slot and one per child. Children never point
 * back at their parents, so the caches form no cycles. Containers built
 * from Module values (Sequential, ModuleList) keep the wrappers they were
 * given, so `seq[0]` is the very Linear the user passed in.
 */
#include "lang_nn.h"
#include "lang_debug.h"
#include "lang_display.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_eval.h" /* lang_tuple_pack, lang_builtin_new, lang_iter, lang_float_repr */
#include "lang_tensor.h"
#include "lang_usermod.h"
#include "lang_vm.h"
#include "nn_init.h"
#include "nn_optim.h"

static nn_ctx *CTX(lang_vm *vm) {
    return lang_vm_ctx(vm);
}

static bool engine(lang_vm *vm, nn_status st) {
    return st == NN_OK ? true : lang_raise_engine(vm);
}

/* ------------------------------------------------------------------ help texts */

/* Each help entry is written once and used both by the builtin table and by
 * the type it constructs. */
#define H_LINEAR                                                                                   \
    {                                                                                              \
        "Linear", "Linear(in_features, out_features, bias=True)",                                  \
            "A fully connected layer y = x W^T + b, weight [out_features, in_features] and bias "  \
            "[out_features], initialised as PyTorch does (U(-1/sqrt(in), 1/sqrt(in))). Works on "  \
            "any "                                                                                 \
            "leading dims.",                                                                       \
            "layer = Linear(2, 64); layer(randn(8, 2)).shape"                                      \
    }
#define H_EMBEDDING                                                                                \
    {                                                                                              \
        "Embedding", "Embedding(num_embeddings, embedding_dim)",                                   \
            "A lookup table: int64 ids of any shape -> rows of weight [num_embeddings, "           \
            "embedding_dim] "                                                                      \
            "(init N(0, 1)).",                                                                     \
            "emb = Embedding(27, 10); emb(tensor([[1, 2, 3]])).shape"                              \
    }
#define H_LAYER_NORM                                                                               \
    {                                                                                              \
        "LayerNorm", "LayerNorm(normalized_shape, eps=1e-05, elementwise_affine=True)",            \
            "Normalise the last dims (normalized_shape: an int or a tuple) to mean 0 and "         \
            "variance 1, "                                                                         \
            "then scale by weight and shift by bias (ones and zeros) when elementwise_affine.",    \
            "ln = LayerNorm(16); ln(randn(4, 16)).std(dim=1, unbiased=False)"                      \
    }
#define H_BATCH_NORM1D                                                                             \
    {                                                                                              \
        "BatchNorm1d",                                                                             \
            "BatchNorm1d(num_features, eps=1e-05, momentum=0.1, affine=True, "                     \
            "track_running_stats=True)",                                                           \
            "Normalise each feature of [N, C] (or [N, C, L]) with the batch's mean and biased "    \
            "variance when training, updating running_mean and running_var (the unbiased "         \
            "variance) by momentum; in eval() with the running statistics. Then scale by weight "  \
            "and shift by bias (ones and zeros) when affine.",                                     \
            "bn = BatchNorm1d(16); bn(randn(32, 16)).mean(0)"                                      \
    }
#define H_GROUP_NORM                                                                               \
    {                                                                                              \
        "GroupNorm", "GroupNorm(num_groups, num_channels, eps=1e-05, affine=True)",                \
            "Normalise each sample of [N, C, ...] over num_groups groups of channels, then scale " \
            "and shift per channel (ones and zeros) when affine.",                                 \
            "gn = GroupNorm(2, 6); gn(randn(4, 6, 5)).shape"                                       \
    }
#define H_DROPOUT                                                                                  \
    {                                                                                              \
        "Dropout", "Dropout(p=0.5)",                                                               \
            "In training mode zero each element with probability p and scale the rest by "         \
            "1/(1-p); in "                                                                         \
            "eval mode (model.eval()) pass the input through.",                                    \
            "drop = Dropout(0.1); drop.eval(); drop(ones(4))"                                      \
    }
#define H_RELU                                                                                     \
    { "ReLU", "ReLU()", "max(x, 0), elementwise.", "ReLU()(tensor([-1.0, 2.0]))" }
#define H_LEAKY_RELU                                                                               \
    {                                                                                              \
        "LeakyReLU", "LeakyReLU(negative_slope=0.01)", "x for x >= 0, negative_slope * x below.",  \
            "LeakyReLU(0.1)(tensor([-1.0, 2.0]))"                                                  \
    }
#define H_TANH                                                                                     \
    { "Tanh", "Tanh()", "tanh(x), elementwise.", "Tanh()(tensor([0.0, 1.0]))" }
#define H_SIGMOID                                                                                  \
    { "Sigmoid", "Sigmoid()", "1 / (1 + exp(-x)), elementwise.", "Sigmoid()(tensor([0.0]))" }
#define H_GELU                                                                                     \
    {                                                                                              \
        "GELU", "GELU(approximate='none')",                                                        \
            "x * Phi(x) with the exact normal CDF, or its tanh approximation with "                \
            "approximate='tanh'.",                                                                 \
            "GELU(approximate='tanh')(tensor([1.0]))"                                              \
    }
#define H_SILU                                                                                     \
    { "SiLU", "SiLU()", "x * sigmoid(x), elementwise.", "SiLU()(tensor([1.0]))" }
#define H_SOFTMAX                                                                                  \
    {                                                                                              \
        "Softmax", "Softmax(dim)", "softmax along [dim]: exp(x) / exp(x).sum(dim).",               \
            "Softmax(dim=1)(randn(2, 3)).sum(1)"                                                   \
    }
#define H_FLATTEN                                                                                  \
    {                                                                                              \
        "Flatten", "Flatten(start_dim=1, end_dim=-1)", "Merge dims start_dim..end_dim into one.",  \
            "Flatten()(zeros(2, 3, 4)).shape"                                                      \
    }
#define H_SEQUENTIAL                                                                               \
    {                                                                                              \
        "Sequential", "Sequential(*modules)",                                                      \
            "Run modules one after the other. Children are named 0, 1, ...: index them "           \
            "(model[0], "                                                                          \
            "model[-1]), take len(model), or loop over them. The modules passed in are shared, "   \
            "not "                                                                                 \
            "copied.",                                                                             \
            "model = Sequential(Linear(2, 64), Tanh(), Linear(64, 3)); model[0].weight.shape"      \
    }
#define H_MODULE_LIST                                                                              \
    {                                                                                              \
        "ModuleList", "ModuleList(modules=[])",                                                    \
            "A list of modules whose parameters count as the owner's. It cannot be called: index " \
            "it or "                                                                               \
            "loop over it. append(module) adds one.",                                              \
            "layers = ModuleList([Linear(4, 4) for _ in range(3)]); len(layers)"                   \
    }
#define H_MLP                                                                                      \
    {                                                                                              \
        "MLP", "MLP(sizes, act='tanh')",                                                           \
            "A Sequential of Linear layers sizes[0] -> sizes[1] -> ... with the activation act "   \
            "('relu', 'leaky_relu', 'tanh', 'sigmoid', 'gelu', 'silu') between them and none "     \
            "after the "                                                                           \
            "last: MLP([2, 64, 3]) is Sequential(Linear(2, 64), Tanh(), Linear(64, 3)).",          \
            "model = MLP([2, 64, 64, 3], act='relu'); model"                                       \
    }
#define H_ATTENTION                                                                                \
    {                                                                                              \
        "CausalSelfAttention", "CausalSelfAttention(n_embd, n_head, dropout=0.0, bias=True)",      \
            "nanoGPT's masked multi-head self-attention on [B, T, C] (or [T, C]): children qkv "   \
            "(Linear "                                                                             \
            "C -> 3C), proj (Linear C -> C) and drop.",                                            \
            "attn = CausalSelfAttention(16, 4); attn(randn(2, 5, 16)).shape"                       \
    }
#define H_BLOCK                                                                                    \
    {                                                                                              \
        "Block", "Block(n_embd, n_head, dropout=0.0, bias=True)",                                  \
            "A pre-norm transformer block: x + attn(ln1(x)), then x + mlp(ln2(x)), the MLP being " \
            "Linear C -> 4C, GELU, Linear 4C -> C, Dropout.",                                      \
            "blk = Block(16, 4); blk(randn(2, 5, 16)).shape"                                       \
    }
#define H_GPT                                                                                      \
    {                                                                                              \
        "GPT",                                                                                     \
            "GPT(vocab_size=256, block_size=64, n_layer=2, n_head=4, n_embd=64, dropout=0.0, "     \
            "bias=True, tie_weights=True)",                                                        \
            "nanoGPT's model: token and position embeddings, n_layer Blocks, a final LayerNorm "   \
            "and a "                                                                               \
            "head (its weight tied to the token embedding's). model(idx) takes int64 ids [B, T] "  \
            "and "                                                                                 \
            "returns logits [B, T, vocab_size]; model(idx, targets) returns (logits, loss), the "  \
            "mean "                                                                                \
            "cross-entropy (targets of -1 ignored). Weights start as nanoGPT's: N(0, 0.02).",      \
            "model = GPT(vocab_size=65, block_size=32, n_layer=2, n_head=2, n_embd=32)\n"          \
            "logits, loss = model(randint(0, 65, (4, 32)), randint(0, 65, (4, 32)))"               \
    }

static const lang_help module_helps[NN_MODULE_KIND_COUNT] = {
    [NN_MODULE_LINEAR] = H_LINEAR,
    [NN_MODULE_EMBEDDING] = H_EMBEDDING,
    [NN_MODULE_LAYER_NORM] = H_LAYER_NORM,
    [NN_MODULE_DROPOUT] = H_DROPOUT,
    [NN_MODULE_RELU] = H_RELU,
    [NN_MODULE_LEAKY_RELU] = H_LEAKY_RELU,
    [NN_MODULE_TANH] = H_TANH,
    [NN_MODULE_SIGMOID] = H_SIGMOID,
    [NN_MODULE_GELU] = H_GELU,
    [NN_MODULE_SILU] = H_SILU,
    [NN_MODULE_SOFTMAX] = H_SOFTMAX,
    [NN_MODULE_FLATTEN] = H_FLATTEN,
    [NN_MODULE_SEQUENTIAL] = H_SEQUENTIAL,
    [NN_MODULE_MODULE_LIST] = H_MODULE_LIST,
    [NN_MODULE_ATTENTION] = H_ATTENTION,
    [NN_MODULE_BLOCK] = H_BLOCK,
    [NN_MODULE_GPT] = H_GPT,
    [NN_MODULE_BATCH_NORM1D] = H_BATCH_NORM1D,
    [NN_MODULE_GROUP_NORM] = H_GROUP_NORM,
};

/* ------------------------------------------------------------------ the Module type */

/* The tensor values a tree of wrappers has handed out, by engine tensor:
 * shared by a wrapper and the child wrappers it creates, so a weight that
 * sits in two places (GPT's tied head) is one object, and parameters()
 * gives the same objects every time. Holds a reference to each value. */
typedef struct tcache {
    int32_t refcount;
    int n, cap;
    nn_tensor **ptr;
    lang_val *val;
} tcache;

static tcache *tc_new(void) {
    tcache *tc = calloc(1, sizeof *tc);
    if (tc) tc->refcount = 1;
    return tc;
}

static void tc_release(tcache *tc) {
    if (!tc || --tc->refcount > 0) return;
    for (int i = 0; i < tc->n; i++) lang_val_release(tc->val[i]);
    free(tc->ptr);
    free(tc->val);
    free(tc);
}

static lang_val *tc_find(tcache *tc, const nn_tensor *t) {
    for (int i = 0; i < tc->n; i++)
        if (tc->ptr[i] == t) return &tc->val[i];
    return NULL;
}

/* Make [v] (retained) the value of [t]. */
static bool tc_put(lang_vm *vm, tcache *tc, nn_tensor *t, lang_val v) {
    lang_val *slot = tc_find(tc, t);
    if (slot) {
        lang_val old = *slot;
        *slot = lang_val_retain(v);
        lang_val_release(old);
        return true;
    }
    if (tc->n == tc->cap) {
        int cap = tc->cap ? 2 * tc->cap : 8;
        nn_tensor **p = realloc(tc->ptr, sizeof *p * (size_t)cap);
        if (!p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        tc->ptr = p;
        lang_val *vv = realloc(tc->val, sizeof *vv * (size_t)cap);
        if (!vv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        tc->val = vv;
        tc->cap = cap;
    }
    tc->ptr[tc->n] = t;
    tc->val[tc->n++] = lang_val_retain(v);
    return true;
}

typedef struct module_obj {
    lang_obj hdr;
    nn_module *m;
    tcache *tc; /* shared with the child wrappers this one made */
    /* Cached wrappers of the children, by index (kid_ptr: the module each
     * wraps, so a child replaced behind our back is re-wrapped). */
    nn_module **kid_ptr;
    lang_val *kid_val;
    int n_kids;
    const char **fieldv; /* dir() names, rebuilt on each request */
} module_obj;

static const lang_type module_types[NN_MODULE_KIND_COUNT];

static module_obj *as_module(lang_val v) {
    if (v.kind != LANG_OBJ) return NULL;
    for (int k = 0; k < NN_MODULE_KIND_COUNT; k++)
        if (v.u.o->type == &module_types[k]) return (module_obj *)v.u.o;
    return NULL;
}

nn_module *lang_module_of(lang_val v) {
    module_obj *mo = as_module(v);
    return mo ? mo->m : NULL;
}

static void module_free(lang_obj *o) {
    module_obj *mo = (module_obj *)o;
    tc_release(mo->tc);
    for (int i = 0; i < mo->n_kids; i++) lang_val_release(mo->kid_val[i]);
    free(mo->kid_ptr);
    free(mo->kid_val);
    free(mo->fieldv);
    nn_module_release(mo->m);
}

/* Wrap [m], taking over the caller's reference (released on failure),
 * sharing [tc] (NULL: a new cache for a new tree). */
static bool module_wrap_tc(lang_vm *vm, nn_module *m, tcache *tc, lang_val *out) {
    if (!m) return lang_raise_engine(vm);
    if (tc)
        tc->refcount++;
    else if (!(tc = tc_new())) {
        nn_module_release(m);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    module_obj *mo = lang_obj_new(vm, &module_types[m->kind], sizeof *mo);
    if (!mo) {
        tc_release(tc);
        nn_module_release(m);
        return false;
    }
    mo->m = m;
    mo->tc = tc;
    mo->kid_ptr = NULL;
    mo->kid_val = NULL;
    mo->n_kids = 0;
    mo->fieldv = NULL;
    *out = lang_obj_val(&mo->hdr);
    return true;
}

static bool kids_reserve(lang_vm *vm, module_obj *mo, int n) {
    if (n <= mo->n_kids) return true;
    nn_module **kp = realloc(mo->kid_ptr, sizeof *kp * (size_t)n);
    if (!kp) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    mo->kid_ptr = kp;
    lang_val *kv = realloc(mo->kid_val, sizeof *kv * (size_t)n);
    if (!kv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    mo->kid_val = kv;
    for (int i = mo->n_kids; i < n; i++) {
        kp[i] = NULL;
        kv[i] = lang_none();
    }
    mo->n_kids = n;
    return true;
}

static bool module_wrap(lang_vm *vm, nn_module *m, lang_val *out) {
    return module_wrap_tc(vm, m, NULL, out);
}

/* Remember [v] (a Module value, retained) as the wrapper of child [i]. */
static bool kid_store(lang_vm *vm, module_obj *mo, int i, lang_val v) {
    if (!kids_reserve(vm, mo, i + 1)) return false;
    lang_val old = mo->kid_val[i];
    mo->kid_val[i] = lang_val_retain(v);
    mo->kid_ptr[i] = lang_module_of(v);
    lang_val_release(old);
    return true;
}

/* The Module value of child [i] (new reference), the same object each time. */
static bool kid_get(lang_vm *vm, module_obj *mo, int i, lang_val *out) {
    nn_module *c = nn_module_child(mo->m, i);
    NN_ASSERT(c);
    if (i < mo->n_kids && mo->kid_ptr[i] == c) {
        *out = lang_val_retain(mo->kid_val[i]);
        return true;
    }
    lang_val v;
    if (!module_wrap_tc(vm, nn_module_retain(c), mo->tc, &v)) return false;
    bool ok = kid_store(vm, mo, i, v);
    *out = v;
    if (!ok) lang_val_release(v);
    return ok;
}

/* The value of parameter slot [i] (new reference; None for a parameter
 * registered as None), the same object each time. */
static bool param_get(lang_vm *vm, module_obj *mo, int i, lang_val *out) {
    nn_tensor *t = mo->m->params[i].t;
    if (!t) {
        *out = lang_none();
        return true;
    }
    lang_val *cached = tc_find(mo->tc, t);
    if (cached) {
        *out = lang_val_retain(*cached);
        return true;
    }
    lang_val v;
    if (!lang_tensor_new(vm, nn_tensor_retain(t), &v)) return false;
    lang_tensor_mark_param(v);
    if (!tc_put(vm, mo->tc, t, v)) {
        lang_val_release(v);
        return false;
    }
    *out = v;
    return true;
}

/* ---- walking the tree: parameters in PyTorch's order, each tensor once ---- */

typedef struct walk {
    lang_val list;    /* what we fill */
    bool named;       /* (name, tensor) tuples instead of tensors */
    nn_tensor **seen; /* tensors already listed */
    int n_seen, cap_seen;
} walk;

static bool walk_seen(lang_vm *vm, walk *w, nn_tensor *t, bool *seen) {
    for (int i = 0; i < w->n_seen; i++)
        if (w->seen[i] == t) {
            *seen = true;
            return true;
        }
    *seen = false;
    if (w->n_seen == w->cap_seen) {
        int cap = w->cap_seen ? 2 * w->cap_seen : 16;
        nn_tensor **p = realloc(w->seen, sizeof *p * (size_t)cap);
        if (!p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        w->seen = p;
        w->cap_seen = cap;
    }
    w->seen[w->n_seen++] = t;
    return true;
}

static bool walk_module(lang_vm *vm, walk *w, module_obj *mo, const char *prefix) {
    for (int i = 0; i < mo->m->n_params; i++) {
        nn_tensor *t = mo->m->params[i].t;
        if (!t) continue;
        bool seen;
        if (!walk_seen(vm, w, t, &seen)) return false;
        if (seen) continue;
        lang_val v;
        if (!param_get(vm, mo, i, &v)) return false;
        bool ok = true;
        if (w->named) {
            char name[NN_MODULE_PATH_MAX];
            snprintf(name, sizeof name, "%s%s", prefix, mo->m->params[i].name);
            lang_val items[2];
            ok = lang_str_from_cstr(vm, name, &items[0]);
            if (ok) {
                items[1] = v;
                lang_val tup;
                ok = lang_tuple_pack(vm, 2, items, &tup);
                lang_val_release(items[0]);
                if (ok) {
                    ok = lang_list_append(vm, w->list, tup);
                    lang_val_release(tup);
                }
            }
        } else {
            ok = lang_list_append(vm, w->list, v);
        }
        lang_val_release(v);
        if (!ok) return false;
    }
    int nc = nn_module_num_children(mo->m);
    for (int i = 0; i < nc; i++) {
        lang_val kv;
        if (!kid_get(vm, mo, i, &kv)) return false;
        char sub[NN_MODULE_PATH_MAX];
        snprintf(sub, sizeof sub, "%s%s.", prefix, nn_module_child_name(mo->m, i));
        bool ok = walk_module(vm, w, as_module(kv), sub);
        lang_val_release(kv);
        if (!ok) return false;
    }
    return true;
}

static bool module_params_list(lang_vm *vm, module_obj *mo, bool named, lang_val *out) {
    walk w = {lang_none(), named, NULL, 0, 0};
    if (!lang_list_new(vm, 0, &w.list)) return false;
    bool ok = walk_module(vm, &w, mo, "");
    free(w.seen);
    if (!ok) {
        lang_val_release(w.list);
        return false;
    }
    *out = w.list;
    return true;
}

/* ---- protocol ---- */

static bool module_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    char *s = nn_module_repr_alloc(((module_obj *)o)->m);
    if (!s) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_buf_puts(out, s);
    free(s);
    return true;
}

/* The root of the module paths nodes carry: the callee as written
 * ("model", "net.encoder"), or "model" when the call has no plain name. */
/* The path a module's ops carry: its attribute path under the user module
 * whose forward is running, else the callee as written (lang_usermod.c). */
static const char *root_name(lang_vm *vm, lang_val self) {
    return lang_usermod_path(vm, self);
}

static bool module_forward(lang_vm *vm, module_obj *mo, const char *name, const lang_args *a,
                           lang_val *out) {
    lang_val x = lang_none(), targets = lang_none();
    const char *fname = nn_module_kind_name(mo->m->kind);
    if (mo->m->kind == NN_MODULE_GPT) {
        if (!lang_parse_args(vm, a, fname, "idx|targets", &x, &targets)) return false;
    } else if (!lang_parse_args(vm, a, fname, "input", &x)) {
        return false;
    }
    nn_tensor *xt = lang_tensor_of(x);
    if (!xt)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() expects a Tensor as input, not %s", fname,
                          lang_type_name(x));
    nn_ctx *ctx = CTX(vm);
    if (targets.kind == LANG_NONE) {
        nn_tensor *y = nn_module_forward(ctx, mo->m, xt, name);
        if (!y) return lang_raise_engine(vm);
        /* The norms are composed of several ops; torch's output names its one node. */
        nn_module_kind k = mo->m->kind;
        const char *gf = k == NN_MODULE_BATCH_NORM1D ? "NativeBatchNormBackward0"
                         : k == NN_MODULE_GROUP_NORM ? "NativeGroupNormBackward0"
                                                     : NULL;
        bool named = gf && y->grad_fn;
        if (!lang_tensor_new(vm, y, out)) return false;
        if (named) lang_tensor_set_fn_name(*out, gf);
        return true;
    }
    nn_tensor *tt = lang_tensor_of(targets);
    if (!tt)
        return lang_raise(vm, LANG_ERR_TYPE, "GPT() expects targets as an int64 Tensor, not %s",
                          lang_type_name(targets));
    nn_tensor *logits = NULL;
    nn_tensor *loss = nn_module_gpt_loss(ctx, mo->m, xt, tt, name, &logits);
    if (!loss) return lang_raise_engine(vm);
    lang_val items[2];
    if (!lang_tensor_new(vm, logits, &items[0])) {
        nn_tensor_release(loss);
        return false;
    }
    if (!lang_tensor_new(vm, loss, &items[1])) {
        lang_val_release(items[0]);
        return false;
    }
    bool ok = lang_tuple_pack(vm, 2, items, out);
    lang_val_release(items[0]);
    lang_val_release(items[1]);
    return ok;
}

static bool module_call_plain(lang_vm *vm, lang_val m, const lang_args *a, lang_val *out) {
    return module_forward(vm, (module_obj *)m.u.o, root_name(vm, m), a, out);
}

static bool module_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    return lang_module_call_hooked(vm, lang_obj_val(o), a, module_call_plain, out);
}

static bool m_register_full_backward_hook(lang_vm *vm, lang_val self, const lang_args *a,
                                          lang_val *out) {
    lang_val fn, prepend;
    return lang_parse_args(vm, a, "register_full_backward_hook", "hook|prepend", &fn, &prepend) &&
           lang_module_register_backward_hook(vm, self, fn, out);
}

static bool is_container(const nn_module *m) {
    return m->kind == NN_MODULE_SEQUENTIAL || m->kind == NN_MODULE_MODULE_LIST;
}

static bool int_tuple(lang_vm *vm, int n, const int64_t *d, lang_val *out) {
    lang_val items[NN_MAX_DIMS];
    for (int i = 0; i < n; i++) items[i] = lang_int(d[i]);
    return lang_tuple_pack(vm, n, items, out);
}

/* The GPT configuration as a record (nanoGPT's model.config). */
static bool gpt_config_record(lang_vm *vm, const nn_gpt_config *c, lang_val *out) {
    if (!lang_record_new(vm, "GPTConfig", out)) return false;
    bool ok = lang_record_set(vm, *out, "vocab_size", lang_int(c->vocab_size)) &&
              lang_record_set(vm, *out, "block_size", lang_int(c->block_size)) &&
              lang_record_set(vm, *out, "n_layer", lang_int(c->n_layer)) &&
              lang_record_set(vm, *out, "n_head", lang_int(c->n_head)) &&
              lang_record_set(vm, *out, "n_embd", lang_int(c->n_embd)) &&
              lang_record_set(vm, *out, "dropout", lang_float(c->dropout)) &&
              lang_record_set(vm, *out, "bias", lang_bool(c->bias)) &&
              lang_record_set(vm, *out, "tie_weights", lang_bool(c->tied));
    if (!ok) lang_val_release(*out);
    return ok;
}

/* The configuration attributes PyTorch's modules expose, per kind. */
static bool config_attr(lang_vm *vm, const nn_module *m, const char *name, lang_val *out,
                        bool *found) {
    *found = true;
    switch (m->kind) {
    case NN_MODULE_LINEAR:
        if (!strcmp(name, "in_features")) return *out = lang_int(m->cfg.in), true;
        if (!strcmp(name, "out_features")) return *out = lang_int(m->cfg.out), true;
        break;
    case NN_MODULE_EMBEDDING:
        if (!strcmp(name, "num_embeddings")) return *out = lang_int(m->cfg.in), true;
        if (!strcmp(name, "embedding_dim")) return *out = lang_int(m->cfg.out), true;
        break;
    case NN_MODULE_LAYER_NORM:
        if (!strcmp(name, "normalized_shape"))
            return int_tuple(vm, m->cfg.n_norm, m->cfg.norm_shape, out);
        if (!strcmp(name, "eps")) return *out = lang_float(m->cfg.eps), true;
        if (!strcmp(name, "elementwise_affine")) return *out = lang_bool(m->cfg.affine), true;
        break;
    case NN_MODULE_DROPOUT:
        if (!strcmp(name, "p")) return *out = lang_float(m->cfg.p), true;
        break;
    case NN_MODULE_LEAKY_RELU:
        if (!strcmp(name, "negative_slope")) return *out = lang_float(m->cfg.slope), true;
        break;
    case NN_MODULE_GELU:
        if (!strcmp(name, "approximate"))
            return lang_str_from_cstr(vm, m->cfg.approx_tanh ? "tanh" : "none", out);
        break;
    case NN_MODULE_SOFTMAX:
        if (!strcmp(name, "dim")) return *out = lang_int(m->cfg.dim), true;
        break;
    case NN_MODULE_FLATTEN:
        if (!strcmp(name, "start_dim")) return *out = lang_int(m->cfg.start_dim), true;
        if (!strcmp(name, "end_dim")) return *out = lang_int(m->cfg.end_dim), true;
        break;
    case NN_MODULE_ATTENTION:
    case NN_MODULE_BLOCK:
        if (!strcmp(name, "n_embd")) return *out = lang_int(m->cfg.n_embd), true;
        if (!strcmp(name, "n_head")) return *out = lang_int(m->cfg.n_head), true;
        break;
    case NN_MODULE_GPT:
        if (!strcmp(name, "config")) return gpt_config_record(vm, &m->cfg.gpt, out);
        break;
    case NN_MODULE_BATCH_NORM1D:
        if (!strcmp(name, "num_features")) return *out = lang_int(m->cfg.in), true;
        if (!strcmp(name, "eps")) return *out = lang_float(m->cfg.eps), true;
        if (!strcmp(name, "momentum"))
            return *out = isnan(m->cfg.momentum) ? lang_none() : lang_float(m->cfg.momentum), true;
        if (!strcmp(name, "affine")) return *out = lang_bool(m->cfg.affine), true;
        if (!strcmp(name, "track_running_stats"))
            return *out = lang_bool(m->cfg.track_running_stats), true;
        break;
    case NN_MODULE_GROUP_NORM:
        if (!strcmp(name, "num_groups")) return *out = lang_int(m->cfg.num_groups), true;
        if (!strcmp(name, "num_channels")) return *out = lang_int(m->cfg.in), true;
        if (!strcmp(name, "eps")) return *out = lang_float(m->cfg.eps), true;
        if (!strcmp(name, "affine")) return *out = lang_bool(m->cfg.affine), true;
        break;
    default: break;
    }
    *found = false;
    return true;
}

static const char *const config_names[NN_MODULE_KIND_COUNT][6] = {
    [NN_MODULE_LINEAR] = {"in_features", "out_features", NULL},
    [NN_MODULE_EMBEDDING] = {"num_embeddings", "embedding_dim", NULL},
    [NN_MODULE_LAYER_NORM] = {"normalized_shape", "eps", "elementwise_affine", NULL},
    [NN_MODULE_DROPOUT] = {"p", NULL},
    [NN_MODULE_LEAKY_RELU] = {"negative_slope", NULL},
    [NN_MODULE_GELU] = {"approximate", NULL},
    [NN_MODULE_SOFTMAX] = {"dim", NULL},
    [NN_MODULE_FLATTEN] = {"start_dim", "end_dim", NULL},
    [NN_MODULE_ATTENTION] = {"n_embd", "n_head", NULL},
    [NN_MODULE_BLOCK] = {"n_embd", "n_head", NULL},
    [NN_MODULE_GPT] = {"config", NULL},
    [NN_MODULE_BATCH_NORM1D] = {"num_features", "eps", "momentum", "affine", "track_running_stats",
                                NULL},
    [NN_MODULE_GROUP_NORM] = {"num_groups", "num_channels", "eps", "affine", NULL},
};

static bool module_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    module_obj *mo = (module_obj *)o;
    nn_module *m = mo->m;
    *found = true;
    if (!strcmp(name, "training")) return *out = lang_bool(m->training), true;
    if (!strcmp(name, "num_params")) return *out = lang_int(nn_module_num_params(m)), true;
    for (int i = 0; i < m->n_params; i++)
        if (!strcmp(m->params[i].name, name)) return param_get(vm, mo, i, out);
    for (int i = 0; i < m->n_buffers; i++)
        if (!strcmp(m->buffers[i].name, name)) {
            if (!m->buffers[i].t) return *out = lang_none(), true;
            return lang_tensor_new(vm, nn_tensor_retain(m->buffers[i].t), out);
        }
    int nc = nn_module_num_children(m);
    for (int i = 0; i < nc; i++)
        if (!strcmp(nn_module_child_name(m, i), name)) return kid_get(vm, mo, i, out);
    return config_attr(vm, m, name, out, found);
}

static bool module_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    module_obj *mo = (module_obj *)o;
    nn_module *m = mo->m;
    const char *tn = nn_module_kind_name(m->kind);
    if (!strcmp(name, "training")) {
        bool b;
        if (!lang_to_bool(vm, v, "training", &b)) return false;
        m->training = b;
        return true;
    }
    for (int i = 0; i < m->n_params; i++) {
        if (strcmp(m->params[i].name, name)) continue;
        if (v.kind == LANG_NONE) {
            if (!engine(vm, nn_module_set_param(CTX(vm), m, name, NULL))) return false;
            return true;
        }
        nn_tensor *t = lang_tensor_of(v);
        if (!t)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "cannot assign '%s' as parameter '%s' of %s (a Tensor or None "
                              "expected)",
                              lang_type_name(v), name, tn);
        nn_tensor *old = m->params[i].t;
        if (old && !nn_tensor_same_shape(old, t)) {
            char a[128], b[128];
            nn_tensor_shape_str(t, a, sizeof a);
            nn_tensor_shape_str(old, b, sizeof b);
            return lang_raise(vm, LANG_ERR_SHAPE,
                              "cannot assign a tensor of shape %s to %s.%s of shape %s: build a "
                              "new layer to change its size",
                              a, tn, name, b);
        }
        if (!engine(vm, nn_module_set_param(CTX(vm), m, name, t))) return false;
        /* The module now holds the user's tensor: hand out that very value. */
        return tc_put(vm, mo->tc, t, v);
    }
    int nc = nn_module_num_children(m);
    for (int i = 0; i < nc; i++)
        if (!strcmp(nn_module_child_name(m, i), name))
            return lang_raise(vm, LANG_ERR_ATTRIBUTE,
                              "cannot replace child module '%s' of %s: build a new model with the "
                              "module you want there",
                              name, tn);
    return lang_raise(vm, LANG_ERR_ATTRIBUTE,
                      "cannot set attribute '%s' of %s: only its parameters and 'training' can "
                      "be assigned",
                      name, tn);
}

static bool module_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    module_obj *mo = (module_obj *)o;
    const char *tn = nn_module_kind_name(mo->m->kind);
    if (!is_container(mo->m))
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not subscriptable", tn);
    if (key.kind != LANG_INT && key.kind != LANG_BOOL)
        return lang_raise(vm, LANG_ERR_TYPE, "%s indices must be integers, not %s", tn,
                          lang_type_name(key));
    int64_t n = nn_module_num_children(mo->m);
    int64_t i = key.kind == LANG_BOOL ? key.u.b : key.u.i;
    if (i < -n || i >= n)
        return lang_raise(vm, LANG_ERR_INDEX, "index %lld is out of range for %s of length %lld",
                          (long long)i, tn, (long long)n);
    if (i < 0) i += n;
    return kid_get(vm, mo, (int)i, out);
}

static bool module_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    module_obj *mo = (module_obj *)o;
    if (!is_container(mo->m))
        return lang_raise(vm, LANG_ERR_TYPE, "object of type '%s' has no len()",
                          nn_module_kind_name(mo->m->kind));
    *out = nn_module_num_children(mo->m);
    return true;
}

static bool module_truth(lang_vm *vm, lang_obj *o, bool *out) {
    (void)vm;
    /* As in Python: containers with a len() are false when empty. */
    *out = true;
    module_obj *mo = (module_obj *)o;
    if (is_container(mo->m)) *out = nn_module_num_children(mo->m) > 0;
    return true;
}

static bool children_list(lang_vm *vm, module_obj *mo, bool named, lang_val *out) {
    if (!lang_list_new(vm, 0, out)) return false;
    int nc = nn_module_num_children(mo->m);
    for (int i = 0; i < nc; i++) {
        lang_val kv, item;
        if (!kid_get(vm, mo, i, &kv)) goto fail;
        if (named) {
            lang_val pair[2];
            if (!lang_str_from_cstr(vm, nn_module_child_name(mo->m, i), &pair[0])) {
                lang_val_release(kv);
                goto fail;
            }
            pair[1] = kv;
            bool ok = lang_tuple_pack(vm, 2, pair, &item);
            lang_val_release(pair[0]);
            lang_val_release(kv);
            if (!ok) goto fail;
        } else {
            item = kv;
        }
        bool ok = lang_list_append(vm, *out, item);
        lang_val_release(item);
        if (!ok) goto fail;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static bool module_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    module_obj *mo = (module_obj *)o;
    if (!is_container(mo->m))
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not iterable",
                          nn_module_kind_name(mo->m->kind));
    lang_val list;
    if (!children_list(vm, mo, false, &list)) return false;
    bool ok = lang_iter(vm, list, out);
    lang_val_release(list);
    return ok;
}

static const char *const *module_fields(lang_obj *o) {
    module_obj *mo = (module_obj *)o;
    nn_module *m = mo->m;
    int nc = nn_module_num_children(m);
    size_t cap = (size_t)(2 + m->n_params + m->n_buffers + nc + 6 + 1);
    const char **v = malloc(sizeof *v * cap);
    if (!v) return NULL;
    size_t n = 0;
    v[n++] = "training";
    v[n++] = "num_params";
    for (int i = 0; i < m->n_params; i++) v[n++] = m->params[i].name;
    for (int i = 0; i < m->n_buffers; i++) v[n++] = m->buffers[i].name;
    for (int i = 0; i < nc; i++) {
        const char *cn = nn_module_child_name(m, i);
        /* Sequential's "0", "1" are reached by indexing, not as names. */
        if (cn[0] < '0' || cn[0] > '9') v[n++] = cn;
    }
    for (int i = 0; i < 6 && config_names[m->kind][i]; i++) v[n++] = config_names[m->kind][i];
    v[n] = NULL;
    free(mo->fieldv);
    mo->fieldv = v;
    return v;
}

/* ---- rich display: the repr, then a table of the parameters ---- */

static void tensor_mean_std(const nn_tensor *t, double *mean, double *std) {
    int64_t n = nn_tensor_numel(t);
    *mean = *std = NAN;
    if (n <= 0) return;
    double *d = malloc(sizeof *d * (size_t)n);
    if (!d) return;
    nn_tensor_to_doubles(t, d);
    double s = 0;
    for (int64_t i = 0; i < n; i++) s += d[i];
    double mu = s / (double)n, ss = 0;
    for (int64_t i = 0; i < n; i++) ss += (d[i] - mu) * (d[i] - mu);
    free(d);
    *mean = mu;
    *std = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN; /* unbiased, as Tensor.std */
}

static bool module_display(lang_vm *vm, lang_obj *o, lang_mime *out) {
    module_obj *mo = (module_obj *)o;
    lang_buf text;
    lang_buf_init(&text);
    if (!module_repr(vm, o, &text)) {
        lang_buf_free(&text);
        return false;
    }
    lang_buf h;
    lang_buf_init(&h);
    lang_buf_puts(&h, "<pre>");
    nn_format_html_escape(&h, text.data ? text.data : "");
    lang_buf_puts(&h, "</pre>\n");
    lang_mime_add(out, "text/plain", lang_buf_take(&text));
    nn_state st;
    nn_state_init(&st);
    if (nn_module_named_parameters(CTX(vm), mo->m, &st) != NN_OK) {
        nn_state_free(&st);
        lang_buf_free(&h);
        return lang_raise_engine(vm);
    }
    lang_buf_puts(&h, "<table>\n<thead><tr><th>parameter</th><th>shape</th><th>count</th>"
                      "<th>mean</th><th>std</th></tr></thead>\n<tbody>\n");
    int64_t total = 0;
    for (int i = 0; i < st.n; i++) {
        nn_tensor *t = st.entries[i].tensor;
        char shape[128];
        nn_tensor_shape_str(t, shape, sizeof shape);
        double mean, sd;
        tensor_mean_std(t, &mean, &sd);
        int64_t n = nn_tensor_numel(t);
        total += n;
        lang_buf_puts(&h, "<tr><td><code>");
        nn_format_html_escape(&h, st.entries[i].name);
        lang_buf_printf(&h, "</code></td><td>%s</td><td>%lld</td><td>%.4g</td><td>%.4g</td></tr>\n",
                        shape, (long long)n, mean, sd);
    }
    lang_buf_printf(&h,
                    "</tbody>\n<tfoot><tr><td>total</td><td></td><td>%lld</td><td></td>"
                    "<td></td></tr></tfoot>\n</table>",
                    (long long)total);
    nn_state_free(&st);
    lang_mime_add(out, "text/html", lang_buf_take(&h));
    return true;
}

/* ---- methods ---- */

#define MO(v) ((module_obj *)(v).u.o)

static bool m_parameters(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val recurse = lang_bool(true);
    if (!lang_parse_args(vm, a, "parameters", "|recurse", &recurse)) return false;
    (void)recurse;
    return module_params_list(vm, MO(self), false, out);
}

static bool m_named_parameters(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "named_parameters", "")) return false;
    return module_params_list(vm, MO(self), true, out);
}

static bool m_children(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "children", "")) return false;
    return children_list(vm, MO(self), false, out);
}

static bool m_named_children(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "named_children", "")) return false;
    return children_list(vm, MO(self), true, out);
}

static bool m_train(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val mode = lang_bool(true);
    if (!lang_parse_args(vm, a, "train", "|mode", &mode)) return false;
    bool b;
    if (!lang_to_bool(vm, mode, "mode", &b)) return false;
    nn_module_train(MO(self)->m, b);
    *out = lang_val_retain(self);
    return true;
}

static bool m_eval(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "eval", "")) return false;
    nn_module_eval(MO(self)->m);
    *out = lang_val_retain(self);
    return true;
}

/* double(), float(), to(dtype): convert the parameters and buffers in place
 * (engine: nn_module_to_dtype) and return the module, as PyTorch does. */
static bool module_convert(lang_vm *vm, lang_val self, nn_dtype dt, lang_val *out) {
    if (!engine(vm, nn_module_to_dtype(CTX(vm), MO(self)->m, dt))) return false;
    *out = lang_val_retain(self);
    return true;
}

static bool m_double(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "double", "")) return false;
    return module_convert(vm, self, NN_FLOAT64, out);
}

static bool m_float(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "float", "")) return false;
    return module_convert(vm, self, NN_FLOAT32, out);
}

static bool m_half(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "half", "")) return false;
    return module_convert(vm, self, NN_FLOAT16, out);
}

static bool m_bfloat16(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "bfloat16", "")) return false;
    return module_convert(vm, self, NN_BFLOAT16, out);
}

static bool m_to(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val d = lang_none();
    nn_dtype dt;
    if (!lang_parse_args(vm, a, "to", "dtype", &d) || !lang_dtype_from(vm, d, "dtype", &dt))
        return false;
    return module_convert(vm, self, dt, out);
}

static bool m_zero_grad(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val stn = lang_bool(true);
    if (!lang_parse_args(vm, a, "zero_grad", "|set_to_none", &stn)) return false;
    bool b;
    if (!lang_to_bool(vm, stn, "set_to_none", &b)) return false;
    if (!engine(vm, nn_module_zero_grad(CTX(vm), MO(self)->m, b))) return false;
    *out = lang_none();
    return true;
}

static bool m_get_num_params(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "get_num_params", "")) return false;
    *out = lang_int(nn_module_num_params(MO(self)->m));
    return true;
}

static bool m_forward(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return module_forward(vm, MO(self), root_name(vm, self), a, out);
}

bool lang_nn_state_to_dict(lang_vm *vm, const nn_state *st, lang_val *out) {
    if (!lang_dict_new(vm, out)) return false;
    for (int i = 0; i < st->n; i++) {
        lang_val k, v;
        if (!lang_str_from_cstr(vm, st->entries[i].name, &k)) goto fail;
        if (!lang_tensor_new(vm, nn_tensor_retain(st->entries[i].tensor), &v)) {
            lang_val_release(k);
            goto fail;
        }
        bool ok = lang_dict_set(vm, *out, k, v);
        lang_val_release(k);
        lang_val_release(v);
        if (!ok) goto fail;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static bool m_state_dict(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "state_dict", "")) return false;
    nn_state st;
    nn_state_init(&st);
    if (nn_module_state_dict(CTX(vm), MO(self)->m, &st) != NN_OK) {
        nn_state_free(&st);
        return lang_raise_engine(vm);
    }
    bool ok = lang_nn_state_to_dict(vm, &st, out);
    nn_state_free(&st);
    return ok;
}

bool lang_nn_state_from_dict(lang_vm *vm, lang_val d, const char *what, nn_state *st) {
    if (!lang_is_obj(d, &lang_dict_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s must be a dict of name -> Tensor, not %s", what,
                          lang_type_name(d));
    lang_dict_obj *dobj = (lang_dict_obj *)d.u.o;
    for (int64_t i = 0; i < dobj->nent; i++) {
        lang_dict_entry *e = &dobj->entries[i];
        if (!e->live) continue;
        if (!lang_is_obj(e->key, &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "%s keys must be str, not %s", what,
                              lang_type_name(e->key));
        nn_tensor *t = lang_tensor_of(e->value);
        if (!t)
            return lang_raise(vm, LANG_ERR_TYPE, "%s['%s'] must be a Tensor, not %s", what,
                              lang_str_cstr(e->key), lang_type_name(e->value));
        if (nn_state_add(CTX(vm), st, lang_str_cstr(e->key), t) != NN_OK)
            return lang_raise_engine(vm);
    }
    return true;
}

/* PyTorch's _IncompatibleKeys: what load_state_dict returns. */
typedef struct keys_obj {
    lang_obj hdr;
    lang_val missing, unexpected; /* lists of str */
} keys_obj;

static void keys_free(lang_obj *o) {
    lang_val_release(((keys_obj *)o)->missing);
    lang_val_release(((keys_obj *)o)->unexpected);
}

static bool keys_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    keys_obj *k = (keys_obj *)o;
    if (lang_seq_len(k->missing) == 0 && lang_seq_len(k->unexpected) == 0) {
        lang_buf_puts(out, "<All keys matched successfully>");
        return true;
    }
    lang_buf_puts(out, "_IncompatibleKeys(missing_keys=");
    if (!lang_repr(vm, k->missing, out)) return false;
    lang_buf_puts(out, ", unexpected_keys=");
    if (!lang_repr(vm, k->unexpected, out)) return false;
    lang_buf_puts(out, ")");
    return true;
}

static bool keys_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    (void)vm;
    keys_obj *k = (keys_obj *)o;
    *found = true;
    if (!strcmp(name, "missing_keys"))
        *out = lang_val_retain(k->missing);
    else if (!strcmp(name, "unexpected_keys"))
        *out = lang_val_retain(k->unexpected);
    else
        *found = false;
    return true;
}

static const char *const keys_field_names[] = {"missing_keys", "unexpected_keys", NULL};
static const char *const *keys_fields(lang_obj *o) {
    (void)o;
    return keys_field_names;
}

static const lang_type keys_type = {
    .name = "_IncompatibleKeys",
    .free = keys_free,
    .repr = keys_repr,
    .getattr = keys_getattr,
    .fields = keys_fields,
};

static bool m_load_state_dict(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val d, strict = lang_bool(true);
    if (!lang_parse_args(vm, a, "load_state_dict", "state_dict|strict", &d, &strict)) return false;
    bool st_strict;
    if (!lang_to_bool(vm, strict, "strict", &st_strict)) return false;
    nn_ctx *ctx = CTX(vm);
    nn_state given, own;
    nn_state_init(&given);
    nn_state_init(&own);
    keys_obj *k = NULL;
    bool ok = lang_nn_state_from_dict(vm, d, "state_dict", &given);
    if (ok && nn_module_state_dict(ctx, MO(self)->m, &own) != NN_OK) ok = lang_raise_engine(vm);
    if (ok && nn_module_load_state_dict(ctx, MO(self)->m, &given, st_strict) != NN_OK)
        ok = lang_raise_engine(vm);
    if (ok) k = lang_obj_new(vm, &keys_type, sizeof *k);
    if (k) {
        k->missing = k->unexpected = lang_none();
        ok = lang_list_new(vm, 0, &k->missing) && lang_list_new(vm, 0, &k->unexpected);
        /* Only a non-strict load gets here with keys that differ. */
        for (int i = 0; ok && i < own.n; i++)
            if (!nn_state_get(&given, own.entries[i].name)) {
                lang_val s;
                ok = lang_str_from_cstr(vm, own.entries[i].name, &s);
                if (ok) ok = lang_list_append(vm, k->missing, s);
                lang_val_release(s);
            }
        for (int i = 0; ok && i < given.n; i++)
            if (!nn_state_get(&own, given.entries[i].name)) {
                lang_val s;
                ok = lang_str_from_cstr(vm, given.entries[i].name, &s);
                if (ok) ok = lang_list_append(vm, k->unexpected, s);
                lang_val_release(s);
            }
        if (ok)
            *out = lang_obj_val(&k->hdr);
        else
            lang_val_release(lang_obj_val(&k->hdr));
    } else {
        ok = false;
    }
    nn_state_free(&given);
    nn_state_free(&own);
    return ok;
}

static bool m_append(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val child;
    module_obj *mo = MO(self);
    if (!lang_parse_args(vm, a, "append", "module", &child)) return false;
    if (!is_container(mo->m))
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object has no attribute 'append'",
                          nn_module_kind_name(mo->m->kind));
    nn_module *c = lang_module_of(child);
    if (!c)
        return lang_raise(vm, LANG_ERR_TYPE, "%s.append() expects a Module, not %s",
                          nn_module_kind_name(mo->m->kind), lang_type_name(child));
    if (!engine(vm, nn_module_append(CTX(vm), mo->m, c))) return false;
    if (!kid_store(vm, mo, nn_module_num_children(mo->m) - 1, child)) return false;
    *out = lang_val_retain(self);
    return true;
}

static const lang_method module_methods[] = {
    {"parameters",
     m_parameters,
     {"Module.parameters", "parameters()",
      "The parameter tensors in PyTorch's order (a module's own, then each child's), each once "
      "even when shared. The same tensor objects every time, so an optimizer built on them "
      "updates what the model uses.",
      "opt = Adam(model.parameters(), lr=3e-3)"}},
    {"named_parameters",
     m_named_parameters,
     {"Module.named_parameters", "named_parameters()",
      "A list of (name, tensor) tuples with dotted names ('0.weight', 'blocks.1.attn.qkv.bias').",
      "for name, p in model.named_parameters(): print(name, p.shape)"}},
    {"children",
     m_children,
     {"Module.children", "children()", "The direct child modules, in order.",
      "[type(c) for c in model.children()]"}},
    {"named_children",
     m_named_children,
     {"Module.named_children", "named_children()", "(name, module) tuples of the direct children.",
      "model.named_children()"}},
    {"train",
     m_train,
     {"Module.train", "train(mode=True)",
      "Set training mode on the module and every descendant (Dropout is active); returns the "
      "module.",
      "model.train()"}},
    {"eval",
     m_eval,
     {"Module.eval", "eval()",
      "Set evaluation mode on the module and every descendant (Dropout passes through); returns "
      "the module.",
      "model.eval()"}},
    {"double",
     m_double,
     {"Module.double", "double()",
      "Convert every float parameter and buffer (and their gradients) to float64 in place; "
      "returns the module. Make optimizers after converting: one made before refuses to step.",
      "model.double()"}},
    {"half",
     m_half,
     {"Module.half", "half()",
      "Convert every float parameter and buffer to float16 in place; returns the module.",
      "model.half()"}},
    {"bfloat16",
     m_bfloat16,
     {"Module.bfloat16", "bfloat16()",
      "Convert every float parameter and buffer to bfloat16 in place; returns the module.",
      "model.bfloat16()"}},
    {"float",
     m_float,
     {"Module.float", "float()",
      "Convert every float parameter and buffer to float32 in place; returns the module.",
      "model.float()"}},
    {"to",
     m_to,
     {"Module.to", "to(dtype)",
      "Convert every float parameter and buffer to [dtype] (float32 or float64) in place; "
      "returns the module.",
      "model.to(float64)"}},
    {"zero_grad",
     m_zero_grad,
     {"Module.zero_grad", "zero_grad(set_to_none=True)",
      "Drop every parameter's gradient (or zero it in place with set_to_none=False).",
      "model.zero_grad()"}},
    {"get_num_params",
     m_get_num_params,
     {"Module.get_num_params", "get_num_params()",
      "The number of parameter elements (shared tensors counted once); also the attribute "
      "num_params and the function num_params(model).",
      "model.get_num_params()"}},
    {"forward",
     m_forward,
     {"Module.forward", "forward(input)", "The same as calling the module: model(x).",
      "model.forward(x)"}},
    {"state_dict",
     m_state_dict,
     {"Module.state_dict", "state_dict()",
      "A dict of dotted name -> tensor for every parameter and buffer (a tied weight under both "
      "names); the tensors share storage with the model and do not require grad.",
      "sd = model.state_dict(); list(sd.keys())"}},
    {"load_state_dict",
     m_load_state_dict,
     {"Module.load_state_dict", "load_state_dict(state_dict, strict=True)",
      "Copy the tensors of a dict (from state_dict() or load()) into the parameters. Every key, "
      "shape and dtype is checked first: on any mismatch nothing is changed and the error names "
      "the key. With strict=False missing and unexpected keys are skipped and returned.",
      "model.load_state_dict(load('model.safetensors'))"}},
    {"register_full_backward_hook",
     m_register_full_backward_hook,
     {"Module.register_full_backward_hook", "register_full_backward_hook(hook)",
      "Call hook(module, grad_input, grad_output) when the gradients of the module's inputs are "
      "computed; a returned tuple replaces grad_input. Returns a handle with remove().",
      "h = lin.register_full_backward_hook(lambda m, gi, go: print(go[0].shape))"}},
    {"append",
     m_append,
     {"Module.append", "append(module)",
      "Add a module at the end of a Sequential or ModuleList; returns the container.",
      "layers.append(Linear(4, 4))"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

#define MODULE_TYPE(KIND, NAME)                                                                    \
    [KIND] = {.name = NAME,                                                                        \
              .free = module_free,                                                                 \
              .repr = module_repr,                                                                 \
              .getattr = module_getattr,                                                           \
              .setattr = module_setattr,                                                           \
              .call = module_call,                                                                 \
              .getitem = module_getitem,                                                           \
              .iter = module_iter,                                                                 \
              .len = module_len,                                                                   \
              .truth = module_truth,                                                               \
              .fields = module_fields,                                                             \
              .display = module_display,                                                           \
              .methods = module_methods,                                                           \
              .help = &module_helps[KIND]}

static const lang_type module_types[NN_MODULE_KIND_COUNT] = {
    MODULE_TYPE(NN_MODULE_LINEAR, "Linear"),
    MODULE_TYPE(NN_MODULE_EMBEDDING, "Embedding"),
    MODULE_TYPE(NN_MODULE_LAYER_NORM, "LayerNorm"),
    MODULE_TYPE(NN_MODULE_DROPOUT, "Dropout"),
    MODULE_TYPE(NN_MODULE_RELU, "ReLU"),
    MODULE_TYPE(NN_MODULE_LEAKY_RELU, "LeakyReLU"),
    MODULE_TYPE(NN_MODULE_TANH, "Tanh"),
    MODULE_TYPE(NN_MODULE_SIGMOID, "Sigmoid"),
    MODULE_TYPE(NN_MODULE_GELU, "GELU"),
    MODULE_TYPE(NN_MODULE_SILU, "SiLU"),
    MODULE_TYPE(NN_MODULE_SOFTMAX, "Softmax"),
    MODULE_TYPE(NN_MODULE_FLATTEN, "Flatten"),
    MODULE_TYPE(NN_MODULE_SEQUENTIAL, "Sequential"),
    MODULE_TYPE(NN_MODULE_MODULE_LIST, "ModuleList"),
    MODULE_TYPE(NN_MODULE_ATTENTION, "CausalSelfAttention"),
    MODULE_TYPE(NN_MODULE_BLOCK, "Block"),
    MODULE_TYPE(NN_MODULE_GPT, "GPT"),
    MODULE_TYPE(NN_MODULE_BATCH_NORM1D, "BatchNorm1d"),
    MODULE_TYPE(NN_MODULE_GROUP_NORM, "GroupNorm"),
};

/* ------------------------------------------------------------------ constructors */

static bool arg_int(lang_vm *vm, lang_val v, const char *what, int64_t *out) {
    return lang_to_int(vm, v, what, out);
}

static bool arg_float(lang_vm *vm, lang_val v, const char *what, double *out) {
    return lang_to_float(vm, v, what, out);
}

static bool arg_bool(lang_vm *vm, lang_val v, const char *what, bool *out) {
    return lang_to_bool(vm, v, what, out);
}

static bool arg_str(lang_vm *vm, lang_val v, const char *what, const char **out) {
    if (!lang_is_obj(v, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s must be a str, not %s", what, lang_type_name(v));
    *out = lang_str_cstr(v);
    return true;
}

static bool f_linear(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val in, o, bias = lang_bool(true);
    int64_t ni, no;
    bool b;
    if (!lang_parse_args(vm, a, "Linear", "in_features,out_features|bias", &in, &o, &bias) ||
        !arg_int(vm, in, "in_features", &ni) || !arg_int(vm, o, "out_features", &no) ||
        !arg_bool(vm, bias, "bias", &b))
        return false;
    return module_wrap(vm, nn_module_linear(CTX(vm), ni, no, b), out);
}

static bool f_embedding(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val n, d;
    int64_t nn_, dd;
    if (!lang_parse_args(vm, a, "Embedding", "num_embeddings,embedding_dim", &n, &d) ||
        !arg_int(vm, n, "num_embeddings", &nn_) || !arg_int(vm, d, "embedding_dim", &dd))
        return false;
    return module_wrap(vm, nn_module_embedding(CTX(vm), nn_, dd), out);
}

static bool f_layer_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val shape, eps = lang_float(1e-5), affine = lang_bool(true);
    int64_t dims[NN_MAX_DIMS];
    int n;
    double e;
    bool af;
    if (!lang_parse_args(vm, a, "LayerNorm", "normalized_shape|eps,elementwise_affine", &shape,
                         &eps, &affine) ||
        !lang_to_dims(vm, shape, "normalized_shape", dims, NN_MAX_DIMS, &n) ||
        !arg_float(vm, eps, "eps", &e) || !arg_bool(vm, affine, "elementwise_affine", &af))
        return false;
    if (n < 1)
        return lang_raise(vm, LANG_ERR_VALUE, "LayerNorm needs a non-empty normalized_shape");
    return module_wrap(vm, nn_module_layer_norm(CTX(vm), n, dims, e, af), out);
}

static bool f_batch_norm1d(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nf, eps = lang_float(1e-5), mom = lang_float(0.1), affine = lang_bool(true),
                 track = lang_bool(true), dev = lang_none(), dt = lang_none();
    int64_t n;
    double e, m = NAN;
    bool af, tr;
    if (!lang_parse_args(vm, a, "BatchNorm1d",
                         "num_features|eps,momentum,affine,track_running_stats,device,dtype", &nf,
                         &eps, &mom, &affine, &track, &dev, &dt) ||
        !arg_int(vm, nf, "num_features", &n) || !arg_float(vm, eps, "eps", &e) ||
        (mom.kind != LANG_NONE && !arg_float(vm, mom, "momentum", &m)) ||
        !arg_bool(vm, affine, "affine", &af) || !arg_bool(vm, track, "track_running_stats", &tr))
        return false;
    return module_wrap(vm, nn_module_batch_norm1d(CTX(vm), n, e, m, af, tr), out);
}

static bool f_group_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ng, nc, eps = lang_float(1e-5), affine = lang_bool(true), dev = lang_none(),
                     dt = lang_none();
    int64_t g, c;
    double e;
    bool af;
    if (!lang_parse_args(vm, a, "GroupNorm", "num_groups,num_channels|eps,affine,device,dtype", &ng,
                         &nc, &eps, &affine, &dev, &dt) ||
        !arg_int(vm, ng, "num_groups", &g) || !arg_int(vm, nc, "num_channels", &c) ||
        !arg_float(vm, eps, "eps", &e) || !arg_bool(vm, affine, "affine", &af))
        return false;
    return module_wrap(vm, nn_module_group_norm(CTX(vm), g, c, e, af), out);
}

static bool f_dropout(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val p = lang_float(0.5), inplace = lang_bool(false);
    double pp;
    if (!lang_parse_args(vm, a, "Dropout", "|p,inplace", &p, &inplace) ||
        !arg_float(vm, p, "p", &pp))
        return false;
    if (!(pp >= 0 && pp <= 1))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "dropout probability has to be between 0 and 1, but got %g", pp);
    return module_wrap(vm, nn_module_dropout(CTX(vm), pp), out);
}

static bool f_relu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val inplace = lang_bool(false);
    if (!lang_parse_args(vm, a, "ReLU", "|inplace", &inplace)) return false;
    return module_wrap(vm, nn_module_relu(CTX(vm)), out);
}

static bool f_leaky_relu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val slope = lang_float(0.01), inplace = lang_bool(false);
    double s;
    if (!lang_parse_args(vm, a, "LeakyReLU", "|negative_slope,inplace", &slope, &inplace) ||
        !arg_float(vm, slope, "negative_slope", &s))
        return false;
    return module_wrap(vm, nn_module_leaky_relu(CTX(vm), s), out);
}

static bool f_tanh(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "Tanh", "")) return false;
    return module_wrap(vm, nn_module_tanh(CTX(vm)), out);
}

static bool f_sigmoid(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "Sigmoid", "")) return false;
    return module_wrap(vm, nn_module_sigmoid(CTX(vm)), out);
}

static bool f_gelu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val ap = lang_none();
    const char *s = "none";
    if (!lang_parse_args(vm, a, "GELU", "|approximate", &ap)) return false;
    if (ap.kind != LANG_NONE && !arg_str(vm, ap, "approximate", &s)) return false;
    if (strcmp(s, "none") && strcmp(s, "tanh"))
        return lang_raise(vm, LANG_ERR_VALUE, "GELU approximate must be 'none' or 'tanh', not '%s'",
                          s);
    return module_wrap(vm, nn_module_gelu(CTX(vm), !strcmp(s, "tanh")), out);
}

static bool f_silu(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val inplace = lang_bool(false);
    if (!lang_parse_args(vm, a, "SiLU", "|inplace", &inplace)) return false;
    return module_wrap(vm, nn_module_silu(CTX(vm)), out);
}

static bool f_softmax(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val d;
    int64_t dim;
    if (!lang_parse_args(vm, a, "Softmax", "dim", &d) || !arg_int(vm, d, "dim", &dim)) return false;
    return module_wrap(vm, nn_module_softmax(CTX(vm), dim), out);
}

static bool f_flatten(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val s = lang_int(1), e = lang_int(-1);
    int64_t sd, ed;
    if (!lang_parse_args(vm, a, "Flatten", "|start_dim,end_dim", &s, &e) ||
        !arg_int(vm, s, "start_dim", &sd) || !arg_int(vm, e, "end_dim", &ed))
        return false;
    return module_wrap(vm, nn_module_flatten(CTX(vm), sd, ed), out);
}

/* A container from Module values; the container keeps the given wrappers as
 * its children's, so identity is preserved. */
static bool make_container(lang_vm *vm, const char *fname, bool list, int n, const lang_val *items,
                           lang_val *out) {
    nn_module **kids = malloc(sizeof *kids * (size_t)(n ? n : 1));
    if (!kids) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int i = 0; i < n; i++) {
        kids[i] = lang_module_of(items[i]);
        if (!kids[i]) {
            free(kids);
            return lang_raise(vm, LANG_ERR_TYPE, "%s() expects Modules; item %d is %s", fname, i,
                              lang_type_name(items[i]));
        }
    }
    nn_ctx *ctx = CTX(vm);
    nn_module *m = list ? nn_module_module_list(ctx, kids, n) : nn_module_sequential(ctx, kids, n);
    free(kids);
    if (!module_wrap(vm, m, out)) return false;
    for (int i = 0; i < n; i++)
        if (!kid_store(vm, MO(*out), i, items[i])) {
            lang_val_release(*out);
            return false;
        }
    return true;
}

static bool f_sequential(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->nkw)
        return lang_raise(vm, LANG_ERR_TYPE, "Sequential() got an unexpected keyword argument '%s'",
                          a->kwnames[0]);
    return make_container(vm, "Sequential", false, a->n, a->pos, out);
}

static bool f_module_list(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val mods = lang_none();
    if (!lang_parse_args(vm, a, "ModuleList", "|modules", &mods)) return false;
    if (mods.kind == LANG_NONE) return make_container(vm, "ModuleList", true, 0, NULL, out);
    lang_val list;
    if (!lang_list_from_iter(vm, mods, &list)) return false;
    bool ok =
        make_container(vm, "ModuleList", true, (int)lang_seq_len(list), lang_seq_items(list), out);
    lang_val_release(list);
    return ok;
}

static bool f_mlp(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val sizes, act = lang_none();
    if (!lang_parse_args(vm, a, "MLP", "sizes|act", &sizes, &act)) return false;
    int64_t dims[64];
    int n;
    if (!lang_to_dims(vm, sizes, "sizes", dims, 64, &n)) return false;
    if (n < 2) return lang_raise(vm, LANG_ERR_VALUE, "MLP needs at least two sizes (in and out)");
    const char *s = "tanh";
    if (act.kind != LANG_NONE && !arg_str(vm, act, "act", &s)) return false;
    static const struct {
        const char *name;
        nn_module_kind kind;
    } acts[] = {{"relu", NN_MODULE_RELU}, {"leaky_relu", NN_MODULE_LEAKY_RELU},
                {"tanh", NN_MODULE_TANH}, {"sigmoid", NN_MODULE_SIGMOID},
                {"gelu", NN_MODULE_GELU}, {"silu", NN_MODULE_SILU}};
    for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
        if (!strcmp(acts[i].name, s))
            return module_wrap(vm, nn_module_mlp(CTX(vm), dims, n, acts[i].kind), out);
    return lang_raise(vm, LANG_ERR_VALUE,
                      "MLP act must be one of 'relu', 'leaky_relu', 'tanh', 'sigmoid', 'gelu', "
                      "'silu', not '%s'",
                      s);
}

static bool attn_args(lang_vm *vm, const lang_args *a, const char *fname, int64_t *c, int64_t *h,
                      double *p, bool *bias) {
    lang_val cv, hv, pv = lang_float(0.0), bv = lang_bool(true);
    return lang_parse_args(vm, a, fname, "n_embd,n_head|dropout,bias", &cv, &hv, &pv, &bv) &&
           arg_int(vm, cv, "n_embd", c) && arg_int(vm, hv, "n_head", h) &&
           arg_float(vm, pv, "dropout", p) && arg_bool(vm, bv, "bias", bias);
}

static bool f_attention(lang_vm *vm, const lang_args *a, lang_val *out) {
    int64_t c, h;
    double p;
    bool b;
    if (!attn_args(vm, a, "CausalSelfAttention", &c, &h, &p, &b)) return false;
    return module_wrap(vm, nn_module_attention(CTX(vm), c, h, p, b), out);
}

static bool f_block(lang_vm *vm, const lang_args *a, lang_val *out) {
    int64_t c, h;
    double p;
    bool b;
    if (!attn_args(vm, a, "Block", &c, &h, &p, &b)) return false;
    return module_wrap(vm, nn_module_block(CTX(vm), c, h, p, b), out);
}

static bool f_gpt(lang_vm *vm, const lang_args *a, lang_val *out) {
    nn_gpt_config c = nn_gpt_config_default();
    lang_val v = lang_int(c.vocab_size), bs = lang_int(c.block_size), nl = lang_int(c.n_layer),
             nh = lang_int(c.n_head), ne = lang_int(c.n_embd), dr = lang_float(c.dropout),
             bias = lang_bool(c.bias), tie = lang_bool(c.tied);
    if (!lang_parse_args(vm, a, "GPT",
                         "|vocab_size,block_size,n_layer,n_head,n_embd,dropout,bias,tie_weights",
                         &v, &bs, &nl, &nh, &ne, &dr, &bias, &tie) ||
        !arg_int(vm, v, "vocab_size", &c.vocab_size) ||
        !arg_int(vm, bs, "block_size", &c.block_size) || !arg_int(vm, nl, "n_layer", &c.n_layer) ||
        !arg_int(vm, nh, "n_head", &c.n_head) || !arg_int(vm, ne, "n_embd", &c.n_embd) ||
        !arg_float(vm, dr, "dropout", &c.dropout) || !arg_bool(vm, bias, "bias", &c.bias) ||
        !arg_bool(vm, tie, "tie_weights", &c.tied))
        return false;
    return module_wrap(vm, nn_module_gpt(CTX(vm), &c), out);
}

static bool f_num_params(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val m;
    if (!lang_parse_args(vm, a, "num_params", "module", &m)) return false;
    nn_module *mm = lang_module_of(m);
    if (!mm)
        return lang_raise(vm, LANG_ERR_TYPE, "num_params() expects a Module, not %s",
                          lang_type_name(m));
    *out = lang_int(nn_module_num_params(mm));
    return true;
}

/* ------------------------------------------------------------------ torch.nn.init */

static bool init_tensor(lang_vm *vm, lang_val v, const char *fname, nn_tensor **t) {
    *t = lang_tensor_of(v);
    if (!*t)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() expects a Tensor, not %s", fname,
                          lang_type_name(v));
    return true;
}

/* Fill in place and return the tensor itself, as torch.nn.init does. */
static bool init_done(lang_vm *vm, nn_status st, lang_val t, lang_val *out) {
    if (st != NN_OK) return lang_raise_engine(vm);
    *out = lang_val_retain(t);
    return true;
}

static bool f_uniform_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv, av = lang_float(0.0), bv = lang_float(1.0);
    nn_tensor *t;
    double lo, hi;
    if (!lang_parse_args(vm, a, "uniform_", "tensor|a,b", &tv, &av, &bv) ||
        !init_tensor(vm, tv, "uniform_", &t) || !arg_float(vm, av, "a", &lo) ||
        !arg_float(vm, bv, "b", &hi))
        return false;
    return init_done(vm, nn_init_uniform_(CTX(vm), t, lo, hi), tv, out);
}

static bool f_normal_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv, mv = lang_float(0.0), sv = lang_float(1.0);
    nn_tensor *t;
    double mean, std;
    if (!lang_parse_args(vm, a, "normal_", "tensor|mean,std", &tv, &mv, &sv) ||
        !init_tensor(vm, tv, "normal_", &t) || !arg_float(vm, mv, "mean", &mean) ||
        !arg_float(vm, sv, "std", &std))
        return false;
    return init_done(vm, nn_init_normal_(CTX(vm), t, mean, std), tv, out);
}

static bool f_constant_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv, vv;
    nn_tensor *t;
    double val;
    if (!lang_parse_args(vm, a, "constant_", "tensor,val", &tv, &vv) ||
        !init_tensor(vm, tv, "constant_", &t) || !arg_float(vm, vv, "val", &val))
        return false;
    return init_done(vm, nn_init_constant_(CTX(vm), t, val), tv, out);
}

static bool f_zeros_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "zeros_", "tensor", &tv) || !init_tensor(vm, tv, "zeros_", &t))
        return false;
    return init_done(vm, nn_init_zeros_(CTX(vm), t), tv, out);
}

static bool f_ones_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv;
    nn_tensor *t;
    if (!lang_parse_args(vm, a, "ones_", "tensor", &tv) || !init_tensor(vm, tv, "ones_", &t))
        return false;
    return init_done(vm, nn_init_ones_(CTX(vm), t), tv, out);
}

static bool xavier(lang_vm *vm, const lang_args *a, const char *fname, bool normal, lang_val *out) {
    lang_val tv, gv = lang_float(1.0);
    nn_tensor *t;
    double gain;
    if (!lang_parse_args(vm, a, fname, "tensor|gain", &tv, &gv) ||
        !init_tensor(vm, tv, fname, &t) || !arg_float(vm, gv, "gain", &gain))
        return false;
    nn_ctx *ctx = CTX(vm);
    return init_done(
        vm, normal ? nn_init_xavier_normal_(ctx, t, gain) : nn_init_xavier_uniform_(ctx, t, gain),
        tv, out);
}

static bool f_xavier_uniform_(lang_vm *vm, const lang_args *a, lang_val *out) {
    return xavier(vm, a, "xavier_uniform_", false, out);
}

static bool f_xavier_normal_(lang_vm *vm, const lang_args *a, lang_val *out) {
    return xavier(vm, a, "xavier_normal_", true, out);
}

static bool kaiming(lang_vm *vm, const lang_args *a, const char *fname, bool normal,
                    lang_val *out) {
    lang_val tv, av = lang_int(0), mv = lang_none(), nv = lang_none();
    nn_tensor *t;
    double slope;
    const char *mode = "fan_in", *nl = "leaky_relu";
    if (!lang_parse_args(vm, a, fname, "tensor|a,mode,nonlinearity", &tv, &av, &mv, &nv) ||
        !init_tensor(vm, tv, fname, &t) || !arg_float(vm, av, "a", &slope) ||
        (mv.kind != LANG_NONE && !arg_str(vm, mv, "mode", &mode)) ||
        (nv.kind != LANG_NONE && !arg_str(vm, nv, "nonlinearity", &nl)))
        return false;
    nn_init_mode m;
    if (!strcmp(mode, "fan_in"))
        m = NN_INIT_FAN_IN;
    else if (!strcmp(mode, "fan_out"))
        m = NN_INIT_FAN_OUT;
    else
        return lang_raise(vm, LANG_ERR_VALUE,
                          "Mode %s not supported, please use one of fan_in, "
                          "fan_out",
                          mode);
    nn_ctx *ctx = CTX(vm);
    return init_done(vm,
                     normal ? nn_init_kaiming_normal_(ctx, t, slope, m, nl)
                            : nn_init_kaiming_uniform_(ctx, t, slope, m, nl),
                     tv, out);
}

static bool f_kaiming_uniform_(lang_vm *vm, const lang_args *a, lang_val *out) {
    return kaiming(vm, a, "kaiming_uniform_", false, out);
}

static bool f_kaiming_normal_(lang_vm *vm, const lang_args *a, lang_val *out) {
    return kaiming(vm, a, "kaiming_normal_", true, out);
}

static bool f_trunc_normal_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv, mv = lang_float(0.0), sv = lang_float(1.0), av = lang_float(-2.0),
                 bv = lang_float(2.0);
    nn_tensor *t;
    double mean, std, lo, hi;
    if (!lang_parse_args(vm, a, "trunc_normal_", "tensor|mean,std,a,b", &tv, &mv, &sv, &av, &bv) ||
        !init_tensor(vm, tv, "trunc_normal_", &t) || !arg_float(vm, mv, "mean", &mean) ||
        !arg_float(vm, sv, "std", &std) || !arg_float(vm, av, "a", &lo) ||
        !arg_float(vm, bv, "b", &hi))
        return false;
    return init_done(vm, nn_init_trunc_normal_(CTX(vm), t, mean, std, lo, hi), tv, out);
}

static bool f_orthogonal_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val tv, gv = lang_float(1.0);
    nn_tensor *t;
    double gain;
    if (!lang_parse_args(vm, a, "orthogonal_", "tensor|gain", &tv, &gv) ||
        !init_tensor(vm, tv, "orthogonal_", &t) || !arg_float(vm, gv, "gain", &gain))
        return false;
    return init_done(vm, nn_init_orthogonal_(CTX(vm), t, gain), tv, out);
}

static bool f_calculate_gain(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val nv, pv = lang_none();
    const char *nl = "";
    double param = NAN, gain;
    if (!lang_parse_args(vm, a, "calculate_gain", "nonlinearity|param", &nv, &pv) ||
        !arg_str(vm, nv, "nonlinearity", &nl) ||
        (pv.kind != LANG_NONE && !arg_float(vm, pv, "param", &param)))
        return false;
    if (!engine(vm, nn_init_calculate_gain(CTX(vm), nl, param, &gain))) return false;
    /* PyTorch returns the int 1 for the linear family and sigmoid. */
    *out = gain == 1.0 && strcmp(nl, "leaky_relu") ? lang_int(1) : lang_float(gain);
    return true;
}

/* ------------------------------------------------------------------ optimizers */

typedef struct optim_obj {
    lang_obj hdr;
    nn_optim *o;
    /* torch's param_groups: a list of dicts, 'params' first, then the
     * group's own keys, then the defaults in torch 1.13's order. The values
     * stay as the user gave them (0 stays an int) for the repr; step() reads
     * the hyper-parameters back from them, so param_group['lr'] = x works
     * as in torch. */
    lang_val groups;
} optim_obj;

static void optim_free(lang_obj *o) {
    optim_obj *op = (optim_obj *)o;
    nn_optim_free(op->o);
    lang_val_release(op->groups);
}

static const lang_type optim_type;

static optim_obj *as_optim(lang_val v) {
    return lang_is_obj(v, &optim_type) ? (optim_obj *)v.u.o : NULL;
}

nn_optim *lang_optim_of(lang_val v) {
    optim_obj *op = as_optim(v);
    return op ? op->o : NULL;
}

static bool dict_get_str(lang_vm *vm, lang_val d, const char *k, lang_val *out, bool *found) {
    lang_val key;
    if (!lang_str_from_cstr(vm, k, &key)) return false;
    bool ok = lang_dict_get(vm, d, key, out, found);
    lang_val_release(key);
    return ok;
}

static bool dict_set_str(lang_vm *vm, lang_val d, const char *k, lang_val v) {
    lang_val key;
    if (!lang_str_from_cstr(vm, k, &key)) return false;
    bool ok = lang_dict_set(vm, d, key, v);
    lang_val_release(key);
    return ok;
}

static int cmp_cstr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* PyTorch's Optimizer.__repr__: each group's keys but 'params', sorted. */
static bool optim_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    optim_obj *op = (optim_obj *)o;
    lang_buf_printf(out, "%s (", nn_optim_kind_name(nn_optim_get_kind(op->o)));
    bool ok = true;
    for (int64_t g = 0; ok && g < lang_seq_len(op->groups); g++) {
        lang_dict_obj *dobj = (lang_dict_obj *)lang_seq_items(op->groups)[g].u.o;
        const char *keys[32];
        lang_val vals[32];
        int n = 0;
        for (int64_t i = 0; i < dobj->nent && n < 32; i++) {
            if (!dobj->entries[i].live || !lang_is_obj(dobj->entries[i].key, &lang_str_type))
                continue;
            const char *k = lang_str_cstr(dobj->entries[i].key);
            if (!strcmp(k, "params")) continue;
            keys[n++] = k;
        }
        qsort(keys, (size_t)n, sizeof keys[0], cmp_cstr);
        for (int i = 0; i < n; i++)
            for (int64_t j = 0; j < dobj->nent; j++)
                if (dobj->entries[j].live && lang_is_obj(dobj->entries[j].key, &lang_str_type) &&
                    !strcmp(lang_str_cstr(dobj->entries[j].key), keys[i]))
                    vals[i] = dobj->entries[j].value;
        lang_buf_printf(out, "\nParameter Group %lld\n", (long long)g);
        for (int i = 0; ok && i < n; i++) {
            lang_buf_printf(out, "    %s: ", keys[i]);
            ok = lang_repr(vm, vals[i], out);
            lang_buf_puts(out, "\n");
        }
    }
    lang_buf_puts(out, ")");
    return ok;
}

/* The engine's hyper-parameters of a group, read from its dict. */
static bool group_config(lang_vm *vm, lang_val d, nn_optim_kind kind, nn_optim_config *c) {
    *c = nn_optim_defaults(kind);
    static const char *const sgd_keys[] = {"lr",           "momentum", "dampening",
                                           "weight_decay", "nesterov", NULL};
    static const char *const adam_keys[] = {"lr", "betas", "eps", "weight_decay", "amsgrad", NULL};
    for (const char *const *k = kind == NN_OPTIM_SGD ? sgd_keys : adam_keys; *k; k++) {
        lang_val v;
        bool found, ok;
        if (!dict_get_str(vm, d, *k, &v, &found)) return false;
        if (!found) continue;
        if (!strcmp(*k, "lr"))
            ok = lang_to_float(vm, v, "lr", &c->lr);
        else if (!strcmp(*k, "momentum"))
            ok = lang_to_float(vm, v, "momentum", &c->momentum);
        else if (!strcmp(*k, "dampening"))
            ok = lang_to_float(vm, v, "dampening", &c->dampening);
        else if (!strcmp(*k, "weight_decay"))
            ok = lang_to_float(vm, v, "weight_decay", &c->weight_decay);
        else if (!strcmp(*k, "nesterov"))
            ok = lang_to_bool(vm, v, "nesterov", &c->nesterov);
        else if (!strcmp(*k, "eps"))
            ok = lang_to_float(vm, v, "eps", &c->eps);
        else if (!strcmp(*k, "amsgrad"))
            ok = lang_to_bool(vm, v, "amsgrad", &c->amsgrad);
        else { /* betas */
            ok = (lang_is_obj(v, &lang_tuple_type) || lang_is_obj(v, &lang_list_type)) &&
                 lang_seq_len(v) == 2;
            if (!ok)
                lang_raise(vm, LANG_ERR_TYPE, "%s betas must be a pair (beta1, beta2)",
                           nn_optim_kind_name(kind));
            else
                ok = lang_to_float(vm, lang_seq_items(v)[0], "betas[0]", &c->beta1) &&
                     lang_to_float(vm, lang_seq_items(v)[1], "betas[1]", &c->beta2);
        }
        lang_val_release(v);
        if (!ok) return false;
    }
    return true;
}

/* Bring the engine's groups up to date with the dicts (param_group['lr']
 * = ... between steps, as schedulers do). */
static bool sync_groups(lang_vm *vm, optim_obj *op) {
    nn_optim_kind kind = nn_optim_get_kind(op->o);
    for (int g = 0; g < nn_optim_num_groups(op->o); g++) {
        nn_optim_config c;
        if (!group_config(vm, lang_seq_items(op->groups)[g], kind, &c)) return false;
        if (memcmp(&c, nn_optim_group_config(op->o, g), sizeof c) != 0 &&
            !engine(vm, nn_optim_set_group_config(CTX(vm), op->o, g, &c)))
            return false;
    }
    return true;
}

static bool set_lr(lang_vm *vm, optim_obj *op, lang_val v) {
    double lr;
    if (!lang_to_float(vm, v, "lr", &lr)) return false;
    if (!engine(vm, nn_optim_set_lr(CTX(vm), op->o, lr))) return false;
    lang_val keep = v.kind == LANG_OBJ ? lang_float(lr) : v;
    for (int64_t g = 0; g < lang_seq_len(op->groups); g++)
        if (!dict_set_str(vm, lang_seq_items(op->groups)[g], "lr", keep)) return false;
    return true;
}

static bool optim_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    optim_obj *op = (optim_obj *)o;
    *found = true;
    if (!strcmp(name, "lr")) {
        bool has;
        if (!dict_get_str(vm, lang_seq_items(op->groups)[0], "lr", out, &has)) return false;
        if (!has) *out = lang_float(nn_optim_get_lr(op->o));
        return true;
    }
    if (!strcmp(name, "param_groups")) {
        *out = lang_val_retain(op->groups);
        return true;
    }
    if (!strcmp(name, "step_count")) {
        *out = lang_int(nn_optim_step_count(op->o));
        return true;
    }
    *found = false;
    return true;
}

static bool optim_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    if (!strcmp(name, "lr")) return set_lr(vm, (optim_obj *)o, v);
    return lang_raise(vm, LANG_ERR_ATTRIBUTE,
                      "cannot set '%s' of an optimizer: change opt.lr, or an entry of "
                      "opt.param_groups[i]",
                      name);
}

static const char *const optim_field_names[] = {"lr", "param_groups", "step_count", NULL};
static const char *const *optim_fields(lang_obj *o) {
    (void)o;
    return optim_field_names;
}

#define OP(v) ((optim_obj *)(v).u.o)

static bool m_step(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val closure = lang_none();
    if (!lang_parse_args(vm, a, "step", "|closure", &closure)) return false;
    lang_val loss = lang_none();
    if (closure.kind != LANG_NONE) {
        lang_args none = {0, NULL, 0, NULL, NULL};
        if (!lang_vm_call(vm, closure, &none, &loss)) return false;
    }
    if (!sync_groups(vm, OP(self))) {
        lang_val_release(loss);
        return false;
    }
    if (!engine(vm, nn_optim_step(CTX(vm), OP(self)->o)) ||
        !lang_debug_after_step(vm, OP(self)->o)) {
        lang_val_release(loss);
        return false;
    }
    *out = loss;
    return true;
}

static bool m_optim_zero_grad(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val stn = lang_bool(true);
    bool b;
    if (!lang_parse_args(vm, a, "zero_grad", "|set_to_none", &stn) ||
        !lang_to_bool(vm, stn, "set_to_none", &b))
        return false;
    nn_optim_zero_grad(OP(self)->o, b);
    *out = lang_none();
    return true;
}

static bool m_state(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val iv, nv;
    int64_t i;
    const char *name = "";
    if (!lang_parse_args(vm, a, "state", "index,name", &iv, &nv) || !arg_int(vm, iv, "index", &i) ||
        !arg_str(vm, nv, "name", &name))
        return false;
    nn_optim *o = OP(self)->o;
    int n = nn_optim_num_params(o);
    if (i < -n || i >= n)
        return lang_raise(vm, LANG_ERR_INDEX,
                          "parameter index %lld is out of range (%d parameters)", (long long)i, n);
    if (i < 0) i += n;
    nn_ctx *ctx = CTX(vm);
    nn_ctx_clear_error(ctx);
    nn_tensor *t = nn_optim_state(ctx, o, (int)i, name);
    if (!t) {
        if (nn_ctx_status(ctx) != NN_OK) return lang_raise_engine(vm);
        *out = lang_none(); /* not updated yet: PyTorch's state is empty then */
        return true;
    }
    return lang_tensor_new(vm, t, out);
}

static bool m_state_names(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "state_names", "")) return false;
    if (!lang_list_new(vm, 0, out)) return false;
    for (const char *const *s = nn_optim_state_names(OP(self)->o); s && *s; s++) {
        lang_val v;
        if (!lang_str_from_cstr(vm, *s, &v)) goto fail;
        bool ok = lang_list_append(vm, *out, v);
        lang_val_release(v);
        if (!ok) goto fail;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static const lang_method optim_methods[] = {
    {"step",
     m_step,
     {"Optimizer.step", "step(closure=None)",
      "Update every parameter that has a gradient, by the optimizer's rule (torch.optim's, to "
      "float32 round-off). Parameters without .grad are skipped. With a closure, it is called "
      "first and its value returned.",
      "loss.backward(); opt.step()"}},
    {"zero_grad",
     m_optim_zero_grad,
     {"Optimizer.zero_grad", "zero_grad(set_to_none=True)",
      "Drop the gradient of every parameter (or zero it in place with set_to_none=False).",
      "opt.zero_grad()"}},
    {"state",
     m_state,
     {"Optimizer.state", "state(index, name)",
      "The optimizer's state of parameter [index] (as in parameters()): 'exp_avg', 'exp_avg_sq', "
      "'max_exp_avg_sq' (Adam/AdamW), 'momentum_buffer' (SGD with momentum) or 'step'. A tensor "
      "that shares the optimizer's memory, or None before the parameter's first update.",
      "opt.state(0, 'exp_avg_sq').sqrt().mean()"}},
    {"state_names",
     m_state_names,
     {"Optimizer.state_names", "state_names()", "The names state() accepts for this optimizer.",
      "opt.state_names()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help optim_help = {
    "Optimizer", "SGD(params, lr) | Adam(params, lr) | AdamW(params, lr)",
    "An optimizer over a list of parameters. opt.step() updates them from their .grad, "
    "opt.zero_grad() clears the gradients, opt.lr (or opt.param_groups[0]['lr']) reads and sets "
    "the learning rate.",
    "opt = Adam(model.parameters(), lr=3e-3)"};

static const lang_type optim_type = {
    .name = "Optimizer",
    .free = optim_free,
    .repr = optim_repr,
    .getattr = optim_getattr,
    .setattr = optim_setattr,
    .fields = optim_fields,
    .methods = optim_methods,
    .help = &optim_help,
};

/* ------------------------------------------------------------------ help by type name */

/* Every module kind shares one methods table, so help("Module.parameters")
 * and help("Linear.parameters") name the same entry; every optimizer is one
 * type, named by its constructors too ("Adam.step"). These alias types exist
 * only for that lookup: no value ever has them. */
static const lang_help module_base_help = {
    "Module", "Module",
    "A torch.nn module: Linear, Embedding, LayerNorm, Sequential, GPT, ... They share the "
    "methods parameters(), named_parameters(), children(), train(), eval(), zero_grad(), "
    "state_dict(), load_state_dict() and forward(); calling a module runs its forward.",
    "model = Sequential(Linear(2, 16), ReLU(), Linear(16, 2)); model.parameters()"};

#define HELP_ALIAS(NAME, METHODS, HELP)                                                            \
    { .name = NAME, .methods = METHODS, .help = HELP }

static const lang_type module_alias_type = HELP_ALIAS("Module", module_methods, &module_base_help);
static const lang_type optim_alias_types[] = {
    HELP_ALIAS("SGD", optim_methods, &optim_help),
    HELP_ALIAS("Adam", optim_methods, &optim_help),
    HELP_ALIAS("AdamW", optim_methods, &optim_help),
};

/* Declared where lang_vm_help consults it (lang_eval.c): the types whose
 * "<Type>.<method>" names help resolves, NULL-terminated. */
extern const lang_type *const lang_nn_help_types[];
const lang_type *const lang_nn_help_types[] = {
    &module_alias_type,
    &module_types[NN_MODULE_LINEAR],
    &module_types[NN_MODULE_EMBEDDING],
    &module_types[NN_MODULE_LAYER_NORM],
    &module_types[NN_MODULE_DROPOUT],
    &module_types[NN_MODULE_RELU],
    &module_types[NN_MODULE_LEAKY_RELU],
    &module_types[NN_MODULE_TANH],
    &module_types[NN_MODULE_SIGMOID],
    &module_types[NN_MODULE_GELU],
    &module_types[NN_MODULE_SILU],
    &module_types[NN_MODULE_SOFTMAX],
    &module_types[NN_MODULE_FLATTEN],
    &module_types[NN_MODULE_SEQUENTIAL],
    &module_types[NN_MODULE_MODULE_LIST],
    &module_types[NN_MODULE_ATTENTION],
    &module_types[NN_MODULE_BLOCK],
    &module_types[NN_MODULE_GPT],
    &module_types[NN_MODULE_BATCH_NORM1D],
    &module_types[NN_MODULE_GROUP_NORM],
    &optim_type,
    &optim_alias_types[0],
    &optim_alias_types[1],
    &optim_alias_types[2],
    NULL,
};

/* The parameter list of an optimizer or clip_grad_norm_: any iterable of
 * tensors, or one tensor when [one_ok]. *list gets a new list of them and
 * *ts a malloc'ed array of borrowed pointers. */
static bool param_list(lang_vm *vm, lang_val v, const char *fname, bool one_ok, lang_val *list,
                       nn_tensor ***ts, int *n) {
    if (lang_tensor_of(v)) {
        if (!one_ok)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "params argument given to the optimizer should be an iterable of "
                              "Tensors, but got a Tensor: pass model.parameters() or [t]");
        if (!lang_list_new(vm, 0, list)) return false;
        if (!lang_list_append(vm, *list, v)) {
            lang_val_release(*list);
            return false;
        }
    } else if (lang_module_of(v)) {
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s() expects the parameters, not the module: pass model.parameters()",
                          fname);
    } else if (!lang_list_from_iter(vm, v, list)) {
        return false;
    }
    int64_t k = lang_seq_len(*list);
    lang_val *items = lang_seq_items(*list);
    *ts = malloc(sizeof **ts * (size_t)(k ? k : 1));
    if (!*ts) {
        lang_val_release(*list);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int64_t i = 0; i < k; i++) {
        (*ts)[i] = lang_tensor_of(items[i]);
        if (!(*ts)[i]) {
            /* Raise while the list still holds the item we name. */
            lang_raise(vm, LANG_ERR_TYPE, "%s() expects tensors; item %lld is %s", fname,
                       (long long)i, lang_type_name(items[i]));
            free(*ts);
            lang_val_release(*list);
            return false;
        }
    }
    *n = (int)k;
    return true;
}

/* A group's dict: 'params' (a list), the group's other keys as given,
 * then the defaults it lacks, in order (torch's setdefault). */
static bool group_new(lang_vm *vm, lang_val user, lang_val params, const char *const *dk,
                      const lang_val *dv, int nd, lang_val *out) {
    if (!lang_dict_new(vm, out)) return false;
    bool ok = dict_set_str(vm, *out, "params", params);
    if (ok && user.kind != LANG_NONE) {
        lang_dict_obj *u = (lang_dict_obj *)user.u.o;
        for (int64_t i = 0; ok && i < u->nent; i++) {
            if (!u->entries[i].live) continue;
            if (lang_is_obj(u->entries[i].key, &lang_str_type) &&
                !strcmp(lang_str_cstr(u->entries[i].key), "params"))
                continue;
            ok = lang_dict_set(vm, *out, u->entries[i].key, u->entries[i].value);
        }
    }
    for (int i = 0; ok && i < nd; i++) {
        lang_val v;
        bool found;
        ok = dict_get_str(vm, *out, dk[i], &v, &found);
        if (ok && found) lang_val_release(v);
        if (ok && !found) ok = dict_set_str(vm, *out, dk[i], dv[i]);
    }
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool make_optim(lang_vm *vm, const lang_args *a, nn_optim_kind kind, lang_val *out) {
    const char *fname = nn_optim_kind_name(kind);
    nn_optim_config c = nn_optim_defaults(kind);
    lang_val params, lr = lang_float(c.lr), momentum = lang_int(0), dampening = lang_int(0),
                     wd = kind == NN_OPTIM_ADAMW ? lang_float(1e-2) : lang_int(0),
                     nesterov = lang_bool(false), betas = lang_none(), eps = lang_float(1e-8),
                     amsgrad = lang_bool(false);
    bool ok;
    if (kind == NN_OPTIM_SGD)
        ok = lang_parse_args(vm, a, fname, "params|lr,momentum,dampening,weight_decay,nesterov",
                             &params, &lr, &momentum, &dampening, &wd, &nesterov);
    else
        ok = lang_parse_args(vm, a, fname, "params|lr,betas,eps,weight_decay,amsgrad", &params, &lr,
                             &betas, &eps, &wd, &amsgrad);
    if (!ok) return false;
    lang_val betas_v = lang_none();
    if (kind != NN_OPTIM_SGD) {
        lang_val b[2] = {lang_float(c.beta1), lang_float(c.beta2)};
        if (betas.kind != LANG_NONE)
            betas_v = lang_val_retain(betas);
        else if (!lang_tuple_pack(vm, 2, b, &betas_v))
            return false;
    }
    /* torch 1.13's defaults, in its order */
    const char *dk[12];
    lang_val dv[12];
    int nd = 0;
#define D(K, V) (dk[nd] = (K), dv[nd] = (V), nd++)
    D("lr", lr);
    if (kind == NN_OPTIM_SGD) {
        D("momentum", momentum);
        D("dampening", dampening);
        D("weight_decay", wd);
        D("nesterov", nesterov);
        D("maximize", lang_bool(false));
        D("foreach", lang_none());
        D("differentiable", lang_bool(false));
    } else {
        D("betas", betas_v);
        D("eps", eps);
        D("weight_decay", wd);
        D("amsgrad", amsgrad);
        if (kind == NN_OPTIM_ADAM) {
            D("maximize", lang_bool(false));
            D("foreach", lang_none());
            D("capturable", lang_bool(false));
            D("differentiable", lang_bool(false));
            D("fused", lang_bool(false));
        } else {
            D("foreach", lang_none());
            D("maximize", lang_bool(false));
            D("capturable", lang_bool(false));
        }
    }
#undef D
    lang_val items = lang_none(), groups = lang_none();
    nn_tensor **all = NULL;
    int *group_of = NULL;
    nn_optim_config *cfgs = NULL;
    int n_all = 0;
    nn_optim *o = NULL;
    ok = lang_list_new(vm, 0, &groups);
    if (ok && lang_tensor_of(params))
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "params argument given to the optimizer should be an iterable of "
                        "Tensors or dicts, but got a Tensor: pass model.parameters() or [t]");
    else if (ok && lang_module_of(params))
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "%s() expects the parameters, not the module: pass model.parameters()",
                        fname);
    else if (ok)
        ok = lang_list_from_iter(vm, params, &items);
    bool dicts =
        ok && lang_seq_len(items) > 0 && lang_is_obj(lang_seq_items(items)[0], &lang_dict_type);
    int64_t ng = dicts ? lang_seq_len(items) : 1;
    for (int64_t g = 0; ok && g < ng; g++) {
        lang_val user = dicts ? lang_seq_items(items)[g] : lang_none(), pv = items, list, gd;
        if (dicts) {
            bool found;
            if (!lang_is_obj(user, &lang_dict_type)) {
                ok = lang_raise(vm, LANG_ERR_TYPE,
                                "%s(): parameter group %lld is %s; give every group as a dict",
                                fname, (long long)g, lang_type_name(user));
                break;
            }
            if (!(ok = dict_get_str(vm, user, "params", &pv, &found))) break;
            if (!found) {
                ok = lang_raise(vm, LANG_ERR_KEY, "'params'");
                break;
            }
        }
        nn_tensor **ts;
        int n;
        ok = param_list(vm, pv, fname, dicts, &list, &ts, &n);
        if (dicts) lang_val_release(pv);
        if (!ok) break;
        nn_tensor **more = realloc(all, sizeof *all * (size_t)(n_all + n + 1));
        int *gmore = more ? realloc(group_of, sizeof *group_of * (size_t)(n_all + n + 1)) : NULL;
        if (more) all = more;
        if (gmore) group_of = gmore;
        if (!more || !gmore) {
            free(ts);
            lang_val_release(list);
            ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            break;
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n_all && ok; j++)
                if (all[j] == ts[i] && group_of[j] != (int)g)
                    ok = lang_raise(vm, LANG_ERR_VALUE,
                                    "some parameters appear in more than one parameter group");
            all[n_all] = ts[i];
            group_of[n_all++] = (int)g;
        }
        free(ts);
        if (ok) ok = group_new(vm, user, list, dk, dv, nd, &gd);
        lang_val_release(list);
        if (ok) {
            ok = lang_list_append(vm, groups, gd);
            lang_val_release(gd);
        }
    }
    if (ok && n_all == 0)
        ok = lang_raise(vm, LANG_ERR_VALUE, "optimizer got an empty parameter list");
    if (ok) {
        cfgs = malloc(sizeof *cfgs * (size_t)ng);
        if (!cfgs) ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int64_t g = 0; ok && g < ng; g++)
        ok = group_config(vm, lang_seq_items(groups)[g], kind, &cfgs[g]);
    if (ok) {
        o = nn_optim_new_groups(CTX(vm), all, n_all, group_of, cfgs, (int)ng);
        if (!o) ok = lang_raise_engine(vm);
    }
    optim_obj *op = ok ? lang_obj_new(vm, &optim_type, sizeof *op) : NULL;
    if (op) {
        op->o = o;
        op->groups = groups;
        *out = lang_obj_val(&op->hdr);
    } else {
        nn_optim_free(o);
        lang_val_release(groups);
        ok = false;
    }
    free(all);
    free(group_of);
    free(cfgs);
    lang_val_release(items);
    lang_val_release(betas_v);
    return ok;
}

static bool f_sgd(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_optim(vm, a, NN_OPTIM_SGD, out);
}

static bool f_adam(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_optim(vm, a, NN_OPTIM_ADAM, out);
}

static bool f_adamw(lang_vm *vm, const lang_args *a, lang_val *out) {
    return make_optim(vm, a, NN_OPTIM_ADAMW, out);
}

static bool f_clip_grad_norm_(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pv, mv, tv = lang_float(2.0), ev = lang_bool(true);
    double max_norm, norm_type;
    if (!lang_parse_args(vm, a, "clip_grad_norm_",
                         "parameters,max_norm|norm_type,error_if_nonfinite", &pv, &mv, &tv, &ev) ||
        !arg_float(vm, mv, "max_norm", &max_norm) || !arg_float(vm, tv, "norm_type", &norm_type))
        return false;
    lang_val list;
    nn_tensor **ts;
    int n;
    if (!param_list(vm, pv, "clip_grad_norm_", true, &list, &ts, &n)) return false;
    double total = 0;
    nn_status st = nn_clip_grad_norm(CTX(vm), ts, n, max_norm, norm_type, &total);
    free(ts);
    lang_val_release(list);
    if (st != NN_OK) return lang_raise_engine(vm);
    /* torch returns the total norm as a 0-dim float32 tensor. */
    nn_tensor *t = nn_scalar(CTX(vm), total, NN_FLOAT32);
    if (!t) return lang_raise_engine(vm);
    return lang_tensor_new(vm, t, out);
}

/* ------------------------------------------------------------------ tables */

#define H_XAVIER_UNIFORM                                                                           \
    {                                                                                              \
        "xavier_uniform_", "xavier_uniform_(tensor, gain=1.0)",                                    \
            "Fill [tensor] in place from U(-a, a), a = gain * sqrt(6 / (fan_in + fan_out)) "       \
            "(Glorot); "                                                                           \
            "returns the tensor. Also init.xavier_uniform_.",                                      \
            "xavier_uniform_(model[0].weight, gain=calculate_gain('tanh'))"                        \
    }
#define H_XAVIER_NORMAL                                                                            \
    {                                                                                              \
        "xavier_normal_", "xavier_normal_(tensor, gain=1.0)",                                      \
            "Fill [tensor] in place from N(0, std^2), std = gain * sqrt(2 / (fan_in + fan_out)); " \
            "returns the tensor. Also init.xavier_normal_.",                                       \
            "xavier_normal_(layer.weight)"                                                         \
    }
#define H_KAIMING_UNIFORM                                                                          \
    {                                                                                              \
        "kaiming_uniform_",                                                                        \
            "kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",             \
            "Fill [tensor] in place from U(-b, b), b = sqrt(3) * calculate_gain(nonlinearity, a) " \
            "/ "                                                                                   \
            "sqrt(fan) (He); fan is fan_in or fan_out by mode. Returns the tensor.",               \
            "kaiming_uniform_(layer.weight, nonlinearity='relu')"                                  \
    }
#define H_KAIMING_NORMAL                                                                           \
    {                                                                                              \
        "kaiming_normal_",                                                                         \
            "kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",              \
            "Fill [tensor] in place from N(0, std^2), std = calculate_gain(nonlinearity, a) / "    \
            "sqrt(fan) (He); fan is fan_in or fan_out by mode. Returns the tensor.",               \
            "init.kaiming_normal_(layer.weight, mode='fan_out', nonlinearity='relu')"              \
    }
#define H_TRUNC_NORMAL                                                                             \
    {                                                                                              \
        "trunc_normal_", "trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0)",                \
            "Fill [tensor] in place from N(mean, std^2) restricted to [a, b]; returns the "        \
            "tensor.",                                                                             \
            "trunc_normal_(emb.weight, std=0.02)"                                                  \
    }
#define H_ORTHOGONAL                                                                               \
    {                                                                                              \
        "orthogonal_", "orthogonal_(tensor, gain=1)",                                              \
            "Fill [tensor] (2 or more dims, viewed as [rows, cols]) with a (semi-)orthogonal "     \
            "matrix "                                                                              \
            "times gain; returns the tensor.",                                                     \
            "w = orthogonal_(empty(4, 4)); w @ w.T"                                                \
    }
#define H_CALCULATE_GAIN                                                                           \
    {                                                                                              \
        "calculate_gain", "calculate_gain(nonlinearity, param=None)",                              \
            "The recommended gain for a nonlinearity: 1 for linear/conv/sigmoid, 5/3 for tanh, "   \
            "sqrt(2) "                                                                             \
            "for relu, sqrt(2 / (1 + slope^2)) for leaky_relu (param: the slope, 0.01 by "         \
            "default), 3/4 "                                                                       \
            "for selu.",                                                                           \
            "calculate_gain('tanh')"                                                               \
    }
#define H_UNIFORM                                                                                  \
    {                                                                                              \
        "init.uniform_", "init.uniform_(tensor, a=0.0, b=1.0)",                                    \
            "Fill [tensor] in place from U(a, b); returns the tensor.",                            \
            "init.uniform_(w, -0.1, 0.1)"                                                          \
    }
#define H_NORMAL                                                                                   \
    {                                                                                              \
        "init.normal_", "init.normal_(tensor, mean=0.0, std=1.0)",                                 \
            "Fill [tensor] in place from N(mean, std^2); returns the tensor.",                     \
            "init.normal_(w, std=0.02)"                                                            \
    }
#define H_CONSTANT                                                                                 \
    {                                                                                              \
        "init.constant_", "init.constant_(tensor, val)", "Fill [tensor] with [val]; returns it.",  \
            "init.constant_(layer.bias, 0.1)"                                                      \
    }
#define H_ZEROS                                                                                    \
    {                                                                                              \
        "init.zeros_", "init.zeros_(tensor)", "Fill [tensor] with zeros; returns it.",             \
            "init.zeros_(layer.bias)"                                                              \
    }
#define H_ONES                                                                                     \
    {                                                                                              \
        "init.ones_", "init.ones_(tensor)", "Fill [tensor] with ones; returns it.",                \
            "init.ones_(ln.weight)"                                                                \
    }

const lang_builtin_def lang_nn_builtins[] = {
    {"Linear", f_linear, H_LINEAR},
    {"Embedding", f_embedding, H_EMBEDDING},
    {"LayerNorm", f_layer_norm, H_LAYER_NORM},
    {"Dropout", f_dropout, H_DROPOUT},
    {"BatchNorm1d", f_batch_norm1d, H_BATCH_NORM1D},
    {"GroupNorm", f_group_norm, H_GROUP_NORM},
    {"ReLU", f_relu, H_RELU},
    {"LeakyReLU", f_leaky_relu, H_LEAKY_RELU},
    {"Tanh", f_tanh, H_TANH},
    {"Sigmoid", f_sigmoid, H_SIGMOID},
    {"GELU", f_gelu, H_GELU},
    {"SiLU", f_silu, H_SILU},
    {"Softmax", f_softmax, H_SOFTMAX},
    {"Flatten", f_flatten, H_FLATTEN},
    {"Sequential", f_sequential, H_SEQUENTIAL},
    {"ModuleList", f_module_list, H_MODULE_LIST},
    {"MLP", f_mlp, H_MLP},
    {"CausalSelfAttention", f_attention, H_ATTENTION},
    {"Block", f_block, H_BLOCK},
    {"GPT", f_gpt, H_GPT},
    {"num_params",
     f_num_params,
     {"num_params", "num_params(module)",
      "The number of parameter elements of a module (shared tensors counted once); the same as "
      "module.num_params.",
      "num_params(MLP([2, 64, 3]))"}},
    {"xavier_uniform_", f_xavier_uniform_, H_XAVIER_UNIFORM},
    {"xavier_normal_", f_xavier_normal_, H_XAVIER_NORMAL},
    {"kaiming_uniform_", f_kaiming_uniform_, H_KAIMING_UNIFORM},
    {"kaiming_normal_", f_kaiming_normal_, H_KAIMING_NORMAL},
    {"trunc_normal_", f_trunc_normal_, H_TRUNC_NORMAL},
    {"orthogonal_", f_orthogonal_, H_ORTHOGONAL},
    {"calculate_gain", f_calculate_gain, H_CALCULATE_GAIN},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_builtin_def lang_optim_builtins[] = {
    {"SGD",
     f_sgd,
     {"SGD", "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False)",
      "Stochastic gradient descent as torch.optim.SGD: with momentum, buf = momentum * buf + (1 - "
      "dampening) * grad and p -= lr * buf (or lr * (grad + momentum * buf) with nesterov); "
      "weight_decay adds weight_decay * p to the gradient.",
      "opt = SGD(model.parameters(), lr=0.1, momentum=0.9)"}},
    {"Adam",
     f_adam,
     {"Adam",
      "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, "
      "amsgrad=False)",
      "Adam as torch.optim.Adam: bias-corrected running means of the gradient (exp_avg) and its "
      "square (exp_avg_sq); weight_decay is L2 added to the gradient.",
      "opt = Adam(model.parameters(), lr=3e-3)"}},
    {"AdamW",
     f_adamw,
     {"AdamW",
      "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, "
      "amsgrad=False)",
      "Adam with decoupled weight decay (torch.optim.AdamW): p -= lr * weight_decay * p before "
      "the Adam update.",
      "opt = AdamW(model.parameters(), lr=1e-3, weight_decay=0.1)"}},
    {"clip_grad_norm_",
     f_clip_grad_norm_,
     {"clip_grad_norm_", "clip_grad_norm_(parameters, max_norm, norm_type=2.0)",
      "torch.nn.utils.clip_grad_norm_: the norm of all gradients taken together, returned as a "
      "0-dim tensor; when it exceeds max_norm every gradient is scaled by max_norm / (norm + "
      "1e-6). A NaN or infinite norm is a ValueError naming the first parameter whose gradient "
      "is not finite, and nothing is scaled.",
      "norm = clip_grad_norm_(model.parameters(), 1.0); norm.item()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* The members of the `init` namespace (torch.nn.init). */
static const lang_builtin_def init_defs[] = {
    {"uniform_", f_uniform_, H_UNIFORM},
    {"normal_", f_normal_, H_NORMAL},
    {"constant_", f_constant_, H_CONSTANT},
    {"zeros_", f_zeros_, H_ZEROS},
    {"ones_", f_ones_, H_ONES},
    {"xavier_uniform_", f_xavier_uniform_, H_XAVIER_UNIFORM},
    {"xavier_normal_", f_xavier_normal_, H_XAVIER_NORMAL},
    {"kaiming_uniform_", f_kaiming_uniform_, H_KAIMING_UNIFORM},
    {"kaiming_normal_", f_kaiming_normal_, H_KAIMING_NORMAL},
    {"trunc_normal_", f_trunc_normal_, H_TRUNC_NORMAL},
    {"orthogonal_", f_orthogonal_, H_ORTHOGONAL},
    {"calculate_gain", f_calculate_gain, H_CALCULATE_GAIN},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

bool lang_nn_install(lang_vm *vm) {
    lang_val ns;
    if (!lang_record_new(vm, "init", &ns)) return false;
    bool ok = true;
    for (const lang_builtin_def *d = init_defs; ok && d->name; d++) {
        lang_val f;
        ok = lang_builtin_new(vm, d->fn, &d->help, &f);
        if (ok) ok = lang_record_set(vm, ns, d->name, f);
        if (ok) lang_val_release(f);
    }
    if (ok) ok = lang_vm_set_builtin(vm, "init", ns);
    lang_val_release(ns);
    return ok;
}
