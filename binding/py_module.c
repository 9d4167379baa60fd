/* py_module: the torch._C module: the session's engine context, the
 * factories (tensor, zeros, randn, arange, ...), grad mode, seeds, the
 * backward-node objects (grad_fn), and the assembly of every area's tables
 * into the module and the tensor type. */
#include <string.h>

#include "nn_blas.h"
#include "nn_format.h"
#include "nn_graph.h"
#include "nn_random.h"
#include "nn_thread.h"
#include "py.h"
#include "py_debug.h"
#include "py_ops.h"

static nn_ctx *the_ctx;

nn_ctx *py_ctx(void) {
    return the_ctx;
}

#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

/* ---- factories ---- */

/* requires_grad= on a new leaf, then wrap. */
static PyObject *finish(nn_tensor *t, PyObject *requires_grad) {
    if (!t) return py_engine_error();
    if (requires_grad && PyObject_IsTrue(requires_grad) == 1 &&
        py_status(nn_tensor_requires_grad_(the_ctx, t, true)) < 0) {
        nn_tensor_release(t);
        return NULL;
    }
    return py_tensor_wrap(t);
}

static PyObject *f_tensor(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    PARSE("tensor", 1, "data", "$dtype", "device", "requires_grad", "pin_memory");
    if (py_tensor_check(a_[0]) &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "To copy construct from a tensor, it is recommended to use "
                     "sourceTensor.clone().detach() or "
                     "sourceTensor.clone().detach().requires_grad_(True), rather than "
                     "torch.tensor(sourceTensor).",
                     1) < 0)
        return NULL;
    nn_dtype dt = (nn_dtype)-1;
    int want = -1;
    if (a_[1] && a_[1] != Py_None) {
        if (py_dtype_arg(a_[1], &dt) < 0) return NULL;
        want = (int)dt;
    }
    nn_tensor *t = py_tensor_from_data(a_[0], want);
    if (!t) return NULL;
    return finish(t, a_[3]);
}

static PyObject *f_from_numpy(PyObject *m, PyObject *arr);

static PyObject *f_as_tensor(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
    PARSE("as_tensor", 1, "data", "dtype", "device");
    nn_tensor *t = py_tensor_of(a_[0]);
    nn_dtype dt = t ? t->dtype : (nn_dtype)0;
    bool typed = a_[1] && a_[1] != Py_None;
    if (typed && py_dtype_arg(a_[1], &dt) < 0) return NULL;
    if (t && dt == t->dtype) return Py_NewRef(a_[0]);
    if (t) return py_tensor_wrap(nn_to(the_ctx, t, dt));
    /* a numpy array shares its memory, as from_numpy's, unless another
     * dtype is asked for (then a converted copy, as PyTorch) */
    if (py_is_ndarray(a_[0])) {
        PyObject *r = f_from_numpy(m, a_[0]);
        nn_tensor *s = r ? py_tensor_of(r) : NULL;
        if (!s || !typed || s->dtype == dt) return r;
        PyObject *c = py_tensor_wrap(nn_to(the_ctx, s, dt));
        Py_DECREF(r);
        return c;
    }
    return py_tensor_wrap(py_tensor_from_data(a_[0], typed ? (int)dt : -1));
}

/* numpy array -> tensor sharing its memory */
static void release_pyobject(void *user) {
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF((PyObject *)user);
    PyGILState_Release(g);
}

static PyObject *f_from_numpy(PyObject *m, PyObject *arr) {
    (void)m;
    if (!py_is_ndarray(arr)) {
        PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %s)", Py_TYPE(arr)->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arr, &view, PyBUF_RECORDS) < 0) {
        PyErr_Clear();
        /* an array of objects or of a dtype with no buffer format */
        if (PyObject_GetBuffer(arr, &view, PyBUF_RECORDS_RO) < 0) {
            PyErr_Clear();
            return py_numpy_type_error(arr);
        }
        /* PyTorch warns once a program */
        static bool warned;
        if (!warned) {
            warned = true;
            if (PyErr_WarnEx(PyExc_UserWarning,
                             "The given NumPy array is not writable, and PyTorch does not "
                             "support non-writable tensors. This means writing to this tensor "
                             "will result in undefined behavior. You may want to copy the array "
                             "to protect its data or make it writable before converting it to a "
                             "tensor. This type of warning will be suppressed for the rest of "
                             "this program.",
                             1) < 0) {
                PyBuffer_Release(&view);
                return NULL;
            }
        }
    }
    nn_dtype dt;
    if (!py_buffer_dtype(view.format, view.itemsize, &dt)) {
        PyBuffer_Release(&view);
        return py_numpy_type_error(arr);
    }
    if (view.ndim > NN_MAX_DIMS) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "at most %d dims are supported", NN_MAX_DIMS);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    char *base = view.buf;
    for (int d = 0; d < view.ndim; d++) {
        shape[d] = view.shape[d];
        if (view.strides[d] % view.itemsize) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "given numpy array strides not a multiple of the "
                                              "element byte size. Copy the numpy array to "
                                              "reallocate the memory.");
            return NULL;
        }
        strides[d] = view.strides[d] / view.itemsize;
        if (strides[d] < 0) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError,
                            "At least one stride in the given numpy array is negative, and "
                            "tensors with negative strides are not currently supported. (You "
                            "can probably work around this by making a copy of your array  "
                            "with array.copy().) ");
            return NULL;
        }
    }
    size_t nbytes = (size_t)view.len;
    /* the extent in bytes from buf to one past the last element */
    int64_t hi = 0;
    for (int d = 0; d < view.ndim; d++)
        if (shape[d] > 0) hi += (shape[d] - 1) * strides[d];
    if (view.len > 0) nbytes = (size_t)(hi + 1) * (size_t)view.itemsize;
    PyObject *owner = Py_NewRef(view.obj ? view.obj : arr);
    PyBuffer_Release(&view);
    nn_tensor *t = nn_tensor_from_external(the_ctx, dt, view.ndim, shape, strides, base, nbytes,
                                           release_pyobject, owner);
    if (!t) {
        Py_DECREF(owner);
        return py_engine_error();
    }
    return py_tensor_wrap(t);
}

