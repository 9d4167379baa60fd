"""nndb's debugger on CPython: breakpoints on ops, modules and phases,
stepping through the forward and backward passes node by node, a pdb prompt
at every stop, the NaN hunt and post-mortem debugging.

pdb steps through the lines of a program; this debugger steps through the
*nodes* of a pass. The engine calls a hook after every node it runs
(binding/py_debug.c); the hook is registered only while something needs it
(an enabled breakpoint, a pending step, anomaly mode), so an idle debugger
costs nothing. While it is registered each forward node is labelled with
the user's file and line (the innermost frame that is not nndb's own
torch/ or nndb/ code) and the module path ("model.2"), which global
nn.Module forward hooks push while the debugger is on.

A stop shows the node (op, phase, position, module, source line with a
caret, one row of statistics per tensor) and opens a pdb prompt whose
current frame is the Python frame that called the op, with `out`,
`inputs`, `grad`, `grads` and `node` bound beside its variables. pdb's own
commands work there (p, pp, l, ll, w, u, d, a, display, interact, any
statement); s, n, c, f, q are the op-level ones (docs/debugger.md).

Code run at a stop runs inside the executor's hook, where ops run directly:
it never enters the graph being debugged and never triggers a breakpoint.

The prompt reads its lines with input(), which in a session goes through
the front end (readline in the terminal, an input_request in Jupyter).
"""

import collections.abc
import functools
import threading
import math
import os
import sys
import types

_NNDB_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep

RUN, STEP, NEXT, FINISH = range(4)
_CO_OPTIMIZED = 0x0001

SPEC_HELP = ("a breakpoint is any of: an op name (matmul, log, cross_entropy), a module path "
             "(model.2, model.blocks.*.attn), forward, backward, nan, line N, FILE:LINE, "
             "step N; then optionally `if CONDITION`; `py FILE:LINE` or `py FUNC` stops on a "
             "Python line instead (bdb's)")

HELP_TEXT = """\
Commands at the (nndb) prompt:
  s, step: stop at the next op (forward op or backward node) or the next
    line of your code, whichever comes first (the stop says which)
  sop: the next op only;  sline (at a line): pdb's s, lines only
  n, next: run to the next line of this frame (pdb's n; ops do not stop it)
  nop: run until a node outside the current module (step over its ops)
  c, continue: run until a breakpoint (Ctrl-D does the same)
  f, finish: run to the end of this pass; stop at the next pass's first node
  nl, nextline: the same as n at an op stop
  w, where: your frames, the module path and the position in the pass
  u, d: up / down a frame;  l, ll: the source;  a: the function's arguments
  p EXPR, pp EXPR, display EXPR, interact, !STATEMENT, any statement
  watch EXPR: print EXPR at every stop;  watch: list them;  unwatch N|all
  graph [EXPR]: the recorded graph so far (or behind EXPR)
  back [N], rs: the op before (%timetravel on);  history: the ops kept;  now
  b [SPEC]: set a breakpoint (as %break; b py FILE:LINE or b py FUNC for a
    Python line), or list them;  cl N|all: delete
  %MAGIC: a line magic (%graph, %break, %whos, ...) in this frame
  fwd (post-mortem, after an error in backward()): the forward line that
    recorded the failing node, and its frame when it is still running
  q, quit: abort the statement (torch._C.Stopped); the session and its
    variables stay
Bound at a stop: out, inputs, grad (backward: d loss/d out), grads
(backward: d loss/d input) and node (op, module, file, line, phase, position).
h CMD: pdb's help for one command.
"""


class AnomalyError(RuntimeError):
    """The NaN hunt found where a NaN or an infinity was born."""


def _C():
    from torch import _C
    return _C


def _internal_dirs():
    import torch
    return (os.path.dirname(os.path.abspath(torch.__file__)) + os.sep, _NNDB_DIR)


def _is_internal(filename, dirs=None):
    dirs = dirs or _internal_dirs()
    return filename.startswith(dirs)


def _dap():
    """The debug protocol's server when a visual debugger (JupyterLab,
    VS Code) has started it on this session, else None."""
    sess = _session()
    dap = getattr(sess, "dap", None) if sess is not None else None
    return dap if dap is not None and dap.started else None


_LIB_DIRS = None


def _not_yours(filename):
    """A file that is nndb's, the standard library's or an installed
    package's (the frozen importlib included), not the learner's."""
    global _LIB_DIRS
    if _LIB_DIRS is None:
        import sysconfig
        paths = sysconfig.get_paths()
        dirs = {paths.get("stdlib"), paths.get("platstdlib"), paths.get("purelib"),
                paths.get("platlib"), "/usr/lib/python3/dist-packages"}
        _LIB_DIRS = tuple(d.rstrip(os.sep) + os.sep for d in dirs if d) + _internal_dirs()
    return filename.startswith("<frozen") or filename.startswith(_LIB_DIRS)


def _user_frame(frame):
    """The innermost frame from [frame] outwards that is the user's."""
    dirs = _internal_dirs()
    while frame is not None and _is_internal(frame.f_code.co_filename, dirs):
        frame = frame.f_back
    return frame


def _top_frame(frame):
    """The outermost frame that is the user's: the cell, the script."""
    dirs = _internal_dirs()
    top = None
    while frame is not None:
        if not _is_internal(frame.f_code.co_filename, dirs):
            top = frame
        frame = frame.f_back
    return top


def _session():
    mod = sys.modules.get("nndb.session")
    return mod.active() if mod else None


def _can_read():
    if _dap() is not None:  # a visual debugger answers the stops
        return True
    s = _session()
    if s is None:
        return sys.stdin is not None and sys.stdin.isatty()
    try:
        return bool(s.fe.can_read())
    except Exception:
        return False


def _dist_note(ev, frame):
    """Under mpirun the other ranks wait for this one at their next
    collective: tell torch.distributed where this rank stopped (their
    timeout then says it is in the debugger, and where) and the user that
    they wait; [ev] None when the prompt is over."""
    c10d = sys.modules.get("torch.distributed.distributed_c10d")
    if c10d is None:
        return
    where = None
    if ev is not None:
        file, line = ev.file, ev.line
        if not file and frame is not None:
            file, line = frame.f_code.co_filename, frame.f_lineno
        module = f" in {ev.module}" if ev.module else ""
        where = f"at {ev.phase} {ev.op}{module}, {file}:{line}"
    note = c10d._debugger_stop(where)
    if note:
        sys.stderr.write(note)
        sys.stderr.flush()


def _show(text, html=None):
    """A stop, a report or a graph: text in the terminal, HTML (and SVG)
    beside it in Jupyter."""
    s = _session()
    if s is None or html is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    bundle = [("text/plain", text.rstrip("\n"))]
    if isinstance(html, dict):
        bundle += list(html.items())
    else:
        bundle.append(("text/html", html))
    sys.stdout.flush()
    s.fe.display(bundle, None, False)


# ---- numbers and tensors as the stop shows them ----

def _num(v):
    return "\u2014" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.4g}"


def _fval(v):
    return "..." if v is None else repr(float(v))


def _shape(t):
    return "[" + ", ".join(str(d) for d in t.shape) + "]"


def _dtype(t):
    return str(t.dtype).replace("torch.", "")


def _stats(t):
    if isinstance(t, _Stats):
        return t.stats
    try:
        n, bad, mean, std, mn, mx = _C()._debug_stats(t)
    except RuntimeError as e:  # released bytes (an FSDP weight between uses): no values
        if _why_released(e) is None:
            raise
        return t.numel(), 0, None, None, None, None
    return n, bad, mean, std, mn, mx


_RELEASED = "storage released (an FSDP weight between uses)"
# A node's input or output its backward does not read, let go after the
# forward while the debugger was off (docs/debugger.md, "What a node keeps").
_FREED = ("not kept after forward (backward does not need it); turn the debugger on "
          "before the forward to keep it")


def _why_released(e):
    msg = str(e)
    if "out of bounds for storage of size 0" in msg:
        return _RELEASED
    if "was not kept after the forward" in msg:
        return _FREED
    return None


def _released(t):
    """None, or why [t]'s values cannot be read: its bytes are given back
    (an FSDP weight between uses, docs/language-tensors.md), or it is what a
    recorded node kept of a value its backward does not need (a husk)."""
    if isinstance(t, _Stats):
        return None
    try:
        _C()._debug_stats(t)
        return None
    except RuntimeError as e:
        return _why_released(e)


def _text_row(role, name, t):
    if t is None:
        return f"  {role:<9} {name or '':<18} (none)\n"
    why = _released(t)
    if why:
        return f"  {role:<9} {name or '':<18} {_shape(t):<12} {_dtype(t):<8} {why}\n"
    _, bad, mean, std, mn, mx = _stats(t)
    row = (f"  {role:<9} {name or '':<18} {_shape(t):<12} {_dtype(t):<8} mean {_num(mean):<9} "
           f"std {_num(std):<9} min {_num(mn):<9} max {_num(mx):<9}")
    if bad:
        row += f" {bad} non-finite"
    return row + "\n"


def _html_row(role, name, t):
    import html
    cells = f"<tr><td>{html.escape(role)}</td><td>"
    if name:
        cells += f"<code>{html.escape(name)}</code>"
    cells += "</td>"
    if t is None:
        return cells + '<td colspan="7">(none)</td></tr>\n'
    why = _released(t)
    if why:
        return cells + (f"<td>{_shape(t)}</td><td>{_dtype(t)}</td>"
                        f'<td colspan="5">{html.escape(why)}</td></tr>\n')
    _, bad, mean, std, mn, mx = _stats(t)
    cells += f"<td>{_shape(t)}</td><td>{_dtype(t)}</td>"
    cells += "".join(f"<td>{_num(v)}</td>" for v in (mean, std, mn, mx))
    style = ' style="color:#b00;font-weight:bold"' if bad else ""
    return cells + f"<td{style}>{bad}</td></tr>\n"


