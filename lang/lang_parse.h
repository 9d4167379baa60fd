/* lang_parse: source text to a syntax tree (lang_ast.h).
 *
 * A recursive-descent parser with Python's grammar and precedence, for the
 * subset docs/grammar.md describes. It never stops at the first error: it
 * records each one (position, message, whether it is at end of input) and
 * resynchronises at the next statement, so one run reports every error in
 * a cell, as Wren does.
 *
 * Ownership: the returned module (refcount 1) owns its tree, its copy of the
 * source and its errors; release it with lang_module_release. NULL only when
 * memory runs out.
 */
#ifndef LANG_PARSE_H
#define LANG_PARSE_H

#include "lang_ast.h"

typedef struct lang_parse_opts {
    const char *filename; /* "<cell 3>", "train.nn"; NULL: "<input>" */
    int first_line;       /* line number of the first line; 0 means 1 */
    /* Column (1-based, bytes and characters) where the first line starts,
     * for text cut out of a longer line (a magic's arguments); 0 means 1. */
    int first_col, first_ccol;
    /* Parse one expression (a debugger `p EXPR`, `%break if EXPR`): the
     * module then holds a single LANG_ST_EXPR. */
    bool expression;
    /* Accept %magic lines (off for text that a magic itself passes on). */
    bool no_magics;
} lang_parse_opts;

/* Parse [len] bytes of [src] (need not be NUL-terminated; NUL bytes are an
 * error). [opts] may be NULL. The tree is usable only when nerrors == 0. */
lang_module *lang_parse(const char *src, size_t len, const lang_parse_opts *opts);

/* True when every error is at end of input: the input is a prefix of a
 * valid program (the Lua trick behind lang_is_complete). */
bool lang_module_incomplete(const lang_module *m);

#endif
