/* nn_data: built-in datasets, train/val/test splits, a DataLoader, and bugs
 * that can be planted in a pipeline on purpose (for drills and instructors).
 * Text corpora and the character vocabulary are in nn_text.h.
 *
 * Ownership: a dataset, a loader and a vocabulary are owned by whoever got
 * them from a constructor and given back with nn_data_free, nn_loader_free and
 * nn_vocab_release (all accept NULL). A dataset owns one reference to each of
 * its tensors; read them freely, retain one to keep it beyond the dataset. A
 * batch from nn_loader_next owns new references, given back with
 * nn_loader_batch_clear. Every dataset is deterministic given its seed: it
 * draws from its own generator, never from ctx->rng, so the data does not
 * depend on what else ran in the session.
 */
#ifndef NN_DATA_H
#define NN_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "nn_ctx.h"
#include "nn_tensor.h"

/* A character vocabulary (nn_text.h); refcounted. */
typedef struct nn_vocab nn_vocab;

/* ---- plantable bugs ----
 * Each flag breaks a pipeline in one documented way (docs/datasets.md lists
 * the exact effect and the symptom it causes in training). Flags combine. */
typedef enum nn_data_bug_flag {
    NN_DATA_BUG_SHUFFLED_LABELS = 1u << 0, /* y rows permuted against x */
    NN_DATA_BUG_OFF_BY_ONE = 1u << 1,      /* y -> (y + 1) % num_classes */
    NN_DATA_BUG_RELABEL = 1u << 2,         /* every y == relabel_from becomes relabel_to */
    NN_DATA_BUG_LEAKAGE = 1u << 3,         /* nn_data_split copies val rows into train */
    NN_DATA_BUG_UNNORMALISED = 1u << 4,    /* x[:, scale_column] *= scale (1e3) */
    NN_DATA_BUG_ZERO_INPUTS = 1u << 5,     /* every x is 0 */
    NN_DATA_BUG_TRANSPOSED = 1u << 6,      /* x read in column-major order: x.T.reshape(x.shape) */
    NN_DATA_BUG_ALL_PADDING = 1u << 7,     /* some sequences entirely padding, mask all 0 */
    NN_DATA_BUG_NAN = 1u << 8,             /* x[nan_row, nan_col] = NaN */
} nn_data_bug_flag;
#define NN_DATA_BUG_COUNT 9

/* Which bugs to plant and their parameters. Start from nn_data_bugs_init. */
typedef struct nn_data_bugs {
    unsigned flags;          /* nn_data_bug_flag bits */
    uint64_t seed;           /* draws of the bugs themselves (permutation, rows) */
    int64_t relabel_from;    /* RELABEL: class a ... (default 0) */
    int64_t relabel_to;      /* ... becomes class b (default 1) */
    double leak_fraction;    /* LEAKAGE: fraction of val rows copied into train (0.1) */
    int64_t scale_column;    /* UNNORMALISED: the column scaled (default 0) */
    double scale;            /* UNNORMALISED: the factor (default 1e3) */
    int64_t nan_row;         /* NAN: the sample (-1: drawn from seed) */
    int64_t nan_col;         /* NAN: the flat feature index within the sample (0) */
    double padding_fraction; /* ALL_PADDING: fraction of sequences (0.1; at least one) */
} nn_data_bugs;

/* The default parameters with [flags] set. */
nn_data_bugs nn_data_bugs_init(unsigned flags);
/* "labels off by one", ...; NULL for a value that is not one flag. */
const char *nn_data_bug_name(unsigned flag);

/* ---- datasets ---- */
#define NN_DATA_NAME_MAX 64
#define NN_DATA_DESC_MAX 2048

