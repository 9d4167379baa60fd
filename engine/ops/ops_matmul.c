/* Matrix products through CBLAS: matmul with torch.matmul's semantics (1-D
 * to N-D, batch dims broadcast) and linear (x W^T + b), forward and
 * backward.
 *
 * Every operand is described as a strided matrix (rows, cols, row stride,
 * col stride). A matrix whose cols or rows are unit-stride goes to BLAS
 * as-is, the other way round through the transpose flag, so x.T @ y and the
 * transposed operands of every backward copy nothing; only a matrix with no
 * unit stride (a sliced or expanded view) is copied first. Batches run as one
 * gemm per batch entry, except where the batch folds into the gemm: a shared
 * right operand ([B, T, K] @ [K, N]) folds the batch into M, and a gradient
 * summed over the batch (dW of the same product) folds it into K. A product
 * whose output is broadcast over a batch dim accumulates with beta = 1, so
 * gradients come out already summed to each input's shape.
 */
#include <limits.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"

/* ---- strided matrices and one gemm ---- */

typedef struct mat {
    char *p; /* element [0, 0] */
    int64_t rows, cols, rs, cs;
} mat;

typedef struct blas_arg {
    CBLAS_TRANSPOSE tr;
    int64_t ld;
} blas_arg;

static int64_t max1(int64_t v) {
    return v > 1 ? v : 1;
}

/* How row-major BLAS reads [m] without a copy, or false when it cannot. */
static bool blas_layout(const mat *m, blas_arg *b) {
    if (m->cs == 1 || m->cols <= 1) {
        int64_t ld = m->rows <= 1 ? max1(m->cols) : m->rs;
        if (ld >= max1(m->cols) && ld <= INT_MAX) {
            b->tr = CblasNoTrans, b->ld = ld;
            return true;
        }
    }
    if (m->rs == 1 || m->rows <= 1) {
        int64_t ld = m->cols <= 1 ? max1(m->rows) : m->cs;
        if (ld >= max1(m->rows) && ld <= INT_MAX) {
            b->tr = CblasTrans, b->ld = ld;
            return true;
        }
    }
    return false;
}

static mat transposed(mat m) {
    mat t = {m.p, m.cols, m.rows, m.cs, m.rs};
    return t;
}

/* C = A B + beta C for a C with unit col stride; A and B pass blas_layout. */
static void gemm(nn_dtype dt, const mat *a, const mat *b, const mat *c, double beta) {
    int64_t M = a->rows, K = a->cols, N = b->cols;
    if (M == 0 || N == 0) return;
    if (K == 0) {
        /* BLAS may not touch C for an empty inner dim: do beta * C here. */
        if (beta == 0) {
            size_t es = nn_dtype_size(dt);
            for (int64_t i = 0; i < M; i++)
                memset(c->p + i * c->rs * (int64_t)es, 0, (size_t)N * es);
        }
        return;
    }
    blas_arg ba, bb;
    bool ok = blas_layout(a, &ba) && blas_layout(b, &bb);
    NN_ASSERT(ok && c->cs == 1);
    int ldc = (int)max1(M > 1 ? c->rs : N);
    if (dt == NN_FLOAT32)
        nn_blas_sgemm(CblasRowMajor, ba.tr, bb.tr, (int)M, (int)N, (int)K, 1.0f,
                      (const float *)a->p, (int)ba.ld, (const float *)b->p, (int)bb.ld, (float)beta,
                      (float *)c->p, ldc);
    else
        nn_blas_dgemm(CblasRowMajor, ba.tr, bb.tr, (int)M, (int)N, (int)K, 1.0,
                      (const double *)a->p, (int)ba.ld, (const double *)b->p, (int)bb.ld, beta,
                      (double *)c->p, ldc);
}

/* int64 has no BLAS: a plain loop (no gradients, rarely large). */
static void gemm_i64(const mat *a, const mat *b, const mat *c) {
    for (int64_t i = 0; i < a->rows; i++)
        for (int64_t j = 0; j < b->cols; j++) {
            int64_t s = 0;
            const int64_t *pa = (const int64_t *)a->p + i * a->rs;
            const int64_t *pb = (const int64_t *)b->p + j * b->cs;
            for (int64_t k = 0; k < a->cols; k++) s += pa[k * a->cs] * pb[k * b->rs];
            ((int64_t *)c->p)[i * c->rs + j] = s;
        }
}

static bool dims_fit_blas(int64_t m, int64_t n, int64_t k) {
    return m <= INT_MAX && n <= INT_MAX && k <= INT_MAX;
}

/* ---- batched operands ----
 * A batched matrix is a tensor (or raw view) of nb + 2 dims: batch dims of
 * size 1 or the full batch size, then rows and cols. */

static mat mat_of(const nn_tensor *t, char *base) {
    int n = t->ndim;
    mat m = {base, t->shape[n - 2], t->shape[n - 1], t->strides[n - 2], t->strides[n - 1]};
    return m;
}

/* The single stride with which the listed dims of [t] (outer to inner)
 * step as one dim, ignoring dims of size 1; false when they do not. */
static bool merge_dims(const nn_tensor *t, const int *dims, int n, int64_t *size, int64_t *stride) {
    int64_t sz = 1, st = 0;
    for (int k = n - 1; k >= 0; k--) {
        int d = dims[k];
        if (t->shape[d] == 1) continue;
        /* An outer dim continues the run where the inner ones end. */
        if (sz > 1 && t->strides[d] != st * sz) return false;
        if (sz == 1) st = t->strides[d];
        sz *= t->shape[d];
    }
    *size = sz;
    *stride = st;
    return true;
}

/* A copy of [t] when its matrices cannot go to BLAS as they are, else a new
 * reference. */
static nn_tensor *blas_ready(nn_ctx *ctx, nn_tensor *t) {
    mat m = mat_of(t, NULL);
    blas_arg b;
    if (blas_layout(&m, &b)) return nn_tensor_retain(t);
    return nn_tensor_contiguous_raw(ctx, t);
}

typedef struct batch_arg {
    nn_dtype dt;
    bool reduce, loop_small; /* loop_small: a true bmm's entries under SMALL_BMM_WORK */
    int nb;
    const int64_t *bs;
    const nn_tensor *a, *b, *c;
    mat ma, mb, mc;
    size_t es;
} batch_arg;

/* PyTorch 1.13's bmm of an entry under 400 multiply-adds (K M N < 400,
 * baddbmm_cpu_kernel in LinearAlgebra.cpp): no BLAS call; each element is
 * one loop over k in order, a product then a sum, each rounded in the
 * type (its kernel is built for the baseline CPU, without fused
 * multiply-adds). The same bits as that loop, which a gemm's FMA chains
 * do not give. */
#define SMALL_BMM_WORK 400

