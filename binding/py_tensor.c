/* py_tensor: the tensor type of nndb's torch (torch._C._TensorBase): its
 * layout, lifetime, printing, number protocol, comparisons, indexing,
 * iteration, the buffer protocol and __array_interface__ (so NumPy and
 * matplotlib read tensors without a copy), the autograd attributes, and the
 * methods that are about the tensor object itself rather than math.
 * torch.Tensor is a Python subclass (python/torch/_tensor.py), as in
 * PyTorch; results are made as instances of it. */
#include <math.h>
#include <string.h>

#include "nn_graph.h"
#include "nn_intops.h"
#include "nn_random.h"
#include "py.h"
#include "py_debug.h"
#include "py_ops.h"

PyTypeObject *py_tensor_class = &py_tensor_base_type;
PyTypeObject *py_tensor_sub_seen;

void py_tensor_sub_remember(PyTypeObject *t) {
    Py_INCREF(t);
    Py_XSETREF(py_tensor_sub_seen, t);
}
nn_print_opts py_print_opts = {4, 1000, 3, 80, 0};

/* ---- lifetime ---- */

PyObject *py_tensor_wrap_as(PyTypeObject *cls, nn_tensor *r) {
    if (!r) return py_engine_error();
    py_tensor *o = (py_tensor *)cls->tp_alloc(cls, 0);
    if (!o) {
        nn_tensor_release(r);
        return NULL;
    }
    o->t = r;
    o->fn_name = NULL;
    r->front = o; /* what v._base gives back for r */
    return (PyObject *)o;
}

PyObject *py_tensor_wrap(nn_tensor *r) {
    return py_tensor_wrap_as(py_tensor_class, r);
}

PyObject *py_tensor_wrap_named(nn_tensor *r, const char *fn_name) {
    PyObject *o = py_tensor_wrap_as(py_tensor_class, r);
    if (o && ((py_tensor *)o)->t->grad_fn) ((py_tensor *)o)->fn_name = fn_name;
    return o;
}

static int tensor_traverse(PyObject *self, visitproc visit, void *arg) {
    /* A heap subclass's type is visited by CPython's subtype_traverse. */
    Py_VISIT(((py_tensor *)self)->dict);
    Py_VISIT(((py_tensor *)self)->grad_ref);
    return 0;
}

static int tensor_clear(PyObject *self) {
    Py_CLEAR(((py_tensor *)self)->dict);
    Py_CLEAR(((py_tensor *)self)->grad_ref);
    return 0;
}

static void tensor_dealloc(PyObject *self) {
    py_tensor *o = (py_tensor *)self;
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (o->weakrefs) PyObject_ClearWeakRefs(self);
    Py_CLEAR(o->dict);
    Py_CLEAR(o->grad_ref);
    if (o->t->front == o) o->t->front = NULL;
    nn_tensor_release(o->t);
    o->t = NULL;
    /* a heap subclass's reference to its type is dropped by subtype_dealloc */
    tp->tp_free(self);
}

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    /* torch.Tensor(2, 3) (uninitialised, float32) or torch.Tensor([1, 2]). */
    (void)kw;
    nn_ctx *ctx = py_ctx();
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 1 && !PyLong_Check(PyTuple_GET_ITEM(args, 0)) &&
        Py_TYPE(PyTuple_GET_ITEM(args, 0)) != &py_size_type) {
        nn_tensor *t = py_tensor_from_data(PyTuple_GET_ITEM(args, 0), NN_FLOAT32);
        return t ? py_tensor_wrap_as(type, t) : NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int ndim = 0;
    if (n == 0) {
        shape[0] = 0;
        ndim = 1;
    } else if (py_shape_args(&PyTuple_GET_ITEM(args, 0), n, shape, &ndim) < 0)
        return NULL;
    return py_tensor_wrap_as(type, nn_zeros(ctx, NN_FLOAT32, ndim, shape));
}

/* ---- errors ---- */

PyObject *py_exc_stopped;

PyObject *py_engine_error(void) {
    nn_ctx *ctx = py_ctx();
    nn_status st = nn_ctx_status(ctx);
    /* A hook or an autograd.Function's backward raised: that exception. */
    if (py_autograd_take_error()) {
        nn_ctx_clear_error(ctx);
        return NULL;
    }
    /* The debugger stopped the pass with an exception of its own. */
    if ((st == NN_ERR_STOPPED || st == NN_ERR_INTERRUPT) && py_debug_take_error()) {
        nn_ctx_clear_error(ctx);
        return NULL;
    }
    PyObject *exc = PyExc_RuntimeError;
    switch (st) {
    case NN_ERR_INDEX: exc = PyExc_IndexError; break;
    case NN_ERR_TYPE: exc = PyExc_TypeError; break;
    case NN_ERR_VALUE: exc = PyExc_ValueError; break;
    case NN_ERR_MEMORY: exc = PyExc_MemoryError; break;
    case NN_ERR_IO: exc = PyExc_OSError; break;
    case NN_ERR_INTERRUPT: exc = PyExc_KeyboardInterrupt; break;
    case NN_ERR_STOPPED: exc = py_exc_stopped; break;
    case NN_ERR_NOT_IMPLEMENTED: exc = PyExc_NotImplementedError; break;
    default: break;
    }
    /* a NULL that came from the binding's own Python-level check (its
     * exception is already set and says why) */
    if (st == NN_OK && PyErr_Occurred()) return NULL;
    if (st == NN_OK)
        PyErr_SetString(PyExc_SystemError, "nndb: an engine call failed without saying why");
    else
        PyErr_SetString(exc, nn_ctx_error(ctx));
    nn_ctx_clear_error(ctx);
    return NULL;
}

int py_status(nn_status st) {
    if (st == NN_OK) return 0;
    py_engine_error();
    return -1;
}

#define T(o) (((py_tensor *)(o))->t)

/* The grad_fn name the object keeps (an op that records a node the engine
 * names otherwise), unless the tensor's history was rewritten since by an
 * in-place write through a view (its own or one of its base's): the engine
 * names those CopySlices and AsStridedBackward0, whatever op made the
 * value. */
static const char *fn_name_of(PyObject *self) {
    const nn_node *n = T(self)->grad_fn;
    if (n &&
        (n->op == NN_OP_AS_STRIDED || (n->op == NN_OP_PUT && (n->p.flags & NN_PUT_VIEW_WRITE))))
        return NULL;
    return ((py_tensor *)self)->fn_name;
}

/* ---- printing ---- */

static PyObject *tensor_repr(PyObject *self) {
    if (nn_tensor_check_storage(py_ctx(), T(self))) return py_engine_error();
    nn_buf b;
    nn_buf_init(&b);
    if (nn_view_refresh(py_ctx(), T(self))) nn_ctx_clear_error(py_ctx());
    nn_format_tensor_repr(T(self), fn_name_of(self), &py_print_opts, &b);
    PyObject *s = PyUnicode_FromStringAndSize(b.data ? b.data : "", (Py_ssize_t)b.len);
    nn_buf_free(&b);
    return s;
}

static PyObject *m_repr_html(PyObject *self, PyObject *unused) {
    (void)unused;
    if (nn_tensor_check_storage(py_ctx(), T(self))) return py_engine_error();
    nn_buf b;
    nn_buf_init(&b);
    nn_format_tensor_html(T(self), fn_name_of(self), &b);
    PyObject *s = PyUnicode_FromStringAndSize(b.data ? b.data : "", (Py_ssize_t)b.len);
    nn_buf_free(&b);
    return s;
}

static PyObject *f_set_printoptions(PyObject *m, PyObject *args) {
    (void)m;
    nn_print_opts o;
    long long threshold;
    if (!PyArg_ParseTuple(args, "iLiii", &o.precision, &threshold, &o.edgeitems, &o.linewidth,
                          &o.sci_mode))
        return NULL;
    o.threshold = threshold;
    py_print_opts = o;
    Py_RETURN_NONE;
}

/* ---- number protocol ---- */

typedef nn_tensor *(*binary_fn)(nn_ctx *, nn_tensor *, nn_tensor *);

static PyObject *binary(PyObject *a, PyObject *b, binary_fn fn, const char *name) {
    if (!py_tensor_check(a) && !py_tensor_check(b)) Py_RETURN_NOTIMPLEMENTED;
    nn_tensor *x, *y;
    if (py_operand(a, name, "input", &x) < 0) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            Py_RETURN_NOTIMPLEMENTED;
        }
        return NULL;
    }
    if (py_operand(b, name, "other", &y) < 0) {
        nn_tensor_release(x);
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            Py_RETURN_NOTIMPLEMENTED;
        }
        return NULL;
    }
    nn_tensor *r = fn(py_ctx(), x, y);
    nn_tensor_release(x);
    nn_tensor_release(y);
    return py_tensor_wrap(r);
}

/* Float floor division and remainder are ops_special.c's (remainder with
 * its gradient); integer ones nn_intops.c's. */
