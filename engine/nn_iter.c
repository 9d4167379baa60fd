/* The strided iterator, broadcasting, and reduction geometry shared by the
 * kernels (declared in nn_ops_impl.h). */
#include <stdint.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_thread.h"

void nn_iter_init(nn_iter *it, int ndim, const int64_t *shape) {
    it->ndim = ndim;
    it->nargs = 0;
    for (int i = 0; i < ndim; i++) it->shape[i] = shape[i];
}

void nn_iter_add_strided(nn_iter *it, const nn_tensor *t, const int64_t *elem_strides) {
    NN_ASSERT(it->nargs < NN_ITER_MAX_ARGS);
    int k = it->nargs++;
    int64_t es = (int64_t)nn_dtype_size(t->dtype);
    for (int i = 0; i < it->ndim; i++) it->strides[k][i] = elem_strides[i] * es;
    it->data[k] = nn_tensor_data(t);
}

void nn_iter_add(nn_iter *it, const nn_tensor *t) {
    int64_t st[NN_MAX_DIMS];
    int lead = it->ndim - t->ndim;
    NN_ASSERT(lead >= 0);
    for (int i = 0; i < it->ndim; i++) {
        int j = i - lead;
        st[i] = (j < 0 || t->shape[j] == 1) ? 0 : t->strides[j];
    }
    nn_iter_add_strided(it, t, st);
}

/* The iteration space after dropping size-1 dims and merging dims every
 * operand steps over as one run. Returns false when it is empty. */
typedef struct merged {
    int nd, nargs;
    int64_t shape[NN_MAX_DIMS];
    int64_t strides[NN_ITER_MAX_ARGS][NN_MAX_DIMS];
    char *data[NN_ITER_MAX_ARGS];
} merged;

static bool merge_dims(const nn_iter *it, merged *m) {
    int nd = 0;
    m->nargs = it->nargs;
    for (int i = 0; i < it->ndim; i++) {
        if (it->shape[i] == 0) return false;
        if (it->shape[i] == 1) continue;
        if (nd > 0) {
            bool merge = true;
            for (int k = 0; k < it->nargs && merge; k++)
                merge = m->strides[k][nd - 1] == it->strides[k][i] * it->shape[i];
            if (merge) {
                m->shape[nd - 1] *= it->shape[i];
                for (int k = 0; k < it->nargs; k++) m->strides[k][nd - 1] = it->strides[k][i];
                continue;
            }
        }
        m->shape[nd] = it->shape[i];
        for (int k = 0; k < it->nargs; k++) m->strides[k][nd] = it->strides[k][i];
        nd++;
    }
    if (nd == 0) { /* a single element */
        m->shape[0] = 1;
        for (int k = 0; k < it->nargs; k++) m->strides[k][0] = 0;
        nd = 1;
    }
    m->nd = nd;
    for (int k = 0; k < it->nargs; k++) m->data[k] = it->data[k];
    return true;
}

/* Call [loop] over the elements [begin, end) of the merged space in
 * row-major order: a partial first row, whole rows, a partial last row. */
static void run_range(const merged *m, int64_t begin, int64_t end, nn_iter_loop loop, void *arg) {
    int nd = m->nd, na = m->nargs;
    int64_t n_inner = m->shape[nd - 1];
    int64_t idx[NN_MAX_DIMS];
    char *ptr[NN_ITER_MAX_ARGS];
    int64_t inner[NN_ITER_MAX_ARGS];
    int64_t rest = begin;
    for (int d = nd - 1; d >= 0; d--) {
        idx[d] = rest % m->shape[d];
        rest /= m->shape[d];
    }
    for (int k = 0; k < na; k++) {
        ptr[k] = m->data[k];
        for (int d = 0; d < nd; d++) ptr[k] += idx[d] * m->strides[k][d];
        inner[k] = m->strides[k][nd - 1];
    }
    int64_t pos = begin;
    while (pos < end) {
        int64_t n = n_inner - idx[nd - 1];
        if (n > end - pos) n = end - pos;
        loop(ptr, inner, n, arg);
        pos += n;
        if (pos >= end) return;
        /* Step to the start of the next row (odometer over the outer dims). */
        for (int k = 0; k < na; k++) ptr[k] -= idx[nd - 1] * inner[k];
        idx[nd - 1] = 0;
        for (int d = nd - 2; d >= 0; d--) {
            idx[d]++;
            for (int k = 0; k < na; k++) ptr[k] += m->strides[k][d];
            if (idx[d] < m->shape[d]) break;
            for (int k = 0; k < na; k++) ptr[k] -= m->strides[k][d] * m->shape[d];
            idx[d] = 0;
        }
    }
}

