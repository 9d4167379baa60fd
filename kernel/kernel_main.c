/* kernel_main: the kernel process and its socket threads. See kernel_main.h
 * and, for who owns which socket, kernel_handlers.h. */
#include "kernel_main.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <zmq.h>

#include "drill.h"
#include "kernel_conn.h"
#include "kernel_handlers.h"

/* The kernel the SIGINT handler interrupts. */
static kernel *volatile g_kernel;

static void on_sigint(int sig) {
    (void)sig;
    kernel *k = g_kernel;
    if (k) kernel_interrupt(k); /* atomics only: async-signal-safe */
}

/* ---- the iopub thread: forwards from the links, coalesces streams ---- */

typedef struct stream_buf {
    char *parent;
    char name[8];
    char *text;
    size_t len, cap;
    double since_ms;
} stream_buf;

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void stream_flush(kernel *k, void *pub, stream_buf *b) {
    if (!b->parent) return;
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "name", b->name);
    /* cJSON wants a NUL-terminated string; text holds len bytes. */
    b->text[b->len] = 0;
    cJSON_AddStringToObject(c, "text", b->text);
    char topic[96];
    snprintf(topic, sizeof topic, "kernel.%s.stream", k->session);
    kernel_frame t = {topic, strlen(topic)};
    kernel_wire_send(pub, k->auth, k->session, &t, 1, b->parent, "stream", c, NULL, NULL);
    free(b->parent);
    b->parent = NULL;
    b->len = 0;
}

static void stream_add(kernel *k, void *pub, stream_buf *b, zmq_msg_t *parts) {
    const char *parent = zmq_msg_data(&parts[1]), *name = zmq_msg_data(&parts[2]);
    size_t plen = zmq_msg_size(&parts[1]), nlen = zmq_msg_size(&parts[2]);
    size_t tlen = zmq_msg_size(&parts[3]);
    if (nlen >= sizeof b->name) return;
    if (b->parent && (strlen(b->parent) != plen || memcmp(b->parent, parent, plen) != 0 ||
                      strlen(b->name) != nlen || memcmp(b->name, name, nlen) != 0))
        stream_flush(k, pub, b);
    if (b->len + tlen + 1 > b->cap) {
        size_t cap = (b->len + tlen + 1) * 2;
        char *p = realloc(b->text, cap);
        if (!p) return;
        b->text = p;
        b->cap = cap;
    }
    if (!b->parent) {
        b->parent = malloc(plen + 1);
        if (!b->parent) return;
        memcpy(b->parent, parent, plen);
        b->parent[plen] = 0;
        memcpy(b->name, name, nlen);
        b->name[nlen] = 0;
        b->since_ms = mono_ms();
    }
    memcpy(b->text + b->len, zmq_msg_data(&parts[3]), tlen);
    b->len += tlen;
    if (b->len > (1u << 20)) stream_flush(k, pub, b);
}

typedef struct iopub_args {
    kernel *k;
    void *pub, *links[2];
} iopub_args;

static void *iopub_thread(void *arg) {
    iopub_args *a = arg;
    stream_buf sb = {0};
    bool quit = false;
    while (!quit) {
        long timeout = -1;
        if (sb.parent) {
            double left = sb.since_ms + KERNEL_STREAM_DELAY_MS - mono_ms();
            timeout = left > 0 ? (long)left + 1 : 0;
        }
        zmq_pollitem_t items[2] = {{a->links[0], 0, ZMQ_POLLIN, 0},
                                   {a->links[1], 0, ZMQ_POLLIN, 0}};
        int rc = zmq_poll(items, 2, timeout);
        if (rc < 0 && errno != EINTR) break;
        if (sb.parent && mono_ms() - sb.since_ms >= KERNEL_STREAM_DELAY_MS)
            stream_flush(a->k, a->pub, &sb);
        for (int i = 0; i < 2 && rc > 0; i++) {
            if (!(items[i].revents & ZMQ_POLLIN)) continue;
            /* Everything waiting on this link, in order. */
            while (!quit) {
                zmq_msg_t parts[KERNEL_MAX_FRAMES + 8];
                int n = 0;
                bool more = true, dropped = false;
                if (zmq_poll(&items[i], 1, 0) <= 0) break;
                while (more) {
                    zmq_msg_t m;
                    zmq_msg_init(&m);
                    if (zmq_msg_recv(&m, a->links[i], 0) < 0) {
                        zmq_msg_close(&m);
                        break;
                    }
                    more = zmq_msg_more(&m);
                    if (n < KERNEL_MAX_FRAMES + 8)
                        parts[n++] = m;
                    else
                        zmq_msg_close(&m), dropped = true;
                }
                if (n == 1 && zmq_msg_size(&parts[0]) == 1) {
                    char c = *(char *)zmq_msg_data(&parts[0]);
                    stream_flush(a->k, a->pub, &sb);
                    if (c == KERNEL_LINK_FLUSH[0]) zmq_send(a->links[i], KERNEL_LINK_FLUSH, 1, 0);
                    if (c == KERNEL_LINK_QUIT[0]) quit = true;
                } else if (n == 4 && zmq_msg_size(&parts[0]) == 1 &&
                           *(char *)zmq_msg_data(&parts[0]) == KERNEL_LINK_STREAM[0]) {
                    stream_add(a->k, a->pub, &sb, parts);
                } else if (!dropped) {
                    stream_flush(a->k, a->pub, &sb);
                    for (int j = 0; j < n; j++)
                        zmq_msg_send(&parts[j], a->pub, j < n - 1 ? ZMQ_SNDMORE : 0);
                }
                for (int j = 0; j < n; j++) zmq_msg_close(&parts[j]);
            }
        }
    }
    stream_flush(a->k, a->pub, &sb);
    free(sb.text);
    free(sb.parent);
    return NULL;
}