static nn_tensor *floor_div(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    if (nn_dtype_is_float(nn_dtype_promote(a, b)))
        return nn_special2(ctx, a, b, NN_SPECIAL2_FLOOR_DIVIDE);
    return nn_floor_divide(ctx, a, b);
}

static nn_tensor *remainder_op(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    if (nn_dtype_is_float(nn_dtype_promote(a, b)))
        return nn_special2(ctx, a, b, NN_SPECIAL2_REMAINDER);
    return nn_remainder(ctx, a, b);
}

/* number / tensor is tensor.reciprocal() * number, as torch's
 * Tensor.__rtruediv__. */
static nn_tensor *rdiv(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    /* complex: the complex division itself (no complex reciprocal kernel) */
    if (!a->is_wrapped_number || nn_dtype_is_complex(b->dtype) || nn_dtype_is_complex(a->dtype))
        return nn_div(ctx, a, b);
    nn_tensor *r = nn_reciprocal(ctx, b);
    nn_tensor *m = r ? nn_mul(ctx, r, a) : NULL;
    nn_tensor_release(r);
    return m;
}

static PyObject *nb_add(PyObject *a, PyObject *b) {
    return binary(a, b, nn_add, "add");
}
static PyObject *nb_sub(PyObject *a, PyObject *b) {
    return binary(a, b, nn_sub, "sub");
}
static PyObject *nb_mul(PyObject *a, PyObject *b) {
    return binary(a, b, nn_mul, "mul");
}
static PyObject *nb_truediv(PyObject *a, PyObject *b) {
    return binary(a, b, py_tensor_check(a) ? nn_div : rdiv, "div");
}
static PyObject *nb_lshift(PyObject *a, PyObject *b) {
    return binary(a, b, nn_bitwise_left_shift, "bitwise_left_shift");
}
static PyObject *nb_rshift(PyObject *a, PyObject *b) {
    return binary(a, b, nn_bitwise_right_shift, "bitwise_right_shift");
}
static PyObject *nb_floordiv(PyObject *a, PyObject *b) {
    return binary(a, b, floor_div, "floor_divide");
}
static PyObject *nb_mod(PyObject *a, PyObject *b) {
    return binary(a, b, remainder_op, "remainder");
}
/* a @ b: torch.matmul, cast by autocast when it is on. */
static nn_tensor *matmul_autocast(nn_ctx *ctx, nn_tensor *a, nn_tensor *b) {
    nn_tensor *ts[2] = {a, b}, *owned[2] = {NULL, NULL};
    if (py_autocast_cast(PY_AUTOCAST_LOWER, ts, 2, owned) < 0)
        return NULL; /* the engine's error stays in the context for binary() */
    nn_tensor *r = nn_matmul(ctx, ts[0], ts[1]);
    py_autocast_release(owned, 2);
    return r;
}

static PyObject *nb_matmul(PyObject *a, PyObject *b) {
    PyObject *ab[2] = {a, b};
    if (py_ops_any_complex(ab, 2)) {
        PyObject *c = py_ops_complex_fallback("matmul", ab, 2);
        if (c || PyErr_Occurred()) return c;
    }
    return binary(a, b, py_autocast_cpu_on() ? matmul_autocast : nn_matmul, "matmul");
}
static PyObject *nb_and(PyObject *a, PyObject *b) {
    return binary(a, b, nn_bitwise_and, "bitwise_and");
}
static PyObject *nb_or(PyObject *a, PyObject *b) {
    return binary(a, b, nn_bitwise_or, "bitwise_or");
}
static PyObject *nb_xor(PyObject *a, PyObject *b) {
    return binary(a, b, nn_bitwise_xor, "bitwise_xor");
}

static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
    if (mod != Py_None) {
        PyErr_SetString(PyExc_TypeError, "pow() with a modulus is not supported for tensors");
        return NULL;
    }
    PyObject *ab[2] = {a, b};
    if (py_ops_any_complex(ab, 2)) {
        /* a ** b, and b.__rpow__(a) for a number a: pow(a, b) either way */
        PyObject *c = py_ops_complex_fallback("pow", ab, 2);
        if (c || PyErr_Occurred()) return c;
    }
    return binary(a, b, nn_pow, "pow");
}

static PyObject *nb_neg(PyObject *a) {
    if (T(a)->dtype == NN_BOOL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Negation, the `-` operator, on a bool tensor is not supported. If you "
                        "are trying to invert a mask, use the `~` or `logical_not()` operator "
                        "instead.");
        return NULL;
    }
    return py_tensor_wrap(nn_neg(py_ctx(), T(a)));
}

static PyObject *nb_pos(PyObject *a) {
    Py_INCREF(a);
    return a;
}

static PyObject *nb_abs(PyObject *a) {
    return py_tensor_wrap(nn_abs(py_ctx(), T(a)));
}

static PyObject *nb_invert(PyObject *a) {
    nn_tensor *t = T(a);
    if (t->dtype == NN_BOOL) return py_tensor_wrap(nn_logical_not(py_ctx(), t));
    if (nn_dtype_is_float(t->dtype)) {
        PyErr_SetString(PyExc_TypeError,
                        "~ (operator.invert) is only implemented on integer and Boolean-type "
                        "tensors");
        return NULL;
    }
    return py_tensor_wrap(nn_bitwise_not(py_ctx(), t));
}

/* The one value of a one-element tensor, or an error worded as torch's. */
static int one_value(PyObject *self, const char *what) {
    int64_t n = nn_tensor_numel(T(self));
    if (n == 1) return 0;
    if (strcmp(what, "bool") == 0)
        PyErr_Format(PyExc_RuntimeError, "Boolean value of Tensor with %s is ambiguous",
                     n == 0 ? "no values" : "more than one value");
    else
        PyErr_Format(PyExc_ValueError, "only one element tensors can be converted to Python "
                                       "scalars");
    return -1;
}

static int nb_bool(PyObject *self) {
    if (one_value(self, "bool") < 0) return -1;
    nn_tensor *t = T(self);
    if (nn_dtype_is_float(t->dtype)) return nn_tensor_get_flat(t, 0) != 0;
    return nn_tensor_get_flat_int(t, 0) != 0;
}

static PyObject *nb_int(PyObject *self) {
    if (one_value(self, "int") < 0) return NULL;
    nn_tensor *t = T(self);
    if (nn_dtype_is_float(t->dtype)) {
        double d = nn_tensor_get_flat(t, 0);
        PyObject *f = PyFloat_FromDouble(d);
        if (!f) return NULL;
        PyObject *r = PyNumber_Long(f);
        Py_DECREF(f);
        return r;
    }
    return PyLong_FromLongLong(nn_tensor_get_flat_int(t, 0));
}

static PyObject *nb_float(PyObject *self) {
    if (one_value(self, "float") < 0) return NULL;
    return PyFloat_FromDouble(nn_tensor_get_flat(T(self), 0));
}

static PyObject *nb_index(PyObject *self) {
    nn_tensor *t = T(self);
    if (nn_tensor_numel(t) != 1 || nn_dtype_is_float(t->dtype)) {
        PyErr_SetString(PyExc_TypeError, "only integer tensors of a single element can be "
                                         "converted to an index");
        return NULL;
    }
    return PyLong_FromLongLong(nn_tensor_get_flat_int(t, 0));
}

static PyObject *inplace(PyObject *self, PyObject *other, binary_fn fn, const char *name);

/* self op= other: in place on self's storage. Autograd records it when it
 * must (the value is computed out of place and self takes it with its
 * history); otherwise the values are copied into self. */
/* [reads_self]: the op's backward reads self's old values (mul, div, pow):
 * when the write is recorded, it computes from a recorded copy of self, as
 * torch saves the original self, so backward does not see the new values. */
static PyObject *inplace_op(PyObject *self, PyObject *other, binary_fn fn, const char *name,
                            bool reads_self) {
    if (!py_tensor_check(self)) Py_RETURN_NOTIMPLEMENTED;
    nn_ctx *ctx = py_ctx();
    nn_tensor *o;
    if (py_operand(other, name, "other", &o) < 0) return NULL;
    nn_tensor *t = T(self);
    bool record = nn_inplace_records(ctx, t, o);
    if (record ? nn_inplace_check(ctx, t, name) : nn_tensor_check_inplace(ctx, t, name)) {
        nn_tensor_release(o);
        return py_engine_error();
    }
    nn_tensor *src = record && reads_self ? nn_add_scalar(ctx, t, 0.0) : nn_tensor_retain(t);
    nn_tensor *r = src ? fn(ctx, src, o) : NULL;
    nn_tensor_release(src);
    nn_tensor_release(o);
    if (!r) return py_engine_error();
    if (py_ops_check_cast(r, t) < 0) {
        nn_tensor_release(r);
        return NULL;
    }
    nn_status st;
    if (record) {
        st = nn_tensor_assign_(ctx, t, r);
        ((py_tensor *)self)->fn_name = NULL;
    } else {
        st = nn_tensor_copy_(ctx, t, r);
    }
    nn_tensor_release(r);
    if (py_status(st) < 0) return NULL;
    Py_INCREF(self);
    return self;
}

