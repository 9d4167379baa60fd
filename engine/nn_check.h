/* nn_check: the training checks that answer "is this gradient right?",
 * "what do the layers' values look like?" and "does one example's output
 * depend on another example?": gradcheck by central differences in float64,
 * summary statistics of a tensor, an activation capture on the executor's
 * hooks, and the batch-dependency check.
 *
 * Ownership: results are filled into caller-provided structs and freed with
 * their _free function (which accepts zeroed structs). Tensors passed in are
 * borrowed; captured tensors are held by the capture until it is freed.
 * Errors are values: NN_OK, or a status with ctx->err set.
 */
#ifndef NN_CHECK_H
#define NN_CHECK_H

#include "nn_ctx.h"

/* The function under check: computes the output from the tensors the
 * caller gave (which the check perturbs in place between calls). Returns a
 * new reference, or NULL with ctx->err set. */
typedef nn_tensor *(*nn_check_fn)(nn_ctx *ctx, void *user);

/* ---- gradcheck ---- */

typedef struct nn_gradcheck_opts {
    double eps;  /* central difference step (1e-6) */
    double atol; /* an entry passes when |a - n| <= atol + rtol |n| */
    double rtol;
    int64_t samples; /* check this many random entries per tensor; <= 0: all */
    uint64_t seed;   /* for the samples and the output projection */
} nn_gradcheck_opts;

nn_gradcheck_opts nn_gradcheck_defaults(void); /* eps 1e-6, atol 1e-5, rtol 1e-3, all */

#define NN_CHECK_NAME_MAX 128

typedef struct nn_gradcheck_entry {
    char name[NN_CHECK_NAME_MAX];
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    int64_t checked; /* entries compared */
    double max_abs;  /* largest |analytic - numeric| */
    double max_rel;  /* largest |a - n| / max(|a|, |n|) */
    int64_t worst;   /* flat index that is furthest over its tolerance */
    double analytic; /* at [worst] */
    double numeric;  /* at [worst] */
    bool reached;    /* backward gave this tensor a gradient */
    bool pass;
} nn_gradcheck_entry;

typedef struct nn_gradcheck_result {
    nn_gradcheck_entry *entries;
    int n;
    bool pass;       /* every entry passed */
    bool projected;  /* the output had several elements: checked through a projection */
    int64_t f_calls; /* evaluations of the function */
    nn_gradcheck_opts opts;
} nn_gradcheck_result;

/* Compare the gradient backward gives each of tensors[0..n) (float64 leaves
 * that require grad, named names[i]) with central differences of [f]. A
 * one-element output is differentiated as is; a larger one is reduced first
 * to sum(out * r) with r a fixed standard-normal tensor drawn from [seed]
 * (a random projection: a wrong entry of any output's Jacobian row shows,
 * with probability one). The tensors' gradients are left as they were and
 * their values restored exactly. */
nn_status nn_gradcheck(nn_ctx *ctx, nn_check_fn f, void *user, nn_tensor *const *tensors,
                       const char *const *names, int n, const nn_gradcheck_opts *opts,
                       nn_gradcheck_result *out);
void nn_gradcheck_result_free(nn_gradcheck_result *r);

/* ---- summary statistics ---- */

typedef struct nn_summary {
    int64_t n;         /* elements (finite ones in mean/std) */
    int64_t nonfinite; /* NaN and infinite elements */
    double mean, std;
    double min, max;
} nn_summary;

/* Statistics of every element of [t] (any dtype), in double. std uses
 * Bessel's correction as torch's .std() does. */
void nn_summarize(const nn_tensor *t, nn_summary *s);

/* ---- activation capture ----
 * While a capture is active, it keeps for every module path (a node's label)
 * the output of the last forward node recorded under that path: the module's
 * output. With [grads], a backward pass then also keeps d loss / d output of
 * those same nodes. Paths come in the order they first appeared. */
typedef struct nn_capture_item {
    const char *module; /* interned in the context */
    nn_op op;           /* the op that produced the output */
    nn_tensor *out;     /* held */
    nn_tensor *grad;    /* held; NULL until a backward passed through */
    uint64_t seq;       /* the node that produced [out] */
} nn_capture_item;

typedef struct nn_capture {
    nn_ctx *ctx;
    int hook;
    bool grads;
    nn_capture_item *items;
    int n, cap;
    bool oom;
} nn_capture;

nn_status nn_capture_start(nn_ctx *ctx, nn_capture *c, bool grads);
/* Remove the hook; the items stay until nn_capture_free. */
void nn_capture_stop(nn_capture *c);
void nn_capture_free(nn_capture *c);

/* ---- batch dependencies ----
 * Karpathy's "use backprop to chart dependencies": the sum of example [i]'s
 * outputs (row i of the output's first dim) is differentiated with respect
 * to the batch [x]; rows[0..*n_rows) get the other rows of x whose gradient
 * is not all zero (malloc'ed; free()). For a float x the gradient is taken
 * on a copy that requires grad, which [f] receives through *xcopy_for_f
 * before its first call; for int64 token ids it is taken at every embedding
 * lookup of those ids (the rows of the looked-up vectors). */
typedef struct nn_dependency_result {
    int64_t *rows;
    int64_t n_rows;
    int64_t batch;    /* x's first dim */
    double *row_norm; /* |grad| summed per row, batch entries (malloc'ed) */
} nn_dependency_result;

nn_status nn_dependencies(nn_ctx *ctx, nn_check_fn f, void *user, nn_tensor *x, int64_t i,
                          nn_tensor **xcopy_for_f, nn_dependency_result *out);
void nn_dependency_result_free(nn_dependency_result *r);

#endif
