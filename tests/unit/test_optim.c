/* Optimizer and clip_grad_norm tests: runs against PyTorch references
 * (tests/torch/ref_optim.py), the no-allocation guarantee of step, state
 * inspection, and bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_mem.h"
#include "nn_optim.h"
#include "testutil.h"

/* ---- PyTorch reference runs ----
 * Inputs (see ref_optim.py): a0 [3,4], b0 [5], ga [S,3,4], gb [S,5] (a NaN
 * row: no gradient for b at that step), lr_scale [S]. */

/* A fresh contiguous copy of t[s] (or of t when s < 0). */
static nn_tensor *row_copy(nn_ctx *ctx, nn_tensor *t, int64_t s) {
    if (s < 0) return nn_tensor_from_data(ctx, t->dtype, t->ndim, t->shape, nn_tensor_data(t));
    size_t row = (size_t)t->strides[0] * nn_dtype_size(t->dtype);
    return nn_tensor_from_data(ctx, t->dtype, t->ndim - 1, t->shape + 1,
                               (char *)nn_tensor_data(t) + (size_t)s * row);
}

static void set_grad(nn_tensor *p, nn_tensor *g) {
    nn_tensor_clear_grad(p);
    p->grad = g;
}

static int put(double *vals, int k, const nn_tensor *t) {
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) vals[k++] = nn_tensor_get_flat(t, i);
    return k;
}

static nn_tensor *optim_run(nn_ctx *ctx, nn_tensor **in, const nn_optim_config *cfg) {
    nn_tensor *p[2] = {row_copy(ctx, in[0], -1), row_copy(ctx, in[1], -1)};
    nn_tensor_requires_grad_(ctx, p[0], true);
    nn_tensor_requires_grad_(ctx, p[1], true);
    nn_tensor *out = NULL;
    nn_optim *opt = nn_optim_new(ctx, p, 2, cfg);
    int64_t steps = in[2]->shape[0], na = nn_tensor_numel(p[0]), nb = nn_tensor_numel(p[1]);
    double *vals = calloc((size_t)((steps + 4) * (na + nb) + 2), sizeof(double));
    int k = 0;
    if (!opt) goto done;
    for (int64_t s = 0; s < steps; s++) {
        if (nn_optim_set_lr(ctx, opt, cfg->lr * nn_tensor_get_flat(in[4], s))) goto done;
        set_grad(p[0], row_copy(ctx, in[2], s));
        nn_tensor *gb = row_copy(ctx, in[3], s);
        if (isnan(nn_tensor_get_flat(gb, 0))) {
            nn_tensor_release(gb);
            gb = NULL;
        }
        set_grad(p[1], gb);
        if (nn_optim_step(ctx, opt)) goto done;
        k = put(vals, k, p[0]);
        k = put(vals, k, p[1]);
    }
    for (const char *const *name = nn_optim_state_names(opt); *name; name++) {
        for (int i = 0; i < 2; i++) {
            nn_tensor *st = nn_optim_state(ctx, opt, i, *name);
            if (!st) {
                fprintf(stderr, "  no state %s for parameter %d\n", *name, i);
                goto done;
            }
            k = put(vals, k, st);
            nn_tensor_release(st);
        }
    }
    if (cfg->kind != NN_OPTIM_SGD)
        for (int i = 0; i < 2; i++) vals[k++] = (double)nn_optim_param_steps(opt, i);
    int64_t len = k;
    out = nn_tensor_from_doubles(ctx, p[0]->dtype, 1, &len, vals);
done:
    free(vals);
    nn_optim_free(opt);
    nn_tensor_release(p[0]);
    nn_tensor_release(p[1]);
    return out;
}

static nn_optim_config sgd(double lr, double momentum, double dampening, double wd, bool nesterov) {
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_SGD);
    c.lr = lr, c.momentum = momentum, c.dampening = dampening, c.weight_decay = wd;
    c.nesterov = nesterov;
    return c;
}

