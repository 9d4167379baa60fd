/* lang_usermod: torch.nn.Module as a base class for user classes, and
 * nn.Parameter. An instance of a Module subclass keeps PyTorch's three
 * ordered registries (_parameters, _buffers, _modules); assigning a
 * Parameter, a module (builtin or user) or a registered buffer to an
 * attribute registers it, in order, as torch.nn.Module.__setattr__ does.
 * The base class's methods (parameters, named_parameters, state_dict,
 * train, eval, zero_grad, apply, modules, hooks, __call__ and repr) walk
 * these registries and the builtin modules' own methods, so user and
 * builtin modules nest either way.
 *
 * Calls: module(x) runs forward between the forward pre-hooks and hooks,
 * with the module's attribute path ("model.blocks.1.attn") as the label of
 * every op it records, so the debugger names user modules as it names
 * builtin ones. Ownership follows lang_value.h.
 */
#ifndef LANG_USERMOD_H
#define LANG_USERMOD_H

#include "lang_value.h"

/* Hooks lang_class.c calls for instances of Module subclasses. */
bool lang_usermod_init(lang_vm *vm, lang_val self);
bool lang_usermod_getattr(lang_vm *vm, lang_val self, const char *name, lang_val *out, bool *found);
bool lang_usermod_setattr(lang_vm *vm, lang_val self, const char *name, lang_val v, bool *handled);
bool lang_usermod_repr(lang_vm *vm, lang_val self, lang_buf *out);
/* Installs the Module, Dataset and Parameter builtins (lang_class_install). */
bool lang_usermod_install(lang_vm *vm);

/* ModuleList, Sequential and ModuleDict are builtins that choose between
 * the engine's containers and the Module subclasses; this gives the class
 * behind such a builtin (for isinstance and subclassing), else [v]. */
lang_val lang_usermod_container_class(lang_val v);

/* The path under which [callee] (a module being called) records its ops:
 * "<parent path>.<name>" while a user module's forward runs and [callee]
 * is one of its descendants, else the callee as written ("model"), else
 * "model". The text lives in a VM buffer until the next call. */
const char *lang_usermod_path(lang_vm *vm, lang_val callee);
/* Release the running-module state (lang_vm_free). */
void lang_usermod_free(lang_vm *vm);
/* Tensor.register_hook(fn) (the engine's gradient hooks); a handle. */
bool lang_tensor_register_hook(lang_vm *vm, lang_val self, lang_val fn, lang_val *out);
/* Builtin modules' register_full_backward_hook, and their call through
 * it: [call] runs the module on (possibly wrapped) arguments. */
bool lang_module_register_backward_hook(lang_vm *vm, lang_val module, lang_val fn, lang_val *out);
bool lang_module_call_hooked(lang_vm *vm, lang_val module, const lang_args *a,
                             bool (*call)(lang_vm *vm, lang_val module, const lang_args *a,
                                          lang_val *out),
                             lang_val *out);

#endif
