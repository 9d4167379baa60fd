/* lang_display: rich MIME bundles and the plot family (plot, hist,
 * display). Tensors themselves are formatted by the engine (nn_format).
 * Owned by the tensor/display engineer; see lang_display.h for ownership of
 * what is returned.
 */
#include "lang_display.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lang_builtins.h"
#include "lang_eval.h"
#include "lang_vm.h"

bool lang_display_value(lang_vm *vm, lang_val v, lang_mime *out) {
    if (v.kind == LANG_OBJ && v.u.o->type->display) return v.u.o->type->display(vm, v.u.o, out);
    lang_buf b;
    lang_buf_init(&b);
    if (!lang_repr(vm, v, &b)) {
        lang_buf_free(&b);
        return false;
    }
    lang_mime_add(out, "text/plain", lang_buf_take(&b));
    return true;
}

/* ---- plots: shared helpers ---- */

static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

static void xml_escape(lang_buf *out, const char *s) {
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

static void svg_open(lang_buf *out, const frame *f, const char *title, const char *xlabel,
                     const char *ylabel) {
    lang_buf_printf(out,
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
                    "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"11\">\n"
                    "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
                    f->W, f->H, f->W, f->H);
    if (title) {
        lang_buf_printf(out, "<text x=\"%g\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">",
                        f->W / 2);
        xml_escape(out, title);
        lang_buf_puts(out, "</text>\n");
    }
    if (xlabel) {
        lang_buf_printf(out, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">",
                        (f->L + f->W - f->R) / 2, f->H - 8);
        xml_escape(out, xlabel);
        lang_buf_puts(out, "</text>\n");
    }
    if (ylabel) {
        double cy = (f->T + f->H - f->B) / 2;
        lang_buf_printf(out,
                        "<text x=\"14\" y=\"%g\" text-anchor=\"middle\" "
                        "transform=\"rotate(-90 14 %g)\">",
                        cy, cy);
        xml_escape(out, ylabel);
        lang_buf_puts(out, "</text>\n");
    }
    /* axes */
    lang_buf_printf(out,
                    "<path d=\"M%g %g V%g H%g\" fill=\"none\" stroke=\"#333\" "
                    "stroke-width=\"1\"/>\n",
                    f->L, f->T, f->H - f->B, f->W - f->R);
}

static void svg_xticks(lang_buf *out, const frame *f) {
    double ticks[16];
    int n = nice_ticks(f->x0, f->x1, 6, ticks, 16);
    char buf[32];
    for (int i = 0; i < n; i++) {
        double x = fx(f, ticks[i]);
        tick_label(buf, sizeof buf, ticks[i]);
        lang_buf_printf(out,
                        "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#333\"/>"
                        "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>\n",
                        x, f->H - f->B, x, f->H - f->B + 4, x, f->H - f->B + 16, buf);
    }
}

static void svg_ytick(lang_buf *out, const frame *f, double yt, const char *label) {
    double y = fy(f, yt);
    lang_buf_printf(out,
                    "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    f->L, y, f->W - f->R, y, f->L - 4, y + 4, label);
}

/* A minor tick of a log axis: a faint grid line, a short mark on the axis,
 * and a smaller label when [label] is given. */
static void svg_ytick_minor(lang_buf *out, const frame *f, double yt, const char *label) {
    double y = fy(f, yt);
    lang_buf_printf(out,
                    "<line class=\"minor\" x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
                    "stroke=\"#f0f0f0\"/><line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" "
                    "stroke=\"#333\"/>",
                    f->L, y, f->W - f->R, y, f->L - 3, y, f->L, y);
    if (label)
        lang_buf_printf(out,
                        "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\" font-size=\"9\" "
                        "fill=\"#555\">%s</text>",
                        f->L - 4, y + 3, label);
    lang_buf_puts(out, "\n");
}

static void svg_yticks(lang_buf *out, const frame *f, bool logy) {
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

char *lang_plot_svg(const lang_plot_series *s, int n_series, const lang_plot_spec *spec) {
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
    lang_buf out;
    lang_buf_init(&out);
    svg_open(&out, &f, spec->title, spec->xlabel, spec->ylabel);
    svg_yticks(&out, &f, spec->logy);
    svg_xticks(&out, &f);
    for (int k = 0; k < n_series; k++) {
        const char *col = palette[k % 10];
        lang_buf_printf(&out, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" d=\"", col);
        bool pen = false;
        int64_t lone = -1; /* a point with no neighbour gets a dot */
        for (int64_t i = 0; i < s[k].n; i++) {
            double y = plot_y(s[k].y[i], spec->logy);
            if (isnan(y)) {
                pen = false;
                continue;
            }
            lang_buf_printf(&out, "%s%.1f %.1f ", pen ? "L" : "M", fx(&f, (double)i), fy(&f, y));
            bool next_ok = i + 1 < s[k].n && !isnan(plot_y(s[k].y[i + 1], spec->logy));
            if (!pen && !next_ok) lone = i;
            pen = true;
        }
        lang_buf_puts(&out, "\"/>\n");
        if (lone >= 0 || s[k].n == 1) {
            for (int64_t i = 0; i < s[k].n; i++) {
                double y = plot_y(s[k].y[i], spec->logy);
                bool prev_ok = i > 0 && !isnan(plot_y(s[k].y[i - 1], spec->logy));
                bool next_ok = i + 1 < s[k].n && !isnan(plot_y(s[k].y[i + 1], spec->logy));
                if (isnan(y) || prev_ok || next_ok) continue;
                lang_buf_printf(&out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                                fx(&f, (double)i), fy(&f, y), col);
            }
        }
    }
    /* legend */
    bool any_label = n_series > 1;
    for (int k = 0; k < n_series; k++) any_label |= s[k].label != NULL;
    if (any_label) {
        double x = f.W - f.R - 150, y = f.T + 8;
        lang_buf_printf(&out,
                        "<rect x=\"%g\" y=\"%g\" width=\"144\" height=\"%d\" fill=\"white\" "
                        "fill-opacity=\"0.85\" stroke=\"#ccc\"/>\n",
                        x, y, 16 * n_series + 6);
        for (int k = 0; k < n_series; k++) {
            double ly = y + 14 + 16 * k;
            lang_buf_printf(&out,
                            "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
                            "stroke-width=\"2\"/><text x=\"%g\" y=\"%g\">",
                            x + 6, ly - 4, x + 26, ly - 4, palette[k % 10], x + 32, ly);
            if (s[k].label)
                xml_escape(&out, s[k].label);
            else
                lang_buf_printf(&out, "series %d", k + 1);
            lang_buf_puts(&out, "</text>\n");
        }
    }
    if (skipped) {
        lang_buf_printf(
            &out, "<text x=\"%g\" y=\"%g\" fill=\"#b00\">%lld %s point%s skipped</text>\n", f.L + 4,
            f.T + 12, (long long)skipped, spec->logy ? "non-finite or non-positive" : "non-finite",
            skipped == 1 ? "" : "s");
    }
    lang_buf_puts(&out, "</svg>\n");
    return lang_buf_take(&out);
}

/* ---- terminal text ---- */

static const char *const spark[8] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                     "\u2585", "\u2586", "\u2587", "\u2588"};
#define SPARK_WIDTH 60

char *lang_plot_text(const lang_plot_series *s, int n_series, const lang_plot_spec *spec) {
    lang_buf out;
    lang_buf_init(&out);
    if (spec->title) lang_buf_printf(&out, "%s\n", spec->title);
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
        if (label_w) lang_buf_printf(&out, "%-*.*s  ", label_w, label_w, name);
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
                lang_buf_puts(&out, " ");
                continue;
            }
            double y = sum / (double)cnt;
            int level = hi > lo ? (int)lround((y - lo) / (hi - lo) * 7.0) : 3;
            if (level < 0) level = 0;
            if (level > 7) level = 7;
            lang_buf_puts(&out, spark[level]);
        }
        if (isfinite(mn)) lang_buf_printf(&out, "  min %.4g  max %.4g  last %.4g", mn, mx, last);
        lang_buf_printf(&out, "  (%lld point%s", (long long)n, n == 1 ? "" : "s");
        if (skipped)
            lang_buf_printf(&out, ", %lld %s skipped", (long long)skipped,
                            spec->logy ? "non-finite or non-positive" : "non-finite");
        lang_buf_puts(&out, ")\n");
    }
    if (spec->logy) lang_buf_puts(&out, "(log scale)\n");
    return lang_buf_take(&out);
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

