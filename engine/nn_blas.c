#include "nn_blas.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nn_small_gemm.h"
#include "nn_thread.h"

typedef void (*sgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                         int, float, const float *, int, const float *, int, float, float *, int);
typedef void (*dgemm_fn)(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int, int,
                         int, double, const double *, int, const double *, int, double, double *,
                         int);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static sgemm_fn p_sgemm;
static dgemm_fn p_dgemm;
static void (*p_set_threads)(int);
static char *(*p_corename)(void);
static int (*p_get_threads)(void);
static int wanted_threads;
/* The library's own count when it loaded, before nndb set any. */
static int library_threads;
/* OpenBLAS kernel sets whose summation order nn_small_gemm reproduces
 * (Zen uses Haswell's sgemm kernels; checked on Zen 3). */
static bool small_gemm_ok;
static const char *loaded_from;
static void *handle;

/* OpenBLAS first (it has the thread control), then whatever the BLAS
 * alternative points at. */
static void load(void) {
    static const char *const names[] = {"libopenblas.so.0", "libblas.so.3", "libcblas.so.3"};
    /* OpenBLAS's workers spin (sched_yield) for 2^28 cycles, about 0.1 s,
     * after each product before they sleep. Between the products of a
     * training step that keeps the second core "busy", so the engine's own
     * worker (nn_thread.c) waits behind the spinner or never gets to run
     * its half of an elementwise job: at 2 threads the GPT-2 124M step was
     * 1.23x its GEMM floor, 1.13x with the workers sleeping at once (2^4
     * cycles, OpenBLAS's minimum; waking one costs microseconds per
     * product). Read by OpenBLAS when it is loaded, so set just before;
     * a value the user set (not empty) is kept. */
    const char *timeout = getenv("OPENBLAS_THREAD_TIMEOUT");
    if (!timeout || !*timeout) setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) continue;
        sgemm_fn s = (sgemm_fn)(uintptr_t)dlsym(h, "cblas_sgemm");
        dgemm_fn d = (dgemm_fn)(uintptr_t)dlsym(h, "cblas_dgemm");
        if (!s || !d) {
            dlclose(h);
            continue;
        }
        handle = h;
        p_sgemm = s;
        p_dgemm = d;
        p_set_threads = (void (*)(int))(uintptr_t)dlsym(h, "openblas_set_num_threads");
        p_corename = (char *(*)(void))(uintptr_t)dlsym(h, "openblas_get_corename");
        p_get_threads = (int (*)(void))(uintptr_t)dlsym(h, "openblas_get_num_threads");
        loaded_from = names[i];
        const char *core = p_corename ? p_corename() : NULL;
        small_gemm_ok = core && (!strcmp(core, "Zen") || !strcmp(core, "Haswell"));
        library_threads = p_get_threads ? p_get_threads() : 0;
        if (p_set_threads && wanted_threads > 0) p_set_threads(wanted_threads);
        return;
    }
}

nn_status nn_blas_require(nn_ctx *ctx) {
    pthread_once(&once, load);
    if (p_sgemm) return NN_OK;
    return nn_error_set(&ctx->err, NN_ERR_RUNTIME,
                        "no BLAS library could be loaded (tried libopenblas.so.0, libblas.so.3): "
                        "install Debian's libopenblas0 for matrix products");
}

/* Lines [begin, end) of a C being cleared, split by lines across threads. */
typedef struct clear_job {
    char *p;
    int64_t lines, len, ld; /* len and ld in bytes */
} clear_job;

static void clear_task(void *arg, int task, int n_tasks) {
    const clear_job *j = arg;
    int64_t begin, end;
    nn_parallel_range(j->lines, task, n_tasks, 1, &begin, &end);
    if (j->ld == j->len)
        memset(j->p + begin * j->ld, 0, (size_t)((end - begin) * j->len));
    else
        for (int64_t i = begin; i < end; i++) memset(j->p + i * j->ld, 0, (size_t)j->len);
}

