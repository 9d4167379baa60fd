/* py_autograd: the parts of torch.autograd that reach into backward.
 *
 * Tensor.register_hook: a Python callable on the engine's gradient hooks
 * (nn_grad_hook_add), which may return a replacement gradient.
 * torch.autograd.Function: one engine node (nn_custom_apply) per apply
 * whose backward calls the ctx object's _run_backward, written in Python
 * (python/torch/autograd/function.py); that ctx object is the node's
 * grad_fn, as in PyTorch. torch.autograd.grad over nn_grad.
 *
 * Backward runs with the GIL released (Tensor.backward), so every callback
 * takes it. A Python exception raised inside a callback is kept here and
 * becomes the exception of the engine call that failed (py_engine_error
 * asks py_autograd_take_error first), so a hook's own error reaches the
 * user unchanged rather than as an engine message.
 */
#include <stdint.h>

#include "nn_graph.h"
#include "py.h"

/* ---- a callback's Python exception ---- */

static PyObject *pending_type, *pending_value, *pending_tb;

/* Keep the Python exception now set for the engine call that is failing,
 * and fail [st] with an engine error that stands for it. */
static void fail_with_python_error(nn_ctx *ctx, nn_status *st, const char *where) {
    Py_XDECREF(pending_type);
    Py_XDECREF(pending_value);
    Py_XDECREF(pending_tb);
    PyErr_Fetch(&pending_type, &pending_value, &pending_tb);
    *st = nn_error_set(&ctx->err, NN_ERR_RUNTIME, "a Python error in %s", where);
}

bool py_autograd_take_error(void) {
    if (!pending_type) return false;
    PyErr_Restore(pending_type, pending_value, pending_tb);
    pending_type = pending_value = pending_tb = NULL;
    return true;
}

/* ---- Tensor.register_hook ---- */

static nn_tensor *grad_hook_call(nn_ctx *ctx, nn_tensor *grad, void *user, nn_status *st) {
    PyGILState_STATE gs = PyGILState_Ensure();
    nn_tensor *out = NULL;
    PyObject *g = py_tensor_wrap(nn_tensor_retain(grad));
    PyObject *r = g ? PyObject_CallOneArg((PyObject *)user, g) : NULL;
    Py_XDECREF(g);
    if (!r) {
        fail_with_python_error(ctx, st, "a gradient hook");
    } else if (r != Py_None) {
        if (py_tensor_check(r)) {
            out = nn_tensor_retain(py_tensor_of(r));
        } else {
            PyErr_Format(PyExc_TypeError, "hook returned %s where a Tensor or None belongs",
                         Py_TYPE(r)->tp_name);
            fail_with_python_error(ctx, st, "a gradient hook");
        }
    }
    Py_XDECREF(r);
    PyGILState_Release(gs);
    return out;
}

static void grad_hook_drop(void *user) {
    PyGILState_STATE gs = PyGILState_Ensure();
    Py_DECREF((PyObject *)user);
    PyGILState_Release(gs);
}

/* _add_grad_hook(tensor, fn) -> the hook's id */
static PyObject *f_add_grad_hook(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *t, *fn;
    if (!PyArg_ParseTuple(args, "O!O", &py_tensor_base_type, &t, &fn)) return NULL;
    if (!PyCallable_Check(fn)) {
        PyErr_Format(PyExc_TypeError, "register_hook: the hook must be callable, not %s",
                     Py_TYPE(fn)->tp_name);
        return NULL;
    }
    Py_INCREF(fn);
    int id = nn_grad_hook_add(py_ctx(), py_tensor_of(t), grad_hook_call, fn, grad_hook_drop);
    if (!id) {
        Py_DECREF(fn);
        return py_engine_error();
    }
    return PyLong_FromLong(id);
}

static PyObject *f_remove_grad_hook(PyObject *m, PyObject *arg) {
    (void)m;
    long id = PyLong_AsLong(arg);
    if (id == -1 && PyErr_Occurred()) return NULL;
    nn_grad_hook_remove(py_ctx(), (int)id);
    Py_RETURN_NONE;
}

/* ---- torch.autograd.Function ---- */

/* One apply: the engine node refers to it by address and frees it when the
 * node goes (nn_custom.drop). It holds the ctx object (the grad_fn). */
typedef struct fn_record {
    nn_custom c;
    PyObject *ctx;
} fn_record;

