/* The NaN hunt's scans (nn_anomaly.h) against a plain isnan/isinf loop:
 * float32 and float64, contiguous and strided, lengths across the scans'
 * blocks, one thread and two (a scan long enough to be split), and the note
 * that a parameter is finite, which an in-place write must void. */
#include <math.h>
#include <string.h>

#include "nn_anomaly.h"
#include "nn_ctx.h"
#include "testutil.h"

/* Special values, each written at one place in an otherwise finite tensor. */
static double special(int k) {
    switch (k) {
    case 0: return NAN;
    case 1: return -NAN;
    case 2: return INFINITY;
    case 3: return -INFINITY;
    case 4: return 3.0e38; /* finite, large */
    case 5: return 1e-45;  /* float32's smallest denormal */
    default: return -0.0;
    }
}

/* nn_tensor_nonfinite, has_nan and has_inf of [t] against a loop over its
 * elements in row-major order. */
static bool agrees(const nn_tensor *t, const char *what) {
    int64_t n = nn_tensor_numel(t), count = 0, first = -1;
    bool nan = false, inf = false;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_flat_value(t, i);
        if (isfinite(v)) continue;
        nan |= isnan(v);
        inf |= isinf(v);
        if (count++ == 0) first = i;
    }
    int64_t got_first = -1;
    double value = 0;
    int64_t got = nn_tensor_nonfinite(t, &got_first, &value);
    bool ok = got == count && (!count || got_first == first) && nn_tensor_has_nan(t) == nan &&
              nn_tensor_has_inf(t) == inf;
    CHECK_MSG(ok, "%s: %lld non-finite (want %lld), first %lld (want %lld), nan %d inf %d", what,
              (long long)got, (long long)count, (long long)got_first, (long long)first,
              nn_tensor_has_nan(t), nn_tensor_has_inf(t));
    return ok;
}

static void fill(nn_tensor *t, double v) {
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double x = v + (double)(i % 7);
        if (t->dtype == NN_FLOAT32)
            ((float *)nn_tensor_data(t))[i] = (float)x;
        else
            ((double *)nn_tensor_data(t))[i] = x;
    }
}

static void put(nn_tensor *t, int64_t i, double v) {
    if (t->dtype == NN_FLOAT32)
        ((float *)nn_tensor_data(t))[i] = (float)v;
    else
        ((double *)nn_tensor_data(t))[i] = v;
}

NN_TEST(anomaly_scans_match_a_plain_loop) {
    nn_ctx *ctx = nn_ctx_new(0);
    static const nn_dtype dts[] = {NN_FLOAT32, NN_FLOAT64};
    static const int64_t lens[] = {1, 7, 2047, 2048, 4095, 4096, 4097, 9001};
    char what[128];
    for (int d = 0; d < 2; d++) {
        for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
            int64_t n = lens[l];
            int64_t places[] = {0, n / 2, n - 1};
            for (int k = 0; k < 7; k++) {
                for (int p = 0; p < 3; p++) {
                    nn_tensor *t = nn_tensor_empty(ctx, dts[d], 1, (int64_t[]){n});
                    fill(t, 1.0);
                    put(t, places[p], special(k));
                    snprintf(what, sizeof what, "%s n=%lld value %d at %lld", nn_dtype_name(dts[d]),
                             (long long)n, k, (long long)places[p]);
                    agrees(t, what);
                    /* two of them: a NaN after an infinity and the other way round */
                    put(t, (places[p] + n / 3) % n, special((k + 2) % 4));
                    agrees(t, what);
                    nn_tensor_release(t);
                }
            }
        }
        /* strided: the transpose of a [37, 129] matrix, a value at each corner */
        nn_tensor *m = nn_tensor_empty(ctx, dts[d], 2, (int64_t[]){37, 129});
        for (int k = 0; k < 4; k++) {
            fill(m, 2.0);
            put(m, k == 0 ? 0 : k == 1 ? 128 : k == 2 ? 36 * 129 : 37 * 129 - 1, special(k));
            nn_tensor *tt = nn_transpose(ctx, m, 0, 1);
            CHECK(tt && !nn_tensor_is_contiguous(tt));
            snprintf(what, sizeof what, "%s transposed, value %d", nn_dtype_name(dts[d]), k);
            agrees(tt, what);
            nn_tensor_release(tt);
        }
        nn_tensor_release(m);
    }
    nn_ctx_free(ctx);
}

/* Long enough to be split between two threads: a value in either half. */
NN_TEST(anomaly_scan_split_between_threads) {
    nn_ctx *ctx = nn_ctx_new(0);
    int prev = nn_get_num_threads();
    nn_set_num_threads(2);
    int64_t n = (int64_t)3 << 19;
    nn_tensor *t = nn_tensor_empty(ctx, NN_FLOAT32, 1, (int64_t[]){n});
    int64_t places[] = {0, n / 2 - 1, n / 2 + 1, n - 1};
    for (int p = 0; p < 4; p++) {
        fill(t, 0.5);
        CHECK(nn_tensor_nonfinite(t, NULL, NULL) == 0);
        put(t, places[p], NAN);
        agrees(t, "split scan");
    }
    nn_tensor_release(t);
    nn_set_num_threads(prev);
    nn_ctx_free(ctx);
}

static void keep(void *user) {
    (void)user;
}

NN_TEST(anomaly_finite_note_voided_by_writes) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *p = nn_tensor_empty(ctx, NN_FLOAT32, 2, (int64_t[]){3, 4});
    fill(p, 1.0);
    CHECK(!nn_tensor_known_finite(p));
    nn_tensor_mark_finite(p);
    CHECK(nn_tensor_known_finite(p));
    /* an in-place write bumps the version: the note no longer holds */
    CHECK(nn_tensor_fill_(ctx, p, NAN) == NN_OK);
    CHECK(!nn_tensor_known_finite(p));
    /* a view that does not span its storage is never noted */
    CHECK(nn_tensor_fill_(ctx, p, 1.0) == NN_OK);
    nn_tensor *row = nn_slice(ctx, p, 0, 1, 2, 1);
    CHECK(row != NULL);
    nn_tensor_mark_finite(row);
    CHECK(!nn_tensor_known_finite(row));
    CHECK(!nn_tensor_known_finite(p));
    nn_tensor_release(row);
    /* memory the engine does not own (NumPy's) is never noted */
    static float outside[4] = {1, 2, 3, 4};
    nn_tensor *ext = nn_tensor_from_external(ctx, NN_FLOAT32, 1, (int64_t[]){4}, (int64_t[]){1},
                                             outside, sizeof outside, keep, NULL);
    CHECK(ext != NULL);
    nn_tensor_mark_finite(ext);
    CHECK(!nn_tensor_known_finite(ext));
    nn_tensor_release(ext);
    nn_tensor_release(p);
    nn_ctx_free(ctx);
}
