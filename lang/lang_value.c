/* lang_value: the core value types (str, list, tuple, dict, range, slice,
 * builtin, bound method, record, iterators), their protocol functions, and
 * the helpers every builtin family shares (errors, buffers, argument
 * parsing, conversions, operators on numbers, repr/format of floats).
 *
 * Owned by the language-runtime engineer. The tensor type and its methods
 * live in lang_tensor.c; user functions (lang_func_type) in lang_eval.c.
 * Object memory: lang_obj_new callocs the block; a type's free releases
 * what the object owns and lang_val_release frees the block itself.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_debug.h"
#include "lang_eval.h"
#include "nn_ctx.h"

/* ------------------------------------------------------------------ errors */

const char *lang_err_name(lang_err e) {
    switch (e) {
    case LANG_ERR_NONE: return "Error";
    case LANG_ERR_SYNTAX: return "SyntaxError";
    case LANG_ERR_NAME: return "NameError";
    case LANG_ERR_TYPE: return "TypeError";
    case LANG_ERR_VALUE: return "ValueError";
    case LANG_ERR_SHAPE: return "ShapeError";
    case LANG_ERR_INDEX: return "IndexError";
    case LANG_ERR_KEY: return "KeyError";
    case LANG_ERR_ATTRIBUTE: return "AttributeError";
    case LANG_ERR_ZERO_DIVISION: return "ZeroDivisionError";
    case LANG_ERR_RUNTIME: return "RuntimeError";
    case LANG_ERR_MEMORY: return "MemoryError";
    case LANG_ERR_IO: return "IOError";
    case LANG_ERR_INTERRUPT: return "KeyboardInterrupt";
    case LANG_ERR_STOPPED: return "Stopped";
    case LANG_ERR_ASSERTION: return "AssertionError";
    case LANG_ERR_RECURSION: return "RecursionError";
    }
    return "Error";
}

lang_err lang_err_from_status(nn_status st) {
    switch (st) {
    case NN_OK: return LANG_ERR_NONE;
    case NN_ERR_SHAPE: return LANG_ERR_SHAPE;
    case NN_ERR_INDEX: return LANG_ERR_INDEX;
    case NN_ERR_TYPE: return LANG_ERR_TYPE;
    case NN_ERR_VALUE: return LANG_ERR_VALUE;
    case NN_ERR_MEMORY: return LANG_ERR_MEMORY;
    case NN_ERR_RUNTIME: return LANG_ERR_RUNTIME;
    case NN_ERR_IO: return LANG_ERR_IO;
    case NN_ERR_INTERRUPT: return LANG_ERR_INTERRUPT;
    case NN_ERR_STOPPED: return LANG_ERR_STOPPED;
    }
    return LANG_ERR_RUNTIME;
}

static bool raisev(lang_vm *vm, lang_err e, const char *ename, const char *fmt, va_list ap) {
    /* The first error wins: a failing cleanup must not hide the cause. */
    if (vm->err != LANG_ERR_NONE) return false;
    vm->err = e;
    vm->ename = ename;
    vm->msg.len = 0;
    if (vm->msg.data) vm->msg.data[0] = 0;
    char tmp[1024];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n >= (int)sizeof tmp) n = (int)sizeof tmp - 1; /* long messages are cut */
    if (n > 0)
        lang_buf_add(&vm->msg, tmp, (size_t)n);
    else
        lang_buf_add(&vm->msg, "", 0);
    return false;
}

bool lang_raise(lang_vm *vm, lang_err e, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raisev(vm, e, NULL, fmt, ap);
    va_end(ap);
    return false;
}

bool lang_raise_named(lang_vm *vm, lang_err cls, const char *ename, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    raisev(vm, cls, ename, fmt, ap);
    va_end(ap);
    return false;
}

bool lang_raise_engine(lang_vm *vm) {
    if (lang_debug_take_error(vm)) return false;
    nn_status st = nn_ctx_status(vm->ctx);
    if (st == NN_OK) {
        lang_raise(vm, LANG_ERR_RUNTIME, "the engine failed without a message");
    } else {
        lang_raise(vm, lang_err_from_status(st), "%s", nn_ctx_error(vm->ctx));
    }
    nn_ctx_clear_error(vm->ctx);
    return false;
}

/* ------------------------------------------------------------------ buffers */

void lang_buf_init(lang_buf *b) {
    b->data = NULL;
    b->len = b->cap = 0;
}

void lang_buf_free(lang_buf *b) {
    if (!b) return;
    free(b->data);
    lang_buf_init(b);
}

static bool buf_reserve(lang_buf *b, size_t extra) {
    if (b->len + extra + 1 <= b->cap) return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) return false;
    b->data = p;
    b->cap = cap;
    return true;
}

void lang_buf_add(lang_buf *b, const char *s, size_t n) {
    if (!buf_reserve(b, n)) return;
    if (n) memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

void lang_buf_puts(lang_buf *b, const char *s) {
    lang_buf_add(b, s, strlen(s));
}

void lang_buf_printf(lang_buf *b, const char *fmt, ...) {
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
    if ((size_t)n < sizeof tmp) {
        lang_buf_add(b, tmp, (size_t)n);
    } else if (buf_reserve(b, (size_t)n)) {
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
    va_end(ap);
}

char *lang_buf_take(lang_buf *b) {
    char *s = b->data;
    if (!s) s = calloc(1, 1);
    lang_buf_init(b);
    return s;
}

/* ------------------------------------------------------------------ objects */

lang_val lang_val_retain(lang_val v) {
    if (v.kind == LANG_OBJ) v.u.o->refcount++;
    return v;
}

/* Releasing a deeply nested structure ([[[...]]] a million deep) must not
 * recurse a million C frames: past a depth, dead objects wait in a list
 * that the outermost release drains (CPython's "trashcan"). */
static _Thread_local int release_depth;
static _Thread_local lang_obj **pending;
static _Thread_local size_t n_pending, cap_pending;

static void destroy(lang_obj *o) {
    if (o->type->free) o->type->free(o);
    free(o);
}

void lang_val_release(lang_val v) {
    if (v.kind != LANG_OBJ) return;
    lang_obj *o = v.u.o;
    if (--o->refcount > 0) return;
    if (release_depth >= 200) {
        if (n_pending == cap_pending) {
            size_t cap = cap_pending ? cap_pending * 2 : 256;
            lang_obj **p = realloc(pending, cap * sizeof *p);
            if (p) {
                pending = p;
                cap_pending = cap;
            }
        }
        if (n_pending < cap_pending) {
            pending[n_pending++] = o;
            return;
        }
    }
    release_depth++;
    destroy(o);
    if (release_depth == 1) {
        while (n_pending) destroy(pending[--n_pending]);
        free(pending);
        pending = NULL;
        cap_pending = 0;
    }
    release_depth--;
}

void *lang_obj_new(lang_vm *vm, const lang_type *t, size_t size) {
    lang_obj *o = calloc(1, size);
    if (!o) {
        lang_raise(vm, LANG_ERR_MEMORY, "out of memory allocating a %s", t->name);
        return NULL;
    }
    o->refcount = 1;
    o->type = t;
    return o;
}

static bool check_alloc(lang_vm *vm, size_t bytes, const char *what) {
    if (vm->alloc_limit && bytes > vm->alloc_limit)
        return lang_raise(vm, LANG_ERR_MEMORY, "a %s of %zu bytes is above this session's limit",
                          what, bytes);
    return true;
}

/* ------------------------------------------------------------------ utf-8 */

static size_t utf8_count(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}

/* Byte offset of code point [cp] in s (n bytes). */
static size_t utf8_offset(const char *s, size_t n, size_t cp) {
    size_t i = 0, c = 0;
    while (i < n) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (c == cp) return i;
            c++;
        }
        i++;
    }
    return n;
}

static size_t utf8_char_len(unsigned char c) {
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) return 2;
    if ((c & 0xF0) == 0xE0) return 3;
    if ((c & 0xF8) == 0xF0) return 4;
    return 1;
}

/* ------------------------------------------------------------------ str */

static lang_str_obj *S(lang_val v) {
    return (lang_str_obj *)v.u.o;
}

bool lang_str_new(lang_vm *vm, const char *s, size_t n, lang_val *out) {
    if (!check_alloc(vm, n, "str")) return false;
    lang_str_obj *o = lang_obj_new(vm, &lang_str_type, sizeof(lang_str_obj) + n + 1);
    if (!o) return false;
    if (n) memcpy(o->data, s, n);
    o->data[n] = 0;
    o->len = n;
    o->ncp = utf8_count(s, n);
    o->hash = -1;
    *out = lang_obj_val(&o->hdr);
    return true;
}

bool lang_str_from_cstr(lang_vm *vm, const char *s, lang_val *out) {
    return lang_str_new(vm, s, strlen(s), out);
}

const char *lang_str_cstr(lang_val v) {
    return S(v)->data;
}

size_t lang_str_len(lang_val v) {
    return S(v)->ncp;
}

static bool is_str(lang_val v) {
    return lang_is_obj(v, &lang_str_type);
}

static bool str_from_buf(lang_vm *vm, lang_buf *b, lang_val *out) {
    bool ok = lang_str_new(vm, b->data ? b->data : "", b->len, out);
    lang_buf_free(b);
    return ok;
}

static void str_repr_into(const char *s, size_t n, lang_buf *out) {
    bool has_sq = memchr(s, '\'', n) != NULL, has_dq = memchr(s, '"', n) != NULL;
    char q = (has_sq && !has_dq) ? '"' : '\'';
    lang_buf_add(out, &q, 1);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == (unsigned char)q || c == '\\') {
            lang_buf_add(out, "\\", 1);
            lang_buf_add(out, (const char *)&c, 1);
        } else if (c == '\n') {
            lang_buf_puts(out, "\\n");
        } else if (c == '\r') {
            lang_buf_puts(out, "\\r");
        } else if (c == '\t') {
            lang_buf_puts(out, "\\t");
        } else if (c < 0x20 || c == 0x7f) {
            lang_buf_printf(out, "\\x%02x", c);
        } else {
            lang_buf_add(out, (const char *)&c, 1);
        }
    }
    lang_buf_add(out, &q, 1);
}

static bool str_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_str_obj *s = (lang_str_obj *)o;
    str_repr_into(s->data, s->len, out);
    return true;
}

static bool str_str(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_str_obj *s = (lang_str_obj *)o;
    lang_buf_add(out, s->data, s->len);
    return true;
}

static bool str_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = (int64_t)((lang_str_obj *)o)->ncp;
    return true;
}

static bool str_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((lang_str_obj *)o)->len > 0;
    return true;
}

static bool index_of(lang_vm *vm, lang_val key, int64_t len, const char *what, int64_t *out) {
    int64_t i;
    if (key.kind == LANG_INT)
        i = key.u.i;
    else if (key.kind == LANG_BOOL)
        i = key.u.b;
    else {
        nn_tensor *t = lang_tensor_of(key);
        double d;
        if (t && nn_tensor_numel(t) == 1 && !nn_dtype_is_float(t->dtype) &&
            nn_tensor_item(vm->ctx, t, &d) == NN_OK) {
            i = (int64_t)d;
        } else {
            return lang_raise(vm, LANG_ERR_TYPE, "%s indices must be integers or slices, not %s",
                              what, lang_type_name(key));
        }
    }
    if (i < 0) i += len;
    if (i < 0 || i >= len) return lang_raise(vm, LANG_ERR_INDEX, "%s index out of range", what);
    *out = i;
    return true;
}

static bool str_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    lang_str_obj *s = (lang_str_obj *)o;
    bool ascii = s->ncp == s->len;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, (int64_t)s->ncp, &start, &stop, &step, &count))
            return false;
        lang_buf b;
        lang_buf_init(&b);
        for (int64_t k = 0, i = start; k < count; k++, i += step) {
            size_t off = ascii ? (size_t)i : utf8_offset(s->data, s->len, (size_t)i);
            size_t cl = ascii ? 1 : utf8_char_len((unsigned char)s->data[off]);
            lang_buf_add(&b, s->data + off, cl);
        }
        return str_from_buf(vm, &b, out);
    }
    int64_t i = 0;
    if (!index_of(vm, key, (int64_t)s->ncp, "string", &i)) return false;
    size_t off = ascii ? (size_t)i : utf8_offset(s->data, s->len, (size_t)i);
    size_t cl = ascii ? 1 : utf8_char_len((unsigned char)s->data[off]);
    return lang_str_new(vm, s->data + off, cl, out);
}

static bool str_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled);
static bool str_iter(lang_vm *vm, lang_obj *o, lang_val *out);
static const lang_method str_methods[];

const lang_type lang_str_type = {
    .name = "str",
    .repr = str_repr,
    .str_ = str_str,
    .getitem = str_getitem,
    .iter = str_iter,
    .len = str_len,
    .truth = str_truth,
    .binop = str_binop,
    .methods = str_methods,
};

/* ------------------------------------------------------------------ number formatting */

/* Shortest digits that read back as [d], in Python's repr layout: fixed
 * notation for exponents -4 <= e < 16, scientific otherwise. */
void lang_float_repr(double d, lang_buf *out) {
    if (isnan(d)) {
        lang_buf_puts(out, "nan");
        return;
    }
    if (isinf(d)) {
        lang_buf_puts(out, d < 0 ? "-inf" : "inf");
        return;
    }
    char tmp[64];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, d);
        if (strtod(tmp, NULL) == d) break;
    }
    /* tmp is "-d.ddde+XX": split into sign, digits and exponent. */
    const char *p = tmp;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    char digits[32];
    int nd = 0;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    digits[nd] = 0;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') digits[--nd] = 0;
    int decpt = exp10 + 1; /* value = 0.DIGITS * 10^decpt */
    if (neg) lang_buf_add(out, "-", 1);
    if (decpt > 16 || decpt < -3) {
        lang_buf_add(out, digits, 1);
        if (nd > 1) {
            lang_buf_add(out, ".", 1);
            lang_buf_add(out, digits + 1, (size_t)nd - 1);
        }
        lang_buf_printf(out, "e%c%02d", exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
    } else if (decpt <= 0) {
        lang_buf_puts(out, "0.");
        for (int i = 0; i < -decpt; i++) lang_buf_add(out, "0", 1);
        lang_buf_add(out, digits, (size_t)nd);
    } else if (decpt >= nd) {
        lang_buf_add(out, digits, (size_t)nd);
        for (int i = nd; i < decpt; i++) lang_buf_add(out, "0", 1);
        lang_buf_puts(out, ".0");
    } else {
        lang_buf_add(out, digits, (size_t)decpt);
        lang_buf_add(out, ".", 1);
        lang_buf_add(out, digits + decpt, (size_t)(nd - decpt));
    }
}

typedef struct fmt_spec {
    char fill[5]; /* one UTF-8 character */
    char align;   /* 0, '<', '>', '^', '=' */
    char sign;    /* 0, '+', '-', ' ' */
    bool alt, zero;
    int64_t width;     /* -1 when absent */
    char group;        /* 0, ',', '_' */
    int64_t precision; /* -1 when absent */
    char type;         /* 0 or the type letter */
} fmt_spec;

static bool parse_spec(lang_vm *vm, const char *s, size_t n, fmt_spec *f) {
    memset(f, 0, sizeof *f);
    strcpy(f->fill, " ");
    f->width = f->precision = -1;
    size_t i = 0;
    size_t cl = n ? utf8_char_len((unsigned char)s[0]) : 0;
    if (n > cl && cl <= 4 && strchr("<>^=", s[cl])) {
        memcpy(f->fill, s, cl);
        f->fill[cl] = 0;
        f->align = s[cl];
        i = cl + 1;
    } else if (n > 0 && strchr("<>^=", s[0])) {
        f->align = s[0];
        i = 1;
    }
    if (i < n && strchr("+- ", s[i])) f->sign = s[i++];
    if (i < n && s[i] == '#') f->alt = true, i++;
    if (i < n && s[i] == '0') f->zero = true, i++;
    if (i < n && s[i] >= '0' && s[i] <= '9') {
        f->width = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            f->width = f->width * 10 + (s[i++] - '0');
            if (f->width > 100000)
                return lang_raise(vm, LANG_ERR_VALUE, "Too many decimal digits in format string");
        }
    }
    if (i < n && (s[i] == ',' || s[i] == '_')) f->group = s[i++];
    if (i < n && s[i] == '.') {
        i++;
        if (i >= n || s[i] < '0' || s[i] > '9')
            return lang_raise(vm, LANG_ERR_VALUE, "Format specifier missing precision");
        f->precision = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            f->precision = f->precision * 10 + (s[i++] - '0');
            if (f->precision > 1000) return lang_raise(vm, LANG_ERR_VALUE, "precision too big");
        }
    }
    if (i < n) f->type = s[i++];
    if (i < n) return lang_raise(vm, LANG_ERR_VALUE, "Invalid format specifier '%.*s'", (int)n, s);
    if (f->zero && !f->align) {
        f->align = '=';
        strcpy(f->fill, "0");
    }
    return true;
}

/* Pad [sign][prefix][body] to the spec's width. */
static void pad_out(const fmt_spec *f, char default_align, const char *sign, const char *body,
                    size_t body_len, lang_buf *out) {
    size_t blen = utf8_count(body, body_len) + strlen(sign);
    int64_t padn = f->width > (int64_t)blen ? f->width - (int64_t)blen : 0;
    char align = f->align ? f->align : default_align;
    int64_t left = 0, right = 0;
    if (align == '<')
        right = padn;
    else if (align == '^')
        left = padn / 2, right = padn - padn / 2;
    else
        left = padn;
    if (align == '=') {
        lang_buf_puts(out, sign);
        for (int64_t k = 0; k < left; k++) lang_buf_puts(out, f->fill);
        lang_buf_add(out, body, body_len);
        return;
    }
    for (int64_t k = 0; k < left; k++) lang_buf_puts(out, f->fill);
    lang_buf_puts(out, sign);
    lang_buf_add(out, body, body_len);
    for (int64_t k = 0; k < right; k++) lang_buf_puts(out, f->fill);
}

/* Insert [sep] every three digits of the leading run of digits. */
static void group_digits(const char *s, char sep, lang_buf *out) {
    size_t nd = 0;
    while (s[nd] >= '0' && s[nd] <= '9') nd++;
    for (size_t i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0) lang_buf_add(out, &sep, 1);
        lang_buf_add(out, s + i, 1);
    }
    lang_buf_puts(out, s + nd);
}

