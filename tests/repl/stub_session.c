/* stub_session: a tiny stand-in for the session behind lang.h, used ONLY by the
 * REPL tests (tests/repl/run.sh --stub) to exercise the terminal front end
 * before, or independently of, the real language. It understands a handful
 * of line shapes: NAME = INT, NAME = CALL(...), NAME, print(...), input(...),
 * exit(), "for NAME in range(N): NAME = NAME" (on one line or two), and
 * "fail" (a runtime error with a traceback). Never link it into nndb. */
#include <ctype.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drill.h"
#include "lang.h"

#define MAXG 64

struct lang_session {
    lang_frontend fe;
    atomic_int interrupt;
    int exit_code;
    bool exit_requested;
    int n;
    char *names[MAXG];
    long long vals[MAXG];
    bool tensor[MAXG];
};

void lang_mime_init(lang_mime *m) {
    memset(m, 0, sizeof *m);
}
void lang_mime_free(lang_mime *m) {
    for (int i = 0; i < m->n; i++) free(m->items[i].mime), free(m->items[i].data);
    m->n = 0;
}
void lang_mime_add(lang_mime *m, const char *mime, char *data) {
    if (m->n == LANG_MIME_MAX) {
        free(data);
        return;
    }
    m->items[m->n].mime = strdup(mime);
    m->items[m->n].data = data;
    m->n++;
}
const char *lang_mime_get(const lang_mime *m, const char *mime) {
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->items[i].mime, mime)) return m->items[i].data;
    return NULL;
}
const char *lang_err_name(lang_err e) {
    return e == LANG_ERR_INTERRUPT ? "KeyboardInterrupt" : "Error";
}

lang_session *lang_session_new(const lang_frontend *fe) {
    lang_session *s = calloc(1, sizeof *s);
    if (s && fe) s->fe = *fe;
    return s;
}
void lang_session_free(lang_session *s) {
    if (!s) return;
    for (int i = 0; i < s->n; i++) free(s->names[i]);
    free(s);
}
struct nn_ctx *lang_session_ctx(lang_session *s) {
    (void)s;
    return NULL;
}
void lang_session_interrupt(lang_session *s) {
    atomic_store(&s->interrupt, 1);
}
bool lang_session_exit_requested(lang_session *s, int *code) {
    *code = s->exit_code;
    return s->exit_requested;
}
void lang_session_add_history(lang_session *s, const char *code) {
    (void)s, (void)code;
}
char *lang_who(lang_session *s) {
    (void)s;
    return strdup("");
}
/* The stand-in has no debugger and no drills: `run --break` refuses. */
bool lang_session_break(lang_session *s, const char *spec, char **err) {
    (void)s, (void)spec;
    if (err) *err = strdup("the stand-in session has no debugger");
    return false;
}
void lang_session_break_next(lang_session *s) {
    (void)s;
}
bool drill_install(lang_session *s) {
    (void)s;
    return true;
}
void lang_strv_free(char **v) {
    if (!v) return;
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

static int find(lang_session *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->names[i], name)) return i;
    return -1;
}
static void set(lang_session *s, const char *name, long long v, bool tensor) {
    int i = find(s, name);
    if (i < 0 && s->n < MAXG) i = s->n++, s->names[i] = strdup(name);
    if (i >= 0) s->vals[i] = v, s->tensor[i] = tensor;
}

static bool fail(lang_result *res, lang_err cls, const char *ename, const char *file, int line,
                 const char *src, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    res->ok = false;
    res->error.cls = cls;
    res->error.ename = strdup(ename);
    res->error.evalue = strdup(msg);
    if (src) {
        res->error.traceback = calloc(3, sizeof(char *));
        char buf[512];
        snprintf(buf, sizeof buf, "%s:%d:\n", file, line);
        res->error.traceback[0] = strdup(buf);
        snprintf(buf, sizeof buf, "    %s\n", src);
        res->error.traceback[1] = strdup(buf);
        res->error.traceback[2] = strdup("    ^^^^\n");
        res->error.n_traceback = 3;
    }
    return false;
}

static long long eval_int(const char *e) {
    long long a = strtoll(e, (char **)&e, 10);
    while (*e == ' ') e++;
    if (e[0] == '*' && e[1] == '*') {
        long long b = strtoll(e + 2, NULL, 10), r = 1;
        while (b-- > 0) r *= a;
        return r;
    }
    return a;
}

static void trim(char *s) {
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
}

