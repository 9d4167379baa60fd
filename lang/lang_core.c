/* lang_core: the core builtin family (lang_core_builtins): print, len,
 * range, enumerate, zip, sum, min, max, abs, round, the conversions, sorted,
 * reversed, isinstance, type, input, help, dir, repr, any, all, exit/quit,
 * and the grad-mode functions that mirror torch (no_grad, set_grad_enabled,
 * is_grad_enabled; the generator's are lang_generator.c's). Each entry
 * carries its help.
 *
 * Owned by the language-runtime engineer. Builtins borrow their arguments
 * and return new references (lang_value.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_class.h"
#include "lang_eval.h"
#include "lang_import.h"
#include "lang_std.h"

static bool is_str(lang_val v) {
    return lang_is_obj(v, &lang_str_type);
}

static bool call1(lang_vm *vm, lang_val f, lang_val x, lang_val *out) {
    lang_args a = {1, &x, 0, NULL, NULL};
    return lang_call(vm, f, &a, out);
}

/* Call method [name] of [v] with no arguments (tensor fallbacks: abs, round). */
static bool call_method(lang_vm *vm, lang_val v, const char *name, int n, const lang_val *args,
                        lang_val *out) {
    lang_val m;
    if (!lang_getattr(vm, v, name, &m)) return false;
    lang_args a = {n, args, 0, NULL, NULL};
    bool ok = lang_call(vm, m, &a, out);
    lang_val_release(m);
    return ok;
}

/* ---- print ---- */

static bool b_print(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val sep = lang_none(), end = lang_none(), file = lang_none(), flush = lang_none();
    lang_args kw = {0, NULL, a->nkw, a->kwnames, a->kw};
    if (!lang_parse_args(vm, &kw, "print", "|sep,end,file,flush", &sep, &end, &file, &flush))
        return false;
    if (sep.kind != LANG_NONE && !is_str(sep))
        return lang_raise(vm, LANG_ERR_TYPE, "sep must be None or a string, not %s",
                          lang_type_name(sep));
    if (end.kind != LANG_NONE && !is_str(end))
        return lang_raise(vm, LANG_ERR_TYPE, "end must be None or a string, not %s",
                          lang_type_name(end));
    lang_buf b;
    lang_buf_init(&b);
    for (int i = 0; i < a->n; i++) {
        if (i) lang_buf_puts(&b, sep.kind == LANG_NONE ? " " : lang_str_cstr(sep));
        if (!lang_str(vm, a->pos[i], &b)) {
            lang_buf_free(&b);
            return false;
        }
    }
    lang_buf_puts(&b, end.kind == LANG_NONE ? "\n" : lang_str_cstr(end));
    if (file.kind != LANG_NONE) {
        bool ok = lang_std_write_to(vm, file, b.data ? b.data : "", b.len);
        lang_buf_free(&b);
        if (!ok) return false;
        *out = lang_none();
        return true;
    }
    lang_vm_write(vm, LANG_STDOUT, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
    *out = lang_none();
    return true;
}

/* ---- sizes and sequences ---- */

static bool b_len(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "len", "obj", &x)) return false;
    if (x.kind == LANG_OBJ && x.u.o->type->len) {
        int64_t n;
        if (!x.u.o->type->len(vm, x.u.o, &n)) return false;
        *out = lang_int(n);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "object of type '%s' has no len()", lang_type_name(x));
}

static bool b_range(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->nkw) return lang_raise(vm, LANG_ERR_TYPE, "range() takes no keyword arguments");
    if (a->n < 1 || a->n > 3)
        return lang_raise(vm, LANG_ERR_TYPE, "range expected %s argument%s, got %d",
                          a->n < 1 ? "at least 1" : "at most 3", a->n < 1 ? "" : "s", a->n);
    int64_t v[3] = {0, 0, 1};
    for (int i = 0; i < a->n; i++) {
        lang_val x = a->pos[i];
        if (x.kind == LANG_FLOAT)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "'float' object cannot be interpreted as an integer");
        if (!lang_to_int(vm, x, "range() argument", &v[i])) return false;
    }
    if (a->n == 1) return lang_range_new(vm, 0, v[0], 1, out);
    return lang_range_new(vm, v[0], v[1], v[2], out);
}

static bool b_enumerate(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val it, startv = lang_int(0);
    int64_t start;
    if (!lang_parse_args(vm, a, "enumerate", "iterable|start", &it, &startv)) return false;
    if (!lang_to_int(vm, startv, "start", &start)) return false;
    return lang_enumerate_new(vm, it, start, out);
}

static bool b_zip(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->nkw) return lang_raise(vm, LANG_ERR_TYPE, "zip() takes no keyword arguments");
    for (int i = 0; i < a->n; i++)
        if (a->pos[i].kind != LANG_OBJ || !a->pos[i].u.o->type->iter)
            return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not iterable",
                              lang_type_name(a->pos[i]));
    return lang_zip_new(vm, a->n, a->pos, out);
}

static bool b_sum(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val src, start = lang_int(0);
    if (!lang_parse_args(vm, a, "sum", "iterable|start", &src, &start)) return false;
    if (is_str(start))
        return lang_raise(vm, LANG_ERR_TYPE, "sum() can't sum strings [use ''.join(seq) instead]");
    lang_val it;
    if (!lang_iter(vm, src, &it)) return false;
    lang_val acc = lang_val_retain(start);
    for (;;) {
        lang_val x, r;
        bool done;
        if (!lang_next(vm, it, &x, &done)) goto fail;
        if (done) break;
        bool ok = lang_binary(vm, LANG_OP_ADD, acc, x, &r);
        lang_val_release(x);
        if (!ok) goto fail;
        lang_val_release(acc);
        acc = r;
        if (lang_vm_interrupted(vm)) goto fail;
    }
    lang_val_release(it);
    *out = acc;
    return true;
fail:
    lang_val_release(it);
    lang_val_release(acc);
    return false;
}

