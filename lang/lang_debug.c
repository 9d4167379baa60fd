/* lang_debug: breakpoints, stepping, the (nndb) prompt, watches and the NaN
 * hunt, as one hook on the engine's executor (lang_debug.h). The graph view
 * lives in lang_graph.c.
 *
 * Where a stop happens: after a node ran, so the stop can show the node's
 * output (forward) or the gradients it produced (backward), and an edit at
 * the stop (`out[0, 3] = 0.0`) changes what the pass goes on with. Code run
 * at a stop runs inside the hook, where the executor runs ops directly (no
 * hooks, no recording): it can neither trigger breakpoints nor enter the
 * graph being debugged.
 */
#include "lang_debug.h"

#include <ctype.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_class.h"
#include "lang_display.h"
#include "lang_graph.h"
#include "lang_nn.h"
#include "lang_parse.h"
#include "lang_tensor.h"
#include "nn_anomaly.h"
#include "nn_dist.h"

/* ---- state ---- */

typedef struct bp {
    int id;
    bool enabled;
    int64_t hits;
    char *text; /* the spec as typed, condition included */
    int op;     /* -1: any */
    int phase;  /* -1: both, else nn_phase */
    bool nan;
    char *module; /* pattern, or NULL */
    char *file;   /* with line; NULL: any file */
    int line;     /* 0: any */
    int64_t step; /* 0: any */
    char *cond;   /* condition source, or NULL */
    lang_module *cond_mod;
} bp;

typedef struct watch {
    int id;
    char *expr;
} watch;

typedef struct source {
    char *file, *code;
} source;

enum { RUN, STEP, NEXT, FINISH };

struct lang_debugger {
    lang_vm *vm;
    bp *bps;
    int n_bps, cap_bps, next_bp;
    watch *watches;
    int n_watches, cap_watches, next_watch;
    int hook; /* registered hook id, 0 when none */
    bool anomaly;
    /* stepping */
    int mode;
    const char *next_module; /* NEXT: the module stepped over (interned), NULL top level */
    nn_phase next_phase;
    nn_phase finish_phase;
    uint64_t finish_pass;
    bool break_next;            /* breakpoint() or nndb debug: stop at the next node */
    atomic_bool stepping;       /* a stop happened in this cell (Ctrl-C breaks in) */
    atomic_int break_requested; /* Ctrl-C during a stepped pass */
    atomic_bool at_prompt;
    bool no_input; /* the front end cannot read: stops print and go on */
    bool nan_seen; /* a non-finite origin was reported in this cell */
    int depth;     /* stops in progress (a stop inside a stop is refused) */
    /* counters */
    int64_t backward_done; /* completed backward() calls: the training step is this + 1 */
    int64_t backward_pass; /* the running backward's number (from 1), 0 outside */
    uint64_t pos_stmt;
    int64_t fwd_pos;
    char *last_cmd;
    nn_tensor *last_root; /* what the last backward() ran on, for %graph */
    const nn_hook_event *cur;
    /* an error the hook stopped the pass with */
    bool has_pending;
    lang_err pending_cls;
    const char *pending_ename;
    lang_buf pending_msg;
    /* sources of cells and files run in this session, newest last */
    source *sources;
    int n_sources, cap_sources;
};

static nn_hook_action on_node(nn_ctx *ctx, const nn_hook_event *ev, void *user);

lang_debugger *lang_debug_new(lang_vm *vm) {
    lang_debugger *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->vm = vm;
    d->next_bp = d->next_watch = 1;
    atomic_init(&d->stepping, false);
    atomic_init(&d->break_requested, 0);
    atomic_init(&d->at_prompt, false);
    lang_buf_init(&d->pending_msg);
    return d;
}

static void bp_free(bp *b) {
    free(b->text);
    free(b->module);
    free(b->file);
    free(b->cond);
    lang_module_release(b->cond_mod);
}

void lang_debug_free(lang_debugger *d) {
    if (!d) return;
    for (int i = 0; i < d->n_bps; i++) bp_free(&d->bps[i]);
    free(d->bps);
    for (int i = 0; i < d->n_watches; i++) free(d->watches[i].expr);
    free(d->watches);
    for (int i = 0; i < d->n_sources; i++) {
        free(d->sources[i].file);
        free(d->sources[i].code);
    }
    free(d->sources);
    free(d->last_cmd);
    nn_tensor_release(d->last_root);
    lang_buf_free(&d->pending_msg);
    free(d);
}

static void out_text(lang_vm *vm, const char *s) {
    lang_vm_write(vm, LANG_STDOUT, s, strlen(s));
}

static void err_text(lang_vm *vm, const char *s) {
    lang_vm_write(vm, LANG_STDERR, s, strlen(s));
}

/* The hook is registered only while something needs it. */
static void sync_hook(lang_debugger *d) {
    bool want = d->anomaly || d->mode != RUN || d->break_next || atomic_load(&d->stepping);
    for (int i = 0; i < d->n_bps && !want; i++) want = d->bps[i].enabled;
    nn_ctx *ctx = d->vm->ctx;
    if (want && !d->hook) {
        d->hook = nn_hook_add(ctx, "the debugger", on_node, d);
    } else if (!want && d->hook) {
        nn_hook_remove(ctx, d->hook);
        d->hook = 0;
    }
}

/* ---- sources ---- */

void lang_debug_note_source(lang_vm *vm, const char *filename, const char *code) {
    lang_debugger *d = vm->dbg;
    if (!d || !filename || !code || !strncmp(filename, "<debugger", 9) ||
        !strncmp(filename, "<breakpoint", 11))
        return;
    for (int i = 0; i < d->n_sources; i++) {
        if (!strcmp(d->sources[i].file, filename)) {
            if (!strcmp(d->sources[i].code, code)) return;
            char *c = strdup(code);
            if (!c) return;
            free(d->sources[i].code);
            d->sources[i].code = c;
            return;
        }
    }
    if (d->n_sources == 256) { /* keep the newest 255 */
        free(d->sources[0].file);
        free(d->sources[0].code);
        memmove(d->sources, d->sources + 1, sizeof *d->sources * 255);
        d->n_sources--;
    }
    if (d->n_sources == d->cap_sources) {
        int cap = d->cap_sources ? d->cap_sources * 2 : 16;
        source *p = realloc(d->sources, sizeof *p * (size_t)cap);
        if (!p) return;
        d->sources = p;
        d->cap_sources = cap;
    }
    char *f = strdup(filename), *c = strdup(code);
    if (!f || !c) {
        free(f);
        free(c);
        return;
    }
    d->sources[d->n_sources++] = (source){f, c};
}

/* Line [line] of [file] as kept, without its newline; NULL when unknown. */
static const char *source_line(lang_debugger *d, const char *file, int line, size_t *len) {
    if (!file || line < 1) return NULL;
    for (int i = d->n_sources - 1; i >= 0; i--) {
        if (strcmp(d->sources[i].file, file)) continue;
        const char *p = d->sources[i].code;
        for (int l = 1; l < line && p; l++) {
            p = strchr(p, '\n');
            if (p) p++;
        }
        if (!p || !*p) return NULL;
        const char *e = strchr(p, '\n');
        *len = e ? (size_t)(e - p) : strlen(p);
        return p;
    }
    return NULL;
}

/* "    12 | text\n" and, when [span] is on that line, a caret line. */
static void show_source(lang_debugger *d, lang_buf *b, const char *file, int line,
                        const lang_span *span) {
    size_t len;
    const char *text = source_line(d, file, line, &len);
    if (!text) return;
    lang_buf_printf(b, "  %5d | %.*s\n", line, (int)len, text);
    if (span && span->start.line == line) {
        int from = span->start.col > 0 ? span->start.col - 1 : 0;
        int to = span->end.line == line ? span->end.col - 1 : (int)len;
        if (to <= from) to = from + 1;
        lang_buf_puts(b, "        | ");
        for (int i = 0; i < from && i < (int)len; i++)
            lang_buf_add(b, text[i] == '\t' ? "\t" : " ", 1);
        lang_buf_add(b, "^", 1);
        for (int i = from + 1; i < to; i++) lang_buf_add(b, "~", 1);
        lang_buf_add(b, "\n", 1);
    }
}

/* ---- names of tensors: session variables and module parameters ---- */

/* The name a session variable or a module's parameter has for [t], or
 * NULL; written into [buf]. */
