/* lang_tensor_more: PyTorch functions that tutorials reach for and that
 * are compositions of the engine's ops, so autograd, the debugger and the
 * NaN hunt see the ops they are made of: F.pad (constant), unbind,
 * amax/amin, new_zeros/new_ones/new_full/new_empty/new_tensor, equal as a
 * method, F.l1_loss, F.normalize, F.cosine_similarity and
 * nn.utils.parameters_to_vector. Builtins in lang_tensor_more_builtins;
 * Tensor methods in lang_tensor_ops_methods.inc. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lang_builtins.h"
#include "lang_eval.h"
#include "lang_tensor.h"
#include "lang_tensor_ops.h"
#include "lang_vm.h"
#include "nn_ops.h"

static nn_ctx *CTX(lang_vm *vm) {
    return lang_vm_ctx(vm);
}

static bool wrap(lang_vm *vm, nn_tensor *r, lang_val *out) {
    return lang_tensor_wrap(vm, r, NULL, out);
}

static bool norm_dim(lang_vm *vm, int64_t dim, int ndim, const char *fname, int64_t *out) {
    int n = ndim > 0 ? ndim : 1;
    if (dim < -n || dim >= n)
        return lang_raise(vm, LANG_ERR_INDEX,
                          "%s: Dimension out of range (expected to be in range of [%d, %d], but "
                          "got %lld)",
                          fname, -n, n - 1, (long long)dim);
    *out = dim < 0 ? dim + n : dim;
    return true;
}

/* ---- F.pad(input, pad, mode='constant', value=0) ---- */

bool lang_f_pad(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, pv, mv = lang_none(), vv = lang_none();
    nn_tensor *t;
    int64_t pad[2 * NN_MAX_DIMS];
    int np;
    double value = 0;
    if (!lang_parse_args(vm, a, "pad", "input,pad|mode,value", &x, &pv, &mv, &vv) ||
        !lang_tensor_arg(vm, x, "pad", "input", &t) ||
        !lang_to_dims(vm, pv, "pad", pad, 2 * NN_MAX_DIMS, &np))
        return false;
    if (mv.kind != LANG_NONE &&
        (!lang_is_obj(mv, &lang_str_type) || strcmp(lang_str_cstr(mv), "constant")))
        return lang_raise(vm, LANG_ERR_VALUE,
                          "pad: nndb pads with mode='constant' only (reflect, replicate and "
                          "circular are not provided)");
    if (vv.kind != LANG_NONE && !lang_to_float(vm, vv, "value", &value)) return false;
    if (np % 2) return lang_raise(vm, LANG_ERR_RUNTIME, "Padding length must be divisible by 2");
    if (np / 2 > t->ndim) return lang_raise(vm, LANG_ERR_RUNTIME, "Padding length too large");
    nn_ctx *ctx = CTX(vm);
    nn_tensor *cur = nn_tensor_retain(t);
    for (int k = 0; cur && k < np / 2; k++) {
        int64_t dim = t->ndim - 1 - k, left = pad[2 * k], right = pad[2 * k + 1];
        if (left < 0 || right < 0) { /* negative pads crop */
            int64_t n = cur->shape[dim];
            nn_tensor *s = nn_slice(ctx, cur, dim, left < 0 ? -left : 0,
                                    right < 0 ? n + right : NN_SLICE_END, 1);
            nn_tensor_release(cur);
            cur = s;
            if (!cur) break;
            if (left < 0) left = 0;
            if (right < 0) right = 0;
        }
        if (left == 0 && right == 0) continue;
        nn_tensor *parts[3];
        int n = 0;
        int64_t shape[NN_MAX_DIMS];
        memcpy(shape, cur->shape, sizeof(int64_t) * (size_t)cur->ndim);
        nn_tensor *lt = NULL, *rt = NULL;
        if (left) {
            shape[dim] = left;
            lt = parts[n++] = nn_full(ctx, cur->dtype, cur->ndim, shape, value);
        }
        parts[n++] = cur;
        if (right) {
            shape[dim] = right;
            rt = parts[n++] = nn_full(ctx, cur->dtype, cur->ndim, shape, value);
        }
        nn_tensor *r = (left && !lt) || (right && !rt) ? NULL : nn_cat(ctx, parts, n, dim);
        nn_tensor_release(lt);
        nn_tensor_release(rt);
        nn_tensor_release(cur);
        cur = r;
    }
    return wrap(vm, cur, out);
}

