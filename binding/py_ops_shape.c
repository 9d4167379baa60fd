/* py_ops_shape: torch's shape and indexing ops over the engine: views
 * (view, reshape, flatten, permute, transpose, squeeze, expand, ...), joins
 * and splits (cat, stack, split, chunk, unbind), selection (narrow, flip,
 * roll, tril/triu, diag, gather, scatter, index_select, masked_fill,
 * masked_select, nonzero), sorting (sort, argsort, topk, unique), and the
 * matrix products (matmul, mm, bmm, mv, dot, outer, einsum). Ops that torch
 * builds from other ops are compositions here too; their results carry
 * torch's grad_fn names. */
#include <stdlib.h>
#include <string.h>

#include "py_ops.h"

static nn_ctx *ctx_(void) {
    return py_ctx();
}

/* ---- views ---- */

/* A method's shape: view(2, 3), view((2, 3)), view(shape=...). */
static PyObject *reshaped(const char *name, bool view, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument 'input'", name);
        return NULL;
    }
    nn_tensor *t;
    if (py_tensor_arg(args[0], name, "input", &t) < 0) return NULL;
    /* view(dtype), view(dtype=...): the same bytes read as another dtype */
    PyObject *dto = nargs == 2 && Py_TYPE(args[1]) == &py_dtype_type ? args[1] : NULL;
    if (view && nargs == 1 && kwnames && PyTuple_GET_SIZE(kwnames) == 1 &&
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "dtype") == 0) {
        dto = args[1];
        if (Py_TYPE(dto) != &py_dtype_type) {
            /* py_dtype_arg would read None as "the default" */
            PyErr_Format(PyExc_TypeError,
                         "view() received an invalid combination of arguments - got "
                         "(dtype=%s, ), but expected one of:\n * (torch.dtype dtype)\n * "
                         "(tuple of SymInts size)\n",
                         _PyType_Name(Py_TYPE(dto)));
            return NULL;
        }
    }
    if (dto) {
        nn_dtype dt = t->dtype;
        if (py_dtype_arg(dto, &dt) < 0) return NULL;
        if (!view) {
            PyErr_Format(PyExc_TypeError,
                         "%s(): argument 'shape' (position 1) must be tuple of SymInts, not "
                         "torch.dtype",
                         name);
            return NULL;
        }
        return py_tensor_wrap(nn_tensor_view_dtype(ctx_(), t, dt));
    }
    int64_t shape[NN_MAX_DIMS];
    int ndim;
    if (py_ops_varints(name, args, nargs, kwnames, 1, "shape", shape, &ndim) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (view) return py_tensor_wrap_named(nn_view(ctx, t, ndim, shape), "ViewBackward0");
    nn_tensor *r = nn_reshape(ctx, t, ndim, shape);
    /* torch 1.13's reshape is an alias when it can view, else a copy */
    return py_tensor_wrap_named(r, r && r->storage == t->storage ? "ReshapeAliasBackward0"
                                                                 : "UnsafeViewBackward0");
}

PY_OP_VIA(view, reshaped, true)
PY_OP_VIA(reshape, reshaped, false)

static PyObject *as_other(const char *name, bool view, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PARSE(name, 2, "input", "other");
    nn_tensor *t, *o;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || py_tensor_arg(a_[1], name, "other", &o) < 0)
        return NULL;
    nn_ctx *ctx = ctx_();
    if (view) return py_tensor_wrap_named(nn_view(ctx, t, o->ndim, o->shape), "ViewBackward0");
    nn_tensor *r = nn_reshape(ctx, t, o->ndim, o->shape);
    return py_tensor_wrap_named(r, r && r->storage == t->storage ? "ReshapeAliasBackward0"
                                                                 : "UnsafeViewBackward0");
}
PY_OP_VIA(view_as, as_other, true)
PY_OP_VIA(reshape_as, as_other, false)

PY_OP(flatten)
static PyObject *flatten_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("flatten", 1, "input", "start_dim", "end_dim");
    nn_tensor *t;
    int64_t s = 0, e = -1;
    if (py_tensor_arg(a_[0], "flatten", "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "start_dim", &s) < 0) return NULL;
    if (a_[2] && py_int_arg(a_[2], "end_dim", &e) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    int ws, we;
    if (t->ndim > 0 && !nn_dim_wrap(ctx, s, t->ndim, &ws) && !nn_dim_wrap(ctx, e, t->ndim, &we) &&
        ws == we)
        return Py_NewRef(a_[0]); /* torch returns the input itself */
    nn_ctx_clear_error(ctx);
    nn_tensor *r = nn_flatten(ctx, t, s, e);
    return py_tensor_wrap_named(r, r && r->storage == t->storage ? "ReshapeAliasBackward0"
                                                                 : "UnsafeViewBackward0");
}

PY_OP(ravel)
static PyObject *ravel_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("ravel", 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "ravel", "input", &t) < 0) return NULL;
    int64_t n = -1;
    nn_tensor *r = nn_reshape(ctx_(), t, 1, &n);
    return py_tensor_wrap_named(r, r && r->storage == t->storage ? "ReshapeAliasBackward0"
                                                                 : "UnsafeViewBackward0");
}

/* unflatten(input, dim, sizes) */
PY_OP(unflatten)
static PyObject *unflatten_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("unflatten", 3, "input", "dim", "sizes");
    nn_tensor *t;
    int64_t dim, sizes[NN_MAX_DIMS];
    int ns, d;
    if (py_tensor_arg(a_[0], "unflatten", "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_ints_arg(a_[2], "sizes", sizes, &ns) < 0)
        return NULL;
    nn_ctx *ctx = ctx_();
    if (nn_dim_wrap(ctx, dim, t->ndim, &d)) return py_engine_error();
    if (t->ndim - 1 + ns > NN_MAX_DIMS) {
        PyErr_SetString(PyExc_ValueError, "unflatten(): too many dims");
        return NULL;
    }
    int64_t shape[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < d; i++) shape[n++] = t->shape[i];
    for (int i = 0; i < ns; i++) shape[n++] = sizes[i];
    for (int i = d + 1; i < t->ndim; i++) shape[n++] = t->shape[i];
    return py_tensor_wrap_named(nn_view(ctx, t, n, shape), "ViewBackward0");
}

PY_OP(permute)
static PyObject *permute_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (py_ops_tensor_varints("permute", args, nargs, kwnames, "dims", &t, d, &n) < 0) return NULL;
    if (n != t->ndim) {
        PyErr_Format(PyExc_RuntimeError,
                     "permute(sparse_coo): number of dimensions in the tensor input does not "
                     "match the length of the desired ordering of dimensions i.e. input.dim() = "
                     "%d is not equal to len(dims) = %d",
                     t->ndim, n);
        return NULL;
    }
    return py_tensor_wrap(nn_permute(ctx_(), t, d));
}

static PyObject *transpose_common(const char *name, PyObject *const *args, Py_ssize_t nargs,
                                  PyObject *kwnames) {
    PARSE(name, 3, "input", "dim0", "dim1");
    nn_tensor *t;
    int64_t d0, d1;
    int w;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || py_int_arg(a_[1], "dim0", &d0) < 0 ||
        py_int_arg(a_[2], "dim1", &d1) < 0 || py_ops_dim(d0, t->ndim, &w) < 0 ||
        py_ops_dim(d1, t->ndim, &w) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_transpose(ctx_(), t, d0, d1), "TransposeBackward0");
}
PY_OP_VIA(transpose, transpose_common)
PY_OP_VIA(swapaxes, transpose_common)
PY_OP_VIA(swapdims, transpose_common)

PY_OP(t)
static PyObject *t_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("t", 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "t", "input", &t) < 0) return NULL;
    if (t->ndim > 2) {
        PyErr_Format(PyExc_RuntimeError,
                     "t() expects a tensor with <= 2 dimensions, but self is %dD", t->ndim);
        return NULL;
    }
    if (t->ndim < 2)
        return py_tensor_wrap_named(nn_view(ctx_(), t, t->ndim, t->shape), "TBackward0");
    return py_tensor_wrap_named(nn_transpose(ctx_(), t, 0, 1), "TBackward0");
}

/* movedim(input, source, destination) */
PY_OP(movedim)
static PyObject *movedim_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("movedim", 3, "input", "source", "destination");
    nn_tensor *t;
    int64_t src[NN_MAX_DIMS], dst[NN_MAX_DIMS];
    int ns, nd;
    if (py_tensor_arg(a_[0], "movedim", "input", &t) < 0 ||
        py_ints_arg(a_[1], "source", src, &ns) < 0 ||
        py_ints_arg(a_[2], "destination", dst, &nd) < 0)
        return NULL;
    if (ns != nd) {
        PyErr_Format(PyExc_RuntimeError,
                     "movedim: Invalid source or destination dims: source (%d dims) should "
                     "contain the same number of dims as destination (%d dims)",
                     ns, nd);
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    int64_t order[NN_MAX_DIMS];
    bool used_src[NN_MAX_DIMS] = {false}, used_dst[NN_MAX_DIMS] = {false};
    for (int i = 0; i < t->ndim; i++) order[i] = -1;
    for (int i = 0; i < ns; i++) {
        int s, d;
        if (nn_dim_wrap(ctx, src[i], t->ndim, &s) || nn_dim_wrap(ctx, dst[i], t->ndim, &d))
            return py_engine_error();
        order[d] = s;
        used_src[s] = used_dst[d] = true;
    }
    int next = 0;
    for (int i = 0; i < t->ndim; i++) {
        if (used_dst[i]) continue;
        while (used_src[next]) next++;
        order[i] = next++;
    }
    return py_tensor_wrap(nn_permute(ctx, t, order));
}

PY_OP(squeeze)
static PyObject *squeeze_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("squeeze", 1, "input", "dim");
    nn_tensor *t;
    int64_t dim = NN_ALL_DIMS;
    if (py_tensor_arg(a_[0], "squeeze", "input", &t) < 0) return NULL;
    int d;
    if (py_given(a_[1]) && (py_int_arg(a_[1], "dim", &dim) < 0 || py_ops_dim(dim, t->ndim, &d) < 0))
        return NULL;
    return py_tensor_wrap_named(nn_squeeze(ctx_(), t, dim),
                                dim == NN_ALL_DIMS ? "SqueezeBackward0" : "SqueezeBackward1");
}

PY_OP(unsqueeze)
static PyObject *unsqueeze_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("unsqueeze", 2, "input", "dim");
    nn_tensor *t;
    int64_t dim;
    int d;
    if (py_tensor_arg(a_[0], "unsqueeze", "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_ops_dim(dim, t->ndim + 1, &d) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_unsqueeze(ctx_(), t, dim), "UnsqueezeBackward0");
}

PY_OP(expand)
static PyObject *expand_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (py_ops_tensor_varints("expand", args, nargs, kwnames, "size", &t, d, &n) < 0) return NULL;
    return py_tensor_wrap(nn_expand(ctx_(), t, n, d));
}

PY_OP(expand_as)
static PyObject *expand_as_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("expand_as", 2, "input", "other");
    nn_tensor *t, *o;
    if (py_tensor_arg(a_[0], "expand_as", "input", &t) < 0 ||
        py_tensor_arg(a_[1], "expand_as", "other", &o) < 0)
        return NULL;
    return py_tensor_wrap(nn_expand(ctx_(), t, o->ndim, o->shape));
}

PY_OP(broadcast_to)
static PyObject *broadcast_to_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("broadcast_to", 2, "input", "size");
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (py_tensor_arg(a_[0], "broadcast_to", "input", &t) < 0 ||
        py_ints_arg(a_[1], "size", d, &n) < 0)
        return NULL;
    return py_tensor_wrap(nn_expand(ctx_(), t, n, d));
}

PY_OP(repeat)
static PyObject *repeat_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (py_ops_tensor_varints("repeat", args, nargs, kwnames, "repeats", &t, d, &n) < 0)
        return NULL;
    if (n < t->ndim) {
        PyErr_SetString(PyExc_RuntimeError, "Number of dimensions of repeat dims can not be "
                                            "smaller than number of dimensions of tensor");
        return NULL;
    }
    return py_tensor_wrap_named(nn_repeat(ctx_(), t, d, n), "RepeatBackward0");
}

