/* lang_str: the str type (UTF-8, immutable), its methods, str.format and
 * %-formatting. Ownership follows lang_value.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "lang_value_impl.h"
#include "nn_ctx.h"
/* ------------------------------------------------------------------ utf-8 */

size_t lang_utf8_count(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}

/* Byte offset of code point [cp] in s (n bytes). */
size_t lang_utf8_offset(const char *s, size_t n, size_t cp) {
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

size_t lang_utf8_char_len(unsigned char c) {
    if (c < 0x80) return 1;
    if ((c & 0xE0) == 0xC0) return 2;
    if ((c & 0xF0) == 0xE0) return 3;
    if ((c & 0xF8) == 0xF0) return 4;
    return 1;
}

/* ------------------------------------------------------------------ str */

bool lang_str_new(lang_vm *vm, const char *s, size_t n, lang_val *out) {
    if (!lang_check_alloc(vm, n, "str")) return false;
    lang_str_obj *o = lang_obj_new(vm, &lang_str_type, sizeof(lang_str_obj) + n + 1);
    if (!o) return false;
    if (n) memcpy(o->data, s, n);
    o->data[n] = 0;
    o->len = n;
    o->ncp = lang_utf8_count(s, n);
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

bool lang_str_from_buf(lang_vm *vm, lang_buf *b, lang_val *out) {
    bool ok = lang_str_new(vm, b->data ? b->data : "", b->len, out);
    lang_buf_free(b);
    return ok;
}

void lang_str_repr_into(const char *s, size_t n, lang_buf *out) {
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
    lang_str_repr_into(s->data, s->len, out);
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

bool lang_index_of(lang_vm *vm, lang_val key, int64_t len, const char *what, int64_t *out) {
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

bool lang_str_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    lang_str_obj *s = (lang_str_obj *)o;
    bool ascii = s->ncp == s->len;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, (int64_t)s->ncp, &start, &stop, &step, &count))
            return false;
        lang_buf b;
        lang_buf_init(&b);
        for (int64_t k = 0, i = start; k < count; k++, i += step) {
            size_t off = ascii ? (size_t)i : lang_utf8_offset(s->data, s->len, (size_t)i);
            size_t cl = ascii ? 1 : lang_utf8_char_len((unsigned char)s->data[off]);
            lang_buf_add(&b, s->data + off, cl);
        }
        return lang_str_from_buf(vm, &b, out);
    }
    int64_t i = 0;
    if (!lang_index_of(vm, key, (int64_t)s->ncp, "string", &i)) return false;
    size_t off = ascii ? (size_t)i : lang_utf8_offset(s->data, s->len, (size_t)i);
    size_t cl = ascii ? 1 : lang_utf8_char_len((unsigned char)s->data[off]);
    return lang_str_new(vm, s->data + off, cl, out);
}

static bool str_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled);
static const lang_method str_methods[];

const lang_type lang_str_type = {
    .name = "str",
    .repr = str_repr,
    .str_ = str_str,
    .getitem = lang_str_getitem,
    .iter = lang_str_iter,
    .len = str_len,
    .truth = str_truth,
    .binop = str_binop,
    .methods = str_methods,
};

/* ------------------------------------------------------------------ str methods */

static bool want_str(lang_vm *vm, lang_val v, const char *fname, const char *what) {
    if (lang_is_str(v)) return true;
    return lang_raise(vm, LANG_ERR_TYPE, "%s() argument %s must be str, not %s", fname, what,
                      lang_type_name(v));
}

static bool m_str_upper(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.upper")) return false;
    lang_str_obj *s = S(self);
    if (!lang_str_new(vm, s->data, s->len, out)) return false;
    for (char *p = S(*out)->data; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 32);
    return true;
}