/* ---- heartbeat: echo every message back ---- */

typedef struct hb_args {
    kernel *k;
    void *hb;
} hb_args;

static void *hb_thread(void *arg) {
    hb_args *a = arg;
    while (!atomic_load(&a->k->stop)) {
        zmq_pollitem_t it = {a->hb, 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&it, 1, KERNEL_POLL_MS);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        bool more = true;
        while (more) {
            zmq_msg_t m;
            zmq_msg_init(&m);
            if (zmq_msg_recv(&m, a->hb, 0) < 0) {
                zmq_msg_close(&m);
                break;
            }
            more = zmq_msg_more(&m);
            if (zmq_msg_send(&m, a->hb, more ? ZMQ_SNDMORE : 0) < 0) zmq_msg_close(&m);
        }
    }
    return NULL;
}

/* ---- control ---- */

typedef struct control_args {
    kernel *k;
    void *control, *link;
} control_args;

/* jupyter_client names itself in JPY_PARENT_PID; when it dies without a
 * shutdown_request the kernel is reparented and follows it, as ipykernel's
 * parent poller does (no orphan kernels after a crashed client). */
static bool parent_gone(long parent) {
    return parent > 0 && (long)getppid() != parent;
}

static void *control_thread(void *arg) {
    control_args *a = arg;
    const char *env = getenv("JPY_PARENT_PID");
    long parent = env ? strtol(env, NULL, 10) : 0;
    if (parent_gone(parent)) parent = 0; /* started by something else */
    while (!atomic_load(&a->k->stop)) {
        if (parent_gone(parent)) {
            kernel_log(KERNEL_LOG_WARN, "the parent process %ld is gone: shutting down", parent);
            atomic_store(&a->k->stop, 1);
            kernel_interrupt(a->k);
            break;
        }
        zmq_pollitem_t it = {a->control, 0, ZMQ_POLLIN, 0};
        int rc = zmq_poll(&it, 1, KERNEL_POLL_MS);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        kernel_msg m;
        rc = kernel_wire_recv(a->control, a->k->auth, &m);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        kernel_control_handle(a->k, a->control, a->link, &m);
        kernel_msg_free(&m);
    }
    return NULL;
}

/* ---- stdin: input_request out, input_reply back to the shell thread ---- */

typedef struct stdin_args {
    kernel *k;
    void *router, *link;
} stdin_args;

static void forward_all(void *from, void *to) {
    bool more = true;
    while (more) {
        zmq_msg_t m;
        zmq_msg_init(&m);
        if (zmq_msg_recv(&m, from, 0) < 0) {
            zmq_msg_close(&m);
            return;
        }
        more = zmq_msg_more(&m);
        if (zmq_msg_send(&m, to, more ? ZMQ_SNDMORE : 0) < 0) zmq_msg_close(&m);
    }
}

