# A small training loop as course code writes it: a two-layer network on a
# shuffled DataLoader, each optimizer with a scheduler, the loss every few
# steps and the parameters and optimizer state at the end.
import torch
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
X = torch.randn(64, 4)
true_w = torch.tensor([[1.0, -2.0, 0.5, 3.0]])
Y = (X @ true_w.t()).tanh() + 0.1 * torch.randn(64, 1)
data = TensorDataset(X, Y)


def train(name, make_opt, make_sched=None, epochs=4):
    torch.manual_seed(1)
    w1 = (torch.randn(4, 8) * 0.5).requires_grad_()
    b1 = torch.zeros(8, requires_grad=True)
    w2 = (torch.randn(8, 1) * 0.5).requires_grad_()
    b2 = torch.zeros(1, requires_grad=True)
    params = [w1, b1, w2, b2]
    opt = make_opt(params)
    sched = make_sched(opt) if make_sched else None
    loader = DataLoader(data, batch_size=16, shuffle=True)
    losses = []
    for epoch in range(epochs):
        total = 0.0
        for xb, yb in loader:
            h = (xb @ w1 + b1).relu()
            out = h @ w2 + b2
            loss = ((out - yb) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        if sched is not None:
            sched.step()
        losses.append(total / len(loader))
    print(name, ' '.join(f'{v:.4f}' for v in losses),
          [f"{g['lr']:.6f}" for g in opt.param_groups])
    print(w2.detach().reshape(-1))
    state = opt.state[w2]
    print(sorted(state.keys()), [f'{v.abs().sum().item():.4f}' if isinstance(v, torch.Tensor) and v.dim() else v
                                 for k, v in sorted(state.items())])


O = torch.optim
S = torch.optim.lr_scheduler
train('sgd', lambda ps: O.SGD(ps, lr=0.05))
train('sgd-momentum', lambda ps: O.SGD(ps, lr=0.05, momentum=0.9, weight_decay=1e-4),
      lambda o: S.StepLR(o, step_size=2, gamma=0.5))
train('nesterov', lambda ps: O.SGD(ps, lr=0.02, momentum=0.9, nesterov=True),
      lambda o: S.CosineAnnealingLR(o, T_max=4))
train('adam', lambda ps: O.Adam(ps, lr=0.01), lambda o: S.ExponentialLR(o, gamma=0.9))
train('adamw', lambda ps: O.AdamW(ps, lr=0.01, weight_decay=0.05, amsgrad=True))
train('rmsprop', lambda ps: O.RMSprop(ps, lr=0.005, momentum=0.5))
train('adagrad', lambda ps: O.Adagrad(ps, lr=0.1))
train('groups', lambda ps: O.Adam([{'params': ps[:2]}, {'params': ps[2:], 'lr': 0.003}], lr=0.01),
      lambda o: S.LambdaLR(o, lambda e: 1.0 / (1 + e)))
