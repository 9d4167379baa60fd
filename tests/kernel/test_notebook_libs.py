"""The notebook libraries a course uses, in the kernel as under ipykernel:
IPython.display's objects arrive with ipykernel's MIME types, a graphviz
Digraph as a cell's value is SVG, long lists and dicts are laid out as
IPython's pretty printer lays them out, and a tqdm bar ends printed once.

Every test runs against Debian's ipykernel too (NNDB_TEST_KERNEL=python3),
which is where the expected bundles come from. nndb's kernel also sends a
PNG beside an SVG-only picture (kernel_handlers.c), which these tests allow.
"""
import base64
import json

import harness
from harness import ok, outputs, result_text

PNG_1x1 = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9"
           "awAAAABJRU5ErkJggg==")


def _display_data(k, code):
    rep, io = k.execute(code)
    ok(rep)
    return [m["content"]["data"] for m in outputs(io, "display_data")]


def _result_data(k, code):
    rep, io = k.execute(code)
    ok(rep)
    res = outputs(io, "execute_result")
    assert len(res) == 1, [m["msg_type"] for m in io]
    return res[0]["content"]["data"]


def _mimes(data):
    # nndb adds a PNG beside an SVG-only picture (untrusted notebooks).
    keys = set(data)
    if harness.IS_NNDB and "image/svg+xml" in keys:
        keys.discard("image/png")
    return keys


def test_ipython_display_objects_mime_types(k):
    datas = _display_data(
        k,
        "from IPython.display import display, HTML, Markdown, Image, SVG, Latex, JSON, Pretty\n"
        "import base64\n"
        "display(HTML('<b>bold</b>'))\n"
        "display(Markdown('# title'))\n"
        f"display(Image(data=base64.b64decode('{PNG_1x1}')))\n"
        "display(SVG('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"></svg>'))\n"
        "display(Latex(r'$\\alpha^2$'))\n"
        "display(JSON({'a': [1, 2], 'b': None}))\n"
        "display(Pretty('pretty\\ntext'))\n")
    assert len(datas) == 7, datas
    html, md, img, svg, latex, js, pretty = datas
    assert _mimes(html) == {"text/plain", "text/html"} and html["text/html"] == "<b>bold</b>"
    assert html["text/plain"] == "<IPython.core.display.HTML object>"
    assert _mimes(md) == {"text/plain", "text/markdown"} and md["text/markdown"] == "# title"
    assert _mimes(img) == {"text/plain", "image/png"}
    assert img["image/png"].strip() == PNG_1x1
    assert img["text/plain"] == "<IPython.core.display.Image object>"
    assert _mimes(svg) == {"text/plain", "image/svg+xml"} and "<svg" in svg["image/svg+xml"]
    assert _mimes(latex) == {"text/plain", "text/latex"} and latex["text/latex"] == "$\\alpha^2$"
    assert _mimes(js) == {"text/plain", "application/json"}
    assert js["application/json"] == {"a": [1, 2], "b": None}  # a JSON value, not a string
    assert pretty == {"text/plain": "pretty\ntext"}


def test_repr_methods_as_a_cell_value(k):
    data = _result_data(k, "class V:\n"
                        "    def _repr_markdown_(self): return '*v*'\n"
                        "    def _repr_latex_(self): return '$v$'\n"
                        "    def _repr_json_(self): return {'v': 1}\n"
                        "    def __repr__(self): return 'V()'\n"
                        "V()")
    assert data == {"text/plain": "V()", "text/markdown": "*v*", "text/latex": "$v$",
                    "application/json": {"v": 1}}


def test_graphviz_digraph_is_svg(k):
    data = _result_data(k, "from graphviz import Digraph\n"
                        "dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})\n"
                        "dot.node('a', label='{ data 2.0000 | grad 1.0000 }', shape='record')\n"
                        "dot.node('b', label='+')\n"
                        "dot.edge('b', 'a')\n"
                        "dot")
    assert _mimes(data) == {"text/plain", "image/svg+xml"}
    svg = data["image/svg+xml"]
    assert "<svg" in svg and "data 2.0000" in svg
    # IPython's text for an object with object's repr, in both kernels.
    assert data["text/plain"].startswith("<graphviz.graphs.Digraph at 0x")
    if harness.IS_NNDB:
        assert base64.b64decode(data["image/png"])[:4] == b"\x89PNG"


