/* kernel_handlers: the requests of the shell and control channels, and the
 * language's front-end callbacks (streams, displays, progress, input). See
 * kernel_handlers.h for which thread runs what. */
#include "kernel_handlers.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <zmq.h>

#include "kernel_raster.h"

/* ---- small helpers ---- */

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const cJSON *field(const kernel_msg *m, const char *name) {
    return cJSON_GetObjectItemCaseSensitive(m->content, name);
}

static const char *str_field(const kernel_msg *m, const char *name) {
    const cJSON *v = field(m, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool bool_field(const kernel_msg *m, const char *name, bool dflt) {
    const cJSON *v = field(m, name);
    return cJSON_IsBool(v) ? cJSON_IsTrue(v) : dflt;
}

static long int_field(const kernel_msg *m, const char *name, long dflt) {
    const cJSON *v = field(m, name);
    if (!cJSON_IsNumber(v) || v->valuedouble != v->valuedouble) return dflt;
    if (v->valuedouble > 1e9) return 1000000000L;
    if (v->valuedouble < -1e9) return -1000000000L;
    return (long)v->valuedouble;
}

/* Byte offset of code point [cp] in [s] (clamped to its end). */
static size_t cp_to_byte(const char *s, long cp) {
    size_t i = 0;
    if (cp <= 0) return 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (cp == 0) return i;
            cp--;
        }
    }
    return i;
}

/* Code points in the first [byte] bytes of [s]. */
static long byte_to_cp(const char *s, size_t byte) {
    long n = 0;
    for (size_t i = 0; i < byte && s[i]; i++) n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* The bundle as a data object. A picture sent as SVG only also goes as PNG
 * (kernel_raster.h): an untrusted notebook (a shared handout) will not show
 * SVG, and falls back to the PNG instead of the text form. */
static cJSON *bundle_json(const lang_mime *b) {
    cJSON *data = cJSON_CreateObject();
    for (int i = 0; i < b->n; i++) {
        const char *mime = b->items[i].mime, *text = b->items[i].data;
        if (!mime || !text) continue;
        /* JSON forms (application/json, *+json) travel as their JSON text
         * and go out as the value, as ipykernel sends them. */
        size_t len = strlen(mime);
        cJSON *value = NULL;
        if (!strcmp(mime, "application/json") || (len > 5 && !strcmp(mime + len - 5, "+json")))
            value = cJSON_Parse(text);
        if (value)
            cJSON_AddItemToObject(data, mime, value);
        else
            cJSON_AddStringToObject(data, mime, text);
    }
    const char *svg = lang_mime_get(b, "image/svg+xml");
    if (svg && !lang_mime_get(b, "image/png")) {
        char *png = kernel_raster_png_base64(svg);
        if (png) cJSON_AddStringToObject(data, "image/png", png);
        free(png);
    }
    return data;
}

/* ---- publishing and replying ---- */

void kernel_publish(const kernel *k, void *link, const kernel_msg *parent, const char *msg_type,
                    cJSON *content) {
    char topic[128];
    snprintf(topic, sizeof topic, "kernel.%s.%s", k->session, msg_type);
    kernel_frame t = {topic, strlen(topic)};
    kernel_wire_send(link, k->auth, k->session, &t, 1, parent ? parent->header_raw : NULL, msg_type,
                     content, NULL, NULL);
}

void kernel_publish_status(const kernel *k, void *link, const kernel_msg *parent,
                           const char *state) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "execution_state", state);
    kernel_publish(k, link, parent, "status", c);
}

void kernel_link_flush(void *link) {
    if (zmq_send(link, KERNEL_LINK_FLUSH, 1, 0) < 0) return;
    zmq_pollitem_t it = {link, 0, ZMQ_POLLIN, 0};
    /* The iopub thread answers at once; the bound only guards shutdown. */
    if (zmq_poll(&it, 1, 5000) <= 0) return;
    char buf[8];
    zmq_recv(link, buf, sizeof buf, 0);
}

static void reply(const kernel *k, void *sock, const kernel_msg *req, const char *msg_type,
                  cJSON *content, cJSON *metadata) {
    kernel_wire_send(sock, k->auth, k->session, req->idents, req->n_idents, req->header_raw,
                     msg_type, content, metadata, NULL);
}

/* ---- kernel_info ---- */

/* nndb's own pages, installed as HTML with the kernelspec (kernel_docs.h)
 * and served by the notebook server at [prefix]kernelspecs/NAME/doc/; the
 * prefix is JupyterHub's per-user one when the server runs under a hub.
 * Without installed pages, the only link is the PyTorch reference. */
static void add_help_links(cJSON *links) {
    static const char *const pages[][2] = {
        {"index", "nndb documentation"},    {"language", "The language: Python"},
        {"notebooks", "nndb in notebooks"}, {"kernel", "The nndb kernel"},
        {"repl", "The terminal REPL"},
    };
    const char *docs = getenv("NNDB_KERNEL_DOCS"), *name = getenv("NNDB_KERNELSPEC");
    const char *prefix = getenv("JUPYTERHUB_SERVICE_PREFIX");
    if (!prefix || *prefix != '/') prefix = "/";
    size_t pl = strlen(prefix);
    for (size_t i = 0; docs && name && i < sizeof pages / sizeof pages[0]; i++) {
        char file[PATH_MAX], url[512];
        snprintf(file, sizeof file, "%s/%s.html", docs, pages[i][0]);
        FILE *f = fopen(file, "rb");
        if (!f) continue;
        fclose(f);
        snprintf(url, sizeof url, "%s%skernelspecs/%s/doc/%s.html", prefix,
                 pl && prefix[pl - 1] == '/' ? "" : "/", name, pages[i][0]);
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "text", pages[i][1]);
        cJSON_AddStringToObject(l, "url", url);
        cJSON_AddItemToArray(links, l);
    }
    cJSON *l = cJSON_CreateObject();
    cJSON_AddStringToObject(l, "text", "PyTorch reference (the names nndb mirrors)");
    cJSON_AddStringToObject(l, "url", "https://pytorch.org/docs/stable/");
    cJSON_AddItemToArray(links, l);
}

