/* nn_error: the engine's user-error channel.
 *
 * Errors caused by user input are values: a function that can fail returns a
 * status (or NULL) and fills an nn_error with a code and a message. Nothing
 * here allocates; an nn_error is a plain struct the caller owns. Programmer
 * errors (broken invariants) go through NN_ASSERT, which names file and line.
 */
#ifndef NN_ERROR_H
#define NN_ERROR_H

#include <stdarg.h>
#include <stdint.h>

typedef enum nn_status {
    NN_OK = 0,
    NN_ERR_SHAPE,           /* shapes do not fit together */
    NN_ERR_INDEX,           /* index or dim out of range */
    NN_ERR_TYPE,            /* wrong dtype or kind of argument */
    NN_ERR_VALUE,           /* an argument has a bad value */
    NN_ERR_MEMORY,          /* above the allocation cap, or malloc failed */
    NN_ERR_RUNTIME,         /* autograd misuse and other runtime errors */
    NN_ERR_IO,              /* files: missing, truncated, malformed */
    NN_ERR_INTERRUPT,       /* the interrupt flag was raised between nodes */
    NN_ERR_STOPPED,         /* a hook asked to stop the pass */
    NN_ERR_NOT_IMPLEMENTED, /* a derivative PyTorch does not have either */
} nn_status;

#define NN_ERROR_MSG_MAX 512

typedef struct nn_error {
    nn_status code;
    char msg[NN_ERROR_MSG_MAX];
} nn_error;

/* Fill [err] (which may be NULL) and return [code]. */
nn_status nn_error_set(nn_error *err, nn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
nn_status nn_error_setv(nn_error *err, nn_status code, const char *fmt, va_list ap);
void nn_error_clear(nn_error *err);

/* The class name front ends show: "ShapeError", "IndexError", ... */
const char *nn_status_name(nn_status code);

/* Format a shape as "[2, 3, 4]" into [buf]; returns buf. */
char *nn_shape_str(char *buf, int bufsize, int ndim, const int64_t *shape);

void nn_assert_fail(const char *expr, const char *file, int line) __attribute__((noreturn));
#define NN_ASSERT(e) ((e) ? (void)0 : nn_assert_fail(#e, __FILE__, __LINE__))

#endif
