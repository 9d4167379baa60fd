/* lang_instruments: the training instruments of the language: gradcheck,
 * stats, activations, dependencies, profile, track and live_plot (the
 * instruments family in lang_builtins.h), and what %stats and %profile run.
 *
 * The checks themselves live in the engine (nn_check, nn_profile, the
 * optimizers' kept updates); this file calls them with the user's function,
 * module or optimizer, and shows each answer as a report: a table as
 * text/plain for the terminal and text/html (with SVG pictures) for Jupyter.
 * Reports are values: a record-like object whose fields a script or test can
 * read (r.passed, r.rows[0].max_abs_err, ...).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lang_builtins.h"
#include "lang_display.h"
#include "lang_eval.h"
#include "lang_instruments.h"
#include "lang_nn.h"
#include "lang_tensor.h"
#include "nn_check.h"
#include "nn_module.h"
#include "nn_ops.h"
#include "nn_optim.h"
#include "nn_profile.h"

#define CTX(vm) lang_vm_ctx(vm)

/* ------------------------------------------------------------------ helpers */

/* The name of the global that holds [v] (the same object), or NULL. */
static const char *global_name(lang_vm *vm, lang_val v) {
    if (v.kind != LANG_OBJ) return NULL;
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (g->set && g->value.kind == LANG_OBJ && g->value.u.o == v.u.o) return g->name;
    }
    return NULL;
}

/* The same for a tensor: a global tensor value wrapping the same nn_tensor. */
static const char *tensor_global_name(lang_vm *vm, const nn_tensor *t) {
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (g->set && lang_tensor_of(g->value) == t) return g->name;
    }
    return NULL;
}

/* "%.4g", or "-" for NaN (a quantity that does not exist here). */
static const char *num(char *buf, size_t cap, double v) {
    if (v != v)
        snprintf(buf, cap, "-");
    else
        snprintf(buf, cap, "%.4g", v);
    return buf;
}

static void shape_str(char *buf, size_t cap, int ndim, const int64_t *shape) {
    size_t k = (size_t)snprintf(buf, cap, "[");
    for (int i = 0; i < ndim && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (k < cap) snprintf(buf + k, cap - k, "]");
}

/* Flat index -> "(i, j, k)" for a shape. */
static void index_str(char *buf, size_t cap, int ndim, const int64_t *shape, int64_t flat) {
    int64_t idx[NN_MAX_DIMS];
    for (int d = ndim - 1; d >= 0; d--) {
        idx[d] = shape[d] ? flat % shape[d] : 0;
        flat = shape[d] ? flat / shape[d] : 0;
    }
    size_t k = (size_t)snprintf(buf, cap, "(");
    for (int d = 0; d < ndim && k < cap; d++)
        k += (size_t)snprintf(buf + k, cap - k, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (k < cap) snprintf(buf + k, cap - k, "%s)", ndim == 1 ? "," : "");
}

static bool shape_tuple(lang_vm *vm, int ndim, const int64_t *shape, lang_val *out) {
    lang_val items[NN_MAX_DIMS];
    for (int i = 0; i < ndim; i++) items[i] = lang_int(shape[i]);
    return lang_tuple_pack(vm, ndim, items, out);
}

static bool set_str(lang_vm *vm, lang_val rec, const char *field, const char *s) {
    lang_val v;
    if (!lang_str_from_cstr(vm, s, &v)) return false;
    bool ok = lang_record_set(vm, rec, field, v);
    lang_val_release(v);
    return ok;
}

static bool set_val(lang_vm *vm, lang_val rec, const char *field, lang_val v) {
    bool ok = lang_record_set(vm, rec, field, v);
    lang_val_release(v);
    return ok;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ reports */

/* A report: text and HTML made once, fields as a record, and a truth value
 * (gradcheck's verdict; -1: the default, true). */
typedef struct report_obj {
    lang_obj hdr;
    char *text, *html;
    lang_val fields; /* a record */
    int truth;
} report_obj;

static void report_free(lang_obj *o) {
    report_obj *r = (report_obj *)o;
    free(r->text);
    free(r->html);
    lang_val_release(r->fields);
}

static bool report_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    (void)vm;
    lang_buf_puts(out, ((report_obj *)o)->text);
    return true;
}

static bool report_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    report_obj *r = (report_obj *)o;
    if (!strcmp(name, "text")) {
        *found = true;
        return lang_str_from_cstr(vm, r->text, out);
    }
    if (!strcmp(name, "html")) {
        *found = true;
        return lang_str_from_cstr(vm, r->html, out);
    }
    lang_val v;
    bool ok = lang_getattr(vm, r->fields, name, &v);
    if (!ok) {
        /* Not a field: let the caller raise its AttributeError. */
        lang_vm_clear_error(vm);
        *found = false;
        return true;
    }
    *found = true;
    *out = v;
    return true;
}

static bool report_truth(lang_vm *vm, lang_obj *o, bool *out) {
    (void)vm;
    *out = ((report_obj *)o)->truth != 0;
    return true;
}

static bool report_display(lang_vm *vm, lang_obj *o, lang_mime *out) {
    (void)vm;
    report_obj *r = (report_obj *)o;
    lang_mime_add(out, "text/plain", strdup(r->text));
    lang_mime_add(out, "text/html", strdup(r->html));
    return true;
}

#define REPORT_TYPE(var, nm)                                                                       \
    static const lang_type var = {                                                                 \
        .name = nm,                                                                                \
        .free = report_free,                                                                       \
        .repr = report_repr,                                                                       \
        .getattr = report_getattr,                                                                 \
        .truth = report_truth,                                                                     \
        .display = report_display,                                                                 \
    }

REPORT_TYPE(gradcheck_type, "GradcheckResult");
REPORT_TYPE(stats_type, "Stats");
REPORT_TYPE(activations_type, "Activations");
REPORT_TYPE(dependencies_type, "Dependencies");
REPORT_TYPE(profile_type, "Profile");
REPORT_TYPE(lrfind_type, "LRFind");

/* Wrap text, html and fields (all taken over) into a report value. */
static bool report_new(lang_vm *vm, const lang_type *t, lang_buf *text, lang_buf *html,
                       lang_val fields, int truth, lang_val *out) {
    report_obj *r = lang_obj_new(vm, t, sizeof *r);
    if (!r) {
        lang_buf_free(text);
        lang_buf_free(html);
        lang_val_release(fields);
        return false;
    }
    /* print() adds the newline the table's last line would have. */
    while (text->len && text->data[text->len - 1] == '\n') text->data[--text->len] = 0;
    r->text = text->data ? lang_buf_take(text) : strdup("");
    r->html = html->data ? lang_buf_take(html) : strdup("");
    r->fields = fields;
    r->truth = truth;
    if (!r->text || !r->html) {
        lang_val_release(lang_obj_val(&r->hdr));
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    *out = lang_obj_val(&r->hdr);
    return true;
}

/* ------------------------------------------------------------------ calling the model */

/* What the checks call: a Module (run through the engine under the path
 * [name]) or any callable value (through the interpreter). */
typedef struct callee {
    lang_vm *vm;
    lang_val f;
    nn_module *m;
    const char *name; /* root of module paths */
    lang_val *args;   /* the arguments for a callable */
    int nargs;
    bool lang_failed; /* the interpreter raised: its error is pending */
} callee;

/* A call's result as one tensor: a tensor, or the float tensors of a tuple
 * or list flattened and joined (all outputs are checked, as torch does). */
static nn_tensor *result_tensor(lang_vm *vm, nn_ctx *ctx, lang_val r) {
    nn_tensor *t = lang_tensor_of(r);
    if (t) return nn_tensor_retain(t);
    bool seq = lang_is_obj(r, &lang_tuple_type) || lang_is_obj(r, &lang_list_type);
    if (!seq) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "the function returned %s; it must return a Tensor",
                     lang_type_name(r));
        return NULL;
    }
    int64_t n = lang_seq_len(r);
    lang_val *items = lang_seq_items(r);
    nn_tensor *parts[64];
    int k = 0;
    for (int64_t i = 0; i < n && k < 64; i++) {
        nn_tensor *p = lang_tensor_of(items[i]);
        if (!p || !nn_dtype_is_float(p->dtype)) continue;
        int64_t flat = -1;
        parts[k] = nn_reshape(ctx, p, 1, &flat);
        if (!parts[k]) {
            for (int j = 0; j < k; j++) nn_tensor_release(parts[j]);
            return NULL;
        }
        k++;
    }
    (void)vm;
    if (!k) {
        nn_error_set(&ctx->err, NN_ERR_TYPE, "the function returned no float Tensor");
        return NULL;
    }
    nn_tensor *cat = nn_cat(ctx, parts, k, 0);
    for (int j = 0; j < k; j++) nn_tensor_release(parts[j]);
    return cat;
}

static nn_tensor *callee_run(nn_ctx *ctx, void *user) {
    callee *c = user;
    if (c->m) {
        nn_tensor *x = c->nargs > 0 ? lang_tensor_of(c->args[0]) : NULL;
        nn_tensor *y = c->nargs > 1 ? lang_tensor_of(c->args[1]) : NULL;
        if (!x) {
            nn_error_set(&ctx->err, NN_ERR_TYPE, "the module needs a Tensor input");
            return NULL;
        }
        if (c->m->kind == NN_MODULE_GPT && y)
            return nn_module_gpt_loss(ctx, c->m, x, y, c->name, NULL);
        return nn_module_forward(ctx, c->m, x, c->name);
    }
    lang_args a = {c->nargs, c->args, 0, NULL, NULL};
    lang_val r;
    if (!lang_vm_call(c->vm, c->f, &a, &r)) {
        c->lang_failed = true;
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the function raised");
        return NULL;
    }
    nn_tensor *t = result_tensor(c->vm, ctx, r);
    lang_val_release(r);
    return t;
}

/* Report an engine failure of a check: the interpreter's own error when the
 * user's function raised, else the engine's. */
static bool check_failed(lang_vm *vm, const callee *c) {
    if (c->lang_failed) return false;
    return lang_raise_engine(vm);
}

/* ------------------------------------------------------------------ gradcheck */

typedef struct gc_inputs {
    lang_val *args; /* what the function receives (float64 copies of float tensors) */
    int n;
    nn_tensor **check; /* the copies (and parameters) to check */
    char **names;
    int n_check;
} gc_inputs;

