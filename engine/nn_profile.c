/* The per-op profiler (see nn_profile.h).
 *
 * The hook keeps one open-addressed table of (op, module, phase) cells; the
 * module pointer is the node label's interned string, so equal paths are
 * equal pointers. The before call stamps the clock and the after call adds
 * the elapsed time: ops run one at a time on a context (ops called inside an
 * op run without hooks), so one stamp is enough.
 */
#include "nn_profile.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn_ops.h"

#define CELLS 4096 /* power of two; a GPT step uses a few hundred */

typedef struct cell {
    bool used;
    nn_op op;
    const char *module;
    nn_phase phase;
    int64_t calls;
    double seconds, flops, bytes_read, bytes_written;
} cell;

struct nn_profile {
    nn_ctx *ctx;
    int hook;
    struct timespec t0;
    cell cells[CELLS];
    cell overflow; /* when the table is full (never seen in practice) */
};

static double elapsed(const struct timespec *a, const struct timespec *b) {
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) * 1e-9;
}

static cell *find_cell(nn_profile *p, nn_op op, const char *module, nn_phase phase) {
    uintptr_t h = ((uintptr_t)module >> 4) * 2654435761u + (uintptr_t)op * 40503u + phase;
    for (int probe = 0; probe < CELLS; probe++) {
        cell *c = &p->cells[(h + (uintptr_t)probe) & (CELLS - 1)];
        if (!c->used) {
            c->used = true;
            c->op = op;
            c->module = module;
            c->phase = phase;
            return c;
        }
        if (c->op == op && c->module == module && c->phase == phase) return c;
    }
    return &p->overflow;
}

static nn_hook_action profile_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    (void)ctx;
    nn_profile *p = user;
    if (!ev->after) {
        clock_gettime(CLOCK_MONOTONIC, &p->t0);
        return NN_HOOK_CONTINUE;
    }
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    const nn_node *n = ev->node;
    cell *c = find_cell(p, n->op, n->label.module, ev->phase);
    nn_op_cost cost;
    nn_node_cost(n, ev->output, ev->phase, &cost);
    c->calls++;
    c->seconds += elapsed(&p->t0, &t1);
    c->flops += cost.flops;
    c->bytes_read += cost.bytes_read;
    c->bytes_written += cost.bytes_written;
    return NN_HOOK_CONTINUE;
}

nn_profile *nn_profile_start(nn_ctx *ctx) {
    nn_profile *p = calloc(1, sizeof *p);
    if (!p) {
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "profile: out of memory");
        return NULL;
    }
    p->ctx = ctx;
    p->overflow.used = true;
    p->overflow.op = NN_OP_COUNT;
    p->hook = nn_hook_add(ctx, "profile", profile_hook, p);
    if (p->hook) nn_hook_set_timing_only(ctx, p->hook);
    if (!p->hook) {
        free(p);
        nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                     "profile: the hook table is full (%d hooks); remove a breakpoint first",
                     NN_MAX_HOOKS);
        return NULL;
    }
    return p;
}

void nn_profile_stop(nn_profile *p) {
    if (p && p->hook) nn_hook_remove(p->ctx, p->hook);
    if (p) p->hook = 0;
}

void nn_profile_free(nn_profile *p) {
    nn_profile_stop(p);
    free(p);
}

static int by_time_desc(const void *a, const void *b) {
    const nn_profile_row *x = a, *y = b;
    if (x->seconds != y->seconds) return x->seconds < y->seconds ? 1 : -1;
    int k = strcmp(x->key, y->key);
    return k ? k : (int)x->phase - (int)y->phase;
}

int nn_profile_rows(const nn_profile *p, bool by_module, nn_profile_row **out) {
    nn_profile_row *rows = calloc(CELLS + 1, sizeof *rows);
    if (!rows) return -1;
    int n = 0;
    for (int i = 0; i <= CELLS; i++) {
        const cell *c = i < CELLS ? &p->cells[i] : &p->overflow;
        if (!c->used || !c->calls) continue;
        const char *key = by_module              ? (c->module ? c->module : "")
                          : c->op == NN_OP_COUNT ? "(other)"
                                                 : nn_op_name(c->op);
        nn_profile_row *r = NULL;
        for (int j = 0; j < n && !r; j++)
            if (rows[j].phase == c->phase && !strcmp(rows[j].key, key)) r = &rows[j];
        if (!r) {
            r = &rows[n++];
            r->key = key;
            r->phase = c->phase;
        }
        r->calls += c->calls;
        r->seconds += c->seconds;
        r->flops += c->flops;
        r->bytes_read += c->bytes_read;
        r->bytes_written += c->bytes_written;
    }
    qsort(rows, (size_t)n, sizeof *rows, by_time_desc);
    *out = rows;
    return n;
}

double nn_profile_seconds(const nn_profile *p, nn_phase phase) {
    double s = 0;
    for (int i = 0; i < CELLS; i++)
        if (p->cells[i].used && p->cells[i].phase == phase) s += p->cells[i].seconds;
    if (p->overflow.phase == phase) s += p->overflow.seconds;
    return s;
}

static double sgemm_peak; /* GFLOP/s, 0 until measured */

double nn_sgemm_peak_gflops(nn_ctx *ctx) {
    if (sgemm_peak > 0) return sgemm_peak;
    const int64_t n = 512;
    int64_t shape[2] = {n, n};
    nn_tensor *a = nn_ones(ctx, NN_FLOAT32, 2, shape);
    nn_tensor *b = a ? nn_ones(ctx, NN_FLOAT32, 2, shape) : NULL;
    double best = 0;
    for (int rep = 0; b && rep < 5; rep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        nn_tensor *c = nn_matmul(ctx, a, b);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (!c) break;
        nn_tensor_release(c);
        double dt = elapsed(&t0, &t1);
        double rate = dt > 0 ? 2.0 * (double)(n * n * n) / dt * 1e-9 : 0;
        if (rate > best) best = rate;
    }
    nn_tensor_release(a);
    nn_tensor_release(b);
    if (best > 0) sgemm_peak = best;
    return best;
}
