/* The drill file format (drill.h, docs/drills.md): front matter, then one
 * "## kind: title" heading per step with its text, fenced setup / check /
 * reference blocks and directive lines (hint:, choice:, accept:, ...). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drill.h"

static const char *const kind_names[] = {"read", "predict", "do", "quiz", "reflect"};

const char *drill_kind_name(drill_kind k) {
    return (unsigned)k < 5 ? kind_names[k] : "?";
}

/* ---- small string helpers ---- */

static char *trimdup(const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return strndup(s, n);
}

static bool starts(const char *line, const char *prefix) {
    return !strncmp(line, prefix, strlen(prefix));
}

/* ---- the parser ---- */

typedef struct parser {
    const char *path;
    lang_buf err;
    int nerr;
    drill *d;
} parser;

static void error_at(parser *p, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void error_at(parser *p, int line, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    lang_buf_printf(&p->err, "%s:%d: %s\n", p->path, line, tmp);
    p->nerr++;
}

static drill_step *new_step(parser *p, drill_kind k, const char *title, int line) {
    drill *d = p->d;
    drill_step *s = realloc(d->steps, sizeof *s * (size_t)(d->n_steps + 1));
    if (!s) return NULL;
    d->steps = s;
    drill_step *st = &d->steps[d->n_steps++];
    memset(st, 0, sizeof *st);
    st->kind = k;
    st->title = strdup(title);
    st->line = line;
    return st;
}

static void front_matter(parser *p, const char *key, const char *val, int line) {
    drill *d = p->d;
    if (!strcmp(key, "id"))
        free(d->id), d->id = strdup(val);
    else if (!strcmp(key, "title"))
        free(d->title), d->title = strdup(val);
    else if (!strcmp(key, "teaches"))
        free(d->teaches), d->teaches = strdup(val);
    else if (!strcmp(key, "requires"))
    free(d->requires), d->requires = strdup(val);
    else if (!strcmp(key, "level") || !strcmp(key, "minutes") || !strcmp(key, "points")) {
        char *end;
        long v = strtol(val, &end, 10);
        if (!*val || *end || v < 0 || v > 1000)
            error_at(p, line, "%s must be a whole number, got '%s'", key, val);
        else if (key[0] == 'l')
            d->level = (int)v;
        else if (key[0] == 'p')
            d->points = (int)v;
        else
            d->minutes = (int)v;
    }
    else {
        error_at(p, line,
                 "unknown front matter field '%s' (id, title, level, minutes, points, teaches, "
                 "requires)",
                 key);
    }
}

/* A directive line inside a step: "hint: ...", "choice: ...", ... */
static bool directive(parser *p, drill_step *st, const char *line, int lineno) {
    static const char *const names[] = {
        "hint:", "choice:", "choice*:", "accept:", "example:", "wrong:", "check:"};
    int which = -1;
    for (int i = 0; i < 7; i++)
        if (starts(line, names[i])) which = i;
    if (which < 0) return false;
    const char *v = line + strlen(names[which]);
    char *val = trimdup(v, strlen(v));
    if (!val) return true;
    if (!*val) {
        error_at(p, lineno, "'%s' needs a value", names[which]);
        free(val);
        return true;
    }
    switch (which) {
    case 6: { /* check: EXPR | "message" */
        char *bar = strstr(val, "| \"");
        size_t l = strlen(val);
        char *msg = NULL;
        if (bar && l > 1 && val[l - 1] == '"' && val + l - 1 > bar + 2) {
            msg = strndup(bar + 3, (size_t)(val + l - 1 - (bar + 3)));
            *bar = 0;
            char *e = trimdup(val, strlen(val));
            free(val);
            val = e;
        }
        if (st->kind != DRILL_DO)
            error_at(p, lineno, "check: belongs to do steps");
        else if (st->check)
            error_at(p, lineno, "a step has one check");
        if (st->kind != DRILL_DO || st->check || !val) {
            free(val);
            free(msg);
        } else {
            st->check = val;
            st->check_line = lineno;
            free(st->check_message);
            st->check_message = msg;
        }
        return true;
    }
    case 0:
        if (st->n_hints == DRILL_MAX_HINTS) {
            error_at(p, lineno, "at most %d hints per step", DRILL_MAX_HINTS);
            free(val);
        } else {
            st->hints[st->n_hints++] = val;
        }
        return true;
    case 1:
    case 2:
        if (st->kind != DRILL_QUIZ) {
            error_at(p, lineno, "choices belong to quiz steps");
            free(val);
        } else if (st->n_choices == DRILL_MAX_CHOICES) {
            error_at(p, lineno, "at most %d choices", DRILL_MAX_CHOICES);
            free(val);
        } else {
            st->choices[st->n_choices++] = val;
            if (which == 2) {
                if (st->right_choice)
                    error_at(p, lineno, "only one choice may be marked right (choice*:)");
                st->right_choice = st->n_choices;
            }
        }
        return true;
    case 3:
        if (st->kind != DRILL_QUIZ) error_at(p, lineno, "accept: belongs to quiz steps");
        free(st->accept);
        st->accept = val;
        return true;
    default: {
        bool ex = which == 4;
        int *n = ex ? &st->n_examples : &st->n_wrongs;
        char **v2 = ex ? st->examples : st->wrongs;
        if (*n == DRILL_MAX_SAMPLES) {
            error_at(p, lineno, "at most %d samples", DRILL_MAX_SAMPLES);
            free(val);
        } else {
            v2[(*n)++] = val;
        }
        return true;
    }
    }
}

static void finish_step(parser *p, drill_step *st, lang_buf *text) {
    if (!st) return;
    st->text = trimdup(text->data ? text->data : "", text->len);
    text->len = 0;
    if (text->data) text->data[0] = 0;
    if (st->kind == DRILL_DO) {
        if (!st->check)
            error_at(p, st->line,
                     "a do step needs a ```check block or a check: line (the expression that must "
                     "become true)");
        if (!st->reference)
            error_at(p, st->line,
                     "a do step needs a ```reference block (a solution, so `nndb drill check` can "
                     "show the check can pass)");
    }
    if (st->kind == DRILL_QUIZ) {
        if (!st->n_choices && !st->accept)
            error_at(p, st->line,
                     "a quiz needs choices (choice:, with the right one as choice*:) or accept: "
                     "keywords");
        if (st->n_choices && !st->right_choice)
            error_at(p, st->line, "mark the right choice with choice*:");
        if (st->accept && !st->n_examples)
            error_at(p, st->line, "a keyword quiz needs an example: answer that it accepts");
    }
    if ((st->setup || st->check || st->reference || st->n_wrong_fixes) && st->kind != DRILL_DO)
        error_at(p, st->line, "setup, check, reference and wrong blocks belong to do steps");
}

drill *drill_parse(const char *path, const char *text, char **err) {
    parser p = {path ? path : "<drill>", {0}, 0, calloc(1, sizeof(drill))};
    lang_buf_init(&p.err);
    if (!p.d) return NULL;
    p.d->path = strdup(p.path);
    const char *s = text ? text : "";
    int lineno = 0;
    enum { START, FRONT, BODY } state = START;
    drill_step *st = NULL;
    lang_buf body, code;
    lang_buf_init(&body);
    lang_buf_init(&code);
    char *fence = NULL; /* the open fence's kind */
    int fence_line = 0;
    bool fatal = false; /* a root cause that makes every later message noise */
    while (*s && !fatal) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char *line = strndup(s, n);
        s = nl ? nl + 1 : s + n;
        lineno++;
        if (!line) break;
        size_t ln = strlen(line);
        if (ln && line[ln - 1] == '\r') line[--ln] = 0;
        if (state == START) {
            if (!strcmp(line, "---")) {
                state = FRONT;
            } else if (*line) {
                error_at(&p, lineno,
                         "a drill starts with front matter: a line '---', then id:, title:, "
                         "level:, minutes:, teaches:");
                state = BODY;
            }
        } else if (state == FRONT) {
            if (!strcmp(line, "---")) {
                state = BODY;
            } else if (starts(line, "## ") || starts(line, "```")) {
                /* the body began inside the front matter: say so, and only that */
                error_at(&p, 1,
                         "the front matter is not closed: add a line '---' before line %d (%s)",
                         lineno, line);
                fatal = true;
            } else if (*line) {
                char *colon = strchr(line, ':');
                if (!colon) {
                    error_at(&p, lineno, "front matter lines are 'key: value'");
                } else {
                    *colon = 0;
                    char *key = trimdup(line, strlen(line));
                    char *val = trimdup(colon + 1, strlen(colon + 1));
                    if (key && val) front_matter(&p, key, val, lineno);
                    free(key);
                    free(val);
                }
            }
        } else if (fence) {
            if (!strcmp(line, "```")) {
                char *c = code.data ? strdup(code.data) : strdup("");
                char **slot = !strcmp(fence, "setup")       ? &st->setup
                              : !strcmp(fence, "check")     ? &st->check
                              : !strcmp(fence, "reference") ? &st->reference
                                                            : NULL;
                int *sl = !strcmp(fence, "setup")   ? &st->setup_line
                          : !strcmp(fence, "check") ? &st->check_line
                                                    : &st->reference_line;
                if (slot == &st->check) {
                    /* an expression: no trailing line break in messages */
                    size_t cl = strlen(c);
                    while (cl && isspace((unsigned char)c[cl - 1])) c[--cl] = 0;
                }
                if (!strcmp(fence, "wrong")) {
                    if (st->n_wrong_fixes < DRILL_MAX_SAMPLES) {
                        st->wrong_fix_lines[st->n_wrong_fixes] = fence_line + 1;
                        st->wrong_fixes[st->n_wrong_fixes++] = c;
                    } else {
                        error_at(&p, fence_line, "at most %d ```wrong blocks in a step",
                                 DRILL_MAX_SAMPLES);
                        free(c);
                    }
                    c = NULL;
                } else if (slot) {
                    if (*slot) error_at(&p, fence_line, "a second ```%s block in one step", fence);
                    free(*slot);
                    *slot = c;
                    *sl = fence_line + 1;
                } else {
                    /* any other fence is part of the text */
                    lang_buf_printf(&body, "```%s\n%s```\n", fence, code.data ? code.data : "");
                    free(c);
                }
                free(fence);
                fence = NULL;
                code.len = 0;
                if (code.data) code.data[0] = 0;
            } else {
                lang_buf_add(&code, line, ln);
                lang_buf_add(&code, "\n", 1);
            }
        } else if (starts(line, "## ")) {
            finish_step(&p, st, &body);
            const char *h = line + 3;
            const char *colon = strchr(h, ':');
            char *kind = colon ? trimdup(h, (size_t)(colon - h)) : trimdup(h, strlen(h));
            int k = -1;
            for (int i = 0; i < 5 && kind; i++)
                if (!strcmp(kind, kind_names[i])) k = i;
            if (k < 0) {
                error_at(
                    &p, lineno,
                    "unknown step kind '%s': a step heading is '## KIND: title' with KIND one of "
                    "read, predict, do, quiz, reflect",
                    kind ? kind : "");
                st = NULL;
            } else {
                char *title = colon ? trimdup(colon + 1, strlen(colon + 1)) : strdup("");
                st = new_step(&p, (drill_kind)k, title ? title : "", lineno);
                free(title);
            }
            free(kind);
        } else if (starts(line, "```")) {
            if (!st) {
                error_at(&p, lineno, "a code block before the first step");
            }
            fence = trimdup(line + 3, strlen(line + 3));
            fence_line = lineno;
            if (!st) {
                free(fence);
                fence = NULL;
            }
        } else if (st && directive(&p, st, line, lineno)) {
        } else if (st) {
            lang_buf_add(&body, line, ln);
            lang_buf_add(&body, "\n", 1);
        }
        free(line);
    }
    if (fence) {
        if (!fatal) error_at(&p, fence_line, "the ```%s block is not closed", fence);
        free(fence);
    }
    if (!fatal) finish_step(&p, st, &body);
    if (state == FRONT && !fatal)
        error_at(&p, lineno, "the front matter is not closed with '---'"), fatal = true;
    drill *d = p.d;
    if (fatal) {
    } else if (state != START) {
        if (!d->id) error_at(&p, 1, "the front matter needs id:");
        if (!d->title) error_at(&p, 1, "the front matter needs title:");
        if (!d->teaches) error_at(&p, 1, "the front matter needs teaches:");
        if (!d->minutes) error_at(&p, 1, "the front matter needs minutes:");
    } else {
        error_at(&p, 1, "empty drill file");
    }
    if (d->id && !fatal) {
        for (const char *c = d->id; *c; c++)
            if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_') {
                error_at(&p, 2, "id '%s' may hold only letters, digits, - and _", d->id);
                break;
            }
    }
    if (!d->n_steps && state == BODY)
        error_at(&p, lineno, "a drill needs at least one step (## read: ...)");
    lang_buf_free(&body);
    lang_buf_free(&code);
    if (p.nerr) {
        if (err) *err = p.err.data ? lang_buf_take(&p.err) : strdup("invalid drill\n");
        lang_buf_free(&p.err);
        drill_free(d);
        return NULL;
    }
    lang_buf_free(&p.err);
    if (err) *err = NULL;
    return d;
}