static nn_optim_config adam(nn_optim_kind kind, double lr, double b1, double b2, double eps,
                            double wd, bool amsgrad) {
    nn_optim_config c = nn_optim_defaults(kind);
    c.lr = lr, c.beta1 = b1, c.beta2 = b2, c.eps = eps, c.weight_decay = wd, c.amsgrad = amsgrad;
    return c;
}

#define RUN_CASE(fname, cfg_expr)                                                                  \
    static nn_tensor *fname(nn_ctx *ctx, nn_tensor **in, void *arg) {                              \
        nn_optim_config c = cfg_expr;                                                              \
        return optim_run(ctx, in, &c);                                                             \
    }

#define ADAM  NN_OPTIM_ADAM
#define ADAMW NN_OPTIM_ADAMW
RUN_CASE(sgd_plain, sgd(0.1, 0, 0, 0, false))
RUN_CASE(sgd_momentum, sgd(0.1, 0.9, 0, 0, false))
RUN_CASE(sgd_dampening, sgd(0.1, 0.9, 0.3, 0, false))
RUN_CASE(sgd_nesterov, sgd(0.1, 0.9, 0, 0, true))
RUN_CASE(sgd_weight_decay, sgd(0.1, 0, 0, 0.05, false))
RUN_CASE(sgd_momentum_wd, sgd(0.05, 0.8, 0, 0.1, false))
RUN_CASE(sgd_nesterov_wd, sgd(0.05, 0.9, 0, 0.01, true))
RUN_CASE(adam_default, adam(ADAM, 1e-3, 0.9, 0.999, 1e-8, 0, false))
RUN_CASE(adam_lr, adam(ADAM, 0.05, 0.9, 0.999, 1e-8, 0, false))
RUN_CASE(adam_betas_eps, adam(ADAM, 0.02, 0.8, 0.95, 1e-3, 0, false))
RUN_CASE(adam_weight_decay, adam(ADAM, 0.02, 0.9, 0.999, 1e-8, 0.1, false))
RUN_CASE(adam_amsgrad, adam(ADAM, 0.02, 0.9, 0.999, 1e-8, 0, true))
RUN_CASE(adam_amsgrad_wd, adam(ADAM, 0.02, 0.9, 0.999, 1e-8, 0.05, true))
RUN_CASE(adam_beta1_zero, adam(ADAM, 0.02, 0.0, 0.9, 1e-8, 0, false))
RUN_CASE(adamw_default, adam(ADAMW, 1e-3, 0.9, 0.999, 1e-8, 1e-2, false))
RUN_CASE(adamw_lr_wd, adam(ADAMW, 0.05, 0.9, 0.999, 1e-8, 0.3, false))
RUN_CASE(adamw_amsgrad, adam(ADAMW, 0.02, 0.9, 0.999, 1e-8, 0.1, true))
RUN_CASE(adamw_no_decay, adam(ADAMW, 0.02, 0.9, 0.999, 1e-8, 0, false))
RUN_CASE(sgd_momentum_skip, sgd(0.1, 0.9, 0, 0, false))
RUN_CASE(adam_skip, adam(ADAM, 0.02, 0.9, 0.999, 1e-8, 0, false))
RUN_CASE(adam_lr_schedule, adam(ADAM, 0.05, 0.9, 0.999, 1e-8, 0, false))
RUN_CASE(sgd_lr_schedule, sgd(0.1, 0.9, 0, 0, false))

/* clip_grad_norm_: output [total, a.grad..., b.grad...]. */
static nn_tensor *clip_run(nn_ctx *ctx, nn_tensor **in, double max_norm, double norm_type) {
    nn_tensor *p[2] = {row_copy(ctx, in[0], -1), row_copy(ctx, in[1], -1)};
    set_grad(p[0], row_copy(ctx, in[2], -1));
    set_grad(p[1], row_copy(ctx, in[3], -1));
    nn_tensor *out = NULL;
    double total = -1, vals[1 + 12 + 5];
    if (!nn_clip_grad_norm(ctx, p, 2, max_norm, norm_type, &total)) {
        vals[0] = total;
        int k = put(vals, 1, p[0]->grad);
        k = put(vals, k, p[1]->grad);
        int64_t len = k;
        out = nn_tensor_from_doubles(ctx, p[0]->dtype, 1, &len, vals);
    }
    nn_tensor_release(p[0]);
    nn_tensor_release(p[1]);
    return out;
}

