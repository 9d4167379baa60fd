/* py_optim: the update kernels under torch.optim (see py.h).
 *
 * The modules of torch/optim keep PyTorch's structure: each optimizer gathers its
 * parameters, gradients and state tensors (optimizer.state[p]) in Python and
 * calls one of these per parameter, where torch calls its
 * _single_tensor_<name> loop; Adam and AdamW call _adam_multi once per
 * parameter group instead (that loop in C: a Python loop per parameter was
 * most of the step's time for small models). Each kernel updates the parameter and the
 * state tensors in place, in one pass, with the float32 rounding of torch's
 * sequence of tensor ops (nn_optim_update), and allocates nothing. They are
 * private (_C._sgd_step, ...): the Python classes check the arguments users
 * give and word the errors as torch does.
 */
#include "nn_optim.h"
#include "py.h"

/* A tensor argument, or NULL for None when [optional]. */
static int state_arg(PyObject *o, const char *fname, const char *what, bool optional,
                     nn_tensor **out) {
    *out = NULL;
    if (optional && o == Py_None) return 0;
    return py_tensor_arg(o, fname, what, out);
}

static PyObject *run_update(const nn_optim_config *cfg, nn_tensor *p, nn_tensor *g,
                            nn_tensor *const *state, int64_t step) {
    if (py_status(nn_optim_update(py_ctx(), cfg, p, g, state, step)) < 0) return NULL;
    Py_RETURN_NONE;
}

/* _sgd_step(param, grad, momentum_buffer, lr, momentum, dampening,
 *           weight_decay, nesterov, maximize, first): [first] fills the
 * momentum buffer with d_p (torch clones it then); None for no momentum. */
static PyObject *f_sgd_step(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *po, *go, *bo;
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_SGD);
    int nesterov, maximize, first;
    if (!PyArg_ParseTuple(args, "OOOddddppp:_sgd_step", &po, &go, &bo, &c.lr, &c.momentum,
                          &c.dampening, &c.weight_decay, &nesterov, &maximize, &first))
        return NULL;
    nn_tensor *p, *g, *buf;
    if (state_arg(po, "_sgd_step", "param", false, &p) < 0 ||
        state_arg(go, "_sgd_step", "grad", false, &g) < 0 ||
        state_arg(bo, "_sgd_step", "momentum_buffer", true, &buf) < 0)
        return NULL;
    c.nesterov = nesterov, c.maximize = maximize;
    /* torch's `if momentum != 0` decides the buffer, and nesterov only
     * acts inside that branch (a group may set momentum 0 with nesterov). */
    if (!buf) c.momentum = 0, c.nesterov = false;
    return run_update(&c, p, g, &buf, first ? 1 : 2);
}

/* _adam_step(param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, step, lr,
 *            beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled):
 * [step] is state['step'] after its increment; [decoupled] is AdamW. */
static PyObject *f_adam_step(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *po, *go, *m1o, *m2o, *mxo;
    double step;
    int amsgrad, maximize, decoupled;
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_ADAM);
    if (!PyArg_ParseTuple(args, "OOOOOddddddppp:_adam_step", &po, &go, &m1o, &m2o, &mxo, &step,
                          &c.lr, &c.beta1, &c.beta2, &c.eps, &c.weight_decay, &amsgrad, &maximize,
                          &decoupled))
        return NULL;
    nn_tensor *p, *g, *state[3];
    if (state_arg(po, "_adam_step", "param", false, &p) < 0 ||
        state_arg(go, "_adam_step", "grad", false, &g) < 0 ||
        state_arg(m1o, "_adam_step", "exp_avg", false, &state[0]) < 0 ||
        state_arg(m2o, "_adam_step", "exp_avg_sq", false, &state[1]) < 0 ||
        state_arg(mxo, "_adam_step", "max_exp_avg_sq", !amsgrad, &state[2]) < 0)
        return NULL;
    c.kind = decoupled ? NN_OPTIM_ADAMW : NN_OPTIM_ADAM;
    c.amsgrad = amsgrad, c.maximize = maximize;
    return run_update(&c, p, g, state, (int64_t)step);
}

