/* lang_tensor_ops: the tensor API learners reach for after the basics
 * (issue 11): sin, cos, log2, log10, nan_to_num, tril/triu, cumsum/cumprod,
 * sort/argsort/topk, gather/scatter/index_select, flip, repeat,
 * repeat_interleave, one_hot, nonzero, bincount, histc, isclose, einsum,
 * batch_norm and group_norm, with PyTorch 1.13's names, argument names and
 * defaults. Each is a builtin (torch.X, F.X) here and, where torch has
 * one, a Tensor method (the rows in lang_tensor_ops_methods.inc, which
 * lang_tensor.c's method table includes). The kernels are the engine's
 * (engine/ops_math.c, ops_scan.c, ops_index.c, ops_norm.c); einsum is
 * permute, reshape and matmul, so autograd sees those. */
#include "lang_tensor_ops.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_eval.h"
#include "lang_tensor.h"
#include "lang_vm.h"
#include "nn_ops.h"

static nn_ctx *CTX(lang_vm *vm) {
    return lang_vm_ctx(vm);
}

static bool targ(lang_vm *vm, lang_val v, const char *fname, const char *what, nn_tensor **t) {
    return lang_tensor_arg(vm, v, fname, what, t);
}

static bool wrap(lang_vm *vm, nn_tensor *r, const char *fn_name, lang_val *out) {
    return lang_tensor_wrap(vm, r, fn_name, out);
}

/* An optional tensor (None -> NULL). */
static bool opt_tensor(lang_vm *vm, lang_val v, const char *fname, const char *what,
                       nn_tensor **t) {
    *t = NULL;
    return v.kind == LANG_NONE || targ(vm, v, fname, what, t);
}

static bool opt_float(lang_vm *vm, lang_val v, const char *what, double *out) {
    if (v.kind == LANG_NONE) {
        *out = NAN;
        return true;
    }
    return lang_to_float(vm, v, what, out);
}

/* ---- elementwise ---- */

static bool unary(lang_vm *vm, const lang_args *a, const char *fname,
                  nn_tensor *(*fn)(nn_ctx *, nn_tensor *), lang_val *out) {
    return lang_tensor_unary(vm, a, fname, fn, out);
}

#define UNARY(name)                                                                                \
    bool lang_f_##name(lang_vm *vm, const lang_args *a, lang_val *out) {                           \
        return unary(vm, a, #name, nn_##name, out);                                                \
    }
UNARY(sin)
UNARY(cos)
UNARY(log2)
UNARY(log10)
#undef UNARY

bool lang_f_nan_to_num(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, nv = lang_float(0.0), pv = lang_none(), mv = lang_none();
    nn_tensor *t;
    double n, p, m;
    if (!lang_parse_args(vm, a, "nan_to_num", "input|nan,posinf,neginf", &x, &nv, &pv, &mv) ||
        !targ(vm, x, "nan_to_num", "input", &t) || !opt_float(vm, nv, "nan", &n) ||
        !opt_float(vm, pv, "posinf", &p) || !opt_float(vm, mv, "neginf", &m))
        return false;
    return wrap(vm, nn_nan_to_num(CTX(vm), t, n, p, m), NULL, out);
}

static bool triangle(lang_vm *vm, const lang_args *a, const char *fname, bool upper,
                     lang_val *out) {
    lang_val x, dv = lang_int(0);
    nn_tensor *t;
    int64_t diag;
    if (!lang_parse_args(vm, a, fname, "input|diagonal", &x, &dv) ||
        !targ(vm, x, fname, "input", &t) || !lang_to_int(vm, dv, "diagonal", &diag))
        return false;
    nn_ctx *ctx = CTX(vm);
    return wrap(vm, upper ? nn_triu(ctx, t, diag) : nn_tril(ctx, t, diag), NULL, out);
}
bool lang_f_tril(lang_vm *vm, const lang_args *a, lang_val *out) {
    return triangle(vm, a, "tril", false, out);
}
bool lang_f_triu(lang_vm *vm, const lang_args *a, lang_val *out) {
    return triangle(vm, a, "triu", true, out);
}

/* isclose: |a - b| <= atol + rtol |b| (or equal, for infinities), NaN
 * equal to NaN with equal_nan; a bool tensor, no gradient. */
bool lang_f_isclose(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, rv = lang_float(1e-5), av = lang_float(1e-8), en = lang_bool(false);
    nn_tensor *p, *q;
    double rtol, atol;
    bool equal_nan;
    if (!lang_parse_args(vm, a, "isclose", "input,other|rtol,atol,equal_nan", &x, &y, &rv, &av,
                         &en) ||
        !targ(vm, x, "isclose", "input", &p) || !targ(vm, y, "isclose", "other", &q) ||
        !lang_to_float(vm, rv, "rtol", &rtol) || !lang_to_float(vm, av, "atol", &atol) ||
        !lang_to_bool(vm, en, "equal_nan", &equal_nan))
        return false;
    if (p->dtype != q->dtype)
        return lang_raise(vm, LANG_ERR_RUNTIME, "%s did not match %s", nn_dtype_name(q->dtype),
                          nn_dtype_name(p->dtype));
    nn_ctx *ctx = CTX(vm);
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *d = nn_sub(ctx, p, q);
    nn_tensor *ad = d ? nn_abs(ctx, d) : NULL;
    nn_tensor *ab = ad ? nn_abs(ctx, q) : NULL;
    nn_tensor *tol = ab ? nn_mul_scalar(ctx, ab, rtol) : NULL;
    nn_tensor *tol2 = tol ? nn_add_scalar(ctx, tol, atol) : NULL;
    nn_tensor *le = tol2 ? nn_le(ctx, ad, tol2) : NULL;
    nn_tensor *eq = le ? nn_eq(ctx, p, q) : NULL;
    nn_tensor *r = eq ? nn_logical_or(ctx, le, eq) : NULL;
    if (r && equal_nan) {
        nn_tensor *n1 = nn_isnan(ctx, p), *n2 = n1 ? nn_isnan(ctx, q) : NULL;
        nn_tensor *both = n2 ? nn_logical_and(ctx, n1, n2) : NULL;
        nn_tensor *r2 = both ? nn_logical_or(ctx, r, both) : NULL;
        nn_tensor_release(n1);
        nn_tensor_release(n2);
        nn_tensor_release(both);
        nn_tensor_release(r);
        r = r2;
    }
    nn_ctx_set_grad(ctx, prev);
    nn_tensor *all[] = {d, ad, ab, tol, tol2, le, eq};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    return wrap(vm, r, NULL, out);
}