char *lang_hist_svg(const double *v, int64_t n, int bins, const char *title) {
    histo h;
    if (!histo_make(&h, v, n, bins)) return NULL;
    frame f = {640, 360, 64, 16, title ? 36 : 16, 30, h.lo, h.hi, 0, h.maxc ? h.maxc * 1.05 : 1};
    lang_buf out;
    lang_buf_init(&out);
    svg_open(&out, &f, title, NULL, NULL);
    svg_yticks(&out, &f, false);
    svg_xticks(&out, &f);
    for (int b = 0; b < bins; b++) {
        if (!h.count[b]) continue;
        double a = h.lo + (h.hi - h.lo) * b / bins, e = h.lo + (h.hi - h.lo) * (b + 1) / bins;
        double x0 = fx(&f, a), x1 = fx(&f, e), y = fy(&f, (double)h.count[b]);
        lang_buf_printf(&out,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        "fill=\"%s\" stroke=\"white\" stroke-width=\"0.5\"/>\n",
                        x0, y, x1 - x0, f.H - f.B - y, palette[0]);
    }
    lang_buf_printf(
        &out, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">n=%lld mean=%.4g std=%.4g</text>\n",
        f.W - f.R - 4, f.T + 12, (long long)h.n, h.st.mean, h.st.std);
    if (h.skipped)
        lang_buf_printf(
            &out, "<text x=\"%g\" y=\"%g\" fill=\"#b00\">%lld non-finite value%s skipped</text>\n",
            f.L + 4, f.T + 12, (long long)h.skipped, h.skipped == 1 ? "" : "s");
    lang_buf_puts(&out, "</svg>\n");
    free(h.count);
    return lang_buf_take(&out);
}