/* beta 0 makes OpenBLAS clear C with its scalar beta kernel before the
 * product: 20% of a 64x64x64 sgemm. Clearing C with memset and passing beta 1
 * gives the same bits (the kernel adds its sum to a zero either way) in less
 * time. A C above 256K elements is cleared across the engine's threads (one
 * memset per thread: OpenBLAS's own threads ran its beta kernel at about half
 * memset's speed, 1.7% of the 124M T256 step's samples at 2 threads). */
static bool zero_first(enum CBLAS_ORDER order, int m, int n, int k, size_t es, void *c, int ldc) {
    if (m <= 0 || n <= 0 || k <= 0) return false;
    int64_t lines = order == CblasRowMajor ? m : n, len = order == CblasRowMajor ? n : m;
    if (ldc < len) return false; /* BLAS rejects it without touching C */
    clear_job job = {c, lines, len * (int64_t)es, ldc * (int64_t)es};
    int tasks = (int64_t)m * n > (int64_t)1 << 18 ? nn_parallel_tasks(lines, 1) : 1;
    if (tasks > 1)
        nn_parallel_run(tasks, clear_task, &job);
    else
        clear_task(&job, 0, 1);
    return true;
}

/* nn_small_gemm's model of OpenBLAS's two threads rests on constants of
 * the library's build (Debian's: TARGET GENERIC, so level3_thread.c's
 * SWITCH_RATIO 2 and GEMM_PREFERED_SIZE 1; a build for HASWELL rounds the
 * threads' columns to 8, one for ZEN keeps 16 rows at least per thread),
 * which the library does not report. So before the first product at two
 * threads it is checked once against the library on a product whose bits
 * tell those apart (13 x 337 x 333: thread 1's columns start mid-group,
 * region 0 has fewer than 8 rows, k's second half is odd); if they differ,
 * OpenBLAS keeps the products at two threads. About 3 ms, once. */
static pthread_once_t two_once = PTHREAD_ONCE_INIT;
static bool two_ok;

static void two_check(void) {
    enum { M = 13, N = 337, K = 333 };
    float *a = malloc(sizeof(float) * (M * K + K * N + 2 * M * N));
    if (!a) return;
    float *b = a + M * K, *c1 = b + K * N, *c2 = c1 + M * N;
    uint32_t r = 2027;
    for (int i = 0; i < M * K + K * N; i++)
        a[i] = (float)((r = r * 1664525u + 1013904223u) >> 8) / 16777216.0f - 0.5f;
    for (int i = 0; i < M * N; i++) c1[i] = c2[i] = 1.0f / (float)(i + 1);
    p_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, a, K, b, N, 1.0f, c1, N);
    two_ok = nn_small_sgemm(false, false, M, N, K, a, K, b, N, c2, N, false, 2) &&
             !memcmp(c1, c2, sizeof(float) * M * N);
    free(a);
}

/* The threads to tell nn_small_sgemm OpenBLAS runs on: 0 (not known) at
 * two where the check above failed. */
static int blas_threads(void) {
    int t = p_get_threads ? p_get_threads() : 0;
    if (t == 2) {
        pthread_once(&two_once, two_check);
        if (!two_ok) t = 0;
    }
    return t;
}

nn_blas_split nn_blas_split_mode(bool f32) {
    pthread_once(&once, load);
    int t = p_get_threads && p_set_threads ? p_get_threads() : 1;
    if (t <= 1) return NN_BLAS_SPLIT_ONE;
    if (t == 2 && f32 && small_gemm_ok && blas_threads() == 2) return NN_BLAS_SPLIT_HERE;
    return NN_BLAS_SPLIT_NONE;
}

/* Rows of a row-major C per BLAS call (0: the default, SPLIT_ROWS). */
static int split_rows;
#define SPLIT_ROWS 8192

void nn_blas_set_split_rows(int rows) {
    split_rows = rows;
}

