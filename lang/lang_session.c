/* lang_session: the session API of lang.h — create a session with its
 * engine context and builtins, execute code and report results and errors,
 * interrupts, completion, inspection, %who, history, and MIME bundles.
 *
 * Owned by the language-runtime engineer (lang_is_complete lives in
 * lang_complete_input.c, the parser engineer's). Everything returned is
 * malloc'ed and owned by the caller as lang.h says.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_class.h"
#include "lang_debug.h"
#include "lang_display.h"
#include "lang_dist.h"
#include "lang_eval.h"
#include "lang_nn.h"
#include "lang_random.h"
#include "lang_tensor.h"
#include "nn_module.h"

typedef struct cell_source {
    char *file, *code;
} cell_source;

typedef struct ext_magic {
    char *name;
    lang_help help; /* strings owned here */
    lang_ext_magic_fn fn;
    void *user;
    void (*free_user)(void *);
} ext_magic;

struct lang_session {
    lang_vm vm;
    nn_ctx *ctx;
    char **history;
    int n_history, cap_history;
    /* The last three values shown (IPython's _, __, ___), held here and
     * installed as builtins so that %who does not list them. */
    lang_val last[3];
    /* IPython's In (a list of the inputs, In[0] empty) and Out (a dict of
     * the values shown, by the N of "<cell N>"), installed as builtins. */
    lang_val in_list, out_dict;
    /* Interactive cells as run, for the source of their functions (f??). */
    cell_source *sources;
    int n_sources, cap_sources;
    ext_magic *ext;
    int n_ext;
    lang_observer_fn observer;
    void *observer_user;
    lang_buf tee; /* what the running cell wrote, for the observer */
};

/* ---- MIME bundles ---- */

void lang_mime_init(lang_mime *m) {
    memset(m, 0, sizeof *m);
}

void lang_mime_free(lang_mime *m) {
    if (!m) return;
    for (int i = 0; i < m->n; i++) {
        free(m->items[i].mime);
        free(m->items[i].data);
    }
    m->n = 0;
}

void lang_mime_add(lang_mime *m, const char *mime, char *data) {
    for (int i = 0; i < m->n; i++) {
        if (!strcmp(m->items[i].mime, mime)) {
            free(m->items[i].data);
            m->items[i].data = data;
            return;
        }
    }
    if (m->n == LANG_MIME_MAX) {
        free(data);
        return;
    }
    char *copy = strdup(mime);
    if (!copy) {
        free(data);
        return;
    }
    m->items[m->n].mime = copy;
    m->items[m->n].data = data;
    m->n++;
}

const char *lang_mime_get(const lang_mime *m, const char *mime) {
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->items[i].mime, mime)) return m->items[i].data;
    return NULL;
}

/* ---- lifetime ---- */

lang_vm *lang_session_vm(lang_session *s) {
    return &s->vm;
}

struct nn_ctx *lang_session_ctx(lang_session *s) {
    return s->ctx;
}

static bool install_builtins(lang_vm *vm) {
    for (int f = 0; lang_builtin_families[f]; f++) {
        for (const lang_builtin_def *d = lang_builtin_families[f]; d->name; d++) {
            lang_val b;
            if (!lang_builtin_new(vm, d->fn, &d->help, &b)) return false;
            bool ok = lang_vm_set_builtin(vm, d->name, b);
            lang_val_release(b);
            if (!ok) return false;
        }
    }
    if (!lang_core_install(vm) || !lang_tensor_install(vm) || !lang_nn_install(vm) ||
        !lang_random_install(vm) || !lang_class_install(vm) || !lang_dist_install(vm))
        return false;
    /* __builtins__: a record whose fields are the builtins, so that
     * dir(__builtins__) lists them and __builtins__.zeros is zeros. */
    lang_val rec;
    if (!lang_record_new(vm, "builtins", &rec)) return false;
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if ((g->has_builtin || g->set) &&
            !lang_record_set(vm, rec, g->name, g->has_builtin ? g->builtin : g->value)) {
            lang_val_release(rec);
            return false;
        }
    }
    bool rec_ok = lang_vm_set_builtin(vm, "__builtins__", rec);
    lang_val_release(rec);
    if (!rec_ok) return false;
    /* Families may install plain globals (dtypes): make them builtins, so
     * %who does not list them and %reset does not remove them. */
    for (int64_t k = 0; k < vm->n_globals; k++) {
        lang_global *g = &vm->globals[k];
        if (!g->set) continue;
        if (g->has_builtin) lang_val_release(g->builtin);
        g->builtin = g->value;
        g->has_builtin = true;
        g->set = false;
        g->value = lang_none();
    }
    return true;
}

lang_session *lang_session_new(const lang_frontend *fe) {
    lang_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ctx = nn_ctx_new(NN_RNG_DEFAULT_SEED);
    if (!s->ctx) {
        free(s);
        return NULL;
    }
    lang_vm_init(&s->vm, s, s->ctx, fe);
    s->vm.dbg = lang_debug_new(&s->vm);
    lang_val empty;
    if (!s->vm.dbg || !install_builtins(&s->vm) || !lang_list_new(&s->vm, 0, &s->in_list) ||
        !lang_dict_new(&s->vm, &s->out_dict) || !lang_str_from_cstr(&s->vm, "", &empty)) {
        lang_session_free(s);
        return NULL;
    }
    bool ok = lang_list_append(&s->vm, s->in_list, empty);
    lang_val_release(empty);
    if (!ok || !lang_vm_set_builtin(&s->vm, "In", s->in_list) ||
        !lang_vm_set_builtin(&s->vm, "Out", s->out_dict)) {
        lang_session_free(s);
        return NULL;
    }
    return s;
}