static bool format_int(lang_vm *vm, int64_t v, const fmt_spec *f, lang_buf *out) {
    if (f->precision >= 0)
        return lang_raise(vm, LANG_ERR_VALUE, "Precision not allowed in integer format specifier");
    char body[160];
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    char t = f->type ? f->type : 'd';
    const char *prefix = "";
    switch (t) {
    case 'd':
    case 'n': snprintf(body, sizeof body, "%" PRIu64, mag); break;
    case 'x': snprintf(body, sizeof body, "%" PRIx64, mag), prefix = "0x"; break;
    case 'X': snprintf(body, sizeof body, "%" PRIX64, mag), prefix = "0X"; break;
    case 'o': snprintf(body, sizeof body, "%" PRIo64, mag), prefix = "0o"; break;
    case 'b': {
        int k = 0;
        char tmp[72];
        do {
            tmp[k++] = (char)('0' + (mag & 1));
            mag >>= 1;
        } while (mag);
        for (int i = 0; i < k; i++) body[i] = tmp[k - 1 - i];
        body[k] = 0;
        prefix = "0b";
        break;
    }
    case 'c': {
        lang_buf b;
        lang_buf_init(&b);
        if (v < 0 || v > 0x10FFFF)
            return lang_raise(vm, LANG_ERR_VALUE, "%%c arg not in range(0x110000)");
        char u[5];
        int k = 0;
        if (v < 0x80)
            u[k++] = (char)v;
        else if (v < 0x800)
            u[k++] = (char)(0xC0 | (v >> 6)), u[k++] = (char)(0x80 | (v & 63));
        else if (v < 0x10000)
            u[k++] = (char)(0xE0 | (v >> 12)), u[k++] = (char)(0x80 | ((v >> 6) & 63)),
            u[k++] = (char)(0x80 | (v & 63));
        else
            u[k++] = (char)(0xF0 | (v >> 18)), u[k++] = (char)(0x80 | ((v >> 12) & 63)),
            u[k++] = (char)(0x80 | ((v >> 6) & 63)), u[k++] = (char)(0x80 | (v & 63));
        pad_out(f, '<', "", u, (size_t)k, out);
        lang_buf_free(&b);
        return true;
    }
    default:
        return lang_raise(vm, LANG_ERR_VALUE, "Unknown format code '%c' for object of type 'int'",
                          t);
    }
    lang_buf b;
    lang_buf_init(&b);
    if (f->alt) lang_buf_puts(&b, prefix);
    if (f->group)
        group_digits(body, f->group, &b);
    else
        lang_buf_puts(&b, body);
    const char *sign = v < 0 ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
    pad_out(f, '>', sign, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return true;
}

static bool format_float(lang_vm *vm, double v, const fmt_spec *f, lang_buf *out) {
    char t = f->type;
    int64_t prec = f->precision;
    bool neg = signbit(v) && !isnan(v);
    double mag = fabs(v);
    lang_buf body;
    lang_buf_init(&body);
    char tmp[1200];
    bool upper = t == 'E' || t == 'F' || t == 'G';
    if (isnan(v) || isinf(v)) {
        lang_buf_puts(&body, isnan(v) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"));
        if (t == '%') lang_buf_puts(&body, "%");
    } else if (t == 0 && prec < 0) {
        lang_float_repr(mag, &body);
    } else {
        switch (t) {
        case 'f':
        case 'F': snprintf(tmp, sizeof tmp, "%.*f", (int)(prec < 0 ? 6 : prec), mag); break;
        case 'e':
        case 'E':
            snprintf(tmp, sizeof tmp, upper ? "%.*E" : "%.*e", (int)(prec < 0 ? 6 : prec), mag);
            break;
        case '%':
            snprintf(tmp, sizeof tmp, "%.*f%%", (int)(prec < 0 ? 6 : prec), mag * 100.0);
            break;
        case 'g':
        case 'G':
        case 'n':
        case 0: {
            int p = (int)(prec < 0 ? 6 : prec);
            if (p == 0) p = 1;
            snprintf(tmp, sizeof tmp,
                     f->alt ? (upper ? "%#.*G" : "%#.*g") : (upper ? "%.*G" : "%.*g"), p, mag);
            if (t == 0) {
                /* No type with a precision: like 'g', but fixed notation keeps
                 * one digit after the point ('2.0', not '2'). */
                if (!strchr(tmp, 'e') && !strchr(tmp, '.')) strcat(tmp, ".0");
            }
            break;
        }
        default:
            lang_buf_free(&body);
            return lang_raise(vm, LANG_ERR_VALUE,
                              "Unknown format code '%c' for object of type 'float'", t);
        }
        lang_buf_puts(&body, tmp);
    }
    char *text = lang_buf_take(&body);
    lang_buf b;
    lang_buf_init(&b);
    if (f->group)
        group_digits(text, f->group, &b);
    else
        lang_buf_puts(&b, text);
    free(text);
    const char *sign = neg ? "-" : f->sign == '+' ? "+" : f->sign == ' ' ? " " : "";
    pad_out(f, '>', sign, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return true;
}

bool lang_format_value(lang_vm *vm, lang_val v, const char *spec, size_t spec_len, lang_buf *out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t && spec_len > 0) {
        /* PyTorch formats a 0-dim tensor through item(); nndb also accepts
         * any one-element tensor, which PyTorch refuses. */
        double d;
        if (nn_tensor_numel(t) != 1)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "unsupported format string passed to Tensor.__format__");
        if (nn_tensor_item(vm->ctx, t, &d) != NN_OK) return lang_raise_engine(vm);
        lang_val item = t->dtype == NN_BOOL    ? lang_bool(d != 0)
                        : t->dtype == NN_INT64 ? lang_int((int64_t)d)
                                               : lang_float(d);
        return lang_format_value(vm, item, spec, spec_len, out);
    }
    if (spec_len == 0) return lang_str(vm, v, out);
    fmt_spec f;
    if (!parse_spec(vm, spec, spec_len, &f)) return false;
    switch (v.kind) {
    case LANG_BOOL:
    case LANG_INT: {
        int64_t i = v.kind == LANG_BOOL ? v.u.b : v.u.i;
        if (f.type && strchr("eEfFgG%", f.type)) return format_float(vm, (double)i, &f, out);
        return format_int(vm, i, &f, out);
    }
    case LANG_FLOAT: return format_float(vm, v.u.f, &f, out);
    default: break;
    }
    if (is_str(v)) {
        if (f.type && f.type != 's')
            return lang_raise(vm, LANG_ERR_VALUE,
                              "Unknown format code '%c' for object of type 'str'", f.type);
        if (f.sign)
            return lang_raise(vm, LANG_ERR_VALUE, "Sign not allowed in string format specifier");
        if (f.align == '=')
            return lang_raise(vm, LANG_ERR_VALUE,
                              "'=' alignment not allowed in string format specifier");
        lang_str_obj *s = S(v);
        size_t n = s->len;
        if (f.precision >= 0 && (size_t)f.precision < s->ncp)
            n = utf8_offset(s->data, s->len, (size_t)f.precision);
        pad_out(&f, '<', "", s->data, n, out);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "unsupported format string passed to %s.__format__",
                      lang_type_name(v));
}

/* ------------------------------------------------------------------ argument parsing */

bool lang_parse_args(lang_vm *vm, const lang_args *a, const char *fname, const char *spec, ...) {
    enum { MAXP = 24 };
    const char *names[MAXP];
    size_t lens[MAXP];
    int np = 0, nreq = -1;
    for (const char *p = spec; *p && np < MAXP;) {
        if (*p == '|') {
            nreq = np;
            p++;
            continue;
        }
        const char *q = p;
        while (*q && *q != ',' && *q != '|') q++;
        names[np] = p;
        lens[np] = (size_t)(q - p);
        np++;
        p = *q == ',' ? q + 1 : q;
    }
    if (nreq < 0) nreq = np;
    lang_val *outs[MAXP];
    bool got[MAXP] = {0};
    va_list ap;
    va_start(ap, spec);
    for (int i = 0; i < np; i++) outs[i] = va_arg(ap, lang_val *);
    va_end(ap);
    if (a->n > np) {
        if (np == 0)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() takes no arguments (%d given)", fname, a->n);
        return lang_raise(vm, LANG_ERR_TYPE, "%s() takes at most %d argument%s (%d given)", fname,
                          np, np == 1 ? "" : "s", a->n);
    }
    for (int i = 0; i < a->n; i++) {
        *outs[i] = a->pos[i];
        got[i] = true;
    }
    for (int k = 0; k < a->nkw; k++) {
        const char *kn = a->kwnames[k];
        int j = -1;
        for (int i = 0; i < np; i++)
            if (strlen(kn) == lens[i] && memcmp(kn, names[i], lens[i]) == 0) j = i;
        if (j < 0)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, kn);
        if (got[j])
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got multiple values for argument '%s'",
                              fname, kn);
        *outs[j] = a->kw[k];
        got[j] = true;
    }
    for (int i = 0; i < nreq; i++)
        if (!got[i])
            return lang_raise(vm, LANG_ERR_TYPE, "%s() missing required argument '%.*s' (pos %d)",
                              fname, (int)lens[i], names[i], i + 1);
    return true;
}

static bool no_args(lang_vm *vm, const lang_args *a, const char *fname) {
    return lang_parse_args(vm, a, fname, "");
}

/* ------------------------------------------------------------------ str methods */

static bool want_str(lang_vm *vm, lang_val v, const char *fname, const char *what) {
    if (is_str(v)) return true;
    return lang_raise(vm, LANG_ERR_TYPE, "%s() argument %s must be str, not %s", fname, what,
                      lang_type_name(v));
}

static bool m_str_upper(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "str.upper")) return false;
    lang_str_obj *s = S(self);
    if (!lang_str_new(vm, s->data, s->len, out)) return false;
    for (char *p = S(*out)->data; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
    return true;
}

static bool m_str_lower(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "str.lower")) return false;
    lang_str_obj *s = S(self);
    if (!lang_str_new(vm, s->data, s->len, out)) return false;
    for (char *p = S(*out)->data; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p + 32);
    return true;
}

static bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool do_strip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out,
                     const char *fname, bool left, bool right) {
    lang_val chars = lang_none();
    if (!lang_parse_args(vm, a, fname, "|chars", &chars)) return false;
    if (chars.kind != LANG_NONE && !want_str(vm, chars, fname, "1")) return false;
    const char *set = chars.kind == LANG_NONE ? NULL : S(chars)->data;
    lang_str_obj *s = S(self);
    size_t b = 0, e = s->len;
#define IN_SET(c) (set ? (strchr(set, (c)) != NULL && (c) != 0) : is_space(c))
    if (left)
        while (b < e && IN_SET(s->data[b])) b++;
    if (right)
        while (e > b && IN_SET(s->data[e - 1])) e--;
#undef IN_SET
    return lang_str_new(vm, s->data + b, e - b, out);
}

static bool m_str_strip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return do_strip(vm, self, a, out, "str.strip", true, true);
}
static bool m_str_lstrip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return do_strip(vm, self, a, out, "str.lstrip", true, false);
}
static bool m_str_rstrip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return do_strip(vm, self, a, out, "str.rstrip", false, true);
}

static bool m_str_split(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sep = lang_none(), maxv = lang_int(-1);
    int64_t maxsplit;
    if (!lang_parse_args(vm, a, "str.split", "|sep,maxsplit", &sep, &maxv)) return false;
    if (!lang_to_int(vm, maxv, "maxsplit", &maxsplit)) return false;
    if (sep.kind != LANG_NONE && !want_str(vm, sep, "str.split", "sep")) return false;
    if (!lang_list_new(vm, 0, out)) return false;
    lang_str_obj *s = S(self);
    const char *p = s->data, *end = s->data + s->len;
    lang_val piece;
    int64_t done = 0;
    if (sep.kind == LANG_NONE) {
        while (p < end) {
            while (p < end && is_space(*p)) p++;
            if (p == end) break;
            const char *q = p;
            if (maxsplit >= 0 && done >= maxsplit) {
                q = end;
                while (q > p && is_space(q[-1])) q--;
            } else {
                while (q < end && !is_space(*q)) q++;
            }
            if (!lang_str_new(vm, p, (size_t)(q - p), &piece)) goto fail;
            bool ok = lang_list_append(vm, *out, piece);
            lang_val_release(piece);
            if (!ok) goto fail;
            done++;
            p = q;
        }
        return true;
    }
    lang_str_obj *sp = S(sep);
    if (sp->len == 0) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_VALUE, "empty separator");
    }
    for (;;) {
        const char *q = (maxsplit >= 0 && done >= maxsplit)
                            ? NULL
                            : memmem(p, (size_t)(end - p), sp->data, sp->len);
        const char *stop = q ? q : end;
        if (!lang_str_new(vm, p, (size_t)(stop - p), &piece)) goto fail;
        bool ok = lang_list_append(vm, *out, piece);
        lang_val_release(piece);
        if (!ok) goto fail;
        if (!q) break;
        p = q + sp->len;
        done++;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static bool m_str_splitlines(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "str.splitlines")) return false;
    if (!lang_list_new(vm, 0, out)) return false;
    lang_str_obj *s = S(self);
    const char *p = s->data, *end = s->data + s->len;
    while (p < end) {
        const char *q = p;
        while (q < end && *q != '\n' && *q != '\r') q++;
        lang_val piece;
        if (!lang_str_new(vm, p, (size_t)(q - p), &piece)) goto fail;
        bool ok = lang_list_append(vm, *out, piece);
        lang_val_release(piece);
        if (!ok) goto fail;
        if (q < end && *q == '\r' && q + 1 < end && q[1] == '\n') q++;
        p = q + 1;
    }
    return true;
fail:
    lang_val_release(*out);
    return false;
}

static bool m_str_join(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val it_src;
    if (!lang_parse_args(vm, a, "str.join", "iterable", &it_src)) return false;
    lang_val list;
    if (!lang_list_from_iter(vm, it_src, &list)) return false;
    lang_buf b;
    lang_buf_init(&b);
    int64_t n = lang_seq_len(list);
    lang_val *items = lang_seq_items(list);
    for (int64_t i = 0; i < n; i++) {
        if (!is_str(items[i])) {
            lang_buf_free(&b);
            lang_val_release(list);
            return lang_raise(vm, LANG_ERR_TYPE,
                              "sequence item %" PRId64 ": expected str instance, %s found", i,
                              lang_type_name(items[i]));
        }
        if (i) lang_buf_add(&b, S(self)->data, S(self)->len);
        lang_buf_add(&b, S(items[i])->data, S(items[i])->len);
        if (!check_alloc(vm, b.len, "str")) {
            lang_buf_free(&b);
            lang_val_release(list);
            return false;
        }
    }
    lang_val_release(list);
    return str_from_buf(vm, &b, out);
}

static bool affix_match(lang_vm *vm, lang_val self, const lang_args *a, const char *fname, bool end,
                        lang_val *out) {
    lang_val pre;
    if (!lang_parse_args(vm, a, fname, "prefix", &pre)) return false;
    lang_str_obj *s = S(self);
    int64_t n = 1;
    const lang_val *cands = &pre;
    if (lang_is_obj(pre, &lang_tuple_type)) {
        n = lang_seq_len(pre);
        cands = lang_seq_items(pre);
    }
    for (int64_t i = 0; i < n; i++) {
        if (!is_str(cands[i]))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "%s first arg must be str or a tuple of str, not %s", fname,
                              lang_type_name(cands[i]));
        lang_str_obj *p = S(cands[i]);
        if (p->len <= s->len &&
            memcmp(end ? s->data + s->len - p->len : s->data, p->data, p->len) == 0) {
            *out = lang_bool(true);
            return true;
        }
    }
    *out = lang_bool(false);
    return true;
}

static bool m_str_startswith(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return affix_match(vm, self, a, "startswith", false, out);
}
static bool m_str_endswith(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return affix_match(vm, self, a, "endswith", true, out);
}

static bool m_str_replace(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val oldv, newv, countv = lang_int(-1);
    int64_t count;
    if (!lang_parse_args(vm, a, "str.replace", "old,new|count", &oldv, &newv, &countv))
        return false;
    if (!want_str(vm, oldv, "replace", "1") || !want_str(vm, newv, "replace", "2") ||
        !lang_to_int(vm, countv, "count", &count))
        return false;
    lang_str_obj *s = S(self), *o = S(oldv), *nw = S(newv);
    lang_buf b;
    lang_buf_init(&b);
    const char *p = s->data, *end = s->data + s->len;
    int64_t done = 0;
    if (o->len == 0) {
        while (count < 0 || done < count) {
            lang_buf_add(&b, nw->data, nw->len);
            done++;
            if (p == end) break;
            size_t cl = utf8_char_len((unsigned char)*p);
            lang_buf_add(&b, p, cl);
            p += cl;
            if (!check_alloc(vm, b.len, "str")) {
                lang_buf_free(&b);
                return false;
            }
        }
        lang_buf_add(&b, p, (size_t)(end - p));
        return str_from_buf(vm, &b, out);
    }
    while (count < 0 || done < count) {
        const char *q = memmem(p, (size_t)(end - p), o->data, o->len);
        if (!q) break;
        lang_buf_add(&b, p, (size_t)(q - p));
        lang_buf_add(&b, nw->data, nw->len);
        p = q + o->len;
        done++;
        if (!check_alloc(vm, b.len, "str")) {
            lang_buf_free(&b);
            return false;
        }
    }
    lang_buf_add(&b, p, (size_t)(end - p));
    return str_from_buf(vm, &b, out);
}

static bool find_impl(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                      bool reverse, int64_t *out) {
    lang_val sub;
    if (!lang_parse_args(vm, a, fname, "sub", &sub)) return false;
    if (!want_str(vm, sub, fname, "1")) return false;
    lang_str_obj *s = S(self), *t = S(sub);
    *out = -1;
    if (t->len > s->len) return true;
    if (!reverse) {
        const char *q = memmem(s->data, s->len, t->data, t->len);
        if (q) *out = (int64_t)utf8_count(s->data, (size_t)(q - s->data));
    } else {
        for (size_t i = s->len - t->len + 1; i-- > 0;) {
            if (memcmp(s->data + i, t->data, t->len) == 0) {
                *out = (int64_t)utf8_count(s->data, i);
                break;
            }
        }
    }
    return true;
}

