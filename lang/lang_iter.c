/* lang_iter: the iterator objects of the core containers and of zip,
 * enumerate and reversed. */
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
/* ------------------------------------------------------------------ iterators */

typedef enum iter_kind {
    IT_SEQ,
    IT_STR,
    IT_RANGE,
    IT_DICT,
    IT_ZIP,
    IT_ENUM,
    IT_REV,
    IT_MAP,    /* src: the function; its: the iterables' iterators */
    IT_FILTER, /* src: the function or None; its[0]: the iterator */
} iter_kind;

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

static const lang_type map_type, filter_type;

static bool iter_new(lang_vm *vm, iter_kind kind, lang_val src, lang_val *out, iter_obj **itp) {
    iter_obj *it = lang_obj_new(vm,
                                kind == IT_MAP      ? &map_type
                                : kind == IT_FILTER ? &filter_type
                                                    : &lang_iter_type,
                                sizeof *it);
    if (!it) return false;
    it->kind = kind;
    it->src = lang_val_retain(src);
    *out = lang_obj_val(&it->hdr);
    *itp = it;
    return true;
}

bool lang_seq_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    return iter_new(vm, IT_SEQ, lang_obj_val(o), out, &it);
}

bool lang_str_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    return iter_new(vm, IT_STR, lang_obj_val(o), out, &it);
}

bool lang_range_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    iter_obj *it;
    lang_range_obj *r = (lang_range_obj *)o;
    if (!iter_new(vm, IT_RANGE, lang_none(), out, &it)) return false;
    it->pos = r->start;
    it->step = r->step;
    it->end = r->len; /* items left */
    return true;
}

bool lang_dict_iter_kind(lang_vm *vm, lang_val dict, int which, lang_val *out) {
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

/* map(fn, *iterables) and filter(fn, iterable): lazy, as Python's. */
static bool fn_iter_new(lang_vm *vm, iter_kind kind, lang_val fn, int n, const lang_val *iterables,
                        lang_val *out) {
    iter_obj *it;
    if (!iter_new(vm, kind, fn, out, &it)) return false;
    it->its = calloc((size_t)(n ? n : 1), sizeof(lang_val));
    if (!it->its) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        if (!lang_iter(vm, iterables[i], &it->its[i])) {
            lang_val_release(*out);
            return false;
        }
        it->n = i + 1;
    }
    return true;
}

bool lang_map_new(lang_vm *vm, lang_val fn, int n, const lang_val *iterables, lang_val *out) {
    return fn_iter_new(vm, IT_MAP, fn, n, iterables, out);
}

bool lang_filter_new(lang_vm *vm, lang_val fn, lang_val iterable, lang_val *out) {
    return fn_iter_new(vm, IT_FILTER, fn, 1, &iterable, out);
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
    if (lang_is_seq(seq) || lang_is_str(seq)) {
        if (!iter_new(vm, IT_REV, seq, out, &it)) return false;
        it->pos = lang_is_str(seq) ? (int64_t)S(seq)->ncp - 1 : Q(seq)->n - 1;
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
        size_t cl = lang_utf8_char_len((unsigned char)s->data[it->pos]);
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
        if (it->which == LANG_DICT_KEYS)
            *out = lang_val_retain(e->key);
        else if (it->which == LANG_DICT_VALUES)
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
    case IT_MAP: {
        if (it->n == 0) break;
        lang_val args[8], *argv = it->n <= 8 ? args : malloc(sizeof *argv * (size_t)it->n);
        if (!argv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        int got = 0;
        bool ok = true, d = false;
        while (got < it->n && (ok = lang_next(vm, it->its[got], &argv[got], &d)) && !d) got++;
        if (ok && !d) {
            lang_args ca = {it->n, argv, 0, NULL, NULL};
            ok = lang_call(vm, it->src, &ca, out);
        }
        for (int i = 0; i < got; i++) lang_val_release(argv[i]);
        if (argv != args) free(argv);
        if (ok && d) *done = true;
        return ok;
    }
    case IT_FILTER:
        for (;;) {
            lang_val item, r;
            bool d, keep;
            if (!lang_next(vm, it->its[0], &item, &d)) return false;
            if (d) {
                *done = true;
                return true;
            }
            bool ok = true;
            if (it->src.kind == LANG_NONE) {
                r = lang_val_retain(item);
            } else {
                lang_args ca = {1, &item, 0, NULL, NULL};
                ok = lang_call(vm, it->src, &ca, &r);
            }
            if (ok) {
                ok = lang_truth(vm, r, &keep);
                lang_val_release(r);
            }
            if (!ok) {
                lang_val_release(item);
                return false;
            }
            if (keep) {
                *out = item;
                return true;
            }
            lang_val_release(item);
            if (lang_vm_interrupted(vm)) return false;
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
        if (lang_is_str(it->src)) {
            lang_val idx = lang_int(it->pos--);
            return lang_str_getitem(vm, it->src.u.o, idx, out);
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
                                        "reversed",      "map",          "filter"};
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

/* map and filter objects are iterators whose type has Python's name. */
static const lang_type map_type = {
    .name = "map",
    .free = iter_free,
    .repr = iter_repr,
    .iter = iter_iter,
    .next = iter_next,
};
static const lang_type filter_type = {
    .name = "filter",
    .free = iter_free,
    .repr = iter_repr,
    .iter = iter_iter,
    .next = iter_next,
};
