# Shape and indexing ops: views, joins and splits, selection, sorting,
# matrix products and einsum; grad_fn names, grads and errors.
import torch


def show(label, fn):
    try:
        print(label, fn())
    except Exception as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


x = torch.arange(24.0).reshape(2, 3, 4)
print("view", x.view(6, 4).shape, x.view(-1).shape, x.view((4, 6)).shape, x.view(2, -1).shape)
print("reshape", x.reshape(4, 6).shape, torch.reshape(x, (-1, 2)).shape, x.reshape_as(torch.ones(6, 4)).shape)
print("flatten", x.flatten().shape, x.flatten(1).shape, torch.flatten(x, 0, 1).shape)
print("unflatten", x.flatten().unflatten(0, (4, 6)).shape, torch.ravel(x).shape)
print("permute", x.permute(2, 0, 1).shape, x.permute((1, 2, 0)).shape, torch.permute(x, (2, 1, 0)).shape)
print("transpose", x.transpose(0, 2).shape, x.swapaxes(1, 2).shape, torch.transpose(x, 1, 0).shape)
print("t", torch.ones(2, 3).t().shape, torch.ones(3).t().shape, x[0].T.shape)
print("movedim", torch.movedim(x, 0, 2).shape, x.movedim((0, 1), (2, 0)).shape)
print("squeeze", torch.ones(1, 3, 1).squeeze().shape, torch.ones(1, 3, 1).squeeze(0).shape,
      torch.ones(1, 3, 1).squeeze(1).shape)
print("unsqueeze", torch.ones(3).unsqueeze(0).shape, torch.ones(3).unsqueeze(-1).shape)
print("expand", torch.ones(3, 1).expand(3, 4).shape, torch.ones(1, 2).expand(5, -1).shape,
      torch.ones(3).expand_as(torch.ones(2, 3)).shape, torch.broadcast_to(torch.ones(3), (2, 3)).shape)
print("repeat", torch.tensor([1, 2]).repeat(2, 2), torch.tensor([[1, 2]]).repeat(1, 3).shape)
print("tile", torch.tile(torch.tensor([1, 2]), (2,)), torch.tensor([[1, 2]]).tile(2, 1))
print("repeat_interleave", torch.tensor([1, 2]).repeat_interleave(3),
      torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0))
print("contiguous", x.transpose(0, 1).is_contiguous(), x.transpose(0, 1).contiguous().is_contiguous())
c = x.clone()
c[0, 0, 0] = 100
print("clone", x[0, 0, 0], c[0, 0, 0])

# joins and splits
a = torch.tensor([[1, 2], [3, 4]])
b = torch.tensor([[5, 6]])
print("cat", torch.cat([a, b]), torch.cat((a, a), dim=1), torch.concat([a, b], 0).shape)
print("stack", torch.stack([a, a]).shape, torch.stack([a, a], dim=2).shape)
print("hstack vstack", torch.hstack([a, a]).shape, torch.vstack([a, b]).shape,
      torch.hstack([torch.tensor([1]), torch.tensor([2, 3])]))
print("split", torch.arange(7).split(3), torch.split(torch.arange(6), [1, 2, 3]))
print("chunk", torch.arange(7).chunk(3), torch.chunk(torch.arange(6).view(2, 3), 3, dim=1))
print("unbind", torch.unbind(a), a.unbind(1))
print("narrow", torch.arange(10).narrow(0, 2, 3), x.narrow(2, -2, 2).shape)
print("select", x.select(1, 2).shape, torch.select(x, 0, -1).shape)

# selection
print("flip", torch.arange(4).flip(0), a.flip(0, 1), torch.flip(a, [1]), a.fliplr(), a.flipud())
print("roll", torch.arange(5).roll(2), torch.roll(a, 1, 0), a.roll(-1, 1), torch.roll(a, (1, 1), (0, 1)))
print("tril triu", torch.ones(3, 3).tril(), torch.triu(torch.ones(3, 3), 1), torch.tril(torch.ones(2, 3), -1))
print("diag", torch.diag(torch.tensor([1, 2])), torch.diag(torch.arange(9).view(3, 3)),
      torch.diag(torch.arange(9).view(3, 3), 1), torch.diag(torch.tensor([1.0, 2.0]), -1))
print("diagonal", torch.arange(9).view(3, 3).diagonal(), x.diagonal(0, 1, 2), torch.arange(9.0).view(3, 3).trace())
idx = torch.tensor([[0, 1], [2, 0]])
print("gather", torch.gather(torch.arange(6).view(2, 3), 1, idx))
print("index_select", torch.index_select(a, 0, torch.tensor([1, 0, 1])), a.index_select(1, torch.tensor([1])))
print("scatter", torch.zeros(2, 3).scatter(1, idx, 1.0),
      torch.zeros(2, 3).scatter(1, idx, torch.tensor([[1.0, 2.0], [3.0, 4.0]])))
print("scatter_add", torch.zeros(3).scatter_add(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0])))
s = torch.zeros(3)
s.scatter_(0, torch.tensor([1]), 5.0)
s.scatter_add_(0, torch.tensor([1, 2]), torch.tensor([1.0, 1.0]))
print("scatter_", s)
m = torch.tensor([[True, False], [False, True]])
print("masked_fill", a.masked_fill(m, 0), a.float().masked_fill(m, float("-inf")), torch.masked_fill(a, m, torch.tensor(9)))
f = a.float()
f.masked_fill_(~m, 0.5)
print("masked_fill_", f)
print("masked_select", torch.masked_select(a, m), a.masked_select(torch.tensor([True, False])))
print("nonzero", torch.nonzero(torch.tensor([0, 1, 0, 2])), torch.tensor([[0, 1], [1, 0]]).nonzero(),
      torch.nonzero(m, as_tuple=True), torch.argwhere(m))

