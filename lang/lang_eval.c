/* lang_eval: the tree-walking evaluator over lang_ast.h, the VM services of
 * lang_vm.h, the global table, user functions and tracebacks.
 *
 * Owned by the language-runtime engineer. Frames: every call gets a heap
 * frame of [scope.nslots] slots; a def or lambda keeps its defining frame
 * alive (late binding of free variables, as Python). A frame that a
 * closure still holds when its call returns goes on the VM's list of
 * captured frames, whose slots are cleared when the session ends: that
 * breaks the frame <-> function cycles that Python's cycle collector would.
 * Names: locals and free variables by slot (resolved by the parser);
 * globals through an open-addressing table probed with the name's
 * precomputed hash, so no string is hashed while a loop runs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_class.h"
#include "lang_coro.h"
#include "lang_debug.h"
#include "lang_eval.h"
#include "lang_function.h"
#include "lang_import.h"
#include "lang_parse.h"
#include "lang_set.h"
#include "lang_suggest.h"
#include "lang_usermod.h"
#include "nn_ctx.h"
#include "nn_graph.h"

/* ------------------------------------------------------------------ frames */

typedef struct lang_frame {
    int32_t refcount;
    struct lang_frame *parent;    /* the defining frame of the running function (retained) */
    struct lang_frame *prev_capt; /* the VM's list of captured frames */
    struct lang_frame *next_capt;
    bool captured;
    bool located;     /* this frame's traceback entry is recorded */
    bool is_class;    /* a class body: functions made here close over [parent] */
    lang_obj *owner;  /* the class of the running method (borrowed), or NULL */
    lang_module *mod; /* borrowed: the function or unit keeps it */
    const char *func_name;
    struct lang_frame *caller; /* while running: the frame that called it (lang_vm_where) */
    int call_line;             /* the caller's line at the call */
    const char *file;          /* interned in the ctx */
    lang_gtab *ns;             /* the globals of an imported module's code, NULL: the session's */
    lang_val ret;
    int nslots;
    lang_val slots[];
} lang_frame;

static inline lang_val unset_val(void) {
    lang_val v = {LANG_OBJ, {.o = NULL}};
    return v;
}
static inline bool is_unset(lang_val v) {
    return v.kind == LANG_OBJ && v.u.o == NULL;
}
static inline void slot_release(lang_val v) {
    if (!is_unset(v)) lang_val_release(v);
}

/* Small frames are reused: a method call in a loop then makes no system
 * allocation for its frame. Under AddressSanitizer nothing is cached, so a
 * use after free is caught rather than hidden in a recycled frame. */
#if defined(__SANITIZE_ADDRESS__)
#define FRAME_CACHE_SLOTS 0
#else
#define FRAME_CACHE_SLOTS 8
#endif
#define FRAME_CACHE_DEPTH 32
static _Thread_local lang_frame *frame_cache[FRAME_CACHE_SLOTS + 1][FRAME_CACHE_DEPTH];
static _Thread_local int frame_cache_n[FRAME_CACHE_SLOTS + 1];

static lang_frame *frame_new(lang_vm *vm, int nslots, lang_frame *parent, lang_module *mod,
                             const char *func_name, const char *file) {
    lang_frame *f =
        FRAME_CACHE_SLOTS > 0 && nslots <= FRAME_CACHE_SLOTS && frame_cache_n[nslots] > 0
            ? frame_cache[nslots][--frame_cache_n[nslots]]
            : malloc(sizeof(lang_frame) + sizeof(lang_val) * (size_t)nslots);
    if (!f) {
        lang_raise(vm, LANG_ERR_MEMORY, "out of memory for a call frame");
        return NULL;
    }
    memset(f, 0, sizeof *f);
    f->refcount = 1;
    f->parent = parent;
    if (parent) parent->refcount++;
    f->mod = mod;
    f->func_name = func_name;
    f->file = file;
    f->ret = lang_none();
    f->nslots = nslots;
    for (int i = 0; i < nslots; i++) f->slots[i] = unset_val();
    return f;
}

static void frame_release(lang_frame *f) {
    while (f && --f->refcount == 0) {
        lang_frame *parent = f->parent;
        if (f->captured) {
            if (f->prev_capt) f->prev_capt->next_capt = f->next_capt;
            if (f->next_capt) f->next_capt->prev_capt = f->prev_capt;
        }
        for (int i = 0; i < f->nslots; i++) slot_release(f->slots[i]);
        lang_val_release(f->ret);
        if (FRAME_CACHE_SLOTS > 0 && f->nslots <= FRAME_CACHE_SLOTS &&
            frame_cache_n[f->nslots] < FRAME_CACHE_DEPTH)
            frame_cache[f->nslots][frame_cache_n[f->nslots]++] = f;
        else
            free(f);
        f = parent;
    }
}

/* Freeing a module may free lang_name structs whose addresses the global
 * cache holds; every such free bumps this epoch, which empties the cache. */
static _Atomic uint64_t module_epoch = 1;

static void gen_close_all(lang_vm *vm);

static void module_release(lang_module *m) {
    if (m && m->refcount == 1) atomic_fetch_add(&module_epoch, 1);
    lang_module_release(m);
}

/* The attribute name as the session interned it (attribute tables hold
 * interned keys, so the lookup's first comparison is a pointer). */
static const char *iname(lang_vm *vm, lang_name *n) {
    if (!n->interned) n->interned = nn_ctx_intern(vm->ctx, n->str);
    return n->interned ? n->interned : n->str;
}

/* ------------------------------------------------------------------ user functions */

typedef struct func_obj {
    lang_obj hdr;
    lang_func *fn;
    lang_module *mod;   /* retained */
    lang_frame *parent; /* retained */
    lang_val *defaults; /* [nparams], unset where none */
    const char *file;   /* interned */
    int line;
    lang_obj *owner; /* the class whose body defined it (retained), or NULL */
    lang_gtab *ns;   /* the globals it runs with (NULL: the session's); its module is retained */
} func_obj;

/* Frames that outlived their call, for the session's final sweep. */
typedef struct capt_list {
    lang_frame head;
} capt_list;

static void func_free(lang_obj *o) {
    func_obj *f = (func_obj *)o;
    if (f->defaults) {
        for (int i = 0; i < f->fn->nparams; i++) slot_release(f->defaults[i]);
        free(f->defaults);
    }
    frame_release(f->parent);
    module_release(f->mod);
    if (f->owner) lang_val_release(lang_obj_val(f->owner));
    if (f->ns && f->ns->owner) lang_val_release(lang_obj_val(f->ns->owner));
}

static bool func_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out);

static bool func_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    func_obj *f = (func_obj *)o;
    lang_buf_printf(out, "<function %s at %p>", f->fn->name->str, (void *)o);
    return true;
}

static bool func_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    func_obj *f = (func_obj *)o;
    *found = false;
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) {
        *found = true;
        return lang_str_from_cstr(vm, f->fn->name->str, out);
    }
    if (!strcmp(name, "__doc__")) {
        *found = true;
        *out = lang_none();
        return true;
    }
    return true;
}

static const char *const func_fields[] = {"__name__", NULL};
static const char *const *func_fieldv(lang_obj *o) {
    return func_fields;
}

const lang_type lang_func_type = {
    .name = "function",
    .free = func_free,
    .repr = func_repr,
    .getattr = func_getattr,
    .call = func_call,
    .fields = func_fieldv,
};

bool lang_func_info(lang_vm *vm, lang_val v, char *sig, size_t cap, const char **file, int *line) {
    if (!lang_is_obj(v, &lang_func_type)) return false;
    func_obj *f = (func_obj *)v.u.o;
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%s(", f->fn->name->str);
    bool kwonly_star = false;
    for (int i = 0; i < f->fn->nparams; i++) {
        lang_param *p = &f->fn->params[i];
        if (i) lang_buf_puts(&b, ", ");
        if (p->kind == LANG_PARAM_KWONLY && !kwonly_star && f->fn->vararg < 0) {
            lang_buf_puts(&b, "*, ");
            kwonly_star = true;
        }
        if (p->kind == LANG_PARAM_VARARGS) lang_buf_puts(&b, "*");
        if (p->kind == LANG_PARAM_VARKW) lang_buf_puts(&b, "**");
        lang_buf_puts(&b, p->name->str);
        if (f->defaults && !is_unset(f->defaults[i])) {
            lang_buf_puts(&b, "=");
            if (!lang_repr(vm, f->defaults[i], &b)) lang_vm_clear_error(vm);
        }
    }
    lang_buf_puts(&b, ")");
    snprintf(sig, cap, "%s", b.data ? b.data : "");
    lang_buf_free(&b);
    if (file) *file = f->file;
    if (line) *line = f->line;
    return true;
}

/* ------------------------------------------------------------------ errors and tracebacks */

void lang_vm_clear_error(lang_vm *vm) {
    vm->err = LANG_ERR_NONE;
    vm->hint[0] = 0;
    vm->ename = NULL;
    if (vm->exc.kind != LANG_NONE) {
        lang_val e = vm->exc;
        vm->exc = lang_none();
        lang_val_release(e);
    }
    vm->msg.len = 0;
    if (vm->msg.data) vm->msg.data[0] = 0;
    for (int i = 0; i < vm->n_tb; i++) {
        free(vm->tb[i].file);
        free(vm->tb[i].func);
        free(vm->tb[i].source_line);
    }
    vm->n_tb = 0;
    vm->tb_syntax = false;
}

/* Record the traceback entry of frame [f] at [span] (once per frame). */
static void locate(lang_vm *vm, lang_frame *f, lang_span span) {
    if (!f || f->located || vm->err == LANG_ERR_NONE) return;
    f->located = true;
    if (vm->n_tb == vm->cap_tb) {
        int cap = vm->cap_tb ? vm->cap_tb * 2 : 8;
        lang_frame_info *p = realloc(vm->tb, sizeof *p * (size_t)cap);
        if (!p) return;
        vm->tb = p;
        vm->cap_tb = cap;
    }
    lang_frame_info *e = &vm->tb[vm->n_tb++];
    e->file = strdup(f->file ? f->file : "<input>");
    e->func = strdup(f->func_name ? f->func_name : "<module>");
    e->line = span.start.line;
    e->col = span.start.ccol;
    e->end_col = span.end.line == span.start.line ? span.end.ccol : -1;
    lang_buf b;
    lang_buf_init(&b);
    if (f->mod) lang_ast_caret(&b, f->mod, span);
    e->source_line = b.data ? lang_buf_take(&b) : NULL;
    lang_buf_free(&b);
}

/* A saved pending error, so cleanup code (__exit__) can run. */
typedef struct saved_err {
    lang_err err;
    const char *ename;
    lang_val exc;
    lang_buf msg;
    lang_frame_info *tb;
    int n_tb, cap_tb;
} saved_err;

static void err_save(lang_vm *vm, saved_err *s) {
    s->err = vm->err;
    s->ename = vm->ename;
    s->exc = vm->exc;
    vm->exc = lang_none();
    s->msg = vm->msg;
    s->tb = vm->tb;
    s->n_tb = vm->n_tb;
    s->cap_tb = vm->cap_tb;
    lang_buf_init(&vm->msg);
    vm->tb = NULL;
    vm->n_tb = vm->cap_tb = 0;
    vm->err = LANG_ERR_NONE;
    vm->ename = NULL;
}

static void err_restore(lang_vm *vm, saved_err *s) {
    lang_vm_clear_error(vm);
    free(vm->tb);
    lang_buf_free(&vm->msg);
    vm->err = s->err;
    vm->ename = s->ename;
    vm->exc = s->exc;
    vm->msg = s->msg;
    vm->tb = s->tb;
    vm->n_tb = s->n_tb;
    vm->cap_tb = s->cap_tb;
}

/* ------------------------------------------------------------------ globals */

static int64_t gprobe_t(const lang_gtab *t, const char *name, size_t len, uint32_t hash,
                        int64_t *pos) {
    if (!t->index_cap) {
        *pos = -1;
        return -1;
    }
    uint64_t mask = (uint64_t)t->index_cap - 1, i = hash & mask;
    for (;;) {
        int64_t ix = t->index[i];
        if (ix == 0) {
            *pos = (int64_t)i;
            return -1;
        }
        lang_global *g = &t->globals[ix - 1];
        if (g->hash == hash && strncmp(g->name, name, len) == 0 && g->name[len] == 0) {
            *pos = (int64_t)i;
            return ix - 1;
        }
        i = (i + 1) & mask;
    }
}

static int64_t gprobe(lang_vm *vm, const char *name, size_t len, uint32_t hash, int64_t *pos) {
    return gprobe_t(&vm->gt, name, len, hash, pos);
}

static bool gindex_grow(lang_gtab *t) {
    int64_t cap = t->index_cap ? t->index_cap * 2 : 256;
    int64_t *ix = calloc((size_t)cap, sizeof(int64_t));
    if (!ix) return false;
    for (int64_t k = 0; k < t->n_globals; k++) {
        uint64_t i = t->globals[k].hash & (uint64_t)(cap - 1);
        while (ix[i]) i = (i + 1) & (uint64_t)(cap - 1);
        ix[i] = k + 1;
    }
    free(t->index);
    t->index = ix;
    t->index_cap = cap;
    return true;
}

int64_t lang_gtab_slot(lang_gtab *t, const char *name, size_t len, uint32_t hash, bool create) {
    int64_t pos;
    int64_t k = gprobe_t(t, name, len, hash, &pos);
    if (k >= 0 || !create) return k;
    if ((t->n_globals + 1) * 2 > t->index_cap) {
        if (!gindex_grow(t)) return -1;
        gprobe_t(t, name, len, hash, &pos);
    }
    if (t->n_globals == t->cap_globals) {
        int64_t cap = t->cap_globals ? t->cap_globals * 2 : 256;
        lang_global *g = realloc(t->globals, sizeof *g * (size_t)cap);
        if (!g) return -1;
        t->globals = g;
        t->cap_globals = cap;
    }
    lang_global *g = &t->globals[t->n_globals];
    memset(g, 0, sizeof *g);
    g->name = strndup(name, len);
    if (!g->name) return -1;
    g->hash = hash;
    t->index[pos] = ++t->n_globals;
    return t->n_globals - 1;
}

int64_t lang_vm_global_slot(lang_vm *vm, const char *name, size_t len, uint32_t hash) {
    return lang_gtab_slot(&vm->gt, name, len, hash, true);
}

lang_val *lang_gtab_get(lang_gtab *t, const char *name) {
    int64_t pos;
    size_t len = strlen(name);
    int64_t k = gprobe_t(t, name, len, lang_name_hash(name, len), &pos);
    return k >= 0 && t->globals[k].set ? &t->globals[k].value : NULL;
}

static void gset(lang_global *g, lang_val v) {
    lang_val old = g->value;
    bool was = g->set;
    g->value = lang_val_retain(v);
    g->set = true;
    if (was) lang_val_release(old);
}

bool lang_gtab_set(lang_vm *vm, lang_gtab *t, const char *name, lang_val v) {
    size_t len = strlen(name);
    int64_t k = lang_gtab_slot(t, name, len, lang_name_hash(name, len), true);
    if (k < 0) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    gset(&t->globals[k], v);
    return true;
}

void lang_gtab_clear(lang_gtab *t) {
    for (int64_t k = 0; k < t->n_globals; k++) {
        lang_global *g = &t->globals[k];
        lang_val v = g->value, b = g->builtin;
        bool was = g->set, hb = g->has_builtin;
        g->set = g->has_builtin = false;
        g->value = g->builtin = lang_none();
        if (was) lang_val_release(v);
        if (hb) lang_val_release(b);
    }
}

void lang_gtab_free(lang_gtab *t) {
    lang_gtab_clear(t);
    for (int64_t k = 0; k < t->n_globals; k++) free(t->globals[k].name);
    free(t->globals);
    free(t->index);
    t->globals = NULL;
    t->index = NULL;
    t->n_globals = t->cap_globals = t->index_cap = 0;
}

static lang_global *global_of(lang_vm *vm, const char *name) {
    int64_t pos;
    size_t len = strlen(name);
    int64_t k = gprobe(vm, name, len, lang_name_hash(name, len), &pos);
    return k >= 0 ? &vm->globals[k] : NULL;
}

lang_val *lang_vm_global(lang_vm *vm, const char *name) {
    lang_global *g = global_of(vm, name);
    if (!g) return NULL;
    if (g->set) return &g->value;
    if (g->has_builtin) return &g->builtin;
    return NULL;
}

bool lang_vm_set_global(lang_vm *vm, const char *name, lang_val v) {
    return lang_gtab_set(vm, &vm->gt, name, v);
}

bool lang_vm_set_builtin(lang_vm *vm, const char *name, lang_val v) {
    size_t len = strlen(name);
    int64_t k = lang_vm_global_slot(vm, name, len, lang_name_hash(name, len));
    if (k < 0) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    lang_global *g = &vm->globals[k];
    if (g->has_builtin) lang_val_release(g->builtin);
    g->builtin = lang_val_retain(v);
    g->has_builtin = true;
    return true;
}

/* Clear the slots of every frame a closure still holds: the cycles
 * frame -> function -> frame go away and the frames free themselves. */
static void sweep_captured(lang_vm *vm) {
    capt_list *cl = (capt_list *)vm->frame_list;
    if (!cl) return;
    int n = 0;
    for (lang_frame *f = cl->head.next_capt; f; f = f->next_capt) n++;
    if (!n) return;
    lang_frame **all = malloc(sizeof *all * (size_t)n);
    if (!all) return;
    int k = 0;
    for (lang_frame *f = cl->head.next_capt; f; f = f->next_capt) {
        all[k++] = f;
        f->refcount++;
    }
    for (int i = 0; i < n; i++) {
        lang_frame *f = all[i];
        for (int s = 0; s < f->nslots; s++) {
            lang_val v = f->slots[s];
            f->slots[s] = unset_val();
            slot_release(v);
        }
        lang_val r = f->ret;
        f->ret = lang_none();
        lang_val_release(r);
    }
    for (int i = 0; i < n; i++) frame_release(all[i]);
    free(all);
}

void lang_vm_reset_globals(lang_vm *vm) {
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (g->set) {
            lang_val v = g->value;
            g->set = false;
            g->value = lang_none();
            lang_val_release(v);
        }
    }
    sweep_captured(vm);
}

