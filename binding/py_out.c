/* py_out: out= for every function of torch._C, as PyTorch 1.13 does it.
 *
 * Each METH_FASTCALL|METH_KEYWORDS function of the module is wrapped once at
 * import (py_module.c add_functions): the wrapper holds the original as its
 * self and passes a call without out= (or with out=None) straight to it. A
 * call with out= runs the function without it and writes the result into
 * out; before the write come PyTorch's checks, in PyTorch's words:
 * - out's type: a Tensor, or for the functions that return (values,
 *   indices) a tuple or list of two Tensors; add, sub, mul, div and their
 *   aliases also take a Python number, made a 0-dim tensor as PyTorch's
 *   argument parser does (so torch.add(x, 1, out=3) fails on the cast);
 * - autograd: while grad mode is on, a result that requires grad is refused;
 * - the dtype: most functions accept any out dtype the result casts to
 *   ("result type Float can't be cast to the desired output type Long"),
 *   but many of PyTorch's kernels check out's dtype their own way: the mm
 *   family wants exactly the result's dtype, neg/abs/floor/clamp ("Found
 *   dtype Long but expected Float") too, sum/prod/cumsum compute in out's
 *   dtype, factories (zeros, arange, randn...) create in it, and a dozen
 *   others have their own message; the table below says which is which,
 *   each entry measured against PyTorch 1.13 (tests/py/out_argument.py,
 *   tests/py/out_tuple.py);
 * - the shape: out is resized to the result's (PyTorch's deprecation
 *   warning when it had elements); a same-shape view stays a view.
 * The function's own result is then copied into out and out is returned
 * (for tuple outs: torch.return_types.NAME_out holding the out tensors). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "py.h"
#include "py_ops.h"

enum out_rule {
    OUT_CAST,        /* the result type must cast to out's dtype */
    OUT_SAME_C,      /* exactly the result's dtype, named as C types */
    OUT_FOUND,       /* exactly: "Found dtype Long but expected Float" */
    OUT_DOT,         /* exactly: "result dtype Long does not match input dtype Float" */
    OUT_IN_DTYPE,    /* computed in out's dtype: the input is cast first */
    OUT_FACTORY,     /* created in out's dtype (dtype= passed on) */
    OUT_ANY,         /* any dtype, the result cast into it */
    OUT_CAT,         /* castable, torch.cat's message */
    OUT_AMAX,        /* exactly, amax's message */
    OUT_BOOL,        /* bool (or uint8) only: all, any */
    OUT_SAME_SCALAR, /* exactly, index_select's message */
    OUT_DIAG,        /* exactly: "expected scalar type Float but found Long" */
    OUT_NONZERO,     /* int64 only */
    OUT_TENSORDOT,   /* exactly, tensordot's message (inner) */
    OUT_NAN_TO_NUM,  /* exactly, nan_to_num's message */
    OUT_FLOAT_POWER, /* exactly float64 */
    OUT_LOGSUMEXP,   /* a float dtype the result casts to */
    OUT_STD,         /* std, var: a float dtype; a float input computed in it */
    OUT_WHERE,       /* exactly, else PyTorch 1.13's internal assert */
    OUT_ADDC,        /* castable, then exactly (addcmul, addcdiv) */
    OUT_HISTC,       /* exactly, histogram's message */
    OUT_MEAN,        /* castable; a float input computed in a float out's dtype */
    OUT_NONE,        /* PyTorch's function takes no out= */
    OUT_TUPLE,       /* (values, indices): both exactly, C type names */
    OUT_TUPLE_MEDIAN,
    OUT_TUPLE_KTHVALUE,
};

/* The out argument's position in PyTorch's signature, for the message
 * about a tuple element that is not a tensor ("in argument 3"). */
typedef struct {
    const char *name;
    unsigned char rule, numbers, tuple_arg, special;
} out_entry;

/* out_entry.special: the functions py_out_call treats apart (named here
 * so the common path compares no names) */
enum { SP_NONE, SP_MATMUL, SP_GEMM, SP_POW, SP_MAX_MIN };

