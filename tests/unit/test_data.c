/* Dataset, split, DataLoader, text corpus and planted-bug tests: same seed
 * gives the same data, shapes and label ranges hold, the loader visits every
 * sample once per epoch, splits are disjoint, and every plantable bug
 * produces exactly the defect docs/datasets.md documents. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn_data.h"
#include "nn_text.h"
#include "testutil.h"

/* ---- helpers ---- */

static size_t row_bytes(const nn_tensor *t) {
    size_t m = nn_dtype_size(t->dtype);
    for (int i = 1; i < t->ndim; i++) m *= (size_t)t->shape[i];
    return m;
}

static const void *row_ptr(const nn_tensor *t, int64_t i) {
    return (const char *)nn_tensor_data(t) + (size_t)i * row_bytes(t);
}

static bool rows_equal(const nn_tensor *a, int64_t i, const nn_tensor *b, int64_t j) {
    return row_bytes(a) == row_bytes(b) && memcmp(row_ptr(a, i), row_ptr(b, j), row_bytes(a)) == 0;
}

static bool same_bytes(const nn_tensor *a, const nn_tensor *b) {
    if (!a || !b) return a == b;
    return a->dtype == b->dtype && nn_tensor_same_shape(a, b) &&
           memcmp(nn_tensor_data(a), nn_tensor_data(b),
                  (size_t)nn_tensor_numel(a) * nn_dtype_size(a->dtype)) == 0;
}

static bool same_data(const nn_dataset *a, const nn_dataset *b) {
    return a->n == b->n && same_bytes(a->x, b->x) && same_bytes(a->y, b->y) &&
           same_bytes(a->mask, b->mask);
}

static void count_labels(const nn_dataset *ds, int64_t *counts, int64_t classes) {
    memset(counts, 0, (size_t)classes * sizeof *counts);
    const int64_t *y = nn_tensor_data(ds->y);
    for (int64_t i = 0; i < nn_tensor_numel(ds->y); i++) counts[y[i]]++;
}

static bool labels_in_range(const nn_dataset *ds) {
    const int64_t *y = nn_tensor_data(ds->y);
    for (int64_t i = 0; i < nn_tensor_numel(ds->y); i++)
        if (y[i] < 0 || y[i] >= ds->num_classes) return false;
    return true;
}

static bool has_shape(const nn_tensor *t, nn_dtype dt, int ndim, const int64_t *shape) {
    if (!t || t->dtype != dt || t->ndim != ndim) return false;
    for (int i = 0; i < ndim; i++)
        if (t->shape[i] != shape[i]) return false;
    return true;
}

/* A dataset whose x row i is the number i (and y = i % 3), so rows can be
 * traced through splits and loaders. */
static nn_dataset *numbered(nn_ctx *ctx, int64_t n) {
    nn_dataset *ds = nn_data_alloc(ctx, "numbered");
    ds->n = n;
    ds->num_classes = 3;
    ds->x = nn_tensor_empty(ctx, NN_FLOAT32, 2, TU_SHAPE(n, 1));
    ds->y = nn_tensor_empty(ctx, NN_INT64, 1, &n);
    for (int64_t i = 0; i < n; i++) {
        ((float *)nn_tensor_data(ds->x))[i] = (float)i;
        ((int64_t *)nn_tensor_data(ds->y))[i] = i % 3;
    }
    return ds;
}

static int64_t row_id(const nn_tensor *x, int64_t i) {
    return (int64_t)((const float *)nn_tensor_data(x))[i];
}