#define CLIP_CASE(fname, max_norm, norm_type)                                                      \
    static nn_tensor *fname(nn_ctx *ctx, nn_tensor **in, void *arg) {                              \
        return clip_run(ctx, in, max_norm, norm_type);                                             \
    }
CLIP_CASE(clip_l2, 1.0, 2.0)
CLIP_CASE(clip_inf, 0.5, INFINITY)
CLIP_CASE(clip_l2_noop, 100.0, 2.0)
CLIP_CASE(clip_l1, 2.0, 1.0)

#define REF(f)                                                                                     \
    { #f, f }
#define REF64(f)                                                                                   \
    { #f "_f64", f }

NN_TEST(optim_torch_refs) {
    static const tu_ref_fn table[] = {
        REF(sgd_plain),         REF(sgd_momentum),    REF(sgd_dampening),     REF(sgd_nesterov),
        REF(sgd_weight_decay),  REF(sgd_momentum_wd), REF(sgd_nesterov_wd),   REF(adam_default),
        REF(adam_lr),           REF(adam_betas_eps),  REF(adam_weight_decay), REF(adam_amsgrad),
        REF(adam_amsgrad_wd),   REF(adam_beta1_zero), REF(adamw_default),     REF(adamw_lr_wd),
        REF(adamw_amsgrad),     REF(adamw_no_decay),  REF64(sgd_nesterov_wd), REF64(sgd_dampening),
        REF64(adam_amsgrad_wd), REF64(adamw_amsgrad), REF(sgd_momentum_skip), REF(adam_skip),
        REF(adam_lr_schedule),  REF(sgd_lr_schedule), REF(clip_l2),           REF(clip_inf),
        REF(clip_l2_noop),      REF(clip_l1),
    };
    int failed = tu_run_torch_refs("optim", table, (int)(sizeof table / sizeof table[0]));
    CHECK_MSG(failed == 0, "%d optimizer reference cases failed", failed);
}

/* ---- behaviour ---- */

static nn_tensor *param(nn_ctx *ctx, int ndim, const int64_t *shape) {
    nn_tensor *p = nn_randn(ctx, NN_FLOAT32, ndim, shape);
    nn_tensor_requires_grad_(ctx, p, true);
    return p;
}

NN_TEST(optim_step_allocates_nothing) {
    nn_ctx *ctx = nn_ctx_new(1);
    nn_tensor *p[2] = {param(ctx, 2, TU_SHAPE(8, 16)), param(ctx, 1, TU_SHAPE(16))};
    nn_mem_stats before = nn_mem_get_stats();
    nn_optim *opt = nn_optim_adam(ctx, p, 2, 1e-2, 0.9, 0.999, 1e-8, 0.01, true);
    nn_mem_stats mid = nn_mem_get_stats();
    /* One block: a storage and the header of the tensor that owns it. */
    CHECK_MSG(mid.allocs - before.allocs == 2, "creation made %llu pool allocations",
              (unsigned long long)(mid.allocs - before.allocs));
    set_grad(p[0], nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(8, 16)));
    set_grad(p[1], nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(16)));
    mid = nn_mem_get_stats();
    for (int s = 0; s < 5; s++) CHECK(nn_optim_step(ctx, opt) == NN_OK);
    double total;
    CHECK(nn_clip_grad_norm(ctx, p, 2, 0.1, 2.0, &total) == NN_OK);
    nn_mem_stats after = nn_mem_get_stats();
    CHECK_MSG(after.allocs == mid.allocs, "step/clip made %llu pool allocations",
              (unsigned long long)(after.allocs - mid.allocs));
    CHECK(nn_optim_step_count(opt) == 5);
    CHECK(nn_optim_param_steps(opt, 1) == 5);
    nn_optim_free(opt);
    nn_tensor_release(p[0]);
    nn_tensor_release(p[1]);
    nn_ctx_free(ctx);
}

