/* py_embed: nndb's embedded CPython. Starts Debian's libpython3.11 with an
 * isolated configuration (no user site, PYTHON* variables ignored), nndb's
 * Python packages first on sys.path and Debian's dist-packages after them,
 * and the engine registered as the built-in module torch._C. A meta-path
 * finder (python/nndb/_boot.py) makes `import torch` and `import
 * torchvision` resolve to nndb's packages, never to Debian's python3-torch.
 */
#ifndef PY_EMBED_H
#define PY_EMBED_H

/* The folder holding nndb's Python packages (torch/, torchvision/, nndb/):
 * $NNDB_PYTHON_DIR, else python/ beside the build folder, else
 * PREFIX/share/nndb/python. NULL when none is found. Static storage. */
const char *py_embed_python_dir(void);

/* Run [argc] [argv] as `python3 argv...` does, with nndb's torch: a script
 * path (its folder first on sys.path, __name__ == "__main__"), -c CODE,
 * -m MODULE, or nothing (CPython's interactive loop). Returns the exit
 * status (1 after an uncaught exception, SystemExit's code) after
 * finalizing the interpreter. */
int py_embed_main(int argc, char **argv);

/* Start the interpreter for an embedding front end (the CPython session,
 * py_session.c): the same isolated configuration, packages and hooks, but
 * no command line and no signal handlers of CPython's own. Does nothing
 * when it runs already. 0 on success, else a status after saying why on
 * stderr. The calling thread holds the GIL afterwards. */
int py_embed_init(void);

#endif
