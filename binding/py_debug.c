/* py_debug: the executor hook, node labels, the module stack and the graph
 * walk of nndb's debugger on CPython (py_debug.h). The decisions (which
 * node is a stop, the prompt, the reports) are Python's, in
 * python/nndb/debugger.py; this file finds and labels. */
#include "py_debug.h"

#include <frameobject.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_anomaly.h"

/* What the callback is called for: every node that ran, or only the nodes
 * where nn_anomaly_check finds the origin of a non-finite value (anomaly
 * mode and `nan` breakpoints alone: one scan in C, no Python per node).
 * CALL_LABEL (%pdb on, nothing else) never calls it: the forward nodes are
 * labelled, and the backward node that fails is kept for the post-mortem. */
enum { CALL_EVERY = 0, CALL_ANOMALY = 1, CALL_BREAK = 2, CALL_LABEL = 3 };

/* Ctrl-C while a pass that stopped in this cell runs on: the first one
 * asks for a stop at the next node (py_debug_interrupt, from a signal
 * handler or another thread) instead of interrupting. In CALL_BREAK mode
 * the hook does nothing else, without taking the GIL, until it is asked. */
static atomic_int armed, break_req;

#define CODE_CACHE   256
#define MODULE_STACK 128
#define MAX_NODES    4000

typedef struct code_entry {
    PyObject *code; /* strong: its address cannot be reused while cached */
    bool internal;
    const char *file; /* interned in the context */
} code_entry;

typedef struct module_entry {
    const char *path; /* interned */
    PyObject *module; /* strong */
    PyObject *frame;  /* strong: the frame of the Module.__call__ that pushed it */
} module_entry;

/* A module's path under its parent's, known from an earlier call: the
 * fast path of a module call while the debugger is on. */
#define PATH_CACHE 1024
typedef struct path_entry {
    const char *parent; /* interned */
    PyObject *module;   /* strong, so that its address is not reused */
    const char *path;   /* interned */
} path_entry;

static struct {
    PyObject *callback; /* strong; NULL: no hook */
    path_entry paths[PATH_CACHE];
    int hook_id;
    int mode;
    int running; /* > 0 while the callback runs */
    char **internal;
    int n_internal;
    code_entry codes[CODE_CACHE];
    module_entry stack[MODULE_STACK];
    int depth;
    /* "op N of this statement": forward nodes since the outermost user frame
     * (the cell, the script) last changed its line */
    PyObject *stmt_frame; /* strong */
    int stmt_line;
    uint64_t stmt_id;
    int64_t fwd_pos;
    /* training steps are counted by backward() */
    int64_t backward_done, backward_pass;
    nn_node *last_root; /* retained: the root node of the last backward */
    nn_node *bwd_node;  /* retained: the backward node running; after an error, the failed one */
    /* the exception the callback stopped a pass with */
    PyObject *err_type, *err_value, *err_tb;
} dbg;

static void clear_paths(void);

/* ---- frames: where the user's code is ---- */

static const code_entry *code_info(PyCodeObject *code) {
    uintptr_t h = (uintptr_t)code;
    code_entry *e = &dbg.codes[(h >> 4 ^ h >> 12) % CODE_CACHE];
    if (e->code == (PyObject *)code) return e;
    const char *name = PyUnicode_AsUTF8(code->co_filename);
    if (!name) {
        PyErr_Clear();
        name = "?";
    }
    bool internal = false;
    for (int i = 0; i < dbg.n_internal && !internal; i++)
        internal = !strncmp(name, dbg.internal[i], strlen(dbg.internal[i]));
    Py_XDECREF(e->code);
    e->code = Py_NewRef((PyObject *)code);
    e->internal = internal;
    e->file = nn_ctx_intern(py_ctx(), name);
    return e;
}

static const code_entry *frame_info(PyFrameObject *f) {
    PyCodeObject *code = PyFrame_GetCode(f);
    const code_entry *e = code_info(code);
    Py_DECREF(code);
    return e;
}

/* The innermost stack entry whose frame is on the stack of frames from [f]
 * outwards, as an index (-1: none); entries above it are stale (their
 * Module.__call__ ended with an exception) and are dropped. Also the
 * innermost and outermost frames that are not nndb's own (new references,
 * may be NULL). */
