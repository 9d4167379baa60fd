/* nn_small_gemm's tiled path (products up to 64^3 multiply-adds, C's rows a
 * whole number of 8-float vectors: a small MLP's 64x64x64 layers) on
 * 512-bit vectors where the CPU has them and on 256-bit ones, against
 * OpenBLAS's cblas_sgemm, bit for bit. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_small_gemm.h"
#include "testutil.h"

/* Every row count 1-40 and more (every chunking of rows: 12s, 4s, the
 * rest), column counts with an even and an odd number of 8-column groups
 * and runs of more than 64 one-chain columns, k around the kernel's steps
 * of 8, all four transposes, tight and padded strides, beta 1 and beta 0
 * (NaN in C, not read), at both vector widths. */
NN_TEST(small_sgemm_tiled_both_widths_have_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    if (!blas) {
        nn_ctx_free(ctx); /* elsewhere the tiled path is not used */
        return;
    }
    enum { POOL = 1 << 17 };
    float *pool = tu_random_floats(POOL, 4242), *c1 = malloc(sizeof(float) * 300 * 300),
          *c2 = malloc(sizeof(float) * 300 * 300);
    CHECK(pool && c1 && c2);
    static const int tn[] = {8, 16, 24, 32, 40, 56, 64, 72, 136, 256};
    static const int tk[] = {1, 7, 8, 9, 15, 17, 64, 65, 128, 256};
    int taken = 0, differ = 0, round = 0;
    for (int wide = 0; wide < 2; wide++) {
        nn_small_sgemm_force_avx2(!wide);
        for (int q = 0; q < 8; q++) {
            bool ta = q & 1, tb = q & 2, pad = q & 4;
            for (int m = 1; m <= 100; m += m < 40 ? 1 : 11)
                for (size_t in = 0; in < sizeof tn / sizeof tn[0]; in++)
                    for (size_t ik = 0; ik < sizeof tk / sizeof tk[0]; ik++) {
                        int n = tn[in], k = tk[ik], p = pad ? 5 : 0, r = round++;
                        if (k * n > 8192 || (int64_t)m * n * k > 262144 || k <= 7 || m <= 3)
                            continue; /* the one-chain shapes: not the tiled path */
                        int lda = (ta ? m : k) + p, ldb = (tb ? k : n) + p, ldc = n + p;
                        const float *a = pool + r % 997, *b = pool + 60000 + r % 991;
                        bool zero = r % 2;
                        for (int i = 0; i < m * ldc; i++)
                            c1[i] = c2[i] = zero && i % 5 == 0 ? NAN : pool[100000 + i % 20000];
                        if (!nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, zero, false))
                            continue;
                        blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                             tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb,
                             zero ? 0.0f : 1.0f, c2, ldc);
                        taken++;
                        if (memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc)) && differ++ < 5)
                            fprintf(stderr,
                                    "tiled sgemm differs: wide %d ta %d tb %d m %d n %d k %d "
                                    "beta %d\n",
                                    wide, ta, tb, m, n, k, !zero);
                    }
        }
    }
    nn_small_sgemm_force_avx2(false);
    CHECK_MSG(taken > 3000, "the sweep reached the tiled kernel (%d products)", taken);
    CHECK_MSG(differ == 0, "the tiled kernel has OpenBLAS's bits (%d of %d differ)", differ, taken);
    free(pool), free(c1), free(c2);
    nn_ctx_free(ctx);
}

/* The Linear layers' products at two threads (nn_small_gemm.c's
 * big_sgemm_two: OpenBLAS's two threads' shares as two tasks of the
 * engine's pool) against cblas_sgemm at two threads, bit for bit: every
 * product of a GPT-2 step at C = 768 and 512 (forward x W^T, dx = dy W,
 * dW = dy^T x, the LM head's 50257 columns and its weight gradient of
 * 50257 rows, 16384 rows), all four transposes; and a sweep of awkward
 * sizes: 1-3 columns (OpenBLAS then divides the rows, not the columns),
 * 1-3 rows, columns that leave thread 1 starting inside an 8-column group,
 * k and each thread's columns just above 320 and 640 (its blocks), on
 * 512-bit and 256-bit vectors. The products OpenBLAS keeps on one thread
 * at two (m n k <= 65536 x 4) are in the sweep too, and products either
 * side of that limit. */
