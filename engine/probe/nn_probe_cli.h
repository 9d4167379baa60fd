/* nn_probe_cli: the `nndb probe [--json]` and `nndb doctor [--json]` commands.
 *
 * argv[0] names the command ("probe" or "doctor"). Reports go to [out], usage
 * errors to [err]; both streams stay the caller's. Colour is used only when
 * [out] is a terminal and NO_COLOR is unset or empty.
 */
#ifndef NN_PROBE_CLI_H
#define NN_PROBE_CLI_H

#include <stdio.h>

/* Returns the exit status: 0 ok; for doctor 1 when any finding is warn or worse;
 * 2 for bad usage; 3 when the probe could not run (out of memory). */
int nn_probe_cli(int argc, char **argv, FILE *out, FILE *err);

#endif