/* ---- unbind(input, dim=0) ---- */

bool lang_f_unbind(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, dv = lang_int(0);
    nn_tensor *t;
    int64_t dim;
    if (!lang_parse_args(vm, a, "unbind", "input|dim", &x, &dv) ||
        !lang_tensor_arg(vm, x, "unbind", "input", &t) || !lang_to_int(vm, dv, "dim", &dim) ||
        !norm_dim(vm, dim, t->ndim, "unbind", &dim))
        return false;
    if (t->ndim == 0)
        return lang_raise(vm, LANG_ERR_INDEX,
                          "unbind: dimension specified as 0 but tensor has no "
                          "dimensions");
    int64_t n = t->shape[dim];
    if (!lang_tuple_new(vm, n, out)) return false;
    for (int64_t i = 0; i < n; i++) {
        lang_val v;
        if (!wrap(vm, nn_select(CTX(vm), t, dim, i), &v)) {
            lang_val_release(*out);
            return false;
        }
        lang_val_release(lang_seq_items(*out)[i]);
        lang_seq_items(*out)[i] = v;
    }
    return true;
}

/* ---- amax / amin(input, dim=(), keepdim=False) ---- */

static bool extreme(lang_vm *vm, const lang_args *a, const char *fname, bool max, lang_val *out) {
    lang_val x, dv = lang_none(), kv = lang_bool(false);
    nn_tensor *t;
    bool keep;
    if (!lang_parse_args(vm, a, fname, "input|dim,keepdim", &x, &dv, &kv) ||
        !lang_tensor_arg(vm, x, fname, "input", &t) || !lang_to_bool(vm, kv, "keepdim", &keep))
        return false;
    int64_t dims[NN_MAX_DIMS];
    int nd = 0;
    if (dv.kind != LANG_NONE && !lang_to_dims(vm, dv, "dim", dims, NN_MAX_DIMS, &nd)) return false;
    nn_ctx *ctx = CTX(vm);
    if (nd == 0) {
        nn_tensor *r = max ? nn_max_all(ctx, t) : nn_min_all(ctx, t);
        if (r && keep && t->ndim) {
            int64_t ones[NN_MAX_DIMS];
            for (int i = 0; i < t->ndim; i++) ones[i] = 1;
            nn_tensor *v = nn_reshape(ctx, r, t->ndim, ones);
            nn_tensor_release(r);
            r = v;
        }
        return wrap(vm, r, out);
    }
    bool seen[NN_MAX_DIMS] = {false};
    for (int i = 0; i < nd; i++) {
        if (!norm_dim(vm, dims[i], t->ndim, fname, &dims[i])) return false;
        if (seen[dims[i]])
            return lang_raise(vm, LANG_ERR_RUNTIME,
                              "dim %lld appears multiple times in the list "
                              "of dims",
                              (long long)dims[i]);
        seen[dims[i]] = true;
    }
    /* reduce the largest dims first (keepdim), then drop them */
    nn_tensor *cur = nn_tensor_retain(t);
    for (int d = t->ndim - 1; cur && d >= 0; d--) {
        if (!seen[d]) continue;
        nn_tensor *idx = NULL;
        nn_tensor *r =
            max ? nn_max_dim(ctx, cur, d, true, &idx) : nn_min_dim(ctx, cur, d, true, &idx);
        nn_tensor_release(idx);
        nn_tensor_release(cur);
        cur = r;
    }
    if (cur && !keep) {
        int64_t shape[NN_MAX_DIMS];
        int n = 0;
        for (int d = 0; d < t->ndim; d++)
            if (!seen[d]) shape[n++] = t->shape[d];
        nn_tensor *v = nn_reshape(ctx, cur, n, shape);
        nn_tensor_release(cur);
        cur = v;
    }
    return wrap(vm, cur, out);
}

bool lang_f_amax(lang_vm *vm, const lang_args *a, lang_val *out) {
    return extreme(vm, a, "amax", true, out);
}

