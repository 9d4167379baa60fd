/* kernel_wire: Jupyter wire messages <-> ZeroMQ frames, HMAC signatures,
 * replay protection, and the stderr log. See kernel_wire.h. */
#include "kernel_wire.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <uuid/uuid.h>
#include <zmq.h>

static const char DELIM[] = "<IDS|MSG>";
#define DELIM_LEN (sizeof DELIM - 1)

/* ---- log ---- */

static int g_debug = -1;

bool kernel_log_debug_enabled(void) {
    if (g_debug < 0) {
        const char *e = getenv("NNDB_KERNEL_DEBUG");
        g_debug = e && *e && strcmp(e, "0") != 0;
    }
    return g_debug > 0;
}

void kernel_log(kernel_log_level level, const char *fmt, ...) {
    if (level == KERNEL_LOG_DEBUG && !kernel_log_debug_enabled()) return;
    static const char *names[] = {"debug", "info", "warning", "error"};
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char when[40];
    kernel_now_iso(when);
    /* One fprintf per line, so lines from different threads do not mix. */
    fprintf(stderr, "[nndb kernel %s %s] %s\n", when, names[level], buf);
}

/* ---- signing and the replay window ---- */

#define REPLAY_KEY     16
#define REPLAY_BUCKETS (KERNEL_REPLAY_WINDOW * 2)

struct kernel_auth {
    unsigned char *key;
    size_t key_len;
    char digest[32]; /* "SHA256" */
    EVP_MAC *mac;
    /* A ring of the last KERNEL_REPLAY_WINDOW signatures, indexed by a
     * chained hash table (bucket heads and next links are ring slots). */
    pthread_mutex_t lock;
    unsigned char (*ring)[REPLAY_KEY];
    int32_t *bucket, *next;
    int count, oldest;
};

kernel_auth *kernel_auth_new(const char *scheme, const char *key, char *err, size_t errsz) {
    kernel_auth *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&a->lock, NULL);
    if (!scheme || !*scheme) scheme = "hmac-sha256";
    if (strncmp(scheme, "hmac-", 5) != 0 || strlen(scheme + 5) >= sizeof a->digest) {
        snprintf(err, errsz, "unsupported signature scheme '%s'", scheme);
        kernel_auth_free(a);
        return NULL;
    }
    for (size_t i = 0; scheme[5 + i]; i++) {
        char c = scheme[5 + i];
        a->digest[i] = (char)(c >= 'a' && c <= 'z' ? c - 32 : c);
    }
    const EVP_MD *md = EVP_get_digestbyname(a->digest);
    if (!md || EVP_MD_get_size(md) > 64 || EVP_MD_get_size(md) < REPLAY_KEY) {
        snprintf(err, errsz, "unsupported signature scheme '%s'", scheme);
        kernel_auth_free(a);
        return NULL;
    }
    if (key && *key) {
        a->key_len = strlen(key);
        a->key = malloc(a->key_len);
        a->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
        a->ring = malloc(sizeof *a->ring * KERNEL_REPLAY_WINDOW);
        a->next = malloc(sizeof *a->next * KERNEL_REPLAY_WINDOW);
        a->bucket = malloc(sizeof *a->bucket * REPLAY_BUCKETS);
        if (!a->key || !a->mac || !a->ring || !a->next || !a->bucket) {
            snprintf(err, errsz, "cannot set up HMAC");
            kernel_auth_free(a);
            return NULL;
        }
        memcpy(a->key, key, a->key_len);
        for (int i = 0; i < REPLAY_BUCKETS; i++) a->bucket[i] = -1;
    }
    return a;
}

void kernel_auth_free(kernel_auth *a) {
    if (!a) return;
    if (a->key) OPENSSL_cleanse(a->key, a->key_len);
    free(a->key);
    EVP_MAC_free(a->mac);
    free(a->ring);
    free(a->next);
    free(a->bucket);
    pthread_mutex_destroy(&a->lock);
    free(a);
}

bool kernel_auth_signing(const kernel_auth *a) {
    return a && a->key_len > 0;
}

