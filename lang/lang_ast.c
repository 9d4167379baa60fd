/* lang_ast: the arena, interned names, modules, carets and the S-expression
 * dump of the syntax tree (see lang_ast.h). Everything here allocates from
 * a module's arena or writes into a caller's lang_buf. */
#include "lang_ast.h"

#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- arena ---- */

struct lang_arena_chunk {
    lang_arena_chunk *next;
    size_t cap;
    alignas(max_align_t) unsigned char data[];
};

void lang_arena_init(lang_arena *a) {
    memset(a, 0, sizeof *a);
}

void lang_arena_free(lang_arena *a) {
    if (!a) return;
    lang_arena_chunk *c = a->head;
    while (c) {
        lang_arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    memset(a, 0, sizeof *a);
}

void *lang_arena_alloc(lang_arena *a, size_t size) {
    const size_t align = alignof(max_align_t);
    size = (size + align - 1) & ~(align - 1);
    if (size == 0) size = align;
    if (!a->head || a->used + size > a->cap) {
        size_t cap = size > 16384 ? size : 16384;
        lang_arena_chunk *c = malloc(sizeof *c + cap);
        if (!c) return NULL;
        c->next = a->head;
        c->cap = cap;
        a->head = c;
        a->used = 0;
        a->cap = cap;
    }
    void *p = a->head->data + a->used;
    a->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

char *lang_arena_strdup(lang_arena *a, const char *s, size_t n) {
    char *p = lang_arena_alloc(a, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

uint32_t lang_name_hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++) {
        h ^= (unsigned char)s[k];
        h *= 16777619u;
    }
    return h;
}

/* ---- modules ---- */

void lang_module_retain(lang_module *m) {
    if (m) m->refcount++;
}

void lang_module_release(lang_module *m) {
    if (!m || --m->refcount > 0) return;
    lang_arena arena = m->arena; /* the module itself lives in its arena */
    lang_arena_free(&arena);
}

const char *lang_module_line(const lang_module *m, int line, size_t *len) {
    if (!m || !m->line_start) return NULL;
    int k = line - m->first_line;
    if (k < 0 || k >= m->nlines) return NULL;
    size_t a = m->line_start[k];
    size_t b = a;
    while (b < m->source_len && m->source[b] != '\n' && m->source[b] != '\r') b++;
    if (len) *len = b - a;
    return m->source + a;
}

const char *lang_binop_text(lang_binop op) {
    static const char *const text[LANG_OP_COUNT] = {
        [LANG_OP_ADD] = "+",     [LANG_OP_SUB] = "-",       [LANG_OP_MUL] = "*",
        [LANG_OP_DIV] = "/",     [LANG_OP_FLOORDIV] = "//", [LANG_OP_MOD] = "%",
        [LANG_OP_POW] = "**",    [LANG_OP_MATMUL] = "@",    [LANG_OP_EQ] = "==",
        [LANG_OP_NE] = "!=",     [LANG_OP_LT] = "<",        [LANG_OP_LE] = "<=",
        [LANG_OP_GT] = ">",      [LANG_OP_GE] = ">=",       [LANG_OP_AND_BITS] = "&",
        [LANG_OP_OR_BITS] = "|", [LANG_OP_NEG] = "-",       [LANG_OP_POS] = "+",
        [LANG_OP_INVERT] = "~",
    };
    return (unsigned)op < LANG_OP_COUNT && text[op] ? text[op] : "?";
}

const char *lang_cmpop_text(lang_cmpop op) {
    switch (op) {
    case LANG_CMP_EQ: return "==";
    case LANG_CMP_NE: return "!=";
    case LANG_CMP_LT: return "<";
    case LANG_CMP_LE: return "<=";
    case LANG_CMP_GT: return ">";
    case LANG_CMP_GE: return ">=";
    case LANG_CMP_IN: return "in";
    case LANG_CMP_NOT_IN: return "not in";
    case LANG_CMP_IS: return "is";
    case LANG_CMP_IS_NOT: return "is not";
    }
    return "?";
}

/* ---- carets ---- */

/* Display cells of the code point starting at s (1 or 2: East Asian wide
 * and fullwidth ranges take two terminal cells). */
static int cells_at(const unsigned char *s, size_t n, size_t *used) {
    *used = 1;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if ((size_t)len > n) len = 1;
    uint32_t cp = len == 1 ? c : c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (int k = 1; k < len; k++) {
        if ((s[k] & 0xC0) != 0x80) {
            len = k;
            break;
        }
        cp = (cp << 6) | (s[k] & 0x3F);
    }
    *used = (size_t)len;
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
        (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

void lang_ast_caret(lang_buf *out, const lang_module *m, lang_span span) {
    size_t len;
    const char *line = lang_module_line(m, span.start.line, &len);
    if (!line) return;
    /* Strip the indent so the line reads well, keeping the caret aligned. */
    size_t skip = 0;
    while (skip < len && (line[skip] == ' ' || line[skip] == '\t')) skip++;
    lang_buf_puts(out, "    ");
    lang_buf_add(out, line + skip, len - skip);
    lang_buf_puts(out, "\n    ");
    /* Text cut out of a longer line (a magic's arguments) starts at
     * first_col on its first line. */
    int shift = span.start.line == m->first_line && m->first_col > 1 ? m->first_col - 1 : 0;
    size_t a = span.start.col - shift > 0 ? (size_t)(span.start.col - shift) - 1 : 0;
    size_t b = span.end.line != span.start.line ? len
               : span.end.col > span.start.col  ? (size_t)(span.end.col - shift) - 1
                                                : a;
    if (a > len) a = len;
    if (b > len) b = len;
    if (b <= a) b = a;
    for (size_t k = skip; k < a;) {
        size_t used;
        if (line[k] == '\t') {
            lang_buf_add(out, "\t", 1);
            k++;
            continue;
        }
        int w = cells_at((const unsigned char *)line + k, len - k, &used);
        lang_buf_add(out, "  ", (size_t)w);
        k += used;
    }
    lang_buf_add(out, "^", 1);
    int marks = 0;
    for (size_t k = a; k < b;) {
        size_t used;
        int w = cells_at((const unsigned char *)line + k, len - k, &used);
        marks += w;
        k += used;
    }
    for (int k = 1; k < marks; k++) lang_buf_add(out, "~", 1);
    lang_buf_add(out, "\n", 1);
}

void lang_syntax_error_format(lang_buf *out, const lang_module *m, const lang_syntax_error *e) {
    lang_buf_printf(out, "%s:%d:%d: SyntaxError: %s\n", m->filename ? m->filename : "<input>",
                    (int)e->span.start.line, (int)e->span.start.ccol, e->message);
    lang_ast_caret(out, m, e->span);
}

/* ---- dump ---- */

static void dump_str(lang_buf *out, const char *s, size_t n) {
    lang_buf_add(out, "\"", 1);
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '"' || c == '\\') {
            lang_buf_add(out, "\\", 1);
            lang_buf_add(out, (const char *)&s[k], 1);
        } else if (c == '\n') {
            lang_buf_puts(out, "\\n");
        } else if (c == '\t') {
            lang_buf_puts(out, "\\t");
        } else if (c < 0x20 || c == 0x7F) {
            lang_buf_printf(out, "\\x%02x", c);
        } else {
            lang_buf_add(out, (const char *)&s[k], 1);
        }
    }
    lang_buf_add(out, "\"", 1);
}

static void dump_expr(lang_buf *out, const lang_expr *e);
static void dump_block(lang_buf *out, const lang_block *b);

static void dump_opt(lang_buf *out, const lang_expr *e) {
    if (e)
        dump_expr(out, e);
    else
        lang_buf_puts(out, "_");
}

static void dump_params(lang_buf *out, const lang_func *f) {
    lang_buf_puts(out, "(");
    for (int k = 0; k < f->nparams; k++) {
        const lang_param *p = &f->params[k];
        if (k) lang_buf_puts(out, " ");
        const char *pre = p->kind == LANG_PARAM_VARARGS  ? "*"
                          : p->kind == LANG_PARAM_VARKW  ? "**"
                          : p->kind == LANG_PARAM_KWONLY ? "kw:"
                                                         : "";
        if (p->def) lang_buf_puts(out, "(");
        lang_buf_printf(out, "%s%s", pre, p->name->str);
        if (p->def) {
            lang_buf_puts(out, " ");
            dump_expr(out, p->def);
            lang_buf_puts(out, ")");
        }
    }
    lang_buf_puts(out, ")");
}

static void dump_fstr(lang_buf *out, const lang_expr *e) {
    lang_buf_puts(out, "(fstr");
    for (int k = 0; k < e->u.fstr.n; k++) {
        const lang_fpart *p = &e->u.fstr.parts[k];
        lang_buf_puts(out, " ");
        if (!p->expr) {
            dump_str(out, p->text, p->len);
            continue;
        }
        lang_buf_puts(out, "(fmt ");
        dump_expr(out, p->expr);
        if (p->conv) lang_buf_printf(out, " !%c", p->conv);
        if (p->debug) {
            lang_buf_puts(out, " =");
            dump_str(out, p->debug, strlen(p->debug));
        }
        if (p->spec) {
            lang_buf_puts(out, " :");
            dump_expr(out, p->spec);
        }
        lang_buf_puts(out, ")");
    }
    lang_buf_puts(out, ")");
}

static void dump_expr(lang_buf *out, const lang_expr *e) {
    switch (e->kind) {
    case LANG_EX_INT: lang_buf_printf(out, "%lld", (long long)e->u.i); return;
    case LANG_EX_FLOAT: {
        /* The shortest text that reads back as the same double, and always
         * visibly a float (1.0, not 1). */
        char t[40];
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(t, sizeof t, "%.*g", prec, e->u.f);
            if (strtod(t, NULL) == e->u.f) break;
        }
        lang_buf_puts(out, t);
        if (!strpbrk(t, ".eEn")) lang_buf_puts(out, ".0");
        return;
    }
    case LANG_EX_STR: dump_str(out, e->u.str.s, e->u.str.len); return;
    case LANG_EX_FSTRING: dump_fstr(out, e); return;
    case LANG_EX_NAME:
        if (e->u.name.scope == LANG_SCOPE_GLOBAL)
            lang_buf_puts(out, e->u.name.name->str);
        else if (e->u.name.scope == LANG_SCOPE_LOCAL)
            lang_buf_printf(out, "%s@%d", e->u.name.name->str, e->u.name.slot);
        else
            lang_buf_printf(out, "%s@^%d.%d", e->u.name.name->str, e->u.name.depth, e->u.name.slot);
        return;
    case LANG_EX_NONE: lang_buf_puts(out, "None"); return;
    case LANG_EX_TRUE: lang_buf_puts(out, "True"); return;
    case LANG_EX_FALSE: lang_buf_puts(out, "False"); return;
    case LANG_EX_ELLIPSIS: lang_buf_puts(out, "..."); return;
    case LANG_EX_SET:
    case LANG_EX_LIST:
    case LANG_EX_TUPLE:
        lang_buf_puts(out, e->kind == LANG_EX_LIST  ? "(list"
                           : e->kind == LANG_EX_SET ? "(set"
                                                    : "(tuple");
        for (int k = 0; k < e->u.seq.n; k++) {
            lang_buf_puts(out, " ");
            dump_expr(out, e->u.seq.items[k]);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_DICT:
        lang_buf_puts(out, "(dict");
        for (int k = 0; k < e->u.dict.n; k++) {
            lang_buf_puts(out, " (");
            dump_expr(out, e->u.dict.keys[k]);
            lang_buf_puts(out, " ");
            dump_expr(out, e->u.dict.values[k]);
            lang_buf_puts(out, ")");
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_SETCOMP:
    case LANG_EX_LISTCOMP:
    case LANG_EX_GENEXP:
    case LANG_EX_DICTCOMP:
        lang_buf_puts(out, e->kind == LANG_EX_LISTCOMP  ? "(listcomp "
                           : e->kind == LANG_EX_GENEXP  ? "(genexp "
                           : e->kind == LANG_EX_SETCOMP ? "(setcomp "
                                                        : "(dictcomp ");
        if (e->u.comp.key) {
            dump_expr(out, e->u.comp.key);
            lang_buf_puts(out, " ");
        }
        dump_expr(out, e->u.comp.elt);
        for (int k = 0; k < e->u.comp.n; k++) {
            const lang_comp_clause *c = &e->u.comp.clauses[k];
            if (c->is_if) {
                lang_buf_puts(out, " (if ");
            } else {
                lang_buf_puts(out, " (for ");
                dump_expr(out, c->target);
                lang_buf_puts(out, " ");
            }
            dump_expr(out, c->iter);
            lang_buf_puts(out, ")");
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_SUBSCRIPT:
        lang_buf_puts(out, "(sub ");
        dump_expr(out, e->u.sub.value);
        lang_buf_puts(out, " ");
        dump_expr(out, e->u.sub.index);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_SLICE:
        lang_buf_puts(out, "(slice ");
        dump_opt(out, e->u.slice.lower);
        lang_buf_puts(out, " ");
        dump_opt(out, e->u.slice.upper);
        lang_buf_puts(out, " ");
        dump_opt(out, e->u.slice.step);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_ATTR:
        lang_buf_puts(out, "(attr ");
        dump_expr(out, e->u.attr.value);
        lang_buf_printf(out, " %s)", e->u.attr.name->str);
        return;
    case LANG_EX_CALL:
        lang_buf_puts(out, "(call ");
        dump_expr(out, e->u.call.func);
        for (int k = 0; k < e->u.call.nargs; k++) {
            const lang_arg *a = &e->u.call.args[k];
            lang_buf_puts(out, " ");
            if (a->kind == LANG_ARG_KW) lang_buf_printf(out, "%s=", a->name->str);
            if (a->kind == LANG_ARG_STAR) lang_buf_puts(out, "*");
            if (a->kind == LANG_ARG_STARSTAR) lang_buf_puts(out, "**");
            dump_expr(out, a->value);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_UNARY:
        lang_buf_printf(out, "(%s ",
                        e->u.unary.op == LANG_OP_NEG   ? "neg"
                        : e->u.unary.op == LANG_OP_POS ? "pos"
                                                       : "invert");
        dump_expr(out, e->u.unary.operand);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_NOT:
    case LANG_EX_STARRED:
        lang_buf_puts(out, e->kind == LANG_EX_NOT ? "(not " : "(star ");
        dump_expr(out, e->u.unary.operand);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_BINARY:
    case LANG_EX_AND:
    case LANG_EX_OR:
        lang_buf_printf(out, "(%s ",
                        e->kind == LANG_EX_AND  ? "and"
                        : e->kind == LANG_EX_OR ? "or"
                                                : lang_binop_text(e->u.bin.op));
        dump_expr(out, e->u.bin.left);
        lang_buf_puts(out, " ");
        dump_expr(out, e->u.bin.right);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_COMPARE:
        lang_buf_puts(out, "(cmp ");
        dump_expr(out, e->u.cmp.first);
        for (int k = 0; k < e->u.cmp.n; k++) {
            lang_buf_printf(out, " %s ", lang_cmpop_text(e->u.cmp.ops[k]));
            dump_expr(out, e->u.cmp.rest[k]);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_IFEXP:
        lang_buf_puts(out, "(ifexp ");
        dump_expr(out, e->u.ifexp.cond);
        lang_buf_puts(out, " ");
        dump_expr(out, e->u.ifexp.then);
        lang_buf_puts(out, " ");
        dump_expr(out, e->u.ifexp.orelse);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_LAMBDA:
        lang_buf_puts(out, "(lambda ");
        dump_params(out, e->u.lambda);
        lang_buf_puts(out, " ");
        dump_expr(out, e->u.lambda->expr);
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_YIELD:
    case LANG_EX_YIELD_FROM:
        lang_buf_puts(out, e->kind == LANG_EX_YIELD ? "(yield" : "(yield-from");
        if (e->u.unary.operand) {
            lang_buf_puts(out, " ");
            dump_expr(out, e->u.unary.operand);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_EX_KIND_COUNT: break;
    }
    lang_buf_puts(out, "?");
}

static void dump_stmt(lang_buf *out, const lang_stmt *s) {
    switch (s->kind) {
    case LANG_ST_EXPR:
        lang_buf_puts(out, "(expr ");
        dump_expr(out, s->u.expr);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_ASSIGN:
        lang_buf_puts(out, "(assign");
        for (int k = 0; k < s->u.assign.ntargets; k++) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.assign.targets[k]);
        }
        lang_buf_puts(out, " ");
        dump_expr(out, s->u.assign.value);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_AUGASSIGN:
        lang_buf_printf(out, "(augassign %s= ", lang_binop_text(s->u.aug.op));
        dump_expr(out, s->u.aug.target);
        lang_buf_puts(out, " ");
        dump_expr(out, s->u.aug.value);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_IF:
        lang_buf_puts(out, s->u.if_.is_elif ? "(elif " : "(if ");
        dump_expr(out, s->u.if_.cond);
        lang_buf_puts(out, " ");
        dump_block(out, &s->u.if_.body);
        if (s->u.if_.orelse.n) {
            lang_buf_puts(out, " ");
            dump_block(out, &s->u.if_.orelse);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_FOR:
        lang_buf_puts(out, "(for ");
        dump_expr(out, s->u.for_.target);
        lang_buf_puts(out, " ");
        dump_expr(out, s->u.for_.iter);
        lang_buf_puts(out, " ");
        dump_block(out, &s->u.for_.body);
        if (s->u.for_.orelse.n) {
            lang_buf_puts(out, " ");
            dump_block(out, &s->u.for_.orelse);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_WHILE:
        lang_buf_puts(out, "(while ");
        dump_expr(out, s->u.while_.cond);
        lang_buf_puts(out, " ");
        dump_block(out, &s->u.while_.body);
        if (s->u.while_.orelse.n) {
            lang_buf_puts(out, " ");
            dump_block(out, &s->u.while_.orelse);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_BREAK: lang_buf_puts(out, "(break)"); return;
    case LANG_ST_CONTINUE: lang_buf_puts(out, "(continue)"); return;
    case LANG_ST_PASS: lang_buf_puts(out, "(pass)"); return;
    case LANG_ST_DEF:
        lang_buf_puts(out, "(def ");
        dump_expr(out, s->u.def.target);
        lang_buf_puts(out, " ");
        dump_params(out, s->u.def.func);
        lang_buf_printf(out, " %d ", s->u.def.func->scope.nslots);
        dump_block(out, &s->u.def.func->body);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_RETURN:
        lang_buf_puts(out, "(return");
        if (s->u.expr) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.expr);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_WITH:
        lang_buf_puts(out, "(with");
        for (int k = 0; k < s->u.with.n; k++) {
            lang_buf_puts(out, " (");
            dump_expr(out, s->u.with.items[k].context);
            if (s->u.with.items[k].target) {
                lang_buf_puts(out, " as ");
                dump_expr(out, s->u.with.items[k].target);
            }
            lang_buf_puts(out, ")");
        }
        lang_buf_puts(out, " ");
        dump_block(out, &s->u.with.body);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_DEL:
        lang_buf_puts(out, "(del");
        for (int k = 0; k < s->u.del.n; k++) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.del.targets[k]);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_ASSERT:
        lang_buf_puts(out, "(assert ");
        dump_expr(out, s->u.assert_.test);
        if (s->u.assert_.msg) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.assert_.msg);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_GLOBAL:
        lang_buf_puts(out, s->u.global.nonlocal ? "(nonlocal" : "(global");
        for (int k = 0; k < s->u.global.n; k++)
            lang_buf_printf(out, " %s", s->u.global.names[k]->str);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_MAGIC:
        lang_buf_printf(out, "(magic %s%s ", s->u.magic.cell ? "%%" : "%", s->u.magic.name->str);
        dump_str(out, s->u.magic.args, s->u.magic.args_len);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_CLASS:
        lang_buf_printf(out, "(class %s", s->u.class_.body->name->str);
        for (int k = 0; k < s->u.class_.nbases; k++) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.class_.bases[k]);
        }
        for (int k = 0; k < s->u.class_.ndecorators; k++) {
            lang_buf_puts(out, " @");
            dump_expr(out, s->u.class_.decorators[k]);
        }
        lang_buf_puts(out, " ");
        dump_block(out, &s->u.class_.body->body);
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_TRY:
        lang_buf_puts(out, "(try ");
        dump_block(out, &s->u.try_.body);
        for (int k = 0; k < s->u.try_.n; k++) {
            const lang_except *h = &s->u.try_.handlers[k];
            lang_buf_puts(out, " (except");
            if (h->type) {
                lang_buf_puts(out, " ");
                dump_expr(out, h->type);
            }
            if (h->target) lang_buf_printf(out, " as %s", h->target->u.name.name->str);
            lang_buf_puts(out, " ");
            dump_block(out, &h->body);
            lang_buf_puts(out, ")");
        }
        if (s->u.try_.orelse.n) {
            lang_buf_puts(out, " (else ");
            dump_block(out, &s->u.try_.orelse);
            lang_buf_puts(out, ")");
        }
        if (s->u.try_.finalbody.n) {
            lang_buf_puts(out, " (finally ");
            dump_block(out, &s->u.try_.finalbody);
            lang_buf_puts(out, ")");
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_RAISE:
        lang_buf_puts(out, "(raise");
        if (s->u.raise.exc) {
            lang_buf_puts(out, " ");
            dump_expr(out, s->u.raise.exc);
        }
        if (s->u.raise.cause) {
            lang_buf_puts(out, " from ");
            dump_expr(out, s->u.raise.cause);
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_IMPORT:
        lang_buf_puts(out, "(import");
        for (int k = 0; k < s->u.import.n; k++) {
            const lang_import_item *it = &s->u.import.items[k];
            lang_buf_printf(out, " (%s", it->module);
            if (it->attr) lang_buf_printf(out, " %s", it->attr->str);
            lang_buf_printf(out, " as %s%s)", it->target->u.name.name->str, it->top ? " top" : "");
        }
        lang_buf_puts(out, ")");
        return;
    case LANG_ST_KIND_COUNT: break;
    }
    lang_buf_puts(out, "?");
}

static void dump_block(lang_buf *out, const lang_block *b) {
    lang_buf_puts(out, "(block");
    for (int k = 0; k < b->n; k++) {
        lang_buf_puts(out, " ");
        dump_stmt(out, b->items[k]);
    }
    lang_buf_puts(out, ")");
}

void lang_ast_dump_expr(lang_buf *out, const lang_expr *e) {
    dump_expr(out, e);
}

void lang_ast_dump(lang_buf *out, const lang_module *m) {
    for (int k = 0; k < m->body.n; k++) {
        dump_stmt(out, m->body.items[k]);
        lang_buf_puts(out, "\n");
    }
}
