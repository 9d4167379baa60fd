"""The kernel against hostile and heavy input: forged, unsigned and replayed
messages, broken frames and JSON, unknown types, missing fields, 10 MB of
code, 2,000 executes with resident memory watched, four kernels at once,
interrupts in both kernelspec modes, the heartbeat through a long
computation, shutdown and restart. Whatever arrives, the kernel stays alive
and the next honest request is answered.
"""
import json
import os
import time

import pytest

import harness
from harness import DELIM, IS_NNDB, RawSocket, outputs, result_text, stdout_of

LOOP = "for i in range(10**9): x = x + 1"
# ipykernel aborts the requests that arrive just after an error reply, even
# when they were sent after it; nndb must not, so nndb keeps stop_on_error.
STOP_ON_ERROR = IS_NNDB
# The long computation runs once, in the signal-mode interrupt test.
HB_SECONDS = float(os.environ.get("NNDB_KERNEL_HB_SECONDS", "30"))


def alive(k):
    """The kernel runs and answers an honest execute."""
    assert k.km.is_alive(), "the kernel process died"
    rep, io = k.execute("17 + 25", timeout=10)
    assert result_text(io) == "42", [m["msg_type"] for m in io]


def iopub_parents(k, wait=0.5):
    """Parent msg_ids of everything on iopub for [wait] seconds."""
    seen = set()
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            m = k.kc.get_iopub_msg(timeout=0.05)
        except Exception:
            continue
        seen.add(m["parent_header"].get("msg_id"))
    return seen


def test_forged_unsigned_and_replayed_are_ignored(k):
    k.execute("forge_count = 0")
    raw = RawSocket(k)
    try:
        bump = dict(code="forge_count = forge_count + 100", silent=False, store_history=True,
                    user_expressions={}, allow_stdin=False, stop_on_error=True)
        forged = []
        # A signature made with the wrong key.
        h, parts = raw.parts("execute_request", bump)
        raw.send_frames([DELIM, harness.sign_with(b"not-the-key", parts)] + parts)
        forged.append(h["msg_id"])
        # No signature; a signature of the right length but wrong; uppercase hex.
        for sig in (b"", b"0" * 64, raw.sign(parts).upper()):
            h, _ = raw.send_signed("execute_request", bump, signature=sig)
            forged.append(h["msg_id"])
        # A correct signature over different content (the content was tampered with).
        h, parts = raw.parts("execute_request", bump)
        sig = raw.sign(parts)
        tampered = dict(bump, code="forge_count = forge_count + 1000")
        raw.send_frames([DELIM, sig] + parts[:3] + [json.dumps(tampered).encode()])
        forged.append(h["msg_id"])
        assert raw.recv(timeout=1.0) is None, "a forged message was answered"
        assert not set(forged) & iopub_parents(k, 0.3), "a forged message reached iopub"

        # An honest message runs once; the same frames again are a replay.
        once = dict(bump, code="forge_count = forge_count + 1")
        h, frames = raw.send_signed("execute_request", once)
        reply = raw.recv(timeout=10)
        assert reply is not None, "the honest raw message got no reply"
        raw.send_frames(frames)
        assert raw.recv(timeout=1.0) is None, "a replayed message was answered"
        _, io = k.execute("forge_count")
        assert result_text(io) == "1"
    finally:
        raw.close()
    alive(k)


