"""linalg.norm, vector_norm and matrix_norm refuse an integer or bool dtype= in PyTorch's words (naming vector_norm or matrix_norm as PyTorch does), after the input's own check."""
import torch
cases = [lambda: torch.linalg.norm(torch.ones(3), dtype=torch.int64), lambda: torch.linalg.norm(torch.ones(3), dtype=torch.int32),
 lambda: torch.linalg.norm(torch.ones(3,3), 'fro', dtype=torch.int64), lambda: torch.linalg.vector_norm(torch.ones(3), dtype=torch.int64),
 lambda: torch.linalg.matrix_norm(torch.ones(3,3), dtype=torch.int64), lambda: torch.linalg.vector_norm(torch.ones(3, dtype=torch.long), dtype=torch.long),
 lambda: torch.linalg.matrix_norm(torch.ones(3,3, dtype=torch.long), dtype=torch.long), lambda: torch.linalg.norm(torch.ones(3), dtype=torch.float64),
 lambda: torch.linalg.matrix_norm(torch.ones(3,3), 'nuc', dtype=torch.bool), lambda: torch.linalg.norm(torch.ones(2, 3), 2, dim=1, dtype=torch.int8)]
for f in cases:
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
