/* test_session: the session seam (lang.h) on the CPython session.
 *
 * lang_scripts runs every tests/session/scripts/ *.py script (and lang_docs the
 * ```nndb examples of the user docs) with inline expectations:
 *   stmt        # expect: TEXT            the statement's output line(s);
 *                                         "TEXT ..." matches a prefix
 *   stmt        # expect error: Cls: msg  the statement fails so (prefix match)
 *   stmt        # expect traceback: TEXT  a traceback line contains TEXT
 * A script is cut into top-level statements; each runs as one REPL input
 * (a bare expression shows its repr), errors do not stop the script, and
 * every output line must match the next `# expect:` of that statement.
 * Failures name file:line. The other tests drive the session API directly:
 * interrupts from another thread, completion, inspect, %who.
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../nn_test.h"
#include "../unit/testutil.h"
#include "lang.h"

typedef struct capture {
    lang_buf out;
    const char *input; /* what input() reads */
} capture;

static void cap_stream(void *user, lang_stream which, const char *text, size_t len) {
    capture *c = user;
    lang_buf_add(&c->out, text, len);
}

/* Rich displays (plot, hist, display) are shown beside the output, as a
 * notebook does; the expectations cover the printed text only. */
static void cap_display(void *user, const lang_mime *m, const char *id, bool update) {
    (void)user;
    (void)m;
}

static char *cap_readline(void *user, const char *prompt, bool password) {
    capture *c = user;
    lang_buf_puts(&c->out, prompt);
    return c->input ? strdup(c->input) : NULL;
}

static lang_session *new_session(capture *c) {
    memset(c, 0, sizeof *c);
    c->input = "typed text";
    lang_frontend fe = {c,    cap_display, cap_stream, NULL, cap_readline, NULL,
                        NULL, NULL,        false,      NULL, NULL};
    return lang_session_new(&fe);
}

/* ---- the script runner ---- */

typedef struct expect {
    int line;
    int kind; /* 0 output, 1 error, 2 traceback */
    char *text;
} expect;

/* The expectation in a source line, if any (not inside a string: the
 * marker must follow code or start the comment). */
static bool parse_expect(const char *line, size_t n, int lineno, expect *e) {
    static const char *const marks[] = {"# expect error: ", "# expect traceback: ", "# expect: "};
    static const int kinds[] = {1, 2, 0};
    for (int k = 0; k < 3; k++) {
        const char *m = NULL;
        size_t ml = strlen(marks[k]);
        for (size_t i = 0; i + ml <= n; i++)
            if (!strncmp(line + i, marks[k], ml)) m = line + i;
        if (!m) continue;
        e->line = lineno;
        e->kind = kinds[k];
        const char *t = m + ml;
        size_t tl = (size_t)(line + n - t);
        while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\r')) tl--;
        e->text = strndup(t, tl);
        return true;
    }
    /* "# expect:" with nothing after it: an empty output line */
    const char *bare = "# expect:";
    size_t bl = strlen(bare);
    if (n >= bl && !strncmp(line + n - bl, bare, bl)) {
        e->line = lineno;
        e->kind = 0;
        e->text = strdup("");
        return true;
    }
    return false;
}

/* "TEXT ..." matches any line that starts with TEXT (timings). */
static bool ends_with_dots(const char *s) {
    size_t n = strlen(s);
    return n >= 4 && !strcmp(s + n - 4, " ...");
}

