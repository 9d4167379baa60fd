/* nn_profile: the per-op profiler, a hook on the one executor. While a
 * profile is running it times every forward and backward node (the op's
 * kernel, between the before and after hook calls) and adds the node's FLOPs
 * and bytes (nn_node_cost, counted next to each op) to a row keyed by (op,
 * module path, phase). Rows are then read aggregated by op or by module.
 *
 * Ownership: nn_profile_start returns a profile the caller frees with
 * nn_profile_free (which stops it first and accepts NULL). Row arrays from
 * nn_profile_rows are malloc'ed (free()); their strings live as long as the
 * context (op names are static, module paths interned).
 */
#ifndef NN_PROFILE_H
#define NN_PROFILE_H

#include "nn_ctx.h"

typedef struct nn_profile nn_profile;

typedef struct nn_profile_row {
    const char *key; /* op name, or module path ("" for nodes outside modules) */
    nn_phase phase;
    int64_t calls;
    double seconds;
    double flops, bytes_read, bytes_written;
} nn_profile_row;

/* Start profiling [ctx] (registers a hook). NULL with ctx->err set when the
 * hook table is full or memory runs out. */
nn_profile *nn_profile_start(nn_ctx *ctx);
/* Remove the hook; the rows stay. */
void nn_profile_stop(nn_profile *p);
void nn_profile_free(nn_profile *p);

/* Rows aggregated by op (by_module false) or by module path, both phases,
 * sorted by time, longest first. Returns the count (*out malloc'ed), or -1
 * when out of memory. */
int nn_profile_rows(const nn_profile *p, bool by_module, nn_profile_row **out);
/* Time spent in profiled nodes of [phase]. */
double nn_profile_seconds(const nn_profile *p, nn_phase phase);

/* This machine's float32 matrix-product rate in GFLOP/s, the best of a few
 * 512 x 512 x 512 products through the engine's matmul; measured on the first
 * call and cached for the process. 0 with ctx->err set when it cannot run. */
double nn_sgemm_peak_gflops(nn_ctx *ctx);

#endif
