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

PyMethodDef py_autograd_functions[] = {
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