static bool minmax(lang_vm *vm, const lang_args *a, lang_val *out, bool want_max) {
    const char *name = want_max ? "max" : "min";
    lang_val key = lang_none(), def = lang_none();
    bool has_default = false;
    for (int k = 0; k < a->nkw; k++) {
        if (!strcmp(a->kwnames[k], "key"))
            key = a->kw[k];
        else if (!strcmp(a->kwnames[k], "default"))
            def = a->kw[k], has_default = true;
        else
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              name, a->kwnames[k]);
    }
    if (a->n == 0)
        return lang_raise(vm, LANG_ERR_TYPE, "%s expected at least 1 argument, got 0", name);
    lang_val list;
    if (a->n == 1) {
        if (!lang_list_from_iter(vm, a->pos[0], &list)) return false;
    } else {
        if (has_default)
            return lang_raise(
                vm, LANG_ERR_TYPE,
                "Cannot specify a default for %s() with multiple positional arguments", name);
        if (!lang_tuple_pack(vm, a->n, a->pos, &list)) return false;
    }
    int64_t n = lang_seq_len(list);
    lang_val *items = lang_seq_items(list);
    if (n == 0) {
        lang_val_release(list);
        if (has_default) {
            *out = lang_val_retain(def);
            return true;
        }
        return lang_raise(vm, LANG_ERR_VALUE, "%s() arg is an empty sequence", name);
    }
    lang_val best = lang_val_retain(items[0]), bestk;
    bool ok = key.kind == LANG_NONE ? (bestk = lang_val_retain(best), true)
                                    : call1(vm, key, best, &bestk);
    for (int64_t i = 1; ok && i < n; i++) {
        lang_val k;
        ok = key.kind == LANG_NONE ? (k = lang_val_retain(items[i]), true)
                                   : call1(vm, key, items[i], &k);
        if (!ok) break;
        bool better;
        ok = want_max ? lang_less(vm, bestk, k, &better) : lang_less(vm, k, bestk, &better);
        if (ok && better) {
            lang_val_release(best);
            lang_val_release(bestk);
            best = lang_val_retain(items[i]);
            bestk = k;
        } else {
            lang_val_release(k);
        }
    }
    if (ok) lang_val_release(bestk);
    lang_val_release(list);
    if (!ok) {
        lang_val_release(best);
        return false;
    }
    *out = best;
    return true;
}

static bool b_max(lang_vm *vm, const lang_args *a, lang_val *out) {
    return minmax(vm, a, out, true);
}
static bool b_min(lang_vm *vm, const lang_args *a, lang_val *out) {
    return minmax(vm, a, out, false);
}

static bool b_abs(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "abs", "x", &x)) return false;
    switch (x.kind) {
    case LANG_BOOL: *out = lang_int(x.u.b); return true;
    case LANG_INT:
        if (x.u.i == INT64_MIN)
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "integer result does not fit in 64 bits");
        *out = lang_int(x.u.i < 0 ? -x.u.i : x.u.i);
        return true;
    case LANG_FLOAT: *out = lang_float(fabs(x.u.f)); return true;
    default: break;
    }
    if (lang_tensor_of(x)) return call_method(vm, x, "abs", 0, NULL, out);
    return lang_raise(vm, LANG_ERR_TYPE, "bad operand type for abs(): '%s'", lang_type_name(x));
}

static bool b_round(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, nd = lang_none();
    if (!lang_parse_args(vm, a, "round", "number|ndigits", &x, &nd)) return false;
    if (lang_tensor_of(x)) {
        if (nd.kind == LANG_NONE) return call_method(vm, x, "round", 0, NULL, out);
        return call_method(vm, x, "round", 1, &nd, out);
    }
    if (x.kind == LANG_INT || x.kind == LANG_BOOL) {
        *out = lang_int(x.kind == LANG_INT ? x.u.i : x.u.b);
        if (nd.kind != LANG_NONE) {
            int64_t n;
            if (!lang_to_int(vm, nd, "ndigits", &n)) return false;
            if (n < 0 && n > -19) {
                int64_t p = 1;
                for (int64_t i = 0; i < -n; i++) p *= 10;
                int64_t v = out->u.i, q = v / p, r = v % p;
                if (r < 0) r += p, q -= 1;
                if (2 * r > p || (2 * r == p && (q & 1))) q += 1;
                *out = lang_int(q * p);
            } else if (n <= -19) {
                *out = lang_int(0);
            }
        }
        return true;
    }
    if (x.kind != LANG_FLOAT)
        return lang_raise(vm, LANG_ERR_TYPE, "type %s doesn't define __round__ method",
                          lang_type_name(x));
    double d = x.u.f;
    if (nd.kind == LANG_NONE) {
        if (isnan(d)) return lang_raise(vm, LANG_ERR_VALUE, "cannot convert float NaN to integer");
        if (isinf(d))
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "cannot convert float infinity to integer");
        double r = nearbyint(d); /* round half to even, as Python */
        if (fabs(r) >= 9.2233720368547758e18)
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "integer result does not fit in 64 bits");
        *out = lang_int((int64_t)r);
        return true;
    }
    int64_t n;
    if (!lang_to_int(vm, nd, "ndigits", &n)) return false;
    if (!isfinite(d) || n > 300) {
        *out = x;
        return true;
    }
    if (n < -308) {
        *out = lang_float(0.0 * d);
        return true;
    }
    if (n >= 0) {
        /* printf rounds the exact binary value half-to-even: Python's result. */
        char buf[512];
        snprintf(buf, sizeof buf, "%.*f", (int)n, d);
        *out = lang_float(strtod(buf, NULL));
    } else {
        double p = pow(10.0, (double)-n);
        double y = nearbyint(d / p) * p;
        *out = lang_float(y);
    }
    return true;
}

/* ---- conversions ---- */

