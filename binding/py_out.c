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
 * (for tuple outs: torch.return_types.NAME_out holding the out tensors).
 *
 * The functions PyTorch writes in C with an out= overload and nndb in
 * Python go through the same code: torch/_out.py wraps them with
 * _takes_out (addmm, cummax, mode, F.gelu, ...), and the Python functions
 * that take out= themselves (torch.linalg, special, fft, the legacy
 * linear algebra) hand their result to _out_write. A tuple result of any
 * length gets its NAME_out type from its own return type's name and
 * fields (out_type_of). The Tensor methods never take out= in PyTorch;
 * the methods that share these functions' code refuse it before parsing
 * (py_method_refuse_out, py_args.c). tests/opinfo/out.sh compares all of
 * it with PyTorch over its operator database. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "py.h"
#include "py_ops.h"

enum out_rule {
    OUT_CAST,            /* the result type must cast to out's dtype */
    OUT_SAME_C,          /* exactly the result's dtype, named as C types */
    OUT_FOUND,           /* exactly: "Found dtype Long but expected Float" */
    OUT_DOT,             /* exactly: "result dtype Long does not match input dtype Float" */
    OUT_IN_DTYPE,        /* computed in out's dtype: the input is cast first */
    OUT_FACTORY,         /* created in out's dtype (dtype= passed on) */
    OUT_ANY,             /* any dtype, the result cast into it */
    OUT_CAT,             /* castable, torch.cat's message */
    OUT_AMAX,            /* exactly, amax's message */
    OUT_BOOL,            /* bool (or uint8) only: all, any */
    OUT_SAME_SCALAR,     /* exactly, index_select's message */
    OUT_DIAG,            /* exactly: "expected scalar type Float but found Long" */
    OUT_NONZERO,         /* int64 only */
    OUT_TENSORDOT,       /* exactly, tensordot's message (inner) */
    OUT_NAN_TO_NUM,      /* exactly, nan_to_num's message */
    OUT_FLOAT_POWER,     /* exactly float64 */
    OUT_LOGSUMEXP,       /* a float dtype the result casts to */
    OUT_STD,             /* std, var: a float dtype; a float input computed in it */
    OUT_WHERE,           /* exactly, else PyTorch 1.13's internal assert */
    OUT_ADDC,            /* castable, then exactly (addcmul, addcdiv) */
    OUT_HISTC,           /* exactly, histogram's message */
    OUT_MEAN,            /* castable; a float input computed in a float out's dtype */
    OUT_NONE,            /* PyTorch's function takes no out= */
    OUT_MSG_OR,          /* exactly, the entry's message given (out, result) scalar names */
    OUT_MSG_RO,          /* exactly, the entry's message given (result, out) scalar names */
    OUT_MSG_RO_C,        /* exactly, the entry's message given (result, out) C type names */
    OUT_MSG_FIXED,       /* exactly, the entry's message as it is */
    OUT_SEARCHSORTED,    /* exactly, searchsorted's message */
    OUT_NORM,            /* torch.norm: any float or complex dtype */
    OUT_MSG_CAST,        /* castable, the entry's message given (result, out) scalar names */
    OUT_MSG_CAST_SAME_C, /* OUT_MSG_CAST, then exactly as OUT_SAME_C */
    OUT_MSG_FLOAT,       /* any float dtype, else the entry's message given out's name */
    OUT_TUPLE,           /* (values, indices): both exactly, C type names */
    OUT_TUPLE_MEDIAN,
    OUT_TUPLE_KTHVALUE,
    /* tuples of any length, written by finish_tuple: */
    OUT_TUPLE_ANY,      /* each exactly its result's dtype, C type names */
    OUT_TUPLE_CUM,      /* cummax, cummin: "expected scalar_type Float but found Double" */
    OUT_TUPLE_MODE,     /* mode's message */
    OUT_TUPLE_FREXP,    /* frexp's message */
    OUT_TUPLE_HIST,     /* histogram: hist as histc */
    OUT_TUPLE_CASTABLE, /* symeig, geqrf, lstsq: the first castable, their message */
    OUT_TUPLE_ANYDT,    /* torch.lu (Python in PyTorch): any dtype, cast */
};

/* The out argument's position in PyTorch's signature, for the message
 * about a tuple element that is not a tensor ("in argument 3"). */
typedef struct {
    const char *name;
    unsigned char rule, numbers, tuple_arg, special;
    const char *msg; /* the OUT_MSG_* rules' message, a format */
} out_entry;

/* out_entry.special: the functions py_out_call treats apart (named here
 * so the common path compares no names); SP_DIM: the reductions whose
 * out= overloads all take a dim (sum(x, out=t) fits none of PyTorch's);
 * SP_QUIET: resizes out without the warning (kernels that call resize_
 * themselves); SP_CLAMP: clamp with a tensor bound is a TensorIterator
 * op (castable), with numbers a unary kernel (exact); SP_NORM: torch.norm
 * with p='fro' (its default) or 'nuc' writes through the linalg norms,
 * which cast; SP_LINEAR: linear of a vector resizes out to [1, N] (with
 * the warning when that differs) before writing the [N] result */
enum {
    SP_NONE,
    SP_MATMUL,
    SP_GEMM,
    SP_POW,
    SP_MAX_MIN,
    SP_DIM,
    SP_QUIET,
    SP_CLAMP,
    SP_NORM,
    SP_LINEAR
};

