/* py_instruments: the kernels under nndb.instruments and
 * torch.autograd.gradcheck (engine/nn_check.h, engine/nn_profile.h).
 *
 * The reports, their tables and the magics are Python (python/nndb/
 * instruments.py); what is C here is what must see the executor: gradcheck
 * and the batch-dependency check (they call back into a Python function
 * while the engine perturbs tensors or watches embedding lookups), the
 * per-op profiler (a hook on every node), the module label nodes are
 * recorded under, and the float64 summary of a tensor.
 *
 * A Python function called from an engine callback that raises leaves its
 * exception set; the engine then fails with a placeholder error and the
 * caller returns NULL with the Python exception, not the placeholder.
 */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "nn_check.h"
#include "nn_graph.h"
#include "nn_mem.h"
#include "nn_profile.h"
#include "py.h"

/* ---- calling Python from a check ---- */

typedef struct callback {
    PyObject *fn;      /* borrowed; called with no arguments, or with the batch copy */
    nn_tensor **batch; /* dependencies: the copy the engine made, else NULL */
    bool raised;       /* the Python function raised: its exception is pending */
} callback;

static nn_tensor *call_python(nn_ctx *ctx, void *user) {
    callback *c = user;
    if (c->raised) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the function raised");
        return NULL;
    }
    PyObject *r;
    if (c->batch) {
        PyObject *x = py_tensor_wrap(nn_tensor_retain(*c->batch));
        r = x ? PyObject_CallOneArg(c->fn, x) : NULL;
        Py_XDECREF(x);
    } else {
        r = PyObject_CallNoArgs(c->fn);
    }
    nn_tensor *t = r ? py_tensor_of(r) : NULL;
    if (r && !t)
        PyErr_Format(PyExc_TypeError, "the function returned %s; it must return a Tensor",
                     Py_TYPE(r)->tp_name);
    if (!t) {
        Py_XDECREF(r);
        c->raised = true;
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "the function raised");
        return NULL;
    }
    nn_tensor_retain(t);
    Py_DECREF(r);
    return t;
}

/* The Python exception when the function raised, else the engine's. */
static PyObject *check_failed(const callback *c) {
    if (c->raised && PyErr_Occurred()) {
        nn_ctx_clear_error(py_ctx());
        return NULL;
    }
    return py_engine_error();
}

/* _gradcheck(fn, tensors, names, eps, atol, rtol, samples, seed) ->
 * (passed, projected, calls, [(name, shape, checked, max_abs, max_rel,
 *  worst flat index, analytic, numeric, reached, passed), ...]).
 * [tensors] are float64 leaves that require grad; fn() computes the output
 * from them (the engine perturbs them in place and restores them). */
static PyObject *f_gradcheck(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fn, *tl, *nl;
    nn_gradcheck_opts o = nn_gradcheck_defaults();
    long long samples, seed;
    if (!PyArg_ParseTuple(args, "OOOdddLL:_gradcheck", &fn, &tl, &nl, &o.eps, &o.atol, &o.rtol,
                          &samples, &seed))
        return NULL;
    o.samples = samples;
    o.seed = (uint64_t)seed;
    if (!PyList_Check(tl) || !PyList_Check(nl) || PyList_GET_SIZE(tl) != PyList_GET_SIZE(nl)) {
        PyErr_SetString(PyExc_TypeError, "_gradcheck: tensors and names must be equal lists");
        return NULL;
    }
    int n = (int)PyList_GET_SIZE(tl);
    nn_tensor **ts = PyMem_Calloc((size_t)n + 1, sizeof *ts);
    const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
    if (!ts || !names) {
        PyMem_Free(ts);
        PyMem_Free(names);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < n; i++) {
        names[i] = PyUnicode_AsUTF8(PyList_GET_ITEM(nl, i));
        if (!names[i] || py_tensor_arg(PyList_GET_ITEM(tl, i), "gradcheck", "inputs", &ts[i]) < 0) {
            PyMem_Free(ts);
            PyMem_Free(names);
            return NULL;
        }
    }
    callback c = {fn, NULL, false};
    nn_gradcheck_result r = {0};
    nn_status st = nn_gradcheck(py_ctx(), call_python, &c, ts, names, n, &o, &r);
    PyMem_Free(ts);
    PyMem_Free(names);
    if (st) return check_failed(&c);
    PyObject *rows = PyList_New(r.n);
    for (int i = 0; rows && i < r.n; i++) {
        const nn_gradcheck_entry *e = &r.entries[i];
        PyObject *shape = PyTuple_New(e->ndim);
        for (int d = 0; shape && d < e->ndim; d++)
            PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(e->shape[d]));
        PyObject *row =
            shape ? Py_BuildValue("(sNLddLddOO)", e->name, shape, (long long)e->checked, e->max_abs,
                                  e->max_rel, (long long)e->worst, e->analytic, e->numeric,
                                  e->reached ? Py_True : Py_False, e->pass ? Py_True : Py_False)
                  : NULL;
        if (!row)
            Py_CLEAR(rows);
        else
            PyList_SET_ITEM(rows, i, row);
    }
    PyObject *out =
        rows ? Py_BuildValue("(OOLN)", r.pass ? Py_True : Py_False,
                             r.projected ? Py_True : Py_False, (long long)r.f_calls, rows)
             : NULL;
    nn_gradcheck_result_free(&r);
    return out;
}