void lang_vm_init(lang_vm *vm, lang_session *s, nn_ctx *ctx, const lang_frontend *fe) {
    memset(vm, 0, sizeof *vm);
    vm->session = s;
    vm->ctx = ctx;
    if (fe) vm->fe = *fe;
    vm->print_opts = nn_print_opts_default;
    vm->max_depth = 1000;
    atomic_init(&vm->interrupt, 0);
    lang_buf_init(&vm->msg);
    vm->frame_list = calloc(1, sizeof(capt_list));
}

void lang_vm_free(lang_vm *vm) {
    gen_close_all(vm);
    lang_vm_reset_globals(vm);
    lang_vm_clear_error(vm);
    lang_import_free(vm);
    lang_function_free(vm);
    lang_val_release(vm->warned);
    vm->warned = lang_none();
    lang_class_sweep(vm);
    lang_usermod_free(vm);
    nn_grad_hooks_clear(vm->ctx);
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (g->has_builtin) lang_val_release(g->builtin);
        free(g->name);
    }
    /* Values freed by the sweep may have held more captured frames. */
    sweep_captured(vm);
    free(vm->globals);
    free(vm->gindex);
    lang_vm_clear_error(vm);
    free(vm->tb);
    lang_buf_free(&vm->msg);
    free(vm->frame_list);
}

/* ------------------------------------------------------------------ the VM services */

nn_ctx *lang_vm_ctx(lang_vm *vm) {
    return vm->ctx;
}
lang_session *lang_vm_session(lang_vm *vm) {
    return vm->session;
}

void lang_vm_write(lang_vm *vm, lang_stream which, const char *text, size_t len) {
    if (vm->tee && vm->tee->len < 4096) lang_buf_add(vm->tee, text, len < 4096 ? len : 4096);
    if (vm->fe.stream && len) vm->fe.stream(vm->fe.user, which, text, len);
}

void lang_vm_display(lang_vm *vm, const lang_mime *bundle, const char *display_id, bool update) {
    if (vm->fe.display) vm->fe.display(vm->fe.user, bundle, display_id, update);
}

void lang_vm_progress(lang_vm *vm, const char *id, int64_t done, int64_t total, const char *text) {
    if (vm->fe.progress) vm->fe.progress(vm->fe.user, id, done, total, text);
}

bool lang_vm_readline(lang_vm *vm, const char *prompt, bool password, char **out) {
    *out = NULL;
    if (!vm->fe.readline) return lang_raise(vm, LANG_ERR_IO, "input is not available here");
    *out = vm->fe.readline(vm->fe.user, prompt, password);
    if (*out) return true;
    /* Ctrl-C at the prompt (the front end has asked to interrupt) is a
     * KeyboardInterrupt, as in Python; only the end of input is EOFError. */
    if (atomic_load(&vm->interrupt) || atomic_load(&vm->ctx->interrupt)) {
        atomic_store(&vm->interrupt, 0);
        atomic_store(&vm->ctx->interrupt, 0);
        return lang_raise(vm, LANG_ERR_INTERRUPT, "interrupted while waiting for input");
    }
    return lang_raise_named(vm, LANG_ERR_IO, "EOFError", "EOF when reading a line");
}

static bool interrupt_pending(lang_vm *vm) {
    return atomic_load_explicit(&vm->interrupt, memory_order_relaxed) ||
           atomic_load_explicit(&vm->ctx->interrupt, memory_order_relaxed);
}

static bool raise_interrupt(lang_vm *vm) {
    atomic_store(&vm->interrupt, 0);
    atomic_store(&vm->ctx->interrupt, 0);
    return lang_raise(vm, LANG_ERR_INTERRUPT, "interrupted at %s:%d",
                      vm->file ? vm->file : "<input>", vm->line);
}

bool lang_vm_interrupted(lang_vm *vm) {
    /* Builtins that loop call this per item, so the step budget (fuzzing)
     * bounds them as it bounds statements. */
    if (vm->step_limit && ++vm->steps > vm->step_limit) {
        lang_raise(vm, LANG_ERR_RUNTIME, "step budget of %" PRId64 " exhausted", vm->step_limit);
        return true;
    }
    if (!interrupt_pending(vm)) return false;
    raise_interrupt(vm);
    return true;
}

const char *lang_vm_file(lang_vm *vm) {
    return vm->file;
}
int lang_vm_line(lang_vm *vm) {
    return vm->line;
}

/* "net.encoder" for a callee written as a name or an attribute chain. */
static bool chain_text(const lang_expr *e, char *buf, size_t cap, size_t *len) {
    const char *part;
    if (e->kind == LANG_EX_NAME) {
        part = e->u.name.name->str;
        *len = 0;
    } else if (e->kind == LANG_EX_ATTR) {
        if (!chain_text(e->u.attr.value, buf, cap, len)) return false;
        if (*len + 1 >= cap) return false;
        buf[(*len)++] = '.';
        part = e->u.attr.name->str;
    } else {
        return false;
    }
    size_t n = strlen(part);
    if (*len + n + 1 > cap) return false;
    memcpy(buf + *len, part, n + 1);
    *len += n;
    return true;
}

const char *lang_vm_callee_name(lang_vm *vm) {
    size_t len;
    if (!vm->callee || !chain_text(vm->callee, vm->callee_buf, sizeof vm->callee_buf, &len))
        return NULL;
    return vm->callee_buf;
}

bool lang_vm_call(lang_vm *vm, lang_val f, const lang_args *a, lang_val *out) {
    return lang_call(vm, f, a, out);
}

/* ------------------------------------------------------------------ the evaluator */

typedef enum xstat { XS_OK, XS_ERR, XS_BREAK, XS_CONTINUE, XS_RETURN } xstat;

static bool eval(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out);

/* The object and the key of a subscript `obj[key]`, both new references;
 * on failure neither is held. Loads, stores, augmented assignments and del
 * all start this way. */
static bool eval_subscript(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *obj,
                           lang_val *key) {
    if (!eval(vm, f, e->u.sub.value, obj)) return false;
    if (!eval(vm, f, e->u.sub.index, key)) {
        lang_val_release(*obj);
        return false;
    }
    return true;
}
static xstat exec_block(lang_vm *vm, lang_frame *f, const lang_block *b);
struct func_obj;
static bool gen_new(lang_vm *vm, struct func_obj *fo, lang_frame *fr, const lang_expr *genexp,
                    lang_val it0, lang_val *out);
static bool genexp_new(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out);
static bool yield_from(lang_vm *vm, lang_val src, lang_val *out);
struct saved_err;
static void err_discard(lang_vm *vm, struct saved_err *e);

static bool ellipsis_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_puts(out, "Ellipsis");
    return true;
}
static const lang_type ellipsis_type = {.name = "ellipsis", .repr = ellipsis_repr};
static lang_obj ellipsis_obj = {1 << 28, &ellipsis_type};

static bool fail_at(lang_vm *vm, lang_frame *f, const lang_expr *e) {
    locate(vm, f, e->span);
    return false;
}

/* The global slot of a name, through the pointer cache; -1 when absent
 * (and [create] is false) or out of memory. */
static int64_t global_slot(lang_vm *vm, lang_gtab *t, const lang_name *n, bool create) {
    uint64_t epoch = atomic_load_explicit(&module_epoch, memory_order_relaxed);
    if (vm->gcache_epoch != epoch) {
        memset(vm->gcache, 0, sizeof vm->gcache);
        vm->gcache_epoch = epoch;
    }
    /* A name (of one parsed unit) is always looked up in the same table:
     * its module's, or the session's. */
    size_t h = ((uintptr_t)n >> 4) & 511;
    if (vm->gcache[h].key == n) return vm->gcache[h].slot;
    int64_t k = lang_gtab_slot(t, n->str, n->len, n->hash, create);
    if (k >= 0) {
        vm->gcache[h].key = n;
        vm->gcache[h].slot = k;
    }
    return k;
}

static lang_frame *free_frame(lang_frame *f, int depth) {
    while (depth-- > 0 && f) f = f->parent;
    return f;
}

static bool load_name(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out) {
    const lang_name *n = e->u.name.name;
    switch (e->u.name.scope) {
    case LANG_SCOPE_LOCAL: {
        lang_val v = f->slots[e->u.name.slot];
        if (is_unset(v))
            return lang_raise_named(
                vm, LANG_ERR_NAME, "UnboundLocalError",
                "cannot access local variable '%s' where it is not associated with a value",
                n->str);
        *out = lang_val_retain(v);
        return true;
    }
    case LANG_SCOPE_FREE: {
        lang_frame *fr = free_frame(f, e->u.name.depth);
        if (!fr || is_unset(fr->slots[e->u.name.slot]))
            return lang_raise(vm, LANG_ERR_NAME,
                              "cannot access free variable '%s' where it is not associated with a "
                              "value in enclosing scope",
                              n->str);
        *out = lang_val_retain(fr->slots[e->u.name.slot]);
        return true;
    }
    case LANG_SCOPE_GLOBAL: break;
    }
    lang_gtab *t = f->ns ? f->ns : &vm->gt;
    int64_t k = global_slot(vm, t, n, f->ns != NULL);
    if (k >= 0) {
        lang_global *g = &t->globals[k];
        if (g->set) {
            *out = lang_val_retain(g->value);
            return true;
        }
        if (g->has_builtin) {
            *out = lang_val_retain(g->builtin);
            return true;
        }
        if (f->ns) {
            /* An imported module sees the builtins (not the session's
             * globals); the first use notes the builtin in its slot. */
            int64_t pos, b = gprobe(vm, n->str, n->len, n->hash, &pos);
            if (b >= 0 && vm->globals[b].has_builtin) {
                g->builtin = lang_val_retain(vm->globals[b].builtin);
                g->has_builtin = true;
                *out = lang_val_retain(g->builtin);
                return true;
            }
        }
    }
    lang_raise(vm, LANG_ERR_NAME, "name '%s' is not defined", n->str);
    lang_suggest_name(vm, n->str);
    return false;
}

/* Store [v] (borrowed) in a name. */
static bool store_name(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val v) {
    const lang_name *n = e->u.name.name;
    lang_val *slot;
    switch (e->u.name.scope) {
    case LANG_SCOPE_LOCAL: slot = &f->slots[e->u.name.slot]; break;
    case LANG_SCOPE_FREE: {
        lang_frame *fr = free_frame(f, e->u.name.depth);
        if (!fr) return lang_raise(vm, LANG_ERR_NAME, "no enclosing frame for '%s'", n->str);
        slot = &fr->slots[e->u.name.slot];
        break;
    }
    default: {
        lang_gtab *t = f->ns ? f->ns : &vm->gt;
        int64_t k = global_slot(vm, t, n, true);
        if (k < 0) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        gset(&t->globals[k], v);
        return true;
    }
    }
    lang_val old = *slot;
    *slot = lang_val_retain(v);
    slot_release(old);
    return true;
}

static bool del_name(lang_vm *vm, lang_frame *f, const lang_expr *e) {
    const lang_name *n = e->u.name.name;
    lang_val *slot = NULL;
    if (e->u.name.scope == LANG_SCOPE_LOCAL)
        slot = &f->slots[e->u.name.slot];
    else if (e->u.name.scope == LANG_SCOPE_FREE) {
        lang_frame *fr = free_frame(f, e->u.name.depth);
        if (fr) slot = &fr->slots[e->u.name.slot];
    } else {
        lang_gtab *t = f->ns ? f->ns : &vm->gt;
        int64_t pos, k = gprobe_t(t, n->str, n->len, n->hash, &pos);
        if (k < 0 || !t->globals[k].set)
            return lang_raise(vm, LANG_ERR_NAME, "name '%s' is not defined", n->str);
        lang_val old = t->globals[k].value;
        t->globals[k].set = false;
        t->globals[k].value = lang_none();
        lang_val_release(old);
        return true;
    }
    if (!slot || is_unset(*slot))
        return lang_raise(vm, LANG_ERR_NAME, "name '%s' is not defined", n->str);
    lang_val old = *slot;
    *slot = unset_val();
    slot_release(old);
    return true;
}

/* Items of [v] for unpacking, as a new list (fast for list/tuple). */
static bool unpack_items(lang_vm *vm, lang_val v, lang_val *list) {
    if (v.kind != LANG_OBJ || !v.u.o->type->iter)
        return lang_raise(vm, LANG_ERR_TYPE, "cannot unpack non-iterable %s object",
                          lang_type_name(v));
    return lang_list_from_iter(vm, v, list);
}

static bool assign(lang_vm *vm, lang_frame *f, const lang_expr *t, lang_val v);

static bool assign_seq(lang_vm *vm, lang_frame *f, const lang_expr *t, lang_val v) {
    lang_val list;
    if (!unpack_items(vm, v, &list)) return false;
    int64_t n = lang_seq_len(list);
    lang_val *items = lang_seq_items(list);
    int nt = t->u.seq.n, star = -1;
    for (int i = 0; i < nt; i++)
        if (t->u.seq.items[i]->kind == LANG_EX_STARRED) star = i;
    bool ok = true;
    if (star < 0) {
        if (n < nt)
            ok = lang_raise(vm, LANG_ERR_VALUE,
                            "not enough values to unpack (expected %d, got %" PRId64 ")", nt, n);
        else if (n > nt)
            ok = lang_raise(vm, LANG_ERR_VALUE, "too many values to unpack (expected %d)", nt);
        for (int i = 0; ok && i < nt; i++) ok = assign(vm, f, t->u.seq.items[i], items[i]);
    } else {
        if (n < nt - 1)
            ok = lang_raise(vm, LANG_ERR_VALUE,
                            "not enough values to unpack (expected at least %d, got %" PRId64 ")",
                            nt - 1, n);
        int64_t after = nt - 1 - star;
        for (int i = 0; ok && i < star; i++) ok = assign(vm, f, t->u.seq.items[i], items[i]);
        if (ok) {
            lang_val mid;
            ok = lang_list_new(vm, n - after - star, &mid);
            if (ok) {
                for (int64_t k = star; k < n - after; k++)
                    lang_seq_items(mid)[k - star] = lang_val_retain(items[k]);
                ok = assign(vm, f, t->u.seq.items[star]->u.unary.operand, mid);
                lang_val_release(mid);
            }
        }
        for (int64_t i = 0; ok && i < after; i++)
            ok = assign(vm, f, t->u.seq.items[star + 1 + i], items[n - after + i]);
    }
    lang_val_release(list);
    return ok;
}

