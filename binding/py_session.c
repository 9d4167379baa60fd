/* py_session: sessions, cells, interrupts and the extension seam of lang.h
 * over embedded CPython (see py_session.h). */
#include "py_session.h"

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_buf.h"
#include "py.h"
#include "py_debug.h"
#include "py_embed.h"

/* What the session keeps of an observed cell's output (lang.h: 4 KiB). */
#define OUTPUT_KEEP 4096

typedef struct ext_magic {
    char *name, *signature, *doc;
    lang_ext_magic_fn fn;
    void *user;
    void (*free_user)(void *user);
} ext_magic;

struct lang_session {
    lang_frontend fe;
    PyObject *shell;  /* nndb.session.Session */
    pthread_t thread; /* the thread that made the session runs its code */
    ext_magic *magics;
    int n_magics;
    lang_observer_fn observer;
    void *observer_user;
    nn_buf output;    /* the running cell's first OUTPUT_KEEP bytes of output */
    char *fail_ename; /* set by lang_session_fail inside an extension magic */
    char *fail_msg;
    lang_err fail_cls;
    bool exit_requested;
    int exit_code;
};

static PyObject *session_module; /* nndb.session, for the process's life */
static int script_argc;
static const char *const *script_argv;

/* ---- the front end as a Python object ----
 * _nndb_frontend.Frontend: what nndb/session.py calls to reach the front
 * end's callbacks and the extension magics. It points at its session; the
 * session clears the pointer when it goes, so a Frontend that outlives it
 * (kept by a user's thread) goes quiet instead of crashing. */
typedef struct frontend_obj {
    PyObject_HEAD lang_session *s;
} frontend_obj;

static void keep_output(lang_session *s, const char *text, size_t len) {
    if (s->output.len >= OUTPUT_KEEP) return;
    size_t room = OUTPUT_KEEP - s->output.len;
    nn_buf_add(&s->output, text, len < room ? len : room);
}

static void stream_out(lang_session *s, lang_stream which, const char *text, size_t len) {
    keep_output(s, text, len);
    if (s->fe.stream && len) s->fe.stream(s->fe.user, which, text, len);
}

static PyObject *fe_write(PyObject *self, PyObject *args) {
    int which;
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "is#", &which, &text, &len)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (s) stream_out(s, which == 2 ? LANG_STDERR : LANG_STDOUT, text, (size_t)len);
    Py_RETURN_NONE;
}

