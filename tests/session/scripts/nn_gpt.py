# A tiny GPT: structure, forward, (logits, loss) like nanoGPT, a few steps of AdamW.
manual_seed(0)  # expect: <torch._C.Generator at ...
model = GPT(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=16)
print(model.config.n_layer, model.config.vocab_size, len(model.blocks))  # expect: 2 11 2
print([n for n, c in model.named_children()])  # expect: ['tok_emb', 'pos_emb', 'drop', 'blocks', 'ln_f', 'head']
print(model.head.weight is model.tok_emb.weight)  # expect: True
names = [n for n, p in model.named_parameters()]
print(names[0], names[-1], 'head.weight' in names)  # expect: tok_emb.weight ln_f.bias False
print('head.weight' in model.state_dict())  # expect: True
print(model.num_params)  # expect: 6896
idx = tensor([[1, 2, 3, 4, 5, 6, 7, 8], [8, 7, 6, 5, 4, 3, 2, 1]])
targets = tensor([[2, 3, 4, 5, 6, 7, 8, 9], [7, 6, 5, 4, 3, 2, 1, 0]])
print(model(idx).shape)  # expect: torch.Size([2, 8, 11])
logits, loss = model(idx, targets)
print(logits.shape, loss.shape, abs(loss.item() - 2.3979) < 0.1)  # expect: torch.Size([2, 8, 11]) torch.Size([]) True
opt = AdamW(model.parameters(), lr=1e-2, weight_decay=0.1)
for step in range(60):
    logits, loss = model(idx, targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item() < 0.1)  # expect: True
model(tensor([[1, 2, 3, 4, 5, 6, 7, 8, 9]]))  # expect error: ValueError
model(idx, 3)  # expect error: AttributeError: 'int' object has no attribute
GPT(n_embd=10, n_head=3)  # expect error: ValueError
