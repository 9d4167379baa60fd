"""The text IPython shows for a value: its pretty printer's layout.

pretty(obj) is what IPython's display hook puts in text/plain: repr(obj),
except that lists, tuples, dicts, sets and frozensets are laid out to fit
79 columns. A container too long for its line is broken one item per line
(all of its items, its outer groups first), indented under its opening
bracket; an inner container that fits stays on one line. Set items are
sorted when they can be; after 1000 items a container ends with "...".
An object's _repr_pretty_(p, cycle) is called with a printer that has
IPython's methods (text, breakable, break_, begin_group, end_group,
group, pretty, indentation). Other values print their repr, a multi-line
repr indented to where it starts. Subclasses that define their own __repr__ (namedtuple, torch.Size)
print that repr, as in IPython. An object with only object's repr prints
as IPython prints it, <module.Class at 0x...> (a matplotlib Line2D, a
graphviz Digraph), not <module.Class object at 0x...>.

The layout is the streaming algorithm of Oppen and Wadler that IPython's
IPython.lib.pretty uses, written again here so that nndb shows the same
text without importing IPython.
"""

from collections import deque

__all__ = ["pretty"]

MAX_WIDTH = 79
MAX_SEQ_LENGTH = 1000


class _Text:
    __slots__ = ("parts", "width")

    def __init__(self):
        self.parts = []
        self.width = 0

    def emit(self, out, column):
        out.extend(self.parts)
        return column + self.width


class _Break:
    __slots__ = ("sep", "width", "indent", "group", "printer")

    def __init__(self, printer, sep):
        self.sep = sep
        self.width = len(sep)
        self.indent = printer.indent
        self.group = printer.groups[-1]
        self.printer = printer
        self.group.breaks.append(self)

    def emit(self, out, column):
        group = self.group
        group.breaks.popleft()
        if group.broken:
            out.append("\n" + " " * self.indent)
            return self.indent
        if not group.breaks:
            self.printer.pending_remove(group)
        out.append(self.sep)
        return column + self.width


class _Group:
    __slots__ = ("depth", "breaks", "broken")

    def __init__(self, depth):
        self.depth = depth
        self.breaks = deque()
        self.broken = False


