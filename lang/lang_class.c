/* lang_class: classes, instances, methods, super(), staticmethod,
 * classmethod, property, and the builtin exception classes (see
 * lang_class.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_ast.h"
#include "lang_class.h"
#include "lang_eval.h"
#include "lang_function.h"
#include "lang_nn.h"
#include "lang_tensor.h"
#include "lang_usermod.h"
#include "lang_value_impl.h"

/* ------------------------------------------------------------------ namespaces */

static uint32_t hash_of(const char *s) {
    return lang_name_hash(s, strlen(s));
}

lang_val *lang_ns_find(const lang_ns *ns, const char *name, uint32_t hash) {
    for (int i = 0; i < ns->n; i++)
        if (ns->e[i].hash == hash && (ns->e[i].key == name || !strcmp(ns->e[i].key, name)))
            return &ns->e[i].val;
    return NULL;
}

bool lang_ns_set(lang_vm *vm, lang_ns *ns, const char *name, lang_val v) {
    uint32_t h = hash_of(name);
    lang_val *slot = lang_ns_find(ns, name, h);
    if (slot) {
        lang_val old = *slot;
        *slot = lang_val_retain(v);
        lang_val_release(old);
        return true;
    }
    if (ns->n == ns->cap) {
        int cap = ns->cap ? ns->cap * 2 : 4;
        lang_ns_entry *e = realloc(ns->e, sizeof *e * (size_t)cap);
        if (!e) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        ns->e = e;
        ns->cap = cap;
    }
    const char *key = nn_ctx_intern(vm->ctx, name);
    if (!key) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    ns->e[ns->n].key = key;
    ns->e[ns->n].hash = h;
    ns->e[ns->n].val = lang_val_retain(v);
    ns->n++;
    return true;
}

bool lang_ns_del(lang_ns *ns, const char *name) {
    uint32_t h = hash_of(name);
    for (int i = 0; i < ns->n; i++)
        if (ns->e[i].hash == h && !strcmp(ns->e[i].key, name)) {
            lang_val old = ns->e[i].val;
            memmove(&ns->e[i], &ns->e[i + 1], sizeof ns->e[0] * (size_t)(ns->n - i - 1));
            ns->n--;
            lang_val_release(old);
            return true;
        }
    return false;
}

void lang_ns_clear(lang_ns *ns) {
    int n = ns->n;
    lang_ns_entry *e = ns->e;
    ns->n = 0;
    ns->cap = 0;
    ns->e = NULL;
    for (int i = 0; i < n; i++) lang_val_release(e[i].val);
    free(e);
}

/* ------------------------------------------------------------------ session state */

typedef struct lang_class_state {
    lang_class class_head;       /* live classes (sentinel) */
    lang_instance instance_head; /* live instances (sentinel) */
    lang_ns builtins;            /* name -> builtin class */
} lang_class_state;

static lang_class_state *cstate(lang_vm *vm) {
    if (!vm->cls_state) vm->cls_state = calloc(1, sizeof(lang_class_state));
    return vm->cls_state;
}

lang_class *lang_builtin_class(lang_vm *vm, const char *name) {
    lang_class_state *st = vm->cls_state;
    if (!st) return NULL;
    lang_val *v = lang_ns_find(&st->builtins, name, hash_of(name));
    return v ? lang_class_of_val(*v) : NULL;
}

bool lang_class_register_builtin(lang_vm *vm, const char *name, lang_val cls) {
    lang_class_state *st = cstate(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    return lang_ns_set(vm, &st->builtins, name, cls);
}

void lang_class_sweep(lang_vm *vm) {
    lang_class_state *st = vm->cls_state;
    if (!st) return;
    /* Hold every live object, empty it, then let go: cycles fall apart. */
    size_t n = 0;
    for (lang_instance *i = st->instance_head.live_next; i; i = i->live_next) n++;
    for (lang_class *c = st->class_head.live_next; c; c = c->live_next) n++;
    lang_obj **all = malloc(sizeof *all * (n ? n : 1));
    size_t k = 0;
    if (all) {
        for (lang_instance *i = st->instance_head.live_next; i; i = i->live_next) {
            i->hdr.refcount++;
            all[k++] = &i->hdr;
        }
        for (lang_class *c = st->class_head.live_next; c; c = c->live_next) {
            c->hdr.refcount++;
            all[k++] = &c->hdr;
        }
        /* Off the lists first: what is released later (classes that builtin
         * slots still hold) must not reach back into the freed state. */
        for (size_t j = 0; j < k; j++) {
            if (all[j]->type == &lang_instance_type) {
                lang_instance *i = (lang_instance *)all[j];
                i->live_prev = i->live_next = NULL;
            } else {
                lang_class *c = (lang_class *)all[j];
                c->live_prev = c->live_next = NULL;
            }
        }
        st->instance_head.live_next = NULL;
        st->class_head.live_next = NULL;
        for (size_t j = 0; j < k; j++) {
            if (all[j]->type == &lang_instance_type) {
                lang_instance *i = (lang_instance *)all[j];
                lang_ns_clear(&i->attrs);
                if (i->state && i->state_free) {
                    void *s = i->state;
                    i->state = NULL;
                    i->state_free(s);
                }
            } else {
                lang_class *c = (lang_class *)all[j];
                lang_ns_clear(&c->dict);
                lang_val b = c->base;
                c->base = lang_none();
                lang_val_release(b);
            }
        }
        for (size_t j = 0; j < k; j++) lang_val_release(lang_obj_val(all[j]));
        free(all);
    }
    lang_ns_clear(&st->builtins);
    free(st);
    vm->cls_state = NULL;
}

/* ------------------------------------------------------------------ classes */

static void class_free(lang_obj *o) {
    lang_class *c = (lang_class *)o;
    if (c->live_prev) c->live_prev->live_next = c->live_next;
    if (c->live_next) c->live_next->live_prev = c->live_prev;
    lang_ns_clear(&c->dict);
    lang_val_release(c->base);
}

lang_val *lang_class_lookup(const lang_class *c, const char *name) {
    return lang_class_lookup_h(c, name, hash_of(name));
}

lang_val *lang_class_lookup_h(const lang_class *c, const char *name, uint32_t h) {
    while (c) {
        lang_val *v = lang_ns_find(&c->dict, name, h);
        if (v) return v;
        c = lang_is_class(c->base) ? lang_class_of_val(c->base) : NULL;
    }
    return NULL;
}

bool lang_class_is_subclass(const lang_class *c, const lang_class *base) {
    for (; c; c = lang_is_class(c->base) ? lang_class_of_val(c->base) : NULL)
        if (c == base) return true;
    return false;
}

bool lang_class_isinstance(lang_val v, const lang_class *c) {
    if (lang_is_instance(v)) return lang_class_is_subclass(lang_instance_of_val(v)->cls, c);
    /* Every value is an object; other builtin classes have no instances
     * outside this file. */
    return !lang_is_class(c->base) && !strcmp(c->name, "object");
}

bool lang_class_new(lang_vm *vm, const char *name, const char *qualname, lang_val base,
                    lang_val *out) {
    lang_class_state *st = cstate(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_class *c = lang_obj_new(vm, &lang_class_type, sizeof *c);
    if (!c) return false;
    c->name = nn_ctx_intern(vm->ctx, name);
    c->qualname = nn_ctx_intern(vm->ctx, qualname ? qualname : name);
    c->base = lang_val_retain(base);
    c->err = LANG_ERR_RUNTIME;
    if (lang_is_class(base)) {
        const lang_class *b = lang_class_of_val(base);
        c->flags = b->flags & ~(unsigned)LANG_CLASS_NATIVE;
        c->err = b->err;
    }
    c->live_next = st->class_head.live_next;
    c->live_prev = &st->class_head;
    if (c->live_next) c->live_next->live_prev = c;
    st->class_head.live_next = c;
    *out = lang_obj_val(&c->hdr);
    if (!c->name || !c->qualname) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    return true;
}

static bool class_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<class '%s'>", ((lang_class *)o)->qualname);
    return true;
}

/* What an attribute found on a class means when read through [self]
 * (an instance, or None when read on the class [c] itself). */
static bool bind_attr(lang_vm *vm, lang_val found, lang_val self, lang_class *c, lang_val *out) {
    if (lang_is_obj(found, &lang_staticmethod_type)) {
        *out = lang_val_retain(*(lang_val *)((char *)found.u.o + sizeof(lang_obj)));
        return true;
    }
    if (lang_is_obj(found, &lang_classmethod_type)) {
        lang_val fn = *(lang_val *)((char *)found.u.o + sizeof(lang_obj));
        return lang_method_new(vm, lang_obj_val(&c->hdr), fn, out);
    }
    if (self.kind != LANG_NONE &&
        (lang_is_obj(found, &lang_func_type) || lang_is_obj(found, &lang_builtin_type) ||
         lang_is_obj(found, &lang_grad_wrap_type)))
        return lang_method_new(vm, self, found, out);
    *out = lang_val_retain(found);
    return true;
}

static bool class_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    lang_class *c = (lang_class *)o;
    *found = true;
    lang_val *v = lang_class_lookup(c, name);
    if (v) return bind_attr(vm, *v, lang_none(), c, out);
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__"))
        return lang_str_from_cstr(vm, c->name, out);
    if (!strcmp(name, "__module__")) {
        const char *dot = strrchr(c->qualname, '.');
        if (!dot) return lang_str_from_cstr(vm, "builtins", out);
        return lang_str_new(vm, c->qualname, (size_t)(dot - c->qualname), out);
    }
    if (!strcmp(name, "__base__")) {
        *out = lang_val_retain(c->base);
        return true;
    }
    if (!strcmp(name, "__bases__")) {
        if (c->base.kind == LANG_NONE) return lang_tuple_new(vm, 0, out);
        return lang_tuple_pack(vm, 1, &c->base, out);
    }
    if (!strcmp(name, "__doc__")) {
        *out = lang_none();
        return true;
    }
    if (!strcmp(name, "__dict__")) {
        if (!lang_dict_new(vm, out)) return false;
        for (int i = 0; i < c->dict.n; i++) {
            lang_val k;
            if (!lang_str_from_cstr(vm, c->dict.e[i].key, &k)) return false;
            bool ok = lang_dict_set(vm, *out, k, c->dict.e[i].val);
            lang_val_release(k);
            if (!ok) return false;
        }
        return true;
    }
    *found = false;
    return lang_raise(vm, LANG_ERR_ATTRIBUTE, "type object '%s' has no attribute '%s'", c->name,
                      name);
}

