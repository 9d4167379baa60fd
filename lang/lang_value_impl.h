/* lang_value_impl: what the value files (lang_value.c, lang_str.c,
 * lang_number.c, lang_list.c, lang_dict.c, lang_range.c, lang_iter.c,
 * lang_callable.c, lang_record.c, lang_typeobj.c, lang_class.c) share
 * with each other and nobody else: layout accessors, the format-spec
 * parser, the iterator constructors of the core containers, and small
 * helpers. Builtin families use lang_value.h and lang_vm.h instead.
 * Ownership follows lang_value.h.
 */
#ifndef LANG_VALUE_IMPL_H
#define LANG_VALUE_IMPL_H

#include "lang_eval.h"

/* Layout accessors: [v] must hold an object of the named type. */
static inline lang_str_obj *S(lang_val v) {
    return (lang_str_obj *)v.u.o;
}
static inline lang_seq_obj *Q(lang_val v) {
    return (lang_seq_obj *)v.u.o;
}
static inline lang_dict_obj *D(lang_val v) {
    return (lang_dict_obj *)v.u.o;
}
static inline lang_range_obj *R(lang_val v) {
    return (lang_range_obj *)v.u.o;
}
static inline lang_record_obj *REC(lang_val v) {
    return (lang_record_obj *)v.u.o;
}
static inline bool lang_is_str(lang_val v) {
    return lang_is_obj(v, &lang_str_type);
}
static inline bool lang_is_list(lang_val v) {
    return lang_is_obj(v, &lang_list_type);
}
static inline bool lang_is_tuple(lang_val v) {
    return lang_is_obj(v, &lang_tuple_type);
}
static inline bool lang_is_seq(lang_val v) {
    return lang_is_list(v) || lang_is_tuple(v);
}
static inline bool lang_is_dict(lang_val v) {
    return lang_is_obj(v, &lang_dict_type);
}
static inline bool lang_is_num(lang_val v) {
    return v.kind == LANG_INT || v.kind == LANG_FLOAT || v.kind == LANG_BOOL;
}
static inline double lang_num_f(lang_val v) {
    return v.kind == LANG_FLOAT ? v.u.f : v.kind == LANG_INT ? (double)v.u.i : (double)v.u.b;
}
static inline int64_t lang_num_i(lang_val v) {
    return v.kind == LANG_INT ? v.u.i : (int64_t)v.u.b;
}
/* -1, 0, 1, or 2 for unordered (NaN); exact between int and float. */
int lang_num_cmp(lang_val a, lang_val b);

/* MemoryError when [bytes] is above the session's limit for one value. */
bool lang_check_alloc(lang_vm *vm, size_t bytes, const char *what);
/* TypeError unless the call has no arguments. */
bool lang_no_args(lang_vm *vm, const lang_args *a, const char *fname);
/* An index into a sequence of [len] (negative from the end); IndexError
 * naming [what] when out of range. */
bool lang_index_of(lang_vm *vm, lang_val key, int64_t len, const char *what, int64_t *out);
bool lang_key_error(lang_vm *vm, lang_val key);
bool lang_cmp_error(lang_vm *vm, const char *op, lang_val a, lang_val b);

/* UTF-8: code points in s[0..n), byte offset of code point [cp], bytes of
 * the character that starts with [c]. */
size_t lang_utf8_count(const char *s, size_t n);
size_t lang_utf8_offset(const char *s, size_t n, size_t cp);
size_t lang_utf8_char_len(unsigned char c);

/* str helpers: a str from a buffer (the buffer is freed), Python's repr of
 * the bytes, one item of a str. */
bool lang_str_from_buf(lang_vm *vm, lang_buf *b, lang_val *out);
void lang_str_repr_into(const char *s, size_t n, lang_buf *out);
bool lang_str_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out);

/* Container repr: items joined by ", "; enter/leave guard against a
 * container that holds itself (prints [dots] and returns false). */
bool lang_repr_items(lang_vm *vm, const lang_val *items, int64_t n, lang_buf *out);
bool lang_repr_enter(lang_obj *o, lang_buf *out, const char *dots);
void lang_repr_leave(void);

/* A parsed format spec ([[fill]align][sign][#][0][width][,_][.prec][type]). */
typedef struct lang_fmt_spec {
    char fill[5]; /* one UTF-8 character */
    char align;   /* 0, '<', '>', '^', '=' */
    char sign;    /* 0, '+', '-', ' ' */
    bool alt, zero;
    int64_t width;     /* -1 when absent */
    char group;        /* 0, ',', '_' */
    int64_t precision; /* -1 when absent */
    char type;         /* 0 or the type letter */
} lang_fmt_spec;
bool lang_fmt_parse(lang_vm *vm, const char *s, size_t n, lang_fmt_spec *f);
void lang_fmt_pad(const lang_fmt_spec *f, char default_align, const char *sign, const char *body,
                  size_t body_len, lang_buf *out);
bool lang_fmt_int(lang_vm *vm, int64_t v, const lang_fmt_spec *f, lang_buf *out);
bool lang_fmt_float(lang_vm *vm, double v, const lang_fmt_spec *f, lang_buf *out);

/* dict views (keys(), values(), items()). */
enum { LANG_DICT_KEYS, LANG_DICT_VALUES, LANG_DICT_ITEMS };

typedef struct lang_dictview_obj {
    lang_obj hdr;
    lang_val dict;
    int which;
} lang_dictview_obj;

/* Iterators over the core containers ([o] is borrowed; the iterator holds
 * its own reference). */
bool lang_seq_iter(lang_vm *vm, lang_obj *o, lang_val *out);
bool lang_str_iter(lang_vm *vm, lang_obj *o, lang_val *out);
bool lang_range_iter(lang_vm *vm, lang_obj *o, lang_val *out);
bool lang_dict_iter_kind(lang_vm *vm, lang_val dict, int which, lang_val *out);

#endif
