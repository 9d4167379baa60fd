/* fuzz_npy: the .npy reader against hostile bytes.
 *
 * The first input byte picks a mode. Mode 0 hands the rest to the reader as
 * a file, unchanged. The other modes read the rest as choices for a
 * plausible file (versions 1.0 to 3.0 and bogus ones, real and unsupported
 * descrs in both byte orders, Fortran order, shapes with negative, huge and
 * too many dims, a header length that is right or lies, data of about the
 * right length), then perhaps overwrite one byte or cut the file short, so
 * the plain replay in `make test` reaches the checks past the header
 * parser. The reader may refuse any input with an error value; it may not
 * crash, trip a sanitizer or leak, and whatever it accepts must save and
 * load back to the same tensor. */
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

static const char *const DESCRS[] = {
    "<f4", ">f4", "<f8", ">f8", "<f2", ">f2", "|b1", "<i8", ">i8", "<i4", ">i2",
    "|i1", "|u1", "<u2", ">u4", "=f4", "<c8", "|O",  "<U3", "<u8", "|f4", "[('a', '<f4')]"};
static const int DSIZE[] = {4, 4, 8, 8, 2, 2, 1, 8, 8, 4, 2, 1, 1, 2, 4, 4, 8, 8, 12, 8, 4, 4};

static uint8_t *build(reader *r, size_t *len) {
    char h[1024];
    int di = byte(r) % 22, nd = byte(r) % 5;
    if (byte(r) == 9) nd = 9;
    const char *fortran = byte(r) % 2 ? "True" : "False";
    if (byte(r) == 5) fortran = "maybe";
    int n = snprintf(h, sizeof h, "{'descr': %s%s%s, 'fortran_order': %s, 'shape': (",
                     DESCRS[di][0] == '[' ? "" : "'", DESCRS[di], DESCRS[di][0] == '[' ? "" : "'",
                     fortran);
    uint64_t numel = 1;
    for (int d = 0; d < nd; d++) {
        int c = byte(r);
        int64_t dim = c % 4;
        const char *sep = d ? ", " : "";
        if (c == 250)
            n += snprintf(h + n, sizeof h - (size_t)n, "%s-1", sep);
        else if (c == 251)
            n += snprintf(h + n, sizeof h - (size_t)n, "%s4294967296", sep);
        else if (c == 252)
            n += snprintf(h + n, sizeof h - (size_t)n, "%s9223372036854775807", sep);
        else if (c == 253)
            n += snprintf(h + n, sizeof h - (size_t)n, "%s3L", sep);
        else if (c == 254)
            n += snprintf(h + n, sizeof h - (size_t)n, "%s99999999999999999999", sep);
        else
            n += snprintf(h + n, sizeof h - (size_t)n, "%s%lld", sep, (long long)dim);
        numel *= (uint64_t)dim;
    }
    n += snprintf(h + n, sizeof h - (size_t)n, "%s), }", nd == 1 ? "," : "");
    int pad = byte(r) % 64;
    for (int i = 0; i < pad && n < (int)sizeof h - 2; i++) h[n++] = ' ';
    h[n++] = '\n';
    int ver = 1 + byte(r) % 3;
    if (byte(r) == 3) ver = 4;
    size_t pre = ver == 1 ? 10 : 12, hlen = (size_t)n;
    if (byte(r) == 1) hlen += (size_t)byte(r) - 128; /* a header length that lies */
    uint64_t need = numel * (uint64_t)DSIZE[di];
    size_t dlen = need < 4096 ? (size_t)need : 4096;
    int delta = byte(r) % 5 - 2;
    if ((int64_t)dlen + delta >= 0) dlen = (size_t)((int64_t)dlen + delta);
    *len = pre + (size_t)n + dlen;
    uint8_t *f = malloc(*len + 1);
    memcpy(f, "\x93NUMPY", 6);
    f[6] = (uint8_t)ver;
    f[7] = 0;
    for (size_t i = 8; i < pre; i++) f[i] = (uint8_t)(hlen >> (8 * (i - 8)));
    memcpy(f + pre, h, (size_t)n);
    for (size_t i = 0; i < dlen; i++) f[pre + (size_t)n + i] = (uint8_t)byte(r);
    int m = byte(r) % 4;
    if (m && *len) {
        size_t pos = ((size_t)byte(r) * 256u + (size_t)byte(r)) % *len;
        if (m == 1) f[pos] = (uint8_t)byte(r);
        if (m == 2) *len = pos;
    }
    return f;
}

static void check_roundtrip(nn_ctx *ctx, nn_tensor *t) {
    uint8_t *buf = NULL;
    size_t len = 0;
    if (nn_npy_save_buffer(ctx, t, &buf, &len)) {
        fprintf(stderr, "fuzz_npy: saving what was loaded failed: %s\n", nn_ctx_error(ctx));
        abort();
    }
    nn_tensor *b = nn_npy_load_buffer(ctx, buf, len, "resaved");
    size_t nb = (size_t)nn_tensor_numel(t) * nn_dtype_size(t->dtype);
    if (!b || b->dtype != t->dtype || !nn_tensor_same_shape(t, b) ||
        (nb && memcmp(nn_tensor_data(t), nn_tensor_data(b), nb) != 0)) {
        fprintf(stderr, "fuzz_npy: round trip changed the tensor: %s\n", nn_ctx_error(ctx));
        abort();
    }
    nn_tensor_release(b);
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
        len = size - 1; /* an exact-size copy, so ASan sees reads past the end */
        file = malloc(len + 1);
        memcpy(file, data + 1, len);
    } else {
        byte(&r);
        file = build(&r, &len);
    }
    nn_tensor *t = nn_npy_load_buffer(ctx, file, len, "fuzz");
    if (t) check_roundtrip(ctx, t);
    nn_tensor_release(t);
    free(file);
    nn_ctx_free(ctx);
    fuzz_mem_end(baseline, "fuzz_npy");
    return 0;
}
