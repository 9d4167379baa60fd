/* nndb side of the training-step benchmark: a tanh MLP written against the
 * engine API, trained with cross-entropy and Adam on one fixed random batch.
 *
 *   build/bench/bench_mlp IN HIDDEN OUT BATCH THREADS STEPS
 *
 * The model is IN-HIDDEN-HIDDEN-OUT with tanh between the linear layers and
 * PyTorch's nn.Linear initialisation, as in bench/anchors.py. One step is
 * zero_grad (set_to_none), forward, cross_entropy, backward, Adam step and
 * loss.item(). Prints "RESULT ms=<median ms per step> maxrss_kib=<peak
 * resident set> loss_first=<..> loss_last=<..> core=<OpenBLAS kernel set>".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "nn_ops.h"
#include "nn_optim.h"

#define N_LAYERS 3

typedef struct mlp {
    nn_tensor *w[N_LAYERS], *b[N_LAYERS];
    nn_tensor *params[2 * N_LAYERS];
} mlp;

/* OpenBLAS's name for the kernel set it picked (it falls back to Prescott on
 * CPUs it does not know, e.g. some virtual machines). */

/* nn.Linear's default: weight and bias from U(-1/sqrt(in), 1/sqrt(in)). */
static int mlp_init(nn_ctx *ctx, mlp *m, const int64_t *sizes) {
    for (int l = 0; l < N_LAYERS; l++) {
        int64_t in = sizes[l], out = sizes[l + 1], ws[2] = {out, in};
        double bound = 1.0 / sqrt((double)in);
        m->w[l] = nn_zeros(ctx, NN_FLOAT32, 2, ws);
        m->b[l] = nn_zeros(ctx, NN_FLOAT32, 1, &out);
        if (!m->w[l] || !m->b[l]) return -1;
        nn_tensor_uniform_(ctx, m->w[l], -bound, bound);
        nn_tensor_uniform_(ctx, m->b[l], -bound, bound);
        nn_tensor_requires_grad_(ctx, m->w[l], true);
        nn_tensor_requires_grad_(ctx, m->b[l], true);
        m->params[2 * l] = m->w[l];
        m->params[2 * l + 1] = m->b[l];
    }
    return 0;
}

static bool g_anomaly; /* NNDB_BENCH_ANOMALY=1 (bench_util.h) */

static double train_step(nn_ctx *ctx, mlp *m, nn_optim *opt, nn_tensor *x, nn_tensor *y) {
    nn_optim_zero_grad(opt, true);
    nn_tensor *h = nn_tensor_retain(x);
    for (int l = 0; l < N_LAYERS && h; l++) {
        nn_tensor *z = nn_linear(ctx, h, m->w[l], m->b[l]);
        nn_tensor_release(h);
        h = z;
        if (h && l < N_LAYERS - 1) {
            z = nn_tanh(ctx, h);
            nn_tensor_release(h);
            h = z;
        }
    }
    nn_tensor *loss = h ? nn_cross_entropy(ctx, h, y, -100, 0.0, NN_REDUCTION_MEAN) : NULL;
    nn_tensor_release(h);
    double v = NAN;
    if (loss && !nn_backward(ctx, loss, NULL, false) && !nn_optim_step(ctx, opt) &&
        (!g_anomaly || bench_params_finite(opt)))
        nn_tensor_item(ctx, loss, &v);
    nn_tensor_release(loss);
    return v;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s IN HIDDEN OUT BATCH THREADS STEPS\n", argv[0]);
        return 2;
    }
    int64_t sizes[N_LAYERS + 1] = {atoll(argv[1]), atoll(argv[2]), atoll(argv[2]), atoll(argv[3])};
    int64_t batch = atoll(argv[4]);
    int threads = atoi(argv[5]), steps = atoi(argv[6]);
    if (sizes[0] <= 0 || sizes[1] <= 0 || sizes[3] <= 0 || batch <= 0 || threads <= 0 ||
        steps <= 0) {
        fprintf(stderr, "all arguments must be positive\n");
        return 2;
    }
    nn_set_num_threads(threads);
    nn_ctx *ctx = nn_ctx_new(0);
    g_anomaly = bench_anomaly_on(ctx);
    mlp m;
    int64_t xs[2] = {batch, sizes[0]};
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, xs);
    nn_tensor *y = nn_randint(ctx, 0, sizes[3], 1, &batch);
    if (!x || !y || mlp_init(ctx, &m, sizes)) {
        fprintf(stderr, "setup failed: %s\n", nn_ctx_error(ctx));
        return 1;
    }
    nn_optim *opt = nn_optim_adam(ctx, m.params, 2 * N_LAYERS, 1e-3, 0.9, 0.999, 1e-8, 0, false);
    double *t = calloc((size_t)steps, sizeof *t);
    if (!opt || !t) {
        fprintf(stderr, "setup failed: %s\n", nn_ctx_error(ctx));
        return 1;
    }
    /* Warm-up steps fill the memory pool and bring BLAS's threads up. */
    double first = NAN, last = NAN;
    for (int s = -3; s < steps; s++) {
        double t0 = bench_now();
        last = train_step(ctx, &m, opt, x, y);
        double dt = bench_now() - t0;
        if (isnan(last)) {
            fprintf(stderr, "step failed: %s\n", nn_ctx_error(ctx));
            return 1;
        }
        if (s == -3) first = last;
        if (s >= 0) t[s] = dt;
    }
    double med = bench_median(t, steps);
    bench_print_train_result(med, first, last);
    free(t);
    nn_optim_free(opt);
    for (int l = 0; l < N_LAYERS; l++) {
        nn_tensor_release(m.w[l]);
        nn_tensor_release(m.b[l]);
    }
    nn_tensor_release(x);
    nn_tensor_release(y);
    nn_ctx_free(ctx);
    return 0;
}
