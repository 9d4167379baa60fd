/* py_autocast: torch.autocast's state and its casts (mixed precision).
 *
 * torch.autocast("cpu", dtype=torch.bfloat16) (python/torch/amp/) sets the
 * state kept here through PyTorch's own torch._C names
 * (set_autocast_cpu_enabled, autocast_increment_nesting, ...). While it is
 * on, an op of PyTorch 1.13's CPU lists casts its floating operands before
 * it runs:
 *
 * - lower precision (matmul, mm, bmm, linear here; addmm, baddbmm, addbmm
 *   and conv1d/2d/3d in Python): float32 and float16 operands to the
 *   autocast dtype, so the product comes out in bfloat16;
 * - float32 (losses, 3-D pooling, conv_transpose, ... in Python): to
 *   float32;
 * - promote (cat, stack): the widest floating dtype among the operands,
 *   which nndb's type promotion already gives.
 *
 * float64 operands are never cast, as in PyTorch. The casts are ordinary
 * differentiable conversions (nn_to), so gradients reach float32 weights
 * in float32. PyTorch also caches the casts of leaf weights within one
 * autocast region; nndb casts each time (same values, more copies).
 */
#include "py.h"

typedef struct autocast_state {
    bool cpu_enabled, gpu_enabled, cache_enabled;
    nn_dtype cpu_dtype, gpu_dtype;
    int nesting;
} autocast_state;

static autocast_state state = {false, false, true, NN_BFLOAT16, NN_FLOAT16, 0};

bool py_autocast_cpu_on(void) {
    return state.cpu_enabled;
}

/* Whether autocast may cast [t]: floating and not float64. */
static bool eligible(const nn_tensor *t) {
    return t && nn_dtype_is_float(t->dtype) && t->dtype != NN_FLOAT64;
}

int py_autocast_cast(py_autocast_policy policy, nn_tensor **ts, int n, nn_tensor **owned) {
    nn_dtype to = policy == PY_AUTOCAST_LOWER ? state.cpu_dtype : NN_FLOAT32;
    for (int i = 0; i < n; i++) owned[i] = NULL;
    if (!state.cpu_enabled) return 0;
    for (int i = 0; i < n; i++) {
        if (!eligible(ts[i]) || ts[i]->dtype == to) continue;
        owned[i] = nn_to(py_ctx(), ts[i], to);
        if (!owned[i]) {
            py_autocast_release(owned, n);
            return -1;
        }
        ts[i] = owned[i];
    }
    return 0;
}

void py_autocast_release(nn_tensor **owned, int n) {
    for (int i = 0; i < n; i++) {
        nn_tensor_release(owned[i]);
        owned[i] = NULL;
    }
}

/* ---- torch._C's autocast functions ---- */

static PyObject *bool_result(bool v) {
    return Py_NewRef(v ? Py_True : Py_False);
}

static int flag_arg(PyObject *o, const char *fname, bool *out) {
    if (!PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'enabled' must be bool, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = o == Py_True;
    return 0;
}

static int dtype_arg(PyObject *o, const char *fname, nn_dtype *out) {
    if (Py_TYPE(o) != &py_dtype_type) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'dtype' must be torch.dtype, not %s", fname,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    return py_dtype_arg(o, out);
}

static PyObject *f_set_cpu_enabled(PyObject *m, PyObject *o) {
    (void)m;
    if (flag_arg(o, "set_autocast_cpu_enabled", &state.cpu_enabled) < 0) return NULL;
    Py_RETURN_NONE;
}
static PyObject *f_is_cpu_enabled(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return bool_result(state.cpu_enabled);
}
static PyObject *f_set_cpu_dtype(PyObject *m, PyObject *o) {
    (void)m;
    nn_dtype dt = state.cpu_dtype;
    if (dtype_arg(o, "set_autocast_cpu_dtype", &dt) < 0) return NULL;
    if (dt != NN_BFLOAT16) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Currently, AutocastCPU only support Bfloat16 as the autocast_cpu_dtype");
        return NULL;
    }
    state.cpu_dtype = dt;
    Py_RETURN_NONE;
}
static PyObject *f_get_cpu_dtype(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return Py_NewRef(py_dtype_object(state.cpu_dtype));
}
static PyObject *f_set_gpu_enabled(PyObject *m, PyObject *o) {
    (void)m;
    if (flag_arg(o, "set_autocast_enabled", &state.gpu_enabled) < 0) return NULL;
    Py_RETURN_NONE;
}
static PyObject *f_is_gpu_enabled(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return bool_result(state.gpu_enabled);
}
static PyObject *f_set_gpu_dtype(PyObject *m, PyObject *o) {
    (void)m;
    if (dtype_arg(o, "set_autocast_gpu_dtype", &state.gpu_dtype) < 0) return NULL;
    Py_RETURN_NONE;
}
static PyObject *f_get_gpu_dtype(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return Py_NewRef(py_dtype_object(state.gpu_dtype));
}
static PyObject *f_increment(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyLong_FromLong(++state.nesting);
}
static PyObject *f_decrement(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyLong_FromLong(--state.nesting);
}
static PyObject *f_clear_cache(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    Py_RETURN_NONE; /* nndb keeps no cast cache (see the top of this file) */
}
static PyObject *f_is_cache_enabled(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return bool_result(state.cache_enabled);
}
static PyObject *f_set_cache_enabled(PyObject *m, PyObject *o) {
    (void)m;
    if (flag_arg(o, "set_autocast_cache_enabled", &state.cache_enabled) < 0) return NULL;
    Py_RETURN_NONE;
}