typedef nn_tensor *(*shape_factory)(nn_ctx *, nn_dtype, int, const int64_t *);

/* The engine generator of a torch.Generator (borrowed), or NULL with an
 * exception. */
static nn_rng *rng_of(PyObject *gen) {
    PyObject *cap = PyObject_GetAttrString(gen, "_engine");
    nn_rng *rng = cap ? PyCapsule_GetPointer(cap, "nndb.rng") : NULL;
    Py_XDECREF(cap);
    return rng;
}

/* A type as torch's argument errors name it: int, float, Tensor,
 * torch._C.Generator. */
static void add_type_name(PyObject *list, PyObject *v) {
    PyObject *name = NULL;
    if (py_tensor_check(v)) {
        name = PyUnicode_FromString("Tensor");
    } else if (PyType_HasFeature(Py_TYPE(v), Py_TPFLAGS_HEAPTYPE)) {
        PyObject *mod = PyObject_GetAttrString((PyObject *)Py_TYPE(v), "__module__");
        name = mod && PyUnicode_Check(mod) && PyUnicode_CompareWithASCIIString(mod, "builtins") != 0
                   ? PyUnicode_FromFormat("%U.%s", mod, _PyType_Name(Py_TYPE(v)))
                   : PyUnicode_FromString(_PyType_Name(Py_TYPE(v)));
        Py_XDECREF(mod);
        PyErr_Clear();
    } else {
        name = PyUnicode_FromString(_PyType_Name(Py_TYPE(v)));
    }
    if (name) PyList_Append(list, name);
    Py_XDECREF(name);
}

/* torch's TypeError for a factory's arguments that fit none of its
 * signatures: "randn() received an invalid combination of arguments - got
 * (int, generator=int), but expected one of: ..." */
static PyObject *invalid_combination(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames, bool random) {
    PyObject *parts = PyList_New(0);
    if (!parts) return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) add_type_name(parts, args[i]);
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *one = PyList_New(0);
        if (!one) break;
        add_type_name(one, args[nargs + k]);
        if (PyList_GET_SIZE(one) == 1) {
            PyObject *kv = PyUnicode_FromFormat("%U=%U", PyTuple_GET_ITEM(kwnames, k),
                                                PyList_GET_ITEM(one, 0));
            if (kv) PyList_Append(parts, kv);
            Py_XDECREF(kv);
        }
        Py_DECREF(one);
    }
    PyObject *sep = PyUnicode_FromString(", ");
    PyObject *got = sep ? PyUnicode_Join(sep, parts) : NULL;
    if (got)
        PyErr_Format(
            PyExc_TypeError,
            "%s() received an invalid combination of arguments - got (%U), but expected "
            "one of:\n * (tuple of ints size, *, %storch.dtype dtype, torch.layout layout, "
            "torch.device device, bool pin_memory, bool requires_grad)\n",
            fname, got, random ? "torch.Generator generator, " : "");
    Py_XDECREF(got);
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return NULL;
}

/* zeros/ones/empty/rand/randn(*size, dtype=None, requires_grad=False, ...) */
static PyObject *shaped(const char *fname, shape_factory fn, PyObject *const *args,
                        Py_ssize_t nargs, PyObject *kwnames, bool random) {
    PyObject *dtype = NULL, *rg = NULL, *gen = NULL, *size = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        PyObject *v = args[nargs + k];
        if (!s) return NULL;
        if (strcmp(s, "dtype") == 0)
            dtype = v;
        else if (strcmp(s, "requires_grad") == 0)
            rg = v;
        else if (strcmp(s, "generator") == 0 && random)
            gen = v;
        else if (strcmp(s, "device") == 0 && v != Py_None && py_device_check(v) < 0)
            return NULL;
        else if (strcmp(s, "size") == 0 && nargs == 0)
            size = v; /* the other keywords still count (dtype=, requires_grad=) */
        else if (strcmp(s, "device") && strcmp(s, "layout") && strcmp(s, "pin_memory") &&
                 strcmp(s, "memory_format") && strcmp(s, "out")) {
            return invalid_combination(fname, args, nargs, kwnames, random);
        }
    }
    if (gen && gen != Py_None && !PyObject_HasAttrString(gen, "_engine"))
        return invalid_combination(fname, args, nargs, kwnames, random);
    /* no size at all: PyTorch's signatures all need one (torch.randn(()) is
     * the 0-dim tensor). Its two messages: none of the signatures fits no
     * argument at all, and with keywords the size is "missing". */
    if (!size && nargs == 0) {
        if (nkw == 0) return invalid_combination(fname, args, nargs, kwnames, random);
        PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"size\"",
                     fname);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int ndim;
    if (size ? py_shape_args(&size, 1, shape, &ndim) < 0
             : py_shape_args(args, nargs, shape, &ndim) < 0)
        return NULL;
    nn_dtype dt = py_default_dtype();
    if (py_dtype_arg(dtype, &dt) < 0) return NULL;
    if (random && !nn_dtype_is_float(dt)) {
        PyErr_Format(PyExc_RuntimeError, "\"%s\" not implemented for '%s'",
                     strcmp(fname, "rand") == 0 ? "check_uniform_bounds" : "normal_kernel_cpu",
                     nn_dtype_scalar_name(dt));
        return NULL;
    }
    nn_tensor *t;
    if (gen && gen != Py_None) {
        nn_rng *rng = rng_of(gen);
        if (!rng) return NULL;
        t = strcmp(fname, "rand") == 0 ? nn_rand_gen(the_ctx, rng, dt, ndim, shape)
                                       : nn_randn_gen(the_ctx, rng, dt, ndim, shape);
    } else {
        t = fn(the_ctx, dt, ndim, shape);
    }
    return finish(t, rg);
}