static bool assign(lang_vm *vm, lang_frame *f, const lang_expr *t, lang_val v) {
    switch (t->kind) {
    case LANG_EX_NAME: return store_name(vm, f, t, v) || fail_at(vm, f, t);
    case LANG_EX_ATTR: {
        lang_val obj;
        if (!eval(vm, f, t->u.attr.value, &obj)) return false;
        bool ok = lang_is_instance(obj)
                      ? lang_instance_setattr_h(vm, obj, iname(vm, t->u.attr.name),
                                                t->u.attr.name->hash, v)
                      : lang_setattr(vm, obj, t->u.attr.name->str, v);
        lang_val_release(obj);
        return ok || fail_at(vm, f, t);
    }
    case LANG_EX_SUBSCRIPT: {
        lang_val obj, key;
        if (!eval_subscript(vm, f, t, &obj, &key)) return false;
        bool ok = lang_setitem(vm, obj, key, v);
        lang_val_release(obj);
        lang_val_release(key);
        return ok || fail_at(vm, f, t);
    }
    case LANG_EX_TUPLE:
    case LANG_EX_LIST: return assign_seq(vm, f, t, v) || fail_at(vm, f, t);
    case LANG_EX_STARRED:
        lang_raise(vm, LANG_ERR_SYNTAX, "starred assignment target must be in a list or tuple");
        return fail_at(vm, f, t);
    default:
        lang_raise(vm, LANG_ERR_SYNTAX, "cannot assign to expression");
        return fail_at(vm, f, t);
    }
}

/* ---- calls ---- */

static void list_names(lang_buf *b, const char **names, int n) {
    for (int i = 0; i < n; i++) {
        if (i) lang_buf_puts(b, n == 2 ? " and " : (i == n - 1 ? ", and " : ", "));
        lang_buf_printf(b, "'%s'", names[i]);
    }
}

static bool bind_args(lang_vm *vm, func_obj *fo, lang_frame *fr, const lang_args *a) {
    lang_func *fn = fo->fn;
    /* The common call: every parameter positional, given positionally. */
    if (a->nkw == 0 && a->n == fn->npos && fn->nparams == fn->npos) {
        for (int i = 0; i < a->n; i++) fr->slots[fn->params[i].slot] = lang_val_retain(a->pos[i]);
        return true;
    }
    const char *fname = fn->name->str;
    int npos = fn->npos;
    int np = a->n < npos ? a->n : npos;
    for (int i = 0; i < np; i++) fr->slots[fn->params[i].slot] = lang_val_retain(a->pos[i]);
    if (a->n > npos) {
        if (fn->vararg < 0) {
            int ndef = 0;
            for (int i = 0; i < npos; i++) ndef += fn->params[i].def != NULL;
            if (ndef)
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%s() takes from %d to %d positional arguments but %d were given",
                                  fname, npos - ndef, npos, a->n);
            return lang_raise(vm, LANG_ERR_TYPE,
                              "%s() takes %d positional argument%s but %d %s given", fname, npos,
                              npos == 1 ? "" : "s", a->n, a->n == 1 ? "was" : "were");
        }
    }
    if (fn->vararg >= 0) {
        lang_val t;
        int extra = a->n > npos ? a->n - npos : 0;
        if (!lang_tuple_pack(vm, extra, a->pos + np, &t)) return false;
        fr->slots[fn->params[fn->vararg].slot] = t;
    }
    lang_val kwd = lang_none();
    if (fn->varkw >= 0) {
        if (!lang_dict_new(vm, &kwd)) return false;
        fr->slots[fn->params[fn->varkw].slot] = kwd;
    }
    for (int k = 0; k < a->nkw; k++) {
        const char *kn = a->kwnames[k];
        int j = -1;
        for (int i = 0; i < fn->nparams; i++) {
            lang_param *p = &fn->params[i];
            if ((p->kind == LANG_PARAM_POS || p->kind == LANG_PARAM_KWONLY) &&
                !strcmp(p->name->str, kn)) {
                j = i;
                break;
            }
        }
        if (j < 0) {
            if (fn->varkw < 0)
                return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                                  fname, kn);
            lang_val key;
            if (!lang_str_from_cstr(vm, kn, &key)) return false;
            bool ok = lang_dict_set(vm, kwd, key, a->kw[k]);
            lang_val_release(key);
            if (!ok) return false;
            continue;
        }
        lang_val *slot = &fr->slots[fn->params[j].slot];
        if (!is_unset(*slot))
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got multiple values for argument '%s'",
                              fname, kn);
        *slot = lang_val_retain(a->kw[k]);
    }
    const char *missing[64];
    int nmiss = 0;
    bool kwonly_missing = false;
    for (int pass = 0; pass < 2 && !nmiss; pass++) {
        for (int i = 0; i < fn->nparams; i++) {
            lang_param *p = &fn->params[i];
            if (p->kind != (pass == 0 ? LANG_PARAM_POS : LANG_PARAM_KWONLY)) continue;
            lang_val *slot = &fr->slots[p->slot];
            if (!is_unset(*slot)) continue;
            if (fo->defaults && !is_unset(fo->defaults[i])) {
                *slot = lang_val_retain(fo->defaults[i]);
            } else if (nmiss < 64) {
                missing[nmiss++] = p->name->str;
                kwonly_missing = pass == 1;
            }
        }
    }
    if (nmiss) {
        lang_buf b;
        lang_buf_init(&b);
        list_names(&b, missing, nmiss);
        lang_raise(vm, LANG_ERR_TYPE, "%s() missing %d required %s argument%s: %s", fname, nmiss,
                   kwonly_missing ? "keyword-only" : "positional", nmiss == 1 ? "" : "s",
                   b.data ? b.data : "");
        lang_buf_free(&b);
        return false;
    }
    return true;
}

/* The call returned: free the frame, or keep it for the closures that hold it. */
static void frame_done(lang_vm *vm, lang_frame *f) {
    if (f->refcount > 1 && !f->captured) {
        capt_list *cl = (capt_list *)vm->frame_list;
        f->captured = true;
        f->prev_capt = &cl->head;
        f->next_capt = cl->head.next_capt;
        if (f->next_capt) f->next_capt->prev_capt = f;
        cl->head.next_capt = f;
    }
    frame_release(f);
}

static bool call_user(lang_vm *vm, func_obj *fo, const lang_args *a, lang_val *out) {
    lang_func *fn = fo->fn;
    if (vm->depth >= vm->max_depth)
        return lang_raise(vm, LANG_ERR_RECURSION, "maximum recursion depth exceeded");
    lang_frame *fr = frame_new(vm, fn->scope.nslots, fo->parent, fo->mod, fn->name->str, fo->file);
    if (!fr) return false;
    fr->owner = fo->owner;
    fr->ns = fo->ns;
    if (!bind_args(vm, fo, fr, a)) {
        frame_done(vm, fr);
        return false;
    }
    if (fn->is_generator) return gen_new(vm, fo, fr, NULL, unset_val(), out);
    const char *file = vm->file;
    int line = vm->line;
    lang_frame *caller = vm->frame;
    fr->caller = caller;
    fr->call_line = line;
    vm->frame = fr;
    vm->file = fo->file;
    vm->depth++;
    bool ok;
    if (fn->expr) {
        ok = eval(vm, fr, fn->expr, out);
    } else {
        xstat r = exec_block(vm, fr, &fn->body);
        ok = r != XS_ERR;
        if (r == XS_RETURN) {
            *out = fr->ret;
            fr->ret = lang_none();
        } else if (ok) {
            *out = lang_none();
        }
    }
    vm->depth--;
    vm->frame = caller;
    vm->file = file;
    vm->line = line;
    vm->ctx->label.file = file;
    vm->ctx->label.line = line;
    frame_done(vm, fr);
    return ok;
}

static bool func_call(lang_vm *vm, lang_obj *o, const lang_args *a, lang_val *out) {
    return call_user(vm, (func_obj *)o, a, out);
}

/* Evaluate the arguments of a call into [pos]/[kw] (new references). */
typedef struct argv_buf {
    lang_val *pos, *kw;
    const char **kwnames;
    int n, nkw, cap, capkw;
    lang_val spos[8], skw[4];
    const char *skwn[4];
    lang_val kwname_strs; /* list keeping **kwargs key strings alive */
} argv_buf;

static bool argv_push(lang_vm *vm, argv_buf *b, lang_val v) {
    if (b->n == b->cap) {
        int cap = b->cap * 2;
        lang_val *p = b->pos == b->spos ? malloc(sizeof *p * (size_t)cap)
                                        : realloc(b->pos, sizeof *p * (size_t)cap);
        if (!p) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        if (b->pos == b->spos) memcpy(p, b->spos, sizeof b->spos);
        b->pos = p;
        b->cap = cap;
    }
    b->pos[b->n++] = v;
    return true;
}