/* Functions not listed follow OUT_CAST. Sorted by name (bsearch). */
static const out_entry out_table[] = {
    {"abs", OUT_FOUND, 0, 0, SP_NONE},
    {"absolute", OUT_FOUND, 0, 0, SP_NONE},
    {"add", OUT_CAST, 1, 0, SP_NONE},
    {"addbmm", OUT_MSG_FIXED, 0, 0, SP_QUIET, "self and mat2 must have the same dtype"},
    {"addcdiv", OUT_ADDC, 0, 0, SP_NONE},
    {"addcmul", OUT_ADDC, 0, 0, SP_NONE},
    {"addmm", OUT_SAME_C, 0, 0, SP_NONE},
    {"addmv", OUT_SAME_C, 0, 0, SP_NONE},
    {"all", OUT_BOOL, 0, 0, SP_NONE},
    {"allclose", OUT_NONE, 0, 0, SP_NONE},
    {"amax", OUT_AMAX, 0, 0, SP_NONE},
    {"amin", OUT_AMAX, 0, 0, SP_NONE},
    {"aminmax", OUT_TUPLE_ANY, 0, 3, SP_NONE},
    {"any", OUT_BOOL, 0, 0, SP_NONE},
    {"arange", OUT_FACTORY, 0, 0, SP_NONE},
    {"argmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"argmin", OUT_SAME_C, 0, 0, SP_NONE},
    {"argsort", OUT_NONE, 0, 0, SP_NONE},
    {"argwhere", OUT_NONE, 0, 0, SP_NONE},
    {"as_tensor", OUT_NONE, 0, 0, SP_NONE},
    {"avg_pool2d", OUT_SAME_C, 0, 0, SP_NONE},
    {"avg_pool3d", OUT_SAME_C, 0, 0, SP_NONE},
    {"baddbmm", OUT_SAME_C, 0, 0, SP_NONE},
    {"bincount", OUT_NONE, 0, 0, SP_NONE},
    {"bitwise_not", OUT_FOUND, 0, 0, SP_NONE},
    {"bmm", OUT_SAME_C, 0, 0, SP_NONE},
    {"broadcast_to", OUT_NONE, 0, 0, SP_NONE},
    {"bucketize", OUT_SEARCHSORTED, 0, 0, SP_NONE},
    {"cat", OUT_CAT, 0, 0, SP_NONE},
    {"ceil", OUT_FOUND, 0, 0, SP_NONE},
    {"cholesky", OUT_MSG_CAST, 0, 0, SP_NONE,
     "cholesky: Expected result to be safely castable from %s dtype, but got result with dtype %s"},
    {"cholesky_inverse", OUT_MSG_CAST, 0, 0, SP_NONE,
     "cholesky_inverse: Expected result to be safely castable from %s dtype, but got result with "
     "dtype %s"},
    {"cholesky_solve", OUT_MSG_CAST, 0, 0, SP_NONE,
     "cholesky_solve: Expected result to be safely castable from %s dtype, but got result with "
     "dtype %s"},
    {"chunk", OUT_NONE, 0, 0, SP_NONE},
    {"clamp", OUT_FOUND, 0, 0, SP_CLAMP},
    {"clip", OUT_FOUND, 0, 0, SP_CLAMP},
    {"clone", OUT_NONE, 0, 0, SP_NONE},
    {"column_stack", OUT_CAT, 0, 0, SP_NONE},
    {"concat", OUT_CAT, 0, 0, SP_NONE},
    {"concatenate", OUT_CAT, 0, 0, SP_NONE},
    {"conj_physical", OUT_FOUND, 0, 0, SP_NONE},
    {"count_nonzero", OUT_NONE, 0, 0, SP_NONE},
    {"cross", OUT_SAME_C, 0, 0, SP_NONE},
    {"cummax", OUT_TUPLE_CUM, 0, 2, SP_NONE},
    {"cummin", OUT_TUPLE_CUM, 0, 2, SP_NONE},
    {"cumprod", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"cumsum", OUT_IN_DTYPE, 0, 0, SP_NONE},
    {"diag", OUT_DIAG, 0, 0, SP_NONE},
    {"diagonal", OUT_NONE, 0, 0, SP_NONE},
    {"diff", OUT_MSG_RO, 0, 0, SP_NONE, "expected scalar_type %s but found %s"},
    {"div", OUT_CAST, 1, 0, SP_NONE},
    {"divide", OUT_CAST, 1, 0, SP_NONE},
    {"dot", OUT_DOT, 0, 0, SP_NONE},
    {"dstack", OUT_CAT, 0, 0, SP_NONE},
    {"empty", OUT_FACTORY, 0, 0, SP_NONE},
    {"empty_like", OUT_NONE, 0, 0, SP_NONE},
    {"equal", OUT_NONE, 0, 0, SP_NONE},
    {"eye", OUT_FACTORY, 0, 0, SP_NONE},
    {"fft_hfft", OUT_MSG_FLOAT, 0, 0, SP_NONE,
     "hfft expects a floating point output tensor, but got %s"},
    {"fft_hfftn", OUT_MSG_FLOAT, 0, 0, SP_NONE,
     "hfftn expects a floating point output tensor, but got %s"},
    {"fft_irfft", OUT_MSG_FLOAT, 0, 0, SP_NONE,
     "irfft expects a floating point output tensor, but got %s"},
    {"fft_irfftn", OUT_MSG_FLOAT, 0, 0, SP_NONE,
     "irfftn expects a floating point output tensor, but got %s"},
    {"fix", OUT_FOUND, 0, 0, SP_NONE},
    {"flatten", OUT_NONE, 0, 0, SP_NONE},
    {"flip", OUT_NONE, 0, 0, SP_NONE},
    {"fliplr", OUT_NONE, 0, 0, SP_NONE},
    {"flipud", OUT_NONE, 0, 0, SP_NONE},
    {"float_power", OUT_FLOAT_POWER, 0, 0, SP_NONE},
    {"floor", OUT_FOUND, 0, 0, SP_NONE},
    {"floor_divide", OUT_CAST, 1, 0, SP_NONE},
    {"frac", OUT_FOUND, 0, 0, SP_NONE},
    {"frexp", OUT_TUPLE_FREXP, 0, 1, SP_NONE},
    {"full", OUT_FACTORY, 0, 0, SP_NONE},
    {"full_like", OUT_NONE, 0, 0, SP_NONE},
    {"gather", OUT_SAME_C, 0, 0, SP_NONE},
    {"gelu", OUT_FOUND, 0, 0, SP_NONE},
    {"geqrf", OUT_TUPLE_CASTABLE, 0, 1, SP_NONE},
    {"hardshrink", OUT_FOUND, 0, 0, SP_NONE},
    {"heaviside", OUT_MSG_FIXED, 0, 0, SP_NONE,
     "heaviside is not yet implemented for tensors with different dtypes."},
    {"histc", OUT_HISTC, 0, 0, SP_NONE},
    {"histogram", OUT_TUPLE_HIST, 0, 2, SP_NONE},
    {"hstack", OUT_CAT, 0, 0, SP_NONE},
    {"index_add", OUT_SAME_C, 0, 0, SP_NONE},
    {"index_copy", OUT_SAME_C, 0, 0, SP_NONE},
    {"index_reduce", OUT_SAME_C, 0, 0, SP_NONE},
    {"index_select", OUT_SAME_SCALAR, 0, 0, SP_NONE},
    {"inner", OUT_TENSORDOT, 0, 0, SP_NONE},
    {"isclose", OUT_NONE, 0, 0, SP_NONE},
    {"isfinite", OUT_NONE, 0, 0, SP_NONE},
    {"isin", OUT_SAME_C, 0, 0, SP_NONE},
    {"isinf", OUT_NONE, 0, 0, SP_NONE},
    {"isnan", OUT_NONE, 0, 0, SP_NONE},
    {"isneginf", OUT_MSG_FIXED, 0, 0, SP_NONE, "isneginf does not support non-boolean outputs."},
    {"isposinf", OUT_MSG_FIXED, 0, 0, SP_NONE, "isposinf does not support non-boolean outputs."},
    {"kthvalue", OUT_TUPLE_KTHVALUE, 0, 4, SP_NONE},
    {"linalg_cholesky", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_cond", OUT_MSG_CAST, 0, 0, SP_NONE,
     "linalg.cond: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"linalg_cross", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_det", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_eigvalsh", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_householder_product", OUT_MSG_CAST, 0, 0, SP_NONE,
     "torch.linalg.householder_product: Expected result to be safely castable from %s dtype, but "
     "got result with dtype %s"},
    {"linalg_inv", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_ldl_solve", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_lstsq", OUT_TUPLE_CASTABLE, 0, 2, SP_NONE},
    {"linalg_lu_solve", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_matrix_norm", OUT_MSG_RO, 0, 0, SP_NONE,
     "linalg.matrix_norm expected out tensor dtype %s but got: %s"},
    {"linalg_matrix_power", OUT_MSG_CAST, 0, 0, SP_NONE,
     "matrix_power: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"linalg_multi_dot", OUT_MSG_RO_C, 0, 0, SP_NONE,
     "multi_dot(): expected out tensor to have dtype %s but got %s"},
    {"linalg_norm", OUT_MSG_RO, 0, 0, SP_NONE,
     "linalg.norm expected out tensor dtype %s but got: %s"},
    {"linalg_pinv", OUT_MSG_CAST, 0, 0, SP_NONE,
     "linalg.pinv: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"linalg_solve", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_solve_triangular", OUT_DIAG, 0, 0, SP_NONE},
    {"linalg_svdvals", OUT_SAME_C, 0, 0, SP_NONE},
    {"linalg_tensorinv", OUT_MSG_CAST, 0, 0, SP_NONE,
     "tensorinv: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"linalg_tensorsolve", OUT_MSG_CAST, 0, 0, SP_NONE,
     "tensorsolve: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"linalg_vecdot", OUT_MSG_RO, 0, 0, SP_NONE,
     "linalg.vecdot: Expected out of dtype%s but found %s"},
    {"linalg_vector_norm", OUT_SAME_C, 0, 0, SP_NONE},
    {"linear", OUT_SAME_C, 0, 0, SP_LINEAR},
    {"linspace", OUT_FACTORY, 0, 0, SP_NONE},
    {"log_sigmoid", OUT_DIAG, 0, 0, SP_QUIET},
    {"log_softmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"logcumsumexp", OUT_MSG_RO, 0, 0, SP_NONE, "expected scalar_type %s but found %s"},
    {"logspace", OUT_FACTORY, 0, 0, SP_NONE},
    {"logsumexp", OUT_LOGSUMEXP, 0, 0, SP_NONE},
    {"lu", OUT_TUPLE_ANYDT, 0, 3, SP_QUIET},
    {"lu_solve", OUT_SAME_C, 0, 0, SP_NONE},
    {"masked_fill", OUT_NONE, 0, 0, SP_NONE},
    {"masked_select", OUT_SAME_SCALAR, 0, 0, SP_NONE},
    {"matmul", OUT_SAME_C, 0, 0, SP_MATMUL},
    {"matrix_power", OUT_MSG_CAST_SAME_C, 0, 0, SP_NONE,
     "matrix_power: Expected result to be safely castable from %s dtype, but got result with dtype "
     "%s"},
    {"max", OUT_TUPLE, 0, 3, SP_MAX_MIN},
    {"mean", OUT_MEAN, 0, 0, SP_DIM},
    {"median", OUT_TUPLE_MEDIAN, 0, 3, SP_DIM},
    {"min", OUT_TUPLE, 0, 3, SP_MAX_MIN},
    {"mm", OUT_SAME_C, 0, 0, SP_GEMM},
    {"mode", OUT_TUPLE_MODE, 0, 3, SP_NONE},
    {"movedim", OUT_NONE, 0, 0, SP_NONE},
    {"msort", OUT_SAME_C, 0, 0, SP_NONE},
    {"mul", OUT_CAST, 1, 0, SP_NONE},
    {"multiply", OUT_CAST, 1, 0, SP_NONE},
    {"mv", OUT_SAME_C, 0, 0, SP_GEMM},
    {"nan_to_num", OUT_NAN_TO_NUM, 0, 0, SP_NONE},
    {"nanmedian", OUT_TUPLE_MEDIAN, 0, 3, SP_DIM},
    {"nanquantile", OUT_MSG_FIXED, 0, 0, SP_NONE,
     "quantile() out tensor must be same dtype as the input tensor"},
    {"narrow", OUT_NONE, 0, 0, SP_NONE},
    {"narrow_copy", OUT_MSG_FIXED, 0, 0, SP_QUIET,
     "Expected self.dtype() == output.dtype() to be true, but got false.  (Could this error "
     "message be improved?  If so, please report an enhancement request to PyTorch.)"},
    {"neg", OUT_FOUND, 0, 0, SP_NONE},
    {"negative", OUT_FOUND, 0, 0, SP_NONE},
    {"nonzero", OUT_NONZERO, 0, 0, SP_NONE},
    {"norm", OUT_NORM, 0, 0, SP_NORM},
    {"numel", OUT_NONE, 0, 0, SP_NONE},
    {"ones", OUT_FACTORY, 0, 0, SP_NONE},
    {"ones_like", OUT_NONE, 0, 0, SP_NONE},
    {"ormqr", OUT_MSG_RO, 0, 0, SP_NONE,
     "torch.ormqr: Expected input and result to have the same dtype, but input has dtype%s and "
     "result has dtype %s"},
    {"permute", OUT_NONE, 0, 0, SP_NONE},
    {"positive", OUT_NONE, 0, 0, SP_NONE},
    {"pow", OUT_CAST, 0, 0, SP_POW},
    {"prod", OUT_IN_DTYPE, 0, 0, SP_DIM},
    {"quantile", OUT_MSG_FIXED, 0, 0, SP_NONE,
     "quantile() out tensor must be same dtype as the input tensor"},
    {"rand", OUT_FACTORY, 0, 0, SP_NONE},
    {"rand_like", OUT_NONE, 0, 0, SP_NONE},
    {"randint", OUT_FACTORY, 0, 0, SP_NONE},
    {"randn", OUT_FACTORY, 0, 0, SP_NONE},
    {"randn_like", OUT_NONE, 0, 0, SP_NONE},
    {"randperm", OUT_FACTORY, 0, 0, SP_NONE},
    {"ravel", OUT_NONE, 0, 0, SP_NONE},
    {"relu", OUT_NONE, 0, 0, SP_NONE},
    {"renorm", OUT_SAME_C, 0, 0, SP_NONE},
    {"reshape", OUT_NONE, 0, 0, SP_NONE},
    {"roll", OUT_NONE, 0, 0, SP_NONE},
    {"round", OUT_FOUND, 0, 0, SP_NONE},
    {"row_stack", OUT_CAT, 0, 0, SP_NONE},
    {"scatter", OUT_SAME_C, 0, 0, SP_NONE},
    {"scatter_add", OUT_SAME_C, 0, 0, SP_NONE},
    {"scatter_reduce", OUT_SAME_C, 0, 0, SP_NONE},
    {"searchsorted", OUT_SEARCHSORTED, 0, 0, SP_NONE},
    {"select", OUT_NONE, 0, 0, SP_NONE},
    {"sgn", OUT_FOUND, 0, 0, SP_NONE},
    {"sign", OUT_FOUND, 0, 0, SP_NONE},
    {"signbit", OUT_MSG_FIXED, 0, 0, SP_NONE, "signbit does not support non-boolean outputs."},
    {"softmax", OUT_SAME_C, 0, 0, SP_NONE},
    {"softplus", OUT_FOUND, 0, 0, SP_NONE},
    {"softshrink", OUT_FOUND, 0, 0, SP_NONE},
    {"sort", OUT_TUPLE, 0, 3, SP_NONE},
    {"square", OUT_FOUND, 0, 0, SP_NONE},
    {"squeeze", OUT_NONE, 0, 0, SP_NONE},
    {"stack", OUT_CAT, 0, 0, SP_NONE},
    {"std", OUT_STD, 0, 0, SP_DIM},
    {"std_mean", OUT_NONE, 0, 0, SP_NONE},
    {"sub", OUT_CAST, 1, 0, SP_NONE},
    {"subtract", OUT_CAST, 1, 0, SP_NONE},
    {"sum", OUT_IN_DTYPE, 0, 0, SP_DIM},
    {"swapaxes", OUT_NONE, 0, 0, SP_NONE},
    {"swapdims", OUT_NONE, 0, 0, SP_NONE},
    {"symeig", OUT_TUPLE_CASTABLE, 0, 3, SP_NONE},
    {"t", OUT_NONE, 0, 0, SP_NONE},
    {"take", OUT_MSG_RO, 0, 0, SP_NONE,
     "take(): self and out expected to have the same dtype, but got self.dtype = %s and out.dtype "
     "= %s"},
    {"take_along_dim", OUT_SAME_C, 0, 0, SP_NONE},
    {"tensor", OUT_NONE, 0, 0, SP_NONE},
    {"tensordot", OUT_TENSORDOT, 0, 0, SP_NONE},
    {"tile", OUT_NONE, 0, 0, SP_NONE},
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
    {"var", OUT_STD, 0, 0, SP_DIM},
    {"var_mean", OUT_NONE, 0, 0, SP_NONE},
    {"vdot", OUT_DOT, 0, 0, SP_NONE},
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
    return e ? *e : (out_entry){name, OUT_CAST, 0, 0, SP_NONE, NULL};
}

/* The C++ type names PyTorch's "Expected out tensor to have dtype ..."
 * prints (typeid names of the scalar types, as gcc demangles them). */
const char *py_dtype_c_name(nn_dtype dt) {
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
        return refuse("Expected out tensor to have dtype %s, but got %s instead",
                      py_dtype_c_name(r), py_dtype_c_name(o));
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
    case OUT_MSG_OR:
    case OUT_MSG_RO:
    case OUT_MSG_RO_C:
    case OUT_MSG_FIXED: {
        if (r == o) return 0;
        const char *msg = lookup(name).msg;
        if (rule == OUT_MSG_FIXED) return refuse("%s", msg);
        if (rule == OUT_MSG_OR) return refuse(msg, os, rs);
        if (rule == OUT_MSG_RO) return refuse(msg, rs, os);
        return refuse(msg, py_dtype_c_name(r), py_dtype_c_name(o));
    }
    case OUT_MSG_CAST: return nn_dtype_can_cast(r, o) ? 0 : refuse(lookup(name).msg, rs, os);
    case OUT_MSG_FLOAT: return nn_dtype_is_float(o) ? 0 : refuse(lookup(name).msg, os);
    case OUT_MSG_CAST_SAME_C:
        if (!nn_dtype_can_cast(r, o)) return refuse(lookup(name).msg, rs, os);
        return check_dtype(name, OUT_SAME_C, r, o);
    case OUT_SEARCHSORTED:
        if (r == o) return 0;
        return refuse("torch.searchsorted(): output tensor's dtype is wrong, it can only be "
                      "Int(int32) or Long(int64) depending on whether out_int32 flag is True, but "
                      "we got output tensor's dtype %s and out_int32 flag is %s",
                      os, r == NN_INT32 ? "True" : "False");
    case OUT_NORM:
        if (nn_dtype_is_float(o) || nn_dtype_is_complex(o)) return 0;
        return refuse("\"norm_cpu\" not implemented for '%s'", os);
    case OUT_HISTC:
        if (r == o) return 0;
        return refuse("torch.histogram: input tensor and hist tensor should have the same dtype, "
                      "but got input %s and hist %s",
                      py_dtype_c_name(r), py_dtype_c_name(o));
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
 * for kthvalue and mode without keepdim, which compares shapes with that dim kept
 * (a 1 there in the result's, and in out's when it has the result's rank):
 * PyTorch 1.13 resizes its outs that way before squeezing the dim. */
enum { LEAD_ONE = -2 };
static int warn_resize(const nn_tensor *o, const nn_tensor *r, int kdim) {
    int64_t os[NN_MAX_DIMS + 1], rs[NN_MAX_DIMS + 1];
    int on = o->ndim, rn = r->ndim;
    memcpy(os, o->shape, sizeof o->shape);
    memcpy(rs, r->shape, sizeof r->shape);
    if (kdim == LEAD_ONE) { /* linear of a vector: out is made [1, N] first */
        memmove(rs + 1, rs, (size_t)rn * sizeof *rs);
        rs[0] = 1;
        rn++;
    } else if (kdim >= 0 && kdim <= rn) {
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
                            "elements with t.resize_(0). (Triggered internally at  "
                            "./aten/src/ATen/native/Resize.cpp:17.)",
                            nn_shape_str(a, sizeof a, on, os), nn_shape_str(b, sizeof b, rn, rs));
}

/* The factories resize out without the warning; arange warns in its own
 * words when the number of elements differs. */
static int warn_arange(const nn_tensor *o, const nn_tensor *r) {
    int64_t n = nn_tensor_numel(o), want = nn_tensor_numel(r);
    if (n == want || n == 0) return 0;
    char a[128];
    return PyErr_WarnFormat(
        PyExc_UserWarning, 1,
        "The number of elements in the out tensor of shape %s is %lld which does not match the "
        "computed number of elements %lld. Note that this may occur as a result of rounding "
        "error. The out tensor will be resized to a tensor of shape (%lld,). (Triggered "
        "internally at  ./aten/src/ATen/native/RangeFactories.cpp:188.)",
        nn_shape_str(a, sizeof a, o->ndim, o->shape), (long long)n, (long long)want,
        (long long)want);
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
    int checks = checks_of(name, rule), special = lookup(name).special;
    const nn_tensor *x = nin ? py_tensor_of(in[0]) : NULL;
    int kdim = special == SP_LINEAR && x && x->ndim == 1 ? LEAD_ONE : -1;
    if (((checks & CHECK_INTERNAL) && refuse_internal_overlap(o) < 0) ||
        ((checks & CHECK_PARTIAL) && refuse_input_overlap(o, in, nin, false) < 0) ||
        refuse_grad(name, r, o) < 0 || check_dtype(name, rule, r->dtype, o->dtype) < 0 ||
        (special != SP_QUIET && rule != OUT_FACTORY && warn_resize(o, r, kdim) < 0) ||
        (rule == OUT_FACTORY && !strcmp(name, "arange") && warn_arange(o, r) < 0) ||
        /* cat resizes out before it looks for overlap */
        ((checks & CHECK_ANY) && refuse_input_overlap(o, in, nin, true) < 0)) {
        Py_DECREF(result);
        return NULL;
    }
    return py_ops_out_result(result, out);
}

/* torch.return_types.NAME_out: what a function given a tuple out returns
 * (PyTorch's struct sequences for out= calls), made on first use. */
static const char *const tuple_names[] = {"sort",     "topk",   "max",      "min",
                                          "kthvalue", "median", "nanmedian"};
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

/* ---- tuple outs of any length (cummax, mode, aminmax, frexp, torch.qr,
 * linalg.svd, ...): the function's own result is a torch.return_types
 * tuple, and the out call returns NAME_out with the same fields ---- */

/* repr as torch's: one "field=value" line per field */
static PyObject *tuple_repr(PyObject *self) {
    PyObject *fields = PyObject_GetAttrString((PyObject *)Py_TYPE(self), "_fields");
    if (!fields) return NULL;
    PyObject *parts = PyList_New(0), *r = NULL;
    for (Py_ssize_t i = 0; parts && i < PyTuple_GET_SIZE(fields); i++) {
        PyObject *v = PyObject_Repr(PyStructSequence_GetItem(self, i));
        PyObject *line = v ? PyUnicode_FromFormat("%U=%U", PyTuple_GET_ITEM(fields, i), v) : NULL;
        Py_XDECREF(v);
        if (!line || PyList_Append(parts, line) < 0) Py_CLEAR(parts);
        Py_XDECREF(line);
    }
    PyObject *sep = parts ? PyUnicode_FromString(",\n") : NULL;
    PyObject *body = sep ? PyUnicode_Join(sep, parts) : NULL;
    if (body) r = PyUnicode_FromFormat("%s(\n%U)", Py_TYPE(self)->tp_name, body);
    Py_XDECREF(body);
    Py_XDECREF(sep);
    Py_XDECREF(parts);
    Py_DECREF(fields);
    return r;
}

/* The field names of a return type: _fields for the ones written in
 * Python (torch/linalg's _return_type), __match_args__ for struct
 * sequences; NULL without an exception for a plain tuple. */
static PyObject *fields_of(PyTypeObject *tp) {
    if (tp == &PyTuple_Type) return NULL;
    PyObject *f = PyObject_GetAttrString((PyObject *)tp, "_fields");
    if (!f) {
        PyErr_Clear();
        f = PyObject_GetAttrString((PyObject *)tp, "__match_args__");
    }
    if (f && PyTuple_Check(f)) return f;
    Py_XDECREF(f);
    PyErr_Clear();
    return NULL;
}

/* torch.return_types.NAME_out for a result of type torch.return_types.NAME
 * (a new reference; NULL with an exception; Py_None for a plain tuple).
 * Made once per result type and kept for the process: the struct
 * sequence's description points into memory never given back. */
static PyObject *out_type_of(PyTypeObject *rt) {
    static PyObject *made; /* result type -> out type */
    if (!made && !(made = PyDict_New())) return NULL;
    PyObject *t = PyDict_GetItemWithError(made, (PyObject *)rt);
    if (t || PyErr_Occurred()) return t ? Py_NewRef(t) : NULL;
    PyObject *fields = fields_of(rt);
    if (!fields) return Py_NewRef(Py_None);
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    const char *base = strrchr(rt->tp_name, '.');
    base = base ? base + 1 : rt->tp_name;
    while (*base == '_') base++; /* nndb's _frexp subclasses PyTorch's frexp */
    size_t len = strlen(base) + 32;
    char *name = PyMem_Malloc(len);
    PyStructSequence_Field *fs = PyMem_Calloc((size_t)n + 1, sizeof *fs);
    if (!name || !fs) {
        PyMem_Free(name);
        PyMem_Free(fs);
        Py_DECREF(fields);
        return PyErr_NoMemory();
    }
    snprintf(name, len, "torch.return_types.%s_out", base);
    for (Py_ssize_t i = 0; i < n; i++) {
        fs[i].name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(fields, i)); /* kept alive below */
        fs[i].doc = NULL;
    }
    PyStructSequence_Desc desc = {name, NULL, fs, (int)n};
    PyTypeObject *tp = PyStructSequence_NewType(&desc);
    if (tp) {
        tp->tp_repr = tuple_repr;
        PyType_Modified(tp);
    }
    /* the names stay alive with the type; _fields for tuple_repr */
    if (!tp || PyObject_SetAttrString((PyObject *)tp, "_fields", fields) < 0 ||
        PyDict_SetItem(made, (PyObject *)rt, (PyObject *)tp) < 0) {
        Py_XDECREF(tp);
        Py_DECREF(fields);
        return NULL;
    }
    Py_INCREF(fields); /* never given back: fs[i].name point into it */
    Py_DECREF(fields);
    return (PyObject *)tp;
}

/* The dtype check of out [k] of a tuple out, in the function's words. */
static int check_tuple_dtype(const char *name, int rule, PyTypeObject *rt, int k, nn_dtype r,
                             nn_dtype o) {
    const char *rs = nn_dtype_scalar_name(r), *os = nn_dtype_scalar_name(o);
    switch (rule) {
    case OUT_TUPLE_CUM: return r == o ? 0 : refuse("expected scalar_type %s but found %s", rs, os);
    case OUT_TUPLE_MODE:
        if (r == o) return 0;
        return refuse("expected scalar type '%s' but got '%s' for %s output", rs, os,
                      k ? "indices" : "values");
    case OUT_TUPLE_FREXP:
        if (r == o) return 0;
        return refuse("torch.frexp() expects %s to have dtype %s but got %s",
                      k ? "exponent" : "mantissa", py_dtype_c_name(r), py_dtype_c_name(o));
    case OUT_TUPLE_HIST: return check_dtype(name, OUT_HISTC, r, o);
    case OUT_TUPLE_ANYDT: return 0;
    case OUT_TUPLE_CASTABLE:
        if (k || nn_dtype_can_cast(r, o)) return 0;
        PyObject *f = fields_of(rt);
        const char *field =
            f && PyTuple_GET_SIZE(f) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(f, 0)) : "out";
        const char *api = strcmp(name, "symeig") == 0  ? "symeig"
                          : strcmp(name, "geqrf") == 0 ? "torch.geqrf"
                                                       : "torch.linalg.lstsq";
        refuse("%s: Expected %s to be safely castable from %s dtype, but got %s with dtype %s", api,
               field ? field : "out", rs, field ? field : "out", os);
        Py_XDECREF(f);
        return -1;
    }
    return check_dtype(name, OUT_TUPLE, r, o);
}

/* [result] (stolen): the function's tuple of tensors; [out]: a sequence
 * (PySequence_Fast) of as many tensors; [kdim]: as for warn_resize. */
static PyObject *finish_tuple(const char *name, int rule, PyObject *result, PyObject *out,
                              int kdim) {
    PyObject *ret = NULL, *tp = NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(out);
    bool quiet = lookup(name).special == SP_QUIET;
    if (!PyTuple_Check(result)) {
        PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", name,
                     Py_TYPE(out)->tp_name);
        goto done;
    }
    if (PyTuple_GET_SIZE(result) != n) {
        PyErr_Format(PyExc_TypeError, "expected tuple of %zd elements but got %zd",
                     PyTuple_GET_SIZE(result), n);
        goto done;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        const nn_tensor *r = py_tensor_of(PyTuple_GET_ITEM(result, k));
        const nn_tensor *o = py_tensor_of(PySequence_Fast_GET_ITEM(out, k));
        if (!r || !o) {
            PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument 'out'", k);
            goto done;
        }
        if (refuse_internal_overlap(o) < 0 || refuse_grad(name, r, o) < 0 ||
            check_tuple_dtype(name, rule, Py_TYPE(result), (int)k, r->dtype, o->dtype) < 0)
            goto done;
    }
    tp = out_type_of(Py_TYPE(result));
    if (!tp) goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *res = PyTuple_GET_ITEM(result, k), *o = PySequence_Fast_GET_ITEM(out, k);
        if (!quiet && warn_resize(py_tensor_of(o), py_tensor_of(res), kdim) < 0) goto done;
        PyObject *w = py_ops_out_result(Py_NewRef(res), o);
        if (!w) goto done;
        Py_DECREF(w);
    }
    /* a plain tuple result (torch.lu's, written in Python in PyTorch too):
     * the out given is returned, as PyTorch's Python code does */
    ret = tp == Py_None ? Py_NewRef(out) : PyStructSequence_New((PyTypeObject *)tp);
    for (Py_ssize_t k = 0; ret && tp != Py_None && k < n; k++)
        PyStructSequence_SetItem(ret, k, Py_NewRef(PySequence_Fast_GET_ITEM(out, k)));
done:
    Py_XDECREF(tp);
    Py_DECREF(result);
    return ret;
}

