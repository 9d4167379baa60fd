"""Attention, normalisation and loss kernels at the GPT-2 124M shape (B4 T256
C768 H12, vocabulary 50257) and the sequence-model steps of issue 22 (LSTM,
GRU and TransformerEncoderLayer at batch 32, seq 64, hidden / d_model 256)
against PyTorch, in the BENCH line format of compare.py.  Both sides run
bench/python/attn.py at one thread, in alternating rounds; each case keeps
its best.  Times are CPU time of the process (time.process_time), not wall
time: the machine may be shared.

    bench/bench_attn.py [--full] [--only NAME] [--threads N]

--threads 2 runs both sides at two threads instead (lines `..._2t`), timed
in wall time (CPU time would count both threads' work), PyTorch with
OMP_WAIT_POLICY=PASSIVE as in bench_gpt_scale.py; a run for a quiet machine.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

ROOT = compare.ROOT
NNDB = os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb"))
PY3 = "/usr/bin/python3"
QUICK = "--full" not in sys.argv  # make bench's default; --full: more repetitions
ONLY = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
TARGETS = {"softmax_fb": "<=1.0", "masked_fill_causal": "<=1.0", "layer_norm_fb": "<=1.0",
           "lstm_step": "<=1.0", "transformer_encoder_layer_step": "<=1.0"}


def times(cmd):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(THREADS), OMP_NUM_THREADS=str(THREADS))
    if THREADS > 1:
        env["OMP_WAIT_POLICY"] = "PASSIVE"
    args = (cmd + [str(THREADS)] + (["--quick"] if QUICK else [])
            + (["--wall"] if THREADS > 1 else []) + ([ONLY] if ONLY else []))
    try:
        out = subprocess.run(args, capture_output=True, text=True, check=True, env=env,
                             timeout=600).stdout
    except (subprocess.SubprocessError, OSError) as e:
        print(f"# {cmd[0]} failed: {e}", file=sys.stderr, flush=True)
        return {}
    return {k: float(v) for k, v in (line.split() for line in out.splitlines() if line.strip())}


def main():
    script = os.path.join(ROOT, "bench", "python", "attn.py")
    mine, ref = {}, {}
    for _ in range(1 if QUICK else 2):
        for side, cmd in ((mine, [NNDB, "python", script]), (ref, [PY3, script])):
            for k, v in times(cmd).items():
                side[k] = min(v, side.get(k, v))
    for k in list(mine) + [k for k in ref if k not in mine]:
        target = next((t for p, t in TARGETS.items() if k.startswith(p)), "report")
        ms = {s: d[k] / 1000 if k in d else None for s, d in (("nndb", mine), ("torch", ref))}
        compare.emit(f"{k}_{THREADS}t", ms["nndb"], "pytorch", ms["torch"], "ms", target)
    return 1 if compare.failures else 0


if __name__ == "__main__":
    sys.exit(main())