static void gc_inputs_free(gc_inputs *g) {
    for (int i = 0; i < g->n; i++) lang_val_release(g->args[i]);
    for (int i = 0; i < g->n_check; i++) free(g->names[i]);
    free(g->args);
    free(g->check);
    free(g->names);
}

static bool gc_add_check(lang_vm *vm, gc_inputs *g, nn_tensor *t, const char *name, int cap) {
    if (g->n_check >= cap) return lang_raise(vm, LANG_ERR_VALUE, "gradcheck: too many tensors");
    g->names[g->n_check] = strdup(name);
    if (!g->names[g->n_check]) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    g->check[g->n_check++] = t;
    return true;
}

static bool gc_prepare(lang_vm *vm, const lang_val *in, int n, nn_state *params, gc_inputs *g) {
    nn_ctx *ctx = CTX(vm);
    memset(g, 0, sizeof *g);
    int cap = n + (params ? params->n : 0) + 1;
    g->args = calloc((size_t)n + 1, sizeof *g->args);
    g->check = calloc((size_t)cap, sizeof *g->check);
    g->names = calloc((size_t)cap, sizeof *g->names);
    if (!g->args || !g->check || !g->names) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int i = 0; i < n; i++) {
        nn_tensor *t = lang_tensor_of(in[i]);
        if (!t || !nn_dtype_is_float(t->dtype)) {
            g->args[g->n++] = lang_val_retain(in[i]);
            continue;
        }
        nn_tensor *c = nn_tensor_empty(ctx, NN_FLOAT64, t->ndim, t->shape);
        if (!c || nn_tensor_copy_(ctx, c, t)) {
            nn_tensor_release(c);
            return lang_raise_engine(vm);
        }
        c->requires_grad = t->requires_grad;
        if (!lang_tensor_new(vm, c, &g->args[g->n])) return false;
        g->n++;
        if (!t->requires_grad) continue;
        const char *nm = tensor_global_name(vm, t);
        char buf[64];
        if (!nm) {
            snprintf(buf, sizeof buf, "input %d", i);
            nm = buf;
        }
        if (!gc_add_check(vm, g, c, nm, cap)) return false;
    }
    for (int i = 0; params && i < params->n; i++)
        if (!gc_add_check(vm, g, params->entries[i].tensor, params->entries[i].name, cap))
            return false;
    return true;
}

static void gc_table(const nn_gradcheck_result *r, lang_buf *t, lang_buf *h) {
    int failed = 0;
    for (int i = 0; i < r->n; i++) failed += !r->entries[i].pass;
    lang_buf_printf(t, "gradcheck: %s", r->pass ? "passed" : "FAILED");
    if (!r->pass) lang_buf_printf(t, " (%d of %d tensors)", failed, r->n);
    lang_buf_printf(t, ", float64, eps=%g atol=%g rtol=%g%s\n", r->opts.eps, r->opts.atol,
                    r->opts.rtol,
                    r->projected ? ", output reduced by a fixed random projection" : "");
    lang_buf_printf(t, "%-22s %-12s %9s %11s %11s %-12s %12s %12s  %s\n", "tensor", "shape",
                    "checked", "max abs err", "max rel err", "worst index", "analytic", "numeric",
                    "");
    lang_buf_printf(h,
                    "<div><b>gradcheck: %s</b> <small>float64, eps=%g atol=%g rtol=%g%s</small>"
                    "<table><tr><th>tensor</th><th>shape</th><th>checked</th><th>max abs "
                    "err</th><th>max rel err</th><th>worst index</th><th>analytic</th>"
                    "<th>numeric</th><th></th></tr>",
                    r->pass ? "passed" : "FAILED", r->opts.eps, r->opts.atol, r->opts.rtol,
                    r->projected ? ", output reduced by a fixed random projection" : "");
    for (int i = 0; i < r->n; i++) {
        const nn_gradcheck_entry *e = &r->entries[i];
        char sh[96], ix[96], chk[48], a[32], b[32], c[32], d[32];
        int64_t numel = 1;
        for (int k = 0; k < e->ndim; k++) numel *= e->shape[k];
        shape_str(sh, sizeof sh, e->ndim, e->shape);
        if (e->worst >= 0)
            index_str(ix, sizeof ix, e->ndim, e->shape, e->worst);
        else
            snprintf(ix, sizeof ix, "-");
        snprintf(chk, sizeof chk, "%lld/%lld", (long long)e->checked, (long long)numel);
        const char *verdict = e->pass ? "ok" : "FAIL";
        lang_buf_printf(t, "%-22s %-12s %9s %11.3e %11.3e %-12s %12s %12s  %s%s\n", e->name, sh,
                        chk, e->max_abs, e->max_rel, ix, num(a, sizeof a, e->analytic),
                        num(b, sizeof b, e->numeric), verdict,
                        e->reached ? "" : " (no gradient reached it)");
        lang_buf_puts(h, "<tr><td><code>");
        nn_format_html_escape(h, e->name);
        lang_buf_printf(h,
                        "</code></td><td>%s</td><td>%s</td><td>%.3e</td><td>%.3e</td><td>%s</td>"
                        "<td>%s</td><td>%s</td><td style=\"color:%s\"><b>%s</b></td></tr>",
                        sh, chk, e->max_abs, e->max_rel, ix, num(c, sizeof c, e->analytic),
                        num(d, sizeof d, e->numeric), e->pass ? "#080" : "#b00", verdict);
    }
    lang_buf_puts(h, "</table></div>");
}

static bool gc_fields(lang_vm *vm, const nn_gradcheck_result *r, lang_val *out) {
    lang_val rows;
    if (!lang_record_new(vm, "GradcheckResult", out)) return false;
    if (!lang_list_new(vm, 0, &rows)) return false;
    bool ok = true;
    for (int i = 0; i < r->n && ok; i++) {
        const nn_gradcheck_entry *e = &r->entries[i];
        lang_val rec, v;
        if (!lang_record_new(vm, "GradcheckRow", &rec)) {
            ok = false;
            break;
        }
        int64_t idx[NN_MAX_DIMS], flat = e->worst < 0 ? 0 : e->worst;
        for (int d = e->ndim - 1; d >= 0; d--) {
            idx[d] = e->shape[d] ? flat % e->shape[d] : 0;
            flat = e->shape[d] ? flat / e->shape[d] : 0;
        }
        ok = set_str(vm, rec, "name", e->name) && shape_tuple(vm, e->ndim, e->shape, &v) &&
             set_val(vm, rec, "shape", v) &&
             lang_record_set(vm, rec, "checked", lang_int(e->checked)) &&
             lang_record_set(vm, rec, "max_abs_err", lang_float(e->max_abs)) &&
             lang_record_set(vm, rec, "max_rel_err", lang_float(e->max_rel)) &&
             shape_tuple(vm, e->ndim, idx, &v) && set_val(vm, rec, "worst_index", v) &&
             lang_record_set(vm, rec, "analytic", lang_float(e->analytic)) &&
             lang_record_set(vm, rec, "numeric", lang_float(e->numeric)) &&
             lang_record_set(vm, rec, "passed", lang_bool(e->pass)) &&
             lang_list_append(vm, rows, rec);
        lang_val_release(rec);
    }
    ok = ok && lang_record_set(vm, *out, "passed", lang_bool(r->pass)) &&
         lang_record_set(vm, *out, "rows", rows) &&
         lang_record_set(vm, *out, "calls", lang_int(r->f_calls));
    lang_val_release(rows);
    if (!ok) lang_val_release(*out);
    return ok;
}

static bool opt_float(lang_vm *vm, lang_val v, const char *what, double *out) {
    return v.kind == LANG_NONE || lang_to_float(vm, v, what, out);
}

static bool f_gradcheck(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1) return lang_raise(vm, LANG_ERR_TYPE, "gradcheck() needs a function and inputs");
    nn_ctx *ctx = CTX(vm);
    nn_gradcheck_opts o = nn_gradcheck_defaults();
    bool raise_exception = true;
    for (int k = 0; k < a->nkw; k++) {
        const char *kn = a->kwnames[k];
        lang_val v = a->kw[k];
        int64_t iv;
        bool ok = true;
        if (!strcmp(kn, "eps"))
            ok = opt_float(vm, v, "eps", &o.eps);
        else if (!strcmp(kn, "atol"))
            ok = opt_float(vm, v, "atol", &o.atol);
        else if (!strcmp(kn, "rtol"))
            ok = opt_float(vm, v, "rtol", &o.rtol);
        else if (!strcmp(kn, "samples")) {
            if (v.kind != LANG_NONE && (ok = lang_to_int(vm, v, "samples", &iv))) {
                if (iv < 1)
                    return lang_raise(vm, LANG_ERR_VALUE, "gradcheck: samples must be >= 1");
                o.samples = iv;
            }
        } else if (!strcmp(kn, "seed")) {
            if ((ok = lang_to_int(vm, v, "seed", &iv))) o.seed = (uint64_t)iv;
        } else if (!strcmp(kn, "raise_exception")) {
            ok = lang_to_bool(vm, v, "raise_exception", &raise_exception);
        } else {
            return lang_raise(vm, LANG_ERR_TYPE,
                              "gradcheck() got an unexpected keyword argument '%s'", kn);
        }
        if (!ok) return false;
    }
    lang_val f = a->pos[0];
    /* PyTorch's form: gradcheck(fn, (x, y), ...) returns True or raises. */
    bool torch_form = a->n == 2 && (lang_is_obj(a->pos[1], &lang_tuple_type) ||
                                    lang_is_obj(a->pos[1], &lang_list_type));
    const lang_val *in = torch_form ? lang_seq_items(a->pos[1]) : a->pos + 1;
    int n_in = torch_form ? (int)lang_seq_len(a->pos[1]) : a->n - 1;
    if (torch_form && lang_tensor_of(a->pos[1])) torch_form = false;

    callee c = {vm, f, lang_module_of(f), NULL, NULL, 0, false};
    const char *mname = global_name(vm, f);
    c.name = mname ? mname : "model";
    nn_state params;
    nn_state_init(&params);
    nn_dtype orig = NN_FLOAT32;
    bool converted = false;
    if (c.m) {
        nn_state rel;
        nn_state_init(&rel);
        if (nn_module_named_parameters(ctx, c.m, &rel)) {
            nn_state_free(&rel);
            return lang_raise_engine(vm);
        }
        for (int i = 0; i < rel.n; i++) {
            char full[NN_STATE_NAME_MAX];
            if (snprintf(full, sizeof full, "%s.%s", c.name, rel.entries[i].name) >=
                (int)sizeof full)
                full[sizeof full - 1] = 0; /* a path that long is cut */
            if (i == 0) orig = rel.entries[i].tensor->dtype;
            if (rel.entries[i].tensor->requires_grad)
                nn_state_add_unique(ctx, &params, full, rel.entries[i].tensor);
        }
        nn_state_free(&rel);
        if (nn_module_to_dtype(ctx, c.m, NN_FLOAT64)) {
            nn_state_free(&params);
            return lang_raise_engine(vm);
        }
        converted = true;
    }
    gc_inputs g;
    bool ok = gc_prepare(vm, in, n_in, c.m ? &params : NULL, &g);
    nn_gradcheck_result r;
    memset(&r, 0, sizeof r);
    if (ok) {
        c.args = g.args;
        c.nargs = g.n;
        if (nn_gradcheck(ctx, callee_run, &c, g.check, (const char *const *)g.names, g.n_check, &o,
                         &r))
            ok = check_failed(vm, &c);
    }
    if (converted && nn_module_to_dtype(ctx, c.m, orig) && ok) ok = lang_raise_engine(vm);
    gc_inputs_free(&g);
    nn_state_free(&params);
    if (!ok) {
        nn_gradcheck_result_free(&r);
        return false;
    }
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    gc_table(&r, &t, &h);
    if (torch_form) {
        lang_buf_free(&h);
        bool pass = r.pass;
        nn_gradcheck_result_free(&r);
        if (pass || !raise_exception) {
            lang_buf_free(&t);
            *out = lang_bool(pass);
            return true;
        }
        ok = lang_raise(vm, LANG_ERR_RUNTIME, "Jacobian mismatch: %s", t.data);
        lang_buf_free(&t);
        return ok;
    }
    lang_val fields;
    if (!gc_fields(vm, &r, &fields)) {
        nn_gradcheck_result_free(&r);
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    int truth = r.pass;
    nn_gradcheck_result_free(&r);
    return report_new(vm, &gradcheck_type, &t, &h, fields, truth, out);
}

