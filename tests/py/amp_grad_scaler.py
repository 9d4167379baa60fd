"""Loss scaling: PyTorch 1.13's GradScaler algorithm on a float16 overflow
experiment. 1.13 has GradScaler for CUDA only (torch.cuda.amp.GradScaler()
warns and disables itself without CUDA, here as there); nndb runs the
algorithm on the CPU as torch.amp.GradScaler("cpu") (PyTorch 2.3's name).
Under Debian's torch 1.13 this script runs RefScaler, 1.13's algorithm
(grad_scaler.py with its kernels _amp_foreach_non_finite_check_and_unscale_
and _amp_update_scale_) re-implemented on the CPU; both print the same."""
import warnings

import torch

ws = []
with warnings.catch_warnings(record=True) as ws:
    warnings.simplefilter("always")
    off = torch.cuda.amp.GradScaler()
print("cuda scaler enabled:", off.is_enabled(), [str(w.message) for w in ws])
t = torch.tensor([1.0, 2.0])
print("disabled scale() is identity:", off.scale(t) is t, off.get_scale(), off.state_dict())


class RefScaler:
    """1.13's GradScaler algorithm, with its two CUDA kernels written out."""

    def __init__(self, device="cpu", init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5,
                 growth_interval=2000):
        self.scale_ = torch.full((1,), init_scale, dtype=torch.float32)
        self.tracker = 0
        self.gf, self.bf, self.gi = growth_factor, backoff_factor, growth_interval
        self.found = None
        self.stage = "ready"

    def scale(self, loss):
        return loss * self.scale_

    def unscale_(self, opt):
        if self.stage == "unscaled":
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if self.stage == "stepped":
            raise RuntimeError("unscale_() is being called after step().")
        self.stage = "unscaled"
        inv = self.scale_.double().reciprocal().float()
        self.found = 0.0
        with torch.no_grad():
            for group in opt.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not bool(torch.isfinite(p.grad).all()):
                        self.found = 1.0
                    p.grad.mul_(inv)

    def step(self, opt):
        if self.stage == "stepped":
            raise RuntimeError("step() has already been called since the last update().")
        if self.found is None:
            self.unscale_(opt)
        if not self.found:
            opt.step()
        self.stage = "stepped"

    def update(self):
        if self.found:
            self.scale_ = self.scale_ * self.bf
            self.tracker = 0
        else:
            self.tracker += 1
            if self.tracker == self.gi:
                new = self.scale_ * self.gf
                if bool(torch.isfinite(new).all()):
                    self.scale_ = new
                self.tracker = 0
        self.found = None
        self.stage = "ready"

    def get_scale(self):
        return self.scale_.item()

    def state_dict(self):
        return {"scale": self.get_scale(), "growth_factor": self.gf, "backoff_factor": self.bf,
                "growth_interval": self.gi, "_growth_tracker": self.tracker}


Scaler = getattr(torch.amp, "GradScaler", None) or RefScaler

# float16 overflow: float32 weights, float16 activations after the layer
# (PyTorch 1.13 has no float16 matmul on the CPU: "addmm_impl_cpu_" not
# implemented for 'Half'), the loss in float16. At scale 2**16 the float16
# gradient overflows, so the scaler skips the step and backs off until the
# scaled gradients fit, then grows again after growth_interval clean steps.
torch.manual_seed(0)
model = torch.nn.Linear(16, 1)
x = torch.randn(64, 16) * 4
y = (torch.randn(64, 1) * 4).half()
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
scaler = Scaler("cpu", init_scale=2.0 ** 16, growth_interval=3)
w0 = model.weight.detach().clone()
for step in range(12):
    opt.zero_grad()
    loss = ((model(x).half() - y) ** 2).mean()
    scaler.scale(loss).backward()
    before = model.weight.detach().clone()
    scaler.step(opt)
    scaler.update()
    stepped = not torch.equal(before, model.weight.detach())
    finite = bool(torch.isfinite(model.weight).all())
    print(step, f"loss {loss.item():.3f}", "scale", scaler.get_scale(), "stepped", stepped,
          "finite", finite)
print(sorted(scaler.state_dict().items()))
print("weights moved:", not torch.equal(w0, model.weight.detach()))

# the other side: a small loss's float16 gradients underflow to 0 unless scaled
for factor in (1.0, 2.0 ** 16):
    model.zero_grad()
    out = model(x).half()
    out.retain_grad()
    (((out - y) ** 2).mean() * 1e-6 * factor).backward()
    print("scale", factor, "zero float16 grads:", int((out.grad == 0).sum()), "of", out.numel())

# unscale_ before clipping, then step; the errors of calling things twice
opt.zero_grad()
scaler.scale(((model(x).half() - y) ** 2).mean()).backward()
scaler.unscale_(opt)
print("unscaled grad norm", round(float(torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)), 2))
for call in (lambda: scaler.unscale_(opt), lambda: scaler.step(opt), lambda: scaler.step(opt)):
    try:
        call()
        print("ok")
    except RuntimeError as e:
        print("RuntimeError:", e)
scaler.update()
print(scaler.get_scale())
