/* nn_format: how tensors look as text — repr(t) exactly as PyTorch 1.13
 * prints it (torch/_tensor_str.py), the torch names of backward nodes
 * ("AddBackward0"), and an HTML summary for rich front ends.
 *
 * Ownership: text is appended to a caller's nn_buf; tensors are borrowed and
 * never modified. Print options are the caller's (NULL: the defaults).
 */
#ifndef NN_FORMAT_H
#define NN_FORMAT_H

#include <stdint.h>

#include "nn_buf.h"
#include "nn_tensor.h"

/* PyTorch's print options (torch.set_printoptions); the defaults are
 * precision 4, threshold 1000, edgeitems 3, linewidth 80. */
typedef struct nn_print_opts {
    int precision;
    int64_t threshold;
    int edgeitems;
    int linewidth;
    int sci_mode; /* 0: torch's automatic choice, 1: always, 2: never */
} nn_print_opts;

extern const nn_print_opts nn_print_opts_default;

/* repr(t) as torch prints it: "tensor([[ 0.1234, -1.2345]], dtype=...,
 * grad_fn=<AddBackward0>)". [grad_fn_name] is the name shown in the
 * grad_fn= suffix when t has a grad_fn (NULL: derived from the node's op).
 * [opts] may be NULL for the defaults. */
void nn_format_tensor_repr(const nn_tensor *t, const char *grad_fn_name, const nn_print_opts *opts,
                           nn_buf *out);
/* Only the bracketed values ("[[1., 2.]]"), with continuation lines indented
 * by [indent] columns, as torch's _tensor_str. [opts] may be NULL. */
void nn_format_tensor_values(const nn_tensor *t, int indent, const nn_print_opts *opts,
                             nn_buf *out);
/* The torch class name of the backward node that made [t] ("MulBackward0"),
 * or NULL for a tensor without grad_fn. The string is static. */
const char *nn_format_grad_fn_name(const nn_tensor *t);
/* The same for node [n] (NULL for NULL). */
const char *nn_format_node_name(const nn_node *n);

/* Append [s] (may be NULL) to [out] with <, >, & and " as HTML entities. */
void nn_format_html_escape(nn_buf *out, const char *s);

/* Summary statistics of [n] doubles: n counts the finite values, which
 * mean, std (sample, n - 1), min and max are taken over; NaN where too few
 * values are finite to define one. Shared by the HTML summary and the
 * language's histograms. */
typedef struct nn_format_stats {
    int64_t n, n_nan, n_inf;
    double mean, std, min, max;
} nn_format_stats;
void nn_format_stats_of(const double *v, int64_t n, nn_format_stats *s);

/* An HTML summary of a tensor: shape, dtype, autograd state, a statistics
 * row (mean, std, min, max, non-finite counts) and the values up to a limit.
 * [grad_fn_name] as for nn_format_tensor_repr. */
void nn_format_tensor_html(const nn_tensor *t, const char *grad_fn_name, nn_buf *out);

#endif
