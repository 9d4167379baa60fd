#!/bin/sh
# Run every test suite that `make test` builds, then print one summary line:
#   "TOTAL: N passed, M failed"
# Exit status is non-zero when any test failed or any suite did not finish.
set -u
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-/usr/bin/python3}
export NNDB_REF_DIR=${NNDB_REF_DIR:-build/ref}
mkdir -p "$NNDB_REF_DIR"

passed=0
failed=0
skipped=0
began=$(date +%s)
log=build/test-logs
mkdir -p "$log"

# Run one suite, its output to $log/NAME.out and .err, its exit status to
# $log/NAME.rc, the seconds it took to $log/NAME.secs.
exec_suite() {
    name=$1
    shift
    start=$(date +%s)
    "$@" >"$log/$name.out" 2>"$log/$name.err"
    echo $? >"$log/$name.rc"
    echo $(($(date +%s) - start)) >"$log/$name.secs"
}

# Show and count a finished suite's "N passed, M failed" line; a suite that
# crashes or prints no such line counts as one failure.
count_suite() {
    name=$1
    printf '== %s (%s s)\n' "$name" "$(cat "$log/$name.secs" 2>/dev/null || echo ?)"
    rc=$(cat "$log/$name.rc" 2>/dev/null || echo 1)
    cat "$log/$name.err" "$log/$name.out" | grep -v '^$' | tail -n 40
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$log/$name.out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "   $name: no result line (exit status $rc)"
        failed=$((failed + 1))
        return
    fi
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
    case "$line" in
    *skipped)
        k=${line#*failed, }
        skipped=$((skipped + ${k%% skipped*}))
        ;;
    esac
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "   $name: exit status $rc"
        failed=$((failed + 1))
    fi
}

run_suite() {
    exec_suite "$@"
    count_suite "$1"
}

# PyTorch reference values, regenerated on every run so they cannot go stale.
refs_ok=0
refs_bad=0
for gen in tests/torch/ref_*.py; do
    [ -e "$gen" ] || continue
    if "$PYTHON" "$gen" >"$log/refs.out" 2>&1; then
        refs_ok=$((refs_ok + 1))
    else
        echo "reference generator $gen failed:"
        tail -n 20 "$log/refs.out"
        refs_bad=$((refs_bad + 1))
    fi
done
echo "== torch reference generators: $refs_ok ok, $refs_bad failed"
failed=$((failed + refs_bad))
passed=$((passed + refs_ok))

# The comparison suites (nndb against PyTorch, output against output), the
# drills and lessons, the unit tests under the sanitizers and the fuzz
# replays run as a second lane next to the rest, from the start, and use
# the machine's second core; their results are shown and counted at the
# end. Their timeouts are generous (30 s and more per step), so sharing the
# two cores does not fail them. The lanes took about 12 minutes each here
# (build/test-logs/NAME.secs has each suite's seconds).
replays=
for replay in build/asan/fuzz/*_replay; do
    [ -x "$replay" ] && replays="$replays $replay"
done
lane="diff compat python moduleinfo opinfo opinfo-out lessons drills unit-asan-ubsan"
for replay in $replays; do
    lane="$lane $(basename "$replay")-asan"
done
(
    exec_suite diff tests/diff/run.sh
    exec_suite compat tests/compat/run.sh
    exec_suite python tests/py/run.sh
    exec_suite moduleinfo tests/moduleinfo/run.sh
    exec_suite opinfo tests/opinfo/run.sh
    exec_suite opinfo-out tests/opinfo/out.sh
    exec_suite lessons "$PYTHON" tests/drills/test_lessons.py
    exec_suite drills "$PYTHON" tests/drills/test_drills.py
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
        LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan.supp} \
        UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        exec_suite unit-asan-ubsan build/asan/unit_tests
    for replay in $replays; do
        ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
            LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan.supp} \
            exec_suite "$(basename "$replay")-asan" "$replay"
    done
) &
lane_pid=$!
run_suite layers tests/check_layers.sh
run_suite format tests/check_format.sh
run_suite unit build/unit_tests
run_suite session build/session_tests
run_suite repl tests/repl/run.sh
run_suite debugger "$PYTHON" tests/repl/test_cpython_debugger.py
run_suite hub "$PYTHON" tests/drills/test_hub.py
run_suite kernel tests/kernel/run.sh
run_suite notebooks tests/notebooks/run.sh
run_suite browser tests/browser/run.sh
run_suite dist "$PYTHON" tests/dist/test_dist.py
[ -x build/test_noalloc ] && run_suite noalloc build/test_noalloc
# The session seam under the sanitizers: the binding's C code with real
# cells, interrupts and the debugger.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
    LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$(pwd)/tests/lsan.supp} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    run_suite session-asan-ubsan build/asan/session_tests

wait "$lane_pid"
for name in $lane; do
    count_suite "$name"
done

echo "== every suite ran in $(($(date +%s) - began)) s"
if [ "$skipped" -gt 0 ]; then
    echo "TOTAL: $passed passed, $failed failed, $skipped skipped"
else
    echo "TOTAL: $passed passed, $failed failed"
fi
# How much of PyTorch's own test databases passes (tests/opinfo, tests/moduleinfo).
cat "$log"/*.out 2>/dev/null | grep -h '^COVERAGE ' | sort -u
[ "$failed" -eq 0 ]
