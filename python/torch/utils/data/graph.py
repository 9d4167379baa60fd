"""torch.utils.data.graph: the graph of a DataPipe pipeline,
{id(dp): (dp, {its sources' graphs})}, found through the DataPipes each one
holds in its attributes (PyTorch finds them by pickling; the result is the
same for the DataPipes here)."""

from torch.utils.data.datapipes.datapipe import IterDataPipe, MapDataPipe

__all__ = ["traverse", "traverse_dps"]

DataPipe = (IterDataPipe, MapDataPipe)


def _sources(dp):
    found = []

    def walk(v, depth):
        if isinstance(v, DataPipe):
            found.append(v)
        elif depth < 3 and isinstance(v, (list, tuple, set)):
            for x in v:
                walk(x, depth + 1)
        elif depth < 3 and isinstance(v, dict):
            for x in v.values():
                walk(x, depth + 1)
    for v in getattr(dp, "__dict__", {}).values():
        walk(v, 0)
    return found


def traverse_dps(datapipe):
    return _traverse(datapipe, set())


def traverse(datapipe, only_datapipe=None):
    return traverse_dps(datapipe)


def _traverse(dp, seen):
    if id(dp) in seen:
        return {id(dp): (dp, {})}
    seen = seen | {id(dp)}
    sub = {}
    for s in _sources(dp):
        sub.update(_traverse(s, seen))
    return {id(dp): (dp, sub)}
