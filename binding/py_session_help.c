/* py_session_help: the front ends' helpers of lang.h over CPython —
 * completeness, completion, inspection, %who — and the small value types
 * of the seam (MIME bundles, error names, string vectors). The Python
 * halves are in python/nndb/session.py. */
#include <stdlib.h>
#include <string.h>

#include "nn_buf.h"
#include "py_session.h"

/* ---- MIME bundles ---- */

void lang_mime_init(lang_mime *m) {
    memset(m, 0, sizeof *m);
}

void lang_mime_free(lang_mime *m) {
    if (!m) return;
    for (int i = 0; i < m->n; i++) {
        free(m->items[i].mime);
        free(m->items[i].data);
    }
    m->n = 0;
}

void lang_mime_add(lang_mime *m, const char *mime, char *data) {
    for (int i = 0; i < m->n; i++) {
        if (!strcmp(m->items[i].mime, mime)) {
            free(m->items[i].data);
            m->items[i].data = data;
            return;
        }
    }
    char *copy = m->n < LANG_MIME_MAX ? strdup(mime) : NULL;
    if (!copy) {
        free(data);
        return;
    }
    m->items[m->n].mime = copy;
    m->items[m->n].data = data;
    m->n++;
}

const char *lang_mime_get(const lang_mime *m, const char *mime) {
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->items[i].mime, mime)) return m->items[i].data;
    return NULL;
}

const char *lang_err_name(lang_err e) {
    switch (e) {
    case LANG_ERR_NONE: return "Error";
    case LANG_ERR_SYNTAX: return "SyntaxError";
    case LANG_ERR_NAME: return "NameError";
    case LANG_ERR_TYPE: return "TypeError";
    case LANG_ERR_VALUE: return "ValueError";
    case LANG_ERR_SHAPE: return "RuntimeError";
    case LANG_ERR_INDEX: return "IndexError";
    case LANG_ERR_KEY: return "KeyError";
    case LANG_ERR_ATTRIBUTE: return "AttributeError";
    case LANG_ERR_ZERO_DIVISION: return "ZeroDivisionError";
    case LANG_ERR_RUNTIME: return "RuntimeError";
    case LANG_ERR_MEMORY: return "MemoryError";
    case LANG_ERR_IO: return "OSError";
    case LANG_ERR_INTERRUPT: return "KeyboardInterrupt";
    case LANG_ERR_STOPPED: return "SystemExit";
    case LANG_ERR_ASSERTION: return "AssertionError";
    case LANG_ERR_RECURSION: return "RecursionError";
    case LANG_ERR_IMPORT: return "ImportError";
    }
    return "Error";
}

void lang_strv_free(char **v) {
    for (size_t i = 0; v && v[i]; i++) free(v[i]);
    free(v);
}

/* ---- the front ends' helpers ---- */

/* Text from a front end that is not UTF-8 (a terminal in another encoding,
 * a forged message) cannot become a Python str: the helpers answer as for
 * a syntax error, and lang_exec gives Python's SyntaxError for it. */
static bool is_text(const char *code) {
    return !code || nn_utf8_valid(code, strlen(code));
}

lang_completeness lang_is_complete(const char *code, int *indent) {
    if (indent) *indent = 0;
    if (!is_text(code)) return LANG_INVALID;
    if (!py_session_python()) return LANG_COMPLETE;
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r = py_session_call(NULL, "is_complete", "(s)", code ? code : "");
    int status = 0, n = 0;
    if (!r || !PyArg_ParseTuple(r, "ii", &status, &n)) PyErr_Clear(), status = 0;
    Py_XDECREF(r);
    PyGILState_Release(g);
    if (indent) *indent = n;
    return status == 1 ? LANG_INCOMPLETE : status == 2 ? LANG_INVALID : LANG_COMPLETE;
}

char **lang_complete(lang_session *s, const char *code, size_t cursor, size_t *start, size_t *end) {
    *start = *end = cursor;
    if (!is_text(code)) return calloc(1, sizeof(char *));
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r = py_session_call(s, "complete", "(sn)", code ? code : "", (Py_ssize_t)cursor);
    PyObject *list = NULL;
    Py_ssize_t a = 0, b = 0;
    char **v = NULL;
    if (r && PyArg_ParseTuple(r, "Onn", &list, &a, &b) && PyList_Check(list)) {
        Py_ssize_t n = PyList_GET_SIZE(list), k = 0;
        v = calloc((size_t)n + 1, sizeof *v);
        for (Py_ssize_t i = 0; v && i < n; i++) {
            const char *c = PyUnicode_AsUTF8(PyList_GET_ITEM(list, i));
            if (!c) {
                PyErr_Clear();
                continue;
            }
            v[k] = strdup(c);
            if (v[k]) k++;
        }
        *start = (size_t)a;
        *end = (size_t)b;
    }
    PyErr_Clear();
    Py_XDECREF(r);
    PyGILState_Release(g);
    return v;
}

static char *text_or_null(PyObject *r) {
    char *out = NULL;
    const char *c = r && PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
    if (c) out = strdup(c);
    PyErr_Clear();
    return out;
}

char *lang_inspect(lang_session *s, const char *code, size_t cursor, int detail) {
    if (!is_text(code)) return NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r =
        py_session_call(s, "inspect", "(sni)", code ? code : "", (Py_ssize_t)cursor, detail);
    char *out = text_or_null(r);
    Py_XDECREF(r);
    PyGILState_Release(g);
    return out;
}

char *lang_who(lang_session *s) {
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r = py_session_call(s, "who", "()");
    char *out = text_or_null(r);
    Py_XDECREF(r);
    PyGILState_Release(g);
    return out;
}