/* Functions not listed follow OUT_CAST. Sorted by name (bsearch). */
static const out_entry out_table[] = {
    {"abs", OUT_FOUND, 0, 0, SP_NONE},
    {"absolute", OUT_FOUND, 0, 0, SP_NONE},
    {"add", OUT_CAST, 1, 0, SP_NONE},
    {"addcdiv", OUT_ADDC, 0, 0, SP_NONE},
    {"addcmul", OUT_ADDC, 0, 0, SP_NONE},
    {"all", OUT_BOOL, 0, 0, SP_NONE},
    {"allclose", OUT_NONE, 0, 0, SP_NONE},
    {"amax", OUT_AMAX, 0, 0, SP_NONE},
    {"amin", OUT_AMAX, 0, 0, SP_NONE},
    {"any", OUT_BOOL, 0, 0, SP_NONE},
    {"arange", OUT_FACTORY, 0, 0, SP_NONE},
    {"argmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"argmin", OUT_SAME_C, 0, 0, SP_NONE},
    {"argsort", OUT_NONE, 0, 0, SP_NONE},
    {"argwhere", OUT_NONE, 0, 0, SP_NONE},
    {"as_tensor", OUT_NONE, 0, 0, SP_NONE},
    {"bincount", OUT_NONE, 0, 0, SP_NONE},
    {"bmm", OUT_SAME_C, 0, 0, SP_NONE},
    {"cat", OUT_CAT, 0, 0, SP_NONE},
    {"ceil", OUT_FOUND, 0, 0, SP_NONE},
    {"chunk", OUT_NONE, 0, 0, SP_NONE},
    {"clamp", OUT_FOUND, 0, 0, SP_NONE},
    {"clip", OUT_FOUND, 0, 0, SP_NONE},
    {"clone", OUT_NONE, 0, 0, SP_NONE},
    {"concat", OUT_CAT, 0, 0, SP_NONE},
    {"concatenate", OUT_CAT, 0, 0, SP_NONE},
    {"count_nonzero", OUT_NONE, 0, 0, SP_NONE},
    {"cumprod", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"cumsum", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"diag", OUT_DIAG, 0, 0, SP_NONE},
    {"diagonal", OUT_NONE, 0, 0, SP_NONE},
    {"div", OUT_CAST, 1, 0, SP_NONE},
    {"divide", OUT_CAST, 1, 0, SP_NONE},
    {"dot", OUT_DOT, 0, 0, SP_NONE},
    {"empty_like", OUT_NONE, 0, 0, SP_NONE},
    {"equal", OUT_NONE, 0, 0, SP_NONE},
    {"eye", OUT_FACTORY, 0, 0, SP_NONE},
    {"fix", OUT_FOUND, 0, 0, SP_NONE},
    {"flatten", OUT_NONE, 0, 0, SP_NONE},
    {"fliplr", OUT_NONE, 0, 0, SP_NONE},
    {"flipud", OUT_NONE, 0, 0, SP_NONE},
    {"float_power", OUT_FLOAT_POWER, 0, 0, SP_NONE},
    {"floor", OUT_FOUND, 0, 0, SP_NONE},
    {"floor_divide", OUT_CAST, 1, 0, SP_NONE},
    {"frac", OUT_FOUND, 0, 0, SP_NONE},
    {"full", OUT_FACTORY, 0, 0, SP_NONE},
    {"full_like", OUT_NONE, 0, 0, SP_NONE},
    {"gather", OUT_SAME_C, 0, 0, SP_NONE},
    {"histc", OUT_HISTC, 0, 0, SP_NONE},
    {"hstack", OUT_CAT, 0, 0, SP_NONE},
    {"index_select", OUT_SAME_SCALAR, 0, 0, SP_NONE},
    {"inner", OUT_TENSORDOT, 0, 0, SP_NONE},
    {"isclose", OUT_NONE, 0, 0, SP_NONE},
    {"isfinite", OUT_NONE, 0, 0, SP_NONE},
    {"isinf", OUT_NONE, 0, 0, SP_NONE},
    {"isnan", OUT_NONE, 0, 0, SP_NONE},
    {"kthvalue", OUT_TUPLE_KTHVALUE, 0, 4, SP_NONE},
    {"linspace", OUT_FACTORY, 0, 0, SP_NONE},
    {"log_softmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"logsumexp", OUT_LOGSUMEXP, 0, 0, SP_NONE},
    {"masked_fill", OUT_NONE, 0, 0, SP_NONE},
    {"masked_select", OUT_SAME_SCALAR, 0, 0, SP_NONE},
    {"matmul", OUT_SAME_C, 0, 0, SP_MATMUL},
    {"max", OUT_TUPLE, 0, 3, SP_MAX_MIN},
    {"mean", OUT_MEAN, 0, 0, SP_NONE},
    {"median", OUT_TUPLE_MEDIAN, 0, 3, SP_NONE},
    {"min", OUT_TUPLE, 0, 3, SP_MAX_MIN},
    {"mm", OUT_SAME_C, 0, 0, SP_GEMM},
    {"movedim", OUT_NONE, 0, 0, SP_NONE},
    {"msort", OUT_SAME_C, 0, 0, SP_NONE},
    {"mul", OUT_CAST, 1, 0, SP_NONE},
    {"multiply", OUT_CAST, 1, 0, SP_NONE},
    {"mv", OUT_SAME_C, 0, 0, SP_GEMM},
    {"nan_to_num", OUT_NAN_TO_NUM, 0, 0, SP_NONE},
    {"narrow", OUT_NONE, 0, 0, SP_NONE},
    {"neg", OUT_FOUND, 0, 0, SP_NONE},
    {"negative", OUT_FOUND, 0, 0, SP_NONE},
    {"nonzero", OUT_NONZERO, 0, 0, SP_NONE},
    {"norm", OUT_ANY, 0, 0, SP_NONE},
    {"numel", OUT_NONE, 0, 0, SP_NONE},
    {"ones", OUT_FACTORY, 0, 0, SP_NONE},
    {"ones_like", OUT_NONE, 0, 0, SP_NONE},
    {"positive", OUT_NONE, 0, 0, SP_NONE},
    {"pow", OUT_CAST, 0, 0, SP_POW},
    {"prod", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"rand", OUT_FACTORY, 0, 0, SP_NONE},
    {"rand_like", OUT_NONE, 0, 0, SP_NONE},
    {"randint", OUT_FACTORY, 0, 0, SP_NONE},
    {"randn", OUT_FACTORY, 0, 0, SP_NONE},
    {"randn_like", OUT_NONE, 0, 0, SP_NONE},
    {"randperm", OUT_FACTORY, 0, 0, SP_NONE},
    {"ravel", OUT_NONE, 0, 0, SP_NONE},
    {"relu", OUT_NONE, 0, 0, SP_NONE},
    {"roll", OUT_NONE, 0, 0, SP_NONE},
    {"round", OUT_FOUND, 0, 0, SP_NONE},
    {"select", OUT_NONE, 0, 0, SP_NONE},
    {"sgn", OUT_FOUND, 0, 0, SP_NONE},
    {"sign", OUT_FOUND, 0, 0, SP_NONE},
    {"softmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"sort", OUT_TUPLE, 0, 3, SP_NONE},
    {"square", OUT_FOUND, 0, 0, SP_NONE},
    {"squeeze", OUT_NONE, 0, 0, SP_NONE},
    {"stack", OUT_CAT, 0, 0, SP_NONE},
    {"std", OUT_STD, 0, 0, SP_NONE},
    {"std_mean", OUT_NONE, 0, 0, SP_NONE},
    {"sub", OUT_CAST, 1, 0, SP_NONE},
    {"subtract", OUT_CAST, 1, 0, SP_NONE},
    {"sum", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"swapaxes", OUT_NONE, 0, 0, SP_NONE},
    {"swapdims", OUT_NONE, 0, 0, SP_NONE},
    {"t", OUT_NONE, 0, 0, SP_NONE},
    {"tensor", OUT_NONE, 0, 0, SP_NONE},
    {"topk", OUT_TUPLE, 0, 5, SP_NONE},
    {"trace", OUT_NONE, 0, 0, SP_NONE},
    {"transpose", OUT_NONE, 0, 0, SP_NONE},
    {"tril", OUT_SAME_C, 0, 0, SP_NONE},
    {"triu", OUT_SAME_C, 0, 0, SP_NONE},
    {"true_divide", OUT_CAST, 1, 0, SP_NONE},
    {"trunc", OUT_FOUND, 0, 0, SP_NONE},
    {"unbind", OUT_NONE, 0, 0, SP_NONE},
    {"unflatten", OUT_NONE, 0, 0, SP_NONE},
    {"unsqueeze", OUT_NONE, 0, 0, SP_NONE},
    {"var", OUT_STD, 0, 0, SP_NONE},
    {"var_mean", OUT_NONE, 0, 0, SP_NONE},
    {"vstack", OUT_CAT, 0, 0, SP_NONE},
    {"where", OUT_WHERE, 0, 0, SP_NONE},
    {"zeros", OUT_FACTORY, 0, 0, SP_NONE},
    {"zeros_like", OUT_NONE, 0, 0, SP_NONE},
};

static int by_name(const void *key, const void *entry) {
    return strcmp(key, ((const out_entry *)entry)->name);
}

/* out_table is sorted by name (strcmp order) */
static out_entry lookup(const char *name) {
    const out_entry *e = bsearch(name, out_table, sizeof out_table / sizeof out_table[0],
                                 sizeof out_table[0], by_name);
    return e ? *e : (out_entry){name, OUT_CAST, 0, 0, SP_NONE};
}

/* The C++ type names PyTorch's "Expected out tensor to have dtype ..."
 * prints (typeid names of the scalar types, as gcc demangles them). */
static const char *c_type_name(nn_dtype dt) {
    switch (dt) {
    case NN_FLOAT32: return "float";
    case NN_FLOAT64: return "double";
    case NN_INT64: return "long int";
    case NN_BOOL: return "bool";
    case NN_INT32: return "int";
    case NN_INT16: return "short int";
    case NN_INT8: return "signed char";
    case NN_UINT8: return "unsigned char";
    case NN_FLOAT16: return "c10::Half";
    case NN_BFLOAT16: return "c10::BFloat16";
    case NN_COMPLEX64: return "c10::complex<float>";
    case NN_COMPLEX128: return "c10::complex<double>";
    }
    return "?";
}

static int refuse(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyErr_FormatV(PyExc_RuntimeError, fmt, ap);
    va_end(ap);
    return -1;
}

/* PyTorch 1.13's where, addcmul and addcdiv write a result of another dtype
 * through a kernel that asserts it never has to; their out= then fails
 * with this internal assert, which nndb repeats so a script's output is
 * the same. */
static int loops_assert(int line) {
    return refuse("!needs_dynamic_casting<func_t>::check(iter) INTERNAL ASSERT FAILED at "
                  "\"./aten/src/ATen/native/cpu/Loops.h\":%d, please report a bug to PyTorch. ",
                  line);
}

/* 0 when a result of dtype [r] may be written into out of dtype [o] by
 * [name] under [rule]; else -1 with PyTorch's error set. */
static int check_dtype(const char *name, int rule, nn_dtype r, nn_dtype o) {
    const char *rs = nn_dtype_scalar_name(r), *os = nn_dtype_scalar_name(o);
    switch (rule) {
    case OUT_NONE: /* refused before the call */
    case OUT_IN_DTYPE:
    case OUT_FACTORY:
    case OUT_ANY: return 0;
    case OUT_SAME_C:
    case OUT_TUPLE:
        if (r == o) return 0;
        return refuse("Expected out tensor to have dtype %s, but got %s instead", c_type_name(r),
                      c_type_name(o));
    case OUT_FOUND: return r == o ? 0 : refuse("Found dtype %s but expected %s", os, rs);
    case OUT_DOT:
        return r == o ? 0 : refuse("result dtype %s does not match input dtype %s", os, rs);
    case OUT_CAT:
        if (nn_dtype_can_cast(r, o)) return 0;
        return refuse("torch.cat(): input types can't be cast to the desired output type %s", os);
    case OUT_AMAX:
        if (r == o) return 0;
        return refuse("Expected the dtype for input and out to match, but got %s for input's "
                      "dtype and %s for out's dtype.",
                      rs, os);
    case OUT_BOOL:
        if (o == NN_BOOL || o == NN_UINT8) return 0;
        return refuse("%s only supports bool tensor for result, got: %s", name, os);
    case OUT_SAME_SCALAR:
        return r == o ? 0 : refuse("%s(): self and result must have the same scalar type", name);
    case OUT_DIAG: return r == o ? 0 : refuse("expected scalar type %s but found %s", rs, os);
    case OUT_NONZERO:
        if (o == NN_INT64) return 0;
        /* sic: no space before the dtype in PyTorch's message */
        return refuse("nonzero: Expected out tensor to have scalar type Long but got scalar type%s",
                      os);
    case OUT_TENSORDOT:
        if (r == o) return 0;
        return refuse("tensordot: Expected the output tensor to have dtype %s, but got an output "
                      "tensor with dtype %s",
                      rs, os);
    case OUT_NAN_TO_NUM:
        return r == o ? 0
                      : refuse("nan_to_num: dtype of out: %s should be same as input: %s", os, rs);
    case OUT_FLOAT_POWER:
        if (r == o) return 0;
        return refuse("the output given to float_power has dtype %s but the operation's result "
                      "requires dtype %s",
                      os, rs);
    case OUT_LOGSUMEXP:
        if (!nn_dtype_is_float(o))
            return refuse(
                "logsumexp(): Expected floating point type for result tensor, but got: %s", os);
        break;
    case OUT_STD:
        if (!nn_dtype_is_float(o)) return refuse("\"std_cpu\" not implemented for '%s'", os);
        break;
    case OUT_WHERE: return r == o ? 0 : loops_assert(308);
    case OUT_ADDC:
        if (nn_dtype_can_cast(r, o)) return r == o ? 0 : loops_assert(347);
        break;
    case OUT_HISTC:
        if (r == o) return 0;
        return refuse("torch.histogram: input tensor and hist tensor should have the same dtype, "
                      "but got input %s and hist %s",
                      c_type_name(r), c_type_name(o));
    }
    return py_ops_check_cast_dtype(r, o);
}

static int refuse_grad(const char *name, const nn_tensor *r, const nn_tensor *o) {
    if (!r->requires_grad && !(o->requires_grad && py_ctx()->grad_enabled)) return 0;
    return refuse("%s(): functions with out=... arguments don't support automatic "
                  "differentiation, but one of the arguments requires grad.",
                  name);
}

/* PyTorch's warning when an out that had elements is resized. [kdim] >= 0
 * for kthvalue without keepdim, which compares shapes with that dim kept
 * (a 1 there in the result's, and in out's when it has the result's rank):
 * PyTorch 1.13 resizes its outs that way before squeezing the dim. */
static int warn_resize(const nn_tensor *o, const nn_tensor *r, int kdim) {
    int64_t os[NN_MAX_DIMS + 1], rs[NN_MAX_DIMS + 1];
    int on = o->ndim, rn = r->ndim;
    memcpy(os, o->shape, sizeof o->shape);
    memcpy(rs, r->shape, sizeof r->shape);
    if (kdim >= 0 && kdim <= rn) {
        if (on == rn) {
            memmove(os + kdim + 1, os + kdim, (size_t)(on - kdim) * sizeof *os);
            os[kdim] = 1;
            on++;
        }
        memmove(rs + kdim + 1, rs + kdim, (size_t)(rn - kdim) * sizeof *rs);
        rs[kdim] = 1;
        rn++;
    }
    bool same = on == rn && !memcmp(os, rs, (size_t)on * sizeof *os);
    if (same || nn_tensor_numel(o) == 0) return 0;
    char a[128], b[128];
    return PyErr_WarnFormat(PyExc_UserWarning, 1,
                            "An output with one or more elements was resized since it had shape "
                            "%s, which does not match the required output shape %s. This "
                            "behavior is deprecated, and in a future PyTorch release outputs "
                            "will not be resized unless they have zero elements. You can "
                            "explicitly reuse an out tensor t by resizing it, inplace, to zero "
                            "elements with t.resize_(0).",
                            nn_shape_str(a, sizeof a, on, os), nn_shape_str(b, sizeof b, rn, rs));
}

/* ---- memory overlap, as PyTorch's TensorIterator checks it ---- */

/* Whether [t]'s elements fill a block of its storage once each (some
 * permutation of a contiguous layout): the only case PyTorch compares. */
static bool dense(const nn_tensor *t) {
    int d[NN_MAX_DIMS], n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] != 1) d[n++] = i;
    for (int i = 1; i < n; i++) /* by stride, smallest first */
        for (int j = i; j > 0 && t->strides[d[j]] < t->strides[d[j - 1]]; j--) {
            int k = d[j];
            d[j] = d[j - 1];
            d[j - 1] = k;
        }
    int64_t expect = 1;
    for (int i = 0; i < n; i++) {
        if (t->strides[d[i]] != expect) return false;
        expect *= t->shape[d[i]];
    }
    return true;
}

enum { OVERLAP_NO, OVERLAP_FULL, OVERLAP_PARTIAL };

static int overlap(const nn_tensor *a, const nn_tensor *b) {
    if (a->storage != b->storage || !nn_tensor_numel(a) || !nn_tensor_numel(b) || !dense(a) ||
        !dense(b))
        return OVERLAP_NO; /* PyTorch: no overlap, or too hard to tell */
    int64_t ea = (int64_t)nn_dtype_size(a->dtype), eb = (int64_t)nn_dtype_size(b->dtype);
    int64_t a0 = a->offset * ea, a1 = a0 + nn_tensor_numel(a) * ea;
    int64_t b0 = b->offset * eb, b1 = b0 + nn_tensor_numel(b) * eb;
    if (a0 == b0 && a1 == b1) {
        bool same = a->ndim == b->ndim &&
                    !memcmp(a->strides, b->strides, (size_t)a->ndim * sizeof a->strides[0]);
        return same ? OVERLAP_FULL : OVERLAP_PARTIAL;
    }
    return a0 < b1 && b0 < a1 ? OVERLAP_PARTIAL : OVERLAP_NO;
}

/* An out with a stride-0 dim (an expanded tensor) writes one element
 * twice; PyTorch's kernels that go through TensorIterator refuse it. */
static int refuse_internal_overlap(const nn_tensor *o) {
    for (int i = 0; i < o->ndim; i++)
        if (o->strides[i] == 0 && o->shape[i] > 1)
            return refuse("unsupported operation: more than one element of the written-to tensor "
                          "refers to a single memory location. Please clone() the tensor before "
                          "performing the operation.");
    return 0;
}

/* The tensor arguments (and those in a list argument: cat's) that share
 * memory with [o]; -1 with PyTorch's error when one overlaps it partially,
 * or at all when [any] (cat, stack). */
static int refuse_input_overlap(const nn_tensor *o, PyObject *const *args, Py_ssize_t n, bool any) {
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = args[i];
        Py_ssize_t m = PyList_Check(a) || PyTuple_Check(a) ? PySequence_Fast_GET_SIZE(a) : 1;
        for (Py_ssize_t j = 0; j < m; j++) {
            nn_tensor *t = py_tensor_of(
                PyList_Check(a) || PyTuple_Check(a) ? PySequence_Fast_GET_ITEM(a, j) : a);
            int s = t ? overlap(o, t) : OVERLAP_NO;
            if (s == OVERLAP_PARTIAL || (any && s == OVERLAP_FULL))
                return refuse("unsupported operation: some elements of the input tensor and the "
                              "written-to tensor refer to a single memory location. Please clone() "
                              "the tensor before performing the operation.");
        }
    }
    return 0;
}