void lang_session_free(lang_session *s) {
    if (!s) return;
    for (int i = 0; i < 3; i++) lang_val_release(s->last[i]);
    lang_val_release(s->in_list);
    lang_val_release(s->out_dict);
    for (int i = 0; i < s->n_sources; i++) {
        free(s->sources[i].file);
        free(s->sources[i].code);
    }
    free(s->sources);
    lang_vm_free(&s->vm);
    lang_debug_free(s->vm.dbg);
    s->vm.dbg = NULL;
    for (int i = 0; i < s->n_ext; i++) {
        if (s->ext[i].free_user) s->ext[i].free_user(s->ext[i].user);
        free(s->ext[i].name);
        free((char *)s->ext[i].help.name);
        free((char *)s->ext[i].help.signature);
        free((char *)s->ext[i].help.doc);
    }
    free(s->ext);
    lang_buf_free(&s->tee);
    for (int i = 0; i < s->n_history; i++) free(s->history[i]);
    free(s->history);
    nn_ctx_free(s->ctx);
    free(s);
}

bool lang_session_exit_requested(lang_session *s, int *code) {
    if (code) *code = s->vm.exit_code;
    return s->vm.exit_requested;
}

void lang_session_interrupt(lang_session *s) {
    /* During a pass the debugger has stopped in, the first Ctrl-C opens the
     * (nndb) prompt at the next node; a second one interrupts. */
    if (lang_debug_interrupt(s->vm.dbg)) return;
    atomic_store(&s->vm.interrupt, 1);
    nn_ctx_interrupt(s->ctx);
}

/* ---- running ---- */

static char *xstrdup(const char *s) {
    char *p = strdup(s ? s : "");
    return p;
}

/* Turn the VM's pending error into [info]; clears it. */
static void take_error(lang_vm *vm, lang_error_info *info) {
    info->cls = vm->err;
    info->ename = xstrdup(vm->ename ? vm->ename : lang_err_name(vm->err));
    if (vm->hint[0]) {
        lang_buf_puts(&vm->msg, vm->hint);
        vm->hint[0] = 0;
    }
    info->evalue = xstrdup(vm->msg.data ? vm->msg.data : "");
    int n = vm->n_tb;
    info->traceback = calloc((size_t)(n + 1), sizeof(char *));
    info->n_traceback = 0;
    if (!info->traceback) {
        lang_vm_clear_error(vm);
        return;
    }
    if (vm->tb_syntax) {
        for (int i = 0; i < n; i++)
            info->traceback[info->n_traceback++] = xstrdup(vm->tb[i].source_line);
        lang_vm_clear_error(vm);
        return;
    }
    /* A syntax error in an imported file comes with the frames of the
     * import: the front ends add Python's header only to runtime errors. */
    if (info->cls == LANG_ERR_SYNTAX && n > 0)
        info->traceback[info->n_traceback++] = xstrdup("Traceback (most recent call last):");
    /* Outermost first; a run of the same line (deep recursion) collapses
     * into one entry and a count, as Python does. */
    for (int i = n - 1; i >= 0; i--) {
        const lang_frame_info *e = &vm->tb[i];
        int same = 0;
        while (i - same - 1 >= 0 && vm->tb[i - same - 1].line == e->line &&
               !strcmp(vm->tb[i - same - 1].file, e->file) &&
               !strcmp(vm->tb[i - same - 1].func, e->func))
            same++;
        lang_buf b;
        lang_buf_init(&b);
        if (e->func && *e->func)
            lang_buf_printf(&b, "  File \"%s\", line %d, in %s\n", e->file, e->line, e->func);
        else /* a syntax error in an imported file */
            lang_buf_printf(&b, "  File \"%s\", line %d\n", e->file, e->line);
        if (e->source_line) lang_buf_puts(&b, e->source_line);
        if (same > 2) {
            lang_buf_printf(&b, "  [Previous line repeated %d more times]\n", same);
            i -= same;
        }
        info->traceback[info->n_traceback++] = lang_buf_take(&b);
    }
    lang_vm_clear_error(vm);
}

/* ---- IPython's input habits (interactive cells only) ---- */

static bool ident_char(char c);
static bool eval_chain(lang_vm *vm, const char *text, size_t n, lang_val *out);
static bool exec_code(lang_session *s, const char *code, const char *filename, bool interactive,
                      lang_result *res);

/* Whether the cell's last statement ends with ';' (before a comment): its
 * value is then not shown, as in IPython. */
static bool ends_with_semicolon(const char *code) {
    size_t n = strlen(code);
    while (n && (code[n - 1] == ' ' || code[n - 1] == '\t' || code[n - 1] == '\n' ||
                 code[n - 1] == '\r'))
        n--;
    size_t ls = n;
    while (ls && code[ls - 1] != '\n') ls--;
    /* The end of the code on the last line: before a '#' outside quotes. */
    char q = 0;
    size_t end = n;
    for (size_t i = ls; i < n; i++) {
        char c = code[i];
        if (q) {
            if (c == '\\')
                i++;
            else if (c == q)
                q = 0;
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == '#') {
            end = i;
            break;
        }
    }
    while (end > ls && (code[end - 1] == ' ' || code[end - 1] == '\t')) end--;
    return end > ls && code[end - 1] == ';';
}

