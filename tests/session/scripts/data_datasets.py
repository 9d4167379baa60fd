# Datasets: shapes, determinism, vocabularies, splits and planted bugs.
ds = spirals(300)
ds  # expect: Dataset('spirals', n=300, x=[300, 2] float32, y=[300] int64, num_classes=3)
print(len(ds), ds.n, ds.x.shape, ds.y.dtype, ds.mask, ds.vocab, ds.bugs)  # expect: 300 300 torch.Size([300, 2]) torch.int64 None None []
print(ds.x is ds.x, (spirals(300).x == ds.x).all().item(), (spirals(300, seed=1).x == ds.x).all().item())
# expect: True True False
print([int((ds.y == k).sum()) for k in range(3)])  # expect: [100, 100, 100]
x0, y0 = ds[0]
print(x0.shape, y0.shape, (x0 == ds.x[0]).all().item())  # expect: torch.Size([2]) torch.Size([]) True
print(ds.description.split('\n')[0][:7])  # expect: spirals
moons(100)  # expect: Dataset('moons', n=100, x=[100, 2] float32, y=[100] int64, num_classes=2)
b = blobs(90, centers=3, dim=4)
print(b.x.shape, b.true_w.shape, b.num_classes)  # expect: torch.Size([90, 4]) torch.Size([3, 4]) 3
print([int((xor(200).y == k).sum()) for k in range(2)])  # expect: [100, 100]
r = regression(50, in_dim=3, out_dim=2)
print(r.y.dtype, r.y.shape, r.true_w.shape, r.true_b.shape, r.num_classes)
# expect: torch.float32 torch.Size([50, 2]) torch.Size([2, 3]) torch.Size([2]) 0
c = copy_task(16, length=6, vocab=5)
print(c.x.shape, c.mask.dtype, (c.x == c.y).all().item(), ((c.x != 0) == c.mask).all().item())
# expect: torch.Size([16, 6]) torch.bool True True
# words: makemore's task and vocabulary
w = words(3)
print(w.x.shape[1], w.vocab, len(w.vocab), w.vocab.size)  # expect: 3 Vocab(size=27, chars='.abcdefghijklmnopqrstuvwxyz') 27 27
print(w.vocab.encode('emma'), w.vocab.decode(tensor([5, 13, 13, 1, 0])))  # expect: tensor([ 5, 13, 13,  1]) emma.
print(w.vocab.decode([1, 2, 3]), w.vocab.itos[1], w.vocab.stoi['z'])  # expect: abc a 26
w.vocab.encode('A')  # expect error: ValueError
# split
train, val, test = spirals(300).split(0.8, 0.1, seed=0)
print(len(train), len(val), len(test), train.name)  # expect: 240 30 30 spirals[train]
tr2, _, _ = spirals(300).split(0.8, 0.1, seed=0)
print((tr2.x == train.x).all().item())  # expect: True
spirals(100).split(0.8, 0.5)  # expect error: ValueError
# Bugs: off by one shows in y, planted as a list or a single name.
clean = spirals(30)
obo = spirals(30, bugs=['off_by_one'])
print(obo.bugs, ((clean.y + 1) % 3 == obo.y).all().item(), (clean.x == obo.x).all().item())
# expect: ['off_by_one'] True True
print(spirals(30, bugs='zero_inputs').x.abs().sum().item())  # expect: 0.0
nan = spirals(30, bugs=['nan'], nan_row=7)
print(nan.nan_row, nan.x[7, 0], isfinite(nan.x).all(dim=1).long().argmin())
# expect: 7 tensor(nan) tensor(7)
rl = spirals(30, bugs=['relabel'], relabel_from=0, relabel_to=2)
print(int((rl.y == 0).sum()), int((rl.y == 2).sum()))  # expect: 0 20
sl = spirals(300, bugs=['shuffled_labels'])
print([int((sl.y == k).sum()) for k in range(3)], (sl.y == spirals(300).y).all().item())  # expect: [100, 100, 100] False
un = spirals(30, bugs=['unnormalised'], scale=100.0)
print(allclose(un.x[:, 0], clean.x[:, 0] * 100), 'planted' in un.description)  # expect: True True
pad = copy_task(20, bugs=['all_padding'], padding_fraction=0.1)
print(len(pad.padded_rows), pad.mask[pad.padded_rows].any().item())  # expect: 2 False
lk = spirals(100, bugs=['leakage'])
tr, va, te = lk.split(0.8, 0.1)
print(len(tr), len(va), tr.leaked_rows.shape)  # expect: 81 10 torch.Size([1])
# Planting after a split breaks only that part.
tr, va, te = spirals(300).split(0.8, 0.1)
bad = tr.plant(['off_by_one'])
print(bad.bugs, tr.bugs, ((tr.y + 1) % 3 == bad.y).all().item())  # expect: ['off_by_one'] [] True
spirals(30, bugs=['typo'])  # expect error: ValueError: unknown bug 'typo'
spirals(30, nan_row=3)  # expect error: ValueError: nan_row= is a parameter of the
regression(30, bugs=['off_by_one'])  # expect error: TypeError
words(3, bugs=['nan'])  # expect error: TypeError
spirals(30, bugs=[1])  # expect error: TypeError: a bug name must be a str, not int
spirals(2, classes=3)  # expect error: ValueError
text('/nonexistent/input.txt')  # expect error: OSError: cannot open '/nonexistent/input.txt'
