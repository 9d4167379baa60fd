/* nn_small_gemm: float32 products too small for OpenBLAS's per-call work,
 * and (at one thread) a GPT's attention and (at one or two) Linear
 * products, computed with OpenBLAS's bits (see nn_small_gemm.h). Four
 * paths, by size: the one-chain shapes (chain_shape), the tiled path up to
 * 64^3 multiply-adds (tiled(), which states OpenBLAS's order), the packed
 * panels above it (panel_sgemm, attention's [256x64]x[64x256] and
 * [256x256]x[256x64]), and any larger product on 512-bit vectors
 * (big_sgemm, which states OpenBLAS's blocks at one thread, and
 * big_sgemm_two, its two threads' shares). */
#include "nn_small_gemm.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "nn_thread.h"

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

#define SG_TARGET    __attribute__((target("avx2,fma")))
#define SG512_TARGET __attribute__((target("avx512f,avx2,fma")))

/* 0: by the CPU; 1: 256-bit vectors even where 512-bit ones run (tests) */
static int small_force_avx2;

/* Whether the 512-bit paths may run: the CPU has AVX-512F and
 * NNDB_NO_AVX512=1 is not set. With it set, every product takes the path
 * an AVX2-only CPU takes (256-bit tiles below OpenBLAS's size, OpenBLAS
 * above), as nn_sleef.c's maps do: for measuring such a machine's figures
 * here (with OPENBLAS_CORETYPE=Haswell for the library's side, docs/
 * benchmarks.md). Read once. */
static pthread_once_t avx512_once = PTHREAD_ONCE_INIT;
static bool avx512_on;

static void avx512_read(void) {
    __builtin_cpu_init();
    const char *off = getenv("NNDB_NO_AVX512");
    avx512_on = __builtin_cpu_supports("avx512f") && !(off && *off == '1');
}

static bool cpu_avx512(void) {
    pthread_once(&avx512_once, avx512_read);
    return avx512_on;
}

void nn_small_sgemm_force_avx2(bool on) {
    small_force_avx2 = on;
}

/* C's rows cleared, as nn_blas.c does before OpenBLAS (the chain paths
 * add to C). */
static void clear_rows(float *c, int m, int n, int ldc) {
    if (ldc == n)
        memset(c, 0, sizeof(float) * (size_t)m * (size_t)n);
    else
        for (int i = 0; i < m; i++) memset(c + (int64_t)i * ldc, 0, sizeof(float) * (size_t)n);
}

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

/* d[8][8] (row stride ldd) = the transpose of s[8][8] (row stride lds),
 * in registers. */
