/* lang_callable: builtin functions and bound methods, the callables that
 * wrap C functions. User functions live in lang_eval.c. */
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
/* ------------------------------------------------------------------ builtins, bound methods */

bool lang_builtin_new(lang_vm *vm, lang_builtin_fn fn, const lang_help *help, lang_val *out) {
    lang_builtin_obj *b = lang_obj_new(vm, &lang_builtin_type, sizeof *b);
    if (!b) return false;
    b->fn = fn;
    b->help = help;
    *out = lang_obj_val(&b->hdr);
    return true;
}

static bool builtin_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    return ((lang_builtin_obj *)o)->fn(vm, a, out);
}

static bool builtin_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    const lang_help *h = ((lang_builtin_obj *)o)->help;
    lang_buf_printf(out, "<built-in function %s>", h && h->name ? h->name : "?");
    return true;
}

const lang_type lang_builtin_type = {
    .name = "builtin_function_or_method",
    .repr = builtin_repr,
    .call = builtin_call,
};

bool lang_bound_new(lang_vm *vm, lang_val self, const lang_method *m, lang_val *out) {
    lang_bound_obj *b = lang_obj_new(vm, &lang_bound_type, sizeof *b);
    if (!b) return false;
    b->self = lang_val_retain(self);
    b->m = m;
    *out = lang_obj_val(&b->hdr);
    return true;
}

static void bound_free(lang_obj *o) {
    lang_val_release(((lang_bound_obj *)o)->self);
}

static bool bound_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_bound_obj *b = (lang_bound_obj *)o;
    return b->m->fn(vm, b->self, a, out);
}

static bool bound_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_bound_obj *b = (lang_bound_obj *)o;
    lang_buf_printf(out, "<built-in method %s of %s object at %p>", b->m->name,
                    lang_type_name(b->self),
                    (void *)(b->self.kind == LANG_OBJ ? b->self.u.o : NULL));
    return true;
}

const lang_type lang_bound_type = {
    .name = "builtin_function_or_method",
    .free = bound_free,
    .repr = bound_repr,
    .call = bound_call,
};
