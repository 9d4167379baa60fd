#!/bin/sh
# Differential tests: each tests/diff/*.nn runs under nndb and under
# /usr/bin/python3 with tests/diff/prelude.py; the outputs must be equal.
# Prints "N passed, M failed" (the run_all.sh suite line).
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-build/nndb}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
for f in tests/diff/*.nn; do
    name=$(basename "$f" .nn)
    "$NNDB" run "$f" >"$tmp/$name.nndb" 2>&1
    { cat tests/diff/prelude.py; cat "$f"; } >"$tmp/$name.py"
    "$PYTHON" "$tmp/$name.py" >"$tmp/$name.py.out" 2>&1
    if cmp -s "$tmp/$name.nndb" "$tmp/$name.py.out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $f: nndb and python differ (< nndb, > python):"
        diff "$tmp/$name.nndb" "$tmp/$name.py.out" | head -n 20
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