# sorting
v = torch.tensor([3.0, 1.0, 2.0, 1.0, 5.0])
print("sort", torch.sort(v), v.sort(descending=True), torch.sort(a, dim=0))
print("argsort", v.argsort(), torch.argsort(v, descending=True), torch.msort(a.flip(0)))
print("topk", torch.topk(v, 2), v.topk(3, largest=False), torch.topk(a, 1, dim=0))
print("unique", torch.unique(torch.tensor([3, 1, 2, 3, 1])),
      torch.tensor([2.0, 1.0, 2.0]).unique(return_inverse=True),
      torch.unique(torch.tensor([1, 1, 2]), return_counts=True),
      torch.unique_consecutive(torch.tensor([1, 1, 2, 1])))

# products
p = torch.arange(6.0).view(2, 3)
q = torch.arange(12.0).view(3, 4)
print("matmul", torch.matmul(p, q), p @ q[:, 0], torch.mm(p, q).shape)
print("bmm", torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 4)).shape)
print("mv dot", torch.mv(p, torch.ones(3)), torch.dot(torch.ones(3), torch.arange(3.0)))
print("outer", torch.outer(torch.arange(3.0), torch.arange(2.0)), torch.inner(p, p))
print("einsum", torch.einsum("ij,jk->ik", p, q), torch.einsum("ij->ji", p).shape,
      torch.einsum("ij->", p), torch.einsum("i,i->", torch.ones(3), torch.arange(3.0)),
      torch.einsum("bij,bjk->bik", torch.ones(2, 2, 3), torch.ones(2, 3, 2)).shape,
      torch.einsum("ij,jk,kl->il", p, q, torch.ones(4, 2)), torch.einsum("ij,j", p, torch.ones(3)))
print("einsum list", torch.einsum("i,j->ij", [torch.ones(2), torch.arange(3.0)]))
g1, g2 = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
print("meshgrid", g1, g2)
print("broadcast_tensors", [t.shape for t in torch.broadcast_tensors(torch.ones(3, 1), torch.ones(2))])

# grads and grad_fn names
w = torch.arange(6.0).view(2, 3).requires_grad_()
outs = [w.view(3, 2), w.reshape(6), w.t(), w.transpose(0, 1), w.permute(1, 0), w.unsqueeze(0),
        w.unsqueeze(0).squeeze(), w.unsqueeze(0).squeeze(0), w.expand(2, 2, 3), w.flip(0),
        w.roll(1, 1), w.repeat(2, 1), torch.cat([w, w]), torch.stack([w, w]), w.split(1)[0],
        w.chunk(3, 1)[0], w.unbind()[0], w.narrow(1, 0, 2), w[0], w[:, 1:], w.clone(),
        w.tril(), w.triu(), w.gather(1, torch.tensor([[0], [1]])), w.index_select(0, torch.tensor([1])),
        w.masked_fill(w > 2, 0), w.masked_select(w > 2), w.sort()[0], w.topk(2)[0],
        w.flatten(), w.diag(), w @ torch.ones(3), w.mm(torch.ones(3, 2)), w.cumsum(0),
        torch.outer(w[0], w[1]), w.repeat_interleave(2), w.t().contiguous(),
        w.split([1, 1])[1], torch.einsum("ij->j", w)]
print("grad_fn", [o.grad_fn.name() for o in outs])
tot = sum((o * torch.arange(float(o.numel())).view(o.shape)).sum() for o in outs)
tot.backward()
print("grad", w.grad)

# errors (nndb words its shape errors its own way; only the type is compared)
def show_type(label, fn):
    try:
        fn()
        print(label, "no error")
    except Exception as e:
        print(label, type(e).__name__)


show_type("view bad", lambda: x.view(5, 5))
show_type("view noncontig", lambda: x.transpose(0, 1).view(-1))
show("permute count", lambda: x.permute(0, 1))
show_type("cat dims", lambda: torch.cat([a, torch.ones(2, 3)], dim=0))
show("cat empty", lambda: torch.cat([]))
show_type("stack shapes", lambda: torch.stack([a, b]))
show("split sizes", lambda: torch.arange(5).split([2, 2]))
show("t 3d", lambda: x.t())
show_type("mm shapes", lambda: torch.mm(p, p))
show("mm dims", lambda: torch.mm(torch.ones(3), p))
show("bmm dims", lambda: torch.bmm(p, p))
show("dot dims", lambda: torch.dot(p, p))
show_type("matmul shapes", lambda: p @ p)
show("matmul dtypes", lambda: torch.matmul(p, torch.ones(3, 2, dtype=torch.float64)))
show("gather dtype", lambda: torch.gather(p, 1, torch.tensor([[0.0]])))
show("index oob", lambda: torch.index_select(p, 0, torch.tensor([5])))
show("masked_fill mask", lambda: a.masked_fill(torch.tensor([[1, 0], [0, 1]]), 0))
show("einsum ops", lambda: torch.einsum("ij,jk->ik", p))
show("einsum sizes", lambda: torch.einsum("ij,jk->ik", p, p))
show("einsum out", lambda: torch.einsum("ij->k", p))
show("squeeze dim", lambda: x.squeeze(5))
show("narrow len", lambda: torch.arange(4).narrow(0, 2, 5))
show_type("expand bad", lambda: torch.ones(2, 3).expand(3, 3))
show("repeat few", lambda: torch.ones(2, 3).repeat(2))
show("unbind 0d", lambda: torch.tensor(1.0).unbind())
show("topk k", lambda: v.topk(10))
show("chunk 0", lambda: v.chunk(0))
