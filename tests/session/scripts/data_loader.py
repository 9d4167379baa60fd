# DataLoader: batch counts, coverage of every row once per epoch, epochs, unpacking.
ds = spirals(100)
loader = DataLoader(ds, batch_size=32)
print(len(loader), loader.batch_size, loader.epoch)  # expect: 4 32 0
loader  # expect: DataLoader('spirals', batch_size=32, shuffle=False, drop_last=False, batches=4, epoch=0)
sizes = []
rows = []
for batch in loader:
    sizes.append(batch.size)
    rows.extend(batch.index.tolist())
print(sizes, sorted(rows) == list(range(100)), rows[:3], loader.epoch)  # expect: [32, 32, 32, 4] True [0, 1, 2] 1
batch
# expect: Batch(x=[4, 2] float32, y=[4] int64, size=4)
print(batch.mask, (batch.x == ds.x[96:]).all().item())  # expect: None True
print(len(DataLoader(ds, batch_size=32, drop_last=True)), len(DataLoader(ds, batch_size=100)))  # expect: 3 1
# Shuffled: each epoch a new order over every row; the same seed gives the same order.
sh = DataLoader(ds, batch_size=10, shuffle=True, seed=3)
e0 = []
for xb, yb in sh:
    e0.extend(yb.tolist())
e1 = [i for b in sh for i in b.index.tolist()]
print(len(e1), sorted(e1) == list(range(100)), e1 != list(range(100)), sh.epoch)  # expect: 100 True True 2
sh.reset(1)
again = [i for b in sh for i in b.index.tolist()]
print(again == e1)  # expect: True
# Leaving a loop early: the next loop starts the next epoch at its beginning.
n = 0
for b in sh:
    n += 1
    if n == 2:
        break
print(sh.epoch, len([b for b in sh]))  # expect: 2 10
# Sequence batches carry the mask.
for b in DataLoader(copy_task(8, length=5), batch_size=4):
    print(b.x.shape, b.mask.shape, b.mask.dtype)
# expect: torch.Size([4, 5]) torch.Size([4, 5]) torch.bool
# expect: torch.Size([4, 5]) torch.Size([4, 5]) torch.bool
# An empty test split gives no batches.
_, _, empty = spirals(10).split(0.5, 0.5)
print(len(empty), len(DataLoader(empty, batch_size=4)), [b for b in DataLoader(empty)])  # expect: 0 0 []
DataLoader(ds, batch_size=0)  # expect error: ValueError
# Any sequence is a dataset, as in torch: a tensor's rows batch by stacking.
print([tuple(b.shape) for b in DataLoader(ds.x, batch_size=40)])  # expect: [(40, 2), (40, 2), (20, 2)]
DataLoader(5, batch_size=4)  # expect error: TypeError: object of type 'int' has no len()
