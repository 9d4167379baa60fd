/* nndb side of the GPT training-step benchmark: nn_module_gpt (tied head, no
 * dropout) trained with AdamW on one fixed random batch of token ids.
 *
 *   build/bench/bench_gpt LAYERS HEADS EMBD T BATCH VOCAB THREADS STEPS
 *
 * One step is zero_grad (set_to_none), forward with the mean cross-entropy
 * loss, backward, AdamW step and loss.item(), as bench/bench_gpt.py does in
 * PyTorch. Prints "RESULT ms=<median ms per step> maxrss_kib=<peak resident
 * set> loss_first=<..> loss_last=<..> core=<OpenBLAS kernel set>
 * cpu_ms=<median CPU time of the process per step>" (bench_gpt.py --cpu
 * compares cpu_ms).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "nn_module.h"
#include "nn_ops.h"
#include "nn_optim.h"

static bool g_anomaly; /* NNDB_BENCH_ANOMALY=1 (bench_util.h) */

static double train_step(nn_ctx *ctx, nn_module *m, nn_optim *opt, nn_tensor *x, nn_tensor *y) {
    nn_optim_zero_grad(opt, true);
    nn_tensor *loss = nn_module_gpt_loss(ctx, m, x, y, "model", NULL);
    double v = NAN;
    if (loss && !nn_backward(ctx, loss, NULL, false) && !nn_optim_step(ctx, opt) &&
        (!g_anomaly || bench_params_finite(opt)))
        nn_tensor_item(ctx, loss, &v);
    nn_tensor_release(loss);
    return v;
}

int main(int argc, char **argv) {
    if (argc != 9) {
        fprintf(stderr, "usage: %s LAYERS HEADS EMBD T BATCH VOCAB THREADS STEPS\n", argv[0]);
        return 2;
    }
    long long a[8];
    for (int i = 0; i < 8; i++) {
        a[i] = atoll(argv[i + 1]);
        if (a[i] <= 0) {
            fprintf(stderr, "all arguments must be positive\n");
            return 2;
        }
    }
    nn_gpt_config cfg = {.vocab_size = a[5],
                         .block_size = a[3],
                         .n_layer = a[0],
                         .n_head = a[1],
                         .n_embd = a[2],
                         .dropout = 0.0,
                         .bias = true,
                         .tied = true};
    int64_t T = a[3], B = a[4];
    int threads = (int)a[6], steps = (int)a[7];
    nn_set_num_threads(threads);
    nn_ctx *ctx = nn_ctx_new(0);
    g_anomaly = bench_anomaly_on(ctx);
    nn_module *m = nn_module_gpt(ctx, &cfg);
    int64_t shape[2] = {B, T};
    nn_tensor *x = nn_randint(ctx, 0, cfg.vocab_size, 2, shape);
    nn_tensor *y = nn_randint(ctx, 0, cfg.vocab_size, 2, shape);
    nn_tensor **params = NULL;
    int n_params = 0;
    if (!m || !x || !y || nn_module_parameters(ctx, m, &params, &n_params)) {
        fprintf(stderr, "setup failed: %s\n", nn_ctx_error(ctx));
        return 1;
    }
    nn_optim *opt = nn_optim_adamw(ctx, params, n_params, 1e-3, 0.9, 0.999, 1e-8, 0.01, false);
    double *t = calloc((size_t)steps, sizeof *t), *tc = calloc((size_t)steps, sizeof *tc);
    if (!opt || !t || !tc) {
        fprintf(stderr, "setup failed: %s\n", nn_ctx_error(ctx));
        return 1;
    }
    double first = NAN, last = NAN;
    for (int s = -3; s < steps; s++) {
        double t0 = bench_now(), c0 = bench_cpu_now();
        last = train_step(ctx, m, opt, x, y);
        double dt = bench_now() - t0, dc = bench_cpu_now() - c0;
        if (isnan(last)) {
            fprintf(stderr, "step failed: %s\n", nn_ctx_error(ctx));
            return 1;
        }
        if (s == -3) first = last;
        if (s >= 0) {
            t[s] = dt;
            tc[s] = dc;
        }
    }
    double med = bench_median(t, steps);
    bench_print_train_result_cpu(med, first, last, bench_median(tc, steps));
    free(t);
    free(tc);
    free(params);
    nn_optim_free(opt);
    nn_module_release(m);
    nn_tensor_release(x);
    nn_tensor_release(y);
    nn_ctx_free(ctx);
    return 0;
}