static bool argv_push_kw(lang_vm *vm, argv_buf *b, const char *name, lang_val v) {
    for (int i = 0; i < b->nkw; i++)
        if (!strcmp(b->kwnames[i], name)) {
            lang_val_release(v);
            return lang_raise(vm, LANG_ERR_TYPE, "got multiple values for keyword argument '%s'",
                              name);
        }
    if (b->nkw == b->capkw) {
        int cap = b->capkw * 2;
        lang_val *p = malloc(sizeof *p * (size_t)cap);
        const char **q = malloc(sizeof *q * (size_t)cap);
        if (!p || !q) {
            free(p);
            free(q);
            lang_val_release(v);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
        memcpy(p, b->kw, sizeof *p * (size_t)b->nkw);
        memcpy(q, b->kwnames, sizeof *q * (size_t)b->nkw);
        if (b->kw != b->skw) free(b->kw);
        if (b->kwnames != b->skwn) free(b->kwnames);
        b->kw = p;
        b->kwnames = q;
        b->capkw = cap;
    }
    b->kw[b->nkw] = v;
    b->kwnames[b->nkw++] = name;
    return true;
}

static void argv_free(argv_buf *b) {
    for (int i = 0; i < b->n; i++) lang_val_release(b->pos[i]);
    for (int i = 0; i < b->nkw; i++) lang_val_release(b->kw[i]);
    if (b->pos != b->spos) free(b->pos);
    if (b->kw != b->skw) free(b->kw);
    if (b->kwnames != b->skwn) free(b->kwnames);
    lang_val_release(b->kwname_strs);
}

static bool eval_args(lang_vm *vm, lang_frame *f, const lang_expr *e, argv_buf *b) {
    memset(b, 0, sizeof *b);
    b->pos = b->spos;
    b->kw = b->skw;
    b->kwnames = b->skwn;
    b->cap = 8;
    b->capkw = 4;
    b->kwname_strs = lang_none();
    for (int i = 0; i < e->u.call.nargs; i++) {
        const lang_arg *arg = &e->u.call.args[i];
        lang_val v;
        if (!eval(vm, f, arg->value, &v)) return false;
        switch (arg->kind) {
        case LANG_ARG_POS:
            if (!argv_push(vm, b, v)) {
                lang_val_release(v);
                return false;
            }
            break;
        case LANG_ARG_KW:
            if (!argv_push_kw(vm, b, arg->name->str, v)) return false;
            break;
        case LANG_ARG_STAR: {
            lang_val list;
            bool ok = v.kind == LANG_OBJ && v.u.o->type->iter
                          ? lang_list_from_iter(vm, v, &list)
                          : lang_raise(vm, LANG_ERR_TYPE,
                                       "%s() argument after * must be an iterable, not %s",
                                       "function", lang_type_name(v));
            lang_val_release(v);
            if (!ok) return false;
            for (int64_t k = 0; ok && k < lang_seq_len(list); k++)
                ok = argv_push(vm, b, lang_val_retain(lang_seq_items(list)[k]));
            lang_val_release(list);
            if (!ok) return false;
            break;
        }
        case LANG_ARG_STARSTAR: {
            if (!lang_is_obj(v, &lang_dict_type)) {
                lang_raise(vm, LANG_ERR_TYPE, "argument after ** must be a mapping, not %s",
                           lang_type_name(v));
                lang_val_release(v);
                return false;
            }
            if (b->kwname_strs.kind == LANG_NONE && !lang_list_new(vm, 0, &b->kwname_strs)) {
                lang_val_release(v);
                return false;
            }
            lang_dict_obj *d = (lang_dict_obj *)v.u.o;
            bool ok = true;
            for (int64_t k = 0; ok && k < d->nent; k++) {
                if (!d->entries[k].live) continue;
                lang_val key = d->entries[k].key;
                if (!lang_is_obj(key, &lang_str_type)) {
                    ok = lang_raise(vm, LANG_ERR_TYPE, "keywords must be strings");
                    break;
                }
                ok = lang_list_append(vm, b->kwname_strs, key) &&
                     argv_push_kw(vm, b, lang_str_cstr(key), lang_val_retain(d->entries[k].value));
            }
            lang_val_release(v);
            if (!ok) return false;
            break;
        }
        }
    }
    return true;
}

/* obj.method(args) on an instance whose class defines method: call the
 * function with obj first, without making a bound-method object. */
static bool eval_method_call(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val obj,
                             lang_val fn, lang_val *out) {
    int np = e->u.call.npos;
    if (np == e->u.call.nargs && np < 8) {
        /* Positional arguments only: evaluated straight after self. */
        lang_val pos[8];
        pos[0] = obj;
        for (int i = 0; i < np; i++)
            if (!eval(vm, f, e->u.call.args[i].value, &pos[i + 1])) {
                for (int j = 1; j <= i; j++) lang_val_release(pos[j]);
                return false;
            }
        lang_args a = {np + 1, pos, 0, NULL, NULL};
        const lang_expr *saved_callee = vm->callee;
        vm->callee = e->u.call.func;
        bool ok = call_user(vm, (func_obj *)fn.u.o, &a, out);
        vm->callee = saved_callee;
        for (int j = 1; j <= np; j++) lang_val_release(pos[j]);
        return ok;
    }
    argv_buf b;
    bool ok = eval_args(vm, f, e, &b);
    if (ok) {
        lang_val spos[9];
        lang_val *pos = b.n < 8 ? spos : malloc(sizeof *pos * (size_t)(b.n + 1));
        if (!pos) {
            argv_free(&b);
            return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        }
        pos[0] = obj;
        memcpy(pos + 1, b.pos, sizeof *pos * (size_t)b.n);
        lang_args a = {b.n + 1, pos, b.nkw, b.kwnames, b.kw};
        const lang_expr *saved_callee = vm->callee;
        vm->callee = e->u.call.func;
        ok = call_user(vm, (func_obj *)fn.u.o, &a, out);
        vm->callee = saved_callee;
        if (pos != spos) free(pos);
    }
    argv_free(&b);
    return ok;
}

static bool eval_call(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out) {
    lang_val fn;
    const lang_expr *fe = e->u.call.func;
    if (fe->kind == LANG_EX_ATTR) {
        lang_val obj, m;
        if (!eval(vm, f, fe->u.attr.value, &obj)) return false;
        if (lang_is_instance(obj) &&
            lang_instance_method(obj, iname(vm, fe->u.attr.name), fe->u.attr.name->hash, &m)) {
            m = lang_val_retain(m);
            bool ok = eval_method_call(vm, f, e, obj, m, out);
            lang_val_release(m);
            lang_val_release(obj);
            return ok;
        }
        bool ok = lang_is_instance(obj)
                      ? lang_instance_getattr_h(vm, obj, iname(vm, fe->u.attr.name),
                                                fe->u.attr.name->hash, &fn)
                      : lang_getattr(vm, obj, fe->u.attr.name->str, &fn);
        if (!ok && vm->err == LANG_ERR_ATTRIBUTE) lang_suggest_attr(vm, obj, fe->u.attr.name->str);
        lang_val_release(obj);
        if (!ok) {
            locate(vm, f, fe->span);
            return false;
        }
    } else if (!eval(vm, f, fe, &fn)) {
        return false;
    }
    argv_buf b;
    bool ok = eval_args(vm, f, e, &b);
    if (ok) {
        lang_args a = {b.n, b.pos, b.nkw, b.kwnames, b.kw};
        const lang_expr *saved_callee = vm->callee, *saved_op = vm->op_expr;
        vm->callee = e->u.call.func;
        vm->op_expr = e;
        if (lang_is_obj(fn, &lang_func_type))
            ok = call_user(vm, (func_obj *)fn.u.o, &a, out);
        else if (fn.kind == LANG_OBJ && fn.u.o->type->call)
            ok = fn.u.o->type->call(vm, fn.u.o, &a, out);
        else
            ok = lang_raise(vm, LANG_ERR_TYPE, "'%s' object is not callable", lang_type_name(fn));
        vm->callee = saved_callee;
        vm->op_expr = saved_op;
    }
    argv_free(&b);
    lang_val_release(fn);
    return ok;
}

static bool make_function(lang_vm *vm, lang_frame *f, lang_func *fn, int line, lang_val *out) {
    func_obj *fo = lang_obj_new(vm, &lang_func_type, sizeof *fo);
    if (!fo) return false;
    fo->fn = fn;
    fo->mod = f->mod;
    lang_module_retain(f->mod);
    /* A class body's names are not visible to its methods (Python's class
     * scope): they close over the frame around the class statement. */
    fo->parent = f->is_class ? f->parent : f;
    if (fo->parent) fo->parent->refcount++;
    fo->file = f->file;
    fo->line = line;
    fo->ns = f->ns;
    if (fo->ns && fo->ns->owner) lang_val_retain(lang_obj_val(fo->ns->owner));
    *out = lang_obj_val(&fo->hdr);
    bool any = false;
    for (int i = 0; i < fn->nparams; i++) any |= fn->params[i].def != NULL;
    if (!any) return true;
    fo->defaults = malloc(sizeof(lang_val) * (size_t)fn->nparams);
    if (!fo->defaults) {
        lang_val_release(*out);
        return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    }
    for (int i = 0; i < fn->nparams; i++) fo->defaults[i] = unset_val();
    for (int i = 0; i < fn->nparams; i++) {
        if (!fn->params[i].def) continue;
        if (!eval(vm, f, fn->params[i].def, &fo->defaults[i])) {
            fo->defaults[i] = unset_val();
            lang_val_release(*out);
            return false;
        }
    }
    return true;
}

/* ---- comprehensions ---- */

static bool gen_yield(lang_vm *vm, lang_val v, lang_val *sent);

/* Run clause [ci] onwards; a genexp yields each item, the others add it to
 * [acc]. [it0], when set, is the iterator of the first clause, made when
 * the generator expression was evaluated (as Python does). */
static bool comp_run(lang_vm *vm, lang_frame *f, const lang_expr *e, int ci, lang_val acc,
                     lang_val it0) {
    if (ci == e->u.comp.n) {
        lang_val v;
        if (!eval(vm, f, e->u.comp.elt, &v)) return false;
        bool ok;
        if (e->kind == LANG_EX_GENEXP) {
            lang_val sent;
            ok = gen_yield(vm, v, &sent);
            if (ok) lang_val_release(sent);
            return ok;
        }
        if (e->kind == LANG_EX_DICTCOMP) {
            lang_val k;
            if (!eval(vm, f, e->u.comp.key, &k)) {
                lang_val_release(v);
                return false;
            }
            ok = lang_dict_set(vm, acc, k, v) || fail_at(vm, f, e->u.comp.key);
            lang_val_release(k);
        } else if (e->kind == LANG_EX_SETCOMP) {
            ok = lang_set_add(vm, acc, v) || fail_at(vm, f, e->u.comp.elt);
        } else {
            ok = lang_list_append(vm, acc, v);
        }
        lang_val_release(v);
        return ok;
    }
    const lang_comp_clause *c = &e->u.comp.clauses[ci];
    if (c->is_if) {
        lang_val v;
        bool t;
        if (!eval(vm, f, c->iter, &v)) return false;
        bool ok = lang_truth(vm, v, &t);
        lang_val_release(v);
        if (!ok) return fail_at(vm, f, c->iter);
        return t ? comp_run(vm, f, e, ci + 1, acc, unset_val()) : true;
    }
    lang_val src, it;
    bool ok = true;
    if (!is_unset(it0)) {
        it = lang_val_retain(it0);
    } else {
        if (!eval(vm, f, c->iter, &src)) return false;
        ok = lang_iter(vm, src, &it);
        lang_val_release(src);
        if (!ok) return fail_at(vm, f, c->iter);
    }
    for (;;) {
        lang_val item;
        bool done;
        if (interrupt_pending(vm)) {
            ok = raise_interrupt(vm);
            break;
        }
        if (!lang_next(vm, it, &item, &done)) {
            ok = fail_at(vm, f, c->iter);
            break;
        }
        if (done) break;
        ok = assign(vm, f, c->target, item);
        lang_val_release(item);
        if (ok) ok = comp_run(vm, f, e, ci + 1, acc, unset_val());
        if (!ok) break;
    }
    lang_val_release(it);
    return ok;
}

/* ------------------------------------------------------------------ generators */

/* A generator: a def whose body yields, or a generator expression. Its
 * body runs on a coroutine (lang_coro.h) of its own, so the C frames of
 * the loops and calls around a `yield` stay as they are while it is
 * suspended; the language frame keeps its locals. What the VM tracks per
 * running code (frame, line, call depth, expression depth, the exception
 * being handled) is swapped on every resume and yield. */
typedef enum gen_state { GEN_CREATED, GEN_SUSPENDED, GEN_RUNNING, GEN_DONE } gen_state;

typedef struct gen_obj {
    lang_obj hdr;
    lang_vm *vm;
    lang_coro *co;           /* from the first resume until the body ends */
    func_obj *fo;            /* a def's generator: the function (retained), else NULL */
    lang_frame *frame;       /* the frame the body runs in (retained) */
    const lang_expr *genexp; /* a generator expression, else NULL */
    lang_val it0;            /* genexp: the first clause's iterator */
    lang_val transfer;       /* the value yielded out, or sent in */
    lang_val result;         /* what the body returned */
    gen_state state;
    bool ok;      /* the body ended without an error */
    bool closing; /* close(): the yield raises GeneratorExit */
    const char *file;
    int line;
    int edepth, depth_in, base;
    saved_err *handling;
    struct gen_obj *prev, *next; /* the VM's started generators */
} gen_obj;

static bool gen_resume(lang_vm *vm, gen_obj *g, lang_val send, lang_val *out, bool *done);

static void gen_unlink(lang_vm *vm, gen_obj *g) {
    if (g->prev)
        g->prev->next = g->next;
    else if (vm->gens == g)
        vm->gens = g->next;
    if (g->next) g->next->prev = g->prev;
    g->prev = g->next = NULL;
}

/* The body ended (or never ran): drop the frame and the stack now, as
 * Python clears a finished generator's frame. */
static void gen_finish(lang_vm *vm, gen_obj *g) {
    g->state = GEN_DONE;
    gen_unlink(vm, g);
    if (g->co) lang_coro_free(g->co);
    g->co = NULL;
    if (g->frame) {
        if (g->fo)
            frame_done(vm, g->frame);
        else
            frame_release(g->frame);
    }
    g->frame = NULL;
    slot_release(g->it0);
    g->it0 = unset_val();
    lang_val_release(g->transfer);
    g->transfer = lang_none();
}

/* close(): GeneratorExit at the yield, so finally blocks run. False with
 * an error when the body raised something else or yielded again. */
static bool gen_close(lang_vm *vm, gen_obj *g) {
    if (g->state == GEN_CREATED) {
        gen_finish(vm, g);
        return true;
    }
    if (g->state != GEN_SUSPENDED) return true;
    g->closing = true;
    lang_val v = lang_none();
    bool done;
    if (!gen_resume(vm, g, lang_none(), &v, &done)) {
        if (vm->ename &&
            (!strcmp(vm->ename, "GeneratorExit") || !strcmp(vm->ename, "StopIteration"))) {
            lang_vm_clear_error(vm);
            return true;
        }
        return false;
    }
    if (done) return true;
    lang_val_release(v);
    return lang_raise(vm, LANG_ERR_RUNTIME, "generator ignored GeneratorExit");
}

static void gen_free(lang_obj *o) {
    gen_obj *g = (gen_obj *)o;
    lang_vm *vm = g->vm;
    if (g->state == GEN_SUSPENDED) {
        /* Unwind the body (its finally blocks, the references its C frames
         * hold) without disturbing an error that is pending now. */
        saved_err se;
        err_save(vm, &se);
        o->refcount++; /* alive while the body unwinds */
        bool ok = gen_close(vm, g);
        o->refcount--;
        (void)ok;
        err_restore(vm, &se);
        if (g->state != GEN_DONE) { /* it yielded again: its stack cannot be unwound */
            gen_unlink(vm, g);
            g->co = NULL;
            g->frame = NULL;
        }
    }
    if (g->state != GEN_DONE) gen_finish(vm, g);
    if (g->fo) lang_val_release(lang_obj_val(&g->fo->hdr));
    lang_val_release(g->result);
}

static void gen_body(void *arg) {
    gen_obj *g = arg;
    lang_vm *vm = g->vm;
    lang_val_release(g->transfer); /* what the first resume sent: None */
    g->transfer = lang_none();
    bool ok;
    if (g->genexp) {
        ok = comp_run(vm, g->frame, g->genexp, 0, lang_none(), g->it0);
    } else if (g->fo->fn->expr) { /* a lambda that yields */
        lang_val v;
        ok = eval(vm, g->frame, g->fo->fn->expr, &v);
        if (ok) lang_val_release(v);
    } else {
        xstat r = exec_block(vm, g->frame, &g->fo->fn->body);
        ok = r != XS_ERR;
        if (r == XS_RETURN) {
            g->result = g->frame->ret;
            g->frame->ret = lang_none();
        }
    }
    if (!ok && vm->ename && !strcmp(vm->ename, "StopIteration") && !g->closing) {
        /* PEP 479: a StopIteration escaping the body is a RuntimeError. */
        vm->ename = NULL;
        vm->err = LANG_ERR_RUNTIME;
        lang_val_release(vm->exc);
        vm->exc = lang_none();
        vm->msg.len = 0;
        lang_buf_puts(&vm->msg, "generator raised StopIteration");
    }
    g->ok = ok;
}

static bool gen_resume(lang_vm *vm, gen_obj *g, lang_val send, lang_val *out, bool *done) {
    *done = false;
    if (g->state == GEN_RUNNING)
        return lang_raise(vm, LANG_ERR_VALUE, "generator already executing");
    if (g->state == GEN_DONE) {
        *done = true;
        return true;
    }
    if (g->state == GEN_CREATED) {
        if (send.kind != LANG_NONE)
            return lang_raise(vm, LANG_ERR_TYPE,
                              "can't send non-None value to a just-started generator");
        g->co = lang_coro_new(gen_body, g);
        if (!g->co) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory for a generator's stack");
        g->next = vm->gens;
        if (g->next) g->next->prev = g;
        vm->gens = g;
    }
    if (vm->depth >= vm->max_depth)
        return lang_raise(vm, LANG_ERR_RECURSION, "maximum recursion depth exceeded");
    lang_frame *frame = vm->frame;
    const char *file = vm->file, *label_module = vm->label_module;
    int line = vm->line, depth = vm->depth, edepth = vm->edepth;
    saved_err *handling = vm->handling;
    gen_obj *outer = vm->gen;
    const lang_expr *callee = vm->callee, *op_expr = vm->op_expr;

    g->transfer = lang_val_retain(send);
    g->base = depth + 1;
    vm->depth = g->base + g->depth_in;
    vm->edepth = g->edepth;
    vm->handling = g->handling;
    vm->gen = g;
    if (g->file) vm->file = g->file;
    vm->line = g->line;
    if (g->fo) {
        g->frame->caller = frame;
        g->frame->call_line = line;
        vm->frame = g->frame;
    }
    g->state = GEN_RUNNING;
    lang_coro_resume(g->co);

    vm->frame = frame;
    vm->file = file;
    vm->line = line;
    vm->depth = depth;
    vm->edepth = edepth;
    vm->handling = handling;
    vm->gen = outer;
    vm->callee = callee;
    vm->op_expr = op_expr;
    vm->label_module = label_module;
    vm->ctx->label.file = file;
    vm->ctx->label.line = line;
    if (lang_coro_done(g->co)) {
        gen_finish(vm, g);
        if (!g->ok) return false;
        *done = true;
        return true;
    }
    *out = g->transfer;
    g->transfer = lang_none();
    return true;
}

/* Inside a generator's body: hand [v] (taken) to the resumer; *sent is
 * what the next resume sends (None for next()). */
static bool gen_yield(lang_vm *vm, lang_val v, lang_val *sent) {
    gen_obj *g = vm->gen;
    if (!g || g->state != GEN_RUNNING) {
        lang_val_release(v);
        return lang_raise(vm, LANG_ERR_RUNTIME, "'yield' outside a running generator");
    }
    g->transfer = v;
    g->state = GEN_SUSPENDED;
    g->edepth = vm->edepth;
    g->depth_in = vm->depth - g->base;
    g->handling = vm->handling;
    g->file = vm->file;
    g->line = vm->line;
    lang_coro_suspend(g->co);
    if (g->closing) return lang_raise_named(vm, LANG_ERR_RUNTIME, "GeneratorExit", "%s", "");
    *sent = g->transfer;
    g->transfer = lang_none();
    return true;
}

/* `yield from it`: yield each of its items; the value is what a generator
 * returned (None for other iterables). Sent values go to a generator. */
static bool yield_from(lang_vm *vm, lang_val src, lang_val *out) {
    if (lang_is_obj(src, &lang_gen_type)) {
        gen_obj *inner = (gen_obj *)src.u.o;
        lang_val send = lang_none();
        for (;;) {
            lang_val v;
            bool done;
            bool ok = gen_resume(vm, inner, send, &v, &done);
            lang_val_release(send);
            send = lang_none();
            if (!ok) return false;
            if (done) {
                *out = lang_val_retain(inner->result);
                return true;
            }
            if (!gen_yield(vm, v, &send)) {
                if (vm->ename && !strcmp(vm->ename, "GeneratorExit")) {
                    saved_err se;
                    err_save(vm, &se);
                    bool cok = gen_close(vm, inner);
                    if (!cok) {
                        err_discard(vm, &se);
                        return false;
                    }
                    err_restore(vm, &se);
                }
                return false;
            }
        }
    }
    lang_val it;
    if (!lang_iter(vm, src, &it)) return false;
    for (;;) {
        lang_val v, sent;
        bool done;
        if (!lang_next(vm, it, &v, &done)) break;
        if (done) {
            lang_val_release(it);
            *out = lang_none();
            return true;
        }
        if (!gen_yield(vm, v, &sent)) break;
        lang_val_release(sent);
    }
    lang_val_release(it);
    return false;
}

/* [fr] (taken) is the frame of a call to the generator function [fo];
 * a genexp passes [genexp] with the frame it runs in (retained here) and
 * its first iterator [it0] (retained). */
static bool gen_new(lang_vm *vm, func_obj *fo, lang_frame *fr, const lang_expr *genexp,
                    lang_val it0, lang_val *out) {
    gen_obj *g = lang_obj_new(vm, &lang_gen_type, sizeof *g);
    if (!g) {
        if (fo) frame_done(vm, fr);
        return false;
    }
    g->vm = vm;
    g->fo = fo;
    if (fo) lang_val_retain(lang_obj_val(&fo->hdr));
    g->frame = fr;
    if (!fo) fr->refcount++;
    g->genexp = genexp;
    g->it0 = is_unset(it0) ? it0 : lang_val_retain(it0);
    g->transfer = lang_none();
    g->result = lang_none();
    g->file = fo ? fo->file : vm->file;
    g->line = fo ? fo->line : vm->line;
    g->state = GEN_CREATED;
    *out = lang_obj_val(&g->hdr);
    return true;
}

static bool genexp_new(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out) {
    const lang_comp_clause *c = &e->u.comp.clauses[0];
    lang_val src, it;
    if (!eval(vm, f, c->iter, &src)) return false;
    bool ok = lang_iter(vm, src, &it);
    lang_val_release(src);
    if (!ok) return fail_at(vm, f, c->iter);
    ok = gen_new(vm, NULL, f, e, it, out);
    lang_val_release(it);
    return ok;
}

/* Python's qualified name: "f", "Loader.__iter__", "<genexpr>". */
static void gen_name(gen_obj *g, lang_buf *out) {
    if (!g->fo) {
        lang_buf_puts(out, "<genexpr>");
        return;
    }
    if (g->fo->owner && lang_is_class(lang_obj_val(g->fo->owner)))
        lang_buf_printf(out, "%s.", lang_class_of_val(lang_obj_val(g->fo->owner))->name);
    lang_buf_puts(out, g->fo->fn->name->str);
}

static bool gen_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    lang_buf_puts(out, "<generator object ");
    gen_name((gen_obj *)o, out);
    lang_buf_printf(out, " at %p>", (void *)o);
    return true;
}

