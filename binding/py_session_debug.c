/* py_session_debug: lang.h's debugger entry points over the CPython session:
 * `nndb run --break SPEC` and `nndb debug FILE` reach python/nndb/debugger.py
 * (the breakpoints and the stepping live there; binding/py_debug.c is its
 * executor hook). */
#include <stdlib.h>
#include <string.h>

#include "py_session.h"

/* nndb.debugger's [fn](args...): a new reference, or NULL with the error
 * printed and cleared. The GIL held. */
static PyObject *call_debugger(const char *fn, const char *fmt, const char *arg) {
    PyObject *mod = PyImport_ImportModule("nndb.debugger");
    PyObject *r = mod ? PyObject_CallMethod(mod, fn, fmt, arg) : NULL;
    if (!r) PyErr_Print();
    Py_XDECREF(mod);
    return r;
}

bool lang_session_break(lang_session *s, const char *spec, char **err) {
    (void)s;
    if (err) *err = NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    /* None when set; else the reason, as %break words it */
    PyObject *r = call_debugger("session_break", "(s)", spec ? spec : "");
    bool ok = r == Py_None;
    if (!ok && err) {
        const char *why = r && PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
        if (!why) PyErr_Clear();
        *err = strdup(why ? why : "the debugger did not load");
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return ok;
}

void lang_session_break_next(lang_session *s) {
    (void)s;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = call_debugger("break_next", NULL, NULL);
    Py_XDECREF(r);
    PyGILState_Release(g);
}
