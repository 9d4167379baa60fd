"""Every request of messaging protocol 5.3 through jupyter_client: the reply's
schema, the busy ... outputs ... idle framing on iopub with the request as
parent, and what the content says (execution counts, completions in code
points, inspect, is_complete, history, stdin round trips, rich MIME types).
"""
import ast
import os
import platform
import re
import time

import pytest

import harness
from harness import IS_NNDB, outputs, result_text, stdout_of, msg_time

nndb_only = pytest.mark.skipif(not IS_NNDB, reason="nndb language feature")

# ---- schema ----
STR, INT, BOOL, DICT, LIST = str, int, bool, dict, list


def check_fields(content, fields, where):
    for name, typ in fields.items():
        assert name in content, f"{where}: missing '{name}' in {sorted(content)}"
        assert isinstance(content[name], typ), \
            f"{where}: '{name}' is {type(content[name]).__name__}, not {typ}"
        if typ is INT:
            assert not isinstance(content[name], bool), f"{where}: '{name}' is a bool"


def check_header(msg, msg_type):
    check_fields(msg["header"], {"msg_id": STR, "session": STR, "username": STR,
                                 "msg_type": STR, "version": STR}, "header")
    assert msg["header"]["msg_type"] == msg_type
    assert msg["header"]["version"].startswith("5."), msg["header"]["version"]
    assert "date" in msg["header"]
    assert isinstance(msg["metadata"], dict)


def check_framing(iopub, request_id):
    """busy first, idle last, nothing else in between but outputs of this request."""
    assert iopub, "nothing on iopub"
    assert iopub[0]["msg_type"] == "status" and \
        iopub[0]["content"]["execution_state"] == "busy", [m["msg_type"] for m in iopub]
    assert iopub[-1]["content"].get("execution_state") == "idle"
    states = [m for m in iopub if m["msg_type"] == "status"]
    assert len(states) == 2, [m["content"] for m in states]
    for m in iopub:
        assert m["parent_header"]["msg_id"] == request_id
        check_header(m, m["msg_type"])


def check_reply(reply, request_id, msg_type):
    check_header(reply, msg_type)
    assert reply["parent_header"]["msg_id"] == request_id
    assert reply["content"]["status"] in ("ok", "error", "aborted")


# ---- kernel_info ----
def check_kernel_info(c):
    check_fields(c, {"status": STR, "protocol_version": STR, "implementation": STR,
                     "implementation_version": STR, "language_info": DICT, "banner": STR,
                     "help_links": LIST}, "kernel_info_reply")
    major, minor = (int(x) for x in c["protocol_version"].split(".")[:2])
    assert (major, minor) >= (5, 3), c["protocol_version"]
    li = c["language_info"]
    check_fields(li, {"name": STR, "version": STR, "mimetype": STR, "file_extension": STR},
                 "language_info")
    for link in c["help_links"]:
        check_fields(link, {"text": STR, "url": STR}, "help_links")
    if IS_NNDB:
        # The language is Python (Debian's CPython, the one running this
        # suite) with IPython's syntax: ipykernel's language_info exactly.
        assert li == {"name": "python", "version": platform.python_version(),
                      "mimetype": "text/x-python", "file_extension": ".py",
                      "codemirror_mode": {"name": "ipython", "version": 3},
                      "pygments_lexer": "ipython3", "nbconvert_exporter": "python"}, li
        assert c["implementation"] == "nndb"
        assert "nndb" in c["banner"].lower()
        # The help links open nndb's own pages, installed as HTML with the
        # kernelspec and served by the notebook server at /kernelspecs/...
        from jupyter_client.kernelspec import KernelSpecManager
        spec_dir = KernelSpecManager().get_kernel_spec(harness.KERNEL).resource_dir
        ours = [l for l in c["help_links"] if l["url"].startswith("/kernelspecs/nndb/doc/")]
        assert ours and ours[0]["url"] == "/kernelspecs/nndb/doc/index.html", c["help_links"]
        for link in ours:
            page = os.path.join(spec_dir, link["url"][len("/kernelspecs/nndb/"):])
            with open(page) as f:
                html = f.read()
            assert html.startswith("<!DOCTYPE html>") and "<h1>" in html, page


