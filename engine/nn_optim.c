/* Optimizers and gradient clipping (see nn_optim.h).
 *
 * The update rules transcribe torch.optim's single-tensor implementations
 * (PyTorch 1.13/2.x): hyper-parameters are combined in double as Python does,
 * then rounded once to the parameter's dtype, and each tensor operation of
 * the PyTorch code is one rounded step here, in the same order, so float32
 * results agree to round-off.
 *
 * Block layout (one pooled allocation, the storage of [block]):
 *   [nn_optim][optim_slot x n][nn_optim_config x groups][state buffers, each
 *   64-byte aligned]
 * The state buffers hold each parameter's elements in row-major order of its
 * shape, whatever the parameter's strides.
 */
#include "nn_optim.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "nn_anomaly.h"
#include "nn_ops_impl.h"

#define MAX_BUFS 3
#define ALIGN    64

typedef struct optim_slot {
    nn_tensor *param;     /* retained */
    int64_t steps;        /* updates this parameter received */
    size_t off[MAX_BUFS]; /* byte offsets of its state buffers in the block */
    nn_dtype dtype;       /* the parameter's dtype when the optimizer was made */
    int group;            /* its parameter group */
    nn_tensor *update;    /* the last update (new - old), while keep_updates is on */
    bool has_update;      /* [update] holds a step's update */
} optim_slot;

struct nn_optim {
    nn_optim_config cfg;     /* group 0's, kept equal to groups[0] */
    nn_optim_config *groups; /* one per parameter group (torch's param_groups) */
    int n_groups;
    nn_tensor *block; /* owns the storage everything here lives in */
    int n_params;
    int n_bufs; /* state buffers per parameter */
    int64_t step_count;
    optim_slot *slots;
    bool keep_updates;
    nn_optim_step_fn on_step; /* observer called after each step */
    void *on_step_user;
};

static const char *const sgd_names[] = {"momentum_buffer", NULL};
static const char *const sgd_plain_names[] = {NULL};
static const char *const adam_names[] = {"exp_avg", "exp_avg_sq", NULL};
static const char *const adam_ams_names[] = {"exp_avg", "exp_avg_sq", "max_exp_avg_sq", NULL};

static size_t round_up(size_t n) {
    return (n + ALIGN - 1) / ALIGN * ALIGN;
}

const char *nn_optim_kind_name(nn_optim_kind kind) {
    switch (kind) {
    case NN_OPTIM_SGD: return "SGD";
    case NN_OPTIM_ADAM: return "Adam";
    case NN_OPTIM_ADAMW: return "AdamW";
    case NN_OPTIM_RMSPROP: return "RMSprop";
    case NN_OPTIM_ADAGRAD: return "Adagrad";
    }
    return "?";
}

nn_optim_config nn_optim_defaults(nn_optim_kind kind) {
    nn_optim_config c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.lr = 1e-3;
    c.beta1 = 0.9;
    c.beta2 = 0.999;
    c.eps = 1e-8;
    c.weight_decay = kind == NN_OPTIM_ADAMW ? 1e-2 : 0.0;
    if (kind == NN_OPTIM_RMSPROP || kind == NN_OPTIM_ADAGRAD) c.lr = 1e-2;
    c.alpha = 0.99;
    if (kind == NN_OPTIM_ADAGRAD) c.eps = 1e-10;
    return c;
}

/* Each check is written so that NaN fails it. */
static nn_status check_config(nn_ctx *ctx, const nn_optim_config *c) {
    const char *k = nn_optim_kind_name(c->kind);
    if ((int)c->kind < 0 || c->kind > NN_OPTIM_ADAGRAD)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "unknown optimizer kind %d", (int)c->kind);
    if (!(c->lr >= 0) || isinf(c->lr))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid learning rate lr=%g; it must be a finite number >= 0", k,
                            c->lr);
    if (!(c->weight_decay >= 0) || isinf(c->weight_decay))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid weight_decay=%g; it must be a finite number >= 0", k,
                            c->weight_decay);
    if (c->kind == NN_OPTIM_SGD) {
        if (!(c->momentum >= 0) || isinf(c->momentum))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "SGD: invalid momentum=%g; it must be a finite number >= 0",
                                c->momentum);
        if (!isfinite(c->dampening))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "SGD: invalid dampening=%g; it must be finite", c->dampening);
        if (c->nesterov && (c->momentum <= 0 || c->dampening != 0))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "SGD: nesterov momentum requires momentum > 0 and dampening = 0 "
                                "(got momentum=%g, dampening=%g)",
                                c->momentum, c->dampening);
        return NN_OK;
    }
    if (!(c->eps >= 0) || isinf(c->eps))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid eps=%g; it must be a finite number >= 0", k, c->eps);
    if (c->kind == NN_OPTIM_RMSPROP) {
        if (!(c->momentum >= 0) || isinf(c->momentum))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "RMSprop: invalid momentum=%g; it must be a finite number >= 0",
                                c->momentum);
        if (!(c->alpha >= 0) || isinf(c->alpha))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "RMSprop: invalid alpha=%g; it must be a finite number >= 0",
                                c->alpha);
        return NN_OK;
    }
    if (c->kind == NN_OPTIM_ADAGRAD) {
        if (!(c->lr_decay >= 0) || isinf(c->lr_decay))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "Adagrad: invalid lr_decay=%g; it must be a finite number >= 0",
                                c->lr_decay);
        return NN_OK;
    }
    if (!(c->beta1 >= 0 && c->beta1 < 1))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid beta1=%g (betas[0]); it must be in [0, 1)", k, c->beta1);
    if (!(c->beta2 >= 0 && c->beta2 < 1))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid beta2=%g (betas[1]); it must be in [0, 1)", k, c->beta2);
    return NN_OK;
}

static int bufs_for(const nn_optim_config *c) {
    if (c->kind == NN_OPTIM_SGD) return c->momentum != 0 ? 1 : 0;
    return c->amsgrad ? 3 : 2;
}

static nn_status check_params(nn_ctx *ctx, const char *k, nn_tensor *const *params, int n) {
    if (n < 0 || (n > 0 && !params))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: bad parameter list (n=%d)", k, n);
    if (n == 0)
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s got an empty parameter list; pass the model's parameters", k);
    for (int i = 0; i < n; i++) {
        const nn_tensor *p = params[i];
        char sh[128];
        if (!p)
            return nn_error_set(&ctx->err, NN_ERR_TYPE, "%s: parameter %d is missing (NULL)", k, i);
        if (!nn_dtype_is_float(p->dtype) || nn_dtype_is_narrow(p->dtype))
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "%s: parameter %d (shape %s) is %s; only float32 and float64 "
                                "tensors can be optimized",
                                k, i, nn_tensor_shape_str(p, sh, sizeof sh),
                                nn_dtype_name(p->dtype));
        if (!nn_tensor_is_leaf(p))
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "%s: parameter %d (shape %s) is not a leaf tensor (it was "
                                "computed from others); optimize the leaf it came from, or "
                                "detach() it and set requires_grad",
                                k, i, nn_tensor_shape_str(p, sh, sizeof sh));
        for (int j = 0; j < i; j++)
            if (params[j] == p)
                return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                    "%s: parameter %d is the same tensor as parameter %d; each "
                                    "parameter may appear once (it would be updated twice)",
                                    k, i, j);
    }
    return NN_OK;
}