def _source_lines(file, line, frame=None, caret=True):
    """The source line (and a caret under the call the frame is making)."""
    import linecache
    if not file or line < 1:
        return ""
    text = linecache.getline(file, line)
    if not text:
        return ""
    text = text.rstrip("\n")
    out = f"  {line:5d}  {text}\n"
    if caret and frame is not None and frame.f_lineno == line:
        try:
            positions = list(frame.f_code.co_positions())
            lno, end, col, end_col = positions[frame.f_lasti // 2]
        except (IndexError, ValueError, AttributeError):
            return out
        if lno == line and col is not None and end_col is not None and end == lno \
                and end_col > col:
            out += " " * (9 + col) + "^" + "~" * (end_col - col - 1) + "\n"
    return out


# ---- names: what the session calls a tensor ----

class _Namer:
    """Names tensors by their storage: a variable ("x"), a module's
    parameter ("model.0.weight"). Built once per stop or report."""

    def __init__(self, frame):
        self.frame = frame
        self.names = None

    def _build(self):
        import torch
        names = {}
        spaces = []
        if self.frame is not None:
            spaces.append(self.frame.f_locals)
            spaces.append(self.frame.f_globals)
        s = _session()
        if s is not None:
            spaces.append(s.ns)
        sid = _C()._debug_storage
        # tensors by the innermost name; parameters by the session's module
        # ("model.0.weight" rather than a forward's "self.0.weight")
        modules = []
        for space in spaces:
            for name, value in list(space.items()):
                if name.startswith("_"):
                    continue
                if isinstance(value, torch.Tensor):
                    names.setdefault(sid(value), name)
                elif isinstance(value, torch.nn.Module):
                    modules.append((name, value))
        modules.reverse()
        for name, m in modules:
            try:
                for pname, p in m.named_parameters():
                    names.setdefault(sid(p), f"{name}.{pname}")
                for bname, b in m.named_buffers():
                    names.setdefault(sid(b), f"{name}.{bname}")
            except Exception:
                pass
        # last, a tensor held by a plain object: a dataset's ds.x
        for space in spaces:
            for name, value in list(space.items()):
                attrs = getattr(value, "__dict__", None)
                if name.startswith("_") or type(attrs) is not dict or \
                        isinstance(value, (types.ModuleType, torch.nn.Module)):
                    continue
                for attr, v in list(attrs.items()):
                    if isinstance(v, torch.Tensor) and not attr.startswith("_"):
                        names.setdefault(sid(v), f"{name}.{attr}")
        self.names = names

    def __call__(self, t):
        if t is None:
            return None
        if self.names is None:
            self._build()
        return self.names.get(_C()._debug_storage(t))


# ---- breakpoints ----

class Breakpoint:
    def __init__(self, text):
        self.id = 0
        self.enabled = True
        self.hits = 0
        self.text = text
        self.op = None
        self.phase = None  # None: both
        self.nan = False
        self.module = None
        self.file = None
        self.line = 0
        self.step = 0
        self.cond = None
        self.cond_code = None
        self.py = None  # a Python-line breakpoint: its bdb.Breakpoint
        self.alias_hit = None  # the module spec as the root's name spells it, when that matched

    def matches(self, ev, nan_origin):
        if not self.enabled or self.py is not None:
            return False
        if self.phase and ev.phase != self.phase:
            return False
        if self.op and ev.op != self.op:
            return False
        self.alias_hit = None
        if self.module and not module_match(self.module, ev.module):
            alt = _alias_spec(self.module)
            if alt is None or not module_match(alt, ev.module):
                return False
            self.alias_hit = alt
        if self.line and (ev.line != self.line or
                          (self.file and not _file_match(self.file, ev.file))):
            return False
        if self.step and ev.step != self.step:
            return False
        if self.nan and not nan_origin:
            return False
        return True


def module_match(pattern, path):
    """Whether module path [path] is [pattern] or inside it; '*' stands for
    one component (model.2 matches model.2.x, not model.20)."""
    if not path:
        return False
    want, have = pattern.split("."), path.split(".")
    if len(have) < len(want):
        return False
    return all(w == "*" or w == h for w, h in zip(want, have))


def _file_match(want, file):
    return bool(file) and (want == file or os.path.basename(file) == want)


def _is_ident_path(tok):
    parts = tok.split(".")
    return all(p and all(c.isalnum() or c in "_*" for c in p) for p in parts)


def _positive(tok):
    try:
        n = int(tok)
    except ValueError:
        return None
    return n if n > 0 else None


def parse_spec(text):
    """A Breakpoint from %break's text; ValueError / SyntaxError when bad."""
    b = Breakpoint(text.strip())
    words, cond = text, None
    # the condition: everything after a standalone `if`
    for i in range(len(text)):
        if (i == 0 or text[i - 1] in " \t") and text.startswith("if", i) and \
                text[i + 2:i + 3] in (" ", "\t", "("):
            words, cond = text[:i], text[i + 2:].strip()
            break
    ops = set(_C()._debug_op_names())
    toks = []
    rest = words.strip()
    while rest:
        if rest.startswith("<"):  # "<cell 3>:2" holds a space
            gt = rest.find(">")
            end = rest.find(" ", gt if gt >= 0 else 0)
        else:
            end = rest.find(" ")
        if end < 0:
            end = len(rest)
        toks.append(rest[:end])
        rest = rest[end:].strip()
    phase_given = False
    i = 0
    while i < len(toks):
        tok = toks[i]
        i += 1
        if tok in ("forward", "backward"):
            b.phase, phase_given = tok, True
        elif tok == "nan":
            b.nan = True
        elif tok in ("line", "step"):
            n = _positive(toks[i]) if i < len(toks) else None
            if n is None:
                got = toks[i] if i < len(toks) else ""
                raise ValueError(f"%break {tok} needs a positive number, got '{got}'")
            i += 1
            if tok == "line":
                b.line = n
            else:
                b.step = n
        elif ":" in tok and tok.rfind(":") > 0 and _positive(tok[tok.rfind(":") + 1:]):
            k = tok.rfind(":")
            b.file, b.line = tok[:k], int(tok[k + 1:])
        elif tok in ops:
            if b.op:
                raise ValueError("a breakpoint names one op; set two breakpoints")
            b.op = tok
        elif _is_ident_path(tok):
            if b.module:
                raise ValueError("a breakpoint names one module path; set two breakpoints")
            b.module = tok
        else:
            raise ValueError(f"'{tok}' is not a breakpoint spec: {SPEC_HELP}")
    if not toks and cond is None:
        raise ValueError(f"empty breakpoint: {SPEC_HELP}")
    if cond is not None:
        if not cond:
            raise SyntaxError("`if` needs a condition: %break model.2 if out.abs().max() > 1e4")
        try:
            b.cond_code = compile(cond, "<breakpoint condition>", "eval")
        except SyntaxError as e:
            raise SyntaxError(f"breakpoint condition '{cond}': {e.msg}") from None
        b.cond = cond
    # Without a phase a breakpoint stops in the forward pass, except nan
    # (either pass) and step N alone (the step's first node, either pass).
    if not phase_given:
        alone_step = b.step and not b.op and not b.module and not b.line
        b.phase = None if (b.nan or alone_step) else "forward"
    return b


# ---- what is bound at a stop ----

class NodeInfo:
    """`node` at a stop."""

    def __init__(self, ev):
        self.op = ev.op
        self.module = ev.module
        self.file = ev.file or ""
        self.line = ev.line
        self.phase = ev.phase
        self.position = ev.position
        self.params = ev.params[0]

    def __repr__(self):
        where = f" in {self.module}" if self.module else ""
        return (f"node({self.phase} {self.op}{where}, {self.file}:{self.line}, "
                f"position {self.position})")


class _Scope(collections.abc.MutableMapping):
    """The locals code at a stop runs with: the stop's names (out, inputs,
    ...) over the frame's own variables. Assignments to other names go to
    the frame (at a cell's top level, the session's variables)."""

    def __init__(self, bound, base):
        self.bound = bound
        self.base = base

    def __getitem__(self, key):
        if key in self.bound:
            return self.bound[key]
        return self.base[key]

    def __setitem__(self, key, value):
        if key in self.bound:
            self.bound[key] = value
        else:
            self.base[key] = value

    def __delitem__(self, key):
        if key in self.bound:
            del self.bound[key]
        else:
            del self.base[key]

    def __iter__(self):
        return iter(dict.fromkeys([*self.base, *self.bound]))

    def __len__(self):
        return len(set(self.base) | set(self.bound))


def _bindings(ev):
    return {"out": ev.out, "inputs": ev.inputs, "grad": ev.grad,
            "grads": ev.grads if ev.phase == "backward" else [], "node": NodeInfo(ev)}


_KEEP_NUMEL = 1 << 24  # values %timetravel keeps in all (64 MiB of float32)


class _Stats:
    """A tensor too big to keep: its statistics, as they were."""

    def __init__(self, t):
        self.shape, self.dtype = t.shape, t.dtype
        self.stats = _stats(t)

    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self):
        return f"<not kept: {self.numel()} values, {tuple(self.shape)}>"


# ---- the debugger ----

