/* lang_lex: the tokenizer of the nndb language.
 *
 * Turns source bytes into tokens with positions, Python's way: INDENT and
 * DEDENT from leading spaces, NEWLINE at the end of each logical line,
 * implicit line joining inside brackets, backslash continuation, comments.
 * Decisions (see docs/grammar.md):
 *   - A tab in leading indentation is an error ("indent with spaces"); tabs
 *     elsewhere are plain whitespace, one column wide.
 *   - A line whose first character is '%' is a magic: one LANG_TOK_MAGIC
 *     token holding the name and the raw rest of the line (`%%name` takes
 *     the rest of the input).
 *   - Strings are decoded here (escapes, raw strings, adjacent literals are
 *     joined by the parser). An f-string's body is handed to the parser
 *     undecoded, with its position, so the parser can parse the fields.
 *
 * Ownership: token text (decoded strings, magic arguments) lives in the
 * arena given to lang_lex_init; the lexer borrows the source, which must
 * outlive it. Errors go to the callback; the lexer always goes on.
 */
#ifndef LANG_LEX_H
#define LANG_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang_ast.h"

/* Operators and punctuation: X(kind, text). */
#define LANG_TOK_OPS(X)                                                                            \
    X(LPAREN, "(")                                                                                 \
    X(RPAREN, ")")                                                                                 \
    X(LBRACKET, "[")                                                                               \
    X(RBRACKET, "]")                                                                               \
    X(LBRACE, "{")                                                                                 \
    X(RBRACE, "}")                                                                                 \
    X(COMMA, ",")                                                                                  \
    X(COLON, ":")                                                                                  \
    X(DOT, ".")                                                                                    \
    X(SEMI, ";")                                                                                   \
    X(ASSIGN, "=")                                                                                 \
    X(ARROW, "->")                                                                                 \
    X(WALRUS, ":=")                                                                                \
    X(ELLIPSIS, "...")                                                                             \
    X(PLUS, "+")                                                                                   \
    X(MINUS, "-")                                                                                  \
    X(STAR, "*")                                                                                   \
    X(SLASH, "/")                                                                                  \
    X(DSLASH, "//")                                                                                \
    X(PERCENT, "%")                                                                                \
    X(DSTAR, "**")                                                                                 \
    X(AT, "@")                                                                                     \
    X(TILDE, "~")                                                                                  \
    X(AMP, "&")                                                                                    \
    X(PIPE, "|")                                                                                   \
    X(CARET, "^")                                                                                  \
    X(LSHIFT, "<<")                                                                                \
    X(RSHIFT, ">>")                                                                                \
    X(LT, "<")                                                                                     \
    X(GT, ">")                                                                                     \
    X(LE, "<=")                                                                                    \
    X(GE, ">=")                                                                                    \
    X(EQ, "==")                                                                                    \
    X(NE, "!=")                                                                                    \
    X(PLUSEQ, "+=")                                                                                \
    X(MINUSEQ, "-=")                                                                               \
    X(STAREQ, "*=")                                                                                \
    X(SLASHEQ, "/=")                                                                               \
    X(DSLASHEQ, "//=")                                                                             \
    X(PERCENTEQ, "%=")                                                                             \
    X(DSTAREQ, "**=")                                                                              \
    X(ATEQ, "@=")                                                                                  \
    X(AMPEQ, "&=")                                                                                 \
    X(PIPEEQ, "|=")                                                                                \
    X(CARETEQ, "^=")                                                                               \
    X(LSHIFTEQ, "<<=")                                                                             \
    X(RSHIFTEQ, ">>=")

/* Keywords: X(kind, text). The last group is Python's, not nndb's: they
 * lex as keywords so the parser can say they are not supported. */
