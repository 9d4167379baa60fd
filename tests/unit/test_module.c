/* nn_module: structure, labels, parameters, train/eval, zero_grad, repr,
 * state_dict/load_state_dict errors and default initialisation. Numerics
 * against PyTorch are in test_torch_module.c. */
#include <stdlib.h>
#include <string.h>

#include "nn_module.h"
#include "testutil.h"

static nn_gpt_config small_gpt(bool tied) {
    nn_gpt_config c = {.vocab_size = 32,
                       .block_size = 8,
                       .n_layer = 2,
                       .n_head = 2,
                       .n_embd = 16,
                       .dropout = 0.0,
                       .bias = true,
                       .tied = tied};
    return c;
}

/* Whether two tensors hold exactly the same values (no message). */
static bool same_values(const nn_tensor *a, const nn_tensor *b) {
    if (!nn_tensor_same_shape(a, b)) return false;
    for (int64_t i = 0; i < nn_tensor_numel(a); i++)
        if (nn_tensor_get_flat(a, i) != nn_tensor_get_flat(b, i)) return false;
    return true;
}

/* Every node reachable from [root]'s grad_fn, breadth first. */
static int graph_nodes(nn_tensor *root, nn_node **out, int cap) {
    int n = 0;
    if (root->grad_fn) out[n++] = root->grad_fn;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < out[i]->n_in; k++) {
            nn_node *fn = out[i]->in[k].fn;
            bool seen = !fn;
            for (int j = 0; j < n && !seen; j++) seen = out[j] == fn;
            if (!seen && n < cap) out[n++] = fn;
        }
    return n;
}

static bool has_node(nn_node **nodes, int n, const char *label, nn_op op) {
    for (int i = 0; i < n; i++)
        if (nodes[i]->op == op && nodes[i]->label.module && !strcmp(nodes[i]->label.module, label))
            return true;
    return false;
}

NN_TEST(module_labels_carry_paths) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_gpt_config c = small_gpt(true);
    nn_module *m = nn_module_gpt(ctx, &c);
    nn_tensor *idx = nn_randint(ctx, 0, 32, 2, TU_SHAPE(2, 8));
    nn_tensor *tgt = nn_randint(ctx, 0, 32, 2, TU_SHAPE(2, 8));
    nn_ctx_set_label(ctx, "outer", "train.nn", 7);
    nn_tensor *logits = NULL;
    nn_tensor *loss = nn_module_gpt_loss(ctx, m, idx, tgt, "model", &logits);
    CHECK(loss && logits);
    /* The caller's label comes back after the module returns. */
    CHECK(ctx->label.module && !strcmp(ctx->label.module, "outer"));
    CHECK(ctx->label.line == 7);
    nn_node *nodes[512];
    int n = graph_nodes(loss, nodes, 512);
    CHECK(n > 50);
    CHECK(!strcmp(loss->grad_fn->label.module, "model"));
    CHECK(loss->grad_fn->op == NN_OP_CROSS_ENTROPY);
    CHECK(has_node(nodes, n, "model.tok_emb", NN_OP_EMBEDDING));
    CHECK(has_node(nodes, n, "model.pos_emb", NN_OP_EMBEDDING));
    CHECK(has_node(nodes, n, "model.blocks.1.attn", NN_OP_SDPA));
    CHECK(has_node(nodes, n, "model.blocks.0.attn", NN_OP_SDPA));
    CHECK(has_node(nodes, n, "model.blocks.1.attn.qkv", NN_OP_LINEAR));
    CHECK(has_node(nodes, n, "model.blocks.0.mlp.0", NN_OP_LINEAR));
    CHECK(has_node(nodes, n, "model.blocks.0.mlp.1", NN_OP_GELU));
    CHECK(has_node(nodes, n, "model.blocks.1.ln2", NN_OP_LAYER_NORM));
    CHECK(has_node(nodes, n, "model.blocks.1", NN_OP_ADD)); /* the residual adds */
    CHECK(has_node(nodes, n, "model.ln_f", NN_OP_LAYER_NORM));
    CHECK(has_node(nodes, n, "model.head", NN_OP_LINEAR));
    for (int i = 0; i < n; i++) {
        const char *l = nodes[i]->label.module;
        CHECK_MSG(l && !strncmp(l, "model", 5), "node %s has label %s", nn_op_name(nodes[i]->op),
                  l ? l : "(none)");
        CHECK(nodes[i]->label.file && !strcmp(nodes[i]->label.file, "train.nn"));
        CHECK(nodes[i]->label.line == 7);
    }
    /* On an error inside a module the caller's label comes back too. */
    nn_tensor *too_long = nn_randint(ctx, 0, 32, 2, TU_SHAPE(1, 9));
    CHECK(!nn_module_forward(ctx, m, too_long, "net"));
    CHECK(strstr(nn_ctx_error(ctx), "block_size 8"));
    CHECK(!strcmp(ctx->label.module, "outer"));
    /* A child run on its own is labelled with the name the caller gives. */
    nn_module *attn = nn_module_find(ctx, m, "blocks.1.attn");
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 3, TU_SHAPE(1, 4, 16));
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *y = nn_module_forward(ctx, attn, x, "a");
    CHECK(y && !strcmp(y->grad_fn->label.module, "a.drop"));
    int ny = y ? graph_nodes(y, nodes, 512) : 0;
    CHECK(has_node(nodes, ny, "a", NN_OP_SDPA));
    CHECK(has_node(nodes, ny, "a.proj", NN_OP_LINEAR));
    nn_tensor *z = nn_module_forward(ctx, attn, x, NULL);
    CHECK(z && !strcmp(z->grad_fn->label.module, "model.drop"));
    nn_tensor_release(z);
    nn_tensor_release(y);
    nn_tensor_release(x);
    nn_tensor_release(too_long);
    nn_tensor_release(loss);
    nn_tensor_release(logits);
    nn_tensor_release(idx);
    nn_tensor_release(tgt);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

