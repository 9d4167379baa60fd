/* lang_suggest: see lang_suggest.h. */
#include "lang_suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MOVE = 2, CASE = 1, MAX_LEN = 40 };

/* Edit distance in half-edits: insert, delete, substitute or swap two
 * neighbours ("tiem" for "time") cost MOVE, a substitution that only
 * changes case costs CASE. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb) {
    size_t d[MAX_LEN + 1][MAX_LEN + 1];
    for (size_t i = 0; i <= na; i++) d[i][0] = i * MOVE;
    for (size_t j = 0; j <= nb; j++) d[0][j] = j * MOVE;
    for (size_t i = 1; i <= na; i++) {
        for (size_t j = 1; j <= nb; j++) {
            size_t sub = MOVE;
            if (a[i - 1] == b[j - 1])
                sub = 0;
            else if (tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]))
                sub = CASE;
            size_t best = d[i - 1][j - 1] + sub;
            if (d[i - 1][j] + MOVE < best) best = d[i - 1][j] + MOVE;
            if (d[i][j - 1] + MOVE < best) best = d[i][j - 1] + MOVE;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + MOVE < best)
                best = d[i - 2][j - 2] + MOVE;
            d[i][j] = best;
        }
    }
    return d[na][nb];
}

const char *lang_suggest(const char *word, const char *const *cands, size_t n) {
    size_t wl = strlen(word);
    if (!wl || wl > MAX_LEN || !cands) return NULL;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n && cands[i]; i++) {
        const char *c = cands[i];
        size_t cl = strlen(c);
        if (cl > MAX_LEN || !strcmp(c, word)) continue;
        /* Private names are offered only for a private word, as CPython does. */
        if (c[0] == '_' && word[0] != '_') continue;
        size_t limit = (wl + cl + 3) * MOVE / 6;
        size_t d = distance(word, wl, c, cl);
        if (d <= limit && d < best_d) best = c, best_d = d;
    }
    return best;
}

/* The suggestion goes with the traceback, not into the message: Python
 * 3.11 prints it after the error, while str(e) of a caught error has none
 * (vm->hint, which the session appends to evalue). */
static void append(lang_vm *vm, const char *hit) {
    if (hit && !vm->hint[0]) snprintf(vm->hint, sizeof vm->hint, ". Did you mean: '%s'?", hit);
}

void lang_suggest_name(lang_vm *vm, const char *name) {
    const char **cands = malloc(sizeof *cands * (size_t)(vm->n_globals + 1));
    if (!cands) return;
    size_t n = 0;
    for (int64_t k = 0; k < vm->n_globals; k++)
        if (vm->globals[k].set || vm->globals[k].has_builtin) cands[n++] = vm->globals[k].name;
    cands[n] = NULL;
    append(vm, lang_suggest(name, cands, n));
    free(cands);
}

void lang_suggest_attr(lang_vm *vm, lang_val obj, const char *name) {
    const char **names = lang_dir(vm, obj);
    if (!names) return;
    append(vm, lang_suggest(name, names, (size_t)-1));
    free(names);
}
