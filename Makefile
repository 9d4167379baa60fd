# nndb — plain Makefile.
#   make run        install missing Debian packages, build, start nndb
#   make test       install, build, run every test (plain, then ASan+UBSan)
#   make bench      side-by-side benchmarks (ratios against the anchors), < 10 min
#   make bench-full the same with more repetitions, for a quiet machine
#   make fuzz       libFuzzer targets (clang)
#   SANITIZE=1      build with AddressSanitizer + UndefinedBehaviorSanitizer into build/asan
#   WERROR=1        turn warnings into errors (CI sets it)

CC      ?= cc
SANITIZE ?= 0
WERROR  ?= 0
PYTHON  ?= /usr/bin/python3
# Parallel jobs for the builds that `make test` starts (one per core).
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)

WARN = -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes -Wmissing-prototypes \
       -Wvla -Wformat=2 -Wundef -Wcast-align -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif

ifeq ($(SANITIZE),1)
BUILD  ?= build/asan
OPT     = -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDSAN   = -fsanitize=address,undefined
else
BUILD  ?= build
OPT     = -O3
LDSAN   =
endif

CPPFLAGS += -Iengine -Idrills -Ibinding -D_GNU_SOURCE -MMD -MP
# No FP traps or errno are relied on, so loops with comparisons and sqrt can
# vectorise; IEEE results are unchanged (this is not -ffast-math).
CFLAGS   += -std=c11 -g -pthread $(OPT) -fno-trapping-math -fno-math-errno $(WARN)
LDLIBS   += -lm -ldl -lpthread -lfftw3 -lfftw3f
REPL_LIBS = -lreadline -lcjson
# Debian's CPython, embedded (python3.11-dev). -isystem: its headers are not ours to warn about.
PY_CONFIG ?= /usr/bin/python3.11-config
PY_INC    := $(shell $(PY_CONFIG) --includes 2>/dev/null | sed 's/-I/-isystem /g')
PY_LIBS   := $(shell $(PY_CONFIG) --embed --ldflags 2>/dev/null)
KERNEL_LIBS = -lzmq -lcjson -luuid -lcrypto
LDFLAGS  += $(LDSAN) -pthread