static cJSON *kernel_info_content(void) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddStringToObject(c, "protocol_version", KERNEL_PROTOCOL_VERSION);
    cJSON_AddStringToObject(c, "implementation", "nndb");
    cJSON_AddStringToObject(c, "implementation_version", KERNEL_VERSION);
    cJSON *li = cJSON_AddObjectToObject(c, "language_info");
    const lang_info *info = lang_language_info();
    cJSON_AddStringToObject(li, "name", info->name);
    cJSON_AddStringToObject(li, "version", info->version);
    cJSON_AddStringToObject(li, "mimetype", info->mimetype);
    cJSON_AddStringToObject(li, "file_extension", info->file_extension);
    /* ipykernel's values: cells take IPython's syntax (%magics, !cmd,
     * name?), so front ends highlight them as IPython and nbconvert
     * exports them as a Python script. */
    cJSON *mode = cJSON_AddObjectToObject(li, "codemirror_mode");
    cJSON_AddStringToObject(mode, "name", "ipython");
    cJSON_AddNumberToObject(mode, "version", 3);
    cJSON_AddStringToObject(li, "pygments_lexer", "ipython3");
    cJSON_AddStringToObject(li, "nbconvert_exporter", "python");
    cJSON_AddStringToObject(
        c, "banner",
        "nndb " KERNEL_VERSION ": a debugger and drill book for neural-network training.\n"
        "The language is Python with PyTorch's names; %help lists the magics.\n");
    cJSON *links = cJSON_AddArrayToObject(c, "help_links");
    add_help_links(links);
    /* the Jupyter debug protocol, on nndb's own debugger (nndb/dap.py) */
    cJSON_AddBoolToObject(c, "debugger", true);
    return c;
}

/* ---- history ---- */

static void history_add(kernel *k, int line, const char *input, const char *output) {
    if (k->n_hist == k->cap_hist) {
        int cap = k->cap_hist ? k->cap_hist * 2 : 64;
        kernel_hist_entry *p = realloc(k->hist, sizeof *p * (size_t)cap);
        if (!p) return;
        k->hist = p;
        k->cap_hist = cap;
    }
    kernel_hist_entry *e = &k->hist[k->n_hist];
    e->line = line;
    e->input = strdup(input);
    e->output = output ? strdup(output) : NULL;
    if (e->input)
        k->n_hist++;
    else
        free(e->output);
}

void kernel_history_free(kernel *k) {
    for (int i = 0; i < k->n_hist; i++) {
        free(k->hist[i].input);
        free(k->hist[i].output);
    }
    free(k->hist);
    k->hist = NULL;
    k->n_hist = k->cap_hist = 0;
}

/* This process's history is session 1 (IPython numbers sessions from 1;
 * nndb keeps no history across processes). */
#define HIST_SESSION 1

static cJSON *hist_item(const kernel_hist_entry *e, bool output) {
    cJSON *t = cJSON_CreateArray();
    cJSON_AddItemToArray(t, cJSON_CreateNumber(HIST_SESSION));
    cJSON_AddItemToArray(t, cJSON_CreateNumber(e->line));
    if (output) {
        cJSON *io = cJSON_CreateArray();
        cJSON_AddItemToArray(io, cJSON_CreateString(e->input));
        cJSON_AddItemToArray(io, e->output ? cJSON_CreateString(e->output) : cJSON_CreateNull());
        cJSON_AddItemToArray(t, io);
    } else {
        cJSON_AddItemToArray(t, cJSON_CreateString(e->input));
    }
    return t;
}

static void handle_history(kernel *k, kernel_msg *m) {
    const char *access = str_field(m, "hist_access_type");
    bool output = bool_field(m, "output", false);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON *list = cJSON_AddArrayToObject(c, "history");
    if (access && !strcmp(access, "tail")) {
        long n = int_field(m, "n", 10);
        int first = n > 0 && n < k->n_hist ? k->n_hist - (int)n : 0;
        for (int i = first; i < k->n_hist; i++)
            cJSON_AddItemToArray(list, hist_item(&k->hist[i], output));
    } else if (access && !strcmp(access, "range")) {
        long session = int_field(m, "session", 0);
        long start = int_field(m, "start", 1), stop = int_field(m, "stop", -1);
        if (session == 0 || session == HIST_SESSION) {
            for (int i = 0; i < k->n_hist; i++) {
                int line = k->hist[i].line;
                if (line >= start && (stop < 0 || line < stop))
                    cJSON_AddItemToArray(list, hist_item(&k->hist[i], output));
            }
        }
    } else if (access && !strcmp(access, "search")) {
        const char *pattern = str_field(m, "pattern");
        long n = int_field(m, "n", 0);
        bool unique = bool_field(m, "unique", false);
        int *picked = malloc(sizeof *picked * (size_t)(k->n_hist + 1));
        int np = 0;
        for (int i = k->n_hist - 1; picked && i >= 0 && (n <= 0 || np < n); i--) {
            if (fnmatch(pattern ? pattern : "*", k->hist[i].input, 0) != 0) continue;
            bool seen = false;
            for (int j = 0; unique && j < np && !seen; j++)
                seen = !strcmp(k->hist[picked[j]].input, k->hist[i].input);
            if (!seen) picked[np++] = i;
        }
        for (int j = np - 1; j >= 0; j--)
            cJSON_AddItemToArray(list, hist_item(&k->hist[picked[j]], output));
        free(picked);
    } else {
        kernel_log(KERNEL_LOG_WARN, "history_request with hist_access_type '%s'",
                   access ? access : "(none)");
    }
    reply(k, k->shell, m, "history_reply", c, NULL);
}

