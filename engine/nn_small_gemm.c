/* nn_small_gemm: float32 products too small for OpenBLAS's per-call work,
 * computed with OpenBLAS's bits (see nn_small_gemm.h). */
#include "nn_small_gemm.h"

#include <math.h>
#include <string.h>

/* The shapes where OpenBLAS 0.3.21 (Zen/Haswell kernels, checked on Zen 3)
 * sums each element as one chain of FMAs over k in order, starting from 0,
 * and then adds the chain to C once. Found by comparing cblas_sgemm (beta 1
 * on a C that is not zero, which tells "add the chain to C" from "start the
 * chain at C") with that chain over m, n in 1..128 and k in 1..600 for all
 * four transpose combinations: every element matches when k <= 7, or m <= 3
 * (OpenBLAS's narrow edge tiles), or n <= 7, as long as k fits one of its K
 * blocks (it adds partial sums per block above ~300), and no other shape
 * matched: its full tiles at larger k sum in another order. */
static bool chain_shape(int m, int n, int k) {
    return k <= 256 && (k <= 7 || m <= 3 || n <= 7);
}

/* Above this many multiply-adds OpenBLAS's own cost per call (packing,
 * dispatch) is small beside the product: leave it to the library. */
enum { SMALL_WORK = 32768, PACK = 4096, TILE_PACK = 8192 };

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define SG_TARGET __attribute__((target("avx2,fma")))

/* Vectorised along C's columns j: Bp [k][n] with j contiguous (row stride
 * ldp), A read by element. C[i][j] += sum_p A(i,p) B(p,j), each sum an FMA
 * chain over p from 0. */
SG_TARGET static void along_cols(bool ta, int m, int n, int k, const float *a, int lda,
                                 const float *bp, int ldp, float *c, int ldc) {
    int j32 = 0;
    if (k <= 3) {
        /* k of at most 3 (a layer from 2 or 3 inputs, the gradient through
         * a 3-class head): a block of 32 columns of B stays in registers
         * while every row goes by. The same chains, one row after another:
         * a third fewer instructions than loading B again for each row. */
        int64_t as = ta ? lda : 1, ai_step = ta ? 1 : lda;
        for (; j32 + 32 <= n; j32 += 32) {
            __m256 b[3][4];
            for (int p = 0; p < k; p++)
                for (int q = 0; q < 4; q++)
                    b[p][q] = _mm256_loadu_ps(bp + (int64_t)p * ldp + j32 + 8 * q);
            for (int i = 0; i < m; i++) {
                const float *ai = a + (int64_t)i * ai_step;
                float *cj = c + (int64_t)i * ldc + j32;
                __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
                for (int p = 0; p < k; p++) {
                    __m256 av = _mm256_set1_ps(ai[p * as]);
                    s0 = _mm256_fmadd_ps(av, b[p][0], s0);
                    s1 = _mm256_fmadd_ps(av, b[p][1], s1);
                    s2 = _mm256_fmadd_ps(av, b[p][2], s2);
                    s3 = _mm256_fmadd_ps(av, b[p][3], s3);
                }
                _mm256_storeu_ps(cj, _mm256_add_ps(s0, _mm256_loadu_ps(cj)));
                _mm256_storeu_ps(cj + 8, _mm256_add_ps(s1, _mm256_loadu_ps(cj + 8)));
                _mm256_storeu_ps(cj + 16, _mm256_add_ps(s2, _mm256_loadu_ps(cj + 16)));
                _mm256_storeu_ps(cj + 24, _mm256_add_ps(s3, _mm256_loadu_ps(cj + 24)));
            }
        }
    }
    for (int i = 0; i < m; i++) {
        float *ci = c + (int64_t)i * ldc;
        const float *ai = ta ? a + i : a + (int64_t)i * lda;
        int64_t as = ta ? lda : 1;
        int j = j32;
        for (; j + 32 <= n; j += 32) {
            __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
            for (int p = 0; p < k; p++) {
                __m256 av = _mm256_set1_ps(ai[p * as]);
                const float *bj = bp + (int64_t)p * ldp + j;
                s0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bj), s0);
                s1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bj + 8), s1);
                s2 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bj + 16), s2);
                s3 = _mm256_fmadd_ps(av, _mm256_loadu_ps(bj + 24), s3);
            }
            _mm256_storeu_ps(ci + j, _mm256_add_ps(s0, _mm256_loadu_ps(ci + j)));
            _mm256_storeu_ps(ci + j + 8, _mm256_add_ps(s1, _mm256_loadu_ps(ci + j + 8)));
            _mm256_storeu_ps(ci + j + 16, _mm256_add_ps(s2, _mm256_loadu_ps(ci + j + 16)));
            _mm256_storeu_ps(ci + j + 24, _mm256_add_ps(s3, _mm256_loadu_ps(ci + j + 24)));
        }
        for (; j + 8 <= n; j += 8) {
            __m256 s = _mm256_setzero_ps();
            for (int p = 0; p < k; p++)
                s = _mm256_fmadd_ps(_mm256_set1_ps(ai[p * as]),
                                    _mm256_loadu_ps(bp + (int64_t)p * ldp + j), s);
            _mm256_storeu_ps(ci + j, _mm256_add_ps(s, _mm256_loadu_ps(ci + j)));
        }
        for (; j < n; j++) {
            float s = 0;
            for (int p = 0; p < k; p++) s = fmaf(ai[p * as], bp[(int64_t)p * ldp + j], s);
            ci[j] = s + ci[j];
        }
    }
}