/* ---- scans ---- */

static bool scan(lang_vm *vm, const lang_args *a, const char *fname, bool prod, lang_val *out) {
    lang_val x, dv, dtv = lang_none();
    nn_tensor *t;
    int64_t dim;
    if (!lang_parse_args(vm, a, fname, "input,dim|dtype", &x, &dv, &dtv) ||
        !targ(vm, x, fname, "input", &t) || !lang_to_int(vm, dv, "dim", &dim))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_tensor *src = nn_tensor_retain(t);
    if (dtv.kind != LANG_NONE) {
        nn_dtype dt;
        if (!lang_dtype_from(vm, dtv, "dtype", &dt)) {
            nn_tensor_release(src);
            return false;
        }
        nn_tensor_release(src);
        if (!(src = nn_to(ctx, t, dt))) return lang_raise_engine(vm);
    }
    nn_tensor *r = prod ? nn_cumprod(ctx, src, dim) : nn_cumsum(ctx, src, dim);
    nn_tensor_release(src);
    return wrap(vm, r, prod ? "CumprodBackward0" : "CumsumBackward0", out);
}
bool lang_f_cumsum(lang_vm *vm, const lang_args *a, lang_val *out) {
    return scan(vm, a, "cumsum", false, out);
}
bool lang_f_cumprod(lang_vm *vm, const lang_args *a, lang_val *out) {
    return scan(vm, a, "cumprod", true, out);
}

/* ---- sorting ---- */

/* values and indices as torch.return_types.<name>; values get grad_fn [gf]. */
static bool values_indices(lang_vm *vm, const char *name, nn_tensor *v, nn_tensor *idx,
                           const char *gf, lang_val *out) {
    if (!v) return lang_raise_engine(vm);
    if (!lang_return_types_new(vm, name, v, idx, out)) return false;
    lang_val vals;
    if (lang_getattr(vm, *out, "values", &vals)) {
        if (v->grad_fn) lang_tensor_set_fn_name(vals, gf);
        lang_val_release(vals);
    }
    return true;
}