SG_TARGET static inline __attribute__((always_inline)) void
transpose8(float *d, int64_t ldd, const float *s, int64_t lds) {
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
    _mm256_storeu_ps(d, _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_storeu_ps(d + ldd, _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_storeu_ps(d + 2 * ldd, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_storeu_ps(d + 3 * ldd, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_storeu_ps(d + 4 * ldd, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_storeu_ps(d + 5 * ldd, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_storeu_ps(d + 6 * ldd, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_storeu_ps(d + 7 * ldd, _mm256_permute2f128_ps(u3, u7, 0x31));
}

/* dst [k][m] (row stride m) = the transpose of src [m][k] (row stride lds):
 * 8x8 blocks transposed in registers, the edges element by element. */
SG_TARGET static void transpose(float *dst, const float *src, int m, int k, int lds) {
    int m8 = m & ~7, k8 = k & ~7;
    for (int i = 0; i < m8; i += 8)
        for (int p = 0; p < k8; p += 8) {
            transpose8(dst + (int64_t)p * m + i, m, src + (int64_t)i * lds + p, lds);
        }
    /* four rows more in 4x4 blocks (rows 8-11 of a 12-row chunk of A) */
    int m4 = m - m8 >= 4 ? m8 + 4 : m8, k4 = k & ~3;
    if (m4 > m8)
        for (int p = 0; p < k4; p += 4) {
            const float *s = src + (int64_t)m8 * lds + p;
            __m128 r0 = _mm_loadu_ps(s), r1 = _mm_loadu_ps(s + lds), r2 = _mm_loadu_ps(s + 2 * lds),
                   r3 = _mm_loadu_ps(s + 3 * lds);
            _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
            float *d = dst + (int64_t)p * m + m8;
            _mm_storeu_ps(d, r0);
            _mm_storeu_ps(d + m, r1);
            _mm_storeu_ps(d + 2 * m, r2);
            _mm_storeu_ps(d + 3 * m, r3);
        }
    for (int i = 0; i < m; i++)
        for (int p = i < m8 ? k8 : i < m4 ? k4 : 0; p < k; p++)
            dst[(int64_t)p * m + i] = src[(int64_t)i * lds + p];
}

/* The same chains on 512-bit vectors, where the CPU has AVX-512F. The
 * 256-bit loops above keep four chains in flight (one row of C at a time,
 * or sixteen rows of one column group), so they run at the FMA's latency;
 * these keep up to sixteen (a tile of 4 rows x 64 columns of C, or 64 rows
 * x 4 columns), sixteen lanes wide, with masked loads and stores for the
 * last vector of a row instead of a scalar tail. Each lane still sums its
 * own element's chain over p in order from 0 and then adds it to C, so the
 * bits are the 256-bit loops' (tests/unit/test_matmul.c compares both
 * widths with cblas_sgemm). With [zero] (BLAS's beta 0) C is not read: the
 * chain plus 0, the bits of clearing C first. */

/* acc[r][v] = the sum over p of S(r, p) V(p, v), each lane one FMA chain
 * over p from 0: S(r, p) = s[r sr + p sp], broadcast; V(p, v) the v-th
 * vector of 16 floats at vec + p vp, the last one masked by [tail]. */
SG512_TARGET static inline __attribute__((always_inline)) void
zouter(int R, int NV, __mmask16 tail, int k, const float *s, int64_t sr, int64_t sp,
       const float *vec, int64_t vp, __m512 acc[4][4]) {
    for (int r = 0; r < R; r++)
        for (int v = 0; v < NV; v++) acc[r][v] = _mm512_setzero_ps();
    for (int p = 0; p < k; p++) {
        const float *vq = vec + p * vp;
        __m512 x[4];
        for (int v = 0; v < NV; v++)
            x[v] = v == NV - 1 ? _mm512_maskz_loadu_ps(tail, vq + 16 * v)
                               : _mm512_loadu_ps(vq + 16 * v);
        for (int r = 0; r < R; r++) {
            __m512 sv = _mm512_set1_ps(s[r * sr + p * sp]);
            for (int v = 0; v < NV; v++) acc[r][v] = _mm512_fmadd_ps(sv, x[v], acc[r][v]);
        }
    }
}

/* The 16 tiles of 1-4 x 1-4 (ZTILES(X) lists X(1, 1) ... X(4, 4)), so that
 * each is inlined with constant sizes and its accumulators stay in
 * registers. */
// clang-format off
#define ZTILES(X)                                                                                  \
    X(1, 1) X(1, 2) X(1, 3) X(1, 4)                                                                \
    X(2, 1) X(2, 2) X(2, 3) X(2, 4)                                                                \
    X(3, 1) X(3, 2) X(3, 3) X(3, 4)                                                                \
    X(4, 1) X(4, 2) X(4, 3) X(4, 4)
// clang-format on

/* C(i, j) for R rows and NZ vectors of 16 columns (the last one masked by
 * [tail]): A(i, p) is a[i ai + p ap], B(p, j) is bp[p ldp + j]. */
SG512_TARGET static inline __attribute__((always_inline)) void
zcols_tile(int R, int NZ, __mmask16 tail, int k, const float *a, int64_t ai, int64_t ap,
           const float *bp, int ldp, float *c, int ldc, bool zero) {
    __m512 acc[4][4];
    zouter(R, NZ, tail, k, a, ai, ap, bp, ldp, acc);
    for (int i = 0; i < R; i++)
        for (int g = 0; g < NZ; g++) {
            float *cc = c + (int64_t)i * ldc + 16 * g;
            __mmask16 mk = g == NZ - 1 ? tail : (__mmask16)0xFFFF;
            __m512 old = zero ? _mm512_setzero_ps() : _mm512_maskz_loadu_ps(mk, cc);
            _mm512_mask_storeu_ps(cc, mk, _mm512_add_ps(acc[i][g], old));
        }
}

/* The mask of the first [w] % 16 lanes, or of all 16. */
static inline __mmask16 tail_mask(int w) {
    return (__mmask16)(w % 16 ? (1u << (w % 16)) - 1 : 0xFFFFu);
}

/* along_cols on 512-bit tiles of 4 rows x 64 columns. */
SG512_TARGET static void zalong_cols(bool ta, int m, int n, int k, const float *a, int lda,
                                     const float *bp, int ldp, float *c, int ldc, bool zero) {
    int64_t ai = ta ? 1 : lda, ap = ta ? lda : 1;
    for (int i = 0; i < m; i += 4)
        for (int j = 0; j < n; j += 64) {
            int R = m - i < 4 ? m - i : 4, w = n - j < 64 ? n - j : 64, NZ = (w + 15) / 16;
            const float *ar = a + i * ai;
            float *cr = c + (int64_t)i * ldc + j;
#define ZCOLS(r, z)                                                                                \
    case 4 * (r) + (z)-5:                                                                          \
        zcols_tile(r, z, tail_mask(w), k, ar, ai, ap, bp + j, ldp, cr, ldc, zero);                 \
        break;
            switch (4 * R + NZ - 5) {
                ZTILES(ZCOLS)
            default: break;
            }
#undef ZCOLS
        }
}

/* C(i, j) for NI vectors of 16 rows (the last one masked by [tail]) and NJ
 * columns: Ap(p, i) is ap[p ldp + i], B(p, j) is b[p bs + j bj]. C's
 * elements run down its columns, so the sums go out through a buffer, each
 * added to C as along_rows adds them. */
SG512_TARGET static inline __attribute__((always_inline)) void
zrows_tile(int NI, int NJ, __mmask16 tail, int rows, int k, const float *ap, int ldp,
           const float *b, int64_t bs, int64_t bj, float *c, int ldc, bool zero) {
    __m512 acc[4][4];
    zouter(NJ, NI, tail, k, b, bj, bs, ap, ldp, acc);
    /* one buffer per column: through a single shared one GCC kept the
     * accumulators in memory, a store each per p */
    float out[4][64];
    for (int j = 0; j < NJ; j++)
        for (int v = 0; v < NI; v++) _mm512_storeu_ps(out[j] + 16 * v, acc[j][v]);
    for (int l = 0; l < rows; l++)
        for (int j = 0; j < NJ; j++) {
            float *cc = c + (int64_t)l * ldc + j;
            *cc = (zero ? 0.0f : *cc) + out[j][l];
        }
}

/* along_rows on 512-bit tiles of 64 rows x 4 columns. */
SG512_TARGET static void zalong_rows(bool tb, int m, int n, int k, const float *ap, int ldp,
                                     const float *b, int ldb, float *c, int ldc, bool zero) {
    int64_t bs = tb ? 1 : ldb, bj = tb ? ldb : 1;
    for (int j = 0; j < n; j += 4)
        for (int i = 0; i < m; i += 64) {
            int NJ = n - j < 4 ? n - j : 4, w = m - i < 64 ? m - i : 64, NI = (w + 15) / 16;
            const float *bq = b + (int64_t)j * bj;
            float *cr = c + (int64_t)i * ldc + j;
#define ZROWS(v, q)                                                                                \
    case 4 * (v) + (q)-5:                                                                          \
        zrows_tile(v, q, tail_mask(w), w, k, ap + i, ldp, bq, bs, bj, cr, ldc, zero);              \
        break;
            switch (4 * NI + NJ - 5) {
                ZTILES(ZROWS)
            default: break;
            }
#undef ZROWS
        }
}

/* pack [k][n] (row stride n) = B^T for a B^T of at most 7 rows (B is
 * [n][k], row stride ldb): a gather of 16 elements per row of the pack and
 * 16 columns, where transpose() would go element by element (its 8x8
 * blocks need k >= 8). */
SG512_TARGET static void zpack_narrow(float *pack, const float *b, int n, int k, int ldb) {
    __m512i idx =
        _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                           _mm512_set1_epi32(ldb));
    for (int j = 0; j < n; j += 16) {
        __mmask16 mk = (__mmask16)(n - j >= 16 ? 0xFFFFu : (1u << (n - j)) - 1);
        const float *bj = b + (int64_t)j * ldb;
        for (int p = 0; p < k; p++)
            _mm512_mask_storeu_ps(
                pack + (int64_t)p * n + j, mk,
                _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mk, idx, bj + p, 4));
    }
}

SG_TARGET static bool small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                                  const float *b, int ldb, float *c, int ldc, bool zero) {
    float pack[PACK];
    bool wide = !small_force_avx2 && cpu_avx512();
    if (n >= 8) {
        /* B(p, j) with j contiguous: B itself, or B^T copied */
        const float *bp = b;
        int ldp = ldb;
        if (tb) {
            if ((int64_t)k * n > PACK) return false;
            if (wide && k < 8)
                zpack_narrow(pack, b, n, k, ldb);
            else
                transpose(pack, b, n, k, ldb);
            bp = pack, ldp = n;
        }
        if (wide) {
            zalong_cols(ta, m, n, k, a, lda, bp, ldp, c, ldc, zero);
        } else {
            if (zero) clear_rows(c, m, n, ldc);
            along_cols(ta, m, n, k, a, lda, bp, ldp, c, ldc);
        }
        return true;
    }
    /* A(i, p) with i contiguous: A^T itself, or A copied transposed */
    const float *ap = a;
    int ldp = lda;
    if (!ta) {
        if ((int64_t)k * m > PACK) return false;
        transpose(pack, a, m, k, lda);
        ap = pack, ldp = m;
    }
    if (wide) {
        zalong_rows(tb, m, n, k, ap, ldp, b, ldb, c, ldc, zero);
    } else {
        if (zero) clear_rows(c, m, n, ldc);
        along_rows(tb, m, n, k, ap, ldp, b, ldb, c, ldc);
    }
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

/* The same sums on 512-bit vectors (AVX-512F): each lane is its own
 * element's chain, so a 16-lane FMA does what two 8-lane ones did, in the
 * same order, with the same bits, at twice the multiply-adds per cycle on a
 * CPU with full-width 512-bit units (Zen 5: a 64x64x64 product in half the
 * time). A and B are read where they are, as above: at 64^3 B's rows are
 * 256 bytes apart and stay in L1, so packing them (as panel_sgemm does for
 * larger products) would only add work.
 *
 * C(i, j) for R rows and NZ 16-column blocks: one chain each. */
SG512_TARGET static inline __attribute__((always_inline)) void
ztile_chain(int R, int NZ, int k, const float *a, int64_t ai, int64_t ap, const float *b, int ldb,
            float *c, int ldc, bool zero) {
    __m512 acc[6][4];
    for (int i = 0; i < R; i++)
        for (int g = 0; g < NZ; g++) acc[i][g] = _mm512_setzero_ps();
    for (int p = 0; p < k; p++) {
        __m512 bv[4];
        for (int g = 0; g < NZ; g++) bv[g] = _mm512_loadu_ps(b + (int64_t)p * ldb + 16 * g);
        for (int i = 0; i < R; i++) {
            __m512 av = _mm512_set1_ps(a[i * ai + p * ap]);
            for (int g = 0; g < NZ; g++) acc[i][g] = _mm512_fmadd_ps(av, bv[g], acc[i][g]);
        }
    }
    for (int i = 0; i < R; i++)
        for (int g = 0; g < NZ; g++) {
            float *cc = c + (int64_t)i * ldc + 16 * g;
            __m512 old = zero ? _mm512_setzero_ps() : _mm512_loadu_ps(cc);
            _mm512_storeu_ps(cc, _mm512_add_ps(acc[i][g], old));
        }
}

/* Two groups of 8 columns, at b + o0 and b + o1 (o1 = o0 + 8 for a
 * chunk of 4, or the first and last group of a row half), both with two
 * chains per element as tile_split keeps them: one 512-bit vector holds
 * both groups' lanes. */
SG512_TARGET static inline __attribute__((always_inline)) __m512 zload_pair(const float *p, int o0,
                                                                            int o1) {
    /* insertf64x4 rather than insertf32x8 (AVX-512DQ): the same move */
    return _mm512_castpd_ps(_mm512_insertf64x4(
        _mm512_castpd256_pd512(_mm256_loadu_pd((const double *)(const void *)(p + o0))),
        _mm256_loadu_pd((const double *)(const void *)(p + o1)), 1));
}

SG512_TARGET static inline __attribute__((always_inline)) void
ztile_split(int R, int k, const float *a, int64_t ai, int64_t ap, const float *b, int o0, int o1,
            int ldb, float *c, int ldc, bool zero) {
    __m512 ev[6], od[6];
    for (int i = 0; i < R; i++) ev[i] = od[i] = _mm512_setzero_ps();
    int k8 = k & ~7, p = 0;
    for (; p < k8; p += 2) {
        const float *br = b + (int64_t)p * ldb;
        __m512 b0 = zload_pair(br, o0, o1), b1 = zload_pair(br + ldb, o0, o1);
        for (int i = 0; i < R; i++) {
            ev[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i * ai + p * ap]), b0, ev[i]);
            od[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i * ai + (p + 1) * ap]), b1, od[i]);
        }
    }
    for (; p < k; p++) {
        __m512 b0 = zload_pair(b + (int64_t)p * ldb, o0, o1);
        for (int i = 0; i < R; i++)
            ev[i] = _mm512_fmadd_ps(_mm512_set1_ps(a[i * ai + p * ap]), b0, ev[i]);
    }
    for (int i = 0; i < R; i++) {
        float *cc = c + (int64_t)i * ldc;
        __m512 old = zero ? _mm512_setzero_ps() : zload_pair(cc, o0, o1);
        __m512 s = _mm512_add_ps(_mm512_add_ps(od[i], ev[i]), old);
        _mm256_storeu_ps(cc + o0, _mm512_castps512_ps256(s));
        _mm256_storeu_pd((double *)(void *)(cc + o1),
                         _mm512_extractf64x4_pd(_mm512_castps_pd(s), 1));
    }
}

/* R rows: the groups that keep one chain in runs of up to 64 columns, an
 * odd group left over on 256-bit vectors; the split groups (at most two)
 * in one 512-bit tile, or a lone one on 256-bit vectors. */
#define ZTILE_ROWS(R)                                                                              \
    SG512_TARGET static void zrows_##R(int G, int split_lo, int split_hi, int k, const float *a,   \
                                       int64_t ai, int64_t ap, const float *b, int ldb, float *c,  \
                                       int ldc, bool zero) {                                       \
        for (int g = 0; g < G;) {                                                                  \
            int run = 0;                                                                           \
            while (g + run < G && g + run != split_lo && g + run != split_hi && run < 8) run++;    \
            const float *bg = b + 8 * g;                                                           \
            float *cg = c + 8 * g;                                                                 \
            switch (run / 2) {                                                                     \
            case 4: ztile_chain(R, 4, k, a, ai, ap, bg, ldb, cg, ldc, zero); break;                \
            case 3: ztile_chain(R, 3, k, a, ai, ap, bg, ldb, cg, ldc, zero); break;                \
            case 2: ztile_chain(R, 2, k, a, ai, ap, bg, ldb, cg, ldc, zero); break;                \
            case 1: ztile_chain(R, 1, k, a, ai, ap, bg, ldb, cg, ldc, zero); break;                \
            default: break;                                                                        \
            }                                                                                      \
            if (run % 2)                                                                           \
                tile_chain(R, 1, k, a, ai, ap, bg + 16 * (run / 2), ldb, cg + 16 * (run / 2), ldc, \
                           zero);                                                                  \
            g += run;                                                                              \
            if (run == 0) g++; /* a split group: below */                                          \
        }                                                                                          \
        if (split_lo >= 0 && split_hi >= 0)                                                        \
            ztile_split(R, k, a, ai, ap, b, 8 * split_lo, 8 * split_hi, ldb, c, ldc, zero);        \
        else if (split_lo >= 0 || split_hi >= 0)                                                   \
            tile_split(R, k, a, ai, ap, b + 8 * (split_lo >= 0 ? split_lo : split_hi), ldb,        \
                       c + 8 * (split_lo >= 0 ? split_lo : split_hi), ldc, zero);                  \
    }
