/* py_debug: the C side of nndb's debugger on CPython (python/nndb/debugger.py).
 *
 * The debugger is one hook on the engine's executor (nn_hook_add),
 * registered only while something needs it: a breakpoint, a pending step, anomaly mode. While it is
 * registered, every forward node gets a label before it runs (the user's
 * Python file and line, the module path pushed by nn.Module calls) and the
 * Python callback sees the node after it ran, through an event object that
 * is valid during the callback only. Without it the executor runs exactly
 * as before: nothing here is on the path of an op.
 */
#ifndef PY_DEBUG_H
#define PY_DEBUG_H

#include "py.h"

/* torch._C._debug_* functions (registered by py_module.c). */
extern PyMethodDef py_debug_functions[];

/* An engine error is being raised as a Python exception (py_engine_error):
 * when the debugger's callback stopped the pass with an exception of its
 * own (AnomalyError, Stopped from `q`, KeyboardInterrupt at the prompt),
 * set that one and return true. The GIL held. */
bool py_debug_take_error(void);

/* Ctrl-C (lang_session_interrupt): while a pass that stopped in this cell
 * runs on, the first one becomes "stop at the next node" and this returns
 * true; the caller then does not interrupt. Async-signal-safe. */
bool py_debug_interrupt(void);

#endif
