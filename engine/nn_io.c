#include "nn_io.h"
#include "nn_buf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nn_mem.h"

/* ================================================================== */
/* Errors                                                               */
/* ================================================================== */

/* Every loader error is NN_ERR_IO and starts with the file name, so a user
 * with several checkpoints knows which one is bad. */
__attribute__((format(printf, 3, 4))) static nn_status io_err(nn_ctx *ctx, const char *file,
                                                              const char *fmt, ...) {
    char msg[NN_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return nn_error_set(&ctx->err, NN_ERR_IO, "%s: %s", file, msg);
}

/* A key as it can be shown in a message: printable ASCII kept, other bytes
 * as \xNN, cut at about 80 characters. Keys come from hostile files, so they
 * must not be able to garble a terminal or hide in a long message. */
static const char *show(char *buf, size_t bufsize, const char *p, size_t len) {
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        if (o + 8 >= bufsize || o >= 80) {
            snprintf(buf + o, bufsize - o, "...");
            return buf;
        }
        if (c >= 0x20 && c < 0x7f && c != '\\')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, bufsize - o, "\\x%02x", c);
    }
    buf[o] = 0;
    return buf;
}

/* Whether a tensor of [shape] can exist in nndb even when it holds no
 * elements: strides are products of the non-zero dims, so those must stay
 * far from overflowing (the same margin nn_tensor_empty keeps for numel). */
static bool strides_fit(int ndim, const int64_t *shape) {
    int64_t span = 1;
    for (int d = 0; d < ndim; d++) {
        int64_t dim = shape[d] > 0 ? shape[d] : 1;
        if (span > INT64_MAX / 16 / dim) return false;
        span *= dim;
    }
    return true;
}

/* ================================================================== */
/* Bytes and elements                                                   */
/* ================================================================== */

static bool host_is_le(void) {
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    return first == 1;
}

