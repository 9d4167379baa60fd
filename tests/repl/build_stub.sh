#!/bin/sh
# Build build/repl_stub/nndb: nndb.c and repl/ linked with the stand-in
# session tests/repl/stub_session.c instead of the real language, so the
# terminal front end can be tested on its own. Needs build/libnndb.a (engine).
set -e
cd "$(dirname "$0")/../.."
make --no-print-directory build/libnndb.a >/dev/null
out=build/repl_stub
mkdir -p "$out"
FLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -Iengine -Ilang -Wall -Wextra -Wno-unused-parameter -Wno-comment"
for f in nndb.c repl/*.c tests/repl/stub_session.c; do
    cc $FLAGS -c "$f" -o "$out/$(basename "$f" .c).o"
done
# The stub's objects come first, so the archive's own lang objects (if any)
# are not needed for the symbols the stub defines.
cc -o "$out/nndb" "$out"/*.o build/libnndb.a -lopenblas -lm -ldl -lpthread -lreadline
