"""softmax and log_softmax along a dim that is not the last, and the class
losses of inputs with trailing dims ([N, C, d...]: a sequence model's
[B, C, T] logits, a segmentation's [N, C, H, W]), have PyTorch's bits,
forward and backward: PyTorch 1.13 runs its vectorised kernels over blocks
of neighbouring columns there (softmax split between its threads above
32768 / C columns), and nll_loss2d's cascade of partial sums over the
positions; nndb had computed them in double and every line differed.
float32 and float64, many column counts (whole and partial vectors), 1 and
2 threads. Compared line for line with PyTorch."""
import hashlib
import math

import torch
import torch.nn.functional as F


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:10]


def det(shape, dt, k=1.0):
    n = math.prod(shape)
    return (torch.sin(torch.arange(n, dtype=torch.float64) * 0.7 * k + 0.3) * 3).to(dt).reshape(shape)


for threads in (1, 2):
    torch.set_num_threads(threads)
    for dt in (torch.float32, torch.float64):
        for c in (3, 7, 16):
            for inner in (1, 2, 5, 8, 12, 13, 20):
                x = det((3, c, inner), dt).requires_grad_()
                g = det((3, c, inner), dt, 1.3)
                line = [threads, str(dt)[6:], c, inner]
                for f in (torch.log_softmax, torch.softmax):
                    x.grad = None
                    y = f(x, 1)
                    y.backward(g)
                    line += [h(y), h(x.grad)]
                print(*line)
        for shape in [(5, 7, 1237), (3, 100, 333), (4, 10, 6, 7), (2, 65, 32)]:
            x = det(shape, dt).requires_grad_()
            print(threads, str(dt)[6:], shape, "softmax", h(torch.softmax(x, 1)),
                  h(torch.log_softmax(x, 1)))
            tshape = (shape[0],) + shape[2:]
            y = (torch.arange(math.prod(tshape)) * 7 % shape[1]).reshape(tshape)
            y_ign = y.clone()
            y_ign.view(-1)[::5] = -100
            for red in ("mean", "sum", "none"):
                for tgt in (y, y_ign):
                    x.grad = None
                    loss = F.cross_entropy(x, tgt, reduction=red)
                    loss.backward(torch.ones_like(loss) * 0.75)
                    lp = F.log_softmax(x.detach(), 1)
                    print(threads, str(dt)[6:], shape, red, h(loss), h(x.grad),
                          h(F.nll_loss(lp, tgt, reduction=red)))

# a [B, C, T] language-model loss, as course code writes it
torch.manual_seed(0)
logits = torch.randn(4, 27, 16, requires_grad=True)
targets = torch.randint(0, 27, (4, 16))
loss = F.cross_entropy(logits, targets)
loss.backward()
print(f"{loss.item():.8f}", h(logits.grad))