nn_optim *nn_optim_new(nn_ctx *ctx, nn_tensor *const *params, int n, const nn_optim_config *cfg) {
    return nn_optim_new_groups(ctx, params, n, NULL, cfg, 1);
}

nn_optim *nn_optim_new_groups(nn_ctx *ctx, nn_tensor *const *params, int n, const int *group_of,
                              const nn_optim_config *cfgs, int n_groups) {
    NN_ASSERT(ctx && cfgs && n_groups >= 1);
    const nn_optim_config *cfg = &cfgs[0];
    for (int g = 0; g < n_groups; g++) {
        if (check_config(ctx, &cfgs[g])) return NULL;
        /* Its state block is laid out for these three. */
        if (cfgs[g].kind > NN_OPTIM_ADAMW) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "%s: whole-optimizer objects are SGD, Adam or AdamW; update %s's "
                         "tensors one at a time with nn_optim_update",
                         nn_optim_kind_name(cfgs[g].kind), nn_optim_kind_name(cfgs[g].kind));
            return NULL;
        }
    }
    const char *k = nn_optim_kind_name(cfg->kind);
    if (check_params(ctx, k, params, n)) return NULL;
    int nb = bufs_for(cfg);
    for (int g = 1; g < n_groups; g++) {
        if (cfgs[g].kind != cfg->kind || bufs_for(&cfgs[g]) != nb) {
            nn_error_set(&ctx->err, NN_ERR_VALUE,
                         "%s: parameter group %d differs from group 0 in %s; nndb's parameter "
                         "groups may differ in lr, weight_decay, betas, eps and dampening only",
                         k, g, cfg->kind == NN_OPTIM_SGD ? "having momentum" : "amsgrad");
            return NULL;
        }
    }
    for (int i = 0; group_of && i < n; i++) {
        if (group_of[i] < 0 || group_of[i] >= n_groups) {
            nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: parameter %d has no group (%d of %d)", k, i,
                         group_of[i], n_groups);
            return NULL;
        }
    }
    size_t groups_at = round_up(sizeof(nn_optim)) + round_up(sizeof(optim_slot) * (size_t)n);
    size_t head = groups_at + round_up(sizeof(nn_optim_config) * (size_t)n_groups);
    size_t total = head;
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)nn_tensor_numel(params[i]) * nn_dtype_size(params[i]->dtype);
        if (bytes > (SIZE_MAX / 8 - total) / MAX_BUFS) {
            nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: the parameters are too large", k);
            return NULL;
        }
        total += (size_t)nb * round_up(bytes);
    }
    int64_t words = (int64_t)((total + 7) / 8);
    nn_tensor *block = nn_tensor_empty(ctx, NN_FLOAT64, 1, &words);
    if (!block) {
        char msg[NN_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", ctx->err.msg);
        nn_error_set(&ctx->err, NN_ERR_MEMORY, "%s: no room for the optimizer's state: %s", k, msg);
        return NULL;
    }
    char *base = block->storage->data;
    memset(base, 0, total);
    nn_optim *opt = (nn_optim *)(void *)base;
    opt->cfg = *cfg;
    opt->groups = (nn_optim_config *)(void *)(base + groups_at);
    memcpy(opt->groups, cfgs, sizeof(nn_optim_config) * (size_t)n_groups);
    opt->n_groups = n_groups;
    opt->block = block;
    opt->n_params = n;
    opt->n_bufs = nb;
    opt->slots = (optim_slot *)(void *)(base + round_up(sizeof(nn_optim)));
    size_t off = head;
    for (int i = 0; i < n; i++) {
        optim_slot *s = &opt->slots[i];
        s->param = nn_tensor_retain(params[i]);
        s->dtype = params[i]->dtype;
        s->group = group_of ? group_of[i] : 0;
        size_t bytes = (size_t)nn_tensor_numel(params[i]) * nn_dtype_size(params[i]->dtype);
        for (int b = 0; b < nb; b++) {
            s->off[b] = off;
            off += round_up(bytes);
        }
    }
    NN_ASSERT(off == total);
    return opt;
}

nn_optim *nn_optim_sgd(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double momentum,
                       double dampening, double weight_decay, bool nesterov) {
    nn_optim_config c = nn_optim_defaults(NN_OPTIM_SGD);
    c.lr = lr, c.momentum = momentum, c.dampening = dampening;
    c.weight_decay = weight_decay, c.nesterov = nesterov;
    return nn_optim_new(ctx, params, n, &c);
}

static nn_optim *adam_like(nn_ctx *ctx, nn_optim_kind kind, nn_tensor *const *params, int n,
                           double lr, double beta1, double beta2, double eps, double weight_decay,
                           bool amsgrad) {
    nn_optim_config c = nn_optim_defaults(kind);
    c.lr = lr, c.beta1 = beta1, c.beta2 = beta2, c.eps = eps;
    c.weight_decay = weight_decay, c.amsgrad = amsgrad;
    return nn_optim_new(ctx, params, n, &c);
}

nn_optim *nn_optim_adam(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double beta1,
                        double beta2, double eps, double weight_decay, bool amsgrad) {
    return adam_like(ctx, NN_OPTIM_ADAM, params, n, lr, beta1, beta2, eps, weight_decay, amsgrad);
}

nn_optim *nn_optim_adamw(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double beta1,
                         double beta2, double eps, double weight_decay, bool amsgrad) {
    return adam_like(ctx, NN_OPTIM_ADAMW, params, n, lr, beta1, beta2, eps, weight_decay, amsgrad);
}

void nn_optim_free(nn_optim *opt) {
    if (!opt) return;
    /* The struct lives in the block: release the block last. */
    nn_tensor *block = opt->block;
    for (int i = 0; i < opt->n_params; i++) {
        nn_tensor_release(opt->slots[i].param);
        nn_tensor_release(opt->slots[i].update);
    }
    nn_tensor_release(block);
}

/* ---- update kernels ----
 * One row of the iteration: d[0] parameter, d[1] gradient, d[2..] state
 * buffers, with byte strides s[]. The hyper-parameters arrive combined in
 * double; each kernel rounds them once to its type, as PyTorch does with
 * Python floats. */

