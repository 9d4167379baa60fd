#include "nn_mem.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Blocks carry a 64-byte header (size class, requested size) so that
 * nn_mem_free needs no size argument and the data stays 64-byte aligned.
 *
 * Small blocks (below BIG_BLOCK) come in size classes 2^k * {4,5,6,7}/4:
 * waste below 25%, few classes, one free list per class.
 *
 * Big blocks (BIG_BLOCK up to MAX_CACHED_BLOCK) are cut from chunks of the
 * system's memory instead: a request takes the smallest free block that
 * fits (best fit), splitting off the rest when that is BIG_BLOCK or more,
 * and a freed block merges with its free neighbours in its chunk. Per-class
 * lists kept a freed block for its own class only, so memory that one phase
 * of a training step frees (the gradients at zero_grad, the activations in
 * backward) sat idle while the next phase asked the system for blocks of
 * other sizes: a GPT-2 124M step held ~300 MiB more than it ever had in use
 * at once. Cutting big blocks from any free memory keeps the resident set
 * near the peak in use and still calls the system allocator no more once a
 * loop is in its steady state. Blocks above MAX_CACHED_BLOCK, or beyond the
 * cache budget, go back to the system. BIG_BLOCK was 1 MiB; at 64 KiB a CNN's
 * mid-sized tensors (a pooled map, its indices, a gradient of a few hundred
 * KiB) are cut from what the larger ones freed instead of keeping a class
 * of their own: the LeNet step's resident peak fell from 5.6 to 5.0 MiB
 * (docs/benchmarks.md), and tests/noalloc still sees no system call in a
 * steady loop.
 *
 * The memory big blocks are cut from is one reserved region of address
 * space, made usable from its base up in steps of ARENA_CHUNK (8 MiB) as
 * the pool grows (region_grow below): the free block at the top takes each
 * growth, so every block can merge with its neighbours. Untouched pages
 * cost no memory (the kernel maps them on first write). stats.cached counts
 * the free blocks, so it is address space held, not all of it resident.
 * Where the region cannot be reserved, each growth is a chunk of its own
 * from the system (at least ARENA_CHUNK), merging only within itself.
 *
 * A block that outlives the step that makes it (NN_MEM_LASTING: a
 * parameter's first gradient, which stays from step to step) is cut from
 * the top of the highest free block instead, so the long-lived blocks
 * gather at the far end of a chunk while a step's temporaries come and go
 * best-fit from the bottom. Made best-fit among the temporaries, LeNet's
 * first linear layer's gradient sat between them and split the hole that
 * the next steps' 1.2 MB blocks needed: its resident peak fell from 3.61
 * to 3.32 MB.
 *
 * A block that lasts but is made after a step's temporaries are freed
 * (NN_MEM_FRESH: Adam's moments, made in the first optimizer.step)
 * goes above every block handed out so far (region_fresh), into memory no
 * block has had. Cut best-fit (or from the top of the highest hole) it took
 * the pages the first step's activations had touched, so the second
 * step's activations, which also meet the moments, found no room there and
 * touched as much new memory again: at GPT-2 124M B4 T256, 177K page
 * faults in step 1 (15-25 us each on a VM: 3 s), and the 147 MiB moments
 * of the tied embedding, larger than every hole, gave the free pages back
 * (HUGE_BLOCK below) and refaulted 535 MiB more. Placed fresh, the first
 * step touches what the steady state uses and the second step reuses it
 * (docs/benchmarks.md, "The first steps' page faults"). */
#define HEADER 64
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZING 1
#else
#define SANITIZING 0
#endif
#define N_CLASSES        256
#define MAX_CACHED_BLOCK ((size_t)1 << 31)

#define BIG_BLOCK   ((size_t)1 << 16)
#define ARENA_CHUNK ((size_t)8 << 20)
#define HUGE_BLOCK  ((size_t)64 << 20)
#define BIG_CLS     (-2)
#define PAGE        ((size_t)4096)

typedef struct block {
    struct block *next; /* free-list link while cached */
    size_t size;        /* usable size of this class (big: of this block) */
    int cls;            /* size class, BIG_CLS, or -1 when never cached */
    /* Big blocks only: */
    unsigned char is_free, last; /* in the big free list; last in its chunk */
    struct block *prev_phys;     /* the block before this one in its chunk */
    struct block *prev;          /* big free list, doubly linked */
} block;
_Static_assert(sizeof(block) <= HEADER, "block header");

/* A spinlock: the pool is taken for a few instructions per call and almost
 * never contended (one session thread runs ops), where a mutex's lock and
 * unlock calls cost more than the allocation itself. */
static atomic_flag lock_flag = ATOMIC_FLAG_INIT;

static void lock(void) {
    while (atomic_flag_test_and_set_explicit(&lock_flag, memory_order_acquire)) sched_yield();
}

static void unlock(void) {
    atomic_flag_clear_explicit(&lock_flag, memory_order_release);
}
static block *free_lists[N_CLASSES];
static nn_mem_stats stats;
static int cap_initialised;

/* ---- Per-thread caches of small blocks ----
 * The lock's atomic exchange is most of an allocation's cost (a tensor
 * op allocates and frees four blocks: perf put 75-85% of nn_mem_alloc and
 * nn_mem_free in it), so each thread keeps a few freed small blocks of
 * each class of its own (as glibc's tcache does) and hands them out again
 * without the lock. A thread's cache counts its own changes to the stats
 * in its own fields, written only by that thread (relaxed atomics: plain
 * moves on x86); nn_mem_get_stats adds them up under the lock.
 *
 * The peak stays exact without the lock on the fast path: a thread may
 * grow its in-use bytes through its cache only up to its [limit], and the
 * limits are handed out under the lock so that stats.in_use plus the sum of
 * every thread's limit never exceeds stats.peak (nor the cap). Only an
 * allocation past its limit takes the lock; if it raises the peak, the
 * other threads' limits are first cut to what they use, so the peak is what
 * was in use at once. One thread running ops (a session) gets all the room
 * between what it uses and the peak, and its steady-state loop never takes
 * the lock. Under AddressSanitizer there are no caches (every block goes
 * back to the system, see nn_mem_free). */
#define TC_CLASSES 37                /* classes up to 32 KiB (size_class 36) */
#define TC_COUNT   16                /* blocks kept per class */
#define TC_BYTES   ((size_t)1 << 20) /* bytes kept per thread */

typedef struct tcache {
    block *head[TC_CLASSES];
    unsigned char count[TC_CLASSES];
    /* The owner's changes since they were last folded into stats: bytes
     * handed out minus bytes taken back (below 0 when it frees other
     * threads' blocks), and the most that difference may reach without the
     * lock. */
    _Atomic int64_t in_use, limit;
    _Atomic size_t cached;
    _Atomic uint64_t allocs;
    bool registered;
    struct tcache *next; /* the list of registered caches */
} tcache;

static _Thread_local tcache tc;
static tcache *tcaches;    /* registered caches, under the lock */
static int64_t limits_sum; /* the sum of their limits, under the lock */
static pthread_key_t tc_key;
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;

static int64_t rd(_Atomic int64_t *p) {
    return atomic_load_explicit(p, memory_order_relaxed);
}
static void wr(_Atomic int64_t *p, int64_t v) {
    atomic_store_explicit(p, v, memory_order_relaxed);
}
static size_t rdz(_Atomic size_t *p) {
    return atomic_load_explicit(p, memory_order_relaxed);
}
static void wrz(_Atomic size_t *p, size_t v) {
    atomic_store_explicit(p, v, memory_order_relaxed);
}

/* Fold [t]'s in-use bytes and allocations into stats and give its limit
 * back. Called with the lock held, by [t]'s owner. */
static void tc_fold(tcache *t) {
    stats.in_use += (size_t)rd(&t->in_use);
    limits_sum -= rd(&t->limit);
    wr(&t->in_use, 0);
    wr(&t->limit, 0);
    stats.allocs += atomic_load_explicit(&t->allocs, memory_order_relaxed);
    atomic_store_explicit(&t->allocs, 0, memory_order_relaxed);
}

/* Cut every thread's limit to what it uses: then stats.in_use plus the
 * limits is what is in use now (but for a block another thread hands out
 * at this moment). Called with the lock held. */
static void tc_revoke_all(void) {
    for (tcache *t = tcaches; t; t = t->next) {
        int64_t used = rd(&t->in_use);
        limits_sum += used - rd(&t->limit);
        wr(&t->limit, used);
    }
}

/* Give the calling thread's cache all the room there is between what is in
 * use (with the limits) and the peak, or the cap where that is lower.
 * Called with the lock held, after tc_fold. */
static void tc_grant(tcache *t) {
    size_t top = stats.peak < stats.cap ? stats.peak : stats.cap;
    int64_t room = (int64_t)top - (int64_t)stats.in_use - limits_sum;
    if (!t->registered || room <= 0) return;
    wr(&t->limit, room);
    limits_sum += room;
}

static void tc_release(tcache *t);

static void tc_exit(void *arg) {
    tc_release(arg);
}

static bool tc_key_ok; /* without the key a cache could not be given back */

static void tc_key_init(void) {
    tc_key_ok = pthread_key_create(&tc_key, tc_exit) == 0;
}

/* Register the calling thread's cache, so that its blocks and counts are
 * seen and given back when the thread ends. Called with the lock held. */
static void tc_register(tcache *t) {
    if (t->registered || SANITIZING) return;
    pthread_once(&tc_once, tc_key_init);
    if (!tc_key_ok || pthread_setspecific(tc_key, t) != 0) return; /* no cache, then */
    t->registered = true;
    t->next = tcaches;
    tcaches = t;
}

static size_t default_cap(void) {
    const char *env = getenv("NNDB_MEM_CAP");
    if (env) {
        size_t v = nn_mem_parse_size(env);
        if (v) return v;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0) return (size_t)4 << 30;
    return (size_t)pages * (size_t)page / 2;
}

static void init_cap(void) {
    if (!cap_initialised) {
        stats.cap = default_cap();
        cap_initialised = 1;
    }
}

/* Smallest class whose size is >= n, and that size. Class 4*(k-6)+(q-4)
 * holds blocks of q * 2^k / 4 bytes, q in 4..7, k >= 6. */
static int size_class(size_t n, size_t *class_size) {
    if (n < 64) n = 64;
    int k = 63 - __builtin_clzll((unsigned long long)n); /* 2^k <= n < 2^(k+1) */
    size_t quarter = ((size_t)1 << k) / 4;
    int q = (int)((n + quarter - 1) >> (k - 2)); /* 4..8; a shift, not a division */
    if (q == 8) k++, q = 4, quarter *= 2;
    *class_size = quarter * (size_t)q;
    return 4 * (k - 6) + (q - 4);
}

char *nn_mem_format(char *buf, int bufsize, size_t bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 6) v /= 1024, u++;
    if (u == 0)
        snprintf(buf, (size_t)bufsize, "%zu B", bytes);
    else
        snprintf(buf, (size_t)bufsize, "%.1f %s", v, units[u]);
    return buf;
}

size_t nn_mem_parse_size(const char *s) {
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0)) return 0; /* also rejects NaN */
    switch (*end) {
    case 'k':
    case 'K':
        v *= 1024.0;
        end++;
        break;
    case 'm':
    case 'M':
        v *= 1024.0 * 1024;
        end++;
        break;
    case 'g':
    case 'G':
        v *= 1024.0 * 1024 * 1024;
        end++;
        break;
    case 't':
    case 'T':
        v *= 1024.0 * 1024 * 1024 * 1024;
        end++;
        break;
    default: break;
    }
    if (*end == 'i' || *end == 'I') end++;
    if (*end == 'b' || *end == 'B') end++;
    if (*end != '\0' || !(v < 1.8e19)) return 0;
    return (size_t)v;
}

