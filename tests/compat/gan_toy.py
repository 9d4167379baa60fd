# A tiny GAN on 1-D gaussian data: generator vs discriminator, detach, two optimizers
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(1)


def real_batch(n):
    return torch.randn(n, 1) * 0.5 + 3.0


class Generator(nn.Module):
    def __init__(self, z_dim=4, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x)


G, D = Generator(), Discriminator()
print(G)
print(D)
print(sum(p.numel() for p in G.parameters()), sum(p.numel() for p in D.parameters() if p.requires_grad))
opt_g = optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_d = optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
print(opt_g)
criterion = nn.BCELoss()
bs = 32
for step in range(201):
    real = real_batch(bs)
    z = torch.randn(bs, 4)
    fake = G(z)
    opt_d.zero_grad()
    d_real = D(real)
    d_fake = D(fake.detach())
    loss_d = criterion(d_real, torch.ones_like(d_real)) + criterion(d_fake, torch.zeros_like(d_fake))
    loss_d.backward()
    opt_d.step()
    opt_g.zero_grad()
    d_out = D(fake)
    loss_g = criterion(d_out, torch.ones(bs, 1))
    loss_g.backward()
    opt_g.step()
    if step % 50 == 0:
        print(f"step {step:3d} | loss_D {loss_d.item():.4f} | loss_G {loss_g.item():.4f} | D(real) {d_real.mean():.3f} D(fake) {d_fake.mean():.3f}")
with torch.no_grad():
    samples = G(torch.randn(1000, 4))
print("sample mean %.4f std %.4f" % (samples.mean().item(), samples.std().item()))
print(samples[:3], samples.requires_grad, fake.grad_fn.name(), type(loss_d.grad_fn).__name__)
print(list(G.state_dict().keys()))
print(G.net[0].weight.grad is None, D.net[0].weight.grad.shape)
print(opt_d.state_dict()['param_groups'][0]['betas'], len(opt_d.state_dict()['state']))
print(torch.histc(samples, bins=5, min=0, max=6))
