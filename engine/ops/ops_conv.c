/* Convolutions, unfold/fold and pooling in 1, 2 and 3 spatial dims.
 *
 * Convolution is im2col + GEMM (CBLAS). The two sides of a convolution are
 * named by their geometry, not by their role, so one set of primitives
 * serves the convolution and its transpose:
 *   the image side  [N, Ci, *isz]  (the convolution's input, the transpose's output)
 *   the column side [N, Cc, *csz]  (the convolution's output, the transpose's input)
 * and the weight of group g is one [Cc/G, Ci/G * K] matrix in both cases
 * (PyTorch's [Cout, Cin/G, k...] for convolution, [Cin, Cout/G, k...] for
 * the transpose), so
 *   cols_from_image:  C = W  @ im2col(I)   convolution forward, transpose's dinput
 *   image_from_cols:  I = col2im(W^T @ C)  transpose forward, convolution's dinput
 *   weight_grad:     dW += C @ im2col(I)^T both weight gradients
 * im2col rows are (channel, kd, kh, kw) in the weight's order and columns
 * are output positions, so no weight is ever repacked. Several samples
 * share one GEMM (their columns side by side) while the column buffer stays
 * under COL_BUDGET elements; a 1x1 convolution with stride 1 and no padding
 * skips im2col. The input gradient of a stride-1 convolution is computed as
 * a convolution with the flipped weight (flip_job: one deep GEMM, no
 * col2im). A float32 3x3 stride-1 convolution with 32 channels or more on
 * each side goes by Winograd F(2x2, 3x3) instead, all three passes (see
 * "Winograd"). Buffers come from the engine's pool, so a training loop stops
 * allocating after its first step. With more than one thread the batch is
 * shared out between the engine's workers, each with single-threaded BLAS
 * (see "threads").
 *
 * Pooling runs plane by plane (one (n, c) at a time) over a window per
 * output position: regular windows (kernel, stride, padding, dilation,
 * ceil_mode) or adaptive ones (start floor(o*I/O), end ceil((o+1)*I/O)).
 * Max pooling saves the flat index of each maximum within its plane (what
 * return_indices gives, as PyTorch), and its backward scatters through it.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "nn_blas.h"
#include "nn_graph.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"
#include "ops_conv_direct.h"

#undef I /* <complex.h>, through cblas.h: this file names image sides I */

#define COL_BUDGET          (1 << 21) /* elements of one im2col buffer when batching samples */
#define BATCH_MIN_POSITIONS 512       /* samples with as many output positions ... */
#define BATCH_MIN_WEIGHT    4096      /* ... and a group weight this large run one GEMM each */

static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static nn_tensor *fail(nn_ctx *ctx, nn_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    nn_error_setv(&ctx->err, code, fmt, ap);
    va_end(ap);
    return NULL;
}

/* Three small non-negative values in one int64 (21 bits each). */
static int64_t pack3(const int64_t *v) {
    return (v[0] & 0x1fffff) | ((v[1] & 0x1fffff) << 21) | ((v[2] & 0x1fffff) << 42);
}
static void unpack3(int64_t x, int64_t *v) {
    v[0] = x & 0x1fffff;
    v[1] = (x >> 21) & 0x1fffff;
    v[2] = (x >> 42) & 0x1fffff;
}

/* ---- geometry ---- */

typedef struct geom {
    int64_t isz[3], csz[3], k[3], s[3], p[3], d[3];
    int64_t K, Li, Lc;
    bool identity; /* im2col is the identity: 1x1 kernel, stride 1, no padding */
} geom;

/* Fill [g] from [nsp] spatial values, right-aligned into three dims. */
static void geom_set(geom *g, int nsp, const int64_t *isz, const int64_t *csz, const int64_t *k,
                     const int64_t *s, const int64_t *p, const int64_t *d) {
    for (int i = 0; i < 3; i++) {
        int j = i - (3 - nsp);
        g->isz[i] = j >= 0 ? isz[j] : 1;
        g->csz[i] = j >= 0 ? csz[j] : 1;
        g->k[i] = j >= 0 ? k[j] : 1;
        g->s[i] = j >= 0 ? s[j] : 1;
        g->p[i] = j >= 0 ? p[j] : 0;
        g->d[i] = j >= 0 ? d[j] : 1;
    }
    g->K = g->k[0] * g->k[1] * g->k[2];
    g->Li = g->isz[0] * g->isz[1] * g->isz[2];
    g->Lc = g->csz[0] * g->csz[1] * g->csz[2];
    g->identity = g->K == 1 && g->Li == g->Lc;
    for (int i = 0; i < 3; i++)
        if (g->s[i] != 1 || g->p[i] != 0) g->identity = false;
}

/* im2col: col[(c, kd, kh, kw), l] = img[c, pos(l, k)] or 0 in the padding,
 * for [C] channels of one sample; col rows are [ldc] apart. col2im adds the
 * columns back into the image (the adjoint). */