/* Whether [o] shares storage with a tensor argument. */
static bool shares_input(const nn_tensor *o, PyObject *const *args, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        nn_tensor *t = py_tensor_of(args[i]);
        if (t && t->storage == o->storage) return true;
    }
    return false;
}

/* Which overlap checks an out= call makes (PyTorch's TensorIterator ops,
 * cat, and the kernels that check for themselves). */
enum { CHECK_INTERNAL = 1, CHECK_PARTIAL = 2, CHECK_ANY = 4 };

static int checks_of(const char *name, int rule) {
    switch (rule) {
    case OUT_CAST:
    case OUT_FOUND:
    case OUT_WHERE:
    case OUT_ADDC: return CHECK_INTERNAL | CHECK_PARTIAL;
    case OUT_CAT: return CHECK_INTERNAL | CHECK_ANY;
    case OUT_IN_DTYPE: return name[0] == 'c' ? CHECK_INTERNAL | CHECK_PARTIAL : 0; /* cumsum */
    case OUT_SAME_C: return strncmp(name, "tri", 3) ? CHECK_INTERNAL : 0;
    case OUT_SAME_SCALAR:
    case OUT_DOT:
    case OUT_TUPLE:
    case OUT_TUPLE_MEDIAN:
    case OUT_TUPLE_KTHVALUE: return CHECK_INTERNAL;
    }
    return 0;
}

