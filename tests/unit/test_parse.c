/* Parser tests: every syntax form through the S-expression dump, Python's
 * precedence, f-strings, scopes, error messages with positions and carets,
 * several errors in one input, lang_is_complete, and positions in
 * characters for non-ASCII source. */
#include <stdlib.h>
#include <string.h>

#include "../nn_test.h"
#include "lang.h"
#include "lang_parse.h"

/* The dump of [src] (or its formatted errors), malloc'ed. */
static char *dump(const char *src) {
    lang_module *m = lang_parse(src, strlen(src), NULL);
    lang_buf b;
    lang_buf_init(&b);
    if (!m) return strdup("(null)");
    if (m->nerrors == 0) {
        lang_ast_dump(&b, m);
    } else {
        for (int k = 0; k < m->nerrors; k++) lang_syntax_error_format(&b, m, &m->errors[k]);
    }
    lang_module_release(m);
    char *s = lang_buf_take(&b);
    lang_buf_free(&b);
    return s ? s : strdup("");
}

#define CHECK_DUMP(src, want)                                                                      \
    do {                                                                                           \
        char *got_ = dump(src);                                                                    \
        CHECK_MSG(strcmp(got_, want) == 0, "\n  source: %s\n  got:    %s\n  want:   %s", src,      \
                  got_, want);                                                                     \
        free(got_);                                                                                \
    } while (0)

/* The dump of one expression without the (expr ...) wrapper and newline. */
#define CHECK_EXPR(src, want) CHECK_DUMP(src, "(expr " want ")\n")

NN_TEST(parse_literals) {
    CHECK_EXPR("42", "42");
    CHECK_EXPR("0xff + 0b101 + 0o17 + 1_000", "(+ (+ (+ 255 5) 15) 1000)");
    CHECK_EXPR("1.5", "1.5");
    CHECK_EXPR("1e-3", "0.001");
    CHECK_EXPR("3e2", "300.0");
    CHECK_EXPR(".5", "0.5");
    CHECK_EXPR("1.", "1.0");
    CHECK_EXPR("'a' \"b\"", "\"ab\"");
    CHECK_EXPR("'\\n\\t\\\\\\'\\\"\\x41\\u00e9'", "\"\\n\\t\\\\'\\\"Aé\"");
    CHECK_EXPR("r'a\\nb'", "\"a\\\\nb\"");
    CHECK_EXPR("'''tri\nple'''", "\"tri\\nple\"");
    CHECK_EXPR("None, True, False, ...", "(tuple None True False ...)");
    CHECK_EXPR("9223372036854775807", "9223372036854775807");
}

NN_TEST(parse_displays) {
    CHECK_EXPR("[]", "(list)");
    CHECK_EXPR("()", "(tuple)");
    CHECK_EXPR("(1,)", "(tuple 1)");
    CHECK_EXPR("(1)", "1");
    CHECK_EXPR("[1, 2,]", "(list 1 2)");
    CHECK_EXPR("{}", "(dict)");
    CHECK_EXPR("{'a': 1, 'b': [2]}", "(dict (\"a\" 1) (\"b\" (list 2)))");
    CHECK_EXPR("[x * 2 for x in xs if x for y in x]",
               "(listcomp (* x@0 2) (for x@0 xs) (if x@0) (for y@1 x@0))");
    CHECK_EXPR("{k: v for k, v in d.items()}",
               "(dictcomp k@0 v@1 (for (tuple k@0 v@1) (call (attr d items))))");
    CHECK_EXPR("sum(p.numel() for p in ps)",
               "(call sum (genexp (call (attr p@0 numel)) (for p@0 ps)))");
}

