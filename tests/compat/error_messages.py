import torch
x = torch.zeros(2)
try:
    torch.zeroes(3)
except AttributeError as e:
    print(e)
try:
    print(lenght)
except NameError as e:
    print(e)
try:
    y = xx + 1
except NameError as e:
    print(e)