#define DEF_IM2COL(T, SUF)                                                                         \
    /* One im2col row when the stride is 1 along rows and columns and the                          \
     * image rows are as wide as the output's: the row is then the image                           \
     * shifted by one offset, so a single copy per depth slice does it, and                        \
     * the columns that fall in the padding (or wrap to the next row) are                          \
     * zeroed after (32 short copies per 32x32 plane were most of its time). */                    \
    static void im2col_block_##SUF(const T *src, const geom *g, int64_t kd, int64_t kh,            \
                                   int64_t off, int64_t lo, int64_t hi, T *dst) {                  \
        const int64_t I1 = g->isz[1], W = g->csz[2], O1 = g->csz[1], P = O1 * W;                   \
        int64_t r0 = g->p[1] - kh * g->d[1], r1 = I1 + g->p[1] - kh * g->d[1]; /* valid rows */    \
        if (r0 < 0) r0 = 0;                                                                        \
        if (r1 > O1) r1 = O1;                                                                      \
        if (r1 < r0) r1 = r0;                                                                      \
        for (int64_t od = 0; od < g->csz[0]; od++, dst += P) {                                     \
            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                                    \
            if (id < 0 || id >= g->isz[0] || r0 == r1) {                                           \
                memset(dst, 0, sizeof(T) * (size_t)P);                                             \
                continue;                                                                          \
            }                                                                                      \
            const T *plane = src + id * I1 * W;                                                    \
            int64_t base = (kh * g->d[1] - g->p[1]) * W + off; /* dst[x] = plane[x + base] */      \
            int64_t x0 = r0 * W, x1 = r1 * W;                                                      \
            if (x0 < -base) x0 = -base;                                                            \
            if (x1 > I1 * W - base) x1 = I1 * W - base;                                            \
            memset(dst, 0, sizeof(T) * (size_t)(r0 * W));                                          \
            if (x1 > x0) memcpy(dst + x0, plane + x0 + base, sizeof(T) * (size_t)(x1 - x0));       \
            memset(dst + r1 * W, 0, sizeof(T) * (size_t)((O1 - r1) * W));                          \
            for (int64_t r = r0; r < r1; r++) {                                                    \
                T *drow = dst + r * W;                                                             \
                for (int64_t ow = 0; ow < lo; ow++) drow[ow] = 0;                                  \
                for (int64_t ow = hi; ow < W; ow++) drow[ow] = 0;                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    static void im2col_##SUF(const T *img, int64_t C, const geom *g, T *col, int64_t ldc) {        \
        const int64_t I1 = g->isz[1], I2 = g->isz[2], O1 = g->csz[1], O2 = g->csz[2];              \
        const bool block = g->s[1] == 1 && g->s[2] == 1 && I2 == O2;                               \
        int64_t row = 0;                                                                           \
        for (int64_t c = 0; c < C; c++) {                                                          \
            const T *src = img + c * g->Li;                                                        \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++, row++) {                              \
                        T *dst = col + row * ldc;                                                  \
                        int64_t off = kw * g->d[2] - g->p[2];                                      \
                        int64_t lo = 0, hi = O2;                                                   \
                        if (g->s[2] == 1) {                                                        \
                            lo = off < 0 ? -off : 0;                                               \
                            hi = I2 - off < O2 ? I2 - off : O2;                                    \
                            if (lo > O2) lo = O2;                                                  \
                            if (hi < lo) hi = lo;                                                  \
                        }                                                                          \
                        if (block) {                                                               \
                            im2col_block_##SUF(src, g, kd, kh, off, lo, hi, dst);                  \
                            continue;                                                              \
                        }                                                                          \
                        for (int64_t od = 0; od < g->csz[0]; od++) {                               \
                            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                    \
                            for (int64_t oh = 0; oh < O1; oh++) {                                  \
                                int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];                \
                                T *drow = dst + (od * O1 + oh) * O2;                               \
                                if (id < 0 || id >= g->isz[0] || ih < 0 || ih >= I1) {             \
                                    memset(drow, 0, sizeof(T) * (size_t)O2);                       \
                                    continue;                                                      \
                                }                                                                  \
                                const T *srow = src + (id * I1 + ih) * I2;                         \
                                if (g->s[2] == 1) {                                                \
                                    for (int64_t ow = 0; ow < lo; ow++) drow[ow] = 0;              \
                                    if (hi > lo)                                                   \
                                        memcpy(drow + lo, srow + lo + off,                         \
                                               sizeof(T) * (size_t)(hi - lo));                     \
                                    for (int64_t ow = hi; ow < O2; ow++) drow[ow] = 0;             \
                                } else {                                                           \
                                    for (int64_t ow = 0; ow < O2; ow++) {                          \
                                        int64_t iw = ow * g->s[2] + off;                           \
                                        drow[ow] = iw >= 0 && iw < I2 ? srow[iw] : (T)0;           \
                                    }                                                              \
                                }                                                                  \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
        }                                                                                          \
    }                                                                                              \
    static void col2im_##SUF(const T *col, int64_t ldc, int64_t C, const geom *g, T *img) {        \
        const int64_t I1 = g->isz[1], I2 = g->isz[2], O1 = g->csz[1], O2 = g->csz[2];              \
        int64_t row = 0;                                                                           \
        for (int64_t c = 0; c < C; c++) {                                                          \
            T *dstc = img + c * g->Li;                                                             \
            for (int64_t kd = 0; kd < g->k[0]; kd++)                                               \
                for (int64_t kh = 0; kh < g->k[1]; kh++)                                           \
                    for (int64_t kw = 0; kw < g->k[2]; kw++, row++) {                              \
                        const T *src = col + row * ldc;                                            \
                        int64_t off = kw * g->d[2] - g->p[2];                                      \
                        int64_t lo = 0, hi = O2;                                                   \
                        if (g->s[2] == 1) {                                                        \
                            lo = off < 0 ? -off : 0;                                               \
                            hi = I2 - off < O2 ? I2 - off : O2;                                    \
                            if (lo > O2) lo = O2;                                                  \
                            if (hi < lo) hi = lo;                                                  \
                        }                                                                          \
                        for (int64_t od = 0; od < g->csz[0]; od++) {                               \
                            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                    \
                            if (id < 0 || id >= g->isz[0]) continue;                               \
                            for (int64_t oh = 0; oh < O1; oh++) {                                  \
                                int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];                \
                                if (ih < 0 || ih >= I1) continue;                                  \
                                const T *srow = src + (od * O1 + oh) * O2;                         \
                                T *drow = dstc + (id * I1 + ih) * I2;                              \
                                if (g->s[2] == 1) {                                                \
                                    T *dd = drow + off;                                            \
                                    for (int64_t ow = lo; ow < hi; ow++) dd[ow] += srow[ow];       \
                                } else {                                                           \
                                    for (int64_t ow = 0; ow < O2; ow++) {                          \
                                        int64_t iw = ow * g->s[2] + off;                           \
                                        if (iw >= 0 && iw < I2) drow[iw] += srow[ow];              \
                                    }                                                              \
                                }                                                                  \
                            }                                                                      \
                        }                                                                          \
                    }                                                                              \
        }                                                                                          \
    }

DEF_IM2COL(float, f32)
DEF_IM2COL(double, f64)

static void im2col(bool f64, const void *img, int64_t C, const geom *g, void *col, int64_t ldc) {
    if (f64)
        im2col_f64(img, C, g, col, ldc);
    else
        im2col_f32(img, C, g, col, ldc);
}
static void col2im(bool f64, const void *col, int64_t ldc, int64_t C, const geom *g, void *img) {
    if (f64)
        col2im_f64(col, ldc, C, g, img);
    else
        col2im_f32(col, ldc, C, g, img);
}

/* Row-major GEMM on either float type: C = alpha op(A) op(B) + beta C. */
static void gemm(bool f64, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const void *a,
                 int64_t lda, const void *b, int64_t ldb, double beta, void *c, int64_t ldc) {
    enum CBLAS_TRANSPOSE TA = ta ? CblasTrans : CblasNoTrans, TB = tb ? CblasTrans : CblasNoTrans;
    if (m == 0 || n == 0) return;
    if (f64)
        nn_blas_dgemm(CblasRowMajor, TA, TB, (int)m, (int)n, (int)k, 1.0, a, (int)lda, b, (int)ldb,
                      beta, c, (int)ldc);
    else
        nn_blas_sgemm(CblasRowMajor, TA, TB, (int)m, (int)n, (int)k, 1.0f, a, (int)lda, b, (int)ldb,
                      (float)beta, c, (int)ldc);
}

/* The work of one convolution: both sides, the weight, the group count. */
typedef struct conv_job {
    geom g;
    int64_t N, Ci, Cc, G;
    bool f64;
    size_t es; /* element size */
} conv_job;

static bool wino_applies(const conv_job *j);

static int64_t chunk_samples(const conv_job *j) {
    /* A sample with this many positions and a weight this large already
     * makes a GEMM BLAS runs at full speed (a 32x32 ResNet layer); batching
     * it would only add the copies in and out. LeNet's 6 x 25 first layer
     * still batches. */
    int64_t wsize = (j->Cc / j->G) * (j->Ci / j->G) * j->g.K;
    if (j->g.identity || (j->g.Lc >= BATCH_MIN_POSITIONS && wsize >= BATCH_MIN_WEIGHT)) return 1;
    if (wino_applies(j)) return 1; /* Winograd goes sample by sample */
    int64_t per = (j->Ci / j->G) * j->g.K * j->g.Lc;
    int64_t nb = per > 0 ? COL_BUDGET / per : j->N;
    if (nb < 1) nb = 1;
    if (nb > j->N) nb = j->N;
    return nb;
}

static char *at(void *base, int64_t elems, size_t es) {
    return (char *)base + (size_t)elems * es;
}

/* Scratch tensor of [n] elements (NULL with ctx->err on failure). */
static nn_tensor *scratch(nn_ctx *ctx, bool f64, int64_t n) {
    int64_t shape[1] = {n > 0 ? n : 1};
    return nn_tensor_empty(ctx, f64 ? NN_FLOAT64 : NN_FLOAT32, 1, shape);
}

/* ---- one image channel per group (depthwise) ----
 * With Ci/G == 1 each GEMM would be a [m, K] x [K, L] product with K the
 * kernel size (9 for 3x3): BLAS is slow at that shape, so these walk the
 * kernel taps directly, one output row at a time (a unit-stride axpy or dot
 * when the stride is 1). [mode]: DW_FWD col += w * img, DW_BWD img += w *
 * col, DW_DOT returns sum col * img (the weight's gradient). */

enum { DW_FWD, DW_BWD, DW_DOT };

#define DEF_DW(T, SUF)                                                                             \
    NN_KERNEL_CLONES static double dw_tap_##SUF(int mode, const geom *g, int64_t kd, int64_t kh,   \
                                                int64_t kw, T w, T *img, T *col) {                 \
        const int64_t I1 = g->isz[1], I2 = g->isz[2], O1 = g->csz[1], O2 = g->csz[2];              \
        const int64_t off = kw * g->d[2] - g->p[2], s2 = g->s[2];                                  \
        int64_t lo = off < 0 ? (-off + s2 - 1) / s2 : 0;                                           \
        int64_t hi = I2 - off > 0 ? (I2 - off + s2 - 1) / s2 : 0;                                  \
        if (hi > O2) hi = O2;                                                                      \
        double acc = 0;                                                                            \
        for (int64_t od = 0; od < g->csz[0]; od++) {                                               \
            int64_t id = od * g->s[0] - g->p[0] + kd * g->d[0];                                    \
            if (id < 0 || id >= g->isz[0]) continue;                                               \
            for (int64_t oh = 0; oh < O1; oh++) {                                                  \
                int64_t ih = oh * g->s[1] - g->p[1] + kh * g->d[1];                                \
                if (ih < 0 || ih >= I1) continue;                                                  \
                T *irow = img + (id * I1 + ih) * I2 + off;                                         \
                T *crow = col + (od * O1 + oh) * O2;                                               \
                if (mode == DW_FWD) {                                                              \
                    if (s2 == 1)                                                                   \
                        for (int64_t o = lo; o < hi; o++) crow[o] += w * irow[o];                  \
                    else                                                                           \
                        for (int64_t o = lo; o < hi; o++) crow[o] += w * irow[o * s2];             \
                } else if (mode == DW_BWD) {                                                       \
                    if (s2 == 1)                                                                   \
                        for (int64_t o = lo; o < hi; o++) irow[o] += w * crow[o];                  \
                    else                                                                           \
                        for (int64_t o = lo; o < hi; o++) irow[o * s2] += w * crow[o];             \
                } else {                                                                           \
                    T a = 0;                                                                       \
                    if (s2 == 1)                                                                   \
                        for (int64_t o = lo; o < hi; o++) a += crow[o] * irow[o];                  \
                    else                                                                           \
                        for (int64_t o = lo; o < hi; o++) a += crow[o] * irow[o * s2];             \
                    acc += a;                                                                      \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        return acc;                                                                                \
    }                                                                                              \
    /* Every sample, groups [g0, g1): [mode] over all taps; W is [Cc, K]. */                       \
    static void dw_run_##SUF(int mode, const conv_job *j, T *I, T *W, T *C, int64_t g0,            \
                             int64_t g1) {                                                         \
        const int64_t m = j->Cc / j->G, K = j->g.K, Li = j->g.Li, Lc = j->g.Lc;                    \
        const geom *g = &j->g;                                                                     \
        if (mode == DW_DOT) memset(W + g0 * m * K, 0, sizeof(T) * (size_t)((g1 - g0) * m * K));    \
        if (mode == DW_FWD)                                                                        \
            for (int64_t n = 0; n < j->N; n++)                                                     \
                memset(C + (n * j->Cc + g0 * m) * Lc, 0,                                           \
                       sizeof(T) * (size_t)((g1 - g0) * m * Lc));                                  \
        for (int64_t n = 0; n < j->N; n++)                                                         \
            for (int64_t gi = g0; gi < g1; gi++) {                                                 \
                T *img = I + (n * j->Ci + gi) * Li;                                                \
                for (int64_t r = 0; r < m; r++) {                                                  \
                    int64_t c = gi * m + r;                                                        \
                    T *col = C + (n * j->Cc + c) * Lc, *w = W + c * K;                             \
                    int64_t t = 0;                                                                 \
                    for (int64_t kd = 0; kd < g->k[0]; kd++)                                       \
                        for (int64_t kh = 0; kh < g->k[1]; kh++)                                   \
                            for (int64_t kw = 0; kw < g->k[2]; kw++, t++) {                        \
                                double a = dw_tap_##SUF(mode, g, kd, kh, kw, w[t], img, col);      \
                                if (mode == DW_DOT) w[t] += (T)a;                                  \
                            }                                                                      \
                }                                                                                  \
            }                                                                                      \
    }

DEF_DW(float, f32)
DEF_DW(double, f64)

/* ---- depthwise at stride 1, on padded planes ----
 * dw_tap above checks the bounds of every (tap, output row) pair: for a
 * 32x32 plane and a 3x3 kernel that is 9 x 32 short loops of 32 elements
 * with their bounds, per plane. At stride 1 the plane is copied once into
 * a zeroed buffer with the padding around it, and each output row is then
 * a sum over the taps of whole rows of that buffer shifted by the tap's
 * offset, no bounds left (one pass for a 3x3 kernel, its nine products
 * summed in registers). The input gradient is the same correlation of
 * the output gradient padded by d (k - 1) - p with the weight flipped;
 * the weight gradient is, per tap, a dot product of the output gradient
 * with the shifted padded image, summed in vector lanes per plane and in
 * double over the planes. Every plane's result comes from the same calls
 * whichever task runs it, so the bits do not depend on the thread count. */

#define DWP_MAX_K   512  /* taps */
#define DWP_MAX_ACC 4096 /* channel multiplier x taps: the weight gradient's sums */
#define DWP_LANES   8

typedef struct dwp {
    int64_t S[3], pad[3], P[3], O[3]; /* source plane, its padding, padded plane, result */
    int64_t Pt, K;
    bool padded, k33;       /* any padding; a 2-D 3x3 kernel */
    int64_t off[DWP_MAX_K]; /* tap t's offset into the padded plane */
} dwp;

/* Whether the padded-plane kernels serve [mode] of [j]; fills [q]. */
static bool dwp_set(const conv_job *j, int mode, dwp *q) {
    const geom *g = &j->g;
    if (g->K > DWP_MAX_K || j->N <= 0 || g->Lc <= 0 || g->Li <= 0) return false;
    if (mode == DW_DOT && (j->Cc / j->G) * g->K > DWP_MAX_ACC) return false;
    q->padded = false;
    q->Pt = 1;
    for (int i = 0; i < 3; i++) {
        int64_t reach = g->d[i] * (g->k[i] - 1);
        if (g->s[i] != 1 || g->isz[i] + 2 * g->p[i] - reach != g->csz[i]) return false;
        if (mode == DW_BWD) {
            q->S[i] = g->csz[i];
            q->pad[i] = reach - g->p[i];
            q->O[i] = g->isz[i];
            if (q->pad[i] < 0) return false;
        } else {
            q->S[i] = g->isz[i];
            q->pad[i] = g->p[i];
            q->O[i] = g->csz[i];
        }
        q->P[i] = q->S[i] + 2 * q->pad[i];
        q->Pt *= q->P[i];
        if (q->pad[i]) q->padded = true;
    }
    q->K = g->K;
    int64_t t = 0;
    for (int64_t a = 0; a < g->k[0]; a++)
        for (int64_t b = 0; b < g->k[1]; b++)
            for (int64_t e = 0; e < g->k[2]; e++)
                q->off[t++] = (a * g->d[0] * q->P[1] + b * g->d[1]) * q->P[2] + e * g->d[2];
    q->k33 = g->k[0] == 1 && g->k[1] == 3 && g->k[2] == 3;
    return true;
}

#define DEF_DWP(T, SUF)                                                                            \
    /* [src] (a plane of q->S) with its padding, in [buf] (q->Pt elements);                        \
     * the plane itself where there is no padding. */                                              \
    static const T *dwp_pad_##SUF(const dwp *q, const T *src, T *buf) {                            \
        if (!q->padded) return src;                                                                \
        memset(buf, 0, sizeof(T) * (size_t)q->Pt);                                                 \
        for (int64_t a = 0; a < q->S[0]; a++)                                                      \
            for (int64_t b = 0; b < q->S[1]; b++)                                                  \
                memcpy(buf + ((a + q->pad[0]) * q->P[1] + b + q->pad[1]) * q->P[2] + q->pad[2],    \
                       src + (a * q->S[1] + b) * q->S[2], sizeof(T) * (size_t)q->S[2]);            \
        return buf;                                                                                \
    }                                                                                              \
    /* out = sum_t w[t] * P[row + off[t]], added to out when [add]. */                             \
    NN_KERNEL_CLONES static void dwp_corr_##SUF(const dwp *q, const T *P, const T *w, T *out,      \
                                                bool add) {                                        \
        const int64_t O2 = q->O[2];                                                                \
        for (int64_t a = 0; a < q->O[0]; a++)                                                      \
            for (int64_t b = 0; b < q->O[1]; b++) {                                                \
                T *o = out + (a * q->O[1] + b) * O2;                                               \
                const T *p = P + (a * q->P[1] + b) * q->P[2];                                      \
                if (q->k33) {                                                                      \
                    const T *r0 = p + q->off[0], *r1 = p + q->off[3], *r2 = p + q->off[6];         \
                    const int64_t e1 = q->off[1] - q->off[0], e2 = q->off[2] - q->off[0];          \
                    const T w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5],      \
                            w6 = w[6], w7 = w[7], w8 = w[8];                                       \
                    for (int64_t x = 0; x < O2; x++) {                                             \
                        T s = w0 * r0[x] + w1 * r0[x + e1] + w2 * r0[x + e2] + w3 * r1[x] +        \
                              w4 * r1[x + e1] + w5 * r1[x + e2] + w6 * r2[x] + w7 * r2[x + e1] +   \
                              w8 * r2[x + e2];                                                     \
                        o[x] = add ? o[x] + s : s;                                                 \
                    }                                                                              \
                    continue;                                                                      \
                }                                                                                  \
                int64_t t = 0;                                                                     \
                if (!add) {                                                                        \
                    const T *r = p + q->off[0], w0 = w[0];                                         \
                    for (int64_t x = 0; x < O2; x++) o[x] = w0 * r[x];                             \
                    t = 1;                                                                         \
                }                                                                                  \
                for (; t < q->K; t++) {                                                            \
                    const T *r = p + q->off[t], wt = w[t];                                         \
                    for (int64_t x = 0; x < O2; x++) o[x] += wt * r[x];                            \
                }                                                                                  \
            }                                                                                      \
    }                                                                                              \
    /* acc[t] += sum over the plane of dy * P[row + off[t]] */                                     \
    NN_KERNEL_CLONES static void dwp_dots_##SUF(const dwp *q, const T *P, const T *dy,             \
                                                double *acc) {                                     \
        const int64_t O2 = q->O[2];                                                                \
        for (int64_t t = 0; t < q->K; t++) {                                                       \
            T lane[DWP_LANES] = {0}, tail = 0;                                                     \
            for (int64_t a = 0; a < q->O[0]; a++)                                                  \
                for (int64_t b = 0; b < q->O[1]; b++) {                                            \
                    const T *u = dy + (a * q->O[1] + b) * O2;                                      \
                    const T *v = P + (a * q->P[1] + b) * q->P[2] + q->off[t];                      \
                    int64_t x = 0;                                                                 \
                    for (; x + DWP_LANES <= O2; x += DWP_LANES)                                    \
                        for (int l = 0; l < DWP_LANES; l++) lane[l] += u[x + l] * v[x + l];        \
                    for (; x < O2; x++) tail += u[x] * v[x];                                       \
                }                                                                                  \
            double s = tail;                                                                       \
            for (int l = 0; l < DWP_LANES; l++) s += lane[l];                                      \
            acc[t] += s;                                                                           \
        }                                                                                          \
    }                                                                                              \
    /* dw_run's work for groups [g0, g1) on padded planes ([buf]: q->Pt). */                       \
    static void dwp_run_##SUF(int mode, const conv_job *j, const dwp *q, T *I, T *W, T *C,         \
                              int64_t g0, int64_t g1, T *buf) {                                    \
        const int64_t m = j->Cc / j->G, K = q->K, Li = j->g.Li, Lc = j->g.Lc;                      \
        if (mode == DW_FWD) {                                                                      \
            for (int64_t n = 0; n < j->N; n++)                                                     \
                for (int64_t gi = g0; gi < g1; gi++) {                                             \
                    const T *P = dwp_pad_##SUF(q, I + (n * j->Ci + gi) * Li, buf);                 \
                    for (int64_t r = 0; r < m; r++) {                                              \
                        int64_t c = gi * m + r;                                                    \
                        dwp_corr_##SUF(q, P, W + c * K, C + (n * j->Cc + c) * Lc, false);          \
                    }                                                                              \
                }                                                                                  \
        } else if (mode == DW_BWD) {                                                               \
            T wf[DWP_MAX_K];                                                                       \
            for (int64_t n = 0; n < j->N; n++)                                                     \
                for (int64_t gi = g0; gi < g1; gi++)                                               \
                    for (int64_t r = 0; r < m; r++) {                                              \
                        int64_t c = gi * m + r;                                                    \
                        for (int64_t t = 0; t < K; t++) wf[t] = W[c * K + K - 1 - t];              \
                        const T *P = dwp_pad_##SUF(q, C + (n * j->Cc + c) * Lc, buf);              \
                        dwp_corr_##SUF(q, P, wf, I + (n * j->Ci + gi) * Li, r > 0);                \
                    }                                                                              \
        } else {                                                                                   \
            double acc[DWP_MAX_ACC];                                                               \
            for (int64_t gi = g0; gi < g1; gi++) {                                                 \
                memset(acc, 0, sizeof(double) * (size_t)(m * K));                                  \
                for (int64_t n = 0; n < j->N; n++) {                                               \
                    const T *P = dwp_pad_##SUF(q, I + (n * j->Ci + gi) * Li, buf);                 \
                    for (int64_t r = 0; r < m; r++)                                                \
                        dwp_dots_##SUF(q, P, C + (n * j->Cc + gi * m + r) * Lc, acc + r * K);      \
                }                                                                                  \
                for (int64_t i = 0; i < m * K; i++) W[gi * m * K + i] = (T)acc[i];                 \
            }                                                                                      \
        }                                                                                          \
    }

DEF_DWP(float, f32)
DEF_DWP(double, f64)

/* Whether the direct kernel serves [j]: one image channel per group, more
 * than one group (a single-channel ordinary convolution keeps BLAS). */
static bool dw_applies(const conv_job *j) {
    return j->Ci == j->G && j->G > 1;
}

static void dw_run(int mode, const conv_job *j, const dwp *q, void *buf, const void *I,
                   const void *W, const void *C, int64_t g0, int64_t g1) {
    if (q && j->f64)
        dwp_run_f64(mode, j, q, (double *)I, (double *)W, (double *)C, g0, g1, buf);
    else if (q)
        dwp_run_f32(mode, j, q, (float *)I, (float *)W, (float *)C, g0, g1, buf);
    else if (j->f64)
        dw_run_f64(mode, j, (double *)I, (double *)W, (double *)C, g0, g1);
    else
        dw_run_f32(mode, j, (float *)I, (float *)W, (float *)C, g0, g1);
}

/* ---- the GEMM path over a range of samples ----
 * Each takes its own column buffer [cp] (R * nb * Lc elements) and, when
 * chunk_samples batches, [tp] (Ccg * nb * Lc). */

/* A sample that runs alone (chunk_samples 1) goes through its im2col in
 * tiles of whole output rows, each at most TILE_BYTES, so the columns are
 * still in cache when the GEMM packs them (a 32x32 plane of 64 channels
 * makes 2.3 MB of columns; in 1 MB tiles the ResNet block's convolutions
 * took about 15% less time). A tile is the geometry of its rows alone:
 * fewer output rows, the padding moved up by the rows before it. Only
 * 1-D and 2-D convolutions are tiled. */
#define TILE_BYTES (1 << 20)

static int64_t tile_rows(const conv_job *j) {
    const int64_t O1 = j->g.csz[1], per = (j->Ci / j->G) * j->g.K * j->g.csz[2];
    if (j->g.csz[0] != 1 || per <= 0) return O1;
    int64_t rows = (int64_t)(TILE_BYTES / j->es) / per;
    if (rows < 1) rows = 1;
    if (rows >= O1) return O1;
    int64_t tiles = (O1 + rows - 1) / rows;
    return (O1 + tiles - 1) / tiles; /* even tiles */
}

static geom tile_geom(const geom *g, int64_t r0, int64_t rows) {
    geom t = *g;
    t.csz[1] = g->csz[1] - r0 < rows ? g->csz[1] - r0 : rows;
    t.p[1] = g->p[1] - r0 * g->s[1];
    t.Lc = t.csz[0] * t.csz[1] * t.csz[2];
    return t;
}

