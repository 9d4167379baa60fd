/* py_args: argument parsing for the torch extension's functions: vectorcall
 * keyword matching, and conversion of Python values into engine operands,
 * ints, shapes, dims and dtypes. See py.h for the conventions. */
#include <math.h>
#include <string.h>

#include "py.h"

/* The op whose arguments py_parse matched last (its name and argument
 * names) and whether it was called as a Tensor method, so that a wrong
 * argument's message gives its position as PyTorch's does: counted from 1
 * among a function's arguments, from 1 after self for a method
 * (py_tensor_arg_any). The GIL keeps one op parsing at a time; an op that
 * calls another before checking its own arguments finds the other's table
 * and its name differing, and says position 1, as before. */
static const char *parsed_fname;
static const char *const *parsed_names;
static bool parsed_method, calling_method;

int py_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             const char *const *names, int n_required, PyObject **out) {
    parsed_fname = fname;
    parsed_names = names;
    parsed_method = calling_method;
    calling_method = false;
    int n_names = 0, n_positional = -1;
    for (; names[n_names]; n_names++)
        if (names[n_names][0] == '$' && n_positional < 0) n_positional = n_names;
    if (n_positional < 0) n_positional = n_names;
    for (int i = 0; i < n_names; i++) out[i] = NULL;
    if (nargs > n_positional) {
        PyErr_Format(PyExc_TypeError, "%s() takes %d positional argument%s but %zd were given",
                     fname, n_positional, n_positional == 1 ? "" : "s", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) out[i] = args[i];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        const char *s = PyUnicode_AsUTF8(key);
        if (!s) return -1;
        int found = -1;
        for (int i = 0; i < n_names; i++) {
            const char *nm = names[i][0] == '$' ? names[i] + 1 : names[i];
            if (strcmp(nm, s) == 0) {
                found = i;
                break;
            }
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%s'", fname, s);
            return -1;
        }
        if (out[found]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, s);
            return -1;
        }
        out[found] = args[nargs + k];
    }
    for (int i = 0; i < n_required; i++)
        if (!out[i]) {
            const char *nm = names[i][0] == '$' ? names[i] + 1 : names[i];
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", fname, nm,
                         i + 1);
            return -1;
        }
    /* device=: the engine is the CPU; anything else fails as a CPU-only
     * PyTorch fails, rather than quietly making a CPU tensor. */
    for (int i = 0; i < n_names; i++) {
        const char *nm = names[i][0] == '$' ? names[i] + 1 : names[i];
        if (out[i] && out[i] != Py_None && nm[0] == 'd' && !strcmp(nm, "device") &&
            py_device_check(out[i]))
            return -1;
    }
    return 0;
}

/* [s] names device type [type] ("cuda", "cuda:1") */
static bool device_is(const char *s, const char *type) {
    size_t n = strlen(type);
    return !strncmp(s, type, n) && (s[n] == 0 || s[n] == ':');
}

int py_device_check(PyObject *dev) {
    PyObject *type = NULL;
    if (PyUnicode_Check(dev)) {
        type = Py_NewRef(dev);
    } else if (PyLong_Check(dev)) {
        type = PyUnicode_FromString("cuda"); /* an index names a CUDA device */
    } else {
        type = PyObject_GetAttrString(dev, "type");
        if (!type) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "expected a torch.device, a string or None for device, "
                         "not %s",
                         Py_TYPE(dev)->tp_name);
            return -1;
        }
    }
    const char *s = PyUnicode_Check(type) ? PyUnicode_AsUTF8(type) : NULL;
    int rc = 0;
    if (!s) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "device type must be a string");
        rc = -1;
    } else if (device_is(s, "cpu")) {
        rc = 0;
    } else if (device_is(s, "meta")) {
        /* PyTorch's meta tensors have a shape and no data; nndb has none
         * rather than a CPU tensor that says cpu (docs/language-tensors.md) */
        PyErr_SetString(PyExc_NotImplementedError, PY_META_REFUSAL);
        rc = -1;
    } else if (device_is(s, "cuda")) {
        PyErr_SetString(PyExc_AssertionError, "Torch not compiled with CUDA enabled");
        rc = -1;
    } else {
        static const char *const known[] = {
            "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip",           "ve", "fpga",
            "ort", "xla", "lazy",   "vulkan", "mps",    "hpu",   "privateuseone", NULL};
        bool is_known = false;
        for (int i = 0; known[i]; i++) is_known |= device_is(s, known[i]);
        if (is_known)
            PyErr_Format(PyExc_RuntimeError,
                         "nndb runs on the CPU: device '%s' is not available (use 'cpu')", s);
        else
            PyErr_Format(PyExc_RuntimeError,
                         "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, "
                         "hip, ve, fpga, ort, xla, lazy, vulkan, mps, meta, hpu, privateuseone "
                         "device type at start of device string: %s",
                         s);
        rc = -1;
    }
    Py_DECREF(type);
    return rc;
}

