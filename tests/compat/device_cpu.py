import torch
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
print(device)
x = torch.ones(2).to(device)
print(x)