/* tile(input, dims): repeat, with ones prepended to dims */
PY_OP(tile)
static PyObject *tile_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS], full[NN_MAX_DIMS];
    int n;
    if (py_ops_tensor_varints("tile", args, nargs, kwnames, "dims", &t, d, &n) < 0) return NULL;
    int m = n < t->ndim ? t->ndim : n;
    for (int i = 0; i < m; i++) full[i] = i < m - n ? 1 : d[i - (m - n)];
    return py_tensor_wrap_named(nn_repeat(ctx_(), t, full, m), "RepeatBackward0");
}

PY_OP(repeat_interleave)
static PyObject *repeat_interleave_impl(PyObject *const *args, Py_ssize_t nargs,
                                        PyObject *kwnames) {
    PARSE("repeat_interleave", 2, "input", "repeats", "dim", "$output_size");
    nn_tensor *t;
    int64_t reps, dim = 0;
    if (py_tensor_arg(a_[0], "repeat_interleave", "input", &t) < 0) return NULL;
    nn_tensor *rt = py_tensor_of(a_[1]);
    if (rt && nn_tensor_numel(rt) != 1) {
        PyErr_SetString(PyExc_RuntimeError,
                        "repeat_interleave(): a tensor of repeats (one per element) is not "
                        "available in nndb; use an int");
        return NULL;
    }
    if (py_int_arg(a_[1], "repeats", &reps) < 0) return NULL;
    if (py_given(a_[2]) && py_int_arg(a_[2], "dim", &dim) < 0) return NULL;
    return py_tensor_wrap_named(nn_repeat_interleave(ctx_(), t, reps, dim, !py_given(a_[2])),
                                "IndexSelectBackward0");
}

PY_OP(contiguous)
static PyObject *contiguous_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("contiguous", 1, "input", "memory_format");
    nn_tensor *t;
    nn_memory_format fmt = NN_FORMAT_CONTIGUOUS;
    if (py_tensor_arg(a_[0], "contiguous", "input", &t) < 0 ||
        py_memory_format_arg("contiguous", a_[1], t, &fmt) < 0)
        return NULL;
    if (nn_tensor_is_format(t, fmt)) return Py_NewRef(a_[0]);
    if (fmt == NN_FORMAT_PRESERVE) {
        PyErr_SetString(PyExc_RuntimeError,
                        "preserve memory format is unsupported by the contiguous operator");
        return NULL;
    }
    if (fmt != NN_FORMAT_CONTIGUOUS) return py_tensor_wrap(nn_clone(ctx_(), t, fmt));
    return py_tensor_wrap(nn_contiguous(ctx_(), t));
}

/* A copy with its own storage in [fmt] (PyTorch's empty_like then copy_:
 * PRESERVE keeps a dense input's strides); recorded (CloneBackward0) when
 * it needs a gradient. A contiguous input costs one is_contiguous check
 * more than a plain copy. */
static nn_tensor *clone_of(nn_tensor *t, nn_memory_format fmt) {
    nn_ctx *ctx = ctx_();
    if (t->requires_grad && ctx->grad_enabled) return nn_clone(ctx, t, fmt);
    int64_t st[NN_MAX_DIMS];
    if (nn_format_strides(t, fmt, st)) return nn_tensor_copy_strided_raw(ctx, t, t->dtype, st);
    nn_tensor *c = nn_tensor_contiguous_raw(ctx, t);
    if (!c) return NULL;
    nn_tensor *r = nn_tensor_from_data(ctx, c->dtype, c->ndim, c->shape, nn_tensor_data(c));
    nn_tensor_release(c);
    return r;
}

PY_OP(clone)
static PyObject *clone_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("clone", 1, "input", "$memory_format");
    nn_tensor *t;
    nn_memory_format fmt = NN_FORMAT_PRESERVE;
    if (py_tensor_arg(a_[0], "clone", "input", &t) < 0 ||
        py_memory_format_arg("clone", a_[1], t, &fmt) < 0)
        return NULL;
    return py_tensor_wrap_named(clone_of(t, fmt), "CloneBackward0");
}

/* ---- joins and splits ---- */