static bool gen_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    *out = lang_val_retain(lang_obj_val(o));
    return true;
}

static bool gen_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    return gen_resume(vm, (gen_obj *)o, lang_none(), out, done);
}

static bool stop_iteration(lang_vm *vm, gen_obj *g) {
    if (g->result.kind == LANG_NONE)
        return lang_raise_named(vm, LANG_ERR_RUNTIME, "StopIteration", "%s", "");
    lang_buf b;
    lang_buf_init(&b);
    bool ok = lang_str(vm, g->result, &b);
    if (ok) lang_raise_named(vm, LANG_ERR_RUNTIME, "StopIteration", "%s", b.data ? b.data : "");
    lang_buf_free(&b);
    return false;
}

static bool gm_next(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    bool done;
    if (!lang_parse_args(vm, a, "__next__", "")) return false;
    if (!gen_resume(vm, (gen_obj *)self.u.o, lang_none(), out, &done)) return false;
    return done ? stop_iteration(vm, (gen_obj *)self.u.o) : true;
}

static bool gm_send(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val v;
    bool done;
    if (!lang_parse_args(vm, a, "send", "value", &v)) return false;
    if (!gen_resume(vm, (gen_obj *)self.u.o, v, out, &done)) return false;
    return done ? stop_iteration(vm, (gen_obj *)self.u.o) : true;
}

static bool gm_close(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "close", "")) return false;
    *out = lang_none();
    return gen_close(vm, (gen_obj *)self.u.o);
}

static bool gm_iter(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    if (!lang_parse_args(vm, a, "__iter__", "")) return false;
    *out = lang_val_retain(self);
    return true;
}

static const lang_method gen_methods[] = {
    {"__next__", gm_next, {"generator.__next__", "__next__()", "The next value (next(g)).", NULL}},
    {"__iter__", gm_iter, {"generator.__iter__", "__iter__()", "The generator itself.", NULL}},
    {"send",
     gm_send,
     {"generator.send", "send(value)",
      "Resume the generator; the paused yield evaluates to value. Returns the next value.", NULL}},
    {"close",
     gm_close,
     {"generator.close", "close()",
      "Raise GeneratorExit at the paused yield, so its finally blocks run.", NULL}},
    {NULL, NULL, {0}},
};

static bool gen_getattr(lang_vm *vm, lang_obj *o, const char *name, lang_val *out, bool *found) {
    gen_obj *g = (gen_obj *)o;
    *found = false;
    if (!strcmp(name, "__name__") || !strcmp(name, "__qualname__")) {
        *found = true;
        lang_buf b;
        lang_buf_init(&b);
        if (strcmp(name, "__name__") || !g->fo)
            gen_name(g, &b);
        else
            lang_buf_puts(&b, g->fo->fn->name->str);
        if (!strcmp(name, "__name__") && g->fo) {
            b.len = 0;
            lang_buf_puts(&b, g->fo->fn->name->str);
        }
        bool ok = lang_str_from_cstr(vm, b.data ? b.data : "", out);
        lang_buf_free(&b);
        return ok;
    }
    if (!strcmp(name, "gi_running")) {
        *found = true;
        *out = lang_bool(g->state == GEN_RUNNING);
        return true;
    }
    return true;
}

const lang_type lang_gen_type = {
    .name = "generator",
    .free = gen_free,
    .repr = gen_repr,
    .getattr = gen_getattr,
    .iter = gen_iter,
    .next = gen_next,
    .methods = gen_methods,
};

/* The session ends: close every suspended generator while the VM is whole. */
static void gen_close_all(lang_vm *vm) {
    while (vm->gens) {
        gen_obj *g = vm->gens;
        g->hdr.refcount++;
        saved_err se;
        err_save(vm, &se);
        if (!gen_close(vm, g) || g->state != GEN_DONE) {
            lang_vm_clear_error(vm);
            if (vm->gens == g) gen_unlink(vm, g);
        }
        err_restore(vm, &se);
        lang_val_release(lang_obj_val(&g->hdr));
    }
}

/* ---- f-strings ---- */

static bool eval_fstring(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_buf *out) {
    for (int i = 0; i < e->u.fstr.n; i++) {
        const lang_fpart *p = &e->u.fstr.parts[i];
        if (!p->expr) {
            lang_buf_add(out, p->text, p->len);
            continue;
        }
        if (p->debug) lang_buf_puts(out, p->debug);
        lang_val v;
        if (!eval(vm, f, p->expr, &v)) return false;
        lang_buf spec;
        lang_buf_init(&spec);
        bool ok = true;
        if (p->spec) ok = eval_fstring(vm, f, p->spec, &spec);
        char conv = p->conv;
        if (!conv && p->debug && !p->spec) conv = 'r';
        if (ok && conv) {
            lang_buf tmp;
            lang_buf_init(&tmp);
            ok = conv == 's' ? lang_str(vm, v, &tmp) : lang_repr(vm, v, &tmp);
            if (ok) {
                lang_val sv;
                ok = lang_str_new(vm, tmp.data ? tmp.data : "", tmp.len, &sv);
                if (ok) {
                    lang_val_release(v);
                    v = sv;
                }
            }
            lang_buf_free(&tmp);
        }
        if (ok) ok = lang_format_value(vm, v, spec.data ? spec.data : "", spec.len, out);
        lang_buf_free(&spec);
        lang_val_release(v);
        if (!ok) return fail_at(vm, f, p->expr);
    }
    return true;
}

/* ---- operators ---- */

static bool compare(lang_vm *vm, lang_cmpop op, lang_val a, lang_val b, lang_val *out) {
    switch (op) {
    case LANG_CMP_EQ: return lang_binary(vm, LANG_OP_EQ, a, b, out);
    case LANG_CMP_NE: return lang_binary(vm, LANG_OP_NE, a, b, out);
    case LANG_CMP_LT: return lang_binary(vm, LANG_OP_LT, a, b, out);
    case LANG_CMP_LE: return lang_binary(vm, LANG_OP_LE, a, b, out);
    case LANG_CMP_GT: return lang_binary(vm, LANG_OP_GT, a, b, out);
    case LANG_CMP_GE: return lang_binary(vm, LANG_OP_GE, a, b, out);
    case LANG_CMP_IN:
    case LANG_CMP_NOT_IN: {
        bool r;
        if (!lang_contains(vm, b, a, &r)) return false;
        *out = lang_bool(op == LANG_CMP_IN ? r : !r);
        return true;
    }
    case LANG_CMP_IS:
    case LANG_CMP_IS_NOT: {
        bool same = a.kind == b.kind;
        if (same) {
            switch (a.kind) {
            case LANG_NONE: break;
            case LANG_BOOL: same = a.u.b == b.u.b; break;
            case LANG_INT: same = a.u.i == b.u.i; break;
            case LANG_FLOAT: same = a.u.f == b.u.f; break;
            case LANG_OBJ: same = a.u.o == b.u.o; break;
            }
        }
        *out = lang_bool(op == LANG_CMP_IS ? same : !same);
        return true;
    }
    }
    return lang_raise(vm, LANG_ERR_RUNTIME, "bad comparison");
}

static bool eval_seq(lang_vm *vm, lang_frame *f, const lang_expr *e, bool tuple, lang_val *out) {
    int n = e->u.seq.n;
    bool starred = false;
    for (int i = 0; i < n; i++) starred |= e->u.seq.items[i]->kind == LANG_EX_STARRED;
    if (!starred) {
        if (!(tuple ? lang_tuple_new(vm, n, out) : lang_list_new(vm, n, out))) return false;
        lang_val *items = lang_seq_items(*out);
        for (int i = 0; i < n; i++) {
            if (!eval(vm, f, e->u.seq.items[i], &items[i])) {
                items[i] = lang_none();
                lang_val_release(*out);
                return false;
            }
        }
        return true;
    }
    lang_val list;
    if (!lang_list_new(vm, 0, &list)) return false;
    for (int i = 0; i < n; i++) {
        const lang_expr *it = e->u.seq.items[i];
        lang_val v;
        bool ok;
        if (it->kind == LANG_EX_STARRED) {
            if (!eval(vm, f, it->u.unary.operand, &v)) goto fail;
            lang_val more;
            ok = lang_list_from_iter(vm, v, &more);
            lang_val_release(v);
            if (!ok) {
                fail_at(vm, f, it);
                goto fail;
            }
            for (int64_t k = 0; ok && k < lang_seq_len(more); k++)
                ok = lang_list_append(vm, list, lang_seq_items(more)[k]);
            lang_val_release(more);
        } else {
            if (!eval(vm, f, it, &v)) goto fail;
            ok = lang_list_append(vm, list, v);
            lang_val_release(v);
        }
        if (!ok) goto fail;
    }
    if (!tuple) {
        *out = list;
        return true;
    }
    {
        bool ok = lang_tuple_pack(vm, (int)lang_seq_len(list), lang_seq_items(list), out);
        lang_val_release(list);
        return ok;
    }
fail:
    lang_val_release(list);
    return false;
}