static nn_status fn_backward(nn_ctx *ctx, nn_custom *c, nn_tensor *dout, int n_in,
                             const bool *needs, nn_tensor **din) {
    fn_record *r = (fn_record *)c;
    nn_status st = NN_OK;
    PyGILState_STATE gs = PyGILState_Ensure();
    PyObject *g = py_tensor_wrap(nn_tensor_retain(dout));
    PyObject *res = g ? PyObject_CallMethod(r->ctx, "_run_backward", "O", g) : NULL;
    Py_XDECREF(g);
    if (res && (!PyTuple_Check(res) || PyTuple_GET_SIZE(res) != n_in)) {
        PyErr_SetString(PyExc_SystemError, "Function._run_backward: one gradient per input");
        Py_CLEAR(res);
    }
    for (int i = 0; res && i < n_in; i++) {
        PyObject *gi = PyTuple_GET_ITEM(res, i);
        if (needs[i] && py_tensor_check(gi)) din[i] = nn_tensor_retain(py_tensor_of(gi));
    }
    if (!res) fail_with_python_error(ctx, &st, c->name);
    Py_XDECREF(res);
    PyGILState_Release(gs);
    return st;
}

static void fn_record_drop(nn_custom *c) {
    fn_record *r = (fn_record *)c;
    PyGILState_STATE gs = PyGILState_Ensure();
    Py_DECREF(r->ctx);
    nn_tensor_release(r->c.output);
    PyMem_RawFree(r);
    PyGILState_Release(gs);
}

/* _function_record(ctx, inputs, output, name): record one node over the
 * tensors [inputs] whose output is [output]'s values and whose backward is
 * ctx._run_backward. Returns the recorded output, whose grad_fn is ctx. */
static PyObject *f_function_record(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *ctxo, *inputs, *output;
    const char *name;
    if (!PyArg_ParseTuple(args, "OO!O!s", &ctxo, &PyTuple_Type, &inputs, &py_tensor_base_type,
                          &output, &name))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    nn_tensor **ins = PyMem_RawMalloc(sizeof *ins * (size_t)(n ? n : 1));
    fn_record *r = PyMem_RawCalloc(1, sizeof *r);
    if (!ins || !r) {
        PyMem_RawFree(ins);
        PyMem_RawFree(r);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        ins[i] = py_tensor_of(PyTuple_GET_ITEM(inputs, i));
        if (!ins[i]) {
            PyMem_RawFree(ins);
            PyMem_RawFree(r);
            PyErr_SetString(PyExc_TypeError, "_function_record: inputs must be tensors");
            return NULL;
        }
    }
    nn_ctx *ectx = py_ctx();
    r->c.name = nn_ctx_intern(ectx, name);
    r->c.output = nn_tensor_retain(py_tensor_of(output));
    r->c.backward = fn_backward;
    r->ctx = ctxo;
    Py_INCREF(ctxo);
    nn_tensor *y = nn_custom_apply(ectx, ins, (int)n, &r->c);
    PyMem_RawFree(ins);
    if (y && y->grad_fn && y->grad_fn->op == NN_OP_CUSTOM &&
        (nn_custom *)(intptr_t)y->grad_fn->p.i[0] == &r->c) {
        r->c.drop = fn_record_drop; /* the node owns the record now */
    } else {
        Py_DECREF(r->ctx);
        nn_tensor_release(r->c.output);
        PyMem_RawFree(r);
    }
    return py_tensor_wrap(y);
}

/* _set_grad_fn_name(tensor, name): the name its grad_fn shows (each output
 * of a Function with several, a view of the one node's output). */
static PyObject *f_set_grad_fn_name(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *t;
    const char *name;
    if (!PyArg_ParseTuple(args, "O!s", &py_tensor_base_type, &t, &name)) return NULL;
    if (py_tensor_of(t)->grad_fn) ((py_tensor *)t)->fn_name = nn_ctx_intern(py_ctx(), name);
    Py_RETURN_NONE;
}

PyObject *py_autograd_grad_fn(nn_node *node) {
    if (!node || node->op != NN_OP_CUSTOM) return NULL;
    nn_custom *c = (nn_custom *)(intptr_t)node->p.i[0];
    if (!c || c->drop != fn_record_drop) return NULL;
    PyObject *o = ((fn_record *)c)->ctx;
    Py_INCREF(o);
    return o;
}

/* ---- torch.autograd.grad ---- */

/* _grad(output, gradient, retain_graph, inputs) -> tuple of gradients (None
 * where the pass did not reach an input) */
