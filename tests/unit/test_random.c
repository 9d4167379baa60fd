/* PyTorch's CPU generator, bit for bit: every case tests/torch/ref_random.py
 * wrote (rand, randn, uniform_, normal_, exponential_, bernoulli, randint,
 * randperm, multinomial, dropout, non-contiguous outputs, get_state, mixed
 * streams, torch.nn.init and module defaults) is recomputed here and its
 * bytes compared with PyTorch's. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_data.h"
#include "nn_init.h"
#include "nn_module.h"
#include "nn_random.h"
#include "testutil.h"

typedef struct rcase {
    char id[16], op[32], dt[8];
    uint64_t seed;
    int64_t n;
    double a, b, c;
} rcase;

static nn_dtype dtype_of(const char *s) {
    return !strcmp(s, "f64") ? NN_FLOAT64 : !strcmp(s, "i64") ? NN_INT64 : NN_FLOAT32;
}

/* Concatenate the raw bytes of [ts] (each made contiguous first). */
static uint8_t *bytes_of(nn_ctx *ctx, nn_tensor **ts, int k, size_t *len) {
    size_t total = 0;
    for (int i = 0; i < k; i++)
        total += (size_t)nn_tensor_numel(ts[i]) * nn_dtype_size(ts[i]->dtype);
    uint8_t *out = malloc(total ? total : 1), *p = out;
    for (int i = 0; i < k; i++) {
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, ts[i]);
        size_t nb = (size_t)nn_tensor_numel(c) * nn_dtype_size(c->dtype);
        if (nb) memcpy(p, nn_tensor_data(c), nb);
        p += nb;
        nn_tensor_release(c);
    }
    *len = total;
    return out;
}

static nn_tensor *empty1(nn_ctx *ctx, nn_dtype dt, int64_t n) {
    return nn_tensor_empty(ctx, dt, 1, &n);
}

/* A view [rows, cols] of a fresh [cols, rows] tensor: its transpose. */
static nn_tensor *transposed(nn_ctx *ctx, nn_dtype dt, int64_t rows, int64_t cols,
                             nn_tensor **base) {
    *base = nn_tensor_empty(ctx, dt, 2, TU_SHAPE(cols, rows));
    return nn_tensor_view_raw(ctx, *base, 2, TU_SHAPE(rows, cols), TU_SHAPE(1, rows), 0);
}

/* tests/torch/ref_random.py's GPT_CONFIGS. */
static const nn_gpt_config gpt_configs[] = {
    {.vocab_size = 27,
     .block_size = 8,
     .n_layer = 2,
     .n_head = 2,
     .n_embd = 16,
     .bias = true,
     .tied = true},
    {.vocab_size = 65,
     .block_size = 16,
     .n_layer = 1,
     .n_head = 4,
     .n_embd = 32,
     .bias = false,
     .tied = false},
    {.vocab_size = 256,
     .block_size = 64,
     .n_layer = 2,
     .n_head = 4,
     .n_embd = 64,
     .bias = true,
     .tied = true},
};

static nn_tensor *run_gpt(nn_ctx *ctx, const rcase *c) {
    nn_module *m = nn_module_gpt(ctx, &gpt_configs[(int)c->c]);
    if (!m) return NULL;
    nn_tensor *ts[64];
    int k = 0;
    ts[k++] = nn_module_param(m->children[0].m, "weight");
    ts[k++] = nn_module_param(m->children[1].m, "weight");
    nn_module *blocks = m->children[3].m;
    for (int l = 0; l < blocks->n_children; l++) {
        nn_module *b = blocks->children[l].m, *attn = b->children[1].m, *mlp = b->children[3].m;
        nn_module *lins[4] = {attn->children[0].m, attn->children[1].m, mlp->children[0].m,
                              mlp->children[2].m};
        for (int i = 0; i < 4; i++) {
            ts[k++] = lins[i]->params[0].t;
            if (lins[i]->params[1].t) ts[k++] = lins[i]->params[1].t;
        }
    }
    ts[k++] = nn_module_param(m->children[5].m, "weight");
    nn_tensor *flat[64];
    for (int i = 0; i < k; i++)
        flat[i] = nn_reshape(ctx, ts[i], 1, TU_SHAPE(nn_tensor_numel(ts[i])));
    nn_tensor *out = nn_cat(ctx, flat, k, 0);
    for (int i = 0; i < k; i++) nn_tensor_release(flat[i]);
    nn_module_release(m);
    return out;
}

