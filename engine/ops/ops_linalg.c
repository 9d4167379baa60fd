/* Batched LAPACK kernels (nn_linalg.h): copies in column-major order, one
 * LAPACK call per matrix, results as column-major tensors.
 *
 * The routines are found by name in the loaded BLAS library ("d" or "s" +
 * the routine + "_", Fortran's convention: every argument by reference,
 * the hidden lengths of character arguments last). float and double
 * routines differ only in the element type behind their pointers, so one
 * function pointer type per routine serves both. Workspace sizes come from
 * LAPACK's own query (lwork = -1).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_linalg.h"
#include "nn_mem.h"
#include "nn_ops_impl.h"

typedef void (*getrf_fn)(int *, int *, void *, int *, int *, int *);
typedef void (*getrs_fn)(char *, int *, int *, void *, int *, int *, void *, int *, int *, size_t);
typedef void (*potrf_fn)(char *, int *, void *, int *, int *, size_t);
typedef void (*potrs_fn)(char *, int *, int *, void *, int *, void *, int *, int *, size_t);
typedef void (*geqrf_fn)(int *, int *, void *, int *, void *, void *, int *, int *);
typedef void (*orgqr_fn)(int *, int *, int *, void *, int *, void *, void *, int *, int *);
typedef void (*ormqr_fn)(char *, char *, int *, int *, int *, void *, int *, void *, void *, int *,
                         void *, int *, int *, size_t, size_t);
typedef void (*gesdd_fn)(char *, int *, int *, void *, int *, void *, void *, int *, void *, int *,
                         void *, int *, int *, int *, size_t);
typedef void (*syevd_fn)(char *, char *, int *, void *, int *, void *, void *, int *, int *, int *,
                         int *, size_t, size_t);
typedef void (*geev_fn)(char *, char *, int *, void *, int *, void *, void *, void *, int *, void *,
                        int *, void *, int *, int *, size_t, size_t);
typedef void (*gelsy_fn)(int *, int *, int *, void *, int *, void *, int *, int *, void *, int *,
                         void *, int *, int *);
typedef void (*gelsd_fn)(int *, int *, int *, void *, int *, void *, int *, void *, void *, int *,
                         void *, int *, int *, int *);
typedef void (*gelss_fn)(int *, int *, int *, void *, int *, void *, int *, void *, void *, int *,
                         void *, int *, int *);
typedef void (*gels_fn)(char *, int *, int *, int *, void *, int *, void *, int *, void *, int *,
                        int *, size_t);
typedef void (*sytrf_fn)(char *, int *, void *, int *, int *, void *, int *, int *, size_t);
typedef void (*sytrs_fn)(char *, int *, int *, void *, int *, int *, void *, int *, int *, size_t);
typedef void (*strsm_fn)(enum CBLAS_ORDER, enum CBLAS_SIDE, enum CBLAS_UPLO, enum CBLAS_TRANSPOSE,
                         enum CBLAS_DIAG, int, int, float, const float *, int, float *, int);
typedef void (*dtrsm_fn)(enum CBLAS_ORDER, enum CBLAS_SIDE, enum CBLAS_UPLO, enum CBLAS_TRANSPOSE,
                         enum CBLAS_DIAG, int, int, double, const double *, int, double *, int);

/* The LAPACK routine [name] ("getrf") for [dt], or NULL with an error. */
static void *lapack(nn_ctx *ctx, nn_dtype dt, const char *name) {
    if (nn_blas_require(ctx) != NN_OK) return NULL;
    char full[32];
    snprintf(full, sizeof full, "%c%s_", dt == NN_FLOAT64 ? 'd' : 's', name);
    void *p = nn_blas_symbol(full);
    if (!p)
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "LAPACK's %s is missing from the BLAS library: install Debian's "
                     "libopenblas0 (it carries LAPACK)",
                     full);
    return p;
}

/* ---- batches of column-major matrices ---- */

typedef struct batch {
    int nb;                     /* batch dims */
    int64_t shape[NN_MAX_DIMS]; /* batch shape */
    int64_t count;              /* matrices */
} batch;

static nn_status check_mat(nn_ctx *ctx, const char *op, const nn_tensor *t, batch *bt) {
    if (!t || t->ndim < 2)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s: The input tensor A must have at least 2 dimensions.", op);
    if (t->dtype != NN_FLOAT32 && t->dtype != NN_FLOAT64)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: Expected a floating point tensor as input. Got %s", op,
                            nn_dtype_scalar_name(t->dtype));
    if (t->shape[t->ndim - 2] > INT_MAX / 2 || t->shape[t->ndim - 1] > INT_MAX / 2)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: matrix too large for LAPACK", op);
    if (bt) {
        bt->nb = t->ndim - 2;
        bt->count = 1;
        for (int d = 0; d < bt->nb; d++) {
            bt->shape[d] = t->shape[d];
            bt->count *= t->shape[d];
        }
    }
    return NN_OK;
}

/* [t]'s batch equals [bt] and its dtype is [dt]. */
static nn_status check_same(nn_ctx *ctx, const char *op, const nn_tensor *t, const batch *bt,
                            nn_dtype dt) {
    if (check_mat(ctx, op, t, NULL) != NN_OK) return ctx->err.code;
    if (t->dtype != dt)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: Expected all tensors to have the same dtype, got %s and %s", op,
                            nn_dtype_scalar_name(dt), nn_dtype_scalar_name(t->dtype));
    bool same = t->ndim - 2 == bt->nb;
    for (int d = 0; same && d < bt->nb; d++) same = t->shape[d] == bt->shape[d];
    if (!same)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: the operands' batch dims differ", op);
    return NN_OK;
}

/* A tensor (batch..., rows, cols) whose matrices are column-major, zeroed
 * unless [uninit] (the caller writes every element). */
