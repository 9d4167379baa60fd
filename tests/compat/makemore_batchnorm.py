# makemore part 3: an MLP with nn.BatchNorm1d inside an nn.Module, trained a
# few steps with a seeded generator; train/eval switching, running stats.
import torch
import torch.nn as nn
import torch.nn.functional as F

words = open('/usr/share/dict/words').read().splitlines()
words = [w.lower() for w in words if w.isalpha() and all(ord(c) < 128 for c in w)][:400]
chars = sorted(list(set(''.join(words))))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi['.'] = 0
itos = {i: s for s, i in stoi.items()}
vocab_size = len(itos)
block_size = 3


def build_dataset(words):
    X, Y = [], []
    for w in words:
        context = [0] * block_size
        for ch in w + '.':
            ix = stoi[ch]
            X.append(context)
            Y.append(ix)
            context = context[1:] + [ix]
    return torch.tensor(X), torch.tensor(Y)


Xtr, Ytr = build_dataset(words[:320])
Xdev, Ydev = build_dataset(words[320:])


class MLP(nn.Module):
    def __init__(self, n_embd=10, n_hidden=64):
        super().__init__()
        self.emb = nn.Embedding(vocab_size, n_embd)
        self.fc1 = nn.Linear(n_embd * block_size, n_hidden, bias=False)
        self.bn = nn.BatchNorm1d(n_hidden)
        self.fc2 = nn.Linear(n_hidden, vocab_size)

    def forward(self, x):
        e = self.emb(x).view(x.shape[0], -1)
        h = torch.tanh(self.bn(self.fc1(e)))
        return self.fc2(h)


torch.manual_seed(2147483647)
model = MLP()
print(model)
print(model.bn)
print([k for k in model.state_dict()])
print(sum(p.nelement() for p in model.parameters()))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
g = torch.Generator().manual_seed(42)
for i in range(30):
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    logits = model(Xtr[ix])
    loss = F.cross_entropy(logits, Ytr[ix])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i % 5 == 0:
        print(f"{i:3d} {loss.item():.4f}")
print(model.bn.num_batches_tracked, model.training, model.bn.training)
print(f"{model.bn.running_mean.mean().item():.4f} {model.bn.running_var.mean().item():.4f}")


@torch.no_grad()
def split_loss(X, Y):
    return F.cross_entropy(model(X), Y).item()


model.eval()
print(model.bn.training, f"{split_loss(Xtr, Ytr):.4f} {split_loss(Xdev, Ydev):.4f}")
before = model.bn.running_mean.clone()
model(Xdev[:8])
print(torch.equal(before, model.bn.running_mean), model.bn.num_batches_tracked.item())
# sampling from the model in eval mode
g = torch.Generator().manual_seed(2147483647 + 10)
for _ in range(3):
    out, context = [], [0] * block_size
    while True:
        probs = F.softmax(model(torch.tensor([context])), dim=1)
        ix = torch.multinomial(probs, num_samples=1, generator=g).item()
        context = context[1:] + [ix]
        out.append(ix)
        if ix == 0 or len(out) > 12:
            break
    print(''.join(itos[i] for i in out))
model.train()
print(model.bn.training)
bn = nn.BatchNorm1d(5, momentum=None, affine=False)
for k in range(3):
    bn(torch.randn(8, 5) + k)
print(bn, bn.num_batches_tracked, bn.running_mean.shape, list(bn.state_dict()))
try:
    bn(torch.randn(1, 5))
except ValueError as e:
    print("ValueError:", e)
try:
    bn(torch.randn(2, 5, 3, 1))
except ValueError as e:
    print("ValueError:", e)
