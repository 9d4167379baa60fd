/* py_ops: what the op files of the torch extension (py_ops.c and
 * py_ops_*.c) share: argument matching, results that are several tensors
 * (tuples and torch.return_types), generators, dtype= casts, and the one
 * rule by which every in-place method (add_, exp_, clamp_, ...) writes its
 * result into self.
 *
 * Each area file defines its ops with PY_OP (py.h) and lists them in a
 * function table and a method table that py_module.c registers:
 *   py_ops_elementwise.c  unary and binary math, comparisons, clamp, where
 *   py_ops_reduce.c       sum, mean, var, max, argmax, cumsum, softmax, ...
 *   py_ops_shape.c        views, joins and splits, indexing ops, sorting,
 *                         matrix products and einsum
 *   py_ops_create.c       conversions (to, float, ...), new_*, random fills,
 *                         counting (one_hot, bincount, histc)
 */
#ifndef PY_OPS_H
#define PY_OPS_H

#include "nn_rng.h"
#include "py.h"

/* Match the arguments of [fname] against the names given (see py_parse);
 * a_[i] is the i-th, or NULL when not given. */
#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

/* PY_OP [name] whose implementation is [common]("name", EXTRA...) with the
 * call's args, nargs and kwnames: the aliases and variants that share one
 * implementation (cat, concat, stack; max, min; var, std, ...). Written
 * PY_OP_VIA(name, common, EXTRA...). */
#define PY_OP_VIA(name, ...)                                                                       \
    PY_OP(name)                                                                                    \
    static PyObject *name##_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {     \
        return PY_OP_VIA_CALL_(#name, __VA_ARGS__, args, nargs, kwnames);                          \
    }
#define PY_OP_VIA_CALL_(name_str, common, ...) common(name_str, __VA_ARGS__)

/* PARSE for the reductions, which also take numpy's names axis= and
 * keepdims= for dim= and keepdim=, as torch's argument parser does. */
#define PARSE_NP(fname, n_req, ...)                                                                \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    PyObject *kwn_ = py_ops_numpy_names(kwnames);                                                  \
    if (kwnames && !kwn_) return NULL;                                                             \
    int prc_ = py_parse(fname, args, nargs, kwn_, kw_, n_req, a_);                                 \
    Py_XDECREF(kwn_);                                                                              \
    if (prc_ < 0) return NULL
/* [kwnames] with axis and keepdims renamed (a new reference; NULL for
 * NULL). */
PyObject *py_ops_numpy_names(PyObject *kwnames);
/* 0 when a call of any/all ([args] with self or input first, out= among
 * the keywords when given) fits one of PyTorch 1.13's signatures; -1 with
 * PyTorch's error when it does not (a tuple of dims, keepdim= alone) or
 * names a dim (None, a string). */
int py_ops_any_all_fits(const char *name, bool method, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames);

/* [dim] wrapped for a tensor of [ndim] dims (a 0-dim tensor takes -1 and
 * 0), or torch's IndexError. */
int py_ops_dim(int64_t dim, int ndim, int *out);

/* Whether any of the [n] objects is a complex tensor or a Python complex. */
bool py_ops_any_complex(PyObject *const *objs, int n);
/* The complex path of op [name] written in Python (torch._complex_ops):
 * its result for the [n] positional objects (a new reference, or NULL
 * with an exception set); NULL without an exception when that module has
 * no [name], and the caller goes on to its kernel (which refuses complex
 * operands in PyTorch's words). Called only for complex operands. */
PyObject *py_ops_complex_fallback(const char *name, PyObject *const *objs, int n);
/* [result] (stolen) written into [out] as out= does (resized to the
 * result's shape, then copied); a new reference to [out], or NULL. */
PyObject *py_ops_out_result(PyObject *result, PyObject *out);
/* The repr of a torch.return_types struct sequence of values and indices
 * (max, sort, ... and their _out forms), as PyTorch prints it. */
PyObject *py_ops_pair_repr(PyObject *self);
/* 0 when a result of [r]'s dtype may be written into [t] (in place, out=);
 * else -1 with PyTorch's RuntimeError ("result type Float can't be cast to
 * the desired output type Long"). */
int py_ops_check_cast(const nn_tensor *r, const nn_tensor *t);
/* The same for a result of dtype [r] and a tensor of dtype [t]. */
int py_ops_check_cast_dtype(nn_dtype r, nn_dtype t);

