"""torch functions take their tensor as input= too, as PyTorch's do
(torch.mode(input=x)); nndb's functions written in Python named it self
once, which made the keyword a TypeError."""
import torch

x = torch.tensor([[1.0, 3.0, 2.0, 3.0], [4.0, 0.5, 0.5, 1.0], [2.0, 2.0, 7.0, 1.0]])
calls = {
    "mode": dict(),
    "quantile": dict(q=0.5),
    "nanquantile": dict(q=0.25, dim=1),
    "cov": dict(),
    "corrcoef": dict(),
    "renorm": dict(p=2, dim=0, maxnorm=1.0),
    "logcumsumexp": dict(dim=1),
    "cummax": dict(dim=0),
    "diff": dict(dim=1),
    "rot90": dict(k=1, dims=(0, 1)),
    "tensor_split": dict(sections=2, dim=1),
    "aminmax": dict(),
    "diag_embed": dict(),
    "moveaxis": dict(source=0, destination=1),
}
for name, kw in calls.items():
    try:
        r = getattr(torch, name)(input=x, **kw)
        print(name, r)
    except Exception as e:
        print(name, type(e).__name__, e)
