"""The Jupyter debug protocol on nndb's debugger.

JupyterLab's and VS Code's visual debuggers speak the Debug Adapter
Protocol (DAP) to a kernel through `debug_request` / `debug_reply` on the
control channel and `debug_event` on iopub (the protocol ipykernel 6
implements with debugpy). nndb answers it with its own debugger
(nndb/debugger.py): breakpoints on cell lines are bdb's, and a stop -- on a
line, or at an op stopped by `%break` -- is shown to the client as a
stopped thread whose frames, scopes and variables it can browse, with the
op (its inputs, output and position in the pass) as a scope of its own.

Threads: the kernel's control thread calls `Dap.handle` (with the GIL)
while the shell thread runs a cell; at a stop the shell thread waits in
`Dap.wait` on a condition (which lets the GIL go) until `continue`, `next`,
`stepIn` or `stepOut` arrives.

Cells: once a client has started the debugger, each cell is compiled under
the file name JupyterLab computes for it (the Murmur2 hash of its source in
a folder of this process, `debugInfo` says how) and written there, so a
breakpoint set on a cell's line in the browser is a breakpoint on that file.
"""

import json
import os
import sys
import tempfile
import threading

_HASH_SEED = 0xC70F6907
_MAX_VALUE = 400  # characters of a variable's value shown


def murmur2(text, seed):
    """MurmurHash2 (32-bit, x86) of the UTF-8 bytes of [text], the hash
    JupyterLab names cells by."""
    data = text.encode("utf-8")
    m = 0x5BD1E995
    n = len(data)
    h = (seed ^ n) & 0xFFFFFFFF
    end = n & ~3
    for i in range(0, end, 4):
        k = data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24)
        k = (k * m) & 0xFFFFFFFF
        k ^= k >> 24
        k = (k * m) & 0xFFFFFFFF
        h = ((h * m) & 0xFFFFFFFF) ^ k
    rest = n & 3
    if rest:
        k = 0
        if rest == 3:
            k |= data[end + 2] << 16
        if rest >= 2:
            k |= data[end + 1] << 8
        k |= data[end]
        h = ((h ^ k) * m) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * m) & 0xFFFFFFFF
    h ^= h >> 15
    return h


def _debugger():
    from nndb import magics
    return magics._debugger.debugger()


class _Stop:
    """What the client browses while the shell thread waits."""

    def __init__(self, frame, reason, text, op_scope):
        self.frames = []
        f = frame
        from nndb.debugger import _not_yours
        while f is not None:
            if not _not_yours(f.f_code.co_filename):
                self.frames.append(f)
            f = f.f_back
        self.reason = reason
        self.text = text
        self.op_scope = op_scope  # {"out": ..., "inputs": ...} at an op stop, else None


