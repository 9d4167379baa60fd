/* ops_rows: float32 row kernels (see ops_rows.h). Every loop is written so
 * that GCC vectorises it: reductions over NL lanes kept apart, no calls
 * (nn_expf inlines), branches hoisted out of the loops. */
#include "ops_rows.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_vmath.h"

#define ROWS_INLINE static inline __attribute__((always_inline))

/* Lanes of a reduction: 16 floats are one AVX-512 register. */
enum { NL = 16 };

typedef float rows_v8f __attribute__((vector_size(32)));
typedef int32_t rows_v8i __attribute__((vector_size(32)));

/* m = x > m ? x : m lane by lane (a NaN in x leaves m); a macro, as a
 * function returning a 32-byte vector changes the ABI of the default clone */
#define ROWS_V8F_MAX(m, x)                                                                         \
    do {                                                                                           \
        rows_v8i gt_ = (x) > (m);                                                                  \
        (m) = (rows_v8f)(((rows_v8i)(x)&gt_) | ((rows_v8i)(m) & ~gt_));                            \
    } while (0)

/* ---- PyTorch's float32 softmax on AVX2 machines ----
 * PyTorch 1.13's CPU kernels (aten/src/ATen/native/cpu/SoftMaxKernel.cpp,
 * the last-dim path) run each row through its vec::reduce_all, vec::map and
 * vec::map_reduce_all helpers over 8-float vectors, with exp and log from
 * SLEEF (Sleef_expf8_u10avx2, Sleef_logf8_u10avx2). The functions below
 * follow that order step for step, with the same SLEEF functions, so they
 * give PyTorch's bits (checked element by element in
 * tests/py/softmax_bits.py). They run where libsleef.so.3 and AVX2 with
 * FMA are there; elsewhere the portable kernels above give nndb's own bits
 * (within a few ulp of PyTorch's). */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "nn_sleef.h"

#define PT_AVX2        static __attribute__((target("avx2,fma")))
#define PT_AVX2_INLINE static inline __attribute__((always_inline, target("avx2,fma")))

/* vec::maximum: _mm256_max_ps, with every lane where either side is NaN
 * set to all ones (a NaN), so that NaN propagates. */
PT_AVX2_INLINE __m256 pt_max(__m256 a, __m256 b) {
    return _mm256_or_ps(_mm256_max_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
}

PT_AVX2_INLINE __m256 pt_op(__m256 a, __m256 b, bool is_max) {
    return is_max ? pt_max(a, b) : _mm256_add_ps(a, b);
}

/* The first [n] < 8 floats of [p], the rest 0 (Vectorized::loadu(p, n)). */
PT_AVX2_INLINE __m256 pt_loadn(const float *p, int64_t n) {
    float t[8] = {0};
    memcpy(t, p, (size_t)n * sizeof(float));
    return _mm256_loadu_ps(t);
}

PT_AVX2_INLINE void pt_storen(float *p, __m256 v, int64_t n) {
    float t[8];
    _mm256_storeu_ps(t, v);
    memcpy(p, t, (size_t)n * sizeof(float));
}

/* The first [n] lanes from [b], the rest from [a] (Vectorized::set). */
PT_AVX2_INLINE __m256 pt_set(__m256 a, __m256 b, int64_t n) {
    static const int32_t idx[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    __m256i lanes = _mm256_loadu_si256((const __m256i *)idx);
    __m256 take_b = _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), lanes));
    return _mm256_blendv_ps(a, b, take_b);
}

/* vec_reduce_all over all 8 lanes: halves, then pairs, then neighbours
 * (PyTorch's VecReduceAllSIMD<float> for AVX2). */
PT_AVX2_INLINE float pt_hreduce(__m256 v, bool is_max) {
    v = pt_op(v, _mm256_permute2f128_ps(v, v, 1), is_max);
    v = pt_op(v, _mm256_shuffle_ps(v, v, 0x4E), is_max);
    v = pt_op(v, _mm256_shuffle_ps(v, v, 0xB1), is_max);
    return _mm256_cvtss_f32(v);
}

/* vec_reduce_all over the first [n] < 8 lanes: lane 0 combined with each
 * later lane in turn. */
PT_AVX2_INLINE float pt_hreduce_n(__m256 v, int64_t n, bool is_max) {
    float a[8];
    _mm256_storeu_ps(a, v);
    __m256 acc = v;
    for (int64_t i = 1; i < n; i++)
        acc = pt_op(acc, _mm256_setr_ps(a[i], 0, 0, 0, 0, 0, 0, 0), is_max);
    return _mm256_cvtss_f32(acc);
}

/* The row's max (vec::reduce_all with vec::maximum). */
PT_AVX2_INLINE float pt_row_max(const float *x, int64_t n) {
    if (n < 8) return pt_hreduce_n(pt_loadn(x, n), n, true);
    __m256 acc = _mm256_loadu_ps(x);
    int64_t d = 8;
    for (; d < n - n % 8; d += 8) acc = pt_max(acc, _mm256_loadu_ps(x + d));
    if (n > d) acc = pt_set(acc, pt_max(acc, pt_loadn(x + d, n - d)), n - d);
    return pt_hreduce(acc, true);
}

/* pt_row_max, and in [*lim] the end of the last whole 8-column block that
 * holds a value other than -inf (0 when none does; [n] when the row has a
 * partial block at its end, or fewer than 8 columns). */
PT_AVX2_INLINE float pt_row_max_lim(const float *x, int64_t n, int64_t *lim) {
    *lim = n;
    if (n < 8) return pt_hreduce_n(pt_loadn(x, n), n, true);
    const __m256 ninf = _mm256_set1_ps(-INFINITY);
    __m256 acc = _mm256_loadu_ps(x);
    int64_t last = _mm256_movemask_ps(_mm256_cmp_ps(acc, ninf, _CMP_NEQ_UQ)) ? 8 : 0;
    int64_t d = 8;
    for (; d < n - n % 8; d += 8) {
        __m256 v = _mm256_loadu_ps(x + d);
        acc = pt_max(acc, v);
        if (_mm256_movemask_ps(_mm256_cmp_ps(v, ninf, _CMP_NEQ_UQ))) last = d + 8;
    }
    if (n > d) {
        acc = pt_set(acc, pt_max(acc, pt_loadn(x + d, n - d)), n - d);
        last = n;
    }
    *lim = last;
    return pt_hreduce(acc, true);
}

/* ---- The same with sixteen-float exps on AVX-512F machines ----
 * SLEEF's exp works lane by lane, and nn_sleef_expf16_k is its sequence on
 * sixteen lanes with the same bits (nn_sleef.h), so an exp of 16 floats is
 * two exps of 8; where a core runs 512-bit operations at the 256-bit rate
 * (AMD Zen 5) it costs half as much, and two or four vectors side by side
 * keep the units busy. The sums keep PyTorch's 8-float order: each 16-float
 * vector's low half is added to the accumulator, then its high half, as the
 * two 8-float vectors were one after the other. Separate functions (AVX2
 * functions cannot inline AVX-512 code), one call a row. */
#define PT_AVX512        static __attribute__((noinline, target("avx512f,avx2,fma")))
#define PT_AVX512_INLINE static inline __attribute__((always_inline, target("avx512f,avx2,fma")))

PT_AVX512_INLINE __m256 pt_lo(__m512 v) {
    return _mm512_castps512_ps256(v);
}
PT_AVX512_INLINE __m256 pt_hi(__m512 v) {
    return _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
}

/* pt_row_exp_sum for n >= 16 */
PT_AVX512 float pt512_row_exp_sum(nn_sleef_v8f vexp, const float *x, float *y, float m, int64_t n) {
    __m512 vm16 = _mm512_set1_ps(m);
    __m256 vm = _mm256_set1_ps(m), acc = _mm256_setzero_ps();
    int64_t d = 0, full = n - n % 8;
    for (; d + 32 <= full; d += 32) {
        __m512 t[2], e[2];
        for (int j = 0; j < 2; j++) t[j] = _mm512_sub_ps(_mm512_loadu_ps(x + d + 16 * j), vm16);
        nn_sleef_expf16_k(2, t, e);
        if (y)
            for (int j = 0; j < 2; j++) _mm512_storeu_ps(y + d + 16 * j, e[j]);
        /* the first 8 start the sum (vec::map_reduce_all's first vector) */
        acc = d == 0 ? pt_lo(e[0]) : _mm256_add_ps(acc, pt_lo(e[0]));
        acc = _mm256_add_ps(acc, pt_hi(e[0]));
        acc = _mm256_add_ps(acc, pt_lo(e[1]));
        acc = _mm256_add_ps(acc, pt_hi(e[1]));
    }
    if (d + 16 <= full) {
        __m512 t[1], e[1];
        t[0] = _mm512_sub_ps(_mm512_loadu_ps(x + d), vm16);
        nn_sleef_expf16_k(1, t, e);
        if (y) _mm512_storeu_ps(y + d, e[0]);
        acc = d == 0 ? pt_lo(e[0]) : _mm256_add_ps(acc, pt_lo(e[0]));
        acc = _mm256_add_ps(acc, pt_hi(e[0]));
        d += 16;
    }
    if (d < full) {
        __m256 e8 = vexp(_mm256_sub_ps(_mm256_loadu_ps(x + d), vm));
        if (y) _mm256_storeu_ps(y + d, e8);
        acc = _mm256_add_ps(acc, e8);
        d += 8;
    }
    if (n > d) {
        __m256 e8 = vexp(_mm256_sub_ps(pt_loadn(x + d, n - d), vm));
        if (y) pt_storen(y + d, e8, n - d);
        acc = pt_set(acc, _mm256_add_ps(acc, e8), n - d);
    }
    return pt_hreduce(acc, false);
}

/* dx = g - exp(lp) s as one fused multiply-add (g = 0 when NULL), lp = x,
 * or (x - m) - l with [sub], over the whole 16-float vectors of [n]: the
 * loops of pt_ce_grad, pt_ce_grad_stats and the log-softmax backward.
 * Returns how many it did. */
PT_AVX512_INLINE void pt512_exp_fnmadd_k(int k, const float *x, bool sub, __m512 vm, __m512 vl,
                                         __m512 vs, const float *g, float *dx) {
    __m512 t[4], e[4];
    for (int j = 0; j < k; j++) {
        t[j] = _mm512_loadu_ps(x + 16 * j);
        if (sub) t[j] = _mm512_sub_ps(_mm512_sub_ps(t[j], vm), vl);
    }
    nn_sleef_expf16_k(k, t, e);
    for (int j = 0; j < k; j++)
        _mm512_storeu_ps(
            dx + 16 * j,
            _mm512_fnmadd_ps(e[j], vs, g ? _mm512_loadu_ps(g + 16 * j) : _mm512_setzero_ps()));
}

PT_AVX512 int64_t pt512_exp_fnmadd(const float *x, bool sub, float m, float l, float s,
                                   const float *g, float *dx, int64_t n) {
    __m512 vm = _mm512_set1_ps(m), vl = _mm512_set1_ps(l), vs = _mm512_set1_ps(s);
    int64_t d = 0;
    for (; d + 64 <= n; d += 64)
        pt512_exp_fnmadd_k(4, x + d, sub, vm, vl, vs, g ? g + d : NULL, dx + d);
    for (; d + 16 <= n; d += 16)
        pt512_exp_fnmadd_k(1, x + d, sub, vm, vl, vs, g ? g + d : NULL, dx + d);
    return d;
}