const char *lang_debug_tensor_name(lang_vm *vm, const nn_tensor *t, char *buf, size_t cap) {
    if (!t) return NULL;
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (!g->set) continue;
        nn_tensor *gt = lang_tensor_of(g->value);
        if (gt && gt->storage == t->storage && gt->offset == t->offset &&
            nn_tensor_same_shape(gt, t)) {
            snprintf(buf, cap, "%s", g->name);
            return buf;
        }
    }
    /* an nn.Module subclass of the user's: its named_parameters() */
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (!g->set || !lang_is_instance(g->value) || !lang_instance_of_val(g->value)->state)
            continue;
        lang_val fn, list = lang_none();
        if (!lang_getattr(vm, g->value, "named_parameters", &fn)) {
            lang_vm_clear_error(vm);
            continue;
        }
        lang_args none = {0, NULL, 0, NULL, NULL};
        bool ok = lang_call(vm, fn, &none, &list);
        lang_val_release(fn);
        lang_val it = lang_none();
        if (ok && lang_iter(vm, list, &it)) {
            for (;;) {
                lang_val item;
                bool done = false;
                if (!lang_next(vm, it, &item, &done) || done) break;
                lang_val *pair = item.kind == LANG_OBJ ? lang_seq_items(item) : NULL;
                nn_tensor *pt = pair && lang_seq_len(item) == 2 ? lang_tensor_of(pair[1]) : NULL;
                if (pt && pt->storage == t->storage) {
                    snprintf(buf, cap, "%s.%s", g->name, lang_str_cstr(pair[0]));
                    lang_val_release(item);
                    lang_val_release(it);
                    lang_val_release(list);
                    return buf;
                }
                lang_val_release(item);
            }
        }
        lang_val_release(it);
        lang_val_release(list);
        lang_vm_clear_error(vm);
        nn_ctx_clear_error(vm->ctx);
    }
    /* a dataset's tensors: ds.x, ds.y, ds.mask */
    static const char *const fields[] = {"x", "y", "mask"};
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (!g->set || g->value.kind != LANG_OBJ || strcmp(lang_type_name(g->value), "Dataset"))
            continue;
        for (int f = 0; f < 3; f++) {
            lang_val v;
            if (!lang_getattr(vm, g->value, fields[f], &v)) {
                lang_vm_clear_error(vm);
                continue;
            }
            nn_tensor *ft = lang_tensor_of(v);
            bool same = ft && ft->storage == t->storage;
            lang_val_release(v);
            if (same) {
                snprintf(buf, cap, "%s.%s", g->name, fields[f]);
                return buf;
            }
        }
    }
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        nn_module *m = g->set ? lang_module_of(g->value) : NULL;
        if (!m) continue;
        nn_state st;
        nn_state_init(&st);
        if (nn_module_named_parameters(vm->ctx, m, &st) == NN_OK) {
            for (int i = 0; i < st.n; i++) {
                if (st.entries[i].tensor->storage == t->storage) {
                    snprintf(buf, cap, "%s.%s", g->name, st.entries[i].name);
                    nn_state_free(&st);
                    return buf;
                }
            }
        }
        nn_state_free(&st);
        nn_ctx_clear_error(vm->ctx);
    }
    return NULL;
}

/* ---- statistics of a tensor ---- */