static bool parse_int_text(lang_vm *vm, const char *s, int base, int64_t *out) {
    const char *p = s;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    bool neg = false;
    if (*p == '+' || *p == '-') neg = *p++ == '-';
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && (base == 0 || base == 16))
            p += 2, base = 16;
        else if (p[0] == '0' && (p[1] == 'o' || p[1] == 'O') && (base == 0 || base == 8))
            p += 2, base = 8;
        else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (base == 0 || base == 2))
            p += 2, base = 2;
        else if (base == 0)
            base = 10;
    }
    uint64_t v = 0;
    int digits = 0;
    bool last_us = false;
    for (; *p; p++) {
        int d;
        if (*p == '_' && digits && !last_us) {
            last_us = true;
            continue;
        }
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'z')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'Z')
            d = *p - 'A' + 10;
        else
            break;
        if (d >= base) break;
        last_us = false;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "int too large for 64 bits: '%s'", s);
        v = v * (uint64_t)base + (uint64_t)d;
        digits++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!digits || *p || last_us)
        return lang_raise(vm, LANG_ERR_VALUE, "invalid literal for int() with base %d: '%s'", base,
                          s);
    if (v > (uint64_t)INT64_MAX + (neg ? 1 : 0))
        return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                "int too large for 64 bits: '%s'", s);
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static bool b_int(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_int(0), basev = lang_none();
    if (!lang_parse_args(vm, a, "int", "|x,base", &x, &basev)) return false;
    if (basev.kind != LANG_NONE) {
        int64_t base;
        if (!lang_to_int(vm, basev, "base", &base)) return false;
        if (!is_str(x))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "int() can't convert non-string with explicit base");
        if (base != 0 && (base < 2 || base > 36))
            return lang_raise(vm, LANG_ERR_VALUE, "int() base must be >= 2 and <= 36, or 0");
        int64_t v;
        if (!parse_int_text(vm, lang_str_cstr(x), (int)base, &v)) return false;
        *out = lang_int(v);
        return true;
    }
    switch (x.kind) {
    case LANG_BOOL: *out = lang_int(x.u.b); return true;
    case LANG_INT: *out = x; return true;
    case LANG_FLOAT:
        if (isnan(x.u.f))
            return lang_raise(vm, LANG_ERR_VALUE, "cannot convert float NaN to integer");
        if (isinf(x.u.f))
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "cannot convert float infinity to integer");
        if (fabs(x.u.f) >= 9.2233720368547758e18)
            return lang_raise_named(vm, LANG_ERR_VALUE, "OverflowError",
                                    "int too large for 64 bits");
        *out = lang_int((int64_t)x.u.f);
        return true;
    default: break;
    }
    if (is_str(x)) {
        int64_t v;
        if (!parse_int_text(vm, lang_str_cstr(x), 10, &v)) return false;
        *out = lang_int(v);
        return true;
    }
    nn_tensor *t = lang_tensor_of(x);
    if (t) {
        double d;
        if (nn_tensor_numel(t) != 1)
            return lang_raise(vm, LANG_ERR_VALUE,
                              "only one element tensors can be converted to Python scalars");
        if (nn_tensor_item(vm->ctx, t, &d) != NN_OK) return lang_raise_engine(vm);
        lang_val f = lang_float(d);
        lang_args a2 = {1, &f, 0, NULL, NULL};
        return b_int(vm, &a2, out);
    }
    return lang_raise(vm, LANG_ERR_TYPE,
                      "int() argument must be a string, a number or a tensor, not '%s'",
                      lang_type_name(x));
}

static bool b_float(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_float(0);
    if (!lang_parse_args(vm, a, "float", "|x", &x)) return false;
    if (is_str(x)) {
        const char *s = lang_str_cstr(x);
        char buf[128];
        size_t k = 0;
        const char *p = s;
        while (*p == ' ' || *p == '\t' || *p == '\n') p++;
        for (; *p && k < sizeof buf - 1; p++)
            if (*p != '_') buf[k++] = *p;
        while (k && (buf[k - 1] == ' ' || buf[k - 1] == '\t' || buf[k - 1] == '\n')) k--;
        buf[k] = 0;
        char *end;
        double d = strtod(buf, &end);
        bool hex = strchr(buf, 'x') || strchr(buf, 'X');
        if (!k || *end || hex || *p)
            return lang_raise(vm, LANG_ERR_VALUE, "could not convert string to float: '%s'", s);
        *out = lang_float(d);
        return true;
    }
    double d;
    if (lang_tensor_of(x) && nn_tensor_numel(lang_tensor_of(x)) != 1)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "only one element tensors can be converted to Python scalars");
    if (x.kind == LANG_OBJ && !lang_tensor_of(x))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "float() argument must be a string or a real number, not '%s'",
                          lang_type_name(x));
    if (!lang_to_float(vm, x, "float() argument", &d)) return false;
    *out = lang_float(d);
    return true;
}

static bool b_str(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    bool has = a->n > 0;
    if (!lang_parse_args(vm, a, "str", "|object", &x)) return false;
    if (!has) return lang_str_new(vm, "", 0, out);
    if (is_str(x)) {
        *out = lang_val_retain(x);
        return true;
    }
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_str(vm, x, &b)) {
        lang_buf_free(&b);
        return false;
    }
    bool ok = lang_str_new(vm, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return ok;
}

static bool b_repr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "repr", "obj", &x)) return false;
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_repr(vm, x, &b)) {
        lang_buf_free(&b);
        return false;
    }
    bool ok = lang_str_new(vm, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return ok;
}

static bool b_bool(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_bool(false);
    bool t;
    if (!lang_parse_args(vm, a, "bool", "|x", &x)) return false;
    if (!lang_truth(vm, x, &t)) return false;
    *out = lang_bool(t);
    return true;
}

static bool b_list(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none();
    bool has = a->n > 0;
    if (!lang_parse_args(vm, a, "list", "|iterable", &x)) return false;
    if (!has) return lang_list_new(vm, 0, out);
    return lang_list_from_iter(vm, x, out);
}

static bool b_tuple(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none();
    bool has = a->n > 0;
    if (!lang_parse_args(vm, a, "tuple", "|iterable", &x)) return false;
    if (!has) return lang_tuple_new(vm, 0, out);
    if (lang_is_obj(x, &lang_tuple_type)) {
        *out = lang_val_retain(x);
        return true;
    }
    lang_val list;
    if (!lang_list_from_iter(vm, x, &list)) return false;
    bool ok = lang_tuple_pack(vm, (int)lang_seq_len(list), lang_seq_items(list), out);
    lang_val_release(list);
    return ok;
}

