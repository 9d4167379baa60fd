# torch.save / torch.load: round trips of tensors (all dtypes, views that
# share a storage, parameters, requires_grad), state_dicts and checkpoints
# with numbers, strings and nested containers; a file written here loaded
# by Debian's PyTorch and a file PyTorch wrote loaded here; damaged files
# raise errors.
import io
import os
import subprocess
import sys
from collections import OrderedDict

import torch

torch.manual_seed(0)
base = torch.arange(12.).reshape(3, 4)
ckpt = {
    'epoch': 7,
    'loss': 0.125,
    'name': 'run-1',
    'flags': [True, None, (1, 2.5, 'x')],
    'model': OrderedDict([('w', torch.randn(2, 3)), ('b', torch.zeros(3))]),
    'view': base[1:, ::2],
    'base': base,
    'T': base.t(),
    'ints': torch.tensor([1, -2, 3]),
    'f64': torch.tensor([0.1, 0.2], dtype=torch.float64),
    'half': torch.tensor([1.5, -2.25], dtype=torch.float16),
    'bf16': torch.tensor([3.0, 0.5], dtype=torch.bfloat16),
    'bool': torch.tensor([True, False, True]),
    'u8': torch.tensor([0, 255], dtype=torch.uint8),
    'i8': torch.tensor([-128, 127], dtype=torch.int8),
    'i16': torch.tensor([-3], dtype=torch.int16),
    'i32': torch.tensor([2 ** 31 - 1], dtype=torch.int32),
    'scalar': torch.tensor(2.5),
    'empty': torch.zeros(0, 2),
    'grad': torch.ones(2, requires_grad=True),
    'param': torch.nn.Parameter(torch.full((2,), 3.0)),
    'dtype': torch.float64,
}


def show(d):
    for k in sorted(d):
        v = d[k]
        if isinstance(v, torch.Tensor):
            print(k, type(v).__name__, v.dtype, tuple(v.shape), v.requires_grad, v.tolist())
        elif isinstance(v, OrderedDict):
            print(k, type(v).__name__, [(n, t.tolist()) for n, t in v.items()])
        else:
            print(k, v)


torch.save(ckpt, 'ckpt.pt')
back = torch.load('ckpt.pt')
show(back)
back['base'][0, 0] = -1.0
print('shared', back['T'][0, 0].item(), back['view'][0, 0].item(), back['base'][1, 0].item())

buf = io.BytesIO()
torch.save([torch.arange(3), {'k': torch.ones(1)}], buf)
buf.seek(0)
print(torch.load(buf))

# Across implementations: Debian's PyTorch loads ckpt.pt and writes its own.
helper = r'''
import torch
from collections import OrderedDict
d = torch.load("ckpt.pt")
print(sorted(d.keys())[:5], d["epoch"], d["view"].tolist(), d["param"].requires_grad,
      d["half"].dtype, d["model"]["w"].shape)
d["T"][0, 0] = 42.0
print(d["base"][0, 0].item())
torch.manual_seed(1)
torch.save({"w": torch.randn(3, 2), "t": torch.randn(4, 3).t(), "step": 3,
            "opt": {"state": {0: {"momentum_buffer": torch.ones(2)}}, "param_groups": [{"lr": 0.1, "params": [0]}]},
            "p": torch.nn.Parameter(torch.ones(2)), "l": torch.arange(4)[1:3]}, "from_torch.pt")
'''
env = dict(os.environ)
env.pop('PYTHONPATH', None)
r = subprocess.run(['/usr/bin/python3', '-c', helper], capture_output=True, text=True, env=env)
print(r.stdout.strip())
if r.returncode:
    print('helper failed', r.stderr[-500:])
theirs = torch.load('from_torch.pt')
print(theirs['w'], theirs['t'], theirs['t'].stride(), theirs['step'])
print(theirs['opt'], type(theirs['p']).__name__, theirs['p'].requires_grad, theirs['l'])
torch.save({'w': torch.ones(2), 'n': 3, 'sub': OrderedDict(b=torch.arange(2))}, 'plain.pt')
print(torch.load('plain.pt', weights_only=True))

# an optimizer and its state_dict survive a round trip
w = torch.randn(3, requires_grad=True)
opt = torch.optim.Adam([w], lr=0.1)
w.grad = torch.ones(3)
opt.step()
torch.save({'opt': opt.state_dict()}, 'opt.pt')
sd = torch.load('opt.pt')['opt']
print(sd['state'][0]['step'], sd['state'][0]['exp_avg'], sd['param_groups'][0]['betas'])

# damaged files
raw = open('ckpt.pt', 'rb').read()
for label, data in [('cut', raw[:len(raw) // 2]), ('empty', b''), ('text', b'hello world'),
                    ('no zip end', raw[:-30])]:
    try:
        torch.load(io.BytesIO(data))
        print(label, 'loaded')
    except Exception as e:
        print(label, 'error')


class Evil:
    def __reduce__(self):
        return (print, ('evil code ran',))


torch.save({'e': Evil()}, 'evil.pt')
try:
    torch.load('evil.pt', weights_only=True)
except Exception as e:
    print('weights_only refused', type(e).__name__)

# a path that cannot be written: torch's zip writer names a missing parent
# directory, anything else cannot be opened
os.mkdir('a_dir')
for path in ['no_such_dir/sub/x.pt', 'a_dir']:
    try:
        torch.save(torch.ones(1), path)
    except Exception as e:
        print(type(e).__name__, e)