void lang_debug_stats(const nn_tensor *t, lang_debug_tstats *s) {
    memset(s, 0, sizeof *s);
    s->n = nn_tensor_numel(t);
    s->mean = s->std = s->min = s->max = NAN;
    if (!nn_dtype_is_float(t->dtype) && t->dtype != NN_INT64) return;
    double sum = 0, sq = 0, mn = INFINITY, mx = -INFINITY;
    int64_t good = 0;
    for (int64_t i = 0; i < s->n; i++) {
        double v = nn_tensor_flat_value(t, i);
        if (!isfinite(v)) {
            s->bad++;
            continue;
        }
        good++;
        sum += v;
        sq += v * v;
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    if (!good) return;
    s->mean = sum / (double)good;
    s->min = mn;
    s->max = mx;
    if (good > 1) {
        double var = (sq - sum * s->mean) / (double)(good - 1);
        s->std = var > 0 ? sqrt(var) : 0;
    }
}

static void num(char *buf, size_t cap, double v) {
    if (isnan(v))
        snprintf(buf, cap, "\xe2\x80\x94"); /* an em dash: undefined */
    else
        snprintf(buf, cap, "%.4g", v);
}

static void shape_str(const nn_tensor *t, char *buf, size_t cap) {
    nn_tensor_shape_str(t, buf, cap);
}

/* One text row: "  name  [64, 3]  float32  mean .. std .. min .. max .. (2 non-finite)". */
static void text_row(lang_buf *b, const char *role, const char *name, const nn_tensor *t) {
    char sh[96], m[32], sd[32], mn[32], mx[32];
    if (!t) {
        lang_buf_printf(b, "  %-9s %-18s (none)\n", role, name ? name : "");
        return;
    }
    lang_debug_tstats s;
    lang_debug_stats(t, &s);
    shape_str(t, sh, sizeof sh);
    num(m, sizeof m, s.mean);
    num(sd, sizeof sd, s.std);
    num(mn, sizeof mn, s.min);
    num(mx, sizeof mx, s.max);
    lang_buf_printf(b, "  %-9s %-18s %-12s %-8s mean %-9s std %-9s min %-9s max %-9s", role,
                    name ? name : "", sh, nn_dtype_name(t->dtype), m, sd, mn, mx);
    if (s.bad) lang_buf_printf(b, " %lld non-finite", (long long)s.bad);
    lang_buf_puts(b, "\n");
}

static void html_row(lang_buf *b, const char *role, const char *name, const nn_tensor *t) {
    lang_buf_puts(b, "<tr><td>");
    nn_format_html_escape(b, role);
    lang_buf_puts(b, "</td><td>");
    if (name && *name) {
        lang_buf_puts(b, "<code>");
        nn_format_html_escape(b, name);
        lang_buf_puts(b, "</code>");
    }
    lang_buf_puts(b, "</td>");
    if (!t) {
        lang_buf_puts(b, "<td colspan=\"7\">(none)</td></tr>\n");
        return;
    }
    lang_debug_tstats s;
    lang_debug_stats(t, &s);
    char sh[96], v[4][32];
    shape_str(t, sh, sizeof sh);
    num(v[0], sizeof v[0], s.mean);
    num(v[1], sizeof v[1], s.std);
    num(v[2], sizeof v[2], s.min);
    num(v[3], sizeof v[3], s.max);
    lang_buf_printf(b, "<td>%s</td><td>%s</td>", sh, nn_dtype_name(t->dtype));
    for (int i = 0; i < 4; i++) lang_buf_printf(b, "<td>%s</td>", v[i]);
    lang_buf_printf(b, "<td%s>%lld</td></tr>\n",
                    s.bad ? " style=\"color:#b00;font-weight:bold\"" : "", (long long)s.bad);
}

/* ---- the stop display ---- */

static const char *phase_name(nn_phase p) {
    return p == NN_PHASE_FORWARD ? "forward" : "backward";
}

static void position_str(lang_debugger *d, const nn_hook_event *ev, char *buf, size_t cap) {
    if (ev->phase == NN_PHASE_FORWARD)
        snprintf(buf, cap, "op %lld of this statement", (long long)d->fwd_pos);
    else
        snprintf(buf, cap, "node %lld of %lld", (long long)ev->position, (long long)ev->count);
}

static void input_label(lang_debugger *d, const nn_hook_event *ev, int i, char *buf, size_t cap) {
    char nm[128];
    const char *n = lang_debug_tensor_name(d->vm, ev->node->in[i].t, nm, sizeof nm);
    snprintf(buf, cap, "%s", n ? n : "");
}

static void stop_display(lang_debugger *d, const nn_hook_event *ev, const char *why) {
    lang_vm *vm = d->vm;
    const nn_node *n = ev->node;
    char pos[64], role[32], nm[160];
    position_str(d, ev, pos, sizeof pos);
    lang_where w;
    bool have_where = lang_vm_where(vm, 0, &w);
    const char *file = n->label.file ? n->label.file : (have_where ? w.file : NULL);
    int line = n->label.line ? n->label.line : (have_where ? w.line : 0);
    const lang_span *span =
        ev->phase == NN_PHASE_FORWARD && have_where && w.has_span && w.line == line ? &w.span
                                                                                    : NULL;

    lang_buf t, h;
    lang_buf_init(&t);
    lang_buf_init(&h);
    lang_buf_printf(&t, "> stopped (%s): %s %s, %s", why, phase_name(ev->phase), nn_op_name(n->op),
                    pos);
    if (n->label.module) lang_buf_printf(&t, ", in %s", n->label.module);
    lang_buf_puts(&t, "\n");
    if (file)
        lang_buf_printf(&t, "  at %s:%d%s\n", file, line,
                        ev->phase == NN_PHASE_BACKWARD ? " (the forward op)" : "");
    show_source(d, &t, file, line, span);

    lang_buf_puts(&h, "<div class=\"nndb-stop\"><table style=\"font-family:monospace\">\n<caption "
                      "style=\"text-align:left;white-space:pre-wrap\"><b>stopped</b> (");
    nn_format_html_escape(&h, why);
    lang_buf_printf(&h, "): %s <b>%s</b>, %s", phase_name(ev->phase), nn_op_name(n->op), pos);
    if (n->label.module) {
        lang_buf_puts(&h, ", in <code>");
        nn_format_html_escape(&h, n->label.module);
        lang_buf_puts(&h, "</code>");
    }
    if (file) {
        lang_buf_puts(&h, "<br>at ");
        nn_format_html_escape(&h, file);
        lang_buf_printf(&h, ":%d", line);
        size_t len;
        const char *src = source_line(d, file, line, &len);
        if (src) {
            lang_buf_puts(&h, ": <code>");
            char *cp = strndup(src, len);
            nn_format_html_escape(&h, cp);
            free(cp);
            lang_buf_puts(&h, "</code>");
        }
    }
    lang_buf_puts(&h,
                  "</caption>\n<tr><th></th><th>name</th><th>shape</th><th>dtype</th><th>mean</th>"
                  "<th>std</th><th>min</th><th>max</th><th>non-finite</th></tr>\n");
    for (int i = 0; i < n->n_in; i++) {
        snprintf(role, sizeof role, "inputs[%d]", i);
        input_label(d, ev, i, nm, sizeof nm);
        text_row(&t, role, nm, n->in[i].t);
        html_row(&h, role, nm, n->in[i].t);
    }
    text_row(&t, "out", "", ev->output);
    html_row(&h, "out", "", ev->output);
    if (ev->phase == NN_PHASE_BACKWARD) {
        text_row(&t, "grad", "d loss/d out", ev->grad_output);
        html_row(&h, "grad", "d loss/d out", ev->grad_output);
        for (int i = 0; i < n->n_in; i++) {
            snprintf(role, sizeof role, "grads[%d]", i);
            nn_tensor *g = ev->grad_inputs ? ev->grad_inputs[i] : NULL;
            if (!g && !n->in[i].needs_grad) continue;
            text_row(&t, role, "d loss/d input", g);
            html_row(&h, role, "d loss/d input", g);
        }
    }
    lang_buf_puts(&h, "</table></div>\n");
    lang_mime mb;
    lang_mime_init(&mb);
    lang_mime_add(&mb, "text/plain", lang_buf_take(&t));
    lang_mime_add(&mb, "text/html", lang_buf_take(&h));
    lang_vm_display(vm, &mb, NULL, false);
    lang_mime_free(&mb);
    lang_buf_free(&t);
    lang_buf_free(&h);
}

/* ---- evaluating code at a stop ---- */

static const char *const bound_names[] = {"out", "inputs", "grad", "grads", "node"};
#define N_BOUND 5

typedef struct bindings {
    bool had[N_BOUND];
    lang_val old[N_BOUND];
} bindings;

static lang_global *global_named(lang_vm *vm, const char *name) {
    size_t len = strlen(name);
    int64_t k = lang_vm_global_slot(vm, name, len, lang_name_hash(name, len));
    return k < 0 ? NULL : &vm->globals[k];
}

static lang_val tensor_val(lang_vm *vm, nn_tensor *t) {
    lang_val v = lang_none();
    if (t && !lang_tensor_new(vm, nn_tensor_retain(t), &v)) {
        lang_vm_clear_error(vm);
        v = lang_none();
    }
    return v;
}

static lang_val node_record(lang_debugger *d, const nn_hook_event *ev) {
    lang_vm *vm = d->vm;
    const nn_node *n = ev->node;
    lang_val r, v;
    if (!lang_record_new(vm, "node", &r)) {
        lang_vm_clear_error(vm);
        return lang_none();
    }
    bool ok = lang_str_from_cstr(vm, nn_op_name(n->op), &v) && lang_record_set(vm, r, "op", v);
    lang_val_release(v);
    v = lang_none();
    if (ok && n->label.module) {
        ok = lang_str_from_cstr(vm, n->label.module, &v) && lang_record_set(vm, r, "module", v);
        lang_val_release(v);
    } else if (ok) {
        ok = lang_record_set(vm, r, "module", lang_none());
    }
    v = lang_none();
    if (ok) {
        ok = lang_str_from_cstr(vm, n->label.file ? n->label.file : "", &v) &&
             lang_record_set(vm, r, "file", v);
        lang_val_release(v);
    }
    v = lang_none();
    ok = ok && lang_record_set(vm, r, "line", lang_int(n->label.line));
    if (ok) {
        ok =
            lang_str_from_cstr(vm, phase_name(ev->phase), &v) && lang_record_set(vm, r, "phase", v);
        lang_val_release(v);
    }
    ok = ok &&
         lang_record_set(vm, r, "position",
                         lang_int(ev->phase == NN_PHASE_FORWARD ? d->fwd_pos : ev->position)) &&
         lang_record_set(vm, r, "params",
                         lang_float(n->p.f[0])); /* the first float parameter (slope, eps, p) */
    if (!ok) lang_vm_clear_error(vm);
    return r;
}

static void bind(lang_debugger *d, const nn_hook_event *ev, bindings *b) {
    lang_vm *vm = d->vm;
    lang_val vals[N_BOUND];
    vals[0] = tensor_val(vm, ev->output);
    lang_val list = lang_none();
    if (lang_list_new(vm, 0, &list)) {
        for (int i = 0; i < ev->node->n_in; i++) {
            lang_val t = tensor_val(vm, ev->node->in[i].t);
            lang_list_append(vm, list, t);
            lang_val_release(t);
        }
    } else {
        lang_vm_clear_error(vm);
    }
    vals[1] = list;
    vals[2] = tensor_val(vm, ev->grad_output);
    lang_val grads = lang_none();
    if (ev->phase == NN_PHASE_BACKWARD && lang_list_new(vm, 0, &grads)) {
        for (int i = 0; i < ev->node->n_in; i++) {
            lang_val t = tensor_val(vm, ev->grad_inputs ? ev->grad_inputs[i] : NULL);
            lang_list_append(vm, grads, t);
            lang_val_release(t);
        }
    }
    vals[3] = grads;
    vals[4] = node_record(d, ev);
    for (int i = 0; i < N_BOUND; i++) {
        lang_global *g = global_named(vm, bound_names[i]);
        b->had[i] = g && g->set;
        b->old[i] = b->had[i] ? lang_val_retain(g->value) : lang_none();
        if (!lang_vm_set_global(vm, bound_names[i], vals[i])) lang_vm_clear_error(vm);
        lang_val_release(vals[i]);
    }
}

static void unbind(lang_debugger *d, bindings *b) {
    lang_vm *vm = d->vm;
    for (int i = 0; i < N_BOUND; i++) {
        lang_global *g = global_named(vm, bound_names[i]);
        if (!g) continue;
        if (b->had[i]) {
            if (!lang_vm_set_global(vm, bound_names[i], b->old[i])) lang_vm_clear_error(vm);
            lang_val_release(b->old[i]);
        } else if (g->set) {
            lang_val v = g->value;
            g->set = false;
            g->value = lang_none();
            lang_val_release(v);
        }
    }
}

/* The evaluator's position, saved around code run at a stop. */
typedef struct vm_pos {
    const char *file;
    int line;
    nn_label label;
    uint64_t stmt_seq, top_stmt;
    const lang_expr *op_expr, *callee;
} vm_pos;

static void pos_save(lang_vm *vm, vm_pos *p) {
    *p = (vm_pos){vm->file,     vm->line,    vm->ctx->label, vm->stmt_seq,
                  vm->top_stmt, vm->op_expr, vm->callee};
}

static void pos_restore(lang_vm *vm, const vm_pos *p) {
    vm->file = p->file;
    vm->line = p->line;
    vm->ctx->label = p->label;
    vm->stmt_seq = p->stmt_seq;
    vm->top_stmt = p->top_stmt;
    vm->op_expr = p->op_expr;
    vm->callee = p->callee;
}

/* Print the pending error as "Name: message" with its caret, and clear it. */
static void report_error(lang_vm *vm, const char *prefix) {
    lang_buf b;
    lang_buf_init(&b);
    if (prefix) lang_buf_puts(&b, prefix);
    for (int i = vm->n_tb - 1; i >= 0; i--)
        if (vm->tb[i].source_line && strncmp(vm->tb[i].file, "<debugger", 9) != 0)
            lang_buf_puts(&b, vm->tb[i].source_line);
        else if (vm->tb[i].source_line)
            lang_buf_puts(&b, vm->tb[i].source_line);
    lang_buf_printf(&b, "%s: %s\n", vm->ename ? vm->ename : lang_err_name(vm->err),
                    vm->msg.data ? vm->msg.data : "");
    err_text(vm, b.data ? b.data : "");
    lang_buf_free(&b);
    lang_vm_clear_error(vm);
    nn_ctx_clear_error(vm->ctx);
}

/* Run [code] at the stop. [show]: display a trailing expression's value. */
static bool run_at_stop(lang_debugger *d, const char *code, const char *filename, bool show,
                        lang_val *value) {
    lang_vm *vm = d->vm;
    vm_pos p;
    pos_save(vm, &p);
    lang_val v = lang_none();
    bool ok = lang_eval_code(vm, code, filename, show || value, &v);
    pos_restore(vm, &p);
    if (ok && show && v.kind != LANG_NONE) {
        lang_mime mb;
        lang_mime_init(&mb);
        if (lang_display_value(vm, v, &mb))
            lang_vm_display(vm, &mb, NULL, false);
        else
            report_error(vm, NULL);
        lang_mime_free(&mb);
    }
    if (!ok) report_error(vm, NULL);
    if (value && ok)
        *value = v;
    else
        lang_val_release(v);
    nn_ctx_clear_error(vm->ctx);
    return ok;
}

static void show_watches(lang_debugger *d) {
    lang_vm *vm = d->vm;
    for (int i = 0; i < d->n_watches; i++) {
        lang_val v = lang_none();
        lang_buf b;
        lang_buf_init(&b);
        lang_buf_printf(&b, "  watch %d: %s = ", d->watches[i].id, d->watches[i].expr);
        vm_pos p;
        pos_save(vm, &p);
        bool ok = lang_eval_code(vm, d->watches[i].expr, "<debugger watch>", true, &v);
        pos_restore(vm, &p);
        if (ok && lang_repr(vm, v, &b)) {
            lang_buf_puts(&b, "\n");
            out_text(vm, b.data);
        } else {
            lang_buf_printf(&b, "(%s: %s)\n", vm->ename ? vm->ename : lang_err_name(vm->err),
                            vm->msg.data ? vm->msg.data : "");
            out_text(vm, b.data);
            lang_vm_clear_error(vm);
            nn_ctx_clear_error(vm->ctx);
        }
        lang_val_release(v);
        lang_buf_free(&b);
    }
}

/* ---- breakpoints ---- */

static bool is_ident_path(const char *s) {
    if (!*s) return false;
    bool start = true;
    for (; *s; s++) {
        if (start) {
            if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '*')) return false;
            start = false;
        } else if (*s == '.') {
            start = true;
        } else if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '*')) {
            return false;
        }
    }
    return !start;
}

