/* matmul and linear: hand-checked products for every rank combination,
 * transposed operands without copies, bad input, and finite-difference
 * gradient checks in float64 (broadcast batch dims, non-contiguous inputs,
 * linear with and without bias). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_mem.h"
#include "nn_small_gemm.h"
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)
#define V(...) TU_VALS(__VA_ARGS__)

static nn_tensor *t64(nn_ctx *ctx, int nd, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_FLOAT64, nd, shape, v);
}

static nn_tensor *leaf(nn_ctx *ctx, int nd, const int64_t *shape) {
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, nd, shape);
    nn_tensor_requires_grad_(ctx, t, true);
    return t;
}

/* A [rows, cols] leaf stored column-major: its transpose is contiguous. */
static nn_tensor *tleaf(nn_ctx *ctx, int64_t rows, int64_t cols) {
    nn_tensor *base = nn_randn(ctx, NN_FLOAT64, 2, S(cols, rows));
    int64_t shape[2] = {rows, cols}, st[2] = {1, rows};
    nn_tensor *v = nn_tensor_view_raw(ctx, base, 2, shape, st, 0);
    nn_tensor_release(base);
    nn_tensor_requires_grad_(ctx, v, true);
    return v;
}

/* A [rows, cols] leaf with both strides above 1 (every other column of a
 * wider matrix): BLAS cannot take it without a copy. */
static nn_tensor *sliced_leaf(nn_ctx *ctx, int64_t rows, int64_t cols) {
    nn_tensor *base = nn_randn(ctx, NN_FLOAT64, 2, S(rows, 2 * cols));
    int64_t shape[2] = {rows, cols}, st[2] = {2 * cols, 2};
    nn_tensor *v = nn_tensor_view_raw(ctx, base, 2, shape, st, 1);
    nn_tensor_release(base);
    nn_tensor_requires_grad_(ctx, v, true);
    return v;
}

static void release_all(nn_tensor **ts, int n) {
    for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
}

NN_TEST(matmul_ranks) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = t64(ctx, 2, S(2, 3), V(1, 2, 3, 4, 5, 6));
    nn_tensor *b = t64(ctx, 2, S(3, 2), V(1, 0, 0, 1, 1, 1));
    nn_tensor *v3 = t64(ctx, 1, S(3), V(1, 1, 2));
    nn_tensor *v2 = t64(ctx, 1, S(2), V(1, -1));
    nn_tensor *ab = nn_matmul(ctx, a, b);
    CHECK(tu_close(ab, 2, S(2, 2), V(4, 5, 10, 11), 0, 0, "2-D @ 2-D"));
    nn_tensor *dot = nn_matmul(ctx, v3, v3);
    CHECK(tu_close(dot, 0, NULL, V(6), 0, 0, "1-D @ 1-D"));
    nn_tensor *mv = nn_matmul(ctx, a, v3);
    CHECK(tu_close(mv, 1, S(2), V(9, 21), 0, 0, "2-D @ 1-D"));
    nn_tensor *vm = nn_matmul(ctx, v2, a);
    CHECK(tu_close(vm, 1, S(3), V(-3, -3, -3), 0, 0, "1-D @ 2-D"));
    /* [2, 2, 3] @ [3, 2]: batch of a, shared b. */
    nn_tensor *a3 = t64(ctx, 3, S(2, 2, 3), V(1, 2, 3, 4, 5, 6, 0, 0, 1, 1, 0, 0));
    nn_tensor *a3b = nn_matmul(ctx, a3, b);
    CHECK(tu_close(a3b, 3, S(2, 2, 2), V(4, 5, 10, 11, 1, 1, 1, 0), 0, 0, "3-D @ 2-D"));
    nn_tensor *a3v = nn_matmul(ctx, a3, v3);
    CHECK(tu_close(a3v, 2, S(2, 2), V(9, 21, 2, 1), 0, 0, "3-D @ 1-D"));
    nn_tensor *va3 = nn_matmul(ctx, v2, a3);
    CHECK(tu_close(va3, 2, S(2, 3), V(-3, -3, -3, -1, 0, 1), 0, 0, "1-D @ 3-D"));
    /* [2, 1, 2, 3] @ [3, 3, 2] broadcast to [2, 3, 2, 2]. */
    nn_tensor *a4 = nn_randn(ctx, NN_FLOAT64, 4, S(2, 1, 2, 3));
    nn_tensor *b3 = nn_randn(ctx, NN_FLOAT64, 3, S(3, 3, 2));
    nn_tensor *c4 = nn_matmul(ctx, a4, b3);
    CHECK(c4 && c4->ndim == 4 && c4->shape[0] == 2 && c4->shape[1] == 3 && c4->shape[2] == 2 &&
          c4->shape[3] == 2);
    if (c4) {
        double worst = 0;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 3; j++)
                for (int m = 0; m < 2; m++)
                    for (int n = 0; n < 2; n++) {
                        double s = 0;
                        for (int k = 0; k < 3; k++)
                            s += nn_tensor_get_flat(a4, (i * 2 + m) * 3 + k) *
                                 nn_tensor_get_flat(b3, (j * 3 + k) * 2 + n);
                        double got = nn_tensor_get_flat(c4, ((i * 3 + j) * 2 + m) * 2 + n);
                        worst = fmax(worst, fabs(got - s));
                    }
        CHECK_NEAR(worst, 0, 1e-12);
    }
    nn_tensor *ts[] = {a, b, v3, v2, ab, dot, mv, vm, a3, a3b, a3v, va3, a4, b3, c4};
    release_all(ts, 15);
    nn_ctx_free(ctx);
}

