/* Checkpoint and array files (engine/nn_io): nndb round trips for every
 * dtype and odd shapes; interop with NumPy and with a safetensors reader and
 * writer written from the format description (tests/torch/ref_io.py); and
 * one test per kind of hostile file, each written from C into a temporary
 * directory, which must give a clear NN_ERR_IO naming the file and the key
 * and leave the caller's state untouched. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn_io.h"
#include "nn_mem.h"
#include "testutil.h"

/* ---- temporary files ---- */

typedef struct tmpdir {
    char path[64];
} tmpdir;

static tmpdir tmp_make(void) {
    tmpdir d;
    snprintf(d.path, sizeof d.path, "/tmp/nndb_io_XXXXXX");
    if (!mkdtemp(d.path)) d.path[0] = 0;
    return d;
}

static int rm_one(const char *p, const struct stat *sb, int flag, struct FTW *ftw) {
    (void)sb, (void)flag, (void)ftw;
    return remove(p);
}

static void tmp_remove(tmpdir *d) {
    if (d->path[0]) nftw(d->path, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static const char *tmp_file(const tmpdir *d, const char *name, char *buf, size_t size) {
    snprintf(buf, size, "%s/%s", d->path, name);
    return buf;
}

static bool write_bytes(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(p, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* ---- building files ---- */

/* A safetensors file: 8-byte length, [json], [data]. */
static uint8_t *st_build(const char *json, const void *data, size_t dlen, size_t *len) {
    size_t h = strlen(json);
    uint8_t *b = malloc(8 + h + dlen + 1);
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)h >> (8 * i));
    memcpy(b + 8, json, h);
    if (dlen) memcpy(b + 8 + h, data, dlen);
    *len = 8 + h + dlen;
    return b;
}

/* A .npy file: magic, version, header length, [header], [data]. */
static uint8_t *npy_build(int major, const char *header, const void *data, size_t dlen,
                          size_t *len) {
    size_t h = strlen(header), pre = major == 1 ? 10 : 12;
    uint8_t *b = malloc(pre + h + dlen + 1);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (uint8_t)major;
    b[7] = 0;
    for (size_t i = 8; i < pre; i++) b[i] = (uint8_t)(h >> (8 * (i - 8)));
    memcpy(b + pre, header, h);
    if (dlen) memcpy(b + pre + h, data, dlen);
    *len = pre + h + dlen;
    return b;
}

/* A state with one sentinel tensor, to show that a failed load leaves the
 * caller's state alone. */
static nn_tensor *sentinel_state(nn_ctx *ctx, nn_state *s) {
    nn_state_init(s);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(1));
    nn_state_add(ctx, s, "sentinel", t);
    nn_tensor_release(t);
    return t;
}

/* Load [bytes] as safetensors from a file in a temp dir and from memory;
 * both must fail with [code], a message naming the file and containing
 * [want] (and [want2] when not NULL), and the state and metadata kept. */
static void st_expect_bad_code(const char *what, const void *bytes, size_t len, nn_status code,
                               const char *want, const char *want2) {
    nn_ctx *ctx = nn_ctx_new(0);
    tmpdir d = tmp_make();
    char path[128];
    tmp_file(&d, "bad.safetensors", path, sizeof path);
    CHECK(write_bytes(path, bytes, len));
    for (int via_file = 0; via_file < 2; via_file++) {
        nn_state s;
        nn_tensor *sent = sentinel_state(ctx, &s);
        nn_io_meta meta;
        nn_io_meta_init(&meta);
        nn_io_meta_set(ctx, &meta, "keep", "me");
        nn_ctx_clear_error(ctx);
        nn_status st = via_file ? nn_safetensors_load(ctx, path, &s, &meta)
                                : nn_safetensors_load_buffer(ctx, bytes, len, "mem.st", &s, &meta);
        const char *msg = nn_ctx_error(ctx);
        CHECK_MSG(st == code, "%s: status %s, message: %s", what, nn_status_name(st), msg);
        CHECK_MSG(strstr(msg, via_file ? path : "mem.st"), "%s: no file name in: %s", what, msg);
        CHECK_MSG(strstr(msg, want), "%s: '%s' not in: %s", what, want, msg);
        if (want2) CHECK_MSG(strstr(msg, want2), "%s: '%s' not in: %s", what, want2, msg);
        CHECK_MSG(s.n == 1 && s.entries[0].tensor == sent, "%s: state changed", what);
        CHECK_MSG(meta.n == 1 && strcmp(nn_io_meta_get(&meta, "keep"), "me") == 0,
                  "%s: metadata changed", what);
        nn_state_free(&s);
        nn_io_meta_free(&meta);
    }
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

static void st_expect_bad(const char *what, const void *bytes, size_t len, const char *want,
                          const char *want2) {
    st_expect_bad_code(what, bytes, len, NN_ERR_IO, want, want2);
}

/* The same with a JSON header and data given as text. */
static void st_expect_bad_json(const char *json, const char *data, size_t dlen, const char *want,
                               const char *want2) {
    size_t len;
    uint8_t *b = st_build(json, data, dlen, &len);
    st_expect_bad(json, b, len, want, want2);
    free(b);
}

static void npy_expect_bad(const char *what, const void *bytes, size_t len, const char *want) {
    nn_ctx *ctx = nn_ctx_new(0);
    tmpdir d = tmp_make();
    char path[128];
    tmp_file(&d, "bad.npy", path, sizeof path);
    CHECK(write_bytes(path, bytes, len));
    for (int via_file = 0; via_file < 2; via_file++) {
        nn_ctx_clear_error(ctx);
        nn_tensor *t =
            via_file ? nn_npy_load(ctx, path) : nn_npy_load_buffer(ctx, bytes, len, "mem.npy");
        const char *msg = nn_ctx_error(ctx);
        CHECK_MSG(!t && nn_ctx_status(ctx) == NN_ERR_IO, "%s: status %s, message: %s", what,
                  nn_status_name(nn_ctx_status(ctx)), msg);
        CHECK_MSG(strstr(msg, via_file ? path : "mem.npy"), "%s: no file name in: %s", what, msg);
        CHECK_MSG(strstr(msg, want), "%s: '%s' not in: %s", what, want, msg);
        nn_tensor_release(t);
    }
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

static void npy_expect_bad_header(int major, const char *header, size_t dlen, const char *want) {
    uint8_t zeros[64] = {0};
    size_t len;
    uint8_t *b = npy_build(major, header, zeros, dlen, &len);
    npy_expect_bad(header, b, len, want);
    free(b);
}

/* ---- comparing ---- */

/* Same dtype, shape and bytes (NaN payloads included). */
static bool same_tensor(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, const char *what) {
    if (a->dtype != b->dtype || !nn_tensor_same_shape(a, b)) {
        char sa[64], sb[64];
        fprintf(stderr, "  %s: %s %s vs %s %s\n", what, nn_dtype_name(a->dtype),
                nn_tensor_shape_str(a, sa, sizeof sa), nn_dtype_name(b->dtype),
                nn_tensor_shape_str(b, sb, sizeof sb));
        return false;
    }
    nn_tensor *ca = nn_tensor_contiguous_raw(ctx, a), *cb = nn_tensor_contiguous_raw(ctx, b);
    size_t n = (size_t)nn_tensor_numel(a) * nn_dtype_size(a->dtype);
    bool ok = n == 0 || memcmp(nn_tensor_data(ca), nn_tensor_data(cb), n) == 0;
    if (!ok) fprintf(stderr, "  %s: values differ\n", what);
    nn_tensor_release(ca);
    nn_tensor_release(cb);
    return ok;
}

/* The tensors nndb round-trips: every dtype, 0-dim, empty, 8-dim, special
 * values, and a non-contiguous view. */
static void sample_state(nn_ctx *ctx, nn_state *s) {
    nn_state_init(s);
    nn_tensor *t;
    t = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(3, 4));
    nn_tensor_set_flat(t, 0, NAN);
    nn_tensor_set_flat(t, 1, -INFINITY);
    nn_tensor_set_flat(t, 2, -0.0);
    nn_state_add(ctx, s, "0.weight", t);
    nn_tensor *tt = nn_transpose(ctx, t, 0, 1);
    nn_state_add(ctx, s, "0.weight_t", tt);
    nn_tensor_release(tt);
    nn_tensor_release(t);
    t = nn_randn(ctx, NN_FLOAT64, 1, TU_SHAPE(5));
    nn_tensor_set_flat(t, 4, 1e-310);
    nn_state_add(ctx, s, "blocks.1.attn.qkv.bias", t);
    nn_tensor_release(t);
    t = nn_tensor_from_data(ctx, NN_INT64, 1, TU_SHAPE(4),
                            (const int64_t[]){INT64_MIN, -1, 0, INT64_MAX});
    nn_state_add(ctx, s, "idx", t);
    nn_tensor_release(t);
    t = nn_tensor_from_doubles(ctx, NN_BOOL, 2, TU_SHAPE(2, 2), TU_VALS(1, 0, 0, 1));
    nn_state_add(ctx, s, "mask", t);
    nn_tensor_release(t);
    t = nn_scalar(ctx, 2.5, NN_FLOAT32);
    nn_state_add(ctx, s, "scalar", t);
    nn_tensor_release(t);
    t = nn_scalar(ctx, -7, NN_INT64);
    nn_state_add(ctx, s, "step", t);
    nn_tensor_release(t);
    t = nn_zeros(ctx, NN_FLOAT64, 3, TU_SHAPE(3, 0, 2));
    nn_state_add(ctx, s, "empty", t);
    nn_tensor_release(t);
    t = nn_zeros(ctx, NN_BOOL, 1, TU_SHAPE(0));
    nn_state_add(ctx, s, "empty_bool", t);
    nn_tensor_release(t);
    t = nn_randn(ctx, NN_FLOAT32, 8, TU_SHAPE(1, 2, 1, 2, 1, 2, 1, 2));
    nn_state_add(ctx, s, "eight.dims", t);
    nn_tensor_release(t);
    t = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    nn_state_add(ctx, s, "name \"with\" \\ odd\tbytes \xc3\xa9", t);
    nn_tensor_release(t);
}

/* ================================================================== */
/* nndb -> nndb                                                         */
/* ================================================================== */

NN_TEST(io_safetensors_roundtrip) {
    nn_ctx *ctx = nn_ctx_new(1);
    tmpdir d = tmp_make();
    char path[128];
    tmp_file(&d, "model.safetensors", path, sizeof path);
    nn_state s, back;
    sample_state(ctx, &s);
    nn_io_meta meta, mback;
    nn_io_meta_init(&meta);
    nn_io_meta_init(&mback);
    nn_io_meta_set(ctx, &meta, "format", "pt");
    nn_io_meta_set(ctx, &meta, "step", "12");
    nn_io_meta_set(ctx, &meta, "quote\"d", "new\nline");
    nn_state_init(&back);
    CHECK_MSG(nn_safetensors_save(ctx, path, &s, &meta) == NN_OK, "%s", nn_ctx_error(ctx));
    CHECK_MSG(nn_safetensors_load(ctx, path, &back, &mback) == NN_OK, "%s", nn_ctx_error(ctx));
    CHECK(back.n == s.n);
    for (int i = 0; i < s.n && i < back.n; i++) {
        CHECK_MSG(strcmp(s.entries[i].name, back.entries[i].name) == 0, "%s vs %s",
                  s.entries[i].name, back.entries[i].name);
        CHECK(same_tensor(ctx, back.entries[i].tensor, s.entries[i].tensor, s.entries[i].name));
        CHECK(!back.entries[i].tensor->requires_grad);
    }
    CHECK(mback.n == 3);
    CHECK(nn_io_meta_get(&mback, "step") && strcmp(nn_io_meta_get(&mback, "step"), "12") == 0);
    CHECK(nn_io_meta_get(&mback, "quote\"d") &&
          strcmp(nn_io_meta_get(&mback, "quote\"d"), "new\nline") == 0);
    /* The buffer writer gives the same bytes as the file writer. */
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(nn_safetensors_save_buffer(ctx, &s, &meta, &buf, &len) == NN_OK);
    char *file = NULL;
    FILE *f = fopen(path, "rb");
    if (f) {
        file = malloc(len + 1);
        CHECK(fread(file, 1, len + 1, f) == len);
        fclose(f);
    }
    CHECK(buf && file && memcmp(buf, file, len) == 0);
    CHECK(len % 8 == 0); /* header padded so the data is 8-byte aligned */
    free(file);
    /* Loading again into a full state replaces it. */
    CHECK(nn_safetensors_load_buffer(ctx, buf, len, "buf", &back, NULL) == NN_OK);
    CHECK(back.n == s.n);
    free(buf);
    nn_state_free(&back);
    /* Only the temporary file's rename leaves anything behind. */
    int files = 0;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "ls -A %s | wc -l", d.path);
    FILE *p = popen(cmd, "r");
    if (p) {
        CHECK(fscanf(p, "%d", &files) == 1);
        pclose(p);
    }
    CHECK_MSG(files == 1, "%d files in the directory after save", files);
    nn_state_free(&s);
    nn_io_meta_free(&meta);
    nn_io_meta_free(&mback);
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

NN_TEST(io_safetensors_empty_state) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_state s, back;
    nn_state_init(&s);
    sentinel_state(ctx, &back);
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(nn_safetensors_save_buffer(ctx, &s, NULL, &buf, &len) == NN_OK);
    CHECK(len == 16 && buf && memcmp(buf + 8, "{}      ", 8) == 0);
    CHECK(nn_safetensors_load_buffer(ctx, buf, len, "empty", &back, NULL) == NN_OK);
    CHECK(back.n == 0);
    free(buf);
    nn_state_free(&back);
    nn_ctx_free(ctx);
}

NN_TEST(io_safetensors_save_errors) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_state s;
    nn_state_init(&s);
    nn_tensor *t = nn_zeros(ctx, NN_FLOAT32, 1, TU_SHAPE(2));
    nn_state_add(ctx, &s, "a", t);
    CHECK(nn_safetensors_save(ctx, "/nonexistent-dir/x.safetensors", &s, NULL) == NN_ERR_IO);
    CHECK(strstr(nn_ctx_error(ctx), "/nonexistent-dir/x.safetensors"));
    nn_state_add(ctx, &s, "__metadata__", t);
    uint8_t *buf = NULL;
    size_t len;
    CHECK(nn_safetensors_save_buffer(ctx, &s, NULL, &buf, &len) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "__metadata__"));
    CHECK(buf == NULL);
    nn_state_free(&s);
    nn_state_init(&s);
    nn_state_add(ctx, &s, "bad\xff", t);
    CHECK(nn_safetensors_save_buffer(ctx, &s, NULL, &buf, &len) == NN_ERR_VALUE);
    CHECK(strstr(nn_ctx_error(ctx), "UTF-8"));
    nn_tensor_release(t);
    nn_state_free(&s);
    nn_ctx_free(ctx);
}