/* The tensors of a list or tuple, borrowed, into a PyMem array. */
static int tensor_list(const char *name, PyObject *o, nn_tensor ***out, int *n) {
    if (!PyList_Check(o) && !PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s(): argument 'tensors' (position 1) must be tuple of Tensors, not %s", name,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(o);
    *out = PyMem_Calloc((size_t)(len ? len : 1), sizeof **out);
    if (!*out) return (PyErr_NoMemory(), -1);
    for (Py_ssize_t i = 0; i < len; i++) {
        (*out)[i] = py_tensor_of(PySequence_Fast_GET_ITEM(o, i));
        if (!(*out)[i]) {
            PyErr_Format(PyExc_TypeError,
                         "expected Tensor as element %zd in argument 0, but got %s", i,
                         Py_TYPE(PySequence_Fast_GET_ITEM(o, i))->tp_name);
            PyMem_Free(*out);
            return -1;
        }
    }
    *n = (int)len;
    return 0;
}

static PyObject *cat_stack(const char *name, bool stack, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PARSE(name, 1, "tensors", "dim", "$out");
    nn_tensor **ts;
    int n;
    int64_t dim = 0;
    if (a_[1] && py_int_arg(a_[1], "dim", &dim) < 0) return NULL;
    if (tensor_list(name, a_[0], &ts, &n) < 0) return NULL;
    if (n == 0) {
        PyMem_Free(ts);
        PyErr_SetString(PyExc_RuntimeError, stack ? "stack expects a non-empty TensorList"
                                                  : "torch.cat(): expected a non-empty list of "
                                                    "Tensors");
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    nn_tensor *r = stack ? nn_stack(ctx, ts, n, dim) : nn_cat(ctx, ts, n, dim);
    PyMem_Free(ts);
    return py_tensor_wrap_named(r, stack ? "StackBackward0" : "CatBackward0");
}

PY_OP_VIA(cat, cat_stack, false)
PY_OP_VIA(concat, cat_stack, false)
PY_OP_VIA(concatenate, cat_stack, false)
PY_OP_VIA(stack, cat_stack, true)

/* hstack / vstack: cat along dim 1 (0 for 1-D) / dim 0 of 2-D views */
static PyObject *hv_stack(const char *name, bool vertical, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PARSE(name, 1, "tensors", "$out");
    nn_tensor **ts;
    int n;
    if (tensor_list(name, a_[0], &ts, &n) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    nn_tensor **vs = PyMem_Calloc((size_t)(n ? n : 1), sizeof *vs);
    bool all1 = true;
    for (int i = 0; i < n; i++) all1 = all1 && ts[i]->ndim <= 1;
    nn_tensor *r = NULL;
    int made = 0;
    for (; vs && made < n; made++) {
        nn_tensor *x = ts[made];
        if (vertical && x->ndim < 2) {
            int64_t sh[2] = {1, x->ndim ? x->shape[0] : 1};
            vs[made] = nn_reshape(ctx, x, 2, sh);
        } else if (!vertical && x->ndim == 0) {
            vs[made] = nn_reshape(ctx, x, 1, (int64_t[]){1});
        } else {
            vs[made] = nn_tensor_retain(x);
        }
        if (!vs[made]) break;
    }
    if (vs && made == n) r = nn_cat(ctx, vs, n, vertical || all1 ? 0 : 1);
    if (vs) py_ops_release(vs, made);
    PyMem_Free(vs);
    PyMem_Free(ts);
    return py_tensor_wrap_named(r, "CatBackward0");
}
PY_OP_VIA(hstack, hv_stack, false)
PY_OP_VIA(vstack, hv_stack, true)

/* The outputs of split, chunk and unbind: views of one node in PyTorch
 * (multi-output views), which it refuses to write in place while gradients
 * are recorded. */
static PyObject *views_tuple(nn_tensor **ps, int n, const char *fn_name) {
    for (int i = 0; i < n; i++) nn_view_mark_multi(ps[i], fn_name, i);
    return py_ops_tuple(ps, n, fn_name);
}

PY_OP(split)
static PyObject *split_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("split", 2, "tensor", "split_size_or_sections", "dim");
    nn_tensor *t;
    int64_t dim = 0;
    if (py_tensor_arg(a_[0], "split", "tensor", &t) < 0) return NULL;
    if (a_[2] && py_int_arg(a_[2], "dim", &dim) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    int wd;
    if (nn_dim_wrap(ctx, dim, t->ndim, &wd)) return py_engine_error();
    int64_t len = t->ndim ? t->shape[wd] : 0;
    PyObject *sv = a_[1];
    if (PyList_Check(sv) || PyTuple_Check(sv)) {
        Py_ssize_t k = PySequence_Fast_GET_SIZE(sv);
        int64_t total = 0;
        int64_t *sizes = PyMem_Calloc((size_t)(k ? k : 1), sizeof *sizes);
        nn_tensor **ps = PyMem_Calloc((size_t)(k ? k : 1), sizeof *ps);
        PyObject *r = NULL;
        if (!sizes || !ps) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < k; i++) {
            if (py_int_arg(PySequence_Fast_GET_ITEM(sv, i), "split_size_or_sections", &sizes[i]) <
                0)
                goto done;
            total += sizes[i];
        }
        if (total != len) {
            PyErr_Format(PyExc_RuntimeError,
                         "split_with_sizes expects split_sizes to sum exactly to %lld (input "
                         "tensor's size at dimension %d), but got split_sizes=[",
                         (long long)len, wd);
            PyObject *msg = PyUnicode_FromFormat("split_with_sizes expects split_sizes to sum "
                                                 "exactly to %lld (input tensor's size at "
                                                 "dimension %d), but got split_sizes=%S",
                                                 (long long)len, wd, sv);
            if (msg) {
                PyErr_SetObject(PyExc_RuntimeError, msg);
                Py_DECREF(msg);
            }
            goto done;
        }
        for (Py_ssize_t i = 0, at = 0; i < k; i++) {
            ps[i] = nn_slice(ctx, t, wd, at, at + sizes[i], 1);
            if (!ps[i]) {
                py_engine_error();
                py_ops_release(ps, (int)i);
                goto done;
            }
            at += sizes[i];
        }
        r = views_tuple(ps, (int)k, "SplitWithSizesBackward0");
    done:
        PyMem_Free(sizes);
        PyMem_Free(ps);
        return r;
    }
    int64_t size;
    if (py_int_arg(sv, "split_size", &size) < 0) return NULL;
    if (size < 0 || (size == 0 && len != 0)) {
        PyErr_Format(PyExc_RuntimeError,
                     "split expects split_size be non-negative, but got "
                     "split_size=%lld",
                     (long long)size);
        return NULL;
    }
    int64_t pieces = len == 0 || size == 0 ? 1 : (len + size - 1) / size;
    nn_tensor **ps = PyMem_Calloc((size_t)pieces, sizeof *ps);
    if (!ps) return PyErr_NoMemory();
    int n = 0;
    if (nn_split(ctx, t, size ? size : 1, wd, ps, (int)pieces, &n)) {
        PyMem_Free(ps);
        return py_engine_error();
    }
    PyObject *r = views_tuple(ps, n, "SplitBackward0");
    PyMem_Free(ps);
    return r;
}

PY_OP(chunk)
static PyObject *chunk_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("chunk", 2, "input", "chunks", "dim");
    nn_tensor *t;
    int64_t chunks, dim = 0;
    if (py_tensor_arg(a_[0], "chunk", "input", &t) < 0 || py_int_arg(a_[1], "chunks", &chunks) < 0)
        return NULL;
    if (a_[2] && py_int_arg(a_[2], "dim", &dim) < 0) return NULL;
    if (chunks <= 0) {
        PyErr_SetString(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0");
        if (chunks < 0) {
            PyObject *m = PyUnicode_FromFormat(
                "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks);
            if (m) {
                PyErr_SetObject(PyExc_RuntimeError, m);
                Py_DECREF(m);
            }
        }
        return NULL;
    }
    if (chunks > 65536) chunks = 65536;
    nn_tensor **ps = PyMem_Calloc((size_t)chunks, sizeof *ps);
    if (!ps) return PyErr_NoMemory();
    int n = 0;
    if (nn_chunk(ctx_(), t, chunks, dim, ps, (int)chunks, &n)) {
        PyMem_Free(ps);
        return py_engine_error();
    }
    PyObject *r = views_tuple(ps, n, "SplitBackward0");
    PyMem_Free(ps);
    return r;
}

PY_OP(unbind)
static PyObject *unbind_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("unbind", 1, "input", "dim");
    nn_tensor *t;
    int64_t dim = 0;
    if (py_tensor_arg(a_[0], "unbind", "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "dim", &dim) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_IndexError, "Dimension specified as 0 but tensor has no dimensions");
        return NULL;
    }
    int d;
    if (nn_dim_wrap(ctx, dim, t->ndim, &d)) return py_engine_error();
    int64_t n = t->shape[d];
    nn_tensor **ps = PyMem_Calloc((size_t)(n ? n : 1), sizeof *ps);
    if (!ps) return PyErr_NoMemory();
    for (int64_t i = 0; i < n; i++) {
        ps[i] = nn_select(ctx, t, d, i);
        if (!ps[i]) {
            py_ops_release(ps, (int)i);
            PyMem_Free(ps);
            return py_engine_error();
        }
    }
    PyObject *r = views_tuple(ps, (int)n, "UnbindBackward0");
    PyMem_Free(ps);
    return r;
}

/* ---- selection ---- */

PY_OP(narrow)
static PyObject *narrow_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("narrow", 4, "input", "dim", "start", "length");
    nn_tensor *t;
    int64_t dim, start, length;
    if (py_tensor_arg(a_[0], "narrow", "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_int_arg(a_[2], "start", &start) < 0 || py_int_arg(a_[3], "length", &length) < 0)
        return NULL;
    nn_ctx *ctx = ctx_();
    int d;
    if (t->ndim == 0) {
        PyErr_SetString(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
        return NULL;
    }
    if (nn_dim_wrap(ctx, dim, t->ndim, &d)) return py_engine_error();
    int64_t size = t->shape[d];
    if (start < -size || start > size) {
        PyErr_Format(PyExc_IndexError,
                     "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                     (long long)-size, (long long)size, (long long)start);
        return NULL;
    }
    if (start < 0) start += size;
    if (length < 0 || start + length > size) {
        PyErr_Format(PyExc_RuntimeError,
                     "start (%lld) + length (%lld) exceeds dimension size (%lld).",
                     (long long)start, (long long)length, (long long)size);
        return NULL;
    }
    return py_tensor_wrap(nn_slice(ctx, t, d, start, start + length, 1));
}

PY_OP(select)
static PyObject *select_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("select", 3, "input", "dim", "index");
    nn_tensor *t;
    int64_t dim, index;
    if (py_tensor_arg(a_[0], "select", "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_int_arg(a_[2], "index", &index) < 0)
        return NULL;
    return py_tensor_wrap(nn_select(ctx_(), t, dim, index));
}

PY_OP(flip)
static PyObject *flip_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    nn_tensor *t;
    int64_t d[NN_MAX_DIMS];
    int n;
    if (py_ops_tensor_varints("flip", args, nargs, kwnames, "dims", &t, d, &n) < 0) return NULL;
    return py_tensor_wrap_named(nn_flip(ctx_(), t, d, n), "FlipBackward0");
}

static PyObject *flip_one(const char *name, int64_t dim, int min_dims, PyObject *const *args,
                          Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    if (t->ndim < min_dims) {
        PyErr_Format(PyExc_RuntimeError, "Input must be >= %d-d.", min_dims);
        return NULL;
    }
    return py_tensor_wrap_named(nn_flip(ctx_(), t, &dim, 1), "FlipBackward0");
}
PY_OP_VIA(fliplr, flip_one, 1, 2)
PY_OP_VIA(flipud, flip_one, 0, 1)

/* roll(input, shifts, dims=None): cat of two slices per dim */
static nn_tensor *roll_dim(nn_ctx *ctx, nn_tensor *x, int64_t shift, int d) {
    int64_t n = x->shape[d];
    if (n == 0) return nn_tensor_retain(x);
    shift = ((shift % n) + n) % n;
    if (shift == 0) return nn_tensor_retain(x);
    nn_tensor *tail = nn_slice(ctx, x, d, n - shift, n, 1);
    nn_tensor *head = tail ? nn_slice(ctx, x, d, 0, n - shift, 1) : NULL;
    nn_tensor *parts[2] = {tail, head};
    nn_tensor *r = head ? nn_cat(ctx, parts, 2, d) : NULL;
    nn_tensor_release(tail);
    nn_tensor_release(head);
    return r;
}

PY_OP(roll)
static PyObject *roll_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("roll", 2, "input", "shifts", "dims");
    nn_tensor *t;
    int64_t shifts[NN_MAX_DIMS], dims[NN_MAX_DIMS];
    int ns, nd = 0;
    if (py_tensor_arg(a_[0], "roll", "input", &t) < 0 ||
        py_ints_arg(a_[1], "shifts", shifts, &ns) < 0)
        return NULL;
    if (py_given(a_[2]) && py_ints_arg(a_[2], "dims", dims, &nd) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    nn_tensor *r;
    if (nd == 0) {
        if (ns != 1) {
            PyErr_SetString(PyExc_RuntimeError,
                            "shifts and dimensions must align. shifts: 2, dims:0");
            return NULL;
        }
        int64_t n = nn_tensor_numel(t);
        nn_tensor *flat = nn_reshape(ctx, t, 1, &n);
        nn_tensor *rolled = flat ? roll_dim(ctx, flat, shifts[0], 0) : NULL;
        r = rolled ? nn_reshape(ctx, rolled, t->ndim, t->shape) : NULL;
        nn_tensor_release(flat);
        nn_tensor_release(rolled);
    } else {
        if (ns != nd) {
            PyErr_Format(PyExc_RuntimeError,
                         "shifts and dimensions must align. shifts: %d, dims:%d", ns, nd);
            return NULL;
        }
        r = nn_tensor_retain(t);
        for (int i = 0; r && i < nd; i++) {
            int d;
            if (nn_dim_wrap(ctx, dims[i], t->ndim, &d)) {
                nn_tensor_release(r);
                return py_engine_error();
            }
            nn_tensor *next = roll_dim(ctx, r, shifts[i], d);
            nn_tensor_release(r);
            r = next;
        }
        if (r == t) { /* no shift at all: still a new tensor */
            nn_tensor_release(r);
            r = clone_of(t, NN_FORMAT_CONTIGUOUS);
        }
    }
    return py_tensor_wrap_named(r, "RollBackward0");
}

static PyObject *triangle(const char *name, bool upper, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames) {
    PARSE(name, 1, "input", "diagonal", "$out");
    nn_tensor *t;
    int64_t diag = 0;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "diagonal", &diag) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    return py_tensor_wrap(upper ? nn_triu(ctx, t, diag) : nn_tril(ctx, t, diag));
}
PY_OP_VIA(tril, triangle, false)
PY_OP_VIA(triu, triangle, true)

/* The elements of the [offset] diagonal of the last two dims of [x] (a
 * gather of the flattened matrices): [..., L]. */
static nn_tensor *diagonal_last2(nn_ctx *ctx, nn_tensor *x, int64_t offset) {
    int nd = x->ndim;
    int64_t rows = x->shape[nd - 2], cols = x->shape[nd - 1];
    int64_t r0 = offset < 0 ? -offset : 0, c0 = offset > 0 ? offset : 0;
    int64_t len = rows - r0 < cols - c0 ? rows - r0 : cols - c0;
    if (len < 0) len = 0;
    int64_t shape[NN_MAX_DIMS];
    for (int i = 0; i < nd - 2; i++) shape[i] = x->shape[i];
    shape[nd - 2] = rows * cols;
    nn_tensor *flat = nn_reshape(ctx, x, nd - 1, shape);
    nn_tensor *idx = flat ? nn_tensor_empty(ctx, NN_INT64, 1, &len) : NULL;
    for (int64_t i = 0; idx && i < len; i++)
        ((int64_t *)nn_tensor_data(idx))[i] = (r0 + i) * cols + c0 + i;
    nn_tensor *r = idx ? nn_index(ctx, flat, nd - 2, &idx, 1) : NULL;
    nn_tensor_release(flat);
    nn_tensor_release(idx);
    return r;
}

PY_OP(diag)
static PyObject *diag_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("diag", 1, "input", "diagonal", "$out");
    nn_tensor *t;
    int64_t k = 0;
    if (py_tensor_arg(a_[0], "diag", "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "diagonal", &k) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (t->ndim == 2) return py_tensor_wrap_named(diagonal_last2(ctx, t, k), "DiagBackward0");
    if (t->ndim != 1) {
        PyErr_SetString(PyExc_RuntimeError, "diag(): Supports 1D or 2D tensors. Got 0D");
        if (t->ndim > 2) {
            PyObject *m =
                PyUnicode_FromFormat("diag(): Supports 1D or 2D tensors. Got %dD", t->ndim);
            if (m) {
                PyErr_SetObject(PyExc_RuntimeError, m);
                Py_DECREF(m);
            }
        }
        return NULL;
    }
    /* a square matrix with v on the diagonal: an index_put into zeros */
    int64_t len = t->shape[0], ak = k < 0 ? -k : k, n = len + ak;
    int64_t sh[2] = {n, n};
    nn_tensor *z = nn_zeros(ctx, t->dtype, 2, sh);
    nn_tensor *idx = z ? nn_tensor_empty(ctx, NN_INT64, 1, &len) : NULL;
    for (int64_t i = 0; idx && i < len; i++)
        ((int64_t *)nn_tensor_data(idx))[i] = (i + (k < 0 ? ak : 0)) * n + i + (k > 0 ? k : 0);
    nn_tensor *r = idx ? nn_put(ctx, z, t, idx) : NULL;
    nn_tensor_release(z);
    nn_tensor_release(idx);
    return py_tensor_wrap_named(r, "DiagBackward0");
}

PY_OP(diagonal)
static PyObject *diagonal_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("diagonal", 1, "input", "offset", "dim1", "dim2");
    nn_tensor *t;
    int64_t off = 0, d1 = 0, d2 = 1;
    if (py_tensor_arg(a_[0], "diagonal", "input", &t) < 0) return NULL;
    if (a_[1] && py_int_arg(a_[1], "offset", &off) < 0) return NULL;
    if (a_[2] && py_int_arg(a_[2], "dim1", &d1) < 0) return NULL;
    if (a_[3] && py_int_arg(a_[3], "dim2", &d2) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    int w1, w2;
    if (nn_dim_wrap(ctx, d1, t->ndim, &w1) || nn_dim_wrap(ctx, d2, t->ndim, &w2))
        return py_engine_error();
    if (w1 == w2) {
        PyErr_Format(PyExc_RuntimeError, "diagonal dimensions cannot be identical %lld, %lld",
                     (long long)d1, (long long)d2);
        return NULL;
    }
    int64_t order[NN_MAX_DIMS];
    int n = 0;
    for (int i = 0; i < t->ndim; i++)
        if (i != w1 && i != w2) order[n++] = i;
    order[n++] = w1;
    order[n++] = w2;
    nn_tensor *p = nn_permute(ctx, t, order);
    nn_tensor *r = p ? diagonal_last2(ctx, p, off) : NULL;
    nn_tensor_release(p);
    return py_tensor_wrap_named(r, "DiagonalBackward0");
}

PY_OP(trace)
static PyObject *trace_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("trace", 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "trace", "input", &t) < 0) return NULL;
    if (t->ndim != 2) {
        PyErr_SetString(PyExc_RuntimeError, "trace: expected a matrix");
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    nn_tensor *d = diagonal_last2(ctx, t, 0);
    nn_tensor *r = d ? nn_sum(ctx, d, NULL, 0, false) : NULL;
    nn_tensor_release(d);
    return py_tensor_wrap_named(r, "TraceBackward0");
}

PY_OP(gather)
static PyObject *gather_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("gather", 3, "input", "dim", "index", "$sparse_grad", "out");
    nn_tensor *t, *idx;
    int64_t dim;
    if (py_tensor_arg(a_[0], "gather", "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_tensor_arg(a_[2], "gather", "index", &idx) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_gather(ctx_(), t, dim, idx), "GatherBackward0");
}

PY_OP(index_select)
static PyObject *index_select_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("index_select", 3, "input", "dim", "index", "$out");
    nn_tensor *t, *idx;
    int64_t dim;
    if (py_tensor_arg(a_[0], "index_select", "input", &t) < 0 ||
        py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_tensor_arg(a_[2], "index_select", "index", &idx) < 0)
        return NULL;
    int d;
    if (py_ops_dim(dim, t->ndim, &d) < 0) return NULL;
    if (idx->ndim > 1) {
        PyErr_SetString(PyExc_IndexError, "index_select(): Index is supposed to be a vector");
        return NULL;
    }
    int64_t size = t->ndim ? t->shape[d] : 1, n = nn_tensor_numel(idx);
    for (int64_t i = 0; nn_dtype_is_int(idx->dtype) && i < n; i++) {
        int64_t v = nn_tensor_get_flat_int(idx, i);
        if (v >= 0 && v < size) continue;
        /* PyTorch's CPU kernel for dim 1 of a tensor of two or more dims
         * is a separate one, with its own message. */
        if (t->ndim > 1 && d == 1)
            PyErr_Format(PyExc_RuntimeError,
                         "INDICES element is out of DATA bounds, id=%lld axis_dim=%lld",
                         (long long)v, (long long)size);
        else
            PyErr_SetString(PyExc_IndexError, "index out of range in self");
        return NULL;
    }
    return py_tensor_wrap_named(nn_index_select(ctx_(), t, dim, idx), "IndexSelectBackward0");
}

/* scatter(input, dim, index, src=None, value=None, *, reduce=None) and
 * scatter_add(input, dim, index, src) */
static PyObject *scatter_common(const char *name, bool add, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames) {
    PARSE(name, 3, "input", "dim", "index", "src", "value", "$reduce");
    nn_tensor *t, *idx, *src;
    int64_t dim;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0 || py_int_arg(a_[1], "dim", &dim) < 0 ||
        py_tensor_arg(a_[2], name, "index", &idx) < 0)
        return NULL;
    if (py_given(a_[5])) {
        const char *r = PyUnicode_Check(a_[5]) ? PyUnicode_AsUTF8(a_[5]) : "";
        if (!r) return NULL;
        if (strcmp(r, "add") != 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "%s(): reduce='%s' is not available in nndb; reduce='add' (or "
                         "scatter_add) is",
                         name, r);
            return NULL;
        }
        add = true;
    }
    PyObject *sv = a_[3] ? a_[3] : a_[4];
    if (!sv) {
        PyErr_Format(PyExc_TypeError,
                     "%s() missing 1 required positional argument: 'src' or "
                     "'value'",
                     name);
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    if (py_tensor_check(sv)) {
        src = nn_tensor_retain(py_tensor_of(sv));
    } else {
        double v;
        if (py_float_arg(sv, "value", &v) < 0) return NULL;
        src = nn_full(ctx, t->dtype, idx->ndim, idx->shape, v);
        if (!src) return py_engine_error();
    }
    nn_tensor *r = nn_scatter(ctx, t, dim, idx, src, add);
    nn_tensor_release(src);
    return py_tensor_wrap_named(r, add ? "ScatterAddBackward0" : "ScatterBackward0");
}
PY_OP_VIA(scatter, scatter_common, false)
PY_OP_VIA(scatter_add, scatter_common, true)

/* masked_fill(input, mask, value) = where(mask, value, input) */
PY_OP(masked_fill)
static PyObject *masked_fill_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("masked_fill", 3, "input", "mask", "value");
    nn_tensor *t, *mask, *val;
    if (py_tensor_arg(a_[0], "masked_fill", "input", &t) < 0 ||
        py_tensor_arg(a_[1], "masked_fill", "mask", &mask) < 0)
        return NULL;
    if (nn_dtype_is_float(mask->dtype)) {
        PyErr_Format(PyExc_RuntimeError,
                     "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     nn_dtype_name(mask->dtype));
        return NULL;
    }
    if (py_tensor_check(a_[2]) && py_tensor_of(a_[2])->ndim != 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                     "with %d dimension(s).",
                     py_tensor_of(a_[2])->ndim);
        return NULL;
    }
    if (py_operand(a_[2], "masked_fill", "value", &val) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    nn_tensor *vc =
        val->requires_grad ? nn_to(ctx, val, t->dtype) : nn_tensor_cast_raw(ctx, val, t->dtype);
    nn_tensor_release(val);
    if (!vc) return py_engine_error();
    vc->is_wrapped_number = true;
    /* torch takes an integer mask too (nonzero is true) */
    nn_tensor *mb =
        mask->dtype == NN_BOOL ? nn_tensor_retain(mask) : nn_tensor_cast_raw(ctx, mask, NN_BOOL);
    nn_tensor *r = mb ? nn_where(ctx, mb, vc, t) : NULL;
    nn_tensor_release(mb);
    nn_tensor_release(vc);
    return py_tensor_wrap_named(r, "MaskedFillBackward0");
}

PY_OP(masked_select)
static PyObject *masked_select_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("masked_select", 2, "input", "mask", "$out");
    nn_tensor *t, *mask;
    if (py_tensor_arg(a_[0], "masked_select", "input", &t) < 0 ||
        py_tensor_arg(a_[1], "masked_select", "mask", &mask) < 0)
        return NULL;
    if (mask->dtype != NN_BOOL) {
        PyErr_Format(PyExc_RuntimeError, "masked_select: expected BoolTensor for mask");
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    /* the mask broadcasts with the input */
    int nd;
    int64_t shape[NN_MAX_DIMS];
    nn_tensor *probe = nn_logical_and(ctx, mask, mask);
    nn_tensor *both = probe ? nn_where(ctx, probe, t, t) : NULL;
    nn_tensor_release(probe);
    if (!both) return py_engine_error();
    nd = both->ndim;
    memcpy(shape, both->shape, sizeof(int64_t) * (size_t)nd);
    nn_tensor_release(both);
    nn_tensor *x = nn_expand(ctx, t, nd, shape);
    nn_tensor *m = x ? nn_expand(ctx, mask, nd, shape) : NULL;
    nn_tensor *mc = m ? nn_tensor_contiguous_raw(ctx, m) : NULL;
    nn_tensor *r = mc ? nn_masked_select(ctx, x, mc) : NULL;
    nn_tensor *tmp[] = {x, m, mc};
    py_ops_release(tmp, 3);
    if (r && r->ndim != 1) { /* a full-shape mask gives a 1-D result */
        int64_t n = nn_tensor_numel(r);
        nn_tensor *f = nn_reshape(ctx, r, 1, &n);
        nn_tensor_release(r);
        r = f;
    }
    return py_tensor_wrap_named(r, "MaskedSelectBackward0");
}

/* nonzero(input, as_tuple=True): one 1-D tensor per dim */
PyObject *py_ops_nonzero_tuple(nn_tensor *t);
PyObject *py_ops_nonzero_tuple(nn_tensor *t) {
    nn_ctx *ctx = ctx_();
    nn_tensor *nz = nn_nonzero(ctx, t);
    if (!nz) return py_engine_error();
    int nd = t->ndim ? t->ndim : 1;
    nn_tensor *cols[NN_MAX_DIMS];
    int made = 0;
    for (; made < nd; made++) {
        nn_tensor *col;
        if (t->ndim) {
            nn_tensor *s = nn_select(ctx, nz, 1, made);
            col = s ? nn_contiguous(ctx, s) : NULL;
            nn_tensor_release(s);
        } else {
            int64_t n = nz->shape[0];
            col = nn_zeros(ctx, NN_INT64, 1, &n);
        }
        if (!col) break;
        cols[made] = col;
    }
    nn_tensor_release(nz);
    if (made < nd) {
        py_ops_release(cols, made);
        return py_engine_error();
    }
    return py_ops_tuple(cols, nd, NULL);
}

PY_OP(nonzero)
static PyObject *nonzero_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("nonzero", 1, "input", "$as_tuple", "out");
    nn_tensor *t;
    bool as_tuple = false;
    if (py_tensor_arg(a_[0], "nonzero", "input", &t) < 0) return NULL;
    if (a_[1] && py_bool_arg(a_[1], "as_tuple", &as_tuple) < 0) return NULL;
    if (as_tuple) return py_ops_nonzero_tuple(t);
    return py_tensor_wrap(nn_nonzero(ctx_(), t));
}

PY_OP(argwhere)
static PyObject *argwhere_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("argwhere", 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "argwhere", "input", &t) < 0) return NULL;
    return py_tensor_wrap(nn_nonzero(ctx_(), t));
}

/* ---- sorting ---- */

PY_OP(sort)
static PyObject *sort_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("sort", 1, "input", "dim", "descending", "$stable", "out");
    nn_tensor *t;
    int64_t dim = -1;
    bool desc = false;
    if (py_tensor_arg(a_[0], "sort", "input", &t) < 0) return NULL;
    if (a_[1] && PyBool_Check(a_[1]) && !a_[2]) { /* sort(x, True): descending */
        a_[2] = a_[1];
        a_[1] = NULL;
    }
    if (py_given(a_[1]) && py_int_arg(a_[1], "dim", &dim) < 0) return NULL;
    if (a_[2] && py_bool_arg(a_[2], "descending", &desc) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (t->ndim == 0) {
        nn_tensor *v = clone_of(t, NN_FORMAT_CONTIGUOUS), *i = nn_zeros(ctx, NN_INT64, 0, NULL);
        return py_ops_values_indices("sort", v, i, "SortBackward0");
    }
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_sort(ctx, t, dim, desc, &idx);
    return py_ops_values_indices("sort", v, idx, "SortBackward0");
}

PY_OP(argsort)
static PyObject *argsort_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("argsort", 1, "input", "dim", "descending", "$stable");
    nn_tensor *t;
    int64_t dim = -1;
    bool desc = false;
    if (py_tensor_arg(a_[0], "argsort", "input", &t) < 0) return NULL;
    if (py_given(a_[1]) && py_int_arg(a_[1], "dim", &dim) < 0) return NULL;
    if (a_[2] && py_bool_arg(a_[2], "descending", &desc) < 0) return NULL;
    nn_ctx *ctx = ctx_();
    if (t->ndim == 0) return py_tensor_wrap(nn_zeros(ctx, NN_INT64, 0, NULL));
    return py_tensor_wrap(nn_argsort(ctx, t, dim, desc));
}