static nn_tensor *empty_fn(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape) {
    return nn_zeros(ctx, dt, ndim, shape);
}

#define SHAPED(name, fn, random)                                                                   \
    static PyObject *f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,                \
                              PyObject *kwnames) {                                                 \
        (void)m;                                                                                   \
        return shaped(#name, fn, args, nargs, kwnames, random);                                    \
    }
SHAPED(zeros, nn_zeros, false)
SHAPED(ones, nn_ones, false)
SHAPED(empty, empty_fn, false)
SHAPED(rand, nn_rand, true)
SHAPED(randn, nn_randn, true)

static PyObject *f_full(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    PARSE("full", 2, "size", "fill_value", "$dtype", "device", "requires_grad", "layout",
          "pin_memory", "out");
    int64_t shape[NN_MAX_DIMS];
    int ndim;
    double v;
    if (py_ints_arg(a_[0], "size", shape, &ndim) < 0 || py_float_arg(a_[1], "fill_value", &v) < 0)
        return NULL;
    nn_dtype dt = PyBool_Check(a_[1])   ? NN_BOOL
                  : PyLong_Check(a_[1]) ? NN_INT64
                                        : py_default_dtype();
    if (a_[2] && py_dtype_arg(a_[2], &dt) < 0) return NULL;
    return finish(nn_full(the_ctx, dt, ndim, shape, v), a_[4]);
}

/* zeros_like/ones_like/empty_like/rand_like/randn_like/full_like */
static PyObject *like(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      int kind) {
    static const char *const kw_plain[] = {"input",  "$dtype",        "device", "requires_grad",
                                           "layout", "memory_format", NULL};
    static const char *const kw_full[] = {"input",         "fill_value", "$dtype",        "device",
                                          "requires_grad", "layout",     "memory_format", NULL};
    PyObject *a_[8] = {NULL};
    if (kind == 5) {
        if (py_parse(fname, args, nargs, kwnames, kw_full, 2, a_) < 0) return NULL;
    } else {
        if (py_parse(fname, args, nargs, kwnames, kw_plain, 1, a_ + 1) < 0) return NULL;
        a_[0] = a_[1];
        a_[1] = NULL;
    }
    nn_tensor *t;
    if (py_tensor_arg(a_[0], fname, "input", &t) < 0) return NULL;
    nn_dtype dt = t->dtype;
    if (a_[2] && py_dtype_arg(a_[2], &dt) < 0) return NULL;
    nn_memory_format fmt = NN_FORMAT_PRESERVE;
    int64_t st[NN_MAX_DIMS];
    if (py_memory_format_arg(fname, a_[6], t, &fmt) < 0) return NULL;
    nn_tensor *r = NULL;
    bool strided = nn_format_strides(t, fmt, st);
    if (strided && (kind == 3 || kind == 4) && nn_dtype_is_float(dt)) {
        /* normal_ draws a non-contiguous tensor one element at a time in
         * memory order, not in the row-major block fill of randn */
        r = nn_tensor_empty_strided(the_ctx, dt, t->ndim, t->shape, st);
        if (r && (kind == 3 ? nn_tensor_uniform_gen_(the_ctx, r, 0, 1, NULL)
                            : nn_tensor_normal_gen_(the_ctx, r, 0, 1, NULL))) {
            nn_tensor_release(r);
            r = NULL;
        }
        return finish(r, a_[4]);
    }
    switch (kind) {
    case 0:
    case 2: r = nn_zeros(the_ctx, dt, t->ndim, t->shape); break;
    case 1: r = nn_ones(the_ctx, dt, t->ndim, t->shape); break;
    case 3: r = nn_rand(the_ctx, dt, t->ndim, t->shape); break;
    case 4: r = nn_randn(the_ctx, dt, t->ndim, t->shape); break;
    case 5: {
        double v;
        if (py_float_arg(a_[1], "fill_value", &v) < 0) return NULL;
        r = nn_full(the_ctx, dt, t->ndim, t->shape, v);
        break;
    }
    }
    /* PyTorch's empty_like then a fill: one value, so restriding the
     * row-major result gives the same tensor */
    if (r && strided) memcpy(r->strides, st, sizeof(int64_t) * (size_t)t->ndim);
    return finish(r, a_[4]);
}

#define LIKE(name, kind)                                                                           \
    static PyObject *f_##name(PyObject *m, PyObject *const *args, Py_ssize_t nargs,                \
                              PyObject *kwnames) {                                                 \
        (void)m;                                                                                   \
        return like(#name, args, nargs, kwnames, kind);                                            \
    }
LIKE(zeros_like, 0)
LIKE(ones_like, 1)
LIKE(empty_like, 2)
LIKE(rand_like, 3)
LIKE(randn_like, 4)
LIKE(full_like, 5)

static PyObject *f_arange(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    PARSE("arange", 1, "start", "end", "step", "$dtype", "device", "requires_grad", "out", "layout",
          "pin_memory");
    double start = 0, end, step = 1;
    bool any_float = false;
    PyObject *vals[3] = {a_[0], a_[1], a_[2]};
    for (int i = 0; i < 3; i++)
        if (vals[i] && vals[i] != Py_None &&
            (PyFloat_Check(vals[i]) ||
             (py_tensor_of(vals[i]) && nn_dtype_is_float(py_tensor_of(vals[i])->dtype))))
            any_float = true;
    if (!a_[1] || a_[1] == Py_None) {
        if (py_float_arg(a_[0], "end", &end) < 0) return NULL;
    } else if (py_float_arg(a_[0], "start", &start) < 0 || py_float_arg(a_[1], "end", &end) < 0)
        return NULL;
    if (a_[2] && a_[2] != Py_None && py_float_arg(a_[2], "step", &step) < 0) return NULL;
    if (step == 0) {
        PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
        return NULL;
    }
    if ((step > 0 && start > end) || (step < 0 && start < end)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "upper bound and larger bound inconsistent with step sign");
        return NULL;
    }
    nn_dtype dt = any_float ? py_default_dtype() : NN_INT64;
    if (a_[3] && py_dtype_arg(a_[3], &dt) < 0) return NULL;
    return finish(nn_arange(the_ctx, start, end, step, dt), a_[5]);
}