static bool class_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    return lang_ns_set(vm, &((lang_class *)o)->dict, name, v);
}

static bool exc_init_args(lang_vm *vm, lang_val self, const lang_args *a);

static bool class_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_class *c = (lang_class *)o;
    lang_class *object = lang_builtin_class(vm, "object");
    lang_val *own_init = lang_class_lookup(c, "__init__");
    if (c->flags & LANG_CLASS_FUNCTION &&
        (!own_init || (object && own_init == lang_class_lookup(object, "__init__"))))
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "%s is an autograd.Function: call %s.apply(...), not %s(...)", c->name,
                          c->name, c->name);
    lang_val self;
    if (!lang_instance_new(vm, c, &self)) return false;
    if (c->flags & LANG_CLASS_EXCEPTION && !exc_init_args(vm, self, a)) {
        lang_val_release(self);
        return false;
    }
    lang_val *init = lang_class_lookup(c, "__init__");
    if (init) {
        lang_val *pos = malloc(sizeof *pos * (size_t)(a->n + 1));
        if (!pos) {
            lang_val_release(self);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
        pos[0] = self;
        for (int i = 0; i < a->n; i++) pos[i + 1] = a->pos[i];
        lang_args a2 = {a->n + 1, pos, a->nkw, a->kwnames, a->kw};
        lang_val r;
        bool ok = lang_call(vm, *init, &a2, &r);
        free(pos);
        if (!ok) {
            lang_val_release(self);
            return false;
        }
        bool none = r.kind == LANG_NONE;
        lang_val_release(r);
        if (!none) {
            lang_val_release(self);
            return lang_raise(vm, LANG_ERR_TYPE, "__init__() should return None, not '%s'",
                              lang_type_name(r));
        }
    } else if ((a->n || a->nkw) && !(c->flags & LANG_CLASS_EXCEPTION)) {
        lang_val_release(self);
        return lang_raise(vm, LANG_ERR_TYPE, "%s() takes no arguments", c->name);
    }
    *out = self;
    return true;
}

static const char *const *class_fields(lang_obj *o) {
    /* dir() of a class: its own names (the chain's would need a merge). */
    lang_class *c = (lang_class *)o;
    static _Thread_local const char *names[257];
    int n = 0;
    for (int i = 0; i < c->dict.n && n < 256; i++) names[n++] = c->dict.e[i].key;
    names[n] = NULL;
    return names;
}

const lang_type lang_class_type = {
    .name = "type",
    .free = class_free,
    .repr = class_repr,
    .getattr = class_getattr,
    .setattr = class_setattr,
    .call = class_call,
    .fields = class_fields,
};

/* ------------------------------------------------------------------ instances */

static void instance_free(lang_obj *o) {
    lang_instance *i = (lang_instance *)o;
    if (i->live_prev) i->live_prev->live_next = i->live_next;
    if (i->live_next) i->live_next->live_prev = i->live_prev;
    lang_ns_clear(&i->attrs);
    if (i->state && i->state_free) i->state_free(i->state);
    lang_val_release(lang_obj_val(&i->cls->hdr));
}

