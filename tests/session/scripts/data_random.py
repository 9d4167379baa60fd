# DataLoader's shuffle and random_split draw as torch's do; the expected
# indices are what torch 1.13 prints for the same calls (DataLoader and
# random_split over range(n)).
ds = spirals(12, seed=0)
rows = TensorDataset(arange(12))  # a batch of it is the rows' indices
manual_seed(0)  # expect: <torch._C.Generator at ...
loader = DataLoader(rows, batch_size=5, shuffle=True)
print([b.tolist() for (b,) in loader])  # expect: [[6, 11, 9, 8, 2], [1, 4, 5, 3, 10], [7, 0]]
print([b.tolist() for (b,) in loader])  # expect: [[8, 11, 9, 5, 10], [4, 2, 0, 1, 6], [3, 7]]
print(f"{rand(1).item():.6f}")  # expect: 0.455628
g = Generator().manual_seed(7)
print([b.tolist() for (b,) in DataLoader(rows, batch_size=5, shuffle=True, generator=g)])  # expect: [[1, 10, 5, 9, 11], [6, 0, 8, 2, 7], [3, 4]]
# Even without shuffle, each pass draws the iterator's seed from the default generator.
manual_seed(3)  # expect: <torch._C.Generator at ...
for b in DataLoader(ds, batch_size=5):
    pass
print(randn(2))  # expect: tensor([-0.3940,  1.6762])
# With generator= a pass draws from that generator and leaves the default one alone.
manual_seed(3)  # expect: <torch._C.Generator at ...
for b in DataLoader(ds, batch_size=5, shuffle=True, generator=Generator().manual_seed(1)):
    pass
print(randn(2))  # expect: tensor([0.8033, 0.1748])
ten = spirals(10, seed=0)
print(randperm(10, generator=Generator().manual_seed(42)).tolist())  # expect: [2, 6, 1, 8, 4, 5, 0, 9, 3, 7]
a, b = random_split(ten, [3, 7], generator=Generator().manual_seed(42))
print(len(a), len(b), a.indices, b.indices)  # expect: 3 7 [2, 6, 1] [8, 4, 5, 0, 9, 3, 7]
print(type(a).__name__, a.dataset is ten, torch.equal(a[0][0], ten.x[2]))  # expect: Subset True True
a, b, c = random_split(ten, [0.5, 0.3, 0.2], generator=Generator().manual_seed(1))
print(len(a), len(b), len(c), c.indices)  # expect: 5 3 2 [7, 4]
manual_seed(0)  # expect: <torch._C.Generator at ...
a, b = random_split(spirals(7, seed=0), [0.5, 0.5])
print(len(a), len(b))  # expect: 4 3
random_split(ten, [3, 3])  # expect error: ValueError: Sum of input lengths does not equal the length of the input dataset!
random_split(ten, [1.5, -0.5])  # expect error: ValueError: Fraction at index 0 is not between 0 and 1
