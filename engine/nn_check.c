/* gradcheck, summaries, the activation capture and batch dependencies (see
 * nn_check.h). */
#include "nn_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_ops.h"

nn_gradcheck_opts nn_gradcheck_defaults(void) {
    nn_gradcheck_opts o = {1e-6, 1e-5, 1e-3, 0, 0};
    return o;
}

/* ---- gradcheck ---- */

typedef struct gc_state {
    nn_check_fn f;
    void *user;
    nn_tensor *proj; /* r for a projected output, or NULL until the first call */
    bool projected;
    nn_rng rng;
    int64_t calls;
} gc_state;

/* f reduced to the scalar the check differentiates: out, or sum(out * r). */
static nn_tensor *scalar_of(nn_ctx *ctx, gc_state *g) {
    g->calls++;
    nn_tensor *out = g->f(ctx, g->user);
    if (!out) return NULL;
    if (!nn_dtype_is_float(out->dtype)) {
        nn_error_set(&ctx->err, NN_ERR_TYPE,
                     "gradcheck: the function returned a %s tensor; it must return a float "
                     "tensor that depends on the inputs",
                     nn_dtype_name(out->dtype));
        nn_tensor_release(out);
        return NULL;
    }
    nn_tensor *o64 = nn_to(ctx, out, NN_FLOAT64);
    nn_tensor_release(out);
    if (!o64) return NULL;
    int64_t n = nn_tensor_numel(o64);
    if (n == 1) {
        nn_tensor *s = nn_reshape(ctx, o64, 0, NULL);
        nn_tensor_release(o64);
        return s;
    }
    if (!g->proj) {
        g->projected = true;
        g->proj = nn_tensor_empty(ctx, NN_FLOAT64, o64->ndim, o64->shape);
        if (!g->proj) {
            nn_tensor_release(o64);
            return NULL;
        }
        double *d = nn_tensor_data(g->proj);
        for (int64_t k = 0; k < n; k++) d[k] = nn_rng_normal(&g->rng);
    } else if (!nn_tensor_same_shape(g->proj, o64)) {
        nn_tensor_release(o64);
        nn_error_set(&ctx->err, NN_ERR_SHAPE,
                     "gradcheck: the function's output changed shape between calls");
        return NULL;
    }
    nn_tensor *prod = nn_mul(ctx, o64, g->proj);
    nn_tensor_release(o64);
    if (!prod) return NULL;
    nn_tensor *s = nn_sum(ctx, prod, NULL, 0, false);
    nn_tensor_release(prod);
    return s;
}

static nn_status scalar_value(nn_ctx *ctx, gc_state *g, double *v) {
    nn_tensor *s = scalar_of(ctx, g);
    if (!s) return ctx->err.code;
    nn_status st = nn_tensor_item(ctx, s, v);
    nn_tensor_release(s);
    return st;
}

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* [k] distinct indices below [n], sorted (Floyd's sampling). */
static void sample_indices(nn_rng *rng, int64_t n, int64_t k, int64_t *out) {
    int64_t m = 0;
    for (int64_t j = n - k; j < n; j++) {
        int64_t t = (int64_t)nn_rng_below(rng, (uint64_t)j + 1);
        bool seen = false;
        for (int64_t q = 0; q < m && !seen; q++) seen = out[q] == t;
        out[m++] = seen ? j : t;
    }
    qsort(out, (size_t)m, sizeof *out, cmp_i64);
}

static nn_status check_inputs(nn_ctx *ctx, nn_tensor *const *ts, const char *const *names, int n) {
    for (int i = 0; i < n; i++) {
        const nn_tensor *t = ts[i];
        if (t->dtype != NN_FLOAT64 || !nn_tensor_is_leaf(t) || !t->requires_grad)
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "gradcheck: %s must be a float64 leaf that requires grad (it is "
                                "%s%s)",
                                names[i], nn_dtype_name(t->dtype),
                                !nn_tensor_is_leaf(t) ? ", not a leaf" : "");
    }
    return NN_OK;
}

