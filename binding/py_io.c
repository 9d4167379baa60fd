/* py_io: the storage-level access torch.save and torch.load need (see
 * python/torch/serialization.py), as private functions of torch._C.
 *
 * PyTorch's checkpoint format stores each storage once, as raw bytes, and
 * each tensor as (storage, offset, size, stride), so views and tied weights
 * stay shared. These functions expose exactly that: which storage a tensor
 * views and its bytes (to save), and a tensor over given bytes and a view of
 * it with a given geometry (to load). Everything read from a file is checked
 * here before the engine sees it: a forged geometry is a RuntimeError, never
 * a read outside the storage.
 */
#include <string.h>

#include "py.h"

/* _storage_info(t) -> (key, numel): [key] is the same for every tensor
 * viewing one storage; [numel] is the storage's size in t's elements. */
static PyObject *f_storage_info(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(arg, "_storage_info", "tensor", &t) < 0) return NULL;
    size_t es = nn_dtype_size(t->dtype);
    return Py_BuildValue("(NL)", PyLong_FromVoidPtr(t->storage),
                         (long long)(t->storage->nbytes / es));
}

/* _storage_bytes(t) -> bytes: the whole storage t views, as stored
 * (little-endian, as PyTorch writes it on every platform it runs on). */
static PyObject *f_storage_bytes(PyObject *m, PyObject *arg) {
    (void)m;
    nn_tensor *t;
    if (py_tensor_arg(arg, "_storage_bytes", "tensor", &t) < 0) return NULL;
    size_t es = nn_dtype_size(t->dtype);
    size_t n = t->storage->nbytes / es * es;
    return PyBytes_FromStringAndSize(t->storage->data, (Py_ssize_t)n);
}

/* _tensor_from_bytes(data, dtype) -> a 1-D tensor holding a copy of [data]
 * (any object with the buffer protocol) read as [dtype]. */
static PyObject *f_tensor_from_bytes(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *data, *dto;
    if (!PyArg_ParseTuple(args, "OO:_tensor_from_bytes", &data, &dto)) return NULL;
    nn_dtype dt = NN_FLOAT32;
    if (py_dtype_arg(dto, &dt) < 0) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) return NULL;
    size_t es = nn_dtype_size(dt);
    if ((size_t)view.len % es) {
        PyErr_Format(PyExc_RuntimeError,
                     "storage of %zd bytes is not a whole number of %s elements (%zu bytes "
                     "each); the file is damaged",
                     view.len, nn_dtype_name(dt), es);
        PyBuffer_Release(&view);
        return NULL;
    }
    int64_t n = (int64_t)((size_t)view.len / es);
    nn_tensor *t = nn_tensor_from_data(py_ctx(), dt, 1, &n, view.buf);
    PyBuffer_Release(&view);
    /* A forged file may hold bools other than 0 and 1; C's bool may not. */
    if (t && dt == NN_BOOL) {
        unsigned char *b = nn_tensor_data(t);
        for (int64_t i = 0; i < n; i++) b[i] = b[i] != 0;
    }
    return py_tensor_wrap(t);
}

/* _view_of_storage(base, offset, size, stride) -> a tensor viewing base's
 * storage (base is a 1-D tensor from _tensor_from_bytes) at [offset] with
 * [size] and [stride] in elements, as torch's _rebuild_tensor_v2 makes it. */
static PyObject *f_view_of_storage(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *baseo, *sizeo, *strideo;
    long long offset;
    if (!PyArg_ParseTuple(args, "OLOO:_view_of_storage", &baseo, &offset, &sizeo, &strideo))
        return NULL;
    nn_tensor *base;
    if (py_tensor_arg(baseo, "_view_of_storage", "storage", &base) < 0) return NULL;
    int64_t shape[NN_MAX_DIMS], strides[NN_MAX_DIMS];
    int nd, ns;
    if (py_ints_arg(sizeo, "size", shape, &nd) < 0 ||
        py_ints_arg(strideo, "stride", strides, &ns) < 0)
        return NULL;
    if (nd != ns) {
        PyErr_Format(PyExc_RuntimeError,
                     "a tensor in the file has %d sizes but %d strides; the file is damaged", nd,
                     ns);
        return NULL;
    }
    int64_t numel = (int64_t)(base->storage->nbytes / nn_dtype_size(base->dtype));
    /* The last element reached, computed without overflow. */
    bool empty = false, bad = offset < 0;
    int64_t last = offset;
    for (int d = 0; d < nd && !bad; d++) {
        if (shape[d] < 0 || strides[d] < 0)
            bad = true;
        else if (shape[d] == 0)
            empty = true;
        else if (strides[d] > 0 && shape[d] - 1 > (INT64_MAX - last) / strides[d])
            bad = true;
        else
            last += (shape[d] - 1) * strides[d];
    }
    if (bad || (!empty && last >= numel) || (empty && offset > numel)) {
        PyErr_Format(PyExc_RuntimeError,
                     "a tensor in the file (offset %lld, %d dims) reaches outside its storage "
                     "of %lld elements; the file is damaged or forged",
                     offset, nd, (long long)numel);
        return NULL;
    }
    return py_tensor_wrap(nn_tensor_view_raw(py_ctx(), base, nd, shape, strides, offset));
}

PyMethodDef py_io_functions[] = {
    {"_storage_info", f_storage_info, METH_O, NULL},
    {"_storage_bytes", f_storage_bytes, METH_O, NULL},
    {"_tensor_from_bytes", f_tensor_from_bytes, METH_VARARGS, NULL},
    {"_view_of_storage", f_view_of_storage, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};
