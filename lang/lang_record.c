/* lang_record: a named bag of fields with attribute access (batches, probe
 * readings, drill results). */
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
/* ------------------------------------------------------------------ records */

bool lang_record_new(lang_vm *vm, const char *type_name, lang_val *out) {
    lang_record_obj *r = lang_obj_new(vm, &lang_record_type, sizeof *r);
    if (!r) return false;
    r->type_name = strdup(type_name ? type_name : "record");
    *out = lang_obj_val(&r->hdr);
    if (!r->type_name) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    return true;
}

bool lang_record_set(lang_vm *vm, lang_val rec, const char *field, lang_val v) {
    lang_record_obj *r = REC(rec);
    for (int i = 0; i < r->n; i++) {
        if (!strcmp(r->names[i], field)) {
            lang_val old = r->vals[i];
            r->vals[i] = lang_val_retain(v);
            lang_val_release(old);
            return true;
        }
    }
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 4;
        char **nn = realloc(r->names, sizeof(char *) * (size_t)cap);
        if (!nn) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->names = nn;
        lang_val *nv = realloc(r->vals, sizeof(lang_val) * (size_t)cap);
        if (!nv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->vals = nv;
        const char **fv = realloc(r->fieldv, sizeof(char *) * (size_t)(cap + 1));
        if (!fv) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        r->fieldv = fv;
        r->cap = cap;
    }
    r->names[r->n] = strdup(field);
    if (!r->names[r->n]) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    r->vals[r->n] = lang_val_retain(v);
    r->fieldv[r->n] = r->names[r->n];
    r->n++;
    r->fieldv[r->n] = NULL;
    return true;
}

static void record_free(lang_obj *o) {
    lang_record_obj *r = (lang_record_obj *)o;
    for (int i = 0; i < r->n; i++) {
        free(r->names[i]);
        lang_val_release(r->vals[i]);
    }
    free(r->names);
    free(r->vals);
    free(r->fieldv);
    free(r->type_name);
}

static bool record_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_record_obj *r = (lang_record_obj *)o;
    lang_buf_printf(out, "%s(", r->type_name);
    for (int i = 0; i < r->n; i++) {
        if (i) lang_buf_puts(out, ", ");
        lang_buf_printf(out, "%s=", r->names[i]);
        if (!lang_repr(vm, r->vals[i], out)) return false;
    }
    lang_buf_puts(out, ")");
    return true;
}

static bool record_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    lang_record_obj *r = (lang_record_obj *)o;
    for (int i = 0; i < r->n; i++) {
        if (!strcmp(r->names[i], name)) {
            *out = lang_val_retain(r->vals[i]);
            *found = true;
            return true;
        }
    }
    *found = false;
    return true;
}

static bool record_setattr(lang_vm *vm, lang_obj *o, const char *name, lang_val v) {
    return lang_record_set(vm, lang_obj_val(o), name, v);
}

static const char *const *record_fields(lang_obj *o) {
    lang_record_obj *r = (lang_record_obj *)o;
    static const char *const none[] = {NULL};
    return r->fieldv ? r->fieldv : none;
}

const lang_type lang_record_type = {
    .name = "record",
    .free = record_free,
    .repr = record_repr,
    .getattr = record_getattr,
    .setattr = record_setattr,
    .fields = record_fields,
};
