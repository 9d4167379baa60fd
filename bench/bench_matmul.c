/* nndb side of the matmul benchmark: C = A B for float32 [n, n] matrices
 * through nn_matmul (CBLAS sgemm underneath), no autograd.
 *
 *   build/bench/bench_matmul N THREADS REPS
 *
 * Prints "RESULT seconds=<median seconds per product> gflops=<2 n^3 / median>
 * core=<OpenBLAS kernel set>".
 * bench/compare.py runs it next to the NumPy anchor and prints the BENCH line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"
#include "nn_ops.h"

/* OpenBLAS's name for the kernel set it picked (it falls back to Prescott on
 * CPUs it does not know, e.g. some virtual machines). */

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s N THREADS REPS\n", argv[0]);
        return 2;
    }
    int64_t n = atoll(argv[1]);
    int threads = atoi(argv[2]), reps = atoi(argv[3]);
    if (n <= 0 || threads <= 0 || reps <= 0) {
        fprintf(stderr, "N, THREADS and REPS must be positive\n");
        return 2;
    }
    nn_set_num_threads(threads);
    nn_ctx *ctx = nn_ctx_new(1);
    int64_t shape[2] = {n, n};
    nn_tensor *a = nn_randn(ctx, NN_FLOAT32, 2, shape);
    nn_tensor *b = nn_randn(ctx, NN_FLOAT32, 2, shape);
    double *t = calloc((size_t)reps, sizeof *t);
    if (!a || !b || !t) {
        fprintf(stderr, "setup failed: %s\n", nn_ctx_error(ctx));
        return 1;
    }
    /* One untimed product brings BLAS's threads and buffers up. */
    for (int r = -1; r < reps; r++) {
        double t0 = bench_now();
        nn_tensor *c = nn_matmul(ctx, a, b);
        double dt = bench_now() - t0;
        if (!c) {
            fprintf(stderr, "matmul failed: %s\n", nn_ctx_error(ctx));
            return 1;
        }
        nn_tensor_release(c);
        if (r >= 0) t[r] = dt;
    }
    double med = bench_median(t, reps);
    printf("RESULT seconds=%.9g gflops=%.6g core=%s\n", med,
           2.0 * (double)n * (double)n * (double)n / med / 1e9, nn_blas_corename());
    free(t);
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_ctx_free(ctx);
    return 0;
}