static nn_tensor *run_init(nn_ctx *ctx, const rcase *c) {
    nn_ctx_seed(ctx, c->seed);
    if (!strcmp(c->op, "gpt")) return run_gpt(ctx, c);
    int64_t r = (int64_t)c->a, k = (int64_t)c->b;
    if (!strcmp(c->op, "linear")) {
        nn_module *m = nn_module_linear(ctx, k, r, true);
        nn_tensor *w = nn_reshape(ctx, nn_module_param(m, "weight"), 1, TU_SHAPE(r * k));
        nn_tensor *parts[2] = {w, nn_module_param(m, "bias")};
        nn_tensor *out = nn_cat(ctx, parts, 2, 0);
        nn_tensor_release(w);
        nn_module_release(m);
        return out;
    }
    if (!strcmp(c->op, "embedding")) {
        nn_module *m = nn_module_embedding(ctx, r, k);
        nn_tensor *out = nn_tensor_retain(nn_module_param(m, "weight"));
        nn_module_release(m);
        return out;
    }
    nn_tensor *w = nn_tensor_empty(ctx, NN_FLOAT32, 2, TU_SHAPE(r, k));
    nn_status st = NN_OK;
    if (!strcmp(c->op, "kaiming_uniform"))
        st = nn_init_kaiming_uniform_(ctx, w, sqrt(5.0), NN_INIT_FAN_IN, "leaky_relu");
    else if (!strcmp(c->op, "kaiming_normal"))
        st = nn_init_kaiming_normal_(ctx, w, 0, NN_INIT_FAN_OUT, "relu");
    else if (!strcmp(c->op, "xavier_uniform"))
        st = nn_init_xavier_uniform_(ctx, w, 5.0 / 3);
    else if (!strcmp(c->op, "xavier_normal"))
        st = nn_init_xavier_normal_(ctx, w, 1.0);
    else if (!strcmp(c->op, "init_uniform"))
        st = nn_init_uniform_(ctx, w, -0.1, 0.2);
    else if (!strcmp(c->op, "init_normal"))
        st = nn_init_normal_(ctx, w, 0.0, 0.02);
    else if (!strcmp(c->op, "trunc_normal"))
        st = nn_init_trunc_normal_(ctx, w, 0.0, 0.02, -2.0, 2.0);
    else if (!strcmp(c->op, "trunc_normal_wide"))
        st = nn_init_trunc_normal_(ctx, w, 0.5, 1.0, -1.0, 1.5);
    else
        st = NN_ERR_VALUE;
    if (st) {
        nn_tensor_release(w);
        return NULL;
    }
    return w;
}

/* The torch-mode DataLoader: see ref_random.py's "loader" cases. */
static nn_tensor *run_loader(nn_ctx *ctx, const rcase *c) {
    int flags = (int)c->b;
    nn_ctx_seed(ctx, c->seed);
    nn_rng g;
    nn_rng_seed(&g, c->seed + 1);
    nn_dataset *ds = nn_data_spirals(ctx, c->n, 2, 0.1, 0);
    if (!ds) return NULL;
    nn_loader_config cfg = {.batch_size = (int64_t)c->a,
                            .shuffle = flags & 1,
                            .drop_last = (flags & 2) != 0,
                            .torch_rng = true,
                            .generator = (flags & 4) ? &g : NULL};
    nn_loader *l = nn_loader_new(ctx, ds, &cfg);
    double seen[200];
    int k = 0;
    nn_loader_batch b = {0};
    for (int epoch = 0; l && epoch < 2; epoch++) {
        nn_loader_start(ctx, l);
        while (nn_loader_next(ctx, l, &b))
            for (int64_t i = 0; i < b.size; i++) seen[k++] = nn_tensor_get_flat(b.index, i);
    }
    nn_loader_batch_clear(&b);
    nn_loader_free(l);
    nn_data_free(ds);
    nn_tensor *r = nn_rand(ctx, NN_FLOAT64, 1, TU_SHAPE(2));
    for (int i = 0; i < 2; i++) seen[k++] = nn_tensor_get_flat(r, i);
    nn_tensor_release(r);
    if (flags & 4) {
        r = nn_rand_gen(ctx, &g, NN_FLOAT64, 1, TU_SHAPE(2));
        for (int i = 0; i < 2; i++) seen[k++] = nn_tensor_get_flat(r, i);
        nn_tensor_release(r);
    }
    return nn_tensor_from_doubles(ctx, NN_FLOAT64, 1, TU_SHAPE(k), seen);
}

