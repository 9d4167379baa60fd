"""The interactive session behind nndb's REPL and Jupyter kernel on CPython.

binding/py_session.c implements lang/lang.h (the seam the front ends talk
through) by calling into this module: one Session per lang_session, each
with a namespace of its own that plays `__main__`. A cell runs as IPython
runs it: IPython's syntax (magics, `!cmd`, `name?`) is turned into Python by
nndb.magics, the cell is compiled under its filename ("<cell 3>") with its
source in linecache so tracebacks show its lines and carets, and when its
last statement is an expression, that value is the cell's result (kept in
`_`, `__`, `___` and `Out`), unless a `;` ends the cell.

The front end is the object `fe` (_nndb_frontend.Frontend, written in C):
write(stream, text), display(bundle, display_id, update), progress(id, done,
total, text), readline(prompt, password), can_read(), ext_magic(name, args),
ext_magics(). sys.stdout, sys.stderr, sys.stdin and builtins.input are
replaced once per process by objects that reach the session whose code runs
(or ran last).
"""

import builtins
import gc
import io
import json
import os
import sys
import threading
import types

from nndb import display as _display
from nndb import magics as _magics

_HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep
_CO_COROUTINE = 0x0080

# The session whose cell runs, or ran last: where output goes.
_active = None


def active():
    """The session whose code runs now (or ran last), or None."""
    return _active


# ---- the process's streams ----

class _Stream(io.TextIOBase):
    """sys.stdout / sys.stderr: each write goes to the front end at once, so
    a print shows while a loop runs. Writes from other threads than the
    session's wait until that thread writes or the cell ends (the front
    ends are not thread-safe)."""

    def __init__(self, which, name):
        super().__init__()
        self._which = which
        self._name = name
        self._pending = []
        self._lock = threading.Lock()

    @property
    def name(self):
        return self._name

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "replace"

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        raise io.UnsupportedOperation("fileno")

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        s = _active
        if s is None:
            real = sys.__stdout__ if self._which == 1 else sys.__stderr__
            if real is not None:
                real.write(text)
                real.flush()
            return len(text)
        if threading.get_ident() != s.thread:
            with self._lock:
                self._pending.append(text)
            return len(text)
        self._send_pending(s)
        if text:
            s.fe.write(self._which, text)
        return len(text)

    def _send_pending(self, s):
        if not self._pending:
            return
        with self._lock:
            text, self._pending = "".join(self._pending), []
        if text:
            s.fe.write(self._which, text)

    def flush(self):
        s = _active
        if s is not None and threading.get_ident() == s.thread:
            self._send_pending(s)


class _Stdin(io.TextIOBase):
    """sys.stdin: lines come from the front end (a terminal, a notebook's
    input box). close() does nothing: exit() closes sys.stdin."""

    @property
    def encoding(self):
        return "utf-8"

    @property
    def name(self):
        return "<stdin>"

    def readable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        raise io.UnsupportedOperation("fileno")

    def readline(self, size=-1):
        line = _read_line("", False)
        return "" if line is None else line + "\n"

    def read(self, size=-1):
        parts = []
        while size < 0 or sum(map(len, parts)) < size:
            line = self.readline()
            if not line:
                break
            parts.append(line)
        return "".join(parts)

    def close(self):
        pass


def _read_line(prompt, password):
    s = _active
    if s is None:
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    return s.fe.readline(prompt, password)


def _input(prompt=""):
    """input(): the prompt and the line go through the front end."""
    line = _read_line(str(prompt), False)
    if line is None:
        raise EOFError("EOF when reading a line")
    return line


def _getpass(prompt="Password: ", stream=None):
    line = _read_line(str(prompt), True)
    if line is None:
        raise EOFError("EOF when reading a line")
    return line


_STDOUT = _Stream(1, "<stdout>")
_STDERR = _Stream(2, "<stderr>")
_installed = False