ZTILE_ROWS(1)
ZTILE_ROWS(2)
ZTILE_ROWS(3)
ZTILE_ROWS(6)

/* A chunk of 4 rows keeps two chains in every group: NZ blocks of 16
 * contiguous columns (two groups each) at once, so that each broadcast of
 * A meets NZ vectors of B (with one block, the broadcasts outnumbered the
 * FMAs and the loads set the pace). */
SG512_TARGET static inline __attribute__((always_inline)) void
ztile_split4(int NZ, int k, const float *a, int64_t ai, int64_t ap, const float *b, int ldb,
             float *c, int ldc, bool zero) {
    __m512 ev[4][2], od[4][2];
    for (int i = 0; i < 4; i++)
        for (int g = 0; g < NZ; g++) ev[i][g] = od[i][g] = _mm512_setzero_ps();
    int k8 = k & ~7, p = 0;
    for (; p < k8; p += 2) {
        __m512 b0[2], b1[2];
        for (int g = 0; g < NZ; g++) {
            b0[g] = _mm512_loadu_ps(b + (int64_t)p * ldb + 16 * g);
            b1[g] = _mm512_loadu_ps(b + (int64_t)(p + 1) * ldb + 16 * g);
        }
        for (int i = 0; i < 4; i++) {
            __m512 a0 = _mm512_set1_ps(a[i * ai + p * ap]),
                   a1 = _mm512_set1_ps(a[i * ai + (p + 1) * ap]);
            for (int g = 0; g < NZ; g++) {
                ev[i][g] = _mm512_fmadd_ps(a0, b0[g], ev[i][g]);
                od[i][g] = _mm512_fmadd_ps(a1, b1[g], od[i][g]);
            }
        }
    }
    for (; p < k; p++)
        for (int i = 0; i < 4; i++) {
            __m512 a0 = _mm512_set1_ps(a[i * ai + p * ap]);
            for (int g = 0; g < NZ; g++)
                ev[i][g] =
                    _mm512_fmadd_ps(a0, _mm512_loadu_ps(b + (int64_t)p * ldb + 16 * g), ev[i][g]);
        }
    for (int i = 0; i < 4; i++)
        for (int g = 0; g < NZ; g++) {
            float *cc = c + (int64_t)i * ldc + 16 * g;
            __m512 old = zero ? _mm512_setzero_ps() : _mm512_loadu_ps(cc);
            _mm512_storeu_ps(cc, _mm512_add_ps(_mm512_add_ps(od[i][g], ev[i][g]), old));
        }
}

SG512_TARGET static void zrows_4_split(int G, int k, const float *a, int64_t ai, int64_t ap,
                                       const float *b, int ldb, float *c, int ldc, bool zero) {
    int g = 0;
    for (; g + 4 <= G; g += 4) ztile_split4(2, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);
    if (g + 2 <= G) {
        ztile_split4(1, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);
        g += 2;
    }
    if (g < G) tile_split(4, k, a, ai, ap, b + 8 * g, ldb, c + 8 * g, ldc, zero);
}

typedef void (*tile_rows_fn)(int G, int split_lo, int split_hi, int k, const float *a, int64_t ai,
                             int64_t ap, const float *b, int ldb, float *c, int ldc, bool zero);