/* [in_use]: the bytes in use, every thread's included. */
static nn_status refuse(nn_error *err, size_t size, const char *what, const char *why,
                        size_t in_use) {
    char want[32], cap[32], used[32];
    nn_mem_format(want, sizeof want, size);
    nn_mem_format(cap, sizeof cap, stats.cap);
    nn_mem_format(used, sizeof used, in_use);
    return nn_error_set(err, NN_ERR_MEMORY,
                        "cannot allocate %s%s%s: %s (cap %s, %s in use). "
                        "Use smaller sizes, or raise the cap with NNDB_MEM_CAP.",
                        want, what ? " for " : "", what ? what : "", why, cap, used);
}

/* ---- big blocks: best fit with splitting and merging ---- */

static block *big_free; /* free big blocks, any order */

static block *phys_next(block *b) {
    return b->last ? NULL : (block *)((char *)b + HEADER + b->size);
}

static void big_list_add(block *b) {
    b->is_free = 1;
    b->prev = NULL;
    b->next = big_free;
    if (big_free) big_free->prev = b;
    big_free = b;
    stats.cached += b->size;
}

static void big_list_remove(block *b) {
    if (b->prev)
        b->prev->next = b->next;
    else
        big_free = b->next;
    if (b->next) b->next->prev = b->prev;
    b->is_free = 0;
    b->next = b->prev = NULL;
    stats.cached -= b->size;
}

