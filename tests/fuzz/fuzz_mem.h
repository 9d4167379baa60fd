/* fuzz_mem: the engine-memory leak check the fuzz targets share. Each input
 * must give back every byte it took from nn_mem: fuzz_mem_begin (first call
 * also sets a small cap, so absurd sizes hit it quickly) records the level,
 * fuzz_mem_end aborts, naming the target, when the input left memory in use. */
#ifndef FUZZ_MEM_H
#define FUZZ_MEM_H

#include <stdio.h>
#include <stdlib.h>

#include "nn_mem.h"

static inline size_t fuzz_mem_begin(size_t cap) {
    static int capped;
    if (!capped) {
        nn_mem_set_cap(cap);
        capped = 1;
    }
    return nn_mem_get_stats().in_use;
}

static inline void fuzz_mem_end(size_t before, const char *target) {
    size_t now = nn_mem_get_stats().in_use;
    if (now != before) {
        fprintf(stderr, "%s: %zu bytes of engine memory leaked by this input\n", target,
                now - before);
        abort();
    }
}

#endif
