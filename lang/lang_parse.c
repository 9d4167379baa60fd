/* lang_parse: recursive descent over lang_lex tokens into the lang_ast tree,
 * then a scope pass that resolves every name (see lang_ast.h). Errors are
 * collected, never fatal: after one, the parser skips to the end of the
 * statement and goes on. Everything allocated lives in the module's arena,
 * except the intern table and the error list, freed before returning. */
#include "lang_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_lex.h"

#define MAX_DEPTH      150 /* nested expressions (brackets, unary operators) */
#define MAX_ERRORS     100
#define MAX_FSTR_DEPTH 2 /* f"{x:{w}}" nests once, as in Python */

typedef struct parser {
    lang_module *m;
    lang_arena *A;
    lang_lexer *lx;
    lang_token tok, prev;
    bool panic;
    int depth, fdepth;
    int func_depth, loop_depth;
    int in_fstring;
    /* Interned names: open addressing, malloc'ed. */
    lang_name **names;
    size_t ncap, nn;
    /* Errors, malloc'ed until they move into the arena. */
    lang_syntax_error *errs;
    int nerr, errcap;
    /* While a class body's own statements parse: its annotated names. */
    struct vec *class_fields;
} parser;

/* ---- errors ---- */

static void add_error(parser *p, lang_span sp, bool at_eof, const char *msg) {
    if (p->in_fstring) at_eof = false; /* the string is closed: more input cannot help */
    for (int k = 0; k < p->nerr; k++)
        if (p->errs[k].span.start.line == sp.start.line &&
            p->errs[k].span.start.col == sp.start.col)
            return;
    if (p->nerr >= MAX_ERRORS) return;
    if (p->nerr == p->errcap) {
        int cap = p->errcap ? p->errcap * 2 : 8;
        lang_syntax_error *v = realloc(p->errs, (size_t)cap * sizeof *v);
        if (!v) return;
        p->errs = v;
        p->errcap = cap;
    }
    lang_syntax_error *e = &p->errs[p->nerr++];
    e->span = sp;
    e->at_eof = at_eof;
    e->message = lang_arena_strdup(p->A, msg, strlen(msg));
    if (!e->message) e->message = (char *)"out of memory";
}

static void lex_error(void *user, lang_span sp, bool at_eof, const char *msg) {
    add_error(user, sp, at_eof, msg);
}

