#include "nn_buf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nn_buf_init(nn_buf *b) {
    b->data = NULL;
    b->len = b->cap = 0;
}

void nn_buf_free(nn_buf *b) {
    if (!b) return;
    free(b->data);
    nn_buf_init(b);
}

/* Room for [extra] more bytes and the NUL; false when realloc fails. */
static bool reserve(nn_buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

void nn_buf_add(nn_buf *b, const char *s, size_t n) {
    if (!reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void nn_buf_puts(nn_buf *b, const char *s) {
    nn_buf_add(b, s, strlen(s));
}

void nn_buf_printf(nn_buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char tmp[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        va_end(ap);
        return;
    }
    /* Short text goes through the stack; longer text is formatted a second
     * time straight into the buffer. */
    if ((size_t)n < sizeof tmp) {
        nn_buf_add(b, tmp, (size_t)n);
    } else if (reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
    va_end(ap);
}

char *nn_buf_take(nn_buf *b) {
    char *s = b->data;
    if (!s) s = calloc(1, 1);
    nn_buf_init(b);
    return s;
}

/* Length of the valid UTF-8 sequence at [s] (at most [n] bytes), or 0 for an
 * invalid one (overlong forms, surrogates and code points past U+10FFFF
 * included). */
size_t nn_utf8_len(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint32_t cp, min;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0)
        len = 3, cp = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

bool nn_utf8_valid(const char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        size_t l = nn_utf8_len((const unsigned char *)s + i, n - i);
        if (!l) return false;
        i += l;
    }
    return true;
}

static const char b64_tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *nn_base64_encode(const unsigned char *p, size_t n) {
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out) return NULL;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = b64_tab[v >> 18], *o++ = b64_tab[(v >> 12) & 63], *o++ = b64_tab[(v >> 6) & 63];
        *o++ = b64_tab[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *o++ = b64_tab[v >> 18], *o++ = b64_tab[(v >> 12) & 63];
        *o++ = i + 1 < n ? b64_tab[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o = 0;
    return out;
}

unsigned char *nn_base64_decode(const char *s, size_t *len) {
    size_t n = strlen(s);
    unsigned char *out = malloc(n / 4 * 3 + 3), *o = out;
    if (!out) return NULL;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '=') break;
        if (c == '\n' || c == '\r' || c == ' ') continue;
        const char *at = c ? strchr(b64_tab, c) : NULL;
        if (!at) {
            free(out);
            return NULL;
        }
        acc = acc << 6 | (uint32_t)(at - b64_tab);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = (unsigned char)(acc >> bits);
        }
    }
    *len = (size_t)(o - out);
    return out;
}