static PyObject *f_grad(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *out, *gradient, *inputs;
    int retain;
    if (!PyArg_ParseTuple(args, "O!OpO!", &py_tensor_base_type, &out, &gradient, &retain,
                          &PyTuple_Type, &inputs))
        return NULL;
    nn_tensor *g = NULL;
    if (gradient != Py_None && py_tensor_arg(gradient, "grad", "grad_outputs", &g) < 0) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(inputs);
    nn_tensor **ins = PyMem_RawCalloc((size_t)(n ? n : 1), sizeof *ins);
    nn_tensor **grads = PyMem_RawCalloc((size_t)(n ? n : 1), sizeof *grads);
    PyObject *res = NULL;
    if (!ins || !grads) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (py_tensor_arg(PyTuple_GET_ITEM(inputs, i), "grad", "inputs", &ins[i]) < 0) goto done;
    nn_status st;
    Py_BEGIN_ALLOW_THREADS;
    st = nn_grad(py_ctx(), py_tensor_of(out), g, retain, ins, (int)n, grads);
    Py_END_ALLOW_THREADS;
    if (py_status(st) < 0) goto done;
    res = PyTuple_New(n);
    for (Py_ssize_t i = 0; res && i < n; i++) {
        PyObject *o;
        if (grads[i]) {
            o = py_tensor_wrap(grads[i]);
            grads[i] = NULL;
        } else {
            o = Py_NewRef(Py_None);
        }
        if (!o) Py_CLEAR(res);
        if (res) PyTuple_SET_ITEM(res, i, o);
    }
done:
    for (Py_ssize_t i = 0; grads && i < n; i++) nn_tensor_release(grads[i]);
    PyMem_RawFree(grads);
    PyMem_RawFree(ins);
    return res;
}

/* ---- the graph, for the pass written in Python (create_graph=True) ---- */

PyObject *py_grad_fn_new(nn_node *node, const char *name);
nn_node *py_grad_fn_node(PyObject *o);

static PyObject *node_key(const void *p) {
    return PyLong_FromVoidPtr((void *)p);
}

/* An alias of [t]'s data whose history is [fn] (NULL: none). */
static PyObject *with_history(nn_tensor *t, nn_node *fn) {
    if (!t) Py_RETURN_NONE;
    if (!fn) return py_tensor_wrap(nn_tensor_retain(t));
    nn_tensor *a = nn_tensor_view_raw(py_ctx(), t, t->ndim, t->shape, t->strides, t->offset);
    if (!a) return py_engine_error();
    a->requires_grad = true;
    a->is_wrapped_number = t->is_wrapped_number;
    a->grad_fn = fn;
    nn_node_retain(fn);
    return py_tensor_wrap(a);
}

static PyObject *int_tuple(const int64_t *v, int n) {
    PyObject *r = PyTuple_New(n);
    for (int i = 0; r && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x) Py_CLEAR(r);
        if (r) PyTuple_SET_ITEM(r, i, x);
    }
    return r;
}

static PyObject *node_record(nn_node *n) {
    /* rules written over the inputs read them: a GELU's or layer norm's
     * output that the node let go is made again first */
    if (nn_node_restore_inputs(py_ctx(), n)) return py_engine_error();
    PyObject *ins = PyTuple_New(n->n_in), *needs = PyTuple_New(n->n_in);
    PyObject *prods = PyTuple_New(n->n_in);
    if (!ins || !needs || !prods) goto fail;
    for (int i = 0; i < n->n_in; i++) {
        const nn_input *in = &n->in[i];
        PyObject *t = with_history(in->t, in->fn);
        if (!t) goto fail;
        PyTuple_SET_ITEM(ins, i, t);
        PyTuple_SET_ITEM(needs, i, PyBool_FromLong(in->needs_grad));
        PyObject *k = in->fn ? node_key(in->fn) : in->t ? node_key(in->t) : Py_NewRef(Py_None);
        if (!k) goto fail;
        PyTuple_SET_ITEM(prods, i, k);
    }
    PyObject *custom = n->op == NN_OP_CUSTOM ? py_autograd_grad_fn(n) : NULL;
    int nd = n->p.n_dims > 0 ? n->p.n_dims : 0;
    nn_tensor *out = nn_node_output(py_ctx(), n); /* a relu's from its bits */
    if (n->out && !out) {
        Py_XDECREF(custom);
        py_engine_error();
        goto fail;
    }
    PyObject *r = Py_BuildValue(
        "(NNsNNNN(OO)(NN(dddd)Oi)O)", py_grad_fn_new(n, NULL), node_key(n), nn_op_name(n->op), ins,
        needs, prods, with_history(out, n),
        n->saved[0] ? py_tensor_wrap(nn_tensor_retain(n->saved[0])) : Py_NewRef(Py_None),
        n->saved[1] ? py_tensor_wrap(nn_tensor_retain(n->saved[1])) : Py_NewRef(Py_None),
        int_tuple(n->p.dims, nd), int_tuple(n->p.i, 4), n->p.f[0], n->p.f[1], n->p.f[2], n->p.f[3],
        n->p.keepdim ? Py_True : Py_False, n->p.flags, custom ? custom : Py_None);
    Py_XDECREF(custom);
    nn_tensor_release(out);
    return r;
fail:
    Py_XDECREF(ins);
    Py_XDECREF(needs);
    Py_XDECREF(prods);
    return NULL;
}

