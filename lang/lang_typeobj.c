/* lang_typeobj: class objects for the builtin types (int, float, str,
 * Tensor, ...): what type(x) returns, what isinstance takes. */
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
/* ------------------------------------------------------------------ class objects */

bool lang_typeobj_new(lang_vm *vm, const char *name, lang_kind kind, const lang_type *t,
                      lang_builtin_fn ctor, const lang_help *help, lang_val *out) {
    lang_typeobj *o = lang_obj_new(vm, &lang_typeobj_type, sizeof *o);
    if (!o) return false;
    o->name = name;
    o->kind = kind;
    o->t = t;
    o->ctor = ctor;
    o->help = help;
    *out = lang_obj_val(&o->hdr);
    return true;
}

bool lang_isinstance(lang_val v, const lang_typeobj *cls) {
    if (cls->kind != LANG_OBJ)
        return v.kind == cls->kind || (cls->kind == LANG_INT && v.kind == LANG_BOOL);
    return v.kind == LANG_OBJ && v.u.o->type == cls->t;
}

static bool typeobj_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<class '%s'>", ((lang_typeobj *)o)->name);
    return true;
}

static bool typeobj_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    lang_typeobj *c = (lang_typeobj *)o;
    if (!c->ctor) return lang_raise(vm, LANG_ERR_TYPE, "cannot create '%s' instances", c->name);
    return c->ctor(vm, a, out);
}

static bool typeobj_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out,
                            bool *found) {
    *found = false;
    if (!strcmp(name, "__name__")) {
        const char *n = ((lang_typeobj *)o)->name, *dot = strrchr(n, '.');
        *found = true;
        return lang_str_from_cstr(vm, dot ? dot + 1 : n, out);
    }
    return true;
}

const lang_type lang_typeobj_type = {
    .name = "type",
    .repr = typeobj_repr,
    .getattr = typeobj_getattr,
    .call = typeobj_call,
};