typedef struct step_arg {
    bool first; /* SGD: the momentum buffer starts as a copy of d_p */
    bool nesterov;
    bool amsgrad;
    bool decoupled; /* AdamW */
    bool maximize;  /* every kind: the gradient is negated first */
    bool centered;  /* RMSprop */
    double neg_lr;  /* SGD, RMSprop; Adagrad: -lr / (1 + (t - 1) lr_decay) */
    double wd, momentum, damp1;
    double beta1, one_m_beta1, beta2, one_m_beta2;
    double neg_step_size, bc2_sqrt, eps, decay;
    double alpha, one_m_alpha; /* RMSprop */
} step_arg;

#define AT(T, k, i) (*(T *)(void *)(d[k] + (i)*s[k]))

/* The loops run twice over: once on plain arrays when every operand is
 * contiguous (the usual case) and once with byte strides. BODY(X) is
 * written against X(k, i), operand k's element i.
 *
 * Rounding follows ATen's CPU kernels, measured against torch 1.13: add
 * with alpha (x.add_(y, alpha=a)) and addcmul (x + (v*y)*z) are one fused
 * multiply-add, FMA(a, b, c) = a*b + c rounded once; mul, addcdiv
 * (x + (v*y)/z), sqrt and a plain add round each op. */
#define UNIT(k, i)    u##k[i]
#define STRIDED(k, i) AT(T, k, i)

static bool all_unit(const int64_t *s, int nargs, int64_t es) {
    for (int k = 0; k < nargs; k++)
        if (s[k] != es) return false;
    return true;
}

/* PyTorch: d_p = g.add(p, alpha=wd); buf = d_p (first) or
 * buf.mul_(m).add_(d_p, alpha=1-dampening); d_p = nesterov ?
 * d_p.add(buf, alpha=m) : buf; p.add_(d_p, alpha=-lr). */
#define SGD_BODY(X, FMA)                                                                           \
    for (int64_t i = 0; i < n; i++) {                                                              \
        T p = X(0, i), dp = X(1, i);                                                               \
        if (maximize) dp = -dp;                                                                    \
        if (use_wd) dp = FMA(p, wd, dp);                                                           \
        if (mom) {                                                                                 \
            T buf = first ? dp : FMA(dp, damp1, X(2, i) * m);                                      \
            X(2, i) = buf;                                                                         \
            dp = nesterov ? FMA(buf, m, dp) : buf;                                                 \
        }                                                                                          \
        X(0, i) = FMA(dp, nlr, p);                                                                 \
    }

#define DEFINE_SGD(NAME, TYPE, FMA)                                                                \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        typedef TYPE T;                                                                            \
        const step_arg *a = argp;                                                                  \
        const T wd = (T)a->wd, m = (T)a->momentum, damp1 = (T)a->damp1, nlr = (T)a->neg_lr;        \
        const bool mom = a->momentum != 0, use_wd = a->wd != 0, first = a->first;                  \
        const bool nesterov = a->nesterov, maximize = a->maximize;                                 \
        if (all_unit(s, mom ? 3 : 2, (int64_t)sizeof(T))) {                                        \
            T *restrict u0 = (T *)(void *)d[0];                                                    \
            T *restrict u2 = mom ? (T *)(void *)d[2] : NULL;                                       \
            const T *restrict u1 = (const T *)(const void *)d[1];                                  \
            SGD_BODY(UNIT, FMA)                                                                    \
        } else {                                                                                   \
            SGD_BODY(STRIDED, FMA)                                                                 \
        }                                                                                          \
    }

/* PyTorch (Adam): g = g.add(p, alpha=wd). (AdamW): p.mul_(1 - lr wd). Then
 * m.mul_(b1).add_(g, alpha=1-b1); v.mul_(b2).addcmul_(g, g, value=1-b2);
 * vmax = maximum(vmax, v); denom = sqrt(v or vmax) / sqrt(1-b2^t) + eps;
 * p.addcdiv_(m, denom, value=-lr/(1-b1^t)).
 * maximize negates g by multiplying with gsign = -1 (exact). In the
 * contiguous case the other options are constants of each loop (ADAM_CASE),
 * so every combination is a loop without branches that the compiler
 * vectorises; a flag tested inside the loop kept it scalar (sqrt and two
 * divisions per element, a fifth of the MLP's training step). */
#define ADAM_BODY(X, SQRT, FMA)                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                              \
        T p = X(0, i), g = X(1, i) * gsign;                                                        \
        if (decoupled)                                                                             \
            p = p * decay;                                                                         \
        else if (use_wd)                                                                           \
            g = FMA(p, wd, g);                                                                     \
        T m = FMA(g, c1, X(2, i) * b1);                                                            \
        T v = FMA(c2 * g, g, X(3, i) * b2);                                                        \
        X(2, i) = m;                                                                               \
        X(3, i) = v;                                                                               \
        if (amsgrad) {                                                                             \
            T old = X(4, i);                                                                       \
            /* torch.maximum propagates NaN. */                                                    \
            old = (v != v || (old == old && v > old)) ? v : old;                                   \
            X(4, i) = old;                                                                         \
            v = old;                                                                               \
        }                                                                                          \
        T denom = SQRT(v) / bc2s + eps;                                                            \
        X(0, i) = p + nss * m / denom;                                                             \
    }

/* The contiguous loop with [DEC], [WD] and [AMS] as constants. */
#define ADAM_CASE(DEC, WD, AMS, SQRT, FMA)                                                         \
    do {                                                                                           \
        const bool decoupled = DEC, use_wd = WD, amsgrad = AMS;                                    \
        ADAM_BODY(UNIT, SQRT, FMA)                                                                 \
    } while (0)