NN_TEST(io_npy_roundtrip) {
    nn_ctx *ctx = nn_ctx_new(2);
    tmpdir d = tmp_make();
    nn_state s;
    sample_state(ctx, &s);
    for (int i = 0; i < s.n; i++) {
        char path[128];
        tmp_file(&d, "t.npy", path, sizeof path);
        nn_tensor *t = s.entries[i].tensor;
        CHECK_MSG(nn_npy_save(ctx, path, t) == NN_OK, "%s", nn_ctx_error(ctx));
        nn_tensor *back = nn_npy_load(ctx, path);
        CHECK_MSG(back, "%s: %s", s.entries[i].name, nn_ctx_error(ctx));
        if (back) CHECK(same_tensor(ctx, back, t, s.entries[i].name));
        nn_tensor_release(back);
        uint8_t *buf = NULL;
        size_t len = 0;
        CHECK(nn_npy_save_buffer(ctx, t, &buf, &len) == NN_OK);
        CHECK(buf && buf[6] == 1 && buf[7] == 0 && (10 + buf[8] + 256 * buf[9]) % 64 == 0);
        back = nn_npy_load_buffer(ctx, buf, len, "buf");
        CHECK(back && same_tensor(ctx, back, t, s.entries[i].name));
        nn_tensor_release(back);
        free(buf);
    }
    nn_state_free(&s);
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

NN_TEST(io_safetensors_widening_dtypes) {
    /* F16 (with a subnormal, inf and NaN), BF16 and the small integer types,
     * written by hand. */
    nn_ctx *ctx = nn_ctx_new(0);
    uint8_t data[64] = {0};
    const uint16_t half[4] = {0x3c00, 0x0001, 0xfc00, 0x7e00}; /* 1, 2^-24, -inf, NaN */
    const uint16_t bf[2] = {0x3fc0, 0xc010};                   /* 1.5, -2.25 */
    const int32_t i32[2] = {-5, INT32_MAX};
    const int8_t i8[2] = {-128, 127};
    const uint16_t u16[1] = {65535};
    memcpy(data, half, 8);
    memcpy(data + 8, bf, 4);
    memcpy(data + 12, i32, 8);
    memcpy(data + 20, i8, 2);
    memcpy(data + 22, u16, 2);
    const char *json = "{\"h\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,8]},"
                       "\"b\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[8,12]},"
                       "\"i\":{\"dtype\":\"I32\",\"shape\":[2,1],\"data_offsets\":[12,20]},"
                       "\"c\":{\"dtype\":\"I8\",\"shape\":[2],\"data_offsets\":[20,22]},"
                       "\"u\":{\"dtype\":\"U16\",\"shape\":[],\"data_offsets\":[22,24]}}";
    size_t len;
    uint8_t *b = st_build(json, data, 24, &len);
    nn_state s;
    nn_state_init(&s);
    CHECK_MSG(nn_safetensors_load_buffer(ctx, b, len, "w", &s, NULL) == NN_OK, "%s",
              nn_ctx_error(ctx));
    nn_tensor *h = nn_state_get(&s, "h");
    CHECK(h && h->dtype == NN_FLOAT16); /* kept as torch keeps it */
    if (h) {
        CHECK(nn_tensor_get_flat(h, 0) == 1.0);
        CHECK(nn_tensor_get_flat(h, 1) == ldexp(1.0, -24));
        CHECK(nn_tensor_get_flat(h, 2) == -INFINITY);
        CHECK(isnan(nn_tensor_get_flat(h, 3)));
    }
    CHECK(tu_close(nn_state_get(&s, "b"), 1, TU_SHAPE(2), TU_VALS(1.5, -2.25), 0, 0, "bf16"));
    nn_tensor *i = nn_state_get(&s, "i");
    CHECK(i && i->dtype == NN_INT32 &&
          tu_close(i, 2, TU_SHAPE(2, 1), TU_VALS(-5, INT32_MAX), 0, 0, "i32"));
    CHECK(tu_close(nn_state_get(&s, "c"), 1, TU_SHAPE(2), TU_VALS(-128, 127), 0, 0, "i8"));
    CHECK(tu_close(nn_state_get(&s, "u"), 0, NULL, TU_VALS(65535), 0, 0, "u16"));
    nn_state_free(&s);
    free(b);
    nn_ctx_free(ctx);
}

/* ================================================================== */
/* Interop with NumPy and a reference safetensors reader/writer         */
/* ================================================================== */

static const char *python(void) {
    const char *p = getenv("PYTHON");
    return p && *p ? p : "/usr/bin/python3";
}

static const char *ref_dir(char *buf, size_t size) {
    const char *d = getenv("NNDB_REF_DIR");
    snprintf(buf, size, "%s/io", d && *d ? d : "build/ref");
    return buf;
}

/* The fixtures ref_io.py wrote; runs it when they are missing (a test run by
 * hand without tests/run_all.sh). */
static char *load_cases(void) {
    char dir[256], path[300];
    snprintf(path, sizeof path, "%s/cases.txt", ref_dir(dir, sizeof dir));
    char *text = read_text(path);
    if (text) return text;
    if (access(python(), X_OK) != 0) {
        fprintf(stderr, "  %s is missing: install python3-numpy (setup/deps.sh)\n", python());
        return NULL;
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s tests/torch/ref_io.py", python());
    if (system(cmd) != 0) {
        fprintf(stderr, "  '%s' failed\n", cmd);
        return NULL;
    }
    return read_text(path);
}

static nn_dtype dtype_named(const char *s) {
    nn_dtype dt = NN_FLOAT32;
    nn_dtype_from_name(s, &dt);
    return dt;
}

/* Check [t] against "DTYPE NDIM D... COUNT V..." read from [save]. */
static bool matches_case(const nn_tensor *t, char **save, const char *what) {
    nn_dtype dt = dtype_named(strtok_r(NULL, " \n", save));
    int nd = atoi(strtok_r(NULL, " \n", save));
    int64_t shape[NN_MAX_DIMS] = {0};
    for (int i = 0; i < nd && i < NN_MAX_DIMS; i++) shape[i] = atoll(strtok_r(NULL, " \n", save));
    int64_t count = atoll(strtok_r(NULL, " \n", save));
    bool ok = t->dtype == dt && t->ndim == nd && nn_tensor_numel(t) == count;
    for (int i = 0; ok && i < nd; i++) ok = t->shape[i] == shape[i];
    if (!ok) {
        fprintf(stderr, "  %s: dtype or shape differ\n", what);
        return false;
    }
    for (int64_t i = 0; i < count; i++) {
        const char *v = strtok_r(NULL, " \n", save);
        bool eq;
        if (nn_dtype_is_int(dt)) {
            eq = nn_tensor_get_flat_int(t, i) == strtoll(v, NULL, 10);
        } else {
            double want = strtod(v, NULL), got = nn_tensor_get_flat(t, i);
            eq = got == want || (isnan(got) && isnan(want));
            if (eq && want == 0) eq = signbit(got) == signbit(want);
        }
        if (!eq) {
            fprintf(stderr, "  %s: element %" PRId64 " is %.17g, expected %s\n", what, i,
                    nn_tensor_get_flat(t, i), v);
            return false;
        }
    }
    return true;
}

NN_TEST(io_numpy_files_load) {
    char *text = load_cases();
    CHECK_MSG(text, "no NumPy fixtures");
    if (!text) return;
    nn_ctx *ctx = nn_ctx_new(0);
    int n = 0;
    char *save_line, *save;
    for (char *ln = strtok_r(text, "\n", &save_line); ln; ln = strtok_r(NULL, "\n", &save_line)) {
        char *kind = strtok_r(ln, " ", &save);
        if (strcmp(kind, "npy") != 0) continue;
        char *file = strtok_r(NULL, " ", &save);
        nn_tensor *t = nn_npy_load(ctx, file);
        CHECK_MSG(t, "%s", nn_ctx_error(ctx));
        if (t) CHECK(matches_case(t, &save, file));
        nn_tensor_release(t);
        n++;
    }
    CHECK_MSG(n >= 30, "only %d npy fixtures", n);
    free(text);
    nn_ctx_free(ctx);
}

NN_TEST(io_reference_safetensors_load) {
    char *text = load_cases();
    CHECK_MSG(text, "no safetensors fixtures");
    if (!text) return;
    nn_ctx *ctx = nn_ctx_new(0);
    nn_state s;
    nn_state_init(&s);
    nn_io_meta meta;
    nn_io_meta_init(&meta);
    const char *loaded = NULL;
    int n = 0;
    char *save_line, *save;
    for (char *ln = strtok_r(text, "\n", &save_line); ln; ln = strtok_r(NULL, "\n", &save_line)) {
        char *kind = strtok_r(ln, " ", &save);
        if (strcmp(kind, "st") != 0) continue;
        char *file = strtok_r(NULL, " ", &save);
        char *key = strtok_r(NULL, " ", &save);
        if (!loaded || strcmp(loaded, file) != 0) {
            CHECK_MSG(nn_safetensors_load(ctx, file, &s, &meta) == NN_OK, "%s", nn_ctx_error(ctx));
            loaded = file;
        }
        nn_tensor *t = nn_state_get(&s, key);
        CHECK_MSG(t, "%s: no key %s", file, key);
        if (t) CHECK(matches_case(t, &save, key));
        n++;
    }
    CHECK(n == 15 && s.n == 15);
    /* Header order is kept, though the data was laid out in reverse. */
    CHECK(s.n > 0 && strcmp(s.entries[0].name, "w.f32") == 0);
    CHECK(nn_io_meta_get(&meta, "format") && strcmp(nn_io_meta_get(&meta, "format"), "pt") == 0);
    CHECK(nn_io_meta_get(&meta, "note") &&
          strcmp(nn_io_meta_get(&meta, "note"), "h\xc3\xa9llo \"q\"") == 0);
    nn_state_free(&s);
    nn_io_meta_free(&meta);
    free(text);
    nn_ctx_free(ctx);
}

static void manifest_values(nn_ctx *ctx, FILE *m, nn_tensor *t) {
    int64_t n = nn_tensor_numel(t);
    fprintf(m, " %d", t->ndim);
    for (int d = 0; d < t->ndim; d++) fprintf(m, " %" PRId64, t->shape[d]);
    fprintf(m, " %" PRId64, n);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    for (int64_t i = 0; i < n; i++) {
        if (t->dtype == NN_INT64)
            fprintf(m, " %" PRId64, ((const int64_t *)nn_tensor_data(c))[i]);
        else
            fprintf(m, " %.17g", nn_tensor_get_flat(c, i));
    }
    nn_tensor_release(c);
    fprintf(m, "\n");
}

NN_TEST(io_numpy_reads_nndb_files) {
    /* nndb saves .npy and safetensors files; np.load and a reader written
     * from the safetensors description (ref_io.py check) read them back. */
    if (access(python(), X_OK) != 0) {
        CHECK_MSG(0, "%s is missing: install python3-numpy (setup/deps.sh)", python());
        return;
    }
    nn_ctx *ctx = nn_ctx_new(3);
    char dir[256], out[300], path[400];
    snprintf(out, sizeof out, "%s/out", ref_dir(dir, sizeof dir));
    mkdir(dir, 0777);
    mkdir(out, 0777);
    snprintf(path, sizeof path, "%s/manifest.txt", out);
    FILE *m = fopen(path, "w");
    CHECK(m);
    if (!m) {
        nn_ctx_free(ctx);
        return;
    }
    nn_state s;
    sample_state(ctx, &s);
    static const char *npdt[] = {"<f4", "<f8", "<i8", "|b1"};
    static const char *stdt[] = {"F32", "F64", "I64", "BOOL"};
    for (int i = 0; i < s.n; i++) {
        nn_tensor *t = s.entries[i].tensor;
        snprintf(path, sizeof path, "%s/t%d.npy", out, i);
        CHECK_MSG(nn_npy_save(ctx, path, t) == NN_OK, "%s", nn_ctx_error(ctx));
        fprintf(m, "npy %s %s", path, npdt[t->dtype]);
        manifest_values(ctx, m, t);
    }
    snprintf(path, sizeof path, "%s/model.safetensors", out);
    nn_io_meta meta;
    nn_io_meta_init(&meta);
    nn_io_meta_set(ctx, &meta, "format", "pt");
    nn_io_meta_set(ctx, &meta, "step", "12");
    CHECK_MSG(nn_safetensors_save(ctx, path, &s, &meta) == NN_OK, "%s", nn_ctx_error(ctx));
    for (int i = 0; i < s.n; i++) {
        /* Keys with spaces do not fit the manifest's format; they are covered
         * by the nndb round trip. */
        if (strchr(s.entries[i].name, ' ')) continue;
        nn_tensor *t = s.entries[i].tensor;
        fprintf(m, "st %s %s %s", path, s.entries[i].name, stdt[t->dtype]);
        manifest_values(ctx, m, t);
    }
    fprintf(m, "meta %s format pt\nmeta %s step 12\n", path, path);
    fclose(m);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "%s tests/torch/ref_io.py check %s", python(), out);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "'%s' failed (status %d)", cmd, rc);
    nn_io_meta_free(&meta);
    nn_state_free(&s);
    nn_ctx_free(ctx);
}

