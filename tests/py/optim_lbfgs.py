# LBFGS against torch.optim.LBFGS: a least-squares fit and the Rosenbrock
# function, with and without the strong-Wolfe line search. Values are
# rounded (dot products may sum in another order than torch's BLAS); the
# evaluation and iteration counts must be the same.
import torch


def fit(line_search, history=100, steps=3, max_iter=20):
    torch.manual_seed(0)
    x = torch.randn(40, 3)
    y = x @ torch.tensor([1.5, -2.0, 0.5]) + 0.3 + 0.01 * torch.randn(40)
    w = torch.zeros(3, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], lr=1, max_iter=max_iter, history_size=history,
                            line_search_fn=line_search)

    def closure():
        opt.zero_grad()
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        return loss

    for i in range(steps):
        loss = opt.step(closure)
        print(line_search, i, '%.4g' % loss.item())
    state = opt.state[w]
    print(' w', [round(v, 3) for v in w.tolist()], 'b', round(b.item(), 3),
          'evals', state['func_evals'], 'iters', state['n_iter'])


fit(None)
fit('strong_wolfe')
fit(None, history=2, max_iter=5)


def rosenbrock(line_search, lr, max_iter=50, steps=4):
    p = torch.tensor([-1.5, 2.0], requires_grad=True)
    opt = torch.optim.LBFGS([p], lr=lr, max_iter=max_iter, line_search_fn=line_search)

    def closure():
        opt.zero_grad()
        loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
        loss.backward()
        return loss

    for _ in range(steps):
        opt.step(closure)
    print('rosenbrock', line_search, [round(v, 3) for v in p.tolist()],
          round(closure().item(), 4), opt.state[p]['func_evals'], opt.state[p]['n_iter'])


rosenbrock('strong_wolfe', 1)
# Without a line search the path is chaotic: a few iterations only.
rosenbrock(None, 0.1, max_iter=10, steps=1)

print(torch.optim.LBFGS([torch.zeros(1, requires_grad=True)]))
try:
    torch.optim.LBFGS([{'params': [torch.zeros(1)]}, {'params': [torch.ones(1)]}])
except ValueError as e:
    print('ValueError:', e)
try:
    q = torch.ones(1, requires_grad=True)
    opt = torch.optim.LBFGS([q], line_search_fn='armijo')

    def square():
        opt.zero_grad()
        loss = (q * q).sum()
        loss.backward()
        return loss

    opt.step(square)
except RuntimeError as e:
    print('RuntimeError:', e)

# A state_dict taken between steps resumes into a fresh LBFGS exactly.


def resumed(split):
    torch.manual_seed(1)
    x = torch.randn(30, 4)
    y = x @ torch.tensor([0.5, -1.0, 2.0, 0.1])
    w = torch.zeros(4, requires_grad=True)

    def make():
        return torch.optim.LBFGS([w], lr=0.5, max_iter=4, history_size=3)

    opt = make()

    def closure():
        opt.zero_grad()
        loss = ((x @ w - y) ** 2).mean()
        loss.backward()
        return loss

    for i in range(4):
        if i == split:
            saved = opt.state_dict()
            opt = make()
            opt.load_state_dict(saved)
        opt.step(closure)
    return w.tolist(), sorted(opt.state_dict()['state'][0])


plain, keys = resumed(None)
again, _ = resumed(2)
print('lbfgs resume', plain == again, keys)