static void error_at(parser *p, lang_span sp, bool at_eof, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void error_at(parser *p, lang_span sp, bool at_eof, const char *fmt, ...) {
    if (p->panic) return;
    p->panic = true;
    /* One report per problem: an error the lexer already gave earlier on
     * this line (an unmatched bracket, a bad number) explains this one. */
    for (int k = 0; k < p->nerr; k++)
        if (p->errs[k].span.start.line == sp.start.line &&
            p->errs[k].span.start.col <= sp.start.col)
            return;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add_error(p, sp, at_eof, msg);
}

/* An error at the current token. At the end of input inside a bracket the
 * real problem is the bracket that was never closed. */
static void error_tok(parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void error_tok(parser *p, const char *fmt, ...) {
    if (p->panic) return;
    /* Inside a bracket opened on an earlier line, an error usually means the
     * bracket was never closed: say so, at the bracket. */
    int d = p->lx->depth - 1;
    if (d >= 0 && d < LANG_LEX_MAX_BRACKETS && !p->in_fstring &&
        (p->tok.kind == LANG_TOK_EOF ||
         (p->tok.span.start.line > p->lx->brackets[d].span.start.line &&
          !lang_lex_bracket_closes(p->lx)))) {
        error_at(p, p->lx->brackets[d].span, p->tok.kind == LANG_TOK_EOF, "'%c' was never closed",
                 p->lx->brackets[d].ch);
        return;
    }
    if (p->tok.kind == LANG_TOK_ERROR) { /* the lexer said why */
        p->panic = true;
        return;
    }
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    error_at(p, p->tok.span, p->tok.at_eof, "%s", msg);
}

/* ---- tokens ---- */

static void next(parser *p) {
    p->prev = p->tok;
    lang_lex_next(p->lx, &p->tok);
}

static bool check(parser *p, lang_tok k) {
    return p->tok.kind == k;
}

static bool accept(parser *p, lang_tok k) {
    if (p->tok.kind != k) return false;
    next(p);
    return true;
}

static const char *found(parser *p) {
    static char buf[64];
    const lang_token *t = &p->tok;
    if (t->kind == LANG_TOK_NAME || t->kind == LANG_TOK_INT || t->kind == LANG_TOK_FLOAT) {
        snprintf(buf, sizeof buf, "'%.*s'", t->len > 40 ? 40 : (int)t->len, t->text);
        return buf;
    }
    return lang_tok_describe(t->kind);
}

static bool expect(parser *p, lang_tok k, const char *what) {
    if (accept(p, k)) return true;
    error_tok(p, "%s, found %s", what, found(p));
    return false;
}

/* ---- allocation ---- */

static void *alloc(parser *p, size_t n) {
    void *v = lang_arena_alloc(p->A, n);
    if (!v) error_at(p, p->tok.span, false, "out of memory");
    return v;
}

/* Grow an arena array of [elem]-byte items holding *n items to fit one
 * more. The old block stays in the arena (at most doubling the space). */
static bool grow(parser *p, void **items, int n, int *cap, size_t elem) {
    if (n < *cap) return true;
    int c = *cap ? *cap * 2 : 4;
    void *v = lang_arena_alloc(p->A, (size_t)c * elem);
    if (!v) {
        error_at(p, p->tok.span, false, "out of memory");
        return false;
    }
    if (n) memcpy(v, *items, (size_t)n * elem);
    *items = v;
    *cap = c;
    return true;
}

typedef struct vec {
    void *items;
    int n, cap;
} vec;

static bool vpush(parser *p, vec *v, const void *item, size_t elem) {
    if (!grow(p, &v->items, v->n, &v->cap, elem)) return false;
    memcpy((char *)v->items + (size_t)v->n * elem, item, elem);
    v->n++;
    return true;
}

static lang_name *intern(parser *p, const char *s, size_t n) {
    if (p->nn * 2 >= p->ncap) {
        size_t cap = p->ncap ? p->ncap * 2 : 64;
        lang_name **t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (size_t k = 0; k < p->ncap; k++) {
            lang_name *nm = p->names[k];
            if (!nm) continue;
            size_t h = nm->hash & (cap - 1);
            while (t[h]) h = (h + 1) & (cap - 1);
            t[h] = nm;
        }
        free(p->names);
        p->names = t;
        p->ncap = cap;
    }
    uint32_t hash = lang_name_hash(s, n);
    size_t h = hash & (p->ncap - 1);
    while (p->names[h]) {
        lang_name *nm = p->names[h];
        if (nm->hash == hash && nm->len == n && memcmp(nm->str, s, n) == 0) return nm;
        h = (h + 1) & (p->ncap - 1);
    }
    lang_name *nm = lang_arena_alloc(p->A, sizeof *nm);
    char *str = lang_arena_strdup(p->A, s, n);
    if (!nm || !str) return NULL;
    nm->str = str;
    nm->len = (uint32_t)n;
    nm->hash = hash;
    p->names[h] = nm;
    p->nn++;
    return nm;
}

static lang_name *intern_tok(parser *p) {
    lang_name *nm = intern(p, p->tok.text, p->tok.len);
    if (!nm) error_at(p, p->tok.span, false, "out of memory");
    return nm;
}

static lang_expr *new_expr(parser *p, lang_expr_kind kind, lang_pos start) {
    lang_expr *e = alloc(p, sizeof *e);
    if (!e) return NULL;
    e->kind = kind;
    e->span.start = start;
    e->span.end = p->prev.span.end;
    return e;
}

static void finish(parser *p, lang_expr *e) {
    e->span.end = p->prev.span.end;
}

static lang_stmt *new_stmt(parser *p, lang_stmt_kind kind, lang_pos start) {
    lang_stmt *s = alloc(p, sizeof *s);
    if (!s) return NULL;
    s->kind = kind;
    s->span.start = start;
    s->span.end = p->prev.span.end;
    return s;
}

static lang_expr *name_expr(parser *p, lang_name *nm, lang_span sp) {
    lang_expr *e = alloc(p, sizeof *e);
    if (!e) return NULL;
    e->kind = LANG_EX_NAME;
    e->span = sp;
    e->u.name.name = nm;
    e->u.name.scope = LANG_SCOPE_GLOBAL;
    return e;
}

/* ---- expressions ---- */

static lang_expr *expr(parser *p);
static lang_expr *expr_list(parser *p, bool star);
static lang_expr *or_test(parser *p);
static lang_expr *bitor_expr(parser *p);
static lang_expr *fstring_body(parser *p, const char *body, size_t n, lang_pos pos, bool raw,
                               vec *parts);

static bool enter(parser *p) {
    if (++p->depth > MAX_DEPTH) {
        error_tok(p, "expression nested too deeply (more than %d levels)", MAX_DEPTH);
        return false;
    }
    return true;
}

/* Comprehension clauses after the element: (for targets in or_test (if or_test)*)+ */
static bool comp_clauses(parser *p, lang_expr *e) {
    vec v = {0};
    while (check(p, LANG_TOK_FOR) || check(p, LANG_TOK_IF)) {
        lang_comp_clause c = {0};
        if (accept(p, LANG_TOK_IF)) {
            if (v.n == 0) return false;
            c.is_if = true;
            c.iter = or_test(p);
            if (!c.iter) return false;
        } else {
            next(p);
            vec t = {0};
            lang_pos start = p->tok.span.start;
            bool comma = false;
            for (;;) {
                lang_expr *x = bitor_expr(p);
                if (!x || !vpush(p, &t, &x, sizeof x)) return false;
                if (!check(p, LANG_TOK_COMMA)) break;
                next(p);
                comma = true;
                if (check(p, LANG_TOK_IN)) break;
            }
            if (comma) {
                c.target = new_expr(p, LANG_EX_TUPLE, start);
                if (!c.target) return false;
                c.target->u.seq.items = t.items;
                c.target->u.seq.n = t.n;
            } else {
                c.target = ((lang_expr **)t.items)[0];
            }
            if (!expect(p, LANG_TOK_IN, "expected 'in' after the comprehension's loop variable"))
                return false;
            c.iter = or_test(p);
            if (!c.iter) return false;
        }
        if (!vpush(p, &v, &c, sizeof c)) return false;
    }
    e->u.comp.clauses = v.items;
    e->u.comp.n = v.n;
    return true;
}

static lang_expr *star_or_expr(parser *p) {
    if (check(p, LANG_TOK_STAR)) {
        lang_pos start = p->tok.span.start;
        next(p);
        lang_expr *x = bitor_expr(p);
        if (!x) return NULL;
        lang_expr *e = new_expr(p, LANG_EX_STARRED, start);
        if (e) e->u.unary.operand = x;
        return e;
    }
    return expr(p);
}

/* Items of a bracketed display up to [close]; the first is already parsed. */
static lang_expr *seq_rest(parser *p, lang_expr_kind kind, lang_pos start, lang_expr *first,
                           lang_tok close) {
    vec v = {0};
    if (!vpush(p, &v, &first, sizeof first)) return NULL;
    while (accept(p, LANG_TOK_COMMA)) {
        if (check(p, close)) break;
        lang_expr *x = star_or_expr(p);
        if (!x || !vpush(p, &v, &x, sizeof x)) return NULL;
    }
    lang_expr *e = new_expr(p, kind, start);
    if (!e) return NULL;
    e->u.seq.items = v.items;
    e->u.seq.n = v.n;
    return e;
}

static const char *close_msg(lang_tok close) {
    return close == LANG_TOK_RPAREN     ? "expected ',' or ')'"
           : close == LANG_TOK_RBRACKET ? "expected ',' or ']'"
                                        : "expected ',' or '}'";
}

static lang_expr *paren_atom(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    if (accept(p, LANG_TOK_RPAREN)) {
        lang_expr *e = new_expr(p, LANG_EX_TUPLE, start);
        return e;
    }
    lang_expr *first = star_or_expr(p);
    if (!first) return NULL;
    if (check(p, LANG_TOK_FOR)) {
        lang_expr *e = new_expr(p, LANG_EX_GENEXP, start);
        if (!e) return NULL;
        e->u.comp.elt = first;
        if (!comp_clauses(p, e)) return NULL;
        if (!expect(p, LANG_TOK_RPAREN, "expected ')' after the generator expression")) return NULL;
        finish(p, e);
        return e;
    }
    if (check(p, LANG_TOK_COMMA)) {
        lang_expr *e = seq_rest(p, LANG_EX_TUPLE, start, first, LANG_TOK_RPAREN);
        if (!e || !expect(p, LANG_TOK_RPAREN, close_msg(LANG_TOK_RPAREN))) return NULL;
        finish(p, e);
        return e;
    }
    if (first->kind == LANG_EX_STARRED) {
        error_at(p, first->span, false, "a starred expression cannot stand alone in brackets");
        return NULL;
    }
    if (!expect(p, LANG_TOK_RPAREN, close_msg(LANG_TOK_RPAREN))) return NULL;
    return first;
}

static lang_expr *list_atom(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    if (accept(p, LANG_TOK_RBRACKET)) return new_expr(p, LANG_EX_LIST, start);
    lang_expr *first = star_or_expr(p);
    if (!first) return NULL;
    if (check(p, LANG_TOK_FOR)) {
        lang_expr *e = new_expr(p, LANG_EX_LISTCOMP, start);
        if (!e) return NULL;
        e->u.comp.elt = first;
        if (!comp_clauses(p, e)) return NULL;
        if (!expect(p, LANG_TOK_RBRACKET, "expected ']' after the list comprehension")) return NULL;
        finish(p, e);
        return e;
    }
    lang_expr *e = seq_rest(p, LANG_EX_LIST, start, first, LANG_TOK_RBRACKET);
    if (!e || !expect(p, LANG_TOK_RBRACKET, close_msg(LANG_TOK_RBRACKET))) return NULL;
    finish(p, e);
    return e;
}

static lang_expr *dict_atom(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    lang_expr *e = new_expr(p, LANG_EX_DICT, start);
    if (!e) return NULL;
    if (accept(p, LANG_TOK_RBRACE)) {
        finish(p, e);
        return e;
    }
    vec keys = {0}, vals = {0};
    for (;;) {
        if (check(p, LANG_TOK_DSTAR)) {
            error_tok(p, "'**' unpacking in a dict display is not supported; use dict.update()");
            return NULL;
        }
        lang_expr *k = expr(p);
        if (!k) return NULL;
        if (keys.n == 0 && check(p, LANG_TOK_FOR)) { /* {x for x in xs} */
            e->kind = LANG_EX_SETCOMP;
            e->u.comp.elt = k;
            if (!comp_clauses(p, e)) return NULL;
            if (!expect(p, LANG_TOK_RBRACE, "expected '}' after the set comprehension"))
                return NULL;
            finish(p, e);
            return e;
        }
        if (keys.n == 0 && (check(p, LANG_TOK_COMMA) || check(p, LANG_TOK_RBRACE))) {
            /* {a, b, c}: a set display */
            vec items = {0};
            if (!vpush(p, &items, &k, sizeof k)) return NULL;
            while (accept(p, LANG_TOK_COMMA) && !check(p, LANG_TOK_RBRACE)) {
                lang_expr *x = expr(p);
                if (!x || !vpush(p, &items, &x, sizeof x)) return NULL;
            }
            if (!expect(p, LANG_TOK_RBRACE, close_msg(LANG_TOK_RBRACE))) return NULL;
            e->kind = LANG_EX_SET;
            e->u.seq.items = items.items;
            e->u.seq.n = items.n;
            finish(p, e);
            return e;
        }
        if (!check(p, LANG_TOK_COLON)) {
            error_tok(p, "expected ':' after the dict key, found %s", found(p));
            return NULL;
        }
        next(p);
        lang_expr *v = expr(p);
        if (!v) return NULL;
        if (keys.n == 0 && check(p, LANG_TOK_FOR)) {
            e->kind = LANG_EX_DICTCOMP;
            e->u.comp.key = k;
            e->u.comp.elt = v;
            if (!comp_clauses(p, e)) return NULL;
            if (!expect(p, LANG_TOK_RBRACE, "expected '}' after the dict comprehension"))
                return NULL;
            finish(p, e);
            return e;
        }
        if (!vpush(p, &keys, &k, sizeof k) || !vpush(p, &vals, &v, sizeof v)) return NULL;
        if (!accept(p, LANG_TOK_COMMA)) break;
        if (check(p, LANG_TOK_RBRACE)) break;
    }
    if (!expect(p, LANG_TOK_RBRACE, close_msg(LANG_TOK_RBRACE))) return NULL;
    e->u.dict.keys = keys.items;
    e->u.dict.values = vals.items;
    e->u.dict.n = keys.n;
    finish(p, e);
    return e;
}

static bool add_lit(parser *p, vec *parts, const char *s, size_t n) {
    if (n == 0) return true;
    lang_fpart fp = {0};
    fp.text = s;
    fp.len = n;
    return vpush(p, parts, &fp, sizeof fp);
}

/* Adjacent string literals, joined; an f-string among them makes the
 * result an f-string. */
static lang_expr *string_atom(parser *p) {
    lang_pos start = p->tok.span.start;
    bool any_f = false;
    vec parts = {0};
    lang_buf plain;
    lang_buf_init(&plain);
    bool ok = true;
    while (check(p, LANG_TOK_STRING)) {
        lang_token t = p->tok;
        next(p);
        if (t.u.str.f) {
            if (!any_f) {
                any_f = true;
                if (plain.len) {
                    char *s = lang_arena_strdup(p->A, plain.data, plain.len);
                    ok = ok && s && add_lit(p, &parts, s, plain.len);
                }
            }
            /* The sub-parse of the fields replaces the lexer; keep ours. */
            lang_token save_tok = p->tok, save_prev = p->prev;
            ok = ok && fstring_body(p, t.u.str.body, t.u.str.body_len, t.u.str.body_pos,
                                    t.u.str.raw, &parts);
            p->tok = save_tok;
            p->prev = save_prev;
        } else if (any_f) {
            ok = ok && add_lit(p, &parts, t.u.str.s, t.u.str.len);
        } else {
            lang_buf_add(&plain, t.u.str.s, t.u.str.len);
        }
    }
    lang_expr *e = NULL;
    if (ok) {
        e = new_expr(p, any_f ? LANG_EX_FSTRING : LANG_EX_STR, start);
        if (e && any_f) {
            e->u.fstr.parts = parts.items;
            e->u.fstr.n = parts.n;
        } else if (e) {
            e->u.str.s = lang_arena_strdup(p->A, plain.data ? plain.data : "", plain.len);
            e->u.str.len = plain.len;
            if (!e->u.str.s) e = NULL;
        }
    }
    lang_buf_free(&plain);
    return e;
}

static lang_expr *atom(parser *p) {
    lang_pos start = p->tok.span.start;
    lang_expr *e;
    switch (p->tok.kind) {
    case LANG_TOK_NAME: {
        lang_name *nm = intern_tok(p);
        if (!nm) return NULL;
        e = name_expr(p, nm, p->tok.span);
        next(p);
        return e;
    }
    case LANG_TOK_INT:
        next(p);
        e = new_expr(p, LANG_EX_INT, start);
        if (e) e->u.i = p->prev.u.i;
        return e;
    case LANG_TOK_FLOAT:
        next(p);
        e = new_expr(p, LANG_EX_FLOAT, start);
        if (e) e->u.f = p->prev.u.f;
        return e;
    case LANG_TOK_STRING: return string_atom(p);
    case LANG_TOK_NONE: next(p); return new_expr(p, LANG_EX_NONE, start);
    case LANG_TOK_TRUE: next(p); return new_expr(p, LANG_EX_TRUE, start);
    case LANG_TOK_FALSE: next(p); return new_expr(p, LANG_EX_FALSE, start);
    case LANG_TOK_ELLIPSIS: next(p); return new_expr(p, LANG_EX_ELLIPSIS, start);
    case LANG_TOK_LPAREN: return paren_atom(p);
    case LANG_TOK_LBRACKET: return list_atom(p);
    case LANG_TOK_LBRACE: return dict_atom(p);
    case LANG_TOK_YIELD: {
        /* `yield`, `yield a, b`, `yield from it`: the lowest precedence, so
         * it takes everything up to the end of the statement or bracket. */
        next(p);
        bool from = accept(p, LANG_TOK_FROM);
        lang_expr *v = NULL;
        lang_tok k = p->tok.kind;
        if (from) {
            if (!(v = expr(p))) return NULL;
        } else if (k != LANG_TOK_NEWLINE && k != LANG_TOK_EOF && k != LANG_TOK_SEMI &&
                   k != LANG_TOK_RPAREN && k != LANG_TOK_RBRACKET && k != LANG_TOK_RBRACE &&
                   k != LANG_TOK_ASSIGN && k != LANG_TOK_COLON && k != LANG_TOK_COMMA) {
            if (!(v = expr_list(p, true))) return NULL;
        }
        e = new_expr(p, from ? LANG_EX_YIELD_FROM : LANG_EX_YIELD, start);
        if (e) e->u.unary.operand = v;
        return e;
    }
    case LANG_TOK_AWAIT:
        error_tok(p, "%s is not supported in nndb", lang_tok_describe(p->tok.kind));
        return NULL;
    case LANG_TOK_WALRUS:
        error_tok(p, "':=' is not supported; assign on its own line");
        return NULL;
    default: break;
    }
    if (p->tok.kind >= LANG_TOK_FALSE)
        error_tok(p, "expected an expression, found the keyword %s", found(p));
    else
        error_tok(p, "expected an expression, found %s", found(p));
    return NULL;
}

static lang_expr *slice_item(parser *p) {
    lang_pos start = p->tok.span.start;
    lang_expr *lo = NULL;
    if (!check(p, LANG_TOK_COLON)) {
        lo = expr(p);
        if (!lo || !check(p, LANG_TOK_COLON)) return lo;
    }
    next(p); /* ':' */
    lang_expr *hi = NULL, *st = NULL;
    if (!check(p, LANG_TOK_COLON) && !check(p, LANG_TOK_COMMA) && !check(p, LANG_TOK_RBRACKET)) {
        hi = expr(p);
        if (!hi) return NULL;
    }
    if (accept(p, LANG_TOK_COLON)) {
        if (!check(p, LANG_TOK_COMMA) && !check(p, LANG_TOK_RBRACKET)) {
            st = expr(p);
            if (!st) return NULL;
        }
    }
    lang_expr *e = new_expr(p, LANG_EX_SLICE, start);
    if (!e) return NULL;
    e->u.slice.lower = lo;
    e->u.slice.upper = hi;
    e->u.slice.step = st;
    return e;
}

static lang_expr *subscript(parser *p, lang_expr *value) {
    lang_pos start = p->tok.span.start;
    next(p); /* '[' */
    if (check(p, LANG_TOK_RBRACKET)) {
        error_tok(p, "expected an index or a slice inside '[]'");
        return NULL;
    }
    lang_expr *first = slice_item(p);
    if (!first) return NULL;
    lang_expr *index = first;
    if (check(p, LANG_TOK_COMMA)) {
        vec v = {0};
        if (!vpush(p, &v, &first, sizeof first)) return NULL;
        while (accept(p, LANG_TOK_COMMA)) {
            if (check(p, LANG_TOK_RBRACKET)) break;
            lang_expr *x = slice_item(p);
            if (!x || !vpush(p, &v, &x, sizeof x)) return NULL;
        }
        index = new_expr(p, LANG_EX_TUPLE, start);
        if (!index) return NULL;
        index->span.start = first->span.start;
        index->u.seq.items = v.items;
        index->u.seq.n = v.n;
    }
    if (!expect(p, LANG_TOK_RBRACKET, close_msg(LANG_TOK_RBRACKET))) return NULL;
    lang_expr *e = new_expr(p, LANG_EX_SUBSCRIPT, value->span.start);
    if (!e) return NULL;
    e->u.sub.value = value;
    e->u.sub.index = index;
    return e;
}

static lang_expr *call(parser *p, lang_expr *func) {
    next(p); /* '(' */
    vec args = {0};
    bool seen_kw = false, seen_starstar = false, simple = true;
    int npos = 0;
    while (!check(p, LANG_TOK_RPAREN)) {
        lang_arg a = {0};
        a.span.start = p->tok.span.start;
        if (check(p, LANG_TOK_STAR) || check(p, LANG_TOK_DSTAR)) {
            a.kind = check(p, LANG_TOK_STAR) ? LANG_ARG_STAR : LANG_ARG_STARSTAR;
            next(p);
            a.value = expr(p);
            if (!a.value) return NULL;
            if (a.kind == LANG_ARG_STAR && seen_starstar) {
                error_at(p, a.value->span, false, "'*' argument after '**' argument");
                return NULL;
            }
            seen_starstar |= a.kind == LANG_ARG_STARSTAR;
            simple = false;
        } else {
            lang_expr *v = expr(p);
            if (!v) return NULL;
            if (check(p, LANG_TOK_ASSIGN)) {
                if (v->kind != LANG_EX_NAME) {
                    error_tok(p, "expected a parameter name before '=' (to compare, use '==')");
                    return NULL;
                }
                next(p);
                a.kind = LANG_ARG_KW;
                a.name = v->u.name.name;
                for (int k = 0; k < args.n; k++) {
                    lang_arg *o = &((lang_arg *)args.items)[k];
                    if (o->kind == LANG_ARG_KW && o->name == a.name) {
                        error_at(p, v->span, false, "keyword argument repeated: '%s'", a.name->str);
                        return NULL;
                    }
                }
                a.value = expr(p);
                if (!a.value) return NULL;
                seen_kw = true;
            } else if (check(p, LANG_TOK_FOR)) {
                lang_expr *g = new_expr(p, LANG_EX_GENEXP, v->span.start);
                if (!g) return NULL;
                g->u.comp.elt = v;
                if (!comp_clauses(p, g)) return NULL;
                finish(p, g);
                if (args.n > 0 || !check(p, LANG_TOK_RPAREN)) {
                    error_at(p, g->span, false,
                             "a generator expression must be in brackets unless it is the only "
                             "argument");
                    return NULL;
                }
                a.kind = LANG_ARG_POS;
                a.value = g;
            } else {
                if (seen_kw || seen_starstar) {
                    error_at(p, v->span, false,
                             "positional argument follows keyword argument; move it before "
                             "the keyword arguments");
                    return NULL;
                }
                a.kind = LANG_ARG_POS;
                a.value = v;
                if (simple) npos++;
            }
        }
        a.span.end = p->prev.span.end;
        if (!vpush(p, &args, &a, sizeof a)) return NULL;
        if (!accept(p, LANG_TOK_COMMA)) break;
    }
    if (!expect(p, LANG_TOK_RPAREN, "expected ',' or ')' in the call's arguments")) return NULL;
    lang_expr *e = new_expr(p, LANG_EX_CALL, func->span.start);
    if (!e) return NULL;
    e->u.call.func = func;
    e->u.call.args = args.items;
    e->u.call.nargs = args.n;
    e->u.call.npos = npos;
    e->u.call.simple = simple;
    return e;
}

static lang_expr *primary(parser *p) {
    lang_expr *e = atom(p);
    while (e) {
        if (check(p, LANG_TOK_LPAREN)) {
            e = call(p, e);
        } else if (check(p, LANG_TOK_LBRACKET)) {
            e = subscript(p, e);
        } else if (check(p, LANG_TOK_DOT)) {
            next(p);
            if (!check(p, LANG_TOK_NAME)) {
                error_tok(p, "expected an attribute name after '.', found %s", found(p));
                return NULL;
            }
            lang_name *nm = intern_tok(p);
            if (!nm) return NULL;
            lang_span ns = p->tok.span;
            next(p);
            lang_expr *a = new_expr(p, LANG_EX_ATTR, e->span.start);
            if (!a) return NULL;
            a->u.attr.value = e;
            a->u.attr.name = nm;
            a->u.attr.name_span = ns;
            e = a;
        } else {
            break;
        }
    }
    return e;
}

static lang_expr *factor(parser *p);

static lang_expr *binary(parser *p, lang_binop op, lang_expr *l, lang_expr *r, lang_span ops) {
    lang_expr *e = new_expr(p, LANG_EX_BINARY, l->span.start);
    if (!e) return NULL;
    e->u.bin.op = op;
    e->u.bin.left = l;
    e->u.bin.right = r;
    e->u.bin.op_span = ops;
    return e;
}

static lang_expr *power(parser *p) {
    lang_expr *e = primary(p);
    if (!e || !check(p, LANG_TOK_DSTAR)) return e;
    lang_span ops = p->tok.span;
    next(p);
    lang_expr *r = factor(p); /* right-associative; 2**-1 is allowed */
    return r ? binary(p, LANG_OP_POW, e, r, ops) : NULL;
}

static lang_expr *factor(parser *p) {
    lang_binop op;
    switch (p->tok.kind) {
    case LANG_TOK_MINUS: op = LANG_OP_NEG; break;
    case LANG_TOK_PLUS: op = LANG_OP_POS; break;
    case LANG_TOK_TILDE: op = LANG_OP_INVERT; break;
    default: return power(p);
    }
    lang_pos start = p->tok.span.start;
    if (!enter(p)) return NULL;
    next(p);
    lang_expr *x = factor(p);
    p->depth--;
    if (!x) return NULL;
    lang_expr *e = new_expr(p, LANG_EX_UNARY, start);
    if (!e) return NULL;
    e->u.unary.op = op;
    e->u.unary.operand = x;
    return e;
}

static bool term_op(lang_tok k, lang_binop *op) {
    switch (k) {
    case LANG_TOK_STAR: *op = LANG_OP_MUL; return true;
    case LANG_TOK_SLASH: *op = LANG_OP_DIV; return true;
    case LANG_TOK_DSLASH: *op = LANG_OP_FLOORDIV; return true;
    case LANG_TOK_PERCENT: *op = LANG_OP_MOD; return true;
    case LANG_TOK_AT: *op = LANG_OP_MATMUL; return true;
    default: return false;
    }
}

static lang_expr *term(parser *p) {
    lang_expr *e = factor(p);
    lang_binop op;
    while (e && term_op(p->tok.kind, &op)) {
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = factor(p);
        e = r ? binary(p, op, e, r, ops) : NULL;
    }
    return e;
}

static lang_expr *arith(parser *p) {
    lang_expr *e = term(p);
    while (e && (check(p, LANG_TOK_PLUS) || check(p, LANG_TOK_MINUS))) {
        lang_binop op = check(p, LANG_TOK_PLUS) ? LANG_OP_ADD : LANG_OP_SUB;
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = term(p);
        e = r ? binary(p, op, e, r, ops) : NULL;
    }
    return e;
}

static lang_expr *shift_expr(parser *p) {
    lang_expr *e = arith(p);
    if (e && (check(p, LANG_TOK_LSHIFT) || check(p, LANG_TOK_RSHIFT))) {
        error_tok(p, "the %s operator is not supported in nndb", lang_tok_describe(p->tok.kind));
        return NULL;
    }
    return e;
}

static lang_expr *bitand_expr(parser *p) {
    lang_expr *e = shift_expr(p);
    while (e && check(p, LANG_TOK_AMP)) {
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = shift_expr(p);
        e = r ? binary(p, LANG_OP_AND_BITS, e, r, ops) : NULL;
    }
    return e;
}

static lang_expr *bitxor_expr(parser *p) {
    lang_expr *e = bitand_expr(p);
    if (e && check(p, LANG_TOK_CARET)) {
        error_tok(p, "the '^' operator is not supported in nndb (for a power, use '**')");
        return NULL;
    }
    return e;
}

static lang_expr *bitor_expr(parser *p) {
    lang_expr *e = bitxor_expr(p);
    while (e && check(p, LANG_TOK_PIPE)) {
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = bitxor_expr(p);
        e = r ? binary(p, LANG_OP_OR_BITS, e, r, ops) : NULL;
    }
    return e;
}

static bool cmp_op(parser *p, lang_cmpop *op) {
    switch (p->tok.kind) {
    case LANG_TOK_EQ: *op = LANG_CMP_EQ; break;
    case LANG_TOK_NE: *op = LANG_CMP_NE; break;
    case LANG_TOK_LT: *op = LANG_CMP_LT; break;
    case LANG_TOK_LE: *op = LANG_CMP_LE; break;
    case LANG_TOK_GT: *op = LANG_CMP_GT; break;
    case LANG_TOK_GE: *op = LANG_CMP_GE; break;
    case LANG_TOK_IN: *op = LANG_CMP_IN; break;
    case LANG_TOK_IS: *op = LANG_CMP_IS; break;
    case LANG_TOK_NOT: *op = LANG_CMP_NOT_IN; break;
    default: return false;
    }
    return true;
}

static lang_expr *comparison(parser *p) {
    lang_expr *e = bitor_expr(p);
    lang_cmpop op;
    if (!e || !cmp_op(p, &op)) return e;
    vec ops = {0}, rest = {0};
    while (cmp_op(p, &op)) {
        next(p);
        if (op == LANG_CMP_NOT_IN) {
            if (!expect(p, LANG_TOK_IN, "expected 'in' after 'not' in a comparison")) return NULL;
        } else if (op == LANG_CMP_IS && accept(p, LANG_TOK_NOT)) {
            op = LANG_CMP_IS_NOT;
        }
        lang_expr *r = bitor_expr(p);
        if (!r || !vpush(p, &ops, &op, sizeof op) || !vpush(p, &rest, &r, sizeof r)) return NULL;
    }
    lang_expr *c = new_expr(p, LANG_EX_COMPARE, e->span.start);
    if (!c) return NULL;
    c->u.cmp.first = e;
    c->u.cmp.ops = ops.items;
    c->u.cmp.rest = rest.items;
    c->u.cmp.n = ops.n;
    return c;
}

static lang_expr *not_test(parser *p) {
    if (!check(p, LANG_TOK_NOT)) return comparison(p);
    lang_pos start = p->tok.span.start;
    if (!enter(p)) return NULL;
    next(p);
    lang_expr *x = not_test(p);
    p->depth--;
    if (!x) return NULL;
    lang_expr *e = new_expr(p, LANG_EX_NOT, start);
    if (e) e->u.unary.operand = x;
    return e;
}

static lang_expr *and_test(parser *p) {
    lang_expr *e = not_test(p);
    while (e && check(p, LANG_TOK_AND)) {
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = not_test(p);
        if (!r) return NULL;
        lang_expr *a = binary(p, LANG_OP_ADD, e, r, ops);
        if (a) a->kind = LANG_EX_AND;
        e = a;
    }
    return e;
}

static lang_expr *or_test(parser *p) {
    lang_expr *e = and_test(p);
    while (e && check(p, LANG_TOK_OR)) {
        lang_span ops = p->tok.span;
        next(p);
        lang_expr *r = and_test(p);
        if (!r) return NULL;
        lang_expr *a = binary(p, LANG_OP_ADD, e, r, ops);
        if (a) a->kind = LANG_EX_OR;
        e = a;
    }
    return e;
}

static lang_func *params(parser *p, lang_tok close, bool lambda);

static lang_expr *lambda_expr(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    lang_func *f = params(p, LANG_TOK_COLON, true);
    if (!f) return NULL;
    if (!expect(p, LANG_TOK_COLON, "expected ':' after the lambda's parameters")) return NULL;
    p->func_depth++;
    int loops = p->loop_depth;
    p->loop_depth = 0;
    f->expr = expr(p);
    p->func_depth--;
    p->loop_depth = loops;
    if (!f->expr) return NULL;
    f->name = intern(p, "<lambda>", 8);
    lang_expr *e = new_expr(p, LANG_EX_LAMBDA, start);
    if (e) e->u.lambda = f;
    return e;
}

static lang_expr *expr(parser *p) {
    if (!enter(p)) return NULL;
    lang_expr *e;
    if (check(p, LANG_TOK_LAMBDA)) {
        e = lambda_expr(p);
    } else {
        e = or_test(p);
        if (e && check(p, LANG_TOK_IF)) {
            next(p);
            lang_expr *c = or_test(p);
            lang_expr *o = NULL;
            if (c) {
                if (!check(p, LANG_TOK_ELSE))
                    error_tok(p,
                              "expected 'else' after the condition of a conditional "
                              "expression, found %s",
                              found(p));
                else {
                    next(p);
                    o = expr(p);
                }
            }
            lang_expr *x = c && o ? new_expr(p, LANG_EX_IFEXP, e->span.start) : NULL;
            if (x) {
                x->u.ifexp.cond = c;
                x->u.ifexp.then = e;
                x->u.ifexp.orelse = o;
            }
            e = x;
        }
    }
    p->depth--;
    return e;
}

/* A comma-separated list at statement level (`a, *b = f()`, `return x, y`):
 * a TUPLE when there is a comma. [star] allows `*x` items. */
static lang_expr *expr_list(parser *p, bool star) {
    lang_pos start = p->tok.span.start;
    lang_expr *first = star ? star_or_expr(p) : expr(p);
    if (!first || !check(p, LANG_TOK_COMMA)) return first;
    vec v = {0};
    if (!vpush(p, &v, &first, sizeof first)) return NULL;
    while (accept(p, LANG_TOK_COMMA)) {
        lang_tok k = p->tok.kind;
        if (k == LANG_TOK_NEWLINE || k == LANG_TOK_EOF || k == LANG_TOK_ASSIGN ||
            k == LANG_TOK_SEMI || k == LANG_TOK_COLON || k == LANG_TOK_RPAREN ||
            k == LANG_TOK_RBRACE || k == LANG_TOK_RBRACKET || k == LANG_TOK_ERROR ||
            (k >= LANG_TOK_PLUSEQ && k <= LANG_TOK_RSHIFTEQ))
            break;
        lang_expr *x = star ? star_or_expr(p) : expr(p);
        if (!x || !vpush(p, &v, &x, sizeof x)) return NULL;
    }
    lang_expr *e = new_expr(p, LANG_EX_TUPLE, start);
    if (!e) return NULL;
    e->u.seq.items = v.items;
    e->u.seq.n = v.n;
    return e;
}

/* ---- f-strings ---- */

/* Parse [n] bytes of [src] at [pos] as one expression (list), in a lexer
 * of its own that treats newlines as spaces. */
static lang_expr *sub_expression(parser *p, const char *src, size_t n, lang_pos pos) {
    lang_lexer sub, *outer = p->lx;
    lang_lex_init(&sub, src, n, pos, p->A, lex_error, p);
    sub.expr_mode = true;
    p->lx = &sub;
    p->in_fstring++;
    bool panic = p->panic;
    p->panic = false;
    next(p);
    lang_expr *e = expr_list(p, false);
    if (e && !check(p, LANG_TOK_EOF)) {
        error_tok(p, "f-string: expecting '}' after the expression, found %s", found(p));
        e = NULL;
    }
    p->in_fstring--;
    p->lx = outer;
    if (!e) panic = true;
    p->panic = panic;
    return e;
}

/* Scan an f-string field from body[*i] (just after '{'): the expression
 * ends at a top-level '}', '!', ':' or self-documenting '='. */
static size_t field_expr_end(const char *b, size_t n, size_t i) {
    int depth = 0;
    while (i < n) {
        char c = b[i];
        if (c == '\'' || c == '"') {
            char q = c;
            i++;
            while (i < n && b[i] != q) i += b[i] == '\\' ? 2 : 1;
            i++;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') depth++;
        if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
            i++;
            continue;
        }
        if (depth == 0) {
            if (c == '}' || c == ':') return i;
            if (c == '!' && (i + 1 >= n || b[i + 1] != '=')) return i;
            if (c == '=' && (i + 1 >= n || b[i + 1] != '=') && i > 0 && !strchr("=!<>", b[i - 1]))
                return i;
        }
        i++;
    }
    return n;
}

static lang_expr *fstring_body(parser *p, const char *body, size_t n, lang_pos pos, bool raw,
                               vec *parts) {
    size_t i = 0, lit = 0;
    lang_buf text;
    lang_buf_init(&text);
    bool ok = true;
#define POS_AT(k) lang_pos_advance(pos, body, (k))
#define FLUSH_LIT(end)                                                                             \
    do {                                                                                           \
        if ((end) > lit) {                                                                         \
            const char *d;                                                                         \
            size_t dn;                                                                             \
            if (!lang_lex_decode(p->lx, body + lit, (end)-lit, POS_AT(lit), raw, &d, &dn))         \
                ok = false;                                                                        \
            else                                                                                   \
                lang_buf_add(&text, d, dn);                                                        \
        }                                                                                          \
    } while (0)
    while (i < n && ok) {
        char c = body[i];
        if (c == '\\' && !raw && i + 1 < n && body[i + 1] != '{' && body[i + 1] != '}') {
            i += 2;
            continue;
        }
        if (c == '}') {
            if (i + 1 < n && body[i + 1] == '}') {
                FLUSH_LIT(i + 1);
                i += 2;
                lit = i;
                continue;
            }
            lang_span sp = {POS_AT(i), POS_AT(i + 1)};
            add_error(p, sp, false, "f-string: single '}' is not allowed; write '}}' for a brace");
            ok = false;
            break;
        }
        if (c != '{') {
            i++;
            continue;
        }
        if (i + 1 < n && body[i + 1] == '{') {
            FLUSH_LIT(i + 1);
            i += 2;
            lit = i;
            continue;
        }
        FLUSH_LIT(i);
        if (text.len) {
            char *s = lang_arena_strdup(p->A, text.data, text.len);
            ok = s && add_lit(p, parts, s, text.len);
            text.len = 0;
        }
        size_t open = i;
        size_t a = i + 1, e = field_expr_end(body, n, a);
        lang_fpart fp = {0};
        bool explicit_conv = false, blank = true;
        for (size_t k = a; k < e; k++)
            blank &= body[k] == ' ' || body[k] == '\t' || body[k] == '\n';
        if (blank) {
            lang_span sp = {POS_AT(open), POS_AT(e < n ? e + 1 : n)};
            add_error(p, sp, false, "f-string: empty expression is not allowed inside '{}'");
            ok = false;
            break;
        }
        fp.expr = sub_expression(p, body + a, e - a, POS_AT(a));
        if (!fp.expr) {
            ok = false;
            break;
        }
        i = e;
        if (i < n && body[i] == '=') {
            i++;
            while (i < n && body[i] == ' ') i++;
            fp.debug = lang_arena_strdup(p->A, body + a, i - a);
            fp.conv = 'r';
        }
        if (i < n && body[i] == '!') {
            char cv = i + 1 < n ? body[i + 1] : 0;
            if (cv != 'r' && cv != 's' && cv != 'a') {
                lang_span sp = {POS_AT(i), POS_AT(i + (i + 1 < n ? 2 : 1))};
                add_error(p, sp, false,
                          "f-string: invalid conversion character: expected 's', 'r', or 'a'");
                ok = false;
                break;
            }
            fp.conv = cv;
            explicit_conv = true;
            i += 2;
        }
        if (i < n && body[i] == ':') {
            i++;
            size_t s0 = i;
            int depth = 0;
            while (i < n && (body[i] != '}' || depth > 0)) {
                if (body[i] == '{') depth++;
                if (body[i] == '}') depth--;
                i++;
            }
            /* f"{x=:.2f}" formats the value; only a bare f"{x=}" is a repr. */
            if (fp.debug && !explicit_conv) fp.conv = 0;
            if (p->fdepth >= MAX_FSTR_DEPTH) {
                lang_span sp = {POS_AT(s0), POS_AT(i)};
                add_error(p, sp, false, "f-string: format specs are nested too deeply");
                ok = false;
                break;
            }
            vec sparts = {0};
            p->fdepth++;
            lang_expr *spec = fstring_body(p, body + s0, i - s0, POS_AT(s0), raw, &sparts);
            p->fdepth--;
            if (!spec) {
                ok = false;
                break;
            }
            spec->span.start = POS_AT(s0);
            spec->span.end = POS_AT(i);
            fp.spec = spec;
        }
        if (i >= n || body[i] != '}') {
            lang_span sp = {POS_AT(open), POS_AT(i < n ? i + 1 : n)};
            add_error(p, sp, false, "f-string: expecting '}' to close the field opened here");
            ok = false;
            break;
        }
        i++;
        lit = i;
        ok = ok && vpush(p, parts, &fp, sizeof fp);
    }
    if (ok) FLUSH_LIT(n);
    if (ok && text.len) {
        char *s = lang_arena_strdup(p->A, text.data, text.len);
        ok = s && add_lit(p, parts, s, text.len);
    }
#undef FLUSH_LIT
#undef POS_AT
    lang_buf_free(&text);
    if (!ok) {
        p->panic = true;
        return NULL;
    }
    /* The caller of a top-level body only needs success; a spec becomes an
     * f-string node of its own. */
    lang_expr *e = alloc(p, sizeof *e);
    if (!e) return NULL;
    e->kind = LANG_EX_FSTRING;
    e->span.start = pos;
    e->span.end = lang_pos_advance(pos, body, n);
    e->u.fstr.parts = parts->items;
    e->u.fstr.n = parts->n;
    return e;
}

/* ---- targets ---- */

typedef enum target_ctx { T_ASSIGN, T_AUG, T_DEL, T_FOR, T_WITH } target_ctx;

static bool check_target(parser *p, lang_expr *e, target_ctx ctx, bool in_seq) {
    const char *verb = ctx == T_DEL ? "delete" : "assign to";
    switch (e->kind) {
    case LANG_EX_NAME:
    case LANG_EX_ATTR:
    case LANG_EX_SUBSCRIPT: return true;
    case LANG_EX_TUPLE:
    case LANG_EX_LIST: {
        if (ctx == T_AUG) {
            error_at(p, e->span, false,
                     "augmented assignment needs a single target, not a %s; assign each one",
                     e->kind == LANG_EX_TUPLE ? "tuple" : "list");
            return false;
        }
        int stars = 0;
        for (int k = 0; k < e->u.seq.n; k++) {
            lang_expr *x = e->u.seq.items[k];
            if (x->kind == LANG_EX_STARRED) {
                if (ctx == T_DEL) {
                    error_at(p, x->span, false, "cannot delete a starred expression");
                    return false;
                }
                if (++stars > 1) {
                    error_at(p, x->span, false, "multiple starred expressions in an assignment");
                    return false;
                }
                if (!check_target(p, x->u.unary.operand, ctx, true)) return false;
            } else if (!check_target(p, x, ctx, true)) {
                return false;
            }
        }
        return true;
    }
    case LANG_EX_STARRED:
        error_at(p, e->span, false,
                 "a starred assignment target must be in a list or tuple (add a comma: *a, = ...)");
        return false;
    case LANG_EX_CALL:
        error_at(p, e->span, false, "cannot %s a function call%s", verb,
                 ctx == T_ASSIGN && !in_seq ? " (to compare, use '==')" : "");
        return false;
    case LANG_EX_NONE:
    case LANG_EX_TRUE:
    case LANG_EX_FALSE:
        error_at(p, e->span, false, "cannot %s %s", verb,
                 e->kind == LANG_EX_NONE   ? "None"
                 : e->kind == LANG_EX_TRUE ? "True"
                                           : "False");
        return false;
    case LANG_EX_INT:
    case LANG_EX_FLOAT:
    case LANG_EX_STR:
    case LANG_EX_FSTRING:
    case LANG_EX_ELLIPSIS: error_at(p, e->span, false, "cannot %s a literal", verb); return false;
    case LANG_EX_COMPARE: error_at(p, e->span, false, "cannot %s a comparison", verb); return false;
    default:
        error_at(p, e->span, false,
                 "cannot %s an expression; the target must be a name, "
                 "an attribute or a subscript",
                 verb);
        return false;
    }
}

/* `for` targets: a|b-level items, so that `in` ends them. */
static lang_expr *for_targets(parser *p) {
    lang_pos start = p->tok.span.start;
    vec v = {0};
    bool comma = false;
    for (;;) {
        lang_expr *x;
        if (check(p, LANG_TOK_STAR)) {
            lang_pos s = p->tok.span.start;
            next(p);
            lang_expr *o = bitor_expr(p);
            x = o ? new_expr(p, LANG_EX_STARRED, s) : NULL;
            if (x) x->u.unary.operand = o;
        } else {
            x = bitor_expr(p);
        }
        if (!x || !vpush(p, &v, &x, sizeof x)) return NULL;
        if (!check(p, LANG_TOK_COMMA)) break;
        next(p);
        comma = true;
        if (check(p, LANG_TOK_IN)) break;
    }
    if (!comma) return ((lang_expr **)v.items)[0];
    lang_expr *e = new_expr(p, LANG_EX_TUPLE, start);
    if (!e) return NULL;
    e->u.seq.items = v.items;
    e->u.seq.n = v.n;
    return e;
}

/* ---- statements ---- */

static void statement(parser *p, vec *out);
static bool block(parser *p, lang_block *b, const char *what, lang_pos header);

static bool push_stmt(parser *p, vec *out, lang_stmt *s) {
    return s && vpush(p, out, &s, sizeof s);
}

static bool aug_op(lang_tok k, lang_binop *op) {
    switch (k) {
    case LANG_TOK_PLUSEQ: *op = LANG_OP_ADD; return true;
    case LANG_TOK_MINUSEQ: *op = LANG_OP_SUB; return true;
    case LANG_TOK_STAREQ: *op = LANG_OP_MUL; return true;
    case LANG_TOK_SLASHEQ: *op = LANG_OP_DIV; return true;
    case LANG_TOK_DSLASHEQ: *op = LANG_OP_FLOORDIV; return true;
    case LANG_TOK_PERCENTEQ: *op = LANG_OP_MOD; return true;
    case LANG_TOK_DSTAREQ: *op = LANG_OP_POW; return true;
    case LANG_TOK_ATEQ: *op = LANG_OP_MATMUL; return true;
    case LANG_TOK_AMPEQ: *op = LANG_OP_AND_BITS; return true;
    case LANG_TOK_PIPEEQ: *op = LANG_OP_OR_BITS; return true;
    default: return false;
    }
}

static lang_stmt *expr_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    lang_expr *first = expr_list(p, true);
    if (!first) return NULL;
    lang_binop op;
    if (check(p, LANG_TOK_ASSIGN)) {
        vec targets = {0};
        lang_expr *value = first;
        while (accept(p, LANG_TOK_ASSIGN)) {
            if (!check_target(p, value, T_ASSIGN, false)) return NULL;
            if (!vpush(p, &targets, &value, sizeof value)) return NULL;
            value = expr_list(p, true);
            if (!value) return NULL;
        }
        lang_stmt *s = new_stmt(p, LANG_ST_ASSIGN, start);
        if (!s) return NULL;
        s->u.assign.targets = targets.items;
        s->u.assign.ntargets = targets.n;
        s->u.assign.value = value;
        return s;
    }
    if (aug_op(p->tok.kind, &op)) {
        if (!check_target(p, first, T_AUG, false)) return NULL;
        next(p);
        lang_expr *v = expr_list(p, false);
        if (!v) return NULL;
        lang_stmt *s = new_stmt(p, LANG_ST_AUGASSIGN, start);
        if (!s) return NULL;
        s->u.aug.target = first;
        s->u.aug.op = op;
        s->u.aug.value = v;
        return s;
    }
    if (check(p, LANG_TOK_CARETEQ) || check(p, LANG_TOK_LSHIFTEQ) || check(p, LANG_TOK_RSHIFTEQ)) {
        error_tok(p, "the %s operator is not supported in nndb", lang_tok_describe(p->tok.kind));
        return NULL;
    }
    if (check(p, LANG_TOK_COLON) && first->kind == LANG_EX_NAME) {
        /* An annotated assignment: the annotation is parsed and dropped
         * (a class body remembers the name, for @dataclass). */
        next(p);
        if (!expr(p)) return NULL;
        if (p->class_fields &&
            !vpush(p, p->class_fields, &first->u.name.name, sizeof first->u.name.name))
            return NULL;
        if (!accept(p, LANG_TOK_ASSIGN)) return new_stmt(p, LANG_ST_PASS, start);
        lang_expr *v = expr_list(p, true);
        if (!v) return NULL;
        lang_stmt *s = new_stmt(p, LANG_ST_ASSIGN, start);
        lang_expr **t = alloc(p, sizeof *t);
        if (!s || !t) return NULL;
        t[0] = first;
        s->u.assign.targets = t;
        s->u.assign.ntargets = 1;
        s->u.assign.value = v;
        return s;
    }
    lang_stmt *s = new_stmt(p, LANG_ST_EXPR, start);
    if (s) s->u.expr = first;
    return s;
}

/* A dotted module name a.b.c, as an arena string; NULL after an error. */
static const char *dotted_name(parser *p) {
    if (check(p, LANG_TOK_DOT)) {
        error_tok(p, "relative imports are not supported in nndb (no packages); use the "
                     "module's full name");
        return NULL;
    }
    lang_buf b;
    lang_buf_init(&b);
    for (;;) {
        if (!check(p, LANG_TOK_NAME)) {
            error_tok(p, "expected a module name, found %s", found(p));
            lang_buf_free(&b);
            return NULL;
        }
        lang_buf_add(&b, p->tok.text, p->tok.len);
        next(p);
        if (!check(p, LANG_TOK_DOT)) break;
        next(p);
        lang_buf_add(&b, ".", 1);
    }
    char *r = lang_arena_strdup(p->A, b.data ? b.data : "", b.len);
    lang_buf_free(&b);
    return r;
}

static bool import_target(parser *p, lang_import_item *it) {
    if (!check(p, LANG_TOK_NAME)) {
        error_tok(p, "expected a name after 'as', found %s", found(p));
        return false;
    }
    lang_name *nm = intern_tok(p);
    if (!nm) return false;
    it->target = name_expr(p, nm, p->tok.span);
    next(p);
    return it->target != NULL;
}

/* import a.b [as c], ...  |  from a.b import x [as y], ...  |  from a.b import (x, y) */
static lang_stmt *import_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    bool from = check(p, LANG_TOK_FROM);
    next(p);
    vec v = {0};
    if (!from) {
        do {
            lang_import_item it = {0};
            it.span.start = p->tok.span.start;
            lang_pos name_start = p->tok.span.start;
            it.module = dotted_name(p);
            if (!it.module) return NULL;
            it.span.end = p->prev.span.end;
            if (accept(p, LANG_TOK_AS)) {
                if (!import_target(p, &it)) return NULL;
            } else {
                size_t n = strcspn(it.module, ".");
                lang_name *nm = intern(p, it.module, n);
                lang_span sp = {name_start, name_start};
                sp.end.col += (int32_t)n;
                sp.end.ccol += (int32_t)n;
                if (!nm || !(it.target = name_expr(p, nm, sp))) return NULL;
                it.top = it.module[n] == '.';
            }
            it.span.end = p->prev.span.end;
            if (!vpush(p, &v, &it, sizeof it)) return NULL;
        } while (accept(p, LANG_TOK_COMMA));
    } else {
        const char *mod = dotted_name(p);
        if (!mod) return NULL;
        if (!expect(p, LANG_TOK_IMPORT, "expected 'import' after the module name")) return NULL;
        if (check(p, LANG_TOK_STAR)) {
            error_tok(p,
                      "'from %s import *' is not supported in nndb; import the names you use "
                      "(from %s import a, b)",
                      mod, mod);
            return NULL;
        }
        bool paren = accept(p, LANG_TOK_LPAREN);
        do {
            if (paren && check(p, LANG_TOK_RPAREN)) break;
            lang_import_item it = {0};
            it.module = mod;
            it.span.start = p->tok.span.start;
            if (!check(p, LANG_TOK_NAME)) {
                error_tok(p, "expected a name to import, found %s", found(p));
                return NULL;
            }
            it.attr = intern_tok(p);
            if (!it.attr) return NULL;
            lang_span sp = p->tok.span;
            next(p);
            if (accept(p, LANG_TOK_AS)) {
                if (!import_target(p, &it)) return NULL;
            } else if (!(it.target = name_expr(p, it.attr, sp))) {
                return NULL;
            }
            it.span.end = p->prev.span.end;
            if (!vpush(p, &v, &it, sizeof it)) return NULL;
        } while (accept(p, LANG_TOK_COMMA));
        if (paren && !expect(p, LANG_TOK_RPAREN, "expected ')' after the imported names"))
            return NULL;
        if (v.n == 0) {
            error_tok(p, "expected a name to import, found %s", found(p));
            return NULL;
        }
    }
    lang_stmt *s = new_stmt(p, LANG_ST_IMPORT, start);
    if (!s) return NULL;
    s->u.import.items = v.items;
    s->u.import.n = v.n;
    return s;
}

