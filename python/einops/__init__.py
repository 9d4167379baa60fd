"""einops for nndb: rearrange, reduce and repeat over torch tensors and
NumPy arrays, following einops' documented patterns.

einops is not packaged by Debian, so nndb ships this small version of its
three functions (no layers, no einsum, no parse caching):

    rearrange(x, 'b c h w -> b (c h w)')          # flatten
    rearrange(x, '(h w) -> h w', h=4)             # split, one size given
    rearrange(x, 'b h w c -> b c h w')            # transpose
    reduce(x, 'b c h w -> b c', 'mean')           # 'mean' 'sum' 'max' 'min' 'prod'
    reduce(x, 'b c (h 2) (w 2) -> b c h w', 'max')  # 2x2 max-pooling
    repeat(x, 'h w -> h w c', c=3)                # new axes with their sizes
    repeat(x, 'h w -> (2 h) w')

A pattern names the axes of the input on the left of '->' and of the
result on the right; parentheses compose axes into one dimension, '...'
stands for any number of axes, and '1' for an axis of size one. Sizes not
known from the input are given as keyword arguments.
"""

import math

__all__ = ["rearrange", "reduce", "repeat", "parse_shape", "EinopsError"]
__version__ = "0.6.0+nndb"


class EinopsError(RuntimeError):
    pass


_ELLIPSIS = "\u2026"


def _parse_side(text):
    """[[names of a dimension], ...] for one side of a pattern. Numbers
    become anonymous axes ('#k:SIZE'); '...' becomes the ellipsis."""
    groups, current = [], None
    text = text.replace("...", " " + _ELLIPSIS + " ")
    counter = 0
    for tok in text.replace("(", " ( ").replace(")", " ) ").split():
        if tok == "(":
            if current is not None:
                raise EinopsError("Axis composition is one-level (brackets inside brackets not allowed)")
            current = []
            continue
        if tok == ")":
            if current is None:
                raise EinopsError("Brackets are not balanced")
            groups.append(current)
            current = None
            continue
        if tok.isdigit():
            counter += 1
            tok = f"#{counter}:{int(tok)}"
        elif tok != _ELLIPSIS and not tok.isidentifier():
            raise EinopsError(f"Invalid axis identifier: {tok}")
        if current is None:
            groups.append([tok])
        else:
            current.append(tok)
    if current is not None:
        raise EinopsError("Brackets are not balanced")
    names = [n for g in groups for n in g if not n.startswith("#")]
    if len(names) != len(set(names)):
        raise EinopsError(f"Indexing expression contains duplicate dimensions: {text.strip()}")
    return groups


def _anon_size(name):
    return int(name.split(":")[1]) if name.startswith("#") else None


def _is_numpy(x):
    return type(x).__module__ == "numpy"


def _shape(x):
    return tuple(x.shape)