/* state['step'] += 1 for one step tensor, then its value. A float tensor
 * of one element outside autograd (what Adam makes) is written directly in
 * its dtype, as `step_t += 1` computes it; any other goes through the
 * tensor's own +=. */
static int step_increment(PyObject *o, double *out) {
    nn_tensor *t = py_tensor_of(o);
    if (!t) {
        PyErr_SetString(PyExc_RuntimeError, "API has changed, `state_steps` argument must "
                                            "contain a list of singleton tensors");
        return -1;
    }
    if (!t->requires_grad && !t->grad_fn && nn_tensor_numel(t) == 1 &&
        (t->dtype == NN_FLOAT32 || t->dtype == NN_FLOAT64)) {
        if (t->dtype == NN_FLOAT32) {
            float *v = nn_tensor_data(t);
            *v = *v + 1.0f;
            *out = *v;
        } else {
            double *v = nn_tensor_data(t);
            *v = *v + 1.0;
            *out = *v;
        }
        t->storage->version++;
        return 0;
    }
    PyObject *one = PyLong_FromLong(1);
    if (!one) return -1;
    PyObject *r = PyNumber_InPlaceAdd(o, one);
    Py_DECREF(one);
    if (!r) return -1;
    Py_DECREF(r);
    return py_status(nn_tensor_item(py_ctx(), t, out));
}

/* Item [i] of the sequence [seq] (a fast sequence) as a tensor, or NULL for
 * None when [optional]. */
static int list_tensor(PyObject *seq, Py_ssize_t i, const char *what, bool optional,
                       nn_tensor **out) {
    return state_arg(PySequence_Fast_GET_ITEM(seq, i), "_adam_multi", what, optional, out);
}

/* _adam_multi(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs,
 *             state_steps, lr, beta1, beta2, eps, weight_decay, amsgrad,
 *             maximize, decoupled): the whole of one parameter group in one
 * call (the loop of torch's _single_tensor_adam, where _adam_step is its
 * body): each state_steps[i] is incremented, then its parameter updated.
 * Lists of equal length; max_exp_avg_sqs is read only with amsgrad. Every
 * step is checked to be a tensor before anything is updated, as torch's
 * adam() does. */
static PyObject *adam_multi_run(PyObject *const *lists, nn_optim_config c, int amsgrad,
                                int maximize, int decoupled) {
    c.kind = decoupled ? NN_OPTIM_ADAMW : NN_OPTIM_ADAM;
    c.amsgrad = amsgrad, c.maximize = maximize;
    static const char *const names[6] = {"params",      "grads",           "exp_avgs",
                                         "exp_avg_sqs", "max_exp_avg_sqs", "state_steps"};
    PyObject *seq[6] = {NULL};
    PyObject *result = NULL;
    Py_ssize_t n = 0;
    for (int k = 0; k < 6; k++) {
        if (!(seq[k] = PySequence_Fast(lists[k], "_adam_multi: expected a list"))) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(seq[k]);
        if (k == 0) n = len;
        if (len != n && !(k == 4 && !amsgrad)) {
            PyErr_Format(PyExc_ValueError, "_adam_multi: %s has %zd entries for %zd parameters",
                         names[k], len, n);
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!py_tensor_check(PySequence_Fast_GET_ITEM(seq[5], i))) {
            PyErr_SetString(PyExc_RuntimeError, "API has changed, `state_steps` argument must "
                                                "contain a list of singleton tensors");
            goto done;
        }
    for (Py_ssize_t i = 0; i < n; i++) {
        nn_tensor *p, *g, *state[3];
        double step;
        if (list_tensor(seq[0], i, "param", false, &p) < 0 ||
            list_tensor(seq[1], i, "grad", false, &g) < 0 ||
            list_tensor(seq[2], i, "exp_avg", false, &state[0]) < 0 ||
            list_tensor(seq[3], i, "exp_avg_sq", false, &state[1]) < 0)
            goto done;
        state[2] = NULL;
        if (amsgrad && list_tensor(seq[4], i, "max_exp_avg_sq", false, &state[2]) < 0) goto done;
        if (step_increment(PySequence_Fast_GET_ITEM(seq[5], i), &step) < 0) goto done;
        if (py_status(nn_optim_update(py_ctx(), &c, p, g, state, (int64_t)step)) < 0) goto done;
    }
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 6; k++) Py_XDECREF(seq[k]);
    return result;
}

