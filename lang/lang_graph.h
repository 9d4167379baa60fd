/* lang_graph: the graph view (%graph) — the recorded autograd graph behind
 * a value as an indented text tree (the terminal) and as SVG laid out by
 * Graphviz (Jupyter), with module paths as clusters, value and gradient
 * statistics, and the debugger's current node highlighted.
 *
 * Graphviz (libgvc) is opened with dlopen on the first %graph, so start-up
 * does not pay for it; without it the SVG is left out and the text tree
 * says so. Everything allocated here is freed before returning.
 */
#ifndef LANG_GRAPH_H
#define LANG_GRAPH_H

#include "lang_eval.h"

/* %graph [--depth N] [EXPR]: show the graph. False with an error raised. */
bool lang_graph_magic(lang_vm *vm, const char *args);

/* The debugger's state the view reads (lang_debug.c): the root of the last
 * backward(), and the event of the stop in progress (NULL when none). */
nn_tensor *lang_debug_last_root(lang_vm *vm);
const nn_hook_event *lang_debug_current(lang_vm *vm);
/* The name the session knows [t] by: a variable ("x") or a module's
 * parameter ("model.0.weight"); NULL when none. Written into [buf]. */
const char *lang_debug_tensor_name(lang_vm *vm, const nn_tensor *t, char *buf, size_t cap);

/* Statistics of a tensor's finite elements (float or int64; other dtypes,
 * and no finite element, leave mean, std, min, max NaN; std needs two),
 * and how many are non-finite — the debugger's stop rows and the graph's
 * boxes. */
typedef struct lang_debug_tstats {
    int64_t n, bad;
    double mean, std, min, max;
} lang_debug_tstats;
void lang_debug_stats(const nn_tensor *t, lang_debug_tstats *s);

/* DOT text to SVG through libgvc; NULL when Graphviz is not available
 * (then *why, when not NULL, says why). Malloc'ed. */
char *lang_graph_dot_to_svg(const char *dot, const char **why);

#endif
