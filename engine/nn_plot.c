/* nn_plot: SVG and terminal text for curves and histograms (nn_plot.h).
 * Moved here from the old interpreter's lang_display.c so that the CPython
 * session draws with the same code. */
#include "nn_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_buf.h"
#include "nn_format.h"

/* ---- plots: shared helpers ---- */

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void xml_escape(nn_buf *out, const char *s) {
    nn_format_html_escape(out, s);
}

/* Tick positions at 1, 2 or 5 times a power of ten covering [lo, hi]. */
static int nice_ticks(double lo, double hi, int want, double *ticks, int cap) {
    double raw = (hi - lo) / want;
    if (!(raw > 0) || !isfinite(raw)) {
        if (cap > 0) ticks[0] = lo;
        return cap > 0 ? 1 : 0;
    }
    double mag = pow(10.0, floor(log10(raw))), r = raw / mag;
    double step = (r < 1.5 ? 1.0 : r < 3.0 ? 2.0 : r < 7.0 ? 5.0 : 10.0) * mag;
    int n = 0;
    for (double k = ceil(lo / step - 1e-9); n < cap; k += 1.0) {
        double x = k * step;
        if (x > hi + step * 1e-9) break;
        ticks[n++] = fabs(x) < step * 1e-9 ? 0.0 : x;
    }
    return n;
}

static void tick_label(char *buf, size_t cap, double v) {
    snprintf(buf, cap, "%.6g", v);
}

typedef struct frame {
    double W, H, L, R, T, B; /* canvas and margins */
    double x0, x1, y0, y1;   /* data range (y already transformed) */
} frame;

static double fx(const frame *f, double x) {
    return f->L + (x - f->x0) / (f->x1 - f->x0) * (f->W - f->L - f->R);
}

static double fy(const frame *f, double y) {
    return f->H - f->B - (y - f->y0) / (f->y1 - f->y0) * (f->H - f->T - f->B);
}