/* Whether module path [path] is [pat] or inside it; '*' stands for one
 * component. */
static bool module_match(const char *pat, const char *path) {
    if (!path) return false;
    while (*pat) {
        const char *pe = strchr(pat, '.');
        size_t pl = pe ? (size_t)(pe - pat) : strlen(pat);
        const char *qe = strchr(path, '.');
        size_t ql = qe ? (size_t)(qe - path) : strlen(path);
        if (!*path) return false;
        if (!(pl == 1 && pat[0] == '*') && (pl != ql || strncmp(pat, path, pl))) return false;
        pat += pl;
        path += ql;
        if (*pat == '.') pat++;
        if (*path == '.')
            path++;
        else if (*pat)
            return false;
    }
    return true;
}

static bool file_match(const char *want, const char *file) {
    if (!file) return false;
    if (!strcmp(want, file)) return true;
    const char *base = strrchr(file, '/');
    return base && !strcmp(want, base + 1);
}

static bool parse_int(const char *s, int64_t *v) {
    if (!*s) return false;
    char *end;
    long long x = strtoll(s, &end, 10);
    if (*end || x <= 0) return false;
    *v = x;
    return true;
}

#define SPEC_HELP                                                                                  \
    "a breakpoint is any of: an op name (matmul, log, cross_entropy), a module path "              \
    "(model.2, model.blocks.*.attn), forward, backward, nan, line N, FILE:LINE, step N; then "     \
    "optionally `if CONDITION`"

/* Parse [text] into [b]; false with an error raised. */
static bool parse_spec(lang_vm *vm, const char *text, bp *b) {
    memset(b, 0, sizeof *b);
    b->op = -1;
    b->phase = -2; /* not given */
    b->enabled = true;
    char *copy = strdup(text);
    if (!copy) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    /* The condition: everything after a standalone `if`. */
    char *cond = NULL;
    for (char *p = copy; *p; p++) {
        if ((p == copy || p[-1] == ' ' || p[-1] == '\t') && !strncmp(p, "if", 2) &&
            (p[2] == ' ' || p[2] == '\t' || p[2] == '(')) {
            *p = 0;
            cond = p + 2;
            while (*cond == ' ' || *cond == '\t') cond++;
            break;
        }
    }
    bool ok = true, any = false;
    char *p = copy;
    while (ok) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        char *tok = p;
        if (*p == '<') { /* "<cell 3>:2" holds a space */
            char *gt = strchr(p, '>');
            p = gt ? gt + 1 : p + strlen(p);
        }
        while (*p && *p != ' ' && *p != '\t') p++;
        if (*p) *p++ = 0;
        any = true;
        char *colon = strrchr(tok, ':');
        int64_t n;
        if (!strcmp(tok, "forward") || !strcmp(tok, "backward")) {
            b->phase = !strcmp(tok, "forward") ? NN_PHASE_FORWARD : NN_PHASE_BACKWARD;
        } else if (!strcmp(tok, "nan")) {
            b->nan = true;
        } else if (!strcmp(tok, "line") || !strcmp(tok, "step")) {
            bool is_line = tok[0] == 'l';
            while (*p == ' ' || *p == '\t') p++;
            char *numtok = p;
            while (*p && *p != ' ' && *p != '\t') p++;
            if (*p) *p++ = 0;
            if (!parse_int(numtok, &n)) {
                ok = lang_raise(vm, LANG_ERR_VALUE, "%%break %s needs a positive number, got '%s'",
                                is_line ? "line" : "step", numtok);
            } else if (is_line) {
                b->line = (int)n;
            } else {
                b->step = n;
            }
        } else if (colon && colon != tok && parse_int(colon + 1, &n)) {
            *colon = 0;
            b->file = strdup(tok);
            b->line = (int)n;
        } else if (nn_op_from_name(tok) >= 0) {
            if (b->op >= 0)
                ok = lang_raise(vm, LANG_ERR_VALUE,
                                "a breakpoint names one op; set two breakpoints");
            b->op = nn_op_from_name(tok);
        } else if (is_ident_path(tok)) {
            if (b->module)
                ok = lang_raise(vm, LANG_ERR_VALUE,
                                "a breakpoint names one module path; set two breakpoints");
            else
                b->module = strdup(tok);
        } else {
            ok =
                lang_raise(vm, LANG_ERR_VALUE, "'%s' is not a breakpoint spec: %s", tok, SPEC_HELP);
        }
    }
    if (ok && !any && !cond) ok = lang_raise(vm, LANG_ERR_VALUE, "empty breakpoint: %s", SPEC_HELP);
    if (ok && cond) {
        if (!*cond) {
            ok = lang_raise(vm, LANG_ERR_SYNTAX,
                            "`if` needs a condition: %%break model.2 if out.abs().max() > 1e4");
        } else {
            lang_parse_opts o;
            memset(&o, 0, sizeof o);
            o.filename = "<breakpoint condition>";
            o.expression = true;
            o.no_magics = true;
            lang_module *m = lang_parse(cond, strlen(cond), &o);
            if (!m) {
                ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
            } else if (m->nerrors) {
                ok = lang_raise(vm, LANG_ERR_SYNTAX, "breakpoint condition '%s': %s", cond,
                                m->errors[0].message);
                lang_module_release(m);
            } else {
                b->cond = strdup(cond);
                b->cond_mod = m;
            }
        }
    }
    /* Without a phase a breakpoint stops in the forward pass, except nan
     * (either pass) and step N alone (the step's first node, either pass). */
    if (b->phase == -2)
        b->phase =
            b->nan || (b->step && b->op < 0 && !b->module && !b->line) ? -1 : NN_PHASE_FORWARD;
    free(copy);
    if (!ok) {
        bp_free(b);
        memset(b, 0, sizeof *b);
        return false;
    }
    b->text = strdup(text);
    return true;
}

static bool add_break(lang_debugger *d, const char *text, bool announce) {
    bp b;
    if (!parse_spec(d->vm, text, &b)) return false;
    if (d->n_bps == d->cap_bps) {
        int cap = d->cap_bps ? d->cap_bps * 2 : 8;
        bp *p = realloc(d->bps, sizeof *p * (size_t)cap);
        if (!p) {
            bp_free(&b);
            return lang_raise(d->vm, LANG_ERR_MEMORY, "out of memory");
        }
        d->bps = p;
        d->cap_bps = cap;
    }
    b.id = d->next_bp++;
    d->bps[d->n_bps++] = b;
    sync_hook(d);
    if (announce) {
        char line[512];
        snprintf(line, sizeof line, "Breakpoint %d: %s\n", b.id, b.text);
        out_text(d->vm, line);
    }
    return true;
}

bool lang_debug_add_break(lang_vm *vm, const char *spec) {
    return vm->dbg && add_break(vm->dbg, spec, false);
}

void lang_debug_break_next(lang_vm *vm) {
    if (!vm->dbg) return;
    vm->dbg->break_next = true;
    sync_hook(vm->dbg);
}

static void list_breaks(lang_debugger *d) {
    lang_buf b;
    lang_buf_init(&b);
    if (!d->n_bps) {
        lang_buf_puts(&b, "No breakpoints. %break SPEC sets one (%help break).\n");
    } else {
        lang_buf_puts(&b, "Num  Enabled  Hits  Spec\n");
        for (int i = 0; i < d->n_bps; i++) {
            const bp *p = &d->bps[i];
            lang_buf_printf(&b, "%-4d %-8s %-5lld %s\n", p->id, p->enabled ? "yes" : "no",
                            (long long)p->hits, p->text);
        }
    }
    if (d->anomaly) lang_buf_puts(&b, "Anomaly mode is on (the NaN hunt).\n");
    out_text(d->vm, b.data);
    lang_buf_free(&b);
}

static bp *find_bp(lang_debugger *d, int id) {
    for (int i = 0; i < d->n_bps; i++)
        if (d->bps[i].id == id) return &d->bps[i];
    return NULL;
}

/* %delete / %disable / %enable / cl: "N", "N M ...", or "all". */
static bool bp_command(lang_debugger *d, const char *what, const char *args) {
    lang_vm *vm = d->vm;
    bool all = !*args || !strcmp(args, "all");
    if (!*args && strcmp(what, "delete") != 0)
        return lang_raise(vm, LANG_ERR_VALUE, "%%%s needs a breakpoint number or all", what);
    if (!*args && !strcmp(what, "delete"))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "%%delete needs a breakpoint number or all (%%delete all)");
    if (all) {
        for (int i = 0; i < d->n_bps; i++) {
            if (!strcmp(what, "delete"))
                bp_free(&d->bps[i]);
            else
                d->bps[i].enabled = !strcmp(what, "enable");
        }
        if (!strcmp(what, "delete")) d->n_bps = 0;
        sync_hook(d);
        return true;
    }
    const char *p = args;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        char *end;
        long id = strtol(p, &end, 10);
        if (end == p || (*end && *end != ' '))
            return lang_raise(vm, LANG_ERR_VALUE, "%%%s: '%s' is not a breakpoint number", what, p);
        bp *b = find_bp(d, (int)id);
        if (!b) return lang_raise(vm, LANG_ERR_VALUE, "no breakpoint %ld (%%break lists them)", id);
        if (!strcmp(what, "delete")) {
            bp_free(b);
            int k = (int)(b - d->bps);
            memmove(b, b + 1, sizeof *b * (size_t)(d->n_bps - k - 1));
            d->n_bps--;
        } else {
            b->enabled = !strcmp(what, "enable");
        }
        p = end;
    }
    sync_hook(d);
    return true;
}

