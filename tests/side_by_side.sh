# Sourced by tests/py/run.sh and tests/compat/run.sh: one folder of scripts
# run under nndb and under /usr/bin/python3 with Debian's PyTorch, each from
# a scratch copy of the folder (so relative file names work and files the
# scripts write stay out of the tree). Stdout and the exit status must be
# equal. The PyTorch side runs first, every script in a child of one
# process that imported torch once (tests/pytorch_batch.py;
# NNDB_PYTORCH_FRESH=1 starts a fresh interpreter per script instead).
#
#   side_by_side DIR SUBCOMMAND SECONDS [NAME]
#
# runs DIR/*.py (or DIR/NAME.py) as `nndb SUBCOMMAND NAME.py`, each side
# stopped after SECONDS. A script with more to check defines
# `side_by_side_extra NAME NNDB_STDERR_FILE`, which prints why and returns
# non-zero on a failure. Prints "N passed, M failed" (the run_all.sh suite
# line) and returns non-zero when any failed. Expects the caller in the
# repository root.
side_by_side() {
    dir=$1
    sub=$2
    secs=$3
    root=$(pwd)
    PYTHON=${PYTHON:-/usr/bin/python3}
    NNDB=${NNDB:-$root/build/nndb}
    case "$NNDB" in /*) ;; *) NNDB="$root/$NNDB" ;; esac
    tmp=$(mktemp -d)
    # shellcheck disable=SC2064 # the folder is known now
    trap "rm -rf '$tmp'" EXIT
    passed=0
    failed=0
    names=
    for f in "$dir"/*.py; do
        name=$(basename "$f" .py)
        [ -n "${4:-}" ] && [ "$name" != "$4" ] && continue
        names="$names $name"
    done
    # shellcheck disable=SC2086 # one word per name
    "$PYTHON" tests/pytorch_batch.py "$dir" "$tmp" "$secs" $names
    for name in $names; do
        f=$dir/$name.py
        rm -rf "$tmp/a"
        mkdir "$tmp/a"
        cp -r "$dir/." "$tmp/a/"
        (cd "$tmp/a" && timeout "$secs" "$NNDB" "$sub" "$name.py" >"$tmp/$name.nndb" 2>"$tmp/$name.nndb.err")
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
        elif command -v side_by_side_extra >/dev/null &&
            ! side_by_side_extra "$name" "$tmp/$name.nndb.err"; then
            failed=$((failed + 1))
        else
            passed=$((passed + 1))
        fi
    done
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
