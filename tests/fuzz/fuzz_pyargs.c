/* fuzz_pyargs: drive the torch extension's argument parsing with byte
 * strings, through CPython as a script would.
 *
 * Each input is read as a little program: build Python values (ints from
 * tiny to far beyond int64, floats with NaN and infinities, nested lists of
 * ragged shapes, tuples, slices, None, Ellipsis, strings, dtypes, tensors)
 * and call torch functions and tensor methods with them as positional and
 * keyword arguments. Every call may raise a Python exception; none may
 * crash or trip a sanitizer. Built with tests/fuzz/fuzz_driver.c for
 * `make test` and with libFuzzer for `make fuzz`. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "py_embed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct reader {
    const uint8_t *p;
    size_t n, i;
} reader;

static int byte(reader *r) {
    return r->i < r->n ? r->p[r->i++] : 0;
}

static PyObject *torch_mod, *tensor_cls, *tensors[4];

static const char *const factories[] = {
    "tensor", "zeros", "ones",  "full",      "arange",     "linspace",  "eye",      "randint",
    "randn",  "rand",  "empty", "as_tensor", "zeros_like", "full_like", "randperm", "manual_seed",
};
static const char *const methods[] = {
    "__getitem__", "__setitem__", "view",        "reshape",      "sum",
    "mean",        "add",         "mul",         "matmul",       "backward",
    "item",        "tolist",      "size",        "stride",       "fill_",
    "copy_",       "__add__",     "__truediv__", "__floordiv__", "__mod__",
    "__pow__",     "__and__",     "__iadd__",    "__imul__",     "requires_grad_",
    "__eq__",      "__lt__",      "__bool__",    "__int__",      "__index__",
};
static const char *const keywords[] = {"dim",   "keepdim", "dtype", "requires_grad",
                                       "alpha", "size",    "out",   "bogus"};

static PyObject *value(reader *r, int depth);

static PyObject *list_of(reader *r, int depth) {
    int n = byte(r) % 5;
    PyObject *l = PyList_New(n);
    for (int i = 0; l && i < n; i++) {
        PyObject *v = value(r, depth + 1);
        if (!v) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, v);
    }
    return l;
}

static PyObject *value(reader *r, int depth) {
    int k = byte(r) % (depth > 3 ? 8 : 14);
    switch (k) {
    case 0: return PyLong_FromLong(byte(r) % 7 - 2);
    case 1: return PyLong_FromLongLong((long long)((uint64_t)byte(r) << 56 | (uint64_t)byte(r)));
    case 2: { /* beyond int64 */
        PyObject *a = PyLong_FromLong(byte(r) + 1), *e = PyLong_FromLong(70 + byte(r) % 60);
        PyObject *v = a && e ? PyNumber_Power(a, e, Py_None) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(e);
        return v;
    }
    case 3: {
        static const double fs[] = {0.5, -1.25, 1e300, -0.0, 3.0};
        int j = byte(r) % 8;
        double d = j < 5 ? fs[j] : j == 5 ? NAN : j == 6 ? INFINITY : -INFINITY;
        return PyFloat_FromDouble(d);
    }
    case 4: return Py_NewRef(byte(r) & 1 ? Py_True : Py_False);
    case 5: return Py_NewRef(Py_None);
    case 6: return Py_NewRef(tensors[byte(r) % 4]);
    case 7: return PyUnicode_FromString(byte(r) & 1 ? "cpu" : "x");
    case 8: return list_of(r, depth);
    case 9: {
        PyObject *l = list_of(r, depth);
        PyObject *t = l ? PyList_AsTuple(l) : NULL;
        Py_XDECREF(l);
        return t;
    }
    case 10: {
        PyObject *a = value(r, depth + 1), *b = value(r, depth + 1), *c = value(r, depth + 1);
        PyObject *s = a && b && c ? PySlice_New(a, b, c) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        return s;
    }
    case 11: return Py_NewRef(Py_Ellipsis);
    case 12: {
        static const char *dts[] = {"float32", "int64", "bool", "float16", "uint8", "float64"};
        return PyObject_GetAttrString(torch_mod, dts[byte(r) % 6]);
    }
    default: return PyComplex_FromDoubles(1, byte(r));
    }
}

