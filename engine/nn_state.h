/* nn_state: an ordered list of named tensors, the currency between modules
 * (state_dict / load_state_dict) and checkpoint files (safetensors, npy).
 *
 * Ownership: the list owns one reference to each tensor it holds and copies
 * each name; nn_state_free releases them. nn_state_get returns a borrowed
 * pointer. Names are dotted parameter paths such as "blocks.1.attn.qkv.bias".
 */
#ifndef NN_STATE_H
#define NN_STATE_H

#include "nn_ctx.h"

#define NN_STATE_NAME_MAX 256

typedef struct nn_state_entry {
    char name[NN_STATE_NAME_MAX];
    nn_tensor *tensor;
} nn_state_entry;

typedef struct nn_state {
    nn_state_entry *entries;
    int n, cap;
} nn_state;

void nn_state_init(nn_state *s);
void nn_state_free(nn_state *s);
/* Append [t] (retained) under [name]; a duplicate or over-long name is an
 * error. */
nn_status nn_state_add(nn_ctx *ctx, nn_state *s, const char *name, nn_tensor *t);
/* The same without the duplicate check (which scans the list), for a caller
 * that has already made sure every name is unique, e.g. a file reader that
 * sorted its keys; a name that is too long is still an error. */
nn_status nn_state_add_unique(nn_ctx *ctx, nn_state *s, const char *name, nn_tensor *t);
/* Make room for [n] entries in all, so that adding them allocates once. */
nn_status nn_state_reserve(nn_ctx *ctx, nn_state *s, int n);
/* Borrowed, or NULL. */
nn_tensor *nn_state_get(const nn_state *s, const char *name);

#endif
