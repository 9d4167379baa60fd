/* py_ops_create: ops that make tensors of another dtype or fill them:
 * Tensor.to (a dtype, a device, another tensor), float()/double()/long()/
 * ..., type_as, new_zeros/new_ones/new_full/new_empty/new_tensor, the
 * random fills (normal_, uniform_, bernoulli_, exponential_, random_) and
 * draws (multinomial, bernoulli, normal), and counting (one_hot,
 * bincount, histc). Random draws take torch's generator= and draw from the
 * stream as torch 1.13 does. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nn_random.h"
#include "py_ops.h"

static nn_ctx *ctx_(void) {
    return py_ctx();
}

/* ---- conversion ---- */

/* [self] in [dt]: self itself when it already is (unless [copy]). */
static PyObject *convert(PyObject *self, nn_dtype dt, bool copy) {
    nn_tensor *t = py_tensor_of(self);
    if (t->dtype == dt && !copy) return Py_NewRef(self);
    if (t->dtype == dt) {
        nn_ctx *ctx = ctx_();
        /* PyTorch's _to_copy: a recorded copy keeps a dense layout */
        if ((t->requires_grad && ctx->grad_enabled) || !nn_tensor_is_contiguous(t))
            return py_tensor_wrap(nn_to(ctx, t, dt));
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
        nn_tensor *r =
            c ? nn_tensor_from_data(ctx, c->dtype, c->ndim, c->shape, nn_tensor_data(c)) : NULL;
        nn_tensor_release(c);
        return py_tensor_wrap(r);
    }
    /* PyTorch's warning (Copy.cpp): the imaginary part is dropped, not silently */
    if (nn_dtype_is_complex(t->dtype) && !nn_dtype_is_complex(dt) &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "Casting complex values to real discards the imaginary part", 1) < 0)
        return NULL;
    return py_tensor_wrap(nn_to(ctx_(), t, dt));
}

/* The same with a memory_format= argument [mf]: as PyTorch's to(), a copy
 * (ToCopyBackward0) in that format unless [self] is in [dt] and its
 * strides suggest that format (c10's suggest_memory_format, so a
 * transposed matrix is its own to(memory_format=torch.contiguous_format)). */
static PyObject *convert_format(PyObject *self, nn_dtype dt, bool copy, PyObject *mf) {
    nn_tensor *t = py_tensor_of(self);
    nn_memory_format fmt = NN_FORMAT_PRESERVE;
    if (py_memory_format_arg("to", mf, t, &fmt) < 0) return NULL;
    if (fmt == NN_FORMAT_PRESERVE) return convert(self, dt, copy);
    if (t->dtype == dt && !copy && nn_tensor_suggested_format(t) == fmt) return Py_NewRef(self);
    return py_tensor_wrap(nn_to_format(ctx_(), t, dt, fmt));
}

/* A device argument: "cpu", "cpu:0", torch.device('cpu'); CUDA devices
 * raise as torch built without CUDA does. Sets *is_device. */
static int device_arg(PyObject *o, bool *is_device) {
    /* a string, an index (cuda:N) or a torch.device; not a bool, a tensor
     * or a dtype (those have meanings of their own in to()) */
    *is_device =
        PyUnicode_Check(o) || (PyLong_Check(o) && !PyBool_Check(o)) ||
        (!py_tensor_check(o) && Py_TYPE(o) != &py_dtype_type && PyObject_HasAttrString(o, "type"));
    return *is_device ? py_device_check(o) : 0;
}

/* to(dtype) / to(device, dtype=None) / to(other) with non_blocking= and
 * copy=, which may also come positionally after them, as in PyTorch's
 * to(device, dtype, non_blocking, copy); memory_format= lays the result out
 * in that format (nn_to_format), preserve_format (the default) as clone(). */
