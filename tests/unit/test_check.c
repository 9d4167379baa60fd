/* The training instruments in the engine: gradcheck (a right and a
 * deliberately wrong derivative, sampling, projection), summaries, the
 * activation capture, batch dependencies, the profiler's FLOP and byte
 * counts against hand-computed values, kept optimizer updates, and
 * module.to(dtype). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_check.h"
#include "nn_module.h"
#include "nn_optim.h"
#include "nn_profile.h"
#include "testutil.h"

/* ---- gradcheck ---- */

typedef struct fn_arg {
    nn_tensor *x, *w;
    bool wrong;
} fn_arg;

/* tanh(x @ w) (or the wrong-gradient square of x, then @ w). */
static nn_tensor *mlp_fn(nn_ctx *ctx, void *user) {
    fn_arg *a = user;
    nn_tensor *h = a->wrong ? nn_test_wrong_grad(ctx, a->x) : nn_tensor_retain(a->x);
    if (!h) return NULL;
    nn_tensor *y = nn_matmul(ctx, h, a->w);
    nn_tensor_release(h);
    if (!y) return NULL;
    nn_tensor *t = nn_tanh(ctx, y);
    nn_tensor_release(y);
    return t;
}

static nn_tensor *leaf64(nn_ctx *ctx, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, ndim, shape);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

NN_TEST(check_gradcheck_passes_a_right_backward) {
    nn_ctx *ctx = nn_ctx_new(1);
    fn_arg a = {leaf64(ctx, 2, TU_SHAPE(3, 4)), leaf64(ctx, 2, TU_SHAPE(4, 2)), false};
    nn_tensor *ts[2] = {a.x, a.w};
    const char *names[2] = {"x", "w"};
    nn_gradcheck_result r;
    CHECK(nn_gradcheck(ctx, mlp_fn, &a, ts, names, 2, NULL, &r) == NN_OK);
    CHECK(r.pass && r.n == 2 && r.projected);
    CHECK(r.entries[0].checked == 12 && r.entries[1].checked == 8);
    CHECK_MSG(r.entries[0].max_abs < 1e-8, "max abs %g", r.entries[0].max_abs);
    CHECK(!strcmp(r.entries[1].name, "w") && r.entries[1].shape[0] == 4);
    /* 1 analytic pass + 2 per entry */
    CHECK_MSG(r.f_calls == 1 + 2 * 20, "calls %lld", (long long)r.f_calls);
    /* gradients are left as they were: none */
    CHECK(!a.x->grad && !a.w->grad);
    nn_gradcheck_result_free(&r);
    nn_tensor_release(a.x);
    nn_tensor_release(a.w);
    nn_ctx_free(ctx);
}

NN_TEST(check_gradcheck_names_the_wrong_entry) {
    nn_ctx *ctx = nn_ctx_new(2);
    fn_arg a = {leaf64(ctx, 2, TU_SHAPE(2, 3)), leaf64(ctx, 2, TU_SHAPE(3, 2)), true};
    nn_tensor *ts[2] = {a.x, a.w};
    const char *names[2] = {"x", "w"};
    nn_gradcheck_result r;
    CHECK(nn_gradcheck(ctx, mlp_fn, &a, ts, names, 2, NULL, &r) == NN_OK);
    CHECK(!r.pass);
    CHECK(!r.entries[0].pass && r.entries[1].pass);
    /* the op's backward adds 1 at flat element 2: x[0, 2] */
    CHECK_MSG(r.entries[0].worst == 2, "worst %lld", (long long)r.entries[0].worst);
    CHECK(fabs(r.entries[0].analytic - r.entries[0].numeric) > 0.01);
    nn_gradcheck_result_free(&r);
    /* With samples=2 of 6 entries only some are checked, chosen by the seed. */
    nn_gradcheck_opts o = nn_gradcheck_defaults();
    o.samples = 2;
    o.seed = 7;
    CHECK(nn_gradcheck(ctx, mlp_fn, &a, ts, names, 2, &o, &r) == NN_OK);
    CHECK(r.entries[0].checked == 2 && r.entries[1].checked == 2);
    int64_t w1 = r.entries[0].worst;
    nn_gradcheck_result_free(&r);
    CHECK(nn_gradcheck(ctx, mlp_fn, &a, ts, names, 2, &o, &r) == NN_OK);
    CHECK(r.entries[0].worst == w1); /* same seed, same samples */
    nn_gradcheck_result_free(&r);
    nn_tensor_release(a.x);
    nn_tensor_release(a.w);
    nn_ctx_free(ctx);
}

