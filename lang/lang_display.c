/* lang_display: rich MIME bundles and the plot family (plot, hist,
 * display). Tensors themselves are formatted by the engine (nn_format), and
 * plots drawn by it (nn_plot): this file gathers the values.
 * Owned by the tensor/display engineer; see lang_display.h for ownership of
 * what is returned.
 */
#include "lang_display.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lang_builtins.h"
#include "lang_eval.h"
#include "lang_vm.h"

bool lang_display_value(lang_vm *vm, lang_val v, lang_mime *out) {
    if (v.kind == LANG_OBJ && v.u.o->type->display) return v.u.o->type->display(vm, v.u.o, out);
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_repr(vm, v, &b)) {
        lang_buf_free(&b);
        return false;
    }
    lang_mime_add(out, "text/plain", lang_buf_take(&b));
    return true;
}

/* ---- the builtins ---- */

/* The kwarg named [name], or NULL. */
static const lang_val *kwarg(const lang_args *a, const char *name) {
    for (int i = 0; i < a->nkw; i++)
        if (!strcmp(a->kwnames[i], name)) return &a->kw[i];
    return NULL;
}

static bool check_kwargs(lang_vm *vm, const lang_args *a, const char *fname,
                         const char *const *allowed) {
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (const char *const *p = allowed; *p; p++) ok |= !strcmp(*p, a->kwnames[i]);
        if (!ok)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[i]);
    }
    return true;
}

static bool opt_str(lang_vm *vm, const lang_args *a, const char *name, const char **out) {
    const lang_val *v = kwarg(a, name);
    *out = NULL;
    if (!v || v->kind == LANG_NONE) return true;
    if (!lang_is_obj(*v, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s must be a str, not %s", name, lang_type_name(*v));
    *out = lang_str_cstr(*v);
    return true;
}

static bool number_of(lang_val v, double *out) {
    switch (v.kind) {
    case LANG_BOOL: *out = v.u.b; return true;
    case LANG_INT: *out = (double)v.u.i; return true;
    case LANG_FLOAT: *out = v.u.f; return true;
    default: break;
    }
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1) {
        nn_tensor_to_doubles(t, out);
        return true;
    }
    return false;
}

/* The values of one series: a tensor (flattened) or a list/tuple of numbers
 * and one-element tensors. Malloc'ed into *out. */
static bool values_of(lang_vm *vm, lang_val v, const char *fname, double **out, int64_t *n) {
    *out = NULL;
    *n = 0;
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        *n = nn_tensor_numel(t);
        *out = malloc((size_t)(*n ? *n : 1) * sizeof **out);
        if (!*out) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        nn_tensor_to_doubles(t, *out);
        return true;
    }
    if (lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type)) {
        int64_t len = lang_seq_len(v);
        lang_val *items = lang_seq_items(v);
        *out = malloc((size_t)(len ? len : 1) * sizeof **out);
        if (!*out) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t i = 0; i < len; i++) {
            if (!number_of(items[i], &(*out)[i])) {
                free(*out);
                *out = NULL;
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%s() wants numbers or one-element tensors in a series, got "
                                  "%s at position %lld",
                                  fname, lang_type_name(items[i]), (long long)i);
            }
        }
        *n = len;
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "%s() takes lists of numbers or tensors, not %s", fname,
                      lang_type_name(v));
}

/* Whether [v] is a list whose items are themselves series (several curves
 * passed as one list). */
static bool is_list_of_series(lang_val v) {
    if (!lang_is_obj(v, &lang_list_type) && !lang_is_obj(v, &lang_tuple_type)) return false;
    int64_t n = lang_seq_len(v);
    lang_val *items = lang_seq_items(v);
    if (n == 0) return false;
    for (int64_t i = 0; i < n; i++) {
        nn_tensor *t = lang_tensor_of(items[i]);
        bool seq =
            lang_is_obj(items[i], &lang_list_type) || lang_is_obj(items[i], &lang_tuple_type);
        if (!seq && !(t && t->ndim >= 1 && nn_tensor_numel(t) != 1)) return false;
    }
    return true;
}

