#!/bin/sh
# make bench: run every benchmark against its anchor (see docs/benchmarks.md).
# Expects the programs in build/bench (make builds them first). Extra
# arguments go to bench/compare.py (--quick, --only NAME).
cd "$(dirname "$0")/.." || exit 1
exec "${PYTHON:-/usr/bin/python3}" bench/compare.py "$@"
