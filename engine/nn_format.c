/* nn_format: tensors as text and HTML, exactly as PyTorch 1.13 prints them.
 *
 * The tensor formatter is a port of torch/_tensor_str.py: one formatter per
 * tensor decides between integer mode ("1."), fixed ("0.1234") and
 * scientific ("1.2340e-05") from the non-zero finite values that will be
 * printed, and pads every element to the widest one.
 */
#include "nn_format.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_graph.h"
#include "nn_ops.h"

const nn_print_opts nn_print_opts_default = {4, 1000, 3, 80, 0};

/* ---- element access on any strided view ---- */

static double elem_d(const nn_tensor *t, int64_t off) {
    return nn_dtype_load(t->dtype,
                         (const char *)t->storage->data + off * (int64_t)nn_dtype_size(t->dtype));
}

static int64_t elem_i(const nn_tensor *t, int64_t off) {
    return nn_dtype_load_int(t->dtype, (const char *)t->storage->data +
                                           off * (int64_t)nn_dtype_size(t->dtype));
}

/* ---- the formatter (torch._tensor_str._Formatter) ---- */

typedef struct fmt {
    const nn_tensor *t;
    const nn_print_opts *o;
    bool floating, int_mode, sci_mode, summarize;
    int max_width;
    /* statistics of the non-zero finite values (first pass) */
    int64_t n_nzf;
    double min_abs, max_abs;
} fmt;

typedef void (*visit_fn)(fmt *f, int64_t off);

/* Call [fn] on every element that the printed form shows: all of them, or
 * only the edge items of each dim when summarising. */
static void visit(fmt *f, int d, int64_t off, visit_fn fn) {
    const nn_tensor *t = f->t;
    if (d == t->ndim) {
        fn(f, off);
        return;
    }
    int64_t n = t->shape[d], e = f->o->edgeitems;
    for (int64_t i = 0; i < n; i++) {
        if (f->summarize && n > 2 * e && i == e) i = n - e;
        visit(f, d + 1, off + i * t->strides[d], fn);
    }
}

static void raw_float(double v, const fmt *f, char *buf, size_t cap) {
    if (isnan(v)) {
        snprintf(buf, cap, "nan");
    } else if (f->sci_mode) {
        snprintf(buf, cap, "%.*e", f->o->precision, v);
    } else if (f->int_mode) {
        if (isinf(v))
            snprintf(buf, cap, "%s", v < 0 ? "-inf" : "inf");
        else
            snprintf(buf, cap, "%.0f.", v);
    } else {
        snprintf(buf, cap, "%.*f", f->o->precision, v);
    }
}

static void pass_stats(fmt *f, int64_t off) {
    double v = elem_d(f->t, off);
    if (!isfinite(v) || v == 0.0) return;
    double a = fabs(v);
    if (f->n_nzf == 0 || a < f->min_abs) f->min_abs = a;
    if (f->n_nzf == 0 || a > f->max_abs) f->max_abs = a;
    if (v != ceil(v)) f->int_mode = false;
    f->n_nzf++;
}

static void pass_width(fmt *f, int64_t off) {
    char buf[64];
    int w;
    if (!f->floating) {
        if (f->t->dtype == NN_BOOL)
            w = elem_d(f->t, off) != 0 ? 4 : 5;
        else
            w = snprintf(buf, sizeof buf, "%lld", (long long)elem_i(f->t, off));
    } else {
        double v = elem_d(f->t, off);
        if (!isfinite(v) || v == 0.0) return;
        if (f->sci_mode)
            w = snprintf(buf, sizeof buf, "%.*e", f->o->precision, v);
        else if (f->int_mode)
            w = snprintf(buf, sizeof buf, "%.0f", v) + 1;
        else
            w = snprintf(buf, sizeof buf, "%.*f", f->o->precision, v);
    }
    if (w > f->max_width) f->max_width = w;
}