/* nn_optim_update (torch.optim's Python classes): the same update as a
 * whole optimizer, on state the caller keeps; checks before writing. */
NN_TEST(optim_update_per_tensor) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *p = param(ctx, 1, TU_SHAPE(4));
    nn_tensor *q = nn_tensor_from_data(ctx, NN_FLOAT32, 1, TU_SHAPE(4), nn_tensor_data(p));
    nn_tensor *g = nn_randn(ctx, NN_FLOAT32, 1, TU_SHAPE(4));
    set_grad(p, nn_tensor_contiguous_raw(ctx, g));
    nn_optim *opt = nn_optim_adam(ctx, &p, 1, 1e-2, 0.9, 0.999, 1e-8, 0.1, true);
    nn_tensor *st[3] = {nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4)),
                        nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4)),
                        nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4))};
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_ADAM);
    c.lr = 1e-2, c.weight_decay = 0.1, c.amsgrad = true;
    nn_mem_stats before = nn_mem_get_stats();
    for (int t = 1; t <= 3; t++) {
        CHECK(nn_optim_step(ctx, opt) == NN_OK);
        CHECK(nn_optim_update(ctx, &c, q, g, st, t) == NN_OK);
    }
    nn_mem_stats after = nn_mem_get_stats();
    CHECK(after.allocs == before.allocs);
    for (int i = 0; i < 4; i++) CHECK(nn_tensor_get_flat(p, i) == nn_tensor_get_flat(q, i));
    /* A missing or mismatched state is an error and writes nothing. */
    double q0 = nn_tensor_get_flat(q, 0);
    nn_tensor *bad[3] = {st[0], st[1], NULL};
    CHECK(nn_optim_update(ctx, &c, q, g, bad, 4) == NN_ERR_VALUE);
    CHECK(strstr(ctx->err.msg, "max_exp_avg_sq") != NULL);
    nn_tensor *short_st = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(3));
    nn_tensor *bad2[3] = {st[0], short_st, st[2]};
    CHECK(nn_optim_update(ctx, &c, q, g, bad2, 4) == NN_ERR_SHAPE);
    CHECK(nn_tensor_get_flat(q, 0) == q0);
    /* RMSprop and Adagrad run here only. */
    nn_optim_config r = nn_optim_defaults(NN_OPTIM_RMSPROP);
    r.momentum = 0.5, r.centered = true;
    CHECK(nn_optim_update(ctx, &r, q, g, st, 1) == NN_OK);
    nn_optim_config a = nn_optim_defaults(NN_OPTIM_ADAGRAD);
    CHECK(nn_optim_update(ctx, &a, q, g, st, 1) == NN_OK);
    CHECK(nn_optim_new(ctx, &q, 1, &a) == NULL);
    nn_tensor_release(short_st);
    for (int i = 0; i < 3; i++) nn_tensor_release(st[i]);
    nn_optim_free(opt);
    nn_tensor_release(g);
    nn_tensor_release(p);
    nn_tensor_release(q);
    nn_ctx_free(ctx);
}

