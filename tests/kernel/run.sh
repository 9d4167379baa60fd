#!/bin/sh
# The Jupyter kernel suite (pytest under Debian's /usr/bin/python3, with its
# jupyter_client, nbclient, jupyter-console and pexpect). Prints the pytest
# report, the figures (memory growth, interrupt and heartbeat latency), then
# one line "N passed, M failed"; exits non-zero when a test failed.
#
#   tests/kernel/run.sh                     against build/nndb (make build/nndb first)
#   tests/kernel/run.sh -k interrupt        extra arguments go to pytest
#   NNDB_TEST_KERNEL=python3 tests/kernel/run.sh
#                                           the same tests against Debian's ipykernel
#   NNDB_KERNEL_HB_SECONDS=3 tests/kernel/run.sh
#                                           a shorter long-computation (default 30 s)
#   NNDB=build/asan/nndb tests/kernel/run.sh
#                                           another build (make SANITIZE=1 build/asan/nndb)
#   NNDB_KERNEL=build/nndb-kernel tests/kernel/run.sh
#                                           the kernelspecs start this kernel binary
#                                           (`nndb-kernel install-kernel`), not $NNDB's
set -u
# NNDB (the binary under test) may be given relative to where we were called.
case "${NNDB:-}" in
    "" | /*) ;;
    *) NNDB="$(pwd)/$NNDB" && export NNDB ;;
esac
case "${NNDB_KERNEL:-}" in
    "" | /*) ;;
    *) NNDB_KERNEL="$(pwd)/$NNDB_KERNEL" && export NNDB_KERNEL ;;
esac
cd "$(dirname "$0")" || exit 1
PYTHON=${PYTHON:-/usr/bin/python3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout "${NNDB_KERNEL_SUITE_TIMEOUT:-600}" "$PYTHON" -m pytest -p no:cacheprovider -q -rfEsx \
    "$@" . >"$out" 2>&1
rc=$?
cat "$out"
summary=$(grep -E '^=* ?[0-9]+ (passed|failed|error|errors|skipped|xfailed|deselected)' "$out" |
    tail -n 1)
count() { printf '%s\n' "$summary" | grep -oE "[0-9]+ $1" | head -n 1 | cut -d' ' -f1; }
passed=$(count passed)
failed=$(count failed)
errors=$(count 'errors?')
passed=${passed:-0}
failed=$((${failed:-0} + ${errors:-0}))
if [ -z "$summary" ] || { [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; }; then
    echo "kernel suite: pytest ended with status $rc and no failure counted"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