bool lang_instance_new(lang_vm *vm, lang_class *c, lang_val *out) {
    lang_class_state *st = cstate(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_instance *i = lang_obj_new(vm, &lang_instance_type, sizeof *i);
    if (!i) return false;
    i->cls = c;
    c->hdr.refcount++;
    i->live_next = st->instance_head.live_next;
    i->live_prev = &st->instance_head;
    if (i->live_next) i->live_next->live_prev = i;
    st->instance_head.live_next = i;
    *out = lang_obj_val(&i->hdr);
    if (c->flags & LANG_CLASS_MODULE && !lang_usermod_init(vm, *out)) {
        lang_val_release(*out);
        return false;
    }
    return true;
}

bool lang_call_dunder(lang_vm *vm, lang_val self, const char *name, int n, const lang_val *args,
                      lang_val *out, bool *found) {
    lang_instance *inst = lang_instance_of_val(self);
    lang_val *f = lang_class_lookup(inst->cls, name);
    *found = f != NULL;
    if (!f) return true;
    lang_val pos[8];
    if (n > 7) return lang_raise(vm, LANG_ERR_TYPE, "too many arguments to %s", name);
    pos[0] = self;
    for (int k = 0; k < n; k++) pos[k + 1] = args[k];
    lang_args a = {n + 1, pos, 0, NULL, NULL};
    if (lang_is_obj(*f, &lang_staticmethod_type)) {
        a.pos = pos + 1;
        a.n = n;
        return lang_call(vm, *(lang_val *)((char *)f->u.o + sizeof(lang_obj)), &a, out);
    }
    return lang_call(vm, *f, &a, out);
}

static bool instance_getattr_h(lang_vm *vm, lang_obj *o, const char *name, uint32_t h,
                               lang_val *out, bool *found);

static bool instance_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                             bool *found) {
    return instance_getattr_h(vm, o, name, hash_of(name), out, found);
}

bool lang_instance_method(lang_val self, const char *name, uint32_t h, lang_val *fn) {
    lang_instance *i = lang_instance_of_val(self);
    if (i->attrs.n && lang_ns_find(&i->attrs, name, h)) return false;
    if (i->state) return false; /* modules: registries come first */
    lang_val *cv = lang_class_lookup_h(i->cls, name, h);
    if (!cv || !lang_is_obj(*cv, &lang_func_type)) return false;
    *fn = *cv;
    return true;
}

bool lang_instance_getattr_h(lang_vm *vm, lang_val self, const char *name, uint32_t h,
                             lang_val *out) {
    bool found;
    if (!instance_getattr_h(vm, self.u.o, name, h, out, &found)) return false;
    if (found) return true;
    return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'%s' object has no attribute '%s'",
                      lang_instance_of_val(self)->cls->name, name);
}

static bool instance_getattr_h(lang_vm *vm, lang_obj *o, const char *name, uint32_t h,
                               lang_val *out, bool *found) {
    lang_instance *i = (lang_instance *)o;
    lang_val self = lang_obj_val(o);
    *found = true;
    /* Instance attributes first when no property could shadow them: the
     * common case (self.x) costs one probe. */
    lang_val *iv = lang_ns_find(&i->attrs, name, h);
    lang_val *cv = lang_class_lookup_h(i->cls, name, h);
    if (iv && !(cv && lang_is_obj(*cv, &lang_property_type))) {
        *out = lang_val_retain(*iv);
        return true;
    }
    if (cv && lang_is_obj(*cv, &lang_property_type)) {
        lang_val fget = ((lang_val *)((char *)cv->u.o + sizeof(lang_obj)))[0];
        if (fget.kind == LANG_NONE)
            return lang_raise(vm, LANG_ERR_ATTRIBUTE, "property '%s' of '%s' object has no getter",
                              name, i->cls->name);
        lang_args a = {1, &self, 0, NULL, NULL};
        return lang_call(vm, fget, &a, out);
    }
    if (i->state && i->cls->flags & LANG_CLASS_MODULE) {
        bool f = false;
        if (!lang_usermod_getattr(vm, self, name, out, &f)) return false;
        if (f) return true;
    }
    if (cv) return bind_attr(vm, *cv, self, i->cls, out);
    if (!strcmp(name, "__class__")) {
        *out = lang_val_retain(lang_obj_val(&i->cls->hdr));
        return true;
    }
    if (!strcmp(name, "__dict__")) {
        if (!lang_dict_new(vm, out)) return false;
        for (int k = 0; k < i->attrs.n; k++) {
            lang_val key;
            if (!lang_str_from_cstr(vm, i->attrs.e[k].key, &key)) return false;
            bool ok = lang_dict_set(vm, *out, key, i->attrs.e[k].val);
            lang_val_release(key);
            if (!ok) return false;
        }
        return true;
    }
    lang_val *ga = lang_class_lookup(i->cls, "__getattr__");
    if (ga) {
        lang_val nm;
        if (!lang_str_from_cstr(vm, name, &nm)) return false;
        lang_val pos[2] = {self, nm};
        lang_args a = {2, pos, 0, NULL, NULL};
        bool ok = lang_call(vm, *ga, &a, out);
        lang_val_release(nm);
        return ok;
    }
    *found = false;
    return true;
}

static bool instance_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    return lang_instance_setattr_h(vm, lang_obj_val(o), name, hash_of(name), v);
}

bool lang_instance_setattr_h(lang_vm *vm, lang_val self_v, const char *name, uint32_t h,
                             lang_val v) {
    lang_obj *o = self_v.u.o;
    lang_instance *i = (lang_instance *)o;
    lang_val self = lang_obj_val(o);
    lang_val *slot = i->state ? NULL : lang_ns_find(&i->attrs, name, h);
    lang_val *cv = lang_class_lookup_h(i->cls, name, h);
    if (slot && !(cv && lang_is_obj(*cv, &lang_property_type))) {
        lang_val old = *slot;
        *slot = lang_val_retain(v);
        lang_val_release(old);
        return true;
    }
    if (cv && lang_is_obj(*cv, &lang_property_type)) {
        lang_val fset = ((lang_val *)((char *)cv->u.o + sizeof(lang_obj)))[1];
        if (fset.kind == LANG_NONE)
            return lang_raise(vm, LANG_ERR_ATTRIBUTE, "can't set attribute '%s'", name);
        lang_val pos[2] = {self, v}, r;
        lang_args a = {2, pos, 0, NULL, NULL};
        if (!lang_call(vm, fset, &a, &r)) return false;
        lang_val_release(r);
        return true;
    }
    if (i->state && i->cls->flags & LANG_CLASS_MODULE) {
        bool handled = false;
        if (!lang_usermod_setattr(vm, self, name, v, &handled)) return false;
        if (handled) return true;
    }
    return lang_ns_set(vm, &i->attrs, name, v);
}

static bool exc_str(lang_vm *vm, lang_instance *i, lang_buf *out);