#define NAIVE_MM(NAME, T)                                                                          \
    static void NAME(const mat *a, const mat *b, const mat *c, bool add) {                         \
        for (int64_t i = 0; i < a->rows; i++)                                                      \
            for (int64_t j = 0; j < b->cols; j++) {                                                \
                T acc = 0;                                                                         \
                for (int64_t k = 0; k < a->cols; k++) {                                            \
                    T prod = ((const T *)a->p)[i * a->rs + k * a->cs] *                            \
                             ((const T *)b->p)[k * b->rs + j * b->cs];                             \
                    acc = acc + prod;                                                              \
                }                                                                                  \
                T *cij = (T *)c->p + i * c->rs + j * c->cs;                                        \
                *cij = add ? *cij + acc : acc;                                                     \
            }                                                                                      \
    }
NAIVE_MM(naive_mm_f32, float)
NAIVE_MM(naive_mm_f64, double)

/* The gemms of batch entries [begin, end) (row-major over the batch dims). */
static void batch_range(const batch_arg *g, int64_t begin, int64_t end) {
    int nb = g->nb;
    int64_t idx[NN_MAX_DIMS] = {0};
    int64_t oa = 0, ob = 0, oc = 0, rest = begin;
    for (int d = nb - 1; d >= 0; d--) {
        idx[d] = rest % g->bs[d];
        rest /= g->bs[d];
        oa += g->a->shape[d] == 1 ? 0 : idx[d] * g->a->strides[d];
        ob += g->b->shape[d] == 1 ? 0 : idx[d] * g->b->strides[d];
        oc += g->c->shape[d] == 1 ? 0 : idx[d] * g->c->strides[d];
    }
    int64_t es = (int64_t)g->es;
    bool naive = g->loop_small && (g->dt == NN_FLOAT32 || g->dt == NN_FLOAT64) &&
                 (double)g->ma.rows * (double)g->ma.cols * (double)g->mb.cols < SMALL_BMM_WORK;
    for (int64_t it = begin; it < end; it++) {
        mat A = g->ma, B = g->mb, C = g->mc;
        A.p += oa * es, B.p += ob * es, C.p += oc * es;
        if (g->dt == NN_INT64)
            gemm_i64(&A, &B, &C);
        else if (naive)
            (g->dt == NN_FLOAT32 ? naive_mm_f32 : naive_mm_f64)(&A, &B, &C, g->reduce);
        else
            gemm(g->dt, &A, &B, &C, g->reduce ? 1.0 : 0.0);
        for (int d = nb - 1; d >= 0; d--) {
            int64_t sa = g->a->shape[d] == 1 ? 0 : g->a->strides[d];
            int64_t sb = g->b->shape[d] == 1 ? 0 : g->b->strides[d];
            int64_t sc = g->c->shape[d] == 1 ? 0 : g->c->strides[d];
            if (++idx[d] < g->bs[d]) {
                oa += sa, ob += sb, oc += sc;
                break;
            }
            oa -= sa * (g->bs[d] - 1), ob -= sb * (g->bs[d] - 1), oc -= sc * (g->bs[d] - 1);
            idx[d] = 0;
        }
    }
}

static void batch_task(void *arg, int task, int n_tasks) {
    const batch_arg *g = arg;
    int64_t nbatch = 1, begin, end;
    for (int d = 0; d < g->nb; d++) nbatch *= g->bs[d];
    nn_parallel_range(nbatch, task, n_tasks, 1, &begin, &end);
    batch_range(g, begin, end);
}

/* C (+)= A B over the broadcast batch. [a] [..., M, K], [b] [..., K, N],
 * [c] [..., M, N] contiguous, all nb + 2 dims; each batch dim is 1 or the
 * batch size. Where [c] has 1 against a larger batch the products are
 * summed into it. [fold]: one of the user's operands has at most 2 dims,
 * and PyTorch's matmul makes one mm of the product (nndb folds the batch
 * into one product's rows or inner dim where the layout allows, and gives
 * each entry the library's bits where not); without it both have 3 dims
 * or more and PyTorch calls bmm: one product per entry, and a plain loop
 * under 400 multiply-adds, as nndb does then. */
static nn_status bmm(nn_ctx *ctx, nn_tensor *a_in, nn_tensor *b_in, nn_tensor *c, bool fold) {
    int nd = c->ndim, nb = nd - 2;
    nn_dtype dt = c->dtype;
    int64_t bs[NN_MAX_DIMS], nbatch = 1;
    bool reduce = false;
    for (int d = 0; d < nb; d++) {
        /* The size that is not 1 (it may be 0). */
        bs[d] = a_in->shape[d] != 1   ? a_in->shape[d]
                : b_in->shape[d] != 1 ? b_in->shape[d]
                                      : c->shape[d];
        nbatch *= bs[d];
        reduce |= c->shape[d] != bs[d];
    }
    if (nbatch == 0) {
        /* An empty batch sums to zeros in an output that is not empty. */
        memset(nn_tensor_data(c), 0, (size_t)nn_tensor_numel(c) * nn_dtype_size(dt));
        return NN_OK;
    }
    if (!dims_fit_blas(a_in->shape[nd - 2], b_in->shape[nd - 1], a_in->shape[nd - 1])) {
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "matmul: a matrix dim above %d is more than BLAS takes", INT_MAX);
    }
    nn_tensor *a = dt == NN_INT64 ? nn_tensor_retain(a_in) : blas_ready(ctx, a_in);
    nn_tensor *b = a && dt != NN_INT64 ? blas_ready(ctx, b_in) : a ? nn_tensor_retain(b_in) : NULL;
    if (!b) {
        nn_tensor_release(a);
        return ctx->err.code;
    }
    char *pa = nn_tensor_data(a), *pb = nn_tensor_data(b), *pc = nn_tensor_data(c);
    size_t es = nn_dtype_size(dt);
    mat ma = mat_of(a, pa), mb = mat_of(b, pb), mc = mat_of(c, pc);
    bool a_full = true, b_shared = true, b_full = true;
    for (int d = 0; d < nb; d++) {
        a_full &= a->shape[d] == bs[d];
        b_full &= b->shape[d] == bs[d];
        b_shared &= b->shape[d] == 1 || bs[d] == 1;
    }
    int dl[NN_MAX_DIMS + 1];
    int64_t fsize, fa, fb;
    if (fold && dt != NN_INT64 && !reduce && b_shared && a_full) {
        /* [B..., M, K] @ [K, N]: the batch folds into M when A's rows run on. */
        for (int d = 0; d <= nb; d++) dl[d] = d;
        if (merge_dims(a, dl, nb + 1, &fsize, &fa)) {
            mat A = {pa, fsize, ma.cols, fa, ma.cs};
            mat C = {pc, fsize, mc.cols, mc.cols, 1};
            blas_arg t;
            if (blas_layout(&A, &t) && fsize <= INT_MAX) {
                gemm(dt, &A, &mb, &C, 0);
                goto done;
            }
        }
    }
    bool c_single = true;
    for (int d = 0; d < nb; d++) c_single &= c->shape[d] == 1;
    if (fold && dt != NN_INT64 && reduce && c_single && a_full && b_full) {
        /* sum_b A_b B_b = [A_1 .. A_n] [B_1; ..; B_n]: the batch folds into K
         * when A's cols and B's rows run on through it. */
        for (int d = 0; d < nb; d++) dl[d] = d;
        dl[nb] = nb + 1;
        int64_t fsize2;
        if (merge_dims(a, dl, nb + 1, &fsize, &fa)) {
            dl[nb] = nb;
            if (merge_dims(b, dl, nb + 1, &fsize2, &fb) && fsize2 == fsize) {
                mat A = {pa, ma.rows, fsize, ma.rs, fa};
                mat B = {pb, fsize, mb.cols, fb, mb.cs};
                blas_arg t1, t2;
                if (blas_layout(&A, &t1) && blas_layout(&B, &t2) && fsize <= INT_MAX) {
                    gemm(dt, &A, &B, &mc, 0);
                    goto done;
                }
            }
        }
    }
    /* One gemm per batch entry, each with the bits the BLAS gives it at its
     * thread count, as PyTorch's bmm (one sgemm per entry, on OpenBLAS's
     * threads). At two threads or more the batch entries are split across
     * the engine's threads where that keeps those bits (a gemm of a GPT
     * attention head is too small to split well): with OpenBLAS at one
     * thread, one single-threaded gemm per entry; at two, float32, each
     * entry in OpenBLAS's two threads' order on its task's thread
     * (nn_blas_split_mode; the order in which its shares are summed is
     * the library's, not the thread that runs them). Elsewhere the entries
     * go one after another to the library on its threads: running them at
     * one thread gave the one-thread bits, not PyTorch's (OpenBLAS at two
     * threads splits a 256 x 256 x 64 head between them and sums in
     * another order; tests/py/attention_products_bits.py). */
    if (reduce) memset(pc, 0, (size_t)nn_tensor_numel(c) * es);
    batch_arg ba = {dt, reduce, !fold, nb, bs, a, b, c, ma, mb, mc, es};
    int tasks = dt == NN_INT64 || reduce ? 1 : nn_parallel_tasks(nbatch, 1);
    if (tasks > 1 && nbatch % tasks != 0 && nbatch < 4 * tasks) tasks = 1;
    nn_blas_split split = tasks > 1 ? nn_blas_split_mode(dt == NN_FLOAT32) : NN_BLAS_SPLIT_NONE;
    if (tasks > 1 && split != NN_BLAS_SPLIT_NONE) {
        if (split == NN_BLAS_SPLIT_ONE) nn_blas_single_threaded(true);
        nn_parallel_run(tasks, batch_task, &ba);
        if (split == NN_BLAS_SPLIT_ONE) nn_blas_single_threaded(false);
    } else {
        batch_range(&ba, 0, nbatch);
    }