def malformed_frame_sets(raw):
    """(label, frames) of broken messages: bad framing, bad JSON, bad types,
    missing fields. The signed ones pass the HMAC so the parser sees them."""
    def signed(header, parent=b"{}", meta=b"{}", content=b"{}"):
        parts = [header, parent, meta, content]
        return [DELIM, raw.sign(parts)] + parts

    def hdr(**kw):
        h, _ = raw.parts("execute_request", {})
        h.update(kw)
        for key, v in list(h.items()):
            if v is None:
                del h[key]
        return json.dumps(h).encode()

    good_exec = json.dumps(dict(code="1", silent=False)).encode()
    return [
        ("one garbage frame", [b"garbage"]),
        ("empty frame", [b""]),
        ("delimiter only", [DELIM]),
        ("delimiter and signature", [DELIM, b"abc"]),
        ("three frames after the signature", [DELIM, b"x", b"{}", b"{}", b"{}"]),
        ("no delimiter", [b"id", b"sig", hdr(), b"{}", b"{}", good_exec]),
        ("header not JSON", signed(b"{not json")),
        ("header truncated", signed(hdr()[:-5])),
        ("header a list", signed(b"[1, 2, 3]")),
        ("header a string", signed(b'"execute_request"')),
        ("header not UTF-8", signed(b"\xff\xfe\xfd")),
        ("header without msg_type", signed(hdr(msg_type=None))),
        ("msg_type a number", signed(json.dumps(dict(json.loads(hdr()), msg_type=5)).encode())),
        ("header without msg_id", signed(hdr(msg_id=None), content=good_exec)),
        ("content not JSON", signed(hdr(), content=b"{")),
        ("content a list", signed(hdr(), content=b"[]")),
        ("content null", signed(hdr(), content=b"null")),
        ("parent not an object", signed(hdr(), parent=b"7", content=good_exec)),
        ("nested too deep", signed(hdr(), content=b"[" * 100000 + b"]" * 100000)),
        ("execute without code", signed(hdr(), content=b'{"silent": false}')),
        ("execute code a number", signed(hdr(), content=b'{"code": 5}')),
        ("execute code null", signed(hdr(), content=b'{"code": null}')),
        ("execute silent a string", signed(hdr(), content=b'{"code": "1", "silent": "yes"}')),
        ("execute user_expressions a list",
         signed(hdr(), content=b'{"code": "1", "user_expressions": [1]}')),
        ("complete without cursor",
         signed(hdr(msg_type="complete_request"), content=b'{"code": "pri"}')),
        ("complete cursor past the end",
         signed(hdr(msg_type="complete_request"), content=b'{"code": "pri", "cursor_pos": 99}')),
        ("complete cursor negative",
         signed(hdr(msg_type="complete_request"), content=b'{"code": "pri", "cursor_pos": -4}')),
        ("complete cursor huge", signed(hdr(msg_type="complete_request"),
                                        content=b'{"code": "pri", "cursor_pos": 1e300}')),
        ("inspect cursor past the end", signed(hdr(msg_type="inspect_request"),
                                               content=b'{"code": "x", "cursor_pos": 10}')),
        ("is_complete without code", signed(hdr(msg_type="is_complete_request"))),
        ("history bad access type", signed(hdr(msg_type="history_request"),
                                           content=b'{"hist_access_type": "sideways"}')),
        ("history negative n", signed(hdr(msg_type="history_request"),
                                      content=b'{"hist_access_type": "tail", "n": -5,'
                                              b' "output": true, "raw": true}')),
        ("unknown msg_type", signed(hdr(msg_type="frobnicate_request"), content=b"{}")),
        ("a reply type sent as a request", signed(hdr(msg_type="execute_reply"))),
        ("extra buffers", signed(hdr(msg_type="kernel_info_request")) + [b"buf"] * 50),
    ]


@pytest.mark.parametrize("channel", ["shell", "control"])
def test_malformed_messages_leave_the_kernel_alive(fresh_kernel, channel):
    if channel == "control" and not IS_NNDB:
        pytest.xfail("ipykernel 6.17's control loop stops for good on a one-frame message")
    k = fresh_kernel()
    raw = RawSocket(k, channel)
    try:
        for label, frames in malformed_frame_sets(raw):
            raw.send_frames(frames)
            # Any answer is allowed, but an answer must be a well-formed reply.
            while True:
                got = raw.recv(timeout=0.05)
                if got is None:
                    break
                assert DELIM in got, label
            assert k.km.is_alive(), f"the kernel died on: {label}"
        # The kernel stays usable, and still answers this very socket.
        h, _ = raw.send_signed("kernel_info_request", {})
        got = raw.recv(timeout=5)
        while got is not None and json.loads(got[got.index(DELIM) + 3])["msg_id"] != h["msg_id"]:
            got = raw.recv(timeout=5)
        assert got is not None, "no kernel_info_reply after the malformed messages"
    finally:
        raw.close()
    alive(k)


def test_unknown_msg_type_through_client(k):
    mid = k.send("shell", "frobnicate_request", {"x": 1})
    # ipykernel logs and drops it; a reply, if any, must not be "ok".
    try:
        rep = k.reply("shell", mid, timeout=1.0)
        assert rep["content"].get("status") != "ok"
    except TimeoutError:
        pass
    alive(k)


def test_ten_megabytes_of_code(k, figures):
    n = 10 * 1000 * 1000
    code = 'big = "' + "a" * n + '"\nprint(len(big))'
    t0 = time.monotonic()
    rep, io = k.execute(code, timeout=120)
    dt = time.monotonic() - t0
    assert rep["content"]["status"] == "ok", rep["content"]
    assert stdout_of(io).strip() == str(n)
    figures(f"10 MB cell: {dt:.2f} s from request to idle")
    k.execute("big = 0")
    alive(k)


