/* nndb: command-line entry point. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    (void)argc;
    (void)argv;
    printf("nndb\n");
    return 0;
}
