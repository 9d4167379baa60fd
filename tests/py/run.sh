#!/bin/sh
# CPython tests: each tests/py/*.py runs under `nndb python` (nndb's engine
# as torch inside embedded CPython) and under /usr/bin/python3 with Debian's
# PyTorch, from a scratch copy of tests/py/ (so files the scripts write stay
# out of the tree). Stdout and the exit status must be equal.
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
for f in tests/py/*.py; do
    name=$(basename "$f" .py)
    [ -n "${1:-}" ] && [ "$name" != "$1" ] && continue
    rm -rf "$tmp/a" "$tmp/b"
    mkdir "$tmp/a" "$tmp/b"
    cp -r tests/py/. "$tmp/a/"
    cp -r tests/py/. "$tmp/b/"
    (cd "$tmp/a" && timeout 120 "$NNDB" python "$name.py" >"$tmp/$name.nndb" 2>"$tmp/$name.nndb.err")
    rc1=$?
    (cd "$tmp/b" && timeout 120 "$PYTHON" "$name.py" >"$tmp/$name.py.out" 2>"$tmp/$name.py.err")
    rc2=$?
    if ! cmp -s "$tmp/$name.nndb" "$tmp/$name.py.out"; then
        echo "FAIL $f: nndb and python differ (< nndb, > python):"
        diff "$tmp/$name.nndb" "$tmp/$name.py.out" | head -n 20
        tail -n 8 "$tmp/$name.nndb.err"
        failed=$((failed + 1))
    elif [ "$rc1" -ne "$rc2" ]; then
        echo "FAIL $f: exit status $rc1 under nndb, $rc2 under python"
        tail -n 8 "$tmp/$name.nndb.err"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
