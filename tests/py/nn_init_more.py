# nn.init's dirac_, sparse_, eye_ and orthogonal_ against torch: dirac_ and
# eye_ exactly; sparse_ draws the same seeded normals and permutations, so
# the same entries are zero; orthogonal_ gives an orthogonal matrix.
import warnings
import torch
import torch.nn as nn

for shape, groups in [((4, 2, 3), 1), ((6, 3, 3, 3), 2), ((2, 2, 3, 1, 3), 1), ((4, 4, 5), 2)]:
    w = torch.empty(shape)
    nn.init.dirac_(w, groups)
    print('dirac', shape, groups, w.sum().item(), w.reshape(-1).tolist()[:24])

try:
    nn.init.dirac_(torch.empty(3, 3))
except ValueError as e:
    print('ValueError:', e)
try:
    nn.init.dirac_(torch.empty(3, 3, 3), groups=2)
except ValueError as e:
    print('ValueError:', e)

w = torch.empty(3, 5)
print('eye', nn.init.eye_(w).tolist())

torch.manual_seed(0)
w = torch.empty(10, 4)
nn.init.sparse_(w, 0.3, std=0.5)
print('sparse zeros per column', (w == 0).sum(0).tolist())
print('sparse', [round(v, 6) for v in w.reshape(-1).tolist()])
try:
    nn.init.sparse_(torch.empty(3), 0.1)
except ValueError as e:
    print('ValueError:', e)

for shape in [(3, 5), (5, 3), (4, 2, 2)]:
    torch.manual_seed(1)
    w = nn.init.orthogonal_(torch.empty(shape), gain=2.0)
    flat = w.reshape(shape[0], -1)
    small = flat @ flat.t() if flat.shape[0] <= flat.shape[1] else flat.t() @ flat
    n = small.shape[0]
    print('orthogonal', shape, torch.allclose(small, 4 * torch.eye(n), atol=1e-5),
          [round(v, 4) for v in w.reshape(-1).tolist()])

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    nn.init.eye(torch.empty(2, 2))
    nn.init.dirac(torch.empty(2, 2, 1))
    nn.init.sparse(torch.empty(2, 2), 0.5)
print([str(c.message) for c in caught])