def test_two_thousand_executes_keep_memory_flat(fresh_kernel, figures):
    k = fresh_kernel()
    k.execute("m = 0")
    cells = ["m = m + 1", "print(m)", "m", "[m, m + 1]", "name_not_there_xyz"]

    def run(count):
        for i in range(count):
            # stop_on_error false: ipykernel aborts requests that arrive
            # just after an error even when they were sent after its reply.
            rep, io = k.execute(cells[i % len(cells)], stop_on_error=False)
            want = "error" if i % len(cells) == 4 else "ok"
            assert rep["content"]["status"] == want

    run(200)  # warm up: allocator pools, history store, caches
    time.sleep(0.2)
    rss0 = k.rss_kib()
    t0 = time.monotonic()
    run(2000)
    dt = time.monotonic() - t0
    time.sleep(0.2)
    rss1 = k.rss_kib()
    growth = rss1 - rss0
    figures(f"2000 executes: VmRSS {rss0} KiB -> {rss1} KiB (growth {growth} KiB, "
            f"{growth * 1024 / 2000:.0f} B/execute), {dt / 2000 * 1000:.2f} ms per execute")
    # History keeps each input (and its output): a few dozen bytes each is
    # fine, a leak of the messages is not. ipykernel caches outputs (Out[]).
    limit = 2048 if IS_NNDB else 65536
    if sanitized(k):
        pytest.skip(f"ASan build: its quarantine keeps freed memory (growth {growth} KiB); "
                    "leaks are LeakSanitizer's job at exit")
    assert growth <= limit, f"resident memory grew {growth} KiB over 2000 executes"


def sanitized(k):
    """Whether the kernel binary is an AddressSanitizer build."""
    try:
        with open(f"/proc/{k.pid}/exe", "rb") as f:
            return b"__asan_init" in f.read()
    except OSError:
        return False


def test_four_kernels_at_once(fresh_kernel):
    ks = [fresh_kernel() for _ in range(4)]
    assert len({k.pid for k in ks}) == 4
    assert len({k.km.get_connection_info()["shell_port"] for k in ks}) == 4
    for n, k in enumerate(ks):
        k.execute(f"who_am_i = {n}")
    # All four compute at the same time.
    code = "acc = 0\nfor j in range(300000): acc = acc + 1\nprint(who_am_i, acc)"
    ids = [k.send("shell", "execute_request",
                  dict(code=code, silent=False, store_history=True, user_expressions={},
                       allow_stdin=False, stop_on_error=True)) for k in ks]
    for n, (k, mid) in enumerate(zip(ks, ids)):
        rep = k.reply("shell", mid, timeout=60)
        io = k.iopub_until_idle(mid, timeout=60)
        assert rep["content"]["status"] == "ok"
        assert stdout_of(io) == f"{n} 300000\n"