NN_TEST(check_gradcheck_rejects_float32_and_restores_values) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *x32 = nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor_requires_grad_(ctx, x32, true);
    fn_arg a = {x32, NULL, false};
    const char *names[1] = {"x"};
    nn_gradcheck_result r;
    CHECK(nn_gradcheck(ctx, mlp_fn, &a, &x32, names, 1, NULL, &r) == NN_ERR_TYPE);
    CHECK(strstr(nn_ctx_error(ctx), "float64"));
    nn_tensor_release(x32);
    nn_ctx_free(ctx);
}

/* ---- summaries ---- */

NN_TEST(check_summary_hand_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(5), TU_VALS(1, 2, 3, 4, NAN));
    nn_summary s;
    nn_summarize(t, &s);
    CHECK(s.n == 4 && s.nonfinite == 1);
    CHECK(fabs(s.mean - 2.5) < 1e-12);
    CHECK(fabs(s.std - sqrt(5.0 / 3.0)) < 1e-12); /* Bessel: sum of squares 5 over 3 */
    CHECK(s.min == 1 && s.max == 4);
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* ---- capture and dependencies ---- */

typedef struct mod_arg {
    nn_module *m;
    nn_tensor *x;
    nn_tensor **xcopy;
    int leak; /* 0 clean, 1 a transpose across the batch, 2 batch normalisation */
} mod_arg;

static nn_tensor *mod_fn(nn_ctx *ctx, void *user) {
    mod_arg *a = user;
    nn_tensor *x = a->xcopy && *a->xcopy ? *a->xcopy : a->x;
    nn_tensor *in = NULL;
    if (a->leak == 1) {
        nn_tensor *r = nn_reshape(ctx, x, 2, TU_SHAPE(x->shape[1], x->shape[0]));
        in = r ? nn_transpose(ctx, r, 0, 1) : NULL;
        nn_tensor_release(r);
    } else if (a->leak == 2) {
        nn_tensor *mu = nn_mean(ctx, x, TU_SHAPE(0), 1, true);
        in = mu ? nn_sub(ctx, x, mu) : NULL;
        nn_tensor_release(mu);
    } else {
        in = nn_tensor_retain(x);
    }
    if (!in) return NULL;
    nn_tensor *y = nn_module_forward(ctx, a->m, in, "model");
    nn_tensor_release(in);
    return y;
}

NN_TEST(check_capture_keeps_each_module_output) {
    nn_ctx *ctx = nn_ctx_new(4);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(4, 8, 3), 3, NN_MODULE_TANH);
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(5, 4));
    nn_capture c;
    CHECK(nn_capture_start(ctx, &c, true) == NN_OK);
    mod_arg a = {m, x, NULL, 0};
    nn_tensor *y = mod_fn(ctx, &a);
    nn_tensor *s = nn_sum(ctx, y, NULL, 0, false);
    CHECK(nn_backward(ctx, s, NULL, false) == NN_OK);
    nn_capture_stop(&c);
    CHECK_MSG(c.n == 3, "%d paths", c.n);
    CHECK(!strcmp(c.items[0].module, "model.0") && c.items[0].op == NN_OP_LINEAR);
    CHECK(!strcmp(c.items[1].module, "model.1") && c.items[1].op == NN_OP_TANH);
    CHECK(c.items[1].out->shape[1] == 8 && c.items[2].out->shape[1] == 3);
    /* d sum / d output of the last layer is all ones */
    CHECK(c.items[2].grad && nn_tensor_get_flat(c.items[2].grad, 4) == 1.0);
    CHECK(tu_close_tensor(c.items[2].out, y, 0, 0, "last output is the model's"));
    nn_capture_free(&c);
    nn_tensor_release(s);
    nn_tensor_release(y);
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