static nn_tensor *cm_alloc(nn_ctx *ctx, nn_dtype dt, const batch *bt, int64_t rows, int64_t cols,
                           bool uninit) {
    int64_t shape[NN_MAX_DIMS], st[NN_MAX_DIMS];
    if (bt->nb + 2 > NN_MAX_DIMS) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "too many dims");
        return NULL;
    }
    memcpy(shape, bt->shape, sizeof(int64_t) * (size_t)bt->nb);
    shape[bt->nb] = cols;
    shape[bt->nb + 1] = rows;
    nn_tensor *base =
        uninit ? nn_tensor_empty(ctx, dt, bt->nb + 2, shape) : nn_zeros(ctx, dt, bt->nb + 2, shape);
    if (!base) return NULL;
    memcpy(st, base->strides, sizeof st);
    shape[bt->nb] = rows;
    shape[bt->nb + 1] = cols;
    st[bt->nb] = 1;
    st[bt->nb + 1] = rows;
    nn_tensor *v = nn_tensor_view_raw(ctx, base, bt->nb + 2, shape, st, 0);
    nn_tensor_release(base);
    return v;
}

static nn_tensor *cm_new(nn_ctx *ctx, nn_dtype dt, const batch *bt, int64_t rows, int64_t cols) {
    return cm_alloc(ctx, dt, bt, rows, cols, false);
}

/* A zeroed contiguous tensor (batch..., extra) ([extra] < 0: batch only). */
static nn_tensor *vec_new(nn_ctx *ctx, nn_dtype dt, const batch *bt, int64_t extra) {
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, bt->shape, sizeof(int64_t) * (size_t)bt->nb);
    int nd = bt->nb;
    if (extra >= 0) shape[nd++] = extra;
    return nn_zeros(ctx, dt, nd, shape);
}

/* Element offset of matrix [b] of [t] (its batch dims unravelled). */
static int64_t mat_offset(const nn_tensor *t, int64_t b) {
    int64_t off = t->offset;
    for (int d = t->ndim - 3; d >= 0; d--) {
        int64_t i = b % t->shape[d];
        b /= t->shape[d];
        off += i * t->strides[d];
    }
    return off;
}

/* Copy [s]'s matrices into [dst]: column-major, leading dim [ld], [mstride]
 * elements apart. Same dtype. A row-major source is transposed in 32 x 32
 * tiles, so both sides stay in cache. */
#define COPY_TILE 32
#define COPY_IN(T)                                                                                 \
    do {                                                                                           \
        const T *p = (const T *)s->storage->data + off;                                            \
        T *q = (T *)dst + b * mstride;                                                             \
        if (rs == 1) {                                                                             \
            for (int64_t j = 0; j < cols; j++)                                                     \
                for (int64_t i = 0; i < rows; i++) q[j * ld + i] = p[i + j * cs];                  \
        } else {                                                                                   \
            for (int64_t i0 = 0; i0 < rows; i0 += COPY_TILE)                                       \
                for (int64_t j0 = 0; j0 < cols; j0 += COPY_TILE) {                                 \
                    int64_t i1 = i0 + COPY_TILE < rows ? i0 + COPY_TILE : rows;                    \
                    int64_t j1 = j0 + COPY_TILE < cols ? j0 + COPY_TILE : cols;                    \
                    for (int64_t i = i0; i < i1; i++)                                              \
                        for (int64_t j = j0; j < j1; j++) q[j * ld + i] = p[i * rs + j * cs];      \
                }                                                                                  \
        }                                                                                          \
    } while (0)

static void copy_in(const nn_tensor *s, void *dst, int64_t ld, int64_t mstride, int64_t count) {
    int64_t rows = s->shape[s->ndim - 2], cols = s->shape[s->ndim - 1];
    int64_t rs = s->strides[s->ndim - 2], cs = s->strides[s->ndim - 1];
    for (int64_t b = 0; b < count; b++) {
        int64_t off = mat_offset(s, b);
        if (s->dtype == NN_FLOAT64)
            COPY_IN(double);
        else
            COPY_IN(float);
    }
}

/* A column-major copy of [t] (batch as [bt]). */
static nn_tensor *cm_copy(nn_ctx *ctx, nn_tensor *t, const batch *bt) {
    if (nn_tensor_check_storage(ctx, t)) return NULL;
    int64_t rows = t->shape[t->ndim - 2], cols = t->shape[t->ndim - 1];
    nn_tensor *r = cm_alloc(ctx, t->dtype, bt, rows, cols, true);
    if (r) copy_in(t, nn_tensor_data(r), rows, rows * cols, bt->count);
    return r;
}

static char *elem(const nn_tensor *t, int64_t i) {
    return (char *)nn_tensor_data(t) + i * (int64_t)nn_dtype_size(t->dtype);
}

static int imax1(int64_t v) {
    return v > 1 ? (int)v : 1;
}

/* Workspace of [n] elements of [dt] (n from a query, at least 1). */
static void *work_alloc(nn_ctx *ctx, nn_dtype dt, double n) {
    size_t cnt = n < 1 ? 1 : (size_t)n + 1;
    return nn_mem_alloc(cnt * nn_dtype_size(dt), "LAPACK workspace", &ctx->err);
}

static double work_query(nn_dtype dt, const void *w) {
    return dt == NN_FLOAT64 ? *(const double *)w : (double)*(const float *)w;
}

/* Pivots as contiguous int32, batch as [bt], [k] per matrix. */
static nn_tensor *piv_int32(nn_ctx *ctx, nn_tensor *piv, const batch *bt, int64_t k) {
    if (!piv || piv->ndim != bt->nb + 1 || piv->shape[bt->nb] != k) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "lu_solve: pivots have the wrong shape");
        return NULL;
    }
    nn_tensor *c = nn_tensor_cast_raw(ctx, piv, NN_INT32);
    if (!c) return NULL;
    nn_tensor *r = nn_tensor_contiguous_raw(ctx, c);
    nn_tensor_release(c);
    return r;
}

static void release_all(nn_tensor **ts, int n) {
    for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
}

/* ---- LU ---- */

