# torch.save / torch.load: PyTorch's zip format whatever the file is called;
# tensors (views and dtypes kept), state_dicts, any picklable object; errors
# as torch's.
import os, tempfile
manual_seed(0)  # expect: <torch._C.Generator at ...
d = tempfile.mkdtemp()
x = tensor([[1.0, 2.0], [3.0, 4.0]])
save(x, os.path.join(d, 'x.pt'))
print(load(os.path.join(d, 'x.pt')))
# expect: tensor([[1., 2.],
# expect:         [3., 4.]])
save(arange(3), os.path.join(d, 'i.npy'))  # the name's extension changes nothing
i = load(os.path.join(d, 'i.npy'))
print(i, i.dtype)  # expect: tensor([0, 1, 2]) torch.int64
save({'w': x.T, 'mask': tensor([True, False])}, os.path.join(d, 'd.pt'))
sd = load(os.path.join(d, 'd.pt'))
print(list(sd.keys()), sd['w'], sd['mask'], sd['w'].is_contiguous())
# expect: ['w', 'mask'] tensor([[1., 3.],
# expect:         [2., 4.]]) tensor([ True, False]) False
# A module round-trips through its state_dict.
model = MLP([2, 8, 3])
save(model.state_dict(), os.path.join(d, 'm.pt'))
other = MLP([2, 8, 3])
print((other[0].weight == model[0].weight).all().item())  # expect: False
other.load_state_dict(load(os.path.join(d, 'm.pt')))  # expect: <All keys matched successfully>
print((other(x) == model(x)).all().item())  # expect: True
g = GPT(vocab_size=7, block_size=4, n_layer=1, n_head=1, n_embd=4)
save(g.state_dict(), os.path.join(d, 'g.pt'))
sd = load(os.path.join(d, 'g.pt'))
print('head.weight' in sd, 'tok_emb.weight' in sd)  # expect: True True
g2 = GPT(vocab_size=7, block_size=4, n_layer=1, n_head=1, n_embd=4)
g2.load_state_dict(sd)  # expect: <All keys matched successfully>
MLP([2, 4, 3]).load_state_dict(load(os.path.join(d, 'm.pt')))  # expect error: RuntimeError: Error(s) in loading state_dict for MLP:
# expect traceback: size mismatch for 0.weight: copying a param with shape torch.Size([8, 2]) from checkpoint, the shape in current model is torch.Size([4, 2]).
# Anything picklable: a list, a whole module (its class is pickled by name).
save([1, 'two', {'x': x[0]}], os.path.join(d, 'l.pt'))
print(load(os.path.join(d, 'l.pt')))  # expect: [1, 'two', {'x': tensor([1., 2.])}]
save(model, os.path.join(d, 'whole.pt'))
m2 = load(os.path.join(d, 'whole.pt'))
print(type(m2).__name__, m2 is model, (m2(x) == model(x)).all().item())  # expect: MLP False True
# Errors
load(os.path.join(d, 'missing.pt'))  # expect error: FileNotFoundError: [Errno 2] No such file or directory: '/
# A file that is not a checkpoint (a word list) is refused as pickle refuses it.
load('/usr/share/dict/words')  # expect error: UnpicklingError
# expect traceback: invalid load key, 'A'.
save(x, '/nonexistent/dir/x.pt')  # expect error: RuntimeError: Parent directory /nonexistent/dir does not exist.
save(x, d)  # expect error: RuntimeError: File /tmp/