static bool m_str_find(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t i;
    if (!find_impl(vm, self, a, "find", false, &i)) return false;
    *out = lang_int(i);
    return true;
}
static bool m_str_rfind(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t i;
    if (!find_impl(vm, self, a, "rfind", true, &i)) return false;
    *out = lang_int(i);
    return true;
}
static bool m_str_index(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t i;
    if (!find_impl(vm, self, a, "index", false, &i)) return false;
    if (i < 0) return lang_raise(vm, LANG_ERR_VALUE, "substring not found");
    *out = lang_int(i);
    return true;
}

static bool m_str_count(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sub;
    if (!lang_parse_args(vm, a, "str.count", "sub", &sub)) return false;
    if (!want_str(vm, sub, "count", "1")) return false;
    lang_str_obj *s = S(self), *t = S(sub);
    if (t->len == 0) {
        *out = lang_int((int64_t)s->ncp + 1);
        return true;
    }
    int64_t c = 0;
    const char *p = s->data, *end = s->data + s->len;
    for (;;) {
        const char *q = memmem(p, (size_t)(end - p), t->data, t->len);
        if (!q) break;
        c++;
        p = q + t->len;
    }
    *out = lang_int(c);
    return true;
}

typedef int (*char_pred)(int);
static int p_digit(int c) {
    return c >= '0' && c <= '9';
}
static int p_alpha(int c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}
static int p_alnum(int c) {
    return p_digit(c) || p_alpha(c);
}
static int p_space(int c) {
    return is_space((char)c);
}

static bool str_all(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                    char_pred pred, lang_val *out) {
    if (!no_args(vm, a, fname)) return false;
    lang_str_obj *s = S(self);
    bool r = s->len > 0;
    for (size_t i = 0; i < s->len && r; i++) r = pred((unsigned char)s->data[i]);
    *out = lang_bool(r);
    return true;
}
static bool m_str_isdigit(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return str_all(vm, self, a, "str.isdigit", p_digit, out);
}
static bool m_str_isalpha(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return str_all(vm, self, a, "str.isalpha", p_alpha, out);
}
static bool m_str_isalnum(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return str_all(vm, self, a, "str.isalnum", p_alnum, out);
}
static bool m_str_isspace(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return str_all(vm, self, a, "str.isspace", p_space, out);
}

static bool case_change(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                        bool title, lang_val *out) {
    if (!no_args(vm, a, fname)) return false;
    lang_str_obj *s = S(self);
    if (!lang_str_new(vm, s->data, s->len, out)) return false;
    bool start = true;
    for (char *p = S(*out)->data; *p; p++) {
        bool letter = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z');
        if (start && *p >= 'a' && *p <= 'z')
            *p = (char)(*p - 32);
        else if (!start && *p >= 'A' && *p <= 'Z')
            *p = (char)(*p + 32);
        if (title)
            start = !letter;
        else
            start = false;
    }
    return true;
}
static bool m_str_title(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return case_change(vm, self, a, "str.title", true, out);
}
static bool m_str_capitalize(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return case_change(vm, self, a, "str.capitalize", false, out);
}

static bool justify(lang_vm *vm, lang_val self, const lang_args *a, const char *fname, char align,
                    lang_val *out) {
    lang_val wv, fillv = lang_none();
    int64_t w;
    if (!lang_parse_args(vm, a, fname, "width|fillchar", &wv, &fillv)) return false;
    if (!lang_to_int(vm, wv, "width", &w)) return false;
    if (!check_alloc(vm, (size_t)(w > 0 ? w : 0), "str")) return false;
    fmt_spec f;
    memset(&f, 0, sizeof f);
    strcpy(f.fill, " ");
    if (fillv.kind != LANG_NONE) {
        if (!is_str(fillv) || S(fillv)->ncp != 1 || S(fillv)->len > 4)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "The fill character must be exactly one character long");
        memcpy(f.fill, S(fillv)->data, S(fillv)->len);
        f.fill[S(fillv)->len] = 0;
    }
    f.align = align;
    f.width = w;
    f.precision = -1;
    lang_buf b;
    lang_buf_init(&b);
    if (align == '=') { /* zfill */
        lang_str_obj *s = S(self);
        const char *sign = "";
        const char *body = s->data;
        if (s->len && (s->data[0] == '-' || s->data[0] == '+')) {
            sign = s->data[0] == '-' ? "-" : "+";
            body++;
        }
        strcpy(f.fill, "0");
        pad_out(&f, '=', sign, body, s->len - (size_t)(body - s->data), &b);
    } else {
        pad_out(&f, align, "", S(self)->data, S(self)->len, &b);
    }
    return str_from_buf(vm, &b, out);
}
static bool m_str_ljust(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return justify(vm, self, a, "str.ljust", '<', out);
}
static bool m_str_rjust(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return justify(vm, self, a, "str.rjust", '>', out);
}
static bool m_str_center(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return justify(vm, self, a, "str.center", '^', out);
}
static bool m_str_zfill(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return justify(vm, self, a, "str.zfill", '=', out);
}

/* "{} {0} {name!r:>8}".format(...) */
static bool str_format_impl(lang_vm *vm, const char *s, size_t n, const lang_args *a,
                            lang_buf *out) {
    int auto_idx = 0;
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c == '{' && i + 1 < n && s[i + 1] == '{') {
            lang_buf_add(out, "{", 1);
            i += 2;
            continue;
        }
        if (c == '}' && i + 1 < n && s[i + 1] == '}') {
            lang_buf_add(out, "}", 1);
            i += 2;
            continue;
        }
        if (c == '}')
            return lang_raise(vm, LANG_ERR_VALUE, "Single '}' encountered in format string");
        if (c != '{') {
            lang_buf_add(out, &c, 1);
            i++;
            continue;
        }
        size_t j = i + 1;
        int depth = 1;
        while (j < n && depth) {
            if (s[j] == '{')
                depth++;
            else if (s[j] == '}')
                depth--;
            if (depth) j++;
        }
        if (j >= n)
            return lang_raise(vm, LANG_ERR_VALUE, "Single '{' encountered in format string");
        const char *f = s + i + 1;
        size_t fl = j - i - 1;
        size_t k = 0;
        while (k < fl && f[k] != '!' && f[k] != ':') k++;
        const char *fname = f;
        size_t fnl = k;
        char conv = 0;
        if (k < fl && f[k] == '!') {
            if (k + 1 >= fl)
                return lang_raise(vm, LANG_ERR_VALUE,
                                  "end of string while looking for conversion specifier");
            conv = f[k + 1];
            k += 2;
        }
        const char *spec = "";
        size_t specl = 0;
        if (k < fl && f[k] == ':') {
            spec = f + k + 1;
            specl = fl - k - 1;
        }
        lang_val v;
        if (fnl == 0) {
            if (auto_idx >= a->n)
                return lang_raise(vm, LANG_ERR_INDEX,
                                  "Replacement index %d out of range for positional args tuple",
                                  auto_idx);
            v = a->pos[auto_idx++];
        } else if (fname[0] >= '0' && fname[0] <= '9') {
            int idx = atoi(fname);
            if (idx >= a->n)
                return lang_raise(vm, LANG_ERR_INDEX,
                                  "Replacement index %d out of range for positional args tuple",
                                  idx);
            v = a->pos[idx];
        } else {
            int found = -1;
            for (int q = 0; q < a->nkw; q++)
                if (strlen(a->kwnames[q]) == fnl && memcmp(a->kwnames[q], fname, fnl) == 0)
                    found = q;
            if (found < 0) return lang_raise(vm, LANG_ERR_KEY, "'%.*s'", (int)fnl, fname);
            v = a->kw[found];
        }
        /* A nested field in the spec ("{:{w}}") is formatted first. */
        lang_buf specbuf;
        lang_buf_init(&specbuf);
        if (memchr(spec, '{', specl)) {
            if (!str_format_impl(vm, spec, specl, a, &specbuf)) {
                lang_buf_free(&specbuf);
                return false;
            }
            spec = specbuf.data ? specbuf.data : "";
            specl = specbuf.len;
        }
        bool ok;
        if (conv == 'r' || conv == 's') {
            lang_buf tmp;
            lang_buf_init(&tmp);
            ok = conv == 'r' ? lang_repr(vm, v, &tmp) : lang_str(vm, v, &tmp);
            lang_val sv;
            if (ok && (ok = lang_str_new(vm, tmp.data ? tmp.data : "", tmp.len, &sv))) {
                ok = lang_format_value(vm, sv, spec, specl, out);
                lang_val_release(sv);
            }
            lang_buf_free(&tmp);
        } else if (conv) {
            ok = lang_raise(vm, LANG_ERR_VALUE, "Unknown conversion specifier %c", conv);
        } else {
            ok = lang_format_value(vm, v, spec, specl, out);
        }
        lang_buf_free(&specbuf);
        if (!ok) return false;
        i = j + 1;
    }
    return true;
}

static bool m_str_format(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_buf b;
    lang_buf_init(&b);
    if (!str_format_impl(vm, S(self)->data, S(self)->len, a, &b)) {
        lang_buf_free(&b);
        return false;
    }
    return str_from_buf(vm, &b, out);
}

/* printf-style "%5.2f" % x, mapped onto format specs. */
static bool str_percent(lang_vm *vm, lang_val fmtv, lang_val args, lang_val *out) {
    lang_str_obj *fs = S(fmtv);
    const lang_val *items = &args;
    int64_t nargs = 1, used = 0;
    if (lang_is_obj(args, &lang_tuple_type)) {
        items = lang_seq_items(args);
        nargs = lang_seq_len(args);
    }
    lang_buf b;
    lang_buf_init(&b);
    const char *s = fs->data, *end = s + fs->len;
    while (s < end) {
        if (*s != '%') {
            lang_buf_add(&b, s++, 1);
            continue;
        }
        s++;
        if (s < end && *s == '%') {
            lang_buf_add(&b, "%", 1);
            s++;
            continue;
        }
        char spec[64];
        int k = 0;
        bool left = false, zero = false;
        char sign = 0;
        while (s < end && strchr("-+ 0#", *s)) {
            if (*s == '-')
                left = true;
            else if (*s == '0')
                zero = true;
            else if (*s == '+' || *s == ' ')
                sign = *s;
            s++;
        }
        char width[24] = "", prec[24] = "";
        int wl = 0, pl = 0;
        while (s < end && *s >= '0' && *s <= '9' && wl < 20) width[wl++] = *s++;
        width[wl] = 0;
        if (s < end && *s == '.') {
            prec[pl++] = *s++;
            while (s < end && *s >= '0' && *s <= '9' && pl < 20) prec[pl++] = *s++;
            prec[pl] = 0;
        }
        if (s >= end) {
            lang_buf_free(&b);
            return lang_raise(vm, LANG_ERR_VALUE, "incomplete format");
        }
        char conv = *s++;
        if (used >= nargs) {
            lang_buf_free(&b);
            return lang_raise(vm, LANG_ERR_TYPE, "not enough arguments for format string");
        }
        lang_val v = items[used++];
        bool ok;
        if (conv == 's' || conv == 'r') {
            lang_buf tmp;
            lang_buf_init(&tmp);
            ok = conv == 'r' ? lang_repr(vm, v, &tmp) : lang_str(vm, v, &tmp);
            if (ok) {
                k = snprintf(spec, sizeof spec, "%c%s%s", left ? '<' : '>', width, prec);
                lang_val sv;
                ok = lang_str_new(vm, tmp.data ? tmp.data : "", tmp.len, &sv);
                if (ok) {
                    ok = lang_format_value(vm, sv, spec, (size_t)k, &b);
                    lang_val_release(sv);
                }
            }
            lang_buf_free(&tmp);
        } else if (strchr("dieEfFgGxXo", conv)) {
            char t = conv == 'i' ? 'd' : conv;
            lang_val nv = v;
            if (t == 'd' || t == 'x' || t == 'X' || t == 'o') {
                if (v.kind == LANG_FLOAT) nv = lang_int((int64_t)v.u.f);
            }
            if (nv.kind != LANG_INT && nv.kind != LANG_FLOAT && nv.kind != LANG_BOOL &&
                !lang_tensor_of(nv)) {
                lang_buf_free(&b);
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%%%c format: a real number is required, not %s", conv,
                                  lang_type_name(v));
            }
            k = snprintf(spec, sizeof spec, "%s%s%s%s%s%c", left ? "<" : "",
                         sign == '+'   ? "+"
                         : sign == ' ' ? " "
                                       : "",
                         (zero && !left) ? "0" : "", width,
                         (t == 'd' || t == 'x' || t == 'X' || t == 'o') ? "" : prec, t);
            ok = lang_format_value(vm, nv, spec, (size_t)k, &b);
        } else {
            lang_buf_free(&b);
            return lang_raise(vm, LANG_ERR_VALUE, "unsupported format character '%c'", conv);
        }
        if (!ok) {
            lang_buf_free(&b);
            return false;
        }
    }
    if (used < nargs) {
        lang_buf_free(&b);
        return lang_raise(vm, LANG_ERR_TYPE,
                          "not all arguments converted during string formatting");
    }
    return str_from_buf(vm, &b, out);
}

static bool str_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled) {
    *handled = true;
    if (op == LANG_OP_ADD && is_str(a) && is_str(b)) {
        size_t n = S(a)->len + S(b)->len;
        if (!check_alloc(vm, n, "str")) return false;
        lang_str_obj *o = lang_obj_new(vm, &lang_str_type, sizeof(lang_str_obj) + n + 1);
        if (!o) return false;
        memcpy(o->data, S(a)->data, S(a)->len);
        memcpy(o->data + S(a)->len, S(b)->data, S(b)->len);
        o->data[n] = 0;
        o->len = n;
        o->ncp = S(a)->ncp + S(b)->ncp;
        o->hash = -1;
        *out = lang_obj_val(&o->hdr);
        return true;
    }
    if (op == LANG_OP_MUL) {
        lang_val s = is_str(a) ? a : b, k = is_str(a) ? b : a;
        if (is_str(s) && (k.kind == LANG_INT || k.kind == LANG_BOOL)) {
            int64_t times = k.kind == LANG_INT ? k.u.i : k.u.b;
            if (times < 0) times = 0;
            size_t len = S(s)->len;
            if (len && (uint64_t)times > SIZE_MAX / 2 / len)
                return lang_raise(vm, LANG_ERR_MEMORY, "repeated string is too long");
            if (!check_alloc(vm, len * (size_t)times, "str")) return false;
            lang_buf bb;
            lang_buf_init(&bb);
            for (int64_t i = 0; i < times; i++) lang_buf_add(&bb, S(s)->data, len);
            return str_from_buf(vm, &bb, out);
        }
    }
    if (op == LANG_OP_MOD && is_str(a)) return str_percent(vm, a, b, out);
    *handled = false;
    return true;
}

#define M(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            "str." n, sig, doc, ex                                                                 \
        }                                                                                          \
    }
