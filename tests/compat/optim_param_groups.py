# Parameter groups as nanoGPT's configure_optimizers builds them: per-group
# weight decay, param_group["lr"] set by a schedule each step, the repr, the
# errors for a parameter in two groups and a group without params.
import torch
torch.manual_seed(0)
a = torch.nn.Parameter(torch.randn(3, 2)); b = torch.nn.Parameter(torch.randn(2))
def loss_fn():
    return ((torch.ones(4, 3) @ a + b) ** 2).sum()
o = torch.optim.AdamW([{'params': [a], 'weight_decay': 0.1}, {'params': [b], 'weight_decay': 0.0}], lr=1e-2, betas=(0.9, 0.95))
print(list(o.param_groups[0].keys()))
print(o.param_groups[1]['weight_decay'], o.param_groups[1]['lr'])
print(o)
for it in range(5):
    for g in o.param_groups:
        g['lr'] = 1e-2 * (it + 1) / 5
    o.param_groups[0]['weight_decay'] = 0.1 * it
    loss = loss_fn()
    o.zero_grad(set_to_none=True)
    loss.backward()
    o.step()
    print(it, f"{loss.item():.5f}")
print(a, b)
o2 = torch.optim.SGD([{'params': [a]}, {'params': b, 'lr': 0.5}], lr=0.1, momentum=0.9)
print(o2)
print(list(o2.param_groups[1].keys()))
for it in range(3):
    loss = loss_fn()
    o2.zero_grad()
    loss.backward()
    o2.step()
print(a, b)
o3 = torch.optim.Adam([{'params': [a]}], lr=0.1)
print(list(o3.param_groups[0].keys()))
print(len(o3.param_groups), o3.param_groups[0]['params'][0] is a)
try:
    torch.optim.SGD([{'params': [a]}, {'params': [a]}], lr=0.1)
except ValueError as e:
    print("ValueError", e)
try:
    torch.optim.SGD([{'lr': 0.1}], lr=0.1)
except KeyError as e:
    print("KeyError", e)
o4 = torch.optim.SGD([a, b], lr=0.1)
print(o4.param_groups[0]['lr'], len(o4.param_groups[0]['params']))