static const char *const gpt_names[] = {
    "tok_emb.weight",
    "pos_emb.weight",
    "blocks.0.ln1.weight",
    "blocks.0.ln1.bias",
    "blocks.0.attn.qkv.weight",
    "blocks.0.attn.qkv.bias",
    "blocks.0.attn.proj.weight",
    "blocks.0.attn.proj.bias",
    "blocks.0.ln2.weight",
    "blocks.0.ln2.bias",
    "blocks.0.mlp.0.weight",
    "blocks.0.mlp.0.bias",
    "blocks.0.mlp.2.weight",
    "blocks.0.mlp.2.bias",
};

NN_TEST(module_named_parameters_and_counts) {
    nn_ctx *ctx = nn_ctx_new(1);
    for (int tied = 0; tied < 2; tied++) {
        nn_gpt_config c = small_gpt(tied);
        nn_module *m = nn_module_gpt(ctx, &c);
        nn_state np;
        nn_state_init(&np);
        CHECK(nn_module_named_parameters(ctx, m, &np) == NN_OK);
        CHECK(np.n == 2 + 2 * 12 + 2 + (tied ? 0 : 1));
        for (int i = 0; i < 14 && i < np.n; i++)
            CHECK_MSG(!strcmp(np.entries[i].name, gpt_names[i]), "%d: %s", i, np.entries[i].name);
        CHECK(!strcmp(np.entries[np.n - 1].name, tied ? "ln_f.bias" : "head.weight"));
        nn_tensor **ps;
        int n;
        CHECK(nn_module_parameters(ctx, m, &ps, &n) == NN_OK);
        CHECK(n == np.n);
        int64_t total = 0;
        for (int i = 0; i < n; i++) {
            CHECK(ps[i] == np.entries[i].tensor);
            CHECK(ps[i]->requires_grad && nn_tensor_is_leaf(ps[i]));
            total += nn_tensor_numel(ps[i]);
        }
        /* 32*16 + 8*16 + 2 * (2*16 + 16*48+48 + 16*16+16 + 2*16 + 16*64+64 + 64*16+16) + 2*16 */
        int64_t expect = 512 + 128 + 2 * (32 + 816 + 272 + 32 + 1088 + 1040) + 32;
        CHECK(total == expect + (tied ? 0 : 512));
        CHECK(nn_module_num_params(m) == total);
        /* The tied head's weight is the token embedding's tensor. */
        nn_tensor *hw = nn_module_find_tensor(ctx, m, "head.weight");
        CHECK(tied ? hw == nn_module_find_tensor(ctx, m, "tok_emb.weight")
                   : hw != nn_module_find_tensor(ctx, m, "tok_emb.weight"));
        /* state_dict lists a tied weight under both names, as PyTorch's. */
        nn_state sd;
        nn_state_init(&sd);
        CHECK(nn_module_state_dict(ctx, m, &sd) == NN_OK);
        CHECK(sd.n == 2 + 2 * 12 + 2 + 1);
        CHECK(nn_state_get(&sd, "head.weight") != NULL);
        CHECK(nn_state_get(&sd, "head.weight")->storage == hw->storage);
        CHECK(!nn_state_get(&sd, "head.weight")->requires_grad);
        nn_state_free(&sd);
        free(ps);
        nn_state_free(&np);
        nn_module_release(m);
    }
    nn_ctx_free(ctx);
}

