#!/bin/sh
# The dependency rule of docs/architecture.md, checked on every #include:
#   engine/  includes nothing of binding/, drills/, repl/, kernel/ (nor Python.h)
#   binding/ (the torch extension, the embedder and the session) includes
#            nothing of drills/, repl/ or kernel/
#   drills/, repl/, kernel/ see the language only through the session seam
#            binding/lang.h (no Python.h, no py_*.h)
#   drills/  includes nothing of repl/, kernel/
#   repl/ and kernel/ never include each other.
# Prints "N passed, M failed" like the other suites.
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0

# check DIR PATTERN WHAT: no file in DIR includes a header matching PATTERN.
check() {
    dir=$1
    pattern=$2
    what=$3
    [ -d "$dir" ] || { passed=$((passed + 1)); return; }
    hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" "$dir" 2>/dev/null)
    if [ -n "$hits" ]; then
        echo "layering: $what"
        echo "$hits" | sed 's/^/  /'
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

check engine 'lang|py_|py\.h|Python\.h|repl|kernel_|drill' "engine/ must not include the language, the binding or a front end"
check binding 'repl|kernel_|drill' "binding/ must not include a front end or the drills"
for front in drills repl kernel; do
    check "$front" 'py_|py\.h|Python\.h' "$front/ must reach the language only through the session seam lang.h"
done
check drills 'repl|kernel_' "drills/ must not include a front end"
check repl 'kernel_' "repl/ must not include kernel/"
check kernel 'repl' "kernel/ must not include repl/"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