/* Walk the space in operand 0's memory order when that is not row-major
 * (an output laid out like a transposed or permuted input, or a transposed
 * tensor written in place): then every operand with the output's layout
 * merges into one run over flat memory, and kernels with a vector body and
 * a scalar tail see the runs PyTorch's TensorIterator gives them, which
 * orders its dims by the output's strides first. Dims of size 1 go; the
 * order stays as it is where operand 0 broadcasts (stride 0: a reduction's
 * accumulator) or walks backwards. */
static void order_like_output(nn_iter *it) {
    const int64_t *s0 = it->strides[0];
    int64_t prev = INT64_MAX;
    bool row_major = true;
    for (int i = 0; i < it->ndim; i++) {
        if (it->shape[i] == 1) continue;
        if (it->shape[i] == 0 || s0[i] <= 0) return;
        if (s0[i] > prev) row_major = false;
        prev = s0[i];
    }
    if (row_major) return;
    int dims[NN_MAX_DIMS], nd = 0;
    for (int i = 0; i < it->ndim; i++)
        if (it->shape[i] != 1) dims[nd++] = i;
    /* stable insertion sort, outermost (largest stride) first */
    for (int i = 1; i < nd; i++)
        for (int j = i; j > 0 && s0[dims[j]] > s0[dims[j - 1]]; j--) {
            int d = dims[j];
            dims[j] = dims[j - 1];
            dims[j - 1] = d;
        }
    nn_iter o = *it;
    for (int i = 0; i < nd; i++) {
        it->shape[i] = o.shape[dims[i]];
        for (int k = 0; k < it->nargs; k++) it->strides[k][i] = o.strides[k][dims[i]];
    }
    it->ndim = nd;
}

void nn_iter_run(nn_iter *it, nn_iter_loop loop, void *arg) {
    merged m;
    order_like_output(it);
    if (!merge_dims(it, &m)) return;
    int64_t total = 1;
    for (int d = 0; d < m.nd; d++) total *= m.shape[d];
    run_range(&m, 0, total, loop, arg);
}

typedef struct par_job {
    const merged *m;
    int64_t total;
    nn_iter_loop loop;
    void *arg;
} par_job;

static void par_task(void *p, int task, int n_tasks) {
    const par_job *j = p;
    int64_t b, e;
    /* Whole rows when there are several; in one row, multiples of 16
     * elements. Either way every chunk but the last ends where the serial
     * loop's vector body would, so kernels with a vector body and a scalar
     * tail (SLEEF) give the same bits at any thread count. */
    int64_t row = j->m->shape[j->m->nd - 1];
    nn_parallel_range(j->total, task, n_tasks, j->m->nd > 1 ? row : 16, &b, &e);
    if (b < e) run_range(j->m, b, e, j->loop, j->arg);
}

void nn_iter_run_parallel(nn_iter *it, nn_iter_loop loop, void *arg, int64_t min_per_task) {
    merged m;
    order_like_output(it);
    if (!merge_dims(it, &m)) return;
    int64_t total = 1;
    for (int d = 0; d < m.nd; d++) total *= m.shape[d];
    int n_tasks = nn_parallel_tasks(total, min_per_task);
    /* Operand 0 is written: split only when no two elements of the space
     * share an output element (no broadcast output dim). */
    for (int d = 0; d < m.nd && n_tasks > 1; d++)
        if (m.strides[0][d] == 0) n_tasks = 1;
    if (n_tasks <= 1) {
        run_range(&m, 0, total, loop, arg);
        return;
    }
    par_job j = {&m, total, loop, arg};
    nn_parallel_run(n_tasks, par_task, &j);
}

