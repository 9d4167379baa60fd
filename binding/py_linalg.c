/* torch._C's LAPACK kernels (engine/ops/ops_linalg.c) for torch.linalg.
 *
 * Private functions (_linalg_*), one per engine kernel: tensors in, tensors
 * out, no autograd. python/torch/linalg/ checks arguments in PyTorch's words,
 * broadcasts batch dims, turns LAPACK's info into torch.linalg.LinAlgError
 * and records PyTorch's backward formulas around these calls.
 */
#include "nn_linalg.h"
#include "py.h"

static int targ(PyObject *o, nn_tensor **t) {
    *t = py_tensor_of(o);
    if (!*t) {
        PyErr_Format(PyExc_TypeError, "expected a Tensor, got %s", Py_TYPE(o)->tp_name);
        return -1;
    }
    return py_status(nn_tensor_check_storage(py_ctx(), *t));
}

static PyObject *wrap_or_none(nn_tensor *t) {
    if (!t) Py_RETURN_NONE;
    return py_tensor_wrap(t);
}

/* A tuple of [n] results (stolen; NULL entries become None). */
static PyObject *tuple_of(nn_tensor **ts, int n) {
    PyObject *r = PyTuple_New(n);
    if (!r) {
        for (int i = 0; i < n; i++) nn_tensor_release(ts[i]);
        return NULL;
    }
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(r, i, wrap_or_none(ts[i]));
    return r;
}

static PyObject *f_lu_factor(PyObject *m, PyObject *args) {
    PyObject *ao;
    nn_tensor *a, *r[3];
    if (!PyArg_ParseTuple(args, "O", &ao) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_lu_factor(py_ctx(), a, &r[0], &r[1], &r[2]) != NN_OK) return py_engine_error();
    return tuple_of(r, 3);
}

static PyObject *f_lu_solve(PyObject *m, PyObject *args) {
    PyObject *lo, *po, *bo;
    const char *trans;
    nn_tensor *l, *p, *b;
    if (!PyArg_ParseTuple(args, "OOOs", &lo, &po, &bo, &trans) || targ(lo, &l) < 0 ||
        targ(po, &p) < 0 || targ(bo, &b) < 0)
        return NULL;
    nn_tensor *x = nn_linalg_lu_solve(py_ctx(), l, p, b, trans[0]);
    return x ? py_tensor_wrap(x) : py_engine_error();
}