PY_OP(msort)
static PyObject *msort_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("msort", 1, "input");
    nn_tensor *t;
    if (py_tensor_arg(a_[0], "msort", "input", &t) < 0) return NULL;
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_sort(ctx_(), t, 0, false, &idx);
    nn_tensor_release(idx);
    return py_tensor_wrap_named(v, "SortBackward0");
}

PY_OP(topk)
static PyObject *topk_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("topk", 2, "input", "k", "dim", "largest", "sorted", "$out");
    nn_tensor *t;
    int64_t k, dim = -1;
    bool largest = true;
    if (py_tensor_arg(a_[0], "topk", "input", &t) < 0 || py_int_arg(a_[1], "k", &k) < 0)
        return NULL;
    if (py_given(a_[2]) && py_int_arg(a_[2], "dim", &dim) < 0) return NULL;
    if (a_[3] && py_bool_arg(a_[3], "largest", &largest) < 0) return NULL;
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_topk(ctx_(), t, k, dim, largest, &idx);
    return py_ops_values_indices("topk", v, idx, "TopkBackward0");
}

/* unique(sorted=False) gives PyTorch 1.13's order: its CPU kernel puts
 * the values in a C++ std::unordered_set and copies them out in the set's
 * iteration order, so the order is that of GCC's libstdc++ hash table
 * (Debian builds PyTorch with GCC). uq_set_* replays that table: the same
 * hash functions (std::hash: the value itself for integers and bool, the
 * raw bits for bfloat16, libstdc++'s _Hash_bytes of the bits for float
 * and double, 0 for both zeros), the same bucket counts (its prime list,
 * its small-size table, growth by 2 from 13 buckets) and the same linking
 * (a new node goes first in its bucket; a node of an empty bucket goes
 * first in the list; a rehash relinks in list order). */
