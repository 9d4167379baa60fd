/* repl: the terminal front end — readline REPL, script mode and help. See
 * repl.h.
 *
 * Signals force a little global state: one REPL runs per process, and the
 * SIGINT handler must find the session to interrupt it. Everything else
 * lives in the repl struct of the running entry point.
 */
#include "repl.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "drill.h"
#include "lang.h"
#include "nn_buf.h"
#include "repl_history.h"
#include "repl_term.h"

/* lang_session_new failed: the embedded language has said why on stderr
 * (its Python packages not found, the interpreter not starting), or memory
 * ran out, which nothing has reported. */
static void session_failed(void) {
    fprintf(stderr, "nndb: cannot start a session (the message above says why; without one, "
                    "memory ran out)\n");
}

/* How many history entries the file keeps. */
#define HISTORY_KEEP 10000
/* The least time between two redraws of a progress bar. */
#define PROGRESS_REDRAW_MS 80

/* What Ctrl-C means right now. */
enum { MODE_IDLE, MODE_PROMPT, MODE_RUNNING, MODE_NESTED };

static lang_session *g_session;
static volatile sig_atomic_t g_mode = MODE_IDLE;
static volatile sig_atomic_t g_sigint, g_sigwinch;

/* A display update waiting for the end of the statement (a terminal cannot
 * replace output it has scrolled past, so it shows the latest form once). */
typedef struct pending_display {
    char *id, *text;
} pending_display;

typedef struct repl {
    bool interactive;         /* prompts, results shown, readline */
    bool colour_out;          /* paint stdout */
    bool colour_err;          /* paint stderr */
    bool tty_in;              /* stdin is a terminal */
    bool readline_ready;      /* readline_setup has run */
    bool bar_ok;              /* stderr is a terminal: progress bars drawn */
    bool bar_shown;           /* a bar is on the screen now */
    long long bar_drawn_ms;   /* when it was last drawn */
    char *hist_path;          /* NULL: history in memory only */
    bool hist_warned;         /* the write warning has been given */
    pending_display *pending; /* display updates to show at the end */
    int n_pending, cap_pending;
    char *cell; /* the input being collected (for completion context) */
    size_t cell_len, cell_cap;
    char *paste;       /* lines of a multi-line paste not yet used */
    size_t paste_at;   /* where the next one starts in [paste] */
    int cell_no;       /* the execution counter shown in "<cell N>" */
    lang_err last_err; /* the class of the last error, LANG_ERR_NONE */
    int n_figures;     /* pictures saved so far (save_picture) */
} repl;

/* ---- signals ---- */

static void on_sigint(int sig) {
    (void)sig;
    /* lang_session_interrupt is async-signal-safe (lang.h): it sets a flag
     * the evaluator polls between statements and ops. */
    if (g_mode == MODE_RUNNING && g_session) lang_session_interrupt(g_session);
    g_sigint = 1;
}

static void on_sigwinch(int sig) {
    (void)sig;
    g_sigwinch = 1;
}

/* While code runs, slow system calls restart after Ctrl-C so a file read
 * does not fail with EINTR; at a prompt they must not, so that the wait for
 * a key ends and the prompt can be cleared. */
static void install_sigint(bool restart) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGINT, &sa, NULL);
}

static long long now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- the cell buffer ---- */

static void cell_clear(repl *r) {
    r->cell_len = 0;
    if (r->cell) r->cell[0] = 0;
}

static bool cell_append(repl *r, const char *line) {
    size_t n = strlen(line);
    if (r->cell_len + n + 2 > r->cell_cap) {
        size_t cap = r->cell_cap ? r->cell_cap * 2 : 256;
        while (cap < r->cell_len + n + 2) cap *= 2;
        char *p = realloc(r->cell, cap);
        if (!p) return false;
        r->cell = p;
        r->cell_cap = cap;
    }
    memcpy(r->cell + r->cell_len, line, n);
    r->cell_len += n;
    r->cell[r->cell_len++] = '\n';
    r->cell[r->cell_len] = 0;
    return true;
}

/* ---- output: progress bar, streams, displays ---- */

static void bar_erase(repl *r) {
    if (!r->bar_shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    r->bar_shown = false;
}

static int term_width(int fd) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    return 80;
}

static void fe_progress(void *user, const char *id, int64_t done, int64_t total, const char *text) {
    (void)id;
    repl *r = user;
    if (!r->bar_ok) return;
    bool end = total > 0 ? done >= total : done == 0;
    if (end) {
        bar_erase(r);
        return;
    }
    long long t = now_ms();
    if (r->bar_shown && t - r->bar_drawn_ms < PROGRESS_REDRAW_MS) return;
    char line[1024];
    repl_progress_line(line, sizeof line, term_width(2) - 1, done, total, text);
    fflush(stdout);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    r->bar_shown = true;
    r->bar_drawn_ms = t;
}