static PyObject *inplace(PyObject *self, PyObject *other, binary_fn fn, const char *name) {
    return inplace_op(self, other, fn, name, false);
}

static PyObject *nb_iadd(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_add, "add_");
}
static PyObject *nb_isub(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_sub, "sub_");
}
static PyObject *nb_imul(PyObject *a, PyObject *b) {
    return inplace_op(a, b, nn_mul, "mul_", true);
}
static PyObject *nb_itruediv(PyObject *a, PyObject *b) {
    return inplace_op(a, b, nn_div, "div_", true);
}
static PyObject *nb_ipow(PyObject *a, PyObject *b, PyObject *m) {
    (void)m;
    return inplace_op(a, b, nn_pow, "pow_", true);
}
static PyObject *nb_ilshift(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_bitwise_left_shift, "bitwise_left_shift_");
}
static PyObject *nb_irshift(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_bitwise_right_shift, "bitwise_right_shift_");
}
static PyObject *nb_iand(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_bitwise_and, "bitwise_and_");
}
static PyObject *nb_ior(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_bitwise_or, "bitwise_or_");
}
static PyObject *nb_ixor(PyObject *a, PyObject *b) {
    return inplace(a, b, nn_bitwise_xor, "bitwise_xor_");
}
static PyObject *nb_ifloordiv(PyObject *a, PyObject *b) {
    return inplace(a, b, floor_div, "floor_divide_");
}
static PyObject *nb_imod(PyObject *a, PyObject *b) {
    return inplace(a, b, remainder_op, "remainder_");
}

static PyNumberMethods tensor_as_number = {
    .nb_add = nb_add,
    .nb_subtract = nb_sub,
    .nb_multiply = nb_mul,
    .nb_remainder = nb_mod,
    .nb_power = nb_pow,
    .nb_negative = nb_neg,
    .nb_positive = nb_pos,
    .nb_absolute = nb_abs,
    .nb_bool = nb_bool,
    .nb_invert = nb_invert,
    .nb_lshift = nb_lshift,
    .nb_rshift = nb_rshift,
    .nb_and = nb_and,
    .nb_xor = nb_xor,
    .nb_or = nb_or,
    .nb_int = nb_int,
    .nb_float = nb_float,
    .nb_inplace_add = nb_iadd,
    .nb_inplace_subtract = nb_isub,
    .nb_inplace_multiply = nb_imul,
    .nb_inplace_remainder = nb_imod,
    .nb_inplace_power = nb_ipow,
    .nb_inplace_lshift = nb_ilshift,
    .nb_inplace_rshift = nb_irshift,
    .nb_inplace_and = nb_iand,
    .nb_inplace_xor = nb_ixor,
    .nb_inplace_or = nb_ior,
    .nb_floor_divide = nb_floordiv,
    .nb_true_divide = nb_truediv,
    .nb_inplace_floor_divide = nb_ifloordiv,
    .nb_inplace_true_divide = nb_itruediv,
    .nb_index = nb_index,
    .nb_matrix_multiply = nb_matmul,
};

/* ---- comparisons ---- */

static PyObject *tensor_richcompare(PyObject *a, PyObject *b, int op) {
    static const binary_fn fns[] = {nn_lt, nn_le, nn_eq, nn_ne, nn_gt, nn_ge};
    static const char *names[] = {"lt", "le", "eq", "ne", "gt", "ge"};
    if (b == Py_None && (op == Py_EQ || op == Py_NE)) {
        if (op == Py_EQ) Py_RETURN_FALSE;
        Py_RETURN_TRUE;
    }
    PyObject *r = binary(a, b, fns[op], names[op]);
    return r;
}

/* ---- indexing (torch 1.13's rules: basic indexing makes views, advanced
 * indices gather; ints select before advanced indexing) ---- */

typedef struct adv_set {
    int n;
    nn_tensor *idx[NN_MAX_DIMS];
    int pos[NN_MAX_DIMS]; /* dim of the current view each one indexes */
} adv_set;

static void adv_free(adv_set *s) {
    for (int i = 0; i < s->n; i++) nn_tensor_release(s->idx[i]);
    s->n = 0;
}

static int out_of_range(int64_t i, int dim, int64_t size) {
    PyErr_Format(PyExc_IndexError, "index %lld is out of bounds for dimension %d with size %lld",
                 (long long)i, dim, (long long)size);
    return -1;
}

/* An int64 index tensor checked against [size], negatives wrapped (new
 * reference). */
static int checked_index(nn_tensor *it, int orig_dim, int64_t size, nn_tensor **out) {
    nn_ctx *ctx = py_ctx();
    if (!nn_dtype_is_int(it->dtype)) {
        PyErr_SetString(PyExc_IndexError,
                        "tensors used as indices must be long, int, byte or bool tensors");
        return -1;
    }
    nn_tensor *c = it->dtype == NN_INT64 ? nn_tensor_contiguous_raw(ctx, it)
                                         : nn_tensor_cast_raw(ctx, it, NN_INT64);
    if (c && !nn_tensor_is_contiguous(c)) {
        nn_tensor *k = nn_tensor_contiguous_raw(ctx, c);
        nn_tensor_release(c);
        c = k;
    }
    if (!c) return (py_engine_error(), -1);
    int64_t n = nn_tensor_numel(c);
    const int64_t *p = nn_tensor_data(c);
    bool neg = false;
    for (int64_t k = 0; k < n; k++) {
        if (p[k] < -size || p[k] >= size) {
            int64_t bad = p[k];
            nn_tensor_release(c);
            return out_of_range(bad, orig_dim, size);
        }
        neg |= p[k] < 0;
    }
    if (!neg) {
        *out = c;
        return 0;
    }
    nn_tensor *w = nn_tensor_from_data(ctx, NN_INT64, c->ndim, c->shape, p);
    nn_tensor_release(c);
    if (!w) return (py_engine_error(), -1);
    int64_t *q = nn_tensor_data(w);
    for (int64_t k = 0; k < n; k++)
        if (q[k] < 0) q[k] += size;
    *out = w;
    return 0;
}

/* A bool mask over dims [dim, dim + mask.ndim) as that many index tensors. */
static int mask_indices(nn_tensor *cur, int dim, nn_tensor *mask, adv_set *adv) {
    nn_ctx *ctx = py_ctx();
    int k = mask->ndim;
    if (k == 0) {
        PyErr_SetString(PyExc_IndexError, "a 0-dim bool mask as an index is not supported");
        return -1;
    }
    if (adv->n + k > NN_MAX_DIMS || dim + k > cur->ndim) {
        PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", cur->ndim);
        return -1;
    }
    for (int i = 0; i < k; i++)
        if (mask->shape[i] != cur->shape[dim + i]) {
            /* PyTorch's words: the whole shapes, and the tensor's dim as
             * counted after the basic indices before it */
            char ms[128], ts[128];
            PyErr_Format(PyExc_IndexError,
                         "The shape of the mask %s at index %d does not match the shape of "
                         "the indexed tensor %s at index %d",
                         nn_tensor_shape_str(mask, ms, sizeof ms), i,
                         nn_tensor_shape_str(cur, ts, sizeof ts), dim + i);
            return -1;
        }
    int64_t n = nn_tensor_numel(mask), cnt = 0;
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, mask);
    if (!c) return (py_engine_error(), -1);
    const bool *m = nn_tensor_data(c);
    for (int64_t i = 0; i < n; i++) cnt += m[i];
    for (int i = 0; i < k; i++) {
        nn_tensor *t = nn_tensor_empty(ctx, NN_INT64, 1, &cnt);
        if (!t) {
            nn_tensor_release(c);
            return (py_engine_error(), -1);
        }
        adv->idx[adv->n] = t;
        adv->pos[adv->n] = dim + i;
        adv->n++;
    }
    int64_t j = 0, multi[NN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < n; i++) {
        if (m[i]) {
            for (int d = 0; d < k; d++)
                ((int64_t *)nn_tensor_data(adv->idx[adv->n - k + d]))[j] = multi[d];
            j++;
        }
        for (int d = k - 1; d >= 0; d--) {
            if (++multi[d] < mask->shape[d]) break;
            multi[d] = 0;
        }
    }
    nn_tensor_release(c);
    return 0;
}

static bool is_index_seq(PyObject *v) {
    return PyList_Check(v) || PyTuple_Check(v) || PyRange_Check(v) ||
           (!py_tensor_check(v) && PyObject_CheckBuffer(v) && !PyBytes_Check(v));
}

/* A list under 32 items holding a tensor, a sequence, a slice, None or
 * Ellipsis indexes as a tuple of those (x[[0, 2], [1, 3]] as x[[0, 2], [1,
 * 3]]): NumPy's old rule, which PyTorch keeps. */