NN_TEST(optim_zero_grad) {
    nn_ctx *ctx = nn_ctx_new(2);
    nn_tensor *p[2] = {param(ctx, 1, TU_SHAPE(4)), param(ctx, 1, TU_SHAPE(3))};
    nn_optim *opt = nn_optim_sgd(ctx, p, 2, 0.1, 0, 0, 0, false);
    set_grad(p[0], nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(4)));
    nn_optim_zero_grad(opt, false);
    CHECK(nn_tensor_grad(p[0]) != NULL);
    CHECK(tu_close(nn_tensor_grad(p[0]), 1, TU_SHAPE(4), TU_VALS(0, 0, 0, 0), 0, 0, "zeroed"));
    CHECK(nn_tensor_grad(p[1]) == NULL);
    nn_optim_zero_grad(opt, true);
    CHECK(nn_tensor_grad(p[0]) == NULL);
    /* A step with no gradients changes nothing and is not an error. */
    double before = nn_tensor_get_flat(p[0], 0);
    CHECK(nn_optim_step(ctx, opt) == NN_OK);
    CHECK(nn_tensor_get_flat(p[0], 0) == before);
    CHECK(nn_optim_param_steps(opt, 0) == 0);
    nn_optim_free(opt);
    nn_tensor_release(p[0]);
    nn_tensor_release(p[1]);
    nn_ctx_free(ctx);
}

NN_TEST(optim_state_inspection) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *p = param(ctx, 2, TU_SHAPE(2, 3));
    nn_optim *opt = nn_optim_adam(ctx, &p, 1, 0.1, 0.9, 0.999, 1e-8, 0, false);
    CHECK(nn_optim_get_kind(opt) == NN_OPTIM_ADAM);
    CHECK(!strcmp(nn_optim_kind_name(NN_OPTIM_ADAMW), "AdamW"));
    CHECK(nn_optim_num_params(opt) == 1 && nn_optim_param(opt, 0) == p);
    CHECK(nn_optim_param(opt, 1) == NULL);
    /* No state before the first update, as in PyTorch. */
    CHECK(nn_optim_state(ctx, opt, 0, "exp_avg") == NULL && nn_ctx_status(ctx) == NN_OK);
    set_grad(p, nn_full(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3), 2.0));
    CHECK(nn_optim_step(ctx, opt) == NN_OK);
    nn_tensor *m = nn_optim_state(ctx, opt, 0, "exp_avg");
    nn_tensor *v = nn_optim_state(ctx, opt, 0, "exp_avg_sq");
    nn_tensor *st = nn_optim_state(ctx, opt, 0, "step");
    CHECK(m && v && st);
    CHECK(tu_close(m, 2, TU_SHAPE(2, 3), TU_VALS(0.2, 0.2, 0.2, 0.2, 0.2, 0.2), 1e-6, 0, "m"));
    CHECK(
        tu_close(v, 2, TU_SHAPE(2, 3), TU_VALS(.004, .004, .004, .004, .004, .004), 1e-5, 0, "v"));
    CHECK(st && nn_tensor_get_flat(st, 0) == 1.0);
    CHECK(nn_optim_state(ctx, opt, 0, "momentum_buffer") == NULL);
    CHECK(nn_ctx_status(ctx) == NN_ERR_VALUE && strstr(nn_ctx_error(ctx), "exp_avg_sq"));
    nn_ctx_clear_error(ctx);
    CHECK(nn_optim_state(ctx, opt, 3, "exp_avg") == NULL);
    CHECK(nn_ctx_status(ctx) == NN_ERR_INDEX);
    nn_ctx_clear_error(ctx);
    CHECK(nn_optim_set_lr(ctx, opt, -1) == NN_ERR_VALUE);
    CHECK(nn_optim_set_lr(ctx, opt, NAN) == NN_ERR_VALUE);
    CHECK(nn_optim_get_lr(opt) == 0.1);
    nn_ctx_clear_error(ctx);
    nn_optim_free(opt);
    /* The state views keep the block alive after the optimizer is gone. */
    CHECK_NEAR(nn_tensor_get_flat(m, 5), 0.2, 1e-6);
    nn_tensor_release(m);
    nn_tensor_release(v);
    nn_tensor_release(st);
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}

/* A parameter that is a transposed view and a gradient that is not
 * contiguous take the strided path; results must equal the contiguous run. */
