"""IPython's syntax in nndb sessions: magics, shell commands and `name?`.

transform_cell() is the input transformer that runs before a cell is
compiled. Line by line, at the start of a logical line (not inside a
bracket or a string), it rewrites

    %name args        ->  _magic('name', 'args')
    x = %name args    ->  x = _magic('name', 'args')
    !cmd              ->  _system('cmd')
    x = !cmd          ->  x = _getoutput('cmd')
    name? / name??    ->  _magic('pinfo', 'name') / _magic('pinfo2', 'name')

and a cell that starts with %%name becomes _cell_magic('name', 'line',
'body'). One line stays one line, so tracebacks keep the cell's line
numbers (and show its own text, from linecache). The functions named are
put in the session's namespace (nndb.session).

Magics added from C with lang_session_add_magic (the drills' %drill) are
looked up through the front end and run there.
"""

import os
import re
import sys
import time

__all__ = ["transform_cell", "run_line_magic", "run_cell_magic", "UsageError", "system",
           "getoutput"]


class UsageError(Exception):
    """A magic was misused (shown without a traceback, as IPython does)."""


class MagicError(Exception):
    """Base of the errors extension magics fail with (DrillError, ...):
    shown without a traceback."""


_ext_errors = {}


def _ext_error(ename):
    cls = _ext_errors.get(ename)
    if cls is None:
        cls = type(ename, (MagicError,), {"__module__": "builtins"})
        _ext_errors[ename] = cls
    return cls


# ---- the input transformer ----

_ASSIGN = re.compile(r"^(\s*)([\w.,\s\[\]*()]+?)\s*=\s*([%!])(.*)$")
_HELP = re.compile(r"^(\s*)(\?{1,2})?(%{0,2}[A-Za-z_][\w.]*(?:\[.*\])?(?:\(\))?)(\?{1,2})?\s*$")


class _Scanner:
    """Whether the next line starts a logical line: open brackets, open
    triple-quoted strings and backslash continuations say it does not."""

    def __init__(self):
        self.depth = 0
        self.quote = None  # the open triple quote
        self.backslash = False

    def at_start(self):
        return self.depth == 0 and self.quote is None and not self.backslash

    def feed(self, line):
        i, n = 0, len(line)
        self.backslash = False
        while i < n:
            c = line[i]
            if self.quote:
                if c == "\\":
                    i += 2
                    continue
                if line.startswith(self.quote, i):
                    i += 3
                    self.quote = None
                    continue
                i += 1
                continue
            if c == "#":
                break
            if c in "\"'":
                if line.startswith(c * 3, i):
                    self.quote = c * 3
                    i += 3
                    continue
                j = i + 1
                while j < n and line[j] != c:
                    j += 2 if line[j] == "\\" else 1
                i = j + 1
                continue
            if c in "([{":
                self.depth += 1
            elif c in ")]}":
                self.depth = max(0, self.depth - 1)
            i += 1
        if line.rstrip().endswith("\\") and not self.quote:
            self.backslash = True


def _rewrite(line, checking):
    """The Python for one line that starts a logical line, or None."""
    indent = line[:len(line) - len(line.lstrip())]
    body = line.strip()
    if not body or body.startswith("#"):
        return None
    if checking and (body[0] in "%!" or (body.endswith("?") and _HELP.match(line))):
        return indent + "pass"
    if body.startswith("!"):
        return f"{indent}_system({body[1:]!r})"
    if body.startswith("%") and not body.startswith("%%"):
        name, _, args = body[1:].partition(" ")
        if name.endswith("?") and not args:
            return f"{indent}_magic('pinfo', {('%' + name.rstrip('?'))!r})"
        return f"{indent}_magic({name!r}, {args.strip()!r})"
    m = _ASSIGN.match(line)
    if m and not checking:
        target, kind, rest = m.group(2), m.group(3), m.group(4)
        if kind == "!":
            return f"{m.group(1)}{target} = _getoutput({rest!r})"
        name, _, args = rest.partition(" ")
        if name and re.fullmatch(r"\w+", name):
            return f"{m.group(1)}{target} = _magic({name!r}, {args.strip()!r})"
    if "?" in body:
        m = _HELP.match(line)
        if m and (m.group(2) or m.group(4)):
            marks = (m.group(2) or "") + (m.group(4) or "")
            which = "pinfo2" if "??" in marks else "pinfo"
            return f"{m.group(1)}_magic({which!r}, {m.group(3)!r})"
    return None


