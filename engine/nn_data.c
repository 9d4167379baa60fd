/* nn_data: synthetic datasets, planted bugs, splits and the DataLoader.
 * Text corpora live in nn_text.c. */
#include "nn_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nn_mem.h"
#include "nn_random.h"
#include "nn_text.h"

/* ---- small helpers ---- */

static const double PI = 3.14159265358979323846;

static void permute(nn_rng *rng, int64_t *p, int64_t n) {
    for (int64_t i = 0; i < n; i++) p[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)nn_rng_below(rng, (uint64_t)i + 1);
        int64_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

static int64_t *alloc_i64(nn_ctx *ctx, int64_t n, const char *what) {
    return nn_mem_alloc((size_t)(n > 0 ? n : 1) * sizeof(int64_t), what, &ctx->err);
}

/* Elements per row of a tensor whose dim 0 counts samples. */
static int64_t row_numel(const nn_tensor *t) {
    int64_t m = 1;
    for (int i = 1; i < t->ndim; i++) m *= t->shape[i];
    return m;
}

static void desc_add(nn_dataset *ds, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void desc_add(nn_dataset *ds, const char *fmt, ...) {
    size_t len = strlen(ds->description);
    if (len + 1 >= sizeof ds->description) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ds->description + len, sizeof ds->description - len, fmt, ap);
    va_end(ap);
}

/* "x float32 [300, 2], y int64 [300]" and the mask when there is one. */
static void desc_shapes(nn_dataset *ds) {
    char a[128], b[128], c[128];
    desc_add(ds, "; x %s %s, y %s %s", nn_dtype_name(ds->x->dtype),
             nn_tensor_shape_str(ds->x, a, sizeof a), nn_dtype_name(ds->y->dtype),
             nn_tensor_shape_str(ds->y, b, sizeof b));
    if (ds->mask) desc_add(ds, ", mask bool %s", nn_tensor_shape_str(ds->mask, c, sizeof c));
}

/* A new contiguous tensor holding rows idx[0..k) of [t] (dim 0 indexes rows).
 * One allocation and one memcpy per row: no per-element work. */
static nn_tensor *gather_rows(nn_ctx *ctx, nn_tensor *t, const int64_t *idx, int64_t k) {
    nn_tensor *src = nn_tensor_contiguous_raw(ctx, t);
    if (!src) return NULL;
    int64_t shape[NN_MAX_DIMS];
    memcpy(shape, src->shape, sizeof shape);
    shape[0] = k;
    nn_tensor *out = nn_tensor_empty(ctx, src->dtype, src->ndim, shape);
    if (out) {
        size_t row = (size_t)row_numel(src) * nn_dtype_size(src->dtype);
        const char *s = nn_tensor_data(src);
        char *d = nn_tensor_data(out);
        for (int64_t i = 0; i < k; i++) {
            NN_ASSERT(idx[i] >= 0 && idx[i] < src->shape[0]);
            memcpy(d + (size_t)i * row, s + (size_t)idx[i] * row, row);
        }
    }
    nn_tensor_release(src);
    return out;
}

static nn_tensor *copy_tensor(nn_ctx *ctx, nn_tensor *t) {
    if (!t) return NULL;
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    if (!c || c != t) return c;
    nn_tensor_release(c);
    return nn_tensor_from_data(ctx, t->dtype, t->ndim, t->shape, nn_tensor_data(t));
}

static nn_tensor *i64_tensor(nn_ctx *ctx, const int64_t *v, int64_t k) {
    return nn_tensor_from_data(ctx, NN_INT64, 1, &k, v);
}

/* ---- bugs ---- */

static const char *const bug_names[NN_DATA_BUG_COUNT] = {
    "labels shuffled against inputs",
    "labels off by one",
    "one class relabelled",
    "train/val leakage",
    "features unnormalised",
    "inputs all zero",
    "x transposed (read in column-major order)",
    "sequences all padding",
    "a NaN in one sample",
};

nn_data_bugs nn_data_bugs_init(unsigned flags) {
    nn_data_bugs b;
    memset(&b, 0, sizeof b);
    b.flags = flags;
    b.seed = 0;
    b.relabel_from = 0;
    b.relabel_to = 1;
    b.leak_fraction = 0.1;
    b.scale_column = 0;
    b.scale = 1e3;
    b.nan_row = -1;
    b.nan_col = 0;
    b.padding_fraction = 0.1;
    return b;
}

const char *nn_data_bug_name(unsigned flag) {
    for (int i = 0; i < NN_DATA_BUG_COUNT; i++)
        if (flag == 1u << i) return bug_names[i];
    return NULL;
}

/* Each bug draws from its own stream, so adding one flag does not change
 * where another bug lands. */
static void bug_rng(nn_rng *rng, const nn_data_bugs *b, unsigned flag) {
    nn_rng_seed(rng, b->seed ^ ((uint64_t)flag * 0x9e3779b97f4a7c15ULL));
}

/* ---- datasets: lifetime ---- */

nn_dataset *nn_data_alloc(nn_ctx *ctx, const char *name) {
    nn_dataset *ds = nn_mem_calloc(sizeof *ds, "a dataset", &ctx->err);
    if (!ds) return NULL;
    snprintf(ds->name, sizeof ds->name, "%s", name);
    ds->nan_row = ds->nan_col = -1;
    return ds;
}

void nn_data_free(nn_dataset *ds) {
    if (!ds) return;
    nn_tensor_release(ds->x);
    nn_tensor_release(ds->y);
    nn_tensor_release(ds->mask);
    nn_tensor_release(ds->true_w);
    nn_tensor_release(ds->true_b);
    nn_tensor_release(ds->padded_rows);
    nn_tensor_release(ds->leaked_rows);
    nn_tensor_release(ds->leaked_from);
    nn_vocab_release(ds->vocab);
    nn_mem_free(ds);
}

/* Argument checks shared by the generators. */
static bool check_count(nn_ctx *ctx, const char *fn, const char *what, int64_t v, int64_t lo) {
    if (v >= lo) return true;
    nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: %s must be at least %lld, got %lld", fn, what,
                 (long long)lo, (long long)v);
    return false;
}

