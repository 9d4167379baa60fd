/* lang_vm: what builtins may ask of the interpreter while they run.
 *
 * Builtin families (tensor functions, modules, datasets, plots, probes)
 * include this to reach the engine context, to write output or show rich
 * values through the front end, to read a line of input, and to call back
 * into user code. Everything returned is borrowed unless it says otherwise.
 */
#ifndef LANG_VM_H
#define LANG_VM_H

#include "lang.h"
#include "nn_ctx.h"

/* The session's engine context: rng, grad mode, hooks, labels. */
nn_ctx *lang_vm_ctx(lang_vm *vm);
lang_session *lang_vm_session(lang_vm *vm);

/* Output through the front end. */
void lang_vm_write(lang_vm *vm, lang_stream which, const char *text, size_t len);
void lang_vm_display(lang_vm *vm, const lang_mime *bundle, const char *display_id, bool update);
void lang_vm_progress(lang_vm *vm, const char *id, int64_t done, int64_t total, const char *text);
/* A line from the front end (malloc'ed into *out); false with an error
 * raised when input is not available. */
bool lang_vm_readline(lang_vm *vm, const char *prompt, bool password, char **out);

/* Raise KeyboardInterrupt (and return true) if an interrupt is pending.
 * Long builtins call this between units of work. */
bool lang_vm_interrupted(lang_vm *vm);

/* Where the statement running now comes from (for node labels). */
const char *lang_vm_file(lang_vm *vm);
int lang_vm_line(lang_vm *vm);

/* Global variables of the session. get: borrowed or NULL. set: retains. */
lang_val *lang_vm_global(lang_vm *vm, const char *name);
bool lang_vm_set_global(lang_vm *vm, const char *name, lang_val v);

/* Call a function value (user def, lambda, builtin, bound method). */
bool lang_vm_call(lang_vm *vm, lang_val f, const lang_args *a, lang_val *out);

/* While a call runs: the callee as written when it is a plain name or an
 * attribute chain ("model", "net.encoder"), else NULL. Modules use it as
 * the root of the paths their nodes carry ("model.blocks.1.attn"). */
const char *lang_vm_callee_name(lang_vm *vm);

/* The help entry for a name ("sum", "Tensor.sum", "Linear"), or NULL. */
const lang_help *lang_vm_help(lang_vm *vm, const char *name);

#endif
