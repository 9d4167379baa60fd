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
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "normal expects std >= 0.0, but found std %g", std);
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
    /* PyTorch's checks, in its order and words (all RuntimeError) */
    if (!nn_dtype_is_float(probs->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "multinomial only supports floating-point dtypes for input, got: %s",
                     nn_dtype_scalar_name(probs->dtype));
        return NULL;
    }
    if (probs->ndim != 1 && probs->ndim != 2) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "prob_dist must be 1 or 2 dim");
        return NULL;
    }
    int64_t k = probs->shape[probs->ndim - 1], rows = probs->ndim == 2 ? probs->shape[0] : 1;
    if (n <= 0) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "cannot sample n_sample <= 0 samples");
        return NULL;
    }
    if (!replacement && n > k) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
        return NULL;
    }
    if (k == 0) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "multinomial: the number of categories must be > 0");
        return NULL;
    }
    bool f32 = probs->dtype == NN_FLOAT32;
    for (int64_t r = 0; r < rows; r++) {
        double sum = 0;
        for (int64_t j = 0; j < k; j++) {
            double v = nn_tensor_get_flat(probs, r * k + j);
            if (!(v >= 0) || !isfinite(v)) {
                nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                             "probability tensor contains either `inf`, `nan` or element < 0");
                return NULL;
            }
            sum += v;
        }
        if (!(sum > 0)) {
            nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                         "invalid multinomial distribution (sum of probabilities <= 0)");
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

/* ---- cauchy_, log_normal_, geometric_: one double draw per element,
 * rounded to the tensor's dtype (torch 1.13's cpu_serial_kernel with
 * at::cauchy_distribution<double> and friends). The AVX2 build of those
 * kernels contracts `median + sigma * tan(..)` and `z * std + mean` into
 * FMAs; so do these. */

typedef enum { DIST_CAUCHY, DIST_LOG_NORMAL, DIST_GEOMETRIC } dist_kind;

static nn_status dist_fill(nn_ctx *ctx, nn_tensor *t, dist_kind kind, double a, double b,
                           nn_rng *gen, const char *fn) {
    if (kind != DIST_GEOMETRIC && need_float(ctx, t, fn)) return ctx->err.code;
    if (nn_tensor_check_inplace(ctx, t, fn)) return ctx->err.code;
    nn_rng *rng = pick(ctx, gen);
    int64_t n = nn_tensor_numel(t);
    walk w;
    walk_init(&w, t);
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (kind == DIST_CAUCHY)
            v = fma(b, tan(3.14159265358979323846 * (nn_rng_uniform(rng) - 0.5)), a);
        else if (kind == DIST_LOG_NORMAL)
            v = exp(fma(nn_rng_normal(rng), b, a));
        else
            v = ceil(log(nn_rng_uniform(rng)) / log(1.0 - a));
        put(t, walk_next(&w), v);
    }
    t->storage->version++;
    return NN_OK;
}

nn_status nn_tensor_cauchy_(nn_ctx *ctx, nn_tensor *t, double median, double sigma, nn_rng *gen) {
    return dist_fill(ctx, t, DIST_CAUCHY, median, sigma, gen, "cauchy_");
}

nn_status nn_tensor_log_normal_(nn_ctx *ctx, nn_tensor *t, double mean, double std, nn_rng *gen) {
    if (!(std > 0))
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "log_normal_ expects std > 0.0, but found std=%g", std);
    return dist_fill(ctx, t, DIST_LOG_NORMAL, mean, std, gen, "log_normal_");
}

nn_status nn_tensor_geometric_(nn_ctx *ctx, nn_tensor *t, double p, nn_rng *gen) {
    if (!(p > 0 && p < 1))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "geometric_ needs p in (0, 1), got %g", p);
    if (t->dtype == NN_BOOL)
        return nn_error_set(&ctx->err, NN_ERR_TYPE, "geometric_ needs a number tensor, not bool");
    return dist_fill(ctx, t, DIST_GEOMETRIC, p, 0, gen, "geometric_");
}