/* Give the pages of every free big block back to the system (they stay in
 * the cache; the kernel maps fresh zero pages on the next write). Before a
 * chunk for a huge request (an LM head's logits or its weight's gradient)
 * the free pieces around are often too small for anything that comes until
 * the step's peak, yet resident: at GPT-2 124M B4 T256, 82 MiB of them,
 * touched by earlier phases of the step. A loop in its steady state makes
 * no new chunk, so this costs nothing there; the first steps refault the
 * pieces they reuse. Called with the lock held. */
static void drop_pages(block *b) {
    uintptr_t lo = ((uintptr_t)b + HEADER + PAGE - 1) & ~(uintptr_t)(PAGE - 1);
    uintptr_t hi = ((uintptr_t)b + HEADER + b->size) & ~(uintptr_t)(PAGE - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

static void big_drop_free_pages(void) {
    for (block *b = big_free; b; b = b->next) drop_pages(b);
}

/* The region: one reserved range of address space (PROT_NONE, so it costs
 * neither memory nor commit charge) that big blocks are cut from, made
 * usable from its base up as the pool grows. Separate chunks from the
 * system never merged with each other, so a request larger than every hole
 * took a whole new chunk while the holes around stayed resident: at GPT-2
 * 124M B4 T256, 279 MiB free at the step's peak in 90 pieces, 210 MiB of
 * them resident. Grown in place, the free block at the top takes the growth
 * and the request fits with only the difference added, and blocks merge
 * across what were chunk borders. Where the range cannot be reserved (a
 * strict overcommit policy, a small address space), chunks come from the
 * system as before. */
#define REGION_RESERVE ((size_t)256 << 30)
static char *region_base, *region_top; /* usable [base, top) */
static char *region_fresh; /* the end of the highest block handed out: untouched above */
static size_t region_size; /* reserved */
static int region_state;   /* 0: not tried, 1: reserved, -1: none */
static block *region_last; /* the block at the top, or NULL */

static bool in_region(const block *b) {
    return region_base && (const char *)b >= region_base && (const char *)b < region_top;
}

static void region_init(void) {
    if (region_state) return;
    void *p =
        mmap(NULL, REGION_RESERVE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        region_state = -1;
        return;
    }
    region_base = region_top = region_fresh = p;
    region_size = REGION_RESERVE;
    region_state = 1;
}

/* Make the region's top a free block of at least [need] bytes, growing it
 * in multiples of [step] (merged with a free block already at the top).
 * False when the region is full or the system refuses. Called with the lock
 * held. */
static bool region_grow(size_t need, size_t step) {
    region_init();
    if (region_state < 0) return false;
    size_t have = region_last && region_last->is_free ? HEADER + region_last->size : 0;
    size_t grow = need + HEADER > have ? need + HEADER - have : 0;
    grow = (grow + step - 1) / step * step;
    if (grow == 0) return true;
    if ((size_t)(region_top - region_base) + grow > region_size) return false;
    if (mprotect(region_top, grow, PROT_READ | PROT_WRITE) != 0) return false;
    stats.heap_calls++;
    block *b = (block *)region_top;
    region_top += grow;
    if (have) { /* the free block at the top takes the growth */
        block *t = region_last;
        big_list_remove(t);
        t->size += grow;
        big_list_add(t);
        return true;
    }
    b->size = grow - HEADER;
    b->cls = BIG_CLS;
    b->is_free = 0;
    b->last = 1;
    b->prev_phys = region_last;
    b->next = b->prev = NULL;
    if (region_last) region_last->last = 0;
    region_last = b;
    big_list_add(b);
    return true;
}

/* Cut a block of [need] bytes from the top of the free block [b], which
 * stays free below it with the rest; NULL when the rest would be under
 * BIG_BLOCK (then the caller takes all of [b]). Called with the lock held. */
static block *cut_top(block *b, size_t need) {
    if (b->size - need < HEADER + BIG_BLOCK) return NULL;
    big_list_remove(b);
    block *t = (block *)((char *)b + b->size - need);
    t->size = need;
    t->cls = BIG_CLS;
    t->is_free = 0;
    t->last = b->last;
    t->prev_phys = b;
    t->next = t->prev = NULL;
    if (b == region_last) region_last = t;
    block *n = phys_next(t);
    if (n) n->prev_phys = t;
    b->size -= need + HEADER;
    b->last = 0;
    big_list_add(b);
    return t;
}

/* Make [b] (taken from the free list, or being made) [need] bytes long and
 * the rest after it a free block of its own, when that is BIG_BLOCK or
 * more. Called with the lock held. */
static void split_off(block *b, size_t need) {
    if (b->size - need < HEADER + BIG_BLOCK) return;
    block *r = (block *)((char *)b + HEADER + need);
    r->size = b->size - need - HEADER;
    r->cls = BIG_CLS;
    r->last = b->last;
    r->prev_phys = b;
    if (b == region_last) region_last = r;
    block *n = phys_next(r);
    if (n) n->prev_phys = r;
    b->size = need;
    b->last = 0;
    big_list_add(r);
}

/* A free block of at least [need] bytes (a multiple of PAGE), taken from
 * the free list and split, or NULL when none fits. [lasting]: from the top
 * of the highest free block that fits (NN_MEM_LASTING). Called with
 * the lock held. */
static block *big_fit(size_t need, bool lasting) {
    block *best = NULL;
    if (lasting) {
        for (block *b = big_free; b; b = b->next)
            if (b->size >= need && (!best || b > best)) best = b;
        block *t = best ? cut_top(best, need) : NULL;
        if (t) return t;
    } else {
        for (block *b = big_free; b; b = b->next)
            if (b->size >= need && (!best || b->size < best->size)) {
                best = b;
                if (b->size == need) break;
            }
    }
    if (best) {
        big_list_remove(best);
        split_off(best, need);
        return best;
    }
    return NULL;
}

/* A block of [need] bytes (a multiple of PAGE) in the region, starting at
 * region_fresh (or at the free block at the top, where that starts higher):
 * memory no block has had since the region grew there, so none of its
 * pages is resident yet, and the region grown as far as that takes. NULL
 * where there is no region or it cannot grow. The free memory below, which
 * the step's temporaries touched, stays free in one piece for the next
 * step's. Called with the lock held. */
static block *fresh_cut(size_t need) {
    region_init();
    if (region_state < 0) return NULL;
    block *t = region_last && region_last->is_free ? region_last : NULL;
    char *at = t ? (char *)t : region_top;
    /* Start at region_fresh unless what lies below it would be too small
     * for a block of its own. */
    if (region_fresh > at && (size_t)(region_fresh - at) >= HEADER + BIG_BLOCK) at = region_fresh;
    size_t below = t ? (size_t)(at - (char *)t) : 0;
    /* Grown by ARENA_CHUNK as for any block: the free rest above the last
     * fresh block is where the second step's few blocks that no longer fit
     * below go. Grown by whole pages instead (no rest), one of them split
     * the hole of the 64M model's 98 MiB head gradient, which then took
     * 104 MiB of new region in step 1 and kept 9 MiB more resident. */
    if (!region_grow(below + need, ARENA_CHUNK)) return NULL;
    t = region_last; /* free now, with room for [below] and the block */
    if (below)       /* the part below stays free; the block starts at [at] */
        t = cut_top(t, t->size - below);
    else
        big_list_remove(t);
    split_off(t, need);
    return t;
}

/* A block of at least [need] bytes (a multiple of PAGE): a free one, else
 * the region grown, else a chunk of its own from the system; NULL when the
 * system has none. Called with the lock held. */
static block *big_alloc(size_t need, nn_mem_place place) {
    block *b;
    if (place == NN_MEM_FRESH && (b = fresh_cut(need))) return b;
    bool lasting = place != NN_MEM_STEP;
    b = big_fit(need, lasting);
    if (b) return b;
    if (need >= HUGE_BLOCK) big_drop_free_pages();
    if (region_grow(need, ARENA_CHUNK) && (b = big_fit(need, lasting))) return b;
    /* A new chunk: at least ARENA_CHUNK, the rest a free block. */
    size_t chunk = need < ARENA_CHUNK ? ARENA_CHUNK : need;
    void *p = NULL;
    stats.heap_calls++;
    if (posix_memalign(&p, PAGE, HEADER + chunk) != 0) return NULL;
    b = p;
    b->size = chunk;
    b->cls = BIG_CLS;
    b->is_free = 0;
    b->last = 1;
    b->prev_phys = NULL;
    b->next = b->prev = NULL;
    if (lasting && chunk - need >= HEADER + BIG_BLOCK) { /* at the chunk's top */
        big_list_add(b);
        return cut_top(b, need);
    }
    if (chunk - need >= HEADER + BIG_BLOCK) {
        block *r = (block *)((char *)b + HEADER + need);
        r->size = chunk - need - HEADER;
        r->cls = BIG_CLS;
        r->last = 1;
        r->prev_phys = b;
        b->size = need;
        b->last = 0;
        big_list_add(r);
    }
    return b;
}

/* Called with the lock held. */
static void big_release(block *b) {
    block *n = phys_next(b);
    if (n && n->is_free) { /* merge the next block into this one */
        big_list_remove(n);
        b->size += HEADER + n->size;
        b->last = n->last;
        if (n == region_last) region_last = b;
        if ((n = phys_next(b))) n->prev_phys = b;
    }
    block *p = b->prev_phys;
    if (p && p->is_free) { /* merge this block into the previous one */
        big_list_remove(p);
        p->size += HEADER + b->size;
        p->last = b->last;
        if (b == region_last) region_last = p;
        if ((n = phys_next(p))) n->prev_phys = p;
        b = p;
    }
    bool over = stats.cached + b->size > stats.cap / 4;
    if (over && !in_region(b) && !b->prev_phys && b->last) {
        free(b); /* a whole chunk beyond the cache budget */
        return;
    }
    big_list_add(b);
    if (over && in_region(b)) drop_pages(b); /* cached, but not resident */
}

/* A block of class [cls] (< TC_CLASSES, [csize] bytes) from the calling
 * thread's cache, or NULL where it has none or its limit is reached. */
static void *tc_alloc(tcache *t, int cls, size_t csize) {
    block *b = t->head[cls];
    int64_t used = rd(&t->in_use) + (int64_t)csize;
    if (!b || used > rd(&t->limit)) return NULL;
    t->head[cls] = b->next;
    t->count[cls]--;
    wrz(&t->cached, rdz(&t->cached) - csize);
    wr(&t->in_use, used);
    atomic_store_explicit(&t->allocs, atomic_load_explicit(&t->allocs, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    b->next = NULL;
    return (char *)b + HEADER;
}

/* After a block of [got] bytes was handed out under the lock, with [used]
 * in use before it: the peak, and the calling thread's room. */
static void note_alloc(tcache *t, size_t used, size_t got) {
    stats.in_use += got;
    stats.allocs++;
    if (used + got > stats.peak) stats.peak = used + got;
    tc_register(t);
    tc_grant(t);
}

/* nn_mem_alloc_placed past the thread's cache, under the lock; [cls] and
 * [csize] as size_class gave them, or -1 and [size]. Kept apart so that the
 * cache's path saves no registers. */
static __attribute__((noinline)) void *alloc_locked(size_t size, int cls, size_t csize,
                                                    nn_mem_place place, const char *what,
                                                    nn_error *err) {
    tcache *t = &tc;
    lock();
    init_cap();
    tc_fold(t);
    bool big = !SANITIZING && size >= BIG_BLOCK && size <= MAX_CACHED_BLOCK;
    size_t need = big ? (size + PAGE - 1) & ~(PAGE - 1) : csize;
    /* In use now, bounded by the other threads' limits; exact where a new
     * peak or the cap is at stake. */
    size_t used = stats.in_use + (size_t)limits_sum;
    if (used + need > stats.peak || used + size > stats.cap) {
        tc_revoke_all();
        used = stats.in_use + (size_t)limits_sum;
    }
    if (size > stats.cap || used + size > stats.cap) {
        refuse(err, size, what, "above the memory cap", used);
        unlock();
        return NULL;
    }
    block *b;
    if (big) {
        b = big_alloc(need, place);
        if (!b) {
            refuse(err, size, what, "the system is out of memory", used);
            unlock();
            return NULL;
        }
        char *end = (char *)b + HEADER + b->size;
        if (in_region(b) && end > region_fresh) region_fresh = end;
        note_alloc(t, used, b->size);
        unlock();
        return (char *)b + HEADER;
    }
    if (cls < 0) cls = size <= MAX_CACHED_BLOCK ? size_class(size, &csize) : -1;
    if (cls < 0 || cls >= N_CLASSES) cls = -1, csize = size;
    /* The thread's own cache first: its block is there when only the
     * thread's limit sent the request here. */
    if (cls >= 0 && cls < TC_CLASSES && (b = t->head[cls])) {
        t->head[cls] = b->next;
        t->count[cls]--;
        wrz(&t->cached, rdz(&t->cached) - b->size);
    } else if (cls >= 0 && (b = free_lists[cls])) {
        free_lists[cls] = b->next;
        stats.cached -= b->size;
    } else {
        void *p = NULL;
        stats.heap_calls++;
        if (posix_memalign(&p, HEADER, HEADER + csize) != 0) p = NULL;
        if (!p) {
            refuse(err, size, what, "the system is out of memory", used);
            unlock();
            return NULL;
        }
        b = p;
        b->size = csize;
        b->cls = cls;
    }
    b->next = NULL;
    note_alloc(t, used, b->size);
    unlock();
    return (char *)b + HEADER;
}

void *nn_mem_alloc_placed(size_t size, nn_mem_place place, const char *what, nn_error *err) {
    size_t csize = size;
    int cls = -1;
    if (!SANITIZING && size < BIG_BLOCK) {
        cls = size_class(size, &csize);
        void *p = cls < TC_CLASSES ? tc_alloc(&tc, cls, csize) : NULL;
        if (p) return p;
    }
    return alloc_locked(size, cls, csize, place, what, err);
}

void *nn_mem_alloc(size_t size, const char *what, nn_error *err) {
    return nn_mem_alloc_placed(size, NN_MEM_STEP, what, err);
}

bool nn_mem_lasting_applies(size_t size) {
    return !SANITIZING && size < ARENA_CHUNK;
}

void *nn_mem_calloc(size_t size, const char *what, nn_error *err) {
    void *p = nn_mem_alloc(size, what, err);
    if (p) memset(p, 0, size);
    return p;
}

static void free_locked(block *b);

void nn_mem_free(void *p) {
    if (!p) return;
    block *b = (block *)((char *)p - HEADER);
    tcache *t = &tc;
    int cls = b->cls;
    /* Into the calling thread's cache while it has room (registered: never
     * under AddressSanitizer). */
    if (cls >= 0 && cls < TC_CLASSES && t->registered && t->count[cls] < TC_COUNT &&
        rdz(&t->cached) + b->size <= TC_BYTES) {
        b->next = t->head[cls];
        t->head[cls] = b;
        t->count[cls]++;
        wrz(&t->cached, rdz(&t->cached) + b->size);
        wr(&t->in_use, rd(&t->in_use) - (int64_t)b->size);
        return;
    }
    free_locked(b);
}

/* nn_mem_free past the thread's cache, under the lock (apart, as
 * alloc_locked). */
static __attribute__((noinline)) void free_locked(block *b) {
    lock();
    tc_register(&tc);
    stats.in_use -= b->size;
    if (b->cls == BIG_CLS) {
        big_release(b);
        unlock();
        return;
    }
    /* Keep blocks for reuse while the cache stays under a quarter of the cap.
     * Under AddressSanitizer every block goes back to the system, so a use
     * after free is caught instead of landing in a recycled block. */
    if (!SANITIZING && b->cls >= 0 && stats.cached + b->size <= stats.cap / 4) {
        b->next = free_lists[b->cls];
        free_lists[b->cls] = b;
        stats.cached += b->size;
    } else {
        free(b);
    }
    unlock();
}

/* Give [t]'s blocks back to the shared free lists (or the system, beyond
 * the cache budget) and its counts to stats, and unregister it: a thread
 * that ends. */
static void tc_release(tcache *t) {
    lock();
    tc_fold(t);
    for (int i = 0; i < TC_CLASSES; i++) {
        while (t->head[i]) {
            block *b = t->head[i];
            t->head[i] = b->next;
            if (stats.cached + b->size <= stats.cap / 4) {
                b->next = free_lists[i];
                free_lists[i] = b;
                stats.cached += b->size;
            } else {
                free(b);
            }
        }
        t->count[i] = 0;
    }
    wrz(&t->cached, 0);
    for (tcache **pp = &tcaches; *pp; pp = &(*pp)->next)
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    t->registered = false;
    unlock();
}

void nn_mem_set_cap(size_t bytes) {
    lock();
    cap_initialised = 1;
    stats.cap = bytes;
    tc_revoke_all(); /* the next allocation of each thread checks the cap */
    unlock();
}

nn_mem_stats nn_mem_get_stats(void) {
    lock();
    init_cap();
    nn_mem_stats s = stats;
    for (tcache *t = tcaches; t; t = t->next) {
        s.in_use += (size_t)rd(&t->in_use);
        s.cached += rdz(&t->cached);
        s.allocs += atomic_load_explicit(&t->allocs, memory_order_relaxed);
    }
    if (s.peak < s.in_use) s.peak = s.in_use; /* a block handed out meanwhile */
    s.touched = (size_t)(region_fresh - region_base);
    unlock();
    return s;
}

void nn_mem_reset_peak(void) {
    lock();
    tc_revoke_all();
    stats.peak = stats.in_use + (size_t)limits_sum;
    unlock();
}

/* Frees the calling thread's cached blocks; other threads keep theirs
 * (their owners alone touch them) until they end. */
void nn_mem_trim(void) {
    tcache *own = &tc;
    lock();
    for (int i = 0; i < TC_CLASSES; i++) {
        while (own->head[i]) {
            block *b = own->head[i];
            own->head[i] = b->next;
            wrz(&own->cached, rdz(&own->cached) - b->size);
            free(b);
        }
        own->count[i] = 0;
    }
    for (int i = 0; i < N_CLASSES; i++) {
        while (free_lists[i]) {
            block *b = free_lists[i];
            free_lists[i] = b->next;
            stats.cached -= b->size;
            free(b);
        }
    }
    for (block *b = big_free, *next; b; b = next) {
        next = b->next;
        if (in_region(b)) {
            drop_pages(b);
        } else if (!b->prev_phys && b->last) { /* a whole chunk */
            big_list_remove(b);
            free(b);
        }
    }
    /* The region shrinks by a free block at its top: the pages and the
     * commit charge go back, the address range stays reserved. */
    if (region_last && region_last->is_free) {
        block *t = region_last;
        big_list_remove(t);
        region_last = t->prev_phys;
        if (region_last) region_last->last = 1;
        size_t len = (size_t)(region_top - (char *)t);
        if (mmap(t, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1,
                 0) != MAP_FAILED) {
            region_top = (char *)t;
            if (region_fresh > region_top) region_fresh = region_top;
        } else { /* keep it, cached */
            if (region_last) region_last->last = 0;
            region_last = t;
            big_list_add(t);
        }
    }
    unlock();
}