static const lang_method str_methods[] = {
    M("capitalize", m_str_capitalize, "str.capitalize()",
      "A copy with the first character upper case and the rest lower case.",
      "'hello'.capitalize()"),
    M("center", m_str_center, "str.center(width, fillchar=' ')",
      "Centre the string in a field of [width] characters.", "'ab'.center(6, '*')"),
    M("count", m_str_count, "str.count(sub)", "How many non-overlapping times [sub] occurs.",
      "'banana'.count('an')"),
    M("endswith", m_str_endswith, "str.endswith(suffix)",
      "Whether the string ends with [suffix] (or one of a tuple of them).",
      "'model.nn'.endswith('.nn')"),
    M("find", m_str_find, "str.find(sub)", "The index of the first [sub], or -1.",
      "'hello'.find('l')"),
    M("format", m_str_format, "str.format(*args, **kwargs)",
      "Fill {} fields with the arguments, with format specs as in f-strings.",
      "'{} has {:.2f}'.format('loss', 0.123)"),
    M("index", m_str_index, "str.index(sub)", "Like find(), but a ValueError when [sub] is absent.",
      "'hello'.index('e')"),
    M("isalnum", m_str_isalnum, "str.isalnum()",
      "Whether every character is a letter or digit (and there is one).", "'a1'.isalnum()"),
    M("isalpha", m_str_isalpha, "str.isalpha()",
      "Whether every character is a letter (and there is one).", "'abc'.isalpha()"),
    M("isdigit", m_str_isdigit, "str.isdigit()",
      "Whether every character is a digit (and there is one).", "'123'.isdigit()"),
    M("isspace", m_str_isspace, "str.isspace()",
      "Whether every character is white space (and there is one).", "' '.isspace()"),
    M("join", m_str_join, "str.join(iterable)",
      "Concatenate the strings of [iterable] with this string between them.",
      "', '.join(['a', 'b'])"),
    M("ljust", m_str_ljust, "str.ljust(width, fillchar=' ')",
      "Left-justify in a field of [width] characters.", "'ab'.ljust(5) + '|'"),
    M("lower", m_str_lower, "str.lower()", "A lower-case copy (ASCII letters).", "'ABC'.lower()"),
    M("lstrip", m_str_lstrip, "str.lstrip(chars=None)", "Remove leading white space (or [chars]).",
      "'  x '.lstrip()"),
    M("replace", m_str_replace, "str.replace(old, new, count=-1)",
      "Replace occurrences of [old] by [new] (at most [count]).", "'a-b-c'.replace('-', '+')"),
    M("rfind", m_str_rfind, "str.rfind(sub)", "The index of the last [sub], or -1.",
      "'hello'.rfind('l')"),
    M("rjust", m_str_rjust, "str.rjust(width, fillchar=' ')",
      "Right-justify in a field of [width] characters.", "'ab'.rjust(5)"),
    M("rstrip", m_str_rstrip, "str.rstrip(chars=None)", "Remove trailing white space (or [chars]).",
      "'x  \\n'.rstrip()"),
    M("split", m_str_split, "str.split(sep=None, maxsplit=-1)",
      "Split at [sep], or at runs of white space when [sep] is None.", "'a b  c'.split()"),
    M("splitlines", m_str_splitlines, "str.splitlines()", "Split at line ends.",
      "'a\\nb'.splitlines()"),
    M("startswith", m_str_startswith, "str.startswith(prefix)",
      "Whether the string starts with [prefix] (or one of a tuple of them).",
      "'conv1.weight'.startswith('conv')"),
    M("strip", m_str_strip, "str.strip(chars=None)",
      "Remove leading and trailing white space (or [chars]).", "'  x  '.strip()"),
    M("title", m_str_title, "str.title()", "Each word capitalised.", "'hello world'.title()"),
    M("upper", m_str_upper, "str.upper()", "An upper-case copy (ASCII letters).", "'abc'.upper()"),
    M("zfill", m_str_zfill, "str.zfill(width)",
      "Pad with zeros on the left to [width], after any sign.", "'42'.zfill(5)"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef M

/* ------------------------------------------------------------------ list and tuple */

static lang_seq_obj *Q(lang_val v) {
    return (lang_seq_obj *)v.u.o;
}

static bool is_list(lang_val v) {
    return lang_is_obj(v, &lang_list_type);
}
static bool is_tuple(lang_val v) {
    return lang_is_obj(v, &lang_tuple_type);
}
static bool is_seq(lang_val v) {
    return is_list(v) || is_tuple(v);
}

static void seq_free(lang_obj *o) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    for (int64_t i = 0; i < q->n; i++) lang_val_release(q->items[i]);
    free(q->items);
}

static bool seq_reserve(lang_vm *vm, lang_seq_obj *q, int64_t need) {
    if (need <= q->cap) return true;
    int64_t cap = q->cap ? q->cap : 4;
    while (cap < need) cap *= 2;
    if (!check_alloc(vm, (size_t)cap * sizeof(lang_val), "list")) return false;
    lang_val *p = realloc(q->items, (size_t)cap * sizeof(lang_val));
    if (!p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory growing a list");
    q->items = p;
    q->cap = cap;
    return true;
}

static bool seq_new(lang_vm *vm, const lang_type *t, int64_t n, lang_val *out) {
    if (n < 0) n = 0;
    if ((uint64_t)n > SIZE_MAX / sizeof(lang_val) / 2)
        return lang_raise(vm, LANG_ERR_MEMORY, "a %s of %" PRId64 " items is too large", t->name,
                          n);
    lang_seq_obj *q = lang_obj_new(vm, t, sizeof *q);
    if (!q) return false;
    if (!seq_reserve(vm, q, n)) {
        free(q);
        return false;
    }
    for (int64_t i = 0; i < n; i++) q->items[i] = lang_none();
    q->n = n;
    *out = lang_obj_val(&q->hdr);
    return true;
}

bool lang_list_new(lang_vm *vm, int64_t n, lang_val *out) {
    return seq_new(vm, &lang_list_type, n, out);
}
bool lang_tuple_new(lang_vm *vm, int64_t n, lang_val *out) {
    return seq_new(vm, &lang_tuple_type, n, out);
}

bool lang_tuple_pack(lang_vm *vm, int n, const lang_val *items, lang_val *out) {
    if (!lang_tuple_new(vm, n, out)) return false;
    for (int i = 0; i < n; i++) Q(*out)->items[i] = lang_val_retain(items[i]);
    return true;
}

bool lang_list_append(lang_vm *vm, lang_val list, lang_val item) {
    lang_seq_obj *q = Q(list);
    if (!seq_reserve(vm, q, q->n + 1)) return false;
    q->items[q->n++] = lang_val_retain(item);
    return true;
}

int64_t lang_seq_len(lang_val v) {
    return Q(v)->n;
}
lang_val *lang_seq_items(lang_val v) {
    return Q(v)->items;
}

/* Appends the repr of each of [n] items, separated by ", ". */
static bool repr_items(lang_vm *vm, const lang_val *items, int64_t n, lang_buf *out) {
    for (int64_t i = 0; i < n; i++) {
        if (i) lang_buf_puts(out, ", ");
        if (!lang_repr(vm, items[i], out)) return false;
    }
    return true;
}

/* Containers that hold themselves print as [...] as in Python. */
static lang_obj *repr_stack[64];
static int repr_depth;

static bool repr_enter(lang_obj *o, lang_buf *out, const char *dots) {
    for (int i = 0; i < repr_depth; i++)
        if (repr_stack[i] == o) {
            lang_buf_puts(out, dots);
            return false;
        }
    if (repr_depth < 64) repr_stack[repr_depth] = o;
    repr_depth++;
    return true;
}
static void repr_leave(void) {
    repr_depth--;
}

static bool list_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    if (!repr_enter(o, out, "[...]")) return true;
    lang_seq_obj *q = (lang_seq_obj *)o;
    lang_buf_add(out, "[", 1);
    bool ok = repr_items(vm, q->items, q->n, out);
    lang_buf_add(out, "]", 1);
    repr_leave();
    return ok;
}

static bool tuple_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    lang_buf_add(out, "(", 1);
    bool ok = repr_items(vm, q->items, q->n, out);
    if (q->n == 1) lang_buf_add(out, ",", 1);
    lang_buf_add(out, ")", 1);
    return ok;
}

static bool seq_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((lang_seq_obj *)o)->n;
    return true;
}
static bool seq_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((lang_seq_obj *)o)->n > 0;
    return true;
}

static bool seq_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    const char *what = o->type == &lang_list_type ? "list" : "tuple";
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, q->n, &start, &stop, &step, &count)) return false;
        if (!seq_new(vm, o->type, count, out)) return false;
        for (int64_t k = 0, i = start; k < count; k++, i += step)
            Q(*out)->items[k] = lang_val_retain(q->items[i]);
        return true;
    }
    int64_t i = 0;
    if (!index_of(vm, key, q->n, what, &i)) return false;
    *out = lang_val_retain(q->items[i]);
    return true;
}

static bool list_setitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val v) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, q->n, &start, &stop, &step, &count)) return false;
        lang_val src;
        if (!lang_list_from_iter(vm, v, &src)) return false;
        int64_t m = Q(src)->n;
        if (step != 1) {
            if (m != count) {
                lang_val_release(src);
                return lang_raise(vm, LANG_ERR_VALUE,
                                  "attempt to assign sequence of size %" PRId64
                                  " to extended slice of size %" PRId64,
                                  m, count);
            }
            for (int64_t k = 0, i = start; k < count; k++, i += step) {
                lang_val old = q->items[i];
                q->items[i] = lang_val_retain(Q(src)->items[k]);
                lang_val_release(old);
            }
            lang_val_release(src);
            return true;
        }
        if (stop < start) stop = start;
        int64_t removed = stop - start, newn = q->n - removed + m;
        if (!seq_reserve(vm, q, newn)) {
            lang_val_release(src);
            return false;
        }
        for (int64_t i = start; i < stop; i++) lang_val_release(q->items[i]);
        memmove(q->items + start + m, q->items + stop, sizeof(lang_val) * (size_t)(q->n - stop));
        for (int64_t k = 0; k < m; k++) q->items[start + k] = lang_val_retain(Q(src)->items[k]);
        q->n = newn;
        lang_val_release(src);
        return true;
    }
    int64_t i = 0;
    if (!index_of(vm, key, q->n, "list assignment", &i)) return false;
    lang_val old = q->items[i];
    q->items[i] = lang_val_retain(v);
    lang_val_release(old);
    return true;
}

static bool seq_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled) {
    *handled = true;
    if (op == LANG_OP_ADD && is_seq(a) && is_seq(b) && a.u.o->type == b.u.o->type) {
        int64_t n = Q(a)->n + Q(b)->n;
        if (!seq_new(vm, a.u.o->type, n, out)) return false;
        for (int64_t i = 0; i < Q(a)->n; i++) Q(*out)->items[i] = lang_val_retain(Q(a)->items[i]);
        for (int64_t i = 0; i < Q(b)->n; i++)
            Q(*out)->items[Q(a)->n + i] = lang_val_retain(Q(b)->items[i]);
        return true;
    }
    if (op == LANG_OP_ADD && is_seq(a) && is_seq(b)) {
        return lang_raise(vm, LANG_ERR_TYPE, "can only concatenate %s (not \"%s\") to %s",
                          lang_type_name(a), lang_type_name(b), lang_type_name(a));
    }
    if (op == LANG_OP_MUL) {
        lang_val s = is_seq(a) ? a : b, k = is_seq(a) ? b : a;
        if (is_seq(s) && (k.kind == LANG_INT || k.kind == LANG_BOOL)) {
            int64_t times = k.kind == LANG_INT ? k.u.i : k.u.b;
            if (times < 0) times = 0;
            int64_t n = Q(s)->n;
            if (n && times > INT64_MAX / n / 16)
                return lang_raise(vm, LANG_ERR_MEMORY, "repeated %s is too long",
                                  lang_type_name(s));
            if (!seq_new(vm, s.u.o->type, n * times, out)) return false;
            for (int64_t t = 0; t < times; t++)
                for (int64_t i = 0; i < n; i++)
                    Q(*out)->items[t * n + i] = lang_val_retain(Q(s)->items[i]);
            return true;
        }
    }
    *handled = false;
    return true;
}

static bool list_iter_new(lang_vm *vm, lang_obj *o, lang_val *out);

/* list methods */
static bool m_list_append(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "list.append", "object", &x)) return false;
    if (!lang_list_append(vm, self, x)) return false;
    *out = lang_none();
    return true;
}

static bool m_list_extend(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x, src;
    if (!lang_parse_args(vm, a, "list.extend", "iterable", &x)) return false;
    if (!lang_list_from_iter(vm, x, &src)) return false;
    bool ok = true;
    for (int64_t i = 0; ok && i < Q(src)->n; i++) ok = lang_list_append(vm, self, Q(src)->items[i]);
    lang_val_release(src);
    *out = lang_none();
    return ok;
}

static bool m_list_pop(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val iv = lang_int(-1);
    if (!lang_parse_args(vm, a, "list.pop", "|index", &iv)) return false;
    lang_seq_obj *q = Q(self);
    if (q->n == 0) return lang_raise(vm, LANG_ERR_INDEX, "pop from empty list");
    int64_t i;
    if (!lang_to_int(vm, iv, "index", &i)) return false;
    if (i < 0) i += q->n;
    if (i < 0 || i >= q->n) return lang_raise(vm, LANG_ERR_INDEX, "pop index out of range");
    *out = q->items[i];
    memmove(q->items + i, q->items + i + 1, sizeof(lang_val) * (size_t)(q->n - i - 1));
    q->n--;
    return true;
}

static bool m_list_insert(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val iv, x;
    int64_t i;
    if (!lang_parse_args(vm, a, "list.insert", "index,object", &iv, &x)) return false;
    if (!lang_to_int(vm, iv, "index", &i)) return false;
    lang_seq_obj *q = Q(self);
    if (i < 0) i += q->n;
    if (i < 0) i = 0;
    if (i > q->n) i = q->n;
    if (!seq_reserve(vm, q, q->n + 1)) return false;
    memmove(q->items + i + 1, q->items + i, sizeof(lang_val) * (size_t)(q->n - i));
    q->items[i] = lang_val_retain(x);
    q->n++;
    *out = lang_none();
    return true;
}

static bool seq_find(lang_vm *vm, lang_val self, lang_val x, int64_t *out) {
    lang_seq_obj *q = Q(self);
    for (int64_t i = 0; i < q->n; i++) {
        bool eq;
        if (!lang_equal(vm, q->items[i], x, &eq)) return false;
        if (eq) {
            *out = i;
            return true;
        }
    }
    *out = -1;
    return true;
}

static bool m_list_remove(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    int64_t i = 0;
    if (!lang_parse_args(vm, a, "list.remove", "value", &x)) return false;
    if (!seq_find(vm, self, x, &i)) return false;
    if (i < 0) return lang_raise(vm, LANG_ERR_VALUE, "list.remove(x): x not in list");
    lang_seq_obj *q = Q(self);
    lang_val old = q->items[i];
    memmove(q->items + i, q->items + i + 1, sizeof(lang_val) * (size_t)(q->n - i - 1));
    q->n--;
    lang_val_release(old);
    *out = lang_none();
    return true;
}

static bool m_seq_index(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    int64_t i = 0;
    bool list = is_list(self);
    if (!lang_parse_args(vm, a, list ? "list.index" : "tuple.index", "value", &x)) return false;
    if (!seq_find(vm, self, x, &i)) return false;
    if (i < 0) {
        lang_buf b;
        lang_buf_init(&b);
        if (list) lang_repr(vm, x, &b);
        vm->err = LANG_ERR_NONE;
        bool r = list ? lang_raise(vm, LANG_ERR_VALUE, "%s is not in list", b.data ? b.data : "")
                      : lang_raise(vm, LANG_ERR_VALUE, "tuple.index(x): x not in tuple");
        lang_buf_free(&b);
        return r;
    }
    *out = lang_int(i);
    return true;
}

static bool m_seq_count(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "count", "value", &x)) return false;
    int64_t c = 0;
    for (int64_t i = 0; i < Q(self)->n; i++) {
        bool eq;
        if (!lang_equal(vm, Q(self)->items[i], x, &eq)) return false;
        c += eq;
    }
    *out = lang_int(c);
    return true;
}

static bool m_list_reverse(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "list.reverse")) return false;
    lang_seq_obj *q = Q(self);
    for (int64_t i = 0, j = q->n - 1; i < j; i++, j--) {
        lang_val t = q->items[i];
        q->items[i] = q->items[j];
        q->items[j] = t;
    }
    *out = lang_none();
    return true;
}

static bool m_list_copy(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "list.copy")) return false;
    lang_val all;
    if (!lang_slice_new(vm, lang_none(), lang_none(), lang_none(), &all)) return false;
    bool ok = seq_getitem(vm, self.u.o, all, out);
    lang_val_release(all);
    return ok;
}

static bool m_list_clear(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "list.clear")) return false;
    lang_seq_obj *q = Q(self);
    int64_t n = q->n;
    q->n = 0;
    for (int64_t i = 0; i < n; i++) lang_val_release(q->items[i]);
    *out = lang_none();
    return true;
}

/* Stable merge sort on precomputed keys, so a failing comparison can stop
 * it cleanly and a key function runs once per item. */
typedef struct sort_item {
    lang_val key, val;
} sort_item;

static bool merge_sort(lang_vm *vm, sort_item *a, sort_item *tmp, int64_t n, bool reverse) {
    if (n < 2) return true;
    int64_t h = n / 2;
    if (!merge_sort(vm, a, tmp, h, reverse) || !merge_sort(vm, a + h, tmp, n - h, reverse))
        return false;
    int64_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        bool lt;
        /* stable: take from the right only when strictly before the left */
        if (!lang_less(vm, reverse ? a[i].key : a[j].key, reverse ? a[j].key : a[i].key, &lt))
            return false;
        tmp[k++] = lt ? a[j++] : a[i++];
    }
    while (i < h) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, sizeof(sort_item) * (size_t)n);
    return true;
}

/* Sort [list] in place (list.sort and sorted share it). */
static bool sort_list(lang_vm *vm, lang_val list, lang_val key, bool reverse) {
    lang_seq_obj *q = Q(list);
    int64_t n = q->n;
    if (n < 2) return true;
    sort_item *items = malloc(sizeof(sort_item) * (size_t)n * 2);
    if (!items) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory sorting");
    bool ok = true;
    int64_t nk = 0;
    for (int64_t i = 0; i < n; i++) {
        items[i].val = lang_val_retain(q->items[i]);
        items[i].key = lang_none();
    }
    for (; nk < n && ok; nk++) {
        if (key.kind == LANG_NONE) {
            items[nk].key = lang_val_retain(items[nk].val);
        } else {
            lang_args args = {1, &items[nk].val, 0, NULL, NULL};
            ok = lang_call(vm, key, &args, &items[nk].key);
            if (!ok) items[nk].key = lang_none();
        }
    }
    if (ok && q->n != n) ok = lang_raise(vm, LANG_ERR_VALUE, "list modified during sort");
    if (ok) ok = merge_sort(vm, items, items + n, n, reverse);
    if (ok) {
        for (int64_t i = 0; i < n; i++) {
            lang_val old = q->items[i];
            q->items[i] = lang_val_retain(items[i].val);
            lang_val_release(old);
        }
    }
    for (int64_t i = 0; i < n; i++) {
        lang_val_release(items[i].val);
        lang_val_release(items[i].key);
    }
    free(items);
    return ok;
}

bool lang_sort_list(lang_vm *vm, lang_val list, lang_val key, bool reverse) {
    return sort_list(vm, list, key, reverse);
}

static bool m_list_sort(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val key = lang_none(), rev = lang_bool(false);
    bool reverse;
    if (a->n) return lang_raise(vm, LANG_ERR_TYPE, "sort() takes no positional arguments");
    if (!lang_parse_args(vm, a, "sort", "|key,reverse", &key, &rev)) return false;
    if (!lang_to_bool(vm, rev, "reverse", &reverse)) return false;
    if (!sort_list(vm, self, key, reverse)) return false;
    *out = lang_none();
    return true;
}

#define M(t, n, f, sig, doc, ex)                                                                   \
    {                                                                                              \
        n, f, {                                                                                    \
            t "." n, sig, doc, ex                                                                  \
        }                                                                                          \
    }