typedef struct uq_set {
    uint64_t nb, next_resize; /* buckets; the size that triggers a rehash */
    int64_t head, count;      /* first node; nodes */
    int64_t *bk;              /* per bucket: the node before its first, UQ_BB, or -1 */
    int64_t *nx;              /* per node: the next node, or -1 */
    uint64_t *hc;             /* per node: its hash */
} uq_set;

#define UQ_BB (-2) /* the list's "before begin" sentinel */

/* libstdc++'s __prime_list (src/shared/hashtable-aux.cc) up to 2^45: the
 * bucket counts its _Prime_rehash_policy chooses from. */
// clang-format off
static const uint64_t uq_primes[] = {
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83,
    89, 97, 103, 109, 113, 127, 137, 139, 149, 157, 167, 179, 193, 199, 211, 227, 241, 257,
    277, 293, 313, 337, 359, 383, 409, 439, 467, 503, 541, 577, 619, 661, 709, 761, 823, 887,
    953, 1031, 1109, 1193, 1289, 1381, 1493, 1613, 1741, 1879, 2029, 2179, 2357, 2549, 2753,
    2971, 3209, 3469, 3739, 4027, 4349, 4703, 5087, 5503, 5953, 6427, 6949, 7517, 8123, 8783,
    9497, 10273, 11113, 12011, 12983, 14033, 15173, 16411, 17749, 19183, 20753, 22447, 24281,
    26267, 28411, 30727, 33223, 35933, 38873, 42043, 45481, 49201, 53201, 57557, 62233,
    67307, 72817, 78779, 85229, 92203, 99733, 107897, 116731, 126271, 136607, 147793, 159871,
    172933, 187091, 202409, 218971, 236897, 256279, 277261, 299951, 324503, 351061, 379787,
    410857, 444487, 480881, 520241, 562841, 608903, 658753, 712697, 771049, 834181, 902483,
    976369, 1056323, 1142821, 1236397, 1337629, 1447153, 1565659, 1693859, 1832561, 1982627,
    2144977, 2320627, 2510653, 2716249, 2938679, 3179303, 3439651, 3721303, 4026031, 4355707,
    4712381, 5098259, 5515729, 5967347, 6456007, 6984629, 7556579, 8175383, 8844859, 9569143,
    10352717, 11200489, 12117689, 13109983, 14183539, 15345007, 16601593, 17961079, 19431899,
    21023161, 22744717, 24607243, 26622317, 28802401, 31160981, 33712729, 36473443, 39460231,
    42691603, 46187573, 49969847, 54061849, 58488943, 63278561, 68460391, 74066549, 80131819,
    86693767, 93793069, 101473717, 109783337, 118773397, 128499677, 139022417, 150406843,
    162723577, 176048909, 190465427, 206062531, 222936881, 241193053, 260944219, 282312799,
    305431229, 330442829, 357502601, 386778277, 418451333, 452718089, 489790921, 529899637,
    573292817, 620239453, 671030513, 725980837, 785430967, 849749479, 919334987, 994618837,
    1076067617, 1164186217, 1259520799, 1362662261, 1474249943, 1594975441, 1725587117,
    1866894511, 2019773507, 2185171673, 2364114217, 2557710269, 2767159799, 2993761039,
    3238918481, 3504151727, 3791104843, 4101556399, 4294967291, 6442450933, 8589934583,
    12884901857, 17179869143, 25769803693, 34359738337, 51539607367, 68719476731,
    103079215087, 137438953447, 206158430123, 274877906899, 412316860387, 549755813881,
    824633720731, 1099511627689, 1649267441579, 2199023255531, 3298534883309, 4398046511093,
    6597069766607, 8796093022151, 13194139533241, 17592186044399, 26388279066581,
    35184372088777, 52776558133177};
// clang-format on
#define UQ_NPRIMES ((int)(sizeof uq_primes / sizeof uq_primes[0]))

/* _Prime_rehash_policy::_M_next_bkt (max load factor 1) */
static uint64_t uq_next_bkt(uq_set *s, uint64_t n) {
    static const unsigned char fast[] = {2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13};
    if (n < sizeof fast) {
        if (n == 0) return 1;
        s->next_resize = fast[n];
        return fast[n];
    }
    int lo = 6, hi = UQ_NPRIMES - 1; /* lower_bound over [6, last) */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (uq_primes[mid] < n)
            lo = mid + 1;
        else
            hi = mid;
    }
    s->next_resize = uq_primes[lo];
    return uq_primes[lo];
}

static int uq_rehash(uq_set *s, uint64_t nb) {
    int64_t *bk = PyMem_Malloc((size_t)nb * sizeof *bk);
    if (!bk) return -1;
    for (uint64_t i = 0; i < nb; i++) bk[i] = -1;
    int64_t p = s->head;
    s->head = -1;
    uint64_t bbegin = 0;
    while (p >= 0) {
        int64_t next = s->nx[p];
        uint64_t b = s->hc[p] % nb;
        if (bk[b] == -1) {
            s->nx[p] = s->head;
            s->head = p;
            bk[b] = UQ_BB;
            if (s->nx[p] >= 0) bk[bbegin] = p;
            bbegin = b;
        } else {
            int64_t *link = bk[b] == UQ_BB ? &s->head : &s->nx[bk[b]];
            s->nx[p] = *link;
            *link = p;
        }
        p = next;
    }
    PyMem_Free(s->bk);
    s->bk = bk;
    s->nb = nb;
    return 0;
}

/* Insert node [id] (hash [h]) unless an equal one is there ([eq] compares
 * two nodes): 1 when inserted, 0 when present, -1 out of memory. */
static int uq_insert(uq_set *s, int64_t id, uint64_t h, bool (*eq)(int64_t, int64_t, void *),
                     void *arg) {
    uint64_t b = h % s->nb;
    if (s->bk[b] != -1) {
        for (int64_t p = s->bk[b] == UQ_BB ? s->head : s->nx[s->bk[b]];
             p >= 0 && s->hc[p] % s->nb == b; p = s->nx[p])
            if (eq(p, id, arg)) return 0;
    }
    /* _M_need_rehash(n_bkt, n_elt, 1) */
    uint64_t n = (uint64_t)s->count + 1;
    if (n > s->next_resize) {
        uint64_t min_bkts = n > (s->next_resize ? 0 : 11) ? n : 11;
        if (min_bkts >= s->nb) {
            uint64_t want = min_bkts + 1 > s->nb * 2 ? min_bkts + 1 : s->nb * 2;
            if (uq_rehash(s, uq_next_bkt(s, want)) < 0) return -1;
            b = h % s->nb;
        } else {
            s->next_resize = s->nb;
        }
    }
    s->hc[id] = h;
    if (s->bk[b] != -1) {
        int64_t *link = s->bk[b] == UQ_BB ? &s->head : &s->nx[s->bk[b]];
        s->nx[id] = *link;
        *link = id;
    } else {
        s->nx[id] = s->head;
        s->head = id;
        if (s->nx[id] >= 0) s->bk[s->hc[s->nx[id]] % s->nb] = id;
        s->bk[b] = UQ_BB;
    }
    s->count++;
    return 1;
}

/* libstdc++'s _Hash_bytes (the 64-bit one) of [len] 4 or 8 bytes at [p] */
static uint64_t uq_hash_bytes(const void *p, size_t len) {
    const uint64_t mul = ((uint64_t)0xc6a4a793UL << 32) + 0x5bd1e995UL;
    uint64_t h = 0xc70f6907UL ^ (len * mul), d;
    if (len == 8) {
        memcpy(&d, p, 8);
        d *= mul;
        d = (d ^ (d >> 47)) * mul;
        h = (h ^ d) * mul;
    } else {
        uint32_t w;
        memcpy(&w, p, 4);
        h = (h ^ w) * mul;
    }
    h = (h ^ (h >> 47)) * mul;
    return h ^ (h >> 47);
}

static int64_t uq_find(const uq_set *s, int64_t id, uint64_t h,
                       bool (*eq)(int64_t, int64_t, void *), void *arg) {
    uint64_t b = h % s->nb;
    if (s->bk[b] == -1) return -1;
    for (int64_t p = s->bk[b] == UQ_BB ? s->head : s->nx[s->bk[b]]; p >= 0 && s->hc[p] % s->nb == b;
         p = s->nx[p])
        if (eq(p, id, arg)) return p;
    return -1;
}

/* unique(input, sorted=True, return_inverse=False, return_counts=False,
 * dim=None) of the flattened values, as PyTorch 1.13's CPU kernel: the
 * distinct values in the hash set's order (above), sorted when asked
 * (NaNs, never equal to anything, each kept, last); the inverse and the
 * counts through the value-to-index maps PyTorch uses, where a NaN finds
 * nothing (inverse 0, count 0). unique_consecutive: runs of equal values. */
typedef struct uq_item {
    double v;
    int64_t iv, pos;
} uq_item;

typedef struct uq_data {
    const uq_item *items;
    bool is_int;
} uq_data;

static bool uq_eq(int64_t a, int64_t b, void *arg) {
    const uq_data *d = arg;
    return d->is_int ? d->items[a].iv == d->items[b].iv : d->items[a].v == d->items[b].v;
}

static uint64_t uq_hash(nn_dtype dt, const uq_item *it) {
    switch (dt) {
    case NN_FLOAT32: {
        float f = (float)it->v;
        return f != 0 ? uq_hash_bytes(&f, 4) : 0;
    }
    case NN_FLOAT64: return it->v != 0 ? uq_hash_bytes(&it->v, 8) : 0;
    case NN_BFLOAT16: {
        float f = (float)it->v;
        uint32_t w;
        memcpy(&w, &f, 4);
        return w >> 16;
    }
    case NN_FLOAT16: {
        float f = (float)it->v;
        return f != 0 ? uq_hash_bytes(&f, 4) : 0;
    }
    default: return (uint64_t)it->iv;
    }
}

static bool uq_int;