static int run_chunk(lang_session *s, capture *c, const char *file, const char *code,
                     int first_line, expect *ex, int nex) {
    int fails = 0;
    /* Blank lines in front keep the script's line numbers in errors. */
    lang_buf src;
    lang_buf_init(&src);
    for (int i = 1; i < first_line; i++) lang_buf_add(&src, "\n", 1);
    lang_buf_puts(&src, code);
    c->out.len = 0;
    if (c->out.data) c->out.data[0] = 0;
    lang_result r;
    lang_exec(s, src.data, file, true, &r);
    lang_session_add_history(s, code);
    if (r.ok && r.has_value) {
        const char *t = lang_mime_get(&r.value, "text/plain");
        if (t) {
            lang_buf_puts(&c->out, t);
            lang_buf_puts(&c->out, "\n");
        }
    }
    /* Output lines against `# expect:` in order. */
    const char *p = c->out.data ? c->out.data : "";
    int k = 0;
    for (int i = 0; i < nex; i++) {
        if (ex[i].kind != 0) continue;
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (!*p && !nl) {
            fprintf(stderr, "  %s:%d: expected output '%s', got nothing\n", file, ex[i].line,
                    ex[i].text);
            fails++;
        } else if (ends_with_dots(ex[i].text)
                       ? strncmp(p, ex[i].text, strlen(ex[i].text) - 3) != 0
                       : (len != strlen(ex[i].text) || strncmp(p, ex[i].text, len))) {
            fprintf(stderr, "  %s:%d: expected '%s', got '%.*s'\n", file, ex[i].line, ex[i].text,
                    (int)len, p);
            fails++;
        }
        p = nl ? nl + 1 : p + len;
        k++;
    }
    bool want_error = false;
    for (int i = 0; i < nex; i++) {
        if (ex[i].kind == 1) {
            want_error = true;
            char got[2048];
            snprintf(got, sizeof got, "%s: %s", r.ok ? "(no error)" : r.error.ename,
                     r.ok ? "" : r.error.evalue);
            if (r.ok || strncmp(got, ex[i].text, strlen(ex[i].text))) {
                fprintf(stderr, "  %s:%d: expected error '%s', got '%s'\n", file, ex[i].line,
                        ex[i].text, got);
                fails++;
            }
        } else if (ex[i].kind == 2) {
            bool found = false;
            for (int t = 0; !r.ok && t < r.error.n_traceback && !found; t++)
                found = strstr(r.error.traceback[t], ex[i].text) != NULL;
            if (!found) {
                fprintf(stderr, "  %s:%d: traceback has no '%s'; it is:\n", file, ex[i].line,
                        ex[i].text);
                for (int t = 0; !r.ok && t < r.error.n_traceback; t++)
                    fprintf(stderr, "%s", r.error.traceback[t]);
                fails++;
            }
        }
    }
    if (!r.ok && !want_error) {
        fprintf(stderr, "  %s:%d: unexpected %s: %s\n", file, first_line, r.error.ename,
                r.error.evalue);
        for (int t = 0; t < r.error.n_traceback; t++) fprintf(stderr, "%s", r.error.traceback[t]);
        fails++;
    }
    if (*p && k >= 0) {
        bool any_expect = false;
        for (int i = 0; i < nex; i++) any_expect |= ex[i].kind == 0;
        if (any_expect || strlen(p) > 0) {
            fprintf(stderr, "  %s:%d: unexpected output: '%s'\n", file, first_line, p);
            fails++;
        }
    }
    lang_result_free(&r);
    lang_buf_free(&src);
    return fails;
}

static bool starts_block_continuation(const char *line) {
    return !strncmp(line, "else", 4) || !strncmp(line, "elif", 4) || !strncmp(line, "except", 6) ||
           !strncmp(line, "finally", 7);
}

/* Run one script's text; returns the number of failed expectations. */
static int run_text(const char *path, char *text) {
    capture c;
    lang_session *s = new_session(&c);
    int fails = 0;
    lang_buf chunk;
    lang_buf_init(&chunk);
    expect ex[256];
    int nex = 0, chunk_line = 0, lineno = 0;
    const char *p = text;
    while (1) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        bool at_end = !*p && !nl;
        bool top = !at_end && n > 0 && p[0] != ' ' && p[0] != '\t' && p[0] != '#' &&
                   !starts_block_continuation(p);
        if (at_end || top) {
            int indent;
            /* An empty line ends a block at the prompt; a top-level line does here. */
            bool complete = chunk.len == 0;
            if (!complete) {
                lang_buf_add(&chunk, "\n", 1);
                complete = lang_is_complete(chunk.data, &indent) != LANG_INCOMPLETE;
                chunk.data[--chunk.len] = 0;
            }
            if (chunk.len && (complete || at_end)) {
                fails += run_chunk(s, &c, path, chunk.data, chunk_line, ex, nex);
                for (int i = 0; i < nex; i++) free(ex[i].text);
                nex = 0;
                chunk.len = 0;
                chunk.data[0] = 0;
            }
            if (at_end) break;
        }
        lineno++;
        if (chunk.len == 0) {
            bool blank = true;
            for (size_t i = 0; i < n; i++) blank &= p[i] == ' ' || p[i] == '\t' || p[i] == '\r';
            if (blank || p[0] == '#') {
                p = nl ? nl + 1 : p + n;
                if (!nl) p = p + strlen(p);
                continue;
            }
            chunk_line = lineno;
        }
        lang_buf_add(&chunk, p, n);
        lang_buf_add(&chunk, "\n", 1);
        if (nex < 256 && parse_expect(p, n, lineno, &ex[nex])) nex++;
        if (!nl)
            p += n;
        else
            p = nl + 1;
    }
    lang_buf_free(&chunk);
    lang_session_free(s);
    lang_buf_free(&c.out);
    return fails;
}