def transform_cell(code, checking=False):
    """Python source for a cell written with IPython's syntax. [checking]:
    for is_complete, magics become `pass` (their arguments are not Python)."""
    stripped = code.lstrip("\n")
    if stripped.startswith("%%"):
        first, _, body = stripped.partition("\n")
        if checking:
            return "pass"
        name, _, line = first[2:].partition(" ")
        if body.endswith("\n\n"):
            body = body[:-1]  # the blank line that ended it at a terminal
        lead = "\n" * (len(code) - len(stripped))
        return f"{lead}_cell_magic({name!r}, {line.strip()!r}, {body!r})\n"
    if not any(c in code for c in "%!?"):
        return code
    out = []
    scanner = _Scanner()
    for line in code.split("\n"):
        new = _rewrite(line, checking) if scanner.at_start() else None
        if new is None:
            scanner.feed(line)
            out.append(line)
        else:
            out.append(new)
    return "\n".join(out)


# ---- expanding $name and {expr} in shell commands and magic lines ----

def _expand(text, frame):
    ns = dict(frame.f_globals) if frame is not None else {}
    if frame is not None:
        ns.update(frame.f_locals)

    def braces(m):
        try:
            return str(eval(m.group(1), ns))
        except Exception:
            return m.group(0)

    def dollar(m):
        name = m.group(1)
        return str(ns[name]) if name in ns else m.group(0)

    text = re.sub(r"(?<!\{)\{([^{}]+)\}(?!\})", braces, text)
    text = re.sub(r"(?<!\$)\$([A-Za-z_]\w*)", dollar, text)
    return text.replace("$$", "$")


