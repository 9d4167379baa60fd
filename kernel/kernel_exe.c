/* nndb-kernel: the Jupyter kernel's own executable.
 *
 * The kernel needs libzmq, OpenSSL, cJSON and libuuid; the REPL and `nndb
 * run` need none of them, and loading them costs milliseconds at every
 * start. So the kernel lives in this second binary beside nndb: `nndb
 * kernel` and `nndb install-kernel` hand over to it with exec, and the
 * kernelspec launches it directly.
 */
#include <stdio.h>
#include <string.h>

#include "kernel_main.h"
#include "kernel_spec.h"

int main(int argc, char **argv) {
    const char *cmd = argc > 1 ? argv[1] : "";
    if (!strcmp(cmd, "kernel")) return kernel_main(argc - 1, argv + 1);
    if (!strcmp(cmd, "install-kernel")) return kernel_spec_main(argc - 1, argv + 1);
    fprintf(stderr, "usage: nndb-kernel kernel -f CONNECTION_FILE\n"
                    "       nndb-kernel install-kernel [--user | --sys-prefix | --prefix DIR] "
                    "[--name NAME]\n"
                    "(normally started as `nndb kernel` / `nndb install-kernel`)\n");
    return 2;
}
