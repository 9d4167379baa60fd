/* lang: the session seam between the language (Python, embedded; the
 * implementation is binding/py_session*.c) and nndb's front ends (the
 * terminal REPL, the Jupyter kernel, the drills, test harnesses). The
 * front ends include this header and nothing else of the language.
 *
 * The session never writes to stdout or reads stdin: it talks to the front
 * end only through the callbacks in lang_frontend. A front end creates one
 * session, feeds it cells or lines with lang_exec, and renders what comes
 * back. Ownership: the session owns everything it creates; strings it hands
 * to callbacks are valid during the call only; results filled by lang_exec
 * are freed with lang_result_free.
 */
#ifndef LANG_H
#define LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn_buf.h"

/* ---- errors ----
 * The classes a front end tells apart (a syntax error has no "Traceback"
 * header, an interrupt keeps the session, ...); the Python exception's own
 * name travels beside it in lang_error_info.ename. */
typedef enum lang_err {
    LANG_ERR_NONE,
    LANG_ERR_SYNTAX,
    LANG_ERR_NAME,
    LANG_ERR_TYPE,
    LANG_ERR_VALUE,
    LANG_ERR_SHAPE,
    LANG_ERR_INDEX,
    LANG_ERR_KEY,
    LANG_ERR_ATTRIBUTE,
    LANG_ERR_ZERO_DIVISION,
    LANG_ERR_RUNTIME,
    LANG_ERR_MEMORY,
    LANG_ERR_IO,
    LANG_ERR_INTERRUPT, /* KeyboardInterrupt */
    LANG_ERR_STOPPED,   /* a debugger hook ended the statement */
    LANG_ERR_ASSERTION,
    LANG_ERR_RECURSION,
    LANG_ERR_IMPORT, /* ImportError (ModuleNotFoundError by ename) */
} lang_err;

const char *lang_err_name(lang_err e); /* "TypeError", ... */

/* The engine's growable text buffer under the seam's names (the drills use
 * them). Macros, not wrappers, keep lang_buf_printf's format checking. */
typedef nn_buf lang_buf;
#define lang_buf_init   nn_buf_init
#define lang_buf_free   nn_buf_free
#define lang_buf_add    nn_buf_add
#define lang_buf_puts   nn_buf_puts
#define lang_buf_printf nn_buf_printf
/* Hand over the text (malloc'ed, NUL-terminated); the buffer is empty after. */
#define lang_buf_take nn_buf_take

/* ---- rich display ----
 * A MIME bundle: text/plain always; text/html, image/svg+xml, text/markdown
 * when they help. Strings are owned by the bundle. */
#define LANG_MIME_MAX 6
typedef struct lang_mime {
    int n;
    struct {
        char *mime; /* "text/plain", "text/html", ... */
        char *data;
    } items[LANG_MIME_MAX];
} lang_mime;

void lang_mime_init(lang_mime *m);
void lang_mime_free(lang_mime *m);
/* Add (copies [mime] and takes over [data], malloc'ed). */
void lang_mime_add(lang_mime *m, const char *mime, char *data);
/* Borrowed: the data for [mime], or NULL. */
const char *lang_mime_get(const lang_mime *m, const char *mime);

typedef enum lang_stream { LANG_STDOUT = 1, LANG_STDERR = 2 } lang_stream;

/* What a front end provides. Any callback may be NULL: display and stream
 * then go nowhere, readline fails with an error ("input is not available
 * here"), progress is silent. */