static PyObject *m_to(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const kw[] = {
        "a0", "a1", "a2", "a3", "$dtype", "device", "non_blocking", "copy", "memory_format", NULL};
    PyObject *a_[10];
    if (py_parse("to", args, nargs, kwnames, kw, 0, a_) < 0) return NULL;
    nn_tensor *t = py_tensor_of(self);
    nn_dtype dt = t->dtype;
    bool copy = false, dev;
    int n_bools = 0;
    for (int i = 0; i < 4; i++) {
        PyObject *o = a_[i];
        if (!py_given(o)) continue;
        if (PyBool_Check(o)) { /* non_blocking, then copy */
            if (n_bools++ == 1) copy = o == Py_True;
            continue;
        }
        if (n_bools || i > 1) {
            PyErr_SetString(PyExc_TypeError, "to() received an invalid combination of arguments");
            return NULL;
        }
        if (py_tensor_check(o)) {
            dt = py_tensor_of(o)->dtype;
        } else if (Py_TYPE(o) == &py_dtype_type) {
            if (py_dtype_arg(o, &dt) < 0) return NULL;
        } else {
            if (device_arg(o, &dev) < 0) return NULL;
            if (!dev) {
                PyErr_Format(PyExc_TypeError,
                             "to() received an invalid combination of arguments - got (%s), but "
                             "expected one of: (torch.device device, torch.dtype dtype, bool "
                             "non_blocking, bool copy), (torch.dtype dtype, bool non_blocking, "
                             "bool copy), (Tensor tensor, bool non_blocking, bool copy)",
                             Py_TYPE(o)->tp_name);
                return NULL;
            }
        }
    }
    if (a_[7] && py_bool_arg(a_[7], "copy", &copy) < 0) return NULL;
    if (py_given(a_[5]) && device_arg(a_[5], &dev) < 0) return NULL;
    if (py_given(a_[4]) && py_dtype_arg(a_[4], &dt) < 0) return NULL;
    return convert_format(self, dt, copy, a_[8]);
}

