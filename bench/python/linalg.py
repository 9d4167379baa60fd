"""Linear algebra per call, the same file under `nndb python` and
/usr/bin/python3: linalg.solve and linalg.cholesky of 512 x 512 float32, and
the two bmm of a GPT attention head block (B*H=48, T=256, hs=64: q @ k^T and
att @ v). Prints one "NAME MS_PER_CALL" line each: the least CPU time
(time.process_time, all threads) of the reps. On the shared 2-core
development machine other jobs moved wall-clock medians 3x from run to run;
the CPU time a call consumes is what they do not change.

    linalg.py THREADS REPS
"""
import sys
import time

import torch

threads, reps = int(sys.argv[1]), int(sys.argv[2])
torch.set_num_threads(threads)
torch.manual_seed(0)


def best_ms(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times) * 1e3


n = 512
A = torch.randn(n, n) + n ** 0.5 * torch.eye(n)
B = torch.randn(n, n)
X = torch.randn(n, n)
S = X @ X.mT + n * torch.eye(n)
q = torch.randn(48, 256, 64)
k = torch.randn(48, 256, 64)
v = torch.randn(48, 256, 64)
kt = k.transpose(1, 2)
att = torch.softmax(torch.bmm(q, kt), -1)

print("solve_512", best_ms(lambda: torch.linalg.solve(A, B), reps))
print("cholesky_512", best_ms(lambda: torch.linalg.cholesky(S), reps))
print("bmm_qk_48x256x64", best_ms(lambda: torch.bmm(q, kt), reps * 2))
print("bmm_av_48x256x64", best_ms(lambda: torch.bmm(att, v), reps * 2))
