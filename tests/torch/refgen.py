"""Write PyTorch reference cases for the C tests (tests/unit/testutil.c reads them).

A case is: the inputs (with a flag for those that require grad), the output of
a function of them, and, for differentiable cases, an upstream gradient `up`
and the gradients of sum(out * up) with respect to each input. The C side
names a function per case that computes the same thing with nndb's ops.
"""
import os
import sys

import torch

torch.manual_seed(0)
torch.set_num_threads(1)

_DT = {torch.float32: "float32", torch.float64: "float64", torch.int64: "int64", torch.bool: "bool"}


def _fmt(t):
    t = t.detach()
    vals = t.reshape(-1).tolist()
    if t.dtype == torch.bool:
        vals = [int(v) for v in vals]
    body = " ".join(repr(float(v)) if t.is_floating_point() else str(int(v)) for v in vals)
    return f"{_DT[t.dtype]} {t.dim()} {' '.join(str(s) for s in t.shape)} {body}"


class RefFile:
    def __init__(self, family):
        out_dir = os.environ.get("NNDB_REF_DIR", "build/ref")
        os.makedirs(out_dir, exist_ok=True)
        self.path = os.path.join(out_dir, family + ".txt")
        self.f = open(self.path, "w")
        self.names = set()

    def case(self, name, fn, *inputs, grad=True):
        """Record fn(*inputs). Float inputs require grad when grad is true."""
        assert name not in self.names, f"duplicate case {name}"
        self.names.add(name)
        ins = []
        for t in inputs:
            t = t.detach().clone()
            if grad and t.is_floating_point():
                t.requires_grad_(True)
            ins.append(t)
        out = fn(*ins)
        self.f.write(f"case {name}\n")
        for t in ins:
            self.f.write(("inreq " if t.requires_grad else "in ") + _fmt(t) + "\n")
        self.f.write("out " + _fmt(out) + "\n")
        if grad and out.requires_grad:
            up = torch.randn(out.shape, dtype=out.dtype)
            out.backward(up)
            self.f.write("up " + _fmt(up) + "\n")
            for i, t in enumerate(ins):
                if t.requires_grad:
                    g = t.grad if t.grad is not None else torch.zeros_like(t)
                    self.f.write(f"grad {i} " + _fmt(g) + "\n")
        self.f.write("end\n")

    def close(self):
        self.f.close()
        print(f"{self.path}: {len(self.names)} cases", file=sys.stderr)
