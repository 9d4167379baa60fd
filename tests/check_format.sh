#!/bin/sh
# Every C file follows the committed .clang-format (make format fixes them).
# Prints "N passed, M failed": one test per file.
cd "$(dirname "$0")/.." || exit 1
if ! command -v clang-format >/dev/null 2>&1; then
    echo "clang-format is missing (setup/deps.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
passed=0
failed=0
for f in $(git ls-files '*.c' '*.h'); do
    if clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        passed=$((passed + 1))
    else
        echo "not formatted: $f (run make format)"
        failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
