/* kernel_conn: the connection file Jupyter hands a kernel (-f FILE): where
 * to bind the five sockets and how to sign messages.
 *
 * Ownership: kernel_conn_load fills a caller's struct with malloc'ed
 * strings; kernel_conn_free releases them.
 */
#ifndef KERNEL_CONN_H
#define KERNEL_CONN_H

#include <stdbool.h>
#include <stddef.h>

typedef enum kernel_channel {
    KERNEL_SHELL,
    KERNEL_IOPUB,
    KERNEL_STDIN,
    KERNEL_CONTROL,
    KERNEL_HB,
    KERNEL_N_CHANNELS
} kernel_channel;

typedef struct kernel_conn {
    char *transport; /* "tcp" or "ipc" */
    char *ip;
    int port[KERNEL_N_CHANNELS];
    char *key;              /* "" when messages are not signed */
    char *signature_scheme; /* "hmac-sha256" */
    char *kernel_name;      /* may be "" */
} kernel_conn;

/* Parse the connection file at [path]. Returns false and fills [err]. */
bool kernel_conn_load(const char *path, kernel_conn *c, char *err, size_t errsz);
/* Parse connection JSON text of [len] bytes. */
bool kernel_conn_parse(const char *text, size_t len, kernel_conn *c, char *err, size_t errsz);
void kernel_conn_free(kernel_conn *c);
/* The ZeroMQ endpoint of [ch] ("tcp://127.0.0.1:5555", "ipc://path-5555"). */
void kernel_conn_endpoint(const kernel_conn *c, kernel_channel ch, char *out, size_t size);
const char *kernel_channel_name(kernel_channel ch);

#endif