static PyObject *f_adam_multi(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *lists[6];
    int amsgrad, maximize, decoupled;
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_ADAM);
    if (!PyArg_ParseTuple(args, "OOOOOOdddddppp:_adam_multi", &lists[0], &lists[1], &lists[2],
                          &lists[3], &lists[4], &lists[5], &c.lr, &c.beta1, &c.beta2, &c.eps,
                          &c.weight_decay, &amsgrad, &maximize, &decoupled))
        return NULL;
    return adam_multi_run(lists, c, amsgrad, maximize, decoupled);
}

/* The keys _adam_group reads, interned once (a string made per lookup cost
 * more than the Python loop it replaces). */
enum {
    K_PARAMS,
    K_BETAS,
    K_AMSGRAD,
    K_MAXIMIZE,
    K_LR,
    K_WD,
    K_EPS,
    K_EXP_AVG,
    K_EXP_AVG_SQ,
    K_MAX_EXP_AVG_SQ,
    K_STEP,
    K_GRAD,
    K_COUNT
};
static PyObject *keys_interned[K_COUNT];

static bool intern_keys(void) {
    static const char *const names[K_COUNT] = {
        "params", "betas",   "amsgrad",    "maximize",       "lr",   "weight_decay",
        "eps",    "exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step", "grad"};
    if (keys_interned[K_COUNT - 1]) return true;
    for (int k = 0; k < K_COUNT; k++)
        if (!keys_interned[k] && !(keys_interned[k] = PyUnicode_InternFromString(names[k])))
            return false;
    return true;
}

/* d[key] of a plain dict, borrowed; NULL (no error set) when absent. */
static PyObject *group_item(PyObject *d, int key) {
    PyObject *v = PyDict_GetItemWithError(d, keys_interned[key]);
    if (!v) PyErr_Clear();
    return v;
}

/* A float from [o] as the "d" format reads it; false (error cleared) when
 * it is not one. */