def _install_process_hooks(argv):
    global _installed
    if _installed:
        return
    _installed = True
    sys.stdout, sys.stderr, sys.stdin = _STDOUT, _STDERR, _Stdin()
    builtins.input = _input
    from nndb import introspect
    builtins.help = introspect.Helper()
    sys.argv[:] = list(argv) or [""]
    # As python3 does: the script's folder (or, interactively, the working
    # folder) comes right after nndb's own packages on sys.path.
    first = os.path.dirname(os.path.abspath(argv[0])) if argv and argv[0] else ""
    sys.path.insert(1 if sys.path else 0, first)
    _display.install_import_hooks(_getpass)


def _flush_streams():
    for stream in (_STDOUT, _STDERR):
        stream.flush()


# ---- cells ----

def _cell_number(filename):
    if filename.startswith("<cell ") and filename.endswith(">"):
        try:
            return int(filename[6:-1])
        except ValueError:
            return None
    return None


def _internal(filename):
    return filename.startswith(_HERE)


def _strip_internal(te, seen=None):
    """Drop nndb's own frames from a TracebackException and its chain."""
    import traceback  # at the first error, not at every start
    seen = set() if seen is None else seen
    if te is None or id(te) in seen:
        return
    seen.add(id(te))
    te.stack = traceback.StackSummary.from_list(
        [f for f in te.stack if not _internal(f.filename)])
    _strip_internal(te.__cause__, seen)
    _strip_internal(te.__context__, seen)
    for sub in getattr(te, "exceptions", None) or ():
        _strip_internal(sub, seen)


def _with_suggestion(exc, last):
    """[last] ("NameError: name 'x' is not defined") with the "Did you mean"
    that CPython 3.11 adds when it prints the error itself: only its C
    printer computes it, so the error is printed (by sys.__excepthook__)
    into a buffer and the suggestion read back."""
    if not isinstance(exc, (NameError, AttributeError)):
        return last
    buf, saved = io.StringIO(), sys.stderr
    sys.stderr = buf
    try:
        sys.__excepthook__(type(exc), exc, exc.__traceback__)
    except Exception:
        return last
    finally:
        sys.stderr = saved
    printed = buf.getvalue().rstrip("\n").rsplit("\n", 1)[-1]
    if printed.startswith(last) and printed != last:
        return printed
    if isinstance(exc, NameError) and not isinstance(exc, UnboundLocalError):
        guess = _suggest_name(exc)
        if guess is not None:
            return f"{last}. Did you mean: '{guess}'?"
    return last


_MOVE_COST, _CASE_COST, _MAX_STRING_SIZE = 2, 1, 40


def _utf8(name):
    return name.encode("utf-8", "surrogatepass")


def _levenshtein(a, b, limit):
    """CPython's suggestion distance (Python/suggestions.c) between two
    names' UTF-8 bytes: a substitution that only changes an ASCII letter's
    case costs 1, any other edit 2; None past [limit]. In its order: common
    ends trimmed, then the cheap ways out (too long, lengths too far apart)
    before the table."""
    if a == b:
        return 0
    pre = 0
    while pre < len(a) and pre < len(b) and a[pre] == b[pre]:
        pre += 1
    a, b = a[pre:], b[pre:]
    post = 0
    while post < len(a) and post < len(b) and a[-1 - post] == b[-1 - post]:
        post += 1
    if post:
        a, b = a[:-post], b[:-post]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE_COST
    if len(a) > _MAX_STRING_SIZE or len(b) > _MAX_STRING_SIZE:
        return None
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > limit:
        return None
    lower_a = a.lower()  # bytes: ASCII letters only
    row = [(i + 1) * _MOVE_COST for i in range(len(a))]
    result = 0
    for bi, bc in enumerate(b):
        distance = result = bi * _MOVE_COST
        minimum = None
        lower_bc = b[bi:bi + 1].lower()[0]
        for ai, ac in enumerate(a):
            if ac == bc:
                sub = 0
            elif lower_a[ai] == lower_bc:
                sub = _CASE_COST
            else:
                sub = _MOVE_COST
            substitute = distance + sub
            distance = row[ai]
            insert_delete = min(result, distance) + _MOVE_COST
            result = min(insert_delete, substitute)
            row[ai] = result
            minimum = result if minimum is None or result < minimum else minimum
        if minimum is not None and minimum > limit:
            return None
    return result