/* A C of more than this many bytes, at beta 0 and one thread, is cleared
 * and multiplied a block of rows at a time (library_sgemm). */
#define CLEAR_BLOCK_BYTES ((int64_t)2 << 20)

/* The library's product, C cleared first at beta 0 (zero_first). A large
 * row-major C at one thread is cleared and multiplied in blocks (about
 * CLEAR_BLOCK_BYTES each) of 384 rows or a multiple: cleared whole,
 * a C larger than the caches was written to memory by the clearing and read
 * back from it by the product. A training step's weight gradients are fresh
 * memory of that size (about 500 MB a GPT-2 124M step: 150 ms of clearing
 * at one thread where OpenBLAS makes the products);
 * a block cleared just before its product is still in cache when the
 * product adds to it. Why 384 rows: the BLAS's tiles then fall where they
 * fall in one call, so the bits do not change (as for nn_blas_sgemm's
 * blocks of rows; tests/unit matmul_sgemm_cleared_blocks_same_bits).
 * Blocks of columns were tried and change the bits (C of 300 rows). */
static bool sgemm_in_blocks(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m, int n, int k,
                            float alpha, const float *a, int lda, const float *b, int ldb, float *c,
                            int ldc) {
    if ((int64_t)m * n * 4 <= 2 * CLEAR_BLOCK_BYTES || n <= 0 || k <= 0 || ldc < n ||
        (ta != CblasNoTrans && ta != CblasTrans) || (tb != CblasNoTrans && tb != CblasTrans) ||
        !p_get_threads || p_get_threads() != 1)
        return false;
    int64_t rows = CLEAR_BLOCK_BYTES / ((int64_t)n * 4) / 384 * 384;
    if (rows < 384) rows = 384;
    if (2 * rows > m) return false;
    for (int m0 = 0; m0 < m; m0 += (int)rows) {
        int mb = m - m0 < rows ? m - m0 : (int)rows;
        const float *ab = ta == CblasNoTrans ? a + (size_t)m0 * lda : a + m0;
        float *cb = c + (size_t)m0 * ldc;
        zero_first(CblasRowMajor, mb, n, k, sizeof(float), cb, ldc);
        p_sgemm(CblasRowMajor, ta, tb, mb, n, k, alpha, ab, lda, b, ldb, 1.0f, cb, ldc);
    }
    return true;
}