def system(cmd, frame=None):
    """!cmd: the shell runs it; its output (stderr with stdout) streams to
    the cell's stdout as it comes. Ctrl-C / an interrupt ends it."""
    import subprocess
    frame = frame or sys._getframe(1)
    cmd = _expand(cmd, frame)
    sys.stdout.flush()
    proc = subprocess.Popen(cmd, shell=True, executable="/bin/bash", stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        while True:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            sys.stdout.write(chunk.decode("utf-8", "replace"))
        proc.wait()
    except KeyboardInterrupt:
        proc.kill()
        proc.wait()
        raise
    finally:
        proc.stdout.close()
    sys.modules["__main__"].__dict__["_exit_code"] = proc.returncode


class SList(list):
    """The lines of x = !cmd (IPython's SList: .s, .n, .l)."""

    @property
    def s(self):
        return " ".join(self)

    @property
    def n(self):
        return "\n".join(self)

    @property
    def l(self):  # noqa: E743 (IPython's name)
        return list(self)


def getoutput(cmd, frame=None):
    import subprocess
    frame = frame or sys._getframe(1)
    out = subprocess.run(_expand(cmd, frame), shell=True, executable="/bin/bash",
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL).stdout
    return SList(out.decode("utf-8", "replace").splitlines())


# ---- time and timeit, in IPython's words ----

def _format_time(timespan, precision=3):
    """IPython's: "1.23 ms", "456 ns", "1min 3s"."""
    import math
    if timespan >= 60.0:
        parts = [("d", 60 * 60 * 24), ("h", 60 * 60), ("min", 60), ("s", 1)]
        time_parts = []
        leftover = timespan
        for suffix, length in parts:
            value = int(leftover / length)
            if value > 0:
                leftover = leftover % length
                time_parts.append(f"{value}{suffix}")
            if leftover < 1:
                break
        return " ".join(time_parts)
    units = ["s", "ms", "\xb5s", "ns"]
    scaling = [1, 1e3, 1e6, 1e9]
    if timespan > 0.0:
        order = min(-int(math.floor(math.log10(timespan)) // 3), 3)
    else:
        order = 3
    return "%.*g %s" % (precision, timespan * scaling[order], units[order])


class TimeitResult:
    """What %timeit -o returns (IPython's fields and text)."""

    def __init__(self, loops, repeat, best, worst, all_runs, compile_time, precision):
        self.loops = loops
        self.repeat = repeat
        self.best = best
        self.worst = worst
        self.all_runs = all_runs
        self.compile_time = compile_time
        self._precision = precision
        self.timings = [dt / self.loops for dt in all_runs]

    @property
    def average(self):
        return sum(self.timings) / len(self.timings)

    @property
    def stdev(self):
        import math
        mean = self.average
        return math.sqrt(sum((x - mean) ** 2 for x in self.timings) / len(self.timings))

    def __str__(self):
        return ("{mean} \xb1 {std} per loop (mean \xb1 std. dev. of {runs} run{rp}, "
                "{loops:,} loop{lp} each)".format(
                    mean=_format_time(self.average, self._precision),
                    std=_format_time(self.stdev, self._precision), runs=self.repeat,
                    loops=self.loops, rp="" if self.repeat == 1 else "s",
                    lp="" if self.loops == 1 else "s"))

    def __repr__(self):
        return f"<TimeitResult : {self}>"


def _namespaces(frame):
    return frame.f_globals, frame.f_locals


def _compile_timed(session, source, filename):
    """(code, is_expression) for %time: the last expression's value is the
    result, as a cell's is."""
    import ast
    tree = compile(source, filename, "exec", ast.PyCF_ONLY_AST | session.flags, True)
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        return compile(ast.Expression(tree.body[0].value), filename, "eval", session.flags,
                       True), True
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = tree.body.pop()
        return (compile(tree, filename, "exec", session.flags, True),
                compile(ast.Expression(last.value), filename, "eval", session.flags, True)), True
    return compile(tree, filename, "exec", session.flags, True), False


def _cpu_times():
    import resource
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime, usage.ru_stime


def _time(session, line, frame, body=None):
    source = body if body is not None else line
    if not source.strip():
        raise UsageError("%time needs a statement to time: %time EXPR")
    t0 = time.perf_counter()
    code, is_expr = _compile_timed(session, source, "<timed exec>" if body or "\n" in source
                                   else "<timed eval>")
    tc = time.perf_counter() - t0
    glob, loc = _namespaces(frame)
    st, wall0 = _cpu_times(), time.time()
    out = None
    if isinstance(code, tuple):
        exec(code[0], glob, loc)
        out = eval(code[1], glob, loc)
    elif is_expr:
        out = eval(code, glob, loc)
    else:
        exec(code, glob, loc)
    wall, end = time.time() - wall0, _cpu_times()
    user, sys_ = end[0] - st[0], end[1] - st[1]
    print(f"CPU times: user {_format_time(user)}, sys: {_format_time(sys_)}, "
          f"total: {_format_time(user + sys_)}")
    print(f"Wall time: {_format_time(wall)}")
    if tc > 0.1:
        print(f"Compiler : {_format_time(tc)}")
    return out


def _timeit(session, line, frame, body=None):
    import getopt
    import timeit as _timeit_mod
    try:
        opts, rest = getopt.getopt(line.split(" ") if line.strip() else [], "n:r:tcp:qo")
    except getopt.GetoptError as e:
        raise UsageError(f"%timeit: {e}")
    stmt = body if body is not None else " ".join(rest)
    setup = " ".join(rest) if body is not None else "pass"
    if not stmt.strip():
        raise UsageError("%timeit needs a statement to time: %timeit [-n N -r R] STMT")
    opt = dict(opts)
    number = int(opt.get("-n", 0))
    repeat = int(opt.get("-r", 7))
    precision = int(opt.get("-p", 3))
    glob, loc = _namespaces(frame)
    ns = dict(glob)
    ns.update(loc)
    t0 = time.perf_counter()
    timer = _timeit_mod.Timer(stmt, setup or "pass", timer=time.perf_counter, globals=ns)
    tc = time.perf_counter() - t0
    if number == 0:
        for index in range(10):
            number = 10 ** index
            if timer.timeit(number) >= 0.2:
                break
    all_runs = timer.repeat(repeat, number)
    best, worst = min(all_runs) / number, max(all_runs) / number
    result = TimeitResult(number, repeat, best, worst, all_runs, tc, precision)
    if "-q" not in opt:
        if worst > 4 * best and best > 0 and worst > 1e-6:
            print("The slowest run took %0.2f times longer than the fastest. This could mean "
                  "that an intermediate result is being cached." % (worst / best))
        print(result)
        if tc > 0.1:
            print("Compiler time: %.2f s" % tc)
    return result if "-o" in opt else None


# ---- the other line magics ----

def _who(session, line, frame):
    from nndb import introspect
    names = introspect.user_names(session)
    kinds = line.split()
    if kinds:
        names = [n for n in names if type(session.ns[n]).__name__ in kinds]
        if not names:
            print("No variables match your requested type.")
            return
    if not names:
        print("Interactive namespace is empty.")
        return
    # IPython's layout: each name, a tab and a space; nine to a line.
    for i in range(0, len(names), 9):
        print("".join(n + "\t " for n in names[i:i + 9]))


def _whos(session, line, frame):
    from nndb import introspect
    print(introspect.who(session, line.split()), end="")


def _reset(session, line, frame):
    args = line.split()
    if "-f" not in args:
        answer = input("Once deleted, variables cannot be recovered. Proceed (y/[n])? ")
        if answer.strip().lower() not in ("y", "yes"):
            print("Nothing done.")
            return
    from nndb import introspect
    for name in introspect.user_names(session, include_private=True):
        del session.ns[name]
    session.Out.clear()
    del session.In[1:]
    for name in ("_", "__", "___", "_i", "_ii", "_iii"):
        session.ns[name] = ""


def _matplotlib(session, line, frame):
    gui = line.strip() or "inline"
    if gui not in ("inline", "agg"):
        print(f"nndb shows figures inline; %matplotlib {gui} is taken as %matplotlib inline.")


def _config(session, line, frame):
    from nndb import display
    text = line.strip()
    if not text or text == "InlineBackend":
        print("InlineBackend options\n---------------------")
        for k, v in display.inline_config.items():
            print(f"--InlineBackend.{k}={v!r}")
        return
    m = re.fullmatch(r"(\w+)\.(\w+)\s*=\s*(.+)", text)
    if not m:
        raise UsageError(f"%config: expected Class.name = value, got {text!r}")
    cls, name, value = m.groups()
    if cls != "InlineBackend":
        raise UsageError(f"%config: nndb knows only InlineBackend (not {cls})")
    try:
        value = eval(value, frame.f_globals, frame.f_locals)
    except Exception as e:
        raise UsageError(f"%config: cannot evaluate {value!r}: {e}")
    display.inline_config[name] = value


_last_dir = [None]


def _cd(session, line, frame):
    target = line.strip()
    if target.startswith(("'", '"')) and target.endswith(target[0]):
        target = target[1:-1]
    if target == "-":
        target = _last_dir[0] or os.getcwd()
    elif not target:
        target = os.path.expanduser("~")
    target = os.path.expanduser(_expand(target, frame))
    before = os.getcwd()
    try:
        os.chdir(target)
    except OSError as e:
        print(e)  # as IPython: the error, then the folder it stays in
    else:
        _last_dir[0] = before
    print(os.getcwd())


def _env(session, line, frame):
    text = line.strip()
    if not text:
        return dict(os.environ)
    m = re.fullmatch(r"([\w.]+)\s*(?:=\s*|\s+)(.*)", text)
    if m:
        name, value = m.group(1), _expand(m.group(2), frame)
        os.environ[name] = value
        print(f"env: {name}={value}")
        return None
    if text in os.environ:
        return os.environ[text]
    raise UsageError(f"Environment does not have key: {text}")


def _run(session, line, frame):
    import shlex
    import types
    args = shlex.split(line)
    in_user_ns = False
    while args and args[0].startswith("-"):
        flag = args.pop(0)
        if flag == "-i":
            in_user_ns = True
        else:
            raise UsageError(f"%run: nndb knows only -i (not {flag})")
    if not args:
        raise UsageError("%run needs a file: %run [-i] FILE [ARGS...]")
    path = os.path.expanduser(args[0])
    if not os.path.exists(path) and os.path.exists(path + ".py"):
        path += ".py"
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        raise UsageError(f"File `{args[0]!r}` not found.") from e
    old_argv = sys.argv[:]
    sys.argv[:] = [path] + args[1:]
    if in_user_ns:
        ns = session.ns
    else:
        module = types.ModuleType("__main__")
        ns = module.__dict__
        ns.update(__builtins__=__builtins__, __file__=path)
    saved_main = sys.modules.get("__main__")
    sys.modules["__main__"] = session.module if in_user_ns else module
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(1, folder)
    try:
        exec(compile(transform_cell(source), path, "exec", session.flags, True), ns)
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    finally:
        sys.argv[:] = old_argv
        sys.modules["__main__"] = saved_main
        try:
            sys.path.remove(folder)
        except ValueError:
            pass
        if not in_user_ns:
            session.ns.update({k: v for k, v in ns.items()
                               if not k.startswith("__") or k == "__file__"})


def _pinfo(session, line, frame, detail=0):
    from nndb import introspect
    text = introspect.pinfo(session, line.strip(), detail, frame)
    print(text, end="" if text.endswith("\n") else "\n")


def _history(session, line, frame):
    for code in session.history:
        print(code)


def _lsmagic(session, line, frame):
    names = sorted(set(_LINE) | {n for n, _, _ in session.fe.ext_magics()})
    print("Available line magics:")
    print("  ".join("%" + n for n in names))
    print()
    print("Available cell magics:")
    print("  ".join("%%" + n for n in sorted(_CELL)))


def magic_help(session, name):
    """%help %NAME's text: the usage line, the description and an example,
    or None for a magic nndb does not have."""
    for n, sig, doc in session.fe.ext_magics():
        if n == name:
            return f"{sig}\n\n    {doc}\n"
    if name not in _LINE and name not in _CELL:
        return None
    doc = _DOCS.get(name) or (getattr(_LINE.get(name) or _CELL.get(name), "__doc__", None)
                              or f"%{name}")
    usage, sep, text = doc.partition(": ")
    if not sep:
        usage, text = f"%{name}", doc
    out = f"{usage}\n\n    {text}\n"
    example = _EXAMPLES.get(name)
    if example:
        out += f"\n    Example:\n        {example}\n"
    return out


def _help(session, line, frame):
    """%help: the magics; %help NAME: help on a name (`nndb help zeros`)."""
    what = line.split("#", 1)[0].strip()  # nndb's own magic: a comment is not its argument
    if not what:
        return _lsmagic(session, line, frame)
    if what.startswith("%"):
        text = magic_help(session, what.lstrip("%"))
        if text is None:
            raise _not_found(session, what.lstrip("%"))
        print(text, end="")
        return None
    session._load_prelude()
    from nndb import introspect
    text = introspect.pinfo(session, what, 0, frame)
    if text.startswith("Object `"):
        raise UsageError(f"no help on {what!r}")
    print(text, end="")


def _int_argument(magic, line):
    """The one integer argument of %seed / %threads (a comment after it is
    not part of it), or None when there is none."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"%{magic} needs an integer, got {text!r}") from None


def _seed(session, line, frame):
    import torch
    n = _int_argument("seed", line)
    if n is None:
        raise UsageError("%seed needs an integer: %seed N")
    torch.manual_seed(n)


def _threads(session, line, frame):
    import torch
    n = _int_argument("threads", line)
    if n is None:
        print(torch.get_num_threads())
        return
    if not 1 <= n <= 1024:
        raise UsageError(f"%threads needs 1 to 1024 threads, got {n}")
    torch.set_num_threads(n)


def _exit_magic(line):
    """%exit [CODE] / %quit [CODE]: leave as exit() does."""
    line = line.strip()
    if not line:
        raise SystemExit(None)
    try:
        raise SystemExit(int(line))
    except ValueError:
        raise ValueError(f"%exit takes an exit status (a whole number), not {line!r}") from None


def _not_yet(name):
    def magic(session, line, frame):
        raise NotImplementedError(f"%{name} is not yet available under the CPython session")
    return magic


_LINE = {
    "time": _time,
    "timeit": _timeit,
    "who": _who,
    "whos": _whos,
    "reset": _reset,
    "matplotlib": _matplotlib,
    "config": _config,
    "pwd": lambda session, line, frame: os.getcwd(),
    "cd": _cd,
    "env": _env,
    "run": _run,
    "pinfo": _pinfo,
    "pinfo2": lambda session, line, frame: _pinfo(session, line, frame, 1),
    "history": _history,
    "lsmagic": _lsmagic,
    "magic": _lsmagic,
    "help": _help,
    "seed": _seed,
    "threads": _threads,
    "exit": lambda session, line, frame: _exit_magic(line),
    "quit": lambda session, line, frame: _exit_magic(line),
    "sx": lambda session, line, frame: getoutput(line, frame),
    "system": lambda session, line, frame: getoutput(line, frame),
}
for _name in ("break", "step", "anomaly", "graph", "profile", "stats"):
    _LINE[_name] = _not_yet(_name)


_DOCS = {
    "time": "%time STMT: run it once; CPU and wall time (IPython's format); its value.",
    "timeit": "%timeit [-n N -r R -p P -q -o] STMT: time STMT over many loops and R runs "
              "(IPython's format): mean \xb1 std. dev. per loop.",
    "who": "%who [TYPE...]: the session's variable names.",
    "whos": "%whos [TYPE...]: variables with type and a summary (tensors: shape, dtype).",
    "reset": "%reset [-f]: delete every variable of the session.",
    "matplotlib": "%matplotlib [inline]: figures are shown inline (accepted for IPython's sake).",
    "config": "%config InlineBackend.figure_format = 'png' | 'svg' | 'retina' | 'jpeg'.",
    "pwd": "%pwd: the working folder.",
    "cd": "%cd [DIR | -]: change the working folder (home without DIR).",
    "env": "%env [NAME[=VALUE]]: read or set environment variables.",
    "run": "%run [-i] FILE [ARGS]: run a Python file as __main__; its names join the session.",
    "pinfo": "NAME? or %pinfo NAME: signature, docstring, file and type.",
    "pinfo2": "NAME?? or %pinfo2 NAME: the same, with the source.",
    "history": "%history: the inputs of this session.",
    "lsmagic": "%lsmagic: the magics.",
    "help": "%help [NAME]: the magics, or help on NAME (a magic: %help %NAME).",
    "seed": "%seed N: seed the random generator (as manual_seed(N)).",
    "exit": "%exit [CODE]: leave the session, as exit(CODE) (work in files is kept; the REPL "
            "saves its history).",
    "quit": "%quit [CODE]: the same as %exit.",
    "threads": "%threads [N]: show or set the number of threads for matmul and parallel "
               "kernels (as torch.set_num_threads(N)).",
}

# %help %NAME's examples.
_EXAMPLES = {
    "time": "%time for i in range(1000): pass",
    "timeit": "%timeit x @ x",
    "who": "%who Tensor",
    "whos": "%whos",
    "reset": "%reset -f",
    "run": "%run -i train.py",
    "env": "%env OMP_NUM_THREADS=1",
    "cd": "%cd data",
    "help": "%help %seed",
    "seed": "%seed 0",
    "threads": "%threads 2",
}

from nndb import debugger as _debugger  # noqa: E402 (%break %step %anomaly %graph %debug %pdb)
_debugger.register(_LINE, _DOCS)
for _mod in ("nndb.instruments", "nndb.probe"):  # %profile %stats %probe %doctor
    _mod = __import__(_mod, fromlist=["register"])
    _mod.register(_LINE, _DOCS)
    _EXAMPLES.update(getattr(_mod, "EXAMPLES", {}))


def _all_line_names(session):
    return sorted(set(_LINE) | {n for n, _, _ in session.fe.ext_magics()})


def _not_found(session, name, cell=False):
    import difflib
    names = sorted(_CELL) if cell else _all_line_names(session)
    close = difflib.get_close_matches(name, names, n=1)
    mark = "%%" if cell else "%"
    kind = "Cell magic" if cell else "Line magic function"
    hint = f" Did you mean: {mark}{close[0]}?" if close else ""
    return UsageError(f"{kind} `{mark}{name}` not found.{hint}")


def run_line_magic(session, name, line, frame=None):
    """%NAME LINE in [frame]'s namespaces (the cell's)."""
    frame = frame or sys._getframe(1)
    ext = {n for n, _, _ in session.fe.ext_magics()}
    if name in ext:
        failed = session.fe.ext_magic(name, line)
        if failed is not None:
            ename, message = failed
            raise _ext_error(ename)(message)
        return None
    fn = _LINE.get(name)
    if fn is None:
        raise _not_found(session, name)
    return fn(session, line, frame)


# ---- cell magics ----

def _writefile(session, line, frame, body):
    args = line.split()
    append = "-a" in args or "--append" in args
    names = [a for a in args if not a.startswith("-")]
    if not names:
        raise UsageError("%%writefile needs a file name")
    path = os.path.expanduser(names[0])
    exists = os.path.exists(path)
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        f.write(body)
    print(f"{'Appending to' if append else 'Overwriting' if exists else 'Writing'} {path}")


def _shell_cell(session, line, frame, body):
    system(body, frame)


def _rich_cell(cls_name):
    def magic(session, line, frame, body):
        from nndb import display
        display.display(getattr(display, cls_name)(body))
    return magic


_CELL = {
    "time": lambda s, line, f, body: _time(s, line, f, body),
    "timeit": lambda s, line, f, body: _timeit(s, line, f, body),
    "writefile": _writefile,
    "bash": _shell_cell,
    "sh": _shell_cell,
    "html": _rich_cell("HTML"),
    "markdown": _rich_cell("Markdown"),
    "svg": _rich_cell("SVG"),
}


def run_cell_magic(session, name, line, body, frame=None):
    frame = frame or sys._getframe(1)
    fn = _CELL.get(name)
    if fn is None:
        raise _not_found(session, name, cell=True)
    return fn(session, line, frame, body)
