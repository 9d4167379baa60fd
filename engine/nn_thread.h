/* nn_thread: the engine's own worker threads, for kernels that split their
 * work across cores (elementwise loops over large tensors, the optimizers'
 * update). The BLAS keeps its own pool; both follow nn_set_num_threads.
 *
 * nn_parallel_run(n, fn, arg) calls fn(arg, i, n) for i in 0..n-1, the
 * calling thread taking part, and returns when all are done. Workers are
 * started on first use and sleep between jobs; a job started from inside a
 * job, or from a thread other than the one that runs ops while a job is in
 * flight, runs serially on its caller. After fork() the child starts
 * without workers and makes its own when it needs them. */
#ifndef NN_THREAD_H
#define NN_THREAD_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*nn_parallel_fn)(void *arg, int task, int n_tasks);

/* How many tasks to split [work] units into: 1 when [work] is below
 * [min_per_task] units per task or one thread is set, else up to the
 * thread count. */
int nn_parallel_tasks(int64_t work, int64_t min_per_task);
void nn_parallel_run(int n_tasks, nn_parallel_fn fn, void *arg);
/* torch.set_flush_denormal: float arithmetic flushes subnormal inputs and
 * results to zero [on] (the processor's DAZ and FTZ modes), in the calling
 * thread and, from their next job, in the workers. False where the
 * processor has no such mode (then nothing changes). */
bool nn_set_flush_denormal(bool on);
/* The part size of ATen's at::parallel_for over [n] items with grain
 * [grain], at nndb's thread count standing for PyTorch's: P = min(threads,
 * ceil(n / grain)) parts of ceil(n / P) items. Where PyTorch's result
 * depends on that split (each part sums, or runs its vector loop, on its
 * own), kernels that give its bits walk these parts. n (one part) when it
 * would not split; at least 1. */
int64_t nn_aten_part(int64_t n, int64_t grain);
/* The half-open range of [n] items that task [task] of [n_tasks] owns,
 * rounded to multiples of [align] items (the last task takes the rest). */
void nn_parallel_range(int64_t n, int task, int n_tasks, int64_t align, int64_t *begin,
                       int64_t *end);

/* Elements per task below which a memory-bound kernel (add, copy, where,
 * the optimizers, layer norm) stays on one thread (NN_PAR_MIN_ELEMWISE in
 * nn_ops_impl.h, which also scales the thresholds of dear kernels and of
 * reductions from it): a tensor splits when it holds at least twice this.
 * Set from a sweep at 2 threads (bench/python/threads.py,
 * docs/benchmarks.md: add gains from about 160K elements);
 * nn_set_par_min_elemwise changes it (for that sweep) and returns the old
 * value. */
#define NN_PAR_MIN_ELEMWISE_DEFAULT 98304
int64_t nn_par_min_elemwise(void);
int64_t nn_set_par_min_elemwise(int64_t n);

#endif