/* [in]: the call's arguments, for the overlap checks */
static PyObject *finish_one(const char *name, int rule, PyObject *result, PyObject *out,
                            PyObject *const *in, Py_ssize_t nin) {
    nn_tensor *r = py_tensor_of(result), *o = py_tensor_of(out);
    if (!r) {
        Py_DECREF(result);
        PyErr_Format(PyExc_TypeError, "%s(): out= is not supported for this call", name);
        return NULL;
    }
    int checks = checks_of(name, rule);
    if (((checks & CHECK_INTERNAL) && refuse_internal_overlap(o) < 0) ||
        ((checks & CHECK_PARTIAL) && refuse_input_overlap(o, in, nin, false) < 0) ||
        refuse_grad(name, r, o) < 0 || check_dtype(name, rule, r->dtype, o->dtype) < 0 ||
        warn_resize(o, r, -1) < 0 ||
        /* cat resizes out before it looks for overlap */
        ((checks & CHECK_ANY) && refuse_input_overlap(o, in, nin, true) < 0)) {
        Py_DECREF(result);
        return NULL;
    }
    return py_ops_out_result(result, out);
}

/* torch.return_types.NAME_out: what a function given a tuple out returns
 * (PyTorch's struct sequences for out= calls), made on first use. */
static const char *const tuple_names[] = {"sort", "topk", "max", "min", "kthvalue", "median"};
#define TUPLE_COUNT ((int)(sizeof tuple_names / sizeof tuple_names[0]))