static bool check_noise(nn_ctx *ctx, const char *fn, const char *what, double v) {
    if (isfinite(v) && v >= 0) return true;
    nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: %s must be a finite number >= 0, got %g", fn, what,
                 v);
    return false;
}

/* Shuffle the rows of ds->x and ds->y together (generators build them
 * grouped by class). */
static bool shuffle_rows(nn_ctx *ctx, nn_dataset *ds, nn_rng *rng) {
    int64_t *p = alloc_i64(ctx, ds->n, "a permutation");
    if (!p) return false;
    permute(rng, p, ds->n);
    nn_tensor *x = gather_rows(ctx, ds->x, p, ds->n);
    nn_tensor *y = x ? gather_rows(ctx, ds->y, p, ds->n) : NULL;
    nn_mem_free(p);
    if (!y) {
        nn_tensor_release(x);
        return false;
    }
    nn_tensor_release(ds->x);
    nn_tensor_release(ds->y);
    ds->x = x;
    ds->y = y;
    return true;
}

/* A classification dataset with x float32 [n, dim] and y int64 [n] ready to
 * fill; NULL on error. */
static nn_dataset *new_classes(nn_ctx *ctx, const char *name, int64_t n, int64_t dim,
                               int64_t classes) {
    nn_dataset *ds = nn_data_alloc(ctx, name);
    if (!ds) return NULL;
    ds->n = n;
    ds->num_classes = classes;
    ds->x = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){n, dim});
    ds->y = ds->x ? nn_tensor_empty(ctx, NN_INT64, 1, &n) : NULL;
    if (!ds->y) {
        nn_data_free(ds);
        return NULL;
    }
    return ds;
}

static nn_dataset *finish(nn_ctx *ctx, nn_dataset *ds, nn_rng *rng) {
    if (rng && !shuffle_rows(ctx, ds, rng)) {
        nn_data_free(ds);
        return NULL;
    }
    desc_shapes(ds);
    return ds;
}

/* ---- synthetic datasets ---- */

nn_dataset *nn_data_spirals(nn_ctx *ctx, int64_t n, int64_t classes, double noise, uint64_t seed) {
    const char *fn = "spirals";
    if (!check_count(ctx, fn, "classes", classes, 2) || !check_count(ctx, fn, "n", n, classes) ||
        !check_noise(ctx, fn, "noise", noise))
        return NULL;
    nn_dataset *ds = new_classes(ctx, fn, n, 2, classes);
    if (!ds) return NULL;
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    float *x = nn_tensor_data(ds->x);
    int64_t *y = nn_tensor_data(ds->y);
    int64_t row = 0;
    for (int64_t k = 0; k < classes; k++) {
        int64_t m = n / classes + (k < n % classes);
        for (int64_t i = 0; i < m; i++, row++) {
            double r = m > 1 ? (double)i / (double)(m - 1) : 0.0;
            double t = 4.0 * (double)k + 4.0 * r + noise * nn_rng_normal(&rng);
            x[2 * row] = (float)(r * sin(t));
            x[2 * row + 1] = (float)(r * cos(t));
            y[row] = k;
        }
    }
    snprintf(ds->description, sizeof ds->description,
             "spirals: %lld points on %lld spiral arms (noise %g, seed %llu)", (long long)n,
             (long long)classes, noise, (unsigned long long)seed);
    return finish(ctx, ds, &rng);
}

nn_dataset *nn_data_moons(nn_ctx *ctx, int64_t n, double noise, uint64_t seed) {
    const char *fn = "moons";
    if (!check_count(ctx, fn, "n", n, 2) || !check_noise(ctx, fn, "noise", noise)) return NULL;
    nn_dataset *ds = new_classes(ctx, fn, n, 2, 2);
    if (!ds) return NULL;
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    float *x = nn_tensor_data(ds->x);
    int64_t *y = nn_tensor_data(ds->y);
    int64_t n_out = n / 2, n_in = n - n_out;
    for (int64_t row = 0; row < n; row++) {
        bool inner = row >= n_out;
        int64_t i = inner ? row - n_out : row, m = inner ? n_in : n_out;
        double t = m > 1 ? PI * (double)i / (double)(m - 1) : 0.0;
        double a = inner ? 1.0 - cos(t) : cos(t), b = inner ? 0.5 - sin(t) : sin(t);
        x[2 * row] = (float)(a + noise * nn_rng_normal(&rng));
        x[2 * row + 1] = (float)(b + noise * nn_rng_normal(&rng));
        y[row] = inner;
    }
    snprintf(ds->description, sizeof ds->description,
             "moons: %lld points on two interleaving half circles (noise %g, seed %llu)",
             (long long)n, noise, (unsigned long long)seed);
    return finish(ctx, ds, &rng);
}

nn_dataset *nn_data_blobs(nn_ctx *ctx, int64_t n, int64_t centers, int64_t dim, double std,
                          uint64_t seed) {
    const char *fn = "blobs";
    if (!check_count(ctx, fn, "centers", centers, 1) || !check_count(ctx, fn, "n", n, centers) ||
        !check_count(ctx, fn, "dim", dim, 1) || !check_noise(ctx, fn, "std", std))
        return NULL;
    nn_dataset *ds = new_classes(ctx, fn, n, dim, centers);
    if (!ds) return NULL;
    ds->true_w = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){centers, dim});
    if (!ds->true_w) {
        nn_data_free(ds);
        return NULL;
    }
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    float *c = nn_tensor_data(ds->true_w), *x = nn_tensor_data(ds->x);
    int64_t *y = nn_tensor_data(ds->y);
    for (int64_t i = 0; i < centers * dim; i++) c[i] = (float)(-10.0 + 20.0 * nn_rng_uniform(&rng));
    for (int64_t row = 0; row < n; row++) {
        int64_t k = row % centers;
        for (int64_t j = 0; j < dim; j++)
            x[row * dim + j] = (float)((double)c[k * dim + j] + std * nn_rng_normal(&rng));
        y[row] = k;
    }
    snprintf(ds->description, sizeof ds->description,
             "blobs: %lld points around %lld centres in %lld dims (std %g, seed %llu; centres in "
             "true_w)",
             (long long)n, (long long)centers, (long long)dim, std, (unsigned long long)seed);
    return finish(ctx, ds, &rng);
}