/* Vectorised along C's rows i (a C of at most 7 columns): Ap [k][m] with i
 * contiguous (row stride ldp), B read by element; the same chains. Four
 * columns at a time (the last group repeats its last column rather than
 * branch) over 16 rows: eight independent chains keep the FMA units busy. */
SG_TARGET static void along_rows(bool tb, int m, int n, int k, const float *ap, int ldp,
                                 const float *b, int ldb, float *c, int ldc) {
    int64_t bs = tb ? 1 : ldb, bj = tb ? ldb : 1; /* B(p, j) = b[p * bs + j * bj] */
    for (int j0 = 0; j0 < n; j0 += 4) {
        const float *b0 = b + (int64_t)j0 * bj, *b1 = b + (int64_t)(j0 + 1 < n ? j0 + 1 : j0) * bj,
                    *b2 = b + (int64_t)(j0 + 2 < n ? j0 + 2 : j0) * bj,
                    *b3 = b + (int64_t)(j0 + 3 < n ? j0 + 3 : j0) * bj;
        int nj = n - j0 < 4 ? n - j0 : 4, i = 0;
        for (; i + 16 <= m; i += 16) {
            __m256 s[8];
            for (int q = 0; q < 8; q++) s[q] = _mm256_setzero_ps();
            for (int p = 0; p < k; p++) {
                const float *ai = ap + (int64_t)p * ldp + i;
                __m256 x0 = _mm256_loadu_ps(ai), x1 = _mm256_loadu_ps(ai + 8);
                __m256 v0 = _mm256_set1_ps(b0[p * bs]), v1 = _mm256_set1_ps(b1[p * bs]),
                       v2 = _mm256_set1_ps(b2[p * bs]), v3 = _mm256_set1_ps(b3[p * bs]);
                s[0] = _mm256_fmadd_ps(x0, v0, s[0]);
                s[1] = _mm256_fmadd_ps(x1, v0, s[1]);
                s[2] = _mm256_fmadd_ps(x0, v1, s[2]);
                s[3] = _mm256_fmadd_ps(x1, v1, s[3]);
                s[4] = _mm256_fmadd_ps(x0, v2, s[4]);
                s[5] = _mm256_fmadd_ps(x1, v2, s[5]);
                s[6] = _mm256_fmadd_ps(x0, v3, s[6]);
                s[7] = _mm256_fmadd_ps(x1, v3, s[7]);
            }
            float out[64];
            for (int q = 0; q < 8; q++) _mm256_storeu_ps(out + 8 * q, s[q]);
            for (int jj = 0; jj < nj; jj++)
                for (int l = 0; l < 16; l++)
                    c[(int64_t)(i + l) * ldc + j0 + jj] += out[16 * jj + l];
        }
        for (; i < m; i++)
            for (int jj = 0; jj < nj; jj++) {
                const float *bq = b + (int64_t)(j0 + jj) * bj;
                float t = 0;
                for (int p = 0; p < k; p++) t = fmaf(ap[(int64_t)p * ldp + i], bq[p * bs], t);
                c[(int64_t)i * ldc + j0 + jj] += t;
            }
    }
}

