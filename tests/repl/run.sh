#!/bin/sh
# The REPL's end-to-end suite in a real pty (Debian's python3-pexpect).
# Prints "N passed, M failed" and exits non-zero when a test failed.
#
#   tests/repl/run.sh              against build/nndb (make build/nndb first)
#   tests/repl/run.sh --stub       against the front end linked with a stand-in
#                                  session (tests/repl/stub_session.c)
#   tests/repl/run.sh history      only tests whose name contains "history"
set -u
cd "$(dirname "$0")/../.." || exit 1
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-build/nndb}
if [ "${1:-}" = "--stub" ]; then
    shift
    tests/repl/build_stub.sh || { echo "0 passed, 1 failed"; exit 1; }
    exec "$PYTHON" tests/repl/test_repl.py --nndb build/repl_stub/nndb --stub "$@"
fi
exec "$PYTHON" tests/repl/test_repl.py --nndb "$NNDB" "$@"