static PyObject *f_linspace(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    (void)m;
    PARSE("linspace", 3, "start", "end", "steps", "$dtype", "device", "requires_grad", "out");
    double start, end;
    int64_t steps;
    if (py_float_arg(a_[0], "start", &start) < 0 || py_float_arg(a_[1], "end", &end) < 0 ||
        py_int_arg(a_[2], "steps", &steps) < 0)
        return NULL;
    if (steps < 0) {
        PyErr_SetString(PyExc_RuntimeError, "number of steps must be non-negative");
        return NULL;
    }
    nn_dtype dt = py_default_dtype();
    if (a_[3] && py_dtype_arg(a_[3], &dt) < 0) return NULL;
    return finish(nn_linspace(the_ctx, start, end, steps, dt), a_[5]);
}

static PyObject *f_eye(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    PARSE("eye", 1, "n", "m", "$dtype", "device", "requires_grad", "out");
    int64_t n, mm;
    if (py_int_arg(a_[0], "n", &n) < 0) return NULL;
    mm = n;
    if (a_[1] && a_[1] != Py_None && py_int_arg(a_[1], "m", &mm) < 0) return NULL;
    nn_dtype dt = py_default_dtype();
    if (a_[2] && py_dtype_arg(a_[2], &dt) < 0) return NULL;
    return finish(nn_eye(the_ctx, n, mm, dt), a_[4]);
}