static bool b_dict(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_dict_new(vm, out)) return false;
    if (!lang_dict_update(vm, *out, a)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool b_sorted(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val src, key = lang_none(), rev = lang_bool(false);
    bool reverse;
    if (a->n > 1) return lang_raise(vm, LANG_ERR_TYPE, "sorted expected 1 argument, got %d", a->n);
    if (!lang_parse_args(vm, a, "sorted", "iterable|key,reverse", &src, &key, &rev)) return false;
    if (!lang_to_bool(vm, rev, "reverse", &reverse)) return false;
    if (!lang_list_from_iter(vm, src, out)) return false;
    if (!lang_sort_list(vm, *out, key, reverse)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

static bool b_reversed(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "reversed", "sequence", &x)) return false;
    if (lang_is_obj(x, &lang_dict_type) || x.kind != LANG_OBJ || !x.u.o->type->iter)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not reversible", lang_type_name(x));
    return lang_reversed_new(vm, x, out);
}

static bool b_any_all(lang_vm *vm, const lang_args *a, lang_val *out, bool any) {
    lang_val src, it;
    if (!lang_parse_args(vm, a, any ? "any" : "all", "iterable", &src)) return false;
    if (!lang_iter(vm, src, &it)) return false;
    bool result = !any;
    for (;;) {
        lang_val x;
        bool done, t;
        if (!lang_next(vm, it, &x, &done)) {
            lang_val_release(it);
            return false;
        }
        if (done) break;
        bool ok = lang_truth(vm, x, &t);
        lang_val_release(x);
        if (!ok) {
            lang_val_release(it);
            return false;
        }
        if (t == any) {
            result = any;
            break;
        }
        if (lang_vm_interrupted(vm)) {
            lang_val_release(it);
            return false;
        }
    }
    lang_val_release(it);
    *out = lang_bool(result);
    return true;
}
static bool b_any(lang_vm *vm, const lang_args *a, lang_val *out) {
    return b_any_all(vm, a, out, true);
}
static bool b_all(lang_vm *vm, const lang_args *a, lang_val *out) {
    return b_any_all(vm, a, out, false);
}

/* ---- types ---- */

static bool class_match(lang_vm *vm, lang_val v, lang_val cls, bool *out) {
    if (lang_is_obj(cls, &lang_typeobj_type)) {
        *out = lang_isinstance(v, (const lang_typeobj *)cls.u.o);
        return true;
    }
    if (lang_is_obj(cls, &lang_tuple_type)) {
        *out = false;
        for (int64_t i = 0; i < lang_seq_len(cls) && !*out; i++)
            if (!class_match(vm, v, lang_seq_items(cls)[i], out)) return false;
        return true;
    }
    /* A constructor function of another family (Linear, Tensor): match by
     * the name it builds. */
    const lang_help *h = lang_val_help(vm, cls);
    if (lang_is_obj(cls, &lang_builtin_type) && h && h->name) {
        *out = !strcmp(h->name, lang_type_name(v));
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "isinstance() arg 2 must be a type or tuple of types");
}

static bool b_isinstance(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, cls;
    bool r;
    if (!lang_parse_args(vm, a, "isinstance", "obj,class_or_tuple", &x, &cls)) return false;
    if (!class_match(vm, x, cls, &r)) return false;
    *out = lang_bool(r);
    return true;
}

static bool b_type(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "type", "object", &x)) return false;
    /* The core classes are the globals' builtins, so type(1) == int holds. */
    const char *name = NULL;
    switch (x.kind) {
    case LANG_NONE: return lang_typeobj_new(vm, "NoneType", LANG_NONE, NULL, NULL, NULL, out);
    case LANG_BOOL: name = "bool"; break;
    case LANG_INT: name = "int"; break;
    case LANG_FLOAT: name = "float"; break;
    case LANG_OBJ: {
        const lang_type *t = x.u.o->type;
        if (t == &lang_instance_type) {
            *out = lang_val_retain(lang_obj_val(&lang_instance_of_val(x)->cls->hdr));
            return true;
        }
        bool found = false;
        if (!lang_import_torch_class(vm, t, out, &found)) return false;
        if (found) return true;
        if (t == &lang_str_type)
            name = "str";
        else if (t == &lang_list_type)
            name = "list";
        else if (t == &lang_tuple_type)
            name = "tuple";
        else if (t == &lang_dict_type)
            name = "dict";
        else if (t == &lang_range_type)
            name = "range";
        break;
    }
    }
    if (name) {
        lang_global *g = NULL;
        lang_val *gv = NULL;
        (void)g;
        for (int64_t k = 0; k < vm->n_globals; k++)
            if (!strcmp(vm->globals[k].name, name) && vm->globals[k].has_builtin)
                gv = &vm->globals[k].builtin;
        if (gv && lang_is_obj(*gv, &lang_typeobj_type)) {
            *out = lang_val_retain(*gv);
            return true;
        }
    }
    const lang_type *t = x.u.o->type;
    const char *tn = t == &lang_tensor_type ? "torch.Tensor" : lang_type_name(x);
    return lang_typeobj_new(vm, tn, LANG_OBJ, t, NULL, t->help, out);
}

static bool b_callable(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "callable", "obj", &x)) return false;
    *out = lang_bool(x.kind == LANG_OBJ && x.u.o->type->call);
    return true;
}

static bool b_getattr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, name, def;
    if (!lang_parse_args(vm, a, "getattr", "object,name|default", &x, &name, &def)) return false;
    if (!is_str(name))
        return lang_raise(vm, LANG_ERR_TYPE, "attribute name must be string, not '%s'",
                          lang_type_name(name));
    if (lang_getattr(vm, x, lang_str_cstr(name), out)) return true;
    if (a->n < 3 || vm->err != LANG_ERR_ATTRIBUTE) return false;
    lang_vm_clear_error(vm);
    *out = lang_val_retain(def);
    return true;
}

static bool b_hasattr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, name, v;
    if (!lang_parse_args(vm, a, "hasattr", "obj,name", &x, &name)) return false;
    if (!is_str(name))
        return lang_raise(vm, LANG_ERR_TYPE, "attribute name must be string, not '%s'",
                          lang_type_name(name));
    if (lang_getattr(vm, x, lang_str_cstr(name), &v)) {
        lang_val_release(v);
        *out = lang_bool(true);
        return true;
    }
    if (vm->err != LANG_ERR_ATTRIBUTE) return false;
    lang_vm_clear_error(vm);
    *out = lang_bool(false);
    return true;
}

static bool b_setattr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, name, v;
    if (!lang_parse_args(vm, a, "setattr", "obj,name,value", &x, &name, &v)) return false;
    if (!is_str(name))
        return lang_raise(vm, LANG_ERR_TYPE, "attribute name must be string, not '%s'",
                          lang_type_name(name));
    if (!lang_setattr(vm, x, lang_str_cstr(name), v)) return false;
    *out = lang_none();
    return true;
}

static bool b_format(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, spec = lang_none();
    if (!lang_parse_args(vm, a, "format", "value|format_spec", &x, &spec)) return false;
    if (spec.kind != LANG_NONE && !is_str(spec))
        return lang_raise(vm, LANG_ERR_TYPE, "format() argument 2 must be str, not %s",
                          lang_type_name(spec));
    lang_buf b;
    lang_buf_init(&b);
    const char *s = spec.kind == LANG_NONE ? "" : lang_str_cstr(spec);
    if (!lang_format_value(vm, x, s, strlen(s), &b)) {
        lang_buf_free(&b);
        return false;
    }
    bool ok = lang_str_new(vm, b.data ? b.data : "", b.len, out);
    lang_buf_free(&b);
    return ok;
}