#define DEFINE_ADAM(NAME, TYPE, SQRT, FMA)                                                         \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        typedef TYPE T;                                                                            \
        const step_arg *a = argp;                                                                  \
        const T wd = (T)a->wd, b1 = (T)a->beta1, c1 = (T)a->one_m_beta1, b2 = (T)a->beta2;         \
        const T c2 = (T)a->one_m_beta2, nss = (T)a->neg_step_size, bc2s = (T)a->bc2_sqrt;          \
        const T eps = (T)a->eps, decay = (T)a->decay, gsign = a->maximize ? (T)-1 : (T)1;          \
        if (all_unit(s, a->amsgrad ? 5 : 4, (int64_t)sizeof(T))) {                                 \
            T *restrict u0 = (T *)(void *)d[0], *restrict u2 = (T *)(void *)d[2];                  \
            T *restrict u3 = (T *)(void *)d[3];                                                    \
            T *restrict u4 = a->amsgrad ? (T *)(void *)d[4] : NULL;                                \
            const T *restrict u1 = (const T *)(const void *)d[1];                                  \
            /* AdamW ignores use_wd; Adam's L2 term only when wd != 0. */                          \
            int mode = a->decoupled ? 2 : a->wd != 0 ? 1 : 0;                                      \
            if (a->amsgrad) {                                                                      \
                if (mode == 2)                                                                     \
                    ADAM_CASE(true, false, true, SQRT, FMA);                                       \
                else if (mode == 1)                                                                \
                    ADAM_CASE(false, true, true, SQRT, FMA);                                       \
                else                                                                               \
                    ADAM_CASE(false, false, true, SQRT, FMA);                                      \
            } else {                                                                               \
                if (mode == 2)                                                                     \
                    ADAM_CASE(true, false, false, SQRT, FMA);                                      \
                else if (mode == 1)                                                                \
                    ADAM_CASE(false, true, false, SQRT, FMA);                                      \
                else                                                                               \
                    ADAM_CASE(false, false, false, SQRT, FMA);                                     \
            }                                                                                      \
        } else {                                                                                   \
            const bool decoupled = a->decoupled, use_wd = a->wd != 0, amsgrad = a->amsgrad;        \
            ADAM_BODY(STRIDED, SQRT, FMA)                                                          \
        }                                                                                          \
    }

/* PyTorch (RMSprop): g = g.add(p, alpha=wd); sa.mul_(a).addcmul_(g, g,
 * value=1-a); centered: ga.mul_(a).add_(g, alpha=1-a),
 * avg = sa.addcmul(ga, ga, value=-1).sqrt_(), else avg = sa.sqrt();
 * avg.add_(eps); momentum: buf.mul_(m).addcdiv_(g, avg), p.add_(buf,
 * alpha=-lr); else p.addcdiv_(g, avg, value=-lr). d[3] is the momentum
 * buffer, d[4] grad_avg (nn_optim_update's order); each is read only when
 * in use. */
#define RMSPROP_BODY(X, SQRT, FMA)                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                              \
        T p = X(0, i), g = X(1, i);                                                                \
        if (maximize) g = -g;                                                                      \
        if (use_wd) g = FMA(p, wd, g);                                                             \
        T sa = FMA(c * g, g, X(2, i) * al);                                                        \
        X(2, i) = sa;                                                                              \
        T avg;                                                                                     \
        if (centered) {                                                                            \
            T ga = FMA(g, c, X(4, i) * al);                                                        \
            X(4, i) = ga;                                                                          \
            avg = SQRT(FMA(-ga, ga, sa));                                                          \
        } else {                                                                                   \
            avg = SQRT(sa);                                                                        \
        }                                                                                          \
        avg = avg + eps;                                                                           \
        if (mom) {                                                                                 \
            T buf = X(3, i) * m + g / avg;                                                         \
            X(3, i) = buf;                                                                         \
            X(0, i) = FMA(buf, nlr, p);                                                            \
        } else {                                                                                   \
            X(0, i) = p + nlr * g / avg;                                                           \
        }                                                                                          \
    }

#define DEFINE_RMSPROP(NAME, TYPE, SQRT, FMA)                                                      \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        typedef TYPE T;                                                                            \
        const step_arg *a = argp;                                                                  \
        const T wd = (T)a->wd, al = (T)a->alpha, c = (T)a->one_m_alpha, m = (T)a->momentum;        \
        const T eps = (T)a->eps, nlr = (T)a->neg_lr;                                               \
        const bool maximize = a->maximize, use_wd = a->wd != 0, centered = a->centered;            \
        const bool mom = a->momentum > 0;                                                          \
        if (all_unit(s, 5, (int64_t)sizeof(T))) {                                                  \
            T *u0 = (T *)(void *)d[0], *u2 = (T *)(void *)d[2];                                    \
            T *u3 = (T *)(void *)d[3], *u4 = (T *)(void *)d[4];                                    \
            const T *u1 = (const T *)(const void *)d[1];                                           \
            RMSPROP_BODY(UNIT, SQRT, FMA)                                                          \
        } else {                                                                                   \
            RMSPROP_BODY(STRIDED, SQRT, FMA)                                                       \
        }                                                                                          \
    }

/* PyTorch (Adagrad): g = g.add(p, alpha=wd); sum.addcmul_(g, g, value=1);
 * std = sum.sqrt().add_(eps); p.addcdiv_(g, std, value=-clr) with
 * clr = lr / (1 + (t - 1) lr_decay). */
#define ADAGRAD_BODY(X, SQRT, FMA)                                                                 \
    for (int64_t i = 0; i < n; i++) {                                                              \
        T p = X(0, i), g = X(1, i);                                                                \
        if (maximize) g = -g;                                                                      \
        if (use_wd) g = FMA(p, wd, g);                                                             \
        T sum = FMA(g, g, X(2, i));                                                                \
        X(2, i) = sum;                                                                             \
        X(0, i) = p + nclr * g / (SQRT(sum) + eps);                                                \
    }

#define DEFINE_ADAGRAD(NAME, TYPE, SQRT, FMA)                                                      \
    NN_KERNEL_CLONES static void NAME(char **d, const int64_t *s, int64_t n, void *argp) {         \
        typedef TYPE T;                                                                            \
        const step_arg *a = argp;                                                                  \
        const T wd = (T)a->wd, eps = (T)a->eps, nclr = (T)a->neg_lr;                               \
        const bool maximize = a->maximize, use_wd = a->wd != 0;                                    \
        if (all_unit(s, 3, (int64_t)sizeof(T))) {                                                  \
            T *restrict u0 = (T *)(void *)d[0], *restrict u2 = (T *)(void *)d[2];                  \
            const T *restrict u1 = (const T *)(const void *)d[1];                                  \
            ADAGRAD_BODY(UNIT, SQRT, FMA)                                                          \
        } else {                                                                                   \
            ADAGRAD_BODY(STRIDED, SQRT, FMA)                                                       \
        }                                                                                          \
    }

DEFINE_SGD(sgd_f32, float, fmaf)
DEFINE_SGD(sgd_f64, double, fma)
DEFINE_ADAM(adam_f32, float, sqrtf, fmaf)
DEFINE_ADAM(adam_f64, double, sqrt, fma)
DEFINE_RMSPROP(rmsprop_f32, float, sqrtf, fmaf)
DEFINE_RMSPROP(rmsprop_f64, double, sqrt, fma)
DEFINE_ADAGRAD(adagrad_f32, float, sqrtf, fmaf)
DEFINE_ADAGRAD(adagrad_f64, double, sqrt, fma)