/* A tuple out must be two tensors; PyTorch's argument parser says so
 * before the function runs. */
static int check_pair_arg(const out_entry *e, PyObject *out) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(out);
    if (e->rule >= OUT_TUPLE_ANY) n = 2; /* checked against the result's length */
    if (n != 2) {
        PyErr_Format(PyExc_TypeError, "expected tuple of 2 elements but got %zd", n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(out); k++) {
        PyObject *t = PySequence_Fast_GET_ITEM(out, k);
        if (py_tensor_check(t)) continue;
        PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument %d, but got %s",
                     k, (int)e->tuple_arg, Py_TYPE(t)->tp_name);
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

/* kthvalue(input, k, dim=-1, keepdim=False) ([pos] 2) and mode(input,
 * dim=-1, keepdim=False) ([pos] 1): the dim they reduce when keepdim is
 * false, else -1 */
static int kth_dim(const nn_tensor *x, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   int pos) {
    PyObject *dim = nargs > pos ? args[pos] : NULL, *keep = nargs > pos + 1 ? args[pos + 1] : NULL;
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

/* Whether one of the [n] objects is a tensor. */
static bool any_tensor(PyObject *const *objs, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++)
        if (py_tensor_check(objs[i])) return true;
    return false;
}

/* Whether torch.norm's p is a string or not given (the default, 'fro'). */
static bool norm_fro(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *p = nargs >= 2 ? args[1] : NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "p") == 0)
            p = args[nargs + i];
    return !p || p == Py_None || PyUnicode_Check(p);
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

