/* fuzz_wire: the kernel's wire decoder (frames -> verified, parsed message)
 * on arbitrary bytes.
 *
 * The input's first byte picks a mode; the rest splits into frames at NUL
 * bytes. Mode 0 hands the frames over raw (the delimiter, the signature and
 * the frame count are the fuzzer's to get right). Mode 1 treats them as
 * [identities..., header, parent, metadata, content, buffers...] around a
 * delimiter and a correct signature, so the JSON checks are reached; the
 * same frames sent again must then be refused as a replay. Mode 2 does the
 * same with signing off. Every input must decode or be refused without a
 * crash, a sanitizer report or a leak; a decoded message must have its
 * msg_type, msg_id and four JSON objects. Built with libFuzzer (`make fuzz`)
 * and with tests/fuzz/fuzz_driver.c for `make test`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_wire.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) abort();                                                                         \
    } while (0)

static kernel_auth *g_signed, *g_plain;

static void check(const kernel_msg *m) {
    REQUIRE(m->msg_type && *m->msg_type && m->msg_id);
    REQUIRE(cJSON_IsObject(m->header) && cJSON_IsObject(m->parent));
    REQUIRE(cJSON_IsObject(m->metadata) && cJSON_IsObject(m->content));
    REQUIRE(m->header_raw && m->n_idents >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[128];
    if (!g_signed) {
        g_signed = kernel_auth_new("hmac-sha256", "fuzz-key", err, sizeof err);
        g_plain = kernel_auth_new(NULL, "", err, sizeof err);
        REQUIRE(g_signed && g_plain);
    }
    if (size == 0) return 0;
    int mode = data[0] % 3;
    kernel_frame in[KERNEL_MAX_FRAMES + 4];
    int n = 0;
    size_t start = 1;
    for (size_t i = 1; i <= size && n < KERNEL_MAX_FRAMES; i++) {
        if (i == size || data[i] == 0) {
            in[n].data = data + start;
            in[n].len = i - start;
            n++;
            start = i + 1;
        }
    }
    kernel_msg m;
    if (mode == 0) {
        if (kernel_wire_decode(g_signed, in, n, &m, err, sizeof err)) check(&m);
        kernel_msg_free(&m);
        if (kernel_wire_decode(g_plain, in, n, &m, err, sizeof err)) check(&m);
        kernel_msg_free(&m);
        return 0;
    }
    if (n < 4) return 0;
    /* Identities are what comes before the last four parts, then buffers:
     * the first byte's higher bits say how many of the frames are idents. */
    int n_idents = (data[0] / 3) % (n - 3);
    kernel_frame f[KERNEL_MAX_FRAMES + 4];
    int k = 0;
    for (int i = 0; i < n_idents; i++) f[k++] = in[i];
    static const char delim[] = "<IDS|MSG>";
    f[k++] = (kernel_frame){delim, sizeof delim - 1};
    kernel_auth *a = mode == 1 ? g_signed : g_plain;
    const char *parts[4];
    size_t lens[4];
    for (int i = 0; i < 4; i++) {
        parts[i] = (const char *)in[n_idents + i].data;
        lens[i] = in[n_idents + i].len;
    }
    char sig[129];
    kernel_auth_sign(a, parts, lens, sig);
    f[k++] = (kernel_frame){sig, strlen(sig)};
    for (int i = n_idents; i < n; i++) f[k++] = in[i];
    bool ok = kernel_wire_decode(a, f, k, &m, err, sizeof err);
    if (ok) {
        check(&m);
        REQUIRE(m.n_idents == n_idents);
    }
    kernel_msg_free(&m);
    bool again = kernel_wire_decode(a, f, k, &m, err, sizeof err);
    /* A signed message is refused the second time, whatever its JSON. */
    if (mode == 1)
        REQUIRE(!again);
    else
        REQUIRE(again == ok);
    kernel_msg_free(&m);
    return 0;
}