static void fmt_init(fmt *f, const nn_tensor *t, const nn_print_opts *o) {
    memset(f, 0, sizeof *f);
    f->t = t;
    f->o = o;
    f->floating = nn_dtype_is_float(t->dtype);
    f->int_mode = true;
    f->max_width = 1;
    f->summarize = nn_tensor_numel(t) > o->threshold;
    if (!f->floating) {
        visit(f, 0, t->offset, pass_width);
        return;
    }
    visit(f, 0, t->offset, pass_stats);
    if (f->n_nzf == 0) return;
    if (f->int_mode) {
        f->sci_mode = f->max_abs / f->min_abs > 1000.0 || f->max_abs > 1.0e8;
    } else {
        f->sci_mode = f->max_abs / f->min_abs > 1000.0 || f->max_abs > 1.0e8 || f->min_abs < 1.0e-4;
    }
    visit(f, 0, t->offset, pass_width);
    /* set_printoptions(sci_mode=...) decides the notation, not the width
     * (torch's _Formatter measures first) */
    if (o->sci_mode) f->sci_mode = o->sci_mode == 1;
}

/* One element, padded on the left to the formatter's width. */
static void fmt_elem(const fmt *f, int64_t off, nn_buf *out) {
    char buf[96];
    if (!f->floating) {
        if (f->t->dtype == NN_BOOL)
            snprintf(buf, sizeof buf, "%s", elem_d(f->t, off) != 0 ? "True" : "False");
        else
            snprintf(buf, sizeof buf, "%lld", (long long)elem_i(f->t, off));
    } else {
        raw_float(elem_d(f->t, off), f, buf, sizeof buf);
    }
    int len = (int)strlen(buf);
    for (int i = len; i < f->max_width; i++) nn_buf_add(out, " ", 1);
    nn_buf_add(out, buf, (size_t)len);
}

static void spaces(nn_buf *out, int n) {
    for (int i = 0; i < n; i++) nn_buf_add(out, " ", 1);
}

/* A complex element: the real part padded by [f], the imaginary part by
 * [fi] with "j" and its padding dropped, joined by its sign or "+", as
 * torch's _val_formatter. [off] is the real part's offset in the real view. */
static void fmt_celem(const fmt *f, const fmt *fi, int64_t off, nn_buf *out) {
    fmt_elem(f, off, out);
    nn_buf im;
    nn_buf_init(&im);
    fmt_elem(fi, off + 1, &im);
    nn_buf_add(&im, "j", 2);
    const char *p = im.data;
    while (*p == ' ') p++;
    if (*p != '+' && *p != '-') nn_buf_add(out, "+", 1);
    nn_buf_puts(out, p);
    nn_buf_free(&im);
}

static void fmt_any(const fmt *f, const fmt *fi, int64_t off, nn_buf *out) {
    if (fi)
        fmt_celem(f, fi, off, out);
    else
        fmt_elem(f, off, out);
}

/* [fi]: the imaginary parts' formatter of a complex tensor, else NULL. */
static void fmt_rec(const fmt *f, const fmt *fi, int d, int64_t off, int indent, nn_buf *out) {
    const nn_tensor *t = f->t;
    int64_t n = t->shape[d], e = f->o->edgeitems;
    bool cut = f->summarize && n > 2 * e;
    nn_buf_add(out, "[", 1);
    if (d == t->ndim - 1) {
        int elem_len = f->max_width + 2 + (fi ? fi->max_width + 1 : 0);
        int per_line = (f->o->linewidth - indent) / elem_len;
        if (per_line < 1) per_line = 1;
        int64_t k = 0;
        for (int64_t i = 0; i < n; i++) {
            if (k > 0) {
                if (k % per_line == 0) {
                    nn_buf_add(out, ",\n", 2);
                    spaces(out, indent + 1);
                } else {
                    nn_buf_add(out, ", ", 2);
                }
            }
            if (cut && i == e) {
                nn_buf_puts(out, " ...");
                i = n - e - 1;
            } else {
                fmt_any(f, fi, off + i * t->strides[d], out);
            }
            k++;
        }
    } else {
        int newlines = t->ndim - d - 1;
        for (int64_t i = 0; i < n; i++) {
            if (i > 0) {
                nn_buf_add(out, ",", 1);
                for (int j = 0; j < newlines; j++) nn_buf_add(out, "\n", 1);
                spaces(out, indent + 1);
            }
            if (cut && i == e) {
                nn_buf_puts(out, "...");
                i = n - e - 1;
            } else {
                fmt_rec(f, fi, d + 1, off + i * t->strides[d], indent + 1, out);
            }
        }
    }
    nn_buf_add(out, "]", 1);
}

