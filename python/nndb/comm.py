"""Jupyter's comm protocol in the nndb kernel: Comm and CommManager.

A comm is a channel between an object in the kernel and one in the
browser (a widget's model and its view). Messages from the client
(comm_open, comm_msg, comm_close on the shell channel) come here through
lang_session_comm (the C kernel hands over their content as JSON);
messages from the kernel go to the client on iopub through the front end's
comm_send, with the request being handled (a cell, a comm_msg) as parent,
so output printed by a handler lands where the client expects it.

    from nndb.comm import Comm, comm_manager
    def target(comm, open_msg):            # the client opened a comm
        comm.on_msg(lambda msg: comm.send({'echo': msg['content']['data']}))
    comm_manager().register_target('echo', target)

    c = Comm(target_name='my_view', data={'value': 1})   # the kernel opens one
    c.send({'value': 2}); c.close()

The names and call shapes are ipykernel's (ipykernel.comm.Comm,
CommManager), which is what ipywidgets and other comm users call. The
messages a handler receives are dicts with 'content', 'metadata', 'header'
and 'buffers' as ipykernel builds them. Not done: binary buffers (sent
messages carry none; received ones are dropped).
"""

import json
import uuid

__all__ = ["Comm", "CommManager", "comm_manager"]

_MANAGER = None


def comm_manager():
    """The session's CommManager (one per process, as ipykernel's kernel
    has one)."""
    global _MANAGER
    if _MANAGER is None:
        _MANAGER = CommManager()
    return _MANAGER


def _send(msg_type, content):
    from nndb import session
    s = session.active()
    if s is None:
        return False
    return bool(s.fe.comm_send(msg_type, json.dumps(content, default=_json_default)))


def _json_default(obj):
    item = getattr(obj, "item", None)  # NumPy and torch scalars
    if callable(item):
        return item()
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


class Kernel:
    """What ipywidgets asks of get_ipython().kernel: the comm manager and the
    header of the request being handled (its Output widget tags the output
    it captures with that message id)."""

    @property
    def comm_manager(self):
        return comm_manager()

    @property
    def _parent_header(self):
        from nndb import session
        s = session.active()
        h = s.fe.parent_header() if s is not None else None
        return {"header": json.loads(h) if h else {}}

    def get_parent(self, channel="shell"):
        return self._parent_header


_KERNEL = Kernel()


class Shell:
    """get_ipython() for ipywidgets in the nndb kernel (nothing else of
    IPython's shell)."""
    kernel = _KERNEL

    def showtraceback(self, *args, **kwargs):
        import traceback
        traceback.print_exc()


_SHELL = Shell()


def get_ipython():
    return _SHELL


def ipywidgets_loaded(module):
    """Import hook for ipywidgets (nndb.display): its modules' get_ipython
    is the kernel's Shell, and the jupyter.widget targets are registered."""
    import sys
    for name in ("ipywidgets", "ipywidgets.widgets.widget", "ipywidgets.widgets.widget_output",
                 "ipywidgets.widgets.interaction"):
        mod = sys.modules.get(name)
        if mod is not None and hasattr(mod, "get_ipython"):
            mod.get_ipython = get_ipython
    try:
        module.register_comm_target(_KERNEL)
    except Exception as e:
        sys.stderr.write(f"nndb: ipywidgets' comm targets could not be registered: {e}\n")


def ipykernel_comm_loaded(module):
    """Import hook for ipykernel.comm: its Comm and CommManager are nndb's
    (ipywidgets makes its comms with ipykernel.comm.Comm)."""
    module.Comm = Comm
    module.CommManager = CommManager


def _message(msg_type, content):
    return {"header": {"msg_type": msg_type}, "parent_header": {}, "metadata": {},
            "content": content, "buffers": []}