/* ================================================================== */
/* Hostile safetensors files                                            */
/* ================================================================== */

#define ST_A(dt, shape, b, e)                                                                      \
    "{\"a\":{\"dtype\":\"" dt "\",\"shape\":" shape ",\"data_offsets\":[" #b "," #e "]}}"

static const char DATA16[17] = "0123456789abcdef";

NN_TEST(io_st_truncated_at_every_length) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_state s;
    sample_state(ctx, &s);
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(nn_safetensors_save_buffer(ctx, &s, NULL, &buf, &len) == NN_OK);
    nn_state_free(&s);
    int bad = 0;
    for (size_t cut = 0; cut < len; cut++) {
        nn_state out;
        nn_state_init(&out);
        /* A copy of exactly [cut] bytes, so ASan sees any read past it. */
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, buf, cut);
        nn_status st = nn_safetensors_load_buffer(ctx, part, cut, "cut.safetensors", &out, NULL);
        if (st != NN_ERR_IO || out.n != 0 || !strstr(nn_ctx_error(ctx), "cut.safetensors")) bad++;
        free(part);
        nn_state_free(&out);
    }
    CHECK_MSG(bad == 0, "%d truncations were not a clean NN_ERR_IO", bad);
    /* And from a file, at a few places: in the length, the header, the data. */
    size_t cuts[] = {0, 5, 8, 40, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        st_expect_bad("truncated file", buf, cuts[i], cuts[i] < 8 ? "too short" : "", NULL);
    free(buf);
    nn_ctx_free(ctx);
}

