"""Docstrings of torch's functions written in C (torch._C), attached at import.

As PyTorch's torch/_torch_docs.py: the text lives here, in Python, and
torch._C._add_docstr points each builtin's C docstring at it. Each docstring
starts with the call's signature ("zeros(*size, *, dtype=None) -> Tensor",
which pydoc and IPython show, and nndb's completion reads keyword names from),
then says what the function does, then shows an example with its output.
The examples run: tests/py/docstrings.py checks every name keeps its
docstring and that each example runs.

Aliases (torch.absolute for torch.abs) get a line that names the original.
"""

from torch import _C

# name -> docstring, in one dict so that import attaches them in one pass
DOCS = {
    "abs": """\
abs(input) -> Tensor

The absolute value of each element.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.abs(x)
    tensor([[1., 2., 3.],
            [4., 5., 6.]])
""",
    "absolute": """\
absolute(input) -> Tensor

Alias for torch.abs().
""",
    "acos": """\
acos(input) -> Tensor

The arccosine of each element, in radians (nan outside [-1, 1]).

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.acos(x)
    tensor([2.0944, 1.5708, 1.0472])
""",
    "acosh": """\
acosh(input) -> Tensor

The inverse hyperbolic cosine of each element (nan below 1).

Example::

    >>> x = torch.tensor([1.0, 2.0, 10.0])
    >>> torch.acosh(x)
    tensor([0.0000, 1.3170, 2.9932])
""",
    "add": """\
add(input, other, *, alpha=1) -> Tensor

input + alpha * other, broadcast; other may be a tensor or a number.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.add(a, b, alpha=10)
    tensor([41., 52., 63.])
""",
    "addcdiv": """\
addcdiv(input, tensor1, tensor2, *, value=1) -> Tensor

input + value * tensor1 / tensor2, elementwise and broadcast (the update of
Adam and RMSprop).

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.addcdiv(a, a, b, value=0.5)
    tensor([1.1250, 2.2000, 3.2500])
""",
    "addcmul": """\
addcmul(input, tensor1, tensor2, *, value=1) -> Tensor

input + value * tensor1 * tensor2, elementwise and broadcast.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.addcmul(a, a, b, value=0.5)
    tensor([ 3.,  7., 12.])
""",
    "all": """\
all(input, dim=None, keepdim=False) -> Tensor

Whether every element is non-zero (True), as a bool tensor: of all elements,
or along dim.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.all(x > 0)
    tensor(False)
    >>> torch.all(x > -5, dim=1)
    tensor([ True, False])
""",
    "allclose": """\
allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool

True when |input - other| <= atol + rtol * |other| everywhere: a Python
bool, for comparing results that may differ by rounding.

Example::

    >>> torch.allclose(torch.tensor([1., 2.]), torch.tensor([1., 2.000001]))
    True
""",
    "amax": """\
amax(input, dim=(), keepdim=False) -> Tensor

The largest values over one dim or a tuple of dims (all dims when dim is
empty); unlike max, no indices.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.amax(x, dim=1)
    tensor([3., 5.])
""",
    "amin": """\
amin(input, dim=(), keepdim=False) -> Tensor

The smallest values over one dim or a tuple of dims; unlike min, no indices.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.amin(x, dim=1)
    tensor([-2., -6.])
""",
    "any": """\
any(input, dim=None, keepdim=False) -> Tensor

Whether any element is non-zero (True), as a bool tensor: of all elements,
or along dim.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.any(x > 4)
    tensor(True)
    >>> torch.any(torch.isnan(x))
    tensor(False)
""",
    "arange": """\
arange(start=0, end, step=1, *, dtype=None, requires_grad=False) -> Tensor

Values from start (included) to end (excluded) in steps of step. The dtype
is int64 when every bound is an int, else the default float dtype.

Example::

    >>> torch.arange(5)
    tensor([0, 1, 2, 3, 4])
    >>> torch.arange(0, 1, 0.25)
    tensor([0.0000, 0.2500, 0.5000, 0.7500])
""",
    "arccos": """\
arccos(input) -> Tensor

Alias for torch.acos().
""",
    "arccosh": """\
arccosh(input) -> Tensor

Alias for torch.acosh().
""",
    "arcsin": """\
arcsin(input) -> Tensor

Alias for torch.asin().
""",
    "arcsinh": """\
arcsinh(input) -> Tensor

Alias for torch.asinh().
""",
    "arctan": """\
arctan(input) -> Tensor

Alias for torch.atan().
""",
    "arctan2": """\
arctan2(input, other) -> Tensor

Alias for torch.atan2().
""",
    "arctanh": """\
arctanh(input) -> Tensor

Alias for torch.atanh().
""",
    "argmax": """\
argmax(input, dim=None, keepdim=False) -> Tensor

The index of the largest element (in the flattened tensor when dim is None),
as int64; the usual way from logits to predicted classes.

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> torch.argmax(logits, dim=1)
    tensor([0, 2])
""",
    "argmin": """\
argmin(input, dim=None, keepdim=False) -> Tensor

The index of the smallest element (in the flattened tensor when dim is
None), as int64.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.argmin(x)
    tensor(5)
    >>> torch.argmin(x, dim=1)
    tensor([1, 2])
""",
    "argsort": """\
argsort(input, dim=-1, descending=False, stable=False) -> Tensor

The indices that sort input along dim.

Example::

    >>> torch.argsort(torch.tensor([3., 1., 2.]))
    tensor([1, 2, 0])
""",
    "argwhere": """\
argwhere(input) -> Tensor

The coordinates of the non-zero elements, one row per element: an int64
tensor of shape (count, input.dim()).

Example::

    >>> torch.argwhere(torch.tensor([[0, 1], [2, 0]]))
    tensor([[0, 1],
            [1, 0]])
""",
    "as_tensor": """\
as_tensor(data, dtype=None, device=None) -> Tensor

data as a tensor: a tensor of the same dtype comes back as it is (no copy);
anything else is converted as torch.tensor does.

Example::

    >>> torch.as_tensor([1, 2, 3])
    tensor([1, 2, 3])
""",
    "asin": """\
asin(input) -> Tensor

The arcsine of each element, in radians (nan outside [-1, 1]).

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.asin(x)
    tensor([-0.5236,  0.0000,  0.5236])
""",
    "asinh": """\
asinh(input) -> Tensor

The inverse hyperbolic sine of each element.

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.asinh(x)
    tensor([0.4812, 0.8814, 1.4436])
""",
    "atan": """\
atan(input) -> Tensor

The arctangent of each element, in radians.

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.atan(x)
    tensor([-0.4636,  0.0000,  0.4636])
""",
    "atan2": """\
atan2(input, other) -> Tensor

The angle of the point (other, input) in radians, in (-pi, pi]: atan(input /
other) with the quadrant taken from both signs.

Example::

    >>> torch.atan2(torch.tensor([1., -1.]), torch.tensor([-1., -1.]))
    tensor([ 2.3562, -2.3562])
""",
    "atanh": """\
atanh(input) -> Tensor

The inverse hyperbolic tangent of each element (inf at 1, nan outside
[-1, 1]).

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.atanh(x)
    tensor([-0.5493,  0.0000,  0.5493])
""",
    "autocast_decrement_nesting": """\
autocast_decrement_nesting() -> int

Count one autocast region left; returns the new depth (at 0 the cast
cache is cleared).
""",
    "autocast_increment_nesting": """\
autocast_increment_nesting() -> int

Count one more autocast region entered (torch.autocast does it); returns
the new depth.
""",
    "bernoulli": """\
bernoulli(input, p=None, *, generator=None) -> Tensor

Random 0s and 1s: each element is 1 with the probability given by input
(values in [0, 1]), drawn from torch's generator.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.bernoulli(torch.tensor([0.1, 0.5, 0.9]))
    tensor([0., 0., 1.])
""",
    "bincount": """\
bincount(input, weights=None, minlength=0) -> Tensor

How often each value 0, 1, 2, ... occurs in a 1-D tensor of non-negative
ints; with weights, the sum of the weights of each value.

Example::

    >>> torch.bincount(torch.tensor([0, 1, 1, 3]))
    tensor([1, 2, 0, 1])
""",
    "bitwise_and": """\
bitwise_and(input, other) -> Tensor

The bitwise and of integer tensors (the logical and of bool tensors), as the
& operator.

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> torch.bitwise_and(a, b)
    tensor([8, 2])
""",
    "bitwise_left_shift": """\
bitwise_left_shift(input, other) -> Tensor

input shifted left by other bits, elementwise, for integer tensors
(input << other): each shift by one multiplies by 2.

Example::

    >>> torch.bitwise_left_shift(torch.tensor([1, 3, -2]), 2)
    tensor([ 4, 12, -8])
""",
    "bitwise_not": """\
bitwise_not(input) -> Tensor

The bitwise not of an integer tensor (the logical not of a bool tensor), as
the ~ operator.

Example::

    >>> torch.bitwise_not(torch.tensor([0, 5, -1]))
    tensor([-1, -6,  0])
""",
    "bitwise_or": """\
bitwise_or(input, other) -> Tensor

The bitwise or of integer tensors (the logical or of bool tensors), as the |
operator.

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> torch.bitwise_or(a, b)
    tensor([14, 14])
""",
    "bitwise_right_shift": """\
bitwise_right_shift(input, other) -> Tensor

input shifted right by other bits, elementwise, for integer tensors
(input >> other): an arithmetic shift, so it divides by 2 per bit rounding
toward minus infinity.

Example::

    >>> torch.bitwise_right_shift(torch.tensor([8, 7, -8]), 1)
    tensor([ 4,  3, -4])
""",
    "bitwise_xor": """\
bitwise_xor(input, other) -> Tensor

The bitwise exclusive or of integer tensors, as the ^ operator.

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> torch.bitwise_xor(a, b)
    tensor([ 6, 12])
""",
    "bmm": """\
bmm(input, mat2) -> Tensor

Batched matrix product: input of shape (b, n, m) times mat2 of shape (b, m,
p) gives (b, n, p). No broadcasting (matmul broadcasts).

Example::

    >>> torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 2))
    tensor([[[3., 3.]],
    <BLANKLINE>
            [[3., 3.]]])
""",
    "broadcast_tensors": """\
broadcast_tensors(*tensors) -> tuple of Tensors

The tensors expanded to their common broadcast shape (views, no copies).

Example::

    >>> a, b = torch.broadcast_tensors(torch.tensor([[1.], [2.]]), torch.tensor([10., 20., 30.]))
    >>> a
    tensor([[1., 1., 1.],
            [2., 2., 2.]])
""",
    "broadcast_to": """\
broadcast_to(input, size) -> Tensor

input expanded to size by the broadcasting rules (a view, as expand).

Example::

    >>> torch.broadcast_to(torch.tensor([1., 2., 3.]), (2, 3))
    tensor([[1., 2., 3.],
            [1., 2., 3.]])
""",
    "cat": """\
cat(tensors, dim=0) -> Tensor

Join a sequence of tensors along an existing dim; their other dims must
match.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.cat([a, b])
    tensor([1., 2., 3., 4., 5., 6.])
    >>> torch.cat([a.unsqueeze(0), b.unsqueeze(0)], dim=0)
    tensor([[1., 2., 3.],
            [4., 5., 6.]])
""",
    "ceil": """\
ceil(input) -> Tensor

Each element rounded up to an integer value.

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> torch.ceil(x)
    tensor([-1., -0.,  1.,  3.])
""",
    "chunk": """\
chunk(input, chunks, dim=0) -> tuple of Tensors

Split into [chunks] pieces of nearly equal size along dim (views); the last
one may be smaller.

Example::

    >>> torch.chunk(torch.arange(5), 2)
    (tensor([0, 1, 2]), tensor([3, 4]))
""",
    "clamp": """\
clamp(input, min=None, max=None) -> Tensor

Each element limited to [min, max]; either bound may be None (no limit on
that side).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.clamp(x, min=-1, max=1)
    tensor([[ 1., -1.,  1.],
            [-1.,  1., -1.]])
    >>> torch.clamp(x, min=0)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "clamp_max": """\
clamp_max(input, max) -> Tensor

Each element limited to at most max: clamp(input, max=max).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.clamp_max(x, 2)
    tensor([[ 1., -2.,  2.],
            [-4.,  2., -6.]])
""",
    "clamp_min": """\
clamp_min(input, min) -> Tensor

Each element limited to at least min: clamp(input, min=min).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.clamp_min(x, 0)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "clear_autocast_cache": """\
clear_autocast_cache() -> None

Drop the casts autocast cached for reuse (nndb caches none).
""",
    "clip": """\
clip(input, min=None, max=None) -> Tensor

Alias for torch.clamp().
""",
    "clone": """\
clone(input) -> Tensor

A copy with its own storage; the copy is recorded for autograd (gradients
flow back to input).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.clone(x)
    tensor([[ 1., -2.,  3.],
            [-4.,  5., -6.]])
""",
    "concat": """\
concat(tensors, dim=0) -> Tensor

Alias for torch.cat().
""",
    "concatenate": """\
concatenate(tensors, dim=0) -> Tensor

Alias for torch.cat().
""",
    "cos": """\
cos(input) -> Tensor

The cosine of each element (in radians).

Example::

    >>> torch.cos(torch.tensor([0., 1., 2.]))
    tensor([ 1.0000,  0.5403, -0.4161])
""",
    "cosh": """\
cosh(input) -> Tensor

The hyperbolic cosine of each element.

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.cosh(x)
    tensor([1.1276, 1.0000, 1.1276])
""",
    "count_nonzero": """\
count_nonzero(input, dim=None) -> Tensor

The number of non-zero elements, of all of input or along dim (int64).

Example::

    >>> torch.count_nonzero(torch.tensor([[0, 1, 2], [0, 0, 3]]), dim=1)
    tensor([2, 1])
""",
    "cumprod": """\
cumprod(input, dim, *, dtype=None) -> Tensor

Running products along dim: out[i] = input[0] * ... * input[i].

Example::

    >>> torch.cumprod(torch.tensor([1., 2., 3., 4.]), dim=0)
    tensor([ 1.,  2.,  6., 24.])
""",
    "cumsum": """\
cumsum(input, dim, *, dtype=None) -> Tensor

Running sums along dim: out[i] = input[0] + ... + input[i].

Example::

    >>> torch.cumsum(torch.tensor([1, 2, 3, 4]), dim=0)
    tensor([ 1,  3,  6, 10])
""",
    "diag": """\
diag(input, diagonal=0) -> Tensor

From a 1-D tensor, a square matrix with it on the diagonal; from a 2-D
tensor, its diagonal as a 1-D tensor. diagonal > 0 is above the main
diagonal, < 0 below.

Example::

    >>> torch.diag(torch.tensor([1., 2.]))
    tensor([[1., 0.],
            [0., 2.]])
    >>> torch.diag(torch.tensor([[1., 2.], [3., 4.]]))
    tensor([1., 4.])
""",
    "diagonal": """\
diagonal(input, offset=0, dim1=0, dim2=1) -> Tensor

The diagonal of the matrices formed by dims dim1 and dim2, as a view; offset
moves it above (> 0) or below (< 0) the main one.

Example::

    >>> torch.diagonal(torch.tensor([[1., 2.], [3., 4.]]))
    tensor([1., 4.])
""",
    "digamma": """\
digamma(input) -> Tensor

The derivative of lgamma (the log of the gamma function) at each element.

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.digamma(x)
    tensor([-1.9635, -0.5772,  0.4228])
""",
    "div": """\
div(input, other, *, rounding_mode=None) -> Tensor

input / other, broadcast: true division (ints give floats);
rounding_mode='trunc' or 'floor' rounds the quotient.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.div(a, 2)
    tensor([0.5000, 1.0000, 1.5000])
    >>> torch.div(b, a, rounding_mode="floor")
    tensor([4., 2., 2.])
""",
    "divide": """\
divide(input, other, *, rounding_mode=None) -> Tensor

Alias for torch.div().
""",
    "dot": """\
dot(input, other) -> Tensor

The dot product of two 1-D tensors of the same size, as a 0-dim tensor.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.dot(a, b)
    tensor(32.)
""",
    "einsum": """\
einsum(equation, *operands) -> Tensor

Einstein summation: the equation names each operand's dims with letters
('ij,jk->ik' is a matrix product, 'bij,bjk->bik' a batched one, 'ii->i' a
diagonal); letters missing from the output are summed over. nndb supports
letters a-zA-Z without '...'.

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> torch.einsum('ij,jk->ik', a, b)
    tensor([[2., 1.],
            [4., 3.]])
    >>> torch.einsum('ij->ji', a)
    tensor([[1., 3.],
            [2., 4.]])
""",
    "empty": """\
empty(*size, *, dtype=None, requires_grad=False) -> Tensor

A tensor of the given size whose values are not set: fill it before reading.
(nndb fills it with zeros so that results are reproducible; PyTorch leaves
memory as it was.)

Example::

    >>> torch.empty(2, 3).shape
    torch.Size([2, 3])
""",
    "empty_like": """\
empty_like(input, *, dtype=None, requires_grad=False) -> Tensor

A tensor with the shape and dtype of input whose values are not set (zeros
in nndb).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.empty_like(x).shape
    torch.Size([2, 3])
""",
    "eq": """\
eq(input, other) -> Tensor

Elementwise ==, broadcast, as a bool tensor.

Example::

    >>> pred = torch.tensor([1, 0, 2])
    >>> target = torch.tensor([1, 1, 2])
    >>> torch.eq(pred, target)
    tensor([ True, False,  True])
    >>> torch.eq(pred, target).float().mean()
    tensor(0.6667)
""",
    "equal": """\
equal(input, other) -> bool

True when both have the same shape and the same values (a Python bool).

Example::

    >>> torch.equal(torch.ones(2), torch.ones(2))
    True
""",
    "erf": """\
erf(input) -> Tensor

The error function of each element.

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.erf(x)
    tensor([-0.5205,  0.0000,  0.5205])
""",
    "erfc": """\
erfc(input) -> Tensor

The complementary error function 1 - erf(x) of each element, accurate
where erf(x) is close to 1.

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.erfc(x)
    tensor([0.4795, 0.1573, 0.0047])
""",
    "erfinv": """\
erfinv(input) -> Tensor

The inverse of erf for each element in (-1, 1) (inf at 1, -inf at -1).

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.erfinv(x)
    tensor([-0.4769,  0.0000,  0.4769])
""",
    "exp": """\
exp(input) -> Tensor

e to the power of each element.

Example::

    >>> torch.exp(torch.tensor([0., 1., 2.]))
    tensor([1.0000, 2.7183, 7.3891])
""",
    "exp2": """\
exp2(input) -> Tensor

2 to the power of each element.

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.exp2(x)
    tensor([1.4142, 2.0000, 4.0000])
""",
    "expm1": """\
expm1(input) -> Tensor

exp(x) - 1 of each element, accurate for x near 0.

Example::

    >>> torch.expm1(torch.tensor([0., 1e-5, 1.]))
    tensor([0.0000e+00, 1.0000e-05, 1.7183e+00])
""",
    "eye": """\
eye(n, m=None, *, dtype=None, requires_grad=False) -> Tensor

An n x m matrix (n x n when m is None) with ones on the diagonal and zeros
elsewhere.

Example::

    >>> torch.eye(3)
    tensor([[1., 0., 0.],
            [0., 1., 0.],
            [0., 0., 1.]])
""",
    "fix": """\
fix(input) -> Tensor

Alias for torch.trunc().
""",
    "flatten": """\
flatten(input, start_dim=0, end_dim=-1) -> Tensor

The dims from start_dim to end_dim merged into one (a view when possible).

Example::

    >>> torch.flatten(torch.zeros(2, 3, 4), start_dim=1).shape
    torch.Size([2, 12])
""",
    "flip": """\
flip(input, dims) -> Tensor

A copy with the order of elements reversed along each dim in dims.

Example::

    >>> torch.flip(torch.tensor([[1, 2], [3, 4]]), (0,))
    tensor([[3, 4],
            [1, 2]])
""",
    "fliplr": """\
fliplr(input) -> Tensor

A copy with the columns (dim 1) in reverse order.

Example::

    >>> torch.fliplr(torch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 1],
            [4, 3]])
""",
    "flipud": """\
flipud(input) -> Tensor

A copy with the rows (dim 0) in reverse order.

Example::

    >>> torch.flipud(torch.tensor([[1, 2], [3, 4]]))
    tensor([[3, 4],
            [1, 2]])
""",
    "float_power": """\
float_power(input, exponent) -> Tensor

input ** exponent computed in float64 (the result is float64).

Example::

    >>> torch.float_power(torch.tensor([2, 3]), 2)
    tensor([4., 9.], dtype=torch.float64)
""",
    "floor": """\
floor(input) -> Tensor

Each element rounded down to an integer value.

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> torch.floor(x)
    tensor([-2., -1.,  0.,  2.])
""",
    "floor_divide": """\
floor_divide(input, other) -> Tensor

floor(input / other) elementwise, as the // operator.

Example::

    >>> torch.floor_divide(torch.tensor([7, -7]), 2)
    tensor([ 3, -4])
""",
    "fmod": """\
fmod(input, other) -> Tensor

The remainder of input / other with the sign of input (C's fmod); remainder
takes the sign of other, as Python's %.

Example::

    >>> torch.fmod(torch.tensor([-3., 3.]), 2)
    tensor([-1.,  1.])
""",
    "frac": """\
frac(input) -> Tensor

The fractional part of each element: input - trunc(input).

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> torch.frac(x)
    tensor([-0.5000, -0.5000,  0.4000,  0.7000])
""",
    "from_numpy": """\
from_numpy(ndarray) -> Tensor

A tensor that shares memory with a NumPy array: writing to one changes the
other.

Example::

    >>> import numpy as np
    >>> a = np.array([1., 2., 3.])
    >>> t = torch.from_numpy(a)
    >>> t
    tensor([1., 2., 3.], dtype=torch.float64)
""",
    "full": """\
full(size, fill_value, *, dtype=None, requires_grad=False) -> Tensor

A tensor of the given size (a tuple) filled with fill_value; the dtype
follows the value (bool, int64, or the default float dtype).

Example::

    >>> torch.full((2, 3), 0.5)
    tensor([[0.5000, 0.5000, 0.5000],
            [0.5000, 0.5000, 0.5000]])
""",
    "full_like": """\
full_like(input, fill_value, *, dtype=None, requires_grad=False) -> Tensor

fill_value everywhere, with the shape and dtype of input.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.full_like(x, 7)
    tensor([[7., 7., 7.],
            [7., 7., 7.]])
""",
    "gather": """\
gather(input, dim, index) -> Tensor

Values picked along dim by an int64 index of the same number of dims: for
dim=1, out[i][j] = input[i][index[i][j]]. Used to pick each row's value at
its target class.

Example::

    >>> logp = torch.tensor([[-0.1, -2.3], [-1.2, -0.4]])
    >>> target = torch.tensor([0, 1])
    >>> torch.gather(logp, 1, target.unsqueeze(1))
    tensor([[-0.1000],
            [-0.4000]])
""",
    "gcd": """\
gcd(input, other) -> Tensor

The greatest common divisor of each pair of elements of two integer
tensors (broadcast); gcd(0, 0) is 0.

Example::

    >>> torch.gcd(torch.tensor([12, 9, 0]), torch.tensor([18, 4, 5]))
    tensor([6, 1, 5])
""",
    "ge": """\
ge(input, other) -> Tensor

Elementwise >=, broadcast, as a bool tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.ge(x, 0)
    tensor([[ True, False,  True],
            [False,  True, False]])
""",
    "gelu": """\
gelu(input, approximate='none') -> Tensor

The Gaussian error linear unit of each element, x * Phi(x) with Phi the
normal CDF; approximate='tanh' uses the tanh formula (as GPT-2).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.gelu(x)
    tensor([[ 8.4134e-01, -4.5500e-02,  2.9960e+00],
            [-1.2672e-04,  5.0000e+00,  0.0000e+00]])
""",
    "ger": """\
ger(input, vec2) -> Tensor

Alias for torch.outer().
""",
    "get_autocast_cpu_dtype": """\
get_autocast_cpu_dtype() -> dtype

The lower-precision dtype CPU autocast casts to.
""",
    "get_autocast_gpu_dtype": """\
get_autocast_gpu_dtype() -> dtype

The lower-precision dtype CUDA autocast casts to.
""",
    "get_default_dtype": """\
get_default_dtype() -> torch.dtype

The dtype that new float tensors get (torch.float32 unless set_default_dtype
changed it).

Example::

    >>> torch.get_default_dtype()
    torch.float32
""",
    "get_num_threads": """\
get_num_threads() -> int

How many threads matrix products and parallel kernels use.

Example::

    >>> torch.get_num_threads() >= 1
    True
""",
    "greater": """\
greater(input, other) -> Tensor

Alias for torch.gt().
""",
    "greater_equal": """\
greater_equal(input, other) -> Tensor

Alias for torch.ge().
""",
    "gt": """\
gt(input, other) -> Tensor

Elementwise >, broadcast, as a bool tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.gt(x, 0)
    tensor([[ True, False,  True],
            [False,  True, False]])
""",
    "histc": """\
histc(input, bins=100, min=0, max=0) -> Tensor

A histogram: counts in [bins] equal bins between min and max (both 0: the
data's own range); values outside are ignored.

Example::

    >>> torch.histc(torch.tensor([1., 2., 1., 4.]), bins=4, min=0, max=4)
    tensor([0., 2., 1., 1.])
""",
    "hstack": """\
hstack(tensors) -> Tensor

Join tensors side by side: along dim 1 (dim 0 for 1-D tensors).

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> torch.hstack([a, b])
    tensor([[1., 2., 0., 1.],
            [3., 4., 1., 0.]])
""",
    "i0": """\
i0(input) -> Tensor

The modified Bessel function of the first kind of order 0, for each
element.

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.i0(x)
    tensor([1.0635, 1.2661, 2.2796])
""",
    "igamma": """\
igamma(input, other) -> Tensor

The regularized lower incomplete gamma function P(a, x), a = input, x =
other: the integral of t**(a-1) * exp(-t) from 0 to x, divided by gamma(a).
Both positive; broadcast.

Example::

    >>> torch.igamma(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    tensor([0.6321, 0.2642])
""",
    "igammac": """\
igammac(input, other) -> Tensor

The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x),
a = input, x = other (see igamma).

Example::

    >>> torch.igammac(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))
    tensor([0.3679, 0.7358])
""",
    "index_select": """\
index_select(input, dim, index) -> Tensor

The slices of input at the positions of a 1-D int64 index along dim (a
copy).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.index_select(x, 1, torch.tensor([2, 0]))
    tensor([[ 3.,  1.],
            [-6., -4.]])
""",
    "inner": """\
inner(input, other) -> Tensor

The inner product over the last dim: the dot product for 1-D tensors.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.inner(a, b)
    tensor(32.)
""",
    "is_autocast_cache_enabled": """\
is_autocast_cache_enabled() -> bool

Whether autocast caches the casts of weights within a region.
""",
    "is_autocast_cpu_enabled": """\
is_autocast_cpu_enabled() -> bool

Whether CPU autocast is on.
""",
    "is_autocast_enabled": """\
is_autocast_enabled() -> bool

Whether CUDA autocast is on.
""",
    "is_grad_enabled": """\
is_grad_enabled() -> bool

True when operations are being recorded for autograd (False inside
torch.no_grad()).

Example::

    >>> torch.is_grad_enabled()
    True
    >>> with torch.no_grad():
    ...     print(torch.is_grad_enabled())
    False
""",
    "is_tensor": """\
is_tensor(obj) -> bool

True when obj is a torch.Tensor (or a subclass such as nn.Parameter).

Example::

    >>> torch.is_tensor(torch.zeros(1))
    True
    >>> torch.is_tensor([1.0])
    False
""",
    "isclose": """\
isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor

Elementwise |input - other| <= atol + rtol * |other|, as a bool tensor.

Example::

    >>> torch.isclose(torch.tensor([1., 2.]), torch.tensor([1., 2.1]))
    tensor([ True, False])
""",
    "isfinite": """\
isfinite(input) -> Tensor

Elementwise: True where the value is neither NaN nor infinite.

Example::

    >>> torch.isfinite(torch.tensor([1., float('inf'), float('nan')]))
    tensor([ True, False, False])
""",
    "isinf": """\
isinf(input) -> Tensor

Elementwise: True where the value is +inf or -inf.

Example::

    >>> torch.isinf(torch.tensor([1., float('inf'), float('-inf')]))
    tensor([False,  True,  True])
""",
    "isnan": """\
isnan(input) -> Tensor

Elementwise: True where the value is NaN; a quick check for a diverged loss
or gradient.

Example::

    >>> torch.isnan(torch.tensor([1., float('nan')]))
    tensor([False,  True])
""",
    "kthvalue": """\
kthvalue(input, k, dim=-1, keepdim=False) -> (Tensor, LongTensor)

The k-th smallest value along dim (k counts from 1) and its index, as
torch.return_types.kthvalue.

Example::

    >>> torch.kthvalue(torch.tensor([3., 1., 2.]), 2)
    torch.return_types.kthvalue(
    values=tensor(2.),
    indices=tensor(2))
""",
    "lcm": """\
lcm(input, other) -> Tensor

The least common multiple of each pair of elements of two integer tensors
(broadcast); 0 where either is 0.

Example::

    >>> torch.lcm(torch.tensor([4, 6, 0]), torch.tensor([6, 8, 5]))
    tensor([12, 24,  0])
""",
    "le": """\
le(input, other) -> Tensor

Elementwise <=, broadcast, as a bool tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.le(x, 0)
    tensor([[False,  True, False],
            [ True, False,  True]])
""",
    "lerp": """\
lerp(input, end, weight) -> Tensor

Linear interpolation: input + weight * (end - input), elementwise.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.lerp(a, b, 0.5)
    tensor([2.5000, 3.5000, 4.5000])
""",
    "less": """\
less(input, other) -> Tensor

Alias for torch.lt().
""",
    "less_equal": """\
less_equal(input, other) -> Tensor

Alias for torch.le().
""",
    "lgamma": """\
lgamma(input) -> Tensor

The natural log of the absolute value of the gamma function at each
element (lgamma(n + 1) is log(n!)).

Example::

    >>> x = torch.tensor([0.5, 1.0, 2.0])
    >>> torch.lgamma(x)
    tensor([0.5724, 0.0000, 0.0000])
""",
    "linear": """\
linear(input, weight, bias=None) -> Tensor

input @ weight.T + bias: what nn.Linear computes (this is
torch.nn.functional.linear). weight has shape (out_features, in_features)
(out first, as nn.Linear stores it), input (..., in_features), bias
(out_features,); the result is (..., out_features).

Example::

    >>> x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> w = torch.tensor([[1.0, 0.0], [1.0, 1.0], [0.0, -1.0]])
    >>> torch.nn.functional.linear(x, w, torch.tensor([0.5, 0.5, 0.5]))
    tensor([[ 1.5000,  3.5000, -1.5000],
            [ 3.5000,  7.5000, -3.5000]])
""",
    "linspace": """\
linspace(start, end, steps, *, dtype=None, requires_grad=False) -> Tensor

[steps] evenly spaced values from start to end, both included.

Example::

    >>> torch.linspace(0, 1, 5)
    tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
""",
    "log": """\
log(input) -> Tensor

The natural logarithm of each element (-inf at 0, nan below 0).

Example::

    >>> torch.log(torch.tensor([1., 2.7183, 0.5]))
    tensor([ 0.0000,  1.0000, -0.6931])
""",
    "log10": """\
log10(input) -> Tensor

The base-10 logarithm of each element.

Example::

    >>> torch.log10(torch.tensor([1., 100.]))
    tensor([0., 2.])
""",
    "log1p": """\
log1p(input) -> Tensor

log(1 + x) of each element, accurate for x near 0.

Example::

    >>> torch.log1p(torch.tensor([0., 1e-5, 1.]))
    tensor([0.0000e+00, 9.9999e-06, 6.9315e-01])
""",
    "log2": """\
log2(input) -> Tensor

The base-2 logarithm of each element.

Example::

    >>> torch.log2(torch.tensor([1., 8.]))
    tensor([0., 3.])
""",
    "log_softmax": """\
log_softmax(input, dim, *, dtype=None) -> Tensor

log(softmax(input)) along dim, computed without overflow; the input of
nll_loss.

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> torch.log_softmax(logits, dim=1)
    tensor([[-0.2413, -1.7413, -3.2413],
            [-3.0096, -2.9096, -0.1096]])
""",
    "logical_and": """\
logical_and(input, other) -> Tensor

Elementwise and of the truth values (non-zero is True), as a bool tensor.

Example::

    >>> torch.logical_and(torch.tensor([True, True, False]), torch.tensor([True, False, False]))
    tensor([ True, False, False])
""",
    "logical_not": """\
logical_not(input) -> Tensor

Elementwise not of the truth values (non-zero is True), as a bool tensor.

Example::

    >>> torch.logical_not(torch.tensor([0, 1, 2]))
    tensor([ True, False, False])
""",
    "logical_or": """\
logical_or(input, other) -> Tensor

Elementwise or of the truth values (non-zero is True), as a bool tensor.

Example::

    >>> torch.logical_or(torch.tensor([True, False, False]), torch.tensor([True, True, False]))
    tensor([ True,  True, False])
""",
    "logical_xor": """\
logical_xor(input, other) -> Tensor

Elementwise exclusive or of the truth values (non-zero is True), as a bool
tensor.

Example::

    >>> torch.logical_xor(torch.tensor([True, False, False]), torch.tensor([True, True, False]))
    tensor([False,  True, False])
""",
    "logit": """\
logit(input, eps=None) -> Tensor

log(p / (1 - p)) for each element p: the inverse of sigmoid. With eps,
p is first clamped to [eps, 1 - eps] so that 0 and 1 give finite values.

Example::

    >>> p = torch.tensor([0.0, 0.25, 0.5, 0.9])
    >>> torch.logit(p)
    tensor([   -inf, -1.0986,  0.0000,  2.1972])
    >>> torch.logit(p, eps=1e-6)
    tensor([-13.8155,  -1.0986,   0.0000,   2.1972])
""",
    "logsumexp": """\
logsumexp(input, dim, keepdim=False) -> Tensor

log(sum(exp(input))) along dim, computed without overflow.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.logsumexp(x, dim=1)
    tensor([3.1328, 5.0001])
""",
    "lt": """\
lt(input, other) -> Tensor

Elementwise <, broadcast, as a bool tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.lt(x, 0)
    tensor([[False,  True, False],
            [ True, False,  True]])
""",
    "masked_fill": """\
masked_fill(input, mask, value) -> Tensor

A copy of input with value wherever the bool mask (broadcast) is True; the
usual way to hide attention scores.

Example::

    >>> scores = torch.tensor([0.9, 0.1, 0.5])
    >>> mask = torch.tensor([False, True, False])
    >>> torch.masked_fill(scores, mask, float('-inf'))
    tensor([0.9000,   -inf, 0.5000])
""",
    "masked_select": """\
masked_select(input, mask) -> Tensor

The elements where the bool mask (broadcast) is True, as a 1-D tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.masked_select(x, x > 0)
    tensor([1., 3., 5.])
""",
    "matmul": """\
matmul(input, other) -> Tensor

Matrix product, as the @ operator: 1-D x 1-D is a dot product, 2-D x 2-D a
matrix product, and higher dims are batches that broadcast.

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> torch.matmul(a, b)
    tensor([[2., 1.],
            [4., 3.]])
    >>> torch.matmul(a, torch.tensor([1., 1.]))
    tensor([3., 7.])
""",
    "max": """\
max(input, dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The largest element (a 0-dim tensor); with dim, the largest values along dim
and their indices (torch.return_types.max, which unpacks as a pair); with a
tensor as the second argument, the elementwise maximum.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.max(x)
    tensor(5.)
    >>> values, indices = torch.max(x, dim=1)
    >>> indices
    tensor([2, 1])
""",
    "maximum": """\
maximum(input, other) -> Tensor

The elementwise maximum of two tensors, broadcast.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.maximum(a, torch.tensor(2.))
    tensor([2., 2., 3.])
""",
    "mean": """\
mean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor

The mean of all elements, or along dim (an int or a tuple of ints). input
must be a float tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.mean(x)
    tensor(-0.5000)
    >>> torch.mean(x, dim=0)
    tensor([-1.5000,  1.5000, -1.5000])
""",
    "median": """\
median(input, dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The median (the lower of the two middle values for an even count); with dim,
the medians along dim and their indices.

Example::

    >>> torch.median(torch.tensor([3., 1., 4., 2.]))
    tensor(2.)
""",
    "meshgrid": """\
meshgrid(*tensors, indexing='ij') -> tuple of Tensors

Coordinate grids from 1-D tensors: each output has one dim per input;
indexing='xy' swaps the first two dims, as NumPy.

Example::

    >>> xs, ys = torch.meshgrid(torch.tensor([1, 2]), torch.tensor([3, 4, 5]), indexing='ij')
    >>> xs
    tensor([[1, 1, 1],
            [2, 2, 2]])
""",
    "min": """\
min(input, dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The smallest element (a 0-dim tensor); with dim, the smallest values along
dim and their indices (torch.return_types.min); with a tensor as the second
argument, the elementwise minimum.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.min(x)
    tensor(-6.)
    >>> torch.min(x, dim=1)
    torch.return_types.min(
    values=tensor([-2., -6.]),
    indices=tensor([1, 2]))
""",
    "minimum": """\
minimum(input, other) -> Tensor

The elementwise minimum of two tensors, broadcast.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.minimum(a, torch.tensor(2.))
    tensor([1., 2., 2.])
""",
    "mm": """\
mm(input, mat2) -> Tensor

The matrix product of two 2-D tensors (matmul also takes batches and
vectors).

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> torch.mm(a, b)
    tensor([[2., 1.],
            [4., 3.]])
""",
    "movedim": """\
movedim(input, source, destination) -> Tensor

A view with dim source moved to position destination (ints or tuples of
ints), the others keeping their order.

Example::

    >>> torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape
    torch.Size([3, 4, 2])
""",
    "msort": """\
msort(input) -> Tensor

input sorted along dim 0 (the values only).

Example::

    >>> torch.msort(torch.tensor([[3., 1.], [1., 2.]]))
    tensor([[1., 1.],
            [3., 2.]])
""",
    "mul": """\
mul(input, other) -> Tensor

input * other, elementwise and broadcast.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.mul(a, b)
    tensor([ 4., 10., 18.])
    >>> torch.mul(a, 2)
    tensor([2., 4., 6.])
""",
    "multinomial": """\
multinomial(input, num_samples, replacement=False, *, generator=None) -> LongTensor

Indices drawn with probabilities proportional to the weights in input (each
row for 2-D input); how a language model samples its next token.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 4, replacement=True)
    tensor([2, 2, 2, 2])
""",
    "multiply": """\
multiply(input, other) -> Tensor

Alias for torch.mul().
""",
    "mv": """\
mv(input, vec) -> Tensor

The product of a matrix (n, m) and a vector (m,), a vector (n,).

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> torch.mv(a, torch.tensor([1., 1.]))
    tensor([3., 7.])
""",
    "nan_to_num": """\
nan_to_num(input, nan=0.0, posinf=None, neginf=None) -> Tensor

NaN replaced by nan, +inf by posinf and -inf by neginf; the infinities
default to the dtype's largest and smallest finite values.

Example::

    >>> torch.nan_to_num(torch.tensor([float('nan'), float('inf'), 1.]))
    tensor([0.0000e+00, 3.4028e+38, 1.0000e+00])
""",
    "narrow": """\
narrow(input, dim, start, length) -> Tensor

The view of length elements of dim from start: input[..., start:start +
length, ...].

Example::

    >>> torch.narrow(torch.arange(6), 0, 2, 3)
    tensor([2, 3, 4])
""",
    "ne": """\
ne(input, other) -> Tensor

Elementwise !=, broadcast, as a bool tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.ne(x, 3)
    tensor([[ True,  True, False],
            [ True,  True,  True]])
""",
    "neg": """\
neg(input) -> Tensor

The negation of each element, -input.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.neg(x)
    tensor([[-1.,  2., -3.],
            [ 4., -5.,  6.]])
""",
    "negative": """\
negative(input) -> Tensor

Alias for torch.neg().
""",
    "nonzero": """\
nonzero(input, *, as_tuple=False) -> LongTensor

The coordinates of the non-zero elements: an int64 tensor of shape (count,
input.dim()), or with as_tuple=True one 1-D tensor per dim (for indexing).

Example::

    >>> torch.nonzero(torch.tensor([0, 3, 0, 4]))
    tensor([[1],
            [3]])
""",
    "norm": """\
norm(input, p='fro', dim=None, keepdim=False) -> Tensor

The p-norm of all elements (p='fro' or 2: the Euclidean length), or along
dim.

Example::

    >>> torch.norm(torch.tensor([3., 4.]))
    tensor(5.)
""",
    "normal": """\
normal(mean, std, size=None, *, generator=None) -> Tensor

Random values from normal distributions: mean and std may be tensors (one
draw per element) or numbers (with size).

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.normal(0.0, 1.0, size=(3,))
    tensor([ 1.5410, -0.2934, -2.1788])
    >>> torch.normal(torch.zeros(2), torch.tensor([1., 10.]))
    tensor([  0.5684, -10.8452])
""",
    "not_equal": """\
not_equal(input, other) -> Tensor

Alias for torch.ne().
""",
    "numel": """\
numel(input) -> int

The number of elements of input (the product of its sizes).

Example::

    >>> torch.numel(torch.zeros(2, 3))
    6
""",
    "one_hot": """\
one_hot(tensor, num_classes=-1) -> LongTensor

Class indices (int64) as one-hot rows: shape (*tensor.shape, num_classes),
int64; num_classes=-1 uses the largest index + 1. Call .float() before a
matmul.

Example::

    >>> torch.one_hot(torch.tensor([0, 2]), 3)
    tensor([[1, 0, 0],
            [0, 0, 1]])
""",
    "ones": """\
ones(*size, *, dtype=None, requires_grad=False) -> Tensor

A tensor filled with 1. The size is given as ints or as one tuple; the dtype
is the default float dtype unless given.

Example::

    >>> torch.ones(2, 3)
    tensor([[1., 1., 1.],
            [1., 1., 1.]])
    >>> torch.ones(2, dtype=torch.int64)
    tensor([1, 1])
""",
    "ones_like": """\
ones_like(input, *, dtype=None, requires_grad=False) -> Tensor

Ones with the shape and dtype of input.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.ones_like(x)
    tensor([[1., 1., 1.],
            [1., 1., 1.]])
""",
    "outer": """\
outer(input, vec2) -> Tensor

The outer product of two 1-D tensors: out[i][j] = input[i] * vec2[j].

Example::

    >>> torch.outer(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.]))
    tensor([[  1.,  10., 100.],
            [  2.,  20., 200.]])
""",
    "permute": """\
permute(input, dims) -> Tensor

A view with the dims in the order given (a tuple naming every dim once).

Example::

    >>> torch.permute(torch.zeros(2, 3, 4), (2, 0, 1)).shape
    torch.Size([4, 2, 3])
""",
    "polygamma": """\
polygamma(n, input) -> Tensor

The n-th derivative of digamma at each element of input (n = 0 is digamma
itself). Note that n comes first.

Example::

    >>> torch.polygamma(1, torch.tensor([1.0, 2.0]))
    tensor([1.6449, 0.6449])
""",
    "positive": """\
positive(input) -> Tensor

input itself (the unary + operator).

Example::

    >>> torch.positive(torch.tensor([-1., 2.]))
    tensor([-1.,  2.])
""",
    "pow": """\
pow(input, exponent) -> Tensor

input ** exponent elementwise; exponent may be a number or a tensor
(broadcast).

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.pow(a, 2)
    tensor([1., 4., 9.])
    >>> torch.pow(2, a)
    tensor([2., 4., 8.])
""",
    "prod": """\
prod(input, dim=None, keepdim=False, *, dtype=None) -> Tensor

The product of all elements, or along dim.

Example::

    >>> torch.prod(torch.tensor([[1., 2.], [3., 4.]]))
    tensor(24.)
    >>> torch.prod(torch.tensor([[1., 2.], [3., 4.]]), dim=1)
    tensor([ 2., 12.])
""",
    "rand": """\
rand(*size, *, generator=None, dtype=None, requires_grad=False) -> Tensor

Random values uniform on [0, 1), drawn from torch's generator
(torch.manual_seed makes them reproducible).

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2, 3)
    tensor([[0.4963, 0.7682, 0.0885],
            [0.1320, 0.3074, 0.6341]])
""",
    "rand_like": """\
rand_like(input, *, dtype=None, requires_grad=False) -> Tensor

Random values uniform on [0, 1), with the shape and dtype of input.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.rand_like(torch.zeros(3))
    tensor([0.4963, 0.7682, 0.0885])
""",
    "randint": """\
randint(low=0, high, size, *, generator=None, dtype=torch.int64, requires_grad=False) -> Tensor

Random integers in [low, high), called as randint(high, size) or
randint(low, high, size); size is a tuple.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.randint(0, 10, (5,))
    tensor([4, 9, 3, 0, 3])
""",
    "randn": """\
randn(*size, *, generator=None, dtype=None, requires_grad=False) -> Tensor

Random values from the standard normal distribution (mean 0, variance 1),
drawn from torch's generator.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.randn(2, 3)
    tensor([[ 1.5410, -0.2934, -2.1788],
            [ 0.5684, -1.0845, -1.3986]])
""",
    "randn_like": """\
randn_like(input, *, dtype=None, requires_grad=False) -> Tensor

Standard normal random values with the shape and dtype of input.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.randn_like(torch.zeros(3))
    tensor([ 1.5410, -0.2934, -2.1788])
""",
    "randperm": """\
randperm(n, *, generator=None, dtype=torch.int64, requires_grad=False) -> Tensor

A random permutation of the integers 0 to n - 1; the usual way to shuffle a
dataset.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.randperm(5)
    tensor([4, 0, 1, 3, 2])
""",
    "ravel": """\
ravel(input) -> Tensor

The elements as a 1-D tensor (a view when possible).

Example::

    >>> torch.ravel(torch.tensor([[1, 2], [3, 4]]))
    tensor([1, 2, 3, 4])
""",
    "reciprocal": """\
reciprocal(input) -> Tensor

1 / x of each element.

Example::

    >>> torch.reciprocal(torch.tensor([1., 2., 4.]))
    tensor([1.0000, 0.5000, 0.2500])
""",
    "relu": """\
relu(input) -> Tensor

max(x, 0) of each element: the rectified linear unit.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.relu(x)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "remainder": """\
remainder(input, other) -> Tensor

The remainder of input / other with the sign of other, as Python's %
operator.

Example::

    >>> torch.remainder(torch.tensor([-3., 3.]), 2)
    tensor([1., 1.])
""",
    "repeat_interleave": """\
repeat_interleave(input, repeats, dim=None) -> Tensor

Each element (or each slice along dim) repeated [repeats] times in a row;
dim=None flattens first.

Example::

    >>> torch.repeat_interleave(torch.tensor([1, 2]), 2)
    tensor([1, 1, 2, 2])
""",
    "reshape": """\
reshape(input, shape) -> Tensor

The same elements in a new shape (a tuple; one size may be -1, inferred); a
view when the layout allows, else a copy.

Example::

    >>> torch.reshape(torch.arange(6), (2, -1))
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "roll": """\
roll(input, shifts, dims=None) -> Tensor

The elements shifted along dims, wrapping around at the end (flattened first
when dims is None).

Example::

    >>> torch.roll(torch.arange(5), 2)
    tensor([3, 4, 0, 1, 2])
""",
    "round": """\
round(input, *, decimals=0) -> Tensor

Each element rounded to the nearest integer value (halves to even), or to
decimals places.

Example::

    >>> torch.round(torch.tensor([0.5, 1.5, 2.7, -1.2]))
    tensor([ 0.,  2.,  3., -1.])
""",
    "rsqrt": """\
rsqrt(input) -> Tensor

1 / sqrt(x) of each element.

Example::

    >>> torch.rsqrt(torch.tensor([1., 4., 16.]))
    tensor([1.0000, 0.5000, 0.2500])
""",
    "scatter": """\
scatter(input, dim, index, src) -> Tensor

A copy of input with the values of src (a tensor or a number) written at
index along dim: for dim=1, out[i][index[i][j]] = src[i][j].

Example::

    >>> torch.scatter(torch.zeros(2, 3), 1, torch.tensor([[0], [2]]), 1.0)
    tensor([[1., 0., 0.],
            [0., 0., 1.]])
""",
    "scatter_add": """\
scatter_add(input, dim, index, src) -> Tensor

A copy of input with the values of src added at index along dim; repeated
indices add up.

Example::

    >>> torch.scatter_add(torch.zeros(3), 0, torch.tensor([0, 0, 2]), torch.ones(3))
    tensor([2., 0., 1.])
""",
    "select": """\
select(input, dim, index) -> Tensor

The slice at index along dim, with that dim removed (a view): input[:,
index] for dim=1.

Example::

    >>> torch.select(torch.tensor([[1, 2], [3, 4]]), 1, 0)
    tensor([1, 3])
""",
    "set_autocast_cache_enabled": """\
set_autocast_cache_enabled(enabled) -> None

Whether autocast caches the casts of weights within a region.
""",
    "set_autocast_cpu_dtype": """\
set_autocast_cpu_dtype(dtype) -> None

The lower-precision dtype CPU autocast casts to (torch.bfloat16 by
default).
""",
    "set_autocast_cpu_enabled": """\
set_autocast_cpu_enabled(enabled) -> None

Turn CPU autocast on or off (torch.autocast('cpu') does it for a block).
""",
    "set_autocast_enabled": """\
set_autocast_enabled(enabled) -> None

Turn CUDA autocast on or off; nndb has no GPU, so it never casts.
""",
    "set_autocast_gpu_dtype": """\
set_autocast_gpu_dtype(dtype) -> None

The lower-precision dtype CUDA autocast casts to.
""",
    "set_default_dtype": """\
set_default_dtype(d) -> None

Set the dtype that new float tensors get (torch.float32 or torch.float64).

Example::

    >>> torch.set_default_dtype(torch.float64)
    >>> torch.tensor([1.5]).dtype
    torch.float64
    >>> torch.set_default_dtype(torch.float32)
""",
    "set_num_threads": """\
set_num_threads(int) -> None

Set how many threads matrix products and parallel kernels use.

Example::

    >>> torch.set_num_threads(2)
    >>> torch.get_num_threads()
    2
""",
    "sgn": """\
sgn(input) -> Tensor

The sign of each element: -1, 0 or 1 (sign; for complex numbers PyTorch
gives x / |x|).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.sgn(x)
    tensor([[ 1., -1.,  1.],
            [-1.,  1., -1.]])
""",
    "sigmoid": """\
sigmoid(input) -> Tensor

1 / (1 + exp(-x)) of each element: values in (0, 1).

Example::

    >>> torch.sigmoid(torch.tensor([-2., 0., 2.]))
    tensor([0.1192, 0.5000, 0.8808])
""",
    "sign": """\
sign(input) -> Tensor

The sign of each element: -1, 0 or 1.

Example::

    >>> torch.sign(torch.tensor([-2., 0., 3.]))
    tensor([-1.,  0.,  1.])
""",
    "sin": """\
sin(input) -> Tensor

The sine of each element (in radians).

Example::

    >>> torch.sin(torch.tensor([0., 1., 2.]))
    tensor([0.0000, 0.8415, 0.9093])
""",
    "sinc": """\
sinc(input) -> Tensor

The normalized sinc function sin(pi * x) / (pi * x) of each element (1
at 0).

Example::

    >>> x = torch.tensor([0.0, 0.5, 1.0])
    >>> torch.sinc(x)
    tensor([ 1.0000e+00,  6.3662e-01, -2.7828e-08])
""",
    "sinh": """\
sinh(input) -> Tensor

The hyperbolic sine of each element.

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.sinh(x)
    tensor([-0.5211,  0.0000,  0.5211])
""",
    "softmax": """\
softmax(input, dim, *, dtype=None) -> Tensor

exp(x) / sum(exp(x)) along dim, computed without overflow: each slice
becomes probabilities that add up to 1.

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> torch.softmax(logits, dim=1)
    tensor([[0.7856, 0.1753, 0.0391],
            [0.0493, 0.0545, 0.8962]])
""",
    "sort": """\
sort(input, dim=-1, descending=False, stable=False) -> (Tensor, LongTensor)

The values sorted along dim and the indices they came from, as
torch.return_types.sort (unpacks as a pair; .values, .indices).

Example::

    >>> values, indices = torch.sort(torch.tensor([3., 1., 2.]))
    >>> values
    tensor([1., 2., 3.])
    >>> indices
    tensor([1, 2, 0])
""",
    "split": """\
split(tensor, split_size_or_sections, dim=0) -> tuple of Tensors

Split along dim into pieces of split_size (the last may be smaller) or of
the sizes in a list; the pieces are views.

Example::

    >>> torch.split(torch.arange(5), 2)
    (tensor([0, 1]), tensor([2, 3]), tensor([4]))
    >>> torch.split(torch.arange(5), [1, 4])
    (tensor([0]), tensor([1, 2, 3, 4]))
""",
    "sqrt": """\
sqrt(input) -> Tensor

The square root of each element (nan below 0).

Example::

    >>> torch.sqrt(torch.tensor([1., 4., 9.]))
    tensor([1., 2., 3.])
""",
    "square": """\
square(input) -> Tensor

x * x of each element.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.square(x)
    tensor([[ 1.,  4.,  9.],
            [16., 25., 36.]])
""",
    "squeeze": """\
squeeze(input, dim=None) -> Tensor

A view without the dims of size 1 (all of them, or only dim when it has size
1).

Example::

    >>> torch.squeeze(torch.zeros(2, 1, 3)).shape
    torch.Size([2, 3])
""",
    "stack": """\
stack(tensors, dim=0) -> Tensor

Join tensors of the same shape along a new dim.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.stack([a, b])
    tensor([[1., 2., 3.],
            [4., 5., 6.]])
    >>> torch.stack([a, b], dim=1)
    tensor([[1., 4.],
            [2., 5.],
            [3., 6.]])
""",
    "std": """\
std(input, dim=None, unbiased=True, keepdim=False) -> Tensor

The standard deviation of all elements or along dim; unbiased (divided by n
- 1, Bessel's correction) unless unbiased=False.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.std(x)
    tensor(4.2308)
    >>> torch.std(x, dim=1, unbiased=False)
    tensor([2.0548, 4.7842])
""",
    "std_mean": """\
std_mean(input, dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)

The standard deviation and the mean, as a pair (see std and mean).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.std_mean(x, dim=1)
    (tensor([2.5166, 5.8595]), tensor([ 0.6667, -1.6667]))
""",
    "sub": """\
sub(input, other, *, alpha=1) -> Tensor

input - alpha * other, broadcast.

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.sub(b, a)
    tensor([3., 3., 3.])
    >>> torch.sub(b, a, alpha=2)
    tensor([2., 1., 0.])
""",
    "subtract": """\
subtract(input, other, *, alpha=1) -> Tensor

Alias for torch.sub().
""",
    "sum": """\
sum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor

The sum of all elements (a 0-dim tensor), or along dim (an int or a tuple of
ints); keepdim=True keeps the summed dims with size 1.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.sum(x)
    tensor(-3.)
    >>> torch.sum(x, dim=1)
    tensor([ 2., -5.])
    >>> torch.sum(x, dim=1, keepdim=True)
    tensor([[ 2.],
            [-5.]])
""",
    "swapaxes": """\
swapaxes(input, dim0, dim1) -> Tensor

Alias for torch.transpose().
""",
    "swapdims": """\
swapdims(input, dim0, dim1) -> Tensor

Alias for torch.transpose().
""",
    "t": """\
t(input) -> Tensor

The transpose of a 2-D tensor (a view); 0-D and 1-D tensors come back as
they are.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.t(x)
    tensor([[ 1., -4.],
            [-2.,  5.],
            [ 3., -6.]])
""",
    "tan": """\
tan(input) -> Tensor

The tangent of each element (in radians).

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> torch.tan(x)
    tensor([-0.5463,  0.0000,  0.5463])
""",
    "tanh": """\
tanh(input) -> Tensor

The hyperbolic tangent of each element: values in (-1, 1).

Example::

    >>> torch.tanh(torch.tensor([-2., 0., 2.]))
    tensor([-0.9640,  0.0000,  0.9640])
""",
    "tensor": """\
tensor(data, *, dtype=None, device=None, requires_grad=False) -> Tensor

A new tensor from a number, (nested) lists or tuples, a NumPy array or a
tensor, always copied. The dtype is inferred from the data: bools give
torch.bool, ints torch.int64, floats the default float dtype.

Example::

    >>> torch.tensor([[1., 2.], [3., 4.]])
    tensor([[1., 2.],
            [3., 4.]])
    >>> torch.tensor([1, 2, 3]).dtype
    torch.int64
    >>> torch.tensor(3.5, requires_grad=True)
    tensor(3.5000, requires_grad=True)
""",
    "tile": """\
tile(input, dims) -> Tensor

input repeated dims[i] times along each dim (as repeat; a shorter dims
leaves the leading dims alone).

Example::

    >>> torch.tile(torch.tensor([1, 2]), (2,))
    tensor([1, 2, 1, 2])
""",
    "topk": """\
topk(input, k, dim=-1, largest=True, sorted=True) -> (Tensor, LongTensor)

The k largest values along dim (the smallest with largest=False) and their
indices, as torch.return_types.topk.

Example::

    >>> torch.topk(torch.tensor([1., 5., 3., 4.]), 2)
    torch.return_types.topk(
    values=tensor([5., 4.]),
    indices=tensor([1, 3]))
""",
    "trace": """\
trace(input) -> Tensor

The sum of the diagonal of a 2-D tensor.

Example::

    >>> torch.trace(torch.tensor([[1., 2.], [3., 4.]]))
    tensor(5.)
""",
    "transpose": """\
transpose(input, dim0, dim1) -> Tensor

A view with dims dim0 and dim1 swapped.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.transpose(x, 0, 1)
    tensor([[ 1., -4.],
            [-2.,  5.],
            [ 3., -6.]])
""",
    "tril": """\
tril(input, diagonal=0) -> Tensor

The lower triangle of the last two dims, zeros above it; diagonal > 0 keeps
more diagonals, < 0 fewer. The causal mask of attention.

Example::

    >>> torch.tril(torch.ones(3, 3))
    tensor([[1., 0., 0.],
            [1., 1., 0.],
            [1., 1., 1.]])
""",
    "triu": """\
triu(input, diagonal=0) -> Tensor

The upper triangle of the last two dims, zeros below it; diagonal > 0 keeps
fewer diagonals.

Example::

    >>> torch.triu(torch.ones(3, 3), diagonal=1)
    tensor([[0., 1., 1.],
            [0., 0., 1.],
            [0., 0., 0.]])
""",
    "true_divide": """\
true_divide(input, other, *, rounding_mode=None) -> Tensor

Alias for torch.div().
""",
    "trunc": """\
trunc(input) -> Tensor

Each element rounded toward zero to an integer value.

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> torch.trunc(x)
    tensor([-1., -0.,  0.,  2.])
""",
    "unbind": """\
unbind(input, dim=0) -> tuple of Tensors

The slices along dim, as a tuple of views with that dim removed.

Example::

    >>> torch.unbind(torch.tensor([[1, 2], [3, 4]]))
    (tensor([1, 2]), tensor([3, 4]))
""",
    "unflatten": """\
unflatten(input, dim, sizes) -> Tensor

A view with dim split into several dims of the given sizes (one may be -1):
the inverse of flatten.

Example::

    >>> torch.unflatten(torch.arange(6), 0, (2, 3))
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "unique": """\
unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple

The distinct values, sorted; with return_inverse, also where each element of
input is in them; with return_counts, how often each occurs.

Example::

    >>> torch.unique(torch.tensor([3, 1, 3, 2]))
    tensor([1, 2, 3])
    >>> torch.unique(torch.tensor([3, 1, 3, 2]), return_counts=True)
    (tensor([1, 2, 3]), tensor([1, 1, 2]))
""",
    "unique_consecutive": """\
unique_consecutive(input, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple

The values with each run of equal consecutive elements reduced to one.

Example::

    >>> torch.unique_consecutive(torch.tensor([1, 1, 2, 2, 1]))
    tensor([1, 2, 1])
""",
    "unsqueeze": """\
unsqueeze(input, dim) -> Tensor

A view with a new dim of size 1 inserted at dim.

Example::

    >>> torch.unsqueeze(torch.tensor([1, 2, 3]), 0)
    tensor([[1, 2, 3]])
    >>> torch.unsqueeze(torch.tensor([1, 2, 3]), 1)
    tensor([[1],
            [2],
            [3]])
""",
    "var": """\
var(input, dim=None, unbiased=True, keepdim=False) -> Tensor

The variance of all elements or along dim; unbiased (divided by n - 1,
Bessel's correction) unless unbiased=False.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.var(x)
    tensor(17.9000)
    >>> torch.var(x, dim=1, unbiased=False)
    tensor([ 4.2222, 22.8889])
""",
    "var_mean": """\
var_mean(input, dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)

The variance and the mean, as a pair (see var and mean).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.var_mean(x, dim=1)
    (tensor([ 6.3333, 34.3333]), tensor([ 0.6667, -1.6667]))
""",
    "vstack": """\
vstack(tensors) -> Tensor

Join tensors one above the other: along dim 0 (1-D tensors become rows).

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> torch.vstack([a, b])
    tensor([[1., 2., 3.],
            [4., 5., 6.]])
""",
    "where": """\
where(condition, input, other) -> Tensor

Elementwise choice: input where condition is True, other where it is False
(tensors or numbers, broadcast). With only condition, the same as
nonzero(condition, as_tuple=True).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.where(x > 0, x, 0.0)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "xlogy": """\
xlogy(input, other) -> Tensor

input * log(other) for each element, with 0 where input is 0 (even where
other is 0, which would give 0 * -inf = nan): the term of an entropy or
cross-entropy sum. Either may be a number; broadcast.

Example::

    >>> p = torch.tensor([0.0, 0.5, 1.0])
    >>> torch.xlogy(p, p)
    tensor([ 0.0000, -0.3466,  0.0000])
    >>> p * torch.log(p)
    tensor([    nan, -0.3466,  0.0000])
""",
    "zeros": """\
zeros(*size, *, dtype=None, requires_grad=False) -> Tensor

A tensor filled with 0. The size is given as ints or as one tuple; the dtype
is the default float dtype (torch.float32) unless given.

Example::

    >>> torch.zeros(2, 3)
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
    >>> torch.zeros((2,), dtype=torch.int64)
    tensor([0, 0])
""",
    "zeros_like": """\
zeros_like(input, *, dtype=None, requires_grad=False) -> Tensor

Zeros with the shape and dtype of input.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.zeros_like(x)
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
""",
}


# name -> docstring of the torch functions written in Python (python/torch/
# _tensor_more.py, _tensor_ops.py, _linalg_legacy.py, ...), set as their
# __doc__ by attach_python once torch's namespace is complete. Kept here,
# not in the functions' sources, so that all of torch's help text is in
# one place as PyTorch's _torch_docs.py has it.
PY_DOCS = {
    "abs_": """\
abs_(input) -> Tensor

In-place version of torch.abs(): input is overwritten with the result,
which is returned.
""",
    "acos_": """\
acos_(input) -> Tensor

In-place version of torch.acos(): input is overwritten with the result,
which is returned.
""",
    "acosh_": """\
acosh_(input) -> Tensor

In-place version of torch.acosh(): input is overwritten with the result,
which is returned.
""",
    "adaptive_avg_pool1d": """\
adaptive_avg_pool1d(input, output_size) -> Tensor

The same as torch.nn.functional.adaptive_avg_pool1d().
""",
    "addbmm": """\
addbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor

beta * input + alpha * the sum over the batch of batch1[i] @ batch2[i]:
batch1 is (b, n, m), batch2 (b, m, p), input broadcasts to (n, p). (For
one product per batch entry, use baddbmm.)

Example::

    >>> b = torch.ones(3, 2, 2)
    >>> torch.addbmm(torch.zeros(2, 2), b, b)
    tensor([[6., 6.],
            [6., 6.]])
""",
    "addmm": """\
addmm(input, mat1, mat2, *, beta=1, alpha=1, out=None) -> Tensor

beta * input + alpha * (mat1 @ mat2): a matrix product plus a bias, in one
call (what a linear layer computes, with input the bias). mat1 is (n, m),
mat2 (m, p), input broadcasts to (n, p). With beta=0, input is ignored
(nan in it does not propagate).

Example::

    >>> M = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> torch.addmm(torch.tensor([10.0, 20.0]), M, M)
    tensor([[17., 30.],
            [25., 42.]])
    >>> torch.addmm(torch.ones(2, 2), M, M, beta=0.5, alpha=2)
    tensor([[14.5000, 20.5000],
            [30.5000, 44.5000]])
""",
    "addmv": """\
addmv(input, mat, vec, *, beta=1, alpha=1, out=None) -> Tensor

beta * input + alpha * (mat @ vec): a matrix-vector product plus a vector.
mat is (n, m), vec (m,), input broadcasts to (n,).

Example::

    >>> M = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> torch.addmv(torch.tensor([1.0, 1.0]), M, torch.tensor([1.0, -1.0]))
    tensor([0., 0.])
""",
    "addmv_": """\
addmv_(input, mat, vec, *, beta=1, alpha=1) -> Tensor

In-place version of torch.addmv(): input is overwritten with the result,
which is returned.
""",
    "addr": """\
addr(input, vec1, vec2, *, beta=1, alpha=1, out=None) -> Tensor

beta * input + alpha * outer(vec1, vec2): an outer product added to a
matrix. vec1 is (n,), vec2 (m,), input broadcasts to (n, m).

Example::

    >>> torch.addr(torch.zeros(2, 3), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0, -1.0]))
    tensor([[ 1.,  0., -1.],
            [ 2.,  0., -2.]])
""",
    "adjoint": """\
adjoint(input) -> Tensor

The conjugate transpose of the last two dimensions, as a view:
input.transpose(-2, -1).conj() (for real tensors, the transpose).

Example::

    >>> torch.adjoint(torch.tensor([[1, 2], [3, 4]]))
    tensor([[1, 3],
            [2, 4]])
""",
    "affine_grid_generator": """\
affine_grid_generator(theta, size, align_corners) -> Tensor

The ATen spelling of torch.nn.functional.affine_grid(), which is what code
should call: align_corners has no default.
""",
    "alias_copy": """\
alias_copy(input) -> Tensor

A copy of input in new memory (what the aliasing view, which shares input's
memory, holds).
""",
    "alpha_dropout": """\
alpha_dropout(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.alpha_dropout(), which is what code
should call: p and train have no defaults, and train is the flag's name.
""",
    "alpha_dropout_": """\
alpha_dropout_(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.alpha_dropout(), which is what code
should call: in place, p and train without defaults.
""",
    "aminmax": """\
aminmax(input, *, dim=None, keepdim=False, out=None) -> (Tensor min, Tensor max)

The minimum and the maximum in one pass, as a named tuple (min, max): of
all elements, or along dim (without indices; use min/max with dim for
those). keepdim keeps dim with size 1.

Example::

    >>> x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]])
    >>> torch.aminmax(x)
    torch.return_types.aminmax(
    min=tensor(-6.),
    max=tensor(5.))
    >>> torch.aminmax(x, dim=1)
    torch.return_types.aminmax(
    min=tensor([-2., -6.]),
    max=tensor([3., 5.]))
""",
    "arccos_": """\
arccos_(input) -> Tensor

In-place version of torch.arccos(): input is overwritten with the result,
which is returned.
""",
    "arccosh_": """\
arccosh_(input) -> Tensor

In-place version of torch.arccosh(): input is overwritten with the result,
which is returned.
""",
    "arcsin_": """\
arcsin_(input) -> Tensor

In-place version of torch.arcsin(): input is overwritten with the result,
which is returned.
""",
    "arcsinh_": """\
arcsinh_(input) -> Tensor

In-place version of torch.arcsinh(): input is overwritten with the result,
which is returned.
""",
    "arctan_": """\
arctan_(input) -> Tensor

In-place version of torch.arctan(): input is overwritten with the result,
which is returned.
""",
    "arctanh_": """\
arctanh_(input) -> Tensor

In-place version of torch.arctanh(): input is overwritten with the result,
which is returned.
""",
    "are_deterministic_algorithms_enabled": """\
are_deterministic_algorithms_enabled() -> bool

Whether torch.use_deterministic_algorithms(True) is in force.

Example::

    >>> torch.are_deterministic_algorithms_enabled()
    False
""",
    "as_strided": """\
as_strided(input, size, stride, storage_offset=None) -> Tensor

A view of input's memory with the given size and strides, starting at
storage_offset elements into its storage (default: input's own offset).
Nothing is checked against overlaps: writing through a view whose
elements overlap is undefined. Sliding windows are the usual use
(unfold is safer).

Example::

    >>> x = torch.arange(6)
    >>> torch.as_strided(x, (4, 3), (1, 1))
    tensor([[0, 1, 2],
            [1, 2, 3],
            [2, 3, 4],
            [3, 4, 5]])
""",
    "as_strided_": """\
as_strided_(input, size, stride, storage_offset=None) -> Tensor

In-place version of torch.as_strided(): input is overwritten with the result,
which is returned.
""",
    "as_strided_copy": """\
as_strided_copy(input, size, stride, storage_offset=None) -> Tensor

A copy of what torch.as_strided() returns, in new memory: the same values, but
writing to the result does not change input (torch.as_strided gives a view).
""",
    "as_strided_scatter": """\
as_strided_scatter(input, src, size, stride, storage_offset=None) -> Tensor

A copy of input where the elements that as_strided(size, stride,
storage_offset) would view are replaced by src.

Example::

    >>> torch.as_strided_scatter(torch.zeros(4), torch.ones(2), (2,), (2,))
    tensor([1., 0., 1., 0.])
""",
    "asarray": """\
asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False) -> Tensor

obj as a tensor, sharing memory when it can: a tensor is returned as it is
(or converted if dtype differs), a NumPy array or an object with the
buffer protocol is wrapped without copying, a number or (nested) list is
copied as torch.tensor does. copy=True always copies, copy=False refuses
to.

Example::

    >>> torch.asarray([1, 2, 3])
    tensor([1, 2, 3])
    >>> t = torch.tensor([1.0, 2.0])
    >>> torch.asarray(t) is t
    True
""",
    "asin_": """\
asin_(input) -> Tensor

In-place version of torch.asin(): input is overwritten with the result,
which is returned.
""",
    "asinh_": """\
asinh_(input) -> Tensor

In-place version of torch.asinh(): input is overwritten with the result,
which is returned.
""",
    "atan_": """\
atan_(input) -> Tensor

In-place version of torch.atan(): input is overwritten with the result,
which is returned.
""",
    "atanh_": """\
atanh_(input) -> Tensor

In-place version of torch.atanh(): input is overwritten with the result,
which is returned.
""",
    "atleast_1d": """\
atleast_1d(*tensors) -> Tensor or tuple of Tensors

Each input with at least 1 dimension (a 0-D tensor becomes shape (1,));
others are returned as they are. Several tensors, or one list of them,
give a tuple.

Example::

    >>> torch.atleast_1d(torch.tensor(5.0))
    tensor([5.])
""",
    "atleast_2d": """\
atleast_2d(*tensors) -> Tensor or tuple of Tensors

Each input with at least 2 dimensions: 0-D becomes (1, 1), 1-D (n,)
becomes a row (1, n).

Example::

    >>> torch.atleast_2d(torch.tensor([1, 2, 3]))
    tensor([[1, 2, 3]])
""",
    "atleast_3d": """\
atleast_3d(*tensors) -> Tensor or tuple of Tensors

Each input with at least 3 dimensions: 0-D becomes (1, 1, 1), 1-D (n,)
becomes (1, n, 1), 2-D (m, n) becomes (m, n, 1).

Example::

    >>> torch.atleast_3d(torch.tensor([[1, 2]])).shape
    torch.Size([1, 2, 1])
""",
    "avg_pool1d": """\
avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True) -> Tensor

The same as torch.nn.functional.avg_pool1d().
""",
    "baddbmm": """\
baddbmm(input, batch1, batch2, *, beta=1, alpha=1, out=None) -> Tensor

beta * input + alpha * (batch1 @ batch2), one matrix product per batch
entry: batch1 is (b, n, m), batch2 (b, m, p), input broadcasts to
(b, n, p). Attention code uses it for scores plus a mask in one step.

Example::

    >>> b = torch.ones(2, 2, 3)
    >>> c = torch.ones(2, 3, 1)
    >>> torch.baddbmm(torch.tensor([[[1.0], [2.0]]]), b, c, alpha=0.5)
    tensor([[[2.5000],
             [3.5000]],
    <BLANKLINE>
            [[2.5000],
             [3.5000]]])
""",
    "bartlett_window": """\
bartlett_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor

The Bartlett (triangular) window: rising linearly from 0 to 1 at the
middle and back; periodic as in hann_window.

Example::

    >>> torch.bartlett_window(5, periodic=False)
    tensor([0.0000, 0.5000, 1.0000, 0.5000, 0.0000])
""",
    "batch_norm": """\
batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled) -> Tensor

The ATen spelling of torch.nn.functional.batch_norm(), which is what code
should call: weight and bias come before the running statistics, and every
argument is required.
""",
    "bilinear": """\
bilinear(input1, input2, weight, bias=None) -> Tensor

The same as torch.nn.functional.bilinear().
""",
    "binary_cross_entropy_with_logits": """\
binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1) -> Tensor

The ATen spelling of torch.nn.functional.binary_cross_entropy_with_logits(),
which is what code should call: reduction is an int here: 0 'none', 1 'mean', 2
'sum'.
""",
    "blackman_window": """\
blackman_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor

The Blackman window 0.42 - 0.5 * cos(2 pi n / N) + 0.08 * cos(4 pi n / N);
periodic as in hann_window.

Example::

    >>> torch.blackman_window(4)
    tensor([-2.9802e-08,  3.4000e-01,  1.0000e+00,  3.4000e-01])
""",
    "block_diag": """\
block_diag(*tensors) -> Tensor

A block-diagonal matrix with the given matrices (or vectors, as rows, or
numbers) along its diagonal and zeros elsewhere.

Example::

    >>> torch.block_diag(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[5]]))
    tensor([[1, 2, 0],
            [3, 4, 0],
            [0, 0, 5]])
""",
    "bucketize": """\
bucketize(input, boundaries, *, out_int32=False, right=False, out=None) -> Tensor

For each element of input, the index of the bucket it falls in, given
sorted 1-D boundaries: the number of boundaries below it (right=False:
boundaries[i-1] < x <= boundaries[i]; right=True: boundaries[i-1] <= x <
boundaries[i]). int64, or int32 with out_int32.

Example::

    >>> b = torch.tensor([1.0, 3.0, 5.0])
    >>> torch.bucketize(torch.tensor([0.5, 1.0, 4.0, 9.0]), b)
    tensor([0, 0, 2, 3])
    >>> torch.bucketize(torch.tensor([0.5, 1.0, 4.0, 9.0]), b, right=True)
    tensor([0, 1, 2, 3])
""",
    "cartesian_prod": """\
cartesian_prod(*tensors) -> Tensor

All combinations of one element from each 1-D tensor, as the rows of a
(n1 * n2 * ..., number of tensors) tensor (itertools.product).

Example::

    >>> torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([3, 4, 5]))
    tensor([[1, 3],
            [1, 4],
            [1, 5],
            [2, 3],
            [2, 4],
            [2, 5]])
""",
    "cdist": """\
cdist(x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary') -> Tensor

The p-norm distance between every row of x1 (..., P, M) and every row of
x2 (..., R, M): a (..., P, R) matrix (batch dimensions broadcast). For
p=2 the distances may be computed with a matrix product (faster, slightly
less exact): compute_mode 'use_mm_for_euclid_dist' always,
'donot_use_mm_for_euclid_dist' never, the default when P or R > 25.

Example::

    >>> a = torch.tensor([[0.0, 0.0], [1.0, 1.0]])
    >>> b = torch.tensor([[3.0, 4.0], [0.0, 1.0], [1.0, 1.0]])
    >>> torch.cdist(a, b)
    tensor([[5.0000, 1.0000, 1.4142],
            [3.6056, 1.0000, 0.0000]])
""",
    "ceil_": """\
ceil_(input) -> Tensor

In-place version of torch.ceil(): input is overwritten with the result,
which is returned.
""",
    "celu": """\
celu(input, alpha=1.0) -> Tensor

The same as torch.nn.functional.celu().
""",
    "celu_": """\
celu_(input, alpha=1.0) -> Tensor

In-place version of torch.celu(): input is overwritten with the result,
which is returned.
""",
    "chain_matmul": """\
chain_matmul(*matrices, out=None) -> Tensor

Deprecated: the product of several matrices, multiplied in the order that
costs least; use torch.linalg.multi_dot, which takes a list.
""",
    "channel_shuffle": """\
channel_shuffle(input, groups) -> Tensor

The same as torch.nn.functional.channel_shuffle().
""",
    "cholesky": """\
cholesky(input, upper=False, *, out=None) -> Tensor

The Cholesky factor of a symmetric positive-definite matrix (or a batch):
lower-triangular L with input = L @ L.T, or upper-triangular U with
input = U.T @ U when upper=True. Fails when input is not positive
definite. Deprecated (with a warning, once): use torch.linalg.cholesky.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> L = torch.cholesky(A)
    >>> L
    tensor([[2.0000, 0.0000],
            [1.0000, 1.4142]])
    >>> L @ L.T
    tensor([[4., 2.],
            [2., 3.]])
""",
    "cholesky_inverse": """\
cholesky_inverse(input, upper=False, *, out=None) -> Tensor

The inverse of a symmetric positive-definite matrix given its Cholesky
factor input (lower-triangular, or upper with upper=True).

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.cholesky_inverse(torch.cholesky(A))
    tensor([[ 0.3750, -0.2500],
            [-0.2500,  0.5000]])
""",
    "cholesky_solve": """\
cholesky_solve(input, input2, upper=False, *, out=None) -> Tensor

Solve A @ X = input for X, given input2, the Cholesky factor of A
(lower-triangular, or upper with upper=True). input is (..., n, k).

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.cholesky_solve(torch.tensor([[8.0], [7.0]]), torch.cholesky(A))
    tensor([[1.2500],
            [1.5000]])
""",
    "clamp_": """\
clamp_(input, min=None, max=None) -> Tensor

In-place version of torch.clamp(): input is overwritten with the result,
which is returned.
""",
    "clamp_max_": """\
clamp_max_(input, max) -> Tensor

In-place version of torch.clamp_max(): input is overwritten with the result,
which is returned.
""",
    "clamp_min_": """\
clamp_min_(input, min) -> Tensor

In-place version of torch.clamp_min(): input is overwritten with the result,
which is returned.
""",
    "clip_": """\
clip_(input, min=None, max=None) -> Tensor

In-place version of torch.clip(): input is overwritten with the result,
which is returned.
""",
    "column_stack": """\
column_stack(tensors) -> Tensor

Join tensors side by side as columns: 1-D tensors (and 0-D) become columns
(n, 1), then all are concatenated along dim 1.

Example::

    >>> torch.column_stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[1, 3],
            [2, 4]])
""",
    "combinations": """\
combinations(input, r=2, with_replacement=False) -> Tensor

All combinations of r elements of the 1-D input, as rows, in order
(itertools.combinations; with_replacement for
combinations_with_replacement).

Example::

    >>> torch.combinations(torch.tensor([1, 2, 3]))
    tensor([[1, 2],
            [1, 3],
            [2, 3]])
    >>> torch.combinations(torch.tensor([1, 2]), with_replacement=True)
    tensor([[1, 1],
            [1, 2],
            [2, 2]])
""",
    "conj": """\
conj(input) -> Tensor

The complex conjugate of each element; for a real tensor, input itself.
PyTorch returns a lazily conjugated view (is_conj() True, materialized by
resolve_conj()); nndb computes the conjugate at once, so is_conj() is
False.

Example::

    >>> z = torch.tensor([1 + 2j, 3 - 1j])
    >>> torch.conj(z)
    tensor([1.-2.j, 3.+1.j])
""",
    "conj_physical": """\
conj_physical(input) -> Tensor

The complex conjugate of each element, computed into new memory (not a
lazy view as conj); for real tensors, a copy.

Example::

    >>> torch.conj_physical(torch.tensor([1 + 2j]))
    tensor([1.-2.j])
""",
    "conj_physical_": """\
conj_physical_(input) -> Tensor

In-place version of torch.conj_physical(): input is overwritten with the
result, which is returned.
""",
    "constant_pad_nd": """\
constant_pad_nd(input, pad, value=0) -> Tensor

The ATen spelling of torch.nn.functional.pad(), which is what code should
call: mode='constant' only.
""",
    "conv1d": """\
conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

The same as torch.nn.functional.conv1d().
""",
    "conv2d": """\
conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

The same as torch.nn.functional.conv2d().
""",
    "conv3d": """\
conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1) -> Tensor

The same as torch.nn.functional.conv3d().
""",
    "conv_tbc": """\
conv_tbc(input, weight, bias, pad=0) -> Tensor

The same as torch.nn.functional.conv_tbc().
""",
    "conv_transpose1d": """\
conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

The same as torch.nn.functional.conv_transpose1d().
""",
    "conv_transpose2d": """\
conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

The same as torch.nn.functional.conv_transpose2d().
""",
    "conv_transpose3d": """\
conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1) -> Tensor

The same as torch.nn.functional.conv_transpose3d().
""",
    "convolution": """\
convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups) -> Tensor

The ATen spelling of torch.nn.functional.conv2d(), which is what code should
call: one function for every convolution (1-, 2-, 3-D, transposed or not), with
every argument required; conv1d, conv2d, conv3d and conv_transpose*d are the
ones to use.
""",
    "copysign": """\
copysign(input, other) -> Tensor

The magnitude of input with the sign of other, elementwise (broadcast;
other may be a number). The result is floating point.

Example::

    >>> torch.copysign(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([-1.0, 1.0, -0.0]))
    tensor([-1.,  2., -3.])
""",
    "corrcoef": """\
corrcoef(input) -> Tensor

The Pearson correlation coefficients between the variables in the rows of
input (variables, observations), as a matrix: cov(input) scaled by the
standard deviations (values in [-1, 1]). Observations go in columns, as in
numpy.corrcoef (transpose a (samples, features) table first).

Example::

    >>> x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.5], [4.0, 3.0, 2.0, 1.0]])
    >>> torch.corrcoef(x)
    tensor([[ 1.0000,  0.9984, -1.0000],
            [ 0.9984,  1.0000, -0.9984],
            [-1.0000, -0.9984,  1.0000]])
""",
    "cos_": """\
cos_(input) -> Tensor

In-place version of torch.cos(): input is overwritten with the result,
which is returned.
""",
    "cosh_": """\
cosh_(input) -> Tensor

In-place version of torch.cosh(): input is overwritten with the result,
which is returned.
""",
    "cosine_embedding_loss": """\
cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1) -> Tensor

The ATen spelling of torch.nn.functional.cosine_embedding_loss(), which is what
code should call: reduction is an int here: 0 'none', 1 'mean', 2 'sum'.
""",
    "cosine_similarity": """\
cosine_similarity(x1, x2, dim=1, eps=1e-08) -> Tensor

The same as torch.nn.functional.cosine_similarity().
""",
    "cov": """\
cov(input, *, correction=1, fweights=None, aweights=None) -> Tensor

The covariance matrix of the variables in the rows of input (variables,
observations); observations in columns, as numpy.cov. correction=1
divides by N - 1 (the unbiased estimate), 0 by N. fweights (integer
repeat counts) and aweights (importance weights) weigh the observations.

Example::

    >>> x = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]])
    >>> torch.cov(x)
    tensor([[1.0000, 2.5000],
            [2.5000, 6.3333]])
    >>> torch.cov(x, correction=0)
    tensor([[0.6667, 1.6667],
            [1.6667, 4.2222]])
""",
    "cross": """\
cross(input, other, dim=None, *, out=None) -> Tensor

The cross product of 3-vectors along dim (input and other broadcast);
without dim, the first dimension of size 3 (torch.linalg.cross defaults
to the last).

Example::

    >>> torch.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]), dim=0)
    tensor([0., 0., 1.])
""",
    "ctc_loss": """\
ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=0, zero_infinity=False) -> Tensor

The ATen spelling of torch.nn.functional.ctc_loss(), which is what code should
call: reduction is an int, and 0 ('none') by default here.
""",
    "cummax": """\
cummax(input, dim, *, out=None) -> (Tensor values, Tensor indices)

The running maximum along dim: values[i] is the largest of the elements up
to i, indices[i] where it is (the last position for ties). A named tuple.

Example::

    >>> torch.cummax(torch.tensor([1.0, 3.0, 2.0, 5.0, 4.0]), dim=0)
    torch.return_types.cummax(
    values=tensor([1., 3., 3., 5., 5.]),
    indices=tensor([0, 1, 1, 3, 3]))
""",
    "cummin": """\
cummin(input, dim, *, out=None) -> (Tensor values, Tensor indices)

The running minimum along dim: values[i] is the smallest of the elements up
to i, indices[i] where it is. A named tuple.

Example::

    >>> torch.cummin(torch.tensor([3.0, 1.0, 2.0, 0.0]), dim=0)
    torch.return_types.cummin(
    values=tensor([3., 1., 1., 0.]),
    indices=tensor([0, 1, 1, 3]))
""",
    "cumulative_trapezoid": """\
cumulative_trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor

The running trapezoidal integral of y along dim: element i is the
integral from the first sample to sample i + 1 (one shorter than y). x and
dx as in trapezoid.

Example::

    >>> torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 3.0]))
    tensor([1.5000, 4.0000])
""",
    "deg2rad": """\
deg2rad(input) -> Tensor

Degrees to radians: each element times pi / 180.

Example::

    >>> x = torch.tensor([0.0, 90.0, 180.0])
    >>> torch.deg2rad(x)
    tensor([0.0000, 1.5708, 3.1416])
""",
    "deg2rad_": """\
deg2rad_(input) -> Tensor

In-place version of torch.deg2rad(): input is overwritten with the result,
which is returned.
""",
    "det": """\
det(input) -> Tensor

The determinant of a square matrix (or of each in a batch).
torch.linalg.det is the newer spelling.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.det(A)
    tensor(8.)
""",
    "detach": """\
detach(input) -> Tensor

A new tensor sharing input's data but cut from the autograd graph
(requires_grad=False): input.detach(). Changes made in place to either are
seen by both.

Example::

    >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> torch.detach(w * 2)
    tensor([2., 4.])
""",
    "detach_": """\
detach_(input) -> Tensor

In-place version of torch.detach(): input is overwritten with the result,
which is returned.
""",
    "detach_copy": """\
detach_copy(input) -> Tensor

A copy of what torch.detach() returns, in new memory: the same values, but
writing to the result does not change input (torch.detach gives a view).
""",
    "diag_embed": """\
diag_embed(input, offset=0, dim1=-2, dim2=-1) -> Tensor

Put the last dimension of input on the diagonal of new matrices: a (..., n)
input gives (..., n, n) matrices (larger with offset). offset picks the
diagonal (above the main one when positive), dim1 and dim2 where the
matrix dimensions go.

Example::

    >>> torch.diag_embed(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[[1., 0.],
             [0., 2.]],
    <BLANKLINE>
            [[3., 0.],
             [0., 4.]]])
""",
    "diagflat": """\
diagflat(input, offset=0) -> Tensor

A square matrix with the flattened input on its diagonal (offset above the
main diagonal when positive, below when negative).

Example::

    >>> torch.diagflat(torch.tensor([[1, 2], [3, 4]]))
    tensor([[1, 0, 0, 0],
            [0, 2, 0, 0],
            [0, 0, 3, 0],
            [0, 0, 0, 4]])
    >>> torch.diagflat(torch.tensor([1, 2]), offset=1)
    tensor([[0, 1, 0],
            [0, 0, 2],
            [0, 0, 0]])
""",
    "diagonal_copy": """\
diagonal_copy(input, offset=0, dim1=0, dim2=1) -> Tensor

A copy of what torch.diagonal() returns, in new memory: the same values, but
writing to the result does not change input (torch.diagonal gives a view).
""",
    "diagonal_scatter": """\
diagonal_scatter(input, src, offset=0, dim1=0, dim2=1) -> Tensor

A copy of input with the diagonal (as torch.diagonal(input, offset, dim1,
dim2) selects it) replaced by src.

Example::

    >>> torch.diagonal_scatter(torch.zeros(2, 2), torch.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]])
""",
    "diff": """\
diff(input, n=1, dim=-1, prepend=None, append=None) -> Tensor

The differences of neighbours along dim: out[i] = input[i + 1] - input[i]
(one shorter), applied n times. prepend and append are joined to input
along dim first (e.g. to keep the length). Booleans give !=.

Example::

    >>> x = torch.tensor([1, 4, 9, 16])
    >>> torch.diff(x)
    tensor([3, 5, 7])
    >>> torch.diff(x, n=2)
    tensor([2, 2])
    >>> torch.diff(x, prepend=torch.tensor([0]))
    tensor([1, 3, 5, 7])
""",
    "dist": """\
dist(input, other, p=2) -> Tensor

The p-norm of input - other (broadcast), as one number: the Euclidean
distance between the two tensors seen as vectors for p=2.

Example::

    >>> torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]))
    tensor(5.)
    >>> torch.dist(torch.tensor([0.0, 0.0]), torch.tensor([3.0, 4.0]), p=1)
    tensor(7.)
""",
    "dropout": """\
dropout(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.dropout(), which is what code should
call: p and train (not training) have no defaults.

Example::

    >>> torch.dropout(torch.ones(3), 0.5, False)
    tensor([1., 1., 1.])
""",
    "dropout_": """\
dropout_(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.dropout(), which is what code should
call: in place, p and train without defaults.
""",
    "dsplit": """\
dsplit(input, indices_or_sections) -> List of Tensors

Split along depth: tensor_split along dim 2 of a tensor with at least 3
dimensions. An int must divide the size evenly.

Example::

    >>> [t.shape for t in torch.dsplit(torch.zeros(1, 2, 4), 2)]
    [torch.Size([1, 2, 2]), torch.Size([1, 2, 2])]
""",
    "dstack": """\
dstack(tensors) -> Tensor

Join tensors along the third dimension (depth), after making each at least
3-D as atleast_3d does: 1-D (n,) inputs become (1, n, k).

Example::

    >>> torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])])
    tensor([[[1, 3],
             [2, 4]]])
""",
    "eig": """\
eig(input, eigenvectors=False, *, out=None) -> (Tensor, Tensor)

Removed in PyTorch 1.9: raises RuntimeError. Use torch.linalg.eig (or
torch.linalg.eigvals), which returns complex eigenvalues.
""",
    "embedding": """\
embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False) -> Tensor

The ATen spelling of torch.nn.functional.embedding(), which is what code should
call: note that weight comes first, and padding_idx=-1 means none.
""",
    "empty_strided": """\
empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False) -> Tensor

An uninitialized tensor of the given size and strides (the step in
elements of each dimension). Its values are whatever the memory held.

Example::

    >>> torch.empty_strided((2, 3), (3, 1)).shape
    torch.Size([2, 3])
""",
    "erf_": """\
erf_(input) -> Tensor

In-place version of torch.erf(): input is overwritten with the result,
which is returned.
""",
    "erfc_": """\
erfc_(input) -> Tensor

In-place version of torch.erfc(): input is overwritten with the result,
which is returned.
""",
    "exp2_": """\
exp2_(input) -> Tensor

In-place version of torch.exp2(): input is overwritten with the result,
which is returned.
""",
    "exp_": """\
exp_(input) -> Tensor

In-place version of torch.exp(): input is overwritten with the result,
which is returned.
""",
    "expand_copy": """\
expand_copy(input, size, *, implicit=False) -> Tensor

A copy of what torch.expand() returns, in new memory: the same values, but
writing to the result does not change input (torch.expand gives a view).
""",
    "expm1_": """\
expm1_(input) -> Tensor

In-place version of torch.expm1(): input is overwritten with the result,
which is returned.
""",
    "feature_alpha_dropout": """\
feature_alpha_dropout(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.feature_alpha_dropout(), which is what
code should call: p and train have no defaults.
""",
    "feature_alpha_dropout_": """\
feature_alpha_dropout_(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.feature_alpha_dropout(), which is what
code should call: in place, p and train without defaults.
""",
    "feature_dropout": """\
feature_dropout(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.dropout2d(), which is what code should
call: whole channels (dimension 1) are dropped; p and train have no defaults.
""",
    "feature_dropout_": """\
feature_dropout_(input, p, train) -> Tensor

The ATen spelling of torch.nn.functional.dropout2d(), which is what code should
call: in place, whole channels; p and train without defaults.
""",
    "fill": """\
fill(input, value) -> Tensor

A new tensor of input's shape and dtype filled with value (a number or a
0-D tensor); input.fill_(value) fills in place.

Example::

    >>> torch.fill(torch.zeros(2, 2), 7.0)
    tensor([[7., 7.],
            [7., 7.]])
""",
    "fill_": """\
fill_(input, value) -> Tensor

In-place version of torch.fill(): input is overwritten with the result,
which is returned.
""",
    "fill_diagonal_": """\
fill_diagonal_(fill_value, wrap=False) -> Tensor

Set the main diagonal of self (all dimensions the same size, or a tall 2-D
matrix) to fill_value, in place; returns self. For a tall matrix,
wrap=True starts the diagonal again after every N + 1 rows.

Example::

    >>> torch.zeros(3, 3).fill_diagonal_(5.0)
    tensor([[5., 0., 0.],
            [0., 5., 0.],
            [0., 0., 5.]])
""",
    "fix_": """\
fix_(input) -> Tensor

In-place version of torch.fix(): input is overwritten with the result,
which is returned.
""",
    "floor_": """\
floor_(input) -> Tensor

In-place version of torch.floor(): input is overwritten with the result,
which is returned.
""",
    "fmax": """\
fmax(input, other) -> Tensor

The elementwise maximum of two tensors (broadcast), where a nan loses to a
number (maximum would give nan).

Example::

    >>> a = torch.tensor([1.0, float('nan'), 3.0])
    >>> b = torch.tensor([2.0, 2.0, float('nan')])
    >>> torch.fmax(a, b)
    tensor([2., 2., 3.])
    >>> torch.maximum(a, b)
    tensor([2., nan, nan])
""",
    "fmin": """\
fmin(input, other) -> Tensor

The elementwise minimum of two tensors (broadcast), where a nan loses to a
number (minimum would give nan).

Example::

    >>> torch.fmin(torch.tensor([1.0, float('nan')]), torch.tensor([2.0, 2.0]))
    tensor([1., 2.])
""",
    "frac_": """\
frac_(input) -> Tensor

In-place version of torch.frac(): input is overwritten with the result,
which is returned.
""",
    "frobenius_norm": """\
frobenius_norm(input, dim=(-2, -1), keepdim=False, *, out=None) -> Tensor

The Frobenius norm (the square root of the sum of squares) over dim.
torch.linalg.matrix_norm is the newer spelling.

Example::

    >>> torch.frobenius_norm(torch.tensor([[3.0, 0.0], [0.0, 4.0]]))
    tensor(5.)
""",
    "frombuffer": """\
frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False) -> Tensor

A 1-D tensor over the memory of a Python object with the buffer protocol
(bytes, bytearray, array.array, memoryview), without copying: writes to
either are seen by both. count elements (-1: all) starting offset bytes
in. A read-only buffer gives a warning.

Example::

    >>> import array
    >>> a = array.array('i', [1, 2, 3])
    >>> torch.frombuffer(a, dtype=torch.int32)
    tensor([1, 2, 3], dtype=torch.int32)
""",
    "gcd_": """\
gcd_(input, other) -> Tensor

In-place version of torch.gcd(): input is overwritten with the result,
which is returned.
""",
    "geqrf": """\
geqrf(input, *, out=None) -> (Tensor a, Tensor tau)

LAPACK's geqrf: the QR decomposition in compact form, R in the upper
triangle of a and the Householder reflectors below it with their scales in
tau (orgqr and ormqr use them). Most code wants torch.linalg.qr.
""",
    "get_deterministic_debug_mode": """\
get_deterministic_debug_mode() -> int

0, 1 or 2: whether nondeterministic operations are allowed (0), warned
about (1) or refused (2); see use_deterministic_algorithms.

Example::

    >>> torch.get_deterministic_debug_mode()
    0
""",
    "get_device": """\
get_device(input) -> int

The index of the GPU input is on, or -1 for a tensor on the CPU.

Example::

    >>> torch.tensor([1.0]).get_device()
    -1
""",
    "get_float32_matmul_precision": """\
get_float32_matmul_precision() -> str

The precision float32 matrix products may use: 'highest' (the default),
'high' or 'medium' (see set_float32_matmul_precision).

Example::

    >>> torch.get_float32_matmul_precision()
    'highest'
""",
    "get_num_interop_threads": """\
get_num_interop_threads() -> int

The number of threads used to run independent operations concurrently
(inter-op parallelism).
""",
    "get_rng_state": """\
get_rng_state() -> Tensor

The state of the default generator as a uint8 tensor, to restore later
with set_rng_state (reproduce a draw without reseeding).

Example::

    >>> s = torch.get_rng_state()
    >>> a = torch.rand(2)
    >>> torch.set_rng_state(s)
    >>> torch.equal(a, torch.rand(2))
    True
""",
    "gradient": """\
gradient(input, *, spacing=1, dim=None, edge_order=1) -> List of Tensors

Estimate the derivative of a sampled function along each dimension (or
those in dim) by central differences inside and one-sided differences at
the ends. spacing is the distance between samples (a number, one per
dimension, or the coordinates themselves as tensors). Returns one tensor
per dimension, each of input's shape.

Example::

    >>> torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]))
    (tensor([3., 4., 6., 7.]),)
    >>> torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]), spacing=2.0)
    (tensor([1.5000, 2.0000, 3.0000, 3.5000]),)
""",
    "grid_sampler": """\
grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor

The ATen spelling of torch.nn.functional.grid_sample(), which is what code
should call: the modes are ints here (interpolation 0 bilinear, 1 nearest, 2
bicubic; padding 0 zeros, 1 border, 2 reflection) and every argument is
required.
""",
    "grid_sampler_2d": """\
grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor

The ATen spelling of torch.nn.functional.grid_sample(), which is what code
should call: 4-D input; modes as ints, as in torch.grid_sampler.
""",
    "grid_sampler_3d": """\
grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners) -> Tensor

The ATen spelling of torch.nn.functional.grid_sample(), which is what code
should call: 5-D input; modes as ints, as in torch.grid_sampler.
""",
    "group_norm": """\
group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True) -> Tensor

The ATen spelling of torch.nn.functional.group_norm(), which is what code
should call: the same arguments, plus cudnn_enabled (ignored).
""",
    "gru": """\
gru(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) -> Tuple[Tensor, ...]

The whole multi-layer GRU over a sequence, with its weights as the flat list
params: what nn.GRU computes (call the module). A second form takes a packed
sequence (input, batch_sizes, hx, params, ...).
""",
    "gru_cell": """\
gru_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor

One step of a GRU cell on input (batch, input_size) from state hx, with the
given weights: what nn.GRUCell computes (call the module).
""",
    "hamming_window": """\
hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor

The Hamming window alpha - beta * cos(2 * pi * n / N); periodic as in
hann_window.

Example::

    >>> torch.hamming_window(4)
    tensor([0.0800, 0.5400, 1.0000, 0.5400])
""",
    "hann_window": """\
hann_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor

The Hann window 0.5 - 0.5 * cos(2 * pi * n / N), n = 0 .. window_length-1,
for spectral analysis (torch.stft). periodic=True (N = window_length) gives
the window for spectra; False (N = window_length - 1) the symmetric one
used for filter design.

Example::

    >>> torch.hann_window(4)
    tensor([0.0000, 0.5000, 1.0000, 0.5000])
    >>> torch.hann_window(4, periodic=False)
    tensor([0.0000, 0.7500, 0.7500, 0.0000])
""",
    "hardshrink": """\
hardshrink(input, lambd=0.5) -> Tensor

The same as torch.nn.functional.hardshrink().
""",
    "hinge_embedding_loss": """\
hinge_embedding_loss(input, target, margin=1.0, reduction=1) -> Tensor

The ATen spelling of torch.nn.functional.hinge_embedding_loss(), which is what
code should call: reduction is an int here: 0 'none', 1 'mean', 2 'sum'.
""",
    "histogramdd": """\
histogramdd(input, bins=10, *, range=None, weight=None, density=False) -> (Tensor hist, List[Tensor] bin_edges)

A multi-dimensional histogram of the points in the rows of input (N, D):
bins is a number per dimension, one int for all, or the edges as tensors;
range limits each dimension (min, max pairs flattened); weight weighs
each point; density normalizes to a probability density.

Example::

    >>> pts = torch.tensor([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]])
    >>> torch.histogramdd(pts, bins=2).hist
    tensor([[1., 0.],
            [1., 1.]])
""",
    "hsplit": """\
hsplit(input, indices_or_sections) -> List of Tensors

Split horizontally: tensor_split along dim 1 (dim 0 for a 1-D tensor). An
int must divide the size evenly.

Example::

    >>> torch.hsplit(torch.arange(8).view(2, 4), 2)
    (tensor([[0, 1],
            [4, 5]]), tensor([[2, 3],
            [6, 7]]))
""",
    "hypot": """\
hypot(input, other) -> Tensor

sqrt(input**2 + other**2) elementwise, without overflow for large values
(the hypotenuse of a right triangle). Broadcast.

Example::

    >>> torch.hypot(torch.tensor([3.0, 5.0]), torch.tensor([4.0, 12.0]))
    tensor([ 5., 13.])
""",
    "i0_": """\
i0_(input) -> Tensor

In-place version of torch.i0(): input is overwritten with the result,
which is returned.
""",
    "imag": """\
imag(input) -> Tensor

The imaginary parts of a complex tensor, as a view; a real tensor raises
RuntimeError.

Example::

    >>> torch.imag(torch.tensor([1 + 2j, 3 - 1j]))
    tensor([ 2., -1.])
""",
    "index_add": """\
index_add(input, dim, index, source, *, alpha=1) -> Tensor

A copy of input where, for each i, alpha * source's i-th slice along dim is
added to the slice index[i]. Repeated indices accumulate (unlike
x[index] += source, which keeps one).

Example::

    >>> x = torch.zeros(3, 2)
    >>> torch.index_add(x, 0, torch.tensor([0, 2, 0]), torch.ones(3, 2))
    tensor([[2., 2.],
            [0., 0.],
            [1., 1.]])
""",
    "index_copy": """\
index_copy(input, dim, index, source) -> Tensor

A copy of input where the slice index[i] along dim is replaced by source's
i-th slice.

Example::

    >>> torch.index_copy(torch.zeros(3, 2), 0, torch.tensor([2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[3., 4.],
            [0., 0.],
            [1., 2.]])
""",
    "index_fill": """\
index_fill(input, dim, index, value) -> Tensor

A copy of input with the slices at index along dim set to value.

Example::

    >>> torch.index_fill(torch.zeros(2, 3), 1, torch.tensor([0, 2]), -1.0)
    tensor([[-1.,  0., -1.],
            [-1.,  0., -1.]])
""",
    "index_put": """\
index_put(input, indices, values, accumulate=False) -> Tensor

A copy of input with input[indices] = values, indices being a tuple of
index tensors (one per leading dimension): the out-of-place form of
x[i, j] = v. With accumulate=True, values are added, repeated positions
accumulating.

Example::

    >>> i = (torch.tensor([0, 2, 0]),)
    >>> torch.index_put(torch.zeros(3), i, torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
    tensor([4., 0., 2.])
""",
    "index_put_": """\
index_put_(input, indices, values, accumulate=False) -> Tensor

In-place version of torch.index_put(): input is overwritten with the result,
which is returned.
""",
    "index_reduce": """\
index_reduce(input, dim, index, source, reduce, *, include_self=True) -> Tensor

A copy of input where each slice i of source along dim is combined into
the slice index[i]: reduce is 'prod', 'mean', 'amax' or 'amin'. With
include_self=False input's own values at those slices are left out.

Example::

    >>> x = torch.ones(3)
    >>> torch.index_reduce(x, 0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 5.0]), 'prod')
    tensor([6., 1., 5.])
""",
    "index_reduce_": """\
index_reduce_(input, dim, index, source, reduce, *, include_self=True) -> Tensor

In-place version of torch.index_reduce(): input is overwritten with the result,
which is returned.
""",
    "init_num_threads": """\
init_num_threads() -> None

Set up the threads of the calling thread's parallel regions (PyTorch calls
it in worker threads); nndb's thread pool needs nothing, so this does
nothing.
""",
    "initial_seed": """\
initial_seed() -> int

The seed the default generator was last seeded with.

Example::

    >>> _ = torch.manual_seed(42)
    >>> torch.initial_seed()
    42
""",
    "instance_norm": """\
instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled) -> Tensor

The ATen spelling of torch.nn.functional.instance_norm(), which is what code
should call: weight and bias first, every argument required.
""",
    "inverse": """\
inverse(input, *, out=None) -> Tensor

The inverse of a square invertible matrix (or batch):
torch.linalg.inv. To solve A @ x = b, torch.linalg.solve(A, b) is faster
and more accurate than inverse(A) @ b.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.inverse(A)
    tensor([[ 0.3750, -0.2500],
            [-0.2500,  0.5000]])
""",
    "is_complex": """\
is_complex(input) -> bool

Whether input's dtype is complex (torch.complex64 or torch.complex128).

Example::

    >>> torch.is_complex(torch.tensor([1j])), torch.is_complex(torch.tensor([1.0]))
    (True, False)
""",
    "is_conj": """\
is_conj(input) -> bool

Whether input is a lazily conjugated view (PyTorch's conj() of a complex
tensor gives one); always False in nndb, whose conj() computes at once.
""",
    "is_deterministic_algorithms_warn_only_enabled": """\
is_deterministic_algorithms_warn_only_enabled() -> bool

Whether use_deterministic_algorithms was set with warn_only=True
(nondeterministic operations warn instead of raising).
""",
    "is_distributed": """\
is_distributed(input) -> bool

Whether input is a distributed tensor: always False in nndb, which runs
in one process.
""",
    "is_floating_point": """\
is_floating_point(input) -> bool

Whether input's dtype is a floating-point one (float16, bfloat16, float32,
float64).

Example::

    >>> torch.is_floating_point(torch.tensor([1.0])), torch.is_floating_point(torch.tensor([1]))
    (True, False)
""",
    "is_inference": """\
is_inference(input) -> bool

Whether input was made inside torch.inference_mode() (such tensors
cannot take part in autograd later).
""",
    "is_inference_mode_enabled": """\
is_inference_mode_enabled() -> bool

Whether the code runs inside torch.inference_mode().

Example::

    >>> torch.is_inference_mode_enabled()
    False
""",
    "is_neg": """\
is_neg(input) -> bool

Whether input is a lazily negated view (PyTorch's imag of a conjugated
view gives one); always False in nndb, which makes no lazy views.
""",
    "is_nonzero": """\
is_nonzero(input) -> bool

Whether the single element of a one-element tensor is not zero (what
bool(input) gives); more elements raise RuntimeError.

Example::

    >>> torch.is_nonzero(torch.tensor([0.5])), torch.is_nonzero(torch.tensor(0))
    (True, False)
""",
    "is_same_size": """\
is_same_size(input, other) -> bool

Whether the two tensors have the same shape.

Example::

    >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3))
    True
""",
    "is_set_to": """\
is_set_to(tensor) -> bool

Whether self and tensor are the same view of the same memory: same storage,
offset, size and strides.

Example::

    >>> x = torch.zeros(3)
    >>> x.is_set_to(x), x.is_set_to(x.clone())
    (True, False)
""",
    "is_signed": """\
is_signed(input) -> bool

Whether input's dtype is signed: every dtype but torch.uint8 and
torch.bool.

Example::

    >>> torch.is_signed(torch.tensor([1])), torch.is_signed(torch.tensor([1], dtype=torch.uint8))
    (True, False)
""",
    "is_storage": """\
is_storage(obj) -> bool

Whether obj is a storage object (a tensor's untyped memory, from
x.storage() in PyTorch).

Example::

    >>> torch.is_storage(torch.zeros(2))
    False
""",
    "isin": """\
isin(elements, test_elements, *, assume_unique=False, invert=False) -> Tensor

A boolean tensor of elements' shape: True where the element occurs in
test_elements (a tensor or a number). invert=True gives the opposite;
assume_unique lets it skip the deduplication.

Example::

    >>> torch.isin(torch.tensor([1, 2, 3, 4]), torch.tensor([2, 4, 6]))
    tensor([False,  True, False,  True])
""",
    "isneginf": """\
isneginf(input) -> Tensor

True where an element is -inf.

Example::

    >>> x = torch.tensor([float('-inf'), float('inf'), 1.0])
    >>> torch.isneginf(x)
    tensor([ True, False, False])
""",
    "isposinf": """\
isposinf(input) -> Tensor

True where an element is +inf.

Example::

    >>> x = torch.tensor([float('-inf'), float('inf'), 1.0])
    >>> torch.isposinf(x)
    tensor([False,  True, False])
""",
    "istft": """\
istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None, length=None, return_complex=False) -> Tensor

The inverse of stft: the signal back from its complex STFT, by inverse FFT
of each frame and overlap-add, divided by the summed squared window. Pass
the stft's own n_fft, hop_length, window and center; length trims or pads
the result to that many samples.

Example::

    >>> x = torch.arange(8.0)
    >>> w = torch.hann_window(4)
    >>> S = torch.stft(x, 4, 1, window=w, return_complex=True)
    >>> torch.istft(S, 4, 1, window=w, length=8)
    tensor([0., 1., 2., 3., 4., 5., 6., 7.])
""",
    "kaiser_window": """\
kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor

The Kaiser window i0(beta * sqrt(1 - (2n/N - 1)**2)) / i0(beta): larger
beta narrows it. periodic as in hann_window.

Example::

    >>> torch.kaiser_window(4, True, 2.0)
    tensor([0.4387, 0.8348, 1.0000, 0.8348])
""",
    "kl_div": """\
kl_div(input, target, reduction=1, *, log_target=False) -> Tensor

The ATen spelling of torch.nn.functional.kl_div(), which is what code should
call: reduction is an int here: 0 'none', 1 'mean', 2 'sum'. There is no
'batchmean' here.
""",
    "kron": """\
kron(input, other) -> Tensor

The Kronecker product: every element of input multiplies a whole copy of
other, and the copies are laid out in a grid (sizes multiply).

Example::

    >>> torch.kron(torch.tensor([[1, 2], [3, 4]]), torch.ones(2, 2, dtype=torch.int64))
    tensor([[1, 1, 2, 2],
            [1, 1, 2, 2],
            [3, 3, 4, 4],
            [3, 3, 4, 4]])
""",
    "layer_norm": """\
layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True) -> Tensor

The ATen spelling of torch.nn.functional.layer_norm(), which is what code
should call: the same arguments, plus cudnn_enable (ignored).
""",
    "lcm_": """\
lcm_(input, other) -> Tensor

In-place version of torch.lcm(): input is overwritten with the result,
which is returned.
""",
    "ldexp_": """\
ldexp_(input, other) -> Tensor

In-place version of torch.ldexp(): input is overwritten with the result,
which is returned.
""",
    "log10_": """\
log10_(input) -> Tensor

In-place version of torch.log10(): input is overwritten with the result,
which is returned.
""",
    "log1p_": """\
log1p_(input) -> Tensor

In-place version of torch.log1p(): input is overwritten with the result,
which is returned.
""",
    "log2_": """\
log2_(input) -> Tensor

In-place version of torch.log2(): input is overwritten with the result,
which is returned.
""",
    "log_": """\
log_(input) -> Tensor

In-place version of torch.log(): input is overwritten with the result,
which is returned.
""",
    "logaddexp": """\
logaddexp(input, other) -> Tensor

log(exp(input) + exp(other)) elementwise, computed without overflow or
underflow (adding probabilities kept as logs).

Example::

    >>> torch.logaddexp(torch.tensor([1000.0, -1000.0]), torch.tensor([1000.0, -1000.0]))
    tensor([1000.6932, -999.3068])
""",
    "logaddexp2": """\
logaddexp2(input, other) -> Tensor

log2(2**input + 2**other) elementwise, computed stably: logaddexp in base 2.

Example::

    >>> torch.logaddexp2(torch.tensor([1.0, 3.0]), torch.tensor([1.0, 0.0]))
    tensor([2.0000, 3.1699])
""",
    "logcumsumexp": """\
logcumsumexp(input, dim) -> Tensor

log(cumsum(exp(input), dim)) computed without overflow: a running
logsumexp along dim.

Example::

    >>> torch.logcumsumexp(torch.tensor([0.0, 0.0, 1.0]), dim=0)
    tensor([0.0000, 0.6931, 1.5514])
""",
    "logdet": """\
logdet(input) -> Tensor

The natural log of the determinant of a square matrix (or batch): nan when
the determinant is negative, -inf when it is 0 (see slogdet for the sign).

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.logdet(A)
    tensor(2.0794)
""",
    "logit_": """\
logit_(input, eps=None) -> Tensor

In-place version of torch.logit(): input is overwritten with the result,
which is returned.
""",
    "logspace": """\
logspace(start, end, steps, base=10.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor

steps numbers evenly spaced on a log scale: base ** linspace(start, end,
steps), from base**start to base**end (learning-rate sweeps).

Example::

    >>> torch.logspace(-3, 0, steps=4)
    tensor([0.0010, 0.0100, 0.1000, 1.0000])
    >>> torch.logspace(0, 3, steps=4, base=2)
    tensor([1., 2., 4., 8.])
""",
    "lstm": """\
lstm(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) -> Tuple[Tensor, ...]

The whole multi-layer LSTM over a sequence, with its weights as the flat list
params: what nn.LSTM computes (call the module). A second form takes a packed
sequence (input, batch_sizes, hx, params, ...).
""",
    "lstm_cell": """\
lstm_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> (Tensor, Tensor)

One step of an LSTM cell on input (batch, input_size) from the state
hx = (h, c), with the given weights: returns the new (h, c), what
nn.LSTMCell computes (call the module).
""",
    "lstsq": """\
lstsq(input, A, *, out=None) -> (Tensor, Tensor)

Removed in PyTorch 1.9: raises RuntimeError. Use torch.linalg.lstsq(A, B)
(note the order: A first).
""",
    "lu": """\
lu(A, pivot=True, get_infos=False, out=None) -> (Tensor LU, Tensor pivots[, Tensor infos])

The LU decomposition with partial pivoting in compact form: L (unit lower,
diagonal not stored) and U in one matrix, and the 1-based row pivots (as
LAPACK gives them). lu_unpack gives P, L, U; lu_solve solves with it.
get_infos also returns LAPACK's status per matrix. PyTorch 1.13 deprecates
it (with a warning) in favor of torch.linalg.lu_factor.

Example::

    >>> LU, piv = torch.lu(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> piv
    tensor([2, 2], dtype=torch.int32)
""",
    "lu_solve": """\
lu_solve(b, LU_data, LU_pivots, *, out=None) -> Tensor

Solve A @ x = b given A's LU decomposition from torch.lu (LU_data,
LU_pivots). b is (..., n, k). Deprecated (with a warning) in favor of
torch.linalg.lu_solve (which takes B last).

Example::

    >>> A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> torch.lu_solve(torch.tensor([[5.0], [11.0]]), *torch.lu(A))
    tensor([[1.],
            [2.]])
""",
    "lu_unpack": """\
lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True, *, out=None) -> (Tensor P, Tensor L, Tensor U)

P, L and U with A = P @ L @ U from torch.lu's compact form, as a named
tuple (unpack_data=False leaves L and U empty, unpack_pivots=False P).

Example::

    >>> A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> P, L, U = torch.lu_unpack(*torch.lu(A))
    >>> P @ L @ U
    tensor([[1., 2.],
            [3., 4.]])
""",
    "manual_seed": """\
manual_seed(seed) -> torch.Generator

Seed the default random number generator, so that the random numbers drawn
after it (rand, randn, dropout, init, shuffling DataLoaders) are the same
on every run, and the same as PyTorch draws. Returns the generator.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2)
    tensor([0.4963, 0.7682])
    >>> _ = torch.manual_seed(0)
    >>> torch.rand(2)
    tensor([0.4963, 0.7682])
""",
    "map2_": """\
map2_(x, y, callable) -> Tensor

For each element, self = callable(self, x, y) with x and y broadcast,
in place, calling the Python function element by element (slow; CPU only);
returns self.

Example::

    >>> a = torch.tensor([1.0, 2.0])
    >>> a.map2_(torch.tensor([3.0, 4.0]), torch.tensor([10.0, 20.0]), lambda s, x, y: s + x * y)
    tensor([31., 82.])
""",
    "margin_ranking_loss": """\
margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1) -> Tensor

The ATen spelling of torch.nn.functional.margin_ranking_loss(), which is what
code should call: reduction is an int here: 0 'none', 1 'mean', 2 'sum'.
""",
    "masked_scatter": """\
masked_scatter(input, mask, source) -> Tensor

A copy of input where the positions where mask (broadcast) is True take
the elements of source in order, one after the other.

Example::

    >>> m = torch.tensor([True, False, True])
    >>> torch.masked_scatter(torch.zeros(3), m, torch.tensor([7.0, 8.0, 9.0]))
    tensor([7., 0., 8.])
""",
    "masked_scatter_": """\
masked_scatter_(input, mask, source) -> Tensor

In-place version of torch.masked_scatter(): input is overwritten with the
result, which is returned.
""",
    "matrix_exp": """\
matrix_exp(input) -> Tensor

The matrix exponential of a square matrix (or batch): the sum of
input**k / k! over k (not the exponential of each element).

Example::

    >>> torch.matrix_exp(torch.tensor([[0.0, 1.0], [0.0, 0.0]]))
    tensor([[1., 1.],
            [0., 1.]])
""",
    "matrix_power": """\
matrix_power(input, n) -> Tensor

The square matrix input multiplied by itself n times (n = 0 gives the
identity, negative n the inverse's powers).

Example::

    >>> torch.matrix_power(torch.tensor([[1, 1], [0, 1]]), 3)
    tensor([[1, 3],
            [0, 1]])
""",
    "matrix_rank": """\
matrix_rank(input, tol=None, symmetric=False, *, out=None) -> Tensor

Removed in PyTorch 1.9: raises RuntimeError. Use
torch.linalg.matrix_rank.
""",
    "max_pool1d": """\
max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor

torch.nn.functional.max_pool1d() without return_indices.
""",
    "max_pool2d": """\
max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor

torch.nn.functional.max_pool2d() without return_indices.
""",
    "max_pool3d": """\
max_pool3d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor

torch.nn.functional.max_pool3d() without return_indices.
""",
    "mode": """\
mode(input, dim=-1, keepdim=False) -> (Tensor values, Tensor indices)

The most frequent value along dim (the smallest of the most frequent on a
tie) and an index where it occurs, as a named tuple. keepdim keeps dim
with size 1.

Example::

    >>> x = torch.tensor([[1, 2, 2, 3], [4, 4, 1, 1]])
    >>> torch.mode(x, dim=1).values
    tensor([2, 1])
""",
    "moveaxis": """\
moveaxis(input, source, destination) -> Tensor

Alias for torch.movedim().
""",
    "nan_to_num_": """\
nan_to_num_(input, nan=0.0, posinf=None, neginf=None) -> Tensor

In-place version of torch.nan_to_num(): input is overwritten with the result,
which is returned.
""",
    "nanmean": """\
nanmean(input, dim=None, keepdim=False, *, dtype=None) -> Tensor

The mean ignoring nan: of all elements, or along dim. nan only where all
the elements averaged are nan.

Example::

    >>> x = torch.tensor([[1.0, float('nan')], [3.0, 4.0]])
    >>> torch.nanmean(x)
    tensor(2.6667)
    >>> torch.nanmean(x, dim=1)
    tensor([1.0000, 3.5000])
""",
    "nanmedian": """\
nanmedian(input, dim=None, keepdim=False) -> Tensor or (Tensor values, Tensor indices)

median ignoring nan: of all elements (a 0-D tensor), or along dim (a named
tuple of values and indices). As median, the lower of the two middle
values for an even count.

Example::

    >>> torch.nanmedian(torch.tensor([1.0, float('nan'), 3.0, 2.0]))
    tensor(2.)
""",
    "nanquantile": """\
nanquantile(input, q, dim=None, keepdim=False, *, interpolation='linear') -> Tensor

quantile ignoring nan: the quantiles of the other values.

Example::

    >>> torch.nanquantile(torch.tensor([1.0, float('nan'), 3.0]), 0.5)
    tensor(2.)
""",
    "nansum": """\
nansum(input, dim=None, keepdim=False, *, dtype=None) -> Tensor

The sum treating nan as 0: of all elements, or along dim.

Example::

    >>> torch.nansum(torch.tensor([1.0, float('nan'), 2.0]))
    tensor(3.)
""",
    "narrow_copy": """\
narrow_copy(input, dim, start, length) -> Tensor

A copy (not a view) of input.narrow(dim, start, length): length elements
from start along dim.

Example::

    >>> torch.narrow_copy(torch.arange(6).view(2, 3), 1, 1, 2)
    tensor([[1, 2],
            [4, 5]])
""",
    "native_batch_norm": """\
native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps) -> (Tensor, Tensor, Tensor)

The batch norm kernel: returns (output, the batch mean, the inverse of the
batch standard deviation) (empty statistics when not training). Code
should call torch.nn.functional.batch_norm.
""",
    "native_channel_shuffle": """\
native_channel_shuffle(input, groups) -> Tensor

The same as torch.nn.functional.channel_shuffle().
""",
    "native_layer_norm": """\
native_layer_norm(input, normalized_shape, weight, bias, eps) -> (Tensor, Tensor, Tensor)

The layer norm kernel: returns (output, mean, inverse standard deviation)
per normalized group. Code should call torch.nn.functional.layer_norm.
""",
    "neg_": """\
neg_(input) -> Tensor

In-place version of torch.neg(): input is overwritten with the result,
which is returned.
""",
    "negative_": """\
negative_(input) -> Tensor

In-place version of torch.negative(): input is overwritten with the result,
which is returned.
""",
    "new_empty_strided": """\
new_empty_strided(size, stride, *, dtype=None, device=None, requires_grad=False) -> Tensor

An uninitialized tensor of the given size and strides, with self's dtype
and device unless given (see torch.empty_strided).
""",
    "norm": """\
norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None) -> Tensor

The norm of input: by default the 2-norm (Frobenius) of all its elements;
with dim (an int or a pair) the norm of each vector (or matrix) along it.
p is a number (the vector p-norm: (sum |x|**p) ** (1 / p); inf the
largest |x|), 'fro' or 'nuc' (the nuclear norm of matrices). keepdim keeps
the reduced dimensions with size 1. torch.linalg.norm, vector_norm and
matrix_norm are the newer spellings.

Example::

    >>> x = torch.tensor([[3.0, 4.0], [0.0, 1.0]])
    >>> torch.norm(x)
    tensor(5.0990)
    >>> torch.norm(x, dim=1)
    tensor([5., 1.])
    >>> torch.norm(x, p=1, dim=1)
    tensor([7., 1.])
""",
    "nuclear_norm": """\
nuclear_norm(input, dim=None, keepdim=False, *, out=None) -> Tensor

The nuclear norm (the sum of the singular values) of a matrix, or of the
matrices in the two dimensions dim. torch.linalg.matrix_norm(input, 'nuc')
is the newer spelling.

Example::

    >>> torch.nuclear_norm(torch.tensor([[3.0, 0.0], [0.0, -2.0]]))
    tensor(5.)
""",
    "orgqr": """\
orgqr(input, tau) -> Tensor

The Q of a QR decomposition from geqrf's compact form (input, tau):
torch.linalg.householder_product.
""",
    "ormqr": """\
ormqr(input, tau, other, left=True, transpose=False, *, out=None) -> Tensor

other multiplied by the Q of geqrf's compact form (input, tau) without
forming Q: Q @ other (left=True) or other @ Q, with Q transposed when
transpose=True.
""",
    "pairwise_distance": """\
pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False) -> Tensor

The same as torch.nn.functional.pairwise_distance().
""",
    "pca_lowrank": """\
pca_lowrank(A, q=None, center=True, niter=2) -> (Tensor U, Tensor S, Tensor V)

An approximate principal component analysis of a (m, n) data matrix A (rows
are samples) by a randomized SVD: the columns of V are the first q
principal directions, S ** 2 / (m - 1) their variances, and A's projection
is (A - mean) @ V. center subtracts the column means first. q defaults to
min(6, m, n); niter is the number of power iterations (more is more
accurate). Random: seed it for repeatable results.
""",
    "pdist": """\
pdist(input, p=2) -> Tensor

The same as torch.nn.functional.pdist().
""",
    "permute_copy": """\
permute_copy(input, dims) -> Tensor

A copy of what torch.permute() returns, in new memory: the same values, but
writing to the result does not change input (torch.permute gives a view).
""",
    "pinverse": """\
pinverse(input, rcond=1e-15) -> Tensor

The Moore-Penrose pseudo-inverse of a matrix of any shape (m, n), (n, m)
out, computed from the SVD; singular values below rcond times the largest
count as zero. The least-squares solution of A @ x = b is pinverse(A) @ b.

Example::

    >>> torch.pinverse(torch.tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]))
    tensor([[1.0000, 0.0000, 0.0000],
            [0.0000, 0.5000, 0.0000]])
""",
    "pixel_shuffle": """\
pixel_shuffle(input, upscale_factor) -> Tensor

The same as torch.nn.functional.pixel_shuffle().
""",
    "pixel_unshuffle": """\
pixel_unshuffle(input, downscale_factor) -> Tensor

The same as torch.nn.functional.pixel_unshuffle().
""",
    "poisson_nll_loss": """\
poisson_nll_loss(input, target, log_input, full, eps, reduction) -> Tensor

The ATen spelling of torch.nn.functional.poisson_nll_loss(), which is what code
should call: every argument is required; reduction is an int here: 0 'none', 1
'mean', 2 'sum'.
""",
    "prelu": """\
prelu(input, weight) -> Tensor

The same as torch.nn.functional.prelu().
""",
    "put": """\
put(input, index, source, accumulate=False) -> Tensor

A copy of input, seen as 1-D, with the elements at index (flat positions)
set to source's elements (added to them with accumulate=True).

Example::

    >>> torch.put(torch.zeros(2, 2), torch.tensor([0, 3]), torch.tensor([5.0, 6.0]))
    tensor([[5., 0.],
            [0., 6.]])
""",
    "qr": """\
qr(input, some=True, *, out=None) -> (Tensor Q, Tensor R)

The QR decomposition input = Q @ R, Q with orthonormal columns and R
upper-triangular, as a named tuple. some=True gives the reduced shapes
(m, k) and (k, n), k = min(m, n); False the complete ones. Deprecated
(with a warning) in favor of torch.linalg.qr.

Example::

    >>> Q, R = torch.qr(torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> R
    tensor([[-5.0000, -2.2000],
            [ 0.0000,  0.4000]])
""",
    "quantile": """\
quantile(input, q, dim=None, keepdim=False, *, interpolation='linear') -> Tensor

The q-th quantiles (q a number or 1-D tensor in [0, 1]) of all elements,
or along dim. q=0.5 is the median (averaging the two middle values, unlike
torch.median). interpolation: how a quantile between two data points is
taken: 'linear' (default), 'lower', 'higher', 'midpoint' or 'nearest'. A
nan in the data gives nan (see nanquantile). With a tensor q the
quantiles are stacked first.

Example::

    >>> x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> torch.quantile(x, 0.5)
    tensor(2.5000)
    >>> torch.quantile(x, torch.tensor([0.25, 0.75]))
    tensor([1.7500, 3.2500])
""",
    "rad2deg": """\
rad2deg(input) -> Tensor

Radians to degrees: each element times 180 / pi.

Example::

    >>> x = torch.tensor([0.0, 1.5708, 3.1416])
    >>> torch.rad2deg(x)
    tensor([  0.0000,  90.0002, 180.0004])
""",
    "rad2deg_": """\
rad2deg_(input) -> Tensor

In-place version of torch.rad2deg(): input is overwritten with the result,
which is returned.
""",
    "range": """\
range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor

Deprecated (with a warning): numbers from start to end inclusive, stepping
by step, as float32 by default. Use torch.arange, which excludes end (as
Python's range does).
""",
    "real": """\
real(input) -> Tensor

The real parts of a complex tensor, as a view (writable); a real tensor is
returned as it is.

Example::

    >>> torch.real(torch.tensor([1 + 2j, 3 - 1j]))
    tensor([1., 3.])
""",
    "reciprocal_": """\
reciprocal_(input) -> Tensor

In-place version of torch.reciprocal(): input is overwritten with the result,
which is returned.
""",
    "relu_": """\
relu_(input) -> Tensor

In-place version of torch.relu(): input is overwritten with the result,
which is returned.
""",
    "renorm": """\
renorm(input, p, dim, maxnorm) -> Tensor

A copy of input where each slice along dim whose p-norm exceeds maxnorm
is scaled down to norm maxnorm (the max-norm constraint on weights).

Example::

    >>> torch.renorm(torch.tensor([[3.0, 4.0], [0.3, 0.4]]), p=2, dim=0, maxnorm=1.0)
    tensor([[0.6000, 0.8000],
            [0.3000, 0.4000]])
""",
    "renorm_": """\
renorm_(input, p, dim, maxnorm) -> Tensor

In-place version of torch.renorm(): input is overwritten with the result,
which is returned.
""",
    "resize": """\
resize(*sizes) -> Tensor

Deprecated (with a warning): a resized copy; use reshape, or resize_ on a
clone.
""",
    "resize_": """\
resize_(*sizes, memory_format=torch.contiguous_format) -> Tensor

Give self a new shape in place, growing its memory if needed (the new
elements are uninitialized) and keeping the existing elements in their
memory order; returns self. Not reshape: the elements are not rearranged,
and a tensor that requires grad cannot be resized.

Example::

    >>> x = torch.tensor([[1, 2], [3, 4]])
    >>> x.resize_(4)
    tensor([1, 2, 3, 4])
""",
    "resize_as": """\
resize_as(tensor) -> Tensor

Deprecated (with a warning): a copy of self resized to tensor's shape; use
reshape_as.
""",
    "resize_as_": """\
resize_as_(input, the_template, *, memory_format=None) -> Tensor

input.resize_as_(the_template): give input the template's shape in place.
""",
    "resolve_conj": """\
resolve_conj(input) -> Tensor

input itself, or a materialized copy when it is a lazily conjugated view
(see conj; nndb makes no lazy views, so input itself).
""",
    "resolve_neg": """\
resolve_neg(input) -> Tensor

input itself, or a materialized copy when it is a lazily negated view
(see is_neg; nndb makes none, so input itself).
""",
    "rnn_relu": """\
rnn_relu(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) -> Tuple[Tensor, ...]

The whole multi-layer Elman RNN with relu over a sequence, with its weights as
the flat list params: what nn.RNN computes (call the module). A second form
takes a packed sequence (input, batch_sizes, hx, params, ...).
""",
    "rnn_relu_cell": """\
rnn_relu_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor

One step of an Elman RNN cell with relu on input (batch, input_size) from state
hx, with the given weights: what nn.RNNCell computes (call the module).
""",
    "rnn_tanh": """\
rnn_tanh(input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first) -> Tuple[Tensor, ...]

The whole multi-layer Elman RNN with tanh over a sequence, with its weights as
the flat list params: what nn.RNN computes (call the module). A second form
takes a packed sequence (input, batch_sizes, hx, params, ...).
""",
    "rnn_tanh_cell": """\
rnn_tanh_cell(input, hx, w_ih, w_hh, b_ih=None, b_hh=None) -> Tensor

One step of an Elman RNN cell with tanh on input (batch, input_size) from state
hx, with the given weights: what nn.RNNCell computes (call the module).
""",
    "rot90": """\
rot90(input, k=1, dims=[0, 1]) -> Tensor

Rotate by 90 degrees k times in the plane of dims, from the first toward
the second (counterclockwise for a matrix printed as usual).

Example::

    >>> torch.rot90(torch.tensor([[1, 2], [3, 4]]))
    tensor([[2, 4],
            [1, 3]])
""",
    "round_": """\
round_(input, *, decimals=0) -> Tensor

In-place version of torch.round(): input is overwritten with the result,
which is returned.
""",
    "row_stack": """\
row_stack(tensors) -> Tensor

Alias for torch.vstack().
""",
    "rrelu": """\
rrelu(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None) -> Tensor

The same as torch.nn.functional.rrelu().
""",
    "rrelu_": """\
rrelu_(input, lower=0.125, upper=0.3333333333333333, training=False, generator=None) -> Tensor

In-place version of torch.rrelu(): input is overwritten with the result,
which is returned.
""",
    "rsqrt_": """\
rsqrt_(input) -> Tensor

In-place version of torch.rsqrt(): input is overwritten with the result,
which is returned.
""",
    "scalar_tensor": """\
scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False) -> Tensor

A 0-D tensor holding the number s, float32 unless dtype says otherwise
(torch.tensor(s) takes the dtype from s instead).

Example::

    >>> torch.scalar_tensor(3)
    tensor(3.)
""",
    "scatter_reduce": """\
scatter_reduce(input, dim, index, src, reduce, *, include_self=True) -> Tensor

A copy of input where each element of src is combined, along dim, into
the position index gives: reduce is 'sum', 'prod', 'mean', 'amax' or
'amin'. With include_self=False the values already in input at the
scattered positions are left out of the reduction. (A beta API in
PyTorch 1.13: it warns once.)

Example::

    >>> src = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> idx = torch.tensor([0, 1, 0, 1])
    >>> torch.scatter_reduce(torch.zeros(2), 0, idx, src, reduce='amax')
    tensor([3., 4.])
""",
    "scatter_reduce_": """\
scatter_reduce_(input, dim, index, src, reduce, *, include_self=True) -> Tensor

In-place version of torch.scatter_reduce(): input is overwritten with the
result, which is returned.
""",
    "searchsorted": """\
searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None) -> Tensor

For each value in input, the index where it would be inserted into
sorted_sequence to keep it sorted: the first such place (side='left', the
default) or the last (side='right', or right=True). sorted_sequence may be
N-D, searched along its last dimension with input's matching rows. sorter
gives the order that sorts an unsorted sequence (from argsort).

Example::

    >>> s = torch.tensor([1, 3, 5, 7])
    >>> torch.searchsorted(s, torch.tensor([3, 6, 9]))
    tensor([1, 3, 4])
    >>> torch.searchsorted(s, torch.tensor([3, 6, 9]), side='right')
    tensor([2, 3, 4])
""",
    "seed": """\
seed() -> int

Seed the default generator with a non-deterministic random number and
return it.
""",
    "segment_reduce": """\
segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None) -> Tensor

Reduce consecutive segments of data along axis: lengths gives each
segment's length (or offsets their bounds); reduce is 'sum', 'mean',
'max', 'min' or 'prod'. An empty segment gives initial. (A prototype API in
PyTorch.)

Example::

    >>> torch.segment_reduce(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]), 'sum', lengths=torch.tensor([2, 3]))
    tensor([ 3., 12.])
""",
    "select_copy": """\
select_copy(input, dim, index) -> Tensor

A copy of what torch.select() returns, in new memory: the same values, but
writing to the result does not change input (torch.select gives a view).
""",
    "select_scatter": """\
select_scatter(input, src, dim, index) -> Tensor

A copy of input with the slice input.select(dim, index) replaced by src
(the out-of-place x[:, index] = src).

Example::

    >>> torch.select_scatter(torch.zeros(2, 2), torch.tensor([1.0, 2.0]), 1, 0)
    tensor([[1., 0.],
            [2., 0.]])
""",
    "selu": """\
selu(input) -> Tensor

The same as torch.nn.functional.selu().
""",
    "selu_": """\
selu_(input) -> Tensor

In-place version of torch.selu(): input is overwritten with the result,
which is returned.
""",
    "set_deterministic_debug_mode": """\
set_deterministic_debug_mode(debug_mode) -> None

Set how nondeterministic operations are treated: 0 or 'default' (allowed),
1 or 'warn', 2 or 'error' (as use_deterministic_algorithms(True)).
""",
    "set_float32_matmul_precision": """\
set_float32_matmul_precision(precision) -> None

Allow float32 matrix products to trade precision for speed: 'highest'
(full float32), 'high' (TensorFloat32 on GPUs that have it) or 'medium'
(bfloat16).
""",
    "set_flush_denormal": """\
set_flush_denormal(mode) -> bool

Whether to flush denormal floats (tiny numbers below the normal range) to
zero, which speeds up some arithmetic. Returns True when the CPU supports
it.
""",
    "set_num_interop_threads": """\
set_num_interop_threads(num) -> None

Set the number of inter-op threads (see get_num_interop_threads); as in
PyTorch, only before any parallel work has started.
""",
    "set_rng_state": """\
set_rng_state(new_state) -> None

Restore the default generator's state from get_rng_state().
""",
    "sigmoid_": """\
sigmoid_(input) -> Tensor

In-place version of torch.sigmoid(): input is overwritten with the result,
which is returned.
""",
    "signbit": """\
signbit(input) -> Tensor

True where the sign bit of each element is set: negatives, and also
-0.0 (which x < 0 misses).

Example::

    >>> x = torch.tensor([-1.0, -0.0, 0.0, 2.0])
    >>> torch.signbit(x)
    tensor([ True,  True, False, False])
""",
    "sin_": """\
sin_(input) -> Tensor

In-place version of torch.sin(): input is overwritten with the result,
which is returned.
""",
    "sinc_": """\
sinc_(input) -> Tensor

In-place version of torch.sinc(): input is overwritten with the result,
which is returned.
""",
    "sinh_": """\
sinh_(input) -> Tensor

In-place version of torch.sinh(): input is overwritten with the result,
which is returned.
""",
    "slice_copy": """\
slice_copy(input, dim=0, start=None, end=None, step=1) -> Tensor

A copy of the slice start:end:step of input along dim, in new memory (the
slice x[start:end:step] itself is a view).
""",
    "slice_scatter": """\
slice_scatter(input, src, dim=0, start=None, end=None, step=1) -> Tensor

A copy of input with the slice start:end:step along dim replaced by src.
""",
    "slogdet": """\
slogdet(input) -> (Tensor sign, Tensor logabsdet)

The sign of the determinant and the log of its absolute value, as a named
tuple: stays finite where det over- or underflows.

Example::

    >>> torch.slogdet(torch.tensor([[0.0, 2.0], [3.0, 0.0]]))
    torch.return_types.slogdet(
    sign=tensor(-1.),
    logabsdet=tensor(1.7918))
""",
    "solve": """\
solve(input, A, *, out=None) -> (Tensor, Tensor)

Removed in PyTorch 1.9: raises RuntimeError. Use torch.linalg.solve(A, B)
(note the order: A first).
""",
    "split_copy": """\
split_copy(input, split_size, dim=0) -> List of Tensors

torch.split with each part a copy in new memory instead of a view.
""",
    "split_with_sizes": """\
split_with_sizes(input, split_sizes, dim=0) -> List of Tensors

Split input along dim into views of the given sizes (which must add up to
the size): split(input, split_sizes, dim).
""",
    "split_with_sizes_copy": """\
split_with_sizes_copy(input, split_sizes, dim=0) -> List of Tensors

torch.split_with_sizes with each part a copy in new memory instead of a view.
""",
    "sqrt_": """\
sqrt_(input) -> Tensor

In-place version of torch.sqrt(): input is overwritten with the result,
which is returned.
""",
    "square_": """\
square_(input) -> Tensor

In-place version of torch.square(): input is overwritten with the result,
which is returned.
""",
    "squeeze_copy": """\
squeeze_copy(input, dim=None) -> Tensor

A copy of what torch.squeeze() returns, in new memory: the same values, but
writing to the result does not change input (torch.squeeze gives a view).
""",
    "stft": """\
stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode='reflect', normalized=False, onesided=None, return_complex=None) -> Tensor

The short-time Fourier transform of a 1-D signal (or a batch (B, L)): the
FFT of overlapping frames of n_fft samples, hop_length apart (default
n_fft // 4), each multiplied by window (a tensor of win_length samples,
default n_fft; none means a rectangular window: pass
torch.hann_window(n_fft)). The result is complex, (n_fft // 2 + 1, frames)
for a real signal with onesided (the default). center pads the signal
by n_fft // 2 at both ends (pad_mode) so that frame t is centred on
t * hop_length. Pass return_complex=True: real input requires it to be
given (False, the old real (..., 2) layout, is deprecated).

Example::

    >>> x = torch.arange(8.0)
    >>> torch.stft(x, n_fft=4, hop_length=2, window=torch.ones(4), return_complex=True).shape
    torch.Size([3, 5])
""",
    "svd": """\
svd(input, some=True, compute_uv=True, *, out=None) -> (Tensor U, Tensor S, Tensor V)

The singular value decomposition input = U @ diag(S) @ V.T, as a named
tuple: note that V is returned, not V.T (torch.linalg.svd returns Vh =
V.T). S is sorted in decreasing order. some=True gives the reduced shapes;
compute_uv=False fills U and V with zeros.

Example::

    >>> torch.svd(torch.tensor([[3.0, 0.0], [0.0, -2.0]])).S
    tensor([3., 2.])
""",
    "svd_lowrank": """\
svd_lowrank(A, q=6, niter=2, M=None) -> (Tensor U, Tensor S, Tensor V)

An approximate truncated SVD, A ~ U @ diag(S) @ V.T with q singular values,
by a randomized method (fast for large matrices of low rank). niter power
iterations improve accuracy; M is subtracted from A first (a mean to
center by). Random: seed it for repeatable results.
""",
    "symeig": """\
symeig(input, eigenvectors=False, upper=True, *, out=None) -> (Tensor eigenvalues, Tensor eigenvectors)

Deprecated (with a warning): the eigenvalues, in increasing order, and
with eigenvectors=True the eigenvectors of a symmetric matrix, read from
its upper triangle (upper=True) or lower one. Use torch.linalg.eigh (or
eigvalsh), which reads the lower triangle by default.
""",
    "t_copy": """\
t_copy(input) -> Tensor

A copy of what torch.t() returns, in new memory: the same values, but
writing to the result does not change input (torch.t gives a view).

Example::

    >>> x = torch.arange(6).view(2, 3)
    >>> y = torch.t_copy(x)
    >>> y[0, 0] = 100
    >>> x[0, 0]
    tensor(0)
""",
    "take": """\
take(input, index) -> Tensor

The elements of input, seen as 1-D in row-major order, at the positions
index; the result has index's shape.

Example::

    >>> torch.take(torch.tensor([[1, 2], [3, 4]]), torch.tensor([0, 3]))
    tensor([1, 4])
""",
    "take_along_dim": """\
take_along_dim(input, indices, dim=None) -> Tensor

The elements of input at indices along dim, where indices has input's
number of dimensions (it broadcasts with input on the other ones): pairs
with argmax/argsort/topk results. Without dim, input is flattened.

Example::

    >>> x = torch.tensor([[10, 30, 20], [60, 40, 50]])
    >>> torch.take_along_dim(x, x.argsort(dim=1), dim=1)
    tensor([[10, 20, 30],
            [40, 50, 60]])
    >>> torch.take_along_dim(x, x.argmax(dim=1, keepdim=True), dim=1)
    tensor([[30],
            [60]])
""",
    "tan_": """\
tan_(input) -> Tensor

In-place version of torch.tan(): input is overwritten with the result,
which is returned.
""",
    "tanh_": """\
tanh_(input) -> Tensor

In-place version of torch.tanh(): input is overwritten with the result,
which is returned.
""",
    "tensor_split": """\
tensor_split(input, indices_or_sections, dim=0) -> List of Tensors

Split input along dim into views. An int n gives n parts as equal as
possible (the first ones one longer when the size is not divisible,
unlike split, which takes a part size); a list of indices splits before
each index.

Example::

    >>> x = torch.arange(7)
    >>> torch.tensor_split(x, 3)
    (tensor([0, 1, 2]), tensor([3, 4]), tensor([5, 6]))
    >>> torch.tensor_split(x, [1, 5])
    (tensor([0]), tensor([1, 2, 3, 4]), tensor([5, 6]))
""",
    "tensordot": """\
tensordot(a, b, dims=2, out=None) -> Tensor

Sum the products of a and b over several dimensions at once: dims=n
contracts the last n dimensions of a with the first n of b; dims=([da...],
[db...]) names the pairs. tensordot(a, b, 1) of matrices is a @ b.

Example::

    >>> a = torch.arange(6.0).view(2, 3)
    >>> b = torch.ones(3, 2)
    >>> torch.tensordot(a, b, dims=1)
    tensor([[ 3.,  3.],
            [12., 12.]])
    >>> torch.tensordot(a, a, dims=([0, 1], [0, 1]))
    tensor(55.)
""",
    "threshold": """\
threshold(input, threshold, value) -> Tensor

The same as torch.nn.functional.threshold().
""",
    "threshold_": """\
threshold_(input, threshold, value) -> Tensor

In-place version of torch.threshold(): input is overwritten with the result,
which is returned.
""",
    "to_dense": """\
to_dense(dtype=None) -> Tensor

A strided (ordinary) copy of a sparse tensor; an ordinary tensor is
returned as it is.

Example::

    >>> torch.tensor([1.0, 2.0]).to_dense()
    tensor([1., 2.])
""",
    "transpose_copy": """\
transpose_copy(input, dim0, dim1) -> Tensor

A copy of what torch.transpose() returns, in new memory: the same values, but
writing to the result does not change input (torch.transpose gives a view).

Example::

    >>> x = torch.arange(6).view(2, 3)
    >>> y = torch.transpose_copy(x, 0, 1)
    >>> y[0, 0] = 100
    >>> x[0, 0]
    tensor(0)
""",
    "trapezoid": """\
trapezoid(y, x=None, *, dx=None, dim=-1) -> Tensor

The integral of y along dim by the trapezoidal rule: the sum of
(y[i] + y[i + 1]) / 2 times the spacing, which is x[i + 1] - x[i] when the
sample points x are given, else dx (default 1).

Example::

    >>> y = torch.tensor([1.0, 2.0, 3.0])
    >>> torch.trapezoid(y)
    tensor(4.)
    >>> torch.trapezoid(y, x=torch.tensor([0.0, 1.0, 3.0]))
    tensor(6.5000)
""",
    "trapz": """\
trapz(y, x=None, *, dx=None, dim=-1) -> Tensor

Alias for torch.trapezoid().
""",
    "triangular_solve": """\
triangular_solve(b, A, upper=True, transpose=False, unitriangular=False, *, out=None) -> (Tensor solution, Tensor cloned_coefficient)

Solve A @ X = b for a triangular A (upper, or lower with upper=False;
transpose solves A.T @ X = b; unitriangular takes A's diagonal as 1s).
Note the order: b first. Returns a named tuple (solution, a copy of A).
PyTorch 1.13 deprecates it (with a warning) in favor of
torch.linalg.solve_triangular.

Example::

    >>> A = torch.tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> torch.triangular_solve(torch.tensor([[4.0], [8.0]]), A).solution
    tensor([[1.],
            [2.]])
""",
    "tril_indices": """\
tril_indices(row, col, offset=0, *, dtype=torch.int64, device=None, layout=None) -> Tensor

The coordinates of the lower triangle of a row x col matrix (on and below
the diagonal; offset moves it, as in tril), as a (2, N) tensor: row indices
then column indices.

Example::

    >>> torch.tril_indices(3, 3)
    tensor([[0, 1, 1, 2, 2, 2],
            [0, 0, 1, 0, 1, 2]])
""",
    "triplet_margin_loss": """\
triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-06, swap=False, reduction=1) -> Tensor

The ATen spelling of torch.nn.functional.triplet_margin_loss(), which is what
code should call: reduction is an int here: 0 'none', 1 'mean', 2 'sum'.
""",
    "triu_indices": """\
triu_indices(row, col, offset=0, *, dtype=torch.int64, device=None, layout=None) -> Tensor

The coordinates of the upper triangle of a row x col matrix (on and above
the diagonal; offset=1 leaves out the diagonal), as a (2, N) tensor.

Example::

    >>> torch.triu_indices(3, 3, offset=1)
    tensor([[0, 0, 1],
            [1, 2, 2]])
""",
    "trunc_": """\
trunc_(input) -> Tensor

In-place version of torch.trunc(): input is overwritten with the result,
which is returned.
""",
    "typename": """\
typename(obj) -> str

The type name of obj as PyTorch spells it: 'torch.FloatTensor' for a
float32 tensor, the class's qualified name otherwise.

Example::

    >>> torch.typename(torch.zeros(2)), torch.typename(torch.zeros(2, dtype=torch.int64))
    ('torch.FloatTensor', 'torch.LongTensor')
""",
    "unbind_copy": """\
unbind_copy(input, dim=0) -> List of Tensors

torch.unbind with each part a copy in new memory instead of a view.
""",
    "unfold_copy": """\
unfold_copy(input, dimension, size, step) -> Tensor

A copy of what torch.Tensor.unfold() returns, in new memory: the same values,
but writing to the result does not change input (torch.Tensor.unfold gives a
view).
""",
    "unsafe_chunk": """\
unsafe_chunk(input, chunks, dim=0) -> List of Tensors

torch.chunk without the autograd checks on in-place changes to the parts;
use chunk.
""",
    "unsafe_split": """\
unsafe_split(input, split_size, dim=0) -> List of Tensors

torch.split without the autograd checks on in-place changes to the parts;
use split.
""",
    "unsafe_split_with_sizes": """\
unsafe_split_with_sizes(input, split_sizes, dim=0) -> List of Tensors

split_with_sizes without the autograd checks on in-place changes to the
parts; use split.
""",
    "unsqueeze_copy": """\
unsqueeze_copy(input, dim) -> Tensor

A copy of what torch.unsqueeze() returns, in new memory: the same values, but
writing to the result does not change input (torch.unsqueeze gives a view).
""",
    "vdot": """\
vdot(input, other) -> Tensor

The dot product of two 1-D tensors, with the first conjugated when complex
(dot for real tensors).

Example::

    >>> torch.vdot(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))
    tensor(11.)
""",
    "view_as_complex": """\
view_as_complex(input) -> Tensor

A complex view of a float tensor whose last dimension has size 2 (real,
imaginary): shape (..., 2) becomes (...,). The last dimension must have
stride 1.

Example::

    >>> torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -1.0]]))
    tensor([1.+2.j, 3.-1.j])
""",
    "view_as_complex_copy": """\
view_as_complex_copy(input) -> Tensor

A copy of what torch.view_as_complex() returns, in new memory: the same values,
but writing to the result does not change input (torch.view_as_complex gives a
view).
""",
    "view_as_real": """\
view_as_real(input) -> Tensor

A float view of a complex tensor with a last dimension of size 2 (real,
imaginary): shape (...,) becomes (..., 2).

Example::

    >>> torch.view_as_real(torch.tensor([1 + 2j, 3 - 1j]))
    tensor([[ 1.,  2.],
            [ 3., -1.]])
""",
    "view_as_real_copy": """\
view_as_real_copy(input) -> Tensor

A copy of what torch.view_as_real() returns, in new memory: the same values,
but writing to the result does not change input (torch.view_as_real gives a
view).
""",
    "view_copy": """\
view_copy(input, size) -> Tensor

A copy of what torch.view() returns, in new memory: the same values, but
writing to the result does not change input (torch.view gives a view).

Example::

    >>> x = torch.arange(6).view(2, 3)
    >>> y = torch.view_copy(x, (3, 2))
    >>> y[0, 0] = 100
    >>> x[0, 0]
    tensor(0)
""",
    "vsplit": """\
vsplit(input, indices_or_sections) -> List of Tensors

Split vertically: tensor_split along dim 0 of a tensor with at least 2
dimensions. An int must divide the size evenly.

Example::

    >>> torch.vsplit(torch.arange(8).view(4, 2), [1])
    (tensor([[0, 1]]), tensor([[2, 3],
            [4, 5],
            [6, 7]]))
""",
    "xlogy_": """\
xlogy_(input, other) -> Tensor

In-place version of torch.xlogy(): input is overwritten with the result,
which is returned.
""",
    "zero_": """\
zero_(input) -> Tensor

Set every element of input to 0, in place; returns input (input.zero_()).
""",
}


# name -> docstring of torch.linalg's functions (written in Python, in
# python/torch/linalg/), set by attach_python as PY_DOCS are.
LINALG_DOCS = {
    "cholesky": """\
cholesky(A, *, upper=False, out=None) -> Tensor

The Cholesky factor of a symmetric (Hermitian) positive-definite matrix:
lower-triangular L with A = L @ L.T (or upper U = L.T with upper=True).
Raises when A is not positive definite.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.cholesky(A)
    tensor([[2.0000, 0.0000],
            [1.0000, 1.4142]])
""",
    "cholesky_ex": """\
cholesky_ex(A, *, upper=False, check_errors=False, out=None) -> (Tensor L, Tensor info)

cholesky() that also returns info, LAPACK's status per matrix (0: success),
instead of raising; check_errors=True raises as cholesky does.
""",
    "cond": """\
cond(A, p=None, *, out=None) -> Tensor

The condition number of A in the p-norm: norm(A) * norm(inv(A)); for
p=None (2) the largest over the smallest singular value. Large values
mean solving with A loses precision.

Example::

    >>> torch.linalg.cond(torch.tensor([[1.0, 0.0], [0.0, 0.01]]))
    tensor(100.)
""",
    "cross": """\
cross(input, other, *, dim=-1, out=None) -> Tensor

The cross product of 3-vectors along dim (the last by default), input and
other broadcast.

Example::

    >>> torch.linalg.cross(torch.tensor([1.0, 0.0, 0.0]), torch.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.])
""",
    "det": """\
det(A, *, out=None) -> Tensor

The determinant of a square matrix, or of each in a batch (..., n, n).

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.det(A)
    tensor(8.)
""",
    "diagonal": """\
diagonal(A, *, offset=0, dim1=-2, dim2=-1) -> Tensor

The diagonals of the matrices in the last two dimensions, as a view:
torch.diagonal with the matrix dimensions last by default.

Example::

    >>> torch.linalg.diagonal(torch.tensor([[1, 2], [3, 4]]))
    tensor([1, 4])
""",
    "eig": """\
eig(A, *, out=None) -> (Tensor eigenvalues, Tensor eigenvectors)

The eigenvalues and eigenvectors (columns) of a general square matrix, as
a named tuple, both complex even for a real matrix. nndb does not provide
it yet for real matrices: it raises RuntimeError. For a symmetric matrix
use eigh, whose results are real.
""",
    "eigh": """\
eigh(A, UPLO='L', *, out=None) -> (Tensor eigenvalues, Tensor eigenvectors)

The eigenvalues (real, in ascending order) and eigenvectors (the columns)
of a symmetric (Hermitian) matrix, as a named tuple: A = Q @ diag(L) @ Q.T.
Only the lower triangle is read (UPLO='U': the upper). Eigenvectors are
defined up to sign. For a general matrix use eig.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.eigh(A).eigenvalues
    tensor([1.4384, 5.5616])
""",
    "eigvals": """\
eigvals(A, *, out=None) -> Tensor

The (complex) eigenvalues of a general square matrix: eig without the
eigenvectors. nndb does not provide it yet for real matrices (it raises
RuntimeError); eigvalsh gives those of a symmetric one.
""",
    "eigvalsh": """\
eigvalsh(A, UPLO='L', *, out=None) -> Tensor

The eigenvalues of a symmetric (Hermitian) matrix, real and ascending (eigh
without the eigenvectors).

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.eigvalsh(A)
    tensor([1.4384, 5.5616])
""",
    "householder_product": """\
householder_product(A, tau, *, out=None) -> Tensor

The product of the Householder reflectors stored in A's columns below the
diagonal with scales tau (the compact form of torch.geqrf): the Q of a QR
decomposition.
""",
    "inv": """\
inv(A, *, out=None) -> Tensor

The inverse of a square invertible matrix (or batch); raises for a
singular one. To solve A @ X = B, torch.linalg.solve(A, B) is faster and
more accurate than inv(A) @ B.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.inv(A)
    tensor([[ 0.3750, -0.2500],
            [-0.2500,  0.5000]])
""",
    "inv_ex": """\
inv_ex(A, *, check_errors=False, out=None) -> (Tensor inverse, Tensor info)

inv() that also returns info, LAPACK's status per matrix (0: success),
instead of raising; check_errors=True raises as inv does.
""",
    "ldl_factor": """\
ldl_factor(A, *, hermitian=False, out=None) -> (Tensor LD, Tensor pivots)

The LDL decomposition of a symmetric (or Hermitian, with hermitian=True)
matrix in LAPACK's compact form (sytrf), for ldl_solve.
""",
    "ldl_factor_ex": """\
ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None) -> (Tensor LD, Tensor pivots, Tensor info)

ldl_factor() that also returns info, LAPACK's status per matrix (0: success),
instead of raising; check_errors=True raises as ldl_factor does.
""",
    "ldl_solve": """\
ldl_solve(LD, pivots, B, *, hermitian=False, out=None) -> Tensor

Solve A @ X = B given A's compact LDL decomposition from ldl_factor.
""",
    "lstsq": """\
lstsq(A, B, rcond=None, *, driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)

The least-squares solution X of A @ X = B for A (m, n), B (m, k): the X
minimizing ||A @ X - B||, as a named tuple whose solution is (n, k)
(linear regression: A the design matrix). rcond and driver choose how
rank deficiency is handled ('gelsy' by default on the CPU); residuals,
rank and singular_values are filled only by some drivers.

Example::

    >>> A = torch.tensor([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> B = torch.tensor([[1.0], [2.0], [2.0]])
    >>> torch.linalg.lstsq(A, B).solution
    tensor([[1.1667],
            [0.5000]])
""",
    "lu": """\
lu(A, *, pivot=True, out=None) -> (Tensor P, Tensor L, Tensor U)

The LU decomposition with partial pivoting, A = P @ L @ U, as a named
tuple: P a permutation matrix, L unit lower-triangular, U upper-triangular.

Example::

    >>> A = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> P, L, U = torch.linalg.lu(A)
    >>> L, U
    (tensor([[1.0000, 0.0000],
            [0.3333, 1.0000]]), tensor([[3.0000, 4.0000],
            [0.0000, 0.6667]]))
""",
    "lu_factor": """\
lu_factor(A, *, pivot=True, out=None) -> (Tensor LU, Tensor pivots)

The LU decomposition in compact form: L (unit diagonal not stored) and U in
one matrix, and LAPACK's 1-based row pivots; lu_solve takes them, and
torch.lu_unpack gives P, L, U.

Example::

    >>> torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
    tensor([2, 2], dtype=torch.int32)
""",
    "lu_factor_ex": """\
lu_factor_ex(A, *, pivot=True, check_errors=False, out=None) -> (Tensor LU, Tensor pivots, Tensor info)

lu_factor() that also returns info, LAPACK's status per matrix (0: success),
instead of raising; check_errors=True raises as lu_factor does.
""",
    "lu_solve": """\
lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None) -> Tensor

Solve A @ X = B given A's compact LU decomposition from lu_factor (several
right-hand sides can reuse one factorization). left=False solves
X @ A = B; adjoint=True solves with A's (conjugate) transpose.

Example::

    >>> LU, piv = torch.linalg.lu_factor(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> torch.linalg.lu_solve(LU, piv, torch.tensor([[5.0], [11.0]]))
    tensor([[1.],
            [2.]])
""",
    "matmul": """\
matmul(input, other, *, out=None) -> Tensor

Alias for torch.matmul().
""",
    "matrix_exp": """\
matrix_exp(A) -> Tensor

The matrix exponential of a square matrix (or batch): the sum of A**k / k!
(not the exponential of each element).

Example::

    >>> torch.linalg.matrix_exp(torch.tensor([[0.0, 1.0], [0.0, 0.0]]))
    tensor([[1., 1.],
            [0., 1.]])
""",
    "matrix_norm": """\
matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None, out=None) -> Tensor

The matrix norm of A (or of each matrix of a batch, in the two dims): 'fro'
(the square root of the sum of squares), 'nuc' (the sum of singular
values), 2 / -2 (the largest / smallest singular value), 1 / -1 (the
largest / smallest column sum of |A|), inf / -inf (row sums).

Example::

    >>> M = torch.tensor([[1.0, -2.0], [3.0, 4.0]])
    >>> torch.linalg.matrix_norm(M)
    tensor(5.4772)
    >>> torch.linalg.matrix_norm(M, ord=1)
    tensor(6.)
""",
    "matrix_power": """\
matrix_power(A, n, *, out=None) -> Tensor

The square matrix A multiplied by itself n times (n = 0: the identity;
negative n: powers of the inverse).

Example::

    >>> torch.linalg.matrix_power(torch.tensor([[1, 1], [0, 1]]), 3)
    tensor([[1, 3],
            [0, 1]])
""",
    "matrix_rank": """\
matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None) -> Tensor

The numerical rank of A: the number of singular values above a tolerance,
max(atol, rtol * the largest singular value) (rtol defaults to eps times
max(m, n) when neither is given). hermitian=True uses eigenvalues of a
symmetric A instead.

Example::

    >>> torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
    tensor(1)
""",
    "multi_dot": """\
multi_dot(tensors, *, out=None) -> Tensor

The product of a list of matrices (the first and last may be 1-D), computed
in the order that costs the fewest multiplications.

Example::

    >>> torch.linalg.multi_dot([torch.ones(1, 3), torch.ones(3, 2), torch.ones(2)])
    tensor([6.])
""",
    "norm": """\
norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None) -> Tensor

A vector or matrix norm. With dim an int (or A 1-D and dim None) it is a
vector norm (vector_norm); with dim a pair (or A 2-D and dim None) a matrix
norm (matrix_norm); with both None and ord None, the 2-norm of A
flattened. ord: for vectors a number (2 the Euclidean length, 1 the sum of
absolute values, inf the largest, 0 the count of nonzeros); for matrices
'fro' (default), 'nuc', 2 (largest singular value), 1, -1, inf, -inf.

Example::

    >>> x = torch.tensor([[3.0, 4.0], [0.0, 1.0]])
    >>> torch.linalg.norm(x)
    tensor(5.0990)
    >>> torch.linalg.norm(x, dim=1)
    tensor([5., 1.])
    >>> torch.linalg.norm(x, ord=1, dim=1)
    tensor([7., 1.])
""",
    "pinv": """\
pinv(A, *, atol=None, rtol=None, hermitian=False, out=None, rcond=None) -> Tensor

The Moore-Penrose pseudo-inverse of A (m, n), of shape (n, m), from its
SVD, with singular values below max(atol, rtol * the largest) treated as
zero; pinv(A) @ b is the least-squares solution of A @ x = b.
hermitian=True for a symmetric A. rcond is the older name of rtol.

Example::

    >>> torch.linalg.pinv(torch.tensor([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]]))
    tensor([[1.0000, 0.0000, 0.0000],
            [0.0000, 0.5000, 0.0000]])
""",
    "qr": """\
qr(A, mode='reduced', *, out=None) -> (Tensor Q, Tensor R)

The QR decomposition A = Q @ R, Q with orthonormal columns and R
upper-triangular, as a named tuple. mode: 'reduced' (Q (m, k), R (k, n),
k = min(m, n)), 'complete' (Q (m, m)) or 'r' (R only; Q empty).

Example::

    >>> Q, R = torch.linalg.qr(torch.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> R
    tensor([[-5.0000, -2.2000],
            [ 0.0000,  0.4000]])
""",
    "slogdet": """\
slogdet(A, *, out=None) -> (Tensor sign, Tensor logabsdet)

The sign of the determinant and the log of its absolute value, as a named
tuple: finite where det itself would over- or underflow.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.slogdet(A)
    torch.return_types.linalg_slogdet(
    sign=tensor(1.),
    logabsdet=tensor(2.0794))
""",
    "solve": """\
solve(A, B, *, left=True, out=None) -> Tensor

The solution X of A @ X = B for a square invertible A (or batch), B of
shape (..., n, k) or (..., n); with left=False, of X @ A = B.

Example::

    >>> A = torch.tensor([[4.0, 2.0], [2.0, 3.0]])
    >>> torch.linalg.solve(A, torch.tensor([8.0, 7.0]))
    tensor([1.2500, 1.5000])
""",
    "solve_ex": """\
solve_ex(A, B, *, left=True, check_errors=False, out=None) -> (Tensor result, Tensor info)

solve() that also returns info, LAPACK's status per matrix (0: success),
instead of raising; check_errors=True raises as solve does.
""",
    "solve_triangular": """\
solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None) -> Tensor

The solution X of A @ X = B for a triangular A (upper says which triangle
is used; the other is ignored), or of X @ A = B with left=False.
unitriangular takes A's diagonal as 1s.

Example::

    >>> A = torch.tensor([[2.0, 1.0], [0.0, 4.0]])
    >>> torch.linalg.solve_triangular(A, torch.tensor([[4.0], [8.0]]), upper=True)
    tensor([[1.],
            [2.]])
""",
    "svd": """\
svd(A, full_matrices=True, *, driver=None, out=None) -> (Tensor U, Tensor S, Tensor Vh)

The singular value decomposition A = U @ diag(S) @ Vh, as a named tuple;
S is sorted in decreasing order. Note that Vh is returned (torch.svd
returns V = Vh.T). full_matrices=False gives the reduced shapes, U (m, k)
and Vh (k, n) with k = min(m, n) (what you usually want). Singular vectors
are defined up to sign.

Example::

    >>> A = torch.tensor([[3.0, 0.0], [0.0, -2.0], [0.0, 0.0]])
    >>> U, S, Vh = torch.linalg.svd(A, full_matrices=False)
    >>> S
    tensor([3., 2.])
    >>> U.shape, Vh.shape
    (torch.Size([3, 2]), torch.Size([2, 2]))
""",
    "svdvals": """\
svdvals(A, *, driver=None, out=None) -> Tensor

The singular values of A in decreasing order (svd without the vectors).

Example::

    >>> torch.linalg.svdvals(torch.tensor([[3.0, 0.0], [0.0, -2.0]]))
    tensor([3., 2.])
""",
    "tensorinv": """\
tensorinv(A, ind=2, *, out=None) -> Tensor

The inverse of A seen as a linear map from its last dimensions to its first
ind ones (prod of A.shape[:ind] must equal prod of the rest); the result
has shape A.shape[ind:] + A.shape[:ind].

Example::

    >>> torch.linalg.tensorinv(torch.eye(4).reshape(4, 2, 2), ind=1).shape
    torch.Size([2, 2, 4])
""",
    "tensorsolve": """\
tensorsolve(A, B, dims=None, *, out=None) -> Tensor

The X with tensordot(A, X, X.ndim) = B: the tensor version of solve, X of
shape A.shape[B.ndim:]. dims moves those dimensions of A to the end first.

Example::

    >>> torch.linalg.tensorsolve(2 * torch.eye(4).reshape(2, 2, 4), torch.ones(2, 2))
    tensor([0.5000, 0.5000, 0.5000, 0.5000])
""",
    "vander": """\
vander(x, N=None) -> Tensor

The Vandermonde matrix of x (..., n): columns x ** 0, x ** 1, ...,
x ** (N - 1) (N defaults to n), increasing, unlike torch.vander.

Example::

    >>> torch.linalg.vander(torch.tensor([1, 2, 3]))
    tensor([[1, 1, 1],
            [1, 2, 4],
            [1, 3, 9]])
""",
    "vecdot": """\
vecdot(x, y, *, dim=-1, out=None) -> Tensor

The dot product of x and y along dim (broadcast), the first conjugated
when complex: (x.conj() * y).sum(dim).

Example::

    >>> torch.linalg.vecdot(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, 1.0]))
    tensor([3., 7.])
""",
    "vector_norm": """\
vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None) -> Tensor

The vector ord-norm of x, over all elements (dim None) or along dim (an
int or tuple): (sum |x| ** ord) ** (1 / ord); inf the largest |x|, -inf
the smallest, 0 the number of nonzeros. Matrices are treated as flat
vectors.

Example::

    >>> torch.linalg.vector_norm(torch.tensor([[3.0, 4.0], [0.0, 0.0]]))
    tensor(5.)
    >>> torch.linalg.vector_norm(torch.tensor([3.0, -4.0]), ord=float('inf'))
    tensor(4.)
""",
}


# name -> docstring of torch.fft's functions (written in Python), set by
# attach_python as PY_DOCS are.
FFT_DOCS = {
    "fft": """\
fft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The discrete Fourier transform of input along dim: complex, the same
length (n). n pads with zeros or trims input
along dim to that length first. ifft inverts it.

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).

Example::

    >>> x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> torch.fft.fft(x)
    tensor([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
""",
    "fft2": """\
fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

fft over the last two dimensions (or the two in dim): fftn with two
dimensions. s gives the sizes to pad or trim them to.

Example::

    >>> torch.fft.fft2(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[10.+0.j, -2.+0.j],
            [-4.+0.j,  0.+0.j]])
""",
    "fftfreq": """\
fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor

The frequencies of the n values fft returns, for samples d apart: 0, 1,
..., then the negative ones, all divided by n * d.

Example::

    >>> torch.fft.fftfreq(4)
    tensor([ 0.0000,  0.2500, -0.5000, -0.2500])
""",
    "fftn": """\
fftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

fft over several dimensions: all of them by default, or dim; s the
sizes to pad or trim them to.
""",
    "fftshift": """\
fftshift(input, dim=None) -> Tensor

Roll the zero frequency to the middle of each dimension in dim (all by
default), for plotting a spectrum with negative frequencies on the left.

Example::

    >>> torch.fft.fftshift(torch.fft.fftfreq(4))
    tensor([-0.5000, -0.2500,  0.0000,  0.2500])
""",
    "hfft": """\
hfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The Fourier transform of a Hermitian-symmetric signal (one whose
transform is real) given by its first half: the real output has length n
(default 2 * (input.size(dim) - 1)). ihfft inverts it.

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).
""",
    "hfft2": """\
hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

hfft over the last two dimensions (or the two in dim): hfftn with two
dimensions. s gives the sizes to pad or trim them to.
""",
    "hfftn": """\
hfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

hfft over several dimensions: all of them by default, or dim; s the
sizes to pad or trim them to.
""",
    "ifft": """\
ifft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The inverse discrete Fourier transform along dim (complex). n pads with zeros
or trims input along dim to that length first. ifft(fft(x)) gives x back.

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).

Example::

    >>> x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> torch.fft.ifft(torch.fft.fft(x))
    tensor([1.+0.j, 2.+0.j, 3.+0.j, 4.+0.j])
""",
    "ifft2": """\
ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

ifft over the last two dimensions (or the two in dim): ifftn with two
dimensions. s gives the sizes to pad or trim them to.
""",
    "ifftn": """\
ifftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

ifft over several dimensions: all of them by default, or dim; s the
sizes to pad or trim them to.
""",
    "ifftshift": """\
ifftshift(input, dim=None) -> Tensor

The inverse of fftshift.

Example::

    >>> torch.fft.ifftshift(torch.fft.fftshift(torch.fft.fftfreq(5)))
    tensor([ 0.0000,  0.2000,  0.4000, -0.4000, -0.2000])
""",
    "ihfft": """\
ihfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The inverse of hfft: from a real signal, the first n // 2 + 1 values of
its inverse transform. n pads with zeros or trims input
along dim to that length first.

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).
""",
    "ihfft2": """\
ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

ihfft over the last two dimensions (or the two in dim): ihfftn with two
dimensions. s gives the sizes to pad or trim them to.
""",
    "ihfftn": """\
ihfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

ihfft over several dimensions: all of them by default, or dim; s the
sizes to pad or trim them to.
""",
    "irfft": """\
irfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The inverse of rfft: a real signal from its n // 2 + 1 non-negative
frequencies; give n (the original length) to get an odd length back (n is the
output's length).

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).

Example::

    >>> x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> torch.fft.irfft(torch.fft.rfft(x), n=4)
    tensor([1., 2., 3., 4.])
""",
    "irfft2": """\
irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

irfft over the last two dimensions (or the two in dim): irfftn with two
dimensions. s gives the sizes to pad or trim them to.
""",
    "irfftn": """\
irfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

irfft over several dimensions: all of them by default, or dim; s the
sizes to pad or trim them to.
""",
    "rfft": """\
rfft(input, n=None, dim=-1, norm=None, *, out=None) -> Tensor

The Fourier transform of a real input along dim, keeping only the n // 2 + 1
non-negative frequencies (the others are their conjugates). n pads with zeros
or trims input along dim to that length first. irfft inverts it.

norm picks the scaling: 'backward' (the default: none forward, 1/n on the
inverse), 'forward' (1/n forward) or 'ortho' (1/sqrt(n) both ways).

Example::

    >>> x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    >>> torch.fft.rfft(x)
    tensor([10.+0.j, -2.+2.j, -2.+0.j])
""",
    "rfft2": """\
rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None) -> Tensor

rfft over the last two dimensions (or the two in dim): rfftn with two
dimensions. s gives the sizes to pad or trim them to.
""",
    "rfftfreq": """\
rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False) -> Tensor

The frequencies of the n // 2 + 1 values rfft returns, for n samples d
apart.

Example::

    >>> torch.fft.rfftfreq(4)
    tensor([0.0000, 0.2500, 0.5000])
""",
    "rfftn": """\
rfftn(input, s=None, dim=None, norm=None, *, out=None) -> Tensor

rfft (the last dimension halved) over several dimensions: all of them by
default, or dim; s the sizes to pad or trim them to.
""",
}


# name -> docstring of torch.special's functions (written in Python), set by
# attach_python as PY_DOCS are.
SPECIAL_DOCS = {
    "airy_ai": """\
airy_ai(input, *, out=None) -> Tensor

The Airy function Ai of each element.

Example::

    >>> torch.special.airy_ai(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.2317, 0.1353, 0.0349])
""",
    "bessel_j0": """\
bessel_j0(input, *, out=None) -> Tensor

The Bessel function of the first kind of order 0.

Example::

    >>> torch.special.bessel_j0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.9385, 0.7652, 0.2239])
""",
    "bessel_j1": """\
bessel_j1(input, *, out=None) -> Tensor

The Bessel function of the first kind of order 1.

Example::

    >>> torch.special.bessel_j1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.2423, 0.4401, 0.5767])
""",
    "bessel_y0": """\
bessel_y0(input, *, out=None) -> Tensor

The Bessel function of the second kind of order 0.

Example::

    >>> torch.special.bessel_y0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([-0.4445,  0.0883,  0.5104])
""",
    "bessel_y1": """\
bessel_y1(input, *, out=None) -> Tensor

The Bessel function of the second kind of order 1.

Example::

    >>> torch.special.bessel_y1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([-1.4715, -0.7812, -0.1070])
""",
    "chebyshev_polynomial_t": """\
chebyshev_polynomial_t(input, n, *, out=None) -> Tensor

The Chebyshev polynomial of the first kind T_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.chebyshev_polynomial_t(torch.tensor([0.5, 1.0]), 2)
    tensor([-0.5000,  1.0000])
""",
    "chebyshev_polynomial_u": """\
chebyshev_polynomial_u(input, n, *, out=None) -> Tensor

The Chebyshev polynomial of the second kind U_n, of degree n, at each element
of input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.chebyshev_polynomial_u(torch.tensor([0.5, 1.0]), 2)
    tensor([0., 3.])
""",
    "chebyshev_polynomial_v": """\
chebyshev_polynomial_v(input, n, *, out=None) -> Tensor

The Chebyshev polynomial of the third kind V_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.chebyshev_polynomial_v(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  1.])
""",
    "chebyshev_polynomial_w": """\
chebyshev_polynomial_w(input, n, *, out=None) -> Tensor

The Chebyshev polynomial of the fourth kind W_n, of degree n, at each element
of input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.chebyshev_polynomial_w(torch.tensor([0.5, 1.0]), 2)
    tensor([1., 5.])
""",
    "digamma": """\
psi(input, *, out=None) -> Tensor

Alias for torch.digamma(); torch.special.digamma is the same function.
""",
    "entr": """\
entr(input, *, out=None) -> Tensor

The entropy term -x * log(x) of each element: 0 at 0, -inf below 0.

Example::

    >>> torch.special.entr(torch.tensor([0.0, 0.5, 1.0]))
    tensor([0.0000, 0.3466, -0.0000])
""",
    "erf": """\
erf(input, *, out=None) -> Tensor

Alias for torch.erf().
""",
    "erfc": """\
erfc(input, *, out=None) -> Tensor

Alias for torch.erfc().
""",
    "erfcx": """\
erfcx(input, *, out=None) -> Tensor

The scaled complementary error function exp(x**2) * erfc(x), accurate
for large x where erfc underflows.

Example::

    >>> torch.special.erfcx(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.6157, 0.4276, 0.2554])
""",
    "erfinv": """\
erfinv(input, *, out=None) -> Tensor

Alias for torch.erfinv().
""",
    "exp2": """\
exp2(input, *, out=None) -> Tensor

Alias for torch.exp2().
""",
    "expit": """\
expit(input, *, out=None) -> Tensor

Alias for torch.sigmoid().
""",
    "expm1": """\
expm1(input, *, out=None) -> Tensor

Alias for torch.expm1().
""",
    "gammainc": """\
gammainc(input, other, *, out=None) -> Tensor

Alias for torch.igamma().
""",
    "gammaincc": """\
gammaincc(input, other, *, out=None) -> Tensor

Alias for torch.igammac().
""",
    "gammaln": """\
gammaln(input, *, out=None) -> Tensor

Alias for torch.lgamma().
""",
    "hermite_polynomial_h": """\
hermite_polynomial_h(input, n, *, out=None) -> Tensor

The physicists' Hermite polynomial H_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.hermite_polynomial_h(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  2.])
""",
    "hermite_polynomial_he": """\
hermite_polynomial_he(input, n, *, out=None) -> Tensor

The probabilists' Hermite polynomial He_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.hermite_polynomial_he(torch.tensor([0.5, 1.0]), 2)
    tensor([-0.7500,  0.0000])
""",
    "i0": """\
i0(input, *, out=None) -> Tensor

Alias for torch.i0().
""",
    "i0e": """\
i0e(input, *, out=None) -> Tensor

The exponentially scaled modified Bessel function of order 0:
exp(-|x|) * i0(x).

Example::

    >>> torch.special.i0e(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.6450, 0.4658, 0.3085])
""",
    "i1": """\
i1(input, *, out=None) -> Tensor

The modified Bessel function of the first kind of order 1.

Example::

    >>> torch.special.i1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.2579, 0.5652, 1.5906])
""",
    "i1e": """\
i1e(input, *, out=None) -> Tensor

The exponentially scaled modified Bessel function of order 1:
exp(-|x|) * i1(x).

Example::

    >>> torch.special.i1e(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.1564, 0.2079, 0.2153])
""",
    "laguerre_polynomial_l": """\
laguerre_polynomial_l(input, n, *, out=None) -> Tensor

The Laguerre polynomial L_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.laguerre_polynomial_l(torch.tensor([0.5, 1.0]), 2)
    tensor([ 0.1250, -0.5000])
""",
    "legendre_polynomial_p": """\
legendre_polynomial_p(input, n, *, out=None) -> Tensor

The Legendre polynomial P_n, of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.legendre_polynomial_p(torch.tensor([0.5, 1.0]), 2)
    tensor([-0.1250,  1.0000])
""",
    "log1p": """\
log1p(input, *, out=None) -> Tensor

Alias for torch.log1p().
""",
    "log_ndtr": """\
log_ndtr(input, *, out=None) -> Tensor

log(ndtr(x)), accurate far in the left tail.

Example::

    >>> torch.special.log_ndtr(torch.tensor([-10.0, 0.0, 1.0]))
    tensor([-53.2313,  -0.6931,  -0.1728])
""",
    "log_softmax": """\
log_softmax(input, dim, *, dtype=None) -> Tensor

torch.log_softmax (dim required).
""",
    "logit": """\
logit(input, eps=None, *, out=None) -> Tensor

Alias for torch.logit().
""",
    "logsumexp": """\
logsumexp(input, dim, keepdim=False, *, out=None) -> Tensor

Alias for torch.logsumexp().
""",
    "modified_bessel_i0": """\
modified_bessel_i0(input, *, out=None) -> Tensor

The modified Bessel function of the first kind of order 0.

Example::

    >>> torch.special.modified_bessel_i0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([1.0635, 1.2661, 2.2796])
""",
    "modified_bessel_i1": """\
modified_bessel_i1(input, *, out=None) -> Tensor

The modified Bessel function of the first kind of order 1.

Example::

    >>> torch.special.modified_bessel_i1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.2579, 0.5652, 1.5906])
""",
    "modified_bessel_k0": """\
modified_bessel_k0(input, *, out=None) -> Tensor

The modified Bessel function of the second kind of order 0.

Example::

    >>> torch.special.modified_bessel_k0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.9244, 0.4210, 0.1139])
""",
    "modified_bessel_k1": """\
modified_bessel_k1(input, *, out=None) -> Tensor

The modified Bessel function of the second kind of order 1.

Example::

    >>> torch.special.modified_bessel_k1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([1.6564, 0.6019, 0.1399])
""",
    "multigammaln": """\
multigammaln(input, p, *, out=None) -> Tensor

Alias for torch.mvlgamma().
""",
    "ndtr": """\
ndtr(input, *, out=None) -> Tensor

The standard normal cumulative distribution function: the probability
that N(0, 1) is at most x.

Example::

    >>> torch.special.ndtr(torch.tensor([-1.0, 0.0, 1.0]))
    tensor([0.1587, 0.5000, 0.8413])
""",
    "ndtri": """\
ndtri(input, *, out=None) -> Tensor

The inverse of ndtr: the x with ndtr(x) = p, for p in (0, 1) (the
quantile function of N(0, 1)).

Example::

    >>> torch.special.ndtri(torch.tensor([0.025, 0.5, 0.975]))
    tensor([-1.9600,  0.0000,  1.9600])
""",
    "polygamma": """\
polygamma(n, input, *, out=None) -> Tensor

Alias for torch.polygamma().
""",
    "psi": """\
psi(input, *, out=None) -> Tensor

Alias for torch.digamma(); torch.special.digamma is the same function.
""",
    "round": """\
round(input, decimals=0, *, out=None) -> Tensor

Alias for torch.round().
""",
    "scaled_modified_bessel_k0": """\
scaled_modified_bessel_k0(input, *, out=None) -> Tensor

exp(x) * modified_bessel_k0(x).

Example::

    >>> torch.special.scaled_modified_bessel_k0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([1.5241, 1.1445, 0.8416])
""",
    "scaled_modified_bessel_k1": """\
scaled_modified_bessel_k1(input, *, out=None) -> Tensor

exp(x) * modified_bessel_k1(x).

Example::

    >>> torch.special.scaled_modified_bessel_k1(torch.tensor([0.5, 1.0, 2.0]))
    tensor([2.7310, 1.6362, 1.0335])
""",
    "shifted_chebyshev_polynomial_t": """\
shifted_chebyshev_polynomial_t(input, n, *, out=None) -> Tensor

The shifted Chebyshev polynomial T_n(2x - 1), of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.shifted_chebyshev_polynomial_t(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  1.])
""",
    "shifted_chebyshev_polynomial_u": """\
shifted_chebyshev_polynomial_u(input, n, *, out=None) -> Tensor

The shifted Chebyshev polynomial U_n(2x - 1), of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.shifted_chebyshev_polynomial_u(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  3.])
""",
    "shifted_chebyshev_polynomial_v": """\
shifted_chebyshev_polynomial_v(input, n, *, out=None) -> Tensor

The shifted Chebyshev polynomial V_n(2x - 1), of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.shifted_chebyshev_polynomial_v(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  1.])
""",
    "shifted_chebyshev_polynomial_w": """\
shifted_chebyshev_polynomial_w(input, n, *, out=None) -> Tensor

The shifted Chebyshev polynomial W_n(2x - 1), of degree n, at each element of
input (n an int or a tensor, broadcast).

Example::

    >>> torch.special.shifted_chebyshev_polynomial_w(torch.tensor([0.5, 1.0]), 2)
    tensor([-1.,  5.])
""",
    "sinc": """\
sinc(input, *, out=None) -> Tensor

Alias for torch.sinc().
""",
    "softmax": """\
softmax(input, dim, *, dtype=None) -> Tensor

torch.softmax (dim required).
""",
    "spherical_bessel_j0": """\
spherical_bessel_j0(input, *, out=None) -> Tensor

The spherical Bessel function of the first kind of order 0,
sin(x) / x.

Example::

    >>> torch.special.spherical_bessel_j0(torch.tensor([0.5, 1.0, 2.0]))
    tensor([0.9589, 0.8415, 0.4546])
""",
    "xlog1py": """\
xlog1py(input, other, *, out=None) -> Tensor

input * log1p(other), with 0 where input is 0 (even where other is -1).

Example::

    >>> torch.special.xlog1py(torch.tensor([0.0, 2.0]), torch.tensor([-1.0, 1.0]))
    tensor([0.0000, 1.3863])
""",
    "xlogy": """\
xlogy(input, other, *, out=None) -> Tensor

Alias for torch.xlogy().
""",
    "zeta": """\
zeta(input, other, *, out=None) -> Tensor

The Hurwitz zeta function: the sum over k >= 0 of 1 / (k + other) ** input
(other = 1 gives Riemann's zeta).

Example::

    >>> torch.special.zeta(torch.tensor([2.0]), torch.tensor([1.0]))
    tensor([1.6449])
""",
}


def _attach():
    add = _C._add_docstr
    for name, doc in DOCS.items():
        add(getattr(_C, name), doc)


_attach()


def attach_python(namespace):
    """Give torch's functions written in Python their PY_DOCS text; called
    at the end of torch/__init__.py, when every name exists."""
    for name, doc in PY_DOCS.items():
        namespace[name].__doc__ = doc
    for module, docs in (("linalg", LINALG_DOCS), ("fft", FFT_DOCS), ("special", SPECIAL_DOCS)):
        for name, doc in docs.items():
            getattr(namespace[module], name).__doc__ = doc