/* ------------------------------------------------------------------ stats */

/* std(a) / std(b), NaN when either is missing or b's std is 0. */
static double std_ratio(const nn_tensor *a, const nn_tensor *b) {
    if (!a || !b) return NAN;
    nn_summary sa, sb;
    nn_summarize(a, &sa);
    nn_summarize(b, &sb);
    return sb.std > 0 ? sa.std / sb.std : NAN;
}

/* The index of [p] among [opt]'s parameters, or -1. */
static int optim_index(const nn_optim *opt, const nn_tensor *p) {
    for (int i = 0; opt && i < nn_optim_num_params(opt); i++)
        if (nn_optim_param(opt, i) == p) return i;
    return -1;
}

/* Without an optimizer given: one the session holds (a global) that updates
 * [m]'s first parameter, so stats(model) shows the update:data ratios of the
 * learner's `opt`. */
static nn_optim *session_optimizer(lang_vm *vm, nn_module *m) {
    nn_tensor **ps = NULL;
    int np = 0;
    if (nn_module_parameters(CTX(vm), m, &ps, &np) || np == 0) {
        nn_ctx_clear_error(CTX(vm));
        free(ps);
        return NULL;
    }
    nn_optim *found = NULL;
    for (int64_t k = 0; k < vm->n_globals && !found; k++) {
        lang_global *g = &vm->globals[k];
        nn_optim *o = g->set ? lang_optim_of(g->value) : NULL;
        if (o && optim_index(o, ps[0]) >= 0) found = o;
    }
    free(ps);
    return found;
}

bool lang_instruments_stats(lang_vm *vm, lang_val model, lang_val optv, lang_val *out) {
    nn_ctx *ctx = CTX(vm);
    nn_module *m = lang_module_of(model);
    if (!m)
        return lang_raise(vm, LANG_ERR_TYPE, "stats() needs a Module, not %s",
                          lang_type_name(model));
    nn_optim *opt = NULL;
    if (optv.kind != LANG_NONE && !(opt = lang_optim_of(optv)))
        return lang_raise(vm, LANG_ERR_TYPE, "stats(model, opt): opt must be an optimizer, not %s",
                          lang_type_name(optv));
    if (!opt) opt = session_optimizer(vm, m);
    bool armed_now = false;
    if (opt && !nn_optim_keeps_updates(opt)) {
        if (nn_optim_keep_updates(ctx, opt, true)) return lang_raise_engine(vm);
        armed_now = true;
    }
    const char *root = global_name(vm, model);
    if (!root) root = "model";
    nn_state ps;
    nn_state_init(&ps);
    if (nn_module_named_parameters(ctx, m, &ps)) {
        nn_state_free(&ps);
        return lang_raise_engine(vm);
    }
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_val fields, rows;
    if (!lang_record_new(vm, "Stats", &fields) || !lang_list_new(vm, 0, &rows)) {
        nn_state_free(&ps);
        return false;
    }
    lang_buf_printf(&t, "%-26s %-12s %10s %10s %10s %10s %10s %12s\n", "parameter", "shape",
                    "data mean", "data std", "grad mean", "grad std", "grad:data",
                    "log10 upd:data");
    lang_buf_puts(&h, "<table><tr><th>parameter</th><th>shape</th><th>data mean</th><th>data "
                      "std</th><th>grad mean</th><th>grad std</th><th>grad:data</th>"
                      "<th>log10 update:data</th></tr>");
    bool ok = true;
    for (int i = 0; i < ps.n && ok; i++) {
        nn_tensor *p = ps.entries[i].tensor, *g = nn_tensor_grad(p);
        nn_tensor *u = opt ? nn_optim_last_update(opt, optim_index(opt, p)) : NULL;
        nn_summary sd, sg;
        nn_summarize(p, &sd);
        if (g)
            nn_summarize(g, &sg);
        else
            sg.mean = sg.std = NAN;
        double gd = std_ratio(g, p), ud = std_ratio(u, p);
        double lud = ud > 0 ? log10(ud) : NAN;
        char name[NN_STATE_NAME_MAX + 64], sh[96], b[6][32];
        snprintf(name, sizeof name, "%s.%s", root, ps.entries[i].name);
        shape_str(sh, sizeof sh, p->ndim, p->shape);
        lang_buf_printf(&t, "%-26s %-12s %10s %10s %10s %10s %10s %12s\n", name, sh,
                        num(b[0], 32, sd.mean), num(b[1], 32, sd.std), num(b[2], 32, sg.mean),
                        num(b[3], 32, sg.std), num(b[4], 32, gd), num(b[5], 32, lud));
        lang_buf_puts(&h, "<tr><td><code>");
        nn_format_html_escape(&h, name);
        lang_buf_printf(&h,
                        "</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                        "<td>%s</td><td>%s</td></tr>",
                        sh, b[0], b[1], b[2], b[3], b[4], b[5]);
        lang_val rec, v;
        ok = lang_record_new(vm, "ParamStats", &rec);
        if (!ok) break;
        ok = set_str(vm, rec, "name", name) && shape_tuple(vm, p->ndim, p->shape, &v) &&
             set_val(vm, rec, "shape", v) &&
             lang_record_set(vm, rec, "data_mean", lang_float(sd.mean)) &&
             lang_record_set(vm, rec, "data_std", lang_float(sd.std)) &&
             lang_record_set(vm, rec, "grad_mean", g ? lang_float(sg.mean) : lang_none()) &&
             lang_record_set(vm, rec, "grad_std", g ? lang_float(sg.std) : lang_none()) &&
             lang_record_set(vm, rec, "grad_data", g ? lang_float(gd) : lang_none()) &&
             lang_record_set(vm, rec, "update_data", u ? lang_float(ud) : lang_none()) &&
             lang_list_append(vm, rows, rec);
        lang_val_release(rec);
    }
    lang_buf_puts(&h, "</table>");
    if (armed_now) {
        const char *note = "update:data appears after the optimizer's next step (it keeps its "
                           "updates from now on)\n";
        lang_buf_puts(&t, note);
        lang_buf_printf(&h, "<p><small>%s</small></p>", note);
    } else if (!opt) {
        const char *note = "no optimizer updates this model yet: the update:data ratios appear "
                           "once one does (or pass it: stats(model, opt))\n";
        lang_buf_puts(&t, note);
        lang_buf_printf(&h, "<p><small>%s</small></p>", note);
    }
    nn_state_free(&ps);
    ok = ok && lang_record_set(vm, fields, "rows", rows);
    lang_val_release(rows);
    if (!ok) {
        lang_val_release(fields);
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    return report_new(vm, &stats_type, &t, &h, fields, -1, out);
}

static bool f_stats(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val model = lang_none(), opt = lang_none();
    if (!lang_parse_args(vm, a, "stats", "model|opt", &model, &opt)) return false;
    return lang_instruments_stats(vm, model, opt, out);
}

/* ------------------------------------------------------------------ activations */

static const char *const spark[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                     "\u2585", "\u2586", "\u2587", "\u2588"};

/* A one-line histogram of [v] in [bins] bins between its min and max. */
static void sparkline_hist(lang_buf *b, const double *v, int64_t n, int bins, double lo,
                           double hi) {
    int64_t count[64] = {0}, maxc = 0;
    if (bins > 64) bins = 64;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        int k = hi > lo ? (int)((v[i] - lo) / (hi - lo) * bins) : 0;
        if (k >= bins) k = bins - 1;
        if (k < 0) k = 0;
        count[k]++;
    }
    for (int k = 0; k < bins; k++)
        if (count[k] > maxc) maxc = count[k];
    for (int k = 0; k < bins; k++) {
        if (!count[k]) {
            lang_buf_puts(b, " ");
            continue;
        }
        int level = maxc ? (int)((count[k] * 7 + maxc - 1) / maxc) : 0;
        lang_buf_puts(b, spark[level > 7 ? 7 : level]);
    }
}

typedef struct act_row {
    double mean, std, saturated, dead;
    bool has_sat, has_dead;
} act_row;