done:
    nn_tensor_release(a);
    nn_tensor_release(b);
    return NN_OK;
}

/* ---- matmul geometry ---- */

typedef struct mm_geo {
    int nb;
    int64_t bs[NN_MAX_DIMS];
    int64_t M, K, N;
    /* each input as a batched matrix of nb + 2 dims */
    int64_t ashape[NN_MAX_DIMS + 2], astr[NN_MAX_DIMS + 2];
    int64_t bshape[NN_MAX_DIMS + 2], bstr[NN_MAX_DIMS + 2];
    int out_ndim;
    int64_t out_shape[NN_MAX_DIMS];
} mm_geo;

static void contig_strides(int nd, const int64_t *shape, int64_t *st) {
    int64_t s = 1;
    for (int i = nd - 1; i >= 0; i--) {
        st[i] = s;
        s *= shape[i] > 1 ? shape[i] : 1;
    }
}

/* [t] as batched matrix of [nb] batch dims; [vec_as_row]: a 1-D [t] is a
 * row [1, K] (left operand), else a column [K, 1]. */
static void as_batched(const nn_tensor *t, int nb, bool vec_as_row, int64_t *shape, int64_t *st) {
    int tb = t->ndim >= 2 ? t->ndim - 2 : 0;
    for (int d = 0; d < nb; d++) {
        int j = d - (nb - tb);
        shape[d] = j < 0 ? 1 : t->shape[j];
        st[d] = j < 0 ? 0 : t->strides[j];
    }
    if (t->ndim >= 2) {
        shape[nb] = t->shape[t->ndim - 2], st[nb] = t->strides[t->ndim - 2];
        shape[nb + 1] = t->shape[t->ndim - 1], st[nb + 1] = t->strides[t->ndim - 1];
    } else if (vec_as_row) {
        shape[nb] = 1, st[nb] = 0;
        shape[nb + 1] = t->shape[0], st[nb + 1] = t->strides[0];
    } else {
        shape[nb] = t->shape[0], st[nb] = t->strides[0];
        shape[nb + 1] = 1, st[nb + 1] = 0;
    }
}

static bool mm_geometry(nn_ctx *ctx, const nn_tensor *a, const nn_tensor *b, mm_geo *g) {
    char sa[128], sb[128];
    if (a->ndim == 0 || b->ndim == 0) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "matmul: %s @ %s: both operands need at least one dim (use mul for a "
                     "scalar)",
                     nn_tensor_shape_str(a, sa, sizeof sa), nn_tensor_shape_str(b, sb, sizeof sb));
        return false;
    }
    int ab = a->ndim >= 2 ? a->ndim - 2 : 0, bb = b->ndim >= 2 ? b->ndim - 2 : 0;
    g->nb = ab > bb ? ab : bb;
    as_batched(a, g->nb, true, g->ashape, g->astr);
    as_batched(b, g->nb, false, g->bshape, g->bstr);
    int nb = g->nb;
    g->M = g->ashape[nb], g->K = g->ashape[nb + 1], g->N = g->bshape[nb + 1];
    if (g->bshape[nb] != g->K) {
        if (a->ndim == 2 && b->ndim == 2) /* PyTorch's words, the ones learners search for */
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                         (long long)a->shape[0], (long long)a->shape[1], (long long)b->shape[0],
                         (long long)b->shape[1]);
        else
            nn_error_set(
                &ctx->err, NN_ERR_SHAPE, "matmul: %s @ %s: inner dims %lld and %lld differ",
                nn_tensor_shape_str(a, sa, sizeof sa), nn_tensor_shape_str(b, sb, sizeof sb),
                (long long)g->K, (long long)g->bshape[nb]);
        return false;
    }
    for (int d = 0; d < nb; d++) {
        int64_t x = g->ashape[d], y = g->bshape[d];
        if (x != y && x != 1 && y != 1) {
            nn_error_set(&ctx->err, NN_ERR_SHAPE,
                         "matmul: %s @ %s: batch dims cannot be broadcast: %lld vs %lld at "
                         "batch dim %d (sizes must match or be 1)",
                         nn_tensor_shape_str(a, sa, sizeof sa),
                         nn_tensor_shape_str(b, sb, sizeof sb), (long long)x, (long long)y, d);
            return false;
        }
        g->bs[d] = x == 1 ? y : x;
    }
    int n = 0;
    for (int d = 0; d < nb; d++) g->out_shape[n++] = g->bs[d];
    if (a->ndim >= 2) g->out_shape[n++] = g->M;
    if (b->ndim >= 2) g->out_shape[n++] = g->N;
    g->out_ndim = n;
    return true;
}