/* Whether [b] matches the event, without its condition. */
static bool bp_matches(lang_debugger *d, const bp *b, const nn_hook_event *ev, bool nan_origin) {
    const nn_node *n = ev->node;
    if (!b->enabled) return false;
    if (b->phase >= 0 && (int)ev->phase != b->phase) return false;
    if (b->op >= 0 && (int)n->op != b->op) return false;
    if (b->module && !module_match(b->module, n->label.module)) return false;
    if (b->line && (n->label.line != b->line || (b->file && !file_match(b->file, n->label.file))))
        return false;
    if (b->step && d->backward_done + 1 != b->step) return false;
    if (b->nan && !nan_origin) return false;
    return true;
}

static bool cond_true(lang_debugger *d, bp *b, const nn_hook_event *ev) {
    if (!b->cond_mod) return true;
    lang_vm *vm = d->vm;
    bindings bs;
    bind(d, ev, &bs);
    vm_pos p;
    pos_save(vm, &p);
    lang_module_retain(b->cond_mod);
    lang_val v = lang_none();
    bool ok = lang_eval_module(vm, b->cond_mod, true, &v);
    pos_restore(vm, &p);
    bool t = false;
    if (ok) ok = lang_truth(vm, v, &t);
    lang_val_release(v);
    unbind(d, &bs);
    if (!ok) {
        char pre[128];
        snprintf(pre, sizeof pre, "breakpoint %d: its condition failed (stopping):\n", b->id);
        report_error(vm, pre);
        return true;
    }
    nn_ctx_clear_error(vm->ctx);
    return t;
}

/* ---- anomaly reports ---- */

/* The value of input [t] at output element [flat] of [out] when the shapes
 * broadcast; false otherwise. */
static bool value_at(const nn_tensor *t, const nn_tensor *out, int64_t flat, double *v) {
    if (!t || !out || t->ndim > out->ndim) return false;
    int64_t idx[NN_MAX_DIMS];
    int64_t f = flat;
    for (int k = out->ndim - 1; k >= 0; k--) {
        int64_t n = out->shape[k] > 0 ? out->shape[k] : 1;
        idx[k] = f % n;
        f /= n;
    }
    int lead = out->ndim - t->ndim;
    int64_t tf = 0;
    for (int k = 0; k < t->ndim; k++) {
        int64_t s = t->shape[k], o = out->shape[k + lead];
        if (s != o && s != 1) return false;
        tf = tf * s + (s == 1 ? 0 : idx[k + lead]);
    }
    *v = nn_tensor_flat_value(t, tf);
    return true;
}

static void fmt_val(lang_buf *b, double v) {
    lang_float_repr(v, b); /* as Python prints a float: 0.0, -inf, nan */
}

static void set_pending(lang_debugger *d, lang_err cls, const char *ename, const char *text) {
    d->has_pending = true;
    d->pending_cls = cls;
    d->pending_ename = ename;
    d->pending_msg.len = 0;
    if (d->pending_msg.data) d->pending_msg.data[0] = 0;
    lang_buf_puts(&d->pending_msg, text);
}

/* The report of [a] at [ev], as the AnomalyError's message. */
static void anomaly_report(lang_debugger *d, const nn_hook_event *ev, const nn_anomaly *a,
                           lang_buf *b) {
    lang_vm *vm = d->vm;
    const nn_node *n = ev->node;
    const char *op = nn_op_name(n->op);
    char idx[96], nm[160];
    const char *what = a->count && isnan(a->value) ? "NaN" : "an infinity";
    if (a->kind == NN_ANOMALY_LEAF || a->kind == NN_ANOMALY_INPUT) {
        const nn_tensor *t = n->in[a->input].t;
        const char *name = lang_debug_tensor_name(vm, t, nm, sizeof nm);
        nn_tensor_index_str(t, a->flat, idx, sizeof idx);
        lang_buf_printf(b, "%s in %s%s%s (input %d of %s) at index %s", what,
                        a->kind == NN_ANOMALY_LEAF ? "the leaf tensor "
                                                   : "a tensor made before anomaly mode was on ",
                        name ? name : "(unnamed)", "", a->input, op, idx);
        lang_buf_printf(b, ": %lld non-finite element%s; the first op that used it is %s",
                        (long long)a->count, a->count == 1 ? "" : "s", op);
    } else if (a->phase == NN_PHASE_FORWARD) {
        nn_tensor_index_str(ev->output, a->flat, idx, sizeof idx);
        lang_buf_printf(b, "forward: %s produced %s from %s inputs: %s(", op, what,
                        isnan(a->value) ? "NaN-free" : "finite", op);
        for (int i = 0; i < n->n_in; i++) {
            double v;
            if (i) lang_buf_puts(b, ", ");
            if (nn_tensor_numel(n->in[i].t) == 1)
                fmt_val(b, nn_tensor_flat_value(n->in[i].t, 0));
            else if (value_at(n->in[i].t, ev->output, a->flat, &v))
                fmt_val(b, v);
            else
                lang_buf_puts(b, "...");
        }
        lang_buf_puts(b, ") = ");
        fmt_val(b, a->value);
        lang_buf_printf(b, " at index %s (%lld non-finite element%s)", idx, (long long)a->count,
                        a->count == 1 ? "" : "s");
    } else {
        const nn_tensor *g = ev->grad_inputs[a->input];
        nn_tensor_index_str(g, a->flat, idx, sizeof idx);
        if (a->kind == NN_ANOMALY_GRAD)
            lang_buf_printf(b, "backward: the gradient coming into %s already held %s", op, what);
        else
            lang_buf_printf(b, "backward: the gradient of %s with respect to its input %d is ", op,
                            a->input);
        if (a->kind != NN_ANOMALY_GRAD) fmt_val(b, a->value);
        lang_buf_printf(b, " at index %s", idx);
        const nn_tensor *in = n->in[a->input].t;
        if (in && nn_tensor_same_shape(in, g))
            lang_buf_puts(b, "; the forward input there was "),
                fmt_val(b, nn_tensor_flat_value(in, a->flat));
        if (a->kind == NN_ANOMALY_CREATED)
            lang_buf_printf(b, ", while the incoming gradient was %s",
                            isnan(a->value) ? "free of NaN" : "finite");
        lang_buf_printf(b, " (%lld non-finite element%s)", (long long)a->count,
                        a->count == 1 ? "" : "s");
    }
    lang_buf_puts(b, "\n");
    lang_buf_printf(b, "  op %s%s%s%s", op, n->label.module ? " in " : "",
                    n->label.module ? n->label.module : "",
                    a->phase == NN_PHASE_BACKWARD ? " (the forward op of this backward node)" : "");
    if (n->label.file) lang_buf_printf(b, ", at %s:%d", n->label.file, n->label.line);
    lang_buf_puts(b, "\n");
    lang_where w;
    bool hw = lang_vm_where(vm, 0, &w);
    show_source(d, b, n->label.file, n->label.line,
                a->phase == NN_PHASE_FORWARD && hw && w.has_span ? &w.span : NULL);
    for (int i = 0; i < n->n_in; i++) {
        char role[32];
        snprintf(role, sizeof role, "inputs[%d]", i);
        const char *name = lang_debug_tensor_name(vm, n->in[i].t, nm, sizeof nm);
        text_row(b, role, name, n->in[i].t);
    }
    if (a->phase == NN_PHASE_BACKWARD) text_row(b, "grad", "d loss/d out", ev->grad_output);
}

/* ---- the stop ---- */

static const char *const help_text =
    "Commands at the (nndb) prompt:\n"
    "  s, step        run to the next node (forward op or backward node)\n"
    "  n, next        run to the next node outside this module (step over it)\n"
    "  c, continue    run until a breakpoint (Ctrl-D does the same)\n"
    "  f, finish      run to the end of this pass; stop at the next pass's first node\n"
    "  w, where       module path, your def frames, position in the pass\n"
    "  l, list [N]    source around the line (N lines each side, default 5)\n"
    "  p EXPR         print EXPR's repr;  pp EXPR  print it with str()\n"
    "  watch EXPR     print EXPR at every stop;  watch  lists;  unwatch N\n"
    "  b [SPEC]       set a breakpoint (as %break), or list them;  cl N|all  delete\n"
    "  h, help [CMD]  this help, or one command's\n"
    "  q, quit        abort the statement; variables and the recorded graph stay\n"
    "  anything else  runs as code, with out, inputs, grad, grads and node bound;\n"
    "                 !CODE runs CODE even when it starts like a command\n"
    "  (empty line)   repeats the last command\n";