static int run_script(const char *path) {
    char *text = tu_read_file(path);
    if (!text) {
        fprintf(stderr, "  %s: cannot read\n", path);
        return 1;
    }
    int f = run_text(path, text);
    free(text);
    return f;
}

static int cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* help() at a terminal breaks a line wider than the terminal between
 * words (pydoc's text is not wrapped, and a notebook gets it as is). The
 * session asks whether the process's stdout is a terminal: it is made a
 * pseudo-terminal for the call; the text itself still comes through the
 * front end's stream. */
NN_TEST(lang_help_wraps_to_the_terminal) {
    capture c;
    lang_session *s = new_session(&c);
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    CHECK(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
    int slave = master >= 0 ? open(ptsname(master), O_RDWR | O_NOCTTY) : -1;
    CHECK(slave >= 0);
    struct winsize ws = {.ws_row = 24, .ws_col = 40};
    CHECK(slave >= 0 && ioctl(slave, TIOCSWINSZ, &ws) == 0);
    fflush(stdout);
    int saved_out = dup(1);
    if (slave >= 0) dup2(slave, 1);
    lang_result r;
    /* the terminal's own width, not a COLUMNS the tests were started with */
    lang_exec(s, "import os\nos.environ.pop('COLUMNS', None)\nhelp(len)", "<cell>", false, &r);
    dup2(saved_out, 1);
    close(saved_out);
    if (slave >= 0) close(slave);
    if (master >= 0) close(master);
    CHECK(r.ok);
    lang_result_free(&r);
    /* Lines within 40 columns, broken between words only: joined, they are
     * the one-line doc again. */
    const char *p = c.out.data ? c.out.data : "";
    lang_buf joined;
    lang_buf_init(&joined);
    int lines = 0;
    const char *first = strstr(p, "len(obj, /)\n");
    for (const char *l = first ? first + strlen("len(obj, /)\n") : NULL; l && *l;) {
        if (*l == '\n') break; /* the blank line after the doc */
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        CHECK_MSG(n <= 40, "line of %zu columns: %.*s", n, (int)n, l);
        CHECK_MSG(n > 4 && l[4] != ' ' && l[n - 1] != ' ', "%.*s", (int)n, l);
        if (joined.len) lang_buf_puts(&joined, " ");
        lang_buf_add(&joined, l + 4, n - 4);
        lines++;
        l = nl ? nl + 1 : l + n;
    }
    lang_buf_add(&joined, "", 1);
    CHECK_MSG(lines >= 2, "%d lines in %s", lines, p);
    CHECK_MSG(!strcmp(joined.data, "Return the number of items in a container."), "%s",
              joined.data);
    lang_buf_free(&joined);
    lang_session_free(s);
    lang_buf_free(&c.out);
}

NN_TEST(lang_scripts) {
    /* The expectations are output as a notebook gets it: help not wrapped
     * to a terminal's width. */
    unsetenv("COLUMNS");
    const char *dir = "tests/session/scripts";
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "cannot open %s (run from the repository root)", dir);
    if (!d) return;
    char *names[512];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < 512) {
        size_t l = strlen(de->d_name);
        if (l > 3 && !strcmp(de->d_name + l - 3, ".py")) names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    const char *only = getenv("NNDB_LANG_TEST");
    int total = 0;
    for (int i = 0; i < n; i++) {
        if (!only || strstr(names[i], only)) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            int f = run_script(path);
            if (f) fprintf(stderr, "  %s: %d failed expectation%s\n", path, f, f == 1 ? "" : "s");
            total += f;
        }
        free(names[i]);
    }
    CHECK_MSG(total == 0, "%d script expectations failed", total);
}

