/* nndb side of the distributed benchmarks (run under mpirun by
 * bench/bench_dist.py; MPI is opened by nn_dist, so this builds without it).
 *
 *   bench_dist allreduce MIB ITERS
 *       median time of nn_dist_all_reduce on a float32 buffer of MIB MiB;
 *       prints "RESULT ms=<median>" on rank 0.
 *   bench_dist ddp LAYERS HEADS EMBD T BATCH VOCAB STEPS
 *       a GPT training step (AdamW) under DistributedDataParallel, each
 *       rank on BATCH / world_size sequences (1 thread), or without DDP on
 *       one rank; prints "RESULT ms=<median step> bytes_per_step=<payload
 *       all-reduced> param_bytes=<parameter bytes> buckets=<n>
 *       early=<buckets started during backward>" on rank 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "nn_dist.h"
#include "nn_module.h"
#include "nn_ops.h"
#include "nn_optim.h"

static int fail(nn_ctx *ctx) {
    fprintf(stderr, "bench_dist: %s\n", nn_ctx_error(ctx));
    nn_dist_abort(1);
    return 1;
}

static int bench_allreduce(nn_ctx *ctx, long mib, int iters) {
    int64_t n = mib * 1024 * 1024 / 4;
    nn_tensor *t = nn_ones(ctx, NN_FLOAT32, 1, &n);
    double *ts = calloc((size_t)iters, sizeof *ts);
    if (!t || !ts) return fail(ctx);
    for (int k = -2; k < iters; k++) {
        if (nn_dist_barrier(ctx)) return fail(ctx);
        double t0 = bench_now();
        if (nn_dist_all_reduce(ctx, t, NN_DIST_SUM)) return fail(ctx);
        if (k >= 0) ts[k] = bench_now() - t0;
    }
    if (nn_dist_rank() == 0) printf("RESULT ms=%.4f\n", 1e3 * bench_median(ts, iters));
    free(ts);
    nn_tensor_release(t);
    return 0;
}

static int bench_ddp(nn_ctx *ctx, long long *a) {
    nn_gpt_config cfg = {.vocab_size = a[5],
                         .block_size = a[3],
                         .n_layer = a[0],
                         .n_head = a[1],
                         .n_embd = a[2],
                         .dropout = 0.0,
                         .bias = true,
                         .tied = true};
    int world = nn_dist_world_size(), steps = (int)a[6];
    int64_t shape[2] = {a[4] / world, a[3]};
    nn_module *m = nn_module_gpt(ctx, &cfg);
    nn_tensor *x = nn_randint(ctx, 0, cfg.vocab_size, 2, shape);
    nn_tensor *y = nn_randint(ctx, 0, cfg.vocab_size, 2, shape);
    nn_tensor **ps = NULL;
    int np = 0;
    if (!m || !x || !y || nn_module_parameters(ctx, m, &ps, &np)) return fail(ctx);
    double pbytes = 0;
    for (int i = 0; i < np; i++) pbytes += 4.0 * (double)nn_tensor_numel(ps[i]);
    nn_dist_ddp *ddp = world > 1 ? nn_dist_ddp_new(ctx, ps, np, NULL, 0, 0) : NULL;
    nn_optim *opt = nn_optim_adamw(ctx, ps, np, 1e-3, 0.9, 0.999, 1e-8, 0.01, false);
    double *ts = calloc((size_t)steps, sizeof *ts);
    if ((world > 1 && !ddp) || !opt || !ts) return fail(ctx);
    uint64_t b0 = 0;
    for (int s = -2; s < steps; s++) {
        if (s == 0) b0 = nn_dist_bytes_reduced();
        double t0 = bench_now();
        nn_optim_zero_grad(opt, true);
        nn_tensor *loss = nn_module_gpt_loss(ctx, m, x, y, "model", NULL);
        if (!loss || nn_backward(ctx, loss, NULL, false) || nn_optim_step(ctx, opt))
            return fail(ctx);
        nn_tensor_release(loss);
        if (s >= 0) ts[s] = bench_now() - t0;
    }
    double per_step = (double)(nn_dist_bytes_reduced() - b0) / steps;
    if (nn_dist_rank() == 0)
        printf("RESULT ms=%.4f bytes_per_step=%.0f param_bytes=%.0f buckets=%d early=%d\n",
               1e3 * bench_median(ts, steps), per_step, pbytes,
               ddp ? nn_dist_ddp_num_buckets(ddp) : 0, ddp ? nn_dist_ddp_started_early(ddp) : 0);
    nn_dist_ddp_free(ctx, ddp);
    nn_optim_free(opt);
    free(ts);
    free(ps);
    nn_tensor_release(x);
    nn_tensor_release(y);
    nn_module_release(m);
    return 0;
}

int main(int argc, char **argv) {
    nn_set_num_threads(1);
    nn_ctx *ctx = nn_ctx_new(0);
    if (nn_dist_init(&ctx->err, 120)) return fail(ctx);
    int rc = 2;
    if (argc == 4 && !strcmp(argv[1], "allreduce")) {
        rc = bench_allreduce(ctx, atol(argv[2]), atoi(argv[3]));
    } else if (argc == 9 && !strcmp(argv[1], "ddp")) {
        long long a[7];
        for (int i = 0; i < 7; i++) a[i] = atoll(argv[i + 2]);
        rc = bench_ddp(ctx, a);
    } else {
        fprintf(stderr, "usage: %s allreduce MIB ITERS | ddp L H C T B V STEPS\n", argv[0]);
    }
    nn_dist_destroy(&ctx->err);
    nn_ctx_free(ctx);
    return rc;
}