static const struct {
    const char *name, *text;
} cmd_helps[] = {
    {"s", "s, step: run the next node and stop after it, in forward or backward."},
    {"n", "n, next: run until a node outside the current module (model.2's ops are stepped over as "
          "one); at top level, the next top-level op. Stops too when the pass changes."},
    {"c", "c, continue: run until the next breakpoint or the end of the statement."},
    {"f", "f, finish: run to the end of this pass (the statement's forward ops, or this "
          "backward()) and stop at the first node after it."},
    {"w", "w, where: the module stack of the node, your def frames with their lines, and the "
          "position in the pass."},
    {"l", "l, list [N]: the source around the node's line, N lines each side (5)."},
    {"p", "p EXPR: print repr(EXPR). pp EXPR: print str(EXPR)."},
    {"watch", "watch EXPR: print EXPR at every stop; watch alone lists; unwatch N removes."},
    {"b", "b SPEC [if COND]: a breakpoint, as %break; b alone lists them."},
    {"cl", "cl N | cl all: delete breakpoints."},
    {"q", "q, quit: abort the running statement with a clear message; the session, its "
          "variables and the recorded graph are kept."},
};

static void cmd_where(lang_debugger *d, const nn_hook_event *ev) {
    lang_vm *vm = d->vm;
    lang_buf b;
    lang_buf_init(&b);
    const char *m = ev->node->label.module;
    if (m) {
        lang_buf_puts(&b, "module stack:\n");
        const char *p = m;
        int depth = 0;
        for (;;) {
            const char *dot = strchr(p, '.');
            size_t len = dot ? (size_t)(dot - m) : strlen(m);
            lang_buf_printf(&b, "  %*s%.*s\n", depth * 2, "", (int)len, m);
            depth++;
            if (!dot) break;
            p = dot + 1;
        }
    } else {
        lang_buf_puts(&b, "module stack: (top level, in no module)\n");
    }
    lang_buf_puts(&b, "frames (innermost last):\n");
    lang_where w;
    int levels = 0;
    while (lang_vm_where(vm, levels, &w)) levels++;
    for (int k = levels - 1; k >= 0; k--) {
        lang_vm_where(vm, k, &w);
        if (!strncmp(w.file, "<debugger", 9)) continue;
        lang_buf_printf(&b, "  %s:%d, in %s\n", w.file, w.line, w.func);
        show_source(d, &b, w.file, w.line, NULL);
    }
    char pos[64];
    position_str(d, ev, pos, sizeof pos);
    lang_buf_printf(&b, "position: %s %s, %s\n", phase_name(ev->phase), nn_op_name(ev->node->op),
                    pos);
    out_text(vm, b.data);
    lang_buf_free(&b);
}

static void cmd_list(lang_debugger *d, const nn_hook_event *ev, const char *arg) {
    lang_vm *vm = d->vm;
    const char *file = ev->node->label.file;
    int line = ev->node->label.line;
    int around = 5;
    if (*arg) around = atoi(arg) > 0 ? atoi(arg) : 5;
    lang_buf b;
    lang_buf_init(&b);
    size_t len;
    if (!source_line(d, file, line, &len)) {
        lang_buf_printf(&b, "(no source for %s:%d)\n", file ? file : "?", line);
    } else {
        lang_buf_printf(&b, "%s:\n", file);
        for (int l = line - around < 1 ? 1 : line - around; l <= line + around; l++) {
            const char *t = source_line(d, file, l, &len);
            if (!t) break;
            lang_buf_printf(&b, "%s%5d  %.*s\n", l == line ? "->" : "  ", l, (int)len, t);
        }
    }
    out_text(vm, b.data);
    lang_buf_free(&b);
}

static void cmd_help(lang_vm *vm, const char *arg) {
    if (!*arg) {
        out_text(vm, help_text);
        return;
    }
    for (size_t i = 0; i < sizeof cmd_helps / sizeof cmd_helps[0]; i++) {
        const char *n = cmd_helps[i].name;
        size_t nl = strlen(n);
        if (!strcmp(arg, n) ||
            (!strncmp(arg, n, nl) && !strncmp(cmd_helps[i].text, arg, strlen(arg)))) {
            out_text(vm, cmd_helps[i].text);
            out_text(vm, "\n");
            return;
        }
    }
    for (size_t i = 0; i < sizeof cmd_helps / sizeof cmd_helps[0]; i++) {
        if (strstr(cmd_helps[i].text, arg) == cmd_helps[i].text) {
            out_text(vm, cmd_helps[i].text);
            out_text(vm, "\n");
            return;
        }
    }
    out_text(vm, "no such command; h lists them\n");
}

static void watch_add(lang_debugger *d, const char *expr) {
    lang_vm *vm = d->vm;
    if (!*expr) {
        if (!d->n_watches) out_text(vm, "No watches. watch EXPR adds one.\n");
        for (int i = 0; i < d->n_watches; i++) {
            char line[512];
            snprintf(line, sizeof line, "  %d: %s\n", d->watches[i].id, d->watches[i].expr);
            out_text(vm, line);
        }
        return;
    }
    if (d->n_watches == d->cap_watches) {
        int cap = d->cap_watches ? d->cap_watches * 2 : 4;
        watch *p = realloc(d->watches, sizeof *p * (size_t)cap);
        if (!p) return;
        d->watches = p;
        d->cap_watches = cap;
    }
    char *e = strdup(expr);
    if (!e) return;
    d->watches[d->n_watches++] = (watch){d->next_watch++, e};
    char line[512];
    snprintf(line, sizeof line, "Watch %d: %s\n", d->watches[d->n_watches - 1].id, expr);
    out_text(vm, line);
}

static void watch_remove(lang_debugger *d, const char *arg) {
    int id = atoi(arg);
    for (int i = 0; i < d->n_watches; i++) {
        if (d->watches[i].id == id || !strcmp(arg, "all")) {
            free(d->watches[i].expr);
            memmove(&d->watches[i], &d->watches[i + 1],
                    sizeof *d->watches * (size_t)(d->n_watches - i - 1));
            d->n_watches--;
            if (strcmp(arg, "all")) return;
            i--;
        }
    }
    if (strcmp(arg, "all")) out_text(d->vm, "no such watch (watch lists them)\n");
}

/* The pass a node belongs to: the top-level statement for forward nodes,
 * the backward() call for backward nodes. */
static uint64_t pass_of(lang_debugger *d, const nn_hook_event *ev) {
    return ev->phase == NN_PHASE_FORWARD ? d->vm->top_stmt : (uint64_t)d->backward_pass;
}

static bool split_cmd(const char *line, const char *name, const char *alias, const char **arg) {
    size_t n = strlen(name), a = alias ? strlen(alias) : 0;
    const char *rest = NULL;
    if (!strncmp(line, name, n) && (line[n] == 0 || line[n] == ' '))
        rest = line + n;
    else if (alias && !strncmp(line, alias, a) && (line[a] == 0 || line[a] == ' '))
        rest = line + a;
    if (!rest) return false;
    while (*rest == ' ') rest++;
    *arg = rest;
    return true;
}

/* p EXPR (repr) and pp EXPR (str) at a stop. */
static void print_value(lang_debugger *d, const char *expr, bool use_str) {
    lang_vm *vm = d->vm;
    lang_val v = lang_none();
    if (run_at_stop(d, expr, "<debugger>", false, &v)) {
        lang_buf b;
        lang_buf_init(&b);
        if (use_str ? lang_str(vm, v, &b) : lang_repr(vm, v, &b)) {
            lang_buf_puts(&b, "\n");
            out_text(vm, b.data);
        } else {
            report_error(vm, NULL);
        }
        lang_buf_free(&b);
    }
    lang_val_release(v);
}