def _closest(candidates, name):
    best, best_distance = None, None
    name_bytes = _utf8(name)
    for item in candidates:
        if not isinstance(item, str) or item == name:
            continue
        item_bytes = _utf8(item)
        # at most a third of the bytes changed (UTF-8 bytes, as CPython counts)
        max_distance = (len(name_bytes) + len(item_bytes) + 3) * _MOVE_COST // 6
        limit = max_distance if best_distance is None else min(max_distance, best_distance - 1)
        d = _levenshtein(name_bytes, item_bytes, limit)
        if d is None or d > limit:
            continue
        if best_distance is None or d < best_distance:
            best, best_distance = item, d
    return best


def _suggest_name(exc):
    """CPython 3.11 looks for a NameError's suggestion among the frame's
    locals, globals and builtins, but gives up on a namespace of 750 names
    or more, and a session's globals hold the prelude's ~800. Here the same
    search without that cap."""
    name = getattr(exc, "name", None)
    tb = exc.__traceback__
    if not isinstance(name, str) or tb is None:
        return None
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    for space in (frame.f_code.co_varnames, frame.f_globals, frame.f_builtins):
        guess = _closest(list(space), name)
        if guess is not None:
            return guess
    return None


def describe_error(exc):
    """(type, ename, evalue, traceback chunks) of [exc], as Python prints it
    (3.11's carets, 'Did you mean' suggestions), without nndb's frames."""
    import traceback
    etype = type(exc)
    if isinstance(exc, (_magics.UsageError, _magics.MagicError)):
        return etype, etype.__name__, str(exc), [f"{etype.__name__}: {exc}\n"]
    te = traceback.TracebackException(etype, exc, exc.__traceback__, compact=True)
    _strip_internal(te)
    lines = list(te.format())
    evalue = str(exc)
    last = list(te.format_exception_only())[-1].rstrip("\n")
    suggested = _with_suggestion(exc, last)
    if suggested != last and lines and lines[-1].rstrip("\n") == last:
        lines[-1] = suggested + "\n"
        last = suggested
    # The notebook's evalue carries the suggestion too.
    prefix = te.exc_type.__qualname__ + ": " if te.exc_type else ""
    tail = last.split(": ", 1)[1] if ": " in last else ""
    if prefix and evalue and tail.startswith(evalue) and tail != evalue:
        evalue = tail
    if isinstance(exc, SyntaxError) and isinstance(exc.msg, str):
        evalue = exc.msg  # the file and line are in the lines above it
    if not evalue and lines and lines[-1].rstrip("\n") == last:
        lines.pop()  # a bare "KeyboardInterrupt": the front end states it
    return etype, etype.__name__, evalue, lines


def _ends_with_semicolon(source):
    import tokenize
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return False
    for tok in reversed(tokens):
        if tok.type in (tokenize.ENDMARKER, tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT,
                        tokenize.DEDENT, tokenize.INDENT):
            continue
        return tok.type == tokenize.OP and tok.string == ";"
    return False


