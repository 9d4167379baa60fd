/* nn_optim: optimizers (SGD, Adam, AdamW) and gradient-norm clipping, with
 * the update rules of torch.optim so that a run here and a run in PyTorch
 * agree to float32 round-off. nn_optim_update is one such update of one
 * tensor with state the caller keeps (torch.optim's Python classes keep it
 * in optimizer.state); it also knows RMSprop and Adagrad.
 *
 * Ownership: nn_optim_new (and the nn_optim_sgd/adam/adamw shorthands)
 * returns an optimizer the caller owns and gives back with nn_optim_free
 * (which accepts NULL). The optimizer retains a reference to every parameter
 * it was given and releases them when freed. Its parameter list and all its
 * state (momentum buffers, exp_avg, exp_avg_sq, max_exp_avg_sq) live in one
 * contiguous pooled block allocated at creation, so nn_optim_step allocates
 * nothing. Tensors returned by nn_optim_state are new references to views of
 * that block: they stay valid after the optimizer is freed, and writing into
 * them changes the optimizer's state (as editing optimizer.state does in
 * PyTorch).
 */
#ifndef NN_OPTIM_H
#define NN_OPTIM_H

#include "nn_ctx.h"

/* nn_optim_new takes the first three; nn_optim_update takes all. */
typedef enum nn_optim_kind {
    NN_OPTIM_SGD,
    NN_OPTIM_ADAM,
    NN_OPTIM_ADAMW,
    NN_OPTIM_RMSPROP,
    NN_OPTIM_ADAGRAD
} nn_optim_kind;

/* Hyper-parameters; each kind reads its own fields. Start from
 * nn_optim_defaults and override, as keyword arguments do in PyTorch. */
typedef struct nn_optim_config {
    nn_optim_kind kind;
    double lr;
    double weight_decay; /* SGD/Adam: L2 added to the gradient; AdamW: decoupled */
    /* SGD */
    double momentum;
    double dampening;
    bool nesterov;
    /* Adam, AdamW */
    double beta1, beta2;
    double eps;
    bool amsgrad;
    /* RMSprop (with momentum and eps above) */
    double alpha;
    bool centered;
    /* Adagrad (with eps above) */
    double lr_decay;
    /* Every kind: ascend the gradient instead (torch's maximize=True). */
    bool maximize;
} nn_optim_config;

typedef struct nn_optim nn_optim;

/* PyTorch's defaults for [kind]: SGD lr 1e-3 (PyTorch has no default lr for
 * SGD; give one), momentum 0, dampening 0, weight_decay 0, no nesterov; Adam
 * lr 1e-3, betas (0.9, 0.999), eps 1e-8, weight_decay 0; AdamW the same with
 * weight_decay 1e-2; RMSprop lr 1e-2, alpha 0.99, eps 1e-8; Adagrad lr 1e-2,
 * eps 1e-10, lr_decay 0. */
nn_optim_config nn_optim_defaults(nn_optim_kind kind);

/* An optimizer over params[0..n) (leaf float tensors; each at most once).
 * Bad hyper-parameters or parameters are errors naming the value and what to
 * do; then NULL is returned and ctx->err is set. */
nn_optim *nn_optim_new(nn_ctx *ctx, nn_tensor *const *params, int n, const nn_optim_config *cfg);
nn_optim *nn_optim_sgd(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double momentum,
                       double dampening, double weight_decay, bool nesterov);
nn_optim *nn_optim_adam(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double beta1,
                        double beta2, double eps, double weight_decay, bool amsgrad);
nn_optim *nn_optim_adamw(nn_ctx *ctx, nn_tensor *const *params, int n, double lr, double beta1,
                         double beta2, double eps, double weight_decay, bool amsgrad);
/* Parameter groups (torch's param_groups): params[i] belongs to group
 * group_of[i] (NULL: all to group 0), whose hyper-parameters are
 * cfgs[group]. Groups share the kind, and SGD's momentum being 0 or not and
 * Adam's amsgrad (they decide the state buffers); they may differ in lr,
 * weight_decay, betas, eps, dampening and nesterov. */
nn_optim *nn_optim_new_groups(nn_ctx *ctx, nn_tensor *const *params, int n, const int *group_of,
                              const nn_optim_config *cfgs, int n_groups);
void nn_optim_free(nn_optim *opt);

/* One update of every parameter that has a gradient; parameters without one
 * are skipped (their state and step count stay as they are). A gradient whose
 * shape or dtype no longer matches its parameter is an error, reported before
 * anything is written. Allocates nothing. */
nn_status nn_optim_step(nn_ctx *ctx, nn_optim *opt);
/* One update of [param] (float32 or float64) by [grad] (its shape and
 * dtype), as torch.optim's single-tensor implementation of [cfg]'s kind
 * makes it. [state] holds the tensors the kind keeps, each of the
 * parameter's shape and dtype, in torch's names and this order:
 *   SGD      momentum_buffer (only when momentum != 0)
 *   Adam(W)  exp_avg, exp_avg_sq, max_exp_avg_sq (only with amsgrad)
 *   RMSprop  square_avg, momentum_buffer (NULL unless momentum > 0),
 *            grad_avg (NULL unless centered)
 *   Adagrad  sum
 * [step] counts updates from 1 (this one included): Adam's and Adagrad's t;
 * for SGD, step 1 fills the momentum buffer with d_p instead of reading it.
 * Parameter, gradient and state may have any strides. Allocates nothing;
 * a bad argument is an error before anything is written. */
