#!/bin/sh
# CPython tests: each tests/py/*.py runs under `nndb python` (nndb's engine
# as torch inside embedded CPython) and under /usr/bin/python3 with Debian's
# PyTorch; stdout and the exit status must be equal (tests/side_by_side.sh
# says how both sides run).
#   tests/py/run.sh [NAME]     one script, or all
# Prints "N passed, M failed" (the run_all.sh suite line).
cd "$(dirname "$0")/../.." || exit 1
. tests/side_by_side.sh
side_by_side tests/py python 120 "${1:-}"