/* dst [k][m] (row stride m) = the transpose of src [m][k] (row stride lds):
 * 8x8 blocks transposed in registers, the edges element by element. */
SG_TARGET static void transpose(float *dst, const float *src, int m, int k, int lds) {
    int m8 = m & ~7, k8 = k & ~7;
    for (int i = 0; i < m8; i += 8)
        for (int p = 0; p < k8; p += 8) {
            const float *s = src + (int64_t)i * lds + p;
            __m256 r0 = _mm256_loadu_ps(s), r1 = _mm256_loadu_ps(s + lds),
                   r2 = _mm256_loadu_ps(s + 2 * lds), r3 = _mm256_loadu_ps(s + 3 * lds),
                   r4 = _mm256_loadu_ps(s + 4 * lds), r5 = _mm256_loadu_ps(s + 5 * lds),
                   r6 = _mm256_loadu_ps(s + 6 * lds), r7 = _mm256_loadu_ps(s + 7 * lds);
            __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1),
                   t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3),
                   t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                   t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
            __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                   u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                   u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                   u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
            float *d = dst + (int64_t)p * m + i;
            _mm256_storeu_ps(d, _mm256_permute2f128_ps(u0, u4, 0x20));
            _mm256_storeu_ps(d + m, _mm256_permute2f128_ps(u1, u5, 0x20));
            _mm256_storeu_ps(d + 2 * m, _mm256_permute2f128_ps(u2, u6, 0x20));
            _mm256_storeu_ps(d + 3 * m, _mm256_permute2f128_ps(u3, u7, 0x20));
            _mm256_storeu_ps(d + 4 * m, _mm256_permute2f128_ps(u0, u4, 0x31));
            _mm256_storeu_ps(d + 5 * m, _mm256_permute2f128_ps(u1, u5, 0x31));
            _mm256_storeu_ps(d + 6 * m, _mm256_permute2f128_ps(u2, u6, 0x31));
            _mm256_storeu_ps(d + 7 * m, _mm256_permute2f128_ps(u3, u7, 0x31));
        }
    for (int i = 0; i < m; i++)
        for (int p = i < m8 ? k8 : 0; p < k; p++)
            dst[(int64_t)p * m + i] = src[(int64_t)i * lds + p];
}

SG_TARGET static bool small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                                  const float *b, int ldb, float *c, int ldc) {
    float pack[PACK];
    if (n >= 8) {
        /* B(p, j) with j contiguous: B itself, or B^T copied */
        if (!tb) {
            along_cols(ta, m, n, k, a, lda, b, ldb, c, ldc);
            return true;
        }
        if ((int64_t)k * n > PACK) return false;
        transpose(pack, b, n, k, ldb);
        along_cols(ta, m, n, k, a, lda, pack, n, c, ldc);
        return true;
    }
    if (ta) {
        along_rows(tb, m, n, k, a, lda, b, ldb, c, ldc);
        return true;
    }
    if ((int64_t)k * m > PACK) return false;
    transpose(pack, a, m, k, lda);
    along_rows(tb, m, n, k, pack, m, b, ldb, c, ldc);
    return true;
}

/* Products of a few hundred thousand multiply-adds with C's row a whole
 * number of 8-float vectors (the 64x64x64 products of a small MLP): here
 * OpenBLAS spends a sixth of its time packing A and B and on its cost per
 * call. Its Zen/Haswell kernel (sgemm_kernel_8x4_haswell_2.c in 0.3.21)
 * sums most elements as one FMA chain over k, but in some tiles it keeps
 * two chains, the even and the odd k (k in steps of 8; the last k % 8 go on
 * the even chain), and adds them before adding to C. Which tiles: OpenBLAS
 * works on C^T, so its "m" is our n (columns, in groups of 8) and its "n"
 * our rows, which its driver hands to the kernel in chunks of 12 rows while
 * 12 remain, then of 4 while more than 4 remain, then the rest; the
 * kernel splits a 12-row chunk into rows 0-5 and 6-11, and, with G >= 2
 * column groups, keeps two chains in column group 0 of rows 0-5 and in
 * group G-1 of rows 0-5 (G even) or rows 6-11 (G odd); a chunk of 4 rows
 * keeps two chains in every group; everything else is one chain. This
 * computes the same sums, reading A and B where they are (B^T copied), in
 * tiles of 6 rows and 16 columns. Checked element by element against
 * cblas_sgemm (tests/unit/test_matmul.c, small_sgemm_has_openblas_bits). */
