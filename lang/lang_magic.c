/* lang_magic: IPython-style session commands (%help, %who, %reset, %time,
 * %seed, %load, %threads, %history), run when the evaluator meets a
 * LANG_ST_MAGIC statement. Output goes through lang_vm_write.
 *
 * Owned by the language-runtime engineer. The debugger magics (%break,
 * %step, %where, ...) belong to a later issue: they answer "not yet
 * available" here so that the names are reserved and the message is clear.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lang_debug.h"
#include "lang_display.h"
#include "lang_eval.h"
#include "lang_instruments.h"
#include "lang_parse.h"
#include "lang_probe.h"

const char *const lang_magic_names[] = {
    "help",    "who",    "reset",   "time",   "seed",   "load",  "threads", "history",
    "break",   "delete", "disable", "enable", "step",   "where", "graph",   "anomaly",
    "profile", "stats",  "drill",   "probe",  "doctor", NULL};

const lang_help lang_magic_helps[] = {
    {"%help", "%help [name]", "List the magics, or show the help of a builtin, method or magic.",
     "%help sum"},
    {"%who", "%who", "The session's variables with their types, shapes and memory.", "%who"},
    {"%reset", "%reset [-f]", "Delete every variable (asks first unless -f).", "%reset -f"},
    {"%time", "%time STATEMENT",
     "Run one statement and print its wall time; for a loop also the time per iteration.",
     "%time for i in range(1000): pass"},
    {"%seed", "%seed N", "Seed the random generator (as manual_seed(N)).", "%seed 0"},
    {"%load", "%load FILE", "Run a .nn file in this session; its variables stay.",
     "%load train.nn"},
    {"%threads", "%threads [N]",
     "Show or set the number of threads for matmul and parallel kernels.", "%threads 2"},
    {"%history", "%history [-n N]", "The inputs run so far in this session (the last N).",
     "%history -n 5"},
    {"%break", "%break [SPEC [if COND]]",
     "Set a breakpoint in the forward or backward pass and print its number, or list them. SPEC: "
     "an op (matmul, log), a module path (model.2, model.blocks.*.attn), forward, backward, nan, "
     "line N, FILE:LINE, step N, or several of these; COND is code with out, inputs, grad bound. "
     "See docs/debugger.md.",
     "%break model.2 if out.abs().max() > 1e4"},
    {"%delete", "%delete N|all", "Delete breakpoints.", "%delete all"},
    {"%disable", "%disable N|all", "Disable breakpoints (they stay in the list).", "%disable 1"},
    {"%enable", "%enable N|all", "Enable breakpoints again.", "%enable 1"},
    {"%step", "%step STATEMENT",
     "Run the statement and stop at its first op, with the (nndb) prompt (as pdb.run).",
     "%step loss.backward()"},
    {"%where", "%where", "At a stop: the module stack, your def frames and the position.", ""},
    {"%graph", "%graph [--depth N] [EXPR]",
     "The recorded autograd graph behind EXPR (default: what backward() last ran on, or at a "
     "stop the graph so far): a text tree, and an SVG laid out by Graphviz in Jupyter.",
     "%graph loss"},
    {"%anomaly", "%anomaly on|off",
     "The NaN hunt: stop at the op that first made a NaN or an infinity, forward or backward, "
     "with an AnomalyError naming it.",
     "%anomaly on"},
    {"%profile", "%profile STATEMENT",
     "Run one statement with the profiler on: per op and per module, forward and backward apart, "
     "calls, time, FLOPs, bytes, GFLOP/s and percent of the sgemm peak (as profile()).",
     "%profile step()"},
    {"%stats", "%stats MODEL[, OPT]",
     "Per-parameter statistics of a model: data and gradient mean/std, grad:data and, with the "
     "optimizer, update:data (as stats()).",
     "%stats model, opt"},
    {"%drill", "%drill list | start ID | predict | check | hint | answer | next | status | export",
     "Guided drills (docs/drills.md); the REPL and the kernel install it.", "%drill list"},
    {"%probe", "%probe [--json] [--no-bandwidth] [--root DIR]",
     "The GPUs, their PCIe path, driver and device nodes, each reading with its source (as "
     "`nndb probe`); --root reads a recorded machine tree instead of /.",
     "%probe --no-bandwidth"},
    {"%doctor", "%doctor [--json] [--root DIR]",
     "Findings about the GPU setup, each with evidence and a fix (as `nndb doctor`); --root "
     "reads a recorded machine tree instead of /.",
     "%doctor"},
    {NULL, NULL, NULL, NULL},
};

static void out(lang_vm *vm, const char *s) {
    lang_vm_write(vm, LANG_STDOUT, s, strlen(s));
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fmt_time(char *buf, size_t cap, double s) {
    if (s >= 1)
        snprintf(buf, cap, "%.3g s", s);
    else if (s >= 1e-3)
        snprintf(buf, cap, "%.3g ms", s * 1e3);
    else if (s >= 1e-6)
        snprintf(buf, cap, "%.3g \xc2\xb5s", s * 1e6);
    else
        snprintf(buf, cap, "%.3g ns", s * 1e9);
}

/* Trimmed copy of the magic's argument text. */
static char *args_of(const lang_stmt *s) {
    const char *a = s->u.magic.args ? s->u.magic.args : "";
    size_t n = s->u.magic.args ? s->u.magic.args_len : 0;
    while (n && (*a == ' ' || *a == '\t')) a++, n--;
    /* A trailing comment is not part of the arguments. */
    for (size_t i = 1; i < n; i++)
        if (a[i] == '#' && (a[i - 1] == ' ' || a[i - 1] == '\t')) {
            n = i;
            break;
        }
    while (n && (a[n - 1] == ' ' || a[n - 1] == '\t' || a[n - 1] == '\n' || a[n - 1] == '\r')) n--;
    return strndup(a, n);
}