nn_dataset *nn_data_xor(nn_ctx *ctx, int64_t n, double noise, uint64_t seed) {
    const char *fn = "xor";
    if (!check_count(ctx, fn, "n", n, 4) || !check_noise(ctx, fn, "noise", noise)) return NULL;
    nn_dataset *ds = new_classes(ctx, fn, n, 2, 2);
    if (!ds) return NULL;
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    float *x = nn_tensor_data(ds->x);
    int64_t *y = nn_tensor_data(ds->y);
    static const double sx[4] = {1, 1, -1, -1}, sy[4] = {1, -1, 1, -1};
    for (int64_t row = 0; row < n; row++) {
        int c = (int)(row % 4);
        x[2 * row] = (float)(sx[c] + noise * nn_rng_normal(&rng));
        x[2 * row + 1] = (float)(sy[c] + noise * nn_rng_normal(&rng));
        y[row] = sx[c] != sy[c];
    }
    snprintf(ds->description, sizeof ds->description,
             "xor: %lld points around the corners (+-1, +-1), label 1 where the signs differ "
             "(noise %g, seed %llu)",
             (long long)n, noise, (unsigned long long)seed);
    return finish(ctx, ds, &rng);
}

nn_dataset *nn_data_regression(nn_ctx *ctx, int64_t n, int64_t in_dim, int64_t out_dim,
                               double noise, uint64_t seed) {
    const char *fn = "regression";
    if (!check_count(ctx, fn, "n", n, 1) || !check_count(ctx, fn, "in_dim", in_dim, 1) ||
        !check_count(ctx, fn, "out_dim", out_dim, 1) || !check_noise(ctx, fn, "noise", noise))
        return NULL;
    nn_dataset *ds = nn_data_alloc(ctx, fn);
    if (!ds) return NULL;
    ds->n = n;
    ds->x = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){n, in_dim});
    ds->y = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){n, out_dim});
    ds->true_w = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){out_dim, in_dim});
    ds->true_b = nn_tensor_empty(ctx, NN_FLOAT32, 1, &out_dim);
    if (!ds->x || !ds->y || !ds->true_w || !ds->true_b) {
        nn_data_free(ds);
        return NULL;
    }
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    float *w = nn_tensor_data(ds->true_w), *b = nn_tensor_data(ds->true_b);
    float *x = nn_tensor_data(ds->x), *y = nn_tensor_data(ds->y);
    for (int64_t i = 0; i < out_dim * in_dim; i++) w[i] = (float)nn_rng_normal(&rng);
    for (int64_t i = 0; i < out_dim; i++) b[i] = (float)nn_rng_normal(&rng);
    for (int64_t i = 0; i < n * in_dim; i++) x[i] = (float)nn_rng_normal(&rng);
    for (int64_t r = 0; r < n; r++)
        for (int64_t o = 0; o < out_dim; o++) {
            double s = b[o];
            for (int64_t j = 0; j < in_dim; j++)
                s += (double)x[r * in_dim + j] * (double)w[o * in_dim + j];
            y[r * out_dim + o] = (float)(s + noise * nn_rng_normal(&rng));
        }
    snprintf(ds->description, sizeof ds->description,
             "regression: y = x W^T + b + %g * N(0, 1), %lld samples, %lld -> %lld (seed %llu; "
             "W and b in true_w, true_b)",
             noise, (long long)n, (long long)in_dim, (long long)out_dim, (unsigned long long)seed);
    return finish(ctx, ds, NULL);
}

nn_dataset *nn_data_copy(nn_ctx *ctx, int64_t n, int64_t length, int64_t vocab, uint64_t seed) {
    const char *fn = "copy";
    if (!check_count(ctx, fn, "n", n, 1) || !check_count(ctx, fn, "length", length, 1) ||
        !check_count(ctx, fn, "vocab", vocab, 2))
        return NULL;
    nn_dataset *ds = nn_data_alloc(ctx, fn);
    if (!ds) return NULL;
    ds->n = n;
    ds->num_classes = vocab;
    int64_t shape[2] = {n, length};
    ds->x = nn_tensor_empty(ctx, NN_INT64, 2, shape);
    ds->mask = nn_tensor_empty(ctx, NN_BOOL, 2, shape);
    if (!ds->x || !ds->mask) {
        nn_data_free(ds);
        return NULL;
    }
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    int64_t *x = nn_tensor_data(ds->x);
    bool *m = nn_tensor_data(ds->mask);
    int64_t min_len = (length + 1) / 2;
    for (int64_t r = 0; r < n; r++) {
        int64_t len = min_len + (int64_t)nn_rng_below(&rng, (uint64_t)(length - min_len + 1));
        for (int64_t t = 0; t < length; t++) {
            bool real = t < len;
            x[r * length + t] = real ? 1 + (int64_t)nn_rng_below(&rng, (uint64_t)vocab - 1) : 0;
            m[r * length + t] = real;
        }
    }
    ds->y = copy_tensor(ctx, ds->x);
    if (!ds->y) {
        nn_data_free(ds);
        return NULL;
    }
    snprintf(ds->description, sizeof ds->description,
             "copy: %lld token sequences of length %lld (at least %lld real tokens in [1, %lld), "
             "then padding 0 with mask false), y = x (seed %llu)",
             (long long)n, (long long)length, (long long)min_len, (long long)vocab,
             (unsigned long long)seed);
    return finish(ctx, ds, NULL);
}

/* ---- planting bugs ---- */

static bool check_dataset(nn_ctx *ctx, const nn_dataset *ds) {
    bool ok = ds && ds->x && ds->y && ds->x->ndim >= 1 && ds->y->ndim >= 1 &&
              ds->x->shape[0] == ds->n && ds->y->shape[0] == ds->n &&
              (!ds->mask || (ds->mask->ndim >= 1 && ds->mask->shape[0] == ds->n));
    if (!ok)
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "dataset '%s' is malformed: x, y (and mask) need %lld rows along dim 0",
                     ds ? ds->name : "(null)", ds ? (long long)ds->n : 0LL);
    return ok;
}

/* A deep copy of the data (x, y, mask); the truth tensors, the vocabulary
 * and the bug records are shared, since nothing writes into them. */
