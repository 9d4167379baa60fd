/* repl_history: where the REPL keeps its input history, and keeping it.
 *
 * The file is $XDG_STATE_HOME/nndb/history, or ~/.local/state/nndb/history
 * when XDG_STATE_HOME is unset, empty or not absolute (as the XDG base
 * directory spec says). Failing to read or write it is never an error: the
 * REPL warns once on stderr and keeps the history in memory.
 */
#ifndef REPL_HISTORY_H
#define REPL_HISTORY_H

#include <stdbool.h>

/* The history file's path (malloc'ed), or NULL when neither XDG_STATE_HOME
 * nor HOME says where it goes. */
char *repl_history_path(void);

/* Create every missing directory above [path] (mode 0700, as the spec asks
 * for state). True when the parent directory exists afterwards. */
bool repl_mkdirs_for(const char *path);

/* Load the file into readline's history (at most [keep] entries; the file
 * is trimmed to that many), creating it when absent. False when it could
 * not be read or created; history then lives in memory only. */
bool repl_history_load(const char *path, int keep);

/* Add [line] to the in-memory history and append it to the file (when
 * [path] is not NULL); blank lines and a repeat of the last entry are
 * skipped. False when writing failed. */
bool repl_history_add(const char *path, const char *line);

#endif