static PyTypeObject *tuple_type(const char *name) {
    static PyTypeObject *types[TUPLE_COUNT];
    static char type_names[TUPLE_COUNT][48];
    static PyStructSequence_Field fields[] = {
        {"values", "the values"}, {"indices", "their indices"}, {NULL, NULL}};
    for (int k = 0; k < TUPLE_COUNT; k++) {
        if (strcmp(tuple_names[k], name)) continue;
        if (!types[k]) {
            snprintf(type_names[k], sizeof type_names[k], "torch.return_types.%s_out", name);
            PyStructSequence_Desc desc = {type_names[k], NULL, fields, 2};
            types[k] = PyStructSequence_NewType(&desc);
            if (!types[k]) return NULL;
            types[k]->tp_repr = py_ops_pair_repr;
            PyType_Modified(types[k]);
        }
        return types[k];
    }
    PyErr_Format(PyExc_TypeError, "%s(): out= is not supported for this call", name);
    return NULL;
}

static const char *tensor_type_name(nn_dtype dt, char *buf, size_t n) {
    snprintf(buf, n, "torch.%sTensor", nn_dtype_scalar_name(dt));
    return buf;
}

/* The dtype checks of a (values, indices) out, each function in its own
 * words: values as the input's dtype, indices int64. */
static int check_pair(const char *name, int rule, const nn_tensor *const r[2],
                      const nn_tensor *const o[2]) {
    char a[48], b[48];
    if (rule == OUT_TUPLE_MEDIAN) {
        if (r[0]->dtype != o[0]->dtype)
            return refuse("Expected tensor for 'values' to have the same type as tensor for "
                          "argument #2 'self'; but type %s does not equal %s (while checking "
                          "arguments for median)",
                          tensor_type_name(o[0]->dtype, a, sizeof a),
                          tensor_type_name(r[0]->dtype, b, sizeof b));
        if (o[1]->dtype != NN_INT64)
            return refuse("Expected tensor for argument #1 'indices' to have scalar type Long; but "
                          "got %s instead (while checking arguments for median)",
                          tensor_type_name(o[1]->dtype, a, sizeof a));
        return 0;
    }
    if (rule == OUT_TUPLE_KTHVALUE) {
        if (r[0]->dtype != o[0]->dtype)
            return refuse("output values must be of same type as input");
        if (o[1]->dtype != NN_INT64) return refuse("output indices must be of scalar type Long");
        return 0;
    }
    for (int k = 0; k < 2; k++)
        if (check_dtype(name, OUT_TUPLE, r[k]->dtype, o[k]->dtype) < 0) return -1;
    return 0;
}

