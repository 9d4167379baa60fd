/* lang_usermod: torch.nn.Module subclasses, nn.Parameter, and the
 * containers ModuleList, ModuleDict and Sequential when they hold user
 * modules (see lang_usermod.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_ast.h"
#include "lang_class.h"
#include "lang_eval.h"
#include "lang_loader.h"
#include "lang_nn.h"
#include "lang_tensor.h"
#include "lang_usermod.h"
#include "lang_value_impl.h"
#include "nn_ctx.h"
#include "nn_graph.h"
#include "nn_ops.h"

/* ------------------------------------------------------------------ state */

typedef struct modstate {
    lang_ns params, buffers, modules; /* in registration order; values may be None */
    lang_ns nonpersistent;            /* buffer names left out of state_dict */
    bool training;
    lang_val pre_hooks, hooks; /* lists of (id, fn) tuples, or None */
    lang_val bw_hooks;         /* register_full_backward_hook's, the same way */
} modstate;

static void state_free(void *p) {
    modstate *st = p;
    lang_ns_clear(&st->params);
    lang_ns_clear(&st->buffers);
    lang_ns_clear(&st->modules);
    lang_ns_clear(&st->nonpersistent);
    lang_val_release(st->pre_hooks);
    lang_val_release(st->hooks);
    lang_val_release(st->bw_hooks);
    free(st);
}

static modstate *ST(lang_val self) {
    if (!lang_is_instance(self)) return NULL;
    lang_instance *i = lang_instance_of_val(self);
    return i->cls->flags & LANG_CLASS_MODULE ? i->state : NULL;
}

bool lang_usermod_init(lang_vm *vm, lang_val self) {
    modstate *st = calloc(1, sizeof *st);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    st->training = true;
    st->pre_hooks = st->hooks = st->bw_hooks = lang_none();
    lang_instance *i = lang_instance_of_val(self);
    i->state = st;
    i->state_free = state_free;
    return true;
}

static uint32_t H(const char *s) {
    return lang_name_hash(s, strlen(s));
}

/* A module value: a user Module instance or a builtin engine module. */
static bool is_module(lang_val v) {
    return ST(v) != NULL || lang_module_of(v) != NULL;
}

bool lang_usermod_getattr(lang_vm *vm, lang_val self, const char *name, lang_val *out,
                          bool *found) {
    modstate *st = ST(self);
    *found = false;
    if (!st) return true;
    uint32_t h = H(name);
    lang_val *v = lang_ns_find(&st->params, name, h);
    if (!v) v = lang_ns_find(&st->buffers, name, h);
    if (!v) v = lang_ns_find(&st->modules, name, h);
    if (v) {
        *found = true;
        *out = lang_val_retain(*v);
        return true;
    }
    if (!strcmp(name, "training")) {
        *found = true;
        *out = lang_bool(st->training);
    }
    return true;
}

bool lang_usermod_setattr(lang_vm *vm, lang_val self, const char *name, lang_val v, bool *handled) {
    modstate *st = ST(self);
    *handled = false;
    if (!st) return true;
    uint32_t h = H(name);
    lang_instance *inst = lang_instance_of_val(self);
    if (!strcmp(name, "training")) {
        bool b;
        if (!lang_to_bool(vm, v, "training", &b)) return false;
        st->training = b;
        *handled = true;
        return true;
    }
    if (lang_tensor_is_param(v)) {
        lang_ns_del(&inst->attrs, name);
        lang_ns_del(&st->buffers, name);
        lang_ns_del(&st->modules, name);
        *handled = true;
        return lang_ns_set(vm, &st->params, name, v);
    }
    if (is_module(v)) {
        lang_ns_del(&inst->attrs, name);
        lang_ns_del(&st->params, name);
        lang_ns_del(&st->buffers, name);
        *handled = true;
        return lang_ns_set(vm, &st->modules, name, v);
    }
    if (lang_ns_find(&st->params, name, h)) {
        if (v.kind != LANG_NONE)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None "
                              "expected)",
                              lang_tensor_of(v) ? "torch.FloatTensor" : lang_type_name(v), name);
        *handled = true;
        return lang_ns_set(vm, &st->params, name, v);
    }
    if (lang_ns_find(&st->buffers, name, h)) {
        if (v.kind != LANG_NONE && !lang_tensor_of(v))
            return lang_raise(vm, LANG_ERR_TYPE,
                              "cannot assign '%s' as buffer '%s' (torch.Tensor or None expected)",
                              lang_type_name(v), name);
        *handled = true;
        return lang_ns_set(vm, &st->buffers, name, v);
    }
    if (lang_ns_find(&st->modules, name, h)) {
        if (v.kind != LANG_NONE)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "cannot assign '%s' as child module '%s' (torch.nn.Module or None "
                              "expected)",
                              lang_type_name(v), name);
        *handled = true;
        return lang_ns_set(vm, &st->modules, name, v);
    }
    return true;
}

/* ------------------------------------------------------------------ calling methods */

static bool call_method(lang_vm *vm, lang_val obj, const char *name, int n, const lang_val *args,
                        lang_val *out) {
    lang_val m;
    if (!lang_getattr(vm, obj, name, &m)) return false;
    lang_args a = {n, args, 0, NULL, NULL};
    bool ok = lang_call(vm, m, &a, out);
    lang_val_release(m);
    return ok;
}

static bool self_arg(lang_vm *vm, const lang_args *a, const char *fname, modstate **st) {
    if (a->n < 1 || !(*st = ST(a->pos[0])))
        return lang_raise(vm, LANG_ERR_TYPE, "Module.%s() needs a Module instance as self", fname);
    return true;
}

/* Parse the arguments after self. */
static bool parse_rest(lang_vm *vm, const lang_args *a, const char *fname, const char *spec,
                       lang_val *v0, lang_val *v1, lang_val *v2) {
    lang_args rest = {a->n - 1, a->pos + 1, a->nkw, a->kwnames, a->kw};
    return lang_parse_args(vm, &rest, fname, spec, v0, v1, v2);
}

static bool pair(lang_vm *vm, const char *k, lang_val v, lang_val *out) {
    lang_val items[2];
    if (!lang_str_from_cstr(vm, k, &items[0])) return false;
    items[1] = v;
    bool ok = lang_tuple_pack(vm, 2, items, out);
    lang_val_release(items[0]);
    return ok;
}

static bool append_pair(lang_vm *vm, lang_val list, const char *k, lang_val v) {
    lang_val p;
    if (!pair(vm, k, v, &p)) return false;
    bool ok = lang_list_append(vm, list, p);
    lang_val_release(p);
    return ok;
}

static bool seen_before(lang_val seen, lang_val v) {
    for (int64_t k = 0; k < lang_seq_len(seen); k++)
        if (lang_seq_items(seen)[k].u.o == v.u.o) return true;
    return false;
}

/* named_modules(): (prefix, module) for [m] and every descendant, DFS,
 * each module once. Builtin modules report their own descendants. */
static bool walk_modules(lang_vm *vm, lang_val m, const char *prefix, lang_val list,
                         lang_val seen) {
    if (seen_before(seen, m)) return true;
    if (!lang_list_append(vm, seen, m) || !append_pair(vm, list, prefix, m)) return false;
    modstate *st = ST(m);
    char path[512];
    if (st) {
        for (int i = 0; i < st->modules.n; i++) {
            lang_val c = st->modules.e[i].val;
            if (c.kind == LANG_NONE) continue;
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", st->modules.e[i].key);
            if (!walk_modules(vm, c, path, list, seen)) return false;
        }
        return true;
    }
    lang_val kids;
    if (!call_method(vm, m, "named_children", 0, NULL, &kids)) return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(kids); k++) {
        lang_val pr = lang_seq_items(kids)[k];
        snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                 lang_str_cstr(lang_seq_items(pr)[0]));
        ok = walk_modules(vm, lang_seq_items(pr)[1], path, list, seen);
    }
    lang_val_release(kids);
    return ok;
}

static bool named_modules(lang_vm *vm, lang_val self, const char *prefix, lang_val *out) {
    lang_val seen;
    if (!lang_list_new(vm, 0, out)) return false;
    if (!lang_list_new(vm, 0, &seen)) {
        lang_val_release(*out);
        return false;
    }
    bool ok = walk_modules(vm, self, prefix, *out, seen);
    lang_val_release(seen);
    if (!ok) lang_val_release(*out);
    return ok;
}

/* The direct tensors of one module: a user module's registry, or what a
 * builtin module's named_parameters()/state_dict() list without a dot. */
static bool own_tensors(lang_vm *vm, lang_val m, bool buffers, lang_val list) {
    modstate *st = ST(m);
    if (st) {
        const lang_ns *ns = buffers ? &st->buffers : &st->params;
        for (int i = 0; i < ns->n; i++)
            if (ns->e[i].val.kind != LANG_NONE &&
                !append_pair(vm, list, ns->e[i].key, ns->e[i].val))
                return false;
        return true;
    }
    if (buffers) return true; /* builtin modules: buffers come with state_dict */
    lang_val np;
    if (!call_method(vm, m, "named_parameters", 0, NULL, &np)) return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(np); k++) {
        lang_val pr = lang_seq_items(np)[k];
        if (!strchr(lang_str_cstr(lang_seq_items(pr)[0]), '.')) ok = lang_list_append(vm, list, pr);
    }
    lang_val_release(np);
    return ok;
}

static bool named_tensors(lang_vm *vm, lang_val self, bool buffers, lang_val *out) {
    lang_val mods, seen;
    if (!named_modules(vm, self, "", &mods)) return false;
    if (!lang_list_new(vm, 0, out)) {
        lang_val_release(mods);
        return false;
    }
    if (!lang_list_new(vm, 0, &seen)) {
        lang_val_release(mods);
        lang_val_release(*out);
        return false;
    }
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(mods); k++) {
        lang_val pr = lang_seq_items(mods)[k];
        const char *prefix = lang_str_cstr(lang_seq_items(pr)[0]);
        lang_val own;
        if (!lang_list_new(vm, 0, &own)) {
            ok = false;
            break;
        }
        ok = own_tensors(vm, lang_seq_items(pr)[1], buffers, own);
        for (int64_t j = 0; ok && j < lang_seq_len(own); j++) {
            lang_val e = lang_seq_items(own)[j];
            lang_val t = lang_seq_items(e)[1];
            if (seen_before(seen, t)) continue; /* shared (tied) parameters once */
            ok = lang_list_append(vm, seen, t);
            char path[512];
            snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "",
                     lang_str_cstr(lang_seq_items(e)[0]));
            if (ok) ok = append_pair(vm, *out, path, t);
        }
        lang_val_release(own);
    }
    lang_val_release(mods);
    lang_val_release(seen);
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool values_of_pairs(lang_vm *vm, lang_val pairs, lang_val *out) {
    if (!lang_list_new(vm, lang_seq_len(pairs), out)) return false;
    for (int64_t k = 0; k < lang_seq_len(pairs); k++)
        lang_seq_items(*out)[k] = lang_val_retain(lang_seq_items(lang_seq_items(pairs)[k])[1]);
    return true;
}