/* ---- the front-end callbacks (shell thread, during lang_exec) ---- */

struct kernel_progress {
    char *id;
    char display_id[96];
    double last_ms;
};

static void fe_stream(void *user, lang_stream which, const char *text, size_t len) {
    kernel *k = user;
    if (!k->current || k->silent || !len) return;
    const char *name = which == LANG_STDERR ? "stderr" : "stdout";
    const char *parent = k->current->header_raw;
    zmq_send(k->iopub_link, KERNEL_LINK_STREAM, 1, ZMQ_SNDMORE);
    zmq_send(k->iopub_link, parent, strlen(parent), ZMQ_SNDMORE);
    zmq_send(k->iopub_link, name, strlen(name), ZMQ_SNDMORE);
    zmq_send(k->iopub_link, text, len, 0);
}

static void publish_display(kernel *k, cJSON *data, const char *display_id, bool update) {
    cJSON *c = cJSON_CreateObject();
    cJSON_AddItemToObject(c, "data", data);
    cJSON_AddObjectToObject(c, "metadata");
    cJSON *tr = cJSON_AddObjectToObject(c, "transient");
    if (display_id) cJSON_AddStringToObject(tr, "display_id", display_id);
    kernel_publish(k, k->iopub_link, k->current,
                   update && display_id ? "update_display_data" : "display_data", c);
}

static void fe_display(void *user, const lang_mime *bundle, const char *display_id, bool update) {
    kernel *k = user;
    if (!k->current || k->silent || !bundle) return;
    publish_display(k, bundle_json(bundle), display_id, update);
}

/* A comm message from the session: published on iopub under the request
 * being handled (a cell, a comm_msg); none outside a request. */
static void fe_comm_send(void *user, const char *msg_type, const char *content_json) {
    kernel *k = user;
    if (!k->current) return;
    cJSON *c = cJSON_Parse(content_json);
    if (!cJSON_IsObject(c)) {
        cJSON_Delete(c);
        return;
    }
    kernel_publish(k, k->iopub_link, k->current, msg_type, c);
}

static const char *fe_parent_header(void *user) {
    const kernel *k = user;
    return k->current ? k->current->header_raw : NULL;
}

static void fe_clear_output(void *user, bool wait) {
    kernel *k = user;
    if (!k->current || k->silent) return;
    cJSON *c = cJSON_CreateObject();
    cJSON_AddBoolToObject(c, "wait", wait);
    kernel_publish(k, k->iopub_link, k->current, "clear_output", c);
}

/* A DAP event raised during a cell (a stop at a breakpoint): iopub's
 * debug_event, under the running request. */
static void fe_debug_event(void *user, const char *event_json) {
    kernel *k = user;
    cJSON *c = cJSON_Parse(event_json);
    if (!c) return;
    kernel_publish(k, k->iopub_link, k->current, "debug_event", c);
}

static char *html_escape(const char *s) {
    size_t n = 0;
    for (const char *p = s; *p; p++) n += *p == '<' || *p == '>' ? 4 : *p == '&' ? 5 : 1;
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (const char *p = s; *p; p++) {
        if (*p == '<')
            o += sprintf(o, "&lt;");
        else if (*p == '>')
            o += sprintf(o, "&gt;");
        else if (*p == '&')
            o += sprintf(o, "&amp;");
        else
            *o++ = *p;
    }
    *o = 0;
    return out;
}

static cJSON *progress_bundle(int64_t done, int64_t total, const char *text) {
    char plain[512], count[64];
    if (total > 0)
        snprintf(count, sizeof count, "%lld/%lld", (long long)done, (long long)total);
    else
        snprintf(count, sizeof count, "%lld", (long long)done);
    if (total > 0) {
        enum { W = 30 };
        char bar[W + 1];
        int64_t fill = done >= total ? W : done <= 0 ? 0 : done * W / total;
        for (int i = 0; i < W; i++) bar[i] = i < fill ? '#' : '.';
        bar[W] = 0;
        snprintf(plain, sizeof plain, "%s [%s] %s", text ? text : "", bar, count);
    } else {
        snprintf(plain, sizeof plain, "%s %s", text ? text : "", count);
    }
    cJSON *data = cJSON_CreateObject();
    cJSON_AddStringToObject(data, "text/plain", plain);
    char *esc = html_escape(text ? text : "");
    char html[1024];
    if (total > 0)
        snprintf(html, sizeof html,
                 "<div><progress value=\"%lld\" max=\"%lld\" style=\"width:30ex\"></progress> "
                 "<code>%s</code> %s</div>",
                 (long long)(done < 0 ? 0 : done), (long long)total, count, esc ? esc : "");
    else
        snprintf(html, sizeof html,
                 "<div><progress style=\"width:30ex\"></progress> "
                 "<code>%s</code> %s</div>",
                 count, esc ? esc : "");
    free(esc);
    cJSON_AddStringToObject(data, "text/html", html);
    return data;
}

