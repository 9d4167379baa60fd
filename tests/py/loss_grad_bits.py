"""The gradients of mse_loss, binary_cross_entropy and
binary_cross_entropy_with_logits have PyTorch's bits: PyTorch 1.13 computes
them in the tensor's type in a fixed order (mse: (2/n (x - t)) g; BCE:
g (x - t) / max((1 - x) x, 1e-12) / n; with logits: (sigmoid(x) - t) g / n,
and the target's -x g / n), where nndb had computed them in double. float32
and float64, every reduction, an output gradient other than 1, sizes from
7 to 100000 at 1 and 2 threads (the sigmoid splits between threads). A
course's regression loop prints its loss after a few SGD steps: before,
its last digits differed. Compared line for line with PyTorch."""
import torch
import torch.nn.functional as F


def hx(t):
    return t.detach().numpy().tobytes().hex()


def short(t):
    import hashlib
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(threads)
    for dt in (torch.float32, torch.float64):
        for n in (7, 33, 50, 1000, 100000):
            a = torch.randn(n, 1, dtype=dt, requires_grad=True)
            y = torch.randn(n, 1, dtype=dt).requires_grad_()
            p = torch.rand(n, 1, dtype=dt).clamp(0.01, 0.99).requires_grad_()
            q = torch.rand(n, 1, dtype=dt).requires_grad_()
            for red in ("mean", "sum", "none"):
                for name, f, args in (("mse", F.mse_loss, (a, y)),
                                      ("bce", F.binary_cross_entropy, (p, q.detach())),
                                      ("bcel", F.binary_cross_entropy_with_logits, (a, q))):
                    for t in (a, y, p, q):
                        t.grad = None
                    loss = f(*args, reduction=red)
                    g = torch.randn_like(loss) if red == "none" else torch.tensor(1.7, dtype=dt)
                    loss.backward(g)
                    print(threads, str(dt)[6:], n, red, name, short(loss), short(args[0].grad),
                          short(args[1].grad) if args[1].grad is not None else "-")

# a regression loop of a course: Linear, MSE, SGD
torch.manual_seed(0)
m = torch.nn.Linear(5, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
x, y = torch.randn(50, 5), torch.randn(50, 1)
for step in range(20):
    opt.zero_grad()
    loss = F.mse_loss(m(x), y)
    loss.backward()
    opt.step()
print(f"{loss.item():.8f}", hx(m.weight), hx(m.bias))
