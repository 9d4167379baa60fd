#!/bin/sh
# Compatibility tests: each tests/compat/*.py is a PyTorch script written as
# course material writes it (imports, classes, try/except, files). It runs
# unchanged under `nndb run` and under /usr/bin/python3 with PyTorch, from
# a scratch copy of tests/compat/ (so relative file names work and files the
# scripts write stay out of the tree); stdout must be equal. A file
# tests/compat/NAME.stderr holds text nndb's stderr must contain (warnings).
# Random streams are torch's and CPython's (issue 12), so scripts may
# print seeded random values. The PyTorch side runs first, every script in a
# child of one process that imported torch once (tests/pytorch_batch.py;
# NNDB_PYTORCH_FRESH=1 starts a fresh interpreter per script instead).
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
for f in tests/compat/*.py; do
    name=$(basename "$f" .py)
    [ -n "${1:-}" ] && [ "$name" != "$1" ] && continue
    names="$names $name"
done
# shellcheck disable=SC2086 # one word per name
"$PYTHON" tests/pytorch_batch.py tests/compat "$tmp" 600 $names
for name in $names; do
    f=tests/compat/$name.py
    rm -rf "$tmp/a"
    mkdir "$tmp/a"
    cp -r tests/compat/. "$tmp/a/"
    (cd "$tmp/a" && "$NNDB" run "$name.py" >"$tmp/$name.nndb" 2>"$tmp/$name.nndb.err")
    rc1=$?
    rc2=$(cat "$tmp/$name.py.rc" 2>/dev/null || echo "none")
    ok=1
    if ! cmp -s "$tmp/$name.nndb" "$tmp/$name.py.out"; then
        ok=0
        echo "FAIL $f: nndb and python differ (< nndb, > python):"
        diff "$tmp/$name.nndb" "$tmp/$name.py.out" | head -n 20
        head -n 8 "$tmp/$name.nndb.err"
    elif [ "$rc1" != "$rc2" ]; then
        ok=0
        echo "FAIL $f: exit status $rc1 under nndb, $rc2 under python"
        head -n 8 "$tmp/$name.nndb.err"
    elif [ -f "tests/compat/$name.stderr" ]; then
        while IFS= read -r want; do
            if ! grep -qF -- "$want" "$tmp/$name.nndb.err"; then
                ok=0
                echo "FAIL $f: nndb's stderr lacks: $want"
            fi
        done <"tests/compat/$name.stderr"
    fi
    if [ "$ok" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