class _Exit:
    """exit / quit as IPython has them: exit() and a bare `exit` both leave
    (site's Quitter would print a hint for the bare name, and close stdin)."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Use {self.name}() to leave the session"

    def __call__(self, code=None):
        raise SystemExit(code)


class Session:
    """One lang_session: a namespace, its history and its front end."""

    def __init__(self, fe, argv=()):
        global _active
        _install_process_hooks(argv)
        self.fe = fe
        self.thread = threading.get_ident()
        self.module = types.ModuleType("__main__")
        self.ns = self.module.__dict__
        self.ns.update(__builtins__=builtins, __loader__=None, __spec__=None, __package__=None)
        if argv and argv[0]:
            self.ns["__file__"] = argv[0]
        self.dap = None  # the debug protocol's server, once a client asks (nndb/dap.py)
        self.In = [""]
        self.Out = {}
        self.history = []
        self.flags = 0
        self.count = 0
        self.exit_code = None
        self.prelude = False
        # Names the session put there, with their values (a user's own
        # binding of the same name shows in %who).
        self.hidden = dict(self.ns)
        self._add_helpers()
        self.closed = False
        self.main_before = sys.modules.get("__main__")
        sys.modules["__main__"] = self.module
        _active = self
        _magics._debugger.session_start()  # no breakpoints of an earlier session

    def close(self):
        global _active
        self.closed = True
        _flush_streams()
        if _active is self:
            _active = None
        # lang_session_free leaves nothing behind: the debugger's hook and
        # what it held, and, as IPython's atexit_operations, the namespace
        # and the output cache (cycles through the namespace, a class
        # defined in a cell, need the collector).
        _magics._debugger.session_end()
        if sys.modules.get("__main__") is self.module:
            if self.main_before is not None:
                sys.modules["__main__"] = self.main_before
            else:
                del sys.modules["__main__"]
        self.main_before = None
        self.ns.clear()
        self.Out.clear()
        gc.collect()

    # ---- what lang.h asks ----
    def run_cell(self, code, filename, interactive, defer_figures=False):
        """lang_exec: (ok, bundle or None, None) or (False, None, error).
        defer_figures: the cell's figures wait for show_deferred (the front
        end shows the value or error first, as IPython does)."""
        global _active
        _active = self
        sys.modules["__main__"] = self.module
        if isinstance(code, bytes):
            # not UTF-8 (lang_exec): the SyntaxError Python gives such a file
            try:
                compile(code, filename, "exec")
            except SyntaxError as e:
                return False, None, describe_error(e)
            code = code.decode("utf-8", "replace")
        value = None
        self.exit_code = None  # an exit request belongs to its own cell
        _magics._debugger.cell_start()
        try:
            if interactive:
                self._load_prelude()
                value = self._run_interactive(code, filename)
            else:
                # nndb's own .nn scripts were written against the bare
                # names; a .py script gets Python's plain namespace.
                if filename.endswith(".nn"):
                    self._load_prelude()
                self._exec_source(code, filename)
        except SystemExit as e:
            self.exit_code = self._exit_status(e)
            return False, None, describe_error(e)
        except BaseException as e:
            _magics._debugger.after_error(e)  # %debug, %pdb
            return False, None, describe_error(e)
        finally:
            _magics._debugger.cell_end()  # stepping ends with the cell
            if interactive and not defer_figures:
                self._show_figures()
            _flush_streams()
        if value is None:
            return True, None, None
        try:
            shows_itself = _display._method(value, "_ipython_display_")
            if shows_itself is not None:  # a widget as the cell's value
                shows_itself()
                return True, None, None
            bundle = _display.format_bundle(value)
        except BaseException as e:
            return False, None, describe_error(e)
        return True, bundle, None

    def debug_request(self, text):
        """lang_session_debug_request: the Jupyter debug protocol
        (nndb/dap.py), called from the kernel's control thread."""
        if self.dap is None:
            from nndb.dap import Dap
            self.dap = Dap(self)
        return self.dap.handle(text)

    def run_code(self, code, filename):
        """lang_session_run: None, or "Name: message"."""
        global _active
        _active = self
        try:
            self._load_prelude()
            self._exec_source(code, filename)
        except BaseException as e:
            return self._short_error(e)
        finally:
            _flush_streams()
        return None

    def truth(self, expr, filename):
        """lang_session_truth: (1 or 0, None) or (-1, "Name: message")."""
        global _active
        _active = self
        try:
            self._load_prelude()
            source = self._cache(filename, expr.strip())
            value = eval(compile(source, filename, "eval", self.flags, True), self.ns)
            return (1 if value else 0), None
        except BaseException as e:
            return -1, self._short_error(e)
        finally:
            _flush_streams()

    def add_history(self, code):
        self.history.append(code)

    def complete(self, code, cursor):
        from nndb import introspect
        self._prelude_for_help()
        return introspect.complete(self, code, cursor)

    def inspect(self, code, cursor, detail):
        from nndb import introspect
        self._prelude_for_help()
        return introspect.inspect_at(self, code, cursor, detail)

    def _prelude_for_help(self):
        """Tab and Shift-Tab before the first cell see the names that cell
        will have; a script's session (nndb run: __file__ set) gets none."""
        if not self.prelude and "__file__" not in self.ns:
            self._load_prelude()

    def who(self):
        from nndb import introspect
        return introspect.who(self)

    # ---- running ----
    def _load_prelude(self):
        if self.prelude:
            return
        self.prelude = True
        before = set(self.ns)
        try:
            from nndb import prelude
            prelude.fill(self.ns)
        except Exception as e:  # the session still works without it
            _STDERR.write(f"nndb: the interactive prelude did not load: {e}\n")
        self.hidden.update((k, v) for k, v in self.ns.items() if k not in before)
        self._add_ipython_names()

    def _add_helpers(self):
        """What transform_cell's output calls, and IPython's own names
        (display, In, Out, exit). Each helper takes the cell's frame, whose
        names magics and shell commands see."""
        def _magic(name, line):
            return _magics.run_line_magic(self, name, line, sys._getframe(1))

        def _cell_magic(name, line, body):
            return _magics.run_cell_magic(self, name, line, body, sys._getframe(1))

        def _system(cmd):
            return _magics.system(cmd, sys._getframe(1))

        def _getoutput(cmd):
            return _magics.getoutput(cmd, sys._getframe(1))

        helpers = dict(_magic=_magic, _cell_magic=_cell_magic, _system=_system,
                       _getoutput=_getoutput)
        self.ns.update(helpers)
        self.hidden.update(helpers)

    def _add_ipython_names(self):
        """An interactive session's own names, as IPython has them (a script
        sees only what python3 gives it)."""
        names = dict(display=_display.display, update_display=_display.update_display,
                     In=self.In, Out=self.Out, exit=_Exit("exit"), quit=_Exit("quit"))
        self.ns.update(names)
        self.hidden.update(names)
        # IPython's output history is there before any output, empty
        for name in ("_", "__", "___"):
            self.ns.setdefault(name, "")

    def _cache(self, filename, source):
        """Keep [source] in linecache under [filename] (None as the mtime:
        checkcache leaves it), so tracebacks and inspect.getsource see it."""
        import linecache
        if filename.startswith("<") or not os.path.exists(filename):
            lines = source.splitlines(keepends=True)
            if lines and not lines[-1].endswith("\n"):
                lines[-1] += "\n"
            linecache.cache[filename] = (len(source), None, lines, filename)
        return source

    def _learn_flags(self, code):
        import __future__
        for name in __future__.all_feature_names:
            flag = getattr(__future__, name).compiler_flag
            if code.co_flags & flag:
                self.flags |= flag

    def _exec_source(self, code, filename):
        source = _magics.transform_cell(code)
        self._cache(filename, code)
        compiled = compile(source, filename, "exec", self.flags, True)
        self._learn_flags(compiled)
        exec(compiled, self.ns)

    def _run(self, tree_or_expr, filename, mode):
        import ast
        flags = self.flags | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
        compiled = compile(tree_or_expr, filename, mode, flags, True)
        if mode == "exec":
            self._learn_flags(compiled)
        if compiled.co_flags & _CO_COROUTINE:
            import asyncio
            return asyncio.run(eval(compiled, self.ns))
        return eval(compiled, self.ns)

    def _run_interactive(self, code, filename):
        import ast
        number = _cell_number(filename)
        if number is None:
            number = self.count + 1
        self.count = max(self.count, number)
        source = _magics.transform_cell(code)
        if filename.startswith("<cell "):
            self._remember_input(code, number)
            if self.dap is not None and self.dap.started:
                # the name a visual debugger gives this cell (nndb/dap.py)
                filename = self.dap.cell_file(code)
        self._cache(filename, code)
        tree = compile(source, filename, "exec", ast.PyCF_ONLY_AST | self.flags, True)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not _ends_with_semicolon(source):
            last = tree.body.pop()
        if tree.body:
            self._run(tree, filename, "exec")
        if last is None:
            return None
        value = self._run(ast.Expression(last.value), filename, "eval")
        if isinstance(value, _Exit):  # a bare `exit` leaves, as in IPython
            value()
        # every shown value but a kernel's user_expressions (IPython's too)
        if value is not None and filename != "<user_expression>":
            self._remember_output(value, number)
        return value

    def _remember_input(self, code, number):
        while len(self.In) < number:
            self.In.append("")
        if len(self.In) == number:
            self.In.append(code)
        else:
            self.In[number] = code
        self.ns["_i" + str(number)] = code
        self.ns["_iii"], self.ns["_ii"] = self.ns.get("_ii", ""), self.ns.get("_i", "")
        self.ns["_i"] = code

    def _remember_output(self, value, number):
        if value is self.Out:
            return
        self.Out[number] = value
        self.ns["_" + str(number)] = value
        self.ns["___"] = self.ns.get("__", "")
        self.ns["__"] = self.ns.get("_", "")
        self.ns["_"] = value

    def comm_message(self, msg_type, content_json):
        """lang_session_comm: a comm message from the client (nndb/comm.py);
        False for a comm_open no target takes."""
        global _active
        _active = self
        from nndb.comm import comm_manager
        try:
            return comm_manager().handle(msg_type, json.loads(content_json))
        except Exception as e:
            _STDERR.write(f"nndb: {msg_type} failed: {type(e).__name__}: {e}\n")
            return msg_type != "comm_open"
        finally:
            _flush_streams()

    def comm_info(self, target_name):
        """lang_session_comm_info: the open comms as JSON."""
        from nndb.comm import comm_manager
        return json.dumps(comm_manager().info(target_name))

    def show_deferred(self):
        """lang_session_show_deferred: the figures of the cell that ran."""
        self._show_figures()
        _flush_streams()

    def _show_figures(self):
        try:
            _display.flush_figures()
        except Exception as e:
            _STDERR.write(f"nndb: a figure could not be drawn: {type(e).__name__}: {e}\n")

    @staticmethod
    def _exit_status(e):
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        _STDERR.write(f"{code}\n")
        return 1

    @staticmethod
    def _short_error(e):
        _, ename, evalue, _ = describe_error(e)
        return f"{ename}: {evalue}" if evalue else ename