static void fe_stream(void *user, lang_stream which, const char *text, size_t len) {
    repl *r = user;
    bar_erase(r);
    if (which == LANG_STDERR) {
        /* Keep the order the program wrote in when both go to a terminal. */
        fflush(stdout);
        fwrite(text, 1, len, stderr);
        fflush(stderr);
    } else {
        fwrite(text, 1, len, stdout);
        if (r->interactive) fflush(stdout);
    }
}

static void show_text(repl *r, const char *text) {
    bar_erase(r);
    size_t n = strlen(text);
    fputs(text, stdout);
    if (!n || text[n - 1] != '\n') fputc('\n', stdout);
    fflush(stdout);
}

/* A display updated in place (live_plot while a loop runs): its first line
 * redrawn on stderr like the progress bar, at most every PROGRESS_REDRAW_MS;
 * the final form is printed once when the statement ends (flush_pending). */
static void draw_live(repl *r, const char *text) {
    if (!r->bar_ok) return;
    long long t = now_ms();
    if (r->bar_shown && t - r->bar_drawn_ms < PROGRESS_REDRAW_MS) return;
    int width = term_width(2) - 1, cols = 0;
    const char *p = text;
    while (*p && *p != '\n' && cols < width) { /* cut at the width, in characters */
        p++;
        while ((*p & 0xC0) == 0x80) p++;
        cols++;
    }
    fflush(stdout);
    fprintf(stderr, "\r\033[K%.*s", (int)(p - text), text);
    fflush(stderr);
    r->bar_shown = true;
    r->bar_drawn_ms = t;
}

/* A terminal cannot show a picture (a matplotlib figure, anything with
 * _repr_png_): it is saved as a PNG file under the cache folder
 * ($XDG_CACHE_HOME/nndb/figures, else ~/.cache/nndb/figures) and the path
 * is said, so plt.show() in the REPL or a script leads somewhere. Returns
 * the malloc'ed path, or NULL (and says why on stderr) when it could not
 * be written. */
static char *save_picture(repl *r, const char *png_base64) {
    size_t n = 0;
    unsigned char *png = nn_base64_decode(png_base64, &n);
    if (!png) return NULL;
    const char *cache = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char dir[4096], *path = NULL;
    if (cache && cache[0] == '/')
        snprintf(dir, sizeof dir, "%s/nndb/figures/", cache);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/nndb/figures/", home);
    else
        snprintf(dir, sizeof dir, "/tmp/nndb-figures-%d/", (int)getuid());
    size_t cap = strlen(dir) + 64;
    path = malloc(cap);
    if (path) snprintf(path, cap, "%sfigure-%d-%d.png", dir, (int)getpid(), ++r->n_figures);
    FILE *f = path && repl_mkdirs_for(path) ? fopen(path, "wb") : NULL;
    bool ok = f && fwrite(png, 1, n, f) == n;
    if (f && fclose(f)) ok = false;
    if (!ok && path) {
        fprintf(stderr, "nndb: could not save the picture to %s: %s\n", path, strerror(errno));
        free(path);
        path = NULL;
    }
    free(png);
    return path;
}

/* Which inline-picture protocol the terminal on stdout speaks, if any:
 * kitty's graphics protocol (kitty, and terminals that set KITTY_WINDOW_ID),
 * iTerm2's (iTerm2, WezTerm), else none. NNDB_TERMINAL_IMAGES=kitty, iterm
 * or off overrides what is detected. */
typedef enum { PICTURES_NONE, PICTURES_KITTY, PICTURES_ITERM } picture_protocol;

static picture_protocol terminal_pictures(void) {
    const char *force = getenv("NNDB_TERMINAL_IMAGES");
    if (force && *force) {
        if (!strcmp(force, "kitty")) return PICTURES_KITTY;
        if (!strcmp(force, "iterm")) return PICTURES_ITERM;
        return PICTURES_NONE;
    }
    if (!isatty(1)) return PICTURES_NONE;
    const char *term = getenv("TERM"), *prog = getenv("TERM_PROGRAM");
    if ((term && strstr(term, "kitty")) || getenv("KITTY_WINDOW_ID")) return PICTURES_KITTY;
    if (prog && (!strcmp(prog, "iTerm.app") || !strcmp(prog, "WezTerm"))) return PICTURES_ITERM;
    return PICTURES_NONE;
}

/* Draw the PNG (base64) in the terminal, on its own lines. */
static void show_picture(picture_protocol how, const char *png_base64) {
    size_t n = strlen(png_base64);
    if (how == PICTURES_ITERM) {
        printf("\033]1337;File=inline=1;preserveAspectRatio=1:%s\a\n", png_base64);
    } else if (how == PICTURES_KITTY) {
        /* kitty takes the payload in chunks of at most 4096 bytes */
        for (size_t at = 0; at < n; at += 4096) {
            size_t len = n - at < 4096 ? n - at : 4096;
            printf("\033_G%s%s;%.*s\033\\", at ? "" : "a=T,f=100,", at + len < n ? "m=1" : "m=0",
                   (int)len, png_base64 + at);
        }
        printf("\n");
    }
    fflush(stdout);
}

