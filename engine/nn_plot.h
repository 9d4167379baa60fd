/* nn_plot: curves and histograms drawn as text, for every front end.
 *
 * One drawing path for both interpreters: a plot is an SVG picture (rich
 * front ends: Jupyter, the notebook viewer) and Unicode sparklines or bars
 * (the terminal), made from plain arrays of doubles, so the language layer
 * above only gathers the values. Non-finite points (and, on a log axis,
 * non-positive ones) are skipped and counted in a note.
 *
 * Ownership: inputs are borrowed; every function returns a malloc'ed,
 * NUL-terminated string the caller free()s (NULL only when memory ran out).
 */
#ifndef NN_PLOT_H
#define NN_PLOT_H

#include <stdbool.h>
#include <stdint.h>

/* A series is [n] doubles, one point per step. */
typedef struct nn_plot_series {
    const double *y;
    int64_t n;
    const char *label; /* NULL: "series N" */
} nn_plot_series;

typedef struct nn_plot_spec {
    const char *title, *xlabel, *ylabel; /* each may be NULL */
    bool logy;                           /* plot log10 of the values */
} nn_plot_spec;

/* Curves on one shared y scale: a 640x360 SVG with axes, ticks and a legend
 * when there are several series or labels. */
char *nn_plot_svg(const nn_plot_series *s, int n_series, const nn_plot_spec *spec);
/* The same as one sparkline per series (at most 60 columns, each the mean
 * of its bucket of points) with min, max and last. */
char *nn_plot_text(const nn_plot_series *s, int n_series, const nn_plot_spec *spec);
/* Histogram of the finite values of [v] in [bins] equal bins between their
 * min and max, with n, mean and std. */
char *nn_hist_svg(const double *v, int64_t n, int bins, const char *title);
char *nn_hist_text(const double *v, int64_t n, int bins, const char *title);

#endif
