"""The graph view (%graph, and `graph` at the (nndb) prompt): the recorded
autograd graph behind a tensor as an indented text tree (the terminal) and
as SVG laid out by Graphviz (Jupyter), with module paths as clusters, value
and gradient statistics, and the debugger's current node highlighted.

The walk over the engine's nodes is C (torch._C._debug_graph); the layout
is Graphviz's libgvc, opened with ctypes (dlopen) on the first %graph, so
start-up does not pay for it. Without it the text tree still works and says
why there is no picture.
"""

import ctypes
import math
import threading

from nndb import debugger as _debugger

AUTO_COLLAPSE = 60  # more nodes than this: collapse repeated module subtrees
MAX_LINES = 400


# ---- Graphviz through dlopen ----

class _Graphviz:
    def __init__(self):
        self.lock = threading.Lock()
        self.tried = False
        self.why = None
        self.gvc = None

    def _open(self):
        self.tried = True
        try:
            cg = ctypes.CDLL("libcgraph.so.6", mode=ctypes.RTLD_GLOBAL)
            gv = ctypes.CDLL("libgvc.so.6", mode=ctypes.RTLD_GLOBAL)
        except OSError:
            self.why = "Graphviz (Debian's libgvc6) is not installed"
            return
        try:
            gv.gvContext.restype = ctypes.c_void_p
            cg.agmemread.restype = ctypes.c_void_p
            cg.agmemread.argtypes = [ctypes.c_char_p]
            gv.gvLayout.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
            gv.gvRenderData.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                                        ctypes.POINTER(ctypes.c_void_p),
                                        ctypes.POINTER(ctypes.c_uint)]
            gv.gvFreeRenderData.argtypes = [ctypes.c_void_p]
            gv.gvFreeLayout.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            cg.agclose.argtypes = [ctypes.c_void_p]
        except AttributeError:
            self.why = "this Graphviz lacks the functions nndb calls"
            return
        self.cg, self.gv = cg, gv
        self.gvc = gv.gvContext()
        if not self.gvc:
            self.why = "Graphviz could not start"

    def svg(self, dot):
        """(svg text or None, why)."""
        with self.lock:
            if not self.tried:
                self._open()
            if not self.gvc:
                return None, self.why
            g = self.cg.agmemread(dot.encode("utf-8"))
            if not g:
                return None, "Graphviz could not read the graph"
            try:
                data, size = ctypes.c_void_p(), ctypes.c_uint()
                if self.gv.gvLayout(self.gvc, g, b"dot") != 0 or \
                        self.gv.gvRenderData(self.gvc, g, b"svg", ctypes.byref(data),
                                             ctypes.byref(size)) != 0 or not data.value:
                    return None, "Graphviz could not lay the graph out"
                svg = ctypes.string_at(data.value, size.value).decode("utf-8", "replace")
                self.gv.gvFreeRenderData(data)
                self.gv.gvFreeLayout(self.gvc, g)
            finally:
                self.cg.agclose(g)
        start = svg.find("<svg")  # the notebook wants the element, not the prolog
        return (svg[start:] if start >= 0 else svg), None


_graphviz = _Graphviz()


def dot_to_svg(dot):
    return _graphviz.svg(dot)


# ---- text ----

def _stats_text(t):
    if t is None or not t.is_floating_point() or t.numel() == 0:
        return ""
    why = _debugger._released(t)
    if why:  # a value the node let go after the forward, or an FSDP weight between uses
        return " (not kept after forward)" if why == _debugger._FREED else " (storage released)"
    n, bad, mean, std, _, _ = _debugger._stats(t)
    if bad == n:
        return f" all {bad} non-finite"
    s = f" mean {mean:.3g}"
    if not math.isnan(std):
        s += f" std {std:.3g}"
    if bad:
        s += f" {bad} non-finite"
    return s


