# with: user context managers, files and torch's grad modes.
import torch

class Timer:
    def __init__(self, name):
        self.name = name
        self.entered = False
    def __enter__(self):
        self.entered = True
        print("enter", self.name)
        return self
    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name)
        return False

with Timer("outer") as t:
    with Timer("inner"):
        print("body", t.entered)

w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w -= 0.5 * torch.ones(3)
print(w.requires_grad, w.tolist())
with open("ctx_out.txt", "w") as f:
    for i in range(3):
        f.write(f"line {i}\n")
with open("ctx_out.txt") as f:
    lines = [l.strip() for l in f]
print(lines)
