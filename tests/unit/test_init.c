/* nn_init: fans, gains, and the sample statistics of every init function
 * against the formulas of torch.nn.init; orthogonality; same seed, same
 * numbers; errors leave the tensor unchanged. */
#include <stdlib.h>
#include <string.h>

#include "nn_init.h"
#include "testutil.h"

static void stats(const nn_tensor *t, double *mean, double *std, double *lo, double *hi) {
    int64_t n = nn_tensor_numel(t);
    double s = 0, ss = 0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        s += v;
        ss += v * v;
        *lo = fmin(*lo, v);
        *hi = fmax(*hi, v);
    }
    *mean = s / (double)n;
    *std = sqrt(fmax(0, ss / (double)n - *mean * *mean));
}

NN_TEST(init_fans_and_gains) {
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t fi, fo;
    nn_tensor *w = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(3, 4));
    CHECK(nn_init_fans(ctx, w, &fi, &fo) == NN_OK && fi == 4 && fo == 3);
    nn_tensor *conv = nn_zeros(ctx, NN_FLOAT32, 4, TU_SHAPE(8, 4, 3, 5));
    CHECK(nn_init_fans(ctx, conv, &fi, &fo) == NN_OK && fi == 60 && fo == 120);
    nn_tensor *v = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(5));
    CHECK(nn_init_fans(ctx, v, &fi, &fo) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "[5]") && strstr(nn_ctx_error(ctx), "at least 2 dims"));
    double g;
    struct {
        const char *nl;
        double param, gain;
    } gains[] = {
        {"linear", NAN, 1},
        {"conv2d", NAN, 1},
        {"conv_transpose3d", NAN, 1},
        {"sigmoid", NAN, 1},
        {"tanh", NAN, 5.0 / 3},
        {"relu", NAN, 1.4142135623730951},
        {"leaky_relu", NAN, 1.4141428569978354}, /* slope 0.01 */
        {"leaky_relu", 0.2, 1.3867504905630728},
        {"leaky_relu", 2.23606797749979, 0.5773502691896258}, /* a = sqrt(5) */
        {"selu", NAN, 0.75},
    };
    for (size_t i = 0; i < sizeof gains / sizeof gains[0]; i++) {
        CHECK(nn_init_calculate_gain(ctx, gains[i].nl, gains[i].param, &g) == NN_OK);
        CHECK_NEAR(g, gains[i].gain, 1e-14);
    }
    CHECK(nn_init_calculate_gain(ctx, "swish", NAN, &g) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "'swish'"));
    nn_tensor_release(w);
    nn_tensor_release(conv);
    nn_tensor_release(v);
    nn_ctx_free(ctx);
}

NN_TEST(init_basic_fills) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(300, 400));
    nn_tensor_requires_grad_(ctx, t, true); /* init works on parameters: no_grad inside */
    double mean, std, lo, hi;
    CHECK(nn_init_uniform_(ctx, t, -0.5, 1.5) == NN_OK);
    stats(t, &mean, &std, &lo, &hi);
    CHECK(lo >= -0.5 && hi < 1.5 && lo < -0.49 && hi > 1.49);
    CHECK_NEAR(mean, 0.5, 0.01);
    CHECK_NEAR(std, 2 / sqrt(12.0), 0.01);
    CHECK(nn_init_normal_(ctx, t, 3, 0.25) == NN_OK);
    stats(t, &mean, &std, &lo, &hi);
    CHECK_NEAR(mean, 3, 0.001);
    CHECK_NEAR(std, 0.25, 0.01);
    CHECK(nn_init_constant_(ctx, t, 0.125) == NN_OK);
    stats(t, &mean, &std, &lo, &hi);
    CHECK(lo == 0.125 && hi == 0.125);
    CHECK(nn_init_ones_(ctx, t) == NN_OK && nn_tensor_get_flat(t, 7) == 1);
    CHECK(nn_init_zeros_(ctx, t) == NN_OK && nn_tensor_get_flat(t, 7) == 0);
    CHECK(ctx->grad_enabled);
    /* Errors name the problem and leave the tensor as it was. */
    CHECK(nn_init_uniform_(ctx, t, 1, 0) == NN_ERR_VALUE);
    CHECK(nn_init_normal_(ctx, t, 0, -1) == NN_ERR_VALUE);
    CHECK(nn_init_trunc_normal_(ctx, t, 0, 1, 2, -2) == NN_ERR_VALUE);
    CHECK(nn_init_kaiming_uniform_(ctx, t, 0, NN_INIT_FAN_IN, "swish") == NN_ERR_VALUE);
    stats(t, &mean, &std, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    nn_tensor *i64 = nn_zeros(ctx, NN_INT64, 2, TU_SHAPE(2, 2));
    CHECK(nn_init_normal_(ctx, i64, 0, 1) == NN_ERR_TYPE);
    CHECK(nn_init_xavier_uniform_(ctx, i64, 1) == NN_ERR_TYPE);
    nn_tensor *v = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(4));
    CHECK(nn_init_xavier_normal_(ctx, v, 1) == NN_ERR_VALUE);
    CHECK(nn_init_kaiming_normal_(ctx, v, 0, NN_INIT_FAN_OUT, "relu") == NN_ERR_VALUE);
    CHECK(nn_init_orthogonal_(ctx, v, 1) == NN_ERR_VALUE);
    nn_tensor_release(v);
    nn_tensor_release(i64);
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* Uniform inits: the bound is sqrt(3) std; check the sample's extremes,
 * standard deviation and mean against PyTorch's formula for [std]. */