/* ------------------------------------------------------------------ Module's methods */

static bool f_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_none();
    return true;
}

static bool f_forward(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "forward", &st)) return false;
    return lang_raise_named(vm, LANG_ERR_RUNTIME, "NotImplementedError",
                            "Module [%s] is missing the required \"forward\" function",
                            lang_type_name(a->pos[0]));
}

static bool f_named_parameters(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val prefix = lang_none(), recurse = lang_bool(true), dup = lang_none();
    if (!self_arg(vm, a, "named_parameters", &st) ||
        !parse_rest(vm, a, "named_parameters", "|prefix,recurse,remove_duplicate", &prefix,
                    &recurse, &dup))
        return false;
    return named_tensors(vm, a->pos[0], false, out);
}

static bool f_parameters(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val recurse = lang_bool(true), pairs;
    if (!self_arg(vm, a, "parameters", &st) ||
        !parse_rest(vm, a, "parameters", "|recurse", &recurse, NULL, NULL))
        return false;
    if (!named_tensors(vm, a->pos[0], false, &pairs)) return false;
    bool ok = values_of_pairs(vm, pairs, out);
    lang_val_release(pairs);
    return ok;
}

static bool f_named_buffers(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "named_buffers", &st) ||
        !parse_rest(vm, a, "named_buffers", "", NULL, NULL, NULL))
        return false;
    return named_tensors(vm, a->pos[0], true, out);
}

static bool f_buffers(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val pairs;
    if (!self_arg(vm, a, "buffers", &st) || !parse_rest(vm, a, "buffers", "", NULL, NULL, NULL))
        return false;
    if (!named_tensors(vm, a->pos[0], true, &pairs)) return false;
    bool ok = values_of_pairs(vm, pairs, out);
    lang_val_release(pairs);
    return ok;
}

static bool f_named_children(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "named_children", &st) ||
        !parse_rest(vm, a, "named_children", "", NULL, NULL, NULL) || !lang_list_new(vm, 0, out))
        return false;
    for (int i = 0; i < st->modules.n; i++)
        if (st->modules.e[i].val.kind != LANG_NONE &&
            !append_pair(vm, *out, st->modules.e[i].key, st->modules.e[i].val)) {
            lang_val_release(*out);
            return false;
        }
    return true;
}

static bool f_children(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pairs;
    if (!f_named_children(vm, a, &pairs)) return false;
    bool ok = values_of_pairs(vm, pairs, out);
    lang_val_release(pairs);
    return ok;
}

static bool f_named_modules(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val memo = lang_none(), prefix = lang_none(), dup = lang_none();
    if (!self_arg(vm, a, "named_modules", &st) ||
        !parse_rest(vm, a, "named_modules", "|memo,prefix,remove_duplicate", &memo, &prefix, &dup))
        return false;
    return named_modules(vm, a->pos[0], lang_is_str(prefix) ? lang_str_cstr(prefix) : "", out);
}

static bool f_modules(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val pairs;
    if (!self_arg(vm, a, "modules", &st) || !parse_rest(vm, a, "modules", "", NULL, NULL, NULL))
        return false;
    if (!named_modules(vm, a->pos[0], "", &pairs)) return false;
    bool ok = values_of_pairs(vm, pairs, out);
    lang_val_release(pairs);
    return ok;
}

/* state_dict(): each module's parameters and persistent buffers, then its
 * children's, as PyTorch's _save_to_state_dict walks them (no dedup). */
static bool state_into(lang_vm *vm, lang_val m, const char *prefix, lang_val dict) {
    modstate *st = ST(m);
    char path[512];
    if (!st) {
        lang_val sd;
        if (!call_method(vm, m, "state_dict", 0, NULL, &sd)) return false;
        lang_dict_obj *d = (lang_dict_obj *)sd.u.o;
        bool ok = true;
        for (int64_t k = 0; ok && k < d->nent; k++) {
            if (!d->entries[k].live) continue;
            lang_val key;
            snprintf(path, sizeof path, "%s%s", prefix, lang_str_cstr(d->entries[k].key));
            ok = lang_str_from_cstr(vm, path, &key);
            if (ok) {
                ok = lang_dict_set(vm, dict, key, d->entries[k].value);
                lang_val_release(key);
            }
        }
        lang_val_release(sd);
        return ok;
    }
    for (int pass = 0; pass < 2; pass++) {
        const lang_ns *ns = pass ? &st->buffers : &st->params;
        for (int i = 0; i < ns->n; i++) {
            if (ns->e[i].val.kind == LANG_NONE) continue;
            if (pass && lang_ns_find(&st->nonpersistent, ns->e[i].key, ns->e[i].hash)) continue;
            lang_val key, t;
            snprintf(path, sizeof path, "%s%s", prefix, ns->e[i].key);
            if (!lang_str_from_cstr(vm, path, &key)) return false;
            /* state_dict holds detached tensors sharing the parameters' data. */
            nn_tensor *d = nn_tensor_detach(lang_vm_ctx(vm), lang_tensor_of(ns->e[i].val));
            bool ok = d && lang_tensor_new(vm, d, &t);
            if (!d) lang_raise_engine(vm);
            if (ok) {
                ok = lang_dict_set(vm, dict, key, t);
                lang_val_release(t);
            }
            lang_val_release(key);
            if (!ok) return false;
        }
    }
    for (int i = 0; i < st->modules.n; i++) {
        if (st->modules.e[i].val.kind == LANG_NONE) continue;
        snprintf(path, sizeof path, "%s%s.", prefix, st->modules.e[i].key);
        if (!state_into(vm, st->modules.e[i].val, path, dict)) return false;
    }
    return true;
}

static bool f_state_dict(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val dest = lang_none(), prefix = lang_none(), keep = lang_none();
    if (!self_arg(vm, a, "state_dict", &st) ||
        !parse_rest(vm, a, "state_dict", "|destination,prefix,keep_vars", &dest, &prefix, &keep) ||
        !lang_dict_new(vm, out))
        return false;
    if (!state_into(vm, a->pos[0], lang_is_str(prefix) ? lang_str_cstr(prefix) : "", *out)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

/* load_state_dict(sd, strict=True): copy each tensor into the module's. */
static bool f_load_state_dict(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val sd, strict = lang_bool(true);
    if (!self_arg(vm, a, "load_state_dict", &st) ||
        !parse_rest(vm, a, "load_state_dict", "state_dict|strict", &sd, &strict, NULL))
        return false;
    if (!lang_is_obj(sd, &lang_dict_type))
        return lang_raise(vm, LANG_ERR_TYPE, "Expected state_dict to be dict-like, got %s.",
                          lang_type_name(sd));
    bool strict_b;
    if (!lang_to_bool(vm, strict, "strict", &strict_b)) return false;
    lang_val mine;
    if (!f_state_dict(vm, &(lang_args){1, a->pos, 0, NULL, NULL}, &mine)) return false;
    lang_val missing, unexpected;
    if (!lang_list_new(vm, 0, &missing)) {
        lang_val_release(mine);
        return false;
    }
    if (!lang_list_new(vm, 0, &unexpected)) {
        lang_val_release(mine);
        lang_val_release(missing);
        return false;
    }
    bool ok = true;
    lang_dict_obj *md = (lang_dict_obj *)mine.u.o, *sdo = (lang_dict_obj *)sd.u.o;
    for (int64_t k = 0; ok && k < md->nent; k++) {
        if (!md->entries[k].live) continue;
        lang_val src;
        bool found;
        ok = lang_dict_get(vm, sd, md->entries[k].key, &src, &found);
        if (!ok) break;
        if (!found) {
            ok = lang_list_append(vm, missing, md->entries[k].key);
            continue;
        }
        nn_tensor *dt = lang_tensor_of(md->entries[k].value), *stt = lang_tensor_of(src);
        if (!stt) {
            ok = lang_raise(vm, LANG_ERR_TYPE, "state_dict['%s'] must be a Tensor, not %s",
                            lang_str_cstr(md->entries[k].key), lang_type_name(src));
        } else {
            nn_ctx *ctx = lang_vm_ctx(vm);
            bool g = ctx->grad_enabled;
            ctx->grad_enabled = false;
            ok = nn_tensor_copy_(ctx, dt, stt) == NN_OK;
            ctx->grad_enabled = g;
            if (!ok) {
                lang_buf b;
                lang_buf_init(&b);
                lang_buf_puts(&b, ctx->err.msg);
                lang_raise(vm, LANG_ERR_RUNTIME,
                           "Error(s) in loading state_dict for %s: size mismatch for %s: %s",
                           lang_type_name(a->pos[0]), lang_str_cstr(md->entries[k].key),
                           b.data ? b.data : "");
                lang_buf_free(&b);
            }
        }
        lang_val_release(src);
    }
    for (int64_t k = 0; ok && k < sdo->nent; k++) {
        if (!sdo->entries[k].live) continue;
        lang_val tmp;
        bool found;
        ok = lang_dict_get(vm, mine, sdo->entries[k].key, &tmp, &found);
        if (ok && found) lang_val_release(tmp);
        if (ok && !found) ok = lang_list_append(vm, unexpected, sdo->entries[k].key);
    }
    lang_val_release(mine);
    if (ok && strict_b && (lang_seq_len(missing) || lang_seq_len(unexpected))) {
        lang_buf b;
        lang_buf_init(&b);
        lang_buf_printf(&b, "Error(s) in loading state_dict for %s:\n\t",
                        lang_type_name(a->pos[0]));
        if (lang_seq_len(missing)) {
            lang_buf_puts(&b, "Missing key(s) in state_dict: ");
            for (int64_t k = 0; k < lang_seq_len(missing); k++) {
                if (k) lang_buf_puts(&b, ", ");
                lang_buf_printf(&b, "\"%s\"", lang_str_cstr(lang_seq_items(missing)[k]));
            }
            lang_buf_puts(&b, ". ");
        }
        if (lang_seq_len(unexpected)) {
            lang_buf_puts(&b, "Unexpected key(s) in state_dict: ");
            for (int64_t k = 0; k < lang_seq_len(unexpected); k++) {
                if (k) lang_buf_puts(&b, ", ");
                lang_buf_printf(&b, "\"%s\"", lang_str_cstr(lang_seq_items(unexpected)[k]));
            }
            lang_buf_puts(&b, ". ");
        }
        ok = lang_raise(vm, LANG_ERR_RUNTIME, "%s", b.data);
        lang_buf_free(&b);
    }
    if (ok) {
        ok = lang_record_new(vm, "_IncompatibleKeys", out);
        if (ok)
            ok = lang_record_set(vm, *out, "missing_keys", missing) &&
                 lang_record_set(vm, *out, "unexpected_keys", unexpected);
    }
    lang_val_release(missing);
    lang_val_release(unexpected);
    return ok;
}

static bool set_training(lang_vm *vm, lang_val m, bool mode) {
    modstate *st = ST(m);
    if (!st) {
        lang_val r, arg = lang_bool(mode);
        if (!call_method(vm, m, "train", 1, &arg, &r)) return false;
        lang_val_release(r);
        return true;
    }
    st->training = mode;
    for (int i = 0; i < st->modules.n; i++)
        if (st->modules.e[i].val.kind != LANG_NONE && !set_training(vm, st->modules.e[i].val, mode))
            return false;
    return true;
}

static bool f_train(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val mode = lang_bool(true);
    bool b;
    if (!self_arg(vm, a, "train", &st) || !parse_rest(vm, a, "train", "|mode", &mode, NULL, NULL) ||
        !lang_to_bool(vm, mode, "mode", &b) || !set_training(vm, a->pos[0], b))
        return false;
    *out = lang_val_retain(a->pos[0]);
    return true;
}

static bool f_eval(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "eval", &st) || !parse_rest(vm, a, "eval", "", NULL, NULL, NULL) ||
        !set_training(vm, a->pos[0], false))
        return false;
    *out = lang_val_retain(a->pos[0]);
    return true;
}

