/* lang_value: what every value type shares: errors, text buffers, object
 * allocation and release, the protocol helpers that dispatch through a
 * type's table (repr, getattr, call, indexing, iteration, comparison,
 * hashing), argument parsing and the conversions builtins use.
 *
 * Each value type lives in its own file: lang_str.c, lang_number.c (int,
 * float and the operators), lang_list.c (list, tuple), lang_dict.c,
 * lang_range.c (range, slice), lang_iter.c, lang_callable.c (builtin
 * functions, bound methods), lang_record.c, lang_typeobj.c (class objects);
 * the tensor in lang_tensor.c and user functions in lang_eval.c.
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

#include "lang_class.h"
#include "lang_debug.h"
#include "lang_eval.h"
#include "lang_set.h"
#include "lang_value_impl.h"
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
    case LANG_ERR_IMPORT: return "ImportError";
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

/* ------------------------------------------------------------------ objects */

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

void lang_obj_dead(lang_obj *o) {
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

bool lang_check_alloc(lang_vm *vm, size_t bytes, const char *what) {
    if (vm->alloc_limit && bytes > vm->alloc_limit)
        return lang_raise(vm, LANG_ERR_MEMORY, "a %s of %zu bytes is above this session's limit",
                          what, bytes);
    return true;
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
        /* keepdims= is torch's alias of keepdim= (NumPy's spelling). */
        if (j < 0 && !strcmp(kn, "keepdims"))
            for (int i = 0; i < np; i++)
                if (lens[i] == 7 && memcmp(names[i], "keepdim", 7) == 0) j = i;
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

bool lang_no_args(lang_vm *vm, const lang_args *a, const char *fname) {
    return lang_parse_args(vm, a, fname, "");
}

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
    if (v.u.o->type == &lang_instance_type) return lang_instance_of_val(v)->cls->name;
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
int lang_num_cmp(lang_val a, lang_val b) {
    if (a.kind != LANG_FLOAT && b.kind != LANG_FLOAT) {
        int64_t x = lang_num_i(a), y = lang_num_i(b);
        return x < y ? -1 : x > y;
    }
    if (a.kind == LANG_FLOAT && b.kind == LANG_FLOAT) {
        if (isnan(a.u.f) || isnan(b.u.f)) return 2;
        return a.u.f < b.u.f ? -1 : a.u.f > b.u.f;
    }
    if (a.kind == LANG_FLOAT) {
        int c = cmp_int_float(lang_num_i(b), a.u.f);
        return c == 2 ? 2 : -c;
    }
    return cmp_int_float(lang_num_i(a), b.u.f);
}

bool lang_equal(lang_vm *vm, lang_val a, lang_val b, bool *out) {
    if (lang_is_num(a) && lang_is_num(b)) {
        *out = lang_num_cmp(a, b) == 0;
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

bool lang_cmp_error(lang_vm *vm, const char *op, lang_val a, lang_val b) {
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' not supported between instances of '%s' and '%s'",
                      op, lang_type_name(a), lang_type_name(b));
}

bool lang_less(lang_vm *vm, lang_val a, lang_val b, bool *out) {
    if (lang_is_num(a) && lang_is_num(b)) {
        *out = lang_num_cmp(a, b) == -1;
        return true;
    }
    if (lang_is_str(a) && lang_is_str(b)) {
        size_t n = S(a)->len < S(b)->len ? S(a)->len : S(b)->len;
        int c = memcmp(S(a)->data, S(b)->data, n);
        *out = c < 0 || (c == 0 && S(a)->len < S(b)->len);
        return true;
    }
    if (lang_is_seq(a) && lang_is_seq(b) && a.u.o->type == b.u.o->type) {
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
    return lang_cmp_error(vm, "<", a, b);
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
    if (lang_is_dict(o)) {
        bool found;
        if (!lang_dict_del(vm, o, key, &found)) return false;
        if (!found) return lang_key_error(vm, key);
        return true;
    }
    if (lang_is_list(o)) {
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
        if (!lang_index_of(vm, key, q->n, "list assignment", &i)) return false;
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
    if (lang_is_seq(iterable)) {
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
    if (lang_is_obj(c, &lang_set_type)) return lang_set_contains(vm, c, item, out);
    if (lang_is_instance(c)) {
        lang_val r;
        bool found;
        if (!lang_call_dunder(vm, c, "__contains__", 1, &item, &r, &found)) return false;
        if (found) {
            bool ok = lang_truth(vm, r, out);
            lang_val_release(r);
            return ok;
        }
    }
    *out = false;
    if (lang_is_str(c)) {
        if (!lang_is_str(item))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "'in <string>' requires string as left operand, not %s",
                              lang_type_name(item));
        *out =
            S(item)->len == 0 || memmem(S(c)->data, S(c)->len, S(item)->data, S(item)->len) != NULL;
        return true;
    }
    if (lang_is_dict(c)) {
        lang_val v;
        bool found;
        if (!lang_dict_get(vm, c, item, &v, &found)) return false;
        if (found) lang_val_release(v);
        *out = found;
        return true;
    }
    if (lang_is_obj(c, &lang_dictview_type)) {
        lang_dictview_obj *dv = (lang_dictview_obj *)c.u.o;
        if (dv->which == LANG_DICT_KEYS) return lang_contains(vm, dv->dict, item, out);
    }
    if (lang_is_obj(c, &lang_range_type) &&
        (item.kind == LANG_INT || item.kind == LANG_BOOL ||
         (item.kind == LANG_FLOAT && item.u.f == floor(item.u.f)))) {
        lang_range_obj *r = R(c);
        if (item.kind == LANG_FLOAT && fabs(item.u.f) > 9e18) return true;
        int64_t x = item.kind == LANG_FLOAT ? (int64_t)item.u.f : lang_num_i(item);
        if (r->step > 0 ? (x >= r->start && x < r->stop) : (x <= r->start && x > r->stop))
            *out =
                ((uint64_t)x - (uint64_t)r->start) % (uint64_t)(r->step > 0 ? r->step : -r->step) ==
                0;
        return true;
    }
    if (lang_is_seq(c)) {
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

/* ------------------------------------------------------------------ conversions */

bool lang_to_int(lang_vm *vm, lang_val v, const char *what, int64_t *out) {
    if (v.kind == LANG_INT || v.kind == LANG_BOOL) {
        *out = lang_num_i(v);
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
    if (lang_is_num(v)) {
        *out = lang_num_f(v);
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
        out[0] = lang_num_i(v);
        *n = 1;
        return true;
    }
    if (lang_is_seq(v)) {
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
    while (lang_is_seq(cur)) {
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
        if (!lang_is_seq(v) || Q(v)->n != st->shape[depth]) {
            char pos[128];
            pos_text(pos, sizeof pos, idx, depth);
            return lang_raise(vm, LANG_ERR_VALUE,
                              "expected a sequence of length %" PRId64 " at position %s (got %s); "
                              "nested lists must be rectangular",
                              st->shape[depth], depth ? pos : "[]",
                              lang_is_seq(v) ? "a shorter or longer one" : lang_type_name(v));
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
        kind = t->dtype == NN_BOOL ? 0 : nn_dtype_is_int(t->dtype) ? 1 : 2;
    } else {
        char pos[128];
        pos_text(pos, sizeof pos, idx, depth);
        return lang_raise(
            vm, lang_is_seq(v) ? LANG_ERR_VALUE : LANG_ERR_TYPE,
            lang_is_seq(v)
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
    } else if (lang_is_seq(v)) {
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