drill *drill_load(const char *path, char **err) {
    FILE *f = fopen(path, "rb");
    lang_buf b;
    lang_buf_init(&b);
    if (!f) {
        if (err) {
            lang_buf_printf(&b, "%s: %s\n", path, strerror(errno));
            *err = lang_buf_take(&b);
        }
        lang_buf_free(&b);
        return NULL;
    }
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) lang_buf_add(&b, chunk, n);
    fclose(f);
    if (b.data && strlen(b.data) != b.len) {
        lang_buf_free(&b);
        if (err) {
            lang_buf_printf(&b, "%s:1: not a text file (it holds a NUL byte)\n", path);
            *err = lang_buf_take(&b);
        }
        lang_buf_free(&b);
        return NULL;
    }
    drill *d = drill_parse(path, b.data ? b.data : "", err);
    lang_buf_free(&b);
    return d;
}

void drill_free(drill *d) {
    if (!d) return;
    for (int i = 0; i < d->n_steps; i++) {
        drill_step *s = &d->steps[i];
        free(s->title);
        free(s->text);
        free(s->setup);
        free(s->check);
        free(s->check_message);
        free(s->reference);
        free(s->accept);
        for (int k = 0; k < s->n_hints; k++) free(s->hints[k]);
        for (int k = 0; k < s->n_choices; k++) free(s->choices[k]);
        for (int k = 0; k < s->n_examples; k++) free(s->examples[k]);
        for (int k = 0; k < s->n_wrongs; k++) free(s->wrongs[k]);
        for (int k = 0; k < s->n_wrong_fixes; k++) free(s->wrong_fixes[k]);
    }
    free(d->steps);
    free(d->path);
    free(d->id);
    free(d->title);
    free(d->teaches);
    free(d->requires);
    free(d);
}