/* ---- poisson: ATen's sample_poisson (Distributions.cpp), all in double:
 * Hoermann's transformed rejection (PTRS) from rate 10, products of
 * uniforms below. */

static double sample_poisson(nn_rng *rng, double lambda) {
    if (lambda >= 10) {
        double slam = sqrt(lambda), loglam = log(lambda);
        double b = 0.931 + 2.53 * slam;
        double a = -0.059 + 0.02483 * b;
        double invalpha = 1.1239 + 1.1328 / (b - 3.4);
        double vr = 0.9277 - 3.6224 / (b - 2);
        for (;;) {
            double U = nn_rng_uniform(rng) - 0.5;
            double V = nn_rng_uniform(rng);
            double us = 0.5 - fabs(U);
            int64_t k = (int64_t)floor((2 * a / us + b) * U + lambda + 0.43);
            if (us >= 0.07 && V <= vr) return (double)k;
            if (k < 0 || (us < 0.013 && V > us)) continue;
            if (log(V) + log(invalpha) - log(a / (us * us) + b) <=
                -lambda + (double)k * loglam - lgamma((double)k + 1))
                return (double)k;
        }
    }
    if (lambda == 0) return 0;
    double enlam = exp(-lambda), prod = 1.0;
    int64_t x = 0;
    for (;;) {
        prod *= nn_rng_uniform(rng);
        if (prod > enlam)
            x += 1;
        else
            return (double)x;
    }
}

nn_tensor *nn_poisson(nn_ctx *ctx, nn_tensor *rates, nn_rng *gen) {
    if (need_float(ctx, rates, "poisson")) return NULL;
    int64_t n = nn_tensor_numel(rates);
    for (int64_t i = 0; i < n; i++)
        if (!(nn_tensor_get_flat(rates, i) >= 0)) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "invalid Poisson rate, expected rate to be non-negative");
            return NULL;
        }
    nn_tensor *t = nn_tensor_empty(ctx, rates->dtype, rates->ndim, rates->shape);
    if (!t) return NULL;
    nn_rng *rng = pick(ctx, gen);
    for (int64_t i = 0; i < n; i++) put(t, i, sample_poisson(rng, nn_tensor_get_flat(rates, i)));
    return t;
}

/* ---- binomial: ATen's sample_binomial (Distributions.h, from
 * TensorFlow): BTRS when count * p >= 10, geometric inversion below; the
 * tensor's type T for count, prob and k, double for the rest, with C++'s
 * promotions (a float count stays float in count * prob). */

static const double stirling_tail[10] = {
    0.0810614667953272,  0.0413406959554092,  0.0276779256849983, 0.02079067210376509,
    0.0166446911898211,  0.0138761288230707,  0.0118967099458917, 0.0104112652619720,
    0.00925546218271273, 0.00833056343336287,
};