class Debugger:
    def __init__(self):
        self.bps = []
        self.next_bp = 1
        self.watches = []
        self.next_watch = 1
        self.anomaly = False
        self.mode = RUN
        self.next_module = None
        self.next_phase = None
        self.finish = None  # (phase, pass_id)
        self.break_next_flag = False
        self.break_requested = False
        self.stepping = False  # a stop happened in this cell
        self.no_input = False
        self.nan_seen = False
        self.depth = 0
        self.current = None  # (event, frame, scope) of the stop in progress
        self.pdb_auto = False
        self.installed = None  # the mode the C hook runs in, or None
        self.module_hooks = None
        self.optimizer_steps = None  # {Optimizer subclass: its own step} while wrapped
        self.at_prompt = False
        self.last_cmd = ""
        self.displaying = {}  # pdb's display expressions, kept from stop to stop
        self.tracer = None  # the LineTracer of the Python-line breakpoints
        self.step_any = False  # s: the next op or the next line of yours, whichever comes first
        self.failed_node = None  # the backward node the last error was raised in
        self.timetravel = 0  # %timetravel on: how many ops of a pass are kept (0: off)
        self.past = collections.deque()  # the kept ops of the pass being stepped
        self.past_pass = None
        self.past_numel = 0

    # ---- the hook ----
    def sync(self):
        """Register the engine hook exactly while something needs it."""
        every = (self.mode != RUN or self.break_next_flag or self.break_requested or
                 any(b.enabled and not b.nan and b.py is None for b in self.bps))
        nan = self.anomaly or any(b.enabled and b.nan for b in self.bps)
        want = (0 if every else 1 if nan else 2 if self.stepping else
                3 if self.pdb_auto else None)  # 3: labels only, for the post-mortem
        if want == self.installed or (want is None and self.depth):
            return  # (a stop in progress keeps the hook: its module stack, its positions)
        C = _C()
        if want is None:
            C._debug_hook(None)
            self._module_hooks(False)
        else:
            if self.installed is None:
                C._debug_internal(list(_internal_dirs()))
            C._debug_hook(self._on_event, want)
            if want == 2:
                self._module_hooks(False)
            elif self.module_hooks is None:
                self._module_hooks(True)
                _rebuild_modules(sys._getframe(1))
        self.installed = want

    def _module_hooks(self, on):
        """While the debugger is on, nn.Module.__call__ is wrapped so that
        each call pushes its module path (and pops it, exceptions too);
        off, the class has its own __call__ again and pays nothing."""
        from torch.nn.modules.module import Module
        if on and self.module_hooks is None:
            self.module_hooks = Module.__dict__["__call__"]
            Module.__call__ = _make_module_call(self.module_hooks)
        elif not on and self.module_hooks is not None:
            Module.__call__ = self.module_hooks
            self.module_hooks = None

    # ---- Ctrl-C while a stepped pass runs on: back to the prompt ----
    def _arm(self):
        """The first Ctrl-C while a pass that stopped in this cell runs on
        becomes a stop at the next node (binding/py_debug.c's
        py_debug_interrupt); at the prompt, or in another cell, Ctrl-C
        interrupts as always."""
        _C()._debug_arm(self.stepping and not self.at_prompt)

    def _cell_over(self):
        """The cell the last stop was in has ended: its stepping ends."""
        self.displaying.clear()  # (its frames have ended too)
        self.past.clear()  # what time travel kept goes with the cell
        self.past_numel = 0
        self.past_pass = None
        self.mode = RUN
        self.stepping = False
        self.no_input = False
        self.nan_seen = False
        self.break_requested = False
        self._arm()

    def _on_event(self, ev):
        if self.depth:
            return None
        if ev is None:  # a Ctrl-C asked for a stop: labels and module paths on
            self.break_requested = True
            self.sync()
            return None
        if _C()._debug_take_break():
            self.break_requested = True
        if self.timetravel and self.installed == 0:
            self._keep(ev)
        caller = sys._getframe(1)
        found = None
        if self.anomaly or any(b.enabled and b.nan for b in self.bps):
            found = ev.anomaly()
            # once an origin was reported in this cell, the NaNs it spreads are not new
            if found and self.nan_seen and found["kind"] != "created":
                found = None
        why = None
        hit = None
        for b in self.bps:
            if not b.matches(ev, found is not None):
                continue
            if not self._cond_true(b, ev, caller):
                continue
            b.hits += 1
            if hit is None:
                hit = b
                why = f"breakpoint {b.id}, {b.text}"
                if b.alias_hit:
                    why += f", matched as {b.alias_hit}"
        if found:
            self.nan_seen = True
        if found and self.anomaly and hit is None:
            raise AnomalyError(self._anomaly_report(ev, found, caller))
        if found and hit is not None:
            sys.stderr.write(self._anomaly_report(ev, found, caller) + "\n")
        if hit is None:
            if self.break_requested:
                self.break_requested = False
                why = "Ctrl-C"
            elif self.break_next_flag:
                why = "breakpoint()"
            elif self.mode == STEP:
                why = "step"
            elif self.mode == NEXT:
                if ev.phase == self.next_phase:
                    if self.next_module is None:
                        if not ev.module:
                            return None
                    elif module_match(self.next_module, ev.module):
                        return None
                why = "next"
            elif self.mode == FINISH:
                if (ev.phase, ev.pass_id) == self.finish:
                    return None
                why = "finish: the next pass"
            else:
                return None
        self._stop(ev, why, caller)
        return None

    # ---- back in time: the ops of the pass, kept while %timetravel is on ----
    def _keep(self, ev):
        """A copy of the node's tensors, as they are after it ran; the last
        [timetravel] ops of the pass, at most _KEEP_NUMEL values in all
        (a bigger tensor keeps its statistics only)."""
        key = (ev.phase, ev.pass_id)
        if key != self.past_pass:
            self.past.clear()
            self.past_pass = key
            self.past_numel = 0
        used = [0]

        def copy(t):
            if t is None:
                return None
            n = t.numel()
            if n > _KEEP_NUMEL // 4:
                return _Stats(t)
            used[0] += n
            return t.detach().clone()

        backward = ev.phase == "backward"
        rec = types.SimpleNamespace(
            op=ev.op, module=ev.module, file=ev.file, line=ev.line, phase=ev.phase,
            position=ev.position, count=ev.count if backward else 0,
            inputs=[copy(t) for t in ev.inputs], out=copy(ev.out),
            grad=copy(ev.grad) if backward else None,
            grads=[copy(g) for g in ev.grads] if backward else [],
            needs_grad=list(ev.needs_grad) if backward else [], node=NodeInfo(ev))
        rec.numel = used[0]
        self.past.append(rec)
        self.past_numel += rec.numel
        while len(self.past) > 1 and (len(self.past) > self.timetravel or
                                      self.past_numel > _KEEP_NUMEL):
            self.past_numel -= self.past.popleft().numel

    def show_past(self, k, frame, namer):
        """The k-th kept op (from 0), shown as its stop was."""
        rec = self.past[k]
        total = len(self.past)
        why = f"back in time: {total - 1 - k} op{'' if total - 1 - k == 1 else 's'} ago"
        self._show_stop(rec, why, None, namer)

    def list_past(self, view):
        if not self.past:
            print("Nothing kept: %timetravel on keeps the ops of a stepped pass.")
            return
        first = self.past[0]
        print(f"ops kept of this {first.phase} pass (the last {self.timetravel} at most), "
              "oldest first:")
        for k, rec in enumerate(self.past):
            mark = "  <== you are here" if k == view else ""
            where = f" in {rec.module}" if rec.module else ""
            at = f"  {rec.file}:{rec.line}" if rec.file else ""
            o = rec.out
            stats = ""
            if o is not None:
                _, bad, mean, std, mn, mx = _stats(o)
                stats = (f"  {_shape(o)} mean {_num(mean)} std {_num(std)} min {_num(mn)} "
                         f"max {_num(mx)}" + (f" {bad} non-finite" if bad else ""))
            print(f"  {k - len(self.past) + 1:>4}  {rec.op}{where}{at}{stats}{mark}")

    def _cond_true(self, b, ev, caller):
        if b.cond_code is None:
            return True
        frame = _user_frame(caller)
        glob = frame.f_globals if frame else {}
        scope = _Scope(_bindings(ev), frame.f_locals if frame else {})
        try:
            return bool(eval(b.cond_code, glob, scope))
        except Exception as e:
            sys.stderr.write(f"breakpoint {b.id}: its condition failed (stopping):\n"
                             f"{type(e).__name__}: {e}\n")
            return True

    # ---- a stop ----
    def _stop(self, ev, why, caller):
        frame = _user_frame(caller)
        if self.step_any:  # s: the op came first; the line step is over
            self.step_any = False
            if self.tracer is not None and self.tracer.tracing():
                self.tracer.set_continue()
        self.depth += 1
        self.stepping = True
        self.break_next_flag = False
        scope = _Scope(_bindings(ev), frame.f_locals if frame is not None else {})
        self.current = (ev, frame, scope)
        quit_msg = None
        try:
            namer = _Namer(frame)
            self._show_stop(ev, why, frame, namer)
            self._show_watches(frame, scope)
            if self.no_input or not _can_read():
                if not self.no_input:
                    sys.stderr.write("(no input here: breakpoints print their stop and the pass "
                                     "goes on)\n")
                self.no_input = True
                self.mode = RUN
            else:
                prompt = StopPrompt(self, ev, frame, scope)
                self.at_prompt = True
                self._arm()
                _dist_note(ev, frame)
                dap = _dap()
                try:
                    if dap is not None:  # a visual debugger is attached: it says how to go on
                        text = f"{ev.phase} {ev.op}" + (f" in {ev.module}" if ev.module else "")
                        action = dap.wait(frame, "step" if why == "step" else "breakpoint",
                                          text, dict(scope.bound))
                        prompt.onecmd({"next": "n", "stepIn": "s", "stepOut": "f"}.get(action, "c"))
                    else:
                        prompt.run()
                finally:
                    self.at_prompt = False
                    _dist_note(None, None)
                    self._arm()
                if prompt.action == "quit":
                    where = f" in {ev.module}" if ev.module else ""
                    quit_msg = (f"quit at the debugger, {ev.phase} {ev.op}{where}: the statement "
                                "was aborted; the session, its variables and the recorded graph "
                                "are kept")
        finally:
            self.current = None
            self.depth -= 1
            self.sync()
        if quit_msg:
            raise _C().Stopped(quit_msg)

    def _position(self, ev):
        if ev.phase == "forward":
            return f"op {ev.position} of this statement"
        return f"node {ev.position} of {ev.count}"

    def _show_stop(self, ev, why, frame, namer):
        import html
        pos = self._position(ev)
        where = f", in {ev.module}" if ev.module else ""
        text = f"> stopped ({why}): {ev.phase} {ev.op}, {pos}{where}\n"
        file, line = ev.file, ev.line
        if not file and frame is not None:
            file, line = frame.f_code.co_filename, frame.f_lineno
        if file:
            note = " (the forward op)" if ev.phase == "backward" else ""
            text += f"  at {file}:{line}{note}\n"
            caret_frame = frame if ev.phase == "forward" and frame is not None and \
                frame.f_code.co_filename == file else None
            text += _source_lines(file, line, caret_frame)
        h = ['<div class="nndb-stop"><table style="font-family:monospace">\n<caption '
             'style="text-align:left;white-space:pre-wrap"><b>stopped</b> (',
             html.escape(why), f"): {ev.phase} <b>{html.escape(ev.op)}</b>, {pos}"]
        if ev.module:
            h.append(f", in <code>{html.escape(ev.module)}</code>")
        if file:
            h.append(f"<br>at {html.escape(file)}:{line}")
        h.append("</caption>\n<tr><th></th><th>name</th><th>shape</th><th>dtype</th>"
                 "<th>mean</th><th>std</th><th>min</th><th>max</th><th>non-finite</th></tr>\n")
        rows = []
        for i, t in enumerate(ev.inputs):
            rows.append((f"inputs[{i}]", namer(t) or "", t))
        rows.append(("out", "", ev.out))
        if ev.phase == "backward":
            rows.append(("grad", "d loss/d out", ev.grad))
            needs = ev.needs_grad
            for i, g in enumerate(ev.grads):
                if g is None and not needs[i]:
                    continue
                rows.append((f"grads[{i}]", "d loss/d input", g))
        for role, name, t in rows:
            text += _text_row(role, name, t)
            h.append(_html_row(role, name, t))
        h.append("</table></div>\n")
        _show(text, "".join(h))

    def _show_watches(self, frame, scope):
        glob = frame.f_globals if frame is not None else {}
        for w_id, expr in self.watches:
            try:
                value = repr(eval(expr, glob, scope))
            except Exception as e:
                value = f"({type(e).__name__}: {e})"
            print(f"  watch {w_id}: {expr} = {value}")

    # ---- the NaN hunt's report ----
    def _anomaly_report(self, ev, a, caller):
        frame = _user_frame(caller)
        namer = _Namer(frame)
        op = ev.op
        what = "NaN" if a["count"] and math.isnan(a["value"]) else "an infinity"
        inputs = ev.inputs
        if a["kind"] in ("leaf", "input"):
            t = inputs[a["input"]]
            name = namer(t) or "(unnamed)"
            which = "the leaf tensor " if a["kind"] == "leaf" else \
                "a tensor made before anomaly mode was on "
            n = a["count"]
            msg = (f"{what} in {which}{name} (input {a['input']} of {op}) at index {a['index']}: "
                   f"{n} non-finite element{'' if n == 1 else 's'}; the first op that used it "
                   f"is {op}")
        elif a["phase"] == "forward":
            args = ", ".join(_fval(v) for v in a["values"])
            kind = "NaN-free" if math.isnan(a["value"]) else "finite"
            n = a["count"]
            msg = (f"forward: {op} produced {what} from {kind} inputs: {op}({args}) = "
                   f"{_fval(a['value'])} at index {a['index']} ({n} non-finite "
                   f"element{'' if n == 1 else 's'})")
        else:
            if a["kind"] == "grad":
                msg = f"backward: the gradient coming into {op} already held {what}"
            else:
                msg = (f"backward: the gradient of {op} with respect to its input {a['input']} "
                       f"is {_fval(a['value'])}")
            msg += f" at index {a['index']}"
            if a["forward_value"] is not None:
                msg += f"; the forward input there was {_fval(a['forward_value'])}"
            if a["kind"] == "created":
                msg += (", while the incoming gradient was " +
                        ("free of NaN" if math.isnan(a["value"]) else "finite"))
            n = a["count"]
            msg += f" ({n} non-finite element{'' if n == 1 else 's'})"
        msg += "\n"
        where = f" in {ev.module}" if ev.module else ""
        back = " (the forward op of this backward node)" if a["phase"] == "backward" else ""
        msg += f"  op {op}{where}{back}"
        if ev.file:
            msg += f", at {ev.file}:{ev.line}"
        msg += "\n"
        if ev.file:
            caret = frame if a["phase"] == "forward" and frame is not None and \
                frame.f_code.co_filename == ev.file else None
            msg += _source_lines(ev.file, ev.line, caret)
        for i, t in enumerate(inputs):
            msg += _text_row(f"inputs[{i}]", namer(t), t)
        if a["phase"] == "backward":
            msg += _text_row("grad", "d loss/d out", ev.grad)
        return msg.rstrip("\n")

    # ---- breakpoints ----
    def add_break(self, text, announce=True, frame=None):
        word, _, rest = text.strip().partition(" ")
        if word == "py":
            return self.add_line_break(rest, announce, frame)
        b = parse_spec(text)
        b.id = self.next_bp
        self.next_bp += 1
        self.bps.append(b)
        self.sync()
        if announce:
            print(f"Breakpoint {b.id}: {b.text}")
        return b

    def list_breaks(self):
        if not self.bps:
            print("No breakpoints. %break SPEC sets one (%help break).")
        else:
            print("Num  Enabled  Hits  Spec")
            for b in self.bps:
                print(f"{b.id:<4} {'yes' if b.enabled else 'no':<8} {b.hits:<5} {b.text}")
        if self.anomaly:
            print("Anomaly mode is on (the NaN hunt).")

    def bp_command(self, what, args):
        """delete / disable / enable: "N", "N M ...", or "all"."""
        args = args.strip()
        if not args:
            raise ValueError(f"%{what} needs a breakpoint number or all (%{what} all)")
        if args == "all":
            chosen = list(self.bps)
        else:
            chosen = []
            for tok in args.split():
                try:
                    n = int(tok)
                except ValueError:
                    raise ValueError(f"%{what}: '{tok}' is not a breakpoint number") from None
                b = next((b for b in self.bps if b.id == n), None)
                if b is None:
                    raise ValueError(f"no breakpoint {n} (%break lists them)")
                chosen.append(b)
        for b in chosen:
            if what == "delete":
                self.bps.remove(b)
                if b.py is not None:
                    self._tracer().drop(b.py)
            else:
                b.enabled = what == "enable"
                if b.py is not None:
                    b.py.enabled = b.enabled
        self.sync()
        self.sync_lines()

    def delete_break(self, b):
        """Delete one breakpoint object (the debug protocol's setBreakpoints)."""
        if b in self.bps:
            self.bps.remove(b)
            if b.py is not None:
                self._tracer().drop(b.py)
        self.sync()
        self.sync_lines()

    # ---- Python-line breakpoints (bdb's, %break py FILE:LINE | FUNC) ----
    def _tracer(self):
        if self.tracer is None:
            self.tracer = LineTracer(self)
        return self.tracer

    def add_line_break(self, text, announce=True, frame=None):
        """%break py FILE:LINE | py FUNC [if COND]: a breakpoint on a Python
        line, set with bdb as pdb's `break` does; ValueError when bad."""
        where, cond = text.strip(), None
        k = where.find(" if ")
        if k >= 0:
            where, cond = where[:k].strip(), where[k + 4:].strip()
            if not cond:
                raise SyntaxError("`if` needs a condition: %break py f if n > 3")
            try:
                compile(cond, "<breakpoint condition>", "eval")
            except SyntaxError as e:
                raise SyntaxError(f"breakpoint condition '{cond}': {e.msg}") from None
        if not where:
            raise ValueError("%break py needs FILE:LINE or a function: %break py train.py:12, "
                             "%break py Net.forward")
        tracer = self._tracer()
        k = where.rfind(":")
        if k > 0 and _positive(where[k + 1:]):
            file, line, funcname = where[:k], int(where[k + 1:]), None
            file = tracer.find_file(file)
        else:
            file, line, funcname = self._function_start(where, frame)
        err = tracer.set_break(file, line, False, cond, funcname)
        if err:
            raise ValueError(err.replace("Line ", "line ", 1))
        b = Breakpoint(("py " + where + (f" if {cond}" if cond else "")))
        b.py = tracer.get_breaks(file, line)[-1]
        b.cond = cond
        b.id = self.next_bp
        self.next_bp += 1
        self.bps.append(b)
        self.sync_lines()
        if announce:
            print(f"Breakpoint {b.id}: {b.text} (a Python line: {file}:{b.py.line})")
        return b

    def _function_start(self, name, frame):
        if frame is None:
            s = _session()
            glob = s.ns if s is not None else {}
            loc = glob
        else:
            glob, loc = frame.f_globals, frame.f_locals
        try:
            func = eval(name, glob, loc)
        except Exception as e:
            raise ValueError(f"%break py {name}: not a function here ({type(e).__name__}: {e}); "
                             "FILE:LINE works for code not defined yet") from None
        func = getattr(func, "__func__", func)
        code = getattr(func, "__code__", None)
        if code is None:
            call = getattr(func, "__call__", None)  # an object or a class: its method
            code = getattr(getattr(call, "__func__", None), "__code__", None)
        if code is None:
            raise ValueError(f"%break py {name}: {type(func).__name__} is not a Python function")
        return code.co_filename, code.co_firstlineno, code.co_name

    def sync_lines(self):
        """Trace Python lines exactly while an enabled line breakpoint
        exists: with none, sys.settrace is not set and lines cost nothing."""
        if self.tracer is None:
            return
        if threading.current_thread() is not threading.main_thread():
            # sys.settrace is per thread: the debug protocol sets breakpoints
            # from the kernel's control thread, and the next cell starts
            # tracing on the main thread (cell_start).
            return
        if any(b.enabled and b.py is not None for b in self.bps):
            self.tracer.start(sys._getframe(1))
        else:
            self.tracer.stop()

    def break_next(self):
        self.break_next_flag = True
        self.sync()

    def set_anomaly(self, on):
        self.anomaly = bool(on)
        self._optimizer_hooks(self.anomaly)
        _C()._debug_check_writes(self.anomaly)
        self.sync()

    def _optimizer_hooks(self, on):
        """In anomaly mode each optimizer class's step() is wrapped so that a
        step that makes a parameter non-finite is reported (the executor
        does not see the optimizers' in-place kernels); off, the classes
        have their own step() again."""
        from torch.optim import Optimizer
        if on and self.optimizer_steps is None:
            self.optimizer_steps = {}
            todo = [Optimizer]
            while todo:
                cls = todo.pop()
                todo.extend(cls.__subclasses__())
                step = cls.__dict__.get("step")
                if callable(step):
                    self.optimizer_steps[cls] = step
                    cls.step = _make_checked_step(step)
        elif not on and self.optimizer_steps is not None:
            for cls, step in self.optimizer_steps.items():
                cls.step = step
            self.optimizer_steps = None

    def _optimizer_report(self, opt, group, p, bad, caller):
        """Which parameter a step made non-finite, and what the step had at
        that index: the gradient, the learning rate, the state."""
        count, flat, value, index = bad
        frame = _user_frame(caller)
        name = _Namer(frame)(p) or "(unnamed)"

        def at(t):
            if not hasattr(t, "numel"):
                return _num(float(t)) if isinstance(t, (int, float)) else None
            if t.numel() == 1:
                return _num(t.item())
            return _num(t.reshape(-1)[flat].item()) if t.numel() == p.numel() else None

        msg = (f"{type(opt).__name__}.step() made the parameter {name} non-finite: "
               f"{_fval(value)} at index {index} ({count} non-finite "
               f"element{'' if count == 1 else 's'})\n")
        grad = at(p.grad) if p.grad is not None else None
        msg += f"  the gradient there was {grad}, lr {group.get('lr', float('nan')):g}"
        state = [(k, at(v)) for k, v in opt.state.get(p, {}).items()]
        state = [f"{k} {v}" for k, v in state if v is not None]
        if state:
            msg += "; the optimizer's state there: " + ", ".join(state)
        msg += "\n"
        if frame is not None:
            file, line = frame.f_code.co_filename, frame.f_lineno
            msg += f"  at {file}:{line}\n" + _source_lines(file, line, frame)
        msg += _text_row("param", name, p)
        if p.grad is not None:
            msg += _text_row("grad", "", p.grad)
        return msg.rstrip("\n")

    def add_watch(self, expr):
        expr = expr.strip()
        if not expr:
            if not self.watches:
                print("No watches. watch EXPR adds one.")
            for w_id, e in self.watches:
                print(f"  {w_id}: {e}")
            return
        self.watches.append((self.next_watch, expr))
        print(f"Watch {self.next_watch}: {expr}")
        self.next_watch += 1

    def remove_watch(self, arg):
        arg = arg.strip()
        if arg == "all":
            self.watches.clear()
            return
        before = len(self.watches)
        self.watches = [(i, e) for i, e in self.watches if str(i) != arg]
        if len(self.watches) == before:
            print("no such watch (watch lists them)")

    def cell_end(self):
        """A front end's cell has ended: stepping ends with it."""
        if self.tracer is not None:
            self.tracer.stop()  # line stepping ends with the cell too
            self.sync_lines()
        if self.stepping or self.mode != RUN or self.nan_seen or self.no_input:
            self._cell_over()
            self.sync()

    def reset(self):
        """A session begins or ends: no breakpoints (numbered from 1 again),
        watches, anomaly mode or %pdb; the hook and the module wrappers go,
        and what the last stop or error held (frames, tensors, the last
        backward's graph) is let go."""
        # Only what was turned on is undone: a fresh session (the kernel's
        # start) must not import torch to find nothing to reset.
        if self.module_hooks is not None:
            self._module_hooks(False)
        if self.optimizer_steps is not None:
            self._optimizer_hooks(False)
        if self.tracer is not None:
            self.tracer.stop()
            self.tracer.clear_all_breaks()
        self.__init__()
        _module_aliases.clear()
        if "torch._C" in sys.modules:
            C = _C()
            C._debug_arm(False)
            C._debug_reset()
        for name in ("last_type", "last_value", "last_traceback"):
            if hasattr(sys, name):
                delattr(sys, name)

    # ---- post-mortem ----
    def after_error(self, exc):
        """A cell failed: remember it for %debug (sys.last_*, as Python's
        REPL does); with %pdb on, open the post-mortem prompt."""
        sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, exc.__traceback__
        self.failed_node = None
        if self.installed is not None:
            failed = _C()._debug_failed_node()
            if failed is not None and _in_backward(exc.__traceback__):
                self.failed_node = failed
        if not self.pdb_auto or isinstance(exc, (KeyboardInterrupt, SystemExit)):
            return
        if isinstance(exc, _C().Stopped) or not _can_read():
            return
        from nndb import magics
        if isinstance(exc, (magics.UsageError, magics.MagicError)):
            return
        print(f"{type(exc).__name__}: {exc}")
        post_mortem(exc.__traceback__, self.failed_node)


