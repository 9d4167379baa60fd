/* lang_set: the set type, an insertion-ordered hash set kept in a dict
 * whose values are None (iteration order is insertion order, where
 * CPython's is by hash; scripts that print a set sort it first, as they
 * must for CPython too). Ownership follows lang_value.h. */
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "lang_set.h"
#include "lang_value_impl.h"

typedef struct set_obj {
    lang_obj hdr;
    lang_val d; /* dict: item -> None */
} set_obj;

static lang_val DICT(lang_val s) {
    return ((set_obj *)s.u.o)->d;
}

static void set_free(lang_obj *o) {
    lang_val_release(((set_obj *)o)->d);
}

bool lang_set_new(lang_vm *vm, lang_val *out) {
    set_obj *s = lang_obj_new(vm, &lang_set_type, sizeof *s);
    if (!s) return false;
    *out = lang_obj_val(&s->hdr);
    if (!lang_dict_new(vm, &s->d)) {
        s->d = lang_none();
        lang_val_release(*out);
        return false;
    }
    return true;
}

bool lang_set_add(lang_vm *vm, lang_val set, lang_val item) {
    return lang_dict_set(vm, DICT(set), item, lang_none());
}

static bool add_all(lang_vm *vm, lang_val set, lang_val iterable) {
    lang_val items;
    if (!lang_list_from_iter(vm, iterable, &items)) return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++)
        ok = lang_set_add(vm, set, lang_seq_items(items)[k]);
    lang_val_release(items);
    return ok;
}

static bool has(lang_vm *vm, lang_val set, lang_val item, bool *out) {
    lang_val v;
    if (!lang_dict_get(vm, DICT(set), item, &v, out)) return false;
    if (*out) lang_val_release(v);
    return true;
}

static bool set_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_dict_obj *d = D(((set_obj *)o)->d);
    if (!d->n) {
        lang_buf_puts(out, "set()");
        return true;
    }
    if (!lang_repr_enter(o, out, "{...}")) return true;
    lang_buf_puts(out, "{");
    bool first = true, ok = true;
    for (int64_t k = 0; ok && k < d->nent; k++) {
        if (!d->entries[k].live) continue;
        if (!first) lang_buf_puts(out, ", ");
        first = false;
        ok = lang_repr(vm, d->entries[k].key, out);
    }
    lang_buf_puts(out, "}");
    lang_repr_leave();
    return ok;
}

static bool set_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = D(((set_obj *)o)->d)->n;
    return true;
}

static bool set_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = D(((set_obj *)o)->d)->n > 0;
    return true;
}

static bool set_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    return lang_iter(vm, ((set_obj *)o)->d, out);
}

static bool is_set(lang_val v) {
    return lang_is_obj(v, &lang_set_type);
}

/* a | b, a & b, a - b, and the comparisons (subset, equality). */
static bool combine(lang_vm *vm, lang_val a, lang_val b, int op, lang_val *out) {
    if (!lang_set_new(vm, out)) return false;
    lang_dict_obj *da = D(DICT(a)), *db = D(DICT(b));
    bool ok = true;
    for (int64_t k = 0; ok && k < da->nent; k++) {
        if (!da->entries[k].live) continue;
        bool in_b;
        ok = has(vm, b, da->entries[k].key, &in_b);
        if (ok && (op == '|' || (op == '&' && in_b) || (op == '-' && !in_b)))
            ok = lang_set_add(vm, *out, da->entries[k].key);
    }
    for (int64_t k = 0; ok && op == '|' && k < db->nent; k++)
        if (db->entries[k].live) ok = lang_set_add(vm, *out, db->entries[k].key);
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool subset(lang_vm *vm, lang_val a, lang_val b, bool *out) {
    lang_dict_obj *da = D(DICT(a));
    *out = true;
    for (int64_t k = 0; *out && k < da->nent; k++)
        if (da->entries[k].live && !has(vm, b, da->entries[k].key, out)) return false;
    return true;
}

static bool set_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled) {
    *handled = false;
    if (!is_set(a) || !is_set(b)) return true;
    *handled = true;
    bool r, r2;
    int64_t na = D(DICT(a))->n, nb = D(DICT(b))->n;
    switch (op) {
    case LANG_OP_OR_BITS: return combine(vm, a, b, '|', out);
    case LANG_OP_AND_BITS: return combine(vm, a, b, '&', out);
    case LANG_OP_SUB: return combine(vm, a, b, '-', out);
    case LANG_OP_EQ:
    case LANG_OP_NE:
        if (!subset(vm, a, b, &r)) return false;
        r = r && na == nb;
        *out = lang_bool(op == LANG_OP_EQ ? r : !r);
        return true;
    case LANG_OP_LE:
    case LANG_OP_LT:
        if (!subset(vm, a, b, &r)) return false;
        *out = lang_bool(op == LANG_OP_LE ? r : r && na < nb);
        return true;
    case LANG_OP_GE:
    case LANG_OP_GT:
        if (!subset(vm, b, a, &r2)) return false;
        *out = lang_bool(op == LANG_OP_GE ? r2 : r2 && na > nb);
        return true;
    default: *handled = false; return true;
    }
}

static bool m_add(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "add", "elem", &x) || !lang_set_add(vm, self, x)) return false;
    *out = lang_none();
    return true;
}

