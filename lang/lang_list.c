/* lang_list: list and tuple (one layout, lang_seq_obj), their methods and
 * the stable merge sort behind list.sort and sorted(). */
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
/* ------------------------------------------------------------------ list and tuple */

static void seq_free(lang_obj *o) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    for (int64_t i = 0; i < q->n; i++) lang_val_release(q->items[i]);
    free(q->items);
}

static bool seq_reserve(lang_vm *vm, lang_seq_obj *q, int64_t need) {
    if (need <= q->cap) return true;
    int64_t cap = q->cap ? q->cap : 4;
    while (cap < need) cap *= 2;
    if (!lang_check_alloc(vm, (size_t)cap * sizeof(lang_val), "list")) return false;
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
bool lang_repr_items(lang_vm *vm, const lang_val *items, int64_t n, lang_buf *out) {
    for (int64_t i = 0; i < n; i++) {
        if (i) lang_buf_puts(out, ", ");
        if (!lang_repr(vm, items[i], out)) return false;
    }
    return true;
}

/* Containers that hold themselves print as [...] as in Python. */
static lang_obj *repr_stack[64];
static int repr_depth;

bool lang_repr_enter(lang_obj *o, lang_buf *out, const char *dots) {
    for (int i = 0; i < repr_depth; i++)
        if (repr_stack[i] == o) {
            lang_buf_puts(out, dots);
            return false;
        }
    if (repr_depth < 64) repr_stack[repr_depth] = o;
    repr_depth++;
    return true;
}
void lang_repr_leave(void) {
    repr_depth--;
}

static bool list_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    if (!lang_repr_enter(o, out, "[...]")) return true;
    lang_seq_obj *q = (lang_seq_obj *)o;
    lang_buf_add(out, "[", 1);
    bool ok = lang_repr_items(vm, q->items, q->n, out);
    lang_buf_add(out, "]", 1);
    lang_repr_leave();
    return ok;
}

static bool tuple_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_seq_obj *q = (lang_seq_obj *)o;
    lang_buf_add(out, "(", 1);
    bool ok = lang_repr_items(vm, q->items, q->n, out);
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
    if (!lang_index_of(vm, key, q->n, what, &i)) return false;
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
    if (!lang_index_of(vm, key, q->n, "list assignment", &i)) return false;
    lang_val old = q->items[i];
    q->items[i] = lang_val_retain(v);
    lang_val_release(old);
    return true;
}

static bool seq_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                      bool *handled) {
    *handled = true;
    if (op == LANG_OP_ADD && lang_is_seq(a) && lang_is_seq(b) && a.u.o->type == b.u.o->type) {
        int64_t n = Q(a)->n + Q(b)->n;
        if (!seq_new(vm, a.u.o->type, n, out)) return false;
        for (int64_t i = 0; i < Q(a)->n; i++) Q(*out)->items[i] = lang_val_retain(Q(a)->items[i]);
        for (int64_t i = 0; i < Q(b)->n; i++)
            Q(*out)->items[Q(a)->n + i] = lang_val_retain(Q(b)->items[i]);
        return true;
    }
    if (op == LANG_OP_ADD && lang_is_seq(a) && lang_is_seq(b)) {
        return lang_raise(vm, LANG_ERR_TYPE, "can only concatenate %s (not \"%s\") to %s",
                          lang_type_name(a), lang_type_name(b), lang_type_name(a));
    }
    if (op == LANG_OP_MUL) {
        lang_val s = lang_is_seq(a) ? a : b, k = lang_is_seq(a) ? b : a;
        if (lang_is_seq(s) && (k.kind == LANG_INT || k.kind == LANG_BOOL)) {
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
    bool list = lang_is_list(self);
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
    if (!lang_no_args(vm, a, "list.reverse")) return false;
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
    if (!lang_no_args(vm, a, "list.copy")) return false;
    lang_val all;
    if (!lang_slice_new(vm, lang_none(), lang_none(), lang_none(), &all)) return false;
    bool ok = seq_getitem(vm, self.u.o, all, out);
    lang_val_release(all);
    return ok;
}

static bool m_list_clear(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_no_args(vm, a, "list.clear")) return false;
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
    .iter = lang_seq_iter,
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
    .iter = lang_seq_iter,
    .len = seq_len,
    .truth = seq_truth,
    .binop = seq_binop,
    .methods = tuple_methods,
    .help = &tuple_help,
};