static void act_measure(const nn_tensor *t, nn_module_kind kind, nn_op op, double *v, act_row *r) {
    int64_t n = nn_tensor_numel(t);
    nn_tensor_to_doubles(t, v);
    nn_summary s;
    nn_summarize(t, &s);
    r->mean = s.mean;
    r->std = s.std;
    bool tanh_like = kind == NN_MODULE_TANH || op == NN_OP_TANH;
    bool sigm_like = kind == NN_MODULE_SIGMOID || op == NN_OP_SIGMOID;
    bool relu_like =
        kind == NN_MODULE_RELU || kind == NN_MODULE_GELU || op == NN_OP_RELU || op == NN_OP_GELU;
    r->has_sat = tanh_like || sigm_like;
    r->has_dead = relu_like && t->ndim >= 1;
    r->saturated = r->dead = NAN;
    if (r->has_sat && n) {
        int64_t k = 0;
        for (int64_t i = 0; i < n; i++)
            k += tanh_like ? fabs(v[i]) > 0.97 : (v[i] < 0.03 || v[i] > 0.97);
        r->saturated = (double)k / (double)n;
    }
    if (r->has_dead && n) {
        int64_t units = t->shape[t->ndim - 1], dead = 0;
        for (int64_t u = 0; u < units; u++) {
            bool alive = false;
            for (int64_t i = u; i < n && !alive; i += units) alive = v[i] > 0;
            dead += !alive;
        }
        r->dead = units ? (double)dead / (double)units : NAN;
    }
}

static bool act_row_record(lang_vm *vm, const char *layer, const char *kind, const act_row *r,
                           const nn_summary *gs, lang_val rows) {
    lang_val rec;
    if (!lang_record_new(vm, "LayerStats", &rec)) return false;
    bool ok = set_str(vm, rec, "layer", layer) && set_str(vm, rec, "kind", kind) &&
              lang_record_set(vm, rec, "mean", lang_float(r->mean)) &&
              lang_record_set(vm, rec, "std", lang_float(r->std)) &&
              lang_record_set(vm, rec, "saturated",
                              r->has_sat ? lang_float(r->saturated) : lang_none()) &&
              lang_record_set(vm, rec, "dead", r->has_dead ? lang_float(r->dead) : lang_none()) &&
              lang_record_set(vm, rec, "grad_mean", gs ? lang_float(gs->mean) : lang_none()) &&
              lang_record_set(vm, rec, "grad_std", gs ? lang_float(gs->std) : lang_none()) &&
              lang_list_append(vm, rows, rec);
    lang_val_release(rec);
    return ok;
}

/* The report of a finished capture. */
static bool act_report(lang_vm *vm, nn_module *m, const char *root, const nn_capture *cap,
                       lang_val *out) {
    nn_ctx *ctx = CTX(vm);
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_val fields, rows;
    if (!lang_record_new(vm, "Activations", &fields)) return false;
    if (!lang_list_new(vm, 0, &rows)) {
        lang_val_release(fields);
        return false;
    }
    bool grads = cap->grads;
    lang_buf_printf(&t, "%-24s %-10s %10s %10s %9s %7s", "layer", "kind", "mean", "std",
                    "saturated", "dead");
    if (grads) lang_buf_printf(&t, " %10s %10s", "grad mean", "grad std");
    lang_buf_puts(&t, "  histogram (min .. max)\n");
    lang_buf_printf(&h,
                    "<table><tr><th>layer</th><th>kind</th><th>mean</th><th>std</th>"
                    "<th>saturated</th><th>dead</th>%s<th>histogram</th></tr>",
                    grads ? "<th>grad mean</th><th>grad std</th>" : "");
    bool ok = true;
    size_t rl = strlen(root);
    for (int i = 0; i < cap->n && ok; i++) {
        const nn_capture_item *it = &cap->items[i];
        const char *path = it->module;
        const char *sub = !strncmp(path, root, rl) && (path[rl] == '.' || !path[rl])
                              ? path + rl + (path[rl] == '.')
                              : NULL;
        nn_module *lm = sub ? nn_module_find(ctx, m, sub) : NULL;
        nn_ctx_clear_error(ctx);
        const char *kind = lm ? nn_module_kind_name(lm->kind) : nn_op_name(it->op);
        int64_t n = nn_tensor_numel(it->out);
        double *v = malloc(sizeof *v * (size_t)(n ? n : 1));
        if (!v) {
            ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            break;
        }
        act_row r;
        act_measure(it->out, lm ? lm->kind : NN_MODULE_KIND_COUNT, it->op, v, &r);
        nn_summary gs;
        bool has_g = grads && it->grad;
        if (has_g) nn_summarize(it->grad, &gs);
        char b[6][32];
        lang_buf_printf(&t, "%-24s %-10s %10s %10s %9s %7s", path, kind, num(b[0], 32, r.mean),
                        num(b[1], 32, r.std), num(b[2], 32, r.has_sat ? r.saturated : NAN),
                        num(b[3], 32, r.has_dead ? r.dead : NAN));
        if (grads)
            lang_buf_printf(&t, " %10s %10s", num(b[4], 32, has_g ? gs.mean : NAN),
                            num(b[5], 32, has_g ? gs.std : NAN));
        nn_summary s;
        nn_summarize(it->out, &s);
        lang_buf_puts(&t, "  ");
        sparkline_hist(&t, v, n, 24, s.min, s.max);
        lang_buf_printf(&t, " (%.3g .. %.3g)\n", s.min, s.max);
        lang_buf_puts(&h, "<tr><td><code>");
        nn_format_html_escape(&h, path);
        lang_buf_printf(&h, "</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
                        kind, b[0], b[1], b[2], b[3]);
        if (grads) lang_buf_printf(&h, "<td>%s</td><td>%s</td>", b[4], b[5]);
        char *svg = lang_hist_svg(v, n, 40, path);
        lang_buf_printf(&h, "<td><div style=\"width:320px\">%s</div></td></tr>", svg ? svg : "");
        free(svg);
        free(v);
        ok = act_row_record(vm, path, kind, &r, has_g ? &gs : NULL, rows);
    }
    lang_buf_puts(&h, "</table>");
    ok = ok && lang_record_set(vm, fields, "rows", rows);
    lang_val_release(rows);
    if (!ok) {
        lang_val_release(fields);
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    return report_new(vm, &activations_type, &t, &h, fields, -1, out);
}

static bool f_activations(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val model = lang_none(), x = lang_none(), y = lang_none(), loss_fn = lang_none();
    if (!lang_parse_args(vm, a, "activations", "model,x|y,loss_fn", &model, &x, &y, &loss_fn))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_module *m = lang_module_of(model);
    nn_tensor *xt = lang_tensor_of(x);
    if (!m || !xt)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "activations(model, x) needs a Module and a Tensor, not %s and %s",
                          lang_type_name(model), lang_type_name(x));
    bool with_loss = y.kind != LANG_NONE;
    if (with_loss && loss_fn.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE,
                          "activations(model, x, y) needs loss_fn= too, e.g. "
                          "loss_fn=cross_entropy");
    const char *root = global_name(vm, model);
    if (!root) root = "model";
    nn_capture cap;
    if (nn_capture_start(ctx, &cap, with_loss)) return lang_raise_engine(vm);
    /* Without a loss: no_grad, as a look at the values needs no graph. The
     * parameters' gradients are left as they were either way. */
    nn_tensor **ps = NULL, **saved = NULL;
    int np = 0;
    bool ok = true;
    if (with_loss) {
        if (nn_module_parameters(ctx, m, &ps, &np)) ok = lang_raise_engine(vm);
        saved = ok ? calloc((size_t)np + 1, sizeof *saved) : NULL;
        if (ok && !saved) ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int i = 0; ok && i < np; i++) {
            saved[i] = ps[i]->grad;
            ps[i]->grad = NULL;
        }
    }
    bool prev = nn_ctx_set_grad(ctx, with_loss);
    nn_tensor *yt = ok ? nn_module_forward(ctx, m, xt, root) : NULL;
    if (ok && !yt) ok = lang_raise_engine(vm);
    if (ok && with_loss) {
        lang_val yv, lv = lang_none();
        ok = lang_tensor_new(vm, nn_tensor_retain(yt), &yv);
        if (ok) {
            lang_val args[2] = {yv, y};
            lang_args la = {2, args, 0, NULL, NULL};
            ok = lang_vm_call(vm, loss_fn, &la, &lv);
            lang_val_release(yv);
        }
        nn_tensor *lt = ok ? lang_tensor_of(lv) : NULL;
        if (ok && !lt)
            ok = lang_raise(vm, LANG_ERR_TYPE, "loss_fn returned %s, not a Tensor",
                            lang_type_name(lv));
        if (ok && nn_backward(ctx, lt, NULL, false)) ok = lang_raise_engine(vm);
        lang_val_release(lv);
    }
    nn_ctx_set_grad(ctx, prev);
    nn_capture_stop(&cap);
    for (int i = 0; saved && i < np; i++) {
        nn_tensor_clear_grad(ps[i]);
        ps[i]->grad = saved[i];
    }
    free(saved);
    free(ps);
    nn_tensor_release(yt);
    if (ok && cap.oom) ok = lang_raise(vm, LANG_ERR_MEMORY, "activations: out of memory");
    if (ok) ok = act_report(vm, m, root, &cap, out);
    nn_capture_free(&cap);
    return ok;
}

/* ------------------------------------------------------------------ dependencies */

typedef struct dep_call {
    callee c;
    nn_tensor **xcopy;
} dep_call;

static nn_tensor *dep_run(nn_ctx *ctx, void *user) {
    dep_call *d = user;
    lang_val xv;
    if (!lang_tensor_new(d->c.vm, nn_tensor_retain(*d->xcopy), &xv)) {
        d->c.lang_failed = true;
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
        return NULL;
    }
    d->c.args = &xv;
    d->c.nargs = 1;
    nn_tensor *y = callee_run(ctx, &d->c);
    lang_val_release(xv);
    d->c.args = NULL;
    d->c.nargs = 0;
    return y;
}

