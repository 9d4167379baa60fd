/* lang_nn: the Module and Optimizer types of the nndb language and the nn
 * and optim builtin families (lang_nn_builtins, lang_optim_builtins in
 * lang_builtins.h): torch.nn's modules, torch.nn.init, torch.optim and
 * clip_grad_norm_, each with its help entry.
 *
 * Owned by the nn/data binding engineer. This header adds what other
 * modules may use: the session installs the `init` namespace with
 * lang_nn_install, and lang_data.c saves modules through lang_module_of.
 * Produced values are new references; arguments are borrowed.
 */
#ifndef LANG_NN_H
#define LANG_NN_H

struct lang_mime; /* lang_value.h names it in a prototype before lang.h defines it */

#include "lang_value.h"
#include "nn_module.h"

/* The engine module behind a Module value (borrowed), or NULL when [v] is
 * not a Module. */
nn_module *lang_module_of(lang_val v);

/* The engine optimizer behind an Optimizer value (borrowed), or NULL. */
struct nn_optim;
struct nn_optim *lang_optim_of(lang_val v);

/* A module's state as a dict of name -> Tensor (new tensor values sharing
 * the state's tensors), and back: a dict of str -> Tensor appended to an
 * initialised [st] (which holds references). TypeError naming [what] for
 * keys that are not str or values that are not tensors. */
bool lang_nn_state_to_dict(lang_vm *vm, const nn_state *st, lang_val *out);
bool lang_nn_state_from_dict(lang_vm *vm, lang_val d, const char *what, nn_state *st);

/* Globals that are not functions: the `init` namespace (init.xavier_uniform_,
 * init.kaiming_normal_, ... as torch.nn.init). The session calls this after
 * installing the families, as it calls lang_tensor_install. */
bool lang_nn_install(lang_vm *vm);

#endif
