/* nn_small_gemm: row-major float32 C += A B for products so small that
 * OpenBLAS's fixed cost per call (dispatch, packing into its buffers) is
 * most of the time: a 2-64-64-3 MLP's layers with 2 inputs or 3 outputs,
 * their gradients, a batch of one; while OpenBLAS runs on one thread, the
 * products of attention heads (up to 1024 x 256 x 256); and, on a CPU with
 * AVX-512, at one OpenBLAS thread or two, every larger one (a GPT's Linear
 * layers and LM head), where its packing and its AVX2 kernel cost more
 * than packed 512-bit tiles (at two, split between the engine's two
 * threads as OpenBLAS splits it between its own).
 * Only the shapes whose order of sums in OpenBLAS is known are taken
 * (nn_small_gemm.c states it: one FMA chain over k per element, or two in
 * some tiles), and the sums are made in that order, so the results have
 * OpenBLAS's bits, which are PyTorch's: tests/unit/test_matmul.c and
 * tests/unit/test_small_gemm.c compare the two over every such shape and
 * layout.
 *
 * Used by nn_blas_sgemm. Packing uses the stack, and for the largest
 * products a 420 KiB buffer (two for a product split in two) per calling
 * thread, allocated at the thread's first such product and kept until the
 * thread ends. */
#ifndef NN_SMALL_GEMM_H
#define NN_SMALL_GEMM_H

#include <stdbool.h>

/* C [m, n] (row stride ldc) += op(A) [m, k] op(B) [k, n], op the transpose
 * when [ta] / [tb]; A and B row-major with row strides lda, ldb. With
 * [overwrite], C = op(A) op(B) + 0 (BLAS's beta 0: C's old values, NaN
 * included, are not read), the bits of clearing C first. [blas_threads]:
 * the threads OpenBLAS runs on (0 when not known). At 1, products above
 * 64^3 multiply-adds are taken too: up to 1024 x 256 x 256, and, where
 * AVX-512 runs, any with m up to 16384; at 2, the same for those OpenBLAS
 * keeps on one thread (m n k <= 65536 x 4), and, where AVX-512 runs, the
 * larger ones with m up to 65536, in OpenBLAS's two threads' order, on
 * the engine's pool; at other counts, only the smaller paths. Returns
 * false, having touched nothing, when the shape is not one it takes (the
 * caller then calls the BLAS). */
bool nn_small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda, const float *b,
                    int ldb, float *c, int ldc, bool overwrite, int blas_threads);

/* Tests: run every product on 256-bit vectors even where the CPU has
 * 512-bit ones (both must give OpenBLAS's bits). */
void nn_small_sgemm_force_avx2(bool on);

#endif