def _in_backward(tb):
    """Whether the traceback went through backward() (torch's own frames)."""
    dirs = _internal_dirs()
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in ("backward", "_run_backward", "run_backward") and \
                _is_internal(code.co_filename, dirs):
            return True
        tb = tb.tb_next
    return False


def _backward_report(failed):
    """Where a failed backward node came from: its forward op's line."""
    what = failed["name"] or f"the backward of {failed['op']}"
    msg = f"raised in backward(), at the node {what}"
    if failed["module"]:
        msg += f", in {failed['module']}"
    if failed["file"]:
        msg += (f"; its forward op was recorded at {failed['file']}:{failed['line']} "
                "(`fwd` shows it)\n")
        msg += _source_lines(failed["file"], failed["line"], None)
    else:
        msg += " (recorded while the debugger was off: no forward line; %pdb on records it)\n"
    return msg.rstrip("\n")


_dbg = Debugger()


def debugger():
    return _dbg


# ---- the module path, pushed by nn.Module calls while the debugger is on ----

def _name_in(frame, module):
    for space in (frame.f_locals, frame.f_globals):
        for name, value in space.items():
            if value is module and not name.startswith("_"):
                return name
    return None


# A module called through another name (a function's parameter `net` for the
# global `model`): {the local spelling: the root's}, so that a breakpoint
# spec in either spelling matches. Only module calls while the debugger is on
# fill it; a session's reset empties it.
_module_aliases = {}


