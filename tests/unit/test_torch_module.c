/* Modules against PyTorch: the C side of tests/torch/ref_module.py.
 *
 * For each case the script wrote, the table below builds the same module;
 * the runner checks the repr text, that state_dict names come in PyTorch's
 * order, loads PyTorch's weights with load_state_dict(strict), runs forward
 * and backward, and compares the output (and loss), the input gradient, and
 * every parameter gradient in named_parameters order. */
#include <stdlib.h>
#include <string.h>

#include "nn_module.h"
#include "testutil.h"

typedef nn_module *(*build_fn)(nn_ctx *ctx);

static nn_module *seq_take(nn_ctx *ctx, nn_module **parts, int n) {
    nn_module *s = nn_module_sequential(ctx, parts, n);
    for (int i = 0; i < n; i++) nn_module_release(parts[i]);
    return s;
}

static nn_module *b_linear(nn_ctx *ctx) {
    return nn_module_linear(ctx, 5, 3, true);
}
static nn_module *b_linear_nobias(nn_ctx *ctx) {
    return nn_module_linear(ctx, 5, 3, false);
}
static nn_module *b_linear_3d(nn_ctx *ctx) {
    return nn_module_linear(ctx, 4, 6, true);
}
static nn_module *b_embedding(nn_ctx *ctx) {
    return nn_module_embedding(ctx, 10, 4);
}
static nn_module *b_layernorm(nn_ctx *ctx) {
    return nn_module_layer_norm(ctx, 1, TU_SHAPE(6), 1e-5, true);
}
static nn_module *b_layernorm_2d_noaffine(nn_ctx *ctx) {
    return nn_module_layer_norm(ctx, 2, TU_SHAPE(3, 4), 1e-3, false);
}
static nn_module *b_dropout_eval(nn_ctx *ctx) {
    nn_module *m = nn_module_dropout(ctx, 0.5);
    nn_module_eval(m);
    return m;
}
static nn_module *b_dropout_zero(nn_ctx *ctx) {
    return nn_module_dropout(ctx, 0.0);
}
static nn_module *b_relu(nn_ctx *ctx) {
    return nn_module_relu(ctx);
}
static nn_module *b_leaky_relu(nn_ctx *ctx) {
    return nn_module_leaky_relu(ctx, 0.2);
}
static nn_module *b_tanh(nn_ctx *ctx) {
    return nn_module_tanh(ctx);
}
static nn_module *b_sigmoid(nn_ctx *ctx) {
    return nn_module_sigmoid(ctx);
}
static nn_module *b_gelu(nn_ctx *ctx) {
    return nn_module_gelu(ctx, false);
}
static nn_module *b_gelu_tanh(nn_ctx *ctx) {
    return nn_module_gelu(ctx, true);
}
static nn_module *b_silu(nn_ctx *ctx) {
    return nn_module_silu(ctx);
}
static nn_module *b_softmax(nn_ctx *ctx) {
    return nn_module_softmax(ctx, 1);
}
static nn_module *b_flatten(nn_ctx *ctx) {
    return nn_module_flatten(ctx, 1, -1);
}
static nn_module *b_flatten_mid(nn_ctx *ctx) {
    return nn_module_flatten(ctx, 0, 1);
}
static nn_module *b_sequential(nn_ctx *ctx) {
    nn_module *p[3] = {nn_module_linear(ctx, 2, 64, true), nn_module_tanh(ctx),
                       nn_module_linear(ctx, 64, 3, true)};
    return seq_take(ctx, p, 3);
}
static nn_module *b_mlp_relu(nn_ctx *ctx) {
    return nn_module_mlp(ctx, TU_SHAPE(4, 8, 8, 3), 4, NN_MODULE_RELU);
}
static nn_module *b_modulelist_nested(nn_ctx *ctx) {
    nn_module *inner[2] = {nn_module_linear(ctx, 3, 3, true), nn_module_silu(ctx)};
    nn_module *p[2] = {seq_take(ctx, inner, 2), nn_module_linear(ctx, 3, 2, true)};
    return seq_take(ctx, p, 2);
}
static nn_module *b_attention(nn_ctx *ctx) {
    return nn_module_attention(ctx, 16, 2, 0.0, true);
}
static nn_module *b_attention_nobias(nn_ctx *ctx) {
    return nn_module_attention(ctx, 8, 4, 0.0, false);
}
static nn_module *b_block(nn_ctx *ctx) {
    return nn_module_block(ctx, 16, 2, 0.0, true);
}
static nn_module *gpt(nn_ctx *ctx, int64_t layers, int64_t heads, bool bias, bool tied) {
    nn_gpt_config c = {.vocab_size = 32,
                       .block_size = 8,
                       .n_layer = layers,
                       .n_head = heads,
                       .n_embd = 16,
                       .dropout = 0.0,
                       .bias = bias,
                       .tied = tied};
    return nn_module_gpt(ctx, &c);
}
static nn_module *b_gpt_tied(nn_ctx *ctx) {
    return gpt(ctx, 2, 2, true, true);
}
static nn_module *b_gpt_untied(nn_ctx *ctx) {
    return gpt(ctx, 2, 2, true, false);
}
static nn_module *b_gpt_nobias_short(nn_ctx *ctx) {
    return gpt(ctx, 1, 4, false, true);
}