static bool f_dependencies(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val f = lang_none(), x = lang_none(), iv = lang_int(0);
    int64_t i;
    if (!lang_parse_args(vm, a, "dependencies", "model,x|i", &f, &x, &iv) ||
        !lang_to_int(vm, iv, "i", &i))
        return false;
    nn_tensor *xt = lang_tensor_of(x);
    if (!xt) return lang_raise(vm, LANG_ERR_TYPE, "dependencies(): x must be a Tensor batch");
    nn_ctx *ctx = CTX(vm);
    nn_tensor *xc = NULL;
    dep_call d = {{vm, f, lang_module_of(f), NULL, NULL, 0, false}, &xc};
    const char *nm = global_name(vm, f);
    d.c.name = nm ? nm : "model";
    nn_dependency_result r;
    if (nn_dependencies(ctx, dep_run, &d, xt, i, &xc, &r)) return check_failed(vm, &d.c);
    if (i < 0) i += r.batch;
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_val fields, rows;
    if (!lang_record_new(vm, "Dependencies", &fields) || !lang_list_new(vm, 0, &rows)) {
        nn_dependency_result_free(&r);
        return false;
    }
    bool ok = true;
    for (int64_t k = 0; k < r.n_rows && ok; k++)
        ok = lang_list_append(vm, rows, lang_int(r.rows[k]));
    if (!r.n_rows) {
        lang_buf_printf(&t,
                        "dependencies: example %lld's outputs depend on no other example of the "
                        "batch of %lld (clean)\n",
                        (long long)i, (long long)r.batch);
    } else {
        lang_buf_printf(&t,
                        "dependencies: LEAK: example %lld's outputs depend on %lld other "
                        "example%s of the batch of %lld: rows ",
                        (long long)i, (long long)r.n_rows, r.n_rows == 1 ? "" : "s",
                        (long long)r.batch);
        for (int64_t k = 0; k < r.n_rows && k < 32; k++)
            lang_buf_printf(&t, "%s%lld", k ? ", " : "", (long long)r.rows[k]);
        lang_buf_puts(&t, r.n_rows > 32 ? ", ...\n" : "\n");
        lang_buf_puts(&t, "A view, transpose or reshape across the batch dim, or a statistic "
                          "over the batch (batch norm in training mode), mixes examples.\n");
    }
    lang_buf_puts(&t, "row  |d out_i / d x_row| summed\n");
    for (int64_t k = 0; k < r.batch && k < 64; k++)
        lang_buf_printf(&t, "%4lld %12.4g%s\n", (long long)k, r.row_norm[k],
                        k == i ? "  <- example" : "");
    lang_buf_puts(&h, "<pre>");
    nn_format_html_escape(&h, t.data);
    lang_buf_puts(&h, "</pre>");
    ok = ok && lang_record_set(vm, fields, "rows", rows) &&
         lang_record_set(vm, fields, "leaks", lang_bool(r.n_rows > 0)) &&
         lang_record_set(vm, fields, "example", lang_int(i));
    lang_val_release(rows);
    int truth = r.n_rows == 0;
    nn_dependency_result_free(&r);
    if (!ok) {
        lang_val_release(fields);
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    return report_new(vm, &dependencies_type, &t, &h, fields, truth, out);
}

/* ------------------------------------------------------------------ profile */

void *lang_instruments_profile_begin(lang_vm *vm) {
    nn_ctx *ctx = CTX(vm);
    /* Measure the machine first, so the product is not in the profile. */
    if (nn_sgemm_peak_gflops(ctx) <= 0) nn_ctx_clear_error(ctx);
    nn_profile *p = nn_profile_start(ctx);
    if (!p) lang_raise_engine(vm);
    return p;
}

static void profile_table(lang_buf *t, lang_buf *h, const nn_profile_row *rows, int n,
                          const char *what, double total, double peak) {
    lang_buf_printf(t, "%-32s %-4s %7s %10s %10s %6s %10s %9s %9s %8s %6s\n", what, "pass", "calls",
                    "total ms", "mean us", "%time", "MFLOP", "MB read", "MB writ", "GFLOP/s",
                    "%peak");
    lang_buf_printf(h,
                    "<table><tr><th>%s</th><th>pass</th><th>calls</th><th>total ms</th><th>mean "
                    "&micro;s</th><th>%% time</th><th>MFLOP</th><th>MB read</th><th>MB "
                    "written</th><th>GFLOP/s</th><th>%% peak</th></tr>",
                    what);
    for (int i = 0; i < n; i++) {
        const nn_profile_row *r = &rows[i];
        double rate = r->seconds > 0 ? r->flops / r->seconds * 1e-9 : 0;
        const char *key = *r->key ? r->key : "(outside modules)";
        const char *pass = r->phase == NN_PHASE_FORWARD ? "fwd" : "bwd";
        char pk[32];
        if (peak > 0 && r->flops > 0)
            snprintf(pk, sizeof pk, "%.1f", 100 * rate / peak);
        else
            snprintf(pk, sizeof pk, "-");
        lang_buf_printf(t, "%-32s %-4s %7lld %10.3f %10.2f %6.1f %10.3f %9.3f %9.3f %8.2f %6s\n",
                        key, pass, (long long)r->calls, r->seconds * 1e3,
                        r->calls ? r->seconds / (double)r->calls * 1e6 : 0,
                        total > 0 ? 100 * r->seconds / total : 0, r->flops * 1e-6,
                        r->bytes_read * 1e-6, r->bytes_written * 1e-6, rate, pk);
        lang_buf_puts(h, "<tr><td><code>");
        nn_format_html_escape(h, key);
        lang_buf_printf(h,
                        "</code></td><td>%s</td><td>%lld</td><td>%.3f</td><td>%.2f</td>"
                        "<td>%.1f</td><td>%.3f</td><td>%.3f</td><td>%.3f</td><td>%.2f</td>"
                        "<td>%s</td></tr>",
                        pass, (long long)r->calls, r->seconds * 1e3,
                        r->calls ? r->seconds / (double)r->calls * 1e6 : 0,
                        total > 0 ? 100 * r->seconds / total : 0, r->flops * 1e-6,
                        r->bytes_read * 1e-6, r->bytes_written * 1e-6, rate, pk);
    }
    lang_buf_puts(h, "</table>");
}

static bool profile_rows_list(lang_vm *vm, const nn_profile_row *rows, int n, lang_val *out) {
    if (!lang_list_new(vm, 0, out)) return false;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        lang_val rec;
        if (!(ok = lang_record_new(vm, "ProfileRow", &rec))) break;
        ok =
            set_str(vm, rec, "key", rows[i].key) &&
            set_str(vm, rec, "phase", rows[i].phase == NN_PHASE_FORWARD ? "forward" : "backward") &&
            lang_record_set(vm, rec, "calls", lang_int(rows[i].calls)) &&
            lang_record_set(vm, rec, "seconds", lang_float(rows[i].seconds)) &&
            lang_record_set(vm, rec, "flops", lang_float(rows[i].flops)) &&
            lang_record_set(vm, rec, "bytes_read", lang_float(rows[i].bytes_read)) &&
            lang_record_set(vm, rec, "bytes_written", lang_float(rows[i].bytes_written)) &&
            lang_list_append(vm, *out, rec);
        lang_val_release(rec);
    }
    if (!ok) lang_val_release(*out);
    return ok;
}