/* The prompt loop of one stop. */
static nn_hook_action prompt(lang_debugger *d, const nn_hook_event *ev) {
    lang_vm *vm = d->vm;
    nn_ctx *ctx = vm->ctx;
    nn_hook_action act = NN_HOOK_CONTINUE;
    for (;;) {
        atomic_store(&d->at_prompt, true);
        char *line = vm->fe.readline ? vm->fe.readline(vm->fe.user, "(nndb) ", false) : NULL;
        atomic_store(&d->at_prompt, false);
        if (!line) {
            if (atomic_load(&vm->interrupt) || atomic_load(&ctx->interrupt)) {
                nn_error_set(&ctx->err, NN_ERR_INTERRUPT, "interrupted at the (nndb) prompt");
                act = NN_HOOK_STOP;
            } else {
                out_text(vm, "\n");
                d->mode = RUN; /* Ctrl-D, or no input: continue */
            }
            break;
        }
        /* trim */
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
        if (!*s && d->last_cmd) {
            char *r = strdup(d->last_cmd);
            free(line);
            if (!r) break;
            line = s = r;
        } else if (*s) {
            free(d->last_cmd);
            d->last_cmd = strdup(s);
        }
        const char *arg;
        bool resume = false;
        if (!*s) {
        } else if (s[0] == '!') {
            run_at_stop(d, s + 1, "<debugger>", true, NULL);
        } else if (split_cmd(s, "step", "s", &arg) && !*arg) {
            d->mode = STEP;
            resume = true;
        } else if (split_cmd(s, "next", "n", &arg) && !*arg) {
            d->mode = NEXT;
            d->next_module = ev->node->label.module;
            d->next_phase = ev->phase;
            resume = true;
        } else if ((split_cmd(s, "continue", "c", &arg) || split_cmd(s, "cont", NULL, &arg)) &&
                   !*arg) {
            d->mode = RUN;
            resume = true;
        } else if (split_cmd(s, "finish", "f", &arg) && !*arg) {
            d->mode = FINISH;
            d->finish_phase = ev->phase;
            d->finish_pass = pass_of(d, ev);
            resume = true;
        } else if (split_cmd(s, "where", "w", &arg) && !*arg) {
            cmd_where(d, ev);
        } else if (split_cmd(s, "list", "l", &arg)) {
            cmd_list(d, ev, arg);
        } else if ((split_cmd(s, "pp", NULL, &arg) || split_cmd(s, "p", "print", &arg)) && *arg) {
            print_value(d, arg, s[1] == 'p'); /* pp: str(), p: repr() */
        } else if (split_cmd(s, "watch", NULL, &arg)) {
            watch_add(d, arg);
        } else if (split_cmd(s, "unwatch", NULL, &arg)) {
            watch_remove(d, arg);
        } else if (split_cmd(s, "break", "b", &arg)) {
            if (!*arg)
                list_breaks(d);
            else if (!add_break(d, arg, true))
                report_error(vm, NULL);
        } else if (split_cmd(s, "clear", "cl", &arg)) {
            if (!bp_command(d, "delete", *arg ? arg : "all")) report_error(vm, NULL);
        } else if (split_cmd(s, "help", "h", &arg)) {
            cmd_help(vm, arg);
        } else if ((split_cmd(s, "quit", "q", &arg) || split_cmd(s, "exit", NULL, &arg)) && !*arg) {
            char buf[256];
            snprintf(buf, sizeof buf,
                     "quit at the debugger, %s %s%s%s: the statement was aborted; the session, its "
                     "variables and the recorded graph are kept",
                     phase_name(ev->phase), nn_op_name(ev->node->op),
                     ev->node->label.module ? " in " : "",
                     ev->node->label.module ? ev->node->label.module : "");
            set_pending(d, LANG_ERR_STOPPED, "DebuggerQuit", buf);
            nn_error_set(&ctx->err, NN_ERR_STOPPED, "%s", buf);
            act = NN_HOOK_STOP;
            free(line);
            break;
        } else {
            run_at_stop(d, s, "<debugger>", true, NULL);
        }
        free(line);
        if (resume) break;
    }
    nn_ctx_clear_error(ctx);
    if (act == NN_HOOK_STOP) {
        /* the error the stop set survives the clear above */
        if (d->has_pending)
            nn_error_set(&ctx->err, NN_ERR_STOPPED, "%s", d->pending_msg.data);
        else
            nn_error_set(&ctx->err, NN_ERR_INTERRUPT, "interrupted at the (nndb) prompt");
    }
    return act;
}

static bool can_read(lang_vm *vm) {
    if (!vm->fe.readline) return false;
    return !vm->fe.can_read || vm->fe.can_read(vm->fe.user);
}

/* Under mpirun the other ranks wait for this one at their next collective:
 * say so here, and tell nn_dist where this rank is, so that their timeout
 * message says it is in the debugger (docs/distributed.md). */
static void dist_stop_note(lang_debugger *d, const nn_hook_event *ev) {
    if (!nn_dist_is_initialized() || nn_dist_world_size() < 2) return;
    char where[160];
    snprintf(where, sizeof where, "at %s %s%s%s, %s:%d", phase_name(ev->phase),
             nn_op_name(ev->node->op), ev->node->label.module ? " in " : "",
             ev->node->label.module ? ev->node->label.module : "",
             ev->node->label.file ? ev->node->label.file : lang_vm_file(d->vm),
             ev->node->label.line ? ev->node->label.line : lang_vm_line(d->vm));
    nn_dist_set_stopped(where);
    char note[320];
    snprintf(note, sizeof note,
             "(rank %d of %d is stopped; the other ranks wait for it at their next collective and "
             "fail after %g s, the group's timeout, saying this rank is in the debugger)\n",
             nn_dist_rank(), nn_dist_world_size(), nn_dist_timeout());
    err_text(d->vm, note);
}

static nn_hook_action stop(lang_debugger *d, const nn_hook_event *ev, const char *why) {
    lang_vm *vm = d->vm;
    d->depth++;
    d->cur = ev;
    atomic_store(&d->stepping, true);
    d->break_next = false;
    stop_display(d, ev, why);
    bindings bs;
    bind(d, ev, &bs);
    show_watches(d);
    nn_hook_action act = NN_HOOK_CONTINUE;
    if (d->no_input || !can_read(vm)) {
        if (!d->no_input)
            err_text(vm, "(no input here: breakpoints print their stop and the pass goes on)\n");
        d->no_input = true;
        d->mode = RUN;
    } else {
        dist_stop_note(d, ev);
        act = prompt(d, ev);
        nn_dist_set_stopped(NULL);
    }
    unbind(d, &bs);
    d->cur = NULL;
    d->depth--;
    sync_hook(d);
    return act;
}

/* The hook: decides whether this node is a stop. */
static nn_hook_action on_node(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    lang_debugger *d = user;
    lang_vm *vm = d->vm;
    if (!ev->after || d->depth) return NN_HOOK_CONTINUE;
    if (ev->phase == NN_PHASE_FORWARD) {
        if (vm->stmt_seq != d->pos_stmt) {
            d->pos_stmt = vm->stmt_seq;
            d->fwd_pos = 0;
        }
        d->fwd_pos++;
    }
    bool want_nan = d->anomaly;
    for (int i = 0; i < d->n_bps && !want_nan; i++) want_nan = d->bps[i].enabled && d->bps[i].nan;
    nn_anomaly a;
    bool found = want_nan && nn_anomaly_check(ev, &a);
    /* Once an origin was reported in this cell, the NaNs it spreads are not new. */
    if (found && d->nan_seen && (a.kind == NN_ANOMALY_INPUT || a.kind == NN_ANOMALY_GRAD))
        found = false;

    char why[160];
    why[0] = 0;
    int hit_bp = 0;
    for (int i = 0; i < d->n_bps; i++) {
        bp *b = &d->bps[i];
        if (!bp_matches(d, b, ev, found)) continue;
        if (!cond_true(d, b, ev)) continue;
        b->hits++;
        if (!hit_bp) {
            hit_bp = b->id;
            snprintf(why, sizeof why, "breakpoint %d, %s", b->id, b->text);
        }
    }
    if (found) d->nan_seen = true;
    if (found && d->anomaly && !hit_bp) {
        lang_buf r;
        lang_buf_init(&r);
        anomaly_report(d, ev, &a, &r);
        set_pending(d, LANG_ERR_RUNTIME, "AnomalyError", r.data ? r.data : "");
        lang_buf_free(&r);
        nn_error_set(&ctx->err, NN_ERR_STOPPED, "AnomalyError");
        return NN_HOOK_STOP;
    }
    if (found && hit_bp) {
        lang_buf r;
        lang_buf_init(&r);
        anomaly_report(d, ev, &a, &r);
        err_text(vm, r.data ? r.data : "");
        lang_buf_free(&r);
    }
    if (!hit_bp) {
        const nn_node *n = ev->node;
        if (atomic_exchange(&d->break_requested, 0))
            snprintf(why, sizeof why, "Ctrl-C");
        else if (d->break_next)
            snprintf(why, sizeof why, "breakpoint()");
        else if (d->mode == STEP)
            snprintf(why, sizeof why, "step");
        else if (d->mode == NEXT) {
            bool other;
            if (ev->phase != d->next_phase)
                other = true;
            else if (!d->next_module)
                other = !n->label.module;
            else
                other = !module_match(d->next_module, n->label.module);
            if (!other) return NN_HOOK_CONTINUE;
            snprintf(why, sizeof why, "next");
        } else if (d->mode == FINISH) {
            if (ev->phase == d->finish_phase && pass_of(d, ev) == d->finish_pass)
                return NN_HOOK_CONTINUE;
            snprintf(why, sizeof why, "finish: the next pass");
        } else {
            return NN_HOOK_CONTINUE;
        }
    }
    return stop(d, ev, why);
}

/* ---- hooks from the rest of the language ---- */

void lang_debug_cell_begin(lang_vm *vm) {
    lang_debugger *d = vm->dbg;
    if (!d) return;
    d->mode = RUN;
    d->no_input = false;
    d->nan_seen = false;
    d->has_pending = false;
    atomic_store(&d->stepping, false);
    atomic_store(&d->break_requested, 0);
    sync_hook(d);
}

void lang_debug_cell_end(lang_vm *vm) {
    lang_debugger *d = vm->dbg;
    if (!d) return;
    d->mode = RUN;
    atomic_store(&d->stepping, false);
    atomic_store(&d->break_requested, 0);
    sync_hook(d);
}

void lang_debug_backward_begin(lang_vm *vm, nn_tensor *root) {
    lang_debugger *d = vm->dbg;
    if (!d) return;
    d->backward_pass = d->backward_done + 1;
    if (root && root != d->last_root) {
        nn_tensor_release(d->last_root);
        d->last_root = nn_tensor_retain(root);
    }
}

void lang_debug_backward_end(lang_vm *vm) {
    lang_debugger *d = vm->dbg;
    if (!d) return;
    d->backward_done++;
    d->backward_pass = 0;
}

nn_tensor *lang_debug_last_root(lang_vm *vm) {
    return vm->dbg ? vm->dbg->last_root : NULL;
}

const nn_hook_event *lang_debug_current(lang_vm *vm) {
    return vm->dbg ? vm->dbg->cur : NULL;
}