/* At most 64^3 multiply-adds: OpenBLAS runs larger products on several
 * threads when it has them (above 65536 x 4, interface/gemm.c), and then
 * divides the rows among them, which changes the chunks. */
enum { TILE_WORK = 262144, TILE_MAX = 256 };

static bool tile_shape(int m, int n, int k) {
    return n % 8 == 0 && k <= TILE_MAX && m <= TILE_MAX && n <= TILE_MAX &&
           (int64_t)m * n * k <= TILE_WORK;
}

/* C(i, j) for R rows from [c] and 8 NG columns: one chain each. A(i, p) is
 * a[i ai + p ap], B(p, j) is b[p ldb + j]. */
SG_TARGET static inline __attribute__((always_inline)) void
tile_chain(int R, int NG, int k, const float *a, int64_t ai, int64_t ap, const float *b, int ldb,
           float *c, int ldc, bool zero) {
    __m256 acc[6][2];
    for (int i = 0; i < R; i++)
        for (int g = 0; g < NG; g++) acc[i][g] = _mm256_setzero_ps();
    for (int p = 0; p < k; p++) {
        __m256 bv[2];
        for (int g = 0; g < NG; g++) bv[g] = _mm256_loadu_ps(b + (int64_t)p * ldb + 8 * g);
        for (int i = 0; i < R; i++) {
            __m256 av = _mm256_broadcast_ss(a + i * ai + p * ap);
            for (int g = 0; g < NG; g++) acc[i][g] = _mm256_fmadd_ps(av, bv[g], acc[i][g]);
        }
    }
    for (int i = 0; i < R; i++)
        for (int g = 0; g < NG; g++) {
            float *cc = c + (int64_t)i * ldc + 8 * g;
            __m256 old = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(cc);
            _mm256_storeu_ps(cc, _mm256_add_ps(acc[i][g], old));
        }
}

/* The same for 8 columns with two chains per element: even k and odd k in
 * pairs while 8 k remain, the last k % 8 on the even chain. */
SG_TARGET static inline __attribute__((always_inline)) void
tile_split(int R, int k, const float *a, int64_t ai, int64_t ap, const float *b, int ldb, float *c,
           int ldc, bool zero) {
    __m256 ev[6], od[6];
    for (int i = 0; i < R; i++) ev[i] = od[i] = _mm256_setzero_ps();
    int k8 = k & ~7, p = 0;
    for (; p < k8; p += 2) {
        __m256 b0 = _mm256_loadu_ps(b + (int64_t)p * ldb),
               b1 = _mm256_loadu_ps(b + (int64_t)(p + 1) * ldb);
        for (int i = 0; i < R; i++) {
            ev[i] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + i * ai + p * ap), b0, ev[i]);
            od[i] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + i * ai + (p + 1) * ap), b1, od[i]);
        }
    }
    for (; p < k; p++) {
        __m256 b0 = _mm256_loadu_ps(b + (int64_t)p * ldb);
        for (int i = 0; i < R; i++)
            ev[i] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + i * ai + p * ap), b0, ev[i]);
    }
    for (int i = 0; i < R; i++) {
        float *cc = c + (int64_t)i * ldc;
        __m256 old = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(cc);
        _mm256_storeu_ps(cc, _mm256_add_ps(_mm256_add_ps(od[i], ev[i]), old));
    }
}

/* R rows (R <= 6, the row chunk's part) from row [r]: column group g keeps
 * two chains where split(g) says so. */