@pytest.mark.parametrize("channel", ["shell", "control"])
def test_kernel_info(k, channel):
    mid = k.send(channel, "kernel_info_request")
    rep = k.reply(channel, mid)
    check_reply(rep, mid, "kernel_info_reply")
    check_kernel_info(rep["content"])
    check_framing(k.iopub_until_idle(mid), mid)


# ---- execute ----
def test_execute_ordering_and_outputs(k):
    code = 'print("out line")\n' + ('import sys; print("err line", file=sys.stderr)\n'
                                    if not IS_NNDB else "") + "6 * 7"
    mid = k.send("shell", "execute_request", dict(code=code, silent=False, store_history=True,
                                                   user_expressions={}, allow_stdin=False,
                                                   stop_on_error=True))
    rep = k.reply("shell", mid)
    io = k.iopub_until_idle(mid)
    check_reply(rep, mid, "execute_reply")
    check_fields(rep["content"], {"status": STR, "execution_count": INT,
                                  "user_expressions": DICT}, "execute_reply")
    assert rep["content"]["status"] == "ok"
    check_framing(io, mid)
    types = [m["msg_type"] for m in io]
    assert types[1] == "execute_input", types
    inp = io[1]["content"]
    check_fields(inp, {"code": STR, "execution_count": INT}, "execute_input")
    assert inp["code"] == code
    assert inp["execution_count"] == rep["content"]["execution_count"]
    assert "out line" in stdout_of(io)
    if not IS_NNDB:
        assert "err line" in stdout_of(io, "stderr")
    for m in outputs(io, "stream"):
        check_fields(m["content"], {"name": STR, "text": STR}, "stream")
    res = outputs(io, "execute_result")
    assert len(res) == 1
    check_fields(res[0]["content"], {"execution_count": INT, "data": DICT, "metadata": DICT},
                 "execute_result")
    assert res[0]["content"]["data"]["text/plain"] == "42"
    assert res[0]["content"]["execution_count"] == rep["content"]["execution_count"]
    # The result comes after the streams, and everything before the reply.
    assert types.index("execute_result") > types.index("stream")
    for m in io[:-1]:
        assert msg_time(m) <= msg_time(rep), (m["msg_type"], "published after the reply")
    assert msg_time(rep) <= msg_time(io[-1]), "reply sent after idle"


def test_execution_count_increments(k):
    rep1, _ = k.execute("a_count = 1")
    rep2, io2 = k.execute("a_count + 1")
    n1 = rep1["content"]["execution_count"]
    assert rep2["content"]["execution_count"] == n1 + 1
    # An error counts as an execution too.
    rep3, _ = k.execute("name_that_is_not_defined_anywhere")
    assert rep3["content"]["status"] == "error"
    assert rep3["content"]["execution_count"] == n1 + 2
    # store_history false does not move the counter.
    rep4, io4 = k.execute("a_count + 2", store_history=False)
    assert rep4["content"]["status"] == "ok"
    rep5, _ = k.execute("a_count + 3")
    assert rep5["content"]["execution_count"] == n1 + 3


def test_silent(k):
    before, _ = k.execute("silent_x = 5")
    rep, io = k.execute('silent_x = silent_x + 1\nprint("quiet")\nsilent_x', silent=True)
    assert rep["content"]["status"] == "ok"
    types = [m["msg_type"] for m in io]
    assert "execute_input" not in types and "execute_result" not in types, types
    if IS_NNDB:  # the spec: nothing on iopub (ipykernel still publishes streams)
        assert types == ["status", "status"], types
    after, io2 = k.execute("silent_x")
    assert result_text(io2) == "6"
    assert after["content"]["execution_count"] == before["content"]["execution_count"] + 1


def test_user_expressions(k):
    k.execute("ue_x = 20")
    rep, _ = k.execute("ue_y = ue_x + 1", user_expressions={"a": "ue_x + ue_y",
                                                            "b": "no_such_name_here"})
    ue = rep["content"]["user_expressions"]
    assert ue["a"]["status"] == "ok"
    check_fields(ue["a"], {"data": DICT, "metadata": DICT}, "user_expressions ok")
    assert ue["a"]["data"]["text/plain"] == "41"
    assert ue["b"]["status"] == "error"
    check_fields(ue["b"], {"ename": STR, "evalue": STR, "traceback": LIST},
                 "user_expressions error")
    assert ue["b"]["ename"] == "NameError"