static const lang_method list_methods[] = {
    M("list", "append", m_list_append, "list.append(object)", "Add [object] at the end.",
      "xs = [1]; xs.append(2); xs"),
    M("list", "clear", m_list_clear, "list.clear()", "Remove every item.",
      "xs = [1, 2]; xs.clear(); xs"),
    M("list", "copy", m_list_copy, "list.copy()", "A shallow copy.", "[1, 2].copy()"),
    M("list", "count", m_seq_count, "list.count(value)", "How many items equal [value].",
      "[1, 2, 1].count(1)"),
    M("list", "extend", m_list_extend, "list.extend(iterable)", "Append every item of [iterable].",
      "xs = [1]; xs.extend([2, 3]); xs"),
    M("list", "index", m_seq_index, "list.index(value)",
      "The index of the first item equal to [value]; ValueError when absent.", "[5, 6].index(6)"),
    M("list", "insert", m_list_insert, "list.insert(index, object)",
      "Insert [object] before [index].", "xs = [1, 3]; xs.insert(1, 2); xs"),
    M("list", "pop", m_list_pop, "list.pop(index=-1)",
      "Remove and return the item at [index] (the last by default).", "[1, 2, 3].pop()"),
    M("list", "remove", m_list_remove, "list.remove(value)",
      "Remove the first item equal to [value]; ValueError when absent.",
      "xs = [1, 2]; xs.remove(1); xs"),
    M("list", "reverse", m_list_reverse, "list.reverse()", "Reverse in place.",
      "xs = [1, 2]; xs.reverse(); xs"),
    M("list", "sort", m_list_sort, "list.sort(key=None, reverse=False)",
      "Sort in place, stably; [key] maps each item to what is compared.",
      "xs = [3, 1, 2]; xs.sort(); xs"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_method tuple_methods[] = {
    M("tuple", "count", m_seq_count, "tuple.count(value)", "How many items equal [value].",
      "(1, 2, 1).count(1)"),
    M("tuple", "index", m_seq_index, "tuple.index(value)",
      "The index of the first item equal to [value].", "(5, 6).index(6)"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help list_help = {
    "list", "list(iterable=())",
    "A mutable sequence. list(x) makes a new list of the items of any iterable.", "list(range(3))"};
static const lang_help tuple_help = {"tuple", "tuple(iterable=())",
                                     "An immutable sequence; shapes are tuples.", "tuple([1, 2])"};

const lang_type lang_list_type = {
    .name = "list",
    .free = seq_free,
    .repr = list_repr,
    .getitem = seq_getitem,
    .setitem = list_setitem,
    .iter = list_iter_new,
    .len = seq_len,
    .truth = seq_truth,
    .binop = seq_binop,
    .methods = list_methods,
    .help = &list_help,
};

const lang_type lang_tuple_type = {
    .name = "tuple",
    .free = seq_free,
    .repr = tuple_repr,
    .getitem = seq_getitem,
    .iter = list_iter_new,
    .len = seq_len,
    .truth = seq_truth,
    .binop = seq_binop,
    .methods = tuple_methods,
    .help = &tuple_help,
};

/* ------------------------------------------------------------------ dict */

static lang_dict_obj *D(lang_val v) {
    return (lang_dict_obj *)v.u.o;
}
static bool is_dict(lang_val v) {
    return lang_is_obj(v, &lang_dict_type);
}

static void dict_free(lang_obj *o) {
    lang_dict_obj *d = (lang_dict_obj *)o;
    for (int64_t i = 0; i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        lang_val_release(d->entries[i].key);
        lang_val_release(d->entries[i].value);
    }
    free(d->entries);
    free(d->index);
}

bool lang_dict_new(lang_vm *vm, lang_val *out) {
    lang_dict_obj *d = lang_obj_new(vm, &lang_dict_type, sizeof *d);
    if (!d) return false;
    *out = lang_obj_val(&d->hdr);
    return true;
}

/* Slot in the index for [key]: *pos is where it is (or where it would go),
 * *entry the entry index or -1. */
static bool dict_lookup(lang_vm *vm, lang_dict_obj *d, lang_val key, int64_t hash, int64_t *pos,
                        int64_t *entry) {
    *entry = -1;
    *pos = -1;
    if (!d->index_cap) return true;
    uint64_t mask = (uint64_t)d->index_cap - 1, i = (uint64_t)hash & mask, perturb = (uint64_t)hash;
    int64_t first_dummy = -1;
    for (;;) {
        int64_t ix = d->index[i];
        if (ix == 0) {
            *pos = first_dummy >= 0 ? first_dummy : (int64_t)i;
            return true;
        }
        if (ix < 0) {
            if (first_dummy < 0) first_dummy = (int64_t)i;
        } else {
            lang_dict_entry *e = &d->entries[ix - 1];
            if (e->hash == hash) {
                bool eq;
                if (e->key.kind == key.kind && e->key.kind == LANG_OBJ && e->key.u.o == key.u.o)
                    eq = true;
                else if (!lang_equal(vm, e->key, key, &eq))
                    return false;
                if (eq) {
                    *pos = (int64_t)i;
                    *entry = ix - 1;
                    return true;
                }
            }
        }
        perturb >>= 5;
        i = (i * 5 + perturb + 1) & mask;
    }
}

static bool dict_rebuild(lang_vm *vm, lang_dict_obj *d, int64_t need) {
    /* Compact the entries and size the index for [need] live keys. */
    int64_t cap = 8;
    while (cap < need * 3 / 2 + 1) cap *= 2;
    if (!check_alloc(vm, (size_t)cap * (sizeof(int64_t) + sizeof(lang_dict_entry)), "dict"))
        return false;
    int64_t *index = calloc((size_t)cap, sizeof(int64_t));
    if (!index) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory growing a dict");
    int64_t k = 0;
    for (int64_t i = 0; i < d->nent; i++)
        if (d->entries[i].live) d->entries[k++] = d->entries[i];
    d->nent = k;
    if (d->cap < cap) {
        lang_dict_entry *e = realloc(d->entries, sizeof(lang_dict_entry) * (size_t)cap);
        if (!e) {
            free(index);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory growing a dict");
        }
        d->entries = e;
        d->cap = cap;
    }
    for (int64_t i = 0; i < k; i++) {
        uint64_t mask = (uint64_t)cap - 1, p = (uint64_t)d->entries[i].hash & mask,
                 perturb = (uint64_t)d->entries[i].hash;
        while (index[p]) {
            perturb >>= 5;
            p = (p * 5 + perturb + 1) & mask;
        }
        index[p] = i + 1;
    }
    free(d->index);
    d->index = index;
    d->index_cap = cap;
    return true;
}

bool lang_dict_set(lang_vm *vm, lang_val dict, lang_val key, lang_val value) {
    lang_dict_obj *d = D(dict);
    int64_t hash = 0, pos, entry;
    if (!lang_hash(vm, key, &hash)) return false;
    if (!dict_lookup(vm, d, key, hash, &pos, &entry)) return false;
    if (entry >= 0) {
        lang_val old = d->entries[entry].value;
        d->entries[entry].value = lang_val_retain(value);
        lang_val_release(old);
        return true;
    }
    if (d->nent + 1 > d->cap || (d->nent + 1) * 3 > d->index_cap * 2) {
        if (!dict_rebuild(vm, d, d->n + 1)) return false;
        if (!dict_lookup(vm, d, key, hash, &pos, &entry)) return false;
    }
    lang_dict_entry *e = &d->entries[d->nent];
    e->hash = hash;
    e->key = lang_val_retain(key);
    e->value = lang_val_retain(value);
    e->live = true;
    d->index[pos] = ++d->nent;
    d->n++;
    d->version++;
    return true;
}

bool lang_dict_get(lang_vm *vm, lang_val dict, lang_val key, lang_val *out, bool *found) {
    lang_dict_obj *d = D(dict);
    int64_t hash = 0, pos, entry;
    *found = false;
    if (!lang_hash(vm, key, &hash)) return false;
    if (!dict_lookup(vm, d, key, hash, &pos, &entry)) return false;
    if (entry >= 0) {
        *found = true;
        *out = lang_val_retain(d->entries[entry].value);
    }
    return true;
}

bool lang_dict_del(lang_vm *vm, lang_val dict, lang_val key, bool *found) {
    lang_dict_obj *d = D(dict);
    int64_t hash = 0, pos, entry;
    *found = false;
    if (!lang_hash(vm, key, &hash)) return false;
    if (!dict_lookup(vm, d, key, hash, &pos, &entry)) return false;
    if (entry < 0) return true;
    *found = true;
    lang_dict_entry *e = &d->entries[entry];
    lang_val k = e->key, v = e->value;
    e->live = false;
    d->index[pos] = -1;
    d->n--;
    d->version++;
    lang_val_release(k);
    lang_val_release(v);
    return true;
}

static bool key_error(lang_vm *vm, lang_val key) {
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_repr(vm, key, &b)) {
        lang_buf_free(&b);
        return false;
    }
    lang_raise(vm, LANG_ERR_KEY, "%s", b.data ? b.data : "");
    lang_buf_free(&b);
    return false;
}

static bool dict_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    bool found;
    if (!lang_dict_get(vm, lang_obj_val(o), key, out, &found)) return false;
    if (!found) return key_error(vm, key);
    return true;
}

static bool dict_setitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val v) {
    return lang_dict_set(vm, lang_obj_val(o), key, v);
}

static bool dict_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    if (!repr_enter(o, out, "{...}")) return true;
    lang_dict_obj *d = (lang_dict_obj *)o;
    lang_buf_add(out, "{", 1);
    bool first = true, ok = true;
    for (int64_t i = 0; ok && i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        if (!first) lang_buf_puts(out, ", ");
        first = false;
        ok = lang_repr(vm, d->entries[i].key, out);
        lang_buf_puts(out, ": ");
        if (ok) ok = lang_repr(vm, d->entries[i].value, out);
    }
    lang_buf_add(out, "}", 1);
    repr_leave();
    return ok;
}

static bool dict_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((lang_dict_obj *)o)->n;
    return true;
}
static bool dict_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((lang_dict_obj *)o)->n > 0;
    return true;
}

/* Iteration over dicts and their views: which part to yield. */
enum { DICT_KEYS, DICT_VALUES, DICT_ITEMS };

typedef struct dictview_obj {
    lang_obj hdr;
    lang_val dict;
    int which;
} dictview_obj;

static bool dict_iter_kind(lang_vm *vm, lang_val dict, int which, lang_val *out);

static bool dict_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    return dict_iter_kind(vm, lang_obj_val(o), DICT_KEYS, out);
}

static bool dictview_new(lang_vm *vm, lang_val dict, int which, lang_val *out) {
    dictview_obj *v = lang_obj_new(vm, &lang_dictview_type, sizeof *v);
    if (!v) return false;
    v->dict = lang_val_retain(dict);
    v->which = which;
    *out = lang_obj_val(&v->hdr);
    return true;
}

static bool m_dict_keys(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return no_args(vm, a, "dict.keys") && dictview_new(vm, self, DICT_KEYS, out);
}
static bool m_dict_values(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return no_args(vm, a, "dict.values") && dictview_new(vm, self, DICT_VALUES, out);
}
static bool m_dict_items(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return no_args(vm, a, "dict.items") && dictview_new(vm, self, DICT_ITEMS, out);
}

static bool m_dict_get(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val key, def = lang_none();
    bool found;
    if (!lang_parse_args(vm, a, "get", "key|default", &key, &def)) return false;
    if (!lang_dict_get(vm, self, key, out, &found)) return false;
    if (!found) *out = lang_val_retain(def);
    return true;
}

static bool m_dict_pop(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val key, def = lang_none();
    bool found;
    if (!lang_parse_args(vm, a, "pop", "key|default", &key, &def)) return false;
    if (!lang_dict_get(vm, self, key, out, &found)) return false;
    if (!found) {
        if (a->n + a->nkw < 2) return key_error(vm, key);
        *out = lang_val_retain(def);
        return true;
    }
    if (!lang_dict_del(vm, self, key, &found)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool m_dict_setdefault(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val key, def = lang_none();
    bool found;
    if (!lang_parse_args(vm, a, "setdefault", "key|default", &key, &def)) return false;
    if (!lang_dict_get(vm, self, key, out, &found)) return false;
    if (found) return true;
    if (!lang_dict_set(vm, self, key, def)) return false;
    *out = lang_val_retain(def);
    return true;
}

static bool dict_update_from(lang_vm *vm, lang_val self, lang_val src) {
    if (is_dict(src)) {
        lang_dict_obj *d = D(src);
        for (int64_t i = 0; i < d->nent; i++) {
            if (!d->entries[i].live) continue;
            if (!lang_dict_set(vm, self, d->entries[i].key, d->entries[i].value)) return false;
        }
        return true;
    }
    lang_val list;
    if (!lang_list_from_iter(vm, src, &list)) return false;
    bool ok = true;
    for (int64_t i = 0; ok && i < Q(list)->n; i++) {
        lang_val pair = Q(list)->items[i];
        if (!is_seq(pair) || Q(pair)->n != 2) {
            ok = lang_raise(
                vm, LANG_ERR_VALUE,
                "dictionary update sequence element #%" PRId64 " has the wrong length (need 2)", i);
            break;
        }
        ok = lang_dict_set(vm, self, Q(pair)->items[0], Q(pair)->items[1]);
    }
    lang_val_release(list);
    return ok;
}

bool lang_dict_update(lang_vm *vm, lang_val self, const lang_args *a) {
    if (a->n > 1)
        return lang_raise(vm, LANG_ERR_TYPE, "update expected at most 1 argument, got %d", a->n);
    if (a->n == 1 && !dict_update_from(vm, self, a->pos[0])) return false;
    for (int k = 0; k < a->nkw; k++) {
        lang_val key;
        if (!lang_str_from_cstr(vm, a->kwnames[k], &key)) return false;
        bool ok = lang_dict_set(vm, self, key, a->kw[k]);
        lang_val_release(key);
        if (!ok) return false;
    }
    return true;
}

static bool m_dict_update(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_dict_update(vm, self, a)) return false;
    *out = lang_none();
    return true;
}

static bool m_dict_copy(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "dict.copy")) return false;
    if (!lang_dict_new(vm, out)) return false;
    if (!dict_update_from(vm, *out, self)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool m_dict_clear(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "dict.clear")) return false;
    lang_dict_obj *d = D(self);
    lang_dict_obj saved = *d;
    d->entries = NULL;
    d->index = NULL;
    d->n = d->nent = d->cap = d->index_cap = 0;
    d->version++;
    saved.hdr.type = &lang_dict_type;
    dict_free(&saved.hdr);
    *out = lang_none();
    return true;
}

static bool m_dict_popitem(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!no_args(vm, a, "dict.popitem")) return false;
    lang_dict_obj *d = D(self);
    for (int64_t i = d->nent - 1; i >= 0; i--) {
        if (!d->entries[i].live) continue;
        lang_val pair[2] = {d->entries[i].key, d->entries[i].value};
        if (!lang_tuple_pack(vm, 2, pair, out)) return false;
        bool found;
        lang_val key = lang_val_retain(pair[0]);
        bool ok = lang_dict_del(vm, self, key, &found);
        lang_val_release(key);
        return ok;
    }
    return lang_raise(vm, LANG_ERR_KEY, "'popitem(): dictionary is empty'");
}

static const lang_method dict_methods[] = {
    M("dict", "clear", m_dict_clear, "dict.clear()", "Remove every item.",
      "d = {'a': 1}; d.clear(); d"),
    M("dict", "copy", m_dict_copy, "dict.copy()", "A shallow copy.", "{'a': 1}.copy()"),
    M("dict", "get", m_dict_get, "dict.get(key, default=None)",
      "The value for [key], or [default] when absent.", "{'a': 1}.get('b', 0)"),
    M("dict", "items", m_dict_items, "dict.items()",
      "A view of (key, value) pairs in insertion order.", "list({'a': 1}.items())"),
    M("dict", "keys", m_dict_keys, "dict.keys()", "A view of the keys in insertion order.",
      "list({'a': 1}.keys())"),
    M("dict", "pop", m_dict_pop, "dict.pop(key, default)",
      "Remove [key] and return its value; [default] (or KeyError) when absent.",
      "{'a': 1}.pop('a')"),
    M("dict", "popitem", m_dict_popitem, "dict.popitem()",
      "Remove and return the last inserted (key, value).", "{'a': 1}.popitem()"),
    M("dict", "setdefault", m_dict_setdefault, "dict.setdefault(key, default=None)",
      "The value for [key], inserting [default] first when absent.",
      "d = {}; d.setdefault('a', []).append(1); d"),
    M("dict", "update", m_dict_update, "dict.update(other=(), **kwargs)",
      "Insert the items of a dict, of (key, value) pairs, or keyword arguments.",
      "d = {'a': 1}; d.update(b=2); d"),
    M("dict", "values", m_dict_values, "dict.values()", "A view of the values in insertion order.",
      "list({'a': 1}.values())"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_help dict_help = {
    "dict", "dict(mapping_or_pairs=(), **kwargs)",
    "A mapping kept in insertion order; keys are str, numbers, None, bool or tuples of them.",
    "dict(a=1, b=2)"};

const lang_type lang_dict_type = {
    .name = "dict",
    .free = dict_free,
    .repr = dict_repr,
    .getitem = dict_getitem,
    .setitem = dict_setitem,
    .iter = dict_iter,
    .len = dict_len,
    .truth = dict_truth,
    .methods = dict_methods,
    .help = &dict_help,
};

static void dictview_free(lang_obj *o) {
    lang_val_release(((dictview_obj *)o)->dict);
}

static bool dictview_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    dictview_obj *v = (dictview_obj *)o;
    static const char *const names[] = {"dict_keys", "dict_values", "dict_items"};
    lang_buf_puts(out, names[v->which]);
    lang_buf_puts(out, "([");
    lang_dict_obj *d = D(v->dict);
    bool first = true;
    for (int64_t i = 0; i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        if (!first) lang_buf_puts(out, ", ");
        first = false;
        if (v->which == DICT_ITEMS) lang_buf_add(out, "(", 1);
        if (v->which != DICT_VALUES && !lang_repr(vm, d->entries[i].key, out)) return false;
        if (v->which == DICT_ITEMS) lang_buf_puts(out, ", ");
        if (v->which != DICT_KEYS && !lang_repr(vm, d->entries[i].value, out)) return false;
        if (v->which == DICT_ITEMS) lang_buf_add(out, ")", 1);
    }
    lang_buf_puts(out, "])");
    return true;
}

static bool dictview_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    dictview_obj *v = (dictview_obj *)o;
    return dict_iter_kind(vm, v->dict, v->which, out);
}
static bool dictview_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = D(((dictview_obj *)o)->dict)->n;
    return true;
}

const lang_type lang_dictview_type = {
    .name = "dict_view",
    .free = dictview_free,
    .repr = dictview_repr,
    .iter = dictview_iter,
    .len = dictview_len,
};

/* ------------------------------------------------------------------ range and slice */

static lang_range_obj *R(lang_val v) {
    return (lang_range_obj *)v.u.o;
}