/* Writes [len] bytes to a fresh file under /tmp; [path] gets its name. */
static bool write_temp(char path[64], const void *data, size_t len) {
    strcpy(path, "/tmp/nndb_data_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return false;
    bool ok = write(fd, data, len) == (ssize_t)len;
    close(fd);
    return ok;
}

static bool mentions(nn_ctx *ctx, const char *s) {
    bool ok = strstr(nn_ctx_error(ctx), s) != NULL;
    if (!ok) fprintf(stderr, "  message \"%s\" does not mention \"%s\"\n", nn_ctx_error(ctx), s);
    return ok;
}

/* Every generator, built twice from the same arguments. */
static nn_dataset *make(nn_ctx *ctx, int which, uint64_t seed) {
    switch (which) {
    case 0: return nn_data_spirals(ctx, 300, 3, 0.2, seed);
    case 1: return nn_data_moons(ctx, 301, 0.1, seed);
    case 2: return nn_data_blobs(ctx, 100, 4, 3, 0.5, seed);
    case 3: return nn_data_xor(ctx, 400, 0.1, seed);
    case 4: return nn_data_regression(ctx, 50, 4, 2, 0.1, seed);
    case 5: return nn_data_copy(ctx, 64, 10, 8, seed);
    }
    return NULL;
}

/* ---- determinism, shapes, ranges ---- */

NN_TEST(data_same_seed_same_data) {
    nn_ctx *ctx = nn_ctx_new(0);
    for (int w = 0; w < 6; w++) {
        nn_dataset *a = make(ctx, w, 7), *b = make(ctx, w, 7), *c = make(ctx, w, 8);
        CHECK_MSG(a && b && c, "dataset %d: %s", w, nn_ctx_error(ctx));
        if (a && b && c) {
            CHECK_MSG(same_data(a, b), "%s differs with the same seed", a->name);
            CHECK_MSG(!same_data(a, c), "%s is the same with another seed", a->name);
            CHECK(same_bytes(a->true_w, b->true_w));
        }
        /* The session's generator plays no part. */
        nn_ctx_seed(ctx, 1234 + (uint64_t)w);
        nn_data_free(a);
        nn_data_free(b);
        nn_data_free(c);
    }
    nn_ctx_free(ctx);
}

NN_TEST(data_classification_shapes_and_balance) {
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t counts[8];

    nn_dataset *s = nn_data_spirals(ctx, 300, 3, 0.2, 1);
    CHECK(has_shape(s->x, NN_FLOAT32, 2, TU_SHAPE(300, 2)));
    CHECK(has_shape(s->y, NN_INT64, 1, TU_SHAPE(300)));
    CHECK(s->num_classes == 3 && labels_in_range(s) && !s->mask);
    count_labels(s, counts, 3);
    CHECK(counts[0] == 100 && counts[1] == 100 && counts[2] == 100);
    /* Rows are shuffled, so the first 30 are not all one class. */
    int64_t first = ((int64_t *)nn_tensor_data(s->y))[0], same = 0;
    for (int i = 0; i < 30; i++) same += ((int64_t *)nn_tensor_data(s->y))[i] == first;
    CHECK(same < 30);
    CHECK(strstr(s->description, "spirals") && strstr(s->description, "[300, 2]"));
    /* Points lie within radius 1. */
    for (int64_t i = 0; i < 300; i++) {
        double a = nn_tensor_get_flat(s->x, 2 * i), b = nn_tensor_get_flat(s->x, 2 * i + 1);
        CHECK(a * a + b * b <= 1.0 + 1e-6);
    }

    nn_dataset *m = nn_data_moons(ctx, 301, 0.0, 1);
    CHECK(has_shape(m->x, NN_FLOAT32, 2, TU_SHAPE(301, 2)) && labels_in_range(m));
    count_labels(m, counts, 2);
    CHECK(counts[0] == 150 && counts[1] == 151);
    /* Without noise, class 0 lies on the unit upper arc, class 1 on the
     * lower arc centred at (1, 0.5). */
    for (int64_t i = 0; i < 301; i++) {
        double a = nn_tensor_get_flat(m->x, 2 * i), b = nn_tensor_get_flat(m->x, 2 * i + 1);
        double r = nn_tensor_get_flat(m->y, i) ? hypot(a - 1, b - 0.5) : hypot(a, b);
        CHECK_NEAR(r, 1.0, 1e-5);
    }

    nn_dataset *b = nn_data_blobs(ctx, 100, 4, 3, 0.5, 1);
    CHECK(has_shape(b->x, NN_FLOAT32, 2, TU_SHAPE(100, 3)) && labels_in_range(b));
    CHECK(has_shape(b->true_w, NN_FLOAT32, 2, TU_SHAPE(4, 3)));
    count_labels(b, counts, 4);
    CHECK(counts[0] == 25 && counts[1] == 25 && counts[2] == 25 && counts[3] == 25);
    double worst = 0;
    for (int64_t i = 0; i < 100; i++) {
        int64_t k = (int64_t)nn_tensor_get_flat(b->y, i);
        for (int j = 0; j < 3; j++) {
            double d =
                nn_tensor_get_flat(b->x, 3 * i + j) - nn_tensor_get_flat(b->true_w, 3 * k + j);
            worst = fmax(worst, fabs(d));
        }
    }
    CHECK_MSG(worst < 0.5 * 6, "a point lies %g from its centre (std 0.5)", worst);

    nn_dataset *x = nn_data_xor(ctx, 400, 0.1, 1);
    count_labels(x, counts, 2);
    CHECK(counts[0] == 200 && counts[1] == 200);
    for (int64_t i = 0; i < 400; i++) {
        bool p = nn_tensor_get_flat(x->x, 2 * i) > 0, q = nn_tensor_get_flat(x->x, 2 * i + 1) > 0;
        CHECK(nn_tensor_get_flat(x->y, i) == (double)(p != q));
    }
    nn_data_free(s);
    nn_data_free(m);
    nn_data_free(b);
    nn_data_free(x);
    nn_ctx_free(ctx);
}

NN_TEST(data_regression_matches_true_weights) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = nn_data_regression(ctx, 50, 4, 2, 0.0, 3);
    CHECK(has_shape(ds->x, NN_FLOAT32, 2, TU_SHAPE(50, 4)));
    CHECK(has_shape(ds->y, NN_FLOAT32, 2, TU_SHAPE(50, 2)));
    CHECK(has_shape(ds->true_w, NN_FLOAT32, 2, TU_SHAPE(2, 4)));
    CHECK(has_shape(ds->true_b, NN_FLOAT32, 1, TU_SHAPE(2)));
    CHECK(ds->num_classes == 0);
    nn_tensor *pred = nn_linear(ctx, ds->x, ds->true_w, ds->true_b);
    CHECK(tu_close_tensor(pred, ds->y, 1e-5, 1e-5, "x W^T + b"));
    nn_tensor_release(pred);
    nn_dataset *noisy = nn_data_regression(ctx, 2000, 4, 2, 0.5, 3);
    pred = nn_linear(ctx, noisy->x, noisy->true_w, noisy->true_b);
    double ss = 0;
    for (int64_t i = 0; i < 4000; i++) {
        double d = nn_tensor_get_flat(noisy->y, i) - nn_tensor_get_flat(pred, i);
        ss += d * d;
    }
    CHECK_NEAR(sqrt(ss / 4000), 0.5, 0.05);
    nn_tensor_release(pred);
    nn_data_free(ds);
    nn_data_free(noisy);
    nn_ctx_free(ctx);
}

NN_TEST(data_copy_task_layout) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = nn_data_copy(ctx, 64, 10, 8, 5);
    CHECK(has_shape(ds->x, NN_INT64, 2, TU_SHAPE(64, 10)));
    CHECK(has_shape(ds->y, NN_INT64, 2, TU_SHAPE(64, 10)));
    CHECK(has_shape(ds->mask, NN_BOOL, 2, TU_SHAPE(64, 10)));
    CHECK(same_bytes(ds->x, ds->y) && ds->num_classes == 8);
    const int64_t *x = nn_tensor_data(ds->x);
    const bool *m = nn_tensor_data(ds->mask);
    for (int64_t r = 0; r < 64; r++) {
        int64_t len = 0;
        while (len < 10 && m[r * 10 + len]) len++;
        CHECK(len >= 5);
        for (int64_t t = 0; t < 10; t++) {
            CHECK(m[r * 10 + t] == (t < len)); /* real tokens, then padding */
            int64_t v = x[r * 10 + t];
            CHECK(t < len ? (v >= 1 && v < 8) : v == 0);
        }
    }
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