/* Whether a run of [n] floats takes the sixteen-float exp: where this
 * machine has it (nn_sleef_exp16) and the run is long enough to pay. */
static inline bool pt_exp16(int64_t n) {
    return n >= 32 && nn_sleef_exp16();
}

/* sum of exp(x - m) in vec::map_reduce_all's order; with [y], the exps are
 * stored there too (vec::map writes them, and vec::reduce_all then adds the
 * stored values in this same order). */
PT_AVX2_INLINE float pt_row_exp_sum(nn_sleef_v8f vexp, const float *x, float *y, float m,
                                    int64_t n) {
    __m256 vm = _mm256_set1_ps(m);
    if (n < 8) {
        __m256 e = vexp(_mm256_sub_ps(pt_loadn(x, n), vm));
        if (y) pt_storen(y, e, n);
        return pt_hreduce_n(e, n, false);
    }
    if (pt_exp16(n)) return pt512_row_exp_sum(vexp, x, y, m, n);
    __m256 acc = vexp(_mm256_sub_ps(_mm256_loadu_ps(x), vm));
    if (y) _mm256_storeu_ps(y, acc);
    int64_t d = 8;
    for (; d < n - n % 8; d += 8) {
        __m256 e = vexp(_mm256_sub_ps(_mm256_loadu_ps(x + d), vm));
        if (y) _mm256_storeu_ps(y + d, e);
        acc = _mm256_add_ps(acc, e);
    }
    if (n > d) {
        __m256 e = vexp(_mm256_sub_ps(pt_loadn(x + d, n - d), vm));
        if (y) pt_storen(y + d, e, n - d);
        acc = pt_set(acc, _mm256_add_ps(acc, e), n - d);
    }
    return pt_hreduce(acc, false);
}

/* log of one float as Sleef_logf8_u10avx2 computes it (PyTorch maps the
 * row sums through vec::map with log). */
PT_AVX2_INLINE float pt_log(nn_sleef_v8f vlog, float s) {
    return _mm256_cvtss_f32(vlog(_mm256_set1_ps(s)));
}

/* softmax's y = exp(x - m) * (1 / sum) of a row whose maximum is [m] */
PT_AVX2_INLINE void pt_softmax_row_max(nn_sleef_v8f vexp, const float *x, float *y, float m,
                                       int64_t n) {
    __m256 inv = _mm256_set1_ps(1.0f / pt_row_exp_sum(vexp, x, y, m, n));
    int64_t d = 0;
    for (; d + 8 <= n; d += 8) _mm256_storeu_ps(y + d, _mm256_mul_ps(_mm256_loadu_ps(y + d), inv));
    for (; d < n; d++) y[d] *= _mm256_cvtss_f32(inv);
}

/* softmax: y = exp(x - max) * (1 / sum); log_softmax: y = x - max - log(sum),
 * subtracted in that order (_vec_softmax_lastdim, _vec_log_softmax_lastdim). */
PT_AVX2_INLINE void pt_softmax_row(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x, float *y,
                                   int64_t n, bool log_out) {
    float m = pt_row_max(x, n);
    int64_t d = 0;
    if (log_out) {
        __m256 vm = _mm256_set1_ps(m),
               ls = _mm256_set1_ps(pt_log(vlog, pt_row_exp_sum(vexp, x, NULL, m, n)));
        for (; d + 8 <= n; d += 8)
            _mm256_storeu_ps(y + d, _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(x + d), vm), ls));
        if (n > d)
            pt_storen(y + d, _mm256_sub_ps(_mm256_sub_ps(pt_loadn(x + d, n - d), vm), ls), n - d);
        return;
    }
    pt_softmax_row_max(vexp, x, y, m, n);
}

/* Backward from the output y (_vec_host_softmax_backward_lastdim):
 * softmax dx = (g - sum(g y)) y, the sum's products and additions fused
 * (PyTorch's kernel is compiled with contraction: acc + g y is one FMA, but
 * a row shorter than 8 adds plain products); log_softmax dx = g - exp(y)
 * sum(g), again one fused multiply-add. */
PT_AVX2_INLINE void pt_softmax_grad_row(nn_sleef_v8f vexp, const float *g, const float *y,
                                        float *dx, int64_t n, bool log_out) {
    float s;
    if (n < 8) {
        __m256 t = pt_loadn(g, n);
        s = pt_hreduce_n(log_out ? t : _mm256_mul_ps(t, pt_loadn(y, n)), n, false);
    } else {
        __m256 acc = _mm256_loadu_ps(g);
        if (!log_out) acc = _mm256_mul_ps(acc, _mm256_loadu_ps(y));
        int64_t d = 8;
        for (; d < n - n % 8; d += 8) {
            __m256 gv = _mm256_loadu_ps(g + d);
            acc =
                log_out ? _mm256_add_ps(acc, gv) : _mm256_fmadd_ps(gv, _mm256_loadu_ps(y + d), acc);
        }
        if (n > d) {
            __m256 gv = pt_loadn(g + d, n - d);
            __m256 t =
                log_out ? _mm256_add_ps(acc, gv) : _mm256_fmadd_ps(gv, pt_loadn(y + d, n - d), acc);
            acc = pt_set(acc, t, n - d);
        }
        s = pt_hreduce(acc, false);
    }
    __m256 vs = _mm256_set1_ps(s);
    int64_t d = 0;
    if (log_out && pt_exp16(n)) d = pt512_exp_fnmadd(y, false, 0, 0, s, g, dx, n);
    for (; d < n; d += 8) {
        bool full = d + 8 <= n;
        __m256 gv = full ? _mm256_loadu_ps(g + d) : pt_loadn(g + d, n - d);
        __m256 yv = full ? _mm256_loadu_ps(y + d) : pt_loadn(y + d, n - d);
        __m256 r =
            log_out ? _mm256_fnmadd_ps(vexp(yv), vs, gv) : _mm256_mul_ps(_mm256_sub_ps(gv, vs), yv);
        if (full)
            _mm256_storeu_ps(dx + d, r);
        else
            pt_storen(dx + d, r, n - d);
    }
}

/* vec_reduce_all's order over [c] < 16 vectors, each lane its own row: the
 * eight-rows path below. */
PT_AVX2_INLINE __m256 pt_reduce_cols(const __m256 *v, int64_t c, bool is_max) {
    __m256 a = v[0];
    if (c < 8) {
        for (int64_t k = 1; k < c; k++) a = pt_op(a, v[k], is_max);
        return a;
    }
    __m256 l[8];
    for (int k = 0; k < 8; k++) l[k] = k + 8 < c ? pt_op(v[k], v[k + 8], is_max) : v[k];
    for (int k = 0; k < 4; k++) l[k] = pt_op(l[k], l[k + 4], is_max);
    return pt_op(pt_op(l[0], l[2], is_max), pt_op(l[1], l[3], is_max), is_max);
}

/* Eight rows of [c] < 16 side by side, one row a lane: pt_softmax_row's
 * arithmetic, element for element and in its order, with one SLEEF call a
 * column instead of a mostly empty vector a row. */
PT_AVX2 void pt_softmax_rows8(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x, float *y,
                              int64_t c, bool log_out) {
    float t[16][8];
    __m256 xt[16], e[16];
    for (int64_t k = 0; k < c; k++) {
        for (int j = 0; j < 8; j++) t[k][j] = x[j * c + k];
        xt[k] = _mm256_loadu_ps(t[k]);
    }
    __m256 m = pt_reduce_cols(xt, c, true);
    for (int64_t k = 0; k < c; k++) e[k] = vexp(_mm256_sub_ps(xt[k], m));
    __m256 s = pt_reduce_cols(e, c, false);
    if (log_out) {
        __m256 ls = vlog(s);
        for (int64_t k = 0; k < c; k++) e[k] = _mm256_sub_ps(_mm256_sub_ps(xt[k], m), ls);
    } else {
        __m256 inv = _mm256_div_ps(_mm256_set1_ps(1.0f), s);
        for (int64_t k = 0; k < c; k++) e[k] = _mm256_mul_ps(e[k], inv);
    }
    for (int64_t k = 0; k < c; k++) {
        _mm256_storeu_ps(t[k], e[k]);
        for (int j = 0; j < 8; j++) y[j * c + k] = t[k][j];
    }
}

PT_AVX2 void pt_softmax_rows(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x, float *y,
                             int64_t rows, int64_t c, bool log_out) {
    int64_t r = 0;
    if (c > 0 && c < 16)
        for (; r + 8 <= rows; r += 8)
            pt_softmax_rows8(vexp, vlog, x + r * c, y + r * c, c, log_out);
    for (; r < rows; r++) pt_softmax_row(vexp, vlog, x + r * c, y + r * c, c, log_out);
}

PT_AVX2 void pt_softmax_grad_rows(nn_sleef_v8f vexp, const float *g, const float *y, float *dx,
                                  int64_t rows, int64_t c, bool log_out) {
    for (int64_t r = 0; r < rows; r++)
        pt_softmax_grad_row(vexp, g + r * c, y + r * c, dx + r * c, c, log_out);
}

/* Eight rows of [c] < 16 classes side by side (as pt_softmax_rows8): the
 * rows' max and log-sum-exp a lane each, with one SLEEF call a column. */
PT_AVX2_INLINE void pt_ce_stats8(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x, int64_t c,
                                 __m256 *xt, __m256 *m, __m256 *ls) {
    float t[8];
    __m256 e[16];
    for (int64_t k = 0; k < c; k++) {
        for (int j = 0; j < 8; j++) t[j] = x[j * c + k];
        xt[k] = _mm256_loadu_ps(t);
    }
    *m = pt_reduce_cols(xt, c, true);
    for (int64_t k = 0; k < c; k++) e[k] = vexp(_mm256_sub_ps(xt[k], *m));
    *ls = vlog(pt_reduce_cols(e, c, false));
}

/* ---- Cross entropy of sixteen short rows at once, on AVX-512F ----
 * pt_cross_entropy and pt_ce_grad_stats take rows of fewer than 16 classes
 * eight at a time, one row a lane, with a SLEEF call per column: a [64, 3]
 * batch made 24 exp and 8 log calls forward, 32 exp calls backward, each a
 * short dependent chain through libsleef (about 530 and 600 ns). Here
 * sixteen rows share a lane each, the columns come in with one gather each,
 * and the exps are nn_sleef_expf16_k's, several vectors side by side (the
 * same bits per lane as the library's). The max and the sums keep
 * pt_reduce_cols's order lane by lane, so every row gets the operations the
 * eight-row path gives it. */

/* pt_max on sixteen lanes: a NaN on either side makes the lane all ones */
PT_AVX512_INLINE __m512 pt512_max(__m512 a, __m512 b) {
    __mmask16 nan = _mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q);
    return _mm512_mask_mov_ps(_mm512_max_ps(a, b), nan, _mm512_castsi512_ps(_mm512_set1_epi32(-1)));
}

PT_AVX512_INLINE __m512 pt512_op(__m512 a, __m512 b, bool is_max) {
    return is_max ? pt512_max(a, b) : _mm512_add_ps(a, b);
}