static int walk_frames(PyFrameObject *f, PyFrameObject **user, PyFrameObject **top) {
    int live = -1;
    if (user) *user = NULL;
    if (top) *top = NULL;
    Py_XINCREF(f);
    while (f) {
        if (user || top) {
            const code_entry *e = frame_info(f);
            if (!e->internal) {
                if (user && !*user) *user = (PyFrameObject *)Py_NewRef(f);
                if (top) Py_XSETREF(*top, (PyFrameObject *)Py_NewRef(f));
            }
        }
        for (int i = dbg.depth - 1; live < 0 && i >= 0; i--)
            if (dbg.stack[i].frame == (PyObject *)f) live = i;
        if (live >= 0 && !user && !top) {
            Py_DECREF(f);
            break;
        }
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    while (dbg.depth > live + 1) {
        module_entry *m = &dbg.stack[--dbg.depth];
        Py_CLEAR(m->module);
        Py_CLEAR(m->frame);
    }
    return live;
}

/* Before a forward node runs: its label, and its position in the statement. */
static void label_node(nn_ctx *ctx, nn_node *node) {
    PyFrameObject *user, *top;
    int live = walk_frames(PyEval_GetFrame(), &user, &top);
    node->label.module = live >= 0 ? dbg.stack[live].path : NULL;
    if (user) {
        node->label.file = frame_info(user)->file;
        node->label.line = PyFrame_GetLineNumber(user);
    }
    int top_line = top ? PyFrame_GetLineNumber(top) : 0;
    if ((PyObject *)top != dbg.stmt_frame || top_line != dbg.stmt_line) {
        Py_XSETREF(dbg.stmt_frame, Py_XNewRef((PyObject *)top));
        dbg.stmt_line = top_line;
        dbg.stmt_id++;
        dbg.fwd_pos = 0;
    }
    dbg.fwd_pos++;
    Py_XDECREF(user);
    Py_XDECREF(top);
    (void)ctx;
}

/* ---- the event object ---- */

typedef struct dbg_event {
    PyObject_HEAD const nn_hook_event *ev; /* NULL once the callback returned */
    int64_t position;
    uint64_t pass_id;
    int64_t step;
    int anomaly_state; /* 0 not checked, 1 found, -1 none */
    nn_anomaly anomaly;
    PyObject *out, *grad, *inputs, *grads; /* made on first use */
} dbg_event;

static void event_dealloc(PyObject *self) {
    dbg_event *e = (dbg_event *)self;
    Py_XDECREF(e->out);
    Py_XDECREF(e->grad);
    Py_XDECREF(e->inputs);
    Py_XDECREF(e->grads);
    Py_TYPE(self)->tp_free(self);
}

static const nn_hook_event *live_event(PyObject *self) {
    const nn_hook_event *ev = ((dbg_event *)self)->ev;
    if (!ev) PyErr_SetString(PyExc_RuntimeError, "this stop is over: the pass has gone on");
    return ev;
}

static PyObject *tensor_or_none(nn_tensor *t) {
    if (!t) Py_RETURN_NONE;
    return py_tensor_wrap(nn_tensor_retain(t));
}

static PyObject *str_or_none(const char *s) {
    if (!s) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

#define EV_GETTER(name, expr)                                                                      \
    static PyObject *ev_##name(PyObject *self, void *closure) {                                    \
        (void)closure;                                                                             \
        const nn_hook_event *ev = live_event(self);                                                \
        if (!ev) return NULL;                                                                      \
        dbg_event *e = (dbg_event *)self;                                                          \
        (void)e;                                                                                   \
        return expr;                                                                               \
    }

EV_GETTER(phase, PyUnicode_FromString(ev->phase == NN_PHASE_FORWARD ? "forward" : "backward"))
EV_GETTER(op, PyUnicode_FromString(nn_op_name(ev->node->op)))
EV_GETTER(module, str_or_none(ev->node->label.module))
EV_GETTER(file, str_or_none(ev->node->label.file))
EV_GETTER(line, PyLong_FromLong(ev->node->label.line))
EV_GETTER(position, PyLong_FromLongLong(e->position))
EV_GETTER(count, PyLong_FromLongLong(ev->count))
EV_GETTER(pass_id, PyLong_FromUnsignedLongLong(e->pass_id))
EV_GETTER(step, PyLong_FromLongLong(e->step))
EV_GETTER(node, PyLong_FromVoidPtr(ev->node))
EV_GETTER(params, Py_BuildValue("(dddd)", ev->node->p.f[0], ev->node->p.f[1], ev->node->p.f[2],
                                ev->node->p.f[3]))

/* [slot]'s object, made by [make] on first use (the same object each time,
 * so that an edit at a stop, out[0] = 1, is seen by the next look). */
#define CACHED(slot, make) (*(slot) ? Py_NewRef(*(slot)) : Py_XNewRef(*(slot) = (make)))

EV_GETTER(out, CACHED(&e->out, tensor_or_none(ev->output)))
EV_GETTER(grad, CACHED(&e->grad, tensor_or_none(ev->grad_output)))

static PyObject *tensor_list(const nn_hook_event *ev, bool grads) {
    int n = ev->node->n_in;
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        nn_tensor *t = grads ? (ev->grad_inputs ? ev->grad_inputs[i] : NULL) : ev->node->in[i].t;
        PyObject *o = tensor_or_none(t);
        if (!o)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, o);
    }
    return list;
}

EV_GETTER(inputs, CACHED(&e->inputs, tensor_list(ev, false)))
EV_GETTER(grads,
          ev->phase == NN_PHASE_BACKWARD ? CACHED(&e->grads, tensor_list(ev, true)) : PyList_New(0))

static PyObject *ev_needs_grad(PyObject *self, void *closure) {
    (void)closure;
    const nn_hook_event *ev = live_event(self);
    if (!ev) return NULL;
    PyObject *list = PyList_New(ev->node->n_in);
    for (int i = 0; list && i < ev->node->n_in; i++)
        PyList_SET_ITEM(list, i, PyBool_FromLong(ev->node->in[i].needs_grad));
    return list;
}

/* The value of input [t] at output element [flat] of [out] when the shapes
 * broadcast (the anomaly report's "log(0.0) = -inf"); false otherwise. */
static bool value_at(const nn_tensor *t, const nn_tensor *out, int64_t flat, double *v) {
    if (!t || !out || t->ndim > out->ndim) return false;
    int64_t idx[NN_MAX_DIMS];
    int64_t f = flat;
    for (int k = out->ndim - 1; k >= 0; k--) {
        int64_t n = out->shape[k] > 0 ? out->shape[k] : 1;
        idx[k] = f % n;
        f /= n;
    }
    int lead = out->ndim - t->ndim;
    int64_t tf = 0;
    for (int k = 0; k < t->ndim; k++) {
        int64_t s = t->shape[k], o = out->shape[k + lead];
        if (s != o && s != 1) return false;
        tf = tf * s + (s == 1 ? 0 : idx[k + lead]);
    }
    *v = nn_tensor_flat_value(t, tf);
    return true;
}