static bool as_double(PyObject *o, double *out) {
    if (!o) return false;
    *out = PyFloat_AsDouble(o);
    if (*out == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    return true;
}

/* _adam_group(group, state, decoupled): torch/optim/adam.py's
 * _adam_like_step for one group in C when every parameter with a gradient
 * already has its state (every step after the first): the same lists
 * gathered in the same order, then _adam_multi's body. Returns True when
 * it ran, False, having changed nothing, whenever anything is unusual (a
 * missing or empty state, a key missing, a value that is not a plain
 * float, dicts that are not plain dicts): the Python loop then runs and
 * makes the state or raises as before. [state] is the optimizer's
 * defaultdict (the caller checks its type). */
/* Whether [o] is a tensor whose `grad` is the tensor type's own attribute
 * (no subclass or instance overrides it): its gradient can then be read from
 * the engine without making a tensor object for it. */
static bool plain_grad(PyObject *o) {
    static PyObject *base_grad;
    if (!py_tensor_check(o) || Py_TYPE(o)->tp_getattro != PyObject_GenericGetAttr) return false;
    if (!base_grad && !(base_grad = _PyType_Lookup(&py_tensor_base_type, keys_interned[K_GRAD])))
        return false;
    return _PyType_Lookup(Py_TYPE(o), keys_interned[K_GRAD]) == base_grad;
}

/* _adam_group's usual case without Python objects in between: at most
 * ADAM_DIRECT parameters, each a tensor with a plain `grad`, each state a
 * non-empty dict of tensors. The gradients come from the engine (reading
 * p.grad made a tensor object per parameter, and the lists six more
 * objects per call). Returns 0, having changed nothing, for anything else
 * (the list path below then runs, and raises what it raises); 1 when the
 * group is updated; -1 with an exception set on an engine error. The same
 * updates in the same order as adam_multi_run. */
enum { ADAM_DIRECT = 64 };
static int adam_group_direct(PyObject *params, PyObject *state_of, nn_optim_config c, int amsgrad) {
    struct {
        nn_tensor *p, *g, *s[3];
        PyObject *step;
    } e[ADAM_DIRECT];
    Py_ssize_t n = PyList_GET_SIZE(params), cnt = 0;
    if (n > ADAM_DIRECT) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *po = PyList_GET_ITEM(params, i);
        if (!plain_grad(po)) return 0;
        nn_tensor *g = nn_tensor_grad(py_tensor_of(po));
        if (!g) continue;
        if (nn_tensor_released(py_tensor_of(po)) || nn_tensor_released(g)) return 0;
        PyObject *state = PyDict_GetItemWithError(state_of, po);
        if (!state || !PyDict_CheckExact(state) || PyDict_GET_SIZE(state) == 0) {
            PyErr_Clear();
            return 0;
        }
        e[cnt].p = py_tensor_of(po), e[cnt].g = g, e[cnt].s[2] = NULL;
        for (int k = 0; k < 3; k++) {
            if (k == 2 && !amsgrad) continue;
            PyObject *v = group_item(state, K_EXP_AVG + k);
            if (!v || !(e[cnt].s[k] = py_tensor_of(v)) || nn_tensor_released(e[cnt].s[k])) return 0;
        }
        PyObject *step = group_item(state, K_STEP);
        if (!step || !py_tensor_check(step)) return 0;
        e[cnt++].step = step;
    }
    for (Py_ssize_t i = 0; i < cnt; i++) {
        double step;
        if (step_increment(e[i].step, &step) < 0 ||
            py_status(nn_optim_update(py_ctx(), &c, e[i].p, e[i].g, e[i].s, (int64_t)step)) < 0)
            return -1;
    }
    return 1;
}