/* "(Tensor, int, out=Tensor)": the types of a call's arguments, as
 * PyTorch's argument parser lists them (out= first among the keywords) */
static void got_types(char *got, size_t size, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames, Py_ssize_t at) {
    int n = 0;
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    got[0] = 0;
    for (Py_ssize_t i = 0; i < nargs && n < (int)size - 64; i++)
        n += snprintf(got + n, size - (size_t)n, "%s%s", i ? ", " : "", arg_type(args[i]));
    for (Py_ssize_t j = -1; j < nkw && n < (int)size - 64; j++) {
        Py_ssize_t k = j < 0 ? at : j;
        if (j >= 0 && k == at) continue;
        n += snprintf(got + n, size - (size_t)n, "%s%s=%s", n ? ", " : "",
                      PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k)), arg_type(args[nargs + k]));
    }
}

/* PyTorch's argument parser's refusal of max and min with an out that
 * fits none of their overloads. */
static void invalid_max_min(const char *name, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames, Py_ssize_t at) {
    char got[256];
    got_types(got, sizeof got, args, nargs, kwnames, at);
    PyErr_Format(PyExc_TypeError,
                 "%s() received an invalid combination of arguments - got (%s), but expected one "
                 "of:\n * (Tensor input)\n * (Tensor input, Tensor other, *, Tensor out)\n * "
                 "(Tensor input, int dim, bool keepdim, *, tuple of Tensors out)\n * (Tensor "
                 "input, name dim, bool keepdim, *, tuple of Tensors out)\n",
                 name, got);
}