static bool eval_inner(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out) {
    switch (e->kind) {
    case LANG_EX_INT: *out = lang_int(e->u.i); return true;
    case LANG_EX_FLOAT: *out = lang_float(e->u.f); return true;
    case LANG_EX_NONE: *out = lang_none(); return true;
    case LANG_EX_TRUE: *out = lang_bool(true); return true;
    case LANG_EX_FALSE: *out = lang_bool(false); return true;
    case LANG_EX_ELLIPSIS:
        ellipsis_obj.refcount++;
        *out = lang_obj_val(&ellipsis_obj);
        return true;
    case LANG_EX_STR: return lang_str_new(vm, e->u.str.s, e->u.str.len, out);
    case LANG_EX_FSTRING: {
        lang_buf b;
        lang_buf_init(&b);
        if (!eval_fstring(vm, f, e, &b)) {
            lang_buf_free(&b);
            return false;
        }
        bool ok = lang_str_new(vm, b.data ? b.data : "", b.len, out);
        lang_buf_free(&b);
        return ok;
    }
    case LANG_EX_NAME: return load_name(vm, f, e, out) || fail_at(vm, f, e);
    case LANG_EX_LIST: return eval_seq(vm, f, e, false, out);
    case LANG_EX_TUPLE: return eval_seq(vm, f, e, true, out);
    case LANG_EX_DICT: {
        if (!lang_dict_new(vm, out)) return false;
        for (int i = 0; i < e->u.dict.n; i++) {
            lang_val k, v;
            if (!e->u.dict.keys[i]) { /* {**other} */
                if (!eval(vm, f, e->u.dict.values[i], &v)) goto dict_fail;
                lang_args a = {1, &v, 0, NULL, NULL};
                extern bool lang_dict_update(lang_vm *, lang_val, const lang_args *);
                bool ok = lang_dict_update(vm, *out, &a);
                lang_val_release(v);
                if (!ok) goto dict_fail;
                continue;
            }
            if (!eval(vm, f, e->u.dict.keys[i], &k)) goto dict_fail;
            if (!eval(vm, f, e->u.dict.values[i], &v)) {
                lang_val_release(k);
                goto dict_fail;
            }
            bool ok = lang_dict_set(vm, *out, k, v);
            lang_val_release(k);
            lang_val_release(v);
            if (!ok) {
                fail_at(vm, f, e->u.dict.keys[i]);
                goto dict_fail;
            }
        }
        return true;
    dict_fail:
        lang_val_release(*out);
        return false;
    }
    case LANG_EX_SET: {
        if (!lang_set_new(vm, out)) return false;
        for (int i = 0; i < e->u.seq.n; i++) {
            lang_val v;
            if (!eval(vm, f, e->u.seq.items[i], &v)) {
                lang_val_release(*out);
                return false;
            }
            bool ok = lang_set_add(vm, *out, v);
            lang_val_release(v);
            if (!ok) {
                lang_val_release(*out);
                return fail_at(vm, f, e->u.seq.items[i]);
            }
        }
        return true;
    }
    case LANG_EX_GENEXP: return genexp_new(vm, f, e, out);
    case LANG_EX_YIELD: {
        lang_val v = lang_none();
        if (e->u.unary.operand && !eval(vm, f, e->u.unary.operand, &v)) return false;
        vm->line = e->span.start.line;
        return gen_yield(vm, v, out) || fail_at(vm, f, e);
    }
    case LANG_EX_YIELD_FROM: {
        lang_val v;
        if (!eval(vm, f, e->u.unary.operand, &v)) return false;
        bool ok = yield_from(vm, v, out);
        lang_val_release(v);
        return ok || fail_at(vm, f, e);
    }
    case LANG_EX_LISTCOMP:
    case LANG_EX_SETCOMP:
    case LANG_EX_DICTCOMP: {
        bool ok = e->kind == LANG_EX_DICTCOMP  ? lang_dict_new(vm, out)
                  : e->kind == LANG_EX_SETCOMP ? lang_set_new(vm, out)
                                               : lang_list_new(vm, 0, out);
        if (!ok) return false;
        if (!comp_run(vm, f, e, 0, *out, unset_val())) {
            lang_val_release(*out);
            return false;
        }
        return true;
    }
    case LANG_EX_SUBSCRIPT: {
        lang_val obj, key;
        if (!eval_subscript(vm, f, e, &obj, &key)) return false;
        bool ok;
        if (lang_is_obj(obj, &lang_list_type) && key.kind == LANG_INT) {
            int64_t n = lang_seq_len(obj), i = key.u.i < 0 ? key.u.i + n : key.u.i;
            if (i >= 0 && i < n) {
                *out = lang_val_retain(lang_seq_items(obj)[i]);
                lang_val_release(obj);
                return true;
            }
        }
        ok = lang_getitem(vm, obj, key, out);
        lang_val_release(obj);
        lang_val_release(key);
        return ok || fail_at(vm, f, e);
    }
    case LANG_EX_SLICE: {
        lang_val parts[3] = {lang_none(), lang_none(), lang_none()};
        const lang_expr *src[3] = {e->u.slice.lower, e->u.slice.upper, e->u.slice.step};
        for (int i = 0; i < 3; i++) {
            if (src[i] && !eval(vm, f, src[i], &parts[i])) {
                for (int k = 0; k < i; k++) lang_val_release(parts[k]);
                return false;
            }
        }
        bool ok = lang_slice_new(vm, parts[0], parts[1], parts[2], out);
        for (int i = 0; i < 3; i++) lang_val_release(parts[i]);
        return ok;
    }
    case LANG_EX_ATTR: {
        lang_val obj;
        if (!eval(vm, f, e->u.attr.value, &obj)) return false;
        bool ok = lang_is_instance(obj)
                      ? lang_instance_getattr_h(vm, obj, iname(vm, e->u.attr.name),
                                                e->u.attr.name->hash, out)
                      : lang_getattr(vm, obj, e->u.attr.name->str, out);
        if (!ok && vm->err == LANG_ERR_ATTRIBUTE) lang_suggest_attr(vm, obj, e->u.attr.name->str);
        lang_val_release(obj);
        if (!ok) locate(vm, f, e->span);
        return ok;
    }
    case LANG_EX_CALL: return eval_call(vm, f, e, out) || fail_at(vm, f, e);
    case LANG_EX_UNARY: {
        lang_val v;
        if (!eval(vm, f, e->u.unary.operand, &v)) return false;
        bool ok;
        if (v.kind == LANG_INT && e->u.unary.op == LANG_OP_NEG && v.u.i != INT64_MIN) {
            *out = lang_int(-v.u.i);
            ok = true;
        } else {
            ok = lang_binary(vm, e->u.unary.op, v, lang_none(), out);
        }
        lang_val_release(v);
        return ok || fail_at(vm, f, e);
    }
    case LANG_EX_NOT: {
        lang_val v;
        bool t;
        if (!eval(vm, f, e->u.unary.operand, &v)) return false;
        bool ok = lang_truth(vm, v, &t);
        lang_val_release(v);
        if (!ok) return fail_at(vm, f, e);
        *out = lang_bool(!t);
        return true;
    }
    case LANG_EX_BINARY: {
        lang_val a, b;
        if (!eval(vm, f, e->u.bin.left, &a)) return false;
        if (!eval(vm, f, e->u.bin.right, &b)) {
            lang_val_release(a);
            return false;
        }
        if (a.kind == LANG_INT && b.kind == LANG_INT) {
            int64_t r;
            switch (e->u.bin.op) {
            case LANG_OP_ADD:
                if (!__builtin_add_overflow(a.u.i, b.u.i, &r)) {
                    *out = lang_int(r);
                    return true;
                }
                break;
            case LANG_OP_SUB:
                if (!__builtin_sub_overflow(a.u.i, b.u.i, &r)) {
                    *out = lang_int(r);
                    return true;
                }
                break;
            case LANG_OP_MUL:
                if (!__builtin_mul_overflow(a.u.i, b.u.i, &r)) {
                    *out = lang_int(r);
                    return true;
                }
                break;
            case LANG_OP_LT: *out = lang_bool(a.u.i < b.u.i); return true;
            case LANG_OP_GT: *out = lang_bool(a.u.i > b.u.i); return true;
            case LANG_OP_LE: *out = lang_bool(a.u.i <= b.u.i); return true;
            case LANG_OP_GE: *out = lang_bool(a.u.i >= b.u.i); return true;
            case LANG_OP_EQ: *out = lang_bool(a.u.i == b.u.i); return true;
            case LANG_OP_NE: *out = lang_bool(a.u.i != b.u.i); return true;
            default: break;
            }
        } else if (a.kind == LANG_FLOAT && b.kind == LANG_FLOAT) {
            switch (e->u.bin.op) {
            case LANG_OP_ADD: *out = lang_float(a.u.f + b.u.f); return true;
            case LANG_OP_SUB: *out = lang_float(a.u.f - b.u.f); return true;
            case LANG_OP_MUL: *out = lang_float(a.u.f * b.u.f); return true;
            default: break;
            }
        }
        const lang_expr *saved_op = vm->op_expr;
        vm->op_expr = e;
        bool ok = lang_binary(vm, e->u.bin.op, a, b, out);
        vm->op_expr = saved_op;
        lang_val_release(a);
        lang_val_release(b);
        return ok || fail_at(vm, f, e);
    }
    case LANG_EX_COMPARE: {
        lang_val left;
        if (!eval(vm, f, e->u.cmp.first, &left)) return false;
        for (int i = 0; i < e->u.cmp.n; i++) {
            lang_val right, r;
            if (!eval(vm, f, e->u.cmp.rest[i], &right)) {
                lang_val_release(left);
                return false;
            }
            bool ok = compare(vm, e->u.cmp.ops[i], left, right, &r);
            lang_val_release(left);
            if (!ok) {
                lang_val_release(right);
                return fail_at(vm, f, e);
            }
            if (i == e->u.cmp.n - 1) {
                lang_val_release(right);
                *out = r;
                return true;
            }
            bool t;
            ok = lang_truth(vm, r, &t);
            if (!ok || !t) {
                lang_val_release(right);
                if (!ok) {
                    lang_val_release(r);
                    return fail_at(vm, f, e);
                }
                *out = r;
                return true;
            }
            lang_val_release(r);
            left = right;
        }
        *out = left;
        return true;
    }
    case LANG_EX_AND:
    case LANG_EX_OR: {
        lang_val a;
        bool t;
        if (!eval(vm, f, e->u.bin.left, &a)) return false;
        if (!lang_truth(vm, a, &t)) {
            lang_val_release(a);
            return fail_at(vm, f, e->u.bin.left);
        }
        if ((e->kind == LANG_EX_AND) ? !t : t) {
            *out = a;
            return true;
        }
        lang_val_release(a);
        return eval(vm, f, e->u.bin.right, out);
    }
    case LANG_EX_IFEXP: {
        lang_val c;
        bool t;
        if (!eval(vm, f, e->u.ifexp.cond, &c)) return false;
        bool ok = lang_truth(vm, c, &t);
        lang_val_release(c);
        if (!ok) return fail_at(vm, f, e->u.ifexp.cond);
        return eval(vm, f, t ? e->u.ifexp.then : e->u.ifexp.orelse, out);
    }
    case LANG_EX_LAMBDA: return make_function(vm, f, e->u.lambda, e->span.start.line, out);
    case LANG_EX_STARRED:
        lang_raise(vm, LANG_ERR_SYNTAX, "can't use starred expression here");
        return fail_at(vm, f, e);
    case LANG_EX_KIND_COUNT: break;
    }
    lang_raise(vm, LANG_ERR_RUNTIME, "unknown expression kind %d", (int)e->kind);
    return fail_at(vm, f, e);
}

static bool eval(lang_vm *vm, lang_frame *f, const lang_expr *e, lang_val *out) {
    if (++vm->edepth > 2000) {
        vm->edepth--;
        lang_raise(vm, LANG_ERR_RECURSION, "expression nested too deeply");
        return fail_at(vm, f, e);
    }
    bool ok = eval_inner(vm, f, e, out);
    vm->edepth--;
    return ok;
}

/* ------------------------------------------------------------------ statements */

/* Python's in-place operator methods of a tensor (x += y is x.add_(y)). */
static const char *inplace_method(lang_binop op) {
    switch (op) {
    case LANG_OP_ADD: return "add_";
    case LANG_OP_SUB: return "sub_";
    case LANG_OP_MUL: return "mul_";
    case LANG_OP_DIV: return "div_";
    case LANG_OP_POW: return "pow_";
    default: return NULL;
    }
}

/* cur op= rhs: in place for lists and tensors, as Python's __iadd__. */
static bool aug_value(lang_vm *vm, lang_binop op, lang_val cur, lang_val rhs, lang_val *out) {
    if (lang_is_obj(cur, &lang_list_type) && op == LANG_OP_ADD) {
        lang_val more;
        if (!lang_list_from_iter(vm, rhs, &more)) return false;
        bool ok = true;
        for (int64_t k = 0; ok && k < lang_seq_len(more); k++)
            ok = lang_list_append(vm, cur, lang_seq_items(more)[k]);
        lang_val_release(more);
        if (ok) *out = lang_val_retain(cur);
        return ok;
    }
    const char *m = inplace_method(op);
    if (m && lang_tensor_of(cur)) {
        lang_val meth;
        if (lang_getattr(vm, cur, m, &meth)) {
            lang_args a = {1, &rhs, 0, NULL, NULL};
            bool ok = lang_call(vm, meth, &a, out);
            lang_val_release(meth);
            return ok;
        }
        lang_vm_clear_error(vm);
    }
    return lang_binary(vm, op, cur, rhs, out);
}

static bool exec_aug(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    const lang_expr *t = s->u.aug.target;
    lang_val rhs, cur, res;
    switch (t->kind) {
    case LANG_EX_NAME: {
        if (!load_name(vm, f, t, &cur)) return fail_at(vm, f, t);
        if (!eval(vm, f, s->u.aug.value, &rhs)) {
            lang_val_release(cur);
            return false;
        }
        bool ok;
        if (cur.kind == LANG_INT && rhs.kind == LANG_INT && s->u.aug.op == LANG_OP_ADD &&
            !__builtin_add_overflow(cur.u.i, rhs.u.i, &res.u.i)) {
            res.kind = LANG_INT;
            ok = true;
        } else {
            ok = aug_value(vm, s->u.aug.op, cur, rhs, &res);
        }
        lang_val_release(cur);
        lang_val_release(rhs);
        if (!ok) return false;
        ok = store_name(vm, f, t, res);
        lang_val_release(res);
        return ok;
    }
    case LANG_EX_ATTR: {
        lang_val obj;
        if (!eval(vm, f, t->u.attr.value, &obj)) return false;
        bool inst = lang_is_instance(obj);
        bool ok = inst ? lang_instance_getattr_h(vm, obj, iname(vm, t->u.attr.name),
                                                 t->u.attr.name->hash, &cur)
                       : lang_getattr(vm, obj, t->u.attr.name->str, &cur);
        if (ok) {
            ok = eval(vm, f, s->u.aug.value, &rhs);
            if (ok) {
                ok = aug_value(vm, s->u.aug.op, cur, rhs, &res);
                lang_val_release(rhs);
                if (ok) {
                    ok = inst ? lang_instance_setattr_h(vm, obj, iname(vm, t->u.attr.name),
                                                        t->u.attr.name->hash, res)
                              : lang_setattr(vm, obj, t->u.attr.name->str, res);
                    lang_val_release(res);
                }
            }
            lang_val_release(cur);
        }
        lang_val_release(obj);
        return ok || fail_at(vm, f, t);
    }
    case LANG_EX_SUBSCRIPT: {
        lang_val obj, key;
        if (!eval_subscript(vm, f, t, &obj, &key)) return false;
        bool ok = lang_getitem(vm, obj, key, &cur);
        if (ok) {
            ok = eval(vm, f, s->u.aug.value, &rhs);
            if (ok) {
                /* A tensor's x[i] op= y is x[i] = x[i] op y, so that autograd
                 * records the write on x itself (a write through the view
                 * x[i] could not rewrite x's history). */
                ok = lang_tensor_of(obj) ? lang_binary(vm, s->u.aug.op, cur, rhs, &res)
                                         : aug_value(vm, s->u.aug.op, cur, rhs, &res);
                lang_val_release(rhs);
                if (ok) {
                    ok = lang_setitem(vm, obj, key, res);
                    lang_val_release(res);
                }
            }
            lang_val_release(cur);
        }
        lang_val_release(obj);
        lang_val_release(key);
        return ok || fail_at(vm, f, t);
    }
    default:
        lang_raise(vm, LANG_ERR_SYNTAX, "illegal expression for augmented assignment");
        return fail_at(vm, f, t);
    }
}

static xstat loop_body(lang_vm *vm, lang_frame *f, const lang_block *body, bool *broke) {
    if (vm->timed_loop) vm->timed_iters++;
    xstat r = exec_block(vm, f, body);
    if (r == XS_BREAK) {
        *broke = true;
        return XS_BREAK;
    }
    if (r == XS_CONTINUE) return XS_OK;
    return r;
}

static xstat exec_for(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    lang_val src;
    if (!eval(vm, f, s->u.for_.iter, &src)) return XS_ERR;
    bool broke = false;
    xstat r = XS_OK;
    const lang_expr *target = s->u.for_.target;
    if (lang_is_obj(src, &lang_range_type)) {
        /* Ranges count without an iterator object or an allocation. */
        lang_range_obj *rg = (lang_range_obj *)src.u.o;
        int64_t v = rg->start, step = rg->step;
        for (int64_t k = 0; k < rg->len; k++, v += (k < rg->len ? step : 0)) {
            if (!assign(vm, f, target, lang_int(v))) {
                r = XS_ERR;
                break;
            }
            r = loop_body(vm, f, &s->u.for_.body, &broke);
            if (r != XS_OK) break;
        }
    } else {
        lang_val it;
        if (!lang_iter(vm, src, &it)) {
            lang_val_release(src);
            locate(vm, f, s->u.for_.iter->span);
            return XS_ERR;
        }
        for (;;) {
            lang_val item;
            bool done;
            if (interrupt_pending(vm)) {
                raise_interrupt(vm);
                locate(vm, f, s->span);
                r = XS_ERR;
                break;
            }
            if (!lang_next(vm, it, &item, &done)) {
                locate(vm, f, s->u.for_.iter->span);
                r = XS_ERR;
                break;
            }
            if (done) break;
            bool ok = assign(vm, f, target, item);
            lang_val_release(item);
            if (!ok) {
                r = XS_ERR;
                break;
            }
            r = loop_body(vm, f, &s->u.for_.body, &broke);
            if (r != XS_OK) break;
        }
        lang_val_release(it);
    }
    lang_val_release(src);
    if (r == XS_BREAK) return XS_OK;
    if (r != XS_OK) return r;
    if (!broke && s->u.for_.orelse.n) return exec_block(vm, f, &s->u.for_.orelse);
    return XS_OK;
}

static bool cond_true(lang_vm *vm, lang_frame *f, const lang_expr *e, bool *t) {
    lang_val c;
    if (!eval(vm, f, e, &c)) return false;
    bool ok = lang_truth(vm, c, t);
    lang_val_release(c);
    return ok || fail_at(vm, f, e);
}

static bool call_method0(lang_vm *vm, lang_val obj, const char *name, int n, const lang_val *args,
                         lang_val *out) {
    lang_val m;
    if (!lang_getattr(vm, obj, name, &m)) return false;
    lang_args a = {n, args, 0, NULL, NULL};
    bool ok = lang_call(vm, m, &a, out);
    lang_val_release(m);
    return ok;
}

static xstat exec_with(lang_vm *vm, lang_frame *f, const lang_stmt *s, int item) {
    if (item == s->u.with.n) return exec_block(vm, f, &s->u.with.body);
    const lang_with_item *wi = &s->u.with.items[item];
    lang_val ctxv, entered;
    if (!eval(vm, f, wi->context, &ctxv)) return XS_ERR;
    bool has_enter = false;
    if (ctxv.kind == LANG_OBJ) {
        lang_val probe;
        if (lang_getattr(vm, ctxv, "__enter__", &probe)) {
            has_enter = true;
            lang_val_release(probe);
        } else {
            lang_vm_clear_error(vm);
        }
    }
    if (!has_enter) {
        lang_raise(vm, LANG_ERR_TYPE, "'%s' object does not support the context manager protocol",
                   lang_type_name(ctxv));
        lang_val_release(ctxv);
        locate(vm, f, wi->context->span);
        return XS_ERR;
    }
    if (!call_method0(vm, ctxv, "__enter__", 0, NULL, &entered)) {
        lang_val_release(ctxv);
        locate(vm, f, wi->context->span);
        return XS_ERR;
    }
    xstat r = XS_OK;
    if (wi->target && !assign(vm, f, wi->target, entered)) r = XS_ERR;
    lang_val_release(entered);
    if (r == XS_OK) r = exec_with(vm, f, s, item + 1);
    /* __exit__ runs whatever happened; a pending error is kept aside. */
    saved_err saved;
    memset(&saved, 0, sizeof saved);
    bool had_err = r == XS_ERR;
    if (had_err) err_save(vm, &saved);
    lang_val none3[3] = {lang_none(), lang_none(), lang_none()}, res;
    bool ok = call_method0(vm, ctxv, "__exit__", 3, none3, &res);
    if (ok) lang_val_release(res);
    if (had_err)
        err_restore(vm, &saved);
    else if (!ok) {
        locate(vm, f, wi->context->span);
        r = XS_ERR;
    }
    lang_val_release(ctxv);
    return r;
}