bool lang_f_sort(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv = lang_int(-1), de = lang_bool(false), st = lang_bool(false);
    nn_tensor *t;
    int64_t dim;
    bool desc, stable;
    if (!lang_parse_args(vm, a, "sort", "input|dim,descending,stable", &x, &dv, &de, &st) ||
        !targ(vm, x, "sort", "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !lang_to_bool(vm, de, "descending", &desc) || !lang_to_bool(vm, st, "stable", &stable))
        return false;
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_sort(CTX(vm), t, dim, desc, &idx);
    return values_indices(vm, "sort", v, idx, "SortBackward0", out);
}

bool lang_f_argsort(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv = lang_int(-1), de = lang_bool(false), st = lang_bool(false);
    nn_tensor *t;
    int64_t dim;
    bool desc, stable;
    if (!lang_parse_args(vm, a, "argsort", "input|dim,descending,stable", &x, &dv, &de, &st) ||
        !targ(vm, x, "argsort", "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !lang_to_bool(vm, de, "descending", &desc) || !lang_to_bool(vm, st, "stable", &stable))
        return false;
    if (t->ndim == 0) return wrap(vm, nn_zeros(CTX(vm), NN_INT64, 0, NULL), NULL, out);
    return wrap(vm, nn_argsort(CTX(vm), t, dim, desc), NULL, out);
}

bool lang_f_topk(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, kv, dv = lang_int(-1), lv = lang_bool(true), sv = lang_bool(true);
    nn_tensor *t;
    int64_t k, dim;
    bool largest, sorted;
    if (!lang_parse_args(vm, a, "topk", "input,k|dim,largest,sorted", &x, &kv, &dv, &lv, &sv) ||
        !targ(vm, x, "topk", "input", &t) || !lang_to_int(vm, kv, "k", &k) ||
        !lang_to_int(vm, dv, "dim", &dim) || !lang_to_bool(vm, lv, "largest", &largest) ||
        !lang_to_bool(vm, sv, "sorted", &sorted))
        return false;
    nn_tensor *idx = NULL;
    nn_tensor *v = nn_topk(CTX(vm), t, k, dim, largest, &idx);
    return values_indices(vm, "topk", v, idx, "TopkBackward0", out);
}

/* ---- gather / scatter / index_select ---- */

bool lang_f_gather(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv, iv, sg = lang_bool(false);
    nn_tensor *t, *idx;
    int64_t dim;
    if (!lang_parse_args(vm, a, "gather", "input,dim,index|sparse_grad", &x, &dv, &iv, &sg) ||
        !targ(vm, x, "gather", "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !targ(vm, iv, "gather", "index", &idx))
        return false;
    return wrap(vm, nn_gather(CTX(vm), t, dim, idx), "GatherBackward0", out);
}

/* The source of a scatter: the src tensor, or a tensor of index's shape
 * filled with [value] in x's dtype (new reference). */
static bool scatter_src(lang_vm *vm, const char *fname, nn_tensor *x, nn_tensor *idx, lang_val sv,
                        lang_val vv, bool *is_value, nn_tensor **src) {
    *is_value = false;
    if (sv.kind != LANG_NONE && lang_tensor_of(sv)) {
        *src = nn_tensor_retain(lang_tensor_of(sv));
        return true;
    }
    lang_val v = sv.kind != LANG_NONE ? sv : vv;
    if (v.kind == LANG_NONE)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() missing 1 required argument: 'src' or 'value'",
                          fname);
    double d;
    if (!lang_to_float(vm, v, "value", &d)) return false;
    *is_value = true;
    *src = nn_full(CTX(vm), x->dtype, idx->ndim, idx->shape, d);
    return *src ? true : lang_raise_engine(vm);
}

static bool scatter_common(lang_vm *vm, const lang_args *a, const char *fname, bool add,
                           nn_tensor **result) {
    lang_val x, dv, iv, sv = lang_none(), vv = lang_none(), rv = lang_none();
    nn_tensor *t, *idx, *src;
    int64_t dim;
    *result = NULL;
    const char *spec = add ? "input,dim,index,src" : "input,dim,index|src,value,reduce";
    if (!lang_parse_args(vm, a, fname, spec, &x, &dv, &iv, &sv, &vv, &rv) ||
        !targ(vm, x, fname, "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !targ(vm, iv, fname, "index", &idx))
        return false;
    if (rv.kind != LANG_NONE) {
        const char *r = lang_is_obj(rv, &lang_str_type) ? lang_str_cstr(rv) : "";
        if (strcmp(r, "add"))
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "%s(): reduce='%s' is not available in nndb; reduce='add' (or "
                              "scatter_add) is",
                              fname, r);
        add = true;
    }
    if (add && !lang_tensor_of(sv)) {
        targ(vm, sv, fname, "src", &src); /* raises torch's TypeError */
        return false;
    }
    bool is_value;
    if (!scatter_src(vm, fname, t, idx, sv, vv, &is_value, &src)) return false;
    *result = nn_scatter(CTX(vm), t, dim, idx, src, add);
    nn_tensor_release(src);
    return *result ? true : lang_raise_engine(vm);
}

bool lang_f_scatter(lang_vm *vm, const lang_args *a, lang_val *out) {
    nn_tensor *r = NULL;
    if (!scatter_common(vm, a, "scatter", false, &r)) return false;
    return wrap(vm, r, "ScatterBackward0", out);
}

bool lang_f_scatter_add(lang_vm *vm, const lang_args *a, lang_val *out) {
    nn_tensor *r = NULL;
    if (!scatter_common(vm, a, "scatter_add", true, &r)) return false;
    return wrap(vm, r, "ScatterAddBackward0", out);
}

/* x.scatter_(...) / x.scatter_add_(...): the out-of-place result copied
 * into x (not recorded, as the other in-place set-up ops). */
static bool scatter_inplace(lang_vm *vm, lang_val self, const lang_args *a, bool add,
                            lang_val *out) {
    nn_tensor *r = NULL;
    lang_val stack[8];
    if (a->n + 1 > 8) return lang_raise(vm, LANG_ERR_TYPE, "too many arguments");
    stack[0] = self;
    for (int i = 0; i < a->n; i++) stack[i + 1] = a->pos[i];
    lang_args b = {a->n + 1, stack, a->nkw, a->kwnames, a->kw};
    nn_ctx *ctx = CTX(vm);
    nn_tensor *t = lang_tensor_of(self);
    if (nn_tensor_check_inplace(ctx, t, add ? "scatter_add_" : "scatter_"))
        return lang_raise_engine(vm);
    bool prev = nn_ctx_set_grad(ctx, false);
    bool ok = scatter_common(vm, &b, add ? "scatter_add_" : "scatter_", add, &r);
    nn_ctx_set_grad(ctx, prev);
    if (!ok) return false;
    nn_status st = nn_tensor_copy_(ctx, t, r);
    nn_tensor_release(r);
    if (st) return lang_raise_engine(vm);
    *out = lang_val_retain(self);
    return true;
}

bool lang_m_scatter_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return scatter_inplace(vm, self, a, false, out);
}
bool lang_m_scatter_add_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return scatter_inplace(vm, self, a, true, out);
}

bool lang_f_index_select(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv, iv;
    nn_tensor *t, *idx;
    int64_t dim;
    if (!lang_parse_args(vm, a, "index_select", "input,dim,index", &x, &dv, &iv) ||
        !targ(vm, x, "index_select", "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !targ(vm, iv, "index_select", "index", &idx))
        return false;
    return wrap(vm, nn_index_select(CTX(vm), t, dim, idx), "IndexSelectBackward0", out);
}

/* ---- flip / repeat / repeat_interleave ---- */

bool lang_f_flip(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv;
    nn_tensor *t;
    int64_t dims[NN_MAX_DIMS];
    int n;
    if (!lang_parse_args(vm, a, "flip", "input,dims", &x, &dv) ||
        !targ(vm, x, "flip", "input", &t) || !lang_to_dims(vm, dv, "dims", dims, NN_MAX_DIMS, &n))
        return false;
    return wrap(vm, nn_flip(CTX(vm), t, dims, n), "FlipBackward0", out);
}

/* x.flip(0, 1) as well as x.flip((0, 1)) */
bool lang_m_flip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t dims[NN_MAX_DIMS];
    int n = 0;
    if (a->nkw == 1 && !strcmp(a->kwnames[0], "dims") && a->n == 0) {
        if (!lang_to_dims(vm, a->kw[0], "dims", dims, NN_MAX_DIMS, &n)) return false;
    } else if (a->nkw) {
        return lang_raise(vm, LANG_ERR_TYPE, "flip() got an unexpected keyword argument '%s'",
                          a->kwnames[0]);
    } else if (a->n == 1) {
        if (!lang_to_dims(vm, a->pos[0], "dims", dims, NN_MAX_DIMS, &n)) return false;
    } else {
        if (a->n > NN_MAX_DIMS) return lang_raise(vm, LANG_ERR_VALUE, "flip(): too many dims");
        for (int i = 0; i < a->n; i++)
            if (!lang_to_int(vm, a->pos[i], "dims", &dims[i])) return false;
        n = a->n;
    }
    return wrap(vm, nn_flip(CTX(vm), lang_tensor_of(self), dims, n), "FlipBackward0", out);
}

/* x.repeat(2, 3) or x.repeat((2, 3)) */
bool lang_m_repeat(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    int64_t reps[NN_MAX_DIMS];
    int n = 0;
    if (a->nkw)
        return lang_raise(vm, LANG_ERR_TYPE, "repeat() got an unexpected keyword argument '%s'",
                          a->kwnames[0]);
    if (a->n == 1 && a->pos[0].kind != LANG_INT) {
        if (!lang_to_dims(vm, a->pos[0], "repeats", reps, NN_MAX_DIMS, &n)) return false;
    } else {
        if (a->n > NN_MAX_DIMS) return lang_raise(vm, LANG_ERR_VALUE, "repeat(): too many dims");
        for (int i = 0; i < a->n; i++)
            if (!lang_to_int(vm, a->pos[i], "repeats", &reps[i])) return false;
        n = a->n;
    }
    return wrap(vm, nn_repeat(CTX(vm), lang_tensor_of(self), reps, n), "RepeatBackward0", out);
}

bool lang_f_repeat_interleave(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, rv, dv = lang_none(), osz = lang_none();
    nn_tensor *t;
    int64_t reps, dim = 0;
    if (!lang_parse_args(vm, a, "repeat_interleave", "input,repeats|dim,output_size", &x, &rv, &dv,
                         &osz) ||
        !targ(vm, x, "repeat_interleave", "input", &t))
        return false;
    nn_tensor *rt = lang_tensor_of(rv);
    if (rt && nn_tensor_numel(rt) == 1) {
        reps = (int64_t)nn_tensor_get_flat(rt, 0);
    } else if (rt) {
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "repeat_interleave(): a tensor of repeats (one per element) is not "
                          "available in nndb; use an int");
    } else if (!lang_to_int(vm, rv, "repeats", &reps)) {
        return false;
    }
    if (dv.kind != LANG_NONE && !lang_to_int(vm, dv, "dim", &dim)) return false;
    return wrap(vm, nn_repeat_interleave(CTX(vm), t, reps, dim, dv.kind == LANG_NONE),
                "IndexSelectBackward0", out);
}

/* ---- counting ---- */

bool lang_f_one_hot(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, nv = lang_int(-1);
    nn_tensor *t;
    int64_t nc;
    if (!lang_parse_args(vm, a, "one_hot", "tensor|num_classes", &x, &nv) ||
        !targ(vm, x, "one_hot", "tensor", &t) || !lang_to_int(vm, nv, "num_classes", &nc))
        return false;
    return wrap(vm, nn_one_hot(CTX(vm), t, nc), NULL, out);
}

bool lang_f_nonzero(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, tv = lang_bool(false);
    nn_tensor *t;
    bool as_tuple;
    if (!lang_parse_args(vm, a, "nonzero", "input|as_tuple", &x, &tv) ||
        !targ(vm, x, "nonzero", "input", &t) || !lang_to_bool(vm, tv, "as_tuple", &as_tuple))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_tensor *nz = nn_nonzero(ctx, t);
    if (!nz) return lang_raise_engine(vm);
    if (!as_tuple) return wrap(vm, nz, NULL, out);
    /* one 1-D tensor per dim (a 0-dim input counts as 1-D) */
    int nd = t->ndim ? t->ndim : 1;
    lang_val items[NN_MAX_DIMS];
    int made = 0;
    bool ok = true;
    for (int d = 0; d < nd && ok; d++) {
        nn_tensor *col = t->ndim ? nn_select(ctx, nz, 1, d) : NULL;
        if (!t->ndim) {
            int64_t n = nz->shape[0];
            col = nn_zeros(ctx, NN_INT64, 1, &n);
        }
        nn_tensor *cc = col ? nn_contiguous(ctx, col) : NULL;
        nn_tensor_release(col);
        ok = cc ? lang_tensor_wrap(vm, cc, NULL, &items[made]) : lang_raise_engine(vm);
        if (ok) made++;
    }
    nn_tensor_release(nz);
    if (ok) ok = lang_tuple_pack(vm, made, items, out);
    for (int i = 0; i < made; i++) lang_val_release(items[i]);
    return ok;
}

bool lang_f_bincount(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, wv = lang_none(), mv = lang_int(0);
    nn_tensor *t, *w;
    int64_t minlength;
    if (!lang_parse_args(vm, a, "bincount", "input|weights,minlength", &x, &wv, &mv) ||
        !targ(vm, x, "bincount", "input", &t) || !opt_tensor(vm, wv, "bincount", "weights", &w) ||
        !lang_to_int(vm, mv, "minlength", &minlength))
        return false;
    return wrap(vm, nn_bincount(CTX(vm), t, w, minlength), NULL, out);
}

bool lang_f_histc(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, bv = lang_int(100), lo = lang_int(0), hi = lang_int(0);
    nn_tensor *t;
    int64_t bins;
    double mn, mx;
    if (!lang_parse_args(vm, a, "histc", "input|bins,min,max", &x, &bv, &lo, &hi) ||
        !targ(vm, x, "histc", "input", &t) || !lang_to_int(vm, bv, "bins", &bins) ||
        !lang_to_float(vm, lo, "min", &mn) || !lang_to_float(vm, hi, "max", &mx))
        return false;
    return wrap(vm, nn_histc(CTX(vm), t, bins, mn, mx), NULL, out);
}

/* ---- einsum ----
 * One or two operands, each letter at most once per operand; no '...'.
 * Two operands: sum away letters only one operand has and the output
 * lacks, then batch (both, kept) x kept-from-a x contracted, times
 * batch x contracted x kept-from-b, as one batched matmul, reshaped and
 * permuted to the output's order. */

typedef struct es_term {
    char s[NN_MAX_DIMS + 1];
    int n;
} es_term;

static bool es_parse_term(lang_vm *vm, const char *p, size_t len, es_term *t) {
    t->n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = p[i];
        if (c == ' ') continue;
        if (c == '.')
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "einsum(): '...' (ellipsis) is not available in nndb; name every "
                              "dim with a letter");
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "einsum(): invalid subscript given at index %zu in the equation "
                              "string, subscripts must be in [a-zA-Z]",
                              i);
        if (t->n && memchr(t->s, c, (size_t)t->n))
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "einsum(): subscript '%c' appears twice in one operand; repeated "
                              "subscripts (diagonals, traces) are not available in nndb",
                              c);
        if (t->n >= NN_MAX_DIMS)
            return lang_raise(vm, LANG_ERR_RUNTIME, "einsum(): too many subscripts");
        t->s[t->n++] = c;
        t->s[t->n] = 0;
    }
    return true;
}