PyObject *py_call_method(py_impl_fn impl, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PyObject *stack[24];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw + 1 > (Py_ssize_t)(sizeof stack / sizeof stack[0])) {
        PyErr_SetString(PyExc_TypeError, "too many arguments");
        return NULL;
    }
    stack[0] = self;
    for (Py_ssize_t i = 0; i < nargs + nkw; i++) stack[i + 1] = args[i];
    calling_method = true;
    PyObject *r = impl(stack, nargs + 1, kwnames);
    calling_method = false;
    return r;
}

int py_method_refuse_out(const char *name, PyObject *kwnames) {
    /* interned, as a call's keyword names almost always are: an interned
     * name is "out" only if it is this object, so only a name made at run
     * time is compared as text */
    static PyObject *out;
    if (!out && !(out = PyUnicode_InternFromString("out"))) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (k != out && (PyUnicode_CHECK_INTERNED(k) || PyUnicode_CompareWithASCIIString(k, "out")))
            continue;
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", name);
        return -1;
    }
    return 0;
}

static const char *type_name(PyObject *o) {
    return Py_TYPE(o)->tp_name;
}

int py_arg_position(const char *fname, const char *what, int fallback) {
    if (!parsed_names || !parsed_fname || strcmp(parsed_fname, fname) != 0) return fallback;
    for (int i = 0; parsed_names[i]; i++) {
        const char *nm = parsed_names[i][0] == '$' ? parsed_names[i] + 1 : parsed_names[i];
        if (strcmp(nm, what) == 0) return parsed_method ? (i > 0 ? i : 1) : i + 1;
    }
    return fallback;
}

int py_tensor_arg_any(PyObject *o, const char *fname, const char *what, nn_tensor **out) {
    *out = py_tensor_of(o);
    if (*out) return 0;
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' (position %d) must be Tensor, not %s", fname,
                 what, py_arg_position(fname, what, 1), type_name(o));
    return -1;
}

int py_tensor_arg(PyObject *o, const char *fname, const char *what, nn_tensor **out) {
    if (py_tensor_arg_any(o, fname, what, out) < 0) return -1;
    return py_status(nn_tensor_check_storage(py_ctx(), *out));
}

int py_operand(PyObject *o, const char *fname, const char *what, nn_tensor **out) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = py_tensor_of(o);
    if (t) {
        if (nn_tensor_check_storage(ctx, t)) return py_status(ctx->err.code);
        *out = nn_tensor_retain(t);
        return 0;
    }
    if (PyBool_Check(o)) {
        *out = nn_scalar(ctx, o == Py_True, NN_BOOL);
        if (*out) (*out)->is_wrapped_number = true;
        return *out ? 0 : (py_engine_error(), -1);
    }
    if (PyLong_CheckExact(o) || PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_Format(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
        *out = nn_scalar_wrapped_int(ctx, v);
        return *out ? 0 : (py_engine_error(), -1);
    }
    if (PyFloat_Check(o)) {
        *out = nn_scalar_wrapped(ctx, PyFloat_AS_DOUBLE(o));
        return *out ? 0 : (py_engine_error(), -1);
    }
    if (PyList_Check(o) || PyTuple_Check(o) || PyObject_CheckBuffer(o)) {
        *out = py_tensor_from_data(o, -1);
        return *out ? 0 : -1;
    }
    if (PyComplex_Check(o)) { /* a wrapped complex128 scalar */
        *out = nn_tensor_empty(ctx, NN_COMPLEX128, 0, NULL);
        if (!*out) return py_engine_error(), -1;
        ((double *)nn_tensor_data(*out))[0] = PyComplex_RealAsDouble(o);
        ((double *)nn_tensor_data(*out))[1] = PyComplex_ImagAsDouble(o);
        (*out)->is_wrapped_number = true;
        return 0;
    }
    if (PyNumber_Check(o) && !PyComplex_Check(o)) {
        double d = PyFloat_AsDouble(o);
        if (d == -1 && PyErr_Occurred()) return -1;
        *out = nn_scalar_wrapped(ctx, d);
        return *out ? 0 : (py_engine_error(), -1);
    }
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor, not %s", fname, what,
                 type_name(o));
    return -1;
}