NN_TEST(io_st_header_length_beyond_file) {
    size_t len;
    uint8_t *b = st_build(ST_A("F32", "[2]", 0, 8), DATA16, 8, &len);
    b[0] = (uint8_t)(b[0] + 100);
    st_expect_bad("header length + 100", b, len, "runs past the end of the file", NULL);
    memset(b, 0xff, 8);
    st_expect_bad("header length 2^64-1", b, len, "runs past the end of the file", NULL);
    free(b);
}

NN_TEST(io_st_header_length_over_limit) {
    /* A sparse file bigger than the header limit: rejected from the length
     * alone, without reading or allocating 101 MiB. */
    nn_ctx *ctx = nn_ctx_new(0);
    tmpdir d = tmp_make();
    char path[128];
    tmp_file(&d, "huge.safetensors", path, sizeof path);
    uint64_t h = (uint64_t)NN_IO_HEADER_MAX + 1;
    uint8_t len8[8];
    for (int i = 0; i < 8; i++) len8[i] = (uint8_t)(h >> (8 * i));
    CHECK(write_bytes(path, len8, 8));
    CHECK(truncate(path, (off_t)(h + 8)) == 0);
    size_t before = nn_mem_get_stats().peak;
    nn_state s;
    nn_state_init(&s);
    CHECK(nn_safetensors_load(ctx, path, &s, NULL) == NN_ERR_IO);
    CHECK_MSG(strstr(nn_ctx_error(ctx), "over the limit"), "%s", nn_ctx_error(ctx));
    CHECK(nn_mem_get_stats().peak == before);
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

NN_TEST(io_st_header_not_an_object) {
    st_expect_bad_json("", NULL, 0, "too short for a JSON object", NULL);
    st_expect_bad_json("[]", NULL, 0, "does not start with '{'", NULL);
    st_expect_bad_json(" {}", NULL, 0, "does not start with '{'", NULL);
    st_expect_bad_json("{}x", NULL, 0, "bad JSON", "unexpected bytes after the end");
}

NN_TEST(io_st_offsets_overlap) {
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                       "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                       DATA16, 12, "overlap those of 'a'", "key 'b'");
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                       "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
                       DATA16, 8, "overlap", NULL);
}

