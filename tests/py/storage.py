"""Tensor.storage(): the flat memory under a tensor and its views, as
PyTorch 1.13 shows it (torch.TypedStorage: printing, indexing, writing
through to the tensor, data_ptr shared by views, conversions), the legacy
classes (torch.FloatStorage(3), isinstance by dtype, storage_type()), and
complex tensors through torch.save and torch.load."""
import torch, copy, io
x = torch.arange(6.).view(2,3)
s = torch.FloatStorage(3); print(type(s), isinstance(s, torch.TypedStorage), s.dtype, len(s))
print(isinstance(torch.zeros(2).storage(), torch.FloatStorage), isinstance(torch.zeros(2).storage(), torch.DoubleStorage))
print(torch.FloatStorage([1,2]))
print(torch.is_storage(torch.zeros(2).storage()), torch.is_storage(s), torch.is_storage(x))
print(torch.typename(s))
print(x.t().storage().tolist(), x.storage_type())
print(x[1:].storage().data_ptr() == x.data_ptr(), x[1].storage_offset())
print(x.storage().double())
print(type(x.storage().double()))
for i in (10, -7, 'a', 1.0, slice(1, 3)):
    try: x.storage()[i]
    except Exception as e: print(type(e).__name__, e)
print(x.storage()[-1])
print(torch.tensor([True]).storage())
print(torch.tensor([1+2j]).storage())
print(torch.tensor([0.1]).storage())
print(torch.tensor([0.1], dtype=torch.float16).storage())
print(torch.zeros(0).storage())
s = x.storage(); s[0] = 9; print(x[0,0])
print(s.type())
print(list(s), s.is_shared(), s.nbytes(), s.size(), s.device, s.element_size())
print(torch.zeros(3).storage().fill_(2))
c = copy.deepcopy(s); c[0] = 1; print(s[0], c[0])
print(len(torch.zeros(2,3)[1].storage()))
z = torch.tensor([1+2j, 3j])
b = io.BytesIO(); torch.save(z, b); b.seek(0); print(torch.load(b))
y = torch.ones(3, requires_grad=True) * 2
print(y.storage())
e = torch.ones(3).expand(2, 3)
print(e.storage(), e.storage().data_ptr() == e.data_ptr())
v = x.t()
v.storage()[5] = -1.5
print(x)
print(torch.storage.TypedStorage([1, 2], dtype=torch.int32))