NN_TEST(data_bad_arguments) {
    nn_ctx *ctx = nn_ctx_new(0);
    CHECK(!nn_data_spirals(ctx, 300, 1, 0.2, 0) && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(mentions(ctx, "spirals") && mentions(ctx, "classes"));
    CHECK(!nn_data_moons(ctx, 100, NAN, 0) && mentions(ctx, "noise"));
    CHECK(!nn_data_blobs(ctx, 100, 3, 0, 1.0, 0) && mentions(ctx, "dim"));
    CHECK(!nn_data_copy(ctx, 10, 5, 1, 0) && mentions(ctx, "vocab"));
    CHECK(!nn_data_regression(ctx, 0, 2, 2, 0.1, 0) && mentions(ctx, "regression"));
    nn_dataset *ds = numbered(ctx, 10);
    nn_loader *l = nn_loader_new(ctx, ds, &(nn_loader_config){.batch_size = 0});
    CHECK(!l && mentions(ctx, "batch_size"));
    nn_dataset *t = NULL, *v = NULL, *te = NULL;
    CHECK(nn_data_split(ctx, ds, 0.8, 0.3, 0, &t, &v, &te) == NN_ERR_VALUE && !t && !v && !te);
    CHECK(mentions(ctx, "numbered"));
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

/* ---- DataLoader ---- */

/* Runs one epoch; every row of [ds] must come exactly once with its own x,
 * y and mask. Returns the number of batches seen. */
static int64_t check_epoch(nn_ctx *ctx, nn_loader *l, const nn_dataset *ds, int64_t bs,
                           bool drop_last, int64_t *order) {
    int64_t *seen = calloc((size_t)ds->n, sizeof *seen), batches = 0, k = 0;
    nn_loader_batch b = {0};
    while (nn_loader_next(ctx, l, &b)) {
        batches++;
        CHECK(b.size == b.x->shape[0] && b.size == b.y->shape[0] && b.size == b.index->shape[0]);
        CHECK(b.size == bs || (!drop_last && b.size < bs));
        CHECK((b.mask != NULL) == (ds->mask != NULL));
        for (int64_t i = 0; i < b.size; i++) {
            int64_t r = (int64_t)nn_tensor_get_flat(b.index, i);
            seen[r]++;
            if (order) order[k++] = r;
            CHECK(rows_equal(b.x, i, ds->x, r) && rows_equal(b.y, i, ds->y, r));
            if (b.mask) CHECK(rows_equal(b.mask, i, ds->mask, r));
        }
    }
    CHECK(nn_loader_status(l) == NN_OK);
    nn_loader_batch_clear(&b);
    int64_t expect_rows = drop_last ? ds->n / bs * bs : ds->n, rows = 0;
    for (int64_t r = 0; r < ds->n; r++) {
        CHECK(seen[r] <= 1);
        rows += seen[r];
    }
    CHECK(rows == expect_rows);
    free(seen);
    return batches;
}

NN_TEST(data_loader_covers_every_sample_once) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = nn_data_copy(ctx, 103, 6, 5, 0);
    for (int shuffle = 0; shuffle < 2; shuffle++) {
        nn_loader *l =
            nn_loader_new(ctx, ds, &(nn_loader_config){.batch_size = 10, .shuffle = shuffle});
        CHECK(nn_loader_num_batches(l) == 11);
        int64_t order[103];
        CHECK(check_epoch(ctx, l, ds, 10, false, order) == 11);
        bool in_order = true;
        for (int i = 0; i < 103; i++) in_order = in_order && order[i] == i;
        CHECK(in_order == !shuffle);
        CHECK(nn_loader_epoch(l) == 1);
        CHECK(check_epoch(ctx, l, ds, 10, false, NULL) == 11);
        nn_loader_free(l);
    }
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

NN_TEST(data_loader_drop_last) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = numbered(ctx, 103);
    nn_loader *l = nn_loader_new(
        ctx, ds, &(nn_loader_config){.batch_size = 10, .shuffle = true, .drop_last = true});
    CHECK(nn_loader_num_batches(l) == 10);
    CHECK(check_epoch(ctx, l, ds, 10, true, NULL) == 10);
    nn_loader_free(l);
    /* A batch larger than the dataset: one short batch, or none. */
    l = nn_loader_new(ctx, ds, &(nn_loader_config){.batch_size = 500});
    CHECK(nn_loader_num_batches(l) == 1 && check_epoch(ctx, l, ds, 500, false, NULL) == 1);
    nn_loader_free(l);
    l = nn_loader_new(ctx, ds, &(nn_loader_config){.batch_size = 500, .drop_last = true});
    CHECK(nn_loader_num_batches(l) == 0 && check_epoch(ctx, l, ds, 500, true, NULL) == 0);
    nn_loader_free(l);
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

NN_TEST(data_loader_reshuffles_deterministically) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = numbered(ctx, 50);
    nn_loader_config cfg = {.batch_size = 8, .shuffle = true, .seed = 11};
    nn_loader *a = nn_loader_new(ctx, ds, &cfg), *b = nn_loader_new(ctx, ds, &cfg);
    nn_data_free(ds); /* the loaders keep their own references */
    int64_t e0[50], e1[50], again[50];
    memcpy(e0, nn_loader_order(a), sizeof e0);
    CHECK(memcmp(e0, nn_loader_order(b), sizeof e0) == 0);
    nn_loader_batch batch = {0};
    int64_t n = 0;
    while (nn_loader_next(ctx, a, &batch)) n++;
    CHECK(n == 7 && nn_loader_epoch(a) == 1);
    memcpy(e1, nn_loader_order(a), sizeof e1);
    CHECK(memcmp(e0, e1, sizeof e0) != 0);
    /* b jumps to epoch 1 directly: same order as a's second epoch. */
    nn_loader_reset(b, 1);
    CHECK(memcmp(e1, nn_loader_order(b), sizeof e1) == 0);
    nn_loader_reset(a, 0);
    memcpy(again, nn_loader_order(a), sizeof again);
    CHECK(memcmp(e0, again, sizeof e0) == 0 && nn_loader_epoch(a) == 0);
    /* The first batch after a reset is the first rows of the order, and x
     * carries the row numbers. */
    CHECK(nn_loader_next(ctx, a, &batch) && batch.size == 8);
    for (int i = 0; i < 8; i++) CHECK(row_id(batch.x, i) == e0[i]);
    nn_loader_batch_clear(&batch);
    nn_loader_free(a);
    nn_loader_free(b);
    nn_ctx_free(ctx);
}

/* ---- splits ---- */

NN_TEST(data_split_fractions_and_disjointness) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *ds = numbered(ctx, 1000), *tr, *va, *te;
    CHECK(nn_data_split(ctx, ds, 0.7, 0.2, 3, &tr, &va, &te) == NN_OK);
    CHECK(tr->n == 700 && va->n == 200 && te->n == 100);
    CHECK(strcmp(tr->name, "numbered[train]") == 0 && strcmp(te->name, "numbered[test]") == 0);
    CHECK(strstr(va->description, "split: val, 200 of 1000"));
    int seen[1000] = {0};
    nn_dataset *parts[3] = {tr, va, te};
    for (int p = 0; p < 3; p++)
        for (int64_t i = 0; i < parts[p]->n; i++) {
            int64_t r = row_id(parts[p]->x, i);
            seen[r]++;
            CHECK(nn_tensor_get_flat(parts[p]->y, i) == (double)(r % 3)); /* y follows x */
        }
    bool once = true;
    for (int r = 0; r < 1000; r++) once = once && seen[r] == 1;
    CHECK_MSG(once, "every row must land in exactly one split");
    CHECK(!tr->leaked_rows && !tr->leaked_from);
    /* Same seed, same split; another seed, another split. */
    nn_dataset *tr2, *va2, *te2;
    CHECK(nn_data_split(ctx, ds, 0.7, 0.2, 3, &tr2, &va2, &te2) == NN_OK);
    CHECK(same_data(tr, tr2) && same_data(va, va2) && same_data(te, te2));
    nn_data_free(tr2);
    nn_data_free(va2);
    nn_data_free(te2);
    CHECK(nn_data_split(ctx, ds, 0.7, 0.2, 4, &tr2, &va2, &te2) == NN_OK);
    CHECK(!same_data(tr, tr2));
    nn_data_free(tr2);
    nn_data_free(va2);
    nn_data_free(te2);
    /* No test fraction: an empty test split that a loader handles. */
    CHECK(nn_data_split(ctx, ds, 0.8, 0.2, 3, &tr2, &va2, &te2) == NN_OK);
    CHECK(tr2->n == 800 && va2->n == 200 && te2->n == 0);
    nn_loader *l = nn_loader_new(ctx, te2, &(nn_loader_config){.batch_size = 4});
    nn_loader_batch b = {0};
    CHECK(l && nn_loader_num_batches(l) == 0 && !nn_loader_next(ctx, l, &b));
    nn_loader_free(l);
    nn_data_free(tr2);
    nn_data_free(va2);
    nn_data_free(te2);
    for (int p = 0; p < 3; p++) nn_data_free(parts[p]);
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

/* ---- text corpora ---- */

NN_TEST(data_vocab_encode_decode) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_vocab *v = nn_vocab_new(ctx, ".abcdefghijklmnopqrstuvwxyz");
    CHECK(nn_vocab_size(v) == 27);
    CHECK(strcmp(nn_vocab_itos(v, 0), ".") == 0 && strcmp(nn_vocab_itos(v, 26), "z") == 0);
    CHECK(nn_vocab_stoi(v, ".") == 0 && nn_vocab_stoi(v, "a") == 1 && nn_vocab_stoi(v, "Q") == -1);
    CHECK(!nn_vocab_itos(v, 27) && !nn_vocab_itos(v, -1));
    nn_tensor *ids = nn_vocab_encode(ctx, v, "hello.");
    CHECK(tu_close(ids, 1, TU_SHAPE(6), TU_VALS(8, 5, 12, 12, 15, 0), 0, 0, "encode"));
    char *s = nn_vocab_decode(ctx, v, ids);
    CHECK(s && strcmp(s, "hello.") == 0);
    free(s);
    nn_tensor_release(ids);
    CHECK(!nn_vocab_encode(ctx, v, "h\xc3\xa9llo") && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(mentions(ctx, "\xc3\xa9") && mentions(ctx, "position 1"));
    nn_tensor *bad = tu_tensor(ctx, NN_INT64, 1, TU_SHAPE(2), TU_VALS(1, 27));
    CHECK(!nn_vocab_decode(ctx, v, bad) && nn_ctx_status(ctx) == NN_ERR_INDEX);
    nn_tensor_release(bad);
    CHECK(!nn_vocab_new(ctx, "abca") && mentions(ctx, "twice"));
    nn_vocab_release(v);
    nn_ctx_free(ctx);
}

NN_TEST(data_words_corpus) {
    nn_ctx *ctx = nn_ctx_new(0);
    if (access(NN_DATA_WORDS_PATH, R_OK) != 0) {
        fprintf(stderr, "  note: %s missing (apt-get install wamerican); corpus checks skipped\n",
                NN_DATA_WORDS_PATH);
        nn_ctx_free(ctx);
        return;
    }
    nn_dataset *ds = nn_data_words(ctx, NULL, 3, 42);
    CHECK_MSG(ds, "%s", nn_ctx_error(ctx));
    if (!ds) {
        nn_ctx_free(ctx);
        return;
    }
    CHECK(nn_vocab_size(ds->vocab) == 27 && ds->num_classes == 27 && labels_in_range(ds));
    CHECK(strcmp(nn_vocab_itos(ds->vocab, 0), ".") == 0);
    CHECK(has_shape(ds->x, NN_INT64, 2, TU_SHAPE(ds->n, 3)) && ds->n > 100000);
    CHECK(strstr(ds->description, NN_DATA_WORDS_PATH) != NULL);
    /* A known word encodes and decodes. */
    nn_tensor *ids = nn_vocab_encode(ctx, ds->vocab, "zebra");
    CHECK(tu_close(ids, 1, TU_SHAPE(5), TU_VALS(26, 5, 2, 18, 1), 0, 0, "zebra"));
    char *s = nn_vocab_decode(ctx, ds->vocab, ids);
    CHECK(s && strcmp(s, "zebra") == 0);
    free(s);
    nn_tensor_release(ids);
    /* The first word: y spells it up to '.', and each context is the three
     * characters before, padded with '.'. */
    const int64_t *x = nn_tensor_data(ds->x), *y = nn_tensor_data(ds->y);
    int64_t len = 0;
    while (y[len] != 0) len++;
    CHECK(len >= 1 && len < 40);
    for (int64_t t = 0; t <= len; t++)
        for (int b = 0; b < 3; b++) {
            int64_t p = t - 3 + b;
            CHECK(x[t * 3 + b] == (p < 0 ? 0 : y[p]));
        }
    /* Another seed shuffles the words differently. */
    nn_dataset *other = nn_data_words(ctx, NULL, 3, 43);
    CHECK(other && other->n == ds->n && !same_data(ds, other));
    nn_data_free(other);
    nn_data_free(ds);
    nn_ctx_free(ctx);
}

NN_TEST(data_words_custom_file) {
    nn_ctx *ctx = nn_ctx_new(0);
    char path[64];
    /* Only "emma" is a lowercase a-z word. */
    const char *text = "emma\r\nOlivia\nx'y\n\n\xc3\xa9t\xc3\xa9\n";
    CHECK(write_temp(path, text, strlen(text)));
    nn_dataset *ds = nn_data_words(ctx, path, 3, 0);
    CHECK_MSG(ds, "%s", nn_ctx_error(ctx));
    if (ds) {
        CHECK(ds->n == 5);
        CHECK(tu_close(ds->x, 2, TU_SHAPE(5, 3),
                       TU_VALS(0, 0, 0, 0, 0, 5, 0, 5, 13, 5, 13, 13, 13, 13, 1), 0, 0,
                       "contexts"));
        CHECK(tu_close(ds->y, 1, TU_SHAPE(5), TU_VALS(5, 13, 13, 1, 0), 0, 0, "next characters"));
        CHECK(strstr(ds->description, "3 lines not made of a-z skipped"));
    }
    nn_data_free(ds);
    unlink(path);
    /* Nothing usable: a clear error naming the file. */
    CHECK(write_temp(path, "Alice\nBob\n", 10));
    CHECK(!nn_data_words(ctx, path, 3, 0) && mentions(ctx, path) && mentions(ctx, "a-z"));
    unlink(path);
    nn_ctx_free(ctx);
}

NN_TEST(data_text_file) {
    nn_ctx *ctx = nn_ctx_new(0);
    char path[64];
    const char *text = "hello world\n";
    CHECK(write_temp(path, text, strlen(text)));
    nn_dataset *ds = nn_data_text(ctx, path, 4, 0);
    CHECK_MSG(ds, "%s", nn_ctx_error(ctx));
    if (ds) {
        /* Sorted characters: '\n' ' ' d e h l o r w. */
        CHECK(nn_vocab_size(ds->vocab) == 9 && ds->num_classes == 9);
        CHECK(strcmp(nn_vocab_itos(ds->vocab, 0), "\n") == 0);
        CHECK(nn_vocab_stoi(ds->vocab, "w") == 8);
        CHECK(ds->n == 2 && has_shape(ds->y, NN_INT64, 2, TU_SHAPE(2, 4)));
        const char *want_x[2] = {"hell", "o wo"}, *want_y[2] = {"ello", " wor"};
        for (int w = 0; w < 2; w++) {
            nn_tensor *xr = nn_select(ctx, ds->x, 0, w), *yr = nn_select(ctx, ds->y, 0, w);
            char *sx = nn_vocab_decode(ctx, ds->vocab, xr),
                 *sy = nn_vocab_decode(ctx, ds->vocab, yr);
            CHECK(sx && sy && strcmp(sx, want_x[w]) == 0 && strcmp(sy, want_y[w]) == 0);
            free(sx);
            free(sy);
            nn_tensor_release(xr);
            nn_tensor_release(yr);
        }
    }
    nn_data_free(ds);
    /* Stride 1: every window, each y the window one character on. */
    ds = nn_data_text(ctx, path, 4, 1);
    CHECK(ds && ds->n == 8);
    for (int64_t w = 0; ds && w < 8; w++) {
        nn_tensor *xr = nn_select(ctx, ds->x, 0, w), *yr = nn_select(ctx, ds->y, 0, w);
        char *sx = nn_vocab_decode(ctx, ds->vocab, xr), *sy = nn_vocab_decode(ctx, ds->vocab, yr);
        CHECK(strncmp(sx, text + w, 4) == 0 && strncmp(sy, text + w + 1, 4) == 0);
        free(sx);
        free(sy);
        nn_tensor_release(xr);
        nn_tensor_release(yr);
    }
    nn_data_free(ds);
    unlink(path);
    /* Multi-byte characters are single tokens. */
    const char *utf = "na\xc3\xafve caf\xc3\xa9 \xe2\x86\x92 ok";
    CHECK(write_temp(path, utf, strlen(utf)));
    ds = nn_data_text(ctx, path, 3, 1);
    CHECK_MSG(ds, "%s", nn_ctx_error(ctx));
    if (ds) {
        nn_tensor *ids = nn_vocab_encode(ctx, ds->vocab, utf);
        CHECK(ids && ids->shape[0] == 15);
        char *back = ids ? nn_vocab_decode(ctx, ds->vocab, ids) : NULL;
        CHECK(back && strcmp(back, utf) == 0);
        CHECK(nn_vocab_stoi(ds->vocab, "\xe2\x86\x92") == nn_vocab_size(ds->vocab) - 1);
        free(back);
        nn_tensor_release(ids);
    }
    nn_data_free(ds);
    unlink(path);
    nn_ctx_free(ctx);
}

NN_TEST(data_text_file_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    const char *missing = "/nonexistent/nndb/words";
    CHECK(!nn_data_words(ctx, missing, 3, 0) && nn_ctx_status(ctx) == NN_ERR_IO);
    CHECK(mentions(ctx, missing) && mentions(ctx, "No such file"));
    CHECK(!nn_data_text(ctx, missing, 8, 0) && mentions(ctx, missing));
    CHECK(!nn_data_text(ctx, "/tmp", 8, 0) && mentions(ctx, "not a regular file"));
    char path[64];
    CHECK(write_temp(path, "", 0));
    CHECK(!nn_data_text(ctx, path, 8, 0) && mentions(ctx, path) && mentions(ctx, "empty"));
    CHECK(!nn_data_words(ctx, path, 3, 0) && mentions(ctx, "empty"));
    unlink(path);
    CHECK(write_temp(path, "ab\ncd\xff\n", 7));
    CHECK(!nn_data_text(ctx, path, 2, 0) && nn_ctx_status(ctx) == NN_ERR_VALUE);
    CHECK(mentions(ctx, path) && mentions(ctx, "UTF-8") && mentions(ctx, "offset 5") &&
          mentions(ctx, "line 2"));
    CHECK(!nn_data_words(ctx, path, 3, 0) && mentions(ctx, "offset 5"));
    unlink(path);
    /* A truncated multi-byte character at the end. */
    CHECK(write_temp(path, "abc\xe2\x86", 5));
    CHECK(!nn_data_text(ctx, path, 2, 0) && mentions(ctx, "offset 3"));
    unlink(path);
    CHECK(write_temp(path, "abc", 3));
    CHECK(!nn_data_text(ctx, path, 8, 0) && mentions(ctx, "at least 9"));
    unlink(path);
    /* Above the size cap: a sparse file costs no disk. */
    CHECK(write_temp(path, "a", 1));
    CHECK(truncate(path, NN_DATA_MAX_FILE_BYTES + 1) == 0);
    CHECK(!nn_data_text(ctx, path, 8, 0) && mentions(ctx, path) && mentions(ctx, "limit"));
    unlink(path);
    nn_ctx_free(ctx);
}

/* ---- planted bugs: one test each ---- */

static nn_dataset *planted(nn_ctx *ctx, const nn_dataset *clean, unsigned flag) {
    nn_data_bugs b = nn_data_bugs_init(flag);
    b.seed = 5;
    nn_dataset *ds = nn_data_plant(ctx, clean, &b);
    CHECK_MSG(ds, "%s", nn_ctx_error(ctx));
    if (ds) {
        CHECK(ds->bugs.flags & flag);
        CHECK_MSG(strstr(ds->description, nn_data_bug_name(flag)),
                  "the description must name the bug: %s", ds->description);
    }
    return ds;
}

NN_TEST(data_bug_shuffled_labels) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_spirals(ctx, 300, 3, 0.2, 1);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_SHUFFLED_LABELS);
    CHECK(same_bytes(ds->x, clean->x) && !same_bytes(ds->y, clean->y));
    int64_t a[3], b[3], agree = 0;
    count_labels(clean, a, 3);
    count_labels(ds, b, 3);
    CHECK(a[0] == b[0] && a[1] == b[1] && a[2] == b[2]); /* same labels, wrong rows */
    for (int64_t i = 0; i < 300; i++)
        agree += nn_tensor_get_flat(ds->y, i) == nn_tensor_get_flat(clean->y, i);
    CHECK_MSG(agree < 150, "%lld of 300 labels still match (chance is 1/3)", (long long)agree);
    /* The clean dataset is untouched, and the same bug seed plants the same bug. */
    nn_dataset *fresh = nn_data_spirals(ctx, 300, 3, 0.2, 1),
               *again = planted(ctx, fresh, NN_DATA_BUG_SHUFFLED_LABELS);
    CHECK(same_data(clean, fresh) && same_data(ds, again));
    nn_data_free(fresh);
    nn_data_free(again);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_off_by_one) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_spirals(ctx, 300, 3, 0.2, 1);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_OFF_BY_ONE);
    CHECK(same_bytes(ds->x, clean->x) && labels_in_range(ds));
    for (int64_t i = 0; i < 300; i++)
        CHECK(nn_tensor_get_flat(ds->y, i) ==
              (double)(((int64_t)nn_tensor_get_flat(clean->y, i) + 1) % 3));
    nn_data_free(ds);
    /* Float targets have no classes to shift. */
    nn_dataset *reg = nn_data_regression(ctx, 10, 2, 1, 0.1, 0);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_OFF_BY_ONE);
    CHECK(!nn_data_plant(ctx, reg, &b) && nn_ctx_status(ctx) == NN_ERR_TYPE);
    CHECK(mentions(ctx, "regression") && mentions(ctx, "labels off by one"));
    nn_data_free(reg);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_relabel_one_class) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_spirals(ctx, 300, 3, 0.2, 1);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_RELABEL);
    b.relabel_from = 0;
    b.relabel_to = 2;
    nn_dataset *ds = nn_data_plant(ctx, clean, &b);
    for (int64_t i = 0; i < 300; i++) {
        double c = nn_tensor_get_flat(clean->y, i), d = nn_tensor_get_flat(ds->y, i);
        CHECK(d == (c == 0 ? 2 : c));
    }
    int64_t counts[3];
    count_labels(ds, counts, 3);
    CHECK(counts[0] == 0 && counts[1] == 100 && counts[2] == 200);
    CHECK(strstr(ds->description, "class 0 became class 2 (100 labels)"));
    b.relabel_to = 3;
    CHECK(!nn_data_plant(ctx, clean, &b) && mentions(ctx, "relabel_to 3"));
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_train_val_leakage) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = numbered(ctx, 1000);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_LEAKAGE);
    CHECK(same_data(ds, clean)); /* nothing happens before the split */
    nn_dataset *tr, *va, *te, *ctr, *cva, *cte;
    CHECK(nn_data_split(ctx, ds, 0.7, 0.2, 3, &tr, &va, &te) == NN_OK);
    CHECK(nn_data_split(ctx, clean, 0.7, 0.2, 3, &ctr, &cva, &cte) == NN_OK);
    /* val and test are as in the clean split; train gains 10% of val. */
    CHECK(same_data(va, cva) && same_data(te, cte));
    CHECK(tr->n == 720 && va->n == 200);
    CHECK(has_shape(tr->leaked_rows, NN_INT64, 1, TU_SHAPE(20)));
    for (int64_t i = 0; i < 20; i++) {
        int64_t r = (int64_t)nn_tensor_get_flat(tr->leaked_rows, i);
        int64_t v = (int64_t)nn_tensor_get_flat(tr->leaked_from, i);
        CHECK(rows_equal(tr->x, r, va->x, v) && rows_equal(tr->y, r, va->y, v));
    }
    /* Exactly 20 val rows appear verbatim in train, each once. */
    int in_train[1000] = {0};
    for (int64_t i = 0; i < tr->n; i++) in_train[row_id(tr->x, i)]++;
    int64_t overlap = 0;
    for (int64_t i = 0; i < va->n; i++) overlap += in_train[row_id(va->x, i)];
    CHECK_MSG(overlap == 20, "overlap %lld", (long long)overlap);
    for (int64_t i = 0; i < te->n; i++) CHECK(in_train[row_id(te->x, i)] == 0);
    CHECK(strstr(tr->description, "train rows 700..719 are verbatim copies of val rows 0..19"));
    nn_dataset *all[6] = {tr, va, te, ctr, cva, cte};
    for (int i = 0; i < 6; i++) nn_data_free(all[i]);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_unnormalised_column) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_blobs(ctx, 60, 3, 4, 1.0, 2);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_UNNORMALISED);
    b.scale_column = 2;
    nn_dataset *ds = nn_data_plant(ctx, clean, &b);
    CHECK(same_bytes(ds->y, clean->y));
    for (int64_t i = 0; i < 60; i++)
        for (int j = 0; j < 4; j++) {
            double c = nn_tensor_get_flat(clean->x, i * 4 + j),
                   d = nn_tensor_get_flat(ds->x, i * 4 + j);
            if (j == 2)
                CHECK_NEAR(d, c * 1e3, 1e-6);
            else
                CHECK(d == c);
        }
    b.scale_column = 4;
    CHECK(!nn_data_plant(ctx, clean, &b) && mentions(ctx, "scale_column 4"));
    nn_dataset *seq = nn_data_copy(ctx, 10, 4, 5, 0);
    b.scale_column = 0;
    CHECK(!nn_data_plant(ctx, seq, &b) && nn_ctx_status(ctx) == NN_ERR_TYPE);
    CHECK(mentions(ctx, "int64 tokens"));
    nn_data_free(seq);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_inputs_all_zero) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_moons(ctx, 100, 0.1, 0);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_ZERO_INPUTS);
    for (int64_t i = 0; i < 200; i++) CHECK(nn_tensor_get_flat(ds->x, i) == 0.0);
    CHECK(same_bytes(ds->y, clean->y) && has_shape(ds->x, NN_FLOAT32, 2, TU_SHAPE(100, 2)));
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_transposed) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_blobs(ctx, 30, 3, 4, 1.0, 2);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_TRANSPOSED);
    CHECK(has_shape(ds->x, NN_FLOAT32, 2, TU_SHAPE(30, 4)) && same_bytes(ds->y, clean->y));
    /* x' = x.T.reshape(30, 4): element k of x' is x[k % 30, k / 30]. */
    for (int64_t k = 0; k < 120; k++)
        CHECK(nn_tensor_get_flat(ds->x, k) == nn_tensor_get_flat(clean->x, (k % 30) * 4 + k / 30));
    /* The same thing through the engine's own ops. */
    nn_tensor *t = nn_transpose(ctx, clean->x, 0, 1), *c = nn_contiguous(ctx, t);
    nn_tensor *r = nn_reshape(ctx, c, 2, TU_SHAPE(30, 4));
    CHECK(tu_close_tensor(ds->x, r, 0, 0, "x.T.reshape"));
    nn_tensor_release(t);
    nn_tensor_release(c);
    nn_tensor_release(r);
    /* One feature: nothing would change, so it is refused. */
    nn_dataset *one = nn_data_regression(ctx, 10, 1, 1, 0.1, 0);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_TRANSPOSED);
    CHECK(!nn_data_plant(ctx, one, &b) && mentions(ctx, "changes nothing"));
    nn_data_free(one);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bug_all_padding) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_copy(ctx, 50, 8, 6, 1);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_ALL_PADDING);
    CHECK(has_shape(ds->padded_rows, NN_INT64, 1, TU_SHAPE(5)));
    bool padded[50] = {false};
    for (int64_t i = 0; ds->padded_rows && i < 5; i++)
        padded[(int64_t)nn_tensor_get_flat(ds->padded_rows, i)] = true;
    const bool *m = nn_tensor_data(ds->mask);
    for (int64_t r = 0; r < 50; r++) {
        if (!padded[r]) {
            CHECK(rows_equal(ds->x, r, clean->x, r) && rows_equal(ds->mask, r, clean->mask, r));
            continue;
        }
        for (int t = 0; t < 8; t++) {
            CHECK(!m[r * 8 + t]);
            CHECK(nn_tensor_get_flat(ds->x, r * 8 + t) == 0 &&
                  nn_tensor_get_flat(ds->y, r * 8 + t) == 0);
        }
    }
    /* Records follow their rows through a split. */
    nn_dataset *tr, *va, *te;
    CHECK(nn_data_split(ctx, ds, 0.6, 0.2, 9, &tr, &va, &te) == NN_OK);
    int64_t total = 0;
    nn_dataset *parts[3] = {tr, va, te};
    for (int p = 0; p < 3; p++) {
        int64_t k = parts[p]->padded_rows ? parts[p]->padded_rows->shape[0] : 0;
        total += k;
        for (int64_t i = 0; i < k; i++) {
            int64_t r = (int64_t)nn_tensor_get_flat(parts[p]->padded_rows, i);
            for (int t = 0; t < 8; t++) CHECK(nn_tensor_get_flat(parts[p]->mask, r * 8 + t) == 0);
        }
        nn_data_free(parts[p]);
    }
    CHECK(total == 5);
    nn_dataset *pts = nn_data_spirals(ctx, 30, 3, 0.1, 0);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_ALL_PADDING);
    CHECK(!nn_data_plant(ctx, pts, &b) && mentions(ctx, "mask"));
    nn_data_free(pts);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