int py_int_arg(PyObject *o, const char *what, int64_t *out) {
    nn_tensor *t = py_tensor_of(o);
    if (t) {
        if (nn_tensor_check_storage(py_ctx(), t)) return py_status(py_ctx()->err.code);
        if (nn_tensor_numel(t) == 1 && (nn_dtype_is_int(t->dtype) || t->dtype == NN_BOOL)) {
            *out = nn_tensor_get_flat_int(t, 0);
            return 0;
        }
        PyErr_Format(PyExc_TypeError, "%s must be an int, not a Tensor of %lld elements", what,
                     (long long)nn_tensor_numel(t));
        return -1;
    }
    if (PyFloat_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be int, not float", what);
        return -1;
    }
    PyObject *idx = PyNumber_Index(o);
    if (!idx) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be int, not %s", what, type_name(o));
        return -1;
    }
    long long v = PyLong_AsLongLong(idx);
    Py_DECREF(idx);
    if (v == -1 && PyErr_Occurred()) return -1;
    *out = v;
    return 0;
}

int py_float_arg(PyObject *o, const char *what, double *out) {
    nn_tensor *t = py_tensor_of(o);
    if (t) {
        if (nn_tensor_check_storage(py_ctx(), t)) return py_status(py_ctx()->err.code);
        if (nn_tensor_numel(t) == 1) {
            *out = nn_tensor_get_flat(t, 0);
            return 0;
        }
        PyErr_Format(PyExc_TypeError, "%s must be a number, not a Tensor of %lld elements", what,
                     (long long)nn_tensor_numel(t));
        return -1;
    }
    double d = PyFloat_AsDouble(o);
    if (d == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be a number, not %s", what, type_name(o));
        return -1;
    }
    *out = d;
    return 0;
}

int py_bool_arg(PyObject *o, const char *what, bool *out) {
    int r = PyObject_IsTrue(o);
    if (r < 0) return -1;
    (void)what;
    *out = r;
    return 0;
}