static bool list_as_tuple(PyObject *key) {
    if (!PyList_Check(key) || PyList_GET_SIZE(key) >= 32) return false;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(key); i++) {
        PyObject *v = PyList_GET_ITEM(key, i);
        if (py_tensor_check(v) || PyList_Check(v) || PyTuple_Check(v) || PySlice_Check(v) ||
            v == Py_None || v == Py_Ellipsis)
            return true;
    }
    return false;
}

/* Walk [key] over [t]: basic indexing (ints, slices, None, Ellipsis) makes a
 * view in *view; advanced indices (index tensors, lists, masks) are
 * collected in [adv] against that view. */
static int index_walk(nn_tensor *t, PyObject *key, nn_tensor **view, adv_set *adv) {
    nn_ctx *ctx = py_ctx();
    PyObject *single[1] = {key};
    PyObject *const *items = single;
    Py_ssize_t n = 1;
    if (PyTuple_Check(key)) {
        items = &PyTuple_GET_ITEM(key, 0);
        n = PyTuple_GET_SIZE(key);
    } else if (list_as_tuple(key)) {
        items = &PyList_GET_ITEM(key, 0);
        n = PyList_GET_SIZE(key);
    }
    int consumed = 0, ellipses = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = items[i];
        nn_tensor *it = py_tensor_of(v);
        if (v == Py_None) continue;
        if (v == Py_Ellipsis) {
            ellipses++;
            continue;
        }
        consumed += (it && it->dtype == NN_BOOL) ? (it->ndim ? it->ndim : 0) : 1;
    }
    if (ellipses > 1) {
        PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
        return -1;
    }
    if (consumed > t->ndim) {
        if (t->ndim == 0)
            PyErr_SetString(PyExc_IndexError,
                            "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                            "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number");
        else
            PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %d", t->ndim);
        return -1;
    }
    nn_tensor *cur = nn_tensor_retain(t);
    int dim = 0, orig = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = items[i];
        nn_tensor *it = py_tensor_of(v), *next = NULL;
        if (v == Py_None) {
            next = nn_unsqueeze(ctx, cur, dim);
            dim++;
        } else if (v == Py_Ellipsis) {
            int skip = t->ndim - consumed;
            dim += skip;
            orig += skip;
            continue;
        } else if (PySlice_Check(v)) {
            PySliceObject *s = (PySliceObject *)v;
            int64_t start = 0, stop = NN_SLICE_END, step = 1;
            if ((s->start != Py_None && py_int_arg(s->start, "slice start", &start) < 0) ||
                (s->stop != Py_None && py_int_arg(s->stop, "slice stop", &stop) < 0) ||
                (s->step != Py_None && py_int_arg(s->step, "slice step", &step) < 0))
                goto fail;
            if (step <= 0) {
                PyErr_SetString(PyExc_ValueError, "step must be greater than zero");
                goto fail;
            }
            next = nn_slice(ctx, cur, dim, start, stop, step);
            dim++;
            orig++;
        } else if (it && it->dtype == NN_BOOL && it->ndim > 0) {
            if (mask_indices(cur, dim, it, adv) < 0) goto fail;
            dim += it->ndim;
            orig += it->ndim;
            continue;
        } else if ((it && it->ndim > 0) || is_index_seq(v)) {
            nn_tensor *raw = it ? nn_tensor_retain(it) : py_tensor_from_data(v, -1), *ix = NULL;
            if (!raw) goto fail;
            if (raw->dtype == NN_BOOL) {
                int k = raw->ndim;
                int rc = mask_indices(cur, dim, raw, adv);
                nn_tensor_release(raw);
                if (rc < 0) goto fail;
                dim += k;
                orig += k;
                continue;
            }
            if (adv->n >= NN_MAX_DIMS) {
                nn_tensor_release(raw);
                PyErr_SetString(PyExc_IndexError, "too many advanced indices");
                goto fail;
            }
            int rc = checked_index(raw, orig, cur->shape[dim], &ix);
            nn_tensor_release(raw);
            if (rc < 0) goto fail;
            adv->idx[adv->n] = ix;
            adv->pos[adv->n] = dim;
            adv->n++;
            dim++;
            orig++;
            continue;
        } else if (it && it->dtype == NN_BOOL) {
            PyErr_SetString(PyExc_IndexError, "a 0-dim bool mask as an index is not supported");
            goto fail;
        } else {
            int64_t k;
            if (!PyLong_Check(v) && !(it && nn_dtype_is_int(it->dtype)) && !PyIndex_Check(v)) {
                PyErr_Format(PyExc_IndexError,
                             "only integers, slices (`:`), ellipsis (`...`), None and long or "
                             "byte Variables are valid indices (got %s)",
                             Py_TYPE(v)->tp_name);
                goto fail;
            }
            if (py_int_arg(v, "index", &k) < 0) goto fail;
            int64_t size = cur->shape[dim];
            if (k < -size || k >= size) {
                out_of_range(k, orig, size);
                goto fail;
            }
            if (k < 0) k += size;
            next = nn_select(ctx, cur, dim, k);
            orig++;
        }
        if (!next) {
            py_engine_error();
            goto fail;
        }
        nn_tensor_release(cur);
        cur = next;
    }
    *view = cur;
    return 0;
fail:
    nn_tensor_release(cur);
    adv_free(adv);
    return -1;
}

/* Put non-adjacent advanced dims first (torch's rule), so that they are
 * consecutive from *dim on. New reference in *out. */
static int adv_arrange(nn_tensor *view, adv_set *adv, nn_tensor **out, int *dim) {
    bool adjacent = true;
    for (int i = 1; i < adv->n; i++) adjacent &= adv->pos[i] == adv->pos[0] + i;
    if (adjacent) {
        *out = nn_tensor_retain(view);
        *dim = adv->pos[0];
        return 0;
    }
    int64_t order[NN_MAX_DIMS];
    int k = 0;
    for (int i = 0; i < adv->n; i++) order[k++] = adv->pos[i];
    for (int d = 0; d < view->ndim; d++) {
        bool is_adv = false;
        for (int i = 0; i < adv->n; i++) is_adv |= adv->pos[i] == d;
        if (!is_adv) order[k++] = d;
    }
    *out = nn_permute(py_ctx(), view, order);
    *dim = 0;
    return *out ? 0 : (py_engine_error(), -1);
}

static PyObject *tensor_getitem(PyObject *self, PyObject *key) {
    nn_tensor *t = T(self), *view;
    nn_ctx *ctx = py_ctx();
    /* fast path: t[i] */
    if (PyLong_CheckExact(key) && t->ndim > 0) {
        int overflow;
        long long k = PyLong_AsLongLongAndOverflow(key, &overflow);
        int64_t size = t->shape[0];
        if (overflow || k < -size || k >= size) {
            if (PyErr_Occurred()) return NULL;
            out_of_range(k, 0, size);
            return NULL;
        }
        return py_tensor_wrap(nn_select(ctx, t, 0, k < 0 ? k + size : k));
    }
    adv_set adv = {0};
    if (index_walk(t, key, &view, &adv) < 0) return NULL;
    if (adv.n == 0) {
        if (view == t) {
            /* t[...] and t[()] are aliases, not the same object */
            nn_tensor_release(view);
            view = nn_view(ctx, t, t->ndim, t->shape);
        }
        return py_tensor_wrap(view);
    }
    nn_tensor *arranged;
    int dim;
    int rc = adv_arrange(view, &adv, &arranged, &dim);
    nn_tensor_release(view);
    PyObject *r = NULL;
    if (rc == 0) {
        nn_tensor *res = nn_index(ctx, arranged, dim, adv.idx, adv.n);
        nn_tensor_release(arranged);
        r = py_tensor_wrap_named(res, "IndexBackward0");
    }
    adv_free(&adv);
    return r;
}

/* The row-major positions in [t] that t[key] selects, as an int64 tensor
 * of t[key]'s shape: the same walk over a tensor of positions. */
static int key_positions(nn_tensor *t, PyObject *key, nn_tensor **out) {
    nn_ctx *ctx = py_ctx();
    *out = NULL;
    nn_tensor *flat = nn_arange(ctx, 0, (double)nn_tensor_numel(t), 1, NN_INT64);
    nn_tensor *pos = flat ? nn_view(ctx, flat, t->ndim, t->shape) : NULL;
    nn_tensor_release(flat);
    if (!pos) return (py_engine_error(), -1);
    nn_tensor *view = NULL;
    adv_set adv = {0};
    int rc = index_walk(pos, key, &view, &adv);
    nn_tensor_release(pos);
    if (rc == 0 && adv.n == 0) {
        *out = view;
        view = NULL;
    } else if (rc == 0) {
        nn_tensor *arranged;
        int dim;
        rc = adv_arrange(view, &adv, &arranged, &dim);
        if (rc == 0) {
            *out = nn_index(ctx, arranged, dim, adv.idx, adv.n);
            nn_tensor_release(arranged);
            if (!*out) rc = (py_engine_error(), -1);
        }
    }
    adv_free(&adv);
    nn_tensor_release(view);
    return rc;
}