static void fe_display(void *user, const lang_mime *bundle, const char *display_id, bool update) {
    repl *r = user;
    const char *text = lang_mime_get(bundle, "text/plain");
    const char *png = lang_mime_get(bundle, "image/png");
    /* A display with an id (live_plot) is redrawn as text while it runs
     * and printed once at the end: no file per update. */
    if (png && !display_id) {
        char *path = save_picture(r, png);
        if (path) {
            bar_erase(r);
            picture_protocol how = terminal_pictures();
            if (how != PICTURES_NONE) show_picture(how, png);
            printf("%s saved to %s\n", text ? text : "A picture", path);
            fflush(stdout);
            free(path);
            return;
        }
    }
    if (!text) return;
    if (!(update && display_id)) {
        show_text(r, text);
        return;
    }
    draw_live(r, text);
    for (int i = 0; i < r->n_pending; i++) {
        if (!strcmp(r->pending[i].id, display_id)) {
            char *t = strdup(text);
            if (!t) return;
            free(r->pending[i].text);
            r->pending[i].text = t;
            return;
        }
    }
    if (r->n_pending == r->cap_pending) {
        int cap = r->cap_pending ? 2 * r->cap_pending : 4;
        pending_display *p = realloc(r->pending, (size_t)cap * sizeof *p);
        if (!p) return;
        r->pending = p;
        r->cap_pending = cap;
    }
    pending_display d = {strdup(display_id), strdup(text)};
    if (!d.id || !d.text) {
        free(d.id);
        free(d.text);
        return;
    }
    r->pending[r->n_pending++] = d;
}

static void flush_pending(repl *r) {
    for (int i = 0; i < r->n_pending; i++) {
        show_text(r, r->pending[i].text);
        free(r->pending[i].id);
        free(r->pending[i].text);
    }
    r->n_pending = 0;
}

/* ---- reading lines ---- */

/* A line from stdin without readline (pipes, script mode); NULL at the end. */
static char *plain_line(const char *prompt) {
    if (prompt && *prompt) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, stdin);
    if (n < 0) {
        free(line);
        return NULL;
    }
    if (n && line[n - 1] == '\n') line[n - 1] = 0;
    return line;
}

/* A line with echo off, for input(..., password) and secrets. */
static char *password_line(const char *prompt) {
    struct termios old, quiet;
    bool tty = tcgetattr(0, &old) == 0;
    if (tty) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(0, TCSAFLUSH, &quiet);
    }
    char *line = plain_line(prompt);
    if (tty) {
        tcsetattr(0, TCSAFLUSH, &old);
        fputc('\n', stdout);
        fflush(stdout);
    }
    return line;
}

typedef enum read_status { READ_LINE, READ_EOF, READ_INTERRUPT } read_status;

static char *g_got;
static bool g_got_done;
static int g_indent;       /* spaces to pre-fill the next line with */
static repl *g_repl;       /* for completion, which readline calls bare */
static bool g_nested_read; /* a nested prompt: no cell context */

static void line_handler(char *line) {
    g_got = line;
    g_got_done = true;
    /* Removing the handler here stops readline from printing the next
     * prompt before the statement has run. */
    rl_callback_handler_remove();
}

static int key_tab(int count, int key);
static int key_backspace(int count, int key);
static int key_eof(int count, int key);
static bool g_eof_key; /* Ctrl-D ended the line: end of input */

/* readline's startup hook, run for each line after the terminal is set up:
 * bind our keys (setting up the terminal binds the tty's erase character
 * to plain rubout again), then pre-fill the indent. */
static int start_line(void) {
    rl_bind_key('\t', key_tab);
    rl_bind_key(127, key_backspace);
    rl_bind_key(8, key_backspace);
    rl_bind_key(4, key_eof);
    if (g_indent > 0) {
        char sp[256];
        int n = g_indent < (int)sizeof sp - 1 ? g_indent : (int)sizeof sp - 1;
        memset(sp, ' ', (size_t)n);
        sp[n] = 0;
        rl_insert_text(sp);
    }
    return 0;
}

/* Read one line with readline's callback interface, so that Ctrl-C can end
 * the wait as Python's REPL does: the signal interrupts pselect, the line
 * is thrown away and the caller prints a new prompt. */
