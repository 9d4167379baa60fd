/* fuzz_drill: the drill file parser (drills/drill_parse.c) on arbitrary
 * bytes. It must never crash, read out of bounds or leak; a file it accepts
 * must hold valid steps, and each keyword quiz must accept its examples (the
 * parser's promise that drill check relies on is checked there, not here).
 * An input whose first byte is odd is read as drill-syntax lines instead, so
 * the replayed inputs reach every directive. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drill.h"

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) abort();                                                                         \
    } while (0)

static const char *const lines[] = {
    "---\n",
    "id: fz\n",
    "title: T\n",
    "level: 1\n",
    "minutes: 5\n",
    "teaches: t\n",
    "requires: x\n",
    "level: -3\n",
    "bogus: 1\n",
    "## read: R\n",
    "## predict: P\n",
    "## do: D\n",
    "## quiz: Q\n",
    "## reflect: F\n",
    "## exam: E\n",
    "```setup\n",
    "```check\n",
    "```reference\n",
    "```python\n",
    "```\n",
    "x = 1\n",
    "x == 1\n",
    "hint: h\n",
    "hint:\n",
    "choice: a\n",
    "choice*: b\n",
    "accept: a b | c\n",
    "example: a b\n",
    "wrong: z\n",
    "text line\n",
    "\n",
    "\r\n",
    "## do\n",
    "id: bad id!\n",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *text;
    if (size > 0 && (data[0] & 1)) {
        size_t nl = sizeof lines / sizeof lines[0], cap = 1, n = 0;
        for (size_t i = 1; i < size; i++) cap += strlen(lines[data[i] % nl]);
        text = malloc(cap);
        if (!text) return 0;
        for (size_t i = 1; i < size; i++) {
            const char *l = lines[data[i] % nl];
            memcpy(text + n, l, strlen(l));
            n += strlen(l);
        }
        text[n] = 0;
    } else {
        text = malloc(size + 1);
        if (!text) return 0;
        memcpy(text, data, size);
        text[size] = 0; /* a NUL inside ends the text, as a C string */
    }
    char *err = NULL;
    drill *d = drill_parse("fuzz.md", text, &err);
    if (d) {
        REQUIRE(!err);
        REQUIRE(d->id && d->title && d->teaches && d->n_steps > 0);
        for (int i = 0; i < d->n_steps; i++) {
            const drill_step *st = &d->steps[i];
            REQUIRE((unsigned)st->kind <= DRILL_REFLECT);
            if (st->kind == DRILL_DO) REQUIRE(st->check && st->reference);
            if (st->kind == DRILL_QUIZ) {
                REQUIRE(st->n_choices || st->accept);
                for (int k = 0; k < st->n_examples; k++)
                    (void)drill_quiz_accepts(st, st->examples[k]);
                if (st->n_choices)
                    REQUIRE(st->right_choice >= 1 && st->right_choice <= st->n_choices);
            }
        }
        drill_free(d);
    } else {
        REQUIRE(err && strstr(err, "fuzz.md:"));
    }
    free(err);
    free(text);
    return 0;
}