void nn_format_tensor_values(const nn_tensor *t, int indent, const nn_print_opts *opts,
                             nn_buf *out) {
    if (!opts) opts = &nn_print_opts_default;
    if (nn_tensor_numel(t) == 0) {
        nn_buf_puts(out, "[]");
        return;
    }
    if (nn_tensor_released(t)) { /* an FSDP weight between uses: no bytes to show */
        nn_buf_puts(out, t->storage->husk ? "<not kept after forward>" : "<storage released>");
        return;
    }
    fmt f;
    if (nn_dtype_is_complex(t->dtype)) {
        /* torch formats the real and the imaginary parts each with its own
         * formatter: two real views of the pairs */
        nn_tensor re = *t, im;
        re.dtype = nn_dtype_to_real(t->dtype);
        re.offset = 2 * t->offset;
        for (int d = 0; d < t->ndim; d++) re.strides[d] = 2 * t->strides[d];
        im = re;
        im.offset = re.offset + 1;
        fmt fi;
        fmt_init(&f, &re, opts);
        fmt_init(&fi, &im, opts);
        if (t->ndim == 0)
            fmt_celem(&f, &fi, re.offset, out);
        else
            fmt_rec(&f, &fi, 0, re.offset, indent, out);
        return;
    }
    fmt_init(&f, t, opts);
    if (t->ndim == 0)
        fmt_elem(&f, t->offset, out);
    else
        fmt_rec(&f, NULL, 0, t->offset, indent, out);
}

/* ---- grad_fn names as torch 1.13 shows them ---- */

static bool input_wrapped(const nn_node *n, int i) {
    return i < n->n_in && n->in[i].t && n->in[i].t->is_wrapped_number;
}

static int input_ndim(const nn_node *n, int i) {
    return i < n->n_in && n->in[i].t ? n->in[i].t->ndim : 0;
}

const char *nn_format_grad_fn_name(const nn_tensor *t) {
    return nn_format_node_name(t ? t->grad_fn : NULL);
}

