/* The float32 and float64 sum in PyTorch's order, so that `x.sum()`,
 * `x.mean()` and every loss reduced by them print PyTorch's digits: a
 * float sum's last bits depend on the order of its additions, and learners
 * compare `loss.item()` with PyTorch's.
 *
 * PyTorch 1.13's CPU sum (SumKernel.cpp's cascade sum) accumulates in the
 * input's own type, in AVX2 vectors (8 floats, 4 doubles), through a
 * cascade: rows of elements are added in chunks of 2^p (p >= 4), the
 * chunks' sums into a second level, and so on up four levels. How the
 * tensor is cut into those rows comes from its TensorIterator: dims sorted
 * with the reduced ones innermost, then by stride, adjacent dims merged
 * where the memory allows, and the innermost two handed to the kernel,
 * which picks a contiguous-inner, contiguous-outer or strided loop. With
 * more than one thread and at least 32768 elements, PyTorch splits the
 * work: a full reduction into one partial sum per thread (added at the
 * end), any other across the outermost kept dim (rounded to 128 bytes of
 * columns). This file follows those steps for the thread count nndb is set
 * to (torch.set_num_threads), and runs the split parts on nndb's threads.
 * tests/py/sum_bits.py compares the bits with PyTorch's over shapes,
 * strides, dims and 1 and 2 threads.
 *
 * Other dtypes and reductions keep ops_reduce.c's double accumulation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_thread.h"

#define GRAIN 32768 /* PyTorch's at::internal::GRAIN_SIZE */

/* The vector helpers are inlined; their by-value vectors never cross a call. */
#pragma GCC diagnostic ignored "-Wpsabi"

typedef float v8f __attribute__((vector_size(32)));
typedef double v4d __attribute__((vector_size(32)));

static int64_t ceil_log2(int64_t x) {
    if (x <= 2) return 1;
    return 64 - __builtin_clzll((unsigned long long)(x - 1));
}

