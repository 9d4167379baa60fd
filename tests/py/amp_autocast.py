"""torch.autocast("cpu", dtype=torch.bfloat16): the output dtype of each op
of PyTorch 1.13's CPU lists (lower precision, float32, promote) and of ops
on no list, with float32, bfloat16 and float64 inputs; nesting, enabled=,
the decorator, torch.cpu.amp.autocast, the state functions; gradients of
float32 weights through autocast; bfloat16 products within the rounding
bound of an exact product (docs/mixed-precision.md)."""
import warnings

import torch
import torch.nn.functional as F

torch.manual_seed(0)
m = torch.randn(4, 4)
f4 = torch.randn(2, 3, 6, 6)
w = torch.randn(4, 3, 3, 3)
y4 = torch.tensor([0, 1, 2, 3])


def X(dt):
    return m.to(dt)


def X4(dt):
    return f4.to(dt)


OPS = {
    # lower precision
    "mm": lambda dt: torch.mm(X(dt), X(dt)),
    "mm_mixed": lambda dt: torch.mm(X(dt), m),
    "matmul_op": lambda dt: X(dt) @ X(dt),
    "matmul_vec": lambda dt: torch.matmul(X(dt)[0], X(dt)[0]),
    "Tensor.mm": lambda dt: X(dt).mm(X(dt)),
    "bmm": lambda dt: torch.bmm(X(dt)[None], X(dt)[None]),
    "baddbmm": lambda dt: torch.baddbmm(X(dt)[None], X(dt)[None], X(dt)[None]),
    "addmm": lambda dt: torch.addmm(X(dt), X(dt), X(dt)),
    "Tensor.addmm": lambda dt: X(dt).addmm(X(dt), X(dt)),
    "addbmm": lambda dt: torch.addbmm(X(dt), X(dt)[None], X(dt)[None]),
    "linear": lambda dt: F.linear(X(dt), X(dt), X(dt)[0]),
    "nn.Linear": lambda dt: torch.nn.Linear(4, 3).to(dt)(X(dt)),
    "conv1d": lambda dt: F.conv1d(X4(dt)[:, :, 0], w.to(dt)[:, :, 0]),
    "conv2d": lambda dt: F.conv2d(X4(dt), w.to(dt)),
    "conv3d": lambda dt: F.conv3d(X4(dt)[:, :, None], w.to(dt)[:, :, None]),
    "einsum": lambda dt: torch.einsum("ij,jk->ik", X(dt), X(dt)),
    "mha": lambda dt: torch.nn.MultiheadAttention(4, 1).to(dt)(X(dt)[None], X(dt)[None],
                                                               X(dt)[None])[0],
    # on no list: the inputs' dtype
    "mv": lambda dt: torch.mv(X(dt), X(dt)[0]),
    "dot": lambda dt: torch.dot(X(dt)[0], X(dt)[0]),
    "add": lambda dt: X(dt) + X(dt),
    "relu": lambda dt: F.relu(X(dt)),
    "gelu": lambda dt: F.gelu(X(dt)),
    "softmax": lambda dt: F.softmax(X(dt), 1),
    "log_softmax": lambda dt: F.log_softmax(X(dt), 1),
    "sum": lambda dt: X(dt).sum(),
    "layer_norm": lambda dt: F.layer_norm(X(dt), (4,)),
    "batch_norm": lambda dt: F.batch_norm(X4(dt), None, None, training=True),
    "max_pool2d": lambda dt: F.max_pool2d(X4(dt), 2),
    "avg_pool2d": lambda dt: F.avg_pool2d(X4(dt), 2),
    "dropout": lambda dt: F.dropout(X(dt), 0.5),
    "topk": lambda dt: torch.topk(X(dt), 2)[0],
    "lstm": lambda dt: torch.nn.LSTM(4, 4).to(dt)(X(dt)[None])[0],
    # float32
    "conv_transpose1d": lambda dt: F.conv_transpose1d(X4(dt)[:, :, 0],
                                                      w.to(dt).transpose(0, 1)[:, :, 0]),
    "conv_transpose2d": lambda dt: F.conv_transpose2d(X4(dt), w.to(dt).transpose(0, 1)),
    "avg_pool3d": lambda dt: F.avg_pool3d(X4(dt)[None], 2),
    "max_pool3d": lambda dt: F.max_pool3d(X4(dt)[None], 2),
    "adaptive_avg_pool3d": lambda dt: F.adaptive_avg_pool3d(X4(dt)[None], 2),
    "mse_loss": lambda dt: F.mse_loss(X(dt), X(dt)),
    "l1_loss": lambda dt: F.l1_loss(X(dt), X(dt)),
    "smooth_l1_loss": lambda dt: F.smooth_l1_loss(X(dt), X(dt)),
    "huber_loss": lambda dt: F.huber_loss(X(dt), X(dt)),
    "cross_entropy": lambda dt: F.cross_entropy(X(dt), y4),
    "nn.CrossEntropyLoss": lambda dt: torch.nn.CrossEntropyLoss()(X(dt), y4),
    "nll_loss": lambda dt: F.nll_loss(X(dt), y4),
    "kl_div": lambda dt: F.kl_div(X(dt), X(dt), reduction="batchmean"),
    "bce": lambda dt: F.binary_cross_entropy(torch.sigmoid(X(dt)), torch.sigmoid(X(dt))),
    "bce_logits": lambda dt: F.binary_cross_entropy_with_logits(X(dt), torch.sigmoid(X(dt))),
    "cosine_embedding_loss": lambda dt: F.cosine_embedding_loss(X(dt), X(dt),
                                                                torch.tensor([1., -1, 1, -1])),
    "margin_ranking_loss": lambda dt: F.margin_ranking_loss(X(dt)[0], X(dt)[1],
                                                            torch.tensor([1., -1, 1, -1])),
    "cdist": lambda dt: torch.cdist(X(dt), X(dt)),
    "prod": lambda dt: X(dt).prod(),
    "inverse": lambda dt: torch.inverse(X(dt) + 4 * torch.eye(4)),
    "linalg.inv": lambda dt: torch.linalg.inv(X(dt) + 4 * torch.eye(4)),
    "quantile": lambda dt: torch.quantile(X(dt), 0.5),
    "reflect_pad": lambda dt: F.pad(X(dt)[None], (1, 1), mode="reflect"),
    "replicate_pad": lambda dt: F.pad(X4(dt), (1, 1, 1, 1), mode="replicate"),
    "constant_pad": lambda dt: F.pad(X(dt), (1, 1)),
    # promote: the widest floating dtype
    "cat_mixed": lambda dt: torch.cat([X(dt), m]),
    "cat_same": lambda dt: torch.cat([X(dt), X(dt)]),
    "stack_mixed": lambda dt: torch.stack([X(dt), m]),
}