NN_TEST(parse_trailers) {
    CHECK_EXPR("x[1:2, ::3, ..., None]", "(sub x (tuple (slice 1 2 _) (slice _ _ 3) ... None))");
    CHECK_EXPR("x[:]", "(sub x (slice _ _ _))");
    CHECK_EXPR("x[i]", "(sub x i)");
    CHECK_EXPR("x[:, 0]", "(sub x (tuple (slice _ _ _) 0))");
    CHECK_EXPR("model[0].weight.grad.std()",
               "(call (attr (attr (attr (sub model 0) weight) grad) std))");
    CHECK_EXPR("f(a, b=2, *c, **d)", "(call f a b=2 *c **d)");
    CHECK_EXPR("x.sum(dim=1, keepdim=True)", "(call (attr x sum) dim=1 keepdim=True)");
}

NN_TEST(parse_precedence) {
    CHECK_EXPR("-2**2", "(neg (** 2 2))");
    CHECK_EXPR("2**-1", "(** 2 (neg 1))");
    CHECK_EXPR("2**3**2", "(** 2 (** 3 2))");
    CHECK_EXPR("a@b+c", "(+ (@ a b) c)");
    CHECK_EXPR("a+b*c-d/e//f%g", "(- (+ a (* b c)) (% (// (/ d e) f) g))");
    CHECK_EXPR("not a == b", "(not (cmp a == b))");
    CHECK_EXPR("a < b <= c != d", "(cmp a < b <= c != d)");
    CHECK_EXPR("a in b and c not in d or e is not None",
               "(or (and (cmp a in b) (cmp c not in d)) (cmp e is not None))");
    CHECK_EXPR("a if b else c if d else e", "(ifexp b a (ifexp d c e))");
    CHECK_EXPR("x & y | z", "(| (& x y) z)");
    CHECK_EXPR("~x + -y", "(+ (invert x) (neg y))");
    CHECK_EXPR("not not x", "(not (not x))");
    CHECK_EXPR("lambda x, y=1: x + y", "(lambda (x (y 1)) (+ x@0 y@1))");
    CHECK_EXPR("-x.y[0]", "(neg (sub (attr x y) 0))");
}

NN_TEST(parse_fstrings) {
    CHECK_EXPR("f\"loss {loss.item():.4f}\"",
               "(fstr \"loss \" (fmt (call (attr loss item)) :(fstr \".4f\")))");
    CHECK_EXPR("f'{name!r} {{literal}} {x=}'",
               "(fstr (fmt name !r) \" {literal} \" (fmt x !r =\"x=\"))");
    CHECK_EXPR("f'{x:{w}.{p}f}'", "(fstr (fmt x :(fstr (fmt w) \".\" (fmt p) \"f\")))");
    CHECK_EXPR("f'{y!s:>8}{z:,}{e:e}'",
               "(fstr (fmt y !s :(fstr \">8\")) (fmt z :(fstr \",\")) (fmt e :(fstr \"e\")))");
    CHECK_EXPR("f'{d[\"k\"]}' 'tail'", "(fstr (fmt (sub d \"k\")) \"tail\")");
    CHECK_EXPR("f'{a, b}'", "(fstr (fmt (tuple a b)))");
    CHECK_EXPR("f'{x[1:2]}'", "(fstr (fmt (sub x (slice 1 2 _))))");
    CHECK_EXPR("f'{x=:.2f}'", "(fstr (fmt x =\"x=\" :(fstr \".2f\")))");
    CHECK_EXPR("rf'\\n{x}'", "(fstr \"\\\\n\" (fmt x))");
}

