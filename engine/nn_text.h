/* nn_text: character-level text datasets and their vocabulary: the word list
 * at /usr/share/dict/words (Debian's wamerican) as a makemore-style corpus,
 * and any UTF-8 text file for next-character prediction.
 *
 * Ownership: a vocabulary is refcounted (nn_vocab_retain / nn_vocab_release,
 * NULL accepted); a dataset holds one reference. Tensors returned are new
 * references; nn_vocab_decode returns a malloc'd string the caller free()s;
 * nn_vocab_itos returns a string owned by the vocabulary.
 */
#ifndef NN_TEXT_H
#define NN_TEXT_H

#include "nn_data.h"

/* The word list wamerican installs. */
#define NN_DATA_WORDS_PATH "/usr/share/dict/words"
/* Files above this size are refused (a text corpus, not a disk image). */
#define NN_DATA_MAX_FILE_BYTES ((int64_t)64 << 20)

/* ---- vocabulary: tokens are Unicode code points, ids 0 .. size-1 ---- */
int64_t nn_vocab_size(const nn_vocab *v);
/* The UTF-8 text of token [id] ("." for id 0 of the words vocabulary), or
 * NULL when id is out of range. */
const char *nn_vocab_itos(const nn_vocab *v, int64_t id);
/* The id of the single character [utf8] (its first code point), or -1. */
int64_t nn_vocab_stoi(const nn_vocab *v, const char *utf8);
/* A string (UTF-8) as int64 ids [len]; a character not in the vocabulary is
 * a ValueError naming it and its position. */
nn_tensor *nn_vocab_encode(nn_ctx *ctx, const nn_vocab *v, const char *s);
/* Integer ids (any shape, read in row-major order) as a malloc'd UTF-8
 * string; an id out of range is an IndexError. */
char *nn_vocab_decode(nn_ctx *ctx, const nn_vocab *v, const nn_tensor *ids);
/* A vocabulary of the given characters, in this order (duplicates are an
 * error). */
nn_vocab *nn_vocab_new(nn_ctx *ctx, const char *chars);
nn_vocab *nn_vocab_retain(nn_vocab *v);
void nn_vocab_release(nn_vocab *v);

/* ---- corpora ----
 * Files must exist, be readable, non-empty, valid UTF-8 and at most
 * NN_DATA_MAX_FILE_BYTES; each failure is an IOError or ValueError naming
 * the file (and the byte offset of bad UTF-8). */

/* Words, makemore style: the lines of [path] (NULL: NN_DATA_WORDS_PATH) that
 * are made only of a-z (proper nouns, possessives and accented words are
 * skipped), shuffled with [seed]. The vocabulary is '.' (id 0, start and end
 * of a word) then a-z (1..26). Each word w gives len(w) + 1 samples: the
 * [block_size] previous characters (padded with '.') -> the next one, the
 * last being '.'. x int64 [n, block_size], y int64 [n]; num_classes 27. */
nn_dataset *nn_data_words(nn_ctx *ctx, const char *path, int64_t block_size, uint64_t seed);

/* Any text file, GPT style: the vocabulary is the sorted set of characters
 * (code points) in the file; windows of [block_size] characters start every
 * [stride] characters (0: stride = block_size, no overlap), x int64
 * [n, block_size] is a window and y int64 [n, block_size] the same window
 * shifted by one character (each position predicts the next). */
nn_dataset *nn_data_text(nn_ctx *ctx, const char *path, int64_t block_size, int64_t stride);

#endif