/* "name?", "?name", "name??" (a dotted name): fills [name] and *detail (0
 * or 1) and says true. */
static bool help_request(const char *code, char *name, size_t cap, int *detail) {
    const char *p = code;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    int pre = 0, post = 0;
    while (*p == '?' && pre < 2) p++, pre++;
    const char *b = p;
    while (ident_char(*p) || (*p == '.' && p > b)) p++;
    size_t n = (size_t)(p - b);
    while (*p == '?' && post < 2) p++, post++;
    /* Then only blanks and comments. */
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        if (*p != '#') break;
        while (*p && *p != '\n') p++;
    }
    if (*p || !n || n >= cap || (!pre && !post) || (*b >= '0' && *b <= '9')) return false;
    memcpy(name, b, n);
    name[n] = 0;
    *detail = pre == 2 || post == 2;
    return true;
}

/* A copy of [code] where each line that starts with '!' (after its indent)
 * runs as the %system magic, or NULL when there is no such line. Columns in
 * errors on those lines shift by the magic's name. */
static char *shell_lines(const char *code) {
    bool any = false;
    lang_buf b;
    lang_buf_init(&b);
    for (const char *line = code; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        size_t ind = 0;
        while (ind < len && (line[ind] == ' ' || line[ind] == '\t')) ind++;
        if (ind < len && line[ind] == '!' && (ind + 1 >= len || line[ind + 1] != '=')) {
            lang_buf_add(&b, line, ind);
            lang_buf_puts(&b, "%system ");
            lang_buf_add(&b, line + ind + 1, len - ind - 1);
            any = true;
        } else {
            lang_buf_add(&b, line, len);
        }
        line += len;
    }
    if (!any) {
        lang_buf_free(&b);
        return NULL;
    }
    return lang_buf_take(&b);
}

static void keep_source(lang_session *s, const char *file, const char *code) {
    if (s->n_sources == s->cap_sources) {
        int cap = s->cap_sources ? s->cap_sources * 2 : 16;
        cell_source *p = realloc(s->sources, sizeof *p * (size_t)cap);
        if (!p) return;
        s->sources = p;
        s->cap_sources = cap;
    }
    char *f = strdup(file), *c = strdup(code);
    if (!f || !c) {
        free(f), free(c);
        return;
    }
    s->sources[s->n_sources++] = (cell_source){f, c};
}

/* Line [line] (1-based) of [text] and the lines of the block under it. */
static bool block_at(const char *text, int line, const char *fname, lang_buf *out) {
    const char *p = text;
    for (int i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p) p++;
    }
    if (!p || !*p) return false;
    const char *q = p;
    while (*q == ' ' || *q == '\t') q++;
    size_t fl = strlen(fname);
    if (strncmp(q, "def ", 4) || strncmp(q + 4, fname, fl) || q[4 + fl] != '(') return false;
    size_t indent = (size_t)(q - p);
    const char *nl = strchr(p, '\n');
    lang_buf_add(out, p, nl ? (size_t)(nl - p) + 1 : strlen(p));
    while (nl) {
        const char *l = nl + 1;
        nl = strchr(l, '\n');
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        size_t k = 0;
        while (k < len && (l[k] == ' ' || l[k] == '\t')) k++;
        if (k < len && k <= indent) break;
        lang_buf_add(out, l, nl ? len + 1 : len);
    }
    return true;
}

/* The source of a user function: from the cell it was typed in, or its file. */
static bool func_source(lang_session *s, lang_val f, lang_buf *out) {
    char sig[512];
    const char *file = NULL;
    int line = 0;
    if (!lang_func_info(&s->vm, f, sig, sizeof sig, &file, &line) || !file) return false;
    char fname[256];
    size_t n = 0;
    while (sig[n] && sig[n] != '(' && n + 1 < sizeof fname) fname[n] = sig[n], n++;
    fname[n] = 0;
    for (int i = s->n_sources - 1; i >= 0; i--)
        if (!strcmp(s->sources[i].file, file) && block_at(s->sources[i].code, line, fname, out))
            return true;
    FILE *fp = fopen(file, "rb");
    if (!fp) return false;
    lang_buf text;
    lang_buf_init(&text);
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0) lang_buf_add(&text, chunk, got);
    fclose(fp);
    lang_buf_add(&text, "", 1);
    bool ok = block_at(text.data, line, fname, out);
    lang_buf_free(&text);
    return ok;
}

/* name? / name??: the help entry (detail 1 with its example and the value's
 * state) and, for a user function at detail 1, its source. */