static nn_dataset *clone(nn_ctx *ctx, const nn_dataset *src) {
    nn_dataset *ds = nn_data_alloc(ctx, src->name);
    if (!ds) return NULL;
    ds->n = src->n;
    ds->num_classes = src->num_classes;
    ds->bugs = src->bugs;
    ds->nan_row = src->nan_row;
    ds->nan_col = src->nan_col;
    memcpy(ds->description, src->description, sizeof ds->description);
    ds->vocab = src->vocab ? nn_vocab_retain(src->vocab) : NULL;
    ds->true_w = src->true_w ? nn_tensor_retain(src->true_w) : NULL;
    ds->true_b = src->true_b ? nn_tensor_retain(src->true_b) : NULL;
    ds->padded_rows = src->padded_rows ? nn_tensor_retain(src->padded_rows) : NULL;
    ds->leaked_rows = src->leaked_rows ? nn_tensor_retain(src->leaked_rows) : NULL;
    ds->leaked_from = src->leaked_from ? nn_tensor_retain(src->leaked_from) : NULL;
    ds->x = copy_tensor(ctx, src->x);
    ds->y = ds->x ? copy_tensor(ctx, src->y) : NULL;
    bool mask_ok = !src->mask || (ds->mask = copy_tensor(ctx, src->mask)) != NULL;
    if (!ds->y || !mask_ok) {
        nn_data_free(ds);
        return NULL;
    }
    return ds;
}

static nn_status bug_error(nn_ctx *ctx, const nn_dataset *ds, unsigned flag, nn_status code,
                           const char *why) {
    return nn_error_set(&ctx->err, code, "cannot plant '%s' in dataset '%s': %s",
                        nn_data_bug_name(flag), ds->name, why);
}

static bool needs_labels(nn_ctx *ctx, const nn_dataset *ds, unsigned flag) {
    if (ds->y->dtype == NN_INT64 && ds->num_classes > 0) return true;
    bug_error(ctx, ds, flag, NN_ERR_TYPE,
              "it needs int64 class labels, and y holds float targets (num_classes is 0)");
    return false;
}

static bool needs_float_x(nn_ctx *ctx, const nn_dataset *ds, unsigned flag) {
    if (ds->x->dtype == NN_FLOAT32 || ds->x->dtype == NN_FLOAT64) return true;
    char buf[96];
    snprintf(buf, sizeof buf, "it needs float features, and x holds %s tokens",
             nn_dtype_name(ds->x->dtype));
    bug_error(ctx, ds, flag, NN_ERR_TYPE, buf);
    return false;
}

static nn_status plant_shuffled(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    nn_rng rng;
    bug_rng(&rng, b, NN_DATA_BUG_SHUFFLED_LABELS);
    int64_t *p = alloc_i64(ctx, ds->n, "a permutation");
    if (!p) return ctx->err.code;
    permute(&rng, p, ds->n);
    nn_tensor *y = gather_rows(ctx, ds->y, p, ds->n);
    nn_mem_free(p);
    if (!y) return ctx->err.code;
    nn_tensor_release(ds->y);
    ds->y = y;
    desc_add(ds,
             "\nplanted: %s: the rows of y are permuted (bug seed %llu), so a label no longer "
             "belongs to its input",
             nn_data_bug_name(NN_DATA_BUG_SHUFFLED_LABELS), (unsigned long long)b->seed);
    return NN_OK;
}

static nn_status plant_off_by_one(nn_ctx *ctx, nn_dataset *ds) {
    if (!needs_labels(ctx, ds, NN_DATA_BUG_OFF_BY_ONE)) return ctx->err.code;
    int64_t *y = nn_tensor_data(ds->y), n = nn_tensor_numel(ds->y), c = ds->num_classes;
    for (int64_t i = 0; i < n; i++) y[i] = ((y[i] % c) + 1 + c) % c;
    desc_add(ds, "\nplanted: %s: every label y became (y + 1) %% %lld",
             nn_data_bug_name(NN_DATA_BUG_OFF_BY_ONE), (long long)c);
    return NN_OK;
}

static nn_status plant_relabel(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    unsigned f = NN_DATA_BUG_RELABEL;
    if (!needs_labels(ctx, ds, f)) return ctx->err.code;
    int64_t c = ds->num_classes;
    if (b->relabel_from < 0 || b->relabel_from >= c || b->relabel_to < 0 || b->relabel_to >= c ||
        b->relabel_from == b->relabel_to) {
        char buf[160];
        snprintf(buf, sizeof buf,
                 "relabel_from %lld and relabel_to %lld must be two different classes in [0, %lld)",
                 (long long)b->relabel_from, (long long)b->relabel_to, (long long)c);
        return bug_error(ctx, ds, f, NN_ERR_VALUE, buf);
    }
    int64_t *y = nn_tensor_data(ds->y), n = nn_tensor_numel(ds->y), moved = 0;
    for (int64_t i = 0; i < n; i++)
        if (y[i] == b->relabel_from) {
            y[i] = b->relabel_to;
            moved++;
        }
    desc_add(ds, "\nplanted: %s: class %lld became class %lld (%lld labels)", nn_data_bug_name(f),
             (long long)b->relabel_from, (long long)b->relabel_to, (long long)moved);
    return NN_OK;
}

static nn_status plant_leakage(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    if (!(b->leak_fraction > 0 && b->leak_fraction <= 1)) {
        char buf[96];
        snprintf(buf, sizeof buf, "leak_fraction must be in (0, 1], got %g", b->leak_fraction);
        return bug_error(ctx, ds, NN_DATA_BUG_LEAKAGE, NN_ERR_VALUE, buf);
    }
    desc_add(ds, "\nplanted: %s: nn_data_split will also copy %g%% of the val rows into train",
             nn_data_bug_name(NN_DATA_BUG_LEAKAGE), b->leak_fraction * 100);
    return NN_OK;
}