def wait_running(k, mid, timeout=10):
    """Wait for the execute_input of [mid]: the cell is running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            m = k.kc.get_iopub_msg(timeout=0.1)
        except Exception:
            continue
        if m["parent_header"].get("msg_id") == mid and m["msg_type"] == "execute_input":
            return
    raise TimeoutError("the cell never started")


def interrupt_and_check(k, mid, how, figures):
    t0 = time.monotonic()
    how()
    rep = k.reply("shell", mid, timeout=10)
    dt = time.monotonic() - t0
    io = k.iopub_until_idle(mid, timeout=10)
    c = rep["content"]
    assert c["status"] == "error", c
    assert "interrupt" in (c["ename"] + c["evalue"]).lower(), c
    assert c["ename"] == "KeyboardInterrupt"
    errs = outputs(io, "error")
    assert errs and errs[0]["content"]["ename"] == "KeyboardInterrupt"
    figures(f"interrupt ({k.name}): reply {dt * 1000:.0f} ms after the interrupt")
    assert dt <= 0.5, f"the interrupt took {dt:.3f} s"
    # The kernel is alive and kept every variable.
    rep, io = k.execute("print(kept, x > 1000, i >= x - 1)")
    assert stdout_of(io) == "42 True True\n", (rep["content"], stdout_of(io))
    # No stray interrupt is left pending for the next cell.
    rep, io = k.execute("y = 0\nfor j in range(100000): y = y + 1\ny")
    assert result_text(io) == "100000"


def test_interrupt_signal_mode_and_heartbeat_during_long_run(fresh_kernel, figures):
    k = fresh_kernel(harness.KERNEL_SIGNAL_MODE)
    assert k.km.kernel_spec.interrupt_mode == "signal"
    k.execute("kept = 42\nx = 0")
    mid = k.send("shell", "execute_request",
                 dict(code=LOOP, silent=False, store_history=True, user_expressions={},
                      allow_stdin=False, stop_on_error=STOP_ON_ERROR))
    wait_running(k, mid)
    # The heartbeat answers all through the computation, and so does control.
    worst, pings = 0.0, 0
    end = time.monotonic() + HB_SECONDS
    while time.monotonic() < end:
        rtt = harness.heartbeat_rtt(k, timeout=1.0)
        assert rtt is not None, f"no heartbeat within 1 s after {pings} pings"
        worst = max(worst, rtt)
        pings += 1
        time.sleep(0.2)
    t0 = time.monotonic()
    cid = k.send("control", "kernel_info_request")
    k.reply("control", cid, timeout=1.0)
    control_dt = time.monotonic() - t0
    figures(f"heartbeat during a {HB_SECONDS:.0f} s computation: {pings} pings, "
            f"worst {worst * 1000:.1f} ms; control kernel_info while busy "
            f"{control_dt * 1000:.1f} ms")
    with pytest.raises(TimeoutError):
        k.reply("shell", mid, timeout=0.01)  # still running
    interrupt_and_check(k, mid, k.km.interrupt_kernel, figures)


def test_interrupt_message_mode(fresh_kernel, figures):
    k = fresh_kernel(harness.KERNEL_MESSAGE_MODE)
    assert k.km.kernel_spec.interrupt_mode == "message"
    k.execute("kept = 42\nx = 0")
    mid = k.send("shell", "execute_request",
                 dict(code=LOOP, silent=False, store_history=True, user_expressions={},
                      allow_stdin=False, stop_on_error=STOP_ON_ERROR))
    wait_running(k, mid)
    time.sleep(0.5)
    replies = []

    def by_message():
        iid = k.send("control", "interrupt_request")
        replies.append(k.reply("control", iid, timeout=5))

    interrupt_and_check(k, mid, by_message, figures)
    assert replies[0]["msg_type"] == "interrupt_reply"
    check_interrupt_reply(replies[0])


def check_interrupt_reply(rep):
    # The spec gives interrupt_reply a status; ipykernel 6.17 sends {}.
    if IS_NNDB or "status" in rep["content"]:
        assert rep["content"]["status"] == "ok", rep["content"]


def test_interrupt_while_idle_is_harmless(k):
    iid = k.send("control", "interrupt_request")
    check_interrupt_reply(k.reply("control", iid, timeout=5))
    k.km.interrupt_kernel()  # and the signal
    time.sleep(0.2)
    alive(k)


def test_shutdown_without_restart(fresh_kernel):
    k = fresh_kernel()
    mid = k.send("control", "shutdown_request", {"restart": False})
    rep = k.reply("control", mid, timeout=10)
    assert rep["msg_type"] == "shutdown_reply"
    assert rep["content"]["status"] == "ok"
    assert rep["content"]["restart"] is False
    # The reply is published on iopub too, so every client learns of it.
    on_iopub = [m for m in k.iopub_until_idle(mid, timeout=5) if m["msg_type"] == "shutdown_reply"]
    assert on_iopub and on_iopub[0]["content"]["restart"] is False
    deadline = time.monotonic() + 5
    while k.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not k.km.is_alive(), "the kernel did not exit after shutdown_request"


def test_shutdown_with_restart(fresh_kernel, figures):
    k = fresh_kernel()
    k.execute("before_restart = 1")
    old_pid = k.pid
    mid = k.send("control", "shutdown_request", {"restart": True})
    rep = k.reply("control", mid, timeout=10)
    assert rep["content"]["status"] == "ok"
    assert rep["content"]["restart"] is True
    deadline = time.monotonic() + 5
    while k.km.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not k.km.is_alive(), "the kernel did not exit after shutdown_request(restart)"
    # The manager starts it again on the same ports; the client carries on.
    k.km.restart_kernel(now=True)
    k.kc.wait_for_ready(timeout=60)
    assert k.pid != old_pid
    rep, io = k.execute("before_restart")
    assert rep["content"]["status"] == "error" and rep["content"]["ename"] == "NameError"
    assert rep["content"]["execution_count"] == 1
    # jupyter_client's own restart (shutdown_request, wait, start) is quick.
    t0 = time.monotonic()
    k.km.restart_kernel(now=False)
    k.kc.wait_for_ready(timeout=60)
    dt = time.monotonic() - t0
    figures(f"km.restart_kernel(): {dt * 1000:.0f} ms until the new kernel is ready")
    assert dt < 5, "the kernel did not exit on shutdown_request(restart=True) by itself"
    alive(k)