bool lang_debug_after_step(lang_vm *vm, const nn_optim *o) {
    lang_debugger *d = vm->dbg;
    if (!d || !d->anomaly) return true;
    for (int i = 0; i < nn_optim_num_params(o); i++) {
        nn_tensor *p = nn_optim_param(o, i);
        int64_t first = 0;
        double v = 0;
        int64_t bad = nn_tensor_nonfinite(p, &first, &v);
        if (!bad) continue;
        char nm[160], idx[96];
        const char *name = lang_debug_tensor_name(vm, p, nm, sizeof nm);
        nn_tensor_index_str(p, first, idx, sizeof idx);
        lang_buf b;
        lang_buf_init(&b);
        lang_buf_printf(&b, "%s.step() made the parameter %s non-finite: ",
                        nn_optim_kind_name(nn_optim_get_kind(o)), name ? name : "(unnamed)");
        fmt_val(&b, v);
        lang_buf_printf(&b, " at index %s (%lld non-finite element%s)", idx, (long long)bad,
                        bad == 1 ? "" : "s");
        if (p->grad && nn_tensor_same_shape(p->grad, p)) {
            lang_buf_puts(&b, "; the gradient there was ");
            fmt_val(&b, nn_tensor_flat_value(p->grad, first));
        }
        lang_buf_printf(&b, ", lr %g", nn_optim_get_lr(o));
        const char *const *states = nn_optim_state_names(o);
        for (int k = 0; states && states[k]; k++) {
            nn_tensor *st = nn_optim_state(vm->ctx, o, i, states[k]);
            if (st && nn_tensor_same_shape(st, p)) {
                lang_buf_printf(&b, ", %s ", states[k]);
                fmt_val(&b, nn_tensor_flat_value(st, first));
            }
            nn_tensor_release(st);
            nn_ctx_clear_error(vm->ctx);
        }
        lang_buf_puts(&b, ". Lower the learning rate, or clip gradients (clip_grad_norm_).");
        lang_raise_named(vm, LANG_ERR_RUNTIME, "AnomalyError", "%s", "");
        vm->msg.len = 0;
        lang_buf_puts(&vm->msg, b.data);
        lang_buf_free(&b);
        return false;
    }
    return true;
}

bool lang_debug_take_error(lang_vm *vm) {
    lang_debugger *d = vm->dbg;
    if (!d || !d->has_pending) return false;
    d->has_pending = false;
    /* Ours only while the engine still reports the stop we made; an older
     * report (caught, or superseded) must not replace a new error. */
    if (nn_ctx_status(vm->ctx) != NN_ERR_STOPPED && nn_ctx_status(vm->ctx) != NN_ERR_INTERRUPT)
        return false;
    lang_raise_named(vm, d->pending_cls, d->pending_ename, "%s", "");
    vm->msg.len = 0;
    if (vm->msg.data) vm->msg.data[0] = 0;
    lang_buf_puts(&vm->msg, d->pending_msg.data ? d->pending_msg.data : "");
    /* a one-line message reads better without its trailing newline */
    while (vm->msg.len && vm->msg.data[vm->msg.len - 1] == '\n') vm->msg.data[--vm->msg.len] = 0;
    nn_ctx_clear_error(vm->ctx);
    return true;
}

bool lang_debug_interrupt(lang_debugger *d) {
    if (!d || !atomic_load(&d->stepping) || atomic_load(&d->at_prompt)) return false;
    int expected = 0;
    return atomic_compare_exchange_strong(&d->break_requested, &expected, 1);
}

/* ---- magics ---- */

static bool set_anomaly(lang_debugger *d, bool on) {
    d->anomaly = on;
    sync_hook(d);
    return true;
}

static bool m_step(lang_debugger *d, const lang_stmt *s, const lang_module *m) {
    lang_vm *vm = d->vm;
    lang_module *pm = lang_magic_parse_args(vm, s, m, "step", "a statement: %step loss.backward()");
    if (!pm) return false;
    d->mode = STEP;
    sync_hook(d);
    lang_val v;
    bool ok = lang_eval_module(vm, pm, false, &v);
    lang_val_release(v);
    d->mode = RUN;
    sync_hook(d);
    return ok;
}

bool lang_debug_magic(lang_vm *vm, const char *name, const char *args, const lang_stmt *s,
                      const lang_module *m, bool *ok) {
    lang_debugger *d = vm->dbg;
    if (!d) return false;
    if (!strcmp(name, "break")) {
        *ok = *args ? add_break(d, args, true) : (list_breaks(d), true);
    } else if (!strcmp(name, "delete") || !strcmp(name, "disable") || !strcmp(name, "enable")) {
        *ok = bp_command(d, name, args);
    } else if (!strcmp(name, "step")) {
        *ok = m_step(d, s, m);
    } else if (!strcmp(name, "anomaly")) {
        if (!strcmp(args, "on") || !strcmp(args, "off")) {
            *ok = set_anomaly(d, !strcmp(args, "on"));
            out_text(vm, d->anomaly ? "Anomaly mode on: the first op that makes a NaN or an "
                                      "infinity stops the statement with a report.\n"
                                    : "Anomaly mode off.\n");
        } else if (!*args) {
            out_text(vm, d->anomaly ? "Anomaly mode is on.\n" : "Anomaly mode is off.\n");
            *ok = true;
        } else {
            *ok = lang_raise(vm, LANG_ERR_VALUE, "%%anomaly takes on or off");
        }
    } else if (!strcmp(name, "where")) {
        if (d->cur)
            cmd_where(d, d->cur);
        else
            out_text(vm, "Not stopped in a pass (w works at the (nndb) prompt).\n");
        *ok = true;
    } else if (!strcmp(name, "graph")) {
        *ok = lang_graph_magic(vm, args);
    } else {
        return false;
    }
    return true;
}

/* ---- builtins ---- */

static bool b_breakpoint(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "breakpoint", "")) return false;
    lang_debug_break_next(vm);
    *out = lang_none();
    return true;
}

static bool b_set_detect_anomaly(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val m;
    bool on;
    if (!lang_parse_args(vm, a, "set_detect_anomaly", "mode|check_nan", &m, &m) ||
        !lang_to_bool(vm, a->n ? a->pos[0] : m, "mode", &on))
        return false;
    set_anomaly(vm->dbg, on);
    *out = lang_none();
    return true;
}

static bool b_is_anomaly_enabled(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "is_anomaly_enabled", "")) return false;
    *out = lang_bool(vm->dbg && vm->dbg->anomaly);
    return true;
}

typedef struct anomaly_ctx {
    lang_obj hdr;
    bool on, prev;
} anomaly_ctx;

static bool m_anom_enter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    anomaly_ctx *c = (anomaly_ctx *)self.u.o;
    c->prev = vm->dbg->anomaly;
    set_anomaly(vm->dbg, c->on);
    *out = lang_none();
    return true;
}

static bool m_anom_exit(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    anomaly_ctx *c = (anomaly_ctx *)self.u.o;
    set_anomaly(vm->dbg, c->prev);
    *out = lang_none();
    return true;
}

static const lang_method anom_methods[] = {
    {"__enter__",
     m_anom_enter,
     {"detect_anomaly.__enter__", "__enter__()", "Turn anomaly mode on.", ""}},
    {"__exit__",
     m_anom_exit,
     {"detect_anomaly.__exit__", "__exit__(*exc)", "Restore anomaly mode.", ""}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};

static bool anom_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_printf(out, "<torch.autograd.anomaly_mode.detect_anomaly object at %p>", (void *)o);
    return true;
}

static const lang_type anomaly_type = {
    .name = "detect_anomaly",
    .repr = anom_repr,
    .methods = anom_methods,
};

static bool b_detect_anomaly(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val check = lang_bool(true);
    if (!lang_parse_args(vm, a, "detect_anomaly", "|check_nan", &check)) return false;
    anomaly_ctx *c = lang_obj_new(vm, &anomaly_type, sizeof *c);
    if (!c) return false;
    c->on = true;
    c->prev = false;
    *out = lang_obj_val(&c->hdr);
    return true;
}

#define B(n, f, sig, doc, ex)                                                                      \
    {                                                                                              \
        n, f, {                                                                                    \
            n, sig, doc, ex                                                                        \
        }                                                                                          \
    }
const lang_builtin_def lang_debug_builtins[] = {
    B("breakpoint", b_breakpoint, "breakpoint()",
      "Stop in the debugger at the next op recorded after this call (forward or backward), with "
      "the (nndb) prompt. See docs/debugger.md.",
      "breakpoint()\nloss = cross_entropy(model(x), y)"),
    B("set_detect_anomaly", b_set_detect_anomaly, "set_detect_anomaly(mode)",
      "Anomaly mode (as %anomaly on/off, torch.autograd.set_detect_anomaly): after every forward "
      "and backward node, look for a NaN or an infinity that this node made, and stop the "
      "statement with an AnomalyError that names the op, its module, its line and the input "
      "values at the first bad element.",
      "set_detect_anomaly(True)"),
    B("is_anomaly_enabled", b_is_anomaly_enabled, "is_anomaly_enabled()",
      "Whether anomaly mode (the NaN hunt) is on.", "is_anomaly_enabled()"),
    B("detect_anomaly", b_detect_anomaly, "detect_anomaly(check_nan=True)",
      "A context manager that turns anomaly mode on for its block (torch.autograd.detect_anomaly).",
      "with detect_anomaly():\n    loss.backward()"),
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