static bool b_chr(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    int64_t c;
    if (!lang_parse_args(vm, a, "chr", "i", &x) || !lang_to_int(vm, x, "chr() argument", &c))
        return false;
    if (c < 0 || c > 0x10FFFF)
        return lang_raise(vm, LANG_ERR_VALUE, "chr() arg not in range(0x110000)");
    lang_buf b;
    lang_buf_init(&b);
    lang_val iv = lang_int(c);
    bool ok = lang_format_value(vm, iv, "c", 1, &b) && lang_str_new(vm, b.data, b.len, out);
    lang_buf_free(&b);
    return ok;
}

static bool b_ord(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    if (!lang_parse_args(vm, a, "ord", "c", &x)) return false;
    if (!is_str(x) || lang_str_len(x) != 1)
        return lang_raise(vm, LANG_ERR_TYPE, "ord() expected a character");
    const unsigned char *s = (const unsigned char *)lang_str_cstr(x);
    int64_t c = s[0];
    if (c >= 0xF0)
        c = ((c & 7) << 18) | ((s[1] & 63) << 12) | ((s[2] & 63) << 6) | (s[3] & 63);
    else if (c >= 0xE0)
        c = ((c & 15) << 12) | ((s[1] & 63) << 6) | (s[2] & 63);
    else if (c >= 0xC0)
        c = ((c & 31) << 6) | (s[1] & 63);
    *out = lang_int(c);
    return true;
}

static bool b_pow(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y;
    if (!lang_parse_args(vm, a, "pow", "base,exp", &x, &y)) return false;
    return lang_binary(vm, LANG_OP_POW, x, y, out);
}

static bool b_divmod(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, r[2];
    if (!lang_parse_args(vm, a, "divmod", "x,y", &x, &y)) return false;
    if (!lang_binary(vm, LANG_OP_FLOORDIV, x, y, &r[0])) return false;
    if (!lang_binary(vm, LANG_OP_MOD, x, y, &r[1])) {
        lang_val_release(r[0]);
        return false;
    }
    bool ok = lang_tuple_pack(vm, 2, r, out);
    lang_val_release(r[0]);
    lang_val_release(r[1]);
    return ok;
}

/* ---- interaction ---- */

static bool b_input(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val prompt = lang_none();
    if (!lang_parse_args(vm, a, "input", "|prompt", &prompt)) return false;
    lang_buf p;
    lang_buf_init(&p);
    if (prompt.kind != LANG_NONE && !lang_str(vm, prompt, &p)) {
        lang_buf_free(&p);
        return false;
    }
    char *line;
    bool ok = lang_vm_readline(vm, p.data ? p.data : "", false, &line);
    lang_buf_free(&p);
    if (!ok) return false;
    ok = lang_str_from_cstr(vm, line, out);
    free(line);
    return ok;
}

/* [text] as lines of at most [width] columns after a 4-space indent,
 * broken between words only (a word longer than the line stays whole). */
static void wrap_indented(lang_buf *out, const char *text, int width) {
    int col = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t n = strcspn(p, " \n");
        int w = 0; /* columns: UTF-8 continuation bytes take none */
        for (size_t i = 0; i < n; i++) w += ((unsigned char)p[i] & 0xC0) != 0x80;
        if (col > 0 && col + 1 + w > width) {
            lang_buf_puts(out, "\n");
            col = 0;
        }
        lang_buf_puts(out, col ? " " : "    ");
        lang_buf_add(out, p, n);
        col += (col ? 1 : 0) + w;
        p += n;
        if (*p == '\n') {
            lang_buf_puts(out, "\n");
            col = 0;
            p++;
        }
    }
    lang_buf_puts(out, "\n");
}

/* The terminal's width as readline exports it (COLUMNS; the REPL's
 * readline sets it and keeps it current), less the indent and a margin; 0
 * where no terminal said (a notebook, a script's output): no wrapping,
 * the viewer wraps. */
static int help_width(void) {
    const char *c = getenv("COLUMNS");
    int w = c ? atoi(c) : 0;
    if (w <= 0) return 0;
    w -= 5;
    return w < 30 ? 30 : w;
}

void lang_help_format(const lang_help *h, lang_buf *out) {
    lang_buf_printf(out, "%s\n", h->signature ? h->signature : h->name);
    int width = help_width();
    if (h->doc && *h->doc && width) {
        lang_buf_puts(out, "\n");
        wrap_indented(out, h->doc, width);
    } else if (h->doc && *h->doc) {
        lang_buf_printf(out, "\n    %s\n", h->doc);
    }
    if (h->example && *h->example) lang_buf_printf(out, "\n    Example:\n        %s\n", h->example);
}

static const char general_help[] =
    "nndb: a debugger and drill book for neural-network training.\n"
    "The language is a small Python with PyTorch's names: tensors, modules, losses and\n"
    "optimizers work as in torch.\n\n"
    "    help(name)      the help of a builtin, a method (help('Tensor.sum')) or a value\n"
    "    dir(value)      the attributes and methods of a value\n"
    "    %help           the magics (%who, %time, %seed, %load, ...)\n";

