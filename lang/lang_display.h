/* lang_display: how values look — rich MIME bundles (text/plain, text/html)
 * for any value, and the plot family (plot, hist, display) that shows curves
 * and distributions as SVG for rich front ends and as Unicode sparklines and
 * bars for the terminal. Tensor reprs and HTML summaries are the engine's
 * (nn_format.h, included here for the language's callers).
 *
 * Owned by the tensor/display engineer. Bundles are filled into a caller's
 * lang_mime (the caller frees it with lang_mime_free). Values are borrowed.
 */
#ifndef LANG_DISPLAY_H
#define LANG_DISPLAY_H

/* lang_value.h names struct lang_mime in a prototype before lang.h defines it. */
struct lang_mime;

#include "lang.h"
#include "nn_format.h"

/* The rich form of any value: the type's display function when it has one,
 * else text/plain = repr. False with an error raised when repr fails. */
bool lang_display_value(lang_vm *vm, lang_val v, lang_mime *out);

/* ---- plots, for the builtins and the tests ----
 * The drawing is the engine's (nn_plot.h), shared with the CPython session;
 * these are its names in the language. */
#include "nn_plot.h"

typedef nn_plot_series lang_plot_series;
typedef nn_plot_spec lang_plot_spec;
#define lang_plot_svg  nn_plot_svg
#define lang_plot_text nn_plot_text
#define lang_hist_svg  nn_hist_svg
#define lang_hist_text nn_hist_text

#endif