bool lang_instruments_profile_end(lang_vm *vm, void *prof, double wall, lang_val *out) {
    nn_profile *p = prof;
    nn_profile_stop(p);
    nn_ctx *ctx = CTX(vm);
    double peak = nn_sgemm_peak_gflops(ctx);
    nn_ctx_clear_error(ctx);
    nn_profile_row *ops = NULL, *mods = NULL;
    int n_ops = nn_profile_rows(p, false, &ops), n_mods = nn_profile_rows(p, true, &mods);
    double fwd = nn_profile_seconds(p, NN_PHASE_FORWARD),
           bwd = nn_profile_seconds(p, NN_PHASE_BACKWARD);
    nn_profile_free(p);
    if (n_ops < 0 || n_mods < 0) {
        free(ops);
        free(mods);
        return lang_raise(vm, LANG_ERR_MEMORY, "profile: out of memory");
    }
    double total = fwd + bwd;
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_buf_printf(&t,
                    "profile: %.3f ms in ops (forward %.3f ms, backward %.3f ms) of %.3f ms wall; "
                    "sgemm peak %.1f GFLOP/s\n",
                    total * 1e3, fwd * 1e3, bwd * 1e3, wall * 1e3, peak);
    lang_buf_printf(&h,
                    "<div><b>profile</b> <small>%.3f ms in ops (forward %.3f ms, backward %.3f "
                    "ms) of %.3f ms wall; sgemm peak %.1f GFLOP/s</small>",
                    total * 1e3, fwd * 1e3, bwd * 1e3, wall * 1e3, peak);
    profile_table(&t, &h, ops, n_ops, "op", total, peak);
    lang_buf_puts(&t, "\n");
    profile_table(&t, &h, mods, n_mods, "module", total, peak);
    lang_buf_puts(&h, "</div>");
    lang_val fields, lo, lm;
    bool ok = lang_record_new(vm, "Profile", &fields);
    if (ok && !profile_rows_list(vm, ops, n_ops, &lo)) {
        lang_val_release(fields);
        ok = false;
    }
    if (ok && !profile_rows_list(vm, mods, n_mods, &lm)) {
        lang_val_release(lo);
        lang_val_release(fields);
        ok = false;
    }
    free(ops);
    free(mods);
    if (!ok) {
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    ok = lang_record_set(vm, fields, "ops", lo) && lang_record_set(vm, fields, "modules", lm) &&
         lang_record_set(vm, fields, "forward_seconds", lang_float(fwd)) &&
         lang_record_set(vm, fields, "backward_seconds", lang_float(bwd)) &&
         lang_record_set(vm, fields, "peak_gflops", lang_float(peak));
    lang_val_release(lo);
    lang_val_release(lm);
    if (!ok) {
        lang_val_release(fields);
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    return report_new(vm, &profile_type, &t, &h, fields, -1, out);
}

static bool f_profile(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->n < 1) return lang_raise(vm, LANG_ERR_TYPE, "profile(fn, *args) needs a function");
    void *p = lang_instruments_profile_begin(vm);
    if (!p) return false;
    lang_args rest = {a->n - 1, a->pos + 1, a->nkw, a->kwnames, a->kw};
    lang_val r;
    double t0 = now_s();
    bool ok = lang_vm_call(vm, a->pos[0], &rest, &r);
    double wall = now_s() - t0;
    if (ok) lang_val_release(r);
    lang_val rep;
    if (!lang_instruments_profile_end(vm, p, wall, &rep)) return false;
    if (!ok) {
        lang_val_release(rep);
        return false;
    }
    *out = rep;
    return true;
}

/* ------------------------------------------------------------------ track */

typedef struct track_obj {
    lang_obj hdr;
    lang_val model, optv;
    nn_optim *opt;
    int n;           /* tracked parameters (the optimizer's, in its order) */
    char **names;    /* "model.0.weight", or "param i" for one not in the model */
    bool *is_weight; /* ndim == 2: what makemore's plot shows */
    double *hist;    /* steps x n log10(update std / data std) */
    int64_t steps, cap;
    double *loss;
    int64_t n_loss, cap_loss;
} track_obj;

static const lang_type track_type;

static void track_on_step(nn_optim *opt, void *user) {
    track_obj *t = user;
    if (t->steps == t->cap) {
        int64_t cap = t->cap ? 2 * t->cap : 64;
        double *grown = realloc(t->hist, sizeof *grown * (size_t)(cap * t->n));
        if (!grown) return; /* the step is not recorded; nothing else breaks */
        t->hist = grown;
        t->cap = cap;
    }
    for (int i = 0; i < t->n; i++) {
        double r = std_ratio(nn_optim_last_update(opt, i), nn_optim_param(opt, i));
        t->hist[t->steps * t->n + i] = r > 0 ? log10(r) : NAN;
    }
    t->steps++;
}

static void track_free(lang_obj *o) {
    track_obj *t = (track_obj *)o;
    if (t->opt && nn_optim_step_observer(t->opt) == t) nn_optim_on_step(t->opt, NULL, NULL);
    for (int i = 0; i < t->n; i++) free(t->names ? t->names[i] : NULL);
    free(t->names);
    free(t->is_weight);
    free(t->hist);
    free(t->loss);
    lang_val_release(t->model);
    lang_val_release(t->optv);
}

static bool f_track(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val model = lang_none(), optv = lang_none();
    if (!lang_parse_args(vm, a, "track", "model,opt", &model, &optv)) return false;
    nn_module *m = lang_module_of(model);
    nn_optim *opt = lang_optim_of(optv);
    if (!m || !opt)
        return lang_raise(vm, LANG_ERR_TYPE, "track(model, opt) needs a Module and an optimizer");
    nn_ctx *ctx = CTX(vm);
    if (nn_optim_keep_updates(ctx, opt, true)) return lang_raise_engine(vm);
    track_obj *t = lang_obj_new(vm, &track_type, sizeof *t);
    if (!t) return false;
    t->model = lang_val_retain(model);
    t->optv = lang_val_retain(optv);
    t->opt = opt;
    t->n = nn_optim_num_params(opt);
    t->names = calloc((size_t)t->n + 1, sizeof *t->names);
    t->is_weight = calloc((size_t)t->n + 1, sizeof *t->is_weight);
    *out = lang_obj_val(&t->hdr);
    if (!t->names || !t->is_weight) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    const char *root = global_name(vm, model);
    if (!root) root = "model";
    nn_state ps;
    nn_state_init(&ps);
    if (nn_module_named_parameters(ctx, m, &ps)) {
        nn_state_free(&ps);
        lang_val_release(*out);
        return lang_raise_engine(vm);
    }
    for (int i = 0; i < t->n; i++) {
        nn_tensor *p = nn_optim_param(opt, i);
        char buf[NN_STATE_NAME_MAX + 64];
        snprintf(buf, sizeof buf, "param %d", i);
        for (int k = 0; k < ps.n; k++)
            if (ps.entries[k].tensor == p)
                snprintf(buf, sizeof buf, "%s.%s", root, ps.entries[k].name);
        t->names[i] = strdup(buf);
        t->is_weight[i] = p->ndim == 2;
    }
    nn_state_free(&ps);
    nn_optim_on_step(opt, track_on_step, t);
    return true;
}

#define TR(v) ((track_obj *)(v).u.o)

static bool m_track_loss(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v = lang_none();
    double x;
    if (!lang_parse_args(vm, a, "loss", "value", &v)) return false;
    nn_tensor *tv = lang_tensor_of(v);
    if (tv) {
        if (nn_tensor_item(CTX(vm), tv, &x)) return lang_raise_engine(vm);
    } else if (!lang_to_float(vm, v, "value", &x)) {
        return false;
    }
    track_obj *t = TR(self);
    if (t->n_loss == t->cap_loss) {
        int64_t cap = t->cap_loss ? 2 * t->cap_loss : 64;
        double *grown = realloc(t->loss, sizeof *grown * (size_t)cap);
        if (!grown) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        t->loss = grown;
        t->cap_loss = cap;
    }
    t->loss[t->n_loss++] = x;
    *out = lang_none();
    return true;
}

/* The update:data plot: one series per weight matrix (all parameters when
 * [all]), and the 1e-3 guide. */
static bool track_bundle(lang_vm *vm, track_obj *t, bool all, lang_mime *m) {
    int ns = 0;
    lang_plot_series *s = calloc((size_t)t->n + 2, sizeof *s);
    double **cols = calloc((size_t)t->n + 2, sizeof *cols);
    bool ok = s && cols;
    for (int i = 0; ok && i < t->n; i++) {
        if (!all && !t->is_weight[i]) continue;
        double *c = malloc(sizeof *c * (size_t)(t->steps ? t->steps : 1));
        if (!c) {
            ok = false;
            break;
        }
        for (int64_t k = 0; k < t->steps; k++) c[k] = t->hist[k * t->n + i];
        cols[ns] = c;
        s[ns].y = c;
        s[ns].n = t->steps;
        s[ns].label = t->names[i];
        ns++;
    }
    double *guide = ok ? malloc(sizeof *guide * (size_t)(t->steps ? t->steps : 1)) : NULL;
    if (ok && guide) {
        for (int64_t k = 0; k < t->steps; k++) guide[k] = -3;
        cols[ns] = guide;
        s[ns].y = guide;
        s[ns].n = t->steps;
        s[ns].label = "1e-3 guide";
        ns++;
    } else {
        ok = false;
    }
    if (ok) {
        lang_plot_spec spec = {"log10 update:data ratio per step", "step",
                               "log10(update std / data std)", false};
        char *txt = lang_plot_text(s, ns, &spec), *svg = lang_plot_svg(s, ns, &spec);
        if (txt && svg) {
            lang_mime_add(m, "text/plain", txt);
            lang_mime_add(m, "image/svg+xml", svg);
        } else {
            free(txt);
            free(svg);
            ok = false;
        }
    }
    for (int i = 0; cols && i < ns; i++) free(cols[i]);
    free(cols);
    free(s);
    return ok || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
}

static bool m_track_plot(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val allv = lang_bool(false);
    bool all;
    if (!lang_parse_args(vm, a, "plot", "|all", &allv) || !lang_to_bool(vm, allv, "all", &all))
        return false;
    lang_mime m;
    lang_mime_init(&m);
    if (!track_bundle(vm, TR(self), all, &m)) {
        lang_mime_free(&m);
        return false;
    }
    lang_vm_display(vm, &m, NULL, false);
    lang_mime_free(&m);
    *out = lang_none();
    return true;
}

static bool track_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    track_obj *t = (track_obj *)o;
    *found = true;
    if (!strcmp(name, "steps")) return *out = lang_int(t->steps), true;
    if (!strcmp(name, "losses")) {
        if (!lang_list_new(vm, 0, out)) return false;
        for (int64_t k = 0; k < t->n_loss; k++)
            if (!lang_list_append(vm, *out, lang_float(t->loss[k]))) return false;
        return true;
    }
    if (!strcmp(name, "ratios")) {
        /* dict: parameter name -> list of log10 update:data per step */
        if (!lang_dict_new(vm, out)) return false;
        for (int i = 0; i < t->n; i++) {
            lang_val key, list;
            if (!lang_str_from_cstr(vm, t->names[i], &key)) return false;
            if (!lang_list_new(vm, 0, &list)) {
                lang_val_release(key);
                return false;
            }
            bool ok = true;
            for (int64_t k = 0; k < t->steps && ok; k++)
                ok = lang_list_append(vm, list, lang_float(t->hist[k * t->n + i]));
            ok = ok && lang_dict_set(vm, *out, key, list);
            lang_val_release(key);
            lang_val_release(list);
            if (!ok) return false;
        }
        return true;
    }
    *found = false;
    return true;
}

static bool track_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    (void)vm;
    track_obj *t = (track_obj *)o;
    lang_buf_printf(out, "<track of %d parameters, %lld steps, %lld losses>", t->n,
                    (long long)t->steps, (long long)t->n_loss);
    return true;
}

static bool track_display(lang_vm *vm, lang_obj *o, lang_mime *out) {
    return track_bundle(vm, (track_obj *)o, false, out);
}

static const char *const track_field_names[] = {"steps", "losses", "ratios", NULL};
static const char *const *track_fields(lang_obj *o) {
    (void)o;
    return track_field_names;
}

