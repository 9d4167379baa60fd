/* The unit-test runner: runs every NN_TEST linked into this binary.
 *   unit_tests [SUBSTRING]   the tests whose names contain SUBSTRING, or all
 * With NNDB_TEST_TIMES=1 in the environment each test's seconds go to
 * stderr, to find what makes a suite slow (the sanitizers' run above all). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../nn_test.h"
#include "nn_mem.h"

typedef struct {
    const char *name, *file;
    nn_test_fn fn;
} test_entry;

static test_entry tests[1024];
static int n_tests;
int nn_test_failures;

void nn_test_register(const char *name, const char *file, nn_test_fn fn) {
    if (n_tests < (int)(sizeof tests / sizeof tests[0]))
        tests[n_tests++] = (test_entry){name, file, fn};
}

static int by_file_then_name(const void *a, const void *b) {
    const test_entry *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
    const char *filter = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    const char *times = getenv("NNDB_TEST_TIMES");
    bool timed = times && *times && strcmp(times, "0");
    qsort(tests, (size_t)n_tests, sizeof tests[0], by_file_then_name);
    for (int i = 0; i < n_tests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        nn_test_failures = 0;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        tests[i].fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (timed)
            fprintf(stderr, "TIME %8.3f s  %s (%s)\n",
                    (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9,
                    tests[i].name, tests[i].file);
        if (nn_test_failures) {
            fprintf(stderr, "FAIL %s (%s)\n", tests[i].name, tests[i].file);
            failed++;
        } else {
            passed++;
        }
    }
    /* Every tensor and node a test made must be back in the pool. */
    nn_mem_stats st = nn_mem_get_stats();
    if (st.in_use != 0) {
        fprintf(stderr, "FAIL engine memory leak: %zu bytes still in use after the tests\n",
                st.in_use);
        failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