static bool m_help(lang_vm *vm, const char *args) {
    lang_buf b;
    lang_buf_init(&b);
    if (!*args) {
        lang_buf_puts(&b, "Magics:\n");
        for (const lang_help *h = lang_magic_helps; h->name; h++)
            lang_buf_printf(&b, "  %-18s %s\n", h->signature, h->doc);
        lang_buf_puts(&b, "help(name) or %help name shows the help of a builtin or method.\n");
    } else {
        const lang_help *h = lang_session_ext_help(vm->session, args[0] == '%' ? args + 1 : args);
        if (!h) h = lang_vm_help(vm, args);
        if (!h && args[0] != '%') {
            char m[128];
            snprintf(m, sizeof m, "%%%s", args);
            h = lang_vm_help(vm, m);
        }
        if (!h) {
            lang_buf_free(&b);
            return lang_raise(vm, LANG_ERR_NAME,
                              "no help for '%s'; %%help lists the magics, dir() the names", args);
        }
        lang_help_format(h, &b);
    }
    out(vm, b.data ? b.data : "");
    lang_buf_free(&b);
    return true;
}

static bool m_time(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    lang_module *pm = lang_magic_parse_args(vm, s, m, "time", "a statement: %time x = f(y)");
    if (!pm) return false;
    const lang_stmt *loop =
        pm->body.n == 1 && pm->body.items[0]->kind == LANG_ST_FOR ? pm->body.items[0] : NULL;
    const lang_stmt *saved_loop = vm->timed_loop;
    int64_t saved_iters = vm->timed_iters;
    vm->timed_loop = loop;
    vm->timed_iters = 0;
    double t0 = now_s();
    lang_val v;
    bool ok = lang_eval_module(vm, pm, false, &v);
    double dt = now_s() - t0;
    int64_t iters = vm->timed_iters;
    vm->timed_loop = saved_loop;
    vm->timed_iters = saved_iters;
    lang_val_release(v);
    char t[64], line[256];
    fmt_time(t, sizeof t, dt);
    snprintf(line, sizeof line, "Wall time: %s\n", t);
    out(vm, line);
    if (loop && iters > 0) {
        fmt_time(t, sizeof t, dt / (double)iters);
        snprintf(line, sizeof line, "%s per iteration (%" PRId64 " iterations)\n", t, iters);
        out(vm, line);
    }
    return ok;
}

/* Parse the magic's argument text as code, with positions in the cell;
 * [usage] completes "%NAME needs ..." when it is empty (lang_eval.h). */
