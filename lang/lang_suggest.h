/* lang_suggest: "did you mean" for a mistyped name, attribute or magic.
 * One rule for all three, close to CPython's (3.10+): the candidate with the
 * smallest edit distance (a swap of two neighbours counts as one edit, a
 * change of case as half of one), and only when that distance is small for
 * the lengths involved (CPython's bound). Strings are
 * borrowed; nothing here allocates what it returns. */
#ifndef LANG_SUGGEST_H
#define LANG_SUGGEST_H

#include <stddef.h>

#include "lang_eval.h"

/* The closest of [cands] (NULL-terminated when [n] is (size_t)-1) to
 * [word], or NULL when none is close enough. [word] itself never is. */
const char *lang_suggest(const char *word, const char *const *cands, size_t n);

/* After a NameError for [name]: append ". Did you mean: 'x'?" to the pending
 * message when a global or builtin is close. */
void lang_suggest_name(lang_vm *vm, const char *name);

/* After an AttributeError for [name] on [obj]: the same from lang_dir. */
void lang_suggest_attr(lang_vm *vm, lang_val obj, const char *name);

#endif
