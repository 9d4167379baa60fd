/* nn_blas: CBLAS, loaded on first use.
 *
 * The BLAS library (OpenBLAS on Debian) is opened with dlopen the first time
 * an op needs a matrix product, not when nndb starts: loading it costs a few
 * milliseconds and threads, which a REPL that has not multiplied anything
 * yet should not pay. Ops that call nn_blas_sgemm/dgemm first call
 * nn_blas_require, which fails with a clear error when no BLAS is installed.
 * Nothing here allocates per call; the library handle lives for the process.
 */
#ifndef NN_BLAS_H
#define NN_BLAS_H

#include <cblas.h> /* the enums and the signatures only: nothing is linked */

#include "nn_ctx.h"

/* Load the library if needed; NN_OK, or an error naming what to install. */
nn_status nn_blas_require(nn_ctx *ctx);

/* cblas_sgemm / cblas_dgemm; only after nn_blas_require succeeded. */
void nn_blas_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m,
                   int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc);
void nn_blas_dgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m,
                   int n, int k, double alpha, const double *a, int lda, const double *b, int ldb,
                   double beta, double *c, int ldc);

/* nn_blas_sgemm without nndb's own product kernels (nn_small_gemm.h): the
 * library's products as nn_blas_sgemm hands them over, at any size on any
 * CPU; for tests and benchmarks. */
void nn_blas_sgemm_library(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb,
                           int m, int n, int k, float alpha, const float *a, int lda,
                           const float *b, int ldb, float beta, float *c, int ldc);

/* How many rows of a row-major C one BLAS call computes at most when C has
 * more than twice as many (0: the default, 8192); for tests. */
void nn_blas_set_split_rows(int rows);

/* Threads for BLAS: remembered until the library loads, then applied. */
void nn_blas_set_threads(int n);
/* Let the BLAS run each call on its caller's thread alone ([single]) or
 * go back to the thread count last set (the library's own before any):
 * for callers that split their own work across the engine's threads, one
 * BLAS call per thread (bmm over its batch, conv over its samples). Not
 * for nesting; the engine runs ops from one thread. */
void nn_blas_single_threaded(bool single);
/* How a caller that splits independent float products across the engine's
 * threads (bmm over its batch) keeps each product's bits, those the
 * library gives it at the thread count it runs on (PyTorch 1.13's bmm
 * calls sgemm once per batch entry, on OpenBLAS's threads):
 *  - NN_BLAS_SPLIT_ONE: the library runs on one thread (or has no thread
 *    control): run the tasks inside nn_blas_single_threaded;
 *  - NN_BLAS_SPLIT_HERE: at two OpenBLAS threads, float32, where
 *    nn_small_sgemm's model of the library's split checked out: call
 *    nn_blas_sgemm from the tasks as they are; it computes each product in
 *    OpenBLAS's two threads' order on the calling thread (the shares one
 *    after the other: a task runs nested pool jobs inline);
 *  - NN_BLAS_SPLIT_NONE: otherwise (float64 at two threads, three or more,
 *    no AVX-512): one product after another, the library on its threads. */
typedef enum nn_blas_split {
    NN_BLAS_SPLIT_ONE,
    NN_BLAS_SPLIT_HERE,
    NN_BLAS_SPLIT_NONE
} nn_blas_split;
nn_blas_split nn_blas_split_mode(bool f32);
/* The BLAS's own thread count (openblas_get_num_threads), loading the
 * library if needed; 0 when the BLAS has no such call. */
int nn_blas_get_threads(void);
/* The library's kernel set ("Haswell", "Prescott", ...), loading it if
 * needed; "unknown" when the library does not say or cannot load. */
const char *nn_blas_corename(void);
/* Whether nndb's own products stand in for OpenBLAS's at two threads: its
 * model of the library's split checked out (nn_blas.c, once; false where
 * it did not, or the products stay with OpenBLAS anyway: no AVX-512, not
 * the Zen/Haswell kernels). Sets the library to two threads for the check
 * and back. For tests. */
bool nn_blas_own_two_threads(void);

/* A symbol of the loaded library (LAPACK's dgetrf_, cblas_dtrsm, ...), loading it if
 * needed; NULL when there is no library or it lacks the symbol. Debian's
 * OpenBLAS carries LAPACK (engine/ops/ops_linalg.c). */
void *nn_blas_symbol(const char *name);

#endif