static const char *const eighths[8] = {"",       "\u258f", "\u258e", "\u258d",
                                       "\u258c", "\u258b", "\u258a", "\u2589"};
#define BAR_WIDTH 40

char *lang_hist_text(const double *v, int64_t n, int bins, const char *title) {
    histo h;
    if (!histo_make(&h, v, n, bins)) return NULL;
    lang_buf out;
    lang_buf_init(&out);
    if (title) lang_buf_printf(&out, "%s\n", title);
    for (int b = 0; b < bins; b++) {
        double a = h.lo + (h.hi - h.lo) * b / bins, e = h.lo + (h.hi - h.lo) * (b + 1) / bins;
        lang_buf_printf(&out, "%10.4g .. %-10.4g ", a, e);
        int64_t units = h.maxc ? (h.count[b] * BAR_WIDTH * 8 + h.maxc / 2) / h.maxc : 0;
        if (h.count[b] && units == 0) units = 1;
        int cols = 0;
        for (int64_t u = 0; u + 8 <= units; u += 8, cols++) lang_buf_puts(&out, "\u2588");
        if (units % 8) {
            lang_buf_puts(&out, eighths[units % 8]);
            cols++;
        }
        for (; cols < BAR_WIDTH; cols++) lang_buf_add(&out, " ", 1);
        lang_buf_printf(&out, " %lld\n", (long long)h.count[b]);
    }
    lang_buf_printf(&out, "n=%lld  mean=%.4g  std=%.4g  min=%.4g  max=%.4g", (long long)h.n,
                    h.st.mean, h.st.std, h.st.min, h.st.max);
    if (h.skipped) lang_buf_printf(&out, "  (%lld non-finite skipped)", (long long)h.skipped);
    lang_buf_puts(&out, "\n");
    free(h.count);
    return lang_buf_take(&out);
}

