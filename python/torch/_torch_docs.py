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
    "arcsin": """\
arcsin(input) -> Tensor

Alias for torch.asin().
""",
    "arctan": """\
arctan(input) -> Tensor

Alias for torch.atan().
""",
    "arctan2": """\
arctan2(input, other) -> Tensor

Alias for torch.atan2().
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
    "exp": """\
exp(input) -> Tensor

e to the power of each element.

Example::

    >>> torch.exp(torch.tensor([0., 1., 2.]))
    tensor([1.0000, 2.7183, 7.3891])
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


def _attach():
    add = _C._add_docstr
    for name, doc in DOCS.items():
        add(getattr(_C, name), doc)


_attach()