typedef struct nn_dataset {
    char name[NN_DATA_NAME_MAX]; /* "spirals", "words[train]", ... */
    int64_t n;                   /* samples: x->shape[0] */
    nn_tensor *x;                /* [n, ...] float32 features or int64 tokens */
    nn_tensor *y;                /* [n, ...] int64 labels or float32 targets */
    nn_tensor *mask;             /* bool [n, T] (true = a real token), or NULL */
    int64_t num_classes;         /* labels are in [0, num_classes); 0 for float targets */
    nn_vocab *vocab;             /* text datasets; NULL otherwise */
    nn_tensor *true_w;           /* regression: W [out, in]; blobs: centers [k, dim] */
    nn_tensor *true_b;           /* regression: b [out]; NULL otherwise */
    /* What was planted (flags 0: a clean dataset) and where. */
    nn_data_bugs bugs;
    int64_t nan_row, nan_col;           /* NAN: the sample holding the NaN here, or -1 */
    nn_tensor *padded_rows;             /* ALL_PADDING: int64 [k] sequences made padding, or NULL */
    nn_tensor *leaked_rows;             /* LEAKAGE, train split: int64 [k] train rows that ... */
    nn_tensor *leaked_from;             /* ... are verbatim copies of these val rows; or NULL */
    char description[NN_DATA_DESC_MAX]; /* what it is, and every planted bug */
} nn_dataset;

void nn_data_free(nn_dataset *ds);

/* [n] points in 2-D on [classes] interleaved spiral arms (CS231n), class k's
 * i-th point at radius r = i/(m-1) and angle 4k + 4r + noise * N(0, 1).
 * x float32 [n, 2], y int64 [n]; classes get n / classes points each (the
 * first n % classes one more); rows are shuffled. */
nn_dataset *nn_data_spirals(nn_ctx *ctx, int64_t n, int64_t classes, double noise, uint64_t seed);
/* Two interleaving half circles (scikit-learn's make_moons): n / 2 points
 * of class 0 on the upper arc, the rest of class 1 on the lower; Gaussian
 * noise of std [noise] on both coordinates. x float32 [n, 2], y int64 [n]. */
nn_dataset *nn_data_moons(nn_ctx *ctx, int64_t n, double noise, uint64_t seed);
/* Isotropic Gaussian blobs: [centers] centres uniform in [-10, 10]^dim
 * (kept in true_w), points spread evenly over them with std [std]. x float32
 * [n, dim], y int64 [n] (the centre). */
nn_dataset *nn_data_blobs(nn_ctx *ctx, int64_t n, int64_t centers, int64_t dim, double std,
                          uint64_t seed);
/* XOR: points around the corners (+-1, +-1), Gaussian noise of std [noise];
 * label 1 when the corner's signs differ. Corners are used in turn, so
 * n % 4 == 0 gives exactly balanced classes. x float32 [n, 2], y int64 [n]. */
nn_dataset *nn_data_xor(nn_ctx *ctx, int64_t n, double noise, uint64_t seed);
/* Noisy linear regression: x ~ N(0, 1) [n, in_dim], W ~ N(0, 1) [out, in],
 * b ~ N(0, 1) [out], y = x W^T + b + noise * N(0, 1), float32 [n, out_dim].
 * The true W and b are kept in true_w and true_b. */
nn_dataset *nn_data_regression(nn_ctx *ctx, int64_t n, int64_t in_dim, int64_t out_dim,
                               double noise, uint64_t seed);
/* Sequence copy: x int64 [n, length] of tokens in [1, vocab) followed by
 * padding (token 0); each sequence has a length drawn uniformly from
 * [ceil(length / 2), length]. y is the same sequence; mask bool [n, length]
 * is true on real tokens. num_classes = vocab (>= 2). */
nn_dataset *nn_data_copy(nn_ctx *ctx, int64_t n, int64_t length, int64_t vocab, uint64_t seed);

/* A copy of [clean] (fresh tensors; [clean] is untouched) with the bugs in
 * [bugs] planted and recorded in bugs, nan_row/nan_col, padded_rows and the
 * description. LEAKAGE takes effect when the result is split with
 * nn_data_split. A bug that cannot apply (OFF_BY_ONE on float targets, NAN
 * on integer tokens, ALL_PADDING without a mask, ...) is a ValueError or
 * TypeError naming the dataset. */
nn_dataset *nn_data_plant(nn_ctx *ctx, const nn_dataset *clean, const nn_data_bugs *bugs);

/* Split [ds] into train, val and test by fractions: rows are permuted with
 * [seed]; the first round(train_frac * n) go to train, the next
 * round(val_frac * n) to val, the rest to test (which may be empty). With
 * LEAKAGE planted, the first round(leak_fraction * n_val) val rows (at least
 * one when val is not empty) are also appended, verbatim, to train; train's
 * leaked_rows / leaked_from say where. Bug records follow their rows.
 * The three outputs are new datasets the caller frees. */