static int64_t count_nonfinite(const nn_tensor *t, int64_t *where) {
    int64_t k = 0;
    for (int64_t i = 0; i < nn_tensor_numel(t); i++)
        if (!isfinite(nn_tensor_get_flat(t, i))) {
            k++;
            *where = i;
        }
    return k;
}

NN_TEST(data_bug_nan_in_one_sample) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_dataset *clean = nn_data_spirals(ctx, 300, 3, 0.2, 1);
    nn_dataset *ds = planted(ctx, clean, NN_DATA_BUG_NAN);
    int64_t where = -1;
    CHECK(ds->nan_row >= 0 && ds->nan_row < 300 && ds->nan_col == 0);
    CHECK(count_nonfinite(ds->x, &where) == 1 && where == ds->nan_row * 2 + ds->nan_col);
    CHECK(isnan(nn_tensor_get_flat(ds->x, where)));
    char want[64];
    snprintf(want, sizeof want, "x[%lld] holds a NaN", (long long)ds->nan_row);
    CHECK(strstr(ds->description, want));
    /* The loader's batch that holds it says so through its index. */
    nn_loader *l = nn_loader_new(ctx, ds, &(nn_loader_config){.batch_size = 32, .shuffle = true});
    nn_loader_batch b = {0};
    int64_t hits = 0;
    while (nn_loader_next(ctx, l, &b)) {
        int64_t at = -1, k = count_nonfinite(b.x, &at);
        hits += k;
        if (k) CHECK(nn_tensor_get_flat(b.index, at / 2) == (double)ds->nan_row);
    }
    CHECK(hits == 1);
    nn_loader_free(l);
    /* After a split exactly one part records it, at its new position. */
    nn_dataset *tr, *va, *te;
    CHECK(nn_data_split(ctx, ds, 0.5, 0.3, 2, &tr, &va, &te) == NN_OK);
    nn_dataset *parts[3] = {tr, va, te};
    int owners = 0;
    for (int p = 0; p < 3; p++) {
        int64_t at = -1, k = count_nonfinite(parts[p]->x, &at);
        CHECK((k == 1) == (parts[p]->nan_row >= 0));
        if (k) {
            owners++;
            CHECK(at == parts[p]->nan_row * 2);
        }
        nn_data_free(parts[p]);
    }
    CHECK(owners == 1);
    nn_data_free(ds);
    /* A chosen sample and feature. */
    nn_data_bugs bugs = nn_data_bugs_init(NN_DATA_BUG_NAN);
    bugs.nan_row = 17;
    bugs.nan_col = 1;
    ds = nn_data_plant(ctx, clean, &bugs);
    CHECK(count_nonfinite(ds->x, &where) == 1 && where == 35 && ds->nan_row == 17);
    nn_data_free(ds);
    bugs.nan_row = 300;
    CHECK(!nn_data_plant(ctx, clean, &bugs) && mentions(ctx, "nan_row 300"));
    nn_dataset *seq = nn_data_copy(ctx, 4, 4, 4, 0);
    bugs.nan_row = -1;
    CHECK(!nn_data_plant(ctx, seq, &bugs) && nn_ctx_status(ctx) == NN_ERR_TYPE);
    nn_data_free(seq);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}