int py_ints_arg(PyObject *o, const char *what, int64_t *out, int *n) {
    /* one int: also what __index__ makes one (numpy.int64), but not an
     * array, whose elements are the sizes */
    if (PyLong_Check(o) || py_tensor_of(o) || (PyIndex_Check(o) && !PySequence_Check(o))) {
        *n = 1;
        return py_int_arg(o, what, out);
    }
    PyObject *seq = PySequence_Fast(o, "");
    if (!seq) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of ints, not %s", what,
                     type_name(o));
        return -1;
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    if (k > NN_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: at most %d dims are supported, got %zd", what,
                     NN_MAX_DIMS, k);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++)
        if (py_int_arg(PySequence_Fast_GET_ITEM(seq, i), what, &out[i]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *n = (int)k;
    return 0;
}

/* ---- PyTorch's refusal of a call that fits no signature ----
 *
 * PyTorch 1.13's torch/csrc/utils/invalid_arguments.cpp, for signatures
 * written in the plain form "(Tensor input, int dim, bool keepdim, *,
 * Tensor out)": each comma-separated item counts as one argument ("*" too,
 * and "()" holds one empty item), a signature whose count equals the
 * call's gets a "didn't match because" line, and an argument's type
 * matches by its type's tp_name ("int" also "long", "float" also "int"
 * and "long"). The keywords come in the order libstdc++'s unordered_map
 * gives a few distinct names: the reverse of the call's. */

typedef struct {
    char s[2048];
    size_t n;
} msg_buf;

static void msg_add(msg_buf *m, const char *s, size_t len) {
    if (len > sizeof m->s - 1 - m->n) len = sizeof m->s - 1 - m->n;
    memcpy(m->s + m->n, s, len);
    m->n += len;
    m->s[m->n] = 0;
}

static void msg_put(msg_buf *m, const char *s) {
    msg_add(m, s, strlen(s));
}

/* The items of [sig] ("(a b, c d)" without its parentheses). */
static int sig_items(const char *sig, const char **item, size_t *len, int cap) {
    const char *p = sig + 1, *end = sig + strlen(sig) - 1;
    int n = 0;
    while (n < cap) {
        const char *comma = strstr(p, ", ");
        const char *stop = comma && comma < end ? comma : end;
        item[n] = p;
        len[n++] = (size_t)(stop - p);
        if (stop == end) break;
        p = stop + 2;
    }
    return n;
}

/* The name of [item] ("dim" of "int dim"; the whole of "*"), its length
 * in [*nl]. */
static const char *item_name(const char *item, size_t len, size_t *nl) {
    const char *sp = item + len;
    while (sp > item && sp[-1] != ' ') sp--;
    *nl = (size_t)(item + len - sp);
    return sp;
}

/* Whether [o] fits the type of [item] ("int dim"). */
static bool item_fits(const char *item, size_t len, PyObject *o) {
    size_t nl;
    const char *name = item_name(item, len, &nl);
    if (name == item) return false; /* "*" or the empty item of "()" */
    size_t tl = (size_t)(name - 1 - item);
    const char *tn = type_name(o);
    bool integer = strcmp(tn, "int") == 0 || strcmp(tn, "long") == 0;
    if (tl == 3 && strncmp(item, "int", 3) == 0) return integer;
    if (tl == 5 && strncmp(item, "float", 5) == 0) return integer || strcmp(tn, "float") == 0;
    return strlen(tn) == tl && strncmp(item, tn, tl) == 0;
}

static bool name_is(const char *name, size_t nl, const char *s) {
    return strlen(s) == nl && strncmp(name, s, nl) == 0;
}

int py_invalid_args(const char *fname, const char *const *sigs, int nsigs, PyObject *const *args,
                    Py_ssize_t nargs, PyObject *kwnames) {
    enum { CAP = 16 };
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    const char *kw[CAP];
    PyObject *kv[CAP];
    if (nargs + nkw > CAP) {
        PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments", fname);
        return -1;
    }
    for (Py_ssize_t k = 0; k < nkw; k++) { /* libstdc++'s order: the reverse */
        kw[k] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, nkw - 1 - k));
        kv[k] = args[nargs + nkw - 1 - k];
        if (!kw[k]) return -1;
    }
    msg_buf m = {.n = 0};
    msg_put(&m, fname);
    msg_put(&m, "() received an invalid combination of arguments - got (");
    for (Py_ssize_t i = 0; i < nargs; i++) {
        msg_put(&m, type_name(args[i]));
        msg_put(&m, ", ");
    }
    for (Py_ssize_t k = 0; k < nkw; k++) {
        msg_put(&m, kw[k]);
        msg_put(&m, "=");
        msg_put(&m, type_name(kv[k]));
        msg_put(&m, ", ");
    }
    if (nargs) m.n -= 2; /* PyTorch trims only after positional arguments */
    m.s[m.n] = 0;
    msg_put(&m, "), but expected one of:\n");
    for (int s = 0; s < nsigs; s++) {
        const char *item[CAP];
        size_t len[CAP];
        int n = sig_items(sigs[s], item, len, CAP);
        msg_put(&m, " * ");
        msg_put(&m, sigs[s]);
        msg_put(&m, "\n");
        if (n != nargs + nkw) continue;
        bool bad_kw = false;
        for (Py_ssize_t k = 0; k < nkw; k++) {
            bool found = false; /* among the last nkw items */
            for (int i = n - (int)nkw < 0 ? 0 : n - (int)nkw; i < n && !found; i++) {
                size_t nl;
                const char *name = item_name(item[i], len[i], &nl);
                found = name_is(name, nl, kw[k]);
            }
            if (!found) {
                msg_put(&m, bad_kw ? ", "
                                   : "      didn't match because some of the keywords "
                                     "were incorrect: ");
                msg_put(&m, kw[k]);
                bad_kw = true;
            }
        }
        if (bad_kw) {
            msg_put(&m, "\n");
            continue;
        }
        msg_put(&m, "      didn't match because some of the arguments have invalid types: (");
        for (Py_ssize_t i = 0; i < nargs + nkw; i++) {
            /* a keyword is looked up by the name of the item at its place */
            size_t nl;
            const char *name = item_name(item[i], len[i], &nl);
            PyObject *o = i < nargs ? args[i] : NULL;
            for (Py_ssize_t k = 0; k < nkw && !o; k++)
                if (name_is(name, nl, kw[k])) o = kv[k];
            if (!o) continue;
            bool fits = item_fits(item[i], len[i], o);
            if (!fits) msg_put(&m, "!");
            if (i >= nargs) {
                msg_add(&m, name, nl);
                msg_put(&m, "=");
            }
            msg_put(&m, type_name(o));
            msg_put(&m, fits ? ", " : "!, ");
        }
        if (nargs) m.n -= 2;
        m.s[m.n] = 0;
        msg_put(&m, ")\n");
    }
    PyErr_SetString(PyExc_TypeError, m.s);
    return -1;
}

int py_shape_args(PyObject *const *args, Py_ssize_t nargs, int64_t *shape, int *ndim) {
    if (nargs == 1 && !PyLong_Check(args[0])) return py_ints_arg(args[0], "size", shape, ndim);
    if (nargs > NN_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "at most %d dims are supported, got %zd", NN_MAX_DIMS,
                     nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++)
        if (py_int_arg(args[i], "size", &shape[i]) < 0) return -1;
    *ndim = (int)nargs;
    for (int i = 0; i < *ndim; i++)
        if (shape[i] < 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "Trying to create tensor with negative dimension %lld: [%lld]",
                         (long long)shape[i], (long long)shape[i]);
            return -1;
        }
    return 0;
}