for name, fn in OPS.items():
    got = []
    for dt in (torch.float32, torch.bfloat16, torch.float64):
        try:
            with torch.autocast("cpu", dtype=torch.bfloat16):
                got.append(str(fn(dt).dtype).replace("torch.", ""))
        except RuntimeError:
            got.append("RuntimeError")
    print(f"{name:22s}", " ".join(got))

# the state functions, nesting, enabled=False, the decorator
print(torch.is_autocast_cpu_enabled(), torch.get_autocast_cpu_dtype())
with torch.autocast("cpu"):
    print("in", torch.is_autocast_cpu_enabled(), (m @ m).dtype)
    with torch.autocast("cpu", enabled=False):
        print("inner off", torch.is_autocast_cpu_enabled(), (m @ m).dtype)
        with torch.cpu.amp.autocast():
            print("inner on", torch.is_autocast_cpu_enabled(), (m @ m).dtype)
    print("back", torch.is_autocast_cpu_enabled(), (m @ m).dtype)
print("out", torch.is_autocast_cpu_enabled(), (m @ m).dtype)


@torch.autocast("cpu")
def forward(x):
    return x @ x


print("decorated", forward(m).dtype, torch.is_autocast_cpu_enabled())
try:
    with torch.autocast("cpu"):
        raise ValueError("inside")
except ValueError as e:
    print("exception leaves it off:", e, torch.is_autocast_cpu_enabled())
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    try:
        with torch.autocast("cpu", dtype=torch.float16):
            print("float16 on cpu", torch.is_autocast_cpu_enabled(), (m @ m).dtype)
    except RuntimeError as e:
        print("RuntimeError:", e, torch.is_autocast_cpu_enabled())
    with torch.autocast("cuda"):
        print("cuda", torch.is_autocast_enabled(), (m @ m).dtype)
    for wr in ws:
        print("warning:", str(wr.message).splitlines()[0])
try:
    torch.autocast("tpu")
except RuntimeError as e:
    print("RuntimeError:", e)

# gradients reach float32 weights in float32; the forward's values are bfloat16's
torch.manual_seed(1)
net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
x = torch.randn(32, 8)
yy = torch.randint(0, 3, (32,))
with torch.autocast("cpu"):
    out = net(x)
    loss = F.cross_entropy(out, yy)
print(out.dtype, loss.dtype, round(loss.item(), 2))
loss.backward()
print([p.grad.dtype for p in net.parameters()])
ref = net[0].weight.grad.clone()
net.zero_grad()
F.cross_entropy(net(x), yy).backward()
g = net[0].weight.grad
print("grad close to float32's:", torch.allclose(ref, g, rtol=0.05, atol=0.02))

# bfloat16 products: within the rounding bound of the exact product of the
# bfloat16-rounded inputs (PyTorch 1.13 accumulates in bfloat16 on this CPU
# path; nndb widens to float32, one sgemm, one rounding)
u = 2.0 ** -8
for M, K, N in [(4, 4, 4), (64, 128, 32), (33, 257, 17)]:
    a, b = torch.randn(M, K), torch.randn(K, N)
    with torch.autocast("cpu"):
        c = a @ b
    ab, bb = a.bfloat16().double(), b.bfloat16().double()
    exact = ab @ bb
    bound = K * u * (ab.abs() @ bb.abs()) + u * exact.abs()  # first order in u
    print(M, K, N, c.dtype, bool(((c.double() - exact).abs() <= bound).all()))