static void *stdin_thread(void *arg) {
    stdin_args *a = arg;
    while (!atomic_load(&a->k->stop)) {
        zmq_pollitem_t items[2] = {{a->router, 0, ZMQ_POLLIN, 0}, {a->link, 0, ZMQ_POLLIN, 0}};
        int rc = zmq_poll(items, 2, KERNEL_POLL_MS);
        if (rc < 0 && errno != EINTR) break;
        if (rc <= 0) continue;
        if (items[1].revents & ZMQ_POLLIN) forward_all(a->link, a->router);
        if (!(items[0].revents & ZMQ_POLLIN)) continue;
        kernel_msg m;
        if (kernel_wire_recv(a->router, a->k->auth, &m) <= 0) continue;
        const cJSON *pid = cJSON_GetObjectItemCaseSensitive(m.parent, "msg_id");
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(m.content, "value");
        if (strcmp(m.msg_type, "input_reply") != 0) {
            kernel_log(KERNEL_LOG_WARN, "unexpected '%s' on stdin: ignored", m.msg_type);
        } else {
            const char *v = cJSON_IsString(value) ? value->valuestring : "";
            /* jupyter_client's KernelClient.input() sends no parent: the
             * shell then takes the reply as its pending request's. */
            const char *id = cJSON_IsString(pid) ? pid->valuestring : "";
            zmq_send(a->link, id, strlen(id), ZMQ_SNDMORE);
            zmq_send(a->link, v, strlen(v), 0);
        }
        kernel_msg_free(&m);
    }
    return NULL;
}

/* ---- setup ---- */

static void *open_socket(void *zctx, int type) {
    void *s = zmq_socket(zctx, type);
    if (!s) return NULL;
    int linger = 1000;
    zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
    int64_t max = KERNEL_MAX_MSG_BYTES;
    if (type == ZMQ_ROUTER || type == ZMQ_REP) zmq_setsockopt(s, ZMQ_MAXMSGSIZE, &max, sizeof max);
    if (type == ZMQ_ROUTER) {
        int one = 1;
        zmq_setsockopt(s, ZMQ_ROUTER_HANDOVER, &one, sizeof one);
    }
    if (type == ZMQ_PUB) {
        int hwm = 100000;
        zmq_setsockopt(s, ZMQ_SNDHWM, &hwm, sizeof hwm);
    }
    return s;
}

static int usage(void) {
    fprintf(stderr, "usage: nndb kernel -f CONNECTION_FILE\n"
                    "  (Jupyter starts it from the kernelspec; see nndb install-kernel)\n");
    return 2;
}

static const char *connection_file_arg(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if ((!strcmp(s, "-f") || !strcmp(s, "--f") || !strcmp(s, "--connection-file")) &&
            i + 1 < argc)
            return argv[i + 1];
        if (!strncmp(s, "-f=", 3)) return s + 3;
        if (!strncmp(s, "--f=", 4)) return s + 4;
        if (!strncmp(s, "--connection-file=", 18)) return s + 18;
    }
    return NULL;
}

