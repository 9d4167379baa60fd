/* nn_test: a small self-registering unit-test harness.
 *
 * Each test file defines tests with NN_TEST(name) { ... } and checks with
 * CHECK / CHECK_NEAR / CHECK_OK. A failed check prints file:line and the
 * failing expression, marks the test failed, and the test goes on. The
 * runner (tests/unit/main.c) runs every registered test, or those whose name
 * contains argv[1], and ends with "N passed, N failed".
 */
#ifndef NN_TEST_H
#define NN_TEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef void (*nn_test_fn)(void);
void nn_test_register(const char *name, const char *file, nn_test_fn fn);
extern int nn_test_failures; /* failures in the running test */

#define NN_TEST(name)                                                                              \
    static void test_##name(void);                                                                 \
    __attribute__((constructor)) static void register_##name(void) {                               \
        nn_test_register(#name, __FILE__, test_##name);                                            \
    }                                                                                              \
    static void test_##name(void)

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);             \
            nn_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#define CHECK_MSG(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "  %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond);             \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            nn_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                                      \
    do {                                                                                           \
        double a_ = (double)(a), b_ = (double)(b);                                                 \
        if (!(fabs(a_ - b_) <= (tol) * (1.0 + fabs(b_)))) {                                        \
            fprintf(stderr, "  %s:%d: %s = %.9g, expected %s = %.9g (tol %g)\n", __FILE__,         \
                    __LINE__, #a, a_, #b, b_, (double)(tol));                                      \
            nn_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#endif