def test_error_output_and_reply(k):
    code = "err_a = 1\nerr_b = err_a + no_such_variable_q"
    rep, io = k.execute(code)
    c = rep["content"]
    assert c["status"] == "error"
    check_fields(c, {"ename": STR, "evalue": STR, "traceback": LIST, "execution_count": INT},
                 "execute_reply error")
    assert c["ename"] == "NameError"
    assert "no_such_variable_q" in c["evalue"]
    errs = outputs(io, "error")
    assert len(errs) == 1
    e = errs[0]["content"]
    check_fields(e, {"ename": STR, "evalue": STR, "traceback": LIST}, "error")
    assert all(isinstance(line, str) for line in e["traceback"])
    tb = "\n".join(e["traceback"])
    assert "no_such_variable_q" in tb
    if IS_NNDB:
        assert "err_b = err_a + no_such_variable_q" in tb, tb
        assert "^" in tb, "no caret under the failing part"
        assert "line 2" in tb, tb


def test_stop_on_error_aborts_queued(k):
    ids = [k.send("shell", "execute_request",
                  dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True))
           for code in ("soe = 0\nfor i in range(200000): soe = soe + 1\nsoe_missing_name",
                        "soe_ran_2 = 1", "soe_ran_3 = 1")]
    reps = [k.reply("shell", i) for i in ids]
    for i in ids:
        k.iopub_until_idle(i)
    assert reps[0]["content"]["status"] == "error"
    for r in reps[1:]:
        assert r["content"]["status"] in ("aborted", "error"), r["content"]
    # The queued cells did not run; the kernel runs the next one.
    rep, io = k.execute("print(soe)\nsoe_ran_2")
    assert rep["content"]["status"] == "error" and rep["content"]["ename"] == "NameError"
    assert "200000" in stdout_of(io)


def test_stop_on_error_false_runs_queued(k):
    ids = [k.send("shell", "execute_request",
                  dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=False))
           for code in ("soe_missing_name_2", "soef_ran = 7")]
    reps = [k.reply("shell", i) for i in ids]
    assert reps[0]["content"]["status"] == "error"
    assert reps[1]["content"]["status"] == "ok"
    _, io = k.execute("soef_ran")
    assert result_text(io) == "7"


@nndb_only
def test_rich_tensor_result(k):
    rep, io = k.execute("rich_t = zeros(2, 3)\nrich_t")
    res = outputs(io, "execute_result")
    assert len(res) == 1
    data = res[0]["content"]["data"]
    assert data["text/plain"].startswith("tensor(")
    assert "<table" in data["text/html"].lower()


@nndb_only
def test_plot_is_display_data_with_a_png(k):
    rep, io = k.execute("plot([3.0, 2.0, 1.5, 1.2], title='loss')")
    assert rep["content"]["status"] == "ok"
    disp = outputs(io, "display_data")
    assert len(disp) == 1, [m["msg_type"] for m in io]
    c = disp[0]["content"]
    check_fields(c, {"data": DICT, "metadata": DICT}, "display_data")
    assert "text/plain" in c["data"]
    assert not outputs(io, "execute_result"), "plot() returns None: no execute_result"
    # matplotlib's PNG (as plt.plot's figures; the engine's SVG only without
    # matplotlib).
    w, h, pixels = png_pixels(c["data"]["image/png"])
    assert 300 < w < 1000 and 200 < h < 800, (w, h)
    # Drawn, not blank: white background, dark axes and a coloured curve.
    assert pixels.count(b"\xff\xff\xff") > w * h // 2
    dark = sum(1 for i in range(0, len(pixels), 3) if max(pixels[i:i + 3]) < 100)
    blue = sum(1 for i in range(0, len(pixels), 3)
               if pixels[i + 2] > 150 and pixels[i] < 80)
    assert dark > 200 and blue > 300, (dark, blue)


