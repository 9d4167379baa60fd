/* lang_class: user classes, their instances, methods, and the builtin
 * class hierarchy the language needs to be Python (object, the exception
 * classes) and PyTorch (nn.Module, Dataset, autograd.Function, whose
 * behaviour lives in lang_usermod.c and lang_function.c).
 *
 * A class is a value (type "type") with a name, one base class (single
 * inheritance) and a namespace of attributes; calling it makes an
 * instance (type "object" in the protocol, shown as the class's name),
 * which has its own namespace and dispatches every protocol slot (repr,
 * call, indexing, iteration, operators, len, truth) to the dunder methods
 * of its class. Functions found on the class bind to the instance;
 * staticmethod, classmethod and property wrap them as in Python.
 *
 * Ownership follows lang_value.h. Classes and instances register with the
 * session so that reference cycles among them (self.parent = parent) are
 * broken when the session ends (there is no cycle collector).
 */
#ifndef LANG_CLASS_H
#define LANG_CLASS_H

#include "lang_value.h"

enum {
    LANG_CLASS_NATIVE = 1u << 0,    /* defined in C: object, Exception, Module, ... */
    LANG_CLASS_EXCEPTION = 1u << 1, /* BaseException and subclasses */
    LANG_CLASS_MODULE = 1u << 2,    /* torch.nn.Module and subclasses */
    LANG_CLASS_DATASET = 1u << 3,   /* torch.utils.data.Dataset and subclasses */
    LANG_CLASS_FUNCTION = 1u << 4,  /* torch.autograd.Function and subclasses */
};

/* A name -> value table with borrowed interned keys (nn_ctx_intern). */
typedef struct lang_ns_entry {
    const char *key;
    uint32_t hash;
    lang_val val;
} lang_ns_entry;
typedef struct lang_ns {
    lang_ns_entry *e;
    int n, cap;
} lang_ns;

lang_val *lang_ns_find(const lang_ns *ns, const char *name, uint32_t hash);
bool lang_ns_set(lang_vm *vm, lang_ns *ns, const char *name, lang_val v); /* retains v */
bool lang_ns_del(lang_ns *ns, const char *name);
void lang_ns_clear(lang_ns *ns);

typedef struct lang_class {
    lang_obj hdr;
    const char *name;     /* "Net" (interned) */
    const char *qualname; /* "__main__.Net", "torch.nn.Module", "ValueError" (interned) */
    lang_val base;        /* a class, or None for object itself */
    lang_ns dict;
    unsigned flags;        /* LANG_CLASS_*, inherited */
    lang_err err;          /* exception classes: the error class `raise` reports */
    const lang_help *help; /* builtin classes: their entry for help(), or NULL */
    struct lang_class *live_prev, *live_next;
} lang_class;

typedef struct lang_instance {
    lang_obj hdr;
    lang_class *cls; /* retained */
    lang_ns attrs;
    void *state; /* native state (nn.Module: lang_usermod.c), or NULL */
    void (*state_free)(void *state);
    struct lang_instance *live_prev, *live_next;
} lang_instance;

extern const lang_type lang_class_type, lang_instance_type, lang_method_type,
    lang_staticmethod_type, lang_classmethod_type, lang_property_type;

static inline lang_class *lang_class_of_val(lang_val v) {
    return (lang_class *)v.u.o;
}
static inline lang_instance *lang_instance_of_val(lang_val v) {
    return (lang_instance *)v.u.o;
}
static inline bool lang_is_class(lang_val v) {
    return lang_is_obj(v, &lang_class_type);
}
static inline bool lang_is_instance(lang_val v) {
    return lang_is_obj(v, &lang_instance_type);
}

/* A new class [name] with [base] (a class; None means object). */
bool lang_class_new(lang_vm *vm, const char *name, const char *qualname, lang_val base,
                    lang_val *out);
/* Look [name] up along the class chain; borrowed, NULL when absent. */
lang_val *lang_class_lookup(const lang_class *c, const char *name);
lang_val *lang_class_lookup_h(const lang_class *c, const char *name, uint32_t hash);
/* The evaluator's fast paths, with the name's precomputed hash
 * (lang_name_hash): attribute read and write on an instance, and the
 * plain method [name] of [self]'s class when nothing shadows it (*fn
 * borrowed), so a method call needs no bound-method object. */
bool lang_instance_getattr_h(lang_vm *vm, lang_val self, const char *name, uint32_t hash,
                             lang_val *out);
bool lang_instance_setattr_h(lang_vm *vm, lang_val self, const char *name, uint32_t hash,
                             lang_val v);
bool lang_instance_method(lang_val self, const char *name, uint32_t hash, lang_val *fn);
bool lang_class_is_subclass(const lang_class *c, const lang_class *base);
/* Whether [v] is an instance of class [c] (builtin values count for
 * `object`). */
bool lang_class_isinstance(lang_val v, const lang_class *c);
/* A new instance of [c] without running __init__. */
bool lang_instance_new(lang_vm *vm, lang_class *c, lang_val *out);
/* Call [name] of [self]'s class with [self] first; *found false when the
 * class has no such attribute. */
bool lang_call_dunder(lang_vm *vm, lang_val self, const char *name, int n, const lang_val *args,
                      lang_val *out, bool *found);
/* A method object binding [self] to [fn]. */
bool lang_method_new(lang_vm *vm, lang_val self, lang_val fn, lang_val *out);

/* The builtin classes by name ("object", "Exception", "ValueError",
 * "Module", ...), borrowed; NULL when absent. */
lang_class *lang_builtin_class(lang_vm *vm, const char *name);
/* Make [cls] findable by lang_builtin_class without a global name. */
bool lang_class_register_builtin(lang_vm *vm, const char *name, lang_val cls);

/* ---- exceptions ---- */
/* The class of the pending error (from vm->exc or its name). */
lang_class *lang_exc_pending_class(lang_vm *vm);
/* The pending error as an exception instance (new reference). */
bool lang_exc_pending_value(lang_vm *vm, lang_val *out);
/* Raise [v]: an exception instance or class (called with no arguments). */
bool lang_exc_raise(lang_vm *vm, lang_val v, lang_val cause);

/* The class family's builtins (object, super, staticmethod, isinstance,
 * issubclass, the exception classes, ...) and its session set-up. */
extern const lang_builtin_def lang_class_builtins[];
bool lang_class_install(lang_vm *vm);
/* Break cycles among the session's classes and instances (lang_vm_free). */
void lang_class_sweep(lang_vm *vm);

#endif
