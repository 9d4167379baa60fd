"""float64 cross-entropy of index targets prints PyTorch's bits: the
log-softmax rows (SLEEF's four-double exp and log, PyTorch's vector order)
and the gradient of nll_loss then log_softmax (g - exp(logp) sum(g), one
rounding). Hashes of the loss and the gradient over row counts, class
counts, reductions and ignored targets, and a tied embedding / output
layer whose gradient goes through it. Compared line for line with PyTorch."""
import hashlib

import torch
import torch.nn.functional as F


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


torch.manual_seed(0)
for rows in (1, 3, 24, 65):
    for c in (1, 2, 5, 50, 257):
        x = (torch.randn(rows, c, dtype=torch.float64) * 3).requires_grad_()
        tgt = torch.randint(0, c, (rows,))
        if rows > 2:
            tgt[1] = -100
        for red in ("mean", "sum", "none"):
            x.grad = None
            loss = F.cross_entropy(x, tgt, reduction=red)
            loss.backward(torch.linspace(0.5, 2.0, loss.numel(), dtype=torch.float64).view(loss.shape)
                          if red == "none" else None)
            print(rows, c, red, h(loss), h(x.grad))

# a tied embedding and output layer in float64: the gradient of the shared
# weight (the output layer's part comes through the cross-entropy above)
V, C = 50, 8
emb = torch.nn.Embedding(V, C).double()
head = torch.nn.Linear(C, V, bias=False).double()
head.weight = emb.weight
idx = torch.randint(0, V, (4, 6))
tgt = torch.randint(0, V, (4, 6))
for step in range(2):
    logits = head(torch.tanh(emb(idx)))
    loss = F.cross_entropy(logits.view(-1, V), tgt.view(-1))
    loss.backward()
    print("tied", step, repr(loss.item()), h(emb.weight.grad))

# nll_loss on float64 log-probabilities: the same partial sums
for rows in (5, 17, 300):
    lp = torch.log_softmax(torch.randn(rows, 7, dtype=torch.float64), 1)
    tgt = torch.randint(0, 7, (rows,))
    print("nll", rows, h(F.nll_loss(lp, tgt)), h(F.nll_loss(lp, tgt, reduction="sum")))
