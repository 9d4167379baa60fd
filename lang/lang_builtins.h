/* lang_builtins: the builtin families the session installs, each a table
 * of lang_builtin_def ending with a { NULL } entry. A family lives in its
 * own lang_<family>.c; adding one is a line here and a line in
 * lang_builtins.c. */
#ifndef LANG_BUILTINS_H
#define LANG_BUILTINS_H

#include "lang_value.h"

/* Every family, in install order; NULL-terminated. */
extern const lang_builtin_def *const lang_builtin_families[];

extern const lang_builtin_def lang_core_builtins[]; /* print, len, range, ... (lang_core.c) */
extern const lang_builtin_def
    lang_tensor_builtins[];                         /* zeros, randn, matmul, ... (lang_tensor.c) */
extern const lang_builtin_def lang_plot_builtins[]; /* plot, hist, display (lang_display.c) */
extern const lang_builtin_def lang_nn_builtins[];   /* Linear, Sequential, GPT, init (lang_nn.c) */
extern const lang_builtin_def
    lang_optim_builtins[]; /* SGD, Adam, AdamW, clip_grad_norm (lang_nn.c) */
extern const lang_builtin_def lang_data_builtins[];  /* spirals, DataLoader, ... (lang_data.c) */
extern const lang_builtin_def lang_io_builtins[];    /* save, load (lang_data.c) */
extern const lang_builtin_def lang_probe_builtins[]; /* gpus, doctor (lang_probe.c) */
extern const lang_builtin_def
    lang_generator_builtins[]; /* Generator, manual_seed, randperm, ... (lang_generator.c) */
extern const lang_builtin_def
    lang_debug_builtins[]; /* breakpoint, set_detect_anomaly (lang_debug.c) */
extern const lang_builtin_def
    lang_instruments_builtins[]; /* gradcheck, stats, profile, ... (lang_instruments.c) */
extern const lang_builtin_def
    lang_class_builtins[];                         /* super, property, isinstance (lang_class.c) */
extern const lang_builtin_def lang_std_builtins[]; /* open (lang_std.c) */
extern const lang_builtin_def lang_set_builtins[]; /* set (lang_set.c) */
extern const lang_builtin_def
    lang_dist_builtins[]; /* DistributedDataParallel, DistributedSampler, ... (lang_dist.c) */

extern const lang_builtin_def
    lang_tensor_ops_builtins[]; /* sin, cumsum, sort, gather, einsum, ... (lang_tensor_ops.c) */

#endif