static int setitem_recorded(PyObject *self, PyObject *key, nn_tensor *val) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = T(self), *pos;
    if (nn_inplace_check(ctx, t, "__setitem__") != NN_OK) return (py_engine_error(), -1);
    bool prev = nn_ctx_set_grad(ctx, false);
    int rc = key_positions(t, key, &pos);
    nn_ctx_set_grad(ctx, prev);
    if (rc < 0) return -1;
    nn_tensor *r = nn_put(ctx, t, val, pos);
    nn_tensor_release(pos);
    if (!r) return (py_engine_error(), -1);
    nn_status st = nn_tensor_assign_(ctx, t, r);
    nn_tensor_release(r);
    if (st == NN_OK) ((py_tensor *)self)->fn_name = "CopySlices";
    return py_status(st);
}

static int tensor_setitem(PyObject *self, PyObject *key, PyObject *value) {
    if (!value) {
        PyErr_SetString(PyExc_TypeError, "'Tensor' object does not support item deletion");
        return -1;
    }
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = T(self), *view = NULL, *val = NULL;
    if (py_operand(value, "__setitem__", "value", &val) < 0) return -1;
    if (nn_inplace_records(ctx, t, val)) {
        int rc = setitem_recorded(self, key, val);
        nn_tensor_release(val);
        return rc;
    }
    if (nn_tensor_check_inplace(ctx, t, "index_put_") != NN_OK) {
        nn_tensor_release(val);
        return (py_engine_error(), -1);
    }
    bool prev = nn_ctx_set_grad(ctx, false);
    adv_set adv = {0};
    int rc = index_walk(t, key, &view, &adv);
    if (rc == 0 && adv.n == 0) {
        rc = py_status(nn_tensor_copy_(ctx, view, val));
    } else if (rc == 0) {
        nn_tensor *arranged;
        int dim;
        rc = adv_arrange(view, &adv, &arranged, &dim);
        if (rc == 0) {
            rc = py_status(nn_index_put_(ctx, arranged, dim, adv.idx, adv.n, val));
            nn_tensor_release(arranged);
        }
    }
    nn_ctx_set_grad(ctx, prev);
    adv_free(&adv);
    nn_tensor_release(view);
    nn_tensor_release(val);
    return rc;
}

static Py_ssize_t tensor_length(PyObject *self) {
    nn_tensor *t = T(self);
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
        return -1;
    }
    return (Py_ssize_t)t->shape[0];
}

/* Iteration goes through sq_item: t[0], t[1], ... until IndexError. */
static PyObject *tensor_item_at(PyObject *self, Py_ssize_t i) {
    nn_tensor *t = T(self);
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
        return NULL;
    }
    if (i < 0 || i >= t->shape[0]) {
        PyErr_SetString(PyExc_IndexError, "tensor index out of range");
        return NULL;
    }
    return py_tensor_wrap(nn_select(py_ctx(), t, 0, i));
}

static int tensor_contains(PyObject *self, PyObject *v) {
    nn_tensor *o;
    if (py_operand(v, "__contains__", "element", &o) < 0) return -1;
    nn_tensor *eq = nn_eq(py_ctx(), T(self), o);
    nn_tensor_release(o);
    if (!eq) return (py_engine_error(), -1);
    int found = 0;
    int64_t n = nn_tensor_numel(eq);
    for (int64_t i = 0; i < n && !found; i++) found = nn_tensor_get_flat_int(eq, i) != 0;
    nn_tensor_release(eq);
    return found;
}

static PyMappingMethods tensor_as_mapping = {
    .mp_length = tensor_length,
    .mp_subscript = tensor_getitem,
    .mp_ass_subscript = tensor_setitem,
};

static PySequenceMethods tensor_as_sequence = {
    .sq_length = tensor_length,
    .sq_item = tensor_item_at,
    .sq_contains = tensor_contains,
};

/* ---- the buffer protocol (NumPy reads tensors without a copy) ---- */

static const char *buffer_format(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "f";
    case NN_FLOAT64: return "d";
    case NN_INT64: return sizeof(long) == 8 ? "l" : "q"; /* NumPy's int64 is long */
    case NN_BOOL: return "?";
    case NN_INT32: return "i";
    case NN_INT16: return "h";
    case NN_INT8: return "b";
    case NN_UINT8: return "B";
    case NN_FLOAT16: return "e";
    case NN_COMPLEX64: return "Zf";
    case NN_COMPLEX128: return "Zd";
    default: return NULL;
    }
}

static int numpy_refusal(nn_tensor *t) {
    if (nn_tensor_check_storage(py_ctx(), t)) return py_status(py_ctx()->err.code);
    if (t->requires_grad) {
        PyErr_SetString(PyExc_RuntimeError, "Can't call numpy() on Tensor that requires grad. "
                                            "Use tensor.detach().numpy() instead.");
        return -1;
    }
    if (!buffer_format(t->dtype)) {
        PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType %s",
                     nn_dtype_scalar_name(t->dtype));
        return -1;
    }
    return 0;
}

static int tensor_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    nn_tensor *t = T(self);
    if (numpy_refusal(t) < 0) {
        view->obj = NULL;
        return -1;
    }
    Py_ssize_t *shape = PyMem_Malloc(sizeof(Py_ssize_t) * 2 * (size_t)(t->ndim ? t->ndim : 1));
    if (!shape) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t *strides = shape + (t->ndim ? t->ndim : 1);
    size_t es = nn_dtype_size(t->dtype);
    for (int d = 0; d < t->ndim; d++) {
        shape[d] = (Py_ssize_t)t->shape[d];
        strides[d] = (Py_ssize_t)(t->strides[d] * (int64_t)es);
    }
    if (!(flags & PyBUF_STRIDES) && !nn_tensor_is_contiguous(t)) {
        PyMem_Free(shape);
        PyErr_SetString(PyExc_BufferError, "the tensor is not contiguous");
        return -1;
    }
    view->buf = nn_tensor_data(t);
    view->obj = Py_NewRef(self);
    view->len = (Py_ssize_t)(nn_tensor_numel(t) * (int64_t)es);
    view->readonly = 0;
    view->itemsize = (Py_ssize_t)es;
    view->format = (flags & PyBUF_FORMAT) ? (char *)buffer_format(t->dtype) : NULL;
    view->ndim = t->ndim;
    view->shape = (flags & PyBUF_ND) ? shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) ? strides : NULL;
    view->suboffsets = NULL;
    view->internal = shape;
    return 0;
}

static void tensor_releasebuffer(PyObject *self, Py_buffer *view) {
    (void)self;
    PyMem_Free(view->internal);
}

static PyBufferProcs tensor_as_buffer = {tensor_getbuffer, tensor_releasebuffer};

static PyObject *get_array_interface(PyObject *self, void *closure) {
    (void)closure;
    nn_tensor *t = T(self);
    if (numpy_refusal(t) < 0) return NULL;
    static const char *typestr[] = {"<f4", "<f8", "<i8", "|b1", "<i4", "<i2",
                                    "|i1", "|u1", "<f2", "<V2", "<c8", "<c16"};
    size_t es = nn_dtype_size(t->dtype);
    PyObject *shape = PyTuple_New(t->ndim), *strides = PyTuple_New(t->ndim);
    if (!shape || !strides) goto fail;
    for (int d = 0; d < t->ndim; d++) {
        PyTuple_SET_ITEM(shape, d, PyLong_FromLongLong(t->shape[d]));
        PyTuple_SET_ITEM(strides, d, PyLong_FromLongLong(t->strides[d] * (int64_t)es));
    }
    return Py_BuildValue("{s:N,s:s,s:(N,O),s:N,s:i}", "shape", shape, "typestr", typestr[t->dtype],
                         "data", PyLong_FromVoidPtr(nn_tensor_data(t)), Py_False, "strides",
                         strides, "version", 3);
fail:
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return NULL;
}

/* ---- autograd attributes ---- */

static PyObject *get_requires_grad(PyObject *self, void *c) {
    (void)c;
    /* a view whose base took a history since (it errs only on its grad_fn) */
    if (nn_view_refresh(py_ctx(), T(self))) nn_ctx_clear_error(py_ctx());
    return PyBool_FromLong(T(self)->requires_grad);
}

/* Turning on requires_grad of an integer or bool tensor: PyTorch words
 * the refusal differently by path (the factories' requires_grad=, which
 * the engine's message has, the attribute, the method), so each path
 * says what PyTorch's does. */
static int grad_dtype_check(PyObject *self, bool on, const char *msg) {
    nn_dtype dt = T(self)->dtype;
    if (!on || nn_dtype_is_float(dt) || nn_dtype_is_complex(dt)) return 0;
    PyErr_SetString(PyExc_RuntimeError, msg);
    return -1;
}