static nn_status same_dtype(nn_ctx *ctx, const char *op, const nn_tensor *a, const nn_tensor *b,
                            bool allow_int) {
    /* PyTorch's words (mm's dtype check), which learners search for */
    if (a->dtype != b->dtype)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "expected scalar type %s but found %s",
                            nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(b->dtype));
    if (!nn_dtype_is_float(a->dtype) && !(allow_int && a->dtype == NN_INT64))
        return nn_error_set(&ctx->err, NN_ERR_TYPE, "%s: not defined for %s tensors", op,
                            nn_dtype_name(a->dtype));
    return NN_OK;
}

/* A raw view of [t] with [nd] dims. */
static nn_tensor *view(nn_ctx *ctx, const nn_tensor *t, int nd, const int64_t *shape,
                       const int64_t *st) {
    return nn_tensor_view_raw(ctx, t, nd, shape, st, t->offset);
}

/* A raw view of [t] (contiguous, [nd] dims of [shape]'s numel) as [shape]. */
static nn_tensor *view_contig(nn_ctx *ctx, const nn_tensor *t, int nd, const int64_t *shape) {
    int64_t st[NN_MAX_DIMS + 2];
    contig_strides(nd, shape, st);
    return view(ctx, t, nd, shape, st);
}

/* ---- matmul ---- */

/* ---- matrix @ vector: BLAS gemv, as PyTorch's mv ----
 * torch.matmul of a 2-D and a 1-D tensor is at::mv, which calls BLAS gemv
 * (aten/src/ATen/native/Blas.cpp, addmv_out_cpu) rather than gemm, and
 * OpenBLAS's gemv sums in another order than its gemm: d2l's
 * torch.matmul(X, w) + b with w = torch.tensor([2, -3.4]) differed from
 * PyTorch in the last bit. The same BLAS call with PyTorch's arguments
 * gives its bits: column-major 'n' for a matrix with unit row stride,
 * 't' for one with unit column stride, else 't' over a contiguous copy.
 * Returns false (nothing done) where PyTorch would not call BLAS either. */
typedef void (*sgemv_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, int, int, float, const float *,
                         int, const float *, int, float, float *, int);
typedef void (*dgemv_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, int, int, double, const double *,
                         int, const double *, int, double, double *, int);

static bool fits_int(int64_t v) {
    return v >= 0 && v <= INT_MAX;
}

static bool mv_blas(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, nn_tensor *out, nn_status *st) {
    nn_dtype dt = a->dtype;
    int64_t rows = a->shape[0], cols = a->shape[1], s0 = a->strides[0], s1 = a->strides[1];
    if ((dt != NN_FLOAT32 && dt != NN_FLOAT64) || rows == 0 || cols == 0 || b->strides[0] <= 0)
        return false;
    void *fn = nn_blas_symbol(dt == NN_FLOAT32 ? "cblas_sgemv" : "cblas_dgemv");
    if (!fn) return false;
    /* PyTorch's lda_cond: a one-column operand takes any lda */
    CBLAS_TRANSPOSE tr;
    int64_t m, n, lda;
    nn_tensor *held = NULL;
    if (s0 == 1 && (cols == 1 || s1 >= max1(rows))) {
        tr = CblasNoTrans, m = rows, n = cols, lda = s1;
    } else if (s1 == 1 && (rows == 1 || s0 >= max1(cols))) {
        tr = CblasTrans, m = cols, n = rows, lda = s0;
    } else {
        held = nn_contiguous(ctx, a);
        if (!held) {
            *st = ctx->err.code;
            return true;
        }
        tr = CblasTrans, m = cols, n = rows, lda = held->strides[0];
    }
    if (n == 1) lda = m; /* as PyTorch's gemv */
    if (!fits_int(m) || !fits_int(n) || !fits_int(lda) || lda < max1(m) ||
        !fits_int(b->strides[0])) {
        nn_tensor_release(held);
        return false;
    }
    const void *pa = nn_tensor_data(held ? held : a), *px = nn_tensor_data(b);
    void *py = nn_tensor_data(out);
    /* beta 0: y is written, never read */
    if (dt == NN_FLOAT32)
        ((sgemv_fn)(uintptr_t)fn)(CblasColMajor, tr, (int)m, (int)n, 1.0f, pa, (int)lda, px,
                                  (int)b->strides[0], 0.0f, py, 1);
    else
        ((dgemv_fn)(uintptr_t)fn)(CblasColMajor, tr, (int)m, (int)n, 1.0, pa, (int)lda, px,
                                  (int)b->strides[0], 0.0, py, 1);
    nn_tensor_release(held);
    *st = NN_OK;
    return true;
}

/* The matrix PyTorch's matmul hands to mv when one operand is a vector and
 * the other has 3 dims or more: [t]'s leading dims folded into rows, as
 * reshape(-1, K) folds them (a view where they step as one, else a
 * contiguous copy); with [transposed], t's last two dims swapped first
 * (vector @ batch: tensor2.mT()). A new reference, or NULL on error. */
static nn_tensor *mv_folded(nn_ctx *ctx, nn_tensor *t, bool transposed) {
    int nd = t->ndim;
    int64_t sh[NN_MAX_DIMS], st[NN_MAX_DIMS];
    memcpy(sh, t->shape, sizeof(int64_t) * (size_t)nd);
    memcpy(st, t->strides, sizeof(int64_t) * (size_t)nd);
    if (transposed) {
        int64_t x = sh[nd - 1], y = st[nd - 1];
        sh[nd - 1] = sh[nd - 2], st[nd - 1] = st[nd - 2];
        sh[nd - 2] = x, st[nd - 2] = y;
    }
    nn_tensor *tv = view(ctx, t, nd, sh, st);
    if (!tv) return NULL;
    int dl[NN_MAX_DIMS];
    for (int d = 0; d < nd - 1; d++) dl[d] = d;
    int64_t rows, rs, k = sh[nd - 1];
    if (merge_dims(tv, dl, nd - 1, &rows, &rs)) {
        int64_t fsh[2] = {rows, k}, fst[2] = {rows > 1 ? rs : k, st[nd - 1]};
        nn_tensor *r = view(ctx, tv, 2, fsh, fst);
        nn_tensor_release(tv);
        return r;
    }
    nn_tensor *c = nn_contiguous(ctx, tv);
    nn_tensor_release(tv);
    if (!c) return NULL;
    int64_t fsh[2] = {nn_tensor_numel(c) / (k ? k : 1), k};
    nn_tensor *r = view_contig(ctx, c, 2, fsh);
    nn_tensor_release(c);
    return r;
}

/* out = the folded matrix of [mat] (see mv_folded) mv [vec]; false where
 * mv_blas declines (nothing done), with *st set on an engine error. */
static bool mv_batch(nn_ctx *ctx, nn_tensor *mt, bool transposed, nn_tensor *vec, nn_tensor *out,
                     nn_status *st) {
    nn_tensor *m2 = mv_folded(ctx, mt, transposed);
    if (!m2) {
        *st = ctx->err.code;
        return true;
    }
    int64_t n = m2->shape[0];
    nn_tensor *o1 = view_contig(ctx, out, 1, &n);
    bool done = o1 ? mv_blas(ctx, m2, vec, o1, st) : (*st = ctx->err.code, true);
    nn_tensor_release(o1);
    nn_tensor_release(m2);
    return done;
}