static void fe_progress(void *user, const char *id, int64_t done, int64_t total, const char *text) {
    kernel *k = user;
    if (!k->current || k->silent) return;
    if (!id) id = "";
    int i = 0;
    while (i < k->n_progress && strcmp(k->progress[i].id, id) != 0) i++;
    bool ending = total > 0 && done >= total;
    double now = now_ms();
    if (i == k->n_progress) {
        if (k->n_progress == k->cap_progress) {
            int cap = k->cap_progress ? k->cap_progress * 2 : 4;
            kernel_progress *p = realloc(k->progress, sizeof *p * (size_t)cap);
            if (!p) return;
            k->progress = p;
            k->cap_progress = cap;
        }
        kernel_progress *p = &k->progress[i];
        p->id = strdup(id);
        if (!p->id) return;
        snprintf(p->display_id, sizeof p->display_id, "nndb-progress-%.8s-%d", k->session,
                 ++k->progress_serial);
        p->last_ms = now;
        k->n_progress++;
        publish_display(k, progress_bundle(done, total, text), p->display_id, false);
    } else if (ending || now - k->progress[i].last_ms >= KERNEL_PROGRESS_MIN_MS) {
        k->progress[i].last_ms = now;
        publish_display(k, progress_bundle(done, total, text), k->progress[i].display_id, true);
    }
    if (ending) {
        free(k->progress[i].id);
        k->progress[i] = k->progress[--k->n_progress];
    }
}

static void progress_reset(kernel *k) {
    for (int i = 0; i < k->n_progress; i++) free(k->progress[i].id);
    free(k->progress);
    k->progress = NULL;
    k->n_progress = k->cap_progress = 0;
}

/* input(): an input_request on stdin to the client that sent the execute,
 * then wait for its input_reply (the stdin thread hands it over). */
static char *fe_readline(void *user, const char *prompt, bool password) {
    kernel *k = user;
    if (!k->current) return NULL;
    if (!k->allow_stdin) {
        k->input_refused = true;
        return NULL;
    }
    /* Output printed so far comes before the prompt. */
    kernel_link_flush(k->iopub_link);
    /* Drop stale replies (to a request that an interrupt gave up on). */
    char buf[64];
    while (zmq_recv(k->stdin_link, buf, sizeof buf, ZMQ_DONTWAIT) >= 0) {
    }
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "prompt", prompt ? prompt : "");
    cJSON_AddBoolToObject(c, "password", password);
    char msg_id[37];
    if (kernel_wire_send(k->stdin_link, k->auth, k->session, k->current->idents,
                         k->current->n_idents, k->current->header_raw, "input_request", c, NULL,
                         msg_id) != 0)
        return NULL;
    for (;;) {
        if (atomic_load(&k->interrupted) || atomic_load(&k->stop)) {
            k->input_interrupted = true;
            return NULL;
        }
        zmq_pollitem_t it = {k->stdin_link, 0, ZMQ_POLLIN, 0};
        if (zmq_poll(&it, 1, KERNEL_POLL_MS) <= 0) continue;
        /* ["parent msg_id", value] */
        zmq_msg_t id, value;
        zmq_msg_init(&id);
        zmq_msg_init(&value);
        if (zmq_msg_recv(&id, k->stdin_link, 0) < 0) {
            zmq_msg_close(&id);
            zmq_msg_close(&value);
            continue;
        }
        bool two = zmq_msg_more(&id) && zmq_msg_recv(&value, k->stdin_link, 0) >= 0;
        while (two && zmq_msg_more(&value)) { /* not ours to send, but be safe */
            zmq_msg_t extra;
            zmq_msg_init(&extra);
            zmq_msg_recv(&extra, k->stdin_link, 0);
            bool more = zmq_msg_more(&extra);
            zmq_msg_close(&extra);
            if (!more) break;
        }
        char *line = NULL;
        if (two && (zmq_msg_size(&id) == 0 ||
                    (zmq_msg_size(&id) == 36 && !memcmp(zmq_msg_data(&id), msg_id, 36)))) {
            size_t n = zmq_msg_size(&value);
            line = malloc(n + 1);
            if (line) {
                memcpy(line, zmq_msg_data(&value), n);
                line[n] = 0;
            }
        } else {
            kernel_log(KERNEL_LOG_INFO, "an input_reply to another request was dropped");
        }
        zmq_msg_close(&id);
        zmq_msg_close(&value);
        if (line) return line;
    }
}

/* The debugger's stops prompt only when the client said it can answer. */
static bool fe_can_read(void *user) {
    const kernel *k = user;
    return k->current && k->allow_stdin;
}

lang_frontend kernel_frontend(kernel *k) {
    lang_frontend fe = {k,           fe_display,   fe_stream,       fe_progress,
                        fe_readline, fe_can_read,  fe_clear_output, fe_debug_event,
                        true,        fe_comm_send, fe_parent_header};
    return fe; /* true: figures after Out[n], as ipykernel */
}

void kernel_interrupt(kernel *k) {
    atomic_store(&k->interrupted, 1);
    if (k->lang) lang_session_interrupt(k->lang);
}

/* ---- execute ---- */