static PyObject *f_solve(PyObject *m, PyObject *args) {
    PyObject *ao, *bo;
    int tr = 0;
    nn_tensor *a, *b, *r[4];
    if (!PyArg_ParseTuple(args, "OO|p", &ao, &bo, &tr) || targ(ao, &a) < 0 || targ(bo, &b) < 0)
        return NULL;
    if (nn_linalg_solve(py_ctx(), a, b, tr, &r[0], &r[1], &r[2], &r[3]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 4);
}

static PyObject *f_cholesky(PyObject *m, PyObject *args) {
    PyObject *ao;
    int upper;
    nn_tensor *a, *r[2];
    if (!PyArg_ParseTuple(args, "Op", &ao, &upper) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_cholesky(py_ctx(), a, upper, &r[0], &r[1]) != NN_OK) return py_engine_error();
    return tuple_of(r, 2);
}

static PyObject *f_cholesky_solve(PyObject *m, PyObject *args) {
    PyObject *lo, *bo;
    int upper;
    nn_tensor *l, *b;
    if (!PyArg_ParseTuple(args, "OOp", &lo, &bo, &upper) || targ(lo, &l) < 0 || targ(bo, &b) < 0)
        return NULL;
    nn_tensor *x = nn_linalg_cholesky_solve(py_ctx(), l, b, upper);
    return x ? py_tensor_wrap(x) : py_engine_error();
}

static PyObject *f_cholesky_inverse(PyObject *m, PyObject *args) {
    PyObject *lo;
    int upper;
    nn_tensor *l, *r[2];
    if (!PyArg_ParseTuple(args, "Op", &lo, &upper) || targ(lo, &l) < 0) return NULL;
    if (nn_linalg_cholesky_inverse(py_ctx(), l, upper, &r[0], &r[1]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 2);
}

static PyObject *f_triangular_solve(PyObject *m, PyObject *args) {
    PyObject *ao, *bo;
    int upper, left, tr, unit;
    nn_tensor *a, *b;
    if (!PyArg_ParseTuple(args, "OOpppp", &ao, &bo, &upper, &left, &tr, &unit) ||
        targ(ao, &a) < 0 || targ(bo, &b) < 0)
        return NULL;
    nn_tensor *x = nn_linalg_triangular_solve(py_ctx(), a, b, upper, left, tr, unit);
    return x ? py_tensor_wrap(x) : py_engine_error();
}

static PyObject *f_geqrf(PyObject *m, PyObject *args) {
    PyObject *ao;
    nn_tensor *a, *r[2];
    if (!PyArg_ParseTuple(args, "O", &ao) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_geqrf(py_ctx(), a, &r[0], &r[1]) != NN_OK) return py_engine_error();
    return tuple_of(r, 2);
}

static PyObject *f_orgqr(PyObject *m, PyObject *args) {
    PyObject *ao, *to;
    nn_tensor *a, *t;
    if (!PyArg_ParseTuple(args, "OO", &ao, &to) || targ(ao, &a) < 0 || targ(to, &t) < 0)
        return NULL;
    nn_tensor *q = nn_linalg_orgqr(py_ctx(), a, t);
    return q ? py_tensor_wrap(q) : py_engine_error();
}

static PyObject *f_ormqr(PyObject *m, PyObject *args) {
    PyObject *ao, *to, *co;
    int left, tr;
    nn_tensor *a, *t, *c;
    if (!PyArg_ParseTuple(args, "OOOpp", &ao, &to, &co, &left, &tr) || targ(ao, &a) < 0 ||
        targ(to, &t) < 0 || targ(co, &c) < 0)
        return NULL;
    nn_tensor *x = nn_linalg_ormqr(py_ctx(), a, t, c, left, tr);
    return x ? py_tensor_wrap(x) : py_engine_error();
}

static PyObject *f_svd(PyObject *m, PyObject *args) {
    PyObject *ao;
    int full, uv;
    nn_tensor *a, *r[4];
    if (!PyArg_ParseTuple(args, "Opp", &ao, &full, &uv) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_svd(py_ctx(), a, full, uv, &r[0], &r[1], &r[2], &r[3]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 4);
}

static PyObject *f_eigh(PyObject *m, PyObject *args) {
    PyObject *ao;
    int upper, cv;
    nn_tensor *a, *r[3];
    if (!PyArg_ParseTuple(args, "Opp", &ao, &upper, &cv) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_eigh(py_ctx(), a, upper, cv, &r[0], &r[1], &r[2]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 3);
}

static PyObject *f_eig(PyObject *m, PyObject *args) {
    PyObject *ao;
    int cv;
    nn_tensor *a, *r[4];
    if (!PyArg_ParseTuple(args, "Op", &ao, &cv) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_eig(py_ctx(), a, cv, &r[0], &r[1], &r[2], &r[3]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 4);
}

static PyObject *f_lstsq(PyObject *m, PyObject *args) {
    PyObject *ao, *bo;
    double rcond;
    const char *driver;
    nn_tensor *a, *b, *r[4];
    if (!PyArg_ParseTuple(args, "OOds", &ao, &bo, &rcond, &driver) || targ(ao, &a) < 0 ||
        targ(bo, &b) < 0)
        return NULL;
    if (strcmp(driver, "gels") && strcmp(driver, "gelsy") && strcmp(driver, "gelsd") &&
        strcmp(driver, "gelss"))
        return PyErr_Format(PyExc_RuntimeError, "unknown lstsq driver %s", driver);
    if (nn_linalg_lstsq(py_ctx(), a, b, rcond, driver, &r[0], &r[1], &r[2], &r[3]) != NN_OK)
        return py_engine_error();
    return tuple_of(r, 4);
}

static PyObject *f_ldl_factor(PyObject *m, PyObject *args) {
    PyObject *ao;
    nn_tensor *a, *r[3];
    if (!PyArg_ParseTuple(args, "O", &ao) || targ(ao, &a) < 0) return NULL;
    if (nn_linalg_ldl_factor(py_ctx(), a, &r[0], &r[1], &r[2]) != NN_OK) return py_engine_error();
    return tuple_of(r, 3);
}

static PyObject *f_ldl_solve(PyObject *m, PyObject *args) {
    PyObject *lo, *po, *bo;
    nn_tensor *l, *p, *b;
    if (!PyArg_ParseTuple(args, "OOO", &lo, &po, &bo) || targ(lo, &l) < 0 || targ(po, &p) < 0 ||
        targ(bo, &b) < 0)
        return NULL;
    nn_tensor *x = nn_linalg_ldl_solve(py_ctx(), l, p, b);
    return x ? py_tensor_wrap(x) : py_engine_error();
}

PyMethodDef py_linalg_functions[] = {
    {"_linalg_ldl_factor", f_ldl_factor, METH_VARARGS, "sytrf (lower): (LD, pivots, info)"},
    {"_linalg_ldl_solve", f_ldl_solve, METH_VARARGS, "sytrs (lower)(LD, pivots, B)"},
    {"_linalg_lu_factor", f_lu_factor, METH_VARARGS, "getrf: (LU, pivots, info)"},
    {"_linalg_lu_solve", f_lu_solve, METH_VARARGS, "getrs(LU, pivots, B, trans)"},
    {"_linalg_solve", f_solve, METH_VARARGS,
     "getrf + getrs(A, B, transpose_a=False): (X, LU, pivots, info)"},
    {"_linalg_cholesky", f_cholesky, METH_VARARGS, "potrf(A, upper): (L, info)"},
    {"_linalg_cholesky_solve", f_cholesky_solve, METH_VARARGS, "potrs(L, B, upper)"},
    {"_linalg_cholesky_inverse", f_cholesky_inverse, METH_VARARGS, "potri(L, upper): (X, info)"},
    {"_linalg_triangular_solve", f_triangular_solve, METH_VARARGS,
     "trsm(A, B, upper, left, transpose, unit)"},
    {"_linalg_geqrf", f_geqrf, METH_VARARGS, "geqrf: (QR, tau)"},
    {"_linalg_orgqr", f_orgqr, METH_VARARGS, "orgqr(A, tau)"},
    {"_linalg_ormqr", f_ormqr, METH_VARARGS, "ormqr(A, tau, C, left, transpose)"},
    {"_linalg_svd", f_svd, METH_VARARGS, "gesdd(A, full, compute_uv): (U, S, Vh, info)"},
    {"_linalg_eigh", f_eigh, METH_VARARGS, "syevd(A, upper, compute_v): (w, V, info)"},
    {"_linalg_eig", f_eig, METH_VARARGS, "geev(A, compute_v): (wr, wi, VR, info)"},
    {"_linalg_lstsq", f_lstsq, METH_VARARGS,
     "gels/gelsy/gelsd/gelss(A, B, rcond, driver): (X, rank, sv, info)"},
    {NULL, NULL, 0, NULL},
};