static lang_stmt *class_statement(parser *p, lang_expr **decorators, int ndecorators);
static lang_stmt *decorated(parser *p);
static lang_stmt *try_statement(parser *p);

static lang_stmt *simple_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    lang_stmt *s;
    switch (p->tok.kind) {
    case LANG_TOK_PASS: next(p); return new_stmt(p, LANG_ST_PASS, start);
    case LANG_TOK_BREAK:
    case LANG_TOK_CONTINUE: {
        bool brk = check(p, LANG_TOK_BREAK);
        if (p->loop_depth == 0) {
            error_tok(p, "'%s' outside a loop", brk ? "break" : "continue");
            return NULL;
        }
        next(p);
        return new_stmt(p, brk ? LANG_ST_BREAK : LANG_ST_CONTINUE, start);
    }
    case LANG_TOK_RETURN: {
        if (p->func_depth == 0) {
            error_tok(p, "'return' outside a function");
            return NULL;
        }
        next(p);
        lang_expr *v = NULL;
        if (!check(p, LANG_TOK_NEWLINE) && !check(p, LANG_TOK_SEMI) && !check(p, LANG_TOK_EOF)) {
            v = expr_list(p, true);
            if (!v) return NULL;
        }
        s = new_stmt(p, LANG_ST_RETURN, start);
        if (s) s->u.expr = v;
        return s;
    }
    case LANG_TOK_DEL: {
        next(p);
        vec v = {0};
        do {
            if (check(p, LANG_TOK_NEWLINE) || check(p, LANG_TOK_EOF)) break;
            lang_expr *x = bitor_expr(p);
            if (!x || !check_target(p, x, T_DEL, false) || !vpush(p, &v, &x, sizeof x)) return NULL;
        } while (accept(p, LANG_TOK_COMMA));
        if (v.n == 0) {
            error_tok(p, "expected a name after 'del'");
            return NULL;
        }
        s = new_stmt(p, LANG_ST_DEL, start);
        if (!s) return NULL;
        s->u.del.targets = v.items;
        s->u.del.n = v.n;
        return s;
    }
    case LANG_TOK_ASSERT: {
        next(p);
        lang_expr *t = expr(p), *m = NULL;
        if (!t) return NULL;
        if (accept(p, LANG_TOK_COMMA) && !(m = expr(p))) return NULL;
        s = new_stmt(p, LANG_ST_ASSERT, start);
        if (!s) return NULL;
        s->u.assert_.test = t;
        s->u.assert_.msg = m;
        return s;
    }
    case LANG_TOK_NONLOCAL:
    case LANG_TOK_GLOBAL: {
        bool nonlocal = check(p, LANG_TOK_NONLOCAL);
        if (nonlocal && p->func_depth == 0) {
            error_tok(p, "nonlocal declaration not allowed at module level");
            return NULL;
        }
        next(p);
        vec v = {0};
        do {
            if (!check(p, LANG_TOK_NAME)) {
                error_tok(p, "expected a name after '%s', found %s",
                          nonlocal ? "nonlocal" : "global", found(p));
                return NULL;
            }
            lang_name *nm = intern_tok(p);
            if (!nm || !vpush(p, &v, &nm, sizeof nm)) return NULL;
            next(p);
        } while (accept(p, LANG_TOK_COMMA));
        s = new_stmt(p, LANG_ST_GLOBAL, start);
        if (!s) return NULL;
        s->u.global.names = v.items;
        s->u.global.n = v.n;
        s->u.global.nonlocal = nonlocal;
        return s;
    }
    case LANG_TOK_IMPORT:
    case LANG_TOK_FROM: return import_statement(p);
    case LANG_TOK_RAISE: {
        next(p);
        lang_expr *e = NULL, *c = NULL;
        if (!check(p, LANG_TOK_NEWLINE) && !check(p, LANG_TOK_SEMI) && !check(p, LANG_TOK_EOF)) {
            if (!(e = expr(p))) return NULL;
            if (accept(p, LANG_TOK_FROM) && !(c = expr(p))) return NULL;
        }
        s = new_stmt(p, LANG_ST_RAISE, start);
        if (!s) return NULL;
        s->u.raise.exc = e;
        s->u.raise.cause = c;
        return s;
    }
    case LANG_TOK_CLASS:
    case LANG_TOK_TRY:
    case LANG_TOK_EXCEPT:
    case LANG_TOK_FINALLY:
    case LANG_TOK_ASYNC:
        error_tok(p, "%s is not supported in nndb (see docs/grammar.md)",
                  lang_tok_describe(p->tok.kind));
        return NULL;
    case LANG_TOK_ELSE:
    case LANG_TOK_ELIF:
        error_tok(p, "%s without a matching 'if'%s; check its indentation",
                  lang_tok_describe(p->tok.kind),
                  check(p, LANG_TOK_ELSE) ? ", 'for' or 'while'" : "");
        return NULL;
    default: return expr_statement(p);
    }
}

