/* MPI through dlopen, collectives, DDP buckets, the sampler order and dist_check. */
#include "nn_dist.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nn_ctx.h"
#include "nn_mem.h"
#include "nn_random.h"

/* ---- the few MPI types and entry points we use ----
 * Open MPI's C ABI: handles are pointers to objects the library exports
 * (MPI_COMM_WORLD is &ompi_mpi_comm_world, MPI_FLOAT &ompi_mpi_float, ...),
 * MPI_IN_PLACE is (void *)1 and MPI_STATUS_IGNORE is NULL. Declared here, as
 * nn_blas.c declares CBLAS, so the build needs no mpi.h. */
typedef void *mpi_handle; /* MPI_Comm, MPI_Datatype, MPI_Op, MPI_Errhandler */
typedef void *mpi_request;
#define MPI_IN_PLACE_ ((void *)1)

static struct {
    void *lib;
    int (*Initialized)(int *);
    int (*Init)(int *, char ***);
    int (*Finalize)(void);
    int (*Comm_rank)(mpi_handle, int *);
    int (*Comm_size)(mpi_handle, int *);
    int (*Comm_set_errhandler)(mpi_handle, mpi_handle);
    int (*Abort)(mpi_handle, int);
    int (*Test)(mpi_request *, int *, void *);
    int (*Ibarrier)(mpi_handle, mpi_request *);
    int (*Iallreduce)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle, mpi_request *);
    int (*Ibcast)(void *, int, mpi_handle, int, mpi_handle, mpi_request *);
    int (*Iallgather)(const void *, int, mpi_handle, void *, int, mpi_handle, mpi_handle,
                      mpi_request *);
    int (*Ireduce_scatter_block)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle,
                                 mpi_request *);
    int (*Ireduce)(const void *, void *, int, mpi_handle, mpi_handle, int, mpi_handle,
                   mpi_request *);
    int (*Igather)(const void *, int, mpi_handle, void *, int, mpi_handle, int, mpi_handle,
                   mpi_request *);
    int (*Iscatter)(const void *, int, mpi_handle, void *, int, mpi_handle, int, mpi_handle,
                    mpi_request *);
    int (*Isend)(const void *, int, mpi_handle, int, int, mpi_handle, mpi_request *);
    /* Blocking forms: Open MPI's tuned algorithms, about twice as fast as
     * the nonblocking ones (libnbc) for large buffers. */
    int (*Allreduce)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle);
    int (*Bcast)(void *, int, mpi_handle, int, mpi_handle);
    int (*Allgather)(const void *, int, mpi_handle, void *, int, mpi_handle, mpi_handle);
    int (*Reduce_scatter_block)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle);
    int (*Init_thread)(int *, char ***, int, int *);
    int (*Irecv)(void *, int, mpi_handle, int, int, mpi_handle, mpi_request *);
    /* The control channel (a duplicate of MPI_COMM_WORLD): a rank whose
     * collective times out asks the others where they are. */
    int (*Comm_dup)(mpi_handle, mpi_handle *);
    int (*Iprobe)(int, int, mpi_handle, int *, void *);
    int (*Recv)(void *, int, mpi_handle, int, int, mpi_handle, void *);
    int (*Send)(const void *, int, mpi_handle, int, int, mpi_handle);
    int (*Cancel)(mpi_request *);
    int (*Request_free)(mpi_request *);
    mpi_handle comm_world, t_byte, t_float, t_double, t_int64, op_sum, op_max, op_min, op_prod,
        errors_return;
} mpi;

static bool initialized, finalized;
static double now_s(void);
static int my_rank, world = 1;
static double timeout_s = 300;
static uint64_t bytes_reduced;

const char *nn_dist_op_name(nn_dist_op op) {
    static const char *names[] = {"SUM", "AVG", "MAX", "MIN", "PRODUCT"};
    return (unsigned)op < 5 ? names[op] : "?";
}

bool nn_dist_is_initialized(void) {
    return initialized;
}
int nn_dist_rank(void) {
    return initialized ? my_rank : 0;
}
int nn_dist_world_size(void) {
    return initialized ? world : 1;
}
double nn_dist_timeout(void) {
    return timeout_s;
}
void nn_dist_set_timeout(double seconds) {
    if (seconds > 0) timeout_s = seconds;
}
uint64_t nn_dist_bytes_reduced(void) {
    return bytes_reduced;
}

static bool load_mpi(nn_error *err) {
    if (mpi.lib) return true;
    /* RTLD_GLOBAL: Open MPI's own plugins (mca_*.so) resolve symbols in it. */
    const char *names[] = {"libmpi.so.40", "libmpi.so"};
    void *h = NULL;
    for (int i = 0; i < 2 && !h; i++) h = dlopen(names[i], RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        nn_error_set(err, NN_ERR_RUNTIME,
                     "init_process_group(backend=\"mpi\"): cannot load Open MPI (libmpi.so.40: "
                     "%s). Install it with: apt-get install openmpi-bin libopenmpi-dev, then "
                     "launch with mpirun -np 2 nndb run script.nn",
                     dlerror());
        return false;
    }
    struct {
        const char *name;
        void **slot;
        bool object; /* a global object whose address is the handle */
    } syms[] = {
#define F(n) {"MPI_" #n, (void **)&mpi.n, false}
#define O(n, field)                                                                                \
    { n, (void **)&mpi.field, true }
        F(Initialized),
        F(Init),
        F(Finalize),
        F(Comm_rank),
        F(Comm_size),
        F(Comm_set_errhandler),
        F(Abort),
        F(Test),
        F(Ibarrier),
        F(Iallreduce),
        F(Ibcast),
        F(Iallgather),
        F(Ireduce_scatter_block),
        F(Ireduce),
        F(Igather),
        F(Iscatter),
        F(Isend),
        F(Irecv),
        F(Allreduce),
        F(Bcast),
        F(Allgather),
        F(Reduce_scatter_block),
        F(Init_thread),
        F(Comm_dup),
        F(Iprobe),
        F(Recv),
        F(Send),
        F(Cancel),
        F(Request_free),
        O("ompi_mpi_byte", t_byte),
        O("ompi_mpi_comm_world", comm_world),
        O("ompi_mpi_float", t_float),
        O("ompi_mpi_double", t_double),
        O("ompi_mpi_int64_t", t_int64),
        O("ompi_mpi_op_sum", op_sum),
        O("ompi_mpi_op_max", op_max),
        O("ompi_mpi_op_min", op_min),
        O("ompi_mpi_op_prod", op_prod),
        O("ompi_mpi_errors_return", errors_return),
#undef F
#undef O
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *p = dlsym(h, syms[i].name);
        if (!p) {
            nn_error_set(err, NN_ERR_RUNTIME,
                         "init_process_group: %s is not in libmpi.so.40; nndb needs Open MPI "
                         "(Debian's openmpi-bin)",
                         syms[i].name);
            dlclose(h);
            memset(&mpi, 0, sizeof mpi);
            return false;
        }
        *syms[i].slot = p;
    }
    mpi.lib = h;
    return true;
}

/* ---- where each rank is: the control channel ----
 * Every rank keeps a note of what it is doing: the collective it waits in
 * (and how many it has entered), or where it is stopped in the debugger. A
 * rank whose collective passes the timeout asks every other rank for its
 * note over a duplicate of MPI_COMM_WORLD (the control channel: its
 * messages never mix with the user's send/recv), and its error names the
 * ranks that did not join and what they are doing instead. The answers
 * come from each rank's watchdog thread, so a rank busy in other code, or
 * at the debugger's prompt, still answers. A rank that leaves the group
 * tells the others first (TAG_BYE), so they can say it has finished. */
#define TAG_QUERY 1
#define TAG_REPLY 2
#define TAG_BYE   3
#define NOTE_LEN  240

typedef struct mpi_status {
    int source, tag, error, cancelled;
    size_t ucount;
} mpi_status; /* Open MPI's MPI_Status */
#define MPI_ANY_SOURCE_ (-1)

