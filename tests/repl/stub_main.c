/* stub_main: the REPL's share of nndb.c's dispatch, for the stub binary
 * (tests/repl/build_stub.sh), so that testing the front end alone does not
 * need the kernel, the probes or the rest of nndb.c. The real dispatch is
 * tested by running tests/repl/run.sh against build/nndb. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../repl/repl.h"

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : NULL;
    if (!cmd) return isatty(0) ? repl_interactive("0.1.0") : repl_run_script(NULL);
    if (!strcmp(cmd, "run") && argc == 3) return repl_run_script(argv[2]);
    if (!strcmp(cmd, "help") && argc > 2) return repl_help_topic(argv[2]);
    if (!strcmp(cmd, "--help")) {
        printf("usage: nndb [command]\n  run FILE         run a Python script (FILE.py)\n");
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("nndb 0.1.0\n");
        return 0;
    }
    fprintf(stderr, "nndb (stub): unknown command '%s'\n", cmd);
    return 2;
}
