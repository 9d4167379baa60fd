# %% [markdown]
# # IPython.display and NumPy with tensors

# %%
import numpy as np
import torch
from IPython.display import display, Markdown, HTML, Image, SVG, clear_output

# %%
display(Markdown('## Results\n*bold* claims, `code`'))
display(HTML('<table><tr><td>loss</td><td>2.45</td></tr></table>'))

# %%
h = display(Markdown('step 0'), display_id=True)
for step in range(1, 4):
    h.update(Markdown(f'step {step}'))

# %%
for i in range(3):
    clear_output(wait=True)
    print('epoch', i)

# %%
SVG('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>')

# %%
class Report:
    def _repr_markdown_(self):
        return '**report**: all good'
    def __repr__(self):
        return 'Report()'
Report()

# %%
a = np.arange(12, dtype=np.float32).reshape(3, 4)
t = torch.from_numpy(a)
a[0, 0] = 100.0
t[0, 0].item(), t.dtype, t.shape

# %%
t2 = torch.tensor(a)
a[0, 1] = -1.0
t2[0, 1].item(), t[0, 1].item()

# %%
np.exp(torch.tensor([0.0, 1.0]))

# %%
x = torch.arange(6).view(2, 3)
np.asarray(x), x.numpy().strides, x.t().numpy().strides

# %%
torch.from_numpy(np.array([1, 2, 3], dtype=np.int16)).dtype, torch.as_tensor(np.zeros(2, dtype=np.uint8)).dtype

# %%
w = torch.ones(3, requires_grad=True)
w.numpy()

# %%
torch.ones(2) + np.array([1.0, 2.0])

# %%
list(range(40))

# %%
{f'key{i}': [i] * 3 for i in range(8)}

# %%
t0 = torch.tensor(2.4543561935424805)
print(f'{t0}', f'{t0:.4f}', format(t0, '.2f'))
f'{t0.item()}'

# %%
np.float32(1.5) * torch.tensor([2.0])

# %%
torch.tensor(np.array([[1, 2], [3, 4]])).sum(0)

# %%
undefined_name + 1
