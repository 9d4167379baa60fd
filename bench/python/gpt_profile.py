"""The profiler's split of one GPT step by op (nndb only):

    nndb python bench/python/gpt_profile.py L H C V B T THREADS [train|forward]

Builds bench/python/gpt_scale.py's model (and for training its AdamW), runs
two untimed steps, then profiles one (nndb.instruments.profile) and prints
its op table, the wall time of the step and the time outside the ops
(optimizer, Python). "forward" profiles the no_grad forward and loss of
gpt_scale.py's forward mode (model.eval()).
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from gpt_scale import make_step  # noqa: E402
from nndb.instruments import profile  # noqa: E402

L, H, C, V, B, T, threads = map(int, sys.argv[1:8])
mode = sys.argv[8] if len(sys.argv) > 8 else "train"
torch.set_num_threads(threads)
step = make_step(mode, L, H, C, V, B, T)

step()
step()
c0 = time.process_time()
step()
print(f"step cpu {time.process_time() - c0:.3f} s (unprofiled)")
c0 = time.process_time()
t0 = time.perf_counter()
p = profile(step)
print(f"profiled step: wall {time.perf_counter() - t0:.3f} s, cpu {time.process_time() - c0:.3f} s")
print(p)
