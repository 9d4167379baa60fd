# Parameters by hand (makemore style), their count and gradient flow.
import torch
import torch.nn.functional as F

g = None
C = torch.ones((27, 10)) * 0.01
W1 = torch.ones((30, 200)) * 0.02
b1 = torch.zeros(200)
W2 = torch.ones((200, 27)) * 0.01
b2 = torch.zeros(27)
parameters = [C, W1, b1, W2, b2]
print(sum(p.nelement() for p in parameters))
for p in parameters:
    p.requires_grad = True
Xb = torch.tensor([[1, 2, 3], [0, 0, 5]])
Yb = torch.tensor([4, 7])
emb = C[Xb]
h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
logits = h @ W2 + b2
loss = F.cross_entropy(logits, Yb)
for p in parameters:
    p.grad = None
loss.backward()
print(f"{loss.item():.4f}", [tuple(p.grad.shape) for p in parameters])
for p in parameters:
    p.data += -0.1 * p.grad
print(f"{F.cross_entropy((torch.tanh(C[Xb].view(-1, 30) @ W1 + b1)) @ W2 + b2, Yb).item():.4f}")