static PyObject *f_randint(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    (void)m;
    /* randint(high, size) or randint(low, high, size) */
    PARSE("randint", 2, "low", "high", "size", "$generator", "dtype", "device", "requires_grad",
          "out");
    int64_t low = 0, high;
    PyObject *size = a_[2];
    if (!size) {
        size = a_[1];
        if (py_int_arg(a_[0], "high", &high) < 0) return NULL;
    } else if (py_int_arg(a_[0], "low", &low) < 0 || py_int_arg(a_[1], "high", &high) < 0) {
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int ndim;
    if (py_ints_arg(size, "size", shape, &ndim) < 0) return NULL;
    if (low >= high) {
        PyErr_Format(PyExc_RuntimeError,
                     "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)low, (long long)high);
        return NULL;
    }
    nn_dtype dt = NN_INT64;
    if (a_[4] && py_dtype_arg(a_[4], &dt) < 0) return NULL;
    nn_rng *rng = &the_ctx->rng;
    if (a_[3] && a_[3] != Py_None) {
        rng = rng_of(a_[3]);
        if (!rng) return NULL;
    }
    return finish(nn_randint_gen(the_ctx, rng, low, high, dt, ndim, shape), a_[6]);
}

static PyObject *f_randperm(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    (void)m;
    PARSE("randperm", 1, "n", "$generator", "dtype", "device", "requires_grad");
    int64_t n;
    if (py_int_arg(a_[0], "n", &n) < 0) return NULL;
    if (n < 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "Trying to create tensor with negative dimension %lld: [%lld]", (long long)n,
                     (long long)n);
        return NULL;
    }
    nn_dtype dt = NN_INT64;
    if (a_[2] && py_dtype_arg(a_[2], &dt) < 0) return NULL;
    nn_rng *rng = &the_ctx->rng;
    if (a_[1] && a_[1] != Py_None) {
        rng = rng_of(a_[1]);
        if (!rng) return NULL;
    }
    return finish(nn_randperm(the_ctx, rng, n, dt), a_[4]);
}

/* ---- seeds and generators ---- */

static PyObject *f_manual_seed(PyObject *m, PyObject *seed) {
    (void)m;
    int64_t s;
    if (py_int_arg(seed, "seed", &s) < 0) return NULL;
    nn_ctx_seed(the_ctx, (uint64_t)s);
    Py_RETURN_NONE;
}

static PyObject *f_default_rng(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return PyCapsule_New(&the_ctx->rng, "nndb.rng", NULL);
}

static void rng_capsule_free(PyObject *cap) {
    nn_rng_free(PyCapsule_GetPointer(cap, "nndb.rng"));
}

static PyObject *f_new_rng(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    nn_rng *r = nn_rng_new(67280421310721ULL);
    if (!r) return PyErr_NoMemory();
    return PyCapsule_New(r, "nndb.rng", rng_capsule_free);
}

static PyObject *f_rng_seed(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cap;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OK", &cap, &seed)) return NULL;
    nn_rng *r = PyCapsule_GetPointer(cap, "nndb.rng");
    if (!r) return NULL;
    nn_rng_seed(r, seed);
    Py_RETURN_NONE;
}

static PyObject *f_rng_get_state(PyObject *m, PyObject *cap) {
    (void)m;
    nn_rng *r = PyCapsule_GetPointer(cap, "nndb.rng");
    if (!r) return NULL;
    uint8_t st[NN_RNG_STATE_BYTES];
    nn_rng_get_state(r, st);
    int64_t n = NN_RNG_STATE_BYTES;
    return py_tensor_wrap(nn_tensor_from_data(the_ctx, NN_UINT8, 1, &n, st));
}

static PyObject *f_rng_set_state(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cap, *state;
    if (!PyArg_ParseTuple(args, "OO", &cap, &state)) return NULL;
    nn_rng *r = PyCapsule_GetPointer(cap, "nndb.rng");
    nn_tensor *t = py_tensor_of(state);
    if (!r) return NULL;
    if (!t || t->dtype != NN_UINT8 || !nn_tensor_is_contiguous(t)) {
        PyErr_SetString(PyExc_TypeError, "RNG state must be a torch.ByteTensor");
        return NULL;
    }
    size_t n = (size_t)nn_tensor_numel(t);
    if (n != NN_RNG_STATE_BYTES) {
        PyErr_Format(
            PyExc_RuntimeError,
            "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a "
            "CPUGeneratorImplState of size %d but found the input RNG state size to be %zu",
            NN_RNG_STATE_BYTES, n);
        return NULL;
    }
    if (!nn_rng_set_state(r, nn_tensor_data(t), n)) {
        PyErr_SetString(PyExc_RuntimeError, "Invalid mt19937 state");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_rng_draw_seed(PyObject *m, PyObject *cap) {
    (void)m;
    nn_rng *r = PyCapsule_GetPointer(cap, "nndb.rng");
    if (!r) return NULL;
    return PyLong_FromLongLong(nn_random_seed_draw(r));
}

/* ---- grad mode ---- */

static PyObject *f_set_grad_enabled(PyObject *m, PyObject *on) {
    (void)m;
    int v = PyObject_IsTrue(on);
    if (v < 0) return NULL;
    return PyBool_FromLong(nn_ctx_set_grad(the_ctx, v));
}

static PyObject *f_is_grad_enabled(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return PyBool_FromLong(the_ctx->grad_enabled);
}

static PyObject *f_get_default_dtype(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return Py_NewRef(py_dtype_object(py_default_dtype()));
}

static PyObject *f_set_default_dtype(PyObject *m, PyObject *d) {
    (void)m;
    nn_dtype dt = py_default_dtype();
    if (py_dtype_arg(d, &dt) < 0) return NULL;
    if (!nn_dtype_is_float(dt)) {
        PyErr_SetString(PyExc_TypeError,
                        "only floating-point types are supported as the default type");
        return NULL;
    }
    py_set_default_dtype(dt);
    Py_RETURN_NONE;
}

/* set_num_threads(n): the engine's threads and the BLAS's (nn_ctx.h), with
 * PyTorch's messages for what it refuses. */
static PyObject *f_set_num_threads(PyObject *m, PyObject *n) {
    (void)m;
    if (!PyLong_Check(n) || PyBool_Check(n))
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects an int, but got %s",
                            Py_TYPE(n)->tp_name);
    long k = PyLong_AsLong(n);
    if (k == -1 && PyErr_Occurred()) return NULL;
    if (k <= 0)
        return PyErr_Format(PyExc_RuntimeError, "set_num_threads expects a positive integer");
    nn_set_num_threads(k > 4096 ? 4096 : (int)k);
    Py_RETURN_NONE;
}

/* _set_flush_denormal(on) -> whether the processor has the mode. */
static PyObject *f_set_flush_denormal(PyObject *m, PyObject *on) {
    (void)m;
    int v = PyObject_IsTrue(on);
    if (v < 0) return NULL;
    return PyBool_FromLong(nn_set_flush_denormal(v));
}

static PyObject *f_get_num_threads(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return PyLong_FromLong(nn_get_num_threads());
}

/* _blas_num_threads(): the BLAS's own thread count (tests/py/threads.py
 * checks that set_num_threads reaches it). */
static PyObject *f_blas_num_threads(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    return PyLong_FromLong(nn_blas_get_threads());
}

/* _par_min_elemwise([n]): the engine's per-task size threshold
 * (nn_thread.h), set when n is given; returns the value before. For
 * bench/python/threads.py's sweep. */
static PyObject *f_par_min_elemwise(PyObject *m, PyObject *args) {
    (void)m;
    long long n = 0;
    if (!PyArg_ParseTuple(args, "|L", &n)) return NULL;
    if (PyTuple_GET_SIZE(args) == 0) return PyLong_FromLongLong(nn_par_min_elemwise());
    if (n < 1)
        return PyErr_Format(PyExc_ValueError, "_par_min_elemwise expects a positive integer");
    return PyLong_FromLongLong(nn_set_par_min_elemwise(n));
}

static PyObject *f_is_tensor(PyObject *m, PyObject *o) {
    (void)m;
    return PyBool_FromLong(py_tensor_check(o));
}

static PyObject *f_numel(PyObject *m, PyObject *o) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(o, "numel", "input", &t) < 0) return NULL;
    return PyLong_FromLongLong(nn_tensor_numel(t));
}

/* ---- docstrings ---- */

/* _add_docstr(obj, doc): give a builtin written in C its docstring, as
 * PyTorch's torch._C._add_docstr does for torch/_torch_docs.py and
 * _tensor_docs.py, which keep the text in Python. CPython reads the
 * __doc__ of a builtin function or method descriptor from its PyMethodDef's
 * ml_doc (a property's from its PyGetSetDef's doc) on each access, a C
 * string, so ml_doc is pointed at [doc]'s UTF-8 and [doc] is kept alive for
 * the life of the process (a reference never given back; Python is started
 * once per process). The tables are nndb's own, writable arrays; a doc the
 * C table already had is replaced, so the Python text is the one source.
 * Returns obj. */
