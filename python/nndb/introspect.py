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

_NAME_TAIL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\.?$|[A-Za-z_]\w*$")


def _bytes_len(text):
    return len(text.encode("utf-8"))


def _resolve(session, dotted, frame=None):
    """The object a dotted name names, or raise LookupError. Only names and
    attributes are looked up: nothing is called."""
    parts = dotted.split(".")
    spaces = []
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


def _keyword_matches(session, line, word):
    target = _call_target(line)
    if not target:
        return []
    try:
        import inspect
        params = inspect.signature(_resolve(session, target)).parameters.values()
    except Exception:
        return []
    return [p.name + "=" for p in params
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name.startswith(word)]


def _name_matches(session, text):
    if "." in text:
        expr, _, attr = text.rpartition(".")
        try:
            obj = _resolve(session, expr)
        except LookupError:
            return []
        try:
            names = set(dir(obj))
        except Exception:
            return []
        if not attr.startswith("_"):
            names = {n for n in names if not n.startswith("_")}
        return [f"{expr}.{n}" for n in names if n.startswith(attr)]
    names = set(keyword.kwlist) | set(session.ns) | set(vars(builtins))
    if not text.startswith("_"):
        names = {n for n in names if not n.startswith("_")}
    return [n for n in names if n.startswith(text)]


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
    m = _NAME_TAIL.search(line)
    word = m.group(0) if m else ""
    matches = _name_matches(session, word) if word else []
    if word and "." not in word:
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
    lines = [f"Shape:     {list(t.shape)}", f"Dtype:     {str(t.dtype).replace('torch.', '')}"]
    try:
        if t.numel() and t.dtype.is_floating_point:
            f = t.detach().float()
            lines.append(f"Stats:     mean {f.mean().item():.4g}, std {f.std().item():.4g}, "
                         f"min {f.min().item():.4g}, max {f.max().item():.4g}")
    except Exception:
        pass
    if getattr(t, "requires_grad", False):
        lines.append("Requires grad: True")
    return lines


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
    out = []
    for title, text in fields:
        if "\n" in text:
            out.append(f"{title}:\n{text}")
        else:
            out.append(f"{title + ':':<11}{text}")
    out += state
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
    tail = re.search(r"[A-Za-z_][\w.]*$", line)
    head = re.match(r"\w*", after)
    name = (tail.group(0) if tail else "") + (head.group(0) if head else "")
    name = name.rstrip(".")
    if not name:
        name = _call_target(line) or ""
    if not name:
        return None
    try:
        obj = _resolve(session, name)
    except LookupError:
        return None
    return describe(session, obj, detail)


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
    out = [f"{'Variable':<{vw}}{'Type':<{tw}}Data/Info", "-" * (vw + tw + len("Data/Info") + 1)]
    out += [f"{n:<{vw}}{t:<{tw}}{s}" for n, t, s in rows]
    return "\n".join(out) + "\n"
