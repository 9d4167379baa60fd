/* fuzz_safetensors: the safetensors reader against hostile bytes.
 *
 * The first input byte picks a mode. Mode 0 hands the rest to the reader as
 * a file, unchanged. The other modes read the rest as choices for a
 * plausible file (tensors with real and bogus dtypes, shapes with negative,
 * huge and fractional dims, offsets that are right, shifted, swapped or
 * huge, metadata, a data buffer of about the right length), then perhaps
 * overwrite one byte or cut the file short. So the plain replay in `make
 * test`, whose inputs are pseudo-random, still reaches the checks past the
 * JSON parser. The reader may refuse any input with an error value; it may
 * not crash, trip a sanitizer or leak, and whatever it accepts must save and
 * load back to the same tensors. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_mem.h"
#include "nn_io.h"

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static int byte(reader *r) {
    return r->i < r->n ? r->p[r->i++] : 0;
}

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(text *t, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
    }
    memcpy(t->s + t->len, buf, (size_t)n + 1);
    t->len += (size_t)n;
}

static const char *const KEYS[] = {
    "a",       "b",      "w.0", "blocks.1.attn.qkv.bias", "a", "__metadata__", "\\u0000", "\\ud800",
    "\\u00e9", "k\\\"q", ""};
static const char *const DTYPES[] = {"F32", "F64", "I64", "BOOL", "F16", "BF16", "I32", "I16",
                                     "I8",  "U8",  "U16", "U32",  "U64", "C64",  "f32", "F8_E4M3"};
static const int DSIZE[] = {4, 8, 8, 1, 2, 2, 4, 2, 1, 1, 2, 4, 8, 8, 4, 1};

/* Build a file from the choices in [r]; returns a malloc'd buffer. */
static uint8_t *build(reader *r, size_t *len) {
    text h = {0};
    add(&h, "{");
    int n = byte(r) % 5;
    uint64_t at = 0;
    bool first = true;
    if (byte(r) % 4 == 0) {
        int k = byte(r) % 4;
        add(&h, "\"__metadata__\":%s",
            k == 0   ? "{\"format\":\"pt\"}"
            : k == 1 ? "{\"n\":1}"
            : k == 2 ? "[]"
                     : "{\"a\":\"\\u00e9\",\"b\":\"\"}");
        first = false;
    }
    for (int i = 0; i < n; i++) {
        int kc = byte(r), dc = byte(r);
        int ki = kc < 200 ? kc % 4 : kc % 11, di = dc < 200 ? dc % 12 : dc % 16;
        add(&h, "%s\"%s\":{\"dtype\":", first ? "" : ",", KEYS[ki]);
        first = false;
        if (byte(r) == 7)
            add(&h, "4");
        else
            add(&h, "\"%s\"", DTYPES[di]);
        int nd = byte(r) % 5;
        if (byte(r) == 9) nd = 9;
        uint64_t numel = 1;
        add(&h, ",\"shape\":[");
        for (int d = 0; d < nd; d++) {
            int c = byte(r);
            int64_t dim = c % 4;
            if (c == 250)
                add(&h, "%s-1", d ? "," : "");
            else if (c == 251)
                add(&h, "%s4294967296", d ? "," : "");
            else if (c == 252)
                add(&h, "%s9223372036854775807", d ? "," : "");
            else if (c == 253)
                add(&h, "%s1.5", d ? "," : "");
            else if (c == 254)
                add(&h, "%s99999999999999999999", d ? "," : "");
            else
                add(&h, "%s%lld", d ? "," : "", (long long)dim);
            numel *= (uint64_t)dim;
        }
        uint64_t size = numel * (uint64_t)DSIZE[di], b = at, e = at + size;
        switch (byte(r) % 8) {
        case 0: b += 1; break;
        case 1: e -= size ? 1 : 0; break;
        case 2: {
            uint64_t t = b;
            b = e;
            e = t;
            break;
        }
        case 3: e = UINT64_MAX / (1 + (uint64_t)byte(r)); break;
        case 4: b = e = 0; break;
        default: break;
        }
        add(&h, "],\"data_offsets\":[%llu,%llu]", (unsigned long long)b, (unsigned long long)e);
        if (byte(r) == 11) add(&h, ",\"extra\":0");
        add(&h, "}");
        at += size;
    }
    add(&h, "}");
    int pad = byte(r) % 9;
    for (int i = 0; i < pad; i++) add(&h, " ");
    size_t dlen = at < 4096 ? at : 4096;
    int delta = byte(r) % 5 - 2;
    if ((int64_t)dlen + delta >= 0) dlen = (size_t)((int64_t)dlen + delta);
    *len = 8 + h.len + dlen;
    uint8_t *f = malloc(*len + 1);
    for (int i = 0; i < 8; i++) f[i] = (uint8_t)((uint64_t)h.len >> (8 * i));
    memcpy(f + 8, h.s, h.len);
    for (size_t i = 0; i < dlen; i++) f[8 + h.len + i] = (uint8_t)byte(r);
    free(h.s);
    int m = byte(r) % 4;
    if (m && *len) {
        size_t pos = ((size_t)byte(r) * 256u + (size_t)byte(r)) % *len;
        if (m == 1) f[pos] = (uint8_t)byte(r);
        if (m == 2) *len = pos;
    }
    return f;
}