static uint64_t load_le(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static void store_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static float bits_to_float(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* How the elements of a file are stored: a kind and a width, and the byte
 * order. Each maps onto one nndb dtype (see docs/checkpoints.md). */
typedef enum elem_kind { K_FLOAT, K_BF16, K_INT, K_UINT, K_BOOL } elem_kind;

typedef struct elem {
    elem_kind kind;
    int size;
    bool big_endian;
} elem;

/* Convert [count] elements from [src] to [dt] at [dst]. */
static void convert(void *dst, nn_dtype dt, const uint8_t *src, elem e, size_t count) {
    for (size_t k = 0; k < count; k++) {
        const uint8_t *p = src + k * (size_t)e.size;
        uint64_t bits = 0;
        if (e.big_endian)
            for (int i = 0; i < e.size; i++) bits = bits << 8 | p[i];
        else
            bits = load_le(p, e.size);
        switch (dt) {
        case NN_FLOAT32: {
            float f;
            if (e.kind == K_BF16)
                f = bits_to_float((uint32_t)bits << 16);
            else if (e.size == 2)
                f = nn_f16_to_f32((uint16_t)bits);
            else
                f = bits_to_float((uint32_t)bits);
            ((float *)dst)[k] = f;
            break;
        }
        case NN_FLOAT64: memcpy((double *)dst + k, &bits, sizeof(double)); break;
        case NN_INT64: {
            int64_t v = (int64_t)bits;
            if (e.kind == K_INT && e.size < 8) {
                uint64_t sign = (uint64_t)1 << (8 * e.size - 1);
                v = (int64_t)((bits ^ sign) - sign); /* sign-extend without UB */
            }
            ((int64_t *)dst)[k] = v;
            break;
        }
        case NN_BOOL: ((uint8_t *)dst)[k] = bits != 0; break;
        /* The narrow dtypes load only from their own element type. */
        case NN_INT32: ((uint32_t *)dst)[k] = (uint32_t)bits; break;
        case NN_INT16:
        case NN_FLOAT16:
        case NN_BFLOAT16: ((uint16_t *)dst)[k] = (uint16_t)bits; break;
        case NN_INT8:
        case NN_UINT8: ((uint8_t *)dst)[k] = (uint8_t)bits; break;
        case NN_COMPLEX64: /* no checkpoint format here carries complex values */
        case NN_COMPLEX128: break;
        }
    }
}

/* Whether elements of [e] are already [dt]'s C type in this host's order. */
static bool is_native(elem e, nn_dtype dt) {
    if (e.size > 1 && e.big_endian == host_is_le()) return false;
    switch (dt) {
    case NN_FLOAT32: return e.kind == K_FLOAT && e.size == 4;
    case NN_FLOAT64: return e.kind == K_FLOAT && e.size == 8;
    case NN_INT64: return e.kind == K_INT && e.size == 8;
    case NN_BOOL: return false; /* bytes other than 0 and 1 are normalised */
    case NN_INT32: return e.kind == K_INT && e.size == 4;
    case NN_INT16: return e.kind == K_INT && e.size == 2;
    case NN_INT8: return e.kind == K_INT && e.size == 1;
    case NN_UINT8: return e.kind == K_UINT && e.size == 1;
    case NN_FLOAT16: return e.kind == K_FLOAT && e.size == 2;
    case NN_BFLOAT16: return e.kind == K_BF16 && e.size == 2;
    case NN_COMPLEX64:
    case NN_COMPLEX128: return false;
    }
    return false;
}

/* ================================================================== */
/* Sources: a file or a block of memory, read at checked offsets       */
/* ================================================================== */

typedef struct src {
    const char *name;
    const uint8_t *mem; /* memory source, or NULL for a file */
    FILE *f;
    uint64_t size;
} src;

/* Callers have checked [off, off+len) against the size; a short read can
 * only mean the file changed under us. */
static nn_status src_read(nn_ctx *ctx, const src *s, uint64_t off, void *dst, size_t len) {
    NN_ASSERT(off <= s->size && len <= s->size - off);
    if (len == 0) return NN_OK;
    if (s->mem) {
        memcpy(dst, s->mem + off, len);
        return NN_OK;
    }
    if (fseeko(s->f, (off_t)off, SEEK_SET) != 0 || fread(dst, 1, len, s->f) != len)
        return io_err(ctx, s->name,
                      "could not read %zu bytes at offset %" PRIu64
                      " (the file shrank or changed while it was being loaded)",
                      len, off);
    return NN_OK;
}

/* Fill contiguous [t] (numel elements) from [off] in [s], converting. */
static nn_status src_read_elems(nn_ctx *ctx, const src *s, uint64_t off, elem e, nn_tensor *t) {
    size_t n = (size_t)nn_tensor_numel(t);
    uint8_t *dst = nn_tensor_data(t);
    size_t dsize = nn_dtype_size(t->dtype);
    NN_ASSERT(off <= s->size && n <= (s->size - off) / (size_t)e.size);
    if (is_native(e, t->dtype)) return src_read(ctx, s, off, dst, n * (size_t)e.size);
    uint8_t chunk[16384];
    size_t per = sizeof chunk / (size_t)e.size;
    for (size_t done = 0; done < n;) {
        size_t k = n - done < per ? n - done : per;
        if (s->mem) {
            convert(dst + done * dsize, t->dtype, s->mem + off, e, k);
        } else {
            if (src_read(ctx, s, off, chunk, k * (size_t)e.size)) return ctx->err.code;
            convert(dst + done * dsize, t->dtype, chunk, e, k);
        }
        off += k * (size_t)e.size;
        done += k;
    }
    return NN_OK;
}

/* Open [path] for reading only if it is a regular file: a FIFO would block
 * forever and a device or directory is never a checkpoint. O_NONBLOCK keeps
 * the open itself from blocking on a FIFO. */
static FILE *open_regular(nn_ctx *ctx, const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        io_err(ctx, path, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        io_err(ctx, path, "cannot stat: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        io_err(ctx, path, "is not a regular file (it is a %s)",
               S_ISDIR(st.st_mode)    ? "directory"
               : S_ISFIFO(st.st_mode) ? "FIFO"
               : S_ISCHR(st.st_mode)  ? "character device"
               : S_ISBLK(st.st_mode)  ? "block device"
               : S_ISSOCK(st.st_mode) ? "socket"
                                      : "special file");
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0) fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        io_err(ctx, path, "cannot open: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    *size = (uint64_t)st.st_size;
    return f;
}

/* ================================================================== */
/* Sinks: a growing memory buffer or a file                             */
/* ================================================================== */

typedef struct sink {
    FILE *f;
    uint8_t *buf;
    size_t len, cap;
    bool failed;
} sink;

static void sink_write(sink *k, const void *p, size_t n) {
    if (k->failed || n == 0) return;
    if (k->f) {
        if (fwrite(p, 1, n, k->f) != n) k->failed = true;
        return;
    }
    if (n > SIZE_MAX / 2 - k->len) {
        k->failed = true;
        return;
    }
    if (k->len + n > k->cap) {
        size_t cap = k->cap ? k->cap : 256;
        while (cap < k->len + n) cap *= 2;
        uint8_t *grown = realloc(k->buf, cap);
        if (!grown) {
            k->failed = true;
            return;
        }
        k->buf = grown;
        k->cap = cap;
    }
    memcpy(k->buf + k->len, p, n);
    k->len += n;
}

static void sink_str(sink *k, const char *s) {
    sink_write(k, s, strlen(s));
}

__attribute__((format(printf, 2, 3))) static void sink_printf(sink *k, const char *fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    NN_ASSERT(n >= 0 && (size_t)n < sizeof buf);
    sink_write(k, buf, (size_t)n);
}

/* Write contiguous [t]'s elements little-endian. */
static void sink_tensor_le(sink *k, const nn_tensor *t) {
    size_t n = (size_t)nn_tensor_numel(t), es = nn_dtype_size(t->dtype);
    const uint8_t *p = nn_tensor_data(t);
    if (host_is_le() || es == 1) {
        sink_write(k, p, n * es);
        return;
    }
    uint8_t chunk[8192];
    for (size_t i = 0; i < n;) {
        size_t m = 0;
        for (; i < n && m + es <= sizeof chunk; i++, m += es)
            for (size_t b = 0; b < es; b++) chunk[m + b] = p[i * es + es - 1 - b];
        sink_write(k, chunk, m);
    }
}

typedef nn_status (*emit_fn)(nn_ctx *ctx, sink *k, const void *arg);

static nn_status save_buffer(nn_ctx *ctx, emit_fn emit, const void *arg, uint8_t **out,
                             size_t *out_size) {
    sink k = {0};
    nn_status st = emit(ctx, &k, arg);
    if (!st && k.failed) st = nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory while saving");
    if (st) {
        free(k.buf);
        return st;
    }
    *out = k.buf ? k.buf : malloc(1);
    *out_size = k.len;
    return NN_OK;
}

/* Write through a temporary file in the same directory and rename it over
 * [path], so an interrupted or failed save leaves the old file intact. */
static nn_status save_file(nn_ctx *ctx, const char *path, emit_fn emit, const void *arg) {
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp-XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        nn_status st = io_err(ctx, path, "cannot write: %s", strerror(errno));
        free(tmp);
        return st;
    }
    /* mkstemp makes the file 0600; give it the mode open() would have. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    sink k = {.f = fdopen(fd, "wb")};
    nn_status st = NN_OK;
    if (!k.f) {
        st = io_err(ctx, path, "cannot write: %s", strerror(errno));
        close(fd);
    } else {
        st = emit(ctx, &k, arg);
        if (fflush(k.f) != 0) k.failed = true;
        if (fclose(k.f) != 0) k.failed = true;
        if (!st && k.failed) st = io_err(ctx, path, "write failed: %s", strerror(errno));
        if (!st && rename(tmp, path) != 0)
            st = io_err(ctx, path, "cannot rename the temporary file into place: %s",
                        strerror(errno));
    }
    if (st) unlink(tmp);
    free(tmp);
    return st;
}

/* ================================================================== */
/* UTF-8 and a strict JSON reader for safetensors headers               */
/* ================================================================== */

enum { J_NULL, J_FALSE, J_TRUE, J_NUM, J_STR, J_ARR, J_OBJ };

/* One parsed value. Children of arrays and objects are chained by [next];
 * an object's chain alternates key (a J_STR) and value. */
typedef struct jnode {
    uint8_t type;
    uint8_t is_int; /* J_NUM: an integer literal that fits int64 */
    uint32_t pos;   /* byte offset in the header, for messages */
    int32_t next;   /* next sibling, or -1 */
    int32_t first;  /* J_ARR/J_OBJ: first child or -1; J_STR: offset in the pool */
    int32_t count;  /* J_ARR: elements; J_OBJ: members; J_STR: length in bytes */
    int64_t ival;   /* J_NUM with is_int; other numbers are validated, not kept */
} jnode;

typedef struct jparser {
    const char *s;
    size_t n, i;
    jnode *nodes;
    int32_t n_nodes, cap_nodes;
    char *pool; /* decoded strings, each NUL-terminated */
    size_t pool_len;
    int depth;
    bool failed;
    char err[200];
} jparser;

__attribute__((format(printf, 2, 3))) static int32_t jfail(jparser *p, const char *fmt, ...) {
    if (p->failed) return -1;
    p->failed = true;
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(p->err, sizeof p->err, "bad JSON in the header at byte %zu: %s", p->i, msg);
    return -1;
}

static int32_t jnew(jparser *p, int type) {
    if (p->n_nodes == p->cap_nodes) {
        /* Each value takes at least one byte of header, so the node count is
         * bounded by the header size, which was checked against the file. */
        if (p->n_nodes >= NN_IO_JSON_MAX_VALUES)
            return jfail(p, "more than %d values", NN_IO_JSON_MAX_VALUES);
        int32_t cap = p->cap_nodes ? p->cap_nodes * 2 : 64;
        nn_error e = {0};
        jnode *grown = nn_mem_alloc(sizeof *grown * (size_t)cap, "the JSON header's values", &e);
        if (!grown) return jfail(p, "%s", e.msg);
        if (p->n_nodes) memcpy(grown, p->nodes, sizeof *grown * (size_t)p->n_nodes);
        nn_mem_free(p->nodes);
        p->nodes = grown;
        p->cap_nodes = cap;
    }
    jnode *nd = &p->nodes[p->n_nodes];
    memset(nd, 0, sizeof *nd);
    nd->type = (uint8_t)type;
    nd->pos = (uint32_t)p->i;
    nd->next = -1;
    nd->first = -1;
    return p->n_nodes++;
}

static void jskip_ws(jparser *p) {
    while (p->i < p->n &&
           (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int32_t jvalue(jparser *p);

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool jhex4(jparser *p, uint32_t *out) {
    if (p->n - p->i < 4) return false;
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int h = hexval(p->s[p->i + (size_t)k]);
        if (h < 0) return false;
        v = v << 4 | (uint32_t)h;
    }
    p->i += 4;
    *out = v;
    return true;
}

static void jput_utf8(jparser *p, uint32_t cp) {
    char *o = p->pool + p->pool_len;
    if (cp < 0x80) {
        o[0] = (char)cp;
        p->pool_len += 1;
    } else if (cp < 0x800) {
        o[0] = (char)(0xc0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3f));
        p->pool_len += 2;
    } else if (cp < 0x10000) {
        o[0] = (char)(0xe0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        p->pool_len += 3;
    } else {
        o[0] = (char)(0xf0 | cp >> 18);
        o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
        o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[3] = (char)(0x80 | (cp & 0x3f));
        p->pool_len += 4;
    }
}

/* A string, decoded into the pool. A decoded string is never longer than its
 * source with the quotes, so a pool the size of the header always fits. */
static int32_t jstring(jparser *p) {
    int32_t id = jnew(p, J_STR);
    if (id < 0) return -1;
    p->i++; /* opening quote */
    size_t start = p->pool_len;
    for (;;) {
        if (p->i >= p->n) return jfail(p, "unterminated string");
        unsigned char c = (unsigned char)p->s[p->i];
        if (c == '"') {
            p->i++;
            break;
        }
        if (c < 0x20)
            return jfail(p, "control byte 0x%02x inside a string (JSON needs an escape)", c);
        if (c == '\\') {
            if (p->i + 1 >= p->n) return jfail(p, "unterminated string");
            char e = p->s[p->i + 1];
            p->i += 2;
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *hit = e ? strchr(from, e) : NULL;
            if (hit) {
                p->pool[p->pool_len++] = to[hit - from];
                continue;
            }
            if (e != 'u') return jfail(p, "unknown escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?');
            uint32_t cp;
            if (!jhex4(p, &cp)) return jfail(p, "\\u needs four hex digits");
            if (cp >= 0xdc00 && cp <= 0xdfff) return jfail(p, "unpaired low surrogate \\u%04x", cp);
            if (cp >= 0xd800 && cp <= 0xdbff) {
                uint32_t lo;
                if (p->n - p->i < 2 || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u')
                    return jfail(p, "high surrogate \\u%04x without its low half", cp);
                p->i += 2;
                if (!jhex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
                    return jfail(p, "high surrogate \\u%04x without its low half", cp);
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            jput_utf8(p, cp);
            continue;
        }
        size_t l = nn_utf8_len((const unsigned char *)p->s + p->i, p->n - p->i);
        if (!l) return jfail(p, "invalid UTF-8 inside a string");
        memcpy(p->pool + p->pool_len, p->s + p->i, l);
        p->pool_len += l;
        p->i += l;
    }
    p->pool[p->pool_len++] = 0;
    p->nodes[id].first = (int32_t)start;
    p->nodes[id].count = (int32_t)(p->pool_len - 1 - start);
    return id;
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

static int32_t jnumber(jparser *p) {
    int32_t id = jnew(p, J_NUM);
    if (id < 0) return -1;
    size_t start = p->i;
    bool neg = false, integral = true;
    if (p->s[p->i] == '-') neg = true, p->i++;
    if (p->i >= p->n || !is_digit(p->s[p->i])) return jfail(p, "malformed number");
    if (p->s[p->i] == '0') {
        p->i++;
        if (p->i < p->n && is_digit(p->s[p->i])) return jfail(p, "number with a leading zero");
    } else {
        while (p->i < p->n && is_digit(p->s[p->i])) p->i++;
    }
    if (p->i < p->n && p->s[p->i] == '.') {
        integral = false;
        p->i++;
        if (p->i >= p->n || !is_digit(p->s[p->i])) return jfail(p, "malformed number");
        while (p->i < p->n && is_digit(p->s[p->i])) p->i++;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        integral = false;
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-')) p->i++;
        if (p->i >= p->n || !is_digit(p->s[p->i])) return jfail(p, "malformed number");
        while (p->i < p->n && is_digit(p->s[p->i])) p->i++;
    }
    jnode *nd = &p->nodes[id];
    if (integral) {
        uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
        bool fits = true;
        for (size_t k = start + neg; k < p->i && fits; k++) {
            uint64_t d = (uint64_t)(p->s[k] - '0');
            if (v > (limit - d) / 10)
                fits = false;
            else
                v = v * 10 + d;
        }
        if (fits) {
            nd->is_int = 1;
            nd->ival = neg ? (int64_t)(0 - v) : (int64_t)v;
            return id;
        }
    }
    /* No field of a safetensors header is a non-integer number, so its value
     * is not needed; the grammar was checked above. */
    return id;
}

static int32_t jliteral(jparser *p, const char *word, int type) {
    size_t len = strlen(word);
    if (p->n - p->i < len || memcmp(p->s + p->i, word, len) != 0)
        return jfail(p, "unexpected character");
    int32_t id = jnew(p, type);
    p->i += len;
    return id;
}

typedef struct keyref {
    const char *s;
    int32_t len;
} keyref;

static int keyref_cmp(const void *a, const void *b) {
    const keyref *x = a, *y = b;
    int32_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, (size_t)m);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* A duplicate key makes a header ambiguous (which value wins differs between
 * readers), so it is an error. Sorting keeps this O(n log n) for headers
 * with many tensors. */
static int32_t jcheck_dups(jparser *p, int32_t obj) {
    int32_t n = p->nodes[obj].count;
    if (n < 2) return obj;
    nn_error e = {0};
    keyref *keys = nn_mem_alloc(sizeof *keys * (size_t)n, "the JSON header's keys", &e);
    if (!keys) return jfail(p, "%s", e.msg);
    int32_t k = 0;
    for (int32_t c = p->nodes[obj].first; c >= 0; c = p->nodes[p->nodes[c].next].next)
        keys[k++] = (keyref){p->pool + p->nodes[c].first, p->nodes[c].count};
    qsort(keys, (size_t)n, sizeof *keys, keyref_cmp);
    for (int32_t i = 1; i < n; i++) {
        if (keyref_cmp(&keys[i - 1], &keys[i]) == 0) {
            char sb[128];
            jfail(p, "duplicate key '%s'", show(sb, sizeof sb, keys[i].s, (size_t)keys[i].len));
            nn_mem_free(keys);
            return -1;
        }
    }
    nn_mem_free(keys);
    return obj;
}

static int32_t jcontainer(jparser *p, bool is_obj) {
    if (++p->depth > NN_IO_JSON_DEPTH_MAX)
        return jfail(p, "nested deeper than %d levels", NN_IO_JSON_DEPTH_MAX);
    int32_t id = jnew(p, is_obj ? J_OBJ : J_ARR);
    if (id < 0) return -1;
    char close = is_obj ? '}' : ']';
    p->i++;
    jskip_ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        p->depth--;
        return id;
    }
    int32_t last = -1, count = 0;
    for (;;) {
        jskip_ws(p);
        int32_t first_new;
        if (is_obj) {
            if (p->i >= p->n || p->s[p->i] != '"') return jfail(p, "expected a string key");
            int32_t key = jstring(p);
            if (key < 0) return -1;
            jskip_ws(p);
            if (p->i >= p->n || p->s[p->i] != ':') return jfail(p, "expected ':' after a key");
            p->i++;
            int32_t val = jvalue(p);
            if (val < 0) return -1;
            p->nodes[key].next = val;
            first_new = key;
            if (last >= 0) p->nodes[p->nodes[last].next].next = key;
        } else {
            int32_t val = jvalue(p);
            if (val < 0) return -1;
            first_new = val;
            if (last >= 0) p->nodes[last].next = val;
        }
        if (last < 0) p->nodes[id].first = first_new;
        last = first_new;
        if (count == INT32_MAX) return jfail(p, "too many elements");
        count++;
        jskip_ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == close) {
            p->i++;
            break;
        }
        return jfail(p, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    p->nodes[id].count = count;
    p->depth--;
    return is_obj ? jcheck_dups(p, id) : id;
}

static int32_t jvalue(jparser *p) {
    jskip_ws(p);
    if (p->i >= p->n) return jfail(p, "unexpected end of the header");
    char c = p->s[p->i];
    switch (c) {
    case '{': return jcontainer(p, true);
    case '[': return jcontainer(p, false);
    case '"': return jstring(p);
    case 't': return jliteral(p, "true", J_TRUE);
    case 'f': return jliteral(p, "false", J_FALSE);
    case 'n': return jliteral(p, "null", J_NULL);
    default:
        if (c == '-' || is_digit(c)) return jnumber(p);
        if (c == 0) return jfail(p, "NUL byte");
        return jfail(p, "unexpected character");
    }
}

static void jparser_free(jparser *p) {
    nn_mem_free(p->nodes);
    nn_mem_free(p->pool);
    p->nodes = NULL;
    p->pool = NULL;
}

/* Parse [n] bytes at [s] as one JSON value followed only by whitespace. */
static bool jparse(jparser *p, const char *s, size_t n) {
    memset(p, 0, sizeof *p);
    p->s = s;
    p->n = n;
    nn_error e = {0};
    p->pool = nn_mem_alloc(n + 1, "the JSON header's strings", &e);
    if (!p->pool) {
        snprintf(p->err, sizeof p->err, "%.150s", e.msg);
        return false;
    }
    if (jvalue(p) < 0) return false;
    jskip_ws(p);
    if (p->i < p->n) {
        jfail(p, "%s after the end of the JSON value",
              p->s[p->i] == 0 ? "NUL byte" : "unexpected bytes");
        return false;
    }
    return true;
}

/* Write [s] as a JSON string. */
static void sink_json_string(sink *k, const char *s) {
    sink_write(k, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\') {
            char esc[2] = {'\\', (char)*c};
            sink_write(k, esc, 2);
        } else if (*c < 0x20) {
            sink_printf(k, "\\u%04x", *c);
        } else {
            sink_write(k, c, 1);
        }
    }
    sink_write(k, "\"", 1);
}

/* ================================================================== */
/* nn_io_meta                                                           */
/* ================================================================== */

void nn_io_meta_init(nn_io_meta *m) {
    memset(m, 0, sizeof *m);
}

void nn_io_meta_free(nn_io_meta *m) {
    if (!m) return;
    for (int i = 0; i < m->n; i++) {
        free(m->entries[i].key);
        free(m->entries[i].value);
    }
    free(m->entries);
    memset(m, 0, sizeof *m);
}

const char *nn_io_meta_get(const nn_io_meta *m, const char *key) {
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->entries[i].key, key) == 0) return m->entries[i].value;
    return NULL;
}

nn_status nn_io_meta_set(nn_ctx *ctx, nn_io_meta *m, const char *key, const char *value) {
    char *v = strdup(value);
    if (!v) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
    for (int i = 0; i < m->n; i++) {
        if (strcmp(m->entries[i].key, key) == 0) {
            free(m->entries[i].value);
            m->entries[i].value = v;
            return NN_OK;
        }
    }
    if (m->n == m->cap) {
        int cap = m->cap ? m->cap * 2 : 8;
        nn_io_meta_entry *grown = realloc(m->entries, sizeof *grown * (size_t)cap);
        if (!grown) {
            free(v);
            return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
        }
        m->entries = grown;
        m->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
    }
    m->entries[m->n++] = (nn_io_meta_entry){k, v};
    return NN_OK;
}

/* ================================================================== */
/* safetensors                                                          */
/* ================================================================== */

typedef struct st_dtype {
    const char *name;
    elem e;
    nn_dtype dt;
} st_dtype;

/* Every dtype nndb reads, with the nndb dtype it becomes. */
static const st_dtype ST_DTYPES[] = {
    {"F32", {K_FLOAT, 4, false}, NN_FLOAT32}, {"F64", {K_FLOAT, 8, false}, NN_FLOAT64},
    {"I64", {K_INT, 8, false}, NN_INT64},     {"BOOL", {K_BOOL, 1, false}, NN_BOOL},
    {"F16", {K_FLOAT, 2, false}, NN_FLOAT16}, {"BF16", {K_BF16, 2, false}, NN_BFLOAT16},
    {"I32", {K_INT, 4, false}, NN_INT32},     {"I16", {K_INT, 2, false}, NN_INT16},
    {"I8", {K_INT, 1, false}, NN_INT8},       {"U8", {K_UINT, 1, false}, NN_UINT8},
    {"U16", {K_UINT, 2, false}, NN_INT64},    {"U32", {K_UINT, 4, false}, NN_INT64},
};
#define ST_SUPPORTED "F64, F32, F16, BF16, I64, I32, I16, I8, U8, U16, U32, BOOL"

static const char *st_name_of(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "F32";
    case NN_FLOAT64: return "F64";
    case NN_INT64: return "I64";
    case NN_BOOL: return "BOOL";
    case NN_INT32: return "I32";
    case NN_INT16: return "I16";
    case NN_INT8: return "I8";
    case NN_UINT8: return "U8";
    case NN_FLOAT16: return "F16";
    case NN_BFLOAT16: return "BF16";
    case NN_COMPLEX64: /* safetensors has no complex dtype */
    case NN_COMPLEX128: return NULL;
    }
    return NULL;
}

typedef struct st_save_arg {
    const nn_state *state;
    const nn_io_meta *meta;
} st_save_arg;

static nn_status st_emit(nn_ctx *ctx, sink *k, const void *argp) {
    const st_save_arg *arg = argp;
    const nn_state *state = arg->state;
    const nn_io_meta *meta = arg->meta;
    char sb[128];
    /* Check everything before writing a byte, so a bad state fails cleanly. */
    for (int i = 0; i < state->n; i++) {
        const char *name = state->entries[i].name;
        if (strcmp(name, "__metadata__") == 0)
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "a tensor cannot be named '__metadata__' in a safetensors file "
                                "(the format reserves that key); rename it");
        if (!nn_utf8_valid(name, strlen(name)))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "tensor name '%s' is not valid UTF-8, which safetensors keys "
                                "must be",
                                show(sb, sizeof sb, name, strlen(name)));
    }
    if (meta) {
        for (int i = 0; i < meta->n; i++) {
            const char *key = meta->entries[i].key, *val = meta->entries[i].value;
            if (!nn_utf8_valid(key, strlen(key)) || !nn_utf8_valid(val, strlen(val)))
                return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                    "metadata '%s' is not valid UTF-8, which safetensors "
                                    "headers must be",
                                    show(sb, sizeof sb, key, strlen(key)));
        }
    }
    sink h = {0};
    sink_str(&h, "{");
    bool first = true;
    if (meta && meta->n) {
        sink_str(&h, "\"__metadata__\":{");
        for (int i = 0; i < meta->n; i++) {
            if (i) sink_str(&h, ",");
            sink_json_string(&h, meta->entries[i].key);
            sink_str(&h, ":");
            sink_json_string(&h, meta->entries[i].value);
        }
        sink_str(&h, "}");
        first = false;
    }
    uint64_t offset = 0;
    for (int i = 0; i < state->n; i++) {
        const nn_tensor *t = state->entries[i].tensor;
        uint64_t nbytes = (uint64_t)nn_tensor_numel(t) * nn_dtype_size(t->dtype);
        if (!first) sink_str(&h, ",");
        first = false;
        sink_json_string(&h, state->entries[i].name);
        sink_printf(&h, ":{\"dtype\":\"%s\",\"shape\":[", st_name_of(t->dtype));
        for (int d = 0; d < t->ndim; d++)
            sink_printf(&h, d ? ",%" PRId64 : "%" PRId64, t->shape[d]);
        sink_printf(&h, "],\"data_offsets\":[%" PRIu64 ",%" PRIu64 "]}", offset, offset + nbytes);
        offset += nbytes;
    }
    sink_str(&h, "}");
    /* Pad with spaces so the data starts 8-byte aligned, as the reference
     * writer does: readers may then map tensors in place. */
    while ((h.len + 8) % 8) sink_str(&h, " ");
    if (h.failed) {
        free(h.buf);
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory building the header");
    }
    uint8_t len8[8];
    store_le(len8, h.len, 8);
    sink_write(k, len8, 8);
    sink_write(k, h.buf, h.len);
    free(h.buf);
    for (int i = 0; i < state->n && !k->failed; i++) {
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, state->entries[i].tensor);
        if (!c) return ctx->err.code;
        sink_tensor_le(k, c);
        nn_tensor_release(c);
    }
    return NN_OK;
}

nn_status nn_safetensors_save_buffer(nn_ctx *ctx, const nn_state *state, const nn_io_meta *meta,
                                     uint8_t **out, size_t *out_size) {
    st_save_arg arg = {state, meta};
    return save_buffer(ctx, st_emit, &arg, out, out_size);
}

nn_status nn_safetensors_save(nn_ctx *ctx, const char *path, const nn_state *state,
                              const nn_io_meta *meta) {
    st_save_arg arg = {state, meta};
    return save_file(ctx, path, st_emit, &arg);
}

/* One tensor as the header describes it, checked. */
typedef struct st_entry {
    const char *key; /* in the parser's pool */
    size_t key_len;
    const st_dtype *dt;
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    uint64_t begin, end;
} st_entry;

typedef struct st_load {
    nn_ctx *ctx;
    const src *s;
    jparser jp;
    st_entry *entries;
    int n_entries;
    struct st_span *order;
    nn_io_meta meta;
} st_load;

static const char *jstr(const jparser *p, int32_t node) {
    return p->pool + p->nodes[node].first;
}

static bool jstr_eq(const jparser *p, int32_t node, const char *lit) {
    return (size_t)p->nodes[node].count == strlen(lit) &&
           memcmp(jstr(p, node), lit, strlen(lit)) == 0;
}

#define KEYERR(L, ent, ...) key_err((L), (ent)->key, (ent)->key_len, __VA_ARGS__)

__attribute__((format(printf, 4, 5))) static nn_status key_err(st_load *L, const char *key,
                                                               size_t len, const char *fmt, ...) {
    char msg[NN_ERROR_MSG_MAX], sb[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return io_err(L->ctx, L->s->name, "key '%s': %s", show(sb, sizeof sb, key, len), msg);
}

/* An array of non-negative integers into out[0..max); returns the count, or
 * -1 when the node is not such an array. */
static int st_int_list(const jparser *p, int32_t node, int64_t *out, int max, bool *too_many) {
    *too_many = false;
    if (p->nodes[node].type != J_ARR) return -1;
    int n = 0;
    for (int32_t c = p->nodes[node].first; c >= 0; c = p->nodes[c].next) {
        if (p->nodes[c].type != J_NUM || !p->nodes[c].is_int || p->nodes[c].ival < 0) return -1;
        if (n == max) {
            *too_many = true;
            return -1;
        }
        out[n++] = p->nodes[c].ival;
    }
    return n;
}

static nn_status st_parse_entry(st_load *L, st_entry *ent, int32_t val) {
    const jparser *p = &L->jp;
    if (p->nodes[val].type != J_OBJ)
        return KEYERR(L, ent, "expected an object with dtype, shape and data_offsets");
    int32_t dtype = -1, shape = -1, offs = -1;
    for (int32_t c = p->nodes[val].first; c >= 0; c = p->nodes[p->nodes[c].next].next) {
        int32_t v = p->nodes[c].next;
        char sb[128];
        if (jstr_eq(p, c, "dtype"))
            dtype = v;
        else if (jstr_eq(p, c, "shape"))
            shape = v;
        else if (jstr_eq(p, c, "data_offsets"))
            offs = v;
        else
            return KEYERR(L, ent, "unexpected field '%s' (a tensor has dtype, shape, data_offsets)",
                          show(sb, sizeof sb, jstr(p, c), (size_t)p->nodes[c].count));
    }
    if (dtype < 0 || shape < 0 || offs < 0)
        return KEYERR(L, ent, "missing '%s'",
                      dtype < 0   ? "dtype"
                      : shape < 0 ? "shape"
                                  : "data_offsets");
    if (p->nodes[dtype].type != J_STR) return KEYERR(L, ent, "'dtype' must be a string");
    ent->dt = NULL;
    for (size_t i = 0; i < sizeof ST_DTYPES / sizeof ST_DTYPES[0]; i++)
        if (jstr_eq(p, dtype, ST_DTYPES[i].name)) ent->dt = &ST_DTYPES[i];
    if (!ent->dt) {
        char db[128], kb[128];
        return nn_error_set(&L->ctx->err, NN_ERR_IO,
                            "unsupported dtype '%s' for key '%s' in %s (nndb reads " ST_SUPPORTED
                            ")",
                            show(db, sizeof db, jstr(p, dtype), (size_t)p->nodes[dtype].count),
                            show(kb, sizeof kb, ent->key, ent->key_len), L->s->name);
    }
    bool too_many;
    ent->ndim = st_int_list(p, shape, ent->shape, NN_MAX_DIMS, &too_many);
    if (too_many)
        return KEYERR(L, ent, "shape has %d dims; nndb tensors have at most %d",
                      p->nodes[shape].count, NN_MAX_DIMS);
    if (ent->ndim < 0) return KEYERR(L, ent, "'shape' must be a list of non-negative integers");
    int64_t o[2];
    if (st_int_list(p, offs, o, 2, &too_many) != 2)
        return KEYERR(L, ent, "'data_offsets' must be two non-negative integers [begin, end]");
    ent->begin = (uint64_t)o[0];
    ent->end = (uint64_t)o[1];
    return NN_OK;
}

static nn_status st_parse_meta(st_load *L, int32_t val, nn_io_meta *meta) {
    const jparser *p = &L->jp;
    const char *mk = "__metadata__";
    if (p->nodes[val].type != J_OBJ)
        return key_err(L, mk, strlen(mk), "must be an object of strings");
    for (int32_t c = p->nodes[val].first; c >= 0; c = p->nodes[p->nodes[c].next].next) {
        int32_t v = p->nodes[c].next;
        char sb[128];
        const char *key = jstr(p, c);
        size_t klen = (size_t)p->nodes[c].count;
        if (p->nodes[v].type != J_STR)
            return key_err(L, mk, strlen(mk), "the value of '%s' is not a string",
                           show(sb, sizeof sb, key, klen));
        if (strlen(key) != klen || strlen(jstr(p, v)) != (size_t)p->nodes[v].count)
            return key_err(L, mk, strlen(mk), "'%s' contains a NUL byte",
                           show(sb, sizeof sb, key, klen));
        if (meta && nn_io_meta_set(L->ctx, meta, key, jstr(p, v))) return L->ctx->err.code;
    }
    return NN_OK;
}

typedef struct st_span {
    uint64_t begin, end;
    int32_t index;
} st_span;

static int st_by_offset(const void *a, const void *b) {
    const st_span *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return 0;
}

/* Sizes and offsets: each tensor inside the buffer, its byte count equal to
 * shape x dtype, and together they tile the buffer with no overlap, gap or
 * trailing bytes (as the reference reader requires). */
static nn_status st_check_layout(st_load *L, uint64_t buffer_len) {
    for (int i = 0; i < L->n_entries; i++) {
        st_entry *ent = &L->entries[i];
        uint64_t numel = 1;
        bool overflow = false;
        for (int d = 0; d < ent->ndim; d++) {
            uint64_t dim = (uint64_t)ent->shape[d];
            if (dim && numel > UINT64_MAX / dim) overflow = true;
            numel *= dim;
        }
        if (overflow || numel > (uint64_t)INT64_MAX / (uint64_t)ent->dt->e.size)
            return KEYERR(L, ent, "the shape's element count overflows 64 bits");
        if (!strides_fit(ent->ndim, ent->shape)) {
            char sb[128];
            return KEYERR(L, ent, "shape %s has dims too large for nndb, though it is empty",
                          nn_shape_str(sb, sizeof sb, ent->ndim, ent->shape));
        }
        uint64_t need = numel * (uint64_t)ent->dt->e.size;
        if (ent->end < ent->begin)
            return KEYERR(L, ent, "data_offsets [%" PRIu64 ", %" PRIu64 "] end before they begin",
                          ent->begin, ent->end);
        if (ent->end > buffer_len)
            return KEYERR(L, ent,
                          "data_offsets [%" PRIu64 ", %" PRIu64
                          "] run past the data buffer (%" PRIu64
                          " bytes after the header): the file is truncated or the header lies",
                          ent->begin, ent->end, buffer_len);
        if (ent->end - ent->begin != need) {
            char sb[128];
            return KEYERR(L, ent,
                          "data_offsets [%" PRIu64 ", %" PRIu64 "] hold %" PRIu64
                          " bytes, but %s of shape %s needs %" PRIu64,
                          ent->begin, ent->end, ent->end - ent->begin, ent->dt->name,
                          nn_shape_str(sb, sizeof sb, ent->ndim, ent->shape), need);
        }
    }
    if (L->n_entries) {
        L->order =
            nn_mem_alloc(sizeof *L->order * (size_t)L->n_entries, "tensor order", &L->ctx->err);
        if (!L->order) return L->ctx->err.code;
        for (int i = 0; i < L->n_entries; i++)
            L->order[i] = (st_span){L->entries[i].begin, L->entries[i].end, i};
        qsort(L->order, (size_t)L->n_entries, sizeof *L->order, st_by_offset);
    }
    uint64_t at = 0;
    const st_entry *prev = NULL;
    for (int i = 0; i < L->n_entries; i++) {
        const st_entry *ent = &L->entries[L->order[i].index];
        if (ent->begin < at) {
            char sb[128];
            return KEYERR(L, ent, "data_offsets [%" PRIu64 ", %" PRIu64 "] overlap those of '%s'",
                          ent->begin, ent->end, show(sb, sizeof sb, prev->key, prev->key_len));
        }
        if (ent->begin > at)
            return KEYERR(L, ent,
                          "data_offsets [%" PRIu64 ", %" PRIu64 "] leave a gap of %" PRIu64
                          " unused bytes before them",
                          ent->begin, ent->end, ent->begin - at);
        at = ent->end;
        prev = ent;
    }
    if (at != buffer_len)
        return io_err(L->ctx, L->s->name,
                      "the data buffer has %" PRIu64 " bytes but the tensors cover %" PRIu64
                      " (bytes after the last tensor)",
                      buffer_len, at);
    return NN_OK;
}

static nn_status st_load_src(nn_ctx *ctx, const src *s, nn_state *out, nn_io_meta *meta_out) {
    st_load L = {.ctx = ctx, .s = s};
    nn_io_meta_init(&L.meta);
    nn_state tmp;
    nn_state_init(&tmp);
    const char *header = NULL;
    char *owned = NULL;
    nn_status st = NN_OK;
    uint8_t len8[8];
    if (s->size < 8) {
        st = io_err(ctx, s->name,
                    "%" PRIu64 " bytes is too short for a safetensors file (it starts with an "
                    "8-byte header length)",
                    s->size);
        goto done;
    }
    if ((st = src_read(ctx, s, 0, len8, 8))) goto done;
    uint64_t hlen = load_le(len8, 8);
    if (hlen > s->size - 8) {
        st = io_err(ctx, s->name,
                    "header length %" PRIu64 " runs past the end of the file (%" PRIu64
                    " bytes): the file is truncated or not a safetensors file",
                    hlen, s->size);
        goto done;
    }
    if (hlen > NN_IO_HEADER_MAX) {
        st = io_err(ctx, s->name, "header length %" PRIu64 " is over the limit of %u bytes", hlen,
                    NN_IO_HEADER_MAX);
        goto done;
    }
    if (hlen < 2) {
        st = io_err(ctx, s->name, "header length %" PRIu64 " is too short for a JSON object", hlen);
        goto done;
    }
    if (s->mem) {
        header = (const char *)s->mem + 8;
    } else {
        header = owned = nn_mem_alloc(hlen, "the safetensors header", &ctx->err);
        if (!owned) {
            st = ctx->err.code;
            goto done;
        }
        if ((st = src_read(ctx, s, 8, owned, hlen))) goto done;
    }
    if (header[0] != '{') {
        st = io_err(ctx, s->name, "the header does not start with '{': not a safetensors file");
        goto done;
    }
    if (!jparse(&L.jp, header, hlen)) {
        st = io_err(ctx, s->name, "%s", L.jp.err);
        goto done;
    }
    const jparser *p = &L.jp;
    int32_t root = 0;
    NN_ASSERT(p->nodes[root].type == J_OBJ);
    if (p->nodes[root].count > NN_IO_MAX_TENSORS + 1) {
        st = io_err(ctx, s->name, "the header lists %d tensors; the limit is %d",
                    p->nodes[root].count, NN_IO_MAX_TENSORS);
        goto done;
    }
    if (p->nodes[root].count) {
        L.entries = nn_mem_alloc(sizeof *L.entries * (size_t)p->nodes[root].count,
                                 "the tensor table", &ctx->err);
        if (!L.entries) {
            st = ctx->err.code;
            goto done;
        }
    }
    for (int32_t c = p->nodes[root].first; c >= 0; c = p->nodes[p->nodes[c].next].next) {
        int32_t v = p->nodes[c].next;
        const char *key = jstr(p, c);
        size_t klen = (size_t)p->nodes[c].count;
        if (strlen(key) != klen) {
            st = key_err(&L, key, klen, "the key contains a NUL byte");
            goto done;
        }
        if (strcmp(key, "__metadata__") == 0) {
            if ((st = st_parse_meta(&L, v, meta_out ? &L.meta : NULL))) goto done;
            continue;
        }
        if (klen >= NN_STATE_NAME_MAX) {
            st = key_err(&L, key, klen, "the key is %zu bytes; nndb names are at most %d", klen,
                         NN_STATE_NAME_MAX - 1);
            goto done;
        }
        st_entry *ent = &L.entries[L.n_entries];
        memset(ent, 0, sizeof *ent);
        ent->key = key;
        ent->key_len = klen;
        if ((st = st_parse_entry(&L, ent, v))) goto done;
        L.n_entries++;
    }
    if ((st = st_check_layout(&L, s->size - 8 - hlen))) goto done;
    /* Every byte count is now known to lie within the file, so allocating
     * the tensors is justified by the file's size (times at most 8 for
     * 1- and 2-byte types widened to nndb's), and nn_mem's cap still
     * applies to each. Keys were checked unique above, so they go in
     * without nn_state_add's duplicate scan, which would make a header with
     * many keys quadratic. */
    if ((st = nn_state_reserve(ctx, &tmp, L.n_entries))) goto done;
    uint64_t data_start = 8 + hlen;
    for (int i = 0; i < L.n_entries; i++) {
        st_entry *ent = &L.entries[i];
        nn_tensor *t = nn_tensor_empty(ctx, ent->dt->dt, ent->ndim, ent->shape);
        if (!t) {
            /* Over nn_mem's cap: keep the memory error, name file and key. */
            char msg[NN_ERROR_MSG_MAX], kb[128];
            snprintf(msg, sizeof msg, "%s", ctx->err.msg);
            st = nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: key '%s': %s", s->name,
                              show(kb, sizeof kb, ent->key, ent->key_len), msg);
            goto done;
        }
        st = nn_state_add_unique(ctx, &tmp, ent->key, t);
        nn_tensor_release(t); /* tmp holds it now, or the add failed */
        if (st) goto done;
        if ((st = src_read_elems(ctx, s, data_start + ent->begin, ent->dt->e,
                                 tmp.entries[i].tensor)))
            goto done;
    }
    /* Commit: everything succeeded, so the caller's containers change now. */
    nn_state_free(out);
    *out = tmp;
    nn_state_init(&tmp);
    if (meta_out) {
        nn_io_meta_free(meta_out);
        *meta_out = L.meta;
        nn_io_meta_init(&L.meta);
    }
done:
    nn_state_free(&tmp);
    nn_io_meta_free(&L.meta);
    nn_mem_free(L.entries);
    nn_mem_free(L.order);
    jparser_free(&L.jp);
    nn_mem_free(owned);
    return st;
}

nn_status nn_safetensors_load_buffer(nn_ctx *ctx, const void *data, size_t size, const char *name,
                                     nn_state *out, nn_io_meta *meta) {
    src s = {.name = name ? name : "<buffer>", .mem = data, .size = size};
    if (!data && size) return io_err(ctx, s.name, "no data");
    static const uint8_t empty[1];
    if (!data) s.mem = empty;
    return st_load_src(ctx, &s, out, meta);
}

nn_status nn_safetensors_load(nn_ctx *ctx, const char *path, nn_state *out, nn_io_meta *meta) {
    src s = {.name = path};
    s.f = open_regular(ctx, path, &s.size);
    if (!s.f) return ctx->err.code;
    nn_status st = st_load_src(ctx, &s, out, meta);
    fclose(s.f);
    return st;
}

/* ================================================================== */
/* NumPy .npy                                                           */
/* ================================================================== */

static const char NPY_MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

static const char *npy_descr_of(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "<f4";
    case NN_FLOAT64: return "<f8";
    case NN_INT64: return "<i8";
    case NN_BOOL: return "|b1";
    case NN_INT32: return "<i4";
    case NN_INT16: return "<i2";
    case NN_INT8: return "|i1";
    case NN_UINT8: return "|u1";
    case NN_FLOAT16: return "<f2";
    case NN_BFLOAT16: return NULL; /* NumPy has no bfloat16 */
    case NN_COMPLEX64: return "<c8";
    case NN_COMPLEX128: return "<c16";
    }
    return NULL;
}

static nn_status npy_emit(nn_ctx *ctx, sink *k, const void *arg) {
    nn_tensor *t = (nn_tensor *)arg;
    if (!npy_descr_of(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "NumPy has no %s dtype; convert the tensor first (.float())",
                            nn_dtype_name(t->dtype));
    char h[400];
    int n = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (",
                     npy_descr_of(t->dtype));
    for (int d = 0; d < t->ndim; d++)
        n += snprintf(h + n, sizeof h - (size_t)n, d ? ", %" PRId64 : "%" PRId64, t->shape[d]);
    n += snprintf(h + n, sizeof h - (size_t)n, "%s), }", t->ndim == 1 ? "," : "");
    /* Pad with spaces and end with a newline so the data starts at a
     * multiple of 64 bytes, as numpy writes it. */
    size_t total = 10 + (size_t)n + 1;
    size_t pad = (64 - total % 64) % 64;
    NN_ASSERT((size_t)n + pad + 1 < sizeof h);
    memset(h + n, ' ', pad);
    h[(size_t)n + pad] = '\n';
    size_t hlen = (size_t)n + pad + 1;
    uint8_t pre[10];
    memcpy(pre, NPY_MAGIC, 6);
    pre[6] = 1;
    pre[7] = 0;
    store_le(pre + 8, hlen, 2);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    if (!c) return ctx->err.code;
    sink_write(k, pre, sizeof pre);
    sink_write(k, h, hlen);
    sink_tensor_le(k, c);
    nn_tensor_release(c);
    return NN_OK;
}

nn_status nn_npy_save_buffer(nn_ctx *ctx, nn_tensor *t, uint8_t **out, size_t *out_size) {
    return save_buffer(ctx, npy_emit, t, out, out_size);
}

nn_status nn_npy_save(nn_ctx *ctx, const char *path, nn_tensor *t) {
    return save_file(ctx, path, npy_emit, t);
}

/* The header dict, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), } */
typedef struct npy_header {
    char descr[32];
    bool fortran;
    int ndim;
    int64_t shape[NN_MAX_DIMS];
} npy_header;

typedef struct pyreader {
    const char *s;
    size_t n, i;
    char err[200];
} pyreader;

__attribute__((format(printf, 2, 3))) static bool pyfail(pyreader *r, const char *fmt, ...) {
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, sizeof r->err, "bad header at byte %zu: %s", r->i, msg);
    return false;
}

static void py_ws(pyreader *r) {
    while (r->i < r->n &&
           (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' || r->s[r->i] == '\r'))
        r->i++;
}

static bool py_peek(pyreader *r, char c) {
    py_ws(r);
    return r->i < r->n && r->s[r->i] == c;
}

static bool py_expect(pyreader *r, char c) {
    if (!py_peek(r, c)) {
        if (r->i >= r->n) return pyfail(r, "ends early, expected '%c'", c);
        return pyfail(r, "expected '%c'", c);
    }
    r->i++;
    return true;
}

/* A quoted string without escapes (numpy writes none) into out[size]. */
static bool py_string(pyreader *r, char *out, size_t size) {
    py_ws(r);
    if (r->i >= r->n || (r->s[r->i] != '\'' && r->s[r->i] != '"'))
        return pyfail(r, "expected a quoted string");
    char q = r->s[r->i++];
    size_t len = 0;
    while (r->i < r->n && r->s[r->i] != q) {
        char c = r->s[r->i];
        if (c == '\\' || c == '\n' || c == 0) return pyfail(r, "unexpected byte in a string");
        if (len + 1 >= size) return pyfail(r, "string longer than %zu bytes", size - 1);
        out[len++] = c;
        r->i++;
    }
    if (r->i >= r->n) return pyfail(r, "unterminated string");
    r->i++;
    out[len] = 0;
    return true;
}

static bool py_word(pyreader *r, const char *w) {
    size_t l = strlen(w);
    py_ws(r);
    if (r->n - r->i >= l && memcmp(r->s + r->i, w, l) == 0) {
        r->i += l;
        return true;
    }
    return false;
}

static bool py_shape(pyreader *r, npy_header *h) {
    if (!py_expect(r, '(')) return false;
    h->ndim = 0;
    for (;;) {
        if (py_peek(r, ')')) break;
        if (r->i < r->n && r->s[r->i] == '-') return pyfail(r, "negative dimension");
        if (r->i >= r->n || !is_digit(r->s[r->i])) return pyfail(r, "expected a dimension");
        uint64_t v = 0;
        while (r->i < r->n && is_digit(r->s[r->i])) {
            uint64_t d = (uint64_t)(r->s[r->i] - '0');
            if (v > ((uint64_t)INT64_MAX - d) / 10) return pyfail(r, "dimension too large");
            v = v * 10 + d;
            r->i++;
        }
        if (r->i < r->n && r->s[r->i] == 'L') r->i++; /* Python 2 long */
        if (h->ndim == NN_MAX_DIMS)
            return pyfail(r, "more than %d dimensions (nndb's limit)", NN_MAX_DIMS);
        h->shape[h->ndim++] = (int64_t)v;
        if (py_peek(r, ',')) {
            r->i++;
            continue;
        }
        if (!py_peek(r, ')')) return pyfail(r, "expected ',' or ')' in the shape");
    }
    r->i++;
    return true;
}

static bool npy_parse_header(pyreader *r, npy_header *h) {
    bool have_descr = false, have_fortran = false, have_shape = false;
    memset(h, 0, sizeof *h);
    if (!py_expect(r, '{')) return false;
    for (;;) {
        if (py_peek(r, '}')) {
            r->i++;
            break;
        }
        char key[32];
        if (!py_string(r, key, sizeof key)) return false;
        if (!py_expect(r, ':')) return false;
        bool *seen = strcmp(key, "descr") == 0           ? &have_descr
                     : strcmp(key, "fortran_order") == 0 ? &have_fortran
                     : strcmp(key, "shape") == 0         ? &have_shape
                                                         : NULL;
        if (!seen) return pyfail(r, "unexpected key '%s'", key);
        if (*seen) return pyfail(r, "key '%s' appears twice", key);
        *seen = true;
        if (seen == &have_descr) {
            if (py_peek(r, '['))
                return pyfail(r, "structured dtypes (a list of fields) are not supported");
            if (!py_string(r, h->descr, sizeof h->descr)) return false;
        } else if (seen == &have_fortran) {
            if (py_word(r, "True"))
                h->fortran = true;
            else if (py_word(r, "False"))
                h->fortran = false;
            else
                return pyfail(r, "fortran_order must be True or False");
        } else if (!py_shape(r, h)) {
            return false;
        }
        if (py_peek(r, ',')) {
            r->i++;
            continue;
        }
        if (!py_expect(r, '}')) return false;
        break;
    }
    py_ws(r);
    if (r->i < r->n) return pyfail(r, "unexpected bytes after the header dict");
    if (!have_descr || !have_fortran || !have_shape)
        return pyfail(r, "missing '%s'",
                      !have_descr     ? "descr"
                      : !have_fortran ? "fortran_order"
                                      : "shape");
    return true;
}

/* Map a descr such as '<f4' onto an element layout and an nndb dtype. */
static bool npy_descr(const char *d, elem *e, nn_dtype *dt) {
    size_t len = strlen(d);
    if (len < 3 || len > 4) return false;
    char order = d[0], kind = d[1];
    if (!strchr("<>|=", order)) return false;
    int size = 0;
    for (size_t i = 2; i < len; i++) {
        if (!is_digit(d[i])) return false;
        size = size * 10 + (d[i] - '0');
    }
    switch (kind) {
    case 'f':
        if (size != 2 && size != 4 && size != 8) return false;
        *e = (elem){K_FLOAT, size, false};
        *dt = size == 8 ? NN_FLOAT64 : size == 4 ? NN_FLOAT32 : NN_FLOAT16;
        break;
    case 'i':
        if (size != 1 && size != 2 && size != 4 && size != 8) return false;
        *e = (elem){K_INT, size, false};
        *dt = size == 8 ? NN_INT64 : size == 4 ? NN_INT32 : size == 2 ? NN_INT16 : NN_INT8;
        break;
    case 'u':
        if (size != 1 && size != 2 && size != 4) return false;
        *e = (elem){K_UINT, size, false};
        *dt = size == 1 ? NN_UINT8 : NN_INT64;
        break;
    case 'b':
        if (size != 1) return false;
        *e = (elem){K_BOOL, 1, false};
        *dt = NN_BOOL;
        break;
    default: return false;
    }
    if (order == '|' && size != 1) return false; /* '|' means "no byte order" */
    e->big_endian = order == '>' || (order == '=' && !host_is_le());
    return true;
}

static nn_tensor *npy_load_src(nn_ctx *ctx, const src *s) {
    uint8_t pre[12];
    if (s->size < 10) {
        io_err(ctx, s->name, "%" PRIu64 " bytes is too short for a .npy file", s->size);
        return NULL;
    }
    if (src_read(ctx, s, 0, pre, 10)) return NULL;
    if (memcmp(pre, NPY_MAGIC, 6) != 0) {
        io_err(ctx, s->name, "not a .npy file (it does not start with \\x93NUMPY)");
        return NULL;
    }
    int major = pre[6], minor = pre[7];
    if ((major != 1 && major != 2 && major != 3) || minor != 0) {
        io_err(ctx, s->name,
               ".npy format version %d.%d is not supported (nndb reads 1.0, 2.0, 3.0)", major,
               minor);
        return NULL;
    }
    uint64_t hoff = major == 1 ? 10 : 12, hlen;
    if (s->size < hoff) {
        io_err(ctx, s->name, "%" PRIu64 " bytes is too short for a version %d.0 .npy file", s->size,
               major);
        return NULL;
    }
    if (src_read(ctx, s, 8, pre + 8, (size_t)hoff - 8)) return NULL;
    hlen = load_le(pre + 8, major == 1 ? 2 : 4);
    if (hlen > s->size - hoff) {
        io_err(ctx, s->name,
               "header length %" PRIu64 " runs past the end of the file (%" PRIu64
               " bytes): the file is truncated",
               hlen, s->size);
        return NULL;
    }
    if (hlen > NN_IO_NPY_HEADER_MAX) {
        io_err(ctx, s->name, "header length %" PRIu64 " is over the limit of %u bytes", hlen,
               NN_IO_NPY_HEADER_MAX);
        return NULL;
    }
    char *hbuf = nn_mem_alloc(hlen + 1, "the .npy header", &ctx->err);
    if (!hbuf) return NULL;
    npy_header h;
    pyreader r = {.s = hbuf, .n = hlen};
    bool ok = !src_read(ctx, s, hoff, hbuf, hlen);
    if (ok) {
        hbuf[hlen] = 0;
        ok = npy_parse_header(&r, &h);
        if (!ok) io_err(ctx, s->name, "%s", r.err);
    }
    nn_mem_free(hbuf);
    if (!ok) return NULL;
    elem e;
    nn_dtype dt;
    if (!npy_descr(h.descr, &e, &dt)) {
        char sb[128];
        io_err(ctx, s->name,
               "numpy dtype '%s' is not supported (nndb reads f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 b1, "
               "either byte order)",
               show(sb, sizeof sb, h.descr, strlen(h.descr)));
        return NULL;
    }
    uint64_t numel = 1;
    for (int d = 0; d < h.ndim; d++) {
        uint64_t dim = (uint64_t)h.shape[d];
        if (dim && numel > UINT64_MAX / dim)
            numel = UINT64_MAX;
        else
            numel *= dim;
    }
    char sb[128];
    nn_shape_str(sb, sizeof sb, h.ndim, h.shape);
    uint64_t data_off = hoff + hlen, have = s->size - data_off;
    if (numel > (uint64_t)INT64_MAX / (uint64_t)e.size) {
        io_err(ctx, s->name, "shape %s overflows 64 bits", sb);
        return NULL;
    }
    uint64_t need = numel * (uint64_t)e.size;
    if (!strides_fit(h.ndim, h.shape)) {
        io_err(ctx, s->name, "shape %s has dims too large for nndb, though it is empty", sb);
        return NULL;
    }
    if (have != need) {
        io_err(ctx, s->name,
               "holds %" PRIu64 " bytes of data, but shape %s of '%s' needs %" PRIu64 " (%s)", have,
               sb, h.descr, need,
               have < need ? "the file is truncated" : "extra bytes after the array");
        return NULL;
    }
    /* Fortran order is C order of the reversed shape: read it so, then
     * view it transposed and copy out in C order. */
    int64_t rshape[NN_MAX_DIMS];
    for (int d = 0; d < h.ndim; d++) rshape[d] = h.shape[h.fortran ? h.ndim - 1 - d : d];
    nn_tensor *t = nn_tensor_empty(ctx, dt, h.ndim, rshape);
    if (!t) {
        char msg[NN_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", ctx->err.msg);
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: %s", s->name, msg);
        return NULL;
    }
    if (src_read_elems(ctx, s, data_off, e, t)) {
        nn_tensor_release(t);
        return NULL;
    }
    if (h.fortran && h.ndim > 1) {
        int64_t strides[NN_MAX_DIMS];
        for (int d = 0; d < h.ndim; d++) strides[d] = t->strides[h.ndim - 1 - d];
        nn_tensor *v = nn_tensor_view_raw(ctx, t, h.ndim, h.shape, strides, 0);
        nn_tensor *c = v ? nn_tensor_contiguous_raw(ctx, v) : NULL;
        nn_tensor_release(v);
        nn_tensor_release(t);
        t = c;
    }
    return t;
}

nn_tensor *nn_npy_load_buffer(nn_ctx *ctx, const void *data, size_t size, const char *name) {
    src s = {.name = name ? name : "<buffer>", .mem = data, .size = size};
    static const uint8_t empty[1];
    if (!data) {
        if (size) {
            io_err(ctx, s.name, "no data");
            return NULL;
        }
        s.mem = empty;
    }
    return npy_load_src(ctx, &s);
}

nn_tensor *nn_npy_load(nn_ctx *ctx, const char *path) {
    src s = {.name = path};
    s.f = open_regular(ctx, path, &s.size);
    if (!s.f) return NULL;
    nn_tensor *t = npy_load_src(ctx, &s);
    fclose(s.f);
    return t;
}
