"""Shapes that do not broadcast get PyTorch's words: "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0", the first mismatch from the last dim, for elementwise ops, comparisons, where, broadcast_tensors, mse_loss and maximum; index_put's value and advanced indices that do not broadcast say what PyTorch says (the latter an IndexError listing every index shape)."""
import torch
for a,b in [((3,),(2,)), ((2,3),(4,3)), ((2,1,3),(4,2)), ((5,),(2,1,4))]:
    try: torch.ones(a)+torch.ones(b)
    except Exception as e: print(type(e).__name__, e)
    try: torch.ones(a)*torch.ones(b)
    except Exception as e: print(type(e).__name__, e)
try: torch.ones(3).add_(torch.ones(2,3))
except Exception as e: print(type(e).__name__, e)
try: torch.where(torch.ones(3)>0, torch.ones(2), 0.)
except Exception as e: print(type(e).__name__, e)
try: torch.broadcast_tensors(torch.ones(3), torch.ones(2))
except Exception as e: print(type(e).__name__, e)
try: torch.broadcast_shapes((3,), (2,))
except Exception as e: print(type(e).__name__, e)
try: torch.ones(3) == torch.ones(2)
except Exception as e: print(type(e).__name__, e)
try: torch.nn.functional.mse_loss(torch.ones(3), torch.ones(2))
except Exception as e: print(type(e).__name__, e)
try: torch.maximum(torch.ones(3), torch.ones(2))
except Exception as e: print(type(e).__name__, e)
try: torch.ones(2, 3)[torch.ones(2, 3) > 0] = torch.ones(4)
except Exception as e: print(type(e).__name__, e)
x = torch.ones(4, 5)
for f in [lambda: x[torch.tensor([0, 1]), torch.tensor([0, 1, 2])], lambda: x[torch.tensor([[0], [1]]), torch.tensor([0, 1, 2]), ],
          lambda: x.__setitem__((torch.tensor([0, 1]), torch.tensor([0, 1, 2])), 1.0),
          lambda: torch.ones(2, 3, 4)[torch.tensor([0, 1]), :, torch.tensor([0, 1, 2])]]:
    try: print(f().shape)
    except Exception as e: print(type(e).__name__, e)
for d, s in [((2, 3), (2,)), ((3,), (2, 3)), ((2, 3), (3, 2))]:
    try: torch.zeros(d).copy_(torch.ones(s))
    except Exception as e: print(type(e).__name__, e)
