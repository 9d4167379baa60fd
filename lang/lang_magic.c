/* lang_magic: IPython-style session commands (%help, %who, %reset, %time,
 * %seed, %load, %threads, %history), run when the evaluator meets a
 * LANG_ST_MAGIC statement. Output goes through lang_vm_write.
 *
 * Owned by the language-runtime engineer. The debugger magics (%break,
 * %step, %where, ...) belong to a later issue: they answer "not yet
 * available" here so that the names are reserved and the message is clear.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lang_debug.h"
#include "lang_display.h"
#include "lang_eval.h"
#include "lang_instruments.h"
#include "lang_nn.h"
#include "lang_parse.h"
#include "lang_probe.h"
#include "lang_suggest.h"
#include "nn_module.h"

extern char **environ;

const char *const lang_magic_names[] = {
    "help",   "who",     "reset",  "time",   "seed",  "load",  "threads", "history",
    "timeit", "run",     "whos",   "pwd",    "cd",    "env",   "system",  "break",
    "delete", "disable", "enable", "step",   "where", "graph", "anomaly", "profile",
    "stats",  "drill",   "probe",  "doctor", NULL};

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
    {"%timeit", "%timeit [-n N] [-r R] STATEMENT",
     "Time a statement over many runs, as IPython does: loops per run chosen so that a run "
     "takes 0.2 s or more (or -n N), R runs (default 7); prints mean \u00b1 std. dev. per loop.",
     "%timeit x @ x"},
    {"%run", "%run FILE", "Run a .nn script in this session (as %load); its variables stay.",
     "%run train.nn"},
    {"%whos", "%whos",
     "A table of the session's variables: type, and for tensors shape, dtype and memory, for "
     "modules the parameter count.",
     "%whos"},
    {"%pwd", "%pwd", "The current working directory.", "%pwd"},
    {"%cd", "%cd [DIR]", "Change the working directory (to $HOME without DIR); prints it.",
     "%cd data"},
    {"%env", "%env [NAME[=VALUE]]",
     "The environment: all of it, one variable, or set one (%env NAME=VALUE or NAME VALUE).",
     "%env OMP_NUM_THREADS=1"},
    {"%system", "!COMMAND  or  %system COMMAND",
     "Run a shell command; its output (stdout and stderr) streams as it comes.", "!ls"},
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

/* The statement after a timing magic, parsed at its place in the cell
 * ([skip] bytes of options before it), or NULL with an error raised. */
static lang_module *parse_timed(lang_vm *vm, const lang_stmt *s, const lang_module *m,
                                const char *magic, size_t skip) {
    lang_parse_opts o;
    memset(&o, 0, sizeof o);
    o.filename = m && m->filename ? m->filename : "<input>";
    o.first_line = s->u.magic.args_pos.line;
    o.first_col = s->u.magic.args_pos.col + (int)skip;
    o.first_ccol = s->u.magic.args_pos.ccol + (int)skip;
    o.no_magics = true;
    const char *a = s->u.magic.args ? s->u.magic.args : "";
    size_t n = s->u.magic.args ? s->u.magic.args_len : 0;
    if (skip > n) skip = n;
    lang_module *pm = lang_parse(a + skip, n - skip, &o);
    if (!pm) {
        lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        return NULL;
    }
    if (pm->nerrors) {
        lang_raise(vm, LANG_ERR_SYNTAX, "%%%s: %s", magic, pm->errors[0].message);
        lang_module_release(pm);
        return NULL;
    }
    if (pm->body.n == 0) {
        lang_module_release(pm);
        lang_raise(vm, LANG_ERR_VALUE, "%%%s needs a statement: %%%s x = f(y)", magic, magic);
        return NULL;
    }
    return pm;
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
    /* One expression: its value is shown after the time, as IPython does. */
    bool expr = pm->body.n == 1 && pm->body.items[0]->kind == LANG_ST_EXPR;
    double t0 = now_s();
    lang_val v = lang_none();
    bool ok = lang_eval_module(vm, pm, expr, &v);
    double dt = now_s() - t0;
    int64_t iters = vm->timed_iters;
    vm->timed_loop = saved_loop;
    vm->timed_iters = saved_iters;
    char t[64], line[256];
    fmt_time(t, sizeof t, dt);
    snprintf(line, sizeof line, "Wall time: %s\n", t);
    out(vm, line);
    if (loop && iters > 0) {
        fmt_time(t, sizeof t, dt / (double)iters);
        snprintf(line, sizeof line, "%s per iteration (%" PRId64 " iterations)\n", t, iters);
        out(vm, line);
    }
    if (ok && expr && v.kind != LANG_NONE) {
        lang_mime b;
        lang_mime_init(&b);
        ok = lang_display_value(vm, v, &b);
        if (ok) {
            const char *text = lang_mime_get(&b, "text/plain");
            /* Through display where the front end has one (a notebook shows
             * the rich form); as text otherwise. */
            if (vm->fe.display) {
                lang_vm_display(vm, &b, NULL, false);
            } else if (text) {
                out(vm, text);
                out(vm, "\n");
            }
        }
        lang_mime_free(&b);
    }
    lang_val_release(v);
    return ok;
}