static void check_uniform(nn_tensor *t, double want_std, const char *what) {
    double mean, std, lo, hi, bound = sqrt(3.0) * want_std;
    stats(t, &mean, &std, &lo, &hi);
    CHECK_MSG(lo >= -bound * (1 + 1e-6) && hi <= bound * (1 + 1e-6), "%s: [%g, %g] vs %g", what, lo,
              hi, bound);
    CHECK_MSG(lo < -0.98 * bound && hi > 0.98 * bound, "%s: [%g, %g] vs %g", what, lo, hi, bound);
    CHECK_MSG(fabs(std / want_std - 1) < 0.02, "%s: std %g, want %g", what, std, want_std);
    CHECK_MSG(fabs(mean) < 0.02 * want_std, "%s: mean %g", what, mean);
}

static void check_normal(nn_tensor *t, double want_std, const char *what) {
    double mean, std, lo, hi;
    stats(t, &mean, &std, &lo, &hi);
    CHECK_MSG(fabs(std / want_std - 1) < 0.02, "%s: std %g, want %g", what, std, want_std);
    CHECK_MSG(fabs(mean) < 0.02 * want_std, "%s: mean %g", what, mean);
}

NN_TEST(init_xavier_kaiming_statistics) {
    nn_ctx *ctx = nn_ctx_new(11);
    const int64_t shapes[][4] = {{256, 512, 0, 0}, {1024, 64, 0, 0}, {64, 32, 3, 3}};
    const int ndims[] = {2, 2, 4};
    const double gains[] = {1.0, 5.0 / 3, 0.5};
    char what[128];
    for (int s = 0; s < 3; s++) {
        nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, ndims[s], shapes[s]);
        int64_t fi, fo;
        nn_init_fans(ctx, t, &fi, &fo);
        for (int k = 0; k < 3; k++) {
            double gain = gains[k];
            double xstd = gain * sqrt(2.0 / (double)(fi + fo));
            snprintf(what, sizeof what, "xavier_uniform shape %d gain %g", s, gain);
            CHECK(nn_init_xavier_uniform_(ctx, t, gain) == NN_OK);
            check_uniform(t, xstd, what);
            snprintf(what, sizeof what, "xavier_normal shape %d gain %g", s, gain);
            CHECK(nn_init_xavier_normal_(ctx, t, gain) == NN_OK);
            check_normal(t, xstd, what);
        }
        struct {
            double a;
            const char *nl;
            double gain;
        } ks[] = {{0, "relu", sqrt(2.0)},
                  {0, "leaky_relu", sqrt(2.0 / (1 + 0.0))},
                  {0.2, "leaky_relu", sqrt(2.0 / 1.04)},
                  {sqrt(5.0), "leaky_relu", sqrt(1.0 / 3)},
                  {0, "tanh", 5.0 / 3},
                  {0, "linear", 1.0}};
        for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
            for (int mode = 0; mode < 2; mode++) {
                int64_t fan = mode == NN_INIT_FAN_IN ? fi : fo;
                double kstd = ks[k].gain / sqrt((double)fan);
                snprintf(what, sizeof what, "kaiming_uniform shape %d %s a=%g mode %d", s, ks[k].nl,
                         ks[k].a, mode);
                CHECK(nn_init_kaiming_uniform_(ctx, t, ks[k].a, (nn_init_mode)mode, ks[k].nl) ==
                      NN_OK);
                check_uniform(t, kstd, what);
                snprintf(what, sizeof what, "kaiming_normal shape %d %s a=%g mode %d", s, ks[k].nl,
                         ks[k].a, mode);
                CHECK(nn_init_kaiming_normal_(ctx, t, ks[k].a, (nn_init_mode)mode, ks[k].nl) ==
                      NN_OK);
                check_normal(t, kstd, what);
            }
        nn_tensor_release(t);
    }
    /* PyTorch's numbers for Linear(400, 300): bound 1/sqrt(400) = 0.05. */
    nn_tensor *w = nn_zeros(ctx, NN_FLOAT32, 2, TU_SHAPE(300, 400));
    nn_init_kaiming_uniform_(ctx, w, sqrt(5.0), NN_INIT_FAN_IN, "leaky_relu");
    check_uniform(w, 0.05 / sqrt(3.0), "Linear default");
    nn_tensor_release(w);
    nn_ctx_free(ctx);
}

static double phi(double x) {
    return exp(-x * x / 2) / sqrt(2 * M_PI);
}
static double cdf(double x) {
    return 0.5 * erfc(-x / sqrt(2.0));
}