/* ---- Winograd F(2x2, 3x3) ----
 * A 3x3 convolution with stride 1 and no dilation between many channels
 * (the ResNet block's 64 -> 64) computes each 2x2 block of outputs from
 * the 4x4 block of input around it as Y = A^T [(G g G^T) . (B^T d B)] A
 * (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks"):
 * 16 element-wise products per channel pair where the direct sum has 36.
 * Over all channels the products are 16 GEMMs, one per position xi of the
 * 4x4 transformed block: M[xi] (Cc x T) = U[xi] (Cc x Ci) @ V[xi] (Ci x T)
 * for T tiles, 2.25x fewer multiply-adds than im2col + GEMM and no
 * column matrix 9x the image. The transforms only add, subtract and halve
 * (exact in binary), so results differ from the GEMM's by rounding alone:
 * a few ulp of the sums' magnitude, within PyTorch's tolerance for float32
 * convolutions (its own oneDNN kernels are not the GEMM's bits either).
 * float32 only; float64 keeps the GEMM. Tiles go in bands of rows of
 * about WINO_TILES tiles (V and M are 16 x channels x T each: 1 MB at 64
 * channels, past a 512 KB L2, but bands of 64 or 128 tiles made the GEMMs
 * small enough to be 5-10% slower on the ResNet block). Each sample's
 * result comes from the same calls whatever the thread count. */
#define WINO_TILES  256 /* tiles per band (one 32x32 plane: 16 x 16 tiles) */
#define WINO_MIN_CH 32  /* fewer channels: K = Ci of the GEMMs too short */

static bool wino_applies(const conv_job *j) {
    const geom *g = &j->g;
    if (j->f64 || j->G != 1 || j->Ci < WINO_MIN_CH || j->Cc < WINO_MIN_CH) return false;
    if (g->isz[0] != 1 || g->csz[0] != 1 || g->k[0] != 1 || g->k[1] != 3 || g->k[2] != 3)
        return false;
    for (int i = 1; i < 3; i++)
        if (g->s[i] != 1 || g->d[i] != 1 || g->p[i] < 0 || g->p[i] > 2 || g->csz[i] < 2)
            return false;
    return true;
}

static int64_t wino_band(const conv_job *j) {
    int64_t th = (j->g.csz[1] + 1) / 2, tw = (j->g.csz[2] + 1) / 2;
    int64_t rows = WINO_TILES / tw;
    if (rows < 1) rows = 1;
    if (rows >= th) return th;
    int64_t bands = (th + rows - 1) / rows;
    return (th + bands - 1) / bands;
}

/* Row pitch of the padded band in wino_in. */
static int64_t wino_pitch(const conv_job *j) {
    return 2 * ((j->g.csz[2] + 1) / 2) + 8;
}

/* Elements of one task's buffers: V, M (or Z), the padded band and dU. */
static int64_t wino_elems(const conv_job *j) {
    int64_t tw = (j->g.csz[2] + 1) / 2, T = wino_band(j) * tw;
    return 16 * (j->Ci + j->Cc) * T + (2 * wino_band(j) + 2) * wino_pitch(j) + 16 * j->Ci * j->Cc;
}

/* U[xi, co, ci] = (G g G^T)[xi] for the [Cc, Ci, 3, 3] weight W. */
static void wino_weight(const conv_job *j, const float *W, float *U) {
    const int64_t Ci = j->Ci, Cc = j->Cc;
    for (int64_t co = 0; co < Cc; co++)
        for (int64_t ci = 0; ci < Ci; ci++) {
            const float *g = W + (co * Ci + ci) * 9;
            float t[4][3], u[4][4];
            for (int c = 0; c < 3; c++) {
                t[0][c] = g[c];
                t[1][c] = (g[c] + g[3 + c] + g[6 + c]) * 0.5f;
                t[2][c] = (g[c] - g[3 + c] + g[6 + c]) * 0.5f;
                t[3][c] = g[6 + c];
            }
            for (int r = 0; r < 4; r++) {
                u[r][0] = t[r][0];
                u[r][1] = (t[r][0] + t[r][1] + t[r][2]) * 0.5f;
                u[r][2] = (t[r][0] - t[r][1] + t[r][2]) * 0.5f;
                u[r][3] = t[r][2];
            }
            for (int xi = 0; xi < 16; xi++) U[(xi * Cc + co) * Ci + ci] = u[xi / 4][xi % 4];
        }
}

typedef float wino_v8 __attribute__((vector_size(32)));
typedef int32_t wino_v8i __attribute__((vector_size(32)));

/* Vectors go through memory (no vector passed or returned by value, whose
 * ABI differs between the clones). */
#define WINO_ST(p, v)                                                                              \
    do {                                                                                           \
        wino_v8 st_ = (v);                                                                         \
        memcpy((p), &st_, sizeof st_);                                                             \
    } while (0)
/* [e], [o]: the even and the odd elements of p[0, 16). */
static inline __attribute__((always_inline)) void wino_eo(const float *p, wino_v8 *e, wino_v8 *o) {
    wino_v8 a, b;
    memcpy(&a, p, sizeof a);
    memcpy(&b, p + 8, sizeof b);
    *e = __builtin_shuffle(a, b, (wino_v8i){0, 2, 4, 6, 8, 10, 12, 14});
    *o = __builtin_shuffle(a, b, (wino_v8i){1, 3, 5, 7, 9, 11, 13, 15});
}

/* V[xi, ci, t] = (B^T d B)[xi] for the tiles of rows [ty0, ty1) of one
 * plane per channel. The band's input rows are first copied into [pb]
 * with the padding's zeros around them, so each tile reads its 4x4 block
 * without bounds; eight tiles of a row at a time take the even and odd
 * columns of two vector loads. */
NN_KERNEL_CLONES static void wino_in(const conv_job *j, const float *img, int64_t ty0, int64_t ty1,
                                     float *V, float *pb) {
    const int64_t I1 = j->g.isz[1], I2 = j->g.isz[2], p1 = j->g.p[1], p2 = j->g.p[2];
    const int64_t tw = (j->g.csz[2] + 1) / 2, T = (ty1 - ty0) * tw, Ci = j->Ci, step = Ci * T;
    const int64_t P = wino_pitch(j), rows = 2 * (ty1 - ty0) + 2, tw8 = tw / 8 * 8;
    const int64_t y0 = 2 * ty0 - p1; /* the input row of pb's first row */
    int64_t x0 = p2, x1 = p2 + I2;   /* pb's columns that hold the input */
    if (x1 > P) x1 = P;
    memset(pb, 0, sizeof(float) * (size_t)(rows * P));
    for (int64_t ci = 0; ci < Ci; ci++) {
        const float *plane = img + ci * j->g.Li;
        for (int64_t r = 0; r < rows; r++) {
            int64_t y = y0 + r;
            if (y >= 0 && y < I1 && x1 > x0)
                memcpy(pb + r * P + x0, plane + y * I2, sizeof(float) * (size_t)(x1 - x0));
        }
        for (int64_t ty = ty0; ty < ty1; ty++) {
            const float *d0 = pb + 2 * (ty - ty0) * P, *d1 = d0 + P, *d2 = d1 + P, *d3 = d2 + P;
            float *v = V + ci * T + (ty - ty0) * tw;
            for (int64_t x = 0; x < tw8; x += 8) {
                const int64_t c = 2 * x;
                wino_v8 e0, o0, f0, q0, e1, o1, f1, q1, e2, o2, f2, q2, e3, o3, f3, q3;
                wino_eo(d0 + c, &e0, &o0), wino_eo(d0 + c + 2, &f0, &q0);
                wino_eo(d1 + c, &e1, &o1), wino_eo(d1 + c + 2, &f1, &q1);
                wino_eo(d2 + c, &e2, &o2), wino_eo(d2 + c + 2, &f2, &q2);
                wino_eo(d3 + c, &e3, &o3), wino_eo(d3 + c + 2, &f3, &q3);
                /* B^T d: the rows; e, o, f, q are a tile's columns 0..3 */
                wino_v8 te[4] = {e0 - e2, e1 + e2, e2 - e1, e1 - e3};
                wino_v8 to[4] = {o0 - o2, o1 + o2, o2 - o1, o1 - o3};
                wino_v8 tf[4] = {f0 - f2, f1 + f2, f2 - f1, f1 - f3};
                wino_v8 tq[4] = {q0 - q2, q1 + q2, q2 - q1, q1 - q3};
                for (int i = 0; i < 4; i++) { /* (B^T d) B: the columns */
                    float *vi = v + x + 4 * i * step;
                    WINO_ST(vi, te[i] - tf[i]);
                    WINO_ST(vi + step, to[i] + tf[i]);
                    WINO_ST(vi + 2 * step, tf[i] - to[i]);
                    WINO_ST(vi + 3 * step, to[i] - tq[i]);
                }
            }
            for (int64_t x = tw8; x < tw; x++) {
                float d[4][4], t[4][4];
                for (int c = 0; c < 4; c++) {
                    d[0][c] = d0[2 * x + c], d[1][c] = d1[2 * x + c];
                    d[2][c] = d2[2 * x + c], d[3][c] = d3[2 * x + c];
                }
                for (int c = 0; c < 4; c++) {
                    t[0][c] = d[0][c] - d[2][c], t[1][c] = d[1][c] + d[2][c];
                    t[2][c] = d[2][c] - d[1][c], t[3][c] = d[1][c] - d[3][c];
                }
                for (int i = 0; i < 4; i++) {
                    float *vi = v + x + 4 * i * step;
                    vi[0] = t[i][0] - t[i][2];
                    vi[step] = t[i][1] + t[i][2];
                    vi[2 * step] = t[i][2] - t[i][1];
                    vi[3 * step] = t[i][1] - t[i][3];
                }
            }
        }
    }
}

/* out[co] rows [2 ty0, 2 ty1) = A^T M A, cropped to the output. */
NN_KERNEL_CLONES static void wino_out(const conv_job *j, const float *M, int64_t ty0, int64_t ty1,
                                      float *out) {
    const int64_t O1 = j->g.csz[1], O2 = j->g.csz[2], tw = (O2 + 1) / 2, T = (ty1 - ty0) * tw;
    const int64_t Cc = j->Cc, step = Cc * T;
    /* whole blocks of 8 tiles inside the row: 2 x + 16 <= O2 */
    const int64_t tw8 = O2 / 16 * 8;
    for (int64_t co = 0; co < Cc; co++) {
        float *plane = out + co * j->g.Lc;
        for (int64_t ty = ty0; ty < ty1; ty++) {
            const float *m = M + co * T + (ty - ty0) * tw;
            float *r0 = plane + 2 * ty * O2, *r1 = r0 + O2;
            const bool two = 2 * ty + 1 < O1;
            for (int64_t x = 0; x < tw8; x += 8) {
                wino_v8 s0[4], s1[4];
                for (int c = 0; c < 4; c++) {
                    wino_v8 m0, m1, m2, m3;
                    memcpy(&m0, m + c * step + x, sizeof m0);
                    memcpy(&m1, m + (4 + c) * step + x, sizeof m1);
                    memcpy(&m2, m + (8 + c) * step + x, sizeof m2);
                    memcpy(&m3, m + (12 + c) * step + x, sizeof m3);
                    s0[c] = m0 + m1 + m2;
                    s1[c] = m1 - m2 - m3;
                }
                wino_v8 a0 = s0[0] + s0[1] + s0[2], b0 = s0[1] - s0[2] - s0[3];
                wino_v8 a1 = s1[0] + s1[1] + s1[2], b1 = s1[1] - s1[2] - s1[3];
                const wino_v8i lo = {0, 8, 1, 9, 2, 10, 3, 11}, hi = {4, 12, 5, 13, 6, 14, 7, 15};
                WINO_ST(r0 + 2 * x, __builtin_shuffle(a0, b0, lo));
                WINO_ST(r0 + 2 * x + 8, __builtin_shuffle(a0, b0, hi));
                if (two) {
                    WINO_ST(r1 + 2 * x, __builtin_shuffle(a1, b1, lo));
                    WINO_ST(r1 + 2 * x + 8, __builtin_shuffle(a1, b1, hi));
                }
            }
            for (int64_t x = tw8; x < tw; x++) {
                float s[2][4];
                for (int c = 0; c < 4; c++) {
                    float m0 = m[c * step + x], m1 = m[(4 + c) * step + x];
                    float m2 = m[(8 + c) * step + x], m3 = m[(12 + c) * step + x];
                    s[0][c] = m0 + m1 + m2;
                    s[1][c] = m1 - m2 - m3;
                }
                for (int a = 0; a < 2; a++) {
                    if (a == 1 && !two) break;
                    float *row = a ? r1 : r0;
                    row[2 * x] = s[a][0] + s[a][1] + s[a][2];
                    if (2 * x + 1 < O2) row[2 * x + 1] = s[a][1] - s[a][2] - s[a][3];
                }
            }
        }
    }
}

/* Z[xi, co, t] = (A dy A^T)[xi] for the 2x2 blocks of the output
 * gradient [dy] in tile rows [ty0, ty1) (zero past the output's edge): the
 * gradient of the products that the output transform sums. */
NN_KERNEL_CLONES static void wino_gout(const conv_job *j, const float *dy, int64_t ty0, int64_t ty1,
                                       float *Z) {
    const int64_t O1 = j->g.csz[1], O2 = j->g.csz[2], tw = (O2 + 1) / 2, T = (ty1 - ty0) * tw;
    const int64_t Cc = j->Cc, step = Cc * T, tw8 = O2 / 16 * 8;
    const wino_v8 zero = {0};
    for (int64_t co = 0; co < Cc; co++) {
        const float *plane = dy + co * j->g.Lc;
        for (int64_t ty = ty0; ty < ty1; ty++) {
            const float *r0 = plane + 2 * ty * O2, *r1 = r0 + O2;
            const bool two = 2 * ty + 1 < O1;
            float *z = Z + co * T + (ty - ty0) * tw;
            for (int64_t x = 0; x < tw8; x += 8) {
                wino_v8 a0, b0, a1 = zero, b1 = zero;
                wino_eo(r0 + 2 * x, &a0, &b0);
                if (two) wino_eo(r1 + 2 * x, &a1, &b1);
                wino_v8 ra[4] = {a0, a0 + a1, a0 - a1, -a1}, rb[4] = {b0, b0 + b1, b0 - b1, -b1};
                for (int i = 0; i < 4; i++) {
                    float *zi = z + x + 4 * i * step;
                    WINO_ST(zi, ra[i]);
                    WINO_ST(zi + step, ra[i] + rb[i]);
                    WINO_ST(zi + 2 * step, ra[i] - rb[i]);
                    WINO_ST(zi + 3 * step, -rb[i]);
                }
            }
            for (int64_t x = tw8; x < tw; x++) {
                const bool odd = 2 * x + 1 < O2;
                float a0 = r0[2 * x], b0 = odd ? r0[2 * x + 1] : 0.0f;
                float a1 = two ? r1[2 * x] : 0.0f, b1 = two && odd ? r1[2 * x + 1] : 0.0f;
                float ra[4] = {a0, a0 + a1, a0 - a1, -a1}, rb[4] = {b0, b0 + b1, b0 - b1, -b1};
                for (int i = 0; i < 4; i++) {
                    float *zi = z + x + 4 * i * step;
                    zi[0] = ra[i];
                    zi[step] = ra[i] + rb[i];
                    zi[2 * step] = ra[i] - rb[i];
                    zi[3 * step] = -rb[i];
                }
            }
        }
    }
}

/* dW = sum over samples [n0, n1) of the weight's gradient, by Winograd:
 * dU[xi] += Z[xi] @ V[xi]^T over every band, then dW = G^T dU G. */
static void wino_wgrad(const conv_job *j, const float *C, const float *I, float *dW, int64_t n0,
                       int64_t n1, float *buf) {
    const int64_t th = (j->g.csz[1] + 1) / 2, tw = (j->g.csz[2] + 1) / 2, band = wino_band(j);
    const int64_t Ci = j->Ci, Cc = j->Cc;
    float *dU = buf, *V = dU + 16 * Cc * Ci;
    memset(dU, 0, sizeof(float) * (size_t)(16 * Cc * Ci));
    for (int64_t n = n0; n < n1; n++)
        for (int64_t ty0 = 0; ty0 < th; ty0 += band) {
            int64_t ty1 = ty0 + band < th ? ty0 + band : th, T = (ty1 - ty0) * tw;
            float *Z = V + 16 * Ci * T, *pb = Z + 16 * Cc * T;
            wino_in(j, I + n * Ci * j->g.Li, ty0, ty1, V, pb);
            wino_gout(j, C + n * Cc * j->g.Lc, ty0, ty1, Z);
            for (int xi = 0; xi < 16; xi++)
                gemm(false, false, true, Cc, Ci, T, Z + xi * Cc * T, T, V + xi * Ci * T, T, 1.0,
                     dU + xi * Cc * Ci, Ci);
        }
    for (int64_t co = 0; co < Cc; co++)
        for (int64_t ci = 0; ci < Ci; ci++) {
            float u[16], t[3][4], *w = dW + (co * Ci + ci) * 9;
            for (int xi = 0; xi < 16; xi++) u[xi] = dU[(xi * Cc + co) * Ci + ci];
            for (int c = 0; c < 4; c++) { /* G^T u: the rows */
                t[0][c] = u[c] + (u[4 + c] + u[8 + c]) * 0.5f;
                t[1][c] = (u[4 + c] - u[8 + c]) * 0.5f;
                t[2][c] = (u[4 + c] + u[8 + c]) * 0.5f + u[12 + c];
            }
            for (int r = 0; r < 3; r++) { /* (G^T u) G: the columns */
                w[3 * r] = t[r][0] + (t[r][1] + t[r][2]) * 0.5f;
                w[3 * r + 1] = (t[r][1] - t[r][2]) * 0.5f;
                w[3 * r + 2] = (t[r][1] + t[r][2]) * 0.5f + t[r][3];
            }
        }
}

