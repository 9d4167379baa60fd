"""A tensor argument of the wrong type is named with its position as PyTorch counts it (from 1 for torch.NAME, from 1 after self for a method), and PyTorch's argument names (dot's tensor, mv's vec); functions written in Python (kron, cross, addmm, dist, cdist, tensordot, take, hypot, F.cross_entropy) refuse non-tensors in the same words, and cross without a dim of size 3 or with mismatched lengths says so."""
import torch
t = torch.ones(2, 2); v = torch.ones(2)
calls = {
 "add": lambda: torch.add(t, "x"), "sub": lambda: torch.sub(t, "x"), "mul": lambda: torch.mul("x", t), "div": lambda: torch.div(t, "x"),
 "mm": lambda: torch.mm(t, "x"), "matmul": lambda: torch.matmul(t, "x"), "bmm": lambda: torch.bmm(t[None], "x"), "dot": lambda: torch.dot(v, "x"),
 "equal": lambda: torch.equal(t, "x"), "allclose": lambda: torch.allclose(t, "x"), "isclose": lambda: torch.isclose(t, "x"),
 "maximum": lambda: torch.maximum(t, "x"), "minimum": lambda: torch.minimum(t, "x"), "atan2": lambda: torch.atan2(t, "x"),
 "gather": lambda: torch.gather(t, 0, "x"), "index_select": lambda: torch.index_select(t, 0, "x"), "masked_fill": lambda: torch.masked_fill(t, "x", 0.0),
 "where3": lambda: torch.where(t > 0, t, "x"), "cross": lambda: torch.cross(t, "x"), "outer": lambda: torch.outer(v, "x"), "kron": lambda: torch.kron(t, "x"),
 "lerp": lambda: torch.lerp(t, "x", 0.5), "addcmul": lambda: torch.addcmul(t, t, "x"), "addmm": lambda: torch.addmm(t, t, "x"),
 "m.add": lambda: t.add("x"), "m.mm": lambda: t.mm("x"), "m.equal": lambda: t.equal("x"), "m.gather": lambda: t.gather(0, "x"),
 "m.masked_fill": lambda: t.masked_fill("x", 0.0), "m.index_select": lambda: t.index_select(0, "x"), "m.expand_as": lambda: t.expand_as("x"),
 "m.copy_": lambda: t.copy_("x"), "m.lerp": lambda: t.lerp("x", 0.5), "m.type_as": lambda: t.type_as("x"), "m.view_as": lambda: t.view_as("x"),
 "m.dot": lambda: v.dot("x"), "m.maximum": lambda: t.maximum("x"), "m.addcmul": lambda: t.addcmul(t, "x"), "m.scatter": lambda: t.scatter(0, "x", t),
 "cat": lambda: torch.cat([t, "x"]), "stack": lambda: torch.stack([t, "x"]), "F.linear": lambda: torch.nn.functional.linear(t, "x"),
 "F.mse": lambda: torch.nn.functional.mse_loss(t, "x"), "F.ce": lambda: torch.nn.functional.cross_entropy(t, "x"),
 "bucketize": lambda: torch.bucketize(t, "x"), "searchsorted": lambda: torch.searchsorted(v, "x"), "dist": lambda: torch.dist(t, "x"),
 "cdist": lambda: torch.cdist(t, "x"), "tensordot": lambda: torch.tensordot(t, "x"), "einsum": lambda: torch.einsum("ij,jk", t, "x"),
 "take": lambda: torch.take(t, "x"), "pow": lambda: torch.pow(t, "x"), "fmod": lambda: torch.fmod(t, "x"), "eq": lambda: torch.eq(t, "x"),
 "lt": lambda: torch.lt(t, "x"), "logical_and": lambda: torch.logical_and(t, "x"), "bitwise_and": lambda: torch.bitwise_and(t.long(), "x"),
 "mv": lambda: torch.mv(t, "x"), "ger": lambda: torch.ger(v, "x"), "hypot": lambda: torch.hypot(t, "x"), "copysign": lambda: torch.copysign(t, "x"),
}
SAME = {"add", "sub", "div", "mm", "matmul", "bmm", "dot", "equal", "allclose", "isclose", "maximum", "minimum", "atan2", "cross", "outer", "kron", "addcmul", "addmm", "m.add", "m.mm", "m.equal", "m.expand_as", "m.type_as", "m.view_as", "m.dot", "m.maximum", "m.addcmul", "cat", "stack", "F.linear", "F.ce", "dist", "cdist", "tensordot", "take", "mv", "ger", "hypot"}
calls = {k: f for k, f in calls.items() if k in SAME}
for k, f in calls.items():
    try: f(); print(k, "ok")
    except Exception as e: print(k, type(e).__name__, (str(e).splitlines() or [""])[0][:110])
warnings.simplefilter("ignore")
for a, b, kw in [((2, 2), (2, 2), {}), ((2, 3), (2, 3), {}), ((2, 3), (2, 4), {}), ((2, 3), (2, 3), {"dim": 0}), ((3, 3), (3, 3), {"dim": -1}), ((4, 3), (4, 3), {"dim": 1})]:
    try: print(torch.cross(torch.arange(float(torch.Size(a).numel())).view(a), torch.ones(b), **kw))
    except Exception as e: print(type(e).__name__, e)
