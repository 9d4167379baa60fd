#!/bin/sh
# The browser suite: classic Notebook + headless Chromium (see
# test_notebook.py). Prints "N passed, M failed" (", K skipped" when Chromium
# cannot start here, with the reason above it) and exits non-zero when a
# test failed.
#
#   tests/browser/run.sh            every test (about 40 s)
#   tests/browser/run.sh exit       only tests whose name contains "exit"
set -u
cd "$(dirname "$0")/../.." || exit 1
PYTHON=${PYTHON:-/usr/bin/python3}
exec timeout "${NNDB_BROWSER_SUITE_TIMEOUT:-300}" "$PYTHON" tests/browser/test_notebook.py "$@"
