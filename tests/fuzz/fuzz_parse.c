/* fuzz_parse: the parser and lang_is_complete on arbitrary bytes.
 *
 * Every input must parse without a crash, a sanitizer report or a leak;
 * every error must carry a valid position (line within the input, columns
 * >= 1, the end not before the start) and a message; the tree of a clean
 * parse must dump; lang_is_complete must answer one of its three values
 * with a non-negative indent. Built two ways: with libFuzzer (`make fuzz`)
 * and with tests/fuzz/fuzz_driver.c for `make test`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"
#include "lang_parse.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) abort();                                                                         \
    } while (0)

static void check_pos(const lang_module *m, lang_pos p) {
    REQUIRE(p.line >= m->first_line && p.line < m->first_line + m->nlines + 1);
    REQUIRE(p.col >= 1 && p.ccol >= 1 && p.ccol <= p.col);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *src = (const char *)data;
    lang_module *m = lang_parse(src, size, NULL);
    if (m) {
        for (int k = 0; k < m->nerrors; k++) {
            const lang_syntax_error *e = &m->errors[k];
            check_pos(m, e->span.start);
            check_pos(m, e->span.end);
            REQUIRE(e->span.end.line >= e->span.start.line);
            REQUIRE(e->message && e->message[0]);
        }
        lang_buf b;
        lang_buf_init(&b);
        if (m->nerrors == 0)
            lang_ast_dump(&b, m);
        else
            for (int k = 0; k < m->nerrors; k++) lang_syntax_error_format(&b, m, &m->errors[k]);
        lang_buf_free(&b);
        lang_module_release(m);
    }
    /* The same bytes as one expression, and through lang_is_complete (which
     * wants a C string: stop at the first NUL). */
    lang_parse_opts o = {.expression = true};
    lang_module_release(lang_parse(src, size, &o));
    char *s = malloc(size + 1);
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = 0;
    int indent = -1;
    lang_completeness c = lang_is_complete(s, &indent);
    REQUIRE(c == LANG_COMPLETE || c == LANG_INCOMPLETE || c == LANG_INVALID);
    REQUIRE(indent >= 0);
    free(s);
    return 0;
}