NN_TEST(module_index_get_find) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(2, 64, 64, 3), 4, NN_MODULE_TANH);
    CHECK(nn_module_num_children(m) == 5);
    CHECK(nn_module_index(ctx, m, 0)->kind == NN_MODULE_LINEAR);
    CHECK(nn_module_index(ctx, m, -1) == nn_module_index(ctx, m, 4));
    CHECK(nn_module_index(ctx, m, -4)->kind == NN_MODULE_TANH);
    CHECK(!nn_module_index(ctx, m, 5) && nn_ctx_status(ctx) == NN_ERR_INDEX);
    CHECK(!nn_module_index(ctx, m, -6));
    CHECK(nn_module_get(ctx, m, "2") == nn_module_index(ctx, m, 2));
    CHECK(!strcmp(nn_module_child_name(m, 3), "3"));
    CHECK(!nn_module_get(ctx, m, "fc"));
    CHECK(strstr(nn_ctx_error(ctx), "children: 0, 1, 2, 3, 4"));
    nn_tensor *b = nn_module_find_tensor(ctx, m, "4.bias");
    CHECK(b && b->ndim == 1 && b->shape[0] == 3);
    CHECK(!nn_module_index(ctx, nn_module_index(ctx, m, 0), 0));
    CHECK(strstr(nn_ctx_error(ctx), "not indexable"));
    nn_module_release(m);

    nn_gpt_config c = small_gpt(true);
    m = nn_module_gpt(ctx, &c);
    nn_module *attn = nn_module_find(ctx, m, "blocks.1.attn");
    CHECK(attn && attn->kind == NN_MODULE_ATTENTION);
    CHECK(nn_module_find(ctx, m, "") == m);
    CHECK(nn_module_index(ctx, nn_module_get(ctx, m, "blocks"), -1) ==
          nn_module_find(ctx, m, "blocks.1"));
    CHECK(!nn_module_find(ctx, m, "blocks.2.attn"));
    CHECK(strstr(nn_ctx_error(ctx), "no module at 'blocks.2.attn'"));
    nn_tensor *qb = nn_module_find_tensor(ctx, m, "blocks.1.attn.qkv.bias");
    CHECK(qb && qb->shape[0] == 48);
    CHECK(!nn_module_find_tensor(ctx, m, "blocks.1.attn.qkv.gamma"));
    CHECK(!nn_module_find_tensor(ctx, m, "blocks.9.attn.qkv.bias"));
    /* ModuleList is a list, not a layer. */
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 3, TU_SHAPE(1, 2, 16));
    CHECK(!nn_module_forward(ctx, nn_module_get(ctx, m, "blocks"), x, "model.blocks"));
    CHECK(strstr(nn_ctx_error(ctx), "ModuleList"));
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