#define PLOT_MAX_SERIES 16

static void show(lang_vm *vm, char *svg, char *text) {
    lang_mime m;
    lang_mime_init(&m);
    lang_mime_add(&m, "text/plain", text);
    lang_mime_add(&m, "image/svg+xml", svg);
    lang_vm_display(vm, &m, NULL, false);
    lang_mime_free(&m);
}

static bool f_plot(lang_vm *vm, const lang_args *a, lang_val *out) {
    static const char *const allowed[] = {"labels", "label",  "logy", "title",
                                          "xlabel", "ylabel", NULL};
    if (!check_kwargs(vm, a, "plot", allowed)) return false;
    lang_val series[PLOT_MAX_SERIES];
    int ns = 0;
    for (int i = 0; i < a->n; i++) {
        if (is_list_of_series(a->pos[i])) {
            int64_t n = lang_seq_len(a->pos[i]);
            for (int64_t j = 0; j < n && ns < PLOT_MAX_SERIES; j++)
                series[ns++] = lang_seq_items(a->pos[i])[j];
        } else if (ns < PLOT_MAX_SERIES) {
            series[ns++] = a->pos[i];
        }
    }
    if (ns == 0)
        return lang_raise(vm, LANG_ERR_TYPE, "plot() needs at least one series: plot(losses)");
    lang_plot_spec spec = {0};
    const lang_val *logy = kwarg(a, "logy");
    if (logy && !lang_to_bool(vm, *logy, "logy", &spec.logy)) return false;
    if (!opt_str(vm, a, "title", &spec.title) || !opt_str(vm, a, "xlabel", &spec.xlabel) ||
        !opt_str(vm, a, "ylabel", &spec.ylabel))
        return false;
    lang_plot_series s[PLOT_MAX_SERIES];
    memset(s, 0, sizeof s);
    const lang_val *labels = kwarg(a, "labels");
    const lang_val *label = kwarg(a, "label");
    if (label && lang_is_obj(*label, &lang_str_type)) s[0].label = lang_str_cstr(*label);
    if (labels && labels->kind != LANG_NONE) {
        if (lang_is_obj(*labels, &lang_str_type)) {
            s[0].label = lang_str_cstr(*labels);
        } else if (lang_is_obj(*labels, &lang_list_type) ||
                   lang_is_obj(*labels, &lang_tuple_type)) {
            int64_t n = lang_seq_len(*labels);
            for (int64_t i = 0; i < n && i < ns; i++) {
                lang_val l = lang_seq_items(*labels)[i];
                if (!lang_is_obj(l, &lang_str_type))
                    return lang_raise(vm, LANG_ERR_TYPE, "labels must be strings, not %s",
                                      lang_type_name(l));
                s[i].label = lang_str_cstr(l);
            }
        } else {
            return lang_raise(vm, LANG_ERR_TYPE, "labels must be a list of str, not %s",
                              lang_type_name(*labels));
        }
    }
    double *vals[PLOT_MAX_SERIES] = {0};
    bool ok = true;
    for (int i = 0; i < ns && ok; i++) {
        ok = values_of(vm, series[i], "plot", &vals[i], &s[i].n);
        s[i].y = vals[i];
    }
    if (ok) show(vm, lang_plot_svg(s, ns, &spec), lang_plot_text(s, ns, &spec));
    for (int i = 0; i < ns; i++) free(vals[i]);
    if (!ok) return false;
    *out = lang_none();
    return true;
}

