/* nn_anomaly: finding where non-finite values come from.
 *
 * The mechanism behind the NaN hunt (%anomaly, detect_anomaly) and the
 * debugger's `nan` breakpoints: a fast scan for non-finite elements, and a
 * check of one executor event that decides whether this node is where a
 * NaN or an infinity was born, as opposed to where one only passed through.
 * The language turns what it finds into a report with names and source
 * lines; the engine only finds. Nothing here allocates on the fast path
 * (every value finite); nothing here keeps references.
 */
#ifndef NN_ANOMALY_H
#define NN_ANOMALY_H

#include "nn_graph.h"

/* Non-finite elements of [t] (float32/float64; other dtypes have none).
 * Returns how many; *first (may be NULL) gets the row-major flat index of
 * the first one and *value its value. The common case, all finite, is one
 * vectorised pass over contiguous data. */
int64_t nn_tensor_nonfinite(const nn_tensor *t, int64_t *first, double *value);

/* Whether [t] holds a NaN / an infinity (one pass each, early exit). */
bool nn_tensor_has_nan(const nn_tensor *t);
bool nn_tensor_has_inf(const nn_tensor *t);

/* Whether any of the [n] contiguous float32 (or, with [f64], float64)
 * values at [p] is non-finite: the scan a kernel runs over what it has just
 * written, while it is in cache. */
bool nn_span_nonfinite(const void *p, int64_t n, bool f64);

/* The note that a tensor is finite, for the NaN hunt's check of the
 * parameters around an optimizer step (the values it would otherwise read
 * twice a step). nn_tensor_mark_finite notes that every element of [t] is
 * finite now; it notes nothing unless [t] spans its whole storage and the
 * engine owns that memory (not NumPy's, not FSDP's flat parameter), since
 * only the engine's writes bump the version that voids the note.
 * nn_tensor_known_finite: whether such a note holds (no in-place write
 * since). Only the hunt's parameter checks read the note; every other scan
 * reads the values. */
void nn_tensor_mark_finite(nn_tensor *t);
bool nn_tensor_known_finite(const nn_tensor *t);

/* The element at row-major flat index [flat] as a double (any dtype). */
double nn_tensor_flat_value(const nn_tensor *t, int64_t flat);
/* Write the multi-index of [flat] in [t]'s shape as "[3, 1]" into [buf]. */
const char *nn_tensor_index_str(const nn_tensor *t, int64_t flat, char *buf, size_t cap);

typedef enum nn_anomaly_kind {
    NN_ANOMALY_NONE,
    NN_ANOMALY_CREATED, /* this node made a NaN from inputs without one, or inf from finite ones */
    NN_ANOMALY_LEAF,    /* a leaf input (data, parameter) already held the NaN */
    NN_ANOMALY_INPUT,   /* a non-leaf input made before checking began held it */
    NN_ANOMALY_GRAD     /* backward: the incoming gradient already held it (root gradient) */
} nn_anomaly_kind;

typedef struct nn_anomaly {
    nn_anomaly_kind kind;
    nn_phase phase;
    int input;     /* LEAF/INPUT: the input of the node; backward CREATED: the input gradient */
    int64_t flat;  /* first bad element, row-major, in the tensor named by the fields above */
    int64_t count; /* non-finite elements in that tensor */
    double value;  /* the first bad value */
} nn_anomaly;

/* Check an after-event ([ev]->after must be true). Returns true, with *out
 * filled, when the event produced a non-finite value that should be
 * reported: forward, an output with NaN where no input had one, or with an
 * infinity where every input (and every float parameter, so a -inf fill is
 * legitimate) was finite; the NaN of a leaf input; backward, an input
 * gradient with NaN where the incoming gradient had none, or with an
 * infinity where it was finite. An infinity that only passes through (a
 * -inf attention mask) is not reported; the NaN it later turns into is. */
bool nn_anomaly_check(const nn_hook_event *ev, nn_anomaly *out);

#endif
