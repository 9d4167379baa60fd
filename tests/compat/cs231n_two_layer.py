# CS231n assignment 1 style: two-layer net with numpy interplay and gradient checking
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)

N, D, H, C = 5, 4, 10, 3
X_np = np.random.randn(N, D)
y_np = np.array([0, 1, 2, 2, 1])
X = torch.from_numpy(X_np)
y = torch.from_numpy(y_np)
print(X.dtype, y.dtype, X.shape)

params = {
    'W1': torch.randn(D, H, dtype=torch.float64) * 1e-1,
    'b1': torch.zeros(H, dtype=torch.float64),
    'W2': torch.randn(H, C, dtype=torch.float64) * 1e-1,
    'b2': torch.zeros(C, dtype=torch.float64),
}
for k, v in params.items():
    v.requires_grad_(True)
    print(k, tuple(v.shape), v.dtype, v.requires_grad)


def loss_fn(params, X, y, reg=0.05):
    h = torch.clamp(X @ params['W1'] + params['b1'], min=0)
    scores = h @ params['W2'] + params['b2']
    scores = scores - scores.max(dim=1, keepdim=True).values
    log_probs = scores - torch.log(torch.exp(scores).sum(dim=1, keepdim=True))
    data_loss = -log_probs[torch.arange(X.shape[0]), y].mean()
    reg_loss = reg * (torch.sum(params['W1'] ** 2) + torch.sum(params['W2'] ** 2))
    return data_loss + reg_loss, scores


loss, scores = loss_fn(params, X, y)
print('scores:\n', scores)
print('loss:', loss.item(), loss)
loss.backward()


def rel_error(x, y):
    return np.max(np.abs(x - y) / (np.maximum(1e-8, np.abs(x) + np.abs(y))))


def eval_numerical_gradient(f, x, h=1e-5):
    grad = np.zeros_like(x)
    it = np.nditer(x, flags=['multi_index'], op_flags=['readwrite'])
    while not it.finished:
        ix = it.multi_index
        old = x[ix]
        x[ix] = old + h
        fxph = f()
        x[ix] = old - h
        fxmh = f()
        x[ix] = old
        grad[ix] = (fxph - fxmh) / (2 * h)
        it.iternext()
    return grad


for name in sorted(params):
    p = params[name]
    arr = p.detach().numpy()  # shares memory with the tensor

    def f():
        with torch.no_grad():
            return loss_fn(params, X, y)[0].item()

    num = eval_numerical_gradient(f, arr)
    err = rel_error(num, p.grad.numpy())
    print('%s max relative error: %e' % (name, err), err < 1e-7)

print(torch.autograd.gradcheck(lambda a: (a ** 2).sum(), (torch.randn(3, dtype=torch.double, requires_grad=True),)))
# numpy interplay
a = np.arange(6, dtype=np.float32).reshape(2, 3)
t = torch.from_numpy(a)
a[0, 0] = 100
print(t)
t2 = torch.tensor(a)
a[0, 1] = -5
print(t2, t.numpy().dtype, t.numpy() is a)
print(np.asarray(t) + 1, np.mean(t.numpy()), t.mean())
print(torch.as_tensor(np.int64(3)), torch.tensor(np.float32(2.5)), torch.tensor([np.float64(1.5)]))
s = torch.softmax(torch.from_numpy(np.array([[1.0, 2.0, 3.0]])), dim=1)
print(s, s.sum(), s.numpy().sum())
try:
    params['W1'].numpy()
except RuntimeError as e:
    print("RuntimeError:", e)
preds = scores.argmax(dim=1)
print(preds, (preds == y).float().mean(), (preds.numpy() == y_np).mean())
print(type(loss.item()), float(loss), loss.detach().numpy(), np.float64(loss.item()))