/* C[n] = conv(I[n], W) by Winograd for samples [n0, n1); U from wino_weight. */
static void wino_samples(const conv_job *j, const float *I, const float *U, float *C, int64_t n0,
                         int64_t n1, float *buf) {
    const int64_t th = (j->g.csz[1] + 1) / 2, tw = (j->g.csz[2] + 1) / 2, band = wino_band(j);
    const int64_t Ci = j->Ci, Cc = j->Cc;
    for (int64_t n = n0; n < n1; n++)
        for (int64_t ty0 = 0; ty0 < th; ty0 += band) {
            int64_t ty1 = ty0 + band < th ? ty0 + band : th, T = (ty1 - ty0) * tw;
            float *V = buf, *M = V + 16 * Ci * T, *rb = M + 16 * Cc * T;
            wino_in(j, I + n * Ci * j->g.Li, ty0, ty1, V, rb);
            for (int xi = 0; xi < 16; xi++)
                gemm(false, false, false, Cc, T, Ci, U + xi * Cc * Ci, Ci, V + xi * Ci * T, T, 0.0,
                     M + xi * Cc * T, T);
            wino_out(j, M, ty0, ty1, C + n * Cc * j->g.Lc);
        }
}

/* Elements of one task's column buffer. */
static int64_t col_elems(const conv_job *j) {
    int64_t nb = chunk_samples(j), R = (j->Ci / j->G) * j->g.K;
    int64_t n = nb == 1 ? R * j->g.csz[0] * tile_rows(j) * j->g.csz[2] : R * nb * j->g.Lc;
    if (wino_applies(j) && wino_elems(j) > n) n = wino_elems(j);
    return n;
}

/* C[n, g] = W_g @ im2col(I[n, g]) for samples [n0, n1) (C written). */
static void fwd_samples(const conv_job *j, const void *I, const void *W, void *C, int64_t n0,
                        int64_t n1, void *cp, void *tp, const void *U) {
    const int64_t Cig = j->Ci / j->G, Ccg = j->Cc / j->G, Li = j->g.Li, Lc = j->g.Lc,
                  R = Cig * j->g.K;
    const size_t es = j->es;
    if (U) {
        wino_samples(j, I, U, C, n0, n1, cp);
        return;
    }
    if (j->g.identity) {
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                gemm(j->f64, false, false, Ccg, Lc, Cig, at((void *)W, g * Ccg * R, es), R,
                     at((void *)I, (n * j->Ci + g * Cig) * Li, es), Lc, 0.0,
                     at(C, (n * j->Cc + g * Ccg) * Lc, es), Lc);
        return;
    }
    int64_t nb = chunk_samples(j);
    if (nb == 1) {
        const int64_t rows = tile_rows(j), O2 = j->g.csz[2];
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                for (int64_t r0 = 0; r0 < j->g.csz[1]; r0 += rows) {
                    geom t = tile_geom(&j->g, r0, rows);
                    im2col(j->f64, at((void *)I, (n * j->Ci + g * Cig) * Li, es), Cig, &t, cp,
                           t.Lc);
                    gemm(j->f64, false, false, Ccg, t.Lc, R, at((void *)W, g * Ccg * R, es), R, cp,
                         t.Lc, 0.0, at(C, (n * j->Cc + g * Ccg) * Lc + r0 * O2, es), Lc);
                }
        return;
    }
    for (int64_t s0 = n0; s0 < n1; s0 += nb) {
        int64_t m = n1 - s0 < nb ? n1 - s0 : nb, ld = m * Lc;
        for (int64_t g = 0; g < j->G; g++) {
            for (int64_t s = 0; s < m; s++)
                im2col(j->f64, at((void *)I, ((s0 + s) * j->Ci + g * Cig) * Li, es), Cig, &j->g,
                       at(cp, s * Lc, es), ld);
            const void *wg = at((void *)W, g * Ccg * R, es);
            if (m == 1) {
                gemm(j->f64, false, false, Ccg, Lc, R, wg, R, cp, ld, 0.0,
                     at(C, (s0 * j->Cc + g * Ccg) * Lc, es), Lc);
                continue;
            }
            gemm(j->f64, false, false, Ccg, ld, R, wg, R, cp, ld, 0.0, tp, ld);
            for (int64_t r = 0; r < Ccg; r++)
                for (int64_t s = 0; s < m; s++)
                    memcpy(at(C, ((s0 + s) * j->Cc + g * Ccg + r) * Lc, es),
                           at(tp, r * ld + s * Lc, es), es * (size_t)Lc);
        }
    }
}

/* C[n, g] for samples [s0, s0 + m) side by side in [tp] ([Ccg, m * Lc]). */
static void gather_cols(const conv_job *j, const void *C, int64_t s0, int64_t m, int64_t g,
                        void *tp) {
    const int64_t Ccg = j->Cc / j->G, Lc = j->g.Lc, ld = m * Lc;
    for (int64_t r = 0; r < Ccg; r++)
        for (int64_t s = 0; s < m; s++)
            memcpy(at(tp, r * ld + s * Lc, j->es),
                   at((void *)C, ((s0 + s) * j->Cc + g * Ccg + r) * Lc, j->es), j->es * (size_t)Lc);
}

/* I[n, g] += col2im(W_g^T @ C[n, g]) for samples [n0, n1). */
static void bwd_samples(const conv_job *j, const void *C, const void *W, void *I, int64_t n0,
                        int64_t n1, void *cp, void *tp) {
    const int64_t Cig = j->Ci / j->G, Ccg = j->Cc / j->G, Li = j->g.Li, Lc = j->g.Lc,
                  R = Cig * j->g.K;
    const size_t es = j->es;
    if (j->g.identity) {
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                gemm(j->f64, true, false, Cig, Lc, Ccg, at((void *)W, g * Ccg * R, es), R,
                     at((void *)C, (n * j->Cc + g * Ccg) * Lc, es), Lc, 0.0,
                     at(I, (n * j->Ci + g * Cig) * Li, es), Lc);
        return;
    }
    int64_t nb = chunk_samples(j);
    if (nb == 1) {
        const int64_t rows = tile_rows(j), O2 = j->g.csz[2];
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                for (int64_t r0 = 0; r0 < j->g.csz[1]; r0 += rows) {
                    geom t = tile_geom(&j->g, r0, rows);
                    gemm(j->f64, true, false, R, t.Lc, Ccg, at((void *)W, g * Ccg * R, es), R,
                         at((void *)C, (n * j->Cc + g * Ccg) * Lc + r0 * O2, es), Lc, 0.0, cp,
                         t.Lc);
                    col2im(j->f64, cp, t.Lc, Cig, &t, at(I, (n * j->Ci + g * Cig) * Li, es));
                }
        return;
    }
    for (int64_t s0 = n0; s0 < n1; s0 += nb) {
        int64_t m = n1 - s0 < nb ? n1 - s0 : nb, ld = m * Lc;
        for (int64_t g = 0; g < j->G; g++) {
            const void *src = at((void *)C, (s0 * j->Cc + g * Ccg) * Lc, es);
            if (m > 1) {
                gather_cols(j, C, s0, m, g, tp);
                src = tp;
            }
            gemm(j->f64, true, false, R, ld, Ccg, at((void *)W, g * Ccg * R, es), R, src, ld, 0.0,
                 cp, ld);
            for (int64_t s = 0; s < m; s++)
                col2im(j->f64, at(cp, s * Lc, es), ld, Cig, &j->g,
                       at(I, ((s0 + s) * j->Ci + g * Cig) * Li, es));
        }
    }
}

/* dW_g = sum over samples [n0, n1) of C[n, g] @ im2col(I[n, g])^T (dW written). */
static void wg_samples(const conv_job *j, const void *C, const void *I, void *dW, int64_t n0,
                       int64_t n1, void *cp, void *tp) {
    const int64_t Cig = j->Ci / j->G, Ccg = j->Cc / j->G, Li = j->g.Li, Lc = j->g.Lc,
                  R = Cig * j->g.K;
    const size_t es = j->es;
    if (wino_applies(j)) {
        wino_wgrad(j, C, I, dW, n0, n1, cp);
        return;
    }
    memset(dW, 0, es * (size_t)(j->Cc * R));
    if (j->g.identity) {
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                gemm(j->f64, false, true, Ccg, Cig, Lc,
                     at((void *)C, (n * j->Cc + g * Ccg) * Lc, es), Lc,
                     at((void *)I, (n * j->Ci + g * Cig) * Li, es), Li, 1.0,
                     at(dW, g * Ccg * R, es), R);
        return;
    }
    int64_t nb = chunk_samples(j);
    if (nb == 1) {
        const int64_t rows = tile_rows(j), O2 = j->g.csz[2];
        for (int64_t n = n0; n < n1; n++)
            for (int64_t g = 0; g < j->G; g++)
                for (int64_t r0 = 0; r0 < j->g.csz[1]; r0 += rows) {
                    geom t = tile_geom(&j->g, r0, rows);
                    im2col(j->f64, at((void *)I, (n * j->Ci + g * Cig) * Li, es), Cig, &t, cp,
                           t.Lc);
                    gemm(j->f64, false, true, Ccg, R, t.Lc,
                         at((void *)C, (n * j->Cc + g * Ccg) * Lc + r0 * O2, es), Lc, cp, t.Lc, 1.0,
                         at(dW, g * Ccg * R, es), R);
                }
        return;
    }
    for (int64_t s0 = n0; s0 < n1; s0 += nb) {
        int64_t m = n1 - s0 < nb ? n1 - s0 : nb, ld = m * Lc;
        for (int64_t g = 0; g < j->G; g++) {
            for (int64_t s = 0; s < m; s++)
                im2col(j->f64, at((void *)I, ((s0 + s) * j->Ci + g * Cig) * Li, es), Cig, &j->g,
                       at(cp, s * Lc, es), ld);
            const void *src = at((void *)C, (s0 * j->Cc + g * Ccg) * Lc, es);
            if (m > 1) {
                gather_cols(j, C, s0, m, g, tp);
                src = tp;
            }
            gemm(j->f64, false, true, Ccg, R, ld, src, ld, cp, ld, 1.0, at(dW, g * Ccg * R, es), R);
        }
    }
}

/* ---- threads ----
 * With more than one thread the batch is shared out between the engine's
 * workers (nn_thread.h), each running single-threaded BLAS on its own
 * samples with its own column buffer, so im2col and col2im run in parallel
 * too, and OpenBLAS's own pool (whose threads spin for a while after each
 * of its jobs, burning a core while the next op runs) is not used. The
 * depthwise kernel shares out groups. Each sample's output comes from the
 * same calls whatever the thread count, and the weight gradient, a sum
 * over the batch, is summed in WG_PARTS fixed slices of the batch, added
 * in order, which the tasks share out: results are bit-for-bit the same at
 * any thread count. */

#define MIN_TASK_MACS  (1 << 20) /* less work than this per task runs on one thread */
#define CONV_MAX_TASKS 64
#define WG_PARTS       8         /* slices of the batch the weight gradient is summed in */
#define WG_PART_BUDGET (1 << 22) /* elements of the partial weight gradients, at most */

enum { RUN_FWD, RUN_BWD, RUN_WG, RUN_DW };

typedef struct conv_run {
    int kind, dw_mode;
    const conv_job *j;
    const void *src, *W; /* fwd: I, W; bwd: C, W; wg: C, I */
    void *dst;           /* fwd: C; bwd: I; wg: dW */
    void *parts;         /* wg: partials 1..n_parts-1, each Cc * R */
    int64_t n_parts;
    const dwp *q;  /* RUN_DW on padded planes (col[t]: each task's plane) */
    const void *U; /* RUN_FWD by Winograd: the transformed weight (wino_weight) */
    nn_tensor *col[CONV_MAX_TASKS], *tmp[CONV_MAX_TASKS];
} conv_run;

static void *buf_of(nn_tensor *t) {
    return t ? nn_tensor_data(t) : NULL;
}

static void conv_task(void *arg, int t, int T) {
    conv_run *r = arg;
    const conv_job *j = r->j;
    void *cp = buf_of(r->col[t]), *tp = buf_of(r->tmp[t]);
    int64_t b, e;
    switch (r->kind) {
    case RUN_DW:
        nn_parallel_range(j->G, t, T, 1, &b, &e);
        if (r->dw_mode == DW_FWD) dw_run(DW_FWD, j, r->q, cp, r->src, r->W, r->dst, b, e);
        if (r->dw_mode == DW_BWD) dw_run(DW_BWD, j, r->q, cp, r->dst, r->W, r->src, b, e);
        if (r->dw_mode == DW_DOT) dw_run(DW_DOT, j, r->q, cp, r->W, r->dst, r->src, b, e);
        break;
    case RUN_FWD:
        nn_parallel_range(j->N, t, T, chunk_samples(j), &b, &e);
        fwd_samples(j, r->src, r->W, r->dst, b, e, cp, tp, r->U);
        break;
    case RUN_BWD:
        nn_parallel_range(j->N, t, T, chunk_samples(j), &b, &e);
        bwd_samples(j, r->src, r->W, r->dst, b, e, cp, tp);
        break;
    case RUN_WG: {
        const int64_t size = j->Cc * (j->Ci / j->G) * j->g.K;
        for (int64_t p = t; p < r->n_parts; p += T) {
            nn_parallel_range(j->N, (int)p, (int)r->n_parts, 1, &b, &e);
            void *dw = p == 0 ? r->dst : at(r->parts, (p - 1) * size, j->es);
            wg_samples(j, r->src, r->W, dw, b, e, cp, tp);
        }
        break;
    }
    }
}

/* Run [r] over [T] tasks (their buffers allocated); more than one task
 * runs with single-threaded BLAS. */
static void conv_go(conv_run *r, int T) {
    if (T <= 1) {
        conv_task(r, 0, 1);
        return;
    }
    nn_blas_single_threaded(true);
    nn_parallel_run(T, conv_task, r);
    nn_blas_single_threaded(false);
}

/* How many tasks share [units] (samples, groups or slices) of [j]. */
static int conv_tasks(const conv_job *j, int64_t units) {
    double macs = (double)j->N * (double)(j->Cc / j->G) * (double)(j->Ci / j->G) * (double)j->g.K *
                  (double)j->g.Lc * (double)j->G;
    int t = nn_parallel_tasks(macs > 4e18 ? (int64_t)4e18 : (int64_t)macs, MIN_TASK_MACS);
    if (t > CONV_MAX_TASKS) t = CONV_MAX_TASKS;
    return units < t ? (int)units : t;
}

static void run_release(conv_run *r) {
    for (int t = 0; t < CONV_MAX_TASKS; t++) {
        nn_tensor_release(r->col[t]);
        nn_tensor_release(r->tmp[t]);
    }
}

/* The column buffers of [T] tasks of [j] (none for the identity). */
static nn_status run_buffers(nn_ctx *ctx, const conv_job *j, conv_run *r, int T) {
    if (j->g.identity) return NN_OK;
    int64_t nb = chunk_samples(j);
    for (int t = 0; t < T; t++) {
        r->col[t] = scratch(ctx, j->f64, col_elems(j));
        if (!r->col[t]) return ctx->err.code;
        if (nb > 1) {
            r->tmp[t] = scratch(ctx, j->f64, (j->Cc / j->G) * nb * j->g.Lc);
            if (!r->tmp[t]) return ctx->err.code;
        }
    }
    return NN_OK;
}

