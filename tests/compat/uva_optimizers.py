# UvA Deep Learning tutorial 4 ("Optimization and Initialization"): hand-
# written optimizers on an OptimizerTemplate base class (SGD, SGD with
# momentum, Adam) with @torch.no_grad() updates on p.grad and per-parameter
# state dicts, tried on the pathological curvature and on a small
# regression network, then checked against torch.optim.
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.data as data


def set_seed(seed):
    np.random.seed(seed)
    torch.manual_seed(seed)


set_seed(42)


class OptimizerTemplate:

    def __init__(self, params, lr):
        self.params = list(params)
        self.lr = lr

    def zero_grad(self):
        ## Set gradients of all parameters to zero
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()  # For second-order optimizers important
                p.grad.zero_()

    @torch.no_grad()
    def step(self):
        ## Apply update step to all parameters
        for p in self.params:
            if p.grad is None:  # We skip parameters without any gradients
                continue
            self.update_param(p)

    def update_param(self, p):
        # To be implemented in optimizer-specific classes
        raise NotImplementedError


class SGD(OptimizerTemplate):

    def __init__(self, params, lr):
        super().__init__(params, lr)

    def update_param(self, p):
        p_update = -self.lr * p.grad
        p.add_(p_update)  # In-place update => saves memory and does not create computation graph


class SGDMomentum(OptimizerTemplate):

    def __init__(self, params, lr, momentum=0.0):
        super().__init__(params, lr)
        self.momentum = momentum  # Corresponds to beta_1 in the equation above
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}  # Dict to store m_t

    def update_param(self, p):
        self.param_momentum[p] = (1 - self.momentum) * p.grad + self.momentum * self.param_momentum[p]
        p_update = -self.lr * self.param_momentum[p]
        p.add_(p_update)