static int es_pos(const es_term *t, char c) {
    for (int i = 0; i < t->n; i++)
        if (t->s[i] == c) return i;
    return -1;
}

/* Sum [x] over the letters of [t] that are neither in [keep1] nor [keep2];
 * updates t. Takes over x. */
static nn_tensor *es_sum_unused(nn_ctx *ctx, nn_tensor *x, es_term *t, const es_term *keep1,
                                const es_term *keep2) {
    int64_t dims[NN_MAX_DIMS];
    int nd = 0;
    es_term kept = {{0}, 0};
    for (int i = 0; i < t->n; i++) {
        char c = t->s[i];
        if (es_pos(keep1, c) < 0 && (!keep2 || es_pos(keep2, c) < 0))
            dims[nd++] = i;
        else {
            kept.s[kept.n++] = c;
            kept.s[kept.n] = 0;
        }
    }
    if (!nd) return x;
    nn_tensor *r = nn_sum(ctx, x, dims, nd, false);
    nn_tensor_release(x);
    *t = kept;
    return r;
}

/* Permute [x] (letters [t]) into the order of [want] (same letters). */
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

static nn_tensor *es_two(lang_vm *vm, nn_tensor *a, nn_tensor *b, es_term ta, es_term tb,
                         const es_term *to) {
    nn_ctx *ctx = CTX(vm);
    int64_t size[128] = {0};
    for (int i = 0; i < ta.n; i++) size[(int)ta.s[i]] = a->shape[i];
    for (int i = 0; i < tb.n; i++) {
        int c = (int)tb.s[i];
        if (es_pos(&ta, tb.s[i]) >= 0 && size[c] != b->shape[i]) {
            lang_raise(vm, LANG_ERR_RUNTIME,
                       "einsum(): subscript %c has size %lld for operand 1 which does not "
                       "broadcast with previously seen size %lld",
                       tb.s[i], (long long)b->shape[i], (long long)size[c]);
            return NULL;
        }
        size[c] = b->shape[i];
    }
    nn_tensor *x = es_sum_unused(ctx, nn_tensor_retain(a), &ta, to, &tb);
    nn_tensor *y = x ? es_sum_unused(ctx, nn_tensor_retain(b), &tb, to, &ta) : NULL;
    if (!y) {
        nn_tensor_release(x);
        lang_raise_engine(vm);
        return NULL;
    }
    char batch[NN_MAX_DIMS + 1] = "", ka[NN_MAX_DIMS + 1] = "", kb[NN_MAX_DIMS + 1] = "",
                             con[NN_MAX_DIMS + 1] = "";
    int nb = 0, na = 0, nk = 0, nc = 0;
    int64_t B = 1, M = 1, N = 1, K = 1;
    for (int i = 0; i < ta.n; i++) {
        char c = ta.s[i];
        bool inb = es_pos(&tb, c) >= 0, ino = es_pos(to, c) >= 0;
        if (inb && ino)
            batch[nb++] = c, B *= size[(int)c];
        else if (inb)
            con[nc++] = c, K *= size[(int)c];
        else
            ka[na++] = c, M *= size[(int)c];
    }
    for (int i = 0; i < tb.n; i++)
        if (es_pos(&ta, tb.s[i]) < 0) kb[nk++] = tb.s[i], N *= size[(int)tb.s[i]];
    char wa[3 * NN_MAX_DIMS + 1], wb[3 * NN_MAX_DIMS + 1], wr[3 * NN_MAX_DIMS + 1];
    snprintf(wa, sizeof wa, "%s%s%s", batch, ka, con);
    snprintf(wb, sizeof wb, "%s%s%s", batch, con, kb);
    snprintf(wr, sizeof wr, "%s%s%s", batch, ka, kb);
    int64_t s3a[3] = {B, M, K}, s3b[3] = {B, K, N}, rs[NN_MAX_DIMS];
    int nr = nb + na + nk;
    for (int i = 0; i < nr; i++) rs[i] = size[(int)wr[i]];
    nn_tensor *pa = es_permute(ctx, x, &ta, wa);
    nn_tensor *pb = pa ? es_permute(ctx, y, &tb, wb) : NULL;
    nn_tensor *ra = pb ? nn_reshape(ctx, pa, 3, s3a) : NULL;
    nn_tensor *rb = ra ? nn_reshape(ctx, pb, 3, s3b) : NULL;
    nn_tensor *mm = rb ? nn_matmul(ctx, ra, rb) : NULL;
    nn_tensor *rr = mm ? nn_reshape(ctx, mm, nr, rs) : NULL;
    es_term tr = {{0}, nr};
    memcpy(tr.s, wr, (size_t)nr);
    nn_tensor *res = rr ? es_permute(ctx, rr, &tr, to->s) : NULL;
    nn_tensor *all[] = {x, y, pa, pb, ra, rb, mm, rr};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) nn_tensor_release(all[i]);
    if (!res) lang_raise_engine(vm);
    return res;
}