/* zero_grad(set_to_none=False): PyTorch 1.13's default zeroes in place. */
static bool f_zero_grad(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val stn = lang_bool(false), params;
    bool to_none;
    if (!self_arg(vm, a, "zero_grad", &st) ||
        !parse_rest(vm, a, "zero_grad", "|set_to_none", &stn, NULL, NULL) ||
        !lang_to_bool(vm, stn, "set_to_none", &to_none) ||
        !f_parameters(vm, &(lang_args){1, a->pos, 0, NULL, NULL}, &params))
        return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(params); k++) {
        lang_val p = lang_seq_items(params)[k];
        if (to_none) {
            ok = lang_setattr(vm, p, "grad", lang_none());
            continue;
        }
        lang_val g;
        ok = lang_getattr(vm, p, "grad", &g);
        if (ok && g.kind != LANG_NONE) {
            lang_val r;
            ok = call_method(vm, g, "zero_", 0, NULL, &r);
            if (ok) lang_val_release(r);
        }
        if (ok) lang_val_release(g);
    }
    lang_val_release(params);
    if (ok) *out = lang_none();
    return ok;
}

static bool apply_to(lang_vm *vm, lang_val m, lang_val fn) {
    modstate *st = ST(m);
    if (st) {
        for (int i = 0; i < st->modules.n; i++)
            if (st->modules.e[i].val.kind != LANG_NONE && !apply_to(vm, st->modules.e[i].val, fn))
                return false;
    } else {
        lang_val kids;
        if (!call_method(vm, m, "children", 0, NULL, &kids)) return false;
        bool ok = true;
        for (int64_t k = 0; ok && k < lang_seq_len(kids); k++)
            ok = apply_to(vm, lang_seq_items(kids)[k], fn);
        lang_val_release(kids);
        if (!ok) return false;
    }
    lang_val r;
    lang_args a = {1, &m, 0, NULL, NULL};
    if (!lang_call(vm, fn, &a, &r)) return false;
    lang_val_release(r);
    return true;
}

static bool f_apply(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val fn;
    if (!self_arg(vm, a, "apply", &st) || !parse_rest(vm, a, "apply", "fn", &fn, NULL, NULL) ||
        !apply_to(vm, a->pos[0], fn))
        return false;
    *out = lang_val_retain(a->pos[0]);
    return true;
}

static bool f_register_buffer(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val name, t, persistent = lang_bool(true);
    if (!self_arg(vm, a, "register_buffer", &st) ||
        !parse_rest(vm, a, "register_buffer", "name,tensor|persistent", &name, &t, &persistent))
        return false;
    if (!lang_is_str(name))
        return lang_raise(vm, LANG_ERR_TYPE, "buffer name should be a string. Got %s",
                          lang_type_name(name));
    if (t.kind != LANG_NONE && !lang_tensor_of(t))
        return lang_raise(
            vm, LANG_ERR_TYPE,
            "cannot assign '%s' object to buffer '%s' (torch Tensor or None required)",
            lang_type_name(t), lang_str_cstr(name));
    bool pers;
    if (!lang_to_bool(vm, persistent, "persistent", &pers)) return false;
    const char *n = lang_str_cstr(name);
    if (!lang_ns_set(vm, &st->buffers, n, t)) return false;
    if (!pers && !lang_ns_set(vm, &st->nonpersistent, n, lang_bool(true))) return false;
    *out = lang_none();
    return true;
}

static bool f_register_parameter(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val name, p;
    if (!self_arg(vm, a, "register_parameter", &st) ||
        !parse_rest(vm, a, "register_parameter", "name,param", &name, &p, NULL))
        return false;
    if (!lang_is_str(name))
        return lang_raise(vm, LANG_ERR_TYPE, "parameter name should be a string");
    if (p.kind != LANG_NONE && !lang_tensor_is_param(p))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or "
                          "None required)",
                          lang_type_name(p), lang_str_cstr(name));
    if (!lang_ns_set(vm, &st->params, lang_str_cstr(name), p)) return false;
    *out = lang_none();
    return true;
}

static bool f_add_module(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val name, m;
    if (!self_arg(vm, a, "add_module", &st) ||
        !parse_rest(vm, a, "add_module", "name,module", &name, &m, NULL))
        return false;
    if (!lang_is_str(name)) return lang_raise(vm, LANG_ERR_TYPE, "module name should be a string");
    if (m.kind != LANG_NONE && !is_module(m))
        return lang_raise(vm, LANG_ERR_TYPE, "%s is not a Module subclass", lang_type_name(m));
    if (!lang_ns_set(vm, &st->modules, lang_str_cstr(name), m)) return false;
    *out = lang_none();
    return true;
}

/* Hooks: a handle whose remove() takes the hook out again. */
static int64_t next_hook_id = 1;

static bool f_handle_remove(lang_vm *vm, const lang_args *a, lang_val *out);
static const lang_help handle_remove_help = {"RemovableHandle.remove", "remove()",
                                             "Remove the hook.", ""};

static bool hook_into(lang_vm *vm, lang_val *list, lang_val fn, lang_val *out);

static bool add_hook(lang_vm *vm, const lang_args *a, const char *fname, bool pre, lang_val *out) {
    modstate *st;
    lang_val fn, prepend = lang_bool(false), with_kwargs = lang_bool(false);
    if (!self_arg(vm, a, fname, &st) ||
        !parse_rest(vm, a, fname, "hook|prepend,with_kwargs", &fn, &prepend, &with_kwargs))
        return false;
    return hook_into(vm, pre ? &st->pre_hooks : &st->hooks, fn, out);
}

/* Add (id, fn) to the hook list *list (made when None); *out the handle. */
static bool hook_into(lang_vm *vm, lang_val *list, lang_val fn, lang_val *out) {
    if (list->kind == LANG_NONE && !lang_list_new(vm, 0, list)) return false;
    int64_t id = next_hook_id++;
    lang_val items[2] = {lang_int(id), fn}, entry;
    if (!lang_tuple_pack(vm, 2, items, &entry)) return false;
    bool ok = lang_list_append(vm, *list, entry);
    lang_val_release(entry);
    if (!ok) return false;
    /* The handle: a record holding the list, the id and a bound remove(). */
    lang_val rec, rm, args[2] = {*list, lang_int(id)};
    if (!lang_record_new(vm, "RemovableHandle", &rec)) return false;
    lang_val f, bound;
    if (!lang_builtin_new(vm, f_handle_remove, &handle_remove_help, &f)) {
        lang_val_release(rec);
        return false;
    }
    lang_val tup;
    ok = lang_tuple_pack(vm, 2, args, &tup);
    if (ok) ok = lang_method_new(vm, tup, f, &bound);
    lang_val_release(f);
    if (ok) {
        lang_val_release(tup);
        rm = bound;
        ok = lang_record_set(vm, rec, "remove", rm) && lang_record_set(vm, rec, "id", lang_int(id));
        lang_val_release(rm);
    }
    if (!ok) {
        lang_val_release(rec);
        return false;
    }
    *out = rec;
    return true;
}

static bool f_handle_remove(lang_vm *vm, const lang_args *a, lang_val *out) {
    /* self is (list, id) */
    lang_val t = a->pos[0], list = lang_seq_items(t)[0];
    int64_t id = lang_seq_items(t)[1].u.i;
    lang_seq_obj *q = (lang_seq_obj *)list.u.o;
    for (int64_t k = 0; k < q->n; k++)
        if (lang_seq_items(q->items[k])[0].u.i == id) {
            lang_val old = q->items[k];
            memmove(&q->items[k], &q->items[k + 1], sizeof q->items[0] * (size_t)(q->n - k - 1));
            q->n--;
            lang_val_release(old);
            break;
        }
    *out = lang_none();
    return true;
}

static bool f_register_forward_hook(lang_vm *vm, const lang_args *a, lang_val *out) {
    return add_hook(vm, a, "register_forward_hook", false, out);
}
static bool f_register_forward_pre_hook(lang_vm *vm, const lang_args *a, lang_val *out) {
    return add_hook(vm, a, "register_forward_pre_hook", true, out);
}

/* Convert every float parameter and buffer of the module tree (and their
 * gradients) to [dt] in place, as Module.half() / .to(dtype) do. */
static bool convert_floats(lang_vm *vm, const lang_args *a, nn_dtype dt, lang_val *out) {
    lang_args self_only = {1, a->pos, 0, NULL, NULL};
    lang_val lists[2];
    if (!f_parameters(vm, &self_only, &lists[0])) return false;
    if (!f_buffers(vm, &self_only, &lists[1])) {
        lang_val_release(lists[0]);
        return false;
    }
    bool ok = true;
    for (int l = 0; l < 2; l++)
        for (int64_t k = 0; ok && k < lang_seq_len(lists[l]); k++) {
            nn_tensor *t = lang_tensor_of(lang_seq_items(lists[l])[k]);
            if (t && nn_dtype_is_float(t->dtype) && nn_tensor_convert_(lang_vm_ctx(vm), t, dt))
                ok = lang_raise_engine(vm);
        }
    lang_val_release(lists[0]);
    lang_val_release(lists[1]);
    if (ok) *out = lang_val_retain(a->pos[0]);
    return ok;
}

