/* lang_display: how values look — tensors printed exactly as PyTorch 1.13
 * prints them, rich MIME bundles (text/plain, text/html) for tensors and any
 * value, and the plot family (plot, hist, display) that shows curves and
 * distributions as SVG for rich front ends and as Unicode sparklines and
 * bars for the terminal.
 *
 * Owned by the tensor/display engineer. Text is appended to a caller's
 * lang_buf; bundles are filled into a caller's lang_mime (the caller frees
 * it with lang_mime_free). Tensors are borrowed and never modified.
 */
#ifndef LANG_DISPLAY_H
#define LANG_DISPLAY_H

/* lang_value.h names struct lang_mime in a prototype before lang.h defines it. */
struct lang_mime;

#include "lang.h"

/* PyTorch's print options (torch.set_printoptions); the defaults are
 * precision 4, threshold 1000, edgeitems 3, linewidth 80. */
typedef struct lang_print_opts {
    int precision;
    int64_t threshold;
    int edgeitems;
    int linewidth;
    int sci_mode; /* 0: torch's automatic choice, 1: always, 2: never */
} lang_print_opts;

extern const lang_print_opts lang_print_opts_default;

/* repr(t) as torch prints it: "tensor([[ 0.1234, -1.2345]], dtype=...,
 * grad_fn=<AddBackward0>)". [grad_fn_name] is the name shown in the
 * grad_fn= suffix when t has a grad_fn (NULL: derived from the node's op).
 * [opts] may be NULL for the defaults. */
void lang_display_tensor_repr(const nn_tensor *t, const char *grad_fn_name,
                              const lang_print_opts *opts, lang_buf *out);
/* Only the bracketed values ("[[1., 2.]]"), with continuation lines indented
 * by [indent] columns, as torch's _tensor_str. */
void lang_display_tensor_values(const nn_tensor *t, int indent, const lang_print_opts *opts,
                                lang_buf *out);
/* The torch class name of the backward node that made [t] ("MulBackward0"),
 * or NULL for a tensor without grad_fn. */
const char *lang_display_grad_fn_name(const nn_tensor *t);

/* Append [s] (may be NULL) to [out] with <, >, & and " as HTML entities. */
void lang_html_escape(lang_buf *out, const char *s);

/* An HTML summary of a tensor: shape, dtype, autograd state, a statistics
 * row (mean, std, min, max, non-finite counts) and the values up to a limit. */
void lang_display_tensor_html(const nn_tensor *t, const char *grad_fn_name, lang_buf *out);

/* The rich form of any value: the type's display function when it has one,
 * else text/plain = repr. False with an error raised when repr fails. */
bool lang_display_value(lang_vm *vm, lang_val v, lang_mime *out);

/* ---- plots, for the builtins and the tests ----
 * A series is [n] doubles; non-finite points are skipped (and counted in a
 * note). Both functions return malloc'ed text. */
typedef struct lang_plot_series {
    const double *y;
    int64_t n;
    const char *label; /* NULL: "series N" */
} lang_plot_series;

typedef struct lang_plot_spec {
    const char *title, *xlabel, *ylabel; /* each may be NULL */
    bool logy;
} lang_plot_spec;

char *lang_plot_svg(const lang_plot_series *s, int n_series, const lang_plot_spec *spec);
char *lang_plot_text(const lang_plot_series *s, int n_series, const lang_plot_spec *spec);
/* Histogram of the finite values of [v] in [bins] equal bins. */
char *lang_hist_svg(const double *v, int64_t n, int bins, const char *title);
char *lang_hist_text(const double *v, int64_t n, int bins, const char *title);

#endif