static PyObject *finish_pair(const char *name, int rule, PyObject *result, PyObject *out,
                             int kdim) {
    PyObject *ret = NULL;
    if (!PyTuple_Check(result) || PyTuple_GET_SIZE(result) != 2 ||
        !py_tensor_check(PyTuple_GET_ITEM(result, 0)) ||
        !py_tensor_check(PyTuple_GET_ITEM(result, 1))) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", name,
                     Py_TYPE(out)->tp_name);
        goto done;
    }
    PyObject *res[2] = {PyTuple_GET_ITEM(result, 0), PyTuple_GET_ITEM(result, 1)};
    PyObject *outs[2] = {PySequence_Fast_GET_ITEM(out, 0), PySequence_Fast_GET_ITEM(out, 1)};
    const nn_tensor *r[2] = {py_tensor_of(res[0]), py_tensor_of(res[1])};
    const nn_tensor *o[2] = {py_tensor_of(outs[0]), py_tensor_of(outs[1])};
    if (refuse_internal_overlap(o[0]) < 0 || refuse_internal_overlap(o[1]) < 0 ||
        refuse_grad(name, r[0], o[0]) < 0 || refuse_grad(name, r[0], o[1]) < 0 ||
        check_pair(name, rule, r, o) < 0)
        goto done;
    PyTypeObject *tp = tuple_type(name);
    if (!tp) goto done;
    for (int k = 0; k < 2; k++) {
        if (warn_resize(o[k], r[k], kdim) < 0) goto done;
        PyObject *w = py_ops_out_result(Py_NewRef(res[k]), outs[k]);
        if (!w) goto done;
        Py_DECREF(w);
    }
    ret = PyStructSequence_New(tp);
    if (ret) {
        PyStructSequence_SetItem(ret, 0, Py_NewRef(outs[0]));
        PyStructSequence_SetItem(ret, 1, Py_NewRef(outs[1]));
    }