/* pt_reduce_cols on sixteen lanes */
PT_AVX512_INLINE __m512 pt512_reduce_cols(const __m512 *v, int64_t c, bool is_max) {
    __m512 a = v[0];
    if (c < 8) {
        for (int64_t k = 1; k < c; k++) a = pt512_op(a, v[k], is_max);
        return a;
    }
    __m512 l[8];
    for (int k = 0; k < 8; k++) l[k] = k + 8 < c ? pt512_op(v[k], v[k + 8], is_max) : v[k];
    for (int k = 0; k < 4; k++) l[k] = pt512_op(l[k], l[k + 4], is_max);
    return pt512_op(pt512_op(l[0], l[2], is_max), pt512_op(l[1], l[3], is_max), is_max);
}

/* exp of the [c] vectors [t], up to four side by side */
PT_AVX512_INLINE void pt512_exp_cols(const __m512 *t, __m512 *e, int64_t c) {
    int64_t k = 0;
    for (; k + 4 <= c; k += 4) nn_sleef_expf16_k(4, t + k, e + k);
    for (; k < c; k++) nn_sleef_expf16_k(1, t + k, e + k);
}

/* Lane j of sixteen: j, and j [c]. */
PT_AVX512_INLINE __m512i pt512_rows_at(int64_t c) {
    return _mm512_mullo_epi32(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm512_set1_epi32((int)c));
}

/* The [c] < 16 columns of sixteen rows of [x], one row a lane. */
PT_AVX512_INLINE void pt512_load_cols(const float *x, int64_t c, __m512 *xt) {
    __m512i at = pt512_rows_at(c);
    for (int64_t k = 0; k < c; k++)
        xt[k] = _mm512_i32gather_ps(_mm512_add_epi32(at, _mm512_set1_epi32((int)k)), x, 4);
}

/* The targets [tgt] of sixteen rows of [c] classes (checked: each in
 * [0, c) or [ignore]): the mask of the rows not ignored, and in [*at] each
 * target's offset j c + tgt[j] (0 where ignored). */
PT_AVX512_INLINE __mmask16 pt512_targets(const int64_t *tgt, int64_t ignore, int64_t c,
                                         __m512i *at) {
    __m512i t0 = _mm512_loadu_si512(tgt), t1 = _mm512_loadu_si512(tgt + 8),
            ig = _mm512_set1_epi64(ignore);
    __mmask16 keep = (__mmask16)(_mm512_cmpneq_epi64_mask(t0, ig) |
                                 (unsigned)_mm512_cmpneq_epi64_mask(t1, ig) << 8);
    __m512i t = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(t0)),
                                   _mm512_cvtepi64_epi32(t1), 1);
    *at = _mm512_maskz_add_epi32(keep, pt512_rows_at(c), t);
    return keep;
}

/* -(double)v of the eight floats [v], 0 where [keep] is clear, into [out] */
PT_AVX512_INLINE void pt512_neg_pd(double *out, __m256 v, __mmask8 keep) {
    __m512i d = _mm512_castpd_si512(_mm512_cvtps_pd(v));
    d = _mm512_xor_si512(d, _mm512_set1_epi64((long long)0x8000000000000000ull));
    _mm512_storeu_pd(out, _mm512_maskz_mov_pd(keep, _mm512_castsi512_pd(d)));
}

/* pt_cross_entropy's eight-row loop over whole groups of sixteen rows;
 * returns how many rows it did. */
PT_AVX512_INLINE int64_t pt512_ce16_k(nn_sleef_v8f vlog, const float *x, const int64_t *tgt,
                                      int64_t ignore, double *loss, float *stats, int64_t rows,
                                      int64_t c) {
    if (c < 1 || c > 15) return 0;
    const __m512i even = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23),
                  odd = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15,
                                          31);
    int64_t r0 = 0;
    for (; r0 + 16 <= rows; r0 += 16) {
        __m512 xt[16], e[16];
        __m512i at;
        const float *xb = x + r0 * c;
        __mmask16 keep = pt512_targets(tgt + r0, ignore, c, &at);
        pt512_load_cols(xb, c, xt);
        __m512 xg = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), keep, at, xb, 4);
        __m512 vm = pt512_reduce_cols(xt, c, true);
        for (int64_t k = 0; k < c; k++) xt[k] = _mm512_sub_ps(xt[k], vm);
        pt512_exp_cols(xt, e, c);
        __m512 s = pt512_reduce_cols(e, c, false);
        __m512 vl = _mm512_castpd_ps(
            _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(vlog(pt_lo(s)))),
                               _mm256_castps_pd(vlog(pt_hi(s))), 1));
        __m512 lp = _mm512_sub_ps(_mm512_sub_ps(xg, vm), vl);
        pt512_neg_pd(loss + r0, pt_lo(lp), (__mmask8)keep);
        pt512_neg_pd(loss + r0 + 8, pt_hi(lp), (__mmask8)(keep >> 8));
        if (stats) {
            __m512 mz = _mm512_maskz_mov_ps(keep, vm), lz = _mm512_maskz_mov_ps(keep, vl);
            _mm512_storeu_ps(stats + 2 * r0, _mm512_permutex2var_ps(mz, even, lz));
            _mm512_storeu_ps(stats + 2 * r0 + 16, _mm512_permutex2var_ps(mz, odd, lz));
        }
    }
    return r0;
}

/* pt_ce_grad_stats's eight-row loop over whole groups of sixteen rows;
 * returns how many rows it did. */
PT_AVX512_INLINE int64_t pt512_ce_grad16_k(const float *x, const float *stats, const int64_t *tgt,
                                           const float *gout, float g0, float *dx, int64_t rows,
                                           int64_t c, int64_t ignore) {
    if (c < 1 || c > 15) return 0;
    const __m512 zero = _mm512_setzero_ps();
    const __m512i ms = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30),
                  lss =
                      _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31),
                  sign = _mm512_set1_epi32((int)0x80000000u);
    int64_t r0 = 0;
    for (; r0 + 16 <= rows; r0 += 16) {
        float t[16][16], tv[16];
        __m512 xt[16], e[16];
        __m512i at;
        const float *xb = x + r0 * c;
        __mmask16 keep = pt512_targets(tgt + r0, ignore, c, &at);
        __m512 s0 = _mm512_loadu_ps(stats + 2 * r0), s1 = _mm512_loadu_ps(stats + 2 * r0 + 16);
        __m512 vm = _mm512_permutex2var_ps(s0, ms, s1), vl = _mm512_permutex2var_ps(s0, lss, s1);
        /* gt = -(gout[r] or g0), and its sum with 0 */
        __m512 gt = gout ? _mm512_castsi512_ps(_mm512_xor_si512(
                               _mm512_castps_si512(_mm512_loadu_ps(gout + r0)), sign))
                         : _mm512_set1_ps(-g0);
        __m512 vs = _mm512_add_ps(zero, gt);
        pt512_load_cols(xb, c, xt);
        __m512 xg = _mm512_mask_i32gather_ps(zero, keep, at, xb, 4);
        for (int64_t k = 0; k < c; k++) xt[k] = _mm512_sub_ps(_mm512_sub_ps(xt[k], vm), vl);
        xt[c] = _mm512_maskz_mov_ps(keep, _mm512_sub_ps(_mm512_sub_ps(xg, vm), vl));
        pt512_exp_cols(xt, e, c + 1);
        for (int64_t k = 0; k < c; k++)
            _mm512_storeu_ps(t[k], _mm512_maskz_mov_ps(keep, _mm512_fnmadd_ps(e[k], vs, zero)));
        /* the target's element: fmaf(-et, 0 + gt, gt) */
        _mm512_storeu_ps(tv, _mm512_fnmadd_ps(e[c], vs, gt));
        for (int j = 0; j < 16; j++) {
            float *dr = dx + (r0 + j) * c;
            for (int64_t k = 0; k < c; k++) dr[k] = t[k][j];
            if (keep >> j & 1) dr[tgt[r0 + j]] = tv[j];
        }
    }
    return r0;
}

/* The two above with the few class counts of most classifiers as
 * constants, so that a group's columns stay in registers. */
PT_AVX512 int64_t pt512_cross_entropy16(nn_sleef_v8f vlog, const float *x, const int64_t *tgt,
                                        int64_t ignore, double *loss, float *stats, int64_t rows,
                                        int64_t c) {
    switch (c) {
    case 2: return pt512_ce16_k(vlog, x, tgt, ignore, loss, stats, rows, 2);
    case 3: return pt512_ce16_k(vlog, x, tgt, ignore, loss, stats, rows, 3);
    case 4: return pt512_ce16_k(vlog, x, tgt, ignore, loss, stats, rows, 4);
    default: return pt512_ce16_k(vlog, x, tgt, ignore, loss, stats, rows, c);
    }
}

PT_AVX512 int64_t pt512_ce_grad_stats16(const float *x, const float *stats, const int64_t *tgt,
                                        const float *gout, float g0, float *dx, int64_t rows,
                                        int64_t c, int64_t ignore) {
    switch (c) {
    case 2: return pt512_ce_grad16_k(x, stats, tgt, gout, g0, dx, rows, 2, ignore);
    case 3: return pt512_ce_grad16_k(x, stats, tgt, gout, g0, dx, rows, 3, ignore);
    case 4: return pt512_ce_grad16_k(x, stats, tgt, gout, g0, dx, rows, 4, ignore);
    default: return pt512_ce_grad16_k(x, stats, tgt, gout, g0, dx, rows, c, ignore);
    }
}

/* The rows from [r0] in groups of eight, while eight are left (rows of
 * [c] < 16 classes); returns the first row not done. */
PT_AVX2_INLINE int64_t pt_cross_entropy8(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x,
                                         const int64_t *tgt, int64_t ignore, double *loss,
                                         float *stats, int64_t r0, int64_t rows, int64_t c) {
    if (c < 1 || c > 15) return r0;
    for (; r0 + 8 <= rows; r0 += 8) {
        __m256 xt[16], vm, vl;
        float m[8], ls[8];
        pt_ce_stats8(vexp, vlog, x + r0 * c, c, xt, &vm, &vl);
        _mm256_storeu_ps(m, vm);
        _mm256_storeu_ps(ls, vl);
        for (int j = 0; j < 8; j++) {
            int64_t r = r0 + j;
            bool ig = tgt[r] == ignore;
            loss[r] = ig ? 0 : -(double)((x[r * c + tgt[r]] - m[j]) - ls[j]);
            if (stats) stats[2 * r] = ig ? 0 : m[j], stats[2 * r + 1] = ig ? 0 : ls[j];
        }
    }
    return r0;
}

PT_AVX2 void pt_cross_entropy(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x,
                              const int64_t *tgt, int64_t ignore, double *loss, float *stats,
                              int64_t rows, int64_t c) {
    int64_t r0 = c > 0 && c < 16 && rows >= 16 && nn_sleef_exp16()
                     ? pt512_cross_entropy16(vlog, x, tgt, ignore, loss, stats, rows, c)
                     : 0;
    r0 = pt_cross_entropy8(vexp, vlog, x, tgt, ignore, loss, stats, r0, rows, c);
    for (int64_t r = r0; r < rows; r++) {
        if (tgt[r] == ignore) {
            loss[r] = 0;
            if (stats) stats[2 * r] = stats[2 * r + 1] = 0;
            continue;
        }
        const float *xr = x + r * c;
        float m = pt_row_max(xr, c);
        float ls = pt_log(vlog, pt_row_exp_sum(vexp, xr, NULL, m, c));
        loss[r] = -(double)((xr[tgt[r]] - m) - ls);
        if (stats) stats[2 * r] = m, stats[2 * r + 1] = ls;
    }
}