static mpi_handle ctl;
static struct {
    const char *_Atomic cur;  /* the collective this rank waits in, or NULL */
    const char *_Atomic last; /* the last one it entered */
    _Atomic long calls;       /* collectives entered */
    _Atomic int stopped;      /* at the debugger's prompt */
    char where[160];          /* where, while stopped */
} me;
static _Atomic long *peer_bye; /* per rank: 1 + its calls when it left, 0 while in */

static void enter(const char *what) {
    atomic_store(&me.last, what);
    atomic_fetch_add(&me.calls, 1);
    atomic_store(&me.cur, what);
}

static void leave(void) {
    atomic_store(&me.cur, (const char *)NULL);
}

void nn_dist_set_stopped(const char *where) {
    if (where) snprintf(me.where, sizeof me.where, "%s", where);
    atomic_store(&me.stopped, where != NULL);
}

static void my_note(char *buf, size_t size) {
    const char *cur = atomic_load(&me.cur), *last = atomic_load(&me.last);
    if (atomic_load(&me.stopped))
        snprintf(buf, size, "is stopped in the debugger (%s) and waits for its user", me.where);
    else if (cur)
        snprintf(buf, size, "is waiting in %s", cur);
    else if (last)
        snprintf(buf, size, "is running other code, not in a collective (its last was %s)", last);
    else
        snprintf(buf, size, "is running other code and has made no collective call yet");
}

/* The watchdog's half: answer every question waiting on the control channel. */
static void answer_queries(void) {
    for (;;) {
        int flag = 0;
        mpi_status st;
        if (mpi.Iprobe(MPI_ANY_SOURCE_, TAG_QUERY, ctl, &flag, &st) || !flag) break;
        int64_t q;
        if (mpi.Recv(&q, 1, mpi.t_int64, st.source, TAG_QUERY, ctl, NULL)) break;
        char note[NOTE_LEN] = {0};
        my_note(note, sizeof note);
        mpi.Send(note, NOTE_LEN, mpi.t_byte, st.source, TAG_REPLY, ctl);
    }
    for (;;) {
        int flag = 0;
        mpi_status st;
        if (mpi.Iprobe(MPI_ANY_SOURCE_, TAG_BYE, ctl, &flag, &st) || !flag) break;
        int64_t calls = 0;
        if (mpi.Recv(&calls, 1, mpi.t_int64, st.source, TAG_BYE, ctl, NULL)) break;
        if (st.source >= 0 && st.source < world) atomic_store(&peer_bye[st.source], 1 + calls);
    }
}

/* After a timeout in [what]: " rank 1 did not join: it is ...; rank 2 ..."
 * for every rank that is not waiting in the same collective. Waits at most
 * about 1.5 s for the answers. */
static void ask_peers(const char *what, char *out, size_t size) {
    size_t k = 0;
    out[0] = 0;
    if (!ctl || world < 2) return;
    char *notes = calloc((size_t)world, NOTE_LEN);
    mpi_request *reqs = calloc((size_t)world, sizeof *reqs);
    bool *have = calloc((size_t)world, sizeof *have);
    if (!notes || !reqs || !have) {
        free(notes), free(reqs), free(have);
        return;
    }
    int64_t q = atomic_load(&me.calls);
    for (int r = 0; r < world; r++)
        if (r != my_rank && !atomic_load(&peer_bye[r]))
            mpi.Isend(&q, 1, mpi.t_int64, r, TAG_QUERY, ctl, &reqs[r]);
    double deadline = now_s() + 1.5;
    for (int pending = world - 1; pending > 0 && now_s() < deadline;) {
        pending = 0;
        for (int r = 0; r < world; r++) {
            if (r == my_rank || have[r] || atomic_load(&peer_bye[r])) continue;
            int flag = 0;
            mpi_status st;
            if (!mpi.Iprobe(r, TAG_REPLY, ctl, &flag, &st) && flag &&
                !mpi.Recv(notes + (size_t)r * NOTE_LEN, NOTE_LEN, mpi.t_byte, r, TAG_REPLY, ctl,
                          NULL))
                have[r] = true;
            else
                pending++;
        }
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    char mine[NOTE_LEN];
    snprintf(mine, sizeof mine, "is waiting in %s", what);
    int listed = 0;
    for (int r = 0; r < world && k + 1 < size; r++) {
        if (r == my_rank) continue;
        char *note = notes + (size_t)r * NOTE_LEN;
        note[NOTE_LEN - 1] = 0;
        long bye = atomic_load(&peer_bye[r]);
        /* A rank in the same collective did join. */
        if (have[r] && !strcmp(note, mine)) continue;
        int w;
        if (bye)
            w = snprintf(out + k, size - k,
                         "%s rank %d did not join: it has left the process group (its script "
                         "ended, or it called destroy_process_group)",
                         listed ? ";" : "", r);
        else if (have[r])
            w = snprintf(out + k, size - k, "%s rank %d did not join: it %s", listed ? ";" : "", r,
                         note);
        else
            w = snprintf(out + k, size - k,
                         "%s rank %d did not join and did not answer (it may have failed or be "
                         "stuck outside nndb)",
                         listed ? ";" : "", r);
        if (w > 0) k += (size_t)w < size - k ? (size_t)w : size - k - 1;
        listed++;
    }
    if (!listed)
        snprintf(out, size, " every other rank is in %s too (MPI did not finish it)", what);
    free(notes);
    free(reqs); /* unanswered questions are left to MPI */
    free(have);
}

static void timeout_message(const char *what, char *buf, size_t size) {
    char peers[1024];
    ask_peers(what, peers, sizeof peers);
    snprintf(buf, size,
             "%s timed out after %g s on rank %d of %d:%s. Set the limit with "
             "init_process_group(backend=\"mpi\", timeout=SECONDS).",
             what, timeout_s, my_rank, world, peers);
}

/* ---- the watchdog of blocking collectives ----
 * A blocking MPI call cannot be given a deadline, and a collective another
 * rank never joins cannot be cancelled: past the timeout, the watchdog
 * says which call on which rank gave up, and why, and ends every rank
 * (MPI_Abort). The same thread answers the other ranks' questions. */
static struct {
    _Atomic int active;
    const char *what;
    double deadline;
} watch;
static _Atomic int watchdog_stop;
static pthread_t watchdog_thread;
static bool watchdog_running;

static void *watchdog(void *arg) {
    (void)arg;
    while (!atomic_load(&watchdog_stop)) {
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
        answer_queries();
        if (atomic_load(&watch.active) && now_s() > watch.deadline) {
            char msg[1400];
            timeout_message(watch.what, msg, sizeof msg);
            fprintf(stderr, "nndb: %s Ending every rank.\n", msg);
            fflush(stderr);
            mpi.Abort(mpi.comm_world, 1);
            return NULL;
        }
    }
    return NULL;
}

static void watch_begin(const char *what) {
    enter(what);
    watch.what = what;
    watch.deadline = now_s() + timeout_s;
    atomic_store(&watch.active, 1);
}

static void watch_end(void) {
    atomic_store(&watch.active, 0);
    leave();
}

nn_status nn_dist_init(nn_error *err, double timeout) {
    const char *env = getenv("NNDB_DIST_TIMEOUT");
    if (env && atof(env) > 0) timeout_s = atof(env);
    if (timeout > 0) timeout_s = timeout;
    if (initialized) return NN_OK;
    if (finalized)
        return nn_error_set(err, NN_ERR_RUNTIME,
                            "init_process_group: the process group was destroyed, and MPI "
                            "cannot be initialised twice in one process");
    if (!load_mpi(err)) return err->code;
    int already = 0;
    mpi.Initialized(&already);
    /* MPI_THREAD_MULTIPLE (3 in Open MPI): the watchdog thread may call
     * MPI_Abort while this one is inside a collective. */
    int provided = 0;
    if (!already && mpi.Init_thread(NULL, NULL, 3, &provided))
        return nn_error_set(err, NN_ERR_RUNTIME, "init_process_group: MPI_Init failed");
    /* Errors come back as codes (we report them) instead of aborting. */
    mpi.Comm_set_errhandler(mpi.comm_world, mpi.errors_return);
    mpi.Comm_rank(mpi.comm_world, &my_rank);
    mpi.Comm_size(mpi.comm_world, &world);
    peer_bye = calloc((size_t)world, sizeof *peer_bye);
    if (!peer_bye || mpi.Comm_dup(mpi.comm_world, &ctl))
        return nn_error_set(err, NN_ERR_RUNTIME, "init_process_group: MPI_Comm_dup failed");
    initialized = true;
    atomic_store(&watchdog_stop, 0);
    watchdog_running = !pthread_create(&watchdog_thread, NULL, watchdog, NULL);
    return NN_OK;
}

nn_status nn_dist_destroy(nn_error *err) {
    if (!initialized) return NN_OK;
    /* Tell the others this rank has left (a small, eager message each). */
    int64_t calls = atomic_load(&me.calls);
    for (int r = 0; r < world; r++)
        if (r != my_rank) mpi.Send(&calls, 1, mpi.t_int64, r, TAG_BYE, ctl);
    atomic_store(&watchdog_stop, 1);
    if (watchdog_running) pthread_join(watchdog_thread, NULL);
    watchdog_running = false;
    initialized = false;
    finalized = true;
    if (mpi.Finalize())
        return nn_error_set(err, NN_ERR_RUNTIME, "destroy_process_group: MPI_Finalize failed");
    return NN_OK;
}

void nn_dist_abort(int code) {
    if (initialized) mpi.Abort(mpi.comm_world, code);
}

/* ---- waiting with a deadline ---- */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static nn_status not_ready(nn_ctx *ctx, const char *what) {
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "%s: no process group; call init_process_group(backend=\"mpi\") first",
                        what);
}

