"""torch.device: nndb computes on the CPU; 'cuda' devices can be named but
tensors cannot move there."""


class device:
    __module__ = "torch"

    def __init__(self, type, index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        if isinstance(type, str) and ":" in type:
            type, _, idx = type.partition(":")
            index = int(idx)
        if type not in ("cpu", "cuda", "meta", "mps"):
            raise RuntimeError(
                "Expected one of cpu, cuda, meta, mps device type at start of device "
                f"string: {type}")
        self.type = type
        self.index = index

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        if isinstance(other, str):
            other = device(other)
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


_CPU = device("cpu")
