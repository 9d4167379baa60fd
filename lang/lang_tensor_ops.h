/* lang_tensor_ops: the tensor-op builtins of issue 11 (sin, cumsum, sort,
 * gather, einsum, batch_norm, ...; lang_tensor_ops_builtins in
 * lang_builtins.h) and their Tensor methods. The method rows live in
 * lang_tensor_ops_methods.inc, which lang_tensor.c's method table
 * includes, so this family adds methods without editing that table. */
#ifndef LANG_TENSOR_OPS_H
#define LANG_TENSOR_OPS_H

#include "lang_value.h"

/* X(name) for each function that is also a method with self first. */
#define LANG_TENSOR_OPS_SELF_METHODS(X)                                                            \
    X(sin)                                                                                         \
    X(cos)                                                                                         \
    X(log2)                                                                                        \
    X(log10)                                                                                       \
    X(nan_to_num)                                                                                  \
    X(tril)                                                                                        \
    X(triu)                                                                                        \
    X(isclose)                                                                                     \
    X(cumsum)                                                                                      \
    X(cumprod)                                                                                     \
    X(sort)                                                                                        \
    X(argsort)                                                                                     \
    X(topk)                                                                                        \
    X(gather)                                                                                      \
    X(scatter)                                                                                     \
    X(scatter_add)                                                                                 \
    X(index_select)                                                                                \
    X(repeat_interleave)                                                                           \
    X(nonzero)                                                                                     \
    X(bincount)                                                                                    \
    X(histc)

#define LANG_TENSOR_OPS_DECLARE(name)                                                              \
    bool lang_f_##name(lang_vm *vm, const lang_args *a, lang_val *out);                            \
    bool lang_m_##name(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);
LANG_TENSOR_OPS_SELF_METHODS(LANG_TENSOR_OPS_DECLARE)
#undef LANG_TENSOR_OPS_DECLARE

/* Functions without a method, and methods without a function. */
bool lang_f_flip(lang_vm *vm, const lang_args *a, lang_val *out);
bool lang_f_one_hot(lang_vm *vm, const lang_args *a, lang_val *out);
bool lang_f_einsum(lang_vm *vm, const lang_args *a, lang_val *out);
bool lang_f_batch_norm(lang_vm *vm, const lang_args *a, lang_val *out);
bool lang_f_group_norm(lang_vm *vm, const lang_args *a, lang_val *out);
bool lang_m_flip(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);
bool lang_m_repeat(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);
bool lang_m_scatter_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);
bool lang_m_scatter_add_(lang_vm *vm, lang_val self, const lang_args *a, lang_val *out);

#endif