static bool instance_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_instance *i = (lang_instance *)o;
    lang_val self = lang_obj_val(o), r;
    bool found;
    if (!lang_call_dunder(vm, self, "__repr__", 0, NULL, &r, &found)) return false;
    if (found) {
        if (!lang_is_str(r)) {
            lang_val_release(r);
            return lang_raise(vm, LANG_ERR_TYPE, "__repr__ returned non-string (type %s)",
                              lang_type_name(r));
        }
        lang_buf_add(out, lang_str_cstr(r), S(r)->len);
        lang_val_release(r);
        return true;
    }
    if (i->cls->flags & LANG_CLASS_MODULE) return lang_usermod_repr(vm, self, out);
    if (i->cls->flags & LANG_CLASS_EXCEPTION) {
        lang_buf_printf(out, "%s(", i->cls->name);
        lang_val *args = lang_ns_find(&i->attrs, "args", hash_of("args"));
        if (args && lang_is_tuple(*args))
            for (int64_t k = 0; k < Q(*args)->n; k++) {
                if (k) lang_buf_puts(out, ", ");
                if (!lang_repr(vm, Q(*args)->items[k], out)) return false;
            }
        lang_buf_puts(out, ")");
        return true;
    }
    lang_buf_printf(out, "<%s object at %p>", i->cls->qualname, (void *)o);
    return true;
}

static bool instance_str(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_instance *i = (lang_instance *)o;
    lang_val self = lang_obj_val(o), r;
    bool found;
    if (!lang_call_dunder(vm, self, "__str__", 0, NULL, &r, &found)) return false;
    if (found) {
        if (!lang_is_str(r)) {
            lang_val_release(r);
            return lang_raise(vm, LANG_ERR_TYPE, "__str__ returned non-string (type %s)",
                              lang_type_name(r));
        }
        lang_buf_add(out, lang_str_cstr(r), S(r)->len);
        lang_val_release(r);
        return true;
    }
    if (i->cls->flags & LANG_CLASS_EXCEPTION) return exc_str(vm, i, out);
    return instance_repr(vm, o, out);
}

static bool instance_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_instance *i = (lang_instance *)o;
    lang_val *f = lang_class_lookup(i->cls, "__call__");
    if (!f) return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not callable", i->cls->name);
    lang_val spos[8];
    lang_val *pos = a->n < 7 ? spos : malloc(sizeof *pos * (size_t)(a->n + 1));
    if (!pos) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    pos[0] = lang_obj_val(o);
    for (int k = 0; k < a->n; k++) pos[k + 1] = a->pos[k];
    lang_args a2 = {a->n + 1, pos, a->nkw, a->kwnames, a->kw};
    bool ok = lang_call(vm, *f, &a2, out);
    if (pos != spos) free(pos);
    return ok;
}

static bool instance_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    bool found;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__getitem__", 1, &key, out, &found)) return false;
    if (!found)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not subscriptable",
                          ((lang_instance *)o)->cls->name);
    return true;
}

static bool instance_setitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val v) {
    bool found;
    lang_val args[2] = {key, v}, r;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__setitem__", 2, args, &r, &found)) return false;
    if (!found)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object does not support item assignment",
                          ((lang_instance *)o)->cls->name);
    lang_val_release(r);
    return true;
}

static bool instance_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    bool found;
    lang_val r;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__len__", 0, NULL, &r, &found)) return false;
    if (!found)
        return lang_raise(vm, LANG_ERR_TYPE, "object of type '%s' has no len()",
                          ((lang_instance *)o)->cls->name);
    bool ok = r.kind == LANG_INT || r.kind == LANG_BOOL;
    if (ok) *out = r.kind == LANG_INT ? r.u.i : r.u.b;
    lang_val_release(r);
    if (!ok)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object cannot be interpreted as an integer",
                          lang_type_name(r));
    if (*out < 0) return lang_raise(vm, LANG_ERR_VALUE, "__len__() should return >= 0");
    return true;
}

static bool instance_truth(lang_vm *vm, lang_obj *o, bool *out) {
    bool found;
    lang_val r;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__bool__", 0, NULL, &r, &found)) return false;
    if (found) {
        bool ok = lang_truth(vm, r, out);
        lang_val_release(r);
        return ok;
    }
    if (lang_class_lookup(((lang_instance *)o)->cls, "__len__")) {
        int64_t n;
        if (!instance_len(vm, o, &n)) return false;
        *out = n > 0;
        return true;
    }
    *out = true;
    return true;
}

/* An instance used as an iterable: __iter__ gives the iterator; one whose
 * class has only __getitem__ iterates by index until IndexError. */
static bool instance_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    bool found;
    lang_instance *i = (lang_instance *)o;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__iter__", 0, NULL, out, &found)) return false;
    if (found) return true;
    if (lang_class_lookup(i->cls, "__getitem__")) {
        /* Materialise by index, as Python's sequence protocol would walk it. */
        lang_val list;
        if (!lang_list_new(vm, 0, &list)) return false;
        for (int64_t k = 0;; k++) {
            lang_val key = lang_int(k), item;
            if (!instance_getitem(vm, o, key, &item)) {
                if (vm->err == LANG_ERR_INDEX ||
                    (vm->ename && !strcmp(vm->ename, "StopIteration"))) {
                    lang_vm_clear_error(vm);
                    break;
                }
                lang_val_release(list);
                return false;
            }
            bool ok = lang_list_append(vm, list, item);
            lang_val_release(item);
            if (!ok) {
                lang_val_release(list);
                return false;
            }
            if (lang_vm_interrupted(vm)) {
                lang_val_release(list);
                return false;
            }
        }
        bool ok = lang_iter(vm, list, out);
        lang_val_release(list);
        return ok;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not iterable", i->cls->name);
}

static bool instance_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    bool found;
    *done = false;
    if (!lang_call_dunder(vm, lang_obj_val(o), "__next__", 0, NULL, out, &found)) {
        if (vm->ename && !strcmp(vm->ename, "StopIteration")) {
            lang_vm_clear_error(vm);
            *done = true;
            return true;
        }
        return false;
    }
    if (!found)
        return lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not an iterator",
                          ((lang_instance *)o)->cls->name);
    return true;
}

typedef struct dunder_pair {
    const char *name, *rname;
} dunder_pair;

static const dunder_pair dunders[LANG_OP_COUNT] = {
    [LANG_OP_ADD] = {"__add__", "__radd__"},
    [LANG_OP_SUB] = {"__sub__", "__rsub__"},
    [LANG_OP_MUL] = {"__mul__", "__rmul__"},
    [LANG_OP_DIV] = {"__truediv__", "__rtruediv__"},
    [LANG_OP_FLOORDIV] = {"__floordiv__", "__rfloordiv__"},
    [LANG_OP_MOD] = {"__mod__", "__rmod__"},
    [LANG_OP_POW] = {"__pow__", "__rpow__"},
    [LANG_OP_MATMUL] = {"__matmul__", "__rmatmul__"},
    [LANG_OP_EQ] = {"__eq__", "__eq__"},
    [LANG_OP_NE] = {"__ne__", "__ne__"},
    [LANG_OP_LT] = {"__lt__", "__gt__"},
    [LANG_OP_LE] = {"__le__", "__ge__"},
    [LANG_OP_GT] = {"__gt__", "__lt__"},
    [LANG_OP_GE] = {"__ge__", "__le__"},
    [LANG_OP_AND_BITS] = {"__and__", "__rand__"},
    [LANG_OP_OR_BITS] = {"__or__", "__ror__"},
    [LANG_OP_NEG] = {"__neg__", NULL},
    [LANG_OP_POS] = {"__pos__", NULL},
    [LANG_OP_INVERT] = {"__invert__", NULL},
};