def png_pixels(b64):
    """(width, height, RGB bytes) of a base64 PNG (8-bit RGB or RGBA, no
    interlace), decoded here with zlib so the test needs no image library."""
    import base64
    import struct
    import zlib
    raw = base64.b64decode(b64)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", raw[:8]
    i, idat, w = 8, b"", 0
    while i < len(raw):
        n, kind = struct.unpack(">I4s", raw[i:i + 8])
        body = raw[i + 8:i + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        i += 12 + n
    data = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    out = bytearray()
    for y in range(h):
        f, line = data[y * (stride + 1)], bytearray(data[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for x in range(w):
            out += line[x * bpp:x * bpp + 3]
    return w, h, bytes(out)


def test_display_data_and_update(k):
    if IS_NNDB:
        code = ("display('first', display_id='live1')\n"
                "update_display('second', display_id='live1')")
    else:
        code = ("from IPython.display import display, update_display\n"
                "display('first', display_id='live1')\n"
                "update_display('second', display_id='live1')")
    rep, io = k.execute(code)
    disp = outputs(io, "display_data")
    upd = outputs(io, "update_display_data")
    assert disp and upd
    assert disp[0]["content"]["transient"]["display_id"] == "live1"
    assert upd[0]["content"]["transient"]["display_id"] == "live1"
    assert "second" in upd[0]["content"]["data"]["text/plain"]


@nndb_only
def test_progress_updates_one_display(k):
    rep, io = k.execute("s = 0\nfor i in progress(range(50000), desc='sum'):\n    s = s + i\ns")
    assert rep["content"]["status"] == "ok"
    disp = outputs(io, "display_data")
    upd = outputs(io, "update_display_data")
    assert disp, [m["msg_type"] for m in io]
    ids = {m["content"]["transient"]["display_id"] for m in disp + upd}
    assert len(ids) == 1, ids
    assert upd, "the final state of the bar arrives as an update"
    final = upd[-1]["content"]["data"]
    assert "50000/50000" in final["text/plain"]
    # The count is shown once, in both forms (it was doubled: "sum: 50/50 [...] 50/50").
    assert final["text/plain"].count("50000/") == 1, final["text/plain"]
    assert final["text/html"].count("50000/50000") == 1, final["text/html"]
    assert final["text/plain"].startswith("sum"), final["text/plain"]
    res = outputs(io, "execute_result")
    assert res and res[0]["content"]["data"]["text/plain"] == "1249975000"


# ---- complete / inspect / is_complete ----
def test_complete_counts_code_points(k):
    k.execute("zz_longname_value = 1")
    code = 's = "日本語 ünïcødé"\nzz_longname_v'
    rep, io = k.request("shell", "complete_request", {"code": code, "cursor_pos": len(code)})
    c = rep["content"]
    check_fields(c, {"status": STR, "matches": LIST, "cursor_start": INT, "cursor_end": INT,
                     "metadata": DICT}, "complete_reply")
    assert c["status"] == "ok"
    assert "zz_longname_value" in c["matches"]
    assert c["cursor_end"] == len(code), (c["cursor_end"], len(code), "bytes, not code points?")
    assert c["cursor_start"] == len(code) - len("zz_longname_v")
    check_framing(io, rep["parent_header"]["msg_id"])


def test_complete_mid_line(k):
    code = 'x = "é"; prin(1)'
    if IS_NNDB:
        code = 'x = "é"\nprin(1)'
    cur = code.index("prin") + 4
    rep, _ = k.request("shell", "complete_request", {"code": code, "cursor_pos": cur})
    c = rep["content"]
    assert "print" in c["matches"]
    assert c["cursor_start"] == code.index("prin")
    assert c["cursor_end"] == cur


@pytest.mark.parametrize("detail", [0, 1])
def test_inspect(k, detail):
    code = "print"
    rep, io = k.request("shell", "inspect_request",
                        {"code": code, "cursor_pos": len(code), "detail_level": detail})
    c = rep["content"]
    check_fields(c, {"status": STR, "found": BOOL, "data": DICT, "metadata": DICT},
                 "inspect_reply")
    assert c["status"] == "ok" and c["found"] is True
    assert "print" in c["data"]["text/plain"]
    check_framing(io, rep["parent_header"]["msg_id"])


@nndb_only
def test_inspect_tensor_detail_1_has_state(k):
    k.execute("insp_t = ones(4, 5)")
    code = "insp_t"
    r0, _ = k.request("shell", "inspect_request",
                      {"code": code, "cursor_pos": len(code), "detail_level": 0})
    r1, _ = k.request("shell", "inspect_request",
                      {"code": code, "cursor_pos": len(code), "detail_level": 1})
    assert r1["content"]["found"]
    text1 = r1["content"]["data"]["text/plain"]
    assert "4" in text1 and "5" in text1, text1
    assert len(text1) >= len(r0["content"]["data"].get("text/plain", ""))


def test_inspect_not_found(k):
    code = "qqq_unknown_thing"
    rep, _ = k.request("shell", "inspect_request",
                       {"code": code, "cursor_pos": len(code), "detail_level": 0})
    assert rep["content"]["status"] == "ok"
    assert rep["content"]["found"] is False


@pytest.mark.parametrize("code,status,indent", [
    ("print(1)", "complete", None),
    ("x = 1\ny = 2", "complete", None),
    ("for i in range(3):", "incomplete", "    "),
    ("def f(a):\n    if a:", "incomplete", "        "),
    ("print(1,", "incomplete", None),
    ('s = """abc', "incomplete", None),
    ("x = )", "invalid", None),
])
def test_is_complete(k, code, status, indent):
    rep, io = k.request("shell", "is_complete_request", {"code": code})
    c = rep["content"]
    check_fields(c, {"status": STR}, "is_complete_reply")
    assert c["status"] == status, (code, c)
    if status == "incomplete":
        check_fields(c, {"indent": STR}, "is_complete_reply incomplete")
        if indent is not None:
            assert c["indent"] == indent, (code, c)
    check_framing(io, rep["parent_header"]["msg_id"])


# ---- history, comm_info ----
def test_history(k):
    k.execute("hist_marker_one = 11")
    k.execute("hist_marker_one + 1")
    k.execute("hist_marker_two = 3")
    rep, io = k.request("shell", "history_request",
                        dict(output=True, raw=True, hist_access_type="tail", n=3))
    c = rep["content"]
    check_fields(c, {"status": STR, "history": LIST}, "history_reply")
    check_framing(io, rep["parent_header"]["msg_id"])
    hist = c["history"]
    assert len(hist) == 3, hist
    for entry in hist:
        assert len(entry) == 3 and isinstance(entry[0], int) and isinstance(entry[1], int)
        assert isinstance(entry[2], list) and len(entry[2]) == 2  # (input, output)
    inputs = [e[2][0] for e in hist]
    assert inputs == ["hist_marker_one = 11", "hist_marker_one + 1", "hist_marker_two = 3"]
    if IS_NNDB:
        assert hist[1][2][1] is not None and "12" in hist[1][2][1], hist[1]
    lines = [e[1] for e in hist]
    assert lines == sorted(lines) and len(set(lines)) == 3

    # Without output: entries are (session, line, input).
    rep, _ = k.request("shell", "history_request",
                       dict(output=False, raw=True, hist_access_type="tail", n=1))
    (entry,) = rep["content"]["history"]
    assert entry[2] == "hist_marker_two = 3"

    # range over this session (session 0 is the current one).
    first, last = lines[0], lines[-1]
    rep, _ = k.request("shell", "history_request",
                       dict(output=False, raw=True, hist_access_type="range", session=0,
                            start=first, stop=last + 1))
    assert [e[2] for e in rep["content"]["history"]] == inputs

    rep, _ = k.request("shell", "history_request",
                       dict(output=False, raw=True, hist_access_type="search",
                            pattern="hist_marker_t*", n=10, unique=False))
    found = [e[2] for e in rep["content"]["history"]]
    assert "hist_marker_two = 3" in found
    assert "hist_marker_one = 11" not in found

    # search and range with output: (input, output) pairs.
    rep, _ = k.request("shell", "history_request",
                       dict(output=True, raw=True, hist_access_type="search",
                            pattern="hist_marker_one +*", n=10, unique=True))
    found = rep["content"]["history"]
    assert [e[2][0] for e in found] == ["hist_marker_one + 1"]
    if IS_NNDB:
        assert found[0][2][1] == "12", found
    rep, _ = k.request("shell", "history_request",
                       dict(output=True, raw=True, hist_access_type="range", session=0,
                            start=lines[1], stop=lines[1] + 1))
    (entry,) = rep["content"]["history"]
    assert entry[1] == lines[1] and entry[2][0] == "hist_marker_one + 1"


def test_comm_info(k):
    rep, io = k.request("shell", "comm_info_request", {})
    c = rep["content"]
    check_fields(c, {"status": STR, "comms": DICT}, "comm_info_reply")
    assert c["comms"] == {}
    check_framing(io, rep["parent_header"]["msg_id"])
    rep, _ = k.request("shell", "comm_info_request", {"target_name": "jupyter.widget"})
    assert rep["content"]["comms"] == {}


# ---- stdin ----
def test_input_round_trip(k):
    rep, io = k.execute('who = input("Your name: ")\nprint("hello " + who)',
                        stdin_answers=["Ada"])
    (req,) = k.stdin_requests
    assert req["msg_type"] == "input_request"
    check_fields(req["content"], {"prompt": STR, "password": BOOL}, "input_request")
    assert req["content"]["prompt"] == "Your name: "
    assert req["content"]["password"] is False
    assert rep["content"]["status"] == "ok"
    assert "hello Ada" in stdout_of(io)


def test_input_not_allowed(k):
    rep, io = k.execute('who2 = input("name? ")', allow_stdin=False)
    c = rep["content"]
    assert c["status"] == "error"
    assert "input" in (c["ename"] + c["evalue"]).lower(), c
    assert outputs(io, "error")
    # The kernel goes on.
    rep, io = k.execute("1 + 2")
    assert result_text(io) == "3"


def test_unicode_round_trip(k):
    rep, io = k.execute('uni = "日本語 ünïcødé 🙂"\nprint(uni, len(uni))')
    assert stdout_of(io) == "日本語 ünïcødé 🙂 13\n"


def test_exit_asks_the_front_end_to_exit(fresh_kernel):
    k = fresh_kernel()
    ids = [k.send("shell", "execute_request",
                  dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True))
           for code in ("exit()", "after_exit = 1")]
    rep = k.reply("shell", ids[0])
    # nndb: a cell sent after exit() does not run; it gets an error that says
    # why, shown in the notebook, not a silent abort. (ipykernel, measured:
    # runs it before it stops.)
    late = k.reply("shell", ids[1])["content"]
    if IS_NNDB:
        assert late["status"] == "error" and late["ename"] == "KernelExiting", late
        assert "exit() ran" in late["evalue"] and "Restart the kernel" in late["evalue"], late
        io = k.iopub_until_idle(ids[1])
        assert any(m["msg_type"] == "error" and m["content"]["ename"] == "KernelExiting"
                   for m in io), io
    else:
        assert late["status"] == "ok", late
    assert rep["content"]["status"] == "ok"
    payload = rep["content"].get("payload", [])
    assert {"source": "ask_exit", "keepkernel": False} in payload, payload
    # Then the kernel stops, as ipykernel does; the notebook server's
    # restarter starts a fresh one.
    deadline = time.monotonic() + 10
    while k.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not k.km.is_alive(), "the kernel went on after exit()"


def test_aborted_cells_get_no_execution_count(k):
    ids = [k.send("shell", "execute_request",
                  dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True))
           for code in ("abort_missing_name", "abort_ran_2 = 1")]
    reps = [k.reply("shell", i) for i in ids]
    assert reps[0]["content"]["status"] == "error"
    assert reps[1]["content"]["status"] == "aborted"
    # ipykernel sends no execution_count, so the notebook keeps "In [ ]:".
    assert "execution_count" not in reps[1]["content"], reps[1]["content"]


# ---- IPython's habits, as a notebook user types them ----
@nndb_only
def test_trailing_semicolon_hides_the_value(k):
    rep, io = k.execute("semi = 41\nsemi + 1;")
    assert rep["content"]["status"] == "ok"
    assert not outputs(io, "execute_result"), [m["msg_type"] for m in io]
    rep, io = k.execute("semi + 1  # no semicolon")
    assert result_text(io) == "42"


@nndb_only
def test_underscores_out_and_in(k):
    rep, io = k.execute("7 * 6")
    n = rep["content"]["execution_count"]
    _, io = k.execute("_ + 1")
    assert result_text(io) == "43"
    _, io = k.execute("__")
    assert result_text(io) == "42"
    _, io = k.execute(f"Out[{n}] * 2")
    assert result_text(io) == "84"
    _, io = k.execute(f"In[{n}]")
    assert result_text(io) == "'7 * 6'"


@nndb_only
def test_question_mark_help_and_source(k):
    rep, io = k.execute("zeros?")
    assert rep["content"]["status"] == "ok"
    # IPython's pinfo: the docstring (torch's signature line first), the type.
    text = stdout_of(io)
    assert re.search(r"^Docstring:\s+zeros\(\*size", text, re.M), text
    assert re.search(r"^Type: +builtin_function_or_method$", text, re.M), text
    k.execute("def halve(v):\n    return v / 2")
    rep, io = k.execute("halve??")
    text = stdout_of(io)
    assert "Source:\ndef halve(v):\n    return v / 2\n" in text, text
    rep, io = k.execute("?no_such_name_here")
    assert "Object `no_such_name_here` not found." in stdout_of(io)


@nndb_only
def test_shell_command_streams_as_stdout(k):
    rep, io = k.execute("!echo first; sleep 0.3; echo second; echo err >&2")
    assert rep["content"]["status"] == "ok"
    streams = [m for m in io if m["msg_type"] == "stream"]
    assert all(m["content"]["name"] == "stdout" for m in streams)
    assert stdout_of(io) == "first\nsecond\nerr\n"
    # Streamed as it came: "first" went out before "second" was printed.
    assert len(streams) >= 2, streams


@nndb_only
def test_timeit_and_time(k):
    rep, io = k.execute("%timeit -n 50 -r 4 v = 3 * 4")
    assert rep["content"]["status"] == "ok"
    out = stdout_of(io)
    assert re.fullmatch(r"[\d.]+ (ns|µs|ms|s) ± [\d.]+ (ns|µs|ms|s) per loop "
                        r"\(mean ± std\. dev\. of 4 runs, 50 loops each\)\n", out), out
    # IPython's %time: CPU and wall times on stdout, the value as the result.
    rep, io = k.execute("%time 5 * 5")
    out = stdout_of(io)
    assert re.fullmatch(r"CPU times: user [\d.]+ (ns|µs|ms|s), sys: [\d.]+ (ns|µs|ms|s), "
                        r"total: [\d.]+ (ns|µs|ms|s)\nWall time: [\d.]+ (ns|µs|ms|s)\n", out), out
    assert result_text(io) == "25", io


@nndb_only
def test_whos_pwd_env_and_suggestions(k, tmp_path):
    k.execute("net = Sequential(Linear(3, 4), ReLU())\nw = zeros(2, 2)")
    out = stdout_of(k.execute("%whos")[1])
    assert re_line(out, r"net +Sequential +16 parameters, 64 bytes"), out
    assert re_line(out, r"w +Tensor +\[2, 2\] float32, 16 bytes"), out
    # As in IPython: %pwd's value is the folder (a str), %cd prints where it went.
    before = ast.literal_eval(result_text(k.execute("%pwd")[1]))
    out = stdout_of(k.execute(f"%cd {tmp_path}")[1])
    assert out.strip() == str(tmp_path)
    assert result_text(k.execute("%pwd")[1]) == repr(str(tmp_path))
    k.execute(f"%cd {before}")  # the kernel is shared with other tests
    assert stdout_of(k.execute("%env NNDB_K=1")[1]) == "env: NNDB_K=1\n"
    assert stdout_of(k.execute("!echo $NNDB_K")[1]) == "1\n"
    rep, _ = k.execute("%tiem 1")
    assert "Did you mean: %time?" in rep["content"]["evalue"]
    rep, _ = k.execute("w.shap")
    assert rep["content"]["evalue"].endswith("Did you mean: 'shape'?")


def re_line(text, pattern):
    import re
    return any(re.fullmatch(pattern, line) for line in text.splitlines())


def test_clear_output_in_order(k):
    """IPython's clear_output: a clear_output message between the outputs
    it separates, with its wait flag, as ipykernel sends it."""
    rep, io = k.execute("print('first')\n"
                        "from IPython.display import clear_output\n"
                        "clear_output(wait=True)\n"
                        "print('second')\n"
                        "clear_output()\n")
    assert rep["content"]["status"] == "ok", rep["content"]
    seq = [(m["msg_type"], m["content"].get("text", m["content"].get("wait")))
           for m in io if m["msg_type"] in ("stream", "clear_output")]
    assert seq == [("stream", "first\n"), ("clear_output", True), ("stream", "second\n"),
                   ("clear_output", False)], seq