#define TILE_ROWS(R)                                                                               \
    SG_TARGET static void rows_##R(int G, int split_lo, int split_hi, int k, const float *a,       \
                                   int64_t ai, int64_t ap, const float *b, int ldb, float *c,      \
                                   int ldc, bool zero) {                                           \
        for (int g = 0; g < G;) {                                                                  \
            if (g == split_lo || g == split_hi) {                                                  \
                tile_split(R, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);                 \
                g++;                                                                               \
            } else if (g + 1 < G && g + 1 != split_lo && g + 1 != split_hi) {                      \
                tile_chain(R, 2, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);              \
                g += 2;                                                                            \
            } else {                                                                               \
                tile_chain(R, 1, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);              \
                g++;                                                                               \
            }                                                                                      \
        }                                                                                          \
    }
TILE_ROWS(1)
TILE_ROWS(2)
TILE_ROWS(3)
TILE_ROWS(6)

SG_TARGET static void tiled(bool ta, int m, int n, int k, const float *a, int lda, const float *bp,
                            int ldp, float *c, int ldc, bool zero) {
    int G = n / 8;
    int64_t ai = ta ? 1 : lda, ap = ta ? lda : 1;
    for (int r = 0; r < m;) {
        int rem = m - r, chunk = rem >= 12 ? 12 : rem > 4 ? 4 : rem;
        const float *ar = a + r * ai;
        float *cr = c + (int64_t)r * ldc;
        if (chunk == 12) {
            /* rows 0-5: group 0 and, G even, group G-1; rows 6-11: G odd, group G-1 */
            int lo0 = G >= 2 ? 0 : -1, lo1 = G >= 2 && G % 2 == 0 ? G - 1 : -1;
            int hi = G >= 2 && G % 2 == 1 ? G - 1 : -1;
            rows_6(G, lo0, lo1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
            rows_6(G, hi, -1, k, ar + 6 * ai, ai, ap, bp, ldp, cr + 6 * (int64_t)ldc, ldc, zero);
        } else if (chunk == 4) {
            for (int g = 0; g < G; g++)
                tile_split(4, k, ar, ai, ap, bp + 8 * g, ldp, cr + 8 * g, ldc, zero);
        } else if (chunk == 3) {
            rows_3(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
        } else if (chunk == 2) {
            rows_2(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
        } else {
            rows_1(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
        }
        r += chunk;
    }
}

SG_TARGET static bool tiled_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                                  const float *b, int ldb, float *c, int ldc, bool zero) {
    if (!tb) {
        tiled(ta, m, n, k, a, lda, b, ldb, c, ldc, zero);
        return true;
    }
    float pack[TILE_PACK];
    if ((int64_t)k * n > TILE_PACK) return false;
    transpose(pack, b, n, k, ldb);
    tiled(ta, m, n, k, a, lda, pack, n, c, ldc, zero);
    return true;
}

/* C's rows cleared, as nn_blas.c does before OpenBLAS (the chain paths
 * add to C). */
static void clear_rows(float *c, int m, int n, int ldc) {
    if (ldc == n)
        memset(c, 0, sizeof(float) * (size_t)m * (size_t)n);
    else
        for (int i = 0; i < m; i++) memset(c + (int64_t)i * ldc, 0, sizeof(float) * (size_t)n);
}

bool nn_small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda, const float *b,
                    int ldb, float *c, int ldc, bool overwrite) {
    __builtin_cpu_init(); /* idempotent: a few loads after the first call */
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || m <= 0 || n <= 0 ||
        k <= 0)
        return false;
    if (chain_shape(m, n, k) && (int64_t)m * n * k <= SMALL_WORK) {
        /* its only refusals (B^T or A^T too large to copy) come first */
        if (n >= 8 ? tb && (int64_t)k * n > PACK : !ta && (int64_t)k * m > PACK) return false;
        if (overwrite) clear_rows(c, m, n, ldc);
        return small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
    }
    if (tile_shape(m, n, k)) return tiled_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite);
    return false;
}
#else
bool nn_small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda, const float *b,
                    int ldb, float *c, int ldc, bool overwrite) {
    (void)chain_shape;
    return false;
}
#endif