/* The traceback a notebook shows: Python's header, the language's frames
 * (one entry each, without the final newline), then "Name: message". */
static cJSON *traceback_json(const lang_error_info *e) {
    cJSON *tb = cJSON_CreateArray();
    const char *name = e->ename && *e->ename ? e->ename : lang_err_name(e->cls);
    const char *msg = e->evalue ? e->evalue : "";
    if (e->n_traceback > 0 && e->cls != LANG_ERR_SYNTAX && e->traceback[0] &&
        strncmp(e->traceback[0], "Traceback", 9) != 0)
        cJSON_AddItemToArray(tb, cJSON_CreateString("Traceback (most recent call last):"));
    char last[4096];
    snprintf(last, sizeof last, "%s%s%s", name, *msg ? ": " : "", msg);
    bool stated = false;
    for (int i = 0; i < e->n_traceback; i++) {
        const char *t = e->traceback[i] ? e->traceback[i] : "";
        size_t n = strlen(t);
        while (n && t[n - 1] == '\n') n--;
        char *line = malloc(n + 1);
        if (!line) continue;
        memcpy(line, t, n);
        line[n] = 0;
        if (strstr(line, last)) stated = true;
        cJSON_AddItemToArray(tb, cJSON_CreateString(line));
        free(line);
    }
    if (!stated) cJSON_AddItemToArray(tb, cJSON_CreateString(last));
    return tb;
}

static void add_error_fields(cJSON *c, const lang_error_info *e) {
    cJSON_AddStringToObject(c, "ename", e->ename && *e->ename ? e->ename : lang_err_name(e->cls));
    cJSON_AddStringToObject(c, "evalue", e->evalue ? e->evalue : "");
    cJSON_AddItemToObject(c, "traceback", traceback_json(e));
}

/* user_expressions: each evaluated quietly; text/plain bundles back. */
static cJSON *user_expressions(kernel *k, const cJSON *exprs) {
    cJSON *out = cJSON_CreateObject();
    const cJSON *e;
    bool was_silent = k->silent;
    k->silent = true;
    cJSON_ArrayForEach(e, exprs) {
        if (!e->string) continue;
        cJSON *r = cJSON_CreateObject();
        if (!cJSON_IsString(e)) {
            cJSON_AddStringToObject(r, "status", "error");
            cJSON_AddStringToObject(r, "ename", "TypeError");
            cJSON_AddStringToObject(r, "evalue", "a user expression must be a string");
            cJSON_AddArrayToObject(r, "traceback");
        } else {
            lang_result res;
            bool ok = lang_exec(k->lang, e->valuestring, "<user_expression>", true, &res);
            if (ok) {
                cJSON_AddStringToObject(r, "status", "ok");
                cJSON *data = cJSON_AddObjectToObject(r, "data");
                const char *text = res.has_value ? lang_mime_get(&res.value, "text/plain") : NULL;
                cJSON_AddStringToObject(data, "text/plain", text ? text : "None");
                cJSON_AddObjectToObject(r, "metadata");
            } else {
                cJSON_AddStringToObject(r, "status", "error");
                add_error_fields(r, &res.error);
            }
            lang_result_free(&res);
        }
        cJSON_AddItemToObject(out, e->string, r);
    }
    k->silent = was_silent;
    return out;
}

/* stop_on_error: take every request waiting on the shell socket before the
 * error reply goes out, to be answered after it. A client that sent a batch
 * of cells may still have some in flight, so the drain waits until the
 * socket has been quiet for KERNEL_ABORT_GRACE_MS (ipykernel's window is
 * its own dispatch latency). */
static void drain_queued(kernel *k) {
    double until = now_ms() + 10 * KERNEL_ABORT_GRACE_MS;
    for (;;) {
        zmq_pollitem_t it = {k->shell, 0, ZMQ_POLLIN, 0};
        if (now_ms() > until || zmq_poll(&it, 1, KERNEL_ABORT_GRACE_MS) <= 0) return;
        if (k->n_queued == k->cap_queued) {
            int cap = k->cap_queued ? k->cap_queued * 2 : 8;
            kernel_msg *p = realloc(k->queued, sizeof *p * (size_t)cap);
            if (!p) return;
            k->queued = p;
            k->cap_queued = cap;
        }
        int rc = kernel_wire_recv(k->shell, k->auth, &k->queued[k->n_queued]);
        if (rc < 0) return;
        if (rc > 0) k->n_queued++;
    }
}

static void abort_execute(kernel *k, kernel_msg *m) {
    kernel_log(KERNEL_LOG_INFO, "aborting execute_request %s", m->msg_id);
    kernel_publish_status(k, k->iopub_link, m, "busy");
    cJSON *c = cJSON_CreateObject();
    /* No execution_count: the cell never ran, so a notebook keeps showing
     * "In [ ]:" (ipykernel sends none either). */
    cJSON_AddStringToObject(c, "status", "aborted");
    cJSON *md = cJSON_CreateObject();
    cJSON_AddStringToObject(md, "status", "aborted");
    reply(k, k->shell, m, "execute_reply", c, md);
    kernel_publish_status(k, k->iopub_link, m, "idle");
}

/* The language says EOFError when input() gets no line; say why, as
 * ipykernel does (StdinNotImplementedError) or as an interrupt would. */