static inline v8f load_v8f(const char *p) {
    v8f v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline v4d load_v4d(const char *p) {
    v4d v;
    memcpy(&v, p, sizeof v);
    return v;
}

#define LOAD_SCALAR(T) (*(const T *)(p))

/* MULTI_ROW(NAME, A, LOAD): four sums at once over [size] rows, row i at
 * in + i * row_stride, its four columns col_stride apart, in PyTorch's
 * four-level cascade. LOAD reads one A at char pointer p. */
#define MULTI_ROW(NAME, A, LOADP)                                                                  \
    static inline __attribute__((always_inline)) void NAME(                                        \
        const char *in, int64_t row_stride, int64_t col_stride, int64_t size, A out[4]) {          \
        const int64_t power = ceil_log2(size) / 4 > 4 ? ceil_log2(size) / 4 : 4;                   \
        const int64_t step = (int64_t)1 << power, mask = step - 1;                                 \
        A acc[4][4];                                                                               \
        memset(acc, 0, sizeof acc);                                                                \
        int64_t i = 0;                                                                             \
        while (i + step <= size) {                                                                 \
            for (int64_t j = 0; j < step; j++, i++) {                                              \
                const char *base = in + i * row_stride;                                            \
                for (int k = 0; k < 4; k++) acc[0][k] += LOADP(base + k * col_stride);             \
            }                                                                                      \
            for (int j = 1; j < 4; j++) {                                                          \
                for (int k = 0; k < 4; k++) {                                                      \
                    acc[j][k] += acc[j - 1][k];                                                    \
                    memset(&acc[j - 1][k], 0, sizeof(A));                                          \
                }                                                                                  \
                if ((i & (mask << (j * power))) != 0) break;                                       \
            }                                                                                      \
        }                                                                                          \
        for (; i < size; i++) {                                                                    \
            const char *base = in + i * row_stride;                                                \
            for (int k = 0; k < 4; k++) acc[0][k] += LOADP(base + k * col_stride);                 \
        }                                                                                          \
        for (int j = 1; j < 4; j++)                                                                \
            for (int k = 0; k < 4; k++) acc[0][k] += acc[j][k];                                    \
        for (int k = 0; k < 4; k++) out[k] = acc[0][k];                                            \
    }

/* ROW(NAME, A, MULTI, LOADP): one sum over [size] elements [stride] apart,
 * read as rows of four (PyTorch's row_sum). */
#define ROW(NAME, A, MULTI, LOADP)                                                                 \
    static inline __attribute__((always_inline)) A NAME(const char *in, int64_t stride,            \
                                                        int64_t size) {                            \
        A p[4];                                                                                    \
        const int64_t rows = size / 4;                                                             \
        MULTI(in, stride * 4, stride, rows, p);                                                    \
        for (int64_t i = rows * 4; i < size; i++) p[0] += LOADP(in + i * stride);                  \
        for (int k = 1; k < 4; k++) p[0] += p[k];                                                  \
        return p[0];                                                                               \
    }

#define LOAD_F(p) (*(const float *)(p))
#define LOAD_D(p) (*(const double *)(p))

MULTI_ROW(multi_f, float, LOAD_F)
MULTI_ROW(multi_d, double, LOAD_D)
MULTI_ROW(multi_v8f, v8f, load_v8f)
MULTI_ROW(multi_v4d, v4d, load_v4d)
ROW(row_f, float, multi_f, LOAD_F)
ROW(row_d, double, multi_d, LOAD_D)
ROW(row_v8f, v8f, multi_v8f, load_v8f)
ROW(row_v4d, v4d, multi_v4d, load_v4d)

/* LOOP2D(NAME, T, L, V, ROWS, ROWV, MULTIS, MULTIV): PyTorch's cascade_sum
 * loop over a 2-D block (size0 x size1) of output [o] and input [x], byte
 * strides s = {out0, in0, out1, in1}; every result is added into [o]. */
#define LOOP2D(NAME, T, L, V, ROWS, ROWV, MULTIS, MULTIV)                                          \
    NN_KERNEL_CLONES static void NAME(char *o, const char *x, const int64_t *s, int64_t size0,     \
                                      int64_t size1) {                                             \
        int64_t is0 = s[1], is1 = s[3], os0 = s[0], os1 = s[2];                                    \
        if (os0 != 0 && os1 == 0) {                                                                \
            int64_t t = is0;                                                                       \
            is0 = is1;                                                                             \
            is1 = t;                                                                               \
            t = os0;                                                                               \
            os0 = os1;                                                                             \
            os1 = t;                                                                               \
            t = size0;                                                                             \
            size0 = size1;                                                                         \
            size1 = t;                                                                             \
        }                                                                                          \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (os0 != 0 && os1 != 0) { /* nothing reduced here: out += in */                          \
            for (int64_t j = 0; j < size1; j++)                                                    \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    T *d = (T *)(o + j * s[2] + i * s[0]);                                         \
                    *d = *d + *(const T *)(x + j * s[3] + i * s[1]);                               \
                }                                                                                  \
            return;                                                                                \
        }                                                                                          \
        const int64_t os = os1;                                                                    \
        if (is0 == z && size0 >= L) { /* contiguous inner reduction */                             \
            const int64_t nv = size0 / L;                                                          \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                const char *row = x + j * is1;                                                     \
                V v = ROWV(row, L * z, nv);                                                        \
                T acc = 0;                                                                         \
                for (int64_t k = nv * L; k < size0; k++) acc += ((const T *)row)[k];               \
                for (int k = 0; k < L; k++) acc += v[k];                                           \
                *(T *)(o + j * os) += acc;                                                         \
            }                                                                                      \
        } else if (is1 == z && size1 >= L) { /* contiguous outer reduction */                      \
            int64_t j = 0;                                                                         \
            for (; j + 4 * L <= size1; j += 4 * L) {                                               \
                V sums[4];                                                                         \
                MULTIV(x + j * z, is0, L * z, size0, sums);                                        \
                for (int r = 0; r < 4; r++)                                                        \
                    for (int k = 0; k < L; k++) *(T *)(o + (j + r * L + k) * os) += sums[r][k];    \
            }                                                                                      \
            for (; j + L <= size1; j += L) {                                                       \
                V v = ROWV(x + j * z, is0, size0);                                                 \
                for (int k = 0; k < L; k++) *(T *)(o + (j + k) * os) += v[k];                      \
            }                                                                                      \
            for (; j < size1; j++) *(T *)(o + j * os) += ROWS(x + j * z, is0, size0);              \
        } else if (is0 < is1) {                                                                    \
            for (int64_t j = 0; j < size1; j++)                                                    \
                *(T *)(o + j * os) += ROWS(x + j * is1, is0, size0);                               \
        } else {                                                                                   \
            int64_t j = 0;                                                                         \
            for (; j + 3 < size1; j += 4) {                                                        \
                T sums[4];                                                                         \
                MULTIS(x + j * is1, is0, is1, size0, sums);                                        \
                for (int k = 0; k < 4; k++) *(T *)(o + (j + k) * os) += sums[k];                   \
            }                                                                                      \
            for (; j < size1; j++) *(T *)(o + j * os) += ROWS(x + j * is1, is0, size0);            \
        }                                                                                          \
    }

LOOP2D(loop_f, float, 8, v8f, row_f, row_v8f, multi_f, multi_v8f)
LOOP2D(loop_d, double, 4, v4d, row_d, row_v4d, multi_d, multi_v4d)

/* LOOP2D's contiguous inner reduction for one row, added into a 0 output. */
#define SUM_ROW(NAME, T, L, V, ROWV)                                                               \
    NN_KERNEL_CLONES T NAME(const T *x, int64_t n) {                                               \
        const int64_t nv = n / L;                                                                  \
        V v = ROWV((const char *)x, L * (int64_t)sizeof(T), nv);                                   \
        T acc = 0, o = 0;                                                                          \
        for (int64_t k = nv * L; k < n; k++) acc += x[k];                                          \
        for (int k = 0; k < L; k++) acc += v[k];                                                   \
        return o + acc;                                                                            \
    }
SUM_ROW(nn_sum_row_f32, float, 8, v8f, row_v8f)
SUM_ROW(nn_sum_row_f64, double, 4, v4d, row_v4d)

/* ---- the iterator: PyTorch's dim order and merging for a reduction ---- */

typedef struct sgeo {
    int nd;
    int64_t shape[NN_MAX_DIMS];
    int64_t st[NN_MAX_DIMS][2]; /* byte strides: [0] output, [1] input */
    char *o;
    const char *x;
    bool f64;
    int64_t z; /* element size in bytes, input and output alike */
    /* what runs on each 2-D block (for_range): the cascade sum, or max/min */
    void (*block)(void *arg, char *o, const char *x, const int64_t *s, int64_t size0,
                  int64_t size1);
    void *arg;
} sgeo;

