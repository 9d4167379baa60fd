/* py_embed: start the embedded interpreter (see py_embed.h). */
#include "py_embed.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "py.h"

static PyObject *init_torch_c(void) {
    return py_module_init();
}

static int is_dir_with_torch(const char *dir) {
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/torch/__init__.py", dir);
    return access(p, R_OK) == 0;
}

const char *py_embed_python_dir(void) {
    static char dir[PATH_MAX];
    static int done;
    if (done) return dir[0] ? dir : NULL;
    done = 1;
    const char *env = getenv("NNDB_PYTHON_DIR");
    if (env && *env && is_dir_with_torch(env)) {
        snprintf(dir, sizeof dir, "%s", env);
        return dir;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    /* build/nndb, build/asan/nndb and build/asan/fuzz/X in the source tree;
     * PREFIX/bin/nndb installed */
    static const char *rel[] = {"/../python", "/../../python", "/../../../python",
                                "/../share/nndb/python"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char cand[PATH_MAX];
        snprintf(cand, sizeof cand, "%s%s", exe, rel[i]);
        char *real = realpath(cand, NULL);
        if (real && is_dir_with_torch(real)) {
            snprintf(dir, sizeof dir, "%s", real);
            free(real);
            return dir;
        }
        free(real);
    }
    dir[0] = 0;
    return NULL;
}

static int fail_status(PyStatus st) {
    if (PyStatus_IsExit(st)) return st.exitcode;
    fprintf(stderr, "nndb: cannot start Python: %s%s%s\n", st.func ? st.func : "",
            st.func ? ": " : "", st.err_msg ? st.err_msg : "unknown error");
    return 1;
}

/* The steps both ways of starting share: torch._C registered, the
 * interpreter started from [config] (cleared here), nndb's packages first on
 * sys.path (before the script's folder and Debian's dist-packages, whose
 * torch is the test reference, not ours), and nndb's import hooks loaded.
 * Returns 0, or an exit status after saying why. */
/* Text files and the standard streams are UTF-8 whatever the locale (a
 * course's names.txt, a notebook's output), as python3 does under the C
 * locale (PEP 540); the locale itself is still set from the environment,
 * for readline and strftime. Before any PyConfig_SetBytes* call, which
 * would pre-initialize with the defaults. 0, or an exit status. */
static int preinit(void) {
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    pre.configure_locale = 1;
    PyStatus st = Py_PreInitialize(&pre);
    return PyStatus_Exception(st) ? fail_status(st) : 0;
}

/* sys.executable names the nndb binary (the front end's sibling `nndb` for
 * the kernel's binary), so `subprocess.run([sys.executable, "-c", ...])`
 * and multiprocessing's spawn start nndb's Python with nndb's torch: nndb
 * takes python3's arguments as `nndb python` does (nndb.c). Set after
 * start-up, so CPython's own path search is left as it was. */
static void set_executable(void) {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash && strcmp(slash + 1, "nndb") != 0) {
        char sib[PATH_MAX];
        snprintf(sib, sizeof sib, "%.*s/nndb", (int)(slash - exe), exe);
        if (access(sib, X_OK) != 0) return;
        snprintf(exe, sizeof exe, "%s", sib);
    }
    PyObject *path = PyUnicode_DecodeFSDefault(exe);
    if (!path || PySys_SetObject("executable", path) < 0 ||
        PySys_SetObject("_base_executable", path) < 0)
        PyErr_Clear();
    Py_XDECREF(path);
}

static int start(PyConfig *config, const char *pydir) {
    if (PyImport_AppendInittab("torch._C", init_torch_c) < 0) {
        PyConfig_Clear(config);
        fprintf(stderr, "nndb: cannot register torch._C\n");
        return 1;
    }
    PyStatus st = PyConfig_SetBytesString(config, &config->program_name, "nndb");
    if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(config);
    PyConfig_Clear(config);
    if (PyStatus_Exception(st)) return fail_status(st);
    PyObject *sys_path = PySys_GetObject("path"), *dir = PyUnicode_DecodeFSDefault(pydir);
    if (!sys_path || !dir || PyList_Insert(sys_path, 0, dir) < 0) {
        Py_XDECREF(dir);
        PyErr_Print();
        Py_Finalize();
        return 1;
    }
    Py_DECREF(dir);
    set_executable();
    PyObject *boot = PyImport_ImportModule("nndb._boot");
    if (!boot) {
        PyErr_Print();
        fprintf(stderr, "nndb: nndb's import hooks did not load (from %s)\n", pydir);
        Py_Finalize();
        return 1;
    }
    Py_DECREF(boot);
    return 0;
}