bool lang_f_einsum(lang_vm *vm, const lang_args *a, lang_val *out) {
    if (a->nkw)
        return lang_raise(vm, LANG_ERR_TYPE, "einsum() got an unexpected keyword argument '%s'",
                          a->kwnames[0]);
    if (a->n < 2 || !lang_is_obj(a->pos[0], &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE,
                          "einsum(): expected an equation string and operands, as "
                          "einsum('ij,jk->ik', a, b)");
    const char *eq = lang_str_cstr(a->pos[0]);
    nn_tensor *ops[2];
    int nops = a->n - 1;
    lang_val list_items[2];
    if (nops == 1 && !lang_tensor_of(a->pos[1]) && lang_seq_len(a->pos[1]) >= 1) {
        /* einsum(eq, [a, b]) */
        int64_t n = lang_seq_len(a->pos[1]);
        if (n > 2)
            nops = 3;
        else {
            nops = (int)n;
            for (int i = 0; i < nops; i++) {
                lang_val k = lang_int(i);
                if (!lang_getitem(vm, a->pos[1], k, &list_items[i])) return false;
                ops[i] = lang_tensor_of(list_items[i]);
                lang_val_release(list_items[i]);
                if (!ops[i])
                    return lang_raise(vm, LANG_ERR_TYPE, "einsum(): operands must be tensors");
            }
        }
    } else if (nops <= 2) {
        for (int i = 0; i < nops; i++)
            if (!targ(vm, a->pos[i + 1], "einsum", "operands", &ops[i])) return false;
    }
    if (nops > 2)
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "einsum(): more than two operands are not available in nndb; chain "
                          "two-operand einsums");
    const char *arrow = strstr(eq, "->");
    size_t lhs_len = arrow ? (size_t)(arrow - eq) : strlen(eq);
    const char *comma = memchr(eq, ',', lhs_len);
    int nterms = comma ? 2 : 1;
    if (comma && memchr(comma + 1, ',', lhs_len - (size_t)(comma + 1 - eq))) nterms = 3;
    if (nterms != nops)
        return lang_raise(vm, LANG_ERR_RUNTIME,
                          "einsum(): %s operands were provided than specified in the equation",
                          nops > nterms ? "more" : "fewer");
    es_term t[2], to = {{0}, 0};
    memset(t, 0, sizeof t);
    if (!es_parse_term(vm, eq, comma ? (size_t)(comma - eq) : lhs_len, &t[0])) return false;
    if (comma && !es_parse_term(vm, comma + 1, lhs_len - (size_t)(comma + 1 - eq), &t[1]))
        return false;
    for (int i = 0; i < nops; i++)
        if (t[i].n != ops[i]->ndim)
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "einsum(): the number of subscripts in the equation (%d) does not "
                              "match the number of dimensions (%d) for operand %d and no "
                              "ellipsis was given",
                              t[i].n, ops[i]->ndim, i);
    if (arrow) {
        if (!es_parse_term(vm, arrow + 2, strlen(arrow + 2), &to)) return false;
        for (int i = 0; i < to.n; i++)
            if (es_pos(&t[0], to.s[i]) < 0 && (nops < 2 || es_pos(&t[1], to.s[i]) < 0))
                return lang_raise(vm, LANG_ERR_RUNTIME,
                                  "einsum(): output subscript %c does not appear in the equation "
                                  "for any input operand",
                                  to.s[i]);
    } else {
        /* implicit output: the letters that appear once, in alphabetical order */
        for (int c = 'A'; c <= 'z'; c++) {
            int cnt = (es_pos(&t[0], (char)c) >= 0) + (nops > 1 && es_pos(&t[1], (char)c) >= 0);
            if (cnt == 1) {
                to.s[to.n++] = (char)c;
                to.s[to.n] = 0;
            }
        }
    }
    nn_ctx *ctx = CTX(vm);
    nn_tensor *r;
    if (nops == 1) {
        nn_tensor *x = es_sum_unused(ctx, nn_tensor_retain(ops[0]), &t[0], &to, NULL);
        r = x ? es_permute(ctx, x, &t[0], to.s) : NULL;
        nn_tensor_release(x);
        if (!r) return lang_raise_engine(vm);
    } else {
        r = es_two(vm, ops[0], ops[1], t[0], t[1], &to);
        if (!r) return false;
    }
    return wrap(vm, r, NULL, out);
}

