/* lang_range: range and slice objects and Python's slice-bound rules. */
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
/* ------------------------------------------------------------------ range and slice */

bool lang_range_new(lang_vm *vm, int64_t start, int64_t stop, int64_t step, lang_val *out) {
    if (step == 0) return lang_raise(vm, LANG_ERR_VALUE, "range() arg 3 must not be zero");
    lang_range_obj *r = lang_obj_new(vm, &lang_range_type, sizeof *r);
    if (!r) return false;
    r->start = start;
    r->stop = stop;
    r->step = step;
    if (step > 0)
        r->len = stop > start
                     ? (int64_t)(((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1)
                     : 0;
    else
        r->len = start > stop ? (int64_t)(((uint64_t)start - (uint64_t)stop - 1) /
                                              ((uint64_t)0 - (uint64_t)step) +
                                          1)
                              : 0;
    *out = lang_obj_val(&r->hdr);
    return true;
}

static bool range_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_range_obj *r = (lang_range_obj *)o;
    if (r->step == 1)
        lang_buf_printf(out, "range(%" PRId64 ", %" PRId64 ")", r->start, r->stop);
    else
        lang_buf_printf(out, "range(%" PRId64 ", %" PRId64 ", %" PRId64 ")", r->start, r->stop,
                        r->step);
    return true;
}

static bool range_len(lang_vm *vm, lang_obj *o, int64_t *out) {
    *out = ((lang_range_obj *)o)->len;
    return true;
}
static bool range_truth(lang_vm *vm, lang_obj *o, bool *out) {
    *out = ((lang_range_obj *)o)->len > 0;
    return true;
}

static bool range_getitem(lang_vm *vm, lang_obj *o, lang_val key, lang_val *out) {
    lang_range_obj *r = (lang_range_obj *)o;
    if (lang_is_obj(key, &lang_slice_type)) {
        int64_t start, stop, step, count;
        if (!lang_slice_indices(vm, key, r->len, &start, &stop, &step, &count)) return false;
        return lang_range_new(vm, r->start + start * r->step, r->start + stop * r->step,
                              r->step * step, out);
    }
    int64_t i = 0;
    if (!lang_index_of(vm, key, r->len, "range object", &i)) return false;
    *out = lang_int(r->start + i * r->step);
    return true;
}

static const lang_help range_help = {
    "range", "range(stop) or range(start, stop, step=1)",
    "The integers from [start] (0) up to but not including [stop], by [step]. Loops over a "
    "range take no memory per item.",
    "list(range(0, 10, 3))"};

const lang_type lang_range_type = {
    .name = "range",
    .repr = range_repr,
    .getitem = range_getitem,
    .iter = lang_range_iter,
    .len = range_len,
    .truth = range_truth,
    .help = &range_help,
};

static void slice_free(lang_obj *o) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    lang_val_release(s->start);
    lang_val_release(s->stop);
    lang_val_release(s->step);
}

bool lang_slice_new(lang_vm *vm, lang_val start, lang_val stop, lang_val step, lang_val *out) {
    lang_slice_obj *s = lang_obj_new(vm, &lang_slice_type, sizeof *s);
    if (!s) return false;
    s->start = lang_val_retain(start);
    s->stop = lang_val_retain(stop);
    s->step = lang_val_retain(step);
    *out = lang_obj_val(&s->hdr);
    return true;
}

static bool slice_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    lang_buf_puts(out, "slice(");
    bool ok = lang_repr(vm, s->start, out);
    lang_buf_puts(out, ", ");
    ok = ok && lang_repr(vm, s->stop, out);
    lang_buf_puts(out, ", ");
    ok = ok && lang_repr(vm, s->step, out);
    lang_buf_puts(out, ")");
    return ok;
}

static bool slice_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    lang_slice_obj *s = (lang_slice_obj *)o;
    *found = true;
    if (!strcmp(name, "start"))
        *out = lang_val_retain(s->start);
    else if (!strcmp(name, "stop"))
        *out = lang_val_retain(s->stop);
    else if (!strcmp(name, "step"))
        *out = lang_val_retain(s->step);
    else
        *found = false;
    return true;
}

static const char *const slice_fields[] = {"start", "stop", "step", NULL};
static const char *const *slice_fieldv(lang_obj *o) {
    return slice_fields;
}

const lang_type lang_slice_type = {
    .name = "slice",
    .free = slice_free,
    .repr = slice_repr,
    .getattr = slice_getattr,
    .fields = slice_fieldv,
};

static bool slice_bound(lang_vm *vm, lang_val v, int64_t *out) {
    if (v.kind == LANG_INT)
        *out = v.u.i;
    else if (v.kind == LANG_BOOL)
        *out = v.u.b;
    else {
        nn_tensor *t = lang_tensor_of(v);
        double d;
        if (t && nn_tensor_numel(t) == 1 && !nn_dtype_is_float(t->dtype) &&
            nn_tensor_item(vm->ctx, t, &d) == NN_OK) {
            *out = (int64_t)d;
            return true;
        }
        return lang_raise(vm, LANG_ERR_TYPE, "slice indices must be integers or None, not %s",
                          lang_type_name(v));
    }
    return true;
}

bool lang_slice_indices(lang_vm *vm, lang_val slice, int64_t len, int64_t *start, int64_t *stop,
                        int64_t *step, int64_t *count) {
    lang_slice_obj *s = (lang_slice_obj *)slice.u.o;
    *step = 1;
    if (s->step.kind != LANG_NONE && !slice_bound(vm, s->step, step)) return false;
    if (*step == 0) return lang_raise(vm, LANG_ERR_VALUE, "slice step cannot be zero");
    if (*step == INT64_MIN) *step = -INT64_MAX;
    int64_t lo = *step > 0 ? 0 : -1, hi = *step > 0 ? len : len - 1;
    if (s->start.kind == LANG_NONE)
        *start = *step > 0 ? lo : hi;
    else {
        if (!slice_bound(vm, s->start, start)) return false;
        if (*start < 0) {
            *start = *start < -len ? lo : *start + len;
            if (*start < lo) *start = lo;
        } else if (*start > hi)
            *start = hi;
    }
    if (s->stop.kind == LANG_NONE)
        *stop = *step > 0 ? hi : lo;
    else {
        if (!slice_bound(vm, s->stop, stop)) return false;
        if (*stop < 0) {
            *stop = *stop < -len ? lo : *stop + len;
            if (*stop < lo) *stop = lo;
        } else if (*stop > hi)
            *stop = hi;
    }
    if (*step > 0)
        *count = *stop > *start ? (*stop - *start - 1) / *step + 1 : 0;
    else
        *count = *start > *stop ? (*start - *stop - 1) / (-*step) + 1 : 0;
    return true;
}
