/* lang_random: Python's random module as CPython 3.11 has it (the same
 * numbers for the same seed), on the engine's MT19937 (nn_rng). The
 * session's `random` is an instance of lang_random_type, whose methods are
 * the module's functions; random.Random(x) makes more. */
#ifndef LANG_RANDOM_H
#define LANG_RANDOM_H

#include "lang_value.h"

extern const lang_type lang_random_type;

/* Install the session's `random` (seeded from the OS, as CPython's). */
bool lang_random_install(lang_vm *vm);

#endif
