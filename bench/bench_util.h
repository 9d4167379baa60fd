/* bench_util: what the C benchmark programs share: a monotonic clock, the
 * median of a set of timings, and the RESULT line of a training benchmark
 * that bench/compare.py reads. Header-only: each benchmark source is its own
 * program. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "nn_anomaly.h"
#include "nn_blas.h"
#include "nn_ctx.h"
#include "nn_optim.h"

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (all its threads), in seconds. */
static inline double bench_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of t[0..n); sorts t. */
static inline double bench_median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, bench_cmp_double);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* The RESULT line of a training-step benchmark: median ms per step, peak
 * resident memory, the first and last loss, the BLAS kernel set and, when
 * [median_cpu_seconds] is not NaN, the median CPU time of a step (cpu_ms). */
static inline void bench_print_train_result_cpu(double median_seconds, double first, double last,
                                                double median_cpu_seconds) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("RESULT ms=%.6g maxrss_kib=%ld loss_first=%.6f loss_last=%.6f core=%s",
           median_seconds * 1e3, ru.ru_maxrss, first, last, nn_blas_corename());
    if (median_cpu_seconds == median_cpu_seconds) printf(" cpu_ms=%.6g", median_cpu_seconds * 1e3);
    printf("\n");
}

static inline void bench_print_train_result(double median_seconds, double first, double last) {
    bench_print_train_result_cpu(median_seconds, first, last, NAN);
}

/* NNDB_BENCH_ANOMALY=1: the NaN hunt's per-node work, as %anomaly on does
 * it (the debugger's hook runs nn_anomaly_check after every forward and
 * backward node, and scans the parameters after each optimizer step). */
static nn_hook_action bench_anomaly_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    nn_anomaly a;
    if (!ev->after || !nn_anomaly_check(ev, &a)) return NN_HOOK_CONTINUE;
    nn_error_set(&ctx->err, NN_ERR_STOPPED, "anomaly");
    return NN_HOOK_STOP;
}

static inline bool bench_anomaly_on(nn_ctx *ctx) {
    const char *e = getenv("NNDB_BENCH_ANOMALY");
    if (!e || strcmp(e, "1") != 0) return false;
    nn_hook_add(ctx, "anomaly", bench_anomaly_hook, NULL);
    return true;
}

/* After a step: whether every parameter is still finite. */
static inline bool bench_params_finite(const nn_optim *opt) {
    for (int i = 0; i < nn_optim_num_params(opt); i++)
        if (nn_tensor_nonfinite(nn_optim_param(opt, i), NULL, NULL)) return false;
    return true;
}

#endif