/* IPython's format of a time span: three significant digits in s, ms, us
 * or ns. */
static void fmt_span(char *buf, size_t cap, double s) {
    static const char *const units[] = {"s", "ms", "\xc2\xb5s", "ns"};
    static const double scale[] = {1, 1e3, 1e6, 1e9};
    int order = 3;
    if (s > 0) {
        /* Python's -int(floor(log10(s)) // 3) with floor division. */
        int e = (int)floor(log10(s));
        int q = e >= 0 ? e / 3 : -((-e + 2) / 3);
        order = -q;
        if (order < 0) order = 0;
        if (order > 3) order = 3;
    }
    snprintf(buf, cap, "%.3g %s", s * scale[order], units[order]);
}

/* One run of [pm] [number] times; the seconds it took, or -1 on error. */
static double timeit_run(lang_vm *vm, lang_module *pm, int64_t number) {
    double t0 = now_s();
    for (int64_t i = 0; i < number; i++) {
        lang_val v;
        lang_module_retain(pm); /* each run takes over one reference */
        bool ok = lang_eval_module(vm, pm, false, &v);
        lang_val_release(v);
        if (!ok) return -1;
    }
    return now_s() - t0;
}

static void group_thousands(char *buf, size_t cap, int64_t n) {
    char raw[32];
    snprintf(raw, sizeof raw, "%" PRId64, n);
    size_t len = strlen(raw), o = 0;
    for (size_t i = 0; i < len && o + 2 < cap; i++) {
        if (i && (len - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = 0;
}

static bool m_timeit(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    const char *a = s->u.magic.args ? s->u.magic.args : "";
    size_t n = s->u.magic.args ? s->u.magic.args_len : 0, i = 0;
    int64_t number = 0, repeat = 7;
    /* Options first: -n N, -r R (IPython's). */
    for (;;) {
        while (i < n && (a[i] == ' ' || a[i] == '\t')) i++;
        if (i + 1 < n && a[i] == '-' && (a[i + 1] == 'n' || a[i + 1] == 'r')) {
            char opt = a[i + 1];
            i += 2;
            while (i < n && a[i] == ' ') i++;
            char *end;
            long long v = strtoll(a + i, &end, 10);
            if (end == a + i || v < 1 || v > 1000000000LL)
                return lang_raise(vm, LANG_ERR_VALUE, "%%timeit -%c needs a positive integer", opt);
            i = (size_t)(end - a);
            if (opt == 'n')
                number = v;
            else
                repeat = v;
            continue;
        }
        break;
    }
    lang_module *pm = parse_timed(vm, s, m, "timeit", i);
    if (!pm) return false;
    bool ok = true;
    if (!number) {
        /* Auto-range as IPython: 1, 2, 5, 10, 20, 50, ... loops until one
         * run takes at least 0.2 s. */
        for (int64_t base = 1;; base *= 10) {
            static const int steps[] = {1, 2, 5};
            bool done = false;
            for (int k = 0; k < 3 && !done; k++) {
                number = base * steps[k];
                double t = timeit_run(vm, pm, number);
                if (t < 0) ok = false;
                done = !ok || t >= 0.2 || number >= 1000000000LL;
            }
            if (done) break;
        }
    }
    double *runs = ok ? calloc((size_t)repeat, sizeof *runs) : NULL;
    if (ok && !runs) ok = lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    for (int64_t r = 0; ok && r < repeat; r++) {
        double t = timeit_run(vm, pm, number);
        if (t < 0)
            ok = false;
        else
            runs[r] = t / (double)number;
    }
    if (ok) {
        double mean = 0, var = 0;
        for (int64_t r = 0; r < repeat; r++) mean += runs[r];
        mean /= (double)repeat;
        for (int64_t r = 0; r < repeat; r++) var += (runs[r] - mean) * (runs[r] - mean);
        double sd = sqrt(var / (double)repeat);
        char tm[32], ts[32], loops[40], line[256];
        fmt_span(tm, sizeof tm, mean);
        fmt_span(ts, sizeof ts, sd);
        group_thousands(loops, sizeof loops, number);
        snprintf(line, sizeof line,
                 "%s \xc2\xb1 %s per loop (mean \xc2\xb1 std. dev. of %" PRId64
                 " run%s, %s loop%s each)\n",
                 tm, ts, repeat, repeat == 1 ? "" : "s", loops, number == 1 ? "" : "s");
        out(vm, line);
    }
    free(runs);
    lang_module_release(pm);
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
    bool ok = lang_eval_module(vm, pm, false, &v); /* takes [pm] */
    double wall = now_s() - t0;
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
    bool ok = lang_eval_module(vm, pm, true, &v); /* takes [pm] */
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

/* ---- the shell and the working directory ---- */

static bool m_pwd(lang_vm *vm) {
    char buf[4096];
    if (!getcwd(buf, sizeof buf)) return lang_raise(vm, LANG_ERR_IO, "%%pwd: %s", strerror(errno));
    out(vm, buf);
    out(vm, "\n");
    return true;
}

static bool m_cd(lang_vm *vm, const char *dir) {
    const char *to = *dir ? dir : getenv("HOME");
    if (!to) return lang_raise(vm, LANG_ERR_VALUE, "%%cd needs a directory (HOME is not set)");
    if (chdir(to) != 0)
        return lang_raise_named(vm, LANG_ERR_IO, "FileNotFoundError", "%%cd %s: %s", to,
                                strerror(errno));
    return m_pwd(vm);
}

static int cmp_env(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool m_env(lang_vm *vm, const char *args) {
    if (!*args) {
        size_t n = 0;
        while (environ[n]) n++;
        const char **v = malloc(sizeof *v * (n + 1));
        if (!v) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        memcpy(v, environ, sizeof *v * n);
        qsort(v, n, sizeof *v, cmp_env);
        for (size_t i = 0; i < n; i++) {
            out(vm, v[i]);
            out(vm, "\n");
        }
        free(v);
        return true;
    }
    /* NAME=VALUE or NAME VALUE sets; NAME alone shows. */
    const char *sep = args + strcspn(args, "= \t");
    if (!*sep) {
        const char *val = getenv(args);
        if (!val) return lang_raise(vm, LANG_ERR_KEY, "environment variable %s is not set", args);
        out(vm, val);
        out(vm, "\n");
        return true;
    }
    char name[256];
    size_t nl = (size_t)(sep - args);
    if (!nl || nl >= sizeof name) return lang_raise(vm, LANG_ERR_VALUE, "%%env: bad name");
    memcpy(name, args, nl);
    name[nl] = 0;
    const char *val = sep + 1;
    while (*val == ' ' || *val == '\t' || (*sep != '=' && *val == '=')) val++;
    if (setenv(name, val, 1) != 0)
        return lang_raise(vm, LANG_ERR_VALUE, "%%env: %s", strerror(errno));
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "env: %s=%s\n", name, val);
    out(vm, b.data);
    lang_buf_free(&b);
    return true;
}

/* !CMD: /bin/sh -c CMD with stdout and stderr on one pipe, streamed as it
 * comes; an interrupt stops the command (SIGINT, then SIGKILL). */
static bool m_system(lang_vm *vm, const char *cmd) {
    if (!*cmd) return lang_raise(vm, LANG_ERR_VALUE, "!COMMAND needs a command: !ls");
    int fd[2];
    if (pipe(fd) != 0) return lang_raise(vm, LANG_ERR_IO, "!: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]), close(fd[1]);
        return lang_raise(vm, LANG_ERR_IO, "!: %s", strerror(errno));
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        signal(SIGINT, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    bool interrupted = false;
    char buf[4096];
    for (;;) {
        if (!interrupted && lang_vm_interrupted(vm)) {
            interrupted = true;
            kill(pid, SIGINT);
        }
        struct pollfd p = {fd[0], POLLIN, 0};
        int r = poll(&p, 1, 100);
        if (r < 0 && errno != EINTR) break;
        if (r <= 0) continue;
        ssize_t got = read(fd[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        lang_vm_write(vm, LANG_STDOUT, buf, (size_t)got);
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (interrupted) return lang_raise(vm, LANG_ERR_INTERRUPT, "the command was interrupted");
    return true;
}

/* ---- %whos ---- */

static int cmp_global_names(const void *a, const void *b) {
    return strcmp((*(const lang_global *const *)a)->name, (*(const lang_global *const *)b)->name);
}

static void whos_info(lang_vm *vm, lang_val v, lang_buf *b) {
    nn_tensor *t = lang_tensor_of(v);
    nn_module *mod = lang_module_of(v);
    if (t) {
        char shape[128];
        nn_tensor_shape_str(t, shape, sizeof shape);
        size_t bytes = (size_t)nn_tensor_numel(t) * nn_dtype_size(t->dtype);
        lang_buf_printf(b, "%s %s, %zu bytes%s", shape, nn_dtype_name(t->dtype), bytes,
                        t->requires_grad ? ", requires_grad" : "");
    } else if (mod) {
        int64_t np = nn_module_num_params(mod);
        lang_buf_printf(b, "%" PRId64 " parameters, %" PRId64 " bytes", np,
                        np * (int64_t)sizeof(float));
    } else {
        char *sum = lang_val_summary(vm, v);
        const char *p = sum ? sum : "";
        /* The summary starts with the type, which has its own column. */
        const char *tn = lang_type_name(v);
        size_t tl = strlen(tn);
        if (!strncmp(p, tn, tl)) p += tl;
        while (*p == ' ') p++;
        lang_buf_puts(b, p);
        free(sum);
    }
}

static bool m_whos(lang_vm *vm) {
    const lang_global **gs = malloc(sizeof *gs * (size_t)(vm->n_globals + 1));
    if (!gs) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    int n = 0;
    size_t wn = 8, wt = 4;
    for (int64_t k = 0; k < vm->n_globals; k++) {
        if (!vm->globals[k].set) continue;
        gs[n++] = &vm->globals[k];
        size_t l = strlen(vm->globals[k].name), tl = strlen(lang_type_name(vm->globals[k].value));
        if (l > wn) wn = l;
        if (tl > wt) wt = tl;
    }
    if (!n) {
        free(gs);
        out(vm, "Interactive namespace is empty.\n");
        return true;
    }
    qsort(gs, (size_t)n, sizeof *gs, cmp_global_names);
    lang_buf b;
    lang_buf_init(&b);
    lang_buf_printf(&b, "%-*s   %-*s   Data/Info\n", (int)wn, "Variable", (int)wt, "Type");
    for (size_t i = 0; i < wn + wt + 15; i++) lang_buf_puts(&b, "-");
    lang_buf_puts(&b, "\n");
    for (int i = 0; i < n; i++) {
        lang_buf_printf(&b, "%-*s   %-*s   ", (int)wn, gs[i]->name, (int)wt,
                        lang_type_name(gs[i]->value));
        whos_info(vm, gs[i]->value, &b);
        lang_buf_puts(&b, "\n");
    }
    out(vm, b.data);
    lang_buf_free(&b);
    free(gs);
    return true;
}

bool lang_magic_run(lang_vm *vm, const lang_stmt *s, const lang_module *m) {
    const char *name = s->u.magic.name->str;
    if (!strcmp(name, "time")) return m_time(vm, s, m);
    if (!strcmp(name, "timeit")) return m_timeit(vm, s, m);
    if (!strcmp(name, "profile")) return m_profile(vm, s, m);
    if (!strcmp(name, "stats")) return m_stats(vm, s, m);
    if (vm->sandbox && (!strcmp(name, "load") || !strcmp(name, "threads") || !strcmp(name, "run") ||
                        !strcmp(name, "system") || !strcmp(name, "cd") || !strcmp(name, "env")))
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
    } else if (!strcmp(name, "load") || !strcmp(name, "run"))
        ok = m_load(vm, args);
    else if (!strcmp(name, "whos"))
        ok = m_whos(vm);
    else if (!strcmp(name, "pwd"))
        ok = m_pwd(vm);
    else if (!strcmp(name, "cd"))
        ok = m_cd(vm, args);
    else if (!strcmp(name, "env"))
        ok = m_env(vm, args);
    else if (!strcmp(name, "system") || !strcmp(name, "sx"))
        ok = m_system(vm, args);
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
            const char *close = lang_suggest(name, lang_magic_names, (size_t)-1);
            if (close)
                ok = lang_raise(vm, LANG_ERR_NAME,
                                "unknown magic %%%s. Did you mean: %%%s? (%%help lists the magics)",
                                name, close);
            else
                ok = lang_raise(vm, LANG_ERR_NAME, "unknown magic %%%s; %%help lists the magics",
                                name);
        }
    }
    free(args);
    return ok;
}