/* Poll [req] until it completes, the timeout passes or Ctrl-C. MPI_Test
 * drives Open MPI's progress; sched_yield lets an oversubscribed peer run.
 * [status] (may be NULL) gets the finished request's MPI_Status. */
static nn_status wait_req_status(nn_ctx *ctx, mpi_request *req, const char *what,
                                 mpi_status *status) {
    double deadline = now_s() + timeout_s;
    const char *outer = atomic_load(&me.cur);
    if (!outer) enter(what);
    nn_status st = NN_OK;
    for (unsigned spin = 0;; spin++) {
        int done = 0;
        if (mpi.Test(req, &done, status)) {
            st = nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s: MPI reported an error on rank %d",
                              what, my_rank);
            break;
        }
        if (done) break;
        if ((spin & 255) == 255) {
            if (now_s() > deadline) {
                char msg[1400];
                timeout_message(what, msg, sizeof msg);
                st = nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s", msg);
                break;
            }
            if (atomic_load(&ctx->interrupt)) {
                nn_ctx_check_interrupt(ctx);
                st = ctx->err.code;
                break;
            }
        }
        sched_yield();
    }
    if (!outer) leave();
    return st;
}

static nn_status wait_req(nn_ctx *ctx, mpi_request *req, const char *what) {
    return wait_req_status(ctx, req, what, NULL);
}

static mpi_handle mpi_type(nn_dtype dt) {
    return dt == NN_FLOAT32 ? mpi.t_float : dt == NN_FLOAT64 ? mpi.t_double : mpi.t_int64;
}

static mpi_handle mpi_op(nn_dist_op op) {
    switch (op) {
    case NN_DIST_MAX: return mpi.op_max;
    case NN_DIST_MIN: return mpi.op_min;
    case NN_DIST_PRODUCT: return mpi.op_prod;
    default: return mpi.op_sum;
    }
}

static nn_status check_tensor(nn_ctx *ctx, const char *what, const nn_tensor *t) {
    if (!t) return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: a tensor is needed", what);
    if (t->dtype == NN_BOOL)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: bool tensors are not supported (float32, float64 or int64)", what);
    if (!nn_tensor_is_contiguous(t))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: the tensor must be contiguous (call .contiguous() first)", what);
    if (nn_tensor_numel(t) > 0x7fffffff)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: more than 2^31-1 elements", what);
    return NN_OK;
}

static nn_status started(nn_ctx *ctx, int rc, const char *what) {
    if (rc)
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s: MPI could not start it on rank %d",
                            what, my_rank);
    return NN_OK;
}

/* ---- shapes across ranks ----
 * Each rank contributes (dtype, ndim, shape, [extra]) and every rank checks
 * them against rank 0's, so all ranks raise the same error together. */
#define HDR (4 + NN_MAX_DIMS) /* dtype, ndim, shape, collective, extra */

/* Collectives by number, so ranks that call different ones find out. */
static const char *const collectives[] = {
    "?",          "all_reduce", "broadcast", "all_gather_into_tensor",  "reduce_scatter_tensor",
    "reduce",     "gather",     "scatter",   "DistributedDataParallel", "ZeroRedundancyOptimizer",
    "dist_check", NULL};

static int64_t collective_id(const char *what) {
    for (int64_t i = 1; collectives[i]; i++)
        if (!strcmp(collectives[i], what)) return i;
    return 0;
}

static void hdr_str(const int64_t *h, char *buf, size_t size) {
    int k = snprintf(buf, size, "%s [", nn_dtype_name((nn_dtype)h[0]));
    for (int i = 0; i < h[1] && (size_t)k < size; i++)
        k += snprintf(buf + k, size - (size_t)k, "%s%lld", i ? ", " : "", (long long)h[2 + i]);
    if ((size_t)k < size) snprintf(buf + k, size - (size_t)k, "]");
}

static nn_status check_same(nn_ctx *ctx, const char *what, const nn_tensor *t, int64_t extra,
                            const char *extra_name) {
    int64_t mine[HDR] = {0};
    mine[0] = t ? (int64_t)t->dtype : -1;
    mine[1] = t ? t->ndim : 0;
    for (int i = 0; t && i < t->ndim; i++) mine[2 + i] = t->shape[i];
    mine[HDR - 2] = collective_id(what);
    mine[HDR - 1] = extra;
    int64_t *all = malloc(sizeof(int64_t) * HDR * (size_t)world);
    if (!all) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", what);
    mpi_request r;
    nn_status st = started(
        ctx, mpi.Iallgather(mine, HDR, mpi.t_int64, all, HDR, mpi.t_int64, mpi.comm_world, &r),
        what);
    if (!st) st = wait_req(ctx, &r, what);
    for (int k = 1; k < world && !st; k++) {
        const int64_t *a = all, *b = all + (size_t)k * HDR;
        if (a[HDR - 2] != b[HDR - 2]) {
            st = nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                              "ranks called different collectives: rank 0 called %s, rank %d "
                              "called %s; every rank must make the same calls in the same order",
                              collectives[a[HDR - 2]], k, collectives[b[HDR - 2]]);
        } else if (a[HDR - 1] != b[HDR - 1]) {
            st = nn_error_set(&ctx->err, NN_ERR_VALUE,
                              "%s: ranks disagree on %s: rank 0 passed %lld, rank %d passed %lld",
                              what, extra_name, (long long)a[HDR - 1], k, (long long)b[HDR - 1]);
        } else if (t && memcmp(a, b, sizeof(int64_t) * (HDR - 2))) {
            char sa[160], sb[160];
            hdr_str(a, sa, sizeof sa);
            hdr_str(b, sb, sizeof sb);
            st = nn_error_set(&ctx->err, NN_ERR_SHAPE,
                              "%s: the tensors differ across ranks: rank 0 has %s, rank %d has %s",
                              what, sa, k, sb);
        }
    }
    free(all);
    return st;
}

static nn_status prelude(nn_ctx *ctx, const char *what, nn_tensor *t, int64_t extra,
                         const char *extra_name) {
    if (!initialized) return not_ready(ctx, what);
    if (t && check_tensor(ctx, what, t)) return ctx->err.code;
    return check_same(ctx, what, t, extra, extra_name);
}

static nn_status bad_rank(nn_ctx *ctx, const char *what, int r) {
    return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: rank %d is out of range (world size %d)",
                        what, r, world);
}