/* simple_statement (';' simple_statement)* [';'] NEWLINE */
static void simple_statements(parser *p, vec *out) {
    for (;;) {
        lang_stmt *s = simple_statement(p);
        if (!s) return;
        push_stmt(p, out, s);
        if (!accept(p, LANG_TOK_SEMI)) break;
        if (check(p, LANG_TOK_NEWLINE) || check(p, LANG_TOK_EOF)) break;
    }
    if (accept(p, LANG_TOK_NEWLINE) || check(p, LANG_TOK_EOF)) return;
    if (check(p, LANG_TOK_ASSIGN))
        error_tok(p, "cannot assign here (to compare, use '==')");
    else if (check(p, LANG_TOK_NAME) || check(p, LANG_TOK_INT) || check(p, LANG_TOK_FLOAT) ||
             check(p, LANG_TOK_STRING) || check(p, LANG_TOK_LPAREN) || check(p, LANG_TOK_LBRACKET))
        error_tok(p, "invalid syntax: unexpected %s (a missing operator or comma?)", found(p));
    else
        error_tok(p, "expected the end of the statement, found %s", found(p));
}

static bool colon(parser *p, const char *what) {
    if (accept(p, LANG_TOK_COLON)) return true;
    if (check(p, LANG_TOK_ASSIGN))
        error_tok(p, "expected ':' %s; to compare, use '==' ('=' assigns)", what);
    else
        error_tok(p, "expected ':' %s, found %s", what, found(p));
    return false;
}