/* The raw MAC of the four parts into [out]; returns its length, 0 on failure. */
static size_t mac_parts(const kernel_auth *a, const char *const parts[4], const size_t lens[4],
                        unsigned char out[64]) {
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(a->mac);
    if (!ctx) return 0;
    char digest[sizeof a->digest];
    memcpy(digest, a->digest, sizeof digest);
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                           OSSL_PARAM_construct_end()};
    size_t n = 0;
    bool ok = EVP_MAC_init(ctx, a->key, a->key_len, params);
    for (int i = 0; ok && i < 4; i++)
        ok = EVP_MAC_update(ctx, (const unsigned char *)parts[i], lens[i]);
    if (ok) ok = EVP_MAC_final(ctx, out, &n, 64);
    EVP_MAC_CTX_free(ctx);
    return ok ? n : 0;
}

static void to_hex(const unsigned char *b, size_t n, char *hex) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = digits[b[i] >> 4];
        hex[2 * i + 1] = digits[b[i] & 15];
    }
    hex[2 * n] = 0;
}

void kernel_auth_sign(const kernel_auth *a, const char *const parts[4], const size_t lens[4],
                      char *hex) {
    hex[0] = 0;
    if (!kernel_auth_signing(a)) return;
    unsigned char mac[64];
    size_t n = mac_parts(a, parts, lens, mac);
    if (n) to_hex(mac, n, hex);
}

static uint32_t replay_hash(const unsigned char *k) {
    uint32_t h;
    memcpy(&h, k, sizeof h);
    return h % REPLAY_BUCKETS;
}

/* Remember [key]; false when it was already there (a replay). */
static bool replay_insert(kernel_auth *a, const unsigned char *key) {
    pthread_mutex_lock(&a->lock);
    uint32_t h = replay_hash(key);
    for (int32_t i = a->bucket[h]; i >= 0; i = a->next[i]) {
        if (!memcmp(a->ring[i], key, REPLAY_KEY)) {
            pthread_mutex_unlock(&a->lock);
            return false;
        }
    }
    int slot;
    if (a->count < KERNEL_REPLAY_WINDOW) {
        slot = a->count++;
    } else {
        /* Forget the oldest: unlink it from its chain, reuse its slot. */
        slot = a->oldest;
        a->oldest = (a->oldest + 1) % KERNEL_REPLAY_WINDOW;
        int32_t *link = &a->bucket[replay_hash(a->ring[slot])];
        while (*link >= 0 && *link != slot) link = &a->next[*link];
        if (*link == slot) *link = a->next[slot];
    }
    memcpy(a->ring[slot], key, REPLAY_KEY);
    a->next[slot] = a->bucket[h];
    a->bucket[h] = slot;
    pthread_mutex_unlock(&a->lock);
    return true;
}

/* ---- decoding ---- */

void kernel_msg_free(kernel_msg *m) {
    if (!m) return;
    for (int i = 0; i < m->n_idents; i++) free((void *)m->idents[i].data);
    free(m->idents);
    free(m->header_raw);
    cJSON_Delete(m->header);
    cJSON_Delete(m->parent);
    cJSON_Delete(m->metadata);
    cJSON_Delete(m->content);
    memset(m, 0, sizeof *m);
}

static bool fail(kernel_msg *out, char *err, size_t errsz, const char *what) {
    kernel_msg_free(out);
    snprintf(err, errsz, "%s", what);
    return false;
}

static const char *string_field(const cJSON *obj, const char *name) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

