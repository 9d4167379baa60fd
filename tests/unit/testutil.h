/* Helpers shared by the unit tests: building tensors from literals,
 * comparing them, finite-difference gradient checks, and the PyTorch
 * reference-case runner. */
#ifndef NN_TESTUTIL_H
#define NN_TESTUTIL_H

#include "../nn_test.h"
#include "nn_ops.h"

/* A tensor of [dt] with the given shape and row-major values. */
nn_tensor *tu_tensor(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape, const double *v);
#define TU_SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define TU_VALS(...)  ((const double[]){__VA_ARGS__})

/* True when [t] has [ndim]/[shape] and every element is within atol + rtol*|e|
 * of [expect] (NaN matches NaN, inf matches inf). Prints the first mismatch
 * with [what]. */
bool tu_close(const nn_tensor *t, int ndim, const int64_t *shape, const double *expect, double rtol,
              double atol, const char *what);
/* Same, against another tensor. */
bool tu_close_tensor(const nn_tensor *t, const nn_tensor *expect, double rtol, double atol,
                     const char *what);

/* ---- finite differences ----
 * [fn] computes an output from inputs. gradcheck compares the gradients
 * backward() gives for loss = sum(fn(in) * w), w fixed random, with central
 * differences (step [eps]) for every element of every input that requires
 * grad. Inputs should be float64. Returns true when all agree within
 * atol + rtol * |numeric|; prints the worst element otherwise. */
typedef nn_tensor *(*tu_fn)(nn_ctx *ctx, nn_tensor **in, void *arg);
bool tu_gradcheck(nn_ctx *ctx, const char *name, tu_fn fn, nn_tensor **in, int n, void *arg,
                  double eps, double rtol, double atol);

/* ---- PyTorch reference cases ----
 * tests/torch/ref_<family>.py writes cases to $NNDB_REF_DIR/<family>.txt
 * (default build/ref). Each case names a C function in [table] that computes
 * the same thing from the same inputs; the runner compares the output and,
 * where the file has them, the gradients of sum(out * up) with respect to
 * each input. A case in the file without a C function, or a file that is
 * missing, is a failure. Returns the number of failed cases. */
typedef struct tu_ref_fn {
    const char *name;
    tu_fn fn;
} tu_ref_fn;
int tu_run_torch_refs(const char *family, const tu_ref_fn *table, int n_table);

/* [n] malloc'ed floats in [-1, 1) from a xorshift generator started at
 * [seed] (the same values on every machine), or NULL. */
float *tu_random_floats(size_t n, uint32_t seed);

/* ---- nn_small_gemm against OpenBLAS (test_matmul.c, test_small_gemm.c) ----
 * Declared where cblas.h came first (nn_blas.h): it brings <sched.h>'s
 * names, which other tests use for their own helpers. */
#ifdef CBLAS_H
typedef void (*tu_raw_sgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                             int, float, const float *, int, const float *, int, float, float *,
                             int);
/* cblas_sgemm where OpenBLAS runs the Zen or Haswell kernels whose order
 * nn_small_gemm.c copies; NULL elsewhere (the tests then check nothing:
 * the tiled paths are not used there). */
tu_raw_sgemm tu_openblas_with_known_order(void);
/* One product through nn_small_sgemm as OpenBLAS at [threads] would run it
 * and through [blas] (at the threads the test set), operands from [pool]
 * with [pad] more in each row stride, beta 0 on a C with NaN in it
 * ([zero]) or beta 1 on a C that is not zero: -1 when nn_small_sgemm does
 * not take it, else 1 when the bits differ, 0 when they are the same. */
int tu_sgemm_differs(tu_raw_sgemm blas, int threads, bool ta, bool tb, int m, int n, int k, int pad,
                     bool zero, const float *pool, size_t pool_n, float *c1, float *c2);
/* The operands and C of the two loops below. */
typedef struct {
    tu_raw_sgemm blas;
    int threads;
    const float *pool;
    size_t pool_n;
    float *c1, *c2;
    int round;   /* numbers the products: which are padded, which zero C */
    int differ;  /* how many had other bits */
    int skipped; /* how many tu_sgemm_shapes left out (TU_SGEMM_SANITIZED) */
} tu_sgemm_run;
/* Under the sanitizers each GPT shape of tu_sgemm_shapes runs in one
 * transpose, and only the first shape above 2^30 multiply-adds (an LM
 * head's) of the list runs at all: the big products took 3 of the ASan
 * unit run's 4.5 minutes, and what the sanitizers look at there, the memory
 * each block and share touches, is the same code at every size and is
 * reached at every edge by tu_sgemm_sweep and the smaller GPT shapes (no
 * offset of these products comes near 2^31). The plain build runs them
 * all, in every transpose, for the bits. */
#if defined(__SANITIZE_ADDRESS__)
#define TU_SGEMM_SANITIZED 1
#else
#define TU_SGEMM_SANITIZED 0
#endif
/* Each {m, n, k} of [shapes] in all four transposes (one, picked by the
 * shape's index, under the sanitizers), every third padded by 3, every
 * second on a zeroed C. Prints the first five that differ, after [label].
 * Returns how many nn_small_sgemm took; run->skipped counts the products
 * left out under the sanitizers. */
int tu_sgemm_shapes(tu_sgemm_run *run, const int (*shapes)[3], size_t count, const char *label);
/* Every m x n x k of the three lists, the transposes in turn, every third
 * padded by 5, every second on a zeroed C, on 256-bit vectors and then on
 * 512-bit ones; of the 256-bit ones only every [narrow_every]-th. Prints
 * the first ten that differ. Returns how many nn_small_sgemm took. */
int tu_sgemm_sweep(tu_sgemm_run *run, const int *ms, size_t nm, const int *ns, size_t nn,
                   const int *ks, size_t nk, int narrow_every, const char *label);
#endif

/* A whole file as a malloc'ed NUL-terminated string, or NULL. */
char *tu_read_file(const char *path);

#endif