bool lang_range_new(lang_vm *vm, int64_t start, int64_t stop, int64_t step, lang_val *out) {
    if (step == 0) return lang_raise(vm, LANG_ERR_VALUE, "range() arg 3 must not be zero");
    lang_range_obj *r = lang_obj_new(vm, &lang_range_type, sizeof *r);
    if (!r) return false;
    r->start = start;
    r->stop = stop;
    r->step = step;
    if (step > 0)
        r->len = stop > start
                     ? (int64_t)(((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1)
                     : 0;
    else
        r->len = start > stop ? (int64_t)(((uint64_t)start - (uint64_t)stop - 1) /
                                              ((uint64_t)0 - (uint64_t)step) +
                                          1)
                              : 0;
    *out = lang_obj_val(&r->hdr);
    return true;
}

static bool range_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_range_obj *r = (lang_range_obj *)o;
    if (r->step == 1)
        lang_buf_printf(out, "range(%" PRId64 ", %" PRId64 ")", r->start, r->stop);
    else
        lang_buf_printf(out, "range(%" PRId64 ", %" PRId64 ", %" PRId64 ")", r->start, r->stop,
                        r->step);
    return true;
}

static bool range_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((lang_range_obj *)o)->len;
    return true;
}
static bool range_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((lang_range_obj *)o)->len > 0;
    return true;
}

static bool range_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    lang_range_obj *r = (lang_range_obj *)o;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, r->len, &start, &stop, &step, &count)) return false;
        return lang_range_new(vm, r->start + start * r->step, r->start + stop * r->step,
                              r->step * step, out);
    }
    int64_t i = 0;
    if (!index_of(vm, key, r->len, "range object", &i)) return false;
    *out = lang_int(r->start + i * r->step);
    return true;
}

static bool range_iter(lang_vm *vm, lang_obj *o, lang_val *out);

static const lang_help range_help = {
    "range", "range(stop) or range(start, stop, step=1)",
    "The integers from [start] (0) up to but not including [stop], by [step]. Loops over a "
    "range take no memory per item.",
    "list(range(0, 10, 3))"};

const lang_type lang_range_type = {
    .name = "range",
    .repr = range_repr,
    .getitem = range_getitem,
    .iter = range_iter,
    .len = range_len,
    .truth = range_truth,
    .help = &range_help,
};

static void slice_free(lang_obj *o) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    lang_val_release(s->start);
    lang_val_release(s->stop);
    lang_val_release(s->step);
}

bool lang_slice_new(lang_vm *vm, lang_val start, lang_val stop, lang_val step, lang_val *out) {
    lang_slice_obj *s = lang_obj_new(vm, &lang_slice_type, sizeof *s);
    if (!s) return false;
    s->start = lang_val_retain(start);
    s->stop = lang_val_retain(stop);
    s->step = lang_val_retain(step);
    *out = lang_obj_val(&s->hdr);
    return true;
}

static bool slice_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    lang_buf_puts(out, "slice(");
    bool ok = lang_repr(vm, s->start, out);
    lang_buf_puts(out, ", ");
    ok = ok && lang_repr(vm, s->stop, out);
    lang_buf_puts(out, ", ");
    ok = ok && lang_repr(vm, s->step, out);
    lang_buf_puts(out, ")");
    return ok;
}

static bool slice_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    *found = true;
    if (!strcmp(name, "start"))
        *out = lang_val_retain(s->start);
    else if (!strcmp(name, "stop"))
        *out = lang_val_retain(s->stop);
    else if (!strcmp(name, "step"))
        *out = lang_val_retain(s->step);
    else
        *found = false;
    return true;
}

static const char *const slice_fields[] = {"start", "stop", "step", NULL};
static const char *const *slice_fieldv(lang_obj *o) {
    return slice_fields;
}

const lang_type lang_slice_type = {
    .name = "slice",
    .free = slice_free,
    .repr = slice_repr,
    .getattr = slice_getattr,
    .fields = slice_fieldv,
};

static bool slice_bound(lang_vm *vm, lang_val v, int64_t *out) {
    if (v.kind == LANG_INT)
        *out = v.u.i;
    else if (v.kind == LANG_BOOL)
        *out = v.u.b;
    else {
        nn_tensor *t = lang_tensor_of(v);
        double d;
        if (t && nn_tensor_numel(t) == 1 && !nn_dtype_is_float(t->dtype) &&
            nn_tensor_item(vm->ctx, t, &d) == NN_OK) {
            *out = (int64_t)d;
            return true;
        }
        return lang_raise(vm, LANG_ERR_TYPE, "slice indices must be integers or None, not %s",
                          lang_type_name(v));
    }
    return true;
}

bool lang_slice_indices(lang_vm *vm, lang_val slice, int64_t len, int64_t *start, int64_t *stop,
                        int64_t *step, int64_t *count) {
    lang_slice_obj *s = (lang_slice_obj *)slice.u.o;
    *step = 1;
    if (s->step.kind != LANG_NONE && !slice_bound(vm, s->step, step)) return false;
    if (*step == 0) return lang_raise(vm, LANG_ERR_VALUE, "slice step cannot be zero");
    if (*step == INT64_MIN) *step = -INT64_MAX;
    int64_t lo = *step > 0 ? 0 : -1, hi = *step > 0 ? len : len - 1;
    if (s->start.kind == LANG_NONE)
        *start = *step > 0 ? lo : hi;
    else {
        if (!slice_bound(vm, s->start, start)) return false;
        if (*start < 0) {
            *start = *start < -len ? lo : *start + len;
            if (*start < lo) *start = lo;
        } else if (*start > hi)
            *start = hi;
    }
    if (s->stop.kind == LANG_NONE)
        *stop = *step > 0 ? hi : lo;
    else {
        if (!slice_bound(vm, s->stop, stop)) return false;
        if (*stop < 0) {
            *stop = *stop < -len ? lo : *stop + len;
            if (*stop < lo) *stop = lo;
        } else if (*stop > hi)
            *stop = hi;
    }
    if (*step > 0)
        *count = *stop > *start ? (*stop - *start - 1) / *step + 1 : 0;
    else
        *count = *start > *stop ? (*start - *stop - 1) / (-*step) + 1 : 0;
    return true;
}

/* ------------------------------------------------------------------ iterators */

typedef enum iter_kind { IT_SEQ, IT_STR, IT_RANGE, IT_DICT, IT_ZIP, IT_ENUM, IT_REV } iter_kind;

typedef struct iter_obj {
    lang_obj hdr;
    iter_kind kind;
    lang_val src; /* the container, or the inner iterator (enumerate) */
    int64_t pos, end, step;
    int which;        /* dict: keys/values/items */
    uint64_t version; /* dict: version when the iteration began */
    int n;            /* zip: number of iterators in [its] */
    lang_val *its;
} iter_obj;

static void iter_free(lang_obj *o) {
    iter_obj *it = (iter_obj *)o;
    lang_val_release(it->src);
    for (int i = 0; i < it->n; i++) lang_val_release(it->its[i]);
    free(it->its);
}

static bool iter_new(lang_vm *vm, iter_kind kind, lang_val src, lang_val *out, iter_obj **itp) {
    iter_obj *it = lang_obj_new(vm, &lang_iter_type, sizeof *it);
    if (!it) return false;
    it->kind = kind;
    it->src = lang_val_retain(src);
    *out = lang_obj_val(&it->hdr);
    *itp = it;
    return true;
}

static bool list_iter_new(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    return iter_new(vm, IT_SEQ, lang_obj_val(o), out, &it);
}

static bool str_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    return iter_new(vm, IT_STR, lang_obj_val(o), out, &it);
}

static bool range_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    lang_range_obj *r = (lang_range_obj *)o;
    if (!iter_new(vm, IT_RANGE, lang_none(), out, &it)) return false;
    it->pos = r->start;
    it->step = r->step;
    it->end = r->len; /* items left */
    return true;
}

static bool dict_iter_kind(lang_vm *vm, lang_val dict, int which, lang_val *out) {
    iter_obj *it;
    if (!iter_new(vm, IT_DICT, dict, out, &it)) return false;
    it->which = which;
    it->version = D(dict)->version;
    return true;
}

bool lang_zip_new(lang_vm *vm, int n, const lang_val *iters, lang_val *out) {
    iter_obj *it;
    if (!iter_new(vm, IT_ZIP, lang_none(), out, &it)) return false;
    it->its = calloc((size_t)(n ? n : 1), sizeof(lang_val));
    if (!it->its) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        if (!lang_iter(vm, iters[i], &it->its[i])) {
            lang_val_release(*out);
            return false;
        }
        it->n = i + 1;
    }
    return true;
}

bool lang_enumerate_new(lang_vm *vm, lang_val iterable, int64_t start, lang_val *out) {
    lang_val inner;
    if (!lang_iter(vm, iterable, &inner)) return false;
    iter_obj *it;
    bool ok = iter_new(vm, IT_ENUM, inner, out, &it);
    lang_val_release(inner);
    if (ok) it->pos = start;
    return ok;
}

bool lang_reversed_new(lang_vm *vm, lang_val seq, lang_val *out) {
    iter_obj *it;
    if (lang_is_obj(seq, &lang_range_type)) {
        lang_range_obj *r = R(seq);
        if (!iter_new(vm, IT_RANGE, lang_none(), out, &it)) return false;
        it->pos = r->start + (r->len - 1) * r->step;
        it->step = -r->step;
        it->end = r->len;
        return true;
    }
    if (is_seq(seq) || is_str(seq)) {
        if (!iter_new(vm, IT_REV, seq, out, &it)) return false;
        it->pos = is_str(seq) ? (int64_t)S(seq)->ncp - 1 : Q(seq)->n - 1;
        return true;
    }
    lang_val list;
    if (!lang_list_from_iter(vm, seq, &list)) return false;
    bool ok = lang_reversed_new(vm, list, out);
    lang_val_release(list);
    return ok;
}

static bool iter_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    iter_obj *it = (iter_obj *)o;
    *done = false;
    switch (it->kind) {
    case IT_SEQ: {
        lang_seq_obj *q = Q(it->src);
        if (it->pos >= q->n) break;
        *out = lang_val_retain(q->items[it->pos++]);
        return true;
    }
    case IT_STR: {
        lang_str_obj *s = S(it->src);
        if (it->pos >= (int64_t)s->len) break;
        size_t cl = utf8_char_len((unsigned char)s->data[it->pos]);
        if ((size_t)it->pos + cl > s->len) cl = s->len - (size_t)it->pos;
        bool ok = lang_str_new(vm, s->data + it->pos, cl, out);
        it->pos += (int64_t)cl;
        return ok;
    }
    case IT_RANGE:
        if (it->end <= 0) break;
        *out = lang_int(it->pos);
        it->end--;
        if (it->end > 0) it->pos += it->step;
        return true;
    case IT_DICT: {
        lang_dict_obj *d = D(it->src);
        if (d->version != it->version)
            return lang_raise(vm, LANG_ERR_RUNTIME, "dictionary changed size during iteration");
        while (it->pos < d->nent && !d->entries[it->pos].live) it->pos++;
        if (it->pos >= d->nent) break;
        lang_dict_entry *e = &d->entries[it->pos++];
        if (it->which == DICT_KEYS)
            *out = lang_val_retain(e->key);
        else if (it->which == DICT_VALUES)
            *out = lang_val_retain(e->value);
        else {
            lang_val pair[2] = {e->key, e->value};
            return lang_tuple_pack(vm, 2, pair, out);
        }
        return true;
    }
    case IT_ZIP: {
        if (it->n == 0) break;
        lang_val tup;
        if (!lang_tuple_new(vm, it->n, &tup)) return false;
        for (int i = 0; i < it->n; i++) {
            bool d;
            lang_val item;
            if (!lang_next(vm, it->its[i], &item, &d)) {
                lang_val_release(tup);
                return false;
            }
            if (d) {
                lang_val_release(tup);
                *done = true;
                return true;
            }
            Q(tup)->items[i] = item;
        }
        *out = tup;
        return true;
    }
    case IT_ENUM: {
        lang_val item;
        bool d;
        if (!lang_next(vm, it->src, &item, &d)) return false;
        if (d) break;
        lang_val pair[2] = {lang_int(it->pos++), item};
        bool ok = lang_tuple_pack(vm, 2, pair, out);
        lang_val_release(item);
        return ok;
    }
    case IT_REV:
        if (it->pos < 0) break;
        if (is_str(it->src)) {
            lang_val idx = lang_int(it->pos--);
            return str_getitem(vm, it->src.u.o, idx, out);
        }
        if (it->pos >= Q(it->src)->n) it->pos = Q(it->src)->n - 1;
        if (it->pos < 0) break;
        *out = lang_val_retain(Q(it->src)->items[it->pos--]);
        return true;
    }
    *done = true;
    return true;
}

static bool iter_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static bool iter_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    static const char *const names[] = {"list_iterator", "str_iterator", "range_iterator",
                                        "dict_iterator", "zip",          "enumerate",
                                        "reversed"};
    lang_buf_printf(out, "<%s object at %p>", names[((iter_obj *)o)->kind], (void *)o);
    return true;
}

const lang_type lang_iter_type = {
    .name = "iterator",
    .free = iter_free,
    .repr = iter_repr,
    .iter = iter_iter,
    .next = iter_next,
};

/* ------------------------------------------------------------------ builtins, bound methods */

bool lang_builtin_new(lang_vm *vm, lang_builtin_fn fn, const lang_help *help, lang_val *out) {
    lang_builtin_obj *b = lang_obj_new(vm, &lang_builtin_type, sizeof *b);
    if (!b) return false;
    b->fn = fn;
    b->help = help;
    *out = lang_obj_val(&b->hdr);
    return true;
}

static bool builtin_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    return ((lang_builtin_obj *)o)->fn(vm, a, out);
}

static bool builtin_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    const lang_help *h = ((lang_builtin_obj *)o)->help;
    lang_buf_printf(out, "<built-in function %s>", h && h->name ? h->name : "?");
    return true;
}

const lang_type lang_builtin_type = {
    .name = "builtin_function_or_method",
    .repr = builtin_repr,
    .call = builtin_call,
};

bool lang_bound_new(lang_vm *vm, lang_val self, const lang_method *m, lang_val *out) {
    lang_bound_obj *b = lang_obj_new(vm, &lang_bound_type, sizeof *b);
    if (!b) return false;
    b->self = lang_val_retain(self);
    b->m = m;
    *out = lang_obj_val(&b->hdr);
    return true;
}

static void bound_free(lang_obj *o) {
    lang_val_release(((lang_bound_obj *)o)->self);
}

static bool bound_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_bound_obj *b = (lang_bound_obj *)o;
    return b->m->fn(vm, b->self, a, out);
}

static bool bound_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_bound_obj *b = (lang_bound_obj *)o;
    lang_buf_printf(out, "<built-in method %s of %s object at %p>", b->m->name,
                    lang_type_name(b->self),
                    (void *)(b->self.kind == LANG_OBJ ? b->self.u.o : NULL));
    return true;
}

const lang_type lang_bound_type = {
    .name = "builtin_function_or_method",
    .free = bound_free,
    .repr = bound_repr,
    .call = bound_call,
};

/* ------------------------------------------------------------------ records */

static lang_record_obj *REC(lang_val v) {
    return (lang_record_obj *)v.u.o;
}

bool lang_record_new(lang_vm *vm, const char *type_name, lang_val *out) {
    lang_record_obj *r = lang_obj_new(vm, &lang_record_type, sizeof *r);
    if (!r) return false;
    r->type_name = strdup(type_name ? type_name : "record");
    *out = lang_obj_val(&r->hdr);
    if (!r->type_name) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    return true;
}

bool lang_record_set(lang_vm *vm, lang_val rec, const char *field, lang_val v) {
    lang_record_obj *r = REC(rec);
    for (int i = 0; i < r->n; i++) {
        if (!strcmp(r->names[i], field)) {
            lang_val old = r->vals[i];
            r->vals[i] = lang_val_retain(v);
            lang_val_release(old);
            return true;
        }
    }
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 4;
        char **nn = realloc(r->names, sizeof(char *) * (size_t)cap);
        if (!nn) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->names = nn;
        lang_val *nv = realloc(r->vals, sizeof(lang_val) * (size_t)cap);
        if (!nv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->vals = nv;
        const char **fv = realloc(r->fieldv, sizeof(char *) * (size_t)(cap + 1));
        if (!fv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->fieldv = fv;
        r->cap = cap;
    }
    r->names[r->n] = strdup(field);
    if (!r->names[r->n]) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    r->vals[r->n] = lang_val_retain(v);
    r->fieldv[r->n] = r->names[r->n];
    r->n++;
    r->fieldv[r->n] = NULL;
    return true;
}

static void record_free(lang_obj *o) {
    lang_record_obj *r = (lang_record_obj *)o;
    for (int i = 0; i < r->n; i++) {
        free(r->names[i]);
        lang_val_release(r->vals[i]);
    }
    free(r->names);
    free(r->vals);
    free(r->fieldv);
    free(r->type_name);
}

static bool record_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_record_obj *r = (lang_record_obj *)o;
    lang_buf_printf(out, "%s(", r->type_name);
    for (int i = 0; i < r->n; i++) {
        if (i) lang_buf_puts(out, ", ");
        lang_buf_printf(out, "%s=", r->names[i]);
        if (!lang_repr(vm, r->vals[i], out)) return false;
    }
    lang_buf_puts(out, ")");
    return true;
}

static bool record_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    lang_record_obj *r = (lang_record_obj *)o;
    for (int i = 0; i < r->n; i++) {
        if (!strcmp(r->names[i], name)) {
            *out = lang_val_retain(r->vals[i]);
            *found = true;
            return true;
        }
    }
    *found = false;
    return true;
}

static bool record_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    return lang_record_set(vm, lang_obj_val(o), name, v);
}

static const char *const *record_fields(lang_obj *o) {
    lang_record_obj *r = (lang_record_obj *)o;
    static const char *const none[] = {NULL};
    return r->fieldv ? r->fieldv : none;
}

const lang_type lang_record_type = {
    .name = "record",
    .free = record_free,
    .repr = record_repr,
    .getattr = record_getattr,
    .setattr = record_setattr,
    .fields = record_fields,
};

/* ------------------------------------------------------------------ protocol helpers */

const char *lang_type_name(lang_val v) {
    switch (v.kind) {
    case LANG_NONE: return "NoneType";
    case LANG_BOOL: return "bool";
    case LANG_INT: return "int";
    case LANG_FLOAT: return "float";
    case LANG_OBJ: break;
    }
    if (v.u.o->type == &lang_record_type) return REC(v)->type_name;
    return v.u.o->type->name;
}