nn_status nn_gradcheck(nn_ctx *ctx, nn_check_fn f, void *user, nn_tensor *const *tensors,
                       const char *const *names, int n, const nn_gradcheck_opts *opts,
                       nn_gradcheck_result *out) {
    memset(out, 0, sizeof *out);
    nn_gradcheck_opts o = opts ? *opts : nn_gradcheck_defaults();
    out->opts = o;
    if (!(o.eps > 0) || !(o.atol >= 0) || !(o.rtol >= 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "gradcheck: eps must be > 0 and atol, rtol >= 0 (got eps=%g, "
                            "atol=%g, rtol=%g)",
                            o.eps, o.atol, o.rtol);
    if (n <= 0)
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "gradcheck: nothing to check: no input requires grad and there are "
                            "no parameters");
    if (check_inputs(ctx, tensors, names, n)) return ctx->err.code;
    out->entries = calloc((size_t)n, sizeof *out->entries);
    nn_tensor **analytic = calloc((size_t)n, sizeof *analytic);
    nn_tensor **saved = calloc((size_t)n, sizeof *saved);
    if (!out->entries || !analytic || !saved) {
        free(analytic);
        free(saved);
        free(out->entries);
        out->entries = NULL;
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "gradcheck: out of memory");
    }
    out->n = n;
    gc_state g;
    memset(&g, 0, sizeof g);
    g.f = f;
    g.user = user;
    nn_rng_seed(&g.rng, o.seed ^ 0x5eedc0ffee11ull);
    nn_rng pick;
    nn_rng_seed(&pick, o.seed);
    nn_status st = NN_OK;

    /* Analytic: one backward, with the tensors' own gradients set aside. */
    for (int i = 0; i < n; i++) {
        saved[i] = tensors[i]->grad;
        tensors[i]->grad = NULL;
    }
    bool prev = nn_ctx_set_grad(ctx, true);
    nn_tensor *s = scalar_of(ctx, &g);
    if (!s || !s->requires_grad) {
        if (s)
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "gradcheck: the output does not depend on any checked tensor (no "
                         "grad_fn); did the function run under no_grad or detach?");
        st = ctx->err.code;
    } else {
        st = nn_backward(ctx, s, NULL, false);
    }
    nn_tensor_release(s);
    nn_ctx_set_grad(ctx, prev);
    for (int i = 0; i < n; i++) {
        analytic[i] = tensors[i]->grad;
        tensors[i]->grad = saved[i];
    }
    out->projected = g.projected;

    /* Numeric: central differences, one entry at a time, under no_grad. */
    prev = nn_ctx_set_grad(ctx, false);
    for (int i = 0; i < n && !st; i++) {
        nn_tensor *t = tensors[i];
        nn_gradcheck_entry *e = &out->entries[i];
        snprintf(e->name, sizeof e->name, "%s", names[i]);
        e->ndim = t->ndim;
        memcpy(e->shape, t->shape, sizeof e->shape);
        e->reached = analytic[i] != NULL;
        e->pass = true;
        e->worst = -1;
        int64_t numel = nn_tensor_numel(t);
        int64_t k = o.samples > 0 && o.samples < numel ? o.samples : numel;
        int64_t *idx = malloc(sizeof *idx * (size_t)(k ? k : 1));
        if (!idx) {
            st = nn_error_set(&ctx->err, NN_ERR_MEMORY, "gradcheck: out of memory");
            break;
        }
        if (k == numel)
            for (int64_t j = 0; j < k; j++) idx[j] = j;
        else
            sample_indices(&pick, numel, k, idx);
        double worst_excess = -INFINITY;
        for (int64_t q = 0; q < k && !st; q++) {
            if (nn_ctx_check_interrupt(ctx)) {
                st = ctx->err.code;
                break;
            }
            int64_t j = idx[q];
            double x0 = nn_tensor_get_flat(t, j), fp = 0, fm = 0;
            nn_tensor_set_flat(t, j, x0 + o.eps);
            st = scalar_value(ctx, &g, &fp);
            if (!st) {
                nn_tensor_set_flat(t, j, x0 - o.eps);
                st = scalar_value(ctx, &g, &fm);
            }
            nn_tensor_set_flat(t, j, x0);
            if (st) break;
            double num = (fp - fm) / (2 * o.eps);
            double ana = analytic[i] ? nn_tensor_get_flat(analytic[i], j) : 0;
            double err = fabs(ana - num);
            double scale = fmax(fabs(ana), fabs(num));
            double rel = scale > 0 ? err / scale : 0;
            double excess = err - (o.atol + o.rtol * fabs(num));
            if (!(err == err)) excess = INFINITY; /* NaN fails */
            if (excess > 0) e->pass = false;
            if (err > e->max_abs || !(err == err)) e->max_abs = err;
            if (rel > e->max_rel) e->max_rel = rel;
            if (excess > worst_excess) {
                worst_excess = excess;
                e->worst = j;
                e->analytic = ana;
                e->numeric = num;
            }
            e->checked++;
        }
        free(idx);
        if (!e->pass) out->pass = false;
    }
    nn_ctx_set_grad(ctx, prev);
    if (!st) {
        out->pass = true;
        for (int i = 0; i < n; i++) out->pass &= out->entries[i].pass;
    }
    out->f_calls = g.calls;
    for (int i = 0; i < n; i++) nn_tensor_release(analytic[i]);
    free(analytic);
    free(saved);
    nn_tensor_release(g.proj);
    if (st) nn_gradcheck_result_free(out);
    return st;
}