def _shape(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _components(path):
    return len(path.split(".")) if path else 0


def _choose_groups(nodes, depth):
    """Which nodes collapse into one box: those deeper than --depth, or, in
    a large graph, the repeated children of a list of modules."""
    if not depth and len(nodes) > AUTO_COLLAPSE:
        best = 0
        for n in nodes:
            parts = (n["module"] or "").split(".")
            for k in range(1, len(parts)):
                if parts[k][:1].isdigit():
                    best = k + 1
                    break
            if best:
                break
        depth = best or 2
    groups = {}
    if not depth:
        return groups
    for n in nodes:
        m = n["module"]
        c = _components(m)
        if c > depth:
            groups[n["id"]] = ".".join(m.split(".")[:depth])
        elif c == depth and len(nodes) > AUTO_COLLAPSE:
            groups[n["id"]] = m
    return groups


def _group_info(nodes, groups):
    """{group: (count, same_as)}, oldest first."""
    info, sigs, order = {}, {}, []
    for n in reversed(nodes):
        g = groups.get(n["id"])
        if g is None:
            continue
        if g not in info:
            order.append(g)
            info[g] = 0
            sigs[g] = []
        info[g] += 1
        sigs[g].append(n["op"])
    out = {}
    for k, g in enumerate(order):
        same = next((h for h in order[:k] if sigs[h] == sigs[g]), None)
        out[g] = (info[g], same)
    return out


def _node_line(n):
    s = f"{n['op']} {_shape(n['shape'])}"
    if n["module"]:
        s += f"  ({n['module']})"
    if n["file"]:
        s += f"  {n['file']}:{n['line']}"
    s += _stats_text(n["out"])
    if n["grad"] is not None:
        s += "  grad:" + _stats_text(n["grad"])
    if n["current"]:
        s += "   <== stopped here"
    return s


def text_tree(nodes, groups, ginfo, namer):
    by_id = {n["id"]: n for n in nodes}
    lines = []
    shown, gshown = set(), set()
    stack = [("node", nodes[0]["id"], 0)]
    while stack and len(lines) < MAX_LINES:
        kind, item, depth = stack.pop()
        pad = "  " * depth
        if kind in ("leaf", "input"):
            t = item
            s = f"{pad}{kind} {namer(t) or ''} {_shape(t.shape)}{_stats_text(t)}"
            if t.grad is not None:
                s += "  grad:" + _stats_text(t.grad)
            lines.append(s)
            continue
        n = by_id.get(item)
        if n is None:
            lines.append(pad + "...")
            continue
        g = groups.get(n["id"])
        if g is not None:
            if g in gshown:
                lines.append(f"{pad}[{g}] (see above)")
                continue
            gshown.add(g)
            count, same = ginfo[g]
            s = f"{pad}[{g}] {count} ops"
            if same:
                s += f", the same ops as {same}"
            lines.append(s + "  (collapsed; %graph --depth N shows more)")
            # below the group: the inputs of all its nodes from outside it
            for m in reversed(nodes):
                if groups.get(m["id"]) != g:
                    continue
                for ikind, ref in reversed(m["inputs"]):
                    if ikind == "node" and groups.get(ref) != g:
                        stack.append(("node", ref, depth + 1))
            continue
        if n["id"] in shown:
            lines.append(f"{pad}#{n['id']} {n['op']} (see above)")
            continue
        shown.add(n["id"])
        lines.append(f"{pad}#{n['id']} {_node_line(n)}")
        for ikind, ref in reversed(n["inputs"]):
            if ikind == "node":
                stack.append(("node", ref, depth + 1))
            elif ref.requires_grad or ref.dim() > 0:
                stack.append((ikind, ref, depth + 1))
    if stack:
        lines.append("... (more; %graph --depth N collapses modules)")
    return "\n".join(lines) + "\n"


# ---- DOT ----

def _esc(s):
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def dot_graph(nodes, groups, ginfo, namer):
    out = ['digraph G {\n rankdir=BT; size="9,14"; node [shape=box, style="rounded,filled", '
           'fillcolor="#f4f4f4", fontname="monospace", fontsize=10];\n edge [arrowsize=0.6];\n']
    gid = {g: k for k, g in enumerate(ginfo)}
    for n in nodes:
        if n["id"] in groups:
            continue
        label = f"{n['op']} {_shape(n['shape'])}"
        if n["out"] is not None:
            label += "\n" + _stats_text(n["out"])
        if n["grad"] is not None:
            label += "\ngrad" + _stats_text(n["grad"])
        extra = ""
        if n["current"]:
            extra = ', fillcolor="#ffd54f", penwidth=2'
        elif (n["out"] is not None and not _debugger._released(n["out"])
              and _debugger._C()._debug_nonfinite(n["out"]) is not None):
            extra = ', fillcolor="#ef9a9a"'
        out.append(f' n{n["id"]} [label="{_esc(label)}"{extra}];\n')
    for g, (count, same) in ginfo.items():
        label = f"{g}\n{count} ops" + (f"\nsame as {same}" if same else "")
        out.append(f' g{gid[g]} [shape=box3d, fillcolor="#e3f2fd", label="{_esc(label)}"];\n')
    clusters = {}
    for n in nodes:
        if n["id"] not in groups and n["module"]:
            clusters.setdefault(n["module"], []).append(n["id"])
    for k, (m, ids) in enumerate(clusters.items()):
        members = " ".join(f"n{i};" for i in ids)
        out.append(f' subgraph cluster_{k} {{ label="{_esc(m)}"; style=dashed; '
                   f'color="#90a4ae"; fontname="monospace"; fontsize=9; {members} }}\n')
    leaf = 0
    for n in nodes:
        g = groups.get(n["id"])
        to = f"g{gid[g]}" if g is not None else f"n{n['id']}"
        for kind, ref in n["inputs"]:
            if kind == "node":
                fg = groups.get(ref)
                if fg is not None:
                    if fg == g:
                        continue
                    frm = f"g{gid[fg]}"
                else:
                    frm = f"n{ref}"
            elif kind == "leaf":
                leaf += 1
                frm = f"l{leaf}"
                label = f"{namer(ref) or 'leaf'} {_shape(ref.shape)}"
                if ref.grad is not None:
                    label += "\ngrad" + _stats_text(ref.grad)
                out.append(f' {frm} [shape=ellipse, fillcolor="#e8f5e9", label="{_esc(label)}"];\n')
            else:
                continue
            out.append(f" {frm} -> {to};\n")
    out.append("}\n")
    return "".join(out)


# ---- %graph ----

def _parse(args):
    depth = 0
    rest = args.strip()
    if rest.startswith("--depth"):
        rest = rest[7:].lstrip(" =")
        num, _, rest = rest.partition(" ")
        try:
            depth = int(num)
        except ValueError:
            depth = 0
        if not 1 <= depth <= 64:
            raise ValueError("%graph --depth needs a number from 1 to 64")
    return depth, rest.strip()


def render(root, event=None, depth=0, namer=None):
    """(text, dot) of the graph behind [root] (None: the stop's node, or the
    last backward's root)."""
    C = _debugger._C()
    got = C._debug_graph(root, event)
    if got is None:
        raise ValueError("no graph to show yet: %graph EXPR shows the graph behind a tensor "
                         "(%graph loss); after backward() with the debugger on, %graph alone "
                         "shows that graph")
    nodes, truncated = got
    namer = namer or (lambda t: None)
    groups = _choose_groups(nodes, depth)
    ginfo = _group_info(nodes, groups)
    n = len(nodes)
    text = (f"graph of {n} node{'' if n == 1 else 's'}{', cut at 4000' if truncated else ''} "
            "(newest first; leaves and parameters by name)\n")
    text += text_tree(nodes, groups, ginfo, namer)
    if not any(nd["file"] for nd in nodes):
        text += ("(no module paths or lines: ops are labelled while the debugger is on, with a "
                 "breakpoint or %anomaly on)\n")
    return text, dot_graph(nodes, groups, ginfo, namer)


def show(args, globals_, locals_, event=None):
    depth, expr = _parse(args)
    root = None
    if expr:
        root = eval(expr, globals_, locals_)
        import torch
        if not isinstance(root, torch.Tensor):
            raise TypeError(f"%graph needs a tensor, got {type(root).__name__}")
    frame = None
    if event is None and _debugger._dbg.current:
        event, frame = _debugger._dbg.current[0], _debugger._dbg.current[1]
    namer = _debugger._Namer(frame)
    # outside a stop, the namespaces given are the cell's
    if frame is None:
        namer.frame = _FakeFrame(globals_, locals_)
    text, dot = render(root, event, depth, namer)
    svg, why = dot_to_svg(dot)
    if svg is None and why:
        text += f"(no picture: {why})\n"
    if svg is None:
        _debugger._show(text)
    else:
        _debugger._show(text, {"image/svg+xml": svg})


class _FakeFrame:
    def __init__(self, g, loc):
        self.f_globals = g
        self.f_locals = loc if loc is not None else g