const char *nn_format_node_name(const nn_node *n) {
    if (!n) return NULL;
    if (n->op == NN_OP_TO && n->p.flags == NN_TO_ROUNDS_OP && n->in[0].fn) n = n->in[0].fn;
    bool all = n->p.n_dims <= 0;
    switch (n->op) {
    case NN_OP_ADD: return "AddBackward0";
    case NN_OP_SUB: return input_wrapped(n, 0) ? "RsubBackward1" : "SubBackward0";
    case NN_OP_MUL: return "MulBackward0";
    case NN_OP_DIV: return input_wrapped(n, 0) ? "MulBackward0" : "DivBackward0";
    case NN_OP_POW: return input_wrapped(n, 1) ? "PowBackward0" : "PowBackward1";
    case NN_OP_MAXIMUM: return "MaximumBackward0";
    case NN_OP_MINIMUM: return "MinimumBackward0";
    case NN_OP_NEG: return "NegBackward0";
    case NN_OP_EXP: return "ExpBackward0";
    case NN_OP_LOG: return "LogBackward0";
    case NN_OP_LOG1P: return "Log1PBackward0";
    case NN_OP_SQRT: return "SqrtBackward0";
    case NN_OP_RSQRT: return "RsqrtBackward0";
    case NN_OP_ABS: return "AbsBackward0";
    case NN_OP_SIGN: return "SignBackward0";
    case NN_OP_CLAMP: return "ClampBackward1";
    case NN_OP_WHERE: return "WhereBackward0";
    case NN_OP_RELU: return "ReluBackward0";
    case NN_OP_LEAKY_RELU: return "LeakyReluBackward0";
    case NN_OP_TANH: return "TanhBackward0";
    case NN_OP_SIGMOID: return "SigmoidBackward0";
    case NN_OP_GELU: return "GeluBackward0";
    case NN_OP_SILU: return "SiluBackward0";
    case NN_OP_SOFTPLUS: return "SoftplusBackward0";
    case NN_OP_TO: return "ToCopyBackward0";
    case NN_OP_CUSTOM: return ((const nn_custom *)(intptr_t)n->p.i[0])->name;
    case NN_OP_PUT: return "CopySlices"; /* an assignment into a tensor with history */
    case NN_OP_AS_STRIDED: return "AsStridedBackward0"; /* a view of a base written in place */
    case NN_OP_SUM: return all ? "SumBackward0" : "SumBackward1";
    case NN_OP_MEAN: return all ? "MeanBackward0" : "MeanBackward1";
    /* max(x) records no dims; max(x, dim) sets flags 1 (values and
     * indices), amax/amin flags 2. */
    case NN_OP_MAX:
        return n->p.flags == 2 ? "AmaxBackward0" : n->p.flags ? "MaxBackward0" : "MaxBackward1";
    case NN_OP_MIN:
        return n->p.flags == 2 ? "AminBackward0" : n->p.flags ? "MinBackward0" : "MinBackward1";
    case NN_OP_VAR: return "VarBackward0";
    case NN_OP_STD: return "StdBackward0";
    case NN_OP_LOGSUMEXP: return "LogsumexpBackward0";
    case NN_OP_NORM: return "NormBackward1";
    case NN_OP_MATMUL: {
        int a = input_ndim(n, 0), b = input_ndim(n, 1);
        if (!a || !b) {
            /* backward has released an input: the output's rank and the
             * other input's tell the common cases */
            if (n->out_ndim == 2) return "MmBackward0";
            if (n->out_ndim == 1) return a == 1 || b == 2 ? "SqueezeBackward3" : "MvBackward0";
            if (n->out_ndim == 0) return "DotBackward0";
            return "UnsafeViewBackward0";
        }
        if (a == 2 && b == 2) return "MmBackward0";
        if (a == 2 && b == 1) return "MvBackward0";
        if (a == 1 && b == 1) return "DotBackward0";
        if (a == 1 && b == 2) return "SqueezeBackward3";
        return "UnsafeViewBackward0";
    }
    case NN_OP_LINEAR: {
        /* torch 1.13's F.linear takes a different path per input rank: addmm
         * or mm for 2-D, matmul then add (or a squeeze) for 1-D and for 4-D
         * and up, a folded addmm (or matmul's unsafe view) for 3-D. */
        bool bias = n->n_in > 2;
        /* the output has the input's rank, and outlives backward's release
         * of the input (a hidden layer's activations) */
        int nd = n->out_ndim;
        if (nd == 2) return bias ? "AddmmBackward0" : "MmBackward0";
        if (nd == 1) return bias ? "AddBackward0" : "SqueezeBackward3";
        if (nd == 3) return bias ? "ViewBackward0" : "UnsafeViewBackward0";
        return bias ? "AddBackward0" : "UnsafeViewBackward0";
    }
    case NN_OP_RESHAPE: return "ViewBackward0";
    case NN_OP_PERMUTE: return "PermuteBackward0";
    case NN_OP_EXPAND: return "ExpandBackward0";
    case NN_OP_SLICE: return "SliceBackward0";
    case NN_OP_SELECT: return "SelectBackward0";
    case NN_OP_CONTIGUOUS: return "CloneBackward0";
    case NN_OP_CAT: return "CatBackward0";
    case NN_OP_INDEX: return "IndexBackward0";
    case NN_OP_MASKED_SELECT: return "IndexBackward0";
    case NN_OP_SOFTMAX: return "SoftmaxBackward0";
    case NN_OP_LOG_SOFTMAX: return "LogSoftmaxBackward0";
    case NN_OP_CROSS_ENTROPY: return "NllLossBackward0";
    case NN_OP_NLL_LOSS: return "NllLossBackward0";
    case NN_OP_MSE_LOSS: return "MseLossBackward0";
    case NN_OP_BCE: return "BinaryCrossEntropyBackward0";
    case NN_OP_BCE_WITH_LOGITS: return "BinaryCrossEntropyWithLogitsBackward0";
    case NN_OP_EMBEDDING: return "EmbeddingBackward0";
    case NN_OP_LAYER_NORM: return "NativeLayerNormBackward0";
    case NN_OP_DROPOUT: return "MulBackward0";
    case NN_OP_SDPA: return "ScaledDotProductAttentionBackward0";
    case NN_OP_MHA_SELF: return "MultiHeadSelfAttentionBackward0";
    case NN_OP_SIN: return "SinBackward0";
    case NN_OP_COS: return "CosBackward0";
    case NN_OP_LOG2: return "Log2Backward0";
    case NN_OP_LOG10: return "Log10Backward0";
    case NN_OP_NAN_TO_NUM: return "NanToNumBackward0";
    case NN_OP_TRIL: return n->p.flags ? "TriuBackward0" : "TrilBackward0";
    case NN_OP_CUMSUM: return "CumsumBackward0";
    case NN_OP_CUMPROD: return "CumprodBackward0";
    case NN_OP_GATHER: return "GatherBackward0";
    case NN_OP_SCATTER: return n->p.flags ? "ScatterAddBackward0" : "ScatterBackward0";
    case NN_OP_TAN: return "TanBackward0";
    case NN_OP_ASIN: return "AsinBackward0";
    case NN_OP_ACOS: return "AcosBackward0";
    case NN_OP_ATAN: return "AtanBackward0";
    case NN_OP_SINH: return "SinhBackward0";
    case NN_OP_COSH: return "CoshBackward0";
    case NN_OP_EXPM1: return "Expm1Backward0";
    case NN_OP_ERF: return "ErfBackward0";
    case NN_OP_RECIPROCAL: return "ReciprocalBackward0";
    case NN_OP_FLOOR: return "FloorBackward0";
    case NN_OP_CEIL: return "CeilBackward0";
    case NN_OP_ROUND: return "RoundBackward0";
    case NN_OP_TRUNC: return "TruncBackward0";
    case NN_OP_FRAC: return "FracBackward0";
    case NN_OP_ATAN2: return "Atan2Backward0";
    case NN_OP_FMOD: return "FmodBackward0";
    case NN_OP_PROD: return all ? "ProdBackward0" : "ProdBackward1";
    case NN_OP_VIEW_AS_REAL: return "ViewAsRealBackward0";
    case NN_OP_VIEW_AS_COMPLEX: return "ViewAsComplexBackward0";
    case NN_OP_CONJ: return "ConjBackward0";
    case NN_OP_FFT_C2C: return "FftC2CBackward0";
    case NN_OP_FFT_R2C: return "FftR2CBackward0";
    case NN_OP_FFT_C2R: return "FftC2RBackward0";
    default: return "Backward0";
    }
}

