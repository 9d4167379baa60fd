#!/bin/sh
# Build build/repl_stub/nndb: repl/ and a small main (stub_main.c) linked
# with the stand-in session tests/repl/stub_session.c instead of the real
# language, so the terminal front end can be tested on its own, whatever
# state the rest of the tree is in.
set -e
cd "$(dirname "$0")/../.."
out=build/repl_stub
mkdir -p "$out"
rm -f "$out"/*.o
FLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -Iengine -Ibinding -Idrills -Wall -Wextra -Wno-unused-parameter"
for f in tests/repl/stub_main.c repl/*.c tests/repl/stub_session.c; do
    cc $FLAGS -c "$f" -o "$out/$(basename "$f" .c).o"
done
cc -o "$out/nndb" "$out"/*.o -lreadline