static void rename_input_error(kernel *k, lang_error_info *e) {
    const char *name = NULL, *msg = NULL;
    if (k->input_interrupted) {
        name = "KeyboardInterrupt", msg = "interrupted while waiting for input";
        e->cls = LANG_ERR_INTERRUPT;
    } else if (k->input_refused) {
        name = "StdinNotImplementedError";
        msg = "input() was called, but this client does not support input requests "
              "(allow_stdin is false)";
    }
    if (!name) return;
    char *n = strdup(name), *m = strdup(msg);
    if (!n || !m) {
        free(n), free(m);
        return;
    }
    free(e->ename);
    free(e->evalue);
    e->ename = n;
    e->evalue = m;
}

static void handle_execute(kernel *k, kernel_msg *m, bool *errored) {
    const char *code = str_field(m, "code");
    if (!code) {
        kernel_log(KERNEL_LOG_WARN, "execute_request %s without code: dropped", m->msg_id);
        return;
    }
    bool silent = bool_field(m, "silent", false);
    bool store = !silent && bool_field(m, "store_history", true);
    bool stop_on_error = bool_field(m, "stop_on_error", true);
    k->silent = silent;
    k->allow_stdin = bool_field(m, "allow_stdin", false);
    int count = k->execution_count + (store ? 1 : 0);
    if (store) k->execution_count = count;
    if (!silent) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "code", code);
        cJSON_AddNumberToObject(c, "execution_count", count);
        kernel_publish(k, k->iopub_link, m, "execute_input", c);
    }
    char filename[48];
    snprintf(filename, sizeof filename, "<cell %d>", count);
    atomic_store(&k->interrupted, 0);
    lang_result res;
    bool ok = lang_exec(k->lang, code, filename, true, &res);
    progress_reset(k);
    if (!ok && res.error.ename && !strcmp(res.error.ename, "EOFError"))
        rename_input_error(k, &res.error);
    k->input_refused = k->input_interrupted = false;

    bool exiting = false;
    if (!ok) {
        int exit_code = 0;
        exiting = lang_session_exit_requested(k->lang, &exit_code) ||
                  (res.error.ename && !strcmp(res.error.ename, "SystemExit"));
    }
    const char *text = ok && res.has_value ? lang_mime_get(&res.value, "text/plain") : NULL;
    if (store) {
        history_add(k, count, code, text);
        lang_session_add_history(k->lang, code);
    }
    cJSON *c = cJSON_CreateObject();
    cJSON *md = cJSON_CreateObject();
    if (ok || exiting) {
        if (ok && res.has_value && !silent) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "execution_count", count);
            cJSON_AddItemToObject(r, "data", bundle_json(&res.value));
            cJSON_AddObjectToObject(r, "metadata");
            kernel_publish(k, k->iopub_link, m, "execute_result", r);
        }
        cJSON_AddStringToObject(c, "status", "ok");
        cJSON_AddNumberToObject(c, "execution_count", count);
        cJSON *payload = cJSON_AddArrayToObject(c, "payload");
        if (exiting) {
            /* exit(): ask the client to close, as IPython's exit does. */
            cJSON *p = cJSON_CreateObject();
            cJSON_AddStringToObject(p, "source", "ask_exit");
            cJSON_AddBoolToObject(p, "keepkernel", false);
            cJSON_AddItemToArray(payload, p);
        }
        const cJSON *ue = field(m, "user_expressions");
        cJSON_AddItemToObject(c, "user_expressions",
                              cJSON_IsObject(ue) ? user_expressions(k, ue) : cJSON_CreateObject());
        cJSON_AddStringToObject(md, "status", "ok");
    } else {
        if (!silent) {
            cJSON *e = cJSON_CreateObject();
            add_error_fields(e, &res.error);
            kernel_publish(k, k->iopub_link, m, "error", e);
        }
        cJSON_AddStringToObject(c, "status", "error");
        cJSON_AddNumberToObject(c, "execution_count", count);
        add_error_fields(c, &res.error);
        cJSON_AddStringToObject(md, "status", "error");
        kernel_log(KERNEL_LOG_DEBUG, "execute %d failed: %s", count, res.error.evalue);
    }
    /* The cell's figures come after its Out[n] or its error, as matplotlib
     * inline's post-execute hook sends them under ipykernel. */
    lang_session_show_deferred(k->lang);
    lang_result_free(&res);
    *errored = !ok && !exiting && stop_on_error && !silent;
    if (*errored) drain_queued(k);
    kernel_link_flush(k->iopub_link);
    reply(k, k->shell, m, "execute_reply", c, md);
    k->silent = false;
    k->allow_stdin = false;
    if (exiting) {
        /* As ipykernel: after the ask_exit reply the kernel stops, and the
         * front end (the notebook server's restarter, jupyter console)
         * starts a fresh one or closes. A session that went on after exit()
         * would be one nobody asked for. */
        kernel_log(KERNEL_LOG_INFO, "exit() ran: the kernel stops");
        k->exit_at_ms = now_ms() + KERNEL_EXIT_GRACE_MS;
    }
}

/* ---- complete, inspect, is_complete ---- */

