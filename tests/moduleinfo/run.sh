#!/bin/sh
# ModuleInfo suite: PyTorch 1.13's module_db, reference values from
# /usr/bin/python3 (gen.py), checked under `nndb python` (check.py).
# Prints "N passed, M failed, K skipped" (K: modules not yet passing and not
# in passing.txt) and "COVERAGE modules pass=N of 38".
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-build/nndb}
mkdir -p build/moduleinfo
ref=build/moduleinfo/ref.pkl
"$PYTHON" -W ignore tests/moduleinfo/gen.py "$ref" || { echo "gen.py failed"; exit 1; }
timeout 900 "$NNDB" python tests/moduleinfo/check.py "$ref" tests/moduleinfo/passing.txt