bool lang_f_amin(lang_vm *vm, const lang_args *a, lang_val *out) {
    return extreme(vm, a, "amin", false, out);
}

/* ---- new_zeros / new_ones / new_full / new_empty / new_tensor: self's dtype ---- */

static bool new_like(lang_vm *vm, lang_val self, const lang_args *a, const char *fname, int kind,
                     lang_val *out) {
    nn_tensor *t = lang_tensor_of(self);
    int64_t shape[NN_MAX_DIMS];
    int nd = 0;
    double fill = kind == 1 ? 1 : 0;
    int npos = a->n;
    if (kind == 2) { /* new_full(size, fill_value) */
        if (a->n != 2) return lang_raise(vm, LANG_ERR_TYPE, "new_full() takes size and fill_value");
        if (!lang_to_float(vm, a->pos[1], "fill_value", &fill)) return false;
        npos = 1;
    }
    for (int i = 0; i < a->nkw; i++)
        if (strcmp(a->kwnames[i], "dtype") && strcmp(a->kwnames[i], "device") &&
            strcmp(a->kwnames[i], "requires_grad"))
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[i]);
    if (npos == 1 && a->pos[0].kind != LANG_INT) {
        if (!lang_to_dims(vm, a->pos[0], "size", shape, NN_MAX_DIMS, &nd)) return false;
    } else {
        if (npos > NN_MAX_DIMS) return lang_raise(vm, LANG_ERR_VALUE, "too many dims");
        for (int i = 0; i < npos; i++)
            if (!lang_to_int(vm, a->pos[i], "size", &shape[nd++])) return false;
    }
    nn_dtype dt = t->dtype;
    bool rg = false;
    for (int i = 0; i < a->nkw; i++) {
        if (!strcmp(a->kwnames[i], "dtype") && a->kw[i].kind != LANG_NONE &&
            !lang_dtype_from(vm, a->kw[i], "dtype", &dt))
            return false;
        if (!strcmp(a->kwnames[i], "requires_grad") &&
            !lang_to_bool(vm, a->kw[i], "requires_grad", &rg))
            return false;
    }
    nn_tensor *r = nn_full(CTX(vm), dt, nd, shape, fill);
    if (r && rg && nn_tensor_requires_grad_(CTX(vm), r, true) != NN_OK) {
        nn_tensor_release(r);
        r = NULL;
    }
    return wrap(vm, r, out);
}

bool lang_m_new_zeros(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return new_like(vm, self, a, "new_zeros", 0, out);
}
bool lang_m_new_ones(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return new_like(vm, self, a, "new_ones", 1, out);
}
bool lang_m_new_full(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return new_like(vm, self, a, "new_full", 2, out);
}
bool lang_m_new_empty(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    return new_like(vm, self, a, "new_empty", 0, out);
}

bool lang_m_new_tensor(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val data, dv = lang_none(), dev = lang_none(), rg = lang_bool(false);
    if (!lang_parse_args(vm, a, "new_tensor", "data|dtype,device,requires_grad", &data, &dv, &dev,
                         &rg))
        return false;
    nn_dtype dt = lang_tensor_of(self)->dtype;
    if (dv.kind != LANG_NONE && !lang_dtype_from(vm, dv, "dtype", &dt)) return false;
    nn_tensor *t;
    if (!lang_tensor_from_value(vm, data, (int)dt, &t)) return false;
    bool want;
    if (!lang_to_bool(vm, rg, "requires_grad", &want)) {
        nn_tensor_release(t);
        return false;
    }
    if (want && nn_tensor_requires_grad_(CTX(vm), t, true) != NN_OK) {
        nn_tensor_release(t);
        return lang_raise_engine(vm);
    }
    return wrap(vm, t, out);
}

/* ---- Tensor.equal(other) ---- */

bool lang_m_equal(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {
    lang_val ov;
    nn_tensor *o;
    if (!lang_parse_args(vm, a, "equal", "other", &ov) ||
        !lang_tensor_arg(vm, ov, "equal", "other", &o))
        return false;
    nn_tensor *t = lang_tensor_of(self);
    bool eq = nn_tensor_same_shape(t, o);
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; eq && i < n; i++) eq = nn_tensor_get_flat(t, i) == nn_tensor_get_flat(o, i);
    *out = lang_bool(eq);
    return true;
}