static void show_help(lang_session *s, const char *name, int detail) {
    lang_vm *vm = &s->vm;
    char *text = lang_inspect(s, name, strlen(name), detail);
    lang_buf b;
    lang_buf_init(&b);
    if (!text) {
        lang_buf_printf(&b, "Object `%s` not found.\n", name);
    } else {
        lang_buf_puts(&b, text);
        free(text);
        lang_val v;
        if (detail && eval_chain(vm, name, strlen(name), &v)) {
            lang_buf src;
            lang_buf_init(&src);
            if (lang_is_obj(v, &lang_func_type) && func_source(s, v, &src)) {
                lang_buf_puts(&b, "\nSource:\n");
                lang_buf_add(&b, src.data, src.len);
                if (src.len && src.data[src.len - 1] != '\n') lang_buf_puts(&b, "\n");
            }
            lang_buf_free(&src);
            lang_val_release(v);
        }
    }
    lang_vm_write(vm, LANG_STDOUT, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
}

/* _, __ and ___ after a value was shown, and Out[N] for "<cell N>". */
static void remember_value(lang_session *s, lang_val v, const char *filename) {
    int cell = 0;
    char end = 0;
    /* Out itself (or In) shown is not kept in Out: a dict holding itself
     * would never be freed. */
    bool self = v.kind == LANG_OBJ && (v.u.o == s->out_dict.u.o || v.u.o == s->in_list.u.o);
    if (!self && filename && sscanf(filename, "<cell %d%c", &cell, &end) == 2 && end == '>' &&
        cell > 0)
        lang_dict_set(&s->vm, s->out_dict, lang_int(cell), v);
    lang_val_release(s->last[2]);
    s->last[2] = s->last[1];
    s->last[1] = s->last[0];
    s->last[0] = lang_val_retain(v);
    static const char *const names[3] = {"_", "__", "___"};
    for (int i = 0; i < 3; i++) lang_vm_set_builtin(&s->vm, names[i], s->last[i]);
    lang_vm_clear_error(&s->vm);
}

bool lang_exec(lang_session *s, const char *code, const char *filename, bool interactive,
               lang_result *res) {
    lang_vm *vm = &s->vm;
    char *rewritten = NULL;
    bool quiet = false;
    if (interactive && code) {
        char name[256];
        int detail = 0;
        if (help_request(code, name, sizeof name, &detail)) {
            memset(res, 0, sizeof *res);
            lang_mime_init(&res->value);
            lang_vm_clear_error(vm);
            show_help(s, name, detail);
            res->ok = true;
            return true;
        }
        quiet = ends_with_semicolon(code);
        rewritten = shell_lines(code);
        if (rewritten) code = rewritten;
        keep_source(s, filename ? filename : "<input>", code);
    }
    bool ok = exec_code(s, code, filename, interactive && !quiet, res);
    free(rewritten);
    return ok;
}

static bool exec_code(lang_session *s, const char *code, const char *filename, bool interactive,
                      lang_result *res) {
    lang_vm *vm = &s->vm;
    memset(res, 0, sizeof *res);
    lang_mime_init(&res->value);
    lang_vm_clear_error(vm);
    nn_ctx_clear_error(s->ctx);
    atomic_store(&vm->interrupt, 0);
    atomic_store(&s->ctx->interrupt, 0);
    /* exit() is one statement's request, seen by the front end right after
     * it; a front end that stays must not see it on every later error. */
    vm->exit_requested = false;
    vm->exit_code = 0;
    vm->steps = 0;
    vm->depth = 0;
    vm->edepth = 0;
    lang_debug_cell_begin(vm);
    bool observed = s->observer != NULL;
    if (observed) { /* keep the cell's output for the observer */
        s->tee.len = 0;
        if (s->tee.data) s->tee.data[0] = 0;
        vm->tee = &s->tee;
    }
    lang_val value;
    bool ok =
        lang_eval_code(vm, code ? code : "", filename ? filename : "<input>", interactive, &value);
    lang_debug_cell_end(vm);
    if (ok && interactive && value.kind != LANG_NONE) {
        ok = lang_display_value(vm, value, &res->value);
        res->has_value = ok && res->value.n > 0;
        if (!ok) lang_mime_free(&res->value);
        if (ok) remember_value(s, value, filename);
    }
    lang_val_release(value);
    res->ok = ok;
    if (!ok) {
        if (vm->err == LANG_ERR_NONE) lang_raise(vm, LANG_ERR_RUNTIME, "unknown error");
        take_error(vm, &res->error);
    }
    nn_ctx_clear_error(s->ctx);
    if (observed) {
        vm->tee = NULL;
        lang_buf_add(&s->tee, "", 0);
        if (s->observer)
            s->observer(s->observer_user, code ? code : "", filename ? filename : "<input>", res,
                        s->tee.data ? s->tee.data : "");
    }
    /* A no_grad block left by an error restores its mode in __exit__; a
     * grad mode changed by set_grad_enabled stays, as in torch. */
    return ok;
}

/* ---- extensions (lang.h) ---- */

bool lang_session_add_magic(lang_session *s, const char *name, const char *signature,
                            const char *doc, lang_ext_magic_fn fn, void *user,
                            void (*free_user)(void *user)) {
    ext_magic *p = realloc(s->ext, sizeof *p * (size_t)(s->n_ext + 1));
    if (!p) return false;
    s->ext = p;
    char hname[64];
    snprintf(hname, sizeof hname, "%%%s", name);
    ext_magic *e = &s->ext[s->n_ext];
    e->name = strdup(name);
    e->help.name = strdup(hname);
    e->help.signature = strdup(signature ? signature : hname);
    e->help.doc = strdup(doc ? doc : "");
    e->help.example = "";
    e->fn = fn;
    e->user = user;
    e->free_user = free_user;
    if (!e->name || !e->help.name || !e->help.signature || !e->help.doc) return false;
    s->n_ext++;
    return true;
}

bool lang_session_ext_magic(lang_session *s, const char *name, const char *args, bool *ok) {
    for (int i = 0; i < s->n_ext; i++) {
        if (strcmp(s->ext[i].name, name)) continue;
        *ok = s->ext[i].fn(s, s->ext[i].user, args);
        if (!*ok && s->vm.err == LANG_ERR_NONE)
            lang_raise(&s->vm, LANG_ERR_RUNTIME, "%%%s failed", name);
        return true;
    }
    return false;
}

const lang_help *lang_session_ext_help(lang_session *s, const char *name) {
    for (int i = 0; i < s->n_ext; i++)
        if (!strcmp(s->ext[i].help.name, name) || !strcmp(s->ext[i].name, name))
            return &s->ext[i].help;
    return NULL;
}

bool lang_session_fail(lang_session *s, lang_err cls, const char *ename, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* ename must outlive the error: names come from string literals */
    return lang_raise_named(&s->vm, cls, ename, "%s", buf);
}

void lang_session_set_observer(lang_session *s, lang_observer_fn fn, void *user) {
    s->observer = fn;
    s->observer_user = user;
}

static char *error_text(lang_vm *vm) {
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%s: %s", vm->ename ? vm->ename : lang_err_name(vm->err),
                    vm->msg.data ? vm->msg.data : "");
    lang_vm_clear_error(vm);
    nn_ctx_clear_error(vm->ctx);
    return lang_buf_take(&b);
}

