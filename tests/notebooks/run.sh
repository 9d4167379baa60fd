#!/bin/sh
# The differential notebook suite (see run_notebooks.py): each notebook here
# runs in the nndb kernel and in Debian's ipykernel through nbclient, and the
# outputs are compared cell by cell. Ends with "N passed, M failed".
#
#   tests/notebooks/run.sh                 every notebook
#   tests/notebooks/run.sh plots micrograd only these
#   NNDB=build/asan/nndb tests/notebooks/run.sh
set -u
case "${NNDB:-}" in
    "" | /*) ;;
    *) NNDB="$(pwd)/$NNDB" && export NNDB ;;
esac
cd "$(dirname "$0")/../.." || exit 1
exec timeout "${NNDB_NOTEBOOK_SUITE_TIMEOUT:-600}" "${PYTHON:-/usr/bin/python3}" \
    tests/notebooks/run_notebooks.py "$@"