static lang_func *params(parser *p, lang_tok close, bool lambda) {
    lang_func *f = alloc(p, sizeof *f);
    if (!f) return NULL;
    f->vararg = f->varkw = -1;
    vec v = {0};
    bool star = false, seen_default = false;
    while (!check(p, close)) {
        lang_param pa = {0};
        pa.span.start = p->tok.span.start;
        pa.kind = star ? LANG_PARAM_KWONLY : LANG_PARAM_POS;
        if (accept(p, LANG_TOK_DSTAR)) {
            pa.kind = LANG_PARAM_VARKW;
        } else if (accept(p, LANG_TOK_STAR)) {
            if (star) {
                error_at(p, p->prev.span, false, "'*' may appear only once among the parameters");
                return NULL;
            }
            star = true;
            if (check(p, LANG_TOK_COMMA)) { /* bare '*': keyword-only after it */
                next(p);
                continue;
            }
            pa.kind = LANG_PARAM_VARARGS;
        }
        if (!check(p, LANG_TOK_NAME)) {
            error_tok(p, "expected a parameter name, found %s", found(p));
            return NULL;
        }
        pa.name = intern_tok(p);
        if (!pa.name) return NULL;
        for (int k = 0; k < v.n; k++)
            if (((lang_param *)v.items)[k].name == pa.name) {
                error_tok(p, "duplicate parameter '%s'", pa.name->str);
                return NULL;
            }
        next(p);
        if (!lambda && accept(p, LANG_TOK_COLON)) {
            pa.annotation = expr(p);
            if (!pa.annotation) return NULL;
        }
        if (accept(p, LANG_TOK_ASSIGN)) {
            if (pa.kind == LANG_PARAM_VARARGS || pa.kind == LANG_PARAM_VARKW) {
                error_at(p, p->prev.span, false, "a '*' or '**' parameter cannot have a default");
                return NULL;
            }
            pa.def = expr(p);
            if (!pa.def) return NULL;
            if (pa.kind == LANG_PARAM_POS) seen_default = true;
        } else if (pa.kind == LANG_PARAM_POS && seen_default) {
            error_at(p, p->prev.span, false,
                     "a parameter without a default follows one with a default");
            return NULL;
        }
        pa.span.end = p->prev.span.end;
        pa.slot = v.n;
        if (pa.kind == LANG_PARAM_VARARGS) f->vararg = v.n;
        if (pa.kind == LANG_PARAM_VARKW) f->varkw = v.n;
        if (pa.kind == LANG_PARAM_POS) f->npos++;
        if (!vpush(p, &v, &pa, sizeof pa)) return NULL;
        if (pa.kind == LANG_PARAM_VARKW) break;
        if (!accept(p, LANG_TOK_COMMA)) break;
    }
    f->params = v.items;
    f->nparams = v.n;
    return f;
}

