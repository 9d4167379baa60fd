/* lang_set: the set type and set() (lang_set.c). */
#ifndef LANG_SET_H
#define LANG_SET_H

#include "lang_value.h"

extern const lang_type lang_set_type;
extern const lang_builtin_def lang_set_builtins[];
bool lang_set_new(lang_vm *vm, lang_val *out);
bool lang_set_add(lang_vm *vm, lang_val set, lang_val item); /* retains item */
bool lang_set_contains(lang_vm *vm, lang_val set, lang_val item, bool *out);

#endif