NN_TEST(parse_statements) {
    CHECK_DUMP("x = y = 1", "(assign x y 1)\n");
    CHECK_DUMP("a, *b = c", "(assign (tuple a (star b)) c)\n");
    CHECK_DUMP("[a, b] = 1, 2", "(assign (list a b) (tuple 1 2))\n");
    CHECK_DUMP("x.w[0, 1] = float('nan')",
               "(assign (sub (attr x w) (tuple 0 1)) (call float \"nan\"))\n");
    CHECK_DUMP("x += 1; y @= w; z **= 2",
               "(augassign += x 1)\n(augassign @= y w)\n(augassign **= z 2)\n");
    CHECK_DUMP("if a:\n    b\nelif c:\n    d\nelse:\n    e\n",
               "(if a (block (expr b)) (block (elif c (block (expr d)) (block (expr e)))))\n");
    CHECK_DUMP(
        "for i, (a, b) in enumerate(z):\n    continue\nelse:\n    pass\n",
        "(for (tuple i (tuple a b)) (call enumerate z) (block (continue)) (block (pass)))\n");
    CHECK_DUMP("while x: break", "(while x (block (break)))\n");
    CHECK_DUMP("def f(x, y=2, *args, k=1, **kw) -> int:\n    return x\n",
               "(def f (x (y 2) *args (kw:k 1) **kw) 5 (block (return x@0)))\n");
    CHECK_DUMP("def g(a, *, b):\n    return\n", "(def g (a kw:b) 2 (block (return)))\n");
    CHECK_DUMP("with no_grad(), open(p) as (a, b):\n    pass\n",
               "(with ((call no_grad)) ((call open p) as (tuple a b)) (block (pass)))\n");
    CHECK_DUMP("del a, b[0], c.d", "(del a (sub b 0) (attr c d))\n");
    CHECK_DUMP("assert x > 0, 'positive'", "(assert (cmp x > 0) \"positive\")\n");
    CHECK_DUMP("def h():\n    global n\n    n = 1\n",
               "(def h () 0 (block (global n) (assign n 1)))\n");
    CHECK_DUMP("x: int = 3", "(assign x 3)\n");
    CHECK_DUMP("# only a comment\n\n   \n", "");
    CHECK_DUMP("x = [1,\n     2] \\\n  + y", "(assign x (+ (list 1 2) y))\n");
}

NN_TEST(parse_magics) {
    CHECK_DUMP("%time x = f()", "(magic %time \"x = f()\")\n");
    CHECK_DUMP("%break matmul\n%who", "(magic %break \"matmul\")\n(magic %who \"\")\n");
    CHECK_DUMP("for i in x:\n    %step\n", "(for i x (block (magic %step \"\")))\n");
    CHECK_DUMP("%%time\nx = 1\ny = 2\n", "(magic %%time \"\\nx = 1\\ny = 2\")\n");
    CHECK_DUMP("x = 5 % 3", "(assign x (% 5 3))\n");
    /* The magic's arguments keep their position, for a parse of their own. */
    const char *src = "if a:\n    %time y = f(1)\n";
    lang_module *m = lang_parse(src, strlen(src), NULL);
    CHECK(m && m->nerrors == 0);
    if (m && m->nerrors == 0) {
        const lang_stmt *s = m->body.items[0]->u.if_.body.items[0];
        CHECK(s->kind == LANG_ST_MAGIC);
        CHECK(s->u.magic.args_pos.line == 2 && s->u.magic.args_pos.col == 11);
        lang_parse_opts o = {.first_line = 2, .first_col = 11, .first_ccol = 11, .no_magics = true};
        lang_module *sub = lang_parse(s->u.magic.args, s->u.magic.args_len, &o);
        CHECK(sub && sub->nerrors == 0 && sub->body.n == 1);
        if (sub && sub->body.n == 1) {
            const lang_expr *v = sub->body.items[0]->u.assign.value;
            CHECK(v->span.start.line == 2 && v->span.start.col == 15);
        }
        lang_module_release(sub);
    }
    lang_module_release(m);
}

NN_TEST(parse_scopes) {
    /* Module names are global; def locals get slots with parameters first;
     * reads of an enclosing def's locals are free; comprehension variables
     * do not leak. */
    CHECK_DUMP("def f(a):\n    b = a\n    g = lambda: a + b\n    return [a for a in b]\n",
               "(def f (a) 4 (block (assign b@1 a@0) (assign g@2 (lambda () (+ a@^1.0 b@^1.1))) "
               "(return (listcomp a@3 (for a@3 b@1)))))\n");
    CHECK_DUMP("x = [i for i in range(3)]\ni\n",
               "(assign x (listcomp i@0 (for i@0 (call range 3))))\n(expr i)\n");
    CHECK_DUMP("def f():\n    global x\n    x = 1\n    y = x\n",
               "(def f () 1 (block (global x) (assign x 1) (assign y@0 x)))\n");
}