NN_TEST(optim_strided_params) {
    nn_ctx *ctx = nn_ctx_new(4);
    nn_tensor *base = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(4, 3));
    nn_tensor *pt = nn_tensor_view_raw(ctx, base, 2, TU_SHAPE(3, 4), TU_SHAPE(1, 3), 0);
    nn_tensor *pc = nn_tensor_contiguous_raw(ctx, pt);
    CHECK(pt && pc && !nn_tensor_is_contiguous(pt) && nn_tensor_is_contiguous(pc));
    nn_tensor_requires_grad_(ctx, pt, true);
    nn_tensor_requires_grad_(ctx, pc, true);
    nn_optim *ot = nn_optim_adam(ctx, &pt, 1, 0.05, 0.9, 0.99, 1e-8, 0.1, true);
    nn_optim *oc = nn_optim_adam(ctx, &pc, 1, 0.05, 0.9, 0.99, 1e-8, 0.1, true);
    for (int s = 0; s < 3; s++) {
        nn_tensor *gbase = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(4, 3));
        nn_tensor *gt = nn_tensor_view_raw(ctx, gbase, 2, TU_SHAPE(3, 4), TU_SHAPE(1, 3), 0);
        set_grad(pc, nn_tensor_contiguous_raw(ctx, gt));
        set_grad(pt, gt);
        nn_tensor_release(gbase);
        CHECK(nn_optim_step(ctx, ot) == NN_OK && nn_optim_step(ctx, oc) == NN_OK);
    }
    CHECK(tu_close_tensor(pt, pc, 0, 0, "strided vs contiguous"));
    nn_tensor *mt = nn_optim_state(ctx, ot, 0, "max_exp_avg_sq");
    nn_tensor *mc = nn_optim_state(ctx, oc, 0, "max_exp_avg_sq");
    CHECK(tu_close_tensor(mt, mc, 0, 0, "strided state"));
    nn_tensor_release(mt);
    nn_tensor_release(mc);
    nn_optim_free(ot);
    nn_optim_free(oc);
    nn_tensor_release(pt);
    nn_tensor_release(pc);
    nn_tensor_release(base);
    nn_ctx_free(ctx);
}

/* ---- clip_grad_norm ---- */

NN_TEST(optim_clip_nonfinite) {
    nn_ctx *ctx = nn_ctx_new(5);
    nn_tensor *p[3] = {param(ctx, 1, TU_SHAPE(3)), param(ctx, 2, TU_SHAPE(2, 2)),
                       param(ctx, 1, TU_SHAPE(2))};
    set_grad(p[0], tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(3), TU_VALS(3, 4, 0)));
    set_grad(p[1], tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALS(1, NAN, 2, 3)));
    double total = 0;
    CHECK(nn_clip_grad_norm(ctx, p, 3, 1.0, 2.0, &total) == NN_ERR_VALUE);
    CHECK(isnan(total));
    const char *msg = nn_ctx_error(ctx);
    CHECK_MSG(strstr(msg, "parameter 1") && strstr(msg, "[2, 2]") && strstr(msg, "index 1"),
              "message: %s", msg);
    /* Untouched: nothing was scaled. */
    CHECK(tu_close(nn_tensor_grad(p[0]), 1, TU_SHAPE(3), TU_VALS(3, 4, 0), 0, 0, "grad 0"));
    CHECK(tu_close(nn_tensor_grad(p[1]), 2, TU_SHAPE(2, 2), TU_VALS(1, NAN, 2, 3), 0, 0, "g1"));
    nn_ctx_clear_error(ctx);
    /* An infinity, with the inf norm. */
    set_grad(p[1], tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALS(1, 2, -INFINITY, 3)));
    CHECK(nn_clip_grad_norm(ctx, p, 3, 1.0, INFINITY, &total) == NN_ERR_VALUE);
    CHECK(isinf(total));
    CHECK(strstr(nn_ctx_error(ctx), "parameter 1") != NULL);
    nn_ctx_clear_error(ctx);
    /* Parameters without gradients count for nothing; none at all: norm 0. */
    nn_tensor_clear_grad(p[1]);
    CHECK(nn_clip_grad_norm(ctx, p, 3, 10.0, 2.0, &total) == NN_OK);
    CHECK_NEAR(total, 5.0, 1e-12);
    CHECK(nn_clip_grad_norm(ctx, p + 1, 2, 1.0, 2.0, &total) == NN_OK && total == 0);
    /* Clipping scales to max_norm / (total + 1e-6). */
    CHECK(nn_clip_grad_norm(ctx, p, 3, 1.0, 2.0, &total) == NN_OK);
    CHECK(tu_close(nn_tensor_grad(p[0]), 1, TU_SHAPE(3), TU_VALS(0.6, 0.8, 0), 1e-6, 0, "clip"));
    /* Bad arguments. */
    CHECK(nn_clip_grad_norm(ctx, p, 3, -1.0, 2.0, &total) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "max_norm") != NULL);
    CHECK(nn_clip_grad_norm(ctx, p, 3, 1.0, 0.0, &total) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "norm_type") != NULL);
    CHECK(nn_clip_grad_norm(ctx, p, 3, 1.0, NAN, &total) == NN_ERR_VALUE);
    nn_ctx_clear_error(ctx);
    for (int i = 0; i < 3; i++) nn_tensor_release(p[i]);
    nn_ctx_free(ctx);
}