static PyObject *float_or_none(bool ok, double v) {
    if (!ok) Py_RETURN_NONE;
    return PyFloat_FromDouble(v);
}

/* anomaly(): None, or a dict that says where a non-finite value was born
 * (nn_anomaly_check's finding, with the values a report shows). */
static PyObject *ev_anomaly(PyObject *self, PyObject *unused) {
    (void)unused;
    const nn_hook_event *ev = live_event(self);
    if (!ev) return NULL;
    dbg_event *e = (dbg_event *)self;
    if (!e->anomaly_state) e->anomaly_state = nn_anomaly_check(ev, &e->anomaly) ? 1 : -1;
    if (e->anomaly_state < 0) Py_RETURN_NONE;
    const nn_anomaly *a = &e->anomaly;
    const nn_node *n = ev->node;
    static const char *const kinds[] = {"none", "created", "leaf", "input", "grad"};
    const nn_tensor *where = a->kind == NN_ANOMALY_LEAF || a->kind == NN_ANOMALY_INPUT
                                 ? n->in[a->input].t
                             : a->phase == NN_PHASE_FORWARD ? ev->output
                                                            : ev->grad_inputs[a->input];
    char idx[128];
    nn_tensor_index_str(where, a->flat, idx, sizeof idx);
    /* forward: each input's value at the bad element; backward: the forward
     * input at the bad element of its gradient */
    PyObject *values = PyList_New(0);
    if (!values) return NULL;
    if (a->phase == NN_PHASE_FORWARD && a->kind == NN_ANOMALY_CREATED) {
        for (int i = 0; i < n->n_in; i++) {
            double v = 0;
            bool ok = n->in[i].t && (nn_tensor_numel(n->in[i].t) == 1
                                         ? (v = nn_tensor_flat_value(n->in[i].t, 0), true)
                                         : value_at(n->in[i].t, ev->output, a->flat, &v));
            PyObject *o = float_or_none(ok, v);
            if (!o || PyList_Append(values, o) < 0) {
                Py_XDECREF(o);
                Py_DECREF(values);
                return NULL;
            }
            Py_DECREF(o);
        }
    }
    bool fwd_ok = false;
    double fwd = 0;
    if (a->phase == NN_PHASE_BACKWARD) {
        const nn_tensor *in = n->in[a->input].t;
        if (in && nn_tensor_same_shape(in, where)) {
            fwd = nn_tensor_flat_value(in, a->flat);
            fwd_ok = true;
        }
    }
    PyObject *fv = float_or_none(fwd_ok, fwd);
    PyObject *d =
        fv ? Py_BuildValue("{s:s,s:s,s:i,s:L,s:L,s:d,s:s,s:N,s:N}", "kind", kinds[a->kind], "phase",
                           a->phase == NN_PHASE_FORWARD ? "forward" : "backward", "input", a->input,
                           "flat", (long long)a->flat, "count", (long long)a->count, "value",
                           a->value, "index", idx, "values", values, "forward_value", fv)
           : NULL;
    if (!d) Py_XDECREF(values);
    return d;
}

static PyObject *ev_valid(PyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(((dbg_event *)self)->ev != NULL);
}