static void divide(nn_tensor *t, double by) {
    int64_t n = nn_tensor_numel(t);
    /* By a power of two, multiplying by the inverse is exact and gives the
     * same bits as dividing, at a fraction of the cost of a division. */
    int e = 0;
    bool pow2 = by > 0 && frexp(by, &e) == 0.5;
    if (t->dtype == NN_FLOAT32) {
        float *p = nn_tensor_data(t), s = (float)by, inv = 1.0f / s;
        if (pow2)
            for (int64_t i = 0; i < n; i++) p[i] *= inv;
        else
            for (int64_t i = 0; i < n; i++) p[i] /= s;
    } else {
        double *p = nn_tensor_data(t), inv = 1.0 / by;
        if (pow2)
            for (int64_t i = 0; i < n; i++) p[i] *= inv;
        else
            for (int64_t i = 0; i < n; i++) p[i] /= by;
    }
}

/* ---- collectives ---- */

nn_status nn_dist_barrier(nn_ctx *ctx) {
    if (!initialized) return not_ready(ctx, "barrier");
    mpi_request r;
    if (started(ctx, mpi.Ibarrier(mpi.comm_world, &r), "barrier")) return ctx->err.code;
    return wait_req(ctx, &r, "barrier");
}

static nn_status allreduce_raw(nn_ctx *ctx, nn_tensor *t, nn_dist_op op, const char *what) {
    bytes_reduced += (uint64_t)(nn_tensor_numel(t) * (int64_t)nn_dtype_size(t->dtype));
    watch_begin(what);
    int rc = mpi.Allreduce(MPI_IN_PLACE_, nn_tensor_data(t), (int)nn_tensor_numel(t),
                           mpi_type(t->dtype), mpi_op(op), mpi.comm_world);
    watch_end();
    if (started(ctx, rc, what)) return ctx->err.code;
    if (op == NN_DIST_AVG) divide(t, world);
    return NN_OK;
}

nn_status nn_dist_all_reduce(nn_ctx *ctx, nn_tensor *t, nn_dist_op op) {
    if (prelude(ctx, "all_reduce", t, op, "the reduce op")) return ctx->err.code;
    if (op == NN_DIST_AVG && !nn_dtype_is_float(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "all_reduce: ReduceOp.AVG needs a float tensor");
    return allreduce_raw(ctx, t, op, "all_reduce");
}

static nn_status bcast_raw(nn_ctx *ctx, nn_tensor *t, int src, const char *what) {
    watch_begin(what);
    int rc = mpi.Bcast(nn_tensor_data(t), (int)nn_tensor_numel(t), mpi_type(t->dtype), src,
                       mpi.comm_world);
    watch_end();
    return started(ctx, rc, what);
}

nn_status nn_dist_broadcast(nn_ctx *ctx, nn_tensor *t, int src) {
    if (prelude(ctx, "broadcast", t, src, "src")) return ctx->err.code;
    if (src < 0 || src >= world) return bad_rank(ctx, "broadcast", src);
    return bcast_raw(ctx, t, src, "broadcast");
}

static nn_status blocks(nn_ctx *ctx, const char *what, const nn_tensor *big,
                        const nn_tensor *small) {
    if (check_tensor(ctx, what, big)) return ctx->err.code;
    if (big->dtype != small->dtype)
        return nn_error_set(&ctx->err, NN_ERR_TYPE, "%s: dtypes differ (%s and %s)", what,
                            nn_dtype_name(big->dtype), nn_dtype_name(small->dtype));
    if (nn_tensor_numel(big) != nn_tensor_numel(small) * world)
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s: the large tensor must hold world_size (%d) x %lld elements, it "
                            "has %lld",
                            what, world, (long long)nn_tensor_numel(small),
                            (long long)nn_tensor_numel(big));
    return NN_OK;
}

nn_status nn_dist_all_gather_into(nn_ctx *ctx, nn_tensor *out, nn_tensor *in) {
    const char *w = "all_gather_into_tensor";
    if (prelude(ctx, w, in, 0, "") || blocks(ctx, w, out, in)) return ctx->err.code;
    int n = (int)nn_tensor_numel(in);
    watch_begin(w);
    int rc = mpi.Allgather(nn_tensor_data(in), n, mpi_type(in->dtype), nn_tensor_data(out), n,
                           mpi_type(in->dtype), mpi.comm_world);
    watch_end();
    return started(ctx, rc, w);
}

nn_status nn_dist_reduce_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, nn_dist_op op) {
    const char *w = "reduce_scatter_tensor";
    if (prelude(ctx, w, out, op, "the reduce op") || blocks(ctx, w, in, out)) return ctx->err.code;
    watch_begin(w);
    int rc =
        mpi.Reduce_scatter_block(nn_tensor_data(in), nn_tensor_data(out), (int)nn_tensor_numel(out),
                                 mpi_type(out->dtype), mpi_op(op), mpi.comm_world);
    watch_end();
    if (started(ctx, rc, w)) return ctx->err.code;
    if (op == NN_DIST_AVG) divide(out, world);
    return NN_OK;
}

nn_status nn_dist_reduce(nn_ctx *ctx, nn_tensor *t, int dst, nn_dist_op op) {
    if (prelude(ctx, "reduce", t, dst * 8 + (int)op, "dst and op")) return ctx->err.code;
    if (dst < 0 || dst >= world) return bad_rank(ctx, "reduce", dst);
    mpi_request r;
    void *data = nn_tensor_data(t);
    int rc = my_rank == dst ? mpi.Ireduce(MPI_IN_PLACE_, data, (int)nn_tensor_numel(t),
                                          mpi_type(t->dtype), mpi_op(op), dst, mpi.comm_world, &r)
                            : mpi.Ireduce(data, NULL, (int)nn_tensor_numel(t), mpi_type(t->dtype),
                                          mpi_op(op), dst, mpi.comm_world, &r);
    if (started(ctx, rc, "reduce") || wait_req(ctx, &r, "reduce")) return ctx->err.code;
    if (op == NN_DIST_AVG && my_rank == dst) divide(t, world);
    return NN_OK;
}

nn_status nn_dist_gather(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, int dst) {
    if (prelude(ctx, "gather", in, dst, "dst")) return ctx->err.code;
    if (dst < 0 || dst >= world) return bad_rank(ctx, "gather", dst);
    if (my_rank == dst && (!out ? nn_error_set(&ctx->err, NN_ERR_VALUE,
                                               "gather: the destination rank needs gather_list")
                                : blocks(ctx, "gather", out, in)))
        return ctx->err.code;
    mpi_request r;
    int n = (int)nn_tensor_numel(in);
    int rc = mpi.Igather(nn_tensor_data(in), n, mpi_type(in->dtype),
                         my_rank == dst ? nn_tensor_data(out) : NULL, n, mpi_type(in->dtype), dst,
                         mpi.comm_world, &r);
    if (started(ctx, rc, "gather")) return ctx->err.code;
    return wait_req(ctx, &r, "gather");
}

nn_status nn_dist_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in, int src) {
    if (prelude(ctx, "scatter", out, src, "src")) return ctx->err.code;
    if (src < 0 || src >= world) return bad_rank(ctx, "scatter", src);
    if (my_rank == src &&
        (!in ? nn_error_set(&ctx->err, NN_ERR_VALUE, "scatter: the source rank needs scatter_list")
             : blocks(ctx, "scatter", in, out)))
        return ctx->err.code;
    mpi_request r;
    int n = (int)nn_tensor_numel(out);
    int rc = mpi.Iscatter(my_rank == src ? nn_tensor_data(in) : NULL, n, mpi_type(out->dtype),
                          nn_tensor_data(out), n, mpi_type(out->dtype), src, mpi.comm_world, &r);
    if (started(ctx, rc, "scatter")) return ctx->err.code;
    return wait_req(ctx, &r, "scatter");
}

/* ---- async_op=True: a collective left running, and its handle ---- */

struct nn_dist_work {
    mpi_request req;
    nn_tensor *t; /* retained while MPI writes into it */
    nn_tensor *in;
    nn_dist_op op;
    const char *what;
    bool done;
    int source;        /* a receive's sender once done (-1: not a receive) */
    mpi_status status; /* what MPI says about the finished request */
};

static nn_dist_work *work_new(nn_ctx *ctx, const char *what, nn_tensor *t, nn_tensor *in,
                              nn_dist_op op) {
    nn_dist_work *w = calloc(1, sizeof *w);
    if (!w) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", what), NULL;
    w->t = t ? nn_tensor_retain(t) : NULL;
    w->in = in ? nn_tensor_retain(in) : NULL;
    w->op = op;
    w->what = what;
    w->source = -1;
    return w;
}

