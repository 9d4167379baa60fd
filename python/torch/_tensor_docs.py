"""Docstrings of torch.Tensor's methods written in C (torch._C._TensorBase).

As PyTorch's torch/_tensor_docs.py: the text lives here and
torch._C._add_docstr attaches it to each method descriptor at import, so
help(torch.Tensor.sum), x.sum? and Jupyter's Shift-Tab show it. Each
docstring starts with the method's signature (without self), then what it
does, then an example with its output. A method that is also a torch
function says so (See torch.sum()); an in-place method (add_) names the one
it is the in-place version of; an alias names the original.
"""

from torch import _C

# name -> docstring, in one dict so that import attaches them in one pass
DOCS = {
    "_repr_html_": """\
_repr_html_() -> str

The tensor as an HTML table with its shape and dtype: what Jupyter shows for
a tensor at the end of a cell.
""",
    "abs": """\
abs() -> Tensor

The absolute value of each element. See torch.abs().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.abs()
    tensor([[1., 2., 3.],
            [4., 5., 6.]])
""",
    "abs_": """\
abs_() -> Tensor

In-place version of Tensor.abs(): self is overwritten with the result, which
is returned.
""",
    "absolute": """\
absolute() -> Tensor

Alias for Tensor.abs().
""",
    "acos": """\
acos() -> Tensor

The arccosine of each element, in radians (nan outside [-1, 1]). See
torch.acos().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.acos()
    tensor([2.0944, 1.5708, 1.0472])
""",
    "acos_": """\
acos_() -> Tensor

In-place version of Tensor.acos(): self is overwritten with the result,
which is returned.
""",
    "acosh": """\
acosh() -> Tensor

The inverse hyperbolic cosine of each element (nan below 1). See torch.acosh().
""",
    "acosh_": """\
acosh_() -> Tensor

In-place version of Tensor.acosh(): self is overwritten with the result,
which is returned.
""",
    "add": """\
add(other, *, alpha=1) -> Tensor

self + alpha * other, broadcast; other may be a tensor or a number. See
torch.add().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.add(b, alpha=10)
    tensor([41., 52., 63.])
""",
    "add_": """\
add_(other, *, alpha=1) -> Tensor

In-place version of Tensor.add(): self is overwritten with the result, which
is returned.
""",
    "addcdiv": """\
addcdiv(tensor1, tensor2, *, value=1) -> Tensor

self + value * tensor1 / tensor2, elementwise and broadcast (the update of
Adam and RMSprop). See torch.addcdiv().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.addcdiv(a, b, value=0.5)
    tensor([1.1250, 2.2000, 3.2500])
""",
    "addcdiv_": """\
addcdiv_(tensor1, tensor2, *, value=1) -> Tensor

In-place version of Tensor.addcdiv(): self is overwritten with the result,
which is returned.
""",
    "addcmul": """\
addcmul(tensor1, tensor2, *, value=1) -> Tensor

self + value * tensor1 * tensor2, elementwise and broadcast. See
torch.addcmul().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.addcmul(a, b, value=0.5)
    tensor([ 3.,  7., 12.])
""",
    "addcmul_": """\
addcmul_(tensor1, tensor2, *, value=1) -> Tensor

In-place version of Tensor.addcmul(): self is overwritten with the result,
which is returned.
""",
    "all": """\
all(dim=None, keepdim=False) -> Tensor

Whether every element is non-zero (True), as a bool tensor: of all elements,
or along dim. See torch.all().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> (x > 0).all()
    tensor(False)
    >>> (x > -5).all(dim=1)
    tensor([ True, False])
""",
    "allclose": """\
allclose(other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool

True when |self - other| <= atol + rtol * |other| everywhere: a Python bool,
for comparing results that may differ by rounding. See torch.allclose().

Example::

    >>> torch.tensor([1., 2.]).allclose(torch.tensor([1., 2.000001]))
    True
""",
    "amax": """\
amax(dim=(), keepdim=False) -> Tensor

The largest values over one dim or a tuple of dims (all dims when dim is
empty); unlike max, no indices. See torch.amax().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.amax(dim=1)
    tensor([3., 5.])
""",
    "amin": """\
amin(dim=(), keepdim=False) -> Tensor

The smallest values over one dim or a tuple of dims; unlike min, no indices.
See torch.amin().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.amin(dim=1)
    tensor([-2., -6.])
""",
    "any": """\
any(dim=None, keepdim=False) -> Tensor

Whether any element is non-zero (True), as a bool tensor: of all elements,
or along dim. See torch.any().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> (x > 4).any()
    tensor(True)
    >>> torch.isnan(x).any()
    tensor(False)
""",
    "arccos": """\
arccos() -> Tensor

Alias for Tensor.acos().
""",
    "arccosh": """\
arccosh() -> Tensor

See torch.arccosh().
""",
    "arccosh_": """\
arccosh_() -> Tensor

In-place version of Tensor.arccosh(): self is overwritten with the result,
which is returned.
""",
    "arcsin": """\
arcsin() -> Tensor

Alias for Tensor.asin().
""",
    "arcsinh": """\
arcsinh() -> Tensor

See torch.arcsinh().
""",
    "arcsinh_": """\
arcsinh_() -> Tensor

In-place version of Tensor.arcsinh(): self is overwritten with the result,
which is returned.
""",
    "arctan": """\
arctan() -> Tensor

Alias for Tensor.atan().
""",
    "arctan2": """\
arctan2(other) -> Tensor

Alias for Tensor.atan2().
""",
    "arctanh": """\
arctanh() -> Tensor

See torch.arctanh().
""",
    "arctanh_": """\
arctanh_() -> Tensor

In-place version of Tensor.arctanh(): self is overwritten with the result,
which is returned.
""",
    "argmax": """\
argmax(dim=None, keepdim=False) -> Tensor

The index of the largest element (in the flattened tensor when dim is None),
as int64; the usual way from logits to predicted classes. See
torch.argmax().

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> logits.argmax(dim=1)
    tensor([0, 2])
""",
    "argmin": """\
argmin(dim=None, keepdim=False) -> Tensor

The index of the smallest element (in the flattened tensor when dim is
None), as int64. See torch.argmin().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.argmin()
    tensor(5)
    >>> x.argmin(dim=1)
    tensor([1, 2])
""",
    "argsort": """\
argsort(dim=-1, descending=False, stable=False) -> Tensor

The indices that sort self along dim. See torch.argsort().

Example::

    >>> torch.tensor([3., 1., 2.]).argsort()
    tensor([1, 2, 0])
""",
    "argwhere": """\
argwhere() -> Tensor

The coordinates of the non-zero elements, one row per element: an int64
tensor of shape (count, self.dim()). See torch.argwhere().

Example::

    >>> torch.tensor([[0, 1], [2, 0]]).argwhere()
    tensor([[0, 1],
            [1, 0]])
""",
    "asin": """\
asin() -> Tensor

The arcsine of each element, in radians (nan outside [-1, 1]). See
torch.asin().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.asin()
    tensor([-0.5236,  0.0000,  0.5236])
""",
    "asin_": """\
asin_() -> Tensor

In-place version of Tensor.asin(): self is overwritten with the result,
which is returned.
""",
    "asinh": """\
asinh() -> Tensor

The inverse hyperbolic sine of each element. See torch.asinh().
""",
    "asinh_": """\
asinh_() -> Tensor

In-place version of Tensor.asinh(): self is overwritten with the result,
which is returned.
""",
    "atan": """\
atan() -> Tensor

The arctangent of each element, in radians. See torch.atan().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.atan()
    tensor([-0.4636,  0.0000,  0.4636])
""",
    "atan2": """\
atan2(other) -> Tensor

The angle of the point (other, self) in radians, in (-pi, pi]: atan(self /
other) with the quadrant taken from both signs. See torch.atan2().

Example::

    >>> torch.tensor([1., -1.]).atan2(torch.tensor([-1., -1.]))
    tensor([ 2.3562, -2.3562])
""",
    "atan2_": """\
atan2_(other) -> Tensor

In-place version of Tensor.atan2(): self is overwritten with the result,
which is returned.
""",
    "atan_": """\
atan_() -> Tensor

In-place version of Tensor.atan(): self is overwritten with the result,
which is returned.
""",
    "atanh": """\
atanh() -> Tensor

The inverse hyperbolic tangent of each element (inf at 1, nan outside [-1, 1]).
See torch.atanh().
""",
    "atanh_": """\
atanh_() -> Tensor

In-place version of Tensor.atanh(): self is overwritten with the result,
which is returned.
""",
    "backward": """\
backward(gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None

Compute the gradient of this tensor with respect to every leaf tensor that
requires grad and add it to their .grad. A one-element tensor (a loss) needs
no gradient argument; otherwise pass gradient=, of this tensor's shape. The
graph is freed afterwards unless retain_graph=True.

Example::

    >>> w = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> loss = (w * w).sum()
    >>> loss.backward()
    >>> w.grad
    tensor([2., 4., 6.])
""",
    "bernoulli": """\
bernoulli(p=None, *, generator=None) -> Tensor

Random 0s and 1s: each element is 1 with the probability given by self
(values in [0, 1]), drawn from torch's generator. See torch.bernoulli().

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.tensor([0.1, 0.5, 0.9]).bernoulli()
    tensor([0., 0., 1.])
""",
    "bernoulli_": """\
bernoulli_(p=None, *, generator=None) -> Tensor

In-place version of Tensor.bernoulli(): self is overwritten with the result,
which is returned.
""",
    "bfloat16": """\
bfloat16() -> Tensor

A copy in torch.bfloat16 (self when it already is).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.bfloat16()
    tensor([[ 1., -2.,  3.],
            [-4.,  5., -6.]], dtype=torch.bfloat16)
""",
    "bincount": """\
bincount(weights=None, minlength=0) -> Tensor

How often each value 0, 1, 2, ... occurs in a 1-D tensor of non-negative
ints; with weights, the sum of the weights of each value. See
torch.bincount().

Example::

    >>> torch.tensor([0, 1, 1, 3]).bincount()
    tensor([1, 2, 0, 1])
""",
    "bitwise_and": """\
bitwise_and(other) -> Tensor

The bitwise and of integer tensors (the logical and of bool tensors), as the
& operator. See torch.bitwise_and().

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> a.bitwise_and(b)
    tensor([8, 2])
""",
    "bitwise_and_": """\
bitwise_and_(other) -> Tensor

In-place version of Tensor.bitwise_and(): self is overwritten with the
result, which is returned.
""",
    "bitwise_left_shift": """\
bitwise_left_shift(other) -> Tensor

self shifted left by other bits, elementwise, for integer tensors (self <<
other): each shift by one multiplies by 2. See torch.bitwise_left_shift().
""",
    "bitwise_left_shift_": """\
bitwise_left_shift_(other) -> Tensor

In-place version of Tensor.bitwise_left_shift(): self is overwritten with the
result, which is returned.
""",
    "bitwise_not": """\
bitwise_not() -> Tensor

The bitwise not of an integer tensor (the logical not of a bool tensor), as
the ~ operator. See torch.bitwise_not().

Example::

    >>> torch.tensor([0, 5, -1]).bitwise_not()
    tensor([-1, -6,  0])
""",
    "bitwise_not_": """\
bitwise_not_() -> Tensor

In-place version of Tensor.bitwise_not(): self is overwritten with the
result, which is returned.
""",
    "bitwise_or": """\
bitwise_or(other) -> Tensor

The bitwise or of integer tensors (the logical or of bool tensors), as the |
operator. See torch.bitwise_or().

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> a.bitwise_or(b)
    tensor([14, 14])
""",
    "bitwise_or_": """\
bitwise_or_(other) -> Tensor

In-place version of Tensor.bitwise_or(): self is overwritten with the
result, which is returned.
""",
    "bitwise_right_shift": """\
bitwise_right_shift(other) -> Tensor

self shifted right by other bits, elementwise, for integer tensors (self >>
other): an arithmetic shift, so it divides by 2 per bit rounding toward minus
infinity. See torch.bitwise_right_shift().
""",
    "bitwise_right_shift_": """\
bitwise_right_shift_(other) -> Tensor

In-place version of Tensor.bitwise_right_shift(): self is overwritten with the
result, which is returned.
""",
    "bitwise_xor": """\
bitwise_xor(other) -> Tensor

The bitwise exclusive or of integer tensors, as the ^ operator. See
torch.bitwise_xor().

Example::

    >>> a = torch.tensor([12, 10])
    >>> b = torch.tensor([10, 6])
    >>> a.bitwise_xor(b)
    tensor([ 6, 12])
""",
    "bitwise_xor_": """\
bitwise_xor_(other) -> Tensor

In-place version of Tensor.bitwise_xor(): self is overwritten with the
result, which is returned.
""",
    "bmm": """\
bmm(mat2) -> Tensor

Batched matrix product: self of shape (b, n, m) times mat2 of shape (b, m,
p) gives (b, n, p). No broadcasting (matmul broadcasts). See torch.bmm().

Example::

    >>> torch.ones(2, 1, 3).bmm(torch.ones(2, 3, 2))
    tensor([[[3., 3.]],
    <BLANKLINE>
            [[3., 3.]]])
""",
    "bool": """\
bool() -> Tensor

A copy in torch.bool: non-zero becomes True.

Example::

    >>> torch.tensor([0., 2.]).bool()
    tensor([False,  True])
""",
    "broadcast_to": """\
broadcast_to(size) -> Tensor

self expanded to size by the broadcasting rules (a view, as expand). See
torch.broadcast_to().

Example::

    >>> torch.tensor([1., 2., 3.]).broadcast_to((2, 3))
    tensor([[1., 2., 3.],
            [1., 2., 3.]])
""",
    "byte": """\
byte() -> Tensor

A copy in torch.uint8.

Example::

    >>> torch.tensor([1.7, 200.]).byte()
    tensor([  1, 200], dtype=torch.uint8)
""",
    "cauchy_": """\
cauchy_(median=0, sigma=1, *, generator=None) -> Tensor

Fill self with numbers drawn from the Cauchy distribution centred on
median with scale sigma, in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(3).cauchy_()
    tensor([10.5977,  0.7648, -0.1283])
""",
    "ceil": """\
ceil() -> Tensor

Each element rounded up to an integer value. See torch.ceil().

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> x.ceil()
    tensor([-1., -0.,  1.,  3.])
""",
    "ceil_": """\
ceil_() -> Tensor

In-place version of Tensor.ceil(): self is overwritten with the result,
which is returned.
""",
    "char": """\
char() -> Tensor

A copy in torch.int8.

Example::

    >>> torch.tensor([1.7, -2.2]).char()
    tensor([ 1, -2], dtype=torch.int8)
""",
    "chunk": """\
chunk(chunks, dim=0) -> tuple of Tensors

Split into [chunks] pieces of nearly equal size along dim (views); the last
one may be smaller. See torch.chunk().

Example::

    >>> torch.arange(5).chunk(2)
    (tensor([0, 1, 2]), tensor([3, 4]))
""",
    "clamp": """\
clamp(min=None, max=None) -> Tensor

Each element limited to [min, max]; either bound may be None (no limit on
that side). See torch.clamp().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.clamp(min=-1, max=1)
    tensor([[ 1., -1.,  1.],
            [-1.,  1., -1.]])
    >>> x.clamp(min=0)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "clamp_": """\
clamp_(min=None, max=None) -> Tensor

In-place version of Tensor.clamp(): self is overwritten with the result,
which is returned.
""",
    "clamp_max": """\
clamp_max(max) -> Tensor

Each element limited to at most max: clamp(self, max=max). See
torch.clamp_max().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.clamp_max(2)
    tensor([[ 1., -2.,  2.],
            [-4.,  2., -6.]])
""",
    "clamp_max_": """\
clamp_max_(max) -> Tensor

In-place version of Tensor.clamp_max(): self is overwritten with the result,
which is returned.
""",
    "clamp_min": """\
clamp_min(min) -> Tensor

Each element limited to at least min: clamp(self, min=min). See
torch.clamp_min().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.clamp_min(0)
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "clamp_min_": """\
clamp_min_(min) -> Tensor

In-place version of Tensor.clamp_min(): self is overwritten with the result,
which is returned.
""",
    "clip": """\
clip(min=None, max=None) -> Tensor

Alias for Tensor.clamp().
""",
    "clip_": """\
clip_(min=None, max=None) -> Tensor

In-place version of Tensor.clip(): self is overwritten with the result,
which is returned.
""",
    "clone": """\
clone() -> Tensor

A copy with its own storage; the copy is recorded for autograd (gradients
flow back to self). See torch.clone().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.clone()
    tensor([[ 1., -2.,  3.],
            [-4.,  5., -6.]])
""",
    "contiguous": """\
contiguous() -> Tensor

self when its elements are laid out row-major without gaps, else such a copy
(view needs it after transpose or permute).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.t().is_contiguous()
    False
    >>> x.t().contiguous().is_contiguous()
    True
""",
    "copy_": """\
copy_(src) -> Tensor

Copy the values of src (broadcast, converted to self's dtype) into self, in
place; returns self.

Example::

    >>> z = torch.zeros(3)
    >>> z.copy_(torch.tensor([1, 2, 3]))
    tensor([1., 2., 3.])
""",
    "cos": """\
cos() -> Tensor

The cosine of each element (in radians). See torch.cos().

Example::

    >>> torch.tensor([0., 1., 2.]).cos()
    tensor([ 1.0000,  0.5403, -0.4161])
""",
    "cos_": """\
cos_() -> Tensor

In-place version of Tensor.cos(): self is overwritten with the result, which
is returned.
""",
    "cosh": """\
cosh() -> Tensor

The hyperbolic cosine of each element. See torch.cosh().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.cosh()
    tensor([1.1276, 1.0000, 1.1276])
""",
    "cosh_": """\
cosh_() -> Tensor

In-place version of Tensor.cosh(): self is overwritten with the result,
which is returned.
""",
    "count_nonzero": """\
count_nonzero(dim=None) -> Tensor

The number of non-zero elements, of all of self or along dim (int64). See
torch.count_nonzero().

Example::

    >>> torch.tensor([[0, 1, 2], [0, 0, 3]]).count_nonzero(dim=1)
    tensor([2, 1])
""",
    "cumprod": """\
cumprod(dim, *, dtype=None) -> Tensor

Running products along dim: out[i] = self[0] * ... * self[i]. See
torch.cumprod().

Example::

    >>> torch.tensor([1., 2., 3., 4.]).cumprod(dim=0)
    tensor([ 1.,  2.,  6., 24.])
""",
    "cumprod_": """\
cumprod_(dim, *, dtype=None) -> Tensor

In-place version of Tensor.cumprod(): self is overwritten with the result,
which is returned.
""",
    "cumsum": """\
cumsum(dim, *, dtype=None) -> Tensor

Running sums along dim: out[i] = self[0] + ... + self[i]. See
torch.cumsum().

Example::

    >>> torch.tensor([1, 2, 3, 4]).cumsum(dim=0)
    tensor([ 1,  3,  6, 10])
""",
    "cumsum_": """\
cumsum_(dim, *, dtype=None) -> Tensor

In-place version of Tensor.cumsum(): self is overwritten with the result,
which is returned.
""",
    "data_ptr": """\
data_ptr() -> int

The memory address of the first element: two views that start at the same
element have the same one.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.data_ptr() == x.view(-1).data_ptr()
    True
""",
    "detach": """\
detach() -> Tensor

The same values, sharing storage, without autograd history: operations on it
are not recorded (for logging, plotting, or targets).

Example::

    >>> w = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> loss = (w * w).sum()
    >>> loss.detach()
    tensor(14.)
    >>> loss.detach().requires_grad
    False
""",
    "detach_": """\
detach_() -> Tensor

In-place version of Tensor.detach(): self is overwritten with the result,
which is returned.
""",
    "diag": """\
diag(diagonal=0) -> Tensor

From a 1-D tensor, a square matrix with it on the diagonal; from a 2-D
tensor, its diagonal as a 1-D tensor. diagonal > 0 is above the main
diagonal, < 0 below. See torch.diag().

Example::

    >>> torch.tensor([1., 2.]).diag()
    tensor([[1., 0.],
            [0., 2.]])
    >>> torch.tensor([[1., 2.], [3., 4.]]).diag()
    tensor([1., 4.])
""",
    "diagonal": """\
diagonal(offset=0, dim1=0, dim2=1) -> Tensor

The diagonal of the matrices formed by dims dim1 and dim2, as a view; offset
moves it above (> 0) or below (< 0) the main one. See torch.diagonal().

Example::

    >>> torch.tensor([[1., 2.], [3., 4.]]).diagonal()
    tensor([1., 4.])
""",
    "digamma": """\
digamma() -> Tensor

The derivative of lgamma (the log of the gamma function) at each element. See
torch.digamma().
""",
    "digamma_": """\
digamma_() -> Tensor

In-place version of Tensor.digamma(): self is overwritten with the result,
which is returned.
""",
    "dim": """\
dim() -> int

The number of dims (the same as .ndim).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.dim()
    2
""",
    "div": """\
div(other, *, rounding_mode=None) -> Tensor

self / other, broadcast: true division (ints give floats);
rounding_mode='trunc' or 'floor' rounds the quotient. See torch.div().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.div(2)
    tensor([0.5000, 1.0000, 1.5000])
    >>> b.div(a, rounding_mode="floor")
    tensor([4., 2., 2.])
""",
    "div_": """\
div_(other, *, rounding_mode=None) -> Tensor

In-place version of Tensor.div(): self is overwritten with the result, which
is returned.
""",
    "divide": """\
divide(other, *, rounding_mode=None) -> Tensor

Alias for Tensor.div().
""",
    "divide_": """\
divide_(other, *, rounding_mode=None) -> Tensor

In-place version of Tensor.divide(): self is overwritten with the result,
which is returned.
""",
    "dot": """\
dot(other) -> Tensor

The dot product of two 1-D tensors of the same size, as a 0-dim tensor. See
torch.dot().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.dot(b)
    tensor(32.)
""",
    "double": """\
double() -> Tensor

A copy in torch.float64 (self when it already is); for gradient checks in
double precision.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.double()
    tensor([[ 1., -2.,  3.],
            [-4.,  5., -6.]], dtype=torch.float64)
""",
    "element_size": """\
element_size() -> int

The size of one element in bytes.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.element_size()
    4
    >>> torch.zeros(1, dtype=torch.int64).element_size()
    8
""",
    "eq": """\
eq(other) -> Tensor

Elementwise ==, broadcast, as a bool tensor. See torch.eq().

Example::

    >>> pred = torch.tensor([1, 0, 2])
    >>> target = torch.tensor([1, 1, 2])
    >>> pred.eq(target)
    tensor([ True, False,  True])
    >>> pred.eq(target).float().mean()
    tensor(0.6667)
""",
    "eq_": """\
eq_(other) -> Tensor

In-place version of Tensor.eq(): self is overwritten with the result, which
is returned.
""",
    "equal": """\
equal(other) -> bool

True when both have the same shape and the same values (a Python bool). See
torch.equal().

Example::

    >>> torch.ones(2).equal(torch.ones(2))
    True
""",
    "erf": """\
erf() -> Tensor

The error function of each element. See torch.erf().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.erf()
    tensor([-0.5205,  0.0000,  0.5205])
""",
    "erf_": """\
erf_() -> Tensor

In-place version of Tensor.erf(): self is overwritten with the result, which
is returned.
""",
    "erfc": """\
erfc() -> Tensor

The complementary error function 1 - erf(x) of each element, accurate where
erf(x) is close to 1. See torch.erfc().
""",
    "erfc_": """\
erfc_() -> Tensor

In-place version of Tensor.erfc(): self is overwritten with the result,
which is returned.
""",
    "erfinv": """\
erfinv() -> Tensor

The inverse of erf for each element in (-1, 1) (inf at 1, -inf at -1). See
torch.erfinv().
""",
    "erfinv_": """\
erfinv_() -> Tensor

In-place version of Tensor.erfinv(): self is overwritten with the result,
which is returned.
""",
    "exp": """\
exp() -> Tensor

e to the power of each element. See torch.exp().

Example::

    >>> torch.tensor([0., 1., 2.]).exp()
    tensor([1.0000, 2.7183, 7.3891])
""",
    "exp2": """\
exp2() -> Tensor

2 to the power of each element. See torch.exp2().
""",
    "exp2_": """\
exp2_() -> Tensor

In-place version of Tensor.exp2(): self is overwritten with the result,
which is returned.
""",
    "exp_": """\
exp_() -> Tensor

In-place version of Tensor.exp(): self is overwritten with the result, which
is returned.
""",
    "expand": """\
expand(*sizes) -> Tensor

A view with dims of size 1 repeated to larger sizes, without copying; -1
keeps a size. New leading dims may be added.

Example::

    >>> torch.tensor([[1], [2]]).expand(2, 3)
    tensor([[1, 1, 1],
            [2, 2, 2]])
""",
    "expand_as": """\
expand_as(other) -> Tensor

self expanded to the shape of other: self.expand(other.size()).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.tensor([1., 2., 3.]).expand_as(x)
    tensor([[1., 2., 3.],
            [1., 2., 3.]])
""",
    "expm1": """\
expm1() -> Tensor

exp(x) - 1 of each element, accurate for x near 0. See torch.expm1().

Example::

    >>> torch.tensor([0., 1e-5, 1.]).expm1()
    tensor([0.0000e+00, 1.0000e-05, 1.7183e+00])
""",
    "expm1_": """\
expm1_() -> Tensor

In-place version of Tensor.expm1(): self is overwritten with the result,
which is returned.
""",
    "exponential_": """\
exponential_(lambd=1, *, generator=None) -> Tensor

Fill self with random values from the exponential distribution of rate
lambd, in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(3).exponential_()
    tensor([3.5083, 1.2304, 0.6150])
""",
    "fill_": """\
fill_(value) -> Tensor

Set every element to value, in place; returns self.

Example::

    >>> torch.zeros(3).fill_(0.5)
    tensor([0.5000, 0.5000, 0.5000])
""",
    "fix": """\
fix() -> Tensor

Alias for Tensor.trunc().
""",
    "flatten": """\
flatten(start_dim=0, end_dim=-1) -> Tensor

The dims from start_dim to end_dim merged into one (a view when possible).
See torch.flatten().

Example::

    >>> torch.zeros(2, 3, 4).flatten(start_dim=1).shape
    torch.Size([2, 12])
""",
    "flip": """\
flip(dims) -> Tensor

A copy with the order of elements reversed along each dim in dims. See
torch.flip().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).flip((0,))
    tensor([[3, 4],
            [1, 2]])
""",
    "fliplr": """\
fliplr() -> Tensor

A copy with the columns (dim 1) in reverse order. See torch.fliplr().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).fliplr()
    tensor([[2, 1],
            [4, 3]])
""",
    "flipud": """\
flipud() -> Tensor

A copy with the rows (dim 0) in reverse order. See torch.flipud().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).flipud()
    tensor([[3, 4],
            [1, 2]])
""",
    "float": """\
float() -> Tensor

A copy in torch.float32 (self when it already is).

Example::

    >>> torch.tensor([1, 2]).float()
    tensor([1., 2.])
""",
    "float_power": """\
float_power(exponent) -> Tensor

self ** exponent computed in float64 (the result is float64). See
torch.float_power().

Example::

    >>> torch.tensor([2, 3]).float_power(2)
    tensor([4., 9.], dtype=torch.float64)
""",
    "float_power_": """\
float_power_(exponent) -> Tensor

In-place version of Tensor.float_power(): self is overwritten with the
result, which is returned.
""",
    "floor": """\
floor() -> Tensor

Each element rounded down to an integer value. See torch.floor().

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> x.floor()
    tensor([-2., -1.,  0.,  2.])
""",
    "floor_": """\
floor_() -> Tensor

In-place version of Tensor.floor(): self is overwritten with the result,
which is returned.
""",
    "floor_divide": """\
floor_divide(other) -> Tensor

floor(self / other) elementwise, as the // operator. See
torch.floor_divide().

Example::

    >>> torch.tensor([7, -7]).floor_divide(2)
    tensor([ 3, -4])
""",
    "floor_divide_": """\
floor_divide_(other) -> Tensor

In-place version of Tensor.floor_divide(): self is overwritten with the
result, which is returned.
""",
    "fmod": """\
fmod(other) -> Tensor

The remainder of self / other with the sign of self (C's fmod); remainder
takes the sign of other, as Python's %. See torch.fmod().

Example::

    >>> torch.tensor([-3., 3.]).fmod(2)
    tensor([-1.,  1.])
""",
    "fmod_": """\
fmod_(other) -> Tensor

In-place version of Tensor.fmod(): self is overwritten with the result,
which is returned.
""",
    "frac": """\
frac() -> Tensor

The fractional part of each element: self - trunc(self). See torch.frac().

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> x.frac()
    tensor([-0.5000, -0.5000,  0.4000,  0.7000])
""",
    "frac_": """\
frac_() -> Tensor

In-place version of Tensor.frac(): self is overwritten with the result,
which is returned.
""",
    "gather": """\
gather(dim, index) -> Tensor

Values picked along dim by an int64 index of the same number of dims: for
dim=1, out[i][j] = self[i][index[i][j]]. Used to pick each row's value at
its target class. See torch.gather().

Example::

    >>> logp = torch.tensor([[-0.1, -2.3], [-1.2, -0.4]])
    >>> target = torch.tensor([0, 1])
    >>> logp.gather(1, target.unsqueeze(1))
    tensor([[-0.1000],
            [-0.4000]])
""",
    "gcd": """\
gcd(other) -> Tensor

The greatest common divisor of each pair of elements of two integer tensors
(broadcast); gcd(0, 0) is 0. See torch.gcd().
""",
    "gcd_": """\
gcd_(other) -> Tensor

In-place version of Tensor.gcd(): self is overwritten with the result,
which is returned.
""",
    "ge": """\
ge(other) -> Tensor

Elementwise >=, broadcast, as a bool tensor. See torch.ge().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.ge(0)
    tensor([[ True, False,  True],
            [False,  True, False]])
""",
    "ge_": """\
ge_(other) -> Tensor

In-place version of Tensor.ge(): self is overwritten with the result, which
is returned.
""",
    "geometric_": """\
geometric_(p, *, generator=None) -> Tensor

Fill self with numbers drawn from the geometric distribution with success
probability p (the number of trials up to the first success: 1, 2, ...),
in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(4).geometric_(0.5)
    tensor([1., 1., 2., 1.])
""",
    "ger": """\
ger(vec2) -> Tensor

Alias for Tensor.outer().
""",
    "greater": """\
greater(other) -> Tensor

Alias for Tensor.gt().
""",
    "greater_equal": """\
greater_equal(other) -> Tensor

Alias for Tensor.ge().
""",
    "gt": """\
gt(other) -> Tensor

Elementwise >, broadcast, as a bool tensor. See torch.gt().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.gt(0)
    tensor([[ True, False,  True],
            [False,  True, False]])
""",
    "gt_": """\
gt_(other) -> Tensor

In-place version of Tensor.gt(): self is overwritten with the result, which
is returned.
""",
    "half": """\
half() -> Tensor

A copy in torch.float16 (self when it already is).

Example::

    >>> torch.tensor([1.5, 2.25]).half()
    tensor([1.5000, 2.2500], dtype=torch.float16)
""",
    "histc": """\
histc(bins=100, min=0, max=0) -> Tensor

A histogram: counts in [bins] equal bins between min and max (both 0: the
data's own range); values outside are ignored. See torch.histc().

Example::

    >>> torch.tensor([1., 2., 1., 4.]).histc(bins=4, min=0, max=4)
    tensor([0., 2., 1., 1.])
""",
    "i0": """\
i0() -> Tensor

The modified Bessel function of the first kind of order 0, for each element.
See torch.i0().
""",
    "i0_": """\
i0_() -> Tensor

In-place version of Tensor.i0(): self is overwritten with the result,
which is returned.
""",
    "igamma": """\
igamma(other) -> Tensor

The regularized lower incomplete gamma function P(a, x), a = self, x = other:
the integral of t**(a-1) * exp(-t) from 0 to x, divided by gamma(a). Both
positive; broadcast. See torch.igamma().
""",
    "igamma_": """\
igamma_(other) -> Tensor

In-place version of Tensor.igamma(): self is overwritten with the result,
which is returned.
""",
    "igammac": """\
igammac(other) -> Tensor

The regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x), a =
self, x = other (see igamma). See torch.igammac().
""",
    "igammac_": """\
igammac_(other) -> Tensor

In-place version of Tensor.igammac(): self is overwritten with the result,
which is returned.
""",
    "index_select": """\
index_select(dim, index) -> Tensor

The slices of self at the positions of a 1-D int64 index along dim (a copy).
See torch.index_select().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.index_select(1, torch.tensor([2, 0]))
    tensor([[ 3.,  1.],
            [-6., -4.]])
""",
    "inner": """\
inner(other) -> Tensor

The inner product over the last dim: the dot product for 1-D tensors. See
torch.inner().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.inner(b)
    tensor(32.)
""",
    "int": """\
int() -> Tensor

A copy in torch.int32 (fractions are cut toward zero).

Example::

    >>> torch.tensor([1.7, -2.2]).int()
    tensor([ 1, -2], dtype=torch.int32)
""",
    "is_contiguous": """\
is_contiguous() -> bool

True when the elements are laid out row-major without gaps (a transpose is
not).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.is_contiguous()
    True
    >>> x.t().is_contiguous()
    False
""",
    "is_floating_point": """\
is_floating_point() -> bool

True when the dtype is a floating point one (float16, bfloat16, float32,
float64).

Example::

    >>> torch.tensor([1.]).is_floating_point()
    True
    >>> torch.tensor([1]).is_floating_point()
    False
""",
    "isclose": """\
isclose(other, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor

Elementwise |self - other| <= atol + rtol * |other|, as a bool tensor. See
torch.isclose().

Example::

    >>> torch.tensor([1., 2.]).isclose(torch.tensor([1., 2.1]))
    tensor([ True, False])
""",
    "isfinite": """\
isfinite() -> Tensor

Elementwise: True where the value is neither NaN nor infinite. See
torch.isfinite().

Example::

    >>> torch.tensor([1., float('inf'), float('nan')]).isfinite()
    tensor([ True, False, False])
""",
    "isinf": """\
isinf() -> Tensor

Elementwise: True where the value is +inf or -inf. See torch.isinf().

Example::

    >>> torch.tensor([1., float('inf'), float('-inf')]).isinf()
    tensor([False,  True,  True])
""",
    "isnan": """\
isnan() -> Tensor

Elementwise: True where the value is NaN; a quick check for a diverged loss
or gradient. See torch.isnan().

Example::

    >>> torch.tensor([1., float('nan')]).isnan()
    tensor([False,  True])
""",
    "item": """\
item() -> number

The value of a one-element tensor as a Python number (float, int or bool);
the usual way to log a loss.

Example::

    >>> w = torch.tensor([1., 2., 3.], requires_grad=True)
    >>> loss = (w * w).sum()
    >>> loss.item()
    14.0
""",
    "kthvalue": """\
kthvalue(k, dim=-1, keepdim=False) -> (Tensor, LongTensor)

The k-th smallest value along dim (k counts from 1) and its index, as
torch.return_types.kthvalue. See torch.kthvalue().

Example::

    >>> torch.tensor([3., 1., 2.]).kthvalue(2)
    torch.return_types.kthvalue(
    values=tensor(2.),
    indices=tensor(2))
""",
    "lcm": """\
lcm(other) -> Tensor

The least common multiple of each pair of elements of two integer tensors
(broadcast); 0 where either is 0. See torch.lcm().
""",
    "lcm_": """\
lcm_(other) -> Tensor

In-place version of Tensor.lcm(): self is overwritten with the result,
which is returned.
""",
    "le": """\
le(other) -> Tensor

Elementwise <=, broadcast, as a bool tensor. See torch.le().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.le(0)
    tensor([[False,  True, False],
            [ True, False,  True]])
""",
    "le_": """\
le_(other) -> Tensor

In-place version of Tensor.le(): self is overwritten with the result, which
is returned.
""",
    "lerp": """\
lerp(end, weight) -> Tensor

Linear interpolation: self + weight * (end - self), elementwise. See
torch.lerp().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.lerp(b, 0.5)
    tensor([2.5000, 3.5000, 4.5000])
""",
    "lerp_": """\
lerp_(end, weight) -> Tensor

In-place version of Tensor.lerp(): self is overwritten with the result,
which is returned.
""",
    "less": """\
less(other) -> Tensor

Alias for Tensor.lt().
""",
    "less_equal": """\
less_equal(other) -> Tensor

Alias for Tensor.le().
""",
    "lgamma": """\
lgamma() -> Tensor

The natural log of the absolute value of the gamma function at each element
(lgamma(n + 1) is log(n!)). See torch.lgamma().
""",
    "lgamma_": """\
lgamma_() -> Tensor

In-place version of Tensor.lgamma(): self is overwritten with the result,
which is returned.
""",
    "log": """\
log() -> Tensor

The natural logarithm of each element (-inf at 0, nan below 0). See
torch.log().

Example::

    >>> torch.tensor([1., 2.7183, 0.5]).log()
    tensor([ 0.0000,  1.0000, -0.6931])
""",
    "log10": """\
log10() -> Tensor

The base-10 logarithm of each element. See torch.log10().

Example::

    >>> torch.tensor([1., 100.]).log10()
    tensor([0., 2.])
""",
    "log10_": """\
log10_() -> Tensor

In-place version of Tensor.log10(): self is overwritten with the result,
which is returned.
""",
    "log1p": """\
log1p() -> Tensor

log(1 + x) of each element, accurate for x near 0. See torch.log1p().

Example::

    >>> torch.tensor([0., 1e-5, 1.]).log1p()
    tensor([0.0000e+00, 9.9999e-06, 6.9315e-01])
""",
    "log1p_": """\
log1p_() -> Tensor

In-place version of Tensor.log1p(): self is overwritten with the result,
which is returned.
""",
    "log2": """\
log2() -> Tensor

The base-2 logarithm of each element. See torch.log2().

Example::

    >>> torch.tensor([1., 8.]).log2()
    tensor([0., 3.])
""",
    "log2_": """\
log2_() -> Tensor

In-place version of Tensor.log2(): self is overwritten with the result,
which is returned.
""",
    "log_": """\
log_() -> Tensor

In-place version of Tensor.log(): self is overwritten with the result, which
is returned.
""",
    "log_normal_": """\
log_normal_(mean=1, std=2, *, generator=None) -> Tensor

Fill self with exp of numbers drawn from N(mean, std**2) (mean and std are
those of the log), in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(3).log_normal_(0.0, 0.5)
    tensor([2.1608, 0.8635, 0.3364])
""",
    "log_softmax": """\
log_softmax(dim, *, dtype=None) -> Tensor

log(softmax(self)) along dim, computed without overflow; the self of
nll_loss. See torch.log_softmax().

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> logits.log_softmax(dim=1)
    tensor([[-0.2413, -1.7413, -3.2413],
            [-3.0096, -2.9096, -0.1096]])
""",
    "logical_and": """\
logical_and(other) -> Tensor

Elementwise and of the truth values (non-zero is True), as a bool tensor.
See torch.logical_and().

Example::

    >>> torch.tensor([True, True, False]).logical_and(torch.tensor([True, False, False]))
    tensor([ True, False, False])
""",
    "logical_and_": """\
logical_and_(other) -> Tensor

In-place version of Tensor.logical_and(): self is overwritten with the
result, which is returned.
""",
    "logical_not": """\
logical_not() -> Tensor

Elementwise not of the truth values (non-zero is True), as a bool tensor.
See torch.logical_not().

Example::

    >>> torch.tensor([0, 1, 2]).logical_not()
    tensor([ True, False, False])
""",
    "logical_not_": """\
logical_not_() -> Tensor

In-place version of Tensor.logical_not(): self is overwritten with the
result, which is returned.
""",
    "logical_or": """\
logical_or(other) -> Tensor

Elementwise or of the truth values (non-zero is True), as a bool tensor. See
torch.logical_or().

Example::

    >>> torch.tensor([True, False, False]).logical_or(torch.tensor([True, True, False]))
    tensor([ True,  True, False])
""",
    "logical_or_": """\
logical_or_(other) -> Tensor

In-place version of Tensor.logical_or(): self is overwritten with the
result, which is returned.
""",
    "logical_xor": """\
logical_xor(other) -> Tensor

Elementwise exclusive or of the truth values (non-zero is True), as a bool
tensor. See torch.logical_xor().

Example::

    >>> torch.tensor([True, False, False]).logical_xor(torch.tensor([True, True, False]))
    tensor([False,  True, False])
""",
    "logical_xor_": """\
logical_xor_(other) -> Tensor

In-place version of Tensor.logical_xor(): self is overwritten with the
result, which is returned.
""",
    "logit": """\
logit(eps=None) -> Tensor

log(p / (1 - p)) for each element p: the inverse of sigmoid. With eps, p is
first clamped to [eps, 1 - eps] so that 0 and 1 give finite values. See
torch.logit().
""",
    "logit_": """\
logit_(eps=None) -> Tensor

In-place version of Tensor.logit(): self is overwritten with the result,
which is returned.
""",
    "logsumexp": """\
logsumexp(dim, keepdim=False) -> Tensor

log(sum(exp(self))) along dim, computed without overflow. See
torch.logsumexp().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.logsumexp(dim=1)
    tensor([3.1328, 5.0001])
""",
    "long": """\
long() -> Tensor

A copy in torch.int64 (fractions are cut toward zero); class indices for
cross_entropy are int64.

Example::

    >>> torch.tensor([1.7, -2.2]).long()
    tensor([ 1, -2])
""",
    "lt": """\
lt(other) -> Tensor

Elementwise <, broadcast, as a bool tensor. See torch.lt().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.lt(0)
    tensor([[False,  True, False],
            [ True, False,  True]])
""",
    "lt_": """\
lt_(other) -> Tensor

In-place version of Tensor.lt(): self is overwritten with the result, which
is returned.
""",
    "masked_fill": """\
masked_fill(mask, value) -> Tensor

A copy of self with value wherever the bool mask (broadcast) is True; the
usual way to hide attention scores. See torch.masked_fill().

Example::

    >>> scores = torch.tensor([0.9, 0.1, 0.5])
    >>> mask = torch.tensor([False, True, False])
    >>> scores.masked_fill(mask, float('-inf'))
    tensor([0.9000,   -inf, 0.5000])
""",
    "masked_fill_": """\
masked_fill_(mask, value) -> Tensor

In-place version of Tensor.masked_fill(): self is overwritten with the
result, which is returned.
""",
    "masked_select": """\
masked_select(mask) -> Tensor

The elements where the bool mask (broadcast) is True, as a 1-D tensor. See
torch.masked_select().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.masked_select(x > 0)
    tensor([1., 3., 5.])
""",
    "matmul": """\
matmul(other) -> Tensor

Matrix product, as the @ operator: 1-D x 1-D is a dot product, 2-D x 2-D a
matrix product, and higher dims are batches that broadcast. See
torch.matmul().

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> a.matmul(b)
    tensor([[2., 1.],
            [4., 3.]])
    >>> a.matmul(torch.tensor([1., 1.]))
    tensor([3., 7.])
""",
    "max": """\
max(dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The largest element (a 0-dim tensor); with dim, the largest values along dim
and their indices (torch.return_types.max, which unpacks as a pair); with a
tensor as the second argument, the elementwise maximum. See torch.max().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.max()
    tensor(5.)
    >>> values, indices = x.max(dim=1)
    >>> indices
    tensor([2, 1])
""",
    "maximum": """\
maximum(other) -> Tensor

The elementwise maximum of two tensors, broadcast. See torch.maximum().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.maximum(torch.tensor(2.))
    tensor([2., 2., 3.])
""",
    "mean": """\
mean(dim=None, keepdim=False, *, dtype=None) -> Tensor

The mean of all elements, or along dim (an int or a tuple of ints). self
must be a float tensor. See torch.mean().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.mean()
    tensor(-0.5000)
    >>> x.mean(dim=0)
    tensor([-1.5000,  1.5000, -1.5000])
""",
    "median": """\
median(dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The median (the lower of the two middle values for an even count); with dim,
the medians along dim and their indices. See torch.median().

Example::

    >>> torch.tensor([3., 1., 4., 2.]).median()
    tensor(2.)
""",
    "min": """\
min(dim=None, keepdim=False) -> Tensor or (Tensor, LongTensor)

The smallest element (a 0-dim tensor); with dim, the smallest values along
dim and their indices (torch.return_types.min); with a tensor as the second
argument, the elementwise minimum. See torch.min().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.min()
    tensor(-6.)
    >>> x.min(dim=1)
    torch.return_types.min(
    values=tensor([-2., -6.]),
    indices=tensor([1, 2]))
""",
    "minimum": """\
minimum(other) -> Tensor

The elementwise minimum of two tensors, broadcast. See torch.minimum().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.minimum(torch.tensor(2.))
    tensor([1., 2., 2.])
""",
    "mm": """\
mm(mat2) -> Tensor

The matrix product of two 2-D tensors (matmul also takes batches and
vectors). See torch.mm().

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> a.mm(b)
    tensor([[2., 1.],
            [4., 3.]])
""",
    "movedim": """\
movedim(source, destination) -> Tensor

A view with dim source moved to position destination (ints or tuples of
ints), the others keeping their order. See torch.movedim().

Example::

    >>> torch.zeros(2, 3, 4).movedim(0, -1).shape
    torch.Size([3, 4, 2])
""",
    "msort": """\
msort() -> Tensor

self sorted along dim 0 (the values only). See torch.msort().

Example::

    >>> torch.tensor([[3., 1.], [1., 2.]]).msort()
    tensor([[1., 1.],
            [3., 2.]])
""",
    "mul": """\
mul(other) -> Tensor

self * other, elementwise and broadcast. See torch.mul().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.mul(b)
    tensor([ 4., 10., 18.])
    >>> a.mul(2)
    tensor([2., 4., 6.])
""",
    "mul_": """\
mul_(other) -> Tensor

In-place version of Tensor.mul(): self is overwritten with the result, which
is returned.
""",
    "multinomial": """\
multinomial(num_samples, replacement=False, *, generator=None) -> LongTensor

Indices drawn with probabilities proportional to the weights in self (each
row for 2-D self); how a language model samples its next token. See
torch.multinomial().

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.tensor([0.1, 0.0, 0.9]).multinomial(4, replacement=True)
    tensor([2, 2, 2, 2])
""",
    "multiply": """\
multiply(other) -> Tensor

Alias for Tensor.mul().
""",
    "multiply_": """\
multiply_(other) -> Tensor

In-place version of Tensor.multiply(): self is overwritten with the result,
which is returned.
""",
    "mv": """\
mv(vec) -> Tensor

The product of a matrix (n, m) and a vector (m,), a vector (n,). See
torch.mv().

Example::

    >>> a = torch.tensor([[1., 2.], [3., 4.]])
    >>> b = torch.tensor([[0., 1.], [1., 0.]])
    >>> a.mv(torch.tensor([1., 1.]))
    tensor([3., 7.])
""",
    "nan_to_num": """\
nan_to_num(nan=0.0, posinf=None, neginf=None) -> Tensor

NaN replaced by nan, +inf by posinf and -inf by neginf; the infinities
default to the dtype's largest and smallest finite values. See
torch.nan_to_num().

Example::

    >>> torch.tensor([float('nan'), float('inf'), 1.]).nan_to_num()
    tensor([0.0000e+00, 3.4028e+38, 1.0000e+00])
""",
    "nan_to_num_": """\
nan_to_num_(nan=0.0, posinf=None, neginf=None) -> Tensor

In-place version of Tensor.nan_to_num(): self is overwritten with the
result, which is returned.
""",
    "narrow": """\
narrow(dim, start, length) -> Tensor

The view of length elements of dim from start: self[..., start:start +
length, ...]. See torch.narrow().

Example::

    >>> torch.arange(6).narrow(0, 2, 3)
    tensor([2, 3, 4])
""",
    "ndimension": """\
ndimension() -> int

The number of dims: an old name of dim().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.ndimension()
    2
""",
    "ne": """\
ne(other) -> Tensor

Elementwise !=, broadcast, as a bool tensor. See torch.ne().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.ne(3)
    tensor([[ True,  True, False],
            [ True,  True,  True]])
""",
    "ne_": """\
ne_(other) -> Tensor

In-place version of Tensor.ne(): self is overwritten with the result, which
is returned.
""",
    "neg": """\
neg() -> Tensor

The negation of each element, -self. See torch.neg().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.neg()
    tensor([[-1.,  2., -3.],
            [ 4., -5.,  6.]])
""",
    "neg_": """\
neg_() -> Tensor

In-place version of Tensor.neg(): self is overwritten with the result, which
is returned.
""",
    "negative": """\
negative() -> Tensor

Alias for Tensor.neg().
""",
    "nelement": """\
nelement() -> int

The number of elements: another name of numel().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.nelement()
    6
""",
    "new_empty": """\
new_empty(size, *, dtype=None, requires_grad=False) -> Tensor

A tensor of size with self's dtype (unless given) whose values are not set
(zeros in nndb).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.new_empty((2,)).dtype
    torch.float32
""",
    "new_full": """\
new_full(size, fill_value, *, dtype=None, requires_grad=False) -> Tensor

A tensor of size filled with fill_value, with self's dtype unless given.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.new_full((2,), 7.0)
    tensor([7., 7.])
""",
    "new_ones": """\
new_ones(size, *, dtype=None, requires_grad=False) -> Tensor

Ones of size, with self's dtype unless given.

Example::

    >>> torch.tensor([1, 2]).new_ones(3)
    tensor([1, 1, 1])
""",
    "new_tensor": """\
new_tensor(data, *, dtype=None, requires_grad=False) -> Tensor

A new tensor of data, with self's dtype unless given.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.new_tensor([1, 2])
    tensor([1., 2.])
""",
    "new_zeros": """\
new_zeros(size, *, dtype=None, requires_grad=False) -> Tensor

Zeros of size, with self's dtype unless given.

Example::

    >>> torch.tensor([1, 2]).new_zeros(2, 3)
    tensor([[0, 0, 0],
            [0, 0, 0]])
""",
    "nonzero": """\
nonzero(*, as_tuple=False) -> LongTensor

The coordinates of the non-zero elements: an int64 tensor of shape (count,
self.dim()), or with as_tuple=True one 1-D tensor per dim (for indexing).
See torch.nonzero().

Example::

    >>> torch.tensor([0, 3, 0, 4]).nonzero()
    tensor([[1],
            [3]])
""",
    "norm": """\
norm(p='fro', dim=None, keepdim=False) -> Tensor

The p-norm of all elements (p='fro' or 2: the Euclidean length), or along
dim. See torch.norm().

Example::

    >>> torch.tensor([3., 4.]).norm()
    tensor(5.)
""",
    "normal_": """\
normal_(mean=0, std=1, *, generator=None) -> Tensor

Fill self with random values from a normal distribution, in place; returns
self. How layers initialise their weights.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(3).normal_(0, 0.02)
    tensor([ 0.0308, -0.0059, -0.0436])
""",
    "not_equal": """\
not_equal(other) -> Tensor

Alias for Tensor.ne().
""",
    "numel": """\
numel() -> int

The number of elements of self (the product of its sizes). See
torch.numel().

Example::

    >>> torch.zeros(2, 3).numel()
    6
""",
    "numpy": """\
numpy() -> numpy.ndarray

The values as a NumPy array that shares memory with the tensor. A tensor
that requires grad must be detached first: x.detach().numpy().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.numpy()
    array([[ 1., -2.,  3.],
           [-4.,  5., -6.]], dtype=float32)
""",
    "outer": """\
outer(vec2) -> Tensor

The outer product of two 1-D tensors: out[i][j] = self[i] * vec2[j]. See
torch.outer().

Example::

    >>> torch.tensor([1., 2.]).outer(torch.tensor([1., 10., 100.]))
    tensor([[  1.,  10., 100.],
            [  2.,  20., 200.]])
""",
    "permute": """\
permute(*dims) -> Tensor

A view with the dims in the order given (a tuple naming every dim once). See
torch.permute().

Example::

    >>> torch.zeros(2, 3, 4).permute(2, 0, 1).shape
    torch.Size([4, 2, 3])
""",
    "polygamma": """\
polygamma(n) -> Tensor

The n-th derivative of digamma at each element: torch.polygamma(n, self).
""",
    "polygamma_": """\
polygamma_(n) -> Tensor

In-place version of Tensor.polygamma(): self is overwritten with the result,
which is returned.
""",
    "positive": """\
positive() -> Tensor

self itself (the unary + operator). See torch.positive().

Example::

    >>> torch.tensor([-1., 2.]).positive()
    tensor([-1.,  2.])
""",
    "pow": """\
pow(exponent) -> Tensor

self ** exponent elementwise; exponent may be a number or a tensor
(broadcast). See torch.pow().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> a.pow(2)
    tensor([1., 4., 9.])
    >>> a.pow(b)
    tensor([  1.,  32., 729.])
""",
    "pow_": """\
pow_(exponent) -> Tensor

In-place version of Tensor.pow(): self is overwritten with the result, which
is returned.
""",
    "prod": """\
prod(dim=None, keepdim=False, *, dtype=None) -> Tensor

The product of all elements, or along dim. See torch.prod().

Example::

    >>> torch.tensor([[1., 2.], [3., 4.]]).prod()
    tensor(24.)
    >>> torch.tensor([[1., 2.], [3., 4.]]).prod(dim=1)
    tensor([ 2., 12.])
""",
    "random_": """\
random_(from=0, to=None, *, generator=None) -> Tensor

Fill self with random integers in [from, to), in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.zeros(5, dtype=torch.int64).random_(0, 10)
    tensor([4, 9, 3, 0, 3])
""",
    "ravel": """\
ravel() -> Tensor

The elements as a 1-D tensor (a view when possible). See torch.ravel().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).ravel()
    tensor([1, 2, 3, 4])
""",
    "reciprocal": """\
reciprocal() -> Tensor

1 / x of each element. See torch.reciprocal().

Example::

    >>> torch.tensor([1., 2., 4.]).reciprocal()
    tensor([1.0000, 0.5000, 0.2500])
""",
    "reciprocal_": """\
reciprocal_() -> Tensor

In-place version of Tensor.reciprocal(): self is overwritten with the
result, which is returned.
""",
    "relu": """\
relu() -> Tensor

max(x, 0) of each element: the rectified linear unit. See torch.relu().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.relu()
    tensor([[1., 0., 3.],
            [0., 5., 0.]])
""",
    "relu_": """\
relu_() -> Tensor

In-place version of Tensor.relu(): self is overwritten with the result,
which is returned.
""",
    "remainder": """\
remainder(other) -> Tensor

The remainder of self / other with the sign of other, as Python's %
operator. See torch.remainder().

Example::

    >>> torch.tensor([-3., 3.]).remainder(2)
    tensor([1., 1.])
""",
    "remainder_": """\
remainder_(other) -> Tensor

In-place version of Tensor.remainder(): self is overwritten with the result,
which is returned.
""",
    "repeat": """\
repeat(*sizes) -> Tensor

A copy tiled sizes[i] times along each dim; more sizes than dims add leading
dims.

Example::

    >>> torch.tensor([1, 2]).repeat(2, 2)
    tensor([[1, 2, 1, 2],
            [1, 2, 1, 2]])
""",
    "repeat_interleave": """\
repeat_interleave(repeats, dim=None) -> Tensor

Each element (or each slice along dim) repeated [repeats] times in a row;
dim=None flattens first. See torch.repeat_interleave().

Example::

    >>> torch.tensor([1, 2]).repeat_interleave(2)
    tensor([1, 1, 2, 2])
""",
    "requires_grad_": """\
requires_grad_(requires_grad=True) -> Tensor

Start (or stop) recording operations on this leaf tensor for autograd, in
place; returns self.

Example::

    >>> w = torch.zeros(3).requires_grad_()
    >>> w.requires_grad
    True
""",
    "reshape": """\
reshape(*shape) -> Tensor

The same elements in a new shape (a tuple; one size may be -1, inferred); a
view when the layout allows, else a copy. See torch.reshape().

Example::

    >>> torch.arange(6).reshape(2, -1)
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "reshape_as": """\
reshape_as(other) -> Tensor

self reshaped to the shape of other: self.reshape(other.shape).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.arange(6).reshape_as(x)
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "retain_grad": """\
retain_grad() -> None

Keep the .grad of this non-leaf tensor after backward() (only leaves keep
theirs by default).

Example::

    >>> w = torch.tensor([1., 2.], requires_grad=True)
    >>> h = w * 3
    >>> h.retain_grad()
    >>> h.sum().backward()
    >>> h.grad
    tensor([1., 1.])
""",
    "roll": """\
roll(shifts, dims=None) -> Tensor

The elements shifted along dims, wrapping around at the end (flattened first
when dims is None). See torch.roll().

Example::

    >>> torch.arange(5).roll(2)
    tensor([3, 4, 0, 1, 2])
""",
    "round": """\
round(*, decimals=0) -> Tensor

Each element rounded to the nearest integer value (halves to even), or to
decimals places. See torch.round().

Example::

    >>> torch.tensor([0.5, 1.5, 2.7, -1.2]).round()
    tensor([ 0.,  2.,  3., -1.])
""",
    "round_": """\
round_(*, decimals=0) -> Tensor

In-place version of Tensor.round(): self is overwritten with the result,
which is returned.
""",
    "rsqrt": """\
rsqrt() -> Tensor

1 / sqrt(x) of each element. See torch.rsqrt().

Example::

    >>> torch.tensor([1., 4., 16.]).rsqrt()
    tensor([1.0000, 0.5000, 0.2500])
""",
    "rsqrt_": """\
rsqrt_() -> Tensor

In-place version of Tensor.rsqrt(): self is overwritten with the result,
which is returned.
""",
    "scatter": """\
scatter(dim, index, src) -> Tensor

A copy of self with the values of src (a tensor or a number) written at
index along dim: for dim=1, out[i][index[i][j]] = src[i][j]. See
torch.scatter().

Example::

    >>> torch.zeros(2, 3).scatter(1, torch.tensor([[0], [2]]), 1.0)
    tensor([[1., 0., 0.],
            [0., 0., 1.]])
""",
    "scatter_": """\
scatter_(dim, index, src) -> Tensor

In-place version of Tensor.scatter(): self is overwritten with the result,
which is returned.
""",
    "scatter_add": """\
scatter_add(dim, index, src) -> Tensor

A copy of self with the values of src added at index along dim; repeated
indices add up. See torch.scatter_add().

Example::

    >>> torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.ones(3))
    tensor([2., 0., 1.])
""",
    "scatter_add_": """\
scatter_add_(dim, index, src) -> Tensor

In-place version of Tensor.scatter_add(): self is overwritten with the
result, which is returned.
""",
    "select": """\
select(dim, index) -> Tensor

The slice at index along dim, with that dim removed (a view): self[:, index]
for dim=1. See torch.select().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).select(1, 0)
    tensor([1, 3])
""",
    "sgn": """\
sgn() -> Tensor

The sign of each element: -1, 0 or 1 (sign; for complex numbers PyTorch
gives x / |x|). See torch.sgn().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.sgn()
    tensor([[ 1., -1.,  1.],
            [-1.,  1., -1.]])
""",
    "short": """\
short() -> Tensor

A copy in torch.int16.

Example::

    >>> torch.tensor([1.7, -2.2]).short()
    tensor([ 1, -2], dtype=torch.int16)
""",
    "sigmoid": """\
sigmoid() -> Tensor

1 / (1 + exp(-x)) of each element: values in (0, 1). See torch.sigmoid().

Example::

    >>> torch.tensor([-2., 0., 2.]).sigmoid()
    tensor([0.1192, 0.5000, 0.8808])
""",
    "sigmoid_": """\
sigmoid_() -> Tensor

In-place version of Tensor.sigmoid(): self is overwritten with the result,
which is returned.
""",
    "sign": """\
sign() -> Tensor

The sign of each element: -1, 0 or 1. See torch.sign().

Example::

    >>> torch.tensor([-2., 0., 3.]).sign()
    tensor([-1.,  0.,  1.])
""",
    "sign_": """\
sign_() -> Tensor

In-place version of Tensor.sign(): self is overwritten with the result,
which is returned.
""",
    "sin": """\
sin() -> Tensor

The sine of each element (in radians). See torch.sin().

Example::

    >>> torch.tensor([0., 1., 2.]).sin()
    tensor([0.0000, 0.8415, 0.9093])
""",
    "sin_": """\
sin_() -> Tensor

In-place version of Tensor.sin(): self is overwritten with the result, which
is returned.
""",
    "sinc": """\
sinc() -> Tensor

The normalized sinc function sin(pi * x) / (pi * x) of each element (1 at 0).
See torch.sinc().
""",
    "sinc_": """\
sinc_() -> Tensor

In-place version of Tensor.sinc(): self is overwritten with the result,
which is returned.
""",
    "sinh": """\
sinh() -> Tensor

The hyperbolic sine of each element. See torch.sinh().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.sinh()
    tensor([-0.5211,  0.0000,  0.5211])
""",
    "sinh_": """\
sinh_() -> Tensor

In-place version of Tensor.sinh(): self is overwritten with the result,
which is returned.
""",
    "size": """\
size(dim=None) -> torch.Size or int

The shape as a torch.Size (a tuple), or the size of one dim.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.size()
    torch.Size([2, 3])
    >>> x.size(1)
    3
""",
    "softmax": """\
softmax(dim, *, dtype=None) -> Tensor

exp(x) / sum(exp(x)) along dim, computed without overflow: each slice
becomes probabilities that add up to 1. See torch.softmax().

Example::

    >>> logits = torch.tensor([[2.0, 0.5, -1.0], [0.1, 0.2, 3.0]])
    >>> logits.softmax(dim=1)
    tensor([[0.7856, 0.1753, 0.0391],
            [0.0493, 0.0545, 0.8962]])
""",
    "sort": """\
sort(dim=-1, descending=False, stable=False) -> (Tensor, LongTensor)

The values sorted along dim and the indices they came from, as
torch.return_types.sort (unpacks as a pair; .values, .indices). See
torch.sort().

Example::

    >>> values, indices = torch.tensor([3., 1., 2.]).sort()
    >>> values
    tensor([1., 2., 3.])
    >>> indices
    tensor([1, 2, 0])
""",
    "split": """\
split(split_size, dim=0) -> tuple of Tensors

Split along dim into pieces of split_size (the last may be smaller) or of
the sizes in a list; the pieces are views. See torch.split().

Example::

    >>> torch.arange(5).split(2)
    (tensor([0, 1]), tensor([2, 3]), tensor([4]))
    >>> torch.arange(5).split([1, 4])
    (tensor([0]), tensor([1, 2, 3, 4]))
""",
    "sqrt": """\
sqrt() -> Tensor

The square root of each element (nan below 0). See torch.sqrt().

Example::

    >>> torch.tensor([1., 4., 9.]).sqrt()
    tensor([1., 2., 3.])
""",
    "sqrt_": """\
sqrt_() -> Tensor

In-place version of Tensor.sqrt(): self is overwritten with the result,
which is returned.
""",
    "square": """\
square() -> Tensor

x * x of each element. See torch.square().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.square()
    tensor([[ 1.,  4.,  9.],
            [16., 25., 36.]])
""",
    "square_": """\
square_() -> Tensor

In-place version of Tensor.square(): self is overwritten with the result,
which is returned.
""",
    "squeeze": """\
squeeze(dim=None) -> Tensor

A view without the dims of size 1 (all of them, or only dim when it has size
1). See torch.squeeze().

Example::

    >>> torch.zeros(2, 1, 3).squeeze().shape
    torch.Size([2, 3])
""",
    "squeeze_": """\
squeeze_(dim=None) -> Tensor

In-place version of Tensor.squeeze(): self is overwritten with the result,
which is returned.
""",
    "std": """\
std(dim=None, unbiased=True, keepdim=False) -> Tensor

The standard deviation of all elements or along dim; unbiased (divided by n
- 1, Bessel's correction) unless unbiased=False. See torch.std().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.std()
    tensor(4.2308)
    >>> x.std(dim=1, unbiased=False)
    tensor([2.0548, 4.7842])
""",
    "std_mean": """\
std_mean(dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)

The standard deviation and the mean, as a pair (see std and mean). See
torch.std_mean().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.std_mean(dim=1)
    (tensor([2.5166, 5.8595]), tensor([ 0.6667, -1.6667]))
""",
    "storage_offset": """\
storage_offset() -> int

Where this view's first element is in its storage, in elements.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x[1:].storage_offset()
    3
""",
    "stride": """\
stride(dim=None) -> tuple or int

How many elements to step in the storage to move by one along each dim (a
tuple), or along one dim.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.stride()
    (3, 1)
    >>> x.t().stride()
    (1, 3)
""",
    "sub": """\
sub(other, *, alpha=1) -> Tensor

self - alpha * other, broadcast. See torch.sub().

Example::

    >>> a = torch.tensor([1., 2., 3.])
    >>> b = torch.tensor([4., 5., 6.])
    >>> b.sub(a)
    tensor([3., 3., 3.])
    >>> b.sub(a, alpha=2)
    tensor([2., 1., 0.])
""",
    "sub_": """\
sub_(other, *, alpha=1) -> Tensor

In-place version of Tensor.sub(): self is overwritten with the result, which
is returned.
""",
    "subtract": """\
subtract(other, *, alpha=1) -> Tensor

Alias for Tensor.sub().
""",
    "subtract_": """\
subtract_(other, *, alpha=1) -> Tensor

In-place version of Tensor.subtract(): self is overwritten with the result,
which is returned.
""",
    "sum": """\
sum(dim=None, keepdim=False, *, dtype=None) -> Tensor

The sum of all elements (a 0-dim tensor), or along dim (an int or a tuple of
ints); keepdim=True keeps the summed dims with size 1. See torch.sum().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.sum()
    tensor(-3.)
    >>> x.sum(dim=1)
    tensor([ 2., -5.])
    >>> x.sum(dim=1, keepdim=True)
    tensor([[ 2.],
            [-5.]])
""",
    "swapaxes": """\
swapaxes(dim0, dim1) -> Tensor

Alias for Tensor.transpose().
""",
    "swapdims": """\
swapdims(dim0, dim1) -> Tensor

Alias for Tensor.transpose().
""",
    "t": """\
t() -> Tensor

The transpose of a 2-D tensor (a view); 0-D and 1-D tensors come back as
they are. See torch.t().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.t()
    tensor([[ 1., -4.],
            [-2.,  5.],
            [ 3., -6.]])
""",
    "t_": """\
t_() -> Tensor

In-place version of Tensor.t(): self is overwritten with the result, which
is returned.
""",
    "tan": """\
tan() -> Tensor

The tangent of each element (in radians). See torch.tan().

Example::

    >>> x = torch.tensor([-0.5, 0.0, 0.5])
    >>> x.tan()
    tensor([-0.5463,  0.0000,  0.5463])
""",
    "tan_": """\
tan_() -> Tensor

In-place version of Tensor.tan(): self is overwritten with the result, which
is returned.
""",
    "tanh": """\
tanh() -> Tensor

The hyperbolic tangent of each element: values in (-1, 1). See torch.tanh().

Example::

    >>> torch.tensor([-2., 0., 2.]).tanh()
    tensor([-0.9640,  0.0000,  0.9640])
""",
    "tanh_": """\
tanh_() -> Tensor

In-place version of Tensor.tanh(): self is overwritten with the result,
which is returned.
""",
    "tile": """\
tile(*dims) -> Tensor

self repeated dims[i] times along each dim (as repeat; a shorter dims leaves
the leading dims alone). See torch.tile().

Example::

    >>> torch.tensor([1, 2]).tile(2)
    tensor([1, 2, 1, 2])
""",
    "to": """\
to(dtype) -> Tensor / to(device, dtype=None) -> Tensor / to(other) -> Tensor

A copy converted to dtype (or to other's dtype); self when nothing changes.
nndb computes on the CPU: device 'cpu' changes nothing.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.to(torch.float64)
    tensor([[ 1., -2.,  3.],
            [-4.,  5., -6.]], dtype=torch.float64)
    >>> x.to("cpu") is x
    True
""",
    "tolist": """\
tolist() -> list or number

The values as (nested) Python lists, or a number for a 0-dim tensor.

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.tolist()
    [[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]]
""",
    "topk": """\
topk(k, dim=-1, largest=True, sorted=True) -> (Tensor, LongTensor)

The k largest values along dim (the smallest with largest=False) and their
indices, as torch.return_types.topk. See torch.topk().

Example::

    >>> torch.tensor([1., 5., 3., 4.]).topk(2)
    torch.return_types.topk(
    values=tensor([5., 4.]),
    indices=tensor([1, 3]))
""",
    "trace": """\
trace() -> Tensor

The sum of the diagonal of a 2-D tensor. See torch.trace().

Example::

    >>> torch.tensor([[1., 2.], [3., 4.]]).trace()
    tensor(5.)
""",
    "transpose": """\
transpose(dim0, dim1) -> Tensor

A view with dims dim0 and dim1 swapped. See torch.transpose().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.transpose(0, 1)
    tensor([[ 1., -4.],
            [-2.,  5.],
            [ 3., -6.]])
""",
    "transpose_": """\
transpose_(dim0, dim1) -> Tensor

In-place version of Tensor.transpose(): self is overwritten with the result,
which is returned.
""",
    "tril": """\
tril(diagonal=0) -> Tensor

The lower triangle of the last two dims, zeros above it; diagonal > 0 keeps
more diagonals, < 0 fewer. The causal mask of attention. See torch.tril().

Example::

    >>> torch.ones(3, 3).tril()
    tensor([[1., 0., 0.],
            [1., 1., 0.],
            [1., 1., 1.]])
""",
    "tril_": """\
tril_(diagonal=0) -> Tensor

In-place version of Tensor.tril(): self is overwritten with the result,
which is returned.
""",
    "triu": """\
triu(diagonal=0) -> Tensor

The upper triangle of the last two dims, zeros below it; diagonal > 0 keeps
fewer diagonals. See torch.triu().

Example::

    >>> torch.ones(3, 3).triu(diagonal=1)
    tensor([[0., 1., 1.],
            [0., 0., 1.],
            [0., 0., 0.]])
""",
    "triu_": """\
triu_(diagonal=0) -> Tensor

In-place version of Tensor.triu(): self is overwritten with the result,
which is returned.
""",
    "true_divide": """\
true_divide(other, *, rounding_mode=None) -> Tensor

Alias for Tensor.div().
""",
    "true_divide_": """\
true_divide_(other, *, rounding_mode=None) -> Tensor

In-place version of Tensor.true_divide(): self is overwritten with the
result, which is returned.
""",
    "trunc": """\
trunc() -> Tensor

Each element rounded toward zero to an integer value. See torch.trunc().

Example::

    >>> x = torch.tensor([-1.5, -0.5, 0.4, 2.7])
    >>> x.trunc()
    tensor([-1., -0.,  0.,  2.])
""",
    "trunc_": """\
trunc_() -> Tensor

In-place version of Tensor.trunc(): self is overwritten with the result,
which is returned.
""",
    "type_as": """\
type_as(other) -> Tensor

self converted to other's dtype.

Example::

    >>> torch.tensor([1, 2]).type_as(torch.tensor([0.5]))
    tensor([1., 2.])
""",
    "unbind": """\
unbind(dim=0) -> tuple of Tensors

The slices along dim, as a tuple of views with that dim removed. See
torch.unbind().

Example::

    >>> torch.tensor([[1, 2], [3, 4]]).unbind()
    (tensor([1, 2]), tensor([3, 4]))
""",
    "unflatten": """\
unflatten(dim, sizes) -> Tensor

A view with dim split into several dims of the given sizes (one may be -1):
the inverse of flatten. See torch.unflatten().

Example::

    >>> torch.arange(6).unflatten(0, (2, 3))
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "uniform_": """\
uniform_(from=0, to=1, *, generator=None) -> Tensor

Fill self with random values uniform on [from, to), in place; returns self.

Example::

    >>> _ = torch.manual_seed(0)
    >>> torch.empty(3).uniform_(-0.1, 0.1)
    tensor([-0.0007,  0.0536, -0.0823])
""",
    "unique": """\
unique(sorted=True, return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple

The distinct values, sorted; with return_inverse, also where each element of
self is in them; with return_counts, how often each occurs. See
torch.unique().

Example::

    >>> torch.tensor([3, 1, 3, 2]).unique()
    tensor([1, 2, 3])
    >>> torch.tensor([3, 1, 3, 2]).unique(return_counts=True)
    (tensor([1, 2, 3]), tensor([1, 1, 2]))
""",
    "unique_consecutive": """\
unique_consecutive(return_inverse=False, return_counts=False, dim=None) -> Tensor or tuple

The values with each run of equal consecutive elements reduced to one. See
torch.unique_consecutive().

Example::

    >>> torch.tensor([1, 1, 2, 2, 1]).unique_consecutive()
    tensor([1, 2, 1])
""",
    "unsqueeze": """\
unsqueeze(dim) -> Tensor

A view with a new dim of size 1 inserted at dim. See torch.unsqueeze().

Example::

    >>> torch.tensor([1, 2, 3]).unsqueeze(0)
    tensor([[1, 2, 3]])
    >>> torch.tensor([1, 2, 3]).unsqueeze(1)
    tensor([[1],
            [2],
            [3]])
""",
    "unsqueeze_": """\
unsqueeze_(dim) -> Tensor

In-place version of Tensor.unsqueeze(): self is overwritten with the result,
which is returned.
""",
    "var": """\
var(dim=None, unbiased=True, keepdim=False) -> Tensor

The variance of all elements or along dim; unbiased (divided by n - 1,
Bessel's correction) unless unbiased=False. See torch.var().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.var()
    tensor(17.9000)
    >>> x.var(dim=1, unbiased=False)
    tensor([ 4.2222, 22.8889])
""",
    "var_mean": """\
var_mean(dim=None, unbiased=True, keepdim=False) -> (Tensor, Tensor)

The variance and the mean, as a pair (see var and mean). See
torch.var_mean().

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.var_mean(dim=1)
    (tensor([ 6.3333, 34.3333]), tensor([ 0.6667, -1.6667]))
""",
    "view": """\
view(*shape) -> Tensor

A view of the same elements in a new shape (one size may be -1, inferred).
Unlike reshape it never copies: an error when the layout does not allow it
(call contiguous() first).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.view(3, 2)
    tensor([[ 1., -2.],
            [ 3., -4.],
            [ 5., -6.]])
    >>> x.view(-1)
    tensor([ 1., -2.,  3., -4.,  5., -6.])
""",
    "view_as": """\
view_as(other) -> Tensor

self viewed in the shape of other: self.view(other.size()).

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> torch.arange(6).view_as(x)
    tensor([[0, 1, 2],
            [3, 4, 5]])
""",
    "where": """\
where(condition, y) -> Tensor

self where condition is True, y where it is False (broadcast):
torch.where(condition, self, y). See torch.where().
""",
    "xlogy": """\
xlogy(other) -> Tensor

self * log(other) for each element, with 0 where self is 0 (even where other is
0, which would give 0 * -inf = nan): the term of an entropy or cross-entropy
sum. Either may be a number; broadcast. See torch.xlogy().
""",
    "xlogy_": """\
xlogy_(other) -> Tensor

In-place version of Tensor.xlogy(): self is overwritten with the result,
which is returned.
""",
    "zero_": """\
zero_() -> Tensor

Set every element to 0, in place; returns self. (Optimizers clear gradients
with zero_grad.)

Example::

    >>> x = torch.tensor([[1., -2., 3.], [-4., 5., -6.]])
    >>> x.zero_()
    tensor([[0., 0., 0.],
            [0., 0., 0.]])
""",
}


# name -> docstring of the Tensor methods written in Python (torch.Tensor's
# own, not _TensorBase's), set as their __doc__ by attach_python. A method
# that is the same function as torch.NAME takes torch's text instead
# (_torch_docs.PY_DOCS).
PY_DOCS = {
    "addbmm": """\
addbmm(batch1, batch2, *, beta=1, alpha=1) -> Tensor

beta * self + alpha * the sum over the batch of batch1[i] @ batch2[i]: batch1
is (b, n, m), batch2 (b, m, p), self broadcasts to (n, p). (For one product per
batch entry, use baddbmm.) See torch.addbmm().
""",
    "addbmm_": """\
addbmm_(batch1, batch2, *, beta=1, alpha=1) -> Tensor

In-place version of Tensor.addbmm(): self is overwritten with the result,
which is returned.
""",
    "addmm": """\
addmm(mat1, mat2, *, beta=1, alpha=1) -> Tensor

beta * self + alpha * (mat1 @ mat2): a matrix product plus a bias, in one call
(what a linear layer computes, with self the bias). mat1 is (n, m), mat2 (m,
p), self broadcasts to (n, p). With beta=0, self is ignored (nan in it does not
propagate). See torch.addmm().
""",
    "addmm_": """\
addmm_(mat1, mat2, *, beta=1, alpha=1) -> Tensor

In-place version of Tensor.addmm(): self is overwritten with the result,
which is returned.
""",
    "addmv_": """\
addmv_(mat, vec, *, beta=1, alpha=1) -> Tensor

In-place version of Tensor.addmv(): self is overwritten with the result,
which is returned.
""",
    "addr_": """\
addr_(vec1, vec2, *, beta=1, alpha=1) -> Tensor

In-place version of Tensor.addr(): self is overwritten with the result,
which is returned.
""",
    "as_subclass": """\
as_subclass(cls) -> Tensor

self viewed as an instance of cls, a subclass of torch.Tensor, sharing its
data (no copy, no __init__ call): for tensor subclasses with their own
methods.
""",
    "baddbmm": """\
baddbmm(batch1, batch2, *, beta=1, alpha=1) -> Tensor

beta * self + alpha * (batch1 @ batch2), one matrix product per batch entry:
batch1 is (b, n, m), batch2 (b, m, p), self broadcasts to (b, n, p). Attention
code uses it for scores plus a mask in one step. See torch.baddbmm().
""",
    "baddbmm_": """\
baddbmm_(batch1, batch2, *, beta=1, alpha=1) -> Tensor

In-place version of Tensor.baddbmm(): self is overwritten with the result,
which is returned.
""",
    "cdouble": """\
cdouble(memory_format=torch.preserve_format) -> Tensor

self.to(torch.complex128).

Example::

    >>> torch.tensor([1.0, 2.0]).cdouble()
    tensor([1.+0.j, 2.+0.j], dtype=torch.complex128)
""",
    "cfloat": """\
cfloat(memory_format=torch.preserve_format) -> Tensor

self.to(torch.complex64).

Example::

    >>> torch.tensor([1.0, 2.0]).cfloat()
    tensor([1.+0.j, 2.+0.j])
""",
    "cholesky": """\
cholesky(upper=False) -> Tensor

The Cholesky factor of a symmetric positive-definite matrix (or a batch):
lower-triangular L with self = L @ L.T, or upper-triangular U with self = U.T @
U when upper=True. Fails when self is not positive definite. Deprecated (with a
warning, once): use torch.linalg.cholesky. See torch.cholesky().
""",
    "cholesky_inverse": """\
cholesky_inverse(upper=False) -> Tensor

The inverse of a symmetric positive-definite matrix given its Cholesky factor
self (lower-triangular, or upper with upper=True). See
torch.cholesky_inverse().
""",
    "cholesky_solve": """\
cholesky_solve(input2, upper=False) -> Tensor

Solve A @ X = self for X, given input2, the Cholesky factor of A
(lower-triangular, or upper with upper=True). self is (..., n, k). See
torch.cholesky_solve().
""",
    "copysign_": """\
copysign_(other) -> Tensor

In-place version of Tensor.copysign(): self is overwritten with the result,
which is returned.
""",
    "cpu": """\
cpu(memory_format=torch.preserve_format) -> Tensor

self on the CPU: self itself when it is already there (no copy), as every
nndb tensor is.

Example::

    >>> x = torch.tensor([1.0])
    >>> x.cpu() is x
    True
""",
    "cuda": """\
cuda(device=None, non_blocking=False, memory_format=torch.preserve_format) -> Tensor

A copy of self in GPU memory (device: the GPU's index or a torch.device).
Raises where no CUDA GPU is available; code that runs anywhere picks its
device first: device = 'cuda' if torch.cuda.is_available() else 'cpu',
then x.to(device).
""",
    "deg2rad_": """\
deg2rad_() -> Tensor

In-place version of Tensor.deg2rad(): self is overwritten with the result,
which is returned.
""",
    "det": """\
det() -> Tensor

The determinant of a square matrix (or of each in a batch). torch.linalg.det is
the newer spelling. See torch.det().
""",
    "eig": """\
eig(eigenvectors=False) -> (Tensor, Tensor)

See torch.eig().
""",
    "geqrf": """\
geqrf() -> (Tensor a, Tensor tau)

LAPACK's geqrf: the QR decomposition in compact form, R in the upper triangle
of a and the Householder reflectors below it with their scales in tau (orgqr
and ormqr use them). Most code wants torch.linalg.qr. See torch.geqrf().
""",
    "get_device": """\
get_device() -> int

The index of the GPU self is on, or -1 on the CPU.

Example::

    >>> torch.tensor([1.0]).get_device()
    -1
""",
    "hardshrink": """\
hardshrink(lambd=0.5) -> Tensor

See torch.nn.functional.hardshrink().
""",
    "heaviside_": """\
heaviside_(values) -> Tensor

In-place version of Tensor.heaviside(): self is overwritten with the result,
which is returned.
""",
    "histogram": """\
histogram(bins, *, range=None, weight=None, density=False) -> (Tensor hist, Tensor bin_edges)

See torch.histogram().
""",
    "hypot_": """\
hypot_(other) -> Tensor

In-place version of Tensor.hypot(): self is overwritten with the result,
which is returned.
""",
    "index_add_": """\
index_add_(dim, index, source, *, alpha=1) -> Tensor

In-place version of Tensor.index_add(): self is overwritten with the result,
which is returned.
""",
    "index_copy_": """\
index_copy_(dim, index, source) -> Tensor

In-place version of Tensor.index_copy(): self is overwritten with the result,
which is returned.
""",
    "index_fill_": """\
index_fill_(dim, index, value) -> Tensor

In-place version of Tensor.index_fill(): self is overwritten with the result,
which is returned.
""",
    "inverse": """\
inverse() -> Tensor

The inverse of a square invertible matrix (or batch): torch.linalg.inv. To
solve A @ x = b, torch.linalg.solve(A, b) is faster and more accurate than
inverse(A) @ b. See torch.inverse().
""",
    "is_distributed": """\
is_distributed() -> bool

Whether self is a distributed tensor: always False in nndb, which runs in one
process. See torch.is_distributed().
""",
    "is_nonzero": """\
is_nonzero() -> bool

Whether the single element of a one-element tensor is not zero (what bool(self)
gives); more elements raise RuntimeError. See torch.is_nonzero().
""",
    "is_pinned": """\
is_pinned() -> bool

Whether self lives in pinned (page-locked) host memory, for fast copies to
a GPU. False in nndb, which has no pinned memory.
""",
    "is_same_size": """\
is_same_size(other) -> bool

Whether the two tensors have the same shape. See torch.is_same_size().
""",
    "is_shared": """\
is_shared() -> bool

Whether self's memory is shared between processes (see share_memory_).
""",
    "ldexp_": """\
ldexp_(other) -> Tensor

In-place version of Tensor.ldexp(): self is overwritten with the result,
which is returned.
""",
    "logdet": """\
logdet() -> Tensor

The natural log of the determinant of a square matrix (or batch): nan when the
determinant is negative, -inf when it is 0 (see slogdet for the sign). See
torch.logdet().
""",
    "lstsq": """\
lstsq(A) -> (Tensor, Tensor)

See torch.lstsq().
""",
    "lu": """\
lu(pivot=True, get_infos=False) -> (Tensor LU, Tensor pivots[, Tensor infos])

The LU decomposition with partial pivoting in compact form: L (unit lower,
diagonal not stored) and U in one matrix, and the 1-based row pivots (as LAPACK
gives them). lu_unpack gives P, L, U; lu_solve solves with it. get_infos also
returns LAPACK's status per matrix. PyTorch 1.13 deprecates it (with a
warning) in favor of torch.linalg.lu_factor. See torch.lu().
""",
    "lu_solve": """\
lu_solve(LU_data, LU_pivots) -> Tensor

Solve A @ x = b given A's LU decomposition from torch.lu (LU_data, LU_pivots).
b is (..., n, k). See torch.lu_solve().
""",
    "matrix_exp": """\
matrix_exp() -> Tensor

The matrix exponential of a square matrix (or batch): the sum of self**k / k!
over k (not the exponential of each element). See torch.matrix_exp().
""",
    "matrix_rank": """\
matrix_rank(tol=None, symmetric=False) -> Tensor

See torch.matrix_rank().
""",
    "mvlgamma_": """\
mvlgamma_(p) -> Tensor

In-place version of Tensor.mvlgamma(): self is overwritten with the result,
which is returned.
""",
    "nanquantile": """\
nanquantile(q, dim=None, keepdim=False, *, interpolation='linear') -> Tensor

quantile ignoring nan: the quantiles of the other values. See
torch.nanquantile().
""",
    "nextafter_": """\
nextafter_(other) -> Tensor

In-place version of Tensor.nextafter(): self is overwritten with the result,
which is returned.
""",
    "norm": """\
norm(p='fro', dim=None, keepdim=False, dtype=None) -> Tensor

The p-norm of self (see torch.norm()): of all elements by default, or over
dim.

Example::

    >>> torch.tensor([3.0, 4.0]).norm()
    tensor(5.)
    >>> torch.tensor([[3.0, 4.0], [1.0, 0.0]]).norm(dim=1)
    tensor([5., 1.])
""",
    "orgqr": """\
orgqr(tau) -> Tensor

The Q of a QR decomposition from geqrf's compact form (self, tau):
torch.linalg.householder_product. See torch.orgqr().
""",
    "ormqr": """\
ormqr(tau, other, left=True, transpose=False) -> Tensor

other multiplied by the Q of geqrf's compact form (self, tau) without forming
Q: Q @ other (left=True) or other @ Q, with Q transposed when transpose=True.
See torch.ormqr().
""",
    "pin_memory": """\
pin_memory() -> Tensor

A copy of self in pinned (page-locked) host memory, for fast copies to a
GPU (DataLoader(pin_memory=True) calls it).
""",
    "pinverse": """\
pinverse(rcond=1e-15) -> Tensor

The Moore-Penrose pseudo-inverse of a matrix of any shape (m, n), (n, m) out,
computed from the SVD; singular values below rcond times the largest count as
zero. The least-squares solution of A @ x = b is pinverse(A) @ b. See
torch.pinverse().
""",
    "prelu": """\
prelu(weight) -> Tensor

See torch.nn.functional.prelu().
""",
    "put_": """\
put_(index, source, accumulate=False) -> Tensor

In-place version of Tensor.put(): self is overwritten with the result,
which is returned.
""",
    "qr": """\
qr(some=True) -> (Tensor Q, Tensor R)

The QR decomposition self = Q @ R, Q with orthonormal columns and R
upper-triangular, as a named tuple. some=True gives the reduced shapes (m, k)
and (k, n), k = min(m, n); False the complete ones. Deprecated (with a warning)
in favor of torch.linalg.qr. See torch.qr().
""",
    "quantile": """\
quantile(q, dim=None, keepdim=False, *, interpolation='linear') -> Tensor

The q-th quantiles (q a number or 1-D tensor in [0, 1]) of all elements, or
along dim. q=0.5 is the median (averaging the two middle values, unlike
torch.median). interpolation: how a quantile between two data points is taken:
'linear' (default), 'lower', 'higher', 'midpoint' or 'nearest'. A nan in the
data gives nan (see nanquantile). With a tensor q the quantiles are stacked
first. See torch.quantile().
""",
    "rad2deg_": """\
rad2deg_() -> Tensor

In-place version of Tensor.rad2deg(): self is overwritten with the result,
which is returned.
""",
    "reinforce": """\
reinforce(reward) -> None

Removed from PyTorch long ago (stochastic functions): raises
RuntimeError pointing to torch.distributions.
""",
    "share_memory_": """\
share_memory_() -> Tensor

Move self's memory to shared memory, so that worker processes see the same
data (torch.multiprocessing); returns self.
""",
    "slogdet": """\
slogdet() -> (Tensor sign, Tensor logabsdet)

The sign of the determinant and the log of its absolute value, as a named
tuple: stays finite where det over- or underflows. See torch.slogdet().
""",
    "solve": """\
solve(A) -> (Tensor, Tensor)

See torch.solve().
""",
    "sum_to_size": """\
sum_to_size(*size) -> Tensor

Sum self down to size, which self must broadcast from: the dimensions that
broadcasting would have expanded are summed (keeping size 1). This is how
the gradient of a broadcast operand is reduced.

Example::

    >>> torch.ones(2, 3).sum_to_size(1, 3)
    tensor([[2., 2., 2.]])
    >>> torch.ones(2, 3).sum_to_size(2, 1)
    tensor([[3.],
            [3.]])
""",
    "svd": """\
svd(some=True, compute_uv=True) -> (Tensor U, Tensor S, Tensor V)

The singular value decomposition self = U @ diag(S) @ V.T, as a named tuple:
note that V is returned, not V.T (torch.linalg.svd returns Vh = V.T). S is
sorted in decreasing order. some=True gives the reduced shapes;
compute_uv=False fills U and V with zeros. See torch.svd().
""",
    "symeig": """\
symeig(eigenvectors=False, upper=True) -> (Tensor eigenvalues, Tensor eigenvectors)

Deprecated (with a warning): the eigenvalues, in increasing order, and with
eigenvectors=True the eigenvectors of a symmetric matrix, read from its upper
triangle (upper=True) or lower one. Use torch.linalg.eigh (or eigvalsh), which
reads the lower triangle by default. See torch.symeig().
""",
    "triangular_solve": """\
triangular_solve(A, upper=True, transpose=False, unitriangular=False) -> (Tensor solution, Tensor cloned_coefficient)

Solve A @ X = b for a triangular A (upper, or lower with upper=False; transpose
solves A.T @ X = b; unitriangular takes A's diagonal as 1s). Note the order: b
first. Returns a named tuple (solution, a copy of A). PyTorch 1.13 deprecates
it (with a warning) in favor of torch.linalg.solve_triangular. See
torch.triangular_solve().
""",
    "type": """\
type(dtype=None, non_blocking=False, **kwargs) -> str or Tensor

Without dtype, the legacy type name of self ('torch.FloatTensor' for
float32, 'torch.LongTensor' for int64); with dtype (a torch.dtype, or a
name such as 'torch.DoubleTensor'), a copy converted to it (as self.to).
x.dtype is the usual way to ask.

Example::

    >>> x = torch.tensor([1.0, 2.0])
    >>> x.type()
    'torch.FloatTensor'
    >>> x.type(torch.int64)
    tensor([1, 2])
""",
    "unsafe_chunk": """\
unsafe_chunk(chunks, dim=0) -> List of Tensors

torch.chunk without the autograd checks on in-place changes to the parts; use
chunk. See torch.unsafe_chunk().
""",
    "unsafe_split": """\
unsafe_split(split_size, dim=0) -> List of Tensors

torch.split without the autograd checks on in-place changes to the parts; use
split. See torch.unsafe_split().
""",
    "unsafe_split_with_sizes": """\
unsafe_split_with_sizes(split_sizes, dim=0) -> List of Tensors

split_with_sizes without the autograd checks on in-place changes to the
parts; use split.
""",
}


def _attach():
    add = _C._add_docstr
    methods = vars(_C._TensorBase)
    for name, doc in DOCS.items():
        add(methods[name], doc)


_attach()


def attach_python(cls):
    """Give torch.Tensor's methods written in Python their PY_DOCS text."""
    for name, doc in PY_DOCS.items():
        getattr(cls, name).__doc__ = doc