typedef struct lang_frontend {
    void *user;
    /* Show a value as it is produced (print of a plot, display(), progress
     * plots). [display_id] is NULL or an id to update later; [update] true
     * replaces the output shown under that id. */
    void (*display)(void *user, const lang_mime *bundle, const char *display_id, bool update);
    /* Text written by print() and friends. */
    void (*stream)(void *user, lang_stream which, const char *text, size_t len);
    /* Long work: [done] of [total] (total 0 when unknown); done == total ends
     * it. [id] tells concurrent bars apart. */
    void (*progress)(void *user, const char *id, int64_t done, int64_t total, const char *text);
    /* A line of input (input(), the debugger's nested prompt). Returns a
     * malloc'ed line without the newline, or NULL on end of input or when
     * input is not allowed. */
    char *(*readline)(void *user, const char *prompt, bool password);
    /* Whether readline can get a line from a person now (a terminal, a
     * notebook request with allow_stdin). When it cannot, the debugger's
     * stops print and the pass goes on. NULL: yes whenever readline is set. */
    bool (*can_read)(void *user);
    /* IPython's clear_output: empty the output area of the running cell,
     * now, or ([wait]) when the next output comes. NULL: nothing (a
     * terminal keeps what it printed). */
    void (*clear_output)(void *user, bool wait);
    /* A Jupyter debug protocol event (a DAP event as JSON text: "stopped"
     * at a breakpoint, ...) raised while a cell runs. NULL: none is sent. */
    void (*debug_event)(void *user, const char *event_json);
    /* true: the figures a cell drew (matplotlib's) wait until the front end
     * has shown the cell's value or error and calls
     * lang_session_show_deferred, as IPython shows Out[n] before them.
     * false: lang_exec shows them at the end of the cell. */
    bool defer_figures;
    /* A comm message from the language to the client (Jupyter's comm
     * protocol: [msg_type] comm_open, comm_msg or comm_close, [content_json]
     * its content). NULL: comms are not available (dropped). */
    void (*comm_send)(void *user, const char *msg_type, const char *content_json);
    /* The header (JSON text) of the client's request being handled (a
     * cell's execute_request, a comm_msg), for code that tags its output
     * with it (ipywidgets' Output). Borrowed; NULL when none. */
    const char *(*parent_header)(void *user);
} lang_frontend;

typedef struct lang_session lang_session;

lang_session *lang_session_new(const lang_frontend *fe);
void lang_session_free(lang_session *s);
/* The engine context the session runs on (for front ends that need it). */
struct nn_ctx *lang_session_ctx(lang_session *s);

/* ---- executing code ---- */
typedef struct lang_error_info {
    lang_err cls;
    char *ename;  /* "ShapeError" */
    char *evalue; /* the message */
    /* Traceback lines, outermost first, each ending in '\n': the file:line
     * of each frame, the source line and a caret under the failing part. */
    char **traceback;
    int n_traceback;
} lang_error_info;

typedef struct lang_result {
    bool ok;
    bool has_value; /* a trailing expression produced a value to show */
    lang_mime value;
    lang_error_info error; /* when !ok */
} lang_result;

/* Run [code] (one or more statements; a cell, a line, or a file) as if it
 * came from [filename] ("<cell 3>", "<stdin>", "train.nn"), starting at line
 * 1. [interactive]: a trailing expression statement's value is returned in
 * res->value (as IPython does), except None. Errors never end the session. */
bool lang_exec(lang_session *s, const char *code, const char *filename, bool interactive,
               lang_result *res);
void lang_result_free(lang_result *res);

/* Ask the running code to stop at the next statement or op boundary; safe
 * from a signal handler or another thread. The running lang_exec then fails
 * with KeyboardInterrupt, naming where it stopped; every variable is kept. */
void lang_session_interrupt(lang_session *s);

/* The Jupyter debug protocol: [request] is a DAP request as JSON text
 * (initialize, setBreakpoints, stackTrace, variables, continue, ...).
 * Returns the DAP response as malloc'ed JSON text and, in *events, NULL or
 * a malloc'ed JSON array of DAP events to publish after it. Callable from
 * another thread (the kernel's control thread) while a cell runs or is
 * stopped at a breakpoint, which is when the protocol is used. */
char *lang_session_debug_request(lang_session *s, const char *request, char **events);

/* Whether exit() or quit() ran: the statement then fails with ename
 * "SystemExit", and the front end leaves with *code as its status. */
bool lang_session_exit_requested(lang_session *s, int *code);

/* ---- the debugger, for front ends (docs/debugger.md) ----
 * A breakpoint from a spec as %break takes it (`nndb run --break SPEC`);
 * false with the reason in *err (malloc'ed). */
bool lang_session_break(lang_session *s, const char *spec, char **err);
/* Stop at the next op recorded (`nndb debug FILE`, breakpoint()). */
void lang_session_break_next(lang_session *s);

/* ---- extensions from the layers above the language (drills/) ----
 * What a layer above the session may do to a session without reaching into the
 * interpreter: add a magic, watch each executed cell, and, from inside its
 * magic (a statement that is running), run code, write, show and read.
 * Strings passed in are copied or used during the call only. */

/* %NAME handled outside the language. [fn] gets the trimmed argument text;
 * it returns false after lang_session_fail. A name the language has (even
 * as reserved, like %drill) is taken over. */