/* A list of (mime, text) pairs into [m]; -1 with an exception on a bad item. */
static int bundle_from_list(PyObject *list, lang_mime *m) {
    PyObject *seq = PySequence_Fast(list, "a display bundle must be a list of (mime, data)");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        const char *mime, *data;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ss", &mime, &data)) {
            Py_DECREF(seq);
            return -1;
        }
        char *copy = strdup(data);
        if (!copy) {
            Py_DECREF(seq);
            PyErr_NoMemory();
            return -1;
        }
        lang_mime_add(m, mime, copy);
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *fe_display(PyObject *self, PyObject *args) {
    PyObject *list;
    const char *display_id = NULL;
    int update = 0;
    if (!PyArg_ParseTuple(args, "O|zp", &list, &display_id, &update)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    lang_mime m;
    lang_mime_init(&m);
    if (bundle_from_list(list, &m) < 0) return NULL;
    if (s && s->fe.display) s->fe.display(s->fe.user, &m, display_id, update);
    lang_mime_free(&m);
    Py_RETURN_NONE;
}

/* progress(id, done, total, text): a bar of long work (nndb.progress); the
 * front end draws it, done == total ends it. */
static PyObject *fe_progress(PyObject *self, PyObject *args) {
    const char *id, *text;
    long long done, total;
    if (!PyArg_ParseTuple(args, "sLLs", &id, &done, &total, &text)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (s && s->fe.progress) s->fe.progress(s->fe.user, id, done, total, text);
    Py_RETURN_NONE;
}

static PyObject *fe_clear_output(PyObject *self, PyObject *args) {
    int wait = 0;
    if (!PyArg_ParseTuple(args, "|p", &wait)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (s && s->fe.clear_output) s->fe.clear_output(s->fe.user, wait != 0);
    Py_RETURN_NONE;
}

/* debug_event(json): a DAP event for the front end (nndb/dap.py). */
static PyObject *fe_debug_event(PyObject *self, PyObject *args) {
    const char *text;
    if (!PyArg_ParseTuple(args, "s", &text)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (!s || !s->fe.debug_event) Py_RETURN_FALSE;
    s->fe.debug_event(s->fe.user, text);
    Py_RETURN_TRUE;
}

/* None when no one can answer (the caller raises EOFError, as input() at
 * the end of a file does; the kernel names the reason). The GIL is let go
 * while the front end waits, so the user's threads keep running. */
static PyObject *fe_readline(PyObject *self, PyObject *args) {
    const char *prompt = "";
    int password = 0;
    if (!PyArg_ParseTuple(args, "|sp", &prompt, &password)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (!s || !s->fe.readline) Py_RETURN_NONE;
    char *line;
    PyThreadState *ts = PyEval_SaveThread();
    line = s->fe.readline(s->fe.user, prompt, password);
    PyEval_RestoreThread(ts);
    if (!line) Py_RETURN_NONE;
    PyObject *r = PyUnicode_DecodeUTF8(line, (Py_ssize_t)strlen(line), "replace");
    free(line);
    return r;
}

static PyObject *fe_can_read(PyObject *self, PyObject *unused) {
    lang_session *s = ((frontend_obj *)self)->s;
    if (!s || !s->fe.readline) Py_RETURN_FALSE;
    return PyBool_FromLong(!s->fe.can_read || s->fe.can_read(s->fe.user));
}

static ext_magic *find_magic(lang_session *s, const char *name) {
    for (int i = 0; s && i < s->n_magics; i++)
        if (!strcmp(s->magics[i].name, name)) return &s->magics[i];
    return NULL;
}

static void clear_failure(lang_session *s) {
    free(s->fail_ename);
    free(s->fail_msg);
    s->fail_ename = s->fail_msg = NULL;
    s->fail_cls = LANG_ERR_NONE;
}

/* ext_magic(name, args): None when it ran; (ename, message) when it failed
 * (nndb/magics.py raises it as an exception of that name). */
static PyObject *fe_ext_magic(PyObject *self, PyObject *args) {
    const char *name, *text;
    if (!PyArg_ParseTuple(args, "ss", &name, &text)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    ext_magic *m = find_magic(s, name);
    if (!m) return PyErr_Format(PyExc_KeyError, "%s", name);
    clear_failure(s);
    bool ok = m->fn(s, m->user, text);
    /* The magic may have run code that failed and left an exception set. */
    if (PyErr_Occurred()) PyErr_Clear();
    if (ok) Py_RETURN_NONE;
    PyObject *r = Py_BuildValue("(ss)", s->fail_ename ? s->fail_ename : "RuntimeError",
                                s->fail_msg ? s->fail_msg : "the magic failed");
    clear_failure(s);
    return r;
}

/* ext_magics(): [(name, signature, doc)] of the magics added from C. */
static PyObject *fe_ext_magics(PyObject *self, PyObject *unused) {
    lang_session *s = ((frontend_obj *)self)->s;
    PyObject *list = PyList_New(0);
    for (int i = 0; list && s && i < s->n_magics; i++) {
        const ext_magic *m = &s->magics[i];
        PyObject *t =
            Py_BuildValue("(sss)", m->name, m->signature ? m->signature : "", m->doc ? m->doc : "");
        if (!t || PyList_Append(list, t) < 0) Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

/* comm_send(msg_type, json): a comm message for the client (nndb/comm.py). */
static PyObject *fe_comm_send(PyObject *self, PyObject *args) {
    const char *type, *json;
    if (!PyArg_ParseTuple(args, "ss", &type, &json)) return NULL;
    lang_session *s = ((frontend_obj *)self)->s;
    if (!s || !s->fe.comm_send) Py_RETURN_FALSE;
    s->fe.comm_send(s->fe.user, type, json);
    Py_RETURN_TRUE;
}

/* parent_header(): the JSON header of the request being handled, or None. */
static PyObject *fe_parent_header(PyObject *self, PyObject *args) {
    (void)args;
    lang_session *s = ((frontend_obj *)self)->s;
    const char *h = s && s->fe.parent_header ? s->fe.parent_header(s->fe.user) : NULL;
    if (!h) Py_RETURN_NONE;
    return PyUnicode_FromString(h);
}

static PyMethodDef frontend_methods[] = {
    {"parent_header", fe_parent_header, METH_NOARGS, "the request's JSON header, or None"},
    {"comm_send", fe_comm_send, METH_VARARGS, "comm_send(msg_type, json) -> whether it was sent"},
    {"write", fe_write, METH_VARARGS, "write(stream, text): 1 stdout, 2 stderr"},
    {"display", fe_display, METH_VARARGS, "display(bundle, display_id=None, update=False)"},
    {"progress", fe_progress, METH_VARARGS, "progress(id, done, total, text)"},
    {"clear_output", fe_clear_output, METH_VARARGS, "clear_output(wait=False)"},
    {"debug_event", fe_debug_event, METH_VARARGS, "debug_event(json) -> whether it was sent"},
    {"readline", fe_readline, METH_VARARGS, "readline(prompt='', password=False) -> str or None"},
    {"can_read", fe_can_read, METH_NOARGS, "whether a person can answer readline now"},
    {"ext_magic", fe_ext_magic, METH_VARARGS, "ext_magic(name, args) -> None or (ename, msg)"},
    {"ext_magics", fe_ext_magics, METH_NOARGS, "[(name, signature, doc)] added from C"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject frontend_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_nndb_frontend.Frontend",
    .tp_basicsize = sizeof(frontend_obj),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The front end's callbacks of one nndb session.",
    .tp_methods = frontend_methods,
};

/* ---- the interpreter ---- */

/* CPython's KeyboardInterrupt comes from its SIGINT handler table: with the
 * front end owning the signal (install_signal_handlers = 0), the table's
 * entry is set to default_int_handler here, so that PyErr_SetInterruptEx
 * raises KeyboardInterrupt; the process's own SIGINT handler (the REPL's,
 * the kernel's) is put back as it was. */
static int arm_keyboard_interrupt(void) {
    struct sigaction old;
    sigaction(SIGINT, NULL, &old);
    PyObject *globals = PyDict_New();
    if (globals) PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
    PyObject *r = globals
                      ? PyRun_String("import signal\n"
                                     "signal.signal(signal.SIGINT, signal.default_int_handler)\n",
                                     Py_file_input, globals, globals)
                      : NULL;
    Py_XDECREF(globals);
    sigaction(SIGINT, &old, NULL);
    if (!r) return -1;
    Py_DECREF(r);
    return 0;
}

bool py_session_python(void) {
    static int state; /* 0 not tried, 1 running, -1 failed */
    if (state) return state > 0;
    state = -1;
    if (py_embed_init() != 0) return false;
    bool ok = PyType_Ready(&frontend_type) == 0 && arm_keyboard_interrupt() == 0;
    if (ok) {
        session_module = PyImport_ImportModule("nndb.session");
        ok = session_module != NULL;
    }
    if (!ok) {
        PyErr_Print();
        fprintf(stderr, "nndb: the Python session (nndb.session) did not load\n");
        return false;
    }
    state = 1;
    /* The front end's thread does not hold the GIL between calls. */
    PyEval_SaveThread();
    return true;
}

PyObject *py_session_module(void) {
    return session_module;
}

PyObject *py_session_shell(lang_session *s) {
    return s->shell;
}

/* An error of nndb's own Python code, on the process's stderr (the kernel's
 * log): sys.stderr is the session's, and may lead nowhere by now. */
static void print_internal_error(const char *where) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    fprintf(stderr, "nndb: internal error in the Python session (%s):\n", where);
    PyObject *mod = PyImport_ImportModule("traceback");
    PyObject *lines = mod ? PyObject_CallMethod(mod, "format_exception", "OOO", type,
                                                value ? value : Py_None, tb ? tb : Py_None)
                          : NULL;
    for (Py_ssize_t i = 0; lines && PyList_Check(lines) && i < PyList_GET_SIZE(lines); i++) {
        const char *c = PyUnicode_AsUTF8(PyList_GET_ITEM(lines, i));
        if (c) fputs(c, stderr);
    }
    PyErr_Clear();
    Py_XDECREF(lines);
    Py_XDECREF(mod);
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
}

PyObject *py_session_call(lang_session *s, const char *method, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    PyObject *args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    PyObject *target = s ? s->shell : session_module, *r = NULL;
    if (args && !PyTuple_Check(args)) {
        PyObject *t = PyTuple_Pack(1, args);
        Py_DECREF(args);
        args = t;
    }
    PyObject *fn = args ? PyObject_GetAttrString(target, method) : NULL;
    if (fn) r = PyObject_Call(fn, args, NULL);
    Py_XDECREF(fn);
    Py_XDECREF(args);
    if (!r) print_internal_error(method);
    return r;
}

/* An interrupt that came while nothing ran (the kernel interrupts even an
 * idle session) must not stop the next cell: drop CPython's tripped SIGINT
 * and the engine's flag. */
void py_session_drop_interrupt(void) {
    if (PyErr_CheckSignals() < 0) PyErr_Clear();
    nn_ctx *ctx = py_ctx();
    if (ctx && nn_ctx_check_interrupt(ctx)) nn_ctx_clear_error(ctx);
}

/* ---- sessions ---- */

lang_session *lang_session_new(const lang_frontend *fe) {
    if (!py_session_python()) return NULL;
    lang_session *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (fe) s->fe = *fe;
    s->thread = pthread_self();
    nn_buf_init(&s->output);
    PyGILState_STATE g = PyGILState_Ensure();
    frontend_obj *f = PyObject_New(frontend_obj, &frontend_type);
    PyObject *argv = PyList_New(0);
    for (int i = 0; argv && i < script_argc; i++) {
        PyObject *a = PyUnicode_DecodeFSDefault(script_argv[i]);
        if (!a || PyList_Append(argv, a) < 0) Py_CLEAR(argv);
        Py_XDECREF(a);
    }
    if (f && argv) {
        f->s = s;
        s->shell = py_session_call(NULL, "Session", "(OO)", (PyObject *)f, argv);
    }
    Py_XDECREF(argv);
    Py_XDECREF(f);
    PyGILState_Release(g);
    if (!s->shell) {
        free(s);
        return NULL;
    }
    return s;
}

char *lang_session_debug_request(lang_session *s, const char *request, char **events) {
    if (events) *events = NULL;
    if (!s || !request) return NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    char *reply = NULL;
    PyObject *r = py_session_call(s, "debug_request", "(s)", request);
    const char *a = NULL, *b = NULL;
    if (r && PyArg_ParseTuple(r, "s|z", &a, &b)) {
        reply = strdup(a);
        if (b && events) *events = strdup(b);
    } else {
        PyErr_Clear();
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return reply;
}

void lang_session_free(lang_session *s) {
    if (!s) return;
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r = py_session_call(s, "close", "()");
    Py_XDECREF(r);
    PyObject *fe = PyObject_GetAttrString(s->shell, "fe");
    if (fe && Py_IS_TYPE(fe, &frontend_type)) ((frontend_obj *)fe)->s = NULL;
    if (!fe) PyErr_Clear();
    Py_XDECREF(fe);
    Py_CLEAR(s->shell);
    PyGILState_Release(g);
    for (int i = 0; i < s->n_magics; i++) {
        ext_magic *m = &s->magics[i];
        if (m->free_user) m->free_user(m->user);
        free(m->name);
        free(m->signature);
        free(m->doc);
    }
    free(s->magics);
    clear_failure(s);
    nn_buf_free(&s->output);
    free(s);
}

struct nn_ctx *lang_session_ctx(lang_session *s) {
    (void)s;
    return py_ctx();
}

const lang_info *lang_language_info(void) {
    /* Python itself, so notebooks highlight, export and open as Python's. */
    static const lang_info info = {"python", PY_VERSION, "text/x-python", ".py", "nndb"};
    return &info;
}

void lang_set_script_argv(int argc, const char *const *argv) {
    script_argc = argc;
    script_argv = argv;
}

/* ---- results ---- */

static char *dup_str(PyObject *o) {
    const char *c = o && PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!c) PyErr_Clear();
    return strdup(c ? c : "");
}

/* The lang_err class of a Python exception type: the front ends only tell
 * syntax errors (no "Traceback" header), interrupts and the rest apart. */
static lang_err err_class(PyObject *type) {
    static const struct {
        PyObject **exc;
        lang_err cls;
    } map[] = {
        {&PyExc_SyntaxError, LANG_ERR_SYNTAX},
        {&PyExc_KeyboardInterrupt, LANG_ERR_INTERRUPT},
        {&PyExc_SystemExit, LANG_ERR_STOPPED},
        {&PyExc_NameError, LANG_ERR_NAME},
        {&PyExc_TypeError, LANG_ERR_TYPE},
        {&PyExc_IndexError, LANG_ERR_INDEX},
        {&PyExc_KeyError, LANG_ERR_KEY},
        {&PyExc_AttributeError, LANG_ERR_ATTRIBUTE},
        {&PyExc_ZeroDivisionError, LANG_ERR_ZERO_DIVISION},
        {&PyExc_MemoryError, LANG_ERR_MEMORY},
        {&PyExc_OSError, LANG_ERR_IO},
        {&PyExc_AssertionError, LANG_ERR_ASSERTION},
        {&PyExc_RecursionError, LANG_ERR_RECURSION},
        {&PyExc_ImportError, LANG_ERR_IMPORT},
        {&PyExc_ValueError, LANG_ERR_VALUE},
    };
    if (!type || !PyType_Check(type)) return LANG_ERR_RUNTIME;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (PyErr_GivenExceptionMatches(type, *map[i].exc)) return map[i].cls;
    if (py_exc_stopped && PyErr_GivenExceptionMatches(type, py_exc_stopped))
        return LANG_ERR_STOPPED;
    return LANG_ERR_RUNTIME;
}

/* (type, ename, evalue, [traceback chunks]) into res->error. */
static void fill_error(lang_error_info *e, PyObject *err) {
    PyObject *type = NULL, *ename = NULL, *evalue = NULL, *tb = NULL;
    if (!err || !PyArg_ParseTuple(err, "OOOO", &type, &ename, &evalue, &tb)) {
        PyErr_Clear();
        e->cls = LANG_ERR_RUNTIME;
        e->ename = strdup("RuntimeError");
        e->evalue = strdup("the Python session returned no error description");
        return;
    }
    e->cls = err_class(type);
    e->ename = dup_str(ename);
    e->evalue = dup_str(evalue);
    Py_ssize_t n = PyList_Check(tb) ? PyList_GET_SIZE(tb) : 0;
    e->traceback = n ? calloc((size_t)n, sizeof *e->traceback) : NULL;
    for (Py_ssize_t i = 0; e->traceback && i < n; i++)
        e->traceback[e->n_traceback++] = dup_str(PyList_GET_ITEM(tb, i));
}

static void result_init(lang_result *res) {
    memset(res, 0, sizeof *res);
    lang_mime_init(&res->value);
}

void lang_result_free(lang_result *res) {
    if (!res) return;
    lang_mime_free(&res->value);
    free(res->error.ename);
    free(res->error.evalue);
    for (int i = 0; i < res->error.n_traceback; i++) free(res->error.traceback[i]);
    free(res->error.traceback);
    memset(&res->error, 0, sizeof res->error);
}

static void internal_error(lang_result *res) {
    res->ok = false;
    res->error.cls = LANG_ERR_RUNTIME;
    res->error.ename = strdup("RuntimeError");
    res->error.evalue = strdup("internal error in nndb's Python session (see stderr)");
}

bool lang_exec(lang_session *s, const char *code, const char *filename, bool interactive,
               lang_result *res) {
    result_init(res);
    if (!filename) filename = "<string>";
    /* an exit request belongs to the statement that made it */
    s->exit_requested = false;
    s->output.len = 0;
    if (s->output.data) s->output.data[0] = 0;
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    /* Not UTF-8: handed over as bytes, which Python compiles into the
     * SyntaxError it gives such a file. */
    if (!code) code = "";
    PyObject *r = nn_utf8_valid(code, strlen(code))
                      ? py_session_call(s, "run_cell", "(ssOO)", code, filename,
                                        interactive ? Py_True : Py_False,
                                        s->fe.defer_figures ? Py_True : Py_False)
                      : py_session_call(s, "run_cell", "(y#sOO)", code, (Py_ssize_t)strlen(code),
                                        filename, interactive ? Py_True : Py_False,
                                        s->fe.defer_figures ? Py_True : Py_False);
    PyObject *okv = NULL, *value = NULL, *err = NULL;
    if (!r || !PyArg_ParseTuple(r, "OOO", &okv, &value, &err)) {
        PyErr_Clear();
        internal_error(res);
    } else {
        res->ok = PyObject_IsTrue(okv) == 1;
        if (res->ok && value != Py_None) {
            res->has_value = bundle_from_list(value, &res->value) == 0;
            if (!res->has_value) PyErr_Clear();
        }
        if (!res->ok) fill_error(&res->error, err);
    }
    Py_XDECREF(r);
    PyObject *code_obj = PyObject_GetAttrString(s->shell, "exit_code");
    if (code_obj && code_obj != Py_None) {
        s->exit_requested = true;
        s->exit_code = (int)PyLong_AsLong(code_obj);
        if (PyErr_Occurred()) PyErr_Clear(), s->exit_code = 1;
    }
    if (!code_obj) PyErr_Clear();
    Py_XDECREF(code_obj);
    PyGILState_Release(g);
    if (s->observer)
        s->observer(s->observer_user, code ? code : "", filename, res,
                    s->output.data ? s->output.data : "");
    return res->ok;
}

/* Whether this process has a SIGINT handler of its own (the REPL's, the
 * kernel's): without one, the signal that wakes a blocking call would end
 * the process (a test harness, an embedder). sigaction is
 * async-signal-safe. */
static bool sigint_is_handled(void) {
    struct sigaction sa;
    if (sigaction(SIGINT, NULL, &sa)) return false;
    return (sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
}

void lang_session_interrupt(lang_session *s) {
    if (py_debug_interrupt()) return; /* the debugger stops at the next node instead */
    /* Both are safe from a signal handler and from any thread. */
    PyErr_SetInterruptEx(SIGINT);
    nn_ctx *ctx = py_ctx();
    if (ctx) nn_ctx_interrupt(ctx);
    /* From another thread (the kernel's control channel): a signal to the
     * session's thread also wakes a blocking call (time.sleep, a read),
     * which CPython then ends with KeyboardInterrupt. That thread's own
     * handler comes back here, and does not signal again. */
    if (s && !pthread_equal(pthread_self(), s->thread) && sigint_is_handled())
        pthread_kill(s->thread, SIGINT);
}

bool lang_session_exit_requested(lang_session *s, int *code) {
    if (s->exit_requested && code) *code = s->exit_code;
    return s->exit_requested;
}

void lang_session_add_history(lang_session *s, const char *code) {
    PyGILState_STATE g = PyGILState_Ensure();
    py_session_drop_interrupt();
    PyObject *r = py_session_call(s, "add_history", "(s)", code ? code : "");
    Py_XDECREF(r);
    PyGILState_Release(g);
}

/* The debugger's lang_session_break and lang_session_break_next are in
 * py_session_debug.c. */

/* ---- extensions (drills/) ---- */

bool lang_session_add_magic(lang_session *s, const char *name, const char *signature,
                            const char *doc, lang_ext_magic_fn fn, void *user,
                            void (*free_user)(void *user)) {
    ext_magic *m = find_magic(s, name);
    if (!m) {
        ext_magic *p = realloc(s->magics, sizeof *p * (size_t)(s->n_magics + 1));
        if (!p) return false;
        s->magics = p;
        m = &s->magics[s->n_magics++];
    } else {
        if (m->free_user) m->free_user(m->user);
        free(m->name);
        free(m->signature);
        free(m->doc);
    }
    m->name = strdup(name);
    m->signature = signature ? strdup(signature) : NULL;
    m->doc = doc ? strdup(doc) : NULL;
    m->fn = fn;
    m->user = user;
    m->free_user = free_user;
    return m->name != NULL;
}

bool lang_session_fail(lang_session *s, lang_err cls, const char *ename, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg) vsnprintf(msg, (size_t)n + 1, fmt, again);
    va_end(again);
    clear_failure(s);
    s->fail_cls = cls;
    s->fail_ename = strdup(ename ? ename : lang_err_name(cls));
    s->fail_msg = msg;
    return false;
}

void lang_session_set_observer(lang_session *s, lang_observer_fn fn, void *user) {
    s->observer = fn;
    s->observer_user = user;
}

bool lang_session_run(lang_session *s, const char *code, const char *filename, char **err) {
    if (err) *err = NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r =
        py_session_call(s, "run_code", "(ss)", code ? code : "", filename ? filename : "<string>");
    bool ok = r == Py_None;
    if (!ok && err) *err = r ? dup_str(r) : strdup("RuntimeError: internal error");
    Py_XDECREF(r);
    PyGILState_Release(g);
    return ok;
}

int lang_session_truth(lang_session *s, const char *expr, const char *filename, char **err) {
    if (err) *err = NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r =
        py_session_call(s, "truth", "(ss)", expr ? expr : "", filename ? filename : "<string>");
    int truth = -1;
    PyObject *msg = NULL;
    if (!r || !PyArg_ParseTuple(r, "iO", &truth, &msg)) {
        PyErr_Clear();
        truth = -1;
        if (err) *err = strdup("RuntimeError: internal error");
    } else if (truth < 0 && err) {
        *err = dup_str(msg);
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return truth;
}

void lang_session_write(lang_session *s, lang_stream which, const char *text) {
    if (text) stream_out(s, which, text, strlen(text));
}

void lang_session_show(lang_session *s, const lang_mime *bundle) {
    if (s->fe.display && bundle) s->fe.display(s->fe.user, bundle, NULL, false);
}

void lang_session_show_deferred(lang_session *s) {
    if (!s) return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = py_session_call(s, "show_deferred", "()");
    if (!r) PyErr_Clear();
    Py_XDECREF(r);
    PyGILState_Release(g);
}

bool lang_session_comm(lang_session *s, const char *msg_type, const char *content_json) {
    if (!s || !msg_type || !content_json) return false;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = py_session_call(s, "comm_message", "(ss)", msg_type, content_json);
    bool ok = r && PyObject_IsTrue(r) == 1;
    if (!r) PyErr_Clear();
    Py_XDECREF(r);
    PyGILState_Release(g);
    return ok;
}

char *lang_session_comm_info(lang_session *s, const char *target_name) {
    if (!s) return NULL;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = py_session_call(s, "comm_info", "(z)", target_name);
    char *out = NULL;
    const char *text = r && PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
    if (text) out = strdup(text);
    if (!out) PyErr_Clear();
    Py_XDECREF(r);
    PyGILState_Release(g);
    return out;
}

char *lang_session_readline(lang_session *s, const char *prompt) {
    if (!s->fe.readline) return NULL;
    if (s->fe.can_read && !s->fe.can_read(s->fe.user)) return NULL;
    return s->fe.readline(s->fe.user, prompt ? prompt : "", false);
}