NN_TEST(io_st_offsets_out_of_buffer) {
    st_expect_bad_json(ST_A("F32", "[2]", 8, 16), DATA16, 8, "run past the data buffer", "key 'a'");
    st_expect_bad_json(ST_A("F32", "[2]", 18446744073709551608, 0), DATA16, 8,
                       "must be two non-negative integers", "key 'a'");
    st_expect_bad_json(ST_A("F32", "[2]", 9223372036854775800, 9223372036854775808), DATA16, 8,
                       "must be two non-negative integers", "key 'a'");
}

NN_TEST(io_st_offsets_end_before_begin) {
    st_expect_bad_json(ST_A("F32", "[2]", 8, 0), DATA16, 8, "end before they begin", "key 'a'");
}

NN_TEST(io_st_size_does_not_match_shape) {
    st_expect_bad_json(ST_A("F32", "[3]", 0, 8), DATA16, 8, "hold 8 bytes, but F32 of shape [3]",
                       "key 'a'");
    st_expect_bad_json(ST_A("F64", "[2]", 0, 8), DATA16, 8, "needs 16", "key 'a'");
    st_expect_bad_json(ST_A("F32", "[]", 0, 8), DATA16, 8, "needs 4", NULL);
    st_expect_bad_json(ST_A("F32", "[0]", 0, 8), DATA16, 8, "needs 0", NULL);
}

NN_TEST(io_st_gap_and_trailing_bytes) {
    st_expect_bad_json(ST_A("F32", "[2]", 4, 12), DATA16, 12, "gap of 4", "key 'a'");
    st_expect_bad_json(ST_A("F32", "[2]", 0, 8), DATA16, 12, "bytes after the last tensor", NULL);
}

NN_TEST(io_st_bad_dims) {
    st_expect_bad_json(ST_A("F32", "[-2]", 0, 8), DATA16, 8, "non-negative integers", "key 'a'");
    st_expect_bad_json(ST_A("F32", "[2.5]", 0, 8), DATA16, 8, "non-negative integers", NULL);
    st_expect_bad_json(ST_A("F32", "[2e0]", 0, 8), DATA16, 8, "non-negative integers", NULL);
    st_expect_bad_json(ST_A("F32", "[\"2\"]", 0, 8), DATA16, 8, "non-negative integers", NULL);
    st_expect_bad_json(ST_A("F32", "2", 0, 8), DATA16, 8, "non-negative integers", NULL);
    st_expect_bad_json(ST_A("F32", "[99999999999999999999]", 0, 8), DATA16, 8,
                       "non-negative integers", NULL);
    st_expect_bad_json(ST_A("F32", "[1,1,1,1,1,1,1,1,2]", 0, 8), DATA16, 8, "9 dims", "at most 8");
}

NN_TEST(io_st_shape_product_overflow) {
    st_expect_bad_json(ST_A("F32", "[4294967296,4294967296,16]", 0, 8), DATA16, 8,
                       "overflows 64 bits", "key 'a'");
    st_expect_bad_json(ST_A("F64", "[9223372036854775807]", 0, 8), DATA16, 8, "overflows", NULL);
    /* A product that fits but is far beyond the file: rejected before any
     * allocation. */
    st_expect_bad_json(ST_A("F32", "[1000000,1000000]", 0, 4000000000000), DATA16, 8,
                       "run past the data buffer", NULL);
}