static int set_requires_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    if (!v) {
        PyErr_SetString(PyExc_TypeError, "can't delete requires_grad");
        return -1;
    }
    int on = PyObject_IsTrue(v);
    if (on < 0 || grad_dtype_check(self, on,
                                   "only Tensors of floating point and complex dtype can require "
                                   "gradients") < 0)
        return -1;
    return py_status(nn_tensor_requires_grad_(py_ctx(), T(self), on));
}

static PyObject *get_grad(PyObject *self, void *c) {
    (void)c;
    /* the learner who reads a non-leaf's .grad expecting backward() to have
     * filled it: PyTorch's warning, word for word */
    if (T(self)->grad_fn && !T(self)->retains_grad &&
        PyErr_WarnEx(PyExc_UserWarning,
                     "The .grad attribute of a Tensor that is not a leaf Tensor is being "
                     "accessed. Its .grad attribute won't be populated during "
                     "autograd.backward(). If you indeed want the .grad field to be populated "
                     "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
                     "access the non-leaf Tensor by mistake, make sure you access the leaf "
                     "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                     "informations.",
                     1) < 0)
        return NULL;
    nn_tensor *g = nn_tensor_grad(T(self));
    if (!g) Py_RETURN_NONE;
    py_tensor *o = (py_tensor *)self;
    if (o->grad_ref) {
        PyObject *last = PyWeakref_GetObject(o->grad_ref); /* borrowed; Py_None when gone */
        if (last != Py_None && ((py_tensor *)last)->t == g) return Py_NewRef(last);
    }
    PyObject *r = py_tensor_wrap(nn_tensor_retain(g));
    if (!r) return NULL;
    PyObject *ref = PyWeakref_NewRef(r, NULL);
    if (!ref) {
        Py_DECREF(r);
        return NULL;
    }
    Py_XSETREF(o->grad_ref, ref);
    return r;
}