# ---- lang_is_complete (no session needed) ----

def is_complete(code):
    """(0 complete | 1 incomplete | 2 invalid, indent of the next line)."""
    import codeop
    text = code.lstrip("\n")
    if text.startswith("%%"):
        # A cell magic's body is not Python: as in IPython's terminal, it
        # goes on until a blank line (the last line's own newline aside).
        cell_lines = (text[:-1] if text.endswith("\n") else text).split("\n")
        return (0, 0) if len(cell_lines) > 1 and not cell_lines[-1].strip() else (1, 0)
    source = _magics.transform_cell(code, checking=True)
    if not source.strip():
        return 0, 0
    lines = source.split("\n")
    if lines[-1].rstrip().endswith("\\"):
        return 1, _indent_of(lines[-1])
    try:
        compiled = codeop.compile_command(source, "<input>", "exec")
    except (SyntaxError, OverflowError, ValueError, TypeError, MemoryError):
        return 2, 0
    if compiled is None:
        return 1, _next_indent(lines)
    # It compiles; a block whose last line is indented may go on, as at
    # Python's prompt, until a blank line ends it. A last line of only the
    # indent a front end typed for the next line (jupyter console's) is such
    # a blank line, as IPython's check_complete takes it.
    if not code.endswith("\n") and lines[-1][:1] in (" ", "\t") and lines[-1].strip():
        return 1, _indent_of(lines[-1])
    return 0, 0


def _indent_of(line):
    return len(line) - len(line.lstrip(" \t"))


def _next_indent(lines):
    for line in reversed(lines):
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        indent = _indent_of(line)
        return indent + 4 if stripped.endswith(":") else indent
    return 0