static void check_roundtrip(nn_ctx *ctx, const nn_state *s, const nn_io_meta *meta) {
    uint8_t *buf = NULL;
    size_t len = 0;
    if (nn_safetensors_save_buffer(ctx, s, meta, &buf, &len)) {
        fprintf(stderr, "fuzz_safetensors: saving what was loaded failed: %s\n", nn_ctx_error(ctx));
        abort();
    }
    nn_state back;
    nn_state_init(&back);
    if (nn_safetensors_load_buffer(ctx, buf, len, "resaved", &back, NULL) || back.n != s->n) {
        fprintf(stderr, "fuzz_safetensors: reloading failed: %s\n", nn_ctx_error(ctx));
        abort();
    }
    for (int i = 0; i < s->n; i++) {
        nn_tensor *a = s->entries[i].tensor, *b = back.entries[i].tensor;
        size_t nb = (size_t)nn_tensor_numel(a) * nn_dtype_size(a->dtype);
        if (strcmp(s->entries[i].name, back.entries[i].name) != 0 || a->dtype != b->dtype ||
            !nn_tensor_same_shape(a, b) ||
            (nb && memcmp(nn_tensor_data(a), nn_tensor_data(b), nb) != 0)) {
            fprintf(stderr, "fuzz_safetensors: round trip changed '%s'\n", s->entries[i].name);
            abort();
        }
    }
    nn_state_free(&back);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A small cap makes absurd requests hit it quickly. */
    size_t baseline = fuzz_mem_begin(256u << 20);
    nn_ctx *ctx = nn_ctx_new(0);
    reader r = {data, size, 0};
    uint8_t *file = NULL;
    size_t len = 0;
    if (size && data[0] % 4 == 0) {
        /* An exact-size copy, so ASan sees any read past the end. */
        len = size - 1;
        file = malloc(len + 1);
        memcpy(file, data + 1, len);
    } else {
        byte(&r);
        file = build(&r, &len);
    }
    nn_state s;
    nn_state_init(&s);
    nn_io_meta meta;
    nn_io_meta_init(&meta);
    if (nn_safetensors_load_buffer(ctx, file, len, "fuzz", &s, &meta) == NN_OK)
        check_roundtrip(ctx, &s, &meta);
    nn_state_free(&s);
    nn_io_meta_free(&meta);
    free(file);
    nn_ctx_free(ctx);
    fuzz_mem_end(baseline, "fuzz_safetensors");
    return 0;
}