NN_TEST(matmul_float32_and_int64) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = tu_tensor(ctx, NN_FLOAT32, 2, S(2, 2), V(1, 2, 3, 4));
    nn_tensor *c = nn_matmul(ctx, a, a);
    CHECK(c && c->dtype == NN_FLOAT32 && tu_close(c, 2, S(2, 2), V(7, 10, 15, 22), 0, 0, "f32"));
    nn_tensor *i = tu_tensor(ctx, NN_INT64, 2, S(2, 2), V(1, 2, 3, 4));
    nn_tensor *ci = nn_matmul(ctx, i, i);
    CHECK(ci && ci->dtype == NN_INT64 && tu_close(ci, 2, S(2, 2), V(7, 10, 15, 22), 0, 0, "i64"));
    nn_tensor *ts[] = {a, c, i, ci};
    release_all(ts, 4);
    nn_ctx_free(ctx);
}

NN_TEST(matmul_empty_inner_dim_is_zeros) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = nn_ones(ctx, NN_FLOAT32, 2, S(2, 0)), *b = nn_ones(ctx, NN_FLOAT32, 2, S(0, 3));
    nn_tensor *c = nn_matmul(ctx, a, b);
    CHECK(tu_close(c, 2, S(2, 3), V(0, 0, 0, 0, 0, 0), 0, 0, "K = 0"));
    nn_tensor *e = nn_ones(ctx, NN_FLOAT32, 3, S(0, 2, 2));
    nn_tensor *d = nn_matmul(ctx, e, e);
    CHECK(d && d->ndim == 3 && d->shape[0] == 0);
    nn_tensor *ts[] = {a, b, c, e, d};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