/* ---- repr ---- */

static void add_suffix(nn_buf *out, const char *suffix, int indent, int linewidth,
                       int *last_line_len) {
    int len = (int)strlen(suffix);
    if (*last_line_len + len + 2 > linewidth) {
        nn_buf_add(out, ",\n", 2);
        spaces(out, indent);
        *last_line_len = indent + len;
    } else {
        nn_buf_add(out, ", ", 2);
        *last_line_len += len + 2;
    }
    nn_buf_puts(out, suffix);
}

void nn_format_tensor_repr(const nn_tensor *t, const char *grad_fn_name, const nn_print_opts *opts,
                           nn_buf *out) {
    if (!opts) opts = &nn_print_opts_default;
    const int indent = 7; /* strlen("tensor(") */
    size_t start = out->len;
    nn_buf_puts(out, "tensor(");
    nn_format_tensor_values(t, indent, opts, out);
    /* torch: last_line_len = len(s) - s.rfind("\n") + 1 */
    const char *s = out->data + start;
    size_t slen = out->len - start;
    const char *nl = NULL;
    for (size_t i = slen; i > 0; i--)
        if (s[i - 1] == '\n') {
            nl = s + i - 1;
            break;
        }
    int last = nl ? (int)(slen - (size_t)(nl - s) + 1) : (int)slen + 2;
    char buf[160];
    if (nn_tensor_numel(t) == 0) {
        if (t->ndim != 1) {
            size_t k = (size_t)snprintf(buf, sizeof buf, "size=(");
            for (int d = 0; d < t->ndim && k < sizeof buf - 24; d++)
                k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%lld", d ? ", " : "",
                                      (long long)t->shape[d]);
            snprintf(buf + k, sizeof buf - k, ")");
            add_suffix(out, buf, indent, opts->linewidth, &last);
        }
        if (t->dtype != NN_FLOAT32) {
            snprintf(buf, sizeof buf, "dtype=torch.%s", nn_dtype_name(t->dtype));
            add_suffix(out, buf, indent, opts->linewidth, &last);
        }
    } else if (t->dtype != NN_FLOAT32 && t->dtype != NN_INT64 && t->dtype != NN_BOOL &&
               t->dtype != NN_COMPLEX64) { /* torch's default complex dtype */
        snprintf(buf, sizeof buf, "dtype=torch.%s", nn_dtype_name(t->dtype));
        add_suffix(out, buf, indent, opts->linewidth, &last);
    }
    if (t->grad_fn) {
        if (!grad_fn_name) grad_fn_name = nn_format_grad_fn_name(t);
        snprintf(buf, sizeof buf, "grad_fn=<%s>", grad_fn_name);
        add_suffix(out, buf, indent, opts->linewidth, &last);
    } else if (t->requires_grad) {
        add_suffix(out, "requires_grad=True", indent, opts->linewidth, &last);
    }
    nn_buf_add(out, ")", 1);
}