bool lang_exec(lang_session *s, const char *code, const char *filename, bool interactive,
               lang_result *res) {
    memset(res, 0, sizeof *res);
    res->ok = true;
    atomic_store(&s->interrupt, 0);
    char *copy = strdup(code);
    char *save = NULL;
    int lineno = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        while (*line == ' ') line++;
        trim(line);
        if (!*line || *line == '#') continue;
        char var[64], body[256], lhs[64], rhs[64];
        if (sscanf(line, "for %63[a-z_] in range(%63[^)]): %255[^\n]", var, lhs, body) >= 2) {
            long long n = eval_int(lhs);
            char *more = NULL;
            if (!strstr(line, "): ") || !*body) more = strtok_r(NULL, "\n", &save), lineno++;
            const char *stmt = more ? more : body;
            while (*stmt == ' ') stmt++;
            bool assign = sscanf(stmt, "%63[a-z_] = %63[a-z_]", lhs, rhs) == 2;
            for (long long i = 0; i < n; i++) {
                if (atomic_load(&s->interrupt)) {
                    free(copy);
                    return fail(res, LANG_ERR_INTERRUPT, "KeyboardInterrupt", filename, lineno,
                                NULL, "stopped at %s:%d", filename, lineno);
                }
                set(s, var, i, false);
                if (assign) set(s, lhs, i, false);
            }
            continue;
        }
        if (!strcmp(line, "%help zeros")) {
            const char *h = "zeros(*size, dtype=None, requires_grad=False)\n";
            if (s->fe.stream) s->fe.stream(s->fe.user, LANG_STDOUT, h, strlen(h));
            continue;
        }
        if (!strncmp(line, "%help ", 6)) {
            fail(res, LANG_ERR_NAME, "NameError", filename, lineno, NULL, "no help for '%s'",
                 line + 6);
            free(copy);
            return false;
        }
        if (!strncmp(line, "print(", 6)) {
            char *end = strrchr(line, ')');
            if (end) *end = 0;
            char *arg = line + 6;
            if (*arg == '"' || *arg == '\'') arg++, arg[strlen(arg) - 1] = 0;
            if (s->fe.stream) {
                s->fe.stream(s->fe.user, LANG_STDOUT, arg, strlen(arg));
                s->fe.stream(s->fe.user, LANG_STDOUT, "\n", 1);
            }
            continue;
        }
        if (!strncmp(line, "input(", 6)) {
            char *got = s->fe.readline ? s->fe.readline(s->fe.user, "? ", false) : NULL;
            if (!got) {
                free(copy);
                if (atomic_load(&s->interrupt))
                    return fail(res, LANG_ERR_INTERRUPT, "KeyboardInterrupt", filename, lineno,
                                NULL, "interrupted");
                return fail(res, LANG_ERR_IO, "EOFError", filename, lineno, NULL, "EOF");
            }
            char *text = malloc(strlen(got) + 3);
            sprintf(text, "'%s'", got);
            free(got);
            if (interactive)
                res->has_value = true, lang_mime_add(&res->value, "text/plain", text);
            else
                free(text);
            continue;
        }
        if (!strcmp(line, "exit()") || !strncmp(line, "exit(", 5)) {
            char arg[32] = "";
            sscanf(line, "exit(%31[0-9])", arg);
            s->exit_requested = true;
            s->exit_code = atoi(arg);
            free(copy);
            return fail(res, LANG_ERR_RUNTIME, "SystemExit", filename, lineno, NULL, "%s", arg);
        }
        if (!strcmp(line, "fail")) {
            char src[256];
            snprintf(src, sizeof src, "%s", line);
            free(copy);
            return fail(res, LANG_ERR_RUNTIME, "RuntimeError", filename, lineno, src,
                        "this line always fails");
        }
        if (!strcmp(line, "progress")) {
            for (int i = 0; i <= 40 && s->fe.progress; i++) {
                s->fe.progress(s->fe.user, "p", i, 40, "work");
                struct timespec ts = {0, 10 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
            continue;
        }
        if (!strcmp(line, "plot")) {
            lang_mime m;
            lang_mime_init(&m);
            lang_mime_add(&m, "text/plain", strdup("loss ▇▅▃▂▁"));
            if (s->fe.display) s->fe.display(s->fe.user, &m, NULL, false);
            lang_mime_free(&m);
            continue;
        }
        if (sscanf(line, "%63[a-zA-Z_0-9] = %63[^\n]", lhs, rhs) == 2) {
            bool num = isdigit((unsigned char)rhs[0]);
            set(s, lhs, num ? eval_int(rhs) : 0, !num);
            continue;
        }
        int i = find(s, line);
        if (i < 0) {
            char src[256];
            snprintf(src, sizeof src, "%s", line);
            free(copy);
            return fail(res, LANG_ERR_NAME, "NameError", filename, lineno, src,
                        "name '%s' is not defined", src);
        }
        if (interactive) {
            char *text = malloc(64);
            if (s->tensor[i])
                snprintf(text, 64, "tensor([0., 0., 0.])");
            else
                snprintf(text, 64, "%lld", s->vals[i]);
            lang_mime_free(&res->value);
            res->has_value = true;
            lang_mime_add(&res->value, "text/plain", text);
        }
    }
    free(copy);
    return true;
}

void lang_result_free(lang_result *res) {
    lang_mime_free(&res->value);
    free(res->error.ename);
    free(res->error.evalue);
    for (int i = 0; i < res->error.n_traceback; i++) free(res->error.traceback[i]);
    free(res->error.traceback);
    memset(res, 0, sizeof *res);
}

lang_completeness lang_is_complete(const char *code, int *indent) {
    int depth = 0;
    const char *last = code, *p;
    for (p = code; *p; p++) {
        if (*p == '(' || *p == '[' || *p == '{') depth++;
        if (*p == ')' || *p == ']' || *p == '}') depth--;
        if (*p == '\n' && p[1]) last = p + 1;
    }
    *indent = 0;
    if (depth > 0) {
        *indent = 4;
        return LANG_INCOMPLETE;
    }
    char line[512];
    snprintf(line, sizeof line, "%s", last);
    trim(line);
    size_t n = strlen(line);
    if (n && line[n - 1] == ':') {
        int lead = 0;
        while (line[lead] == ' ') lead++;
        *indent = lead + 4;
        return LANG_INCOMPLETE;
    }
    return LANG_COMPLETE;
}

static void add(char ***v, int *n, const char *s) {
    *v = realloc(*v, (size_t)(*n + 2) * sizeof **v);
    (*v)[(*n)++] = strdup(s);
    (*v)[*n] = NULL;
}

char **lang_complete(lang_session *s, const char *code, size_t cursor, size_t *start, size_t *end) {
    static const char *const names[] = {"print", "randn", "range", "zeros", "zeros_like", NULL};
    static const char *const methods[] = {"numel", "shape", "std", "sub", "sum", NULL};
    static const char *const magics[] = {"%help", "%history", "%load", "%who", NULL};
    size_t b = cursor;
    while (b > 0 && (isalnum((unsigned char)code[b - 1]) || code[b - 1] == '_')) b--;
    const char *word = code + b;
    size_t wl = cursor - b;
    char **v = calloc(1, sizeof *v);
    int n = 0;
    *end = cursor;
    size_t ls = b;
    while (ls > 0 && code[ls - 1] != '\n') ls--;
    if (!strncmp(code + ls, "%load ", 6)) {
        size_t ps = ls + 6;
        *start = ps;
        char dir[256] = ".", pre[256];
        snprintf(pre, sizeof pre, "%.*s", (int)(cursor - ps), code + ps);
        char *slash = strrchr(pre, '/');
        const char *fp = pre;
        if (slash) *slash = 0, snprintf(dir, sizeof dir, "%s", pre), fp = slash + 1;
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (e->d_name[0] != '.' && !strncmp(e->d_name, fp, strlen(fp))) {
                char full[600];
                snprintf(full, sizeof full, "%s%s%s", slash ? dir : "", slash ? "/" : "",
                         e->d_name);
                add(&v, &n, full);
            }
        if (d) closedir(d);
        return v;
    }
    *start = b;
    if (b > 0 && code[b - 1] == '.') {
        for (int i = 0; methods[i]; i++)
            if (!strncmp(methods[i], word, wl)) add(&v, &n, methods[i]);
    } else if (b > 0 && code[b - 1] == '%') {
        *start = b - 1;
        for (int i = 0; magics[i]; i++)
            if (!strncmp(magics[i] + 1, word, wl)) add(&v, &n, magics[i]);
    } else {
        for (int i = 0; names[i]; i++)
            if (!strncmp(names[i], word, wl)) add(&v, &n, names[i]);
        for (int i = 0; i < s->n; i++)
            if (!strncmp(s->names[i], word, wl)) add(&v, &n, s->names[i]);
    }
    return v;
}

char *lang_inspect(lang_session *s, const char *code, size_t cursor, int detail) {
    (void)s, (void)detail;
    if (cursor >= 5 && !strncmp(code, "zeros", 5))
        return strdup("zeros(*size, dtype=float32, requires_grad=False)\n\nA tensor of zeros.\n");
    return NULL;
}
