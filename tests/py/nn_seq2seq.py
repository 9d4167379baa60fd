# A GRU encoder-decoder with dot-product attention learning to reverse
# digit strings: 20 steps of Adam with teacher forcing, then a greedy
# decode. The losses and the decoded digits are PyTorch's.
import torch
from torch import nn
from torch.nn import functional as F

VOCAB, SOS, HIDDEN, LENGTH = 12, 10, 32, 5


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.rnn = nn.GRU(16, HIDDEN, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * HIDDEN, HIDDEN)

    def forward(self, x):
        out, h = self.rnn(self.embed(x))
        return self.bridge(out), torch.tanh(self.bridge(torch.cat([h[0], h[1]], -1)))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.cell = nn.GRUCell(16 + HIDDEN, HIDDEN)
        self.attn = nn.MultiheadAttention(HIDDEN, 4, batch_first=True)
        self.out = nn.Linear(2 * HIDDEN, VOCAB)

    def step(self, token, h, memory):
        context, weights = self.attn(h.unsqueeze(1), memory, memory)
        h = self.cell(torch.cat([self.embed(token), context.squeeze(1)], -1), h)
        return self.out(torch.cat([h, context.squeeze(1)], -1)), h, weights


torch.manual_seed(0)
enc, dec = Encoder(), Decoder()
params = list(enc.parameters()) + list(dec.parameters())
print(sum(p.numel() for p in params))
opt = torch.optim.Adam(params, lr=0.01)
for step in range(20):
    src = torch.randint(0, 10, (16, LENGTH))
    tgt = src.flip(1)
    memory, h = enc(src)
    token = torch.full((16,), SOS, dtype=torch.long)
    loss = 0
    for t in range(LENGTH):
        logits, h, _ = dec.step(token, h, memory)
        loss = loss + F.cross_entropy(logits, tgt[:, t])
        token = tgt[:, t]
    loss = loss / LENGTH
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(params, 1.0)
    opt.step()
    if step % 5 == 0 or step == 19:
        print(step, f"{loss.item():.3f}")

with torch.no_grad():
    src = torch.tensor([[1, 2, 3, 4, 5], [9, 8, 0, 0, 7]])
    memory, h = enc(src)
    token = torch.full((2,), SOS, dtype=torch.long)
    decoded = []
    for t in range(LENGTH):
        logits, h, weights = dec.step(token, h, memory)
        token = logits.argmax(-1)
        decoded.append(token)
    print(torch.stack(decoded, 1).tolist(), tuple(weights.shape))