/* A reduction's split: operand 0 is the accumulator (stride 0 on the
 * reduced dims). Tasks own disjoint ranges of one kept dim, so every output
 * element is accumulated by one task, over the same inner runs and in the
 * same order as the serial loop: the same bits at any thread count. */
typedef struct red_job {
    const merged *m;
    int dim;
    int64_t align;
    nn_iter_loop loop;
    void *arg;
} red_job;

static void red_task(void *p, int task, int n_tasks) {
    const red_job *j = p;
    merged sub = *j->m;
    int64_t b, e, total = 1;
    nn_parallel_range(sub.shape[j->dim], task, n_tasks, j->align, &b, &e);
    if (b >= e) return;
    sub.shape[j->dim] = e - b;
    for (int k = 0; k < sub.nargs; k++) sub.data[k] += b * sub.strides[k][j->dim];
    for (int d = 0; d < sub.nd; d++) total *= sub.shape[d];
    run_range(&sub, 0, total, j->loop, j->arg);
}

void nn_iter_run_reduce_parallel(nn_iter *it, nn_iter_loop loop, void *arg, int64_t min_per_task) {
    merged m;
    if (!merge_dims(it, &m)) return;
    int64_t total = 1;
    for (int d = 0; d < m.nd; d++) total *= m.shape[d];
    int n_tasks = nn_parallel_tasks(total, min_per_task);
    /* The outermost kept dim long enough for every task, else the longest. */
    int dim = -1;
    for (int d = 0; d < m.nd && n_tasks > 1; d++) {
        if (m.strides[0][d] == 0) continue;
        if (m.shape[d] >= 16 * n_tasks || (d < m.nd - 1 && m.shape[d] >= n_tasks)) {
            dim = d;
            break;
        }
        if (dim < 0 || m.shape[d] > m.shape[dim]) dim = d;
    }
    if (dim >= 0 && m.shape[dim] < n_tasks) n_tasks = (int)m.shape[dim];
    if (dim < 0 || n_tasks <= 1) {
        run_range(&m, 0, total, loop, arg);
        return;
    }
    /* In the innermost dim, chunks of 16 elements (whole cache lines). */
    red_job j = {&m, dim, dim == m.nd - 1 ? 16 : 1, loop, arg};
    nn_parallel_run(n_tasks, red_task, &j);
}

nn_status nn_broadcast_shapes(nn_ctx *ctx, int na, const int64_t *a, int nb, const int64_t *b,
                              int *nout, int64_t *out) {
    int n = na > nb ? na : nb;
    /* from the last dim, as PyTorch's infer_size, so that a mismatch is
     * reported where PyTorch reports it, in its words */
    for (int i = n - 1; i >= 0; i--) {
        int64_t x = i - (n - na) >= 0 ? a[i - (n - na)] : 1;
        int64_t y = i - (n - nb) >= 0 ? b[i - (n - nb)] : 1;
        if (x != y && x != 1 && y != 1)
            return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                                "The size of tensor a (%lld) must match the size of tensor b "
                                "(%lld) at non-singleton dimension %d",
                                (long long)x, (long long)y, i);
        out[i] = x == 1 ? y : x;
    }
    *nout = n;
    return NN_OK;
}

nn_status nn_reduce_mask(nn_ctx *ctx, int ndim, const int64_t *dims, int n_dims,
                         bool mask[NN_MAX_DIMS]) {
    bool all = dims == NULL || n_dims <= 0;
    for (int i = 0; i < NN_MAX_DIMS; i++) mask[i] = all && i < ndim;
    if (all) return NN_OK;
    for (int k = 0; k < n_dims; k++) {
        int d;
        if (nn_dim_wrap(ctx, dims[k], ndim, &d)) return ctx->err.code;
        if (ndim == 0) continue; /* dim 0 or -1 of a scalar reduces nothing */
        if (mask[d])
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "dim %lld appears twice in the dims",
                                (long long)dims[k]);
        mask[d] = true;
    }
    return NN_OK;
}

