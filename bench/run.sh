#!/bin/sh
# make bench: run every benchmark against its anchor (see docs/benchmarks.md),
# few repetitions each, in under 10 minutes on a 2-core machine. --full (make
# bench-full) gives every program its longer run, about 40 minutes, for a
# quiet machine. Expects the programs in build/bench (make builds them
# first). Extra arguments go to every program (--full, --only NAME).
cd "$(dirname "$0")/.." || exit 1
started=$(date +%s)
# Run one program, then say how long it took (a comment line, so that the
# BENCH lines stay easy to grep).
timed() {
    t0=$(date +%s)
    "$@"
    status=$?
    prog=$1
    case $prog in */python3 | python*) prog=$2 ;; esac
    echo "# $(basename "$prog"): $(($(date +%s) - t0)) s"
    return $status
}
rc=0
timed "${PYTHON:-/usr/bin/python3}" bench/compare.py "$@" || rc=1
# GPT training step vs PyTorch (bench/bench_gpt.py, same BENCH format).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_gpt.py "$@" || rc=1
# GPT at the sizes learners train: 124M and 64M, nndb vs PyTorch vs the GEMM floor (bench/bench_gpt_scale.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_gpt_scale.py "$@" || rc=1
# Jupyter kernel vs ipykernel: launch, execute round trip, idle memory (bench/bench_kernel.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_kernel.py "$@" || rc=1
# tqdm in a notebook: the same 1e5-step loop under tqdm, nndb vs ipykernel (bench/bench_tqdm.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_tqdm.py || rc=1
# nndb on embedded CPython: start-up, import torch, per-call cost vs PyTorch (bench/bench_python.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_python.py "$@" || rc=1
# Index and reduction kernels vs PyTorch: scatter_add/index_add, gather, prod, median, quantile (bench/bench_ops.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_ops.py "$@" || rc=1
# Attention, layer norm, cross-entropy at GPT-2 124M sizes; LSTM/GRU/TransformerEncoderLayer steps (bench/bench_attn.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_attn.py "$@" || rc=1
# The instruments: profiler overhead on the GPT step, gradcheck(samples=) on a GPT (bench_instruments.c).
full=""
for a in "$@"; do [ "$a" = "--full" ] && full="--full"; done
timed build/bench/bench_instruments $full || rc=1
# The NaN hunt's cost on a training step, nndb and PyTorch (bench/bench_anomaly.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_anomaly.py "$@" || rc=1
# Data parallelism on Open MPI: all_reduce vs plain MPI, a DDP GPT step on 2 ranks, an FSDP step vs DDP and the memory per rank of DDP, ZeRO-1, SHARD_GRAD_OP and FULL_SHARD (bench/bench_dist.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_dist.py "$@" || rc=1
# Linear algebra: linalg.solve and cholesky at 512, bmm at a GPT attention shape, vs PyTorch (bench/bench_linalg.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_linalg.py "$@" || rc=1
# CNNs: LeNet-5 step, ResNet basic block, depthwise-separable block, max_pool2d vs PyTorch (bench/bench_conv.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_conv.py "$@" || rc=1
# Recomputation: torch.utils.checkpoint on every block of a GPT L4 step, time and peak vs plain (bench/bench_checkpoint.py).
timed "${PYTHON:-/usr/bin/python3}" bench/bench_checkpoint.py "$@" || rc=1
echo "# make bench: $(($(date +%s) - started)) s in all"
exit $rc