static int set_grad(PyObject *self, PyObject *v, void *c) {
    (void)c;
    nn_tensor *t = T(self);
    if (!v || v == Py_None) {
        nn_tensor_clear_grad(t);
        if (t->grad) {
            nn_tensor_release(t->grad);
            t->grad = NULL;
        }
        return 0;
    }
    nn_tensor *g = py_tensor_of(v);
    if (!g) {
        PyErr_Format(PyExc_TypeError, "assigned grad expected to be a Tensor or None but got %s",
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    if (!nn_tensor_same_shape(g, t)) {
        PyErr_SetString(PyExc_RuntimeError, "assigned grad has data of a different size");
        return -1;
    }
    if (g->dtype != t->dtype) {
        PyErr_SetString(PyExc_TypeError, "assigned grad has data of a different type");
        return -1;
    }
    nn_tensor *old = t->grad;
    t->grad = nn_tensor_retain(g);
    nn_tensor_release(old);
    /* `w.grad = buf` then `w.grad is buf`, as get_grad keeps it */
    PyObject *ref = PyWeakref_NewRef(v, NULL);
    if (ref)
        Py_XSETREF(((py_tensor *)self)->grad_ref, ref);
    else
        PyErr_Clear(); /* identity only: .grad is set either way */
    return 0;
}

static PyObject *get_is_leaf(PyObject *self, void *c) {
    (void)c;
    if (nn_view_refresh(py_ctx(), T(self))) nn_ctx_clear_error(py_ctx());
    return PyBool_FromLong(nn_tensor_is_leaf(T(self)));
}

/* PyTorch's _base: the tensor a view was made from (the root of a chain
 * of views), the same object when it still lives; None for a tensor that
 * is no view (detach() and .data are none). */
static PyObject *get_base(PyObject *self, void *c) {
    (void)c;
    nn_tensor *t = T(self);
    if (!nn_tensor_is_view(t)) Py_RETURN_NONE;
    if (t->base->front) return Py_NewRef((PyObject *)t->base->front);
    return py_tensor_wrap(nn_tensor_retain(t->base));
}

static PyObject *m_is_view(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(nn_tensor_is_view(T(self)));
}

PyObject *py_grad_fn_new(nn_node *node, const char *name);

static PyObject *get_grad_fn(PyObject *self, void *c) {
    (void)c;
    nn_tensor *t = T(self);
    if (nn_view_refresh(py_ctx(), t)) return py_engine_error();
    if (!t->grad_fn) Py_RETURN_NONE;
    PyObject *custom = py_autograd_grad_fn(t->grad_fn); /* an autograd.Function's ctx */
    if (custom) return custom;
    const char *name = fn_name_of(self);
    return py_grad_fn_new(t->grad_fn, name ? name : nn_format_grad_fn_name(t));
}

static PyObject *get_data(PyObject *self, void *c) {
    (void)c;
    return py_tensor_wrap(nn_tensor_detach(py_ctx(), T(self)));
}

static int set_data(PyObject *self, PyObject *v, void *c) {
    (void)c;
    nn_tensor *src = v ? py_tensor_of(v) : NULL;
    if (!src) {
        PyErr_SetString(PyExc_TypeError, "data must be a Tensor");
        return -1;
    }
    nn_tensor_set_(T(self), src);
    return 0;
}

static PyObject *get_shape(PyObject *self, void *c) {
    (void)c;
    return py_size_new(T(self)->ndim, T(self)->shape);
}

static PyObject *get_dtype(PyObject *self, void *c) {
    (void)c;
    return Py_NewRef(py_dtype_object(T(self)->dtype));
}

static PyObject *get_ndim(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromLong(T(self)->ndim);
}

static PyObject *get_version(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromUnsignedLong(T(self)->storage->version);
}

static PyObject *get_T(PyObject *self, void *c) {
    (void)c;
    nn_tensor *t = T(self);
    int64_t order[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) order[d] = t->ndim - 1 - d;
    /* torch's .T is a permute at every rank (.t() is the TBackward0 one) */
    return py_tensor_wrap_named(nn_permute(py_ctx(), t, order), "PermuteBackward0");
}

static PyObject *get_mT(PyObject *self, void *c) {
    (void)c;
    nn_tensor *t = T(self);
    if (t->ndim == 0) return py_tensor_wrap_named(nn_view(py_ctx(), t, 0, NULL), "AliasBackward0");
    if (t->ndim < 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "tensor.mT is only supported on matrices or batches of matrices. Got %d-D "
                     "tensor.",
                     t->ndim);
        return NULL;
    }
    return py_tensor_wrap_named(nn_transpose(py_ctx(), t, -2, -1), "TransposeBackward0");
}

static PyObject *get_false(PyObject *self, void *c) {
    (void)self;
    (void)c;
    Py_RETURN_FALSE;
}

static PyObject *get_itemsize(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromSize_t(nn_dtype_size(T(self)->dtype));
}

static PyObject *get_nbytes(PyObject *self, void *c) {
    (void)c;
    return PyLong_FromLongLong(nn_tensor_numel(T(self)) * (int64_t)nn_dtype_size(T(self)->dtype));
}

static PyObject *get_dict(PyObject *self, void *c) {
    (void)c;
    py_tensor *o = (py_tensor *)self;
    if (!o->dict) {
        o->dict = PyDict_New();
        if (!o->dict) return NULL;
    }
    return Py_NewRef(o->dict);
}

static PyGetSetDef tensor_getset[] = {
    {"requires_grad", get_requires_grad, set_requires_grad, "whether autograd records ops on it",
     NULL},
    {"grad", get_grad, set_grad, "the gradient backward() accumulated, or None", NULL},
    {"is_leaf", get_is_leaf, NULL, "made by the user, not by a recorded op", NULL},
    {"grad_fn", get_grad_fn, NULL, "the backward node that made it, or None", NULL},
    {"_base", get_base, NULL, "the tensor this view was made from (the root), or None", NULL},
    {"data", get_data, set_data, "the values without autograd history (shares storage)", NULL},
    {"shape", get_shape, NULL, "the size as torch.Size", NULL},
    {"dtype", get_dtype, NULL, "the element type", NULL},
    {"ndim", get_ndim, NULL, "the number of dims", NULL},
    {"_version", get_version, NULL, "the storage's in-place write counter", NULL},
    {"T", get_T, NULL, "the dims reversed", NULL},
    {"mT", get_mT, NULL, "the last two dims swapped", NULL},
    {"is_cuda", get_false, NULL, "False: nndb's tensors live on the CPU", NULL},
    {"is_sparse", get_false, NULL, "False", NULL},
    {"is_quantized", get_false, NULL, "False", NULL},
    {"is_meta", get_false, NULL, "False", NULL},
    {"itemsize", get_itemsize, NULL, "bytes per element", NULL},
    {"nbytes", get_nbytes, NULL, "bytes of the elements", NULL},
    {"__array_interface__", get_array_interface, NULL, "NumPy's array interface (no copy)", NULL},
    {"__dict__", get_dict, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- methods about the tensor object ---- */

#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

static PyObject *m_backward(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    PARSE("backward", 0, "gradient", "retain_graph", "create_graph", "inputs");
    nn_tensor *g = NULL;
    bool retain = false, create = false;
    if (a_[0] && a_[0] != Py_None && py_tensor_arg(a_[0], "backward", "gradient", &g) < 0)
        return NULL;
    if (a_[2] && py_bool_arg(a_[2], "create_graph", &create) < 0) return NULL;
    if (a_[1] && a_[1] != Py_None) {
        if (py_bool_arg(a_[1], "retain_graph", &retain) < 0) return NULL;
    } else {
        retain = create;
    }
    if (create) { /* the pass that records itself, written in Python */
        PyObject *mod = PyImport_ImportModule("torch.autograd._higher");
        PyObject *r =
            mod ? PyObject_CallMethod(mod, "tensor_backward", "OOO", self, a_[0] ? a_[0] : Py_None,
                                      retain ? Py_True : Py_False)
                : NULL;
        Py_XDECREF(mod);
        return r;
    }
    nn_status st;
    Py_BEGIN_ALLOW_THREADS;
    st = nn_backward(py_ctx(), T(self), g, retain);
    Py_END_ALLOW_THREADS;
    if (py_status(st) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *scalar_value(nn_tensor *t, int64_t i) {
    if (nn_dtype_is_complex(t->dtype)) {
        double re, im;
        nn_tensor_get_flat_complex(t, i, &re, &im);
        return PyComplex_FromDoubles(re, im);
    }
    if (nn_dtype_is_float(t->dtype)) return PyFloat_FromDouble(nn_tensor_get_flat(t, i));
    if (t->dtype == NN_BOOL) return PyBool_FromLong(nn_tensor_get_flat_int(t, i) != 0);
    return PyLong_FromLongLong(nn_tensor_get_flat_int(t, i));
}

static PyObject *m_item(PyObject *self, PyObject *unused) {
    (void)unused;
    nn_tensor *t = T(self);
    if (nn_tensor_check_storage(py_ctx(), t)) return py_engine_error();
    /* PyTorch 1.13's words for item(), float(), int() of zero or several
     * elements (2.x says "a Tensor with N elements cannot be converted to
     * Scalar", a RuntimeError) */
    if (one_value(self, "item") < 0) return NULL;
    return scalar_value(t, 0);
}

static PyObject *tolist_rec(nn_tensor *t, int d, int64_t *flat) {
    if (d == t->ndim) return scalar_value(t, (*flat)++);
    PyObject *l = PyList_New(t->shape[d]);
    if (!l) return NULL;
    for (int64_t i = 0; i < t->shape[d]; i++) {
        PyObject *v = tolist_rec(t, d + 1, flat);
        if (!v) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *m_tolist(PyObject *self, PyObject *unused) {
    (void)unused;
    int64_t flat = 0;
    if (nn_tensor_check_storage(py_ctx(), T(self))) return py_engine_error();
    return tolist_rec(T(self), 0, &flat);
}

static PyObject *m_size(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames) {
    PARSE("size", 0, "dim");
    nn_tensor *t = T(self);
    if (!a_[0] || a_[0] == Py_None) return py_size_new(t->ndim, t->shape);
    int64_t d;
    int dd;
    if (py_int_arg(a_[0], "dim", &d) < 0) return NULL;
    if (nn_dim_wrap(py_ctx(), d, t->ndim, &dd)) return py_engine_error();
    return PyLong_FromLongLong(t->shape[dd]);
}

static PyObject *m_stride(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PARSE("stride", 0, "dim");
    nn_tensor *t = T(self);
    if (!a_[0] || a_[0] == Py_None) {
        PyObject *r = PyTuple_New(t->ndim);
        if (!r) return NULL;
        for (int d = 0; d < t->ndim; d++)
            PyTuple_SET_ITEM(r, d, PyLong_FromLongLong(t->strides[d]));
        return r;
    }
    int64_t d;
    int dd;
    if (py_int_arg(a_[0], "dim", &d) < 0) return NULL;
    if (nn_dim_wrap(py_ctx(), d, t->ndim, &dd)) return py_engine_error();
    return PyLong_FromLongLong(t->strides[dd]);
}

static PyObject *m_dim(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(T(self)->ndim);
}

static PyObject *m_numel(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(nn_tensor_numel(T(self)));
}

static PyObject *m_element_size(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromSize_t(nn_dtype_size(T(self)->dtype));
}

static PyObject *m_storage_offset(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLongLong(T(self)->offset);
}

static PyObject *m_data_ptr(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromVoidPtr(nn_tensor_data(T(self)));
}

static PyObject *m_is_contiguous(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames) {
    PARSE("is_contiguous", 0, "memory_format");
    nn_memory_format fmt = NN_FORMAT_CONTIGUOUS;
    if (py_memory_format_arg("is_contiguous", a_[0], NULL, &fmt) < 0) return NULL;
    return PyBool_FromLong(nn_tensor_is_format(T(self), fmt));
}

static PyObject *m_is_floating_point(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyBool_FromLong(nn_dtype_is_float(T(self)->dtype));
}

static PyObject *m_detach(PyObject *self, PyObject *unused) {
    (void)unused;
    return py_tensor_wrap(nn_tensor_detach(py_ctx(), T(self)));
}

static PyObject *m_detach_(PyObject *self, PyObject *unused) {
    (void)unused;
    nn_tensor *t = T(self);
    if (t->grad_fn) {
        nn_node_release(t->grad_fn);
        t->grad_fn = NULL;
    }
    t->requires_grad = false;
    ((py_tensor *)self)->fn_name = NULL;
    return Py_NewRef(self);
}

static PyObject *m_requires_grad_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
    PARSE("requires_grad_", 0, "requires_grad");
    bool on = true;
    if (a_[0] && py_bool_arg(a_[0], "requires_grad", &on) < 0) return NULL;
    if (grad_dtype_check(self, on, "only Tensors of floating point dtype can require gradients") <
        0)
        return NULL;
    if (py_status(nn_tensor_requires_grad_(py_ctx(), T(self), on)) < 0) return NULL;
    return Py_NewRef(self);
}

static PyObject *m_retain_grad(PyObject *self, PyObject *unused) {
    (void)unused;
    if (py_status(nn_tensor_retain_grad(py_ctx(), T(self))) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *m_retains_grad(PyObject *self, void *c) {
    (void)c;
    return PyBool_FromLong(T(self)->retains_grad);
}

static PyObject *done_self(PyObject *self, nn_status st) {
    if (py_status(st) < 0) return NULL;
    return Py_NewRef(self);
}

/* zero_, fill_, copy_ on a tensor with history, or of a source that
 * requires grad, while gradients are on: recorded as t[...] = value
 * (nn_tensor_write_), a CopySlices node on the base of a view; on a tensor
 * that is no view PyTorch's own node names ([fn_name]). */
static PyObject *write_recorded(PyObject *self, nn_tensor *value, const char *name,
                                const char *fn_name) {
    nn_ctx *ctx = py_ctx();
    nn_tensor *t = T(self);
    if (nn_inplace_check(ctx, t, name)) return py_engine_error();
    nn_status st = nn_tensor_write_(ctx, t, value);
    if (py_status(st) < 0) return NULL;
    ((py_tensor *)self)->fn_name = nn_tensor_is_view(t) ? NULL : fn_name;
    return Py_NewRef(self);
}

static PyObject *fill_recorded(PyObject *self, double v, const char *name, const char *fn_name) {
    nn_tensor *value = nn_scalar(py_ctx(), v, T(self)->dtype);
    if (!value) return py_engine_error();
    PyObject *r = write_recorded(self, value, name, fn_name);
    nn_tensor_release(value);
    return r;
}

static PyObject *m_zero_(PyObject *self, PyObject *unused) {
    (void)unused;
    if (nn_inplace_records(py_ctx(), T(self), NULL) && nn_dtype_is_float(T(self)->dtype))
        return fill_recorded(self, 0, "zero_", "ZeroBackward0");
    return done_self(self, nn_tensor_zero_(py_ctx(), T(self)));
}

static PyObject *m_fill_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PARSE("fill_", 1, "value");
    double v;
    if (py_float_arg(a_[0], "value", &v) < 0) return NULL;
    if (nn_inplace_records(py_ctx(), T(self), NULL) && nn_dtype_is_float(T(self)->dtype))
        return fill_recorded(self, v, "fill_", "FillBackward2");
    return done_self(self, nn_tensor_fill_(py_ctx(), T(self), v));
}

static PyObject *m_copy_(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PARSE("copy_", 1, "src", "non_blocking");
    nn_tensor *src;
    if (py_operand(a_[0], "copy_", "src", &src) < 0) return NULL;
    if (nn_inplace_records(py_ctx(), T(self), src) && nn_dtype_is_float(T(self)->dtype)) {
        PyObject *r = write_recorded(self, src, "copy_", "CopyBackwards");
        nn_tensor_release(src);
        return r;
    }
    nn_status st = nn_tensor_copy_(py_ctx(), T(self), src);
    nn_tensor_release(src);
    return done_self(self, st);
}

static PyObject *m_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames) {
    PARSE("numpy", 0, "$force");
    nn_tensor *t = T(self);
    bool force = false;
    if (a_[0] && py_bool_arg(a_[0], "force", &force) < 0) return NULL;
    PyObject *src = self, *tmp = NULL;
    if (force && t->requires_grad) {
        tmp = py_tensor_wrap(nn_tensor_detach(py_ctx(), t));
        if (!tmp) return NULL;
        src = tmp;
    } else if (numpy_refusal(t) < 0) {
        return NULL;
    }
    PyObject *np = PyImport_ImportModule("numpy");
    if (!np) {
        Py_XDECREF(tmp);
        return NULL;
    }
    PyObject *mv = PyMemoryView_FromObject(src);
    PyObject *r = mv ? PyObject_CallMethod(np, "asarray", "O", mv) : NULL;
    Py_XDECREF(mv);
    Py_DECREF(np);
    Py_XDECREF(tmp);
    return r;
}

/* _C._make_subclass(cls, data, requires_grad): a tensor of type [cls] that
 * shares data's storage (what nn.Parameter.__new__ uses). */
static PyObject *f_make_subclass(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cls, *data;
    int rg = 0;
    if (!PyArg_ParseTuple(args, "OO|p:_make_subclass", &cls, &data, &rg)) return NULL;
    nn_tensor *t = py_tensor_of(data);
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &py_tensor_base_type) || !t) {
        PyErr_SetString(PyExc_TypeError, "_make_subclass(cls, data): cls must be a Tensor "
                                         "subclass and data a Tensor");
        return NULL;
    }
    nn_ctx *ctx = py_ctx();
    nn_tensor *v = nn_tensor_detach(ctx, t);
    if (!v) return py_engine_error();
    if (rg && py_status(nn_tensor_requires_grad_(ctx, v, true)) < 0) {
        nn_tensor_release(v);
        return NULL;
    }
    return py_tensor_wrap_as((PyTypeObject *)cls, v);
}

/* _C._alias_as(cls, tensor): Tensor.as_subclass -- a view of all of tensor
 * as an instance of [cls], still on the autograd graph (its grad_fn is
 * named AliasBackward0, as PyTorch's alias). */
static PyObject *f_alias_as(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *cls, *data;
    if (!PyArg_ParseTuple(args, "OO:_alias_as", &cls, &data)) return NULL;
    nn_tensor *t = py_tensor_of(data);
    if (!t) {
        PyErr_SetString(PyExc_TypeError, "as_subclass: self must be a Tensor");
        return NULL;
    }
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &py_tensor_base_type)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Creating a Tensor subclass from a class that does not inherit from "
                        "Tensor is not possible. Make sure your class inherits from Tensor.");
        return NULL;
    }
    PyObject *o = py_tensor_wrap_as((PyTypeObject *)cls, nn_view(py_ctx(), t, t->ndim, t->shape));
    if (o && ((py_tensor *)o)->t->grad_fn) ((py_tensor *)o)->fn_name = "AliasBackward0";
    return o;
}

static PyObject *f_set_tensor_class(PyObject *m, PyObject *cls) {
    (void)m;
    if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &py_tensor_base_type)) {
        PyErr_SetString(PyExc_TypeError, "_set_tensor_class: a subclass of _TensorBase");
        return NULL;
    }
    Py_INCREF(cls);
    py_tensor_class = (PyTypeObject *)cls;
    Py_RETURN_NONE;
}

