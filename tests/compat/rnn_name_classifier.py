# PyTorch tutorial "classifying names with a character-level RNN", on generated names
import random
import string
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
syllables = {"Italian": ["ro", "ssi", "li", "ni", "ca", "to"], "Japanese": ["ka", "ta", "mu", "ra", "shi", "ki"],
             "Scottish": ["mac", "don", "ald", "gor", "mc", "kie"]}
all_categories = list(syllables)
category_lines = {c: ["".join(random.choice(s) for _ in range(random.randint(2, 4))).capitalize() for _ in range(30)]
                  for c, s in syllables.items()}
print(n_letters, all_categories, category_lines["Japanese"][:5])


def letterToIndex(letter):
    return all_letters.find(letter)


def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor


print(lineToTensor('Jones').size(), lineToTensor('J')[0][0][:12])


class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.softmax(self.i2o(combined))
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)


rnn = RNN(n_letters, 32, len(all_categories))
print(rnn)
output, next_hidden = rnn(lineToTensor('Albert')[0], rnn.initHidden())
print(output)


def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i


print(categoryFromOutput(output))
criterion = nn.NLLLoss()
learning_rate = 0.005


def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()


current_loss = 0
for it in range(1, 601):
    category = random.choice(all_categories)
    line = random.choice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    output, loss = train(category_tensor, lineToTensor(line))
    current_loss += loss
    if it % 200 == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = '✓' if guess == category else '✗ (%s)' % category
        print('%d %d%% %.4f %s / %s %s' % (it, it / 600 * 100, loss, line, guess, correct))
        print(current_loss / 200)
        current_loss = 0

# the same with nn.GRU over padded batches
gru = nn.GRU(n_letters, 16, batch_first=True)
head = nn.Linear(16, len(all_categories))
opt = torch.optim.SGD(list(gru.parameters()) + list(head.parameters()), lr=0.1)
names = [(n, i) for i, c in enumerate(all_categories) for n in category_lines[c]]
for epoch in range(3):
    random.shuffle(names)
    total = 0.0
    for b in range(0, len(names), 16):
        batch = names[b:b + 16]
        L = max(len(n) for n, _ in batch)
        x = torch.zeros(len(batch), L, n_letters)
        for j, (n, _) in enumerate(batch):
            x[j, :len(n)] = lineToTensor(n).squeeze(1)
        lengths = torch.tensor([len(n) for n, _ in batch])
        packed = nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
        _, h = gru(packed)
        logits = head(h[-1])
        loss = F.cross_entropy(logits, torch.tensor([c for _, c in batch]))
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(gru.parameters(), 1.0)
        opt.step()
        total += loss.item() * len(batch)
    print(f"epoch {epoch} loss {total / len(names):.4f}")
print(gru, h.shape, packed.batch_sizes[:4])
with torch.no_grad():
    out, hn = gru(lineToTensor("Rossi").transpose(0, 1))
    print(out.shape, hn.shape, F.softmax(head(hn[-1]), dim=1))
