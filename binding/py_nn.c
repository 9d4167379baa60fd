/* py_nn: the kernels torch.nn.functional, torch.nn.init and torch.nn.utils
 * call, as private functions of torch._C (named _nn_*, so that
 * torch/_ops_table.py does not export them as torch.NAME). The Python
 * wrappers in python/torch/nn/ own the signatures, defaults and argument
 * checks users see; these take their arguments already in order, as
 * PyTorch's Python layer calls torch._C._nn. See py.h for the conventions.
 */
#include <math.h>
#include <string.h>

#include "nn_init.h"
#include "nn_optim.h"
#include "nn_random.h"
#include "py.h"

#define PARSE(fname, n_req, ...)                                                                   \
    static const char *const kw_[] = {__VA_ARGS__, NULL};                                          \
    PyObject *a_[sizeof kw_ / sizeof kw_[0]];                                                      \
    if (py_parse(fname, args, nargs, kwnames, kw_, n_req, a_) < 0) return NULL

#define FN(name)                                                                                   \
    static PyObject *name(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)

/* A tensor argument that may be None (or not given): *out NULL then. */
static int opt_tensor(PyObject *o, const char *fname, const char *what, nn_tensor **out) {
    *out = NULL;
    if (!o || o == Py_None) return 0;
    return py_tensor_arg(o, fname, what, out);
}

/* torch's reduction strings; the message is _Reduction.get_enum's. */
static int reduction_arg(PyObject *o, nn_reduction *out) {
    *out = NN_REDUCTION_MEAN;
    if (!o) return 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (s && strcmp(s, "mean") == 0)
        *out = NN_REDUCTION_MEAN;
    else if (s && strcmp(s, "sum") == 0)
        *out = NN_REDUCTION_SUM;
    else if (s && strcmp(s, "none") == 0)
        *out = NN_REDUCTION_NONE;
    else {
        PyObject *r = PyObject_Str(o);
        if (r) PyErr_Format(PyExc_ValueError, "%U is not a valid value for reduction", r);
        Py_XDECREF(r);
        return -1;
    }
    return 0;
}

/* Apply [red] to an elementwise loss [l] (stolen). */
static nn_tensor *reduce_loss(nn_ctx *ctx, nn_tensor *l, nn_reduction red) {
    if (!l || red == NN_REDUCTION_NONE) return l;
    nn_tensor *r =
        red == NN_REDUCTION_SUM ? nn_sum(ctx, l, NULL, 0, false) : nn_mean(ctx, l, NULL, 0, false);
    nn_tensor_release(l);
    return r;
}

/* ---- layers ---- */

FN(f_linear) {
    (void)m;
    PARSE("linear", 2, "input", "weight", "bias");
    nn_tensor *x, *w, *b;
    if (py_tensor_arg(a_[0], "linear", "input", &x) < 0 ||
        py_tensor_arg(a_[1], "linear", "weight", &w) < 0 ||
        opt_tensor(a_[2], "linear", "bias", &b) < 0)
        return NULL;
    nn_tensor *ts[3] = {x, w, b}, *owned[3] = {NULL, NULL, NULL};
    if (py_autocast_cpu_on() && py_autocast_cast(PY_AUTOCAST_LOWER, ts, 3, owned) < 0)
        return py_engine_error();
    PyObject *r = py_tensor_wrap(nn_linear(py_ctx(), ts[0], ts[1], ts[2]));
    py_autocast_release(owned, 3);
    return r;
}

FN(f_embedding) {
    (void)m;
    PARSE("embedding", 2, "input", "weight");
    nn_tensor *idx, *w;
    if (py_tensor_arg(a_[0], "embedding", "input", &idx) < 0 ||
        py_tensor_arg(a_[1], "embedding", "weight", &w) < 0)
        return NULL;
    return py_tensor_wrap(nn_embedding(py_ctx(), w, idx));
}

/* _nn_layer_norm(input, n_norm, weight, bias, eps) */
FN(f_layer_norm) {
    (void)m;
    PARSE("layer_norm", 5, "input", "n_norm", "weight", "bias", "eps");
    nn_tensor *x, *w, *b;
    int64_t n;
    double eps;
    if (py_tensor_arg(a_[0], "layer_norm", "input", &x) < 0 ||
        py_int_arg(a_[1], "n_norm", &n) < 0 || opt_tensor(a_[2], "layer_norm", "weight", &w) < 0 ||
        opt_tensor(a_[3], "layer_norm", "bias", &b) < 0 || py_float_arg(a_[4], "eps", &eps) < 0)
        return NULL;
    return py_tensor_wrap(nn_layer_norm(py_ctx(), x, (int)n, w, b, eps));
}

/* _nn_batch_norm(input, running_mean, running_var, weight, bias, training,
 * momentum, eps) */
FN(f_batch_norm) {
    (void)m;
    PARSE("batch_norm", 8, "input", "running_mean", "running_var", "weight", "bias", "training",
          "momentum", "eps");
    nn_tensor *x, *rm, *rv, *w, *b;
    bool training;
    double momentum, eps;
    if (py_tensor_arg(a_[0], "batch_norm", "input", &x) < 0 ||
        opt_tensor(a_[1], "batch_norm", "running_mean", &rm) < 0 ||
        opt_tensor(a_[2], "batch_norm", "running_var", &rv) < 0 ||
        opt_tensor(a_[3], "batch_norm", "weight", &w) < 0 ||
        opt_tensor(a_[4], "batch_norm", "bias", &b) < 0 ||
        py_bool_arg(a_[5], "training", &training) < 0 ||
        py_float_arg(a_[6], "momentum", &momentum) < 0 || py_float_arg(a_[7], "eps", &eps) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_batch_norm(py_ctx(), x, rm, rv, w, b, training, momentum, eps),
                                "NativeBatchNormBackward0");
}