static PyGetSetDef event_getset[] = {
    {"phase", ev_phase, NULL, "'forward' or 'backward'", NULL},
    {"op", ev_op, NULL, "the engine op's name (matmul, linear, tanh, ...)", NULL},
    {"module", ev_module, NULL, "the module path the node was recorded in, or None", NULL},
    {"file", ev_file, NULL, "the user's file the node was recorded at, or None", NULL},
    {"line", ev_line, NULL, "the line in file (0: unknown)", NULL},
    {"position", ev_position, NULL, "forward: op N of this statement; backward: node N", NULL},
    {"count", ev_count, NULL, "backward: the nodes of this pass; forward: 0", NULL},
    {"pass_id", ev_pass_id, NULL, "the statement (forward) or backward() call (backward)", NULL},
    {"step", ev_step, NULL, "the training step: completed backward() calls + 1", NULL},
    {"node", ev_node, NULL, "the node's identity (an int)", NULL},
    {"params", ev_params, NULL, "the node's float parameters", NULL},
    {"out", ev_out, NULL, "the node's output (backward: the forward output)", NULL},
    {"grad", ev_grad, NULL, "backward: d loss / d out", NULL},
    {"inputs", ev_inputs, NULL, "the node's input tensors", NULL},
    {"grads", ev_grads, NULL, "backward: d loss / d input, one per input (None where none)", NULL},
    {"needs_grad", ev_needs_grad, NULL, "per input: whether it needs a gradient", NULL},
    {"valid", ev_valid, NULL, "whether the pass is still stopped here", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef event_methods[] = {
    {"anomaly", ev_anomaly, METH_NOARGS, "where a non-finite value was born here, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject event_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._DebugEvent",
    .tp_basicsize = sizeof(dbg_event),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = event_dealloc,
    .tp_doc = "One node the debugger sees, valid while its callback runs.",
    .tp_getset = event_getset,
    .tp_methods = event_methods,
};

/* ---- the hook ---- */

static void clear_pending(void) {
    Py_CLEAR(dbg.err_type);
    Py_CLEAR(dbg.err_value);
    Py_CLEAR(dbg.err_tb);
}

/* The callback raised: keep the exception for py_debug_take_error and stop
 * the pass with an engine error that says the same. */
static nn_hook_action stop_with_error(nn_ctx *ctx) {
    clear_pending();
    PyErr_Fetch(&dbg.err_type, &dbg.err_value, &dbg.err_tb);
    PyErr_NormalizeException(&dbg.err_type, &dbg.err_value, &dbg.err_tb);
    PyObject *s = dbg.err_value ? PyObject_Str(dbg.err_value) : NULL;
    const char *msg = s ? PyUnicode_AsUTF8(s) : NULL;
    if (!msg) PyErr_Clear();
    bool intr = dbg.err_type && PyErr_GivenExceptionMatches(dbg.err_type, PyExc_KeyboardInterrupt);
    nn_error_set(&ctx->err, intr ? NN_ERR_INTERRUPT : NN_ERR_STOPPED, "%s: %s",
                 dbg.err_type ? ((PyTypeObject *)dbg.err_type)->tp_name : "Stopped",
                 msg ? msg : "");
    Py_XDECREF(s);
    return NN_HOOK_STOP;
}

bool py_debug_take_error(void) {
    if (!dbg.err_type) return false;
    PyErr_Restore(dbg.err_type, dbg.err_value, dbg.err_tb);
    dbg.err_type = dbg.err_value = dbg.err_tb = NULL;
    return true;
}

bool py_debug_interrupt(void) {
    int no = 0;
    return atomic_load(&armed) && atomic_compare_exchange_strong(&break_req, &no, 1);
}

static nn_hook_action on_node(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    (void)user;
    if (!dbg.callback || dbg.running) return NN_HOOK_CONTINUE;
    if (dbg.mode == CALL_BREAK && !atomic_load(&break_req)) return NN_HOOK_CONTINUE;
    if (ev->phase == NN_PHASE_BACKWARD) {
        /* a node that raises gets no after event: it stays, for the post-mortem */
        if (!ev->after) {
            nn_node_retain(ev->node);
            nn_node_release(dbg.bwd_node);
            dbg.bwd_node = ev->node;
        } else if (ev->node == dbg.bwd_node) {
            nn_node_release(dbg.bwd_node);
            dbg.bwd_node = NULL;
        }
    }
    if (dbg.mode == CALL_LABEL && ev->after) return NN_HOOK_CONTINUE;
    /* anomaly mode: the scan needs no GIL, and most nodes are finite */
    nn_anomaly found;
    bool scanned = false;
    if (ev->after && dbg.mode == CALL_ANOMALY && !atomic_load(&break_req)) {
        if (!nn_anomaly_check(ev, &found)) return NN_HOOK_CONTINUE;
        scanned = true;
    }
    nn_hook_action act = NN_HOOK_CONTINUE;
    PyGILState_STATE g = PyGILState_Ensure();
    if (dbg.mode == CALL_BREAK) {
        /* Asked to stop: the callback, given None, turns the labels and
         * the module stack on for this node. */
        PyObject *cb = Py_NewRef(dbg.callback);
        PyObject *r = PyObject_CallOneArg(cb, Py_None);
        Py_DECREF(cb);
        if (!r) PyErr_Print();
        Py_XDECREF(r);
    }
    if (!ev->after) {
        if (ev->phase == NN_PHASE_FORWARD) {
            label_node(ctx, ev->node);
        } else if (ev->position == 1) {
            dbg.backward_pass = dbg.backward_done + 1;
            if (ev->node != dbg.last_root) {
                nn_node_retain(ev->node);
                nn_node_release(dbg.last_root);
                dbg.last_root = ev->node;
            }
        }
        PyGILState_Release(g);
        return NN_HOOK_CONTINUE;
    }
    dbg_event *e = PyObject_New(dbg_event, &event_type);
    if (!e) {
        PyErr_Clear();
        PyGILState_Release(g);
        return NN_HOOK_CONTINUE;
    }
    e->ev = ev;
    e->out = e->grad = e->inputs = e->grads = NULL;
    e->anomaly_state = 0;
    bool fwd = ev->phase == NN_PHASE_FORWARD;
    e->position = fwd ? dbg.fwd_pos : ev->position;
    e->pass_id = fwd ? dbg.stmt_id : (uint64_t)dbg.backward_pass;
    e->step = dbg.backward_done + 1;
    if (scanned) {
        e->anomaly = found;
        e->anomaly_state = 1;
    }
    PyObject *cb = Py_NewRef(dbg.callback);
    dbg.running++;
    PyObject *r = PyObject_CallOneArg(cb, (PyObject *)e);
    dbg.running--;
    Py_DECREF(cb);
    e->ev = NULL;
    if (!r) act = stop_with_error(ctx);
    Py_XDECREF(r);
    Py_DECREF(e);
    PyGILState_Release(g);
    return act;
}

static nn_status on_backward_end(nn_ctx *ctx, bool ok, void *user) {
    (void)ctx;
    (void)user;
    if (ok) {
        nn_node_release(dbg.bwd_node);
        dbg.bwd_node = NULL;
    }
    dbg.backward_done++;
    dbg.backward_pass = 0;
    return NN_OK;
}

static void clear_stack(void) {
    while (dbg.depth) {
        module_entry *m = &dbg.stack[--dbg.depth];
        Py_CLEAR(m->module);
        Py_CLEAR(m->frame);
    }
}

/* _debug_arm(on): whether the next Ctrl-C asks for a stop. */
static PyObject *f_debug_arm(PyObject *m, PyObject *on) {
    (void)m;
    int v = PyObject_IsTrue(on);
    if (v < 0) return NULL;
    atomic_store(&armed, v);
    if (!v) atomic_store(&break_req, 0);
    Py_RETURN_NONE;
}

/* _debug_take_break(): whether a Ctrl-C asked for a stop (and forget it). */
static PyObject *f_debug_take_break(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return PyBool_FromLong(atomic_exchange(&break_req, 0));
}

/* _debug_hook(callback, mode=0): register the hook calling [callback](event)
 * for every node (mode 0), for anomaly origins only (mode 1), or only after
 * a Ctrl-C asked for a stop (mode 2, which first calls callback(None)), or
 * never, only labelling the nodes (mode 3, %pdb on);
 * None removes it. */
static PyObject *f_debug_hook(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cb;
    int mode = CALL_EVERY;
    if (!PyArg_ParseTuple(args, "O|i", &cb, &mode)) return NULL;
    nn_ctx *ctx = py_ctx();
    if (cb == Py_None) {
        if (dbg.hook_id) nn_hook_remove(ctx, dbg.hook_id);
        dbg.hook_id = 0;
        Py_CLEAR(dbg.callback);
        clear_stack();
        clear_paths();
        Py_CLEAR(dbg.stmt_frame);
        nn_node_release(dbg.bwd_node);
        dbg.bwd_node = NULL;
        Py_RETURN_NONE;
    }
    if (!PyCallable_Check(cb)) return PyErr_Format(PyExc_TypeError, "the hook must be callable");
    if (!dbg.hook_id) {
        if (PyType_Ready(&event_type) < 0) return NULL;
        dbg.hook_id = nn_hook_add(ctx, "the debugger", on_node, NULL);
        if (!dbg.hook_id)
            return PyErr_Format(PyExc_RuntimeError, "the engine's hook table is full");
        nn_hook_set_backward_end(ctx, dbg.hook_id, on_backward_end);
        /* stops, the graph view and the NaN hunt's report show nodes'
         * inputs after they ran: while the debugger is on, nodes keep them */
        nn_hook_set_keeps_values(ctx, dbg.hook_id);
    }
    Py_XSETREF(dbg.callback, Py_NewRef(cb));
    dbg.mode = mode;
    /* anomaly mode reads a node's gradients only when one is non-finite */
    nn_hook_set_nonfinite_only(ctx, dbg.hook_id, mode == CALL_ANOMALY);
    Py_RETURN_NONE;
}

/* _debug_reset(): a session begins or ends (lang_session_new, _free): no
 * hook, no module stack, no cached code or module, no kept backward root,
 * and training steps count from 1 again. What the session made is released
 * here, so that a closed session leaves no node or tensor behind. */
static PyObject *f_debug_reset(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    nn_ctx *ctx = py_ctx();
    if (dbg.hook_id) nn_hook_remove(ctx, dbg.hook_id);
    dbg.hook_id = 0;
    dbg.mode = CALL_EVERY;
    ctx->check_writes = false;
    Py_CLEAR(dbg.callback);
    clear_stack();
    clear_paths();
    for (int i = 0; i < CODE_CACHE; i++) Py_CLEAR(dbg.codes[i].code);
    Py_CLEAR(dbg.stmt_frame);
    dbg.stmt_line = 0;
    dbg.stmt_id = 0;
    dbg.fwd_pos = 0;
    dbg.backward_done = dbg.backward_pass = 0;
    nn_node_release(dbg.last_root);
    dbg.last_root = NULL;
    nn_node_release(dbg.bwd_node);
    dbg.bwd_node = NULL;
    clear_pending();
    atomic_store(&armed, 0);
    atomic_store(&break_req, 0);
    Py_RETURN_NONE;
}

/* _debug_internal(prefixes): files under these folders are nndb's own
 * (torch's Python, nndb's session): labels name the user's frame instead. */
static PyObject *f_debug_internal(PyObject *m, PyObject *seq) {
    (void)m;
    PyObject *fast = PySequence_Fast(seq, "_debug_internal takes a sequence of folders");
    if (!fast) return NULL;
    for (int i = 0; i < dbg.n_internal; i++) free(dbg.internal[i]);
    free(dbg.internal);
    dbg.n_internal = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    dbg.internal = calloc((size_t)n + 1, sizeof *dbg.internal);
    for (Py_ssize_t i = 0; dbg.internal && i < n; i++) {
        const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i));
        if (!s) {
            Py_DECREF(fast);
            return NULL;
        }
        dbg.internal[dbg.n_internal++] = strdup(s);
    }
    Py_DECREF(fast);
    for (int i = 0; i < CODE_CACHE; i++) Py_CLEAR(dbg.codes[i].code);
    Py_RETURN_NONE;
}

/* ---- the module stack (nn.Module calls, while the debugger is on) ---- */

/* _debug_top(frame): (path, module) of the innermost module call still
 * running around [frame], or None; stale entries are dropped. */
static PyObject *f_debug_top(PyObject *m, PyObject *frame) {
    (void)m;
    if (!PyFrame_Check(frame)) return PyErr_Format(PyExc_TypeError, "_debug_top takes a frame");
    int live = walk_frames((PyFrameObject *)frame, NULL, NULL);
    if (live < 0) Py_RETURN_NONE;
    return Py_BuildValue("(sO)", dbg.stack[live].path, dbg.stack[live].module);
}

static path_entry *path_slot(const char *parent, PyObject *module) {
    uintptr_t h = ((uintptr_t)parent * 31) ^ ((uintptr_t)module >> 4);
    return &dbg.paths[(h ^ h >> 11) % PATH_CACHE];
}

static void clear_paths(void) {
    for (int i = 0; i < PATH_CACHE; i++) {
        Py_CLEAR(dbg.paths[i].module);
        dbg.paths[i].parent = dbg.paths[i].path = NULL;
    }
}

static void push(const char *path, PyObject *module, PyObject *frame) {
    if (dbg.depth == MODULE_STACK) return; /* its pop will not find it */
    dbg.stack[dbg.depth++] = (module_entry){path, Py_NewRef(module), Py_NewRef(frame)};
}

/* _debug_enter(module, frame): a module call begins; True when its path
 * was known (pushed), False when Python must name it (_debug_push). */
static PyObject *f_debug_enter(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *module, *frame;
    if (!PyArg_ParseTuple(args, "OO", &module, &frame)) return NULL;
    if (!PyFrame_Check(frame)) return PyErr_Format(PyExc_TypeError, "_debug_enter: a frame");
    int live = walk_frames((PyFrameObject *)frame, NULL, NULL);
    if (live < 0) Py_RETURN_FALSE;
    path_entry *e = path_slot(dbg.stack[live].path, module);
    if (e->module != module || e->parent != dbg.stack[live].path) Py_RETURN_FALSE;
    push(e->path, module, frame);
    Py_RETURN_TRUE;
}

/* _debug_push(path, module, frame): after _debug_top named it. */
static PyObject *f_debug_push(PyObject *m, PyObject *args) {
    (void)m;
    const char *path;
    PyObject *module, *frame;
    if (!PyArg_ParseTuple(args, "sOO", &path, &module, &frame)) return NULL;
    const char *p = nn_ctx_intern(py_ctx(), path);
    if (!p) return PyErr_NoMemory();
    if (dbg.depth) { /* remember it under its parent */
        path_entry *e = path_slot(dbg.stack[dbg.depth - 1].path, module);
        Py_XSETREF(e->module, Py_NewRef(module));
        e->parent = dbg.stack[dbg.depth - 1].path;
        e->path = p;
    }
    push(p, module, frame);
    Py_RETURN_NONE;
}

/* _debug_pop(module): end [module]'s call (and any left above it). */
static PyObject *f_debug_pop(PyObject *m, PyObject *module) {
    (void)m;
    int k = dbg.depth - 1;
    while (k >= 0 && dbg.stack[k].module != module) k--;
    while (k >= 0 && dbg.depth > k) {
        module_entry *e = &dbg.stack[--dbg.depth];
        Py_CLEAR(e->module);
        Py_CLEAR(e->frame);
    }
    Py_RETURN_NONE;
}

/* ---- values ---- */

/* _debug_stats(t): (n, non-finite, mean, std, min, max) of the finite
 * elements (NaN where undefined; std needs two). */
static PyObject *f_debug_stats(PyObject *m, PyObject *o) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(o, "_debug_stats", "t", &t) < 0) return NULL;
    int64_t n = nn_tensor_numel(t), bad = 0, good = 0;
    double mean = NAN, std = NAN, mn = NAN, mx = NAN;
    if (nn_dtype_is_float(t->dtype) || t->dtype == NN_INT64) {
        double sum = 0, sq = 0, lo = INFINITY, hi = -INFINITY;
        for (int64_t i = 0; i < n; i++) {
            double v = nn_tensor_flat_value(t, i);
            if (!isfinite(v)) {
                bad++;
                continue;
            }
            good++;
            sum += v;
            sq += v * v;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        if (good) {
            mean = sum / (double)good;
            mn = lo;
            mx = hi;
        }
        if (good > 1) {
            double var = (sq - sum * mean) / (double)(good - 1);
            std = var > 0 ? sqrt(var) : 0;
        }
    }
    return Py_BuildValue("(LLdddd)", (long long)n, (long long)bad, mean, std, mn, mx);
}