lang_module *lang_magic_parse_args(lang_vm *vm, const lang_stmt *s, const lang_module *m,
                                   const char *magic, const char *usage) {
    lang_parse_opts o;
    memset(&o, 0, sizeof o);
    o.filename = m && m->filename ? m->filename : "<input>";
    o.first_line = s->u.magic.args_pos.line;
    o.first_col = s->u.magic.args_pos.col;
    o.first_ccol = s->u.magic.args_pos.ccol;
    o.no_magics = true;
    const char *a = s->u.magic.args ? s->u.magic.args : "";
    size_t n = s->u.magic.args ? s->u.magic.args_len : 0;
    lang_module *pm = lang_parse(a, n, &o);
    if (!pm) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory"), NULL;
    if (pm->nerrors) {
        lang_raise(vm, LANG_ERR_SYNTAX, "%%%s: %s", magic, pm->errors[0].message);
        lang_module_release(pm);
        return NULL;
    }
    if (pm->body.n == 0) {
        lang_raise(vm, LANG_ERR_VALUE, "%%%s needs %s", magic, usage);
        lang_module_release(pm);
        return NULL;
    }
    return pm;
}

static bool show(lang_vm *vm, lang_val v) {
    lang_mime mime;
    lang_mime_init(&mime);
    bool ok = lang_display_value(vm, v, &mime);
    if (ok) lang_vm_display(vm, &mime, NULL, false);
    lang_mime_free(&mime);
    return ok;
}

/* A report's text and HTML without running anything that could raise. */
static void report_text(lang_val rep, lang_mime *mime) {
    const lang_type *t = rep.kind == LANG_OBJ ? rep.u.o->type : NULL;
    if (t && t->display) t->display(NULL, rep.u.o, mime);
}

static bool m_profile(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    lang_module *pm = lang_magic_parse_args(vm, s, m, "profile", "a statement: %profile f()");
    if (!pm) return false;
    void *prof = lang_instruments_profile_begin(vm);
    if (!prof) {
        lang_module_release(pm);
        return false;
    }
    double t0 = now_s();
    lang_val v;
    bool ok = lang_eval_module(vm, pm, false, &v);
    double wall = now_s() - t0;
    lang_module_release(pm);
    if (ok) lang_val_release(v);
    lang_val rep;
    if (!lang_instruments_profile_end(vm, prof, wall, &rep)) return false;
    /* A statement that failed still shows what ran until then. */
    if (!ok) {
        /* The error stays pending; showing the report needs no new one. */
        lang_mime mime;
        lang_mime_init(&mime);
        report_text(rep, &mime);
        lang_vm_display(vm, &mime, NULL, false);
        lang_mime_free(&mime);
    } else {
        ok = show(vm, rep);
    }
    lang_val_release(rep);
    return ok;
}

static bool m_stats(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    lang_module *pm = lang_magic_parse_args(vm, s, m, "stats", "a model: %stats model");
    if (!pm) return false;
    lang_val v;
    bool ok = lang_eval_module(vm, pm, true, &v);
    lang_module_release(pm);
    if (!ok) return false;
    lang_val model = v, opt = lang_none();
    if (lang_is_obj(v, &lang_tuple_type) && lang_seq_len(v) == 2) {
        model = lang_seq_items(v)[0];
        opt = lang_seq_items(v)[1];
    }
    lang_val rep;
    ok = lang_instruments_stats(vm, model, opt, &rep);
    lang_val_release(v);
    if (!ok) return false;
    ok = show(vm, rep);
    lang_val_release(rep);
    return ok;
}

static bool m_reset(lang_vm *vm, const char *args) {
    if (strcmp(args, "-f") != 0) {
        if (*args) return lang_raise(vm, LANG_ERR_VALUE, "%%reset takes only -f");
        char *ans = NULL;
        if (vm->fe.readline) {
            if (!lang_vm_readline(vm,
                                  "Once deleted, variables cannot be recovered. Proceed (y/[n])? ",
                                  false, &ans))
                return false;
            bool yes = ans && (ans[0] == 'y' || ans[0] == 'Y');
            free(ans);
            if (!yes) {
                out(vm, "Nothing done.\n");
                return true;
            }
        }
    }
    lang_vm_reset_globals(vm);
    return true;
}

static bool parse_int_arg(lang_vm *vm, const char *args, const char *magic, int64_t *v) {
    char *end;
    errno = 0;
    long long x = strtoll(args, &end, 10);
    if (!*args || *end || errno)
        return lang_raise(vm, LANG_ERR_VALUE, "%%%s needs an integer, got '%s'", magic, args);
    *v = x;
    return true;
}

