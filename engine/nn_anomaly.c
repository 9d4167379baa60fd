/* Non-finite scans and the origin check of the NaN hunt (nn_anomaly.h). */
#include "nn_anomaly.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "nn_ops_impl.h"
#include "nn_thread.h"

/* ---- scans ----
 * A float is non-finite when its exponent bits are all ones. Testing the
 * bits as integers makes the OR-reduction below associative, so the
 * compiler vectorises it without -ffast-math; compiled for AVX2 and
 * AVX-512 too (NN_KERNEL_CLONES): the scans are memory-bound, and the
 * wider loads keep them at the memory's speed. */

NN_KERNEL_CLONES static bool any_bad_f32(const uint32_t *w, int64_t n) {
    const int64_t block = 4096;
    for (int64_t i = 0; i < n; i += block) {
        int64_t end = i + block < n ? i + block : n;
        uint32_t bad = 0;
        for (int64_t j = i; j < end; j++) bad |= (w[j] & 0x7f800000u) == 0x7f800000u;
        if (bad) return true;
    }
    return false;
}

NN_KERNEL_CLONES static bool any_bad_f64(const uint64_t *w, int64_t n) {
    const int64_t block = 2048;
    const uint64_t e = 0x7ff0000000000000ull;
    for (int64_t i = 0; i < n; i += block) {
        int64_t end = i + block < n ? i + block : n;
        uint64_t bad = 0;
        for (int64_t j = i; j < end; j++) bad |= (w[j] & e) == e;
        if (bad) return true;
    }
    return false;
}

/* NaN (want 1) or infinity (want 2) alone, the same way: a NaN's bits
 * without the sign are above the infinity's, an infinity's equal to them. */
NN_KERNEL_CLONES static bool any_kind_f32(const uint32_t *w, int64_t n, int want) {
    const int64_t block = 4096;
    const uint32_t inf = 0x7f800000u;
    for (int64_t i = 0; i < n; i += block) {
        int64_t end = i + block < n ? i + block : n;
        uint32_t hit = 0;
        if (want == 1)
            for (int64_t j = i; j < end; j++) hit |= (w[j] & 0x7fffffffu) > inf;
        else
            for (int64_t j = i; j < end; j++) hit |= (w[j] & 0x7fffffffu) == inf;
        if (hit) return true;
    }
    return false;
}

NN_KERNEL_CLONES static bool any_kind_f64(const uint64_t *w, int64_t n, int want) {
    const int64_t block = 2048;
    const uint64_t inf = 0x7ff0000000000000ull, abs = 0x7fffffffffffffffull;
    for (int64_t i = 0; i < n; i += block) {
        int64_t end = i + block < n ? i + block : n;
        uint64_t hit = 0;
        if (want == 1)
            for (int64_t j = i; j < end; j++) hit |= (w[j] & abs) > inf;
        else
            for (int64_t j = i; j < end; j++) hit |= (w[j] & abs) == inf;
        if (hit) return true;
    }
    return false;
}

/* Storage offset (elements) of row-major flat index [flat]. */
static int64_t offset_of(const nn_tensor *t, int64_t flat) {
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        if (n <= 0) return t->offset;
        off += (flat % n) * t->strides[d];
        flat /= n;
    }
    return off;
}

double nn_tensor_flat_value(const nn_tensor *t, int64_t flat) {
    const char *base = t->storage->data;
    if (!base) return 0.0; /* released (nn_tensor_released): nothing to read */
    int64_t off = offset_of(t, flat);
    switch (t->dtype) {
    case NN_FLOAT32: return ((const float *)base)[off];
    case NN_FLOAT64: return ((const double *)base)[off];
    case NN_INT64: return (double)((const int64_t *)base)[off];
    case NN_BOOL: return ((const bool *)base)[off] ? 1.0 : 0.0;
    default: return nn_dtype_load(t->dtype, base + off * (int64_t)nn_dtype_size(t->dtype));
    }
}

const char *nn_tensor_index_str(const nn_tensor *t, int64_t flat, char *buf, size_t cap) {
    int64_t idx[NN_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d] > 0 ? t->shape[d] : 1;
        idx[d] = flat % n;
        flat /= n;
    }
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
    return buf;
}

static bool float_tensor(const nn_tensor *t) {
    return t && (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64);
}

/* The slow, exact pass: count, first index and value, filtered by [want]
 * (1 NaN, 2 infinity, 3 both). */