static void deps(nn_ctx *ctx, nn_module *m, nn_tensor *x, int leak, nn_dependency_result *r) {
    nn_tensor *xc = NULL;
    mod_arg a = {m, x, &xc, leak};
    NN_ASSERT(nn_dependencies(ctx, mod_fn, &a, x, 1, &xc, r) == NN_OK);
}

NN_TEST(check_dependencies_clean_and_planted_leaks) {
    nn_ctx *ctx = nn_ctx_new(5);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(4, 6, 2), 3, NN_MODULE_RELU);
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(4, 4));
    nn_dependency_result r;
    deps(ctx, m, x, 0, &r);
    CHECK_MSG(r.n_rows == 0, "clean model leaks %lld rows", (long long)r.n_rows);
    CHECK(r.row_norm[1] > 0);
    nn_dependency_result_free(&r);
    deps(ctx, m, x, 2, &r); /* x - x.mean(0): every row */
    CHECK(r.n_rows == 3 && r.rows[0] == 0 && r.rows[1] == 2 && r.rows[2] == 3);
    nn_dependency_result_free(&r);
    /* x.reshape(4, 4).t(): row 1 of the input to the model is column 1 of
     * x, one element from every row */
    deps(ctx, m, x, 1, &r);
    CHECK(r.n_rows == 3);
    nn_dependency_result_free(&r);
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

static nn_tensor *gpt_fn(nn_ctx *ctx, void *user) {
    mod_arg *a = user;
    return nn_module_forward(ctx, a->m, a->x, "model");
}

