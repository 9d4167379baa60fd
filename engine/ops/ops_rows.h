/* ops_rows: float32 row kernels of the attention and normalisation hot path
 * (softmax and log_softmax along a contiguous last dim, the attention
 * block's masked softmax, layer norm), forward and backward.
 *
 * Softmax, log_softmax, cross-entropy's log-softmax and the attention
 * softmax give PyTorch 1.13's bits on machines with AVX2, FMA and
 * libsleef.so.3: they follow its vectorised kernels' order with SLEEF's
 * exp and log (ops_rows.c). Elsewhere, and for layer norm, each kernel is
 * compiled for baseline x86-64, AVX2 and AVX-512 (NN_KERNEL_CLONES);
 * reductions keep one partial sum per lane, in double, so the compiler
 * vectorises them without reordering an addition of ISO C's; the results
 * differ from a serial double sum only by the order of a few additions.
 * Internal to engine/ops. */
#ifndef NN_OPS_ROWS_H
#define NN_OPS_ROWS_H

#include <stdbool.h>
#include <stdint.h>

/* y[r] = softmax (or log_softmax) of x[r], for [rows] contiguous rows of
 * [c]. Rows of all -inf, rows holding +inf or NaN come out NaN, as in
 * PyTorch. x and y may be the same array. */
void nn_rows_softmax_f32(const float *x, float *y, int64_t rows, int64_t c, bool log_out);

/* float64 softmax / log_softmax rows and their backward with PyTorch's
 * bits (4-lane vectors, SLEEF's expd4/logd4); false, writing nothing,
 * where SLEEF's AVX2 functions are missing (the caller's kernel runs). */
bool nn_rows_softmax_f64(const double *x, double *y, int64_t rows, int64_t c, bool log_out);
bool nn_rows_softmax_grad_f64(const double *g, const double *y, double *dx, int64_t rows, int64_t c,
                              bool log_out);

/* Cross entropy of [rows] contiguous rows of [c] logits against class
 * indices (no label smoothing), without writing the log-softmax: loss[r] =
 * -log_softmax(x[r])[tgt[r]], the same bits as nn_rows_softmax_f32's
 * log-softmax row gives, and 0 where tgt[r] == ignore. With [stats]
 * (2 floats a row) it keeps each row's max m and log-sum-exp ls, from which
 * log_softmax(x[r])[k] = (x[r][k] - m) - ls, for the backward below. */
void nn_rows_cross_entropy_f32(const float *x, const int64_t *tgt, int64_t ignore, double *loss,
                               float *stats, int64_t rows, int64_t c);

/* Its gradient from the logits and those stats: dx[r] = gs (softmax(x[r])
 * - onehot(tgt[r])), gs = gout[r] (or g0 without gout), 0 for ignored rows;
 * the same bits as the gradient from the stored log-softmax rows
 * (nn_rows_ce_grad_f32's, PyTorch's, where SLEEF is there). */
void nn_rows_cross_entropy_grad_f32(const float *x, const float *stats, const int64_t *tgt,
                                    int64_t ignore, const float *gout, float g0, float *dx,
                                    int64_t rows, int64_t c);

/* Cross-entropy's gradient for index targets without label smoothing, from
 * the log-softmax rows: dx = exp(logp) gs, minus gs at the target, zero
 * rows where tgt[r] == ignore; gs = gout[r], or g0 for every row when
 * [gout] is NULL. PyTorch's bits (its nll_loss backward, then log_softmax's
 * with SLEEF's exp and a fused multiply-add); returns false, writing
 * nothing, where SLEEF's AVX2 exp is missing. */
bool nn_rows_ce_grad_f32(const float *logp, const int64_t *tgt, const float *gout, float g0,
                         float *dx, int64_t rows, int64_t c, int64_t ignore);
/* The same for float64 rows (SLEEF's four-double exp). */
bool nn_rows_ce_grad_f64(const double *logp, const int64_t *tgt, const double *gout, double g0,
                         double *dx, int64_t rows, int64_t c, int64_t ignore);

/* Softmax along a dim that is not the last, x and y contiguous [outer, c,
 * inner], with PyTorch 1.13's bits at [threads] threads (its _vec_softmax:
 * the columns' vector/scalar split depends on its per-thread chunks);
 * false, writing nothing, where SLEEF's AVX2 exp is missing. */
bool nn_cols_softmax_f32(const float *x, float *y, int64_t outer, int64_t c, int64_t inner,
                         int threads);
bool nn_cols_softmax_f64(const double *x, double *y, int64_t outer, int64_t c, int64_t inner,
                         int threads);

/* log_softmax along such a dim, and the backward of both there (PyTorch
 * 1.13's vectorised kernels for a dim that is not the last); false,
 * writing nothing, where SLEEF's AVX2 functions are missing. */
bool nn_cols_log_softmax_f32(const float *x, float *y, int64_t outer, int64_t c, int64_t inner);
bool nn_cols_log_softmax_f64(const double *x, double *y, int64_t outer, int64_t c, int64_t inner);
bool nn_cols_softmax_grad_f32(const float *g, const float *y, float *dx, int64_t outer, int64_t c,
                              int64_t inner, bool log_out);
bool nn_cols_softmax_grad_f64(const double *g, const double *y, double *dx, int64_t outer,
                              int64_t c, int64_t inner, bool log_out);

/* Softmax backward from the output y: dx = y (g - sum(g y)); for
 * log_softmax dx = g - exp(y) sum(g). */
void nn_rows_softmax_grad_f32(const float *g, const float *y, float *dx, int64_t rows, int64_t c,
                              bool log_out);

/* The attention block's softmax, in place over scores s [tq, tk]; when
 * [causal], row i keeps columns 0..i and the rest become 0. */
void nn_rows_attn_softmax_f32(float *s, int64_t tq, int64_t tk, bool causal);

/* In place over dp [tq, tk]: dS = P (dP - rowsum(dP P)), zero where P is
 * causally masked. */
void nn_rows_attn_softmax_grad_f32(const float *p, float *dp, int64_t tq, int64_t tk, bool causal);

/* Layer norm of [m] rows of [k]: y = (x - mean) rstd w + b (w, b may be
 * NULL); mean and rstd per row when not NULL. PyTorch 1.13's arithmetic:
 * its row moments (Welford in eight float lanes) and its fused output. */
void nn_rows_layer_norm_f32(const float *x, const float *w, const float *b, float *y, float *mean,
                            float *rstd, int64_t m, int64_t k, double eps);

/* Its backward in 1.13's order: dx = rstd (g w - mean(g w) - xhat
 * mean(g w xhat)) (dx may be NULL), and when dw / db are not NULL the
 * weight and bias gradients as nn_rows_layer_norm_param_grad_f32 sums
 * them, into double arrays of [k] (the float sums, widened). */
void nn_rows_layer_norm_grad_f32(const float *x, const float *g, const float *w, const float *mean,
                                 const float *rstd, float *dx, double *dw, double *db, int64_t m,
                                 int64_t k);

/* Only the weight and bias gradients, for the columns [c0, c1) of [m]
 * rows of [k]: PyTorch's sums (the rows in one part per thread at nndb's
 * thread count, each part in float, then the parts), written (not added)
 * into dw[i] and db[i]. Each range of columns is computed whole, so ranges
 * can go to different threads without changing the bits. */
void nn_rows_layer_norm_param_grad_f32(const float *x, const float *g, const float *mean,
                                       const float *rstd, double *dw, double *db, int64_t m,
                                       int64_t k, int64_t c0, int64_t c1);

#endif
