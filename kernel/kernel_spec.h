/* kernel_spec: `nndb install-kernel`, which writes a standard Jupyter
 * kernelspec (kernel.json, logo-32x32.png, logo-64x64.png) so Notebook,
 * JupyterLab, jupyter console, nbclient, VS Code and JupyterHub find nndb.
 *
 * Ownership: kernel_spec_logo_png returns a malloc'ed buffer the caller frees.
 */
#ifndef KERNEL_SPEC_H
#define KERNEL_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* [argv][0] is "install-kernel". Returns the process exit status. */
int kernel_spec_main(int argc, char **argv);

/* The nndb logo as a [size] x [size] RGBA PNG; *len gets its length. */
uint8_t *kernel_spec_logo_png(int size, size_t *len);

#endif
