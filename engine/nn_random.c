/* nn_random: torch 1.13's CPU random kernels over nn_rng. See nn_random.h. */
#include "nn_random.h"

#include "nn_mem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static nn_rng *pick(nn_ctx *ctx, nn_rng *gen) {
    return gen ? gen : &ctx->rng;
}

/* ---- visiting the elements in TensorIterator's order ----
 * Dims of size 1 drop out; the others go outermost to innermost by
 * decreasing stride (stable), so a contiguous tensor is row-major and a
 * transposed one is walked in memory order. */
typedef struct walk {
    int nd;
    int64_t size[NN_MAX_DIMS], stride[NN_MAX_DIMS], idx[NN_MAX_DIMS];
    int64_t off;
} walk;

static void walk_init(walk *w, const nn_tensor *t) {
    int d[NN_MAX_DIMS], nd = 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] != 1) d[nd++] = i;
    for (int i = 1; i < nd; i++) {
        int k = d[i], j = i - 1;
        while (j >= 0 && t->strides[d[j]] < t->strides[k]) {
            d[j + 1] = d[j];
            j--;
        }
        d[j + 1] = k;
    }
    w->nd = nd;
    for (int i = 0; i < nd; i++) {
        w->size[i] = t->shape[d[i]];
        w->stride[i] = t->strides[d[i]];
        w->idx[i] = 0;
    }
    w->off = t->offset;
}

/* The current element's offset; then step to the next one. */
static int64_t walk_next(walk *w) {
    int64_t off = w->off;
    for (int i = w->nd - 1; i >= 0; i--) {
        w->off += w->stride[i];
        if (++w->idx[i] < w->size[i]) break;
        w->off -= w->stride[i] * w->size[i];
        w->idx[i] = 0;
    }
    return off;
}

static void put(nn_tensor *t, int64_t off, double v) {
    nn_dtype_store(t->dtype, (char *)t->storage->data + off * (int64_t)nn_dtype_size(t->dtype), v);
}

static nn_status need_float(nn_ctx *ctx, const nn_tensor *t, const char *fn) {
    if (nn_dtype_is_float(t->dtype)) return NN_OK;
    return nn_error_set(&ctx->err, NN_ERR_TYPE, "%s needs a float tensor, not %s", fn,
                        nn_dtype_name(t->dtype));
}

/* ---- fills ---- */

nn_status nn_tensor_uniform_gen_(nn_ctx *ctx, nn_tensor *t, double lo, double hi, nn_rng *gen) {
    if (!(lo <= hi))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "uniform_ needs from <= to, got %g > %g", lo,
                            hi);
    if (need_float(ctx, t, "uniform_") || nn_tensor_check_inplace(ctx, t, "uniform_"))
        return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(t);
    walk w;
    walk_init(&w, t);
    /* uniform_real_distribution: x * (to - from) + from in the tensor's
     * type, fused as torch's build fuses it. */
    if (nn_dtype_is_narrow(t->dtype)) {
        /* float16/bfloat16: drawn in double and rounded (torch's own draws
         * for these dtypes differ; see docs/language-tensors.md). */
        for (int64_t i = 0; i < n; i++)
            put(t, walk_next(&w), fma(nn_rng_uniform(rng), hi - lo, lo));
    } else if (nn_tensor_is_contiguous(t)) {
        if (t->dtype == NN_FLOAT32)
            nn_rng_fill_uniform_f32(rng, (float *)t->storage->data + t->offset, n, (float)lo,
                                    (float)hi);
        else
            nn_rng_fill_uniform_f64(rng, (double *)t->storage->data + t->offset, n, lo, hi);
    } else if (t->dtype == NN_FLOAT32) {
        float from = (float)lo, to = (float)hi, span = to - from;
        float *d = t->storage->data;
        for (int64_t i = 0; i < n; i++)
            d[walk_next(&w)] = fmaf(nn_rng_uniform_f32(rng), span, from);
    } else {
        double span = hi - lo, *d = t->storage->data;
        for (int64_t i = 0; i < n; i++) d[walk_next(&w)] = fma(nn_rng_uniform(rng), span, lo);
    }
    t->storage->version++;
    return NN_OK;
}