static void handle_complete(kernel *k, kernel_msg *m) {
    const char *code = str_field(m, "code");
    if (!code) code = "";
    long cursor = int_field(m, "cursor_pos", byte_to_cp(code, strlen(code)));
    size_t at = cp_to_byte(code, cursor), start = at, end = at;
    char **v = lang_complete(k->lang, code, at, &start, &end);
    cJSON *c = cJSON_CreateObject();
    cJSON *matches = cJSON_AddArrayToObject(c, "matches");
    for (int i = 0; v && v[i]; i++) cJSON_AddItemToArray(matches, cJSON_CreateString(v[i]));
    lang_strv_free(v);
    size_t len = strlen(code);
    if (start > len) start = len;
    if (end > len) end = len;
    if (start > end) start = end;
    cJSON_AddNumberToObject(c, "cursor_start", (double)byte_to_cp(code, start));
    cJSON_AddNumberToObject(c, "cursor_end", (double)byte_to_cp(code, end));
    cJSON_AddObjectToObject(c, "metadata");
    cJSON_AddStringToObject(c, "status", "ok");
    reply(k, k->shell, m, "complete_reply", c, NULL);
}

static void handle_inspect(kernel *k, kernel_msg *m) {
    const char *code = str_field(m, "code");
    if (!code) code = "";
    long cursor = int_field(m, "cursor_pos", byte_to_cp(code, strlen(code)));
    long detail = int_field(m, "detail_level", 0);
    char *text = lang_inspect(k->lang, code, cp_to_byte(code, cursor), detail > 0 ? 1 : 0);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddBoolToObject(c, "found", text != NULL);
    cJSON *data = cJSON_AddObjectToObject(c, "data");
    if (text) cJSON_AddStringToObject(data, "text/plain", text);
    cJSON_AddObjectToObject(c, "metadata");
    free(text);
    reply(k, k->shell, m, "inspect_reply", c, NULL);
}

static void handle_is_complete(kernel *k, kernel_msg *m) {
    const char *code = str_field(m, "code");
    cJSON *c = cJSON_CreateObject();
    if (!code) {
        cJSON_AddStringToObject(c, "status", "unknown");
    } else {
        int indent = 0;
        lang_completeness r = lang_is_complete(code, &indent);
        if (r == LANG_COMPLETE) {
            cJSON_AddStringToObject(c, "status", "complete");
        } else if (r == LANG_INVALID) {
            cJSON_AddStringToObject(c, "status", "invalid");
        } else {
            char spaces[128];
            if (indent < 0) indent = 0;
            if (indent > 120) indent = 120;
            memset(spaces, ' ', (size_t)indent);
            spaces[indent] = 0;
            cJSON_AddStringToObject(c, "status", "incomplete");
            cJSON_AddStringToObject(c, "indent", spaces);
        }
    }
    reply(k, k->shell, m, "is_complete_reply", c, NULL);
}

static void handle_shutdown(kernel *k, void *sock, void *link, kernel_msg *m) {
    bool restart = bool_field(m, "restart", false);
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "status", "ok");
    cJSON_AddBoolToObject(c, "restart", restart);
    cJSON *copy = cJSON_Duplicate(c, true);
    reply(k, sock, m, "shutdown_reply", c, NULL);
    /* The same content goes to iopub, so every client learns of it. */
    kernel_publish(k, link, m, "shutdown_reply", copy);
    kernel_log(KERNEL_LOG_INFO, "shutdown requested (restart %s)", restart ? "true" : "false");
    atomic_store(&k->restart, restart);
    atomic_store(&k->stop, 1);
    kernel_interrupt(k);
}

/* ---- dispatch ---- */

static void handle_one(kernel *k, kernel_msg *m, bool *errored) {
    const char *t = m->msg_type;
    if (kernel_log_debug_enabled()) {
        char *s = cJSON_PrintUnformatted(m->content);
        kernel_log(KERNEL_LOG_DEBUG, "shell: %s %s %.300s", t, m->msg_id, s ? s : "");
        free(s);
    }
    k->current = m;
    kernel_publish_status(k, k->iopub_link, m, "busy");
    if (!strcmp(t, "execute_request")) {
        handle_execute(k, m, errored);
    } else if (!strcmp(t, "kernel_info_request")) {
        reply(k, k->shell, m, "kernel_info_reply", kernel_info_content(), NULL);
    } else if (!strcmp(t, "complete_request")) {
        handle_complete(k, m);
    } else if (!strcmp(t, "inspect_request")) {
        handle_inspect(k, m);
    } else if (!strcmp(t, "is_complete_request")) {
        handle_is_complete(k, m);
    } else if (!strcmp(t, "history_request")) {
        handle_history(k, m);
    } else if (!strcmp(t, "comm_info_request")) {
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "status", "ok");
        char *info = k->lang ? lang_session_comm_info(k->lang, str_field(m, "target_name")) : NULL;
        cJSON *comms = info ? cJSON_Parse(info) : NULL;
        free(info);
        cJSON_AddItemToObject(c, "comms", cJSON_IsObject(comms) ? comms : cJSON_CreateObject());
        if (comms && !cJSON_IsObject(comms)) cJSON_Delete(comms);
        reply(k, k->shell, m, "comm_info_reply", c, NULL);
    } else if (!strcmp(t, "comm_open") || !strcmp(t, "comm_msg") || !strcmp(t, "comm_close")) {
        /* To the session's comm manager (nndb/comm.py); a comm_open for a
         * target nobody registered is answered by closing it, as ipykernel
         * does. */
        const char *id = str_field(m, "comm_id");
        char *content = cJSON_PrintUnformatted(m->content);
        bool taken = k->lang && content && lang_session_comm(k->lang, t, content);
        free(content);
        if (!strcmp(t, "comm_open") && id && !taken) {
            cJSON *c = cJSON_CreateObject();
            cJSON_AddStringToObject(c, "comm_id", id);
            cJSON_AddObjectToObject(c, "data");
            kernel_publish(k, k->iopub_link, m, "comm_close", c);
            kernel_log(KERNEL_LOG_DEBUG, "comm_open %s: no such target, closed", id);
        }
    } else if (!strcmp(t, "shutdown_request")) {
        kernel_link_flush(k->iopub_link);
        handle_shutdown(k, k->shell, k->iopub_link, m);
    } else if (!strcmp(t, "interrupt_request")) {
        /* Belongs on control; answer it here too. */
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "status", "ok");
        reply(k, k->shell, m, "interrupt_reply", c, NULL);
    } else {
        kernel_log(KERNEL_LOG_WARN, "unknown message type '%s' on shell: ignored", t);
    }
    kernel_publish_status(k, k->iopub_link, m, "idle");
    k->current = NULL;
}