static bool m_str_lower(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.lower")) return false;
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

/* rsplit: as split, but [maxsplit] counts from the right. */
static bool m_str_rsplit(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val sep = lang_none(), maxv = lang_int(-1);
    int64_t maxsplit;
    if (!lang_parse_args(vm, a, "str.rsplit", "|sep,maxsplit", &sep, &maxv)) return false;
    if (!lang_to_int(vm, maxv, "maxsplit", &maxsplit)) return false;
    if (maxsplit < 0) return m_str_split(vm, self, a, out);
    if (sep.kind != LANG_NONE && !want_str(vm, sep, "str.rsplit", "sep")) return false;
    if (sep.kind != LANG_NONE && S(sep)->len == 0)
        return lang_raise(vm, LANG_ERR_VALUE, "empty separator");
    lang_str_obj *s = S(self);
    const char *begin = s->data, *e = s->data + s->len;
    lang_val rev; /* pieces from the right, reversed at the end */
    if (!lang_list_new(vm, 0, &rev)) return false;
    int64_t done = 0;
    for (;;) {
        const char *b;
        if (sep.kind == LANG_NONE) {
            while (e > begin && is_space(e[-1])) e--;
            if (e == begin) break;
            if (done >= maxsplit) {
                b = begin; /* the rest keeps its leading space, as Python's */
            } else {
                b = e;
                while (b > begin && !is_space(b[-1])) b--;
            }
        } else {
            lang_str_obj *t = S(sep);
            const char *q = NULL;
            if (done < maxsplit && (size_t)(e - begin) >= t->len)
                for (const char *c = e - t->len + 1; c-- > begin && !q;)
                    if (memcmp(c, t->data, t->len) == 0) q = c;
            b = q ? q + t->len : begin;
        }
        lang_val piece;
        if (!lang_str_new(vm, b, (size_t)(e - b), &piece)) goto fail;
        bool ok = lang_list_append(vm, rev, piece);
        lang_val_release(piece);
        if (!ok) goto fail;
        done++;
        if (b == begin) break;
        e = sep.kind == LANG_NONE ? b : b - S(sep)->len;
        if (sep.kind != LANG_NONE && e == begin && b != begin) {
            lang_val empty;
            if (!lang_str_new(vm, "", 0, &empty)) goto fail;
            ok = lang_list_append(vm, rev, empty);
            lang_val_release(empty);
            if (!ok) goto fail;
            break;
        }
    }
    int64_t n = lang_seq_len(rev);
    lang_val *it = lang_seq_items(rev);
    for (int64_t i = 0; i < n / 2; i++) {
        lang_val t = it[i];
        it[i] = it[n - 1 - i];
        it[n - 1 - i] = t;
    }
    *out = rev;
    return true;
fail:
    lang_val_release(rev);
    return false;
}

static bool m_str_splitlines(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.splitlines")) return false;
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
        if (!lang_is_str(items[i])) {
            lang_buf_free(&b);
            lang_val_release(list);
            return lang_raise(vm, LANG_ERR_TYPE,
                              "sequence item %" PRId64 ": expected str instance, %s found", i,
                              lang_type_name(items[i]));
        }
        if (i) lang_buf_add(&b, S(self)->data, S(self)->len);
        lang_buf_add(&b, S(items[i])->data, S(items[i])->len);
        if (!lang_check_alloc(vm, b.len, "str")) {
            lang_buf_free(&b);
            lang_val_release(list);
            return false;
        }
    }
    lang_val_release(list);
    return lang_str_from_buf(vm, &b, out);
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
        if (!lang_is_str(cands[i]))
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
            size_t cl = lang_utf8_char_len((unsigned char)*p);
            lang_buf_add(&b, p, cl);
            p += cl;
            if (!lang_check_alloc(vm, b.len, "str")) {
                lang_buf_free(&b);
                return false;
            }
        }
        lang_buf_add(&b, p, (size_t)(end - p));
        return lang_str_from_buf(vm, &b, out);
    }
    while (count < 0 || done < count) {
        const char *q = memmem(p, (size_t)(end - p), o->data, o->len);
        if (!q) break;
        lang_buf_add(&b, p, (size_t)(q - p));
        lang_buf_add(&b, nw->data, nw->len);
        p = q + o->len;
        done++;
        if (!lang_check_alloc(vm, b.len, "str")) {
            lang_buf_free(&b);
            return false;
        }
    }
    lang_buf_add(&b, p, (size_t)(end - p));
    return lang_str_from_buf(vm, &b, out);
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
        if (q) *out = (int64_t)lang_utf8_count(s->data, (size_t)(q - s->data));
    } else {
        for (size_t i = s->len - t->len + 1; i-- > 0;) {
            if (memcmp(s->data + i, t->data, t->len) == 0) {
                *out = (int64_t)lang_utf8_count(s->data, i);
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
    if (!lang_no_args(vm, a, fname)) return false;
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

static int p_ascii(int c) {
    return c < 0x80;
}
static int p_upper(int c) {
    return c >= 'A' && c <= 'Z';
}
static int p_lower(int c) {
    return c >= 'a' && c <= 'z';
}
static bool m_str_isascii(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.isascii")) return false;
    lang_str_obj *s = S(self);
    bool r = true; /* unlike the others, '' is ASCII */
    for (size_t i = 0; i < s->len && r; i++) r = p_ascii((unsigned char)s->data[i]);
    *out = lang_bool(r);
    return true;
}
/* islower/isupper: at least one cased character, and none of the other case. */
static bool cased_all(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                      char_pred want, char_pred other, lang_val *out) {
    if (!lang_no_args(vm, a, fname)) return false;
    lang_str_obj *s = S(self);
    bool seen = false, bad = false;
    for (size_t i = 0; i < s->len && !bad; i++) {
        int c = (unsigned char)s->data[i];
        seen |= want(c) != 0;
        bad = other(c) != 0;
    }
    *out = lang_bool(seen && !bad);
    return true;
}
static bool m_str_islower(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return cased_all(vm, self, a, "str.islower", p_lower, p_upper, out);
}
static bool m_str_isupper(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return cased_all(vm, self, a, "str.isupper", p_upper, p_lower, out);
}
static bool m_str_isidentifier(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.isidentifier")) return false;
    lang_str_obj *s = S(self);
    bool r = s->len > 0 && !p_digit((unsigned char)s->data[0]);
    for (size_t i = 0; i < s->len && r; i++) {
        int c = (unsigned char)s->data[i];
        r = p_alnum(c) || c == '_';
    }
    *out = lang_bool(r);
    return true;
}

/* partition / rpartition: (head, sep, tail) around the first / last [sep]. */
static bool partition(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                      bool reverse, lang_val *out) {
    lang_val sep;
    if (!lang_parse_args(vm, a, fname, "sep", &sep)) return false;
    if (!want_str(vm, sep, fname, "1")) return false;
    lang_str_obj *s = S(self), *t = S(sep);
    if (t->len == 0) return lang_raise(vm, LANG_ERR_VALUE, "empty separator");
    const char *q = NULL;
    if (!reverse) {
        q = t->len <= s->len ? memmem(s->data, s->len, t->data, t->len) : NULL;
    } else if (t->len <= s->len) {
        for (size_t i = s->len - t->len + 1; i-- > 0 && !q;)
            if (memcmp(s->data + i, t->data, t->len) == 0) q = s->data + i;
    }
    size_t head = q ? (size_t)(q - s->data) : (reverse ? 0 : s->len);
    const char *parts[3];
    size_t lens[3];
    if (q) {
        parts[0] = s->data, lens[0] = head;
        parts[1] = t->data, lens[1] = t->len;
        parts[2] = q + t->len, lens[2] = s->len - head - t->len;
    } else if (!reverse) {
        parts[0] = s->data, lens[0] = s->len;
        parts[1] = parts[2] = "", lens[1] = lens[2] = 0;
    } else {
        parts[0] = parts[1] = "", lens[0] = lens[1] = 0;
        parts[2] = s->data, lens[2] = s->len;
    }
    if (!lang_tuple_new(vm, 3, out)) return false;
    lang_val *items = lang_seq_items(*out);
    for (int i = 0; i < 3; i++) {
        if (!lang_str_new(vm, parts[i], lens[i], &items[i])) {
            lang_val_release(*out);
            return false;
        }
    }
    return true;
}
static bool m_str_partition(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return partition(vm, self, a, "str.partition", false, out);
}
static bool m_str_rpartition(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return partition(vm, self, a, "str.rpartition", true, out);
}

/* removeprefix / removesuffix */
static bool remove_affix(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                         bool suffix, lang_val *out) {
    lang_val fix;
    if (!lang_parse_args(vm, a, fname, "affix", &fix)) return false;
    if (!want_str(vm, fix, fname, "1")) return false;
    lang_str_obj *s = S(self), *t = S(fix);
    if (t->len <= s->len && t->len > 0) {
        const char *at = suffix ? s->data + s->len - t->len : s->data;
        if (memcmp(at, t->data, t->len) == 0)
            return lang_str_new(vm, suffix ? s->data : s->data + t->len, s->len - t->len, out);
    }
    *out = lang_val_retain(self);
    return true;
}
static bool m_str_removeprefix(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return remove_affix(vm, self, a, "str.removeprefix", false, out);
}
static bool m_str_removesuffix(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return remove_affix(vm, self, a, "str.removesuffix", true, out);
}

static bool m_str_swapcase(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "str.swapcase")) return false;
    lang_str_obj *s = S(self);
    if (!lang_str_new(vm, s->data, s->len, out)) return false;
    for (char *p = S(*out)->data; *p; p++) {
        if (*p >= 'A' && *p <= 'Z')
            *p = (char)(*p + 32);
        else if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 32);
    }
    return true;
}

