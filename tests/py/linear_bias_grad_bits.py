"""nn.Linear's bias gradient has PyTorch's bits: the output gradient summed
over every dim but the last in PyTorch's float order (addmm's backward),
for 1-D, 2-D and 3-D inputs of many row counts, at 1 and 2 threads, and
through nn.RNN, whose input projection is one Linear over all steps and
whose hidden projection adds a bias gradient per step. Compared line for
line with PyTorch."""
import hashlib

import torch


def h(t):
    return hashlib.md5(t.detach().contiguous().numpy().tobytes()).hexdigest()[:12]


for threads in (1, 2):
    torch.set_num_threads(threads)
    torch.manual_seed(threads)
    for shape in [(5,), (1, 5), (18, 5), (6, 3, 5), (300, 5), (10, 30, 5), (4, 64, 5),
                  (2, 40000, 5)]:
        for out in (1, 7, 40):
            lin = torch.nn.Linear(5, out)
            x = torch.randn(*shape)
            y = lin(x)
            y.pow(2).sum().backward()
            print(threads, shape, out, h(lin.bias.grad), h(lin.weight.grad))
    rnn = torch.nn.RNN(5, 7)
    x = torch.randn(6, 3, 5)
    o, _ = rnn(x)
    o.pow(2).sum().backward()
    print(threads, "rnn", h(o), h(rnn.bias_ih_l0.grad), h(rnn.bias_hh_l0.grad))
