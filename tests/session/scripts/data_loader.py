# DataLoader (torch.utils.data's): batch counts, every row once per epoch,
# shuffling drawn from a generator as PyTorch draws it, collation of nndb's
# datasets ((x[i], y[i]) pairs become a list [x, y]).
ds = spirals(100)
loader = DataLoader(ds, batch_size=32)
print(len(loader), loader.batch_size, loader.drop_last)  # expect: 4 32 False
loader  # expect: <torch.utils.data.dataloader.DataLoader at ...
sizes = []
for batch in loader:
    sizes.append(len(batch[0]))
print(sizes, type(batch).__name__, len(batch))  # expect: [32, 32, 32, 4] list 2
xb, yb = batch
print(xb.shape, xb.dtype, yb.shape, yb.dtype)  # expect: torch.Size([4, 2]) torch.float32 torch.Size([4]) torch.int64
print((xb == ds.x[96:]).all().item(), (yb == ds.y[96:]).all().item())  # expect: True True
# Without shuffling the rows come in order, every one once.
print(torch.equal(torch.cat([x for x, _ in loader]), ds.x))  # expect: True
print(len(DataLoader(ds, batch_size=32, drop_last=True)), len(DataLoader(ds, batch_size=100)))  # expect: 3 1
# Shuffled: each epoch a new order over every row; the order is PyTorch's
# for the generator's seed, and the same seed gives the same orders.
rows = TensorDataset(arange(100))
sh = DataLoader(rows, batch_size=10, shuffle=True, generator=torch.Generator().manual_seed(3))
e0 = [i for (b,) in sh for i in b.tolist()]
e1 = [i for (b,) in sh for i in b.tolist()]
print(len(e1), sorted(e1) == list(range(100)), e1 != list(range(100)), e0 != e1)  # expect: 100 True True True
print(e0[:8], e1[:8])  # expect: [37, 4, 58, 47, 1, 70, 77, 62] [5, 9, 35, 57, 48, 61, 64, 31]
again = DataLoader(rows, batch_size=10, shuffle=True, generator=torch.Generator().manual_seed(3))
print([i for (b,) in again for i in b.tolist()] == e0)  # expect: True
# Leaving a loop early: the next loop is a whole pass from its beginning.
n = 0
for b in sh:
    n += 1
    if n == 2:
        break
print(len([b for b in sh]))  # expect: 10
# Sequence data with its mask: a TensorDataset batches all three.
seq = copy_task(8, length=5)
for xb, yb, mb in DataLoader(TensorDataset(seq.x, seq.y, seq.mask), batch_size=4):
    print(xb.shape, mb.shape, mb.dtype)
# expect: torch.Size([4, 5]) torch.Size([4, 5]) torch.bool
# expect: torch.Size([4, 5]) torch.Size([4, 5]) torch.bool
# An empty test split gives no batches.
_, _, empty = spirals(10).split(0.5, 0.5)
print(len(empty), len(DataLoader(empty, batch_size=4)), [b for b in DataLoader(empty)])  # expect: 0 0 []
DataLoader(ds, batch_size=0)  # expect error: ValueError: batch_size should be a positive integer value, but got batch_size=0
# Any sequence is a dataset, as in torch: a tensor's rows batch by stacking.
print([tuple(b.shape) for b in DataLoader(ds.x, batch_size=40)])  # expect: [(40, 2), (40, 2), (20, 2)]
len(DataLoader(5, batch_size=4))  # expect error: TypeError: object of type 'int' has no len()