#define CONVERT(name, DT)                                                                          \
    static PyObject *m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,             \
                              PyObject *kwnames) {                                                 \
        static const char *const kw[] = {"memory_format", NULL};                                   \
        PyObject *a_[2];                                                                           \
        if (py_parse(#name, args, nargs, kwnames, kw, 0, a_) < 0) return NULL;                     \
        return convert_format(self, DT, false, a_[0]);                                             \
    }
CONVERT(float, NN_FLOAT32)
CONVERT(double, NN_FLOAT64)
CONVERT(long, NN_INT64)
CONVERT(int, NN_INT32)
CONVERT(short, NN_INT16)
CONVERT(char, NN_INT8)
CONVERT(byte, NN_UINT8)
CONVERT(bool, NN_BOOL)
CONVERT(half, NN_FLOAT16)
CONVERT(bfloat16, NN_BFLOAT16)
#undef CONVERT

static PyObject *m_type_as(PyObject *self, PyObject *other) {
    nn_tensor *o;
    if (py_tensor_arg(other, "type_as", "other", &o) < 0) return NULL;
    return convert(self, o->dtype, false);
}

/* ---- new_* : self's dtype unless dtype= ---- */

static PyObject *new_like(const char *name, int kind, PyObject *self, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t = py_tensor_of(self);
    double fill = kind == 1 ? 1 : 0;
    Py_ssize_t nshape = nargs;
    if (kind == 2) { /* new_full(size, fill_value) */
        if (nargs != 2) {
            PyErr_SetString(PyExc_TypeError, "new_full() missing required argument 'fill_value'");
            return NULL;
        }
        if (py_float_arg(args[1], "fill_value", &fill) < 0) return NULL;
        nshape = 1;
    }
    nn_dtype dt = t->dtype;
    bool rg = false;
    PyObject *size_kw = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        PyObject *v = args[nargs + k];
        if (!s) return NULL;
        if (strcmp(s, "dtype") == 0) {
            if (py_dtype_arg(v, &dt) < 0) return NULL;
        } else if (strcmp(s, "requires_grad") == 0) {
            if (py_bool_arg(v, "requires_grad", &rg) < 0) return NULL;
        } else if (strcmp(s, "size") == 0) {
            size_kw = v;
        } else if (strcmp(s, "fill_value") == 0 && kind == 2) {
            if (py_float_arg(v, "fill_value", &fill) < 0) return NULL;
        } else if (strcmp(s, "device") == 0) {
            if (v != Py_None && py_device_check(v) < 0) return NULL;
        } else if (strcmp(s, "device") != 0 && strcmp(s, "pin_memory") != 0 &&
                   strcmp(s, "layout") != 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", name, s);
            return NULL;
        }
    }
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    if (size_kw) {
        if (py_ints_arg(size_kw, "size", shape, &nd) < 0) return NULL;
    } else if (py_shape_args(args, nshape, shape, &nd) < 0) {
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    nn_tensor *r = nn_full(ctx, dt, nd, shape, fill);
    if (r && rg && nn_tensor_requires_grad_(ctx, r, true)) {
        nn_tensor_release(r);
        r = NULL;
    }
    return py_tensor_wrap(r);
}

#define NEW_LIKE(name, kind)                                                                       \
    static PyObject *m_##name(PyObject *self, PyObject *const *args, Py_ssize_t nargs,             \
                              PyObject *kwnames) {                                                 \
        return new_like(#name, kind, self, args, nargs, kwnames);                                  \
    }
NEW_LIKE(new_zeros, 0)
NEW_LIKE(new_ones, 1)
NEW_LIKE(new_full, 2)
NEW_LIKE(new_empty, 0)
#undef NEW_LIKE

static PyObject *m_new_tensor(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE("new_tensor", 1, "data", "$dtype", "device", "requires_grad");
    nn_dtype dt = py_tensor_of(self)->dtype;
    bool rg = false;
    if (py_dtype_arg(a_[1], &dt) < 0) return NULL;
    if (a_[3] && py_bool_arg(a_[3], "requires_grad", &rg) < 0) return NULL;
    nn_tensor *t = py_tensor_from_data(a_[0], (int)dt);
    if (!t) return NULL;
    if (rg && nn_tensor_requires_grad_(ctx_(), t, true)) {
        nn_tensor_release(t);
        return py_engine_error();
    }
    return py_tensor_wrap(t);
}

/* ---- random fills (in place; self returned) ---- */

/* torch refuses to fill a leaf that requires grad while grad mode is on. */
static int fill_check(PyObject *self) {
    nn_tensor *t = py_tensor_of(self);
    if (t->requires_grad && !t->grad_fn && ctx_()->grad_enabled) {
        PyErr_SetString(PyExc_RuntimeError, "a leaf Variable that requires grad is being used in "
                                            "an in-place operation.");
        return -1;
    }
    return 0;
}

static PyObject *done_self(PyObject *self, nn_status st) {
    if (py_status(st) < 0) return NULL;
    return Py_NewRef(self);
}

/* PyTorch's refusal of a negative (or NaN) std, the number as C++ prints
 * it (-1, -0.5, nan): PyErr_Format has no %g. */
static PyObject *normal_std_error(double s) {
    char num[32];
    snprintf(num, sizeof num, "%g", s);
    PyErr_Format(PyExc_RuntimeError, "normal expects std >= 0.0, but found std %s", num);
    return NULL;
}

static PyObject *m_normal_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PARSE("normal_", 0, "mean", "std", "$generator");
    if (fill_check(self) < 0) return NULL;
    double m = 0, s = 1;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "mean", &m) < 0) ||
        (a_[1] && py_float_arg(a_[1], "std", &s) < 0) || py_ops_generator(a_[2], &g) < 0)
        return NULL;
    if (!(s >= 0)) return normal_std_error(s);
    return done_self(self, nn_tensor_normal_gen_(ctx_(), py_tensor_of(self), m, s, g));
}

static PyObject *m_uniform_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PARSE("uniform_", 0, "from", "to", "$generator");
    if (fill_check(self) < 0) return NULL;
    double lo = 0, hi = 1;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "from", &lo) < 0) ||
        (a_[1] && py_float_arg(a_[1], "to", &hi) < 0) || py_ops_generator(a_[2], &g) < 0)
        return NULL;
    return done_self(self, nn_tensor_uniform_gen_(ctx_(), py_tensor_of(self), lo, hi, g));
}

static PyObject *m_exponential_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
    PARSE("exponential_", 0, "lambd", "$generator");
    if (fill_check(self) < 0) return NULL;
    double l = 1;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "lambd", &l) < 0) || py_ops_generator(a_[1], &g) < 0)
        return NULL;
    if (!(l >= 0)) {
        char msg[96]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "exponential_ expects lambda >= 0.0, but found lambda=%g", l);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    /* lambda 0: every draw is -log(u) / 0, infinite, as torch's */
    if (l == 0) return done_self(self, nn_tensor_fill_(ctx_(), py_tensor_of(self), INFINITY));
    return done_self(self, nn_tensor_exponential_(ctx_(), py_tensor_of(self), l, g));
}

