#!/bin/sh
# Build build/repl_stub/nndb: nndb.c and repl/ linked with the stand-in
# session tests/repl/stub_session.c instead of the real language, so the
# terminal front end can be tested on its own. Builds the engine's objects as make does.
set -e
cd "$(dirname "$0")/../.."
# The engine's objects only, so a half-written language cannot stop this.
engine_objs=$(ls engine/*.c engine/probe/*.c | sed 's|^|build/|; s|\.c$|.o|')
make --no-print-directory $engine_objs >/dev/null
out=build/repl_stub
mkdir -p "$out"
FLAGS="-std=c11 -g -O1 -D_GNU_SOURCE -Iengine -Ilang -Wall -Wextra -Wno-unused-parameter -Wno-comment"
for f in nndb.c repl/*.c tests/repl/stub_session.c; do
    cc $FLAGS -c "$f" -o "$out/$(basename "$f" .c).o"
done
# Only the engine's objects: the real language must not meet the stub.
rm -f "$out/libengine.a"
ar rcs "$out/libengine.a" $engine_objs
cc -o "$out/nndb" "$out"/*.o "$out/libengine.a" -lopenblas -lm -ldl -lpthread -lreadline