ENGINE_SRC := $(wildcard engine/*.c) $(wildcard engine/ops/*.c) $(wildcard engine/probe/*.c)
REPL_SRC   := $(wildcard repl/*.c)
REPL_OBJ   := $(REPL_SRC:%.c=$(BUILD)/%.o)
DRILL_SRC  := $(wildcard drills/*.c)
DRILL_OBJ  := $(DRILL_SRC:%.c=$(BUILD)/%.o)
KERNEL_SRC := $(wildcard kernel/*.c)
KERNEL_OBJ := $(KERNEL_SRC:%.c=$(BUILD)/%.o)
# The CPython session (binding/py_session*.c): the front ends' seam lang.h
# over embedded CPython. It stays out of libnndb_py.a, the torch extension
# (which `nndb python` and the fuzz target link without a session).
PYSESSION_SRC := $(wildcard binding/py_session*.c)
PYSESSION_OBJ := $(PYSESSION_SRC:%.c=$(BUILD)/%.o)
ENGINE_OBJ := $(ENGINE_SRC:%.c=$(BUILD)/%.o)
BINDING_SRC := $(filter-out $(PYSESSION_SRC),$(wildcard binding/*.c))
BINDING_OBJ := $(BINDING_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC   := $(wildcard tests/unit/*.c)
UNIT_OBJ   := $(UNIT_SRC:%.c=$(BUILD)/%.o)
BENCH_SRC  := $(wildcard bench/*.c)

.PHONY: all deps run test test-browser unit bench bench-full fuzz clean format format-check

all: $(BUILD)/nndb $(BUILD)/unit_tests

deps:
	@setup/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# The torch extension and the embedder (binding/) see CPython's headers.
$(BUILD)/binding/%.o: binding/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_INC) $(CFLAGS) -Wno-missing-field-initializers -c $< -o $@

$(BUILD)/libnndb_py.a: $(BINDING_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The drills (drills/) sit on the session seam; both front ends link them.
$(BUILD)/libdrills.a: $(DRILL_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The front ends run on embedded CPython (docs/python.md): the REPL (repl/),
# the drills (drills/), the CPython session (binding/py_session*.c), the torch
# extension (binding/) and the engine.
$(BUILD)/libnndb.a: $(ENGINE_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/nndb: $(BUILD)/nndb.o $(REPL_OBJ) $(BUILD)/libdrills.a $(PYSESSION_OBJ) $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a $(BUILD)/nndb-kernel
	$(CC) $(LDFLAGS) -o $@ $(filter-out $(BUILD)/nndb-kernel,$^) $(LDLIBS) $(REPL_LIBS) $(PY_LIBS)

# The Jupyter kernel is its own executable, so that nndb itself does not
# load libzmq and OpenSSL at every start; `nndb kernel` execs it.
$(BUILD)/nndb-kernel: $(KERNEL_OBJ) $(BUILD)/libdrills.a $(PYSESSION_OBJ) $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(KERNEL_LIBS) $(PY_LIBS)

# The session seam's tests (tests/session/): the front ends' view of a
# session (cells, errors, completion, interrupts, the debugger, the scripts
# in tests/session/scripts/ and the docs' examples), on the CPython session.
SESSION_TEST_SRC := $(wildcard tests/session/*.c) tests/unit/main.c tests/unit/testutil.c
$(BUILD)/session_tests: $(SESSION_TEST_SRC:%.c=$(BUILD)/%.o) $(PYSESSION_OBJ) $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(PY_LIBS)

$(BUILD)/unit_tests: $(UNIT_OBJ) $(BUILD)/libnndb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The allocation-counting test interposes malloc, so it is its own binary
# and runs only in the plain build (ASan owns malloc there).
$(BUILD)/test_noalloc: tests/noalloc/test_noalloc.c $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Fuzz targets (tests/fuzz/fuzz_*.c) replayed by a plain driver, for make test.
$(BUILD)/fuzz/%_replay: tests/fuzz/%.c tests/fuzz/fuzz_driver.c $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same targets under libFuzzer (clang), engine compiled in.
FUZZ_SECONDS ?= 60
build/libfuzzer/%: tests/fuzz/%.c $(ENGINE_SRC)
	@mkdir -p $(dir $@)
	clang -Iengine -D_GNU_SOURCE -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS)

# The kernel's wire decoder: its fuzz target compiles kernel/kernel_wire.c
# and links the kernel's libraries (explicit rules win over the ones above).
WIRE_FUZZ_SRC  = tests/fuzz/fuzz_wire.c kernel/kernel_wire.c
WIRE_FUZZ_LIBS = -lzmq -luuid -lcjson -lcrypto -lpthread
$(BUILD)/fuzz/fuzz_wire_replay: $(WIRE_FUZZ_SRC) tests/fuzz/fuzz_driver.c kernel/kernel_wire.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ikernel $(CFLAGS) $(LDFLAGS) -o $@ $(WIRE_FUZZ_SRC) tests/fuzz/fuzz_driver.c $(WIRE_FUZZ_LIBS)

# The torch extension's argument parsing, through embedded CPython.
$(BUILD)/fuzz/fuzz_pyargs_replay: tests/fuzz/fuzz_pyargs.c tests/fuzz/fuzz_driver.c $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_INC) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_pyargs.c tests/fuzz/fuzz_driver.c $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a $(LDLIBS) $(PY_LIBS)

build/libfuzzer/fuzz_pyargs: tests/fuzz/fuzz_pyargs.c $(BINDING_SRC) $(ENGINE_SRC)
	@mkdir -p $(dir $@)
	clang -Iengine -Ibinding $(PY_INC) -D_GNU_SOURCE -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS) $(PY_LIBS)

# The session's own parsing (magics, completion, inspection) on arbitrary
# text, through the CPython session.
$(BUILD)/fuzz/fuzz_session_replay: tests/fuzz/fuzz_session.c tests/fuzz/fuzz_driver.c $(PYSESSION_OBJ) $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(PY_INC) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_session.c tests/fuzz/fuzz_driver.c $(PYSESSION_OBJ) $(BUILD)/libnndb_py.a $(BUILD)/libnndb.a $(LDLIBS) $(PY_LIBS)

build/libfuzzer/fuzz_session: tests/fuzz/fuzz_session.c $(PYSESSION_SRC) $(BINDING_SRC) $(ENGINE_SRC)
	@mkdir -p $(dir $@)
	clang -Iengine -Ibinding $(PY_INC) -D_GNU_SOURCE -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS) $(PY_LIBS)

# The drill parser's target compiles drills/drill_parse.c (no language needed).
$(BUILD)/fuzz/fuzz_drill_replay: tests/fuzz/fuzz_drill.c drills/drill_parse.c tests/fuzz/fuzz_driver.c drills/drill.h $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/fuzz_drill.c drills/drill_parse.c tests/fuzz/fuzz_driver.c $(BUILD)/libnndb.a $(LDLIBS)

build/libfuzzer/fuzz_drill: tests/fuzz/fuzz_drill.c drills/drill_parse.c drills/drill.h $(ENGINE_SRC)
	@mkdir -p $(dir $@)
	clang -Iengine -Ibinding -Idrills -D_GNU_SOURCE -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ tests/fuzz/fuzz_drill.c drills/drill_parse.c $(ENGINE_SRC) $(LDLIBS)

build/libfuzzer/fuzz_wire: $(WIRE_FUZZ_SRC) kernel/kernel_wire.h
	@mkdir -p $(dir $@)
	clang -Ikernel -D_GNU_SOURCE -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -o $@ $(WIRE_FUZZ_SRC) $(WIRE_FUZZ_LIBS)

$(BUILD)/bench/%: bench/%.c $(BUILD)/libnndb.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

run: deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(BUILD)/nndb
	@$(BUILD)/nndb

unit: $(BUILD)/unit_tests
	$(BUILD)/unit_tests

test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) WERROR=1 build/nndb build/unit_tests build/session_tests build/test_noalloc
	@$(MAKE) --no-print-directory -j$(JOBS) WERROR=1 SANITIZE=1 build/asan/unit_tests build/asan/session_tests $(FUZZ_TARGETS:%=build/asan/fuzz/%_replay)
	@PYTHON=$(PYTHON) tests/run_all.sh

# The browser suite alone (make test runs it too): classic Notebook and
# headless Chromium; skipped, with the reason, where Chromium cannot start.
test-browser: deps
	@$(MAKE) --no-print-directory WERROR=1 build/nndb
	@PYTHON=$(PYTHON) tests/browser/run.sh

FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(filter-out tests/fuzz/fuzz_driver.c,$(wildcard tests/fuzz/fuzz_*.c)))

fuzz: deps $(FUZZ_TARGETS:%=build/libfuzzer/%)
	@for t in $(FUZZ_TARGETS); do \
	    mkdir -p build/corpus/$$t; \
	    echo "== $$t for $(FUZZ_SECONDS)s"; \
	    build/libfuzzer/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 build/corpus/$$t || exit 1; \
	done

# make install PREFIX=DIR: the binary into DIR/bin, the docs into
# DIR/share/doc/nndb and the kernelspec into DIR/share/jupyter/kernels/nndb,
# its argv pointing at the installed binary and its doc/ holding the docs as
# HTML (the kernel's help links).
PREFIX ?= /usr/local
.PHONY: install
install: $(BUILD)/nndb
	install -d $(PREFIX)/bin
	install -m 755 $(BUILD)/nndb $(BUILD)/nndb-kernel $(PREFIX)/bin/
	install -d $(PREFIX)/share/nndb
	rm -rf $(PREFIX)/share/nndb/python
	cp -r python $(PREFIX)/share/nndb/python
	find $(PREFIX)/share/nndb/python -name __pycache__ -prune -exec rm -rf {} +
	install -d $(PREFIX)/share/doc/nndb
	install -m 644 docs/*.md $(PREFIX)/share/doc/nndb/
	install -d $(PREFIX)/share/nndb/lessons
	install -m 644 drills/lessons/*.md $(PREFIX)/share/nndb/lessons/
	rm -rf $(PREFIX)/share/nndb/lessons/data
	install -d $(PREFIX)/share/nndb/lessons/data
	# -H: a data set linked from tests/fixtures is copied, the links inside
	# a recorded machine tree stay links.
	for d in drills/lessons/data/*; do cp -rH "$$d" $(PREFIX)/share/nndb/lessons/data/ || exit 1; done
	$(PREFIX)/bin/nndb install-kernel --prefix $(PREFIX)

# bench-full: every program's longer run, for a quiet machine (about 40 minutes)
bench-full: BENCH_ARGS = --full
bench bench-full: deps
	@$(MAKE) --no-print-directory build/nndb $(BENCH_SRC:%.c=build/%)
	@PYTHON=$(PYTHON) bench/run.sh $(BENCH_ARGS)

FORMAT_FILES = $(wildcard engine/*.[ch] engine/ops/*.[ch] engine/probe/*.[ch] binding/*.[ch] repl/*.[ch] kernel/*.[ch] \
               drills/*.[ch] tests/*.h tests/*/*.[ch] bench/*.c) nndb.c

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	rm -rf build

-include $(ENGINE_OBJ:.o=.d) $(BINDING_OBJ:.o=.d) $(PYSESSION_OBJ:.o=.d) $(UNIT_OBJ:.o=.d) $(REPL_OBJ:.o=.d) $(KERNEL_OBJ:.o=.d) $(DRILL_OBJ:.o=.d) $(BUILD)/nndb.d