NN_TEST(io_st_empty_with_huge_dims) {
    /* Holds no elements, but nndb's strides would overflow (found by
     * fuzz_npy). */
    st_expect_bad_json(ST_A("F32", "[0,4611686018427387904,4]", 0, 0), NULL, 0,
                       "dims too large for nndb, though it is empty", "key 'a'");
    npy_expect_bad_header(
        1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 9223372036854775807, 3)}", 0,
        "dims too large for nndb, though it is empty");
}

NN_TEST(io_st_unknown_dtype) {
    char want[200];
    st_expect_bad_json(ST_A("C64", "[1]", 0, 8), DATA16, 8,
                       "unsupported dtype 'C64' for key 'a' in", NULL);
    st_expect_bad_json(ST_A("F8_E4M3", "[8]", 0, 8), DATA16, 8, "unsupported dtype 'F8_E4M3'",
                       NULL);
    st_expect_bad_json(ST_A("U64", "[1]", 0, 8), DATA16, 8, "unsupported dtype 'U64'", NULL);
    st_expect_bad_json(ST_A("f32", "[2]", 0, 8), DATA16, 8, "unsupported dtype 'f32'", NULL);
    snprintf(want, sizeof want, "'dtype' must be a string");
    st_expect_bad_json("{\"a\":{\"dtype\":4,\"shape\":[2],\"data_offsets\":[0,8]}}", DATA16, 8,
                       want, "key 'a'");
}

NN_TEST(io_st_duplicate_keys) {
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                       "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
                       DATA16, 8, "duplicate key 'a'", NULL);
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"dtype\":\"F32\","
                       "\"data_offsets\":[0,8]}}",
                       DATA16, 8, "duplicate key 'dtype'", NULL);
    /* "\u0061" is "a": duplicates are found after decoding escapes. */
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                       "\"\\u0061\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
                       DATA16, 8, "duplicate key 'a'", NULL);
    st_expect_bad_json("{\"__metadata__\":{},\"__metadata__\":{}}", NULL, 0,
                       "duplicate key '__metadata__'", NULL);
}

NN_TEST(io_st_deep_json) {
    /* 100 000 levels: rejected at level 65 without deep recursion. */
    size_t depth = 100000, n = 0;
    char *json = malloc(2 * depth + 64);
    n += (size_t)sprintf(json, "{\"__metadata__\":");
    for (size_t i = 0; i < depth; i++) json[n++] = '[';
    for (size_t i = 0; i < depth; i++) json[n++] = ']';
    json[n++] = '}';
    json[n] = 0;
    st_expect_bad_json(json, NULL, 0, "nested deeper than 64 levels", NULL);
    free(json);
}

NN_TEST(io_st_huge_json) {
    /* 20 000 empty tensors: a big but valid header loads (and quickly: keys
     * are checked for duplicates by sorting). */
    nn_ctx *ctx = nn_ctx_new(0);
    int n = 20000;
    size_t cap = (size_t)n * 80 + 16, len = 0;
    char *json = malloc(cap);
    len += (size_t)sprintf(json, "{");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(
            json + len, cap - len,
            "%s\"t%d\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}", i ? "," : "", i);
    sprintf(json + len, "}");
    size_t blen;
    uint8_t *b = st_build(json, NULL, 0, &blen);
    nn_state s;
    nn_state_init(&s);
    CHECK_MSG(nn_safetensors_load_buffer(ctx, b, blen, "big", &s, NULL) == NN_OK, "%s",
              nn_ctx_error(ctx));
    CHECK(s.n == n && nn_state_get(&s, "t19999"));
    nn_state_free(&s);
    free(b);
    /* A long metadata array where a string belongs. */
    len = (size_t)sprintf(json, "{\"__metadata__\":{\"x\":[");
    for (int i = 0; i < 200000; i++) len += (size_t)sprintf(json + len, i ? ",%d" : "%d", i % 10);
    sprintf(json + len, "]}}");
    st_expect_bad_json(json, NULL, 0, "the value of 'x' is not a string", "__metadata__");
    free(json);
    nn_ctx_free(ctx);
}

NN_TEST(io_st_nul_bytes) {
    size_t len;
    /* A raw NUL inside the JSON. */
    uint8_t *b = st_build(ST_A("F32", "[2]", 0, 8), DATA16, 8, &len);
    b[8 + 3] = 0;
    st_expect_bad("NUL in a key", b, len, "control byte 0x00", NULL);
    free(b);
    b = st_build(ST_A("F32", "[2]", 0, 8) "  ", DATA16, 8, &len);
    b[8 + strlen(ST_A("F32", "[2]", 0, 8))] = 0;
    st_expect_bad("NUL in the padding", b, len, "NUL byte after the end", NULL);
    free(b);
    b = st_build(ST_A("F32", "[2]", 0, 8), DATA16, 8, &len);
    b[8 + 35] = 0; /* inside "shape" */
    st_expect_bad("NUL between values", b, len, "bad JSON", NULL);
    free(b);
    /* An escaped NUL decodes fine as JSON but cannot be a tensor name. */
    st_expect_bad_json("{\"a\\u0000b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
                       DATA16, 8, "contains a NUL byte", "key 'a\\x00b'");
    st_expect_bad_json("{\"__metadata__\":{\"k\":\"v\\u0000\"}}", NULL, 0, "contains a NUL byte",
                       NULL);
}

NN_TEST(io_st_malformed_json) {
    static const char *const cases[][2] = {
        {"{\"a\":1,}", "expected a string key"},
        {"{\"a\" 1}", "expected ':'"},
        {"{\"a\":1 \"b\":2}", "expected ',' or '}'"},
        {"{\"a\":[1,]}", "unexpected character"},
        {"{\"a\":[1 2]}", "expected ',' or ']'"},
        {"{\"a\":\"unterminated}", "unterminated string"},
        {"{\"a\":\"bad \\x escape\"}", "unknown escape"},
        {"{\"a\":\"\\u12\"}", "four hex digits"},
        {"{\"a\":\"\\udc00\"}", "unpaired low surrogate"},
        {"{\"a\":\"\\ud800x\"}", "without its low half"},
        {"{\"a\":\"\xc0\xaf\"}", "invalid UTF-8"},
        {"{\"a\":\"\xed\xa0\x80\"}", "invalid UTF-8"},
        {"{\"a\":\"\xf4\x90\x80\x80\"}", "invalid UTF-8"},
        {"{\"a\":\"tab\there\"}", "control byte 0x09"},
        {"{\"a\":01}", "leading zero"},
        {"{\"a\":-}", "malformed number"},
        {"{\"a\":1.}", "malformed number"},
        {"{\"a\":1e}", "malformed number"},
        {"{\"a\":tru}", "unexpected character"},
        {"{\"a\":nul}", "unexpected character"},
        {"{\"a\":", "unexpected end"},
        {"{\"a\"", "expected ':'"},
        {"{'a':1}", "expected a string key"},
        {"{\"a\":NaN}", "unexpected character"},
        {"{\"a\":1}}", "unexpected bytes after the end"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        st_expect_bad_json(cases[i][0], NULL, 0, cases[i][1], "bad JSON");
}

NN_TEST(io_st_bad_entries) {
    st_expect_bad_json("{\"a\":[1,2]}", NULL, 0, "expected an object", "key 'a'");
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2]}}", DATA16, 8,
                       "missing 'data_offsets'", "key 'a'");
    st_expect_bad_json("{\"a\":{\"shape\":[2],\"data_offsets\":[0,8]}}", DATA16, 8,
                       "missing 'dtype'", NULL);
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8],"
                       "\"extra\":1}}",
                       DATA16, 8, "unexpected field 'extra'", "key 'a'");
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8,9]}}", DATA16,
                       8, "two non-negative", NULL);
    st_expect_bad_json("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0]}}", DATA16, 8,
                       "two non-negative", NULL);
    st_expect_bad_json("{\"__metadata__\":[]}", NULL, 0, "must be an object of strings",
                       "__metadata__");
    st_expect_bad_json("{\"__metadata__\":{\"n\":3}}", NULL, 0, "'n' is not a string", NULL);
}

