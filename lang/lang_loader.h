/* lang_loader: torch.utils.data's DataLoader for any dataset with __len__
 * and __getitem__, default_collate, TensorDataset, Subset and random_split
 * (lang_loader.c). */
#ifndef LANG_LOADER_H
#define LANG_LOADER_H

#include "lang_value.h"

/* Install DataLoader (keeping nndb's own loader for its builtin datasets),
 * TensorDataset, Subset, random_split and default_collate. */
bool lang_loader_install(lang_vm *vm);

/* DataLoader(sampler=...): the indices one pass over [sampler] gives (any
 * iterable of ints: a DistributedSampler, a list), into *out (malloc'ed,
 * free()); and len(sampler), false with an error when it has none. */
bool lang_loader_sampler_indices(lang_vm *vm, lang_val sampler, int64_t **out, int64_t *n);
bool lang_loader_sampler_len(lang_vm *vm, lang_val sampler, int64_t *n);

#endif
