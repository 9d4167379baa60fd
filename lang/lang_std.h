/* lang_std: Python's standard library as training scripts use it: open()
 * and text files, and the modules math, time, sys, os, os.path, json and
 * collections (lang_std.c, registered with lang_import). Produced values
 * are new references; arguments are borrowed. */
#ifndef LANG_STD_H
#define LANG_STD_H

#include "lang_import.h"
#include "lang_value.h"

extern const lang_type lang_file_type;
/* The standard modules, NULL-terminated (lang_import.c searches them). */
extern const lang_module_def *const lang_std_modules[];
/* open() (the std family of builtins, lang_builtins.h). */
extern const lang_builtin_def lang_std_builtins[];

/* What sys.argv holds: the script's path and its arguments (nndb run). */
void lang_std_set_argv(int argc, const char *const *argv);
/* Write text to a file-like value (sys.stderr, an open file, anything
 * with write()); print(..., file=f) uses it. */
bool lang_std_write_to(lang_vm *vm, lang_val file, const char *text, size_t len);

/* Show a warning as Python does, once per place: "file:line: Category:
 * text" and the source line, on stderr. [category] is a class name
 * ("UserWarning"). PyTorch's warnings (mse_loss with a target of another
 * size) go through this too. */
bool lang_std_warn(lang_vm *vm, const char *category, const char *text);

#endif
