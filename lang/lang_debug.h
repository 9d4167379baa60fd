/* lang_debug: the debugger — breakpoints, stepping through the forward and
 * backward passes op by op, the nested (nndb) prompt, watches, the graph
 * view and the NaN hunt — built as one hook on the engine's executor.
 *
 * The engine offers the mechanism (hooks around every node, nn_anomaly's
 * origin check); this module owns the commands, the stop display and the
 * prompt, which reads its lines through the front end's readline callback.
 * With no breakpoint, no stepping and no anomaly mode the hook is not
 * registered at all, so the executor pays nothing. One debugger per
 * session (lang_session.c creates it); everything it allocates it frees.
 */
#ifndef LANG_DEBUG_H
#define LANG_DEBUG_H

#include "lang_eval.h"
#include "nn_optim.h"

typedef struct lang_debugger lang_debugger;

lang_debugger *lang_debug_new(lang_vm *vm);
void lang_debug_free(lang_debugger *d); /* NULL is fine */

/* Magics %break %delete %disable %enable %step %graph %anomaly %where.
 * Returns false when [name] is not the debugger's; else runs it and sets
 * *ok (false with an error raised). */
bool lang_debug_magic(lang_vm *vm, const char *name, const char *args, const lang_stmt *s,
                      const lang_module *m, bool *ok);

/* A front end's cell (lang_exec) begins / ends: stepping ends with it. */
void lang_debug_cell_begin(lang_vm *vm);
void lang_debug_cell_end(lang_vm *vm);
/* Source text the evaluator ran (lang_eval_code notes every cell, file and
 * %load), kept so stops and reports can show lines of earlier cells (`l`,
 * a backward node's forward line). */
void lang_debug_note_source(lang_vm *vm, const char *filename, const char *code);

/* backward() on [root] begins / ended (training-step count, %graph). */
void lang_debug_backward_begin(lang_vm *vm, nn_tensor *root);
void lang_debug_backward_end(lang_vm *vm);
/* After [o]'s step: with anomaly mode on, a parameter the step made
 * non-finite raises AnomalyError naming it. False with the error raised. */
bool lang_debug_after_step(lang_vm *vm, const nn_optim *o);

/* An engine error is being raised: when the debugger stopped the pass with
 * an error of its own (AnomalyError, a quit), raise that and return true. */
bool lang_debug_take_error(lang_vm *vm);

/* Ctrl-C: while a pass the debugger has stopped in runs on, the first one
 * becomes "stop at the next node" (returns true); async-signal-safe. */
bool lang_debug_interrupt(lang_debugger *d);

/* For front ends (lang.h wraps these). */
bool lang_debug_add_break(lang_vm *vm, const char *spec);
void lang_debug_break_next(lang_vm *vm);

extern const lang_builtin_def lang_debug_builtins[]; /* breakpoint, set_detect_anomaly, ... */

#endif