NN_TEST(matmul_errors_name_both_shapes) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = nn_ones(ctx, NN_FLOAT32, 2, S(2, 3)), *b = nn_ones(ctx, NN_FLOAT32, 2, S(4, 5));
    CHECK(nn_matmul(ctx, a, b) == NULL && ctx->err.code == NN_ERR_SHAPE);
    /* 2-D: PyTorch's message; batched: both shapes and the inner dims */
    CHECK_MSG(strstr(nn_ctx_error(ctx), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
              "%s", nn_ctx_error(ctx));
    nn_tensor *a3 = nn_ones(ctx, NN_FLOAT32, 3, S(2, 2, 3));
    CHECK(nn_matmul(ctx, a3, b) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK_MSG(strstr(nn_ctx_error(ctx), "matmul: [2, 2, 3] @ [4, 5]: inner dims 3 and 4 differ"),
              "%s", nn_ctx_error(ctx));
    nn_tensor_release(a3);
    nn_tensor *d = nn_ones(ctx, NN_FLOAT64, 2, S(3, 5));
    /* PyTorch's words for a dtype mismatch, a RuntimeError as there */
    CHECK(nn_matmul(ctx, a, d) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    CHECK_MSG(strstr(nn_ctx_error(ctx), "expected scalar type Float but found Double"), "%s",
              nn_ctx_error(ctx));
    nn_tensor *x = nn_ones(ctx, NN_FLOAT32, 3, S(3, 2, 3)),
              *y = nn_ones(ctx, NN_FLOAT32, 3, S(4, 3, 5));
    CHECK(nn_matmul(ctx, x, y) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK(strstr(nn_ctx_error(ctx), "[3, 2, 3] @ [4, 3, 5]") != NULL);
    nn_tensor *s = nn_scalar(ctx, 2, NN_FLOAT32);
    CHECK(nn_matmul(ctx, s, a) == NULL && ctx->err.code == NN_ERR_SHAPE);
    nn_tensor *bl = nn_ones(ctx, NN_BOOL, 2, S(2, 2));
    CHECK(nn_matmul(ctx, bl, bl) == NULL && ctx->err.code == NN_ERR_TYPE);
    /* linear */
    nn_tensor *w = nn_ones(ctx, NN_FLOAT32, 2, S(4, 5));
    CHECK(nn_linear(ctx, a, w, NULL) == NULL && ctx->err.code == NN_ERR_SHAPE);
    CHECK_MSG(strstr(nn_ctx_error(ctx), "mat1 and mat2 shapes cannot be multiplied (2x3 and 5x4)"),
              "%s", nn_ctx_error(ctx)); /* PyTorch's: input rows x in, weight.T */
    nn_tensor *w2 = nn_ones(ctx, NN_FLOAT32, 2, S(4, 3)), *b2 = nn_ones(ctx, NN_FLOAT32, 1, S(5));
    CHECK(nn_linear(ctx, a, w2, b2) == NULL && ctx->err.code == NN_ERR_SHAPE);
    nn_tensor *w64 = nn_ones(ctx, NN_FLOAT64, 2, S(4, 3));
    CHECK(nn_linear(ctx, a, w64, NULL) == NULL && ctx->err.code == NN_ERR_RUNTIME);
    CHECK(nn_linear(ctx, a, w64, b2) == NULL &&
          strstr(nn_ctx_error(ctx), "self and mat2 must have the same dtype"));
    nn_tensor *ts[] = {a, b, d, x, y, s, bl, w, w2, b2, w64};
    release_all(ts, 11);
    nn_ctx_free(ctx);
}

NN_TEST(matmul_transposed_operand_is_not_copied) {
    /* x.T @ y on a 64x64 transposed view: the only new memory is the output. */
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = tleaf(ctx, 64, 64), *y = nn_randn(ctx, NN_FLOAT64, 2, S(64, 64));
    nn_tensor *xc = nn_tensor_contiguous_raw(ctx, x);
    /* The same product of contiguous operands sets the bar: no more memory. */
    bool prev = nn_ctx_set_grad(ctx, false); /* no autograd node in the count */
    nn_mem_stats m0 = nn_mem_get_stats();
    nn_tensor *r = nn_matmul(ctx, xc, y);
    nn_mem_stats m1 = nn_mem_get_stats();
    nn_tensor *c = nn_matmul(ctx, x, y);
    nn_mem_stats m2 = nn_mem_get_stats();
    nn_ctx_set_grad(ctx, prev);
    CHECK(c != NULL);
    CHECK_MSG(m2.in_use - m1.in_use == m1.in_use - m0.in_use, "transposed %zu vs contiguous %zu",
              m2.in_use - m1.in_use, m1.in_use - m0.in_use);
    CHECK(tu_close_tensor(c, r, 1e-13, 1e-13, "transposed vs copied"));
    nn_tensor *ts[] = {x, y, c, xc, r};
    release_all(ts, 5);
    nn_ctx_free(ctx);
}

NN_TEST(linear_values) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = t64(ctx, 2, S(2, 3), V(1, 2, 3, 4, 5, 6));
    nn_tensor *w = t64(ctx, 2, S(2, 3), V(1, 0, 0, 1, 1, 1));
    nn_tensor *b = t64(ctx, 1, S(2), V(10, 20));
    nn_tensor *y = nn_linear(ctx, x, w, b), *y0 = nn_linear(ctx, x, w, NULL);
    CHECK(tu_close(y, 2, S(2, 2), V(11, 26, 14, 35), 0, 0, "linear bias"));
    CHECK(tu_close(y0, 2, S(2, 2), V(1, 6, 4, 15), 0, 0, "linear no bias"));
    nn_tensor *v = t64(ctx, 1, S(3), V(1, 1, 1));
    nn_tensor *yv = nn_linear(ctx, v, w, b);
    CHECK(tu_close(yv, 1, S(2), V(11, 23), 0, 0, "linear 1-D input"));
    nn_tensor *ts[] = {x, w, b, y, y0, v, yv};
    release_all(ts, 7);
    nn_ctx_free(ctx);
}

/* ---- finite differences ---- */

static nn_tensor *mm_fn(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_matmul(ctx, in[0], in[1]);
}
static nn_tensor *lin_fn(nn_ctx *ctx, nn_tensor **in, void *arg) {
    return nn_linear(ctx, in[0], in[1], in[2]);
}
/* matmul whose output is then summed: dout reaches matmul as a stride-0 view. */
static nn_tensor *mm_sum_fn(nn_ctx *ctx, nn_tensor **in, void *arg) {
    nn_tensor *c = nn_matmul(ctx, in[0], in[1]);
    nn_tensor *s = c ? nn_sum(ctx, c, NULL, 0, false) : NULL;
    nn_tensor_release(c);
    return s;
}

static void gc_mm(nn_ctx *ctx, const char *name, nn_tensor *a, nn_tensor *b, tu_fn fn) {
    nn_tensor *in[2] = {a, b};
    CHECK_MSG(tu_gradcheck(ctx, name, fn, in, 2, NULL, 1e-6, 1e-7, 1e-8), "%s", name);
    nn_tensor_release(a);
    nn_tensor_release(b);
}

NN_TEST(matmul_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(3);
    gc_mm(ctx, "2-D", leaf(ctx, 2, S(3, 4)), leaf(ctx, 2, S(4, 5)), mm_fn);
    gc_mm(ctx, "dot", leaf(ctx, 1, S(4)), leaf(ctx, 1, S(4)), mm_fn);
    gc_mm(ctx, "mat-vec", leaf(ctx, 2, S(3, 4)), leaf(ctx, 1, S(4)), mm_fn);
    gc_mm(ctx, "vec-mat", leaf(ctx, 1, S(3)), leaf(ctx, 2, S(3, 4)), mm_fn);
    gc_mm(ctx, "batch @ shared", leaf(ctx, 3, S(2, 3, 4)), leaf(ctx, 2, S(4, 5)), mm_fn);
    gc_mm(ctx, "shared @ batch", leaf(ctx, 2, S(3, 4)), leaf(ctx, 3, S(2, 4, 5)), mm_fn);
    gc_mm(ctx, "batch @ batch", leaf(ctx, 3, S(2, 3, 4)), leaf(ctx, 3, S(2, 4, 2)), mm_fn);
    gc_mm(ctx, "broadcast batch", leaf(ctx, 4, S(2, 1, 3, 4)), leaf(ctx, 3, S(3, 4, 2)), mm_fn);
    gc_mm(ctx, "vec @ batch", leaf(ctx, 1, S(4)), leaf(ctx, 3, S(2, 4, 3)), mm_fn);
    gc_mm(ctx, "batch @ vec", leaf(ctx, 3, S(2, 3, 4)), leaf(ctx, 1, S(4)), mm_fn);
    gc_mm(ctx, "transposed a", tleaf(ctx, 3, 4), leaf(ctx, 2, S(4, 2)), mm_fn);
    gc_mm(ctx, "transposed b", leaf(ctx, 2, S(3, 4)), tleaf(ctx, 4, 2), mm_fn);
    gc_mm(ctx, "sliced a", sliced_leaf(ctx, 3, 4), tleaf(ctx, 4, 2), mm_fn);
    gc_mm(ctx, "batch, dout expanded", leaf(ctx, 3, S(2, 3, 4)), leaf(ctx, 2, S(4, 5)), mm_sum_fn);
    gc_mm(ctx, "empty inner", leaf(ctx, 2, S(2, 0)), leaf(ctx, 2, S(0, 3)), mm_fn);
    nn_ctx_free(ctx);
}

static void gc_lin(nn_ctx *ctx, const char *name, nn_tensor *x, nn_tensor *w, nn_tensor *b) {
    nn_tensor *in[3] = {x, w, b};
    CHECK_MSG(tu_gradcheck(ctx, name, lin_fn, in, 3, NULL, 1e-6, 1e-7, 1e-8), "%s", name);
    release_all(in, 3);
}

NN_TEST(linear_gradcheck) {
    nn_ctx *ctx = nn_ctx_new(5);
    gc_lin(ctx, "2-D bias", leaf(ctx, 2, S(4, 3)), leaf(ctx, 2, S(5, 3)), leaf(ctx, 1, S(5)));
    gc_lin(ctx, "2-D no bias", leaf(ctx, 2, S(4, 3)), leaf(ctx, 2, S(5, 3)), NULL);
    gc_lin(ctx, "3-D input", leaf(ctx, 3, S(2, 3, 4)), leaf(ctx, 2, S(2, 4)), leaf(ctx, 1, S(2)));
    gc_lin(ctx, "1-D input", leaf(ctx, 1, S(3)), leaf(ctx, 2, S(2, 3)), leaf(ctx, 1, S(2)));
    gc_lin(ctx, "transposed x", tleaf(ctx, 4, 3), leaf(ctx, 2, S(2, 3)), leaf(ctx, 1, S(2)));
    gc_lin(ctx, "transposed W", leaf(ctx, 2, S(4, 3)), tleaf(ctx, 2, 3), NULL);
    gc_lin(ctx, "sliced x and W", sliced_leaf(ctx, 4, 3), sliced_leaf(ctx, 2, 3),
           leaf(ctx, 1, S(2)));
    nn_ctx_free(ctx);
}

/* OpenBLAS is loaded with its workers told to sleep right after a product
 * (OPENBLAS_THREAD_TIMEOUT, read when the library loads; nn_blas.c): a
 * spinning worker kept the engine's own worker off the second core. A
 * value the user set is left alone. */
NN_TEST(blas_loaded_with_short_thread_timeout) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    void *openblas = nn_blas_symbol("openblas_set_num_threads");
    const char *v = getenv("OPENBLAS_THREAD_TIMEOUT");
    CHECK_MSG(!openblas || (v && *v), "OPENBLAS_THREAD_TIMEOUT set before loading OpenBLAS");
    nn_ctx_free(ctx);
}

/* nn_small_gemm (used by nn_blas_sgemm for tiny products) against the
 * library's own cblas_sgemm, bit for bit: every shape it takes over a sweep
 * of m, n, k, both transposes and padded row strides, C += A B on a C that
 * is not zero. Only where it is used: OpenBLAS with the Zen or Haswell
 * kernels (elsewhere it is not called, and nothing is checked). */
NN_TEST(small_sgemm_has_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    if (!blas) {
        nn_ctx_free(ctx);
        return;
    }
    enum { POOL = 1 << 17 };
    float *pool = tu_random_floats(POOL, 12345), *c1 = malloc(sizeof(float) * 70 * 300),
          *c2 = malloc(sizeof(float) * 70 * 300);
    CHECK(pool && c1 && c2);
    static const int ms[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 33, 64, 65};
    static const int ks[] = {1, 2, 3, 5, 8, 9, 31, 64, 100, 256};
    int taken = 0, differ = 0, n_ms = (int)(sizeof ms / sizeof ms[0]);
    /* on 256-bit vectors, and on 512-bit ones where the CPU has them */
    for (int q = 0; q < 16; q++) {
        bool ta = q & 1, tb = q & 2, pad = q & 4, wide = q & 8;
        nn_small_sgemm_force_avx2(!wide);
        for (int im = 0; im < n_ms; im++)
            for (int in = 0; in < n_ms; in++)
                for (size_t ik = 0; ik < sizeof ks / sizeof ks[0]; ik++) {
                    int m = ms[im], n = ms[in], k = ks[ik], p = pad ? 3 : 0;
                    int lda = (ta ? m : k) + p, ldb = (tb ? k : n) + p, ldc = n + p;
                    const float *a = pool + (m * 7 + k) % 1000, *b = pool + 40000 + n * 13 % 1000;
                    memcpy(c1, pool + 90000, sizeof(float) * (size_t)(m * ldc));
                    memcpy(c2, c1, sizeof(float) * (size_t)(m * ldc));
                    if (!nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, false, false))
                        continue;
                    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                         tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 1.0f, c2,
                         ldc);
                    taken++;
                    if (memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc))) {
                        if (differ++ < 5)
                            fprintf(stderr,
                                    "small sgemm differs: wide %d ta %d tb %d m %d n %d k %d\n",
                                    wide, ta, tb, m, n, k);
                    }
                    /* beta 0: C's old values, NaN among them, not read */
                    for (int i = 0; i < m * ldc; i++) c1[i] = c2[i] = i % 5 ? pool[i] : NAN;
                    nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, true, false);
                    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                         tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c2,
                         ldc);
                    if (memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc)) && differ++ < 5)
                        fprintf(
                            stderr,
                            "small sgemm, beta 0, differs: wide %d ta %d tb %d m %d n %d k %d\n",
                            wide, ta, tb, m, n, k);
                }
    }
    nn_small_sgemm_force_avx2(false);
    /* the tiled path (rows of C a whole number of vectors): every row
     * count 1-30 and more, so that every chunking of rows occurs */
    int tiled = 0;
    for (int q = 0; q < 8; q++) {
        bool ta = q & 1, tb = q & 2, pad = q & 4;
        static const int tn[] = {8, 16, 24, 40, 64, 128};
        static const int tk[] = {1, 7, 8, 9, 17, 64, 65, 128, 256};
        for (int m = 1; m <= 100; m += m < 30 ? 1 : 7)
            for (size_t in = 0; in < sizeof tn / sizeof tn[0]; in++)
                for (size_t ik = 0; ik < sizeof tk / sizeof tk[0]; ik++) {
                    int n = tn[in], k = tk[ik], p = pad ? 5 : 0;
                    if (k * n > 8192 || (int64_t)m * n * k > 262144) continue;
                    int lda = (ta ? m : k) + p, ldb = (tb ? k : n) + p, ldc = n + p;
                    const float *a = pool + (m * 3 + k) % 1000, *b = pool + 50000 + n * 7 % 1000;
                    memcpy(c1, pool + 90000, sizeof(float) * (size_t)(m * ldc));
                    memcpy(c2, c1, sizeof(float) * (size_t)(m * ldc));
                    if (!nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, false, false))
                        continue;
                    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                         tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 1.0f, c2,
                         ldc);
                    tiled++;
                    if (memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc))) {
                        if (differ++ < 5)
                            fprintf(stderr, "tiled sgemm differs: ta %d tb %d m %d n %d k %d\n", ta,
                                    tb, m, n, k);
                    }
                    /* beta 0 (overwrite): C's old values, NaN among them, not read */
                    for (int i = 0; i < m * ldc; i++) c1[i] = c2[i] = i % 5 ? pool[i] : NAN;
                    nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, true, false);
                    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                         tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c2,
                         ldc);
                    if (memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc))) {
                        if (differ++ < 5)
                            fprintf(stderr,
                                    "tiled sgemm, beta 0, differs: ta %d tb %d m %d n %d k %d\n",
                                    ta, tb, m, n, k);
                    }
                }
    }
    CHECK_MSG(tiled > 1500, "the sweep reached the tiled kernel (%d products)", tiled);
    CHECK_MSG(taken > 4000, "the sweep reached the small kernel (%d products)", taken);
    CHECK_MSG(differ == 0, "the small kernel has OpenBLAS's bits");
    free(pool);
    free(c1);
    free(c2);
    nn_ctx_free(ctx);
}