void nn_gradcheck_result_free(nn_gradcheck_result *r) {
    if (!r) return;
    free(r->entries);
    r->entries = NULL;
    r->n = 0;
}

/* ---- summaries ---- */

void nn_summarize(const nn_tensor *t, nn_summary *s) {
    memset(s, 0, sizeof *s);
    s->min = INFINITY;
    s->max = -INFINITY;
    int64_t n = nn_tensor_numel(t);
    double mean = 0, m2 = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = nn_tensor_get_flat(t, i);
        if (!isfinite(v)) {
            s->nonfinite++;
            continue;
        }
        s->n++;
        double d = v - mean;
        mean += d / (double)s->n;
        m2 += d * (v - mean);
        if (v < s->min) s->min = v;
        if (v > s->max) s->max = v;
    }
    s->mean = s->n ? mean : NAN;
    s->std = s->n > 1 ? sqrt(m2 / (double)(s->n - 1)) : NAN;
    if (!s->n) s->min = s->max = NAN;
}

/* ---- activation capture ---- */

static nn_capture_item *capture_slot(nn_capture *c, const char *module) {
    for (int i = 0; i < c->n; i++)
        if (c->items[i].module == module) return &c->items[i];
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 32;
        nn_capture_item *grown = realloc(c->items, sizeof *grown * (size_t)cap);
        if (!grown) return NULL;
        c->items = grown;
        c->cap = cap;
    }
    nn_capture_item *it = &c->items[c->n++];
    memset(it, 0, sizeof *it);
    it->module = module;
    return it;
}

static nn_hook_action capture_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    nn_capture *c = user;
    const char *module = ev->node->label.module;
    if (!ev->after || !module) return NN_HOOK_CONTINUE;
    if (ev->phase == NN_PHASE_FORWARD) {
        if (!ev->output || !nn_dtype_is_float(ev->output->dtype)) return NN_HOOK_CONTINUE;
        nn_capture_item *it = capture_slot(c, module);
        if (!it) {
            c->oom = true;
            return NN_HOOK_CONTINUE;
        }
        nn_tensor *d = nn_tensor_detach(ctx, ev->output);
        if (!d) {
            c->oom = true;
            return NN_HOOK_CONTINUE;
        }
        nn_tensor_release(it->out);
        nn_tensor_release(it->grad);
        it->grad = NULL;
        it->out = d;
        it->op = ev->node->op;
        it->seq = ev->node->seq;
        return NN_HOOK_CONTINUE;
    }
    if (!c->grads || !ev->grad_output) return NN_HOOK_CONTINUE;
    for (int i = 0; i < c->n; i++) {
        nn_capture_item *it = &c->items[i];
        if (it->module != module || it->seq != ev->node->seq) continue;
        nn_tensor_release(it->grad);
        it->grad = nn_tensor_detach(ctx, ev->grad_output);
        if (!it->grad) c->oom = true;
    }
    return NN_HOOK_CONTINUE;
}

nn_status nn_capture_start(nn_ctx *ctx, nn_capture *c, bool grads) {
    memset(c, 0, sizeof *c);
    c->ctx = ctx;
    c->grads = grads;
    c->hook = nn_hook_add(ctx, "activations", capture_hook, c);
    if (!c->hook)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                            "activations: the hook table is full (%d hooks); remove a "
                            "breakpoint or profiler first",
                            NN_MAX_HOOKS);
    return NN_OK;
}

void nn_capture_stop(nn_capture *c) {
    if (c->hook) nn_hook_remove(c->ctx, c->hook);
    c->hook = 0;
}

void nn_capture_free(nn_capture *c) {
    if (!c) return;
    nn_capture_stop(c);
    for (int i = 0; i < c->n; i++) {
        nn_tensor_release(c->items[i].out);
        nn_tensor_release(c->items[i].grad);
    }
    free(c->items);
    c->items = NULL;
    c->n = c->cap = 0;
}

/* ---- batch dependencies ---- */

typedef struct dep_hook {
    nn_tensor *ids;   /* int64 input whose embedding lookups we watch */
    double *row_norm; /* per batch row */
    int64_t batch;
} dep_hook;

/* Backward of an embedding lookup of the watched ids: d loss / d looked-up
 * vectors, whose first dim is the batch. */
