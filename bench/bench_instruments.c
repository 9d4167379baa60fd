/* The instruments' costs, each against an anchor measured in the same run:
 *
 *   build/bench/bench_instruments [--full]
 *
 * 1. The profiler's overhead on the GPT training step (bench_gpt's step:
 *    zero_grad, forward with the loss, backward, AdamW step): the median
 *    step with the profiler's hook on over the median step without, the
 *    two interleaved step by step so that drift in the machine hits both.
 *    Target <= 1.15.
 * 2. gradcheck(model, idx, targets, samples=K) on the small GPT: its time
 *    over one training step of the same model. A check makes 1 + 2 K n
 *    evaluations of the loss (n parameter tensors, K entries each), so the
 *    target is that many steps: no evaluation may cost more than a step.
 *
 * Prints BENCH lines in bench/compare.py's format (docs/benchmarks.md).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_util.h"
#include "nn_check.h"
#include "nn_module.h"
#include "nn_ops.h"
#include "nn_optim.h"
#include "nn_profile.h"

typedef struct gpt_run {
    nn_ctx *ctx;
    nn_module *m;
    nn_optim *opt;
    nn_tensor *x, *y;
} gpt_run;

static int step(gpt_run *g) {
    nn_optim_zero_grad(g->opt, true);
    nn_tensor *loss = nn_module_gpt_loss(g->ctx, g->m, g->x, g->y, "model", NULL);
    double v = NAN;
    if (loss && !nn_backward(g->ctx, loss, NULL, false) && !nn_optim_step(g->ctx, g->opt))
        nn_tensor_item(g->ctx, loss, &v);
    nn_tensor_release(loss);
    return isnan(v) ? -1 : 0;
}

static nn_tensor *gpt_loss(nn_ctx *ctx, void *user) {
    gpt_run *g = user;
    return nn_module_gpt_loss(ctx, g->m, g->x, g->y, "model", NULL);
}

static int setup(gpt_run *g, const nn_gpt_config *cfg, int64_t B, int64_t T) {
    memset(g, 0, sizeof *g);
    g->ctx = nn_ctx_new(0);
    g->m = nn_module_gpt(g->ctx, cfg);
    int64_t shape[2] = {B, T};
    g->x = nn_randint(g->ctx, 0, cfg->vocab_size, 2, shape);
    g->y = nn_randint(g->ctx, 0, cfg->vocab_size, 2, shape);
    nn_tensor **ps = NULL;
    int n = 0;
    if (!g->m || !g->x || !g->y || nn_module_parameters(g->ctx, g->m, &ps, &n)) return -1;
    g->opt = nn_optim_adamw(g->ctx, ps, n, 1e-3, 0.9, 0.999, 1e-8, 0.01, false);
    free(ps);
    return g->opt ? 0 : -1;
}

static void teardown(gpt_run *g) {
    nn_optim_free(g->opt);
    nn_module_release(g->m);
    nn_tensor_release(g->x);
    nn_tensor_release(g->y);
    nn_ctx_free(g->ctx);
}

static int profile_overhead(const char *label, const nn_gpt_config *cfg, int64_t B, int64_t T,
                            int steps) {
    gpt_run g;
    if (setup(&g, cfg, B, T)) return -1;
    double *plain = calloc((size_t)steps, sizeof *plain);
    double *prof = calloc((size_t)steps, sizeof *prof);
    int rc = plain && prof ? 0 : -1;
    for (int s = 0; s < 3 && !rc; s++) rc = step(&g);
    for (int s = 0; s < steps && !rc; s++) {
        double t0 = bench_now();
        rc = step(&g);
        plain[s] = bench_now() - t0;
        nn_profile *p = nn_profile_start(g.ctx);
        if (!p) rc = -1;
        t0 = bench_now();
        if (!rc) rc = step(&g);
        prof[s] = bench_now() - t0;
        nn_profile_free(p);
    }
    if (!rc) {
        double a = bench_median(plain, steps), b = bench_median(prof, steps);
        printf("BENCH profile_overhead_gpt_%s nndb_profiled=%.4gms unprofiled=%.4gms ratio=%.3f "
               "target=<=1.15\n",
               label, b * 1e3, a * 1e3, b / a);
    }
    free(plain);
    free(prof);
    if (rc) fprintf(stderr, "profile_overhead: %s\n", nn_ctx_error(g.ctx));
    teardown(&g);
    return rc;
}

static int gradcheck_time(const char *label, const nn_gpt_config *cfg, int64_t B, int64_t T,
                          int samples, int reps) {
    gpt_run g;
    if (setup(&g, cfg, B, T)) return -1;
    int rc = 0;
    double best_step = INFINITY, best_check = INFINITY;
    for (int s = 0; s < 5 && !rc; s++) {
        double t0 = bench_now();
        rc = step(&g);
        double dt = bench_now() - t0;
        if (s > 0 && dt < best_step) best_step = dt;
    }
    nn_state ps;
    nn_state_init(&ps);
    if (!rc && nn_module_named_parameters(g.ctx, g.m, &ps)) rc = -1;
    if (!rc && nn_module_to_dtype(g.ctx, g.m, NN_FLOAT64)) rc = -1;
    nn_tensor **ts = calloc((size_t)ps.n + 1, sizeof *ts);
    const char **names = calloc((size_t)ps.n + 1, sizeof *names);
    if (!ts || !names) rc = -1;
    for (int i = 0; !rc && i < ps.n; i++) {
        ts[i] = ps.entries[i].tensor;
        names[i] = ps.entries[i].name;
    }
    nn_gradcheck_opts o = nn_gradcheck_defaults();
    o.samples = samples;
    bool pass = false;
    int64_t calls = 0;
    for (int r = 0; r < reps && !rc; r++) {
        nn_gradcheck_result res;
        double t0 = bench_now();
        if (nn_gradcheck(g.ctx, gpt_loss, &g, ts, names, ps.n, &o, &res)) {
            rc = -1;
            break;
        }
        double dt = bench_now() - t0;
        if (dt < best_check) best_check = dt;
        pass = res.pass;
        calls = res.f_calls;
        nn_gradcheck_result_free(&res);
    }
    if (!rc) {
        double target = (double)(1 + 2 * (int64_t)samples * ps.n);
        printf("BENCH gradcheck_gpt_%s_samples%d nndb=%.4gms train_step=%.4gms ratio=%.1f "
               "target=<=%.0f  (%s, %lld loss evaluations, %d tensors)\n",
               label, samples, best_check * 1e3, best_step * 1e3, best_check / best_step, target,
               pass ? "passed" : "FAILED", (long long)calls, ps.n);
    }
    if (rc) fprintf(stderr, "gradcheck_time: %s\n", nn_ctx_error(g.ctx));
    free(ts);
    free(names);
    nn_state_free(&ps);
    teardown(&g);
    return rc;
}

int main(int argc, char **argv) {
    bool quick = !(argc > 1 && !strcmp(argv[1], "--full")); /* make bench's default */
    nn_set_num_threads(1);
    nn_gpt_config cfg = nn_gpt_config_default(); /* L2 H4 C64, vocab 256, block 64 */
    int rc = 0;
    rc |= profile_overhead("L2_H4_C64_T64_b4_V256_1t", &cfg, 4, 64, quick ? 15 : 60);
    nn_gpt_config small = cfg;
    small.n_layer = 1;
    small.n_embd = 32;
    small.vocab_size = 64;
    small.block_size = 16;
    rc |= gradcheck_time("L1_H4_C32_T16_b2_V64", &small, 2, 16, 8, quick ? 1 : 3);
    rc |= gradcheck_time("L2_H4_C64_T64_b4_V256", &cfg, 4, 64, 4, 1);
    return rc ? 1 : 0;
}