nn_status nn_linalg_lu_factor(nn_ctx *ctx, nn_tensor *a, nn_tensor **lu, nn_tensor **piv,
                              nn_tensor **info) {
    batch bt;
    *lu = *piv = *info = NULL;
    if (check_mat(ctx, "linalg.lu_factor", a, &bt) != NN_OK) return ctx->err.code;
    getrf_fn f = (getrf_fn)(uintptr_t)lapack(ctx, a->dtype, "getrf");
    if (!f) return ctx->err.code;
    int m = (int)a->shape[a->ndim - 2], n = (int)a->shape[a->ndim - 1], k = m < n ? m : n;
    *lu = cm_copy(ctx, a, &bt);
    *piv = vec_new(ctx, NN_INT32, &bt, k);
    *info = vec_new(ctx, NN_INT32, &bt, -1);
    if (!*lu || !*piv || !*info) goto fail;
    int lda = imax1(m);
    for (int64_t b = 0; b < bt.count && k > 0; b++) {
        int mm = m, nn = n;
        f(&mm, &nn, elem(*lu, b * m * n), &lda, (int *)nn_tensor_data(*piv) + b * k,
          (int *)nn_tensor_data(*info) + b);
    }
    return NN_OK;
fail:
    nn_tensor_release(*lu);
    nn_tensor_release(*piv);
    nn_tensor_release(*info);
    *lu = *piv = *info = NULL;
    return ctx->err.code;
}

nn_tensor *nn_linalg_lu_solve(nn_ctx *ctx, nn_tensor *lu, nn_tensor *piv, nn_tensor *b,
                              char trans) {
    batch bt;
    if (check_mat(ctx, "linalg.lu_solve", lu, &bt) != NN_OK) return NULL;
    if (check_same(ctx, "linalg.lu_solve", b, &bt, lu->dtype) != NN_OK) return NULL;
    int n = (int)lu->shape[lu->ndim - 1], k = (int)b->shape[b->ndim - 1];
    if (lu->shape[lu->ndim - 2] != n || b->shape[b->ndim - 2] != n) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.lu_solve: LU and B do not fit");
        return NULL;
    }
    getrs_fn f = (getrs_fn)(uintptr_t)lapack(ctx, lu->dtype, "getrs");
    if (!f) return NULL;
    nn_tensor *p = piv_int32(ctx, piv, &bt, n);
    nn_tensor *a = p ? cm_copy(ctx, lu, &bt) : NULL;
    nn_tensor *x = a ? cm_copy(ctx, b, &bt) : NULL;
    if (x && n > 0 && k > 0) {
        int ld = imax1(n);
        for (int64_t i = 0; i < bt.count; i++) {
            int nn = n, kk = k, info = 0;
            char tr = trans;
            f(&tr, &nn, &kk, elem(a, i * n * n), &ld, (int *)nn_tensor_data(p) + i * n,
              elem(x, i * n * k), &ld, &info, 1);
        }
    }
    nn_tensor_release(p);
    nn_tensor_release(a);
    return x;
}