/* ---- bad input ---- */

static void expect_error(nn_ctx *ctx, nn_optim *opt, nn_status code, const char *needle,
                         const char *what) {
    CHECK_MSG(opt == NULL, "%s: expected an error", what);
    nn_optim_free(opt);
    CHECK_MSG(nn_ctx_status(ctx) == code, "%s: status %s, message: %s", what,
              nn_status_name(nn_ctx_status(ctx)), nn_ctx_error(ctx));
    CHECK_MSG(strstr(nn_ctx_error(ctx), needle) != NULL, "%s: message '%s' lacks '%s'", what,
              nn_ctx_error(ctx), needle);
    nn_ctx_clear_error(ctx);
}

NN_TEST(optim_bad_hyperparameters) {
    nn_ctx *ctx = nn_ctx_new(6);
    nn_tensor *p = param(ctx, 1, TU_SHAPE(3));
    expect_error(ctx, nn_optim_sgd(ctx, &p, 1, -0.1, 0, 0, 0, false), NN_ERR_VALUE, "learning rate",
                 "negative lr");
    expect_error(ctx, nn_optim_adam(ctx, &p, 1, NAN, 0.9, 0.999, 1e-8, 0, false), NN_ERR_VALUE,
                 "learning rate", "NaN lr");
    expect_error(ctx, nn_optim_sgd(ctx, &p, 1, 0.1, 0, 0, 0, true), NN_ERR_VALUE,
                 "nesterov momentum requires momentum > 0", "nesterov without momentum");
    expect_error(ctx, nn_optim_sgd(ctx, &p, 1, 0.1, 0.9, 0.1, 0, true), NN_ERR_VALUE,
                 "dampening = 0", "nesterov with dampening");
    expect_error(ctx, nn_optim_sgd(ctx, &p, 1, 0.1, -0.9, 0, 0, false), NN_ERR_VALUE, "momentum",
                 "negative momentum");
    expect_error(ctx, nn_optim_sgd(ctx, &p, 1, 0.1, 0, 0, -1e-4, false), NN_ERR_VALUE,
                 "weight_decay", "negative weight decay");
    expect_error(ctx, nn_optim_adam(ctx, &p, 1, 1e-3, 1.0, 0.999, 1e-8, 0, false), NN_ERR_VALUE,
                 "beta1=1", "beta1 = 1");
    expect_error(ctx, nn_optim_adamw(ctx, &p, 1, 1e-3, 0.9, -0.5, 1e-8, 0, false), NN_ERR_VALUE,
                 "beta2=-0.5", "negative beta2");
    expect_error(ctx, nn_optim_adam(ctx, &p, 1, 1e-3, 0.9, 0.999, -1e-8, 0, false), NN_ERR_VALUE,
                 "eps", "negative eps");
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}

