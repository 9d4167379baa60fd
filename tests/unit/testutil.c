/* before testutil.h, which declares its sgemm helpers after cblas.h */
#include "nn_blas.h"

#include "testutil.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_small_gemm.h"

nn_tensor *tu_tensor(nn_ctx *ctx, nn_dtype dt, int ndim, const int64_t *shape, const double *v) {
    nn_tensor *t = nn_tensor_from_doubles(ctx, dt, ndim, shape, v);
    if (!t) fprintf(stderr, "  tu_tensor: %s\n", nn_ctx_error(ctx));
    return t;
}

static bool near(double a, double e, double rtol, double atol) {
    if (isnan(e)) return isnan(a);
    if (isinf(e)) return a == e;
    return fabs(a - e) <= atol + rtol * fabs(e);
}

bool tu_close(const nn_tensor *t, int ndim, const int64_t *shape, const double *expect, double rtol,
              double atol, const char *what) {
    char a[128], b[128];
    if (!t) {
        fprintf(stderr, "  %s: no tensor\n", what);
        return false;
    }
    bool same = t->ndim == ndim;
    for (int i = 0; same && i < ndim; i++) same = t->shape[i] == shape[i];
    if (!same) {
        fprintf(stderr, "  %s: shape %s, expected %s\n", what, nn_tensor_shape_str(t, a, sizeof a),
                nn_shape_str(b, sizeof b, ndim, shape));
        return false;
    }
    int64_t n = nn_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        if (!near(v, expect[i], rtol, atol)) {
            fprintf(stderr, "  %s: element %lld is %.10g, expected %.10g\n", what, (long long)i, v,
                    expect[i]);
            return false;
        }
    }
    return true;
}

bool tu_close_tensor(const nn_tensor *t, const nn_tensor *expect, double rtol, double atol,
                     const char *what) {
    int64_t n = nn_tensor_numel(expect);
    double *e = malloc(sizeof(double) * (size_t)(n ? n : 1));
    nn_tensor_to_doubles(expect, e);
    bool ok = tu_close(t, expect->ndim, expect->shape, e, rtol, atol, what);
    free(e);
    return ok;
}

/* sum(fn(in) * w) in double, with gradients off. */
static bool eval_loss(nn_ctx *ctx, tu_fn fn, nn_tensor **in, void *arg, const double *w,
                      double *loss) {
    bool prev = nn_ctx_set_grad(ctx, false);
    nn_tensor *out = fn(ctx, in, arg);
    nn_ctx_set_grad(ctx, prev);
    if (!out) return false;
    double s = 0;
    int64_t n = nn_tensor_numel(out);
    for (int64_t i = 0; i < n; i++) s += nn_tensor_get_flat(out, i) * w[i];
    nn_tensor_release(out);
    *loss = s;
    return true;
}