static lang_stmt *def_statement(parser *p, lang_expr **decorators, int ndecorators) {
    lang_pos start = p->tok.span.start;
    next(p);
    if (!check(p, LANG_TOK_NAME)) {
        error_tok(p, "expected the function's name after 'def', found %s", found(p));
        return NULL;
    }
    lang_name *nm = intern_tok(p);
    if (!nm) return NULL;
    lang_expr *target = name_expr(p, nm, p->tok.span);
    next(p);
    if (!target || !expect(p, LANG_TOK_LPAREN, "expected '(' after the function's name"))
        return NULL;
    lang_func *f = params(p, LANG_TOK_RPAREN, false);
    if (!f) return NULL;
    if (!expect(p, LANG_TOK_RPAREN, "expected ',' or ')' after the parameters")) return NULL;
    if (accept(p, LANG_TOK_ARROW) && !(f->returns = expr(p))) return NULL;
    if (!colon(p, "at the end of the def line")) return NULL;
    f->name = nm;
    lang_stmt *s = new_stmt(p, LANG_ST_DEF, start);
    if (!s) return NULL;
    p->func_depth++;
    int loops = p->loop_depth;
    p->loop_depth = 0;
    vec *fields = p->class_fields;
    p->class_fields = NULL;
    bool ok = block(p, &f->body, "the 'def'", start);
    p->class_fields = fields;
    p->func_depth--;
    p->loop_depth = loops;
    if (!ok) return NULL;
    s->u.def.func = f;
    s->u.def.target = target;
    s->u.def.decorators = decorators;
    s->u.def.ndecorators = ndecorators;
    return s;
}

static lang_stmt *class_statement(parser *p, lang_expr **decorators, int ndecorators) {
    lang_pos start = p->tok.span.start;
    next(p);
    if (!check(p, LANG_TOK_NAME)) {
        error_tok(p, "expected the class's name after 'class', found %s", found(p));
        return NULL;
    }
    lang_name *nm = intern_tok(p);
    if (!nm) return NULL;
    lang_expr *target = name_expr(p, nm, p->tok.span);
    next(p);
    if (!target) return NULL;
    vec bases = {0};
    if (accept(p, LANG_TOK_LPAREN)) {
        while (!check(p, LANG_TOK_RPAREN)) {
            lang_expr *b = expr(p);
            if (!b) return NULL;
            if (check(p, LANG_TOK_ASSIGN)) {
                error_tok(p, "class keywords (metaclass=...) are not supported in nndb");
                return NULL;
            }
            if (!vpush(p, &bases, &b, sizeof b)) return NULL;
            if (!accept(p, LANG_TOK_COMMA)) break;
        }
        if (!expect(p, LANG_TOK_RPAREN, "expected ',' or ')' after the base classes")) return NULL;
    }
    if (bases.n > 1) {
        error_at(p, ((lang_expr **)bases.items)[1]->span, false,
                 "multiple inheritance is not supported in nndb; use one base class");
        return NULL;
    }
    if (!colon(p, "at the end of the class line")) return NULL;
    lang_func *f = alloc(p, sizeof *f);
    lang_stmt *s = new_stmt(p, LANG_ST_CLASS, start);
    if (!f || !s) return NULL;
    f->name = nm;
    f->vararg = f->varkw = -1;
    f->is_class = true;
    vec fields = {0};
    vec *outer_fields = p->class_fields;
    int loops = p->loop_depth, funcs = p->func_depth;
    p->class_fields = &fields;
    p->loop_depth = 0;
    p->func_depth = 0; /* `return` in a class body is an error, as in Python */
    bool ok = block(p, &f->body, "the 'class'", start);
    p->class_fields = outer_fields;
    p->loop_depth = loops;
    p->func_depth = funcs;
    if (!ok) return NULL;
    s->u.class_.body = f;
    s->u.class_.target = target;
    s->u.class_.bases = bases.items;
    s->u.class_.nbases = bases.n;
    s->u.class_.decorators = decorators;
    s->u.class_.ndecorators = ndecorators;
    s->u.class_.fields = fields.items;
    s->u.class_.nfields = fields.n;
    return s;
}

/* '@' expr NEWLINE, one or more, then a def or a class. */
static lang_stmt *decorated(parser *p) {
    vec decs = {0};
    while (accept(p, LANG_TOK_AT)) {
        lang_expr *d = expr(p);
        if (!d || !vpush(p, &decs, &d, sizeof d)) return NULL;
        if (!expect(p, LANG_TOK_NEWLINE, "expected the end of the line after the decorator"))
            return NULL;
    }
    if (check(p, LANG_TOK_DEF)) return def_statement(p, decs.items, decs.n);
    if (check(p, LANG_TOK_CLASS)) return class_statement(p, decs.items, decs.n);
    error_tok(p, "expected 'def' or 'class' after the decorator, found %s", found(p));
    return NULL;
}

static lang_stmt *try_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    if (!colon(p, "after 'try'")) return NULL;
    lang_stmt *s = new_stmt(p, LANG_ST_TRY, start);
    if (!s || !block(p, &s->u.try_.body, "'try'", start)) return NULL;
    vec hs = {0};
    bool bare_seen = false;
    while (check(p, LANG_TOK_EXCEPT)) {
        lang_except h = {0};
        h.span = p->tok.span;
        lang_pos es = p->tok.span.start;
        if (bare_seen) {
            error_tok(p, "default 'except:' must be last");
            return NULL;
        }
        next(p);
        if (!check(p, LANG_TOK_COLON)) {
            h.type = expr(p);
            if (!h.type) return NULL;
            if (accept(p, LANG_TOK_AS)) {
                if (!check(p, LANG_TOK_NAME)) {
                    error_tok(p, "expected a name after 'as', found %s", found(p));
                    return NULL;
                }
                lang_name *nm = intern_tok(p);
                if (!nm || !(h.target = name_expr(p, nm, p->tok.span))) return NULL;
                next(p);
            }
        } else {
            bare_seen = true;
        }
        h.span.end = p->prev.span.end;
        if (!colon(p, "after the except clause") || !block(p, &h.body, "'except'", es)) return NULL;
        if (!vpush(p, &hs, &h, sizeof h)) return NULL;
    }
    s->u.try_.handlers = hs.items;
    s->u.try_.n = hs.n;
    if (check(p, LANG_TOK_ELSE)) {
        lang_pos es = p->tok.span.start;
        if (!hs.n) {
            error_tok(p, "'else' after 'try' needs an 'except' clause");
            return NULL;
        }
        next(p);
        if (!colon(p, "after 'else'") || !block(p, &s->u.try_.orelse, "'else'", es)) return NULL;
    }
    if (check(p, LANG_TOK_FINALLY)) {
        lang_pos fs = p->tok.span.start;
        next(p);
        if (!colon(p, "after 'finally'") || !block(p, &s->u.try_.finalbody, "'finally'", fs))
            return NULL;
    }
    if (!hs.n && !s->u.try_.finalbody.n) {
        error_tok(p, "expected 'except' or 'finally' block after 'try'");
        return NULL;
    }
    return s;
}

static lang_stmt *if_statement(parser *p, bool is_elif) {
    lang_pos start = p->tok.span.start;
    next(p);
    lang_expr *c = expr(p);
    if (!c || !colon(p, is_elif ? "after the elif condition" : "after the if condition"))
        return NULL;
    lang_stmt *s = new_stmt(p, LANG_ST_IF, start);
    if (!s) return NULL;
    s->u.if_.cond = c;
    s->u.if_.is_elif = is_elif;
    if (!block(p, &s->u.if_.body, is_elif ? "'elif'" : "'if'", start)) return NULL;
    if (check(p, LANG_TOK_ELIF)) {
        lang_stmt *e = if_statement(p, true);
        if (!e) return NULL;
        lang_stmt **one = alloc(p, sizeof *one);
        if (!one) return NULL;
        one[0] = e;
        s->u.if_.orelse.items = one;
        s->u.if_.orelse.n = 1;
    } else if (check(p, LANG_TOK_ELSE)) {
        lang_pos es = p->tok.span.start;
        next(p);
        if (!colon(p, "after 'else'") || !block(p, &s->u.if_.orelse, "'else'", es)) return NULL;
    }
    return s;
}

static bool loop_else(parser *p, lang_block *orelse) {
    if (!check(p, LANG_TOK_ELSE)) return true;
    lang_pos es = p->tok.span.start;
    next(p);
    return colon(p, "after 'else'") && block(p, orelse, "'else'", es);
}

static lang_stmt *while_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    lang_expr *c = expr(p);
    if (!c || !colon(p, "after the while condition")) return NULL;
    lang_stmt *s = new_stmt(p, LANG_ST_WHILE, start);
    if (!s) return NULL;
    s->u.while_.cond = c;
    p->loop_depth++;
    bool ok = block(p, &s->u.while_.body, "'while'", start);
    p->loop_depth--;
    return ok && loop_else(p, &s->u.while_.orelse) ? s : NULL;
}

static lang_stmt *for_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    lang_expr *t = for_targets(p);
    if (!t || !check_target(p, t, T_FOR, false)) return NULL;
    if (!expect(p, LANG_TOK_IN, "expected 'in' after the for loop's variable")) return NULL;
    lang_expr *it = expr_list(p, true);
    if (!it || !colon(p, "after the for loop's iterable")) return NULL;
    lang_stmt *s = new_stmt(p, LANG_ST_FOR, start);
    if (!s) return NULL;
    s->u.for_.target = t;
    s->u.for_.iter = it;
    p->loop_depth++;
    bool ok = block(p, &s->u.for_.body, "'for'", start);
    p->loop_depth--;
    return ok && loop_else(p, &s->u.for_.orelse) ? s : NULL;
}

static lang_stmt *with_statement(parser *p) {
    lang_pos start = p->tok.span.start;
    next(p);
    vec v = {0};
    do {
        lang_with_item it = {0};
        it.context = expr(p);
        if (!it.context) return NULL;
        if (accept(p, LANG_TOK_AS)) {
            it.target = for_targets(p);
            if (!it.target || !check_target(p, it.target, T_WITH, false)) return NULL;
        }
        if (!vpush(p, &v, &it, sizeof it)) return NULL;
    } while (accept(p, LANG_TOK_COMMA));
    if (!colon(p, "after the with items")) return NULL;
    lang_stmt *s = new_stmt(p, LANG_ST_WITH, start);
    if (!s) return NULL;
    s->u.with.items = v.items;
    s->u.with.n = v.n;
    return block(p, &s->u.with.body, "'with'", start) ? s : NULL;
}