/* ---- quizzes ---- */

static bool contains_word(const char *hay, const char *word, size_t wn) {
    size_t hn = strlen(hay);
    for (size_t i = 0; i + wn <= hn; i++) {
        if (strncasecmp(hay + i, word, wn)) continue;
        return true;
    }
    return false;
}

bool drill_quiz_accepts(const drill_step *st, const char *answer) {
    if (!answer) return false;
    while (isspace((unsigned char)*answer)) answer++;
    if (st->n_choices) {
        int pick = 0;
        if (isdigit((unsigned char)answer[0]))
            pick = atoi(answer);
        else if (isalpha((unsigned char)answer[0]) &&
                 (!answer[1] || answer[1] == ')' || isspace((unsigned char)answer[1])))
            pick = tolower((unsigned char)answer[0]) - 'a' + 1;
        else
            for (int i = 0; i < st->n_choices; i++)
                if (!strcasecmp(answer, st->choices[i])) pick = i + 1;
        return pick == st->right_choice;
    }
    if (!st->accept) return false;
    /* alternatives split by '|'; every word of one alternative must appear */
    const char *alt = st->accept;
    while (*alt) {
        const char *bar = strchr(alt, '|');
        size_t an = bar ? (size_t)(bar - alt) : strlen(alt);
        bool all = true, any_word = false;
        size_t i = 0;
        while (i < an) {
            while (i < an && isspace((unsigned char)alt[i])) i++;
            size_t j = i;
            while (j < an && !isspace((unsigned char)alt[j])) j++;
            if (j > i) {
                any_word = true;
                if (!contains_word(answer, alt + i, j - i)) all = false;
            }
            i = j;
        }
        if (any_word && all) return true;
        alt = bar ? bar + 1 : alt + an;
    }
    return false;
}

