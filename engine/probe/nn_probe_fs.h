/* nn_probe_fs: reading files of a machine through a root path.
 *
 * Every probe reads sys, proc, dev, etc, opt and usr through these helpers so
 * that a recorded tree (NNDB_SYSROOT) stands in for the real "/". Reads are
 * bounded, never block on FIFOs, and report "not there" as a return value;
 * garbage, empty files and symlink loops come back as failures, not crashes.
 * Nothing here allocates except nn_probe_fs_list, whose result the caller frees
 * with nn_probe_fs_list_free.
 */
#ifndef NN_PROBE_FS_H
#define NN_PROBE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NN_PROBE_PATH_MAX 1024

typedef struct nn_probe_fs {
    char root[NN_PROBE_PATH_MAX]; /* "" for the real machine, else the tree without trailing / */
} nn_probe_fs;

/* Set [fs] to read from [root] ("" or NULL or "/" means the real machine). */
void nn_probe_fs_init(nn_probe_fs *fs, const char *root);

/* Join the root and the machine path [rel] (with or without a leading /) into [out]. */
void nn_probe_fs_path(const nn_probe_fs *fs, const char *rel, char *out, size_t size);

/* Read at most [size]-1 bytes of [rel] into [buf], NUL-terminated, NULs inside
 * replaced by spaces. Returns the length, or -1 when the file cannot be read. */
long nn_probe_fs_read(const nn_probe_fs *fs, const char *rel, char *buf, size_t size);

/* Read up to [size] raw bytes of [rel] (binary, e.g. PCI config space). -1 on failure. */
long nn_probe_fs_read_bin(const nn_probe_fs *fs, const char *rel, unsigned char *buf, size_t size);

/* Read [rel] as one trimmed line (the first line). Returns false when missing or empty. */
bool nn_probe_fs_line(const nn_probe_fs *fs, const char *rel, char *buf, size_t size);

/* Read [rel] as an integer (decimal, or hex with 0x). False when missing or not a number. */
bool nn_probe_fs_int(const nn_probe_fs *fs, const char *rel, int64_t *out);

/* Parse [s] as an integer that fills the whole trimmed string. */
bool nn_probe_parse_int(const char *s, int64_t *out);

/* The last path component of the symlink [rel] into [buf]. False when not a link. */
bool nn_probe_fs_link_name(const nn_probe_fs *fs, const char *rel, char *buf, size_t size);

/* The resolved path of [rel], relative to the root (no leading /). False on loops,
 * missing targets, or a target outside the root. */
bool nn_probe_fs_resolve(const nn_probe_fs *fs, const char *rel, char *buf, size_t size);

bool nn_probe_fs_exists(const nn_probe_fs *fs, const char *rel);

/* Names in directory [rel] matching the prefix [prefix] (NULL = all, never "." or ".."),
 * sorted. Returns the count (0 when missing) and sets *names to a list the caller
 * frees with nn_probe_fs_list_free. */
int nn_probe_fs_list(const nn_probe_fs *fs, const char *rel, const char *prefix, char ***names);
void nn_probe_fs_list_free(char **names, int n);

/* Copy [src] into [dst] of [size] bytes, always terminated. */
void nn_probe_strlcpy(char *dst, const char *src, size_t size);

/* Trim leading and trailing whitespace in place; returns s. */
char *nn_probe_trim(char *s);

#endif