int py_memory_format_arg(const char *fname, PyObject *o, const nn_tensor *t,
                         nn_memory_format *out) {
    if (!o || o == Py_None) return 0;
    /* torch.memory_format lives in python/torch/_memory_format.py; its
     * _name tells the four apart without importing the module here */
    PyObject *name = PyObject_GetAttrString(o, "_name");
    const char *s = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    int rank = 0;
    if (!s) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument 'memory_format' must be torch.memory_format, not %s", fname,
                     Py_TYPE(o)->tp_name);
    } else if (strcmp(s, "preserve_format") == 0) {
        *out = NN_FORMAT_PRESERVE;
    } else if (strcmp(s, "contiguous_format") == 0) {
        *out = NN_FORMAT_CONTIGUOUS;
    } else if (strcmp(s, "channels_last") == 0) {
        *out = NN_FORMAT_CHANNELS_LAST;
        rank = 4;
    } else {
        *out = NN_FORMAT_CHANNELS_LAST_3D;
        rank = 5;
    }
    int rc = s ? 0 : -1;
    if (s && rank && t && t->ndim != rank) {
        PyErr_Format(PyExc_RuntimeError, "required rank %d tensor to use %s format", rank, s);
        rc = -1;
    }
    Py_XDECREF(name);
    return rc;
}

int py_dtype_arg(PyObject *o, nn_dtype *out) {
    if (!o || o == Py_None) return 0;
    if (Py_TYPE(o) == &py_dtype_type) {
        for (int d = 0; d < NN_DTYPE_COUNT; d++)
            if (py_dtype_object((nn_dtype)d) == o) {
                *out = (nn_dtype)d;
                return 0;
            }
    }
    if (o == (PyObject *)&PyFloat_Type) {
        *out = NN_FLOAT64;
        return 0;
    }
    if (o == (PyObject *)&PyLong_Type) {
        *out = NN_INT64;
        return 0;
    }
    if (o == (PyObject *)&PyBool_Type) {
        *out = NN_BOOL;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "dtype must be torch.dtype, not %s", type_name(o));
    return -1;
}

/* ---- tensors from Python data ---- */

typedef struct walk {
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    bool any_float, any_int, any_bool, any_complex;
    /* an element typed float64 (a numpy.float64, a float64 tensor): PyTorch
     * infers float64 for the whole, not the default dtype */
    bool any_double;
    int64_t n, cap;
    double *d, *im; /* im: the imaginary parts (0 for real values) */
    int64_t *i;
} walk;

static int grow(walk *w) {
    if (w->n < w->cap) return 0;
    int64_t cap = w->cap ? w->cap * 2 : 64;
    double *d = PyMem_Realloc(w->d, (size_t)cap * sizeof *d);
    if (!d) return (PyErr_NoMemory(), -1);
    w->d = d;
    int64_t *i = PyMem_Realloc(w->i, (size_t)cap * sizeof *i);
    if (!i) return (PyErr_NoMemory(), -1);
    w->i = i;
    double *im = PyMem_Realloc(w->im, (size_t)cap * sizeof *im);
    if (!im) return (PyErr_NoMemory(), -1);
    w->im = im;
    w->cap = cap;
    return 0;
}