static PyObject *f_adam_group(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *group, *state_of;
    int decoupled;
    if (!PyArg_ParseTuple(args, "O!O!p:_adam_group", &PyDict_Type, &group, &PyDict_Type, &state_of,
                          &decoupled))
        return NULL;
    if (!intern_keys()) return NULL;
    if (!PyDict_CheckExact(group)) Py_RETURN_FALSE;
    PyObject *params = group_item(group, K_PARAMS), *betas = group_item(group, K_BETAS);
    PyObject *ams = group_item(group, K_AMSGRAD), *maxi = group_item(group, K_MAXIMIZE);
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_ADAM);
    if (!params || !PyList_CheckExact(params) || !betas || !PyTuple_CheckExact(betas) ||
        PyTuple_GET_SIZE(betas) != 2 || !ams || !maxi ||
        !as_double(PyTuple_GET_ITEM(betas, 0), &c.beta1) ||
        !as_double(PyTuple_GET_ITEM(betas, 1), &c.beta2) ||
        !as_double(group_item(group, K_LR), &c.lr) ||
        !as_double(group_item(group, K_WD), &c.weight_decay) ||
        !as_double(group_item(group, K_EPS), &c.eps))
        Py_RETURN_FALSE;
    int amsgrad = PyObject_IsTrue(ams), maximize = PyObject_IsTrue(maxi);
    if (amsgrad < 0 || maximize < 0) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    nn_optim_config cd = c;
    cd.kind = decoupled ? NN_OPTIM_ADAMW : NN_OPTIM_ADAM;
    cd.amsgrad = amsgrad, cd.maximize = maximize;
    int direct = adam_group_direct(params, state_of, cd, amsgrad);
    if (direct < 0) return NULL;
    if (direct > 0) Py_RETURN_TRUE;
    PyObject *lists[6] = {NULL};
    PyObject *result = NULL;
    for (int k = 0; k < 6; k++)
        if (!(lists[k] = PyList_New(0))) goto done;
    Py_ssize_t n = PyList_GET_SIZE(params);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyList_GET_ITEM(params, i);
        PyObject *grad = PyObject_GetAttr(p, keys_interned[K_GRAD]);
        if (!grad) goto fallback;
        if (grad == Py_None) {
            Py_DECREF(grad);
            continue;
        }
        PyObject *state = PyDict_GetItemWithError(state_of, p);
        bool ok = state && PyDict_CheckExact(state) && PyDict_GET_SIZE(state) > 0 &&
                  PyList_Append(lists[0], p) == 0 && PyList_Append(lists[1], grad) == 0;
        Py_DECREF(grad);
        for (int k = 0; ok && k < 4; k++) {
            if (k == 2 && !amsgrad) continue;
            PyObject *v = group_item(state, K_EXP_AVG + k);
            ok = v && PyList_Append(lists[k + 2], v) == 0;
        }
        if (!ok) goto fallback;
    }
    result = adam_multi_run(lists, c, amsgrad, maximize, decoupled);
    if (result) {
        Py_DECREF(result);
        result = Py_NewRef(Py_True);
    }
    goto done;
fallback:
    PyErr_Clear();
    result = Py_NewRef(Py_False);
done:
    for (int k = 0; k < 6; k++) Py_XDECREF(lists[k]);
    return result;
}

/* _rmsprop_step(param, grad, square_avg, momentum_buffer, grad_avg, lr,
 *               alpha, eps, weight_decay, momentum, centered, maximize):
 * momentum_buffer is None unless momentum > 0, grad_avg None unless
 * centered. */
static PyObject *f_rmsprop_step(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *po, *go, *sao, *bo, *gao;
    int centered, maximize;
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_RMSPROP);
    if (!PyArg_ParseTuple(args, "OOOOOdddddpp:_rmsprop_step", &po, &go, &sao, &bo, &gao, &c.lr,
                          &c.alpha, &c.eps, &c.weight_decay, &c.momentum, &centered, &maximize))
        return NULL;
    nn_tensor *p, *g, *state[3];
    if (state_arg(po, "_rmsprop_step", "param", false, &p) < 0 ||
        state_arg(go, "_rmsprop_step", "grad", false, &g) < 0 ||
        state_arg(sao, "_rmsprop_step", "square_avg", false, &state[0]) < 0 ||
        state_arg(bo, "_rmsprop_step", "momentum_buffer", !(c.momentum > 0), &state[1]) < 0 ||
        state_arg(gao, "_rmsprop_step", "grad_avg", !centered, &state[2]) < 0)
        return NULL;
    c.centered = centered, c.maximize = maximize;
    return run_update(&c, p, g, state, 1);
}

/* _adagrad_step(param, grad, sum, step, lr, lr_decay, weight_decay, eps,
 *               maximize): [step] is state['step'] after its increment. */
static PyObject *f_adagrad_step(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *po, *go, *so;
    double step;
    int maximize;
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_ADAGRAD);
    if (!PyArg_ParseTuple(args, "OOOdddddp:_adagrad_step", &po, &go, &so, &step, &c.lr, &c.lr_decay,
                          &c.weight_decay, &c.eps, &maximize))
        return NULL;
    nn_tensor *p, *g, *sum;
    if (state_arg(po, "_adagrad_step", "param", false, &p) < 0 ||
        state_arg(go, "_adagrad_step", "grad", false, &g) < 0 ||
        state_arg(so, "_adagrad_step", "sum", false, &sum) < 0)
        return NULL;
    c.maximize = maximize;
    return run_update(&c, p, g, &sum, (int64_t)step);
}