bool lang_repr(lang_vm *vm, lang_val v, lang_buf *out) {
    switch (v.kind) {
    case LANG_NONE: lang_buf_puts(out, "None"); return true;
    case LANG_BOOL: lang_buf_puts(out, v.u.b ? "True" : "False"); return true;
    case LANG_INT: lang_buf_printf(out, "%" PRId64, v.u.i); return true;
    case LANG_FLOAT: lang_float_repr(v.u.f, out); return true;
    case LANG_OBJ: break;
    }
    lang_obj *o = v.u.o;
    if (o->type->repr) return o->type->repr(vm, o, out);
    lang_buf_printf(out, "<%s object at %p>", lang_type_name(v), (void *)o);
    return true;
}

bool lang_str(lang_vm *vm, lang_val v, lang_buf *out) {
    if (v.kind == LANG_OBJ && v.u.o->type->str_) return v.u.o->type->str_(vm, v.u.o, out);
    return lang_repr(vm, v, out);
}

bool lang_truth(lang_vm *vm, lang_val v, bool *out) {
    switch (v.kind) {
    case LANG_NONE: *out = false; return true;
    case LANG_BOOL: *out = v.u.b; return true;
    case LANG_INT: *out = v.u.i != 0; return true;
    case LANG_FLOAT: *out = v.u.f != 0; return true;
    case LANG_OBJ: break;
    }
    lang_obj *o = v.u.o;
    if (o->type->truth) return o->type->truth(vm, o, out);
    if (o->type->len) {
        int64_t n;
        if (!o->type->len(vm, o, &n)) return false;
        *out = n > 0;
        return true;
    }
    *out = true;
    return true;
}

static bool is_num(lang_val v) {
    return v.kind == LANG_INT || v.kind == LANG_FLOAT || v.kind == LANG_BOOL;
}
static double num_f(lang_val v) {
    return v.kind == LANG_FLOAT ? v.u.f : v.kind == LANG_INT ? (double)v.u.i : (double)v.u.b;
}
static int64_t num_i(lang_val v) {
    return v.kind == LANG_INT ? v.u.i : (int64_t)v.u.b;
}

/* Exact comparison of an int and a double (no rounding of big ints). */
static int cmp_int_float(int64_t i, double d) {
    if (isnan(d)) return 2; /* unordered */
    if (d >= 9223372036854775808.0) return -1;
    if (d < -9223372036854775808.0) return 1;
    double fl = floor(d);
    int64_t di = (int64_t)fl;
    if (i < di) return -1;
    if (i > di) return 1;
    return fl == d ? 0 : -1;
}

/* -1, 0, 1, or 2 for unordered (NaN). */
static int num_cmp(lang_val a, lang_val b) {
    if (a.kind != LANG_FLOAT && b.kind != LANG_FLOAT) {
        int64_t x = num_i(a), y = num_i(b);
        return x < y ? -1 : x > y;
    }
    if (a.kind == LANG_FLOAT && b.kind == LANG_FLOAT) {
        if (isnan(a.u.f) || isnan(b.u.f)) return 2;
        return a.u.f < b.u.f ? -1 : a.u.f > b.u.f;
    }
    if (a.kind == LANG_FLOAT) {
        int c = cmp_int_float(num_i(b), a.u.f);
        return c == 2 ? 2 : -c;
    }
    return cmp_int_float(num_i(a), b.u.f);
}

bool lang_equal(lang_vm *vm, lang_val a, lang_val b, bool *out) {
    if (is_num(a) && is_num(b)) {
        *out = num_cmp(a, b) == 0;
        return true;
    }
    if (a.kind != LANG_OBJ || b.kind != LANG_OBJ) {
        *out = a.kind == LANG_NONE && b.kind == LANG_NONE;
        return true;
    }
    if (a.u.o == b.u.o) {
        *out = true;
        return true;
    }
    const lang_type *t = a.u.o->type;
    *out = false;
    if (t != b.u.o->type) return true;
    if (t == &lang_str_type) {
        *out = S(a)->len == S(b)->len && memcmp(S(a)->data, S(b)->data, S(a)->len) == 0;
        return true;
    }
    if (t == &lang_list_type || t == &lang_tuple_type) {
        if (Q(a)->n != Q(b)->n) return true;
        for (int64_t i = 0; i < Q(a)->n; i++) {
            bool eq;
            if (!lang_equal(vm, Q(a)->items[i], Q(b)->items[i], &eq)) return false;
            if (!eq) return true;
        }
        *out = true;
        return true;
    }
    if (t == &lang_dict_type) {
        if (D(a)->n != D(b)->n) return true;
        lang_dict_obj *d = D(a);
        for (int64_t i = 0; i < d->nent; i++) {
            if (!d->entries[i].live) continue;
            lang_val v;
            bool found, eq;
            if (!lang_dict_get(vm, b, d->entries[i].key, &v, &found)) return false;
            if (!found) return true;
            bool ok = lang_equal(vm, d->entries[i].value, v, &eq);
            lang_val_release(v);
            if (!ok) return false;
            if (!eq) return true;
        }
        *out = true;
        return true;
    }
    if (t == &lang_range_type) {
        lang_range_obj *x = R(a), *y = R(b);
        *out = x->len == y->len &&
               (x->len == 0 || (x->start == y->start && (x->len == 1 || x->step == y->step)));
        return true;
    }
    if (t == &lang_slice_type) {
        lang_slice_obj *x = (lang_slice_obj *)a.u.o, *y = (lang_slice_obj *)b.u.o;
        bool e1, e2, e3;
        if (!lang_equal(vm, x->start, y->start, &e1) || !lang_equal(vm, x->stop, y->stop, &e2) ||
            !lang_equal(vm, x->step, y->step, &e3))
            return false;
        *out = e1 && e2 && e3;
        return true;
    }
    if (t == &lang_bound_type) {
        lang_bound_obj *x = (lang_bound_obj *)a.u.o, *y = (lang_bound_obj *)b.u.o;
        *out = x->m == y->m && x->self.kind == y->self.kind &&
               (x->self.kind != LANG_OBJ || x->self.u.o == y->self.u.o);
        return true;
    }
    if (t == &lang_typeobj_type) {
        lang_typeobj *x = (lang_typeobj *)a.u.o, *y = (lang_typeobj *)b.u.o;
        *out = x->kind == y->kind && x->t == y->t;
        return true;
    }
    if (t == &lang_builtin_type) {
        *out = ((lang_builtin_obj *)a.u.o)->fn == ((lang_builtin_obj *)b.u.o)->fn;
        return true;
    }
    return true;
}

static int64_t mix(int64_t h) {
    return h == -1 ? -2 : h;
}

bool lang_hash(lang_vm *vm, lang_val v, int64_t *out) {
    switch (v.kind) {
    case LANG_NONE: *out = 0x5bd1e995; return true;
    case LANG_BOOL: *out = v.u.b; return true;
    case LANG_INT: *out = mix(v.u.i); return true;
    case LANG_FLOAT: {
        /* Equal numbers hash alike: 1.0 and 1 are the same key. */
        double d = v.u.f;
        if (d == floor(d) && fabs(d) < 9.2e18)
            *out = mix((int64_t)d);
        else {
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            *out = mix((int64_t)(bits ^ (bits >> 29)));
        }
        return true;
    }
    case LANG_OBJ: break;
    }
    lang_obj *o = v.u.o;
    if (o->type == &lang_str_type) {
        lang_str_obj *s = (lang_str_obj *)o;
        if (s->hash == -1) {
            uint64_t h = 1469598103934665603ULL;
            for (size_t i = 0; i < s->len; i++)
                h = (h ^ (unsigned char)s->data[i]) * 1099511628211ULL;
            s->hash = mix((int64_t)(h >> 1));
        }
        *out = s->hash;
        return true;
    }
    if (o->type == &lang_tuple_type) {
        uint64_t h = 0x345678;
        for (int64_t i = 0; i < Q(v)->n; i++) {
            int64_t x;
            if (!lang_hash(vm, Q(v)->items[i], &x)) return false;
            h = (h ^ (uint64_t)x) * 1000003ULL;
        }
        *out = mix((int64_t)(h >> 1));
        return true;
    }
    if (o->type == &lang_list_type || o->type == &lang_dict_type || o->type == &lang_dictview_type)
        return lang_raise(vm, LANG_ERR_TYPE, "unhashable type: '%s'", lang_type_name(v));
    /* Everything else (tensors, functions, modules) hashes by identity, as
     * Python's default. */
    *out = mix((int64_t)((uintptr_t)o >> 4));
    return true;
}

static bool cmp_error(lang_vm *vm, const char *op, lang_val a, lang_val b) {
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' not supported between instances of '%s' and '%s'",
                      op, lang_type_name(a), lang_type_name(b));
}

bool lang_less(lang_vm *vm, lang_val a, lang_val b, bool *out) {
    if (is_num(a) && is_num(b)) {
        *out = num_cmp(a, b) == -1;
        return true;
    }
    if (is_str(a) && is_str(b)) {
        size_t n = S(a)->len < S(b)->len ? S(a)->len : S(b)->len;
        int c = memcmp(S(a)->data, S(b)->data, n);
        *out = c < 0 || (c == 0 && S(a)->len < S(b)->len);
        return true;
    }
    if (is_seq(a) && is_seq(b) && a.u.o->type == b.u.o->type) {
        int64_t n = Q(a)->n < Q(b)->n ? Q(a)->n : Q(b)->n;
        for (int64_t i = 0; i < n; i++) {
            bool eq;
            if (!lang_equal(vm, Q(a)->items[i], Q(b)->items[i], &eq)) return false;
            if (!eq) return lang_less(vm, Q(a)->items[i], Q(b)->items[i], out);
        }
        *out = Q(a)->n < Q(b)->n;
        return true;
    }
    if (lang_tensor_of(a) || lang_tensor_of(b)) {
        lang_val r;
        if (!lang_binary(vm, LANG_OP_LT, a, b, &r)) return false;
        bool ok = lang_truth(vm, r, out);
        lang_val_release(r);
        return ok;
    }
    return cmp_error(vm, "<", a, b);
}

const lang_method *lang_find_method(const lang_type *t, const char *name) {
    if (!t->methods) return NULL;
    for (const lang_method *m = t->methods; m->name; m++)
        if (!strcmp(m->name, name)) return m;
    return NULL;
}

bool lang_getattr(lang_vm *vm, lang_val v, const char *name, lang_val *out) {
    if (v.kind == LANG_OBJ) {
        lang_obj *o = v.u.o;
        bool found = false;
        if (o->type->getattr) {
            if (!o->type->getattr(vm, o, name, out, &found)) return false;
            if (found) return true;
        }
        const lang_method *m = lang_find_method(o->type, name);
        if (m) return lang_bound_new(vm, v, m, out);
    } else if (v.kind == LANG_FLOAT || v.kind == LANG_INT) {
        if (!strcmp(name, "real")) {
            *out = v;
            return true;
        }
        if (!strcmp(name, "is_integer") && v.kind == LANG_FLOAT) {
            /* float.is_integer() is common enough in scripts to answer. */
        }
    }
    if (v.kind == LANG_OBJ && v.u.o->type == &lang_record_type)
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'",
                          lang_type_name(v), name);
    return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'",
                      lang_type_name(v), name);
}

bool lang_setattr(lang_vm *vm, lang_val v, const char *name, lang_val x) {
    if (v.kind == LANG_OBJ && v.u.o->type->setattr) return v.u.o->type->setattr(vm, v.u.o, name, x);
    bool has = v.kind == LANG_OBJ && lang_find_method(v.u.o->type, name);
    if (has)
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object attribute '%s' is read-only",
                          lang_type_name(v), name);
    return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'",
                      lang_type_name(v), name);
}

bool lang_call(lang_vm *vm, lang_val f, const lang_args *a, lang_val *out) {
    if (f.kind == LANG_OBJ && f.u.o->type->call) return f.u.o->type->call(vm, f.u.o, a, out);
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not callable", lang_type_name(f));
}

bool lang_getitem(lang_vm *vm, lang_val o, lang_val key, lang_val *out) {
    if (o.kind == LANG_OBJ && o.u.o->type->getitem)
        return o.u.o->type->getitem(vm, o.u.o, key, out);
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not subscriptable", lang_type_name(o));
}

bool lang_setitem(lang_vm *vm, lang_val o, lang_val key, lang_val v) {
    if (o.kind == LANG_OBJ && o.u.o->type->setitem) return o.u.o->type->setitem(vm, o.u.o, key, v);
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object does not support item assignment",
                      lang_type_name(o));
}

bool lang_delitem(lang_vm *vm, lang_val o, lang_val key) {
    if (is_dict(o)) {
        bool found;
        if (!lang_dict_del(vm, o, key, &found)) return false;
        if (!found) return key_error(vm, key);
        return true;
    }
    if (is_list(o)) {
        lang_seq_obj *q = Q(o);
        if (lang_is_obj(key, &lang_slice_type)) {
            int64_t start, stop, step, count;
            if (!lang_slice_indices(vm, key, q->n, &start, &stop, &step, &count)) return false;
            if (step < 0) {
                start = start + (count - 1) * step;
                step = -step;
            }
            /* Remove the [count] items start, start+step, ... keeping order. */
            int64_t w = 0, k = 0;
            for (int64_t i = 0; i < q->n; i++) {
                if (k < count && i == start + k * step) {
                    lang_val_release(q->items[i]);
                    k++;
                    continue;
                }
                q->items[w++] = q->items[i];
            }
            q->n = w;
            return true;
        }
        int64_t i = 0;
        if (!index_of(vm, key, q->n, "list assignment", &i)) return false;
        lang_val old = q->items[i];
        memmove(q->items + i, q->items + i + 1, sizeof(lang_val) * (size_t)(q->n - i - 1));
        q->n--;
        lang_val_release(old);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object doesn't support item deletion",
                      lang_type_name(o));
}

bool lang_iter(lang_vm *vm, lang_val v, lang_val *out) {
    if (v.kind == LANG_OBJ && v.u.o->type->iter) return v.u.o->type->iter(vm, v.u.o, out);
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not iterable", lang_type_name(v));
}

bool lang_next(lang_vm *vm, lang_val it, lang_val *out, bool *done) {
    if (it.kind == LANG_OBJ && it.u.o->type->next) return it.u.o->type->next(vm, it.u.o, out, done);
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not an iterator", lang_type_name(it));
}

bool lang_list_from_iter(lang_vm *vm, lang_val iterable, lang_val *out) {
    if (is_seq(iterable)) {
        if (!lang_list_new(vm, Q(iterable)->n, out)) return false;
        for (int64_t i = 0; i < Q(iterable)->n; i++)
            Q(*out)->items[i] = lang_val_retain(Q(iterable)->items[i]);
        return true;
    }
    lang_val it;
    if (!lang_iter(vm, iterable, &it)) return false;
    if (!lang_list_new(vm, 0, out)) {
        lang_val_release(it);
        return false;
    }
    for (;;) {
        lang_val item;
        bool done;
        if (!lang_next(vm, it, &item, &done) || (!done && lang_vm_interrupted(vm))) {
            if (!done) lang_val_release(item);
            goto fail;
        }
        if (done) break;
        bool ok = lang_list_append(vm, *out, item);
        lang_val_release(item);
        if (!ok) goto fail;
    }
    lang_val_release(it);
    return true;
fail:
    lang_val_release(it);
    lang_val_release(*out);
    return false;
}

bool lang_contains(lang_vm *vm, lang_val c, lang_val item, bool *out) {
    *out = false;
    if (is_str(c)) {
        if (!is_str(item))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "'in <string>' requires string as left operand, not %s",
                              lang_type_name(item));
        *out =
            S(item)->len == 0 || memmem(S(c)->data, S(c)->len, S(item)->data, S(item)->len) != NULL;
        return true;
    }
    if (is_dict(c)) {
        lang_val v;
        bool found;
        if (!lang_dict_get(vm, c, item, &v, &found)) return false;
        if (found) lang_val_release(v);
        *out = found;
        return true;
    }
    if (lang_is_obj(c, &lang_dictview_type)) {
        dictview_obj *dv = (dictview_obj *)c.u.o;
        if (dv->which == DICT_KEYS) return lang_contains(vm, dv->dict, item, out);
    }
    if (lang_is_obj(c, &lang_range_type) &&
        (item.kind == LANG_INT || item.kind == LANG_BOOL ||
         (item.kind == LANG_FLOAT && item.u.f == floor(item.u.f)))) {
        lang_range_obj *r = R(c);
        if (item.kind == LANG_FLOAT && fabs(item.u.f) > 9e18) return true;
        int64_t x = item.kind == LANG_FLOAT ? (int64_t)item.u.f : num_i(item);
        if (r->step > 0 ? (x >= r->start && x < r->stop) : (x <= r->start && x > r->stop))
            *out =
                ((uint64_t)x - (uint64_t)r->start) % (uint64_t)(r->step > 0 ? r->step : -r->step) ==
                0;
        return true;
    }
    if (is_seq(c)) {
        for (int64_t i = 0; i < Q(c)->n; i++) {
            bool eq;
            lang_val x = Q(c)->items[i];
            if (x.kind == LANG_OBJ && item.kind == LANG_OBJ && x.u.o == item.u.o)
                eq = true;
            else if (!lang_equal(vm, x, item, &eq))
                return false;
            if (eq) {
                *out = true;
                return true;
            }
        }
        return true;
    }
    if (c.kind == LANG_OBJ && c.u.o->type->iter) {
        lang_val it;
        if (!lang_iter(vm, c, &it)) return false;
        for (;;) {
            lang_val x;
            bool done, eq = false;
            if (!lang_next(vm, it, &x, &done)) {
                lang_val_release(it);
                return false;
            }
            if (done) break;
            bool ok;
            if (lang_tensor_of(x) || lang_tensor_of(item)) {
                lang_val r;
                ok = lang_binary(vm, LANG_OP_EQ, x, item, &r);
                if (ok) {
                    nn_tensor *t = lang_tensor_of(r);
                    if (t) {
                        /* torch: `x in t` is (t == x).any() */
                        for (int64_t k = 0; k < nn_tensor_numel(t) && !eq; k++)
                            eq = nn_tensor_get_flat(t, k) != 0;
                    } else {
                        ok = lang_truth(vm, r, &eq);
                    }
                    lang_val_release(r);
                }
            } else {
                ok = lang_equal(vm, x, item, &eq);
            }
            lang_val_release(x);
            if (!ok) {
                lang_val_release(it);
                return false;
            }
            if (eq) {
                *out = true;
                break;
            }
        }
        lang_val_release(it);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "argument of type '%s' is not iterable",
                      lang_type_name(c));
}