/* ---- the builtins ---- */

/* The kwarg named [name], or NULL. */
static const lang_val *kwarg(const lang_args *a, const char *name) {
    for (int i = 0; i < a->nkw; i++)
        if (!strcmp(a->kwnames[i], name)) return &a->kw[i];
    return NULL;
}

static bool check_kwargs(lang_vm *vm, const lang_args *a, const char *fname,
                         const char *const *allowed) {
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (const char *const *p = allowed; *p; p++) ok |= !strcmp(*p, a->kwnames[i]);
        if (!ok)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[i]);
    }
    return true;
}

static bool opt_str(lang_vm *vm, const lang_args *a, const char *name, const char **out) {
    const lang_val *v = kwarg(a, name);
    *out = NULL;
    if (!v || v->kind == LANG_NONE) return true;
    if (!lang_is_obj(*v, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "%s must be a str, not %s", name, lang_type_name(*v));
    *out = lang_str_cstr(*v);
    return true;
}

static bool number_of(lang_val v, double *out) {
    switch (v.kind) {
    case LANG_BOOL: *out = v.u.b; return true;
    case LANG_INT: *out = (double)v.u.i; return true;
    case LANG_FLOAT: *out = v.u.f; return true;
    default: break;
    }
    nn_tensor *t = lang_tensor_of(v);
    if (t && nn_tensor_numel(t) == 1) {
        nn_tensor_to_doubles(t, out);
        return true;
    }
    return false;
}

/* The values of one series: a tensor (flattened) or a list/tuple of numbers
 * and one-element tensors. Malloc'ed into *out. */
static bool values_of(lang_vm *vm, lang_val v, const char *fname, double **out, int64_t *n) {
    *out = NULL;
    *n = 0;
    nn_tensor *t = lang_tensor_of(v);
    if (t) {
        *n = nn_tensor_numel(t);
        *out = malloc((size_t)(*n ? *n : 1) * sizeof **out);
        if (!*out) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        nn_tensor_to_doubles(t, *out);
        return true;
    }
    if (lang_is_obj(v, &lang_list_type) || lang_is_obj(v, &lang_tuple_type)) {
        int64_t len = lang_seq_len(v);
        lang_val *items = lang_seq_items(v);
        *out = malloc((size_t)(len ? len : 1) * sizeof **out);
        if (!*out) return lang_raise(vm, LANG_ERR_MEMORY, "out of memory");
        for (int64_t i = 0; i < len; i++) {
            if (!number_of(items[i], &(*out)[i])) {
                free(*out);
                *out = NULL;
                return lang_raise(vm, LANG_ERR_TYPE,
                                  "%s() wants numbers or one-element tensors in a series, got "
                                  "%s at position %lld",
                                  fname, lang_type_name(items[i]), (long long)i);
            }
        }
        *n = len;
        return true;
    }
    return lang_raise(vm, LANG_ERR_TYPE, "%s() takes lists of numbers or tensors, not %s", fname,
                      lang_type_name(v));
}

/* Whether [v] is a list whose items are themselves series (several curves
 * passed as one list). */
static bool is_list_of_series(lang_val v) {
    if (!lang_is_obj(v, &lang_list_type) && !lang_is_obj(v, &lang_tuple_type)) return false;
    int64_t n = lang_seq_len(v);
    lang_val *items = lang_seq_items(v);
    if (n == 0) return false;
    for (int64_t i = 0; i < n; i++) {
        nn_tensor *t = lang_tensor_of(items[i]);
        bool seq =
            lang_is_obj(items[i], &lang_list_type) || lang_is_obj(items[i], &lang_tuple_type);
        if (!seq && !(t && t->ndim >= 1 && nn_tensor_numel(t) != 1)) return false;
    }
    return true;
}

#define PLOT_MAX_SERIES 16

static void show(lang_vm *vm, char *svg, char *text) {
    lang_mime m;
    lang_mime_init(&m);
    lang_mime_add(&m, "text/plain", text);
    lang_mime_add(&m, "image/svg+xml", svg);
    lang_vm_display(vm, &m, NULL, false);
    lang_mime_free(&m);
}

static bool f_plot(lang_vm *vm, const lang_args *a, lang_val *out) {
    static const char *const allowed[] = {"labels", "label",  "logy", "title",
                                          "xlabel", "ylabel", NULL};
    if (!check_kwargs(vm, a, "plot", allowed)) return false;
    lang_val series[PLOT_MAX_SERIES];
    int ns = 0;
    for (int i = 0; i < a->n; i++) {
        if (is_list_of_series(a->pos[i])) {
            int64_t n = lang_seq_len(a->pos[i]);
            for (int64_t j = 0; j < n && ns < PLOT_MAX_SERIES; j++)
                series[ns++] = lang_seq_items(a->pos[i])[j];
        } else if (ns < PLOT_MAX_SERIES) {
            series[ns++] = a->pos[i];
        }
    }
    if (ns == 0)
        return lang_raise(vm, LANG_ERR_TYPE, "plot() needs at least one series: plot(losses)");
    lang_plot_spec spec = {0};
    const lang_val *logy = kwarg(a, "logy");
    if (logy && !lang_to_bool(vm, *logy, "logy", &spec.logy)) return false;
    if (!opt_str(vm, a, "title", &spec.title) || !opt_str(vm, a, "xlabel", &spec.xlabel) ||
        !opt_str(vm, a, "ylabel", &spec.ylabel))
        return false;
    lang_plot_series s[PLOT_MAX_SERIES];
    memset(s, 0, sizeof s);
    const lang_val *labels = kwarg(a, "labels");
    const lang_val *label = kwarg(a, "label");
    if (label && lang_is_obj(*label, &lang_str_type)) s[0].label = lang_str_cstr(*label);
    if (labels && labels->kind != LANG_NONE) {
        if (lang_is_obj(*labels, &lang_str_type)) {
            s[0].label = lang_str_cstr(*labels);
        } else if (lang_is_obj(*labels, &lang_list_type) ||
                   lang_is_obj(*labels, &lang_tuple_type)) {
            int64_t n = lang_seq_len(*labels);
            for (int64_t i = 0; i < n && i < ns; i++) {
                lang_val l = lang_seq_items(*labels)[i];
                if (!lang_is_obj(l, &lang_str_type))
                    return lang_raise(vm, LANG_ERR_TYPE, "labels must be strings, not %s",
                                      lang_type_name(l));
                s[i].label = lang_str_cstr(l);
            }
        } else {
            return lang_raise(vm, LANG_ERR_TYPE, "labels must be a list of str, not %s",
                              lang_type_name(*labels));
        }
    }
    double *vals[PLOT_MAX_SERIES] = {0};
    bool ok = true;
    for (int i = 0; i < ns && ok; i++) {
        ok = values_of(vm, series[i], "plot", &vals[i], &s[i].n);
        s[i].y = vals[i];
    }
    if (ok) show(vm, lang_plot_svg(s, ns, &spec), lang_plot_text(s, ns, &spec));
    for (int i = 0; i < ns; i++) free(vals[i]);
    if (!ok) return false;
    *out = lang_none();
    return true;
}

static bool f_hist(lang_vm *vm, const lang_args *a, lang_val *out) {
    lang_val x = lang_none(), bins_v = lang_int(30), title_v = lang_none();
    if (!lang_parse_args(vm, a, "hist", "input|bins,title", &x, &bins_v, &title_v)) return false;
    int64_t bins;
    if (!lang_to_int(vm, bins_v, "bins", &bins)) return false;
    if (bins < 1 || bins > 1000)
        return lang_raise(vm, LANG_ERR_VALUE, "hist(): bins must be between 1 and 1000, got %lld",
                          (long long)bins);
    const char *title = NULL;
    if (title_v.kind != LANG_NONE) {
        if (!lang_is_obj(title_v, &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "title must be a str, not %s",
                              lang_type_name(title_v));
        title = lang_str_cstr(title_v);
    }
    double *v;
    int64_t n;
    if (!values_of(vm, x, "hist", &v, &n)) return false;
    show(vm, lang_hist_svg(v, n, (int)bins, title), lang_hist_text(v, n, (int)bins, title));
    free(v);
    *out = lang_none();
    return true;
}

/* display(*values, display_id=None) and update_display(value, display_id=):
 * IPython's pair. With an id, a front end that can (Jupyter) replaces the
 * output shown under it later; the terminal shows the latest form. */
static bool show_values(lang_vm *vm, const lang_val *vals, int n, const char *id, bool update) {
    for (int i = 0; i < n; i++) {
        lang_mime m;
        lang_mime_init(&m);
        if (!lang_display_value(vm, vals[i], &m)) {
            lang_mime_free(&m);
            return false;
        }
        lang_vm_display(vm, &m, id, update);
        lang_mime_free(&m);
    }
    return true;
}

static bool display_id_arg(lang_vm *vm, const lang_args *a, const char *fname, bool required,
                           const char **id) {
    *id = NULL;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwnames[k], "display_id") != 0)
            return lang_raise(vm, LANG_ERR_TYPE, "%s() got an unexpected keyword argument '%s'",
                              fname, a->kwnames[k]);
        if (a->kw[k].kind == LANG_NONE) continue;
        if (!lang_is_obj(a->kw[k], &lang_str_type))
            return lang_raise(vm, LANG_ERR_TYPE, "%s(): display_id must be a str, not %s", fname,
                              lang_type_name(a->kw[k]));
        *id = lang_str_cstr(a->kw[k]);
    }
    if (required && !*id)
        return lang_raise(vm, LANG_ERR_TYPE, "%s() needs display_id='...'", fname);
    return true;
}