static lang_stmt *magic_statement(parser *p) {
    lang_token t = p->tok;
    next(p);
    lang_stmt *s = new_stmt(p, LANG_ST_MAGIC, t.span.start);
    if (!s) return NULL;
    s->u.magic.name = intern(p, t.u.magic.name, t.u.magic.name_len);
    s->u.magic.args = t.u.magic.args;
    s->u.magic.args_len = t.u.magic.args_len;
    s->u.magic.args_pos = t.u.magic.args_pos;
    s->u.magic.cell = t.u.magic.cell;
    if (!s->u.magic.name || !s->u.magic.args) return NULL;
    if (!accept(p, LANG_TOK_NEWLINE) && !check(p, LANG_TOK_EOF)) {
        error_tok(p, "expected the end of the line after the magic");
        return NULL;
    }
    return s;
}

static void statement(parser *p, vec *out) {
    lang_stmt *s = NULL;
    switch (p->tok.kind) {
    case LANG_TOK_AT: s = decorated(p); break;
    case LANG_TOK_CLASS: s = class_statement(p, NULL, 0); break;
    case LANG_TOK_TRY: s = try_statement(p); break;
    case LANG_TOK_IF: s = if_statement(p, false); break;
    case LANG_TOK_WHILE: s = while_statement(p); break;
    case LANG_TOK_FOR: s = for_statement(p); break;
    case LANG_TOK_DEF: s = def_statement(p, NULL, 0); break;
    case LANG_TOK_WITH: s = with_statement(p); break;
    case LANG_TOK_MAGIC: s = magic_statement(p); break;
    default: simple_statements(p, out); return;
    }
    push_stmt(p, out, s);
}

/* Skip to the start of the next statement after an error. */
static void sync(parser *p) {
    /* A bracket that is never closed would swallow the rest of the input
     * into one line; close it here so the next lines parse on their own. */
    if (p->lx->depth > 0 && !lang_lex_bracket_closes(p->lx)) p->lx->depth = 0;
    while (!check(p, LANG_TOK_EOF) && !check(p, LANG_TOK_DEDENT) && !check(p, LANG_TOK_INDENT)) {
        if (accept(p, LANG_TOK_NEWLINE)) break;
        next(p);
    }
    p->panic = false;
}

/* Statements up to a DEDENT (not consumed) or the end. An indented block
 * that nothing opened is reported and parsed anyway, for its errors. */
static void statements(parser *p, vec *out) {
    while (!check(p, LANG_TOK_EOF) && !check(p, LANG_TOK_DEDENT)) {
        if (p->nerr >= MAX_ERRORS) { /* enough said; skip the rest cheaply */
            p->lx->depth = 0;
            while (!check(p, LANG_TOK_EOF)) next(p);
            return;
        }
        if (check(p, LANG_TOK_INDENT)) {
            if (!p->panic) error_tok(p, "unexpected indent");
            p->panic = false;
            next(p);
            vec junk = {0};
            statements(p, &junk);
            accept(p, LANG_TOK_DEDENT);
            continue;
        }
        if (check(p, LANG_TOK_NEWLINE)) { /* after a recovered error */
            next(p);
            continue;
        }
        lang_tok first = p->tok.kind;
        statement(p, out);
        if (p->panic) {
            sync(p);
            /* The body of a statement whose header failed: parse it for
             * its own errors, silently for the indent, in the context the
             * header would have given it. */
            if (check(p, LANG_TOK_INDENT)) {
                int funcs = p->func_depth, loops = p->loop_depth;
                if (first == LANG_TOK_DEF) p->func_depth++, p->loop_depth = 0;
                if (first == LANG_TOK_FOR || first == LANG_TOK_WHILE) p->loop_depth++;
                next(p);
                vec junk = {0};
                statements(p, &junk);
                accept(p, LANG_TOK_DEDENT);
                p->func_depth = funcs;
                p->loop_depth = loops;
            }
        }
    }
}

static bool block(parser *p, lang_block *b, const char *what, lang_pos header) {
    vec v = {0};
    if (!check(p, LANG_TOK_NEWLINE)) {
        if (check(p, LANG_TOK_EOF)) {
            error_tok(p, "expected an indented block after %s on line %d", what, (int)header.line);
            return false;
        }
        simple_statements(p, &v);
        b->items = v.items;
        b->n = v.n;
        return !p->panic;
    }
    lang_span colon_sp = p->prev.span;
    next(p);
    if (!check(p, LANG_TOK_INDENT)) {
        /* Point at the header's ':' rather than at what follows it. */
        error_at(p, colon_sp, p->tok.at_eof, "expected an indented block after %s on line %d", what,
                 (int)header.line);
        /* We are at a statement boundary: no need to skip anything. */
        if (!check(p, LANG_TOK_EOF)) p->panic = false;
        return false;
    }
    next(p);
    statements(p, &v);
    accept(p, LANG_TOK_DEDENT);
    b->items = v.items;
    b->n = v.n;
    return true;
}

/* ---- scopes ---- */

typedef struct unit {
    struct unit *outer;
    lang_scope *scope;
    lang_func *func; /* the def or lambda, NULL for a module */
    bool is_func;
    bool is_class; /* a class body: invisible to the code nested in it */
    vec locals;    /* lang_name* with slot == index + 0 (params first) */
    vec globals;   /* lang_name* */
    vec nonlocals; /* lang_name*: resolved in the enclosing functions */
    vec comp;      /* comp_binding */
    int slot_cap;  /* of scope->slot_name */
} unit;

typedef struct comp_binding {
    lang_name *name;
    int slot;
} comp_binding;

static int find_name(const vec *v, const lang_name *nm) {
    for (int k = 0; k < v->n; k++)
        if (((lang_name **)v->items)[k] == nm) return k;
    return -1;
}

static int find_comp(const unit *u, const lang_name *nm) {
    for (int k = u->comp.n - 1; k >= 0; k--) {
        const comp_binding *c = &((comp_binding *)u->comp.items)[k];
        if (c->name == nm) return c->slot;
    }
    return -1;
}

static void add_local(parser *p, unit *u, lang_name *nm) {
    if (find_name(&u->globals, nm) >= 0 || find_name(&u->locals, nm) >= 0 ||
        find_name(&u->nonlocals, nm) >= 0)
        return;
    vpush(p, &u->locals, &nm, sizeof nm);
}

static void collect_target(parser *p, unit *u, const lang_expr *e) {
    switch (e->kind) {
    case LANG_EX_NAME: add_local(p, u, e->u.name.name); break;
    case LANG_EX_STARRED: collect_target(p, u, e->u.unary.operand); break;
    case LANG_EX_TUPLE:
    case LANG_EX_LIST:
        for (int k = 0; k < e->u.seq.n; k++) collect_target(p, u, e->u.seq.items[k]);
        break;
    default: break;
    }
}

static void collect_globals(parser *p, unit *u, const lang_block *b) {
    for (int k = 0; k < b->n; k++) {
        const lang_stmt *s = b->items[k];
        switch (s->kind) {
        case LANG_ST_GLOBAL: {
            vec *v = s->u.global.nonlocal ? &u->nonlocals : &u->globals;
            for (int j = 0; j < s->u.global.n; j++)
                if (find_name(v, s->u.global.names[j]) < 0)
                    vpush(p, v, &s->u.global.names[j], sizeof(lang_name *));
            break;
        }
        case LANG_ST_TRY:
            collect_globals(p, u, &s->u.try_.body);
            for (int j = 0; j < s->u.try_.n; j++)
                collect_globals(p, u, &s->u.try_.handlers[j].body);
            collect_globals(p, u, &s->u.try_.orelse);
            collect_globals(p, u, &s->u.try_.finalbody);
            break;
        case LANG_ST_IF:
            collect_globals(p, u, &s->u.if_.body);
            collect_globals(p, u, &s->u.if_.orelse);
            break;
        case LANG_ST_FOR:
            collect_globals(p, u, &s->u.for_.body);
            collect_globals(p, u, &s->u.for_.orelse);
            break;
        case LANG_ST_WHILE:
            collect_globals(p, u, &s->u.while_.body);
            collect_globals(p, u, &s->u.while_.orelse);
            break;
        case LANG_ST_WITH: collect_globals(p, u, &s->u.with.body); break;
        default: break;
        }
    }
}

static void collect_locals(parser *p, unit *u, const lang_block *b) {
    for (int k = 0; k < b->n; k++) {
        const lang_stmt *s = b->items[k];
        switch (s->kind) {
        case LANG_ST_ASSIGN:
            for (int j = 0; j < s->u.assign.ntargets; j++)
                collect_target(p, u, s->u.assign.targets[j]);
            break;
        case LANG_ST_AUGASSIGN: collect_target(p, u, s->u.aug.target); break;
        case LANG_ST_DEL:
            for (int j = 0; j < s->u.del.n; j++) collect_target(p, u, s->u.del.targets[j]);
            break;
        case LANG_ST_DEF: collect_target(p, u, s->u.def.target); break;
        case LANG_ST_IMPORT:
            for (int j = 0; j < s->u.import.n; j++)
                collect_target(p, u, s->u.import.items[j].target);
            break;
        case LANG_ST_IF:
            collect_locals(p, u, &s->u.if_.body);
            collect_locals(p, u, &s->u.if_.orelse);
            break;
        case LANG_ST_FOR:
            collect_target(p, u, s->u.for_.target);
            collect_locals(p, u, &s->u.for_.body);
            collect_locals(p, u, &s->u.for_.orelse);
            break;
        case LANG_ST_WHILE:
            collect_locals(p, u, &s->u.while_.body);
            collect_locals(p, u, &s->u.while_.orelse);
            break;
        case LANG_ST_WITH:
            for (int j = 0; j < s->u.with.n; j++)
                if (s->u.with.items[j].target) collect_target(p, u, s->u.with.items[j].target);
            collect_locals(p, u, &s->u.with.body);
            break;
        default: break;
        }
    }
}

static void new_slot(parser *p, unit *u, lang_name *nm) {
    lang_scope *sc = u->scope;
    void *items = sc->slot_name;
    if (!grow(p, &items, sc->nslots, &u->slot_cap, sizeof(lang_name *))) return;
    sc->slot_name = items;
    sc->slot_name[sc->nslots++] = nm;
}

static void resolve_expr(parser *p, unit *u, lang_expr *e);
static void resolve_block(parser *p, unit *u, lang_block *b);

static void resolve_name(unit *u, lang_expr *e) {
    lang_name *nm = e->u.name.name;
    int depth = 0;
    for (unit *w = u; w; w = w->outer) {
        if (w != u && w->is_class) continue; /* methods do not see class attributes */
        if (w->is_func && find_name(&w->nonlocals, nm) >= 0) {
            depth++;
            continue;
        }
        int slot = find_comp(w, nm);
        if (slot < 0 && w->is_func) {
            if (find_name(&w->globals, nm) >= 0) break;
            slot = find_name(&w->locals, nm);
        }
        if (slot < 0) {
            depth++;
            continue;
        }
        if (slot >= 0) {
            e->u.name.scope = depth == 0 ? LANG_SCOPE_LOCAL : LANG_SCOPE_FREE;
            e->u.name.slot = slot;
            e->u.name.depth = depth;
            if (depth > 0) w->scope->has_free_users = true;
            return;
        }
    }
    e->u.name.scope = LANG_SCOPE_GLOBAL;
}

static void bind_comp_target(parser *p, unit *u, lang_expr *e) {
    switch (e->kind) {
    case LANG_EX_NAME: {
        comp_binding c = {e->u.name.name, u->scope->nslots};
        new_slot(p, u, e->u.name.name);
        vpush(p, &u->comp, &c, sizeof c);
        break;
    }
    case LANG_EX_STARRED: bind_comp_target(p, u, e->u.unary.operand); break;
    case LANG_EX_TUPLE:
    case LANG_EX_LIST:
        for (int k = 0; k < e->u.seq.n; k++) bind_comp_target(p, u, e->u.seq.items[k]);
        break;
    default: break;
    }
}

static void resolve_func(parser *p, unit *outer, lang_func *f) {
    unit u = {0};
    u.outer = outer;
    u.scope = &f->scope;
    u.func = f;
    u.is_func = true;
    u.is_class = f->is_class;
    for (int k = 0; k < f->nparams; k++)
        vpush(p, &u.locals, &f->params[k].name, sizeof(lang_name *));
    if (f->expr) {
        f->scope.nparams = f->nparams;
    } else {
        collect_globals(p, &u, &f->body);
        collect_locals(p, &u, &f->body);
        f->scope.nparams = f->nparams;
    }
    for (int k = 0; k < u.locals.n; k++) new_slot(p, &u, ((lang_name **)u.locals.items)[k]);
    f->nnamed = u.locals.n;
    if (f->expr)
        resolve_expr(p, &u, f->expr);
    else
        resolve_block(p, &u, &f->body);
}

