/* lang_dist: torch.distributed for the nndb language (over engine/nn_dist).
 *
 * lang_dist_install puts a `dist` namespace in the globals (what
 * `import torch.distributed as dist` gives once modules exist):
 * init_process_group, get_rank, all_reduce, ..., and ReduceOp.
 * lang_dist_functions is that namespace's table, for registering it as the
 * module `torch.distributed`; lang_dist_fill_module sets its functions and
 * ReduceOp on any namespace through [set]. The family lang_dist_builtins
 * (lang_builtins.h) holds DistributedDataParallel, DistributedSampler,
 * ZeroRedundancyOptimizer and dist_check.
 */
#ifndef LANG_DIST_H
#define LANG_DIST_H

#include "lang_value.h"

extern const lang_builtin_def lang_dist_functions[];

bool lang_dist_fill_module(lang_vm *vm, lang_val ns,
                           bool (*set)(lang_vm *, lang_val, const char *, lang_val));
bool lang_dist_install(lang_vm *vm);

#endif
