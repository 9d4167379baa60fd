#!/bin/sh
# Compatibility tests: each tests/compat/*.py is a PyTorch script written as
# course material writes it (imports, classes, try/except, files). It runs
# unchanged under `nndb run` and under /usr/bin/python3 with PyTorch; stdout
# and the exit status must be equal (tests/side_by_side.sh says how both
# sides run). A file tests/compat/NAME.stderr holds lines nndb's stderr
# must contain (warnings). Random streams are torch's and CPython's (issue
# 12), so scripts may print seeded random values.
#   tests/compat/run.sh [NAME]     one script, or all
# Prints "N passed, M failed" (the run_all.sh suite line).
cd "$(dirname "$0")/../.." || exit 1
. tests/side_by_side.sh
side_by_side_extra() {
    [ -f "tests/compat/$1.stderr" ] || return 0
    ok=0
    while IFS= read -r want; do
        if ! grep -qF -- "$want" "$2"; then
            ok=1
            echo "FAIL tests/compat/$1.py: nndb's stderr lacks: $want"
        fi
    done <"tests/compat/$1.stderr"
    return $ok
}
side_by_side tests/compat run 600 "${1:-}"
