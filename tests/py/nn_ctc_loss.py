# F.ctc_loss / nn.CTCLoss against PyTorch 1.13: padded and concatenated
# targets, input lengths shorter than T, repeated labels, impossible
# alignments (inf, zero_infinity), every reduction, the gradient ATen writes,
# an unbatched input, and the argument errors.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def show(name, t):
    print(name, list(t.shape), [round(v, 4) if abs(v) != float("inf") else v
                                for v in t.detach().double().reshape(-1).tolist()[:10]])


T, N, C = 12, 4, 5
for dtype in (torch.float32, torch.float64):
    x = torch.randn(T, N, C, dtype=dtype).log_softmax(2).detach().requires_grad_()
    targets = torch.tensor([[1, 2, 2, 3], [4, 4, 4, 4], [1, 3, 0, 0], [2, 1, 2, 1]])
    il = torch.tensor([12, 10, 7, 3])
    tl = torch.tensor([4, 4, 2, 4])  # the last cannot fit 4 labels in 3 frames
    for reduction in ("none", "sum", "mean"):
        for zi in (False, True):
            x.grad = None
            loss = F.ctc_loss(x, targets, il, tl, reduction=reduction, zero_infinity=zi)
            show(f"{dtype} {reduction} zi={zi}", loss)
            w = torch.arange(1.0, loss.numel() + 1, dtype=dtype).reshape(loss.shape)
            (loss * w).sum().backward() if torch.isfinite(loss).all() else None
            if x.grad is not None:
                show("  grad t0", x.grad[0])
                show("  grad b2 t6", x.grad[6, 2])
                print("  grad zero past il", bool((x.grad[7:, 2] == 0).all()))

# concatenated targets, lists of lengths, blank elsewhere
x = torch.randn(10, 3, 6).log_softmax(2).detach().requires_grad_()
flat = torch.tensor([1, 2, 3, 5, 5, 2, 4])
loss = F.ctc_loss(x, flat, [10, 9, 8], [3, 2, 2], blank=0)
loss.backward()
show("concat", loss)
show("concat grad", x.grad[:, 1].sum(0))
xb = torch.randn(10, 3, 6).log_softmax(2)
show("blank=5", F.ctc_loss(xb, torch.tensor([[1, 2, 3], [0, 4, 4], [2, 2, 1]]), [10, 10, 10],
                           [3, 3, 2], blank=5, reduction="none"))
show("empty target", F.ctc_loss(xb, torch.tensor([[1, 2], [1, 1], [0, 0]]), [10, 10, 10],
                                [2, 2, 0], reduction="none"))
ctc = nn.CTCLoss(blank=0, reduction="sum")
show("module", ctc(xb, torch.tensor([[1, 2, 3], [3, 4, 4], [2, 2, 1]]), torch.tensor([10, 8, 6]),
                   torch.tensor([3, 3, 3])))
# unbatched
xu = torch.randn(8, 5).log_softmax(1)
show("unbatched", F.ctc_loss(xu, torch.tensor([1, 2, 1]), torch.tensor(8), torch.tensor(3),
                             reduction="none"))

for desc, f in [("il too long", lambda: F.ctc_loss(xb, torch.tensor([[1, 2]] * 3), [11, 10, 10],
                                                   [2, 2, 2])),
                ("targets too short", lambda: F.ctc_loss(xb, torch.tensor([[1, 2]] * 3),
                                                         [10, 10, 10], [3, 2, 2]))]:
    try:
        f()
        print(desc, "no error")
    except RuntimeError as e:
        print(desc, "RuntimeError", str(e).split("\n")[0])