static PyObject *f_add_docstr(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *obj, *doc;
    if (!PyArg_ParseTuple(args, "OU:_add_docstr", &obj, &doc)) return NULL;
    const char *text = PyUnicode_AsUTF8(doc);
    if (!text) return NULL;
    if (PyCFunction_Check(obj))
        ((PyCFunctionObject *)obj)->m_ml->ml_doc = text;
    else if (Py_IS_TYPE(obj, &PyMethodDescr_Type) || Py_IS_TYPE(obj, &PyClassMethodDescr_Type))
        ((PyMethodDescrObject *)obj)->d_method->ml_doc = text;
    else if (Py_IS_TYPE(obj, &PyGetSetDescr_Type))
        ((PyGetSetDescrObject *)obj)->d_getset->doc = text;
    else
        return PyErr_Format(PyExc_TypeError,
                            "_add_docstr: a builtin function, method or property written in C "
                            "is expected, not %.100s",
                            Py_TYPE(obj)->tp_name);
    Py_INCREF(doc);
    return Py_NewRef(obj);
}

/* ---- backward nodes (grad_fn) ---- */

typedef struct grad_fn_object {
    PyObject_HEAD nn_node *node; /* NULL for AccumulateGrad */
    const char *name;
    PyObject *variable; /* AccumulateGrad's leaf tensor */
} grad_fn_object;

static void grad_fn_dealloc(PyObject *self) {
    grad_fn_object *o = (grad_fn_object *)self;
    if (o->node) nn_node_release(o->node);
    Py_CLEAR(o->variable);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *grad_fn_name(PyObject *self, PyObject *unused) {
    (void)unused;
    grad_fn_object *o = (grad_fn_object *)self;
    /* PyTorch's name() of the leaf node and of CopySlices (hand-written
     * C++ nodes, not generated ones) is its C++ name */
    if (o->node && (strcmp(o->name, "CopySlices") == 0 || strcmp(o->name, "CopyBackwards") == 0))
        return PyUnicode_FromFormat("torch::autograd::%s", o->name);
    return PyUnicode_FromString(o->node ? o->name : "torch::autograd::AccumulateGrad");
}

static PyObject *grad_fn_eq(PyObject *a, PyObject *b, int op);

static PyMethodDef grad_fn_methods[] = {
    {"name", grad_fn_name, METH_NOARGS, "the node's class name, as torch names it"},
    {NULL, NULL, 0, NULL},
};

static PyObject *grad_fn_make(nn_node *node, const char *name, PyObject *variable);

/* One (node, 0) pair of next_functions for input [in]: its producer's
 * grad_fn, an AccumulateGrad for a leaf that requires grad, else None. */
static PyObject *next_pair(const nn_input *in) {
    PyObject *fn;
    if (in->fn) {
        fn = in->fn->op == NN_OP_CUSTOM ? py_autograd_grad_fn(in->fn) : NULL;
        if (!fn && !PyErr_Occurred()) fn = grad_fn_make(in->fn, nn_format_node_name(in->fn), NULL);
    } else if (in->t && in->t->requires_grad && in->needs_grad) {
        PyObject *v = py_tensor_wrap(nn_tensor_retain(in->t));
        fn = v ? grad_fn_make(NULL, "AccumulateGrad", v) : NULL;
        Py_XDECREF(v);
    } else {
        fn = Py_NewRef(Py_None);
    }
    return fn ? Py_BuildValue("(Ni)", fn, 0) : NULL;
}

/* next_functions: ((grad_fn, 0), ...) per input, as PyTorch shows the graph
 * (the autograd tutorial walks it by hand). */
static PyObject *grad_fn_next(PyObject *self, void *c) {
    (void)c;
    nn_node *n = ((grad_fn_object *)self)->node;
    if (!n) return PyTuple_New(0);
    PyObject *r = PyTuple_New(n->n_in);
    for (int i = 0; r && i < n->n_in; i++) {
        PyObject *p = next_pair(&n->in[i]);
        if (!p) Py_CLEAR(r);
        if (r) PyTuple_SET_ITEM(r, i, p);
    }
    return r;
}

static PyObject *grad_fn_variable(PyObject *self, void *c) {
    (void)c;
    PyObject *v = ((grad_fn_object *)self)->variable;
    if (!v)
        return PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute 'variable'",
                            Py_TYPE(self)->tp_name);
    return Py_NewRef(v);
}

