"""torch.utils.data.graph_settings: settings applied to every DataPipe of a
pipeline (sharding, shuffling on or off, random seeds), as PyTorch 1.13."""

import inspect
import warnings

from torch.utils.data.sampler import _draw_seed
from torch.utils.data.graph import traverse_dps

__all__ = ["apply_random_seed", "apply_sharding", "apply_shuffle_seed",
           "apply_shuffle_settings", "get_all_graph_pipes"]


def get_all_graph_pipes(graph):
    return _get_all_graph_pipes_helper(graph, set())


def _get_all_graph_pipes_helper(graph, id_cache):
    results = []
    for dp_id, (datapipe, sub_graph) in graph.items():
        if dp_id in id_cache:
            continue
        id_cache.add(dp_id)
        results.append(datapipe)
        results.extend(_get_all_graph_pipes_helper(sub_graph, id_cache))
    return results


def apply_sharding(datapipe, num_of_instances, instance_id):
    already_applied_to = None
    for pipe in get_all_graph_pipes(traverse_dps(datapipe)):
        if hasattr(pipe, "is_shardable") and pipe.is_shardable() and \
                hasattr(pipe, "apply_sharding"):
            if already_applied_to is not None:
                raise RuntimeError("This implementation of sharding can be only applied once "
                                   "per instance of DataPipeline.", "Already applied to",
                                   already_applied_to, "while trying to apply to", pipe)
            pipe.apply_sharding(num_of_instances, instance_id)
            already_applied_to = pipe
    return datapipe


def _is_shuffle_datapipe(datapipe):
    if not hasattr(datapipe, "set_shuffle") or not hasattr(datapipe, "set_seed"):
        return False
    return inspect.ismethod(datapipe.set_shuffle) and inspect.ismethod(datapipe.set_seed)


def apply_shuffle_settings(datapipe, shuffle=None):
    if shuffle is None:
        return datapipe
    all_pipes = get_all_graph_pipes(traverse_dps(datapipe))
    shufflers = [pipe for pipe in all_pipes if _is_shuffle_datapipe(pipe)]
    if not shufflers and shuffle:
        warnings.warn("`shuffle=True` was set, but the datapipe does not contain a `Shuffler`. "
                      "Adding one at the end. Be aware that the default buffer size might not "
                      "be sufficient for your task.")
        datapipe = datapipe.shuffle()
        shufflers = [datapipe]
    for shuffler in shufflers:
        shuffler.set_shuffle(shuffle)
    return datapipe


def apply_shuffle_seed(datapipe, rng):
    warnings.warn("`apply_shuffle_seed` is deprecated since 1.12 and will be removed in the "
                  "future releases.\nPlease use `apply_random_seed` instead.")
    return apply_random_seed(datapipe, rng)


def _is_random_datapipe(datapipe):
    return hasattr(datapipe, "set_seed") and inspect.ismethod(datapipe.set_seed)


def apply_random_seed(datapipe, rng):
    cache = set()
    random_datapipes = []
    for pipe in get_all_graph_pipes(traverse_dps(datapipe)):
        if id(pipe) in cache:
            continue
        if _is_random_datapipe(pipe):
            random_datapipes.append(pipe)
            cache.add(id(pipe))
    for pipe in random_datapipes:
        # int(torch.empty((), dtype=torch.int64).random_(generator=rng).item())
        random_seed = _draw_seed(rng)
        pipe.set_seed(random_seed)
    return datapipe
