/* nn_mem: the engine's memory pool and allocation cap.
 *
 * Every tensor buffer, tensor header and graph node comes from here. Freed
 * blocks go back to per-size-class free lists and are handed out again, so a
 * training loop reaches a steady state in which it calls malloc no more.
 * Requests above the cap (default: half of physical memory, or the
 * NNDB_MEM_CAP environment variable in bytes, with K/M/G suffixes) fail with
 * NN_ERR_MEMORY instead of crashing. nn_mem_alloc returns memory the caller
 * owns until it passes it back to nn_mem_free; thread-safe.
 */
#ifndef NN_MEM_H
#define NN_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn_error.h"

typedef struct nn_mem_stats {
    size_t cap;          /* allocation cap in bytes */
    size_t in_use;       /* bytes handed out and not yet freed */
    size_t peak;         /* highest in_use seen */
    size_t cached;       /* bytes held in free lists */
    uint64_t heap_calls; /* calls to the system allocator so far */
    uint64_t allocs;     /* nn_mem_alloc calls so far */
    size_t touched;      /* the big blocks' region up to the highest block handed
                            out so far: what a step may have made resident */
} nn_mem_stats;

/* Allocate [size] bytes aligned to 64. On failure returns NULL and fills [err]
 * with a message that names [what] (e.g. "a float32 tensor of shape [2, 3]"). */
void *nn_mem_alloc(size_t size, const char *what, nn_error *err);
/* Where a big block (64 KiB and up) is cut from the pool. */
typedef enum nn_mem_place {
    /* a step's temporary: best fit, from the bottom (nn_mem_alloc) */
    NN_MEM_STEP,
    /* a block that outlives the step that makes it (a parameter's
     * gradient, kept from one step to the next): from the top of the
     * highest free block, so the step's temporaries, cut best-fit from the
     * bottom, find the holes they leave in one piece */
    NN_MEM_LASTING,
    /* a block that lasts and is made after a step's temporaries are freed
     * (an optimizer's state, made in its first step): from memory no block
     * has had yet (above every block so far, growing the pool), so the
     * pages the step's temporaries touched stay free for the next step's
     * instead of being taken by it */
    NN_MEM_FRESH,
} nn_mem_place;
/* nn_mem_alloc with the placement [place]. */
void *nn_mem_alloc_placed(size_t size, nn_mem_place place, const char *what, nn_error *err);
/* Whether moving a long-lived block of [size] bytes into an
 * NN_MEM_LASTING one is worth a copy: below the 8 MiB chunk, blocks
 * share chunks (or, under 64 KiB, size classes) with the step's
 * temporaries; a larger one has a chunk or a hole of its own. */
bool nn_mem_lasting_applies(size_t size);
/* Zeroed variant of nn_mem_alloc. */
void *nn_mem_calloc(size_t size, const char *what, nn_error *err);
/* Return a block to the pool. NULL is accepted. */
void nn_mem_free(void *p);

void nn_mem_set_cap(size_t bytes);
nn_mem_stats nn_mem_get_stats(void);
/* Start a new peak from what is in use now (memory_report, %memory). */
void nn_mem_reset_peak(void);
/* Give every cached block back to the system (e.g. after a big experiment). */
void nn_mem_trim(void);
/* Parse "512M", "2G", "1024" into bytes; returns 0 on a malformed string. */
size_t nn_mem_parse_size(const char *s);
/* Format a byte count as "1.5 GiB" into [buf]. */
char *nn_mem_format(char *buf, int bufsize, size_t bytes);

#endif
