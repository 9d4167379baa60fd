#include "nn_error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

nn_status nn_error_setv(nn_error *err, nn_status code, const char *fmt, va_list ap) {
    if (err) {
        err->code = code;
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    }
    return code;
}

nn_status nn_error_set(nn_error *err, nn_status code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    nn_error_setv(err, code, fmt, ap);
    va_end(ap);
    return code;
}

void nn_error_clear(nn_error *err) {
    if (err) {
        err->code = NN_OK;
        err->msg[0] = '\0';
    }
}

const char *nn_status_name(nn_status code) {
    switch (code) {
    case NN_OK: return "OK";
    case NN_ERR_SHAPE: return "ShapeError";
    case NN_ERR_INDEX: return "IndexError";
    case NN_ERR_TYPE: return "TypeError";
    case NN_ERR_VALUE: return "ValueError";
    case NN_ERR_MEMORY: return "MemoryError";
    case NN_ERR_RUNTIME: return "RuntimeError";
    case NN_ERR_IO: return "IOError";
    case NN_ERR_INTERRUPT: return "KeyboardInterrupt";
    case NN_ERR_STOPPED: return "Stopped";
    case NN_ERR_NOT_IMPLEMENTED: return "NotImplementedError";
    }
    return "Error";
}

char *nn_shape_str(char *buf, int bufsize, int ndim, const int64_t *shape) {
    int n = snprintf(buf, (size_t)bufsize, "[");
    for (int i = 0; i < ndim && n < bufsize; i++)
        n += snprintf(buf + n, (size_t)(bufsize - n), "%s%" PRId64, i ? ", " : "", shape[i]);
    if (n < bufsize) snprintf(buf + n, (size_t)(bufsize - n), "]");
    return buf;
}

void nn_assert_fail(const char *expr, const char *file, int line) {
    fprintf(stderr, "nndb: internal error: assertion '%s' failed at %s:%d\n", expr, file, line);
    abort();
}
