/* py_fft: the complex views and the FFT primitives of ops_fft.c as private
 * torch._C functions; torch.fft (python/torch/fft/) builds PyTorch's
 * fft, ifft, rfft, ... and their options over them, as PyTorch's
 * SpectralOps.cpp does over aten's _fft_c2c/_fft_r2c/_fft_c2r. */
#include "py.h"

static PyObject *one_tensor(PyObject *args, const char *fname,
                            nn_tensor *(*fn)(nn_ctx *, nn_tensor *)) {
    PyObject *o;
    nn_tensor *t;
    if (!PyArg_ParseTuple(args, "O", &o)) return NULL;
    if (py_tensor_arg(o, fname, "input", &t) < 0) return NULL;
    return py_tensor_wrap(fn(py_ctx(), t));
}

static PyObject *f_view_as_real(PyObject *m, PyObject *args) {
    (void)m;
    return one_tensor(args, "view_as_real", nn_view_as_real);
}

static PyObject *f_view_as_complex(PyObject *m, PyObject *args) {
    (void)m;
    return one_tensor(args, "view_as_complex", nn_view_as_complex);
}

static PyObject *f_conj_physical(PyObject *m, PyObject *args) {
    (void)m;
    return one_tensor(args, "conj_physical", nn_conj);
}

/* _fft_c2c(x, dims, norm, forward), _fft_r2c(x, dims, norm, onesided),
 * _fft_c2r(x, dims, norm, last_dim_size): aten's signatures. */
static PyObject *fft_prim(PyObject *args, int kind) {
    PyObject *ox, *odims;
    int norm;
    long long extra;
    if (!PyArg_ParseTuple(args, "OOiL", &ox, &odims, &norm, &extra)) return NULL;
    nn_tensor *x;
    int64_t dims[NN_MAX_DIMS];
    int n = 0;
    if (py_tensor_arg(ox, "_fft", "input", &x) < 0 || py_ints_arg(odims, "dim", dims, &n) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    if (kind == 0) return py_tensor_wrap(nn_fft_c2c(ctx, x, dims, n, norm, extra != 0));
    if (kind == 1) return py_tensor_wrap(nn_fft_r2c(ctx, x, dims, n, norm, extra == 0));
    return py_tensor_wrap(nn_fft_c2r(ctx, x, dims, n, norm, (int64_t)extra));
}

static PyObject *f_fft_c2c(PyObject *m, PyObject *args) {
    (void)m;
    return fft_prim(args, 0);
}

static PyObject *f_fft_r2c(PyObject *m, PyObject *args) {
    (void)m;
    return fft_prim(args, 1);
}

static PyObject *f_fft_c2r(PyObject *m, PyObject *args) {
    (void)m;
    return fft_prim(args, 2);
}

PyMethodDef py_fft_functions[] = {
    {"_view_as_real", f_view_as_real, METH_VARARGS, "view_as_real(complex) -> real view"},
    {"_view_as_complex", f_view_as_complex, METH_VARARGS, "view_as_complex(real) -> complex view"},
    {"_conj_physical", f_conj_physical, METH_VARARGS, "conj: a copy, imaginary parts negated"},
    {"_fft_c2c", f_fft_c2c, METH_VARARGS, "_fft_c2c(x, dim, norm, forward)"},
    {"_fft_r2c", f_fft_r2c, METH_VARARGS, "_fft_r2c(x, dim, norm, onesided)"},
    {"_fft_c2r", f_fft_c2r, METH_VARARGS, "_fft_c2r(x, dim, norm, last_dim_size)"},
    {NULL, NULL, 0, NULL},
};