int nn_reduce_shape(const nn_tensor *a, const bool mask[NN_MAX_DIMS], bool keepdim,
                    int64_t *out_shape) {
    int n = 0;
    for (int i = 0; i < a->ndim; i++) {
        if (!mask[i])
            out_shape[n++] = a->shape[i];
        else if (keepdim)
            out_shape[n++] = 1;
    }
    return n;
}

/* dst += alpha * src (src broadcast to dst), same float dtype or converted. */
typedef struct {
    nn_dtype dt;
    double alpha;
} axpy_arg;

static void axpy_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    axpy_arg *a = argp;
    if (a->dt == NN_FLOAT32) {
        float al = (float)a->alpha;
        if (s[0] == 4 && s[1] == 4) {
            float *o = (float *)d[0];
            const float *x = (const float *)d[1];
            for (int64_t i = 0; i < n; i++) o[i] += al * x[i];
        } else {
            for (int64_t i = 0; i < n; i++)
                *(float *)(d[0] + i * s[0]) += al * *(const float *)(d[1] + i * s[1]);
        }
    } else if (a->dt == NN_FLOAT64) {
        for (int64_t i = 0; i < n; i++)
            *(double *)(d[0] + i * s[0]) += a->alpha * *(const double *)(d[1] + i * s[1]);
    } else if (a->dt == NN_COMPLEX64) { /* both parts; alpha is real */
        float al = (float)a->alpha;
        for (int64_t i = 0; i < n; i++) {
            float *o = (float *)(d[0] + i * s[0]);
            const float *x = (const float *)(d[1] + i * s[1]);
            o[0] += al * x[0];
            o[1] += al * x[1];
        }
    } else if (a->dt == NN_COMPLEX128) {
        for (int64_t i = 0; i < n; i++) {
            double *o = (double *)(d[0] + i * s[0]);
            const double *x = (const double *)(d[1] + i * s[1]);
            o[0] += a->alpha * x[0];
            o[1] += a->alpha * x[1];
        }
    } else if (a->dt == NN_INT64) {
        for (int64_t i = 0; i < n; i++)
            *(int64_t *)(d[0] + i * s[0]) = (int64_t)((uint64_t) * (int64_t *)(d[0] + i * s[0]) +
                                                      (uint64_t)(int64_t)a->alpha * (uint64_t) *
                                                          (const int64_t *)(d[1] + i * s[1]));
    } else if (a->dt == NN_BOOL) {
        for (int64_t i = 0; i < n; i++)
            *(uint8_t *)(d[0] + i * s[0]) |= *(const uint8_t *)(d[1] + i * s[1]) && a->alpha != 0;
    } else if (nn_dtype_is_float(a->dt)) { /* float16, bfloat16: computed in float, rounded */
        for (int64_t i = 0; i < n; i++)
            nn_dtype_store(a->dt, d[0] + i * s[0],
                           (float)nn_dtype_load(a->dt, d[0] + i * s[0]) +
                               (float)a->alpha * (float)nn_dtype_load(a->dt, d[1] + i * s[1]));
    } else { /* small ints: in int64, wrapped back */
        for (int64_t i = 0; i < n; i++) {
            uint64_t v =
                (uint64_t)nn_dtype_load_int(a->dt, d[0] + i * s[0]) +
                (uint64_t)(int64_t)a->alpha * (uint64_t)nn_dtype_load_int(a->dt, d[1] + i * s[1]);
            nn_dtype_store(a->dt, d[0] + i * s[0], (double)(int64_t)v);
        }
    }
}

nn_status nn_raw_add_into(nn_ctx *ctx, nn_tensor *dst, nn_tensor *src, double alpha) {
    int n;
    int64_t shape[NN_MAX_DIMS];
    if (nn_broadcast_shapes(ctx, dst->ndim, dst->shape, src->ndim, src->shape, &n, shape))
        return ctx->err.code;
    if (n != dst->ndim || memcmp(shape, dst->shape, sizeof(int64_t) * (size_t)n) != 0) {
        char a[128], b[128];
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "cannot add a tensor of shape %s in place into one of shape %s",
                            nn_tensor_shape_str(src, a, sizeof a),
                            nn_tensor_shape_str(dst, b, sizeof b));
    }
    nn_tensor *s = nn_tensor_cast_raw(ctx, src, dst->dtype);
    if (!s) return ctx->err.code;
    nn_iter it;
    axpy_arg a = {dst->dtype, alpha};
    nn_iter_init(&it, dst->ndim, dst->shape);
    nn_iter_add(&it, dst);
    nn_iter_add(&it, s);
    nn_iter_run_parallel(&it, axpy_loop, &a, NN_PAR_MIN_ELEMWISE);
    nn_tensor_release(s);
    return NN_OK;
}