/* The larger products nn_small_gemm takes while OpenBLAS runs on one
 * thread (a GPT's attention heads: [256x64]x[64x256], [256x256]x[256x64])
 * against cblas_sgemm at one thread, bit for bit, on 512-bit vectors where
 * the CPU has them and on 256-bit ones: every row chunking (12s, then 4s,
 * then the rest), column counts with an even and an odd number of 8-column
 * groups, k around the kernel's steps of 8, all four transposes, beta 0 and
 * 1, tight and padded row strides and the qkv output's 2304. */
NN_TEST(small_sgemm_panels_have_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    if (!blas) {
        nn_ctx_free(ctx);
        return;
    }
    enum { POOL = 1 << 21 };
    float *pool = tu_random_floats(POOL, 777), *c1 = malloc(sizeof(float) * 1024 * 2304),
          *c2 = malloc(sizeof(float) * 1024 * 2304);
    CHECK(pool && c1 && c2);
    static const int ms[] = {12, 13, 17, 20, 64, 100, 256, 257, 1024};
    static const int ns[] = {8, 24, 64, 72, 256};
    static const int ks[] = {9, 64, 65, 255, 256};
    nn_blas_single_threaded(true);
    int taken = 0, differ = 0, round = 0;
    for (int wide = 0; wide < 2; wide++) {
        nn_small_sgemm_force_avx2(!wide);
        for (int q = 0; q < 4; q++) {
            bool ta = q & 1, tb = q & 2;
            for (size_t im = 0; im < sizeof ms / sizeof ms[0]; im++)
                for (size_t in = 0; in < sizeof ns / sizeof ns[0]; in++)
                    for (size_t ik = 0; ik < sizeof ks / sizeof ks[0]; ik++) {
                        int m = ms[im], n = ns[in], k = ks[ik], r = round++;
                        if ((int64_t)m * n * k <= 262144) continue; /* the tiled path's */
                        int pad = r % 3 == 0 ? 0 : r % 3 == 1 ? 3 : 2304;
                        int lda = pad == 2304 ? 2304 : (ta ? m : k) + pad,
                            ldb = pad == 2304 ? 2304 : (tb ? k : n) + pad,
                            ldc = pad == 2304 ? 2304 : n + pad;
                        if ((int64_t)lda * (ta ? k : m) > POOL / 2 ||
                            (int64_t)ldb * (tb ? n : k) > POOL / 2)
                            continue;
                        bool zero = r % 2;
                        const float *a = pool + r % 61, *b = pool + POOL / 2 + r % 67;
                        for (int i = 0; i < m * ldc; i++)
                            c1[i] = c2[i] = zero && i % 5 == 0 ? NAN : pool[(i * 7) % POOL];
                        if (!nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, zero, true))
                            continue;
                        blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                             tb ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a, lda, b, ldb,
                             zero ? 0.0f : 1.0f, c2, ldc);
                        taken++;
                        if (memcmp(c1, c2, sizeof(float) * (size_t)m * ldc) && differ++ < 5)
                            fprintf(stderr,
                                    "panel sgemm differs: wide %d ta %d tb %d m %d n %d k %d "
                                    "beta %d\n",
                                    wide, ta, tb, m, n, k, !zero);
                    }
        }
    }
    nn_small_sgemm_force_avx2(false);
    nn_blas_single_threaded(false);
    CHECK_MSG(taken > 300, "the sweep reached the panel kernels (%d products)", taken);
    CHECK_MSG(differ == 0, "the panel kernels have OpenBLAS's bits (%d of %d differ)", differ,
              taken);
    /* Through nn_blas_sgemm at the thread count the session has (OpenBLAS
     * splits a product this size among its threads, in another order: the
     * panels must not be used then) and at one thread. */
    int m = 256, n = 256, k = 64;
    for (int single = 0; single < 2; single++) {
        nn_blas_single_threaded(single);
        for (int i = 0; i < m * n; i++) c1[i] = c2[i] = pool[i];
        nn_blas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, 2304,
                      pool + POOL / 2, 2304, 0.0f, c1, n);
        blas(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, 2304, pool + POOL / 2,
             2304, 0.0f, c2, n);
        CHECK_MSG(!memcmp(c1, c2, sizeof(float) * (size_t)m * n),
                  "nn_blas_sgemm has cblas_sgemm's bits (one thread: %d)", single);
    }
    nn_blas_single_threaded(false);
    free(pool), free(c1), free(c2);
    nn_ctx_free(ctx);
}

