# nn.utils.parametrizations.orthogonal (matrix_exp, cayley, householder;
# square, tall and wide weights; with and without trivialization) and
# spectral_norm's sigma: values, orthogonality, gradients and assignment
# equal PyTorch's.
import torch
from torch import nn
from torch.nn.utils import parametrizations as P


def r(t, n=5):
    return [round(v, n) + 0.0 for v in t.detach().double().reshape(-1).tolist()]


for shape in ((4, 4), (5, 3), (3, 5)):
    for omap in ("matrix_exp", "cayley", "householder"):
        for triv in (True, False):
            torch.manual_seed(0)
            m = nn.Linear(shape[1], shape[0]).double()
            try:
                P.orthogonal(m, orthogonal_map=omap, use_trivialization=triv)
            except Exception as e:
                print(shape, omap, triv, type(e).__name__, e)
                continue
            Q = m.weight
            k = min(shape)
            QtQ = Q.T @ Q if shape[0] >= shape[1] else Q @ Q.T
            print(shape, omap, triv, list(m.state_dict().keys()))
            print("  orthogonal", torch.allclose(QtQ, torch.eye(k, dtype=torch.float64)),
                  r(Q))
            x = torch.randn(2, shape[1], dtype=torch.float64)
            (m(x) * torch.arange(2 * shape[0]).view(2, shape[0]).cos()).sum().backward()
            print("  grad", r(m.parametrizations.weight.original.grad, 4))
            if triv:
                with torch.no_grad():
                    A = torch.randn(*shape, dtype=torch.float64)
                    m.weight = torch.linalg.qr(A if shape[0] >= shape[1] else A.T)[0] \
                        if shape[0] >= shape[1] else torch.linalg.qr(A.T)[0].T
                print("  assigned", r(m.weight))

torch.manual_seed(1)
sn = P.spectral_norm(nn.Linear(6, 4).double())
for _ in range(20):
    w = sn.weight
print("sigma", round(torch.linalg.matrix_norm(w, 2).item(), 6))
try:
    P.orthogonal(nn.Linear(3, 3), orthogonal_map="qr")
except ValueError as e:
    print("ValueError", e)
try:
    P.orthogonal(nn.Linear(3, 3), "bias")
except ValueError as e:
    print("ValueError", e)