/* The length a causal row of [lim] of [tk] is computed over: PyTorch's
 * composition (scores masked with -inf, then softmax over all [tk]) adds
 * exp(-inf) = 0 for the masked columns, which changes no sum; what matters
 * is which vector lane each column's exp lands in. Up to the next multiple
 * of 8 (or the row's end), with -inf (forward) or 0 (backward) put in past
 * [lim], gives the same lanes. */
static inline int64_t pt_causal_len(int64_t lim, int64_t tk) {
    if (lim >= tk || tk < 8) return tk;
    int64_t n = (lim + 7) & ~(int64_t)7;
    return n < tk ? n : tk;
}

/* softmax over rows that may end in -inf, as a causal mask written
 * masked_fill(mask == 0, float('-inf')) leaves them: a row whose last
 * column is -inf is computed over its columns up to the last finite one,
 * made up to pt_causal_len as the fused attention does (the columns past
 * it are -inf already), and the rest are exp(-inf - max) / sum = +0. The
 * same lanes and the same sums, so the same bits as the whole row (the
 * fused attention's test compares them), with the masked exps skipped.
 * Only where the row's maximum and sum are finite: a row with +inf, NaN
 * or nothing but -inf goes the whole way, as PyTorch's gives NaN there. */
PT_AVX2 void pt_softmax_rows_masked(nn_sleef_v8f vexp, nn_sleef_v8f vlog, const float *x, float *y,
                                    int64_t rows, int64_t c) {
    for (int64_t r = 0; r < rows; r++) {
        const float *xr = x + r * c;
        float *yr = y + r * c;
        int64_t n;
        float m = pt_row_max_lim(xr, c, &n);
        if (n == c) {
            pt_softmax_row_max(vexp, xr, yr, m, c);
            continue;
        }
        float sum = n > 0 && isfinite(m) ? pt_row_exp_sum(vexp, xr, yr, m, n) : 0;
        if (!(sum >= 1.0f && isfinite(sum))) { /* the max's own exp is 1 */
            pt_softmax_row(vexp, vlog, xr, yr, c, false);
            continue;
        }
        __m256 inv = _mm256_set1_ps(1.0f / sum);
        for (int64_t d = 0; d < n; d += 8) /* n is a multiple of 8 */
            _mm256_storeu_ps(yr + d, _mm256_mul_ps(_mm256_loadu_ps(yr + d), inv));
        memset(yr + n, 0, sizeof(float) * (size_t)(c - n));
    }
}

PT_AVX2 void pt_attn_softmax(nn_sleef_v8f vexp, float *s, int64_t tq, int64_t tk, bool causal) {
    for (int64_t i = 0; i < tq; i++) {
        float *row = s + i * tk;
        int64_t lim = causal && i + 1 < tk ? i + 1 : tk, n = pt_causal_len(lim, tk);
        for (int64_t j = lim; j < n; j++) row[j] = -INFINITY;
        pt_softmax_row(vexp, NULL, row, row, n, false);
        for (int64_t j = lim; j < tk; j++) row[j] = 0;
    }
}

PT_AVX2 void pt_attn_softmax_grad(nn_sleef_v8f vexp, const float *p, float *dp, int64_t tq,
                                  int64_t tk, bool causal) {
    for (int64_t i = 0; i < tq; i++) {
        float *row = dp + i * tk;
        int64_t lim = causal && i + 1 < tk ? i + 1 : tk, n = pt_causal_len(lim, tk);
        for (int64_t j = lim; j < n; j++) row[j] = 0;
        pt_softmax_grad_row(vexp, row, p + i * tk, row, n, false);
        for (int64_t j = lim; j < tk; j++) row[j] = 0;
    }
}

/* Cross-entropy's gradient as PyTorch computes it: nll_loss's backward puts
 * g = -gs at the target (0 elsewhere), log_softmax's then gives dx = g -
 * exp(logp) sum(g) with one fused multiply-add, sum(g) = 0 + -gs. One gs
 * for all rows (a mean or sum) makes the block one flat loop, and the
 * targets' exps go eight rows to a SLEEF call: rows of 3 classes would
 * otherwise cost two mostly empty calls each. */
PT_AVX2 void pt_ce_grad(nn_sleef_v8f vexp, const float *logp, const int64_t *tgt, const float *gout,
                        float g0, float *dx, int64_t rows, int64_t c, int64_t ignore) {
    __m256 zero = _mm256_setzero_ps();
    for (int64_t r = 0; r < (gout ? rows : 1); r++) {
        int64_t b = gout ? r * c : 0, n = gout ? c : rows * c, d = 0;
        __m256 vs = _mm256_set1_ps(0.0f + -(gout ? gout[r] : g0));
        if (pt_exp16(n))
            d = pt512_exp_fnmadd(logp + b, false, 0, 0, 0.0f + -(gout ? gout[r] : g0), NULL, dx + b,
                                 n);
        for (; d + 8 <= n; d += 8)
            _mm256_storeu_ps(dx + b + d,
                             _mm256_fnmadd_ps(vexp(_mm256_loadu_ps(logp + b + d)), vs, zero));
        if (n > d)
            pt_storen(dx + b + d, _mm256_fnmadd_ps(vexp(pt_loadn(logp + b + d, n - d)), vs, zero),
                      n - d);
    }
    for (int64_t r0 = 0; r0 < rows; r0 += 8) {
        float lt[8] = {0}, et[8];
        int64_t m = rows - r0 < 8 ? rows - r0 : 8;
        for (int64_t j = 0; j < m; j++)
            if (tgt[r0 + j] != ignore) lt[j] = logp[(r0 + j) * c + tgt[r0 + j]];
        _mm256_storeu_ps(et, vexp(_mm256_loadu_ps(lt)));
        for (int64_t j = 0; j < m; j++) {
            int64_t r = r0 + j;
            if (tgt[r] == ignore) {
                memset(dx + r * c, 0, sizeof(float) * (size_t)c);
                continue;
            }
            float gt = -(gout ? gout[r] : g0);
            dx[r * c + tgt[r]] = fmaf(-et[j], 0.0f + gt, gt);
        }
    }
}

/* pt_ce_grad from the logits and each row's max and log-sum-exp instead of
 * the stored log-softmax: the log-softmax element computed as
 * pt_softmax_row writes it, then the same operations element for element
 * (SLEEF's exp works lane by lane, so a row at a time gives the flat
 * loop's bits). */
PT_AVX2 void pt_ce_grad_stats(nn_sleef_v8f vexp, const float *x, const float *stats,
                              const int64_t *tgt, const float *gout, float g0, float *dx,
                              int64_t rows, int64_t c, int64_t ignore) {
    __m256 zero = _mm256_setzero_ps();
    bool wide = pt_exp16(c);
    int64_t r0 = 0;
    if (c > 0 && c < 16 && rows >= 16 && nn_sleef_exp16())
        r0 = pt512_ce_grad_stats16(x, stats, tgt, gout, g0, dx, rows, c, ignore);
    /* Eight rows of fewer than 16 classes a lane each, the same operations
     * per element: one SLEEF call a column and one for the targets. */
    for (; c > 0 && c < 16 && r0 + 8 <= rows; r0 += 8) {
        float t[16][8], m[8], ls[8], gt[8], lt[8], et[8];
        for (int j = 0; j < 8; j++) {
            int64_t r = r0 + j;
            bool ig = tgt[r] == ignore;
            m[j] = stats[2 * r], ls[j] = stats[2 * r + 1];
            gt[j] = -(gout ? gout[r] : g0);
            lt[j] = ig ? 0 : (x[r * c + tgt[r]] - m[j]) - ls[j];
        }
        __m256 vm = _mm256_loadu_ps(m), vl = _mm256_loadu_ps(ls);
        __m256 vs = _mm256_add_ps(zero, _mm256_loadu_ps(gt));
        for (int64_t k = 0; k < c; k++) {
            for (int j = 0; j < 8; j++) t[k][j] = x[(r0 + j) * c + k];
            __m256 lp = _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(t[k]), vm), vl);
            _mm256_storeu_ps(t[k], _mm256_fnmadd_ps(vexp(lp), vs, zero));
        }
        _mm256_storeu_ps(et, vexp(_mm256_loadu_ps(lt)));
        for (int j = 0; j < 8; j++) {
            int64_t r = r0 + j;
            float *dr = dx + r * c;
            if (tgt[r] == ignore) {
                memset(dr, 0, sizeof(float) * (size_t)c);
                continue;
            }
            for (int64_t k = 0; k < c; k++) dr[k] = t[k][j];
            dr[tgt[r]] = fmaf(-et[j], 0.0f + gt[j], gt[j]);
        }
    }
    for (int64_t r = r0; r < rows; r++) {
        float *dr = dx + r * c;
        if (tgt[r] == ignore) {
            memset(dr, 0, sizeof(float) * (size_t)c);
            continue;
        }
        const float *xr = x + r * c;
        float m = stats[2 * r], ls = stats[2 * r + 1], gt = -(gout ? gout[r] : g0);
        __m256 vm = _mm256_set1_ps(m), vl = _mm256_set1_ps(ls), vs = _mm256_set1_ps(0.0f + gt);
        int64_t d = 0;
        if (wide) d = pt512_exp_fnmadd(xr, true, m, ls, 0.0f + gt, NULL, dr, c);
        for (; d + 8 <= c; d += 8) {
            __m256 lp = _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(xr + d), vm), vl);
            _mm256_storeu_ps(dr + d, _mm256_fnmadd_ps(vexp(lp), vs, zero));
        }
        if (c > d) {
            __m256 lp = _mm256_sub_ps(_mm256_sub_ps(pt_loadn(xr + d, c - d), vm), vl);
            pt_storen(dr + d, _mm256_fnmadd_ps(vexp(lp), vs, zero), c - d);
        }
        float et = _mm256_cvtss_f32(vexp(_mm256_set1_ps((xr[tgt[r]] - m) - ls)));
        dr[tgt[r]] = fmaf(-et, 0.0f + gt, gt);
    }
}

/* float64 rows the same way: PyTorch's Vectorized<double> is four lanes, its
 * reductions fold lanes 1, 2, 3 into lane 0 in turn (no shuffle tree for
 * double), exp and log are SLEEF's expd4/logd4. */
PT_AVX2_INLINE __m256d pd_op(__m256d a, __m256d b, bool is_max) {
    return is_max ? _mm256_or_pd(_mm256_max_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q))
                  : _mm256_add_pd(a, b);
}

PT_AVX2_INLINE __m256d pd_loadn(const double *p, int64_t n) {
    double t[4] = {0};
    memcpy(t, p, (size_t)n * sizeof(double));
    return _mm256_loadu_pd(t);
}

PT_AVX2_INLINE void pd_storen(double *p, __m256d v, int64_t n) {
    double t[4];
    _mm256_storeu_pd(t, v);
    memcpy(p, t, (size_t)n * sizeof(double));
}

PT_AVX2_INLINE __m256d pd_set(__m256d a, __m256d b, int64_t n) {
    __m256i lanes = _mm256_setr_epi64x(0, 1, 2, 3);
    return _mm256_blendv_pd(a, b,
                            _mm256_castsi256_pd(_mm256_cmpgt_epi64(_mm256_set1_epi64x(n), lanes)));
}