static nn_status plant_unnormalised(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    unsigned f = NN_DATA_BUG_UNNORMALISED;
    if (!needs_float_x(ctx, ds, f)) return ctx->err.code;
    int64_t cols = row_numel(ds->x);
    if (b->scale_column < 0 || b->scale_column >= cols || !isfinite(b->scale) || b->scale == 0) {
        char buf[160];
        snprintf(buf, sizeof buf,
                 "scale_column %lld must be in [0, %lld) and scale (%g) finite and non-zero",
                 (long long)b->scale_column, (long long)cols, b->scale);
        return bug_error(ctx, ds, f, NN_ERR_VALUE, buf);
    }
    for (int64_t r = 0; r < ds->n; r++) {
        int64_t i = r * cols + b->scale_column;
        nn_tensor_set_flat(ds->x, i, nn_tensor_get_flat(ds->x, i) * b->scale);
    }
    desc_add(ds, "\nplanted: %s: feature column %lld of x is multiplied by %g", nn_data_bug_name(f),
             (long long)b->scale_column, b->scale);
    return NN_OK;
}

static nn_status plant_zero(nn_dataset *ds) {
    memset(nn_tensor_data(ds->x), 0, (size_t)nn_tensor_numel(ds->x) * nn_dtype_size(ds->x->dtype));
    desc_add(ds, "\nplanted: %s: every element of x is 0",
             nn_data_bug_name(NN_DATA_BUG_ZERO_INPUTS));
    return NN_OK;
}

/* x' = x.T.reshape(x.shape) for x viewed as [n, f]: element (i, j) of x' is
 * element k = i*f + j of x's transpose, that is x[k % n, k / n]. */
static nn_status plant_transposed(nn_ctx *ctx, nn_dataset *ds) {
    unsigned flag = NN_DATA_BUG_TRANSPOSED;
    int64_t n = ds->n, f = row_numel(ds->x);
    if (n < 2 || f < 2)
        return bug_error(ctx, ds, flag, NN_ERR_VALUE,
                         "x needs at least 2 samples of at least 2 features, or reading it in "
                         "column-major order changes nothing");
    nn_tensor *src = copy_tensor(ctx, ds->x);
    if (!src) return ctx->err.code;
    size_t es = nn_dtype_size(src->dtype);
    const char *s = nn_tensor_data(src);
    char *d = nn_tensor_data(ds->x);
    for (int64_t k = 0; k < n * f; k++)
        memcpy(d + (size_t)k * es, s + (size_t)((k % n) * f + k / n) * es, es);
    nn_tensor_release(src);
    desc_add(ds,
             "\nplanted: %s: x keeps its shape but holds x.T.reshape(x.shape): x'[i, j] = "
             "x[k %% n, k / n] with k = i * %lld + j, so a row mixes features of different samples",
             nn_data_bug_name(flag), (long long)f);
    return NN_OK;
}

static nn_status plant_padding(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    unsigned f = NN_DATA_BUG_ALL_PADDING;
    if (!ds->mask || ds->mask->dtype != NN_BOOL)
        return bug_error(ctx, ds, f, NN_ERR_VALUE,
                         "it needs sequences with a bool mask (the copy task has one)");
    if (!(b->padding_fraction > 0 && b->padding_fraction <= 1)) {
        char buf[96];
        snprintf(buf, sizeof buf, "padding_fraction must be in (0, 1], got %g",
                 b->padding_fraction);
        return bug_error(ctx, ds, f, NN_ERR_VALUE, buf);
    }
    int64_t k = (int64_t)llround(b->padding_fraction * (double)ds->n);
    if (k < 1) k = 1;
    nn_rng rng;
    bug_rng(&rng, b, f);
    int64_t *p = alloc_i64(ctx, ds->n, "a permutation");
    if (!p) return ctx->err.code;
    permute(&rng, p, ds->n);
    /* The record lists the rows in increasing order: easier to read. */
    bool *mark = nn_mem_calloc((size_t)ds->n, "row marks", &ctx->err);
    if (!mark) {
        nn_mem_free(p);
        return ctx->err.code;
    }
    for (int64_t i = 0; i < k; i++) mark[p[i]] = true;
    int64_t j = 0, xrow = row_numel(ds->x), yrow = row_numel(ds->y), mrow = row_numel(ds->mask);
    for (int64_t r = 0; r < ds->n; r++) {
        if (!mark[r]) continue;
        p[j++] = r;
        memset((char *)nn_tensor_data(ds->x) + (size_t)(r * xrow) * nn_dtype_size(ds->x->dtype), 0,
               (size_t)xrow * nn_dtype_size(ds->x->dtype));
        memset((char *)nn_tensor_data(ds->y) + (size_t)(r * yrow) * nn_dtype_size(ds->y->dtype), 0,
               (size_t)yrow * nn_dtype_size(ds->y->dtype));
        memset((bool *)nn_tensor_data(ds->mask) + r * mrow, 0, (size_t)mrow);
    }
    nn_mem_free(mark);
    nn_tensor *rows = i64_tensor(ctx, p, k);
    nn_mem_free(p);
    if (!rows) return ctx->err.code;
    nn_tensor_release(ds->padded_rows);
    ds->padded_rows = rows;
    desc_add(ds,
             "\nplanted: %s: %lld sequences (padded_rows) are all padding: x and y 0, mask all "
             "false",
             nn_data_bug_name(f), (long long)k);
    return NN_OK;
}

static nn_status plant_nan(nn_ctx *ctx, nn_dataset *ds, const nn_data_bugs *b) {
    unsigned f = NN_DATA_BUG_NAN;
    if (!needs_float_x(ctx, ds, f)) return ctx->err.code;
    int64_t cols = row_numel(ds->x), row = b->nan_row;
    if (row < 0) {
        nn_rng rng;
        bug_rng(&rng, b, f);
        row = (int64_t)nn_rng_below(&rng, (uint64_t)ds->n);
    }
    if (row >= ds->n || b->nan_col < 0 || b->nan_col >= cols) {
        char buf[160];
        snprintf(buf, sizeof buf, "nan_row %lld must be in [0, %lld) and nan_col %lld in [0, %lld)",
                 (long long)row, (long long)ds->n, (long long)b->nan_col, (long long)cols);
        return bug_error(ctx, ds, f, NN_ERR_VALUE, buf);
    }
    nn_tensor_set_flat(ds->x, row * cols + b->nan_col, NAN);
    ds->nan_row = row;
    ds->nan_col = b->nan_col;
    desc_add(ds, "\nplanted: %s: x[%lld] holds a NaN at feature %lld", nn_data_bug_name(f),
             (long long)row, (long long)b->nan_col);
    return NN_OK;
}