/* _dependencies(fn, x, i) -> ([leaking rows], batch, [|grad| per row]).
 * fn(xb) computes the output from the batch the engine hands it: a copy
 * of a float [x] that requires grad, or int64 [x] itself (token ids, then
 * followed through every embedding lookup). */
static PyObject *f_dependencies(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fn, *xo;
    long long i;
    if (!PyArg_ParseTuple(args, "OOL:_dependencies", &fn, &xo, &i)) return NULL;
    nn_tensor *x;
    if (py_tensor_arg(xo, "dependencies", "x", &x) < 0) return NULL;
    nn_tensor *copy = NULL;
    callback c = {fn, &copy, false};
    nn_dependency_result r = {0};
    nn_status st = nn_dependencies(py_ctx(), call_python, &c, x, i, &copy, &r);
    nn_tensor_release(copy);
    if (st) return check_failed(&c);
    PyObject *rows = PyList_New(r.n_rows), *norms = PyList_New(r.batch);
    for (int64_t k = 0; rows && k < r.n_rows; k++)
        PyList_SET_ITEM(rows, k, PyLong_FromLongLong(r.rows[k]));
    for (int64_t k = 0; norms && k < r.batch; k++)
        PyList_SET_ITEM(norms, k, PyFloat_FromDouble(r.row_norm[k]));
    int64_t batch = r.batch;
    nn_dependency_result_free(&r);
    if (!rows || !norms) {
        Py_XDECREF(rows);
        Py_XDECREF(norms);
        return NULL;
    }
    return Py_BuildValue("(NLN)", rows, (long long)batch, norms);
}

/* _summarize(t) -> (n, nonfinite, mean, std, min, max), in float64; std
 * with Bessel's correction; NaN where a figure does not exist. */
static PyObject *f_summarize(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(arg, "_summarize", "input", &t) < 0) return NULL;
    nn_summary s;
    nn_summarize(t, &s);
    return Py_BuildValue("(LLdddd)", (long long)s.n, (long long)s.nonfinite, s.mean, s.std, s.min,
                         s.max);
}

/* _set_label(module_path or None): the module path the nodes recorded
 * from now on carry (the profiler's per-module rows). */
static PyObject *f_set_label(PyObject *m, PyObject *arg) {
    (void)m;
    const char *path = NULL;
    if (arg != Py_None && !(path = PyUnicode_AsUTF8(arg))) return NULL;
    nn_ctx_set_label(py_ctx(), path, NULL, 0);
    Py_RETURN_NONE;
}

/* _test_wrong_grad(x): x * x with a backward wrong by 1 at flat element 2
 * (the engine's test-only op), so gradcheck's failure path can be shown
 * and tested against an op whose error is known exactly. */