/* The evaluator's position, kept across code an extension runs. */
typedef struct saved_pos {
    const char *file;
    int line;
    nn_label label;
} saved_pos;

/* Run [code] nested in the running statement, the evaluator's position
 * kept; on failure the error as text in *err (or dropped). */
static bool run_nested(lang_session *s, const char *code, const char *filename, bool want_value,
                       lang_val *v, char **err) {
    lang_vm *vm = &s->vm;
    saved_pos p = {vm->file, vm->line, vm->ctx->label};
    bool ok = lang_eval_code(vm, code ? code : "", filename, want_value, v);
    vm->file = p.file, vm->line = p.line, vm->ctx->label = p.label;
    if (!ok) {
        char *e = error_text(vm);
        if (err)
            *err = e;
        else
            free(e);
    }
    return ok;
}

bool lang_session_run(lang_session *s, const char *code, const char *filename, char **err) {
    lang_val v;
    bool ok = run_nested(s, code, filename ? filename : "<drill>", false, &v, err);
    lang_val_release(v);
    return ok;
}

int lang_session_truth(lang_session *s, const char *expr, const char *filename, char **err) {
    lang_val v = lang_none();
    if (!run_nested(s, expr, filename ? filename : "<check>", true, &v, err)) return -1;
    bool t = false;
    bool ok = lang_truth(&s->vm, v, &t);
    lang_val_release(v);
    if (!ok) {
        char *e = error_text(&s->vm);
        if (err)
            *err = e;
        else
            free(e);
        return -1;
    }
    return t ? 1 : 0;
}

void lang_session_write(lang_session *s, lang_stream which, const char *text) {
    lang_vm_write(&s->vm, which, text, strlen(text));
}

void lang_session_show(lang_session *s, const lang_mime *bundle) {
    lang_vm_display(&s->vm, bundle, NULL, false);
}

char *lang_session_readline(lang_session *s, const char *prompt) {
    lang_vm *vm = &s->vm;
    if (!vm->fe.readline || (vm->fe.can_read && !vm->fe.can_read(vm->fe.user))) return NULL;
    return vm->fe.readline(vm->fe.user, prompt, false);
}

void lang_result_free(lang_result *res) {
    if (!res) return;
    lang_mime_free(&res->value);
    free(res->error.ename);
    free(res->error.evalue);
    for (int i = 0; i < res->error.n_traceback; i++) free(res->error.traceback[i]);
    free(res->error.traceback);
    memset(res, 0, sizeof *res);
}

/* ---- the debugger ---- */

bool lang_session_break(lang_session *s, const char *spec, char **err) {
    lang_vm *vm = &s->vm;
    lang_vm_clear_error(vm);
    if (lang_debug_add_break(vm, spec ? spec : "")) return true;
    if (err) *err = xstrdup(vm->msg.data ? vm->msg.data : "cannot set this breakpoint");
    lang_vm_clear_error(vm);
    return false;
}

void lang_session_break_next(lang_session *s) {
    lang_debug_break_next(&s->vm);
}

/* ---- history ---- */

void lang_session_add_history(lang_session *s, const char *code) {
    if (!code) return;
    if (s->n_history == s->cap_history) {
        int cap = s->cap_history ? s->cap_history * 2 : 64;
        char **p = realloc(s->history, sizeof *p * (size_t)cap);
        if (!p) return;
        s->history = p;
        s->cap_history = cap;
    }
    char *copy = strdup(code);
    if (copy) s->history[s->n_history++] = copy;
    lang_val str;
    size_t n = strlen(code);
    while (n && code[n - 1] == '\n') n--;
    if (lang_str_new(&s->vm, code, n, &str)) {
        lang_list_append(&s->vm, s->in_list, str);
        lang_val_release(str);
    }
    lang_vm_clear_error(&s->vm);
}

const char *const *lang_session_history(lang_session *s, int *n) {
    *n = s->n_history;
    return (const char *const *)s->history;
}

/* ---- %who ---- */

static int cmp_globals(const void *a, const void *b) {
    return strcmp((*(const lang_global *const *)a)->name, (*(const lang_global *const *)b)->name);
}