/* ------------------------------------------------------------------ numbers */

static const char *op_text(lang_binop op) {
    static const char *const t[] = {"+", "-",  "*",       "/",       "//",     "%", "** or pow()",
                                    "@", "==", "!=",      "<",       "<=",     ">", ">=",
                                    "&", "|",  "unary -", "unary +", "unary ~"};
    return op < LANG_OP_COUNT ? t[op] : "?";
}

static bool overflow(lang_vm *vm) {
    return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                            "integer result does not fit in 64 bits (nndb ints are int64)");
}

static double py_fmod(double a, double b) {
    double m = fmod(a, b);
    if (m != 0) {
        if ((b < 0) != (m < 0)) m += b;
    } else {
        m = copysign(0.0, b);
    }
    return m;
}

static double py_floordiv(double a, double b) {
    double m = fmod(a, b);
    double div = (a - m) / b;
    if (m != 0 && ((b < 0) != (m < 0))) div -= 1.0;
    double fl;
    if (div != 0) {
        fl = floor(div);
        if (div - fl > 0.5) fl += 1.0;
    } else {
        fl = copysign(0.0, a / b);
    }
    return fl;
}

static bool int_pow(lang_vm *vm, int64_t base, int64_t e, lang_val *out) {
    if (e < 0) {
        if (base == 0)
            return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                              "0.0 cannot be raised to a negative power");
        *out = lang_float(pow((double)base, (double)e));
        return true;
    }
    int64_t r = 1, b = base;
    while (e) {
        if (e & 1) {
            if (__builtin_mul_overflow(r, b, &r)) return overflow(vm);
        }
        e >>= 1;
        if (e && __builtin_mul_overflow(b, b, &b)) return overflow(vm);
    }
    *out = lang_int(r);
    return true;
}

/* Numbers only; *handled false when an operand is not a number. */
static bool num_binary(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                       bool *handled) {
    *handled = true;
    if (op >= LANG_OP_NEG) {
        if (!is_num(a)) {
            *handled = false;
            return true;
        }
        if (op == LANG_OP_POS)
            *out = a.kind == LANG_BOOL ? lang_int(a.u.b) : a;
        else if (op == LANG_OP_NEG) {
            if (a.kind == LANG_FLOAT)
                *out = lang_float(-a.u.f);
            else if (num_i(a) == INT64_MIN)
                return overflow(vm);
            else
                *out = lang_int(-num_i(a));
        } else {
            if (a.kind == LANG_FLOAT)
                return lang_raise(vm, LANG_ERR_TYPE, "bad operand type for unary ~: 'float'");
            *out = lang_int(~num_i(a));
        }
        return true;
    }
    if (!is_num(a) || !is_num(b)) {
        *handled = false;
        return true;
    }
    if (op >= LANG_OP_EQ && op <= LANG_OP_GE) {
        int c = num_cmp(a, b);
        bool r = false;
        switch (op) {
        case LANG_OP_EQ: r = c == 0; break;
        case LANG_OP_NE: r = c != 0; break;
        case LANG_OP_LT: r = c == -1; break;
        case LANG_OP_LE: r = c == -1 || c == 0; break;
        case LANG_OP_GT: r = c == 1; break;
        case LANG_OP_GE: r = c == 1 || c == 0; break;
        default: break;
        }
        *out = lang_bool(r);
        return true;
    }
    if (op == LANG_OP_AND_BITS || op == LANG_OP_OR_BITS) {
        if (a.kind == LANG_FLOAT || b.kind == LANG_FLOAT)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "unsupported operand type(s) for %s: '%s' and '%s'", op_text(op),
                              lang_type_name(a), lang_type_name(b));
        int64_t r = op == LANG_OP_AND_BITS ? (num_i(a) & num_i(b)) : (num_i(a) | num_i(b));
        *out = (a.kind == LANG_BOOL && b.kind == LANG_BOOL) ? lang_bool(r != 0) : lang_int(r);
        return true;
    }
    if (op == LANG_OP_MATMUL) {
        *handled = false;
        return true;
    }
    if (a.kind != LANG_FLOAT && b.kind != LANG_FLOAT) {
        int64_t x = num_i(a), y = num_i(b), r;
        switch (op) {
        case LANG_OP_ADD:
            if (__builtin_add_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_SUB:
            if (__builtin_sub_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_MUL:
            if (__builtin_mul_overflow(x, y, &r)) return overflow(vm);
            *out = lang_int(r);
            return true;
        case LANG_OP_DIV:
            if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "division by zero");
            *out = lang_float((double)x / (double)y);
            return true;
        case LANG_OP_FLOORDIV:
        case LANG_OP_MOD: {
            if (y == 0)
                return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                                  op == LANG_OP_MOD ? "integer modulo by zero"
                                                    : "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) {
                if (op == LANG_OP_MOD) {
                    *out = lang_int(0);
                    return true;
                }
                return overflow(vm);
            }
            int64_t q = x / y, m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) {
                q -= 1;
                m += y;
            }
            *out = lang_int(op == LANG_OP_MOD ? m : q);
            return true;
        }
        case LANG_OP_POW: return int_pow(vm, x, y, out);
        default: break;
        }
    }
    double x = num_f(a), y = num_f(b);
    switch (op) {
    case LANG_OP_ADD: *out = lang_float(x + y); return true;
    case LANG_OP_SUB: *out = lang_float(x - y); return true;
    case LANG_OP_MUL: *out = lang_float(x * y); return true;
    case LANG_OP_DIV:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float division by zero");
        *out = lang_float(x / y);
        return true;
    case LANG_OP_FLOORDIV:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float floor division by zero");
        *out = lang_float(py_floordiv(x, y));
        return true;
    case LANG_OP_MOD:
        if (y == 0) return lang_raise(vm, LANG_ERR_ZERO_DIVISION, "float modulo");
        *out = lang_float(py_fmod(x, y));
        return true;
    case LANG_OP_POW: {
        if (x == 0 && y < 0)
            return lang_raise(vm, LANG_ERR_ZERO_DIVISION,
                              "0.0 cannot be raised to a negative power");
        if (x < 0 && y != floor(y) && isfinite(y))
            return lang_raise(vm, LANG_ERR_VALUE,
                              "a negative number raised to a fractional power is complex, which "
                              "nndb does not have");
        double r = pow(x, y);
        if (isinf(r) && isfinite(x) && isfinite(y))
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "(34, 'Numerical result out of range')");
        *out = lang_float(r);
        return true;
    }
    default: break;
    }
    *handled = false;
    return true;
}

bool lang_binary(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out) {
    bool handled;
    if (!num_binary(vm, op, a, b, out, &handled)) return false;
    if (handled) return true;
    bool unary = op >= LANG_OP_NEG;
    if (a.kind == LANG_OBJ && a.u.o->type->binop) {
        if (!a.u.o->type->binop(vm, op, a, unary ? lang_none() : b, out, &handled)) return false;
        if (handled) return true;
    }
    if (!unary && b.kind == LANG_OBJ && b.kind == LANG_OBJ && b.u.o->type->binop &&
        (a.kind != LANG_OBJ || b.u.o->type != a.u.o->type)) {
        if (!b.u.o->type->binop(vm, op, a, b, out, &handled)) return false;
        if (handled) return true;
    }
    if (unary)
        return lang_raise(vm, LANG_ERR_TYPE, "bad operand type for %s: '%s'", op_text(op),
                          lang_type_name(a));
    if (op == LANG_OP_EQ || op == LANG_OP_NE) {
        bool eq;
        if (!lang_equal(vm, a, b, &eq)) return false;
        *out = lang_bool(op == LANG_OP_EQ ? eq : !eq);
        return true;
    }
    if (op >= LANG_OP_LT && op <= LANG_OP_GE) {
        bool r;
        static const char *const names[] = {"<", "<=", ">", ">="};
        bool str2 = is_str(a) && is_str(b),
             seq2 = is_seq(a) && is_seq(b) && a.u.o->type == b.u.o->type;
        if (!str2 && !seq2) return cmp_error(vm, names[op - LANG_OP_LT], a, b);
        switch (op) {
        case LANG_OP_LT:
            if (!lang_less(vm, a, b, &r)) return false;
            break;
        case LANG_OP_GT:
            if (!lang_less(vm, b, a, &r)) return false;
            break;
        case LANG_OP_LE:
            if (!lang_less(vm, b, a, &r)) return false;
            r = !r;
            break;
        default:
            if (!lang_less(vm, a, b, &r)) return false;
            r = !r;
            break;
        }
        *out = lang_bool(r);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "unsupported operand type(s) for %s: '%s' and '%s'",
                      op_text(op), lang_type_name(a), lang_type_name(b));
}

/* ------------------------------------------------------------------ conversions */

bool lang_to_int(lang_vm *vm, lang_val v, const char *what, int64_t *out) {
    if (v.kind == LANG_INT || v.kind == LANG_BOOL) {
        *out = num_i(v);
        return true;
    }
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1 && !nn_dtype_is_float(t->dtype)) {
        double d;
        if (nn_tensor_item(vm->ctx, t, &d) != NN_OK) return lang_raise_engine(vm);
        *out = (int64_t)d;
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "%s must be an int, not %s", what, lang_type_name(v));
}

bool lang_to_float(lang_vm *vm, lang_val v, const char *what, double *out) {
    if (is_num(v)) {
        *out = num_f(v);
        return true;
    }
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1) {
        if (nn_tensor_item(vm->ctx, t, out) != NN_OK) return lang_raise_engine(vm);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "%s must be a number, not %s", what, lang_type_name(v));
}

bool lang_to_bool(lang_vm *vm, lang_val v, const char *what, bool *out) {
    if (v.kind == LANG_BOOL || v.kind == LANG_INT || v.kind == LANG_NONE)
        return lang_truth(vm, v, out);
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1) return lang_truth(vm, v, out);
    return lang_raise(vm, LANG_ERR_TYPE, "%s must be a bool, not %s", what, lang_type_name(v));
}

bool lang_to_dims(lang_vm *vm, lang_val v, const char *what, int64_t *out, int cap, int *n) {
    if (v.kind == LANG_INT || v.kind == LANG_BOOL) {
        if (cap < 1) return lang_raise(vm, LANG_ERR_VALUE, "%s: too many dims", what);
        out[0] = num_i(v);
        *n = 1;
        return true;
    }
    if (is_seq(v)) {
        if (Q(v)->n > cap)
            return lang_raise(vm, LANG_ERR_VALUE,
                              "%s has %" PRId64 " dims; at most %d are supported", what, Q(v)->n,
                              cap);
        for (int64_t i = 0; i < Q(v)->n; i++) {
            lang_val x = Q(v)->items[i];
            if (x.kind != LANG_INT && x.kind != LANG_BOOL && !lang_tensor_of(x))
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%s must be a tuple of ints, but found %s at position %" PRId64,
                                  what, lang_type_name(x), i);
            if (!lang_to_int(vm, x, what, &out[i])) return false;
        }
        *n = (int)Q(v)->n;
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "%s must be an int or a tuple of ints, not %s", what,
                      lang_type_name(v));
}

/* Walk a nested list: the shape comes from the first item at each depth;
 * every other item must agree (else a ValueError naming the position). */
typedef struct nest_state {
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    double *vals;
    int64_t n, cap;
    int kind; /* 0 bool, 1 int, 2 float */
    bool any;
} nest_state;

static bool nest_shape(lang_vm *vm, lang_val v, nest_state *st) {
    st->ndim = 0;
    lang_val cur = v;
    while (is_seq(cur)) {
        if (st->ndim == NN_MAX_DIMS)
            return lang_raise(vm, LANG_ERR_VALUE, "a nested list deeper than %d levels",
                              NN_MAX_DIMS);
        st->shape[st->ndim++] = Q(cur)->n;
        if (Q(cur)->n == 0) break;
        cur = Q(cur)->items[0];
    }
    return true;
}

static void pos_text(char *buf, size_t cap, const int64_t *idx, int depth) {
    size_t k = 0;
    k += (size_t)snprintf(buf + k, cap - k, "[");
    for (int i = 0; i < depth && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%" PRId64, i ? "][" : "", idx[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

static bool nest_fill(lang_vm *vm, lang_val v, nest_state *st, int depth, int64_t *idx) {
    if (depth < st->ndim) {
        if (!is_seq(v) || Q(v)->n != st->shape[depth]) {
            char pos[128];
            pos_text(pos, sizeof pos, idx, depth);
            return lang_raise(vm, LANG_ERR_VALUE,
                              "expected a sequence of length %" PRId64 " at position %s (got %s); "
                              "nested lists must be rectangular",
                              st->shape[depth], depth ? pos : "[]",
                              is_seq(v) ? "a shorter or longer one" : lang_type_name(v));
        }
        for (int64_t i = 0; i < Q(v)->n; i++) {
            idx[depth] = i;
            if (!nest_fill(vm, Q(v)->items[i], st, depth + 1, idx)) return false;
        }
        return true;
    }
    double d;
    int kind;
    nn_tensor *t = lang_tensor_of(v);
    if (v.kind == LANG_BOOL)
        d = v.u.b, kind = 0;
    else if (v.kind == LANG_INT)
        d = (double)v.u.i, kind = 1;
    else if (v.kind == LANG_FLOAT)
        d = v.u.f, kind = 2;
    else if (t && nn_tensor_numel(t) == 1 && t->ndim == 0) {
        if (nn_tensor_item(vm->ctx, t, &d) != NN_OK) return lang_raise_engine(vm);
        kind = t->dtype == NN_BOOL ? 0 : t->dtype == NN_INT64 ? 1 : 2;
    } else {
        char pos[128];
        pos_text(pos, sizeof pos, idx, depth);
        return lang_raise(
            vm, is_seq(v) ? LANG_ERR_VALUE : LANG_ERR_TYPE,
            is_seq(v)
                ? "expected a number at position %s, got a %s; nested lists must be rectangular"
                : "expected a number at position %s, got %s",
            pos, lang_type_name(v));
    }
    if (!st->any || kind > st->kind) st->kind = kind;
    st->any = true;
    if (st->n == st->cap) {
        int64_t cap = st->cap ? st->cap * 2 : 64;
        double *p = realloc(st->vals, sizeof(double) * (size_t)cap);
        if (!p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        st->vals = p;
        st->cap = cap;
    }
    st->vals[st->n++] = d;
    return true;
}

bool lang_to_tensor(lang_vm *vm, lang_val v, const char *what, nn_tensor **out) {
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        *out = nn_tensor_retain(t);
        return true;
    }
    if (v.kind == LANG_INT) {
        *out = nn_scalar_wrapped_int(vm->ctx, v.u.i);
    } else if (v.kind == LANG_FLOAT) {
        *out = nn_scalar_wrapped(vm->ctx, v.u.f);
    } else if (v.kind == LANG_BOOL) {
        *out = nn_scalar(vm->ctx, v.u.b, NN_BOOL);
        if (*out) (*out)->is_wrapped_number = true;
    } else if (is_seq(v)) {
        nest_state st;
        memset(&st, 0, sizeof st);
        st.kind = 2;
        int64_t idx[NN_MAX_DIMS];
        if (!nest_shape(vm, v, &st) || !nest_fill(vm, v, &st, 0, idx)) {
            free(st.vals);
            return false;
        }
        nn_dtype dt = !st.any        ? NN_FLOAT32
                      : st.kind == 0 ? NN_BOOL
                      : st.kind == 1 ? NN_INT64
                                     : NN_FLOAT32;
        if (dt == NN_INT64) {
            /* Through int64 data, so big ints keep every digit. */
            int64_t *iv = malloc(sizeof(int64_t) * (size_t)(st.n ? st.n : 1));
            if (!iv) {
                free(st.vals);
                return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            }
            for (int64_t i = 0; i < st.n; i++) iv[i] = (int64_t)st.vals[i];
            *out = nn_tensor_from_data(vm->ctx, dt, st.ndim, st.shape, iv);
            free(iv);
        } else {
            *out = nn_tensor_from_doubles(vm->ctx, dt, st.ndim, st.shape, st.vals);
        }
        free(st.vals);
    } else {
        return lang_raise(vm, LANG_ERR_TYPE,
                          "%s must be a Tensor, a number or a nested list, not %s", what,
                          lang_type_name(v));
    }
    if (!*out) return lang_raise_engine(vm);
    return true;
}

/* ------------------------------------------------------------------ class objects */

bool lang_typeobj_new(lang_vm *vm, const char *name, lang_kind kind, const lang_type *t,
                      lang_builtin_fn ctor, const lang_help *help, lang_val *out) {
    lang_typeobj *o = lang_obj_new(vm, &lang_typeobj_type, sizeof *o);
    if (!o) return false;
    o->name = name;
    o->kind = kind;
    o->t = t;
    o->ctor = ctor;
    o->help = help;
    *out = lang_obj_val(&o->hdr);
    return true;
}

bool lang_isinstance(lang_val v, const lang_typeobj *cls) {
    if (cls->kind != LANG_OBJ)
        return v.kind == cls->kind || (cls->kind == LANG_INT && v.kind == LANG_BOOL);
    return v.kind == LANG_OBJ && v.u.o->type == cls->t;
}

static bool typeobj_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<class '%s'>", ((lang_typeobj *)o)->name);
    return true;
}

static bool typeobj_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_typeobj *c = (lang_typeobj *)o;
    if (!c->ctor) return lang_raise(vm, LANG_ERR_TYPE, "cannot create '%s' instances", c->name);
    return c->ctor(vm, a, out);
}

static bool typeobj_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    *found = false;
    if (!strcmp(name, "__name__")) {
        const char *n = ((lang_typeobj *)o)->name, *dot = strrchr(n, '.');
        *found = true;
        return lang_str_from_cstr(vm, dot ? dot + 1 : n, out);
    }
    return true;
}

const lang_type lang_typeobj_type = {
    .name = "type",
    .repr = typeobj_repr,
    .getattr = typeobj_getattr,
    .call = typeobj_call,
};