static PyObject *m_bernoulli_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE("bernoulli_", 0, "p", "$generator");
    if (fill_check(self) < 0) return NULL;
    double p = 0.5;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "p", &p) < 0) || py_ops_generator(a_[1], &g) < 0) return NULL;
    if (!(p >= 0 && p <= 1)) {
        char msg[96]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    return done_self(self, nn_tensor_bernoulli_(ctx_(), py_tensor_of(self), p, g));
}

static int dist_dtype_check(nn_tensor *t, const char *kernel, bool ints_too) {
    if (nn_dtype_is_float(t->dtype) || (ints_too && t->dtype != NN_BOOL)) return 0;
    PyErr_Format(PyExc_RuntimeError, "\"%s\" not implemented for '%s'", kernel,
                 nn_dtype_scalar_name(t->dtype));
    return -1;
}

/* cauchy_(median=0, sigma=1, *, generator=None) */
static PyObject *m_cauchy_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PARSE("cauchy_", 0, "median", "sigma", "$generator");
    if (fill_check(self) < 0 || dist_dtype_check(py_tensor_of(self), "cauchy_cpu", false) < 0)
        return NULL;
    double med = 0, sig = 1;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "median", &med) < 0) ||
        (a_[1] && py_float_arg(a_[1], "sigma", &sig) < 0) || py_ops_generator(a_[2], &g) < 0)
        return NULL;
    return done_self(self, nn_tensor_cauchy_(ctx_(), py_tensor_of(self), med, sig, g));
}

/* log_normal_(mean=1, std=2, *, generator=None) */
static PyObject *m_log_normal_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames) {
    PARSE("log_normal_", 0, "mean", "std", "$generator");
    if (fill_check(self) < 0) return NULL;
    double mean = 1, sd = 2;
    nn_rng *g;
    if ((a_[0] && py_float_arg(a_[0], "mean", &mean) < 0) ||
        (a_[1] && py_float_arg(a_[1], "std", &sd) < 0) || py_ops_generator(a_[2], &g) < 0)
        return NULL;
    if (!(sd > 0)) {
        char msg[96]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "log_normal_ expects std > 0.0, but found std=%g", sd);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    if (dist_dtype_check(py_tensor_of(self), "log_normal_cpu", false) < 0) return NULL;
    return done_self(self, nn_tensor_log_normal_(ctx_(), py_tensor_of(self), mean, sd, g));
}

/* geometric_(p, *, generator=None) */
static PyObject *m_geometric_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE("geometric_", 1, "p", "$generator");
    if (fill_check(self) < 0) return NULL;
    double p;
    nn_rng *g;
    if (py_float_arg(a_[0], "p", &p) < 0 || py_ops_generator(a_[1], &g) < 0) return NULL;
    if (!(p > 0 && p < 1)) {
        char msg[96]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "geometric_ expects p to be in (0, 1), but got p=%g", p);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    if (dist_dtype_check(py_tensor_of(self), "geometric_cpu", true) < 0) return NULL;
    return done_self(self, nn_tensor_geometric_(ctx_(), py_tensor_of(self), p, g));
}

/* _poisson(rates, generator): torch.poisson's sampler (python/torch/_random.py
 * checks the arguments and adds the zero gradient) */
static PyObject *f_poisson(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    (void)m;
    PARSE("_poisson", 1, "input", "generator");
    nn_tensor *t;
    nn_rng *g;
    if (py_tensor_arg(a_[0], "poisson", "input", &t) < 0 || py_ops_generator(a_[1], &g) < 0 ||
        dist_dtype_check(t, "poisson_cpu", false) < 0)
        return NULL;
    if (t->dtype == NN_FLOAT16) { /* torch 1.13 has float, double and bfloat16 */
        PyErr_SetString(PyExc_RuntimeError, "\"poisson_cpu\" not implemented for 'Half'");
        return NULL;
    }
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++)
        if (!(nn_tensor_get_flat(t, i) >= 0)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "invalid Poisson rate, expected rate to be non-negative");
            return NULL;
        }
    return py_tensor_wrap(nn_poisson(ctx_(), t, g));
}

