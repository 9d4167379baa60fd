/* lang_dict: the insertion-ordered dict (open addressing over an entry
 * array), its methods and its keys/values/items views. */
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
/* ------------------------------------------------------------------ dict */

static void dict_free(lang_obj *o) {
    lang_dict_obj *d = (lang_dict_obj *)o;
    for (int64_t i = 0; i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        lang_val_release(d->entries[i].key);
        lang_val_release(d->entries[i].value);
    }
    free(d->entries);
    free(d->index);
    lang_val_release(d->default_factory);
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
    if (!lang_check_alloc(vm, (size_t)cap * (sizeof(int64_t) + sizeof(lang_dict_entry)), "dict"))
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

bool lang_key_error(lang_vm *vm, lang_val key) {
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
    if (found) return true;
    lang_dict_obj *d = (lang_dict_obj *)o;
    if (d->counter) {
        *out = lang_int(0);
        return true;
    }
    if (d->default_factory.kind != LANG_NONE) {
        lang_args none = {0, NULL, 0, NULL, NULL};
        if (!lang_call(vm, d->default_factory, &none, out)) return false;
        if (!lang_dict_set(vm, lang_obj_val(o), key, *out)) {
            lang_val_release(*out);
            return false;
        }
        return true;
    }
    return lang_key_error(vm, key);
}

static bool dict_setitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val v) {
    return lang_dict_set(vm, lang_obj_val(o), key, v);
}

static bool dict_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    if (!lang_repr_enter(o, out, "{...}")) return true;
    lang_dict_obj *d = (lang_dict_obj *)o;
    if (d->default_factory.kind != LANG_NONE) {
        lang_buf_puts(out, "defaultdict(");
        if (!lang_repr(vm, d->default_factory, out)) {
            lang_repr_leave();
            return false;
        }
        lang_buf_puts(out, ", ");
    } else if (d->counter) {
        lang_buf_puts(out, "Counter(");
    }
    bool wrapped = d->default_factory.kind != LANG_NONE || d->counter;
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
    if (wrapped) lang_buf_add(out, ")", 1);
    lang_repr_leave();
    return ok;
}

/* Counter.most_common(n=None): (key, count) pairs, largest count first,
 * ties in insertion order. */
static bool m_dict_most_common(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val nv = lang_none();
    if (!((lang_dict_obj *)self.u.o)->counter)
        return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'dict' object has no attribute 'most_common'");
    if (!lang_parse_args(vm, a, "most_common", "|n", &nv)) return false;
    int64_t n = -1;
    if (nv.kind != LANG_NONE && !lang_to_int(vm, nv, "n", &n)) return false;
    lang_dict_obj *d = (lang_dict_obj *)self.u.o;
    lang_val pairs, key;
    if (!lang_list_new(vm, 0, &pairs)) return false;
    for (int64_t i = 0; i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        lang_val items[2] = {d->entries[i].key, d->entries[i].value}, t;
        if (!lang_tuple_pack(vm, 2, items, &t)) {
            lang_val_release(pairs);
            return false;
        }
        bool ok = lang_list_append(vm, pairs, t);
        lang_val_release(t);
        if (!ok) {
            lang_val_release(pairs);
            return false;
        }
    }
    /* Sort by -count: a key function from the language would be a detour,
     * so sort on the count and reverse a stable sort's tie order back. */
    int64_t m = lang_seq_len(pairs);
    lang_val *it = lang_seq_items(pairs);
    for (int64_t i = 1; i < m; i++) { /* insertion sort, stable, descending */
        lang_val x = it[i];
        int64_t j = i - 1;
        while (j >= 0) {
            bool less;
            if (!lang_less(vm, lang_seq_items(it[j])[1], lang_seq_items(x)[1], &less)) {
                lang_val_release(pairs);
                return false;
            }
            if (!less) break;
            it[j + 1] = it[j];
            j--;
        }
        it[j + 1] = x;
    }
    (void)key;
    if (n >= 0 && n < m) {
        for (int64_t i = n; i < m; i++) lang_val_release(it[i]);
        ((lang_seq_obj *)pairs.u.o)->n = n;
    }
    *out = pairs;
    return true;
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

static bool dict_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    return lang_dict_iter_kind(vm, lang_obj_val(o), LANG_DICT_KEYS, out);
}

