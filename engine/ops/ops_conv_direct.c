/* ops_conv_direct: direct convolution kernels (see ops_conv_direct.h). */
#include "ops_conv_direct.h"

#include <string.h>

#include "nn_mem.h"
#include "nn_ops_impl.h"
#include "nn_thread.h"

/* 32-byte vector values between inlined helpers: no ABI crosses a call. */
#pragma GCC diagnostic ignored "-Wpsabi"

#define DIRECT_MAX_K        512       /* kernel taps */
#define DIRECT_MAX_Q        1024      /* channel x tap products per output (tables on the stack) */
#define DIRECT_MAX_IMG_CH   16        /* image channels per group ("small channel counts") */
#define DIRECT_MAX_COL_CH   64        /* column channels per group */
#define DIRECT_MAX_PLANE    (1 << 14) /* elements of one padded plane */
#define DIRECT_MIN_PER_TASK (1 << 17) /* multiply-adds per thread before splitting samples */
#define DIRECT_WG_SLICES                                                                           \
    8 /* weight gradient: fixed batch slices (same bits at any thread count)                       \
       */

/* The shared geometry: padded plane sizes, the wide length, the offset of
 * every (channel, tap) product in the source it reads. */
typedef struct dgeo {
    int64_t P[3], Pt; /* padded image dims, their product (the plane pitch) */
    int64_t Lw;       /* wide length: last output position + 1 */
    int64_t Cig, Ccg, K, R, Li, Lc;
    int64_t reach;  /* the largest tap offset */
    int64_t cwp;    /* pitch of one wide column plane with its zero margin */
    int64_t ib, ie; /* the image interior within a padded plane: [ib, ie) */
    bool padded;
    int64_t fwd[DIRECT_MAX_Q]; /* q = (c, t): c * Pt + off(t) into the padded image */
    int64_t adj[DIRECT_MAX_Q]; /* q = (r, t): r * cwp - off(t) into the wide columns */
} dgeo;

static void dgeo_set(const nn_conv_direct *c, dgeo *g) {
    g->padded = false;
    for (int i = 0; i < 3; i++) {
        g->P[i] = c->isz[i] + 2 * c->p[i];
        if (c->p[i]) g->padded = true;
    }
    g->Pt = g->P[0] * g->P[1] * g->P[2];
    g->Lw = (c->csz[0] - 1) * g->P[1] * g->P[2] + (c->csz[1] - 1) * g->P[2] + c->csz[2];
    g->Cig = c->Ci / c->G;
    g->Ccg = c->Cc / c->G;
    g->K = c->k[0] * c->k[1] * c->k[2];
    g->R = g->Cig * g->K;
    g->Li = c->isz[0] * c->isz[1] * c->isz[2];
    g->Lc = c->csz[0] * c->csz[1] * c->csz[2];
    g->ib = (c->p[0] * g->P[1] + c->p[1]) * g->P[2] + c->p[2];
    g->ie = ((c->p[0] + c->isz[0] - 1) * g->P[1] + c->p[1] + c->isz[1] - 1) * g->P[2] + c->p[2] +
            c->isz[2];
    int64_t off[DIRECT_MAX_K], t = 0;
    for (int64_t a = 0; a < c->k[0]; a++)
        for (int64_t b = 0; b < c->k[1]; b++)
            for (int64_t e = 0; e < c->k[2]; e++)
                off[t++] = a * c->d[0] * g->P[1] * g->P[2] + b * c->d[1] * g->P[2] + e * c->d[2];
    g->reach = off[g->K - 1];
    g->cwp = g->reach + g->Pt;
    for (int64_t ch = 0; ch < g->Cig; ch++)
        for (t = 0; t < g->K; t++) g->fwd[ch * g->K + t] = ch * g->Pt + off[t];
    for (int64_t r = 0; r < g->Ccg; r++)
        for (t = 0; t < g->K; t++) g->adj[r * g->K + t] = r * g->cwp - off[t];
}