char *lang_who(lang_session *s) {
    lang_vm *vm = &s->vm;
    lang_buf b;
    lang_buf_init(&b);
    const lang_global **gs = malloc(sizeof *gs * (size_t)(vm->n_globals + 1));
    int n = 0;
    if (!gs) return lang_buf_take(&b);
    size_t width = 4;
    for (int64_t k = 0; k < vm->n_globals; k++) {
        if (!vm->globals[k].set) continue;
        gs[n++] = &vm->globals[k];
        size_t l = strlen(vm->globals[k].name);
        if (l > width) width = l;
    }
    qsort(gs, (size_t)n, sizeof *gs, cmp_globals);
    if (!n) lang_buf_puts(&b, "No variables.\n");
    for (int i = 0; i < n; i++) {
        nn_module *mod = lang_module_of(gs[i]->value);
        if (mod) {
            /* A module's repr is many lines; its size says more here. */
            int64_t np = nn_module_num_params(mod);
            lang_buf_printf(&b, "%-*s  %s %" PRId64 " parameters\n", (int)width, gs[i]->name,
                            lang_type_name(gs[i]->value), np);
            continue;
        }
        char *sum = lang_val_summary(vm, gs[i]->value);
        lang_buf_printf(&b, "%-*s  %s\n", (int)width, gs[i]->name, sum ? sum : "");
        free(sum);
    }
    free(gs);
    return lang_buf_take(&b);
}

/* ---- completion ---- */

static bool ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 0x80;
}

typedef struct strv {
    char **v;
    size_t n, cap;
} strv;