static read_status read_line(const char *prompt, int indent, char **out) {
    *out = NULL;
    g_got = NULL;
    g_got_done = false;
    g_eof_key = false;
    g_indent = indent;
    g_sigint = 0;

    sigset_t block, orig;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGWINCH);
    sigprocmask(SIG_BLOCK, &block, &orig);

    rl_callback_handler_install(prompt, line_handler);
    read_status st = READ_LINE;
    while (!g_got_done) {
        if (g_sigwinch) {
            g_sigwinch = 0;
            rl_resize_terminal();
        }
        if (g_sigint) {
            g_sigint = 0;
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_cleanup_after_signal();
            rl_callback_handler_remove();
            st = READ_INTERRUPT;
            break;
        }
        fd_set fds;
        FD_ZERO(&fds);
        FD_SET(0, &fds);
        /* pselect unblocks SIGINT only while it waits: a Ctrl-C between
         * the check above and the wait cannot be lost. */
        int rc = pselect(1, &fds, NULL, NULL, NULL, &orig);
        if (rc < 0) {
            if (errno == EINTR) continue;
            rl_callback_handler_remove();
            st = READ_EOF;
            break;
        }
        rl_callback_read_char();
    }
    sigprocmask(SIG_SETMASK, &orig, NULL);
    if (st == READ_LINE && g_eof_key) {
        free(g_got);
        g_got = NULL;
    }
    if (st == READ_LINE) {
        if (!g_got) return READ_EOF;
        *out = g_got;
    }
    return st;
}

static void readline_setup(void);

static char *fe_readline(void *user, const char *prompt, bool password) {
    repl *r = user;
    bar_erase(r);
    flush_pending(r);
    fflush(stdout);
    if (!prompt) prompt = "";
    if (password) return password_line(prompt);
    if (!r->tty_in) return plain_line(prompt);
    /* A script run from a terminal reads its nested prompts (the debugger's
     * (nndb), input()) with readline too: editing, history, completion. */
    if (!r->readline_ready) {
        readline_setup();
        r->readline_ready = true;
    }

    /* A nested prompt inside a running statement (input(), the debugger):
     * Ctrl-C here ends the wait and stops the statement, as in Python. */
    int saved = g_mode;
    g_mode = MODE_NESTED;
    g_nested_read = true;
    install_sigint(false);
    char *line = NULL;
    read_status st = read_line(prompt, 0, &line);
    g_nested_read = false;
    g_mode = saved;
    install_sigint(true);
    if (st == READ_INTERRUPT) {
        fputc('\n', stdout);
        fflush(stdout);
        lang_session_interrupt(g_session);
        return NULL;
    }
    if (st == READ_EOF) return NULL; /* readline has ended the line */
    /* Up at the next (nndb) prompt recalls it (this session only, not the file). */
    if (line && *line && !password) add_history(line);
    return line;
}

/* ---- completion and editing keys ---- */