static int walk_scalar(walk *w, PyObject *o) {
    if (grow(w) < 0) return -1;
    w->im[w->n] = 0;
    nn_tensor *t = py_tensor_of(o);
    if (t) {
        if (nn_tensor_check_storage(py_ctx(), t)) return py_status(py_ctx()->err.code);
        if (nn_tensor_numel(t) != 1) {
            PyErr_SetString(PyExc_ValueError,
                            "only one element tensors can be converted to Python scalars");
            return -1;
        }
        if (nn_dtype_is_complex(t->dtype)) {
            w->any_complex = true;
            nn_tensor_get_flat_complex(t, 0, &w->d[w->n], &w->im[w->n]);
        } else if (nn_dtype_is_float(t->dtype)) {
            w->any_float = true;
            w->any_double |= t->dtype == NN_FLOAT64;
            w->d[w->n] = nn_tensor_get_flat(t, 0);
        } else {
            if (t->dtype == NN_BOOL)
                w->any_bool = true;
            else
                w->any_int = true;
            w->i[w->n] = nn_tensor_get_flat_int(t, 0);
            w->d[w->n] = (double)w->i[w->n];
        }
        w->n++;
        return 0;
    }
    if (PyBool_Check(o)) {
        w->any_bool = true;
        w->i[w->n] = o == Py_True;
        w->d[w->n] = (double)w->i[w->n];
    } else if (PyLong_Check(o)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
            return -1;
        }
        w->any_int = true;
        w->i[w->n] = v;
        w->d[w->n] = (double)v;
    } else if (PyFloat_Check(o)) {
        w->any_float = true;
        /* numpy.float64 is a subclass of float */
        if (!PyFloat_CheckExact(o) && strcmp(Py_TYPE(o)->tp_name, "numpy.float64") == 0)
            w->any_double = true;
        w->d[w->n] = PyFloat_AS_DOUBLE(o);
    } else if (PyComplex_Check(o)) {
        w->any_complex = true;
        w->d[w->n] = PyComplex_RealAsDouble(o);
        w->im[w->n] = PyComplex_ImagAsDouble(o);
    } else {
        /* numpy scalars and other numbers */
        PyObject *idx = PyNumber_Check(o) ? PyNumber_Index(o) : NULL;
        if (idx) {
            long long v = PyLong_AsLongLong(idx);
            Py_DECREF(idx);
            if (v == -1 && PyErr_Occurred()) return -1;
            w->any_int = true;
            w->i[w->n] = v;
            w->d[w->n] = (double)v;
        } else {
            PyErr_Clear();
            double d = PyNumber_Check(o) ? PyFloat_AsDouble(o) : -1;
            if (!PyNumber_Check(o) || (d == -1 && PyErr_Occurred())) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "new(): invalid data type '%s'", type_name(o));
                return -1;
            }
            w->any_float = true;
            w->d[w->n] = d;
        }
    }
    w->n++;
    return 0;
}

/* Whether [o], inside the data's lists, is a numpy array of one or more
 * dims: a sequence to walk, as PyTorch walks it (a 0-dim one is a number). */
static bool nested_ndarray(PyObject *o) {
    /* the numbers of a long list go by without the array check */
    if (PyFloat_CheckExact(o) || PyLong_CheckExact(o) || !py_is_ndarray(o)) return false;
    PyObject *nd = PyObject_GetAttrString(o, "ndim");
    long n = nd ? PyLong_AsLong(nd) : 0;
    Py_XDECREF(nd);
    PyErr_Clear();
    return n > 0;
}

