"""Completion, help and variable listings for nndb sessions (lang_complete,
lang_inspect, lang_who, `name?`, %who, %whos).

Offsets from the C side are bytes of UTF-8; they are turned into string
positions here and back.
"""

import builtins
import keyword
import os
import re
import sys



def _bytes_len(text):
    return len(text.encode("utf-8"))


def _stop_namespaces():
    """At the debugger's (nndb) prompt, the names of the stop and its frame."""
    debugger = sys.modules.get("nndb.debugger")
    return debugger.completion_namespaces() if debugger else []


def _resolve(session, dotted, frame=None):
    """The object a dotted name names, or raise LookupError. Only names and
    attributes are looked up: nothing is called."""
    parts = dotted.split(".")
    spaces = _stop_namespaces()
    if frame is not None:
        spaces += [frame.f_locals, frame.f_globals]
    spaces += [session.ns, vars(builtins)]
    for space in spaces:
        if parts[0] in space:
            obj = space[parts[0]]
            break
    else:
        raise LookupError(dotted)
    for part in parts[1:]:
        try:
            obj = getattr(obj, part)
        except Exception:
            raise LookupError(dotted)
    return obj


# ---- completion ----

def _string_prefix(line):
    """The text after an open quote at the end of [line], or None."""
    quote, start, i = None, 0, 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c == "#":
            return None
        elif c in "\"'":
            quote, start = c, i + 1
        i += 1
    return line[start:] if quote else None


def _path_matches(prefix):
    folder, _, partial = prefix.rpartition("/")
    base = os.path.expanduser(folder + "/" if folder else (folder or "."))
    if prefix.startswith("/") and not folder:
        base = "/"
    try:
        entries = os.listdir(base if base else ".")
    except OSError:
        return []
    out = []
    for e in entries:
        if not e.startswith(partial) or (e.startswith(".") and not partial.startswith(".")):
            continue
        path = (folder + "/" if folder or prefix.startswith("/") else "") + e
        if os.path.isdir(os.path.join(base, e)):
            path += "/"
        out.append(path)
    return out


def _call_target(line):
    """The dotted name before the innermost unclosed '(' of [line]."""
    depth = 0
    for i in range(len(line) - 1, -1, -1):
        c = line[i]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                m = re.search(r"([A-Za-z_][\w.]*)\s*$", line[:i])
                return m.group(1) if m else None
            depth -= 1
    return None


def _doc_keywords(obj):
    """The names a call can pass by keyword, read from the signature on the
    first line of [obj]'s docstring ("zeros(*size, dtype=None) -> Tensor"),
    as builtins written in C carry it (PyTorch's among them) when they have
    no __text_signature__. Positional-only names (before "/") and *args,
    **kwargs are left out."""
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return []
    first = doc.strip().split("\n", 1)[0]
    m = re.match(r"[\w.]*\(", first)
    if not m:
        return []
    depth, params, part = 1, [], ""
    for c in first[m.end():]:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                break
        if c == "," and depth == 1:
            params.append(part)
            part = ""
        else:
            part += c
    else:
        return []
    params.append(part)
    names = []
    for param in params:
        param = param.split("=", 1)[0].split(":", 1)[0].strip()
        if param == "/":
            names = []  # the names so far are positional-only
        elif re.fullmatch(r"[A-Za-z_]\w*", param):
            names.append(param)
    return names


