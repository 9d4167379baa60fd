/* lang_coro: stackful coroutines for the evaluator's generators.
 *
 * The evaluator walks the syntax tree with C recursion, so a generator
 * suspended at `yield` has C frames in flight (the loops and calls around
 * the yield). Each generator body therefore runs on a stack of its own and
 * `yield` switches back to whoever resumed it, as Lua's coroutines and
 * greenlet do. The switch saves only the callee-saved registers (no signal
 * mask, no system call), so a yield costs a few nanoseconds. Stacks are
 * mapped lazily (only touched pages cost memory) with a guard page, and a
 * few freed stacks are kept for the next generator. Under AddressSanitizer
 * the switches are announced to it (__sanitizer_*_switch_fiber).
 */
#ifndef LANG_CORO_H
#define LANG_CORO_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lang_coro lang_coro;

/* A coroutine that will run fn(arg) on its own stack at the first resume;
 * NULL when no stack could be mapped. */
lang_coro *lang_coro_new(void (*fn)(void *arg), void *arg);
/* Run it until it suspends or fn returns. Not while it runs. */
void lang_coro_resume(lang_coro *co);
/* From inside fn: back to the resumer; returns at the next resume. */
void lang_coro_suspend(lang_coro *co);
/* Whether fn has returned. */
bool lang_coro_done(const lang_coro *co);
/* Free it; only when done or never started. */
void lang_coro_free(lang_coro *co);

#endif