/* ascending, NaNs last, ties (only NaNs) in set order */
static int uq_cmp(const void *a, const void *b) {
    const uq_item *x = a, *y = b;
    if (uq_int) {
        if (x->iv != y->iv) return x->iv < y->iv ? -1 : 1;
    } else {
        bool xn = x->v != x->v, yn = y->v != y->v;
        if (xn != yn) return xn ? 1 : -1;
        if (!xn && x->v != y->v) return x->v < y->v ? -1 : 1;
    }
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static PyObject *unique_common(const char *name, bool consecutive, PyObject *const *args,
                               Py_ssize_t nargs, PyObject *kwnames) {
    PARSE(name, 1, "input", "sorted", "return_inverse", "return_counts", "dim");
    nn_tensor *t;
    bool sorted = true, inv = false, counts = false;
    if (py_tensor_arg(a_[0], name, "input", &t) < 0) return NULL;
    if (consecutive) { /* unique_consecutive(input, return_inverse, return_counts, dim) */
        a_[4] = a_[3];
        a_[3] = a_[2];
        a_[2] = a_[1];
    } else if (a_[1] && py_bool_arg(a_[1], "sorted", &sorted) < 0) {
        return NULL;
    }
    if (a_[2] && py_bool_arg(a_[2], "return_inverse", &inv) < 0) return NULL;
    if (a_[3] && py_bool_arg(a_[3], "return_counts", &counts) < 0) return NULL;
    if (py_given(a_[4])) {
        PyErr_Format(PyExc_NotImplementedError,
                     "%s(dim=...) is not available in nndb; unique "
                     "of the flattened values is",
                     name);
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    int64_t n = nn_tensor_numel(t), k = 0;
    size_t cap = (size_t)(n ? n : 1);
    bool is_int = !nn_dtype_is_float(t->dtype);
    uq_item *items = PyMem_Calloc(cap, sizeof *items);
    uq_item *outs_v = PyMem_Calloc(cap, sizeof *outs_v);
    int64_t *inverse = PyMem_Calloc(cap, sizeof *inverse);
    int64_t *cnt = PyMem_Calloc(cap, sizeof *cnt);
    int64_t *slot = PyMem_Calloc(cap, sizeof *slot); /* first occurrence -> output index */
    uq_set set = {1,
                  0,
                  -1,
                  0,
                  PyMem_Malloc(sizeof(int64_t)),
                  PyMem_Calloc(cap, sizeof(int64_t)),
                  PyMem_Calloc(cap, sizeof(uint64_t))};
    nn_tensor *vals = NULL, *it = NULL, *ct = NULL;
    PyObject *r = NULL;
    if (!items || !outs_v || !inverse || !cnt || !slot || !set.bk || !set.nx || !set.hc) {
        PyErr_NoMemory();
        goto done;
    }
    set.bk[0] = -1;
    for (int64_t i = 0; i < n; i++) {
        items[i].pos = i;
        if (is_int)
            items[i].iv = nn_tensor_get_flat_int(t, i);
        else
            items[i].v = nn_tensor_get_flat(t, i);
    }
    if (consecutive) {
        for (int64_t i = 0; i < n; i++) {
            bool same =
                i > 0 && (is_int ? items[i].iv == items[i - 1].iv : items[i].v == items[i - 1].v);
            if (!same) {
                outs_v[k] = items[i];
                cnt[k] = 0;
                k++;
            }
            cnt[k - 1]++;
            inverse[i] = k - 1;
        }
    } else {
        uq_data d = {items, is_int};
        for (int64_t i = 0; i < n; i++) {
            if (uq_insert(&set, i, uq_hash(t->dtype, &items[i]), uq_eq, &d) < 0) {
                PyErr_NoMemory();
                goto done;
            }
        }
        for (int64_t p = set.head; p >= 0; p = set.nx[p]) {
            outs_v[k] = items[p];
            outs_v[k].pos = p;
            k++;
        }
        if (sorted) {
            uq_int = is_int;
            qsort(outs_v, (size_t)k, sizeof *outs_v, uq_cmp);
        }
        for (int64_t j = 0; j < k; j++) slot[outs_v[j].pos] = j;
        for (int64_t i = 0; i < n; i++) {
            int64_t p = uq_find(&set, i, uq_hash(t->dtype, &items[i]), uq_eq, &d);
            inverse[i] = p >= 0 ? slot[p] : 0;
            if (p >= 0) cnt[slot[p]]++;
        }
    }
    vals = nn_tensor_empty(ctx, t->dtype, 1, &k);
    if (!vals) {
        py_engine_error();
        goto done;
    }
    for (int64_t i = 0; i < k; i++) {
        if (is_int)
            nn_dtype_store(t->dtype,
                           (char *)nn_tensor_data(vals) + i * (int64_t)nn_dtype_size(t->dtype),
                           (double)outs_v[i].iv);
        else
            nn_tensor_set_flat(vals, i, outs_v[i].v);
    }
    if (!inv && !counts) {
        r = py_tensor_wrap(vals);
        vals = NULL;
        goto done;
    }
    it = nn_tensor_empty(ctx, NN_INT64, t->ndim, t->shape);
    ct = it ? nn_tensor_empty(ctx, NN_INT64, 1, &k) : NULL;
    if (!ct) {
        py_engine_error();
        goto done;
    }
    memcpy(nn_tensor_data(it), inverse, (size_t)n * sizeof(int64_t));
    memcpy(nn_tensor_data(ct), cnt, (size_t)k * sizeof(int64_t));
    nn_tensor *outs[3];
    int no = 0;
    outs[no++] = vals;
    if (inv) outs[no++] = it;
    if (counts) outs[no++] = ct;
    if (!inv) nn_tensor_release(it);
    if (!counts) nn_tensor_release(ct);
    vals = it = ct = NULL;
    r = py_ops_tuple(outs, no, NULL);
done:
    nn_tensor_release(vals);
    nn_tensor_release(it);
    nn_tensor_release(ct);
    PyMem_Free(items);
    PyMem_Free(outs_v);
    PyMem_Free(inverse);
    PyMem_Free(cnt);
    PyMem_Free(slot);
    PyMem_Free(set.bk);
    PyMem_Free(set.nx);
    PyMem_Free(set.hc);
    return r;
}
PY_OP_VIA(unique, unique_common, false)
PY_OP(unique_consecutive)
static PyObject *unique_consecutive_impl(PyObject *const *args, Py_ssize_t nargs,
                                         PyObject *kwnames) {
    return unique_common("unique_consecutive", true, args, nargs, kwnames);
}

/* ---- matrix products ---- */

static PyObject *product_checked(const char *name, const char *fn_name, nn_tensor *a, nn_tensor *b,
                                 PyObject *out);

static PyObject *product(const char *name, int nd_a, int nd_b, const char *fn_name,
                         PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    /* the second operand's name is PyTorch's: mat2, mv's vec, dot's tensor */
    static const char *const kw_mat[] = {"input", "mat2", "$out", NULL};
    static const char *const kw_vec[] = {"input", "vec", "$out", NULL};
    static const char *const kw_dot[] = {"input", "tensor", "$out", NULL};
    const char *const *kw = strcmp(name, "dot") == 0  ? kw_dot
                            : strcmp(name, "mv") == 0 ? kw_vec
                                                      : kw_mat;
    PyObject *a_[4];
    (void)nd_a;
    (void)nd_b;
    if (py_parse(name, args, nargs, kwnames, kw, 2, a_) < 0) return NULL;
    if (!py_given(a_[2]) && py_ops_any_complex(a_, 2)) {
        PyObject *c = py_ops_complex_fallback(name, a_, 2);
        if (c || PyErr_Occurred()) return c;
    }
    nn_tensor *ts[2], *owned[2] = {NULL, NULL};
    if (py_tensor_arg(a_[0], name, "input", &ts[0]) < 0 ||
        py_tensor_arg(a_[1], name, kw[1], &ts[1]) < 0)
        return NULL;
    /* autocast's lower-precision list has mm and bmm (not mv, dot) */
    if (py_autocast_cpu_on() && (strcmp(name, "mm") == 0 || strcmp(name, "bmm") == 0) &&
        py_autocast_cast(PY_AUTOCAST_LOWER, ts, 2, owned) < 0)
        return py_engine_error();
    PyObject *r = product_checked(name, fn_name, ts[0], ts[1], a_[2]);
    py_autocast_release(owned, 2);
    return r;
}

/* [name]'s checks, then the product, into [out] when given. */
static PyObject *product_checked(const char *name, const char *fn_name, nn_tensor *a, nn_tensor *b,
                                 PyObject *out) {
    if (strcmp(name, "dot") == 0 && (a->ndim != 1 || b->ndim != 1)) {
        PyErr_Format(PyExc_RuntimeError, "1D tensors expected, but got %dD and %dD tensors",
                     a->ndim, b->ndim);
        return NULL;
    }
    if (strcmp(name, "mm") == 0 && (a->ndim != 2 || b->ndim != 2)) {
        PyErr_SetString(PyExc_RuntimeError,
                        a->ndim != 2 ? "self must be a matrix" : "mat2 must be a matrix");
        return NULL;
    }
    if (strcmp(name, "bmm") == 0 && (a->ndim != 3 || b->ndim != 3)) {
        PyErr_SetString(PyExc_RuntimeError,
                        a->ndim != 3 ? "batch1 must be a 3D tensor" : "batch2 must be a 3D tensor");
        return NULL;
    }
    if (strcmp(name, "mv") == 0 && (a->ndim != 2 || b->ndim != 1)) {
        PyErr_Format(PyExc_RuntimeError, "vector + matrix @ vector expected, got 1, %d, %d",
                     a->ndim, b->ndim);
        return NULL;
    }
    if (strcmp(name, "mv") == 0 && a->shape[1] != b->shape[0]) {
        PyErr_Format(PyExc_RuntimeError, "size mismatch, got %lld, %lldx%lld,%lld",
                     (long long)a->shape[0], (long long)a->shape[0], (long long)a->shape[1],
                     (long long)b->shape[0]);
        return NULL;
    }
    if (strcmp(name, "bmm") == 0 && (b->shape[0] != a->shape[0] || b->shape[1] != a->shape[2])) {
        PyErr_Format(PyExc_RuntimeError,
                     "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] "
                     "but got: [%lld, %lld].",
                     (long long)a->shape[0], (long long)a->shape[2], (long long)b->shape[0],
                     (long long)b->shape[1]);
        return NULL;
    }
    if (a->dtype != b->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s",
                     nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(b->dtype));
        if (strcmp(name, "dot") == 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_RuntimeError,
                         "dot : expected both vectors to have same dtype, but found %s and %s",
                         nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(b->dtype));
        }
        return NULL;
    }
    if (strcmp(name, "dot") == 0 && a->shape[0] != b->shape[0]) {
        PyErr_Format(PyExc_RuntimeError,
                     "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the "
                     "same number of elements, but got %lld and %lld elements respectively",
                     (long long)a->shape[0], (long long)b->shape[0], (long long)a->shape[0],
                     (long long)b->shape[0]);
        return NULL;
    }
    PyObject *r = py_tensor_wrap_named(nn_matmul(ctx_(), a, b), fn_name);
    if (!r || !py_given(out)) return r;
    return py_ops_out_result(r, out);
}

PY_OP(matmul)
static PyObject *matmul_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("matmul", 2, "input", "other", "$out");
    if (!py_given(a_[2]) && py_ops_any_complex(a_, 2)) {
        PyObject *c = py_ops_complex_fallback("matmul", a_, 2);
        if (c || PyErr_Occurred()) return c;
    }
    nn_tensor *a, *b;
    if (py_tensor_arg(a_[0], "matmul", "input", &a) < 0 ||
        py_tensor_arg(a_[1], "matmul", "other", &b) < 0)
        return NULL;
    nn_tensor *ts[2] = {a, b}, *owned[2] = {NULL, NULL};
    if (py_autocast_cpu_on() && py_autocast_cast(PY_AUTOCAST_LOWER, ts, 2, owned) < 0)
        return py_engine_error();
    a = ts[0], b = ts[1];
    if (a->dtype != b->dtype) {
        PyErr_Format(PyExc_RuntimeError, "expected scalar type %s but found %s",
                     nn_dtype_scalar_name(a->dtype), nn_dtype_scalar_name(b->dtype));
        py_autocast_release(owned, 2);
        return NULL;
    }
    PyObject *r = py_tensor_wrap(nn_matmul(ctx_(), a, b));
    py_autocast_release(owned, 2);
    return r;
}
PY_OP_VIA(mm, product, 2, 2, "MmBackward0")
PY_OP_VIA(bmm, product, 3, 3, "BmmBackward0")
PY_OP_VIA(mv, product, 2, 1, "MvBackward0")
PY_OP_VIA(dot, product, 1, 1, "DotBackward0")
PY_OP(inner)
static PyObject *inner_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PARSE("inner", 2, "input", "other", "$out");
    nn_tensor *a, *b;
    if (py_tensor_arg(a_[0], "inner", "input", &a) < 0 ||
        py_tensor_arg(a_[1], "inner", "other", &b) < 0)
        return NULL;
    nn_ctx *ctx = ctx_();
    if (a->ndim == 0 || b->ndim == 0) return py_tensor_wrap(nn_mul(ctx, a, b));
    if (b->ndim == 1) return py_tensor_wrap(nn_matmul(ctx, a, b));
    nn_tensor *bt = nn_transpose(ctx, b, -1, -2);
    nn_tensor *r = bt ? nn_matmul(ctx, a, bt) : NULL;
    nn_tensor_release(bt);
    return py_tensor_wrap(r);
}