/* 1 if dim a goes after dim b, -1 if before, 0 when undecided (PyTorch's
 * reorder_dimensions: reduced dims first, then by stride, output first). */
static int should_swap(const sgeo *g, int a, int b) {
    for (int t = 0; t < 2; t++) {
        int64_t s0 = g->st[a][t], s1 = g->st[b][t];
        if (t == 0 && (s0 == 0) != (s1 == 0)) return s1 == 0 ? 1 : -1;
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) return -1;
        if (s0 > s1) return 1;
        if (g->shape[a] > g->shape[b]) return 1;
    }
    return 0;
}

static void build(sgeo *g, const nn_tensor *x, const bool *mask, char *o) {
    const int64_t z = (int64_t)nn_dtype_size(x->dtype);
    int nd = x->ndim;
    /* the output as PyTorch views it: contiguous over the input's dims with
     * the reduced ones kept at size 1, stride 0 where reduced */
    int64_t ost[NN_MAX_DIMS], run = z;
    for (int i = nd - 1; i >= 0; i--) {
        ost[i] = mask[i] ? 0 : run;
        if (!mask[i]) run *= x->shape[i];
    }
    int perm[NN_MAX_DIMS];
    for (int i = 0; i < nd; i++) perm[i] = nd - 1 - i;
    sgeo in = {.nd = nd};
    for (int i = 0; i < nd; i++) {
        in.shape[i] = x->shape[i];
        in.st[i][0] = ost[i];
        in.st[i][1] = x->strides[i] * z;
    }
    for (int i = 1; i < nd; i++) { /* insertion sort, stopping where decided */
        int d1 = i;
        for (int d0 = i - 1; d0 >= 0; d0--) {
            int c = should_swap(&in, perm[d0], perm[d1]);
            if (c > 0) {
                int t = perm[d0];
                perm[d0] = perm[d1];
                perm[d1] = t;
                d1 = d0;
            } else if (c < 0) {
                break;
            }
        }
    }
    *g = (sgeo){.nd = nd};
    for (int i = 0; i < nd; i++) {
        g->shape[i] = in.shape[perm[i]];
        g->st[i][0] = in.st[perm[i]][0];
        g->st[i][1] = in.st[perm[i]][1];
    }
    if (nd > 1) { /* coalesce */
        int prev = 0;
        for (int d = 1; d < nd; d++) {
            bool ok = g->shape[prev] == 1 || g->shape[d] == 1;
            if (!ok) {
                ok = true;
                for (int t = 0; t < 2; t++)
                    if (g->shape[prev] * g->st[prev][t] != g->st[d][t]) ok = false;
            }
            if (ok) {
                if (g->shape[prev] == 1) {
                    g->st[prev][0] = g->st[d][0];
                    g->st[prev][1] = g->st[d][1];
                }
                g->shape[prev] *= g->shape[d];
            } else {
                prev++;
                if (prev != d) {
                    g->st[prev][0] = g->st[d][0];
                    g->st[prev][1] = g->st[d][1];
                    g->shape[prev] = g->shape[d];
                }
            }
        }
        g->nd = prev + 1;
    }
    g->o = o;
    g->x = nn_tensor_data(x);
    g->f64 = x->dtype == NN_FLOAT64;
    g->z = z;
}

static int64_t numel_of(const sgeo *g) {
    int64_t n = 1;
    for (int i = 0; i < g->nd; i++) n *= g->shape[i];
    return n;
}

/* What runs on each 2-D block: output [o], input [x], byte strides s =
 * {out0, in0, out1, in1}, size0 x size1 elements. */
typedef void (*block_fn)(void *arg, char *o, const char *x, const int64_t *s, int64_t size0,
                         int64_t size1);

static void sum_block(void *arg, char *o, const char *x, const int64_t *s, int64_t size0,
                      int64_t size1) {
    (*(const bool *)arg ? loop_d : loop_f)(o, x, s, size0, size1);
}
static const bool sum_f32 = false, sum_f64 = true;

/* PyTorch's serial_for_each over the linear range [begin, end) of [g]'s
 * iteration space (dim 0 fastest), output pointer [o]: [block] over the
 * largest 2-D blocks the range allows. */
