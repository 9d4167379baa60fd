#include "nn_ctx.h"
#include "nn_graph.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nn_blas.h"
#include "nn_mem.h"

nn_ctx *nn_ctx_new(uint64_t seed) {
    nn_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    nn_rng_seed(&ctx->rng, seed);
    ctx->grad_enabled = true;
    atomic_init(&ctx->interrupt, 0);
    ctx->next_hook_id = 1;
    ctx->next_seq = 1;
    return ctx;
}

void nn_ctx_free(nn_ctx *ctx) {
    if (!ctx) return;
    nn_tensor_release(ctx->aux);
    nn_grad_hooks_clear(ctx);
    free(ctx->grad_hooks);
    for (int i = 0; i < ctx->n_strings; i++) free(ctx->strings[i]);
    free(ctx->strings);
    free(ctx->order);
    free(ctx);
}

const char *nn_ctx_error(const nn_ctx *ctx) {
    return ctx->err.code ? ctx->err.msg : "";
}

nn_status nn_ctx_status(const nn_ctx *ctx) {
    return ctx->err.code;
}

void nn_ctx_clear_error(nn_ctx *ctx) {
    nn_error_clear(&ctx->err);
}

void nn_ctx_seed(nn_ctx *ctx, uint64_t seed) {
    nn_rng_seed(&ctx->rng, seed);
}

bool nn_ctx_set_grad(nn_ctx *ctx, bool enabled) {
    bool prev = ctx->grad_enabled;
    ctx->grad_enabled = enabled;
    return prev;
}

const char *nn_ctx_intern(nn_ctx *ctx, const char *s) {
    if (!s) return NULL;
    for (int i = ctx->n_strings - 1; i >= 0; i--)
        if (strcmp(ctx->strings[i], s) == 0) return ctx->strings[i];
    if (ctx->n_strings == ctx->cap_strings) {
        int cap = ctx->cap_strings ? ctx->cap_strings * 2 : 16;
        char **grown = realloc(ctx->strings, sizeof(char *) * (size_t)cap);
        if (!grown) return NULL;
        ctx->strings = grown;
        ctx->cap_strings = cap;
    }
    char *copy = strdup(s);
    if (!copy) return NULL;
    ctx->strings[ctx->n_strings++] = copy;
    return copy;
}

void nn_ctx_set_label(nn_ctx *ctx, const char *module, const char *file, int line) {
    ctx->label.module = nn_ctx_intern(ctx, module);
    ctx->label.file = nn_ctx_intern(ctx, file);
    ctx->label.line = line;
}

void nn_ctx_interrupt(nn_ctx *ctx) {
    atomic_store(&ctx->interrupt, 1);
}

bool nn_ctx_check_interrupt(nn_ctx *ctx) {
    if (!atomic_load_explicit(&ctx->interrupt, memory_order_relaxed)) return false;
    atomic_store(&ctx->interrupt, 0);
    nn_error_set(&ctx->err, NN_ERR_INTERRUPT, "interrupted");
    return true;
}

int nn_hook_add(nn_ctx *ctx, const char *name, nn_hook_fn fn, void *user) {
    if (ctx->n_hooks == NN_MAX_HOOKS) return 0;
    nn_hook_slot *h = &ctx->hooks[ctx->n_hooks++];
    h->id = ctx->next_hook_id++;
    h->name = nn_ctx_intern(ctx, name ? name : "hook");
    h->fn = fn;
    h->end = NULL;
    h->user = user;
    h->timing_only = false;
    h->nonfinite_only = false;
    h->keeps_values = false;
    return h->id;
}

void nn_hook_set_timing_only(nn_ctx *ctx, int id) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (ctx->hooks[i].id == id) ctx->hooks[i].timing_only = true;
}

void nn_hook_set_nonfinite_only(nn_ctx *ctx, int id, bool on) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (ctx->hooks[i].id == id) ctx->hooks[i].nonfinite_only = on;
}

void nn_hook_set_keeps_values(nn_ctx *ctx, int id) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (ctx->hooks[i].id == id) ctx->hooks[i].keeps_values = true;
}

void nn_hook_set_backward_end(nn_ctx *ctx, int id, nn_hook_end_fn end) {
    for (int i = 0; i < ctx->n_hooks; i++)
        if (ctx->hooks[i].id == id) ctx->hooks[i].end = end;
}

void nn_hook_remove(nn_ctx *ctx, int id) {
    for (int i = 0; i < ctx->n_hooks; i++) {
        if (ctx->hooks[i].id == id) {
            memmove(&ctx->hooks[i], &ctx->hooks[i + 1],
                    sizeof ctx->hooks[0] * (size_t)(ctx->n_hooks - i - 1));
            ctx->n_hooks--;
            return;
        }
    }
}

static int n_threads;

void nn_set_num_threads(int n) {
    if (n < 1) n = 1;
    n_threads = n;
    nn_blas_set_threads(n);
}

/* PyTorch 1.13's default intra-op thread count (c10's
 * TaskThreadPoolBase::defaultNumThreads): cpuinfo's count of physical
 * cores where that is below its count of processors, else the processors,
 * else every online CPU. cpuinfo counts cores from the APIC ID layout that
 * CPUID reports, and a hypervisor may report all of a VM's CPUs as threads
 * of one core (an AMD EPYC VM here: 2 CPUs, 1 core, so PyTorch runs its
 * kernels at 1 thread while OpenBLAS runs at 2). The count matters for
 * bits: from 32768 elements a full sum is split by thread. So it comes
 * from the library PyTorch links, Debian's libcpuinfo0, when it is
 * installed; the handle stays open (cpuinfo keeps its tables). */
static long pytorch_default_threads(void) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    void *h = dlopen("libcpuinfo.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) return cpus;
    bool (*init)(void) = (bool (*)(void))(uintptr_t)dlsym(h, "cpuinfo_initialize");
    uint32_t (*cores)(void) = (uint32_t(*)(void))(uintptr_t)dlsym(h, "cpuinfo_get_cores_count");
    uint32_t (*procs)(void) =
        (uint32_t(*)(void))(uintptr_t)dlsym(h, "cpuinfo_get_processors_count");
    if (!init || !cores || !procs || !init()) return cpus;
    uint32_t n_cores = cores(), n_procs = procs();
    if (n_cores > 0 && n_cores < n_procs) return n_cores;
    return n_procs > 0 ? n_procs : cpus;
}

/* Until set: OPENBLAS_NUM_THREADS or OMP_NUM_THREADS, else PyTorch's
 * default (above). The BLAS keeps its own default until a count is set
 * (OpenBLAS: one thread per CPU), as under PyTorch, which leaves
 * OpenBLAS's count alone. */
int nn_get_num_threads(void) {
    if (n_threads) return n_threads;
    /* Worked out once: the parallel kernels ask on every call, and
     * cpuinfo and sysconf read files under /sys. */
    static int default_threads;
    if (!default_threads) {
        const char *env = getenv("OPENBLAS_NUM_THREADS");
        if (!env) env = getenv("OMP_NUM_THREADS");
        long cpus = env && atoi(env) > 0 ? atoi(env) : pytorch_default_threads();
        default_threads = cpus > 0 ? (int)cpus : 1;
    }
    return default_threads;
}