static nn_status run_samples(nn_ctx *ctx, int kind, const conv_job *j, const void *src,
                             const void *W, void *dst) {
    conv_run r = {.kind = kind, .j = j, .src = src, .W = W, .dst = dst};
    int64_t nb = chunk_samples(j); /* 0 for an empty batch */
    int T = conv_tasks(j, nb > 0 ? (j->N + nb - 1) / nb : 0);
    nn_tensor *u = NULL;
    nn_status st = NN_OK;
    if (kind == RUN_FWD && j->N > 0 && wino_applies(j)) {
        if (!(u = scratch(ctx, false, 16 * j->Cc * j->Ci))) return ctx->err.code;
        wino_weight(j, W, nn_tensor_data(u));
        r.U = nn_tensor_data(u);
    }
    st = run_buffers(ctx, j, &r, T);
    if (!st) conv_go(&r, T);
    run_release(&r);
    nn_tensor_release(u);
    return st;
}

static nn_status run_dw(nn_ctx *ctx, int mode, const conv_job *j, const void *src, const void *W,
                        void *dst) {
    dwp q;
    conv_run r = {.kind = RUN_DW, .dw_mode = mode, .j = j, .src = src, .W = W, .dst = dst};
    int T = conv_tasks(j, j->G);
    nn_status st = NN_OK;
    if (dwp_set(j, mode, &q)) {
        r.q = &q;
        for (int t = 0; t < T && q.padded && !st; t++)
            if (!(r.col[t] = scratch(ctx, j->f64, q.Pt))) st = ctx->err.code;
    }
    if (!st) conv_go(&r, T);
    run_release(&r);
    return st;
}

/* The convolution's input gradient with stride 1 is itself a convolution:
 * of the output gradient with the weight flipped in space and transposed
 * in channels, padding d * (k - 1) - p. That is one GEMM of depth
 * Cc/G * K per sample writing the image directly, where image_from_cols's
 * GEMM has depth Cc/G and writes a column buffer K times the image that
 * col2im then adds up. Whether [j] can go that way, and its job in [jf]. */
static bool flip_job(const conv_job *j, conv_job *jf) {
    if (dw_applies(j) || j->g.identity) return false;
    conv_job f = *j;
    f.Ci = j->Cc;
    f.Cc = j->Ci;
    for (int i = 0; i < 3; i++) {
        int64_t p = j->g.d[i] * (j->g.k[i] - 1) - j->g.p[i];
        if (j->g.s[i] != 1 || p < 0 ||
            j->g.csz[i] + 2 * p - j->g.d[i] * (j->g.k[i] - 1) != j->g.isz[i])
            return false;
        f.g.isz[i] = j->g.csz[i];
        f.g.csz[i] = j->g.isz[i];
        f.g.p[i] = p;
    }
    f.g.Li = j->g.Lc;
    f.g.Lc = j->g.Li;
    f.g.identity = false;
    if (jf) *jf = f;
    return true;
}

/* W'[g, ci, co, K - 1 - t] = W[g, co, ci, t] */
static void flip_weight(const conv_job *j, const void *W, void *Wf) {
    const int64_t Cig = j->Ci / j->G, Ccg = j->Cc / j->G, K = j->g.K;
    for (int64_t g = 0; g < j->G; g++)
        for (int64_t co = 0; co < Ccg; co++)
            for (int64_t ci = 0; ci < Cig; ci++)
                for (int64_t t = 0; t < K; t++) {
                    int64_t from = ((g * Ccg + co) * Cig + ci) * K + t;
                    int64_t to = ((g * Cig + ci) * Ccg + co) * K + (K - 1 - t);
                    if (j->f64)
                        ((double *)Wf)[to] = ((const double *)W)[from];
                    else
                        ((float *)Wf)[to] = ((const float *)W)[from];
                }
}

/* Whether the direct kernels (ops_conv_direct.c: few channels, stride 1,
 * no im2col buffer) serve [j] instead of im2col + GEMM; fills [dc]. */
static bool direct_conv_chosen(const conv_job *j, nn_conv_direct *dc) {
    for (int i = 0; i < 3; i++) {
        if (j->g.s[i] != 1) return false;
        dc->isz[i] = j->g.isz[i];
        dc->csz[i] = j->g.csz[i];
        dc->k[i] = j->g.k[i];
        dc->p[i] = j->g.p[i];
        dc->d[i] = j->g.d[i];
    }
    dc->N = j->N, dc->Ci = j->Ci, dc->Cc = j->Cc, dc->G = j->G, dc->f64 = j->f64;
    return !j->g.identity && !dw_applies(j) && nn_conv_direct_applies(dc);
}

/* C[n, g] = W_g @ im2col(I[n, g]) for every sample and group (C written). */
static nn_status cols_from_image(nn_ctx *ctx, const conv_job *j, const void *I, const void *W,
                                 void *C) {
    if (dw_applies(j)) {
        return run_dw(ctx, DW_FWD, j, I, W, C);
    }
    nn_conv_direct dc;
    if (direct_conv_chosen(j, &dc)) return nn_conv_direct_cols(ctx, &dc, I, W, C);
    return run_samples(ctx, RUN_FWD, j, I, W, C);
}

/* Whether image_from_cols writes all of I (else the caller zeroes it). */
static bool image_from_cols_writes(const conv_job *j, bool flip) {
    nn_conv_direct dc;
    dwp q;
    return j->g.identity || direct_conv_chosen(j, &dc) || (flip && flip_job(j, NULL)) ||
           (dw_applies(j) && dwp_set(j, DW_BWD, &q));
}

/* I[n, g] = col2im(W_g^T @ C[n, g]) for every sample and group; I must be
 * zeroed by the caller unless image_from_cols_writes. [flip]: the way of
 * flip_job where it applies, for the convolution's input gradient; the
 * transposed convolution's forward keeps col2im, whose order of sums is
 * PyTorch's (its float32 values then agree to OpInfo's 1.3e-5). */
static nn_status image_from_cols(nn_ctx *ctx, const conv_job *j, const void *C, const void *W,
                                 void *I, bool flip) {
    if (dw_applies(j)) {
        return run_dw(ctx, DW_BWD, j, C, W, I);
    }
    nn_conv_direct dc;
    if (direct_conv_chosen(j, &dc)) return nn_conv_direct_image(ctx, &dc, C, W, I);
    conv_job jf;
    if (!flip || !flip_job(j, &jf)) return run_samples(ctx, RUN_BWD, j, C, W, I);
    nn_tensor *wf = scratch(ctx, j->f64, j->Cc * (j->Ci / j->G) * j->g.K);
    if (!wf) return ctx->err.code;
    flip_weight(j, W, nn_tensor_data(wf));
    nn_status st = run_samples(ctx, RUN_FWD, &jf, C, nn_tensor_data(wf), I);
    nn_tensor_release(wf);
    return st;
}

/* dW_g = sum_n C[n, g] @ im2col(I[n, g])^T (dW written), summed in
 * fixed slices of the batch (see "threads"). */
static nn_status weight_grad(nn_ctx *ctx, const conv_job *j, const void *C, const void *I,
                             void *dW) {
    if (dw_applies(j)) {
        return run_dw(ctx, DW_DOT, j, C, I, dW);
    }
    nn_conv_direct dc;
    if (direct_conv_chosen(j, &dc)) return nn_conv_direct_wgrad(ctx, &dc, C, I, dW);
    const int64_t size = j->Cc * (j->Ci / j->G) * j->g.K;
    int64_t P = j->N < WG_PARTS ? j->N : WG_PARTS;
    while (P > 1 && (P - 1) * size > WG_PART_BUDGET) P--;
    if (P < 1) P = 1;
    conv_run r = {.kind = RUN_WG, .j = j, .src = C, .W = I, .dst = dW, .n_parts = P};
    int T = conv_tasks(j, P);
    nn_tensor *parts = P > 1 ? scratch(ctx, j->f64, (P - 1) * size) : NULL;
    nn_status st = P > 1 && !parts ? ctx->err.code : run_buffers(ctx, j, &r, T);
    if (!st) {
        r.parts = buf_of(parts);
        conv_go(&r, T);
        for (int64_t p = 1; p < P; p++) {
            if (j->f64) {
                double *d = dW;
                const double *s = (const double *)r.parts + (p - 1) * size;
                for (int64_t i = 0; i < size; i++) d[i] += s[i];
            } else {
                float *d = dW;
                const float *s = (const float *)r.parts + (p - 1) * size;
                for (int64_t i = 0; i < size; i++) d[i] += s[i];
            }
        }
    }
    nn_tensor_release(parts);
    run_release(&r);
    return st;
}

/* out[n, c, :] += b[c] */
static void add_bias(bool f64, void *out, const void *b, int64_t N, int64_t C, int64_t L) {
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < C; c++) {
            if (f64) {
                double *o = (double *)out + (n * C + c) * L, v = ((const double *)b)[c];
                for (int64_t l = 0; l < L; l++) o[l] += v;
            } else {
                float *o = (float *)out + (n * C + c) * L, v = ((const float *)b)[c];
                for (int64_t l = 0; l < L; l++) o[l] += v;
            }
        }
}

/* db[c] = sum over n and positions of dout[n, c, :] */
static void bias_grad(bool f64, const void *dout, void *db, int64_t N, int64_t C, int64_t L) {
    for (int64_t c = 0; c < C; c++) {
        double acc = 0;
        for (int64_t n = 0; n < N; n++) {
            if (f64) {
                const double *o = (const double *)dout + (n * C + c) * L;
                for (int64_t l = 0; l < L; l++) acc += o[l];
            } else {
                const float *o = (const float *)dout + (n * C + c) * L;
                float s = 0;
                for (int64_t l = 0; l < L; l++) s += o[l];
                acc += s;
            }
        }
        if (f64)
            ((double *)db)[c] = acc;
        else
            ((float *)db)[c] = (float)acc;
    }
}

/* ---- convolution ----
 * inputs: x, weight, then bias when flags has CONV_BIAS.
 * params: dims[0..2] stride, dims[3..5] padding, dims[6] dilation (packed),
 * dims[7] output_padding (packed), i[0] groups; flags CONV_TRANSPOSED. */

enum { CONV_BIAS = 1, CONV_TRANSPOSED = 2 };

typedef struct conv_params {
    int nsp;
    int64_t s[3], p[3], d[3], op[3], G;
    bool transposed;
} conv_params;

static void conv_params_of(const nn_node *node, conv_params *cp) {
    cp->nsp = node->in[0].t->ndim - 2;
    for (int i = 0; i < 3; i++) {
        cp->s[i] = node->p.dims[i];
        cp->p[i] = node->p.dims[3 + i];
    }
    unpack3(node->p.dims[6], cp->d);
    unpack3(node->p.dims[7], cp->op);
    cp->G = node->p.i[0];
    cp->transposed = node->p.flags & CONV_TRANSPOSED;
}

static const char *dtype_word(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "Float";
    case NN_FLOAT64: return "Double";
    case NN_FLOAT16: return "Half";
    case NN_BFLOAT16: return "BFloat16";
    case NN_INT64: return "Long";
    case NN_INT32: return "Int";
    case NN_INT16: return "Short";
    case NN_INT8: return "Char";
    case NN_UINT8: return "Byte";
    case NN_BOOL: return "Bool";
    default: return "Unknown";
    }
}

/* Checks in PyTorch's words; fills [j] (geometry and sizes) and the output shape. */
static bool conv_check(nn_ctx *ctx, const nn_node *node, conv_job *j, int64_t *out_shape) {
    const nn_tensor *x = node->in[0].t, *w = node->in[1].t;
    const nn_tensor *b = (node->p.flags & CONV_BIAS) ? node->in[2].t : NULL;
    conv_params cp;
    conv_params_of(node, &cp);
    char a[128], c[128];
    int nsp = cp.nsp;
    if (x->dtype != w->dtype || (b && b->dtype != x->dtype)) {
        nn_dtype other = x->dtype != w->dtype ? w->dtype : b->dtype;
        fail(ctx, NN_ERR_RUNTIME, "expected scalar type %s but found %s", dtype_word(x->dtype),
             dtype_word(other));
        return false;
    }
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64) {
        fail(ctx, NN_ERR_RUNTIME, "\"slow_conv2d_cpu\" not implemented for '%s'",
             dtype_word(x->dtype));
        return false;
    }
    if (w->ndim != x->ndim) {
        fail(ctx, NN_ERR_RUNTIME,
             "Expected %d-dimensional input for %d-dimensional weight %s, but got "
             "%d-dimensional input of size %s instead",
             w->ndim, w->ndim, nn_tensor_shape_str(w, a, sizeof a), x->ndim,
             nn_tensor_shape_str(x, c, sizeof c));
        return false;
    }
    for (int i = 0; i < nsp; i++) {
        if (cp.s[i] <= 0) {
            fail(ctx, NN_ERR_RUNTIME, "non-positive stride is not supported");
            return false;
        }
        if (cp.d[i] <= 0) {
            fail(ctx, NN_ERR_RUNTIME, "dilation should be greater than zero");
            return false;
        }
    }
    if (cp.G <= 0) {
        fail(ctx, NN_ERR_RUNTIME, "non-positive groups is not supported");
        return false;
    }
    int64_t G = cp.G, N = x->shape[0], Cx = x->shape[1];
    int64_t Cin_w = cp.transposed ? w->shape[0] : w->shape[1] * G;
    if (Cx != Cin_w || (cp.transposed && w->shape[0] % G != 0)) {
        if (cp.transposed)
            fail(ctx, NN_ERR_RUNTIME,
                 "Given transposed=1, weight of size %s, expected input%s to have %lld channels, "
                 "but got %lld channels instead",
                 nn_tensor_shape_str(w, a, sizeof a), nn_tensor_shape_str(x, c, sizeof c),
                 (long long)w->shape[0], (long long)Cx);
        else
            fail(ctx, NN_ERR_RUNTIME,
                 "Given groups=%lld, weight of size %s, expected input%s to have %lld channels, "
                 "but got %lld channels instead",
                 (long long)G, nn_tensor_shape_str(w, a, sizeof a),
                 nn_tensor_shape_str(x, c, sizeof c), (long long)Cin_w, (long long)Cx);
        return false;
    }
    if (!cp.transposed && w->shape[0] % G != 0) {
        fail(ctx, NN_ERR_RUNTIME,
             "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got "
             "weight of size %s instead",
             (long long)G, (long long)G, nn_tensor_shape_str(w, a, sizeof a));
        return false;
    }
    int64_t Cout = cp.transposed ? w->shape[1] * G : w->shape[0];
    if (b && (b->ndim != 1 || b->shape[0] != Cout)) {
        fail(ctx, NN_ERR_RUNTIME,
             "Given weight of size %s, expected bias to be 1-dimensional with %lld elements, but "
             "got bias of size %s instead",
             nn_tensor_shape_str(w, a, sizeof a), (long long)Cout,
             nn_tensor_shape_str(b, c, sizeof c));
        return false;
    }
    int64_t k[3], osz[3], xsz[3];
    for (int i = 0; i < nsp; i++) {
        k[i] = w->shape[2 + i];
        xsz[i] = x->shape[2 + i];
    }
    if (!cp.transposed) {
        bool small = false;
        for (int i = 0; i < nsp; i++)
            if (xsz[i] + 2 * cp.p[i] < cp.d[i] * (k[i] - 1) + 1) small = true;
        if (small) {
            char ps[96] = "", ks[96] = "";
            int pn = 0, kn = 0;
            for (int i = 0; i < nsp; i++) {
                pn += snprintf(ps + pn, sizeof ps - (size_t)pn, "%s%lld", i ? " x " : "",
                               (long long)(xsz[i] + 2 * cp.p[i]));
                kn += snprintf(ks + kn, sizeof ks - (size_t)kn, "%s%lld", i ? " x " : "",
                               (long long)(cp.d[i] * (k[i] - 1) + 1));
            }
            fail(ctx, NN_ERR_RUNTIME,
                 "Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size "
                 "can't be greater than actual input size",
                 ps, ks);
            return false;
        }
        for (int i = 0; i < nsp; i++)
            osz[i] = (xsz[i] + 2 * cp.p[i] - cp.d[i] * (k[i] - 1) - 1) / cp.s[i] + 1;
    } else {
        static const char *nm[3][3] = {
            {"width", "", ""}, {"height", "width", ""}, {"depth", "height", "width"}};
        for (int i = 0; i < nsp; i++) {
            if (cp.op[i] >= cp.s[i] && cp.op[i] >= cp.d[i]) {
                char m[400];
                int mn = 0;
                for (int q = 0; q < nsp; q++)
                    mn += snprintf(m + mn, sizeof m - (size_t)mn, "%soutput_padding_%s: %lld",
                                   q ? " " : "", nm[nsp - 1][q], (long long)cp.op[q]);
                for (int q = 0; q < nsp; q++)
                    mn += snprintf(m + mn, sizeof m - (size_t)mn, " stride_%s: %lld",
                                   nm[nsp - 1][q], (long long)cp.s[q]);
                for (int q = 0; q < nsp; q++)
                    mn += snprintf(m + mn, sizeof m - (size_t)mn, " dilation_%s: %lld",
                                   nm[nsp - 1][q], (long long)cp.d[q]);
                fail(ctx, NN_ERR_RUNTIME,
                     "output padding must be smaller than either stride or dilation, but got %s",
                     m);
                return false;
            }
            osz[i] = (xsz[i] - 1) * cp.s[i] - 2 * cp.p[i] + cp.d[i] * (k[i] - 1) + cp.op[i] + 1;
            if (osz[i] <= 0) {
                fail(ctx, NN_ERR_RUNTIME,
                     "Given input size per channel: %lld. Calculated output size per channel: "
                     "%lld. Output size is too small",
                     (long long)xsz[i], (long long)osz[i]);
                return false;
            }
        }
    }
    out_shape[0] = N;
    out_shape[1] = Cout;
    for (int i = 0; i < nsp; i++) out_shape[2 + i] = osz[i];
    j->N = N;
    j->G = G;
    if (!cp.transposed) {
        j->Ci = Cx;
        j->Cc = Cout;
        geom_set(&j->g, nsp, xsz, osz, k, cp.s, cp.p, cp.d);
    } else {
        j->Ci = Cout;
        j->Cc = Cx;
        geom_set(&j->g, nsp, osz, xsz, k, cp.s, cp.p, cp.d);
    }
    j->f64 = x->dtype == NN_FLOAT64;
    j->es = j->f64 ? sizeof(double) : sizeof(float);
    int64_t big = (j->Ci / G) * j->g.K * j->g.Lc * chunk_samples(j);
    if (big > INT_MAX || j->g.Li > INT_MAX) {
        fail(ctx, NN_ERR_MEMORY,
             "convolution: a sample's column matrix has %lld elements, more "
             "than BLAS can index",
             (long long)big);
        return false;
    }
    return true;
}

