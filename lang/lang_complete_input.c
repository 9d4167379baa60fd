/* lang_complete_input: lang_is_complete (lang.h), the one completeness test
 * behind the REPL's continuation prompt and Jupyter's is_complete_request.
 *
 * The Lua trick: parse the input; if every syntax error is at the end of
 * input (an open bracket, an open triple-quoted string, a block header with
 * no body yet, a trailing backslash) more lines can fix it: incomplete. Any
 * other error: invalid. Without errors, an input whose last statement is a
 * compound one (if/for/while/def/with) still wants more lines until an
 * empty line closes the block, as in IPython. Allocates nothing that
 * outlives the call. */
#include <string.h>

#include "lang.h"
#include "lang_lex.h"
#include "lang_parse.h"

/* What the tokens say about the end of the input: the indent of the last
 * logical line, whether it ended in ':', and whether the input ends inside
 * a string. */
typedef struct tail_info {
    int indent;
    bool colon;
    bool compound;  /* the last top-level statement opens a block */
    bool in_string; /* unterminated triple-quoted string */
} tail_info;

static void note_error(void *user, lang_span sp, bool at_eof, const char *msg) {
    tail_info *t = user;
    if (at_eof && strstr(msg, "triple-quoted")) t->in_string = true;
}

static void scan_tail(const char *code, size_t len, tail_info *t) {
    lang_arena a;
    lang_arena_init(&a);
    lang_lexer lx;
    lang_pos start = {1, 1, 1};
    lang_lex_init(&lx, code, len, start, &a, note_error, t);
    lx.magics = true;
    lang_token tok;
    lang_tok last = LANG_TOK_EOF;
    bool line_start = true;
    for (;;) {
        lang_lex_next(&lx, &tok);
        if (tok.kind == LANG_TOK_EOF) break;
        if (tok.kind == LANG_TOK_NEWLINE) {
            t->colon = last == LANG_TOK_COLON;
            line_start = true;
            continue;
        }
        if (tok.kind == LANG_TOK_INDENT || tok.kind == LANG_TOK_DEDENT) continue;
        if (line_start) {
            t->indent = lx.line_indent;
            if (lx.line_indent == 0)
                t->compound = tok.kind == LANG_TOK_IF || tok.kind == LANG_TOK_FOR ||
                              tok.kind == LANG_TOK_WHILE || tok.kind == LANG_TOK_DEF ||
                              tok.kind == LANG_TOK_WITH;
            line_start = false;
        }
        last = tok.kind;
        t->colon = last == LANG_TOK_COLON;
    }
    lang_arena_free(&a);
}

/* The last line, without the input's final line break, is blank. */
static bool ends_with_blank_line(const char *code, size_t len) {
    if (len > 0 && code[len - 1] == '\n') len--;
    if (len > 0 && code[len - 1] == '\r') len--;
    size_t k = len;
    while (k > 0 && (code[k - 1] == ' ' || code[k - 1] == '\t')) k--;
    return k == 0 || code[k - 1] == '\n' || code[k - 1] == '\r';
}

lang_completeness lang_is_complete(const char *code, int *indent) {
    if (indent) *indent = 0;
    if (!code) return LANG_COMPLETE;
    size_t len = strlen(code);
    size_t k = 0;
    while (k < len && (code[k] == ' ' || code[k] == '\t' || code[k] == '\n' || code[k] == '\r'))
        k++;
    if (k == len) return LANG_COMPLETE;

    lang_parse_opts o = {0};
    o.filename = "<input>";
    lang_module *m = lang_parse(code, len, &o);
    if (!m) return LANG_INVALID;
    bool incomplete = lang_module_incomplete(m);
    bool errors = m->nerrors > 0;
    lang_module_release(m);
    if (errors && !incomplete) return LANG_INVALID;

    tail_info t = {0};
    scan_tail(code, len, &t);
    if (errors) {
        if (indent) *indent = t.in_string ? 0 : t.colon ? t.indent + 4 : t.indent;
        return LANG_INCOMPLETE;
    }
    if (t.compound && !ends_with_blank_line(code, len)) {
        if (indent) *indent = t.colon ? t.indent + 4 : t.indent;
        return LANG_INCOMPLETE;
    }
    return LANG_COMPLETE;
}