/* _debug_storage(t): the identity of t's storage (parameters and the views
 * of them share it), for naming a node's inputs. */
static PyObject *f_debug_storage(PyObject *m, PyObject *o) {
    (void)m;
    nn_tensor *t = py_tensor_of(o);
    if (!t) Py_RETURN_NONE;
    return PyLong_FromVoidPtr(t->storage);
}

/* _debug_nonfinite(t): None, or (count, flat, value, index) of the first
 * non-finite element. */
static PyObject *f_debug_nonfinite(PyObject *m, PyObject *o) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(o, "_debug_nonfinite", "t", &t) < 0) return NULL;
    int64_t first = 0;
    double v = 0;
    int64_t bad = nn_tensor_nonfinite(t, &first, &v);
    if (!bad) Py_RETURN_NONE;
    char idx[128];
    nn_tensor_index_str(t, first, idx, sizeof idx);
    return Py_BuildValue("(LLds)", (long long)bad, (long long)first, v, idx);
}

/* _debug_param_nonfinite(p): _debug_nonfinite for the NaN hunt's check of a
 * parameter around an optimizer step: None at once when [p] is known to be
 * finite (nn_tensor_known_finite: the update that wrote it checked, or the
 * last check found it so, and nothing wrote it since); a parameter found
 * finite is noted so. */