/* ---- the layout of an elementwise op's output ----
 * PyTorch 1.13's TensorIterator: when every operand has the output's shape
 * (no broadcast, no scalar) and all are contiguous, the output is; all
 * channels_last (4 dims): channels_last; all non-overlapping and dense
 * with equal strides: those strides. Otherwise the dims are ordered by the
 * operands' strides, the first operand deciding and a later one breaking
 * its ties or its broadcast dims (stride 0 says nothing), equal strides
 * putting the smaller dim inside; the output is dense in that order, and
 * row-major when the order is the dims' own. */

/* channels_last-contiguous (PyTorch's is_contiguous(memory_format=...)) */
/* The dims of a channels_last (nd 4) or channels_last_3d (nd 5) layout,
 * innermost first: C, then W (H, D), then N. */
static void channels_last_order(int nd, int *order) {
    order[0] = 1;
    for (int i = 1; i < nd - 1; i++) order[i] = nd - i;
    order[nd - 1] = 0;
}

/* The strides of a dense channels_last (nd 4) or channels_last_3d (nd 5)
 * layout of [shape]: c10's get_channels_last_strides. */
static void channels_last_strides(int nd, const int64_t *shape, int64_t *strides) {
    int order[5];
    channels_last_order(nd, order);
    int64_t s = 1;
    for (int i = 0; i < nd; i++) {
        strides[order[i]] = s;
        s *= shape[order[i]];
    }
}

/* c10's is_channels_last_contiguous: dims of size 1 have any stride */
static bool channels_last_nd(const nn_tensor *t, int nd) {
    int order[5];
    if (t->ndim != nd) return false;
    channels_last_order(nd, order);
    int64_t need = 1;
    for (int i = 0; i < nd; i++) {
        int d = order[i];
        if (t->shape[d] == 1) continue;
        if (t->strides[d] != need) return false;
        need *= t->shape[d];
    }
    return true;
}

static bool channels_last(const nn_tensor *t) {
    return channels_last_nd(t, 4);
}

bool nn_tensor_is_format(const nn_tensor *t, nn_memory_format fmt) {
    switch (fmt) {
    case NN_FORMAT_CHANNELS_LAST: return channels_last_nd(t, 4);
    case NN_FORMAT_CHANNELS_LAST_3D: return channels_last_nd(t, 5);
    default: return nn_tensor_is_contiguous(t); /* PRESERVE too, as c10's */
    }
}

/* c10's is_channels_last_strides_2d/3d, comments and all */
static bool strides_like_channels_last(const nn_tensor *t) {
    int order[5], nd = t->ndim;
    channels_last_order(nd, order);
    int64_t min = 0;
    if (t->strides[1] == 0) return false;
    for (int i = 0; i < nd; i++) {
        int d = order[i];
        if (t->shape[d] == 0 || t->strides[d] < min) return false;
        /* N111 with equal strides: NCHW, the default for the ambiguous */
        if (d == 0 && min == t->strides[1]) return false;
        /* and N1H1 or a permuted 1C1W are not channels_last */
        min = t->strides[d];
        if (t->shape[d] > 1) min *= t->shape[d];
    }
    return true;
}

nn_memory_format nn_tensor_suggested_format(const nn_tensor *t) {
    if ((t->ndim == 4 || t->ndim == 5) && strides_like_channels_last(t))
        return t->ndim == 4 ? NN_FORMAT_CHANNELS_LAST : NN_FORMAT_CHANNELS_LAST_3D;
    return NN_FORMAT_CONTIGUOUS;
}