/* ---- interrupts ---- */

typedef struct intr_arg {
    lang_session *s;
    int delay_ms;
} intr_arg;

static void *interrupter(void *p) {
    intr_arg *a = p;
    struct timespec ts = {0, a->delay_ms * 1000000L};
    nanosleep(&ts, NULL);
    lang_session_interrupt(a->s);
    return NULL;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The front ends' SIGINT handler: the session signals its own thread from
 * another one, to wake a blocking call and make CPython see the interrupt. */
static lang_session *sigint_session;
static void on_sigint(int sig) {
    (void)sig;
    if (sigint_session) lang_session_interrupt(sigint_session);
}

static void interrupt_case(const char *code, const char *check) {
    capture c;
    lang_session *s = new_session(&c);
    sigint_session = s;
    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old);
    lang_result r;
    lang_exec(s, "keep = 41\nn = 0\n", "<cell 1>", false, &r);
    lang_result_free(&r);
    intr_arg a = {s, 50};
    pthread_t th;
    pthread_create(&th, NULL, interrupter, &a);
    double t0 = now();
    lang_exec(s, code, "<cell 2>", false, &r);
    double dt = now() - t0;
    pthread_join(th, NULL);
    CHECK(!r.ok);
    CHECK_MSG(r.error.cls == LANG_ERR_INTERRUPT, "%s: %s", r.error.ename ? r.error.ename : "ok",
              r.error.evalue ? r.error.evalue : "");
    CHECK(r.error.ename && !strcmp(r.error.ename, "KeyboardInterrupt"));
    /* The traceback names the line it stopped at, as Python's does. */
    bool named = false;
    for (int i = 0; !r.ok && i < r.error.n_traceback; i++)
        named |= strstr(r.error.traceback[i], "<cell 2>") != NULL;
    CHECK(named);
    CHECK_MSG(dt < 0.5, "the interrupt took %.3f s", dt);
    lang_result_free(&r);
    /* The session and its variables survive. */
    lang_exec(s, check, "<cell 3>", true, &r);
    CHECK(r.ok && r.has_value);
    if (r.ok && r.has_value)
        CHECK_MSG(!strcmp(lang_mime_get(&r.value, "text/plain"), "True"), "%s",
                  lang_mime_get(&r.value, "text/plain"));
    lang_result_free(&r);
    sigaction(SIGINT, &old, NULL);
    sigint_session = NULL;
    lang_session_free(s);
    lang_buf_free(&c.out);
}

NN_TEST(lang_interrupt) {
    interrupt_case("for i in range(10**9):\n    n = n + 1\n", "keep == 41 and n > 0");
    interrupt_case("while True:\n    pass\n", "keep == 41");
    interrupt_case("def spin():\n    while True:\n        n = 1\nspin()\n", "keep == 41");
    interrupt_case("xs = [i * 2 for i in range(10**9)]\n", "keep == 41");
}

/* ---- the session API ---- */

static bool has(char **v, const char *s) {
    for (int i = 0; v && v[i]; i++)
        if (!strcmp(v[i], s)) return true;
    return false;
}

