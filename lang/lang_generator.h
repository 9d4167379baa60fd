/* lang_generator: torch.Generator as a value type, and torch's random-state
 * builtins (lang_generator_builtins in lang_builtins.h): Generator,
 * manual_seed, initial_seed, seed, get_rng_state, set_rng_state, and the
 * samplers that take generator= (randperm, multinomial, bernoulli).
 *
 * A Generator value holds its own nn_rng (PyTorch's CPU generator, see
 * engine/nn_rng.h), or stands for the session's default one (what
 * manual_seed returns), which lives in the session's nn_ctx. */
#ifndef LANG_GENERATOR_H
#define LANG_GENERATOR_H

#include "lang_value.h"
#include "nn_rng.h"

extern const lang_type lang_generator_type;

/* The generator a `generator=` argument names: NULL for None or the default
 * generator (the engine then uses ctx->rng), else the object's own, borrowed
 * for as long as [v] lives. Anything else raises TypeError naming [fname]. */
bool lang_generator_arg(lang_vm *vm, lang_val v, const char *fname, nn_rng **out);

#endif