/* A row-major C of many rows goes to the BLAS in blocks of rows (so
 * OpenBLAS packs less at once): at one thread the same bits as one call
 * (at two, OpenBLAS's bits already depend on how it splits the rows between
 * its threads: one call at 1 and at 2 threads differ), for both
 * transposes of each operand, padded leading dimensions, beta 0 and 1, a
 * row count that is not a multiple of the block, and k above the BLAS's
 * own block of k. */
NN_TEST(matmul_sgemm_row_blocks_same_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    int m = 1037, n = 96, k = 700, pad = 3;
    size_t na = (size_t)(m + pad) * (k + pad), nb = (size_t)(k + pad) * (n + pad),
           nc = (size_t)m * (n + pad);
    float *a = malloc(na * sizeof(float)), *b = malloc(nb * sizeof(float));
    float *c1 = malloc(nc * sizeof(float)), *c2 = malloc(nc * sizeof(float));
    CHECK(a && b && c1 && c2);
    uint32_t r = 12345;
    for (size_t i = 0; i < na; i++)
        a[i] = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    for (size_t i = 0; i < nb; i++)
        b[i] = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    int cases = 0, same = 0;
    nn_blas_single_threaded(true); /* at 2 threads the bits follow OpenBLAS's split */
    for (int tra = 0; tra < 2; tra++)
        for (int trb = 0; trb < 2; trb++)
            for (int beta = 0; beta < 2; beta++) {
                enum CBLAS_TRANSPOSE ta = tra ? CblasTrans : CblasNoTrans,
                                     tb = trb ? CblasTrans : CblasNoTrans;
                int lda = (tra ? m : k) + pad, ldb = (trb ? k : n) + pad, ldc = n + pad;
                for (size_t i = 0; i < nc; i++) c1[i] = c2[i] = (float)(i % 7) * 0.25f;
                nn_blas_set_split_rows(1 << 30); /* one call */
                nn_blas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, (float)beta, c1,
                              ldc);
                nn_blas_set_split_rows(384); /* blocks of 384, 384 and 269 rows */
                nn_blas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, (float)beta, c2,
                              ldc);
                nn_blas_set_split_rows(0);
                cases++;
                same += memcmp(c1, c2, nc * sizeof(float)) == 0;
                double err = 0;
                for (int i = 0; i < m; i += 97) { /* and it is the product */
                    double s = beta ? (double)((size_t)i * ldc % 7) * 0.25 : 0.0;
                    for (int p = 0; p < k; p++)
                        s += (double)(tra ? a[(size_t)p * lda + i] : a[(size_t)i * lda + p]) *
                             (double)(trb ? b[(size_t)0 * ldb + p] : b[(size_t)p * ldb + 0]);
                    double e = fabs(s - c2[(size_t)i * ldc]);
                    if (e > err) err = e;
                }
                CHECK_MSG(err < 1e-3, "ta %d tb %d beta %d: error %g", tra, trb, beta, err);
            }
    nn_blas_single_threaded(false);
    CHECK_MSG(same == cases, "%d of %d cases kept the bits", same, cases);
    free(a), free(b), free(c1), free(c2);
    nn_ctx_free(ctx);
}

