/* py_dist: the kernels under torch.distributed (engine/nn_dist.h, MPI).
 *
 * torch/distributed/ keeps PyTorch's structure in Python (the functions'
 * signatures, ReduceOp, group objects, DistributedDataParallel as a Module,
 * ZeroRedundancyOptimizer as an Optimizer); these private functions are
 * what it calls: the process group, the collectives on one tensor each, and
 * two small types: _C._DistWork (an async_op=True handle) and
 * _C._DistReducer (DistributedDataParallel's gradient buckets, started from
 * the executor's backward hooks). Arguments arrive already checked by the
 * Python side; what is left here is the tensors' and the engine's errors.
 *
 * The GIL stays held during a collective: every engine call runs on the one
 * session context, which is not shared across threads.
 */
#include "nn_dist.h"
#include "py.h"

/* The engine functions write into tensors without telling autograd: bump
 * the version as an in-place op would, so a saved tensor that was
 * overwritten is caught by backward. */
static void written(nn_tensor *t) {
    if (t && t->storage) t->storage->version++;
}

static int op_arg(PyObject *o, nn_dist_op *out) {
    int64_t k = 0;
    if (py_int_arg(o, "op", &k) < 0) return -1;
    if (k < NN_DIST_SUM || k > NN_DIST_PRODUCT) {
        PyErr_Format(PyExc_ValueError,
                     "op must be a ReduceOp (SUM, AVG, MAX, MIN, PRODUCT), got %lld", (long long)k);
        return -1;
    }
    *out = (nn_dist_op)k;
    return 0;
}

static int rank_arg(PyObject *o, const char *what, int *out) {
    int64_t r = 0;
    if (py_int_arg(o, what, &r) < 0) return -1;
    *out = (int)r;
    return 0;
}