static const lang_method track_methods[] = {
    {"loss",
     m_track_loss,
     {"Tracker.loss", "loss(value)", "Record this step's loss (a number or a one-element tensor).",
      "t.loss(loss)"}},
    {"plot",
     m_track_plot,
     {"Tracker.plot", "plot(all=False)",
      "Show log10 of the update:data ratio of each weight matrix over the steps, with the 1e-3 "
      "guide line (makemore part 3); all=True shows every parameter.",
      "t.plot()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type track_type = {
    .name = "Tracker",
    .free = track_free,
    .repr = track_repr,
    .getattr = track_getattr,
    .fields = track_fields,
    .display = track_display,
    .methods = track_methods,
};

/* ------------------------------------------------------------------ live_plot */

#define LIVE_MAX_SERIES 8
#define LIVE_MIN_S      0.1 /* at most ten redraws a second */

typedef struct live_obj {
    lang_obj hdr;
    int n_series;
    char *names[LIVE_MAX_SERIES];
    double *y[LIVE_MAX_SERIES];
    int64_t n[LIVE_MAX_SERIES], cap[LIVE_MAX_SERIES];
    bool logy;
    char id[48];
    bool shown;
    double last_draw;
    int64_t draws;
} live_obj;

static const lang_type live_type;
static int live_serial;

static void live_free(lang_obj *o) {
    live_obj *l = (live_obj *)o;
    for (int i = 0; i < l->n_series; i++) {
        free(l->names[i]);
        free(l->y[i]);
    }
}

static bool live_bundle(live_obj *l, bool with_text, lang_mime *m) {
    lang_plot_series s[LIVE_MAX_SERIES];
    for (int i = 0; i < l->n_series; i++) {
        s[i].y = l->y[i];
        s[i].n = l->n[i];
        s[i].label = l->names[i];
    }
    lang_plot_spec spec = {NULL, "step", NULL, l->logy};
    char *svg = lang_plot_svg(s, l->n_series, &spec);
    if (!svg) return false;
    if (with_text) {
        char *txt = lang_plot_text(s, l->n_series, &spec);
        if (!txt) {
            free(svg);
            return false;
        }
        lang_mime_add(m, "text/plain", txt);
    }
    lang_mime_add(m, "image/svg+xml", svg);
    return true;
}

/* Show the plot under the object's display id: the first time without
 * text/plain (a terminal shows nothing then), then as updates, which Jupyter
 * applies in place and the REPL shows once, at the end of the statement. */
static bool live_draw(lang_vm *vm, live_obj *l) {
    lang_mime m;
    lang_mime_init(&m);
    if (!live_bundle(l, l->shown, &m)) {
        lang_mime_free(&m);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    lang_vm_display(vm, &m, l->id, l->shown);
    lang_mime_free(&m);
    l->shown = true;
    l->last_draw = now_s();
    l->draws++;
    return true;
}

static bool f_live_plot(lang_vm *vm, const lang_args *a, lang_val *out) {
    bool logy = false;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "logy") != 0)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "live_plot() got an unexpected keyword argument '%s'", a->kwnames[k]);
        if (!lang_to_bool(vm, a->kw[k], "logy", &logy)) return false;
    }
    if (a->n > LIVE_MAX_SERIES)
        return lang_raise(vm, LANG_ERR_VALUE, "live_plot(): at most %d series", LIVE_MAX_SERIES);
    for (int i = 0; i < a->n; i++)
        if (!lang_is_obj(a->pos[i], &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "live_plot(): series names are str, not %s",
                              lang_type_name(a->pos[i]));
    live_obj *l = lang_obj_new(vm, &live_type, sizeof *l);
    if (!l) return false;
    *out = lang_obj_val(&l->hdr);
    l->logy = logy;
    l->n_series = a->n ? a->n : 1;
    for (int i = 0; i < l->n_series; i++) {
        l->names[i] = strdup(a->n ? lang_str_cstr(a->pos[i]) : "loss");
        if (!l->names[i]) {
            lang_val_release(*out);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
    }
    snprintf(l->id, sizeof l->id, "nndb-live-plot-%d", ++live_serial);
    return true;
}

#define LV(v) ((live_obj *)(v).u.o)

static bool live_push(lang_vm *vm, live_obj *l, int i, lang_val v) {
    double x;
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        if (nn_tensor_item(CTX(vm), t, &x)) return lang_raise_engine(vm);
    } else if (v.kind == LANG_NONE) {
        x = NAN; /* a gap: no value this step */
    } else if (!lang_to_float(vm, v, l->names[i], &x)) {
        return false;
    }
    if (l->n[i] == l->cap[i]) {
        int64_t cap = l->cap[i] ? 2 * l->cap[i] : 256;
        double *grown = realloc(l->y[i], sizeof *grown * (size_t)cap);
        if (!grown) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        l->y[i] = grown;
        l->cap[i] = cap;
    }
    l->y[i][l->n[i]++] = x;
    return true;
}

static bool m_live_add(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    live_obj *l = LV(self);
    if (a->n > l->n_series)
        return lang_raise(vm, LANG_ERR_TYPE, "add(): %d values for %d series", a->n, l->n_series);
    for (int i = 0; i < a->n; i++)
        if (!live_push(vm, l, i, a->pos[i])) return false;
    for (int k = 0; k < a->nkw; k++) {
        int i = 0;
        while (i < l->n_series && strcmp(l->names[i], a->kwnames[k]) != 0) i++;
        if (i == l->n_series)
            return lang_raise(vm, LANG_ERR_KEY,
                              "add(): no series '%s' (the series are given to "
                              "live_plot(...))",
                              a->kwnames[k]);
        if (!live_push(vm, l, i, a->kw[k])) return false;
    }
    *out = lang_none();
    if (!l->shown || now_s() - l->last_draw >= LIVE_MIN_S) return live_draw(vm, l);
    return true;
}

static bool m_live_show(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "show", "")) return false;
    *out = lang_none();
    return live_draw(vm, LV(self));
}

static bool live_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    live_obj *l = (live_obj *)o;
    lang_plot_series s[LIVE_MAX_SERIES];
    for (int i = 0; i < l->n_series; i++) {
        s[i].y = l->y[i];
        s[i].n = l->n[i];
        s[i].label = l->names[i];
    }
    lang_plot_spec spec = {NULL, "step", NULL, l->logy};
    char *txt = lang_plot_text(s, l->n_series, &spec);
    if (!txt) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_buf_puts(out, txt);
    free(txt);
    return true;
}

static bool live_display(lang_vm *vm, lang_obj *o, lang_mime *out) {
    if (!live_bundle((live_obj *)o, true, out))
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    return true;
}

static bool live_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    live_obj *l = (live_obj *)o;
    *found = true;
    if (!strcmp(name, "draws")) return *out = lang_int(l->draws), true;
    for (int i = 0; i < l->n_series; i++) {
        if (strcmp(l->names[i], name) != 0) continue;
        if (!lang_list_new(vm, 0, out)) return false;
        for (int64_t k = 0; k < l->n[i]; k++)
            if (!lang_list_append(vm, *out, lang_float(l->y[i][k]))) return false;
        return true;
    }
    *found = false;
    return true;
}

