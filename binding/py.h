/* py: what the files of nndb's torch extension (torch._C) share.
 *
 * The extension makes the engine `torch` inside embedded CPython. A tensor
 * object owns one reference to an engine tensor; every engine call runs on
 * the one session context py_ctx(). Functions that return PyObject * return
 * a new reference or NULL with a Python exception set, as CPython's C-API
 * does; argument helpers return 0 on success and -1 with an exception set.
 *
 * Ops are written once, as a function whose args[0] is the input tensor, and
 * exposed twice with PY_OP: as torch.NAME(input, ...) and as the method
 * Tensor.NAME(...). Each area file (py_ops_*.c) lists its ops in a
 * PyMethodDef table of functions and one of methods, NULL-terminated, that
 * py_module.c registers.
 */
#ifndef PY_H
#define PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stdint.h>

#include "nn_ctx.h"
#include "nn_format.h"
#include "nn_ops.h"
#include "nn_tensor.h"

/* ---- the tensor object (py_tensor.c) ---- */
typedef struct py_tensor {
    PyObject_HEAD nn_tensor *t; /* owned reference; never NULL once made */
    /* torch's grad_fn name when the op that made this value tells it apart
     * from what the engine node says (unsqueeze and view both record a
     * reshape); NULL otherwise. A static string. */
    const char *fn_name;
    PyObject *dict;
    PyObject *weakrefs;
    /* A weak reference to the object .grad last gave (get_grad), so that
     * `g = w.grad` stays `w.grad` while g lives, as in PyTorch; weak, so
     * that it never keeps a gradient set to None alive. NULL until asked. */
    PyObject *grad_ref;
} py_tensor;

/* torch._C._TensorBase, and torch.Tensor (the Python subclass that
 * torch/_tensor.py registers with _C._set_tensor_class; the base until then). */
extern PyTypeObject py_tensor_base_type;
extern PyTypeObject *py_tensor_class;

/* The last other subclass py_tensor_check found (nn.Parameter, mostly),
 * held by a reference so that its address cannot be reused. */
extern PyTypeObject *py_tensor_sub_seen;
void py_tensor_sub_remember(PyTypeObject *t);

/* torch.Tensor itself and the last subclass seen first: PyObject_TypeCheck
 * tests only the base type before it walks the type's MRO, and nearly every
 * tensor is a torch.Tensor or an nn.Parameter. */
static inline bool py_tensor_check(PyObject *o) {
    PyTypeObject *t = Py_TYPE(o);
    if (t == py_tensor_class || t == &py_tensor_base_type || t == py_tensor_sub_seen) return true;
    if (!PyType_IsSubtype(t, &py_tensor_base_type)) return false;
    py_tensor_sub_remember(t);
    return true;
}
/* Borrowed: the engine tensor of [o], or NULL when [o] is not a tensor. */
static inline nn_tensor *py_tensor_of(PyObject *o) {
    return py_tensor_check(o) ? ((py_tensor *)o)->t : NULL;
}

/* The engine context every call runs on (made by py_module_init). */
nn_ctx *py_ctx(void);

/* A tensor object for [r] (steals the reference). NULL [r] raises the
 * context's engine error. */
PyObject *py_tensor_wrap(nn_tensor *r);
/* The same, remembering torch's grad_fn name for the result (static). */
PyObject *py_tensor_wrap_named(nn_tensor *r, const char *fn_name);
/* A tensor object of type [cls] (a subclass of _TensorBase) for [r]
 * (stolen). */
PyObject *py_tensor_wrap_as(PyTypeObject *cls, nn_tensor *r);

/* ---- errors ---- */
/* Raise the context's last engine error as the Python exception torch
 * raises for it (RuntimeError for shapes, IndexError, TypeError, ...),
 * clear it, and return NULL. */
PyObject *py_engine_error(void);
/* 0 for NN_OK; otherwise raise as py_engine_error and return -1. */
int py_status(nn_status st);
/* _C.Stopped: a debugger hook ended the statement. */
extern PyObject *py_exc_stopped;

/* ---- arguments (py_args.c) ---- */
/* Match vectorcall arguments against [names] (NULL-terminated; a "$" entry
 * starts the keyword-only ones). out[i] is a borrowed reference or NULL
 * when not given. The first [n_required] names must be given. Errors are
 * TypeErrors worded as CPython's. */
int py_parse(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             const char *const *names, int n_required, PyObject **out);
/* A device= value: 0 for the CPU ("cpu", "cpu:0", torch.device('cpu')); -1
 * with PyTorch's CPU-only error for CUDA and an error for anything else. */
int py_device_check(PyObject *dev);
/* device='meta' (NotImplementedError): nndb has no meta device. */
#define PY_META_REFUSAL                                                                            \
    "nndb has no 'meta' device (tensors with a shape and no data): make the tensor on the CPU "    \
    "(device='cpu'); torch.nn.utils.skip_init builds a module without caring about its values"