NN_TEST(parse_expression_mode) {
    lang_parse_opts o = {.expression = true, .filename = "<p>"};
    const char *src = "out.abs().max() >\n 1e4";
    lang_module *m = lang_parse(src, strlen(src), &o);
    CHECK(m && m->nerrors == 0 && m->body.n == 1);
    lang_module_release(m);
    m = lang_parse("x = 1", 5, &o);
    CHECK(m && m->nerrors == 1);
    lang_module_release(m);
}

/* The formatted error list of [src]. */
#define CHECK_ERRORS(src, want) CHECK_DUMP(src, want)

NN_TEST(parse_error_messages) {
    CHECK_ERRORS("if x = 1:\n    pass\n",
                 "<input>:1:6: SyntaxError: expected ':' after the if condition; to compare, use "
                 "'==' ('=' assigns)\n    if x = 1:\n         ^\n");
    CHECK_ERRORS("y = f(1))\n",
                 "<input>:1:9: SyntaxError: unmatched ')'\n    y = f(1))\n            ^\n");
    CHECK_ERRORS("f() = 4\n",
                 "<input>:1:1: SyntaxError: cannot assign to a function call (to compare, use "
                 "'==')\n    f() = 4\n    ^~~\n");
    CHECK_ERRORS("return 5\n", "<input>:1:1: SyntaxError: 'return' outside a function\n    "
                               "return 5\n    ^~~~~~\n");
    CHECK_ERRORS("break\n",
                 "<input>:1:1: SyntaxError: 'break' outside a loop\n    break\n    ^~~~~\n");
    CHECK_ERRORS("if a:\n        b\n    c\n",
                 "<input>:3:1: SyntaxError: unindent does not match any outer indentation "
                 "level\n    c\n    ^~~~\n");
    CHECK_ERRORS("x = 1\n    y = 2\n",
                 "<input>:2:5: SyntaxError: unexpected indent\n    y = 2\n    ^\n");
    CHECK_ERRORS("if a:\nb\n", "<input>:1:5: SyntaxError: expected an indented block after 'if' "
                               "on line 1\n    if a:\n        ^\n");
    CHECK_ERRORS("\tx = 1\n", "<input>:1:1: SyntaxError: indentation contains a tab; indent with "
                              "spaces (4 per level)\n    x = 1\n    ^\n");
    CHECK_ERRORS("s = f'{x!z}'\n",
                 "<input>:1:9: SyntaxError: f-string: invalid conversion character: expected "
                 "'s', 'r', or 'a'\n    s = f'{x!z}'\n            ^~\n");
    CHECK_ERRORS("s = f'{x'\n", "<input>:1:7: SyntaxError: f-string: expecting '}' to close the "
                                "field opened here\n    s = f'{x'\n          ^~\n");
    CHECK_ERRORS("s = f'{}'\n", "<input>:1:7: SyntaxError: f-string: empty expression is not "
                                "allowed inside '{}'\n    s = f'{}'\n          ^~\n");
    CHECK_ERRORS("s = f'a}'\n", "<input>:1:8: SyntaxError: f-string: single '}' is not allowed; "
                                "write '}}' for a brace\n    s = f'a}'\n           ^\n");
    CHECK_ERRORS("x = 'abc\n", "<input>:1:5: SyntaxError: unterminated string: close it with ' on "
                               "the same line\n    x = 'abc\n        ^~~~\n");
    CHECK_ERRORS("x = 1 +\n", "<input>:1:8: SyntaxError: expected an expression, found end of "
                              "line\n    x = 1 +\n           ^\n");
    CHECK_ERRORS("from torch import *\n",
                 "<input>:1:19: SyntaxError: 'from torch import *' is not supported in nndb; "
                 "import the names you use (from torch import a, b)\n    from torch import *\n"
                 "                      ^\n");
    CHECK_ERRORS("from .model import GPT\n",
                 "<input>:1:6: SyntaxError: relative imports are not supported in nndb (no "
                 "packages); use the module's full name\n    from .model import GPT\n         ^\n");
    CHECK_DUMP("import torch\n", "(import (torch as torch))\n");
    CHECK_DUMP("import torch.nn as nn, os.path\n",
               "(import (torch.nn as nn) (os.path as os top))\n");
    CHECK_DUMP("from torch.utils.data import (Dataset,\n DataLoader as DL,)\n",
               "(import (torch.utils.data Dataset as Dataset) (torch.utils.data DataLoader as "
               "DL))\n");
    CHECK_ERRORS("f(a=1, 2)\n", "<input>:1:8: SyntaxError: positional argument follows keyword "
                                "argument; move it before the keyword arguments\n    f(a=1, 2)\n  "
                                "         ^\n");
    CHECK_ERRORS("x = 007\n", "<input>:1:5: SyntaxError: leading zeros in a decimal integer are "
                              "not allowed; use 0o for octal\n    x = 007\n        ^~~\n");
    CHECK_ERRORS("x = 99999999999999999999\n",
                 "<input>:1:5: SyntaxError: integer literal too large (nndb integers are "
                 "64-bit)\n    x = 99999999999999999999\n        ^~~~~~~~~~~~~~~~~~~~\n");
    CHECK_ERRORS("a, b += 1\n", "<input>:1:1: SyntaxError: augmented assignment needs a single "
                                "target, not a tuple; assign each one\n    a, b += 1\n    ^~~~\n");
    CHECK_ERRORS("x = (1,\n     2\ny = 3\n",
                 "<input>:1:5: SyntaxError: '(' was never closed\n    x = (1,\n        ^\n");
}