static bool f_hist(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none(), bins_v = lang_int(30), title_v = lang_none();
    if (!lang_parse_args(vm, a, "hist", "input|bins,title", &x, &bins_v, &title_v)) return false;
    int64_t bins;
    if (!lang_to_int(vm, bins_v, "bins", &bins)) return false;
    if (bins < 1 || bins > 1000)
        return lang_raise(vm, LANG_ERR_VALUE, "hist(): bins must be between 1 and 1000, got %lld",
                          (long long)bins);
    const char *title = NULL;
    if (title_v.kind != LANG_NONE) {
        if (!lang_is_obj(title_v, &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "title must be a str, not %s",
                              lang_type_name(title_v));
        title = lang_str_cstr(title_v);
    }
    double *v;
    int64_t n;
    if (!values_of(vm, x, "hist", &v, &n)) return false;
    show(vm, lang_hist_svg(v, n, (int)bins, title), lang_hist_text(v, n, (int)bins, title));
    free(v);
    *out = lang_none();
    return true;
}

/* display(*values, display_id=None) and update_display(value, display_id=):
 * IPython's pair. With an id, a front end that can (Jupyter) replaces the
 * output shown under it later; the terminal shows the latest form. */
static bool show_values(lang_vm *vm, const lang_val *vals, int n, const char *id, bool update) {
    for (int i = 0; i < n; i++) {
        lang_mime m;
        lang_mime_init(&m);
        if (!lang_display_value(vm, vals[i], &m)) {
            lang_mime_free(&m);
            return false;
        }
        lang_vm_display(vm, &m, id, update);
        lang_mime_free(&m);
    }
    return true;
}

static bool display_id_arg(lang_vm *vm, const lang_args *a, const char *fname, bool required,
                           const char **id) {
    *id = NULL;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "display_id") != 0)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[k]);
        if (a->kw[k].kind == LANG_NONE) continue;
        if (!lang_is_obj(a->kw[k], &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "%s(): display_id must be a str, not %s", fname,
                              lang_type_name(a->kw[k]));
        *id = lang_str_cstr(a->kw[k]);
    }
    if (required && !*id)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() needs display_id='...'", fname);
    return true;
}

static bool f_display(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *id;
    if (!display_id_arg(vm, a, "display", false, &id) || !show_values(vm, a->pos, a->n, id, false))
        return false;
    *out = lang_none();
    return true;
}

static bool f_update_display(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *id;
    if (!display_id_arg(vm, a, "update_display", true, &id)) return false;
    if (a->n != 1)
        return lang_raise(vm, LANG_ERR_TYPE, "update_display() takes 1 value, got %d", a->n);
    if (!show_values(vm, a->pos, 1, id, true)) return false;
    *out = lang_none();
    return true;
}

/* ---- progress(iterable): a tqdm-like wrapper ----
 * Iterating it iterates the inner iterable and reports progress to the
 * front end (a bar on stderr in the terminal, an updating output in
 * Jupyter), at most every 100 ms and once at the end. */
typedef struct progress_obj {
    lang_obj base;
    lang_vm *vm;
    lang_val inner; /* the iterator */
    int64_t done, total;
    double last;
    bool finished;
    char id[32];
    char desc[96];
} progress_obj;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The text is the description only: each front end draws the count and the
 * bar itself from [done] and [total], so the count appears once. */
static void progress_report(progress_obj *p, bool final) {
    lang_vm_progress(p->vm, p->id, p->done, final ? p->done : p->total, p->desc);
}

static void progress_free(lang_obj *o) {
    progress_obj *p = (progress_obj *)o;
    if (!p->finished) progress_report(p, true); /* a loop left early still closes its bar */
    lang_val_release(p->inner);                 /* the runtime frees the object itself */
}

static bool progress_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    o->refcount++;
    *out = lang_obj_val(o);
    return true;
}

static bool progress_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    progress_obj *p = (progress_obj *)o;
    if (!lang_next(vm, p->inner, out, done)) return false;
    if (*done) {
        if (!p->finished) {
            p->finished = true;
            progress_report(p, true);
        }
        return true;
    }
    p->done++;
    double t = now_seconds();
    if (t - p->last >= 0.1) {
        p->last = t;
        progress_report(p, false);
    }
    return true;
}

