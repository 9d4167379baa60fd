/* The unit-test runner: runs every NN_TEST linked into this binary. */
#include <stdlib.h>
#include <string.h>

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
    qsort(tests, (size_t)n_tests, sizeof tests[0], by_file_then_name);
    for (int i = 0; i < n_tests; i++) {
        if (filter && !strstr(tests[i].name, filter)) continue;
        nn_test_failures = 0;
        tests[i].fn();
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
