"""Jupyter's comm protocol (messaging spec, "Custom messages"): a target the
kernel registered takes a comm_open from the client, answers its comm_msg
and sees its comm_close; a comm the kernel opens reaches the client on
iopub; comm_info lists the open comms; a comm_open for no target is closed.

The same tests run against ipykernel (NNDB_TEST_KERNEL=python3), where the
cell uses ipykernel's own CommManager: the behaviour compared is the
protocol's.
"""
import uuid

from harness import ok, outputs

SETUP = """
try:
    from nndb.comm import comm_manager, Comm
    cm = comm_manager()
except ImportError:
    from ipykernel.comm import Comm
    cm = get_ipython().kernel.comm_manager
seen = []
def _target(comm, msg):
    comm.send({'opened': msg['content']['data']})
    def _on(m):
        print('got', m['content']['data'])
        comm.send({'echo': m['content']['data']})
    comm.on_msg(_on)
    comm.on_close(lambda m: seen.append(('closed', m['content']['comm_id'])))
cm.register_target('echo', _target)
"""


def _comm(io, msg_type):
    return [m["content"] for m in io if m["msg_type"] == msg_type]


def test_client_opens_a_comm_messages_and_closes_it(k):
    rep, _ = k.execute(SETUP)
    ok(rep)
    cid = uuid.uuid4().hex
    mid = k.send("shell", "comm_open", {"comm_id": cid, "target_name": "echo", "data": {"x": 1}})
    io = k.iopub_until_idle(mid)
    (sent,) = _comm(io, "comm_msg")
    assert sent["comm_id"] == cid and sent["data"] == {"opened": {"x": 1}}
    rep, io = k.request("shell", "comm_info_request", {"target_name": "echo"})
    assert rep["content"]["comms"] == {cid: {"target_name": "echo"}}
    mid = k.send("shell", "comm_msg", {"comm_id": cid, "data": {"lr": 0.1}})
    io = k.iopub_until_idle(mid)
    (echo,) = _comm(io, "comm_msg")
    assert echo == {"comm_id": cid, "data": {"echo": {"lr": 0.1}}}
    # What the handler printed goes out under the comm_msg.
    text = "".join(m["content"]["text"] for m in io if m["msg_type"] == "stream")
    assert text == "got {'lr': 0.1}\n", text
    mid = k.send("shell", "comm_close", {"comm_id": cid, "data": {}})
    k.iopub_until_idle(mid)
    rep, io = k.execute("seen")
    ok(rep)
    assert outputs(io, "execute_result")[0]["content"]["data"]["text/plain"] == \
        f"[('closed', '{cid}')]"
    rep, _ = k.request("shell", "comm_info_request", {"target_name": "echo"})
    assert rep["content"]["comms"] == {}


def test_kernel_opens_a_comm(k):
    rep, _ = k.execute(SETUP)
    ok(rep)
    rep, io = k.execute("c = Comm(target_name='view', data={'value': 1})\n"
                        "c.send({'value': 2})\nc.close({'bye': True})")
    ok(rep)
    (opened,) = _comm(io, "comm_open")
    assert opened["target_name"] == "view" and opened["data"] == {"value": 1}
    cid = opened["comm_id"]
    assert _comm(io, "comm_msg") == [{"comm_id": cid, "data": {"value": 2}}]
    assert _comm(io, "comm_close") == [{"comm_id": cid, "data": {"bye": True}}]


def test_comm_open_for_no_target_is_closed(k):
    cid = uuid.uuid4().hex
    mid = k.send("shell", "comm_open", {"comm_id": cid, "target_name": "nobody", "data": {}})
    io = k.iopub_until_idle(mid)
    assert [c["comm_id"] for c in _comm(io, "comm_close")] == [cid]


def _widget_opens(io, model):
    return [o for o in _comm(io, "comm_open")
            if o["target_name"] == "jupyter.widget" and o["data"].get("_model_name") == model]


def test_ipywidgets_slider_syncs_from_the_browser(k):
    """Debian's ipywidgets 6: a slider opens its model comm with its state,
    shows a widget view, and a value the browser sends lands in Python."""
    rep, io = k.execute("from ipywidgets import IntSlider\nfrom IPython.display import display\n"
                        "s = IntSlider(value=3, min=0, max=10)\ndisplay(s)")
    ok(rep)
    (slider,) = _widget_opens(io, "IntSliderModel")
    assert slider["data"]["value"] == 3 and slider["data"]["max"] == 10
    views = [m["content"]["data"] for m in io if m["msg_type"] == "display_data"]
    assert views[-1]["application/vnd.jupyter.widget-view+json"] == {"model_id": slider["comm_id"]}
    mid = k.send("shell", "comm_msg", {"comm_id": slider["comm_id"],
                                       "data": {"method": "backbone", "sync_data": {"value": 7}}})
    k.iopub_until_idle(mid)
    rep, io = k.execute("s.value")
    assert outputs(io, "execute_result")[0]["content"]["data"]["text/plain"] == "7"


def test_ipywidgets_interact_runs_the_function_into_its_output(k):
    """interact(f, x=(0, 10)): moving the slider calls f, and what f prints
    goes out under the browser's comm_msg, which the Output widget was told
    to capture (its msg_id)."""
    rep, io = k.execute("from ipywidgets import interact\n"
                        "def f(x):\n    print('lr', x * 2)\n"
                        "_ = interact(f, x=(0, 10))")
    ok(rep)
    (slider,) = _widget_opens(io, "IntSliderModel")
    assert slider["data"]["value"] == 5
    (out,) = _widget_opens(io, "OutputModel")
    text = "".join(m["content"]["text"] for m in io if m["msg_type"] == "stream")
    assert "lr 10" in text, text
    mid = k.send("shell", "comm_msg", {"comm_id": slider["comm_id"],
                                       "data": {"method": "backbone", "sync_data": {"value": 4}}})
    io = k.iopub_until_idle(mid)
    text = "".join(m["content"]["text"] for m in io if m["msg_type"] == "stream")
    assert text == "lr 8\n", [m["msg_type"] for m in io]
    captured = [c["data"]["state"]["msg_id"] for c in _comm(io, "comm_msg")
                if c["comm_id"] == out["comm_id"] and "msg_id" in c["data"].get("state", {})]
    assert mid in captured, _comm(io, "comm_msg")


def test_ipywidgets_interact_with_a_figure(k):
    """A course's interact: f draws with matplotlib and calls plt.show();
    the figure goes out as a PNG under the slider's comm_msg (into the
    Output widget), as matplotlib-inline sends it under ipykernel."""
    rep, io = k.execute("import matplotlib.pyplot as plt\nfrom ipywidgets import interact\n"
                        "def g(n):\n    plt.plot(list(range(n)))\n    plt.show()\n"
                        "_ = interact(g, n=(2, 20))")
    ok(rep)
    (slider,) = _widget_opens(io, "IntSliderModel")
    assert [m for m in io if m["msg_type"] == "display_data" and "image/png" in m["content"]["data"]]
    mid = k.send("shell", "comm_msg", {"comm_id": slider["comm_id"],
                                       "data": {"method": "backbone", "sync_data": {"value": 5}}})
    io = k.iopub_until_idle(mid)
    pics = [m for m in io if m["msg_type"] == "display_data" and "image/png" in m["content"]["data"]]
    assert len(pics) == 1, [m["msg_type"] for m in io]
    assert pics[0]["content"]["data"]["text/plain"].startswith("<Figure size 640x480")