static PyObject *f_test_wrong_grad(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *x;
    if (py_tensor_arg(arg, "_test_wrong_grad", "input", &x) < 0) return NULL;
    return py_tensor_wrap_named(nn_test_wrong_grad(py_ctx(), x), "TestWrongGradBackward");
}

/* ---- the profiler ---- */

static const char *const profile_capsule = "nndb.profile";

static void profile_destroy(PyObject *cap) {
    nn_profile_free(PyCapsule_GetPointer(cap, profile_capsule));
}

static nn_profile *profile_of(PyObject *cap) {
    return PyCapsule_GetPointer(cap, profile_capsule);
}

/* _profile_start() -> a handle; profiling runs until _profile_stop. */
static PyObject *f_profile_start(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    nn_profile *p = nn_profile_start(py_ctx());
    if (!p) return py_engine_error();
    PyObject *cap = PyCapsule_New(p, profile_capsule, profile_destroy);
    if (!cap) nn_profile_free(p);
    return cap;
}

static PyObject *f_profile_stop(PyObject *m, PyObject *cap) {
    (void)m;
    nn_profile *p = profile_of(cap);
    if (!p) return NULL;
    nn_profile_stop(p);
    Py_RETURN_NONE;
}

/* _profile_rows(handle, by_module) -> [(key, phase, calls, seconds, flops,
 * bytes_read, bytes_written), ...], longest first; phase is "forward" or
 * "backward". */
static PyObject *f_profile_rows(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cap;
    int by_module;
    if (!PyArg_ParseTuple(args, "Op:_profile_rows", &cap, &by_module)) return NULL;
    nn_profile *p = profile_of(cap);
    if (!p) return NULL;
    nn_profile_row *rows = NULL;
    int n = nn_profile_rows(p, by_module, &rows);
    if (n < 0) return PyErr_NoMemory();
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        const nn_profile_row *r = &rows[i];
        PyObject *row = Py_BuildValue("(ssLdddd)", r->key ? r->key : "",
                                      r->phase == NN_PHASE_FORWARD ? "forward" : "backward",
                                      (long long)r->calls, r->seconds, r->flops, r->bytes_read,
                                      r->bytes_written);
        if (!row)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, row);
    }
    free(rows);
    return out;
}

/* _profile_seconds(handle) -> (forward seconds, backward seconds) in ops. */
static PyObject *f_profile_seconds(PyObject *m, PyObject *cap) {
    (void)m;
    nn_profile *p = profile_of(cap);
    if (!p) return NULL;
    return Py_BuildValue("(dd)", nn_profile_seconds(p, NN_PHASE_FORWARD),
                         nn_profile_seconds(p, NN_PHASE_BACKWARD));
}

/* ---- the event log under torch.profiler ----
 *
 * nn_profile keeps sums per (op, module, phase); torch.profiler also needs
 * each node's start and end (the Chrome trace, record_function's nesting)
 * and its input shapes (record_shapes). This timing-only hook appends one
 * event per node: op, phase, the grad_fn name PyTorch shows for it, the
 * CLOCK_MONOTONIC stamps (the clock of Python's time.monotonic_ns, so
 * Python's record_function ranges nest with the nodes), the engine's FLOP
 * count (nn_node_cost, as nn_profile counts it), the bytes the node made
 * and, when asked, the input shapes packed as [n_in, (ndim, dims...)...]
 * and the Python frames around a forward node (with_stack). */

typedef struct trace_event {
    nn_op op;
    nn_phase phase;
    const char *grad_fn; /* static */
    int64_t t0, t1;      /* ns */
    double flops;
    int64_t bytes;    /* the output (forward) or the input gradients (backward) */
    size_t shape;     /* offset of the event's shapes in trace.dims */
    Py_ssize_t stack; /* index of the event's frames in trace.stacks, or -1 */
} trace_event;