static bool blank_before_point(void) {
    for (int i = 0; i < rl_point; i++)
        if (rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t') return false;
    return true;
}

/* Tab at the start of a line indents (to the next multiple of four), as
 * Python's REPL does; elsewhere it completes. */
static int key_tab(int count, int key) {
    if (!blank_before_point()) {
        /* readline lists the candidates on a second Tab only when the last
         * command was rl_complete itself; this binding stands in for it. */
        if (rl_last_func == key_tab) rl_last_func = rl_complete;
        return rl_complete(count, key);
    }
    int n = 4 - rl_point % 4;
    rl_insert_text(&"    "[4 - n]);
    return 0;
}

/* Ctrl-D on a line of blanks (a "..." prompt pre-filled with the indent) is
 * the end of input, as on an empty line: it ends the block, or leaves at
 * the first prompt. Elsewhere it deletes the character under the cursor. */
static int key_eof(int count, int key) {
    for (int i = 0; i < rl_end; i++)
        if (rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t') return rl_delete(count, key);
    rl_delete_text(0, rl_end);
    rl_point = rl_end = 0;
    g_eof_key = true;
    return rl_newline(1, key);
}

/* Backspace in the leading blanks goes back one indent level, so that
 * leaving an auto-indented block is one key. */
static int key_backspace(int count, int key) {
    if (count == 1 && rl_point > 0 && blank_before_point()) {
        int n = rl_point % 4 ? rl_point % 4 : 4;
        rl_delete_text(rl_point - n, rl_point);
        rl_point -= n;
        return 0;
    }
    return rl_rubout(count, key);
}

static char *common_prefix(char **v, int n) {
    size_t len = strlen(v[0]);
    for (int i = 1; i < n; i++) {
        size_t j = 0;
        while (j < len && v[i][j] == v[0][j]) j++;
        len = j;
    }
    return strndup(v[0], len);
}

/* Ask the session for completions and fit them to readline's word: the
 * session replaces [start, end) of the whole input, readline replaces its
 * own word [rstart, cursor) of the current line; candidates are trimmed or
 * extended by the text between the two starts. */
static char **attempt_completion(const char *text, int rstart, int rend) {
    (void)text;
    (void)rend;
    rl_attempted_completion_over = 1;
    rl_completion_suppress_append = 1;
    repl *r = g_repl;
    if (!r || !g_session) return NULL;

    const char *base = g_nested_read || !r->cell ? "" : r->cell;
    size_t base_len = strlen(base), line_len = strlen(rl_line_buffer);
    char *code = malloc(base_len + line_len + 1);
    if (!code) return NULL;
    memcpy(code, base, base_len);
    memcpy(code + base_len, rl_line_buffer, line_len + 1);
    size_t cursor = base_len + (size_t)rl_point;

    size_t ls = cursor, le = cursor;
    char **cands = lang_complete(g_session, code, cursor, &ls, &le);
    free(code);
    if (!cands) return NULL;
    int n = 0;
    while (cands[n]) n++;
    if (!n || ls < base_len || ls > cursor) {
        lang_strv_free(cands);
        return NULL;
    }
    size_t lstart = ls - base_len, rs = (size_t)rstart;
    char **out = calloc((size_t)n + 2, sizeof *out);
    if (!out) {
        lang_strv_free(cands);
        return NULL;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        char *fit = NULL;
        if (lstart <= rs) {
            size_t skip = rs - lstart;
            if (strncmp(cands[i], rl_line_buffer + lstart, skip) == 0)
                fit = strdup(cands[i] + skip);
        } else {
            size_t pre = lstart - rs, cl = strlen(cands[i]);
            fit = malloc(pre + cl + 1);
            if (fit) {
                memcpy(fit, rl_line_buffer + rs, pre);
                memcpy(fit + pre, cands[i], cl + 1);
            }
        }
        if (fit) out[1 + m++] = fit;
    }
    lang_strv_free(cands);
    if (!m) {
        free(out);
        return NULL;
    }
    if (m == 1) {
        out[0] = out[1];
        out[1] = NULL;
        return out;
    }
    out[0] = common_prefix(out + 1, m);
    if (!out[0]) {
        for (int i = 1; i <= m; i++) free(out[i]);
        free(out);
        return NULL;
    }
    return out;
}

static void readline_setup(void) {
    rl_readline_name = "nndb";
    /* SIGINT and SIGWINCH are ours (see read_line); readline must not
     * install handlers of its own around the callback. */
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_initialize();
    /* Word breaks as Python's rlcompleter, plus '.', so that after "x." the
     * completion list shows method names rather than "x.sum" each time. */
    rl_completer_word_break_characters = " \t\n`~!@#$^&*()=+[{]}\\|;:'\",<>?.%/-";
    rl_attempted_completion_function = attempt_completion;
    rl_startup_hook = start_line;
}

/* ---- running code ---- */

/* exit(N) and quit() stop the statement with the pseudo-error SystemExit
 * (lang.h); the session keeps the status they asked for. Without it,
 * the message is the status, as in Python: empty or "None" for 0, a number,
 * or a text that is printed (status 1). */
static int system_exit_status(const lang_error_info *e) {
    int code = 0;
    if (lang_session_exit_requested(g_session, &code)) return code;
    const char *v = e->evalue ? e->evalue : "";
    if (!*v || !strcmp(v, "None")) return 0;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end == 0) return (int)(n & 0xff);
    fprintf(stderr, "%s\n", v);
    return 1;
}

/* Run [code]; print its value (interactive) or its error. Sets *leave and
 * *status when the code asked to exit. Returns whether it succeeded. */
static bool run_code(repl *r, const char *code, const char *filename, bool *leave, int *status) {
    lang_result res;
    memset(&res, 0, sizeof res);
    g_sigint = 0;
    install_sigint(true);
    g_mode = MODE_RUNNING;
    bool ok = lang_exec(g_session, code, filename, r->interactive, &res);
    g_mode = r->interactive ? MODE_PROMPT : MODE_IDLE;
    install_sigint(false);
    bar_erase(r);
    flush_pending(r);
    if (ok && res.has_value) {
        const char *text = lang_mime_get(&res.value, "text/plain");
        if (text) {
            repl_write_result(stdout, text, r->colour_out);
            size_t n = strlen(text);
            if (!n || text[n - 1] != '\n') fputc('\n', stdout);
        }
    }
    fflush(stdout);
    r->last_err = ok ? LANG_ERR_NONE : res.error.cls;
    if (!ok) {
        int exit_code = 0;
        if (lang_session_exit_requested(g_session, &exit_code) ||
            (res.error.ename && !strcmp(res.error.ename, "SystemExit"))) {
            *leave = true;
            *status = system_exit_status(&res.error);
        } else {
            repl_write_error(stderr, &res.error, r->colour_err);
            fflush(stderr);
        }
    }
    lang_result_free(&res);
    return ok;
}

/* ---- the interactive loop ---- */

static void banner(const repl *r, const char *version) {
    const char *b = r->colour_out ? "\033[1m" : "", *e = r->colour_out ? REPL_SGR_RESET : "";
    const char *g = r->colour_out ? REPL_SGR_FRAME : "";
    printf("%snndb %s%s: a debugger and drill book for neural-network training.\n"
           "The language is Python with PyTorch's names. Try these three lines:\n"
           "\n"
           "    %sx = randn(64, 2); y = randint(0, 3, (64,))%s\n"
           "    %smodel = Sequential(Linear(2, 64), Tanh(), Linear(64, 3))%s\n"
           "    %scross_entropy(model(x), y)%s\n"
           "\n"
           "%%help lists commands and magics, help(zeros) explains a name, Tab completes,\n"
           "Up and Ctrl-R search history, Ctrl-C stops a statement, Ctrl-D leaves.\n\n",
           b, version, e, g, e, g, e, g, e);
    fflush(stdout);
}

static bool line_is_blank(const char *s) {
    for (; *s; s++)
        if (!isspace((unsigned char)*s)) return false;
    return true;
}

/* Whether a line's code (outside strings, before a comment) ends with ':',
 * which makes the cell a block that a blank line ends. */
static bool opens_block(const char *s) {
    char quote = 0, last = 0;
    for (; *s; s++) {
        char c = *s;
        if (quote) {
            if (c == '\\' && s[1])
                s++;
            else if (c == quote)
                quote = 0;
            last = 'x';
            continue;
        }
        if (c == '#') break;
        if (c == '\'' || c == '"') quote = c;
        if (!isspace((unsigned char)c)) last = c;
    }
    return last == ':';
}

static int leading_spaces(const char *s) {
    int n = 0;
    while (s[n] == ' ') n++;
    return n;
}

static void note_history(repl *r, const char *line) {
    if (!repl_history_add(r->hist_path, line) && !r->hist_warned) {
        fprintf(stderr, "nndb: warning: cannot write the history file %s: %s\n", r->hist_path,
                strerror(errno));
        r->hist_warned = true;
    }
}

typedef enum cell_status { CELL_READY, CELL_EMPTY, CELL_INTERRUPTED, CELL_EOF } cell_status;

/* The next line of a multi-line paste, or NULL when none is left. With
 * bracketed paste (readline's default), pasted text arrives as one "line"
 * holding newlines; it is used line by line, as if typed, but without the
 * automatic indent (the pasted text brings its own). */
static char *next_pasted(repl *r) {
    if (!r->paste) return NULL;
    char *from = r->paste + r->paste_at;
    char *nl = strchr(from, '\n');
    size_t n = nl ? (size_t)(nl - from) : strlen(from);
    char *line = strndup(from, n);
    if (nl && nl[1]) {
        r->paste_at += n + 1;
    } else {
        free(r->paste);
        r->paste = NULL;
        r->paste_at = 0;
    }
    if (line && n && line[n - 1] == '\r') line[n - 1] = 0;
    return line;
}

/* Collect one cell: a line, or a block continued with "..." prompts until
 * it is complete (bracket continuation) or a blank line ends it. */
/* Someone who types their own indent on a "..." line pre-filled with
 * [indent] spaces gets both: a line with at least twice the pre-fill. Then
 * the pre-fill is taken back out of the line, and pre-filling stops for the
 * rest of the session (IPython's auto-indent gives way the same way). The
 * line would be an "unexpected indent" otherwise, so no intended code reads
 * differently. */
static bool g_own_indent;

static void take_back_prefill(char *line, int indent) {
    if (indent <= 0 || leading_spaces(line) < 2 * indent) return;
    memmove(line, line + indent, strlen(line + indent) + 1);
    g_own_indent = true;
}

static cell_status read_cell_lines(repl *r, const char *p1, const char *p2) {
    cell_clear(r);
    bool block = false;
    int indent = 0;
    for (int n = 0;; n++) {
        /* Pasted lines are on the screen already: readline showed the
         * whole paste. */
        char *line = next_pasted(r);
        read_status st = READ_LINE;
        bool was_paste = line != NULL;
        if (!line) {
            int prefill = g_own_indent ? 0 : indent;
            st = read_line(n ? p2 : p1, prefill, &line);
            if (st == READ_LINE && line && !strchr(line, '\n')) take_back_prefill(line, prefill);
            if (st == READ_LINE && strchr(line, '\n')) {
                r->paste = line;
                r->paste_at = 0;
                line = next_pasted(r);
                if (!line) line = strdup("");
                was_paste = true;
            }
        }
        if (!line && st == READ_LINE) return CELL_READY;
        if (st == READ_INTERRUPT) {
            fputs("\nKeyboardInterrupt\n", stdout);
            fflush(stdout);
            cell_clear(r);
            return CELL_INTERRUPTED;
        }
        if (st == READ_EOF) {
            /* Ctrl-D inside a block ends the block; on an empty prompt it
             * leaves. readline has ended the line on the screen. */
            return n ? CELL_READY : CELL_EOF;
        }
        bool blank = line_is_blank(line);
        if (blank && n == 0) {
            free(line);
            return CELL_EMPTY;
        }
        /* An empty line ends a block. Inside an open bracket or a
         * triple-quoted string it is part of the text, as in Python. */
        if (blank && block) {
            free(line);
            return CELL_READY;
        }
        if (n == 0) block = opens_block(line);
        bool appended = cell_append(r, line);
        int lead = leading_spaces(line);
        free(line);
        if (!appended) return CELL_READY;
        int want = 0;
        lang_completeness c = lang_is_complete(r->cell, &want);
        if (c == LANG_INVALID) return CELL_READY;
        /* A block recalled from the history (or pasted) whole and Enter
         * pressed after it runs, as in IPython, without a blank line: when
         * it is complete already (Python's rule: its last line ended), or
         * when a blank line would complete it. */
        if (c == LANG_COMPLETE && block && was_paste && !r->paste) return CELL_READY;
        if (c == LANG_INCOMPLETE && block && was_paste && !r->paste && cell_append(r, "")) {
            bool whole = lang_is_complete(r->cell, &want) == LANG_COMPLETE;
            r->cell[--r->cell_len] = 0;
            if (whole) return CELL_READY;
        }
        if (c == LANG_INCOMPLETE) {
            indent = want > 0 ? want : (block ? lead : 0);
            continue;
        }
        /* Complete: a bracket continuation runs now; a block waits for the
         * blank line, the next line starting at the current indent. */
        if (!block) return CELL_READY;
        indent = lead;
    }
}

/* One cell, and its text into the history as one entry: Up recalls a
 * block whole, as IPython does (the history file keeps it whole too). */
static cell_status read_cell(repl *r, const char *p1, const char *p2) {
    cell_status st = read_cell_lines(r, p1, p2);
    if ((st == CELL_READY || st == CELL_EOF) && r->cell && r->cell_len) {
        size_t n = r->cell_len;
        while (n && r->cell[n - 1] == '\n') n--;
        char *entry = strndup(r->cell, n);
        if (entry) note_history(r, entry);
        free(entry);
    }
    return st;
}

static void history_open(repl *r) {
    using_history();
    r->hist_path = repl_history_path();
    if (!r->hist_path) return;
    if (!repl_history_load(r->hist_path, HISTORY_KEEP)) {
        fprintf(stderr,
                "nndb: warning: cannot use the history file %s: %s (history is kept "
                "for this session only)\n",
                r->hist_path, strerror(errno));
        free(r->hist_path);
        r->hist_path = NULL;
    }
}

static void repl_free(repl *r) {
    flush_pending(r);
    free(r->pending);
    free(r->cell);
    free(r->paste);
    free(r->hist_path);
}

/* The debugger's stops ask this: a person can answer only at a terminal. */
static bool fe_can_read(void *user) {
    const repl *r = user;
    /* Under mpirun, rank 0's stdin is mpirun's, forwarded: the debugger's
     * prompt reads it there (docs/distributed.md). */
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    return r->tty_in || (rank && !strcmp(rank, "0"));
}

static lang_frontend frontend_for(repl *r) {
    lang_frontend fe = {r,    fe_display, fe_stream, fe_progress, fe_readline, fe_can_read,
                        NULL, NULL,       false,     NULL,        NULL};
    return fe;
}

int repl_interactive(const char *version) {
    return repl_interactive_with(version, NULL);
}

int repl_interactive_with(const char *version, const char *first_cell) {
    repl r;
    memset(&r, 0, sizeof r);
    r.interactive = true;
    r.tty_in = isatty(0) == 1;
    r.colour_out = repl_colour_wanted(1);
    r.colour_err = repl_colour_wanted(2);
    r.bar_ok = isatty(2) == 1;
    lang_frontend fe = frontend_for(&r);
    g_session = lang_session_new(&fe);
    if (!g_session || !drill_install(g_session)) {
        session_failed();
        return 1;
    }
    g_repl = &r;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigwinch;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, NULL);
    install_sigint(false);
    g_mode = MODE_PROMPT;

    readline_setup();
    r.readline_ready = true;
    history_open(&r);
    banner(&r, version);

    /* \001 and \002 tell readline which bytes take no columns. */
    const char *p1 =
        r.colour_out ? "\001" REPL_SGR_PROMPT "\002nndb>\001" REPL_SGR_RESET "\002 " : "nndb> ";
    const char *p2 =
        r.colour_out ? "\001" REPL_SGR_CONT "\002...\001" REPL_SGR_RESET "\002   " : "...   ";
    int status = 0;
    if (first_cell) { /* nndb drill start ID */
        bool leave = false;
        run_code(&r, first_cell, "<start>", &leave, &status);
    }
    for (;;) {
        /* An open drill shows in the prompt: [overfit-one-batch 3/5] nndb> */
        char tag[200], p1d[320];
        const char *prompt = p1;
        if (drill_prompt(g_session, tag, sizeof tag)) {
            snprintf(p1d, sizeof p1d, "%s%s%s %s", r.colour_out ? "\001" REPL_SGR_CONT "\002" : "",
                     tag, r.colour_out ? "\001" REPL_SGR_RESET "\002" : "", p1);
            prompt = p1d;
        }
        cell_status cs = read_cell(&r, prompt, p2);
        if (cs == CELL_EOF) break;
        if (cs != CELL_READY || !r.cell_len) continue;
        if (repl_is_exit_request(r.cell)) break;
        lang_session_add_history(g_session, r.cell);
        char name[32];
        snprintf(name, sizeof name, "<cell %d>", ++r.cell_no);
        bool leave = false;
        run_code(&r, r.cell, name, &leave, &status);
        if (leave) break;
    }

    g_mode = MODE_IDLE;
    signal(SIGINT, SIG_DFL);
    signal(SIGWINCH, SIG_DFL);
    g_repl = NULL;
    lang_session_free(g_session);
    g_session = NULL;
    rl_callback_handler_remove();
    repl_free(&r);
    return status;
}

