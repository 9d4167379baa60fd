/* nn_dist: data parallelism over MPI (Debian's OpenMPI), loaded with dlopen
 * on nn_dist_init so nndb starts and runs without it.
 *
 * One process group per process (MPI_COMM_WORLD): collectives on tensors
 * (contiguous float32, float64 or int64, in place where PyTorch's are),
 * DistributedDataParallel's gradient buckets started from the executor's
 * backward hooks (nonblocking all-reduce, so communication overlaps the rest
 * of the backward pass), PyTorch's DistributedSampler order and a
 * cross-rank parameter check (ZeRO-1 is Python over the collectives,
 * python/torch/distributed/optim/). Every wait polls with a deadline (the
 * group's timeout), so a rank that died or diverged gives an error, not a
 * hang. Shapes and dtypes are compared across ranks before each
 * user-facing collective; a mismatch names both shapes and both ranks.
 *
 * Ownership: tensors are borrowed; nn_dist_ddp_new retains what it keeps
 * and nn_dist_ddp_free releases it.
 */
#ifndef NN_DIST_H
#define NN_DIST_H

#include "nn_rng.h"
#include "nn_tensor.h"

typedef enum nn_dist_op {
    NN_DIST_SUM,
    NN_DIST_AVG,
    NN_DIST_MAX,
    NN_DIST_MIN,
    NN_DIST_PRODUCT
} nn_dist_op;

const char *nn_dist_op_name(nn_dist_op op); /* "SUM", ... */

/* ---- the process group ----
 * nn_dist_init loads libmpi, initialises MPI and reads rank and size. A
 * missing libmpi is NN_ERR_RUNTIME saying which package to install.
 * [timeout_s] <= 0 keeps the current timeout (default 300 s, or the
 * NNDB_DIST_TIMEOUT environment variable). */
nn_status nn_dist_init(nn_error *err, double timeout_s);
bool nn_dist_is_initialized(void);
int nn_dist_rank(void);       /* 0 when not initialized */
int nn_dist_world_size(void); /* 1 when not initialized */
double nn_dist_timeout(void);
void nn_dist_set_timeout(double seconds);
/* MPI_Finalize; afterwards nn_dist_is_initialized is false and MPI cannot
 * be initialised again in this process (MPI's rule). */
nn_status nn_dist_destroy(nn_error *err);
/* End every rank (MPI_Abort), after an uncaught error on this one. */
void nn_dist_abort(int code);
/* Bytes this rank handed to collectives as payload since init (DDP's
 * buckets included), for the bytes-per-step figure. */
uint64_t nn_dist_bytes_reduced(void);

/* ---- collectives (every rank calls them in the same order) ---- */
nn_status nn_dist_barrier(nn_ctx *ctx);
nn_status nn_dist_all_reduce(nn_ctx *ctx, nn_tensor *t, nn_dist_op op);
nn_status nn_dist_broadcast(nn_ctx *ctx, nn_tensor *t, int src);
/* [out] holds world_size copies of [in]'s numel, rank-major. */
nn_status nn_dist_all_gather_into(nn_ctx *ctx, nn_tensor *out, nn_tensor *in);
/* [in] holds world_size blocks of [out]'s numel; rank r gets block r reduced. */
nn_status nn_dist_reduce_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, nn_dist_op op);
nn_status nn_dist_reduce(nn_ctx *ctx, nn_tensor *t, int dst, nn_dist_op op);
/* [out] (world_size blocks) only on [dst]; NULL elsewhere. */
nn_status nn_dist_gather(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, int dst);
/* [in] (world_size blocks) only on [src]; NULL elsewhere. */
nn_status nn_dist_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, int src);

/* ---- async_op=True ----
 * The same checks as the blocking calls (the cross-rank header is still
 * exchanged first), then a nonblocking MPI collective left running. The
 * handle keeps the tensors alive; nn_dist_work_wait finishes it (ReduceOp.AVG
 * divides then), nn_dist_work_test says whether it has (1), not yet (0) or
 * failed (-1, ctx->err). Freeing an unfinished handle waits for it first. */
typedef struct nn_dist_work nn_dist_work;
nn_dist_work *nn_dist_all_reduce_async(nn_ctx *ctx, nn_tensor *t, nn_dist_op op);
nn_dist_work *nn_dist_broadcast_async(nn_ctx *ctx, nn_tensor *t, int src);
nn_dist_work *nn_dist_barrier_async(nn_ctx *ctx);
nn_dist_work *nn_dist_all_gather_into_async(nn_ctx *ctx, nn_tensor *out, nn_tensor *in);
nn_dist_work *nn_dist_reduce_scatter_async(nn_ctx *ctx, nn_tensor *out, nn_tensor *in,
                                           nn_dist_op op);

/* ---- point to point (send/recv, isend/irecv; MPI's matching by source and
 * tag, in order) ----
 * A rank cannot send to or receive from itself; tag >= 0. [src] < 0 on a
 * receive takes the first message from any rank: *from (or
 * nn_dist_work_source once done) says which. The handles are the same
 * nn_dist_work as async collectives'. */
nn_status nn_dist_send(nn_ctx *ctx, nn_tensor *t, int dst, int tag);
nn_status nn_dist_recv(nn_ctx *ctx, nn_tensor *t, int src, int tag, int *from);
nn_dist_work *nn_dist_isend(nn_ctx *ctx, nn_tensor *t, int dst, int tag);
nn_dist_work *nn_dist_irecv(nn_ctx *ctx, nn_tensor *t, int src, int tag);
/* The sender of a finished receive; -1 for anything else or before it ends. */
int nn_dist_work_source(const nn_dist_work *w);