/* PyTorch 1.13's should_fold: matmul makes one mm (or mv) of a product of
 * [t] (3 dims or more) with an operand of [other_dim] (1 or 2) dims, but
 * for a 3-D [t] by a matrix whose last two dims are transposed in an
 * otherwise contiguous layout, which goes to bmm. */
static bool should_fold(const nn_tensor *t, int other_dim) {
    if (t->ndim < 3 || (other_dim != 1 && other_dim != 2)) return false;
    return !(t->ndim == 3 && other_dim == 2 && t->strides[2] != 1 &&
             t->strides[0] == t->shape[1] * t->shape[2]);
}

/* Whether PyTorch's matmul of [a] by [b] is a bmm (one product per batch
 * entry, a plain loop under 400 multiply-adds): an operand of 3 dims or
 * more that it does not fold. Both of at most 2 dims is mm, mv or dot. */
static bool matmul_is_bmm(const nn_tensor *a, const nn_tensor *b) {
    return (a->ndim >= 3 || b->ndim >= 3) && !should_fold(a, b->ndim) && !should_fold(b, a->ndim);
}

/* Whether matmul folds [b] as mm_fold_t below does. */
static bool fold_t_applies(const nn_tensor *a, const nn_tensor *b) {
    return a->ndim == 2 && (a->dtype == NN_FLOAT32 || a->dtype == NN_FLOAT64) &&
           should_fold(b, a->ndim);
}

/* [r] ([R, C], R = the batch of [shape] times its last dim) as [shape]
 * with its last two dims swapped back: the blocks [..., X, C] transposed
 * into a new contiguous [..., C, X]. */
static nn_tensor *unfold_t(nn_ctx *ctx, nn_tensor *r, int nd, const int64_t *shape) {
    int64_t sh[NN_MAX_DIMS], st[NN_MAX_DIMS];
    memcpy(sh, shape, sizeof(int64_t) * (size_t)nd);
    sh[nd - 1] = shape[nd - 2], sh[nd - 2] = shape[nd - 1]; /* [..., X, C] */
    contig_strides(nd, sh, st);
    int64_t x = sh[nd - 1], y = st[nd - 1];
    sh[nd - 1] = sh[nd - 2], st[nd - 1] = st[nd - 2];
    sh[nd - 2] = x, st[nd - 2] = y;
    nn_tensor *v = view(ctx, r, nd, sh, st);
    nn_tensor *c = v ? nn_contiguous(ctx, v) : NULL;
    nn_tensor_release(v);
    return c;
}

/* [t]'s matrices transposed and folded into rows (mv_folded), laid out
 * for the BLAS. A new reference, or NULL on error. */
static nn_tensor *folded_t_ready(nn_ctx *ctx, nn_tensor *t) {
    nn_tensor *f = mv_folded(ctx, t, true);
    nn_tensor *r = f ? blas_ready(ctx, f) : NULL;
    nn_tensor_release(f);
    return r;
}

/* A matrix [M, K] by a batch [..., K, N], as PyTorch's matmul folds it:
 * the batch's matrices transposed and folded into rows, [R, K] (R = batch
 * times N), times a^T into [R, M], each [N, M] block then transposed into
 * the result [..., M, N]. NULL on error. */
static nn_tensor *mm_fold_t(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, const int64_t *out_shape) {
    nn_dtype dt = a->dtype;
    nn_tensor *t1 = folded_t_ready(ctx, b);
    nn_tensor *ar = t1 ? blas_ready(ctx, a) : NULL;
    int64_t M = a->shape[0], K = a->shape[1], csh[2] = {t1 ? t1->shape[0] : 0, M};
    nn_tensor *c = ar ? nn_tensor_empty(ctx, dt, 2, csh) : NULL, *r = NULL;
    if (c) {
        mat A = mat_of(t1, nn_tensor_data(t1));
        mat B = {nn_tensor_data(ar), K, M, ar->strides[1], ar->strides[0]};
        mat C = mat_of(c, nn_tensor_data(c));
        gemm(dt, &A, &B, &C, 0);
        r = unfold_t(ctx, c, b->ndim, out_shape);
    }
    nn_tensor_release(c);
    nn_tensor_release(ar);
    nn_tensor_release(t1);
    return r;
}

nn_tensor *op_matmul_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_blas_require(ctx)) return NULL;
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    mm_geo g;
    if (same_dtype(ctx, "matmul", a, b, true) || !mm_geometry(ctx, a, b, &g)) return NULL;
    if (fold_t_applies(a, b)) return mm_fold_t(ctx, a, b, g.out_shape);
    int nd = g.nb + 2;
    int64_t cshape[NN_MAX_DIMS + 2];
    for (int d = 0; d < g.nb; d++) cshape[d] = g.bs[d];
    cshape[g.nb] = g.M, cshape[g.nb + 1] = g.N;
    nn_tensor *out = nn_tensor_empty(ctx, a->dtype, g.out_ndim, g.out_shape);
    nn_status mv_st = NN_OK;
    /* PyTorch's mv: a matrix by a vector, and (folding the batch into the
     * matrix's rows) a batch of matrices by a vector or a vector by one */
    bool mv_done = out && a->ndim == 2 && b->ndim == 1 && mv_blas(ctx, a, b, out, &mv_st);
    if (out && !mv_done && a->ndim >= 3 && b->ndim == 1)
        mv_done = mv_batch(ctx, a, false, b, out, &mv_st);
    if (out && !mv_done && a->ndim == 1 && b->ndim >= 3)
        mv_done = mv_batch(ctx, b, true, a, out, &mv_st);
    if (mv_done) {
        if (mv_st == NN_OK) return out;
        nn_tensor_release(out);
        return NULL;
    }
    nn_tensor *va = out ? view(ctx, a, nd, g.ashape, g.astr) : NULL;
    nn_tensor *vb = va ? view(ctx, b, nd, g.bshape, g.bstr) : NULL;
    nn_tensor *vc = vb ? view_contig(ctx, out, nd, cshape) : NULL;
    nn_status st = vc ? bmm(ctx, va, vb, vc, !matmul_is_bmm(a, b)) : ctx->err.code;
    nn_tensor_release(va);
    nn_tensor_release(vb);
    nn_tensor_release(vc);
    if (st) {
        nn_tensor_release(out);
        return NULL;
    }
    return out;
}

/* [t] as one dim: a view where its dims step as one, else a contiguous
 * copy. A new reference, or NULL on error. */
static nn_tensor *flattened(nn_ctx *ctx, nn_tensor *t) {
    int dl[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) dl[d] = d;
    int64_t n, s;
    if (merge_dims(t, dl, t->ndim, &n, &s)) {
        if (n <= 1) s = 1;
        return view(ctx, t, 1, &n, &s);
    }
    nn_tensor *c = nn_contiguous(ctx, t);
    if (!c) return NULL;
    n = nn_tensor_numel(c);
    nn_tensor *r = view_contig(ctx, c, 1, &n);
    nn_tensor_release(c);
    return r;
}