/* A tensor operand: a tensor (new reference to it), a Python number (a
 * wrapped scalar that does not widen a tensor's dtype), or nested
 * sequences of numbers (a new tensor). */
int py_operand(PyObject *o, const char *fname, const char *what, nn_tensor **out);
/* A tensor argument, borrowed; TypeError naming [fname] and [what] when not,
 * and PyTorch's RuntimeError when its bytes are released (an FSDP weight
 * between uses: nn_tensor_released). _any takes those too (FSDP's own calls). */
int py_tensor_arg_any(PyObject *o, const char *fname, const char *what, nn_tensor **out);
/* Argument [what]'s position in the call of [fname] that py_parse matched
 * last, as PyTorch's messages count it (from 1; a Tensor method does not
 * count self); [fallback] when the last call parsed was another op's or
 * had no such argument. */
int py_arg_position(const char *fname, const char *what, int fallback);
int py_tensor_arg(PyObject *o, const char *fname, const char *what, nn_tensor **out);
/* Python ints (and one-element integer tensors, and objects with __index__). */
int py_int_arg(PyObject *o, const char *what, int64_t *out);
/* Python numbers and one-element tensors. */
int py_float_arg(PyObject *o, const char *what, double *out);
int py_bool_arg(PyObject *o, const char *what, bool *out);
/* An int or a sequence of ints (dims, a shape) into [out] (cap NN_MAX_DIMS). */
int py_ints_arg(PyObject *o, const char *what, int64_t *out, int *n);
/* PyTorch 1.13's TypeError for a call that fits none of [sigs], the
 * signatures as its message lists them ("(Tensor input, int dim, bool
 * keepdim, *, Tensor out)"; a method's without self, and [args] then
 * without self too); always -1. */
int py_invalid_args(const char *fname, const char *const *sigs, int nsigs, PyObject *const *args,
                    Py_ssize_t nargs, PyObject *kwnames);
/* A shape given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size): the
 * positional arguments [args, args + nargs). */
int py_shape_args(PyObject *const *args, Py_ssize_t nargs, int64_t *shape, int *ndim);
/* The dtype of a buffer-protocol element format ("f", "<i8", "?", ...) of
 * [itemsize] bytes; false when nndb has none for it. */
bool py_buffer_dtype(const char *fmt, Py_ssize_t itemsize, nn_dtype *dt);
/* Whether [o] is a numpy.ndarray (false while numpy is not imported). */
bool py_is_ndarray(PyObject *o);
/* PyTorch's TypeError for an array whose dtype has no tensor dtype
 * ("can't convert np.ndarray of type numpy.uint16 ..."); returns NULL. */
PyObject *py_numpy_type_error(PyObject *arr);
/* torch.dtype objects; None leaves *out unchanged. */
int py_dtype_arg(PyObject *o, nn_dtype *out);
/* [fname]'s memory_format= argument into [*out] (left as it is for None); with [t],
 * PyTorch's error when channels_last meets a tensor not of rank 4 (5 for
 * channels_last_3d). */
int py_memory_format_arg(const char *fname, PyObject *o, const nn_tensor *t, nn_memory_format *out);

/* A new tensor from Python data: nested lists/tuples of numbers, a number,
 * a tensor (copied), or an object with the buffer protocol or
 * __array_interface__ (numpy arrays). [dtype] < 0 infers it as torch.tensor
 * does (bool, int64, or the default float dtype). */
nn_tensor *py_tensor_from_data(PyObject *data, int dtype);

/* ---- dtypes and sizes (py_dtype.c) ---- */
extern PyTypeObject py_dtype_type;
extern PyTypeObject py_size_type;
/* Borrowed: the torch.dtype object for [dt]. */
PyObject *py_dtype_object(nn_dtype dt);
/* A torch.Size of [ndim] dims. */
PyObject *py_size_new(int ndim, const int64_t *shape);
/* torch.get_default_dtype() (float32 unless set_default_dtype changed it). */
nn_dtype py_default_dtype(void);
void py_set_default_dtype(nn_dtype dt);

/* ---- printing ---- */
/* torch.set_printoptions's current values (py_tensor.c). */
extern nn_print_opts py_print_opts;

/* ---- ops ----
 * An op takes its input as args[0]. PY_OP(name) defines name_fn (for the
 * module's table) and name_meth (for the tensor type's table) from
 * name_impl(args, nargs, kwnames). */
