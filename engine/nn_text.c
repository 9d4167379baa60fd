/* nn_text: character vocabularies, the words corpus and text-file corpora. */
#include "nn_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nn_mem.h"

#define MAX_CODE_POINT 0x10FFFFu

typedef struct cp_id {
    uint32_t cp;
    int64_t id;
} cp_id;

struct nn_vocab {
    int32_t refcount;
    int64_t size;
    char (*itos)[5]; /* UTF-8 of each id, NUL-terminated */
    cp_id *sorted;   /* (code point, id) sorted by code point, for stoi */
};

/* ---- UTF-8 ---- */

/* Decode one code point at s[*i] (of [len] bytes); false on a truncated,
 * malformed, overlong or surrogate sequence. Advances *i on success. */
static bool utf8_next(const unsigned char *s, size_t len, size_t *i, uint32_t *cp) {
    unsigned char c = s[*i];
    if (c < 0x80) {
        *cp = c;
        *i += 1;
        return true;
    }
    size_t extra;
    uint32_t v, min;
    if ((c & 0xE0) == 0xC0) {
        extra = 1, v = c & 0x1Fu, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        extra = 2, v = c & 0x0Fu, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        extra = 3, v = c & 0x07u, min = 0x10000;
    } else {
        return false;
    }
    if (len - *i <= extra) return false;
    for (size_t k = 1; k <= extra; k++) {
        unsigned char d = s[*i + k];
        if ((d & 0xC0) != 0x80) return false;
        v = (v << 6) | (d & 0x3Fu);
    }
    if (v < min || v > MAX_CODE_POINT || (v >= 0xD800 && v <= 0xDFFF)) return false;
    *cp = v;
    *i += extra + 1;
    return true;
}

static void utf8_put(uint32_t cp, char out[5]) {
    memset(out, 0, 5);
    if (cp < 0x80) {
        out[0] = (char)cp;
    } else if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[0] = (char)(0xF0 | (cp >> 18));
        out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[3] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Check that [buf] is UTF-8; on failure name [path], the byte offset and the
 * line. Returns the number of code points, or -1. */
static int64_t utf8_check(nn_ctx *ctx, const char *path, const unsigned char *buf, size_t len) {
    size_t i = 0;
    int64_t count = 0, line = 1;
    while (i < len) {
        uint32_t cp;
        size_t at = i;
        if (!utf8_next(buf, len, &i, &cp)) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "'%s' is not UTF-8 text: byte 0x%02x at offset %zu (line %lld) does not "
                         "start a valid character; convert it (iconv -t UTF-8) or pass another "
                         "file",
                         path, buf[at], at, (long long)line);
            return -1;
        }
        if (cp == '\n') line++;
        count++;
    }
    return count;
}

/* ---- files ---- */

/* The whole of [path] in a NUL-terminated buffer from nn_mem; *len bytes.
 * [hint] is appended to the message when the file cannot be opened. */
static unsigned char *read_file(nn_ctx *ctx, const char *path, size_t *len, const char *hint) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        nn_error_set(&ctx->err, NN_ERR_IO, "cannot open '%s': %s%s", path, strerror(errno), hint);
        return NULL;
    }
    struct stat st;
    unsigned char *buf = NULL;
    if (fstat(fileno(f), &st) != 0) {
        nn_error_set(&ctx->err, NN_ERR_IO, "cannot read '%s': %s", path, strerror(errno));
    } else if (!S_ISREG(st.st_mode)) {
        nn_error_set(&ctx->err, NN_ERR_IO, "'%s' is not a regular file (a directory or a device?)",
                     path);
    } else if (st.st_size == 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "'%s' is empty: a corpus needs some text", path);
    } else if ((int64_t)st.st_size > NN_DATA_MAX_FILE_BYTES) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "'%s' is %lld bytes, above the %lld-byte limit for a text corpus; use a "
                     "smaller excerpt",
                     path, (long long)st.st_size, (long long)NN_DATA_MAX_FILE_BYTES);
    } else {
        size_t n = (size_t)st.st_size;
        buf = nn_mem_alloc(n + 1, "a text file", &ctx->err);
        if (buf && fread(buf, 1, n, f) != n) {
            nn_error_set(&ctx->err, NN_ERR_IO, "cannot read '%s': %s", path,
                         ferror(f) ? strerror(errno) : "the file is shorter than it said");
            nn_mem_free(buf);
            buf = NULL;
        }
        if (buf) {
            buf[n] = 0;
            *len = n;
        }
    }
    fclose(f);
    return buf;
}

/* ---- vocabulary ---- */

static int by_code_point(const void *a, const void *b) {
    uint32_t x = ((const cp_id *)a)->cp, y = ((const cp_id *)b)->cp;
    return (x > y) - (x < y);
}