#define LANG_TOK_KEYWORDS(X)                                                                       \
    X(FALSE, "False")                                                                              \
    X(NONE, "None")                                                                                \
    X(TRUE, "True")                                                                                \
    X(AND, "and")                                                                                  \
    X(AS, "as")                                                                                    \
    X(ASSERT, "assert")                                                                            \
    X(BREAK, "break")                                                                              \
    X(CONTINUE, "continue")                                                                        \
    X(DEF, "def")                                                                                  \
    X(DEL, "del")                                                                                  \
    X(ELIF, "elif")                                                                                \
    X(ELSE, "else")                                                                                \
    X(FOR, "for")                                                                                  \
    X(GLOBAL, "global")                                                                            \
    X(IF, "if")                                                                                    \
    X(IN, "in")                                                                                    \
    X(IS, "is")                                                                                    \
    X(LAMBDA, "lambda")                                                                            \
    X(NOT, "not")                                                                                  \
    X(OR, "or")                                                                                    \
    X(PASS, "pass")                                                                                \
    X(RETURN, "return")                                                                            \
    X(WHILE, "while")                                                                              \
    X(WITH, "with")                                                                                \
    X(ASYNC, "async")                                                                              \
    X(AWAIT, "await")                                                                              \
    X(CLASS, "class")                                                                              \
    X(EXCEPT, "except")                                                                            \
    X(FINALLY, "finally")                                                                          \
    X(FROM, "from")                                                                                \
    X(IMPORT, "import")                                                                            \
    X(NONLOCAL, "nonlocal")                                                                        \
    X(RAISE, "raise")                                                                              \
    X(TRY, "try")                                                                                  \
    X(YIELD, "yield")

#define LANG_TOK_ENUM_(k, t) LANG_TOK_##k,
typedef enum lang_tok {
    LANG_TOK_EOF,
    LANG_TOK_NEWLINE,
    LANG_TOK_INDENT,
    LANG_TOK_DEDENT,
    LANG_TOK_NAME,
    LANG_TOK_INT,
    LANG_TOK_FLOAT,
    LANG_TOK_STRING,
    LANG_TOK_MAGIC,
    LANG_TOK_ERROR, /* a character that starts no token (already reported) */
    LANG_TOK_OPS(LANG_TOK_ENUM_) LANG_TOK_KEYWORDS(LANG_TOK_ENUM_) LANG_TOK_COUNT
} lang_tok;
#undef LANG_TOK_ENUM_

typedef struct lang_token {
    lang_tok kind;
    lang_span span;
    const char *text; /* the source bytes of the token */
    size_t len;
    bool at_eof; /* EOF, or a NEWLINE/DEDENT made up at the end of input */
    union {
        int64_t i;         /* INT */
        double f;          /* FLOAT */
        struct {           /* STRING */
            const char *s; /* decoded (not for f-strings) */
            size_t len;
            bool f, raw;
            const char *body; /* f-strings: the raw text between the quotes */
            size_t body_len;
            lang_pos body_pos;
        } str;
        struct { /* MAGIC */
            const char *name, *args;
            size_t name_len, args_len;
            lang_pos args_pos;
            bool cell;
        } magic;
    } u;
} lang_token;

typedef void (*lang_lex_error_fn)(void *user, lang_span span, bool at_eof, const char *msg);

#define LANG_LEX_MAX_INDENT   100
#define LANG_LEX_MAX_BRACKETS 200

typedef struct lang_lexer {
    const char *src;
    size_t len, i;
    lang_pos pos; /* of src[i] */
    lang_arena *arena;
    lang_lex_error_fn error;
    void *user;
    bool magics;    /* recognise %magic lines */
    bool expr_mode; /* newlines are whitespace, no INDENT/DEDENT (f-string fields) */
    bool at_line_start, line_has_tokens, magic_pending;
    bool continued_eof; /* the input ended right after a backslash */
    int indents[LANG_LEX_MAX_INDENT];
    int nindent, pending_dedents;
    int line_indent; /* the indent of the current logical line */
    struct {
        char ch;
        lang_span span;
    } brackets[LANG_LEX_MAX_BRACKETS];
    int depth;
} lang_lexer;

/* Start lexing [len] bytes of [src] at position [start]. */
void lang_lex_init(lang_lexer *lx, const char *src, size_t len, lang_pos start, lang_arena *arena,
                   lang_lex_error_fn error, void *user);
/* The next token; after the end of input, EOF forever. */
void lang_lex_next(lang_lexer *lx, lang_token *tok);

/* Whether the innermost open bracket is closed somewhere after the current
 * position (lexes ahead on a silent copy). */
bool lang_lex_bracket_closes(const lang_lexer *lx);

/* "'('", "'if'", "a name", "end of input": for messages. */
const char *lang_tok_describe(lang_tok kind);

/* Decode the escapes of a string body (not raw) or copy it (raw) into the
 * arena. Bad escapes are reported at their position, computed from [pos]. */
bool lang_lex_decode(lang_lexer *lx, const char *body, size_t n, lang_pos pos, bool raw,
                     const char **out, size_t *out_len);

/* Advance [pos] over the bytes [s, s+n): lines on '\n', characters on
 * UTF-8 lead bytes. */
lang_pos lang_pos_advance(lang_pos pos, const char *s, size_t n);

#endif