bool nn_conv_direct_applies(const nn_conv_direct *c) {
    int64_t K = c->k[0] * c->k[1] * c->k[2], Pt = 1, Lc = 1;
    for (int i = 0; i < 3; i++) {
        Pt *= c->isz[i] + 2 * c->p[i];
        Lc *= c->csz[i];
    }
    int64_t Cig = c->Ci / c->G, Ccg = c->Cc / c->G;
    /* A 1x1 kernel is a plain GEMM (ops_conv.c's identity path) and one
     * image channel per group has the depthwise kernel; neither needs this. */
    if (K <= 1 || K > DIRECT_MAX_K || (Cig == 1 && c->G > 1)) return false;
    if (Cig > DIRECT_MAX_IMG_CH || Ccg > DIRECT_MAX_COL_CH || Pt > DIRECT_MAX_PLANE) return false;
    if (Cig * K > DIRECT_MAX_Q || Ccg * K > DIRECT_MAX_Q) return false;
    /* The wide layout computes about Pt positions for Lc useful ones: skip
     * shapes where the padding and the kernel's reach waste most of it. */
    return Lc * 2 >= Pt;
}

/* ---- inner loops, inlined (always_inline) into the per-sample functions
 * below, which are compiled per ISA level (NN_KERNEL_CLONES). Vectors are
 * GCC's vector extensions of 32 bytes (one AVX register, two SSE ones);
 * multiplies and adds stay separate (ISO C, no contraction), so every
 * result is a fixed sum order for a given shape and thread count. ---- */

#define AI static inline __attribute__((always_inline))