/* ---- script mode ---- */

static char *slurp(FILE *f, size_t *len) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                return NULL;
            }
            buf = p;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

int repl_run_script(const char *path) {
    return repl_run_script_debug(path, NULL, 0, false);
}

int repl_run_script_debug(const char *path, const char *const *breaks, int n_breaks,
                          bool stop_first) {
    bool from_stdin = !path || !strcmp(path, "-");
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "nndb: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t len = 0;
    char *code = slurp(f, &len);
    int err = errno;
    if (!from_stdin) fclose(f);
    if (!code) {
        fprintf(stderr, "nndb: cannot read %s: %s\n", from_stdin ? "stdin" : path, strerror(err));
        return 1;
    }
    if (strlen(code) != len) {
        fprintf(stderr, "nndb: %s is not a text file (it holds a NUL byte)\n",
                from_stdin ? "stdin" : path);
        free(code);
        return 1;
    }

    repl r;
    memset(&r, 0, sizeof r);
    r.tty_in = isatty(0) == 1;
    r.colour_err = repl_colour_wanted(2);
    r.bar_ok = isatty(2) == 1;
    lang_frontend fe = frontend_for(&r);
    g_session = lang_session_new(&fe);
    if (!g_session || !drill_install(g_session)) {
        session_failed();
        free(code);
        return 1;
    }
    for (int i = 0; i < n_breaks; i++) {
        char *why = NULL;
        if (!lang_session_break(g_session, breaks[i], &why)) {
            fprintf(stderr, "nndb: --break %s: %s\n", breaks[i], why ? why : "not a breakpoint");
            free(why);
            lang_session_free(g_session);
            g_session = NULL;
            repl_free(&r);
            free(code);
            return 2;
        }
    }
    if (stop_first) lang_session_break_next(g_session);
    g_repl = &r; /* Tab completion at nested prompts ((nndb), input()) */
    bool leave = false;
    int status = 0;
    bool ok = run_code(&r, code, from_stdin ? "<stdin>" : path, &leave, &status);
    g_repl = NULL;
    signal(SIGINT, SIG_DFL);
    lang_session_free(g_session);
    g_session = NULL;
    repl_free(&r);
    free(code);
    fflush(stdout);
    if (leave) return status;
    /* A script stopped by Ctrl-C ends as shells expect (128 + SIGINT). */
    if (!ok && r.last_err == LANG_ERR_INTERRUPT) return 130;
    return ok ? 0 : 1;
}