static int by_seq(const void *a, const void *b) {
    const nn_node *x = *(nn_node *const *)a, *y = *(nn_node *const *)b;
    return x->seq < y->seq ? 1 : x->seq > y->seq ? -1 : 0;
}

/* _graph_nodes(root) -> list of node records reachable from root's grad_fn,
 * latest first: (fn, key, op, inputs, needs, producers, out, (saved0,
 * saved1), (dims, i, f, keepdim, flags), custom_ctx). Non-leaf inputs and
 * the output are aliases that carry their history; producers are keys (a
 * non-leaf's node or a leaf's tensor). */
static PyObject *f_graph_nodes(PyObject *m, PyObject *args) {
    (void)m;
    nn_tensor *root;
    PyObject *ro, *stop = NULL;
    if (!PyArg_ParseTuple(args, "O|O!", &ro, &PyTuple_Type, &stop)) return NULL;
    if (py_tensor_arg(ro, "_graph_nodes", "root", &root) < 0) return NULL;
    if (!root->grad_fn) return PyList_New(0);
    size_t n = 0, cap = 64;
    nn_node **all = PyMem_RawMalloc(cap * sizeof *all);
    PyObject *seen = PySet_New(NULL), *stops = PySet_New(NULL), *res = NULL;
    if (!all || !seen || !stops) goto done;
    for (Py_ssize_t i = 0; stop && i < PyTuple_GET_SIZE(stop); i++) {
        nn_tensor *t = py_tensor_of(PyTuple_GET_ITEM(stop, i));
        PyObject *k = t && t->grad_fn ? node_key(t->grad_fn) : NULL;
        if (k && PySet_Add(stops, k) < 0) {
            Py_DECREF(k);
            goto done;
        }
        Py_XDECREF(k);
    }
    all[n++] = root->grad_fn;
    PyObject *k0 = node_key(root->grad_fn);
    if (!k0 || PySet_Add(seen, k0) < 0) {
        Py_XDECREF(k0);
        goto done;
    }
    Py_DECREF(k0);
    for (size_t j = 0; j < n; j++) {
        nn_node *x = all[j];
        PyObject *kx = node_key(x);
        int is_stop = kx ? PySet_Contains(stops, kx) : -1;
        Py_XDECREF(kx);
        if (is_stop < 0) goto done;
        for (int i = 0; !is_stop && i < x->n_in; i++) {
            nn_node *f = x->in[i].fn;
            if (!f) continue;
            PyObject *k = node_key(f);
            int has = k ? PySet_Contains(seen, k) : -1;
            if (has == 0)
                has = PySet_Add(seen, k);
            else if (has == 1)
                has = 2;
            Py_XDECREF(k);
            if (has < 0) goto done;
            if (has == 2) continue;
            if (n == cap) {
                nn_node **g = PyMem_RawRealloc(all, 2 * cap * sizeof *all);
                if (!g) {
                    PyErr_NoMemory();
                    goto done;
                }
                all = g;
                cap *= 2;
            }
            all[n++] = f;
        }
    }
    qsort(all, n, sizeof *all, by_seq);
    res = PyList_New((Py_ssize_t)n);
    for (size_t j = 0; res && j < n; j++) {
        PyObject *r = node_record(all[j]);
        if (!r)
            Py_CLEAR(res);
        else
            PyList_SET_ITEM(res, (Py_ssize_t)j, r);
    }
done:
    if (!all) PyErr_NoMemory();
    PyMem_RawFree(all);
    Py_XDECREF(seen);
    Py_XDECREF(stops);
    return res;
}