PT_AVX2_INLINE double pd_hreduce(__m256d v, int64_t n, bool is_max) {
    double a[4];
    _mm256_storeu_pd(a, v);
    __m256d acc = v;
    for (int64_t i = 1; i < n; i++) acc = pd_op(acc, _mm256_setr_pd(a[i], 0, 0, 0), is_max);
    return _mm256_cvtsd_f64(acc);
}

/* vec::map_reduce_all over [n] doubles: is_max for the max (no map), else
 * the sum of exp(x - m) (stored into [y] when not NULL), or with [y2] the
 * sum of x y2 (the softmax backward's, fused), or with neither the sum of x. */
PT_AVX2_INLINE double pd_reduce(nn_sleef_v4d vexp, const double *x, const double *y2, double *y,
                                double m, int64_t n, bool is_max, bool do_exp) {
    __m256d vm = _mm256_set1_pd(m);
    if (n < 4) {
        __m256d v = pd_loadn(x, n);
        if (do_exp) v = vexp(_mm256_sub_pd(v, vm));
        if (y2) v = _mm256_mul_pd(v, pd_loadn(y2, n));
        if (y) pd_storen(y, v, n);
        return pd_hreduce(v, n, is_max);
    }
    __m256d acc = _mm256_loadu_pd(x);
    if (do_exp) acc = vexp(_mm256_sub_pd(acc, vm));
    if (y2) acc = _mm256_mul_pd(acc, _mm256_loadu_pd(y2));
    if (y) _mm256_storeu_pd(y, acc);
    int64_t d = 4;
    for (; d < n - n % 4; d += 4) {
        __m256d v = _mm256_loadu_pd(x + d);
        if (do_exp) v = vexp(_mm256_sub_pd(v, vm));
        if (y) _mm256_storeu_pd(y + d, v);
        acc = y2 ? _mm256_fmadd_pd(v, _mm256_loadu_pd(y2 + d), acc) : pd_op(acc, v, is_max);
    }
    if (n > d) {
        __m256d v = pd_loadn(x + d, n - d);
        if (do_exp) v = vexp(_mm256_sub_pd(v, vm));
        if (y) pd_storen(y + d, v, n - d);
        __m256d t = y2 ? _mm256_fmadd_pd(v, pd_loadn(y2 + d, n - d), acc) : pd_op(acc, v, is_max);
        acc = pd_set(acc, t, n - d);
    }
    return pd_hreduce(acc, 4, is_max);
}

PT_AVX2 void pd_softmax_rows(nn_sleef_v4d vexp, nn_sleef_v4d vlog, const double *x, double *y,
                             int64_t rows, int64_t n, bool log_out) {
    for (int64_t r = 0; r < rows; r++) {
        const double *xr = x + r * n;
        double *yr = y + r * n;
        double m = pd_reduce(vexp, xr, NULL, NULL, 0, n, true, false);
        __m256d vm = _mm256_set1_pd(m);
        if (log_out) {
            double s = pd_reduce(vexp, xr, NULL, NULL, m, n, false, true);
            __m256d ls = _mm256_set1_pd(_mm256_cvtsd_f64(vlog(_mm256_set1_pd(s))));
            for (int64_t d = 0; d < n; d += 4) {
                int64_t k = n - d < 4 ? n - d : 4;
                pd_storen(yr + d, _mm256_sub_pd(_mm256_sub_pd(pd_loadn(xr + d, k), vm), ls), k);
            }
        } else {
            double inv = 1.0 / pd_reduce(vexp, xr, NULL, yr, m, n, false, true);
            for (int64_t d = 0; d < n; d++) yr[d] *= inv;
        }
    }
}

PT_AVX2 void pd_softmax_grad_rows(nn_sleef_v4d vexp, const double *g, const double *y, double *dx,
                                  int64_t rows, int64_t n, bool log_out) {
    for (int64_t r = 0; r < rows; r++) {
        const double *gr = g + r * n, *yr = y + r * n;
        double *dr = dx + r * n;
        __m256d vs =
            _mm256_set1_pd(pd_reduce(vexp, gr, log_out ? NULL : yr, NULL, 0, n, false, false));
        for (int64_t d = 0; d < n; d += 4) {
            int64_t k = n - d < 4 ? n - d : 4;
            __m256d gv = pd_loadn(gr + d, k), yv = pd_loadn(yr + d, k);
            pd_storen(dr + d,
                      log_out ? _mm256_fnmadd_pd(vexp(yv), vs, gv)
                              : _mm256_mul_pd(_mm256_sub_pd(gv, vs), yv),
                      k);
        }
    }
}

/* pt_ce_grad for float64 (four lanes, SLEEF's expd4): PyTorch's cross
 * entropy of index targets is nll_loss's backward (-g at the target, 0
 * elsewhere) then log_softmax's, dx = g - exp(logp) * sum(g) with one
 * rounding, as pd_softmax_grad_rows computes it. */
PT_AVX2 void pd_ce_grad(nn_sleef_v4d vexp, const double *logp, const int64_t *tgt,
                        const double *gout, double g0, double *dx, int64_t rows, int64_t c,
                        int64_t ignore) {
    __m256d zero = _mm256_setzero_pd();
    for (int64_t r = 0; r < rows; r++) {
        const double *lr = logp + r * c;
        double *dr = dx + r * c;
        if (tgt[r] == ignore) {
            memset(dr, 0, sizeof(double) * (size_t)c);
            continue;
        }
        double gt = -(gout ? gout[r] : g0);
        __m256d vs = _mm256_set1_pd(0.0 + gt);
        for (int64_t d = 0; d < c; d += 4) {
            int64_t k = c - d < 4 ? c - d : 4;
            pd_storen(dr + d, _mm256_fnmadd_pd(vexp(pd_loadn(lr + d, k)), vs, zero), k);
        }
        double et = _mm256_cvtsd_f64(vexp(_mm256_set1_pd(lr[tgt[r]])));
        dr[tgt[r]] = fma(-et, 0.0 + gt, gt);
    }
}

/* SLEEF's exp and log of eight floats, when this machine has them. */
static bool pt_fns(nn_sleef_v8f *vexp, nn_sleef_v8f *vlog) {
    *vexp = nn_sleef_vec_f32(NN_SLEEF_EXP);
    *vlog = nn_sleef_vec_f32(NN_SLEEF_LOG);
    return *vexp && *vlog;
}
#define PT_ROWS 1
#endif

ROWS_INLINE float row_max(const float *x, int64_t n) {
    if (n < NL) {
        /* A short row (3 classes): the lanes below would only add a serial
         * reduction of NL -INFINITY; the same result without it. */
        float r = -INFINITY;
        for (int64_t i = 0; i < n; i++) r = x[i] > r ? x[i] : r;
        return r;
    }
    /* Lane j keeps the max of elements i + j, as a plain loop over an array
     * of NL would, written with vector types: GCC left that loop scalar
     * (vmaxss through the stack, 13% of a softmax over rows of 256). */
    rows_v8f m0 = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                   -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    rows_v8f m1 = m0;
    int64_t i = 0;
    for (; i + NL <= n; i += NL) {
        rows_v8f x0, x1;
        memcpy(&x0, x + i, sizeof x0);
        memcpy(&x1, x + i + 8, sizeof x1);
        ROWS_V8F_MAX(m0, x0);
        ROWS_V8F_MAX(m1, x1);
    }
    float m[NL];
    memcpy(m, &m0, sizeof m0);
    memcpy(m + 8, &m1, sizeof m1);
    float r = -INFINITY;
    for (; i < n; i++) r = x[i] > r ? x[i] : r;
    for (int j = 0; j < NL; j++) r = m[j] > r ? m[j] : r;
    return r;
}

ROWS_INLINE double row_sum(const float *x, int64_t n) {
    if (n < NL) { /* as row_max: the same sum, in the same order */
        double r = 0;
        for (int64_t i = 0; i < n; i++) r += (double)x[i];
        return r;
    }
    double s[NL] = {0};
    int64_t i = 0;
    for (; i + NL <= n; i += NL)
        for (int j = 0; j < NL; j++) s[j] += (double)x[i + j];
    double r = 0;
    for (; i < n; i++) r += (double)x[i];
    for (int j = 0; j < NL; j++) r += s[j];
    return r;
}

ROWS_INLINE double row_dot(const float *x, const float *y, int64_t n) {
    if (n < NL) {
        double r = 0;
        for (int64_t i = 0; i < n; i++) r += (double)x[i] * (double)y[i];
        return r;
    }
    double s[NL] = {0};
    int64_t i = 0;
    for (; i + NL <= n; i += NL)
        for (int j = 0; j < NL; j++) s[j] += (double)x[i + j] * (double)y[i + j];
    double r = 0;
    for (; i < n; i++) r += (double)x[i] * (double)y[i];
    for (int j = 0; j < NL; j++) r += s[j];
    return r;
}

/* Softmax of one row of [c]. The max ignores NaN but exp(NaN - m) does not,
 * so a NaN still turns the sum, and with it the row, into NaN. */
ROWS_INLINE void softmax_row(const float *x, float *y, int64_t c, bool log_out) {
    float m = row_max(x, c);
    if (log_out) {
        /* y holds exp(x - m) for the sum only; it is overwritten next. */
        for (int64_t i = 0; i < c; i++) y[i] = nn_expf(x[i] - m);
        float ls = (float)log(row_sum(y, c));
        for (int64_t i = 0; i < c; i++) y[i] = (x[i] - m) - ls;
    } else {
        for (int64_t i = 0; i < c; i++) y[i] = nn_expf(x[i] - m);
        float inv = (float)(1.0 / row_sum(y, c));
        for (int64_t i = 0; i < c; i++) y[i] *= inv;
    }
}

/* Eight rows shorter than NL (a classifier's few classes) side by side:
 * softmax_row's arithmetic, element for element and in its order, with the
 * loops running across the rows so that they vectorise (one row of 3 is
 * three dependent scalar exps). */
ROWS_INLINE void softmax_rows8(const float *x, float *y, int64_t c, bool log_out) {
    float xt[NL][8], e[NL][8], m[8];
    double s[8];
    for (int64_t k = 0; k < c; k++)
        for (int j = 0; j < 8; j++) xt[k][j] = x[j * c + k];
    for (int j = 0; j < 8; j++) m[j] = -INFINITY, s[j] = 0;
    for (int64_t k = 0; k < c; k++)
        for (int j = 0; j < 8; j++) m[j] = xt[k][j] > m[j] ? xt[k][j] : m[j];
    for (int64_t k = 0; k < c; k++)
        for (int j = 0; j < 8; j++) {
            e[k][j] = nn_expf(xt[k][j] - m[j]);
            s[j] += (double)e[k][j];
        }
    if (log_out) {
        float ls[8];
        for (int j = 0; j < 8; j++) ls[j] = (float)log(s[j]);
        for (int64_t k = 0; k < c; k++)
            for (int j = 0; j < 8; j++) y[j * c + k] = (xt[k][j] - m[j]) - ls[j];
    } else {
        float inv[8];
        for (int j = 0; j < 8; j++) inv[j] = (float)(1.0 / s[j]);
        for (int64_t k = 0; k < c; k++)
            for (int j = 0; j < 8; j++) y[j * c + k] = e[k][j] * inv[j];
    }
}