static PyGetSetDef grad_fn_getset[] = {
    {"next_functions", grad_fn_next, NULL, "the grad_fn of each input, with its output index",
     NULL},
    {"variable", grad_fn_variable, NULL, "AccumulateGrad: the leaf tensor it accumulates into",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject grad_fn_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._FunctionBase",
    .tp_basicsize = sizeof(grad_fn_object),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_dealloc = grad_fn_dealloc,
    /* no tp_repr: object's own, "<AddBackward0 object at 0x...>" from the
     * class's name, as PyTorch's; IPython's pretty printer then shows
     * "<AddBackward0 at 0x...>" as it does for PyTorch's nodes */
    .tp_methods = grad_fn_methods,
    .tp_getset = grad_fn_getset,
    .tp_richcompare = grad_fn_eq,
};

static PyObject *grad_fn_eq(PyObject *a, PyObject *b, int op) {
    if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(b, &grad_fn_type))
        Py_RETURN_NOTIMPLEMENTED;
    grad_fn_object *x = (grad_fn_object *)a, *y = (grad_fn_object *)b;
    bool same = x->node ? x->node == y->node
                        : !y->node && x->variable && y->variable &&
                              py_tensor_of(x->variable) == py_tensor_of(y->variable);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* The class of a node named [name]: as in PyTorch, type(y.grad_fn) is
 * <class 'MulBackward0'>, one class per name, made on first use (a subclass
 * of _FunctionBase without a __dict__, __module__ 'builtins' as PyTorch's
 * C classes have) and kept for the process. */
static PyTypeObject *grad_fn_class(const char *name) {
    static PyObject *classes;
    if (!classes && !(classes = PyDict_New())) return NULL;
    PyObject *cls = PyDict_GetItemString(classes, name);
    if (cls) return (PyTypeObject *)cls;
    cls = PyObject_CallFunction((PyObject *)&PyType_Type, "s(O){s:(),s:s}", name, &grad_fn_type,
                                "__slots__", "__module__", "builtins");
    if (!cls) return NULL;
    int rc = PyDict_SetItemString(classes, name, cls);
    Py_DECREF(cls); /* the dict keeps it */
    return rc < 0 ? NULL : (PyTypeObject *)cls;
}

static PyObject *grad_fn_make(nn_node *node, const char *name, PyObject *variable) {
    PyTypeObject *cls = grad_fn_class(name);
    if (!cls) return NULL;
    /* tp_alloc: a class made by type() may be garbage-collected */
    grad_fn_object *o = (grad_fn_object *)cls->tp_alloc(cls, 0);
    if (!o) return NULL;
    if (node) nn_node_retain(node);
    o->node = node;
    o->name = name;
    o->variable = Py_XNewRef(variable);
    return (PyObject *)o;
}

PyObject *py_grad_fn_new(nn_node *node, const char *name);
PyObject *py_grad_fn_new(nn_node *node, const char *name) {
    return grad_fn_make(node, name ? name : nn_op_name(node->op), NULL);
}

nn_node *py_grad_fn_node(PyObject *o);
nn_node *py_grad_fn_node(PyObject *o) {
    return PyObject_TypeCheck(o, &grad_fn_type) ? ((grad_fn_object *)o)->node : NULL;
}

/* ---- the tables ---- */

#define FAST(name, doc)                                                                            \
    { #name, (PyCFunction)(void (*)(void))f_##name, METH_FASTCALL | METH_KEYWORDS, doc }

PyMethodDef py_core_functions[] = {
    FAST(tensor, "tensor(data, dtype=None, requires_grad=False): a new tensor from data"),
    FAST(as_tensor, "as_tensor(data, dtype=None): data as a tensor, without a copy when it is one"),
    {"from_numpy", f_from_numpy, METH_O,
     "from_numpy(ndarray): a tensor sharing the array's memory"},
    FAST(zeros, "zeros(*size, dtype=None, requires_grad=False)"),
    FAST(ones, "ones(*size, dtype=None, requires_grad=False)"),
    FAST(empty, "empty(*size, dtype=None): uninitialised (zeros in nndb)"),
    FAST(rand, "rand(*size): uniform on [0, 1) from torch's generator"),
    FAST(randn, "randn(*size): standard normal from torch's generator"),
    FAST(full, "full(size, fill_value, dtype=None)"),
    FAST(zeros_like, "zeros_like(input)"),
    FAST(ones_like, "ones_like(input)"),
    FAST(empty_like, "empty_like(input)"),
    FAST(rand_like, "rand_like(input)"),
    FAST(randn_like, "randn_like(input)"),
    FAST(full_like, "full_like(input, fill_value)"),
    FAST(arange, "arange(start=0, end, step=1, dtype=None)"),
    FAST(linspace, "linspace(start, end, steps)"),
    FAST(eye, "eye(n, m=None)"),
    FAST(randint, "randint(low=0, high, size)"),
    FAST(randperm, "randperm(n)"),
    {"manual_seed", f_manual_seed, METH_O, "seed torch's CPU generator"},
    {"_default_rng", f_default_rng, METH_NOARGS, NULL},
    {"_new_rng", f_new_rng, METH_NOARGS, NULL},
    {"_rng_seed", f_rng_seed, METH_VARARGS, NULL},
    {"_rng_get_state", f_rng_get_state, METH_O, NULL},
    {"_rng_set_state", f_rng_set_state, METH_VARARGS, NULL},
    {"_rng_draw_seed", f_rng_draw_seed, METH_O, NULL},
    {"_set_grad_enabled", f_set_grad_enabled, METH_O, "set grad mode; returns the previous one"},
    {"is_grad_enabled", f_is_grad_enabled, METH_NOARGS, "whether ops are recorded for autograd"},
    {"get_default_dtype", f_get_default_dtype, METH_NOARGS, "the default float dtype"},
    {"set_default_dtype", f_set_default_dtype, METH_O, "set the default float dtype"},
    {"set_num_threads", f_set_num_threads, METH_O, "threads for BLAS and parallel kernels"},
    {"_set_flush_denormal", f_set_flush_denormal, METH_O, "subnormal floats flushed to zero"},
    {"get_num_threads", f_get_num_threads, METH_NOARGS, "threads for BLAS and parallel kernels"},
    {"_blas_num_threads", f_blas_num_threads, METH_NOARGS, "the BLAS library's thread count"},
    {"_par_min_elemwise", f_par_min_elemwise, METH_VARARGS,
     "the engine's elements per task below which kernels stay on one thread"},
    {"is_tensor", f_is_tensor, METH_O, "whether obj is a tensor"},
    {"numel", f_numel, METH_O, "the number of elements of a tensor"},
    {"_add_docstr", f_add_docstr, METH_VARARGS, "_add_docstr(obj, doc): set a builtin's docstring"},
    {NULL, NULL, 0, NULL},
};

extern PyMethodDef py_tensor_module_functions[];
int py_dtype_setup(PyObject *m);
int py_tensor_setup(PyObject *m, PyMethodDef *all_methods);

static int count(const PyMethodDef *d) {
    int n = 0;
    while (d[n].ml_name) n++;
    return n;
}

/* ---- out= for every function of the module ----
 * Each function object is wrapped once at import: the wrapper's self is a
 * class that holds the original (py_fn_class, so its repr is PyTorch's) and
 * it passes calls without out= (or with out=None) straight to it; a call with out= goes to
 * py_out_call (py_out.c), which runs it without out and writes the result there as PyTorch does. */
static PyObject *out_wrapper(PyObject *self, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    PyObject *fn = ((py_fn_class *)self)->fn;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0,
               at = -1;
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "out") == 0) at = i;
    if (at < 0 || args[nargs + at] == Py_None)
        return PyObject_Vectorcall(fn, args, nargsf, kwnames);
    return py_out_call(fn, args, nargs, kwnames, at);
}