nn_dataset *nn_data_plant(nn_ctx *ctx, const nn_dataset *clean, const nn_data_bugs *bugs) {
    if (!check_dataset(ctx, clean)) return NULL;
    unsigned known = (1u << NN_DATA_BUG_COUNT) - 1;
    if (bugs->flags & ~known) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "unknown bug flags 0x%x for dataset '%s'",
                     bugs->flags & ~known, clean->name);
        return NULL;
    }
    nn_dataset *ds = clone(ctx, clean);
    if (!ds) return NULL;
    unsigned f = bugs->flags;
    nn_status st = NN_OK;
    /* In flag order; docs/datasets.md states it for combinations. */
    if (!st && (f & NN_DATA_BUG_SHUFFLED_LABELS)) st = plant_shuffled(ctx, ds, bugs);
    if (!st && (f & NN_DATA_BUG_OFF_BY_ONE)) st = plant_off_by_one(ctx, ds);
    if (!st && (f & NN_DATA_BUG_RELABEL)) st = plant_relabel(ctx, ds, bugs);
    if (!st && (f & NN_DATA_BUG_LEAKAGE)) st = plant_leakage(ctx, ds, bugs);
    if (!st && (f & NN_DATA_BUG_UNNORMALISED)) st = plant_unnormalised(ctx, ds, bugs);
    if (!st && (f & NN_DATA_BUG_ZERO_INPUTS)) st = plant_zero(ds);
    if (!st && (f & NN_DATA_BUG_TRANSPOSED)) st = plant_transposed(ctx, ds);
    if (!st && (f & NN_DATA_BUG_ALL_PADDING)) st = plant_padding(ctx, ds, bugs);
    if (!st && (f & NN_DATA_BUG_NAN)) st = plant_nan(ctx, ds, bugs);
    if (st) {
        nn_data_free(ds);
        return NULL;
    }
    /* Parameters of the bugs planted now replace older ones; flags add up. */
    unsigned old = ds->bugs.flags;
    ds->bugs = *bugs;
    ds->bugs.flags |= old;
    return ds;
}

/* ---- subsets and splits ---- */

/* Positions j with idx[j] among the rows listed in [rows] (of a dataset of
 * [n] rows), or NULL when there are none (or [rows] is NULL). */
static nn_status remap_rows(nn_ctx *ctx, const nn_tensor *rows, int64_t n, const int64_t *idx,
                            int64_t k, nn_tensor **out) {
    *out = NULL;
    if (!rows) return NN_OK;
    bool *mark = nn_mem_calloc((size_t)(n > 0 ? n : 1), "row marks", &ctx->err);
    int64_t *pos = mark ? alloc_i64(ctx, k, "row positions") : NULL;
    if (!pos) {
        nn_mem_free(mark);
        return ctx->err.code;
    }
    const int64_t *r = nn_tensor_data(rows);
    for (int64_t i = 0; i < nn_tensor_numel(rows); i++) mark[r[i]] = true;
    int64_t m = 0;
    for (int64_t j = 0; j < k; j++)
        if (mark[idx[j]]) pos[m++] = j;
    nn_status st = NN_OK;
    if (m && !(*out = i64_tensor(ctx, pos, m))) st = ctx->err.code;
    nn_mem_free(mark);
    nn_mem_free(pos);
    return st;
}

/* Carry the leakage record (train row -> val row pairs) over to a subset. */
static nn_status remap_leak(nn_ctx *ctx, const nn_dataset *ds, const int64_t *idx, int64_t k,
                            nn_dataset *out) {
    if (!ds->leaked_rows || !ds->leaked_from) return NN_OK;
    int64_t *from = alloc_i64(ctx, ds->n, "leak map");
    int64_t *a = from ? alloc_i64(ctx, k, "leak rows") : NULL;
    int64_t *b = a ? alloc_i64(ctx, k, "leak rows") : NULL;
    nn_status st = NN_OK;
    if (!b) {
        st = ctx->err.code;
        goto done;
    }
    for (int64_t i = 0; i < ds->n; i++) from[i] = -1;
    const int64_t *lr = nn_tensor_data(ds->leaked_rows), *lf = nn_tensor_data(ds->leaked_from);
    for (int64_t i = 0; i < nn_tensor_numel(ds->leaked_rows); i++) from[lr[i]] = lf[i];
    int64_t m = 0;
    for (int64_t j = 0; j < k; j++)
        if (from[idx[j]] >= 0) {
            a[m] = j;
            b[m++] = from[idx[j]];
        }
    if (m) {
        out->leaked_rows = i64_tensor(ctx, a, m);
        out->leaked_from = out->leaked_rows ? i64_tensor(ctx, b, m) : NULL;
        if (!out->leaked_from) st = ctx->err.code;
    }
done:
    nn_mem_free(from);
    nn_mem_free(a);
    nn_mem_free(b);
    return st;
}