def _alias_spec(spec):
    first, dot, rest = spec.partition(".")
    root = _module_aliases.get(first)
    return root + dot + rest if root else None


def _root_path(module, frame):
    """The module's attribute path from a root module the user named as a
    global (the cell's or script's namespace): `model`, `model.fc2`."""
    from torch.nn.modules.module import Module
    spaces = [frame.f_globals]
    s = _session()
    if s is not None and s.ns is not frame.f_globals:
        spaces.append(s.ns)
    for space in spaces:
        for name, value in space.items():
            if value is module and not name.startswith("_"):
                return name
    for space in spaces:
        for name, value in list(space.items()):
            if isinstance(value, Module) and value is not module and not name.startswith("_"):
                for sub, m in value.named_modules():
                    if m is module and sub:
                        return f"{name}.{sub}"
    return None


def _rebuild_modules(frame):
    """The debugger came on inside module calls (Ctrl-C, a breakpoint set
    at a stop): push the calls already running, outermost first."""
    from torch.nn.modules.module import Module
    call = Module.__call__
    code = getattr(call, "__wrapped__", call).__code__
    calls = []
    while frame is not None:
        if frame.f_code is code:
            calls.append(frame)
        frame = frame.f_back
    C = _C()
    for call in reversed(calls):
        module = call.f_locals.get("self")
        top = C._debug_top(call)
        if isinstance(module, Module) and not (top and top[1] is module):
            _module_enter(module, None, call)


def _module_enter(module, inputs, call=None):
    call = call or sys._getframe(1)  # Module.__call__
    C = _C()
    parent = C._debug_top(call)
    path = None
    if parent is None:
        caller = call.f_back
        while caller is not None and _is_internal(caller.f_code.co_filename):
            caller = caller.f_back
        if caller is not None:
            local = _name_in(caller, module)
            path = _root_path(module, caller) or local
            if local and path != local and "." not in local:
                _module_aliases[local] = path
        if path is None:
            s = _session()
            if s is not None:
                path = next((n for n, v in s.ns.items()
                             if v is module and not n.startswith("_")), None)
        path = path or type(module).__name__
    else:
        ppath, pmod = parent
        name = next((n for n, m in pmod._modules.items() if m is module), None)
        if name is None:
            name = next((n for n, m in pmod.named_modules() if m is module and n), None)
        path = f"{ppath}.{name or type(module).__name__}"
    C._debug_push(path, module, call)


def _make_module_call(call):
    from torch import _C as C

    def __call__(self, *input, **kwargs):
        # The frame is not kept in a local: a frame that holds itself is a
        # reference cycle, which would keep this call's inputs, and through
        # f_back its callers' locals (a GPT's logits), until the next
        # garbage collection: 65 MiB more in use after each backward of a
        # GPT-2 124M step, and fresh pages to fault in for the next one.
        if not C._debug_enter(self, sys._getframe(0)):
            _module_enter(self, None, sys._getframe(0))
        try:
            return call(self, *input, **kwargs)
        finally:
            C._debug_pop(self)
    __call__.__wrapped__ = call
    return __call__


