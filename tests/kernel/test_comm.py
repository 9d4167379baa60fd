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
