/* kernel_handlers: what the kernel does with each request, and the state the
 * socket threads share.
 *
 * Threads (kernel_main.c starts them; each socket belongs to one thread):
 *   shell   (the main thread) the shell ROUTER; runs the language; owns a
 *           PAIR link to the iopub thread and one to the stdin thread
 *   control the control ROUTER; kernel_info, interrupt, shutdown; its own
 *           PAIR link to the iopub thread
 *   iopub   the iopub PUB; forwards what the links bring, in order, and
 *           coalesces stream text (at most KERNEL_STREAM_DELAY_MS late)
 *   stdin   the stdin ROUTER; input_request out, input_reply back
 *   hb      the heartbeat REP; echoes
 *
 * Ownership: the kernel struct belongs to kernel_main; the fields under
 * "shell thread only" are touched by the shell thread alone, the atomics by
 * anyone, and the rest is read-only once the threads run.
 */
#ifndef KERNEL_HANDLERS_H
#define KERNEL_HANDLERS_H

#include <stdatomic.h>
#include <stdbool.h>

#include "kernel_wire.h"
#include "lang.h"

#define KERNEL_VERSION         "0.1.0"
#define KERNEL_STREAM_DELAY_MS 50
#define KERNEL_PROGRESS_MIN_MS 100
#define KERNEL_POLL_MS         100
/* After exit(): how long the kernel waits for the client to read the
 * ask_exit reply and send its own shutdown_request (jupyter console does;
 * a client that sees the process gone first would miss the reply). The
 * client that sends it does so within milliseconds; 0.4 s keeps exit()
 * within half a second for a notebook, which sends none (ipykernel: 0.36 s). */
#define KERNEL_EXIT_GRACE_MS  400
#define KERNEL_ABORT_GRACE_MS 20

/* Single-frame commands on the inproc links (a real message starts with
 * its topic or identities, never one of these alone). */
#define KERNEL_LINK_FLUSH  "F" /* iopub answers "F" once all before it is out */
#define KERNEL_LINK_QUIT   "Q"
#define KERNEL_LINK_STREAM "S" /* ["S", parent header, name, text] */

typedef struct kernel_hist_entry {
    int line;
    char *input;
    char *output; /* text/plain of the result, or NULL */
} kernel_hist_entry;

typedef struct kernel_progress kernel_progress;

typedef struct kernel {
    void *zctx;
    kernel_auth *auth;
    char session[37];
    lang_session *lang;
    atomic_int stop;        /* a shutdown was asked for */
    atomic_int interrupted; /* an interrupt came; cleared when an execute starts */
    atomic_int restart;     /* the shutdown asked for a restart */
    /* exit() ran: the kernel stops at this time (CLOCK_MONOTONIC ms), or on
     * the client's shutdown_request if that comes first; 0 otherwise. */
    double exit_at_ms;

    /* shell thread only */
    void *shell, *iopub_link, *stdin_link;
    int execution_count;
    kernel_hist_entry *hist;
    int n_hist, cap_hist;
    const kernel_msg *current; /* the request being handled */
    bool silent, allow_stdin;
    /* input() returned no line because stdin is not allowed / because of
     * an interrupt: the EOFError the language raises is renamed. */
    bool input_refused, input_interrupted;
    kernel_msg *queued; /* drained after an error, to abort (stop_on_error) */
    int n_queued, cap_queued;
    kernel_progress *progress;
    int n_progress, cap_progress, progress_serial;
} kernel;

/* The front-end callbacks the language session is created with. */
lang_frontend kernel_frontend(kernel *k);

/* Handle one request from the shell socket (shell thread). */
/* Whether exit() has asked the kernel to stop and its grace time is over. */
bool kernel_exit_due(const kernel *k);
void kernel_shell_handle(kernel *k, kernel_msg *m);
/* Handle one request from the control socket (control thread). */
void kernel_control_handle(kernel *k, void *control, void *iopub_link, kernel_msg *m);
/* Ask the running code to stop (control thread, signal handler). */
void kernel_interrupt(kernel *k);

/* Publish [msg_type] with [content] (taken) on iopub through [link], with
 * [parent] (may be NULL) as parent. */
void kernel_publish(const kernel *k, void *link, const kernel_msg *parent, const char *msg_type,
                    cJSON *content);
void kernel_publish_status(const kernel *k, void *link, const kernel_msg *parent,
                           const char *state);
/* Wait until everything sent on [link] before is on the iopub socket. */
void kernel_link_flush(void *link);

void kernel_history_free(kernel *k);

#endif
