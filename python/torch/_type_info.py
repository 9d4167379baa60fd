"""torch.finfo and torch.iinfo: the limits of floating-point and integer
dtypes, printed as PyTorch prints them (every number with C's %g)."""

from torch import _C

# dtype -> (bits, max, eps, smallest normal, resolution)
_FLOAT = {
    _C.float16: (16, 65504.0, 2.0 ** -10, 2.0 ** -14, 1e-3),
    _C.bfloat16: (16, 3.3895313892515355e+38, 2.0 ** -7, 2.0 ** -126, 1e-2),
    _C.float32: (32, 3.4028234663852886e+38, 2.0 ** -23, 2.0 ** -126, 1e-6),
    _C.float64: (64, 1.7976931348623157e+308, 2.0 ** -52, 2.0 ** -1022, 1e-15),
}

_INT = {_C.uint8: (8, 0, 255)}
for _dt, _bits in ((_C.int8, 8), (_C.int16, 16), (_C.int32, 32), (_C.int64, 64)):
    _INT[_dt] = (_bits, -2 ** (_bits - 1), 2 ** (_bits - 1) - 1)


def _short(dt):
    return str(dt).replace("torch.", "")


def _check_dtype(name, dt):
    if not isinstance(dt, _C.dtype):
        raise TypeError(f"{name}(): argument 'type' (position 1) must be torch.dtype, "
                        f"not {type(dt).__name__}")


class finfo:
    """finfo(dtype=torch.get_default_dtype()): bits, eps, max, min, tiny
    (= smallest_normal) and resolution of a floating-point dtype."""

    __module__ = "torch"

    def __init__(self, type=None):
        if type is None:
            type = _C.get_default_dtype()
        _check_dtype("finfo", type)
        if type not in _FLOAT:
            raise TypeError("torch.finfo() requires a floating point input type. Use "
                            "torch.iinfo to handle 'torch.finfo'")
        self.bits, self.max, self.eps, self.tiny, self.resolution = _FLOAT[type]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = _short(type)

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, "
                f"eps={self.eps:g}, smallest_normal={self.smallest_normal:g}, "
                f"tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    """iinfo(dtype): bits, min and max of an integer dtype."""

    __module__ = "torch"

    def __init__(self, type):
        _check_dtype("iinfo", type)
        if type == _C.bool:
            raise TypeError("torch.bool is not supported by torch.iinfo")
        if type not in _INT:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo "
                            "to handle 'torch.iinfo'")
        self.bits, self.min, self.max = _INT[type]
        self.dtype = _short(type)

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={float(self.min):g}, max={float(self.max):g}, dtype={self.dtype})"
