"""Handles for hooks kept in a dict by id, as torch.utils.hooks has them."""

import weakref


class RemovableHandle:
    """A handle whose remove() takes its hook out of the dict it was put in."""

    __module__ = "torch.utils.hooks"
    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self.extra_dict_ref = weakref.ref(extra_dict) if extra_dict is not None else None

    def remove(self):
        for ref in (self.hooks_dict_ref, self.extra_dict_ref):
            d = ref() if ref is not None else None
            if d is not None and self.id in d:
                del d[self.id]

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.remove()
