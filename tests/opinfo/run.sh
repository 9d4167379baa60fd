#!/bin/sh
# PyTorch's operator database (OpInfo) against nndb's torch.
#
#   tests/opinfo/run.sh                 every entry; fails when an entry listed in
#                                       tests/opinfo/passing.txt no longer passes
#   tests/opinfo/run.sh linalg. cumsum  only entries whose key starts with these,
#                                       each failure with its reason
#   tests/opinfo/run.sh --update        rewrite passing.txt from this run
#
# gen.py records PyTorch's answers under /usr/bin/python3 (build/opinfo/cases,
# re-recorded when gen.py changes or the folder is missing); check.py replays
# them under nndb.  build/opinfo/results.jsonl has one line per entry and
# build/opinfo/report.txt the failures and skips with their reasons.
set -u
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-/usr/bin/python3}
NNDB=${NNDB:-build/nndb}
out=build/opinfo
cases=$out/cases
update=0
if [ "${1:-}" = "--update" ]; then
    update=1
    shift
fi
mkdir -p "$out"

stamp=$(cat tests/opinfo/gen.py tests/opinfo/expecttest.py | sha1sum | cut -c1-16)
if [ ! -f "$cases/.stamp" ] || [ "$(cat "$cases/.stamp")" != "$stamp" ]; then
    rm -rf "$cases"
    if ! PYTHONPATH=tests/opinfo "$PYTHON" tests/opinfo/gen.py "$cases" >"$out/gen.log" 2>&1; then
        tail -n 20 "$out/gen.log"
        echo "0 passed, 1 failed"
        exit 1
    fi
    echo "$stamp" >"$cases/.stamp"
fi

results=$out/results.jsonl
rm -f "$results" "$results.current"
# check.py resumes after the entries already written; an entry that crashes
# the process is written as a failure and the run goes on after it.
tries=0
while :; do
    timeout 900 "$NNDB" python tests/opinfo/check.py "$cases" "$results" "$@" >"$out/check.log" 2>&1
    rc=$?
    [ -f "$results.current" ] || break
    key=$(cat "$results.current")
    rm -f "$results.current"
    printf '{"key": "%s", "status": "fail", "reason": "nndb crashed or hung (exit status %s)", "samples": 0}\n' \
        "$key" "$rc" >>"$results"
    tries=$((tries + 1))
    [ "$tries" -lt 50 ] || break
done
[ "$rc" -eq 0 ] || tail -n 20 "$out/check.log"

"$PYTHON" - "$results" tests/opinfo/passing.txt "$out/report.txt" "$update" "$#" <<'EOF'
import json, sys
results, baseline, report, update, subset = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1", sys.argv[5] != "0"
rows = [json.loads(l) for l in open(results)]
by = {r["key"]: r for r in rows}
passed = sorted(k for k, r in by.items() if r["status"] == "pass")
skipped = sorted(k for k, r in by.items() if r["status"] == "skip")
failed = sorted(k for k, r in by.items() if r["status"] == "fail")
try:
    before = [l.strip() for l in open(baseline) if l.strip() and not l.startswith("#")]
except FileNotFoundError:
    before = []
lost = [k for k in before if k in by and by[k]["status"] != "pass"]
with open(report, "w") as f:
    for k in failed:
        f.write("FAIL %s: %s\n" % (k, by[k]["reason"]))
    for k in skipped:
        f.write("SKIP %s: %s\n" % (k, by[k]["reason"]))
if subset:
    for k in failed + skipped:
        print("%s %s: %s" % (by[k]["status"].upper(), k, by[k]["reason"]))
for k in lost:
    print("REGRESSION %s: %s" % (k, by[k]["reason"]))
new = [k for k in passed if k not in before]
if new and not update:
    print("%d entries pass that passing.txt does not list yet (tests/opinfo/run.sh --update): %s"
          % (len(new), " ".join(new[:20]) + (" ..." if len(new) > 20 else "")))
if update and not subset:
    with open(baseline, "w") as f:
        f.write("# OpInfo entries that pass all their samples under nndb (tests/opinfo/run.sh --update).\n")
        f.write("# make test fails when one of these stops passing.\n")
        for k in passed:
            f.write(k + "\n")
    lost = []
print("OpInfo: %d entries pass, %d fail, %d skipped (no sample PyTorch can record for them); "
      "details in %s" % (len(passed), len(failed), len(skipped), report))
if not subset:
    print("COVERAGE opinfo pass=%d of %d" % (len(passed), len(passed) + len(failed)))
print("%d passed, %d failed" % (len(passed), len(lost)))
EOF
