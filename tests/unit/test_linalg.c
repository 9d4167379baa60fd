/* The LAPACK kernels (engine/ops/ops_linalg.c): hand-checked results of
 * every routine on small matrices, batches, non-contiguous inputs, LAPACK's
 * info on singular and indefinite matrices, and bad input (the Python
 * layer's tests, tests/py/linalg_*.py, compare with PyTorch). */
#include <math.h>

#include "nn_linalg.h"
#include "testutil.h"

#define S(...) TU_SHAPE(__VA_ARGS__)
#define V(...) TU_VALS(__VA_ARGS__)

static nn_tensor *t64(nn_ctx *ctx, int nd, const int64_t *shape, const double *v) {
    return tu_tensor(ctx, NN_FLOAT64, nd, shape, v);
}

static int32_t info0(const nn_tensor *info, int64_t i) {
    return ((const int32_t *)nn_tensor_data(info))[i];
}

NN_TEST(linalg_solve_lu) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = t64(ctx, 2, S(2, 2), V(4, 1, 2, 3));
    nn_tensor *b = t64(ctx, 2, S(2, 1), V(1, 2));
    for (int tr = 0; tr < 2; tr++) {
        nn_tensor *x, *lu, *piv, *info;
        CHECK(nn_linalg_solve(ctx, a, b, tr, &x, &lu, &piv, &info) == NN_OK);
        CHECK(tu_close(x, 2, S(2, 1), V(0.1, 0.6), 1e-12, 1e-12, "solve"));
        CHECK(info0(info, 0) == 0);
        nn_tensor *x2 = nn_linalg_lu_solve(ctx, lu, piv, b, tr ? 'T' : 'N');
        CHECK(tu_close(x2, 2, S(2, 1), V(0.1, 0.6), 1e-12, 1e-12, "lu_solve"));
        nn_tensor *all[] = {x, lu, piv, info, x2};
        for (int i = 0; i < 5; i++) nn_tensor_release(all[i]);
    }
    /* a singular matrix: info names the zero pivot, the solve is skipped */
    nn_tensor *z = t64(ctx, 2, S(2, 2), V(1, 2, 2, 4));
    nn_tensor *x, *lu, *piv, *info;
    CHECK(nn_linalg_solve(ctx, z, b, false, &x, &lu, &piv, &info) == NN_OK);
    CHECK(info0(info, 0) == 2);
    CHECK(((const int32_t *)nn_tensor_data(piv))[0] == 2);
    nn_tensor *all[] = {x, lu, piv, info};
    for (int i = 0; i < 4; i++) nn_tensor_release(all[i]);
    /* a batch of 3 through a transposed (non-contiguous) view */
    nn_tensor *ab = t64(ctx, 3, S(3, 2, 2), V(4, 2, 1, 3, 1, 0, 0, 1, 2, 0, 0, 4));
    nn_tensor *at = nn_transpose(ctx, ab, 1, 2);
    nn_tensor *bb = t64(ctx, 3, S(3, 2, 1), V(1, 2, 3, 4, 2, 8));
    CHECK(nn_linalg_solve(ctx, at, bb, false, &x, &lu, &piv, &info) == NN_OK);
    CHECK(tu_close(x, 3, S(3, 2, 1), V(0.1, 0.6, 3, 4, 1, 2), 1e-12, 1e-12, "batched solve"));
    nn_tensor *all2[] = {x, lu, piv, info, ab, at, bb};
    for (int i = 0; i < 7; i++) nn_tensor_release(all2[i]);
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_tensor_release(z);
    nn_ctx_free(ctx);
}

