/* lang_instruments: the training instruments family (gradcheck, stats,
 * activations, dependencies, profile, track, live_plot; the table is
 * lang_instruments_builtins in lang_builtins.h) and what the %stats and
 * %profile magics call. Values produced are new references; arguments are
 * borrowed. See docs/instruments.md.
 */
#ifndef LANG_INSTRUMENTS_H
#define LANG_INSTRUMENTS_H

#include "lang_value.h"

/* stats(model, opt) as a report value; [opt] may be None. */
bool lang_instruments_stats(lang_vm *vm, lang_val model, lang_val opt, lang_val *out);

/* Start the profiler (measuring the sgemm peak first, once per process):
 * returns a handle, or NULL with an error raised. _end stops it and makes
 * the report; [wall] is the statement's wall time in seconds. */
void *lang_instruments_profile_begin(lang_vm *vm);
bool lang_instruments_profile_end(lang_vm *vm, void *prof, double wall, lang_val *out);

#endif