NN_TEST(check_dependencies_of_token_ids_through_the_embedding) {
    nn_ctx *ctx = nn_ctx_new(6);
    nn_gpt_config cfg = nn_gpt_config_default();
    cfg.vocab_size = 16, cfg.block_size = 8, cfg.n_layer = 1, cfg.n_head = 2, cfg.n_embd = 8;
    nn_module *m = nn_module_gpt(ctx, &cfg);
    nn_tensor *x = nn_randint(ctx, 0, 16, 2, TU_SHAPE(3, 5));
    nn_dependency_result r;
    nn_tensor *xc = NULL;
    mod_arg a = {m, x, NULL, 0};
    CHECK(nn_dependencies(ctx, gpt_fn, &a, x, 2, &xc, &r) == NN_OK);
    CHECK(r.n_rows == 0 && r.row_norm[2] > 0 && r.row_norm[0] == 0);
    nn_dependency_result_free(&r);
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

/* ---- costs ---- */

static void cost_of(nn_ctx *ctx, nn_tensor *out, nn_op op, nn_op_cost *c) {
    NN_ASSERT(out && out->grad_fn && out->grad_fn->op == op);
    nn_node_cost(out->grad_fn, out, NN_PHASE_FORWARD, c);
}

NN_TEST(check_costs_hand_computed) {
    nn_ctx *ctx = nn_ctx_new(7);
    nn_op_cost c;
    nn_tensor *a = leaf64(ctx, 2, TU_SHAPE(3, 4)), *b = leaf64(ctx, 2, TU_SHAPE(4, 5));
    nn_tensor *y = nn_matmul(ctx, a, b);
    cost_of(ctx, y, NN_OP_MATMUL, &c);
    CHECK(c.flops == 2 * 3 * 4 * 5);
    CHECK(c.bytes_read == (12 + 20) * 8 && c.bytes_written == 15 * 8);
    nn_node_cost(y->grad_fn, y, NN_PHASE_BACKWARD, &c);
    CHECK(c.flops == 2 * (2 * 3 * 4 * 5));
    CHECK(c.bytes_read == (15 + 20 + 12) * 8 && c.bytes_written == (12 + 20) * 8);
    nn_tensor_release(y);
    /* linear: x [2, 3], W [4, 3], b [4]: 2*8*3 + 8 */
    nn_tensor *x = leaf64(ctx, 2, TU_SHAPE(2, 3)), *w = leaf64(ctx, 2, TU_SHAPE(4, 3));
    nn_tensor *bias = leaf64(ctx, 1, TU_SHAPE(4));
    y = nn_linear(ctx, x, w, bias);
    cost_of(ctx, y, NN_OP_LINEAR, &c);
    CHECK(c.flops == 2 * 8 * 3 + 8);
    nn_node_cost(y->grad_fn, y, NN_PHASE_BACKWARD, &c);
    CHECK(c.flops == 2 * 8 * 3 * 2 + 8);
    nn_tensor_release(y);
    /* elementwise: one per output element; broadcasting counts the output */
    y = nn_mul(ctx, a, a);
    nn_tensor_release(a);
    cost_of(ctx, y, NN_OP_MUL, &c);
    CHECK(c.flops == 12 && c.bytes_written == 96);
    nn_tensor_release(y);
    nn_tensor_release(x);
    nn_tensor *row = leaf64(ctx, 1, TU_SHAPE(3));
    y = nn_add(ctx, w, row);
    cost_of(ctx, y, NN_OP_ADD, &c);
    CHECK(c.flops == 12 && c.bytes_read == (12 + 3) * 8);
    nn_tensor_release(y);
    nn_tensor_release(row);
    /* layer_norm over the last dim of [4, 3] with weight and bias: 6*12 + 4 + 12 + 12 */
    nn_tensor *lw = leaf64(ctx, 1, TU_SHAPE(3)), *lb = leaf64(ctx, 1, TU_SHAPE(3));
    y = nn_layer_norm(ctx, w, 1, lw, lb, 1e-5);
    cost_of(ctx, y, NN_OP_LAYER_NORM, &c);
    CHECK_MSG(c.flops == 6 * 12 + 4 + 12 + 12, "layer_norm %g", c.flops);
    nn_tensor_release(y);
    nn_tensor_release(lw);
    nn_tensor_release(lb);
    /* cross_entropy of [4, 3] logits and 4 targets: 5*12 + 2*4 */
    nn_tensor *tgt = nn_randint(ctx, 0, 3, 1, TU_SHAPE(4));
    y = nn_cross_entropy(ctx, w, tgt, -100, 0, NN_REDUCTION_MEAN);
    cost_of(ctx, y, NN_OP_CROSS_ENTROPY, &c);
    CHECK(c.flops == 5 * 12 + 2 * 4);
    CHECK(c.bytes_read == 12 * 8 + 4 * 8 && c.bytes_written == 8);
    nn_tensor_release(y);
    nn_tensor_release(tgt);
    /* attention, 2 heads, T = S = 4, D = 3: per head 2*4*4*3 + 6*16 + 2*4*4*3 */
    nn_tensor *q = leaf64(ctx, 3, TU_SHAPE(2, 4, 3));
    y = nn_scaled_dot_product_attention(ctx, q, q, q, true, 0);
    cost_of(ctx, y, NN_OP_SDPA, &c);
    CHECK_MSG(c.flops == 2 * (96 + 96 + 96), "sdpa %g", c.flops);
    nn_tensor_release(y);
    /* a view moves nothing; a reduction reads n */
    y = nn_transpose(ctx, q, 1, 2);
    cost_of(ctx, y, NN_OP_PERMUTE, &c);
    CHECK(c.flops == 0 && c.bytes_read == 0 && c.bytes_written == 0);
    nn_tensor_release(y);
    y = nn_mean(ctx, q, NULL, 0, false);
    cost_of(ctx, y, NN_OP_MEAN, &c);
    CHECK(c.flops == 24 + 1);
    nn_tensor_release(y);
    nn_tensor_release(q);
    nn_tensor_release(w);
    nn_tensor_release(bias);
    nn_tensor_release(b);
    nn_ctx_free(ctx);
}

/* ---- profiler ---- */

NN_TEST(check_profile_counts_forward_and_backward) {
    nn_ctx *ctx = nn_ctx_new(8);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(4, 8, 3), 3, NN_MODULE_TANH);
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(5, 4));
    nn_profile *p = nn_profile_start(ctx);
    CHECK(p != NULL);
    for (int step = 0; step < 2; step++) {
        nn_tensor *y = nn_module_forward(ctx, m, x, "model");
        nn_tensor *s = nn_sum(ctx, y, NULL, 0, false);
        CHECK(nn_backward(ctx, s, NULL, false) == NN_OK);
        nn_tensor_release(s);
        nn_tensor_release(y);
    }
    nn_profile_stop(p);
    nn_profile_row *rows;
    int n = nn_profile_rows(p, false, &rows);
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(rows[i].key, "linear") && rows[i].phase == NN_PHASE_FORWARD) {
            CHECK(rows[i].calls == 4);
            CHECK(rows[i].flops == 2 * ((2 * 40 * 4 + 40) + (2 * 15 * 8 + 15)));
            found++;
        }
        if (!strcmp(rows[i].key, "tanh") && rows[i].phase == NN_PHASE_BACKWARD) {
            CHECK(rows[i].calls == 2 && rows[i].flops == 2 * 40);
            found++;
        }
        if (i) CHECK(rows[i - 1].seconds >= rows[i].seconds);
    }
    CHECK(found == 2);
    free(rows);
    n = nn_profile_rows(p, true, &rows);
    found = 0;
    for (int i = 0; i < n; i++) found += !strcmp(rows[i].key, "model.1");
    CHECK(found == 2); /* forward and backward */
    free(rows);
    CHECK(nn_profile_seconds(p, NN_PHASE_FORWARD) > 0);
    nn_profile_free(p);
    CHECK(ctx->n_hooks == 0);
    CHECK(nn_sgemm_peak_gflops(ctx) > 0);
    nn_tensor_release(x);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

