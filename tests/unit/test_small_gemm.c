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

typedef void (*raw_sgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                          int, float, const float *, int, const float *, int, float, float *, int);

/* Every row count 1-40 and more (every chunking of rows: 12s, 4s, the
 * rest), column counts with an even and an odd number of 8-column groups
 * and runs of more than 64 one-chain columns, k around the kernel's steps
 * of 8, all four transposes, tight and padded strides, beta 1 and beta 0
 * (NaN in C, not read), at both vector widths. */
NN_TEST(small_sgemm_tiled_both_widths_have_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    const char *core = nn_blas_corename();
    raw_sgemm blas = (raw_sgemm)(uintptr_t)nn_blas_symbol("cblas_sgemm");
    if (!blas || (strcmp(core, "Zen") && strcmp(core, "Haswell"))) {
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