def test_graphviz_draw_dot_micrograd(k):
    # micrograd's draw_dot: a record node per value (data and grad printed
    # from nndb's 0-d tensors), an op node before it.
    data = _result_data(k, "import torch\nfrom graphviz import Digraph\n"
                        "class Value:\n"
                        "    def __init__(self, data, prev=(), op=''):\n"
                        "        self.data = torch.tensor(data); self.grad = torch.tensor(0.0)\n"
                        "        self._prev = set(prev); self._op = op\n"
                        "    def __mul__(self, o): return Value(float(self.data * o.data), (self, o), '*')\n"
                        "def draw_dot(root):\n"
                        "    dot = Digraph(format='svg', graph_attr={'rankdir': 'LR'})\n"
                        "    nodes, edges, todo = set(), set(), [root]\n"
                        "    while todo:\n"
                        "        v = todo.pop(); nodes.add(v)\n"
                        "        for c in v._prev: edges.add((c, v)); todo.append(c)\n"
                        "    for n in nodes:\n"
                        "        uid = str(id(n))\n"
                        "        dot.node(uid, label='{ data %.4f | grad %.4f }' % (n.data, n.grad), shape='record')\n"
                        "        if n._op:\n"
                        "            dot.node(uid + n._op, label=n._op); dot.edge(uid + n._op, uid)\n"
                        "    for a, b in edges: dot.edge(str(id(a)), str(id(b)) + b._op)\n"
                        "    return dot\n"
                        "draw_dot(Value(2.0) * Value(-3.0))")
    svg = data["image/svg+xml"]
    assert "data 2.0000" in svg and "data &#45;6.0000" in svg and "grad 0.0000" in svg, svg
    assert svg.count("class=\"node\"") == 4 and svg.count("class=\"edge\"") == 3


# The layouts below are ipykernel's execute_result text/plain.
LONG_LIST = "[" + ",\n ".join(str(i) for i in range(30)) + "]"


def test_long_list_one_item_per_line(k):
    assert result_text(k.execute("list(range(30))")[1]) == LONG_LIST
    assert result_text(k.execute("list(range(5))")[1]) == "[0, 1, 2, 3, 4]"


def test_nested_and_dict_layout(k):
    rep, io = k.execute("[[i] * 12 for i in range(3)]")
    assert result_text(io) == ("[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],\n"
                               " [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1],\n"
                               " [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]]")
    rep, io = k.execute("{'k%d' % i: 'v' * i for i in range(12)}")
    expected = "{" + ",\n ".join("'k%d': '%s'" % (i, "v" * i) for i in range(12)) + "}"
    assert result_text(io) == expected
    rep, io = k.execute("tuple('abcdefghijklmnopqrstuvwxyz')")
    assert result_text(io) == "(" + ",\n ".join(repr(c) for c in "abcdefghijklmnopqrstuvwxyz") + ")"
    rep, io = k.execute("{5, 3, 1}, set(), (1,)")
    assert result_text(io) == "({1, 3, 5}, set(), (1,))"


def test_long_list_of_tensors_and_truncation(k):
    rep, io = k.execute("import torch\n[torch.tensor(float(i)) for i in range(8)]")
    assert result_text(io) == "[" + ",\n ".join("tensor(%d.)" % i for i in range(8)) + "]"
    rep, io = k.execute("list(range(1005))")
    text = result_text(io)
    assert text.endswith(" 999,\n ...]") and text.count("\n") == 1000


def test_tqdm_bar_in_the_kernel(k):
    rep, io = k.execute("from tqdm import tqdm, trange\nfrom tqdm.auto import tqdm as atqdm\n"
                        "s = 0\nfor i in trange(50, desc='steps'):\n    s += i\n"
                        "for i in tqdm(range(5)):\n    pass\n"
                        "list(atqdm(range(3)))\nprint(s)")
    ok(rep)
    text = "".join(m["content"]["text"] for m in outputs(io, "stream")
                   if m["content"]["name"] == "stderr")
    # Updates in place (carriage returns), ending at 100%, not a line per step.
    final = [line for line in text.split("\n") if line.strip()]
    assert any("steps: 100%" in line and "50/50" in line for line in final), text
    assert len(final) <= 6, final
    assert "1225" in "".join(m["content"]["text"] for m in outputs(io, "stream")
                             if m["content"]["name"] == "stdout")