nn_tensor *op_conv_forward(nn_ctx *ctx, nn_node *node) {
    conv_job j;
    int64_t shape[NN_MAX_DIMS];
    if (!conv_check(ctx, node, &j, shape)) return NULL;
    if (nn_blas_require(ctx)) return NULL;
    nn_dtype dt = node->in[0].t->dtype;
    int nd = node->in[0].t->ndim;
    bool tr = node->p.flags & CONV_TRANSPOSED;
    nn_tensor *x = nn_contiguous_as(ctx, node->in[0].t, dt);
    nn_tensor *w = x ? nn_contiguous_as(ctx, node->in[1].t, dt) : NULL;
    nn_tensor *b = NULL;
    if (w && (node->p.flags & CONV_BIAS)) b = nn_contiguous_as(ctx, node->in[2].t, dt);
    nn_tensor *out = NULL;
    if (!w || ((node->p.flags & CONV_BIAS) && !b)) goto done;
    out = tr && !image_from_cols_writes(&j, false) ? nn_zeros(ctx, dt, nd, shape)
                                                   : nn_tensor_empty(ctx, dt, nd, shape);
    if (!out) goto done;
    nn_status st =
        tr ? image_from_cols(ctx, &j, nn_tensor_data(x), nn_tensor_data(w), nn_tensor_data(out),
                             false)
           : cols_from_image(ctx, &j, nn_tensor_data(x), nn_tensor_data(w), nn_tensor_data(out));
    if (st) {
        nn_tensor_release(out);
        out = NULL;
        goto done;
    }
    if (b)
        add_bias(j.f64, nn_tensor_data(out), nn_tensor_data(b), shape[0], shape[1],
                 tr ? j.g.Li : j.g.Lc);
done:
    nn_tensor_release(x);
    nn_tensor_release(w);
    nn_tensor_release(b);
    return out;
}

nn_status op_conv_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    conv_job j;
    int64_t shape[NN_MAX_DIMS];
    if (!conv_check(ctx, node, &j, shape)) return ctx->err.code;
    if (nn_blas_require(ctx)) return ctx->err.code;
    nn_dtype dt = node->in[0].t->dtype;
    bool tr = node->p.flags & CONV_TRANSPOSED;
    nn_tensor *x = NULL, *w = NULL, *g = nn_contiguous_as(ctx, dout, dt);
    if (!g) return ctx->err.code;
    nn_status st = NN_OK;
    if (node->in[0].needs_grad) {
        nn_tensor *xin = node->in[0].t;
        w = nn_contiguous_as(ctx, node->in[1].t, dt);
        nn_tensor *dx = !w ? NULL
                        : tr || image_from_cols_writes(&j, true)
                            ? nn_tensor_empty(ctx, dt, xin->ndim, xin->shape)
                            : nn_zeros(ctx, dt, xin->ndim, xin->shape);
        if (!dx) goto fail;
        st = tr ? cols_from_image(ctx, &j, nn_tensor_data(g), nn_tensor_data(w), nn_tensor_data(dx))
                : image_from_cols(ctx, &j, nn_tensor_data(g), nn_tensor_data(w), nn_tensor_data(dx),
                                  true);
        din[0] = dx;
        if (st) goto fail;
    }
    if (node->in[1].needs_grad) {
        nn_tensor *win = node->in[1].t;
        x = nn_contiguous_as(ctx, node->in[0].t, dt);
        nn_tensor *dw = x ? nn_tensor_empty(ctx, dt, win->ndim, win->shape) : NULL;
        if (!dw) goto fail;
        st = tr ? weight_grad(ctx, &j, nn_tensor_data(x), nn_tensor_data(g), nn_tensor_data(dw))
                : weight_grad(ctx, &j, nn_tensor_data(g), nn_tensor_data(x), nn_tensor_data(dw));
        din[1] = dw;
        if (st) goto fail;
    }
    if ((node->p.flags & CONV_BIAS) && node->in[2].needs_grad) {
        int64_t C = shape[1];
        nn_tensor *db = nn_tensor_empty(ctx, dt, 1, &C);
        if (!db) goto fail;
        bias_grad(j.f64, nn_tensor_data(g), nn_tensor_data(db), shape[0], C, tr ? j.g.Li : j.g.Lc);
        din[2] = db;
    }
    nn_tensor_release(g);
    nn_tensor_release(x);
    nn_tensor_release(w);
    return NN_OK;
fail:
    nn_tensor_release(g);
    nn_tensor_release(x);
    nn_tensor_release(w);
    return ctx->err.code ? ctx->err.code : NN_ERR_RUNTIME;
}

/* Forward FLOPs: a convolution is 2 * numel(weight) multiply-adds per
 * position of its column side (the output, or the transpose's input) per
 * sample; pooling one per input element read; unfold/fold move data only. */
bool nn_cost_conv(const nn_node *n, const nn_tensor *out, nn_op_cost *c) {
    switch (n->op) {
    case NN_OP_CONV: {
        const nn_tensor *cols = (n->p.flags & CONV_TRANSPOSED) ? n->in[0].t : out;
        double nc = cols ? (double)(cols->shape[0] * cols->shape[1]) : 0;
        double per_sample = nc > 0 ? nn_cost_numel(cols) / nc : 0; /* spatial positions */
        c->flops = 2 * nn_cost_numel(n->in[1].t) * per_sample * (cols ? (double)cols->shape[0] : 0);
        return true;
    }
    case NN_OP_MAX_POOL:
    case NN_OP_AVG_POOL: c->flops = nn_cost_numel(n->in[0].t); return true;
    case NN_OP_UNFOLD:
    case NN_OP_FOLD: return true;
    default: return false;
    }
}

nn_tensor *nn_conv(nn_ctx *ctx, nn_tensor *x, nn_tensor *weight, nn_tensor *bias,
                   const int64_t *stride, const int64_t *padding, const int64_t *dilation,
                   const int64_t *output_padding, int64_t groups, bool transposed) {
    if (x->ndim < 3 || x->ndim > 5)
        return fail(ctx, NN_ERR_RUNTIME, "convolution: expected a 3-D, 4-D or 5-D input, got %d-D",
                    x->ndim);
    int nsp = x->ndim - 2;
    nn_params p;
    memset(&p, 0, sizeof p);
    int64_t d[3] = {1, 1, 1}, op[3] = {0, 0, 0};
    for (int i = 0; i < nsp; i++) {
        p.dims[i] = stride[i];
        p.dims[3 + i] = padding[i];
        if (padding[i] < 0) return fail(ctx, NN_ERR_RUNTIME, "negative padding is not supported");
        if (output_padding && output_padding[i] < 0)
            return fail(ctx, NN_ERR_RUNTIME, "negative output_padding is not supported");
        if (dilation[i] <= 0)
            return fail(ctx, NN_ERR_RUNTIME, "dilation should be greater than zero");
        if (dilation[i] > 0x1fffff || (output_padding && output_padding[i] > 0x1fffff))
            return fail(ctx, NN_ERR_VALUE, "convolution: dilation or output_padding too large");
        d[i] = dilation[i];
        op[i] = output_padding ? output_padding[i] : 0;
    }
    p.dims[6] = pack3(d);
    p.dims[7] = pack3(op);
    p.i[0] = groups;
    p.flags = (bias ? CONV_BIAS : 0) | (transposed ? CONV_TRANSPOSED : 0);
    nn_tensor *in[3] = {x, weight, bias};
    return nn_exec(ctx, NN_OP_CONV, in, bias ? 3 : 2, &p);
}

/* ---- unfold and fold (im2col and col2im of 4-D images) ----
 * unfold: input [N, C, H, W] -> [N, C*kh*kw, L]; fold: the reverse, with
 * the image size in dims[8..]. params: dims[0..1] kernel, dims[2..3]
 * dilation, dims[4..5] padding, dims[6..7] stride, i[0..1] fold's output size. */

static void fold_geom(const nn_node *node, const int64_t *img_hw, const int64_t *col_hw, geom *g) {
    const int64_t *P = node->p.dims;
    int64_t k[2] = {P[0], P[1]}, d[2] = {P[2], P[3]}, p[2] = {P[4], P[5]}, s[2] = {P[6], P[7]};
    geom_set(g, 2, img_hw, col_hw, k, s, p, d);
}

static bool unfold_blocks(nn_ctx *ctx, const nn_params *P, const int64_t *hw, int64_t *blocks) {
    for (int i = 0; i < 2; i++) {
        int64_t num = hw[i] + 2 * P->dims[4 + i] - P->dims[2 + i] * (P->dims[i] - 1) - 1;
        blocks[i] = num >= 0 ? num / P->dims[6 + i] + 1 : 0;
    }
    if (blocks[0] < 1 || blocks[1] < 1) {
        fail(ctx, NN_ERR_RUNTIME,
             "Given input with spatial size (%lld, %lld), kernel_size=(%lld, %lld), "
             "dilation=(%lld, %lld), padding=(%lld, %lld), calculated shape of the array of "
             "sliding blocks as (%lld, %lld), but its components must be at least one.",
             (long long)hw[0], (long long)hw[1], (long long)P->dims[0], (long long)P->dims[1],
             (long long)P->dims[2], (long long)P->dims[3], (long long)P->dims[4],
             (long long)P->dims[5], (long long)blocks[0], (long long)blocks[1]);
        return false;
    }
    return true;
}

nn_tensor *op_unfold_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *xin = node->in[0].t;
    nn_dtype dt = nn_float_dtype(xin->dtype);
    int64_t blocks[2];
    if (!unfold_blocks(ctx, &node->p, xin->shape + 2, blocks)) return NULL;
    geom g;
    fold_geom(node, xin->shape + 2, blocks, &g);
    int64_t N = xin->shape[0], C = xin->shape[1];
    int64_t shape[3] = {N, C * g.K, g.Lc};
    nn_tensor *x = nn_contiguous_as(ctx, xin, dt);
    nn_tensor *out = x ? nn_tensor_empty(ctx, dt, 3, shape) : NULL;
    if (out) {
        size_t es = nn_dtype_size(dt);
        for (int64_t n = 0; n < N; n++)
            im2col(dt == NN_FLOAT64, at(nn_tensor_data(x), n * C * g.Li, es), C, &g,
                   at(nn_tensor_data(out), n * C * g.K * g.Lc, es), g.Lc);
    }
    nn_tensor_release(x);
    return out;
}

nn_status op_unfold_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t;
    nn_dtype dt = nn_float_dtype(dout->dtype);
    int64_t blocks[2];
    if (!unfold_blocks(ctx, &node->p, xin->shape + 2, blocks)) return ctx->err.code;
    geom g;
    fold_geom(node, xin->shape + 2, blocks, &g);
    int64_t N = xin->shape[0], C = xin->shape[1];
    nn_tensor *d = nn_contiguous_as(ctx, dout, dt);
    nn_tensor *dx = d ? nn_zeros(ctx, dt, 4, xin->shape) : NULL;
    if (dx) {
        size_t es = nn_dtype_size(dt);
        for (int64_t n = 0; n < N; n++)
            col2im(dt == NN_FLOAT64, at(nn_tensor_data(d), n * C * g.K * g.Lc, es), g.Lc, C, &g,
                   at(nn_tensor_data(dx), n * C * g.Li, es));
    }
    nn_tensor_release(d);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

nn_tensor *op_fold_forward(nn_ctx *ctx, nn_node *node) {
    nn_tensor *xin = node->in[0].t;
    nn_dtype dt = nn_float_dtype(xin->dtype);
    int64_t hw[2] = {node->p.i[0], node->p.i[1]}, blocks[2];
    if (!unfold_blocks(ctx, &node->p, hw, blocks)) return NULL;
    geom g;
    fold_geom(node, hw, blocks, &g);
    int64_t N = xin->shape[0];
    if (xin->shape[1] % g.K != 0) {
        return fail(ctx, NN_ERR_RUNTIME,
                    "Expected size of input's dimension 1 to be divisible by the product of "
                    "kernel_size, but got input.size(1)=%lld and kernel_size=(%lld, %lld).",
                    (long long)xin->shape[1], (long long)node->p.dims[0],
                    (long long)node->p.dims[1]);
    }
    if (xin->shape[2] != g.Lc) {
        return fail(ctx, NN_ERR_RUNTIME,
                    "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, "
                    "%lld), padding=(%lld, %lld), stride=(%lld, %lld), expected size of input's "
                    "dimension 2 to match the calculated number of sliding blocks %lld * %lld = "
                    "%lld, but got input.size(2)=%lld.",
                    (long long)hw[0], (long long)hw[1], (long long)node->p.dims[0],
                    (long long)node->p.dims[1], (long long)node->p.dims[2],
                    (long long)node->p.dims[3], (long long)node->p.dims[4],
                    (long long)node->p.dims[5], (long long)node->p.dims[6],
                    (long long)node->p.dims[7], (long long)blocks[0], (long long)blocks[1],
                    (long long)g.Lc, (long long)xin->shape[2]);
    }
    int64_t C = xin->shape[1] / g.K;
    int64_t shape[4] = {N, C, hw[0], hw[1]};
    nn_tensor *x = nn_contiguous_as(ctx, xin, dt);
    nn_tensor *out = x ? nn_zeros(ctx, dt, 4, shape) : NULL;
    if (out) {
        size_t es = nn_dtype_size(dt);
        for (int64_t n = 0; n < N; n++)
            col2im(dt == NN_FLOAT64, at(nn_tensor_data(x), n * C * g.K * g.Lc, es), g.Lc, C, &g,
                   at(nn_tensor_data(out), n * C * g.Li, es));
    }
    nn_tensor_release(x);
    return out;
}

