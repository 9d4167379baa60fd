/* Tests for nn_format and nn_plot: tensor reprs against PyTorch's own (cases from
 * tests/torch/ref_display.py in build/ref/display.txt), the HTML bundle,
 * and the plots' SVG (checked well-formed by Python's XML parser) and
 * terminal text. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nn_buf.h"
#include "nn_format.h"
#include "nn_plot.h"
#include "testutil.h"

static char *read_line(FILE *f, char *buf, size_t cap) {
    if (!fgets(buf, (int)cap, f)) return NULL;
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n') buf[n - 1] = 0;
    return buf;
}

/* Build the tensor of one case: dtype, flag, shape and values from the
 * file, then dressed as the flag says. */
static nn_tensor *case_tensor(nn_ctx *ctx, const char *dts, const char *flag, int ndim,
                              const int64_t *shape, char *values) {
    nn_dtype dt = !strcmp(dts, "float32")   ? NN_FLOAT32
                  : !strcmp(dts, "float64") ? NN_FLOAT64
                  : !strcmp(dts, "int64")   ? NN_INT64
                                            : NN_BOOL;
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) n *= shape[i];
    nn_tensor *t = nn_tensor_empty(ctx, dt, ndim, shape);
    if (!t) return NULL;
    char *p = values, *end;
    for (int64_t i = 0; i < n; i++) {
        while (*p == ' ') p++;
        if (dt == NN_INT64) {
            ((int64_t *)nn_tensor_data(t))[i] = strtoll(p, &end, 10);
        } else {
            double v = strtod(p, &end);
            nn_tensor_set_flat(t, i, v);
        }
        p = end;
    }
    if (!strcmp(flag, "rg")) {
        nn_tensor_requires_grad_(ctx, t, true);
    } else if (!strcmp(flag, "mul")) {
        nn_tensor_requires_grad_(ctx, t, true);
        nn_tensor *m = nn_mul_scalar(ctx, t, 1.0);
        nn_tensor_release(t);
        t = m;
    } else if (!strcmp(flag, "t")) {
        nn_tensor *v = nn_transpose(ctx, t, 0, 1);
        nn_tensor_release(t);
        t = v;
    }
    return t;
}

NN_TEST(display_repr_matches_torch) {
    const char *dir = getenv("NNDB_REF_DIR") ? getenv("NNDB_REF_DIR") : "build/ref";
    char path[512];
    snprintf(path, sizeof path, "%s/display.txt", dir);
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "%s: %s (run tests/torch/ref_display.py)", path, strerror(errno));
    if (!f) return;
    nn_ctx *ctx = nn_ctx_new(0);
    static char line[1 << 16], values[1 << 18];
    int cases = 0, failed = 0;
    while (read_line(f, line, sizeof line)) {
        char name[128], dts[16], flag[16];
        int ndim, used = 0;
        if (sscanf(line, "case %127s %15s %15s %d%n", name, dts, flag, &ndim, &used) != 4) continue;
        int64_t shape[NN_MAX_DIMS];
        char *p = line + used;
        for (int i = 0; i < ndim; i++) shape[i] = strtoll(p, &p, 10);
        if (!read_line(f, values, sizeof values) || strncmp(values, "values", 6)) break;
        int nlines = 0;
        if (!read_line(f, line, sizeof line) || sscanf(line, "expect %d", &nlines) != 1) break;
        nn_buf want;
        nn_buf_init(&want);
        for (int i = 0; i < nlines && read_line(f, line, sizeof line); i++) {
            if (i) nn_buf_puts(&want, "\n");
            nn_buf_puts(&want, line);
        }
        nn_tensor *t = case_tensor(ctx, dts, flag, ndim, shape, values + 6);
        CHECK_MSG(t != NULL, "%s: %s", name, nn_ctx_error(ctx));
        if (t) {
            nn_buf got;
            nn_buf_init(&got);
            nn_format_tensor_repr(t, NULL, NULL, &got);
            const char *g = got.data ? got.data : "", *w = want.data ? want.data : "";
            if (strcmp(g, w)) {
                failed++;
                fprintf(stderr, "  repr %s differs from torch's:\n--- torch\n%s\n--- nndb\n%s\n",
                        name, w, g);
            }
            nn_buf_free(&got);
            nn_tensor_release(t);
        }
        nn_buf_free(&want);
        cases++;
    }
    fclose(f);
    nn_ctx_free(ctx);
    CHECK_MSG(cases >= 50, "only %d cases read from %s", cases, path);
    CHECK_MSG(failed == 0, "%d of %d reprs differ from torch's", failed, cases);
}