nn_status nn_optim_update(nn_ctx *ctx, const nn_optim_config *cfg, nn_tensor *param,
                          const nn_tensor *grad, nn_tensor *const *state, int64_t step);

/* With [set_to_none] (PyTorch 2's default) every gradient is dropped;
 * otherwise gradients are zeroed in place. */
void nn_optim_zero_grad(nn_optim *opt, bool set_to_none);

/* ---- inspection and schedules ---- */
nn_optim_kind nn_optim_get_kind(const nn_optim *opt);
/* "SGD", "Adam", "AdamW", "RMSprop", "Adagrad" */
const char *nn_optim_kind_name(nn_optim_kind kind);
const nn_optim_config *nn_optim_get_config(const nn_optim *opt);
/* Change the learning rate of every group (for schedulers); lr < 0 or NaN
 * is an error. nn_optim_get_config and nn_optim_get_lr read group 0. */
nn_status nn_optim_set_lr(nn_ctx *ctx, nn_optim *opt, double lr);
int nn_optim_num_groups(const nn_optim *opt);
int nn_optim_param_group(const nn_optim *opt, int i);                     /* -1 when out of range */
const nn_optim_config *nn_optim_group_config(const nn_optim *opt, int g); /* NULL: no such group */
/* Replace group [g]'s hyper-parameters (validated; the kind and what
 * decides the state buffers must stay). */
nn_status nn_optim_set_group_config(nn_ctx *ctx, nn_optim *opt, int g, const nn_optim_config *cfg);
double nn_optim_get_lr(const nn_optim *opt);
int nn_optim_num_params(const nn_optim *opt);
/* Borrowed: parameter [i], or NULL when out of range. */
nn_tensor *nn_optim_param(const nn_optim *opt, int i);
/* Calls of nn_optim_step that succeeded. */
int64_t nn_optim_step_count(const nn_optim *opt);
/* Updates parameter [i] has received (PyTorch's state['step']); -1 when out
 * of range. */
int64_t nn_optim_param_steps(const nn_optim *opt, int i);

/* The state names [opt] keeps per parameter, NULL-terminated: SGD with
 * momentum {"momentum_buffer"}; Adam/AdamW {"exp_avg", "exp_avg_sq"} and
 * "max_exp_avg_sq" with amsgrad. "step" is accepted too. */
const char *const *nn_optim_state_names(const nn_optim *opt);
/* State [name] of parameter [i] as a tensor of the parameter's shape and
 * dtype (a new reference to a view of the optimizer's block; "step" is a new
 * 0-dim float32 tensor). Returns NULL with ctx->err clear when the state does
 * not exist yet (the parameter has not been updated, as PyTorch's state is
 * empty then), and NULL with ctx->err set for a bad index or name. */
nn_tensor *nn_optim_state(nn_ctx *ctx, const nn_optim *opt, int i, const char *name);

/* ---- the last update, for update:data ratios ----
 * Off by default, so a step costs nothing extra. With keep_updates on, each
 * step also writes, per parameter, the update it applied (new - old values,
 * one buffer the size of the parameter, allocated when turned on);
 * nn_optim_last_update returns it (borrowed, valid until the next step or
 * until keep_updates is turned off), or NULL before the first step since. */
nn_status nn_optim_keep_updates(nn_ctx *ctx, nn_optim *opt, bool on);
bool nn_optim_keeps_updates(const nn_optim *opt);
nn_tensor *nn_optim_last_update(const nn_optim *opt, int i);

/* One observer called after every successful step (a training tracker
 * records ratios there); NULL removes it. nn_optim_step_observer returns
 * the observer's [user] (NULL when none), so an observer can tell whether it
 * is still the one registered before removing itself. */
typedef void (*nn_optim_step_fn)(nn_optim *opt, void *user);
void nn_optim_on_step(nn_optim *opt, nn_optim_step_fn fn, void *user);
void *nn_optim_step_observer(const nn_optim *opt);

/* ---- gradient clipping ----
 * torch.nn.utils.clip_grad_norm_: the norm of all gradients of params[0..n)
 * taken together (norm_type 2, any p > 0, or INFINITY), written to
 * *total_norm (may be NULL). When it exceeds [max_norm] every gradient is
 * scaled by max_norm / (total + 1e-6). A non-finite norm is not applied:
 * gradients stay untouched, *total_norm gets the non-finite value, and the
 * result is NN_ERR_VALUE with a message naming the first parameter whose
 * gradient holds a NaN or an infinity. Parameters without gradients are
 * skipped; with none at all the norm is 0. */
nn_status nn_clip_grad_norm(nn_ctx *ctx, nn_tensor *const *params, int n, double max_norm,
                            double norm_type, double *total_norm);

#endif