nn_status nn_tensor_normal_gen_(nn_ctx *ctx, nn_tensor *t, double mean, double std, nn_rng *gen) {
    if (!(std >= 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "normal_ needs std >= 0, got %g", std);
    if (need_float(ctx, t, "normal_") || nn_tensor_check_inplace(ctx, t, "normal_"))
        return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(t);
    if (n >= 16 && nn_tensor_is_contiguous(t) && !nn_dtype_is_narrow(t->dtype)) {
        if (t->dtype == NN_FLOAT32)
            nn_rng_fill_normal_f32(rng, (float *)t->storage->data + t->offset, n, (float)mean,
                                   (float)std);
        else
            nn_rng_fill_normal_f64(rng, (double *)t->storage->data + t->offset, n, mean, std);
    } else {
        walk w;
        walk_init(&w, t);
        for (int64_t i = 0; i < n; i++) put(t, walk_next(&w), fma(nn_rng_normal(rng), std, mean));
    }
    t->storage->version++;
    return NN_OK;
}

nn_status nn_tensor_bernoulli_(nn_ctx *ctx, nn_tensor *t, double p, nn_rng *gen) {
    if (!(p >= 0 && p <= 1))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "bernoulli_ needs p in [0, 1], got %g", p);
    if (nn_tensor_check_inplace(ctx, t, "bernoulli_")) return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(t);
    walk w;
    walk_init(&w, t);
    for (int64_t i = 0; i < n; i++) put(t, walk_next(&w), nn_rng_uniform(rng) < p ? 1.0 : 0.0);
    t->storage->version++;
    return NN_OK;
}

nn_status nn_tensor_exponential_(nn_ctx *ctx, nn_tensor *t, double lambd, nn_rng *gen) {
    if (!(lambd > 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "exponential_ needs lambd > 0, got %g", lambd);
    if (need_float(ctx, t, "exponential_") || nn_tensor_check_inplace(ctx, t, "exponential_"))
        return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(t);
    walk w;
    walk_init(&w, t);
    for (int64_t i = 0; i < n; i++)
        put(t, walk_next(&w), -1.0 / lambd * log(1.0 - nn_rng_uniform(rng)));
    t->storage->version++;
    return NN_OK;
}

nn_status nn_tensor_random_(nn_ctx *ctx, nn_tensor *t, int64_t low, int64_t high, nn_rng *gen) {
    if (!(high > low))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "random_ needs from < to, got from=%lld, to=%lld", (long long)low,
                            (long long)high);
    if (nn_tensor_check_inplace(ctx, t, "random_")) return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    uint64_t range = (uint64_t)high - (uint64_t)low;
    int64_t n = nn_tensor_numel(t);
    walk w;
    walk_init(&w, t);
    if (t->dtype == NN_INT64) {
        int64_t *d = t->storage->data;
        for (int64_t i = 0; i < n; i++)
            d[walk_next(&w)] = (int64_t)(nn_rng_below(rng, range) + (uint64_t)low);
    } else {
        for (int64_t i = 0; i < n; i++)
            put(t, walk_next(&w), (double)(int64_t)(nn_rng_below(rng, range) + (uint64_t)low));
    }
    t->storage->version++;
    return NN_OK;
}

int64_t nn_random_seed_draw(nn_rng *gen) {
    return (int64_t)(nn_rng_next(gen) % (1ULL << 63));
}

/* ---- factories ---- */

nn_tensor *nn_rand_gen(nn_ctx *ctx, nn_rng *gen, nn_dtype dt, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t && nn_tensor_uniform_gen_(ctx, t, 0, 1, gen)) {
        nn_tensor_release(t);
        return NULL;
    }
    return t;
}

nn_tensor *nn_randn_gen(nn_ctx *ctx, nn_rng *gen, nn_dtype dt, int ndim, const int64_t *shape) {
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t && nn_tensor_normal_gen_(ctx, t, 0, 1, gen)) {
        nn_tensor_release(t);
        return NULL;
    }
    return t;
}