static bool is_notimpl(lang_val v);

static bool instance_binop(lang_vm *vm, lang_binop op, lang_val a, lang_val b, lang_val *out,
                           bool *handled) {
    *handled = false;
    const dunder_pair *d = &dunders[op];
    if (!d->name) return true;
    bool found;
    if (op >= LANG_OP_NEG) {
        if (!lang_is_instance(a)) return true;
        if (!lang_call_dunder(vm, a, d->name, 0, NULL, out, &found)) return false;
        *handled = found;
        return true;
    }
    if (lang_is_instance(a)) {
        if (!lang_call_dunder(vm, a, d->name, 1, &b, out, &found)) return false;
        if (found && !is_notimpl(*out)) {
            *handled = true;
            return true;
        }
        if (found) lang_val_release(*out);
    }
    if (lang_is_instance(b)) {
        if (!lang_call_dunder(vm, b, d->rname, 1, &a, out, &found)) return false;
        if (found && !is_notimpl(*out)) {
            *handled = true;
            return true;
        }
        if (found) lang_val_release(*out);
    }
    if (op == LANG_OP_NE && lang_is_instance(a)) { /* != falls back on not __eq__ */
        lang_val r;
        if (!lang_call_dunder(vm, a, "__eq__", 1, &b, &r, &found)) return false;
        if (found && !is_notimpl(r)) {
            bool t;
            bool ok = lang_truth(vm, r, &t);
            lang_val_release(r);
            if (!ok) return false;
            *out = lang_bool(!t);
            *handled = true;
            return true;
        }
        if (found) lang_val_release(r);
    }
    return true;
}

static const char *const *instance_fields(lang_obj *o) {
    lang_instance *i = (lang_instance *)o;
    static _Thread_local const char *names[513];
    int n = 0;
    for (int k = 0; k < i->attrs.n && n < 256; k++) names[n++] = i->attrs.e[k].key;
    for (const lang_class *c = i->cls; c && n < 512;
         c = lang_is_class(c->base) ? lang_class_of_val(c->base) : NULL)
        for (int k = 0; k < c->dict.n && n < 512; k++) names[n++] = c->dict.e[k].key;
    names[n] = NULL;
    return names;
}

const lang_type lang_instance_type = {
    .name = "object",
    .free = instance_free,
    .repr = instance_repr,
    .str_ = instance_str,
    .getattr = instance_getattr,
    .setattr = instance_setattr,
    .call = instance_call,
    .getitem = instance_getitem,
    .setitem = instance_setitem,
    .iter = instance_iter,
    .next = instance_next,
    .len = instance_len,
    .truth = instance_truth,
    .binop = instance_binop,
    .fields = instance_fields,
};

/* ------------------------------------------------------------------ methods */

typedef struct method_obj {
    lang_obj hdr;
    lang_val self, fn;
} method_obj;

static void method_free(lang_obj *o) {
    lang_val_release(((method_obj *)o)->self);
    lang_val_release(((method_obj *)o)->fn);
}

bool lang_method_new(lang_vm *vm, lang_val self, lang_val fn, lang_val *out) {
    method_obj *m = lang_obj_new(vm, &lang_method_type, sizeof *m);
    if (!m) return false;
    m->self = lang_val_retain(self);
    m->fn = lang_val_retain(fn);
    *out = lang_obj_val(&m->hdr);
    return true;
}

static bool method_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    method_obj *m = (method_obj *)o;
    lang_val spos[8];
    lang_val *pos = a->n < 7 ? spos : malloc(sizeof *pos * (size_t)(a->n + 1));
    if (!pos) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    pos[0] = m->self;
    for (int k = 0; k < a->n; k++) pos[k + 1] = a->pos[k];
    lang_args a2 = {a->n + 1, pos, a->nkw, a->kwnames, a->kw};
    bool ok = lang_call(vm, m->fn, &a2, out);
    if (pos != spos) free(pos);
    return ok;
}

static bool method_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    method_obj *m = (method_obj *)o;
    lang_val nm;
    const char *cls =
        lang_is_class(m->self) ? lang_class_of_val(m->self)->name : lang_type_name(m->self);
    if (lang_getattr(vm, m->fn, "__name__", &nm) && lang_is_str(nm)) {
        lang_buf_printf(out, "<bound method %s.%s of ", cls, lang_str_cstr(nm));
        lang_val_release(nm);
    } else {
        lang_vm_clear_error(vm);
        lang_buf_printf(out, "<bound method of ");
    }
    if (!lang_repr(vm, m->self, out)) return false;
    lang_buf_puts(out, ">");
    return true;
}

static bool method_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    method_obj *m = (method_obj *)o;
    *found = true;
    if (!strcmp(name, "__self__")) {
        *out = lang_val_retain(m->self);
        return true;
    }
    if (!strcmp(name, "__func__")) {
        *out = lang_val_retain(m->fn);
        return true;
    }
    *found = false;
    return lang_getattr(vm, m->fn, name, out) ? (*found = true) : false;
}

const lang_type lang_method_type = {
    .name = "method",
    .free = method_free,
    .repr = method_repr,
    .getattr = method_getattr,
    .call = method_call,
};

/* staticmethod / classmethod: one wrapped function. */
typedef struct wrap_obj {
    lang_obj hdr;
    lang_val fn;
} wrap_obj;

static void wrap_free(lang_obj *o) {
    lang_val_release(((wrap_obj *)o)->fn);
}

static bool wrap_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    return lang_call(vm, ((wrap_obj *)o)->fn, a, out);
}

const lang_type lang_staticmethod_type = {
    .name = "staticmethod", .free = wrap_free, .call = wrap_call};
const lang_type lang_classmethod_type = {.name = "classmethod", .free = wrap_free};

static bool wrap_new(lang_vm *vm, const lang_type *t, const lang_args *a, lang_val *out) {
    lang_val fn;
    if (!lang_parse_args(vm, a, t->name, "function", &fn)) return false;
    wrap_obj *w = lang_obj_new(vm, t, sizeof *w);
    if (!w) return false;
    w->fn = lang_val_retain(fn);
    *out = lang_obj_val(&w->hdr);
    return true;
}

static bool b_staticmethod(lang_vm *vm, const lang_args *a, lang_val *out) {
    return wrap_new(vm, &lang_staticmethod_type, a, out);
}
static bool b_classmethod(lang_vm *vm, const lang_args *a, lang_val *out) {
    return wrap_new(vm, &lang_classmethod_type, a, out);
}

/* property: fget, fset; .setter(f) makes a copy with fset. */
typedef struct prop_obj {
    lang_obj hdr;
    lang_val fget, fset;
} prop_obj;

static void prop_free(lang_obj *o) {
    lang_val_release(((prop_obj *)o)->fget);
    lang_val_release(((prop_obj *)o)->fset);
}