/* The class a wrapped torch function is bound to. PyTorch binds torch.add
 * and the rest as static methods of torch._C._VariableFunctionsClass, so
 * repr(torch.add) reads "<built-in method add of type object at 0x...>".
 * nndb's out= wrappers (py_module.c's for torch._C's functions, _takes_out's
 * for those written in Python) need a self that carries the function they
 * call: each gets its own class of that name, holding the function and, for
 * _takes_out, PyTorch's name for it (py_out.c). */
typedef struct {
    PyTypeObject type;
    PyObject *fn;   /* what the wrapper calls: the function without out= */
    PyObject *name; /* PyTorch's name for out_table and the messages, or NULL */
} py_fn_class;

/* A new class carrying [fn] and [name] (may be NULL); made once per function
 * at import and never freed. */
PyObject *py_fn_class_new(PyObject *fn, PyObject *name);

/* The C++ type name PyTorch's dtype messages print for [dt] ("float",
 * "long int", "c10::Half"; py_out.c). */
const char *py_dtype_c_name(nn_dtype dt);

/* A call of torch._C function [fn] with out= (kwnames[at], not None):
 * runs fn without it and writes the result into out, with PyTorch's
 * checks (py_out.c). */
PyObject *py_out_call(PyObject *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      Py_ssize_t at);

/* Whether an optional argument was given as something other than None. */
static inline bool py_given(PyObject *o) {
    return o && o != Py_None;
}

/* Release [n] engine tensors (NULL entries are skipped). */
void py_ops_release(nn_tensor **ts, int n);

/* A tuple of tensor objects for ps[0..n) (stolen); each one with history
 * is named [fn_name] (NULL: the engine's name). */
PyObject *py_ops_tuple(nn_tensor **ps, int n, const char *fn_name);

/* torch.return_types.NAME(values=..., indices=...) for max, min, sort,
 * topk, kthvalue, median, mode, cummax and cummin; both tensors are
 * stolen, and values is named [values_fn] when it has history. */
PyObject *py_ops_values_indices(const char *name, nn_tensor *values, nn_tensor *indices,
                                const char *values_fn);

/* Ints given as f(1, 2), f((1, 2)), f([1, 2]) or f(NAME=(1, 2)) in
 * args[first..nargs) and the keywords (the only keyword allowed is
 * [kwname]). */
int py_ops_varints(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                   Py_ssize_t first, const char *kwname, int64_t *out, int *n);

/* An op's input tensor (borrowed, in *[t]) and then its ints as
 * py_ops_varints reads them: permute(x, 1, 0), expand(x, (2, 3)),
 * tile(x, dims=(2,)). */
int py_ops_tensor_varints(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames, const char *kwname, nn_tensor **t, int64_t *out,
                          int *n);

/* generator=: the engine stream of a torch.Generator; NULL (the default
 * stream) for None or when not given. */
int py_ops_generator(PyObject *g, nn_rng **out);

/* [t] cast to the dtype= argument [dtype] when it is given (a new
 * reference either way). */
int py_ops_cast(nn_tensor *t, PyObject *dtype, nn_tensor **out);

/* Self takes the value of [result] (a tensor object, stolen), as the
 * in-place operators do (py_tensor.c): autograd records the write when
 * self or the result requires grad (self then takes result's history), and
 * otherwise the values are copied into self. Returns self (new reference). */
PyObject *py_ops_inplace_result(PyObject *self, PyObject *result, const char *name);

/* Tensor.NAME_(...) from NAME's implementation [impl]: self takes the
 * value impl computes from self and the arguments. When autograd records
 * the write and the op's backward reads self's old values ([reads_self]),
 * impl runs on a recorded copy of self, as torch saves the original self
 * of such in-place ops. */
PyObject *py_ops_inplace_call(py_impl_fn impl, const char *name, bool reads_self, PyObject *self,
                              PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#define PY_INPLACE_AS(name, reads_self)                                                            \
    static PyObject *name##__meth(PyObject *self, PyObject *const *args, Py_ssize_t nargs,         \
                                  PyObject *kwnames) {                                             \
        if (kwnames && py_method_refuse_out(#name "_", kwnames) < 0) return NULL;                  \
        return py_ops_inplace_call(name##_impl, #name "_", reads_self, self, args, nargs,          \
                                   kwnames);                                                       \
    }
#define PY_INPLACE(name) PY_INPLACE_AS(name, true)
#define PY_INPLACE_ENTRY(name)                                                                     \
    { #name "_", (PyCFunction)(void (*)(void))name##__meth, METH_FASTCALL | METH_KEYWORDS, NULL }

#endif