static bool b_help(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none();
    bool has = a->n > 0;
    if (!lang_parse_args(vm, a, "help", "|obj", &x)) return false;
    lang_buf b;
    lang_buf_init(&b);
    *out = lang_none();
    if (!has) {
        lang_buf_puts(&b, general_help);
    } else if (is_str(x)) {
        const lang_help *h = lang_vm_help(vm, lang_str_cstr(x));
        if (!h) {
            lang_val *g = lang_vm_global(vm, lang_str_cstr(x));
            if (g) return b_help(vm, &(lang_args){1, g, 0, NULL, NULL}, out);
            lang_buf_free(&b);
            return lang_raise(vm, LANG_ERR_NAME, "no help for '%s'; try dir() or %%help",
                              lang_str_cstr(x));
        }
        lang_help_format(h, &b);
    } else if (lang_is_obj(x, &lang_func_type)) {
        char sig[512];
        const char *file;
        int line;
        lang_func_info(vm, x, sig, sizeof sig, &file, &line);
        lang_buf_printf(&b, "%s\n\n    defined at %s:%d\n", sig, file ? file : "?", line);
    } else {
        const lang_help *h = lang_val_help(vm, x);
        if (h) {
            lang_help_format(h, &b);
        } else {
            lang_buf_printf(&b, "%s object\n", lang_type_name(x));
            const char **names = lang_dir(vm, x);
            if (names && names[0]) {
                lang_buf_puts(&b, "\n    attributes and methods:");
                for (int i = 0; names[i]; i++)
                    lang_buf_printf(&b, "%s%s", i % 6 ? ", " : "\n        ", names[i]);
                lang_buf_puts(&b, "\n");
            }
            free(names);
        }
    }
    lang_vm_write(vm, LANG_STDOUT, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
    return true;
}

static int cmp_cstr(const void *x, const void *y) {
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

static bool b_dir(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x;
    bool has = a->n > 0;
    if (!lang_parse_args(vm, a, "dir", "|obj", &x)) return false;
    const char **names;
    size_t n = 0;
    if (!has) {
        names = malloc(sizeof *names * (size_t)(vm->n_globals + 1));
        if (!names) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t k = 0; k < vm->n_globals; k++)
            if (vm->globals[k].set) names[n++] = vm->globals[k].name;
        /* The builtins are not listed (there are hundreds): say where they are. */
        static const char hint[] = "(your variables; dir(__builtins__) lists the builtins)\n";
        lang_vm_write(vm, LANG_STDOUT, hint, sizeof hint - 1);
    } else {
        names = lang_dir(vm, x);
        if (!names) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        while (names[n]) n++;
    }
    qsort(names, n, sizeof *names, cmp_cstr);
    bool ok = lang_list_new(vm, 0, out);
    for (size_t i = 0; ok && i < n; i++) {
        if (i && !strcmp(names[i], names[i - 1])) continue;
        lang_val s;
        ok = lang_str_from_cstr(vm, names[i], &s);
        if (ok) {
            ok = lang_list_append(vm, *out, s);
            lang_val_release(s);
        }
        if (!ok) lang_val_release(*out);
    }
    free(names);
    return ok;
}

static bool b_exit(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val code = lang_int(0);
    if (!lang_parse_args(vm, a, "exit", "|code", &code)) return false;
    int64_t c = 0;
    if (code.kind == LANG_INT || code.kind == LANG_BOOL)
        c = code.kind == LANG_INT ? code.u.i : code.u.b;
    else if (code.kind != LANG_NONE)
        c = 1;
    vm->exit_requested = true;
    vm->exit_code = (int)c;
    return lang_raise_named(vm, LANG_ERR_STOPPED, "SystemExit", "%" PRId64, c);
}

/* ---- torch-like state: grad mode (the generator is lang_generator.c's) ---- */

typedef struct grad_mode_obj {
    lang_obj hdr;
    bool enabled; /* the mode inside the block */
    bool prev;    /* restored on exit */
} grad_mode_obj;

static bool m_gm_enter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    grad_mode_obj *g = (grad_mode_obj *)self.u.o;
    if (self.u.o->type == &lang_no_grad_type) g->prev = nn_ctx_set_grad(vm->ctx, g->enabled);
    *out = lang_none();
    return true;
}

static bool m_gm_exit(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    grad_mode_obj *g = (grad_mode_obj *)self.u.o;
    nn_ctx_set_grad(vm->ctx, g->prev);
    *out = lang_none();
    return true;
}

static const lang_method gm_methods[] = {
    {"__enter__",
     m_gm_enter,
     {"no_grad.__enter__", "__enter__()", "Enter the block: set the grad mode.", ""}},
    {"__exit__",
     m_gm_exit,
     {"no_grad.__exit__", "__exit__(*exc)", "Leave the block: restore the grad mode.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool gm_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<torch.autograd.grad_mode.%s object at %p>",
                    o->type == &lang_no_grad_type ? "no_grad" : "set_grad_enabled", (void *)o);
    return true;
}

/* @torch.no_grad() on a function: the function runs with the mode set. */
typedef struct gm_wrap_obj {
    lang_obj hdr;
    lang_val fn;
    bool enabled;
} gm_wrap_obj;

static void gm_wrap_free(lang_obj *o) {
    lang_val_release(((gm_wrap_obj *)o)->fn);
}

static bool gm_wrap_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    gm_wrap_obj *w = (gm_wrap_obj *)o;
    bool prev = nn_ctx_set_grad(vm->ctx, w->enabled);
    bool ok = lang_call(vm, w->fn, a, out);
    nn_ctx_set_grad(vm->ctx, prev);
    return ok;
}

static bool gm_wrap_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    *found = lang_getattr(vm, ((gm_wrap_obj *)o)->fn, name, out);
    return *found;
}

static bool gm_wrap_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    return lang_repr(vm, ((gm_wrap_obj *)o)->fn, out);
}

const lang_type lang_grad_wrap_type = {
    .name = "function",
    .free = gm_wrap_free,
    .repr = gm_wrap_repr,
    .getattr = gm_wrap_getattr,
    .call = gm_wrap_call,
};

static bool gm_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_val fn;
    if (!lang_parse_args(vm, a, "no_grad", "func", &fn)) return false;
    if (fn.kind != LANG_OBJ || !fn.u.o->type->call)
        return lang_raise(vm, LANG_ERR_TYPE, "no_grad() decorates a function, not %s",
                          lang_type_name(fn));
    gm_wrap_obj *w = lang_obj_new(vm, &lang_grad_wrap_type, sizeof *w);
    if (!w) return false;
    w->fn = lang_val_retain(fn);
    w->enabled = ((grad_mode_obj *)o)->enabled;
    *out = lang_obj_val(&w->hdr);
    return true;
}

const lang_type lang_no_grad_type = {
    .name = "no_grad",
    .repr = gm_repr,
    .call = gm_call,
    .methods = gm_methods,
};
const lang_type lang_grad_mode_type = {
    .name = "set_grad_enabled",
    .repr = gm_repr,
    .methods = gm_methods,
};

static bool b_no_grad(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "no_grad", "")) return false;
    grad_mode_obj *g = lang_obj_new(vm, &lang_no_grad_type, sizeof *g);
    if (!g) return false;
    g->enabled = false;
    g->prev = vm->ctx->grad_enabled;
    *out = lang_obj_val(&g->hdr);
    return true;
}