NN_TEST(module_containers_share_and_refuse_cycles) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_module *lin = nn_module_linear(ctx, 3, 3, true);
    nn_module *parts[2] = {lin, lin};
    nn_module *s = nn_module_sequential(ctx, parts, 2);
    CHECK(lin->refcount == 3);
    /* A shared module counts once, as PyTorch's named_parameters. */
    nn_state np;
    nn_state_init(&np);
    CHECK(nn_module_named_parameters(ctx, s, &np) == NN_OK);
    CHECK(np.n == 2 && !strcmp(np.entries[0].name, "0.weight"));
    nn_state_free(&np);
    CHECK(nn_module_num_params(s) == 12);
    nn_module *outer = nn_module_module_list(ctx, &s, 1);
    CHECK(nn_module_append(ctx, s, outer) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "cannot contain itself"));
    CHECK(nn_module_append(ctx, s, s) == NN_ERR_VALUE);
    CHECK(nn_module_append(ctx, lin, s) == NN_ERR_TYPE);
    CHECK(nn_module_append(ctx, outer, lin) == NN_OK);
    CHECK(nn_module_num_children(outer) == 2 && !strcmp(nn_module_child_name(outer, 1), "1"));
    nn_module_release(outer);
    nn_module_release(s);
    CHECK(lin->refcount == 1);
    nn_module_release(lin);
    nn_module_release(NULL);
    nn_ctx_free(ctx);
}

NN_TEST(module_train_eval_and_dropout) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_gpt_config c = small_gpt(true);
    c.dropout = 0.5;
    nn_module *m = nn_module_gpt(ctx, &c);
    nn_module *drop = nn_module_find(ctx, m, "blocks.1.mlp.3");
    CHECK(m->training && drop->training && drop->kind == NN_MODULE_DROPOUT);
    nn_module_eval(m);
    CHECK(!m->training && !drop->training && !nn_module_find(ctx, m, "blocks.0.attn")->training);
    nn_tensor *idx = nn_randint(ctx, 0, 32, 2, TU_SHAPE(2, 8));
    nn_tensor *a = nn_module_forward(ctx, m, idx, NULL);
    nn_tensor *b = nn_module_forward(ctx, m, idx, NULL);
    CHECK(a && b && tu_close_tensor(a, b, 0, 0, "eval is deterministic"));
    nn_module_train(m, true);
    CHECK(drop->training);
    nn_tensor *t1 = nn_module_forward(ctx, m, idx, NULL);
    CHECK(t1 && !same_values(t1, a));
    nn_tensor_release(t1);

    nn_module *d = nn_module_dropout(ctx, 0.25);
    nn_tensor *ones = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(20000));
    nn_tensor *y = nn_module_forward(ctx, d, ones, "d");
    int zeros = 0;
    for (int64_t i = 0; i < 20000; i++) {
        double v = nn_tensor_get_flat(y, i);
        zeros += v == 0;
        CHECK(v == 0 || fabs(v - 1 / 0.75) < 1e-6);
    }
    CHECK(abs(zeros - 5000) < 300);
    nn_tensor_release(y);
    nn_module_eval(d);
    y = nn_module_forward(ctx, d, ones, "d");
    CHECK(tu_close_tensor(y, ones, 0, 0, "eval dropout"));
    nn_tensor_release(y);
    CHECK(!nn_module_dropout(ctx, 1.5) && nn_ctx_status(ctx) == NN_ERR_VALUE);
    nn_module_release(d);
    nn_tensor_release(ones);
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(idx);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

NN_TEST(module_zero_grad) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(3, 4, 2), 3, NN_MODULE_RELU);
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(5, 3));
    nn_tensor *y = nn_module_forward(ctx, m, x, "m");
    nn_tensor *s = nn_sum(ctx, y, NULL, 0, false);
    CHECK(nn_backward(ctx, s, NULL, false) == NN_OK);
    nn_tensor *w = nn_module_find_tensor(ctx, m, "0.weight");
    CHECK(nn_tensor_grad(w) != NULL);
    CHECK(nn_module_zero_grad(ctx, m, false) == NN_OK);
    nn_tensor *g = nn_tensor_grad(w);
    CHECK(g && nn_tensor_get_flat(g, 0) == 0 && nn_tensor_get_flat(g, 11) == 0);
    CHECK(nn_module_zero_grad(ctx, m, true) == NN_OK);
    CHECK(nn_tensor_grad(w) == NULL);
    nn_tensor_release(s);
    nn_tensor_release(y);
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

