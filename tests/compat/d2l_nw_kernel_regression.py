# d2l's parametric Nadaraya-Watson kernel regression (section 10.2): attention
# weights by softmax, then torch.bmm of [50, 1, 49] by [50, 49, 1] per query, trained
# with SGD. Each bmm entry is 49 multiply-adds, under PyTorch 1.13's 400, where
# its bmm sums in a plain loop: the losses and the learnt width must be PyTorch's.
import torch
from torch import nn
torch.manual_seed(0)
n_train = 50
x_train, _ = torch.sort(torch.rand(n_train) * 5)
def f(x): return 2 * torch.sin(x) + x**0.8
y_train = f(x_train) + torch.normal(0.0, 0.5, (n_train,))
x_test = torch.arange(0, 5, 0.1)
class NWKernelRegression(nn.Module):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = nn.Parameter(torch.rand((1,), requires_grad=True))
    def forward(self, queries, keys, values):
        queries = queries.repeat_interleave(keys.shape[1]).reshape((-1, keys.shape[1]))
        self.attention_weights = nn.functional.softmax(-((queries - keys) * self.w)**2 / 2, dim=1)
        return torch.bmm(self.attention_weights.unsqueeze(1), values.unsqueeze(-1)).reshape(-1)
X_tile = x_train.repeat((n_train, 1))
Y_tile = y_train.repeat((n_train, 1))
keys = X_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
values = Y_tile[(1 - torch.eye(n_train)).type(torch.bool)].reshape((n_train, -1))
net = NWKernelRegression()
loss = nn.MSELoss(reduction='none')
trainer = torch.optim.SGD(net.parameters(), lr=0.5)
for epoch in range(5):
    trainer.zero_grad()
    l = loss(net(x_train, keys, values), y_train)
    l.sum().backward()
    trainer.step()
    print(f'epoch {epoch + 1}, loss {float(l.sum()):.6f}', net.w.data)
keys = x_train.repeat((len(x_test), 1)); values = y_train.repeat((len(x_test), 1))
y_hat = net(x_test, keys, values).unsqueeze(1).detach()
print(y_hat[:5].flatten(), y_hat.sum().item())