static nn_dist_work *work_started(nn_ctx *ctx, nn_dist_work *w, int rc) {
    if (started(ctx, rc, w->what)) {
        w->done = true;
        nn_dist_work_free(w);
        return NULL;
    }
    return w;
}

static void work_finish(nn_dist_work *w) {
    w->done = true;
    if (w->source == -2) w->source = w->status.source;
    if (w->op == NN_DIST_AVG && w->t) divide(w->t, world);
    if (w->t) w->t->storage->version++;
}

nn_dist_work *nn_dist_all_reduce_async(nn_ctx *ctx, nn_tensor *t, nn_dist_op op) {
    if (prelude(ctx, "all_reduce", t, op, "the reduce op")) return NULL;
    if (op == NN_DIST_AVG && !nn_dtype_is_float(t->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "all_reduce: ReduceOp.AVG needs a float tensor"),
               NULL;
    nn_dist_work *w = work_new(ctx, "all_reduce", t, NULL, op);
    if (!w) return NULL;
    bytes_reduced += (uint64_t)(nn_tensor_numel(t) * (int64_t)nn_dtype_size(t->dtype));
    return work_started(ctx, w,
                        mpi.Iallreduce(MPI_IN_PLACE_, nn_tensor_data(t), (int)nn_tensor_numel(t),
                                       mpi_type(t->dtype), mpi_op(op), mpi.comm_world, &w->req));
}

nn_dist_work *nn_dist_broadcast_async(nn_ctx *ctx, nn_tensor *t, int src) {
    if (prelude(ctx, "broadcast", t, src, "src")) return NULL;
    if (src < 0 || src >= world) return bad_rank(ctx, "broadcast", src), NULL;
    nn_dist_work *w = work_new(ctx, "broadcast", t, NULL, NN_DIST_SUM);
    if (!w) return NULL;
    return work_started(ctx, w,
                        mpi.Ibcast(nn_tensor_data(t), (int)nn_tensor_numel(t), mpi_type(t->dtype),
                                   src, mpi.comm_world, &w->req));
}

nn_dist_work *nn_dist_barrier_async(nn_ctx *ctx) {
    if (!initialized) return not_ready(ctx, "barrier"), NULL;
    nn_dist_work *w = work_new(ctx, "barrier", NULL, NULL, NN_DIST_SUM);
    if (!w) return NULL;
    return work_started(ctx, w, mpi.Ibarrier(mpi.comm_world, &w->req));
}

nn_dist_work *nn_dist_all_gather_into_async(nn_ctx *ctx, nn_tensor *out, nn_tensor *in) {
    const char *what = "all_gather_into_tensor";
    if (prelude(ctx, what, in, 0, "") || blocks(ctx, what, out, in)) return NULL;
    nn_dist_work *w = work_new(ctx, what, out, in, NN_DIST_SUM);
    if (!w) return NULL;
    int n = (int)nn_tensor_numel(in);
    return work_started(ctx, w,
                        mpi.Iallgather(nn_tensor_data(in), n, mpi_type(in->dtype),
                                       nn_tensor_data(out), n, mpi_type(in->dtype), mpi.comm_world,
                                       &w->req));
}

nn_dist_work *nn_dist_reduce_scatter_async(nn_ctx *ctx, nn_tensor *out, nn_tensor *in,
                                           nn_dist_op op) {
    const char *what = "reduce_scatter_tensor";
    if (prelude(ctx, what, out, op, "the reduce op") || blocks(ctx, what, in, out)) return NULL;
    nn_dist_work *w = work_new(ctx, what, out, in, op);
    if (!w) return NULL;
    return work_started(ctx, w,
                        mpi.Ireduce_scatter_block(nn_tensor_data(in), nn_tensor_data(out),
                                                  (int)nn_tensor_numel(out), mpi_type(out->dtype),
                                                  mpi_op(op), mpi.comm_world, &w->req));
}

/* ---- point to point: send, recv, isend, irecv ----
 * MPI's own matching: a receive takes the first message from [src] (any
 * rank when src < 0) with the same tag, in the order they were sent, so a
 * pipeline's sends and receives pair up as PyTorch's do on gloo. */

static nn_status check_peer(nn_ctx *ctx, const char *what, const char *name, int peer,
                            bool any_ok) {
    if (any_ok && peer < 0) return NN_OK;
    if (peer < 0 || peer >= world)
        return nn_error_set(&ctx->err, NN_ERR_INDEX,
                            "%s: %s=%d is not a rank of the group (world size %d)", what, name,
                            peer, world);
    if (peer == my_rank)
        return nn_error_set(
            &ctx->err, NN_ERR_VALUE, "%s: %s=%d is this rank; a rank cannot %s itself", what, name,
            peer, strcmp(what, "send") && strcmp(what, "isend") ? "receive from" : "send to");
    return NN_OK;
}

static nn_status p2p_prelude(nn_ctx *ctx, const char *what, const char *name, nn_tensor *t,
                             int peer, int tag) {
    if (!initialized) return not_ready(ctx, what);
    if (check_tensor(ctx, what, t) || check_peer(ctx, what, name, peer, name[0] == 's'))
        return ctx->err.code;
    if (tag < 0)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: tag must be >= 0, got %d", what, tag);
    return NN_OK;
}

nn_dist_work *nn_dist_isend(nn_ctx *ctx, nn_tensor *t, int dst, int tag) {
    if (p2p_prelude(ctx, "isend", "dst", t, dst, tag)) return NULL;
    nn_dist_work *w = work_new(ctx, "isend", NULL, t, NN_DIST_SUM);
    if (!w) return NULL;
    return work_started(ctx, w,
                        mpi.Isend(nn_tensor_data(t), (int)nn_tensor_numel(t), mpi_type(t->dtype),
                                  dst, tag, mpi.comm_world, &w->req));
}

nn_dist_work *nn_dist_irecv(nn_ctx *ctx, nn_tensor *t, int src, int tag) {
    if (p2p_prelude(ctx, "irecv", "src", t, src, tag)) return NULL;
    nn_dist_work *w = work_new(ctx, "irecv", t, NULL, NN_DIST_SUM);
    if (!w) return NULL;
    w->source = src < 0 ? -2 : src; /* -2: MPI_ANY_SOURCE, read the status when done */
    return work_started(ctx, w,
                        mpi.Irecv(nn_tensor_data(t), (int)nn_tensor_numel(t), mpi_type(t->dtype),
                                  src < 0 ? MPI_ANY_SOURCE_ : src, tag, mpi.comm_world, &w->req));
}

int nn_dist_work_source(const nn_dist_work *w) {
    return w->done ? w->source : -1;
}

/* The blocking forms: the same request, waited for here; [what] names them
 * in errors as the user called them. */
static nn_status p2p_wait(nn_ctx *ctx, nn_dist_work *w, const char *what, int *from) {
    if (!w) return ctx->err.code;
    w->what = what;
    nn_status st = nn_dist_work_wait(ctx, w);
    if (!st && from) *from = w->source;
    if (st && !w->done) {
        /* Timed out or interrupted: unlike a collective, a point-to-point
         * request can be cancelled, so the error does not wait again. */
        int flag = 0;
        mpi.Cancel(&w->req);
        for (int i = 0; i < 1000 && !flag; i++) {
            if (mpi.Test(&w->req, &flag, NULL)) break;
            if (!flag) sched_yield();
        }
        if (!flag) mpi.Request_free(&w->req);
        w->done = true;
    }
    nn_dist_work_free(w);
    return st;
}

nn_status nn_dist_send(nn_ctx *ctx, nn_tensor *t, int dst, int tag) {
    if (p2p_prelude(ctx, "send", "dst", t, dst, tag)) return ctx->err.code;
    return p2p_wait(ctx, nn_dist_isend(ctx, t, dst, tag), "send", NULL);
}

nn_status nn_dist_recv(nn_ctx *ctx, nn_tensor *t, int src, int tag, int *from) {
    if (p2p_prelude(ctx, "recv", "src", t, src, tag)) return ctx->err.code;
    return p2p_wait(ctx, nn_dist_irecv(ctx, t, src, tag), "recv", from);
}

nn_status nn_dist_work_wait(nn_ctx *ctx, nn_dist_work *w) {
    if (w->done) return NN_OK;
    if (wait_req_status(ctx, &w->req, w->what, &w->status)) return ctx->err.code;
    work_finish(w);
    return NN_OK;
}

int nn_dist_work_test(nn_ctx *ctx, nn_dist_work *w) {
    if (w->done) return 1;
    int flag = 0;
    if (mpi.Test(&w->req, &flag, &w->status)) {
        nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s: MPI reported an error on rank %d", w->what,
                     my_rank);
        return -1;
    }
    if (flag) work_finish(w);
    return flag;
}