nn_status nn_linalg_solve(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, bool transpose_a, nn_tensor **x,
                          nn_tensor **lu, nn_tensor **piv, nn_tensor **info) {
    batch bt;
    *x = NULL;
    if (check_mat(ctx, "linalg.solve", a, &bt) != NN_OK) return ctx->err.code;
    if (check_same(ctx, "linalg.solve", b, &bt, a->dtype) != NN_OK) return ctx->err.code;
    int n = (int)a->shape[a->ndim - 1], k = (int)b->shape[b->ndim - 1];
    if (a->shape[a->ndim - 2] != n || b->shape[b->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.solve: A and B do not fit");
    getrs_fn fs = (getrs_fn)(uintptr_t)lapack(ctx, a->dtype, "getrs");
    if (!fs) return ctx->err.code;
    if (transpose_a) { /* factor A^T: a row-major A's memory as it is */
        int64_t sh[NN_MAX_DIMS], st[NN_MAX_DIMS];
        memcpy(sh, a->shape, sizeof sh);
        memcpy(st, a->strides, sizeof st);
        st[a->ndim - 2] = a->strides[a->ndim - 1];
        st[a->ndim - 1] = a->strides[a->ndim - 2];
        nn_tensor *at = nn_tensor_view_raw(ctx, a, a->ndim, sh, st, a->offset);
        if (!at) return ctx->err.code;
        nn_status s = nn_linalg_lu_factor(ctx, at, lu, piv, info);
        nn_tensor_release(at);
        if (s != NN_OK) return s;
    } else if (nn_linalg_lu_factor(ctx, a, lu, piv, info) != NN_OK)
        return ctx->err.code;
    *x = cm_copy(ctx, b, &bt);
    if (!*x) {
        nn_tensor *all[] = {*lu, *piv, *info};
        release_all(all, 3);
        *lu = *piv = *info = NULL;
        return ctx->err.code;
    }
    int ld = imax1(n);
    for (int64_t i = 0; i < bt.count && n > 0 && k > 0; i++) {
        if (((int *)nn_tensor_data(*info))[i] != 0) continue;
        int nn = n, kk = k, inf = 0;
        char tr = transpose_a ? 'T' : 'N';
        fs(&tr, &nn, &kk, elem(*lu, i * n * n), &ld, (int *)nn_tensor_data(*piv) + i * n,
           elem(*x, i * n * k), &ld, &inf, 1);
    }
    return NN_OK;
}

/* ---- Cholesky ---- */

/* Zero the strict [upper] (or lower) triangle of each n x n column-major matrix. */
static void zero_triangle(nn_tensor *t, int64_t count, int64_t n, bool upper) {
    size_t es = nn_dtype_size(t->dtype);
    for (int64_t b = 0; b < count; b++) {
        char *p = elem(t, b * n * n);
        for (int64_t j = 0; j < n; j++) {
            /* column j: rows [0, j) are above the diagonal, (j, n) below */
            if (upper)
                memset(p + (size_t)(j * n) * es, 0, (size_t)j * es);
            else if (j + 1 < n)
                memset(p + (size_t)(j * n + j + 1) * es, 0, (size_t)(n - j - 1) * es);
        }
    }
}

nn_status nn_linalg_cholesky(nn_ctx *ctx, nn_tensor *a, bool upper, nn_tensor **l,
                             nn_tensor **info) {
    batch bt;
    *l = *info = NULL;
    if (check_mat(ctx, "linalg.cholesky", a, &bt) != NN_OK) return ctx->err.code;
    int n = (int)a->shape[a->ndim - 1];
    if (a->shape[a->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.cholesky: A must be square");
    potrf_fn f = (potrf_fn)(uintptr_t)lapack(ctx, a->dtype, "potrf");
    if (!f) return ctx->err.code;
    *l = cm_copy(ctx, a, &bt);
    *info = *l ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (!*info) {
        nn_tensor_release(*l);
        *l = NULL;
        return ctx->err.code;
    }
    int ld = imax1(n);
    for (int64_t b = 0; b < bt.count && n > 0; b++) {
        int nn = n;
        char uplo = upper ? 'U' : 'L';
        f(&uplo, &nn, elem(*l, b * n * n), &ld, (int *)nn_tensor_data(*info) + b, 1);
    }
    zero_triangle(*l, bt.count, n, !upper);
    return NN_OK;
}

nn_tensor *nn_linalg_cholesky_solve(nn_ctx *ctx, nn_tensor *l, nn_tensor *b, bool upper) {
    batch bt;
    if (check_mat(ctx, "cholesky_solve", l, &bt) != NN_OK) return NULL;
    if (check_same(ctx, "cholesky_solve", b, &bt, l->dtype) != NN_OK) return NULL;
    int n = (int)l->shape[l->ndim - 1], k = (int)b->shape[b->ndim - 1];
    if (l->shape[l->ndim - 2] != n || b->shape[b->ndim - 2] != n) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "cholesky_solve: the factor and B do not fit");
        return NULL;
    }
    potrs_fn f = (potrs_fn)(uintptr_t)lapack(ctx, l->dtype, "potrs");
    if (!f) return NULL;
    nn_tensor *a = cm_copy(ctx, l, &bt);
    nn_tensor *x = a ? cm_copy(ctx, b, &bt) : NULL;
    if (x && n > 0 && k > 0) {
        int ld = imax1(n);
        for (int64_t i = 0; i < bt.count; i++) {
            int nn = n, kk = k, info = 0;
            char uplo = upper ? 'U' : 'L';
            f(&uplo, &nn, &kk, elem(a, i * n * n), &ld, elem(x, i * n * k), &ld, &info, 1);
        }
    }
    nn_tensor_release(a);
    return x;
}

nn_status nn_linalg_cholesky_inverse(nn_ctx *ctx, nn_tensor *l, bool upper, nn_tensor **out,
                                     nn_tensor **info) {
    batch bt;
    *out = *info = NULL;
    if (check_mat(ctx, "cholesky_inverse", l, &bt) != NN_OK) return ctx->err.code;
    int n = (int)l->shape[l->ndim - 1];
    if (l->shape[l->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "cholesky_inverse: A must be square");
    potrf_fn f = (potrf_fn)(uintptr_t)lapack(ctx, l->dtype, "potri");
    if (!f) return ctx->err.code;
    *out = cm_copy(ctx, l, &bt);
    *info = *out ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (!*info) {
        nn_tensor_release(*out);
        *out = NULL;
        return ctx->err.code;
    }
    int ld = imax1(n);
    size_t es = nn_dtype_size(l->dtype);
    for (int64_t b = 0; b < bt.count && n > 0; b++) {
        int nn = n;
        char uplo = upper ? 'U' : 'L';
        char *p = elem(*out, b * n * n);
        f(&uplo, &nn, p, &ld, (int *)nn_tensor_data(*info) + b, 1);
        for (int64_t j = 0; j < n; j++) /* mirror the computed triangle */
            for (int64_t i = j + 1; i < n; i++) {
                if (upper)
                    memcpy(p + (size_t)(j * n + i) * es, p + (size_t)(i * n + j) * es, es);
                else
                    memcpy(p + (size_t)(i * n + j) * es, p + (size_t)(j * n + i) * es, es);
            }
    }
    return NN_OK;
}

/* ---- triangular solve ---- */

nn_tensor *nn_linalg_triangular_solve(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, bool upper,
                                      bool left, bool transpose, bool unit) {
    batch bt;
    if (check_mat(ctx, "linalg.solve_triangular", a, &bt) != NN_OK) return NULL;
    if (check_same(ctx, "linalg.solve_triangular", b, &bt, a->dtype) != NN_OK) return NULL;
    int n = (int)a->shape[a->ndim - 1];
    int m = (int)b->shape[b->ndim - 2], k = (int)b->shape[b->ndim - 1];
    if (a->shape[a->ndim - 2] != n || (left ? m : k) != n) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.solve_triangular: A and B do not fit");
        return NULL;
    }
    if (nn_blas_require(ctx) != NN_OK) return NULL;
    void *fp = nn_blas_symbol(a->dtype == NN_FLOAT64 ? "cblas_dtrsm" : "cblas_strsm");
    if (!fp) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the BLAS library has no trsm");
        return NULL;
    }
    nn_tensor *ac = cm_copy(ctx, a, &bt);
    nn_tensor *x = ac ? cm_copy(ctx, b, &bt) : NULL;
    if (x && m > 0 && k > 0) {
        enum CBLAS_SIDE side = left ? CblasLeft : CblasRight;
        enum CBLAS_UPLO uplo = upper ? CblasUpper : CblasLower;
        enum CBLAS_TRANSPOSE tr = transpose ? CblasTrans : CblasNoTrans;
        enum CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
        for (int64_t i = 0; i < bt.count; i++) {
            if (a->dtype == NN_FLOAT64)
                ((dtrsm_fn)(uintptr_t)fp)(CblasColMajor, side, uplo, tr, dg, m, k, 1.0,
                                          (const double *)elem(ac, i * n * n), imax1(n),
                                          (double *)elem(x, i * m * k), imax1(m));
            else
                ((strsm_fn)(uintptr_t)fp)(CblasColMajor, side, uplo, tr, dg, m, k, 1.0f,
                                          (const float *)elem(ac, i * n * n), imax1(n),
                                          (float *)elem(x, i * m * k), imax1(m));
        }
    }
    nn_tensor_release(ac);
    return x;
}

/* ---- QR and Householder products ---- */

nn_status nn_linalg_geqrf(nn_ctx *ctx, nn_tensor *a, nn_tensor **qr, nn_tensor **tau) {
    batch bt;
    *qr = *tau = NULL;
    if (check_mat(ctx, "geqrf", a, &bt) != NN_OK) return ctx->err.code;
    geqrf_fn f = (geqrf_fn)(uintptr_t)lapack(ctx, a->dtype, "geqrf");
    if (!f) return ctx->err.code;
    int m = (int)a->shape[a->ndim - 2], n = (int)a->shape[a->ndim - 1], k = m < n ? m : n;
    *qr = cm_copy(ctx, a, &bt);
    *tau = *qr ? vec_new(ctx, a->dtype, &bt, k) : NULL;
    if (!*tau) goto fail;
    int lda = imax1(m);
    if (bt.count > 0 && k > 0) {
        double q[2];
        int lw = -1, info = 0, mm = m, nn = n;
        f(&mm, &nn, elem(*qr, 0), &lda, elem(*tau, 0), q, &lw, &info);
        lw = (int)work_query(a->dtype, q);
        if (lw < 1) lw = 1;
        void *w = work_alloc(ctx, a->dtype, lw);
        if (!w) goto fail;
        for (int64_t b = 0; b < bt.count; b++)
            f(&mm, &nn, elem(*qr, b * m * n), &lda, elem(*tau, b * k), w, &lw, &info);
        nn_mem_free(w);
    }
    return NN_OK;
fail:
    nn_tensor_release(*qr);
    nn_tensor_release(*tau);
    *qr = *tau = NULL;
    return ctx->err.code;
}

nn_tensor *nn_linalg_orgqr(nn_ctx *ctx, nn_tensor *a, nn_tensor *tau) {
    batch bt;
    const char *op = "torch.linalg.householder_product";
    if (check_mat(ctx, op, a, &bt) != NN_OK) return NULL;
    int m = (int)a->shape[a->ndim - 2], n = (int)a->shape[a->ndim - 1];
    if (!tau || tau->ndim != bt.nb + 1 || tau->dtype != a->dtype) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: tau does not fit the input", op);
        return NULL;
    }
    int k = (int)tau->shape[bt.nb];
    if (!(m >= n && n >= k)) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: expected m >= n >= k", op);
        return NULL;
    }
    orgqr_fn f = (orgqr_fn)(uintptr_t)lapack(ctx, a->dtype, "orgqr");
    if (!f) return NULL;
    nn_tensor *tc = nn_tensor_contiguous_raw(ctx, tau);
    nn_tensor *q = tc ? cm_copy(ctx, a, &bt) : NULL;
    if (q && bt.count > 0 && n > 0) {
        int lda = imax1(m), mm = m, nn = n, kk = k, info = 0, lw = -1;
        double wq[2];
        f(&mm, &nn, &kk, elem(q, 0), &lda, nn_tensor_data(tc), wq, &lw, &info);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        void *w = work_alloc(ctx, a->dtype, lw);
        if (!w) {
            nn_tensor_release(q);
            q = NULL;
        } else {
            for (int64_t b = 0; b < bt.count; b++)
                f(&mm, &nn, &kk, elem(q, b * m * n), &lda, elem(tc, b * k), w, &lw, &info);
            nn_mem_free(w);
        }
    }
    nn_tensor_release(tc);
    return q;
}

