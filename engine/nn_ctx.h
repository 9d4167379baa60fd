/* nn_ctx: the state one session's engine calls share: the last error, the
 * random generator, grad mode, hooks, the interrupt flag and the label new
 * nodes carry. A front end owns one context per session (nn_ctx_new /
 * nn_ctx_free). Tensors are not tied to a context and may outlive it.
 * One thread runs ops on a context at a time; only nn_ctx_interrupt may be
 * called from another thread or a signal handler.
 */
#ifndef NN_CTX_H
#define NN_CTX_H

#include <signal.h>
#include <stdatomic.h>

#include "nn_graph.h"
#include "nn_rng.h"

#define NN_MAX_HOOKS 16

typedef struct nn_hook_slot {
    int id;
    const char *name;
    nn_hook_fn fn;
    nn_hook_end_fn end; /* optional: called when backward() finishes */
    void *user;
    bool timing_only;    /* reads no gradients: backward may skip building some */
    bool nonfinite_only; /* reads input gradients only when one is non-finite */
    bool keeps_values;   /* looks at recorded nodes' values later: nodes keep them all */
} nn_hook_slot;

struct nn_ctx {
    nn_error err;
    nn_rng rng;
    bool grad_enabled;
    atomic_int interrupt; /* raised by nn_ctx_interrupt, cleared when reported */
    int depth;            /* > 0 while an op's forward or backward runs */
    uint64_t next_seq;
    nn_label label;
    /* A second output some ops hand to their public wrapper (the indices of
     * max/min along a dim); the wrapper takes the reference. */
    nn_tensor *aux;
    /* Set by backward while an op's backward runs on an output gradient
     * that nothing else holds or will read (no hook that reads values, no
     * retain_grad): an elementwise backward may write its input gradient
     * over it, as PyTorch's relu backward does in effect. */
    bool grad_out_writable;
    nn_hook_slot hooks[NN_MAX_HOOKS];
    int n_hooks, next_hook_id;
    /* backward scratch, reused across calls */
    nn_node **order;
    size_t order_cap;
    uint32_t visit_epoch;
    /* interned label strings */
    char **strings;
    int n_strings, cap_strings;
    /* gradient hooks on tensors (nn_grad_hook_add, nn_graph.c) */
    struct nn_grad_hooks *grad_hooks;
    /* The NaN hunt is on: the optimizers' updates scan the parameter values
     * they write, block by block while in cache, and mark a parameter found
     * finite (nn_tensor_mark_finite), so that the check after a step need
     * not read it again. */
    bool check_writes;
};

nn_ctx *nn_ctx_new(uint64_t seed);
void nn_ctx_free(nn_ctx *ctx);

/* Message of the last error ("" when none). */
const char *nn_ctx_error(const nn_ctx *ctx);
nn_status nn_ctx_status(const nn_ctx *ctx);
void nn_ctx_clear_error(nn_ctx *ctx);

void nn_ctx_seed(nn_ctx *ctx, uint64_t seed);

/* Grad mode: returns the previous setting so scopes nest:
 *   bool prev = nn_ctx_set_grad(ctx, false); ...; nn_ctx_set_grad(ctx, prev); */
bool nn_ctx_set_grad(nn_ctx *ctx, bool enabled);

/* The label nodes recorded from now on carry. [module] and [file] are copied
 * (interned); NULL clears them. */
void nn_ctx_set_label(nn_ctx *ctx, const char *module, const char *file, int line);
/* Intern a string: the returned pointer lives as long as [ctx]. */
const char *nn_ctx_intern(nn_ctx *ctx, const char *s);

/* Ask the running op sequence to stop at the next node boundary. Safe from
 * a signal handler or another thread. */
void nn_ctx_interrupt(nn_ctx *ctx);
/* If an interrupt is pending, clear it, set ctx->err and return true. */
bool nn_ctx_check_interrupt(nn_ctx *ctx);

/* Threads used by BLAS and parallel kernels. */
void nn_set_num_threads(int n);
int nn_get_num_threads(void);

#endif