PyMethodDef py_tensor_methods[] = {
    {"backward", (PyCFunction)(void (*)(void))m_backward, METH_FASTCALL | METH_KEYWORDS,
     "backward(gradient=None, retain_graph=None): accumulate gradients into the leaves"},
    {"item", m_item, METH_NOARGS, "the value of a one-element tensor as a Python number"},
    {"tolist", m_tolist, METH_NOARGS, "the values as nested Python lists"},
    {"size", (PyCFunction)(void (*)(void))m_size, METH_FASTCALL | METH_KEYWORDS,
     "size(dim=None): the shape, or the size of one dim"},
    {"stride", (PyCFunction)(void (*)(void))m_stride, METH_FASTCALL | METH_KEYWORDS,
     "stride(dim=None): element strides"},
    {"dim", m_dim, METH_NOARGS, "the number of dims"},
    {"ndimension", m_dim, METH_NOARGS, "the number of dims"},
    {"numel", m_numel, METH_NOARGS, "the number of elements"},
    {"nelement", m_numel, METH_NOARGS, "the number of elements"},
    {"element_size", m_element_size, METH_NOARGS, "bytes per element"},
    {"storage_offset", m_storage_offset, METH_NOARGS, "offset into the storage, in elements"},
    {"data_ptr", m_data_ptr, METH_NOARGS, "the address of the first element"},
    {"is_contiguous", (PyCFunction)(void (*)(void))m_is_contiguous, METH_FASTCALL | METH_KEYWORDS,
     "whether the elements are laid out row-major without gaps"},
    {"is_floating_point", m_is_floating_point, METH_NOARGS, "whether the dtype is a float"},
    {"detach", m_detach, METH_NOARGS, "the same values without autograd history"},
    {"detach_", m_detach_, METH_NOARGS, "drop the autograd history in place"},
    {"requires_grad_", (PyCFunction)(void (*)(void))m_requires_grad_, METH_FASTCALL | METH_KEYWORDS,
     "requires_grad_(requires_grad=True)"},
    {"retain_grad", m_retain_grad, METH_NOARGS, "keep .grad of a non-leaf after backward"},
    {"zero_", m_zero_, METH_NOARGS, "fill with zeros in place"},
    {"_is_view", m_is_view, METH_NOARGS, "whether it is a view of another tensor (_base)"},
    {"fill_", (PyCFunction)(void (*)(void))m_fill_, METH_FASTCALL | METH_KEYWORDS,
     "fill_(value): fill in place"},
    {"copy_", (PyCFunction)(void (*)(void))m_copy_, METH_FASTCALL | METH_KEYWORDS,
     "copy_(src): copy src's values in (src broadcasts)"},
    {"numpy", (PyCFunction)(void (*)(void))m_numpy, METH_FASTCALL | METH_KEYWORDS,
     "a NumPy array sharing this tensor's memory"},
    {"_repr_html_", m_repr_html, METH_NOARGS, "an HTML summary for Jupyter"},
    {NULL, NULL, 0, NULL},
};

PyMethodDef py_tensor_module_functions[] = {
    {"_make_subclass", f_make_subclass, METH_VARARGS, NULL},
    {"_alias_as", f_alias_as, METH_VARARGS, NULL},
    {"_set_tensor_class", f_set_tensor_class, METH_O, NULL},
    {"_set_printoptions", f_set_printoptions, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef retains_getset[] = {
    {"retains_grad", m_retains_grad, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static Py_hash_t tensor_hash(PyObject *self) {
    return _Py_HashPointer(self);
}

PyTypeObject py_tensor_base_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._TensorBase",
    .tp_basicsize = sizeof(py_tensor),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_dealloc = tensor_dealloc,
    .tp_traverse = tensor_traverse,
    .tp_clear = tensor_clear,
    .tp_repr = tensor_repr,
    .tp_hash = tensor_hash,
    .tp_as_number = &tensor_as_number,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_as_buffer = &tensor_as_buffer,
    .tp_richcompare = tensor_richcompare,
    .tp_getset = tensor_getset,
    .tp_dictoffset = offsetof(py_tensor, dict),
    .tp_weaklistoffset = offsetof(py_tensor, weakrefs),
    .tp_new = tensor_new,
    .tp_doc = "An n-dimensional array with autograd, backed by nndb's engine.",
};

int py_tensor_setup(PyObject *m, PyMethodDef *all_methods);
int py_tensor_setup(PyObject *m, PyMethodDef *all_methods) {
    py_tensor_base_type.tp_methods = all_methods;
    if (PyType_Ready(&py_tensor_base_type) < 0) return -1;
    /* retains_grad as a getset added after the others */
    for (PyGetSetDef *g = retains_getset; g->name; g++) {
        PyObject *d = PyDescr_NewGetSet(&py_tensor_base_type, g);
        if (!d || PyDict_SetItemString(py_tensor_base_type.tp_dict, g->name, d) < 0) {
            Py_XDECREF(d);
            return -1;
        }
        Py_DECREF(d);
    }
    PyType_Modified(&py_tensor_base_type);
    return PyModule_AddObjectRef(m, "_TensorBase", (PyObject *)&py_tensor_base_type);
}