/* _nn_group_norm(input, num_groups, weight, bias, eps) */
FN(f_group_norm) {
    (void)m;
    PARSE("group_norm", 5, "input", "num_groups", "weight", "bias", "eps");
    nn_tensor *x, *w, *b;
    int64_t g;
    double eps;
    if (py_tensor_arg(a_[0], "group_norm", "input", &x) < 0 ||
        py_int_arg(a_[1], "num_groups", &g) < 0 ||
        opt_tensor(a_[2], "group_norm", "weight", &w) < 0 ||
        opt_tensor(a_[3], "group_norm", "bias", &b) < 0 || py_float_arg(a_[4], "eps", &eps) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_group_norm(py_ctx(), x, g, w, b, eps),
                                "NativeGroupNormBackward0");
}

/* _nn_sdpa(query, key, value, is_causal, scale): the fused attention kernel
 * (no mask, no dropout; F.scaled_dot_product_attention composes the rest). */
FN(f_sdpa) {
    (void)m;
    PARSE("scaled_dot_product_attention", 5, "query", "key", "value", "is_causal", "scale");
    nn_tensor *q, *k, *v;
    bool causal;
    double scale;
    if (py_tensor_arg(a_[0], "scaled_dot_product_attention", "query", &q) < 0 ||
        py_tensor_arg(a_[1], "scaled_dot_product_attention", "key", &k) < 0 ||
        py_tensor_arg(a_[2], "scaled_dot_product_attention", "value", &v) < 0 ||
        py_bool_arg(a_[3], "is_causal", &causal) < 0 || py_float_arg(a_[4], "scale", &scale) < 0)
        return NULL;
    return py_tensor_wrap_named(nn_scaled_dot_product_attention(py_ctx(), q, k, v, causal, scale),
                                "ScaledDotProductAttentionBackward0");
}

/* _nn_mha_self(qkv, num_heads, seq_first, mask, drop): multi-head
 * self-attention over the packed in_proj output, one node (ops_attn.c);
 * mask and drop may be None. F.multi_head_attention_forward's fast path. */
FN(f_mha_self) {
    (void)m;
    PARSE("multi_head_self_attention", 5, "qkv", "num_heads", "seq_first", "mask", "drop");
    nn_tensor *qkv, *mask, *drop;
    int64_t heads;
    bool seq_first;
    if (py_tensor_arg(a_[0], "multi_head_self_attention", "qkv", &qkv) < 0 ||
        py_int_arg(a_[1], "num_heads", &heads) < 0 ||
        py_bool_arg(a_[2], "seq_first", &seq_first) < 0 ||
        opt_tensor(a_[3], "multi_head_self_attention", "mask", &mask) < 0 ||
        opt_tensor(a_[4], "multi_head_self_attention", "drop", &drop) < 0)
        return NULL;
    return py_tensor_wrap(nn_mha_self_attention(py_ctx(), qkv, heads, seq_first, mask, drop));
}

FN(f_dropout) {
    (void)m;
    PARSE("dropout", 3, "input", "p", "training");
    nn_tensor *x;
    double p;
    bool training;
    if (py_tensor_arg(a_[0], "dropout", "input", &x) < 0 || py_float_arg(a_[1], "p", &p) < 0 ||
        py_bool_arg(a_[2], "training", &training) < 0)
        return NULL;
    return py_tensor_wrap(nn_dropout(py_ctx(), x, p, training));
}

/* ---- activations ---- */

FN(f_gelu) {
    (void)m;
    PARSE("gelu", 2, "input", "approximate_tanh");
    nn_tensor *x;
    bool tanh_form;
    if (py_tensor_arg(a_[0], "gelu", "input", &x) < 0 ||
        py_bool_arg(a_[1], "approximate", &tanh_form) < 0)
        return NULL;
    return py_tensor_wrap(nn_gelu(py_ctx(), x, tanh_form));
}

FN(f_silu) {
    (void)m;
    PARSE("silu", 1, "input");
    nn_tensor *x;
    if (py_tensor_arg(a_[0], "silu", "input", &x) < 0) return NULL;
    return py_tensor_wrap(nn_silu(py_ctx(), x));
}

FN(f_leaky_relu) {
    (void)m;
    PARSE("leaky_relu", 2, "input", "negative_slope");
    nn_tensor *x;
    double slope;
    if (py_tensor_arg(a_[0], "leaky_relu", "input", &x) < 0 ||
        py_float_arg(a_[1], "negative_slope", &slope) < 0)
        return NULL;
    return py_tensor_wrap(nn_leaky_relu(py_ctx(), x, slope));
}

FN(f_softplus) {
    (void)m;
    PARSE("softplus", 3, "input", "beta", "threshold");
    nn_tensor *x;
    double beta, threshold;
    if (py_tensor_arg(a_[0], "softplus", "input", &x) < 0 ||
        py_float_arg(a_[1], "beta", &beta) < 0 || py_float_arg(a_[2], "threshold", &threshold) < 0)
        return NULL;
    return py_tensor_wrap(nn_softplus(py_ctx(), x, beta, threshold));
}

typedef nn_tensor *(*dim_fn)(nn_ctx *, nn_tensor *, int64_t);

