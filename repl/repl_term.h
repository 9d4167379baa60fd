/* repl_term: how the terminal front end paints text — the colour decision,
 * result text with coloured numbers, errors with coloured class names and
 * tracebacks, and the progress bar line.
 *
 * Everything here writes to a FILE * it is given and keeps no state, so the
 * REPL, script mode and the tests share it. Strings passed in are borrowed.
 */
#ifndef REPL_TERM_H
#define REPL_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lang.h"

/* ANSI styles; front ends wrap them in \001..\002 inside readline prompts. */
#define REPL_SGR_RESET  "\033[0m"
#define REPL_SGR_PROMPT "\033[1;32m"
#define REPL_SGR_CONT   "\033[32m"
#define REPL_SGR_ERROR  "\033[1;31m"
#define REPL_SGR_CARET  "\033[31m"
#define REPL_SGR_FRAME  "\033[36m"
#define REPL_SGR_NUMBER "\033[33m"
#define REPL_SGR_DIM    "\033[2m"

/* Whether text written to [fd] should carry colour: it is a terminal,
 * NO_COLOR is unset or empty (no-color.org), and TERM is not "dumb". */
bool repl_colour_wanted(int fd);

/* Write a value's text/plain form, painting numbers (and nan/inf) when
 * [colour]; digits inside names (float64, AddBackward0) stay plain. */
void repl_write_result(FILE *f, const char *text, bool colour);

/* Write an error: the traceback lines as the session gave them (frame
 * lines in cyan, caret lines in red), then "ClassName: message". */
void repl_write_error(FILE *f, const lang_error_info *e, bool colour);

/* Format one progress line into [buf] ([cap] bytes) for a terminal [width]
 * columns wide: the text, a bar of Unicode eighth blocks, the percentage and
 * the counts; with [total] 0 (unknown) a count only. Returns [buf]. */
char *repl_progress_line(char *buf, size_t cap, int width, int64_t done, int64_t total,
                         const char *text);

/* Whether [code] is one of the words that leave the REPL as Python's do:
 * exit(), quit(), exit, quit (surrounding blanks ignored). */
bool repl_is_exit_request(const char *code);

#endif