nn_tensor *nn_linalg_ormqr(nn_ctx *ctx, nn_tensor *a, nn_tensor *tau, nn_tensor *c, bool left,
                           bool transpose) {
    batch bt;
    const char *op = "torch.ormqr";
    if (check_mat(ctx, op, a, &bt) != NN_OK) return NULL;
    if (check_same(ctx, op, c, &bt, a->dtype) != NN_OK) return NULL;
    int ar = (int)a->shape[a->ndim - 2], ac = (int)a->shape[a->ndim - 1];
    int m = (int)c->shape[c->ndim - 2], n = (int)c->shape[c->ndim - 1];
    if (!tau || tau->ndim != bt.nb + 1 || tau->dtype != a->dtype) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: tau does not fit the input", op);
        return NULL;
    }
    int k = (int)tau->shape[bt.nb];
    if (ar != (left ? m : n) || k > ac || k > ar) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "%s: input, tau and other do not fit", op);
        return NULL;
    }
    ormqr_fn f = (ormqr_fn)(uintptr_t)lapack(ctx, a->dtype, "ormqr");
    if (!f) return NULL;
    nn_tensor *tc = nn_tensor_contiguous_raw(ctx, tau);
    nn_tensor *acm = tc ? cm_copy(ctx, a, &bt) : NULL;
    nn_tensor *x = acm ? cm_copy(ctx, c, &bt) : NULL;
    if (x && bt.count > 0 && m > 0 && n > 0) {
        int lda = imax1(ar), ldc = imax1(m), mm = m, nn = n, kk = k, info = 0, lw = -1;
        char side = left ? 'L' : 'R', tr = transpose ? 'T' : 'N';
        double wq[2];
        f(&side, &tr, &mm, &nn, &kk, elem(acm, 0), &lda, nn_tensor_data(tc), elem(x, 0), &ldc, wq,
          &lw, &info, 1, 1);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        void *w = work_alloc(ctx, a->dtype, lw);
        if (!w) {
            nn_tensor_release(x);
            x = NULL;
        } else {
            for (int64_t b = 0; b < bt.count; b++)
                f(&side, &tr, &mm, &nn, &kk, elem(acm, b * ar * ac), &lda, elem(tc, b * k),
                  elem(x, b * m * n), &ldc, w, &lw, &info, 1, 1);
            nn_mem_free(w);
        }
    }
    nn_tensor_release(tc);
    nn_tensor_release(acm);
    return x;
}