static const lang_method live_methods[] = {
    {"add",
     m_live_add,
     {"LivePlot.add", "add(*values, **by_name)",
      "Append this step's values (one per series, in order, or by series name) and redraw, at "
      "most ten times a second.",
      "curve.add(loss.item())"}},
    {"show",
     m_live_show,
     {"LivePlot.show", "show()", "Redraw now, with every value so far (call it after the loop).",
      "curve.show()"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static const lang_type live_type = {
    .name = "LivePlot",
    .free = live_free,
    .repr = live_repr,
    .getattr = live_getattr,
    .display = live_display,
    .methods = live_methods,
};

/* ------------------------------------------------------------------ lr_find */

/* The next (x, y) of [data]: a fixed (x, y) pair, or the next batch of an
 * iterable (restarted when it ends) whose items are (x, y) pairs or batches
 * with .x and .y. New references in *x, *y. */
typedef struct lr_data {
    lang_val data, it;
    bool fixed;
} lr_data;

static bool pair_of(lang_vm *vm, lang_val item, lang_val *x, lang_val *y) {
    if ((lang_is_obj(item, &lang_tuple_type) || lang_is_obj(item, &lang_list_type)) &&
        lang_seq_len(item) == 2) {
        *x = lang_val_retain(lang_seq_items(item)[0]);
        *y = lang_val_retain(lang_seq_items(item)[1]);
        return true;
    }
    if (!lang_getattr(vm, item, "x", x)) return false;
    if (!lang_getattr(vm, item, "y", y)) {
        lang_val_release(*x);
        return false;
    }
    return true;
}

static bool lr_next(lang_vm *vm, lr_data *d, lang_val *x, lang_val *y) {
    if (d->fixed) return pair_of(vm, d->data, x, y);
    for (int attempt = 0; attempt < 2; attempt++) {
        if (d->it.kind == LANG_NONE && !lang_iter(vm, d->data, &d->it)) return false;
        lang_val item;
        bool done = false;
        if (!lang_next(vm, d->it, &item, &done)) return false;
        if (!done) {
            bool ok = pair_of(vm, item, x, y);
            lang_val_release(item);
            return ok;
        }
        lang_val_release(d->it);
        d->it = lang_none();
    }
    return lang_raise(vm, LANG_ERR_VALUE, "lr_find(): the data gave no batch");
}

static bool f_lr_find(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val model = lang_none(), loss_fn = lang_none(), data = lang_none(),
             opt_class = lang_none();
    lang_val sv = lang_float(1e-6), ev = lang_float(1.0), nv = lang_int(100);
    double start, end;
    int64_t steps;
    if (!lang_parse_args(vm, a, "lr_find", "model,loss_fn,data,opt_class|start,end,steps", &model,
                         &loss_fn, &data, &opt_class, &sv, &ev, &nv) ||
        !lang_to_float(vm, sv, "start", &start) || !lang_to_float(vm, ev, "end", &end) ||
        !lang_to_int(vm, nv, "steps", &steps))
        return false;
    nn_module *m = lang_module_of(model);
    if (!m) return lang_raise(vm, LANG_ERR_TYPE, "lr_find(): model must be a Module");
    if (!(start > 0 && end > start) || steps < 2 || steps > 100000)
        return lang_raise(vm, LANG_ERR_VALUE,
                          "lr_find(): needs 0 < start < end and 2 <= steps (got start=%g, end=%g, "
                          "steps=%lld)",
                          start, end, (long long)steps);
    nn_ctx *ctx = CTX(vm);
    nn_tensor **ps = NULL;
    int np = 0;
    if (nn_module_parameters(ctx, m, &ps, &np)) return lang_raise_engine(vm);
    /* The model is restored afterwards: its values and its gradients. */
    nn_tensor **saved = calloc((size_t)np + 1, sizeof *saved),
              **grads = calloc((size_t)np + 1, sizeof *grads);
    double *lrs = calloc((size_t)steps, sizeof *lrs),
           *losses = calloc((size_t)steps, sizeof *losses);
    bool ok = saved && grads && lrs && losses;
    if (!ok) lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int i = 0; ok && i < np; i++) {
        saved[i] = nn_tensor_empty(ctx, ps[i]->dtype, ps[i]->ndim, ps[i]->shape);
        if (!saved[i] || nn_tensor_copy_(ctx, saved[i], ps[i])) ok = lang_raise_engine(vm);
        grads[i] = ps[i]->grad;
        ps[i]->grad = NULL;
    }
    lang_val pl = lang_none(), optv = lang_none(), method = lang_none();
    if (ok) ok = lang_getattr(vm, model, "parameters", &method);
    if (ok) {
        lang_args none = {0, NULL, 0, NULL, NULL};
        ok = lang_vm_call(vm, method, &none, &pl);
    }
    if (ok) {
        const char *kw[1] = {"lr"};
        lang_val kv[1] = {lang_float(start)};
        lang_args oa = {1, &pl, 1, kw, kv};
        ok = lang_vm_call(vm, opt_class, &oa, &optv);
    }
    nn_optim *opt = ok ? lang_optim_of(optv) : NULL;
    if (ok && !opt)
        ok = lang_raise(vm, LANG_ERR_TYPE,
                        "lr_find(): opt_class(params, lr=...) returned %s, not "
                        "an optimizer",
                        lang_type_name(optv));
    lr_data d = {data, lang_none(), false};
    d.fixed = (lang_is_obj(data, &lang_tuple_type) || lang_is_obj(data, &lang_list_type)) &&
              lang_seq_len(data) == 2 && lang_tensor_of(lang_seq_items(data)[0]);
    int64_t done = 0;
    double avg = 0, best = INFINITY, best_lr = start, diverged_lr = NAN;
    for (int64_t k = 0; ok && k < steps; k++) {
        double lr = start * pow(end / start, (double)k / (double)(steps - 1));
        if (nn_optim_set_lr(ctx, opt, lr)) {
            ok = lang_raise_engine(vm);
            break;
        }
        lang_val x, y, yhat, lv;
        if (!lr_next(vm, &d, &x, &y)) {
            ok = false;
            break;
        }
        nn_optim_zero_grad(opt, true);
        lang_args ma = {1, &x, 0, NULL, NULL};
        ok = lang_vm_call(vm, model, &ma, &yhat);
        if (ok) {
            lang_val la_v[2] = {yhat, y};
            lang_args la = {2, la_v, 0, NULL, NULL};
            ok = lang_vm_call(vm, loss_fn, &la, &lv);
            lang_val_release(yhat);
        }
        lang_val_release(x);
        lang_val_release(y);
        if (!ok) break;
        nn_tensor *lt = lang_tensor_of(lv);
        double loss = NAN;
        if (!lt || nn_tensor_item(ctx, lt, &loss)) {
            lang_val_release(lv);
            ok = lt ? lang_raise_engine(vm)
                    : lang_raise(vm, LANG_ERR_TYPE, "lr_find(): loss_fn must return a Tensor");
            break;
        }
        lrs[k] = lr;
        losses[k] = loss;
        done = k + 1;
        /* Exponentially smoothed with bias correction; stop when it blows up. */
        avg = 0.98 * avg + 0.02 * loss;
        double smooth = avg / (1 - pow(0.98, (double)(k + 1)));
        if (!isfinite(loss) || (k > 0 && smooth > 4 * best)) {
            diverged_lr = lr;
            lang_val_release(lv);
            break;
        }
        if (smooth < best) {
            best = smooth;
            best_lr = lr;
        }
        if (nn_backward(ctx, lt, NULL, false) || nn_optim_step(ctx, opt))
            ok = lang_raise_engine(vm);
        lang_val_release(lv);
        if (ok && lang_vm_interrupted(vm)) ok = false;
    }
    lang_val_release(d.it);
    lang_val_release(optv);
    lang_val_release(pl);
    lang_val_release(method);
    /* Restore the model whatever happened. */
    bool prev = nn_ctx_set_grad(ctx, false);
    for (int i = 0; i < np && saved && grads; i++) {
        if (saved[i]) nn_tensor_copy_(ctx, ps[i], saved[i]);
        nn_tensor_release(saved[i]);
        nn_tensor_clear_grad(ps[i]);
        ps[i]->grad = grads[i];
    }
    nn_ctx_set_grad(ctx, prev);
    free(saved);
    free(grads);
    free(ps);
    if (!ok) {
        free(lrs);
        free(losses);
        return false;
    }
    double suggestion = best_lr / 10;
    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_plot_series s = {losses, done, "loss"};
    char title[160];
    snprintf(title, sizeof title, "loss over an exponential lr sweep, %.3g .. %.3g", start,
             done ? lrs[done - 1] : start);
    lang_plot_spec spec = {title, "step (lr grows by a constant factor per step)", "loss", false};
    char *txt = lang_plot_text(&s, 1, &spec), *svg = lang_plot_svg(&s, 1, &spec);
    lang_buf_printf(&t, "lr_find: %lld steps from lr %.3g", (long long)done, start);
    if (diverged_lr == diverged_lr)
        lang_buf_printf(&t, ", stopped when the loss diverged at lr %.3g", diverged_lr);
    lang_buf_printf(&t,
                    "\nlowest smoothed loss %.4g at lr %.3g; suggested lr %.3g (a tenth of it)\n",
                    best, best_lr, suggestion);
    lang_buf_puts(&t, txt ? txt : "");
    lang_buf_puts(&h, "<div><pre>");
    nn_format_html_escape(&h, t.data ? t.data : "");
    lang_buf_puts(&h, "</pre>");
    lang_buf_puts(&h, svg ? svg : "");
    lang_buf_puts(&h, "</div>");
    free(txt);
    free(svg);
    lang_val fields, lrl, lol;
    ok = lang_record_new(vm, "LRFind", &fields);
    if (ok && !lang_list_new(vm, 0, &lrl)) {
        lang_val_release(fields);
        ok = false;
    }
    if (ok && !lang_list_new(vm, 0, &lol)) {
        lang_val_release(lrl);
        lang_val_release(fields);
        ok = false;
    }
    for (int64_t k = 0; ok && k < done; k++)
        ok = lang_list_append(vm, lrl, lang_float(lrs[k])) &&
             lang_list_append(vm, lol, lang_float(losses[k]));
    free(lrs);
    free(losses);
    if (ok) {
        ok = lang_record_set(vm, fields, "lrs", lrl) &&
             lang_record_set(vm, fields, "losses", lol) &&
             lang_record_set(vm, fields, "suggestion", lang_float(suggestion)) &&
             lang_record_set(vm, fields, "diverged_at",
                             diverged_lr == diverged_lr ? lang_float(diverged_lr) : lang_none());
        lang_val_release(lrl);
        lang_val_release(lol);
        if (!ok) lang_val_release(fields);
    }
    if (!ok) {
        lang_buf_free(&t);
        lang_buf_free(&h);
        return false;
    }
    return report_new(vm, &lrfind_type, &t, &h, fields, -1, out);
}

/* ------------------------------------------------------------------ the test-only op */

static bool f_test_wrong_grad(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none();
    if (!lang_parse_args(vm, a, "_test_wrong_grad", "input", &x)) return false;
    nn_tensor *t = lang_tensor_of(x);
    if (!t) return lang_raise(vm, LANG_ERR_TYPE, "_test_wrong_grad() needs a Tensor");
    nn_tensor *y = nn_test_wrong_grad(CTX(vm), t);
    if (!y) return lang_raise_engine(vm);
    return lang_tensor_new(vm, y, out);
}

/* ------------------------------------------------------------------ the family */

const lang_builtin_def lang_instruments_builtins[] = {
    {"gradcheck",
     f_gradcheck,
     {"gradcheck", "gradcheck(f, *inputs, eps=1e-6, atol=1e-5, rtol=1e-3, samples=None, seed=0)",
      "Check the gradients backward() gives against central differences, in float64: every input "
      "that requires grad and, when f is a Module, every parameter. Returns a table (truthy when "
      "all pass) naming each tensor's worst entry. samples=K checks K random entries per tensor. "
      "PyTorch's form gradcheck(f, (x, y)) returns True or raises with the table.",
      "gradcheck(lambda t: (t * t).sum(), randn(3, requires_grad=True))"}},
    {"stats",
     f_stats,
     {"stats", "stats(model, opt=None)",
      "Per parameter: shape, data mean and std, gradient mean and std, grad:data ratio and log10 "
      "of the update:data ratio of the optimizer's last step (makemore part 3). Without opt, the "
      "session's optimizer of this model is used.",
      "stats(model, opt)"}},
    {"activations",
     f_activations,
     {"activations", "activations(model, x, y=None, loss_fn=None)",
      "Run the model on x and report per layer the output's mean, std, saturated fraction "
      "(tanh, sigmoid) and dead units (ReLU, GELU), with histograms; with y and loss_fn also the "
      "gradients' statistics.",
      "activations(model, x)"}},
    {"dependencies",
     f_dependencies,
     {"dependencies", "dependencies(model, x, i=0)",
      "Backprop from the sum of example i's outputs to the batch x and name the other rows that "
      "get a non-zero gradient: a model must not mix examples (a view or transpose across the "
      "batch, batch statistics in training mode do). Truthy when clean. Int64 token ids are "
      "followed through the embedding lookups.",
      "dependencies(model, x, i=0)"}},
    {"profile",
     f_profile,
     {"profile", "profile(fn, *args)",
      "Call fn(*args) with the profiler on and return per-op and per-module tables: calls, time, "
      "FLOPs, bytes, GFLOP/s and percent of this machine's sgemm peak, forward and backward "
      "apart. %profile STATEMENT does the same for a statement.",
      "profile(step)"}},
    {"track",
     f_track,
     {"track", "track(model, opt)",
      "Record, at every opt.step(), log10 of each parameter's update:data ratio (std of the "
      "update over std of the data); t.loss(v) records the loss, t.plot() shows the ratios with "
      "the 1e-3 guide.",
      "t = track(model, opt)"}},
    {"live_plot",
     f_live_plot,
     {"live_plot", "live_plot(*names, logy=False)",
      "A plot that updates in place while a loop runs: curve.add(value) each step (one value per "
      "series: live_plot('train', 'val')), at most ten redraws a second; curve.show() after the "
      "loop draws the final state. In Jupyter one output is updated; in the terminal the final "
      "plot is shown once at the end of the statement.",
      "curve = live_plot('loss')"}},
    {"lr_find",
     f_lr_find,
     {"lr_find", "lr_find(model, loss_fn, data, opt_class, start=1e-6, end=1, steps=100)",
      "The learning-rate range test: train from lr=start, growing it by a constant factor per "
      "step up to end, stop when the smoothed loss diverges (4x its best), restore the model, "
      "and return the curve with a suggested lr (a tenth of the lr at the lowest smoothed "
      "loss). data is an (x, y) pair or an iterable of batches.",
      "lr_find(model, cross_entropy, (x, y), SGD)"}},
    {"_test_wrong_grad",
     f_test_wrong_grad,
     {"_test_wrong_grad", "_test_wrong_grad(input)",
      "Test-only: input * input with a deliberately wrong backward at flat element 2, for "
      "showing that gradcheck catches a wrong derivative.",
      "gradcheck(lambda t: _test_wrong_grad(t).sum(), randn(4, requires_grad=True))"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