/* pow([beta], t), remembered for the next call: every parameter of a group
 * asks for the same two powers at the same step (two libm pow calls per
 * parameter were a tenth of a small Adam step). Per thread, so the engine
 * stays safe to call from several. */
static double beta_pow(double beta, int64_t t, int which) {
    static _Thread_local struct {
        uint64_t beta; /* its bits: -0.0 and NaN payloads stay apart */
        int64_t t;
        double value;
    } memo[2];
    uint64_t bits;
    memcpy(&bits, &beta, sizeof bits);
    if (memo[which].t != t || memo[which].beta != bits || t == 0) {
        memo[which].beta = bits;
        memo[which].t = t;
        memo[which].value = pow(beta, (double)t);
    }
    return memo[which].value;
}

/* The kernel of [c]'s kind for [dtype] and its arguments for update number
 * [t] (counting from 1): hyper-parameters combined in double as torch's
 * Python code combines them. */
static nn_iter_loop prepare_step(const nn_optim_config *c, nn_dtype dtype, int64_t t, step_arg *a) {
    memset(a, 0, sizeof *a);
    bool f32 = dtype == NN_FLOAT32;
    a->wd = c->weight_decay;
    a->maximize = c->maximize;
    a->eps = c->eps;
    switch (c->kind) {
    case NN_OPTIM_SGD:
        a->first = t == 1;
        a->nesterov = c->nesterov;
        a->momentum = c->momentum;
        a->damp1 = 1.0 - c->dampening;
        a->neg_lr = -c->lr;
        return f32 ? sgd_f32 : sgd_f64;
    case NN_OPTIM_ADAM:
    case NN_OPTIM_ADAMW:
        a->amsgrad = c->amsgrad;
        a->decoupled = c->kind == NN_OPTIM_ADAMW;
        a->decay = 1.0 - c->lr * c->weight_decay;
        a->beta1 = c->beta1, a->one_m_beta1 = 1.0 - c->beta1;
        a->beta2 = c->beta2, a->one_m_beta2 = 1.0 - c->beta2;
        a->neg_step_size = -(c->lr / (1.0 - beta_pow(c->beta1, t, 0)));
        a->bc2_sqrt = sqrt(1.0 - beta_pow(c->beta2, t, 1));
        return f32 ? adam_f32 : adam_f64;
    case NN_OPTIM_RMSPROP:
        a->centered = c->centered;
        a->momentum = c->momentum;
        a->alpha = c->alpha, a->one_m_alpha = 1.0 - c->alpha;
        a->neg_lr = -c->lr;
        return f32 ? rmsprop_f32 : rmsprop_f64;
    case NN_OPTIM_ADAGRAD:
        a->neg_lr = -(c->lr / (1.0 + (double)(t - 1) * c->lr_decay));
        return f32 ? adagrad_f32 : adagrad_f64;
    }
    return NULL;
}

/* Add a contiguous buffer in the block, laid out like [like]'s shape. */
static void iter_add_buffer(nn_iter *it, char *ptr, const nn_tensor *like) {
    NN_ASSERT(it->nargs < NN_ITER_MAX_ARGS);
    int k = it->nargs++;
    int64_t st = (int64_t)nn_dtype_size(like->dtype);
    for (int i = like->ndim - 1; i >= 0; i--) {
        it->strides[k][i] = st;
        st *= like->shape[i];
    }
    it->data[k] = ptr;
}

/* True when no two elements of [t] share memory through a stride-0 dim: an
 * update can then be split across threads (every element written once). */
static bool no_broadcast(const nn_tensor *t) {
    for (int i = 0; i < t->ndim; i++)
        if (t->shape[i] > 1 && t->strides[i] == 0) return false;
    return true;
}

/* One pass over parameter, gradient and state, split across the engine's
 * threads above the elementwise size threshold. The kernels are elementwise,
 * so the bits do not depend on the split. */
static void run_update(nn_iter *it, nn_iter_loop loop, step_arg *a, bool parallel) {
    if (parallel)
        nn_iter_run_parallel(it, loop, a, NN_PAR_MIN_ELEMWISE);
    else
        nn_iter_run(it, loop, a);
}

/* ---- the NaN hunt's check of what an update writes (ctx->check_writes) ----
 * The update runs in blocks small enough to stay in cache, and each
 * block's new parameter values (operand 0) are scanned right after they are
 * written: the check after the step then finds the parameter marked finite
 * and need not read it from memory again. The kernel sees the same
 * elements in the same order, so the bits are those of the unchecked run. */
#define CHECK_BLOCK 2048

typedef struct checked_arg {
    nn_iter_loop loop;
    void *arg;
    int nargs;
    bool f64;
    atomic_int bad; /* some block wrote a non-finite value */
} checked_arg;

static void checked_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    checked_arg *c = argp;
    const int64_t es = c->f64 ? 8 : 4;
    char *dd[NN_ITER_MAX_ARGS];
    for (int64_t i = 0; i < n; i += CHECK_BLOCK) {
        int64_t m = n - i < CHECK_BLOCK ? n - i : CHECK_BLOCK;
        for (int k = 0; k < c->nargs; k++) dd[k] = d[k] + i * s[k];
        c->loop(dd, s, m, c->arg);
        if (atomic_load_explicit(&c->bad, memory_order_relaxed)) continue;
        bool bad = false;
        if (s[0] == es) {
            bad = nn_span_nonfinite(dd[0], m, c->f64);
        } else {
            for (int64_t j = 0; j < m && !bad; j++) {
                const char *q = dd[0] + j * s[0];
                bad = !isfinite(c->f64 ? *(const double *)(const void *)q
                                       : (double)*(const float *)(const void *)q);
            }
        }
        if (bad) atomic_store_explicit(&c->bad, 1, memory_order_relaxed);
    }
}

/* run_update, checked when the hunt is on; then the parameter, its version
 * bumped, is marked finite when every value written was. */
static void run_checked(nn_ctx *ctx, nn_iter *it, nn_iter_loop loop, step_arg *a, bool parallel,
                        nn_tensor *param) {
    if (!ctx->check_writes) {
        run_update(it, loop, a, parallel);
        param->storage->version++;
        return;
    }
    checked_arg c = {loop, a, it->nargs, param->dtype == NN_FLOAT64, 0};
    if (parallel)
        nn_iter_run_parallel(it, checked_loop, &c, NN_PAR_MIN_ELEMWISE);
    else
        nn_iter_run(it, checked_loop, &c);
    param->storage->version++;
    if (!atomic_load(&c.bad)) nn_tensor_mark_finite(param);
}