bool kernel_wire_decode(kernel_auth *a, const kernel_frame *frames, int n, kernel_msg *out,
                        char *err, size_t errsz) {
    memset(out, 0, sizeof *out);
    if (n <= 0 || n > KERNEL_MAX_FRAMES) return fail(out, err, errsz, "bad frame count");
    int d = 0;
    while (d < n && !(frames[d].len == DELIM_LEN && !memcmp(frames[d].data, DELIM, DELIM_LEN))) d++;
    if (d == n) return fail(out, err, errsz, "no <IDS|MSG> delimiter");
    if (n - d - 1 < 5) return fail(out, err, errsz, "fewer than five frames after the delimiter");
    const kernel_frame *sig = &frames[d + 1], *part = &frames[d + 2];

    if (kernel_auth_signing(a)) {
        const char *parts[4];
        size_t lens[4];
        for (int i = 0; i < 4; i++) parts[i] = part[i].data, lens[i] = part[i].len;
        unsigned char mac[64];
        size_t mlen = mac_parts(a, parts, lens, mac);
        char hex[129];
        if (!mlen) return fail(out, err, errsz, "HMAC failed");
        to_hex(mac, mlen, hex);
        if (sig->len != 2 * mlen || CRYPTO_memcmp(sig->data, hex, 2 * mlen) != 0)
            return fail(out, err, errsz, "invalid signature");
        if (!replay_insert(a, mac)) return fail(out, err, errsz, "replayed signature");
    }

    if (memchr(part[0].data, 0, part[0].len)) return fail(out, err, errsz, "NUL in the header");
    cJSON **dst[4] = {&out->header, &out->parent, &out->metadata, &out->content};
    static const char *names[4] = {"header", "parent_header", "metadata", "content"};
    for (int i = 0; i < 4; i++) {
        *dst[i] = part[i].len ? cJSON_ParseWithLength(part[i].data, part[i].len) : NULL;
        if (!cJSON_IsObject(*dst[i])) {
            char what[64];
            snprintf(what, sizeof what, "%s is not a JSON object", names[i]);
            return fail(out, err, errsz, what);
        }
    }
    out->msg_type = string_field(out->header, "msg_type");
    out->msg_id = string_field(out->header, "msg_id");
    if (!out->msg_type || !*out->msg_type) return fail(out, err, errsz, "header has no msg_type");
    if (!out->msg_id) return fail(out, err, errsz, "header has no msg_id");

    out->header_raw = malloc(part[0].len + 1);
    out->idents = calloc((size_t)(d ? d : 1), sizeof *out->idents);
    if (!out->header_raw || !out->idents) return fail(out, err, errsz, "out of memory");
    memcpy(out->header_raw, part[0].data, part[0].len);
    out->header_raw[part[0].len] = 0;
    for (int i = 0; i < d; i++) {
        void *copy = malloc(frames[i].len ? frames[i].len : 1);
        if (!copy) return fail(out, err, errsz, "out of memory");
        memcpy(copy, frames[i].data, frames[i].len);
        out->idents[i].data = copy;
        out->idents[i].len = frames[i].len;
        out->n_idents = i + 1;
    }
    return true;
}

int kernel_wire_recv(void *sock, kernel_auth *a, kernel_msg *out) {
    memset(out, 0, sizeof *out);
    zmq_msg_t parts[KERNEL_MAX_FRAMES];
    kernel_frame frames[KERNEL_MAX_FRAMES];
    int n = 0, rc = 1;
    size_t total = 0;
    bool more = true, too_big = false;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, sock, 0) < 0) {
            zmq_msg_close(&m);
            if (n == 0) return -1;
            /* A multipart message arrives whole or not at all; only a
             * terminating context can cut it. */
            rc = -1;
            break;
        }
        more = zmq_msg_more(&m);
        total += zmq_msg_size(&m);
        if (n == KERNEL_MAX_FRAMES || total > KERNEL_MAX_MSG_BYTES) {
            too_big = true;
            zmq_msg_close(&m);
            continue; /* keep reading to the end of the message */
        }
        parts[n] = m;
        frames[n].data = zmq_msg_data(&parts[n]);
        frames[n].len = zmq_msg_size(&parts[n]);
        n++;
    }
    if (rc == 1) {
        char err[128];
        if (too_big) {
            kernel_log(KERNEL_LOG_WARN, "dropped a message of %zu bytes or over %d frames", total,
                       KERNEL_MAX_FRAMES);
            rc = 0;
        } else if (!kernel_wire_decode(a, frames, n, out, err, sizeof err)) {
            kernel_log(KERNEL_LOG_WARN, "dropped a message (%d frames, %zu bytes): %s", n, total,
                       err);
            rc = 0;
        }
    }
    for (int i = 0; i < n; i++) zmq_msg_close(&parts[i]);
    return rc;
}

/* ---- encoding ---- */

void kernel_uuid(char *out) {
    uuid_t u;
    uuid_generate_random(u);
    uuid_unparse_lower(u, out);
}