NN_KERNEL_CLONES void nn_rows_softmax_f32(const float *x, float *y, int64_t rows, int64_t c,
                                          bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        if (!log_out && c >= 16)
            pt_softmax_rows_masked(vexp, vlog, x, y, rows, c);
        else
            pt_softmax_rows(vexp, vlog, x, y, rows, c, log_out);
        return;
    }
#endif
    int64_t r = 0;
    if (c > 0 && c < NL)
        for (; r + 8 <= rows; r += 8) softmax_rows8(x + r * c, y + r * c, c, log_out);
    for (; r < rows; r++) softmax_row(x + r * c, y + r * c, c, log_out);
}

/* row_sum of exp(x - m) as softmax_row stores it, without storing it: the
 * same lanes, the same order, so the same bits. */
ROWS_INLINE double row_exp_sum(const float *x, float m, int64_t n) {
    if (n < NL) {
        double r = 0;
        for (int64_t i = 0; i < n; i++) r += (double)nn_expf(x[i] - m);
        return r;
    }
    double s[NL] = {0};
    int64_t i = 0;
    for (; i + NL <= n; i += NL)
        for (int j = 0; j < NL; j++) s[j] += (double)nn_expf(x[i + j] - m);
    double r = 0;
    for (; i < n; i++) r += (double)nn_expf(x[i] - m);
    for (int j = 0; j < NL; j++) r += s[j];
    return r;
}

NN_KERNEL_CLONES void nn_rows_cross_entropy_f32(const float *x, const int64_t *tgt, int64_t ignore,
                                                double *loss, float *stats, int64_t rows,
                                                int64_t c) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_cross_entropy(vexp, vlog, x, tgt, ignore, loss, stats, rows, c);
        return;
    }
#endif
    for (int64_t r = 0; r < rows; r++) {
        if (tgt[r] == ignore) {
            loss[r] = 0;
            if (stats) stats[2 * r] = stats[2 * r + 1] = 0;
            continue;
        }
        const float *xr = x + r * c;
        float m = row_max(xr, c);
        float ls = (float)log(row_exp_sum(xr, m, c));
        loss[r] = -(double)((xr[tgt[r]] - m) - ls);
        if (stats) stats[2 * r] = m, stats[2 * r + 1] = ls;
    }
}

NN_KERNEL_CLONES void nn_rows_cross_entropy_grad_f32(const float *x, const float *stats,
                                                     const int64_t *tgt, int64_t ignore,
                                                     const float *gout, float g0, float *dx,
                                                     int64_t rows, int64_t c) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_ce_grad_stats(vexp, x, stats, tgt, gout, g0, dx, rows, c, ignore);
        return;
    }
#endif
    for (int64_t r = 0; r < rows; r++) {
        float *dr = dx + r * c;
        if (tgt[r] == ignore) {
            memset(dr, 0, sizeof(float) * (size_t)c);
            continue;
        }
        const float *xr = x + r * c;
        float gs = gout ? gout[r] : g0, m = stats[2 * r], ls = stats[2 * r + 1];
        /* the log-softmax element exactly as the forward's row writes it */
        for (int64_t k = 0; k < c; k++) dr[k] = gs * nn_expf((xr[k] - m) - ls);
        dr[tgt[r]] -= gs;
    }
}

ROWS_INLINE void softmax_grad_row(const float *g, const float *y, float *dx, int64_t c,
                                  bool log_out) {
    if (log_out) {
        double s = row_sum(g, c);
        for (int64_t i = 0; i < c; i++) dx[i] = (float)((double)g[i] - (double)nn_expf(y[i]) * s);
    } else {
        double s = row_dot(g, y, c);
        for (int64_t i = 0; i < c; i++) dx[i] = (float)((double)y[i] * ((double)g[i] - s));
    }
}

NN_KERNEL_CLONES void nn_rows_softmax_grad_f32(const float *g, const float *y, float *dx,
                                               int64_t rows, int64_t c, bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_softmax_grad_rows(vexp, g, y, dx, rows, c, log_out);
        return;
    }
#endif
    for (int64_t r = 0; r < rows; r++)
        softmax_grad_row(g + r * c, y + r * c, dx + r * c, c, log_out);
}

/* A causal row of [lim] scores softmax_row's way (same max, exps, sum and
 * scaling, so the same bits), with the exp and scaling loops run on to
 * [pad] (a multiple of 8 up to the row's end): the lanes past [lim] are
 * thrown away by the caller, and a row whose length is not a multiple of
 * the vector width then needs no scalar exps. */
ROWS_INLINE void attn_softmax_row(float *y, int64_t lim, int64_t pad) {
    float m = row_max(y, lim);
    for (int64_t i = 0; i < pad; i++) y[i] = nn_expf(y[i] - m);
    float inv = (float)(1.0 / row_sum(y, lim));
    for (int64_t i = 0; i < pad; i++) y[i] *= inv;
}

NN_KERNEL_CLONES void nn_rows_attn_softmax_f32(float *s, int64_t tq, int64_t tk, bool causal) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_attn_softmax(vexp, s, tq, tk, causal);
        return;
    }
#endif
    for (int64_t i = 0; i < tq; i++) {
        float *row = s + i * tk;
        int64_t lim = causal && i + 1 < tk ? i + 1 : tk, pad = (lim + 7) & ~(int64_t)7;
        if (lim < tk && pad <= tk)
            attn_softmax_row(row, lim, pad);
        else
            softmax_row(row, row, lim, false);
        for (int64_t j = lim; j < tk; j++) row[j] = 0;
    }
}

NN_KERNEL_CLONES void nn_rows_attn_softmax_grad_f32(const float *p, float *dp, int64_t tq,
                                                    int64_t tk, bool causal) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_attn_softmax_grad(vexp, p, dp, tq, tk, causal);
        return;
    }
#endif
    for (int64_t i = 0; i < tq; i++) {
        float *row = dp + i * tk;
        int64_t lim = causal && i + 1 < tk ? i + 1 : tk;
        softmax_grad_row(row, p + i * tk, row, lim, false);
        for (int64_t j = lim; j < tk; j++) row[j] = 0;
    }
}

/* The row moments of PyTorch 1.13's layer norm (RowwiseMoments in
 * ATen/native/cpu/moments_utils.h), in float as it computes them: Welford
 * updates in LN_LANES lanes over chunks of LN_CHUNK vectors, each chunk's
 * moments merged into a binary cascade (level j takes two of level j - 1's
 * when bit j - 1 of the chunk count turns over), the levels folded into
 * level 0, the row's last N mod 8 floats by scalar Welford, then the eight
 * lanes merged into that one by one. No step is fused: each product is
 * rounded before its sum, as in PyTorch's build (found by trying each
 * multiply-add fused and not against its output over row lengths 8 to
 * 3072: only this one matched them all). */
enum { LN_LANES = 8, LN_CHUNK = 16, LN_DEPTH = 48 }; /* 2^48 chunks: more than memory */

/* Merges moments (n_add, m1_add, m2_add) into (n, m1, m2): AddMoments. */
ROWS_INLINE void ln_add_moments(int64_t n_add, float m1_add, float m2_add, int64_t *n, float *m1,
                                float *m2) {
    int64_t t = *n + n_add;
    float c = t == 0 ? 0.0f : (float)n_add / (float)t, d = m1_add - *m1;
    *m1 = *m1 + c * d;
    *m2 = *m2 + (m2_add + d * d * c * (float)*n);
    *n = t;
}

ROWS_INLINE void ln_add_moments_vec(int64_t n_add, const float *m1_add, const float *m2_add,
                                    int64_t *n, float *m1, float *m2) {
    int64_t t = *n + n_add;
    float c = t == 0 ? 0.0f : (float)n_add / (float)t, old = (float)*n;
    for (int l = 0; l < LN_LANES; l++) {
        float d = m1_add[l] - m1[l];
        m1[l] = m1[l] + c * d;
        m2[l] = m2[l] + (m2_add[l] + d * d * c * old);
    }
    *n = t;
}

/* CeilLog2 as ATen's utils define it: at least 1. */
static int ln_depth(int64_t m) {
    int d = 1;
    while (((int64_t)1 << d) < m) d++;
    return d;
}

/* The moments of [R] rows of [k] floats at [x] (row stride k) at once:
 * each row's Welford updates are one chain of dependent operations, so rows
 * taken together keep the vector units busy where one row would wait on
 * each step's latency. Each row's arithmetic is the one-row order above. */
ROWS_INLINE void ln_rows_moments(const float *x, int64_t k, int R, float *mean, float *var) {
    enum { RMAX = 8 };
    int64_t n = k / LN_LANES, m = (n + LN_CHUNK - 1) / LN_CHUNK;
    int depth = ln_depth(m);
    int64_t c0[RMAX][LN_DEPTH];
    float c1[RMAX][LN_DEPTH][LN_LANES], c2[RMAX][LN_DEPTH][LN_LANES];
    for (int r = 0; r < R; r++) {
        memset(c0[r], 0, sizeof(int64_t) * (size_t)depth);
        memset(c1[r], 0, sizeof c1[r][0] * (size_t)depth);
        memset(c2[r], 0, sizeof c2[r][0] * (size_t)depth);
    }
    for (int64_t i = 0; i < m; i++) {
        int64_t rows = n - i * LN_CHUNK < LN_CHUNK ? n - i * LN_CHUNK : LN_CHUNK;
        /* the eight lanes as one vector (rows_v8f): the updates are vector
         * operations whatever the compiler makes of the loops */
        rows_v8f a1[RMAX], a2[RMAX];
        for (int r = 0; r < R; r++) a1[r] = a2[r] = (rows_v8f){0};
        for (int64_t j = 0; j < rows; j++) {
            float c = 1.0f / (float)(j + 1);
            const float *xp = x + (i * LN_CHUNK + j) * LN_LANES;
            for (int r = 0; r < R; r++) {
                rows_v8f v, d;
                memcpy(&v, xp + r * k, sizeof v);
                d = v - a1[r];
                a1[r] = a1[r] + d * c;
                a2[r] = a2[r] + d * (v - a1[r]);
            }
        }
        float a1f[RMAX][LN_LANES], a2f[RMAX][LN_LANES];
        memcpy(a1f, a1, sizeof(rows_v8f) * (size_t)R);
        memcpy(a2f, a2, sizeof(rows_v8f) * (size_t)R);
        for (int r = 0; r < R; r++) {
            ln_add_moments_vec(rows, a1f[r], a2f[r], &c0[r][0], c1[r][0], c2[r][0]);
            for (int64_t j = 1, mask = i + 1; j < depth && (mask & 1) == 0; j++, mask >>= 1) {
                ln_add_moments_vec(c0[r][j - 1], c1[r][j - 1], c2[r][j - 1], &c0[r][j], c1[r][j],
                                   c2[r][j]);
                c0[r][j - 1] = 0;
                memset(c1[r][j - 1], 0, sizeof c1[r][0]);
                memset(c2[r][j - 1], 0, sizeof c2[r][0]);
            }
        }
    }
    for (int r = 0; r < R; r++) {
        for (int i = 1; i < depth; i++)
            ln_add_moments_vec(c0[r][i], c1[r][i], c2[r][i], &c0[r][0], c1[r][0], c2[r][0]);
        const float *xr = x + r * k;
        int64_t t = 0;
        float m1 = 0, m2 = 0;
        for (int64_t i = n * LN_LANES; i < k; i++) {
            float d = xr[i] - m1;
            ++t;
            m1 += d / (float)t;
            m2 = m2 + d * (xr[i] - m1);
        }
        for (int l = 0; l < LN_LANES; l++)
            ln_add_moments(n, c1[r][0][l], c2[r][0][l], &t, &m1, &m2);
        mean[r] = m1;
        var[r] = m2 / (float)k;
    }
}