/* _binomial(count, prob, generator): count and prob of one shape */
static PyObject *f_binomial(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    (void)m;
    PARSE("_binomial", 2, "count", "prob", "generator");
    nn_tensor *c, *p;
    nn_rng *g;
    if (py_tensor_arg(a_[0], "binomial", "count", &c) < 0 ||
        py_tensor_arg(a_[1], "binomial", "prob", &p) < 0 || py_ops_generator(a_[2], &g) < 0 ||
        dist_dtype_check(c, "binomial_cpu", false) < 0)
        return NULL;
    if (nn_dtype_is_narrow(c->dtype)) { /* torch 1.13 has float and double only */
        PyErr_Format(PyExc_RuntimeError, "\"binomial_cpu\" not implemented for '%s'",
                     nn_dtype_scalar_name(c->dtype));
        return NULL;
    }
    if (p->dtype != c->dtype) {
        PyErr_Format(PyExc_RuntimeError, "Found dtype %s but expected %s",
                     nn_dtype_scalar_name(p->dtype), nn_dtype_scalar_name(c->dtype));
        return NULL;
    }
    return py_tensor_wrap(nn_binomial(ctx_(), c, p, g));
}

/* random_(to) or random_(from, to): integers in [from, to) */
static PyObject *m_random_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PARSE("random_", 0, "from", "to", "$generator");
    if (fill_check(self) < 0) return NULL;
    int64_t lo = 0, hi;
    nn_rng *g;
    if (py_ops_generator(a_[2], &g) < 0) return NULL;
    nn_tensor *t = py_tensor_of(self);
    if (!a_[0] && !a_[1]) {
        /* [0, 2^mantissa] for floats, the dtype's range for ints */
        hi = t->dtype == NN_FLOAT32   ? (1LL << 24) + 1
             : t->dtype == NN_FLOAT64 ? (1LL << 53) + 1
             : t->dtype == NN_INT64   ? INT64_MAX
             : t->dtype == NN_BOOL    ? 2
             : t->dtype == NN_UINT8   ? 256
             : t->dtype == NN_INT8    ? 128
             : t->dtype == NN_INT16   ? 32768
             : t->dtype == NN_INT32   ? 2147483648LL
                                      : (1LL << 11) + 1;
    } else if (!py_given(a_[1])) {
        if (py_int_arg(a_[0], "to", &hi) < 0) return NULL;
    } else {
        if (py_int_arg(a_[0], "from", &lo) < 0 || py_int_arg(a_[1], "to", &hi) < 0) return NULL;
    }
    if (lo >= hi) {
        PyErr_Format(PyExc_RuntimeError,
                     "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                     (long long)lo, (long long)hi);
        return NULL;
    }
    return done_self(self, nn_tensor_random_(ctx_(), t, lo, hi, g));
}

/* ---- random draws ---- */

PY_OP(multinomial)
static PyObject *multinomial_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("multinomial", 2, "input", "num_samples", "replacement", "$generator", "out");
    nn_tensor *p;
    int64_t n;
    bool repl = false;
    nn_rng *g;
    if (py_tensor_arg(a_[0], "multinomial", "input", &p) < 0 ||
        py_int_arg(a_[1], "num_samples", &n) < 0 ||
        (a_[2] && py_bool_arg(a_[2], "replacement", &repl) < 0) || py_ops_generator(a_[3], &g) < 0)
        return NULL;
    return py_tensor_wrap(nn_multinomial(ctx_(), p, n, repl, g));
}

/* bernoulli(input, p=None, *, generator=None): draws with probabilities
 * input, or fills input's shape with probability p */