def _keyword_names(obj):
    import inspect
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return _doc_keywords(obj)
    return [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def _keyword_matches(session, line, word):
    target = _call_target(line)
    if not target:
        return []
    try:
        names = _keyword_names(_resolve(session, target))
    except Exception:
        return []
    return [n + "=" for n in names if n.startswith(word)]


def _expression_before(line):
    """The start in [line] of the expression that ends it: names, dots and
    bracketed subscripts (`model[0].layers["fc"]`), or len(line)."""
    i = len(line)
    while i > 0:
        c = line[i - 1]
        if c.isalnum() or c in "_.":
            i -= 1
        elif c == "]":
            depth = 0
            j = i - 1
            while j >= 0:
                if line[j] == "]":
                    depth += 1
                elif line[j] == "[":
                    depth -= 1
                    if depth == 0:
                        break
                j -= 1
            if j <= 0 or not (line[j - 1].isalnum() or line[j - 1] in "_])"):
                break
            i = j
        else:
            break
    return i


def _value_of(session, node):
    """The value of a name, attribute or subscript expression [node] (ast),
    the index being a literal or a name: nothing else is evaluated, so Tab
    never calls a function. LookupError when it cannot be had."""
    import ast
    if isinstance(node, ast.Name):
        return _resolve(session, node.id)
    if isinstance(node, ast.Attribute):
        try:
            return getattr(_value_of(session, node.value), node.attr)
        except LookupError:
            raise
        except Exception:
            raise LookupError(node.attr)
    if isinstance(node, ast.Subscript):
        index = node.slice
        try:
            key = ast.literal_eval(index)
        except ValueError:
            if not isinstance(index, (ast.Name, ast.Attribute)):
                raise LookupError("subscript")
            key = _value_of(session, index)
        try:
            return _value_of(session, node.value)[key]
        except LookupError:
            raise
        except Exception:
            raise LookupError("subscript")
    raise LookupError(type(node).__name__)


def _chain_value(session, expr):
    """The value of [expr]: names and attributes, with subscripts by a
    literal or a name (`model[0].weight`); LookupError when there is none."""
    import ast
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise LookupError(expr)
    return _value_of(session, tree.body)


def _attributes(obj, attr):
    """The attribute names of [obj] that start with [attr] (private ones only
    when [attr] starts with '_')."""
    try:
        names = set(dir(obj))
    except Exception:
        return []
    if not attr.startswith("_"):
        names = {n for n in names if not n.startswith("_")}
    return [n for n in names if n.startswith(attr)]


def _name_matches(session, text):
    names = set(keyword.kwlist) | set(session.ns) | set(vars(builtins))
    for space in _stop_namespaces():
        names.update(space)
    if not text.startswith("_"):
        names = {n for n in names if not n.startswith("_")}
    return [n for n in names if n.startswith(text)]


# Magics whose arguments are file or folder names.
_FILE_MAGICS = {"run", "load", "loadpy", "cd", "ls", "cat", "edit", "save", "writefile",
                "pushd", "less", "more", "pycat", "rm", "mkdir"}


def complete(session, code, cursor):
    """([matches], start, end) in bytes of [code]."""
    from nndb import magics
    raw = code.encode("utf-8")
    cursor = max(0, min(cursor, len(raw)))
    before = raw[:cursor].decode("utf-8", "ignore")
    line = before.rsplit("\n", 1)[-1]
    m = re.search(r"^\s*(%{1,2})(\w*)$", line)
    if m:
        cell = m.group(1) == "%%"
        names = sorted(magics._CELL) if cell else magics._all_line_names(session)
        matches = [m.group(1) + n for n in names if n.startswith(m.group(2))]
        return sorted(set(matches)), cursor - _bytes_len(m.group(1) + m.group(2)), cursor
    prefix = _string_prefix(line)
    if prefix is not None:
        return sorted(set(_path_matches(prefix))), cursor - _bytes_len(prefix), cursor
    # The arguments of a shell command and of the magics that take files
    # are paths (!ls da<Tab>, %run tr<Tab>); other magics' are code.
    m = re.search(r"^\s*(?:%{1,2}(\w+)\s|!)(?:.*\s)?(\S*)$", line)
    shell = m and m.group(1) is None and not _stop_namespaces()  # pdb's "!" runs code
    if m and (shell or m.group(1) in _FILE_MAGICS):
        word = m.group(2)
        return sorted(set(_path_matches(word))), cursor - _bytes_len(word), cursor
    # After a dot, the attributes of what comes before it (x.su, model[0].we):
    # the names alone, replacing the text after the dot, as IPython does.
    expr, dot, attr = line[_expression_before(line):].rpartition(".")
    if dot and expr:
        try:
            matches = _attributes(_chain_value(session, expr), attr)
        except LookupError:
            matches = []
        return sorted(set(matches)), cursor - _bytes_len(attr), cursor
    m = re.search(r"[A-Za-z_]\w*$", line)
    word = m.group(0) if m and not dot else ""
    matches = _name_matches(session, word) if word else []
    if word:
        matches += _keyword_matches(session, line[:len(line) - len(word)], word)
    return sorted(set(matches)), cursor - _bytes_len(word), cursor


# ---- help ----

def _signature(obj):
    import inspect
    try:
        return f"{getattr(obj, '__name__', type(obj).__name__)}{inspect.signature(obj)}"
    except (TypeError, ValueError):
        return None


def _tensor_types():
    torch = sys.modules.get("torch")
    nn = sys.modules.get("torch.nn")
    return (getattr(torch, "Tensor", None) if torch else None,
            getattr(nn, "Module", None) if nn else None)


def _tensor_state(t):
    """(title, text) fields of a tensor's shape, dtype and statistics."""
    fields = [("Shape", str(list(t.shape))), ("Dtype", str(t.dtype).replace("torch.", ""))]
    try:
        if t.numel() and t.dtype.is_floating_point:
            f = t.detach().float()
            fields.append(("Stats", f"mean {f.mean().item():.4g}, std {f.std().item():.4g}, "
                                    f"min {f.min().item():.4g}, max {f.max().item():.4g}"))
    except Exception:
        pass
    if getattr(t, "requires_grad", False):
        fields.append(("Requires grad", "True"))
    return fields


def describe(session, obj, detail):
    """IPython's pinfo text of [obj]: Signature, Docstring (or Source at
    detail 1), File, Type; a value's String form and, at detail 1, a
    tensor's shape and statistics."""
    import inspect
    fields = []
    is_class = isinstance(obj, type)
    if callable(obj):
        sig = _signature(obj)
        if sig:
            fields.append(("Init signature" if is_class else "Signature", sig))
    else:
        text = repr(obj)
        if len(text) > 200:
            text = text[:100] + " ... " + text[-95:]
        fields.append(("String form", text))
        try:
            fields.append(("Length", str(len(obj))))
        except Exception:
            pass
    tensor_cls, _ = _tensor_types()
    state = []
    if tensor_cls is not None and isinstance(obj, tensor_cls):
        state = _tensor_state(obj)
        if not detail:
            state = state[:2]
    source = None
    if detail and (inspect.isfunction(obj) or inspect.ismethod(obj) or is_class):
        try:
            source = inspect.getsource(obj)
        except (OSError, TypeError):
            source = None
    if source:
        # IPython 8's: a function's or class's docstring stays above its source
        if callable(obj):
            fields.append(("Docstring", inspect.getdoc(obj) or "<no docstring>"))
        fields.append(("Source", source.rstrip("\n")))
    else:
        doc = inspect.getdoc(obj) if callable(obj) or is_class else None
        if doc is None and not callable(obj):
            doc = inspect.getdoc(type(obj))
            if doc:
                fields.append(("Class docstring", doc))
                doc = None
            else:
                doc = None
        elif doc is None:
            doc = "<no docstring>"
        if doc is not None:
            fields.append(("Docstring", doc))
    try:
        path = inspect.getsourcefile(obj) if callable(obj) or is_class else None
    except TypeError:
        path = None
    if path:
        fields.append(("File", path))
    fields.append(("Type", type(obj).__name__))
    fields += state
    # IPython's layout: one-line values after titles padded to the longest
    # title, several lines under their title.
    width = max(len(title) + 2 for title, _ in fields)
    out = []
    for title, text in fields:
        if "\n" in text:
            out.append(f"{title}:\n{text}")
        else:
            out.append(f"{title + ':':<{width}}{text}")
    return "\n".join(out) + "\n"


def pinfo(session, name, detail, frame=None):
    """`name?` / `name??`: the help text, or IPython's not-found line."""
    name = name.strip()
    if name.startswith("%"):
        from nndb import magics
        bare = name.lstrip("%")
        for n, sig, doc in session.fe.ext_magics():
            if n == bare:
                return f"{sig}\n\n{doc}\n"
        fn = magics._LINE.get(bare) or magics._CELL.get(bare)
        if fn is None:
            return f"Object `{name}` not found.\n"
        doc = magics._DOCS.get(bare) or (fn.__doc__ or "").strip() or "<no docstring>"
        return f"%{bare}\n{doc}\n"
    if name.endswith("()"):
        name = name[:-2]
    try:
        obj = _resolve(session, name, frame)
    except LookupError:
        return f"Object `{name}` not found.\n"
    return describe(session, obj, detail)


def inspect_at(session, code, cursor, detail):
    """lang_inspect: help on the name under or just before [cursor] (or
    the call it is in), or None."""
    raw = code.encode("utf-8")
    cursor = max(0, min(cursor, len(raw)))
    before = raw[:cursor].decode("utf-8", "ignore")
    after = raw[cursor:].decode("utf-8", "ignore")
    line = before.rsplit("\n", 1)[-1]
    head = re.match(r"\w*", after)
    name = line[_expression_before(line):] + (head.group(0) if head else "")
    name = name.rstrip(".")
    if not name:
        name = _call_target(line) or ""
    if not name:
        return None
    try:
        obj = _chain_value(session, name)
    except LookupError:
        return None
    return describe(session, obj, detail)


# ---- help() ----

class Helper:
    """help() as site gives it (pydoc's help), except that its text comes
    out at once rather than through a pager (the session's stdout is the
    front end's), and at a terminal a line wider than the terminal is
    broken between words at its width, keeping its indent, rather than
    folded mid-word by the terminal."""

    def __repr__(self):
        return ("Type help() for interactive help, or help(object) for help about "
                "object.")

    def __call__(self, *args, **kwds):
        import pydoc
        pydoc.pager = _pager
        return pydoc.help(*args, **kwds)


def _terminal_width():
    """The terminal's width when stdout is one (the REPL), else 0."""
    import shutil
    real = sys.__stdout__
    try:
        if real is None or not real.isatty():
            return 0
    except ValueError:
        return 0
    return shutil.get_terminal_size().columns


def wrap_to_width(text, width):
    """[text] with each line wider than [width] broken between words."""
    import textwrap
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        if len(indent) > width // 2:
            indent = indent[:width // 2]
        out += textwrap.wrap(line.strip(), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False) or [line]
    return "\n".join(out)


def _pager(text):
    import pydoc
    text = pydoc.plain(text)
    width = _terminal_width()
    if width > 10:
        text = wrap_to_width(text, width)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


# ---- %who, %whos, lang_who ----

def user_names(session, include_private=False):
    """The session's variables: what the user made, not the prelude's names
    (unless the user rebound them) nor _-prefixed ones."""
    out = []
    for name, value in session.ns.items():
        if name.startswith("__") or (name.startswith("_") and not include_private):
            continue
        if name in session.hidden and session.hidden[name] is value:
            continue
        out.append(name)
    return sorted(out)


def summary(value):
    """One line about [value]: a tensor's shape, dtype and size, a module's
    parameter count, else its text (IPython's %whos cut)."""
    tensor_cls, module_cls = _tensor_types()
    try:
        if tensor_cls is not None and isinstance(value, tensor_cls):
            dtype = str(value.dtype).replace("torch.", "")
            nbytes = value.numel() * value.element_size()
            return f"[{', '.join(str(d) for d in value.shape)}] {dtype}, {nbytes} bytes"
        if module_cls is not None and isinstance(value, module_cls):
            params = list(value.parameters())
            n = sum(p.numel() for p in params)
            nbytes = sum(p.numel() * p.element_size() for p in params)
            return f"{n} parameters, {nbytes} bytes"
        if isinstance(value, type(sys)):
            return f"<module '{value.__name__}'>"
        text = str(value).replace("\n", "\\n")
    except Exception as e:
        text = f"<{type(e).__name__} in str()>"
    if len(text) > 50:
        text = text[:25] + "<...>" + text[-25:]
    return text


def who(session, kinds=()):
    """%whos's table: Variable, Type, Data/Info."""
    names = user_names(session)
    if kinds:
        names = [n for n in names if type(session.ns[n]).__name__ in kinds]
    if not names:
        return "Interactive namespace is empty.\n"
    rows = [(n, type(session.ns[n]).__name__, summary(session.ns[n])) for n in names]
    vw = max(max(len(r[0]) for r in rows), len("Variable")) + 3
    tw = max(max(len(r[1]) for r in rows), len("Type")) + 3
    # IPython's layout: a space between the Type column and the data
    out = [f"{'Variable':<{vw}}{'Type':<{tw}} Data/Info", "-" * (vw + tw + len("Data/Info") + 1)]
    out += [f"{n:<{vw}}{t:<{tw}} {s}" for n, t, s in rows]
    return "\n".join(out) + "\n"