#define ROW(name)                                                                                  \
    { #name, b_##name }
static const struct {
    const char *name;
    build_fn fn;
} builders[] = {
    ROW(linear),
    ROW(linear_nobias),
    ROW(linear_3d),
    ROW(embedding),
    ROW(layernorm),
    ROW(layernorm_2d_noaffine),
    ROW(dropout_eval),
    ROW(dropout_zero),
    ROW(relu),
    ROW(leaky_relu),
    ROW(tanh),
    ROW(sigmoid),
    ROW(gelu),
    ROW(gelu_tanh),
    ROW(silu),
    ROW(softmax),
    ROW(flatten),
    ROW(flatten_mid),
    ROW(sequential),
    ROW(mlp_relu),
    ROW(modulelist_nested),
    ROW(attention),
    ROW(attention_nobias),
    ROW(block),
    ROW(gpt_tied),
    ROW(gpt_untied),
    ROW(gpt_nobias_short),
};
#define N_BUILDERS ((int)(sizeof builders / sizeof builders[0]))

/* ---- the case file ---- */

typedef struct mcase {
    char name[64];
    char *repr;
    nn_state params, grads;
    nn_tensor *input, *target, *out, *loss, *up, *ingrad;
} mcase;

static nn_dtype dtype_of(const char *s) {
    if (!strcmp(s, "float64")) return NN_FLOAT64;
    if (!strcmp(s, "int64")) return NN_INT64;
    if (!strcmp(s, "bool")) return NN_BOOL;
    return NN_FLOAT32;
}

static nn_tensor *parse_tensor(nn_ctx *ctx, char **save) {
    char *tok = strtok_r(NULL, " \n", save);
    if (!tok) return NULL;
    nn_dtype dt = dtype_of(tok);
    tok = strtok_r(NULL, " \n", save);
    int ndim = tok ? atoi(tok) : 0;
    if (ndim < 0 || ndim > NN_MAX_DIMS) return NULL;
    int64_t shape[NN_MAX_DIMS], n = 1;
    for (int i = 0; i < ndim; i++) {
        tok = strtok_r(NULL, " \n", save);
        shape[i] = tok ? atoll(tok) : 0;
        n *= shape[i];
    }
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        tok = strtok_r(NULL, " \n", save);
        v[i] = tok ? strtod(tok, NULL) : NAN;
    }
    nn_tensor *t = nn_tensor_from_doubles(ctx, dt, ndim, shape, v);
    free(v);
    return t;
}

static void mcase_clear(mcase *c) {
    free(c->repr);
    nn_state_free(&c->params);
    nn_state_free(&c->grads);
    nn_tensor *ts[] = {c->input, c->target, c->out, c->loss, c->up, c->ingrad};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) nn_tensor_release(ts[i]);
    memset(c, 0, sizeof *c);
}

static char *unescape(const char *s) {
    char *out = malloc(strlen(s) + 1), *o = out;
    for (; *s && *s != '\n'; s++) {
        if (*s == '\\' && s[1]) {
            s++;
            *o++ = *s == 'n' ? '\n' : *s;
        } else {
            *o++ = *s;
        }
    }
    *o = 0;
    return out;
}