static bool f_display(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *id;
    if (!display_id_arg(vm, a, "display", false, &id) || !show_values(vm, a->pos, a->n, id, false))
        return false;
    *out = lang_none();
    return true;
}

static bool f_update_display(lang_vm *vm, const lang_args *a, lang_val *out) {
    const char *id;
    if (!display_id_arg(vm, a, "update_display", true, &id)) return false;
    if (a->n != 1)
        return lang_raise(vm, LANG_ERR_TYPE, "update_display() takes 1 value, got %d", a->n);
    if (!show_values(vm, a->pos, 1, id, true)) return false;
    *out = lang_none();
    return true;
}

/* ---- progress(iterable): a tqdm-like wrapper ----
 * Iterating it iterates the inner iterable and reports progress to the
 * front end (a bar on stderr in the terminal, an updating output in
 * Jupyter), at most every 100 ms and once at the end. */
typedef struct progress_obj {
    lang_obj base;
    lang_vm *vm;
    lang_val inner; /* the iterator */
    int64_t done, total;
    double last;
    bool finished;
    char id[32];
    char desc[96];
} progress_obj;

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The text is the description only: each front end draws the count and the
 * bar itself from [done] and [total], so the count appears once. */
static void progress_report(progress_obj *p, bool final) {
    lang_vm_progress(p->vm, p->id, p->done, final ? p->done : p->total, p->desc);
}