static bool m_str_rindex(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t i;
    if (!find_impl(vm, self, a, "rindex", true, &i)) return false;
    if (i < 0) return lang_raise(vm, LANG_ERR_VALUE, "substring not found");
    *out = lang_int(i);
    return true;
}

static bool case_change(lang_vm *vm, lang_val self, const lang_args *a, const char *fname,
                        bool title, lang_val *out) {
    if (!lang_no_args(vm, a, fname)) return false;
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
    if (!lang_check_alloc(vm, (size_t)(w > 0 ? w : 0), "str")) return false;
    lang_fmt_spec f;
    memset(&f, 0, sizeof f);
    strcpy(f.fill, " ");
    if (fillv.kind != LANG_NONE) {
        if (!lang_is_str(fillv) || S(fillv)->ncp != 1 || S(fillv)->len > 4)
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
        lang_fmt_pad(&f, '=', sign, body, s->len - (size_t)(body - s->data), &b);
    } else {
        lang_fmt_pad(&f, align, "", S(self)->data, S(self)->len, &b);
    }
    return lang_str_from_buf(vm, &b, out);
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
    return lang_str_from_buf(vm, &b, out);
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
    return lang_str_from_buf(vm, &b, out);
}

static bool str_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled) {
    *handled = true;
    if (op == LANG_OP_ADD && lang_is_str(a) && lang_is_str(b)) {
        size_t n = S(a)->len + S(b)->len;
        if (!lang_check_alloc(vm, n, "str")) return false;
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
        lang_val s = lang_is_str(a) ? a : b, k = lang_is_str(a) ? b : a;
        if (lang_is_str(s) && (k.kind == LANG_INT || k.kind == LANG_BOOL)) {
            int64_t times = k.kind == LANG_INT ? k.u.i : k.u.b;
            if (times < 0) times = 0;
            size_t len = S(s)->len;
            if (len && (uint64_t)times > SIZE_MAX / 2 / len)
                return lang_raise(vm, LANG_ERR_MEMORY, "repeated string is too long");
            if (!lang_check_alloc(vm, len * (size_t)times, "str")) return false;
            lang_buf bb;
            lang_buf_init(&bb);
            for (int64_t i = 0; i < times; i++) lang_buf_add(&bb, S(s)->data, len);
            return lang_str_from_buf(vm, &bb, out);
        }
    }
    if (op == LANG_OP_MOD && lang_is_str(a)) return str_percent(vm, a, b, out);
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
    M("isascii", m_str_isascii, "str.isascii()", "Whether every character is ASCII (true for '').",
      "'abc'.isascii()"),
    M("isalnum", m_str_isalnum, "str.isalnum()",
      "Whether every character is a letter or digit (and there is one).", "'a1'.isalnum()"),
    M("isalpha", m_str_isalpha, "str.isalpha()",
      "Whether every character is a letter (and there is one).", "'abc'.isalpha()"),
    M("isdecimal", m_str_isdigit, "str.isdecimal()",
      "Whether every character is a decimal digit (and there is one).", "'123'.isdecimal()"),
    M("isdigit", m_str_isdigit, "str.isdigit()",
      "Whether every character is a digit (and there is one).", "'123'.isdigit()"),
    M("isidentifier", m_str_isidentifier, "str.isidentifier()",
      "Whether the string is a valid name (ASCII letters, digits, _).", "'n_embd'.isidentifier()"),
    M("islower", m_str_islower, "str.islower()",
      "Whether there is a cased character and all cased ones are lower case.", "'abc1'.islower()"),
    M("isnumeric", m_str_isdigit, "str.isnumeric()",
      "Whether every character is a digit (and there is one).", "'42'.isnumeric()"),
    M("isspace", m_str_isspace, "str.isspace()",
      "Whether every character is white space (and there is one).", "' '.isspace()"),
    M("isupper", m_str_isupper, "str.isupper()",
      "Whether there is a cased character and all cased ones are upper case.", "'ABC'.isupper()"),
    M("join", m_str_join, "str.join(iterable)",
      "Concatenate the strings of [iterable] with this string between them.",
      "', '.join(['a', 'b'])"),
    M("ljust", m_str_ljust, "str.ljust(width, fillchar=' ')",
      "Left-justify in a field of [width] characters.", "'ab'.ljust(5) + '|'"),
    M("lower", m_str_lower, "str.lower()", "A lower-case copy (ASCII letters).", "'ABC'.lower()"),
    M("lstrip", m_str_lstrip, "str.lstrip(chars=None)", "Remove leading white space (or [chars]).",
      "'  x '.lstrip()"),
    M("partition", m_str_partition, "str.partition(sep)",
      "(head, sep, tail) around the first [sep]; (s, '', '') when absent.",
      "'key=value'.partition('=')"),
    M("removeprefix", m_str_removeprefix, "str.removeprefix(prefix)",
      "The string without [prefix] when it starts with it.", "'module.fc'.removeprefix('module.')"),
    M("removesuffix", m_str_removesuffix, "str.removesuffix(suffix)",
      "The string without [suffix] when it ends with it.", "'names.txt'.removesuffix('.txt')"),
    M("replace", m_str_replace, "str.replace(old, new, count=-1)",
      "Replace occurrences of [old] by [new] (at most [count]).", "'a-b-c'.replace('-', '+')"),
    M("rfind", m_str_rfind, "str.rfind(sub)", "The index of the last [sub], or -1.",
      "'hello'.rfind('l')"),
    M("rindex", m_str_rindex, "str.rindex(sub)",
      "Like rfind(), but a ValueError when [sub] is absent.", "'hello'.rindex('l')"),
    M("rjust", m_str_rjust, "str.rjust(width, fillchar=' ')",
      "Right-justify in a field of [width] characters.", "'ab'.rjust(5)"),
    M("rpartition", m_str_rpartition, "str.rpartition(sep)",
      "(head, sep, tail) around the last [sep]; ('', '', s) when absent.",
      "'a.b.c'.rpartition('.')"),
    M("rsplit", m_str_rsplit, "str.rsplit(sep=None, maxsplit=-1)",
      "Like split(), but at most [maxsplit] splits counted from the right.",
      "'a.b.c'.rsplit('.', 1)"),
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
    M("swapcase", m_str_swapcase, "str.swapcase()", "Upper case to lower and back.",
      "'Hello'.swapcase()"),
    M("title", m_str_title, "str.title()", "Each word capitalised.", "'hello world'.title()"),
    M("upper", m_str_upper, "str.upper()", "An upper-case copy (ASCII letters).", "'abc'.upper()"),
    M("zfill", m_str_zfill, "str.zfill(width)",
      "Pad with zeros on the left to [width], after any sign.", "'42'.zfill(5)"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef M