static void strv_add(strv *sv, const char *s, size_t n) {
    if (sv->n + 1 >= sv->cap) {
        size_t cap = sv->cap ? sv->cap * 2 : 32;
        char **p = realloc(sv->v, sizeof *p * cap);
        if (!p) return;
        sv->v = p;
        sv->cap = cap;
    }
    char *c = strndup(s, n);
    if (c) sv->v[sv->n++] = c;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **strv_finish(strv *sv) {
    if (!sv->v) {
        sv->v = calloc(1, sizeof(char *));
        return sv->v;
    }
    qsort(sv->v, sv->n, sizeof(char *), cmp_str);
    size_t w = 0;
    for (size_t i = 0; i < sv->n; i++) {
        if (w && !strcmp(sv->v[w - 1], sv->v[i])) {
            free(sv->v[i]);
            continue;
        }
        sv->v[w++] = sv->v[i];
    }
    sv->v[w] = NULL;
    return sv->v;
}

void lang_strv_free(char **v) {
    if (!v) return;
    for (size_t i = 0; v[i]; i++) free(v[i]);
    free(v);
}

static const char *const keywords[] = {"and",  "assert", "break",  "continue", "def",    "del",
                                       "elif", "else",   "False",  "for",      "global", "if",
                                       "in",   "is",     "lambda", "None",     "not",    "or",
                                       "pass", "return", "True",   "while",    "with",   NULL};

/* An identifier at text[*i] into [name] (NUL-terminated), advancing *i. */
static bool read_ident(const char *text, size_t n, size_t *i, char *name, size_t cap) {
    size_t j = *i;
    if (j >= n || (text[j] >= '0' && text[j] <= '9')) return false;
    while (j < n && ident_char(text[j])) j++;
    if (j == *i || j - *i >= cap) return false;
    memcpy(name, text + *i, j - *i);
    name[j - *i] = 0;
    *i = j;
    return true;
}

/* The index of a subscript, "[" already read: an int literal (possibly
 * negative), a str literal without escapes, or a global's name, then "]".
 * Anything else (an expression, a slice, a call) is not evaluated. */
static bool read_index(lang_vm *vm, const char *text, size_t n, size_t *i, lang_val *key) {
    size_t j = *i;
    while (j < n && text[j] == ' ') j++;
    if (j >= n) return false;
    char c = text[j];
    if (c == '\'' || c == '"') {
        size_t s = ++j;
        while (j < n && text[j] != c && text[j] != '\\') j++;
        if (j >= n || text[j] != c) return false;
        if (!lang_str_new(vm, text + s, j - s, key)) return false;
        j++;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        bool neg = c == '-';
        if (neg) j++;
        if (j >= n || text[j] < '0' || text[j] > '9') return false;
        int64_t v = 0;
        for (; j < n && text[j] >= '0' && text[j] <= '9'; j++) {
            if (v > (INT64_MAX - (text[j] - '0')) / 10) return false;
            v = v * 10 + (text[j] - '0');
        }
        *key = lang_int(neg ? -v : v);
    } else {
        char name[256];
        if (!read_ident(text, n, &j, name, sizeof name)) return false;
        lang_val *g = lang_vm_global(vm, name);
        if (!g) return false;
        *key = lang_val_retain(*g);
    }
    while (j < n && text[j] == ' ') j++;
    if (j >= n || text[j] != ']') {
        lang_val_release(*key);
        return false;
    }
    *i = j + 1;
    return true;
}

/* o[key] for completion, only where that has no side effect: containers and
 * module lists index without running anything. A tensor's items would run an
 * op through the engine's hooks (a breakpoint could fire, a trace print), so
 * the tensor itself stands in for its item: both complete the same. */
static bool safe_getitem(lang_vm *vm, lang_val o, lang_val key, lang_val *out) {
    if (lang_tensor_of(o)) {
        if (key.kind != LANG_INT && !lang_tensor_of(key)) return false;
        *out = lang_val_retain(o);
        return true;
    }
    if (lang_is_obj(o, &lang_list_type) || lang_is_obj(o, &lang_tuple_type) ||
        lang_is_obj(o, &lang_dict_type) || lang_is_obj(o, &lang_str_type) || lang_module_of(o))
        return lang_getitem(vm, o, key, out);
    return false;
}

/* Evaluate a chain of names, attributes and simple subscripts
 * ("model.layers[0].weight", "d['k']") without calls. Any failure means no
 * value, and leaves no error pending. */
static bool eval_chain(lang_vm *vm, const char *text, size_t n, lang_val *out) {
    size_t i = 0;
    char name[256];
    if (!read_ident(text, n, &i, name, sizeof name)) return false;
    lang_val *g = lang_vm_global(vm, name);
    if (!g) return false;
    lang_val cur = lang_val_retain(*g);
    bool ok = true;
    while (ok && i < n) {
        lang_val next;
        if (text[i] == '.') {
            i++;
            ok = read_ident(text, n, &i, name, sizeof name) && lang_getattr(vm, cur, name, &next);
        } else if (text[i] == '[') {
            i++;
            lang_val key;
            ok = read_index(vm, text, n, &i, &key);
            if (ok) {
                ok = safe_getitem(vm, cur, key, &next);
                lang_val_release(key);
            }
        } else {
            ok = false;
        }
        if (ok) {
            lang_val_release(cur);
            cur = next;
        }
    }
    if (!ok) {
        lang_vm_clear_error(vm);
        lang_val_release(cur);
        return false;
    }
    *out = cur;
    return true;
}

/* Start of the chain of names, attributes and subscripts that ends at [end].
 * A subscript counts only when it follows a name or another subscript (not
 * a list literal) and holds no bracket or newline of its own. */
static size_t chain_start(const char *code, size_t end) {
    size_t i = end;
    for (;;) {
        while (i > 0 && (ident_char(code[i - 1]) || code[i - 1] == '.')) i--;
        if (i == 0 || code[i - 1] != ']') break;
        size_t k = i - 1;
        char q = 0;
        bool found = false;
        while (k > 0) {
            char c = code[k - 1];
            if (c == '\n') break;
            if (q) {
                if (c == q) q = 0;
            } else if (c == '\'' || c == '"') {
                q = c;
            } else if (c == '[') {
                found = true;
                break;
            } else if (c == ']') {
                break;
            }
            k--;
        }
        /* k - 1 is the '['; what precedes it must be a name or a subscript. */
        if (!found || k < 2 || !(ident_char(code[k - 2]) || code[k - 2] == ']')) break;
        i = k - 1;
    }
    while (i < end && (code[i] == '.' || (code[i] >= '0' && code[i] <= '9'))) i++;
    return i;
}

/* Parameter names from a signature "f(a, b=1, *, c=None)" into [sv], as
 * "name=" for those that match [prefix]. */
static void kwargs_from_signature(const char *sig, const char *prefix, size_t pl, strv *sv) {
    const char *p = sig ? strchr(sig, '(') : NULL;
    if (!p) return;
    p++;
    int depth = 0;
    while (*p && !(depth == 0 && *p == ')')) {
        while (*p == ' ' || *p == ',') p++;
        const char *s = p;
        while (ident_char(*p)) p++;
        size_t n = (size_t)(p - s);
        if (n && n >= pl && !strncmp(s, prefix, pl) && strncmp(s, "self", n)) {
            char buf[128];
            if (n < sizeof buf - 1) {
                memcpy(buf, s, n);
                buf[n] = '=';
                strv_add(sv, buf, n + 1);
            }
        }
        /* skip to the next top-level comma */
        while (*p && !(depth == 0 && (*p == ',' || *p == ')'))) {
            if (*p == '(' || *p == '[' || *p == '{')
                depth++;
            else if (*p == ')' || *p == ']' || *p == '}')
                depth--;
            p++;
        }
    }
}

static const char *signature_of(lang_vm *vm, lang_val f, char *buf, size_t cap) {
    if (lang_func_info(vm, f, buf, cap, NULL, NULL)) return buf;
    const lang_help *h = lang_val_help(vm, f);
    return h ? h->signature : NULL;
}

char **lang_complete(lang_session *s, const char *code, size_t cursor, size_t *start, size_t *end) {
    lang_vm *vm = &s->vm;
    strv sv = {0};
    size_t len = strlen(code);
    if (cursor > len) cursor = len;
    size_t ws = cursor;
    while (ws > 0 && ident_char(code[ws - 1])) ws--;
    *start = ws;
    *end = cursor;
    const char *prefix = code + ws;
    size_t pl = cursor - ws;
    size_t ls = cursor;
    while (ls > 0 && code[ls - 1] != '\n') ls--;
    size_t li = ls;
    while (li < cursor && (code[li] == ' ' || code[li] == '\t')) li++;

    /* %load FILE: paths */
    if (!strncmp(code + li, "%load ", 6) && cursor >= li + 6) {
        size_t ps = li + 6;
        while (ps < cursor && code[ps] == ' ') ps++;
        char path[1024];
        size_t n = cursor - ps;
        if (n >= sizeof path) n = sizeof path - 1;
        memcpy(path, code + ps, n);
        path[n] = 0;
        char *slash = strrchr(path, '/');
        char dir[1024];
        const char *base;
        if (slash) {
            size_t dl = (size_t)(slash - path) + 1;
            memcpy(dir, path, dl);
            dir[dl] = 0;
            base = slash + 1;
        } else {
            strcpy(dir, "");
            base = path;
        }
        DIR *d = opendir(dir[0] ? dir : ".");
        if (d) {
            struct dirent *de;
            while ((de = readdir(d))) {
                if (de->d_name[0] == '.' && base[0] != '.') continue;
                if (strncmp(de->d_name, base, strlen(base))) continue;
                char full[2300];
                bool isdir = de->d_type == DT_DIR;
                snprintf(full, sizeof full, "%s%s%s", dir, de->d_name, isdir ? "/" : "");
                strv_add(&sv, full, strlen(full));
            }
            closedir(d);
        }
        *start = ps;
        return strv_finish(&sv);
    }
    /* %magics */
    if (ws > 0 && code[ws - 1] == '%' && ws - 1 == li) {
        for (int i = 0; lang_magic_names[i]; i++)
            if (!strncmp(lang_magic_names[i], prefix, pl)) {
                char buf[64];
                snprintf(buf, sizeof buf, "%%%s", lang_magic_names[i]);
                strv_add(&sv, buf, strlen(buf));
            }
        *start = ws - 1;
        return strv_finish(&sv);
    }
    /* attributes after a dot */
    if (ws > 0 && code[ws - 1] == '.') {
        size_t cs = chain_start(code, ws - 1);
        lang_val v;
        if (cs < ws - 1 && eval_chain(vm, code + cs, ws - 1 - cs, &v)) {
            const char **names = lang_dir(vm, v);
            for (int i = 0; names && names[i]; i++)
                if (!strncmp(names[i], prefix, pl) && (pl || names[i][0] != '_'))
                    strv_add(&sv, names[i], strlen(names[i]));
            free(names);
            lang_val_release(v);
        }
        return strv_finish(&sv);
    }
    /* keyword arguments of the innermost open call */
    {
        int depth = 0;
        size_t i = ws;
        bool in_str = false;
        while (i > 0) {
            char c = code[i - 1];
            if (c == '\'' || c == '"') in_str = !in_str;
            if (!in_str) {
                if (c == ')' || c == ']' || c == '}')
                    depth++;
                else if (c == '[' || c == '{') {
                    if (depth == 0) break;
                    depth--;
                } else if (c == '(') {
                    if (depth == 0) {
                        size_t cs = chain_start(code, i - 1);
                        lang_val f;
                        if (cs < i - 1 && eval_chain(vm, code + cs, i - 1 - cs, &f)) {
                            char buf[512];
                            kwargs_from_signature(signature_of(vm, f, buf, sizeof buf), prefix, pl,
                                                  &sv);
                            lang_val_release(f);
                        }
                        break;
                    }
                    depth--;
                }
            }
            i--;
        }
    }
    /* names in scope, builtins, keywords */
    for (int64_t k = 0; k < vm->n_globals; k++) {
        const lang_global *g = &vm->globals[k];
        if ((g->set || g->has_builtin) && !strncmp(g->name, prefix, pl))
            strv_add(&sv, g->name, strlen(g->name));
    }
    for (int i = 0; keywords[i]; i++)
        if (!strncmp(keywords[i], prefix, pl)) strv_add(&sv, keywords[i], strlen(keywords[i]));
    return strv_finish(&sv);
}

/* ---- inspection ---- */

char *lang_inspect(lang_session *s, const char *code, size_t cursor, int detail) {
    lang_vm *vm = &s->vm;
    size_t len = strlen(code);
    if (cursor > len) cursor = len;
    size_t e = cursor;
    while (e < len && ident_char(code[e])) e++;
    size_t b = chain_start(code, e);
    /* Just after "f(" inspects f, as Jupyter's shift-tab does. */
    if (b == e && e > 0 && code[e - 1] == '(') {
        e--;
        b = chain_start(code, e);
    }
    if (b == e) return NULL;
    char name[512];
    size_t n = e - b < sizeof name - 1 ? e - b : sizeof name - 1;
    memcpy(name, code + b, n);
    name[n] = 0;
    lang_buf out;
    lang_buf_init(&out);
    lang_val v;
    bool have = eval_chain(vm, name, n, &v);
    const lang_help *h = NULL;
    if (have) {
        if (lang_is_obj(v, &lang_func_type)) {
            char sig[512];
            const char *file;
            int line;
            lang_func_info(vm, v, sig, sizeof sig, &file, &line);
            lang_buf_printf(&out, "%s\n\n    defined at %s:%d\n", sig, file ? file : "?", line);
        } else {
            h = lang_val_help(vm, v);
            if (h) {
                lang_help tmp = *h;
                if (detail == 0) tmp.example = NULL;
                lang_help_format(&tmp, &out);
            }
            if (detail > 0 || !h) {
                char *sum = lang_val_summary(vm, v);
                lang_buf_printf(&out, "%s%s\n", h ? "\n" : "", sum ? sum : "");
                free(sum);
            }
        }
        lang_val_release(v);
    } else {
        h = lang_vm_help(vm, name);
        if (!h) {
            lang_buf_free(&out);
            return NULL;
        }
        lang_help tmp = *h;
        if (detail == 0) tmp.example = NULL;
        lang_help_format(&tmp, &out);
    }
    return lang_buf_take(&out);
}