bool kernel_exit_due(const kernel *k) {
    return k->exit_at_ms > 0 && now_ms() >= k->exit_at_ms;
}

/* A cell that arrives after exit() ran, while the kernel stops: it does
 * not run, and says why in the notebook (an error, not a silent abort). */
static void refuse_after_exit(kernel *k, kernel_msg *m) {
    kernel_log(KERNEL_LOG_INFO, "execute_request %s after exit(): refused", m->msg_id);
    kernel_publish_status(k, k->iopub_link, m, "busy");
    static const char *const why = "the kernel is stopping: exit() ran, so this cell did not run. "
                                   "Restart the kernel to go on.";
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "ename", "KernelExiting");
    cJSON_AddStringToObject(e, "evalue", why);
    cJSON *tb = cJSON_AddArrayToObject(e, "traceback");
    char line[256];
    snprintf(line, sizeof line, "KernelExiting: %s", why);
    cJSON_AddItemToArray(tb, cJSON_CreateString(line));
    if (!bool_field(m, "silent", false))
        kernel_publish(k, k->iopub_link, m, "error", cJSON_Duplicate(e, true));
    cJSON_AddStringToObject(e, "status", "error");
    cJSON *md = cJSON_CreateObject();
    cJSON_AddStringToObject(md, "status", "error");
    reply(k, k->shell, m, "execute_reply", e, md);
    kernel_publish_status(k, k->iopub_link, m, "idle");
}

void kernel_shell_handle(kernel *k, kernel_msg *m) {
    bool errored = false;
    if (k->exit_at_ms > 0 && !strcmp(m->msg_type, "execute_request")) {
        refuse_after_exit(k, m);
        return;
    }
    handle_one(k, m, &errored);
    if (!errored) return;
    /* Executes queued before the error reply are aborted; the rest run.
     * Nothing more is drained meanwhile (an abort never errors). */
    kernel_msg *q = k->queued;
    int n = k->n_queued;
    k->queued = NULL;
    k->n_queued = k->cap_queued = 0;
    for (int i = 0; i < n; i++) {
        if (!strcmp(q[i].msg_type, "execute_request")) {
            abort_execute(k, &q[i]);
        } else {
            bool ignored = false;
            handle_one(k, &q[i], &ignored);
        }
        kernel_msg_free(&q[i]);
    }
    free(q);
}

/* ---- control (its own thread: never touches the language but to
 * interrupt it) ---- */

/* debug_request (the Jupyter debug protocol): the DAP request goes to the
 * session, which answers from this thread even while the shell thread is
 * stopped at a breakpoint; its events follow the reply on iopub. */
static void handle_debug(kernel *k, void *control, void *link, kernel_msg *m) {
    char *text = m->content ? cJSON_PrintUnformatted(m->content) : NULL;
    char *events = NULL;
    char *out = text && k->lang ? lang_session_debug_request(k->lang, text, &events) : NULL;
    cJSON *c = out ? cJSON_Parse(out) : NULL;
    if (!c) {
        c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "type", "response");
        cJSON_AddBoolToObject(c, "success", false);
        cJSON_AddStringToObject(c, "message", "the debugger could not answer this request");
    }
    reply(k, control, m, "debug_reply", c, NULL);
    cJSON *ev = events ? cJSON_Parse(events) : NULL, *e;
    cJSON_ArrayForEach(e, ev) {
        kernel_publish(k, link, m, "debug_event", cJSON_Duplicate(e, true));
    }
    cJSON_Delete(ev);
    free(events);
    free(out);
    free(text);
}

void kernel_control_handle(kernel *k, void *control, void *link, kernel_msg *m) {
    const char *t = m->msg_type;
    kernel_log(KERNEL_LOG_DEBUG, "control: %s %s", t, m->msg_id);
    kernel_publish_status(k, link, m, "busy");
    if (!strcmp(t, "kernel_info_request")) {
        reply(k, control, m, "kernel_info_reply", kernel_info_content(), NULL);
    } else if (!strcmp(t, "interrupt_request")) {
        kernel_log(KERNEL_LOG_INFO, "interrupt_request");
        kernel_interrupt(k);
        cJSON *c = cJSON_CreateObject();
        cJSON_AddStringToObject(c, "status", "ok");
        reply(k, control, m, "interrupt_reply", c, NULL);
    } else if (!strcmp(t, "shutdown_request")) {
        handle_shutdown(k, control, link, m);
    } else if (!strcmp(t, "debug_request")) {
        handle_debug(k, control, link, m);
    } else {
        kernel_log(KERNEL_LOG_WARN, "unknown message type '%s' on control: ignored", t);
    }
    kernel_publish_status(k, link, m, "idle");
}