void nn_dist_work_free(nn_dist_work *w) {
    if (!w) return;
    /* MPI may still write into the tensor: finish first (a collective
     * cannot be cancelled). A failure here has nowhere to go but stderr. */
    double deadline = now_s() + timeout_s;
    for (int flag = w->done || !initialized; !flag; sched_yield()) {
        if (mpi.Test(&w->req, &flag, NULL) || (!flag && now_s() > deadline)) {
            fprintf(stderr,
                    "nndb: rank %d: an async %s whose handle was dropped did not finish in %g "
                    "s\n",
                    my_rank, w->what, timeout_s);
            break;
        }
    }
    nn_tensor_release(w->t);
    nn_tensor_release(w->in);
    free(w);
}

/* ---- FSDP's flat parameter: a storage whose bytes come and go ---- */

static void flat_release(void *user) {
    nn_mem_free(user); /* NULL while the bytes are dropped */
}

nn_tensor *nn_dist_flat_new(nn_ctx *ctx, nn_dtype dt, int64_t numel) {
    size_t nbytes = (size_t)numel * nn_dtype_size(dt);
    void *data = nn_mem_alloc(nbytes ? nbytes : 1, "FSDP's unsharded parameters", &ctx->err);
    if (!data) return NULL;
    int64_t stride = 1;
    nn_tensor *t =
        nn_tensor_from_external(ctx, dt, 1, &numel, &stride, data, nbytes, flat_release, data);
    if (!t) nn_mem_free(data);
    return t;
}

/* FSDP's collectives skip the per-call cross-rank header (FSDP compares
 * the flat sizes once, when it wraps): half the round trips per unit. */
nn_status nn_dist_flat_gather(nn_ctx *ctx, nn_tensor *flat, nn_tensor *shard) {
    const char *w = "FullyShardedDataParallel: all_gather";
    if (!initialized) return not_ready(ctx, w);
    if (check_tensor(ctx, w, shard) || blocks(ctx, w, flat, shard) || nn_dist_flat_alloc(ctx, flat))
        return ctx->err.code;
    int n = (int)nn_tensor_numel(shard);
    watch_begin(w);
    int rc = mpi.Allgather(nn_tensor_data(shard), n, mpi_type(shard->dtype), nn_tensor_data(flat),
                           n, mpi_type(shard->dtype), mpi.comm_world);
    watch_end();
    return started(ctx, rc, w);
}

nn_status nn_dist_flat_reduce_scatter(nn_ctx *ctx, nn_tensor *out, nn_tensor *in) {
    const char *w = "FullyShardedDataParallel: reduce_scatter";
    if (!initialized) return not_ready(ctx, w);
    if (check_tensor(ctx, w, out) || blocks(ctx, w, in, out)) return ctx->err.code;
    bytes_reduced += (uint64_t)(nn_tensor_numel(in) * (int64_t)nn_dtype_size(in->dtype));
    watch_begin(w);
    int rc =
        mpi.Reduce_scatter_block(nn_tensor_data(in), nn_tensor_data(out), (int)nn_tensor_numel(out),
                                 mpi_type(out->dtype), mpi.op_sum, mpi.comm_world);
    watch_end();
    if (started(ctx, rc, w)) return ctx->err.code;
    divide(out, world);
    return NN_OK;
}

bool nn_dist_flat_is_allocated(const nn_tensor *t) {
    return t->storage->release == flat_release && t->storage->user != NULL;
}

void nn_dist_flat_free(nn_tensor *t) {
    if (!t || t->storage->release != flat_release) return;
    nn_mem_free(t->storage->user);
    t->storage->user = NULL;
    t->storage->data = NULL;
}

nn_status nn_dist_flat_alloc(nn_ctx *ctx, nn_tensor *t) {
    if (t->storage->release != flat_release)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "not an FSDP flat parameter");
    if (t->storage->user) return NN_OK;
    size_t n = t->storage->nbytes;
    void *data = nn_mem_alloc(n ? n : 1, "FSDP's unsharded parameters", &ctx->err);
    if (!data) return ctx->err.code;
    t->storage->user = data;
    t->storage->data = data;
    return NN_OK;
}