static bool m_load(lang_vm *vm, const char *path) {
    if (!*path) return lang_raise(vm, LANG_ERR_VALUE, "%%load needs a file name: %%load train.nn");
    FILE *f = fopen(path, "rb");
    if (!f)
        return lang_raise_named(vm, LANG_ERR_IO, "FileNotFoundError", "%s: %s", path,
                                strerror(errno));
    lang_buf b;
    lang_buf_init(&b);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) lang_buf_add(&b, chunk, n);
    fclose(f);
    lang_val v;
    bool ok = lang_eval_code(vm, b.data ? b.data : "", path, false, &v);
    lang_val_release(v);
    lang_buf_free(&b);
    return ok;
}

static bool m_history(lang_vm *vm, const char *args) {
    int64_t last = -1;
    if (!strncmp(args, "-n", 2)) {
        const char *p = args + 2;
        while (*p == ' ') p++;
        if (!parse_int_arg(vm, p, "history -n", &last)) return false;
    } else if (*args) {
        return lang_raise(vm, LANG_ERR_VALUE, "%%history takes only -n N");
    }
    int n;
    const char *const *h = lang_session_history(vm->session, &n);
    int from = last >= 0 && last < n ? n - (int)last : 0;
    lang_buf b;
    lang_buf_init(&b);
    for (int i = from; i < n; i++) {
        lang_buf_printf(&b, "%4d: ", i + 1);
        for (const char *p = h[i]; *p; p++) {
            lang_buf_add(&b, p, 1);
            if (*p == '\n' && p[1]) lang_buf_puts(&b, "      ");
        }
        if (!*h[i] || h[i][strlen(h[i]) - 1] != '\n') lang_buf_puts(&b, "\n");
    }
    out(vm, b.data ? b.data : "");
    lang_buf_free(&b);
    return true;
}

bool lang_magic_run(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    const char *name = s->u.magic.name->str;
    if (!strcmp(name, "time")) return m_time(vm, s, m);
    if (!strcmp(name, "profile")) return m_profile(vm, s, m);
    if (!strcmp(name, "stats")) return m_stats(vm, s, m);
    if (vm->sandbox && (!strcmp(name, "load") || !strcmp(name, "threads")))
        return lang_raise(vm, LANG_ERR_RUNTIME, "%%%s is off in this sandbox", name);
    char *args = args_of(s);
    if (!args) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    bool ok = true;
    if (lang_session_ext_magic(vm->session, name, args, &ok)) {
        free(args);
        return ok;
    }
    if (!strcmp(name, "help"))
        ok = m_help(vm, args);
    else if (!strcmp(name, "who")) {
        char *w = lang_who(vm->session);
        if (w) out(vm, w);
        free(w);
    } else if (!strcmp(name, "reset"))
        ok = m_reset(vm, args);
    else if (!strcmp(name, "seed")) {
        int64_t v = 0;
        ok = parse_int_arg(vm, args, "seed", &v);
        if (ok) nn_ctx_seed(vm->ctx, (uint64_t)v);
    } else if (!strcmp(name, "threads")) {
        if (!*args) {
            char line[64];
            snprintf(line, sizeof line, "%d\n", nn_get_num_threads());
            out(vm, line);
        } else {
            int64_t v = 0;
            ok = parse_int_arg(vm, args, "threads", &v);
            if (ok && (v < 1 || v > 1024))
                ok = lang_raise(vm, LANG_ERR_VALUE, "%%threads needs 1 to 1024");
            if (ok) nn_set_num_threads((int)v);
        }
    } else if (!strcmp(name, "load"))
        ok = m_load(vm, args);
    else if (!strcmp(name, "history"))
        ok = m_history(vm, args);
    else if (!strcmp(name, "probe") || !strcmp(name, "doctor"))
        ok = lang_probe_magic(vm, !strcmp(name, "doctor"), args);
    else if (lang_debug_magic(vm, name, args, s, m, &ok)) {
    } else {
        bool known = false;
        for (int i = 0; lang_magic_names[i]; i++) known |= !strcmp(lang_magic_names[i], name);
        if (known) {
            ok = lang_raise(vm, LANG_ERR_RUNTIME,
                            "%%%s is not yet available in this version of nndb", name);
        } else {
            lang_buf b;
            lang_buf_init(&b);
            for (int i = 0; i < 8; i++)
                lang_buf_printf(&b, "%s%%%s", i ? ", " : "", lang_magic_names[i]);
            ok = lang_raise(vm, LANG_ERR_NAME, "unknown magic %%%s; the magics are %s", name,
                            b.data ? b.data : "");
            lang_buf_free(&b);
        }
    }
    free(args);
    return ok;
}