def _make_checked_step(step):
    @functools.wraps(step)
    def checked_step(self, *args, **kwargs):
        if not _dbg.anomaly:
            return step(self, *args, **kwargs)
        # Neither check reads a parameter that is known finite: the update
        # that wrote it checked its values as it wrote them (the optimizers'
        # C kernels while anomaly mode is on), or the last check found it
        # finite and nothing has written it since (its version is the same).
        nonfinite = _C()._debug_param_nonfinite
        finite = [(g, p) for g in self.param_groups for p in g["params"]
                  if nonfinite(p) is None]
        result = step(self, *args, **kwargs)
        for group, p in finite:
            bad = nonfinite(p)
            if bad is not None:
                raise AnomalyError(_dbg._optimizer_report(self, group, p, bad,
                                                          sys._getframe(1)))
        return result
    return checked_step


# ---- the prompts ----

# The (nndb) prompt that reads now, or None.
_prompt = None


def completion_namespaces():
    """Where Tab looks first at the (nndb) prompt: the stop's names (out,
    inputs, ...) over the selected frame's locals, then its globals."""
    p = _prompt
    frame = getattr(p, "curframe", None)
    if frame is None:
        return []
    return [getattr(p, "curframe_locals", None) or frame.f_locals, frame.f_globals]


def _same_values(a, b):
    import torch
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and bool((a == b).all())
    return False


class _FrameView:
    """A frame as a magic sees it at the prompt: its globals, and its locals
    with the stop's names (out, inputs, ...) over them."""

    def __init__(self, frame, scope):
        self._frame = frame
        self.f_globals = frame.f_globals
        self.f_locals = scope if scope is not None else frame.f_locals

    def __getattr__(self, name):
        return getattr(self._frame, name)


def _pdb_class():
    import pdb

    class _Prompt(pdb.Pdb):
        """pdb reading through input() (the front end's line editor in a
        session) without touching the process's readline settings, and
        showing the user's frames only."""

        def __init__(self):
            saved = sys.modules.get("readline", None)
            had = "readline" in sys.modules
            sys.modules["readline"] = None  # Pdb would reset readline's delimiters
            try:
                super().__init__(nosigint=True, readrc=False)
            finally:
                if had:
                    sys.modules["readline"] = saved
                else:
                    del sys.modules["readline"]
            self.completekey = None  # completion is the front end's
            self.prompt = "(nndb) "

        def get_stack(self, f, t):
            stack, i = super().get_stack(f, t)
            if not stack:
                return stack, i
            current = stack[i][0]
            dirs = (_NNDB_DIR,) if t is not None else _internal_dirs()
            kept = [e for e in stack if not _is_internal(e[0].f_code.co_filename, dirs)]
            if not kept:
                return stack, i
            idx = next((k for k, e in enumerate(kept) if e[0] is current), len(kept) - 1)
            return kept, idx

        def _cmdloop(self):
            # Ctrl-C at the prompt ends the statement (pdb would loop)
            self.cmdloop()

        def default(self, line):
            if line.lstrip().startswith("%") and not line.lstrip().startswith("%%"):
                return self._magic(line.lstrip()[1:])
            return super().default(line)

        def _magic(self, text):
            """%NAME ARGS at the prompt: the session's line magic, run in
            the selected frame with the stop's names bound."""
            from nndb import magics
            name, _, args = text.partition(" ")
            s = _session()
            if s is None:
                self.error("line magics need an nndb session")
                return
            where = _FrameView(self.curframe, getattr(self, "curframe_locals", None))
            try:
                magics.run_line_magic(s, name, args.strip(), where)
            except Exception as e:
                self.error(f"{type(e).__name__}: {e}")

        def interaction(self, frame, tb):
            global _prompt
            outer, _prompt = _prompt, self
            try:
                return super().interaction(frame, tb)
            finally:
                _prompt = outer

        def postcmd(self, stop, line):
            # pdb writes a function's variables into frame.f_locals, a copy
            frame = self.curframe
            if frame is not None and frame.f_code.co_flags & _CO_OPTIMIZED:
                try:
                    _C()._debug_locals_to_fast(frame)
                except Exception:
                    pass
            return super().postcmd(stop, line)

    return _Prompt


def _make_stop_prompt(base):
    class StopPromptImpl(base):
        """The (nndb) prompt of an op stop."""

        def __init__(self, dbg, ev, frame, scope):
            super().__init__()
            self.dbg = dbg
            self.ev = ev
            self.frame = frame
            self.scope = scope
            self.action = None
            self.lastcmd = dbg.last_cmd  # an empty line repeats it, across stops too
            self.displaying = dbg.displaying  # each stop is a new prompt; display lasts
            self.live = dict(scope.bound)  # the stop's own names, for `now`
            self.view = len(dbg.past) - 1 if dbg.timetravel else -1

        def preloop(self):
            # pdb's, with a tensor's change told by its values (pdb's
            # `new != old` is a tensor, whose truth is ambiguous)
            shown = self.displaying.get(self.curframe) or {}
            for expr, old in list(shown.items()):
                new = self._getval_except(expr)
                if new is old:
                    continue
                try:
                    changed = bool(new != old)
                except Exception:
                    changed = not _same_values(new, old)
                if changed:
                    shown[expr] = new
                    self.message(f"display {expr}: {new!r}  [old: {old!r}]")

        def run(self):
            frame = self.frame
            if frame is None:
                frame = sys._getframe(2)
            self.reset()
            self.botframe = _top_frame(frame) or frame
            self.interaction(frame, None)

        def postcmd(self, stop, line):
            self.dbg.last_cmd = self.lastcmd
            return super().postcmd(stop, line)

        def setup(self, f, tb):
            r = super().setup(f, tb)
            self._wrap_locals()
            return r

        def _select_frame(self, number):
            super()._select_frame(number)
            self._wrap_locals()

        def _wrap_locals(self):
            base = self.curframe.f_locals
            self.curframe_locals = _Scope(self.scope.bound, base)

        # -- moving on --
        def do_step(self, arg):
            """s(tep)
        Stop at whichever comes first: the next node (forward op or
        backward node), or the next line of your code (a new line of this
        frame, or the first line of a function of yours it calls). The stop
        says which it is. sop steps by ops only, nl by lines only."""
            self.dbg.mode = STEP
            if self.ev.phase == "forward" and self.frame is not None:
                tracer = self.dbg._tracer()
                tracer.start(self.frame)
                tracer.set_step()
                self.dbg.step_any = True
            return 1

        def do_sop(self, arg):
            """sop | stepop
        Run the next node, forward op or backward node, and stop after it
        (lines do not stop it)."""
            self.dbg.mode = STEP
            return 1

        do_stepop = do_sop

        def do_next(self, arg):
            """n(ext)
        Run to the next line of the current frame and stop there, as pdb's
        n (ops on the way do not stop it; breakpoints do). The prompt there
        steps by lines (n, s, r, unt, c); nop steps over a module's ops."""
            return self.do_nextline(arg)

        def do_nop(self, arg):
            """nop | nextop
        Run until a node outside the current module (model.2's ops are
        stepped over as one); at top level, the next top-level op. Stops
        too when the pass changes."""
            self.dbg.mode = NEXT
            self.dbg.next_module = self.ev.module
            self.dbg.next_phase = self.ev.phase
            return 1

        do_nextop = do_nop

        def do_continue(self, arg):
            """c(ont(inue))
        Run until the next breakpoint or the end of the statement."""
            self.dbg.mode = RUN
            return 1

        def do_finish(self, arg):
            """f(inish)
        Run to the end of this pass (the statement's forward ops, or this
        backward()) and stop at the first node after it."""
            self.dbg.mode = FINISH
            self.dbg.finish = (self.ev.phase, self.ev.pass_id)
            return 1

        def do_quit(self, arg):
            """q(uit) | exit
        Abort the running statement (torch._C.Stopped); the session, its
        variables and the recorded graph are kept."""
            self.action = "quit"
            self.dbg.mode = RUN
            return 1

        def do_EOF(self, arg):
            """(Ctrl-D) Continue."""
            self.message("")
            return self.do_continue(arg)

        def _not_here(self, arg):
            self.error("not at an op stop: s, n, c and f move through the pass, nl goes to the "
                       "next line (where pdb's line commands work), q aborts it")

        do_until = do_unt = do_jump = do_j = do_return = do_r = _not_here
        do_run = do_restart = do_tbreak = do_condition = do_ignore = do_commands = _not_here

        # -- op breakpoints, watches, the graph --
        def do_break(self, arg):
            """b(reak) [SPEC [if CONDITION]]
        Set an op breakpoint, as %break (an op name, a module path,
        forward, backward, nan, line N, FILE:LINE, step N); without SPEC,
        list them."""
            if not arg.strip():
                self.dbg.list_breaks()
                return
            try:
                self.dbg.add_break(arg, frame=self.curframe)
            except (ValueError, SyntaxError) as e:
                self.error(str(e))

        # -- back in time (%timetravel on) --
        def do_back(self, arg):
            """back [N] | rs [N]
        Go back N ops (1 without N) in this pass: the op's stop as it was,
        with out, inputs, grad, grads and node bound to copies of its
        tensors as they were (changing them does not reach the pass).
        s, n, c and f go on from the live op; `now` comes back to it."""
            if not self.dbg.timetravel:
                self.error("nothing is kept: %timetravel on keeps the ops of a stepped pass "
                           "(set it before the pass)")
                return
            n = _positive(arg.strip()) if arg.strip() else 1
            if n is None:
                self.error("back takes a positive number of ops")
                return
            if self.view - n < 0:
                self.error(f"only {self.view} earlier op{'' if self.view == 1 else 's'} kept of "
                           f"this pass (the last {self.dbg.timetravel} at most; history lists "
                           "them)")
                return
            self._goto(self.view - n)

        def _goto(self, k):
            self.view = k
            rec = self.dbg.past[k]
            last = len(self.dbg.past) - 1
            if k == last:
                self.scope.bound.clear()
                self.scope.bound.update(self.live)
                self.message("back at the live op")
                self.dbg._show_stop(self.ev, "now", self.frame, _Namer(self.frame))
                return
            self.scope.bound.clear()
            self.scope.bound.update({"out": rec.out, "inputs": rec.inputs, "grad": rec.grad,
                                     "grads": rec.grads, "node": rec.node})
            self.dbg.show_past(k, self.frame, _Namer(self.frame))
            self.message("(copies as they were: a change to them does not reach the pass; "
                         "a change made at the live op is not in these)")

        def do_now(self, arg):
            """now
        Back to the live op after `back`."""
            if self.view >= 0:
                self._goto(len(self.dbg.past) - 1)

        def do_history(self, arg):
            """history
        The ops kept of this pass (%timetravel on), oldest first, with
        their output's statistics."""
            self.dbg.list_past(self.view)

        do_rs = do_back

        def do_nextline(self, arg):
            """nl | nextline
        Run to the next line of the current frame and stop there, as pdb's
        n: the prompt there steps by lines (n, s, r, unt, c)."""
            frame = self.curframe
            tracer = self.dbg._tracer()
            tracer.start(frame)
            tracer._set_stopinfo(frame, None)
            self.dbg.mode = RUN
            return 1

        do_nl = do_nextline

        def do_clear(self, arg):
            """cl(ear) [N ... | all]
        Delete breakpoints (all without N)."""
            try:
                self.dbg.bp_command("delete", arg or "all")
            except ValueError as e:
                self.error(str(e))

        def do_disable(self, arg):
            """disable N ... | all
        Disable breakpoints."""
            try:
                self.dbg.bp_command("disable", arg)
            except ValueError as e:
                self.error(str(e))

        def do_enable(self, arg):
            """enable N ... | all
        Enable breakpoints."""
            try:
                self.dbg.bp_command("enable", arg)
            except ValueError as e:
                self.error(str(e))

        def do_watch(self, arg):
            """watch [EXPR]
        Print EXPR at every stop; without EXPR, list the watches."""
            self.dbg.add_watch(arg)

        def do_unwatch(self, arg):
            """unwatch N | all
        Remove a watch."""
            self.dbg.remove_watch(arg)

        def do_graph(self, arg):
            """graph [--depth N] [EXPR]
        The recorded graph so far (this node and what it consumes), or
        the graph behind EXPR."""
            from nndb import graphview
            try:
                graphview.show(arg, self.curframe.f_globals, self.curframe_locals, self.ev)
            except Exception as e:
                self.error(f"{type(e).__name__}: {e}")

        def do_where(self, arg):
            """w(here)
        Your frames (innermost last), the module path of the node and the
        position in the pass."""
            super().do_where(arg)
            m = self.ev.module
            if m:
                parts = m.split(".")
                self.message("module stack:")
                for k in range(len(parts)):
                    self.message("  " + "  " * k + ".".join(parts[:k + 1]))
            else:
                self.message("module stack: (top level, in no module)")
            self.message(f"position: {self.ev.phase} {self.ev.op}, {self.dbg._position(self.ev)}")

        def do_help(self, arg):
            if not arg:
                self.message(HELP_TEXT.rstrip("\n"))
                return
            return super().do_help(arg)

        do_s = do_step
        do_n = do_next
        do_c = do_cont = do_continue
        do_f = do_finish
        do_q = do_exit = do_quit
        do_b = do_break
        do_cl = do_clear
        do_w = do_where
        do_h = do_help

    return StopPromptImpl