NN_TEST(module_repr_text) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(2, 64, 3), 3, NN_MODULE_TANH);
    const char *want = "Sequential(\n"
                       "  (0): Linear(in_features=2, out_features=64, bias=True)\n"
                       "  (1): Tanh()\n"
                       "  (2): Linear(in_features=64, out_features=3, bias=True)\n"
                       ")";
    char buf[512];
    size_t n = nn_module_repr(m, buf, sizeof buf);
    CHECK(n == strlen(want) && !strcmp(buf, want));
    char small[10];
    CHECK(nn_module_repr(m, small, sizeof small) == strlen(want));
    CHECK(!strcmp(small, "Sequentia"));
    nn_module_release(m);
    struct {
        nn_module *m;
        const char *text;
    } cases[] = {
        {nn_module_layer_norm(ctx, 2, TU_SHAPE(3, 4), 1e-3, false),
         "LayerNorm((3, 4), eps=0.001, elementwise_affine=False)"},
        {nn_module_dropout(ctx, 0.1), "Dropout(p=0.1, inplace=False)"},
        {nn_module_dropout(ctx, 0), "Dropout(p=0.0, inplace=False)"},
        {nn_module_leaky_relu(ctx, 1e-20), "LeakyReLU(negative_slope=1e-20)"},
        {nn_module_leaky_relu(ctx, 123456.5), "LeakyReLU(negative_slope=123456.5)"},
        {nn_module_leaky_relu(ctx, 1e17), "LeakyReLU(negative_slope=1e+17)"},
        {nn_module_leaky_relu(ctx, 0.0001), "LeakyReLU(negative_slope=0.0001)"},
        {nn_module_sequential(ctx, NULL, 0), "Sequential()"},
        {nn_module_linear(ctx, 3, 1, false), "Linear(in_features=3, out_features=1, bias=False)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *r = nn_module_repr_alloc(cases[i].m);
        CHECK_MSG(r && !strcmp(r, cases[i].text), "%s", r ? r : "(null)");
        free(r);
        nn_module_release(cases[i].m);
    }
    nn_ctx_free(ctx);
}

/* Every value of every state entry, to see that a failed load changed
 * nothing. */
static double *snapshot(nn_ctx *ctx, nn_module *m, int64_t *n) {
    nn_state sd;
    nn_state_init(&sd);
    nn_module_state_dict(ctx, m, &sd);
    int64_t total = 0;
    for (int i = 0; i < sd.n; i++) total += nn_tensor_numel(sd.entries[i].tensor);
    double *v = malloc(sizeof(double) * (size_t)total), *p = v;
    for (int i = 0; i < sd.n; i++) {
        nn_tensor_to_doubles(sd.entries[i].tensor, p);
        p += nn_tensor_numel(sd.entries[i].tensor);
    }
    nn_state_free(&sd);
    *n = total;
    return v;
}

static bool unchanged(nn_ctx *ctx, nn_module *m, const double *before, int64_t n) {
    int64_t k;
    double *now = snapshot(ctx, m, &k);
    bool same = k == n && !memcmp(now, before, sizeof(double) * (size_t)n);
    free(now);
    return same;
}