static void for_range_blocks(const sgeo *g, char *o, int64_t begin, int64_t end, block_fn block,
                             void *arg) {
    if (begin >= end) return;
    int64_t s[4] = {0, 0, 0, 0};
    if (g->nd >= 1) {
        s[0] = g->st[0][0];
        s[1] = g->st[0][1];
    }
    if (g->nd >= 2) {
        s[2] = g->st[1][0];
        s[3] = g->st[1][1];
    }
    if (g->nd <= 1) {
        char *po = o + begin * s[0];
        const char *px = g->x + begin * s[1];
        block(arg, po, px, s, end - begin, 1);
        return;
    }
    int64_t v[NN_MAX_DIMS], off = begin;
    for (int i = 0; i < g->nd; i++) { /* the counter at [begin] */
        v[i] = off % g->shape[i];
        off /= g->shape[i];
    }
    for (off = begin; off < end;) {
        char *po = o;
        const char *px = g->x;
        for (int i = 0; i < g->nd; i++) {
            po += v[i] * g->st[i][0];
            px += v[i] * g->st[i][1];
        }
        int64_t step0 = g->shape[0] - v[0] < end - off ? g->shape[0] - v[0] : end - off, step1 = 1;
        if (step0 == g->shape[0]) {
            step1 = (end - off) / g->shape[0];
            if (g->shape[1] - v[1] < step1) step1 = g->shape[1] - v[1];
        }
        block(arg, po, px, s, step0, step1);
        off += step0 * step1;
        /* increment the counter by step0 x step1 */
        v[0] += step0;
        if (v[0] >= g->shape[0]) {
            v[0] = 0;
            v[1] += step1;
        } else {
            v[1] += step1 - 1;
        }
        for (int i = 1; i < g->nd - 1 && v[i] >= g->shape[i]; i++) {
            v[i] -= g->shape[i];
            v[i + 1]++;
        }
    }
}

/* The geometry's kernel (g->block) over [begin, end), into [o]. */
static void for_range(const sgeo *g, char *o, int64_t begin, int64_t end) {
    for_range_blocks(g, o, begin, end, g->block, g->arg);
}

/* ---- the thread split ---- */

typedef struct full_job {
    const sgeo *g;
    int64_t chunk, n;
    double part[64]; /* per task: its partial result, of the input's type */
} full_job;

static void full_task(void *arg, int task, int n_tasks) {
    (void)n_tasks;
    full_job *j = arg;
    int64_t b = task * j->chunk, e = b + j->chunk < j->n ? b + j->chunk : j->n;
    for_range(j->g, (char *)&j->part[task], b, e);
}

typedef struct dim_job {
    sgeo g; /* split dim narrowed per task */
    int dim;
    int64_t cols, chunk, round;
} dim_job;

static void dim_task(void *arg, int task, int n_tasks) {
    (void)n_tasks;
    const dim_job *j = arg;
    int64_t b = task * j->chunk, e = b + j->chunk < j->cols ? b + j->chunk : j->cols;
    if (b >= j->cols) return;
    if (j->round > 1) {
        b -= b % j->round;
        if (e != j->cols) e -= e % j->round;
    }
    if (b >= e) return;
    sgeo g = j->g;
    g.shape[j->dim] = e - b;
    char *o = g.o + b * g.st[j->dim][0];
    g.x += b * g.st[j->dim][1];
    for_range(&g, o, 0, numel_of(&g));
}

/* ---- var and std over every element (PyTorch's std_var_all_cpu) ---- */

static void sum_into(const nn_tensor *x, const bool *mask, char *o, int64_t out_n);

typedef struct sqdev_job {
    const sgeo *g;
    double mean;
    int64_t chunk, n;
    double part[64];
} sqdev_job;

/* sum of (x - mean)^2 in double over [begin, end) of the iteration, one
 * partial per 2-D block added to the running total, as PyTorch's loop */
typedef struct sqdev_acc {
    double mean, total;
    bool f64;
} sqdev_acc;

static void sqdev_block(void *arg, char *o, const char *x, const int64_t *s, int64_t size0,
                        int64_t size1) {
    (void)o;
    sqdev_acc *a = arg;
    double local = 0;
    for (int64_t j = 0; j < size1; j++)
        for (int64_t i = 0; i < size0; i++) {
            const char *p = x + j * s[3] + i * s[1];
            double d = (a->f64 ? *(const double *)p : (double)*(const float *)p) - a->mean;
            local += d * d;
        }
    a->total += local;
}

static double sqdev_range(const sgeo *g, double mean, int64_t begin, int64_t end) {
    sqdev_acc a = {.mean = mean, .total = 0, .f64 = g->f64};
    char none; /* no output: its strides are all 0 */
    for_range_blocks(g, &none, begin, end, sqdev_block, &a);
    return a.total;
}

static void sqdev_task(void *arg, int task, int n_tasks) {
    (void)n_tasks;
    sqdev_job *j = arg;
    int64_t b = task * j->chunk, e = b + j->chunk < j->n ? b + j->chunk : j->n;
    j->part[task] = b < e ? sqdev_range(j->g, j->mean, b, e) : 0;
}

bool nn_var_all_pytorch_order(const nn_tensor *x, double correction, bool take_sqrt, double *mean,
                              double *result) {
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64) return false;
    /* the mean in the input's type: the cascade sum divided by the count */
    bool mask[NN_MAX_DIMS];
    for (int i = 0; i < x->ndim; i++) mask[i] = true;
    double m;
    int64_t n = nn_tensor_numel(x);
    char sum[8] = {0};
    sum_into(x, mask, sum, 1);
    if (x->dtype == NN_FLOAT64) {
        double v;
        memcpy(&v, sum, sizeof v);
        m = v / (double)n;
    } else {
        float v;
        memcpy(&v, sum, sizeof v);
        m = (double)(v / (float)n);
    }
    /* the input alone in its iterator: dims by stride, merged */
    sgeo g;
    build(&g, x, mask, NULL);
    int threads = nn_get_num_threads();
    double total = 0;
    if (n <= GRAIN || threads <= 1) {
        total = sqdev_range(&g, m, 0, n);
    } else {
        sqdev_job j = {.g = &g, .mean = m, .n = n};
        int tasks = threads < 64 ? threads : 64;
        if ((n + GRAIN - 1) / GRAIN < tasks) tasks = (int)((n + GRAIN - 1) / GRAIN);
        j.chunk = (n + tasks - 1) / tasks;
        nn_parallel_run(tasks, sqdev_task, &j);
        for (int t = 0; t < threads && t < 64; t++) total += t < tasks ? j.part[t] : 0;
    }
    double div = (double)n - correction;
    double var = total / (div > 0 ? div : 0);
    *mean = m;
    *result = take_sqrt ? sqrt(var) : var;
    if (n == 0) *result = NAN; /* PyTorch fills an empty input's result with +NaN */
    return true;
}

