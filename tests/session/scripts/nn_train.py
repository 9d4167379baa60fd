# Training a small MLP on spirals with Adam: the loss falls from ln(3) to near 0.
manual_seed(0)  # expect: <torch._C.Generator at ...
ds = spirals(300, classes=3, noise=0.2, seed=0)
model = MLP([2, 64, 64, 3], act='tanh')
opt = Adam(model.parameters(), lr=1e-2)
first = cross_entropy(model(ds.x), ds.y).item()
print(abs(first - 1.0986) < 0.15)  # expect: True
for step in range(300):
    loss = cross_entropy(model(ds.x), ds.y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item() < 0.1, opt.state[model[0].weight]['step'])  # expect: True tensor(300.)
acc = (model(ds.x).argmax(dim=1) == ds.y).float().mean().item()
print(acc > 0.97)  # expect: True
# The optimizer updated the very tensors the model uses.
print(opt.param_groups[0]['params'][0] is model[0].weight)  # expect: True
# Mini-batches with a DataLoader and SGD with momentum.
manual_seed(1)  # expect: <torch._C.Generator at ...
model = MLP([2, 32, 2], act='relu')
opt = SGD(model.parameters(), lr=0.1, momentum=0.9)
loader = DataLoader(xor(200, noise=0.1), batch_size=20, shuffle=True)
for epoch in range(30):
    total = 0.0
    for xb, yb in loader:
        loss = cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
print(total / len(loader) < 0.05, len(loader))  # expect: True 10
