/* py_session: lang.h's session over the embedded CPython (py_embed.h).
 *
 * The front ends (repl/, kernel/) and drills/ talk to the language only
 * through lang/lang.h. py_session*.c implement that API with CPython's own
 * machinery: one interpreter per process, one namespace per session (a
 * fresh `__main__`-like dict), and the interactive behaviour (IPython's
 * cell semantics, magics, rich display, matplotlib figures) written in
 * Python in python/nndb/ (session.py, magics.py, display.py, prelude.py).
 * The C side keeps what must be C: the front end's callbacks as a Python
 * object (_nndb_frontend.Frontend), the GIL, interrupts from signal handlers
 * and other threads, the extension magics registered from C, and the
 * conversion of results into lang_result.
 *
 * Threads: every entry point takes the GIL with PyGILState_Ensure, and the
 * interpreter runs with the GIL released between calls, so Python threads a
 * user started keep running while the front end waits for input.
 */
#ifndef PY_SESSION_H
#define PY_SESSION_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "lang.h"

/* Start the interpreter once per process and import nndb.session; the GIL
 * is released afterwards. False (having said why on stderr) when Python
 * cannot start. */
bool py_session_python(void);

/* Borrowed: the nndb.session module (the GIL held). */
PyObject *py_session_module(void);

/* Borrowed: the session's nndb.session.Session object. */
PyObject *py_session_shell(lang_session *s);

/* Call [method] of the session's Session object (or of the module when
 * [s] is NULL) with the (new) argument tuple built by Py_BuildValue from
 * [fmt]. A new reference, or NULL with the error printed to stderr and
 * cleared. */
PyObject *py_session_call(lang_session *s, const char *method, const char *fmt, ...);

/* Forget an interrupt that came while no code ran (the kernel interrupts
 * an idle session too), so that it does not stop what runs next. The GIL
 * held. */
void py_session_drop_interrupt(void);

#endif