NN_TEST(parse_many_errors) {
    /* Every error is reported, each at its own line and column. */
    const char *src = "x = )\n"
                      "def f(:\n"
                      "    return 1\n"
                      "y = [1, 2\n"
                      "    3]\n"
                      "for i in range(3)\n"
                      "    print(i +)\n"
                      "ok = 1\n"
                      "z = 2 +* 3\n";
    lang_module *m = lang_parse(src, strlen(src), NULL);
    CHECK(m != NULL);
    if (!m) return;
    int want[][2] = {{1, 5}, {2, 7}, {5, 5}, {6, 18}, {7, 14}, {9, 8}};
    CHECK_MSG(m->nerrors == 6, "got %d errors", m->nerrors);
    for (int k = 0; k < m->nerrors && k < 6; k++) {
        CHECK_MSG(m->errors[k].span.start.line == want[k][0] &&
                      m->errors[k].span.start.col == want[k][1],
                  "error %d at %d:%d (%s), want %d:%d", k, m->errors[k].span.start.line,
                  m->errors[k].span.start.col, m->errors[k].message, want[k][0], want[k][1]);
        CHECK(!m->errors[k].at_eof);
    }
    CHECK(!lang_module_incomplete(m));
    lang_module_release(m);
}

NN_TEST(parse_unicode_positions) {
    /* Columns count bytes and characters; carets line up under wide
     * characters (two cells each). */
    const char *src = "s = 'é日本' + )\n";
    lang_module *m = lang_parse(src, strlen(src), NULL);
    CHECK(m && m->nerrors == 1);
    if (m && m->nerrors == 1) {
        CHECK(m->errors[0].span.start.col == 18);  /* bytes: é is 2, 日本 3 each */
        CHECK(m->errors[0].span.start.ccol == 13); /* characters */
        lang_buf b;
        lang_buf_init(&b);
        lang_syntax_error_format(&b, m, &m->errors[0]);
        CHECK_MSG(strcmp(b.data, "<input>:1:13: SyntaxError: unmatched ')'\n"
                                 "    s = 'é日本' + )\n"
                                 "                  ^\n") == 0,
                  "%s", b.data);
        lang_buf_free(&b);
    }
    lang_module_release(m);
    const char *src2 = "naïve = 1\nπ = naïve + 日本\n";
    m = lang_parse(src2, strlen(src2), NULL);
    CHECK(m && m->nerrors == 0);
    if (m && m->nerrors == 0) {
        const lang_expr *v = m->body.items[1]->u.assign.value;
        CHECK(v->u.bin.right->span.start.col == 15 && v->u.bin.right->span.start.ccol == 13);
        CHECK(v->u.bin.right->span.end.ccol == 15);
    }
    lang_module_release(m);
    CHECK_ERRORS("x = 1 × 2\n", "<input>:1:7: SyntaxError: invalid character '×' (U+00D7)\n"
                                "    x = 1 × 2\n          ^\n");
    CHECK_ERRORS("x = '\xff'\n", "<input>:1:6: SyntaxError: invalid UTF-8 byte 0xFF in the "
                                 "source\n    x = '\xff'\n         ^\n");
}