static bool progress_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    progress_obj *p = (progress_obj *)o;
    lang_buf_printf(out, "<progress %lld/%lld>", (long long)p->done, (long long)p->total);
    return true;
}

static const lang_type progress_type = {
    .name = "progress",
    .free = progress_free,
    .repr = progress_repr,
    .iter = progress_iter,
    .next = progress_next,
};

static bool f_progress(lang_vm *vm, const lang_args *a, lang_val *out) {
    static int counter;
    lang_val it, totalv = lang_none(), descv = lang_none();
    if (!lang_parse_args(vm, a, "progress", "iterable|total,desc", &it, &totalv, &descv))
        return false;
    int64_t total = 0;
    if (totalv.kind != LANG_NONE) {
        if (!lang_to_int(vm, totalv, "total", &total)) return false;
    } else if (it.kind == LANG_OBJ && it.u.o->type->len) {
        if (!it.u.o->type->len(vm, it.u.o, &total)) return false;
    }
    if (descv.kind != LANG_NONE && !lang_is_obj(descv, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "progress(): desc must be a str");
    lang_val inner;
    if (!lang_iter(vm, it, &inner)) return false;
    progress_obj *p = lang_obj_new(vm, &progress_type, sizeof *p);
    if (!p) {
        lang_val_release(inner);
        return false;
    }
    p->vm = vm;
    p->inner = inner;
    p->total = total < 0 ? 0 : total;
    p->last = now_seconds();
    snprintf(p->id, sizeof p->id, "progress-%d", ++counter);
    snprintf(p->desc, sizeof p->desc, "%s", descv.kind == LANG_NONE ? "" : lang_str_cstr(descv));
    progress_report(p, false);
    *out = lang_obj_val(&p->base);
    return true;
}

const lang_builtin_def lang_plot_builtins[] = {
    {"plot",
     f_plot,
     {"plot", "plot(*series, labels=None, logy=False, title=None, xlabel=None, ylabel=None)",
      "Show one or more curves (lists of numbers or 1-D tensors, one point per step) as they "
      "are called: an SVG chart in Jupyter, Unicode sparklines with min/max/last in the "
      "terminal. Series share one y scale; logy=True plots log10 of the values. Non-finite "
      "points are skipped and counted. Returns None.",
      "plot(losses, val_losses, labels=['train', 'val'], logy=True, title='loss')"}},
    {"hist",
     f_hist,
     {"hist", "hist(input, bins=30, title=None)",
      "Show the distribution of a tensor's (or a list's) finite values in [bins] equal bins "
      "between its min and max: an SVG histogram in Jupyter, horizontal bars in the terminal, "
      "with n, mean and std. Returns None.",
      "hist(model[0].weight.grad, bins=20, title='layer 0 grads')"}},
    {"display",
     f_display,
     {"display", "display(*values, display_id=None)",
      "Show each value's rich form now (a tensor as an HTML table with statistics in "
      "Jupyter), as IPython's display() does. With display_id, update_display() can replace "
      "the output later. Returns None.",
      "display(x, display_id='weights')"}},
    {"update_display",
     f_update_display,
     {"update_display", "update_display(value, display_id)",
      "Replace the output shown by display(..., display_id=...) with [value]'s rich form (in "
      "Jupyter the old output changes in place; the terminal prints the new one).",
      "update_display(losses[-1], display_id='loss')"}},
    {"progress",
     f_progress,
     {"progress", "progress(iterable, total=None, desc=None)",
      "Iterate over [iterable] and show progress as you go: a bar on stderr in the terminal, "
      "an output that updates in place in Jupyter (like tqdm). total defaults to len(iterable) "
      "when it has one.",
      "for step in progress(range(1000), desc='train'):\n    ..."}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