bool tu_gradcheck(nn_ctx *ctx, const char *name, tu_fn fn, nn_tensor **in, int n, void *arg,
                  double eps, double rtol, double atol) {
    for (int i = 0; i < n; i++)
        if (in[i]) nn_tensor_clear_grad(in[i]);
    nn_tensor *out = fn(ctx, in, arg);
    if (!out) {
        fprintf(stderr, "  gradcheck %s: forward failed: %s\n", name, nn_ctx_error(ctx));
        return false;
    }
    int64_t no = nn_tensor_numel(out);
    nn_tensor *w = nn_randn(ctx, out->dtype, out->ndim, out->shape);
    double *wv = malloc(sizeof(double) * (size_t)(no ? no : 1));
    nn_tensor_to_doubles(w, wv);
    bool ok = true;
    if (nn_backward(ctx, out, w, false)) {
        fprintf(stderr, "  gradcheck %s: backward failed: %s\n", name, nn_ctx_error(ctx));
        ok = false;
    }
    nn_tensor_release(out);
    nn_tensor_release(w);
    for (int k = 0; ok && k < n; k++) {
        nn_tensor *x = in[k];
        if (!x || !x->requires_grad) continue;
        nn_tensor *g = nn_tensor_grad(x);
        int64_t nx = nn_tensor_numel(x);
        double worst = 0, worst_a = 0, worst_n = 0;
        int64_t worst_i = -1;
        for (int64_t j = 0; j < nx; j++) {
            double x0 = nn_tensor_get_flat(x, j), lp, lm;
            nn_tensor_set_flat(x, j, x0 + eps);
            bool e1 = eval_loss(ctx, fn, in, arg, wv, &lp);
            nn_tensor_set_flat(x, j, x0 - eps);
            bool e2 = eval_loss(ctx, fn, in, arg, wv, &lm);
            nn_tensor_set_flat(x, j, x0);
            if (!e1 || !e2) {
                fprintf(stderr, "  gradcheck %s: perturbed forward failed: %s\n", name,
                        nn_ctx_error(ctx));
                ok = false;
                break;
            }
            double num = (lp - lm) / (2 * eps);
            double ana = g ? nn_tensor_get_flat(g, j) : 0.0;
            double err = fabs(ana - num) - (atol + rtol * fabs(num));
            if (err > worst || worst_i < 0) {
                worst = err, worst_a = ana, worst_n = num, worst_i = j;
            }
        }
        if (worst_i >= 0 && worst > 0) {
            fprintf(stderr,
                    "  gradcheck %s: input %d element %lld: analytic %.10g, numeric %.10g\n", name,
                    k, (long long)worst_i, worst_a, worst_n);
            ok = false;
        }
    }
    free(wv);
    return ok;
}

/* ---- reference file reader ---- */

typedef struct ref_case {
    char name[128];
    int n_in;
    nn_tensor *in[8];
    bool req[8];
    nn_tensor *out, *up, *grad[8];
} ref_case;

static nn_dtype parse_dtype(const char *s) {
    if (!strcmp(s, "float64")) return NN_FLOAT64;
    if (!strcmp(s, "int64")) return NN_INT64;
    if (!strcmp(s, "bool")) return NN_BOOL;
    return NN_FLOAT32;
}

/* "<dtype> <ndim> <shape...> <values...>" from a token stream. */
static nn_tensor *read_tensor(nn_ctx *ctx, char **save) {
    char *tok = strtok_r(NULL, " \n", save);
    if (!tok) return NULL;
    nn_dtype dt = parse_dtype(tok);
    tok = strtok_r(NULL, " \n", save);
    int ndim = tok ? atoi(tok) : 0;
    int64_t shape[NN_MAX_DIMS], n = 1;
    for (int i = 0; i < ndim; i++) {
        tok = strtok_r(NULL, " \n", save);
        shape[i] = tok ? atoll(tok) : 0;
        n *= shape[i];
    }
    double *v = malloc(sizeof(double) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        tok = strtok_r(NULL, " \n", save);
        v[i] = tok ? strtod(tok, NULL) : NAN;
    }
    nn_tensor *t = nn_tensor_from_doubles(ctx, dt, ndim, shape, v);
    free(v);
    return t;
}

static void case_clear(ref_case *c) {
    for (int i = 0; i < 8; i++) {
        nn_tensor_release(c->in[i]);
        nn_tensor_release(c->grad[i]);
    }
    nn_tensor_release(c->out);
    nn_tensor_release(c->up);
    memset(c, 0, sizeof *c);
}

static double rtol_for(nn_dtype dt) {
    return dt == NN_FLOAT64 ? 1e-9 : 2e-4;
}