/* ------------------------------------------------------------------ backward hooks */

/* Tensor.register_hook(fn): the engine's gradient hook (nn_grad_hook_add)
 * calls fn(grad); a returned tensor replaces the gradient. */
typedef struct tensor_hook {
    lang_vm *vm;
    lang_val fn;
} tensor_hook;

static void tensor_hook_drop(void *u) {
    tensor_hook *h = u;
    lang_val_release(h->fn);
    free(h);
}

/* Fail the backward pass with the language error as the engine's message. */
static nn_status hook_fail(lang_vm *vm, nn_ctx *ctx, nn_status *st, const char *what) {
    char msg[512];
    snprintf(msg, sizeof msg, "in %s: %s: %s", what, vm->ename ? vm->ename : lang_err_name(vm->err),
             vm->msg.data ? vm->msg.data : "");
    lang_vm_clear_error(vm);
    return *st = nn_error_set(&ctx->err, NN_ERR_VALUE, "%s", msg);
}

/* The hook's result: None keeps the gradient, a tensor replaces it. */
static nn_tensor *hook_result(lang_vm *vm, nn_ctx *ctx, lang_val r, nn_status *st,
                              const char *what) {
    if (r.kind == LANG_NONE) return NULL;
    nn_tensor *t = lang_tensor_of(r);
    if (!t) {
        lang_raise(vm, LANG_ERR_TYPE, "a hook returned %s where a Tensor or None belongs",
                   lang_type_name(r));
        lang_val_release(r);
        hook_fail(vm, ctx, st, what);
        return NULL;
    }
    nn_tensor_retain(t);
    lang_val_release(r);
    return t;
}

static nn_tensor *tensor_hook_call(nn_ctx *ctx, nn_tensor *grad, void *u, nn_status *st) {
    tensor_hook *h = u;
    lang_vm *vm = h->vm;
    lang_val g, r;
    if (!lang_tensor_new(vm, nn_tensor_retain(grad), &g)) {
        hook_fail(vm, ctx, st, "a tensor hook");
        return NULL;
    }
    lang_args a = {1, &g, 0, NULL, NULL};
    bool ok = lang_call(vm, h->fn, &a, &r);
    lang_val_release(g);
    if (!ok) {
        hook_fail(vm, ctx, st, "a tensor hook");
        return NULL;
    }
    return hook_result(vm, ctx, r, st, "a tensor hook");
}

static bool f_grad_handle_remove(lang_vm *vm, const lang_args *a, lang_val *out) {
    nn_grad_hook_remove(lang_vm_ctx(vm), (int)a->pos[0].u.i);
    *out = lang_none();
    return true;
}
static const lang_help grad_handle_remove_help = {"RemovableHandle.remove", "remove()",
                                                  "Remove the hook.", ""};

bool lang_tensor_register_hook(lang_vm *vm, lang_val self, lang_val fn, lang_val *out) {
    nn_tensor *t = lang_tensor_of(self);
    if (!t) return lang_raise(vm, LANG_ERR_TYPE, "register_hook() needs a Tensor");
    if (fn.kind != LANG_OBJ || !fn.u.o->type->call)
        return lang_raise(vm, LANG_ERR_TYPE, "register_hook(): the hook must be callable, not %s",
                          lang_type_name(fn));
    tensor_hook *h = malloc(sizeof *h);
    if (!h) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    h->vm = vm;
    h->fn = lang_val_retain(fn);
    int id = nn_grad_hook_add(lang_vm_ctx(vm), t, tensor_hook_call, h, tensor_hook_drop);
    if (!id) {
        tensor_hook_drop(h);
        return lang_raise_engine(vm);
    }
    lang_val rec, f, bound;
    if (!lang_record_new(vm, "RemovableHandle", &rec)) return false;
    if (!lang_builtin_new(vm, f_grad_handle_remove, &grad_handle_remove_help, &f)) {
        lang_val_release(rec);
        return false;
    }
    bool ok = lang_method_new(vm, lang_int(id), f, &bound);
    lang_val_release(f);
    if (ok) {
        ok = lang_record_set(vm, rec, "remove", bound) &&
             lang_record_set(vm, rec, "id", lang_int(id));
        lang_val_release(bound);
    }
    if (!ok) {
        lang_val_release(rec);
        return false;
    }
    *out = rec;
    return true;
}

/* register_full_backward_hook(hook): hook(module, grad_input, grad_output)
 * as PyTorch calls it. Each call of a hooked module passes its tensor
 * inputs through an identity view (PyTorch's BackwardHookFunction) and
 * puts gradient hooks on those views and on the output. Backward runs
 * nodes in decreasing creation order, so when the last-made input view's
 * hook runs, every input's gradient is complete: the hook gets them all
 * (None for inputs that need no gradient) and may replace them by
 * returning a tuple. A module none of whose inputs need a gradient gets
 * its call when the output's gradient arrives, with grad_input all None. */
#define BW_MAX_INPUTS 16

typedef struct bw_call {
    int refs; /* the creator and each engine hook */
    lang_vm *vm;
    lang_val module, hooks; /* a copy of the hook list */
    int n_in;
    nn_node *in_node[BW_MAX_INPUTS]; /* retained, or NULL */
    int last;                        /* the input whose view was made last, or -1 */
    nn_tensor *grad_out;
} bw_call;

static void bw_unref(void *u) {
    bw_call *b = u;
    if (--b->refs > 0) return;
    lang_val_release(b->module);
    lang_val_release(b->hooks);
    for (int i = 0; i < b->n_in; i++)
        if (b->in_node[i]) nn_node_release(b->in_node[i]);
    nn_tensor_release(b->grad_out);
    free(b);
}

/* Call the hooks; [mine] is the gradient of input b->last, which a
 * replacement returns instead of writing into its node. */
static nn_tensor *bw_fire(nn_ctx *ctx, bw_call *b, nn_tensor *mine, nn_status *st) {
    lang_vm *vm = b->vm;
    lang_val gin, gout, items[BW_MAX_INPUTS];
    nn_tensor *result = NULL;
    bool ok = true;
    int made = 0;
    for (; ok && made < b->n_in; made++) {
        nn_tensor *g = made == b->last ? mine : b->in_node[made] ? b->in_node[made]->grad : NULL;
        items[made] = lang_none();
        if (g) ok = lang_tensor_new(vm, nn_tensor_retain(g), &items[made]);
    }
    if (!ok) made--;
    ok = ok && lang_tuple_pack(vm, made, items, &gin);
    for (int i = 0; i < made; i++) lang_val_release(items[i]);
    if (!ok) {
        hook_fail(vm, ctx, st, "a backward hook");
        return NULL;
    }
    lang_val go = lang_none();
    ok = !b->grad_out || lang_tensor_new(vm, nn_tensor_retain(b->grad_out), &go);
    ok = ok && lang_tuple_pack(vm, 1, &go, &gout);
    lang_val_release(go);
    for (int64_t k = 0; ok && k < lang_seq_len(b->hooks); k++) {
        lang_val fn = lang_seq_items(lang_seq_items(b->hooks)[k])[1], r;
        lang_val args[3] = {b->module, gin, gout};
        lang_args a = {3, args, 0, NULL, NULL};
        if (!(ok = lang_call(vm, fn, &a, &r))) break;
        if (r.kind == LANG_NONE) continue;
        if (!lang_is_obj(r, &lang_tuple_type) || lang_seq_len(r) != b->n_in) {
            lang_val_release(r);
            ok = lang_raise(vm, LANG_ERR_RUNTIME,
                            "backward hook returned an invalid number of grad_input, got %lld, "
                            "but expected %d",
                            (long long)(lang_is_obj(r, &lang_tuple_type) ? lang_seq_len(r) : 1),
                            b->n_in);
            break;
        }
        lang_val_release(gin);
        gin = r;
    }
    if (ok) {
        /* The (possibly replaced) gradients go on to the inputs. */
        for (int i = 0; ok && i < b->n_in; i++) {
            lang_val gi = lang_seq_items(gin)[i];
            nn_tensor *t = lang_tensor_of(gi);
            if (gi.kind != LANG_NONE && !t) {
                ok = lang_raise(vm, LANG_ERR_TYPE, "a backward hook returned %s in grad_input",
                                lang_type_name(gi));
                break;
            }
            if (i == b->last) {
                if (t && t != mine) result = nn_tensor_retain(t);
            } else if (b->in_node[i] && t && t != b->in_node[i]->grad) {
                nn_tensor_release(b->in_node[i]->grad);
                b->in_node[i]->grad = nn_tensor_retain(t);
            }
        }
    }
    lang_val_release(gin);
    lang_val_release(gout);
    if (!ok) {
        nn_tensor_release(result);
        hook_fail(vm, ctx, st, "a backward hook");
        return NULL;
    }
    return result;
}

static nn_tensor *bw_in_hook(nn_ctx *ctx, nn_tensor *grad, void *u, nn_status *st) {
    return bw_fire(ctx, u, grad, st);
}

static nn_tensor *bw_out_hook(nn_ctx *ctx, nn_tensor *grad, void *u, nn_status *st) {
    bw_call *b = u;
    nn_tensor_release(b->grad_out);
    b->grad_out = nn_tensor_retain(grad);
    if (b->last < 0) {
        nn_tensor *r = bw_fire(ctx, b, NULL, st);
        nn_tensor_release(r);
    }
    return NULL;
}

/* Before the module runs: wrap args[0..n) (tensors needing a gradient)
 * in identity views, replacing them; *out the call's record, or NULL when
 * there is nothing to hook. */