/* ---- kept updates and dtype conversion ---- */

NN_TEST(check_optim_keeps_last_update) {
    nn_ctx *ctx = nn_ctx_new(9);
    nn_tensor *p = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(1, 2, 3));
    nn_tensor_requires_grad_(ctx, p, true);
    nn_optim *o = nn_optim_sgd(ctx, &p, 1, 0.5, 0, 0, 0, false);
    CHECK(!nn_optim_last_update(o, 0));
    CHECK(nn_optim_keep_updates(ctx, o, true) == NN_OK);
    p->grad = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(1, -2, 4));
    CHECK(!nn_optim_last_update(o, 0));
    CHECK(nn_optim_step(ctx, o) == NN_OK);
    nn_tensor *u = nn_optim_last_update(o, 0);
    CHECK(u && tu_close(u, 1, TU_SHAPE(3), TU_VALS(-0.5, 1, -2), 0, 0, "update"));
    CHECK(tu_close(p, 1, TU_SHAPE(3), TU_VALS(0.5, 3, 1), 0, 0, "param"));
    nn_optim_keep_updates(ctx, o, false);
    CHECK(!nn_optim_last_update(o, 0));
    nn_optim_free(o);
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}

NN_TEST(check_module_to_dtype_round_trip) {
    nn_ctx *ctx = nn_ctx_new(10);
    nn_module *m = nn_module_mlp(ctx, TU_SHAPE(3, 4, 2), 3, NN_MODULE_RELU);
    nn_tensor *w = nn_module_find_tensor(ctx, m, "0.weight");
    nn_tensor *before = nn_tensor_cast_raw(ctx, w, NN_FLOAT64);
    nn_tensor **ps;
    int n;
    nn_module_parameters(ctx, m, &ps, &n);
    nn_optim *o = nn_optim_sgd(ctx, ps, n, 0.1, 0, 0, 0, false);
    CHECK(nn_module_to_dtype(ctx, m, NN_FLOAT64) == NN_OK);
    CHECK(w->dtype == NN_FLOAT64 && nn_module_find_tensor(ctx, m, "0.weight") == w);
    CHECK(tu_close_tensor(w, before, 0, 0, "float64 copy is exact"));
    CHECK(nn_optim_step(ctx, o) == NN_ERR_TYPE); /* made for float32 */
    CHECK(strstr(nn_ctx_error(ctx), "new optimizer"));
    CHECK(nn_module_to_dtype(ctx, m, NN_FLOAT32) == NN_OK);
    CHECK(w->dtype == NN_FLOAT32 && nn_optim_step(ctx, o) == NN_OK);
    CHECK(nn_module_to_dtype(ctx, m, NN_INT64) == NN_ERR_TYPE);
    free(ps);
    nn_optim_free(o);
    nn_tensor_release(before);
    nn_module_release(m);
    nn_ctx_free(ctx);
}