nn_status nn_dist_work_wait(nn_ctx *ctx, nn_dist_work *w);
int nn_dist_work_test(nn_ctx *ctx, nn_dist_work *w);
void nn_dist_work_free(nn_dist_work *w);

/* ---- where this rank is, for the others' timeout messages ----
 * The debugger calls this with where it stopped ("forward linear in
 * model.0, x.nn:4") before its prompt and with NULL after: a rank whose
 * collective times out meanwhile says that this rank is in the debugger. */
void nn_dist_set_stopped(const char *where);

/* ---- FullyShardedDataParallel's unsharded flat parameter ----
 * A 1-D tensor whose bytes can be dropped and brought back while views of it
 * (the module's parameters, the tensors autograd saved for backward) stay
 * alive, as PyTorch's FSDP resizes its flat parameter's storage to 0 between
 * uses. Between nn_dist_flat_free and nn_dist_flat_alloc the views must not
 * be read (FSDP re-gathers into it before its backward). The bytes come from
 * nn_mem, so the allocator's in_use and peak count them. */
nn_tensor *nn_dist_flat_new(nn_ctx *ctx, nn_dtype dt, int64_t numel);
void nn_dist_flat_free(nn_tensor *t);
nn_status nn_dist_flat_alloc(nn_ctx *ctx, nn_tensor *t); /* contents undefined */
bool nn_dist_flat_is_allocated(const nn_tensor *t);
/* Bring [flat]'s bytes back and all-gather every rank's [shard] into them
 * (the storage version is not bumped: to autograd it is the same value). */
nn_status nn_dist_flat_gather(nn_ctx *ctx, nn_tensor *flat, nn_tensor *shard);
/* [out] = rank r's block of [in] summed over ranks / world (the average). */
nn_status nn_dist_flat_reduce_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in);

/* ---- DistributedDataParallel ----
 * Broadcasts rank 0's [params] and [buffers] at creation, then averages
 * the parameters' gradients across ranks during every backward pass: the
 * parameters go into buckets of about [bucket_bytes] (<= 0: 25 MiB; the
 * first at most 1 MiB, as PyTorch's) in reverse order of [params], and a bucket's all-reduce starts
 * as soon as the backward pass has produced all its gradients (a hook on the executor), so it
 * overlaps the rest of the pass. The pass waits for all of them at its end. */
typedef struct nn_dist_ddp nn_dist_ddp;
nn_dist_ddp *nn_dist_ddp_new(nn_ctx *ctx, nn_tensor *const *params, int n_params,
                             nn_tensor *const *buffers, int n_buffers, double bucket_bytes);
void nn_dist_ddp_free(nn_ctx *ctx, nn_dist_ddp *d);
/* find_unused_parameters=True: parameters a backward pass does not reach
 * are ready at its start (reduced as zeros where another rank used them;
 * untouched where no rank did). False (the default, PyTorch's): such a
 * pass averages nothing and the next nn_dist_ddp_pre_forward fails with
 * PyTorch's "Expected to have finished reduction ..." naming them. */
void nn_dist_ddp_set_find_unused(nn_dist_ddp *d, bool on);
nn_status nn_dist_ddp_pre_forward(nn_ctx *ctx, nn_dist_ddp *d);
/* Rank 0's [bufs] everywhere (broadcast_buffers, before each forward):
 * their count and dtypes and shapes are checked across ranks first. */
nn_status nn_dist_sync_buffers(nn_ctx *ctx, nn_tensor *const *bufs, int n);
/* While off (no_sync), backward accumulates gradients locally. */
void nn_dist_ddp_set_sync(nn_dist_ddp *d, bool on);
bool nn_dist_ddp_sync(const nn_dist_ddp *d);
/* Average instead of only summing: false plants the "summed, not
 * averaged" bug the drill teaches (gradient_as_sum=True). */
void nn_dist_ddp_set_average(nn_dist_ddp *d, bool on);
int nn_dist_ddp_num_buckets(const nn_dist_ddp *d);
/* Parameter indices of bucket [b] in launch order: *n of them. */
const int *nn_dist_ddp_bucket(const nn_dist_ddp *d, int b, int *n);
/* All-reduces the last backward started before its end (overlap measure). */
int nn_dist_ddp_started_early(const nn_dist_ddp *d);

/* ---- DistributedSampler ----
 * PyTorch's algorithm: the indices 0..len-1, shuffled by randperm from
 * [gen] (the caller seeds it with seed + epoch, as PyTorch seeds a fresh
 * torch.Generator), padded by repeating from the start (or, with
 * drop_last, cut) to a multiple of replicas, then every replicas-th from
 * rank. Since nn_rng is PyTorch's CPU generator, the order is PyTorch's. */
typedef struct nn_dist_sampler {
    int64_t len;
    int replicas, rank;
    bool shuffle, drop_last;
} nn_dist_sampler;
int64_t nn_dist_sampler_num_samples(const nn_dist_sampler *s);
/* *out: a malloc'ed array of nn_dist_sampler_num_samples indices (free()). */
nn_status nn_dist_sampler_indices(nn_ctx *ctx, const nn_dist_sampler *s, nn_rng *gen, int64_t **out,
                                  int64_t *n);

/* ---- dist_check ----
 * Compare every parameter's checksum (sum and sum of squares in float64,
 * and the bytes' FNV-1a hash) with rank 0's. Returns NN_OK with *first set
 * to the index of the first parameter that differs on some rank (-1 when
 * none) and *bad_rank to the lowest such rank. */
nn_status nn_dist_check(nn_ctx *ctx, nn_tensor *const *params, int n, int *first, int *bad_rank);

#endif