NN_TEST(linalg_cholesky_triangular) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = t64(ctx, 2, S(2, 2), V(4, 2, 2, 3));
    nn_tensor *l, *info;
    CHECK(nn_linalg_cholesky(ctx, a, false, &l, &info) == NN_OK);
    CHECK(tu_close(l, 2, S(2, 2), V(2, 0, 1, sqrt(2.0)), 1e-12, 1e-12, "cholesky"));
    CHECK(info0(info, 0) == 0);
    nn_tensor *b = t64(ctx, 2, S(2, 1), V(6, 5));
    nn_tensor *x = nn_linalg_cholesky_solve(ctx, l, b, false);
    CHECK(tu_close(x, 2, S(2, 1), V(1, 1), 1e-12, 1e-12, "cholesky_solve"));
    nn_tensor *inv, *info2;
    CHECK(nn_linalg_cholesky_inverse(ctx, l, false, &inv, &info2) == NN_OK);
    CHECK(tu_close(inv, 2, S(2, 2), V(0.375, -0.25, -0.25, 0.5), 1e-12, 1e-12, "cholesky_inverse"));
    /* L X = B and X L = B (B = [[2, 4], [3, 5]]) */
    nn_tensor *bb = t64(ctx, 2, S(2, 2), V(2, 4, 3, 5));
    nn_tensor *xl = nn_linalg_triangular_solve(ctx, l, bb, false, true, false, false);
    double r2 = sqrt(2.0);
    CHECK(tu_close(xl, 2, S(2, 2), V(1, 2, 2 / r2, 3 / r2), 1e-12, 1e-12, "trsm left"));
    nn_tensor *xr = nn_linalg_triangular_solve(ctx, l, bb, false, false, false, true);
    CHECK(tu_close(xr, 2, S(2, 2), V(-2, 4, -2, 5), 1e-12, 1e-12, "trsm right unit"));
    nn_tensor *neg = t64(ctx, 2, S(2, 2), V(1, 2, 2, 1));
    nn_tensor *l2, *info3;
    CHECK(nn_linalg_cholesky(ctx, neg, true, &l2, &info3) == NN_OK);
    CHECK(info0(info3, 0) == 2);
    nn_tensor *all[] = {a, l, info, b, x, inv, info2, bb, xl, xr, neg, l2, info3};
    for (int i = 0; i < 13; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

NN_TEST(linalg_qr_svd_eig) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *a = t64(ctx, 2, S(3, 2), V(3, 0, 4, 0, 0, 2));
    nn_tensor *qr, *tau;
    CHECK(nn_linalg_geqrf(ctx, a, &qr, &tau) == NN_OK);
    nn_tensor *q = nn_linalg_orgqr(ctx, qr, tau);
    /* Q R = A with R = triu(qr): |R| = [[5, 0], [0, 2]] */
    CHECK(fabs(fabs(nn_tensor_get_flat(qr, 0)) - 5) < 1e-12);
    CHECK(fabs(fabs(nn_tensor_get_flat(qr, 3)) - 2) < 1e-12);
    nn_tensor *c = t64(ctx, 2, S(3, 1), V(1, 2, 3));
    nn_tensor *qtc = nn_linalg_ormqr(ctx, qr, tau, c, true, true);
    nn_tensor *qt = nn_transpose(ctx, q, 0, 1);
    nn_tensor *qtc2 = nn_matmul(ctx, qt, c);
    nn_tensor *head = nn_slice(ctx, qtc, 0, 0, 2, 1);
    CHECK(tu_close_tensor(head, qtc2, 1e-12, 1e-12, "ormqr = Q^T C"));
    nn_tensor *u, *s, *vh, *info;
    CHECK(nn_linalg_svd(ctx, a, false, true, &u, &s, &vh, &info) == NN_OK);
    CHECK(tu_close(s, 1, S(2), V(5, 2), 1e-12, 1e-12, "svd"));
    CHECK(u->shape[1] == 2 && vh->shape[0] == 2);
    nn_tensor *sym = t64(ctx, 2, S(2, 2), V(2, 1, 1, 2));
    nn_tensor *w, *v, *info2;
    CHECK(nn_linalg_eigh(ctx, sym, false, true, &w, &v, &info2) == NN_OK);
    CHECK(tu_close(w, 1, S(2), V(1, 3), 1e-12, 1e-12, "eigh"));
    nn_tensor *rot = t64(ctx, 2, S(2, 2), V(0, -1, 1, 0));
    nn_tensor *wr, *wi, *vr, *info3;
    CHECK(nn_linalg_eig(ctx, rot, true, &wr, &wi, &vr, &info3) == NN_OK);
    CHECK(tu_close(wr, 1, S(2), V(0, 0), 0, 1e-12, "eig real parts"));
    CHECK(tu_close(wi, 1, S(2), V(1, -1), 0, 1e-12, "eig imaginary parts"));
    nn_tensor *all[] = {a,  qr,   tau, q, c, qtc,   qt,  qtc2, head, u,  s,
                        vh, info, sym, w, v, info2, rot, wr,   wi,   vr, info3};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

NN_TEST(linalg_lstsq_ldl) {
    nn_ctx *ctx = nn_ctx_new(0);
    /* an exact overdetermined system: y = 1 + 2 t at t = 0, 1, 2 */
    nn_tensor *a = t64(ctx, 2, S(3, 2), V(1, 0, 1, 1, 1, 2));
    nn_tensor *b = t64(ctx, 2, S(3, 1), V(1, 3, 5));
    static const char *const drivers[] = {"gels", "gelsy", "gelsd", "gelss"};
    for (int d = 0; d < 4; d++) {
        nn_tensor *x, *rank, *sv, *info;
        CHECK(nn_linalg_lstsq(ctx, a, b, -1, drivers[d], &x, &rank, &sv, &info) == NN_OK);
        CHECK_MSG(fabs(nn_tensor_get_flat(x, 0) - 1) < 1e-10 &&
                      fabs(nn_tensor_get_flat(x, 1) - 2) < 1e-10,
                  "lstsq %s", drivers[d]);
        CHECK((rank != NULL) == (d != 0) && (sv != NULL) == (d >= 2));
        if (rank) CHECK(nn_tensor_get_flat_int(rank, 0) == 2);
        nn_tensor *all[] = {x, rank, sv, info};
        for (int i = 0; i < 4; i++) nn_tensor_release(all[i]);
    }
    nn_tensor *sym = t64(ctx, 2, S(2, 2), V(0, 1, 1, 0));
    nn_tensor *ld, *piv, *info;
    CHECK(nn_linalg_ldl_factor(ctx, sym, &ld, &piv, &info) == NN_OK);
    CHECK(info0(info, 0) == 0);
    nn_tensor *rhs = t64(ctx, 2, S(2, 1), V(2, 3));
    nn_tensor *x = nn_linalg_ldl_solve(ctx, ld, piv, rhs);
    CHECK(tu_close(x, 2, S(2, 1), V(3, 2), 1e-12, 1e-12, "ldl_solve"));
    nn_tensor *all[] = {a, b, sym, ld, piv, info, rhs, x};
    for (int i = 0; i < 8; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}

NN_TEST(linalg_bad_input) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *i64 = nn_zeros(ctx, NN_INT64, 2, S(2, 2));
    nn_tensor *v = nn_zeros(ctx, NN_FLOAT64, 1, S(2));
    nn_tensor *rect = nn_zeros(ctx, NN_FLOAT64, 2, S(2, 3));
    nn_tensor *sq = nn_zeros(ctx, NN_FLOAT32, 2, S(2, 2));
    nn_tensor *b3 = nn_zeros(ctx, NN_FLOAT32, 3, S(3, 2, 1));
    nn_tensor *l, *info, *x, *lu, *piv;
    CHECK(nn_linalg_cholesky(ctx, i64, false, &l, &info) == NN_ERR_TYPE && !l);
    nn_error_clear(&ctx->err);
    CHECK(nn_linalg_cholesky(ctx, v, false, &l, &info) == NN_ERR_SHAPE && !l);
    nn_error_clear(&ctx->err);
    CHECK(nn_linalg_cholesky(ctx, rect, false, &l, &info) == NN_ERR_SHAPE && !l);
    nn_error_clear(&ctx->err);
    CHECK(nn_linalg_solve(ctx, sq, b3, false, &x, &lu, &piv, &info) == NN_ERR_SHAPE && !x);
    nn_error_clear(&ctx->err);
    CHECK(nn_linalg_solve(ctx, sq, rect, false, &x, &lu, &piv, &info) == NN_ERR_TYPE && !x);
    nn_error_clear(&ctx->err);
    /* empty matrices and empty batches are fine */
    nn_tensor *e = nn_zeros(ctx, NN_FLOAT32, 3, S(0, 3, 3));
    CHECK(nn_linalg_lu_factor(ctx, e, &lu, &piv, &info) == NN_OK && lu->shape[0] == 0);
    nn_tensor_release(lu);
    nn_tensor_release(piv);
    nn_tensor_release(info);
    nn_tensor *all[] = {i64, v, rect, sq, b3, e};
    for (int i = 0; i < 6; i++) nn_tensor_release(all[i]);
    nn_ctx_free(ctx);
}