static int64_t scan(const nn_tensor *t, int want, int64_t *first, double *value) {
    int64_t n = nn_tensor_numel(t), count = 0;
    bool contig = nn_tensor_is_contiguous(t);
    const char *base = t->storage->data;
    for (int64_t i = 0; i < n; i++) {
        int64_t off = contig ? t->offset + i : offset_of(t, i);
        double v =
            t->dtype == NN_FLOAT32 ? ((const float *)base)[off] : ((const double *)base)[off];
        bool hit = ((want & 1) && isnan(v)) || ((want & 2) && isinf(v));
        if (!hit) continue;
        if (count++ == 0) {
            if (first) *first = i;
            if (value) *value = v;
        }
    }
    return count;
}

/* Any non-finite element of a strided tensor: rows along the last dim, an
 * odometer over the others (no division per element). */
static bool any_bad_strided(const nn_tensor *t) {
    int nd = t->ndim;
    int64_t idx[NN_MAX_DIMS] = {0};
    int64_t inner = t->shape[nd - 1], step = t->strides[nd - 1];
    int64_t rows = nn_tensor_numel(t) / inner;
    int64_t off = t->offset;
    const char *base = t->storage->data;
    bool f32 = t->dtype == NN_FLOAT32;
    for (int64_t r = 0; r < rows; r++) {
        if (step == 1) {
            if (f32 ? any_bad_f32((const uint32_t *)(const void *)(base + off * 4), inner)
                    : any_bad_f64((const uint64_t *)(const void *)(base + off * 8), inner))
                return true;
        } else {
            for (int64_t i = 0; i < inner; i++) {
                double v = f32 ? ((const float *)(const void *)base)[off + i * step]
                               : ((const double *)(const void *)base)[off + i * step];
                if (!isfinite(v)) return true;
            }
        }
        for (int d = nd - 2; d >= 0; d--) { /* the next row */
            off += t->strides[d];
            if (++idx[d] < t->shape[d]) break;
            off -= t->strides[d] * t->shape[d];
            idx[d] = 0;
        }
    }
    return false;
}

bool nn_span_nonfinite(const void *p, int64_t n, bool f64) {
    return f64 ? any_bad_f64(p, n) : any_bad_f32(p, n);
}

/* A large contiguous scan split across the engine's threads: the scans are
 * memory-bound, and one core does not draw all the memory's bandwidth. */
typedef struct span_job {
    const char *p;
    int64_t n;
    bool f64;
    atomic_int bad;
} span_job;

static void span_task(void *arg, int task, int n_tasks) {
    span_job *j = arg;
    int64_t b, e;
    nn_parallel_range(j->n, task, n_tasks, 4096, &b, &e);
    if (b < e && !atomic_load_explicit(&j->bad, memory_order_relaxed) &&
        nn_span_nonfinite(j->p + b * (j->f64 ? 8 : 4), e - b, j->f64))
        atomic_store_explicit(&j->bad, 1, memory_order_relaxed);
}

#define SCAN_MIN_PER_TASK ((int64_t)1 << 18)

static bool span_bad(const char *p, int64_t n, bool f64) {
    int tasks = nn_parallel_tasks(n, SCAN_MIN_PER_TASK);
    if (tasks <= 1) return nn_span_nonfinite(p, n, f64);
    span_job j = {p, n, f64, 0};
    nn_parallel_run(tasks, span_task, &j);
    return atomic_load(&j.bad) != 0;
}

int64_t nn_tensor_nonfinite(const nn_tensor *t, int64_t *first, double *value) {
    if (!float_tensor(t) || nn_tensor_numel(t) == 0 || nn_tensor_released(t)) return 0;
    bool bad;
    if (nn_tensor_is_contiguous(t)) {
        int64_t n = nn_tensor_numel(t);
        const char *p =
            (const char *)t->storage->data + t->offset * (int64_t)nn_dtype_size(t->dtype);
        bad = span_bad(p, n, t->dtype == NN_FLOAT64);
    } else {
        bad = t->ndim > 0 && any_bad_strided(t);
    }
    return bad ? scan(t, 3, first, value) : 0;
}

/* Whether [t], known to hold a non-finite value, holds a NaN (want 1) or an
 * infinity (want 2): vectorised over contiguous data (an attention mask's
 * -inf makes the hunt ask this of every masked score), exact otherwise. */
static bool has_kind(const nn_tensor *t, int want) {
    if (!nn_tensor_is_contiguous(t)) return scan(t, want, NULL, NULL) > 0;
    const char *p = (const char *)t->storage->data + t->offset * (int64_t)nn_dtype_size(t->dtype);
    int64_t n = nn_tensor_numel(t);
    return t->dtype == NN_FLOAT64 ? any_kind_f64((const uint64_t *)(const void *)p, n, want)
                                  : any_kind_f32((const uint32_t *)(const void *)p, n, want);
}

