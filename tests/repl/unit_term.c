/* unit_term: checks of the REPL's painting and history helpers that need no
 * terminal (repl_term.c, repl_history.c). Built and run by test_repl.py
 * (test_term_units); prints "N passed, M failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../repl/repl_history.h"
#include "../../repl/repl_term.h"

static int passed, failed;

static void check(int ok, const char *what, const char *got) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s: got [%s]\n", what, got ? got : "(null)");
    }
}

/* repl_write_result into a string. */
static char *result(const char *text, bool colour) {
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    repl_write_result(f, text, colour);
    fclose(f);
    return buf;
}

/* lang_err_name is the language's; the error writer only needs a name. */
const char *lang_err_name(lang_err e) {
    (void)e;
    return "Error";
}

int main(void) {
    char *s = result("tensor([1.5000, nan], dtype=float64, grad_fn=<AddBackward0>)", true);
    check(strstr(s, "\033[33m1.5000\033[0m") != NULL, "number painted", s);
    check(strstr(s, "\033[33mnan\033[0m") != NULL, "nan painted", s);
    check(strstr(s, "float64") != NULL && strstr(s, "AddBackward0") != NULL,
          "digits in names stay plain", s);
    free(s);
    s = result("1e-3 2.5E+10 x2", true);
    check(strstr(s, "\033[33m1e-3\033[0m") && strstr(s, "\033[33m2.5E+10\033[0m") &&
              strstr(s, " x2"),
          "exponents", s);
    free(s);
    s = result("tensor([1.])", false);
    check(!strcmp(s, "tensor([1.])"), "no colour: text unchanged", s);
    free(s);

    char *tb[] = {"  File \"<cell 1>\", line 1, in <module>\n", "    undefined_name\n",
                  "    ^^^^^^^^^^^^^^\n"};
    lang_error_info e = {LANG_ERR_NAME, "NameError", "name 'undefined_name' is not defined", tb, 3};
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    repl_write_error(f, &e, false);
    fclose(f);
    check(!strcmp(buf, "Traceback (most recent call last):\n"
                       "  File \"<cell 1>\", line 1, in <module>\n"
                       "    undefined_name\n    ^^^^^^^^^^^^^^\n"
                       "NameError: name 'undefined_name' is not defined\n"),
          "error text", buf);
    free(buf);
    f = open_memstream(&buf, &n);
    repl_write_error(f, &e, true);
    fclose(f);
    check(strstr(buf, "\033[1;31mNameError\033[0m: name") && strstr(buf, "\033[31m    ^^^") &&
              strstr(buf, "\033[36m  File"),
          "error colour", buf);
    free(buf);

    /* A syntax error states itself in the traceback: no header, no repeat. */
    char *stb[] = {"x.nn:1:5: SyntaxError: '(' was never closed\n", "    x = (1 +\n",
                   "        ^\n"};
    lang_error_info se = {LANG_ERR_SYNTAX, "SyntaxError", "'(' was never closed", stb, 3};
    f = open_memstream(&buf, &n);
    repl_write_error(f, &se, false);
    fclose(f);
    check(!strcmp(buf, "x.nn:1:5: SyntaxError: '(' was never closed\n    x = (1 +\n        ^\n"),
          "syntax error text", buf);
    free(buf);
    f = open_memstream(&buf, &n);
    repl_write_error(f, &se, true);
    fclose(f);
    check(strstr(buf, "\033[36mx.nn:1:5: \033[0m\033[1;31mSyntaxError\033[0m: '('") != NULL,
          "syntax error colour", buf);
    free(buf);

    /* One entry per frame, several lines each: every line painted alone. */
    char *ftb[] = {"  File \"a.nn\", line 4, in <module>\n    f(x)\n    ^~~~\n",
                   "  File \"a.nn\", line 2, in f\n    return a @ a\n           ^~~~~\n"};
    lang_error_info fe = {LANG_ERR_SHAPE, "ShapeError", "inner dims differ", ftb, 2};
    f = open_memstream(&buf, &n);
    repl_write_error(f, &fe, true);
    fclose(f);
    check(strstr(buf, "\033[36m  File \"a.nn\", line 2, in f\033[0m\n    return a @ a\n"
                      "\033[31m           ^~~~~\033[0m\n") != NULL,
          "frames painted line by line", buf);
    free(buf);

    lang_error_info bare = {LANG_ERR_INTERRUPT, "KeyboardInterrupt", "", NULL, 0};
    f = open_memstream(&buf, &n);
    repl_write_error(f, &bare, false);
    fclose(f);
    check(!strcmp(buf, "KeyboardInterrupt\n"), "bare error", buf);
    free(buf);

    char line[512];
    repl_progress_line(line, sizeof line, 60, 50, 100, "epoch 1");
    check(strstr(line, "epoch 1 |") && strstr(line, " 50% 50/100") && strstr(line, "█"),
          "progress half", line);
    repl_progress_line(line, sizeof line, 60, 7, 0, "batches");
    check(!strcmp(line, "batches 7"), "progress unknown total", line);
    repl_progress_line(line, sizeof line, 60, 200, 100, NULL);
    check(strstr(line, "100% 100/100") != NULL, "progress clamps", line);

    check(repl_is_exit_request(" exit() \n") && repl_is_exit_request("quit") &&
              !repl_is_exit_request("exit_code = 1") && !repl_is_exit_request("exit(1)"),
          "exit words", NULL);

    setenv("XDG_STATE_HOME", "/tmp/xdg", 1);
    char *p = repl_history_path();
    check(p && !strcmp(p, "/tmp/xdg/nndb/history"), "XDG_STATE_HOME", p);
    free(p);
    setenv("XDG_STATE_HOME", "relative/dir", 1);
    setenv("HOME", "/home/u", 1);
    p = repl_history_path();
    check(p && !strcmp(p, "/home/u/.local/state/nndb/history"), "relative XDG ignored", p);
    free(p);

    char dir[] = "/tmp/nndb-unit-XXXXXX";
    if (mkdtemp(dir)) {
        char deep[256];
        snprintf(deep, sizeof deep, "%s/a/b/c/history", dir);
        check(repl_mkdirs_for(deep), "mkdirs", deep);
        snprintf(deep, sizeof deep, "rm -rf '%s'", dir);
        if (system(deep) != 0) printf("(could not remove %s)\n", dir);
    }

    setenv("NO_COLOR", "1", 1);
    check(!repl_colour_wanted(1), "NO_COLOR", NULL);
    setenv("NO_COLOR", "", 1);
    setenv("TERM", "dumb", 1);
    check(!repl_colour_wanted(1), "TERM=dumb", NULL);

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