nn_dataset *nn_data_subset(nn_ctx *ctx, const nn_dataset *ds, const int64_t *idx, int64_t k,
                           const char *name) {
    if (!check_dataset(ctx, ds)) return NULL;
    for (int64_t j = 0; j < k; j++)
        if (idx[j] < 0 || idx[j] >= ds->n) {
            nn_error_set(&ctx->err, NN_ERR_INDEX,
                         "row %lld is out of range for dataset '%s' of %lld samples",
                         (long long)idx[j], ds->name, (long long)ds->n);
            return NULL;
        }
    nn_dataset *out = nn_data_alloc(ctx, name);
    if (!out) return NULL;
    out->n = k;
    out->num_classes = ds->num_classes;
    out->bugs = ds->bugs;
    memcpy(out->description, ds->description, sizeof out->description);
    out->vocab = ds->vocab ? nn_vocab_retain(ds->vocab) : NULL;
    out->true_w = ds->true_w ? nn_tensor_retain(ds->true_w) : NULL;
    out->true_b = ds->true_b ? nn_tensor_retain(ds->true_b) : NULL;
    out->x = gather_rows(ctx, ds->x, idx, k);
    out->y = out->x ? gather_rows(ctx, ds->y, idx, k) : NULL;
    bool ok = out->y && (!ds->mask || (out->mask = gather_rows(ctx, ds->mask, idx, k)));
    ok = ok && !remap_rows(ctx, ds->padded_rows, ds->n, idx, k, &out->padded_rows);
    ok = ok && !remap_leak(ctx, ds, idx, k, out);
    if (!ok) {
        nn_data_free(out);
        return NULL;
    }
    for (int64_t j = 0; j < k && ds->nan_row >= 0; j++)
        if (idx[j] == ds->nan_row) {
            out->nan_row = j;
            out->nan_col = ds->nan_col;
            break;
        }
    /* The planted lines above name rows of [ds]; say where they are now. */
    if (ds->nan_row >= 0 && out->nan_row >= 0)
        desc_add(out, "\nin %s: the NaN sample is x[%lld]", name, (long long)out->nan_row);
    else if (ds->nan_row >= 0)
        desc_add(out, "\nin %s: the NaN sample is not here", name);
    if (ds->padded_rows)
        desc_add(out, "\nin %s: %lld all-padding sequences (padded_rows)", name,
                 out->padded_rows ? (long long)out->padded_rows->shape[0] : 0LL);
    return out;
}

nn_status nn_data_split(nn_ctx *ctx, const nn_dataset *ds, double train_frac, double val_frac,
                        uint64_t seed, nn_dataset **train, nn_dataset **val, nn_dataset **test) {
    *train = *val = *test = NULL;
    if (!check_dataset(ctx, ds)) return ctx->err.code;
    if (!(train_frac >= 0 && val_frac >= 0 && train_frac + val_frac <= 1 + 1e-9))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "split of '%s': fractions train %g and val %g must be >= 0 and sum to "
                            "at most 1 (test gets the rest)",
                            ds->name, train_frac, val_frac);
    int64_t n = ds->n;
    int64_t n_train = (int64_t)llround(train_frac * (double)n);
    int64_t n_val = (int64_t)llround(val_frac * (double)n);
    if (n_train > n) n_train = n;
    if (n_train + n_val > n) n_val = n - n_train;
    int64_t n_test = n - n_train - n_val;
    int64_t leak = 0;
    if ((ds->bugs.flags & NN_DATA_BUG_LEAKAGE) && n_val > 0) {
        leak = (int64_t)llround(ds->bugs.leak_fraction * (double)n_val);
        if (leak < 1) leak = 1;
        if (leak > n_val) leak = n_val;
    }
    /* Train takes perm[0, n_train) then, when leaking, the first [leak] val
     * rows again, so it can be gathered in one go. */
    int64_t *perm = alloc_i64(ctx, n + leak, "a permutation");
    if (!perm) return ctx->err.code;
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    permute(&rng, perm, n);
    int64_t *tr = alloc_i64(ctx, n_train + leak, "train rows");
    if (!tr) {
        nn_mem_free(perm);
        return ctx->err.code;
    }
    memcpy(tr, perm, (size_t)n_train * sizeof *tr);
    memcpy(tr + n_train, perm + n_train, (size_t)leak * sizeof *tr);
    char name[NN_DATA_NAME_MAX];
    snprintf(name, sizeof name, "%.50s[train]", ds->name);
    *train = nn_data_subset(ctx, ds, tr, n_train + leak, name);
    snprintf(name, sizeof name, "%.50s[val]", ds->name);
    *val = *train ? nn_data_subset(ctx, ds, perm + n_train, n_val, name) : NULL;
    snprintf(name, sizeof name, "%.50s[test]", ds->name);
    *test = *val ? nn_data_subset(ctx, ds, perm + n_train + n_val, n_test, name) : NULL;
    nn_mem_free(tr);
    nn_mem_free(perm);
    if (*test && leak) {
        /* This split's leak replaces any record inherited from [ds]. */
        int64_t *a = alloc_i64(ctx, leak, "leak rows"),
                *b = a ? alloc_i64(ctx, leak, "leak rows") : NULL;
        if (b) {
            for (int64_t i = 0; i < leak; i++) {
                a[i] = n_train + i;
                b[i] = i;
            }
            nn_tensor_release((*train)->leaked_rows);
            nn_tensor_release((*train)->leaked_from);
            (*train)->leaked_rows = i64_tensor(ctx, a, leak);
            (*train)->leaked_from = i64_tensor(ctx, b, leak);
        }
        nn_mem_free(a);
        nn_mem_free(b);
        if (!(*train)->leaked_rows || !(*train)->leaked_from) {
            nn_data_free(*test);
            *test = NULL;
        }
    }
    if (!*test) {
        nn_data_free(*train);
        nn_data_free(*val);
        *train = *val = NULL;
        return ctx->err.code ? ctx->err.code : NN_ERR_MEMORY;
    }
    nn_dataset *parts[3] = {*train, *val, *test};
    const char *which[3] = {"train", "val", "test"};
    for (int i = 0; i < 3; i++)
        desc_add(parts[i], "\nsplit: %s, %lld of %lld rows (train %g, val %g, seed %llu)", which[i],
                 (long long)parts[i]->n, (long long)n, train_frac, val_frac,
                 (unsigned long long)seed);
    if (leak)
        desc_add(*train,
                 "\nleakage: train rows %lld..%lld are verbatim copies of val rows 0..%lld "
                 "(leaked_rows, leaked_from)",
                 (long long)n_train, (long long)(n_train + leak - 1), (long long)(leak - 1));
    return NN_OK;
}

/* ---- DataLoader ---- */

struct nn_loader {
    nn_tensor *x, *y, *mask; /* contiguous references */
    int64_t n;
    nn_loader_config cfg;
    int64_t epoch, pos;
    int64_t *order; /* this epoch's row order */
    nn_status status;
    bool started;      /* torch mode: this epoch's draws are made */
    bool tail_pending; /* torch mode: RandomSampler's second randperm is due */
    int64_t rows;      /* the dataset's */
    bool external;     /* the order comes from nn_loader_set_order (a sampler) */
};