/* Whether a reduction's call names a dim (SP_DIM): its second positional
 * argument (not std/var's unbiased, a bool), or dim=. */
static bool has_dim(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    if (nargs >= 2 && !PyBool_Check(args[1])) return true;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "dim") == 0 &&
            args[nargs + i] != Py_None)
            return true;
    return false;
}

/* The parser's refusal of a call that fits none of the overloads of a
 * function with several (sum(x, out=t)). The first line is PyTorch's; the
 * list of its signatures that follows there is not repeated. */
static void invalid_call(const char *name, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames, Py_ssize_t at) {
    char got[256];
    got_types(got, sizeof got, args, nargs, kwnames, at);
    PyErr_Format(PyExc_TypeError,
                 "%s() received an invalid combination of arguments - got (%s), but expected one "
                 "of:\n * the signatures of torch.%s that take out= (help(torch.%s))",
                 name, got, name, name);
}

static PyObject *out_call(PyObject *fn, const char *name, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames, Py_ssize_t at);

PyObject *py_out_call(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      Py_ssize_t at) {
    PyObject *name_obj = PyObject_GetAttrString(fn, "__name__");
    const char *name = name_obj ? PyUnicode_AsUTF8(name_obj) : NULL;
    PyObject *r = name ? out_call(fn, name, args, nargs, kwnames, at) : NULL;
    Py_XDECREF(name_obj);
    return r;
}