/* [g]'s reduction into [o] ([out_n] contiguous elements of x's type, each
 * first set to [ident], the reduction's identity) with PyTorch's thread
 * split (TensorIteratorBase::parallel_reduce) for the thread count set. */
static void reduce_into(sgeo *g, int64_t out_n, const void *ident) {
    const int64_t z = g->z;
    /* the identity into every output, a typed loop for the usual sizes (a
     * memcpy of a run-time size is a library call per element) */
    if (z == 4) {
        uint32_t v;
        memcpy(&v, ident, 4);
        for (int64_t i = 0; i < out_n; i++) memcpy(g->o + i * 4, &v, 4);
    } else if (z == 8) {
        uint64_t v;
        memcpy(&v, ident, 8);
        for (int64_t i = 0; i < out_n; i++) memcpy(g->o + i * 8, &v, 8);
    } else {
        for (int64_t i = 0; i < out_n; i++) memcpy(g->o + i * z, ident, (size_t)z);
    }
    int64_t n = numel_of(g);
    if (n == 0) return;
    int threads = nn_get_num_threads();
    if (n < GRAIN || threads <= 1) {
        for_range(g, g->o, 0, n);
        return;
    }
    const int pt = threads; /* PyTorch's thread count: its split follows it */
    if (out_n == 1) {
        /* two passes: one partial result per thread, then their reduction */
        int tasks = (int)((n + GRAIN - 1) / GRAIN < pt ? (n + GRAIN - 1) / GRAIN : pt);
        if (n <= GRAIN) tasks = 1;
        if (tasks > 64) tasks = 64;
        full_job *j = calloc(1, sizeof *j);
        if (!j) {
            for_range(g, g->o, 0, n);
            return;
        }
        for (int t = 0; t < 64; t++) memcpy(&j->part[t], ident, (size_t)z);
        j->g = g;
        j->n = n;
        j->chunk = (n + tasks - 1) / tasks;
        nn_parallel_run(tasks, full_task, j);
        /* the partials, as PyTorch's second pass reads its buffer of one
         * slot per thread (unused slots hold the identity) */
        int slots = pt < 64 ? pt : 64;
        char b[64 * sizeof(double)];
        for (int t = 0; t < slots; t++) memcpy(b + t * z, &j->part[t], (size_t)z);
        sgeo r = {.nd = 1,
                  .shape = {slots},
                  .st = {{0, z}},
                  .x = b,
                  .o = g->o,
                  .f64 = g->f64,
                  .z = z,
                  .block = g->block,
                  .arg = g->arg};
        for_range(&r, g->o, 0, slots);
        free(j);
        return;
    }
    /* split the outermost kept dim (PyTorch's find_split_dim) */
    int best = g->nd - 1;
    int dim = -1;
    for (int d = g->nd - 1; d >= 0 && !(g->st[d][0] == 0 && g->shape[d] > 1); d--) {
        if (g->shape[d] >= pt) {
            dim = d;
            break;
        }
        if (g->shape[d] > g->shape[best]) best = d;
    }
    if (dim < 0) dim = best;
    dim_job j = {.g = *g, .dim = dim, .cols = g->shape[dim]};
    int tasks = j.cols < pt ? (int)j.cols : pt;
    if (tasks <= 1) {
        for_range(g, g->o, 0, n);
        return;
    }
    j.chunk = (j.cols + tasks - 1) / tasks;
    j.round = g->st[dim][1] == z ? 128 / z : 1;
    nn_parallel_run(tasks, dim_task, &j);
}

/* The sum of float32/float64 [x] over [mask] into [o], [out_n] contiguous
 * elements of x's type. */
static void sum_into(const nn_tensor *x, const bool *mask, char *o, int64_t out_n) {
    sgeo g;
    build(&g, x, mask, o);
    g.block = sum_block;
    g.arg = (void *)(x->dtype == NN_FLOAT64 ? &sum_f64 : &sum_f32);
    const double zero = 0;
    reduce_into(&g, out_n, &zero);
}

/* ---- amax / amin in PyTorch's order ----
 * PyTorch 1.13's max_values/min_values kernels (binary_kernel_reduce_vec
 * in cpu/Reduce.h) over the same iterator and thread split as the sum.
 * The value is order-free except for NaN's bits and the sign of a zero
 * between 0.0 and -0.0, and those follow the path each element takes: the
 * scalar op (max_impl: any NaN gives the canonical +NaN; std::max keeps
 * the first of equals) or AVX2's vector one (vmaxps keeps the second of
 * equals, and an unordered compare ORed in makes any NaN all ones, a
 * "negative" NaN). A contiguous inner reduction ends in the scalar op,
 * so it gives +NaN; a contiguous outer one gives all-ones NaN in its
 * columns of 32 floats (16 doubles) and +NaN in the columns left over.
 * Integer types have no such bits: plain loops (int64 and bool; the
 * narrow ones arrive widened, nn_exec). */

