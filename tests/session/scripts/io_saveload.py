# save/load: tensors (.npy and safetensors), modules (state_dict), dicts; errors name the file.
manual_seed(0)  # expect: <torch._C.Generator object at ...
x = tensor([[1.0, 2.0], [3.0, 4.0]])
save(x, '/tmp/nndb_io_test_x.npy')
print(load('/tmp/nndb_io_test_x.npy'))
# expect: tensor([[1., 2.],
# expect:         [3., 4.]])
save(arange(3), '/tmp/nndb_io_test_i.npy')
print(load('/tmp/nndb_io_test_i.npy'))  # expect: tensor([0, 1, 2])
save(x, '/tmp/nndb_io_test_x.safetensors')
print(load('/tmp/nndb_io_test_x.safetensors'))
# expect: {'tensor': tensor([[1., 2.],
# expect:         [3., 4.]])}
save({'w': x.T, 'mask': tensor([True, False])}, '/tmp/nndb_io_test_d.safetensors')
d = load('/tmp/nndb_io_test_d.safetensors')
print(list(d.keys()), d['w'], d['mask'])
# expect: ['w', 'mask'] tensor([[1., 3.],
# expect:         [2., 4.]]) tensor([ True, False])
# A module round-trips through its state_dict.
model = MLP([2, 8, 3])
save(model, '/tmp/nndb_io_test_m.safetensors')
other = MLP([2, 8, 3])
print((other[0].weight == model[0].weight).all().item())  # expect: False
other.load_state_dict(load('/tmp/nndb_io_test_m.safetensors'))  # expect: <All keys matched successfully>
print((other(x) == model(x)).all().item())  # expect: True
g = GPT(vocab_size=7, block_size=4, n_layer=1, n_head=1, n_embd=4)
save(g, '/tmp/nndb_io_test_g.safetensors')
sd = load('/tmp/nndb_io_test_g.safetensors')
print('head.weight' in sd, 'tok_emb.weight' in sd)  # expect: True True
g2 = GPT(vocab_size=7, block_size=4, n_layer=1, n_head=1, n_embd=4)
g2.load_state_dict(sd)  # expect: <All keys matched successfully>
MLP([2, 4, 3]).load_state_dict(load('/tmp/nndb_io_test_m.safetensors'))  # expect error: ShapeError: load_state_dict: size mismatch for '0.weight'
# Errors name the file.
load('/tmp/nndb_io_test_missing.safetensors')  # expect error: IOError: /tmp/nndb_io_test_missing.safetensors: cannot open: No such file or directory
# A file that is not a checkpoint (a word list) is refused, naming it.
load('/usr/share/dict/words')  # expect error: IOError: /usr/share/dict/words
save(model, '/tmp/nndb_io_test_m.npy')  # expect error: ValueError: '/tmp/nndb_io_test_m.npy': a .npy file holds one tensor; save a Sequential as .safetensors
save([1, 2], '/tmp/nndb_io_test_l.safetensors')  # expect error: TypeError: save() writes a Tensor, a Module or a dict of tensors, not list
save({'a': 1}, '/tmp/nndb_io_test_l.safetensors')  # expect error: TypeError: save()'s dict['a'] must be a Tensor, not int
save(x, '/nonexistent/dir/x.npy')  # expect error: IOError