/* softmax and log_softmax(input, dim, dtype): dtype converts first. */
static PyObject *softmax_like(const char *name, dim_fn fn, PyObject *const *args, Py_ssize_t nargs,
                              PyObject *kwnames) {
    PARSE(name, 2, "input", "dim", "dtype");
    nn_tensor *x;
    int64_t dim;
    if (py_tensor_arg(a_[0], name, "input", &x) < 0 || py_int_arg(a_[1], "dim", &dim) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    nn_tensor *src = nn_tensor_retain(x);
    if (a_[2] && a_[2] != Py_None) {
        nn_dtype dt = x->dtype;
        if (py_dtype_arg(a_[2], &dt) < 0) {
            nn_tensor_release(src);
            return NULL;
        }
        nn_tensor_release(src);
        src = nn_to(ctx, x, dt);
        if (!src) return py_engine_error();
    }
    nn_tensor *r = fn(ctx, src, dim);
    nn_tensor_release(src);
    return py_tensor_wrap(r);
}

FN(f_softmax) {
    (void)m;
    return softmax_like("softmax", nn_softmax, args, nargs, kwnames);
}

FN(f_log_softmax) {
    (void)m;
    return softmax_like("log_softmax", nn_log_softmax, args, nargs, kwnames);
}

FN(f_one_hot) {
    (void)m;
    PARSE("one_hot", 2, "input", "num_classes");
    nn_tensor *x;
    int64_t n;
    if (py_tensor_arg(a_[0], "one_hot", "tensor", &x) < 0 ||
        py_int_arg(a_[1], "num_classes", &n) < 0)
        return NULL;
    return py_tensor_wrap(nn_one_hot(py_ctx(), x, n));
}

/* ---- losses ---- */

/* _nn_cross_entropy(input, target, ignore_index, label_smoothing, reduction) */
FN(f_cross_entropy) {
    (void)m;
    PARSE("cross_entropy", 5, "input", "target", "ignore_index", "label_smoothing", "reduction");
    nn_tensor *x, *y;
    int64_t ignore;
    double smoothing;
    nn_reduction red;
    if (py_tensor_arg(a_[0], "cross_entropy", "input", &x) < 0 ||
        py_tensor_arg(a_[1], "cross_entropy", "target", &y) < 0 ||
        py_int_arg(a_[2], "ignore_index", &ignore) < 0 ||
        py_float_arg(a_[3], "label_smoothing", &smoothing) < 0 || reduction_arg(a_[4], &red) < 0)
        return NULL;
    /* torch adds the smoothing term to the NLL term as a last step */
    return py_tensor_wrap_named(nn_cross_entropy(py_ctx(), x, y, ignore, smoothing, red),
                                smoothing > 0 ? "AddBackward0" : NULL);
}

/* _nn_cross_entropy_probs(input, target, label_smoothing, reduction): class
 * probabilities as targets, computed in ATen's order: logp = log_softmax
 * over the class dim; target smoothed towards uniform; then -(logp *
 * target) summed over the class dim (none), over everything (sum), or over
 * everything and divided by the number of samples (mean). */
FN(f_cross_entropy_probs) {
    (void)m;
    PARSE("cross_entropy", 4, "input", "target", "label_smoothing", "reduction");
    nn_tensor *x, *y;
    double ls;
    nn_reduction red;
    if (py_tensor_arg(a_[0], "cross_entropy", "input", &x) < 0 ||
        py_tensor_arg(a_[1], "cross_entropy", "target", &y) < 0 ||
        py_float_arg(a_[2], "label_smoothing", &ls) < 0 || reduction_arg(a_[3], &red) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    int64_t cdim = x->ndim >= 2 ? 1 : 0;
    int64_t n_classes = x->ndim ? x->shape[cdim] : 1;
    nn_tensor *target = nn_tensor_retain(y), *r = NULL, *t1 = NULL, *t2 = NULL;
    if (ls > 0) {
        t1 = nn_mul_scalar(ctx, target, 1 - ls);
        t2 = t1 ? nn_add_scalar(ctx, t1, ls / (double)n_classes) : NULL;
        nn_tensor_release(target);
        target = t2;
        t2 = NULL;
        nn_tensor_release(t1);
        t1 = NULL;
        if (!target) return py_engine_error();
    }
    nn_tensor *logp = nn_log_softmax(ctx, x, cdim);
    nn_tensor *prod = logp ? nn_mul(ctx, logp, target) : NULL;
    const char *name = "NegBackward0";
    if (prod && red == NN_REDUCTION_NONE) {
        t1 = nn_sum(ctx, prod, &cdim, 1, false);
        r = t1 ? nn_neg(ctx, t1) : NULL;
    } else if (prod) {
        t1 = nn_sum(ctx, prod, NULL, 0, false);
        r = t1 ? nn_neg(ctx, t1) : NULL;
        if (r && red == NN_REDUCTION_MEAN) {
            /* no classes: 0 samples, and the mean is 0/0 = nan as ATen's */
            int64_t samples = n_classes ? nn_tensor_numel(x) / n_classes : 0;
            nn_tensor *k = nn_scalar_wrapped(ctx, (double)samples);
            t2 = k ? nn_div(ctx, r, k) : NULL;
            nn_tensor_release(k);
            nn_tensor_release(r);
            r = t2;
            t2 = NULL;
            name = "DivBackward1";
        }
    }
    nn_tensor_release(t1);
    nn_tensor_release(prod);
    nn_tensor_release(logp);
    nn_tensor_release(target);
    return py_tensor_wrap_named(r, name);
}

FN(f_nll_loss) {
    (void)m;
    PARSE("nll_loss", 4, "input", "target", "ignore_index", "reduction");
    nn_tensor *x, *y;
    int64_t ignore;
    nn_reduction red;
    if (py_tensor_arg(a_[0], "nll_loss", "input", &x) < 0 ||
        py_tensor_arg(a_[1], "nll_loss", "target", &y) < 0 ||
        py_int_arg(a_[2], "ignore_index", &ignore) < 0 || reduction_arg(a_[3], &red) < 0)
        return NULL;
    return py_tensor_wrap(nn_nll_loss(py_ctx(), x, y, ignore, red));
}

typedef nn_tensor *(*loss_fn)(nn_ctx *, nn_tensor *, nn_tensor *, nn_reduction);

static PyObject *pair_loss(const char *name, loss_fn fn, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames) {
    PARSE(name, 3, "input", "target", "reduction");
    nn_tensor *x, *y;
    nn_reduction red;
    if (py_tensor_arg(a_[0], name, "input", &x) < 0 ||
        py_tensor_arg(a_[1], name, "target", &y) < 0 || reduction_arg(a_[2], &red) < 0)
        return NULL;
    return py_tensor_wrap(fn(py_ctx(), x, y, red));
}

/* |x - y|, reduced: torch's l1_loss, a composition here. */
static nn_tensor *l1_loss(nn_ctx *ctx, nn_tensor *x, nn_tensor *y, nn_reduction red) {
    nn_tensor *d = nn_sub(ctx, x, y);
    nn_tensor *a = d ? nn_abs(ctx, d) : NULL;
    nn_tensor_release(d);
    return reduce_loss(ctx, a, red);
}

FN(f_mse_loss) {
    (void)m;
    return pair_loss("mse_loss", nn_mse_loss, args, nargs, kwnames);
}

FN(f_l1_loss) {
    (void)m;
    return pair_loss("l1_loss", l1_loss, args, nargs, kwnames);
}

FN(f_bce) {
    (void)m;
    return pair_loss("binary_cross_entropy", nn_binary_cross_entropy, args, nargs, kwnames);
}

FN(f_bce_logits) {
    (void)m;
    return pair_loss("binary_cross_entropy_with_logits", nn_binary_cross_entropy_with_logits, args,
                     nargs, kwnames);
}

/* ---- torch.nn.init: in-place draws from torch's default generator ---- */

static PyObject *init_done(PyObject *t, nn_status st) {
    if (py_status(st) < 0) return NULL;
    Py_INCREF(t);
    return t;
}

FN(f_init_uniform) {
    (void)m;
    PARSE("uniform_", 3, "tensor", "a", "b");
    nn_tensor *t;
    double a, b;
    if (py_tensor_arg(a_[0], "uniform_", "tensor", &t) < 0 || py_float_arg(a_[1], "a", &a) < 0 ||
        py_float_arg(a_[2], "b", &b) < 0)
        return NULL;
    return init_done(a_[0], nn_init_uniform_(py_ctx(), t, a, b));
}

FN(f_init_normal) {
    (void)m;
    PARSE("normal_", 3, "tensor", "mean", "std");
    nn_tensor *t;
    double mean, std;
    if (py_tensor_arg(a_[0], "normal_", "tensor", &t) < 0 ||
        py_float_arg(a_[1], "mean", &mean) < 0 || py_float_arg(a_[2], "std", &std) < 0)
        return NULL;
    return init_done(a_[0], nn_init_normal_(py_ctx(), t, mean, std));
}

FN(f_init_constant) {
    (void)m;
    PARSE("constant_", 2, "tensor", "val");
    nn_tensor *t;
    double v;
    if (py_tensor_arg(a_[0], "constant_", "tensor", &t) < 0 || py_float_arg(a_[1], "val", &v) < 0)
        return NULL;
    return init_done(a_[0], nn_init_constant_(py_ctx(), t, v));
}

FN(f_init_trunc_normal) {
    (void)m;
    PARSE("trunc_normal_", 5, "tensor", "mean", "std", "a", "b");
    nn_tensor *t;
    double mean, std, a, b;
    if (py_tensor_arg(a_[0], "trunc_normal_", "tensor", &t) < 0 ||
        py_float_arg(a_[1], "mean", &mean) < 0 || py_float_arg(a_[2], "std", &std) < 0 ||
        py_float_arg(a_[3], "a", &a) < 0 || py_float_arg(a_[4], "b", &b) < 0)
        return NULL;
    return init_done(a_[0], nn_init_trunc_normal_(py_ctx(), t, mean, std, a, b));
}

FN(f_init_orthogonal) {
    (void)m;
    PARSE("orthogonal_", 2, "tensor", "gain");
    nn_tensor *t;
    double gain;
    if (py_tensor_arg(a_[0], "orthogonal_", "tensor", &t) < 0 ||
        py_float_arg(a_[1], "gain", &gain) < 0)
        return NULL;
    return init_done(a_[0], nn_init_orthogonal_(py_ctx(), t, gain));
}

/* ---- torch.nn.utils ---- */

/* _nn_clip_grad_norm(grads, max_norm, norm_type): torch 1.13's
 * clip_grad_norm_ over a list of gradient tensors: the total norm (a norm of
 * the per-gradient norms, in their dtype), then every gradient multiplied
 * in place by min(max_norm / (total + 1e-6), 1). Returns the total norm.
 * With error_if_nonfinite a NaN or infinite norm raises torch's
 * RuntimeError and leaves the gradients alone. */
FN(f_clip_grad_norm) {
    (void)m;
    PARSE("clip_grad_norm_", 4, "grads", "max_norm", "norm_type", "error_if_nonfinite");
    double max_norm, p;
    bool check;
    if (py_float_arg(a_[1], "max_norm", &max_norm) < 0 ||
        py_float_arg(a_[2], "norm_type", &p) < 0 ||
        py_bool_arg(a_[3], "error_if_nonfinite", &check) < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(a_[0], "clip_grad_norm_: grads must be a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    nn_ctx *ctx = py_ctx();
    if (n == 0) {
        Py_DECREF(seq);
        return py_tensor_wrap(nn_scalar(ctx, 0.0, NN_FLOAT32));
    }
    nn_tensor **norms = PyMem_Calloc((size_t)n, sizeof *norms);
    nn_tensor *total = NULL, *stacked = NULL;
    bool prev = nn_ctx_set_grad(ctx, false);
    bool ok = norms != NULL;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        nn_tensor *g;
        ok = py_tensor_arg(PySequence_Fast_GET_ITEM(seq, i), "clip_grad_norm_", "grad", &g) == 0 &&
             (norms[i] = nn_norm(ctx, g, p, NULL, 0, false)) != NULL;
    }
    if (ok) ok = (stacked = nn_stack(ctx, norms, (int)n, 0)) != NULL;
    if (ok) ok = (total = nn_norm(ctx, stacked, p, NULL, 0, false)) != NULL;
    double tn = 0;
    if (ok) ok = nn_tensor_item(ctx, total, &tn) == NN_OK;
    if (ok && check && !isfinite(tn)) {
        PyObject *pf = PyFloat_FromDouble(p);
        PyObject *ps = pf ? PyObject_Str(pf) : NULL;
        if (ps)
            PyErr_Format(PyExc_RuntimeError,
                         "The total norm of order %U for gradients from `parameters` is "
                         "non-finite, so it cannot be clipped. To disable this error and scale "
                         "the gradients by the non-finite norm anyway, set "
                         "`error_if_nonfinite=False`",
                         ps);
        Py_XDECREF(pf);
        Py_XDECREF(ps);
        ok = false;
    }
    if (ok) {
        /* float32 arithmetic as torch's tensor ops on a float32 norm do; a
         * NaN norm passes the clamp and spreads, as in torch */
        float coef = (float)max_norm / ((float)tn + 1e-6f);
        if (coef > 1.0f) coef = 1.0f;
        for (Py_ssize_t i = 0; ok && i < n; i++)
            ok = nn_tensor_mul_scalar_(ctx, py_tensor_of(PySequence_Fast_GET_ITEM(seq, i)),
                                       (double)coef) == NN_OK;
    }
    nn_ctx_set_grad(ctx, prev);
    for (Py_ssize_t i = 0; norms && i < n; i++) nn_tensor_release(norms[i]);
    PyMem_Free(norms);
    nn_tensor_release(stacked);
    Py_DECREF(seq);
    if (!ok) {
        nn_tensor_release(total);
        if (PyErr_Occurred()) return NULL;
        return norms ? py_engine_error() : PyErr_NoMemory();
    }
    return py_tensor_wrap(total);
}

/* _nn_clip_grad_value(grads, clip_value): clamp each in place. */
FN(f_clip_grad_value) {
    (void)m;
    PARSE("clip_grad_value_", 2, "grads", "clip_value");
    double v;
    if (py_float_arg(a_[1], "clip_value", &v) < 0) return NULL;
    PyObject *seq = PySequence_Fast(a_[0], "clip_grad_value_: grads must be a sequence");
    if (!seq) return NULL;
    nn_ctx *ctx = py_ctx();
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        nn_tensor *g;
        if (py_tensor_arg(PySequence_Fast_GET_ITEM(seq, i), "clip_grad_value_", "grad", &g) < 0 ||
            py_status(nn_tensor_clamp_(ctx, g, -v, v)) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    }
    Py_DECREF(seq);
    Py_RETURN_NONE;
}

/* _nn_flat_cat(tensors): the tensors flattened and joined (differentiable),
 * what parameters_to_vector returns. */
FN(f_flat_cat) {
    (void)m;
    PARSE("parameters_to_vector", 1, "tensors");
    PyObject *seq = PySequence_Fast(a_[0], "parameters_to_vector: expected a sequence");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    nn_ctx *ctx = py_ctx();
    nn_tensor **flat = PyMem_Calloc((size_t)(n ? n : 1), sizeof *flat);
    bool ok = flat != NULL;
    int64_t minus_one = -1;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        nn_tensor *t;
        ok = py_tensor_arg(PySequence_Fast_GET_ITEM(seq, i), "parameters_to_vector", "parameters",
                           &t) == 0 &&
             (flat[i] = nn_reshape(ctx, t, 1, &minus_one)) != NULL;
    }
    nn_tensor *r = ok ? nn_cat(ctx, flat, (int)n, 0) : NULL;
    for (Py_ssize_t i = 0; flat && i < n; i++) nn_tensor_release(flat[i]);
    PyMem_Free(flat);
    Py_DECREF(seq);
    if (!ok && PyErr_Occurred()) return NULL;
    if (!flat) return PyErr_NoMemory();
    return py_tensor_wrap(r);
}

/* _nn_cast(tensor, dtype): the values in [dtype] without autograd history,
 * what Module.to(dtype) puts in a parameter's .data. */
FN(f_cast) {
    (void)m;
    PARSE("_cast", 2, "tensor", "dtype");
    nn_tensor *t;
    nn_dtype dt = NN_FLOAT32;
    if (py_tensor_arg(a_[0], "_cast", "tensor", &t) < 0 || py_dtype_arg(a_[1], &dt) < 0)
        return NULL;
    nn_ctx *ctx = py_ctx();
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *r = nn_to(ctx, t, dt);
    nn_ctx_set_grad(ctx, prev);
    return py_tensor_wrap(r);
}

/* _nn_named(tensor, name): [tensor] with its grad_fn shown as [name].
 * Ops that torch runs as one kernel (elu, smooth_l1_loss, pad, ...) are
 * compositions of engine ops here; the last node's name would tell the
 * composition, so the Python wrapper names the result as torch's node is
 * named, which is what printed losses and grad_fn.name() show. */
FN(f_named) {
    (void)m;
    PARSE("_nn_named", 2, "tensor", "name");
    nn_tensor *t;
    const char *name = PyUnicode_Check(a_[1]) ? PyUnicode_AsUTF8(a_[1]) : NULL;
    if (py_tensor_arg(a_[0], "_nn_named", "tensor", &t) < 0) return NULL;
    if (!name) {
        PyErr_SetString(PyExc_TypeError, "_nn_named(): name must be a str");
        return NULL;
    }
    if (t->grad_fn) ((py_tensor *)a_[0])->fn_name = nn_ctx_intern(py_ctx(), name);
    Py_INCREF(a_[0]);
    return a_[0];
}

/* ---- nn.Module's attribute lookup and call ----
 * Two slots of every module class, done in C when the class keeps
 * Module's Python methods for them:
 * - attributes: parameters, buffers and submodules live in the _parameters,
 *   _buffers and _modules dicts, and Module.__getattr__ finds them after the
 *   ordinary lookup fails. CPython 3.11 makes that failure an AttributeError
 *   with a formatted message before it calls __getattr__, which cost more
 *   than a small layer's kernel (model.fc1 took about 0.8 us).
 *   module_getattro does the same two steps without building that error.
 * - calls: Module.__call__ packs *input and **kwargs, checks the hook
 *   dicts and unpacks both again for self.forward. module_call passes the
 *   call's own arguments to forward when no hook is registered, and calls
 *   Module.__call__ itself when one is.
 * A class that defines __getattr__, __getattribute__ or __call__ keeps
 * CPython's slot for it, and assigning one of them to a class later (the
 * debugger wraps Module.__call__) has CPython recompute the slot, so the
 * Python methods are what every other case runs. */

static struct {
    PyObject *getattr_fn, *call_fn;        /* Module.__getattr__, Module.__call__ */
    PyObject *global_pre, *global_forward; /* the module-level hook dicts */
    PyObject *linear_forward, *linear_fn;  /* nn.Linear.forward, F.linear (_C.linear) */
    PyObject *names[12];
} mod;

enum {
    N_PARAMETERS,
    N_BUFFERS,
    N_MODULES,
    N_FORWARD_HOOKS,
    N_FORWARD_PRE_HOOKS,
    N_BACKWARD_HOOKS,
    N_FORWARD,
    N_WEIGHT,
    N_BIAS,
    N_F,
    N_LINEAR,
    N_COUNT
};

/* Module.__getattr__'s search: [name] in the instance's _parameters,
 * _buffers or _modules, in that order. New reference, or NULL: with an
 * exception set on an error, without one when no dict holds it. */
static PyObject *module_registered(PyObject *self, PyObject *name) {
    PyObject *dict = PyObject_GenericGetDict(self, NULL), *r = NULL;
    if (!dict) return NULL;
    for (int k = N_PARAMETERS; k <= N_MODULES && !r; k++) {
        PyObject *d = PyDict_GetItemWithError(dict, mod.names[k]); /* borrowed */
        if (!d) {
            if (PyErr_Occurred()) break;
            continue;
        }
        if (PyDict_CheckExact(d) || Py_IS_TYPE(d, &PyODict_Type)) {
            r = Py_XNewRef(PyDict_GetItemWithError(d, name));
            if (!r && PyErr_Occurred()) break;
            continue;
        }
        /* Some other mapping: `name in d` and `d[name]`, as the Python reads. */
        int has = PySequence_Contains(d, name);
        if (has < 0) break;
        if (has && !(r = PyObject_GetItem(d, name))) break;
    }
    Py_DECREF(dict);
    return r;
}

static PyObject *module_getattro(PyObject *self, PyObject *name) {
    /* Suppressed: a miss (or an AttributeError from a property) returns NULL
     * with no exception, where slot_tp_getattr_hook would catch one. */
    PyObject *r = _PyObject_GenericGetAttrWithDict(self, name, NULL, 1);
    if (r || PyErr_Occurred()) return r;
    if ((r = module_registered(self, name)) || PyErr_Occurred()) return r;
    PyObject *tname = PyType_GetName(Py_TYPE(self));
    if (!tname) return NULL;
    PyErr_Format(PyExc_AttributeError, "'%U' object has no attribute '%U'", tname, name);
    Py_DECREF(tname);
    return NULL;
}

/* Whether Module.__call__ would run hooks: its test, `self._forward_hooks
 * or self._forward_pre_hooks or self._backward_hooks or
 * _global_forward_hooks or _global_forward_pre_hooks`. -1 on an error. */
/* PyObject_IsTrue(v), read directly for a dict or an OrderedDict (their
 * length; a subclass may define __len__ or __bool__ and is asked). */
static int hooks_truth(PyObject *v) {
    if (PyDict_CheckExact(v) || Py_IS_TYPE(v, &PyODict_Type)) return PyDict_GET_SIZE(v) != 0;
    return PyObject_IsTrue(v);
}

/* The three hook dicts are read from the instance's dict when the class
 * reads attributes generically (Module's own __getattr__ slot or
 * object's) and defines none of the three names, so that no descriptor
 * answers before the instance: the values PyObject_GetAttr would find,
 * without three passes through the attribute machinery on every call
 * (~0.1 us a call, four calls a step of a 3-layer MLP). Anything else
 * (no such entry, another class) takes PyObject_GetAttr as before. */
static int module_hooked(PyObject *self) {
    getattrofunc ga = Py_TYPE(self)->tp_getattro;
    PyObject *dict = NULL;
    if (ga == module_getattro || ga == PyObject_GenericGetAttr) {
        dict = PyObject_GenericGetDict(self, NULL);
        if (!dict) PyErr_Clear();
    }
    int on = 0;
    for (int k = N_FORWARD_HOOKS; k <= N_BACKWARD_HOOKS && !on; k++) {
        PyObject *v = NULL;
        if (dict && !_PyType_Lookup(Py_TYPE(self), mod.names[k])) {
            v = Py_XNewRef(PyDict_GetItemWithError(dict, mod.names[k]));
            if (!v && PyErr_Occurred()) {
                Py_DECREF(dict);
                return -1;
            }
        }
        if (!v && !(v = PyObject_GetAttr(self, mod.names[k]))) {
            Py_XDECREF(dict);
            return -1;
        }
        on = hooks_truth(v);
        Py_DECREF(v);
    }
    Py_XDECREF(dict);
    if (on) return on;
    on = hooks_truth(mod.global_forward);
    return on ? on : hooks_truth(mod.global_pre);
}

/* nn.Linear.forward without its frame: when [self]'s class has Linear's
 * own forward and the instance does not replace it, the call is one
 * input, weight and bias are entries of self._parameters (Linear.forward's
 * first branch) and F.linear is still _C.linear, the same f_linear call
 * Linear.forward makes, without the interpreter running it (half of a
 * small layer's cost from Python). Not while a trace or profile function
 * is set (the debugger's line stepping, cProfile), where the frame is
 * what they are there to see. *[r] is the result (or NULL with the
 * error); false when the frame is needed. */
static bool linear_direct(PyObject *self, PyObject *args, PyObject **r) {
    PyThreadState *ts = PyThreadState_Get();
    if (ts->c_tracefunc || ts->c_profilefunc) return false;
    PyObject *fwd = mod.linear_forward;
    if (!fwd || _PyType_Lookup(Py_TYPE(self), mod.names[N_FORWARD]) != fwd) return false;
    PyObject *fmod = PyDict_GetItemWithError(PyFunction_GET_GLOBALS(fwd), mod.names[N_F]);
    if (!fmod || !PyModule_CheckExact(fmod)) return false;
    if (PyDict_GetItemWithError(PyModule_GetDict(fmod), mod.names[N_LINEAR]) != mod.linear_fn)
        return false;
    PyObject *dict = PyObject_GenericGetDict(self, NULL);
    if (!dict) return PyErr_Clear(), false;
    PyObject *params = PyDict_GetItemWithError(dict, mod.names[N_PARAMETERS]);
    bool own = PyDict_GetItemWithError(dict, mod.names[N_FORWARD]) != NULL;
    Py_DECREF(dict); /* the instance keeps params */
    if (own || !params || !(PyDict_CheckExact(params) || Py_IS_TYPE(params, &PyODict_Type)))
        return PyErr_Clear(), false;
    PyObject *w = PyDict_GetItemWithError(params, mod.names[N_WEIGHT]);
    PyObject *b = w ? PyDict_GetItemWithError(params, mod.names[N_BIAS]) : NULL;
    if (!b) return PyErr_Clear(), false;
    PyObject *call[3] = {PyTuple_GET_ITEM(args, 0), w, b};
    Py_INCREF(w);
    Py_INCREF(b);
    *r = f_linear(NULL, call, 3, NULL);
    Py_DECREF(w);
    Py_DECREF(b);
    return true;
}

static PyObject *module_call(PyObject *self, PyObject *args, PyObject *kwargs) {
    int hooked = module_hooked(self);
    if (hooked < 0) return NULL;
    PyObject *r;
    if (!hooked && !kwargs && PyTuple_GET_SIZE(args) == 1 && linear_direct(self, args, &r))
        return r;
    if (hooked) {
        /* Module.__call__(self, *args, **kwargs) */
        Py_ssize_t n = PyTuple_GET_SIZE(args);
        PyObject *full = PyTuple_New(n + 1);
        if (!full) return NULL;
        PyTuple_SET_ITEM(full, 0, Py_NewRef(self));
        for (Py_ssize_t i = 0; i < n; i++)
            PyTuple_SET_ITEM(full, i + 1, Py_NewRef(PyTuple_GET_ITEM(args, i)));
        r = PyObject_Call(mod.call_fn, full, kwargs);
        Py_DECREF(full);
        return r;
    }
    PyObject *forward = PyObject_GetAttr(self, mod.names[N_FORWARD]);
    if (!forward) return NULL;
    r = PyObject_Call(forward, args, kwargs);
    Py_DECREF(forward);
    return r;
}

/* _module_fast_init(module_getattr, module_call, global_forward_pre_hooks,
 * global_forward_hooks): what the slots compare with and read; once, when
 * torch/nn/modules/module.py has made Module. */
static PyObject *f_module_fast_init(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    static const char *const names[N_COUNT] = {
        "_parameters",     "_buffers", "_modules", "_forward_hooks", "_forward_pre_hooks",
        "_backward_hooks", "forward",  "weight",   "bias",           "F",
        "linear"};
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_module_fast_init() takes 4 arguments");
        return NULL;
    }
    for (int k = 0; k < N_COUNT; k++)
        if (!mod.names[k] && !(mod.names[k] = PyUnicode_InternFromString(names[k]))) return NULL;
    Py_XSETREF(mod.getattr_fn, Py_NewRef(args[0]));
    Py_XSETREF(mod.call_fn, Py_NewRef(args[1]));
    Py_XSETREF(mod.global_pre, Py_NewRef(args[2]));
    Py_XSETREF(mod.global_forward, Py_NewRef(args[3]));
    Py_RETURN_NONE;
}

/* _module_fast_linear(forward, linear): nn.Linear.forward and the F.linear
 * it calls, for linear_direct; once, when torch/nn/modules/linear.py has
 * made Linear. */
static PyObject *f_module_fast_linear(PyObject *m, PyObject *const *args, Py_ssize_t nargs) {
    (void)m;
    if (nargs != 2 || !PyFunction_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "_module_fast_linear(forward, linear) takes a function "
                                         "and F.linear");
        return NULL;
    }
    Py_XSETREF(mod.linear_forward, Py_NewRef(args[0]));
    Py_XSETREF(mod.linear_fn, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

/* _module_fast_slots(cls): module_getattro for [cls] when the __getattr__
 * it finds is Module's and the __getattribute__ it finds is object's;
 * module_call when the __call__ it finds is Module's. Module and
 * Module.__init_subclass__ call it. */
static PyObject *f_module_fast_slots(PyObject *m, PyObject *cls_o) {
    (void)m;
    static PyObject *getattr_name, *getattribute_name, *call_name;
    if (!PyType_Check(cls_o) || !mod.getattr_fn) {
        PyErr_SetString(PyExc_TypeError, "_module_fast_slots(cls) takes a class, after "
                                         "_module_fast_init");
        return NULL;
    }
    if ((!getattr_name && !(getattr_name = PyUnicode_InternFromString("__getattr__"))) ||
        (!getattribute_name &&
         !(getattribute_name = PyUnicode_InternFromString("__getattribute__"))) ||
        (!call_name && !(call_name = PyUnicode_InternFromString("__call__"))))
        return NULL;
    PyTypeObject *cls = (PyTypeObject *)cls_o;
    if (!(cls->tp_flags & Py_TPFLAGS_HEAPTYPE)) Py_RETURN_NONE;
    if (_PyType_Lookup(cls, getattr_name) == mod.getattr_fn &&
        _PyType_Lookup(cls, getattribute_name) ==
            _PyType_Lookup(&PyBaseObject_Type, getattribute_name))
        cls->tp_getattro = module_getattro;
    if (_PyType_Lookup(cls, call_name) == mod.call_fn) cls->tp_call = module_call;
    PyType_Modified(cls);
    Py_RETURN_NONE;
}

#define ENTRY(pyname, fn)                                                                          \
    { pyname, (PyCFunction)(void (*)(void))fn, METH_FASTCALL | METH_KEYWORDS, NULL }

PyMethodDef py_nn_functions[] = {
    ENTRY("_nn_linear", f_linear),
    /* torch.nn.functional.linear itself, named as PyTorch's builtin is */
    ENTRY("linear", f_linear),
    ENTRY("_nn_embedding", f_embedding),
    ENTRY("_nn_layer_norm", f_layer_norm),
    ENTRY("_nn_batch_norm", f_batch_norm),
    ENTRY("_nn_group_norm", f_group_norm),
    ENTRY("_nn_dropout", f_dropout),
    ENTRY("_nn_sdpa", f_sdpa),
    ENTRY("_nn_mha_self", f_mha_self),
    ENTRY("_nn_gelu", f_gelu),
    ENTRY("_nn_silu", f_silu),
    ENTRY("_nn_leaky_relu", f_leaky_relu),
    ENTRY("_nn_softplus", f_softplus),
    ENTRY("_nn_softmax", f_softmax),
    ENTRY("_nn_log_softmax", f_log_softmax),
    ENTRY("_nn_one_hot", f_one_hot),
    ENTRY("_nn_cross_entropy", f_cross_entropy),
    ENTRY("_nn_cross_entropy_probs", f_cross_entropy_probs),
    ENTRY("_nn_nll_loss", f_nll_loss),
    ENTRY("_nn_mse_loss", f_mse_loss),
    ENTRY("_nn_l1_loss", f_l1_loss),
    ENTRY("_nn_binary_cross_entropy", f_bce),
    ENTRY("_nn_binary_cross_entropy_with_logits", f_bce_logits),
    ENTRY("_nn_init_uniform_", f_init_uniform),
    ENTRY("_nn_init_normal_", f_init_normal),
    ENTRY("_nn_init_constant_", f_init_constant),
    ENTRY("_nn_init_trunc_normal_", f_init_trunc_normal),
    ENTRY("_nn_init_orthogonal_", f_init_orthogonal),
    ENTRY("_nn_clip_grad_norm", f_clip_grad_norm),
    ENTRY("_nn_clip_grad_value", f_clip_grad_value),
    ENTRY("_nn_flat_cat", f_flat_cat),
    ENTRY("_nn_cast", f_cast),
    ENTRY("_nn_named", f_named),
    {"_module_fast_init", (PyCFunction)(void (*)(void))f_module_fast_init, METH_FASTCALL, NULL},
    {"_module_fast_slots", f_module_fast_slots, METH_O, NULL},
    {"_module_fast_linear", (PyCFunction)(void (*)(void))f_module_fast_linear, METH_FASTCALL, NULL},
    {NULL, NULL, 0, NULL},
};