static bool m_update(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    for (int k = 0; k < a->n; k++)
        if (!add_all(vm, self, a->pos[k])) return false;
    *out = lang_none();
    return true;
}

static bool m_discard(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    bool found;
    if (!lang_parse_args(vm, a, "discard", "elem", &x) || !lang_dict_del(vm, DICT(self), x, &found))
        return false;
    *out = lang_none();
    return true;
}

static bool m_remove(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val x;
    bool found;
    if (!lang_parse_args(vm, a, "remove", "elem", &x) || !lang_dict_del(vm, DICT(self), x, &found))
        return false;
    if (!found) return lang_key_error(vm, x);
    *out = lang_none();
    return true;
}

static bool m_pop(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_dict_obj *d = D(DICT(self));
    if (!lang_parse_args(vm, a, "pop", "")) return false;
    for (int64_t k = 0; k < d->nent; k++)
        if (d->entries[k].live) {
            *out = lang_val_retain(d->entries[k].key);
            bool found;
            if (!lang_dict_del(vm, DICT(self), *out, &found)) {
                lang_val_release(*out);
                return false;
            }
            return true;
        }
    return lang_raise(vm, LANG_ERR_KEY, "'pop from an empty set'");
}

static bool m_clear(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val d;
    if (!lang_parse_args(vm, a, "clear", "") || !lang_dict_new(vm, &d)) return false;
    lang_val_release(((set_obj *)self.u.o)->d);
    ((set_obj *)self.u.o)->d = d;
    *out = lang_none();
    return true;
}

static bool with_other(lang_vm *vm, lang_val self, const lang_args *a, const char *fname, int op,
                       lang_val *out) {
    lang_val acc = lang_val_retain(self);
    for (int k = 0; k < a->n; k++) {
        lang_val other, r;
        if (is_set(a->pos[k])) {
            other = lang_val_retain(a->pos[k]);
        } else {
            if (!lang_set_new(vm, &other)) goto fail;
            if (!add_all(vm, other, a->pos[k])) {
                lang_val_release(other);
                goto fail;
            }
        }
        bool ok = combine(vm, acc, other, op, &r);
        lang_val_release(other);
        if (!ok) goto fail;
        lang_val_release(acc);
        acc = r;
    }
    if (acc.u.o == self.u.o) { /* no arguments: a copy */
        lang_val empty, r;
        if (!lang_set_new(vm, &empty)) goto fail;
        bool ok = combine(vm, acc, empty, '|', &r);
        lang_val_release(empty);
        if (!ok) goto fail;
        lang_val_release(acc);
        acc = r;
    }
    *out = acc;
    return true;
fail:
    (void)fname;
    lang_val_release(acc);
    return false;
}

static bool m_union(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return with_other(vm, self, a, "union", '|', out);
}
static bool m_intersection(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return with_other(vm, self, a, "intersection", '&', out);
}
static bool m_difference(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return with_other(vm, self, a, "difference", '-', out);
}
static bool m_copy(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_args none = {0, NULL, 0, NULL, NULL};
    return with_other(vm, self, &none, "copy", '|', out);
}
static bool m_issubset(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val o, other;
    bool r;
    if (!lang_parse_args(vm, a, "issubset", "other", &o) || !lang_set_new(vm, &other)) return false;
    bool ok = add_all(vm, other, o) && subset(vm, self, other, &r);
    lang_val_release(other);
    if (ok) *out = lang_bool(r);
    return ok;
}

#define M(n, f, sig, doc)                                                                          \
    {                                                                                              \
        n, f, {                                                                                    \
            "set." n, sig, doc, ""                                                                 \
        }                                                                                          \
    }
static const lang_method set_methods[] = {
    M("add", m_add, "add(elem)", "Add an element."),
    M("clear", m_clear, "clear()", "Remove every element."),
    M("copy", m_copy, "copy()", "A shallow copy."),
    M("difference", m_difference, "difference(*others)", "Elements in this set only."),
    M("discard", m_discard, "discard(elem)", "Remove an element if present."),
    M("intersection", m_intersection, "intersection(*others)", "Elements in every set."),
    M("issubset", m_issubset, "issubset(other)", "Whether every element is in other."),
    M("pop", m_pop, "pop()", "Remove and return an element."),
    M("remove", m_remove, "remove(elem)", "Remove an element; KeyError when absent."),
    M("union", m_union, "union(*others)", "Elements in any of the sets."),
    M("update", m_update, "update(*iterables)", "Add the elements of each iterable."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef M

static const lang_help set_help = {"set", "set(iterable=())",
                                   "An unordered collection of distinct hashable values.",
                                   "set('hello')"};

const lang_type lang_set_type = {
    .name = "set",
    .free = set_free,
    .repr = set_repr,
    .iter = set_iter,
    .len = set_len,
    .truth = set_truth,
    .binop = set_binop,
    .methods = set_methods,
    .help = &set_help,
};

bool lang_set_contains(lang_vm *vm, lang_val set, lang_val item, bool *out) {
    return has(vm, set, item, out);
}

static bool b_set(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val src = lang_none();
    if (!lang_parse_args(vm, a, "set", "|iterable", &src) || !lang_set_new(vm, out)) return false;
    if (src.kind != LANG_NONE && !add_all(vm, *out, src)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

const lang_builtin_def lang_set_builtins[] = {
    {"set", b_set, {"set", "set(iterable=())", "A set of the items (each once).", "set('hello')"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