/* nndb's result for [c] as bytes; NULL for an op this file does not know. */
static uint8_t *run_case(nn_ctx *ctx, const rcase *c, size_t *len) {
    nn_dtype dt = dtype_of(c->dt);
    nn_rng g;
    nn_rng_seed(&g, c->seed);
    nn_tensor *out = NULL, *base = NULL;
    const char *op = c->op;
    if (!strcmp(op, "rand"))
        out = nn_rand_gen(ctx, &g, dt, 1, &c->n);
    else if (!strcmp(op, "randn"))
        out = nn_randn_gen(ctx, &g, dt, 1, &c->n);
    else if (!strcmp(op, "uniform")) {
        out = empty1(ctx, dt, c->n);
        nn_tensor_uniform_gen_(ctx, out, c->a, c->b, &g);
    } else if (!strcmp(op, "normal")) {
        out = empty1(ctx, dt, c->n);
        nn_tensor_normal_gen_(ctx, out, c->a, c->b, &g);
    } else if (!strcmp(op, "exponential")) {
        out = empty1(ctx, dt, c->n);
        nn_tensor_exponential_(ctx, out, c->a, &g);
    } else if (!strcmp(op, "bernoulli_")) {
        out = empty1(ctx, dt, c->n);
        nn_tensor_bernoulli_(ctx, out, c->a, &g);
    } else if (!strcmp(op, "bernoulli")) {
        nn_tensor *p = nn_rand_gen(ctx, &g, dt, 1, &c->n);
        out = nn_bernoulli(ctx, p, &g);
        nn_tensor_release(p);
    } else if (!strcmp(op, "randint"))
        out = nn_randint_gen(ctx, &g, (int64_t)c->a, (int64_t)c->b, NN_INT64, 1, &c->n);
    else if (!strcmp(op, "randperm"))
        out = nn_randperm(ctx, &g, c->n, NN_INT64);
    else if (!strcmp(op, "rand_t")) {
        out = transposed(ctx, dt, (int64_t)c->a, (int64_t)c->b, &base);
        nn_tensor_uniform_gen_(ctx, out, 0, 1, &g);
    } else if (!strcmp(op, "randn_t")) {
        out = transposed(ctx, dt, (int64_t)c->a, (int64_t)c->b, &base);
        nn_tensor_normal_gen_(ctx, out, 0, 1, &g);
    } else if (!strcmp(op, "randn_col")) {
        int64_t r = (int64_t)c->a, k = (int64_t)c->b;
        base = nn_tensor_empty(ctx, dt, 2, TU_SHAPE(r, k));
        out = nn_tensor_view_raw(ctx, base, 1, &r, &k, 1 % k);
        nn_tensor_normal_gen_(ctx, out, 0, 1, &g);
    } else if (!strcmp(op, "multinomial")) {
        int64_t rows = (int64_t)c->a, k = (int64_t)c->b;
        nn_tensor *p =
            rows ? nn_rand_gen(ctx, &g, dt, 2, TU_SHAPE(rows, k)) : nn_rand_gen(ctx, &g, dt, 1, &k);
        out = nn_multinomial(ctx, p, c->n, c->c != 0, &g);
        nn_tensor_release(p);
    } else if (!strcmp(op, "dropout")) {
        nn_ctx_seed(ctx, c->seed);
        nn_tensor *x = nn_ones(ctx, dt, 1, &c->n);
        out = nn_dropout(ctx, x, c->a, true);
        nn_tensor_release(x);
    } else if (!strcmp(op, "state")) {
        nn_tensor *t = nn_randn_gen(ctx, &g, NN_FLOAT64, 1, TU_SHAPE((int64_t)c->a));
        nn_tensor *u = nn_rand_gen(ctx, &g, NN_FLOAT32, 1, TU_SHAPE((int64_t)c->b));
        nn_tensor_release(t);
        nn_tensor_release(u);
        uint8_t *st = malloc(NN_RNG_STATE_BYTES);
        nn_rng_get_state(&g, st);
        *len = NN_RNG_STATE_BYTES;
        return st;
    } else if (!strcmp(op, "mix")) {
        nn_ctx_seed(ctx, c->seed);
        nn_tensor *parts[6];
        parts[0] = nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
        parts[1] = nn_rand(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
        parts[2] = nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(20));
        nn_tensor *d = nn_randn(ctx, NN_FLOAT64, 1, TU_SHAPE(1));
        parts[3] = nn_to(ctx, d, NN_FLOAT32);
        nn_tensor *i = nn_randint(ctx, 0, 100, 1, TU_SHAPE(4));
        parts[4] = nn_to(ctx, i, NN_FLOAT32);
        parts[5] = nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(5));
        out = nn_cat(ctx, parts, 6, 0);
        for (int k = 0; k < 6; k++) nn_tensor_release(parts[k]);
        nn_tensor_release(d);
        nn_tensor_release(i);
    } else if (!strcmp(op, "loader")) {
        out = run_loader(ctx, c);
    } else {
        out = run_init(ctx, c);
        if (!out) return NULL;
    }
    if (!out) return NULL;
    uint8_t *bytes = bytes_of(ctx, &out, 1, len);
    nn_tensor_release(out);
    nn_tensor_release(base);
    return bytes;
}

