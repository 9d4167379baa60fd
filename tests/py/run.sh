#!/bin/sh
# CPython tests: each tests/py/*.py runs under `nndb python` (nndb's engine
# as torch inside embedded CPython) and under /usr/bin/python3 with Debian's
# PyTorch, from a scratch copy of tests/py/ (so files the scripts write stay
# out of the tree). Stdout and the exit status must be equal. The PyTorch
# side runs first, every script in a child of one process that imported
# torch once (tests/pytorch_batch.py; NNDB_PYTORCH_FRESH=1 starts a fresh
# interpreter per script instead).
#   tests/py/run.sh [NAME]     one script, or all
# Prints "N passed, M failed" (the run_all.sh suite line).
cd "$(dirname "$0")/../.."
root=$(pwd)
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-$root/build/nndb}
case "$NNDB" in /*) ;; *) NNDB="$root/$NNDB" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
names=
for f in tests/py/*.py; do
    name=$(basename "$f" .py)
    [ -n "${1:-}" ] && [ "$name" != "$1" ] && continue
    names="$names $name"
done
# shellcheck disable=SC2086 # one word per name
"$PYTHON" tests/pytorch_batch.py tests/py "$tmp" 120 $names
for name in $names; do
    f=tests/py/$name.py
    rm -rf "$tmp/a"
    mkdir "$tmp/a"
    cp -r tests/py/. "$tmp/a/"
    (cd "$tmp/a" && timeout 120 "$NNDB" python "$name.py" >"$tmp/$name.nndb" 2>"$tmp/$name.nndb.err")
    rc1=$?
    rc2=$(cat "$tmp/$name.py.rc" 2>/dev/null || echo "none")
    if ! cmp -s "$tmp/$name.nndb" "$tmp/$name.py.out"; then
        echo "FAIL $f: nndb and python differ (< nndb, > python):"
        diff "$tmp/$name.nndb" "$tmp/$name.py.out" | head -n 20
        tail -n 8 "$tmp/$name.nndb.err"
        failed=$((failed + 1))
    elif [ "$rc1" != "$rc2" ]; then
        echo "FAIL $f: exit status $rc1 under nndb, $rc2 under python"
        tail -n 8 "$tmp/$name.nndb.err"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