static bool bw_begin(lang_vm *vm, lang_val module, lang_val hooks, int n, lang_val *args,
                     bw_call **out) {
    *out = NULL;
    if (hooks.kind == LANG_NONE || lang_seq_len(hooks) == 0 || !lang_vm_ctx(vm)->grad_enabled)
        return true;
    if (n > BW_MAX_INPUTS)
        return lang_raise(vm, LANG_ERR_RUNTIME, "backward hooks take at most %d inputs here",
                          BW_MAX_INPUTS);
    bw_call *b = calloc(1, sizeof *b);
    if (!b) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    b->refs = 1;
    b->vm = vm;
    b->module = lang_val_retain(module);
    b->last = -1;
    b->n_in = n;
    if (!lang_list_from_iter(vm, hooks, &b->hooks)) {
        b->hooks = lang_none();
        bw_unref(b);
        return false;
    }
    nn_ctx *ctx = lang_vm_ctx(vm);
    for (int i = 0; i < n; i++) {
        nn_tensor *t = lang_tensor_of(args[i]);
        if (!t || !t->requires_grad) continue;
        nn_tensor *v = nn_reshape(ctx, t, t->ndim, t->shape);
        lang_val vv;
        if (!v || !v->grad_fn || !lang_tensor_new(vm, v, &vv)) {
            if (v && !v->grad_fn) nn_tensor_release(v);
            bw_unref(b);
            return v ? lang_raise(vm, LANG_ERR_RUNTIME, "backward hook: no graph")
                     : lang_raise_engine(vm);
        }
        b->in_node[i] = v->grad_fn;
        nn_node_retain(v->grad_fn);
        b->last = i;
        lang_val_release(args[i]);
        args[i] = vv;
    }
    if (b->last >= 0) {
        b->refs++;
        nn_tensor *v = lang_tensor_of(args[b->last]);
        if (!nn_grad_hook_add(ctx, v, bw_in_hook, b, bw_unref)) {
            b->refs--;
            bw_unref(b);
            return lang_raise_engine(vm);
        }
    }
    *out = b;
    return true;
}

/* After the module ran: hook its output; drops the creator's reference. */
static bool bw_end(lang_vm *vm, bw_call *b, lang_val output) {
    if (!b) return true;
    nn_tensor *t = lang_tensor_of(output);
    bool ok = true;
    if (t && t->requires_grad) {
        b->refs++;
        if (!nn_grad_hook_add(lang_vm_ctx(vm), t, bw_out_hook, b, bw_unref)) {
            b->refs--;
            ok = lang_raise_engine(vm);
        }
    }
    bw_unref(b);
    return ok;
}

/* Builtin modules (nn.Linear, ...) keep their backward hooks here. */
typedef struct bw_entry {
    lang_obj *module; /* retained */
    lang_val hooks;
} bw_entry;

static struct lang_usermod_state *ustate(lang_vm *vm);
static lang_val *builtin_bw_hooks(lang_vm *vm, lang_val module, bool create);

static bool f_register_full_backward_hook(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val fn, prepend = lang_bool(false);
    if (!self_arg(vm, a, "register_full_backward_hook", &st) ||
        !parse_rest(vm, a, "register_full_backward_hook", "hook|prepend", &fn, &prepend, NULL))
        return false;
    return hook_into(vm, &st->bw_hooks, fn, out);
}

bool lang_module_register_backward_hook(lang_vm *vm, lang_val module, lang_val fn, lang_val *out) {
    lang_val *list = builtin_bw_hooks(vm, module, true);
    if (!list) return false;
    return hook_into(vm, list, fn, out);
}

bool lang_module_call_hooked(lang_vm *vm, lang_val module, const lang_args *a,
                             bool (*call)(lang_vm *vm, lang_val module, const lang_args *a,
                                          lang_val *out),
                             lang_val *out) {
    lang_val *list = builtin_bw_hooks(vm, module, false);
    if (!list || list->kind == LANG_NONE || lang_seq_len(*list) == 0)
        return call(vm, module, a, out);
    lang_val args[BW_MAX_INPUTS];
    if (a->n > BW_MAX_INPUTS)
        return lang_raise(vm, LANG_ERR_RUNTIME, "backward hooks take at most %d inputs here",
                          BW_MAX_INPUTS);
    for (int i = 0; i < a->n; i++) args[i] = lang_val_retain(a->pos[i]);
    bw_call *b;
    bool ok = bw_begin(vm, module, *list, a->n, args, &b);
    if (ok) {
        lang_args ca = {a->n, args, a->nkw, a->kwnames, a->kw};
        ok = call(vm, module, &ca, out);
        if (!ok) {
            if (b) bw_unref(b);
        } else if (!bw_end(vm, b, *out)) {
            lang_val_release(*out);
            ok = false;
        }
    }
    for (int i = 0; i < a->n; i++) lang_val_release(args[i]);
    return ok;
}

/* to(device) / cpu() / cuda(): nndb runs on the CPU; the module is returned
 * unchanged. to(dtype) converts the float parameters and buffers. */
static bool f_to(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "to", &st)) return false;
    for (int k = 1; k < a->n; k++)
        if (lang_is_obj(a->pos[k], &lang_dtype_type)) {
            nn_dtype dt;
            if (!lang_dtype_from(vm, a->pos[k], "dtype", &dt)) return false;
            if (!nn_dtype_is_float(dt))
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "nn.Module.to only accepts floating point or complex dtypes, "
                                  "but got desired dtype=torch.%s",
                                  nn_dtype_name(dt));
            return convert_floats(vm, a, dt, out);
        }
    *out = lang_val_retain(a->pos[0]);
    return true;
}

#define CONVERT_MODULE(name, DT)                                                                   \
    static bool f_##name(lang_vm *vm, const lang_args *a, lang_val *out) {                         \
        modstate *st;                                                                              \
        if (!self_arg(vm, a, #name, &st)) return false;                                            \
        return convert_floats(vm, a, DT, out);                                                     \
    }
CONVERT_MODULE(half, NN_FLOAT16)
CONVERT_MODULE(bfloat16, NN_BFLOAT16)
CONVERT_MODULE(float, NN_FLOAT32)
CONVERT_MODULE(double, NN_FLOAT64)
#undef CONVERT_MODULE

static bool f_requires_grad_(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val flag = lang_bool(true), params;
    if (!self_arg(vm, a, "requires_grad_", &st) ||
        !parse_rest(vm, a, "requires_grad_", "|requires_grad", &flag, NULL, NULL) ||
        !f_parameters(vm, &(lang_args){1, a->pos, 0, NULL, NULL}, &params))
        return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(params); k++) {
        lang_val r;
        ok = call_method(vm, lang_seq_items(params)[k], "requires_grad_", 1, &flag, &r);
        if (ok) lang_val_release(r);
    }
    lang_val_release(params);
    if (ok) *out = lang_val_retain(a->pos[0]);
    return ok;
}

static bool f_extra_repr(lang_vm *vm, const lang_args *a, lang_val *out) {
    return lang_str_from_cstr(vm, "", out);
}

/* ------------------------------------------------------------------ calls and paths */

typedef struct running {
    lang_obj *module;
    const char *path; /* interned */
} running;

struct lang_usermod_state {
    running stack[256];
    int n;
    char buf[NN_MODULE_PATH_MAX * 2];
    bw_entry *bw; /* builtin modules' backward hooks */
    int nbw, capbw;
};

static struct lang_usermod_state *ustate(lang_vm *vm) {
    if (!vm->usermod) vm->usermod = calloc(1, sizeof *vm->usermod);
    return vm->usermod;
}

static lang_val *builtin_bw_hooks(lang_vm *vm, lang_val module, bool create) {
    struct lang_usermod_state *us = create ? ustate(vm) : vm->usermod;
    if (!us) {
        if (create) lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        return NULL;
    }
    for (int i = 0; i < us->nbw; i++)
        if (us->bw[i].module == module.u.o) return &us->bw[i].hooks;
    if (!create) return NULL;
    if (us->nbw == us->capbw) {
        int cap = us->capbw ? us->capbw * 2 : 8;
        bw_entry *e = realloc(us->bw, sizeof *e * (size_t)cap);
        if (!e) {
            lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            return NULL;
        }
        us->bw = e;
        us->capbw = cap;
    }
    bw_entry *e = &us->bw[us->nbw++];
    e->module = lang_val_retain(module).u.o;
    e->hooks = lang_none();
    return &e->hooks;
}

void lang_usermod_free(lang_vm *vm) {
    struct lang_usermod_state *us = vm->usermod;
    if (!us) return;
    for (int i = 0; i < us->nbw; i++) {
        lang_val_release(us->bw[i].hooks);
        lang_val_release(lang_obj_val(us->bw[i].module));
    }
    free(us->bw);
    free(us);
    vm->usermod = NULL;
}

/* The dotted name of [target] under [m] ("blocks.1.attn"), or false. */
static bool find_path(lang_vm *vm, lang_val m, lang_val target, char *buf, size_t cap, int depth) {
    modstate *st = ST(m);
    if (!st || depth > 32) return false;
    for (int i = 0; i < st->modules.n; i++) {
        lang_val c = st->modules.e[i].val;
        if (c.kind != LANG_OBJ) continue;
        if (c.u.o == target.u.o) {
            snprintf(buf, cap, "%s", st->modules.e[i].key);
            return true;
        }
        char sub[NN_MODULE_PATH_MAX];
        if (find_path(vm, c, target, sub, sizeof sub, depth + 1)) {
            int n = snprintf(buf, cap, "%s.%s", st->modules.e[i].key, sub);
            return n > 0 && (size_t)n < cap;
        }
    }
    return false;
}

const char *lang_usermod_path(lang_vm *vm, lang_val callee) {
    struct lang_usermod_state *us = vm->usermod;
    if (us && us->n > 0 && callee.kind == LANG_OBJ) {
        const running *top = &us->stack[us->n - 1];
        char rel[NN_MODULE_PATH_MAX];
        if (top->module == callee.u.o) return top->path;
        if (find_path(vm, lang_obj_val(top->module), callee, rel, sizeof rel, 0)) {
            snprintf(us->buf, sizeof us->buf, "%s.%s", top->path, rel);
            return us->buf;
        }
    }
    const char *n = lang_vm_callee_name(vm);
    return n ? n : "model";
}

static bool run_hooks(lang_vm *vm, lang_val hooks, lang_val self, lang_val *inputs,
                      lang_val *output) {
    if (hooks.kind == LANG_NONE) return true;
    /* A copy: a hook may remove itself. */
    lang_val copy;
    if (!lang_list_from_iter(vm, hooks, &copy)) return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(copy); k++) {
        lang_val fn = lang_seq_items(lang_seq_items(copy)[k])[1], r;
        lang_val args[3] = {self, *inputs, output ? *output : lang_none()};
        lang_args a = {output ? 3 : 2, args, 0, NULL, NULL};
        ok = lang_call(vm, fn, &a, &r);
        if (!ok) break;
        if (r.kind == LANG_NONE) continue;
        if (output) {
            lang_val_release(*output);
            *output = r;
        } else {
            lang_val_release(*inputs);
            if (lang_is_obj(r, &lang_tuple_type)) {
                *inputs = r;
            } else {
                ok = lang_tuple_pack(vm, 1, &r, inputs);
                lang_val_release(r);
            }
        }
    }
    lang_val_release(copy);
    return ok;
}