NN_TEST(lang_completion_and_inspect) {
    capture c;
    lang_session *s = new_session(&c);
    lang_result r;
    lang_exec(s, "values = [1, 2]\nname = 'abc'\ndef step(lr, momentum=0.9):\n    return lr\n",
              "<cell 1>", false, &r);
    CHECK(r.ok);
    lang_result_free(&r);
    size_t st, en;
    char **v = lang_complete(s, "val", 3, &st, &en);
    CHECK(has(v, "values") && st == 0 && en == 3);
    lang_strv_free(v);
    v = lang_complete(s, "pri", 3, &st, &en);
    CHECK(has(v, "print"));
    lang_strv_free(v);
    v = lang_complete(s, "values.ap", 9, &st, &en);
    CHECK(has(v, "append") && st == 7);
    lang_strv_free(v);
    v = lang_complete(s, "name.st", 7, &st, &en);
    CHECK(has(v, "startswith") && has(v, "strip"));
    lang_strv_free(v);
    v = lang_complete(s, "step(0.1, mo", 12, &st, &en);
    CHECK(has(v, "momentum="));
    lang_strv_free(v);
    v = lang_complete(s, "sorted(values, re", 17, &st, &en);
    CHECK(has(v, "reverse="));
    lang_strv_free(v);
    v = lang_complete(s, "%ti", 3, &st, &en);
    CHECK(has(v, "%time") && st == 0);
    lang_strv_free(v);
    v = lang_complete(s, "%load tests/se", 14, &st, &en);
    CHECK(has(v, "tests/session/") && st == 6);
    lang_strv_free(v);
    /* never calls: a call in the chain completes nothing */
    v = lang_complete(s, "step(1).", 8, &st, &en);
    CHECK(v && !v[0]);
    lang_strv_free(v);

    char *h = lang_inspect(s, "len(x)", 1, 0);
    CHECK_MSG(h && strstr(h, "len(obj, /)"), "%s", h ? h : "(null)");
    free(h);
    h = lang_inspect(s, "step(", 5, 0);
    CHECK_MSG(h && strstr(h, "step(lr, momentum=0.9)") && strstr(h, "File:      <cell 1>"), "%s",
              h ? h : "(null)");
    free(h);
    h = lang_inspect(s, "name.upper", 10, 1);
    CHECK_MSG(h && strstr(h, "upper()") && strstr(h, "converted to uppercase"), "%s",
              h ? h : "(null)");
    free(h);
    h = lang_inspect(s, "values", 2, 1);
    CHECK_MSG(h && strstr(h, "String form:") && strstr(h, "[1, 2]") && strstr(h, "Length:"), "%s",
              h ? h : "(null)");
    free(h);
    char *w = lang_who(s);
    CHECK_MSG(w && strstr(w, "values") && strstr(w, "name") && strstr(w, "step"), "%s", w);
    free(w);
    lang_session_free(s);
    lang_buf_free(&c.out);
}

/* Completion through subscripts whose index is a literal or a name; anything
 * else (a call, an expression, a missing key) completes nothing and leaves
 * the session as it was. */
NN_TEST(lang_completion_subscripts) {
    capture c;
    lang_session *s = new_session(&c);
    lang_result r;
    lang_exec(s,
              "model = Sequential(Linear(2, 4), ReLU())\nx = [randn(3), 1]\n"
              "d = {'k': 'text', 2: [1]}\nt = randn(2, 3)\ni = 0\nkey = 'k'\n"
              "layers = ModuleList([Linear(1, 1)])\n",
              "<cell 1>", true, &r); /* a cell, as the front ends run it: the prelude's names */
    CHECK_MSG(r.ok, "%s: %s", r.ok ? "" : r.error.ename, r.ok ? "" : r.error.evalue);
    lang_result_free(&r);
    size_t st, en;
    char **v = lang_complete(s, "model[0].we", 11, &st, &en);
    CHECK(has(v, "weight") && st == 9 && en == 11);
    lang_strv_free(v);
    v = lang_complete(s, "x[0].su", 7, &st, &en);
    CHECK(has(v, "sum"));
    lang_strv_free(v);
    v = lang_complete(s, "d['k'].", 7, &st, &en);
    CHECK(has(v, "upper") && has(v, "startswith"));
    lang_strv_free(v);
    v = lang_complete(s, "y = d[\"k\"].up", 14, &st, &en);
    CHECK(has(v, "upper"));
    lang_strv_free(v);
    v = lang_complete(s, "d[2].ap", 7, &st, &en);
    CHECK(has(v, "append"));
    lang_strv_free(v);
    v = lang_complete(s, "d[key].", 7, &st, &en);
    CHECK(has(v, "upper"));
    lang_strv_free(v);
    v = lang_complete(s, "model[-1].tr", 12, &st, &en);
    CHECK(has(v, "train"));
    lang_strv_free(v);
    v = lang_complete(s, "layers[i].bi", 12, &st, &en);
    CHECK(has(v, "bias"));
    lang_strv_free(v);
    v = lang_complete(s, "t[i].sh", 7, &st, &en);
    CHECK(has(v, "shape"));
    lang_strv_free(v);
    v = lang_complete(s, "x[1][0].sh", 10, &st, &en);
    CHECK(v && !v[0]); /* an int has no items */
    lang_strv_free(v);
    v = lang_complete(s, "print(model[0].we", 17, &st, &en);
    CHECK(has(v, "weight"));
    lang_strv_free(v);
    /* No completions, and nothing pending: a missing key, an out-of-range
     * index, a slice, an expression, a call, a list literal. */
    const char *none[] = {"d['nope'].",
                          "x[5].",
                          "x[0:1].",
                          "x[i + 1].",
                          "model[len(x)].",
                          "[x][0].",
                          "model[0](t).",
                          "d[undefined].",
                          "x[99999999999999999999].",
                          NULL};
    for (int k = 0; none[k]; k++) {
        v = lang_complete(s, none[k], strlen(none[k]), &st, &en);
        CHECK_MSG(v && !v[0], "%s", none[k]);
        lang_strv_free(v);
    }
    /* Every cursor of some broken inputs: nothing crashes or reads past the
     * text (ASan), nothing is left pending. */
    const char *odd[] = {"d['",       "x[",     "x[0",      "]",           "][.",
                         "d['k\\'].", "x[-].",  "x[-",      "a[b[c]].",    "\"]\".",
                         "x[0]].",    "[[[[].", "d[\"k'].", "x[ 0 ].su",   "model[0][0].",
                         "x[\n0].",   "1[0].",  "._[0].",   "x[i][i][i].", NULL};
    for (int k = 0; odd[k]; k++)
        for (size_t cur = 0; cur <= strlen(odd[k]); cur++) {
            lang_strv_free(lang_complete(s, odd[k], cur, &st, &en));
            free(lang_inspect(s, odd[k], cur, 1));
        }
    v = lang_complete(s, "x[ 0 ].su", 9, &st, &en);
    CHECK(has(v, "sum"));
    lang_strv_free(v);
    lang_exec(s, "z = 1\nz", "<cell 2>", true, &r);
    CHECK(r.ok);
    lang_result_free(&r);
    /* inspect follows the same chains */
    char *h = lang_inspect(s, "model[0].weight", 15, 1);
    CHECK_MSG(h && strstr(h, "2"), "%s", h ? h : "(null)");
    free(h);
    lang_session_free(s);
    lang_buf_free(&c.out);
}