NN_TEST(big_sgemm_two_threads_has_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    __builtin_cpu_init();
    if (!blas) {
        nn_ctx_free(ctx);
        return;
    }
    int old_threads = nn_get_num_threads();
    nn_set_num_threads(2); /* OpenBLAS's threads and the engine's pool */
    CHECK(nn_blas_get_threads() == 2);
    /* nn_blas.c's once-per-process check of the model passes here */
    if (__builtin_cpu_supports("avx512f")) CHECK(nn_blas_own_two_threads());
    size_t pool_n = (size_t)1 << 26, c_n = (size_t)50257 * 800;
    float *pool = tu_random_floats(pool_n, 2727), *c1 = malloc(sizeof(float) * c_n),
          *c2 = malloc(sizeof(float) * c_n);
    CHECK(pool && c1 && c2);
    bool wide = __builtin_cpu_supports("avx512f");
    /* {m, n, k}: B T = 256 (B4 T64) and 1024 (B4 T256, B8 T128) */
    static const int gpt[][3] = {
        {256, 2304, 768},
        {256, 768, 768},
        {256, 3072, 768},
        {256, 768, 3072},
        {256, 50257, 768},
        {256, 768, 50257},
        {2304, 768, 256},
        {768, 768, 256},
        {3072, 768, 256},
        {768, 3072, 256},
        {50257, 768, 256},
        {1024, 1536, 512},
        {1024, 512, 512},
        {1024, 2048, 512},
        {1024, 512, 2048},
        {1536, 512, 1024},
        {512, 512, 1024},
        {2048, 512, 1024},
        {512, 2048, 1024},
        {50257, 512, 1024},
        {16384, 768, 768},
        {1024, 2304, 768},
        /* either side of OpenBLAS's one-thread limit (m n k <= 65536 x 4):
         * the panels and big_sgemm at one thread, then big_sgemm_two */
        {512, 64, 8},
        {513, 64, 8},
        {1000, 9, 29},
        {1001, 9, 30},
    };
    tu_sgemm_run run = {blas, 2, pool, pool_n, c1, c2, 0, 0, 0};
    int taken = tu_sgemm_shapes(&run, gpt, sizeof gpt / sizeof gpt[0], "2-thread sgemm");
    int gpt_products = (TU_SGEMM_SANITIZED ? 1 : 4) * (int)(sizeof gpt / sizeof gpt[0]);
    if (wide)
        CHECK_MSG(taken + run.skipped == gpt_products && taken > 0, "every GPT product taken (%d)",
                  taken);
    static const int ms[] = {1, 2, 3, 5, 12, 13, 17, 25, 100, 131, 333, 1001};
    static const int ns[] = {1, 3, 4, 5, 9, 23, 100, 321, 337, 641, 700, 1283};
    static const int ks[] = {7, 300, 321, 333, 641, 1001};
    /* a third of them on 256-bit vectors */
    int swept = tu_sgemm_sweep(&run, ms, sizeof ms / sizeof ms[0], ns, sizeof ns / sizeof ns[0], ks,
                               sizeof ks / sizeof ks[0], 3, "2-thread sgemm");
    CHECK_MSG(swept > 400, "the sweep reached the big kernel (%d products)", swept);
    CHECK_MSG(run.differ == 0, "two threads: OpenBLAS's bits (%d of %d differ)", run.differ,
              taken + swept);
    /* through nn_blas_sgemm (the session's thread count read from
     * OpenBLAS), beta 0 */
    int m = 256, n = 768, k = 3072;
    for (size_t i = 0; i < (size_t)m * n; i++) c1[i] = c2[i] = NAN;
    nn_blas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, k, pool + m * k, k,
                  0.0f, c1, n);
    blas(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, k, pool + m * k, k, 0.0f, c2,
         n);
    CHECK_MSG(!memcmp(c1, c2, sizeof(float) * (size_t)m * n),
              "nn_blas_sgemm has cblas_sgemm's bits at two threads");
    /* threads other than 1 and 2: left to the library */
    CHECK(!nn_small_sgemm(false, true, m, n, k, pool, k, pool + m * k, k, c1, n, true, 3));
    nn_set_num_threads(old_threads);
    free(pool), free(c1), free(c2);
    nn_ctx_free(ctx);
}
