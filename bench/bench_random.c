/* nndb side of the random-fill benchmark: randn or rand of N float32 values
 * from the default generator (PyTorch's Mersenne Twister and its normal
 * fill, bit for bit), a fresh tensor each time, as torch.randn(N).
 *
 *   build/bench/bench_random randn|rand N REPS
 *
 * Prints "RESULT seconds=<median seconds per call> ms=<the same in ms>".
 * bench/compare.py runs it next to the PyTorch anchor and prints the BENCH
 * line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "nn_random.h"

int main(int argc, char **argv) {
    if (argc != 4 || (strcmp(argv[1], "randn") && strcmp(argv[1], "rand"))) {
        fprintf(stderr, "usage: %s randn|rand N REPS\n", argv[0]);
        return 2;
    }
    bool normal = !strcmp(argv[1], "randn");
    int64_t n = atoll(argv[2]);
    int reps = atoi(argv[3]);
    if (n <= 0 || reps <= 0) {
        fprintf(stderr, "N and REPS must be positive\n");
        return 2;
    }
    nn_ctx *ctx = nn_ctx_new(0);
    double *t = calloc((size_t)reps, sizeof *t);
    if (!ctx || !t) return 1;
    for (int r = -1; r < reps; r++) { /* the first call is untimed warm-up */
        double t0 = bench_now();
        nn_tensor *x = normal ? nn_randn(ctx, NN_FLOAT32, 1, &n) : nn_rand(ctx, NN_FLOAT32, 1, &n);
        double dt = bench_now() - t0;
        if (!x) {
            fprintf(stderr, "%s failed: %s\n", argv[1], nn_ctx_error(ctx));
            return 1;
        }
        nn_tensor_release(x);
        if (r >= 0) t[r] = dt;
    }
    double med = bench_median(t, reps);
    printf("RESULT seconds=%.9g ms=%.6g\n", med, med * 1e3);
    free(t);
    nn_ctx_free(ctx);
    return 0;
}