static bool dictview_new(lang_vm *vm, lang_val dict, int which, lang_val *out) {
    lang_dictview_obj *v = lang_obj_new(vm, &lang_dictview_type, sizeof *v);
    if (!v) return false;
    v->dict = lang_val_retain(dict);
    v->which = which;
    *out = lang_obj_val(&v->hdr);
    return true;
}

static bool m_dict_keys(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return lang_no_args(vm, a, "dict.keys") && dictview_new(vm, self, LANG_DICT_KEYS, out);
}
static bool m_dict_values(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return lang_no_args(vm, a, "dict.values") && dictview_new(vm, self, LANG_DICT_VALUES, out);
}
static bool m_dict_items(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return lang_no_args(vm, a, "dict.items") && dictview_new(vm, self, LANG_DICT_ITEMS, out);
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
        if (a->n + a->nkw < 2) return lang_key_error(vm, key);
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
    if (lang_is_dict(src)) {
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
        if (!lang_is_seq(pair) || Q(pair)->n != 2) {
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
    if (!lang_no_args(vm, a, "dict.copy")) return false;
    if (!lang_dict_new(vm, out)) return false;
    if (!dict_update_from(vm, *out, self)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool m_dict_clear(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "dict.clear")) return false;
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
    if (!lang_no_args(vm, a, "dict.popitem")) return false;
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

#define M(t, n, f, sig, doc, ex)                                                                   \
    {                                                                                              \
        n, f, {                                                                                    \
            t "." n, sig, doc, ex                                                                  \
        }                                                                                          \
    }
static const lang_method dict_methods[] = {
    M("dict", "clear", m_dict_clear, "dict.clear()", "Remove every item.",
      "d = {'a': 1}; d.clear(); d"),
    M("dict", "copy", m_dict_copy, "dict.copy()", "A shallow copy.", "{'a': 1}.copy()"),
    M("dict", "most_common", m_dict_most_common, "Counter.most_common(n=None)",
      "A Counter's (item, count) pairs, most common first.", "Counter('abca').most_common(1)"),
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
    lang_val_release(((lang_dictview_obj *)o)->dict);
}

static bool dictview_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_dictview_obj *v = (lang_dictview_obj *)o;
    static const char *const names[] = {"dict_keys", "dict_values", "dict_items"};
    lang_buf_puts(out, names[v->which]);
    lang_buf_puts(out, "([");
    lang_dict_obj *d = D(v->dict);
    bool first = true;
    for (int64_t i = 0; i < d->nent; i++) {
        if (!d->entries[i].live) continue;
        if (!first) lang_buf_puts(out, ", ");
        first = false;
        if (v->which == LANG_DICT_ITEMS) lang_buf_add(out, "(", 1);
        if (v->which != LANG_DICT_VALUES && !lang_repr(vm, d->entries[i].key, out)) return false;
        if (v->which == LANG_DICT_ITEMS) lang_buf_puts(out, ", ");
        if (v->which != LANG_DICT_KEYS && !lang_repr(vm, d->entries[i].value, out)) return false;
        if (v->which == LANG_DICT_ITEMS) lang_buf_add(out, ")", 1);
    }
    lang_buf_puts(out, "])");
    return true;
}

static bool dictview_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    lang_dictview_obj *v = (lang_dictview_obj *)o;
    return lang_dict_iter_kind(vm, v->dict, v->which, out);
}
static bool dictview_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = D(((lang_dictview_obj *)o)->dict)->n;
    return true;
}

const lang_type lang_dictview_type = {
    .name = "dict_view",
    .free = dictview_free,
    .repr = dictview_repr,
    .iter = dictview_iter,
    .len = dictview_len,
};