/* ---- SVD ---- */

nn_status nn_linalg_svd(nn_ctx *ctx, nn_tensor *a, bool full, bool compute_uv, nn_tensor **u,
                        nn_tensor **s, nn_tensor **vh, nn_tensor **info) {
    batch bt;
    *u = *s = *vh = *info = NULL;
    if (check_mat(ctx, "linalg.svd", a, &bt) != NN_OK) return ctx->err.code;
    gesdd_fn f = (gesdd_fn)(uintptr_t)lapack(ctx, a->dtype, "gesdd");
    if (!f) return ctx->err.code;
    int m = (int)a->shape[a->ndim - 2], n = (int)a->shape[a->ndim - 1], k = m < n ? m : n;
    int ucols = full ? m : k, vrows = full ? n : k;
    nn_tensor *acm = cm_copy(ctx, a, &bt);
    *s = acm ? vec_new(ctx, a->dtype, &bt, k) : NULL;
    *info = *s ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (*info && compute_uv) {
        *u = cm_new(ctx, a->dtype, &bt, m, ucols);
        *vh = *u ? cm_new(ctx, a->dtype, &bt, vrows, n) : NULL;
    }
    if (!*info || (compute_uv && !*vh)) goto fail;
    if (bt.count > 0 && k > 0) {
        char jobz = !compute_uv ? 'N' : full ? 'A' : 'S';
        int mm = m, nn = n, lda = imax1(m), ldu = imax1(m), ldvt = imax1(vrows), lw = -1, inf = 0;
        int *iwork = nn_mem_alloc(sizeof(int) * 8 * (size_t)k, "LAPACK workspace", &ctx->err);
        if (!iwork) goto fail;
        double wq[2];
        double dummy[2];
        void *up = compute_uv ? (void *)elem(*u, 0) : (void *)dummy;
        void *vp = compute_uv ? (void *)elem(*vh, 0) : (void *)dummy;
        f(&jobz, &mm, &nn, elem(acm, 0), &lda, elem(*s, 0), up, &ldu, vp, &ldvt, wq, &lw, iwork,
          &inf, 1);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        void *w = work_alloc(ctx, a->dtype, lw);
        if (!w) {
            nn_mem_free(iwork);
            goto fail;
        }
        for (int64_t b = 0; b < bt.count; b++) {
            up = compute_uv ? (void *)elem(*u, b * m * ucols) : (void *)dummy;
            vp = compute_uv ? (void *)elem(*vh, b * vrows * n) : (void *)dummy;
            f(&jobz, &mm, &nn, elem(acm, b * m * n), &lda, elem(*s, b * k), up, &ldu, vp, &ldvt, w,
              &lw, iwork, (int *)nn_tensor_data(*info) + b, 1);
        }
        nn_mem_free(w);
        nn_mem_free(iwork);
    } else if (compute_uv && bt.count > 0) {
        /* an empty side: the full factors are identities */
        for (int64_t b = 0; b < bt.count; b++) {
            for (int i = 0; i < ucols && i < m; i++)
                nn_dtype_store(a->dtype, elem(*u, b * m * ucols + (int64_t)i * m + i), 1.0);
            for (int i = 0; i < vrows && i < n; i++)
                nn_dtype_store(a->dtype, elem(*vh, b * vrows * n + (int64_t)i * vrows + i), 1.0);
        }
    }
    nn_tensor_release(acm);
    return NN_OK;
fail:
    nn_tensor_release(acm);
    nn_tensor_release(*u);
    nn_tensor_release(*s);
    nn_tensor_release(*vh);
    nn_tensor_release(*info);
    *u = *s = *vh = *info = NULL;
    return ctx->err.code;
}

/* ---- symmetric and general eigenproblems ---- */