class Dap:
    def __init__(self, session):
        self.session = session
        self.started = False
        self.seq = 0
        self.cond = threading.Condition()
        self.stop = None
        self.resume = None
        self.breakpoints = {}  # path -> [{"line": N, ...}] as the client set them
        self.bp_objs = {}  # path -> the debugger's Breakpoint objects
        self.refs = {}
        self.next_ref = 1
        self.folder = os.path.join(tempfile.gettempdir(), f"nndb_{os.getpid()}")

    # ---- cells ----
    def cell_file(self, code):
        """The file name JupyterLab gives this cell; the source is written
        there for the client's `source` and for tracebacks."""
        os.makedirs(self.folder, exist_ok=True)
        path = os.path.join(self.folder, f"{murmur2(code, _HASH_SEED)}.py")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(code)
        except OSError:
            pass
        return path

    # ---- messages ----
    def _next_seq(self):
        self.seq += 1
        return self.seq

    def _event(self, name, body=None):
        return {"type": "event", "event": name, "seq": self._next_seq(), "body": body or {}}

    def handle(self, text):
        """One DAP request (JSON text) -> (response JSON, events JSON or None)."""
        try:
            req = json.loads(text)
        except ValueError:
            req = {}
        cmd = req.get("command", "")
        args = req.get("arguments") or {}
        events = []
        reply = {"type": "response", "request_seq": req.get("seq", 0), "command": cmd,
                 "success": True, "seq": self._next_seq()}
        fn = getattr(self, "do_" + cmd, None) if isinstance(cmd, str) else None
        if fn is None:
            reply["success"] = False
            reply["message"] = f"nndb's debugger does not support the request '{cmd}'"
        else:
            try:
                body = fn(args, events)
                if body is not None:
                    reply["body"] = body
            except Exception as e:  # a bad request gets an answer, the kernel goes on
                reply["success"] = False
                reply["message"] = f"{type(e).__name__}: {e}"
        return json.dumps(reply, default=str), (json.dumps(events) if events else None)

    # ---- set-up ----
    def do_initialize(self, args, events):
        self.started = True
        return {"supportsConfigurationDoneRequest": True, "supportsConditionalBreakpoints": True,
                "supportsEvaluateForHovers": True, "supportsSetVariable": False,
                "supportsStepBack": False, "exceptionBreakpointFilters": []}

    def do_attach(self, args, events):
        events.append(self._event("initialized"))
        return {}

    do_launch = do_attach

    def do_configurationDone(self, args, events):
        return {}

    def do_setExceptionBreakpoints(self, args, events):
        return {"breakpoints": []}

    def do_disconnect(self, args, events):
        for path in list(self.bp_objs):
            self._clear(path)
        self.breakpoints.clear()
        self.started = False
        with self.cond:
            self.resume = "continue"
            self.cond.notify_all()
        return {}

    def do_debugInfo(self, args, events):
        return {"isStarted": self.started, "hashMethod": "Murmur2", "hashSeed": _HASH_SEED,
                "tmpFilePrefix": self.folder + os.sep, "tmpFileSuffix": ".py",
                "breakpoints": [{"source": p, "breakpoints": b} for p, b in self.breakpoints.items()],
                "stoppedThreads": [1] if self.stop is not None else [],
                "richRendering": False, "exceptionPaths": []}

    def do_dumpCell(self, args, events):
        return {"sourcePath": self.cell_file(args.get("code", ""))}

    def do_source(self, args, events):
        path = (args.get("source") or {}).get("path", "")
        with open(path, encoding="utf-8") as f:
            return {"content": f.read()}

    # ---- breakpoints ----
    def _clear(self, path):
        dbg = _debugger()
        for b in self.bp_objs.pop(path, []):
            dbg.delete_break(b)

    def do_setBreakpoints(self, args, events):
        path = (args.get("source") or {}).get("path", "")
        wanted = args.get("breakpoints") or []
        self._clear(path)
        dbg = _debugger()
        out, objs = [], []
        for bp in wanted:
            line = int(bp.get("line", 0))
            cond = bp.get("condition")
            spec = f"{path}:{line}" + (f" if {cond}" if cond else "")
            try:
                b = dbg.add_line_break(spec, announce=False)
                objs.append(b)
                out.append({"verified": True, "line": b.py.line, "source": {"path": path},
                            "id": b.id})
            except (ValueError, SyntaxError) as e:
                out.append({"verified": False, "line": line, "message": str(e)})
        self.bp_objs[path] = objs
        self.breakpoints[path] = wanted
        return {"breakpoints": out}

    # ---- a stop ----
    def wait(self, frame, reason, text, op_scope=None):
        """On the shell thread, at a stop: tell the client, then wait for it
        to say how to go on: "continue", "next", "stepIn" or "stepOut"."""
        with self.cond:
            self.stop = _Stop(frame, reason, text, op_scope)
            self.resume = None
            self.refs.clear()
        ev = self._event("stopped", {"reason": reason, "description": text, "text": text,
                                      "threadId": 1, "allThreadsStopped": True})
        self.session.fe.debug_event(json.dumps(ev, default=str))
        try:
            with self.cond:
                while self.resume is None and self.started:
                    self.cond.wait(0.25)  # a KeyboardInterrupt (interrupt_request) ends it
                action = self.resume or "continue"
        finally:
            with self.cond:
                self.stop = None
                self.refs.clear()
        self.session.fe.debug_event(json.dumps(
            self._event("continued", {"threadId": 1, "allThreadsContinued": True})))
        return action

    def _go(self, action):
        with self.cond:
            if self.stop is None:
                raise RuntimeError("not stopped")
            self.resume = action
            self.cond.notify_all()
        return {"allThreadsContinued": True} if action == "continue" else {}

    def do_continue(self, args, events):
        return self._go("continue")

    def do_next(self, args, events):
        return self._go("next")

    def do_stepIn(self, args, events):
        return self._go("stepIn")

    def do_stepOut(self, args, events):
        return self._go("stepOut")

    def do_pause(self, args, events):
        raise RuntimeError("pause is not supported: set a breakpoint (a line, or %break on an op)")

    def do_threads(self, args, events):
        return {"threads": [{"id": 1, "name": "MainThread"}]}

    def do_stackTrace(self, args, events):
        st = self.stop
        if st is None:
            return {"stackFrames": [], "totalFrames": 0}
        frames = []
        for i, f in enumerate(st.frames):
            name = f.f_code.co_name
            if i == 0 and st.op_scope is not None:
                name = f"{name} [{st.text}]"
            path = f.f_code.co_filename
            src = {"path": path, "name": os.path.basename(path)} if not path.startswith("<") \
                else {"name": path}
            frames.append({"id": i + 1, "name": name, "line": f.f_lineno, "column": 1,
                           "source": src})
        return {"stackFrames": frames, "totalFrames": len(frames)}

    def _frame(self, frame_id):
        st = self.stop
        if st is None or not (1 <= int(frame_id) <= len(st.frames)):
            raise ValueError(f"no frame {frame_id}")
        return st.frames[int(frame_id) - 1]

    def _ref(self, obj):
        ref = self.next_ref
        self.next_ref += 1
        self.refs[ref] = obj
        return ref

    def do_scopes(self, args, events):
        fid = int(args.get("frameId", 1))
        f = self._frame(fid)
        scopes = []
        st = self.stop
        if fid == 1 and st.op_scope is not None:
            scopes.append({"name": "Op", "variablesReference": self._ref(dict(st.op_scope)),
                           "expensive": False, "presentationHint": "locals"})
        scopes.append({"name": "Locals", "variablesReference": self._ref(dict(f.f_locals)),
                       "expensive": False, "presentationHint": "locals"})
        if f.f_globals is not f.f_locals:
            glob = {k: v for k, v in f.f_globals.items() if not k.startswith("__")}
            scopes.append({"name": "Globals", "variablesReference": self._ref(glob),
                           "expensive": True})
        return {"scopes": scopes}

    def _children(self, obj):
        import torch
        if isinstance(obj, dict):
            return [(str(k), v) for k, v in obj.items()]
        if isinstance(obj, (list, tuple)):
            return [(f"[{i}]", v) for i, v in enumerate(obj[:300])]
        if isinstance(obj, torch.nn.Module):
            out = [(n, m) for n, m in obj.named_children()]
            out += [(n, p) for n, p in obj.named_parameters(recurse=False)]
            return out
        if isinstance(obj, torch.Tensor):
            return [("shape", tuple(obj.shape)), ("dtype", obj.dtype),
                    ("requires_grad", obj.requires_grad), ("grad", obj.grad)]
        d = getattr(obj, "__dict__", None)
        return [(k, v) for k, v in d.items() if not k.startswith("__")] if isinstance(d, dict) else []

    def _variable(self, name, value):
        import torch
        try:
            text = repr(value)
        except Exception as e:
            text = f"<repr failed: {type(e).__name__}>"
        if len(text) > _MAX_VALUE:
            text = text[:_MAX_VALUE] + "..."
        has_children = isinstance(value, (dict, list, tuple, torch.Tensor, torch.nn.Module)) or (
            isinstance(getattr(value, "__dict__", None), dict) and not isinstance(value, type)
            and not callable(value))
        if isinstance(value, (list, tuple, dict)) and not value:
            has_children = False
        return {"name": name, "value": text, "type": type(value).__name__,
                "variablesReference": self._ref(value) if has_children else 0}

    def do_variables(self, args, events):
        ref = int(args.get("variablesReference", 0))
        if ref not in self.refs:
            return {"variables": []}
        return {"variables": [self._variable(n, v) for n, v in self._children(self.refs[ref])
                              if not (isinstance(n, str) and n.startswith("__"))]}

    def do_evaluate(self, args, events):
        expr = args.get("expression", "")
        if self.stop is not None:
            f = self._frame(args.get("frameId", 1))
            ns = dict(f.f_globals)
            if self.stop.op_scope is not None and int(args.get("frameId", 1)) == 1:
                ns.update(self.stop.op_scope)
            value = eval(expr, ns, f.f_locals)
        else:
            value = eval(expr, self.session.ns)
        v = self._variable("result", value)
        return {"result": v["value"], "type": v["type"], "variablesReference": v["variablesReference"]}

    def do_inspectVariables(self, args, events):
        ns = self.session.ns
        skip = set(getattr(self.session, "_initial_names", ()))
        items = [(k, v) for k, v in ns.items()
                 if not k.startswith("_") and k not in skip and k not in ("In", "Out")]
        return {"variables": [self._variable(k, v) for k, v in items]}

    def do_richInspectVariables(self, args, events):
        name = args.get("variableName", "")
        if not str(name).isidentifier():
            return {"data": {}, "metadata": {}}
        value = self.do_evaluate({"expression": name, "frameId": args.get("frameId", 1)}, events)
        return {"data": {"text/plain": value["result"]}, "metadata": {}}

    def do_modules(self, args, events):
        mods = [{"id": i, "name": name, "path": getattr(m, "__file__", None)}
                for i, (name, m) in enumerate(list(sys.modules.items()))
                if getattr(m, "__file__", None)]
        return {"modules": mods, "totalModules": len(mods)}