static bool del_target(lang_vm *vm, lang_frame *f, const lang_expr *t) {
    switch (t->kind) {
    case LANG_EX_NAME: return del_name(vm, f, t) || fail_at(vm, f, t);
    case LANG_EX_SUBSCRIPT: {
        lang_val obj, key;
        if (!eval_subscript(vm, f, t, &obj, &key)) return false;
        bool ok = lang_delitem(vm, obj, key);
        lang_val_release(obj);
        lang_val_release(key);
        return ok || fail_at(vm, f, t);
    }
    case LANG_EX_TUPLE:
    case LANG_EX_LIST:
        for (int i = 0; i < t->u.seq.n; i++)
            if (!del_target(vm, f, t->u.seq.items[i])) return false;
        return true;
    case LANG_EX_ATTR:
        lang_raise(vm, LANG_ERR_ATTRIBUTE, "cannot delete attribute '%s' of '%s' object",
                   t->u.attr.name->str, "this");
        return fail_at(vm, f, t);
    default: lang_raise(vm, LANG_ERR_SYNTAX, "cannot delete expression"); return fail_at(vm, f, t);
    }
}

/* Apply decorators (innermost, the last written, first) to [v]; takes
 * over [v]. */
static bool decorate(lang_vm *vm, lang_frame *f, lang_expr **decs, int n, lang_val *v) {
    for (int i = n - 1; i >= 0; i--) {
        lang_val d, r;
        if (!eval(vm, f, decs[i], &d)) {
            lang_val_release(*v);
            return false;
        }
        lang_args a = {1, v, 0, NULL, NULL};
        bool ok = lang_call(vm, d, &a, &r);
        lang_val_release(d);
        lang_val_release(*v);
        if (!ok) return fail_at(vm, f, decs[i]);
        *v = r;
    }
    return true;
}

const char *lang_vm_source_line(lang_vm *vm, int line, size_t *len) {
    lang_frame *f = vm->frame;
    return f && f->mod ? lang_module_line(f->mod, line, len) : NULL;
}

bool lang_vm_frame_method(lang_vm *vm, lang_obj **owner, lang_val *self) {
    lang_frame *f = vm->frame;
    if (!f || !f->owner || f->nslots < 1 || is_unset(f->slots[0])) return false;
    *owner = f->owner;
    *self = f->slots[0];
    return true;
}

/* class Name(Base): body. The body runs in its own frame; its named
 * locals become the class's attributes. */
static bool exec_class(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    lang_func *body = s->u.class_.body;
    lang_val base = lang_none();
    if (s->u.class_.nbases) {
        if (!eval(vm, f, s->u.class_.bases[0], &base)) return false;
        lang_val cls_of = lang_usermod_container_class(base);
        if (cls_of.u.o != base.u.o) {
            lang_val_release(base);
            base = lang_val_retain(cls_of);
        }
        if (lang_is_obj(base, &lang_typeobj_type)) {
            /* class X(object), class E(int): only object is a real base here. */
            lang_val_release(base);
            base = lang_none();
        } else if (!lang_is_class(base)) {
            lang_raise(vm, LANG_ERR_TYPE, "a class can only derive from a class, not %s",
                       lang_type_name(base));
            lang_val_release(base);
            return fail_at(vm, f, s->u.class_.bases[0]);
        }
    }
    if (base.kind == LANG_NONE) {
        lang_class *obj = lang_builtin_class(vm, "object");
        if (obj) base = lang_val_retain(lang_obj_val(&obj->hdr));
    }
    char qual[256];
    snprintf(qual, sizeof qual, "%s.%s", f->ns && f->ns->modname ? f->ns->modname : "__main__",
             body->name->str);
    lang_val cls;
    bool ok = lang_class_new(vm, body->name->str, qual, base, &cls);
    lang_val_release(base);
    if (!ok) return false;
    lang_frame *fr = frame_new(vm, body->scope.nslots, f, f->mod, body->name->str, f->file);
    if (!fr) {
        lang_val_release(cls);
        return false;
    }
    fr->is_class = true;
    fr->ns = f->ns;
    lang_frame *caller = vm->frame;
    vm->frame = fr;
    xstat r = exec_block(vm, fr, &body->body);
    vm->frame = caller;
    ok = r != XS_ERR;
    lang_class *c = lang_class_of_val(cls);
    for (int i = 0; ok && i < body->nnamed; i++) {
        lang_val v = fr->slots[i];
        if (is_unset(v)) continue;
        if (lang_is_obj(v, &lang_func_type) && !((func_obj *)v.u.o)->owner) {
            ((func_obj *)v.u.o)->owner = &c->hdr;
            c->hdr.refcount++;
        } else if (v.kind == LANG_OBJ && (lang_is_obj(v, &lang_staticmethod_type) ||
                                          lang_is_obj(v, &lang_classmethod_type) ||
                                          lang_is_obj(v, &lang_property_type))) {
            /* The functions wrapped by decorators are methods of the class too. */
            lang_val *inner = (lang_val *)((char *)v.u.o + sizeof(lang_obj));
            for (int k = 0; k < (lang_is_obj(v, &lang_property_type) ? 2 : 1); k++)
                if (lang_is_obj(inner[k], &lang_func_type) && !((func_obj *)inner[k].u.o)->owner) {
                    ((func_obj *)inner[k].u.o)->owner = &c->hdr;
                    c->hdr.refcount++;
                }
        }
        ok = lang_ns_set(vm, &c->dict, body->scope.slot_name[i]->str, v);
    }
    if (ok && s->u.class_.nfields) {
        /* The annotated names, in order, for @dataclass. */
        lang_val t;
        ok = lang_tuple_new(vm, s->u.class_.nfields, &t);
        for (int i = 0; ok && i < s->u.class_.nfields; i++) {
            ok = lang_str_from_cstr(vm, s->u.class_.fields[i]->str, &lang_seq_items(t)[i]);
            if (!ok) lang_seq_items(t)[i] = lang_none();
        }
        if (ok) ok = lang_ns_set(vm, &c->dict, "__fields__", t);
        lang_val_release(t);
    }
    frame_done(vm, fr);
    if (!ok) {
        lang_val_release(cls);
        return false;
    }
    if (!decorate(vm, f, s->u.class_.decorators, s->u.class_.ndecorators, &cls)) return false;
    ok = assign(vm, f, s->u.class_.target, cls);
    lang_val_release(cls);
    return ok;
}

/* Whether the pending error is caught by the handler's class (or tuple). */
static bool exc_matches(lang_vm *vm, lang_val handler, lang_class *cls, bool *out) {
    if (lang_is_obj(handler, &lang_tuple_type)) {
        *out = false;
        for (int64_t k = 0; k < lang_seq_len(handler) && !*out; k++)
            if (!exc_matches(vm, lang_seq_items(handler)[k], cls, out)) return false;
        return true;
    }
    if (!lang_is_class(handler) || !(lang_class_of_val(handler)->flags & LANG_CLASS_EXCEPTION))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "catching classes that do not inherit from BaseException is not allowed");
    *out = cls && lang_class_is_subclass(cls, lang_class_of_val(handler));
    return true;
}

/* Drop a saved error completely (message, traceback, value). */
static void err_discard(lang_vm *vm, saved_err *e) {
    saved_err cur;
    err_save(vm, &cur);
    err_restore(vm, e);
    lang_vm_clear_error(vm);
    free(vm->tb);
    vm->tb = NULL;
    vm->n_tb = vm->cap_tb = 0;
    err_restore(vm, &cur);
}

static bool catchable(const lang_vm *vm) {
    /* A debugger's quit ends the statement whatever the script catches. */
    return vm->err != LANG_ERR_STOPPED || (vm->ename && !strcmp(vm->ename, "SystemExit"));
}

static xstat exec_try(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    xstat r = exec_block(vm, f, &s->u.try_.body);
    if (r == XS_ERR && s->u.try_.n && catchable(vm)) {
        lang_class *cls = lang_exc_pending_class(vm);
        lang_val ev = lang_none();
        bool want_value = false;
        for (int i = 0; i < s->u.try_.n; i++) want_value |= s->u.try_.handlers[i].target != NULL;
        if (want_value && !lang_exc_pending_value(vm, &ev)) return XS_ERR;
        saved_err caught;
        err_save(vm, &caught);
        f->located = false; /* this frame may record a new error now */
        bool handled = false;
        for (int i = 0; i < s->u.try_.n && !handled; i++) {
            const lang_except *h = &s->u.try_.handlers[i];
            bool match = true;
            if (h->type) {
                lang_val hv;
                bool ok = eval(vm, f, h->type, &hv);
                if (ok) {
                    ok = exc_matches(vm, hv, cls, &match);
                    lang_val_release(hv);
                    if (!ok) locate(vm, f, h->type->span);
                }
                if (!ok) { /* a broken except clause: its error replaces the caught one */
                    handled = true;
                    r = XS_ERR;
                    break;
                }
            }
            if (!match) continue;
            handled = true;
            if (h->target && !assign(vm, f, h->target, ev)) {
                r = XS_ERR;
                break;
            }
            /* While the handler runs, a bare `raise` re-raises [caught]. */
            struct saved_err *outer = vm->handling;
            vm->handling = &caught;
            r = exec_block(vm, f, &h->body);
            vm->handling = outer;
        }
        lang_val_release(ev);
        if (!handled) {
            err_restore(vm, &caught); /* nothing matched: the error goes on */
            f->located = true;
            r = XS_ERR;
        } else {
            /* a caught SystemExit (exit(), sys.exit(), argparse) does not end the session */
            if (caught.ename && !strcmp(caught.ename, "SystemExit")) vm->exit_requested = false;
            err_discard(vm, &caught);
        }
    } else if (r == XS_OK && s->u.try_.orelse.n) {
        r = exec_block(vm, f, &s->u.try_.orelse);
    }
    if (s->u.try_.finalbody.n) {
        saved_err pending;
        memset(&pending, 0, sizeof pending);
        bool had = r == XS_ERR;
        bool was_located = f->located;
        if (had) err_save(vm, &pending);
        f->located = false;
        xstat fr = exec_block(vm, f, &s->u.try_.finalbody);
        if (fr != XS_OK) {
            /* return/break/raise in finally wins over the pending outcome. */
            if (had) err_discard(vm, &pending);
            return fr;
        }
        if (had) {
            err_restore(vm, &pending);
            f->located = was_located;
        }
    }
    return r;
}

static bool exec_raise(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    if (!s->u.raise.exc) {
        if (!vm->handling)
            return lang_raise(vm, LANG_ERR_RUNTIME, "No active exception to reraise");
        /* Re-raise a copy of the error being handled (its value included). */
        saved_err *h = vm->handling;
        lang_vm_clear_error(vm);
        vm->err = h->err;
        vm->ename = h->ename;
        vm->exc = lang_val_retain(h->exc);
        lang_buf_add(&vm->msg, h->msg.data ? h->msg.data : "", h->msg.len);
        return false;
    }
    lang_val e, cause = lang_none();
    if (!eval(vm, f, s->u.raise.exc, &e)) return false;
    if (s->u.raise.cause && !eval(vm, f, s->u.raise.cause, &cause)) {
        lang_val_release(e);
        return false;
    }
    lang_exc_raise(vm, e, cause);
    lang_val_release(e);
    lang_val_release(cause);
    return false;
}

/* import / from-import: find the module (lang_import.c), bind the names. */
static bool exec_import(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    for (int i = 0; i < s->u.import.n; i++) {
        const lang_import_item *it = &s->u.import.items[i];
        lang_val mod, v;
        if (!lang_import_module(vm, it->module, &mod)) {
            locate(vm, f, it->span);
            return false;
        }
        if (it->attr) {
            bool ok = lang_getattr(vm, mod, it->attr->str, &v);
            if (!ok) {
                lang_buf b;
                lang_buf_init(&b);
                lang_buf_add(&b, vm->msg.data ? vm->msg.data : "", vm->msg.len);
                bool plain = strstr(b.data ? b.data : "", "has no attribute") != NULL;
                lang_vm_clear_error(vm);
                const char *mfile = lang_module_file(mod);
                if (plain && mfile)
                    lang_raise(vm, LANG_ERR_IMPORT, "cannot import name '%s' from %s'%s'%s (%s)",
                               it->attr->str,
                               lang_module_initializing(mod) ? "partially initialized module " : "",
                               it->module,
                               lang_module_initializing(mod)
                                   ? " (most likely due to a circular import)"
                                   : "",
                               mfile);
                else if (plain)
                    lang_raise(vm, LANG_ERR_IMPORT, "cannot import name '%s' from '%s'",
                               it->attr->str, it->module);
                else
                    lang_raise(vm, LANG_ERR_IMPORT, "cannot import name '%s' from '%s': %s",
                               it->attr->str, it->module, b.data ? b.data : "");
                lang_buf_free(&b);
                lang_val_release(mod);
                locate(vm, f, it->span);
                return false;
            }
            lang_val_release(mod);
        } else if (it->top) {
            size_t n = strcspn(it->module, ".");
            char top[256];
            snprintf(top, sizeof top, "%.*s", (int)(n < sizeof top ? n : sizeof top - 1),
                     it->module);
            lang_val_release(mod);
            if (!lang_import_module(vm, top, &v)) {
                locate(vm, f, it->span);
                return false;
            }
        } else {
            v = mod;
        }
        bool ok = assign(vm, f, it->target, v);
        lang_val_release(v);
        if (!ok) return false;
    }
    return true;
}