PY_OP(bernoulli)
static PyObject *bernoulli_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("bernoulli", 1, "input", "p", "$generator", "out");
    nn_tensor *t;
    double p = 0;
    nn_rng *g;
    if (py_tensor_arg(a_[0], "bernoulli", "input", &t) < 0 ||
        (py_given(a_[1]) && py_float_arg(a_[1], "p", &p) < 0) || py_ops_generator(a_[2], &g) < 0)
        return NULL;
    nn_ctx *ctx = ctx_();
    int64_t np = nn_tensor_numel(t);
    for (int64_t i = 0; !py_given(a_[1]) && nn_dtype_is_float(t->dtype) && i < np; i++) {
        double v = nn_tensor_get_flat(t, i);
        if (!(v >= 0 && v <= 1)) {
            PyErr_SetString(PyExc_RuntimeError,
                            "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                            "this error message be improved?  If so, please report an enhancement "
                            "request to PyTorch.)");
            return NULL;
        }
    }
    if (py_given(a_[1]) && !(p >= 0 && p <= 1)) {
        char msg[96]; /* PyErr_Format has no %g */
        snprintf(msg, sizeof msg, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
        PyErr_SetString(PyExc_RuntimeError, msg);
        return NULL;
    }
    if (!py_given(a_[1])) return py_tensor_wrap(nn_bernoulli(ctx, t, g));
    nn_tensor *r = nn_tensor_empty(ctx, t->dtype, t->ndim, t->shape);
    if (r && nn_tensor_bernoulli_(ctx, r, p, g)) {
        nn_tensor_release(r);
        r = NULL;
    }
    return py_tensor_wrap(r);
}

/* normal(mean, std, size=None, *, generator=None): numbers with a size, or
 * tensors (broadcast): N(0, 1) draws scaled by std and moved by mean */
static PyObject *f_normal(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    PARSE("normal", 2, "mean", "std", "size", "$generator", "out", "dtype", "device",
          "requires_grad");
    nn_rng *g;
    if (py_ops_generator(a_[3], &g) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (!py_tensor_check(a_[0]) && !py_tensor_check(a_[1])) {
        double mean, sd;
        int64_t shape[NN_MAX_DIMS];
        int nd;
        nn_dtype dt = py_default_dtype();
        if (py_float_arg(a_[0], "mean", &mean) < 0 || py_float_arg(a_[1], "std", &sd) < 0)
            return NULL;
        if (!py_given(a_[2])) {
            PyErr_SetString(PyExc_TypeError,
                            "normal() received an invalid combination of arguments - got "
                            "(float, float), but expected one of: (Tensor mean, Tensor std, *, "
                            "torch.Generator generator), (float mean, float std, tuple of ints "
                            "size, *, torch.Generator generator)");
            return NULL;
        }
        bool rg = false;
        if (py_ints_arg(a_[2], "size", shape, &nd) < 0 || py_dtype_arg(a_[5], &dt) < 0 ||
            (py_given(a_[7]) && py_bool_arg(a_[7], "requires_grad", &rg) < 0))
            return NULL;
        if (!nn_dtype_is_float(dt))
            return PyErr_Format(PyExc_RuntimeError,
                                "\"normal_kernel_cpu\" not implemented for '%s'",
                                nn_dtype_scalar_name(dt));
        nn_tensor *r = nn_tensor_empty(ctx, dt, nd, shape);
        /* requires_grad=True: d2l's w = torch.normal(0, 0.01, size=(2, 1),
         * requires_grad=True) is a leaf to train */
        if (r && (nn_tensor_normal_gen_(ctx, r, mean, sd, g) ||
                  (rg && nn_tensor_requires_grad_(ctx, r, true)))) {
            nn_tensor_release(r);
            return py_engine_error();
        }
        return py_tensor_wrap(r);
    }
    nn_tensor *mt, *st;
    double sd;
    if (!py_tensor_check(a_[1]) && py_float_arg(a_[1], "std", &sd) == 0 && !(sd >= 0))
        return normal_std_error(sd);
    PyErr_Clear();
    if (py_operand(a_[0], "normal", "mean", &mt) < 0) return NULL;
    if (py_operand(a_[1], "normal", "std", &st) < 0) {
        nn_tensor_release(mt);
        return NULL;
    }
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *shape_of = nn_add(ctx, mt, st);
    nn_ctx_set_grad(ctx, prev);
    /* a tensor std: every element >= 0 (NaN fails), as PyTorch checks */
    bool bad = false;
    if (shape_of && py_tensor_check(a_[1]) && nn_dtype_is_float(st->dtype))
        for (int64_t i = 0, n = nn_tensor_numel(st); i < n && !bad; i++)
            bad = !(nn_tensor_get_flat(st, i) >= 0);
    if (bad) {
        nn_tensor *tmp[] = {mt, st, shape_of};
        py_ops_release(tmp, 3);
        PyErr_SetString(PyExc_RuntimeError, "normal expects all elements of std >= 0.0");
        return NULL;
    }
    nn_tensor *z =
        shape_of ? nn_tensor_empty(ctx, shape_of->dtype, shape_of->ndim, shape_of->shape) : NULL;
    nn_tensor *r = NULL;
    if (z && !nn_tensor_normal_gen_(ctx, z, 0, 1, g)) {
        nn_tensor *s = nn_mul(ctx, z, st);
        r = s ? nn_add(ctx, s, mt) : NULL;
        nn_tensor_release(s);
    }
    nn_tensor *tmp[] = {mt, st, shape_of, z};
    py_ops_release(tmp, 4);
    return py_tensor_wrap(r);
}

/* ---- counting ---- */

PY_OP(one_hot)
static PyObject *one_hot_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("one_hot", 1, "tensor", "num_classes");
    nn_tensor *t;
    int64_t nc = -1;
    if (py_tensor_arg(a_[0], "one_hot", "tensor", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "num_classes", &nc) < 0) return NULL;
    return py_tensor_wrap(nn_one_hot(ctx_(), t, nc));
}