static uint8_t *read_bin(const char *dir, const char *id, size_t *len) {
    char path[600];
    snprintf(path, sizeof path, "%s/random/%s.bin", dir, id);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

NN_TEST(random_torch_streams) {
    const char *dir = getenv("NNDB_REF_DIR");
    if (!dir) dir = "build/ref";
    char path[600];
    snprintf(path, sizeof path, "%s/random.txt", dir);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "missing %s: run tests/torch/ref_random.py (make test does)", path);
    if (!f) return;
    nn_ctx *ctx = nn_ctx_new(0);
    rcase c;
    int cases = 0, failed = 0;
    unsigned long long seed;
    long long n;
    while (fscanf(f, "%15s %31s %7s %llu %lld %lf %lf %lf", c.id, c.op, c.dt, &seed, &n, &c.a, &c.b,
                  &c.c) == 8) {
        c.seed = seed;
        c.n = n;
        cases++;
        size_t want_len = 0, got_len = 0;
        uint8_t *want = read_bin(dir, c.id, &want_len);
        uint8_t *got = run_case(ctx, &c, &got_len);
        bool ok = want && got && want_len == got_len && !memcmp(want, got, want_len);
        if (!ok && failed++ < 100) {
            size_t at = 0;
            while (want && got && at < want_len && at < got_len && want[at] == got[at]) at++;
            fprintf(stderr,
                    "  case %s %s %s seed=%llu n=%lld a=%g b=%g c=%g: %s (byte %zu of %zu)%s%s\n",
                    c.id, c.op, c.dt, seed, n, c.a, c.b, c.c,
                    !got                  ? "nndb failed"
                    : want_len != got_len ? "length differs"
                                          : "bytes differ",
                    at, want_len, ctx->err.code ? ": " : "", nn_ctx_error(ctx));
        }
        nn_ctx_clear_error(ctx);
        free(want);
        free(got);
    }
    fclose(f);
    nn_ctx_free(ctx);
    CHECK_MSG(cases > 1000, "only %d cases read from %s", cases, path);
    CHECK_MSG(failed == 0, "%d of %d random cases differ from PyTorch", failed, cases);
}

NN_TEST(random_state_round_trip) {
    nn_rng a, b;
    nn_rng_seed(&a, 2147483647);
    for (int i = 0; i < 1000; i++) nn_rng_next32(&a);
    (void)nn_rng_normal(&a); /* leaves a spare */
    uint8_t st[NN_RNG_STATE_BYTES];
    nn_rng_get_state(&a, st);
    nn_rng_seed(&b, 1);
    CHECK(nn_rng_set_state(&b, st, sizeof st));
    CHECK(b.seed == 2147483647);
    CHECK(nn_rng_normal(&a) == nn_rng_normal(&b)); /* the spare travelled */
    for (int i = 0; i < 2000; i++) CHECK(nn_rng_next32(&a) == nn_rng_next32(&b));
    /* A wrong size or a bad 'left' field is refused and changes nothing. */
    nn_rng before = b;
    CHECK(!nn_rng_set_state(&b, st, sizeof st - 1));
    st[8] = 0, st[9] = 0, st[10] = 0, st[11] = 0; /* left = 0 */
    CHECK(!nn_rng_set_state(&b, st, sizeof st));
    CHECK(!memcmp(&before, &b, sizeof b));
    nn_rng *h = nn_rng_new(NN_RNG_DEFAULT_SEED);
    CHECK(h && h->seed == 67280421310721ULL);
    nn_rng_free(h);
}

NN_TEST(random_errors_are_reported) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *p = nn_tensor_from_doubles(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(0.2, -1, 0.5));
    CHECK(nn_multinomial(ctx, p, 1, true, NULL) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    nn_ctx_clear_error(ctx);
    nn_tensor *z = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    CHECK(nn_multinomial(ctx, z, 1, true, NULL) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    nn_ctx_clear_error(ctx);
    nn_tensor *q = nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    CHECK(nn_multinomial(ctx, q, 4, false, NULL) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    nn_ctx_clear_error(ctx);
    CHECK(nn_randperm(ctx, NULL, -1, NN_INT64) == NULL && ctx->err.code == NN_ERR_VALUE);
    nn_ctx_clear_error(ctx);
    CHECK(nn_tensor_bernoulli_(ctx, q, 1.5, NULL) == NN_ERR_VALUE);
    nn_ctx_clear_error(ctx);
    CHECK(nn_tensor_exponential_(ctx, q, 0, NULL) == NN_ERR_VALUE);
    nn_ctx_clear_error(ctx);
    nn_tensor *two = nn_full(ctx, NN_FLOAT32, 1, TU_SHAPE(2), 2.0);
    CHECK(nn_bernoulli(ctx, two, NULL) == NULL && ctx->err.code == NN_ERR_VALUE);
    nn_tensor *ts[] = {p, z, q, two};
    for (int i = 0; i < 4; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}
