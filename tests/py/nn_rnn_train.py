# A tiny char-level LSTM and a GRU with dropout trained for 20 steps each:
# the losses are PyTorch's.
import torch
from torch import nn

text = "hello world, hello nndb. the quick brown fox jumps over the lazy dog. " * 2
chars = sorted(set(text))
idx = torch.tensor([chars.index(ch) for ch in text])


class CharModel(nn.Module):
    def __init__(self, cell, vocab, hidden, **kw):
        super().__init__()
        self.embed = nn.Embedding(vocab, 8)
        self.rnn = cell(8, hidden, batch_first=True, **kw)
        self.head = nn.Linear(hidden * (2 if kw.get("bidirectional") else 1), vocab)

    def forward(self, x):
        out, _ = self.rnn(self.embed(x))
        return self.head(out)


def train(cell, opt_cls, lr, **kw):
    torch.manual_seed(0)
    model = CharModel(cell, len(chars), 16, **kw)
    print(model)
    opt = opt_cls(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    seq = 12
    for step in range(20):
        starts = torch.randint(0, len(text) - seq - 1, (4,))
        x = torch.stack([idx[s:s + seq] for s in starts.tolist()])
        y = torch.stack([idx[s + 1:s + seq + 1] for s in starts.tolist()])
        logits = model(x)
        loss = loss_fn(logits.reshape(-1, len(chars)), y.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 4 == 0 or step == 19:
            print(step, f"{loss.item():.3f}")


train(nn.LSTM, torch.optim.Adam, 0.01)
train(nn.GRU, torch.optim.SGD, 0.5, num_layers=2)
train(nn.RNN, torch.optim.Adam, 0.01, bidirectional=True)
train(nn.LSTM, torch.optim.Adam, 0.01, num_layers=2, dropout=0.3)