done:
    Py_DECREF(result);
    return ret;
}

/* A tuple out must be two tensors; PyTorch's argument parser says so
 * before the function runs. */
static int check_pair_arg(const out_entry *e, PyObject *out) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(out);
    if (n != 2) {
        PyErr_Format(PyExc_TypeError, "expected tuple of 2 elements but got %zd", n);
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        PyObject *t = PySequence_Fast_GET_ITEM(out, k);
        if (py_tensor_check(t)) continue;
        PyErr_Format(PyExc_TypeError, "expected Tensor as element %d in argument %d, but got %s", k,
                     (int)e->tuple_arg, Py_TYPE(t)->tp_name);
        return -1;
    }
    return 0;
}

/* A number given as out to add, sub, mul, div: PyTorch's argument parser
 * makes it a 0-dim tensor (int64, float64, bool or complex128), as for
 * their other tensor arguments. */
static PyObject *number_out(PyObject *out) {
    int dt = PyBool_Check(out)      ? NN_BOOL
             : PyLong_Check(out)    ? NN_INT64
             : PyFloat_Check(out)   ? NN_FLOAT64
             : PyComplex_Check(out) ? NN_COMPLEX128
                                    : -1;
    if (dt < 0) return NULL;
    nn_tensor *t = py_tensor_from_data(out, dt);
    return t ? py_tensor_wrap(t) : NULL;
}

/* kthvalue(input, k, dim=-1, keepdim=False): the dim it reduces when
 * keepdim is false, else -1 */
static int kth_dim(const nn_tensor *x, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *dim = nargs > 2 ? args[2] : NULL, *keep = nargs > 3 ? args[3] : NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(k, "dim") == 0) dim = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(k, "keepdim") == 0) keep = args[nargs + i];
    }
    if (!x || x->ndim == 0 || (keep && PyObject_IsTrue(keep) == 1)) return -1;
    long d = dim && PyLong_Check(dim) ? PyLong_AsLong(dim) : -1;
    if (d < 0) d += x->ndim;
    return d >= 0 && d < x->ndim ? (int)d : -1;
}

static const char *arg_type(PyObject *v) {
    return py_tensor_check(v) ? "Tensor" : Py_TYPE(v)->tp_name;
}

/* Whether max/min's arguments fit an overload with out=: max(x, y) with
 * a tensor out, max(x, dim) with a pair. max(x) takes no out. */
static bool max_min_fits(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, bool pair) {
    bool other = nargs >= 2 && py_tensor_check(args[1]), dim = nargs >= 2 && !other;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(k, "other") == 0) other = true;
        if (PyUnicode_CompareWithASCIIString(k, "dim") == 0) dim = true;
    }
    return pair ? dim : other;
}

/* PyTorch's argument parser's refusal of max and min with an out that
 * fits none of their overloads. */
static void invalid_max_min(const char *name, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames, Py_ssize_t at) {
    char got[256];
    int n = 0;
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nargs; i++)
        n += snprintf(got + n, sizeof got - (size_t)n, "%s%s", i ? ", " : "", arg_type(args[i]));
    /* the parser lists out= first among the keywords */
    for (Py_ssize_t j = -1; j < nkw && n < (int)sizeof got - 64; j++) {
        Py_ssize_t k = j < 0 ? at : j;
        if (j >= 0 && k == at) continue;
        n += snprintf(got + n, sizeof got - (size_t)n, "%s%s=%s", n ? ", " : "",
                      PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k)), arg_type(args[nargs + k]));
    }
    PyErr_Format(PyExc_TypeError,
                 "%s() received an invalid combination of arguments - got (%s), but expected one "
                 "of:\n * (Tensor input)\n * (Tensor input, Tensor other, *, Tensor out)\n * "
                 "(Tensor input, int dim, bool keepdim, *, tuple of Tensors out)\n * (Tensor "
                 "input, name dim, bool keepdim, *, tuple of Tensors out)\n",
                 name, got);
}