#define EXT_OP(is_max, a, b)                                                                       \
    (((a) != (a) || (b) != (b)) ? NAN                                                              \
                                : (is_max ? ((a) < (b) ? (b) : (a)) : ((b) < (a) ? (b) : (a))))

#define EXT_VOP(VI, is_max, a, b)                                                                  \
    ({                                                                                             \
        VI t_ = is_max ? (VI)((a) > (b)) : (VI)((a) < (b));                                        \
        VI r_ = (t_ & (VI)(a)) | (~t_ & (VI)(b));                                                  \
        (__typeof__(a))(r_ | (VI)((a) != (a)) | (VI)((b) != (b)));                                 \
    })

enum { EXT_TILE = 1024 }; /* columns of an outer reduction kept in registers' reach */

/* The vector part of a contiguous inner reduction with AVX2's own max/min
 * (vmaxps keeps its second operand on equals and on NaN, as PyTorch's
 * maximum before the OR): the row's [cnt] blocks of four vectors as
 * PyTorch's four chains, into [out] (its acc[0] after the three-way
 * combine), true when a NaN was met (then the row's result is +NaN
 * whatever else: every lane's NaN reaches the scalar op). Faster than
 * PyTorch's chains and the same values: NaN is tracked apart (one
 * unordered compare for two vectors), and each chain runs as two halves
 * side by side, the first half's blocks [0, h1) and the second's
 * [h1, cnt), joined as max(first, second); with NaN aside, a chain's
 * result is the last element equal to its maximum (vmaxps keeps the later
 * of equals, which only matters for 0.0 and -0.0), and the join keeps
 * exactly that. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#include <immintrin.h>
#define EXT_HAVE_AVX2 1
#define EXT_AVX2_ROWS(NAME, T, V, L, SFX)                                                          \
    static inline __attribute__((always_inline, target("avx2"))) bool NAME##_w(                    \
        const T *in, int64_t cnt, const bool is_max, T *out) {                                     \
        const int64_t h2 = cnt / 2, h1 = cnt - h2, B = 4 * L;                                      \
        const T *in2 = in + h1 * B;                                                                \
        V a[4], b[4], n = _mm256_setzero_##SFX();                                                  \
        for (int k = 0; k < 4; k++) {                                                              \
            a[k] = _mm256_loadu_##SFX(in + k * L);                                                 \
            b[k] = h2 ? _mm256_loadu_##SFX(in2 + k * L) : a[k];                                    \
            n = _mm256_or_##SFX(n, _mm256_cmp_##SFX(a[k], b[k], _CMP_UNORD_Q));                    \
        }                                                                                          \
        for (int64_t i = 1; i < h2; i++)                                                           \
            for (int k = 0; k < 4; k++) {                                                          \
                V v = _mm256_loadu_##SFX(in + i * B + k * L);                                      \
                V w = _mm256_loadu_##SFX(in2 + i * B + k * L);                                     \
                __asm__("" : "+x"(v), "+x"(w)); /* one load each, shared by both uses */           \
                a[k] = is_max ? _mm256_max_##SFX(a[k], v) : _mm256_min_##SFX(a[k], v);             \
                b[k] = is_max ? _mm256_max_##SFX(b[k], w) : _mm256_min_##SFX(b[k], w);             \
                n = _mm256_or_##SFX(n, _mm256_cmp_##SFX(v, w, _CMP_UNORD_Q));                      \
            }                                                                                      \
        if (h1 > h2 && h2 > 0)                                                                     \
            for (int k = 0; k < 4; k++) {                                                          \
                V v = _mm256_loadu_##SFX(in + h2 * B + k * L);                                     \
                a[k] = is_max ? _mm256_max_##SFX(a[k], v) : _mm256_min_##SFX(a[k], v);             \
                n = _mm256_or_##SFX(n, _mm256_cmp_##SFX(v, v, _CMP_UNORD_Q));                      \
            }                                                                                      \
        if (h2)                                                                                    \
            for (int k = 0; k < 4; k++)                                                            \
                a[k] = is_max ? _mm256_max_##SFX(a[k], b[k]) : _mm256_min_##SFX(a[k], b[k]);       \
        V t0 = is_max ? _mm256_max_##SFX(a[0], a[1]) : _mm256_min_##SFX(a[0], a[1]);               \
        V t1 = is_max ? _mm256_max_##SFX(a[2], a[3]) : _mm256_min_##SFX(a[2], a[3]);               \
        _mm256_storeu_##SFX(out, is_max ? _mm256_max_##SFX(t0, t1) : _mm256_min_##SFX(t0, t1));    \
        return _mm256_movemask_##SFX(n) != 0;                                                      \
    }                                                                                              \
    static __attribute__((target("avx2"))) bool NAME(const T *in, int64_t cnt, bool is_max,        \
                                                     T *out) {                                     \
        return is_max ? NAME##_w(in, cnt, true, out) : NAME##_w(in, cnt, false, out);              \
    }