static nn_hook_action dep_hook_fn(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    (void)ctx;
    dep_hook *h = user;
    const nn_node *nd = ev->node;
    if (ev->phase != NN_PHASE_BACKWARD || ev->after || nd->op != NN_OP_EMBEDDING || nd->n_in < 2 ||
        nd->in[1].t != h->ids || !ev->grad_output)
        return NN_HOOK_CONTINUE;
    const nn_tensor *g = ev->grad_output;
    if (g->ndim < 1 || g->shape[0] != h->batch) return NN_HOOK_CONTINUE;
    int64_t n = nn_tensor_numel(g), per = h->batch ? n / h->batch : 0;
    for (int64_t k = 0; k < n; k++)
        h->row_norm[per ? k / per : 0] += fabs(nn_tensor_get_flat(g, k));
    return NN_HOOK_CONTINUE;
}

nn_status nn_dependencies(nn_ctx *ctx, nn_check_fn f, void *user, nn_tensor *x, int64_t i,
                          nn_tensor **xcopy_for_f, nn_dependency_result *out) {
    memset(out, 0, sizeof *out);
    if (x->ndim < 1 || x->shape[0] < 1)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "dependencies: the batch needs a first (batch) dim; got a 0-dim "
                            "or empty tensor");
    int64_t b = x->shape[0];
    if (i < -b || i >= b)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "dependencies: example %lld is out of range for a batch of %lld",
                            (long long)i, (long long)b);
    if (i < 0) i += b;
    bool ids = x->dtype == NN_INT64;
    if (!ids && !nn_dtype_is_float(x->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "dependencies: the batch must be float (features) or int64 (token "
                            "ids), not %s",
                            nn_dtype_name(x->dtype));
    out->batch = b;
    out->row_norm = calloc((size_t)b, sizeof *out->row_norm);
    if (!out->row_norm) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
    nn_tensor *xc = NULL;
    if (ids) {
        xc = nn_tensor_retain(x);
    } else {
        xc = nn_tensor_empty(ctx, x->dtype, x->ndim, x->shape);
        if (xc && nn_tensor_copy_(ctx, xc, x)) {
            nn_tensor_release(xc);
            xc = NULL;
        }
        if (xc) xc->requires_grad = true;
    }
    if (!xc) {
        nn_dependency_result_free(out);
        return ctx->err.code;
    }
    *xcopy_for_f = xc;
    dep_hook h = {xc, out->row_norm, b};
    int hid = 0;
    if (ids) {
        hid = nn_hook_add(ctx, "dependencies", dep_hook_fn, &h);
        if (!hid) {
            nn_tensor_release(xc);
            nn_dependency_result_free(out);
            return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "dependencies: the hook table is full");
        }
    }
    bool prev = nn_ctx_set_grad(ctx, true);
    nn_status st = NN_OK;
    nn_tensor *y = f(ctx, user);
    nn_tensor *row = NULL, *s = NULL;
    if (!y)
        st = ctx->err.code;
    else if (y->ndim < 1 || y->shape[0] != b)
        st = nn_error_set(&ctx->err, NN_ERR_SHAPE,
                          "dependencies: the output's first dim must be the batch (%lld); the "
                          "output has %d dims%s",
                          (long long)b, y->ndim, y->ndim ? " and another first size" : "");
    if (!st) row = nn_select(ctx, y, 0, i);
    if (!st && !row) st = ctx->err.code;
    if (row) s = nn_sum(ctx, row, NULL, 0, false);
    if (row && !s) st = ctx->err.code;
    if (s && !s->requires_grad)
        st = nn_error_set(&ctx->err, NN_ERR_VALUE,
                          "dependencies: the output does not depend on the batch through "
                          "autograd%s",
                          ids ? " (no embedding looked these ids up)" : "");
    if (!st && s) st = nn_backward(ctx, s, NULL, false);
    nn_ctx_set_grad(ctx, prev);
    if (hid) nn_hook_remove(ctx, hid);
    if (!st && !ids && xc->grad) {
        const nn_tensor *g = xc->grad;
        int64_t n = nn_tensor_numel(g), per = n / b;
        for (int64_t k = 0; k < n; k++) out->row_norm[k / per] += fabs(nn_tensor_get_flat(g, k));
    }
    nn_tensor_release(s);
    nn_tensor_release(row);
    nn_tensor_release(y);
    nn_tensor_release(xc);
    *xcopy_for_f = NULL;
    if (st) {
        nn_dependency_result_free(out);
        return st;
    }
    out->rows = malloc(sizeof *out->rows * (size_t)b);
    if (!out->rows) {
        nn_dependency_result_free(out);
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "out of memory");
    }
    for (int64_t r = 0; r < b; r++)
        if (r != i && out->row_norm[r] != 0) out->rows[out->n_rows++] = r;
    return NN_OK;
}

void nn_dependency_result_free(nn_dependency_result *r) {
    if (!r) return;
    free(r->rows);
    free(r->row_norm);
    r->rows = NULL;
    r->row_norm = NULL;
    r->n_rows = 0;
}