/* A vocabulary of [n] code points, id i = cps[i]; duplicates are an error. */
static nn_vocab *vocab_from_cps(nn_ctx *ctx, const uint32_t *cps, int64_t n) {
    nn_vocab *v = nn_mem_calloc(sizeof *v, "a vocabulary", &ctx->err);
    if (!v) return NULL;
    v->refcount = 1;
    v->size = n;
    size_t m = (size_t)(n > 0 ? n : 1);
    v->itos = nn_mem_alloc(m * sizeof *v->itos, "a vocabulary", &ctx->err);
    v->sorted = v->itos ? nn_mem_alloc(m * sizeof *v->sorted, "a vocabulary", &ctx->err) : NULL;
    if (!v->sorted) {
        nn_vocab_release(v);
        return NULL;
    }
    for (int64_t i = 0; i < n; i++) {
        utf8_put(cps[i], v->itos[i]);
        v->sorted[i] = (cp_id){cps[i], i};
    }
    qsort(v->sorted, (size_t)n, sizeof *v->sorted, by_code_point);
    for (int64_t i = 1; i < n; i++)
        if (v->sorted[i].cp == v->sorted[i - 1].cp) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "a vocabulary lists character '%s' (U+%04X) twice, as ids %lld and %lld",
                         v->itos[v->sorted[i].id], (unsigned)v->sorted[i].cp,
                         (long long)v->sorted[i - 1].id, (long long)v->sorted[i].id);
            nn_vocab_release(v);
            return NULL;
        }
    return v;
}

nn_vocab *nn_vocab_new(nn_ctx *ctx, const char *chars) {
    size_t len = strlen(chars), i = 0;
    uint32_t *cps = nn_mem_alloc((len ? len : 1) * sizeof *cps, "a vocabulary", &ctx->err);
    if (!cps) return NULL;
    int64_t n = 0;
    while (i < len) {
        size_t at = i;
        if (!utf8_next((const unsigned char *)chars, len, &i, &cps[n++])) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "vocabulary characters are not UTF-8: bad byte 0x%02x at offset %zu",
                         (unsigned char)chars[at], at);
            nn_mem_free(cps);
            return NULL;
        }
    }
    nn_vocab *v = vocab_from_cps(ctx, cps, n);
    nn_mem_free(cps);
    return v;
}

nn_vocab *nn_vocab_retain(nn_vocab *v) {
    if (v) v->refcount++;
    return v;
}

void nn_vocab_release(nn_vocab *v) {
    if (!v || --v->refcount > 0) return;
    nn_mem_free(v->itos);
    nn_mem_free(v->sorted);
    nn_mem_free(v);
}

int64_t nn_vocab_size(const nn_vocab *v) {
    return v->size;
}

const char *nn_vocab_itos(const nn_vocab *v, int64_t id) {
    return id >= 0 && id < v->size ? v->itos[id] : NULL;
}

static int64_t lookup(const nn_vocab *v, uint32_t cp) {
    int64_t lo = 0, hi = v->size;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v->sorted[mid].cp < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->size && v->sorted[lo].cp == cp ? v->sorted[lo].id : -1;
}

int64_t nn_vocab_stoi(const nn_vocab *v, const char *utf8) {
    size_t i = 0, len = strlen(utf8);
    uint32_t cp;
    if (!len || !utf8_next((const unsigned char *)utf8, len, &i, &cp)) return -1;
    return lookup(v, cp);
}

/* A printable rendering of one character for messages. */
static const char *show_char(uint32_t cp, char buf[16]) {
    if (cp == '\n') return "\\n";
    if (cp == '\t') return "\\t";
    if (cp < 0x20 || cp == 0x7F) {
        snprintf(buf, 16, "\\x%02x", (unsigned)cp);
        return buf;
    }
    utf8_put(cp, buf);
    return buf;
}

nn_tensor *nn_vocab_encode(nn_ctx *ctx, const nn_vocab *v, const char *s) {
    size_t len = strlen(s), i = 0;
    int64_t n = utf8_check(ctx, "the string to encode", (const unsigned char *)s, len);
    if (n < 0) return NULL;
    nn_tensor *out = nn_tensor_empty(ctx, NN_INT64, 1, &n);
    if (!out) return NULL;
    int64_t *ids = nn_tensor_data(out);
    for (int64_t k = 0; k < n; k++) {
        uint32_t cp = 0;
        utf8_next((const unsigned char *)s, len, &i, &cp);
        ids[k] = lookup(v, cp);
        if (ids[k] < 0) {
            char buf[16];
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "character '%s' (U+%04X) at position %lld is not in the vocabulary of "
                         "%lld characters",
                         show_char(cp, buf), (unsigned)cp, (long long)k, (long long)v->size);
            nn_tensor_release(out);
            return NULL;
        }
    }
    return out;
}