/* ---- normalisation ---- */

bool lang_f_batch_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, rm, rv, wv = lang_none(), bv = lang_none(), tv = lang_bool(false),
                        mv = lang_float(0.1), ev = lang_float(1e-5);
    nn_tensor *t, *m, *v, *w, *b;
    bool training;
    double momentum, eps;
    if (!lang_parse_args(vm, a, "batch_norm",
                         "input,running_mean,running_var|weight,bias,training,momentum,eps", &x,
                         &rm, &rv, &wv, &bv, &tv, &mv, &ev) ||
        !targ(vm, x, "batch_norm", "input", &t) ||
        !opt_tensor(vm, rm, "batch_norm", "running_mean", &m) ||
        !opt_tensor(vm, rv, "batch_norm", "running_var", &v) ||
        !opt_tensor(vm, wv, "batch_norm", "weight", &w) ||
        !opt_tensor(vm, bv, "batch_norm", "bias", &b) ||
        !lang_to_bool(vm, tv, "training", &training) ||
        !lang_to_float(vm, mv, "momentum", &momentum) || !lang_to_float(vm, ev, "eps", &eps))
        return false;
    return wrap(vm, nn_batch_norm(CTX(vm), t, m, v, w, b, training, momentum, eps),
                "NativeBatchNormBackward0", out);
}