/* ---- in-place writes recorded by autograd (engine/nn_inplace.c) ---- */

typedef struct put_arg {
    nn_tensor *a, *v, *idx;
} put_arg;

/* tanh(put(a * 1, v, idx)) * a: the written and the kept positions both
 * carry gradient, and a repeated position keeps the last write. */
static nn_tensor *put_fn(nn_ctx *ctx, void *user) {
    put_arg *p = user;
    nn_tensor *h = nn_mul_scalar(ctx, p->a, 1.0);
    nn_tensor *r = h ? nn_put(ctx, h, p->v, p->idx) : NULL;
    nn_tensor *t = r ? nn_tanh(ctx, r) : NULL;
    nn_tensor *y = t ? nn_mul(ctx, t, p->a) : NULL;
    nn_tensor_release(h);
    nn_tensor_release(r);
    nn_tensor_release(t);
    return y;
}

NN_TEST(check_gradcheck_put) {
    nn_ctx *ctx = nn_ctx_new(3);
    int64_t pos[4] = {1, 4, 4, 7};
    put_arg p = {leaf64(ctx, 2, TU_SHAPE(3, 3)), leaf64(ctx, 1, TU_SHAPE(1)), NULL};
    p.idx = nn_tensor_from_data(ctx, NN_INT64, 1, TU_SHAPE(4), pos);
    nn_tensor *ts[2] = {p.a, p.v};
    const char *names[2] = {"a", "v"};
    nn_gradcheck_result r;
    CHECK(nn_gradcheck(ctx, put_fn, &p, ts, names, 2, NULL, &r) == NN_OK);
    CHECK_MSG(r.pass, "a %g v %g", r.entries[0].max_abs, r.entries[1].max_abs);
    nn_gradcheck_result_free(&r);
    /* a position outside the tensor is an IndexError, not a write */
    int64_t bad[1] = {9};
    nn_tensor *bi = nn_tensor_from_data(ctx, NN_INT64, 1, TU_SHAPE(1), bad);
    CHECK(nn_put(ctx, p.a, p.v, bi) == NULL && ctx->err.code == NN_ERR_INDEX);
    nn_tensor_release(bi);
    nn_tensor_release(p.a);
    nn_tensor_release(p.v);
    nn_tensor_release(p.idx);
    nn_ctx_free(ctx);
}