static uint64_t fnv1a(const void *p, size_t n) {
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

/* ---- DistributedDataParallel ---- */

typedef struct ddp_bucket {
    int *idx; /* parameter indices, in the order they are packed */
    int n;
    int64_t numel;
    nn_dtype dtype;
    nn_tensor *flat; /* the packed gradients, reduced in place */
    mpi_request req;
    int ready;
    bool launched;
} ddp_bucket;

struct nn_dist_ddp {
    nn_tensor **params;
    int n;
    int *bucket_of;
    int64_t *offset; /* within its bucket's flat buffer */
    int64_t *last_pos;
    bool *ready;
    ddp_bucket *buckets;
    int nb;
    int hook;
    bool sync, average, active;
    bool find_unused; /* find_unused_parameters=True */
    bool unfinished;  /* the last backward left parameters without a gradient */
    char unused[200]; /* their indices, for the next forward's error */
    int64_t *used;    /* find_unused: 1 where this rank's pass reached the parameter */
    int next_launch, started_early;
};

static nn_status launch(nn_ctx *ctx, nn_dist_ddp *d, ddp_bucket *b) {
    char *dst = nn_tensor_data(b->flat);
    size_t es = nn_dtype_size(b->dtype);
    for (int k = 0; k < b->n; k++) {
        int i = b->idx[k];
        nn_tensor *p = d->params[i], *g = p->grad;
        size_t bytes = (size_t)nn_tensor_numel(p) * es;
        char *at = dst + (size_t)d->offset[i] * es;
        if (!g) {
            memset(at, 0, bytes);
        } else {
            nn_tensor *c = nn_tensor_contiguous_raw(ctx, g);
            if (!c) return ctx->err.code;
            memcpy(at, nn_tensor_data(c), bytes);
            nn_tensor_release(c);
        }
    }
    bytes_reduced += (uint64_t)((size_t)b->numel * es);
    b->launched = true;
    return started(ctx,
                   mpi.Iallreduce(MPI_IN_PLACE_, dst, (int)b->numel, mpi_type(b->dtype), mpi.op_sum,
                                  mpi.comm_world, &b->req),
                   "DistributedDataParallel: all_reduce of a gradient bucket");
}

/* Buckets start in index order on every rank, as MPI needs the same order
 * of collectives everywhere (PyTorch's reducer does the same). */
static nn_status launch_ready(nn_ctx *ctx, nn_dist_ddp *d, bool early) {
    while (d->next_launch < d->nb) {
        ddp_bucket *b = &d->buckets[d->next_launch];
        if (b->ready < b->n) break;
        if (launch(ctx, d, b)) return ctx->err.code;
        d->next_launch++;
        d->started_early += early;
    }
    return NN_OK;
}

static void mark_ready(nn_dist_ddp *d, int i) {
    if (d->ready[i]) return;
    d->ready[i] = true;
    d->buckets[d->bucket_of[i]].ready++;
}

static void begin_pass(nn_ctx *ctx, nn_dist_ddp *d, int64_t count) {
    for (int i = 0; i < d->n; i++) {
        d->last_pos[i] = 0;
        d->ready[i] = false;
    }
    for (int b = 0; b < d->nb; b++) {
        d->buckets[b].ready = 0;
        d->buckets[b].launched = false;
    }
    /* The last node (in backward order) that takes each parameter: once the
     * pass is past it, that parameter's gradient is complete. */
    for (int64_t k = 0; k < count; k++) {
        const nn_node *node = ctx->order[k];
        for (int j = 0; j < node->n_in; j++) {
            const nn_input *in = &node->in[j];
            if (in->fn || !in->needs_grad) continue;
            for (int i = 0; i < d->n; i++)
                if (d->params[i] == in->t) d->last_pos[i] = k + 1;
        }
    }
    /* A backward pass through none of our parameters (another model's)
     * is not ours to reduce. */
    bool ours = false;
    for (int i = 0; i < d->n && !ours; i++) ours = d->last_pos[i] > 0;
    d->active = ours;
    if (!ours) return;
    d->next_launch = 0;
    d->started_early = 0;
    /* find_unused_parameters=True: what this pass does not reach is ready
     * now (its bucket carries zeros for it), as PyTorch marks the
     * parameters its forward's graph does not reach. */
    for (int i = 0; i < d->n && d->find_unused; i++)
        if (!d->last_pos[i]) mark_ready(d, i);
    /* A frozen parameter (requires_grad=False) is not reduced at all, as
     * PyTorch's reducer leaves it out; its slot in the bucket is zeros. */
    for (int i = 0; i < d->n; i++)
        if (!d->params[i]->requires_grad) mark_ready(d, i);
}

static nn_hook_action ddp_hook(nn_ctx *ctx, const nn_hook_event *ev, void *user) {
    nn_dist_ddp *d = user;
    if (ev->phase != NN_PHASE_BACKWARD || ev->after || !d->sync) return NN_HOOK_CONTINUE;
    if (ev->position == 1) begin_pass(ctx, d, ev->count);
    if (!d->active) return NN_HOOK_CONTINUE;
    for (int i = 0; i < d->n; i++)
        if (d->last_pos[i] && d->last_pos[i] < ev->position) mark_ready(d, i);
    return launch_ready(ctx, d, true) ? NN_HOOK_STOP : NN_HOOK_CONTINUE;
}

static nn_status ddp_end(nn_ctx *ctx, bool ok, void *user) {
    nn_dist_ddp *d = user;
    if (!d->active) return NN_OK;
    d->active = false;
    nn_status st = NN_OK;
    bool all_ready = true;
    if (ok) {
        if (d->find_unused)
            for (int i = 0; i < d->n; i++) mark_ready(d, i);
        /* find_unused_parameters=False: a parameter the pass did not reach
         * never gets ready, so neither does its bucket nor any after it;
         * PyTorch's reducer then leaves every gradient as this rank
         * computed it and fails at the next forward. So do we. */
        int k = 0;
        d->unused[0] = 0;
        for (int i = 0; i < d->n; i++) {
            if (d->ready[i] || d->last_pos[i]) continue;
            all_ready = false;
            size_t at = strlen(d->unused);
            if (at + 12 < sizeof d->unused)
                snprintf(d->unused + at, sizeof d->unused - at, "%s%d", k++ ? " " : "", i);
        }
        if (all_ready)
            for (int i = 0; i < d->n; i++) mark_ready(d, i);
        st = launch_ready(ctx, d, false);
    }
    for (int b = 0; b < d->nb; b++) {
        ddp_bucket *bk = &d->buckets[b];
        if (!bk->launched) continue;
        nn_status w = wait_req(ctx, &bk->req, "DistributedDataParallel: gradient all_reduce");
        if (!st) st = w;
    }
    if (!ok || st) return st;
    if (!all_ready) {
        d->unfinished = true;
        return NN_OK;
    }
    /* Which parameters some rank's pass reached: one that none reached
     * keeps its gradient (None stays None), as PyTorch's. */
    if (d->find_unused) {
        for (int i = 0; i < d->n; i++) d->used[i] = d->last_pos[i] > 0;
        mpi_request r;
        if (started(ctx,
                    mpi.Iallreduce(MPI_IN_PLACE_, d->used, d->n, mpi.t_int64, mpi.op_sum,
                                   mpi.comm_world, &r),
                    "DistributedDataParallel: the used parameters") ||
            wait_req(ctx, &r, "DistributedDataParallel: the used parameters"))
            return ctx->err.code;
    }
    for (int i = 0; i < d->n; i++) {
        nn_tensor *p = d->params[i];
        ddp_bucket *bk = &d->buckets[d->bucket_of[i]];
        if ((d->find_unused && !d->used[i]) || !p->requires_grad) continue;
        if (!p->grad) {
            p->grad = nn_tensor_empty(ctx, p->dtype, p->ndim, p->shape);
            if (!p->grad) return ctx->err.code;
        } else if (!nn_tensor_is_contiguous(p->grad)) {
            nn_tensor *c = nn_tensor_contiguous_raw(ctx, p->grad);
            if (!c) return ctx->err.code;
            nn_tensor_release(p->grad);
            p->grad = c;
        }
        size_t es = nn_dtype_size(p->dtype);
        memcpy(nn_tensor_data(p->grad),
               (char *)nn_tensor_data(bk->flat) + (size_t)d->offset[i] * es,
               (size_t)nn_tensor_numel(p) * es);
        if (d->average) divide(p->grad, world);
    }
    return NN_OK;
}

nn_status nn_dist_ddp_pre_forward(nn_ctx *ctx, nn_dist_ddp *d) {
    if (!d->unfinished) return NN_OK;
    return nn_error_set(
        &ctx->err, NN_ERR_RUNTIME,
        "Expected to have finished reduction in the prior iteration before starting a new one. "
        "This error indicates that your module has parameters that were not used in producing "
        "loss. You can enable unused parameter detection by passing the keyword argument "
        "`find_unused_parameters=True` to `torch.nn.parallel.DistributedDataParallel`, and by "
        "making sure all `forward` function outputs participate in calculating loss. Parameter "
        "indices which did not receive grad for rank %d: %s",
        my_rank, d->unused);
}

void nn_dist_ddp_set_find_unused(nn_dist_ddp *d, bool on) {
    d->find_unused = on;
}

nn_status nn_dist_sync_buffers(nn_ctx *ctx, nn_tensor *const *bufs, int n) {
    const char *w = "DistributedDataParallel: broadcast of the buffers";
    if (!initialized) return not_ready(ctx, "DistributedDataParallel");
    /* One header for all of them: their count and a hash of dtypes and shapes. */
    uint64_t sig = 1469598103934665603ull;
    for (int i = 0; i < n; i++) {
        if (!nn_tensor_is_contiguous(bufs[i]))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "DistributedDataParallel: buffer %d is not contiguous", i);
        int64_t h[2 + NN_MAX_DIMS] = {bufs[i]->dtype, bufs[i]->ndim};
        for (int j = 0; j < bufs[i]->ndim; j++) h[2 + j] = bufs[i]->shape[j];
        sig = (sig ^ fnv1a(h, sizeof h)) * 1099511628211ull;
    }
    if (check_same(ctx, "DistributedDataParallel", NULL, n, "the number of buffers") ||
        check_same(ctx, "DistributedDataParallel", NULL, (int64_t)(sig >> 1),
                   "the buffers' dtypes and shapes (a hash)"))
        return ctx->err.code;
    for (int i = 0; i < n; i++) {
        int64_t bytes = nn_tensor_numel(bufs[i]) * (int64_t)nn_dtype_size(bufs[i]->dtype);
        if (bytes > 0x7fffffff)
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: a buffer over 2 GiB", w);
        watch_begin(w);
        int rc = mpi.Bcast(nn_tensor_data(bufs[i]), (int)bytes, mpi.t_byte, 0, mpi.comm_world);
        watch_end();
        if (started(ctx, rc, w)) return ctx->err.code;
        bufs[i]->storage->version++;
    }
    return NN_OK;
}

void nn_dist_ddp_free(nn_ctx *ctx, nn_dist_ddp *d) {
    if (!d) return;
    if (d->hook) nn_hook_remove(ctx, d->hook);
    for (int i = 0; i < d->n; i++) nn_tensor_release(d->params[i]);
    for (int b = 0; b < d->nb; b++) {
        free(d->buckets[b].idx);
        nn_tensor_release(d->buckets[b].flat);
    }
    free(d->buckets);
    free(d->params);
    free(d->bucket_of);
    free(d->offset);
    free(d->last_pos);
    free(d->ready);
    free(d->used);
    free(d);
}