static void svg_open(nn_buf *out, const frame *f, const char *title, const char *xlabel,
                     const char *ylabel) {
    nn_buf_printf(out,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                  "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"11\">\n"
                  "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                  f->W, f->H, f->W, f->H);
    if (title) {
        nn_buf_printf(out, "<text x=\"%g\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">",
                      f->W / 2);
        xml_escape(out, title);
        nn_buf_puts(out, "</text>\n");
    }
    if (xlabel) {
        nn_buf_printf(out, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">",
                      (f->L + f->W - f->R) / 2, f->H - 8);
        xml_escape(out, xlabel);
        nn_buf_puts(out, "</text>\n");
    }
    if (ylabel) {
        double cy = (f->T + f->H - f->B) / 2;
        nn_buf_printf(out,
                      "<text x=\"14\" y=\"%g\" text-anchor=\"middle\" "
                      "transform=\"rotate(-90 14 %g)\">",
                      cy, cy);
        xml_escape(out, ylabel);
        nn_buf_puts(out, "</text>\n");
    }
    /* axes */
    nn_buf_printf(out,
                  "<path d=\"M%g %g V%g H%g\" fill=\"none\" stroke=\"#333\" "
                  "stroke-width=\"1\"/>\n",
                  f->L, f->T, f->H - f->B, f->W - f->R);
}

static void svg_xticks(nn_buf *out, const frame *f) {
    double ticks[16];
    int n = nice_ticks(f->x0, f->x1, 6, ticks, 16);
    char buf[32];
    for (int i = 0; i < n; i++) {
        double x = fx(f, ticks[i]);
        tick_label(buf, sizeof buf, ticks[i]);
        nn_buf_printf(out,
                      "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#333\"/>"
                      "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n",
                      x, f->H - f->B, x, f->H - f->B + 4, x, f->H - f->B + 16, buf);
    }
}

static void svg_ytick(nn_buf *out, const frame *f, double yt, const char *label) {
    double y = fy(f, yt);
    nn_buf_printf(out,
                  "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                  f->L, y, f->W - f->R, y, f->L - 4, y + 4, label);
}

/* A minor tick of a log axis: a faint grid line, a short mark on the axis,
 * and a smaller label when [label] is given. */
static void svg_ytick_minor(nn_buf *out, const frame *f, double yt, const char *label) {
    double y = fy(f, yt);
    nn_buf_printf(out,
                  "<line class=\"minor\" x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
                  "stroke=\"#f0f0f0\"/><line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
                  "stroke=\"#333\"/>",
                  f->L, y, f->W - f->R, y, f->L - 3, y, f->L, y);
    if (label)
        nn_buf_printf(out,
                      "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\" font-size=\"9\" "
                      "fill=\"#555\">%s</text>",
                      f->L - 4, y + 3, label);
    nn_buf_puts(out, "\n");
}

static void svg_yticks(nn_buf *out, const frame *f, bool logy) {
    char buf[32];
    if (logy) {
        int k0 = (int)ceil(f->y0 - 1e-9), k1 = (int)floor(f->y1 + 1e-9);
        if (k1 - k0 >= 1 && k1 - k0 < 40) {
            int every = (k1 - k0) / 8 + 1;
            for (int k = k0; k <= k1; k += every) {
                if (k >= -3 && k <= 4)
                    tick_label(buf, sizeof buf, pow(10.0, k));
                else
                    snprintf(buf, sizeof buf, "1e%d", k);
                svg_ytick(out, f, k, buf);
            }
            /* Minor ticks at 2..9 times each power of ten, so a curve
             * between two decades can be read; over few decades 2 and 5
             * are labelled too. Many decades keep the majors only. */
            if (k1 - k0 <= 5) {
                bool label25 = k1 - k0 <= 2;
                for (int k = (int)floor(f->y0); k <= (int)ceil(f->y1); k++)
                    for (int m = 2; m <= 9; m++) {
                        double v = m * pow(10.0, k), y = log10(v);
                        if (y < f->y0 || y > f->y1) continue;
                        if (label25 && (m == 2 || m == 5)) {
                            tick_label(buf, sizeof buf, v);
                            svg_ytick_minor(out, f, y, buf);
                        } else {
                            svg_ytick_minor(out, f, y, NULL);
                        }
                    }
            }
            return;
        }
        /* Less than a decade: linear ticks in value space, placed on the log axis. */
        double ticks[16];
        int n = nice_ticks(pow(10.0, f->y0), pow(10.0, f->y1), 4, ticks, 16);
        for (int i = 0; i < n; i++) {
            if (ticks[i] <= 0) continue;
            tick_label(buf, sizeof buf, ticks[i]);
            svg_ytick(out, f, log10(ticks[i]), buf);
        }
        return;
    }
    double ticks[16];
    int n = nice_ticks(f->y0, f->y1, 5, ticks, 16);
    for (int i = 0; i < n; i++) {
        tick_label(buf, sizeof buf, ticks[i]);
        svg_ytick(out, f, ticks[i], buf);
    }
}

/* A y value as plotted, or NAN when it cannot be (non-finite, or <= 0 on a
 * log axis). */
static double plot_y(double v, bool logy) {
    if (!isfinite(v)) return NAN;
    if (logy) return v > 0 ? log10(v) : NAN;
    return v;
}

static void pad_range(double *lo, double *hi) {
    if (*hi > *lo) {
        double p = (*hi - *lo) * 0.05;
        *lo -= p;
        *hi += p;
    } else {
        double p = fabs(*lo) > 0 ? fabs(*lo) * 0.1 : 1.0;
        *lo -= p;
        *hi += p;
    }
}

char *nn_plot_svg(const nn_plot_series *s, int n_series, const nn_plot_spec *spec) {
    frame f = {640, 360, 64, 16, spec->title ? 36 : 16, spec->xlabel ? 44 : 30, 0, 1, 0, 1};
    if (spec->ylabel) f.L += 12;
    int64_t maxn = 0, skipped = 0, plotted = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < n_series; k++) {
        if (s[k].n > maxn) maxn = s[k].n;
        for (int64_t i = 0; i < s[k].n; i++) {
            double y = plot_y(s[k].y[i], spec->logy);
            if (isnan(y)) {
                skipped++;
                continue;
            }
            plotted++;
            if (y < lo) lo = y;
            if (y > hi) hi = y;
        }
    }
    if (!plotted) lo = 0, hi = 1;
    pad_range(&lo, &hi);
    f.y0 = lo;
    f.y1 = hi;
    f.x0 = 0;
    f.x1 = maxn > 1 ? (double)(maxn - 1) : 1;
    nn_buf out;
    nn_buf_init(&out);
    svg_open(&out, &f, spec->title, spec->xlabel, spec->ylabel);
    svg_yticks(&out, &f, spec->logy);
    svg_xticks(&out, &f);
    for (int k = 0; k < n_series; k++) {
        const char *col = palette[k % 10];
        nn_buf_printf(&out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", col);
        bool pen = false;
        int64_t lone = -1; /* a point with no neighbour gets a dot */
        for (int64_t i = 0; i < s[k].n; i++) {
            double y = plot_y(s[k].y[i], spec->logy);
            if (isnan(y)) {
                pen = false;
                continue;
            }
            nn_buf_printf(&out, "%s%.1f %.1f ", pen ? "L" : "M", fx(&f, (double)i), fy(&f, y));
            bool next_ok = i + 1 < s[k].n && !isnan(plot_y(s[k].y[i + 1], spec->logy));
            if (!pen && !next_ok) lone = i;
            pen = true;
        }
        nn_buf_puts(&out, "\"/>\n");
        if (lone >= 0 || s[k].n == 1) {
            for (int64_t i = 0; i < s[k].n; i++) {
                double y = plot_y(s[k].y[i], spec->logy);
                bool prev_ok = i > 0 && !isnan(plot_y(s[k].y[i - 1], spec->logy));
                bool next_ok = i + 1 < s[k].n && !isnan(plot_y(s[k].y[i + 1], spec->logy));
                if (isnan(y) || prev_ok || next_ok) continue;
                nn_buf_printf(&out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                              fx(&f, (double)i), fy(&f, y), col);
            }
        }
    }
    /* legend */
    bool any_label = n_series > 1;
    for (int k = 0; k < n_series; k++) any_label |= s[k].label != NULL;
    if (any_label) {
        double x = f.W - f.R - 150, y = f.T + 8;
        nn_buf_printf(&out,
                      "<rect x=\"%g\" y=\"%g\" width=\"144\" height=\"%d\" fill=\"white\" "
                      "fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n",
                      x, y, 16 * n_series + 6);
        for (int k = 0; k < n_series; k++) {
            double ly = y + 14 + 16 * k;
            nn_buf_printf(&out,
                          "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
                          "stroke-width=\"2\"/><text x=\"%g\" y=\"%g\">",
                          x + 6, ly - 4, x + 26, ly - 4, palette[k % 10], x + 32, ly);
            if (s[k].label)
                xml_escape(&out, s[k].label);
            else
                nn_buf_printf(&out, "series %d", k + 1);
            nn_buf_puts(&out, "</text>\n");
        }
    }
    if (skipped) {
        nn_buf_printf(
            &out, "<text x=\"%g\" y=\"%g\" fill=\"#b00\">%lld %s point%s skipped</text>\n", f.L + 4,
            f.T + 12, (long long)skipped, spec->logy ? "non-finite or non-positive" : "non-finite",
            skipped == 1 ? "" : "s");
    }
    nn_buf_puts(&out, "</svg>\n");
    return nn_buf_take(&out);
}

/* ---- terminal text ---- */

static const char *const spark[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                     "\u2585", "\u2586", "\u2587", "\u2588"};
#define SPARK_WIDTH 60

char *nn_plot_text(const nn_plot_series *s, int n_series, const nn_plot_spec *spec) {
    nn_buf out;
    nn_buf_init(&out);
    if (spec->title) nn_buf_printf(&out, "%s\n", spec->title);
    /* One scale for every series, so curves compare. */
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < n_series; k++)
        for (int64_t i = 0; i < s[k].n; i++) {
            double y = plot_y(s[k].y[i], spec->logy);
            if (isnan(y)) continue;
            if (y < lo) lo = y;
            if (y > hi) hi = y;
        }
    int label_w = 0;
    for (int k = 0; k < n_series; k++) {
        int w = s[k].label ? (int)strlen(s[k].label) : n_series > 1 ? 8 : 0;
        if (w > label_w) label_w = w;
    }
    if (label_w > 24) label_w = 24;
    for (int k = 0; k < n_series; k++) {
        char name[32];
        if (s[k].label)
            snprintf(name, sizeof name, "%s", s[k].label);
        else if (n_series > 1)
            snprintf(name, sizeof name, "series %d", k + 1);
        else
            name[0] = 0;
        if (label_w) nn_buf_printf(&out, "%-*.*s  ", label_w, label_w, name);
        int64_t n = s[k].n, width = n < SPARK_WIDTH ? n : SPARK_WIDTH, skipped = 0;
        double mn = INFINITY, mx = -INFINITY, last = NAN;
        for (int64_t i = 0; i < n; i++) {
            double v = s[k].y[i];
            if (isnan(plot_y(v, spec->logy))) {
                skipped++;
                continue;
            }
            if (v < mn) mn = v;
            if (v > mx) mx = v;
            last = v;
        }
        /* Each column is the mean of its bucket of points. */
        for (int64_t c = 0; c < width; c++) {
            int64_t a = c * n / width, b = (c + 1) * n / width;
            double sum = 0;
            int64_t cnt = 0;
            for (int64_t i = a; i < b; i++) {
                double y = plot_y(s[k].y[i], spec->logy);
                if (isnan(y)) continue;
                sum += y;
                cnt++;
            }
            if (!cnt) {
                nn_buf_puts(&out, " ");
                continue;
            }
            double y = sum / (double)cnt;
            int level = hi > lo ? (int)lround((y - lo) / (hi - lo) * 7.0) : 3;
            if (level < 0) level = 0;
            if (level > 7) level = 7;
            nn_buf_puts(&out, spark[level]);
        }
        if (isfinite(mn)) nn_buf_printf(&out, "  min %.4g  max %.4g  last %.4g", mn, mx, last);
        nn_buf_printf(&out, "  (%lld point%s", (long long)n, n == 1 ? "" : "s");
        if (skipped)
            nn_buf_printf(&out, ", %lld %s skipped", (long long)skipped,
                          spec->logy ? "non-finite or non-positive" : "non-finite");
        nn_buf_puts(&out, ")\n");
    }
    if (spec->logy) nn_buf_puts(&out, "(log scale)\n");
    return nn_buf_take(&out);
}

/* ---- histograms ---- */

typedef struct histo {
    int bins;
    double lo, hi;
    int64_t *count, maxc, n, skipped;
    nn_format_stats st;
} histo;

static bool histo_make(histo *h, const double *v, int64_t n, int bins) {
    memset(h, 0, sizeof *h);
    h->bins = bins;
    nn_format_stats_of(v, n, &h->st);
    h->skipped = h->st.n_nan + h->st.n_inf;
    h->n = h->st.n;
    h->lo = h->st.n ? h->st.min : 0;
    h->hi = h->st.n ? h->st.max : 1;
    if (!(h->hi > h->lo)) {
        h->lo -= 0.5;
        h->hi += 0.5;
    }
    h->count = calloc((size_t)bins, sizeof *h->count);
    if (!h->count) return false;
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        int b = (int)((v[i] - h->lo) / (h->hi - h->lo) * bins);
        if (b >= bins) b = bins - 1;
        if (b < 0) b = 0;
        h->count[b]++;
    }
    for (int b = 0; b < bins; b++)
        if (h->count[b] > h->maxc) h->maxc = h->count[b];
    return true;
}