NN_TEST(io_st_key_too_long) {
    char json[600];
    char key[301];
    memset(key, 'k', 300);
    key[300] = 0;
    snprintf(json, sizeof json, "{\"%s\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}",
             key);
    st_expect_bad_json(json, DATA16, 8, "the key is 300 bytes", "kkkk...");
    /* Odd bytes in a key are shown escaped, not printed raw. */
    st_expect_bad_json("{\"a\\u001b[31m\":{\"dtype\":\"X\",\"shape\":[2],\"data_offsets\":[0,8]}}",
                       DATA16, 8, "key 'a\\x1b[31m'", NULL);
}

NN_TEST(io_st_not_regular_files) {
    nn_ctx *ctx = nn_ctx_new(0);
    tmpdir d = tmp_make();
    char fifo[128];
    tmp_file(&d, "fifo", fifo, sizeof fifo);
    CHECK(mkfifo(fifo, 0600) == 0);
    struct {
        const char *path, *want;
    } cases[] = {
        {d.path, "not a regular file (it is a directory)"},
        {fifo, "not a regular file (it is a FIFO)"},
        {"/dev/null", "not a regular file (it is a character device)"},
        {"/nonexistent/model.safetensors", "cannot open: No such file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nn_state s;
        nn_state_init(&s);
        CHECK(nn_safetensors_load(ctx, cases[i].path, &s, NULL) == NN_ERR_IO);
        CHECK_MSG(strstr(nn_ctx_error(ctx), cases[i].want) &&
                      strstr(nn_ctx_error(ctx), cases[i].path),
                  "%s", nn_ctx_error(ctx));
        CHECK(nn_npy_load(ctx, cases[i].path) == NULL && nn_ctx_status(ctx) == NN_ERR_IO);
        CHECK_MSG(strstr(nn_ctx_error(ctx), cases[i].want), "%s", nn_ctx_error(ctx));
    }
    tmp_remove(&d);
    nn_ctx_free(ctx);
}

NN_TEST(io_st_respects_memory_cap) {
    /* A valid 8 MiB tensor under a 1 MiB cap: a memory error naming the file
     * and key, and nothing held afterwards. */
    size_t old = nn_mem_get_stats().cap;
    size_t n = 8u << 20;
    char *data = calloc(1, n);
    size_t len;
    uint8_t *b = st_build(ST_A("F32", "[2097152]", 0, 8388608), data, n, &len);
    nn_mem_set_cap(nn_mem_get_stats().in_use + (1u << 20));
    st_expect_bad_code("over the cap", b, len, NN_ERR_MEMORY, "key 'a'", NULL);
    nn_mem_set_cap(old);
    free(b);
    free(data);
}

/* ================================================================== */
/* Hostile .npy files                                                   */
/* ================================================================== */

#define NPY_F4_2 "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n"

NN_TEST(io_npy_truncated_at_every_length) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = nn_randn(ctx, NN_FLOAT64, 2, TU_SHAPE(3, 2));
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(nn_npy_save_buffer(ctx, t, &buf, &len) == NN_OK);
    nn_tensor_release(t);
    int bad = 0;
    for (size_t cut = 0; cut < len; cut++) {
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, buf, cut);
        nn_tensor *back = nn_npy_load_buffer(ctx, part, cut, "cut.npy");
        if (back || nn_ctx_status(ctx) != NN_ERR_IO || !strstr(nn_ctx_error(ctx), "cut.npy")) bad++;
        nn_tensor_release(back);
        free(part);
    }
    CHECK_MSG(bad == 0, "%d truncations were not a clean NN_ERR_IO", bad);
    npy_expect_bad("cut in the data", buf, len - 3, "the file is truncated");
    npy_expect_bad("cut in the header", buf, 40, "runs past the end of the file");
    free(buf);
    nn_ctx_free(ctx);
}

NN_TEST(io_npy_bad_magic_and_version) {
    size_t len;
    uint8_t *b = npy_build(1, NPY_F4_2, DATA16, 8, &len);
    b[1] = 'n';
    npy_expect_bad("magic", b, len, "not a .npy file");
    b[1] = 'N';
    b[6] = 4;
    npy_expect_bad("version 4", b, len, "version 4.0 is not supported");
    b[6] = 1;
    b[7] = 1;
    npy_expect_bad("version 1.1", b, len, "version 1.1 is not supported");
    free(b);
    npy_expect_bad("too short", "\x93NUMPY\x02", 8, "too short");
}

NN_TEST(io_npy_header_length_beyond_file) {
    size_t len;
    uint8_t *b = npy_build(1, NPY_F4_2, DATA16, 8, &len);
    b[8] = 0xff, b[9] = 0xff;
    npy_expect_bad("v1 length", b, len, "runs past the end of the file");
    free(b);
    b = npy_build(2, NPY_F4_2, DATA16, 8, &len);
    b[11] = 0x80;
    npy_expect_bad("v2 length", b, len, "runs past the end of the file");
    free(b);
}

NN_TEST(io_npy_bad_headers) {
    static const char *const cases[][2] = {
        {"{'descr': '<f4', 'shape': (2,), }", "missing 'fortran_order'"},
        {"{'fortran_order': False, 'shape': (2,), }", "missing 'descr'"},
        {"{'descr': '<f4', 'fortran_order': False, }", "missing 'shape'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", "unexpected key 'x'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
         "'descr' appears twice"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,)}", "structured dtypes"},
        {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,)}", "True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-2,)}", "negative dimension"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,2)}",
         "more than 8 dimensions"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}",
         "dimension too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}",
         "overflows 64 bits"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1000000, 1000000)}",
         "the file is truncated"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2 2)}", "expected ',' or ')'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", "after the header dict"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}", "expected '}'"},
        {"{'descr: '<f4', 'fortran_order': False, 'shape': (2,)}", "expected ':'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", "ends early"},
        {"", "ends early"},
        {"{'descr': 'a\\'b', 'fortran_order': False, 'shape': (2,)}", "unexpected byte"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        npy_expect_bad_header(1, cases[i][0], 8, cases[i][1]);
    /* A NUL inside the header dict. */
    size_t len;
    uint8_t *b = npy_build(1, NPY_F4_2, DATA16, 8, &len);
    b[10 + 5] = 0;
    npy_expect_bad("NUL", b, len, "bad header");
    free(b);
}