nn_status op_fold_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t;
    nn_dtype dt = nn_float_dtype(dout->dtype);
    int64_t hw[2] = {node->p.i[0], node->p.i[1]}, blocks[2];
    if (!unfold_blocks(ctx, &node->p, hw, blocks)) return ctx->err.code;
    geom g;
    fold_geom(node, hw, blocks, &g);
    int64_t N = xin->shape[0], C = xin->shape[1] / g.K;
    nn_tensor *d = nn_contiguous_as(ctx, dout, dt);
    nn_tensor *dx = d ? nn_tensor_empty(ctx, dt, 3, xin->shape) : NULL;
    if (dx) {
        size_t es = nn_dtype_size(dt);
        for (int64_t n = 0; n < N; n++)
            im2col(dt == NN_FLOAT64, at(nn_tensor_data(d), n * C * g.Li, es), C, &g,
                   at(nn_tensor_data(dx), n * C * g.K * g.Lc, es), g.Lc);
    }
    nn_tensor_release(d);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

static nn_tensor *fold_exec(nn_ctx *ctx, nn_op op, nn_tensor *x, const int64_t *out_hw,
                            const int64_t *k, const int64_t *d, const int64_t *p,
                            const int64_t *s) {
    nn_params P;
    memset(&P, 0, sizeof P);
    for (int i = 0; i < 2; i++) {
        if (k[i] <= 0 || d[i] <= 0 || s[i] <= 0 || p[i] < 0)
            return fail(ctx, NN_ERR_RUNTIME,
                        "%s: kernel_size, dilation and stride must be greater than zero and "
                        "padding non-negative, but got kernel_size=(%lld, %lld), "
                        "dilation=(%lld, %lld), padding=(%lld, %lld), stride=(%lld, %lld)",
                        op == NN_OP_UNFOLD ? "im2col" : "col2im", (long long)k[0], (long long)k[1],
                        (long long)d[0], (long long)d[1], (long long)p[0], (long long)p[1],
                        (long long)s[0], (long long)s[1]);
        P.dims[i] = k[i];
        P.dims[2 + i] = d[i];
        P.dims[4 + i] = p[i];
        P.dims[6 + i] = s[i];
        if (out_hw) P.i[i] = out_hw[i];
    }
    return nn_exec(ctx, op, &x, 1, &P);
}

nn_tensor *nn_unfold(nn_ctx *ctx, nn_tensor *x, const int64_t *k, const int64_t *d,
                     const int64_t *p, const int64_t *s) {
    if (x->ndim != 4)
        return fail(ctx, NN_ERR_RUNTIME, "unfold: expected a 4-D input, got %d-D", x->ndim);
    return fold_exec(ctx, NN_OP_UNFOLD, x, NULL, k, d, p, s);
}

nn_tensor *nn_fold(nn_ctx *ctx, nn_tensor *x, const int64_t *out_hw, const int64_t *k,
                   const int64_t *d, const int64_t *p, const int64_t *s) {
    if (x->ndim != 3)
        return fail(ctx, NN_ERR_RUNTIME, "fold: expected a 3-D input, got %d-D", x->ndim);
    return fold_exec(ctx, NN_OP_FOLD, x, out_hw, k, d, p, s);
}

/* ---- pooling ----
 * params: dims[0..2] kernel (adaptive: output size), dims[3..5] stride,
 * dims[6] padding (packed), dims[7] dilation (packed), i[0] the address of
 * an nn_tensor* that receives the indices (max pooling, or 0), f[0]
 * divisor_override (with POOL_DIVISOR); flags POOL_*. saved[0]: max pooling's indices. */

enum { POOL_CEIL = 1, POOL_INCLUDE_PAD = 2, POOL_ADAPTIVE = 4, POOL_DIVISOR = 8 };

typedef struct pool_geom {
    int nsp;
    int64_t I[3], O[3], k[3], s[3], p[3], d[3];
    int64_t Li, Lo, planes;
    bool adaptive, include_pad, has_divisor;
    double divisor;
} pool_geom;

static int64_t pool_out_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil,
                             bool ceil_mode) {
    int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
    int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
    if (ceil_mode && (out - 1) * stride >= in + pad) out--;
    return out;
}

/* The geometry of a pooling node, checked in PyTorch's words. */
static bool pool_geom_of(nn_ctx *ctx, const nn_node *node, bool is_max, pool_geom *pg) {
    const nn_tensor *x = node->in[0].t;
    const nn_params *P = &node->p;
    int nsp = x->ndim - 2;
    int64_t pad[3], dil[3];
    unpack3(P->dims[6], pad);
    unpack3(P->dims[7], dil);
    pg->nsp = nsp;
    pg->adaptive = P->flags & POOL_ADAPTIVE;
    pg->include_pad = P->flags & POOL_INCLUDE_PAD;
    pg->divisor = P->f[0];
    pg->has_divisor = P->flags & POOL_DIVISOR;
    pg->planes = x->shape[0] * x->shape[1];
    int64_t in[3], out[3];
    for (int i = 0; i < nsp; i++) in[i] = x->shape[2 + i];
    if (pg->adaptive) {
        for (int i = 0; i < nsp; i++) out[i] = P->dims[i];
    } else {
        for (int i = 0; i < nsp; i++) {
            int64_t k = P->dims[i], s = P->dims[3 + i];
            if (k <= 0) {
                fail(ctx, NN_ERR_RUNTIME,
                     "kernel size should be greater than zero, but got "
                     "kernel size %lld",
                     (long long)k);
                return false;
            }
            if (s <= 0) {
                fail(ctx, NN_ERR_RUNTIME, "stride should be greater than zero, but got stride %lld",
                     (long long)s);
                return false;
            }
            if (dil[i] <= 0) {
                fail(ctx, NN_ERR_RUNTIME,
                     "dilation should be greater than zero, but got "
                     "dilation %lld",
                     (long long)dil[i]);
                return false;
            }
            if (pad[i] > k / 2) {
                fail(ctx, NN_ERR_RUNTIME,
                     "pad should be at most half of kernel size, but got pad=%lld and "
                     "kernel_size=%lld",
                     (long long)pad[i], (long long)k);
                return false;
            }
            out[i] = pool_out_size(in[i], k, pad[i], s, dil[i], P->flags & POOL_CEIL);
        }
        bool small = false;
        for (int i = 0; i < nsp; i++)
            if (out[i] < 1) small = true;
        if (small) {
            char a[96], b[96];
            int an = snprintf(a, sizeof a, "%lld", (long long)x->shape[1]);
            int bn = snprintf(b, sizeof b, "%lld", (long long)x->shape[1]);
            for (int i = 0; i < nsp; i++) {
                an += snprintf(a + an, sizeof a - (size_t)an, "x%lld", (long long)in[i]);
                bn += snprintf(b + bn, sizeof b - (size_t)bn, "x%lld", (long long)out[i]);
            }
            fail(ctx, NN_ERR_RUNTIME,
                 "Given input size: (%s). Calculated output size: (%s). Output size is too small",
                 a, b);
            return false;
        }
    }
    for (int i = 0; i < 3; i++) {
        int j = i - (3 - nsp);
        pg->I[i] = j >= 0 ? in[j] : 1;
        pg->O[i] = j >= 0 ? out[j] : 1;
        pg->k[i] = j >= 0 && !pg->adaptive ? P->dims[j] : 1;
        pg->s[i] = j >= 0 && !pg->adaptive ? P->dims[3 + j] : 1;
        pg->p[i] = j >= 0 && !pg->adaptive ? pad[j] : 0;
        pg->d[i] = j >= 0 && !pg->adaptive && is_max ? dil[j] : 1;
    }
    pg->Li = pg->I[0] * pg->I[1] * pg->I[2];
    pg->Lo = pg->O[0] * pg->O[1] * pg->O[2];
    return true;
}

/* The taps of output position [o] along dim [i]: first index, count, step
 * (only taps inside the input); for average pooling also the window size the
 * divisor counts with padding. */
typedef struct taps {
    int64_t start, n, step, padded;
} taps;

static taps taps_of(const pool_geom *pg, int i, int64_t o, bool is_max) {
    taps t;
    int64_t I = pg->I[i];
    if (pg->adaptive) {
        int64_t O = pg->O[i];
        t.start = (o * I) / O;
        int64_t end = ((o + 1) * I + O - 1) / O;
        t.n = end - t.start;
        t.step = 1;
        t.padded = t.n;
        return t;
    }
    int64_t k = pg->k[i], s = pg->s[i], p = pg->p[i], d = pg->d[i];
    int64_t start = o * s - p;
    if (is_max) {
        int64_t end = start + (k - 1) * d + 1;
        while (start < 0) start += d;
        if (end > I) end = I;
        t.start = start;
        t.n = end > start ? (end - start + d - 1) / d : 0;
        t.step = d;
        t.padded = t.n;
        return t;
    }
    int64_t end = start + k < I + p ? start + k : I + p;
    t.padded = end - start;
    if (start < 0) start = 0;
    if (end > I) end = I;
    t.start = start;
    t.n = end > start ? end - start : 0;
    t.step = 1;
    return t;
}

/* The taps of every output index along each dim, computed once per call
 * (not once per output and plane) when the output is at most TAP_CACHE wide
 * in every dim; false when it is wider (then each output computes its own). */
#define TAP_CACHE 256

static bool pool_tap_cache(const pool_geom *pg, bool is_max, taps cache[3][TAP_CACHE]) {
    for (int i = 0; i < 3; i++)
        if (pg->O[i] > TAP_CACHE) return false;
    for (int i = 0; i < 3; i++)
        for (int64_t o = 0; o < pg->O[i]; o++) cache[i][o] = taps_of(pg, i, o, is_max);
    return true;
}

/* A plain 2-D 2x2/stride-2 max pooling whose windows all lie inside. */
static bool pool_is_2x2(const pool_geom *pg) {
    return !pg->adaptive && pg->O[0] == 1 && pg->I[0] == 1 && pg->k[1] == 2 && pg->k[2] == 2 &&
           pg->s[1] == 2 && pg->s[2] == 2 && pg->p[1] == 0 && pg->p[2] == 0 && pg->d[1] == 1 &&
           pg->d[2] == 1 && 2 * pg->O[1] <= pg->I[1] && 2 * pg->O[2] <= pg->I[2];
}

/* The same for average pooling, whose divisor also counts a depth window
 * over padding (a 3-D pooling of a depth-1 input). */
static bool avg_is_2x2(const pool_geom *pg) {
    return pool_is_2x2(pg) && pg->k[0] == 1 && pg->p[0] == 0;
}