/* _autocast_cast(policy, *tensors): the tensors as the policy casts them
 * (0 lower precision, 1 float32), a tuple; None and non-tensors pass. */
static PyObject *f_autocast_cast(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    if (nargs < 1 || !PyLong_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_autocast_cast(policy, *tensors)");
        return NULL;
    }
    long p = PyLong_AsLong(args[0]);
    PyObject *r = PyTuple_New(nargs - 1);
    if (!r) return NULL;
    for (Py_ssize_t i = 1; i < nargs; i++) {
        nn_tensor *t = py_tensor_of(args[i]), *owned = NULL;
        if (t &&
            py_autocast_cast(p == 0 ? PY_AUTOCAST_LOWER : PY_AUTOCAST_FP32, &t, 1, &owned) < 0) {
            Py_DECREF(r);
            return py_engine_error();
        }
        PyObject *o = owned ? py_tensor_wrap(owned) : Py_NewRef(args[i]);
        if (!o) {
            Py_DECREF(r);
            return NULL;
        }
        PyTuple_SET_ITEM(r, i - 1, o);
    }
    return r;
}

PyMethodDef py_autocast_functions[] = {
    {"set_autocast_cpu_enabled", f_set_cpu_enabled, METH_O, "turn CPU autocast on or off"},
    {"is_autocast_cpu_enabled", f_is_cpu_enabled, METH_NOARGS, "whether CPU autocast is on"},
    {"set_autocast_cpu_dtype", f_set_cpu_dtype, METH_O, "the CPU autocast dtype"},
    {"get_autocast_cpu_dtype", f_get_cpu_dtype, METH_NOARGS, "the CPU autocast dtype"},
    {"set_autocast_enabled", f_set_gpu_enabled, METH_O, "CUDA autocast (never casts in nndb)"},
    {"is_autocast_enabled", f_is_gpu_enabled, METH_NOARGS, "whether CUDA autocast is on"},
    {"set_autocast_gpu_dtype", f_set_gpu_dtype, METH_O, "the CUDA autocast dtype"},
    {"get_autocast_gpu_dtype", f_get_gpu_dtype, METH_NOARGS, "the CUDA autocast dtype"},
    {"autocast_increment_nesting", f_increment, METH_NOARGS, "enter an autocast region"},
    {"autocast_decrement_nesting", f_decrement, METH_NOARGS, "leave an autocast region"},
    {"clear_autocast_cache", f_clear_cache, METH_NOARGS, "drop cached casts (none in nndb)"},
    {"is_autocast_cache_enabled", f_is_cache_enabled, METH_NOARGS, "the cache_enabled flag"},
    {"set_autocast_cache_enabled", f_set_cache_enabled, METH_O, "the cache_enabled flag"},
    {"_autocast_cast", (PyCFunction)(void (*)(void))f_autocast_cast, METH_FASTCALL,
     "_autocast_cast(policy, *tensors): cast as autocast's policy 0 (lower) or 1 (float32)"},
    {NULL, NULL, 0, NULL},
};
