/* lang_usermod: torch.nn.Module subclasses (see lang_usermod.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_class.h"
#include "lang_eval.h"
#include "lang_usermod.h"

bool lang_usermod_init(lang_vm *vm, lang_val self) {
    return true;
}
bool lang_usermod_getattr(lang_vm *vm, lang_val self, const char *name, lang_val *out,
                          bool *found) {
    *found = false;
    return true;
}
bool lang_usermod_setattr(lang_vm *vm, lang_val self, const char *name, lang_val v, bool *handled) {
    *handled = false;
    return true;
}
bool lang_usermod_repr(lang_vm *vm, lang_val self, lang_buf *out) {
    return true;
}
bool lang_usermod_install(lang_vm *vm) {
    return true;
}