typedef struct trace {
    nn_ctx *ctx;
    int hook;
    bool shapes;      /* record the inputs' shapes */
    PyObject *stacks; /* with_stack: a list of frame lists, else NULL */
    bool oom;         /* an append failed: the log is incomplete */
    int64_t t0;
    trace_event *ev;
    size_t n, cap;
    int64_t *dims;
    size_t n_dims, cap_dims;
} trace;

static const char *const trace_capsule = "nndb.trace";

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static bool grow(void **buf, size_t *cap, size_t need, size_t item) {
    if (need <= *cap) return true;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need) c *= 2;
    void *b = realloc(*buf, c * item);
    if (!b) return false;
    *buf = b;
    *cap = c;
    return true;
}

static int64_t tensor_bytes(const nn_tensor *t) {
    return t ? nn_tensor_numel(t) * (int64_t)nn_dtype_size(t->dtype) : 0;
}

static void trace_shapes(trace *tr, const nn_node *n) {
    size_t need = tr->n_dims + 1;
    for (int i = 0; i < n->n_in; i++) need += 1 + (n->in[i].t ? (size_t)n->in[i].t->ndim : 0);
    if (!grow((void **)&tr->dims, &tr->cap_dims, need, sizeof *tr->dims)) {
        tr->oom = true;
        return;
    }
    tr->dims[tr->n_dims++] = n->n_in;
    for (int i = 0; i < n->n_in; i++) {
        const nn_tensor *t = n->in[i].t;
        tr->dims[tr->n_dims++] = t ? t->ndim : 0;
        for (int d = 0; t && d < t->ndim; d++) tr->dims[tr->n_dims++] = t->shape[d];
    }
}

static int in_ndim(const nn_node *n, int i) {
    return i < n->n_in && n->in[i].t ? n->in[i].t->ndim : 0;
}

/* The PyTorch backward node where [n]'s backward time goes. Mostly the
 * grad_fn name tensors show; but a linear or matmul on 3-D input shows a
 * view's grad_fn (ViewBackward0) whose child does the products in PyTorch
 * (AddmmBackward0, MmBackward0, BmmBackward0): the row takes the child's
 * name, so the products' time is not filed under a view's. */
static const char *trace_grad_fn(const nn_node *n) {
    if (n->op == NN_OP_LINEAR) return n->n_in > 2 ? "AddmmBackward0" : "MmBackward0";
    if (n->op == NN_OP_MATMUL) {
        int a = in_ndim(n, 0), b = in_ndim(n, 1);
        if (b == 1) return a == 1 ? "DotBackward0" : "MvBackward0";
        return b >= 3 ? "BmmBackward0" : "MmBackward0";
    }
    return nn_format_node_name(n);
}

/* Append the Python frames that led to the node of [e], innermost first,
 * as (filename, line, function) tuples. A forward node runs with the GIL
 * held, or without it inside backward (create_graph): ensure it. An error
 * here drops the stack, not the pass, and leaves the caller's exception. */