NN_TEST(module_load_state_dict_all_or_nothing) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_gpt_config c = small_gpt(false);
    nn_module *m = nn_module_gpt(ctx, &c);
    nn_ctx_seed(ctx, 2);
    nn_module *other = nn_module_gpt(ctx, &c);
    int64_t n;
    double *before = snapshot(ctx, m, &n);
    /* A good state from another model; each case spoils it one way. */
    enum { MISSING, UNEXPECTED, SHAPE, DTYPE, N_CASES };
    for (int k = 0; k < N_CASES; k++) {
        nn_state src, bad;
        nn_state_init(&src);
        nn_state_init(&bad);
        nn_module_state_dict(ctx, other, &src);
        for (int i = 0; i < src.n; i++) {
            const char *nm = src.entries[i].name;
            nn_tensor *t = src.entries[i].tensor;
            bool target = !strcmp(nm, "blocks.1.attn.qkv.weight");
            if (k == MISSING && target) continue;
            if (k == SHAPE && target) {
                nn_tensor *wrong = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(96, 16));
                nn_state_add(ctx, &bad, nm, wrong);
                nn_tensor_release(wrong);
                continue;
            }
            if (k == DTYPE && target) {
                nn_tensor *d = nn_tensor_cast_raw(ctx, t, NN_FLOAT64);
                nn_state_add(ctx, &bad, nm, d);
                nn_tensor_release(d);
                continue;
            }
            nn_state_add(ctx, &bad, nm, t);
        }
        if (k == UNEXPECTED) {
            nn_tensor *extra = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
            nn_state_add(ctx, &bad, "blocks.1.attn.bias_mask", extra);
            nn_tensor_release(extra);
        }
        nn_ctx_clear_error(ctx);
        nn_status st = nn_module_load_state_dict(ctx, m, &bad, true);
        const char *e = nn_ctx_error(ctx);
        CHECK(st != NN_OK);
        CHECK_MSG(unchanged(ctx, m, before, n), "case %d changed the module", k);
        CHECK(strstr(e, "the module is unchanged"));
        switch (k) {
        case MISSING:
            CHECK(st == NN_ERR_VALUE && strstr(e, "missing key 'blocks.1.attn.qkv.weight'"));
            /* Without strict the rest loads. */
            CHECK(nn_module_load_state_dict(ctx, m, &bad, false) == NN_OK);
            CHECK(!unchanged(ctx, m, before, n));
            nn_tensor *kept = nn_module_find_tensor(ctx, m, "blocks.1.attn.qkv.weight");
            nn_tensor *loaded = nn_module_find_tensor(ctx, m, "blocks.1.attn.proj.weight");
            CHECK(tu_close_tensor(loaded, nn_state_get(&src, "blocks.1.attn.proj.weight"), 0, 0,
                                  "loaded"));
            CHECK(!same_values(kept, nn_state_get(&src, "blocks.1.attn.qkv.weight")));
            /* Put the original back for the next cases. */
            free(before);
            before = snapshot(ctx, m, &n);
            break;
        case UNEXPECTED:
            CHECK(st == NN_ERR_VALUE && strstr(e, "unexpected key 'blocks.1.attn.bias_mask'"));
            break;
        case SHAPE:
            CHECK(st == NN_ERR_SHAPE && strstr(e, "'blocks.1.attn.qkv.weight'") &&
                  strstr(e, "[96, 16]") && strstr(e, "[48, 16]"));
            break;
        case DTYPE:
            CHECK(st == NN_ERR_TYPE && strstr(e, "'blocks.1.attn.qkv.weight'") &&
                  strstr(e, "float64") && strstr(e, "float32"));
            break;
        }
        nn_state_free(&bad);
        nn_state_free(&src);
    }
    /* Several problems: the first is named and the rest counted. */
    nn_state empty;
    nn_state_init(&empty);
    CHECK(nn_module_load_state_dict(ctx, m, &empty, true) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "missing key 'tok_emb.weight'") &&
          strstr(nn_ctx_error(ctx), "and 28 more problems"));
    CHECK(nn_module_load_state_dict(ctx, m, &empty, false) == NN_OK);
    /* A model's own state loads onto itself. */
    nn_state self;
    nn_state_init(&self);
    nn_module_state_dict(ctx, m, &self);
    CHECK(nn_module_load_state_dict(ctx, m, &self, true) == NN_OK);
    CHECK(unchanged(ctx, m, before, n));
    nn_state_free(&self);
    /* The full load makes two models compute the same thing. */
    nn_state src;
    nn_state_init(&src);
    nn_module_state_dict(ctx, other, &src);
    CHECK(nn_module_load_state_dict(ctx, m, &src, true) == NN_OK);
    nn_tensor *idx = nn_randint(ctx, 0, 32, 2, TU_SHAPE(2, 8));
    nn_tensor *a = nn_module_forward(ctx, m, idx, NULL);
    nn_tensor *b = nn_module_forward(ctx, other, idx, NULL);
    CHECK(tu_close_tensor(a, b, 0, 0, "same weights"));
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(idx);
    nn_state_free(&src);
    free(before);
    nn_module_release(other);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