static bool f_call(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__call__", &st)) return false;
    lang_val self = a->pos[0];
    if (!vm->usermod && !(vm->usermod = calloc(1, sizeof *vm->usermod)))
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    struct lang_usermod_state *us = vm->usermod;
    if (us->n >= (int)(sizeof us->stack / sizeof us->stack[0]))
        return lang_raise(vm, LANG_ERR_RECURSION, "modules nested too deeply");
    const char *path = nn_ctx_intern(vm->ctx, lang_usermod_path(vm, self));
    if (!path) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_val inputs;
    if (!lang_tuple_pack(vm, a->n - 1, a->pos + 1, &inputs)) return false;
    bool ok = run_hooks(vm, st->pre_hooks, self, &inputs, NULL);
    lang_val fwd;
    if (ok) ok = lang_getattr(vm, self, "forward", &fwd);
    if (!ok) {
        lang_val_release(inputs);
        return false;
    }
    bw_call *bw = NULL;
    if (st->bw_hooks.kind != LANG_NONE &&
        !bw_begin(vm, self, st->bw_hooks, (int)lang_seq_len(inputs),
                  ((lang_seq_obj *)inputs.u.o)->items, &bw)) {
        lang_val_release(fwd);
        lang_val_release(inputs);
        return false;
    }
    us->stack[us->n].module = self.u.o;
    us->stack[us->n].path = path;
    us->n++;
    const char *saved_label = vm->label_module;
    vm->label_module = path;
    vm->ctx->label.module = path;
    lang_args fa = {(int)lang_seq_len(inputs), lang_seq_items(inputs), a->nkw, a->kwnames, a->kw};
    ok = lang_call(vm, fwd, &fa, out);
    vm->label_module = saved_label;
    vm->ctx->label.module = saved_label;
    us->n--;
    lang_val_release(fwd);
    if (!ok && bw) bw_unref(bw);
    if (ok && !bw_end(vm, bw, *out)) {
        lang_val_release(*out);
        ok = false;
    }
    if (ok && !run_hooks(vm, st->hooks, self, &inputs, out)) {
        lang_val_release(*out);
        ok = false;
    }
    lang_val_release(inputs);
    return ok;
}

/* ------------------------------------------------------------------ repr */

static void add_indented(lang_buf *out, const char *s) {
    for (; *s; s++) {
        lang_buf_add(out, s, 1);
        if (*s == '\n') lang_buf_puts(out, "  ");
    }
}

bool lang_usermod_repr(lang_vm *vm, lang_val self, lang_buf *out) {
    modstate *st = ST(self);
    lang_val extra;
    if (!call_method(vm, self, "extra_repr", 0, NULL, &extra)) return false;
    const char *ex = lang_is_str(extra) ? lang_str_cstr(extra) : "";
    bool has_extra = *ex != 0, one_line_extra = has_extra && !strchr(ex, '\n');
    lang_buf_printf(out, "%s(", lang_type_name(self));
    int nchild = st ? st->modules.n : 0;
    if (has_extra && one_line_extra && !nchild) {
        lang_buf_puts(out, ex);
    } else if (has_extra || nchild) {
        lang_buf_puts(out, "\n  ");
        bool first = true;
        if (has_extra) {
            add_indented(out, ex);
            first = false;
        }
        for (int i = 0; i < nchild; i++) {
            if (!first) lang_buf_puts(out, "\n  ");
            first = false;
            lang_buf child;
            lang_buf_init(&child);
            if (!lang_repr(vm, st->modules.e[i].val, &child)) {
                lang_buf_free(&child);
                lang_val_release(extra);
                return false;
            }
            lang_buf_printf(out, "(%s): ", st->modules.e[i].key);
            add_indented(out, child.data ? child.data : "");
            lang_buf_free(&child);
        }
        lang_buf_puts(out, "\n");
    }
    lang_buf_puts(out, ")");
    lang_val_release(extra);
    return true;
}

/* ------------------------------------------------------------------ containers */

static bool container_key(lang_vm *vm, modstate *st, lang_val key, int64_t *idx) {
    int64_t n = st->modules.n;
    if (key.kind != LANG_INT)
        return lang_raise(vm, LANG_ERR_TYPE, "indices must be integers or slices, not %s",
                          lang_type_name(key));
    int64_t i = key.u.i < 0 ? key.u.i + n : key.u.i;
    if (i < 0 || i >= n)
        return lang_raise(vm, LANG_ERR_INDEX, "index %" PRId64 " is out of range", key.u.i);
    *idx = i;
    return true;
}

static bool renumber(lang_vm *vm, modstate *st) {
    /* ModuleList and Sequential keys are "0", "1", ... in order. */
    lang_ns old = st->modules;
    memset(&st->modules, 0, sizeof st->modules);
    bool ok = true;
    for (int i = 0; ok && i < old.n; i++) {
        char k[24];
        snprintf(k, sizeof k, "%d", i);
        ok = lang_ns_set(vm, &st->modules, k, old.e[i].val);
    }
    lang_ns_clear(&old);
    return ok;
}

static bool list_append_mod(lang_vm *vm, modstate *st, lang_val m) {
    if (!is_module(m))
        return lang_raise(vm, LANG_ERR_TYPE, "%s is not a Module subclass", lang_type_name(m));
    char k[24];
    snprintf(k, sizeof k, "%d", st->modules.n);
    return lang_ns_set(vm, &st->modules, k, m);
}

static bool f_list_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val mods = lang_none();
    if (!self_arg(vm, a, "ModuleList", &st) ||
        !parse_rest(vm, a, "ModuleList", "|modules", &mods, NULL, NULL))
        return false;
    if (mods.kind != LANG_NONE) {
        lang_val items;
        if (!lang_list_from_iter(vm, mods, &items)) return false;
        bool ok = true;
        for (int64_t k = 0; ok && k < lang_seq_len(items); k++)
            ok = list_append_mod(vm, st, lang_seq_items(items)[k]);
        lang_val_release(items);
        if (!ok) return false;
    }
    *out = lang_none();
    return true;
}

static bool f_seq_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "Sequential", &st)) return false;
    if (a->n == 2 && lang_is_obj(a->pos[1], &lang_dict_type)) {
        /* Sequential(OrderedDict([('fc1', Linear(...)), ...])): named children */
        lang_dict_obj *d = (lang_dict_obj *)a->pos[1].u.o;
        for (int64_t i = 0; i < d->nent; i++) {
            if (!d->entries[i].live) continue;
            lang_val k = d->entries[i].key, m = d->entries[i].value;
            if (!lang_is_str(k))
                return lang_raise(vm, LANG_ERR_TYPE, "module name should be a string. Got %s",
                                  lang_type_name(k));
            if (!is_module(m))
                return lang_raise(vm, LANG_ERR_TYPE, "%s is not a Module subclass",
                                  lang_type_name(m));
            if (!lang_ns_set(vm, &st->modules, lang_str_cstr(k), m)) return false;
        }
        *out = lang_none();
        return true;
    }
    for (int k = 1; k < a->n; k++)
        if (!list_append_mod(vm, st, a->pos[k])) return false;
    *out = lang_none();
    return true;
}

static bool f_list_getitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    int64_t i = 0;
    if (!self_arg(vm, a, "__getitem__", &st) || a->n != 2) return false;
    if (lang_is_obj(a->pos[1], &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, a->pos[1], st->modules.n, &start, &stop, &step, &count))
            return false;
        lang_val cls = lang_obj_val(&lang_instance_of_val(a->pos[0])->cls->hdr);
        lang_args none = {0, NULL, 0, NULL, NULL};
        if (!lang_call(vm, cls, &none, out)) return false;
        modstate *ns = ST(*out);
        for (int64_t k = 0, j = start; k < count; k++, j += step)
            if (!list_append_mod(vm, ns, st->modules.e[j].val)) {
                lang_val_release(*out);
                return false;
            }
        return true;
    }
    if (!container_key(vm, st, a->pos[1], &i)) return false;
    *out = lang_val_retain(st->modules.e[i].val);
    return true;
}

static bool f_list_setitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    int64_t i = 0;
    if (!self_arg(vm, a, "__setitem__", &st) || a->n != 3 || !container_key(vm, st, a->pos[1], &i))
        return false;
    if (!is_module(a->pos[2]))
        return lang_raise(vm, LANG_ERR_TYPE, "%s is not a Module subclass",
                          lang_type_name(a->pos[2]));
    lang_val old = st->modules.e[i].val;
    st->modules.e[i].val = lang_val_retain(a->pos[2]);
    lang_val_release(old);
    *out = lang_none();
    return true;
}

static bool f_list_len(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__len__", &st)) return false;
    *out = lang_int(st->modules.n);
    return true;
}

static bool f_list_iter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val kids;
    if (!f_children(vm, a, &kids)) return false;
    bool ok = lang_iter(vm, kids, out);
    lang_val_release(kids);
    return ok;
}

static bool f_list_append(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val m;
    if (!self_arg(vm, a, "append", &st) || !parse_rest(vm, a, "append", "module", &m, NULL, NULL) ||
        !list_append_mod(vm, st, m))
        return false;
    *out = lang_val_retain(a->pos[0]);
    return true;
}

static bool f_list_extend(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val ms, items;
    if (!self_arg(vm, a, "extend", &st) ||
        !parse_rest(vm, a, "extend", "modules", &ms, NULL, NULL) ||
        !lang_list_from_iter(vm, ms, &items))
        return false;
    bool ok = true;
    for (int64_t k = 0; ok && k < lang_seq_len(items); k++)
        ok = list_append_mod(vm, st, lang_seq_items(items)[k]);
    lang_val_release(items);
    if (ok) *out = lang_val_retain(a->pos[0]);
    return ok;
}

static bool f_list_insert(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val idx, m;
    int64_t i;
    if (!self_arg(vm, a, "insert", &st) ||
        !parse_rest(vm, a, "insert", "index,module", &idx, &m, NULL) ||
        !lang_to_int(vm, idx, "index", &i) || !list_append_mod(vm, st, m))
        return false;
    int n = st->modules.n;
    if (i < 0) i += n - 1;
    if (i < 0) i = 0;
    if (i > n - 1) i = n - 1;
    lang_ns_entry e = st->modules.e[n - 1];
    memmove(&st->modules.e[i + 1], &st->modules.e[i], sizeof e * (size_t)(n - 1 - i));
    st->modules.e[i] = e;
    if (!renumber(vm, st)) return false;
    *out = lang_none();
    return true;
}

