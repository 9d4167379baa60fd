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