static nn_status check_grad(nn_ctx *ctx, const nn_optim *opt, int i) {
    const nn_tensor *p = opt->slots[i].param, *g = nn_tensor_grad(p);
    if (p->dtype != opt->slots[i].dtype)
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s.step(): parameter %d was %s when the optimizer was made and is %s "
                            "now (module.double() or .float() since?); nothing was updated. "
                            "Make a new optimizer for the converted parameters",
                            nn_optim_kind_name(opt->cfg.kind), i,
                            nn_dtype_name(opt->slots[i].dtype), nn_dtype_name(p->dtype));
    if (!g) return NN_OK;
    if (g->dtype != p->dtype || !nn_tensor_same_shape(g, p)) {
        char a[128], b[128];
        return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                            "%s.step(): parameter %d is %s %s but its gradient is %s %s; "
                            "nothing was updated. Set a gradient of the parameter's shape and "
                            "dtype, or zero_grad()",
                            nn_optim_kind_name(opt->cfg.kind), i, nn_dtype_name(p->dtype),
                            nn_tensor_shape_str(p, a, sizeof a), nn_dtype_name(g->dtype),
                            nn_tensor_shape_str(g, b, sizeof b));
    }
    return NN_OK;
}

nn_status nn_optim_step(nn_ctx *ctx, nn_optim *opt) {
    NN_ASSERT(ctx && opt);
    /* Validate everything first so that an error leaves no parameter half-updated. */
    for (int i = 0; i < opt->n_params; i++)
        if (check_grad(ctx, opt, i)) return ctx->err.code;
    char *base = opt->block->storage->data;
    for (int i = 0; i < opt->n_params; i++) {
        optim_slot *sl = &opt->slots[i];
        const nn_optim_config *c = &opt->groups[sl->group];
        nn_tensor *p = sl->param, *g = nn_tensor_grad(p);
        if (!g) continue;
        /* Kept updates: remember the old values, subtract them afterwards. */
        if (sl->update && nn_tensor_copy_(ctx, sl->update, p)) return ctx->err.code;
        step_arg a;
        nn_iter_loop loop = prepare_step(c, p->dtype, sl->steps + 1, &a);
        nn_iter it;
        nn_iter_init(&it, p->ndim, p->shape);
        nn_iter_add(&it, p);
        nn_iter_add(&it, g);
        for (int b = 0; b < opt->n_bufs; b++) iter_add_buffer(&it, base + sl->off[b], p);
        /* p: checked by the iterator; buffers: contiguous */
        run_checked(ctx, &it, loop, &a, true, p);
        sl->steps++;
        if (sl->update) {
            /* update = old - new, then negated: new - old. */
            if (nn_raw_add_into(ctx, sl->update, p, -1.0) ||
                nn_tensor_mul_scalar_(ctx, sl->update, -1.0))
                return ctx->err.code;
            sl->has_update = true;
        }
    }
    opt->step_count++;
    if (opt->on_step) opt->on_step(opt, opt->on_step_user);
    return NN_OK;
}

/* The state tensors [kind] needs under [c], in nn_optim_update's order. */
static int state_slots(const nn_optim_config *c, bool need[3]) {
    need[0] = need[1] = need[2] = false;
    switch (c->kind) {
    case NN_OPTIM_SGD: need[0] = c->momentum != 0; return 1;
    case NN_OPTIM_ADAM:
    case NN_OPTIM_ADAMW:
        need[0] = need[1] = true;
        need[2] = c->amsgrad;
        return 3;
    case NN_OPTIM_RMSPROP:
        need[0] = true;
        need[1] = c->momentum > 0;
        need[2] = c->centered;
        return 3;
    case NN_OPTIM_ADAGRAD: need[0] = true; return 1;
    }
    return 0;
}

static const char *const state_names[][3] = {
    [NN_OPTIM_SGD] = {"momentum_buffer"},
    [NN_OPTIM_ADAM] = {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"},
    [NN_OPTIM_ADAMW] = {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"},
    [NN_OPTIM_RMSPROP] = {"square_avg", "momentum_buffer", "grad_avg"},
    [NN_OPTIM_ADAGRAD] = {"sum"},
};

static nn_status check_like(nn_ctx *ctx, const char *k, const char *what, const nn_tensor *t,
                            const nn_tensor *p) {
    if (t->dtype == p->dtype && nn_tensor_same_shape(t, p)) return NN_OK;
    char a[128], b[128];
    return nn_error_set(&ctx->err, NN_ERR_SHAPE,
                        "%s: the parameter is %s %s but its %s is %s %s; nothing was updated", k,
                        nn_dtype_name(p->dtype), nn_tensor_shape_str(p, a, sizeof a), what,
                        nn_dtype_name(t->dtype), nn_tensor_shape_str(t, b, sizeof b));
}

nn_status nn_optim_update(nn_ctx *ctx, const nn_optim_config *cfg, nn_tensor *param,
                          const nn_tensor *grad, nn_tensor *const *state, int64_t step) {
    NN_ASSERT(ctx && cfg && param && grad);
    if (check_config(ctx, cfg)) return ctx->err.code;
    const char *k = nn_optim_kind_name(cfg->kind);
    if (!nn_dtype_is_float(param->dtype) || nn_dtype_is_narrow(param->dtype))
        return nn_error_set(&ctx->err, NN_ERR_TYPE,
                            "%s: the parameter is %s; only float32 and float64 tensors are "
                            "updated here",
                            k, nn_dtype_name(param->dtype));
    if (step < 1)
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: step %lld; updates count from 1", k,
                            (long long)step);
    if (check_like(ctx, k, "gradient", grad, param)) return ctx->err.code;
    bool need[3];
    int n_state = state_slots(cfg, need);
    for (int b = 0; b < n_state; b++) {
        if (!need[b]) continue;
        if (!state || !state[b])
            return nn_error_set(&ctx->err, NN_ERR_VALUE, "%s: the state '%s' is missing", k,
                                state_names[cfg->kind][b]);
        if (check_like(ctx, k, state_names[cfg->kind][b], state[b], param)) return ctx->err.code;
    }
    step_arg a;
    nn_iter_loop loop = prepare_step(cfg, param->dtype, step, &a);
    /* The kernel's operands: parameter, gradient, then the state buffers.
     * RMSprop's kernel takes all three buffers; one not in use is never
     * read, so the first stands in for it. */
    const nn_tensor *ops[2 + 3] = {param, grad};
    int n_ops = 2, args = cfg->kind == NN_OPTIM_RMSPROP ? 3 : n_state;
    for (int b = 0; b < args; b++) {
        if (need[b])
            ops[n_ops++] = state[b];
        else if (cfg->kind == NN_OPTIM_RMSPROP)
            ops[n_ops++] = state[0];
        else
            break; /* SGD without momentum, Adam without amsgrad: the last one */
    }
    /* All contiguous, one thread's worth, no NaN hunt: one call of the
     * kernel over the elements, which is what the iterator ends up making
     * for such operands, without building it (a small model's step
     * updates each of its parameters so). */
    int64_t numel = nn_tensor_numel(param);
    bool direct = !ctx->check_writes && nn_parallel_tasks(numel, NN_PAR_MIN_ELEMWISE) <= 1;
    for (int o = 0; o < n_ops && direct; o++) direct = nn_tensor_is_contiguous(ops[o]);
    if (direct) {
        char *d[2 + 3];
        int64_t es = (int64_t)nn_dtype_size(param->dtype), st[2 + 3];
        for (int o = 0; o < n_ops; o++) d[o] = nn_tensor_data(ops[o]), st[o] = es;
        if (numel > 0) loop(d, st, numel, &a);
        param->storage->version++;
        for (int b = 0; b < n_state; b++)
            if (need[b]) state[b]->storage->version++;
        return NN_OK;
    }
    nn_iter it;
    nn_iter_init(&it, param->ndim, param->shape);
    for (int o = 0; o < n_ops; o++) nn_iter_add(&it, ops[o]);
    bool parallel = true;
    for (int b = 0; b < n_state; b++)
        if (need[b] && !no_broadcast(state[b])) parallel = false;
    run_checked(ctx, &it, loop, &a, parallel, param);
    for (int b = 0; b < n_state; b++)
        if (need[b]) state[b]->storage->version++;
    return NN_OK;
}

void nn_optim_on_step(nn_optim *opt, nn_optim_step_fn fn, void *user) {
    opt->on_step = fn;
    opt->on_step_user = fn ? user : NULL;
}

void *nn_optim_step_observer(const nn_optim *opt) {
    return opt->on_step_user;
}

nn_status nn_optim_keep_updates(nn_ctx *ctx, nn_optim *opt, bool on) {
    opt->keep_updates = on;
    for (int i = 0; i < opt->n_params; i++) {
        optim_slot *sl = &opt->slots[i];
        if (!on) {
            nn_tensor_release(sl->update);
            sl->update = NULL;
            sl->has_update = false;
        } else if (!sl->update) {
            sl->update = nn_zeros(ctx, sl->dtype, sl->param->ndim, sl->param->shape);
            if (!sl->update) {
                nn_optim_keep_updates(ctx, opt, false);
                return ctx->err.code;
            }
        }
    }
    return NN_OK;
}

bool nn_optim_keeps_updates(const nn_optim *opt) {
    return opt->keep_updates;
}

nn_tensor *nn_optim_last_update(const nn_optim *opt, int i) {
    if (i < 0 || i >= opt->n_params || !opt->slots[i].has_update) return NULL;
    return opt->slots[i].update;
}

static void zero_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    size_t es = *(const size_t *)argp;
    if (s[0] == (int64_t)es) {
        memset(d[0], 0, (size_t)n * es);
        return;
    }
    for (int64_t i = 0; i < n; i++) memset(d[0] + i * s[0], 0, es);
}