void kernel_now_iso(char *out) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct tm tm;
    time_t t = tv.tv_sec;
    gmtime_r(&t, &tm);
    char buf[96];
    snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ", tm.tm_year + 1900,
             tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)tv.tv_usec);
    memcpy(out, buf, 39);
    out[39] = 0;
}

/* Length of the valid UTF-8 sequence at [s] (1-4), or 0 when it is not one. */
static int utf8_seq(const unsigned char *s) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (c >= 0xF5) n = 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    if (n == 3 && ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] >= 0xA0))) return 0;
    if (n == 4 && ((c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] >= 0x90))) return 0;
    return n;
}

/* Clients decode every frame as UTF-8 and give up on the message when that
 * fails, so bytes that are not UTF-8 (a print of raw file bytes) become
 * U+FFFD. Returns [text] when it is valid, else a malloc'ed copy (or NULL). */
static char *utf8_clean(char *text) {
    const unsigned char *s = (const unsigned char *)text;
    size_t bad = 0, len = 0;
    while (s[len]) {
        int n = utf8_seq(s + len);
        if (!n) bad++;
        len += n ? (size_t)n : 1;
    }
    if (!bad) return text;
    char *out = malloc(len + 2 * bad + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < len;) {
        int n = utf8_seq(s + i);
        if (n) {
            memcpy(o, s + i, (size_t)n);
            o += n, i += (size_t)n;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3, i++;
        }
    }
    *o = 0;
    return out;
}

static int send_part(void *sock, const void *data, size_t len, bool more) {
    for (;;) {
        if (zmq_send(sock, data, len, more ? ZMQ_SNDMORE : 0) >= 0) return 0;
        if (errno != EINTR) return -1;
    }
}

int kernel_wire_send(void *sock, const kernel_auth *a, const char *session,
                     const kernel_frame *idents, int n_idents, const char *parent_raw,
                     const char *msg_type, cJSON *content, cJSON *metadata, char *msg_id_out) {
    char msg_id[37], date[40];
    kernel_uuid(msg_id);
    kernel_now_iso(date);
    if (msg_id_out) memcpy(msg_id_out, msg_id, sizeof msg_id);
    char header[512];
    snprintf(header, sizeof header,
             "{\"msg_id\":\"%s\",\"session\":\"%s\",\"username\":\"kernel\",\"date\":\"%s\","
             "\"msg_type\":\"%s\",\"version\":\"" KERNEL_PROTOCOL_VERSION "\"}",
             msg_id, session, date, msg_type);
    char *content_s = content ? cJSON_PrintUnformatted(content) : NULL;
    char *meta_s = metadata ? cJSON_PrintUnformatted(metadata) : NULL;
    cJSON_Delete(content);
    cJSON_Delete(metadata);
    if (content_s) {
        char *clean = utf8_clean(content_s);
        if (clean != content_s) free(content_s);
        content_s = clean;
    }
    const char *parts[4] = {header, parent_raw && *parent_raw ? parent_raw : "{}",
                            meta_s ? meta_s : "{}", content_s ? content_s : "{}"};
    size_t lens[4];
    for (int i = 0; i < 4; i++) lens[i] = strlen(parts[i]);
    char sig[129];
    kernel_auth_sign(a, parts, lens, sig);
    int rc = 0;
    for (int i = 0; i < n_idents && rc == 0; i++)
        rc = send_part(sock, idents[i].data, idents[i].len, true);
    if (rc == 0) rc = send_part(sock, DELIM, DELIM_LEN, true);
    if (rc == 0) rc = send_part(sock, sig, strlen(sig), true);
    for (int i = 0; i < 4 && rc == 0; i++) rc = send_part(sock, parts[i], lens[i], i < 3);
    if (rc != 0)
        kernel_log(KERNEL_LOG_WARN, "could not send %s: %s", msg_type, zmq_strerror(errno));
    else if (kernel_log_debug_enabled())
        kernel_log(KERNEL_LOG_DEBUG, "sent %s %.300s", msg_type, parts[3]);
    free(content_s);
    free(meta_s);
    return rc;
}