static double stirling_approx_tail(double k) {
    if (k <= 9) return stirling_tail[(size_t)k];
    double kp1sq = (k + 1) * (k + 1);
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

#define BINOMIAL_SAMPLER(T, SUF, LOG1P, SQRT, FLOOR)                                               \
    static T binomial_inversion_##SUF(nn_rng *rng, T count, T prob) {                              \
        double geom_sum = 0;                                                                       \
        T num_geom = 0;                                                                            \
        double logprob = LOG1P(-prob);                                                             \
        for (;;) {                                                                                 \
            double U = nn_rng_uniform(rng);                                                        \
            double geom = ceil(log(U) / logprob);                                                  \
            geom_sum += geom;                                                                      \
            if (geom_sum > count) break;                                                           \
            num_geom = num_geom + 1;                                                               \
        }                                                                                          \
        return num_geom;                                                                           \
    }                                                                                              \
    static T btrs_##SUF(nn_rng *rng, T count, T prob) {                                            \
        T k;                                                                                       \
        const double stddev = SQRT(count * prob * (1 - prob));                                     \
        const double b = 1.15 + 2.53 * stddev;                                                     \
        const double a = -0.0873 + 0.0248 * b + 0.01 * prob;                                       \
        const double c = count * prob + 0.5;                                                       \
        const double v_r = 0.92 - 4.2 / b;                                                         \
        const double r = prob / (1 - prob);                                                        \
        const double alpha = (2.83 + 5.1 / b) * stddev;                                            \
        const double m = FLOOR((count + 1) * prob);                                                \
        for (;;) {                                                                                 \
            double U = nn_rng_uniform(rng) - 0.5;                                                  \
            double V = nn_rng_uniform(rng);                                                        \
            double us = 0.5 - fabs(U);                                                             \
            k = (T)floor((2 * a / us + b) * U + c);                                                \
            if (k < 0 || k > count) continue;                                                      \
            if (us >= 0.07 && V <= v_r) return k;                                                  \
            V = log(V * alpha / (a / (us * us) + b));                                              \
            T cp1 = count + 1, cmk1 = count - k + 1, kp1 = k + 1, cmk = count - k;                 \
            double upperbound =                                                                    \
                ((m + 0.5) * log((m + 1) / (r * (count - m + 1))) +                                \
                 cp1 * log((count - m + 1) / cmk1) + (k + 0.5) * log(r * cmk1 / kp1) +             \
                 stirling_approx_tail(m) + stirling_approx_tail(count - m) -                       \
                 stirling_approx_tail(k) - stirling_approx_tail(cmk));                             \
            if (V <= upperbound) return k;                                                         \
        }                                                                                          \
    }                                                                                              \
    static T sample_binomial_##SUF(nn_rng *rng, T count, T prob) {                                 \
        if (count <= 0.0 || prob <= 0.0) return 0;                                                 \
        if (prob >= 1.0) return count;                                                             \
        if (prob <= 0.5) {                                                                         \
            if (count * prob >= 10.0) return btrs_##SUF(rng, count, prob);                         \
            return binomial_inversion_##SUF(rng, count, prob);                                     \
        }                                                                                          \
        if (prob > 0.5) {                                                                          \
            T qprob = (T)(1.0 - prob);                                                             \
            if (count * qprob >= 10.0) return count - btrs_##SUF(rng, count, qprob);               \
            return count - binomial_inversion_##SUF(rng, count, qprob);                            \
        }                                                                                          \
        return (T)NAN;                                                                             \
    }

BINOMIAL_SAMPLER(float, f32, log1pf, sqrtf, floorf)
BINOMIAL_SAMPLER(double, f64, log1p, sqrt, floor)

nn_tensor *nn_binomial(nn_ctx *ctx, nn_tensor *count, nn_tensor *prob, nn_rng *gen) {
    if (need_float(ctx, count, "binomial")) return NULL;
    if (prob->dtype != count->dtype) {
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "binomial needs count and prob of one dtype, got %s and %s",
                     nn_dtype_name(count->dtype), nn_dtype_name(prob->dtype));
        return NULL;
    }
    int64_t n = nn_tensor_numel(count);
    if (nn_tensor_numel(prob) != n) {
        nn_error_set(&ctx->err, NN_ERR_SHAPE, "binomial needs count and prob of one shape");
        return NULL;
    }
    nn_tensor *t = nn_tensor_empty(ctx, count->dtype, count->ndim, count->shape);
    if (!t) return NULL;
    nn_rng *rng = pick(ctx, gen);
    for (int64_t i = 0; i < n; i++) {
        double c = nn_tensor_get_flat(count, i), p = nn_tensor_get_flat(prob, i);
        double v = count->dtype == NN_FLOAT64
                       ? sample_binomial_f64(rng, c, p)
                       : (double)sample_binomial_f32(rng, (float)c, (float)p);
        put(t, i, v);
    }
    return t;
}