NN_TEST(check_inplace_rebase_keeps_earlier_uses) {
    /* h = x * 2; y = h * 3 (uses the old h); h += b (rebased); loss = y + h.
     * d loss/dx = 3*2 + 2, d loss/db = 1; and h's write does not disturb
     * the add node, whose backward reads no values. */
    nn_ctx *ctx = nn_ctx_new(4);
    nn_tensor *x = leaf64(ctx, 1, TU_SHAPE(3)), *b = leaf64(ctx, 1, TU_SHAPE(3));
    nn_tensor *h = nn_mul_scalar(ctx, x, 2.0);
    nn_tensor *y = nn_mul_scalar(ctx, h, 3.0);
    CHECK(nn_inplace_records(ctx, h, b));
    CHECK(nn_inplace_check(ctx, h, "add_") == NN_OK);
    nn_tensor *r = nn_add(ctx, h, b);
    CHECK(nn_tensor_assign_(ctx, h, r) == NN_OK);
    CHECK(h->grad_fn == r->grad_fn);
    nn_tensor_release(r);
    nn_tensor *loss = nn_add(ctx, y, h);
    nn_tensor *s = nn_sum(ctx, loss, NULL, 0, false);
    CHECK_MSG(nn_backward(ctx, s, NULL, false) == NN_OK, "%s", nn_ctx_error(ctx));
    for (int i = 0; i < 3 && nn_tensor_grad(x) && nn_tensor_grad(b); i++) {
        CHECK(nn_tensor_get_flat(nn_tensor_grad(x), i) == 8.0);
        CHECK(nn_tensor_get_flat(nn_tensor_grad(b), i) == 1.0);
    }
    /* a leaf that requires grad is refused with PyTorch's words */
    CHECK(nn_inplace_check(ctx, x, "add_") == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "leaf Variable that requires grad") != NULL);
    /* a write through a view of a tensor with history gives the base a
     * CopySlices history and the view an as_strided one of it (nn_inplace.c):
     * x.grad gains 2 where the base is 2x, 6 where the view tripled it */
    nn_tensor *h2 = nn_mul_scalar(ctx, x, 2.0);
    nn_tensor *v = nn_select(ctx, h2, 0, 1);
    CHECK(v->base == h2 && nn_tensor_is_view(v));
    CHECK(nn_inplace_check(ctx, v, "mul_") == NN_OK);
    r = nn_mul_scalar(ctx, v, 3.0);
    CHECK(nn_tensor_assign_(ctx, v, r) == NN_OK);
    nn_tensor_release(r);
    CHECK(h2->grad_fn && h2->grad_fn->op == NN_OP_PUT);
    CHECK(v->grad_fn && v->grad_fn->op == NN_OP_AS_STRIDED);
    nn_tensor *s3 = nn_sum(ctx, h2, NULL, 0, false);
    CHECK_MSG(nn_backward(ctx, s3, NULL, false) == NN_OK, "%s", nn_ctx_error(ctx));
    for (int i = 0; i < 3 && nn_tensor_grad(x); i++)
        CHECK(nn_tensor_get_flat(nn_tensor_grad(x), i) == (i == 1 ? 14.0 : 10.0));
    nn_tensor_release(s3);
    /* tanh's backward reads its output: changing it is reported */
    nn_tensor *t = nn_tanh(ctx, x);
    nn_tensor *one = nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(3));
    r = nn_add(ctx, t, one);
    CHECK(nn_tensor_assign_(ctx, t, r) == NN_OK);
    nn_tensor_release(r);
    nn_tensor *s2 = nn_sum(ctx, t, NULL, 0, false);
    CHECK(nn_backward(ctx, s2, NULL, false) == NN_ERR_RUNTIME);
    CHECK(strstr(nn_ctx_error(ctx), "modified by an inplace operation: the output of") != NULL);
    nn_tensor *ts[] = {x, b, h, y, loss, s, h2, v, t, one, s2};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}