bool nn_tensor_has_nan(const nn_tensor *t) {
    return float_tensor(t) && nn_tensor_nonfinite(t, NULL, NULL) && has_kind(t, 1);
}

bool nn_tensor_has_inf(const nn_tensor *t) {
    return float_tensor(t) && nn_tensor_nonfinite(t, NULL, NULL) && has_kind(t, 2);
}

/* The whole storage, in memory the engine owns (whose writes it sees). */
static bool spans_storage(const nn_tensor *t) {
    return float_tensor(t) && t->offset == 0 && t->storage->release == NULL &&
           t->storage->data != NULL && nn_tensor_is_contiguous(t) &&
           (size_t)nn_tensor_numel(t) * nn_dtype_size(t->dtype) == t->storage->nbytes;
}

void nn_tensor_mark_finite(nn_tensor *t) {
    if (spans_storage(t)) t->storage->finite_version = t->storage->version + 1;
}

bool nn_tensor_known_finite(const nn_tensor *t) {
    return spans_storage(t) && t->storage->finite_version == t->storage->version + 1;
}

/* ---- the origin check ---- */

static bool params_nonfinite(const nn_params *p) {
    for (int i = 0; i < 4; i++)
        if (!isfinite(p->f[i])) return true;
    return false;
}

static void fill(nn_anomaly *a, nn_anomaly_kind kind, nn_phase ph, int input, const nn_tensor *t,
                 int want) {
    a->kind = kind;
    a->phase = ph;
    a->input = input;
    a->flat = 0;
    a->value = NAN;
    a->count = scan(t, want, &a->flat, &a->value);
}

static bool check_forward(const nn_hook_event *ev, nn_anomaly *a) {
    const nn_tensor *out = ev->output;
    const nn_node *n = ev->node;
    if (!out) return false;
    /* A view (reshape, permute, slice, expand) shows its input's values: it
     * cannot make a new NaN, and its input was checked when it was made. */
    for (int i = 0; i < n->n_in; i++)
        if (n->in[i].t && n->in[i].t->storage == out->storage) return false;
    if (!nn_tensor_nonfinite(out, NULL, NULL)) return false;
    bool out_nan = has_kind(out, 1);
    int nan_in = -1, inf_in = -1;
    for (int i = 0; i < n->n_in; i++) {
        const nn_tensor *t = n->in[i].t;
        if (!t || !nn_tensor_nonfinite(t, NULL, NULL)) continue;
        if (nan_in < 0 && has_kind(t, 1)) nan_in = i;
        if (inf_in < 0 && has_kind(t, 2)) inf_in = i;
    }
    if (out_nan) {
        if (nan_in < 0) {
            fill(a, NN_ANOMALY_CREATED, NN_PHASE_FORWARD, -1, out, 1);
            return true;
        }
        const nn_tensor *t = n->in[nan_in].t;
        fill(a, t->grad_fn ? NN_ANOMALY_INPUT : NN_ANOMALY_LEAF, NN_PHASE_FORWARD, nan_in, t, 1);
        return true;
    }
    /* Only infinities: new ones are reported, ones passed on are not. */
    if (inf_in >= 0 || params_nonfinite(&n->p)) return false;
    fill(a, NN_ANOMALY_CREATED, NN_PHASE_FORWARD, -1, out, 2);
    return true;
}

static bool check_backward(const nn_hook_event *ev, nn_anomaly *a) {
    if (!ev->grad_inputs) return false;
    const nn_node *n = ev->node;
    for (int i = 0; i < n->n_in; i++) {
        const nn_tensor *g = ev->grad_inputs[i];
        if (!g || !nn_tensor_nonfinite(g, NULL, NULL)) continue;
        const nn_tensor *go = ev->grad_output;
        bool g_nan = has_kind(g, 1);
        bool go_nan = go && nn_tensor_has_nan(go), go_inf = go && nn_tensor_has_inf(go);
        if (g_nan ? !go_nan : !(go_inf || go_nan)) {
            fill(a, NN_ANOMALY_CREATED, NN_PHASE_BACKWARD, i, g, g_nan ? 1 : 2);
            return true;
        }
        if (g_nan || !go_inf) {
            fill(a, NN_ANOMALY_GRAD, NN_PHASE_BACKWARD, i, g, g_nan ? 1 : 2);
            return true;
        }
        /* An infinite gradient passed on: reported where it turns into NaN. */
    }
    return false;
}

bool nn_anomaly_check(const nn_hook_event *ev, nn_anomaly *out) {
    memset(out, 0, sizeof *out);
    if (!ev->after) return false;
    return ev->phase == NN_PHASE_FORWARD ? check_forward(ev, out) : check_backward(ev, out);
}
