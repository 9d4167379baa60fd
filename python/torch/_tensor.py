"""torch.Tensor: the Python class over the engine's tensor type.

Methods that are about the value (math, shapes, reductions) live in C on
torch._C._TensorBase; what PyTorch writes in Python over them lives here.
"""

from torch import _C, _tensor_more, _tensor_ops


class Tensor(_C._TensorBase):
    __module__ = "torch"

    @property
    def device(self):
        from torch._device import _CPU
        return _CPU

    @property
    def is_cpu(self):
        return True

    @property
    def layout(self):
        return "torch.strided"

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    # NumPy defers to a tensor's own operators (np.float32(2) * t is a
    # tensor), as PyTorch's tensors ask.
    __array_priority__ = 1000

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    def __array_wrap__(self, array):
        # A ufunc's result comes back as a tensor (np.exp(t) is a tensor),
        # bool as uint8, as in PyTorch 1.13.
        if array.dtype == bool:
            array = array.astype("uint8")
        import numpy as np
        from torch import from_numpy
        return from_numpy(np.asarray(array))

    def __reduce_ex__(self, proto):
        return (_rebuild, (self.detach().tolist(), self.dtype, self.requires_grad))

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        new = self.detach().clone() if hasattr(self, "clone") else _C.tensor(self.tolist(), dtype=self.dtype)
        if type(self) is not Tensor:
            new = type(self)(new, self.requires_grad) if hasattr(type(self), "_is_param") else new
        else:
            new.requires_grad_(self.requires_grad)
        memo[id(self)] = new
        return new

    def cpu(self):
        return self

    def where(self, condition, y):
        """where(condition, y) -> Tensor

        self where condition is True, y elsewhere (broadcast together):
        torch.where(condition, self, y).
        """
        return _C.where(condition, self, y)

    def cuda(self, *args, **kwargs):
        # as a CPU-only PyTorch says it (torch.cuda.is_available() is False)
        raise AssertionError("Torch not compiled with CUDA enabled")

    def type(self, dtype=None, non_blocking=False, **kwargs):
        if dtype is None:
            return _TYPE_NAMES.get(self.dtype, "torch.FloatTensor")
        if isinstance(dtype, str):
            for k, v in _TYPE_NAMES.items():
                if v == dtype:
                    return self.to(k)
            raise ValueError(f"invalid type: '{dtype}'")
        if isinstance(dtype, type) and isinstance(getattr(dtype, "dtype", None), _C.dtype):
            return self.to(dtype.dtype)  # x.type(torch.LongTensor)
        return self.to(dtype)

    def __len__(self):
        if self.dim() == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0)) if hasattr(self, "unbind") else (self[i] for i in range(len(self)))

    def __reversed__(self):
        return self.flip(0)

    def register_hook(self, hook):
        """register_hook(hook) -> RemovableHandle

        Call hook(grad) each time backward computes the gradient of self (a tensor
        that requires grad): the hook may look at the gradient, or return a tensor
        to use instead of it. Returns a handle whose remove() takes the hook off.
        On a non-leaf tensor this is also the way to see its gradient, which
        .grad does not keep (or call retain_grad()).

        Example::

            >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
            >>> y = x * 3
            >>> h = y.register_hook(lambda g: print("grad of y:", g))
            >>> y.sum().backward()
            grad of y: tensor([1., 1.])
            >>> x.grad
            tensor([3., 3.])
            >>> h.remove()
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        return _GradHookHandle(_C._add_grad_hook(self, hook))

    def __rsub__(self, other):
        if isinstance(other, _C._TensorBase):  # torch.rsub: a gradient for both
            return other - self
        if not isinstance(other, (int, float, bool)):
            return _C.tensor(other, dtype=self.dtype) - self
        # number - tensor is PyTorch's rsub (RsubBackward1); -self + other
        # has its bits (negation is exact)
        r = -self + other
        if r.grad_fn is not None:
            _C._set_grad_fn_name(r, "RsubBackward1")
        return r

    def __rpow__(self, other):
        if isinstance(other, _C._TensorBase):
            # torch copies the base (torch.tensor(other) ** self): no gradient for it
            return other.detach().to(self.dtype) ** self
        return _C._TensorBase.__rpow__(self, other)


_TYPE_NAMES = {
    _C.float32: "torch.FloatTensor", _C.float64: "torch.DoubleTensor",
    _C.int64: "torch.LongTensor", _C.int32: "torch.IntTensor", _C.int16: "torch.ShortTensor",
    _C.int8: "torch.CharTensor", _C.uint8: "torch.ByteTensor", _C.bool: "torch.BoolTensor",
    _C.float16: "torch.HalfTensor", _C.bfloat16: "torch.BFloat16Tensor",
}


class _GradHookHandle:
    """What Tensor.register_hook returns (torch.utils.hooks.RemovableHandle
    in PyTorch): remove() takes the hook off; removing twice is harmless."""

    __module__ = "torch.utils.hooks"
    __qualname__ = "RemovableHandle"

    def __init__(self, hook_id):
        self.id = hook_id

    def remove(self):
        if self.id is not None:
            _C._remove_grad_hook(self.id)
            self.id = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


_GradHookHandle.__name__ = "RemovableHandle"


def _rebuild(values, dtype, requires_grad):
    t = _C.tensor(values, dtype=dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


_tensor_more.install(Tensor)
_tensor_ops.install(Tensor)
_C._set_tensor_class(Tensor)
