#!/bin/sh
# out= against PyTorch's operator database: for every OpInfo entry whose
# function nndb has, whether out= is taken exactly where PyTorch takes it,
# what the call returns, what the outs hold, the resize warning, the out
# dtypes accepted or refused, and the Tensor method's refusal of out=.
#
#   tests/opinfo/out.sh            every entry (a few seconds)
#   tests/opinfo/out.sh -v cummax  some entries; -v also lists the exception
#                                  messages nndb words differently
#
# out_gen.py records PyTorch's answers under /usr/bin/python3
# (build/opinfo/out_cases.pkl, re-recorded when the generators change);
# out_check.py replays them under nndb, lists the differences, and fails on
# any that is not one of its KNOWN ones.
set -u
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-build/nndb}
cases=build/opinfo/out_cases.pkl
mkdir -p build/opinfo
stamp=$(cat tests/opinfo/out_gen.py tests/opinfo/out_common.py tests/opinfo/gen.py tests/opinfo/expecttest.py | sha1sum | cut -c1-16)
if [ ! -f "$cases" ] || [ "$(cat "$cases.stamp" 2>/dev/null)" != "$stamp" ]; then
    if ! PYTHONPATH=tests/opinfo "$PYTHON" tests/opinfo/out_gen.py "$cases" >build/opinfo/out_gen.log 2>&1; then
        tail -n 20 build/opinfo/out_gen.log
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "$stamp" >"$cases.stamp"
fi
timeout 300 "$NNDB" python tests/opinfo/out_check.py "$cases" "$@"