/* float32 against float32: every element within 1e-4 relative, or within
 * 1e-5 of the tensor's largest magnitude (elements far below a tensor's
 * scale lose relative precision to cancellation in both libraries; the
 * largest error seen relative to the scale is about 3e-7). Set MODULE_ERRS=1
 * to print the errors of every tensor. */
#define RTOL  1e-4
#define SCALE 1e-5

static bool close_scaled(const nn_tensor *got, const nn_tensor *want, const char *what) {
    int64_t n = nn_tensor_numel(want);
    double scale = 0;
    for (int64_t i = 0; i < n; i++) scale = fmax(scale, fabs(nn_tensor_get_flat(want, i)));
    if (getenv("MODULE_ERRS") && got) {
        double worst_abs = 0, worst_rel = 0;
        for (int64_t i = 0; i < n; i++) {
            double a = nn_tensor_get_flat(got, i), e = nn_tensor_get_flat(want, i);
            worst_abs = fmax(worst_abs, fabs(a - e));
            if (fabs(e) > 1e-3 * scale) worst_rel = fmax(worst_rel, fabs(a - e) / fabs(e));
        }
        fprintf(stderr, "  %s: max|d|/scale %.2e, max rel (elements > 1e-3 scale) %.2e\n", what,
                worst_abs / (scale > 0 ? scale : 1), worst_rel);
    }
    return tu_close_tensor(got, want, RTOL, SCALE * scale + 1e-12, what);
}

static bool run_mcase(nn_ctx *ctx, mcase *c, build_fn build) {
    char what[400];
    bool ok = true;
    nn_module *m = build(ctx);
    if (!m) {
        fprintf(stderr, "  %s: build failed: %s\n", c->name, nn_ctx_error(ctx));
        return false;
    }
    char *r = nn_module_repr_alloc(m);
    if (!r || strcmp(r, c->repr)) {
        fprintf(stderr, "  %s: repr\n%s\nexpected\n%s\n", c->name, r ? r : "(null)", c->repr);
        ok = false;
    }
    free(r);
    /* state_dict names and order equal PyTorch's. */
    nn_state sd;
    nn_state_init(&sd);
    if (nn_module_state_dict(ctx, m, &sd)) ok = false;
    if (sd.n != c->params.n) {
        fprintf(stderr, "  %s: state_dict has %d entries, PyTorch %d\n", c->name, sd.n,
                c->params.n);
        ok = false;
    }
    for (int i = 0; ok && i < sd.n; i++)
        if (strcmp(sd.entries[i].name, c->params.entries[i].name)) {
            fprintf(stderr, "  %s: state_dict entry %d is %s, PyTorch's %s\n", c->name, i,
                    sd.entries[i].name, c->params.entries[i].name);
            ok = false;
        }
    nn_state_free(&sd);
    if (ok && nn_module_load_state_dict(ctx, m, &c->params, true)) {
        fprintf(stderr, "  %s: load_state_dict: %s\n", c->name, nn_ctx_error(ctx));
        ok = false;
    }
    if (!ok) {
        nn_module_release(m);
        return false;
    }
    if (nn_dtype_is_float(c->input->dtype)) nn_tensor_requires_grad_(ctx, c->input, true);
    nn_tensor *out = NULL, *loss = NULL;
    if (c->target)
        loss = nn_module_gpt_loss(ctx, m, c->input, c->target, "model", &out);
    else
        out = nn_module_forward(ctx, m, c->input, "model");
    if (!out || (c->target && !loss)) {
        fprintf(stderr, "  %s: forward: %s\n", c->name, nn_ctx_error(ctx));
        ok = false;
    }
    if (ok) {
        snprintf(what, sizeof what, "%s output", c->name);
        ok = close_scaled(out, c->out, what);
    }
    if (ok && loss) {
        snprintf(what, sizeof what, "%s loss", c->name);
        ok = tu_close_tensor(loss, c->loss, RTOL, 0, what);
    }
    if (ok && nn_backward(ctx, loss ? loss : out, loss ? NULL : c->up, false)) {
        fprintf(stderr, "  %s: backward: %s\n", c->name, nn_ctx_error(ctx));
        ok = false;
    }
    if (ok && c->ingrad) {
        snprintf(what, sizeof what, "%s input grad", c->name);
        ok = close_scaled(nn_tensor_grad(c->input), c->ingrad, what);
    }
    nn_state np;
    nn_state_init(&np);
    if (ok && nn_module_named_parameters(ctx, m, &np)) ok = false;
    if (ok && np.n != c->grads.n) {
        fprintf(stderr, "  %s: %d named parameters, PyTorch %d\n", c->name, np.n, c->grads.n);
        ok = false;
    }
    for (int i = 0; ok && i < np.n; i++) {
        const char *nm = np.entries[i].name;
        if (strcmp(nm, c->grads.entries[i].name)) {
            fprintf(stderr, "  %s: parameter %d is %s, PyTorch's %s\n", c->name, i, nm,
                    c->grads.entries[i].name);
            ok = false;
            break;
        }
        snprintf(what, sizeof what, "%s grad of %s", c->name, nm);
        nn_tensor *g = nn_tensor_grad(np.entries[i].tensor);
        nn_tensor *z = g ? NULL : nn_zeros_like(ctx, np.entries[i].tensor);
        ok = close_scaled(g ? g : z, c->grads.entries[i].tensor, what);
        nn_tensor_release(z);
    }
    nn_state_free(&np);
    nn_tensor_release(out);
    nn_tensor_release(loss);
    nn_module_release(m);
    return ok;
}