bool lang_f_group_norm(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, gv, wv = lang_none(), bv = lang_none(), ev = lang_float(1e-5);
    nn_tensor *t, *w, *b;
    int64_t groups;
    double eps;
    if (!lang_parse_args(vm, a, "group_norm", "input,num_groups|weight,bias,eps", &x, &gv, &wv, &bv,
                         &ev) ||
        !targ(vm, x, "group_norm", "input", &t) || !lang_to_int(vm, gv, "num_groups", &groups) ||
        !opt_tensor(vm, wv, "group_norm", "weight", &w) ||
        !opt_tensor(vm, bv, "group_norm", "bias", &b) || !lang_to_float(vm, ev, "eps", &eps))
        return false;
    return wrap(vm, nn_group_norm(CTX(vm), t, groups, w, b, eps), "NativeGroupNormBackward0", out);
}

/* ---- methods that are the function with self first ---- */

#define SELF_METHOD(name)                                                                          \
    bool lang_m_##name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {            \
        return lang_tensor_call_self(vm, lang_f_##name, self, a, out);                             \
    }
LANG_TENSOR_OPS_SELF_METHODS(SELF_METHOD)
#undef SELF_METHOD

/* ---- the family ---- */

const lang_builtin_def lang_tensor_ops_builtins[] = {
    {"sin", lang_f_sin, {"sin", "sin(input)", "Elementwise sine.", "sin(arange(3.))"}},
    {"cos", lang_f_cos, {"cos", "cos(input)", "Elementwise cosine.", "cos(arange(3.))"}},
    {"log2",
     lang_f_log2,
     {"log2", "log2(input)", "Elementwise base-2 logarithm.", "log2(tensor([1., 8.]))"}},
    {"log10",
     lang_f_log10,
     {"log10", "log10(input)", "Elementwise base-10 logarithm.", "log10(tensor([1., 100.]))"}},
    {"nan_to_num",
     lang_f_nan_to_num,
     {"nan_to_num", "nan_to_num(input, nan=0.0, posinf=None, neginf=None)",
      "Replace NaN by nan, +inf by posinf and -inf by neginf; the infinities default to the "
      "dtype's largest finite values. The gradient passes where the input is finite.",
      "nan_to_num(tensor([float('nan'), float('inf'), 1.]))"}},
    {"tril",
     lang_f_tril,
     {"tril", "tril(input, diagonal=0)",
      "The lower triangle of the last two dims (the rest zero); diagonal > 0 keeps more.",
      "tril(ones(3, 3))"}},
    {"triu",
     lang_f_triu,
     {"triu", "triu(input, diagonal=0)", "The upper triangle of the last two dims (the rest zero).",
      "triu(ones(3, 3), diagonal=1)"}},
    {"isclose",
     lang_f_isclose,
     {"isclose", "isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
      "Elementwise |input - other| <= atol + rtol * |other|, as a bool tensor.",
      "isclose(tensor([1., 2.]), tensor([1., 2.1]))"}},
    {"cumsum",
     lang_f_cumsum,
     {"cumsum", "cumsum(input, dim, dtype=None)", "Running sums along dim.",
      "cumsum(arange(5), dim=0)"}},
    {"cumprod",
     lang_f_cumprod,
     {"cumprod", "cumprod(input, dim, dtype=None)",
      "Running products along dim (the gradient is exact with zeros in the input).",
      "cumprod(tensor([1., 2., 3.]), 0)"}},
    {"sort",
     lang_f_sort,
     {"sort", "sort(input, dim=-1, descending=False, stable=False)",
      "Sorted values and their indices as torch.return_types.sort (unpacks as a pair; "
      ".values, .indices). Always stable in nndb; NaN sorts last.",
      "values, indices = sort(tensor([3., 1., 2.]))"}},
    {"argsort",
     lang_f_argsort,
     {"argsort", "argsort(input, dim=-1, descending=False, stable=False)",
      "The indices that sort input along dim.", "argsort(tensor([3., 1., 2.]))"}},
    {"topk",
     lang_f_topk,
     {"topk", "topk(input, k, dim=-1, largest=True, sorted=True)",
      "The k largest (or smallest) values along dim and their indices, as "
      "torch.return_types.topk.",
      "topk(tensor([1., 5., 3.]), 2)"}},
    {"gather",
     lang_f_gather,
     {"gather", "gather(input, dim, index)",
      "out[i][j] = input[i][index[i][j]] for dim=1: values picked along dim by an int64 index "
      "of input's ndim. The gradient scatter-adds back.",
      "gather(logits, 1, targets.unsqueeze(1))"}},
    {"scatter",
     lang_f_scatter,
     {"scatter", "scatter(input, dim, index, src=None, value=None, reduce=None)",
      "A copy of input with src (or value) written at index along dim.",
      "scatter(zeros(2, 3), 1, tensor([[0], [2]]), 1.0)"}},
    {"scatter_add",
     lang_f_scatter_add,
     {"scatter_add", "scatter_add(input, dim, index, src)",
      "A copy of input with src added at index along dim (repeated indices add up).",
      "scatter_add(zeros(3), 0, tensor([0, 0, 2]), ones(3))"}},
    {"index_select",
     lang_f_index_select,
     {"index_select", "index_select(input, dim, index)",
      "The slices of input at the 1-D int64 index along dim.",
      "index_select(x, 0, tensor([2, 0]))"}},
    {"flip",
     lang_f_flip,
     {"flip", "flip(input, dims)", "input reversed along each of dims (a copy).",
      "flip(arange(4), (0,))"}},
    {"repeat_interleave",
     lang_f_repeat_interleave,
     {"repeat_interleave", "repeat_interleave(input, repeats, dim=None)",
      "Each element (or slice along dim) repeated [repeats] times in a row; dim=None flattens "
      "first.",
      "repeat_interleave(tensor([1, 2]), 2)"}},
    {"one_hot",
     lang_f_one_hot,
     {"one_hot", "one_hot(tensor, num_classes=-1)",
      "int64 class indices to one-hot rows: [*shape, num_classes] of int64 (num_classes=-1 "
      "uses max + 1). Use .float() before a matmul.",
      "one_hot(tensor([0, 2]), 3)"}},
    {"nonzero",
     lang_f_nonzero,
     {"nonzero", "nonzero(input, as_tuple=False)",
      "The coordinates of the non-zero elements: [count, ndim] int64, or one tensor per dim "
      "with as_tuple=True.",
      "nonzero(tensor([0, 3, 0, 4]))"}},
    {"bincount",
     lang_f_bincount,
     {"bincount", "bincount(input, weights=None, minlength=0)",
      "Counts of each value of a 1-D non-negative int64 tensor (weights: sums of them).",
      "bincount(tensor([0, 1, 1, 3]))"}},
    {"histc",
     lang_f_histc,
     {"histc", "histc(input, bins=100, min=0, max=0)",
      "A histogram of [bins] equal bins between min and max (both 0: the data's range); values "
      "outside are ignored.",
      "histc(randn(1000), bins=10, min=-3, max=3)"}},
    {"einsum",
     lang_f_einsum,
     {"einsum", "einsum(equation, *operands)",
      "Einstein summation over one or two operands ('ij,jk->ik', 'bij,bjk->bik', "
      "'bhqd,bhkd->bhqk', 'i,i->', 'ij->ji'), built from permute, reshape and matmul.",
      "einsum('ij,jk->ik', randn(2, 3), randn(3, 4))"}},
    {"batch_norm",
     lang_f_batch_norm,
     {"batch_norm",
      "batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, "
      "momentum=0.1, eps=1e-05)",
      "Normalise each channel (dim 1) of [N, C, ...]: with the batch's mean and biased "
      "variance when training (updating the running statistics, the variance unbiased), "
      "else with the running ones.",
      "batch_norm(x, None, None, training=True)"}},
    {"group_norm",
     lang_f_group_norm,
     {"group_norm", "group_norm(input, num_groups, weight=None, bias=None, eps=1e-05)",
      "Normalise each sample over groups of channels of [N, C, ...].",
      "group_norm(randn(2, 6, 4), 3)"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