/* The gradient of the vector of a matrix-vector product made by mv (see
 * op_matmul_forward): (the folded matrix of [mat])^T mv [dout], flattened,
 * into a new tensor of [shape] (1-D), as PyTorch's mv backward (a gemv
 * too). False where mv_blas declines (nothing kept), *st set on error. */
static bool vec_grad_mv(nn_ctx *ctx, nn_tensor *mt_in, bool transposed, nn_tensor *dout,
                        const int64_t *shape, nn_tensor **out, nn_status *st) {
    nn_tensor *m2 = mv_folded(ctx, mt_in, transposed);
    nn_tensor *g1 = m2 ? flattened(ctx, dout) : NULL;
    nn_tensor *mt = NULL, *r = NULL;
    bool done = false;
    if (g1) {
        int64_t tsh[2] = {m2->shape[1], m2->shape[0]}, tst[2] = {m2->strides[1], m2->strides[0]};
        mt = view(ctx, m2, 2, tsh, tst);
        r = mt ? nn_tensor_empty(ctx, dout->dtype, 1, shape) : NULL;
    }
    if (!r)
        *st = ctx->err.code, done = true;
    else
        done = mv_blas(ctx, mt, g1, r, st);
    if (done && !*st && r)
        *out = r;
    else
        nn_tensor_release(r);
    nn_tensor_release(g1);
    nn_tensor_release(mt);
    nn_tensor_release(m2);
    return done;
}

/* mm_fold_t's gradients, as PyTorch's mm backward makes them for that
 * fold: with G the output gradient folded as the product was ([R, M]),
 * a's is G^T @ the folded batch (mm of grad.t(), a column-major mat2's
 * case), b's G @ a, each [N, K] block transposed back. */
static nn_status mm_fold_t_backward(nn_ctx *ctx, nn_node *node, nn_tensor *a, nn_tensor *b,
                                    nn_tensor *dout, nn_tensor **din) {
    nn_dtype dt = a->dtype;
    nn_tensor *gp = folded_t_ready(ctx, dout);
    nn_tensor *t1 = gp ? folded_t_ready(ctx, b) : NULL;
    nn_tensor *ar = t1 ? blas_ready(ctx, a) : NULL;
    nn_status st = ar ? NN_OK : ctx->err.code;
    int64_t M = a->shape[0], K = a->shape[1], R = t1 ? t1->shape[0] : 0;
    if (!st && node->in[0].needs_grad) {
        nn_tensor *r = nn_tensor_empty(ctx, dt, 2, a->shape);
        if (r) {
            mat A = {nn_tensor_data(gp), M, R, gp->strides[1], gp->strides[0]};
            mat B = mat_of(t1, nn_tensor_data(t1));
            mat C = mat_of(r, nn_tensor_data(r));
            gemm(dt, &A, &B, &C, 0);
            din[0] = r;
        } else {
            st = ctx->err.code;
        }
    }
    if (!st && node->in[1].needs_grad) {
        int64_t csh[2] = {R, K};
        nn_tensor *c = nn_tensor_empty(ctx, dt, 2, csh);
        if (c) {
            mat A = mat_of(gp, nn_tensor_data(gp));
            mat B = mat_of(ar, nn_tensor_data(ar));
            mat C = mat_of(c, nn_tensor_data(c));
            gemm(dt, &A, &B, &C, 0);
            din[1] = unfold_t(ctx, c, b->ndim, b->shape);
            if (!din[1]) st = ctx->err.code;
        } else {
            st = ctx->err.code;
        }
        nn_tensor_release(c);
    }
    nn_tensor_release(ar);
    nn_tensor_release(t1);
    nn_tensor_release(gp);
    return st;
}

nn_status op_matmul_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    if (nn_blas_require(ctx)) return ctx->err.code;
    nn_tensor *a = node->in[0].t, *b = node->in[1].t;
    mm_geo g;
    if (!mm_geometry(ctx, a, b, &g)) return ctx->err.code;
    if (fold_t_applies(a, b)) return mm_fold_t_backward(ctx, node, a, b, dout, din);
    int nb = g.nb, nd = nb + 2;
    /* dout as [bs..., M, N]: a 1-D operand's missing dim has size 1. */
    int64_t gshape[NN_MAX_DIMS + 2], gst[NN_MAX_DIMS + 2];
    int j = 0;
    for (int d = 0; d < nb; d++) gshape[d] = g.bs[d], gst[d] = dout->strides[j++];
    gshape[nb] = g.M, gst[nb] = a->ndim >= 2 ? dout->strides[j++] : 0;
    gshape[nb + 1] = g.N, gst[nb + 1] = b->ndim >= 2 ? dout->strides[j++] : 0;
    nn_tensor *vg = view(ctx, dout, nd, gshape, gst);
    if (!vg) return ctx->err.code;
    bool fold = !matmul_is_bmm(a, b); /* as the forward */
    nn_status st = NN_OK;
    bool vec_done = false;
    if (node->in[0].needs_grad && a->ndim == 1 && b->ndim >= 3)
        vec_done = vec_grad_mv(ctx, b, true, dout, a->shape, &din[0], &st);
    if (!st && !vec_done && node->in[0].needs_grad) {
        /* dA = dout @ B^T, summed over A's broadcast batch dims. */
        int64_t tsh[NN_MAX_DIMS + 2], tst[NN_MAX_DIMS + 2];
        memcpy(tsh, g.bshape, sizeof(int64_t) * (size_t)nd);
        memcpy(tst, g.bstr, sizeof(int64_t) * (size_t)nd);
        tsh[nb] = g.bshape[nb + 1], tsh[nb + 1] = g.bshape[nb];
        tst[nb] = g.bstr[nb + 1], tst[nb + 1] = g.bstr[nb];
        nn_tensor *r = nn_tensor_empty(ctx, dout->dtype, a->ndim, a->shape);
        nn_tensor *vbt = r ? view(ctx, b, nd, tsh, tst) : NULL;
        nn_tensor *vr = vbt ? view_contig(ctx, r, nd, g.ashape) : NULL;
        st = vr ? bmm(ctx, vg, vbt, vr, fold) : ctx->err.code;
        nn_tensor_release(vbt);
        nn_tensor_release(vr);
        if (st)
            nn_tensor_release(r);
        else
            din[0] = r;
    }
    vec_done = false;
    if (!st && node->in[1].needs_grad && a->ndim >= 2 && b->ndim == 1)
        /* d vec = A^T mv dout: PyTorch's mv backward is a gemv too */
        vec_done = vec_grad_mv(ctx, a, false, dout, b->shape, &din[1], &st);
    if (!st && !vec_done && node->in[1].needs_grad) {
        /* dB = A^T @ dout, summed over B's broadcast batch dims. */
        int64_t tsh[NN_MAX_DIMS + 2], tst[NN_MAX_DIMS + 2];
        memcpy(tsh, g.ashape, sizeof(int64_t) * (size_t)nd);
        memcpy(tst, g.astr, sizeof(int64_t) * (size_t)nd);
        tsh[nb] = g.ashape[nb + 1], tsh[nb + 1] = g.ashape[nb];
        tst[nb] = g.astr[nb + 1], tst[nb + 1] = g.astr[nb];
        nn_tensor *r = nn_tensor_empty(ctx, dout->dtype, b->ndim, b->shape);
        nn_tensor *vat = r ? view(ctx, a, nd, tsh, tst) : NULL;
        nn_tensor *vr = vat ? view_contig(ctx, r, nd, g.bshape) : NULL;
        st = vr ? bmm(ctx, vat, vg, vr, fold) : ctx->err.code;
        nn_tensor_release(vat);
        nn_tensor_release(vr);
        if (st)
            nn_tensor_release(r);
        else
            din[1] = r;
    }
    nn_tensor_release(vg);
    return st;
}