static nn_node *fn_arg(PyObject *o) {
    nn_node *n = py_grad_fn_node(o);
    if (!n) PyErr_SetString(PyExc_TypeError, "a backward node (from _graph_nodes) is expected");
    return n;
}

/* _grad_key(t): the key _graph_nodes gives the tensor as a producer. */
static PyObject *f_grad_key(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(arg, "_grad_key", "t", &t) < 0) return NULL;
    return node_key(t->grad_fn ? (void *)t->grad_fn : (void *)t);
}

static PyObject *f_node_check(PyObject *m, PyObject *arg) {
    (void)m;
    nn_node *n = fn_arg(arg);
    if (!n || py_status(nn_node_check(py_ctx(), n)) < 0) return NULL;
    Py_RETURN_NONE;
}

/* _node_max_pool_indices(fn) -> the int64 indices of a max-pool node's
 * maxima (nn_max_pool_node_indices). */
static PyObject *f_node_max_pool_indices(PyObject *m, PyObject *fo) {
    (void)m;
    nn_node *n = fn_arg(fo);
    if (!n) return NULL;
    nn_tensor *t = nn_max_pool_node_indices(py_ctx(), n);
    return t ? py_tensor_wrap(t) : py_engine_error();
}

/* _node_vjp(fn, grad) -> the node's own (engine) backward: one gradient or
 * None per input, no history. */
static PyObject *f_node_vjp(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fo, *go;
    nn_tensor *g;
    if (!PyArg_ParseTuple(args, "OO", &fo, &go)) return NULL;
    nn_node *n = fn_arg(fo);
    if (!n || py_tensor_arg(go, "_node_vjp", "grad", &g) < 0) return NULL;
    nn_tensor **din = PyMem_RawCalloc((size_t)n->n_in + 1, sizeof *din);
    if (!din) return PyErr_NoMemory();
    nn_status st = nn_node_vjp(py_ctx(), n, g, din);
    PyObject *res = NULL;
    if (py_status(st) == 0) res = PyTuple_New(n->n_in);
    for (int i = 0; i < n->n_in; i++) {
        if (res) {
            PyObject *o = din[i] ? py_tensor_wrap(din[i]) : Py_NewRef(Py_None);
            din[i] = NULL;
            if (!o)
                Py_CLEAR(res);
            else
                PyTuple_SET_ITEM(res, i, o);
        }
        nn_tensor_release(din[i]);
    }
    PyMem_RawFree(din);
    return res;
}

/* _node_apply(fn, inputs) -> the node's op with its parameters on other
 * inputs, recorded as any op is. */
static PyObject *f_node_apply(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fo, *inputs;
    if (!PyArg_ParseTuple(args, "OO!", &fo, &PyTuple_Type, &inputs)) return NULL;
    nn_node *n = fn_arg(fo);
    if (!n) return NULL;
    Py_ssize_t k = PyTuple_GET_SIZE(inputs);
    if (n->op == NN_OP_CUSTOM || k != n->n_in) {
        PyErr_SetString(PyExc_ValueError, "_node_apply: one input per node input, not custom");
        return NULL;
    }
    nn_tensor **ins = PyMem_RawCalloc((size_t)k + 1, sizeof *ins);
    if (!ins) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < k; i++)
        if (py_tensor_arg(PyTuple_GET_ITEM(inputs, i), "_node_apply", "inputs", &ins[i]) < 0) {
            PyMem_RawFree(ins);
            return NULL;
        }
    nn_tensor *y = nn_exec(py_ctx(), n->op, ins, (int)k, &n->p);
    PyMem_RawFree(ins);
    return py_tensor_wrap(y);
}

static PyObject *f_node_free(PyObject *m, PyObject *arg) {
    (void)m;
    nn_node *n = fn_arg(arg);
    if (!n) return NULL;
    nn_node_free_saved(n);
    Py_RETURN_NONE;
}

/* _node_retained(fn[, grad]) -> (whether the output retains its gradient,
 * the retained gradient or None); with [grad] (the create_graph pass) that
 * gradient is added to the retained one first, recorded. */