/* vars(obj): obj.__dict__ (instances, argparse's Namespace, modules). */
static bool b_vars(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val obj;
    if (!lang_parse_args(vm, a, "vars", "object", &obj)) return false;
    if (lang_getattr(vm, obj, "__dict__", out)) return true;
    lang_vm_clear_error(vm);
    return lang_raise(vm, LANG_ERR_TYPE, "vars() argument must have __dict__ attribute");
}

/* torch.set_printoptions: how tensors print in this session. */
static bool b_set_printoptions(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pv = lang_none(), tv = lang_none(), ev = lang_none(), lv = lang_none(),
             prof = lang_none(), sv = lang_none();
    if (!lang_parse_args(vm, a, "set_printoptions",
                         "|precision,threshold,edgeitems,linewidth,profile,sci_mode", &pv, &tv, &ev,
                         &lv, &prof, &sv))
        return false;
    nn_print_opts o = vm->print_opts;
    if (prof.kind != LANG_NONE) {
        const char *p = lang_is_obj(prof, &lang_str_type) ? lang_str_cstr(prof) : "";
        if (!strcmp(p, "default"))
            o = nn_print_opts_default;
        else if (!strcmp(p, "short"))
            o.precision = 2, o.threshold = 1000, o.edgeitems = 2, o.linewidth = 80;
        else if (!strcmp(p, "full"))
            o.precision = 4, o.threshold = INT64_MAX, o.edgeitems = 3, o.linewidth = 80;
        else
            return lang_raise(vm, LANG_ERR_VALUE,
                              "set_printoptions: profile must be 'default', 'short' or 'full'");
    }
    int64_t v;
    if (pv.kind != LANG_NONE) {
        if (!lang_to_int(vm, pv, "precision", &v)) return false;
        if (v < 0 || v > 30)
            return lang_raise(vm, LANG_ERR_VALUE, "set_printoptions: precision must be 0..30");
        o.precision = (int)v;
    }
    if (tv.kind != LANG_NONE) {
        double d;
        if (!lang_to_float(vm, tv, "threshold", &d)) return false;
        o.threshold = d >= 9.2e18 ? INT64_MAX : (int64_t)d;
    }
    if (ev.kind != LANG_NONE) {
        if (!lang_to_int(vm, ev, "edgeitems", &v)) return false;
        if (v < 1 || v > 1000)
            return lang_raise(vm, LANG_ERR_VALUE, "set_printoptions: edgeitems must be 1..1000");
        o.edgeitems = (int)v;
    }
    if (lv.kind != LANG_NONE) {
        if (!lang_to_int(vm, lv, "linewidth", &v)) return false;
        if (v < 1 || v > 100000)
            return lang_raise(vm, LANG_ERR_VALUE, "set_printoptions: linewidth must be 1..100000");
        o.linewidth = (int)v;
    }
    if (sv.kind != LANG_NONE) {
        bool b;
        if (!lang_to_bool(vm, sv, "sci_mode", &b)) return false;
        o.sci_mode = b ? 1 : 2;
    } else {
        o.sci_mode = 0; /* torch sets sci_mode on every call */
    }
    vm->print_opts = o;
    *out = lang_none();
    return true;
}

static bool b_enable_grad(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "enable_grad", "")) return false;
    grad_mode_obj *g = lang_obj_new(vm, &lang_no_grad_type, sizeof *g);
    if (!g) return false;
    g->enabled = true;
    g->prev = vm->ctx->grad_enabled;
    *out = lang_obj_val(&g->hdr);
    return true;
}

static bool b_set_grad_enabled(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val m;
    bool mode;
    if (!lang_parse_args(vm, a, "set_grad_enabled", "mode", &m) ||
        !lang_to_bool(vm, m, "mode", &mode))
        return false;
    /* As torch: the mode changes now; used in `with`, the block's end restores it. */
    grad_mode_obj *g = lang_obj_new(vm, &lang_grad_mode_type, sizeof *g);
    if (!g) return false;
    g->enabled = mode;
    g->prev = nn_ctx_set_grad(vm->ctx, mode);
    *out = lang_obj_val(&g->hdr);
    return true;
}

static bool b_is_grad_enabled(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_grad_enabled", "")) return false;
    *out = lang_bool(vm->ctx->grad_enabled);
    return true;
}

/* ---- the table ---- */

#define B(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            n, sig, doc, ex                                                                        \
        }                                                                                          \
    }