char *nn_hist_svg(const double *v, int64_t n, int bins, const char *title) {
    histo h;
    if (!histo_make(&h, v, n, bins)) return NULL;
    frame f = {640, 360, 64, 16, title ? 36 : 16, 30, h.lo, h.hi, 0, h.maxc ? h.maxc * 1.05 : 1};
    nn_buf out;
    nn_buf_init(&out);
    svg_open(&out, &f, title, NULL, NULL);
    svg_yticks(&out, &f, false);
    svg_xticks(&out, &f);
    for (int b = 0; b < bins; b++) {
        if (!h.count[b]) continue;
        double a = h.lo + (h.hi - h.lo) * b / bins, e = h.lo + (h.hi - h.lo) * (b + 1) / bins;
        double x0 = fx(&f, a), x1 = fx(&f, e), y = fy(&f, (double)h.count[b]);
        nn_buf_printf(&out,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                      "fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>\n",
                      x0, y, x1 - x0, f.H - f.B - y, palette[0]);
    }
    nn_buf_printf(&out,
                  "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">n=%lld mean=%.4g std=%.4g</text>\n",
                  f.W - f.R - 4, f.T + 12, (long long)h.n, h.st.mean, h.st.std);
    if (h.skipped)
        nn_buf_printf(
            &out, "<text x=\"%g\" y=\"%g\" fill=\"#b00\">%lld non-finite value%s skipped</text>\n",
            f.L + 4, f.T + 12, (long long)h.skipped, h.skipped == 1 ? "" : "s");
    nn_buf_puts(&out, "</svg>\n");
    free(h.count);
    return nn_buf_take(&out);
}