class Comm:
    """One end of a comm. Made in the kernel (primary=True, the default) it
    sends comm_open to the client; made for a comm the client opened it
    sends nothing."""

    def __init__(self, target_name="", data=None, metadata=None, buffers=None, comm_id=None,
                 primary=True, target_module=None, **kwargs):
        self.comm_id = comm_id or uuid.uuid4().hex
        self.target_name = target_name
        self.target_module = target_module
        self.primary = primary
        self._closed = True
        self._msg_callback = None
        self._close_callback = None
        self.kernel = kwargs.get("kernel") or _KERNEL
        if primary:
            self.open(data=data, metadata=metadata, buffers=buffers)
        else:
            self._closed = False

    def open(self, data=None, metadata=None, buffers=None):
        """Register with the manager and send comm_open."""
        comm_manager().register_comm(self)
        content = {"comm_id": self.comm_id, "target_name": self.target_name,
                   "data": data or {}}
        if self.target_module is not None:
            content["target_module"] = self.target_module
        self._closed = False
        _send("comm_open", content)

    def send(self, data=None, metadata=None, buffers=None):
        """Send comm_msg with [data] (a JSON value)."""
        if self._closed:
            return
        _send("comm_msg", {"comm_id": self.comm_id, "data": data or {}})

    def close(self, data=None, metadata=None, buffers=None, deleting=False):
        """Send comm_close (once) and forget the comm."""
        if self._closed:
            return
        self._closed = True
        _send("comm_close", {"comm_id": self.comm_id, "data": data or {}})
        comm_manager().unregister_comm(self)

    def on_msg(self, callback):
        """callback(msg) for each comm_msg from the client; None removes it."""
        self._msg_callback = callback

    def on_close(self, callback):
        """callback(msg) when the client closes the comm."""
        self._close_callback = callback

    def handle_msg(self, msg):
        if self._msg_callback is not None:
            self._msg_callback(msg)

    def handle_close(self, msg):
        self._closed = True
        if self._close_callback is not None:
            self._close_callback(msg)

    def __del__(self):
        pass  # a comm stays open until closed, as in ipykernel


class CommManager:
    """Targets (name -> callback(comm, open_msg)) and the open comms."""

    def __init__(self, kernel=None, **kwargs):
        self.comms = {}
        self.targets = {}
        self.kernel = kernel

    def register_target(self, target_name, f):
        """f(comm, open_msg) is called when the client opens a comm with
        [target_name]. f may be given as 'module.function'."""
        if isinstance(f, str):
            import importlib
            mod, _, name = f.rpartition(".")
            f = getattr(importlib.import_module(mod), name)
        self.targets[target_name] = f

    def unregister_target(self, target_name, f=None):
        return self.targets.pop(target_name, None)

    def register_comm(self, comm):
        self.comms[comm.comm_id] = comm
        return comm.comm_id

    def unregister_comm(self, comm):
        self.comms.pop(comm.comm_id, None)

    def get_comm(self, comm_id):
        return self.comms.get(comm_id)

    # ---- messages from the client ----

    def comm_open(self, stream=None, ident=None, msg=None):
        content = msg["content"]
        f = self.targets.get(content.get("target_name"))
        if f is None:
            return False
        comm = Comm(target_name=content.get("target_name", ""), comm_id=content.get("comm_id"),
                    primary=False)
        self.register_comm(comm)
        try:
            f(comm, msg)
        except Exception:
            import traceback
            traceback.print_exc()
            comm.close()
            return True
        return True

    def comm_msg(self, stream=None, ident=None, msg=None):
        comm = self.get_comm(msg["content"].get("comm_id"))
        if comm is not None:
            comm.handle_msg(msg)

    def comm_close(self, stream=None, ident=None, msg=None):
        comm = self.comms.pop(msg["content"].get("comm_id"), None)
        if comm is not None:
            comm.handle_close(msg)

    def handle(self, msg_type, content):
        """lang_session_comm: False for a comm_open no target takes."""
        msg = _message(msg_type, content)
        if msg_type == "comm_open":
            return self.comm_open(msg=msg)
        if msg_type == "comm_msg":
            self.comm_msg(msg=msg)
        elif msg_type == "comm_close":
            self.comm_close(msg=msg)
        return True

    def info(self, target_name=None):
        """comm_info_reply's comms."""
        return {cid: {"target_name": c.target_name} for cid, c in self.comms.items()
                if target_name is None or c.target_name == target_name}