static PyObject *outer_common(const char *name, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE(name, 2, "input", "vec2", "$out");
    nn_tensor *a, *b;
    if (py_tensor_arg(a_[0], name, "input", &a) < 0 || py_tensor_arg(a_[1], name, "vec2", &b) < 0)
        return NULL;
    if (a->ndim != 1 || b->ndim != 1) {
        PyErr_Format(PyExc_RuntimeError, "%s: Expected 1-D argument self, but got %d-D", name,
                     a->ndim != 1 ? a->ndim : b->ndim);
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    nn_tensor *col = nn_unsqueeze(ctx, a, 1);
    nn_tensor *r = col ? nn_mul(ctx, col, b) : NULL;
    nn_tensor_release(col);
    return py_tensor_wrap(r);
}
PY_OP_VIA(outer, outer_common)
PY_OP_VIA(ger, outer_common)

/* broadcast_tensors(*tensors): each expanded to the common shape */
static PyObject *f_broadcast_tensors(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    nn_ctx *ctx = ctx_();
    int nd = 0;
    int64_t shape[NN_MAX_DIMS];
    for (Py_ssize_t i = 0; i < nargs; i++) {
        nn_tensor *t;
        if (py_tensor_arg(args[i], "broadcast_tensors", "tensors", &t) < 0) return NULL;
        int n = nd > t->ndim ? nd : t->ndim;
        int64_t out[NN_MAX_DIMS];
        for (int k = 0; k < n; k++) {
            int ia = k - (n - nd), ib = k - (n - t->ndim);
            int64_t sa = ia >= 0 ? shape[ia] : 1, sb = ib >= 0 ? t->shape[ib] : 1;
            if (sa != sb && sa != 1 && sb != 1) {
                PyErr_Format(PyExc_RuntimeError,
                             "The size of tensor a (%lld) must match the size of tensor b (%lld) "
                             "at non-singleton dimension %d",
                             (long long)sa, (long long)sb, k);
                return NULL;
            }
            out[k] = sa == 1 ? sb : sa;
        }
        nd = n;
        memcpy(shape, out, sizeof(int64_t) * (size_t)n);
    }
    PyObject *tup = PyTuple_New(nargs);
    for (Py_ssize_t i = 0; tup && i < nargs; i++) {
        nn_tensor *t = py_tensor_of(args[i]);
        /* already the common shape: the argument itself, as PyTorch returns
         * it (no expand node: `b is a`, a leaf stays a leaf) */
        if (t->ndim == nd && memcmp(t->shape, shape, sizeof(int64_t) * (size_t)nd) == 0) {
            PyTuple_SET_ITEM(tup, i, Py_NewRef(args[i]));
            continue;
        }
        PyObject *o = py_tensor_wrap(nn_expand(ctx, t, nd, shape));
        if (!o) {
            Py_DECREF(tup);
            return NULL;
        }
        PyTuple_SET_ITEM(tup, i, o);
    }
    return tup;
}

/* ---- einsum: any number of operands, folded left to right; each fold
 * sums away the letters no later operand or the output needs, then one
 * batched matmul (batch, kept, contracted). Repeated letters within one
 * operand (diagonals) and '...' are not available. ---- */

typedef struct es_term {
    char s[NN_MAX_DIMS + 1];
    int n;
} es_term;

static int es_fail(const char *msg) {
    PyErr_SetString(PyExc_RuntimeError, msg);
    return -1;
}

static int es_parse_term(const char *p, size_t len, es_term *t) {
    t->n = 0;
    t->s[0] = 0;
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        if (c == ' ') continue;
        if (c == '.')
            return es_fail("einsum(): '...' (ellipsis) is not available in nndb; name every dim "
                           "with a letter");
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
            PyErr_Format(PyExc_RuntimeError,
                         "einsum(): invalid subscript given at index %zu in the equation string, "
                         "subscripts must be in [a-zA-Z]",
                         i);
            return -1;
        }
        if (t->n && memchr(t->s, c, (size_t)t->n)) {
            PyErr_Format(PyExc_RuntimeError,
                         "einsum(): subscript '%c' appears twice in one operand; repeated "
                         "subscripts (diagonals, traces) are not available in nndb",
                         c);
            return -1;
        }
        if (t->n >= NN_MAX_DIMS) return es_fail("einsum(): too many subscripts");
        t->s[t->n++] = c;
        t->s[t->n] = 0;
    }
    return 0;
}

static int es_pos(const es_term *t, char c) {
    for (int i = 0; i < t->n; i++)
        if (t->s[i] == c) return i;
    return -1;
}

/* Sum [x] (letters *t) over the letters [keep] lacks; takes over x. */
static nn_tensor *es_keep_only(nn_ctx *ctx, nn_tensor *x, es_term *t, const es_term *keep) {
    int64_t dims[NN_MAX_DIMS];
    int nd = 0;
    es_term kept = {{0}, 0};
    for (int i = 0; i < t->n; i++) {
        if (es_pos(keep, t->s[i]) < 0) {
            dims[nd++] = i;
        } else {
            kept.s[kept.n++] = t->s[i];
            kept.s[kept.n] = 0;
        }
    }
    if (!nd) return x;
    nn_tensor *r = nn_sum(ctx, x, dims, nd, false);
    nn_tensor_release(x);
    *t = kept;
    return r;
}

static nn_tensor *es_permute(nn_ctx *ctx, nn_tensor *x, const es_term *t, const char *want) {
    int64_t order[NN_MAX_DIMS];
    bool ident = true;
    for (int i = 0; i < t->n; i++) {
        order[i] = es_pos(t, want[i]);
        ident = ident && order[i] == i;
    }
    if (ident || t->n < 2) return nn_tensor_retain(x);
    return nn_permute(ctx, x, order);
}

/* a (letters ta) times b (letters tb), keeping the letters of [keep]; the
 * result's letters in *tr. */
static nn_tensor *es_pair(nn_ctx *ctx, nn_tensor *a, nn_tensor *b, es_term ta, es_term tb,
                          const es_term *keep, es_term *tr) {
    int64_t size[128] = {0};
    for (int i = 0; i < ta.n; i++) size[(int)ta.s[i]] = a->shape[i];
    for (int i = 0; i < tb.n; i++) {
        int c = (int)tb.s[i];
        if (es_pos(&ta, tb.s[i]) < 0 || size[c] == 1) size[c] = b->shape[i];
    }
    /* letters either side needs: the kept ones and the shared ones */
    es_term need_a = *keep, need_b = *keep;
    for (int i = 0; i < tb.n; i++)
        if (es_pos(&need_a, tb.s[i]) < 0) need_a.s[need_a.n++] = tb.s[i];
    for (int i = 0; i < ta.n; i++)
        if (es_pos(&need_b, ta.s[i]) < 0) need_b.s[need_b.n++] = ta.s[i];
    need_a.s[need_a.n] = need_b.s[need_b.n] = 0;
    nn_tensor *x = es_keep_only(ctx, nn_tensor_retain(a), &ta, &need_a);
    nn_tensor *y = x ? es_keep_only(ctx, nn_tensor_retain(b), &tb, &need_b) : NULL;
    if (!y) {
        nn_tensor_release(x);
        py_engine_error();
        return NULL;
    }
    char batch[NN_MAX_DIMS + 1] = "", ka[NN_MAX_DIMS + 1] = "", kb[NN_MAX_DIMS + 1] = "",
                             con[NN_MAX_DIMS + 1] = "";
    int nb = 0, na = 0, nk = 0, nc = 0;
    int64_t B = 1, M = 1, N = 1, K = 1;
    for (int i = 0; i < ta.n; i++) {
        char c = ta.s[i];
        bool inb = es_pos(&tb, c) >= 0, kept = es_pos(keep, c) >= 0;
        if (inb && kept)
            batch[nb++] = c, B *= size[(int)c];
        else if (inb)
            con[nc++] = c, K *= size[(int)c];
        else
            ka[na++] = c, M *= size[(int)c];
    }
    for (int i = 0; i < tb.n; i++)
        if (es_pos(&ta, tb.s[i]) < 0) kb[nk++] = tb.s[i], N *= size[(int)tb.s[i]];
    char wa[3 * NN_MAX_DIMS + 1], wb[3 * NN_MAX_DIMS + 1];
    snprintf(wa, sizeof wa, "%s%s%s", batch, ka, con);
    snprintf(wb, sizeof wb, "%s%s%s", batch, con, kb);
    tr->n = 0;
    for (const char *p = batch; *p; p++) tr->s[tr->n++] = *p;
    for (const char *p = ka; *p; p++) tr->s[tr->n++] = *p;
    for (const char *p = kb; *p; p++) tr->s[tr->n++] = *p;
    tr->s[tr->n] = 0;
    int64_t rs[NN_MAX_DIMS];
    for (int i = 0; i < tr->n; i++) rs[i] = size[(int)tr->s[i]];
    /* broadcast size-1 batch or contracted dims of either side */
    int64_t ea[NN_MAX_DIMS], eb[NN_MAX_DIMS];
    for (int i = 0; i < ta.n; i++) ea[i] = size[(int)wa[i]];
    for (int i = 0; i < tb.n; i++) eb[i] = size[(int)wb[i]];
    int64_t s3a[3] = {B, M, K}, s3b[3] = {B, K, N};
    nn_tensor *pa = es_permute(ctx, x, &ta, wa);
    nn_tensor *pb = pa ? es_permute(ctx, y, &tb, wb) : NULL;
    nn_tensor *xa = pb ? nn_expand(ctx, pa, ta.n, ea) : NULL;
    nn_tensor *xb = xa ? nn_expand(ctx, pb, tb.n, eb) : NULL;
    nn_tensor *ra = xb ? nn_reshape(ctx, xa, 3, s3a) : NULL;
    nn_tensor *rb = ra ? nn_reshape(ctx, xb, 3, s3b) : NULL;
    nn_tensor *mm = rb ? nn_matmul(ctx, ra, rb) : NULL;
    nn_tensor *res = mm ? nn_reshape(ctx, mm, tr->n, rs) : NULL;
    nn_tensor *all[] = {x, y, pa, pb, xa, xb, ra, rb, mm};
    py_ops_release(all, 9);
    if (!res) py_engine_error();
    return res;
}

