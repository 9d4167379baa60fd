# WGAN-GP as the papers' code writes it: the critic's gradient with respect
# to interpolated samples, taken with create_graph=True, is penalised
# towards norm 1, and the penalty's own gradient trains the critic.
import torch
import torch.nn as nn

torch.manual_seed(0)
G = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 16), nn.Tanh(),
                  nn.Linear(16, 1))
opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
lambda_gp = 10.0


def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    d_out = D(interp)
    g = torch.autograd.grad(outputs=d_out, inputs=interp, grad_outputs=torch.ones_like(d_out),
                            create_graph=True, retain_graph=True)[0]
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


for step in range(6):
    real = torch.randn(32, 2) * 0.5 + torch.tensor([2.0, -1.0])
    z = torch.randn(32, 4)
    fake = G(z).detach()
    opt_d.zero_grad()
    gp = gradient_penalty(D, real, fake)
    loss_d = D(fake).mean() - D(real).mean() + lambda_gp * gp
    loss_d.backward()
    opt_d.step()
    if step % 2 == 1:
        opt_g.zero_grad()
        loss_g = -D(G(torch.randn(32, 4))).mean()
        loss_g.backward()
        opt_g.step()
    print(f"step {step} loss_d {loss_d.item():.4f} gp {gp.item():.4f}")

print("critic weight", [round(v, 4) + 0.0 for v in D[0].weight[0].tolist()])

# the same penalty through a float64 critic, against finite differences
Dd = nn.Sequential(nn.Linear(2, 5), nn.Tanh(), nn.Linear(5, 1)).double()
x = torch.randn(4, 2, dtype=torch.float64)


def pen(w):
    h = torch.tanh(x.requires_grad_(True) @ w.t() + Dd[0].bias)
    out = Dd[2](h)
    g = torch.autograd.grad(out.sum(), x, create_graph=True)[0]
    return ((g.norm(2, dim=1) - 1) ** 2).mean()


w = Dd[0].weight.detach().clone().requires_grad_(True)
print("gradcheck of the penalty", torch.autograd.gradcheck(pen, (w,)))