/* _zero_grads(params, set_to_none): Optimizer.zero_grad over one group's
 * parameters, each as torch 1.13 does it in Python: a gradient is dropped
 * (set_to_none, what `p.grad = None` does), or taken out of any graph
 * (detach_() when it has a grad_fn, else requires_grad_(False)) and zeroed in
 * place. One call instead of four tensor calls per parameter. Entries that
 * are not tensors raise as `p.grad` would. */
static PyObject *f_zero_grads(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *list;
    int set_to_none;
    if (!PyArg_ParseTuple(args, "Op:_zero_grads", &list, &set_to_none)) return NULL;
    PyObject *seq = PySequence_Fast(list, "_zero_grads: expected a list of parameters");
    if (!seq) return NULL;
    nn_ctx *ctx = py_ctx();
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        nn_tensor *p = py_tensor_of(o), *g;
        if (!p) {
            PyObject *r = PyObject_GetAttrString(o, "grad");
            Py_XDECREF(r);
            if (!r) goto fail;
            PyErr_Format(PyExc_TypeError,
                         "optimizer can only optimize Tensors, but one of the "
                         "params is %s",
                         Py_TYPE(o)->tp_name);
            goto fail;
        }
        if (!(g = nn_tensor_grad(p))) continue;
        if (set_to_none) {
            nn_tensor_clear_grad(p);
            if (p->grad) {
                nn_tensor_release(p->grad);
                p->grad = NULL;
            }
            continue;
        }
        if (g->grad_fn) {
            nn_node_release(g->grad_fn);
            g->grad_fn = NULL;
            g->requires_grad = false;
        } else if (py_status(nn_tensor_requires_grad_(ctx, g, false)) < 0) {
            goto fail;
        }
        if (py_status(nn_tensor_zero_(ctx, g)) < 0) goto fail;
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
fail:
    Py_DECREF(seq);
    return NULL;
}

/* _state_zeros_like(param): torch.zeros_like(param) for an optimizer's
 * state (Adam's moments, made in its first step), in memory no block has
 * had yet (nn_zeros_fresh): made where the step's activations were, the
 * moments left the next step's activations no room there, and that step
 * touched as many new pages again (docs/benchmarks.md, sixth session).
 * Laid out as zeros_like's preserve_format lays it out (a transposed or
 * channels_last parameter's strides): the zeros read the same in any. */
static PyObject *f_state_zeros_like(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *p;
    if (py_tensor_arg(arg, "_state_zeros_like", "param", &p) < 0) return NULL;
    nn_tensor *t = nn_zeros_fresh(py_ctx(), p->dtype, p->ndim, p->shape);
    int64_t st[NN_MAX_DIMS];
    if (t && nn_format_strides(p, NN_FORMAT_PRESERVE, st))
        memcpy(t->strides, st, sizeof(int64_t) * (size_t)p->ndim);
    return t ? py_tensor_wrap(t) : py_engine_error();
}

PyMethodDef py_optim_functions[] = {
    {"_state_zeros_like", f_state_zeros_like, METH_O, NULL},
    {"_sgd_step", f_sgd_step, METH_VARARGS, NULL},
    {"_adam_step", f_adam_step, METH_VARARGS, NULL},
    {"_adam_multi", f_adam_multi, METH_VARARGS, NULL},
    {"_adam_group", f_adam_group, METH_VARARGS, NULL},
    {"_zero_grads", f_zero_grads, METH_VARARGS, NULL},
    {"_rmsprop_step", f_rmsprop_step, METH_VARARGS, NULL},
    {"_adagrad_step", f_adagrad_step, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