PY_OP(bincount)
static PyObject *bincount_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("bincount", 1, "input", "weights", "minlength");
    nn_tensor *t, *w = NULL;
    int64_t ml = 0;
    if (py_tensor_arg(a_[0], "bincount", "input", &t) < 0) return NULL;
    if (py_given(a_[1]) && py_tensor_arg(a_[1], "bincount", "weights", &w) < 0) return NULL;
    if (a_[2] && py_int_arg(a_[2], "minlength", &ml) < 0) return NULL;
    return py_tensor_wrap(nn_bincount(ctx_(), t, w, ml));
}

PY_OP(histc)
static PyObject *histc_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("histc", 1, "input", "bins", "min", "max", "$out");
    nn_tensor *t;
    int64_t bins = 100;
    double lo = 0, hi = 0;
    if (py_tensor_arg(a_[0], "histc", "input", &t) < 0) return NULL;
    if ((a_[1] && py_int_arg(a_[1], "bins", &bins) < 0) ||
        (a_[2] && py_float_arg(a_[2], "min", &lo) < 0) ||
        (a_[3] && py_float_arg(a_[3], "max", &hi) < 0))
        return NULL;
    return py_tensor_wrap(nn_histc(ctx_(), t, bins, lo, hi));
}

/* ---- tables ---- */

#define FAST(name, fn)                                                                             \
    { name, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, NULL }

PyMethodDef py_ops_create_functions[] = {
    PY_FN_ENTRY("multinomial", multinomial, NULL),
    PY_FN_ENTRY("bernoulli", bernoulli, NULL),
    PY_FN_ENTRY("one_hot", one_hot, NULL),
    PY_FN_ENTRY("bincount", bincount, NULL),
    PY_FN_ENTRY("histc", histc, NULL),
    FAST("normal", f_normal),
    FAST("_poisson", f_poisson),
    FAST("_binomial", f_binomial),
    {NULL, NULL, 0, NULL},
};

PyMethodDef py_ops_create_methods[] = {
    FAST("to", m_to),
    FAST("float", m_float),
    FAST("double", m_double),
    FAST("long", m_long),
    FAST("int", m_int),
    FAST("short", m_short),
    FAST("char", m_char),
    FAST("byte", m_byte),
    FAST("bool", m_bool),
    FAST("half", m_half),
    FAST("bfloat16", m_bfloat16),
    {"type_as", m_type_as, METH_O, "type_as(other): self in other's dtype"},
    FAST("new_zeros", m_new_zeros),
    FAST("new_ones", m_new_ones),
    FAST("new_full", m_new_full),
    FAST("new_empty", m_new_empty),
    FAST("new_tensor", m_new_tensor),
    FAST("normal_", m_normal_),
    FAST("uniform_", m_uniform_),
    FAST("exponential_", m_exponential_),
    FAST("bernoulli_", m_bernoulli_),
    FAST("random_", m_random_),
    FAST("cauchy_", m_cauchy_),
    FAST("log_normal_", m_log_normal_),
    FAST("geometric_", m_geometric_),
    PY_METH_ENTRY("multinomial", multinomial, NULL),
    PY_METH_ENTRY("bernoulli", bernoulli, NULL),
    PY_METH_ENTRY("bincount", bincount, NULL),
    PY_METH_ENTRY("histc", histc, NULL),
    {NULL, NULL, 0, NULL},
};