NN_TEST(io_npy_unsupported_descr) {
    static const char *const descrs[] = {"<c8", "<U3", "<u8", "|O",  "<f16", "|f4",
                                         "f4",  "<M8", "|V8", "<f3", ">b2",  "|S5"};
    for (size_t i = 0; i < sizeof descrs / sizeof descrs[0]; i++) {
        char h[200], want[64];
        snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (1,), }",
                 descrs[i]);
        snprintf(want, sizeof want, "numpy dtype '%s' is not supported", descrs[i]);
        npy_expect_bad_header(1, h, 8, want);
    }
}

NN_TEST(io_npy_data_size_mismatch) {
    npy_expect_bad_header(1, NPY_F4_2, 7, "holds 7 bytes of data, but shape [2] of '<f4' needs 8");
    npy_expect_bad_header(1, NPY_F4_2, 9, "extra bytes after the array");
    npy_expect_bad_header(3, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", 8,
                          "needs 48");
}

NN_TEST(io_npy_versions_and_orders) {
    /* Written by hand: version 2.0 and 3.0 headers, '=' and '|' byte orders,
     * a big-endian Fortran-order int16 matrix. */
    nn_ctx *ctx = nn_ctx_new(0);
    const uint8_t be16[] = {0, 1, 0, 2, 0, 3, 0xff, 0xfc}; /* 1 2 3 -4, column-major (2,2) */
    size_t len;
    uint8_t *b =
        npy_build(2, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }", be16, 8, &len);
    nn_tensor *t = nn_npy_load_buffer(ctx, b, len, "v2");
    CHECK_MSG(t, "%s", nn_ctx_error(ctx));
    CHECK(t && t->dtype == NN_INT16 &&
          tu_close(t, 2, TU_SHAPE(2, 2), TU_VALS(1, 3, 2, -4), 0, 0, "v2 fortran >i2"));
    nn_tensor_release(t);
    free(b);
    const uint8_t u8s[] = {0, 7, 255};
    b = npy_build(3, "{\"descr\": \"|u1\", \"fortran_order\": False, \"shape\": (3L,)}\n", u8s, 3,
                  &len);
    t = nn_npy_load_buffer(ctx, b, len, "v3");
    CHECK_MSG(t, "%s", nn_ctx_error(ctx));
    CHECK(t && tu_close(t, 1, TU_SHAPE(3), TU_VALS(0, 7, 255), 0, 0, "v3 u1"));
    nn_tensor_release(t);
    free(b);
    const float f[2] = {1.5f, -2.0f};
    b = npy_build(1, "{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }", f, 8, &len);
    t = nn_npy_load_buffer(ctx, b, len, "native");
    CHECK(t && tu_close(t, 1, TU_SHAPE(2), TU_VALS(1.5, -2), 0, 0, "=f4"));
    nn_tensor_release(t);
    free(b);
    const uint8_t bools[] = {0, 2, 1};
    b = npy_build(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", bools, 3, &len);
    t = nn_npy_load_buffer(ctx, b, len, "bool");
    CHECK(t && tu_close(t, 1, TU_SHAPE(3), TU_VALS(0, 1, 1), 0, 0, "b1 normalised"));
    nn_tensor_release(t);
    free(b);
    nn_ctx_free(ctx);
}

/* The narrow dtypes round-trip through safetensors and .npy bit for bit,
 * and a checkpoint cut short or lying about its F16 sizes is still a clear
 * error naming the file. */
NN_TEST(io_narrow_dtypes_round_trip) {
    nn_ctx *ctx = nn_ctx_new(0);
    int64_t n = 3;
    const double vals[3] = {0.1, -65520.0, 2.5};
    const nn_dtype dts[] = {NN_FLOAT16, NN_BFLOAT16, NN_INT32, NN_INT16, NN_INT8, NN_UINT8};
    nn_state s;
    nn_state_init(&s);
    for (int i = 0; i < 6; i++) {
        nn_tensor *t = nn_tensor_from_doubles(ctx, dts[i], 1, &n, vals);
        CHECK(t && nn_state_add(ctx, &s, nn_dtype_name(dts[i]), t) == NN_OK);
        nn_tensor_release(t);
    }
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK_MSG(nn_safetensors_save_buffer(ctx, &s, NULL, &buf, &len) == NN_OK, "%s",
              nn_ctx_error(ctx));
    nn_state back;
    nn_state_init(&back);
    CHECK_MSG(nn_safetensors_load_buffer(ctx, buf, len, "rt", &back, NULL) == NN_OK, "%s",
              nn_ctx_error(ctx));
    for (int i = 0; i < 6; i++) {
        nn_tensor *a = nn_state_get(&s, nn_dtype_name(dts[i]));
        nn_tensor *b = nn_state_get(&back, nn_dtype_name(dts[i]));
        CHECK_MSG(b && b->dtype == dts[i] &&
                      memcmp(nn_tensor_data(a), nn_tensor_data(b), 3 * nn_dtype_size(dts[i])) == 0,
                  "%s did not round-trip", nn_dtype_name(dts[i]));
    }
    /* Cut short: the last tensor's bytes are missing. */
    nn_state_free(&back);
    nn_state_init(&back);
    CHECK(nn_safetensors_load_buffer(ctx, buf, len - 2, "cut.safetensors", &back, NULL) != NN_OK &&
          strstr(nn_ctx_error(ctx), "cut.safetensors") != NULL);
    free(buf);
    /* An F16 entry whose byte span does not fit its shape. */
    const uint8_t data[6] = {0};
    uint8_t *f =
        st_build("{\"h\":{\"dtype\":\"F16\",\"shape\":[4],\"data_offsets\":[0,6]}}", data, 6, &len);
    CHECK(nn_safetensors_load_buffer(ctx, f, len, "forged", &back, NULL) != NN_OK &&
          strstr(nn_ctx_error(ctx), "forged") != NULL);
    free(f);
    /* .npy keeps float16 and the small ints; bfloat16 has no NumPy dtype. */
    nn_tensor *h = nn_state_get(&s, "float16"), *i8 = nn_state_get(&s, "int8");
    CHECK(nn_npy_save_buffer(ctx, h, &buf, &len) == NN_OK);
    nn_tensor *hb = nn_npy_load_buffer(ctx, buf, len, "h.npy");
    CHECK(hb && hb->dtype == NN_FLOAT16 && memcmp(nn_tensor_data(hb), nn_tensor_data(h), 6) == 0);
    nn_tensor_release(hb);
    free(buf);
    CHECK(nn_npy_save_buffer(ctx, i8, &buf, &len) == NN_OK);
    nn_tensor *ib = nn_npy_load_buffer(ctx, buf, len, "i8.npy");
    CHECK(ib && ib->dtype == NN_INT8 && nn_tensor_get_flat_int(ib, 1) == 16);
    nn_tensor_release(ib);
    free(buf);
    buf = NULL;
    CHECK(nn_npy_save_buffer(ctx, nn_state_get(&s, "bfloat16"), &buf, &len) != NN_OK &&
          strstr(nn_ctx_error(ctx), "bfloat16") != NULL);
    free(buf);
    nn_state_free(&s);
    nn_state_free(&back);
    nn_ctx_free(ctx);
}
