/* kernel_wire: Jupyter wire-protocol messages (messaging protocol 5.3) to and
 * from ZeroMQ frames, their HMAC signatures, and the kernel's stderr log.
 *
 * A message on the wire is [identities..., "<IDS|MSG>", signature, header,
 * parent_header, metadata, content, buffers...]. The signature is the hex
 * HMAC (hmac-sha256 unless the connection file names another digest) of the
 * four JSON frames exactly as they travel; an empty key means no signing.
 *
 * Ownership: a kernel_auth owns its key and the set of signatures already
 * seen (shared by the socket threads; verification takes its mutex). A
 * kernel_msg owns its identities, its raw header text and its parsed JSON;
 * free it with kernel_msg_free. Sending functions take over the cJSON
 * objects they are given.
 */
#ifndef KERNEL_WIRE_H
#define KERNEL_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#define KERNEL_PROTOCOL_VERSION "5.3"
/* Largest message accepted, all frames together (10 MB of code is fine). */
#define KERNEL_MAX_MSG_BYTES (64u << 20)
/* Most frames in one message (identities + 5 + buffers). */
#define KERNEL_MAX_FRAMES 64
/* Signatures remembered against replays (the oldest is forgotten first). */
#define KERNEL_REPLAY_WINDOW 65536

/* ---- log (stderr; the Jupyter server captures it) ---- */
typedef enum kernel_log_level {
    KERNEL_LOG_DEBUG,
    KERNEL_LOG_INFO,
    KERNEL_LOG_WARN,
    KERNEL_LOG_ERROR
} kernel_log_level;

/* Debug lines appear only when NNDB_KERNEL_DEBUG is set (non-empty, not 0). */
void kernel_log(kernel_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool kernel_log_debug_enabled(void);

/* ---- signing ---- */
typedef struct kernel_auth kernel_auth;

/* [scheme] "hmac-sha256" (NULL or "" means that); [key] NULL or "" turns
 * signing off. Returns NULL and fills [err] when the digest is unknown. */
kernel_auth *kernel_auth_new(const char *scheme, const char *key, char *err, size_t errsz);
void kernel_auth_free(kernel_auth *a);
bool kernel_auth_signing(const kernel_auth *a);
/* Hex signature of the four frames into [hex] (at least 129 bytes); "" when
 * signing is off. Thread-safe. */
void kernel_auth_sign(const kernel_auth *a, const char *const parts[4], const size_t lens[4],
                      char *hex);

/* ---- decoding ---- */
typedef struct kernel_frame {
    const void *data;
    size_t len;
} kernel_frame;

typedef struct kernel_msg {
    int n_idents;
    kernel_frame *idents; /* owned copies */
    char *header_raw;     /* the header frame as received, NUL-terminated */
    cJSON *header, *parent, *metadata, *content;
    const char *msg_type, *msg_id; /* borrowed from header */
} kernel_msg;

/* Split, verify (signature, replay) and parse [n] frames into [out].
 * Returns false and fills [err] for a message to drop; [out] is then empty. */
bool kernel_wire_decode(kernel_auth *a, const kernel_frame *frames, int n, kernel_msg *out,
                        char *err, size_t errsz);
void kernel_msg_free(kernel_msg *m);

/* Receive one multipart message from [sock] and decode it. Returns 1 for a
 * message, 0 for one dropped (logged, [out] empty), -1 when the socket
 * failed (ETERM, EINTR...). */
int kernel_wire_recv(void *sock, kernel_auth *a, kernel_msg *out);

/* ---- encoding ---- */

/* Sign and send a message of [msg_type] on [sock], routed by [idents] (the
 * request's identities, or an iopub topic; may be NULL/0). [parent_raw] is
 * the parent's header JSON as received, or NULL for {}. Takes over
 * [content] and [metadata] (NULL means {}). Writes the new msg_id into
 * [msg_id_out] (37 bytes) when not NULL. Returns 0, or -1 on a send error. */
int kernel_wire_send(void *sock, const kernel_auth *a, const char *session,
                     const kernel_frame *idents, int n_idents, const char *parent_raw,
                     const char *msg_type, cJSON *content, cJSON *metadata, char *msg_id_out);

/* A fresh random UUID, lower-case with dashes, into [out] (37 bytes). */
void kernel_uuid(char *out);
/* The current UTC time as ISO 8601 with microseconds, into [out] (40 bytes). */
void kernel_now_iso(char *out);

#endif