class Adam(OptimizerTemplate):

    def __init__(self, params, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(params, lr)
        self.beta1 = beta1
        self.beta2 = beta2
        self.eps = eps
        self.param_step = {p: 0 for p in self.params}  # Remembers "t" for each parameter for bias correction
        self.param_momentum = {p: torch.zeros_like(p.data) for p in self.params}
        self.param_2nd_momentum = {p: torch.zeros_like(p.data) for p in self.params}

    def update_param(self, p):
        self.param_step[p] += 1

        self.param_momentum[p] = (1 - self.beta1) * p.grad + self.beta1 * self.param_momentum[p]
        self.param_2nd_momentum[p] = (1 - self.beta2) * (p.grad) ** 2 + self.beta2 * self.param_2nd_momentum[p]

        bias_correction_1 = 1 - self.beta1 ** self.param_step[p]
        bias_correction_2 = 1 - self.beta2 ** self.param_step[p]

        p_2nd_mom = self.param_2nd_momentum[p] / bias_correction_2
        p_mom = self.param_momentum[p] / bias_correction_1
        p_lr = self.lr / (torch.sqrt(p_2nd_mom) + self.eps)
        p_update = -p_lr * p_mom

        p.add_(p_update)


def pathological_curve_loss(w1, w2):
    # Example of a pathological curvature. There are many more possible, feel free to experiment here!
    x1_loss = torch.tanh(w1) ** 2 + 0.01 * torch.abs(w1)
    x2_loss = torch.sigmoid(w2)
    return x1_loss + x2_loss


def train_curve(optimizer_func, curve_func=pathological_curve_loss, num_updates=100, init=[5, 5]):
    """
    Inputs:
        optimizer_func - Constructor of the optimizer to use. Should only take a parameter list
        curve_func - Loss function (e.g. pathological curvature)
        num_updates - Number of updates/steps to take when optimizing
        init - Initial values of parameters. Must be a list/tuple with two elements representing w_1 and w_2
    Outputs:
        Numpy array of shape [num_updates, 3] with [t,:2] being the parameter values at step t, and [t,2] the loss at t.
    """
    weights = nn.Parameter(torch.FloatTensor(init), requires_grad=True)
    optimizer = optimizer_func([weights])

    list_points = []
    for _ in range(num_updates):
        loss = curve_func(weights[0], weights[1])
        list_points.append(torch.cat([weights.data.clone(), loss.unsqueeze(dim=0).detach()], dim=0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    points = torch.stack(list_points, dim=0).numpy()
    return points


SGD_points = train_curve(lambda params: SGD(params, lr=10))
SGDMom_points = train_curve(lambda params: SGDMomentum(params, lr=10, momentum=0.9))
Adam_points = train_curve(lambda params: Adam(params, lr=1))
for name, points in [("SGD", SGD_points), ("SGDMom", SGDMom_points), ("Adam", Adam_points)]:
    print(name, points.shape, points.dtype)
    print(points[::25])
    print("final", points[-1].tolist())


def bivar_gaussian(w1, w2, x_mean=0.0, y_mean=0.0, x_sig=1.0, y_sig=1.0):
    norm = 1 / (2 * np.pi * x_sig * y_sig)
    x_exp = (-1 * (w1 - x_mean) ** 2) / (2 * x_sig ** 2)
    y_exp = (-1 * (w2 - y_mean) ** 2) / (2 * y_sig ** 2)
    return norm * torch.exp(x_exp + y_exp)


def comb_func(w1, w2):
    z = -bivar_gaussian(w1, w2, x_mean=1.0, y_mean=-0.5, x_sig=0.2, y_sig=0.2)
    z -= bivar_gaussian(w1, w2, x_mean=-1.0, y_mean=0.5, x_sig=0.2, y_sig=0.2)
    z -= bivar_gaussian(w1, w2, x_mean=-0.5, y_mean=-0.8, x_sig=0.2, y_sig=0.2)
    return z


for name, make in [("SGD", lambda params: SGD(params, lr=.5)),
                   ("SGDMom", lambda params: SGDMomentum(params, lr=1, momentum=0.9)),
                   ("Adam", lambda params: Adam(params, lr=0.2))]:
    points = train_curve(make, comb_func, init=[0, 0])
    print(f"{name:6s} ends at w1={points[-1, 0]:.4f} w2={points[-1, 1]:.4f} loss={points[-1, 2]:.4f}")


# --- a small regression network, trained with each optimizer ---
class RegressionDataset(data.Dataset):

    def __init__(self, size):
        super().__init__()
        self.x = torch.rand(size, 1) * 4 - 2
        self.y = torch.sin(3 * self.x) + 0.1 * torch.randn(size, 1)

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]


class BaseNetwork(nn.Module):

    def __init__(self, act_fn=nn.Tanh, input_size=1, num_outputs=1, hidden_sizes=[32, 32]):
        super().__init__()
        layers = []
        layer_sizes = [input_size] + hidden_sizes
        for layer_index in range(1, len(layer_sizes)):
            layers += [nn.Linear(layer_sizes[layer_index - 1], layer_sizes[layer_index]),
                       act_fn()]
        layers += [nn.Linear(layer_sizes[-1], num_outputs)]
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


train_set = RegressionDataset(256)
test_set = RegressionDataset(64)
print(len(train_set), train_set[3])


def train_model(net, optimizer, max_epochs=8, batch_size=32):
    loss_module = nn.MSELoss()
    train_loader = data.DataLoader(train_set, batch_size=batch_size, shuffle=True, drop_last=True)
    losses = []
    for epoch in range(max_epochs):
        net.train()
        epoch_loss = 0.0
        for x, y in train_loader:
            preds = net(x)
            loss = loss_module(preds, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        losses.append(epoch_loss / len(train_loader))
    net.eval()
    with torch.no_grad():
        test_loss = loss_module(net(test_set.x), test_set.y).item()
    return losses, test_loss


for name, make in [("SGD", lambda params: SGD(params, lr=1e-1)),
                   ("SGDMom", lambda params: SGDMomentum(params, lr=1e-1, momentum=0.9)),
                   ("Adam", lambda params: Adam(params, lr=1e-2))]:
    set_seed(42)
    net = BaseNetwork()
    losses, test_loss = train_model(net, make(net.parameters()))
    print(name, " ".join(f"{l:.5f}" for l in losses), f"test {test_loss:.6f}")

# Hand-written SGD and Adam against torch.optim on the same start.
set_seed(7)
ref = BaseNetwork(hidden_sizes=[8])
for ours, theirs in [(lambda p: SGD(p, lr=0.05), lambda p: torch.optim.SGD(p, lr=0.05)),
                     (lambda p: Adam(p, lr=0.01), lambda p: torch.optim.Adam(p, lr=0.01))]:
    a = BaseNetwork(hidden_sizes=[8])
    b = BaseNetwork(hidden_sizes=[8])
    a.load_state_dict(ref.state_dict())
    b.load_state_dict(ref.state_dict())
    opt_a, opt_b = ours(a.parameters()), theirs(b.parameters())
    for step in range(20):
        x, y = train_set.x[step * 8:(step + 1) * 8], train_set.y[step * 8:(step + 1) * 8]
        for net, opt in ((a, opt_a), (b, opt_b)):
            opt.zero_grad()
            F.mse_loss(net(x), y).backward()
            opt.step()
    same = [torch.allclose(pa, pb, atol=1e-6) for pa, pb in zip(a.parameters(), b.parameters())]
    exact = [torch.equal(pa, pb) for pa, pb in zip(a.parameters(), b.parameters())]
    diff = max((pa - pb).abs().max().item() for pa, pb in zip(a.parameters(), b.parameters()))
    print(type(opt_a).__name__, type(opt_b).__name__, same, exact, f"{diff:.2e}")
print(sorted(opt_b.state_dict()["state"][0].keys()), opt_b.state_dict()["param_groups"][0]["lr"])