static bool prop_make(lang_vm *vm, lang_val fget, lang_val fset, lang_val *out) {
    prop_obj *p = lang_obj_new(vm, &lang_property_type, sizeof *p);
    if (!p) return false;
    p->fget = lang_val_retain(fget);
    p->fset = lang_val_retain(fset);
    *out = lang_obj_val(&p->hdr);
    return true;
}

static bool m_prop_setter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val f;
    if (!lang_parse_args(vm, a, "setter", "fset", &f)) return false;
    return prop_make(vm, ((prop_obj *)self.u.o)->fget, f, out);
}

static bool m_prop_getter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val f;
    if (!lang_parse_args(vm, a, "getter", "fget", &f)) return false;
    return prop_make(vm, f, ((prop_obj *)self.u.o)->fset, out);
}

static const lang_method prop_methods[] = {
    {"getter", m_prop_getter, {"property.getter", "getter(fget)", "A copy with this getter.", ""}},
    {"setter", m_prop_setter, {"property.setter", "setter(fset)", "A copy with this setter.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

const lang_type lang_property_type = {
    .name = "property", .free = prop_free, .methods = prop_methods};

static bool b_property(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val fget = lang_none(), fset = lang_none(), fdel = lang_none(), doc = lang_none();
    if (!lang_parse_args(vm, a, "property", "|fget,fset,fdel,doc", &fget, &fset, &fdel, &doc))
        return false;
    return prop_make(vm, fget, fset, out);
}

/* ------------------------------------------------------------------ super */

typedef struct super_obj {
    lang_obj hdr;
    lang_class *start; /* look up from this class's base (retained) */
    lang_val self;
} super_obj;

static void super_free(lang_obj *o) {
    super_obj *s = (super_obj *)o;
    lang_val_release(lang_obj_val(&s->start->hdr));
    lang_val_release(s->self);
}

static bool super_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    super_obj *s = (super_obj *)o;
    *found = true;
    lang_class *base = lang_is_class(s->start->base) ? lang_class_of_val(s->start->base) : NULL;
    lang_val *v = base ? lang_class_lookup(base, name) : NULL;
    if (!v) {
        /* object.__init__ and friends: accept and do nothing. */
        if (!strcmp(name, "__init__")) {
            lang_class *obj = lang_builtin_class(vm, "object");
            v = obj ? lang_class_lookup(obj, "__init__") : NULL;
        }
        if (!v)
            return lang_raise(vm, LANG_ERR_ATTRIBUTE, "'super' object has no attribute '%s'", name);
    }
    lang_class *c = lang_is_instance(s->self) ? lang_instance_of_val(s->self)->cls : s->start;
    return bind_attr(vm, *v, s->self, c, out);
}

static bool super_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<super: <class '%s'>, <%s object>>", ((super_obj *)o)->start->name,
                    lang_type_name(((super_obj *)o)->self));
    return true;
}

static const lang_type super_type = {
    .name = "super", .free = super_free, .repr = super_repr, .getattr = super_getattr};

static bool b_super(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val cls = lang_none(), self = lang_none();
    if (!lang_parse_args(vm, a, "super", "|type,obj", &cls, &self)) return false;
    if (a->n == 0) {
        lang_obj *owner = NULL;
        if (!lang_vm_frame_method(vm, &owner, &self))
            return lang_raise(vm, LANG_ERR_RUNTIME, "super(): no arguments");
        cls = lang_obj_val(owner);
    }
    if (!lang_is_class(cls))
        return lang_raise(vm, LANG_ERR_TYPE, "super() argument 1 must be a type, not %s",
                          lang_type_name(cls));
    super_obj *s = lang_obj_new(vm, &super_type, sizeof *s);
    if (!s) return false;
    s->start = lang_class_of_val(cls);
    s->start->hdr.refcount++;
    s->self = lang_val_retain(self);
    *out = lang_obj_val(&s->hdr);
    return true;
}

/* ------------------------------------------------------------------ isinstance, issubclass */

static bool is_class_like(lang_val v) {
    return lang_is_class(v) || lang_is_obj(v, &lang_typeobj_type);
}

static bool one_isinstance(lang_vm *vm, lang_val x, lang_val c, bool *out) {
    c = lang_usermod_container_class(c);
    if (lang_is_obj(c, &lang_builtin_type)) {
        /* nn.Parameter and the builtin modules' constructors act as classes. */
        const lang_help *h = ((lang_builtin_obj *)c.u.o)->help;
        const char *n = h && h->name ? h->name : "";
        if (!strcmp(n, "Parameter")) {
            *out = lang_tensor_is_param(x);
            return true;
        }
        nn_module *m = lang_module_of(x);
        for (int k = 0; k < NN_MODULE_KIND_COUNT; k++)
            if (!strcmp(n, nn_module_kind_name((nn_module_kind)k))) {
                *out = m && m->kind == (nn_module_kind)k;
                return true;
            }
    }
    if (lang_is_class(c)) {
        lang_class *cc = lang_class_of_val(c);
        if (!strcmp(cc->name, "Module") && (cc->flags & LANG_CLASS_NATIVE) && lang_module_of(x)) {
            *out = true; /* builtin modules are nn.Modules too */
            return true;
        }
        *out = lang_class_isinstance(x, lang_class_of_val(c));
        return true;
    }
    if (lang_is_obj(c, &lang_typeobj_type)) {
        *out = lang_isinstance(x, (const lang_typeobj *)c.u.o);
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE,
                      "isinstance() arg 2 must be a type, a tuple of types, or a union");
}

static bool b_isinstance(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, c;
    if (!lang_parse_args(vm, a, "isinstance", "obj,class_or_tuple", &x, &c)) return false;
    bool r = false;
    if (lang_is_tuple(c)) {
        for (int64_t k = 0; k < Q(c)->n && !r; k++)
            if (!one_isinstance(vm, x, Q(c)->items[k], &r)) return false;
    } else if (!one_isinstance(vm, x, c, &r)) {
        return false;
    }
    *out = lang_bool(r);
    return true;
}

static bool one_issubclass(lang_vm *vm, lang_val x, lang_val c, bool *out) {
    if (!is_class_like(x))
        return lang_raise(vm, LANG_ERR_TYPE, "issubclass() arg 1 must be a class");
    if (!is_class_like(c))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "issubclass() arg 2 must be a class, a tuple of classes, or a union");
    if (lang_is_class(x) && lang_is_class(c)) {
        *out = lang_class_is_subclass(lang_class_of_val(x), lang_class_of_val(c));
        return true;
    }
    if (lang_is_class(c)) { /* a builtin type is a subclass of object only */
        *out = !strcmp(lang_class_of_val(c)->name, "object");
        return true;
    }
    if (lang_is_class(x)) {
        *out = false;
        return true;
    }
    const lang_typeobj *tx = (const lang_typeobj *)x.u.o, *tc = (const lang_typeobj *)c.u.o;
    *out =
        (tx->kind == tc->kind && tx->t == tc->t) || (tx->kind == LANG_BOOL && tc->kind == LANG_INT);
    return true;
}

