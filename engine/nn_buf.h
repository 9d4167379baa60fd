/* nn_buf: a growable text buffer, for everything that builds a string piece
 * by piece (tensor reprs, HTML summaries, messages) in the engine and in the
 * layers above it.
 *
 * Ownership: the caller owns the nn_buf struct and, through it, its text.
 * data is NULL until the first append, NUL-terminated after it; nn_buf_free
 * releases the text (a zeroed or NULL buffer is fine) and nn_buf_take hands
 * it over as a malloc'ed string the caller free()s. An allocation that fails
 * drops the append and leaves the text as it was.
 */
#ifndef NN_BUF_H
#define NN_BUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct nn_buf {
    char *data;
    size_t len, cap;
} nn_buf;

void nn_buf_init(nn_buf *b);
/* Free the text; [b] (may be NULL) is empty and reusable after. */
void nn_buf_free(nn_buf *b);
/* Append [n] bytes of [s]. */
void nn_buf_add(nn_buf *b, const char *s, size_t n);
/* Append the NUL-terminated string [s]. */
void nn_buf_puts(nn_buf *b, const char *s);
void nn_buf_printf(nn_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hand over the text (malloc'ed, NUL-terminated, "" when nothing was
 * appended); the buffer is empty after. */
char *nn_buf_take(nn_buf *b);

/* UTF-8 as Python and JSON take it: the length of the valid sequence at [s]
 * (at most [n] bytes), 0 for an invalid one (overlong forms, surrogates and
 * code points past U+10FFFF included); and whether all [n] bytes are valid. */
size_t nn_utf8_len(const unsigned char *s, size_t n);
bool nn_utf8_valid(const char *s, size_t n);

/* Base64 (RFC 4648, with padding): the encoding of [n] bytes as a
 * malloc'ed string; the bytes of [s] (line breaks skipped) as a malloc'ed
 * block of *len bytes, or NULL when [s] is not base64. */
char *nn_base64_encode(const unsigned char *p, size_t n);
unsigned char *nn_base64_decode(const char *s, size_t *len);

#endif