NN_KERNEL_CLONES void nn_rows_layer_norm_f32(const float *x, const float *w, const float *b,
                                             float *y, float *mean, float *rstd, int64_t m,
                                             int64_t k, double eps) {
    float mfs[8], vars[8];
    for (int64_t r = 0; r < m; r++) {
        const float *xr = x + r * k;
        float *yr = y + r * k;
        /* PyTorch's statistics, eight rows at a time, then the output as its
         * kernel writes it: (x * rstd + (-rstd * mean)) * w + b, each step
         * fused (PyTorch's vectorised kernel is compiled with contraction,
         * so each multiply-add is one FMA). With one element per row
         * PyTorch's x - mean is not 0 but the FMA's residual, and so is
         * nndb's. */
        if (r % 8 == 0) {
            if (m - r >= 8)
                ln_rows_moments(xr, k, 8, mfs, vars);
            else
                for (int64_t q = r; q < m; q++)
                    ln_rows_moments(x + q * k, k, 1, mfs + (q - r), vars + (q - r));
        }
        float mf = mfs[r % 8], var = vars[r % 8];
        float sc = 1.0f / sqrtf(var + (float)eps), sh = -sc * mf;
        if (mean) mean[r] = mf;
        if (rstd) rstd[r] = sc;
        if (w && b)
            for (int64_t i = 0; i < k; i++) yr[i] = fmaf(fmaf(xr[i], sc, sh), w[i], b[i]);
        else if (w)
            for (int64_t i = 0; i < k; i++) yr[i] = fmaf(xr[i], sc, sh) * w[i];
        else if (b)
            for (int64_t i = 0; i < k; i++) yr[i] = fmaf(xr[i], sc, sh) + b[i];
        else
            for (int64_t i = 0; i < k; i++) yr[i] = fmaf(xr[i], sc, sh);
    }
}

/* The sum of the eight lanes as PyTorch's AVX2 reduce_all folds them:
 * halves, then pairs, then neighbours. */
ROWS_INLINE float ln_fold8(const float *v) {
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
}

/* ds = sum(g w x) and db = sum(g w) of one row as 1.13's layer-norm
 * backward takes them (map3_reduce_all / map2_reduce_all): the first eight
 * products plain, each later one fused into its lane's sum, the last
 * partial vector into its first lanes only, the lanes folded; a row of
 * fewer than eight adds its products left to right. PyTorch's product is
 * (g x) w. Without w: ds = sum(g x) the same way, db the plain sum of g. */
ROWS_INLINE void ln_grad_dots(const float *x, const float *g, const float *w, int64_t k, float *ds,
                              float *db) {
    if (k < 8) {
        float s = 0, t = 0;
        for (int64_t j = 0; j < k; j++) {
            float p = w ? g[j] * x[j] * w[j] : g[j] * x[j], q = w ? g[j] * w[j] : g[j];
            s = j ? s + p : p;
            t = j ? t + q : q;
        }
        *ds = s;
        *db = t;
        return;
    }
    float as[8], ab[8];
    for (int l = 0; l < 8; l++) {
        as[l] = w ? g[l] * x[l] * w[l] : g[l] * x[l];
        ab[l] = w ? g[l] * w[l] : g[l];
    }
    int64_t d = 8;
    for (; d + 8 <= k; d += 8)
        for (int l = 0; l < 8; l++) {
            float gv = g[d + l], xv = x[d + l];
            as[l] = w ? fmaf(gv * xv, w[d + l], as[l]) : fmaf(gv, xv, as[l]);
            ab[l] = w ? fmaf(gv, w[d + l], ab[l]) : ab[l] + gv;
        }
    for (int l = 0; d + l < k; l++) {
        float gv = g[d + l], xv = x[d + l];
        as[l] = w ? fmaf(gv * xv, w[d + l], as[l]) : fmaf(gv, xv, as[l]);
        ab[l] = w ? fmaf(gv, w[d + l], ab[l]) : ab[l] + gv;
    }
    *ds = ln_fold8(as);
    *db = ln_fold8(ab);
}

/* dx of layer norm in PyTorch 1.13's order (LayerNormBackwardKernelImpl):
 * with a = rstd, b = (db mean - ds) a^3 / k and c = -b mean - db a / k,
 * dx = a g w + b x + c. Which multiply-adds are fused (its AVX2 build
 * contracts some) was found by trying each against its output: db mean -
 * ds, -b mean - (db a / k), and b x + (a g) w, then + c unfused. */
enum { LN_FUSED_COLS = 2048 };

NN_KERNEL_CLONES void nn_rows_layer_norm_grad_f32(const float *x, const float *g, const float *w,
                                                  const float *mean, const float *rstd, float *dx,
                                                  double *dw, double *db, int64_t m, int64_t k) {
    const float scale = 1.0f / (float)k;
    /* Where PyTorch sums the rows for dw and db in one part (one thread),
     * their sums ride along this sweep, each row added in order exactly as
     * nn_rows_layer_norm_param_grad_f32 adds them, while the row is still
     * in cache: x and g are read from memory once, not twice (the separate
     * pass was 16% of a GPT-2 layer norm's forward and backward). */
    bool fused = dx && (dw || db) && k <= LN_FUSED_COLS && nn_aten_part(m, 1) >= m;
    float sums[2 * LN_FUSED_COLS], *pw = sums, *pb = sums + LN_FUSED_COLS;
    if (fused)
        for (int64_t i = 0; i < k; i++) pw[i] = pb[i] = 0;
    for (int64_t r = 0; dx && r < m; r++) {
        const float *xr = x + r * k, *gr = g + r * k;
        float *dr = dx + r * k;
        float ds, dbs, a = rstd[r], mu = mean[r];
        ln_grad_dots(xr, gr, w, k, &ds, &dbs);
        float b = fmaf(dbs, mu, -ds) * a * a * a * scale;
        float c = fmaf(-b, mu, -(dbs * a * scale));
        if (w)
            for (int64_t i = 0; i < k; i++) dr[i] = fmaf(b, xr[i], a * gr[i] * w[i]) + c;
        else
            for (int64_t i = 0; i < k; i++) dr[i] = fmaf(b, xr[i], a * gr[i]) + c;
        if (fused) {
            float b0 = -a * mu;
            if (dw)
                for (int64_t i = 0; i < k; i++) pw[i] = fmaf(gr[i], fmaf(a, xr[i], b0), pw[i]);
            if (db)
                for (int64_t i = 0; i < k; i++) pb[i] = pb[i] + gr[i];
        }
    }
    if (fused) { /* the one part added to the zero row, as the parts are */
        for (int64_t i = 0; i < k; i++) {
            if (dw) dw[i] = 0.0f + pw[i];
            if (db) db[i] = 0.0f + pb[i];
        }
        return;
    }
    if (dw || db) nn_rows_layer_norm_param_grad_f32(x, g, mean, rstd, dw, db, m, k, 0, k);
}

/* The weight and bias gradients as 1.13 sums them: the rows split into one
 * part per thread (at::parallel_for over rows), each part's rows added in
 * order into a float row, dw's terms g * (x rstd + (-rstd mean)) with both
 * multiply-adds fused, then the parts' rows added in float. The parts are
 * PyTorch's at nndb's thread count; any range of columns [c0, c1) is
 * computed whole here, so columns can go to different threads. */
NN_KERNEL_CLONES void nn_rows_layer_norm_param_grad_f32(const float *x, const float *g,
                                                        const float *mean, const float *rstd,
                                                        double *dw, double *db, int64_t m,
                                                        int64_t k, int64_t c0, int64_t c1) {
    enum { COLS = 256 };
    int64_t chunk = nn_aten_part(m, 1);
    float pw[COLS], pb[COLS], sw[COLS], sb[COLS];
    for (int64_t j0 = c0; j0 < c1; j0 += COLS) {
        int64_t n = c1 - j0 < COLS ? c1 - j0 : COLS;
        for (int64_t i = 0; i < n; i++) sw[i] = sb[i] = 0;
        for (int64_t r0 = 0; r0 < m; r0 += chunk) {
            int64_t r1 = r0 + chunk < m ? r0 + chunk : m;
            for (int64_t i = 0; i < n; i++) pw[i] = pb[i] = 0;
            for (int64_t r = r0; r < r1; r++) {
                const float *xr = x + r * k + j0, *gr = g + r * k + j0;
                float a = rstd[r], b0 = -a * mean[r];
                if (dw)
                    for (int64_t i = 0; i < n; i++) pw[i] = fmaf(gr[i], fmaf(a, xr[i], b0), pw[i]);
                if (db)
                    for (int64_t i = 0; i < n; i++) pb[i] = pb[i] + gr[i];
            }
            for (int64_t i = 0; i < n; i++) {
                sw[i] = sw[i] + pw[i];
                sb[i] = sb[i] + pb[i];
            }
        }
        for (int64_t i = 0; i < n; i++) {
            if (dw) dw[j0 + i] = sw[i];
            if (db) db[j0 + i] = sb[i];
        }
    }
}

bool nn_rows_ce_grad_f32(const float *logp, const int64_t *tgt, const float *gout, float g0,
                         float *dx, int64_t rows, int64_t c, int64_t ignore) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_ce_grad(vexp, logp, tgt, gout, g0, dx, rows, c, ignore);
        return true;
    }
#endif
    return false;
}

bool nn_rows_softmax_f64(const double *x, double *y, int64_t rows, int64_t c, bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP), vlog = nn_sleef_vec_f64(NN_SLEEF_LOG);
    if (vexp && vlog) {
        pd_softmax_rows(vexp, vlog, x, y, rows, c, log_out);
        return true;
    }
#endif
    return false;
}

bool nn_rows_softmax_grad_f64(const double *g, const double *y, double *dx, int64_t rows, int64_t c,
                              bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP);
    if (vexp) {
        pd_softmax_grad_rows(vexp, g, y, dx, rows, c, log_out);
        return true;
    }
#endif
    return false;
}

bool nn_rows_ce_grad_f64(const double *logp, const int64_t *tgt, const double *gout, double g0,
                         double *dx, int64_t rows, int64_t c, int64_t ignore) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP);
    if (vexp) {
        pd_ce_grad(vexp, logp, tgt, gout, g0, dx, rows, c, ignore);
        return true;
    }
#endif
    return false;
}

/* ---- softmax along a dim that is not the last ----
 * PyTorch 1.13's _vec_softmax (SoftMaxKernel.cpp): the outer * inner
 * columns split into at::parallel_for's chunks (one per thread, of
 * ceil(columns / threads), when there are more columns than 32768 / c;
 * found by experiment: below that its bits do not depend on its threads);
 * in a chunk, 8 floats (4 doubles) of neighbouring
 * columns at a time while they lie in one inner row and in the chunk, with
 * vec::maximum, SLEEF's exp and a vector sum, each output divided by the
 * sum; the other columns one at a time (its host_softmax tail): std::max,
 * libm's exp and a sum in the type, each output divided by the sum. */