#define DEF_POOL(T, SUF)                                                                           \
    /* 2x2 windows, stride 2, no padding or dilation (the common case): the                        \
     * same scan order and NaN rule as the general loop. */                                        \
    static void max_pool_2x2_##SUF(const T *x, T *y, int64_t *ind, uint8_t *q8,                    \
                                   const pool_geom *pg) {                                          \
        const int64_t I2 = pg->I[2], O1 = pg->O[1], O2 = pg->O[2];                                 \
        for (int64_t pl = 0; pl < pg->planes; pl++) {                                              \
            const T *xp = x + pl * pg->Li;                                                         \
            T *yp = y + pl * pg->Lo;                                                               \
            int64_t *ip = ind ? ind + pl * pg->Lo : NULL;                                          \
            uint8_t *qp = q8 ? q8 + pl * pg->Lo : NULL;                                            \
            for (int64_t oh = 0; oh < O1; oh++) {                                                  \
                const T *r0 = xp + 2 * oh * I2, *r1 = r0 + I2;                                     \
                for (int64_t ow = 0; ow < O2; ow++) {                                              \
                    T v[4] = {r0[2 * ow], r0[2 * ow + 1], r1[2 * ow], r1[2 * ow + 1]};             \
                    int64_t at[4] = {2 * oh * I2 + 2 * ow, 2 * oh * I2 + 2 * ow + 1,               \
                                     (2 * oh + 1) * I2 + 2 * ow, (2 * oh + 1) * I2 + 2 * ow + 1};  \
                    T m = -INFINITY;                                                               \
                    int best = 0;                                                                  \
                    for (int q = 0; q < 4; q++)                                                    \
                        if (v[q] > m || isnan(v[q])) {                                             \
                            m = v[q];                                                              \
                            best = q;                                                              \
                            if (isnan(v[q])) break;                                                \
                        }                                                                          \
                    yp[oh * O2 + ow] = m;                                                          \
                    if (ip) ip[oh * O2 + ow] = at[best];                                           \
                    if (qp) qp[oh * O2 + ow] = (uint8_t)best;                                      \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* Its backward from the window offsets [q8] (0..3, row-major in the                           \
     * window): dx written whole, g at each maximum, 0 elsewhere and in the                        \
     * rows and columns no window covers. */                                                       \
    static void max_pool_2x2_bwd_##SUF(const uint8_t *q8, const T *g, T *dx,                       \
                                       const pool_geom *pg) {                                      \
        const int64_t I2 = pg->I[2], O1 = pg->O[1], O2 = pg->O[2];                                 \
        memset(dx, 0, (size_t)(pg->planes * pg->Li) * sizeof(T));                                  \
        for (int64_t pl = 0; pl < pg->planes; pl++) {                                              \
            const uint8_t *qp = q8 + pl * pg->Lo;                                                  \
            const T *gp = g + pl * pg->Lo;                                                         \
            T *dp = dx + pl * pg->Li;                                                              \
            for (int64_t oh = 0; oh < O1; oh++)                                                    \
                for (int64_t ow = 0; ow < O2; ow++) {                                              \
                    int q = qp[oh * O2 + ow];                                                      \
                    dp[(2 * oh + (q >> 1)) * I2 + 2 * ow + (q & 1)] = gp[oh * O2 + ow];            \
                }                                                                                  \
        }                                                                                          \
    }                                                                                              \
    static void max_pool_##SUF(const T *x, T *y, int64_t *ind, const pool_geom *pg) {              \
        if (pool_is_2x2(pg)) {                                                                     \
            max_pool_2x2_##SUF(x, y, ind, NULL, pg);                                               \
            return;                                                                                \
        }                                                                                          \
        taps tc_[3][TAP_CACHE];                                                                    \
        bool cached_ = pool_tap_cache(pg, true, tc_);                                              \
        for (int64_t pl = 0; pl < pg->planes; pl++) {                                              \
            const T *xp = x + pl * pg->Li;                                                         \
            T *yp = y + pl * pg->Lo;                                                               \
            int64_t *ip = ind ? ind + pl * pg->Lo : NULL;                                          \
            int64_t o = 0;                                                                         \
            for (int64_t od = 0; od < pg->O[0]; od++) {                                            \
                taps td = cached_ ? tc_[0][od] : taps_of(pg, 0, od, true);                         \
                for (int64_t oh = 0; oh < pg->O[1]; oh++) {                                        \
                    taps th = cached_ ? tc_[1][oh] : taps_of(pg, 1, oh, true);                     \
                    for (int64_t ow = 0; ow < pg->O[2]; ow++, o++) {                               \
                        taps tw = cached_ ? tc_[2][ow] : taps_of(pg, 2, ow, true);                 \
                        int64_t best = (td.start * pg->I[1] + th.start) * pg->I[2] + tw.start;     \
                        T m = -INFINITY;                                                           \
                        for (int64_t a = 0; a < td.n; a++) {                                       \
                            int64_t id = td.start + a * td.step;                                   \
                            for (int64_t b = 0; b < th.n; b++) {                                   \
                                int64_t rowi =                                                     \
                                    (id * pg->I[1] + th.start + b * th.step) * pg->I[2];           \
                                const T *row = xp + rowi;                                          \
                                for (int64_t c = 0; c < tw.n; c++) {                               \
                                    int64_t iw = tw.start + c * tw.step;                           \
                                    T v = row[iw];                                                 \
                                    if (v > m || isnan(v)) {                                       \
                                        m = v;                                                     \
                                        best = rowi + iw;                                          \
                                        if (isnan(v)) goto done_##SUF;                             \
                                    }                                                              \
                                }                                                                  \
                            }                                                                      \
                        }                                                                          \
                        done_##SUF : yp[o] = m;                                                    \
                        if (ip) ip[o] = best;                                                      \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* Average pooling forward over 2x2 windows, stride 2, all inside (the                         \
     * common case): the general loop's additions in its order (from 0, the                        \
     * top row then the bottom one) and its division, in a loop that                               \
     * vectorises, compiled per ISA level. */                                                      \
    NN_KERNEL_CLONES static void avg_pool_2x2_##SUF(const T *x, T *y, const pool_geom *pg) {       \
        const int64_t I1 = pg->I[1], I2 = pg->I[2], O1 = pg->O[1], O2 = pg->O[2];                  \
        const double div = pg->has_divisor ? pg->divisor : 4.0;                                    \
        for (int64_t pl = 0; pl < pg->planes; pl++)                                                \
            for (int64_t oh = 0; oh < O1; oh++) {                                                  \
                const T *r0 = x + (pl * I1 + 2 * oh) * I2, *r1 = r0 + I2;                          \
                T *yr = y + (pl * O1 + oh) * O2;                                                   \
                for (int64_t ow = 0; ow < O2; ow++) {                                              \
                    T acc = 0;                                                                     \
                    acc += r0[2 * ow];                                                             \
                    acc += r0[2 * ow + 1];                                                         \
                    acc += r1[2 * ow];                                                             \
                    acc += r1[2 * ow + 1];                                                         \
                    yr[ow] = (T)(acc / div);                                                       \
                }                                                                                  \
            }                                                                                      \
    }                                                                                              \
    /* Average pooling forward (y written) or backward (dx += dy / divisor). */                    \
    static void avg_pool_##SUF(const T *x, T *y, const pool_geom *pg, bool backward) {             \
        taps tc_[3][TAP_CACHE];                                                                    \
        bool cached_ = pool_tap_cache(pg, false, tc_);                                             \
        for (int64_t pl = 0; pl < pg->planes; pl++) {                                              \
            const T *xp = x + pl * (backward ? pg->Lo : pg->Li);                                   \
            T *yp = y + pl * (backward ? pg->Li : pg->Lo);                                         \
            int64_t o = 0;                                                                         \
            for (int64_t od = 0; od < pg->O[0]; od++) {                                            \
                taps td = cached_ ? tc_[0][od] : taps_of(pg, 0, od, false);                        \
                for (int64_t oh = 0; oh < pg->O[1]; oh++) {                                        \
                    taps th = cached_ ? tc_[1][oh] : taps_of(pg, 1, oh, false);                    \
                    for (int64_t ow = 0; ow < pg->O[2]; ow++, o++) {                               \
                        taps tw = cached_ ? tc_[2][ow] : taps_of(pg, 2, ow, false);                \
                        double div = pg->has_divisor ? pg->divisor                                 \
                                     : pg->include_pad && !pg->adaptive                            \
                                         ? (double)(td.padded * th.padded * tw.padded)             \
                                         : (double)(td.n * th.n * tw.n);                           \
                        if (backward) {                                                            \
                            T gv = (T)(xp[o] / div);                                               \
                            for (int64_t a = 0; a < td.n; a++)                                     \
                                for (int64_t b = 0; b < th.n; b++) {                               \
                                    T *row =                                                       \
                                        yp +                                                       \
                                        ((td.start + a) * pg->I[1] + th.start + b) * pg->I[2] +    \
                                        tw.start;                                                  \
                                    for (int64_t c = 0; c < tw.n; c++) row[c] += gv;               \
                                }                                                                  \
                            continue;                                                              \
                        }                                                                          \
                        T acc = 0;                                                                 \
                        for (int64_t a = 0; a < td.n; a++)                                         \
                            for (int64_t b = 0; b < th.n; b++) {                                   \
                                const T *row =                                                     \
                                    xp + ((td.start + a) * pg->I[1] + th.start + b) * pg->I[2] +   \
                                    tw.start;                                                      \
                                for (int64_t c = 0; c < tw.n; c++) acc += row[c];                  \
                            }                                                                      \
                        yp[o] = (T)(acc / div);                                                    \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }

DEF_POOL(float, f32)
DEF_POOL(double, f64)

/* ---- pooling over the engine's threads ----
 * Planes are independent (a max pooling's indices and its backward's
 * scatter stay within a plane), so the planes are shared out between the
 * engine's threads, each running the kernel on its range: the same bits
 * at any thread count. */
enum { POOL_MAX_FWD, POOL_MAX_BWD, POOL_AVG_FWD, POOL_AVG_BWD };

typedef struct pool_run {
    int kind;
    bool f64;
    const void *x; /* the kernel's input: the image, or the output gradient */
    void *y;
    int64_t *ind;
    const pool_geom *pg;
    uint8_t *q8; /* 2x2 max pooling: window offsets in place of [ind] */
} pool_run;

static void pool_task(void *arg, int t, int T) {
    const pool_run *r = arg;
    pool_geom g = *r->pg;
    int64_t b, e;
    nn_parallel_range(g.planes, t, T, 1, &b, &e);
    g.planes = e - b;
    const size_t es = r->f64 ? sizeof(double) : sizeof(float);
    bool grad = r->kind == POOL_MAX_BWD || r->kind == POOL_AVG_BWD;
    const int64_t in = grad ? g.Lo : g.Li, out = grad ? g.Li : g.Lo;
    const void *x = at((void *)r->x, b * in, es);
    void *y = at(r->y, b * out, es);
    int64_t *ind = r->ind ? r->ind + b * g.Lo : NULL;
    uint8_t *q8 = r->q8 ? r->q8 + b * g.Lo : NULL;
    switch (r->kind) {
    case POOL_MAX_FWD:
        if (q8 && r->f64)
            max_pool_2x2_f64(x, y, NULL, q8, &g);
        else if (q8)
            max_pool_2x2_f32(x, y, NULL, q8, &g);
        else if (r->f64)
            max_pool_f64(x, y, ind, &g);
        else
            max_pool_f32(x, y, ind, &g);
        break;
    case POOL_MAX_BWD: /* dx is not zeroed: each task clears its own planes */
        if (q8) {
            if (r->f64)
                max_pool_2x2_bwd_f64(q8, x, y, &g);
            else
                max_pool_2x2_bwd_f32(q8, x, y, &g);
            break;
        }
        memset(y, 0, (size_t)(g.planes * g.Li) * es);
        for (int64_t pl = 0; pl < g.planes; pl++) {
            const int64_t *ii = ind + pl * g.Lo;
            if (r->f64) {
                double *d = (double *)y + pl * g.Li;
                const double *gg = (const double *)x + pl * g.Lo;
                for (int64_t o = 0; o < g.Lo; o++) d[ii[o]] += gg[o];
            } else {
                float *d = (float *)y + pl * g.Li;
                const float *gg = (const float *)x + pl * g.Lo;
                for (int64_t o = 0; o < g.Lo; o++) d[ii[o]] += gg[o];
            }
        }
        break;
    default:
        if (!grad && avg_is_2x2(&g) && r->f64)
            avg_pool_2x2_f64(x, y, &g);
        else if (!grad && avg_is_2x2(&g))
            avg_pool_2x2_f32(x, y, &g);
        else if (r->f64)
            avg_pool_f64(x, y, &g, grad);
        else
            avg_pool_f32(x, y, &g, grad);
        break;
    }
}

static void pool_go_q8(int kind, bool f64, const void *x, void *y, int64_t *ind, uint8_t *q8,
                       const pool_geom *pg) {
    pool_run r = {kind, f64, x, y, ind, pg, q8};
    int T =
        nn_parallel_tasks(pg->planes * (pg->Li > pg->Lo ? pg->Li : pg->Lo), NN_PAR_MIN_ELEMWISE);
    if (T > pg->planes) T = (int)pg->planes;
    if (T <= 1)
        pool_task(&r, 0, 1);
    else
        nn_parallel_run(T, pool_task, &r);
}

static void pool_go(int kind, bool f64, const void *x, void *y, int64_t *ind, const pool_geom *pg) {
    pool_go_q8(kind, f64, x, y, ind, NULL, pg);
}

static bool pool_dtype_ok(nn_ctx *ctx, const nn_tensor *x, const char *what) {
    if (x->dtype == NN_FLOAT32 || x->dtype == NN_FLOAT64) return true;
    fail(ctx, NN_ERR_RUNTIME, "\"%s\" not implemented for '%s'", what, dtype_word(x->dtype));
    return false;
}

static void pool_out_shape(const nn_tensor *x, const pool_geom *pg, int64_t *shape) {
    shape[0] = x->shape[0];
    shape[1] = x->shape[1];
    for (int i = 0; i < pg->nsp; i++) shape[2 + i] = pg->O[3 - pg->nsp + i];
}

nn_tensor *op_max_pool_forward(nn_ctx *ctx, nn_node *node) {
    pool_geom pg;
    nn_tensor *xin = node->in[0].t;
    if (!pool_dtype_ok(ctx, xin, "max_pool2d") || !pool_geom_of(ctx, node, true, &pg)) return NULL;
    int64_t shape[NN_MAX_DIMS];
    pool_out_shape(xin, &pg, shape);
    nn_tensor **slot = (nn_tensor **)(intptr_t)node->p.i[0];
    /* For its backward a recorded 2x2 pooling saves each maximum's offset in
     * its window (one byte) instead of an int64 index (PyTorch's), unless the
     * caller asked for the indices (return_indices). */
    bool q8 = node->recorded && !slot && pool_is_2x2(&pg);
    bool want = (node->recorded || slot) && !q8;
    nn_tensor *x = nn_contiguous_as(ctx, xin, xin->dtype);
    nn_tensor *out = x ? nn_tensor_empty(ctx, xin->dtype, xin->ndim, shape) : NULL;
    nn_tensor *ind = !out   ? NULL
                     : q8   ? nn_tensor_empty(ctx, NN_UINT8, xin->ndim, shape)
                     : want ? nn_tensor_empty(ctx, NN_INT64, xin->ndim, shape)
                            : NULL;
    if (!out || ((want || q8) && !ind)) {
        nn_tensor_release(x);
        nn_tensor_release(out);
        return NULL;
    }
    pool_go_q8(POOL_MAX_FWD, xin->dtype == NN_FLOAT64, nn_tensor_data(x), nn_tensor_data(out),
               want ? nn_tensor_data(ind) : NULL, q8 ? nn_tensor_data(ind) : NULL, &pg);
    nn_tensor_release(x);
    if (slot) *slot = nn_tensor_retain(ind);
    if (node->recorded)
        node->saved[0] = ind;
    else
        nn_tensor_release(ind);
    return out;
}

nn_status op_max_pool_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t, *ind = node->saved[0];
    pool_geom pg;
    if (!pool_geom_of(ctx, node, true, &pg)) return ctx->err.code;
    bool q8 = ind->dtype == NN_UINT8;
    nn_tensor *g = nn_contiguous_as(ctx, dout, xin->dtype);
    nn_tensor *dx = g ? nn_tensor_empty(ctx, xin->dtype, xin->ndim, xin->shape) : NULL;
    if (dx)
        pool_go_q8(POOL_MAX_BWD, xin->dtype == NN_FLOAT64, nn_tensor_data(g), nn_tensor_data(dx),
                   q8 ? NULL : nn_tensor_data(ind), q8 ? nn_tensor_data(ind) : NULL, &pg);
    nn_tensor_release(g);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

nn_tensor *nn_max_pool_node_indices(nn_ctx *ctx, nn_node *node) {
    nn_tensor *ind = node->op == NN_OP_MAX_POOL ? node->saved[0] : NULL;
    if (!ind) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "not a max_pool node with its indices");
        return NULL;
    }
    if (ind->dtype == NN_INT64) return nn_tensor_retain(ind);
    pool_geom pg; /* window offsets of a 2x2 pooling: the indices in each plane */
    if (!pool_geom_of(ctx, node, true, &pg)) return NULL;
    nn_tensor *r = nn_tensor_empty(ctx, NN_INT64, ind->ndim, ind->shape);
    if (!r) return NULL;
    const uint8_t *q = nn_tensor_data(ind);
    int64_t *o = nn_tensor_data(r);
    const int64_t I2 = pg.I[2], O1 = pg.O[1], O2 = pg.O[2];
    for (int64_t pl = 0; pl < pg.planes; pl++)
        for (int64_t oh = 0; oh < O1; oh++)
            for (int64_t ow = 0; ow < O2; ow++, q++, o++)
                *o = (2 * oh + (*q >> 1)) * I2 + 2 * ow + (*q & 1);
    return r;
}

nn_tensor *op_avg_pool_forward(nn_ctx *ctx, nn_node *node) {
    pool_geom pg;
    nn_tensor *xin = node->in[0].t;
    if (!pool_dtype_ok(ctx, xin, "avg_pool2d") || !pool_geom_of(ctx, node, false, &pg)) return NULL;
    int64_t shape[NN_MAX_DIMS];
    pool_out_shape(xin, &pg, shape);
    nn_tensor *x = nn_contiguous_as(ctx, xin, xin->dtype);
    nn_tensor *out = x ? nn_tensor_empty(ctx, xin->dtype, xin->ndim, shape) : NULL;
    if (out)
        pool_go(POOL_AVG_FWD, xin->dtype == NN_FLOAT64, nn_tensor_data(x), nn_tensor_data(out),
                NULL, &pg);
    nn_tensor_release(x);
    return out;
}

nn_status op_avg_pool_backward(nn_ctx *ctx, nn_node *node, nn_tensor *dout, nn_tensor **din) {
    nn_tensor *xin = node->in[0].t;
    pool_geom pg;
    if (!pool_geom_of(ctx, node, false, &pg)) return ctx->err.code;
    nn_tensor *g = nn_contiguous_as(ctx, dout, xin->dtype);
    nn_tensor *dx = g ? nn_zeros(ctx, xin->dtype, xin->ndim, xin->shape) : NULL;
    if (dx)
        pool_go(POOL_AVG_BWD, xin->dtype == NN_FLOAT64, nn_tensor_data(g), nn_tensor_data(dx), NULL,
                &pg);
    nn_tensor_release(g);
    din[0] = dx;
    return dx ? NN_OK : ctx->err.code;
}

nn_tensor *nn_pool(nn_ctx *ctx, nn_tensor *x, bool is_max, bool adaptive, const int64_t *kernel,
                   const int64_t *stride, const int64_t *padding, const int64_t *dilation,
                   bool ceil_mode, bool count_include_pad, double divisor_override,
                   nn_tensor **indices) {
    if (x->ndim < 3 || x->ndim > 5)
        return fail(ctx, NN_ERR_RUNTIME,
                    "pooling: expected a batched 3-D, 4-D or 5-D input, got "
                    "%d-D",
                    x->ndim);
    int nsp = x->ndim - 2;
    nn_params p;
    memset(&p, 0, sizeof p);
    int64_t pad[3] = {0, 0, 0}, dil[3] = {1, 1, 1};
    for (int i = 0; i < nsp; i++) {
        p.dims[i] = kernel[i];
        if (kernel[i] < 0 || kernel[i] > 0x1fffff)
            return fail(ctx, NN_ERR_RUNTIME, "pooling: bad %s %lld",
                        adaptive ? "output size" : "kernel size", (long long)kernel[i]);
        if (!adaptive) {
            p.dims[3 + i] = stride[i];
            if (padding[i] < 0)
                return fail(ctx, NN_ERR_RUNTIME, "pad must be non-negative, but got pad: %lld",
                            (long long)padding[i]);
            if (padding[i] > 0x1fffff || (dilation && dilation[i] > 0x1fffff))
                return fail(ctx, NN_ERR_VALUE, "pooling: padding or dilation too large");
            pad[i] = padding[i];
            dil[i] = dilation ? dilation[i] : 1;
        }
    }
    p.dims[6] = pack3(pad);
    p.dims[7] = pack3(dil);
    p.i[0] = (int64_t)(intptr_t)indices;
    p.f[0] = divisor_override;
    p.flags = (ceil_mode ? POOL_CEIL : 0) | (count_include_pad ? POOL_INCLUDE_PAD : 0) |
              (adaptive ? POOL_ADAPTIVE : 0) | (divisor_override != 0 ? POOL_DIVISOR : 0);
    if (indices) *indices = NULL;
    return nn_exec(ctx, is_max ? NN_OP_MAX_POOL : NN_OP_AVG_POOL, &x, 1, &p);
}