/* ---- finding drills ---- */

void drill_strv_free(char **v) {
    if (!v) return;
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

static bool is_dir(const char *p) {
    DIR *d = opendir(p);
    if (!d) return false;
    closedir(d);
    return true;
}

char **drill_search_path(void) {
    char **v = calloc(64, sizeof *v);
    if (!v) return NULL;
    int n = 0;
    const char *env = getenv("NNDB_DRILLS_PATH");
    if (env && *env) {
        char *copy = strdup(env);
        for (char *tok = copy ? strtok(copy, ":") : NULL; tok && n < 48; tok = strtok(NULL, ":"))
            if (*tok) v[n++] = strdup(tok);
        free(copy);
    }
    /* the built-in lessons: next to the binary in a build tree, or under
     * share/ in an install */
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *env_builtin = getenv("NNDB_LESSONS_DIR");
    if (env_builtin && *env_builtin) {
        v[n++] = strdup(env_builtin);
    } else if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
        static const char *const rel[] = {"/../drills/lessons", "/../../drills/lessons",
                                          "/../share/nndb/lessons"};
        for (int i = 0; i < 3; i++) {
            char cand[4200];
            snprintf(cand, sizeof cand, "%s%s", exe, rel[i]);
            if (is_dir(cand)) {
                char *real = realpath(cand, NULL);
                v[n++] = real ? real : strdup(cand);
                break;
            }
        }
    }
    return v;
}

char *drill_find(const char *id) {
    char **dirs = drill_search_path();
    char *found = NULL;
    for (char **d = dirs; d && *d && !found; d++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.md", *d, id);
        if (access(path, R_OK) == 0) found = strdup(path);
    }
    drill_strv_free(dirs);
    return found;
}