nn_tensor *nn_randint_gen(nn_ctx *ctx, nn_rng *gen, int64_t low, int64_t high, nn_dtype dt,
                          int ndim, const int64_t *shape) {
    if (high <= low) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "randint needs low < high, got low=%lld, high=%lld",
                     (long long)low, (long long)high);
        return NULL;
    }
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (t && nn_tensor_random_(ctx, t, low, high, gen)) {
        nn_tensor_release(t);
        return NULL;
    }
    return t;
}

nn_tensor *nn_rand(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return nn_rand_gen(ctx, NULL, dt, ndim, shape);
}

nn_tensor *nn_randn(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return nn_randn_gen(ctx, NULL, dt, ndim, shape);
}

nn_tensor *nn_randint(nn_ctx *ctx, int64_t low, int64_t high, int ndim, const int64_t *shape) {
    return nn_randint_gen(ctx, NULL, low, high, NN_INT64, ndim, shape);
}

nn_status nn_tensor_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std) {
    return nn_tensor_normal_gen_(ctx, t, mean, std, NULL);
}

nn_status nn_tensor_uniform_(nn_ctx *ctx, nn_tensor *t, double lo, double hi) {
    return nn_tensor_uniform_gen_(ctx, t, lo, hi, NULL);
}

void nn_random_perm_into(nn_rng *gen, int64_t *p, int64_t n) {
    for (int64_t i = 0; i < n; i++) p[i] = i;
    for (int64_t i = 0; i < n - 1; i++) {
        int64_t z = (int64_t)(nn_rng_next32(gen) % (uint64_t)(n - i));
        int64_t sav = p[i];
        p[i] = p[z + i];
        p[z + i] = sav;
    }
}

nn_tensor *nn_randperm(nn_ctx *ctx, nn_rng *gen, int64_t n, nn_dtype dt) {
    if (n < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "randperm needs n >= 0, got %lld", (long long)n);
        return NULL;
    }
    /* The result first: its allocation checks the size against the cap (and
     * for overflow), so the scratch below is known to be affordable. */
    nn_tensor *t = nn_tensor_empty(ctx, dt, 1, &n);
    if (!t) return NULL;
    int64_t *p =
        nn_mem_alloc(sizeof(int64_t) * (size_t)(n ? n : 1), "randperm's scratch", &ctx->err);
    if (!p) {
        nn_tensor_release(t);
        return NULL;
    }
    nn_random_perm_into(pick(ctx, gen), p, n);
    for (int64_t i = 0; i < n; i++) put(t, i, (double)p[i]);
    nn_mem_free(p);
    return t;
}

nn_tensor *nn_bernoulli(nn_ctx *ctx, nn_tensor *p, nn_rng *gen) {
    if (need_float(ctx, p, "bernoulli")) return NULL;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(p);
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(p, i);
        if (!(v >= 0 && v <= 1)) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "bernoulli needs probabilities in [0, 1], got %g at element %lld", v,
                         (long long)i);
            return NULL;
        }
    }
    nn_tensor *t = nn_tensor_empty(ctx, p->dtype, p->ndim, p->shape);
    if (!t) return NULL;
    /* A float32 p draws a 24-bit uniform and compares in float, a float64
     * one a 53-bit uniform (bernoulli_distribution<float> / <double>). */
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(p, i);
        bool one =
            p->dtype == NN_FLOAT32 ? nn_rng_uniform_f32(rng) < (float)v : nn_rng_uniform(rng) < v;
        put(t, i, one ? 1.0 : 0.0);
    }
    return t;
}

/* ---- multinomial ---- */

typedef struct keyed {
    double key;
    int64_t index;
} keyed;