static int add_functions(PyObject *m, PyMethodDef *defs) {
    if (PyModule_AddFunctions(m, defs) < 0) return -1;
    int n = count(defs);
    PyMethodDef *w = PyMem_Calloc((size_t)n + 1, sizeof *w);
    if (!w) return -1;
    for (int i = 0; i < n; i++) {
        if ((defs[i].ml_flags & (METH_FASTCALL | METH_KEYWORDS)) != (METH_FASTCALL | METH_KEYWORDS))
            continue;
        PyObject *orig = PyObject_GetAttrString(m, defs[i].ml_name);
        if (!orig) return -1;
        w[i] = (PyMethodDef){defs[i].ml_name, (PyCFunction)(void (*)(void))out_wrapper,
                             METH_FASTCALL | METH_KEYWORDS, defs[i].ml_doc};
        PyObject *modname = PyModule_GetNameObject(m);
        PyObject *cls = modname ? py_fn_class_new(orig, NULL) : NULL;
        PyObject *f = cls ? PyCFunction_NewEx(&w[i], cls, modname) : NULL;
        Py_XDECREF(cls);
        Py_XDECREF(modname);
        Py_DECREF(orig);
        if (!f || PyModule_AddObject(m, defs[i].ml_name, f) < 0) {
            Py_XDECREF(f);
            return -1;
        }
    }
    return 0;
}

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "torch._C",
    "nndb's engine as torch's native core: tensors, ops, autograd.",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyObject *py_module_init(void) {
    if (!the_ctx) {
        the_ctx = nn_ctx_new(67280421310721ULL);
        if (!the_ctx) return PyErr_NoMemory();
    }
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    /* the tensor type's methods: its own and every area's, in one array */
    PyMethodDef *tables[] = {py_tensor_methods,          py_ops_methods,
                             py_ops_elementwise_methods, py_ops_reduce_methods,
                             py_ops_shape_methods,       py_ops_create_methods,
                             py_special_methods};
    int total = 0;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) total += count(tables[i]);
    PyMethodDef *all = PyMem_Calloc((size_t)total + 1, sizeof *all);
    if (!all) goto fail;
    int k = 0;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        for (const PyMethodDef *d = tables[i]; d->ml_name; d++) all[k++] = *d;
    py_exc_stopped = PyErr_NewExceptionWithDoc(
        "torch._C.Stopped", "A debugger hook stopped the statement; the graph is kept.",
        PyExc_RuntimeError, NULL);
    if (!py_exc_stopped || PyModule_AddObjectRef(m, "Stopped", py_exc_stopped) < 0) goto fail;
    if (py_dtype_setup(m) < 0 || py_tensor_setup(m, all) < 0) goto fail;
    if (PyType_Ready(&grad_fn_type) < 0) goto fail;
    if (add_functions(m, py_core_functions) < 0 ||
        add_functions(m, py_tensor_module_functions) < 0 ||
        add_functions(m, py_ops_functions) < 0 ||
        add_functions(m, py_ops_elementwise_functions) < 0 ||
        add_functions(m, py_ops_reduce_functions) < 0 ||
        add_functions(m, py_ops_shape_functions) < 0 ||
        add_functions(m, py_ops_create_functions) < 0 ||
        add_functions(m, py_special_functions) < 0 || py_ops_setup(m) < 0 ||
        add_functions(m, py_nn_functions) < 0 || add_functions(m, py_optim_functions) < 0 ||
        add_functions(m, py_io_functions) < 0)
        goto fail;
    if (add_functions(m, py_dist_functions) < 0) goto fail;        /* py_dist.c */
    if (add_functions(m, py_instruments_functions) < 0) goto fail; /* py_instruments.c */
    if (add_functions(m, py_probe_functions) < 0) goto fail;       /* py_probe.c */
    if (add_functions(m, py_data_functions) < 0) goto fail;        /* py_data.c */
    if (add_functions(m, py_autograd_functions) < 0) goto fail;    /* py_autograd.c */
    if (add_functions(m, py_debug_functions) < 0) goto fail;       /* py_debug.c */
    if (add_functions(m, py_linalg_functions) < 0) goto fail;      /* py_linalg.c */
    if (add_functions(m, py_out_functions) < 0) goto fail;         /* py_out.c */
    if (add_functions(m, py_fft_functions) < 0) goto fail;         /* py_fft.c */
    if (add_functions(m, py_conv_functions) < 0) goto fail;        /* py_conv.c */
    if (add_functions(m, py_autocast_functions) < 0) goto fail;    /* py_autocast.c */
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