static void call(reader *r) {
    bool is_method = byte(r) & 1;
    PyObject *fn;
    if (is_method) {
        PyObject *t = tensors[byte(r) % 4];
        fn = PyObject_GetAttrString(t, methods[byte(r) % (sizeof methods / sizeof methods[0])]);
    } else {
        fn = PyObject_GetAttrString(torch_mod,
                                    factories[byte(r) % (sizeof factories / sizeof factories[0])]);
    }
    if (!fn) {
        PyErr_Clear();
        return;
    }
    int n = byte(r) % 4;
    PyObject *args = PyTuple_New(n), *kw = NULL;
    for (int i = 0; args && i < n; i++) {
        PyObject *v = value(r, 0);
        if (!v) {
            PyErr_Clear();
            v = Py_NewRef(Py_None);
        }
        PyTuple_SET_ITEM(args, i, v);
    }
    if (byte(r) % 3 == 0) {
        kw = PyDict_New();
        PyObject *v = value(r, 0);
        if (!v) {
            PyErr_Clear();
            v = Py_NewRef(Py_None);
        }
        PyDict_SetItemString(kw, keywords[byte(r) % 8], v);
        Py_DECREF(v);
    }
    PyObject *res = args ? PyObject_Call(fn, args, kw) : NULL;
    if (res) {
        /* print it, as the REPL would */
        PyObject *s = PyObject_Repr(res);
        Py_XDECREF(s);
        if (PyObject_IsInstance(res, tensor_cls) == 1 && byte(r) % 2) {
            int slot = byte(r) % 4; /* Py_SETREF evaluates its argument twice */
            Py_SETREF(tensors[slot], Py_NewRef(res));
        }
    }
    PyErr_Clear();
    Py_XDECREF(res);
    Py_XDECREF(args);
    Py_XDECREF(kw);
    Py_DECREF(fn);
}

static void setup(void) {
    if (py_embed_init() != 0) abort();
    torch_mod = PyImport_ImportModule("torch");
    if (!torch_mod) {
        PyErr_Print();
        abort();
    }
    tensor_cls = PyObject_GetAttrString(torch_mod, "Tensor");
    if (!tensor_cls) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!torch_mod) setup();
    reader r = {data, size, 0};
    /* fresh small tensors for every input: float, int, a view, requires_grad */
    PyObject *code = Py_CompileString(
        "(__import__('torch').arange(6.).reshape(2, 3), __import__('torch').arange(4), "
        "__import__('torch').ones(3, 4).t(), __import__('torch').ones(2, requires_grad=True))",
        "<fuzz>", Py_eval_input);
    PyObject *g = PyDict_New();
    PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins());
    PyObject *ts = code ? PyEval_EvalCode(code, g, g) : NULL;
    Py_XDECREF(code);
    Py_DECREF(g);
    if (!ts) {
        /* .t() may not exist yet: fall back to what does */
        PyErr_Clear();
        code = Py_CompileString("(__import__('torch').arange(6.).reshape(2, 3), "
                                "__import__('torch').arange(4), __import__('torch').ones(3, 4), "
                                "__import__('torch').ones(2, requires_grad=True))",
                                "<fuzz>", Py_eval_input);
        g = PyDict_New();
        PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins());
        ts = code ? PyEval_EvalCode(code, g, g) : NULL;
        Py_XDECREF(code);
        Py_DECREF(g);
        if (!ts) abort();
    }
    for (int i = 0; i < 4; i++) tensors[i] = Py_NewRef(PyTuple_GET_ITEM(ts, i));
    Py_DECREF(ts);
    int steps = 1 + byte(&r) % 8;
    for (int s = 0; s < steps && r.i < r.n; s++) call(&r);
    for (int i = 0; i < 4; i++) Py_CLEAR(tensors[i]);
    PyErr_Clear();
    return 0;
}