static PyObject *f_einsum(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)m;
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_Format(PyExc_TypeError, "einsum() got an unexpected keyword argument '%U'",
                     PyTuple_GET_ITEM(kwnames, 0));
        return NULL;
    }
    if (nargs < 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "einsum(): expected an equation string and operands, as "
                                         "einsum('ij,jk->ik', a, b)");
        return NULL;
    }
    const char *eq = PyUnicode_AsUTF8(args[0]);
    if (!eq) return NULL;
    PyObject *const *opv = args + 1;
    Py_ssize_t nops = nargs - 1;
    PyObject *seq = NULL;
    if (nops == 1 && !py_tensor_check(args[1])) { /* einsum(eq, [a, b]) */
        seq = PySequence_Fast(args[1], "einsum(): operands must be tensors");
        if (!seq) return NULL;
        opv = PySequence_Fast_ITEMS(seq);
        nops = PySequence_Fast_GET_SIZE(seq);
    }
    PyObject *result = NULL;
    es_term *terms = PyMem_Calloc((size_t)(nops ? nops : 1), sizeof *terms);
    nn_tensor **ops = PyMem_Calloc((size_t)(nops ? nops : 1), sizeof *ops);
    if (!terms || !ops) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < nops; i++)
        if (py_tensor_arg(opv[i], "einsum", "operands", &ops[i]) < 0) goto done;
    const char *arrow = strstr(eq, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
    Py_ssize_t nterms = 0;
    for (size_t at = 0;;) {
        const char *comma = memchr(eq + at, ',', lhs_len - at);
        size_t end = comma ? (size_t)(comma - eq) : lhs_len;
        if (nterms < nops && es_parse_term(eq + at, end - at, &terms[nterms]) < 0) goto done;
        nterms++;
        if (!comma) break;
        at = end + 1;
    }
    if (nterms != nops) {
        PyErr_Format(PyExc_RuntimeError,
                     "einsum(): %s operands were provided than specified in the equation",
                     nops > nterms ? "more" : "fewer");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nops; i++)
        if (terms[i].n != ops[i]->ndim) {
            PyErr_Format(PyExc_RuntimeError,
                         "einsum(): the number of subscripts in the equation (%d) does not match "
                         "the number of dimensions (%d) for operand %zd and no ellipsis was given",
                         terms[i].n, ops[i]->ndim, i);
            goto done;
        }
    {
        /* sizes per letter must agree (or be 1) across the operands */
        int64_t seen[128];
        for (int c = 0; c < 128; c++) seen[c] = -1;
        for (Py_ssize_t k = 0; k < nops; k++)
            for (int i = 0; i < terms[k].n; i++) {
                int c = (int)terms[k].s[i];
                int64_t sz = ops[k]->shape[i];
                if (seen[c] >= 0 && seen[c] != sz && seen[c] != 1 && sz != 1) {
                    PyErr_Format(PyExc_RuntimeError,
                                 "einsum(): subscript %c has size %lld for operand %zd which does "
                                 "not broadcast with previously seen size %lld",
                                 c, (long long)sz, k, (long long)seen[c]);
                    goto done;
                }
                if (seen[c] < 0 || seen[c] == 1) seen[c] = sz;
            }
    }
    es_term to = {{0}, 0};
    if (arrow) {
        if (es_parse_term(arrow + 2, strlen(arrow + 2), &to) < 0) goto done;
        for (int i = 0; i < to.n; i++) {
            bool found = false;
            for (Py_ssize_t k = 0; k < nops && !found; k++) found = es_pos(&terms[k], to.s[i]) >= 0;
            if (!found) {
                PyErr_Format(PyExc_RuntimeError,
                             "einsum(): output subscript %c does not appear in the equation for "
                             "any input operand",
                             to.s[i]);
                goto done;
            }
        }
    } else { /* the letters that appear once, in alphabetical order */
        for (int c = 'A'; c <= 'z'; c++) {
            int cnt = 0;
            for (Py_ssize_t k = 0; k < nops; k++) cnt += es_pos(&terms[k], (char)c) >= 0;
            if (cnt == 1) {
                to.s[to.n++] = (char)c;
                to.s[to.n] = 0;
            }
        }
    }
    nn_ctx *ctx = ctx_();
    nn_tensor *cur = nn_tensor_retain(ops[0]);
    es_term tc = terms[0];
    for (Py_ssize_t k = 1; cur && k < nops; k++) {
        /* keep what the output or a later operand needs */
        es_term keep = to;
        for (Py_ssize_t j = k + 1; j < nops; j++)
            for (int i = 0; i < terms[j].n; i++)
                if (es_pos(&keep, terms[j].s[i]) < 0 && keep.n < NN_MAX_DIMS) {
                    keep.s[keep.n++] = terms[j].s[i];
                    keep.s[keep.n] = 0;
                }
        es_term tr;
        nn_tensor *next = es_pair(ctx, cur, ops[k], tc, terms[k], &keep, &tr);
        nn_tensor_release(cur);
        cur = next;
        tc = tr;
    }
    if (!cur) goto done;
    cur = es_keep_only(ctx, cur, &tc, &to);
    nn_tensor *r = cur ? es_permute(ctx, cur, &tc, to.s) : NULL;
    nn_tensor_release(cur);
    result = py_tensor_wrap(r);
done:
    PyMem_Free(terms);
    PyMem_Free(ops);
    Py_XDECREF(seq);
    return result;
}

/* meshgrid(*tensors, indexing='ij') */
static PyObject *f_meshgrid(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames) {
    (void)m;
    bool xy = false, indexed = false;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        const char *s = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, k));
        const char *v = PyUnicode_Check(args[nargs + k]) ? PyUnicode_AsUTF8(args[nargs + k]) : "";
        if (!s || !v) return NULL;
        if (strcmp(s, "indexing") != 0) {
            PyErr_Format(PyExc_TypeError, "meshgrid() got an unexpected keyword argument '%s'", s);
            return NULL;
        }
        if (strcmp(v, "xy") != 0 && strcmp(v, "ij") != 0) {
            PyErr_Format(PyExc_RuntimeError,
                         "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but "
                         "received: %s",
                         v);
            return NULL;
        }
        xy = strcmp(v, "xy") == 0;
        indexed = true;
    }
    /* PyTorch 1.13 warns when indexing is left to its default ('ij'), in
     * these words (its C++ source line included) */
    if (!indexed && PyErr_WarnEx(PyExc_UserWarning,
                                 "torch.meshgrid: in an upcoming release, it will be required to "
                                 "pass the indexing argument. (Triggered internally at  "
                                 "./aten/src/ATen/native/TensorShape.cpp:3190.)",
                                 1) < 0)
        return NULL;
    PyObject *seq = NULL;
    PyObject *const *tv = args;
    if (nargs == 1 && !py_tensor_check(args[0])) {
        seq = PySequence_Fast(args[0], "meshgrid expects tensors");
        if (!seq) return NULL;
        tv = PySequence_Fast_ITEMS(seq);
        nargs = PySequence_Fast_GET_SIZE(seq);
    }
    if (nargs > NN_MAX_DIMS) {
        Py_XDECREF(seq);
        PyErr_SetString(PyExc_ValueError, "meshgrid(): too many tensors");
        return NULL;
    }
    nn_ctx *ctx = ctx_();
    int64_t shape[NN_MAX_DIMS];
    for (Py_ssize_t i = 0; i < nargs; i++) {
        nn_tensor *t;
        if (py_tensor_arg(tv[i], "meshgrid", "tensors", &t) < 0) {
            Py_XDECREF(seq);
            return NULL;
        }
        shape[i] = nn_tensor_numel(t);
    }
    if (xy && nargs >= 2) {
        int64_t s = shape[0];
        shape[0] = shape[1];
        shape[1] = s;
    }
    PyObject *tup = PyTuple_New(nargs);
    for (Py_ssize_t i = 0; tup && i < nargs; i++) {
        nn_tensor *t = py_tensor_of(tv[i]);
        int64_t vs[NN_MAX_DIMS];
        Py_ssize_t at = xy && nargs >= 2 && i < 2 ? 1 - i : i;
        for (Py_ssize_t k = 0; k < nargs; k++) vs[k] = k == at ? shape[k] : 1;
        nn_tensor *v = nn_reshape(ctx, t, (int)nargs, vs);
        nn_tensor *e = v ? nn_expand(ctx, v, (int)nargs, shape) : NULL;
        nn_tensor_release(v);
        PyObject *o = py_tensor_wrap(e);
        if (!o) {
            Py_CLEAR(tup);
            break;
        }
        PyTuple_SET_ITEM(tup, i, o);
    }
    Py_XDECREF(seq);
    return tup;
}

/* ---- in place ---- */

PY_INPLACE(masked_fill)
PY_INPLACE(scatter)
PY_INPLACE(scatter_add)
PY_INPLACE(tril)
PY_INPLACE(triu)

/* unsqueeze_ / squeeze_ / t_ / transpose_: self takes the new geometry
 * (torch changes the tensor's view in place). */
static PyObject *regeometry(PyObject *self, PyObject *r) {
    if (!r) return NULL;
    nn_tensor *t = py_tensor_of(self), *v = py_tensor_of(r);
    if (t->requires_grad && ctx_()->grad_enabled && v->grad_fn) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError,
                        "nndb changes a tensor's shape in place only without autograd history; "
                        "use the out-of-place form");
        return NULL;
    }
    nn_tensor_set_(t, v);
    Py_DECREF(r);
    return Py_NewRef(self);
}
#define PY_REGEOMETRY(name)                                                                        \
    static PyObject *name##__meth(PyObject *self, PyObject *const *args, Py_ssize_t nargs,         \
                                  PyObject *kwnames) {                                             \
        return regeometry(self, py_call_method(name##_impl, self, args, nargs, kwnames));          \
    }
PY_REGEOMETRY(unsqueeze)
PY_REGEOMETRY(squeeze)
PY_REGEOMETRY(t)
PY_REGEOMETRY(transpose)

/* ---- tables ---- */

// clang-format off
#define BOTH(X)                                                                                    \
    X(reshape) X(flatten) X(ravel) X(unflatten) X(permute) X(transpose) X(swapaxes) X(swapdims)    \
    X(t) X(movedim) X(squeeze) X(unsqueeze) X(broadcast_to) X(tile) X(repeat_interleave)           \
    X(clone) X(split) X(chunk) X(unbind) X(narrow) X(select) X(flip) X(fliplr) X(flipud) X(roll)   \
    X(tril) X(triu) X(diag) X(diagonal) X(trace) X(gather) X(index_select) X(scatter)              \
    X(scatter_add) X(masked_fill) X(masked_select) X(nonzero) X(argwhere) X(sort) X(argsort)       \
    X(msort) X(topk) X(unique) X(unique_consecutive) X(matmul) X(mm) X(bmm) X(mv) X(dot)           \
    X(inner) X(outer) X(ger)
// clang-format on
#define FN_ROW(name)   PY_FN_ENTRY(#name, name, NULL),
#define METH_ROW(name) PY_METH_ENTRY(#name, name, NULL),

PyMethodDef py_ops_shape_functions[] = {
    BOTH(FN_ROW) PY_FN_ENTRY("cat", cat, NULL),
    PY_FN_ENTRY("concat", concat, NULL),
    PY_FN_ENTRY("concatenate", concatenate, NULL),
    PY_FN_ENTRY("stack", stack, NULL),
    PY_FN_ENTRY("hstack", hstack, NULL),
    PY_FN_ENTRY("vstack", vstack, NULL),
    {"broadcast_tensors", (PyCFunction)(void (*)(void))f_broadcast_tensors, METH_FASTCALL,
     "broadcast_tensors(*tensors)"},
    {"einsum", (PyCFunction)(void (*)(void))f_einsum, METH_FASTCALL | METH_KEYWORDS,
     "einsum(equation, *operands): letters a-zA-Z, no '...' or repeated letters"},
    {"meshgrid", (PyCFunction)(void (*)(void))f_meshgrid, METH_FASTCALL | METH_KEYWORDS,
     "meshgrid(*tensors, indexing='ij')"},
    {NULL, NULL, 0, NULL},
};

#define REGEOMETRY_ENTRY(name)                                                                     \
    { #name "_", (PyCFunction)(void (*)(void))name##__meth, METH_FASTCALL | METH_KEYWORDS, NULL }

PyMethodDef py_ops_shape_methods[] = {
    BOTH(METH_ROW) PY_METH_ENTRY("view", view, NULL),
    PY_METH_ENTRY("view_as", view_as, NULL),
    PY_METH_ENTRY("reshape_as", reshape_as, NULL),
    PY_METH_ENTRY("expand", expand, NULL),
    PY_METH_ENTRY("expand_as", expand_as, NULL),
    PY_METH_ENTRY("repeat", repeat, NULL),
    PY_METH_ENTRY("contiguous", contiguous, NULL),
    PY_INPLACE_ENTRY(masked_fill),
    PY_INPLACE_ENTRY(scatter),
    PY_INPLACE_ENTRY(scatter_add),
    PY_INPLACE_ENTRY(tril),
    PY_INPLACE_ENTRY(triu),
    REGEOMETRY_ENTRY(unsqueeze),
    REGEOMETRY_ENTRY(squeeze),
    REGEOMETRY_ENTRY(t),
    REGEOMETRY_ENTRY(transpose),
    {NULL, NULL, 0, NULL},
};
