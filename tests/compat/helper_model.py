# A module the course's scripts import (tests/compat/user_imports.py); run
# on its own it is the main module.
import torch
import torch.nn as nn

calls = 0


class TinyConfig:
    def __init__(self, n_in=3, n_out=2):
        self.n_in = n_in
        self.n_out = n_out


class TinyNet(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.fc = nn.Linear(config.n_in, config.n_out)

    def forward(self, x):
        global calls
        calls += 1
        return torch.relu(self.fc(x))


def describe():
    return f"{__name__} with {calls} calls"


print("helper_model imported as", __name__)
if __name__ == "__main__":
    print("helper_model run as a script")
