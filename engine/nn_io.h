/* nn_io: checkpoints and arrays on disk. An nn_state (named tensors, such as
 * a module's state_dict) goes to and from safetensors files; one tensor goes
 * to and from a NumPy .npy file. docs/checkpoints.md describes the formats,
 * the dtype mapping and every error.
 *
 * Loaders treat their input as hostile: every size and offset is checked
 * against the file before anything is allocated or read, and a bad file is an
 * NN_ERR_IO naming the file and the key. A load builds its result in
 * temporaries and hands it over only when everything succeeded; on an error
 * the caller's state, metadata and tensors are left as they were.
 *
 * Ownership: nn_npy_load* return a new tensor reference the caller releases.
 * nn_safetensors_load* replace the contents of an initialised nn_state (and
 * nn_io_meta) the caller owns; the old contents are freed only on success.
 * The *_save_buffer functions return a malloc'd buffer the caller free()s.
 * Metadata strings are copied in and owned by the nn_io_meta.
 */
#ifndef NN_IO_H
#define NN_IO_H

#include <stddef.h>
#include <stdint.h>

#include "nn_state.h"

/* Largest safetensors JSON header accepted (as the reference reader). */
#define NN_IO_HEADER_MAX (100u << 20)
/* Most tensors one safetensors file may hold. */
#define NN_IO_MAX_TENSORS (1 << 18)
/* Deepest JSON nesting accepted in a safetensors header (real ones use 3). */
#define NN_IO_JSON_DEPTH_MAX 64
/* Most JSON values (strings, numbers, arrays, ...) one header may hold: a
 * real file needs about 12 per tensor. Bounds the parser's tables (32 bytes
 * a value) whatever the header size. */
#define NN_IO_JSON_MAX_VALUES (1 << 23)
/* Largest .npy header accepted (a real one is under 200 bytes). */
#define NN_IO_NPY_HEADER_MAX (1u << 20)

/* ---- safetensors "__metadata__": an ordered string-to-string map ---- */
typedef struct nn_io_meta_entry {
    char *key, *value;
} nn_io_meta_entry;

typedef struct nn_io_meta {
    nn_io_meta_entry *entries;
    int n, cap;
} nn_io_meta;

void nn_io_meta_init(nn_io_meta *m);
/* Frees every string; NULL is accepted. Leaves [m] empty and reusable. */
void nn_io_meta_free(nn_io_meta *m);
/* Set [key] to [value] (both copied), replacing an existing value. */
nn_status nn_io_meta_set(nn_ctx *ctx, nn_io_meta *m, const char *key, const char *value);
/* Borrowed, or NULL when [key] is absent. */
const char *nn_io_meta_get(const nn_io_meta *m, const char *key);

/* ---- safetensors ----
 * Save every tensor of [state] under its name, in the state's order, with
 * [meta] (may be NULL) as "__metadata__". float32/float64/int64/bool become
 * F32/F64/I64/BOOL; views are written contiguously, little-endian. The file
 * is written to a temporary name next to [path] and renamed over it at the
 * end, so a failed save never leaves half a checkpoint behind. */
nn_status nn_safetensors_save(nn_ctx *ctx, const char *path, const nn_state *state,
                              const nn_io_meta *meta);
/* The same bytes into memory: *out (malloc'd, caller frees) and *out_size. */
nn_status nn_safetensors_save_buffer(nn_ctx *ctx, const nn_state *state, const nn_io_meta *meta,
                                     uint8_t **out, size_t *out_size);
/* Load every tensor of [path] into [out] (initialised by the caller), keys as
 * names in file order, and the metadata into [meta] when it is not NULL.
 * F16/BF16 load as float32; I8/I16/I32/U8/U16/U32 as int64. On success the
 * old contents of [out] and [meta] are freed and replaced; on error they are
 * untouched and ctx->err says what is wrong where. */
nn_status nn_safetensors_load(nn_ctx *ctx, const char *path, nn_state *out, nn_io_meta *meta);
/* The same from [size] bytes at [data]; [name] stands for the file name in
 * messages (e.g. "<buffer>"). */
nn_status nn_safetensors_load_buffer(nn_ctx *ctx, const void *data, size_t size, const char *name,
                                     nn_state *out, nn_io_meta *meta);

/* ---- NumPy .npy ----
 * Save [t] in format version 1.0, C order, descr '<f4' '<f8' '<i8' or '|b1'.
 * Written through a temporary file and a rename, as above. */
nn_status nn_npy_save(nn_ctx *ctx, const char *path, nn_tensor *t);
nn_status nn_npy_save_buffer(nn_ctx *ctx, nn_tensor *t, uint8_t **out, size_t *out_size);
/* Load a .npy file of version 1.0, 2.0 or 3.0, either byte order, C or
 * Fortran order (returned in C order). f2/f4 load as float32, f8 as float64,
 * i1/i2/i4/i8/u1/u2/u4 as int64, b1 as bool. NULL and ctx->err on error. */
nn_tensor *nn_npy_load(nn_ctx *ctx, const char *path);
nn_tensor *nn_npy_load_buffer(nn_ctx *ctx, const void *data, size_t size, const char *name);

#endif
