/* fuzz_eval: parse and evaluate arbitrary bytes in a fresh session.
 *
 * Each input is a program. It runs with a step budget (statements and
 * builtin loop items), a small limit on lists and strings, a low recursion
 * limit and an engine memory cap, so infinite loops and huge allocations end
 * as errors. Nothing may crash, trip a sanitizer or leak: after the session
 * is freed every engine byte must be back in the pool. Built with libFuzzer
 * (`make fuzz`, seed corpus: tests/lang/ *.nn) and replayed by
 * tests/fuzz/fuzz_driver.c in `make test`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang_eval.h"
#include "nn_mem.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Random bytes rarely parse; an input whose first byte is odd is read as
 * token numbers instead, so the replayed inputs reach the evaluator too. */
static const char *const tokens[] = {
    "x",
    "y",
    "xs",
    "d",
    "f",
    "s",
    " = ",
    "1",
    "0",
    "-1",
    "2.5",
    "'ab'",
    "None",
    "True",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ", ",
    ": ",
    "\n",
    "\n    ",
    "\n        ",
    " + ",
    " - ",
    " * ",
    " / ",
    " // ",
    " % ",
    " ** ",
    " == ",
    " < ",
    " and ",
    " or ",
    "not ",
    " in ",
    "for i in range(3):",
    "while x < 5:",
    "if x:",
    "else:",
    "def f(a, b=2, *r, **k):",
    "return a",
    "lambda a: a",
    "print(",
    "len(",
    "sum(",
    "sorted(",
    "list(",
    "dict(",
    "str(",
    "int(",
    "float(",
    "zip(",
    "enumerate(",
    ".append(",
    ".pop(",
    ".split(",
    ".join(",
    ".items()",
    ".keys()",
    "[0]",
    "[1:]",
    "[::-1]",
    "f\"{x:.2f}\"",
    "'%d' % x",
    "x += 1",
    "del x",
    "assert x",
    "break",
    "continue",
    "with no_grad():",
    "tensor([1.0, 2.0])",
    "zeros(2, 3)",
    ".sum()",
    ".shape",
    "xs = []",
    "d = {}",
    "global x",
    "*r",
    "**k",
    "x, y = ",
    "[i for i in xs]",
    "{i: i for i in range(2)}",
    "%who",
    "%seed 1",
    "%time x = 1",
    "10**20",
    "2**62",
    "range(10**9)",
    "exit()",
    "help(len)",
    /* the debugger: without input its stops are tracepoints */
    "%break tanh",
    "%break nan",
    "%break backward if out",
    "%delete all",
    "%anomaly on",
    "breakpoint()",
    "%graph",
    "tanh(",
    "log(",
    "tensor([0.0, 1.0], requires_grad=True)",
    ".backward()",
};

static char *from_tokens(const uint8_t *data, size_t size) {
    size_t nt = sizeof tokens / sizeof tokens[0];
    lang_buf b;
    lang_buf_init(&b);
    for (size_t i = 1; i < size; i++) {
        lang_buf_puts(&b, tokens[data[i] % nt]);
    }
    return lang_buf_take(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static bool capped;
    if (!capped) {
        nn_mem_set_cap((size_t)64 << 20);
        capped = true;
    }
    if (size > 8192) return 0;
    char *code;
    if (size > 0 && (data[0] & 1)) {
        code = from_tokens(data, size);
    } else {
        code = malloc(size + 1);
        if (!code) return 0;
        memcpy(code, data, size);
        code[size] = 0;
    }
    size_t before = nn_mem_get_stats().in_use;
    lang_session *s = lang_session_new(NULL);
    if (!s) {
        free(code);
        return 0;
    }
    lang_vm *vm = lang_session_vm(s);
    vm->step_limit = 20000;
    vm->alloc_limit = (size_t)1 << 20;
    vm->max_depth = 100;
    vm->sandbox = true;
    lang_result r;
    lang_exec(s, code, "<fuzz>", true, &r);
    lang_result_free(&r);
    /* A second input in the same session exercises state that survives. */
    lang_exec(s, code, "<fuzz 2>", false, &r);
    lang_result_free(&r);
    lang_session_free(s);
    free(code);
    size_t after = nn_mem_get_stats().in_use;
    if (after != before) {
        fprintf(stderr, "fuzz_eval: %zu engine bytes leaked\n", after - before);
        abort();
    }
    return 0;
}