#define DEF_DIRECT(T, SUF)                                                                         \
    AI V##SUF load_##SUF(const T *p) {                                                             \
        V##SUF v;                                                                                  \
        memcpy(&v, p, sizeof v);                                                                   \
        return v;                                                                                  \
    }                                                                                              \
    AI void store_##SUF(T *p, V##SUF v) {                                                          \
        memcpy(p, &v, sizeof v);                                                                   \
    }                                                                                              \
    /* o_j[p] = sum_q w_j[q] * src[ofs[q] + p] for p in [b, e), j < 4: the                         \
     * accumulators of 2 vectors x 4 rows stay in registers over all q. The                        \
     * last chunk is moved back to end at e (recomputing a few positions                           \
     * with the same bits), so nothing is read past e + max(ofs). */                               \
    AI void block4_##SUF(int64_t nq, const int64_t *ofs, const T *w0, const T *w1, const T *w2,    \
                         const T *w3, const T *src, int64_t b, int64_t e, T *o0, T *o1, T *o2,     \
                         T *o3) {                                                                  \
        const int64_t L = (int64_t)(sizeof(V##SUF) / sizeof(T));                                   \
        if (e - b < 2 * L) {                                                                       \
            for (int64_t p = b; p < e; p++) {                                                      \
                T s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                  \
                for (int64_t q = 0; q < nq; q++) {                                                 \
                    T v = src[ofs[q] + p];                                                         \
                    s0 += w0[q] * v, s1 += w1[q] * v, s2 += w2[q] * v, s3 += w3[q] * v;            \
                }                                                                                  \
                o0[p] = s0, o1[p] = s1, o2[p] = s2, o3[p] = s3;                                    \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t p = b;; p += 2 * L) {                                                         \
            if (p + 2 * L > e) p = e - 2 * L;                                                      \
            V##SUF a0 = {0}, a1 = {0}, b0 = {0}, b1 = {0}, c0 = {0}, c1 = {0}, d0 = {0}, d1 = {0}; \
            for (int64_t q = 0; q < nq; q++) {                                                     \
                const T *x = src + ofs[q] + p;                                                     \
                V##SUF x0 = load_##SUF(x), x1 = load_##SUF(x + L), w;                              \
                w = (V##SUF){0} + w0[q];                                                           \
                a0 += w * x0, a1 += w * x1;                                                        \
                w = (V##SUF){0} + w1[q];                                                           \
                b0 += w * x0, b1 += w * x1;                                                        \
                w = (V##SUF){0} + w2[q];                                                           \
                c0 += w * x0, c1 += w * x1;                                                        \
                w = (V##SUF){0} + w3[q];                                                           \
                d0 += w * x0, d1 += w * x1;                                                        \
            }                                                                                      \
            store_##SUF(o0 + p, a0), store_##SUF(o0 + p + L, a1);                                  \
            store_##SUF(o1 + p, b0), store_##SUF(o1 + p + L, b1);                                  \
            store_##SUF(o2 + p, c0), store_##SUF(o2 + p + L, c1);                                  \
            store_##SUF(o3 + p, d0), store_##SUF(o3 + p + L, d1);                                  \
            if (p + 2 * L >= e) break;                                                             \
        }                                                                                          \
    }                                                                                              \
    /* The same for two rows, 4 vectors of positions at a time. */                                 \
    AI void block2_##SUF(int64_t nq, const int64_t *ofs, const T *w0, const T *w1, const T *src,   \
                         int64_t b, int64_t e, T *o0, T *o1) {                                     \
        const int64_t L = (int64_t)(sizeof(V##SUF) / sizeof(T));                                   \
        if (e - b < 4 * L) {                                                                       \
            for (int64_t p = b; p < e; p++) {                                                      \
                T s0 = 0, s1 = 0;                                                                  \
                for (int64_t q = 0; q < nq; q++) {                                                 \
                    T v = src[ofs[q] + p];                                                         \
                    s0 += w0[q] * v, s1 += w1[q] * v;                                              \
                }                                                                                  \
                o0[p] = s0, o1[p] = s1;                                                            \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        for (int64_t p = b;; p += 4 * L) {                                                         \
            if (p + 4 * L > e) p = e - 4 * L;                                                      \
            V##SUF a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0}, b0 = {0}, b1 = {0}, b2 = {0}, b3 = {0}; \
            for (int64_t q = 0; q < nq; q++) {                                                     \
                const T *x = src + ofs[q] + p;                                                     \
                V##SUF x0 = load_##SUF(x), x1 = load_##SUF(x + L), x2 = load_##SUF(x + 2 * L),     \
                       x3 = load_##SUF(x + 3 * L);                                                 \
                V##SUF u = (V##SUF){0} + w0[q], v = (V##SUF){0} + w1[q];                           \
                a0 += u * x0, a1 += u * x1, a2 += u * x2, a3 += u * x3;                            \
                b0 += v * x0, b1 += v * x1, b2 += v * x2, b3 += v * x3;                            \
            }                                                                                      \
            store_##SUF(o0 + p, a0), store_##SUF(o0 + p + L, a1);                                  \
            store_##SUF(o0 + p + 2 * L, a2), store_##SUF(o0 + p + 3 * L, a3);                      \
            store_##SUF(o1 + p, b0), store_##SUF(o1 + p + L, b1);                                  \
            store_##SUF(o1 + p + 2 * L, b2), store_##SUF(o1 + p + 3 * L, b3);                      \
            if (p + 4 * L >= e) break;                                                             \
        }                                                                                          \
    }                                                                                              \
    /* Rows [nr] of 4 (w[j], o[j] for j >= nr are ignored). */                                     \
    AI void rows_##SUF(int64_t nr, int64_t nq, const int64_t *ofs, const T *const *w,              \
                       const T *src, int64_t b, int64_t e, T *const *o) {                          \
        if (nr <= 2)                                                                               \
            block2_##SUF(nq, ofs, w[0], w[nr - 1], src, b, e, o[0], o[1]);                         \
        else                                                                                       \
            block4_##SUF(nq, ofs, w[0], w[1], w[2], w[3], src, b, e, o[0], o[1], o[2], o[3]);      \
    }                                                                                              \
    /* acc_j (one vector of lane sums each) += x . src[ofs[j] + .] over n. */                      \
    AI void dot4_##SUF(int64_t n, const T *x, const T *src, const int64_t *ofs, T *acc) {          \
        const int64_t L = (int64_t)(sizeof(V##SUF) / sizeof(T));                                   \
        const T *y0 = src + ofs[0], *y1 = src + ofs[1], *y2 = src + ofs[2], *y3 = src + ofs[3];    \
        V##SUF a0 = load_##SUF(acc), a1 = load_##SUF(acc + L), a2 = load_##SUF(acc + 2 * L),       \
               a3 = load_##SUF(acc + 3 * L);                                                       \
        int64_t i = 0;                                                                             \
        for (; i + L <= n; i += L) {                                                               \
            V##SUF v = load_##SUF(x + i);                                                          \
            a0 += v * load_##SUF(y0 + i);                                                          \
            a1 += v * load_##SUF(y1 + i);                                                          \
            a2 += v * load_##SUF(y2 + i);                                                          \
            a3 += v * load_##SUF(y3 + i);                                                          \
        }                                                                                          \
        for (int64_t l = 0; i < n; i++, l++) {                                                     \
            a0[l] += x[i] * y0[i];                                                                 \
            a1[l] += x[i] * y1[i];                                                                 \
            a2[l] += x[i] * y2[i];                                                                 \
            a3[l] += x[i] * y3[i];                                                                 \
        }                                                                                          \
        store_##SUF(acc, a0), store_##SUF(acc + L, a1), store_##SUF(acc + 2 * L, a2);              \
        store_##SUF(acc + 3 * L, a3);                                                              \
    }                                                                                              \
    AI void dot1_##SUF(int64_t n, const T *x, const T *y, T *acc) {                                \
        const int64_t L = (int64_t)(sizeof(V##SUF) / sizeof(T));                                   \
        V##SUF a = load_##SUF(acc);                                                                \
        int64_t i = 0;                                                                             \
        for (; i + L <= n; i += L) a += load_##SUF(x + i) * load_##SUF(y + i);                     \
        for (int64_t l = 0; i < n; i++, l++) a[l] += x[i] * y[i];                                  \
        store_##SUF(acc, a);                                                                       \
    }                                                                                              \
    /* The Cig image channels of one sample's group into the padded planes                         \
     * [pad] (borders stay zero from the buffer's first fill). */                                  \
    static void pad_in_##SUF(const nn_conv_direct *c, const dgeo *g, const T *img, T *pad) {       \
        for (int64_t ch = 0; ch < g->Cig; ch++)                                                    \
            for (int64_t a = 0; a < c->isz[0]; a++)                                                \
                for (int64_t b = 0; b < c->isz[1]; b++)                                            \
                    memcpy(pad + ch * g->Pt + ((a + c->p[0]) * g->P[1] + b + c->p[1]) * g->P[2] +  \
                               c->p[2],                                                            \
                           img + ch * g->Li + (a * c->isz[1] + b) * c->isz[2],                     \
                           sizeof(T) * (size_t)c->isz[2]);                                         \
    }                                                                                              \
    /* One column plane between its dense [Lc] and wide [Lw] layouts (the                          \
     * wide one's other positions are left as they are: zero). */                                  \
    static void wide_in_##SUF(const nn_conv_direct *c, const dgeo *g, const T *dense, T *wide) {   \
        for (int64_t a = 0; a < c->csz[0]; a++)                                                    \
            for (int64_t b = 0; b < c->csz[1]; b++)                                                \
                memcpy(wide + (a * g->P[1] + b) * g->P[2],                                         \
                       dense + (a * c->csz[1] + b) * c->csz[2], sizeof(T) * (size_t)c->csz[2]);    \
    }                                                                                              \
    static void wide_out_##SUF(const nn_conv_direct *c, const dgeo *g, const T *wide, T *dense) {  \
        for (int64_t a = 0; a < c->csz[0]; a++)                                                    \
            for (int64_t b = 0; b < c->csz[1]; b++)                                                \
                memcpy(dense + (a * c->csz[1] + b) * c->csz[2],                                    \
                       wide + (a * g->P[1] + b) * g->P[2], sizeof(T) * (size_t)c->csz[2]);         \
    }                                                                                              \
    /* Forward, one sample: C[n] = conv(I[n]). buf: Cig*Pt padded image,                           \
     * then 5*Lw output rows (the fifth takes the rows a short block                               \
     * computes and drops). */                                                                     \
    NN_KERNEL_CLONES static void cols_sample_##SUF(                                                \
        const nn_conv_direct *c, const dgeo *g, int64_t n, const T *I, const T *W, T *C, T *buf) { \
        const int64_t Lw = g->Lw, R = g->R;                                                        \
        T *out = buf + (g->padded ? g->Cig * g->Pt : 0);                                           \
        for (int64_t gi = 0; gi < c->G; gi++) {                                                    \
            const T *img = I + (n * c->Ci + gi * g->Cig) * g->Li;                                  \
            if (g->padded) {                                                                       \
                pad_in_##SUF(c, g, img, buf);                                                      \
                img = buf;                                                                         \
            }                                                                                      \
            for (int64_t r0 = 0; r0 < g->Ccg; r0 += 4) {                                           \
                int64_t nr = g->Ccg - r0 < 4 ? g->Ccg - r0 : 4;                                    \
                const T *w[4];                                                                     \
                T *o[4];                                                                           \
                for (int j = 0; j < 4; j++) {                                                      \
                    w[j] = W + (gi * g->Ccg + r0 + (j < nr ? j : 0)) * R;                          \
                    o[j] = out + (j < nr ? j : 4) * Lw;                                            \
                }                                                                                  \
                rows_##SUF(nr, R, g->fwd, w, img, 0, Lw, o);                                       \
                for (int64_t j = 0; j < nr; j++)                                                   \
                    wide_out_##SUF(c, g, out + j * Lw,                                             \
                                   C + (n * c->Cc + gi * g->Ccg + r0 + j) * g->Lc);                \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* Adjoint, one sample: I[n, c] at image position p = sum over (r, t) of                       \
     * W[r, c, t] * Cwide[n, r](p - off(t)), gathered the same way as the                          \
     * forward. Wt: the weight as [G][Cig][Ccg * K]. buf: Ccg*cwp wide                             \
     * columns (zero outside the valid positions), then 5*Pt image rows. */                        \
    NN_KERNEL_CLONES static void image_sample_##SUF(const nn_conv_direct *c, const dgeo *g,        \
                                                    int64_t n, const T *C, const T *Wt, T *I,      \
                                                    T *buf) {                                      \
        const int64_t Pt = g->Pt, Q = g->Ccg * g->K;                                               \
        T *cw = buf + g->reach, *out = buf + g->Ccg * g->cwp;                                      \
        for (int64_t gi = 0; gi < c->G; gi++) {                                                    \
            for (int64_t r = 0; r < g->Ccg; r++)                                                   \
                wide_in_##SUF(c, g, C + (n * c->Cc + gi * g->Ccg + r) * g->Lc, cw + r * g->cwp);   \
            for (int64_t c0 = 0; c0 < g->Cig; c0 += 4) {                                           \
                int64_t nc = g->Cig - c0 < 4 ? g->Cig - c0 : 4;                                    \
                const T *w[4];                                                                     \
                T *o[4];                                                                           \
                for (int j = 0; j < 4; j++) {                                                      \
                    w[j] = Wt + (gi * g->Cig + c0 + (j < nc ? j : 0)) * Q;                         \
                    o[j] = g->padded || j >= nc ? out + (j < nc ? j : 4) * Pt                      \
                                                : I + (n * c->Ci + gi * g->Cig + c0 + j) * g->Li;  \
                }                                                                                  \
                rows_##SUF(nc, Q, g->adj, w, cw, g->ib, g->ie, o);                                 \
                if (!g->padded) continue;                                                          \
                for (int64_t j = 0; j < nc; j++) {                                                 \
                    T *dst = I + (n * c->Ci + gi * g->Cig + c0 + j) * g->Li;                       \
                    const T *src = out + j * Pt;                                                   \
                    for (int64_t a = 0; a < c->isz[0]; a++)                                        \
                        for (int64_t b = 0; b < c->isz[1]; b++)                                    \
                            memcpy(dst + (a * c->isz[1] + b) * c->isz[2],                          \
                                   src + ((a + c->p[0]) * g->P[1] + b + c->p[1]) * g->P[2] +       \
                                       c->p[2],                                                    \
                                   sizeof(T) * (size_t)c->isz[2]);                                 \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* Weight gradient, one sample added into [acc]: one vector of lane                            \
     * sums per weight element. buf: Cig*Pt padded image, then Ccg*Lw wide                         \
     * columns. */                                                                                 \
    NN_KERNEL_CLONES static void wgrad_sample_##SUF(const nn_conv_direct *c, const dgeo *g,        \
                                                    int64_t n, const T *C, const T *I, T *acc,     \
                                                    T *buf) {                                      \
        const int64_t L = (int64_t)(sizeof(V##SUF) / sizeof(T)), Lw = g->Lw, R = g->R;             \
        T *cw = buf + (g->padded ? g->Cig * g->Pt : 0);                                            \
        for (int64_t gi = 0; gi < c->G; gi++) {                                                    \
            const T *img = I + (n * c->Ci + gi * g->Cig) * g->Li;                                  \
            if (g->padded) {                                                                       \
                pad_in_##SUF(c, g, img, buf);                                                      \
                img = buf;                                                                         \
            }                                                                                      \
            for (int64_t r = 0; r < g->Ccg; r++)                                                   \
                wide_in_##SUF(c, g, C + (n * c->Cc + gi * g->Ccg + r) * g->Lc, cw + r * Lw);       \
            for (int64_t r = 0; r < g->Ccg; r++) {                                                 \
                T *a = acc + (gi * g->Ccg + r) * R * L;                                            \
                const T *x = cw + r * Lw;                                                          \
                int64_t q = 0;                                                                     \
                for (; q + 4 <= R; q += 4) dot4_##SUF(Lw, x, img, g->fwd + q, a + q * L);          \
                for (; q < R; q++) dot1_##SUF(Lw, x, img + g->fwd[q], a + q * L);                  \
            }                                                                                      \
        }                                                                                          \
    }

typedef float Vf32 __attribute__((vector_size(32)));
typedef double Vf64 __attribute__((vector_size(32)));
DEF_DIRECT(float, f32)
DEF_DIRECT(double, f64)

/* ---- the three entry points: split samples over tasks, each task with
 * its own zeroed buffer (and, for the weight gradient, its own vector
 * accumulators, summed in task order at the end). */

enum { MODE_COLS, MODE_IMAGE, MODE_WGRAD };

typedef struct djob {
    const nn_conv_direct *c;
    const dgeo *g;
    int mode;
    const void *A, *W; /* cols: I, W; image: C, Wt; wgrad: C, I */
    void *B;           /* cols: C; image: I; wgrad: the accumulators, one set per task */
    char *bufs;
    int64_t buf_elems, part_elems;
    size_t es;
    int64_t slices; /* wgrad: the batch's fixed slices */
    char *sums;     /* wgrad: [slices][Cc * R] each slice's sums */
} djob;

/* One slice's lane sums [part / L vectors of L] into [nw] totals. */
static void slice_sums(bool f64, const char *acc, int64_t nw, int64_t L, char *out) {
    for (int64_t i = 0; i < nw; i++) {
        if (f64) {
            double t = 0;
            for (int64_t l = 0; l < L; l++) t += ((const double *)acc)[i * L + l];
            ((double *)out)[i] = t;
        } else {
            float t = 0;
            for (int64_t l = 0; l < L; l++) t += ((const float *)acc)[i * L + l];
            ((float *)out)[i] = t;
        }
    }
}

static void run_task(void *arg, int task, int n_tasks) {
    const djob *jb = arg;
    int64_t b, e;
    void *buf = jb->bufs + (size_t)task * (size_t)jb->buf_elems * jb->es;
    bool f64 = jb->c->f64;
    if (jb->mode == MODE_WGRAD) {
        /* Whole slices of the batch per task: each slice's samples are
         * summed in order into lane sums, which become the slice's totals,
         * so the result does not depend on the thread count. */
        char *acc = (char *)jb->B + (size_t)task * (size_t)jb->part_elems * jb->es;
        const int64_t L = (int64_t)(32 / jb->es), nw = jb->part_elems / L, N = jb->c->N;
        nn_parallel_range(jb->slices, task, n_tasks, 1, &b, &e);
        for (int64_t sl = b; sl < e; sl++) {
            memset(acc, 0, (size_t)jb->part_elems * jb->es);
            for (int64_t n = sl * N / jb->slices; n < (sl + 1) * N / jb->slices; n++) {
                if (f64)
                    wgrad_sample_f64(jb->c, jb->g, n, jb->A, jb->W, (double *)acc, buf);
                else
                    wgrad_sample_f32(jb->c, jb->g, n, jb->A, jb->W, (float *)acc, buf);
            }
            slice_sums(f64, acc, nw, L, jb->sums + (size_t)(sl * nw) * jb->es);
        }
        return;
    }
    nn_parallel_range(jb->c->N, task, n_tasks, 1, &b, &e);
    for (int64_t n = b; n < e; n++) {
        switch (jb->mode) {
        case MODE_COLS:
            if (f64)
                cols_sample_f64(jb->c, jb->g, n, jb->A, jb->W, jb->B, buf);
            else
                cols_sample_f32(jb->c, jb->g, n, jb->A, jb->W, jb->B, buf);
            break;
        case MODE_IMAGE:
            if (f64)
                image_sample_f64(jb->c, jb->g, n, jb->A, jb->W, jb->B, buf);
            else
                image_sample_f32(jb->c, jb->g, n, jb->A, jb->W, jb->B, buf);
            break;
        default: break;
        }
    }
}

static nn_status run(nn_ctx *ctx, const nn_conv_direct *c, int mode, const void *A, const void *W,
                     void *B) {
    dgeo g;
    dgeo_set(c, &g);
    const size_t es = c->f64 ? sizeof(double) : sizeof(float);
    const int64_t L = (int64_t)(32 / es);
    int64_t img = g.padded ? g.Cig * g.Pt : 0;
    int64_t buf = mode == MODE_COLS    ? img + 5 * g.Lw
                  : mode == MODE_IMAGE ? g.Ccg * g.cwp + 5 * g.Pt
                                       : img + g.Ccg * g.Lw;
    int64_t macs = c->N * c->Cc * g.R * g.Lw;
    const int64_t slices = c->N < DIRECT_WG_SLICES ? c->N : DIRECT_WG_SLICES;
    int n_tasks = nn_parallel_tasks(macs, DIRECT_MIN_PER_TASK);
    if (n_tasks > (mode == MODE_WGRAD ? slices : c->N))
        n_tasks = (int)(mode == MODE_WGRAD ? slices : c->N);
    if (n_tasks < 1) n_tasks = 1;
    const int64_t nw = c->Cc * g.R;
    int64_t part = mode == MODE_WGRAD ? nw * L : 0;
    int64_t extra_elems = mode == MODE_IMAGE ? nw : mode == MODE_WGRAD ? slices * nw : 0;
    size_t bytes = es * (size_t)(n_tasks * (buf + part) + extra_elems);
    char *mem = nn_mem_calloc(bytes, "a direct convolution's buffers", &ctx->err);
    if (!mem) return ctx->err.code;
    djob jb = {c, &g, mode, A, W, B, mem, buf, part, es, slices, NULL};
    char *extra = mem + es * (size_t)(n_tasks * (buf + part));
    if (mode == MODE_WGRAD) {
        jb.B = mem + es * (size_t)(n_tasks * buf);
        jb.sums = extra;
    }
    if (mode == MODE_IMAGE) {
        /* The weight as [G][Cig][Ccg * K], so the adjoint reads it in rows. */
        const int64_t K = g.K, Q = g.Ccg * K;
        for (int64_t gi = 0; gi < c->G; gi++)
            for (int64_t r = 0; r < g.Ccg; r++)
                for (int64_t ch = 0; ch < g.Cig; ch++)
                    memcpy(extra + es * (size_t)((gi * g.Cig + ch) * Q + r * K),
                           (const char *)W + es * (size_t)((gi * g.Ccg + r) * g.R + ch * K),
                           es * (size_t)K);
        jb.W = extra;
    }
    if (n_tasks == 1)
        run_task(&jb, 0, 1);
    else
        nn_parallel_run(n_tasks, run_task, &jb);
    if (mode == MODE_WGRAD) {
        /* dW = the slices' totals added in slice order. */
        for (int64_t i = 0; i < nw; i++) {
            if (c->f64) {
                double t = 0;
                for (int64_t sl = 0; sl < slices; sl++) t += ((const double *)extra)[sl * nw + i];
                ((double *)B)[i] = t;
            } else {
                float t = 0;
                for (int64_t sl = 0; sl < slices; sl++) t += ((const float *)extra)[sl * nw + i];
                ((float *)B)[i] = t;
            }
        }
    }
    nn_mem_free(mem);
    return NN_OK;
}

nn_status nn_conv_direct_cols(nn_ctx *ctx, const nn_conv_direct *c, const void *img, const void *w,
                              void *cols) {
    return run(ctx, c, MODE_COLS, img, w, cols);
}

nn_status nn_conv_direct_image(nn_ctx *ctx, const nn_conv_direct *c, const void *cols,
                               const void *w, void *img) {
    return run(ctx, c, MODE_IMAGE, cols, w, img);
}

nn_status nn_conv_direct_wgrad(nn_ctx *ctx, const nn_conv_direct *c, const void *cols,
                               const void *img, void *dw) {
    return run(ctx, c, MODE_WGRAD, cols, img, dw);
}