static bool run_case(nn_ctx *ctx, ref_case *c, tu_fn fn) {
    char what[200];
    for (int i = 0; i < c->n_in; i++)
        if (c->req[i]) nn_tensor_requires_grad_(ctx, c->in[i], true);
    nn_tensor *out = fn(ctx, c->in, NULL);
    if (!out) {
        fprintf(stderr, "  %s: failed: %s\n", c->name, nn_ctx_error(ctx));
        return false;
    }
    double rtol = rtol_for(c->out->dtype), atol = rtol / 10;
    snprintf(what, sizeof what, "%s output", c->name);
    bool ok = out->dtype == c->out->dtype;
    if (!ok)
        fprintf(stderr, "  %s: dtype %s, expected %s\n", what, nn_dtype_name(out->dtype),
                nn_dtype_name(c->out->dtype));
    ok = ok && tu_close_tensor(out, c->out, rtol, atol, what);
    if (ok && c->up) {
        if (nn_backward(ctx, out, c->up, false)) {
            fprintf(stderr, "  %s: backward failed: %s\n", c->name, nn_ctx_error(ctx));
            ok = false;
        }
        for (int i = 0; ok && i < c->n_in; i++) {
            if (!c->grad[i]) continue;
            snprintf(what, sizeof what, "%s grad of input %d", c->name, i);
            nn_tensor *g = nn_tensor_grad(c->in[i]);
            if (!g) {
                /* PyTorch gave zeros where no gradient flowed. */
                nn_tensor *z = nn_zeros_like(ctx, c->in[i]);
                ok = tu_close_tensor(z, c->grad[i], rtol, atol, what);
                nn_tensor_release(z);
            } else {
                ok = tu_close_tensor(g, c->grad[i], rtol, atol, what);
            }
        }
    }
    nn_tensor_release(out);
    return ok;
}

int tu_run_torch_refs(const char *family, const tu_ref_fn *table, int n_table) {
    const char *dir = getenv("NNDB_REF_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/%s.txt", dir ? dir : "build/ref", family);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "  missing %s: run tests/torch/ref_%s.py (make test does)\n", path, family);
        return 1;
    }
    nn_ctx *ctx = nn_ctx_new(0);
    ref_case c;
    memset(&c, 0, sizeof c);
    int failed = 0, cases = 0;
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    bool *used = calloc((size_t)n_table + 1, sizeof(bool));
    /* Lines can be long (many values): getline grows the buffer. */
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        char *save = NULL, *tag = strtok_r(line, " \n", &save);
        if (!tag) continue;
        if (!strcmp(tag, "case")) {
            case_clear(&c);
            char *nm = strtok_r(NULL, " \n", &save);
            snprintf(c.name, sizeof c.name, "%s", nm ? nm : "?");
        } else if (!strcmp(tag, "in") || !strcmp(tag, "inreq")) {
            if (c.n_in < 8) {
                c.req[c.n_in] = tag[2] == 'r';
                c.in[c.n_in] = read_tensor(ctx, &save);
                c.n_in++;
            }
        } else if (!strcmp(tag, "out")) {
            c.out = read_tensor(ctx, &save);
        } else if (!strcmp(tag, "up")) {
            c.up = read_tensor(ctx, &save);
        } else if (!strcmp(tag, "grad")) {
            char *k = strtok_r(NULL, " \n", &save);
            int i = k ? atoi(k) : 0;
            if (i >= 0 && i < 8) c.grad[i] = read_tensor(ctx, &save);
        } else if (!strcmp(tag, "end")) {
            cases++;
            tu_fn fn = NULL;
            for (int i = 0; i < n_table; i++)
                if (!strcmp(table[i].name, c.name)) fn = table[i].fn, used[i] = true;
            if (!fn) {
                fprintf(stderr, "  %s: case %s has no C function in the table\n", family, c.name);
                failed++;
            } else if (!c.out || !run_case(ctx, &c, fn)) {
                failed++;
            }
            nn_ctx_clear_error(ctx);
        }
    }
    for (int i = 0; i < n_table; i++)
        if (!used[i]) {
            fprintf(stderr, "  %s: C case %s has no reference in %s\n", family, table[i].name,
                    path);
            failed++;
        }
    case_clear(&c);
    free(used);
    free(line);
    fclose(f);
    nn_ctx_free(ctx);
    if (cases == 0) {
        fprintf(stderr, "  %s: no cases in %s\n", family, path);
        failed++;
    }
    return failed;
}

char *tu_read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *p = realloc(b, cap * 2);
            if (!p) {
                free(b);
                b = NULL;
                break;
            }
            b = p;
            cap *= 2;
        }
    }
    fclose(f);
    if (b) b[n] = 0;
    return b;
}

