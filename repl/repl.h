/* repl: the terminal front end of nndb — the readline REPL, script mode and
 * `nndb help TOPIC`.
 *
 * Each entry point creates its own language session, runs, frees it and
 * returns a process exit status; nothing it allocates outlives the call.
 * Colour follows repl_colour_wanted (NO_COLOR, TERM=dumb, not a tty).
 */
#ifndef REPL_H
#define REPL_H

#include <stdbool.h>

/* The interactive REPL on the terminal: a welcome banner naming [version],
 * then prompts until Ctrl-D, exit() or quit(). Returns 0 (or the status
 * given to exit(N)). */
int repl_interactive(const char *version);
/* The same, running [first_cell] first (`nndb drill start ID`). */
int repl_interactive_with(const char *version, const char *first_cell);

/* Run a whole script: [path] is a file, or NULL (or "-") for stdin. Errors
 * go to stderr with their traceback. Returns 0 on success, 1 on an error or
 * when the file cannot be read, or the status given to exit(N). */
int repl_run_script(const char *path);
/* The same under the debugger: [breaks] (n_breaks specs, as %break takes
 * them) are set first; [stop_first] stops before the script's first op
 * (`nndb debug`). A bad spec is reported and the status is 2. */
int repl_run_script_debug(const char *path, const char *const *breaks, int n_breaks,
                          bool stop_first);

/* Print the help entry for [topic] (a builtin, a method such as
 * "Tensor.sum", or a magic) to stdout. Returns 0, or 1 with a message on
 * stderr when there is no such entry. */
int repl_help_topic(const char *topic);

#endif