/* ---- linear: x [..., in], W [out, in], optional b [out] ---- */

/* [t] ([..., n]) as a matrix [rows, n]: the leading dims must step as one. */
static bool as_rows(const nn_tensor *t, mat *m) {
    int dl[NN_MAX_DIMS];
    int nl = t->ndim - 1;
    for (int d = 0; d < nl; d++) dl[d] = d;
    int64_t rows, rs;
    if (!merge_dims(t, dl, nl, &rows, &rs)) return false;
    m->p = nn_tensor_data(t);
    m->rows = rows, m->cols = t->shape[nl];
    m->rs = rows > 1 ? rs : m->cols, m->cs = t->strides[nl];
    blas_arg b;
    return blas_layout(m, &b) && rows <= INT_MAX;
}

/* [t] as rows, copying it when its layout does not allow. *held gets the
 * reference that keeps the data alive. */
static bool rows_of(nn_ctx *ctx, nn_tensor *t, mat *m, nn_tensor **held) {
    if (as_rows(t, m)) {
        *held = nn_tensor_retain(t);
        return true;
    }
    *held = nn_tensor_contiguous_raw(ctx, t);
    if (!*held) return false;
    if (as_rows(*held, m)) return true;
    char s[128];
    nn_error_set(&ctx->err, NN_ERR_VALUE, "linear: %s has more rows than BLAS takes (%d)",
                 nn_tensor_shape_str(t, s, sizeof s), INT_MAX);
    return false;
}

static nn_status linear_check(nn_ctx *ctx, nn_tensor *x, nn_tensor *w, nn_tensor *bias) {
    char sx[128], sw[128];
    /* PyTorch's linear is addmm(bias, x, w.T) with a bias (which checks
     * self against mat2, then mat1 against mat2) and matmul without */
    if (bias && bias->dtype != w->dtype)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "self and mat2 must have the same dtype");
    if (bias && x->dtype != w->dtype)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "mat1 and mat2 must have the same dtype");
    if (same_dtype(ctx, "linear", x, w, false)) return ctx->err.code;
    if (w->ndim == 2 && x->ndim >= 1 && x->shape[x->ndim - 1] != w->shape[1]) {
        /* PyTorch's message: the input flattened to rows, times weight.T */
        int64_t rows = 1;
        for (int d = 0; d + 1 < x->ndim; d++) rows *= x->shape[d];
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)",
                            (long long)rows, (long long)x->shape[x->ndim - 1],
                            (long long)w->shape[1], (long long)w->shape[0]);
    }
    if (w->ndim != 2 || x->ndim < 1)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "linear: input %s and weight %s do not fit: the weight must be "
                            "[out_features, in_features] with in_features = the input's last dim",
                            nn_tensor_shape_str(x, sx, sizeof sx),
                            nn_tensor_shape_str(w, sw, sizeof sw));
    if (bias) {
        if (same_dtype(ctx, "linear (bias)", x, bias, false)) return ctx->err.code;
        if (bias->ndim != 1 || bias->shape[0] != w->shape[0])
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "linear: bias %s does not fit weight %s: it must be [%lld]",
                                nn_tensor_shape_str(bias, sx, sizeof sx),
                                nn_tensor_shape_str(w, sw, sizeof sw), (long long)w->shape[0]);
    }
    return NN_OK;
}

/* Rows [1, rows) of a linear's output start as a copy of row 0 (the bias). */
typedef struct bias_rows_job {
    char *row0;
    int64_t rows;
    size_t bytes; /* of a row */
} bias_rows_job;

static void bias_rows_task(void *arg, int task, int n_tasks) {
    const bias_rows_job *j = arg;
    int64_t begin, end;
    nn_parallel_range(j->rows - 1, task, n_tasks, 1, &begin, &end);
    if (end <= begin) return;
    char *first = j->row0 + (size_t)(begin + 1) * j->bytes;
    memcpy(first, j->row0, j->bytes);
    for (int64_t done = 1, n = end - begin; done < n;) {
        int64_t k = done < n - done ? done : n - done;
        memcpy(first + (size_t)done * j->bytes, first, (size_t)k * j->bytes);
        done += k;
    }
}

nn_tensor *op_linear_forward(nn_ctx *ctx, nn_node *node) {
    if (nn_blas_require(ctx)) return NULL;
    nn_tensor *x = node->in[0].t, *w = node->in[1].t;
    nn_tensor *bias = node->n_in > 2 ? node->in[2].t : NULL;
    if (linear_check(ctx, x, w, bias)) return NULL;
    nn_dtype dt = x->dtype;
    int64_t nout = w->shape[0], nin = w->shape[1];
    int64_t oshape[NN_MAX_DIMS];
    for (int d = 0; d < x->ndim - 1; d++) oshape[d] = x->shape[d];
    oshape[x->ndim - 1] = nout;
    if (!dims_fit_blas(1, nout, nin)) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "linear: a dim above %d is more than BLAS takes",
                     INT_MAX);
        return NULL;
    }
    mat X;
    nn_tensor *xh = NULL, *wh = NULL;
    nn_tensor *out = NULL;
    if (!rows_of(ctx, x, &X, &xh)) goto done;
    /* W^T [in, out] as BLAS reads it: a contiguous W is its own transpose. */
    mat WT = {nn_tensor_data(w), nin, nout, w->strides[1], w->strides[0]};
    blas_arg t;
    if (!blas_layout(&WT, &t)) {
        if (!(wh = nn_tensor_contiguous_raw(ctx, w))) goto done;
        WT = (mat){nn_tensor_data(wh), nin, nout, 1, nin};
    }
    out = nn_tensor_empty(ctx, dt, x->ndim, oshape);
    if (!out) goto done;
    mat Y = {nn_tensor_data(out), X.rows, nout, nout, 1};
    size_t es = nn_dtype_size(dt);
    if (bias && X.rows > 0) {
        /* Start every row at the bias; the gemm adds x W^T to it (beta 1). */
        char *row0 = Y.p;
        const char *pb = nn_tensor_data(bias);
        if (bias->strides[0] == 1 || nout <= 1) {
            memcpy(row0, pb, (size_t)nout * es);
        } else if (dt == NN_FLOAT32) {
            for (int64_t j = 0; j < nout; j++)
                ((float *)row0)[j] = ((const float *)pb)[j * bias->strides[0]];
        } else {
            for (int64_t j = 0; j < nout; j++)
                ((double *)row0)[j] = ((const double *)pb)[j * bias->strides[0]];
        }
        /* The other rows: a memory-bound copy, split by rows across the
         * engine's threads at the plain elementwise threshold (B1 T128's
         * [128, 3072] rows were 1.2% of the 124M forward, on one thread
         * while the other waited); each task doubles what it has copied
         * (log2(rows) copies; one memcpy per row was half of a 64-row
         * small layer's forward). */
        bias_rows_job job = {row0, X.rows, (size_t)nout * es};
        int tasks = nn_parallel_tasks(X.rows * nout, NN_PAR_MIN_ELEMWISE);
        if (tasks > 1)
            nn_parallel_run(tasks, bias_rows_task, &job);
        else
            bias_rows_task(&job, 0, 1);
    }
    gemm(dt, &X, &WT, &Y, bias ? 1.0 : 0.0);
    /* Keep a copied input for the backward rather than copying it again. */
    if (node->recorded && xh != x) node->saved[0] = nn_tensor_retain(xh);