static void resolve_expr(parser *p, unit *u, lang_expr *e) {
    if (!e) return;
    switch (e->kind) {
    case LANG_EX_NAME: resolve_name(u, e); break;
    case LANG_EX_FSTRING:
        for (int k = 0; k < e->u.fstr.n; k++) {
            resolve_expr(p, u, e->u.fstr.parts[k].expr);
            resolve_expr(p, u, e->u.fstr.parts[k].spec);
        }
        break;
    case LANG_EX_LIST:
    case LANG_EX_TUPLE:
    case LANG_EX_SET:
        for (int k = 0; k < e->u.seq.n; k++) resolve_expr(p, u, e->u.seq.items[k]);
        break;
    case LANG_EX_DICT:
        for (int k = 0; k < e->u.dict.n; k++) {
            resolve_expr(p, u, e->u.dict.keys[k]);
            resolve_expr(p, u, e->u.dict.values[k]);
        }
        break;
    case LANG_EX_LISTCOMP:
    case LANG_EX_GENEXP:
    case LANG_EX_SETCOMP:
    case LANG_EX_DICTCOMP: {
        int mark = u->comp.n;
        for (int k = 0; k < e->u.comp.n; k++) {
            lang_comp_clause *c = &e->u.comp.clauses[k];
            resolve_expr(p, u, c->iter);
            if (!c->is_if) {
                bind_comp_target(p, u, c->target);
                resolve_expr(p, u, c->target);
            }
        }
        resolve_expr(p, u, e->u.comp.key);
        resolve_expr(p, u, e->u.comp.elt);
        u->comp.n = mark;
        break;
    }
    case LANG_EX_SUBSCRIPT:
        resolve_expr(p, u, e->u.sub.value);
        resolve_expr(p, u, e->u.sub.index);
        break;
    case LANG_EX_SLICE:
        resolve_expr(p, u, e->u.slice.lower);
        resolve_expr(p, u, e->u.slice.upper);
        resolve_expr(p, u, e->u.slice.step);
        break;
    case LANG_EX_ATTR: resolve_expr(p, u, e->u.attr.value); break;
    case LANG_EX_CALL:
        resolve_expr(p, u, e->u.call.func);
        for (int k = 0; k < e->u.call.nargs; k++) resolve_expr(p, u, e->u.call.args[k].value);
        break;
    case LANG_EX_UNARY:
    case LANG_EX_NOT:
    case LANG_EX_STARRED: resolve_expr(p, u, e->u.unary.operand); break;
    case LANG_EX_YIELD:
    case LANG_EX_YIELD_FROM:
        if (!u->func || u->is_class)
            add_error(p, e->span, false, "'yield' outside function");
        else
            u->func->is_generator = true;
        resolve_expr(p, u, e->u.unary.operand);
        break;
    case LANG_EX_BINARY:
    case LANG_EX_AND:
    case LANG_EX_OR:
        resolve_expr(p, u, e->u.bin.left);
        resolve_expr(p, u, e->u.bin.right);
        break;
    case LANG_EX_COMPARE:
        resolve_expr(p, u, e->u.cmp.first);
        for (int k = 0; k < e->u.cmp.n; k++) resolve_expr(p, u, e->u.cmp.rest[k]);
        break;
    case LANG_EX_IFEXP:
        resolve_expr(p, u, e->u.ifexp.cond);
        resolve_expr(p, u, e->u.ifexp.then);
        resolve_expr(p, u, e->u.ifexp.orelse);
        break;
    case LANG_EX_LAMBDA:
        for (int k = 0; k < e->u.lambda->nparams; k++)
            resolve_expr(p, u, e->u.lambda->params[k].def);
        resolve_func(p, u, e->u.lambda);
        break;
    default: break;
    }
}

static void resolve_block(parser *p, unit *u, lang_block *b) {
    for (int k = 0; k < b->n; k++) {
        lang_stmt *s = b->items[k];
        switch (s->kind) {
        case LANG_ST_EXPR:
        case LANG_ST_RETURN: resolve_expr(p, u, s->u.expr); break;
        case LANG_ST_ASSIGN:
            resolve_expr(p, u, s->u.assign.value);
            for (int j = 0; j < s->u.assign.ntargets; j++)
                resolve_expr(p, u, s->u.assign.targets[j]);
            break;
        case LANG_ST_AUGASSIGN:
            resolve_expr(p, u, s->u.aug.target);
            resolve_expr(p, u, s->u.aug.value);
            break;
        case LANG_ST_IF:
            resolve_expr(p, u, s->u.if_.cond);
            resolve_block(p, u, &s->u.if_.body);
            resolve_block(p, u, &s->u.if_.orelse);
            break;
        case LANG_ST_FOR:
            resolve_expr(p, u, s->u.for_.iter);
            resolve_expr(p, u, s->u.for_.target);
            resolve_block(p, u, &s->u.for_.body);
            resolve_block(p, u, &s->u.for_.orelse);
            break;
        case LANG_ST_WHILE:
            resolve_expr(p, u, s->u.while_.cond);
            resolve_block(p, u, &s->u.while_.body);
            resolve_block(p, u, &s->u.while_.orelse);
            break;
        case LANG_ST_DEF: {
            lang_func *f = s->u.def.func;
            for (int j = 0; j < f->nparams; j++) {
                resolve_expr(p, u, f->params[j].def);
                resolve_expr(p, u, f->params[j].annotation);
            }
            resolve_expr(p, u, f->returns);
            for (int j = 0; j < s->u.def.ndecorators; j++)
                resolve_expr(p, u, s->u.def.decorators[j]);
            resolve_expr(p, u, s->u.def.target);
            resolve_func(p, u, f);
            break;
        }
        case LANG_ST_CLASS:
            for (int j = 0; j < s->u.class_.nbases; j++) resolve_expr(p, u, s->u.class_.bases[j]);
            for (int j = 0; j < s->u.class_.ndecorators; j++)
                resolve_expr(p, u, s->u.class_.decorators[j]);
            resolve_expr(p, u, s->u.class_.target);
            resolve_func(p, u, s->u.class_.body);
            break;
        case LANG_ST_TRY:
            resolve_block(p, u, &s->u.try_.body);
            for (int j = 0; j < s->u.try_.n; j++) {
                resolve_expr(p, u, s->u.try_.handlers[j].type);
                resolve_expr(p, u, s->u.try_.handlers[j].target);
                resolve_block(p, u, &s->u.try_.handlers[j].body);
            }
            resolve_block(p, u, &s->u.try_.orelse);
            resolve_block(p, u, &s->u.try_.finalbody);
            break;
        case LANG_ST_RAISE:
            resolve_expr(p, u, s->u.raise.exc);
            resolve_expr(p, u, s->u.raise.cause);
            break;
        case LANG_ST_WITH:
            for (int j = 0; j < s->u.with.n; j++) {
                resolve_expr(p, u, s->u.with.items[j].context);
                resolve_expr(p, u, s->u.with.items[j].target);
            }
            resolve_block(p, u, &s->u.with.body);
            break;
        case LANG_ST_DEL:
            for (int j = 0; j < s->u.del.n; j++) resolve_expr(p, u, s->u.del.targets[j]);
            break;
        case LANG_ST_IMPORT:
            for (int j = 0; j < s->u.import.n; j++) resolve_expr(p, u, s->u.import.items[j].target);
            break;
        case LANG_ST_ASSERT:
            resolve_expr(p, u, s->u.assert_.test);
            resolve_expr(p, u, s->u.assert_.msg);
            break;
        default: break;
        }
    }
}

/* ---- entry ---- */

static void index_lines(lang_module *m) {
    size_t n = 1;
    for (size_t k = 0; k < m->source_len; k++)
        if (m->source[k] == '\n' ||
            (m->source[k] == '\r' && (k + 1 >= m->source_len || m->source[k + 1] != '\n')))
            n++;
    size_t *ls = lang_arena_alloc(&m->arena, n * sizeof *ls);
    if (!ls) return;
    size_t i = 0;
    ls[i++] = 0;
    for (size_t k = 0; k < m->source_len; k++)
        if (m->source[k] == '\n' ||
            (m->source[k] == '\r' && (k + 1 >= m->source_len || m->source[k + 1] != '\n')))
            ls[i++] = k + 1;
    m->line_start = ls;
    m->nlines = (int)n;
}

/* Invalid UTF-8 and NUL bytes anywhere (strings and comments included). */
static void check_encoding(parser *p, const char *s, size_t n, lang_pos pos) {
    size_t k = 0, start = 0;
    while (k < n) {
        unsigned char c = (unsigned char)s[k];
        size_t len = c < 0x80                 ? 1
                     : c >= 0xC2 && c < 0xE0  ? 2
                     : c >= 0xE0 && c < 0xF0  ? 3
                     : c >= 0xF0 && c <= 0xF4 ? 4
                                              : 0;
        bool bad = len == 0 || k + len > n;
        for (size_t j = 1; !bad && j < len; j++) bad = ((unsigned char)s[k + j] & 0xC0) != 0x80;
        if (!bad && len == 3) {
            unsigned c1 = (unsigned char)s[k + 1];
            bad = (c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0);
        }
        if (!bad && len == 4) {
            unsigned c1 = (unsigned char)s[k + 1];
            bad = (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90);
        }
        if (bad || c == 0) {
            pos = lang_pos_advance(pos, s + start, k - start);
            start = k;
            lang_span sp = {pos, lang_pos_advance(pos, s + k, 1)};
            char msg[80];
            if (c == 0)
                snprintf(msg, sizeof msg, "the source contains a NUL byte");
            else
                snprintf(msg, sizeof msg, "invalid UTF-8 byte 0x%02X in the source", c);
            add_error(p, sp, false, msg);
            k++;
            continue;
        }
        k += len;
    }
}

lang_module *lang_parse(const char *src, size_t len, const lang_parse_opts *opts) {
    lang_parse_opts o = {0};
    if (opts) o = *opts;
    if (!src) len = 0;
    lang_arena tmp;
    lang_arena_init(&tmp);
    lang_module *m = lang_arena_alloc(&tmp, sizeof *m);
    if (!m) return NULL;
    m->arena = tmp;
    m->refcount = 1;
    m->first_line = o.first_line > 0 ? o.first_line : 1;
    m->first_col = o.first_col > 0 ? o.first_col : 1;
    const char *fname = o.filename ? o.filename : "<input>";
    m->filename = lang_arena_strdup(&m->arena, fname, strlen(fname));
    m->source = lang_arena_strdup(&m->arena, src ? src : "", len);
    m->source_len = len;
    if (!m->filename || !m->source) {
        lang_module_release(m);
        return NULL;
    }
    index_lines(m);

    parser p = {0};
    p.m = m;
    p.A = &m->arena;
    lang_lexer lx;
    lang_pos start = {m->first_line, m->first_col, o.first_ccol > 0 ? o.first_ccol : 1};
    lang_lex_init(&lx, m->source, len, start, p.A, lex_error, &p);
    lx.magics = !o.no_magics && !o.expression;
    lx.expr_mode = o.expression;
    p.lx = &lx;
    check_encoding(&p, m->source, len, start);
    next(&p);
    vec body = {0};
    if (o.expression) {
        lang_pos s0 = p.tok.span.start;
        lang_expr *e = expr_list(&p, false);
        if (e && !check(&p, LANG_TOK_EOF))
            error_tok(&p, "expected the end of the expression, found %s", found(&p));
        lang_stmt *s = e ? new_stmt(&p, LANG_ST_EXPR, s0) : NULL;
        if (s) {
            s->u.expr = e;
            push_stmt(&p, &body, s);
        }
    } else {
        for (;;) {
            statements(&p, &body);
            if (check(&p, LANG_TOK_EOF)) break;
            next(&p); /* a stray DEDENT can only follow a reported error */
        }
    }
    m->body.items = body.items;
    m->body.n = body.n;
    if (p.nerr == 0) {
        unit u = {0};
        u.scope = &m->scope;
        resolve_block(&p, &u, &m->body);
    }
    if (p.nerr) {
        m->errors = lang_arena_alloc(p.A, (size_t)p.nerr * sizeof *m->errors);
        if (m->errors) {
            memcpy(m->errors, p.errs, (size_t)p.nerr * sizeof *m->errors);
            m->nerrors = p.nerr;
        }
    }
    free(p.errs);
    free(p.names);
    if (p.nerr && !m->errors) { /* out of memory: never pass a broken tree as valid */
        lang_module_release(m);
        return NULL;
    }
    /* Report in source order (lexer errors can come before the parser's
     * for earlier positions); insertion sort keeps equal ones in order. */
    for (int k = 1; k < m->nerrors; k++) {
        lang_syntax_error e = m->errors[k];
        int j = k;
        while (j > 0 && (m->errors[j - 1].span.start.line > e.span.start.line ||
                         (m->errors[j - 1].span.start.line == e.span.start.line &&
                          m->errors[j - 1].span.start.col > e.span.start.col))) {
            m->errors[j] = m->errors[j - 1];
            j--;
        }
        m->errors[j] = e;
    }
    return m;
}

bool lang_module_incomplete(const lang_module *m) {
    if (!m || m->nerrors == 0) return false;
    for (int k = 0; k < m->nerrors; k++)
        if (!m->errors[k].at_eof) return false;
    return true;
}