static bool f_seq_forward(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "forward", &st)) return false;
    if (a->n != 2)
        return lang_raise(vm, LANG_ERR_TYPE, "Sequential.forward() takes one input (%d given)",
                          a->n - 1);
    lang_val x = lang_val_retain(a->pos[1]);
    for (int i = 0; i < st->modules.n; i++) {
        lang_val y;
        lang_args ca = {1, &x, 0, NULL, NULL};
        bool ok = lang_call(vm, st->modules.e[i].val, &ca, &y);
        lang_val_release(x);
        if (!ok) return false;
        x = y;
    }
    *out = x;
    return true;
}

static bool dict_key(lang_vm *vm, lang_val k) {
    if (!lang_is_str(k))
        return lang_raise(vm, LANG_ERR_TYPE, "module name should be a string. Got %s",
                          lang_type_name(k));
    return true;
}

static bool f_dict_setitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__setitem__", &st) || a->n != 3 || !dict_key(vm, a->pos[1])) return false;
    if (!is_module(a->pos[2]))
        return lang_raise(vm, LANG_ERR_TYPE, "%s is not a Module subclass",
                          lang_type_name(a->pos[2]));
    if (!lang_ns_set(vm, &st->modules, lang_str_cstr(a->pos[1]), a->pos[2])) return false;
    *out = lang_none();
    return true;
}

static bool f_dict_update(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val src;
    if (!self_arg(vm, a, "update", &st) ||
        !parse_rest(vm, a, "update", "modules", &src, NULL, NULL))
        return false;
    if (!lang_is_obj(src, &lang_dict_type))
        return lang_raise(vm, LANG_ERR_TYPE, "ModuleDict.update should be called with a dict");
    lang_dict_obj *d = (lang_dict_obj *)src.u.o;
    for (int64_t k = 0; k < d->nent; k++) {
        if (!d->entries[k].live) continue;
        lang_val args[3] = {a->pos[0], d->entries[k].key, d->entries[k].value}, r;
        if (!f_dict_setitem(vm, &(lang_args){3, args, 0, NULL, NULL}, &r)) return false;
    }
    *out = lang_none();
    return true;
}

static bool f_dict_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    lang_val src = lang_none();
    if (!self_arg(vm, a, "ModuleDict", &st) ||
        !parse_rest(vm, a, "ModuleDict", "|modules", &src, NULL, NULL))
        return false;
    if (src.kind != LANG_NONE) {
        lang_val args[2] = {a->pos[0], src};
        if (!f_dict_update(vm, &(lang_args){2, args, 0, NULL, NULL}, out)) return false;
    }
    *out = lang_none();
    return true;
}

static bool f_dict_getitem(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__getitem__", &st) || a->n != 2 || !dict_key(vm, a->pos[1])) return false;
    const char *k = lang_str_cstr(a->pos[1]);
    lang_val *v = lang_ns_find(&st->modules, k, H(k));
    if (!v) return lang_raise(vm, LANG_ERR_KEY, "'%s'", k);
    *out = lang_val_retain(*v);
    return true;
}

static bool f_dict_contains(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__contains__", &st) || a->n != 2) return false;
    *out = lang_bool(lang_is_str(a->pos[1]) && lang_ns_find(&st->modules, lang_str_cstr(a->pos[1]),
                                                            H(lang_str_cstr(a->pos[1]))) != NULL);
    return true;
}

static bool dict_view(lang_vm *vm, const lang_args *a, int which, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "keys", &st) || !lang_list_new(vm, 0, out)) return false;
    for (int i = 0; i < st->modules.n; i++) {
        lang_val v;
        bool ok;
        if (which == 0) {
            ok = lang_str_from_cstr(vm, st->modules.e[i].key, &v);
        } else if (which == 1) {
            v = lang_val_retain(st->modules.e[i].val);
            ok = true;
        } else {
            ok = pair(vm, st->modules.e[i].key, st->modules.e[i].val, &v);
        }
        if (ok) {
            ok = lang_list_append(vm, *out, v);
            lang_val_release(v);
        }
        if (!ok) {
            lang_val_release(*out);
            return false;
        }
    }
    return true;
}

static bool f_dict_keys(lang_vm *vm, const lang_args *a, lang_val *out) {
    return dict_view(vm, a, 0, out);
}
static bool f_dict_values(lang_vm *vm, const lang_args *a, lang_val *out) {
    return dict_view(vm, a, 1, out);
}
static bool f_dict_items(lang_vm *vm, const lang_args *a, lang_val *out) {
    return dict_view(vm, a, 2, out);
}
static bool f_dict_iter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val keys;
    if (!dict_view(vm, a, 0, &keys)) return false;
    bool ok = lang_iter(vm, keys, out);
    lang_val_release(keys);
    return ok;
}

/* ------------------------------------------------------------------ Parameter */

static bool b_parameter(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val data = lang_none(), rg = lang_bool(true);
    bool req;
    if (!lang_parse_args(vm, a, "Parameter", "|data,requires_grad", &data, &rg) ||
        !lang_to_bool(vm, rg, "requires_grad", &req))
        return false;
    nn_ctx *ctx = lang_vm_ctx(vm);
    nn_tensor *t;
    if (data.kind == LANG_NONE) {
        int64_t zero = 0;
        t = nn_tensor_empty(ctx, NN_FLOAT32, 1, &zero);
    } else {
        nn_tensor *src = lang_tensor_of(data);
        if (!src)
            return lang_raise(vm, LANG_ERR_TYPE, "Parameter() expects a Tensor, not %s",
                              lang_type_name(data));
        t = nn_tensor_detach(ctx, src); /* shares the data, as torch does */
    }
    if (!t) return lang_raise_engine(vm);
    if (req && nn_tensor_requires_grad_(ctx, t, true) != NN_OK) {
        nn_tensor_release(t);
        return lang_raise_engine(vm);
    }
    if (!lang_tensor_new(vm, t, out)) return false;
    lang_tensor_mark_param(*out);
    return true;
}

/* ------------------------------------------------------------------ loss modules */

/* nn.CrossEntropyLoss and friends: modules whose forward calls the
 * functional form with the options given to the constructor. */
static const struct {
    const char *cls, *fn;
} losses[] = {
    {"CrossEntropyLoss", "cross_entropy"},
    {"NLLLoss", "nll_loss"},
    {"MSELoss", "mse_loss"},
    {"BCELoss", "binary_cross_entropy"},
    {"BCEWithLogitsLoss", "binary_cross_entropy_with_logits"},
};

static bool f_loss_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "__init__", &st)) return false;
    if (a->n > 1)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() takes its options as keywords",
                          lang_type_name(a->pos[0]));
    lang_val kw;
    if (!lang_dict_new(vm, &kw)) return false;
    bool ok = true;
    for (int k = 0; ok && k < a->nkw; k++) {
        lang_val key;
        ok = lang_str_from_cstr(vm, a->kwnames[k], &key);
        if (ok) {
            ok = lang_dict_set(vm, kw, key, a->kw[k]);
            lang_val_release(key);
        }
    }
    if (ok) ok = lang_ns_set(vm, &lang_instance_of_val(a->pos[0])->attrs, "_options", kw);
    lang_val_release(kw);
    if (ok) *out = lang_none();
    return ok;
}

static bool f_loss_forward(lang_vm *vm, const lang_args *a, lang_val *out) {
    modstate *st;
    if (!self_arg(vm, a, "forward", &st)) return false;
    const lang_class *c = lang_instance_of_val(a->pos[0])->cls;
    const char *fn = NULL;
    for (; c && !fn; c = lang_is_class(c->base) ? lang_class_of_val(c->base) : NULL)
        for (size_t k = 0; k < sizeof losses / sizeof losses[0]; k++)
            if (!strcmp(c->name, losses[k].cls) && (c->flags & LANG_CLASS_NATIVE))
                fn = losses[k].fn;
    lang_val *f = fn ? lang_vm_global(vm, fn) : NULL;
    if (!f) return lang_raise(vm, LANG_ERR_RUNTIME, "this loss has no functional form");
    lang_val *opts =
        lang_ns_find(&lang_instance_of_val(a->pos[0])->attrs, "_options", H("_options"));
    int nkw = 0;
    const char *names[16];
    lang_val vals[16];
    if (opts && lang_is_obj(*opts, &lang_dict_type)) {
        lang_dict_obj *d = (lang_dict_obj *)opts->u.o;
        for (int64_t k = 0; k < d->nent && nkw < 16; k++)
            if (d->entries[k].live) {
                names[nkw] = lang_str_cstr(d->entries[k].key);
                vals[nkw++] = d->entries[k].value;
            }
    }
    lang_args ca = {a->n - 1, a->pos + 1, nkw, names, vals};
    return lang_call(vm, *f, &ca, out);
}

