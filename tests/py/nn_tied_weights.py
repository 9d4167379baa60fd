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