/* help(Type.method), %help Type.method and Type.method? (inspect) for the
 * nn, optim and data types of the prelude: pydoc's and IPython's pinfo's
 * text, whose signature names the arguments. (help('Linear.parameters'),
 * a string, is pydoc's lookup of an importable name, as in Python.) */
NN_TEST(lang_help_by_type_name) {
    capture c;
    lang_session *s = new_session(&c);
    static const struct {
        const char *name, *sig;
    } cases[] = {
        {"Module.parameters", "parameters(self, recurse=True)"},
        {"Linear.parameters", "parameters(self, recurse=True)"},
        {"Linear.forward", "forward(self, input)"},
        {"Sequential.append", "append(self, module)"},
        {"GPT.state_dict", "state_dict(self, "},
        {"Optimizer.step", "step(self, closure)"},
        {"Adam.step", "step(self, closure=None"},
        {"SGD.zero_grad", "zero_grad(self, set_to_none=False)"},
        {"AdamW.step", "step(self, closure=None"},
        {"DataLoader", "DataLoader(dataset, batch_size=1, shuffle=None"},
        {"Dataset", "Dataset"},
        {"Module", "Module"},
        {"Optimizer", "Optimizer(params, defaults)"},
        {"Tensor.sum", "sum("},
        {"str.upper", "upper(self, /)"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char code[128];
        lang_result r;
        c.out.len = 0;
        snprintf(code, sizeof code, "help(%s)\n%%help %s\n", cases[k].name, cases[k].name);
        lang_exec(s, code, "<cell>", true, &r);
        CHECK_MSG(r.ok, "%s: %s", cases[k].name, r.ok ? "" : r.error.evalue);
        lang_result_free(&r);
        const char *out = c.out.data ? c.out.data : "";
        /* both printed the entry: its signature, twice */
        const char *first = strstr(out, cases[k].sig);
        CHECK_MSG(first && strstr(first + 1, cases[k].sig) && strlen(out) > 20, "%s: %s",
                  cases[k].name, out);
        char *h = lang_inspect(s, cases[k].name, strlen(cases[k].name), 0);
        CHECK_MSG(h && strstr(h, cases[k].sig), "%s: %s", cases[k].name, h ? h : "(null)");
        free(h);
    }
    /* an unknown method of a known type is still unknown */
    lang_result r;
    lang_exec(s, "help(Linear.nope)", "<cell>", true, &r);
    CHECK(!r.ok && !strcmp(r.error.ename, "AttributeError"));
    lang_result_free(&r);
    lang_exec(s, "%help Linear.nope", "<cell>", true, &r);
    CHECK(!r.ok);
    lang_result_free(&r);
    char *h = lang_inspect(s, "Adam.nope", 9, 0);
    CHECK(!h);
    free(h);
    lang_session_free(s);
    lang_buf_free(&c.out);
}

NN_TEST(lang_exit_and_syntax_errors) {
    capture c;
    lang_session *s = new_session(&c);
    lang_result r;
    lang_exec(s, "x = (1 +\ny = ]\n", "bad.nn", false, &r);
    CHECK(!r.ok && r.error.cls == LANG_ERR_SYNTAX);
    CHECK_MSG(r.error.n_traceback >= 1, "%d", r.error.n_traceback);
    if (r.error.n_traceback)
        CHECK_MSG(strstr(r.error.traceback[0], "File \"bad.nn\", line"), "%s",
                  r.error.traceback[0]);
    lang_result_free(&r);
    int code = -1;
    CHECK(!lang_session_exit_requested(s, &code));
    lang_exec(s, "exit(3)", "<cell>", false, &r);
    CHECK(!r.ok && !strcmp(r.error.ename, "SystemExit"));
    CHECK(lang_session_exit_requested(s, &code) && code == 3);
    lang_result_free(&r);
    /* A front end that stays after exit() (or asks only once) must still see
     * later errors as errors: the request belongs to that one statement. */
    lang_exec(s, "no_such_name_after_exit", "<cell>", false, &r);
    CHECK(!r.ok && !strcmp(r.error.ename, "NameError"));
    CHECK(!lang_session_exit_requested(s, &code));
    lang_result_free(&r);
    lang_session_free(s);
    lang_buf_free(&c.out);
}

/* The ```nndb blocks of a doc page, run as one script (line numbers kept,
 * so failures point into the page). Returns the failures; *blocks gets the
 * number of blocks. */
static int run_doc(const char *path, int *blocks) {
    *blocks = 0;
    unsetenv("COLUMNS"); /* as in lang_scripts */
    char *text = tu_read_file(path);
    if (!text) return -1;
    lang_buf b;
    lang_buf_init(&b);
    bool in_block = false;
    for (char *p = text; *p;) {
        char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        if (!in_block && n >= 7 && !strncmp(p, "```nndb", 7)) {
            in_block = true;
            (*blocks)++;
        } else if (in_block && n >= 3 && !strncmp(p, "```", 3)) {
            in_block = false;
        } else if (in_block) {
            lang_buf_add(&b, p, n);
        }
        lang_buf_add(&b, "\n", 1);
        p = nl ? nl + 1 : p + n;
    }
    int f = run_text(path, b.data ? b.data : "");
    lang_buf_free(&b);
    free(text);
    return f;
}

/* The ```nndb blocks of the user docs run as tests, each page as one
 * interactive session (the prelude's bare names, IPython's %magics), so an
 * example a learner copies from the page really runs. min_blocks keeps a
 * page from losing its examples silently: language.md (Python, the prelude,
 * magics, display, torch and what differs from PyTorch), instruments.md
 * (one or more per instrument), language-tensors.md (dtypes, promotion,
 * indexing, in-place autograd), language-nn.md (modules, nndb's models,
 * init, optim, datasets, DataLoader, torch.save). */
NN_TEST(lang_docs) {
    static const struct {
        const char *path;
        int min_blocks;
    } pages[] = {
        {"docs/language.md", 9},
        {"docs/instruments.md", 9},
        {"docs/language-tensors.md", 4},
        {"docs/language-nn.md", 10},
    };
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        int blocks = 0;
        int f = run_doc(pages[i].path, &blocks);
        CHECK_MSG(f >= 0, "cannot read %s", pages[i].path);
        CHECK_MSG(blocks >= pages[i].min_blocks, "%s has %d nndb blocks", pages[i].path, blocks);
        CHECK_MSG(f == 0, "%d expectations in %s failed", f, pages[i].path);
    }
}
