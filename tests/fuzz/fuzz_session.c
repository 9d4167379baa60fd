/* fuzz_session: what nndb itself parses in a cell, on arbitrary text.
 *
 * CPython parses Python; nndb parses the rest of what a learner types: the
 * IPython habits (%magics, %%cell magics, !cmd, name?, name??, a trailing
 * `;`) that its input transformer rewrites, and the text around the cursor
 * that completion and inspection read. Each input is split into a cell and
 * a cursor offset and goes through the session seam's helpers:
 * lang_is_complete, lang_complete at the cursor (also inside a multi-byte
 * character), lang_inspect at both levels of detail, and the transformer
 * itself (nndb.magics.transform_cell, whose result must be a str). Nothing
 * is executed. None of it may crash, trip a sanitizer or leak; Python
 * exceptions inside the helpers are the session's to swallow. Built with
 * tests/fuzz/fuzz_driver.c for `make test` and with libFuzzer for
 * `make fuzz`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lang.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Random bytes rarely look like a cell; an input whose first byte is odd
 * is read as pieces of the syntax the transformer and completion look at. */
static const char *const pieces[] = {
    "%",       "%%",     "!",
    "?",       "??",     ";",
    "\n",      " ",      "    ",
    "x",       "t",      "model",
    ".",       "(",      ")",
    "[",       "]",      "{",
    "}",       ",",      "=",
    "'",       "\"",     "\"\"\"",
    "#",       "\\",     "time ",
    "timeit ", "who",    "cd ",
    "run ",    "load ",  "writefile f\n",
    "break ",  "torch",  "nn.",
    "Linear(", "zeros(", "dim=",
    "if x:",   "def f(", "lambda",
    ":",       "é",      "\xe2\x82",
    "*",       "**",     "0x",
};

static lang_session *session;

static char *cell_of(const uint8_t *data, size_t size, size_t *len) {
    char *s;
    if (size && (data[0] & 1)) {
        size_t cap = 1;
        for (size_t i = 1; i < size; i++)
            cap += strlen(pieces[data[i] % (sizeof pieces / sizeof *pieces)]);
        s = malloc(cap);
        if (!s) return NULL;
        size_t n = 0;
        for (size_t i = 1; i < size; i++) {
            const char *p = pieces[data[i] % (sizeof pieces / sizeof *pieces)];
            memcpy(s + n, p, strlen(p));
            n += strlen(p);
        }
        s[n] = 0;
        *len = n;
    } else {
        s = malloc(size + 1);
        if (!s) return NULL;
        /* The seam takes C strings: a NUL ends the cell, as it would. */
        memcpy(s, data, size);
        s[size] = 0;
        *len = strlen(s);
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!session) {
        session = lang_session_new(NULL);
        if (!session) abort(); /* CPython or python/ missing: not a fuzz finding */
    }
    size_t len;
    char *cell = cell_of(data, size, &len);
    if (!cell) return 0;
    size_t cursor = size > 1 ? (size_t)data[size - 1] * 7 % (len + 1) : len;

    int indent = 0;
    lang_completeness c = lang_is_complete(cell, &indent);
    if (c != LANG_COMPLETE && c != LANG_INCOMPLETE && c != LANG_INVALID) abort();
    if (indent < 0) abort();

    size_t start = 0, end = 0;
    char **v = lang_complete(session, cell, cursor, &start, &end);
    if (v && (start > end || end > len)) abort();
    lang_strv_free(v);
    free(lang_inspect(session, cell, cursor, 0));
    free(lang_inspect(session, cell, len, 1));

    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *magics = PyImport_ImportModule("nndb.magics");
    PyObject *r = magics ? PyObject_CallMethod(magics, "transform_cell", "s", cell) : NULL;
    /* Arbitrary text may be refused with an exception; a result is a str. */
    if (r && !PyUnicode_Check(r)) abort();
    PyErr_Clear();
    Py_XDECREF(r);
    Py_XDECREF(magics);
    PyGILState_Release(g);
    free(cell);
    return 0;
}