static const char *completeness(const char *code, int *indent) {
    lang_completeness c = lang_is_complete(code, indent);
    return c == LANG_COMPLETE ? "complete" : c == LANG_INCOMPLETE ? "incomplete" : "invalid";
}

#define CHECK_COMPLETE(code, want, want_indent)                                                    \
    do {                                                                                           \
        int ind_ = -1;                                                                             \
        const char *got_ = completeness(code, &ind_);                                              \
        CHECK_MSG(strcmp(got_, want) == 0 && ind_ == (want_indent), "%s: got %s %d, want %s %d",   \
                  code, got_, ind_, want, want_indent);                                            \
    } while (0)

NN_TEST(parse_is_complete) {
    CHECK_COMPLETE("", "complete", 0);
    CHECK_COMPLETE("x = 1", "complete", 0);
    CHECK_COMPLETE("x = 1\n", "complete", 0);
    CHECK_COMPLETE("%time f()", "complete", 0);
    CHECK_COMPLETE("print(1,", "incomplete", 0);
    CHECK_COMPLETE("x = [1,\n  2", "incomplete", 0);
    CHECK_COMPLETE("s = '''abc", "incomplete", 0);
    CHECK_COMPLETE("x = 1 + \\", "incomplete", 0);
    CHECK_COMPLETE("if x:", "incomplete", 4);
    CHECK_COMPLETE("if x:\n", "incomplete", 4);
    CHECK_COMPLETE("for i in x:\n    if i:", "incomplete", 8);
    CHECK_COMPLETE("for i in x:\n    y = i", "incomplete", 4);
    CHECK_COMPLETE("for i in x:\n    y = i\n", "incomplete", 4);
    CHECK_COMPLETE("for i in x:\n    y = i\n\n", "complete", 0);
    CHECK_COMPLETE("for i in x:\n    y = (i +\n", "incomplete", 4);
    CHECK_COMPLETE("def f():\n    return 1\n    ", "complete", 0);
    CHECK_COMPLETE("if a:\n    b\nelse:", "incomplete", 4);
    CHECK_COMPLETE("def f():\n    pass\nx = f()", "complete", 0);
    CHECK_COMPLETE("x = )", "invalid", 0);
    CHECK_COMPLETE("x = 1 +", "invalid", 0);
    CHECK_COMPLETE("x = 'abc", "invalid", 0);
    CHECK_COMPLETE("  x = 1", "invalid", 0);
    CHECK_COMPLETE("x = (1 +\ny = )", "invalid", 0);
    CHECK_COMPLETE("if x:\ny = 1", "invalid", 0);
}

NN_TEST(parse_deep_nesting_is_an_error) {
    char src[2000];
    memset(src, '(', 1000);
    src[1000] = 0;
    lang_module *m = lang_parse(src, strlen(src), NULL);
    CHECK(m && m->nerrors >= 1);
    lang_module_release(m);
    memset(src, '-', 1000);
    src[1000] = '1';
    src[1001] = 0;
    m = lang_parse(src, strlen(src), NULL);
    CHECK(m && m->nerrors == 1 && strstr(m->errors[0].message, "nested too deeply"));
    lang_module_release(m);
}