PyObject *py_out_call(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      Py_ssize_t at) {
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw > 16) {
        PyErr_SetString(PyExc_TypeError, "out=: too many arguments");
        return NULL;
    }
    PyObject *name_obj = PyObject_GetAttrString(fn, "__name__");
    const char *name = name_obj ? PyUnicode_AsUTF8(name_obj) : NULL;
    if (!name) {
        Py_XDECREF(name_obj);
        return NULL;
    }
    out_entry e = lookup(name);
    if (e.rule == OUT_NONE) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", name);
        Py_DECREF(name_obj);
        return NULL;
    }
    PyObject *out = Py_NewRef(args[nargs + at]), *seq = NULL, *result = NULL, *ret = NULL;
    PyObject *names = NULL, *first = NULL, *stack[17];
    bool pair = e.rule >= OUT_TUPLE;
    if (!py_tensor_check(out)) {
        PyObject *num = e.numbers ? number_out(out) : NULL;
        if (num) {
            Py_SETREF(out, num);
        } else if (PyErr_Occurred()) {
            goto done;
        } else if (pair && (PyTuple_Check(out) || PyList_Check(out))) {
            seq = PySequence_Fast(out, "out");
            if (!seq || check_pair_arg(&e, seq) < 0) goto done;
        } else {
            PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be %s, not %s", name,
                         pair ? "tuple of Tensors" : "Tensor", Py_TYPE(out)->tp_name);
            goto done;
        }
    }
    if (e.special == SP_MAX_MIN && !max_min_fits(args, nargs, kwnames, seq != NULL)) {
        invalid_max_min(name, args, nargs, kwnames, at);
        goto done;
    }
    nn_tensor *o = py_tensor_of(out);
    /* the call without out= (and, for factories, with out's dtype) */
    bool add_dtype = o && e.rule == OUT_FACTORY;
    for (Py_ssize_t i = 0; i < nkw && add_dtype; i++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "dtype") == 0)
            add_dtype = false;
    Py_ssize_t nk = nkw - 1 + add_dtype;
    names = PyTuple_New(nk);
    if (!names) goto done;
    for (Py_ssize_t i = 0; i < nargs; i++) stack[i] = args[i];
    for (Py_ssize_t i = 0, j = 0; i < nkw; i++) {
        if (i == at) continue;
        PyTuple_SET_ITEM(names, j, Py_NewRef(PyTuple_GET_ITEM(kwnames, i)));
        stack[nargs + j++] = args[nargs + i];
    }
    if (add_dtype) {
        PyTuple_SET_ITEM(names, nk - 1, PyUnicode_FromString("dtype"));
        stack[nargs + nk - 1] = py_dtype_object(o->dtype);
    }
    /* sum, prod, cumsum: PyTorch computes in out's dtype; mean, std and var
     * too when input and out are floats (logsumexp does part of its work
     * in out's dtype: not matched, its float64 outs differ in the last
     * bits) */
    nn_tensor *x = nargs ? py_tensor_of(args[0]) : NULL;
    bool floats = x && o && nn_dtype_is_float(x->dtype) && nn_dtype_is_float(o->dtype);
    bool cast_first =
        e.rule == OUT_IN_DTYPE || (floats && (e.rule == OUT_MEAN || e.rule == OUT_STD));
    if (o && e.rule == OUT_IN_DTYPE && o->dtype == NN_BOOL && name[0] == 'c') {
        refuse("\"%s_out_cpu\" not implemented for 'Bool'", name); /* cumsum, cumprod */
        goto done;
    }
    if (cast_first && x && x->dtype != o->dtype) {
        first = PyObject_CallMethod(args[0], "to", "O", py_dtype_object(o->dtype));
        if (!first) goto done;
        stack[0] = first;
    }
    result = PyObject_Vectorcall(fn, stack, (size_t)nargs, nk ? names : NULL);
    if (!result) goto done;
    int rule = e.rule;
    /* PyTorch's matmul writes out= through dot for two vectors and through
     * mm for two matrices (whose name its autograd refusal gives) */
    nn_tensor *y = x && nargs >= 2 ? py_tensor_of(args[1]) : NULL;
    bool matmul = e.special == SP_MATMUL && x && y;
    if (matmul && x->ndim == 1 && y->ndim == 1) rule = OUT_DOT;
    if (matmul && x->ndim == 2 && y->ndim == 2) name = "mm";
    /* pow(tensor, number) is a unary kernel in PyTorch, pow(tensor,
     * tensor) a binary one */
    if (e.special == SP_POW && x && nargs >= 2 && !py_tensor_check(args[1])) rule = OUT_FOUND;
    /* max(x) and min(x) take no out; max(x, 0) wants a tuple, max(x, y)
     * a tensor */
    /* PyTorch's mm, mv and matmul zero an out of the right shape before
     * the product, so an out that shares memory with an operand reads
     * zeros there (torch.mm(a, b, out=a) leaves a zero) */
    nn_tensor *rt = py_tensor_of(result);
    bool gemm = e.special == SP_GEMM || (matmul && x->ndim == 2 && y->ndim <= 2);
    if (gemm && rt && o && nn_tensor_same_shape(rt, o) && shares_input(o, stack, nargs + nk)) {
        PyObject *z = PyObject_CallMethod(out, "zero_", NULL);
        Py_XDECREF(z);
        Py_SETREF(result,
                  z ? PyObject_Vectorcall(fn, stack, (size_t)nargs, nk ? names : NULL) : NULL);
        if (!result) goto done;
    }
    if (seq) {
        ret = finish_pair(name, rule, result, seq,
                          rule == OUT_TUPLE_KTHVALUE ? kth_dim(x, args, nargs, kwnames) : -1);
    } else if (PyTuple_Check(result)) {
        Py_DECREF(result);
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be tuple of Tensors, not Tensor",
                     name);
    } else {
        ret = finish_one(name, pair ? OUT_CAST : rule, result, out, stack, nargs + nk);
    }
done:
    Py_XDECREF(first);
    Py_XDECREF(names);
    Py_XDECREF(seq);
    Py_DECREF(out);
    Py_DECREF(name_obj);
    return ret;
}
