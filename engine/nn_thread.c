/* The engine's worker threads (nn_thread.h). One job at a time: the caller
 * publishes fn/arg/n_tasks under the mutex, bumps the generation and wakes
 * the workers; tasks are claimed with an atomic counter, so the caller runs
 * tasks too and a worker that wakes late finds nothing left. The caller
 * waits until every claimed task has finished. */
#include "nn_thread.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "nn_ctx.h"

#define MAX_WORKERS 63

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;
static pthread_cond_t done_cv = PTHREAD_COND_INITIALIZER;
static int n_workers;         /* started so far */
static uint64_t generation;   /* bumped per job */
static nn_parallel_fn job_fn; /* the job in flight */
static void *job_arg;
static int job_tasks;
/* The claim counter: the job's generation in the high 32 bits, the next
 * task index in the low 32, so a worker that wakes after its job ended
 * cannot claim a task of the next one. */
static _Atomic uint64_t claim;
static atomic_int tasks_done;               /* tasks finished */
static atomic_flag busy = ATOMIC_FLAG_INIT; /* a job is in flight */
static bool atfork_set;

static void run_tasks(uint32_t gen, nn_parallel_fn fn, void *arg, int n) {
    uint64_t c = atomic_load(&claim);
    for (;;) {
        if ((uint32_t)(c >> 32) != gen || (int)(uint32_t)c >= n) return;
        if (!atomic_compare_exchange_weak(&claim, &c, c + 1)) continue;
        int i = (int)(uint32_t)c;
        c++;
        fn(arg, i, n);
        if (atomic_fetch_add(&tasks_done, 1) + 1 == n) {
            pthread_mutex_lock(&mu);
            pthread_cond_broadcast(&done_cv);
            pthread_mutex_unlock(&mu);
        }
    }
}

/* set_flush_denormal's mode: the thread that asks gets it at once, each
 * worker before the first job it runs after the change, so that a job's
 * tasks all see it. */
static atomic_int flush_denormal;

/* FTZ (bit 15: subnormal results become 0) and DAZ (bit 6: subnormal
 * inputs read as 0) of this thread's MXCSR. */
static bool apply_flush_denormal(int on) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned csr = _mm_getcsr();
    _mm_setcsr(on ? csr | 0x8040u : csr & ~0x8040u);
    return true;
#else
    (void)on;
    return false;
#endif
}

bool nn_set_flush_denormal(bool on) {
    atomic_store(&flush_denormal, on ? 1 : 0);
    return apply_flush_denormal(on);
}

static void *worker(void *unused) {
    (void)unused;
    int mode = 0;
    pthread_mutex_lock(&mu);
    uint64_t seen = generation;
    for (;;) {
        while (generation == seen) pthread_cond_wait(&wake, &mu);
        seen = generation;
        nn_parallel_fn fn = job_fn;
        void *arg = job_arg;
        int n = job_tasks;
        pthread_mutex_unlock(&mu);
        int want = atomic_load_explicit(&flush_denormal, memory_order_relaxed);
        if (want != mode) mode = apply_flush_denormal(want) ? want : mode;
        run_tasks((uint32_t)seen, fn, arg, n);
        pthread_mutex_lock(&mu);
    }
    return NULL;
}

/* In a forked child the workers are gone and the locks may be held by a
 * thread that no longer exists: start over. */
static void after_fork_child(void) {
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&wake, NULL);
    pthread_cond_init(&done_cv, NULL);
    n_workers = 0;
    atomic_flag_clear(&busy);
}

static void ensure_workers(int want) {
    if (want > MAX_WORKERS) want = MAX_WORKERS;
    if (!atfork_set) {
        atfork_set = true;
        pthread_atfork(NULL, NULL, after_fork_child);
    }
    while (n_workers < want) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        int rc = pthread_create(&t, &attr, worker, NULL);
        pthread_attr_destroy(&attr);
        if (rc != 0) break;
        n_workers++;
    }
}

static _Atomic int64_t par_min = NN_PAR_MIN_ELEMWISE_DEFAULT;

int64_t nn_par_min_elemwise(void) {
    return atomic_load_explicit(&par_min, memory_order_relaxed);
}

int64_t nn_set_par_min_elemwise(int64_t n) {
    return atomic_exchange(&par_min, n < 1 ? 1 : n > ((int64_t)1 << 40) ? (int64_t)1 << 40 : n);
}

int nn_parallel_tasks(int64_t work, int64_t min_per_task) {
    if (min_per_task < 1) min_per_task = 1;
    if (work / 2 < min_per_task) return 1;
    int threads = nn_get_num_threads();
    if (threads <= 1) return 1;
    int64_t n = work / min_per_task;
    return n < threads ? (int)n : threads;
}

void nn_parallel_run(int n_tasks, nn_parallel_fn fn, void *arg) {
    if (n_tasks <= 1 || atomic_flag_test_and_set(&busy)) {
        for (int i = 0; i < n_tasks; i++) fn(arg, i, n_tasks);
        return;
    }
    pthread_mutex_lock(&mu);
    ensure_workers(n_tasks - 1);
    if (n_workers == 0) { /* no thread could be started */
        pthread_mutex_unlock(&mu);
        atomic_flag_clear(&busy);
        for (int i = 0; i < n_tasks; i++) fn(arg, i, n_tasks);
        return;
    }
    job_fn = fn;
    job_arg = arg;
    job_tasks = n_tasks;
    atomic_store(&tasks_done, 0);
    uint32_t gen = (uint32_t)++generation;
    atomic_store(&claim, (uint64_t)gen << 32);
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&mu);
    run_tasks(gen, fn, arg, n_tasks);
    pthread_mutex_lock(&mu);
    while (atomic_load(&tasks_done) < n_tasks) pthread_cond_wait(&done_cv, &mu);
    pthread_mutex_unlock(&mu);
    atomic_flag_clear(&busy);
}

int64_t nn_aten_part(int64_t n, int64_t grain) {
    int64_t t = nn_get_num_threads();
    if (n <= 1 || n < grain || t <= 1) return n > 0 ? n : 1;
    int64_t parts = (n + grain - 1) / grain;
    parts = parts < t ? parts : t;
    return (n + parts - 1) / parts;
}

void nn_parallel_range(int64_t n, int task, int n_tasks, int64_t align, int64_t *begin,
                       int64_t *end) {
    if (align < 1) align = 1;
    int64_t units = (n + align - 1) / align;
    int64_t b = units * task / n_tasks * align, e = units * (task + 1) / n_tasks * align;
    *begin = b < n ? b : n;
    *end = task == n_tasks - 1 || e > n ? n : e;
}