/* ---- losses and normalisation ---- */

static bool reduction_of(lang_vm *vm, lang_val rv, int *out) {
    const char *r = lang_is_obj(rv, &lang_str_type) ? lang_str_cstr(rv) : "";
    if (rv.kind == LANG_NONE || !strcmp(r, "mean"))
        *out = 0;
    else if (!strcmp(r, "sum"))
        *out = 1;
    else if (!strcmp(r, "none"))
        *out = 2;
    else
        return lang_raise(vm, LANG_ERR_VALUE, "%s is not a valid value for reduction", r);
    return true;
}

static bool lang_f_l1_loss(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, sa = lang_none(), rd = lang_none(), rv = lang_none();
    nn_tensor *xt, *yt;
    int red = 0;
    if (!lang_parse_args(vm, a, "l1_loss", "input,target|size_average,reduce,reduction", &x, &y,
                         &sa, &rd, &rv) ||
        !lang_tensor_arg(vm, x, "l1_loss", "input", &xt) ||
        !lang_tensor_arg(vm, y, "l1_loss", "target", &yt) || !reduction_of(vm, rv, &red))
        return false;
    nn_ctx *ctx = CTX(vm);
    nn_tensor *d = nn_sub(ctx, xt, yt), *ab = d ? nn_abs(ctx, d) : NULL, *r = NULL;
    nn_tensor_release(d);
    if (ab && red == 2)
        r = nn_tensor_retain(ab);
    else if (ab)
        r = red == 1 ? nn_sum(ctx, ab, NULL, 0, false) : nn_mean(ctx, ab, NULL, 0, false);
    nn_tensor_release(ab);
    return wrap(vm, r, out);
}

static bool lang_f_normalize(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, pv = lang_float(2.0), dv = lang_int(1), ev = lang_float(1e-12), ov = lang_none();
    nn_tensor *t;
    double p, eps;
    int64_t dim;
    if (!lang_parse_args(vm, a, "normalize", "input|p,dim,eps,out", &x, &pv, &dv, &ev, &ov) ||
        !lang_tensor_arg(vm, x, "normalize", "input", &t) || !lang_to_float(vm, pv, "p", &p) ||
        !lang_to_int(vm, dv, "dim", &dim) || !lang_to_float(vm, ev, "eps", &eps) ||
        !norm_dim(vm, dim, t->ndim, "normalize", &dim))
        return false;
    nn_ctx *ctx = CTX(vm);
    /* input / norm(input, p, dim, keepdim=True).clamp_min(eps).expand_as(input) */
    nn_tensor *n = nn_norm(ctx, t, p, &dim, 1, true);
    nn_tensor *c = n ? nn_clamp(ctx, n, eps, NAN) : NULL;
    nn_tensor *r = c ? nn_div(ctx, t, c) : NULL;
    nn_tensor_release(n);
    nn_tensor_release(c);
    return wrap(vm, r, out);
}

static bool lang_f_cosine_similarity(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x, y, dv = lang_int(1), ev = lang_float(1e-8);
    nn_tensor *xt, *yt;
    int64_t dim;
    double eps;
    if (!lang_parse_args(vm, a, "cosine_similarity", "x1,x2|dim,eps", &x, &y, &dv, &ev) ||
        !lang_tensor_arg(vm, x, "cosine_similarity", "x1", &xt) ||
        !lang_tensor_arg(vm, y, "cosine_similarity", "x2", &yt) ||
        !lang_to_int(vm, dv, "dim", &dim) || !lang_to_float(vm, ev, "eps", &eps))
        return false;
    nn_ctx *ctx = CTX(vm);
    /* sum(x1 * x2) / (max(|x1|, eps) * max(|x2|, eps)) along dim (broadcast first) */
    nn_tensor *prod = nn_mul(ctx, xt, yt);
    if (!prod) return lang_raise_engine(vm);
    if (!norm_dim(vm, dim, prod->ndim, "cosine_similarity", &dim)) {
        nn_tensor_release(prod);
        return false;
    }
    nn_tensor *num = nn_sum(ctx, prod, &dim, 1, false);
    nn_tensor *n1 = num ? nn_norm(ctx, xt, 2.0, &dim, 1, false) : NULL;
    nn_tensor *n2 = n1 ? nn_norm(ctx, yt, 2.0, &dim, 1, false) : NULL;
    nn_tensor *c1 = n2 ? nn_clamp(ctx, n1, eps, NAN) : NULL;
    nn_tensor *c2 = c1 ? nn_clamp(ctx, n2, eps, NAN) : NULL;
    nn_tensor *den = c2 ? nn_mul(ctx, c1, c2) : NULL;
    nn_tensor *r = den ? nn_div(ctx, num, den) : NULL;
    nn_tensor *ts[] = {prod, num, n1, n2, c1, c2, den};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) nn_tensor_release(ts[i]);
    return wrap(vm, r, out);
}

