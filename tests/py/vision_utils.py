# torchvision.utils.make_grid and save_image against torchvision 0.14.
import os
import tempfile

import numpy as np
import torch
from PIL import Image
from torchvision import utils

torch.manual_seed(0)
batch = torch.rand(10, 1, 6, 5)
rgb = torch.rand(3, 3, 4, 4)
for args in [dict(), dict(nrow=4), dict(nrow=3, padding=1, pad_value=0.5), dict(normalize=True),
             dict(normalize=True, value_range=(0.2, 0.8)), dict(normalize=True, scale_each=True, nrow=5)]:
    g = utils.make_grid(batch * 3 - 1, **args)
    print(args, tuple(g.shape), round(float(g.double().sum()), 4), g[0, 2, :8].tolist())
g = utils.make_grid(rgb, nrow=2, padding=3)
print(tuple(g.shape), round(float(g.double().sum()), 4))
print(tuple(utils.make_grid([rgb[0], rgb[1]]).shape), tuple(utils.make_grid(rgb[0]).shape),
      tuple(utils.make_grid(batch[0]).shape), tuple(utils.make_grid(batch[0, 0]).shape))
for bad in ("x", [rgb[0], "y"]):
    try:
        utils.make_grid(bad)
    except TypeError as e:
        print("TypeError", e)

d = tempfile.mkdtemp()
for name, x, kw in (("a.png", batch, dict(nrow=5)), ("b.png", rgb[0], {}), ("c.jpg", rgb, dict(padding=0)),
                    ("d.png", batch * 4 - 2, dict(normalize=True))):
    path = os.path.join(d, name)
    utils.save_image(x, path, **kw)
    im = Image.open(path)
    a = np.asarray(im)
    print(name, im.format, im.mode, im.size, int(a.astype(np.int64).sum()) if name.endswith("png") else a.shape)
    os.remove(path)
os.rmdir(d)
