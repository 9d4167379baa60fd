/* lang_function: torch.autograd.Function subclasses, whose backward
 * becomes a node of the engine's graph (lang_function.c). */
#ifndef LANG_FUNCTION_H
#define LANG_FUNCTION_H

#include "lang_value.h"

/* Install Function (and its ctx class); lang_class_install calls it. */
bool lang_function_install(lang_vm *vm);
/* Release the records of every apply (lang_vm_free). */
void lang_function_free(lang_vm *vm);

#endif