static bool b_issubclass(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, c;
    if (!lang_parse_args(vm, a, "issubclass", "cls,class_or_tuple", &x, &c)) return false;
    bool r = false;
    if (lang_is_tuple(c)) {
        for (int64_t k = 0; k < Q(c)->n && !r; k++)
            if (!one_issubclass(vm, x, Q(c)->items[k], &r)) return false;
    } else if (!one_issubclass(vm, x, c, &r)) {
        return false;
    }
    *out = lang_bool(r);
    return true;
}

/* ------------------------------------------------------------------ NotImplemented */

static bool notimpl_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_puts(out, "NotImplemented");
    return true;
}
static const lang_type notimpl_type = {.name = "NotImplementedType", .repr = notimpl_repr};
static lang_obj notimpl_obj = {1 << 28, &notimpl_type};

static bool is_notimpl(lang_val v) {
    return v.kind == LANG_OBJ && v.u.o == &notimpl_obj;
}

/* ------------------------------------------------------------------ exceptions */

static bool exc_init_args(lang_vm *vm, lang_val self, const lang_args *a) {
    lang_val t;
    if (!lang_tuple_pack(vm, a->n, a->pos, &t)) return false;
    lang_instance *i = lang_instance_of_val(self);
    bool ok = lang_ns_set(vm, &i->attrs, "args", t);
    /* SystemExit(code).code, as Python's */
    lang_class *se = lang_builtin_class(vm, "SystemExit");
    if (ok && se && lang_class_is_subclass(i->cls, se))
        ok = lang_ns_set(vm, &i->attrs, "code",
                         a->n == 0   ? lang_none()
                         : a->n == 1 ? a->pos[0]
                                     : t);
    lang_val_release(t);
    return ok;
}

static bool exc_str(lang_vm *vm, lang_instance *i, lang_buf *out) {
    lang_val *args = lang_ns_find(&i->attrs, "args", hash_of("args"));
    if (!args || !lang_is_tuple(*args) || Q(*args)->n == 0) return true;
    lang_class *keyerr = lang_builtin_class(vm, "KeyError");
    if (Q(*args)->n == 1 && keyerr && lang_class_is_subclass(i->cls, keyerr))
        return lang_repr(vm, Q(*args)->items[0], out); /* KeyError shows repr(key) */
    if (Q(*args)->n == 1) return lang_str(vm, Q(*args)->items[0], out);
    return lang_repr(vm, *args, out);
}

/* BaseException.__init__(self, *args): what super().__init__(msg) calls. */
static bool f_exc_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1 || !lang_is_instance(a->pos[0]))
        return lang_raise(vm, LANG_ERR_TYPE, "BaseException.__init__ needs an instance");
    lang_args rest = {a->n - 1, a->pos + 1, 0, NULL, NULL};
    if (!exc_init_args(vm, a->pos[0], &rest)) return false;
    *out = lang_none();
    return true;
}

static bool f_object_init(lang_vm *vm, const lang_args *a, lang_val *out) {
    *out = lang_none();
    return true;
}

static const lang_help exc_init_help = {"BaseException.__init__", "__init__(self, *args)",
                                        "Store the arguments in self.args.", ""};
static const lang_help object_init_help = {"object.__init__", "__init__(self)", "Does nothing.",
                                           ""};

typedef struct exc_row {
    const char *name, *base;
    lang_err err;
} exc_row;

/* The builtin exception hierarchy (Python's, with nndb's ShapeError under
 * RuntimeError, where PyTorch raises its shape errors). */
static const exc_row exc_rows[] = {
    {"BaseException", NULL, LANG_ERR_RUNTIME},
    {"SystemExit", "BaseException", LANG_ERR_STOPPED},
    {"KeyboardInterrupt", "BaseException", LANG_ERR_INTERRUPT},
    {"Exception", "BaseException", LANG_ERR_RUNTIME},
    {"ArithmeticError", "Exception", LANG_ERR_VALUE},
    {"ZeroDivisionError", "ArithmeticError", LANG_ERR_ZERO_DIVISION},
    {"OverflowError", "ArithmeticError", LANG_ERR_VALUE},
    {"AssertionError", "Exception", LANG_ERR_ASSERTION},
    {"AttributeError", "Exception", LANG_ERR_ATTRIBUTE},
    {"ImportError", "Exception", LANG_ERR_IMPORT},
    {"ModuleNotFoundError", "ImportError", LANG_ERR_IMPORT},
    {"LookupError", "Exception", LANG_ERR_INDEX},
    {"IndexError", "LookupError", LANG_ERR_INDEX},
    {"KeyError", "LookupError", LANG_ERR_KEY},
    {"NameError", "Exception", LANG_ERR_NAME},
    {"UnboundLocalError", "NameError", LANG_ERR_NAME},
    {"OSError", "Exception", LANG_ERR_IO},
    {"FileNotFoundError", "OSError", LANG_ERR_IO},
    {"FileExistsError", "OSError", LANG_ERR_IO},
    {"IsADirectoryError", "OSError", LANG_ERR_IO},
    {"EOFError", "Exception", LANG_ERR_IO},
    {"RuntimeError", "Exception", LANG_ERR_RUNTIME},
    {"NotImplementedError", "RuntimeError", LANG_ERR_RUNTIME},
    {"RecursionError", "RuntimeError", LANG_ERR_RECURSION},
    {"ShapeError", "RuntimeError", LANG_ERR_SHAPE},
    {"StopIteration", "Exception", LANG_ERR_RUNTIME},
    {"GeneratorExit", "BaseException", LANG_ERR_RUNTIME},
    {"SyntaxError", "Exception", LANG_ERR_SYNTAX},
    {"TypeError", "Exception", LANG_ERR_TYPE},
    {"ValueError", "Exception", LANG_ERR_VALUE},
    {"MemoryError", "Exception", LANG_ERR_MEMORY},
    {"Warning", "Exception", LANG_ERR_RUNTIME},
    {"UserWarning", "Warning", LANG_ERR_RUNTIME},
    {"DeprecationWarning", "Warning", LANG_ERR_RUNTIME},
    {"RuntimeWarning", "Warning", LANG_ERR_RUNTIME},
    {"FutureWarning", "Warning", LANG_ERR_RUNTIME},
};

lang_class *lang_exc_pending_class(lang_vm *vm) {
    if (lang_is_instance(vm->exc)) return lang_instance_of_val(vm->exc)->cls;
    const char *name = vm->ename ? vm->ename : lang_err_name(vm->err);
    if (!strcmp(name, "IOError")) name = "OSError";
    lang_class *c = lang_builtin_class(vm, name);
    if (c) return c;
    /* A name of its own (JSONDecodeError): its error class's builtin. */
    name = lang_err_name(vm->err);
    if (!strcmp(name, "IOError")) name = "OSError";
    c = lang_builtin_class(vm, name);
    if (c) return c;
    for (size_t k = 0; k < sizeof exc_rows / sizeof exc_rows[0]; k++)
        if (exc_rows[k].err == vm->err && strcmp(exc_rows[k].name, "BaseException"))
            return lang_builtin_class(vm, exc_rows[k].name);
    return lang_builtin_class(vm, "Exception");
}