#ifdef PT_ROWS
#define PT_COLS(NAME, T, VT, W, LOAD, STORE, SUB, ADD, DIV, MAX, SETZERO, VEXP_T, EXP)             \
    PT_AVX2 void NAME(VEXP_T vexp, const T *x, T *y, int64_t outer, int64_t c, int64_t inner,      \
                      int threads) {                                                               \
        int64_t total = outer * inner, grain = 32768 / c > 1 ? 32768 / c : 1, tasks = 1;           \
        if (threads > 1 && total > grain) {                                                        \
            tasks = (total + grain - 1) / grain;                                                   \
            tasks = tasks < threads ? tasks : threads;                                             \
        }                                                                                          \
        int64_t chunk = (total + tasks - 1) / tasks;                                               \
        for (int64_t b = 0; b < total; b += chunk) {                                               \
            int64_t e = b + chunk < total ? b + chunk : total;                                     \
            for (int64_t idx = b; idx < e;) {                                                      \
                int64_t o = idx / inner, j = idx % inner;                                          \
                const T *xc = x + o * c * inner + j;                                               \
                T *yc = y + o * c * inner + j;                                                     \
                if (j + W <= inner && idx + W <= e) {                                              \
                    VT m = LOAD(xc), s = SETZERO();                                                \
                    for (int64_t d = 1; d < c; d++) m = MAX(m, LOAD(xc + d * inner));              \
                    for (int64_t d = 0; d < c; d++) {                                              \
                        VT v = vexp(SUB(LOAD(xc + d * inner), m));                                 \
                        STORE(yc + d * inner, v);                                                  \
                        s = ADD(s, v);                                                             \
                    }                                                                              \
                    for (int64_t d = 0; d < c; d++)                                                \
                        STORE(yc + d * inner, DIV(LOAD(yc + d * inner), s));                       \
                    idx += W;                                                                      \
                    continue;                                                                      \
                }                                                                                  \
                int64_t tail = idx + W > e ? e - idx : inner - j;                                  \
                for (int64_t t = 0; t < tail; t++) {                                               \
                    int64_t oi = (idx + t) / inner, ji = (idx + t) % inner;                        \
                    const T *xs = x + oi * c * inner + ji;                                         \
                    T *ys = y + oi * c * inner + ji;                                               \
                    T m = xs[0], s = 0;                                                            \
                    for (int64_t d = 1; d < c; d++) m = m < xs[d * inner] ? xs[d * inner] : m;     \
                    for (int64_t d = 0; d < c; d++) {                                              \
                        ys[d * inner] = EXP(xs[d * inner] - m);                                    \
                        s += ys[d * inner];                                                        \
                    }                                                                              \
                    for (int64_t d = 0; d < c; d++) ys[d * inner] = ys[d * inner] / s;             \
                }                                                                                  \
                idx += tail;                                                                       \
            }                                                                                      \
        }                                                                                          \
    }

/* vec::maximum of four doubles, NaN-propagating as pt_max */
PT_AVX2_INLINE __m256d pd_max(__m256d a, __m256d b) {
    return _mm256_or_pd(_mm256_max_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
}
PT_COLS(pt_softmax_cols, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps, _mm256_sub_ps,
        _mm256_add_ps, _mm256_div_ps, pt_max, _mm256_setzero_ps, nn_sleef_v8f, expf)
PT_COLS(pd_softmax_cols, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_sub_pd,
        _mm256_add_pd, _mm256_div_pd, pd_max, _mm256_setzero_pd, nn_sleef_v4d, exp)

/* log_softmax along such a dim, PyTorch 1.13's vectorised kernel for it:
 * per block of 8 floats (4 doubles) of neighbouring columns, the last one
 * partial, the max over the dim, s = s + exp(x - max) in the type, its
 * log, out = (x - max) - log, with SLEEF's exp and log; in the last,
 * partial block the sums take libm's exp one column at a time (found by
 * experiment: the other ways each gave other bits in some columns). */
#define PT_LOGCOLS(NAME, T, VT, W, LOADN, STOREN, SUB, ADD, MAX, SETZERO, VF, EXP)                 \
    PT_AVX2 void NAME(VF vexp, VF vlog, const T *x, T *y, int64_t outer, int64_t c,                \
                      int64_t inner) {                                                             \
        for (int64_t o = 0; o < outer; o++)                                                        \
            for (int64_t j = 0; j < inner; j += W) {                                               \
                int64_t n = inner - j < W ? inner - j : W;                                         \
                const T *xc = x + o * c * inner + j;                                               \
                T *yc = y + o * c * inner + j;                                                     \
                VT m = LOADN(xc, n), s = SETZERO();                                                \
                for (int64_t d = 1; d < c; d++) m = MAX(m, LOADN(xc + d * inner, n));              \
                if (n == W) {                                                                      \
                    for (int64_t d = 0; d < c; d++)                                                \
                        s = ADD(s, vexp(SUB(LOADN(xc + d * inner, n), m)));                        \
                } else {                                                                           \
                    T mm[W], t[W] = {0};                                                           \
                    STOREN(mm, m, n);                                                              \
                    for (int64_t d = 0; d < c; d++)                                                \
                        for (int64_t q = 0; q < n; q++) t[q] += EXP(xc[d * inner + q] - mm[q]);    \
                    s = LOADN(t, n);                                                               \
                }                                                                                  \
                VT ls = vlog(s);                                                                   \
                for (int64_t d = 0; d < c; d++)                                                    \
                    STOREN(yc + d * inner, SUB(SUB(LOADN(xc + d * inner, n), m), ls), n);          \
            }                                                                                      \
    }
PT_LOGCOLS(pt_log_softmax_cols, float, __m256, 8, pt_loadn, pt_storen, _mm256_sub_ps, _mm256_add_ps,
           pt_max, _mm256_setzero_ps, nn_sleef_v8f, expf)
PT_LOGCOLS(pd_log_softmax_cols, double, __m256d, 4, pd_loadn, pd_storen, _mm256_sub_pd,
           _mm256_add_pd, pd_max, _mm256_setzero_pd, nn_sleef_v4d, exp)

/* Their backward along such a dim, PyTorch 1.13's vectorised kernels: per
 * block of neighbouring columns the sum over the dim in the type, of g
 * (log_softmax) or of g y as fused multiply-adds (softmax; GCC contracts
 * PyTorch's sum += g * y), then dx = g - exp(y) sum or y (g - sum). Whole
 * vectors with SLEEF's exp; the columns past the last whole vector one at a
 * time, with libm's exp. */
#define PT_COLS_GRAD(NAME, T, VT, W, LOAD, STORE, SUB, ADD, MUL, FMADD, FNMADD, SETZERO, VF, EXP,  \
                     FMA)                                                                          \
    PT_AVX2 void NAME(VF vexp, const T *g, const T *y, T *dx, int64_t outer, int64_t c,            \
                      int64_t inner, bool log_out) {                                               \
        int64_t whole = inner - inner % W;                                                         \
        for (int64_t o = 0; o < outer; o++) {                                                      \
            int64_t b = o * c * inner;                                                             \
            for (int64_t j = 0; j < whole; j += W) {                                               \
                VT s = SETZERO();                                                                  \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = b + d * inner + j;                                                 \
                    s = log_out ? ADD(s, LOAD(g + i)) : FMADD(LOAD(g + i), LOAD(y + i), s);        \
                }                                                                                  \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = b + d * inner + j;                                                 \
                    VT gv = LOAD(g + i), yv = LOAD(y + i);                                         \
                    STORE(dx + i, log_out ? FNMADD(vexp(yv), s, gv) : MUL(yv, SUB(gv, s)));        \
                }                                                                                  \
            }                                                                                      \
            for (int64_t j = whole; j < inner; j++) {                                              \
                T s = 0;                                                                           \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = b + d * inner + j;                                                 \
                    s = log_out ? s + g[i] : FMA(g[i], y[i], s);                                   \
                }                                                                                  \
                for (int64_t d = 0; d < c; d++) {                                                  \
                    int64_t i = b + d * inner + j;                                                 \
                    T e = log_out ? EXP(y[i]) : 0;                                                 \
                    dx[i] = log_out ? FMA(-e, s, g[i]) : y[i] * (g[i] - s);                        \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
PT_COLS_GRAD(pt_softmax_cols_grad, float, __m256, 8, _mm256_loadu_ps, _mm256_storeu_ps,
             _mm256_sub_ps, _mm256_add_ps, _mm256_mul_ps, _mm256_fmadd_ps, _mm256_fnmadd_ps,
             _mm256_setzero_ps, nn_sleef_v8f, expf, fmaf)
PT_COLS_GRAD(pd_softmax_cols_grad, double, __m256d, 4, _mm256_loadu_pd, _mm256_storeu_pd,
             _mm256_sub_pd, _mm256_add_pd, _mm256_mul_pd, _mm256_fmadd_pd, _mm256_fnmadd_pd,
             _mm256_setzero_pd, nn_sleef_v4d, exp, fma)
#endif

bool nn_cols_log_softmax_f32(const float *x, float *y, int64_t outer, int64_t c, int64_t inner) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp, vlog;
    if (pt_fns(&vexp, &vlog)) {
        pt_log_softmax_cols(vexp, vlog, x, y, outer, c, inner);
        return true;
    }
#endif
    return false;
}

bool nn_cols_log_softmax_f64(const double *x, double *y, int64_t outer, int64_t c, int64_t inner) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP), vlog = nn_sleef_vec_f64(NN_SLEEF_LOG);
    if (vexp && vlog) {
        pd_log_softmax_cols(vexp, vlog, x, y, outer, c, inner);
        return true;
    }
#endif
    return false;
}

bool nn_cols_softmax_grad_f32(const float *g, const float *y, float *dx, int64_t outer, int64_t c,
                              int64_t inner, bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp = nn_sleef_vec_f32(NN_SLEEF_EXP);
    if (vexp) {
        pt_softmax_cols_grad(vexp, g, y, dx, outer, c, inner, log_out);
        return true;
    }
#endif
    return false;
}

bool nn_cols_softmax_grad_f64(const double *g, const double *y, double *dx, int64_t outer,
                              int64_t c, int64_t inner, bool log_out) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP);
    if (vexp) {
        pd_softmax_cols_grad(vexp, g, y, dx, outer, c, inner, log_out);
        return true;
    }
#endif
    return false;
}

bool nn_cols_softmax_f32(const float *x, float *y, int64_t outer, int64_t c, int64_t inner,
                         int threads) {
#ifdef PT_ROWS
    nn_sleef_v8f vexp = nn_sleef_vec_f32(NN_SLEEF_EXP);
    if (vexp) {
        pt_softmax_cols(vexp, x, y, outer, c, inner, threads);
        return true;
    }
#endif
    return false;
}

bool nn_cols_softmax_f64(const double *x, double *y, int64_t outer, int64_t c, int64_t inner,
                         int threads) {
#ifdef PT_ROWS
    nn_sleef_v4d vexp = nn_sleef_vec_f64(NN_SLEEF_EXP);
    if (vexp) {
        pd_softmax_cols(vexp, x, y, outer, c, inner, threads);
        return true;
    }
#endif
    return false;
}