NN_TEST(init_trunc_normal_statistics) {
    nn_ctx *ctx = nn_ctx_new(3);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT64, 1, TU_SHAPE(200000));
    struct {
        double mean, std, a, b;
    } cs[] = {{0, 1, -2, 2}, {0, 0.02, -0.04, 0.04}, {1, 2, 0, 10}, {0, 1, 3, 5}, {0, 1, -8, -6}};
    for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
        double mu = cs[k].mean, sg = cs[k].std, a = cs[k].a, b = cs[k].b;
        CHECK(nn_init_trunc_normal_(ctx, t, mu, sg, a, b) == NN_OK);
        double al = (a - mu) / sg, be = (b - mu) / sg, z = cdf(be) - cdf(al);
        double want_mean = mu + sg * (phi(al) - phi(be)) / z;
        double r = (phi(al) - phi(be)) / z;
        double want_var = sg * sg * (1 + (al * phi(al) - be * phi(be)) / z - r * r);
        double mean, std, lo, hi;
        stats(t, &mean, &std, &lo, &hi);
        CHECK_MSG(lo >= a && hi <= b, "case %zu: [%g, %g]", k, lo, hi);
        CHECK_MSG(fabs(mean - want_mean) < 0.01 * sqrt(want_var), "case %zu: mean %g want %g", k,
                  mean, want_mean);
        CHECK_MSG(fabs(std / sqrt(want_var) - 1) < 0.01, "case %zu: std %g want %g", k, std,
                  sqrt(want_var));
    }
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* W W^T (rows <= cols) or W^T W (rows > cols) of the tensor as a matrix
 * [rows, numel / rows] equals gain^2 I. */
static double orth_error(const nn_tensor *t, double gain) {
    int64_t rows = t->shape[0], cols = nn_tensor_numel(t) / rows;
    int64_t k = rows <= cols ? rows : cols;
    double *w = malloc(sizeof(double) * (size_t)(rows * cols)), worst = 0;
    nn_tensor_to_doubles(t, w);
    for (int64_t i = 0; i < k; i++)
        for (int64_t j = 0; j < k; j++) {
            double s = 0;
            if (rows <= cols)
                for (int64_t c = 0; c < cols; c++) s += w[i * cols + c] * w[j * cols + c];
            else
                for (int64_t r = 0; r < rows; r++) s += w[r * cols + i] * w[r * cols + j];
            worst = fmax(worst, fabs(s - (i == j ? gain * gain : 0)));
        }
    free(w);
    return worst;
}

NN_TEST(init_orthogonal) {
    nn_ctx *ctx = nn_ctx_new(9);
    const int64_t shapes[][3] = {{6, 4, 0}, {4, 6, 0}, {5, 5, 0}, {4, 2, 3}, {64, 128, 0}};
    const int nd[] = {2, 2, 2, 3, 2};
    for (int s = 0; s < 5; s++)
        for (int dt = 0; dt < 2; dt++) {
            nn_tensor *t = nn_zeros(ctx, dt ? NN_FLOAT64 : NN_FLOAT32, nd[s], shapes[s]);
            double gain = s % 2 ? 2.0 : 1.0;
            CHECK(nn_init_orthogonal_(ctx, t, gain) == NN_OK);
            double e = orth_error(t, gain);
            CHECK_MSG(e < (dt ? 1e-12 : 1e-5), "shape %d %s: error %g", s, dt ? "f64" : "f32", e);
            nn_tensor_release(t);
        }
    /* Orthogonal but random: two draws differ; same seed, same matrix. */
    nn_ctx *c1 = nn_ctx_new(4), *c2 = nn_ctx_new(4);
    nn_tensor *a = nn_zeros(c1, NN_FLOAT64, 2, TU_SHAPE(5, 3));
    nn_tensor *b = nn_zeros(c2, NN_FLOAT64, 2, TU_SHAPE(5, 3));
    nn_init_orthogonal_(c1, a, 1);
    nn_init_orthogonal_(c2, b, 1);
    CHECK(tu_close_tensor(a, b, 0, 0, "same seed"));
    nn_init_orthogonal_(c2, b, 1);
    CHECK(nn_tensor_get_flat(a, 0) != nn_tensor_get_flat(b, 0));
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_ctx_free(c1);
    nn_ctx_free(c2);
    nn_ctx_free(ctx);
}

NN_TEST(init_same_seed_same_numbers) {
    nn_ctx *c1 = nn_ctx_new(77), *c2 = nn_ctx_new(77);
    nn_tensor *a = nn_zeros(c1, NN_FLOAT32, 2, TU_SHAPE(7, 9));
    nn_tensor *b = nn_zeros(c2, NN_FLOAT32, 2, TU_SHAPE(7, 9));
    nn_init_xavier_uniform_(c1, a, 1);
    nn_init_xavier_uniform_(c2, b, 1);
    nn_init_trunc_normal_(c1, a, 0, 1, -2, 2);
    nn_init_trunc_normal_(c2, b, 0, 1, -2, 2);
    CHECK(tu_close_tensor(a, b, 0, 0, "same seed"));
    nn_tensor_release(a);
    nn_tensor_release(b);
    nn_ctx_free(c1);
    nn_ctx_free(c2);
}