static void loader_order(nn_loader *l) {
    if (l->external) {
        l->started = false;
        l->tail_pending = false;
    } else if (l->cfg.torch_rng) {
        l->started = false;
        l->tail_pending = false;
        for (int64_t i = 0; i < l->n; i++) l->order[i] = i;
    } else if (l->cfg.shuffle) {
        nn_rng rng;
        nn_rng_seed(&rng, l->cfg.seed + (uint64_t)l->epoch);
        permute(&rng, l->order, l->n);
    } else {
        for (int64_t i = 0; i < l->n; i++) l->order[i] = i;
    }
}

nn_loader *nn_loader_new(nn_ctx *ctx, const nn_dataset *ds, const nn_loader_config *cfg) {
    if (!check_dataset(ctx, ds)) return NULL;
    if (cfg->batch_size < 1) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "DataLoader over '%s': batch_size must be >= 1, got %lld", ds->name,
                     (long long)cfg->batch_size);
        return NULL;
    }
    nn_loader *l = nn_mem_calloc(sizeof *l, "a DataLoader", &ctx->err);
    if (!l) return NULL;
    l->n = l->rows = ds->n;
    l->cfg = *cfg;
    l->order = alloc_i64(ctx, ds->n, "a DataLoader's order");
    l->x = l->order ? nn_tensor_contiguous_raw(ctx, ds->x) : NULL;
    l->y = l->x ? nn_tensor_contiguous_raw(ctx, ds->y) : NULL;
    bool ok = l->y && (!ds->mask || (l->mask = nn_tensor_contiguous_raw(ctx, ds->mask)));
    if (!ok) {
        nn_loader_free(l);
        return NULL;
    }
    loader_order(l);
    return l;
}

nn_status nn_loader_set_order(nn_ctx *ctx, nn_loader *l, const int64_t *idx, int64_t k) {
    for (int64_t i = 0; i < k; i++)
        if (idx[i] < 0 || idx[i] >= l->rows)
            return nn_error_set(&ctx->err, NN_ERR_INDEX,
                                "DataLoader: the sampler gave index %lld, out of range for a "
                                "dataset of %lld rows",
                                (long long)idx[i], (long long)l->rows);
    int64_t *order = alloc_i64(ctx, k, "a DataLoader's order");
    if (!order) return ctx->err.code;
    memcpy(order, idx, sizeof *idx * (size_t)k);
    nn_mem_free(l->order);
    l->order = order;
    l->n = k;
    l->pos = 0;
    l->status = NN_OK;
    l->external = true;
    return NN_OK;
}

void nn_loader_free(nn_loader *l) {
    if (!l) return;
    nn_tensor_release(l->x);
    nn_tensor_release(l->y);
    nn_tensor_release(l->mask);
    nn_mem_free(l->order);
    nn_mem_free(l);
}

int64_t nn_loader_num_batches(const nn_loader *l) {
    int64_t bs = l->cfg.batch_size;
    return l->cfg.drop_last ? l->n / bs : (l->n + bs - 1) / bs;
}

int64_t nn_loader_epoch(const nn_loader *l) {
    return l->epoch;
}

nn_status nn_loader_status(const nn_loader *l) {
    return l->status;
}

const int64_t *nn_loader_order(const nn_loader *l) {
    return l->order;
}

int64_t nn_loader_len(const nn_loader *l) {
    return l->n;
}

void nn_loader_reset(nn_loader *l, int64_t epoch) {
    l->epoch = epoch < 0 ? 0 : epoch;
    l->pos = 0;
    l->status = NN_OK;
    loader_order(l);
}

void nn_loader_batch_clear(nn_loader_batch *b) {
    if (!b) return;
    nn_tensor_release(b->x);
    nn_tensor_release(b->y);
    nn_tensor_release(b->mask);
    nn_tensor_release(b->index);
    memset(b, 0, sizeof *b);
}

nn_status nn_loader_start(nn_ctx *ctx, nn_loader *l) {
    if (!l->cfg.torch_rng || l->started) return NN_OK;
    nn_rng *src = l->cfg.generator ? l->cfg.generator : &ctx->rng;
    (void)nn_random_seed_draw(src); /* _BaseDataLoaderIter's _base_seed */
    if (l->cfg.shuffle) {
        if (l->cfg.generator) {
            nn_random_perm_into(l->cfg.generator, l->order, l->n);
            l->tail_pending = true;
        } else {
            nn_rng local;
            nn_rng_seed(&local, (uint64_t)nn_random_seed_draw(&ctx->rng));
            nn_random_perm_into(&local, l->order, l->n);
        }
    }
    l->started = true;
    return NN_OK;
}

/* RandomSampler's `randperm(n)[:num_samples % n]` after the first one: its
 * values go unused, so only its n - 1 draws are made. */
static void loader_tail(nn_loader *l) {
    if (!l->tail_pending) return;
    l->tail_pending = false;
    for (int64_t i = 0; i < l->n - 1; i++) (void)nn_rng_next32(l->cfg.generator);
}

bool nn_loader_next(nn_ctx *ctx, nn_loader *l, nn_loader_batch *out) {
    nn_loader_batch_clear(out);
    l->status = NN_OK;
    nn_loader_start(ctx, l);
    int64_t end = nn_loader_num_batches(l) * l->cfg.batch_size;
    if (end > l->n) end = l->n;
    if (l->pos >= end) {
        loader_tail(l);
        nn_loader_reset(l, l->epoch + 1);
        return false;
    }
    int64_t b = l->n - l->pos < l->cfg.batch_size ? l->n - l->pos : l->cfg.batch_size;
    const int64_t *idx = l->order + l->pos;
    out->x = gather_rows(ctx, l->x, idx, b);
    out->y = out->x ? gather_rows(ctx, l->y, idx, b) : NULL;
    bool ok = out->y && (!l->mask || (out->mask = gather_rows(ctx, l->mask, idx, b)));
    ok = ok && (out->index = i64_tensor(ctx, idx, b));
    if (!ok) {
        nn_loader_batch_clear(out);
        l->status = ctx->err.code ? ctx->err.code : NN_ERR_MEMORY;
        return false;
    }
    out->size = b;
    l->pos += b;
    /* A last, partial batch is only complete once the sampler is exhausted. */
    if (l->pos == l->n && l->n % l->cfg.batch_size) loader_tail(l);
    return true;
}