static const lang_builtin_def loss_methods[] = {
    {"__init__", f_loss_init, {"Loss.__init__", "Loss(**options)", "Keep the options.", ""}},
    {"forward",
     f_loss_forward,
     {"Loss.forward", "forward(input, target)", "The functional loss with the options.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

/* ------------------------------------------------------------------ install */

#define F(n, f, sig, doc)                                                                          \
    {                                                                                              \
        n, f, {                                                                                    \
            "Module." n, sig, doc, ""                                                              \
        }                                                                                          \
    }
static const lang_builtin_def module_methods[] = {
    F("__init__", f_init, "__init__(self)", "Set up the registries (done at creation)."),
    F("__call__", f_call, "__call__(self, *input)",
      "Run forward between the forward pre-hooks and hooks, labelling the ops with the "
      "module's path."),
    F("forward", f_forward, "forward(self, *input)", "Defined by every subclass."),
    F("parameters", f_parameters, "parameters()",
      "The parameters of this module and its descendants, each once."),
    F("named_parameters", f_named_parameters, "named_parameters()",
      "(name, parameter) pairs with dotted names ('blocks.0.attn.weight')."),
    F("buffers", f_buffers, "buffers()", "The buffers (register_buffer) of the module tree."),
    F("named_buffers", f_named_buffers, "named_buffers()", "(name, buffer) pairs."),
    F("children", f_children, "children()", "The direct child modules."),
    F("named_children", f_named_children, "named_children()", "(name, module) for each child."),
    F("modules", f_modules, "modules()", "This module and every descendant, depth first."),
    F("named_modules", f_named_modules, "named_modules()", "(path, module) pairs, '' first."),
    F("state_dict", f_state_dict, "state_dict()",
      "Parameters and persistent buffers by dotted name, as PyTorch orders them."),
    F("load_state_dict", f_load_state_dict, "load_state_dict(state_dict, strict=True)",
      "Copy tensors into the module's parameters and buffers."),
    F("train", f_train, "train(mode=True)", "Set training mode here and in every descendant."),
    F("eval", f_eval, "eval()", "train(False)."),
    F("zero_grad", f_zero_grad, "zero_grad(set_to_none=False)",
      "Zero the gradients of the parameters (or set them to None)."),
    F("apply", f_apply, "apply(fn)", "Call fn on every descendant, then on self."),
    F("register_buffer", f_register_buffer, "register_buffer(name, tensor, persistent=True)",
      "A tensor that is state but not a parameter."),
    F("register_parameter", f_register_parameter, "register_parameter(name, param)",
      "Add a parameter by name."),
    F("add_module", f_add_module, "add_module(name, module)", "Add a child module by name."),
    F("register_full_backward_hook", f_register_full_backward_hook,
      "register_full_backward_hook(hook)",
      "Call hook(module, grad_input, grad_output) when the gradients of the module's inputs "
      "are computed; a returned tuple replaces grad_input. Returns a handle with remove()."),
    F("register_forward_hook", f_register_forward_hook, "register_forward_hook(hook)",
      "hook(module, inputs, output) after each forward; a non-None result replaces the output."),
    F("register_forward_pre_hook", f_register_forward_pre_hook, "register_forward_pre_hook(hook)",
      "hook(module, inputs) before each forward; a non-None result replaces the inputs."),
    F("to", f_to, "to(device or dtype)",
      "Returns the module (nndb computes on the CPU); a float dtype converts the float "
      "parameters and buffers in place."),
    F("half", f_half, "half()", "Float parameters and buffers to float16, in place."),
    F("bfloat16", f_bfloat16, "bfloat16()", "Float parameters and buffers to bfloat16, in place."),
    F("float", f_float, "float()", "Float parameters and buffers to float32, in place."),
    F("double", f_double, "double()", "Float parameters and buffers to float64, in place."),
    F("cpu", f_to, "cpu()", "Returns the module."),
    F("cuda", f_to, "cuda()", "Returns the module (nndb has no CUDA)."),
    F("requires_grad_", f_requires_grad_, "requires_grad_(requires_grad=True)",
      "Turn gradient tracking of every parameter on or off."),
    F("extra_repr", f_extra_repr, "extra_repr()", "Extra text for repr (subclasses override)."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_builtin_def list_methods[] = {
    F("__init__", f_list_init, "ModuleList(modules=None)", "Hold modules in a list."),
    F("__getitem__", f_list_getitem, "__getitem__(idx)", "A child by index (or a slice)."),
    F("__setitem__", f_list_setitem, "__setitem__(idx, module)", "Replace a child."),
    F("__len__", f_list_len, "__len__()", "The number of children."),
    F("__iter__", f_list_iter, "__iter__()", "Iterate over the children."),
    F("append", f_list_append, "append(module)", "Add a child at the end."),
    F("extend", f_list_extend, "extend(modules)", "Add children at the end."),
    F("insert", f_list_insert, "insert(index, module)", "Insert a child."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_builtin_def seq_methods[] = {
    F("__init__", f_seq_init, "Sequential(*modules) | Sequential(OrderedDict)",
      "Run modules one after the other (named by an OrderedDict's keys)."),
    F("forward", f_seq_forward, "forward(input)", "Feed the input through each child in order."),
    F("__getitem__", f_list_getitem, "__getitem__(idx)", "A child by index (or a slice)."),
    F("__len__", f_list_len, "__len__()", "The number of children."),
    F("__iter__", f_list_iter, "__iter__()", "Iterate over the children."),
    F("append", f_list_append, "append(module)", "Add a child at the end."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
static const lang_builtin_def dict_methods[] = {
    F("__init__", f_dict_init, "ModuleDict(modules=None)", "Hold modules by name."),
    F("__getitem__", f_dict_getitem, "__getitem__(key)", "A child by name."),
    F("__setitem__", f_dict_setitem, "__setitem__(key, module)", "Add or replace a child."),
    F("__len__", f_list_len, "__len__()", "The number of children."),
    F("__iter__", f_dict_iter, "__iter__()", "Iterate over the names."),
    F("__contains__", f_dict_contains, "__contains__(key)", "Whether a child has this name."),
    F("keys", f_dict_keys, "keys()", "The names."),
    F("values", f_dict_values, "values()", "The modules."),
    F("items", f_dict_items, "items()", "(name, module) pairs."),
    F("update", f_dict_update, "update(modules)", "Add the modules of a dict."),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef F

static const lang_help parameter_help = {
    "Parameter", "Parameter(data=None, requires_grad=True)",
    "A tensor that a Module registers as a parameter when assigned to one of its attributes. "
    "It shares data with the tensor given.",
    "w = Parameter(torch.zeros(3))"};

static bool make_class(lang_vm *vm, const char *name, const char *qual, lang_class *base,
                       unsigned flags, const lang_builtin_def *methods, lang_val *out) {
    if (!lang_class_new(vm, name, qual, lang_obj_val(&base->hdr), out)) return false;
    lang_class *c = lang_class_of_val(*out);
    c->flags |= flags | LANG_CLASS_NATIVE;
    for (const lang_builtin_def *d = methods; d && d->name; d++) {
        lang_val f;
        if (!lang_builtin_new(vm, d->fn, &d->help, &f)) return false;
        bool ok = lang_ns_set(vm, &c->dict, d->name, f);
        lang_val_release(f);
        if (!ok) return false;
    }
    return true;
}

/* The builtin that makes [kind]'s containers: the engine one when every
 * child is a builtin module, the class otherwise. */
typedef struct container_pick {
    lang_obj hdr;
    lang_val engine_fn, cls;
} container_pick;

static void pick_free(lang_obj *o) {
    lang_val_release(((container_pick *)o)->engine_fn);
    lang_val_release(((container_pick *)o)->cls);
}

static bool any_user_module(lang_vm *vm, const lang_args *a, bool *out) {
    *out = false;
    for (int k = 0; k < a->n && !*out; k++) {
        lang_val v = a->pos[k];
        if (ST(v)) *out = true;
        if (lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type))
            for (int64_t j = 0; j < lang_seq_len(v); j++)
                if (ST(lang_seq_items(v)[j])) *out = true;
    }
    return true;
}

static bool pick_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    container_pick *p = (container_pick *)o;
    bool user;
    any_user_module(vm, a, &user);
    /* An empty container may get user modules later (ModuleList() then
     * append): the class takes both kinds. */
    if (a->n == 0 || (lang_is_obj(a->pos[0], &lang_dict_type))) user = true;
    return lang_call(vm, user ? p->cls : p->engine_fn, a, out);
}

static bool pick_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    return lang_repr(vm, ((container_pick *)o)->cls, out);
}

static bool pick_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    *found = true;
    return lang_getattr(vm, ((container_pick *)o)->cls, name, out);
}

static const lang_type pick_type = {.name = "type",
                                    .free = pick_free,
                                    .repr = pick_repr,
                                    .getattr = pick_getattr,
                                    .call = pick_call};

lang_val lang_usermod_container_class(lang_val v) {
    return lang_is_obj(v, &pick_type) ? ((container_pick *)v.u.o)->cls : v;
}

static bool install_container(lang_vm *vm, const char *name, lang_val cls) {
    lang_val *engine_fn = lang_vm_global(vm, name);
    if (!engine_fn) return lang_vm_set_builtin(vm, name, cls);
    container_pick *p = lang_obj_new(vm, &pick_type, sizeof *p);
    if (!p) return false;
    p->engine_fn = lang_val_retain(*engine_fn);
    p->cls = lang_val_retain(cls);
    lang_val pv = lang_obj_val(&p->hdr);
    bool ok = lang_vm_set_builtin(vm, name, pv);
    lang_val_release(pv);
    return ok;
}

bool lang_usermod_install(lang_vm *vm) {
    lang_class *object = lang_builtin_class(vm, "object");
    lang_val module, list, seq, dict, dataset, param;
    if (!object) return lang_raise(vm, LANG_ERR_RUNTIME, "object class missing");
    if (!make_class(vm, "Module", "torch.nn.modules.module.Module", object, LANG_CLASS_MODULE,
                    module_methods, &module))
        return false;
    lang_class *mc = lang_class_of_val(module);
    static const lang_help module_help = {
        "Module", "class Net(Module): def __init__(self): super().__init__() ...",
        "The base class of models (torch.nn.Module): assign Parameters and modules to self in "
        "__init__, compute in forward, call the model to run it.",
        "class Net(Module):\n    def __init__(self):\n        super().__init__()\n        self.fc "
        "= "
        "Linear(2, 1)\n    def forward(self, x):\n        return self.fc(x)"};
    mc->help = &module_help;
    bool ok = make_class(vm, "ModuleList", "torch.nn.modules.container.ModuleList", mc, 0,
                         list_methods, &list);
    if (ok) {
        ok = make_class(vm, "Sequential", "torch.nn.modules.container.Sequential", mc, 0,
                        seq_methods, &seq);
        if (ok) {
            ok = make_class(vm, "ModuleDict", "torch.nn.modules.container.ModuleDict", mc, 0,
                            dict_methods, &dict);
            if (ok) {
                ok = install_container(vm, "ModuleDict", dict);
                lang_val_release(dict);
            }
            if (ok) ok = install_container(vm, "Sequential", seq);
            lang_val_release(seq);
        }
        if (ok) ok = install_container(vm, "ModuleList", list);
        lang_val_release(list);
    }
    for (size_t k = 0; ok && k < sizeof losses / sizeof losses[0]; k++) {
        char qual[96];
        lang_val lc;
        snprintf(qual, sizeof qual, "torch.nn.modules.loss.%s", losses[k].cls);
        ok = make_class(vm, losses[k].cls, qual, mc, 0, loss_methods, &lc);
        if (ok) {
            ok = lang_vm_set_builtin(vm, losses[k].cls, lc);
            lang_val_release(lc);
        }
    }
    if (ok) ok = lang_vm_set_builtin(vm, "Module", module);
    lang_val_release(module);
    if (!ok) return false;
    if (!make_class(vm, "Dataset", "torch.utils.data.dataset.Dataset", object, LANG_CLASS_DATASET,
                    NULL, &dataset))
        return false;
    ok = lang_vm_set_builtin(vm, "Dataset", dataset);
    lang_val_release(dataset);
    if (!ok || !lang_builtin_new(vm, b_parameter, &parameter_help, &param)) return false;
    ok = lang_vm_set_builtin(vm, "Parameter", param);
    lang_val_release(param);
    return ok && lang_loader_install(vm);
}