NN_TEST(display_grad_fn_names) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *x = nn_randn(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 3));
    nn_tensor_requires_grad_(ctx, x, true);
    nn_tensor *one = nn_scalar_wrapped(ctx, 1.0);
    nn_tensor *a = nn_add(ctx, x, one), *r = nn_sub(ctx, one, x),
              *s = nn_sum(ctx, x, NULL, 0, false);
    nn_tensor *sd = nn_sum(ctx, x, TU_SHAPE(1), 1, false), *m = nn_matmul(ctx, x, a);
    CHECK(m == NULL); /* 2x3 @ 2x3 */
    nn_ctx_clear_error(ctx);
    nn_tensor *xt = nn_transpose(ctx, x, 0, 1), *mm = nn_matmul(ctx, x, xt);
    CHECK(!strcmp(nn_format_grad_fn_name(a), "AddBackward0"));
    CHECK(!strcmp(nn_format_grad_fn_name(r), "RsubBackward1"));
    CHECK(!strcmp(nn_format_grad_fn_name(s), "SumBackward0"));
    CHECK(!strcmp(nn_format_grad_fn_name(sd), "SumBackward1"));
    CHECK(!strcmp(nn_format_grad_fn_name(mm), "MmBackward0"));
    CHECK(nn_format_grad_fn_name(x) == NULL);
    nn_buf b;
    nn_buf_init(&b);
    nn_format_tensor_repr(s, NULL, NULL, &b);
    CHECK(strstr(b.data, ", grad_fn=<SumBackward0>)") != NULL);
    nn_buf_free(&b);
    nn_tensor *ts[] = {x, one, a, r, s, sd, xt, mm};
    for (size_t i = 0; i < sizeof ts / sizeof ts[0]; i++) nn_tensor_release(ts[i]);
    nn_ctx_free(ctx);
}

NN_TEST(display_html_has_stats) {
    nn_ctx *ctx = nn_ctx_new(0);
    nn_tensor *t = tu_tensor(ctx, NN_FLOAT32, 2, TU_SHAPE(2, 2), TU_VALS(1, 2, NAN, 4));
    nn_buf b;
    nn_buf_init(&b);
    nn_format_tensor_html(t, NULL, &b);
    CHECK(strstr(b.data, "shape [2, 2]") != NULL);
    CHECK(strstr(b.data, "torch.float32") != NULL);
    CHECK(strstr(b.data, "<td>2.333</td>") != NULL);            /* mean of the finite values */
    CHECK(strstr(b.data, "<td>1</td><td>0</td></tr>") != NULL); /* one nan, no inf */
    CHECK(strstr(b.data, ">nan<") != NULL);
    /* The caption is not a <caption> (as narrow as the stats table, it wrapped). */
    CHECK(strstr(b.data, "<caption") == NULL);
    CHECK(strstr(b.data, "white-space:nowrap\"><b>Tensor</b> shape [2, 2]") != NULL);
    nn_buf_free(&b);
    nn_tensor_release(t);
    /* One element: std is undefined, shown as a dash, never "nan". */
    t = tu_tensor(ctx, NN_FLOAT32, 1, TU_SHAPE(1), TU_VALS(3));
    nn_buf_init(&b);
    nn_format_tensor_html(t, NULL, &b);
    CHECK_MSG(
        strstr(b.data, "<tr><td>1</td><td>3</td><td title=\"undefined\">\u2014</td><td>3</td>"),
        "%s", b.data);
    CHECK_MSG(strstr(b.data, "<td>nan<") == NULL, "%s", b.data);
    nn_buf_free(&b);
    nn_tensor_release(t);
    nn_ctx_free(ctx);
}