/* A large C at beta 0 and one thread is cleared and multiplied by the
 * library in blocks of 384 rows or a multiple (nn_blas.c's
 * sgemm_in_blocks), each cleared just before its product: the same bits as one
 * cblas_sgemm call with beta 0, whatever C held before (NaN included), for
 * the GPT-2 124M step's weight-gradient shapes (dW = dy^T x: [3072, 768],
 * [768, 3072], [2304, 768] from k = 256 rows) in all four transposes, row
 * counts that are not a multiple of the block, padded leading dimensions,
 * and k above the BLAS's own block of k. */
NN_TEST(matmul_sgemm_cleared_blocks_same_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = (tu_raw_sgemm)(uintptr_t)nn_blas_symbol("cblas_sgemm");
    CHECK(blas != NULL);
    static const int shapes[][4] = {{3072, 768, 256, 0},
                                    {768, 3072, 256, 0},
                                    {2304, 768, 256, 3},
                                    {1933, 700, 700, 5},
                                    {2000, 1000, 1000, 1}};
    size_t most = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        size_t sz = (size_t)(shapes[s][0] + 8) * (shapes[s][2] + 8);
        if ((size_t)(shapes[s][1] + 8) * (shapes[s][2] + 8) > sz)
            sz = (size_t)(shapes[s][1] + 8) * (shapes[s][2] + 8);
        if ((size_t)shapes[s][0] * (shapes[s][1] + 8) > sz)
            sz = (size_t)shapes[s][0] * (shapes[s][1] + 8);
        if (sz > most) most = sz;
    }
    float *a = malloc(most * sizeof(float)), *b = malloc(most * sizeof(float));
    float *c1 = malloc(most * sizeof(float)), *c2 = malloc(most * sizeof(float));
    CHECK(a && b && c1 && c2);
    uint32_t r = 4321;
    for (size_t i = 0; i < most; i++) {
        a[i] = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
        b[i] = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    }
    int cases = 0, same = 0;
    nn_blas_single_threaded(true);
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int q = 0; q < 4; q++) {
            int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2], pad = shapes[s][3];
            bool tra = q & 1, trb = q & 2;
            int lda = (tra ? m : k) + pad, ldb = (trb ? k : n) + pad, ldc = n + pad;
            size_t nc = (size_t)m * ldc;
            for (size_t i = 0; i < nc; i++) c1[i] = c2[i] = i % 3 ? NAN : 1.0f;
            enum CBLAS_TRANSPOSE ta = tra ? CblasTrans : CblasNoTrans,
                                 tb = trb ? CblasTrans : CblasNoTrans;
            blas(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c1, ldc);
            nn_blas_sgemm_library(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c2,
                                  ldc);
            cases++;
            bool eq = true;
            for (int i = 0; i < m && eq; i++) /* the padding is not C's */
                eq = !memcmp(c1 + (size_t)i * ldc, c2 + (size_t)i * ldc, sizeof(float) * n);
            same += eq;
            if (!eq) {
                int cnt = 0, fi = -1, fj = -1, li = -1, lj = -1;
                for (int i = 0; i < m; i++)
                    for (int j = 0; j < n; j++)
                        if (memcmp(c1 + (size_t)i * ldc + j, c2 + (size_t)i * ldc + j, 4)) {
                            if (!cnt) fi = i, fj = j;
                            li = i, lj = j;
                            cnt++;
                        }
                fprintf(stderr, "differs: m %d n %d k %d ta %d tb %d: %d first %d,%d last %d,%d\n",
                        m, n, k, tra, trb, cnt, fi, fj, li, lj);
            }
        }
    nn_blas_single_threaded(false);
    CHECK_MSG(same == cases, "%d of %d cases kept the bits", same, cases);
    free(a), free(b), free(c1), free(c2);
    nn_ctx_free(ctx);
}

