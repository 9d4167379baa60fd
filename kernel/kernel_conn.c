/* kernel_conn: reads the Jupyter connection file. See kernel_conn.h. */
#include "kernel_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static const char *const port_names[KERNEL_N_CHANNELS] = {"shell_port", "iopub_port", "stdin_port",
                                                          "control_port", "hb_port"};

const char *kernel_channel_name(kernel_channel ch) {
    static const char *const names[KERNEL_N_CHANNELS] = {"shell", "iopub", "stdin", "control",
                                                         "heartbeat"};
    return ch < KERNEL_N_CHANNELS ? names[ch] : "?";
}

static char *dup_field(const cJSON *root, const char *name, const char *dflt) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, name);
    return strdup(cJSON_IsString(v) ? v->valuestring : dflt);
}

bool kernel_conn_parse(const char *text, size_t len, kernel_conn *c, char *err, size_t errsz) {
    memset(c, 0, sizeof *c);
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(root)) {
        snprintf(err, errsz, "the connection file is not a JSON object");
        cJSON_Delete(root);
        return false;
    }
    c->transport = dup_field(root, "transport", "tcp");
    c->ip = dup_field(root, "ip", "127.0.0.1");
    c->key = dup_field(root, "key", "");
    c->signature_scheme = dup_field(root, "signature_scheme", "hmac-sha256");
    c->kernel_name = dup_field(root, "kernel_name", "");
    bool ok = c->transport && c->ip && c->key && c->signature_scheme && c->kernel_name;
    if (!ok) snprintf(err, errsz, "out of memory");
    for (int i = 0; ok && i < KERNEL_N_CHANNELS; i++) {
        const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, port_names[i]);
        if (!cJSON_IsNumber(p) || p->valuedouble < 0 || p->valuedouble > 65535) {
            snprintf(err, errsz, "the connection file has no valid %s", port_names[i]);
            ok = false;
        } else {
            c->port[i] = p->valueint;
        }
    }
    if (ok && strcmp(c->transport, "tcp") != 0 && strcmp(c->transport, "ipc") != 0) {
        snprintf(err, errsz, "unknown transport '%s'", c->transport);
        ok = false;
    }
    cJSON_Delete(root);
    if (!ok) kernel_conn_free(c);
    return ok;
}

bool kernel_conn_load(const char *path, kernel_conn *c, char *err, size_t errsz) {
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsz, "cannot open the connection file %s", path);
        return false;
    }
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    bool too_big = !feof(f);
    fclose(f);
    if (too_big) {
        snprintf(err, errsz, "the connection file %s is over 64 KB", path);
        return false;
    }
    return kernel_conn_parse(buf, n, c, err, errsz);
}

void kernel_conn_free(kernel_conn *c) {
    if (!c) return;
    free(c->transport);
    free(c->ip);
    free(c->key);
    free(c->signature_scheme);
    free(c->kernel_name);
    memset(c, 0, sizeof *c);
}

void kernel_conn_endpoint(const kernel_conn *c, kernel_channel ch, char *out, size_t size) {
    if (!strcmp(c->transport, "ipc"))
        snprintf(out, size, "ipc://%s-%d", c->ip, c->port[ch]);
    else
        snprintf(out, size, "tcp://%s:%d", c->ip, c->port[ch]);
}