/* Python's XML parser accepts [svg]. Skipped (true) when Python is absent. */
static bool svg_well_formed(const char *svg) {
    const char *py = getenv("PYTHON") ? getenv("PYTHON") : "/usr/bin/python3";
    char cmd[600];
    snprintf(cmd, sizeof cmd,
             "%s -c 'import sys, xml.etree.ElementTree as E; "
             "r = E.fromstring(sys.stdin.read()); "
             "sys.exit(0 if r.tag.endswith(\"svg\") else 3)' 2>/dev/null",
             py);
    FILE *p = popen(cmd, "w");
    if (!p) return true;
    fputs(svg, p);
    int st = pclose(p);
    return st == 0 || st == 127 << 8;
}

NN_TEST(display_plot_svg_and_text) {
    double loss[50], val[50];
    for (int i = 0; i < 50; i++) {
        loss[i] = 2.3 * exp(-i / 10.0) + 0.05;
        val[i] = loss[i] * 1.2;
    }
    val[10] = NAN;
    val[11] = INFINITY;
    nn_plot_series s[2] = {{loss, 50, "train <a&b>"}, {val, 50, NULL}};
    nn_plot_spec spec = {"loss & \"steps\"", "step", "loss", false};
    char *svg = nn_plot_svg(s, 2, &spec);
    CHECK(svg && svg_well_formed(svg));
    CHECK(strstr(svg, "train &lt;a&amp;b&gt;") != NULL);
    CHECK(strstr(svg, "series 2") != NULL);
    CHECK(strstr(svg, "2 non-finite points skipped") != NULL);
    free(svg);
    spec.logy = true;
    svg = nn_plot_svg(s, 2, &spec);
    CHECK(svg && svg_well_formed(svg));
    free(svg);
    /* A log axis over two decades (0.05 to 2.35) has minor ticks at 2..9
     * times each power of ten, with 0.2 and 0.5 labelled besides the decades. */
    nn_plot_series one_series = {loss, 50, NULL};
    svg = nn_plot_svg(&one_series, 1, &spec);
    CHECK(svg && svg_well_formed(svg));
    CHECK(strstr(svg, ">0.1</text>") && strstr(svg, ">1</text>"));
    CHECK_MSG(strstr(svg, ">0.2</text>") && strstr(svg, ">0.5</text>") && strstr(svg, ">2</text>"),
              "%s", svg);
    int minors = 0;
    for (const char *q = svg; (q = strstr(q, "class=\"minor\"")); q++) minors++;
    CHECK_MSG(minors >= 12, "%d minor ticks", minors); /* 0.06..0.09, 0.2..0.9, 2 */
    free(svg);
    char *text = nn_plot_text(s, 2, &spec);
    CHECK(strstr(text, "\u2588") != NULL && strstr(text, "\u2581") != NULL);
    CHECK(strstr(text, "last 0.06713") != NULL);
    CHECK(strstr(text, "2 non-finite or non-positive skipped") != NULL);
    CHECK(strstr(text, "(log scale)") != NULL);
    free(text);
    /* A single point and an all-NaN series must not break either form. */
    double one = 3.0, bad[2] = {NAN, NAN};
    nn_plot_series s2[2] = {{&one, 1, "one"}, {bad, 2, "bad"}};
    nn_plot_spec plain = {NULL, NULL, NULL, false};
    svg = nn_plot_svg(s2, 2, &plain);
    CHECK(svg && svg_well_formed(svg) && strstr(svg, "<circle") != NULL);
    free(svg);
    text = nn_plot_text(s2, 2, &plain);
    CHECK(strstr(text, "min 3  max 3  last 3") != NULL);
    free(text);
}

NN_TEST(display_hist_svg_and_text) {
    double v[1000];
    for (int i = 0; i < 1000; i++) v[i] = sin(i * 0.37) * 2.0;
    v[7] = NAN;
    char *svg = nn_hist_svg(v, 1000, 20, "weights");
    CHECK(svg && svg_well_formed(svg));
    CHECK(strstr(svg, "1 non-finite value skipped") != NULL);
    free(svg);
    char *text = nn_hist_text(v, 1000, 20, "weights");
    int lines = 0;
    for (const char *p = text; *p; p++) lines += *p == '\n';
    CHECK(lines == 22); /* title, 20 bins, summary */
    CHECK(strstr(text, "n=999") != NULL);
    CHECK(strstr(text, "(1 non-finite skipped)") != NULL);
    free(text);
    double same[3] = {1, 1, 1};
    text = nn_hist_text(same, 3, 4, NULL);
    CHECK(strstr(text, " 3\n") != NULL);
    free(text);
}