SG_TARGET static void tiled(bool ta, int m, int n, int k, const float *a, int lda, const float *bp,
                            int ldp, float *c, int ldc, bool zero) {
    int G = n / 8;
    int64_t ai = ta ? 1 : lda, ap = ta ? lda : 1;
    bool wide = !small_force_avx2 && cpu_avx512();
    tile_rows_fn r6 = wide ? zrows_6 : rows_6, r3 = wide ? zrows_3 : rows_3,
                 r2 = wide ? zrows_2 : rows_2, r1 = wide ? zrows_1 : rows_1;
    for (int r = 0; r < m;) {
        int rem = m - r, chunk = rem >= 12 ? 12 : rem > 4 ? 4 : rem;
        const float *ar = a + r * ai;
        float *cr = c + (int64_t)r * ldc;
        if (chunk == 12) {
            /* rows 0-5: group 0 and, G even, group G-1; rows 6-11: G odd, group G-1 */
            int lo0 = G >= 2 ? 0 : -1, lo1 = G >= 2 && G % 2 == 0 ? G - 1 : -1;
            int hi = G >= 2 && G % 2 == 1 ? G - 1 : -1;
            r6(G, lo0, lo1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
            r6(G, hi, -1, k, ar + 6 * ai, ai, ap, bp, ldp, cr + 6 * (int64_t)ldc, ldc, zero);
        } else if (chunk == 4) {
            if (wide)
                zrows_4_split(G, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
            else
                for (int g = 0; g < G; g++)
                    tile_split(4, k, ar, ai, ap, bp + 8 * g, ldp, cr + 8 * g, ldc, zero);
        } else if (chunk == 3) {
            r3(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
        } else if (chunk == 2) {
            r2(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
        } else {
            r1(G, -1, -1, k, ar, ai, ap, bp, ldp, cr, ldc, zero);
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

/* Larger products at one thread: a GPT's attention, [256x64]x[64x256] and
 * [256x256]x[256x64] per head (B*H = 48 of each per layer at B4 T256), and
 * [128x64]x[64x128] and the like. OpenBLAS computes them in the order above
 * while its blocks hold the whole product: its sgemm driver (driver/level3.c)
 * takes K in blocks of GEMM_Q (k up to 320 is one block here: at 321 the
 * bits change), our columns (its M) in blocks of GEMM_P (up to 256 columns
 * one block; at 384 the second block's tiles differ) and our rows (its N) in
 * blocks of GEMM_R (thousands). Checked with cblas_sgemm at one thread for m
 * up to 1024, n up to 256 and k up to 320, all four transposes (tests/unit
 * test_matmul.c, small_sgemm_panels_have_openblas_bits); taken for m up to
 * 1024 and n, k up to 256. Above 64^3 multiply-adds OpenBLAS splits a product
 * among its threads when it has more than one, so the caller says how many
 * it runs on (at two, a head of 256 x 256 x 64 goes to big_sgemm_two
 * below, in OpenBLAS's two-thread order, which is PyTorch's there: in a
 * batched matmul its shares run one after the other on a pool task's
 * thread, ops_matmul.c).
 *
 * At these sizes reading A and B where they are is slower than OpenBLAS:
 * a head's q, k, v are rows of the qkv output (row stride 2304 floats), and
 * [k][16] blocks of B at such a stride, or at 256 floats, fall in a few of
 * L1's sets and are read again from L2 for every 6 rows. So, as OpenBLAS
 * does, B is packed first into panels of 16 columns ([k][16], contiguous;
 * the last panel 8 wide when n % 16 == 8) and each chunk of rows of A into
 * [k][rows]. The sums are the same: packing moves the operands, not the
 * order of the FMAs. */
enum { PANEL_MAX_M = 1024, PANEL_MAX = 256, PANEL_PACK = 16384 };

static bool panel_shape(int m, int n, int k) {
    return n % 8 == 0 && m <= PANEL_MAX_M && n <= PANEL_MAX && k <= PANEL_MAX &&
           ((int64_t)k * n <= PANEL_PACK || (int64_t)m * k <= PANEL_PACK);
}

/* B [k, n] into panels: columns j0..j0+w of B at bp + j0 k, row stride w. */
SG_TARGET static void pack_b(bool tb, int n, int k, const float *b, int ldb, float *bp) {
    for (int j0 = 0; j0 < n; j0 += 16) {
        int w = n - j0 >= 16 ? 16 : 8;
        float *dst = bp + (int64_t)j0 * k;
        if (tb) {
            transpose(dst, b + (int64_t)j0 * ldb, w, k, ldb);
        } else {
            /* vector moves: memcpy of 64 bytes became rep movsq, a sixth of
             * the time of a [256x256]x[256x64] product */
            for (int p = 0; p < k; p++) {
                const float *src = b + (int64_t)p * ldb + j0;
                _mm256_storeu_ps(dst + (int64_t)p * w, _mm256_loadu_ps(src));
                if (w == 16) _mm256_storeu_ps(dst + (int64_t)p * w + 8, _mm256_loadu_ps(src + 8));
            }
        }
    }
}

/* Rows r0..r0+R of A [m, k] into ap [k][R]. */
SG_TARGET static void pack_a(bool ta, int R, int k, const float *a, int lda, int r0, float *ap) {
    if (ta && R == 12) {
        for (int p = 0; p < k; p++) {
            const float *src = a + (int64_t)p * lda + r0;
            _mm256_storeu_ps(ap + p * 12, _mm256_loadu_ps(src));
            _mm_storeu_ps(ap + p * 12 + 8, _mm_loadu_ps(src + 8));
        }
    } else if (ta) {
        for (int p = 0; p < k; p++)
            for (int r = 0; r < R; r++) ap[p * R + r] = a[(int64_t)p * lda + r0 + r];
    } else {
        transpose(ap, a + (int64_t)r0 * lda, R, k, lda);
    }
}

/* R rows (R <= 6, packed [k][RC]) against NG (1 or 2) groups of 8 columns
 * of a panel (packed [k][ldb]), one chain per element, on 256-bit vectors.
 * Named accumulators rather than an array: GCC kept an array of them in
 * memory, storing each after its FMA (2.5 times slower than OpenBLAS). */
#define Y_ROW(r)                                                                                   \
    if (R > r) {                                                                                   \
        __m256 av = _mm256_broadcast_ss(ar + r);                                                   \
        x##r##0 = _mm256_fmadd_ps(av, b0, x##r##0);                                                \
        if (NG == 2) x##r##1 = _mm256_fmadd_ps(av, b1, x##r##1);                                   \
    }
#define Y_STORE(r, g)                                                                              \
    {                                                                                              \
        float *cc = c + (int64_t)r * ldc + 8 * g;                                                  \
        _mm256_storeu_ps(                                                                          \
            cc, _mm256_add_ps(x##r##g, zero ? _mm256_setzero_ps() : _mm256_loadu_ps(cc)));         \
    }
SG_TARGET static inline __attribute__((always_inline)) void
ymm_chain(int R, int NG, int k, const float *ap, int RC, const float *bp, int ldb, float *c,
          int ldc, bool zero) {
    __m256 x00 = _mm256_setzero_ps(), x01 = x00, x10 = x00, x11 = x00, x20 = x00, x21 = x00,
           x30 = x00, x31 = x00, x40 = x00, x41 = x00, x50 = x00, x51 = x00;
    for (int p = 0; p < k; p++) {
        const float *ar = ap + (int64_t)p * RC, *br = bp + (int64_t)p * ldb;
        __m256 b0 = _mm256_loadu_ps(br), b1 = NG == 2 ? _mm256_loadu_ps(br + 8) : b0;
        Y_ROW(0) Y_ROW(1) Y_ROW(2) Y_ROW(3) Y_ROW(4) Y_ROW(5)
    }
#define Y_STORE_ROW(r)                                                                             \
    if (R > r) {                                                                                   \
        Y_STORE(r, 0)                                                                              \
        if (NG == 2) Y_STORE(r, 1)                                                                 \
    }
    Y_STORE_ROW(0) Y_STORE_ROW(1) Y_STORE_ROW(2) Y_STORE_ROW(3) Y_STORE_ROW(4) Y_STORE_ROW(5)
}

/* The same for one group of 8 columns with two chains per element (even
 * and odd k while 8 k remain, the last k % 8 on the even chain), the
 * chains added before C. */
#define S_ROW2(r)                                                                                  \
    if (R > r) {                                                                                   \
        x##r##0 = _mm256_fmadd_ps(_mm256_broadcast_ss(ar + r), b0, x##r##0);                       \
        x##r##1 = _mm256_fmadd_ps(_mm256_broadcast_ss(ar + RC + r), b1, x##r##1);                  \
    }
#define S_ROW1(r)                                                                                  \
    if (R > r) x##r##0 = _mm256_fmadd_ps(_mm256_broadcast_ss(ar + r), b0, x##r##0);
#define S_STORE(r)                                                                                 \
    if (R > r) {                                                                                   \
        float *cc = c + (int64_t)r * ldc;                                                          \
        __m256 old = zero ? _mm256_setzero_ps() : _mm256_loadu_ps(cc);                             \
        _mm256_storeu_ps(cc, _mm256_add_ps(_mm256_add_ps(x##r##1, x##r##0), old));                 \
    }
SG_TARGET static inline __attribute__((always_inline)) void ymm_split(int R, int k, const float *ap,
                                                                      int RC, const float *bp,
                                                                      int ldb, float *c, int ldc,
                                                                      bool zero) {
    __m256 x00 = _mm256_setzero_ps(), x01 = x00, x10 = x00, x11 = x00, x20 = x00, x21 = x00,
           x30 = x00, x31 = x00, x40 = x00, x41 = x00, x50 = x00, x51 = x00;
    int k8 = k & ~7, p = 0;
    for (; p < k8; p += 2) {
        const float *ar = ap + (int64_t)p * RC, *br = bp + (int64_t)p * ldb;
        __m256 b0 = _mm256_loadu_ps(br), b1 = _mm256_loadu_ps(br + ldb);
        S_ROW2(0) S_ROW2(1) S_ROW2(2) S_ROW2(3) S_ROW2(4) S_ROW2(5)
    }
    for (; p < k; p++) {
        const float *ar = ap + (int64_t)p * RC;
        __m256 b0 = _mm256_loadu_ps(bp + (int64_t)p * ldb);
        S_ROW1(0) S_ROW1(1) S_ROW1(2) S_ROW1(3) S_ROW1(4) S_ROW1(5)
    }
    S_STORE(0) S_STORE(1) S_STORE(2) S_STORE(3) S_STORE(4) S_STORE(5)
}

/* R rows (packed [k][RC]) against one panel of NG groups of 8 columns
 * (packed [k][8 NG]); group g keeps two chains when split & (1 << g). */
#define PANEL_YMM(R)                                                                               \
    SG_TARGET static void panel_ymm_##R(int NG, int split, int k, const float *ap, int RC,         \
                                        const float *bp, float *c, int ldc, bool zero) {           \
        if (NG == 2 && !split) {                                                                   \
            ymm_chain(R, 2, k, ap, RC, bp, 16, c, ldc, zero);                                      \
            return;                                                                                \
        }                                                                                          \
        for (int g = 0; g < NG; g++) {                                                             \
            if (split & (1 << g))                                                                  \
                ymm_split(R, k, ap, RC, bp + 8 * g, 8 * NG, c + 8 * g, ldc, zero);                 \
            else                                                                                   \
                ymm_chain(R, 1, k, ap, RC, bp + 8 * g, 8 * NG, c + 8 * g, ldc, zero);              \
        }                                                                                          \
    }
PANEL_YMM(1)
PANEL_YMM(2)
PANEL_YMM(3)
PANEL_YMM(4)
PANEL_YMM(6)

/* Which of a panel's groups (bit 0: group 2q, bit 1: 2q + 1) keep two
 * chains in rows 0-5 ([hi] false) or 6-11 of a 12-row chunk, by the rule
 * above tiled(). */
static int split_bits(int G, int q, bool hi) {
    int bits = 0;
    for (int h = 0; h < 2; h++) {
        int g = 2 * q + h;
        if (g >= G || G < 2) continue;
        bool s = hi ? G % 2 == 1 && g == G - 1 : g == 0 || (G % 2 == 0 && g == G - 1);
        if (s) bits |= 1 << h;
    }
    return bits;
}

/* The rows of chunks of 12, then 4, then the rest, as tiled() takes them;
 * [wide] runs the panels with neither group split on 512-bit vectors. */
typedef void (*panel_rows_fn)(int R, int NG, int split, int k, const float *ap, int RC,
                              const float *bp, float *c, int ldc, bool zero);

SG_TARGET static void panel_rows_ymm(int R, int NG, int split, int k, const float *ap, int RC,
                                     const float *bp, float *c, int ldc, bool zero) {
    switch (R) {
    case 6: panel_ymm_6(NG, split, k, ap, RC, bp, c, ldc, zero); break;
    case 4: panel_ymm_4(NG, split, k, ap, RC, bp, c, ldc, zero); break;
    case 3: panel_ymm_3(NG, split, k, ap, RC, bp, c, ldc, zero); break;
    case 2: panel_ymm_2(NG, split, k, ap, RC, bp, c, ldc, zero); break;
    default: panel_ymm_1(NG, split, k, ap, RC, bp, c, ldc, zero); break;
    }
}

/* R rows against a 16-column panel whose elements are all one chain: one
 * 512-bit vector per row, the same FMAs per element as two 256-bit ones
 * (each lane its own chain), so the same bits at twice the width. */
#define Z_ROW(r)                                                                                   \
    if (R > r) z##r = _mm512_fmadd_ps(_mm512_set1_ps(ar[r]), bv, z##r);
#define Z_STORE(r)                                                                                 \
    if (R > r) {                                                                                   \
        float *cc = c + (int64_t)r * ldc;                                                          \
        _mm512_storeu_ps(cc,                                                                       \
                         _mm512_add_ps(z##r, zero ? _mm512_setzero_ps() : _mm512_loadu_ps(cc)));   \
    }
SG512_TARGET static inline __attribute__((always_inline)) void
zmm_chain(int R, int k, const float *ap, int RC, const float *bp, float *c, int ldc, bool zero) {
    __m512 z0 = _mm512_setzero_ps(), z1 = z0, z2 = z0, z3 = z0, z4 = z0, z5 = z0, z6 = z0, z7 = z0,
           z8 = z0, z9 = z0, z10 = z0, z11 = z0;
    for (int p = 0; p < k; p++) {
        const float *ar = ap + (int64_t)p * RC;
        __m512 bv = _mm512_loadu_ps(bp + (int64_t)p * 16);
        Z_ROW(0)
        Z_ROW(1)
        Z_ROW(2) Z_ROW(3) Z_ROW(4) Z_ROW(5) Z_ROW(6) Z_ROW(7) Z_ROW(8) Z_ROW(9) Z_ROW(10) Z_ROW(11)
    }
    Z_STORE(0)
    Z_STORE(1)
    Z_STORE(2)
    Z_STORE(3)
    Z_STORE(4) Z_STORE(5) Z_STORE(6) Z_STORE(7) Z_STORE(8) Z_STORE(9) Z_STORE(10) Z_STORE(11)
}

SG512_TARGET static void panel_rows_zmm(int R, int NG, int split, int k, const float *ap, int RC,
                                        const float *bp, float *c, int ldc, bool zero) {
    if (NG == 2 && !split) {
        switch (R) {
        case 12: zmm_chain(12, k, ap, RC, bp, c, ldc, zero); return;
        case 6: zmm_chain(6, k, ap, RC, bp, c, ldc, zero); return;
        case 3: zmm_chain(3, k, ap, RC, bp, c, ldc, zero); return;
        case 2: zmm_chain(2, k, ap, RC, bp, c, ldc, zero); return;
        case 1: zmm_chain(1, k, ap, RC, bp, c, ldc, zero); return;
        default: break;
        }
    }
    panel_rows_ymm(R, NG, split, k, ap, RC, bp, c, ldc, zero);
}

/* One chunk of rows (packed [k][chunk]) against panel q (packed [k][16]):
 * the chunk's rows in the kernel's halves, two chains where they are. */
SG_TARGET static void panel_tile(panel_rows_fn rows, bool wide, int G, int q, int chunk, int k,
                                 const float *ap, const float *bq, float *cq, int ldc, bool zero) {
    int NG = 2 * q + 1 < G ? 2 : 1;
    if (chunk == 12) {
        int lo = split_bits(G, q, false), hi = split_bits(G, q, true);
        if (wide && NG == 2 && lo == 0 && hi == 0) {
            rows(12, NG, 0, k, ap, 12, bq, cq, ldc, zero);
        } else {
            rows(6, NG, lo, k, ap, 12, bq, cq, ldc, zero);
            rows(6, NG, hi, k, ap + 6, 12, bq, cq + 6 * (int64_t)ldc, ldc, zero);
        }
    } else {
        /* a chunk of 4 keeps two chains in every group */
        rows(chunk, NG, chunk == 4 ? (1 << NG) - 1 : 0, k, ap, chunk, bq, cq, ldc, zero);
    }
}

static int chunk_rows(int rem) {
    return rem >= 12 ? 12 : rem > 4 ? 4 : rem;
}

/* With all of B packed (k n <= PANEL_PACK: q k^T, att v, dS k, att^T dy)
 * each chunk of A is packed once and meets every panel; otherwise (the
 * gradient of k as q^T dS: [64x256]x[256x256]) all of A is packed, chunk
 * after chunk, and each panel of B in turn meets every chunk. */
SG_TARGET static void panel_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                                  const float *b, int ldb, float *c, int ldc, bool zero) {
    float pack[PANEL_PACK], part[16 * PANEL_MAX];
    bool wide = !small_force_avx2 && cpu_avx512();
    panel_rows_fn rows = wide ? panel_rows_zmm : panel_rows_ymm;
    int G = n / 8;
    if ((int64_t)k * n <= PANEL_PACK) {
        pack_b(tb, n, k, b, ldb, pack);
        for (int r = 0, chunk; r < m; r += chunk) {
            chunk = chunk_rows(m - r);
            pack_a(ta, chunk, k, a, lda, r, part);
            for (int q = 0; 2 * q < G; q++)
                panel_tile(rows, wide, G, q, chunk, k, part, pack + (int64_t)16 * q * k,
                           c + (int64_t)r * ldc + 16 * q, ldc, zero);
        }
        return;
    }
    for (int r = 0, chunk; r < m; r += chunk) {
        chunk = chunk_rows(m - r);
        pack_a(ta, chunk, k, a, lda, r, pack + (int64_t)r * k);
    }
    for (int q = 0; 2 * q < G; q++) {
        int w = 2 * q + 1 < G ? 16 : 8;
        pack_b(tb, w, k, tb ? b + (int64_t)16 * q * ldb : b + 16 * q, ldb, part);
        for (int r = 0, chunk; r < m; r += chunk) {
            chunk = chunk_rows(m - r);
            panel_tile(rows, wide, G, q, chunk, k, pack + (int64_t)r * k, part,
                       c + (int64_t)r * ldc + 16 * q, ldc, zero);
        }
    }
}

/* The Linear layers' products at one thread (a GPT's x W^T, dy W and
 * dy^T x: [1024 x 768] x [768 x 3072], the LM head's [1024 x 768] x
 * [768 x 50257], ...), with OpenBLAS's bits. OpenBLAS 0.3.21's driver
 * (driver/level3.c, Zen/Haswell: GEMM_P = GEMM_Q = 320, unroll 8 x 4,
 * GEMM_R above 100000) works on C^T, so its M is our columns, its N our
 * rows:
 *  - K in blocks (blas_block: 320 while at least 640 remain, then about
 *    half of the rest rounded up to 8, then the rest); each block's sum is
 *    added to C (C = s + C), the first to C as beta left it;
 *  - our columns in blocks the same way (320, then halves), each block a
 *    kernel call of its own, its 8-column groups counted from the block's
 *    first column (the block's last n % 8 columns one chain each);
 *  - our rows: for the first column block the driver calls the kernel on
 *    chunks of 12 rows while 12 remain, then of 4 while more than 4
 *    remain, then the rest; for the later column blocks the kernel gets all
 *    rows at once and takes 12 while 12 remain, then 8, 4, 2, 1
 *    (big_chunk). A chunk of 12 keeps two chains where split_bits says
 *    (panel_tile), a chunk of 4 in every group, 8 and 1-3 rows one chain.
 * Each element's partial sums are then exactly OpenBLAS's: an FMA chain
 * (or the even/odd pair) over the block's k in order. Checked bit for bit
 * against cblas_sgemm at one thread over the GPT's shapes and a sweep of
 * odd sizes (tests/unit/test_matmul.c, big_sgemm_has_openblas_bits).
 * Only where 512-bit vectors run (on 256-bit ones OpenBLAS's own kernel is
 * as fast). At two threads OpenBLAS divides C between its threads and
 * blocks each share in its own way: big_sgemm_two below. */
/* BIG_PAD: the packed block's rows are 8 G + 16 floats apart, so that a
 * 16-column slice of 256 columns' rows (1 KiB apart) does not fall in a
 * few of L1's sets. */
enum { BIG_Q = 320, BIG_PAD = 16, BIG_MAX_ROWS = 16384, BIG2_MAX_ROWS = 65536 };

/* OpenBLAS's next block of a dimension with [left] to go (level3.c, one
 * thread: k and the columns alike). */
static int blas_block(int left) {
    if (left >= 2 * BIG_Q) return BIG_Q;
    if (left > BIG_Q) return (left / 2 + 7) / 8 * 8;
    return left;
}

/* The same in level3_thread.c (two threads): k is halved without rounding;
 * a thread's first column block is level3.c's, its later ones round half
 * of the rest, plus one, up to 8. */
static int thread_k_block(int left) {
    if (left >= 2 * BIG_Q) return BIG_Q;
    if (left > BIG_Q) return (left + 1) / 2;
    return left;
}

static int thread_col_block(int left, bool first) {
    if (left >= 2 * BIG_Q) return BIG_Q;
    if (left > BIG_Q) return ((first ? left / 2 : (left + 1) / 2) + 7) / 8 * 8;
    return left;
}

/* One OpenBLAS thread's share of a product: our columns [c0, c1) against
 * the row parts [rows[q], rows[q + 1]) (q < parts); [own] bit q: part q
 * is one the thread packed itself, which in its first column block it
 * hands to the kernel in chunks of 12, then 4, then the rest (the others,
 * and every part in the later column blocks, the kernel takes whole:
 * 12, 8, 4, 2, 1). [threaded]: level3_thread.c's blocks, else level3.c's
 * (one thread: all of C, one part of its own). */
typedef struct big_share {
    int c0, c1, parts;
    int rows[5];
    unsigned own;
    bool threaded;
} big_share;

/* Rows in the next chunk ([left] to go) for the first column block
 * ([first]) or a later one; 8 rows are one chain, as 6 and 2. */
static int big_chunk(int left, bool first) {
    if (left >= 12) return 12;
    if (first) return left > 4 ? 4 : left;
    return left >= 8 ? 8 : left >= 4 ? 4 : left;
}

/* The packed B block ([kb][16] panels of at most 320 x 320): 400 KiB, too
 * much for the stack of a worker thread. Each thread that calls
 * nn_small_sgemm keeps one (buffer 0), allocated at its first such product
 * and freed when the thread ends, and a second (buffer 1) for the other
 * task of a product split in two, so that a task never needs memory it
 * might not get once the other has started writing C. */
static pthread_key_t big_key[2];
static pthread_once_t big_once = PTHREAD_ONCE_INIT;
static bool big_key_ok;

static void big_key_make(void) {
    big_key_ok = pthread_key_create(&big_key[0], free) == 0;
    if (big_key_ok && pthread_key_create(&big_key[1], free)) big_key_ok = false;
}

static float *big_buffer(int which) {
    pthread_once(&big_once, big_key_make);
    if (!big_key_ok) return NULL;
    float *p = pthread_getspecific(big_key[which]);
    if (!p) {
        p = aligned_alloc(64, sizeof(float) * BIG_Q * (BIG_Q + BIG_PAD));
        if (p && pthread_setspecific(big_key[which], p)) {
            free(p);
            p = NULL;
        }
    }
    return p;
}

/* Rows [r, r + R) against the block's columns [j0, j0 + w), w < 8 (the
 * block's last w columns): one chain per element, k in order. */
static void big_edge(bool ta, bool tb, int R, int w, int kb, const float *a, int lda,
                     const float *b, int ldb, int r, int j0, float *c, int ldc, bool zero) {
    for (int i = r; i < r + R; i++)
        for (int j = j0; j < j0 + w; j++) {
            float s = 0;
            for (int p = 0; p < kb; p++)
                s = fmaf(ta ? a[(int64_t)p * lda + i] : a[(int64_t)i * lda + p],
                         tb ? b[(int64_t)j * ldb + p] : b[(int64_t)p * ldb + j], s);
            float *cc = c + (int64_t)i * ldc + j;
            *cc = s + (zero ? 0.0f : *cc);
        }
}

/* B's block [kb][w] (w a multiple of 8) into bp, row stride ldp: rows of
 * B copied, or B^T transposed in 8x8 blocks. */
SG_TARGET static void big_pack_b(bool tb, int w, int kb, const float *b, int ldb, float *bp,
                                 int ldp) {
    if (!tb) {
        for (int p = 0; p < kb; p++)
            for (int j = 0; j < w; j += 8)
                _mm256_storeu_ps(bp + (int64_t)p * ldp + j,
                                 _mm256_loadu_ps(b + (int64_t)p * ldb + j));
        return;
    }
    int k8 = kb & ~7;
    for (int j = 0; j < w; j += 8) {
        for (int p = 0; p < k8; p += 8) {
            transpose8(bp + (int64_t)p * ldp + j, ldp, b + (int64_t)j * ldb + p, ldb);
        }
        for (int p = k8; p < kb; p++)
            for (int q = 0; q < 8; q++)
                bp[(int64_t)p * ldp + j + q] = b[(int64_t)(j + q) * ldb + p];
    }
}

/* The same on 256-bit vectors for one group of 8 columns, one chain or
 * two (split). */
#define BIG_YMM(R)                                                                                 \
    SG_TARGET static void big_ymm_##R(bool split, int k, const float *ap, int RC, const float *bp, \
                                      int ldb, float *c, int ldc, bool zero) {                     \
        if (split)                                                                                 \
            ymm_split(R, k, ap, RC, bp, ldb, c, ldc, zero);                                        \
        else                                                                                       \
            ymm_chain(R, 1, k, ap, RC, bp, ldb, c, ldc, zero);                                     \
    }
BIG_YMM(1)
BIG_YMM(2)
BIG_YMM(3)
BIG_YMM(4)
BIG_YMM(6)

SG_TARGET static void big_ymm(int R, bool split, int k, const float *ap, int RC, const float *bp,
                              int ldb, float *c, int ldc, bool zero) {
    switch (R) {
    case 6: big_ymm_6(split, k, ap, RC, bp, ldb, c, ldc, zero); break;
    case 4: big_ymm_4(split, k, ap, RC, bp, ldb, c, ldc, zero); break;
    case 3: big_ymm_3(split, k, ap, RC, bp, ldb, c, ldc, zero); break;
    case 2: big_ymm_2(split, k, ap, RC, bp, ldb, c, ldc, zero); break;
    default: big_ymm_1(split, k, ap, RC, bp, ldb, c, ldc, zero); break;
    }
}

/* R rows (R <= 6, packed [k][RC]) against the G groups of 8 columns of the
 * packed block (row stride ldp) on 256-bit vectors: groups s0 and s1 (or
 * all, [all_split]) keep two chains, the others one. */
SG_TARGET static void big_rows(int R, int G, int s0, int s1, bool all_split, int k, const float *ap,
                               int RC, const float *bp, int ldp, float *c, int ldc, bool zero) {
    for (int g = 0; g < G; g++)
        big_ymm(R, all_split || g == s0 || g == s1, k, ap, RC, bp + 8 * g, ldp, c + 8 * g, ldc,
                zero);
}

/* The same on 512-bit vectors, through the tiled path's row functions (A
 * packed: ai 1, ap RC), whose lanes keep the same chains: one-chain runs
 * of up to 64 columns from wherever they start (rows 0-5 of a 12-row
 * chunk after the split group 0, as OpenBLAS's own kernel does), the two
 * split groups of a row half in one tile, a 4-row chunk's groups in
 * pairs. */
SG512_TARGET static void big_zrows(int R, int G, int s0, int s1, int k, const float *ap, int RC,
                                   const float *bp, int ldp, float *c, int ldc, bool zero) {
    switch (R) {
    case 6: zrows_6(G, s0, s1, k, ap, 1, RC, bp, ldp, c, ldc, zero); break;
    case 4: zrows_4_split(G, k, ap, 1, RC, bp, ldp, c, ldc, zero); break;
    case 3: zrows_3(G, s0, s1, k, ap, 1, RC, bp, ldp, c, ldc, zero); break;
    case 2: zrows_2(G, s0, s1, k, ap, 1, RC, bp, ldp, c, ldc, zero); break;
    default: zrows_1(G, s0, s1, k, ap, 1, RC, bp, ldp, c, ldc, zero); break;
    }
}

/* One thread's share (sh) of C += op(A) op(B), packing B's blocks in
 * [pack]. */
SG_TARGET static void big_share_run(const big_share *sh, float *pack, bool ta, bool tb, int k,
                                    const float *a, int lda, const float *b, int ldb, float *c,
                                    int ldc, bool zero) {
    float part[12 * BIG_Q];
    bool wide = !small_force_avx2 && cpu_avx512();
    for (int ls = 0, kb; ls < k; ls += kb) {
        kb = sh->threaded ? thread_k_block(k - ls) : blas_block(k - ls);
        /* A(i, p) and B(p, j) of this block of k */
        const float *ak = ta ? a + (int64_t)ls * lda : a + ls;
        const float *bk = tb ? b + ls : b + (int64_t)ls * ldb;
        bool z = zero && ls == 0;
        for (int is = sh->c0, mb; is < sh->c1; is += mb) {
            mb = sh->threaded ? thread_col_block(sh->c1 - is, is == sh->c0)
                              : blas_block(sh->c1 - is);
            int G = mb / 8, w = mb % 8, ldp = 8 * G + BIG_PAD;
            if (G) big_pack_b(tb, 8 * G, kb, tb ? bk + (int64_t)is * ldb : bk + is, ldb, pack, ldp);
            /* split groups (rule above tiled()): rows 0-5 of a 12-row chunk
             * group 0 and, G even, G-1; rows 6-11, G odd, G-1 */
            int lo0 = G >= 2 ? 0 : -1, lo1 = G >= 2 && G % 2 == 0 ? G - 1 : -1,
                hi = G >= 2 && G % 2 == 1 ? G - 1 : -1;
            for (int q = 0; q < sh->parts; q++) {
                bool first = is == sh->c0 && (sh->own >> q & 1);
                int end = sh->rows[q + 1];
                for (int r = sh->rows[q], chunk; r < end; r += chunk) {
                    chunk = big_chunk(end - r, first);
                    /* 8 rows: one chain, as 6 rows and 2 */
                    for (int r0 = r, R; r0 < r + chunk; r0 += R) {
                        R = chunk == 8 ? (r0 == r ? 6 : 2) : chunk;
                        float *cr = c + (int64_t)r0 * ldc + is;
                        if (G) {
                            pack_a(ta, R, kb, ak, lda, r0, part);
                            if (R == 12 && wide) {
                                big_zrows(6, G, lo0, lo1, kb, part, 12, pack, ldp, cr, ldc, z);
                                big_zrows(6, G, hi, -1, kb, part + 6, 12, pack, ldp,
                                          cr + 6 * (int64_t)ldc, ldc, z);
                            } else if (R == 12) {
                                big_rows(6, G, lo0, lo1, false, kb, part, 12, pack, ldp, cr, ldc,
                                         z);
                                big_rows(6, G, hi, -1, false, kb, part + 6, 12, pack, ldp,
                                         cr + 6 * (int64_t)ldc, ldc, z);
                            } else if (wide) {
                                big_zrows(R, G, -1, -1, kb, part, R, pack, ldp, cr, ldc, z);
                            } else {
                                big_rows(R, G, -1, -1, R == 4, kb, part, R, pack, ldp, cr, ldc, z);
                            }
                        }
                        if (w)
                            big_edge(ta, tb, R, w, kb, ak, lda, bk, ldb, r0, is + 8 * G, c, ldc, z);
                    }
                }
            }
        }
    }
}

static bool big_shape(int m, int n, int k) {
    return m <= BIG_MAX_ROWS && (small_force_avx2 || cpu_avx512());
}

/* At one thread: all of C, one part of rows, level3.c's blocks. */
static bool big_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                      const float *b, int ldb, float *c, int ldc, bool zero) {
    float *pack = big_buffer(0);
    if (!pack) return false;
    big_share sh = {.c0 = 0, .c1 = n, .parts = 1, .rows = {0, m}, .own = 1, .threaded = false};
    big_share_run(&sh, pack, ta, tb, k, a, lda, b, ldb, c, ldc, zero);
    return true;
}

/* At two OpenBLAS threads. OpenBLAS 0.3.21's interface/gemm.c runs a
 * product of at most 65536 x 4 multiply-adds (m n k, counted in double) on
 * one thread (level3.c: the order above); a larger one goes to
 * level3_thread.c, which works, like level3.c, on C^T (its M our columns
 * n, its N our rows m) with these constants of Debian's build (TARGET
 * GENERIC, DYNAMIC_ARCH: param.h's defaults SWITCH_RATIO 2 and
 * GEMM_PREFERED_SIZE 1; P, Q and the unrolls from the Zen/Haswell table):
 *  - threads over its M: 2 when n >= 4, else 1; over its N then: 1 with
 *    2 over M, else 2 when m >= 3 (n < 4 and m < 3: one thread, level3.c);
 *  - the columns (2 over M): thread 0 takes the first (n + 1) / 2,
 *    thread 1 the rest; the rows are cut in two regions the same way
 *    (region 0 at least 2 rows), one per thread, and each region in two
 *    parts (the first (w + 1) / 2 of its w rows, then the rest). Each
 *    thread packs the rows of its own region and, at 2 over M, multiplies
 *    its columns by both regions (all four parts); at 2 over N, all the
 *    columns by its own region's parts only;
 *  - k in blocks of 320 while 640 remain, then (rest + 1) / 2, then the
 *    rest (not rounded to 8 as at one thread);
 *  - each thread's columns in blocks: 320 while 640 remain, then half
 *    rounded up to 8 (the first block: half of what is left, a later one:
 *    half of what is left plus one), then the rest; 8-column groups and
 *    the two-chain groups counted from each block's first column, which
 *    for thread 1 need not be a multiple of 8 (n = 50257: 25129);
 *  - rows: in a thread's first column block, the parts it packed go to
 *    the kernel in chunks of 12, then 4, then the rest, counted from each
 *    part's first row; the other thread's parts, and every part in the
 *    later column blocks, go whole, the kernel taking 12, 8, 4, 2, 1 from
 *    the part's first row (big_chunk).
 * So each element's order of sums depends on which thread's columns and
 * which part of rows it falls in; C's columns (or rows) are divided, not
 * its sums, so the two threads' work can run in any order. nn_small_sgemm
 * runs the two shares as two tasks of the engine's pool, each with one of
 * the calling thread's two buffers. Found by reading level3_thread.c and
 * interface/gemm.c of 0.3.21 and checked bit for bit against
 * cblas_sgemm at two threads (tests/unit/test_small_gemm.c,
 * big_sgemm_two_threads_has_openblas_bits). */
enum { THREAD_WORK = 262144 };

/* A region [s, e) of rows in its two parts, appended to sh (own: the
 * thread packed them). */
static void add_region(big_share *sh, int s, int e, bool own) {
    int div = (e - s + 1) / 2;
    for (int p0 = s; p0 < e; p0 += div) {
        int p1 = p0 + div < e ? p0 + div : e;
        if (own) sh->own |= 1u << sh->parts;
        sh->rows[sh->parts] = p0;
        sh->rows[++sh->parts] = p1;
    }
}

/* Fills sh[0], sh[1] with the threads' shares; false when OpenBLAS runs
 * the product on one thread. */
static bool split_two(int m, int n, big_share sh[2]) {
    bool over_m = n >= 4;
    if (!over_m && m < 3) return false;
    int r1 = (m + 1) / 2 < 2 ? 2 : (m + 1) / 2;
    if (r1 > m) r1 = m;
    int cmid = (n + 1) / 2;
    for (int t = 0; t < 2; t++) {
        big_share *s = &sh[t];
        *s = (big_share){.threaded = true};
        s->c0 = over_m && t ? cmid : 0;
        s->c1 = over_m && !t ? cmid : n;
        s->rows[0] = 0;
        if (over_m) {
            /* parts in their place in C; the order does not matter */
            add_region(s, 0, r1, t == 0);
            add_region(s, r1, m, t == 1);
        } else {
            add_region(s, t ? r1 : 0, t ? m : r1, true);
        }
    }
    return true;
}

typedef struct big_job {
    big_share sh[2];
    float *pack[2];
    bool ta, tb, zero;
    int k, lda, ldb, ldc;
    const float *a, *b;
    float *c;
} big_job;

static void big_task(void *arg, int task, int n_tasks) {
    (void)n_tasks;
    big_job *j = arg;
    big_share_run(&j->sh[task], j->pack[task], j->ta, j->tb, j->k, j->a, j->lda, j->b, j->ldb, j->c,
                  j->ldc, j->zero);
}

static bool big_sgemm_two(bool ta, bool tb, int m, int n, int k, const float *a, int lda,
                          const float *b, int ldb, float *c, int ldc, bool zero) {
    big_job j = {.ta = ta,
                 .tb = tb,
                 .zero = zero,
                 .k = k,
                 .lda = lda,
                 .ldb = ldb,
                 .ldc = ldc,
                 .a = a,
                 .b = b,
                 .c = c};
    if (!split_two(m, n, j.sh)) return false;
    j.pack[0] = big_buffer(0);
    j.pack[1] = big_buffer(1);
    if (!j.pack[0] || !j.pack[1]) return false;
    /* the engine's pool at one thread: both shares here, the same bits */
    if (nn_parallel_tasks(2, 1) == 2)
        nn_parallel_run(2, big_task, &j);
    else
        for (int t = 0; t < 2; t++) big_task(&j, t, 2);
    return true;
}

static bool big2_shape(int m, int n, int k) {
    return m <= BIG2_MAX_ROWS && (small_force_avx2 || cpu_avx512());
}

bool nn_small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda, const float *b,
                    int ldb, float *c, int ldc, bool overwrite, int blas_threads) {
    __builtin_cpu_init(); /* idempotent: a few loads after the first call */
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma") || m <= 0 || n <= 0 ||
        k <= 0)
        return false;
    if (chain_shape(m, n, k) && (int64_t)m * n * k <= SMALL_WORK) {
        /* its only refusals (B^T or A^T too large to copy) come first */
        if (n >= 8 ? tb && (int64_t)k * n > PACK : !ta && (int64_t)k * m > PACK) return false;
        return small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite);
    }
    if (tile_shape(m, n, k) && tiled_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite))
        return true;
    /* at two threads OpenBLAS runs the smaller products on one */
    bool one_thread = blas_threads == 1 ||
                      (blas_threads == 2 && (double)m * (double)n * (double)k <= THREAD_WORK);
    if (one_thread && panel_shape(m, n, k)) {
        panel_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite);
        return true;
    }
    if (one_thread && big_shape(m, n, k))
        return big_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite);
    if (blas_threads == 2 && !one_thread && big2_shape(m, n, k))
        return big_sgemm_two(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, overwrite);
    return false;
}
#else
bool nn_small_sgemm(bool ta, bool tb, int m, int n, int k, const float *a, int lda, const float *b,
                    int ldb, float *c, int ldc, bool overwrite, int blas_threads) {
    (void)chain_shape;
    return false;
}

void nn_small_sgemm_force_avx2(bool on) {
    (void)on;
}
#endif