typedef PyObject *(*py_impl_fn)(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *py_call_method(py_impl_fn impl, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames);
/* -1 with PyTorch's TypeError when [kwnames] holds out=: the functions
 * take it (py_out.c), the Tensor methods sharing their code never do in
 * PyTorch. Only calls with keywords pay for the look. */
int py_method_refuse_out(const char *name, PyObject *kwnames);

#define PY_OP(name)                                                                                \
    static PyObject *name##_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);      \
    __attribute__((unused)) static PyObject *name##_fn(PyObject *m, PyObject *const *args,         \
                                                       Py_ssize_t nargs, PyObject *kwnames) {      \
        (void)m;                                                                                   \
        return name##_impl(args, nargs, kwnames);                                                  \
    }                                                                                              \
    __attribute__((unused)) static PyObject *name##_meth(PyObject *self, PyObject *const *args,    \
                                                         Py_ssize_t nargs, PyObject *kwnames) {    \
        if (kwnames && py_method_refuse_out(#name, kwnames) < 0) return NULL;                      \
        return py_call_method(name##_impl, self, args, nargs, kwnames);                            \
    }

#define PY_FN_ENTRY(pyname, name, doc)                                                             \
    { pyname, (PyCFunction)(void (*)(void))name##_fn, METH_FASTCALL | METH_KEYWORDS, doc }
#define PY_METH_ENTRY(pyname, name, doc)                                                           \
    { pyname, (PyCFunction)(void (*)(void))name##_meth, METH_FASTCALL | METH_KEYWORDS, doc }

/* The tables of each area, NULL-terminated. */
extern PyMethodDef py_tensor_methods[]; /* py_tensor.c: methods only the type has */
extern PyMethodDef py_core_functions[]; /* py_module.c: factories, grad mode, seeds */
extern PyMethodDef py_ops_functions[];  /* py_ops.c: math, reductions, shapes */
extern PyMethodDef py_ops_methods[];
/* py_ops_*.c: the op areas (see py_ops.h) */
extern PyMethodDef py_ops_elementwise_functions[], py_ops_elementwise_methods[];
extern PyMethodDef py_ops_reduce_functions[], py_ops_reduce_methods[];
extern PyMethodDef py_ops_shape_functions[], py_ops_shape_methods[];
extern PyMethodDef py_ops_create_functions[], py_ops_create_methods[];
extern PyMethodDef py_special_functions[], py_special_methods[]; /* py_special.c */
/* torch._C._return_types (py_ops.c) */
int py_ops_setup(PyObject *module);
extern PyMethodDef py_conv_functions[];  /* py_conv.c: convolution, unfold/fold, pooling */
extern PyMethodDef py_nn_functions[];    /* py_nn.c: nn kernels for torch.nn.functional */
extern PyMethodDef py_optim_functions[]; /* py_optim.c: optimizer kernels for torch.optim */
extern PyMethodDef py_io_functions[];    /* py_io.c: storages for torch.save/load */

extern PyMethodDef py_dist_functions[], py_instruments_functions[], py_probe_functions[];
extern PyMethodDef py_data_functions[];     /* py_data.c: datasets, vocabularies, plots */
extern PyMethodDef py_out_functions[];      /* py_out.c: out= for functions written in Python */
extern PyMethodDef py_autograd_functions[]; /* py_autograd.c: tensor hooks, Function, grad */
extern PyMethodDef py_fft_functions[];      /* py_fft.c: complex views and FFT primitives */
extern PyMethodDef py_linalg_functions[];   /* py_linalg.c: LAPACK kernels for torch.linalg */
extern PyMethodDef py_autocast_functions[]; /* py_autocast.c: torch.autocast's state */
/* py_autograd.c: restore the Python exception a hook or a Function's
 * backward raised inside the engine call that failed (true), if any. */
bool py_autograd_take_error(void);
/* New reference: the grad_fn object of an autograd.Function's node (its
 * ctx), or NULL for any other node. */
PyObject *py_autograd_grad_fn(nn_node *node);
/* Module set-up (py_module.c). */
PyObject *py_module_init(void);

/* ---- autocast (py_autocast.c) ----
 * How an op of PyTorch's autocast lists casts its operands while
 * torch.autocast("cpu") is on. */
typedef enum py_autocast_policy {
    PY_AUTOCAST_LOWER, /* to the autocast dtype (bfloat16): mm, linear, conv */
    PY_AUTOCAST_FP32,  /* to float32: losses, 3-D pooling, ... */
} py_autocast_policy;
bool py_autocast_cpu_on(void);
/* Cast the eligible (floating, not float64) tensors among [ts] in place of
 * the borrowed ones; owned[i] holds each new reference (NULL where none),
 * for py_autocast_release after the op. Does nothing while autocast is
 * off. -1 with the engine's error in the context on failure (nothing left
 * owned): the caller returns py_engine_error(). */
int py_autocast_cast(py_autocast_policy policy, nn_tensor **ts, int n, nn_tensor **owned);
void py_autocast_release(nn_tensor **owned, int n);

#endif
