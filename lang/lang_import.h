/* lang_import: modules and the import statement.
 *
 * A module is a value (type "module") with attributes. Builtin modules are
 * described by a lang_module_def and created the first time a script
 * imports them (or reaches them as an attribute: `torch.nn`); after that
 * the session keeps each one, as Python's sys.modules does, so every
 * `import torch` gives the same object.
 *
 * Adding a module is one call: lang_import_add(vm, &def) from a family's
 * install function, or one line in lang_builtin_modules[] (lang_import.c).
 * The def and everything it points to must be static.
 *
 * PyTorch's namespaces resolve through the session's builtin tables: a def
 * with [torch_names] set looks a name up in the list of PyTorch's names for
 * that namespace (lang_torch_names.c, generated) and, when PyTorch has it,
 * answers with the session builtin of that bare name. So `torch.zeros` is
 * the builtin `zeros`, `nn.Linear` the builtin `Linear`, `F.relu` the
 * builtin `relu`, and a builtin added to any family later appears under
 * torch.* without a change here. A PyTorch name nndb lacks is an
 * AttributeError that says so ("torch.fft is not available in nndb").
 *
 * Ownership follows lang_value.h: produced values are new references,
 * arguments are borrowed; errors are raised in the VM and return false.
 */
#ifndef LANG_IMPORT_H
#define LANG_IMPORT_H

#include "lang_value.h"

/* The public names of one PyTorch namespace, sorted by strcmp. */
typedef struct lang_torch_namespace {
    const char *name; /* "torch.nn" */
    const char *const *names;
    int n;
} lang_torch_namespace;
extern const lang_torch_namespace lang_torch_namespaces[]; /* ends with a NULL name */

typedef bool (*lang_module_init_fn)(lang_vm *vm, lang_val module);

typedef struct lang_module_def {
    const char *name; /* dotted: "math", "torch.nn.functional" */
    const char *doc;  /* a paragraph for help(module), or NULL */
    /* Functions of the module itself ({NULL} terminated), or NULL. */
    const lang_builtin_def *functions;
    /* Sets further attributes (constants, objects) with lang_module_set;
     * runs once, when the module is first imported. NULL for none. */
    lang_module_init_fn init;
    /* Session builtins re-exported under their own name (NULL-terminated),
     * or NULL: e.g. "no_grad" for torch. */
    const char *const *builtins;
    /* Resolve PyTorch's names of the namespace [name] through the
     * session's builtins (see above). */
    bool torch_names;
    /* A builtin whose attributes also resolve here (the `init` namespace
     * for torch.nn.init), or NULL. */
    const char *via;
    /* Importing gives the session builtin of this name itself (a module
     * some family already installs as a value, e.g. `random`), or NULL. */
    const char *alias;
} lang_module_def;

/* Register [def] for this session (its name must be new). */
bool lang_import_add(lang_vm *vm, const lang_module_def *def);
/* The module [dotted] ("torch.nn"), importing it (and its parents) when
 * needed; ModuleNotFoundError when there is no such module. */
bool lang_import_module(lang_vm *vm, const char *dotted, lang_val *out);
/* Set attribute [name] of [module] (retains [v]). */
bool lang_module_set(lang_vm *vm, lang_val module, const char *name, lang_val v);
/* Whether [v] is a module; its dotted name. */
bool lang_is_module(lang_val v);
/* Whether [v] is a user module whose file is still running (an import
 * cycle reached it). */
bool lang_module_initializing(lang_val v);
/* The file a user module was loaded from, or NULL. */
const char *lang_module_file(lang_val v);
const char *lang_module_name(lang_val v);
/* The torch class object (torch.Tensor, torch.Size, torch.dtype) whose
 * instances have type [t]; *found false for other types. */
bool lang_import_torch_class(lang_vm *vm, const lang_type *t, lang_val *out, bool *found);
/* Release what the session's import state holds (lang_vm_free calls it). */
void lang_import_free(lang_vm *vm);

/* The modules every session can import (lang_import.c), NULL-terminated. */
extern const lang_module_def *const lang_builtin_modules[];
/* torch.optim.lr_scheduler (lang_sched.c). */
extern const lang_module_def lang_sched_module;
/* argparse (lang_argparse.c). */
extern const lang_module_def lang_argparse_module;
extern const lang_type lang_module_type;

#endif