nn_status nn_linalg_eigh(nn_ctx *ctx, nn_tensor *a, bool upper, bool compute_v, nn_tensor **w,
                         nn_tensor **v, nn_tensor **info) {
    batch bt;
    *w = *v = *info = NULL;
    if (check_mat(ctx, "linalg.eigh", a, &bt) != NN_OK) return ctx->err.code;
    int n = (int)a->shape[a->ndim - 1];
    if (a->shape[a->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.eigh: A must be square");
    syevd_fn f = (syevd_fn)(uintptr_t)lapack(ctx, a->dtype, "syevd");
    if (!f) return ctx->err.code;
    *v = cm_copy(ctx, a, &bt);
    *w = *v ? vec_new(ctx, a->dtype, &bt, n) : NULL;
    *info = *w ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (!*info) goto fail;
    if (bt.count > 0 && n > 0) {
        char jobz = compute_v ? 'V' : 'N', uplo = upper ? 'U' : 'L';
        int nn = n, lda = imax1(n), lw = -1, liw = -1, inf = 0, iq = 0;
        double wq[2];
        f(&jobz, &uplo, &nn, elem(*v, 0), &lda, elem(*w, 0), wq, &lw, &iq, &liw, &inf, 1, 1);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        liw = iq < 1 ? 1 : iq;
        void *wk = work_alloc(ctx, a->dtype, lw);
        int *iw =
            wk ? nn_mem_alloc(sizeof(int) * (size_t)liw, "LAPACK workspace", &ctx->err) : NULL;
        if (!iw) {
            nn_mem_free(wk);
            goto fail;
        }
        for (int64_t b = 0; b < bt.count; b++)
            f(&jobz, &uplo, &nn, elem(*v, b * n * n), &lda, elem(*w, b * n), wk, &lw, iw, &liw,
              (int *)nn_tensor_data(*info) + b, 1, 1);
        nn_mem_free(wk);
        nn_mem_free(iw);
    }
    return NN_OK;
fail:
    nn_tensor_release(*w);
    nn_tensor_release(*v);
    nn_tensor_release(*info);
    *w = *v = *info = NULL;
    return ctx->err.code;
}

nn_status nn_linalg_eig(nn_ctx *ctx, nn_tensor *a, bool compute_v, nn_tensor **wr, nn_tensor **wi,
                        nn_tensor **vr, nn_tensor **info) {
    batch bt;
    *wr = *wi = *vr = *info = NULL;
    if (check_mat(ctx, "linalg.eig", a, &bt) != NN_OK) return ctx->err.code;
    int n = (int)a->shape[a->ndim - 1];
    if (a->shape[a->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.eig: A must be square");
    geev_fn f = (geev_fn)(uintptr_t)lapack(ctx, a->dtype, "geev");
    if (!f) return ctx->err.code;
    nn_tensor *acm = cm_copy(ctx, a, &bt);
    *wr = acm ? vec_new(ctx, a->dtype, &bt, n) : NULL;
    *wi = *wr ? vec_new(ctx, a->dtype, &bt, n) : NULL;
    *vr = *wi ? cm_new(ctx, a->dtype, &bt, n, n) : NULL;
    *info = *vr ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (!*info) goto fail;
    if (bt.count > 0 && n > 0) {
        char jl = 'N', jr = compute_v ? 'V' : 'N';
        int nn = n, lda = imax1(n), ldvl = 1, lw = -1, inf = 0;
        double wq[2], dummy[2];
        f(&jl, &jr, &nn, elem(acm, 0), &lda, elem(*wr, 0), elem(*wi, 0), dummy, &ldvl, elem(*vr, 0),
          &lda, wq, &lw, &inf, 1, 1);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        void *wk = work_alloc(ctx, a->dtype, lw);
        if (!wk) goto fail;
        for (int64_t b = 0; b < bt.count; b++)
            f(&jl, &jr, &nn, elem(acm, b * n * n), &lda, elem(*wr, b * n), elem(*wi, b * n), dummy,
              &ldvl, elem(*vr, b * n * n), &lda, wk, &lw, (int *)nn_tensor_data(*info) + b, 1, 1);
        nn_mem_free(wk);
    }
    nn_tensor_release(acm);
    return NN_OK;
fail:
    nn_tensor_release(acm);
    nn_tensor_release(*wr);
    nn_tensor_release(*wi);
    nn_tensor_release(*vr);
    nn_tensor_release(*info);
    *wr = *wi = *vr = *info = NULL;
    return ctx->err.code;
}

/* ---- least squares ---- */

nn_status nn_linalg_lstsq(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, double rcond, const char *driver,
                          nn_tensor **x, nn_tensor **rank, nn_tensor **sv, nn_tensor **info) {
    batch bt;
    *x = *rank = *sv = *info = NULL;
    if (check_mat(ctx, "linalg.lstsq", a, &bt) != NN_OK) return ctx->err.code;
    if (check_same(ctx, "linalg.lstsq", b, &bt, a->dtype) != NN_OK) return ctx->err.code;
    int m = (int)a->shape[a->ndim - 2], n = (int)a->shape[a->ndim - 1];
    int k = (int)b->shape[b->ndim - 1], mn = m < n ? m : n, ldb = imax1(m > n ? m : n);
    if (b->shape[b->ndim - 2] != m)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.lstsq: A and B do not fit");
    int kind = !strcmp(driver, "gels")    ? 0
               : !strcmp(driver, "gelsy") ? 1
               : !strcmp(driver, "gelsd") ? 2
                                          : 3;
    void *fp = lapack(ctx, a->dtype, driver);
    if (!fp) return ctx->err.code;
    nn_tensor *acm = cm_copy(ctx, a, &bt);
    *x = acm ? cm_new(ctx, a->dtype, &bt, ldb, k) : NULL;
    *info = *x ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (*info && kind != 0) *rank = vec_new(ctx, NN_INT64, &bt, -1);
    if (*info && kind >= 2) *sv = vec_new(ctx, a->dtype, &bt, mn);
    int *jpvt = NULL, *iwork = NULL;
    void *wk = NULL;
    if (!*info || (kind != 0 && !*rank) || (kind >= 2 && !*sv)) goto fail;
    copy_in(b, nn_tensor_data(*x), ldb, (int64_t)ldb * k, bt.count);
    if (bt.count == 0 || m == 0 || n == 0 || k == 0) {
        nn_tensor_release(acm);
        return NN_OK;
    }
    int mm = m, nn = n, kk = k, lda = imax1(m), lw = -1, inf = 0, rk = 0;
    float rf = (float)rcond;
    void *rc = a->dtype == NN_FLOAT64 ? (void *)&rcond : (void *)&rf;
    double wq[2];
    int iq = 0;
    jpvt = nn_mem_calloc(sizeof(int) * (size_t)(n > 0 ? n : 1), "LAPACK workspace", &ctx->err);
    if (!jpvt) goto fail;
    char tr = 'N';
    double sdummy[2];
    switch (kind) {
    case 0:
        ((gels_fn)(uintptr_t)fp)(&tr, &mm, &nn, &kk, elem(acm, 0), &lda, elem(*x, 0), &ldb, wq, &lw,
                                 &inf, 1);
        break;
    case 1:
        ((gelsy_fn)(uintptr_t)fp)(&mm, &nn, &kk, elem(acm, 0), &lda, elem(*x, 0), &ldb, jpvt, rc,
                                  &rk, wq, &lw, &inf);
        break;
    case 2:
        ((gelsd_fn)(uintptr_t)fp)(&mm, &nn, &kk, elem(acm, 0), &lda, elem(*x, 0), &ldb, sdummy, rc,
                                  &rk, wq, &lw, &iq, &inf);
        break;
    default:
        ((gelss_fn)(uintptr_t)fp)(&mm, &nn, &kk, elem(acm, 0), &lda, elem(*x, 0), &ldb, sdummy, rc,
                                  &rk, wq, &lw, &inf);
    }
    lw = (int)work_query(a->dtype, wq);
    if (lw < 1) lw = 1;
    wk = work_alloc(ctx, a->dtype, lw);
    if (!wk) goto fail;
    if (kind == 2) {
        iwork =
            nn_mem_alloc(sizeof(int) * (size_t)(iq > 1 ? iq : 1), "LAPACK workspace", &ctx->err);
        if (!iwork) goto fail;
    }
    for (int64_t i = 0; i < bt.count; i++) {
        int *ip = (int *)nn_tensor_data(*info) + i;
        void *ai = elem(acm, i * m * n), *xi = elem(*x, i * ldb * k);
        void *si = *sv ? elem(*sv, i * mn) : NULL;
        switch (kind) {
        case 0:
            ((gels_fn)(uintptr_t)fp)(&tr, &mm, &nn, &kk, ai, &lda, xi, &ldb, wk, &lw, ip, 1);
            break;
        case 1:
            memset(jpvt, 0, sizeof(int) * (size_t)n);
            ((gelsy_fn)(uintptr_t)fp)(&mm, &nn, &kk, ai, &lda, xi, &ldb, jpvt, rc, &rk, wk, &lw,
                                      ip);
            break;
        case 2:
            ((gelsd_fn)(uintptr_t)fp)(&mm, &nn, &kk, ai, &lda, xi, &ldb, si, rc, &rk, wk, &lw,
                                      iwork, ip);
            break;
        default:
            ((gelss_fn)(uintptr_t)fp)(&mm, &nn, &kk, ai, &lda, xi, &ldb, si, rc, &rk, wk, &lw, ip);
        }
        if (*rank) ((int64_t *)nn_tensor_data(*rank))[i] = rk;
    }
    nn_mem_free(wk);
    nn_mem_free(iwork);
    nn_mem_free(jpvt);
    nn_tensor_release(acm);
    return NN_OK;
fail:
    nn_mem_free(wk);
    nn_mem_free(iwork);
    nn_mem_free(jpvt);
    nn_tensor_release(acm);
    nn_tensor_release(*x);
    nn_tensor_release(*rank);
    nn_tensor_release(*sv);
    nn_tensor_release(*info);
    *x = *rank = *sv = *info = NULL;
    return ctx->err.code;
}

/* ---- LDL^T (Bunch-Kaufman) ---- */

nn_status nn_linalg_ldl_factor(nn_ctx *ctx, nn_tensor *a, nn_tensor **ld, nn_tensor **piv,
                               nn_tensor **info) {
    batch bt;
    *ld = *piv = *info = NULL;
    if (check_mat(ctx, "torch.linalg.ldl_factor_ex", a, &bt) != NN_OK) return ctx->err.code;
    int n = (int)a->shape[a->ndim - 1];
    if (a->shape[a->ndim - 2] != n)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE, "linalg.ldl_factor: A must be square");
    sytrf_fn f = (sytrf_fn)(uintptr_t)lapack(ctx, a->dtype, "sytrf");
    if (!f) return ctx->err.code;
    *ld = cm_copy(ctx, a, &bt);
    *piv = *ld ? vec_new(ctx, NN_INT32, &bt, n) : NULL;
    *info = *piv ? vec_new(ctx, NN_INT32, &bt, -1) : NULL;
    if (!*info) goto fail;
    if (bt.count > 0 && n > 0) {
        char uplo = 'L';
        int nn = n, lda = imax1(n), lw = -1, inf = 0;
        double wq[2];
        f(&uplo, &nn, elem(*ld, 0), &lda, (int *)nn_tensor_data(*piv), wq, &lw, &inf, 1);
        lw = (int)work_query(a->dtype, wq);
        if (lw < 1) lw = 1;
        void *w = work_alloc(ctx, a->dtype, lw);
        if (!w) goto fail;
        for (int64_t b = 0; b < bt.count; b++)
            f(&uplo, &nn, elem(*ld, b * n * n), &lda, (int *)nn_tensor_data(*piv) + b * n, w, &lw,
              (int *)nn_tensor_data(*info) + b, 1);
        nn_mem_free(w);
    }
    zero_triangle(*ld, bt.count, n, true);
    return NN_OK;
fail:
    nn_tensor_release(*ld);
    nn_tensor_release(*piv);
    nn_tensor_release(*info);
    *ld = *piv = *info = NULL;
    return ctx->err.code;
}

nn_tensor *nn_linalg_ldl_solve(nn_ctx *ctx, nn_tensor *ld, nn_tensor *piv, nn_tensor *b) {
    batch bt;
    if (check_mat(ctx, "torch.linalg.ldl_solve", ld, &bt) != NN_OK) return NULL;
    if (check_same(ctx, "torch.linalg.ldl_solve", b, &bt, ld->dtype) != NN_OK) return NULL;
    int n = (int)ld->shape[ld->ndim - 1], k = (int)b->shape[b->ndim - 1];
    if (ld->shape[ld->ndim - 2] != n || b->shape[b->ndim - 2] != n) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "torch.linalg.ldl_solve: LD and B do not fit");
        return NULL;
    }
    sytrs_fn f = (sytrs_fn)(uintptr_t)lapack(ctx, ld->dtype, "sytrs");
    if (!f) return NULL;
    nn_tensor *p = piv_int32(ctx, piv, &bt, n);
    nn_tensor *a = p ? cm_copy(ctx, ld, &bt) : NULL;
    nn_tensor *x = a ? cm_copy(ctx, b, &bt) : NULL;
    if (x && n > 0 && k > 0) {
        int ldn = imax1(n);
        for (int64_t i = 0; i < bt.count; i++) {
            int nn = n, kk = k, info = 0;
            char uplo = 'L';
            f(&uplo, &nn, &kk, elem(a, i * n * n), &ldn, (int *)nn_tensor_data(p) + i * n,
              elem(x, i * n * k), &ldn, &info, 1);
        }
    }
    nn_tensor_release(p);
    nn_tensor_release(a);
    return x;
}
