"""CPU time of each phase of gpt_scale.py's training step, as the step
calls them: zero_grad, forward (model and loss), backward, optimizer step.

    nndb run bench/python/gpt_phases.py L H C V B T THREADS STEPS
    /usr/bin/python3 bench/python/gpt_phases.py ...   (the same under PyTorch)

Prints the medians over STEPS after two untimed steps, in ms of process
CPU time (time.process_time: a loaded machine still measures it), e.g.

    zero_ms 0.1 forward_ms 539 backward_ms 1124 step_ms 124 total_ms 1786

The optimizer step is the part of the step outside the model that
gemm_floor.py's floor does not count (AdamW streams the parameters, their
gradients and both moments: 28 bytes a parameter); set against that
floor's cpu_ms it says what the GEMMs leave to everything else.
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402
from gpt_scale import GPT  # noqa: E402


def main():
    L, H, C, V, B, T, threads, steps = map(int, sys.argv[1:9])
    torch.set_num_threads(threads)
    torch.manual_seed(1337)  # as gpt_scale.make_step
    model = GPT(L, H, C, V, T)
    x = torch.randint(0, V, (B, T))
    y = torch.randint(0, V, (B, T))
    optimizer = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95))
    names = ("zero_ms", "forward_ms", "backward_ms", "step_ms")
    times = {n: [] for n in names}
    for s in range(steps + 2):
        t0 = time.process_time()
        optimizer.zero_grad(set_to_none=True)
        t1 = time.process_time()
        _, loss = model(x, y)
        t2 = time.process_time()
        loss.backward()
        t3 = time.process_time()
        optimizer.step()
        t4 = time.process_time()
        loss.item()
        if s >= 2:
            for n, d in zip(names, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                times[n].append(d * 1e3)
    meds = {n: statistics.median(v) for n, v in times.items()}
    total = statistics.median([sum(ts) for ts in zip(*times.values())])
    print(" ".join(f"{n} {v:.4g}" for n, v in meds.items()), f"total_ms {total:.4g}")


if __name__ == "__main__":
    main()