nn_dist_ddp *nn_dist_ddp_new(nn_ctx *ctx, nn_tensor *const *params, int n_params,
                             nn_tensor *const *buffers, int n_buffers, double bucket_bytes) {
    const char *w = "DistributedDataParallel";
    if (!initialized) return not_ready(ctx, w), NULL;
    if (bucket_bytes <= 0) bucket_bytes = 25.0 * 1024 * 1024;
    for (int i = 0; i < n_params; i++) {
        if (check_tensor(ctx, w, params[i])) return NULL;
        if (!nn_dtype_is_float(params[i]->dtype))
            return nn_error_set(&ctx->err, NN_ERR_TYPE, "%s: parameter %d is not float", w, i),
                   NULL;
    }
    /* Same parameters everywhere: count first, then each shape. */
    if (check_same(ctx, w, NULL, n_params, "the number of parameters")) return NULL;
    for (int i = 0; i < n_params; i++)
        if (check_same(ctx, w, params[i], i, "the parameter index")) return NULL;
    /* Rank 0's values everywhere. */
    for (int i = 0; i < n_params; i++)
        if (bcast_raw(ctx, params[i], 0, w)) return NULL;
    if (nn_dist_sync_buffers(ctx, buffers, n_buffers)) return NULL;

    nn_dist_ddp *d = calloc(1, sizeof *d);
    if (!d) return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", w), NULL;
    d->n = n_params;
    d->sync = d->average = true;
    size_t n = (size_t)(n_params ? n_params : 1);
    d->params = calloc(n, sizeof *d->params);
    d->bucket_of = calloc(n, sizeof *d->bucket_of);
    d->offset = calloc(n, sizeof *d->offset);
    d->last_pos = calloc(n, sizeof *d->last_pos);
    d->ready = calloc(n, sizeof *d->ready);
    d->buckets = calloc(n, sizeof *d->buckets);
    d->used = calloc(n, sizeof *d->used);
    if (!d->used || !d->params || !d->bucket_of || !d->offset || !d->last_pos || !d->ready ||
        !d->buckets) {
        nn_dist_ddp_free(ctx, d);
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", w), NULL;
    }
    for (int i = 0; i < n_params; i++) d->params[i] = nn_tensor_retain(params[i]);
    /* Buckets in reverse order of registration: the last layers' gradients
     * come first in backward, so their bucket can start first. */
    double bytes = 0;
    for (int i = n_params - 1; i >= 0; i--) {
        nn_tensor *p = params[i];
        double pb = (double)nn_tensor_numel(p) * (double)nn_dtype_size(p->dtype);
        ddp_bucket *b = d->nb ? &d->buckets[d->nb - 1] : NULL;
        /* The first bucket is at most 1 MiB (PyTorch's first_bucket_bytes),
         * so the first all-reduce starts early in backward. */
        double cap = d->nb <= 1 && bucket_bytes > 1048576.0 ? 1048576.0 : bucket_bytes;
        if (!b || b->dtype != p->dtype || (b->n && bytes + pb > cap)) {
            b = &d->buckets[d->nb++];
            b->dtype = p->dtype;
            b->idx = calloc(n, sizeof *b->idx);
            if (!b->idx) {
                nn_dist_ddp_free(ctx, d);
                return nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: out of memory", w), NULL;
            }
            bytes = 0;
        }
        d->bucket_of[i] = d->nb - 1;
        d->offset[i] = b->numel;
        b->idx[b->n++] = i;
        b->numel += nn_tensor_numel(p);
        bytes += pb;
    }
    for (int b = 0; b < d->nb; b++) {
        int64_t len = d->buckets[b].numel;
        d->buckets[b].flat = nn_tensor_empty(ctx, d->buckets[b].dtype, 1, &len);
        if (!d->buckets[b].flat) {
            nn_dist_ddp_free(ctx, d);
            return NULL;
        }
    }
    d->hook = nn_hook_add(ctx, "DistributedDataParallel", ddp_hook, d);
    if (!d->hook) {
        nn_dist_ddp_free(ctx, d);
        return nn_error_set(&ctx->err, NN_ERR_RUNTIME, "%s: the hook table is full", w), NULL;
    }
    nn_hook_set_backward_end(ctx, d->hook, ddp_end);
    return d;
}

void nn_dist_ddp_set_sync(nn_dist_ddp *d, bool on) {
    d->sync = on;
}
bool nn_dist_ddp_sync(const nn_dist_ddp *d) {
    return d->sync;
}
void nn_dist_ddp_set_average(nn_dist_ddp *d, bool on) {
    d->average = on;
}
int nn_dist_ddp_num_buckets(const nn_dist_ddp *d) {
    return d->nb;
}
const int *nn_dist_ddp_bucket(const nn_dist_ddp *d, int b, int *n) {
    *n = d->buckets[b].n;
    return d->buckets[b].idx;
}
int nn_dist_ddp_started_early(const nn_dist_ddp *d) {
    return d->started_early;
}

/* ---- dist_check ---- */

nn_status nn_dist_check(nn_ctx *ctx, nn_tensor *const *params, int n, int *first, int *bad) {
    *first = -1;
    *bad = -1;
    if (!initialized) return not_ready(ctx, "dist_check");
    if (check_same(ctx, "dist_check", NULL, n, "the number of parameters")) return ctx->err.code;
    int64_t *mine = calloc((size_t)(n ? n : 1), sizeof *mine);
    int64_t *all = calloc((size_t)(n ? n : 1) * (size_t)world, sizeof *all);
    nn_status st = NN_OK;
    if (!mine || !all) st = nn_error_set(&ctx->err, NN_ERR_MEMORY, "dist_check: out of memory");
    for (int i = 0; i < n && !st; i++) {
        nn_tensor *c = nn_tensor_contiguous_raw(ctx, params[i]);
        if (!c) {
            st = ctx->err.code;
            break;
        }
        mine[i] =
            (int64_t)fnv1a(nn_tensor_data(c), (size_t)nn_tensor_numel(c) * nn_dtype_size(c->dtype));
        nn_tensor_release(c);
    }
    mpi_request r;
    if (!st)
        st = started(ctx,
                     mpi.Iallgather(mine, n, mpi.t_int64, all, n, mpi.t_int64, mpi.comm_world, &r),
                     "dist_check");
    if (!st) st = wait_req(ctx, &r, "dist_check");
    for (int i = 0; i < n && !st && *first < 0; i++)
        for (int k = 1; k < world; k++)
            if (all[(size_t)k * (size_t)n + (size_t)i] != all[i]) {
                *first = i;
                *bad = k;
                break;
            }
    free(mine);
    free(all);
    return st;
}

/* ---- DistributedSampler ---- */

int64_t nn_dist_sampler_num_samples(const nn_dist_sampler *s) {
    int64_t k = s->replicas;
    /* PyTorch: ceil((len - replicas) / replicas), which is (len - 1) / k here. */
    if (s->drop_last && s->len % k) return (s->len - 1) / k;
    return (s->len + k - 1) / k;
}

nn_status nn_dist_sampler_indices(nn_ctx *ctx, const nn_dist_sampler *s, nn_rng *gen, int64_t **out,
                                  int64_t *n) {
    int64_t per = nn_dist_sampler_num_samples(s), total = per * s->replicas;
    int64_t len = s->len;
    int64_t *all = malloc(sizeof(int64_t) * (size_t)(len > total ? len : total) + 8);
    int64_t *mine = malloc(sizeof(int64_t) * (size_t)per + 8);
    if (!all || !mine) {
        free(all);
        free(mine);
        return nn_error_set(&ctx->err, NN_ERR_MEMORY, "DistributedSampler: out of memory");
    }
    if (s->shuffle)
        nn_random_perm_into(gen, all, len);
    else
        for (int64_t i = 0; i < len; i++) all[i] = i;
    /* Pad by repeating the list from its start (total <= len without it). */
    for (int64_t i = len; i < total && len > 0; i++) all[i] = all[i - len];
    for (int64_t k = 0; k < per; k++) mine[k] = all[s->rank + k * s->replicas];
    free(all);
    *out = mine;
    *n = per;
    return NN_OK;
}