void nn_optim_zero_grad(nn_optim *opt, bool set_to_none) {
    if (!opt) return;
    for (int i = 0; i < opt->n_params; i++) {
        nn_tensor *p = opt->slots[i].param, *g = nn_tensor_grad(p);
        if (!g) continue;
        if (set_to_none) {
            nn_tensor_clear_grad(p);
            continue;
        }
        size_t es = nn_dtype_size(g->dtype);
        nn_iter it;
        nn_iter_init(&it, g->ndim, g->shape);
        nn_iter_add(&it, g);
        nn_iter_run(&it, zero_loop, &es);
        g->storage->version++;
    }
}

/* ---- inspection ---- */

nn_optim_kind nn_optim_get_kind(const nn_optim *opt) {
    return opt->cfg.kind;
}

const nn_optim_config *nn_optim_get_config(const nn_optim *opt) {
    return &opt->cfg;
}

nn_status nn_optim_set_lr(nn_ctx *ctx, nn_optim *opt, double lr) {
    if (!(lr >= 0) || isinf(lr))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "%s: invalid learning rate lr=%g; it must be a finite number >= 0",
                            nn_optim_kind_name(opt->cfg.kind), lr);
    opt->cfg.lr = lr;
    for (int g = 0; g < opt->n_groups; g++) opt->groups[g].lr = lr;
    return NN_OK;
}

int nn_optim_num_groups(const nn_optim *opt) {
    return opt->n_groups;
}

int nn_optim_param_group(const nn_optim *opt, int i) {
    return i >= 0 && i < opt->n_params ? opt->slots[i].group : -1;
}

const nn_optim_config *nn_optim_group_config(const nn_optim *opt, int g) {
    return g >= 0 && g < opt->n_groups ? &opt->groups[g] : NULL;
}

nn_status nn_optim_set_group_config(nn_ctx *ctx, nn_optim *opt, int g, const nn_optim_config *cfg) {
    const char *k = nn_optim_kind_name(opt->cfg.kind);
    if (g < 0 || g >= opt->n_groups)
        return nn_error_set(&ctx->err, NN_ERR_INDEX, "%s: no parameter group %d (%d groups)", k, g,
                            opt->n_groups);
    if (check_config(ctx, cfg)) return ctx->err.code;
    if (cfg->kind != opt->cfg.kind || bufs_for(cfg) != bufs_for(&opt->cfg))
        return nn_error_set(
            &ctx->err, NN_ERR_VALUE,
            "%s: parameter group %d cannot change %s after the optimizer is "
            "built",
            k, g, opt->cfg.kind == NN_OPTIM_SGD ? "between momentum and none" : "amsgrad");
    opt->groups[g] = *cfg;
    if (g == 0) opt->cfg = *cfg;
    return NN_OK;
}

double nn_optim_get_lr(const nn_optim *opt) {
    return opt->cfg.lr;
}

int nn_optim_num_params(const nn_optim *opt) {
    return opt->n_params;
}

nn_tensor *nn_optim_param(const nn_optim *opt, int i) {
    return i >= 0 && i < opt->n_params ? opt->slots[i].param : NULL;
}

int64_t nn_optim_step_count(const nn_optim *opt) {
    return opt->step_count;
}

int64_t nn_optim_param_steps(const nn_optim *opt, int i) {
    return i >= 0 && i < opt->n_params ? opt->slots[i].steps : -1;
}

const char *const *nn_optim_state_names(const nn_optim *opt) {
    if (opt->cfg.kind == NN_OPTIM_SGD) return opt->n_bufs ? sgd_names : sgd_plain_names;
    return opt->cfg.amsgrad ? adam_ams_names : adam_names;
}