static const char *const eighths[8] = {"",       "\u258f", "\u258e", "\u258d",
                                       "\u258c", "\u258b", "\u258a", "\u2589"};
#define BAR_WIDTH 40

char *nn_hist_text(const double *v, int64_t n, int bins, const char *title) {
    histo h;
    if (!histo_make(&h, v, n, bins)) return NULL;
    nn_buf out;
    nn_buf_init(&out);
    if (title) nn_buf_printf(&out, "%s\n", title);
    for (int b = 0; b < bins; b++) {
        double a = h.lo + (h.hi - h.lo) * b / bins, e = h.lo + (h.hi - h.lo) * (b + 1) / bins;
        nn_buf_printf(&out, "%10.4g .. %-10.4g ", a, e);
        int64_t units = h.maxc ? (h.count[b] * BAR_WIDTH * 8 + h.maxc / 2) / h.maxc : 0;
        if (h.count[b] && units == 0) units = 1;
        int cols = 0;
        for (int64_t u = 0; u + 8 <= units; u += 8, cols++) nn_buf_puts(&out, "\u2588");
        if (units % 8) {
            nn_buf_puts(&out, eighths[units % 8]);
            cols++;
        }
        for (; cols < BAR_WIDTH; cols++) nn_buf_add(&out, " ", 1);
        nn_buf_printf(&out, " %lld\n", (long long)h.count[b]);
    }
    nn_buf_printf(&out, "n=%lld  mean=%.4g  std=%.4g  min=%.4g  max=%.4g", (long long)h.n,
                  h.st.mean, h.st.std, h.st.min, h.st.max);
    if (h.skipped) nn_buf_printf(&out, "  (%lld non-finite skipped)", (long long)h.skipped);
    nn_buf_puts(&out, "\n");
    free(h.count);
    return nn_buf_take(&out);
}