static int by_key_desc(const void *a, const void *b) {
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key > y->key ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

nn_tensor *nn_multinomial(nn_ctx *ctx, nn_tensor *probs, int64_t n, bool replacement, nn_rng *gen) {
    if (need_float(ctx, probs, "multinomial")) return NULL;
    if (probs->ndim != 1 && probs->ndim != 2) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "multinomial: prob_dist must be 1 or 2 dim, got %d",
                     probs->ndim);
        return NULL;
    }
    int64_t k = probs->shape[probs->ndim - 1], rows = probs->ndim == 2 ? probs->shape[0] : 1;
    if (k == 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "multinomial: the number of categories must be > 0");
        return NULL;
    }
    if (n <= 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "multinomial: cannot sample n_sample <= 0 samples");
        return NULL;
    }
    if (!replacement && n > k) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "multinomial: cannot sample n_sample > prob_dist.size(-1) samples without "
                     "replacement");
        return NULL;
    }
    bool f32 = probs->dtype == NN_FLOAT32;
    for (int64_t r = 0; r < rows; r++) {
        double sum = 0;
        for (int64_t j = 0; j < k; j++) {
            double v = nn_tensor_get_flat(probs, r * k + j);
            if (!(v >= 0) || !isfinite(v)) {
                nn_error_set(&ctx->err, NN_ERR_VALUE,
                             "multinomial: probability tensor contains either inf, nan or "
                             "element < 0");
                return NULL;
            }
            sum += v;
        }
        if (!(sum > 0)) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "multinomial: invalid multinomial distribution (sum of probabilities "
                         "<= 0)");
            return NULL;
        }
    }
    int64_t oshape[2] = {rows, n};
    nn_tensor *out = probs->ndim == 2 ? nn_tensor_empty(ctx, NN_INT64, 2, oshape)
                                      : nn_tensor_empty(ctx, NN_INT64, 1, &n);
    keyed *buf = out ? malloc(sizeof(keyed) * (size_t)k) : NULL;
    if (!buf) {
        nn_tensor_release(out);
        if (out) nn_error_set(&ctx->err, NN_ERR_MEMORY, "multinomial: out of memory");
        return NULL;
    }
    nn_rng *rng = pick(ctx, gen);
    int64_t *o = out->storage->data;
    if (!replacement) {
        /* q = Exp(1) for every element first (row-major), then probs / q in
         * the probabilities' dtype, and the n largest of each row in
         * decreasing order (argmax when n == 1). */
        double *q = malloc(sizeof(double) * (size_t)(rows * k));
        if (!q) {
            free(buf);
            nn_tensor_release(out);
            nn_error_set(&ctx->err, NN_ERR_MEMORY, "multinomial: out of memory");
            return NULL;
        }
        for (int64_t i = 0; i < rows * k; i++) {
            double e = -1.0 * log(1.0 - nn_rng_uniform(rng));
            double p = nn_tensor_get_flat(probs, i);
            q[i] = f32 ? (double)((float)p / (float)e) : p / e;
        }
        for (int64_t r = 0; r < rows; r++) {
            const double *qr = q + r * k;
            if (n == 1) {
                int64_t best = 0;
                for (int64_t j = 1; j < k; j++)
                    if (qr[j] > qr[best]) best = j;
                o[r] = best;
                continue;
            }
            for (int64_t j = 0; j < k; j++) buf[j] = (keyed){qr[j], j};
            qsort(buf, (size_t)k, sizeof(keyed), by_key_desc);
            for (int64_t j = 0; j < n; j++) o[r * n + j] = buf[j].index;
        }
        free(q);
    } else {
        double *cum = (double *)buf; /* k doubles fit in k keyed entries */
        /* The cumulative distribution in the probabilities' dtype, divided by
         * its total, its last entry set to 1, and a binary search for the
         * first entry >= a 53-bit uniform. */
        for (int64_t r = 0; r < rows; r++) {
            double sum = 0;
            float sumf = 0;
            for (int64_t j = 0; j < k; j++) {
                double v = nn_tensor_get_flat(probs, r * k + j);
                if (f32) {
                    sumf += (float)v;
                    cum[j] = sumf;
                } else {
                    sum += v;
                    cum[j] = sum;
                }
            }
            for (int64_t j = 0; j < k; j++)
                cum[j] = f32 ? (double)((float)cum[j] / sumf) : cum[j] / sum;
            cum[k - 1] = 1;
            for (int64_t s = 0; s < n; s++) {
                double u = nn_rng_uniform(rng);
                int64_t left = 0, right = k;
                while (right - left > 0) {
                    int64_t mid = left + (right - left) / 2;
                    if (cum[mid] < u)
                        left = mid + 1;
                    else
                        right = mid;
                }
                o[r * n + s] = left;
            }
        }
    }
    free(buf);
    return out;
}