static int walk_rec(walk *w, PyObject *o, int depth) {
    /* A tensor inside the lists is one number, as in PyTorch: a
     * one-element tensor of any shape gives its value, any other is
     * refused (torch.stack makes a tensor of tensors). */
    bool seq = PyList_Check(o) || PyTuple_Check(o) || nested_ndarray(o);
    if (!seq && !py_tensor_of(o) && !PyUnicode_Check(o) && !PyNumber_Check(o) &&
        PySequence_Check(o))
        seq = true;
    /* PyTorch's warning for a list whose first element is an array, once
     * a process as PyTorch gives it */
    static bool warned_arrays;
    if (depth == 1 && w->n == 0 && seq && !warned_arrays && py_is_ndarray(o)) {
        warned_arrays = true;
        if (PyErr_WarnEx(PyExc_UserWarning,
                         "Creating a tensor from a list of numpy.ndarrays is extremely slow. "
                         "Please consider converting the list to a single numpy.ndarray with "
                         "numpy.array() before converting to a tensor.",
                         1) < 0)
            return -1;
    }
    if (!seq) {
        if (depth != w->ndim && w->ndim >= 0) {
            PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %s)",
                         (long long)w->shape[depth], depth, type_name(o));
            return -1;
        }
        if (w->ndim < 0) w->ndim = depth;
        return walk_scalar(w, o);
    }
    if (depth >= NN_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "at most %d dims are supported", NN_MAX_DIMS);
        return -1;
    }
    PyObject *fast = PySequence_Fast(o, "expected a sequence");
    if (!fast) return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    if (w->ndim >= 0 && depth >= w->ndim) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "expected a number at dim %d, got a sequence", depth);
        return -1;
    }
    if (w->ndim < 0 && w->shape[depth] < 0) {
        w->shape[depth] = len;
    } else if (w->shape[depth] != len) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %d (got %zd)",
                     (long long)w->shape[depth], depth, len);
        return -1;
    }
    if (len == 0 && w->ndim < 0) w->ndim = depth + 1;
    for (Py_ssize_t k = 0; k < len; k++)
        if (walk_rec(w, PySequence_Fast_GET_ITEM(fast, k), depth + 1) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

bool py_buffer_dtype(const char *fmt, Py_ssize_t itemsize, nn_dtype *dt) {
    if (!fmt) fmt = "B";
    while (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') fmt++;
    switch (*fmt) {
    case 'f': *dt = NN_FLOAT32; return itemsize == 4;
    case 'd': *dt = NN_FLOAT64; return itemsize == 8;
    case 'e': *dt = NN_FLOAT16; return itemsize == 2;
    case 'Z': /* complex: Zf, Zd */
        *dt = fmt[1] == 'd' ? NN_COMPLEX128 : NN_COMPLEX64;
        return (fmt[1] == 'f' && itemsize == 8) || (fmt[1] == 'd' && itemsize == 16);
    case '?': *dt = NN_BOOL; return itemsize == 1;
    case 'b': *dt = NN_INT8; return true;
    case 'B': *dt = NN_UINT8; return true;
    case 'h': *dt = NN_INT16; return true;
    case 'i': *dt = NN_INT32; return itemsize == 4;
    case 'l':
    case 'q': *dt = itemsize == 8 ? NN_INT64 : NN_INT32; return itemsize == 8 || itemsize == 4;
    default: return false;
    }
}

/* Whether [o] is a numpy.ndarray (or a subclass): only when numpy is
 * already imported, since an array cannot exist otherwise. */
bool py_is_ndarray(PyObject *o) {
    static PyObject *ndarray, *name; /* numpy.ndarray, held once found */
    if (!ndarray) {
        if (!name) name = PyUnicode_InternFromString("numpy");
        PyObject *np = name ? PyImport_GetModule(name) : NULL;
        ndarray = np ? PyObject_GetAttrString(np, "ndarray") : NULL;
        Py_XDECREF(np);
        if (ndarray && !PyType_Check(ndarray)) Py_CLEAR(ndarray);
        PyErr_Clear();
        if (!ndarray) return false;
    }
    return PyObject_TypeCheck(o, (PyTypeObject *)ndarray);
}

/* PyTorch's refusal of an array dtype it has no tensor dtype for, naming
 * it as numpy does (numpy.uint16, numpy.object_). */
PyObject *py_numpy_type_error(PyObject *arr) {
    PyObject *d = PyObject_GetAttrString(arr, "dtype");
    PyObject *ty = d ? PyObject_GetAttrString(d, "type") : NULL;
    PyObject *name = ty ? PyObject_GetAttrString(ty, "__name__") : NULL;
    Py_XDECREF(d);
    Py_XDECREF(ty);
    if (!name) return NULL;
    PyErr_Format(PyExc_TypeError,
                 "can't convert np.ndarray of type numpy.%U. The only supported types are: "
                 "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                 "uint8, and bool.",
                 name);
    Py_DECREF(name);
    return NULL;
}

/* A copy of a buffer-protocol object (numpy arrays, array.array,
 * memoryview) in its own dtype; NULL with an exception, or NULL and no
 * exception when [o] has no usable buffer. */
static nn_tensor *from_buffer(PyObject *o) {
    Py_buffer view;
    if (PyObject_GetBuffer(o, &view, PyBUF_RECORDS_RO) < 0) {
        PyErr_Clear();
        return NULL;
    }
    nn_dtype dt;
    nn_tensor *r = NULL;
    bool known = view.ndim <= NN_MAX_DIMS && py_buffer_dtype(view.format, view.itemsize, &dt);
    if (!known && view.ndim <= NN_MAX_DIMS && py_is_ndarray(o)) {
        PyBuffer_Release(&view);
        py_numpy_type_error(o);
        return NULL;
    }
    if (!known) {
        PyErr_Format(PyExc_TypeError,
                     "can't convert an array of format '%s' (itemsize %zd) to a tensor: the "
                     "supported types are float64, float32, float16, int64, int32, int16, "
                     "int8, uint8, and bool",
                     view.format ? view.format : "B", view.itemsize);
        PyBuffer_Release(&view);
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    for (int d = 0; d < view.ndim; d++) shape[d] = view.shape ? view.shape[d] : view.len;
    nn_ctx *ctx = py_ctx();
    r = nn_tensor_empty(ctx, dt, view.ndim, shape);
    if (!r) {
        PyBuffer_Release(&view);
        py_engine_error();
        return NULL;
    }
    if (PyBuffer_ToContiguous(nn_tensor_data(r), &view, view.len, 'C') < 0) {
        nn_tensor_release(r);
        r = NULL;
    }
    PyBuffer_Release(&view);
    return r;
}

nn_tensor *py_tensor_from_data(PyObject *data, int dtype) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = py_tensor_of(data);
    if (t) {
        nn_tensor *c = nn_tensor_detach(ctx, t);
        nn_tensor *r = c ? nn_tensor_contiguous_raw(ctx, c) : NULL;
        if (r == c && r) {
            /* torch.tensor(t) copies */
            nn_tensor_release(r);
            r = nn_tensor_from_data(ctx, c->dtype, c->ndim, c->shape, nn_tensor_data(c));
        }
        nn_tensor_release(c);
        if (r && dtype >= 0 && (int)r->dtype != dtype) {
            nn_tensor *k = nn_tensor_cast_raw(ctx, r, (nn_dtype)dtype);
            nn_tensor_release(r);
            r = k;
        }
        if (!r) py_engine_error();
        return r;
    }
    if (!PyList_Check(data) && !PyTuple_Check(data) && PyObject_CheckBuffer(data)) {
        nn_tensor *r = from_buffer(data);
        if (!r) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "can't convert %s to a tensor", type_name(data));
            return NULL;
        }
        if (dtype >= 0 && (int)r->dtype != dtype) {
            nn_tensor *k = nn_tensor_cast_raw(ctx, r, (nn_dtype)dtype);
            nn_tensor_release(r);
            if (!k) py_engine_error();
            r = k;
        }
        return r;
    }
    walk w = {.ndim = -1};
    for (int d = 0; d < NN_MAX_DIMS; d++) w.shape[d] = -1;
    nn_tensor *r = NULL;
    if (walk_rec(&w, data, 0) < 0) goto done;
    if (w.ndim < 0) w.ndim = 0;
    for (int d = 0; d < w.ndim; d++)
        if (w.shape[d] < 0) w.shape[d] = 0;
    nn_dtype dt;
    if (w.any_complex) {
        dt = dtype >= 0 ? (nn_dtype)dtype : nn_dtype_to_complex(py_default_dtype());
        if (!nn_dtype_is_complex(dt)) {
            PyErr_Format(PyExc_RuntimeError,
                         "value cannot be converted to type %s without overflow",
                         nn_dtype_name(dt));
            goto done;
        }
        r = nn_tensor_empty(ctx, dt, w.ndim, w.shape);
        if (r)
            for (int64_t k = 0; k < w.n; k++) {
                if (dt == NN_COMPLEX64) {
                    ((float *)nn_tensor_data(r))[2 * k] = (float)w.d[k];
                    ((float *)nn_tensor_data(r))[2 * k + 1] = (float)w.im[k];
                } else {
                    ((double *)nn_tensor_data(r))[2 * k] = w.d[k];
                    ((double *)nn_tensor_data(r))[2 * k + 1] = w.im[k];
                }
            }
        if (!r) py_engine_error();
        goto done;
    }
    if (dtype >= 0)
        dt = (nn_dtype)dtype;
    else if (w.any_double)
        dt = NN_FLOAT64;
    else if (w.any_float)
        dt = py_default_dtype();
    else if (w.any_int)
        dt = NN_INT64;
    else if (w.any_bool)
        dt = NN_BOOL;
    else
        dt = py_default_dtype();
    /* torch checks each value against an integer dtype it was given. */
    if (dtype >= 0 && !nn_dtype_is_float(dt) && dt != NN_BOOL)
        for (int64_t k = 0; k < w.n; k++)
            if (!nn_dtype_value_fits(dt, w.any_float ? w.d[k] : (double)w.i[k])) {
                PyErr_Format(PyExc_RuntimeError,
                             "value cannot be converted to type %s without overflow",
                             nn_dtype_name(dt));
                goto done;
            }
    if (!nn_dtype_is_float(dt) && w.any_float == false) {
        /* exact integers */
        r = nn_tensor_empty(ctx, dt, w.ndim, w.shape);
        if (r) {
            if (dt == NN_INT64 && w.n > 0)
                memcpy(nn_tensor_data(r), w.i, (size_t)w.n * sizeof(int64_t));
            else
                for (int64_t k = 0; k < w.n; k++)
                    nn_dtype_store(dt, (char *)nn_tensor_data(r) + k * (int64_t)nn_dtype_size(dt),
                                   (double)w.i[k]);
        }
    } else {
        if (!w.any_float)
            for (int64_t k = 0; k < w.n; k++) w.d[k] = (double)w.i[k];
        else if (w.any_int || w.any_bool) {
            /* mixed: w.d holds every value already */
        }
        r = nn_tensor_from_doubles(ctx, dt, w.ndim, w.shape, w.d);
    }
    if (!r) py_engine_error();
done:
    PyMem_Free(w.d);
    PyMem_Free(w.i);
    PyMem_Free(w.im);
    return r;
}