char *nn_vocab_decode(nn_ctx *ctx, const nn_vocab *v, const nn_tensor *ids) {
    if (ids->dtype != NN_INT64) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "decode needs int64 token ids, got %s",
                     nn_dtype_name(ids->dtype));
        return NULL;
    }
    int64_t n = nn_tensor_numel(ids);
    char *out = malloc((size_t)n * 4 + 1);
    if (!out) {
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory decoding %lld tokens", (long long)n);
        return NULL;
    }
    size_t len = 0;
    for (int64_t k = 0; k < n; k++) {
        int64_t id = (int64_t)nn_tensor_get_flat(ids, k);
        if (id < 0 || id >= v->size) {
            nn_error_set(&ctx->err, NN_ERR_INDEX,
                         "token id %lld at position %lld is outside the vocabulary [0, %lld)",
                         (long long)id, (long long)k, (long long)v->size);
            free(out);
            return NULL;
        }
        size_t m = strlen(v->itos[id]);
        memcpy(out + len, v->itos[id], m);
        len += m;
    }
    out[len] = 0;
    return out;
}

/* ---- the words corpus ---- */

typedef struct span {
    int64_t start, len;
} span;

static bool is_word(const unsigned char *s, int64_t len) {
    if (len == 0) return false;
    for (int64_t i = 0; i < len; i++)
        if (s[i] < 'a' || s[i] > 'z') return false;
    return true;
}

nn_dataset *nn_data_words(nn_ctx *ctx, const char *path, int64_t block_size, uint64_t seed) {
    if (block_size < 1) {
        nn_error_set(&ctx->err, NN_ERR_VALUE, "words: block_size must be at least 1, got %lld",
                     (long long)block_size);
        return NULL;
    }
    if (!path) path = NN_DATA_WORDS_PATH;
    size_t len = 0;
    bool is_default = strcmp(path, NN_DATA_WORDS_PATH) == 0;
    unsigned char *buf = read_file(ctx, path, &len,
                                   is_default ? " (install Debian's wamerican package: apt-get "
                                                "install wamerican, or name another word list)"
                                              : "");
    if (!buf) return NULL;
    nn_dataset *ds = NULL;
    span *words = NULL;
    if (utf8_check(ctx, path, buf, len) < 0) goto done;
    int64_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += buf[i] == '\n';
    words = nn_mem_alloc((size_t)lines * sizeof *words, "a word list", &ctx->err);
    if (!words) goto done;
    int64_t n_words = 0, skipped = 0, n = 0;
    for (size_t i = 0; i < len;) {
        size_t end = i;
        while (end < len && buf[end] != '\n') end++;
        int64_t wl = (int64_t)(end - i);
        if (wl > 0 && buf[i + (size_t)wl - 1] == '\r') wl--;
        if (is_word(buf + i, wl)) {
            words[n_words++] = (span){(int64_t)i, wl};
            n += wl + 1;
        } else if (wl > 0) {
            skipped++;
        }
        i = end + 1;
    }
    if (n_words == 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "'%s' has no line made only of lowercase letters a-z (%lld lines skipped); "
                     "a words corpus needs one word per line",
                     path, (long long)skipped);
        goto done;
    }
    nn_rng rng;
    nn_rng_seed(&rng, seed);
    for (int64_t i = n_words - 1; i > 0; i--) {
        int64_t j = (int64_t)nn_rng_below(&rng, (uint64_t)i + 1);
        span t = words[i];
        words[i] = words[j];
        words[j] = t;
    }
    ds = nn_data_alloc(ctx, "words");
    if (!ds) goto done;
    ds->n = n;
    ds->num_classes = 27;
    ds->vocab = nn_vocab_new(ctx, ".abcdefghijklmnopqrstuvwxyz");
    ds->x = ds->vocab ? nn_tensor_empty(ctx, NN_INT64, 2, (int64_t[]){n, block_size}) : NULL;
    ds->y = ds->x ? nn_tensor_empty(ctx, NN_INT64, 1, &n) : NULL;
    if (!ds->y) {
        nn_data_free(ds);
        ds = NULL;
        goto done;
    }
    int64_t *x = nn_tensor_data(ds->x), *y = nn_tensor_data(ds->y), row = 0;
    for (int64_t w = 0; w < n_words; w++) {
        const unsigned char *s = buf + words[w].start;
        /* Sample t of a word sees the block_size characters before position
         * t, with '.' (0) before the word's start. */
        for (int64_t t = 0; t <= words[w].len; t++, row++) {
            for (int64_t b = 0; b < block_size; b++) {
                int64_t p = t - block_size + b;
                x[row * block_size + b] = p < 0 ? 0 : s[p] - 'a' + 1;
            }
            y[row] = t < words[w].len ? s[t] - 'a' + 1 : 0;
        }
    }
    snprintf(ds->description, sizeof ds->description,
             "words: %lld words from '%s' (%lld lines not made of a-z skipped; shuffled with seed "
             "%llu), %lld samples of %lld previous characters -> the next; vocabulary '.' and "
             "a-z (27)",
             (long long)n_words, path, (long long)skipped, (unsigned long long)seed, (long long)n,
             (long long)block_size);
    char a[64], b[64];
    size_t dl = strlen(ds->description);
    snprintf(ds->description + dl, sizeof ds->description - dl, "; x int64 %s, y int64 %s",
             nn_tensor_shape_str(ds->x, a, sizeof a), nn_tensor_shape_str(ds->y, b, sizeof b));