/* The Linear layers' products (nn_small_gemm.c's big_sgemm) against
 * cblas_sgemm at one thread, bit for bit: every product of a GPT-2 step
 * (C = 768 and 512; forward x W^T, dx = dy W, dW = dy^T x, the LM head's
 * 50257 columns, its weight gradient in nn_blas.c's blocks of 7296 rows)
 * in all four transposes, and a sweep of sizes around OpenBLAS's blocks
 * (k and the columns just above 320 and 640, columns not a multiple of 8,
 * every row remainder modulo 12), on 512-bit vectors and on 256-bit ones. */
NN_TEST(big_sgemm_has_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    if (!blas) {
        nn_ctx_free(ctx);
        return;
    }
    size_t pool_n = (size_t)1 << 26;
    float *pool = tu_random_floats(pool_n, 4242), *c1 = malloc(sizeof(float) * 7296 * 900),
          *c2 = malloc(sizeof(float) * 7296 * 900);
    CHECK(pool && c1 && c2);
    nn_blas_single_threaded(true);
    /* {m, n, k} */
    static const int gpt[][3] = {
        {256, 2304, 768},  {256, 768, 768},   {256, 3072, 768},  {256, 768, 3072},
        {128, 50257, 768}, {256, 768, 2304},  {128, 768, 50257}, {2304, 768, 256},
        {768, 768, 256},   {3072, 768, 256},  {768, 3072, 256},  {7296, 768, 128},
        {1024, 1536, 512}, {1024, 512, 2048}, {2048, 512, 1024}, {256, 512, 50257},
    };
    tu_sgemm_run run = {blas, 1, pool, pool_n, c1, c2, 0, 0, 0};
    int taken = tu_sgemm_shapes(&run, gpt, sizeof gpt / sizeof gpt[0], "big sgemm");
    int gpt_products = (TU_SGEMM_SANITIZED ? 1 : 4) * (int)(sizeof gpt / sizeof gpt[0]);
    CHECK_MSG(taken + run.skipped == gpt_products && taken > 0, "every GPT product taken (%d)",
              taken);
    /* on 256-bit vectors too: a few of the GPT's */
    nn_small_sgemm_force_avx2(true);
    for (int q = 0; q < 4; q++) {
        int d =
            tu_sgemm_differs(blas, 1, q & 1, q & 2, 100, 768, 768, 0, q & 1, pool, pool_n, c1, c2);
        taken += d >= 0;
        run.differ += d > 0;
    }
    nn_small_sgemm_force_avx2(false);
    static const int ms[] = {1, 3, 4, 5, 8, 11, 13, 20, 100, 131};
    static const int ns[] = {7, 9, 16, 23, 100, 321, 337, 641, 700};
    static const int ks[] = {7, 300, 321, 329, 640, 641, 1000};
    taken += tu_sgemm_sweep(&run, ms, sizeof ms / sizeof ms[0], ns, sizeof ns / sizeof ns[0], ks,
                            sizeof ks / sizeof ks[0], 1, "big sgemm");
    CHECK_MSG(taken > 1000, "the sweep reached the big kernel (%d products)", taken);
    CHECK_MSG(run.differ == 0, "the big kernel has OpenBLAS's bits (%d of %d differ)", run.differ,
              taken);
    /* Not at two threads: OpenBLAS then divides the rows between its
     * threads and sums in another order, so nn_small_sgemm must refuse when
     * the caller says the BLAS runs on more than one, and nn_blas_sgemm
     * must give the library's bits at the session's thread count. */
    int m = 256, n = 768, k = 768;
    CHECK(!nn_small_sgemm(false, true, m, n, k, pool, k, pool + m * k, k, c1, n, true, false));
    nn_blas_single_threaded(false);
    for (size_t i = 0; i < (size_t)m * n; i++) c1[i] = c2[i] = 0;
    nn_blas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, k, pool + m * k, k,
                  0.0f, c1, n);
    blas(CblasRowMajor, CblasNoTrans, CblasTrans, m, n, k, 1.0f, pool, k, pool + m * k, k, 0.0f, c2,
         n);
    CHECK_MSG(!memcmp(c1, c2, sizeof(float) * (size_t)m * n),
              "nn_blas_sgemm has cblas_sgemm's bits at the session's threads");
    free(pool), free(c1), free(c2);
    nn_ctx_free(ctx);
}

/* One head's product of a batched matmul at two threads against OpenBLAS
 * at two threads: C [m, n] = op(A) op(B), A at [a] (row stride lda, its
 * transpose when [ta]), B likewise. Returns whether the bits differ. */
static bool head_differs(tu_raw_sgemm blas, bool ta, bool tb, int m, int n, int k, const float *a,
                         int lda, const float *b, int ldb, const float *c, float *ref) {
    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k,
         1.0f, a, lda, b, ldb, 0.0f, ref, n);
    return memcmp(c, ref, sizeof(float) * (size_t)m * n) != 0;
}

/* A GPT's attention products through nn_matmul at two threads (the
 * engine's pool and OpenBLAS's), q, k, v read in place from a qkv output,
 * against cblas_sgemm at two threads head by head, bit for bit: PyTorch's
 * bmm calls sgemm once per head on OpenBLAS's two threads, which splits a
 * 256 x 256 x 64 head between them and sums in another order than at one
 * (the batch used to run as one-thread products on the pool's threads:
 * every head here differed). T 256 and 128 (a thread's row parts of 64 and
 * 32 rows: both of OpenBLAS's chunk rules), 100 (columns not a multiple of
 * 8), and float64 (its products go to the library one after another). */