static bool lang_f_parameters_to_vector(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val pv, list;
    if (!lang_parse_args(vm, a, "parameters_to_vector", "parameters", &pv) ||
        !lang_list_from_iter(vm, pv, &list))
        return false;
    int64_t n = lang_seq_len(list);
    nn_tensor **flat = calloc((size_t)(n ? n : 1), sizeof *flat);
    bool ok = flat != NULL || lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
    nn_ctx *ctx = CTX(vm);
    for (int64_t i = 0; ok && i < n; i++) {
        nn_tensor *t;
        ok = lang_tensor_arg(vm, lang_seq_items(list)[i], "parameters_to_vector", "parameters", &t);
        int64_t m = ok ? nn_tensor_numel(t) : 0;
        if (ok) flat[i] = nn_reshape(ctx, t, 1, &m);
        if (ok && !flat[i]) ok = lang_raise_engine(vm);
    }
    nn_tensor *r = NULL;
    if (ok && n == 0)
        ok = lang_raise(vm, LANG_ERR_RUNTIME, "torch.cat(): expected a non-empty list of Tensors");
    if (ok) r = nn_cat(ctx, flat, (int)n, 0);
    for (int64_t i = 0; flat && i < n; i++) nn_tensor_release(flat[i]);
    free(flat);
    lang_val_release(list);
    if (!ok) return false;
    return wrap(vm, r, out);
}

#define SELF_METHOD(name)                                                                          \
    bool lang_m_##name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out) {            \
        return lang_tensor_call_self(vm, lang_f_##name, self, a, out);                             \
    }
LANG_TENSOR_MORE_SELF_METHODS(SELF_METHOD)
#undef SELF_METHOD

const lang_builtin_def lang_tensor_more_builtins[] = {
    {"pad",
     lang_f_pad,
     {"pad", "pad(input, pad, mode='constant', value=0)",
      "Pad the last dims: pad = (left, right) for the last, then (top, bottom) for the one "
      "before, ...; negative values crop. mode='constant' only.",
      "pad(x, (1, 1))"}},
    {"unbind",
     lang_f_unbind,
     {"unbind", "unbind(input, dim=0)", "The slices along dim, as a tuple.", "unbind(x, 0)"}},
    {"amax",
     lang_f_amax,
     {"amax", "amax(input, dim=(), keepdim=False)", "The largest values over dims.",
      "amax(x, dim=-1)"}},
    {"amin",
     lang_f_amin,
     {"amin", "amin(input, dim=(), keepdim=False)", "The smallest values over dims.",
      "amin(x, dim=-1)"}},
    {"l1_loss",
     lang_f_l1_loss,
     {"l1_loss", "l1_loss(input, target, reduction='mean')", "The mean (or sum) absolute error.",
      "l1_loss(pred, y)"}},
    {"normalize",
     lang_f_normalize,
     {"normalize", "normalize(input, p=2.0, dim=1, eps=1e-12)",
      "input divided by its p-norm along dim (at least eps).", "normalize(x, dim=1)"}},
    {"cosine_similarity",
     lang_f_cosine_similarity,
     {"cosine_similarity", "cosine_similarity(x1, x2, dim=1, eps=1e-8)",
      "The cosine of the angle between x1 and x2 along dim.", "cosine_similarity(a, b)"}},
    {"parameters_to_vector",
     lang_f_parameters_to_vector,
     {"parameters_to_vector", "parameters_to_vector(parameters)",
      "All the parameters flattened into one vector.", "parameters_to_vector(model.parameters())"}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
