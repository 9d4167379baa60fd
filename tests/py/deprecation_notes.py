"""The old linear-algebra functions give PyTorch 1.13's deprecation notes
(torch.qr, torch.lu_solve, torch.symeig), each once a process whatever the
warnings filters say (TORCH_WARN_ONCE), at the caller's line."""
import warnings

import torch

A = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.qr(A)
    torch.qr(A, some=False)
    LU, piv = torch.linalg.lu_factor(A)
    torch.lu_solve(torch.ones(3, 1), LU, piv)
    torch.lu_solve(torch.ones(3, 1), LU, piv)
    torch.symeig(A)
    torch.symeig(A, eigenvectors=True)
for x in w:
    print(x.category.__name__, x.filename.endswith("deprecation_notes.py"), repr(str(x.message)))
print(len(w))