int kernel_main(int argc, char **argv) {
    const char *path = connection_file_arg(argc, argv);
    if (!path) return usage();
    char err[256];
    kernel_conn conn;
    if (!kernel_conn_load(path, &conn, err, sizeof err)) {
        kernel_log(KERNEL_LOG_ERROR, "%s", err);
        return 1;
    }
    static kernel k; /* the signal handler reaches it through g_kernel */
    memset(&k, 0, sizeof k);
    int status = 1;
    k.auth = kernel_auth_new(conn.signature_scheme, conn.key, err, sizeof err);
    if (!k.auth) {
        kernel_log(KERNEL_LOG_ERROR, "%s", err);
        kernel_conn_free(&conn);
        return 1;
    }
    if (!kernel_auth_signing(k.auth))
        kernel_log(KERNEL_LOG_WARN, "the connection file has no key: messages are not signed");
    kernel_uuid(k.session);
    k.zctx = zmq_ctx_new();

    static const int types[KERNEL_N_CHANNELS] = {ZMQ_ROUTER, ZMQ_PUB, ZMQ_ROUTER, ZMQ_ROUTER,
                                                 ZMQ_REP};
    void *sock[KERNEL_N_CHANNELS] = {0};
    void *iopub_shell = NULL, *iopub_control = NULL, *stdin_peer = NULL, *control_link = NULL;
    bool ok = k.zctx != NULL;
    for (int i = 0; ok && i < KERNEL_N_CHANNELS; i++) {
        char ep[512];
        kernel_conn_endpoint(&conn, (kernel_channel)i, ep, sizeof ep);
        sock[i] = open_socket(k.zctx, types[i]);
        if (!sock[i] || zmq_bind(sock[i], ep) != 0) {
            kernel_log(KERNEL_LOG_ERROR, "cannot bind the %s socket to %s: %s",
                       kernel_channel_name((kernel_channel)i), ep, zmq_strerror(errno));
            ok = false;
        }
    }
    /* The inproc links: iopub's end binds, the other end connects. */
    char name[96];
    if (ok) {
        iopub_shell = open_socket(k.zctx, ZMQ_PAIR);
        iopub_control = open_socket(k.zctx, ZMQ_PAIR);
        k.iopub_link = open_socket(k.zctx, ZMQ_PAIR);
        control_link = open_socket(k.zctx, ZMQ_PAIR);
        stdin_peer = open_socket(k.zctx, ZMQ_PAIR);
        k.stdin_link = open_socket(k.zctx, ZMQ_PAIR);
        snprintf(name, sizeof name, "inproc://iopub-shell-%s", k.session);
        ok = ok && !zmq_bind(iopub_shell, name) && !zmq_connect(k.iopub_link, name);
        snprintf(name, sizeof name, "inproc://iopub-control-%s", k.session);
        ok = ok && !zmq_bind(iopub_control, name) && !zmq_connect(control_link, name);
        snprintf(name, sizeof name, "inproc://stdin-%s", k.session);
        ok = ok && !zmq_bind(stdin_peer, name) && !zmq_connect(k.stdin_link, name);
        if (!ok) kernel_log(KERNEL_LOG_ERROR, "cannot link the threads: %s", zmq_strerror(errno));
    }
    lang_frontend fe = kernel_frontend(&k);
    if (ok) {
        k.lang = lang_session_new(&fe);
        if (k.lang && !drill_install(k.lang)) {
            lang_session_free(k.lang);
            k.lang = NULL;
        }
        if (!k.lang) {
            kernel_log(KERNEL_LOG_ERROR, "cannot create the language session");
            ok = false;
        }
    }
    k.shell = sock[KERNEL_SHELL];

    pthread_t th[4];
    int started = 0;
    iopub_args ia = {&k, sock[KERNEL_IOPUB], {iopub_shell, iopub_control}};
    hb_args ha = {&k, sock[KERNEL_HB]};
    control_args ca = {&k, sock[KERNEL_CONTROL], control_link};
    stdin_args sa = {&k, sock[KERNEL_STDIN], stdin_peer};
    if (ok) {
        /* SIGINT goes to the shell thread only (the others block it), and
         * its handler only sets flags. */
        struct sigaction sa_int;
        memset(&sa_int, 0, sizeof sa_int);
        sa_int.sa_handler = on_sigint;
        sigemptyset(&sa_int.sa_mask);
        sa_int.sa_flags = SA_RESTART;
        g_kernel = &k;
        sigaction(SIGINT, &sa_int, NULL);
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        void *(*fns[4])(void *) = {iopub_thread, hb_thread, control_thread, stdin_thread};
        void *args[4] = {&ia, &ha, &ca, &sa};
        for (int i = 0; i < 4; i++) {
            if (pthread_create(&th[i], NULL, fns[i], args[i]) != 0) {
                kernel_log(KERNEL_LOG_ERROR, "cannot start a thread");
                ok = false;
                break;
            }
            started++;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }

    if (ok) {
        kernel_log(KERNEL_LOG_INFO, "nndb kernel %s started (session %s, %s)", KERNEL_VERSION,
                   k.session, path);
        kernel_publish_status(&k, k.iopub_link, NULL, "starting");
        while (!atomic_load(&k.stop)) {
            if (kernel_exit_due(&k)) break;
            zmq_pollitem_t it = {k.shell, 0, ZMQ_POLLIN, 0};
            int rc = zmq_poll(&it, 1, KERNEL_POLL_MS);
            if (rc < 0 && errno != EINTR) break;
            if (rc <= 0) continue;
            kernel_msg m;
            rc = kernel_wire_recv(k.shell, k.auth, &m);
            if (rc < 0 && errno != EINTR) break;
            if (rc <= 0) continue;
            kernel_shell_handle(&k, &m);
            kernel_msg_free(&m);
        }
        status = 0;
    }

    /* Shutdown: the threads see stop; iopub is told last, after the others
     * have said all they had to say. */
    atomic_store(&k.stop, 1);
    for (int i = 1; i < started; i++) pthread_join(th[i], NULL);
    if (started > 0) {
        kernel_link_flush(k.iopub_link);
        zmq_send(k.iopub_link, KERNEL_LINK_QUIT, 1, 0);
        pthread_join(th[0], NULL);
    }
    g_kernel = NULL;
    signal(SIGINT, SIG_DFL);
    void *links[] = {iopub_shell,  iopub_control, k.iopub_link,
                     control_link, stdin_peer,    k.stdin_link};
    for (size_t i = 0; i < sizeof links / sizeof *links; i++)
        if (links[i]) zmq_close(links[i]);
    for (int i = 0; i < KERNEL_N_CHANNELS; i++)
        if (sock[i]) zmq_close(sock[i]);
    if (k.zctx) zmq_ctx_term(k.zctx);
    lang_session_free(k.lang);
    kernel_history_free(&k);
    kernel_auth_free(k.auth);
    kernel_conn_free(&conn);
    kernel_log(KERNEL_LOG_INFO, "nndb kernel stopped%s",
               atomic_load(&k.restart) ? " (restart)" : "");
    return status;
}