bool nn_format_strides(const nn_tensor *t, nn_memory_format fmt, int64_t *strides) {
    int nd = t->ndim;
    if (fmt == NN_FORMAT_CHANNELS_LAST || fmt == NN_FORMAT_CHANNELS_LAST_3D) {
        channels_last_strides(nd, t->shape, strides);
        return true;
    }
    if (fmt != NN_FORMAT_PRESERVE) return false;
    if (nn_tensor_is_contiguous(t)) {
        /* row-major unless a dim of size 1 has another stride, which
         * empty_like keeps: one pass over the dims */
        int64_t s = 1;
        bool odd = false;
        for (int i = nd - 1; i >= 0; i--) {
            odd = odd || (t->shape[i] == 1 && t->strides[i] != s);
            s *= t->shape[i];
        }
        if (!odd) return false;
        memcpy(strides, t->strides, sizeof(int64_t) * (size_t)nd);
        return true;
    }
    /* empty_like: a dense input's own strides, size-1 dims' included */
    if (nn_tensor_is_dense(t)) {
        memcpy(strides, t->strides, sizeof(int64_t) * (size_t)nd);
        return true;
    }
    const nn_tensor *ops[1] = {t};
    return nn_elementwise_layout(nd, t->shape, 1, ops, strides);
}

bool nn_elementwise_layout(int nd, const int64_t *shape, int n, const nn_tensor *const *ops,
                           int64_t *strides) {
    if (nd < 2 || n < 1) return false;
    bool same = true;
    for (int k = 0; k < n && same; k++) {
        same = ops[k]->ndim == nd;
        for (int i = 0; i < nd && same; i++) same = ops[k]->shape[i] == shape[i];
    }
    if (same) {
        bool contig = true, cl = true, dense = true;
        for (int k = 0; k < n && contig; k++) contig = nn_tensor_is_contiguous(ops[k]);
        if (contig) return false; /* the common case: at no further cost */
        for (int k = 0; k < n; k++) {
            cl = cl && channels_last(ops[k]);
            dense = dense && nn_tensor_is_dense(ops[k]);
        }
        if (cl) {
            channels_last_strides(4, shape, strides);
            return true;
        }
        for (int k = 1; k < n && dense; k++)
            dense = memcmp(ops[k]->strides, ops[0]->strides, sizeof(int64_t) * (size_t)nd) == 0;
        if (dense) {
            memcpy(strides, ops[0]->strides, sizeof(int64_t) * (size_t)nd);
            return true;
        }
    }
    /* each operand's strides over the space, 0 where it broadcasts */
    int64_t st[NN_ITER_MAX_ARGS][NN_MAX_DIMS];
    if (n > NN_ITER_MAX_ARGS) n = NN_ITER_MAX_ARGS;
    for (int k = 0; k < n; k++) {
        int lead = nd - ops[k]->ndim;
        for (int i = 0; i < nd; i++) {
            int j = i - lead;
            st[k][i] = j < 0 || (ops[k]->shape[j] == 1 && shape[i] != 1) ? 0 : ops[k]->strides[j];
        }
    }
    /* perm[0] is the innermost dim: TensorIterator's reorder_dimensions */
    int perm[NN_MAX_DIMS];
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    for (int i = 1; i < nd; i++) {
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int a = perm[d0], b = perm[d1], cmp = 0;
            for (int k = 0; k < n && cmp == 0; k++) {
                int64_t s0 = st[k][a], s1 = st[k][b];
                if (s0 == 0 || s1 == 0) continue;
                if (s0 < s1)
                    cmp = -1;
                else if (s0 > s1 || shape[a] > shape[b])
                    cmp = 1;
            }
            if (cmp > 0) {
                perm[d0] = b;
                perm[d1] = a;
                d1 = d0;
            } else if (cmp < 0) {
                break;
            }
        }
    }
    bool row_major = true;
    for (int i = 0; i < nd; i++) row_major = row_major && perm[i] == nd - 1 - i;
    if (row_major) return false;
    int64_t s = 1;
    for (int i = 0; i < nd; i++) {
        strides[perm[i]] = s;
        s *= shape[perm[i]];
    }
    return true;
}