class _Printer:
    def __init__(self, width=MAX_WIDTH, max_items=MAX_SEQ_LENGTH):
        self.width = width
        self.max_items = max_items
        self.out = []
        self.column = 0  # width of the current line written to out
        self.pending = deque()  # _Text and _Break not yet decided
        self.pending_width = 0
        self.indent = 0
        root = _Group(0)
        self.groups = [root]
        self.by_depth = [[root]]  # open groups that may still break, by depth
        self.seen = []

    # -- the layout --

    def pending_remove(self, group):
        try:
            self.by_depth[group.depth].remove(group)
        except ValueError:
            pass

    def _next_to_break(self):
        # The outermost group with breaks left; IPython's queue drops the
        # entry at the mirrored index, which this keeps doing.
        for level in self.by_depth:
            for i, group in enumerate(reversed(level)):
                if group.breaks:
                    del level[i]
                    group.broken = True
                    return group
            for group in level:
                group.broken = True
            del level[:]
        return None

    def _emit_group(self, group):
        while group.breaks:
            item = self.pending.popleft()
            self.column = item.emit(self.out, self.column)
            self.pending_width -= item.width
        while self.pending and isinstance(self.pending[0], _Text):
            item = self.pending.popleft()
            self.column = item.emit(self.out, self.column)
            self.pending_width -= item.width

    def _fit(self):
        while self.column + self.pending_width > self.width:
            group = self._next_to_break()
            if group is None:
                return
            self._emit_group(group)

    def _flush(self):
        for item in self.pending:
            self.column = item.emit(self.out, self.column)
        self.pending.clear()
        self.pending_width = 0

    def _newline(self):
        self.out.append("\n" + " " * self.indent)
        self.column = self.indent
        self.pending_width = 0

    def text(self, s):
        if not self.pending:
            self.out.append(s)
            self.column += len(s)
            return
        last = self.pending[-1]
        if not isinstance(last, _Text):
            last = _Text()
            self.pending.append(last)
        last.parts.append(s)
        last.width += len(s)
        self.pending_width += len(s)
        self._fit()

    def breakable(self, sep=" "):
        if self.groups[-1].broken:
            self._flush()
            self._newline()
        else:
            self.pending.append(_Break(self, sep))
            self.pending_width += len(sep)
            self._fit()

    def hard_break(self):
        group = self._next_to_break()
        if group is not None:
            self._emit_group(group)
        self._flush()
        self._newline()

    def open(self, indent=0, s=""):
        if s:
            self.text(s)
        group = _Group(self.groups[-1].depth + 1)
        self.groups.append(group)
        while group.depth >= len(self.by_depth):
            self.by_depth.append([])
        self.by_depth[group.depth].append(group)
        self.indent += indent

    def close(self, indent=0, s=""):
        self.indent -= indent
        group = self.groups.pop()
        if not group.breaks:
            self.pending_remove(group)
        if s:
            self.text(s)

    # IPython's printer API, for _repr_pretty_(p, cycle) methods.
    def begin_group(self, indent=0, open=""):
        self.open(indent, open)

    def end_group(self, dedent=0, close=""):
        self.close(dedent, close)

    def break_(self):
        self.hard_break()

    def pretty(self, obj):
        self.value(obj)

    @property
    def indentation(self):
        return self.indent

    @indentation.setter
    def indentation(self, n):
        self.indent = n

    def group(self, indent=0, open="", close=""):
        import contextlib

        @contextlib.contextmanager
        def grouped():
            self.open(indent, open)
            try:
                yield
            finally:
                self.close(indent, close)
        return grouped()

    def result(self):
        self._flush()
        return "".join(self.out)

    # -- values --

    def items(self, seq):
        for i, x in enumerate(seq):
            if self.max_items and i >= self.max_items:
                self.text(",")
                self.breakable()
                self.text("...")
                return
            yield i, x

    def value(self, obj):
        cycle = id(obj) in self.seen
        self.seen.append(id(obj))
        self.open()
        try:
            kind = _kind(type(obj))
            if kind is None:
                self.repr_lines(obj)
            elif kind == "default":
                self.text(_default_text(obj))
            elif kind == "_repr_pretty_":
                obj._repr_pretty_(self, cycle)
            elif cycle:
                self.text("{...}" if kind is dict else
                          {list: "[...]", tuple: "(...)", set: "{...}",
                           frozenset: "frozenset({...})"}[kind])
            elif kind is dict:
                self.mapping(obj)
            elif kind in (set, frozenset):
                self.set_items(obj, kind)
            else:
                self.sequence(obj, "[" if kind is list else "(", "]" if kind is list else ")")
        finally:
            self.close()
            self.seen.pop()

    def repr_lines(self, obj):
        self.open()
        for i, line in enumerate(repr(obj).splitlines()):
            if i:
                self.hard_break()
            self.text(line)
        self.close()

    def sequence(self, obj, start, end):
        self.open(len(start), start)
        for i, x in self.items(obj):
            if i:
                self.text(",")
                self.breakable()
            self.value(x)
        if len(obj) == 1 and isinstance(obj, tuple):
            self.text(",")
        self.close(len(start), end)

    def mapping(self, obj):
        self.open(1, "{")
        for i, key in self.items(obj.keys()):
            if i:
                self.text(",")
                self.breakable()
            self.value(key)
            self.text(": ")
            self.value(obj[key])
        self.close(1, "}")

    def set_items(self, obj, kind):
        if not obj:
            self.text(type(obj).__name__ + "()")
            return
        start, end = ("{", "}") if kind is set else ("frozenset({", "})")
        self.open(len(start), start)
        items = obj
        if not (self.max_items and len(obj) >= self.max_items):
            try:
                items = sorted(obj)
            except Exception:
                try:
                    items = sorted(obj, key=str)
                except Exception:
                    pass
        for i, x in self.items(items):
            if i:
                self.text(",")
                self.breakable()
            self.value(x)
        self.close(len(start), end)


_CONTAINERS = (list, tuple, dict, set, frozenset)


def _kind(cls):
    """The container layout for [cls]: the first class in its MRO that is a
    built-in container, unless a class before it defines __repr__."""
    for c in cls.__mro__:
        if c in _CONTAINERS:
            return c
        if callable(c.__dict__.get("_repr_pretty_")):
            return "_repr_pretty_"
        if c is not object and callable(c.__dict__.get("__repr__")):
            return None
    return "default"  # object's own repr


def _default_text(obj):
    """IPython's text for an object with only object's repr."""
    cls = type(obj)
    mod = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", None) or cls.__name__
    if mod not in (None, "builtins", "__builtin__", "exceptions"):
        name = f"{mod}.{name}"
    return f"<{name} at 0x{id(obj):x}>"


def pretty(obj, width=MAX_WIDTH):
    """IPython's text/plain for [obj]."""
    kind = _kind(type(obj))
    if kind is None:
        return repr(obj)
    if kind == "default":
        return _default_text(obj)
    printer = _Printer(width)
    printer.value(obj)
    return printer.result()