static PyObject *done(nn_status st) {
    if (py_status(st) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- the process group ---- */

/* _dist_init(timeout): timeout <= 0 keeps the current one. */
static PyObject *f_init(PyObject *m, PyObject *arg) {
    (void)m;
    double t = PyFloat_AsDouble(arg);
    if (t == -1.0 && PyErr_Occurred()) return NULL;
    return done(nn_dist_init(&py_ctx()->err, t));
}

static PyObject *f_is_initialized(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyBool_FromLong(nn_dist_is_initialized());
}

static PyObject *f_rank(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyLong_FromLong(nn_dist_rank());
}

static PyObject *f_world_size(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyLong_FromLong(nn_dist_world_size());
}

static PyObject *f_timeout(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyFloat_FromDouble(nn_dist_timeout());
}

static PyObject *f_destroy(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return done(nn_dist_destroy(&py_ctx()->err));
}

/* _dist_abort(code): end every rank; does not return. */
static PyObject *f_abort(PyObject *m, PyObject *arg) {
    (void)m;
    long code = PyLong_AsLong(arg);
    if (code == -1 && PyErr_Occurred()) return NULL;
    fflush(stdout);
    fflush(stderr);
    nn_dist_abort((int)code);
    Py_RETURN_NONE;
}

/* _dist_set_stopped(where or None): the debugger says where this rank
 * stopped before its prompt, and None after, so that another rank's timeout
 * names this one as in the debugger rather than busy. */
static PyObject *f_set_stopped(PyObject *m, PyObject *arg) {
    (void)m;
    if (arg == Py_None) {
        nn_dist_set_stopped(NULL);
        Py_RETURN_NONE;
    }
    const char *where = PyUnicode_AsUTF8(arg);
    if (!where) return NULL;
    nn_dist_set_stopped(where);
    Py_RETURN_NONE;
}

static PyObject *f_bytes_reduced(PyObject *m, PyObject *unused) {
    (void)m, (void)unused;
    return PyLong_FromUnsignedLongLong(nn_dist_bytes_reduced());
}

/* ---- Work: an async_op=True handle ---- */

typedef struct work_object {
    PyObject_HEAD nn_dist_work *w;
    const char *what; /* static */
    PyObject *keep;   /* the tensor objects, so the result is seen where the user looks */
} work_object;

static void work_dealloc(PyObject *self) {
    work_object *o = (work_object *)self;
    /* MPI cannot cancel a collective: freeing an unfinished one waits. */
    nn_dist_work_free(o->w);
    Py_XDECREF(o->keep);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *work_wait(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    static const char *const names[] = {"timeout", NULL};
    PyObject *a[1];
    if (py_parse("wait", args, nargs, kwnames, names, 0, a) < 0) return NULL;
    if (py_status(nn_dist_work_wait(py_ctx(), ((work_object *)self)->w)) < 0) return NULL;
    Py_RETURN_TRUE;
}

static PyObject *work_is_completed(PyObject *self, PyObject *unused) {
    (void)unused;
    int t = nn_dist_work_test(py_ctx(), ((work_object *)self)->w);
    if (t < 0) return py_engine_error();
    return PyBool_FromLong(t == 1);
}

/* source_rank(): the rank a finished receive came from (PyTorch's Work has
 * it for a receive from any source); -1 otherwise. */
static PyObject *work_source_rank(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromLong(nn_dist_work_source(((work_object *)self)->w));
}

static PyObject *work_repr(PyObject *self) {
    return PyUnicode_FromFormat("Work(%s, rank %d)", ((work_object *)self)->what, nn_dist_rank());
}

static PyMethodDef work_methods[] = {
    {"wait", (PyCFunction)(void (*)(void))work_wait, METH_FASTCALL | METH_KEYWORDS,
     "wait(timeout=None): block until the collective has finished on this rank; True"},
    {"is_completed", work_is_completed, METH_NOARGS,
     "is_completed(): whether it has finished (drives MPI's progress once; does not block)"},
    {"source_rank", work_source_rank, METH_NOARGS,
     "source_rank(): the rank a finished receive came from"},
    {"_source_rank", work_source_rank, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject work_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._DistWork",
    .tp_basicsize = sizeof(work_object),
    .tp_dealloc = work_dealloc,
    .tp_repr = work_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A collective started with async_op=True: wait(), is_completed().",
    .tp_methods = work_methods,
};

/* A handle for [w] (NULL: the engine's error), keeping [keep] alive. */
static PyObject *work_new(nn_dist_work *w, const char *what, PyObject *keep) {
    if (!w) return py_engine_error();
    if (PyType_Ready(&work_type) < 0) {
        nn_dist_work_free(w);
        return NULL;
    }
    work_object *o = PyObject_New(work_object, &work_type);
    if (!o) {
        nn_dist_work_free(w);
        return NULL;
    }
    o->w = w;
    o->what = what;
    o->keep = Py_XNewRef(keep);
    return (PyObject *)o;
}

/* ---- collectives ---- */

#define TENSOR(o, fn, what, var)                                                                   \
    nn_tensor *var;                                                                                \
    if (py_tensor_arg_any(o, fn, what, &var) < 0) return NULL

/* _dist_barrier(async_op) */
static PyObject *f_barrier(PyObject *m, PyObject *arg) {
    (void)m;
    int async = PyObject_IsTrue(arg);
    if (async < 0) return NULL;
    if (async) return work_new(nn_dist_barrier_async(py_ctx()), "barrier", NULL);
    return done(nn_dist_barrier(py_ctx()));
}

/* _dist_all_reduce(tensor, op, async_op) */
static PyObject *f_all_reduce(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to, *opo;
    int async;
    nn_dist_op op;
    if (!PyArg_ParseTuple(args, "OOp:_dist_all_reduce", &to, &opo, &async)) return NULL;
    TENSOR(to, "all_reduce", "tensor", t);
    if (op_arg(opo, &op) < 0) return NULL;
    written(t);
    if (async) return work_new(nn_dist_all_reduce_async(py_ctx(), t, op), "all_reduce", to);
    return done(nn_dist_all_reduce(py_ctx(), t, op));
}

/* _dist_broadcast(tensor, src, async_op) */
static PyObject *f_broadcast(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to, *so;
    int async, src;
    if (!PyArg_ParseTuple(args, "OOp:_dist_broadcast", &to, &so, &async)) return NULL;
    TENSOR(to, "broadcast", "tensor", t);
    if (rank_arg(so, "src", &src) < 0) return NULL;
    written(t);
    if (async) return work_new(nn_dist_broadcast_async(py_ctx(), t, src), "broadcast", to);
    return done(nn_dist_broadcast(py_ctx(), t, src));
}

/* _dist_all_gather_into(out, in, async_op): [out] holds world_size blocks. */
static PyObject *f_all_gather_into(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *oo, *io;
    int async;
    if (!PyArg_ParseTuple(args, "OOp:_dist_all_gather_into", &oo, &io, &async)) return NULL;
    TENSOR(oo, "all_gather_into_tensor", "output_tensor", out);
    TENSOR(io, "all_gather_into_tensor", "input_tensor", in);
    written(out);
    if (async)
        return work_new(nn_dist_all_gather_into_async(py_ctx(), out, in), "all_gather_into_tensor",
                        oo);
    return done(nn_dist_all_gather_into(py_ctx(), out, in));
}

/* _dist_reduce_scatter(out, in, op, async_op) */
static PyObject *f_reduce_scatter(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *oo, *io, *opo;
    int async;
    nn_dist_op op;
    if (!PyArg_ParseTuple(args, "OOOp:_dist_reduce_scatter", &oo, &io, &opo, &async)) return NULL;
    TENSOR(oo, "reduce_scatter_tensor", "output", out);
    TENSOR(io, "reduce_scatter_tensor", "input", in);
    if (op_arg(opo, &op) < 0) return NULL;
    written(out);
    if (async)
        return work_new(nn_dist_reduce_scatter_async(py_ctx(), out, in, op),
                        "reduce_scatter_tensor", oo);
    return done(nn_dist_reduce_scatter(py_ctx(), out, in, op));
}

/* _dist_reduce(tensor, dst, op) */
static PyObject *f_reduce(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to, *dso, *opo;
    int dst;
    nn_dist_op op;
    if (!PyArg_ParseTuple(args, "OOO:_dist_reduce", &to, &dso, &opo)) return NULL;
    TENSOR(to, "reduce", "tensor", t);
    if (rank_arg(dso, "dst", &dst) < 0 || op_arg(opo, &op) < 0) return NULL;
    written(t);
    return done(nn_dist_reduce(py_ctx(), t, dst, op));
}

/* _dist_gather(out or None, in, dst): [out] (world_size blocks) on dst only. */
static PyObject *f_gather(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *oo, *io, *dso;
    int dst;
    if (!PyArg_ParseTuple(args, "OOO:_dist_gather", &oo, &io, &dso)) return NULL;
    nn_tensor *out = NULL;
    if (oo != Py_None && py_tensor_arg(oo, "gather", "gather_list", &out) < 0) return NULL;
    TENSOR(io, "gather", "tensor", in);
    if (rank_arg(dso, "dst", &dst) < 0) return NULL;
    written(out);
    return done(nn_dist_gather(py_ctx(), out, in, dst));
}

/* _dist_scatter(out, in or None, src): [in] (world_size blocks) on src only. */
static PyObject *f_scatter(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *oo, *io, *so;
    int src;
    if (!PyArg_ParseTuple(args, "OOO:_dist_scatter", &oo, &io, &so)) return NULL;
    TENSOR(oo, "scatter", "tensor", out);
    nn_tensor *in = NULL;
    if (io != Py_None && py_tensor_arg(io, "scatter", "scatter_list", &in) < 0) return NULL;
    if (rank_arg(so, "src", &src) < 0) return NULL;
    written(out);
    return done(nn_dist_scatter(py_ctx(), out, in, src));
}

/* _dist_send(tensor, dst, tag) and _dist_recv(tensor, src, tag) */
static PyObject *f_send(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to;
    int dst, tag;
    if (!PyArg_ParseTuple(args, "Oii:_dist_send", &to, &dst, &tag)) return NULL;
    TENSOR(to, "send", "tensor", t);
    return done(nn_dist_send(py_ctx(), t, dst, tag));
}

static PyObject *f_recv(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to;
    int src, tag, from = -1;
    if (!PyArg_ParseTuple(args, "Oii:_dist_recv", &to, &src, &tag)) return NULL;
    TENSOR(to, "recv", "tensor", t);
    written(t);
    if (py_status(nn_dist_recv(py_ctx(), t, src, tag, &from)) < 0) return NULL;
    return PyLong_FromLong(from);
}

/* _dist_isend(tensor, dst, tag) and _dist_irecv(tensor, src, tag): Work
 * handles (src < 0: from any rank; the handle's source_rank() says which). */
static PyObject *f_isend(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to;
    int dst, tag;
    if (!PyArg_ParseTuple(args, "Oii:_dist_isend", &to, &dst, &tag)) return NULL;
    TENSOR(to, "isend", "tensor", t);
    return work_new(nn_dist_isend(py_ctx(), t, dst, tag), "isend", to);
}

static PyObject *f_irecv(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *to;
    int src, tag;
    if (!PyArg_ParseTuple(args, "Oii:_dist_irecv", &to, &src, &tag)) return NULL;
    TENSOR(to, "irecv", "tensor", t);
    return work_new(nn_dist_irecv(py_ctx(), t, src, tag), "irecv", to);
}

/* _dist_flat_new(numel): FSDP's unsharded flat parameter (float32), whose
 * bytes _dist_flat_free(t) drops and _dist_flat_alloc(t) brings back while
 * its views live; _dist_flat_allocated(t) says which. */
static PyObject *f_flat_new(PyObject *m, PyObject *arg) {
    (void)m;
    int64_t n = 0;
    if (py_int_arg(arg, "numel", &n) < 0) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "numel must be >= 0");
    nn_tensor *t = nn_dist_flat_new(py_ctx(), NN_FLOAT32, n);
    if (!t) return py_engine_error();
    return py_tensor_wrap(t);
}

static PyObject *f_flat_free(PyObject *m, PyObject *arg) {
    (void)m;
    TENSOR(arg, "_dist_flat_free", "t", t);
    nn_dist_flat_free(t);
    Py_RETURN_NONE;
}

static PyObject *f_flat_alloc(PyObject *m, PyObject *arg) {
    (void)m;
    TENSOR(arg, "_dist_flat_alloc", "t", t);
    return done(nn_dist_flat_alloc(py_ctx(), t));
}

/* _dist_flat_gather(flat, shard): bring the bytes back and all-gather every
 * rank's shard into them. The storage's version is left alone: to autograd
 * the flat parameter is the same value it saved in forward, gathered again. */
static PyObject *f_flat_gather(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *fo, *so;
    if (!PyArg_ParseTuple(args, "OO:_dist_flat_gather", &fo, &so)) return NULL;
    TENSOR(fo, "_dist_flat_gather", "flat", flat);
    TENSOR(so, "_dist_flat_gather", "shard", shard);
    return done(nn_dist_flat_gather(py_ctx(), flat, shard));
}

/* _dist_flat_reduce_scatter(out, in): the average of [in] over ranks, this
 * rank's block, into [out]. */
static PyObject *f_flat_reduce_scatter(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *oo, *io;
    if (!PyArg_ParseTuple(args, "OO:_dist_flat_reduce_scatter", &oo, &io)) return NULL;
    TENSOR(oo, "_dist_flat_reduce_scatter", "out", out);
    TENSOR(io, "_dist_flat_reduce_scatter", "in", in);
    written(out);
    return done(nn_dist_flat_reduce_scatter(py_ctx(), out, in));
}

static PyObject *f_flat_allocated(PyObject *m, PyObject *arg) {
    (void)m;
    TENSOR(arg, "_dist_flat_allocated", "t", t);
    return PyBool_FromLong(nn_dist_flat_is_allocated(t));
}

/* The engine tensors of a sequence of tensors: a PyMem array of *n
 * borrowed pointers (the sequence's items keep them alive), or NULL with
 * an exception. [seq] is a list or tuple. */
static nn_tensor **tensor_list(PyObject *seq, const char *fn, const char *what, int *n) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of tensors");
    if (!fast) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    nn_tensor **ts = PyMem_Calloc((size_t)k + 1, sizeof *ts);
    if (!ts) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        ts[i] = py_tensor_of(PySequence_Fast_GET_ITEM(fast, i));
        if (!ts[i]) {
            PyErr_Format(PyExc_TypeError, "%s(): item %zd of %s is %s, not a Tensor", fn, i, what,
                         Py_TYPE(PySequence_Fast_GET_ITEM(fast, i))->tp_name);
            PyMem_Free(ts);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    *n = (int)k;
    return ts;
}

/* _dist_sync_buffers(buffers): rank 0's buffers everywhere (broadcast_buffers). */
static PyObject *f_sync_buffers(PyObject *m, PyObject *seq) {
    (void)m;
    int n = 0;
    nn_tensor **bufs = tensor_list(seq, "DistributedDataParallel", "the buffers", &n);
    if (!bufs) return NULL;
    for (int i = 0; i < n; i++) written(bufs[i]);
    nn_status st = n ? nn_dist_sync_buffers(py_ctx(), bufs, n) : NN_OK;
    PyMem_Free(bufs);
    return done(st);
}

/* _dist_check(params) -> (first differing index or -1, lowest such rank or -1) */
static PyObject *f_check(PyObject *m, PyObject *seq) {
    (void)m;
    int n = 0, first = -1, bad = -1;
    nn_tensor **ps = tensor_list(seq, "dist_check", "the parameters", &n);
    if (!ps) return NULL;
    nn_status st = nn_dist_check(py_ctx(), ps, n, &first, &bad);
    PyMem_Free(ps);
    if (py_status(st) < 0) return NULL;
    return Py_BuildValue("(ii)", first, bad);
}

/* ---- _DistReducer: DistributedDataParallel's buckets ---- */

typedef struct reducer_object {
    PyObject_HEAD nn_dist_ddp *d;
    PyObject *params; /* the parameter objects (a tuple), kept alive */
} reducer_object;

static void reducer_dealloc(PyObject *self) {
    reducer_object *o = (reducer_object *)self;
    /* Removes the executor hook: a freed DDP no longer reduces. */
    if (o->d) nn_dist_ddp_free(py_ctx(), o->d);
    Py_XDECREF(o->params);
    Py_TYPE(self)->tp_free(self);
}

/* _DistReducer(params, buffers, bucket_bytes): broadcasts rank 0's
 * parameters and buffers now, then averages gradients in every backward. */
static PyObject *reducer_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *po, *bo;
    double bytes;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "_DistReducer() takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "OOd:_DistReducer", &po, &bo, &bytes)) return NULL;
    int np = 0, nb = 0;
    nn_tensor **ps = tensor_list(po, "DistributedDataParallel", "the parameters", &np);
    if (!ps) return NULL;
    nn_tensor **bs = tensor_list(bo, "DistributedDataParallel", "the buffers", &nb);
    if (!bs) {
        PyMem_Free(ps);
        return NULL;
    }
    for (int i = 0; i < np; i++) written(ps[i]);
    for (int i = 0; i < nb; i++) written(bs[i]);
    nn_dist_ddp *d = nn_dist_ddp_new(py_ctx(), ps, np, bs, nb, bytes);
    PyMem_Free(ps);
    PyMem_Free(bs);
    if (!d) return py_engine_error();
    reducer_object *o = (reducer_object *)type->tp_alloc(type, 0);
    if (!o) {
        nn_dist_ddp_free(py_ctx(), d);
        return NULL;
    }
    o->d = d;
    o->params = PySequence_Tuple(po);
    if (!o->params) {
        Py_DECREF(o);
        return NULL;
    }
    return (PyObject *)o;
}

static nn_dist_ddp *reducer_of(PyObject *self) {
    return ((reducer_object *)self)->d;
}

/* pre_forward(): fails with PyTorch's "Expected to have finished
 * reduction ..." when the last backward left parameters unreduced. */
static PyObject *reducer_pre_forward(PyObject *self, PyObject *unused) {
    (void)unused;
    return done(nn_dist_ddp_pre_forward(py_ctx(), reducer_of(self)));
}

static PyObject *reducer_set_sync(PyObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    nn_dist_ddp_set_sync(reducer_of(self), on);
    Py_RETURN_NONE;
}

static PyObject *reducer_set_average(PyObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    nn_dist_ddp_set_average(reducer_of(self), on);
    Py_RETURN_NONE;
}

static PyObject *reducer_set_find_unused(PyObject *self, PyObject *arg) {
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
    nn_dist_ddp_set_find_unused(reducer_of(self), on);
    Py_RETURN_NONE;
}

static PyObject *reducer_get_sync(PyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(nn_dist_ddp_sync(reducer_of(self)));
}

static PyObject *reducer_get_started_early(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(nn_dist_ddp_started_early(reducer_of(self)));
}

/* Parameter indices of each bucket, in launch order. */
static PyObject *reducer_get_buckets(PyObject *self, void *closure) {
    (void)closure;
    nn_dist_ddp *d = reducer_of(self);
    int nb = nn_dist_ddp_num_buckets(d);
    PyObject *out = PyList_New(nb);
    for (int b = 0; out && b < nb; b++) {
        int n = 0;
        const int *idx = nn_dist_ddp_bucket(d, b, &n);
        PyObject *l = PyList_New(n);
        if (!l) {
            Py_CLEAR(out);
            break;
        }
        for (int k = 0; k < n; k++) PyList_SET_ITEM(l, k, PyLong_FromLong(idx[k]));
        PyList_SET_ITEM(out, b, l);
    }
    return out;
}

static PyMethodDef reducer_methods[] = {
    {"pre_forward", reducer_pre_forward, METH_NOARGS, "fail if the last pass left gradients"},
    {"set_sync", reducer_set_sync, METH_O, "False: backward accumulates locally (no_sync)"},
    {"set_average", reducer_set_average, METH_O, "False: only sum (the drill's planted bug)"},
    {"set_find_unused", reducer_set_find_unused, METH_O, "find_unused_parameters"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef reducer_getset[] = {
    {"sync", reducer_get_sync, NULL, "whether backward all-reduces", NULL},
    {"buckets", reducer_get_buckets, NULL, "parameter indices per bucket, launch order", NULL},
    {"started_early", reducer_get_started_early, NULL,
     "buckets the last backward started before its end", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject reducer_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "torch._C._DistReducer",
    .tp_basicsize = sizeof(reducer_object),
    .tp_dealloc = reducer_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "_DistReducer(params, buffers, bucket_bytes): DistributedDataParallel's "
              "gradient buckets on the executor's backward hooks.",
    .tp_methods = reducer_methods,
    .tp_getset = reducer_getset,
    .tp_new = reducer_new,
};

/* _dist_reducer(params, buffers, bucket_bytes): the type is readied on first use, so
 * the module needs no set-up step of its own. */
static PyObject *f_reducer(PyObject *m, PyObject *args) {
    (void)m;
    if (PyType_Ready(&reducer_type) < 0) return NULL;
    return reducer_new(&reducer_type, args, NULL);
}

#define O(name, fn, doc)                                                                           \
    { name, fn, METH_O, doc }
#define N(name, fn, doc)                                                                           \
    { name, fn, METH_NOARGS, doc }
#define V(name, fn, doc)                                                                           \
    { name, fn, METH_VARARGS, doc }

PyMethodDef py_dist_functions[] = {
    O("_dist_init", f_init, "join the group mpirun started (MPI loaded now)"),
    N("_dist_is_initialized", f_is_initialized, NULL),
    N("_dist_rank", f_rank, NULL),
    N("_dist_world_size", f_world_size, NULL),
    N("_dist_timeout", f_timeout, NULL),
    N("_dist_destroy", f_destroy, NULL),
    O("_dist_abort", f_abort, "MPI_Abort: end every rank"),
    N("_dist_bytes_reduced", f_bytes_reduced, NULL),
    O("_dist_set_stopped", f_set_stopped, "where the debugger stopped this rank, or None"),
    O("_dist_barrier", f_barrier, NULL),
    V("_dist_all_reduce", f_all_reduce, NULL),
    V("_dist_broadcast", f_broadcast, NULL),
    V("_dist_all_gather_into", f_all_gather_into, NULL),
    V("_dist_reduce_scatter", f_reduce_scatter, NULL),
    V("_dist_reduce", f_reduce, NULL),
    V("_dist_gather", f_gather, NULL),
    V("_dist_scatter", f_scatter, NULL),
    V("_dist_send", f_send, NULL),
    V("_dist_recv", f_recv, NULL),
    V("_dist_isend", f_isend, NULL),
    O("_dist_flat_new", f_flat_new, "FSDP's unsharded flat parameter"),
    O("_dist_flat_free", f_flat_free, NULL),
    O("_dist_flat_alloc", f_flat_alloc, NULL),
    V("_dist_flat_gather", f_flat_gather, NULL),
    V("_dist_flat_reduce_scatter", f_flat_reduce_scatter, NULL),
    O("_dist_flat_allocated", f_flat_allocated, NULL),
    V("_dist_irecv", f_irecv, NULL),
    O("_dist_sync_buffers", f_sync_buffers, NULL),
    O("_dist_check", f_check, NULL),
    V("_dist_reducer", f_reducer, "DistributedDataParallel's buckets"),
    {NULL, NULL, 0, NULL},
};