nn_status nn_data_split(nn_ctx *ctx, const nn_dataset *ds, double train_frac, double val_frac,
                        uint64_t seed, nn_dataset **train, nn_dataset **val, nn_dataset **test);

/* A new dataset of the rows [idx[0..k)] of [ds] (any order, repeats
 * allowed), named [name]; bug records follow their rows. */
nn_dataset *nn_data_subset(nn_ctx *ctx, const nn_dataset *ds, const int64_t *idx, int64_t k,
                           const char *name);

/* Internal to nn_data.c and nn_text.c: a zeroed dataset with nan_row = -1. */
nn_dataset *nn_data_alloc(nn_ctx *ctx, const char *name);

/* ---- DataLoader ---- */
typedef struct nn_loader_config {
    int64_t batch_size; /* > 0 */
    bool shuffle;       /* a fresh permutation each epoch */
    uint64_t seed;      /* seeded mode: the permutation comes from seed + epoch */
    bool drop_last;     /* drop the last batch when it is smaller than batch_size */
    /* torch mode (torch_rng): each epoch draws as torch.utils.data's
     * DataLoader with a RandomSampler does. nn_loader_start (iter(loader))
     * draws the iterator's base seed, 64 bits from [generator] or ctx->rng,
     * even without shuffle; with shuffle, the permutation is randperm(n) from
     * [generator] or, without one, from a fresh generator seeded with 63
     * bits drawn from ctx->rng; with a generator, reaching the end of the
     * epoch draws the sampler's second (unused) randperm(n) from it, as
     * RandomSampler's tail does. [generator] is borrowed and must outlive
     * the loader. */
    bool torch_rng;
    nn_rng *generator;
} nn_loader_config;

typedef struct nn_loader nn_loader;

/* One batch: rows gathered into fresh contiguous tensors the batch owns. */
typedef struct nn_loader_batch {
    nn_tensor *x, *y;
    nn_tensor *mask;  /* NULL when the dataset has none */
    nn_tensor *index; /* int64 [b]: the dataset rows in this batch */
    int64_t size;     /* b */
} nn_loader_batch;

/* A loader over [ds]: it keeps its own references to ds's tensors, so [ds]
 * may be freed first. */
nn_loader *nn_loader_new(nn_ctx *ctx, const nn_dataset *ds, const nn_loader_config *cfg);
void nn_loader_free(nn_loader *l);
/* The next batch of the current epoch into [out] (whose old tensors are
 * released first; start with a zeroed batch). Returns false at the end of
 * the epoch, after which the loader is at the start of the next epoch
 * (reshuffled), and also on an error, when nn_loader_status says which. */
bool nn_loader_next(nn_ctx *ctx, nn_loader *l, nn_loader_batch *out);
/* NN_OK unless the last nn_loader_next failed (ctx->err has the message). */
nn_status nn_loader_status(const nn_loader *l);
void nn_loader_batch_clear(nn_loader_batch *b);
/* Batches per epoch. */
int64_t nn_loader_num_batches(const nn_loader *l);
/* The epoch the next batch belongs to (0 first). */
int64_t nn_loader_epoch(const nn_loader *l);
/* Restart at the beginning of [epoch] (in seeded mode its order depends
 * only on seed and epoch; in torch mode the next nn_loader_start or
 * nn_loader_next draws it). */
void nn_loader_reset(nn_loader *l, int64_t epoch);
/* What iter(loader) does in torch mode: the draws of a new epoch (see
 * nn_loader_config). Called by nn_loader_next when the epoch has not been
 * started; a no-op in seeded mode and when already started. */
nn_status nn_loader_start(nn_ctx *ctx, nn_loader *l);
/* From now on every epoch takes [idx] (k dataset rows, each in range, copied)
 * as its order: DataLoader(sampler=...), whose caller sets the order again
 * at the start of each epoch; cfg.shuffle must be off. */
nn_status nn_loader_set_order(nn_ctx *ctx, nn_loader *l, const int64_t *idx, int64_t k);
/* The row order of the current epoch: borrowed, nn_loader_len entries. */
const int64_t *nn_loader_order(const nn_loader *l);
int64_t nn_loader_len(const nn_loader *l);

#endif