NN_TEST(module_torch_refs) {
    const char *dir = getenv("NNDB_REF_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/module.txt", dir ? dir : "build/ref");
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "  missing %s: run tests/torch/ref_module.py (make test does)\n", path);
        nn_test_failures++;
        return;
    }
    nn_ctx *ctx = nn_ctx_new(0);
    mcase c;
    memset(&c, 0, sizeof c);
    bool used[N_BUILDERS] = {false};
    int cases = 0;
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    while (getline(&line, &cap, f) > 0) {
        char *save = NULL, *tag = strtok_r(line, " \n", &save);
        if (!tag) continue;
        if (!strcmp(tag, "case")) {
            mcase_clear(&c);
            char *nm = strtok_r(NULL, " \n", &save);
            snprintf(c.name, sizeof c.name, "%s", nm ? nm : "?");
        } else if (!strcmp(tag, "repr")) {
            c.repr = unescape(line + 5);
        } else if (!strcmp(tag, "param") || !strcmp(tag, "grad")) {
            char *nm = strtok_r(NULL, " \n", &save);
            nn_tensor *t = parse_tensor(ctx, &save);
            if (nm && t) nn_state_add(ctx, tag[0] == 'p' ? &c.params : &c.grads, nm, t);
            nn_tensor_release(t);
        } else if (!strcmp(tag, "input")) {
            c.input = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "target")) {
            c.target = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "out")) {
            c.out = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "loss")) {
            c.loss = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "up")) {
            c.up = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "ingrad")) {
            c.ingrad = parse_tensor(ctx, &save);
        } else if (!strcmp(tag, "end")) {
            cases++;
            int k = -1;
            for (int i = 0; i < N_BUILDERS; i++)
                if (!strcmp(builders[i].name, c.name)) k = i;
            if (k < 0) {
                fprintf(stderr, "  case %s has no builder in test_torch_module.c\n", c.name);
                nn_test_failures++;
            } else {
                used[k] = true;
                if (!c.input || !c.out || !c.repr || !run_mcase(ctx, &c, builders[k].fn)) {
                    fprintf(stderr, "  module case %s failed\n", c.name);
                    nn_test_failures++;
                }
            }
            nn_ctx_clear_error(ctx);
        }
    }
    for (int i = 0; i < N_BUILDERS; i++)
        if (!used[i]) {
            fprintf(stderr, "  builder %s has no case in %s\n", builders[i].name, path);
            nn_test_failures++;
        }
    CHECK(cases == N_BUILDERS);
    mcase_clear(&c);
    free(line);
    fclose(f);
    nn_ctx_free(ctx);
}