static PyObject *out_call(PyObject *fn, const char *name, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames, Py_ssize_t at) {
    Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    if (nargs + nkw > 16) {
        PyErr_SetString(PyExc_TypeError, "out=: too many arguments");
        return NULL;
    }
    out_entry e = lookup(name);
    if (e.rule == OUT_NONE) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument 'out'", name);
        return NULL;
    }
    if (e.rule == OUT_BOOL && py_ops_any_all_fits(name, false, args, nargs, kwnames) < 0)
        return NULL; /* its message names out= too */
    /* cummax, cummin, mode: a tensor out fits none of their overloads (a
     * dim by name among them) */
    bool dimnames = e.rule == OUT_TUPLE_CUM || e.rule == OUT_TUPLE_MODE;
    if ((e.special == SP_DIM && !has_dim(args, nargs, kwnames)) ||
        (dimnames && !PyTuple_Check(args[nargs + at]) && !PyList_Check(args[nargs + at]))) {
        invalid_call(name, args, nargs, kwnames, at);
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
    /* the call without out= (and, for factories, with out's dtype; a dtype=
     * given must be out's) */
    bool add_dtype = o && e.rule == OUT_FACTORY;
    for (Py_ssize_t i = 0; i < nkw && add_dtype; i++) {
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "dtype")) continue;
        add_dtype = false;
        PyObject *dt = args[nargs + i];
        nn_dtype given;
        if (dt != Py_None && py_dtype_arg(dt, &given) == 0 && given != o->dtype) {
            refuse("dtype %s does not match dtype of out parameter (%s)",
                   nn_dtype_scalar_name(given), nn_dtype_scalar_name(o->dtype));
            goto done;
        }
        PyErr_Clear(); /* a dtype= that is none: the function says so */
    }
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
    if (e.special == SP_CLAMP && any_tensor(stack + 1, nargs - 1 + nk)) rule = OUT_CAST;
    if (e.special == SP_NORM && norm_fro(args, nargs, kwnames)) rule = OUT_ANY;
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
    if (seq && rule >= OUT_TUPLE_ANY) {
        ret = finish_tuple(name, rule, result, seq,
                           rule == OUT_TUPLE_MODE ? kth_dim(x, args, nargs, kwnames, 1) : -1);
    } else if (seq) {
        ret = finish_pair(name, rule, result, seq,
                          rule == OUT_TUPLE_KTHVALUE ? kth_dim(x, args, nargs, kwnames, 2) : -1);
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
    return ret;
}