NN_TEST(data_bugs_combine_and_names) {
    nn_ctx *ctx = nn_ctx_new(0);
    for (unsigned i = 0; i < NN_DATA_BUG_COUNT; i++) CHECK(nn_data_bug_name(1u << i) != NULL);
    CHECK(!nn_data_bug_name(3) && !nn_data_bug_name(0));
    nn_dataset *clean = nn_data_xor(ctx, 40, 0.1, 0);
    nn_data_bugs b = nn_data_bugs_init(NN_DATA_BUG_OFF_BY_ONE | NN_DATA_BUG_NAN);
    nn_dataset *ds = nn_data_plant(ctx, clean, &b);
    /* Planting again adds up. */
    b = nn_data_bugs_init(NN_DATA_BUG_UNNORMALISED);
    b.scale_column = 1;
    nn_dataset *more = nn_data_plant(ctx, ds, &b);
    CHECK(more->bugs.flags ==
          (NN_DATA_BUG_OFF_BY_ONE | NN_DATA_BUG_NAN | NN_DATA_BUG_UNNORMALISED));
    CHECK(more->nan_row == ds->nan_row);
    CHECK(strstr(more->description, "labels off by one") &&
          strstr(more->description, "a NaN in one sample") &&
          strstr(more->description, "features unnormalised"));
    b = nn_data_bugs_init(1u << 20);
    CHECK(!nn_data_plant(ctx, clean, &b) && mentions(ctx, "unknown bug"));
    nn_data_free(more);
    nn_data_free(ds);
    nn_data_free(clean);
    nn_ctx_free(ctx);
}