static void stats(const nn_tensor *t, double *mean, double *std, double *maxabs) {
    int64_t n = nn_tensor_numel(t);
    double s = 0, ss = 0, mx = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        s += v;
        ss += v * v;
        mx = fmax(mx, fabs(v));
    }
    *mean = s / (double)n;
    *std = sqrt(ss / (double)n - *mean * *mean);
    *maxabs = mx;
}

NN_TEST(module_default_init) {
    nn_ctx *ctx = nn_ctx_new(5);
    double mean, std, mx;
    /* Linear: weight and bias from U(-1/sqrt(in), 1/sqrt(in)). */
    nn_module *lin = nn_module_linear(ctx, 400, 300, true);
    double bound = 1 / sqrt(400.0);
    stats(nn_module_param(lin, "weight"), &mean, &std, &mx);
    CHECK(mx <= bound && mx > 0.99 * bound);
    CHECK_NEAR(std, bound / sqrt(3.0), 0.01);
    CHECK(fabs(mean) < 0.01 * bound);
    stats(nn_module_param(lin, "bias"), &mean, &std, &mx);
    CHECK(mx <= bound && mx > 0.9 * bound);
    CHECK_NEAR(std, bound / sqrt(3.0), 0.1);
    nn_module_release(lin);
    nn_module *emb = nn_module_embedding(ctx, 500, 200);
    stats(nn_module_param(emb, "weight"), &mean, &std, &mx);
    CHECK_NEAR(std, 1.0, 0.01);
    CHECK(fabs(mean) < 0.01);
    nn_module_release(emb);
    nn_module *ln = nn_module_layer_norm(ctx, 1, TU_SHAPE(7), 1e-5, true);
    stats(nn_module_param(ln, "weight"), &mean, &std, &mx);
    CHECK(mean == 1 && std == 0);
    stats(nn_module_param(ln, "bias"), &mean, &std, &mx);
    CHECK(mx == 0);
    nn_module_release(ln);
    /* GPT: nanoGPT's init. */
    nn_gpt_config c = {.vocab_size = 256,
                       .block_size = 64,
                       .n_layer = 4,
                       .n_head = 4,
                       .n_embd = 128,
                       .bias = true,
                       .tied = false};
    nn_module *g = nn_module_gpt(ctx, &c);
    const char *normal02[] = {"tok_emb.weight", "pos_emb.weight", "head.weight",
                              "blocks.2.attn.qkv.weight", "blocks.3.mlp.0.weight"};
    for (int i = 0; i < 5; i++) {
        stats(nn_module_find_tensor(ctx, g, normal02[i]), &mean, &std, &mx);
        CHECK_MSG(fabs(std - 0.02) < 0.001 && fabs(mean) < 0.001, "%s: std %g", normal02[i], std);
    }
    const char *scaled[] = {"blocks.0.attn.proj.weight", "blocks.3.mlp.2.weight"};
    for (int i = 0; i < 2; i++) {
        stats(nn_module_find_tensor(ctx, g, scaled[i]), &mean, &std, &mx);
        CHECK_MSG(fabs(std - 0.02 / sqrt(8.0)) < 0.0005, "%s: std %g", scaled[i], std);
    }
    const char *zero[] = {"blocks.0.attn.qkv.bias", "blocks.1.mlp.2.bias", "ln_f.bias"};
    for (int i = 0; i < 3; i++) {
        stats(nn_module_find_tensor(ctx, g, zero[i]), &mean, &std, &mx);
        CHECK(mx == 0);
    }
    stats(nn_module_find_tensor(ctx, g, "blocks.1.ln2.weight"), &mean, &std, &mx);
    CHECK(mean == 1 && std == 0);
    nn_module_release(g);
    /* Same seed, same numbers. */
    nn_ctx *c1 = nn_ctx_new(42), *c2 = nn_ctx_new(42);
    nn_gpt_config sc = small_gpt(true);
    nn_module *g1 = nn_module_gpt(c1, &sc), *g2 = nn_module_gpt(c2, &sc);
    nn_state s1, s2;
    nn_state_init(&s1);
    nn_state_init(&s2);
    nn_module_state_dict(c1, g1, &s1);
    nn_module_state_dict(c2, g2, &s2);
    CHECK(s1.n == s2.n);
    for (int i = 0; i < s1.n; i++)
        CHECK(tu_close_tensor(s1.entries[i].tensor, s2.entries[i].tensor, 0, 0, "same seed"));
    nn_state_free(&s1);
    nn_state_free(&s2);
    nn_module_release(g1);
    nn_module_release(g2);
    nn_ctx_free(c1);
    nn_ctx_free(c2);
    nn_ctx_free(ctx);
}