/* ---- out= for functions written in Python ---- */

PyObject *py_fn_class_new(PyObject *fn, PyObject *name) {
    py_fn_class *c = PyMem_Calloc(1, sizeof *c);
    if (!c) return PyErr_NoMemory();
    /* a static type made at run time: its first reference is never
     * dropped, so the type (not a heap type) is never deallocated */
    Py_SET_TYPE(&c->type, &PyType_Type);
    Py_SET_REFCNT(&c->type, 1);
    c->type.tp_name = "torch._C._VariableFunctionsClass";
    c->type.tp_basicsize = sizeof(PyObject);
    c->type.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION;
    if (PyType_Ready(&c->type) < 0) {
        PyMem_Free(c);
        return NULL;
    }
    c->fn = Py_NewRef(fn);
    c->name = Py_XNewRef(name);
    return Py_NewRef((PyObject *)c);
}

/* The out= wrapper of a Python function: self is a py_fn_class holding the
 * function and its name, PyTorch's (linalg_cross, special_xlogy) for
 * out_table's rules and the messages. A call without out= goes straight
 * through. */
static PyObject *named_wrapper(PyObject *self, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    PyObject *fn = ((py_fn_class *)self)->fn;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0,
               at = -1;
    for (Py_ssize_t i = 0; i < nkw; i++)
        if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "out") == 0) at = i;
    if (at < 0 || args[nargs + at] == Py_None)
        return PyObject_Vectorcall(fn, args, nargsf, kwnames);
    const char *name = PyUnicode_AsUTF8(((py_fn_class *)self)->name);
    return name ? out_call(fn, name, args, nargs, kwnames, at) : NULL;
}