NN_TEST(optim_bad_parameters) {
    nn_ctx *ctx = nn_ctx_new(7);
    nn_tensor *p = param(ctx, 1, TU_SHAPE(3));
    nn_tensor *ints = nn_zeros(ctx, NN_INT64, 1, TU_SHAPE(3));
    nn_tensor *nonleaf = nn_mul_scalar(ctx, p, 2.0);
    expect_error(ctx, nn_optim_adam(ctx, &p, 0, 1e-3, 0.9, 0.999, 1e-8, 0, false), NN_ERR_VALUE,
                 "empty parameter list", "no parameters");
    expect_error(ctx, nn_optim_adam(ctx, &ints, 1, 1e-3, 0.9, 0.999, 1e-8, 0, false), NN_ERR_TYPE,
                 "int64", "int parameter");
    expect_error(ctx, nn_optim_sgd(ctx, &nonleaf, 1, 0.1, 0, 0, 0, false), NN_ERR_VALUE,
                 "not a leaf", "non-leaf parameter");
    nn_tensor *twice[2] = {p, p};
    expect_error(ctx, nn_optim_sgd(ctx, twice, 2, 0.1, 0, 0, 0, false), NN_ERR_VALUE, "same tensor",
                 "duplicate parameter");
    nn_tensor *missing[2] = {p, NULL};
    expect_error(ctx, nn_optim_sgd(ctx, missing, 2, 0.1, 0, 0, 0, false), NN_ERR_TYPE, "NULL",
                 "NULL parameter");
    /* A gradient of the wrong shape: an error, and no parameter moves. */
    nn_tensor *q = param(ctx, 1, TU_SHAPE(2));
    nn_tensor *pq[2] = {q, p};
    nn_optim *opt = nn_optim_sgd(ctx, pq, 2, 0.1, 0.9, 0, 0, false);
    set_grad(q, nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(2)));
    set_grad(p, nn_ones(ctx, NN_FLOAT32, 1, TU_SHAPE(4)));
    double q0 = nn_tensor_get_flat(q, 0);
    CHECK(nn_optim_step(ctx, opt) == NN_ERR_SHAPE);
    CHECK_MSG(strstr(nn_ctx_error(ctx), "parameter 1") && strstr(nn_ctx_error(ctx), "[4]"),
              "message: %s", nn_ctx_error(ctx));
    CHECK(nn_tensor_get_flat(q, 0) == q0);
    CHECK(nn_optim_step_count(opt) == 0 && nn_optim_param_steps(opt, 0) == 0);
    nn_ctx_clear_error(ctx);
    set_grad(p, nn_ones(ctx, NN_FLOAT64, 1, TU_SHAPE(3)));
    CHECK(nn_optim_step(ctx, opt) == NN_ERR_SHAPE);
    CHECK(strstr(nn_ctx_error(ctx), "float64") != NULL);
    nn_ctx_clear_error(ctx);
    nn_optim_free(opt);
    nn_optim_free(NULL);
    nn_tensor_release(q);
    nn_tensor_release(nonleaf);
    nn_tensor_release(ints);
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}

/* The allocation cap reaches the optimizer's block. */
NN_TEST(optim_state_over_cap) {
    nn_ctx *ctx = nn_ctx_new(8);
    nn_tensor *p = param(ctx, 1, TU_SHAPE(1 << 16));
    nn_mem_stats st = nn_mem_get_stats();
    nn_mem_set_cap(st.in_use + 100000);
    nn_optim *opt = nn_optim_adam(ctx, &p, 1, 1e-3, 0.9, 0.999, 1e-8, 0, false);
    nn_mem_set_cap(st.cap);
    expect_error(ctx, opt, NN_ERR_MEMORY, "optimizer's state", "state above the cap");
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}