static void library_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb,
                          int m, int n, int k, float alpha, const float *a, int lda, const float *b,
                          int ldb, float beta, float *c, int ldc) {
    if (beta == 0.0f && order == CblasRowMajor &&
        sgemm_in_blocks(ta, tb, m, n, k, alpha, a, lda, b, ldb, c, ldc))
        return;
    if (beta == 0.0f && zero_first(order, m, n, k, sizeof(float), c, ldc)) beta = 1.0f;
    p_sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void nn_blas_sgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m,
                   int n, int k, float alpha, const float *a, int lda, const float *b, int ldb,
                   float beta, float *c, int ldc) {
    NN_ASSERT(p_sgemm);
    /* A row-major C of many rows goes to the BLAS in blocks of rows. OpenBLAS
     * packs the operand along C's rows (its column-major "B") for up to its
     * whole buffer (128 MiB) at once, and the pages it touches stay resident:
     * the GPT-2 124M LM head's weight gradient (50257 rows) touched 62 MiB of
     * it at the step's peak, a block of 8192 rows 10 MiB. Blocks are a
     * multiple of 384 rows, so the BLAS's tiles fall where they fall in one
     * call and, at one thread, the bits do not change (tests/unit
     * matmul_sgemm_row_blocks_same_bits; with a block of 128 rows they did).
     * Only at one thread: at two OpenBLAS's bits depend on how it splits
     * the rows between its threads, which blocks would change (the LM
     * head's weight gradient differed from PyTorch's at 2 threads). */
    int rows = split_rows > 0 ? split_rows : SPLIT_ROWS;
    if (order == CblasRowMajor && (int64_t)m > 2 * (int64_t)rows && n > 0 && k > 0 &&
        (ta == CblasNoTrans || ta == CblasTrans) && p_get_threads && p_get_threads() == 1) {
        int blocks = (m + rows - 1) / rows, per = (m + blocks - 1) / blocks;
        per = (per + 383) / 384 * 384; /* the BLAS's tiles line up */
        for (int m0 = 0; m0 < m; m0 += per) {
            int mb = m - m0 < per ? m - m0 : per;
            const float *ab = ta == CblasNoTrans ? a + (size_t)m0 * lda : a + m0;
            nn_blas_sgemm(order, ta, tb, mb, n, k, alpha, ab, lda, b, ldb, beta,
                          c + (size_t)m0 * ldc, ldc);
        }
        return;
    }
    /* A small product: OpenBLAS's bits without its cost per call (with beta
     * 0 the tiled path writes C without clearing it first); a larger one
     * (an attention head's) on the panels while OpenBLAS runs on one
     * thread; it and a Linear layer's, on 512-bit vectors, at one thread
     * or two (nn_small_gemm
     * computes each count's order: at two OpenBLAS divides C between its
     * threads and blocks each share in its own way, and nn_small_gemm runs
     * the two shares on the engine's pool). Other counts: the library. Only
     * the arguments the BLAS would accept (it reports the others itself). */
    bool tra = ta == CblasTrans, trb = tb == CblasTrans;
    if (small_gemm_ok && order == CblasRowMajor && alpha == 1.0f &&
        (beta == 1.0f || beta == 0.0f) && (ta == CblasNoTrans || tra) &&
        (tb == CblasNoTrans || trb) && m > 0 && n > 0 && k > 0 && lda >= (tra ? m : k) &&
        ldb >= (trb ? k : n) && ldc >= n &&
        nn_small_sgemm(tra, trb, m, n, k, a, lda, b, ldb, c, ldc, beta == 0.0f, blas_threads()))
        return;
    library_sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void nn_blas_sgemm_library(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb,
                           int m, int n, int k, float alpha, const float *a, int lda,
                           const float *b, int ldb, float beta, float *c, int ldc) {
    NN_ASSERT(p_sgemm);
    library_sgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void nn_blas_dgemm(enum CBLAS_ORDER order, enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, int m,
                   int n, int k, double alpha, const double *a, int lda, const double *b, int ldb,
                   double beta, double *c, int ldc) {
    NN_ASSERT(p_dgemm);
    if (beta == 0.0 && zero_first(order, m, n, k, sizeof(double), c, ldc)) beta = 1.0;
    p_dgemm(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void nn_blas_set_threads(int n) {
    wanted_threads = n;
    if (p_set_threads) p_set_threads(n);
}

void nn_blas_single_threaded(bool single) {
    if (p_set_threads)
        p_set_threads(single                ? 1
                      : wanted_threads > 0  ? wanted_threads
                      : library_threads > 0 ? library_threads
                                            : nn_get_num_threads());
}

int nn_blas_get_threads(void) {
    pthread_once(&once, load);
    int (*get)(void) =
        handle ? (int (*)(void))(uintptr_t)dlsym(handle, "openblas_get_num_threads") : NULL;
    return get ? get() : 0;
}

bool nn_blas_own_two_threads(void) {
    pthread_once(&once, load);
    if (!small_gemm_ok || !p_get_threads || !p_set_threads) return false;
    int was = p_get_threads();
    if (was != 2) p_set_threads(2);
    pthread_once(&two_once, two_check);
    if (was != 2) p_set_threads(was);
    return two_ok;
}

const char *nn_blas_corename(void) {
    pthread_once(&once, load);
    if (p_corename) {
        const char *name = p_corename();
        if (name) return name;
    }
    return loaded_from ? "unknown" : "not loaded";
}

void *nn_blas_symbol(const char *name) {
    pthread_once(&once, load);
    return handle ? dlsym(handle, name) : NULL;
}