/* _takes_out(fn, name): a builtin that calls Python function [fn] and
 * takes out= as the functions of torch._C do (py_out_call), for the
 * functions PyTorch writes in C with an out= and nndb in Python (addmm,
 * cummax, mode, F.gelu, ...). Its PyMethodDef lives as long as the
 * process: these are made once, at import. */
static PyObject *f_takes_out(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    if (nargs != 2 || !PyCallable_Check(args[0]) || !PyUnicode_Check(args[1]))
        return PyErr_Format(PyExc_TypeError, "_takes_out(fn, name)");
    PyObject *self = py_fn_class_new(args[0], args[1]);
    PyObject *fname = PyObject_GetAttrString(args[0], "__name__");
    PyObject *doc = PyObject_GetAttrString(args[0], "__doc__");
    PyObject *mod = PyObject_GetAttrString(args[0], "__module__");
    PyMethodDef *def = PyMem_Calloc(1, sizeof *def);
    PyObject *r = NULL;
    if (!self || !fname || !doc || !mod || !def) goto done;
    def->ml_name = PyUnicode_AsUTF8(fname); /* fname and doc are kept alive */
    def->ml_meth = (PyCFunction)(void (*)(void))named_wrapper;
    def->ml_flags = METH_FASTCALL | METH_KEYWORDS;
    def->ml_doc = PyUnicode_Check(doc) ? PyUnicode_AsUTF8(doc) : NULL;
    r = PyCFunction_NewEx(def, self, mod);
    if (r) {
        def = NULL;
        Py_INCREF(fname);
        Py_INCREF(doc);
    }
done:
    PyMem_Free(def);
    Py_XDECREF(self);
    Py_XDECREF(fname);
    Py_XDECREF(doc);
    Py_XDECREF(mod);
    return r;
}

/* _out_write(result, out, name): what a Python function that takes out=
 * itself (torch.linalg.*, torch.special.*, torch.fft.*) does with it:
 * PyTorch's checks under [name]'s rule (the grad refusal, the dtype, the
 * resize warning), then result written into out; returns out, or for a
 * tuple result torch.return_types.NAME_out of the outs. */
static PyObject *f_out_write(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    if (nargs != 3 || !PyUnicode_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "_out_write(result, out, name)");
    const char *name = PyUnicode_AsUTF8(args[2]);
    if (!name) return NULL;
    PyObject *result = args[0], *out = args[1];
    out_entry e = lookup(name);
    if (PyTuple_Check(result)) {
        if (!PyTuple_Check(out) && !PyList_Check(out))
            return PyErr_Format(PyExc_TypeError,
                                "%s(): argument 'out' must be tuple of Tensors, not %s", name,
                                Py_TYPE(out)->tp_name);
        PyObject *seq = PySequence_Fast(out, "out");
        if (!seq) return NULL;
        PyObject *r = finish_tuple(name, e.rule >= OUT_TUPLE_ANY ? e.rule : OUT_TUPLE_ANY,
                                   Py_NewRef(result), seq, -1);
        Py_DECREF(seq);
        return r;
    }
    if (!py_tensor_check(out))
        return PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %s", name,
                            Py_TYPE(out)->tp_name);
    return finish_one(name, e.rule, Py_NewRef(result), out, NULL, 0);
}

PyMethodDef py_out_functions[] = {
    {"_takes_out", (PyCFunction)(void (*)(void))f_takes_out, METH_FASTCALL,
     "_takes_out(fn, name): fn with PyTorch's out= handling"},
    {"_out_write", (PyCFunction)(void (*)(void))f_out_write, METH_FASTCALL,
     "_out_write(result, out, name): result written into out as out= does"},
    {NULL, NULL, 0, NULL},
};
