/* lang_coro: stackful coroutines (see lang_coro.h). */
#include "lang_coro.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define CORO_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORO_ASAN 1
#endif
#endif
#ifndef CORO_ASAN
#define CORO_ASAN 0
#endif

#if CORO_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#endif

/* As deep as the main thread's default stack: the evaluator's recursion
 * limits (1000 calls, 2000 nested expressions) were set for that. Only the
 * pages a generator touches are ever backed by memory. */
#define CORO_STACK (8u << 20)
#define CORO_CACHE 16

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

struct lang_coro {
    void (*fn)(void *);
    void *arg;
    char *map; /* the mapping, guard page first */
    size_t map_len;
    bool done, started;
#if defined(__x86_64__)
    void *sp;        /* the coroutine's stack pointer while suspended */
    void *caller_sp; /* the resumer's while the coroutine runs */
#else
    ucontext_t ctx, caller;
#endif
#if CORO_ASAN
    void *fake_self, *fake_caller;
    const void *caller_bottom;
    size_t caller_size;
#endif
};

static _Thread_local char *stack_cache[CORO_CACHE];
static _Thread_local int stack_cache_n;

static void coro_main(lang_coro *co);

#if defined(__x86_64__)
/* Save the callee-saved registers and the FP control words on the running
 * stack, store its pointer in *from, load [to] and restore what it saved. */
void lang_coro_switch(void **from, void *to);
void lang_coro_entry(void);
__asm__(".text\n"
        ".globl lang_coro_switch\n"
        ".hidden lang_coro_switch\n"
        ".type lang_coro_switch,@function\n"
        "lang_coro_switch:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size lang_coro_switch, .-lang_coro_switch\n"
        /* The first switch into a coroutine returns here with the coroutine
         * in r12 and coro_main in r13. */
        ".globl lang_coro_entry\n"
        ".hidden lang_coro_entry\n"
        ".type lang_coro_entry,@function\n"
        "lang_coro_entry:\n"
        "    movq %r12, %rdi\n"
        "    callq *%r13\n"
        "    ud2\n"
        ".size lang_coro_entry, .-lang_coro_entry\n");
#else
static void coro_tramp(unsigned hi, unsigned lo) {
    coro_main((lang_coro *)(((uintptr_t)hi << 32) | (uintptr_t)lo));
}
#endif

static char *stack_get(size_t *len) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    *len = CORO_STACK + page;
    if (stack_cache_n > 0) return stack_cache[--stack_cache_n];
    char *m = mmap(NULL, *len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (m == MAP_FAILED) return NULL;
    if (mprotect(m, page, PROT_NONE) != 0) {
        munmap(m, *len);
        return NULL;
    }
    return m;
}

static void stack_put(char *m, size_t len) {
    if (!CORO_ASAN && stack_cache_n < CORO_CACHE)
        stack_cache[stack_cache_n++] = m;
    else
        munmap(m, len);
}

lang_coro *lang_coro_new(void (*fn)(void *arg), void *arg) {
    lang_coro *co = calloc(1, sizeof *co);
    if (!co) return NULL;
    co->fn = fn;
    co->arg = arg;
    co->map = stack_get(&co->map_len);
    if (!co->map) {
        free(co);
        return NULL;
    }
    char *top = co->map + co->map_len;
#if defined(__x86_64__)
    /* What lang_coro_switch pops: the FP control words, r15..rbp, and the
     * return address; after the ret the stack is 16-byte aligned, so the
     * entry's call gives coro_main the ABI's alignment. */
    uint64_t *sp = (uint64_t *)(((uintptr_t)top & ~(uintptr_t)15) - 16);
    *--sp = (uint64_t)(uintptr_t)lang_coro_entry;
    *--sp = 0;                                   /* rbp */
    *--sp = 0;                                   /* rbx */
    *--sp = (uint64_t)(uintptr_t)co;             /* r12 */
    *--sp = (uint64_t)(uintptr_t)coro_main;      /* r13 */
    *--sp = 0;                                   /* r14 */
    *--sp = 0;                                   /* r15 */
    *--sp = 0x1F80u | ((uint64_t)0x037Fu << 32); /* mxcsr, x87 control word */
    co->sp = sp;
#else
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    getcontext(&co->ctx);
    co->ctx.uc_stack.ss_sp = co->map + page;
    co->ctx.uc_stack.ss_size = co->map_len - page;
    co->ctx.uc_link = NULL;
    uintptr_t p = (uintptr_t)co;
    makecontext(&co->ctx, (void (*)(void))coro_tramp, 2, (unsigned)(p >> 32), (unsigned)p);
#endif
    (void)top;
    return co;
}

static void to_coro(lang_coro *co) {
#if CORO_ASAN
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    __sanitizer_start_switch_fiber(&co->fake_caller, co->map + page, co->map_len - page);
#endif
#if defined(__x86_64__)
    lang_coro_switch(&co->caller_sp, co->sp);
#else
    swapcontext(&co->caller, &co->ctx);
#endif
#if CORO_ASAN
    __sanitizer_finish_switch_fiber(co->fake_caller, NULL, NULL);
#endif
}

static void to_caller(lang_coro *co, bool last) {
#if CORO_ASAN
    __sanitizer_start_switch_fiber(last ? NULL : &co->fake_self, co->caller_bottom,
                                   co->caller_size);
#endif
    (void)last;
#if defined(__x86_64__)
    lang_coro_switch(&co->sp, co->caller_sp);
#else
    swapcontext(&co->ctx, &co->caller);
#endif
#if CORO_ASAN
    __sanitizer_finish_switch_fiber(co->fake_self, &co->caller_bottom, &co->caller_size);
#endif
}

static void coro_main(lang_coro *co) {
#if CORO_ASAN
    __sanitizer_finish_switch_fiber(NULL, &co->caller_bottom, &co->caller_size);
#endif
    co->fn(co->arg);
    co->done = true;
    to_caller(co, true);
    abort(); /* a finished coroutine is never resumed */
}

void lang_coro_resume(lang_coro *co) {
    if (co->done) return;
    co->started = true;
    to_coro(co);
}

void lang_coro_suspend(lang_coro *co) {
    to_caller(co, false);
}

bool lang_coro_done(const lang_coro *co) {
    return co->done;
}

void lang_coro_free(lang_coro *co) {
    if (!co) return;
    stack_put(co->map, co->map_len);
    free(co);
}
