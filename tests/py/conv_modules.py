# Image modules: constructor arguments, seeded initialisation (PyTorch's numbers),
# repr, state_dict keys, Lazy variants, BatchNorm running statistics, a LeNet
# training loop, MaxPool/MaxUnpool round trip, and PyTorch's error messages.
import warnings
warnings.simplefilter("ignore")
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
mods = [nn.Conv2d(3,8,3), nn.Conv1d(2,4,3,stride=2,padding=1,bias=False), nn.Conv3d(2,4,(1,2,3),dilation=2,groups=2,padding_mode='reflect', padding=1),
 nn.Conv2d(3,6,3,padding='same',padding_mode='circular',groups=3), nn.ConvTranspose2d(4,6,3,stride=2,output_padding=1), nn.ConvTranspose1d(2,4,3,groups=2), nn.ConvTranspose3d(2,2,2,bias=False),
 nn.MaxPool2d(2), nn.MaxPool1d(3,2,1,ceil_mode=True), nn.MaxPool3d((1,2,2),return_indices=True), nn.AvgPool2d(3,2,1), nn.AvgPool1d(2), nn.AvgPool3d(2, divisor_override=3),
 nn.AdaptiveAvgPool2d((4,None)), nn.AdaptiveMaxPool2d(2), nn.AdaptiveAvgPool1d(3), nn.LPPool2d(2,2), nn.MaxUnpool2d(2), nn.BatchNorm2d(8), nn.BatchNorm3d(4,momentum=None),
 nn.BatchNorm2d(3, affine=False, track_running_stats=False), nn.InstanceNorm2d(3), nn.InstanceNorm1d(4, affine=True, track_running_stats=True), nn.GroupNorm(2,4), nn.LocalResponseNorm(3),
 nn.Dropout2d(0.3), nn.Upsample(scale_factor=2), nn.Upsample(size=(3,4), mode='bilinear', align_corners=False), nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=5),
 nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.Fold((4,5),2), nn.Unfold(2, padding=1), nn.Flatten(), nn.Unflatten(1,(2,2)), nn.ZeroPad2d(1), nn.ZeroPad2d((1,2,0,1)), nn.ConstantPad1d(2, 3.5),
 nn.ConstantPad3d((1,0,1,0,1,0), 0.5), nn.ReflectionPad2d(1), nn.ReplicationPad1d((1,2)), nn.ReplicationPad3d(1), nn.ReflectionPad1d(2), nn.Identity(), nn.ChannelShuffle(2), nn.SyncBatchNorm(4),
 nn.LazyConv2d(8, 3), nn.LazyConvTranspose1d(3, 2)]
for m in mods:
    print(repr(m))
    print(sorted(m.state_dict().keys()))
    for k, v in m.state_dict().items():
        if not isinstance(v, nn.parameter.UninitializedParameter) and v.dtype.is_floating_point and v.numel(): print(k, list(v.shape), round(float(v.sum()), 4), round(float(v.flatten()[0]), 4))
net = nn.Sequential(nn.Conv2d(1,6,5,padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6,16,5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400,120), nn.ReLU(), nn.Linear(120,84), nn.ReLU(), nn.Linear(84,10))
print(net)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
x = torch.randn(16,1,28,28); y = torch.randint(0,10,(16,))
for step in range(5):
    opt.zero_grad(); loss = F.cross_entropy(net(x), y); loss.backward(); opt.step(); print(step, round(loss.item(), 4))
bn = nn.BatchNorm2d(3); x = torch.randn(4,3,5,5)*2+1
out = bn(x); print(bn.running_mean, bn.running_var, bn.num_batches_tracked, round(out.std().item(),4))
bn.eval(); print(bn(x)[0,0,0])
lz = nn.LazyConv2d(4, 3); o = lz(torch.randn(2,3,6,6)); print(type(lz).__name__, lz, lz.weight.shape, o.shape, round(lz.weight.sum().item(),4))
inn = nn.InstanceNorm1d(4, affine=True, track_running_stats=True); o = inn(torch.randn(3,4,6)); print(inn.running_mean, inn.running_var)
ct = nn.ConvTranspose2d(2,3,3,stride=2); print(ct(torch.randn(1,2,4,4), output_size=(10,10)).shape)
mp = nn.MaxPool2d(2, return_indices=True); un = nn.MaxUnpool2d(2); xx = torch.randn(1,1,4,4); o, i = mp(xx); print(un(o, i))
for bad in [lambda: nn.Conv2d(3,8,3)(torch.randn(1,4,10,10)), lambda: nn.Conv2d(3,8,5)(torch.randn(1,3,3,3)), lambda: nn.Conv2d(3,8,3)(torch.randn(10)),
            lambda: nn.Conv2d(4,8,3,groups=3), lambda: nn.Conv2d(3,8,3,stride=2,padding='same'), 
            lambda: nn.ConvTranspose2d(3,8,3,padding_mode='reflect'), lambda: nn.MaxPool2d(3)(torch.randn(1,1,2,2)), lambda: nn.MaxPool2d(3,padding=2)(torch.randn(1,1,6,6)),
            lambda: nn.BatchNorm2d(3)(torch.randn(2,3,4)), lambda: nn.BatchNorm2d(3)(torch.randn(2,4,4,4)), lambda: nn.InstanceNorm2d(3, affine=True)(torch.randn(2,4,4,4)),
            lambda: nn.PixelShuffle(2)(torch.randn(1,3,2,2)), lambda: F.interpolate(torch.randn(1,1,4,4), scale_factor=2, mode='bilinear', align_corners=None, size=3),
            lambda: F.interpolate(torch.randn(1,1,4), scale_factor=2, mode='bilinear'), lambda: F.pad(torch.randn(1,1,3,3), (3,3,3,3), mode='reflect'),
            lambda: F.conv2d(torch.randn(1,3,5,5), torch.randn(8,3,3,3).double()), lambda: F.conv2d(torch.randn(1,3,5,5), torch.randn(8,3,3,3), torch.randn(3)),
            lambda: F.conv_transpose2d(torch.randn(1,3,5,5),torch.randn(4,2,3,3)), lambda: F.conv1d(torch.randn(2,3,5), torch.randn(4,3,3,3)),
            lambda: F.avg_pool2d(torch.randn(1,3,2,2),3), lambda: F.adaptive_avg_pool2d(torch.randn(3),2), lambda: F.unfold(torch.randn(1,2,2,2), 3)]:
    try: bad(); print("no error")
    except Exception as e: print(type(e).__name__, e)
# forwards of the seeded convolutions (padding modes, groups, transposed)
inputs = [(1, 3, 6, 6), (2, 2, 9), (1, 2, 3, 5, 7), (1, 3, 5, 5), (1, 4, 3, 3), (2, 2, 5), (1, 2, 2, 3, 2)]
for m, shape in zip(mods[:7], inputs):
    y = m(torch.randn(shape))
    print(type(m).__name__, tuple(y.shape), round(y.sum().item(), 3), y.grad_fn.name())
print(nn.ConvTranspose1d(2, 3, 3, stride=2)(torch.randn(2, 4), output_size=[10]).shape)
print(nn.Conv2d(2, 3, 3, padding=1, padding_mode="replicate")(torch.randn(2, 5, 5))[0, 0])