static xstat exec_stmt(lang_vm *vm, lang_frame *f, const lang_stmt *s) {
    vm->line = s->span.start.line;
    if (++vm->stmt_seq, vm->depth == 0) vm->top_stmt = vm->stmt_seq;
    vm->ctx->label.file = vm->file;
    vm->ctx->label.line = vm->line;
    vm->ctx->label.module = vm->label_module;
    if (interrupt_pending(vm)) {
        raise_interrupt(vm);
        locate(vm, f, s->span);
        return XS_ERR;
    }
    if (vm->step_limit && ++vm->steps > vm->step_limit) {
        lang_raise(vm, LANG_ERR_RUNTIME, "step budget of %" PRId64 " statements exhausted",
                   vm->step_limit);
        locate(vm, f, s->span);
        return XS_ERR;
    }
    bool ok = true;
    switch (s->kind) {
    case LANG_ST_EXPR: {
        lang_val v;
        ok = eval(vm, f, s->u.expr, &v);
        if (ok) lang_val_release(v);
        break;
    }
    case LANG_ST_ASSIGN: {
        lang_val v;
        if (!eval(vm, f, s->u.assign.value, &v)) {
            ok = false;
            break;
        }
        for (int i = 0; ok && i < s->u.assign.ntargets; i++)
            ok = assign(vm, f, s->u.assign.targets[i], v);
        lang_val_release(v);
        break;
    }
    case LANG_ST_AUGASSIGN: ok = exec_aug(vm, f, s); break;
    case LANG_ST_IF: {
        bool t;
        if (!cond_true(vm, f, s->u.if_.cond, &t)) {
            ok = false;
            break;
        }
        return exec_block(vm, f, t ? &s->u.if_.body : &s->u.if_.orelse);
    }
    case LANG_ST_FOR: {
        xstat r = exec_for(vm, f, s);
        if (r == XS_ERR) locate(vm, f, s->span);
        return r;
    }
    case LANG_ST_WHILE: {
        bool broke = false;
        for (;;) {
            bool t;
            if (interrupt_pending(vm)) {
                raise_interrupt(vm);
                locate(vm, f, s->span);
                return XS_ERR;
            }
            if (!cond_true(vm, f, s->u.while_.cond, &t)) {
                ok = false;
                break;
            }
            if (!t) break;
            xstat r = loop_body(vm, f, &s->u.while_.body, &broke);
            if (r == XS_BREAK) break;
            if (r != XS_OK) return r;
        }
        if (ok && !broke && s->u.while_.orelse.n) return exec_block(vm, f, &s->u.while_.orelse);
        break;
    }
    case LANG_ST_BREAK: return XS_BREAK;
    case LANG_ST_CONTINUE: return XS_CONTINUE;
    case LANG_ST_PASS:
    case LANG_ST_GLOBAL: return XS_OK;
    case LANG_ST_DEF: {
        lang_val fv;
        ok = make_function(vm, f, s->u.def.func, s->span.start.line, &fv) &&
             decorate(vm, f, s->u.def.decorators, s->u.def.ndecorators, &fv);
        if (ok) {
            ok = assign(vm, f, s->u.def.target, fv);
            lang_val_release(fv);
        }
        break;
    }
    case LANG_ST_RETURN: {
        lang_val v = lang_none();
        if (s->u.expr && !eval(vm, f, s->u.expr, &v)) {
            ok = false;
            break;
        }
        lang_val_release(f->ret);
        f->ret = v;
        return XS_RETURN;
    }
    case LANG_ST_WITH: {
        xstat r = exec_with(vm, f, s, 0);
        if (r == XS_ERR) locate(vm, f, s->span);
        return r;
    }
    case LANG_ST_DEL:
        for (int i = 0; ok && i < s->u.del.n; i++) ok = del_target(vm, f, s->u.del.targets[i]);
        break;
    case LANG_ST_ASSERT: {
        bool t;
        if (!cond_true(vm, f, s->u.assert_.test, &t)) {
            ok = false;
            break;
        }
        if (t) break;
        lang_buf b;
        lang_buf_init(&b);
        if (s->u.assert_.msg) {
            lang_val m;
            if (!eval(vm, f, s->u.assert_.msg, &m)) {
                lang_buf_free(&b);
                ok = false;
                break;
            }
            ok = lang_str(vm, m, &b);
            lang_val_release(m);
            if (!ok) {
                lang_buf_free(&b);
                break;
            }
        }
        ok = lang_raise(vm, LANG_ERR_ASSERTION, "%s", b.data ? b.data : "");
        lang_buf_free(&b);
        break;
    }
    case LANG_ST_MAGIC: ok = lang_magic_run(vm, s, f->mod); break;
    case LANG_ST_IMPORT: ok = exec_import(vm, f, s); break;
    case LANG_ST_CLASS: ok = exec_class(vm, f, s); break;
    case LANG_ST_TRY: {
        xstat r = exec_try(vm, f, s);
        if (r == XS_ERR) locate(vm, f, s->span);
        return r;
    }
    case LANG_ST_RAISE: ok = exec_raise(vm, f, s); break;
    case LANG_ST_KIND_COUNT: ok = lang_raise(vm, LANG_ERR_RUNTIME, "unknown statement"); break;
    }
    if (!ok) {
        locate(vm, f, s->span);
        return XS_ERR;
    }
    return XS_OK;
}

static xstat exec_block(lang_vm *vm, lang_frame *f, const lang_block *b) {
    for (int i = 0; i < b->n; i++) {
        xstat r = exec_stmt(vm, f, b->items[i]);
        if (r != XS_OK) return r;
    }
    return XS_OK;
}

/* ------------------------------------------------------------------ running code */

static bool syntax_errors(lang_vm *vm, const lang_module *m) {
    lang_raise(vm, LANG_ERR_SYNTAX, "%s", m->errors[0].message);
    for (int i = 0; i < m->nerrors; i++) {
        if (vm->n_tb == vm->cap_tb) {
            int cap = vm->cap_tb ? vm->cap_tb * 2 : 8;
            lang_frame_info *p = realloc(vm->tb, sizeof *p * (size_t)cap);
            if (!p) break;
            vm->tb = p;
            vm->cap_tb = cap;
        }
        lang_frame_info *e = &vm->tb[vm->n_tb++];
        memset(e, 0, sizeof *e);
        e->file = strdup(m->filename ? m->filename : "<input>");
        e->line = m->errors[i].span.start.line;
        e->col = m->errors[i].span.start.ccol;
        lang_buf b;
        lang_buf_init(&b);
        lang_syntax_error_format(&b, m, &m->errors[i]);
        e->source_line = lang_buf_take(&b);
    }
    /* Syntax entries come in source order; runtime ones innermost first.
     * Mark them so the session does not reverse them. */
    vm->tb_syntax = true;
    return false;
}

bool lang_eval_code(lang_vm *vm, const char *code, const char *filename, bool want_value,
                    lang_val *value) {
    *value = lang_none();
    lang_debug_note_source(vm, filename, code);
    lang_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.filename = filename;
    lang_module *m = lang_parse(code, strlen(code), &opts);
    if (!m) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory parsing the input");
    if (m->nerrors) {
        syntax_errors(vm, m);
        lang_module_release(m);
        return false;
    }
    return lang_eval_module(vm, m, want_value, value);
}

static bool eval_module(lang_vm *vm, lang_module *m, bool want_value, lang_val *value,
                        lang_gtab *ns) {
    *value = lang_none();
    const char *file = nn_ctx_intern(vm->ctx, m->filename ? m->filename : "<input>");
    lang_frame *fr = frame_new(vm, m->scope.nslots, NULL, m, "<module>", file);
    if (!fr) {
        lang_module_release(m);
        return false;
    }
    fr->ns = ns;
    /* The module stays alive while any function defined in it does; the
     * frame holds it for the run. */
    const char *saved_file = vm->file;
    int saved_line = vm->line;
    lang_frame *caller = vm->frame;
    fr->caller = caller;
    fr->call_line = saved_line;
    vm->file = file;
    vm->frame = fr;
    bool ok = true;
    int n = m->body.n;
    bool trailing = want_value && n > 0 && m->body.items[n - 1]->kind == LANG_ST_EXPR;
    for (int i = 0; i < n && ok; i++) {
        const lang_stmt *s = m->body.items[i];
        if (i == n - 1 && trailing) {
            vm->line = s->span.start.line;
            if (++vm->stmt_seq, vm->depth == 0) vm->top_stmt = vm->stmt_seq;
            vm->ctx->label.file = file;
            vm->ctx->label.line = vm->line;
            vm->ctx->label.module = NULL;
            if (interrupt_pending(vm)) {
                raise_interrupt(vm);
                locate(vm, fr, s->span);
                ok = false;
            } else {
                lang_val v;
                ok = eval(vm, fr, s->u.expr, &v);
                if (ok)
                    *value = v;
                else
                    locate(vm, fr, s->span);
            }
            break;
        }
        xstat r = exec_stmt(vm, fr, s);
        if (r == XS_ERR)
            ok = false;
        else if (r == XS_BREAK || r == XS_CONTINUE || r == XS_RETURN) {
            ok = lang_raise(vm, LANG_ERR_SYNTAX, "'%s' outside %s",
                            r == XS_RETURN  ? "return"
                            : r == XS_BREAK ? "break"
                                            : "continue",
                            r == XS_RETURN ? "function" : "loop");
            locate(vm, fr, s->span);
        }
    }
    vm->frame = caller;
    vm->file = saved_file;
    vm->line = saved_line;
    frame_done(vm, fr);
    module_release(m);
    if (!ok) {
        lang_val_release(*value);
        *value = lang_none();
    }
    return ok;
}

bool lang_eval_module(lang_vm *vm, lang_module *m, bool want_value, lang_val *value) {
    return eval_module(vm, m, want_value, value, NULL);
}

bool lang_eval_code_in(lang_vm *vm, const char *code, size_t len, const char *filename,
                       lang_gtab *ns) {
    lang_debug_note_source(vm, filename, code);
    lang_parse_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.filename = filename;
    lang_module *m = lang_parse(code, len, &opts);
    if (!m) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory parsing %s", filename);
    if (m->nerrors) {
        /* As Python reports it: the importing frames, then the file's
         * line with a caret (an entry with no function name). */
        const lang_syntax_error *se = &m->errors[0];
        lang_raise(vm, LANG_ERR_SYNTAX, "%s", se->message);
        lang_frame_info *p =
            vm->n_tb == vm->cap_tb ? realloc(vm->tb, sizeof *p * (size_t)(vm->cap_tb + 8)) : vm->tb;
        if (p) {
            if (vm->n_tb == vm->cap_tb) vm->cap_tb += 8;
            vm->tb = p;
            lang_frame_info *e = &vm->tb[vm->n_tb++];
            memset(e, 0, sizeof *e);
            e->file = strdup(filename);
            e->func = strdup("");
            e->line = se->span.start.line;
            e->col = se->span.start.ccol;
            e->end_col = -1;
            lang_buf b;
            lang_buf_init(&b);
            lang_span sp = {se->span.start, se->span.start};
            sp.end.col++;
            sp.end.ccol++;
            lang_ast_caret(&b, m, sp);
            e->source_line = b.data ? lang_buf_take(&b) : NULL;
            lang_buf_free(&b);
        }
        lang_module_release(m);
        return false;
    }
    lang_val v;
    return eval_module(vm, m, false, &v, ns);
}

/* ------------------------------------------------------------------ help, dir, summaries */

#include "lang_builtins.h"

extern const lang_type lang_size_type;

static const lang_type *const known_types[] = {
    &lang_str_type,   &lang_list_type,   &lang_tuple_type, &lang_dict_type,
    &lang_range_type, &lang_tensor_type, &lang_slice_type, NULL,
};

/* The nn/optim and data families' types (lang_nn.c, lang_data.c), with the
 * aliases "Module", "SGD", "Adam", "AdamW" for their shared methods. */
extern const lang_type *const lang_nn_help_types[];
extern const lang_type *const lang_data_help_types[];
static const lang_type *const *const known_type_lists[] = {known_types, lang_nn_help_types,
                                                           lang_data_help_types, NULL};

/* The help of "<Type>" (its own entry) or "<Type>.<method>" from [ty]; the
 * type is named by its own name or its help entry's. */
static const lang_help *type_help(const lang_type *ty, const char *name, const char *dot) {
    if (!dot) return ty->help && ty->help->name && !strcmp(ty->help->name, name) ? ty->help : NULL;
    size_t tl = (size_t)(dot - name);
    const char *tn = ty->help && ty->help->name ? ty->help->name : ty->name;
    if (!(strlen(ty->name) == tl && !strncmp(ty->name, name, tl)) &&
        !(strlen(tn) == tl && !strncmp(tn, name, tl)))
        return NULL;
    if (!ty->methods) return NULL;
    for (const lang_method *m = ty->methods; m->name; m++)
        if (!strcmp(m->name, dot + 1)) return &m->help;
    return NULL;
}

const lang_help *lang_vm_help(lang_vm *vm, const char *name) {
    if (!name || !*name) return NULL;
    for (int f = 0; lang_builtin_families[f]; f++)
        for (const lang_builtin_def *d = lang_builtin_families[f]; d->name; d++)
            if (!strcmp(d->name, name)) return &d->help;
    if (name[0] == '%') {
        for (const lang_help *h = lang_magic_helps; h->name; h++)
            if (!strcmp(h->name, name)) return h;
        return NULL;
    }
    const char *dot = strchr(name, '.');
    for (int l = 0; known_type_lists[l]; l++)
        for (int t = 0; known_type_lists[l][t]; t++) {
            const lang_help *h = type_help(known_type_lists[l][t], name, dot);
            if (h) return h;
        }
    /* A global that holds a builtin under another name. */
    lang_val *g = lang_vm_global(vm, name);
    if (g) return lang_val_help(vm, *g);
    return NULL;
}

const lang_help *lang_val_help(lang_vm *vm, lang_val v) {
    if (v.kind != LANG_OBJ) return NULL;
    if (lang_is_obj(v, &lang_builtin_type)) return ((lang_builtin_obj *)v.u.o)->help;
    if (lang_is_obj(v, &lang_bound_type)) return &((lang_bound_obj *)v.u.o)->m->help;
    if (lang_is_obj(v, &lang_typeobj_type)) return ((lang_typeobj *)v.u.o)->help;
    if (lang_is_class(v)) {
        lang_class *c = lang_class_of_val(v);
        if (c->help) return c->help;
        lang_val *init = lang_class_lookup(c, "__init__");
        return init && lang_is_obj(*init, &lang_builtin_type) ? lang_val_help(vm, *init) : NULL;
    }
    if (lang_is_obj(v, &lang_method_type)) return NULL;
    return v.u.o->type->help;
}

const char **lang_dir(lang_vm *vm, lang_val v) {
    size_t n = 0, cap = 32;
    const char **out = malloc(sizeof *out * cap);
    if (!out) return NULL;
#define PUSH(s)                                                                                    \
    do {                                                                                           \
        if (n + 1 >= cap) {                                                                        \
            cap *= 2;                                                                              \
            const char **p_ = realloc(out, sizeof *out * cap);                                     \
            if (!p_) {                                                                             \
                free(out);                                                                         \
                return NULL;                                                                       \
            }                                                                                      \
            out = p_;                                                                              \
        }                                                                                          \
        out[n++] = (s);                                                                            \
    } while (0)
    if (v.kind == LANG_OBJ) {
        const lang_type *t = v.u.o->type;
        if (t->fields) {
            const char *const *fs = t->fields(v.u.o);
            for (int i = 0; fs && fs[i]; i++) PUSH(fs[i]);
        }
        if (t->methods)
            for (const lang_method *m = t->methods; m->name; m++) PUSH(m->name);
    } else if (v.kind == LANG_FLOAT || v.kind == LANG_INT) {
        PUSH("real");
    }
#undef PUSH
    out[n] = NULL;
    return out;
}

char *lang_val_summary(lang_vm *vm, lang_val v) {
    lang_buf b;
    lang_buf_init(&b);
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        char shape[128];
        nn_tensor_shape_str(t, shape, sizeof shape);
        size_t bytes = (size_t)nn_tensor_numel(t) * nn_dtype_size(t->dtype);
        lang_buf_printf(&b, "Tensor %s %s", shape, nn_dtype_name(t->dtype));
        if (t->requires_grad) lang_buf_puts(&b, " requires_grad");
        lang_buf_printf(&b, " (%zu bytes)", bytes);
        return lang_buf_take(&b);
    }
    lang_buf_printf(&b, "%s", lang_type_name(v));
    if (lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type) ||
        lang_is_obj(v, &lang_dict_type)) {
        int64_t n = lang_is_obj(v, &lang_dict_type) ? ((lang_dict_obj *)v.u.o)->n : lang_seq_len(v);
        lang_buf_printf(&b, " of %" PRId64 " item%s", n, n == 1 ? "" : "s");
        return lang_buf_take(&b);
    }
    if (lang_is_obj(v, &lang_func_type)) {
        char sig[256];
        lang_func_info(vm, v, sig, sizeof sig, NULL, NULL);
        lang_buf_printf(&b, " %s", sig);
        return lang_buf_take(&b);
    }
    lang_buf r;
    lang_buf_init(&r);
    if (lang_repr(vm, v, &r)) {
        /* One line, at most 60 characters. */
        size_t n = 0;
        while (n < r.len && r.data[n] != '\n' && n < 60) n++;
        lang_buf_puts(&b, " ");
        lang_buf_add(&b, r.data, n);
        if (n < r.len) lang_buf_puts(&b, "...");
    } else {
        lang_vm_clear_error(vm);
    }
    lang_buf_free(&r);
    return lang_buf_take(&b);
}

/* ------------------------------------------------------------------ where (the debugger) */

bool lang_vm_where(lang_vm *vm, int level, lang_where *w) {
    memset(w, 0, sizeof *w);
    lang_frame *f = vm->frame;
    int line = vm->line;
    for (int k = 0; k < level && f; k++) {
        line = f->call_line;
        f = f->caller;
    }
    if (!f) return false;
    w->file = f->file ? f->file : "<input>";
    w->func = f->func_name ? f->func_name : "<module>";
    w->line = line;
    w->mod = f->mod;
    if (level == 0 && vm->op_expr && vm->op_expr->span.start.line == line) {
        w->span = vm->op_expr->span;
        w->has_span = true;
    }
    return true;
}