def _apply(x, pattern, reduction, axes_lengths, allow_new):
    if "->" not in pattern:
        raise EinopsError("Pattern should contain '->'")
    left_text, right_text = pattern.split("->")
    left, right = _parse_side(left_text), _parse_side(right_text)
    shape = _shape(x)
    # Expand the ellipsis into as many named axes as it covers.
    has_ell = any(_ELLIPSIS in g for g in left)
    n_fixed = len(left) - (1 if has_ell else 0)
    if (has_ell and len(shape) < n_fixed) or (not has_ell and len(shape) != len(left)):
        raise EinopsError(f"Wrong shape: expected {len(left)} dims. Received {len(shape)}-dim "
                          f"tensor. Error while processing {reduction or 'rearrange'}-reduction "
                          f"pattern \"{pattern}\".")
    ell = [f"{_ELLIPSIS}{i}" for i in range(len(shape) - n_fixed)] if has_ell else []

    def expand(groups, side):
        out = []
        for g in groups:
            if g == [_ELLIPSIS]:
                out.extend([e] for e in ell)
            elif _ELLIPSIS in g:
                if side == "left":
                    raise EinopsError("Ellipsis inside parenthesis in the left side is not allowed")
                i = g.index(_ELLIPSIS)
                out.append(g[:i] + ell + g[i + 1:])
            else:
                out.append(g)
        return out

    if any(_ELLIPSIS in g for g in right) and not has_ell:
        raise EinopsError("Ellipsis found in right side, but not left side of a pattern")
    left, right = expand(left, "left"), expand(right, "right")

    sizes = {}
    for name, size in axes_lengths.items():
        sizes[name] = int(size)
    for g, dim in zip(left, shape):
        unknown = [n for n in g if n not in sizes and _anon_size(n) is None]
        known = math.prod(sizes.get(n) or _anon_size(n) for n in g if n not in unknown)
        if len(unknown) > 1:
            raise EinopsError(f"Could not infer sizes for {set(unknown)}")
        if unknown:
            if known == 0 or dim % known:
                raise EinopsError(f"Shape mismatch, can't divide axis of length {dim} in chunks "
                                  f"of {known}")
            sizes[unknown[0]] = dim // known
        elif known != dim:
            raise EinopsError(f"Shape mismatch, {known} != {dim}")
    left_axes = [n for g in left for n in g]
    right_axes = [n for g in right for n in g]
    for n in left_axes:
        if n.startswith("#"):
            sizes[n] = _anon_size(n)
    right_names = {n for n in right_axes if not n.startswith("#")}
    left_names = {n for n in left_axes if not n.startswith("#")}
    new = [n for n in right_axes if n not in left_names]
    for n in new:
        if n.startswith("#"):
            sizes[n] = _anon_size(n)
            if sizes[n] != 1 and not allow_new:
                raise EinopsError(f"Non-unitary anonymous axes are not supported in "
                                  f"{reduction or 'rearrange'}")
        elif not allow_new:
            raise EinopsError(f"Identifiers only on one side of expression (should be on both): {{'{n}'}}")
        elif n not in sizes:
            raise EinopsError(f"Specify sizes for new axes in repeat: {{'{n}'}}")
    dropped = [n for n in left_axes if n not in right_names]
    if reduction is None:
        lost = [n for n in dropped if not (n.startswith("#") and sizes[n] == 1)]
        if lost:
            raise EinopsError(f"Identifiers only on one side of expression (should be on both): "
                              f"{set(lost)}")
    elif allow_new and [n for n in dropped if not (n.startswith("#") and sizes[n] == 1)]:
        raise EinopsError(f"Unexpected identifiers on the left side of repeat: {set(dropped)}")

    # 1. split composite dimensions into elementary axes
    x = x.reshape(tuple(sizes[n] for n in left_axes))
    # 2. reduce the axes the right side does not name
    ones = [n for n in left_axes if n not in right_names and n.startswith("#") and sizes[n] == 1]
    if ones:  # size-one axes the right side leaves out go without reducing
        left_axes = [n for n in left_axes if n not in ones]
        x = x.reshape(tuple(sizes[n] for n in left_axes))
    red = [i for i, n in enumerate(left_axes) if n not in right_names]
    if red:
        x = _reduce_axes(x, red, reduction)
    kept = [n for n in left_axes if n in right_names]
    # 3. order the kept axes as the right side does
    order = [kept.index(n) for n in right_axes if n in kept]
    if order != list(range(len(order))):
        x = x.transpose(order) if _is_numpy(x) else x.permute(*order)
    # 4. new axes (repeat, or size-one axes)
    if new:
        x = x.reshape(tuple(sizes[n] if n in kept else 1 for n in right_axes))
        full = tuple(sizes[n] for n in right_axes)
        if _is_numpy(x):
            import numpy as np
            x = np.broadcast_to(x, full)
        else:
            x = x.expand(*full)
    # 5. compose the right side's dimensions
    out_shape = tuple(math.prod(sizes[n] for n in g) for g in right)
    if _shape(x) != out_shape:
        x = x.reshape(out_shape)
    elif new and not _is_numpy(x):
        x = x.contiguous()
    elif new:
        x = x.copy()
    return x


def _reduce_axes(x, axes, reduction):
    if callable(reduction):
        return reduction(x, tuple(axes))
    if reduction not in ("mean", "sum", "max", "min", "prod"):
        raise EinopsError(f"Unknown reduction {reduction}")
    if _is_numpy(x):
        import numpy as np
        return getattr(np, reduction)(x, axis=tuple(axes))
    for d in sorted(axes, reverse=True):
        if reduction in ("max", "min"):
            x = getattr(x, reduction)(dim=d).values
        else:
            x = getattr(x, reduction)(dim=d)
    return x


def _as_array(x):
    if isinstance(x, (list, tuple)):
        if x and _is_numpy(x[0]):
            import numpy as np
            return np.stack(x)
        import torch
        return torch.stack(list(x))
    return x


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder, split, merge and squeeze axes: rearrange(x, 'b c h w -> b (c h w)')."""
    return _apply(_as_array(tensor), pattern, None, axes_lengths, allow_new=False)


def reduce(tensor, pattern, reduction, **axes_lengths):
    """Rearrange and reduce the axes the right side leaves out with 'mean',
    'sum', 'max', 'min', 'prod' or a function f(x, axes)."""
    return _apply(_as_array(tensor), pattern, reduction, axes_lengths, allow_new=False)


def repeat(tensor, pattern, **axes_lengths):
    """Rearrange and add (or tile along) axes: repeat(x, 'h w -> h w c', c=3)."""
    return _apply(_as_array(tensor), pattern, "repeat", axes_lengths, allow_new=True)


def parse_shape(x, pattern):
    """{name: size} for the named axes of [x]: parse_shape(x, 'b _ h w')."""
    names = pattern.split()
    shape = _shape(x)
    if len(names) != len(shape):
        raise EinopsError(f"Can't parse shape with different number of dimensions: {pattern} {shape}")
    return {n: s for n, s in zip(names, shape) if n != "_"}


