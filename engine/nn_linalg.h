/* nn_linalg: batched LAPACK kernels (engine/ops/ops_linalg.c).
 *
 * Every factorisation and solver here is LAPACK's, reached through the BLAS
 * library nndb already loads (Debian's OpenBLAS carries LAPACK: nn_blas_symbol
 * finds dgetrf_, dpotrf_, ...). nndb writes no factorisation of its own.
 *
 * Inputs are float32 or float64 tensors of shape (..., rows, cols), any
 * strides; all the operands of one call have the same dtype and the same
 * batch dims (the caller broadcasts). Each matrix is copied once into a
 * column-major result (what LAPACK works on), and the results are returned
 * as tensors whose matrices are column-major (strides (..., 1, rows)), as
 * PyTorch's are. These kernels record no autograd: torch.linalg (Python)
 * wraps them with PyTorch's backward formulas. Per-matrix LAPACK `info`
 * values come back as an int32 tensor of the batch shape; the caller turns
 * them into errors.
 */
#ifndef NN_LINALG_H
#define NN_LINALG_H

#include <stdbool.h>

#include "nn_ctx.h"
#include "nn_tensor.h"

/* getrf: LU (..., m, n) with partial pivoting, pivots int32 (..., min(m, n)),
 * 1-based as LAPACK's. */
nn_status nn_linalg_lu_factor(nn_ctx *ctx, nn_tensor *a, nn_tensor **lu, nn_tensor **piv,
                              nn_tensor **info);
/* getrs: solve A X = B (trans 'N'), A^T X = B ('T') from getrf's LU and pivots;
 * B (..., n, k). */
nn_tensor *nn_linalg_lu_solve(nn_ctx *ctx, nn_tensor *lu, nn_tensor *piv, nn_tensor *b, char trans);
/* getrf then getrs: X, and the LU, pivots and info it came from. A matrix
 * whose info is not 0 is not solved. [transpose_a]: factor A^T and solve
 * with 'T' (what PyTorch does for a row-contiguous A, so the LU and the
 * rounding are PyTorch's). */
nn_status nn_linalg_solve(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, bool transpose_a, nn_tensor **x,
                          nn_tensor **lu, nn_tensor **piv, nn_tensor **info);
/* potrf: the lower (or upper) Cholesky factor, the other triangle zero. */
nn_status nn_linalg_cholesky(nn_ctx *ctx, nn_tensor *a, bool upper, nn_tensor **l,
                             nn_tensor **info);
/* potrs: solve A X = B from A's Cholesky factor. */
nn_tensor *nn_linalg_cholesky_solve(nn_ctx *ctx, nn_tensor *l, nn_tensor *b, bool upper);
/* potri: A^-1 from A's Cholesky factor (both triangles filled). */
nn_status nn_linalg_cholesky_inverse(nn_ctx *ctx, nn_tensor *l, bool upper, nn_tensor **out,
                                     nn_tensor **info);
/* trsm: X with op(A) X = B (left) or X op(A) = B; A triangular, only its
 * [upper] or lower triangle read; [unit]: its diagonal taken as ones. */
nn_tensor *nn_linalg_triangular_solve(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, bool upper,
                                      bool left, bool transpose, bool unit);
/* geqrf: the Householder form (..., m, n) and tau (..., min(m, n)). */
nn_status nn_linalg_geqrf(nn_ctx *ctx, nn_tensor *a, nn_tensor **qr, nn_tensor **tau);
/* orgqr: the first n columns of the product of the k reflectors in [a]
 * (..., m, n), m >= n >= k = tau's last dim. */
nn_tensor *nn_linalg_orgqr(nn_ctx *ctx, nn_tensor *a, nn_tensor *tau);
/* ormqr: op(Q) C or C op(Q), Q from geqrf's reflectors. */
nn_tensor *nn_linalg_ormqr(nn_ctx *ctx, nn_tensor *a, nn_tensor *tau, nn_tensor *c, bool left,
                           bool transpose);
/* gesdd: U (..., m, m or k), S (..., k), Vh (..., n or k, n), k = min(m, n);
 * without [compute_uv] only S (u and vh NULL). */
nn_status nn_linalg_svd(nn_ctx *ctx, nn_tensor *a, bool full, bool compute_uv, nn_tensor **u,
                        nn_tensor **s, nn_tensor **vh, nn_tensor **info);
/* syevd: ascending eigenvalues (..., n) and eigenvectors (columns) of the
 * symmetric matrix whose [upper] or lower triangle is given. */
nn_status nn_linalg_eigh(nn_ctx *ctx, nn_tensor *a, bool upper, bool compute_v, nn_tensor **w,
                         nn_tensor **v, nn_tensor **info);
/* geev: real and imaginary parts of the eigenvalues, and LAPACK's packed
 * right eigenvectors (a complex pair in two columns). */
nn_status nn_linalg_eig(nn_ctx *ctx, nn_tensor *a, bool compute_v, nn_tensor **wr, nn_tensor **wi,
                        nn_tensor **vr, nn_tensor **info);
/* gels / gelsy / gelsd / gelss ([driver]): least squares of A (..., m, n)
 * and B (..., m, k). [x] is (..., max(m, n), k): its first n rows are the
 * solution, for gels and m > n the rest hold the residual components. [rank]
 * int64 (gelsy/gelsd/gelss), [sv] (..., min(m, n)) (gelsd/gelss), else NULL.
 * [rcond] < 0: LAPACK's machine precision default. */
nn_status nn_linalg_lstsq(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, double rcond, const char *driver,
                          nn_tensor **x, nn_tensor **rank, nn_tensor **sv, nn_tensor **info);
/* sytrf (lower): the compact LDL^T factor and Bunch-Kaufman pivots (int32,
 * LAPACK's convention); sytrs: solve A X = B from them. */
nn_status nn_linalg_ldl_factor(nn_ctx *ctx, nn_tensor *a, nn_tensor **ld, nn_tensor **piv,
                               nn_tensor **info);
nn_tensor *nn_linalg_ldl_solve(nn_ctx *ctx, nn_tensor *ld, nn_tensor *piv, nn_tensor *b);

#endif