float *tu_random_floats(size_t n, uint32_t seed) {
    float *p = malloc(sizeof(float) * n);
    uint32_t x = seed;
    for (size_t i = 0; p && i < n; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        p[i] = (float)((double)x / 4294967296.0 * 2 - 1);
    }
    return p;
}

tu_raw_sgemm tu_openblas_with_known_order(void) {
    const char *core = nn_blas_corename();
    tu_raw_sgemm blas = (tu_raw_sgemm)(uintptr_t)nn_blas_symbol("cblas_sgemm");
    return blas && (!strcmp(core, "Zen") || !strcmp(core, "Haswell")) ? blas : NULL;
}

int tu_sgemm_differs(tu_raw_sgemm blas, int threads, bool ta, bool tb, int m, int n, int k, int pad,
                     bool zero, const float *pool, size_t pool_n, float *c1, float *c2) {
    int lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
    size_t na = (size_t)lda * (ta ? k : m), nb = (size_t)ldb * (tb ? n : k), nc = (size_t)m * ldc;
    if (na + nb > pool_n) return -1;
    const float *a = pool + (pool_n - na - nb) % 61, *b = a + na;
    for (size_t i = 0; i < nc; i++) c1[i] = c2[i] = zero && i % 5 == 0 ? NAN : pool[i * 7 % pool_n];
    if (!nn_small_sgemm(ta, tb, m, n, k, a, lda, b, ldb, c1, ldc, zero, threads)) return -1;
    blas(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k,
         1.0f, a, lda, b, ldb, zero ? 0.0f : 1.0f, c2, ldc);
    return memcmp(c1, c2, sizeof(float) * nc) != 0;
}

static int sgemm_one(tu_sgemm_run *run, int q, int m, int n, int k, int pad, const char *label,
                     int wide, int shown) {
    int r = run->round++;
    int d = tu_sgemm_differs(run->blas, run->threads, q & 1, q & 2, m, n, k, r % 3 == 1 ? pad : 0,
                             r % 2, run->pool, run->pool_n, run->c1, run->c2);
    if (d > 0 && run->differ++ < shown)
        fprintf(stderr, "%s differs:%s ta %d tb %d m %d n %d k %d\n", label,
                wide < 0 ? ""
                : wide   ? " 512-bit"
                         : " 256-bit",
                q & 1, (q & 2) != 0, m, n, k);
    return d >= 0;
}

int tu_sgemm_shapes(tu_sgemm_run *run, const int (*shapes)[3], size_t count, const char *label) {
    int taken = 0, transposes = TU_SGEMM_SANITIZED ? 1 : 4;
    bool big_done = false;
    for (size_t s = 0; s < count; s++) {
        int m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
        bool big = (int64_t)m * n * k > (int64_t)1 << 30;
        if (TU_SGEMM_SANITIZED && big && big_done) {
            run->skipped += transposes;
            continue;
        }
        big_done |= big;
        for (int t = 0; t < transposes; t++)
            taken += sgemm_one(run, transposes == 4 ? t : (int)(s % 4), m, n, k, 3, label, -1, 5);
    }
    return taken;
}

int tu_sgemm_sweep(tu_sgemm_run *run, const int *ms, size_t nm, const int *ns, size_t nn,
                   const int *ks, size_t nk, int narrow_every, const char *label) {
    int taken = 0;
    for (int wide = 0; wide < 2; wide++) {
        nn_small_sgemm_force_avx2(!wide);
        for (size_t im = 0; im < nm; im++)
            for (size_t in = 0; in < nn; in++)
                for (size_t ik = 0; ik < nk; ik++) {
                    if (!wide && run->round % narrow_every) {
                        run->round++;
                        continue;
                    }
                    taken +=
                        sgemm_one(run, run->round % 4, ms[im], ns[in], ks[ik], 5, label, wide, 10);
                }
    }
    nn_small_sgemm_force_avx2(false);
    return taken;
}