static void trace_stack(trace *tr, trace_event *e) {
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyObject *frames = PyList_New(0);
    PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
    Py_XINCREF(f);
    for (int depth = 0; f && frames && depth < 128; depth++) {
        PyCodeObject *code = PyFrame_GetCode(f);
        PyObject *row =
            Py_BuildValue("(OiO)", code->co_filename, PyFrame_GetLineNumber(f), code->co_name);
        Py_DECREF(code);
        if (!row || PyList_Append(frames, row) < 0) Py_CLEAR(frames);
        Py_XDECREF(row);
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    Py_XDECREF(f);
    if (frames && PyList_Append(tr->stacks, frames) == 0)
        e->stack = PyList_GET_SIZE(tr->stacks) - 1;
    Py_XDECREF(frames);
    if (PyErr_Occurred()) PyErr_Clear();
    PyErr_Restore(et, ev, tb);
    PyGILState_Release(g);
}

static nn_hook_action trace_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    (void)ctx;
    trace *tr = user;
    if (!ev->after) {
        tr->t0 = now_ns();
        return NN_HOOK_CONTINUE;
    }
    int64_t t1 = now_ns();
    if (!grow((void **)&tr->ev, &tr->cap, tr->n + 1, sizeof *tr->ev)) {
        tr->oom = true;
        return NN_HOOK_CONTINUE;
    }
    const nn_node *n = ev->node;
    trace_event *e = &tr->ev[tr->n++];
    /* nn_node_cost has no count for a Python autograd.Function (it asserts
     * on NN_OP_CUSTOM): such a node counts no FLOPs. */
    nn_op_cost cost = {0};
    if (n->op != NN_OP_CUSTOM) nn_node_cost(n, ev->output, ev->phase, &cost);
    *e = (trace_event){n->op, ev->phase, trace_grad_fn(n), tr->t0, t1, cost.flops, 0, 0, -1};
    if (ev->phase == NN_PHASE_FORWARD) {
        e->bytes = tensor_bytes(ev->output);
    } else if (ev->grad_inputs) {
        for (int i = 0; i < n->n_in; i++) e->bytes += tensor_bytes(ev->grad_inputs[i]);
    }
    e->shape = tr->n_dims;
    if (tr->shapes && ev->phase == NN_PHASE_FORWARD) trace_shapes(tr, n);
    if (tr->stacks && ev->phase == NN_PHASE_FORWARD) trace_stack(tr, e);
    return NN_HOOK_CONTINUE;
}

static void trace_stop(trace *tr) {
    if (tr->hook) nn_hook_remove(tr->ctx, tr->hook);
    tr->hook = 0;
}

static void trace_destroy(PyObject *cap) {
    trace *tr = PyCapsule_GetPointer(cap, trace_capsule);
    if (!tr) return;
    trace_stop(tr);
    free(tr->ev);
    free(tr->dims);
    Py_XDECREF(tr->stacks);
    free(tr);
}

/* _trace_start(record_shapes, with_stack) -> a handle; events are logged
 * until _trace_stop. */
static PyObject *f_trace_start(PyObject *m, PyObject *args) {
    (void)m;
    int shapes, with_stack;
    if (!PyArg_ParseTuple(args, "pp:_trace_start", &shapes, &with_stack)) return NULL;
    trace *tr = calloc(1, sizeof *tr);
    if (!tr) return PyErr_NoMemory();
    tr->ctx = py_ctx();
    tr->shapes = shapes;
    if (with_stack && !(tr->stacks = PyList_New(0))) {
        free(tr);
        return NULL;
    }
    tr->hook = nn_hook_add(tr->ctx, "trace", trace_hook, tr);
    if (!tr->hook) {
        Py_XDECREF(tr->stacks);
        free(tr);
        PyErr_Format(PyExc_RuntimeError,
                     "profiler: the hook table is full (%d hooks); remove a breakpoint first",
                     NN_MAX_HOOKS);
        return NULL;
    }
    nn_hook_set_timing_only(tr->ctx, tr->hook);
    PyObject *cap = PyCapsule_New(tr, trace_capsule, trace_destroy);
    if (!cap) {
        trace_stop(tr);
        Py_XDECREF(tr->stacks);
        free(tr);
    }
    return cap;
}

static PyObject *f_trace_stop(PyObject *m, PyObject *cap) {
    (void)m;
    trace *tr = PyCapsule_GetPointer(cap, trace_capsule);
    if (!tr) return NULL;
    trace_stop(tr);
    Py_RETURN_NONE;
}

static PyObject *shapes_of(const trace *tr, const trace_event *e, size_t end) {
    if (e->shape >= end) return PyList_New(0);
    const int64_t *d = tr->dims + e->shape;
    int64_t n_in = *d++;
    PyObject *out = PyList_New(n_in);
    for (int64_t i = 0; out && i < n_in; i++) {
        int64_t nd = *d++;
        PyObject *s = PyList_New(nd);
        for (int64_t k = 0; s && k < nd; k++) PyList_SET_ITEM(s, k, PyLong_FromLongLong(*d++));
        if (!s)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, i, s);
    }
    return out;
}

/* _trace_events(handle) -> (complete, [(op, phase, grad_fn, t0_ns, t1_ns,
 * flops, bytes, input shapes, [(file, line, function), ...] or None), ...]) in the order the nodes
 * finished; complete is False when memory ran out and events were dropped. */