EXT_AVX2_ROWS(ext_rows_f32, float, __m256, 8, ps)
EXT_AVX2_ROWS(ext_rows_f64, double, __m256d, 4, pd)

static bool ext_avx2(void) {
    static int have = -1;
    if (have < 0) {
        __builtin_cpu_init();
        have = __builtin_cpu_supports("avx2") != 0;
    }
    return have;
}
#else
#define EXT_HAVE_AVX2 0
static bool ext_avx2(void) {
    return false;
}
static bool ext_rows_f32(const float *in, int64_t cnt, bool is_max, float *out) {
    (void)in, (void)cnt, (void)is_max, (void)out;
    return false;
}
static bool ext_rows_f64(const double *in, int64_t cnt, bool is_max, double *out) {
    (void)in, (void)cnt, (void)is_max, (void)out;
    return false;
}
#endif

#define EXT_BLOCK(NAME, T, VT, VI, L, is_max, ROWS)                                                \
    NN_KERNEL_CLONES static void NAME(char *o, const char *x, const int64_t *s, int64_t size0,     \
                                      int64_t size1) {                                             \
        const int64_t z = (int64_t)sizeof(T), B = 4 * L;                                           \
        if (s[0] == 0 && s[1] == z) { /* contiguous inner: vectorized_inner_reduction */           \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                T *d = (T *)(o + j * s[2]);                                                        \
                const T *in = (const T *)(x + j * s[3]);                                           \
                const int64_t cnt = size0 / B;                                                     \
                int64_t i = 0;                                                                     \
                if (cnt > 0 && ext_avx2()) {                                                       \
                    T a0[L];                                                                       \
                    bool nan = ROWS(in, cnt, is_max, a0);                                          \
                    T b0 = nan ? (T)NAN : a0[0];                                                   \
                    for (int l = 1; l < L; l++) b0 = EXT_OP(is_max, b0, a0[l]);                    \
                    *d = EXT_OP(is_max, *d, b0);                                                   \
                    i = cnt * B;                                                                   \
                } else if (cnt > 0) {                                                              \
                    VT acc[4];                                                                     \
                    for (int k = 0; k < 4; k++) memcpy(&acc[k], in + k * L, sizeof(VT));           \
                    for (int64_t b = 1; b < cnt; b++)                                              \
                        for (int k = 0; k < 4; k++) {                                              \
                            VT v;                                                                  \
                            memcpy(&v, in + b * B + k * L, sizeof v);                              \
                            acc[k] = EXT_VOP(VI, is_max, acc[k], v);                               \
                        }                                                                          \
                    VT a0 = EXT_VOP(VI, is_max, acc[0], acc[1]);                                   \
                    VT a1 = EXT_VOP(VI, is_max, acc[2], acc[3]);                                   \
                    a0 = EXT_VOP(VI, is_max, a0, a1);                                              \
                    T b0 = a0[0];                                                                  \
                    for (int l = 1; l < L; l++) b0 = EXT_OP(is_max, b0, a0[l]);                    \
                    *d = EXT_OP(is_max, *d, b0);                                                   \
                    i = cnt * B;                                                                   \
                }                                                                                  \
                T acc = *d;                                                                        \
                for (; i < size0; i++) acc = EXT_OP(is_max, acc, in[i]);                           \
                *d = acc;                                                                          \
            }                                                                                      \
        } else if (s[0] == 0 && s[2] == z && s[3] == z) {                                          \
            /* contiguous outer: vectorized_outer_reduction, each lane's                           \
             * sequence of ops as PyTorch's (row 0, then rows 1.., then the                        \
             * output), the loops turned to read rows in tiles */                                  \
            const int64_t nb = size1 / B * B;                                                      \
            for (int64_t c0 = 0; c0 < nb; c0 += EXT_TILE) {                                        \
                const int64_t w = nb - c0 < EXT_TILE ? nb - c0 : EXT_TILE;                         \
                VT acc[EXT_TILE / L];                                                              \
                memcpy(acc, x + c0 * z, (size_t)(w * z));                                          \
                for (int64_t i = 1; i < size0; i++) {                                              \
                    const char *row = x + i * s[1] + c0 * z;                                       \
                    for (int64_t k = 0; k < w / L; k++) {                                          \
                        VT v;                                                                      \
                        memcpy(&v, row + k * L * z, sizeof v);                                     \
                        acc[k] = EXT_VOP(VI, is_max, acc[k], v);                                   \
                    }                                                                              \
                }                                                                                  \
                for (int64_t k = 0; k < w / L; k++) {                                              \
                    VT v;                                                                          \
                    memcpy(&v, o + (c0 + k * L) * z, sizeof v);                                    \
                    v = EXT_VOP(VI, is_max, acc[k], v);                                            \
                    memcpy(o + (c0 + k * L) * z, &v, sizeof v);                                    \
                }                                                                                  \
            }                                                                                      \
            for (int64_t i = 0; i < size0 && nb < size1; i++) {                                    \
                const T *row = (const T *)(x + i * s[1]);                                          \
                T *d = (T *)o;                                                                     \
                for (int64_t c = nb; c < size1; c++) d[c] = EXT_OP(is_max, d[c], row[c]);          \
            }                                                                                      \
        } else { /* basic_loop */                                                                  \
            for (int64_t j = 0; j < size1; j++)                                                    \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    T *d = (T *)(o + j * s[2] + i * s[0]);                                         \
                    *d = EXT_OP(is_max, *d, *(const T *)(x + j * s[3] + i * s[1]));                \
                }                                                                                  \
        }                                                                                          \
    }

