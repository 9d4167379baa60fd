/* kernel_main: `nndb kernel -f CONNECTION_FILE`, the Jupyter kernel process:
 * binds the five sockets, starts one thread per socket, runs the language
 * on the shell thread until a shutdown_request. See docs/kernel.md.
 */
#ifndef KERNEL_MAIN_H
#define KERNEL_MAIN_H

/* [argv][0] is "kernel". Returns the process exit status (0 after a
 * shutdown, 1 when the kernel could not start, 2 on bad usage). */
int kernel_main(int argc, char **argv);

#endif