def _make_post_mortem(base):
    class PostMortemImpl(base):
        """pdb on a finished statement's traceback (%debug, %pdb on)."""

        def _ended(self, arg):
            self.error("the statement has ended: u, d, p, l and friends look at its frames; "
                       "c or q leaves")

        do_step = do_s = do_next = do_n = do_until = do_unt = do_jump = do_j = _ended
        do_return = do_r = do_run = do_restart = _ended

        def do_continue(self, arg):
            """c(ont(inue)) | q(uit)
        Leave the post-mortem prompt."""
            return 1

        do_c = do_cont = do_quit = do_q = do_exit = do_continue

        def do_fwd(self, arg):
            """fwd
        After an error raised in backward(): the forward line that
        recorded the failing node; its frame, when it is still on the
        stack, becomes the current one."""
            failed = getattr(self, "failed", None)
            if not failed or not failed["file"]:
                self.error("not after an error in backward() recorded with the debugger on")
                return
            file, line = failed["file"], failed["line"]
            for i, (frame, _) in enumerate(self.stack):
                code = frame.f_code
                last = max((n for _, _, n in code.co_lines() if n), default=0)
                if code.co_filename == file and code.co_firstlineno <= line <= last:
                    self._select_frame(i)
                    self.message(f"the forward frame: {code.co_name} in {file}, now at line "
                                 f"{frame.f_lineno}; the forward op was at line {line}:")
                    break
            else:
                self.message(f"the forward op was recorded at {file}:{line} (its frame has "
                             "returned):")
            self.message(_source_lines(file, line, None).rstrip("\n"))

        do_forward = do_fwd

        def do_EOF(self, arg):
            self.message("")
            return 1

    return PostMortemImpl


def _make_line_tracer(base):
    class LineTracerImpl(base):
        """bdb's line breakpoints for %break py: sys.settrace is set only
        while one is enabled (or a line step from an op stop is pending);
        a stop opens pdb itself, so n, s, r, unt, j step by lines."""

        def __init__(self, dbg):
            super().__init__()
            self.skip = {"torch", "torch.*", "nndb", "nndb.*"}  # your frames only
            self.dbg = dbg
            self.hit_bp = None
            self.quit_req = False
            self.bot = types.SimpleNamespace()  # a bottom frame that is none of yours

        def stop_here(self, frame):
            # Stepping stops in your code only: not in nndb's torch, the
            # standard library or installed packages (pdb would).
            if _not_yours(frame.f_code.co_filename):
                return False
            return super().stop_here(frame)

        def find_file(self, file):
            if file.startswith("<") or os.path.isabs(file):
                return file
            if os.path.exists(file):
                return os.path.abspath(file)
            found = self.lookupmodule(file)
            if not found:
                raise ValueError(f"%break py: no file {file} (give a path, or a cell's name as "
                                 "its tracebacks show it: <cell 3>)")
            return os.path.abspath(found)

        def drop(self, bp):
            bp.deleteMe()
            key = (bp.file, bp.line)
            if key not in bdb_module().Breakpoint.bplist and bp.file in self.breaks:
                lines = self.breaks[bp.file]
                if bp.line in lines:
                    lines.remove(bp.line)
                if not lines:
                    del self.breaks[bp.file]

        def tracing(self):
            return sys.gettrace() == self.trace_dispatch

        def start(self, frame):
            if not self.tracing():
                self.quitting = False
                self.botframe = self.bot
                self._set_stopinfo(self.bot, None, -1)  # run on to a breakpoint
                sys.settrace(self.trace_dispatch)
            while frame is not None:  # the frames already running
                frame.f_trace = self.trace_dispatch
                frame = frame.f_back

        def stop(self):
            self._set_stopinfo(self.bot, None, -1)
            if self.tracing():
                sys.settrace(None)

        def trace_dispatch(self, frame, event, arg):
            try:
                return super().trace_dispatch(frame, event, arg)
            except _C().Stopped as e:  # q: the error shows your frames, not bdb's
                raise e.with_traceback(None) from None

        def dispatch_line(self, frame):
            self.hit_bp = None
            return super().dispatch_line(frame)

        def break_here(self, frame):
            hit = super().break_here(frame)
            if hit:
                self.hit_bp = self.currentbp
            return hit

        def set_continue(self):
            self._set_stopinfo(self.bot, None, -1)
            if not self.breaks:
                sys.settrace(None)

        def _line_came_first(self):
            if self.dbg.step_any:  # s: a line came before the next op
                self.dbg.step_any = False
                self.dbg.mode = RUN
                self.dbg.sync()

        def user_call(self, frame, argument_list):
            if self.dbg.depth:
                return
            if self.stop_here(frame):
                self._line_came_first()
            super().user_call(frame, argument_list)

        def user_line(self, frame):
            if self.dbg.depth:  # code typed at a stop's prompt runs on
                return
            self._line_came_first()
            b = None
            if self.hit_bp is not None:
                b = next((b for b in self.dbg.bps if b.py is not None and
                          b.py.number == self.hit_bp), None)
            self.hit_bp = None
            if b is not None:
                b.hits += 1
                self.message(f"> stopped (breakpoint {b.id}, {b.text}): a Python line")
            if not _can_read():
                self.message(f"> {frame.f_code.co_filename}({frame.f_lineno})"
                             f"{frame.f_code.co_name}()")
                self.set_continue()
                return
            self.quit_req = False
            self.dbg.depth += 1
            self.dbg.at_prompt = True
            dap = _dap()
            try:
                if dap is not None:  # a visual debugger is attached
                    action = dap.wait(frame, "breakpoint" if b is not None else "step",
                                      f"line {frame.f_lineno}")
                    if action == "next":
                        self.set_next(frame)
                    elif action == "stepIn":
                        self.set_step()
                    elif action == "stepOut":
                        self.set_return(frame)
                    else:
                        self.set_continue()
                else:
                    self.interaction(frame, None)
            finally:
                self.dbg.at_prompt = False
                self.dbg.depth -= 1
            if self.quit_req:
                self.quit_req = False
                raise _C().Stopped(f"quit at the debugger, at {frame.f_code.co_filename}:"
                                   f"{frame.f_lineno}: the statement was aborted; the session "
                                   "and its variables are kept")

        def user_return(self, frame, return_value):
            if self.dbg.depth:
                return
            super().user_return(frame, return_value)

        def do_quit(self, arg):
            """q(uit) | exit
        Abort the running statement (torch._C.Stopped); the session and its
        variables are kept."""
            self.quit_req = True
            self.set_continue()
            return 1

        do_q = do_exit = do_quit

        def do_sop(self, arg):
            """sop | stepop
        Run to the next op (forward or backward node) and stop there with
        the op stop (its inputs and output); lines do not stop it."""
            self.dbg.mode = STEP
            self.dbg.sync()
            self.set_continue()
            return 1

        do_stepop = do_sop

        def do_step(self, arg):
            """s(tep)
        Stop at whichever comes first: the next line of your code (this
        frame's next line, or the first line of a function of yours it
        calls: pdb's s) or the next op (an op stop, with its inputs and
        output). sline steps by lines only, sop by ops only."""
            self.dbg.mode = STEP
            self.dbg.step_any = True
            self.dbg.sync()
            return super().do_step(arg)

        do_s = do_step

        def do_sline(self, arg):
            """sline
        pdb's s: the next line, or into the next Python function called;
        ops do not stop it."""
            return super().do_step(arg)

        def do_EOF(self, arg):
            """(Ctrl-D) Continue."""
            self.message("")
            self.set_continue()
            return 1

        def do_break(self, arg):
            """b(reak) [SPEC]
        Set a breakpoint as %break (an op spec, or py FILE:LINE / py FUNC
        for a Python line); without SPEC, list them."""
            if not arg.strip():
                self.dbg.list_breaks()
                return
            try:
                self.dbg.add_break(arg, frame=self.curframe)
            except (ValueError, SyntaxError) as e:
                self.error(str(e))

        do_b = do_break

    return LineTracerImpl


