/* lang_dist: torch.distributed for the nndb language (over engine/nn_dist).
 *
 * lang_dist_install puts a `dist` namespace in the globals (the REPL's
 * convenience: init_process_group, get_rank, all_reduce, ..., ReduceOp) and
 * registers the modules torch.distributed (the same functions, set by
 * lang_dist_fill_module through lang_module_set), torch.nn.parallel and
 * torch.distributed.optim. lang_dist_functions is the functions' table. The family
 * lang_dist_builtins (lang_builtins.h) holds DistributedDataParallel, DistributedSampler,
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