const lang_builtin_def lang_core_builtins[] = {
    B("print", b_print, "print(*values, sep=' ', end='\\n')",
      "Write the values' str() forms separated by [sep] and followed by [end].",
      "print('loss', 0.25, sep=': ')"),
    B("len", b_len, "len(obj)",
      "The number of items of a str, list, tuple, dict, range or tensor (its first dimension).",
      "len([1, 2, 3])"),
    B("range", b_range, "range(stop) or range(start, stop, step=1)",
      "The integers from [start] up to but not including [stop], by [step]; loops over a range "
      "allocate nothing.",
      "list(range(2, 10, 3))"),
    B("enumerate", b_enumerate, "enumerate(iterable, start=0)",
      "Pairs (index, item) over an iterable.", "for i, x in enumerate(['a', 'b']): print(i, x)"),
    B("zip", b_zip, "zip(*iterables)",
      "Tuples of the items at the same position, up to the shortest iterable.",
      "list(zip([1, 2], 'ab'))"),
    B("sum", b_sum, "sum(iterable, start=0)",
      "The total of the items, added to [start] with +, so tensors add up as tensors.",
      "sum([1, 2, 3])"),
    B("min", b_min, "min(iterable, *, key=None, default=...) or min(a, b, ...)",
      "The smallest item; [key] maps items to what is compared.", "min([3, 1, 2])"),
    B("max", b_max, "max(iterable, *, key=None, default=...) or max(a, b, ...)",
      "The largest item; [key] maps items to what is compared.",
      "max(['a', 'bbb', 'cc'], key=len)"),
    B("abs", b_abs, "abs(x)", "The absolute value of a number, or elementwise of a tensor.",
      "abs(-3)"),
    B("round", b_round, "round(number, ndigits=None)",
      "Round half to even, to an int when [ndigits] is None, else to a float with [ndigits] "
      "decimals.",
      "round(2.675, 2)"),
    B("int", b_int, "int(x=0, base=10)",
      "An int from a number (truncated), a string, or a one-element tensor.",
      "int('42') + int(3.9)"),
    B("float", b_float, "float(x=0.0)",
      "A float from a number, a string ('1e-3', 'inf', 'nan') or a one-element tensor.",
      "float('1e-3')"),
    B("str", b_str, "str(object='')", "The printable form of a value.", "str(0.1) + '!'"),
    B("bool", b_bool, "bool(x=False)",
      "The truth of a value: 0, 0.0, '', empty containers and None are false.", "bool([])"),
    B("list", b_list, "list(iterable=())", "A new list of the items of an iterable.",
      "list('abc')"),
    B("tuple", b_tuple, "tuple(iterable=())", "A new tuple of the items of an iterable.",
      "tuple([1, 2])"),
    B("dict", b_dict, "dict(mapping_or_pairs=(), **kwargs)",
      "A new dict from a mapping, (key, value) pairs, or keyword arguments.",
      "dict(lr=0.1, steps=100)"),
    B("sorted", b_sorted, "sorted(iterable, *, key=None, reverse=False)",
      "A new sorted list (stable).", "sorted([3, 1, 2], reverse=True)"),
    B("reversed", b_reversed, "reversed(sequence)", "An iterator over a sequence from the end.",
      "list(reversed([1, 2, 3]))"),
    B("isinstance", b_isinstance, "isinstance(obj, class_or_tuple)",
      "Whether [obj] is of the class (int, float, str, list, tuple, dict, Tensor, Linear, ...).",
      "isinstance(3, int)"),
    B("type", b_type, "type(object)", "The class of a value.", "type(0.5)"),
    B("callable", b_callable, "callable(obj)", "Whether [obj] can be called.", "callable(print)"),
    B("getattr", b_getattr, "getattr(object, name, default)",
      "The attribute [name] of [object], or [default] when it has none.", "getattr([], 'append')"),
    B("hasattr", b_hasattr, "hasattr(obj, name)", "Whether [obj] has the attribute [name].",
      "hasattr('x', 'upper')"),
    B("setattr", b_setattr, "setattr(obj, name, value)", "Set the attribute [name] of [obj].",
      "setattr(obj, 'lr', 0.1)"),
    B("repr", b_repr, "repr(obj)",
      "The text that shows the value as in the REPL ('a' with quotes).", "repr('a')"),
    B("format", b_format, "format(value, format_spec='')",
      "Format one value as an f-string field does.", "format(3.14159, '.2f')"),
    B("chr", b_chr, "chr(i)", "The one-character string of a Unicode code point.", "chr(65)"),
    B("ord", b_ord, "ord(c)", "The Unicode code point of a one-character string.", "ord('A')"),
    B("pow", b_pow, "pow(base, exp)", "base ** exp.", "pow(2, 10)"),
    B("divmod", b_divmod, "divmod(x, y)", "(x // y, x % y).", "divmod(7, 2)"),
    B("any", b_any, "any(iterable)", "Whether any item is true.", "any([0, 1])"),
    B("all", b_all, "all(iterable)", "Whether every item is true.", "all([1, 1])"),
    B("input", b_input, "input(prompt='')",
      "A line read from the user (the terminal, or the notebook's input box).",
      "name = input('name? ')"),
    B("help", b_help, "help(obj)",
      "Print the help of a builtin, a method ('Tensor.sum'), a function or a value.", "help(len)"),
    B("dir", b_dir, "dir(obj)",
      "The sorted names of a value's attributes and methods; without an argument, the session's "
      "variables (dir(__builtins__): the builtins).",
      "dir('')"),
    B("exit", b_exit, "exit(code=0)",
      "Leave nndb (the REPL ends; in a notebook the kernel asks to stop).", "exit()"),
    B("quit", b_exit, "quit(code=0)", "Leave nndb; the same as exit().", "quit()"),
    B("no_grad", b_no_grad, "no_grad()",
      "A context manager under which no autograd graph is recorded (parameter updates, "
      "evaluation).",
      "with no_grad():\n    w -= 0.1 * w.grad"),
    B("vars", b_vars, "vars(object)", "The object's attributes as a dict (its __dict__).",
      "vars(args)"),
    B("set_printoptions", b_set_printoptions,
      "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, "
      "profile=None, sci_mode=None)",
      "How tensors print in this session, as torch.set_printoptions: digits after the point, "
      "the element count above which a tensor is summarised, the items kept at each edge, the "
      "line width, a profile ('default', 'short', 'full'), and scientific notation forced on or "
      "off (None: torch's choice).",
      "set_printoptions(precision=2)"),
    B("enable_grad", b_enable_grad, "enable_grad()",
      "A context manager (or decorator) that turns gradient recording on inside its block.",
      "with enable_grad():\n    y = x * 2"),
    B("set_grad_enabled", b_set_grad_enabled, "set_grad_enabled(mode)",
      "Turn gradient recording on or off now; as a context manager, the old mode comes back at the "
      "block's end.",
      "with set_grad_enabled(False):\n    y = model(x)"),
    B("is_grad_enabled", b_is_grad_enabled, "is_grad_enabled()",
      "Whether operations record the autograd graph now.", "is_grad_enabled()"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef B

/* The conversions are classes in Python: int, float, ... print as <class
 * 'int'> and work with isinstance and type(x) == int. */
bool lang_core_install(lang_vm *vm) {
    static const struct {
        const char *name;
        lang_kind kind;
        const lang_type *t;
    } classes[] = {
        {"int", LANG_INT, NULL},
        {"float", LANG_FLOAT, NULL},
        {"bool", LANG_BOOL, NULL},
        {"str", LANG_OBJ, &lang_str_type},
        {"list", LANG_OBJ, &lang_list_type},
        {"tuple", LANG_OBJ, &lang_tuple_type},
        {"dict", LANG_OBJ, &lang_dict_type},
        {"range", LANG_OBJ, &lang_range_type},
    };
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        const lang_builtin_def *d = NULL;
        for (const lang_builtin_def *e = lang_core_builtins; e->name; e++)
            if (!strcmp(e->name, classes[i].name)) d = e;
        if (!d) continue;
        lang_val cls;
        if (!lang_typeobj_new(vm, classes[i].name, classes[i].kind, classes[i].t, d->fn, &d->help,
                              &cls))
            return false;
        bool ok = lang_vm_set_builtin(vm, classes[i].name, cls);
        lang_val_release(cls);
        if (!ok) return false;
    }
    return true;
}