typedef int32_t v8i __attribute__((vector_size(32)));
typedef int64_t v4i __attribute__((vector_size(32)));
EXT_BLOCK(max_f32, float, v8f, v8i, 8, true, ext_rows_f32)
EXT_BLOCK(max_f64, double, v4d, v4i, 4, true, ext_rows_f64)
EXT_BLOCK(min_f32, float, v8f, v8i, 8, false, ext_rows_f32)
EXT_BLOCK(min_f64, double, v4d, v4i, 4, false, ext_rows_f64)

/* Integers: the same loops' shapes without the NaN and zero rules. */
#define EXT_INT_BLOCK(NAME, T)                                                                     \
    NN_KERNEL_CLONES static void NAME(bool is_max, char *o, const char *x, const int64_t *s,       \
                                      int64_t size0, int64_t size1) {                              \
        const int64_t z = (int64_t)sizeof(T);                                                      \
        if (s[0] == 0 && s[1] == z) {                                                              \
            for (int64_t j = 0; j < size1; j++) {                                                  \
                const T *in = (const T *)(x + j * s[3]);                                           \
                T acc = *(T *)(o + j * s[2]);                                                      \
                if (is_max)                                                                        \
                    for (int64_t i = 0; i < size0; i++) acc = in[i] > acc ? in[i] : acc;           \
                else                                                                               \
                    for (int64_t i = 0; i < size0; i++) acc = in[i] < acc ? in[i] : acc;           \
                *(T *)(o + j * s[2]) = acc;                                                        \
            }                                                                                      \
        } else if (s[0] == 0 && s[2] == z && s[3] == z) {                                          \
            T *d = (T *)o;                                                                         \
            for (int64_t i = 0; i < size0; i++) {                                                  \
                const T *row = (const T *)(x + i * s[1]);                                          \
                if (is_max)                                                                        \
                    for (int64_t c = 0; c < size1; c++) d[c] = row[c] > d[c] ? row[c] : d[c];      \
                else                                                                               \
                    for (int64_t c = 0; c < size1; c++) d[c] = row[c] < d[c] ? row[c] : d[c];      \
            }                                                                                      \
        } else {                                                                                   \
            for (int64_t j = 0; j < size1; j++)                                                    \
                for (int64_t i = 0; i < size0; i++) {                                              \
                    T *d = (T *)(o + j * s[2] + i * s[0]);                                         \
                    T v = *(const T *)(x + j * s[3] + i * s[1]);                                   \
                    if (is_max ? v > *d : v < *d) *d = v;                                          \
                }                                                                                  \
        }                                                                                          \
    }
EXT_INT_BLOCK(ext_i64, int64_t)
EXT_INT_BLOCK(ext_u8, uint8_t)

typedef struct ext_arg {
    nn_dtype dt;
    bool is_max;
} ext_arg;

static void ext_block(void *argp, char *o, const char *x, const int64_t *s, int64_t size0,
                      int64_t size1) {
    const ext_arg *a = argp;
    switch (a->dt) {
    case NN_FLOAT32: (a->is_max ? max_f32 : min_f32)(o, x, s, size0, size1); break;
    case NN_FLOAT64: (a->is_max ? max_f64 : min_f64)(o, x, s, size0, size1); break;
    case NN_INT64: ext_i64(a->is_max, o, x, s, size0, size1); break;
    default: ext_u8(a->is_max, o, x, s, size0, size1); break; /* uint8, bool */
    }
}

bool nn_extreme_pytorch_order(const nn_tensor *x, const bool *mask, nn_tensor *out, bool is_max) {
    nn_dtype dt = x->dtype;
    if (dt != NN_FLOAT32 && dt != NN_FLOAT64 && dt != NN_INT64 && dt != NN_UINT8 && dt != NN_BOOL)
        return false;
    if (out->dtype != dt || !nn_tensor_is_contiguous(out)) return false;
    union {
        float f;
        double d;
        int64_t i64;
        uint8_t u8;
    } id;
    switch (dt) { /* PyTorch's lower_bound / upper_bound */
    case NN_FLOAT32: id.f = is_max ? -INFINITY : INFINITY; break;
    case NN_FLOAT64: id.d = is_max ? -INFINITY : INFINITY; break;
    case NN_INT64: id.i64 = is_max ? INT64_MIN : INT64_MAX; break;
    case NN_BOOL: id.u8 = is_max ? 0 : 1; break;
    default: id.u8 = is_max ? 0 : UINT8_MAX; break;
    }
    ext_arg a = {dt, is_max};
    sgeo g;
    build(&g, x, mask, nn_tensor_data(out));
    g.block = ext_block;
    g.arg = &a;
    reduce_into(&g, nn_tensor_numel(out), &id);
    return true;
}

bool nn_sum_pytorch_order(const nn_tensor *x, const bool *mask, nn_tensor *out) {
    if (x->dtype != NN_FLOAT32 && x->dtype != NN_FLOAT64) return false;
    if (out->dtype != x->dtype || !nn_tensor_is_contiguous(out)) return false;
    sum_into(x, mask, nn_tensor_data(out), nn_tensor_numel(out));
    return true;
}