static PyObject *f_debug_param_nonfinite(PyObject *m, PyObject *o) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(o, "_debug_param_nonfinite", "p", &t) < 0) return NULL;
    if (nn_tensor_known_finite(t)) Py_RETURN_NONE;
    int64_t first = 0;
    double v = 0;
    int64_t bad = nn_tensor_nonfinite(t, &first, &v);
    if (!bad) {
        nn_tensor_mark_finite(t);
        Py_RETURN_NONE;
    }
    char idx[128];
    nn_tensor_index_str(t, first, idx, sizeof idx);
    return Py_BuildValue("(LLds)", (long long)bad, (long long)first, v, idx);
}

/* _debug_check_writes(on): the optimizers' updates check the values they
 * write (ctx->check_writes; anomaly mode). */
static PyObject *f_debug_check_writes(PyObject *m, PyObject *on) {
    (void)m;
    int v = PyObject_IsTrue(on);
    if (v < 0) return NULL;
    py_ctx()->check_writes = v;
    Py_RETURN_NONE;
}

static PyObject *f_debug_clear_interrupt(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    atomic_store(&py_ctx()->interrupt, 0);
    Py_RETURN_NONE;
}

/* _debug_state(): (backward() calls completed, the running one or 0,
 * whether a last backward root is kept) while the hook counted them. */