typedef bool (*lang_ext_magic_fn)(lang_session *s, void *user, const char *args);
/* [free_user] (may be NULL) is called on [user] when the session is freed. */
bool lang_session_add_magic(lang_session *s, const char *name, const char *signature,
                            const char *doc, lang_ext_magic_fn fn, void *user,
                            void (*free_user)(void *user));
/* Fail the running statement with [ename] ("ValueError", "DrillError") of
 * class [cls]. Returns false. */
bool lang_session_fail(lang_session *s, lang_err cls, const char *ename, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Called after every lang_exec with the code, the result, and what the cell
 * wrote to stdout and stderr (its first 4 KiB). NULL removes it. */
typedef void (*lang_observer_fn)(void *user, const char *code, const char *filename,
                                 const lang_result *res, const char *output);
void lang_session_set_observer(lang_session *s, lang_observer_fn fn, void *user);
/* Inside an extension's magic: run [code] as statements in the session
 * (its output goes to the front end). False with the error as "Name:
 * message" in *err (malloc'ed) when it fails. */
bool lang_session_run(lang_session *s, const char *code, const char *filename, char **err);
/* The same for one expression: 1 true, 0 false, -1 an error (in *err). */
int lang_session_truth(lang_session *s, const char *expr, const char *filename, char **err);
void lang_session_write(lang_session *s, lang_stream which, const char *text);
void lang_session_show(lang_session *s, const lang_mime *bundle);
/* Show what the last interactive lang_exec left to show after its value
 * (defer_figures). Nothing when nothing waits. */
void lang_session_show_deferred(lang_session *s);
/* A comm message from the client ([msg_type] comm_open, comm_msg or
 * comm_close; [content_json] its content), handled by the language's comm
 * manager (nndb/comm.py). Returns false when a comm_open names no target
 * the language registered: the front end then closes it. */
bool lang_session_comm(lang_session *s, const char *msg_type, const char *content_json);
/* The open comms as a JSON object {comm_id: {"target_name": ...}}, only
 * those of [target_name] unless it is NULL. malloc'ed; NULL on failure. */
char *lang_session_comm_info(lang_session *s, const char *target_name);
/* A line from the person at the front end, or NULL when none can answer. */
char *lang_session_readline(lang_session *s, const char *prompt);

/* ---- the front ends' helpers ---- */
typedef enum lang_completeness {
    LANG_COMPLETE,   /* ready to run */
    LANG_INCOMPLETE, /* wants more lines (open block, bracket or string) */
    LANG_INVALID     /* a syntax error that more input cannot fix */
} lang_completeness;

/* Whether [code] is a complete input, and the indent the next line should
 * get (spaces) when incomplete. The REPL's continuation prompt and Jupyter's
 * is_complete_request both use this. */
lang_completeness lang_is_complete(const char *code, int *indent);

/* Completions at byte offset [cursor] of [code]: names, attributes after a
 * dot, keyword arguments inside a call, magics after '%', file paths after
 * %load. Fills *start and *end (byte offsets of the text to replace) and returns
 * a malloc'ed NULL-terminated array of malloc'ed strings (sorted, unique). */
char **lang_complete(lang_session *s, const char *code, size_t cursor, size_t *start, size_t *end);
void lang_strv_free(char **v);

/* The help entry for the name under (or just before) [cursor], or NULL. The
 * text is rendered at [detail] 0 (signature and doc) or 1 (with example and
 * the value's current state, e.g. a tensor's shape and stats). Malloc'ed. */
char *lang_inspect(lang_session *s, const char *code, size_t cursor, int detail);

/* Names, types and one-line summaries of the session's variables (%who). */
char *lang_who(lang_session *s);

/* The execution counter that front ends show ([3]:) is theirs; the session
 * keeps the history of executed inputs for %history. */
void lang_session_add_history(lang_session *s, const char *code);

/* What the language is, for Jupyter (kernel_info's language_info, the
 * kernelspec's language and default display name). Static strings. */
typedef struct lang_info {
    const char *name;           /* "nndb", "python" */
    const char *version;        /* the language's version */
    const char *mimetype;       /* "text/x-python" */
    const char *file_extension; /* ".py" */
    const char *display_name;   /* the kernelspec's default display name */
} lang_info;
const lang_info *lang_language_info(void);

/* What sys.argv holds in the sessions that start from now: the script's
 * path and its arguments (`nndb run train.py --lr 0.1`). The strings are
 * borrowed and must outlive the sessions (main's argv does). */
void lang_set_script_argv(int argc, const char *const *argv);

#endif