done:
    nn_mem_free(words);
    nn_mem_free(buf);
    return ds;
}

/* ---- any text file ---- */

nn_dataset *nn_data_text(nn_ctx *ctx, const char *path, int64_t block_size, int64_t stride) {
    if (block_size < 1 || stride < 0) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "text: block_size must be at least 1 and stride at least 0 (0: block_size), "
                     "got %lld and %lld",
                     (long long)block_size, (long long)stride);
        return NULL;
    }
    if (stride == 0) stride = block_size;
    size_t len = 0;
    unsigned char *buf = read_file(ctx, path, &len, "");
    if (!buf) return NULL;
    nn_dataset *ds = NULL;
    int32_t *ids = NULL;
    uint32_t *cps = NULL;
    int64_t count = utf8_check(ctx, path, buf, len);
    if (count < 0) goto done;
    if (count < block_size + 1) {
        nn_error_set(&ctx->err, NN_ERR_VALUE,
                     "'%s' has %lld characters; a block_size of %lld needs at least %lld", path,
                     (long long)count, (long long)block_size, (long long)block_size + 1);
        goto done;
    }
    /* ids[cp] first marks the characters present, then holds their id:
     * ids in code point order, as nanoGPT's sorted(set(text)). */
    ids = nn_mem_calloc((MAX_CODE_POINT + 1) * sizeof *ids, "a character table", &ctx->err);
    if (!ids) goto done;
    size_t i = 0;
    uint32_t cp = 0;
    while (i < len) {
        utf8_next(buf, len, &i, &cp);
        ids[cp] = 1;
    }
    int64_t v = 0;
    for (uint32_t c = 0; c <= MAX_CODE_POINT; c++) v += ids[c];
    cps = nn_mem_alloc((size_t)v * sizeof *cps, "a vocabulary", &ctx->err);
    if (!cps) goto done;
    v = 0;
    for (uint32_t c = 0; c <= MAX_CODE_POINT; c++)
        if (ids[c]) {
            cps[v] = c;
            ids[c] = (int32_t)v++;
        }
    int64_t n = (count - block_size - 1) / stride + 1;
    ds = nn_data_alloc(ctx, "text");
    if (!ds) goto done;
    ds->n = n;
    ds->num_classes = v;
    ds->vocab = vocab_from_cps(ctx, cps, v);
    int64_t shape[2] = {n, block_size};
    ds->x = ds->vocab ? nn_tensor_empty(ctx, NN_INT64, 2, shape) : NULL;
    ds->y = ds->x ? nn_tensor_empty(ctx, NN_INT64, 2, shape) : NULL;
    if (!ds->y) {
        nn_data_free(ds);
        ds = NULL;
        goto done;
    }
    /* One pass over the characters: character k goes to x of every window
     * covering position k and to y of every window covering k - 1. */
    int64_t *x = nn_tensor_data(ds->x), *y = nn_tensor_data(ds->y);
    i = 0;
    for (int64_t k = 0; k < count; k++) {
        utf8_next(buf, len, &i, &cp);
        int64_t id = ids[cp];
        for (int64_t w = k / stride; w >= 0 && w * stride + block_size > k - 1; w--) {
            if (w >= n) continue;
            int64_t off = k - w * stride;
            if (off < block_size) x[w * block_size + off] = id;
            if (off >= 1 && off <= block_size) y[w * block_size + off - 1] = id;
        }
    }
    snprintf(ds->description, sizeof ds->description,
             "text: '%s', %lld characters, vocabulary of %lld; %lld windows of %lld characters "
             "every %lld, y = the window shifted by one",
             path, (long long)count, (long long)v, (long long)n, (long long)block_size,
             (long long)stride);
    char a[64], b[64];
    size_t dl = strlen(ds->description);
    snprintf(ds->description + dl, sizeof ds->description - dl, "; x int64 %s, y int64 %s",
             nn_tensor_shape_str(ds->x, a, sizeof a), nn_tensor_shape_str(ds->y, b, sizeof b));
done:
    nn_mem_free(cps);
    nn_mem_free(ids);
    nn_mem_free(buf);
    return ds;
}