static PyObject *f_debug_state(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return Py_BuildValue("(LLO)", (long long)dbg.backward_done, (long long)dbg.backward_pass,
                         dbg.last_root ? Py_True : Py_False);
}

/* ---- the graph (%graph) ---- */

typedef struct gwalk {
    const nn_node **nodes;
    int n;
    bool truncated;
    const nn_node *current;
    const nn_tensor *current_out;
} gwalk;

static int gfind(const gwalk *g, const nn_node *n) {
    for (int i = 0; i < g->n; i++)
        if (g->nodes[i] == n) return i;
    return -1;
}

/* The producer of input [i]: recorded on the node, or, for the forward node
 * a stop shows (recorded only after the hooks ran), the input's own. */
static const nn_node *input_fn(const nn_node *n, int i) {
    if (n->in[i].fn) return n->in[i].fn;
    const nn_tensor *t = n->in[i].t;
    return t && !n->refcount ? t->grad_fn : NULL;
}

static void gcollect(gwalk *g, const nn_node *root) {
    const nn_node **stack = malloc(sizeof *stack * MAX_NODES);
    g->nodes = malloc(sizeof *g->nodes * MAX_NODES);
    if (!stack || !g->nodes) {
        free(stack);
        return;
    }
    int sp = 0;
    stack[sp++] = root;
    while (sp) {
        const nn_node *n = stack[--sp];
        if (gfind(g, n) >= 0) continue;
        if (g->n == MAX_NODES) {
            g->truncated = true;
            break;
        }
        g->nodes[g->n++] = n;
        for (int i = n->n_in - 1; i >= 0 && sp < MAX_NODES; i--) {
            const nn_node *f = input_fn(n, i);
            if (f) stack[sp++] = f;
        }
    }
    free(stack);
    /* newest first, as backward visits them */
    for (int i = 1; i < g->n; i++) {
        const nn_node *x = g->nodes[i];
        int j = i - 1;
        while (j >= 0 && g->nodes[j]->seq < x->seq) {
            g->nodes[j + 1] = g->nodes[j];
            j--;
        }
        g->nodes[j + 1] = x;
    }
}

static PyObject *node_record(const gwalk *g, int k) {
    const nn_node *n = g->nodes[k];
    const nn_tensor *out = n->out ? n->out : n == g->current ? g->current_out : NULL;
    PyObject *shape = PyTuple_New(n->out_ndim);
    for (int d = 0; shape && d < n->out_ndim; d++)
        PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(n->out_shape[d]));
    if (shape && out && n->out_ndim == 0 && out->ndim > 0) { /* the stop's node: not recorded */
        Py_DECREF(shape);
        shape = PyTuple_New(out->ndim);
        for (int d = 0; shape && d < out->ndim; d++)
            PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(out->shape[d]));
    }
    PyObject *inputs = PyList_New(0);
    for (int i = 0; inputs && i < n->n_in; i++) {
        const nn_node *f = input_fn(n, i);
        const nn_tensor *t = n->in[i].t;
        PyObject *item = NULL;
        if (f) {
            int fk = gfind(g, f);
            if (fk < 0) continue;
            item = Py_BuildValue("(si)", "node", fk + 1);
        } else if (t) {
            item = Py_BuildValue("(sN)", t->requires_grad ? "leaf" : "input",
                                 tensor_or_none((nn_tensor *)t));
        } else {
            continue;
        }
        if (!item || PyList_Append(inputs, item) < 0) Py_CLEAR(inputs);
        Py_XDECREF(item);
    }
    if (!shape || !inputs) {
        Py_XDECREF(shape);
        Py_XDECREF(inputs);
        return NULL;
    }
    return Py_BuildValue("{s:i,s:s,s:N,s:N,s:N,s:i,s:N,s:N,s:N,s:O}", "id", k + 1, "op",
                         nn_op_name(n->op), "shape", shape, "module", str_or_none(n->label.module),
                         "file", str_or_none(n->label.file), "line", n->label.line, "inputs",
                         inputs, "out", tensor_or_none((nn_tensor *)out), "grad",
                         tensor_or_none(n->grad), "current", n == g->current ? Py_True : Py_False);
}

/* _debug_graph(root, event=None): (nodes, truncated): the recorded graph
 * behind [root] (a tensor with a grad_fn; None: the stop's forward node, or
 * the root of the last backward), newest first, each a dict with id, op,
 * shape, module, file, line, inputs [("node", id) | ("leaf", t) |
 * ("input", t)], out, grad, current. */