done:
    nn_tensor_release(xh);
    nn_tensor_release(wh);
    return out;
}

/* The backward of linear; with [wgrad] (the weight's accumulated gradient)
 * the weight's gradient is added into it by the gemm (beta = 1) and din[1]
 * stays NULL. */
static nn_status linear_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                                 nn_tensor *wgrad) {
    if (nn_blas_require(ctx)) return ctx->err.code;
    nn_tensor *x = node->in[0].t, *w = node->in[1].t;
    nn_dtype dt = dout->dtype;
    int64_t nout = w->shape[0], nin = w->shape[1];
    mat G, X;
    nn_tensor *gh = NULL, *xh = NULL;
    nn_status st = NN_OK;
    if (!rows_of(ctx, dout, &G, &gh)) goto fail;
    if (node->in[0].needs_grad) {
        /* dX [M, in] = dout [M, out] @ W [out, in] */
        mat W = {nn_tensor_data(w), nout, nin, w->strides[0], w->strides[1]};
        nn_tensor *wc = NULL;
        blas_arg t;
        if (!blas_layout(&W, &t)) {
            if (!(wc = nn_tensor_contiguous_raw(ctx, w))) goto fail;
            W = (mat){nn_tensor_data(wc), nout, nin, nin, 1};
        }
        nn_tensor *r = nn_tensor_empty(ctx, dt, x->ndim, x->shape);
        if (r) {
            mat R = {nn_tensor_data(r), G.rows, nin, nin, 1};
            gemm(dt, &G, &W, &R, 0);
        }
        nn_tensor_release(wc);
        if (!(din[0] = r)) goto fail;
    }
    if (node->in[1].needs_grad) {
        /* dW [out, in] = dout^T [out, M] @ X [M, in]: one gemm over all rows. */
        nn_tensor *xs = node->saved[0] ? node->saved[0] : x;
        if (!rows_of(ctx, xs, &X, &xh)) goto fail;
        mat GT = transposed(G);
        nn_tensor *r = wgrad ? NULL : nn_tensor_empty(ctx, dt, 2, w->shape);
        if (!wgrad && !r) goto fail;
        mat R = {nn_tensor_data(wgrad ? wgrad : r), nout, nin, nin, 1};
        gemm(dt, &GT, &X, &R, wgrad ? 1.0 : 0.0);
        din[1] = r;
    }
    if (node->n_in > 2 && node->in[2].needs_grad) {
        /* The bias's gradient is the output gradient summed over every dim
         * but the last, in PyTorch's order (addmm's backward sums the rows
         * of the [M, out] gradient with its float sum): same bits as
         * torch.nn.Linear's bias.grad. dt is float32 or float64 here (the
         * gemm above takes no other), which that sum always takes. */
        bool rows_mask[NN_MAX_DIMS] = {false};
        for (int i = 0; i + 1 < dout->ndim; i++) rows_mask[i] = true;
        nn_tensor *r = nn_tensor_empty(ctx, dt, 1, &nout);
        if (!r) goto fail;
        bool summed = nn_sum_pytorch_order(dout, rows_mask, r);
        NN_ASSERT(summed);
        din[2] = r;
    }
    goto done;
fail:
    st = ctx->err.code ? ctx->err.code : NN_ERR_RUNTIME;
done:
    nn_tensor_release(gh);
    nn_tensor_release(xh);
    return st;
}

nn_status op_linear_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    return linear_backward(ctx, node, dout, din, NULL);
}

bool nn_linear_grad_into_ok(const nn_node *node, const nn_tensor *dout) {
    /* Over at most 256 rows the gemm does not split its inner dim, so
     * C += dW rounds once per element, as dW then C + dW would. */
    int64_t rows = dout->ndim ? nn_tensor_numel(dout) / dout->shape[dout->ndim - 1] : 1;
    return node->op == NN_OP_LINEAR && nn_dtype_is_float(dout->dtype) &&
           !nn_dtype_is_narrow(dout->dtype) && rows > 0 && rows <= 256;
}

nn_status nn_linear_grad_into(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din,
                              nn_tensor *wgrad) {
    return linear_backward(ctx, node, dout, din, wgrad);
}

/* ---- public API ---- */

nn_tensor *nn_matmul(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    nn_tensor *in[2] = {a, b};
    return nn_exec(ctx, NN_OP_MATMUL, in, 2, NULL);
}

nn_tensor *nn_linear(nn_ctx *ctx, nn_tensor *x, nn_tensor *weight, nn_tensor *bias) {
    nn_tensor *in[3] = {x, weight, bias};
    return nn_exec(ctx, NN_OP_LINEAR, in, bias ? 3 : 2, NULL);
}

/* ---- costs ----
 * matmul: 2 K FLOPs per output element, K the contracted size (a's last
 * dim). linear: the same with K = in_features, plus one addition per output
 * element for the bias. Backward: one product of the same size per input
 * that needs a gradient (dA = dC B^T, dB = A^T dC), and for linear's bias
 * one addition per output element (the sum over rows). */
bool nn_cost_matmul(const nn_node *n, const nn_tensor *out, bool backward, nn_op_cost *c) {
    if (n->op != NN_OP_MATMUL && n->op != NN_OP_LINEAR) return false;
    const nn_tensor *a = n->in[0].t;
    double k = (double)a->shape[a->ndim - 1], m = nn_cost_numel(out);
    double gemm = 2 * m * k;
    bool bias = n->op == NN_OP_LINEAR && n->n_in > 2 && n->in[2].t;
    if (!backward) {
        c->flops = gemm + (bias ? m : 0);
        return true;
    }
    memset(c, 0, sizeof *c);
    c->bytes_read = nn_cost_bytes(out);
    for (int i = 0; i < n->n_in; i++) {
        if (!n->in[i].needs_grad) continue;
        c->flops += i == 2 ? m : gemm;
        /* dA reads B, dB reads A; the bias gradient reads only dC. */
        if (i < 2) c->bytes_read += nn_cost_bytes(n->in[1 - i].t);
        c->bytes_written += nn_cost_bytes(n->in[i].t);
    }
    return true;
}