static void progress_free(lang_obj *o) {
    progress_obj *p = (progress_obj *)o;
    if (!p->finished) progress_report(p, true); /* a loop left early still closes its bar */
    lang_val_release(p->inner);                 /* the runtime frees the object itself */
}

static bool progress_iter(lang_vm *vm, lang_obj *o, lang_val *out) {
    o->refcount++;
    *out = lang_obj_val(o);
    return true;
}

static bool progress_next(lang_vm *vm, lang_obj *o, lang_val *out, bool *done) {
    progress_obj *p = (progress_obj *)o;
    if (!lang_next(vm, p->inner, out, done)) return false;
    if (*done) {
        if (!p->finished) {
            p->finished = true;
            progress_report(p, true);
        }
        return true;
    }
    p->done++;
    double t = now_seconds();
    if (t - p->last >= 0.1) {
        p->last = t;
        progress_report(p, false);
    }
    return true;
}

static bool progress_repr(lang_vm *vm, lang_obj *o, lang_buf *out) {
    progress_obj *p = (progress_obj *)o;
    lang_buf_printf(out, "<progress %lld/%lld>", (long long)p->done, (long long)p->total);
    return true;
}

static const lang_type progress_type = {
    .name = "progress",
    .free = progress_free,
    .repr = progress_repr,
    .iter = progress_iter,
    .next = progress_next,
};