/* ---- HTML ---- */

void nn_format_html_escape(nn_buf *out, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '<': nn_buf_puts(out, "&lt;"); break;
        case '>': nn_buf_puts(out, "&gt;"); break;
        case '&': nn_buf_puts(out, "&amp;"); break;
        case '"': nn_buf_puts(out, "&quot;"); break;
        default: nn_buf_add(out, s, 1);
        }
    }
}

void nn_format_stats_of(const double *v, int64_t n, nn_format_stats *s) {
    memset(s, 0, sizeof *s);
    double sum = 0, sq = 0;
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (isnan(v[i])) {
            s->n_nan++;
            continue;
        }
        if (isinf(v[i])) {
            s->n_inf++;
            continue;
        }
        if (k == 0 || v[i] < s->min) s->min = v[i];
        if (k == 0 || v[i] > s->max) s->max = v[i];
        sum += v[i];
        k++;
    }
    s->n = k;
    s->mean = k ? sum / (double)k : NAN;
    for (int64_t i = 0; i < n; i++)
        if (isfinite(v[i])) sq += (v[i] - s->mean) * (v[i] - s->mean);
    s->std = k > 1 ? sqrt(sq / (double)(k - 1)) : NAN;
    if (!k) s->min = s->max = NAN;
}

void nn_format_tensor_html(const nn_tensor *t, const char *grad_fn_name, nn_buf *out) {
    if (nn_tensor_released(t)) {
        nn_buf_puts(out, t->storage->husk ? "<pre>tensor(&lt;not kept after forward&gt;)</pre>"
                                          : "<pre>tensor(&lt;storage released&gt;)</pre>");
        return;
    }
    char shape[128];
    nn_tensor_shape_str(t, shape, sizeof shape);
    int64_t numel = nn_tensor_numel(t);
    /* The caption is a line of its own above the tables: a <caption> is as
     * narrow as its table and wrapped the shape and grad_fn mid-way. */
    nn_buf_puts(out, "<div class=\"nndb-tensor\"><div class=\"nndb-caption\" "
                     "style=\"white-space:nowrap\"><b>Tensor</b> ");
    nn_buf_printf(out, "shape %s &middot; torch.%s", shape, nn_dtype_name(t->dtype));
    if (t->grad_fn) {
        nn_buf_puts(out, " &middot; grad_fn=&lt;");
        nn_format_html_escape(out, grad_fn_name ? grad_fn_name : nn_format_grad_fn_name(t));
        nn_buf_puts(out, "&gt;");
    } else if (t->requires_grad) {
        nn_buf_puts(out, " &middot; requires_grad=True");
    }
    nn_buf_puts(out, "</div><table style=\"border-collapse:collapse\">");
    /* Statistics over every element (the repr shows only edge items). */
    /* (complex tensors: no statistics, and the repr for the values) */
    double *v = numel && !nn_dtype_is_complex(t->dtype) ? malloc((size_t)numel * sizeof *v) : NULL;
    if (numel && v) {
        nn_tensor_to_doubles(t, v);
        nn_format_stats s;
        nn_format_stats_of(v, numel, &s);
        nn_buf_puts(out, "<tr><th>numel</th><th>mean</th><th>std</th><th>min</th><th>max</th>"
                         "<th>nan</th><th>inf</th></tr>");
        nn_buf_printf(out, "<tr><td>%lld</td>", (long long)numel);
        /* A statistic with too few finite values (the std of one element,
         * the mean of none) is undefined: a dash, not a "nan" that reads
         * like a bug in the tensor. */
        const double st[4] = {s.mean, s.std, s.min, s.max};
        for (int i = 0; i < 4; i++) {
            if (isnan(st[i]))
                nn_buf_puts(out, "<td title=\"undefined\">\u2014</td>");
            else
                nn_buf_printf(out, "<td>%.4g</td>", st[i]);
        }
        nn_buf_printf(out, "<td>%lld</td><td>%lld</td></tr>", (long long)s.n_nan,
                      (long long)s.n_inf);
    }
    nn_buf_puts(out, "</table>");
    /* Values: a grid for 1-D and 2-D tensors (capped), the repr otherwise. */
    if (numel && v && (t->ndim == 1 || t->ndim == 2)) {
        int64_t rows = t->ndim == 2 ? t->shape[0] : 1, cols = t->shape[t->ndim - 1];
        const int64_t cap_r = 16, cap_c = 12;
        fmt f;
        fmt_init(&f, t, &nn_print_opts_default);
        f.summarize = false;
        nn_buf_puts(out, "<table style=\"border-collapse:collapse;font-family:monospace\">");
        for (int64_t r = 0; r < rows; r++) {
            if (r == cap_r && rows > cap_r + 1) {
                nn_buf_puts(out, "<tr><td>&#8942;</td></tr>");
                r = rows - 1;
            }
            nn_buf_puts(out, "<tr>");
            for (int64_t c = 0; c < cols; c++) {
                if (c == cap_c && cols > cap_c + 1) {
                    nn_buf_puts(out, "<td>&hellip;</td>");
                    c = cols - 1;
                }
                int64_t off = t->offset + (t->ndim == 2 ? r * t->strides[0] : 0) +
                              c * t->strides[t->ndim - 1];
                nn_buf_puts(out, "<td style=\"text-align:right;padding:0 6px\">");
                nn_buf tmp;
                nn_buf_init(&tmp);
                fmt_elem(&f, off, &tmp);
                nn_buf_add(&tmp, "", 1);
                const char *cell = tmp.data;
                while (*cell == ' ') cell++;
                nn_format_html_escape(out, cell);
                nn_buf_free(&tmp);
                nn_buf_puts(out, "</td>");
            }
            nn_buf_puts(out, "</tr>");
        }
        nn_buf_puts(out, "</table>");
    } else {
        nn_buf_puts(out, "<pre>");
        nn_buf tmp;
        nn_buf_init(&tmp);
        nn_format_tensor_repr(t, grad_fn_name, NULL, &tmp);
        nn_buf_add(&tmp, "", 1);
        nn_format_html_escape(out, tmp.data);
        nn_buf_free(&tmp);
        nn_buf_puts(out, "</pre>");
    }
    free(v);
    nn_buf_puts(out, "</div>");
}