NN_TEST(matmul_batched_two_threads_has_openblas_bits) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(nn_blas_require(ctx) == NN_OK);
    tu_raw_sgemm blas = tu_openblas_with_known_order();
    typedef void (*raw_dgemm)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int,
                              int, int, double, const double *, int, const double *, int, double,
                              double *, int);
    raw_dgemm dblas = (raw_dgemm)(uintptr_t)nn_blas_symbol("cblas_dgemm");
    if (!blas || !dblas) {
        nn_ctx_free(ctx);
        return;
    }
    int old_threads = nn_get_num_threads();
    nn_set_num_threads(2);
    CHECK(nn_blas_get_threads() == 2);
    static const int cfg[][4] = {{2, 4, 256, 64}, {2, 4, 128, 64}, {1, 3, 100, 40}};
    float *pool = tu_random_floats((size_t)1 << 21, 3131), *ref = malloc(sizeof(float) * 65536);
    CHECK(pool && ref);
    int heads = 0, differ = 0;
    for (size_t s = 0; s < sizeof cfg / sizeof cfg[0]; s++) {
        int64_t B = cfg[s][0], H = cfg[s][1], T = cfg[s][2], hd = cfg[s][3], C = H * hd;
        nn_tensor *qkv = nn_tensor_from_data(ctx, NN_FLOAT32, 3, S(B, T, 3 * C), pool);
        nn_tensor *a = nn_tensor_from_data(ctx, NN_FLOAT32, 4, S(B, H, T, T), pool + 1000003);
        int64_t hs[4] = {B, H, T, hd}, hst[4] = {T * 3 * C, hd, 3 * C, 1};
        int64_t ts[4] = {B, H, hd, T}, tst[4] = {T * 3 * C, hd, 1, 3 * C};
        int64_t as[4] = {B, H, T, T}, ast[4] = {H * T * T, T * T, 1, T};
        nn_tensor *q = nn_tensor_view_raw(ctx, qkv, 4, hs, hst, 0);
        nn_tensor *kt = nn_tensor_view_raw(ctx, qkv, 4, ts, tst, C);
        nn_tensor *v = nn_tensor_view_raw(ctx, qkv, 4, hs, hst, 2 * C);
        nn_tensor *qt = nn_tensor_view_raw(ctx, qkv, 4, ts, tst, 0);
        nn_tensor *at = nn_tensor_view_raw(ctx, a, 4, as, ast, 0);
        nn_tensor *qk = nn_matmul(ctx, q, kt), *av = nn_matmul(ctx, a, v);
        nn_tensor *atv = nn_matmul(ctx, at, v), *qta = nn_matmul(ctx, qt, a);
        CHECK(qk && av && atv && qta);
        const float *pq = nn_tensor_data(qkv), *pa = nn_tensor_data(a);
        for (int64_t h = 0; h < B * H; h++) {
            int64_t b = h / H, hh = h % H, off = b * T * 3 * C + hh * hd;
            const float *qh = pq + off, *kh = pq + off + C, *vh = pq + off + 2 * C,
                        *ah = pa + h * T * T;
            int ld = (int)(3 * C), t = (int)T, d = (int)hd;
            int n = 0;
            n += head_differs(blas, false, true, t, t, d, qh, ld, kh, ld,
                              (const float *)nn_tensor_data(qk) + h * T * T, ref);
            n += head_differs(blas, false, false, t, d, t, ah, t, vh, ld,
                              (const float *)nn_tensor_data(av) + h * T * hd, ref);
            n += head_differs(blas, true, false, t, d, t, ah, t, vh, ld,
                              (const float *)nn_tensor_data(atv) + h * T * hd, ref);
            n += head_differs(blas, true, false, d, t, t, qh, ld, ah, t,
                              (const float *)nn_tensor_data(qta) + h * hd * T, ref);
            heads += 4;
            if (n && differ < 5)
                fprintf(stderr, "batched matmul at 2 threads differs: T %d head %d (%d of 4)\n", t,
                        (int)h, n);
            differ += n;
        }
        nn_tensor *ts_[] = {qkv, a, q, kt, v, qt, at, qk, av, atv, qta};
        release_all(ts_, (int)(sizeof ts_ / sizeof ts_[0]));
    }
    /* float64, k 700: OpenBLAS at two threads halves k's last two blocks
     * without rounding them as at one thread, so the sums differ */
    int64_t m = 96, n = 40, k = 700;
    double *da = malloc(sizeof(double) * (size_t)(4 * k * (m + n))),
           *dref = malloc(sizeof(double) * (size_t)(m * n));
    CHECK(da && dref);
    for (int64_t i = 0; i < 4 * k * (m + n); i++) da[i] = pool[i];
    nn_tensor *a64 = nn_tensor_from_data(ctx, NN_FLOAT64, 3, S(4, m, k), da);
    nn_tensor *b64 = nn_tensor_from_data(ctx, NN_FLOAT64, 3, S(4, k, n), da + 4 * m * k);
    nn_tensor *c64 = a64 && b64 ? nn_matmul(ctx, a64, b64) : NULL;
    CHECK(c64);
    for (int64_t h = 0; h < 4; h++) {
        dblas(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0,
              da + h * m * k, (int)k, da + 4 * m * k + h * k * n, (int)n, 0.0, dref, (int)n);
        heads++;
        if (memcmp(dref, (const double *)nn_tensor_data(c64) + h * m * n,
                   sizeof(double) * (size_t)(m * n)) &&
            differ++ < 5)
            fprintf(stderr, "float64 batched matmul at 2 threads differs: entry %d\n", (int)h);
    }
    nn_tensor_release(a64), nn_tensor_release(b64), nn_tensor_release(c64);
    free(da), free(dref);
    nn_set_num_threads(old_threads);
    CHECK_MSG(differ == 0, "batched products at 2 threads have OpenBLAS's bits (%d of %d differ)",
              differ, heads);
    free(pool), free(ref);
    nn_ctx_free(ctx);
}