static bool f_progress(lang_vm *vm, const lang_args *a, lang_val *out) {
    static int counter;
    lang_val it, totalv = lang_none(), descv = lang_none();
    if (!lang_parse_args(vm, a, "progress", "iterable|total,desc", &it, &totalv, &descv))
        return false;
    int64_t total = 0;
    if (totalv.kind != LANG_NONE) {
        if (!lang_to_int(vm, totalv, "total", &total)) return false;
    } else if (it.kind == LANG_OBJ && it.u.o->type->len) {
        if (!it.u.o->type->len(vm, it.u.o, &total)) return false;
    }
    if (descv.kind != LANG_NONE && !lang_is_obj(descv, &lang_str_type))
        return lang_raise(vm, LANG_ERR_TYPE, "progress(): desc must be a str");
    lang_val inner;
    if (!lang_iter(vm, it, &inner)) return false;
    progress_obj *p = lang_obj_new(vm, &progress_type, sizeof *p);
    if (!p) {
        lang_val_release(inner);
        return false;
    }
    p->vm = vm;
    p->inner = inner;
    p->total = total < 0 ? 0 : total;
    p->last = now_seconds();
    snprintf(p->id, sizeof p->id, "progress-%d", ++counter);
    snprintf(p->desc, sizeof p->desc, "%s", descv.kind == LANG_NONE ? "" : lang_str_cstr(descv));
    progress_report(p, false);
    *out = lang_obj_val(&p->base);
    return true;
}

const lang_builtin_def lang_plot_builtins[] = {
    {"plot",
     f_plot,
     {"plot", "plot(*series, labels=None, logy=False, title=None, xlabel=None, ylabel=None)",
      "Show one or more curves (lists of numbers or 1-D tensors, one point per step) as they "
      "are called: an SVG chart in Jupyter, Unicode sparklines with min/max/last in the "
      "terminal. Series share one y scale; logy=True plots log10 of the values. Non-finite "
      "points are skipped and counted. Returns None.",
      "plot(losses, val_losses, labels=['train', 'val'], logy=True, title='loss')"}},
    {"hist",
     f_hist,
     {"hist", "hist(input, bins=30, title=None)",
      "Show the distribution of a tensor's (or a list's) finite values in [bins] equal bins "
      "between its min and max: an SVG histogram in Jupyter, horizontal bars in the terminal, "
      "with n, mean and std. Returns None.",
      "hist(model[0].weight.grad, bins=20, title='layer 0 grads')"}},
    {"display",
     f_display,
     {"display", "display(*values, display_id=None)",
      "Show each value's rich form now (a tensor as an HTML table with statistics in "
      "Jupyter), as IPython's display() does. With display_id, update_display() can replace "
      "the output later. Returns None.",
      "display(x, display_id='weights')"}},
    {"update_display",
     f_update_display,
     {"update_display", "update_display(value, display_id)",
      "Replace the output shown by display(..., display_id=...) with [value]'s rich form (in "
      "Jupyter the old output changes in place; the terminal prints the new one).",
      "update_display(losses[-1], display_id='loss')"}},
    {"progress",
     f_progress,
     {"progress", "progress(iterable, total=None, desc=None)",
      "Iterate over [iterable] and show progress as you go: a bar on stderr in the terminal, "
      "an output that updates in place in Jupyter (like tqdm). total defaults to len(iterable) "
      "when it has one.",
      "for step in progress(range(1000), desc='train'):\n    ..."}},
    {NULL, NULL, {NULL, NULL, NULL, NULL}},
};