/* ---- help ---- */

/* Help output goes straight to stdout; errors are reported by the caller. */
static void help_stream(void *user, lang_stream which, const char *text, size_t len) {
    (void)user;
    fwrite(text, 1, len, which == LANG_STDERR ? stderr : stdout);
}

int repl_help_topic(const char *topic) {
    /* The session's %help is the one source of help text (builtins,
     * methods such as Tensor.sum, magics), so the topic goes through it;
     * only a name is accepted, so the topic cannot smuggle in code. */
    const char *t = topic;
    bool ok_name = *t != 0;
    if (*t == '%') t++;
    for (; *t; t++)
        if (!isalnum((unsigned char)*t) && *t != '_' && *t != '.') ok_name = false;
    if (!ok_name) {
        fprintf(stderr, "nndb: '%s' is not a name to look up (try: nndb help zeros)\n", topic);
        return 1;
    }
    lang_frontend fe;
    memset(&fe, 0, sizeof fe);
    fe.stream = help_stream;
    lang_session *s = lang_session_new(&fe);
    if (!s) {
        session_failed();
        return 1;
    }
    size_t n = strlen(topic) + 8;
    char *code = malloc(n);
    if (!code) {
        lang_session_free(s);
        return 1;
    }
    snprintf(code, n, "%%help %s", topic);
    lang_result res;
    memset(&res, 0, sizeof res);
    bool ok = lang_exec(s, code, "<help>", false, &res);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "nndb: %s\n",
                res.error.evalue && *res.error.evalue ? res.error.evalue : "no such help topic");
    lang_result_free(&res);
    lang_session_free(s);
    free(code);
    return ok ? 0 : 1;
}
