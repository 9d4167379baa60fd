# torch.einsum against PyTorch 1.13: ellipsis, a subscript repeated in one operand (diagonals, traces), implicit outputs.
import torch
torch.manual_seed(0)
a = torch.randn(3, 3); b = torch.randn(1, 2, 3); c = torch.randn(3); d = torch.randn(1, 3, 1); e = torch.randn(2, 3, 4)
for eq, ops in [("ii->i", (a,)), ("ii", (a,)), ("iji->j", (d,)), ("i...->...", (a,)), ("...ik, ...j -> ij", (b, c)), ("...ij->...ji", (e,)), ("...ij", (e,)), ("bij,bjk->bik", (e, e.mT)), ("ij,j", (a, c)), ("i,i", (c, c))]:
    r = torch.einsum(eq, *ops)
    print(eq, tuple(r.shape), [round(v, 4) for v in r.flatten().tolist()[:6]])