nn_tensor *nn_optim_state(nn_ctx *ctx, const nn_optim *opt, int i, const char *name) {
    const char *k = nn_optim_kind_name(opt->cfg.kind);
    if (i < 0 || i >= opt->n_params) {
        nn_error_set(&ctx->err, NN_ERR_INDEX,
                     "%s: parameter index %d is out of range (the optimizer has %d parameters)", k,
                     i, opt->n_params);
        return NULL;
    }
    const optim_slot *sl = &opt->slots[i];
    if (name && !strcmp(name, "step")) {
        if (opt->cfg.kind == NN_OPTIM_SGD || sl->steps == 0) return NULL;
        return nn_scalar(ctx, (double)sl->steps, NN_FLOAT32);
    }
    const char *const *names = nn_optim_state_names(opt);
    int b = -1;
    for (int j = 0; names[j]; j++)
        if (name && !strcmp(names[j], name)) b = j;
    if (b < 0) {
        char list[160] = "";
        size_t len = 0;
        for (int j = 0; names[j] && len < sizeof list; j++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", j ? ", " : "", names[j]);
        nn_error_set(&ctx->err, NN_ERR_VALUE, "%s has no state named '%s'; it keeps: %s%sstep", k,
                     name ? name : "(null)", list, list[0] ? ", " : "");
        return NULL;
    }
    if (sl->steps == 0) return NULL;
    const nn_tensor *p = sl->param;
    int64_t es = (int64_t)nn_dtype_size(p->dtype), strides[NN_MAX_DIMS], st = 1;
    for (int d = p->ndim - 1; d >= 0; d--) {
        strides[d] = st;
        st *= p->shape[d];
    }
    /* The block is typed float64 only to have a size; the view takes the
     * parameter's dtype, with the offset in its elements. */
    nn_tensor *v =
        nn_tensor_view_raw(ctx, opt->block, p->ndim, p->shape, strides, (int64_t)sl->off[b] / es);
    if (v) v->dtype = p->dtype;
    return v;
}

/* ---- gradient clipping ---- */

typedef struct norm_arg {
    nn_dtype dt;
    double p;      /* 2, other finite p, or INFINITY */
    double acc;    /* sum |g|^p, or max |g| */
    int64_t index; /* elements visited so far */
    int64_t bad;   /* flat index of the first non-finite element, or -1 */
    double bad_val;
} norm_arg;

static void norm_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    norm_arg *a = argp;
    double acc = a->acc;
    for (int64_t i = 0; i < n; i++) {
        double x = a->dt == NN_FLOAT32 ? (double)AT(float, 0, i) : AT(double, 0, i);
        if (!isfinite(x) && a->bad < 0) a->bad = a->index + i, a->bad_val = x;
        double ax = fabs(x);
        if (a->p == 2)
            acc += ax * ax;
        else if (isinf(a->p))
            acc = (ax > acc || ax != ax) ? ax : acc;
        else
            acc += pow(ax, a->p);
    }
    a->acc = acc;
    a->index += n;
}

static void scale_loop(char **d, const int64_t *s, int64_t n, void *argp) {
    const norm_arg *a = argp; /* acc holds the coefficient */
    if (a->dt == NN_FLOAT32) {
        float c = (float)a->acc;
        for (int64_t i = 0; i < n; i++) AT(float, 0, i) *= c;
    } else {
        for (int64_t i = 0; i < n; i++) AT(double, 0, i) *= a->acc;
    }
}

nn_status nn_clip_grad_norm(nn_ctx *ctx, nn_tensor *const *params, int n, double max_norm,
                            double norm_type, double *total_norm) {
    if (total_norm) *total_norm = 0;
    if (n < 0 || (n > 0 && !params))
        return nn_error_set(&ctx->err, NN_ERR_VALUE, "clip_grad_norm: bad parameter list (n=%d)",
                            n);
    if (!(max_norm >= 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "clip_grad_norm: max_norm=%g must be a number >= 0", max_norm);
    if (!(norm_type > 0))
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "clip_grad_norm: norm_type=%g is not supported; use 2 (the default), "
                            "another p > 0, or inf",
                            norm_type);
    double acc = 0;
    int first_bad = -1;
    int64_t bad_at = -1;
    double bad_val = 0;
    for (int i = 0; i < n; i++) {
        if (!params[i])
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "clip_grad_norm: parameter %d is missing (NULL)", i);
        nn_tensor *g = nn_tensor_grad(params[i]);
        if (!g) continue;
        if (!nn_dtype_is_float(g->dtype))
            return nn_error_set(&ctx->err, NN_ERR_TYPE,
                                "clip_grad_norm: the gradient of parameter %d is %s, not float", i,
                                nn_dtype_name(g->dtype));
        norm_arg a = {g->dtype, norm_type, 0, 0, -1, 0};
        nn_iter it;
        nn_iter_init(&it, g->ndim, g->shape);
        nn_iter_add(&it, g);
        nn_iter_run(&it, norm_loop, &a);
        if (a.bad >= 0 && first_bad < 0) first_bad = i, bad_at = a.bad, bad_val = a.bad_val;
        if (isinf(norm_type))
            acc = (a.acc > acc || a.acc != a.acc) ? a.acc : acc;
        else
            acc += a.acc;
    }
    double total = isinf(norm_type) ? acc : norm_type == 2 ? sqrt(acc) : pow(acc, 1.0 / norm_type);
    if (total_norm) *total_norm = total;
    if (!isfinite(total)) {
        if (first_bad >= 0) {
            char sh[128];
            nn_tensor *g = nn_tensor_grad(params[first_bad]);
            return nn_error_set(&ctx->err, NN_ERR_VALUE,
                                "clip_grad_norm: the total gradient norm is %g because the "
                                "gradient of parameter %d (shape %s) holds non-finite values "
                                "(first: %g at flat index %lld); gradients were left unscaled. "
                                "Find the op that produced it (%%anomaly on), or lower the "
                                "learning rate",
                                total, first_bad, nn_tensor_shape_str(g, sh, sizeof sh), bad_val,
                                (long long)bad_at);
        }
        return nn_error_set(&ctx->err, NN_ERR_VALUE,
                            "clip_grad_norm: the total gradient norm overflowed to %g although "
                            "every gradient is finite (they are very large); gradients were "
                            "left unscaled",
                            total);
    }
    double coef = max_norm / (total + 1e-6);
    if (coef >= 1.0) return NN_OK;
    for (int i = 0; i < n; i++) {
        nn_tensor *g = nn_tensor_grad(params[i]);
        if (!g) continue;
        norm_arg a = {g->dtype, 0, coef, 0, -1, 0};
        nn_iter it;
        nn_iter_init(&it, g->ndim, g->shape);
        nn_iter_add(&it, g);
        nn_iter_run(&it, scale_loop, &a);
        g->storage->version++;
    }
    return NN_OK;
}