NN_TEST(module_constructor_and_forward_errors) {
    nn_ctx *ctx = nn_ctx_new(1);
    CHECK(!nn_module_linear(ctx, -1, 3, true) && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(!nn_module_attention(ctx, 10, 3, 0, true) && strstr(nn_ctx_error(ctx), "multiple"));
    CHECK(!nn_module_mlp(ctx, TU_SHAPE(3), 1, NN_MODULE_RELU));
    CHECK(!nn_module_mlp(ctx, TU_SHAPE(3, 4), 2, NN_MODULE_LINEAR));
    CHECK(!nn_module_layer_norm(ctx, 0, TU_SHAPE(3), 1e-5, true));
    nn_gpt_config c = small_gpt(true);
    c.n_head = 3;
    CHECK(!nn_module_gpt(ctx, &c));
    c = small_gpt(true);
    nn_module *g = nn_module_gpt(ctx, &c);
    nn_tensor *f = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 4));
    CHECK(!nn_module_forward(ctx, g, f, NULL) && nn_ctx_status(ctx) == NN_ERR_TYPE);
    CHECK(strstr(nn_ctx_error(ctx), "int64 token ids"));
    nn_tensor *idx = nn_randint(ctx, 0, 32, 1, TU_SHAPE(5));
    nn_tensor *logits = nn_module_forward(ctx, g, idx, NULL); /* [T] works too */
    CHECK(logits && logits->ndim == 2 && logits->shape[0] == 5 && logits->shape[1] == 32);
    nn_tensor *bad_t = nn_randint(ctx, 0, 32, 1, TU_SHAPE(4));
    CHECK(!nn_module_gpt_loss(ctx, g, idx, bad_t, NULL, NULL));
    nn_module *ln = nn_module_layer_norm(ctx, 1, TU_SHAPE(5), 1e-5, true);
    CHECK(!nn_module_forward(ctx, ln, f, "ln") && strstr(nn_ctx_error(ctx), "normalized_shape"));
    nn_module *attn = nn_module_attention(ctx, 6, 2, 0, true);
    CHECK(!nn_module_forward(ctx, attn, f, "a") && strstr(nn_ctx_error(ctx), "[B, T, 6]"));
    /* set_param: as `m.weight = p`. */
    nn_module *lin = nn_module_linear(ctx, 4, 2, true);
    nn_tensor *w = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 4));
    CHECK(nn_module_set_param(ctx, lin, "weight", w) == NN_OK);
    CHECK(nn_module_param(lin, "weight") == w && w->requires_grad);
    CHECK(nn_module_set_param(ctx, lin, "gamma", w) == NN_ERR_VALUE);
    CHECK(nn_module_set_param(ctx, lin, "bias", NULL) == NN_OK);
    CHECK(nn_module_num_params(lin) == 8);
    nn_tensor *y = nn_module_forward(ctx, lin, f, "lin");
    CHECK(y && nn_tensor_get_flat(y, 0) == 0);
    nn_tensor_release(y);
    nn_tensor_release(w);
    nn_module_release(lin);
    nn_module_release(attn);
    nn_module_release(ln);
    nn_tensor_release(bad_t);
    nn_tensor_release(logits);
    nn_tensor_release(idx);
    nn_tensor_release(f);
    nn_module_release(g);
    nn_ctx_free(ctx);
}