static PyObject *f_debug_graph(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *root_obj, *event = Py_None;
    if (!PyArg_ParseTuple(args, "O|O", &root_obj, &event)) return NULL;
    const nn_hook_event *ev = NULL;
    if (event != Py_None) {
        if (!Py_IS_TYPE(event, &event_type))
            return PyErr_Format(PyExc_TypeError, "_debug_graph: event must be a stop's event");
        ev = ((dbg_event *)event)->ev;
    }
    const nn_node *root = NULL;
    if (root_obj != Py_None) {
        nn_tensor *t;
        if (py_tensor_arg(root_obj, "%graph", "the tensor", &t) < 0) return NULL;
        if (!t->grad_fn)
            return PyErr_Format(PyExc_ValueError, "this tensor has no recorded graph (a leaf, or "
                                                  "made under no_grad)");
        root = t->grad_fn;
    } else if (ev && ev->phase == NN_PHASE_FORWARD) {
        root = ev->node;
    } else if (dbg.last_root) {
        root = dbg.last_root;
    } else {
        Py_RETURN_NONE;
    }
    gwalk g = {NULL, 0, false, ev ? ev->node : NULL, ev ? ev->output : NULL};
    gcollect(&g, root);
    if (!g.n) {
        free(g.nodes);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(g.n);
    for (int k = 0; list && k < g.n; k++) {
        PyObject *r = node_record(&g, k);
        if (!r)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, k, r);
    }
    free(g.nodes);
    if (!list) return NULL;
    return Py_BuildValue("(NO)", list, g.truncated ? Py_True : Py_False);
}

/* _debug_failed_node(): the backward node whose backward raised in the last
 * backward() (while the hook was on), as {op, name, module, file, line} of
 * the forward op that recorded it, or None; taken: it is let go here. */
static PyObject *f_debug_failed_node(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    nn_node *n = dbg.bwd_node;
    if (!n) Py_RETURN_NONE;
    const char *name = NULL;
    if (n->op == NN_OP_CUSTOM) {
        const nn_custom *c = (const nn_custom *)(intptr_t)n->p.i[0];
        name = c ? c->name : NULL;
    }
    PyObject *r = Py_BuildValue("{s:s,s:N,s:N,s:N,s:i}", "op", nn_op_name(n->op), "name",
                                str_or_none(name), "module", str_or_none(n->label.module), "file",
                                str_or_none(n->label.file), "line", n->label.line);
    dbg.bwd_node = NULL;
    nn_node_release(n);
    return r;
}

/* _debug_op_names(): the engine's op names, as breakpoints take them. */
static PyObject *f_debug_op_names(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    PyObject *t = PyTuple_New(NN_OP_COUNT);
    for (int i = 0; t && i < NN_OP_COUNT; i++) {
        PyObject *s = PyUnicode_FromString(nn_op_name((nn_op)i));
        if (!s)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

/* _debug_locals_to_fast(frame): an assignment made at a stop in a function's
 * frame (pdb writes frame.f_locals) reaches the function's variables. */
static PyObject *f_debug_locals_to_fast(PyObject *m, PyObject *frame) {
    (void)m;
    if (!PyFrame_Check(frame)) return PyErr_Format(PyExc_TypeError, "a frame, please");
    PyFrame_LocalsToFast((PyFrameObject *)frame, 0);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

PyMethodDef py_debug_functions[] = {
    {"_debug_op_names", f_debug_op_names, METH_NOARGS, "the engine's op names"},
    {"_debug_failed_node", f_debug_failed_node, METH_NOARGS,
     "the backward node that raised in the last backward(), or None (taken)"},
    {"_debug_locals_to_fast", f_debug_locals_to_fast, METH_O,
     "write a frame's f_locals back to its variables"},
    {"_debug_hook", f_debug_hook, METH_VARARGS,
     "_debug_hook(callback, mode=0): the debugger's executor hook; None removes it"},
    {"_debug_reset", f_debug_reset, METH_NOARGS,
     "forget every breakpoint-independent state: a session begins or ends"},
    {"_debug_arm", f_debug_arm, METH_O, "_debug_arm(on): the next Ctrl-C asks for a stop"},
    {"_debug_take_break", f_debug_take_break, METH_NOARGS, "whether a Ctrl-C asked for a stop"},
    {"_debug_internal", f_debug_internal, METH_O,
     "_debug_internal(folders): files that are nndb's own, not the user's"},
    {"_debug_top", f_debug_top, METH_O, "_debug_top(frame): (path, module) or None"},
    {"_debug_enter", f_debug_enter, METH_VARARGS, "_debug_enter(module, frame) -> known"},
    {"_debug_push", f_debug_push, METH_VARARGS, "_debug_push(path, module, frame)"},
    {"_debug_pop", f_debug_pop, METH_O, "_debug_pop(module)"},
    {"_debug_stats", f_debug_stats, METH_O, "(n, non-finite, mean, std, min, max)"},
    {"_debug_storage", f_debug_storage, METH_O, "the identity of a tensor's storage"},
    {"_debug_nonfinite", f_debug_nonfinite, METH_O, "None or (count, flat, value, index)"},
    {"_debug_param_nonfinite", f_debug_param_nonfinite, METH_O,
     "_debug_nonfinite, None at once for a parameter known finite"},
    {"_debug_check_writes", f_debug_check_writes, METH_O,
     "whether the optimizers' updates check what they write"},
    {"_debug_clear_interrupt", f_debug_clear_interrupt, METH_NOARGS,
     "forget the engine's pending interrupt"},
    {"_debug_state", f_debug_state, METH_NOARGS, "(backward done, backward running, has root)"},
    {"_debug_graph", f_debug_graph, METH_VARARGS, "_debug_graph(root, event=None)"},
    {NULL, NULL, 0, NULL},
};
