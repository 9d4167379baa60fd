/* lang_tensor: the Tensor type of the nndb language and the tensor family of
 * builtins (lang_tensor_builtins in lang_builtins.h): creation, attributes,
 * methods, operators, indexing, and torch / torch.nn.functional style
 * functions, each with its help entry.
 *
 * Owned by the tensor/display engineer. lang_value.h declares the parts the
 * runtime shares (lang_tensor_type, lang_tensor_new, lang_tensor_of,
 * lang_dtype_type); this header adds what else other modules may use.
 * Produced values are new references; arguments are borrowed.
 */
#ifndef LANG_TENSOR_H
#define LANG_TENSOR_H

/* lang_value.h names struct lang_mime in a prototype before lang.h defines it. */
struct lang_mime;

#include "lang_value.h"

/* The dtype object for [dt] (torch.float32, ...). The four dtype objects
 * are static: retaining or releasing them is harmless, and == on them is
 * identity, as in torch. */
lang_val lang_dtype_val(nn_dtype dt);
/* A dtype argument: a dtype object, or Python's float / int / bool builtins
 * (float64, int64, bool as torch reads them). TypeError naming [what]. */
bool lang_dtype_from(lang_vm *vm, lang_val v, const char *what, nn_dtype *out);

/* A tensor from a value as torch.tensor() reads it: a number, a tensor, or
 * nested lists/tuples of numbers and one-element tensors. [dtype] < 0 infers
 * (bool < int64 < float32, as torch). New reference in *out. */
bool lang_tensor_from_value(lang_vm *vm, lang_val v, int dtype, nn_tensor **out);

/* Globals that are not functions: the dtypes float32, float64, int64,
 * double, long (and `float`-named torch aliases are not installed: `float`
 * stays Python's). The session calls this after installing the families. */
bool lang_tensor_install(lang_vm *vm);

/* Marks tensor value [v] as a module's parameter, so that it prints as
 * torch.nn.Parameter does ("Parameter containing:" above the tensor).
 * lang_nn calls this on the one value it hands out for each parameter. */
void lang_tensor_mark_param(lang_val v);
/* Whether [v] is a tensor marked as a parameter (nn.Parameter). */
bool lang_tensor_is_param(lang_val v);
/* The grad_fn name [v] shows ("MyFnBackward"); [name] must outlive it. */
void lang_tensor_set_fn_name(lang_val v, const char *name);

/* torch.Size: a tuple of ints with its own repr ("torch.Size([2, 3])"). */
extern const lang_type lang_size_type;
bool lang_size_new(lang_vm *vm, int n, const int64_t *dims, lang_val *out);

/* What the tensor-op builtins of lang_tensor_ops.c share with this file:
 * a tensor argument (borrowed; torch's TypeError otherwise), an operand (a
 * tensor, number or nested list; new reference), wrapping an engine result
 * (NULL raises the engine's error; [fn_name] NULL or the grad_fn name to
 * show), torch.return_types.<name>(values, indices) (takes over both), and
 * calling a builtin with [self] prepended (a method). */
bool lang_tensor_arg(lang_vm *vm, lang_val v, const char *fname, const char *what, nn_tensor **out);
bool lang_tensor_operand(lang_vm *vm, lang_val v, const char *fname, const char *what,
                         nn_tensor **out);
bool lang_tensor_wrap(lang_vm *vm, nn_tensor *r, const char *fn_name, lang_val *out);
bool lang_return_types_new(lang_vm *vm, const char *name, nn_tensor *values, nn_tensor *indices,
                           lang_val *out);
bool lang_tensor_call_self(lang_vm *vm, lang_builtin_fn fn, lang_val self, const lang_args *a,
                           lang_val *out);
/* fname(input): fn on one tensor argument, the result wrapped. */
bool lang_tensor_unary(lang_vm *vm, const lang_args *a, const char *fname,
                       nn_tensor *(*fn)(nn_ctx *, nn_tensor *), lang_val *out);

#endif