static PyObject *f_node_retained(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fo, *go = NULL;
    if (!PyArg_ParseTuple(args, "O|O", &fo, &go)) return NULL;
    nn_node *n = fn_arg(fo);
    if (!n) return NULL;
    if (go && go != Py_None && n->retain) {
        /* recorded as PyTorch's retains_grad hook records it: a copy
         * (CloneBackward0) the first time, a sum (AddBackward0) after */
        nn_tensor *g = py_tensor_of(go), *kept = n->retained_grad;
        if (!g) return NULL;
        nn_tensor *r =
            kept ? nn_add(py_ctx(), kept, g) : nn_exec(py_ctx(), NN_OP_CONTIGUOUS, &g, 1, NULL);
        if (!r) return py_engine_error();
        nn_tensor_release(kept);
        n->retained_grad = r;
    }
    PyObject *g =
        n->retained_grad ? py_tensor_wrap(nn_tensor_retain(n->retained_grad)) : Py_NewRef(Py_None);
    return g ? Py_BuildValue("(ON)", n->retain ? Py_True : Py_False, g) : NULL;
}

/* _grad_hooks_run(fn_or_None, leaf_or_None, grad) -> grad after the
 * tensor's gradient hooks. */
static PyObject *f_grad_hooks_run(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fo, *lo, *go;
    if (!PyArg_ParseTuple(args, "OOO", &fo, &lo, &go)) return NULL;
    nn_node *n = fo == Py_None ? NULL : fn_arg(fo);
    nn_tensor *leaf = lo == Py_None ? NULL : py_tensor_of(lo), *g = py_tensor_of(go);
    if ((fo != Py_None && !n) || !g) return NULL;
    g = nn_tensor_retain(g);
    nn_status st = nn_grad_hooks_run(py_ctx(), n, leaf, &g);
    if (st) {
        nn_tensor_release(g);
        if (py_autograd_take_error()) return NULL;
        return py_engine_error();
    }
    return py_tensor_wrap(g);
}

/* _reentrant(fn): call fn() as if at top level although an op's backward
 * is running (a checkpoint's recomputation and its own backward pass). */
static PyObject *f_reentrant(PyObject *m, PyObject *fn) {
    (void)m;
    nn_graph_reentry s;
    nn_graph_reenter(py_ctx(), &s);
    PyObject *r = PyObject_CallNoArgs(fn);
    nn_graph_leave(py_ctx(), &s);
    return r;
}

PyMethodDef py_autograd_functions[] = {
    {"_graph_nodes", f_graph_nodes, METH_VARARGS,
     "_graph_nodes(root): the recorded nodes, latest first"},
    {"_grad_key", f_grad_key, METH_O, "_grad_key(t): a tensor's key in _graph_nodes"},
    {"_node_check", f_node_check, METH_O, "_node_check(fn): fail if its saved values are gone"},
    {"_node_vjp", f_node_vjp, METH_VARARGS, "_node_vjp(fn, grad): the node's engine backward"},
    {"_node_max_pool_indices", f_node_max_pool_indices, METH_O,
     "_node_max_pool_indices(fn): the indices of a max-pool node's maxima"},
    {"_node_apply", f_node_apply, METH_VARARGS, "_node_apply(fn, inputs): its op on inputs"},
    {"_node_free", f_node_free, METH_O, "_node_free(fn): free its saved tensors"},
    {"_node_retained", f_node_retained, METH_VARARGS,
     "_node_retained(fn[, grad]): (retains, retained grad), setting it first"},
    {"_grad_hooks_run", f_grad_hooks_run, METH_VARARGS,
     "_grad_hooks_run(fn, leaf, grad): the gradient after a tensor's hooks"},
    {"_reentrant", f_reentrant, METH_O, "_reentrant(fn): fn() at top level inside a backward"},
    {"_add_grad_hook", f_add_grad_hook, METH_VARARGS,
     "_add_grad_hook(tensor, fn): a gradient hook on tensor; returns its id"},
    {"_remove_grad_hook", f_remove_grad_hook, METH_O, "_remove_grad_hook(id)"},
    {"_function_record", f_function_record, METH_VARARGS,
     "_function_record(ctx, inputs, output, name): one autograd.Function node"},
    {"_set_grad_fn_name", f_set_grad_fn_name, METH_VARARGS,
     "_set_grad_fn_name(tensor, name): the name of its grad_fn"},
    {"_grad", f_grad, METH_VARARGS,
     "_grad(output, gradient, retain_graph, inputs): gradients of inputs, no .grad changed"},
    {NULL, NULL, 0, NULL},
};