bool lang_exc_pending_value(lang_vm *vm, lang_val *out) {
    if (lang_is_instance(vm->exc)) {
        *out = lang_val_retain(vm->exc);
        return true;
    }
    lang_class *c = lang_exc_pending_class(vm);
    if (!c) return lang_raise(vm, LANG_ERR_RUNTIME, "no exception classes in this session");
    /* The constructors below raise only when out of memory, and then that
     * error replaces the pending one anyway. */
    lang_val msg, inst;
    const char *text = vm->msg.data ? vm->msg.data : "";
    size_t tlen = vm->msg.len;
    lang_class *keyerr = lang_builtin_class(vm, "KeyError");
    if (keyerr && lang_class_is_subclass(c, keyerr) && tlen >= 2 && text[0] == '\'' &&
        text[tlen - 1] == '\'') {
        text++; /* KeyError's message is repr(key): keep the key itself */
        tlen -= 2;
    }
    lang_class *sysexit = lang_builtin_class(vm, "SystemExit");
    char *end = NULL;
    long long code = tlen ? strtoll(text, &end, 10) : 0;
    if (sysexit && lang_class_is_subclass(c, sysexit) && end && *end == 0)
        msg = lang_int(code); /* exit(2): SystemExit(2), whose code is the int */
    else if (!lang_str_new(vm, text, tlen, &msg))
        return false;
    bool ok = lang_instance_new(vm, c, &inst);
    if (ok) {
        lang_args a = {vm->msg.len ? 1 : 0, &msg, 0, NULL, NULL};
        ok = exc_init_args(vm, inst, &a);
        if (!ok) lang_val_release(inst);
    }
    lang_val_release(msg);
    if (!ok) return false;
    *out = inst;
    return true;
}

bool lang_exc_raise(lang_vm *vm, lang_val v, lang_val cause) {
    lang_val inst;
    if (lang_is_class(v) && lang_class_of_val(v)->flags & LANG_CLASS_EXCEPTION) {
        lang_args a = {0, NULL, 0, NULL, NULL};
        if (!lang_call(vm, v, &a, &inst)) return false;
    } else if (lang_is_instance(v) && lang_instance_of_val(v)->cls->flags & LANG_CLASS_EXCEPTION) {
        inst = lang_val_retain(v);
    } else {
        return lang_raise(vm, LANG_ERR_TYPE, "exceptions must derive from BaseException");
    }
    if (cause.kind != LANG_NONE &&
        !lang_ns_set(vm, &lang_instance_of_val(inst)->attrs, "__cause__", cause)) {
        lang_val_release(inst);
        return false;
    }
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_str(vm, inst, &b)) {
        lang_buf_free(&b);
        lang_val_release(inst);
        return false;
    }
    lang_class *c = lang_instance_of_val(inst)->cls;
    lang_raise_named(vm, c->err, c->name, "%s", b.data ? b.data : "");
    lang_buf_free(&b);
    lang_val_release(vm->exc);
    vm->exc = inst;
    return false;
}

/* ------------------------------------------------------------------ the family */

static const lang_builtin_def exc_init_def = {"__init__", f_exc_init, exc_init_help};
static const lang_builtin_def object_init_def = {"__init__", f_object_init, object_init_help};

static bool set_builtin_class(lang_vm *vm, lang_class_state *st, const char *name, lang_val c) {
    return lang_ns_set(vm, &st->builtins, name, c) && lang_vm_set_builtin(vm, name, c);
}

static bool add_method(lang_vm *vm, lang_val cls, const lang_builtin_def *d) {
    lang_val f;
    if (!lang_builtin_new(vm, d->fn, &d->help, &f)) return false;
    bool ok = lang_ns_set(vm, &lang_class_of_val(cls)->dict, d->name, f);
    lang_val_release(f);
    return ok;
}

bool lang_class_install(lang_vm *vm) {
    lang_class_state *st = cstate(vm);
    if (!st) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    /* The session is the main module; an imported file's globals set
     * their own __name__ (lang_import.c). */
    lang_val main_name;
    if (!lang_str_from_cstr(vm, "__main__", &main_name)) return false;
    bool named = lang_vm_set_builtin(vm, "__name__", main_name);
    lang_val_release(main_name);
    if (!named) return false;
    lang_val object;
    if (!lang_class_new(vm, "object", "object", lang_none(), &object)) return false;
    lang_class_of_val(object)->flags = LANG_CLASS_NATIVE;
    bool ok =
        add_method(vm, object, &object_init_def) && set_builtin_class(vm, st, "object", object);
    lang_val_release(object);
    if (!ok) return false;
    for (size_t k = 0; k < sizeof exc_rows / sizeof exc_rows[0]; k++) {
        const exc_row *r = &exc_rows[k];
        lang_val base = lang_none(), c;
        if (r->base) base = lang_obj_val(&lang_builtin_class(vm, r->base)->hdr);
        if (!lang_class_new(vm, r->name, r->name, base, &c)) return false;
        lang_class *cc = lang_class_of_val(c);
        cc->flags = LANG_CLASS_NATIVE | LANG_CLASS_EXCEPTION;
        cc->err = r->err;
        ok = (r->base || add_method(vm, c, &exc_init_def)) && set_builtin_class(vm, st, r->name, c);
        lang_val_release(c);
        if (!ok) return false;
    }
    lang_val ioe = lang_obj_val(&lang_builtin_class(vm, "OSError")->hdr);
    if (!lang_vm_set_builtin(vm, "IOError", ioe)) return false;
    if (!lang_vm_set_builtin(vm, "NotImplemented", lang_obj_val(&notimpl_obj))) return false;
    return lang_usermod_install(vm) && lang_function_install(vm);
}

#define B(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            n, sig, doc, ex                                                                        \
        }                                                                                          \
    }
const lang_builtin_def lang_class_builtins[] = {
    B("super", b_super, "super()",
      "The parent class's view of self, for calling a method the subclass overrides.",
      "class A:\n    def f(self): return 1\nclass B(A):\n    def f(self): return super().f() + 1"),
    B("staticmethod", b_staticmethod, "staticmethod(function)",
      "A function stored on a class that receives no self.", "@staticmethod"),
    B("classmethod", b_classmethod, "classmethod(function)",
      "A function stored on a class that receives the class as its first argument.",
      "@classmethod"),
    B("property", b_property, "property(fget=None, fset=None)",
      "An attribute computed by a method (and set by another).", "@property"),
    B("isinstance", b_isinstance, "isinstance(obj, class_or_tuple)",
      "Whether obj is an instance of the class (or of a subclass), or of one of a tuple of them.",
      "isinstance(3, int)"),
    B("issubclass", b_issubclass, "issubclass(cls, class_or_tuple)",
      "Whether cls is the class or derives from it.", "issubclass(bool, int)"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
#undef B
