# Generators as course code uses them: a DataLoader-style class whose
# __iter__ yields batches, a training loop over it, generator helpers,
# yield from, send, try/finally, lazy generator expressions, map, filter.
import torch
import torch.nn as nn


class BatchLoader:
    def __init__(self, X, Y, batch_size):
        self.X, self.Y, self.batch_size = X, Y, batch_size

    def __len__(self):
        return (len(self.X) + self.batch_size - 1) // self.batch_size

    def __iter__(self):
        for i in range(0, len(self.X), self.batch_size):
            yield self.X[i:i + self.batch_size], self.Y[i:i + self.batch_size]


X = torch.linspace(-1, 1, 12).reshape(12, 1)
Y = 3 * X + 0.5
model = nn.Linear(1, 1)
with torch.no_grad():
    model.weight.fill_(0.0)
    model.bias.fill_(0.0)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loader = BatchLoader(X, Y, 4)
print(len(loader), type(iter(loader)).__name__)
for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        loss = ((model(xb) - yb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, round(total, 4))
print(round(model.weight.item(), 4), round(model.bias.item(), 4))


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "liftoff"


g = countdown(3)
print(next(g), next(g), next(g), next(g, None))
print(list(countdown(4)), sum(countdown(10)), max(countdown(5)))
print(list(zip(countdown(3), "abc")), list(enumerate(countdown(2))))


def chain(*its):
    for it in its:
        result = yield from it
        if result is not None:
            print("inner returned", result)


print(list(chain([1, 2], countdown(2), (c for c in "xy"))))


def running_mean():
    total, n, avg = 0.0, 0, None
    while True:
        x = yield avg
        total += x
        n += 1
        avg = total / n


rm = running_mean()
next(rm)
print([rm.send(v) for v in [2.0, 4.0, 9.0]])


def guarded():
    try:
        yield "a"
        yield "b"
    finally:
        print("finally runs")


for v in guarded():
    print(v)
gg = guarded()
print(next(gg))
gg.close()


def failing():
    yield 1
    raise ValueError("bad batch")


try:
    for v in failing():
        print("got", v)
except ValueError as e:
    print("caught", e)

try:
    next(iter(countdown(0)))
except StopIteration:
    print("StopIteration")

sq = (i * i for i in range(5))
print(type(sq).__name__, next(sq), list(sq), list(sq))
print(str(sq).startswith("<generator object <genexpr> at "))
print(str(countdown(1)).startswith("<generator object countdown at "))
print(str(iter(loader)).startswith("<generator object BatchLoader.__iter__ at "))
print(sum(x * x for x in range(10 ** 6)))
print(any(x > 3 for x in range(10)), all(x < 3 for x in range(10)))
print(sorted((x % 3, x) for x in range(6)), "".join(c.upper() for c in "abc"))
print(dict((k, k * k) for k in range(3)), set(x % 2 for x in range(5)), tuple(x for x in "hi"))
m = map(lambda v: v * 2, [1, 2, 3])
print(type(m).__name__, str(m).startswith("<map object at "), list(m), list(m))
f = filter(lambda v: v % 2, range(7))
print(type(f).__name__, list(f), list(map(str, filter(None, [0, 1, 2]))))
print(list(map(lambda a, b: a + b, [1, 2, 3], [10, 20])))
print(torch.stack(list(x for x in [torch.ones(2), torch.zeros(2)])).shape)