static const char *find_python_dir(void) {
    const char *pydir = py_embed_python_dir();
    if (!pydir)
        fprintf(stderr, "nndb: cannot find nndb's Python packages (python/torch); set "
                        "NNDB_PYTHON_DIR to the folder that holds them\n");
    return pydir;
}

int py_embed_init(void) {
    if (Py_IsInitialized()) return 0;
    const char *pydir = find_python_dir();
    if (!pydir) return 1;
    int rc = preinit();
    if (rc) return rc;
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    /* The front end owns the signals (its SIGINT handler interrupts the
     * session) and the command line; stdio is the front end's too. */
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    return start(&config, pydir);
}

/* The PYTHON* variables a script's user expects python3 to honour, read
 * here because the config is otherwise isolated from the environment (a
 * PYTHONHOME or PYTHONDONTWRITEBYTECODE meant for another interpreter
 * would break or slow nndb's start): unbuffered output (logs that follow a
 * run through a pipe), the hash seed, warning filters and faulthandler.
 * PYTHONPATH is nndb._boot's (every front end). Command-line options (-u,
 * -W, -X) still apply on top. 0, or an exit status. */
static int env_options(PyConfig *config) {
    const char *v = getenv("PYTHONUNBUFFERED");
    if (v && *v) config->buffered_stdio = 0;
    v = getenv("PYTHONFAULTHANDLER");
    if (v && *v) config->faulthandler = 1;
    v = getenv("PYTHONHASHSEED");
    if (v && *v && strcmp(v, "random") != 0) {
        char *end;
        unsigned long seed = strtoul(v, &end, 10);
        if (*end || seed > 4294967295UL) {
            fprintf(stderr, "Fatal Python error: PYTHONHASHSEED must be \"random\" or an "
                            "integer in range [0; 4294967295]\n");
            return 1;
        }
        config->use_hash_seed = 1;
        config->hash_seed = seed;
    }
    PyStatus st = PyStatus_Ok();
    v = getenv("PYTHONWARNINGS");
    char *filters = v && *v ? strdup(v) : NULL, *save = NULL;
    for (char *tok = filters ? strtok_r(filters, ",", &save) : NULL; tok && !PyStatus_Exception(st);
         tok = strtok_r(NULL, ",", &save)) {
        wchar_t *wt = Py_DecodeLocale(tok, NULL);
        if (wt) {
            st = PyWideStringList_Append(&config->warnoptions, wt);
            PyMem_RawFree(wt);
        }
    }
    free(filters);
    return PyStatus_Exception(st) ? fail_status(st) : 0;
}

int py_embed_main(int argc, char **argv) {
    const char *pydir = find_python_dir();
    if (!pydir) return 1;
    int rc = preinit();
    if (rc) return rc;
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    /* as `python3 FILE`: the script's folder first on sys.path, Ctrl-C is
     * KeyboardInterrupt, the command line parsed as python3 parses it */
    config.isolated = 0; /* isolated mode would force safe_path; the rest of it stays */
    config.safe_path = 0;
    config.install_signal_handlers = 1;
    config.parse_argv = 1;
    config.buffered_stdio = 1;
    rc = env_options(&config);
    if (rc) {
        PyConfig_Clear(&config);
        return rc;
    }
    PyStatus st = PyConfig_SetBytesArgv(&config, argc, argv);
    if (PyStatus_Exception(st)) {
        PyConfig_Clear(&config);
        return fail_status(st);
    }
    rc = start(&config, pydir);
    if (rc) return rc;
    return Py_RunMain();
}