def bdb_module():
    import bdb
    return bdb


_classes = {}


def LineTracer(dbg):
    if "line" not in _classes:
        _classes["line"] = _make_line_tracer(_pdb_class())
    return _classes["line"](dbg)


def StopPrompt(dbg, ev, frame, scope):
    if "stop" not in _classes:
        _classes["stop"] = _make_stop_prompt(_pdb_class())
    return _classes["stop"](dbg, ev, frame, scope)


def post_mortem(tb, failed=None):
    if "pm" not in _classes:
        _classes["pm"] = _make_post_mortem(_pdb_class())
    p = _classes["pm"]()
    p.failed = failed
    if failed is not None:
        p.message(_backward_report(failed))
    p.reset()
    while tb is not None and tb.tb_next is not None and \
            tb.tb_frame.f_code.co_filename.startswith(_NNDB_DIR):
        tb = tb.tb_next
    p.botframe = None
    p.interaction(None, tb)


# ---- magics (registered in nndb.magics) ----

def _usage(msg):
    from nndb.magics import UsageError
    return UsageError(msg)


def _m_break(session, line, frame):
    args = line.strip()
    word, _, rest = args.partition(" ")
    try:
        if not args or word == "list":
            _dbg.list_breaks()
        elif word in ("clear", "delete"):
            _dbg.bp_command("delete", rest or "all")
        elif word in ("disable", "enable"):
            _dbg.bp_command(word, rest)
        else:
            _dbg.add_break(args, frame=frame)
    except ValueError as e:  # a condition that does not compile stays a SyntaxError, as in %timeit
        raise _usage(str(e)) from None


def _bp_magic(what):
    def magic(session, line, frame):
        try:
            _dbg.bp_command(what, line)
        except ValueError as e:
            raise _usage(str(e)) from None
    return magic


def _m_step(session, line, frame):
    if not line.strip():
        raise _usage("%step needs a statement: %step loss.backward()")
    code = compile(line.strip(), "<step>", "exec", session.flags if session else 0, True)
    _dbg.mode = STEP
    _dbg.sync()
    try:
        exec(code, frame.f_globals, frame.f_locals)
    finally:
        _dbg.mode = RUN
        _dbg.sync()


def _m_anomaly(session, line, frame):
    arg = line.strip()
    if arg in ("on", "off"):
        _dbg.set_anomaly(arg == "on")
        print("Anomaly mode on: the first op that makes a NaN or an infinity stops the statement "
              "with a report." if _dbg.anomaly else "Anomaly mode off.")
    elif not arg:
        print("Anomaly mode is on." if _dbg.anomaly else "Anomaly mode is off.")
    else:
        raise _usage("%anomaly takes on or off")


def _m_timetravel(session, line, frame):
    words = line.split()
    if words and words[0] == "on" and len(words) <= 2:
        n = _positive(words[1]) if len(words) == 2 else 64
        if n is None:
            raise _usage("%timetravel on [N]: N, the ops kept, is a positive number")
        _dbg.timetravel = n
        print(f"Time travel on: while a pass is stepped, its last {n} ops are kept (copies of "
              "their tensors, at most 16M values); back, history and now at the (nndb) prompt.")
    elif words == ["off"]:
        _dbg.timetravel = 0
        _dbg.past.clear()
        _dbg.past_numel = 0
        _dbg.past_pass = None
        print("Time travel off: nothing is kept.")
    elif not words:
        print(f"Time travel is {'on, ' + str(_dbg.timetravel) + ' ops' if _dbg.timetravel else 'off'}.")
    else:
        raise _usage("%timetravel takes on [N] or off")


def _m_graph(session, line, frame):
    from nndb import graphview
    ev = _dbg.current[0] if _dbg.current else None
    graphview.show(line, frame.f_globals, frame.f_locals, ev)


def _m_debug(session, line, frame):
    if line.strip():
        raise _usage("%debug takes no statement here: it opens pdb on the last error")
    tb = getattr(sys, "last_traceback", None)
    if tb is None:
        raise _usage("No traceback has been produced, nothing to debug.")
    post_mortem(tb, _dbg.failed_node)


def _m_pdb(session, line, frame):
    arg = line.strip().lower()
    if arg in ("on", "1"):
        _dbg.pdb_auto = True
    elif arg in ("off", "0"):
        _dbg.pdb_auto = False
    elif not arg:
        _dbg.pdb_auto = not _dbg.pdb_auto
    else:
        raise _usage("%pdb takes on or off")
    _dbg.sync()  # on: the forward lines are recorded, for an error in backward()
    print(f"Automatic pdb calling has been turned {'ON' if _dbg.pdb_auto else 'OFF'}")


_MAGICS = {
    "break": _m_break,
    "delete": _bp_magic("delete"),
    "disable": _bp_magic("disable"),
    "enable": _bp_magic("enable"),
    "step": _m_step,
    "anomaly": _m_anomaly,
    "graph": _m_graph,
    "timetravel": _m_timetravel,
    "debug": _m_debug,
    "pdb": _m_pdb,
}

_MAGIC_DOCS = {
    "break": "%break [SPEC [if COND]] | list | clear [N|all] | disable N | enable N: op "
             "breakpoints (an op, a module path, forward, backward, nan, line N, FILE:LINE, "
             "step N); py FILE:LINE | py FUNC: a Python line (bdb's).",
    "delete": "%delete N|all: delete breakpoints.",
    "disable": "%disable N|all: disable breakpoints.",
    "enable": "%enable N|all: enable breakpoints.",
    "step": "%step STATEMENT: run it and stop at its first op.",
    "anomaly": "%anomaly on|off: the NaN hunt (the op where a NaN or an infinity is born).",
    "timetravel": "%timetravel on [N] | off: keep the last N ops of a stepped pass for back "
                  "and history at the (nndb) prompt.",
    "graph": "%graph [--depth N] [EXPR]: the recorded autograd graph (text; SVG in Jupyter).",
    "debug": "%debug: pdb on the last error's traceback (post-mortem).",
    "pdb": "%pdb [on|off]: open pdb automatically when a cell fails.",
}


def _breakpointhook(*args, **kwargs):
    """breakpoint() in a session: stop at the next op recorded after it."""
    _dbg.break_next()


def register(line_magics, docs=None):
    """Add the debugger's magics to a session's table (nndb.magics), and
    make breakpoint() stop at the next op."""
    line_magics.update(_MAGICS)
    if docs is not None:
        docs.update(_MAGIC_DOCS)
    sys.breakpointhook = _breakpointhook


# ---- for the front ends (binding/py_session_debug.c) and torch.autograd ----

def session_break(spec):
    """lang_session_break: None when set, else the reason. `--pdb` (nndb
    run --pdb) turns on the post-mortem prompt for an uncaught error."""
    if spec == "--pdb":
        _dbg.pdb_auto = True
        _dbg.sync()
        return None
    try:
        _dbg.add_break(spec, announce=False)
    except (ValueError, SyntaxError) as e:
        return str(e)
    return None


def break_next():
    _dbg.break_next()


def session_start():
    """A new session (lang_session_new): its debugger starts empty."""
    _dbg.reset()


def session_end():
    """lang_session_free: no hook, module wrapper, node or tensor stays."""
    _dbg.reset()


def set_anomaly(on):
    _dbg.set_anomaly(on)


def is_anomaly_enabled():
    return _dbg.anomaly


def cell_start():
    """A cell begins: line breakpoints set from another thread (the debug
    protocol's setBreakpoints) start tracing here, on the cell's thread."""
    if _dbg.tracer is not None:
        _dbg.sync_lines()


def cell_end():
    try:
        _dbg.cell_end()
    except BaseException:  # (a late Ctrl-C) the next cell resets it
        pass


def after_error(exc):
    try:
        _dbg.after_error(exc)
    except BaseException as e:  # the session goes on without the post-mortem
        sys.stderr.write(f"nndb: the post-mortem debugger failed: {type(e).__name__}: {e}\n")