static PyObject *f_trace_events(PyObject *m, PyObject *cap) {
    (void)m;
    trace *tr = PyCapsule_GetPointer(cap, trace_capsule);
    if (!tr) return NULL;
    PyObject *out = PyList_New((Py_ssize_t)tr->n);
    for (size_t i = 0; out && i < tr->n; i++) {
        const trace_event *e = &tr->ev[i];
        size_t end = i + 1 < tr->n ? tr->ev[i + 1].shape : tr->n_dims;
        PyObject *stack = e->stack >= 0 ? PyList_GET_ITEM(tr->stacks, e->stack) : Py_None;
        PyObject *row = Py_BuildValue("(sszLLdLNO)", nn_op_name(e->op),
                                      e->phase == NN_PHASE_FORWARD ? "forward" : "backward",
                                      e->grad_fn, (long long)e->t0, (long long)e->t1, e->flops,
                                      (long long)e->bytes, shapes_of(tr, e, end), stack);
        if (!row)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, (Py_ssize_t)i, row);
    }
    return out ? Py_BuildValue("(ON)", tr->oom ? Py_False : Py_True, out) : NULL;
}

/* _mem_stats() -> the engine allocator's figures: cap, in_use, peak,
 * cached, touched (bytes), heap_calls, allocs. _mem_reset_peak() starts a new peak. */
static PyObject *f_mem_stats(PyObject *m, PyObject *unused) {
    nn_mem_stats st = nn_mem_get_stats();
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:K,s:K,s:n}", "cap", (Py_ssize_t)st.cap, "in_use",
                         (Py_ssize_t)st.in_use, "peak", (Py_ssize_t)st.peak, "cached",
                         (Py_ssize_t)st.cached, "heap_calls", (unsigned long long)st.heap_calls,
                         "allocs", (unsigned long long)st.allocs, "touched",
                         (Py_ssize_t)st.touched);
}

static PyObject *f_mem_reset_peak(PyObject *m, PyObject *unused) {
    nn_mem_reset_peak();
    Py_RETURN_NONE;
}

/* _sgemm_peak() -> this machine's float32 matmul GFLOP/s (measured once). */
static PyObject *f_sgemm_peak(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    double g = nn_sgemm_peak_gflops(py_ctx());
    if (!(g > 0)) return py_engine_error();
    return PyFloat_FromDouble(g);
}

PyMethodDef py_instruments_functions[] = {
    {"_gradcheck", f_gradcheck, METH_VARARGS, "central differences in float64 (nn_gradcheck)"},
    {"_dependencies", f_dependencies, METH_VARARGS, "which batch rows one example depends on"},
    {"_summarize", f_summarize, METH_O, "(n, nonfinite, mean, std, min, max) of a tensor"},
    {"_set_label", f_set_label, METH_O, "the module path recorded nodes carry"},
    {"_profile_start", f_profile_start, METH_NOARGS, "start the per-op profiler"},
    {"_profile_stop", f_profile_stop, METH_O, NULL},
    {"_profile_rows", f_profile_rows, METH_VARARGS, NULL},
    {"_profile_seconds", f_profile_seconds, METH_O, NULL},
    {"_trace_start", f_trace_start, METH_VARARGS, "log each node's times (torch.profiler)"},
    {"_trace_stop", f_trace_stop, METH_O, NULL},
    {"_trace_events", f_trace_events, METH_O, NULL},
    {"_test_wrong_grad", f_test_wrong_grad, METH_O, "x * x with a wrong backward (tests)"},
    {"_sgemm_peak", f_sgemm_peak, METH_NOARGS, "float32 matmul GFLOP/s of this machine"},
    {"_mem_stats", f_mem_stats, METH_NOARGS, "the engine allocator's figures (bytes)"},
    {"_mem_reset_peak", f_mem_reset_peak, METH_NOARGS, "start a new allocator peak"},
    {NULL, NULL, 0, NULL},
};
