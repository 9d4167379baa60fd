/* nndb side of the matmul benchmark: C = A B for float32 [n, n] matrices
 * through nn_matmul (CBLAS sgemm underneath), no autograd.
 *
 *   build/bench/bench_matmul N THREADS REPS
 *
 * Prints "RESULT seconds=<median seconds per product> gflops=<2 n^3 / median>
 * core=<OpenBLAS kernel set>".
 * bench/compare.py runs it next to the NumPy anchor and prints the BENCH line.
 *
 *   build/bench/bench_matmul gpt ROWS C ROUNDS [THREADS]
 *
 * The GPT-2 step's Linear products at one thread, or THREADS (OpenBLAS's
 * and the engine's) (x W^T, dy W and dy^T x for the qkv, attention
 * output, MLP and LM head layers of width C, ROWS = B*T rows), each
 * through nn_blas_sgemm (nndb's own kernels where they take it) and
 * through the library's cblas_sgemm, interleaved, ROUNDS times; prints the
 * median CPU time of each and their ratio per product, and the ratio of
 * the sums, of CPU time and of wall time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "nn_ops.h"

/* OpenBLAS's name for the kernel set it picked (it falls back to Prescott on
 * CPUs it does not know, e.g. some virtual machines). */

typedef void (*raw_sgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                          int, float, const float *, int, const float *, int, float, float *, int);

static int gpt_products(int rows, int width, int rounds, int threads) {
    nn_ctx *ctx = nn_ctx_new(1);
    raw_sgemm blas = (raw_sgemm)(uintptr_t)nn_blas_symbol("cblas_sgemm");
    if (nn_blas_require(ctx) != NN_OK || !blas || rows <= 0 || width <= 0 || rounds <= 0) {
        fprintf(stderr, "no cblas_sgemm, or bad arguments\n");
        return 1;
    }
    nn_set_num_threads(threads);
    int C = width, V = 50257;
    /* {name, m, n, k, ta, tb} as nn_blas_sgemm receives them */
    struct {
        const char *name;
        int m, n, k, ta, tb;
    } p[] = {
        {"qkv x W^T", rows, 3 * C, C, 0, 1},  {"qkv dy W", rows, C, 3 * C, 0, 0},
        {"qkv dy^T x", 3 * C, C, rows, 1, 0}, {"proj x W^T", rows, C, C, 0, 1},
        {"proj dy W", rows, C, C, 0, 0},      {"proj dy^T x", C, C, rows, 1, 0},
        {"fc x W^T", rows, 4 * C, C, 0, 1},   {"fc dy W", rows, C, 4 * C, 0, 0},
        {"fc dy^T x", 4 * C, C, rows, 1, 0},  {"fc2 x W^T", rows, C, 4 * C, 0, 1},
        {"fc2 dy W", rows, 4 * C, C, 0, 0},   {"fc2 dy^T x", C, 4 * C, rows, 1, 0},
        {"head x W^T", rows, V, C, 0, 1},     {"head dy W", rows, C, V, 0, 0},
        {"head dy^T x", V, C, rows, 1, 0},
    };
    size_t most = (size_t)V * (rows > C ? rows : C) + 16; /* the largest operand */
    float *a = malloc(most * sizeof(float)), *b = malloc(most * sizeof(float)),
          *c = malloc((size_t)V * (rows > C ? rows : C) * sizeof(float));
    double *t0 = malloc(sizeof(double) * (size_t)rounds),
           *t1 = malloc(sizeof(double) * (size_t)rounds),
           *w0 = malloc(sizeof(double) * (size_t)rounds),
           *w1 = malloc(sizeof(double) * (size_t)rounds);
    if (!a || !b || !c || !t0 || !t1 || !w0 || !w1) return 1;
    for (size_t i = 0; i < most; i++)
        a[i] = b[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
    double sum0 = 0, sum1 = 0, wsum0 = 0, wsum1 = 0;
    for (size_t q = 0; q < sizeof p / sizeof p[0]; q++) {
        int m = p[q].m, n = p[q].n, k = p[q].k, lda = p[q].ta ? m : k, ldb = p[q].tb ? k : n;
        enum CBLAS_TRANSPOSE ta = p[q].ta ? CblasTrans : CblasNoTrans,
                             tb = p[q].tb ? CblasTrans : CblasNoTrans;
        for (int r = -1; r < rounds; r++) {
            double s = bench_cpu_now(), ws = bench_now();
            nn_blas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
            double u = bench_cpu_now(), wu = bench_now();
            blas(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, n);
            double v = bench_cpu_now(), wv = bench_now();
            if (r >= 0) t0[r] = u - s, t1[r] = v - u, w0[r] = wu - ws, w1[r] = wv - wu;
        }
        double m0 = bench_median(t0, rounds), m1 = bench_median(t1, rounds);
        sum0 += m0, sum1 += m1;
        wsum0 += bench_median(w0, rounds), wsum1 += bench_median(w1, rounds);
        printf("%-12s %5d x %5d x %5d  nndb %8.3f ms  cblas %8.3f ms  ratio %.3f\n", p[q].name, m,
               n, k, 1e3 * m0, 1e3 * m1, m0 / m1);
    }
    printf("all          nndb %8.3f ms  cblas %8.3f ms  ratio %.3f\n", 1e3 * sum0, 1e3 * sum1,
           sum0 / sum1);
    printf("all (wall)   nndb %8.3f ms  cblas %8.3f ms  ratio %.3f  (%d threads)\n", 1e3 * wsum0,
           1e3 * wsum1, wsum0 / wsum1, threads);
    free(a), free(b), free(c), free(t0), free(t1), free(w0), free(w1);
    nn_ctx_free(ctx);
    return 0;
}

int main(int argc, char **argv) {
    if ((argc == 5 || argc == 6) && !strcmp(argv[1], "gpt"))
        return gpt_products(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]),
                            argc == 6 ? atoi(argv[5]) : 1);
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
