#!/usr/bin/python3
"""A workshop on JupyterHub, end to end: Debian's jupyterhub (3.x) with its
configurable-http-proxy on 127.0.0.1, three learners (DummyAuthenticator,
SimpleLocalProcessSpawner: test-only classes that need no system users),
each learner's single-user server started through the Hub's REST API, a
drill run on each one's nndb kernel through the server's kernel API and
websocket (a prediction, a failed check, the fix, an export), then
`nndb drill report` over the exported evidence. Everything it started is
stopped. Skipped, with the reason, where the Hub cannot run. Prints
"N passed, M failed" (a skip is neither).

    /usr/bin/python3 tests/drills/test_hub.py
"""
import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb")))
USERS = ("ada", "bob", "cy")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def skip(why):
    print(f"skip: the JupyterHub workshop test: {why}")
    print("0 passed, 0 failed")
    sys.exit(0)


class Hub:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="nndb-hub-")
        self.port, self.hub_port, self.api_port = free_port(), free_port(), free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None
        prefix = os.path.join(self.dir, "prefix")
        subprocess.run([NNDB, "install-kernel", "--prefix", prefix], check=True, capture_output=True)
        self.jupyter_path = os.path.join(prefix, "share", "jupyter")
        self.klass = os.path.join(self.dir, "class")
        os.makedirs(self.klass)
        cfg = os.path.join(self.dir, "jupyterhub_config.py")
        with open(cfg, "w") as f:
            f.write(f"""import os
c = get_config()  # noqa
c.JupyterHub.ip = '127.0.0.1'
c.JupyterHub.port = {self.port}
c.JupyterHub.hub_ip = '127.0.0.1'
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = 'http://127.0.0.1:{self.api_port}'
c.JupyterHub.authenticator_class = 'jupyterhub.auth.DummyAuthenticator'
c.JupyterHub.spawner_class = 'jupyterhub.spawner.SimpleLocalProcessSpawner'
c.SimpleLocalProcessSpawner.home_dir_template = {self.dir!r} + '/home/{{username}}'
c.Spawner.default_url = '/tree'
c.Spawner.args = ['--allow-root']
c.Spawner.cmd = ['jupyterhub-singleuser']
c.Spawner.start_timeout = 60
c.Spawner.http_timeout = 60
c.Spawner.environment = {{
    'JUPYTER_PATH': {self.jupyter_path!r},
    'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
}}
c.Authenticator.allowed_users = set({list(USERS)!r})
c.JupyterHub.db_url = 'sqlite:///' + {self.dir!r} + '/hub.sqlite'
c.JupyterHub.cookie_secret_file = {self.dir!r} + '/cookie_secret'
c.JupyterHub.pid_file = {self.dir!r} + '/hub.pid'
c.ConfigurableHTTPProxy.pid_file = {self.dir!r} + '/proxy.pid'
c.JupyterHub.services = [{{'name': 'workshop-test', 'api_token': {self.token!r}}}]
c.JupyterHub.load_roles = [{{'name': 'workshop-test', 'services': ['workshop-test'],
    'scopes': ['admin:users', 'admin:servers', 'access:servers', 'read:users']}}]
c.JupyterHub.cleanup_servers = True
""")
        self.cfg = cfg

    def start(self):
        env = dict(os.environ, NODE_PATH="/usr/share/nodejs", JUPYTER_PATH=self.jupyter_path)
        self.log = open(os.path.join(self.dir, "hub.log"), "w")
        self.proc = subprocess.Popen(["jupyterhub", "-f", self.cfg], cwd=self.dir, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                self.api("GET", "/hub/api/")
                return True
            except Exception:  # noqa: BLE001 — not up yet
                time.sleep(0.3)
        return False

    def api(self, method, path, body=None, timeout=30):
        req = urllib.request.Request(self.url + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            data = r.read()
            return json.loads(data) if data else None

    def start_server(self, user):
        try:
            self.api("POST", f"/hub/api/users/{user}")
        except urllib.error.HTTPError as e:
            if e.code != 409:  # allowed_users are created when the Hub starts
                raise
        try:
            self.api("POST", f"/hub/api/users/{user}/server")
        except urllib.error.HTTPError as e:
            if e.code not in (201, 202):
                raise
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            u = self.api("GET", f"/hub/api/users/{user}")
            srv = u.get("servers", {}).get("", {})
            if srv.get("ready"):
                return
            time.sleep(0.5)
        raise RuntimeError(f"the server of {user} did not start")

    def stop(self):
        for user in USERS:
            try:
                self.api("DELETE", f"/hub/api/users/{user}/server", timeout=10)
            except Exception:  # noqa: BLE001 — best effort on the way out
                pass
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        for pidfile in ("proxy.pid",):
            p = os.path.join(self.dir, pidfile)
            if os.path.exists(p):
                try:
                    os.kill(int(open(p).read().strip()), signal.SIGTERM)
                except (OSError, ValueError):
                    pass


async def run_cells(hub, user, cells):
    """Start an nndb kernel on [user]'s server and run [cells] over the
    kernel websocket; returns (status, text) per cell."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect
    k = hub.api("POST", f"/user/{user}/api/kernels", {"name": "nndb"})
    ws_url = hub.url.replace("http", "ws") + f"/user/{user}/api/kernels/{k['id']}/channels"
    conn = await websocket_connect(HTTPRequest(ws_url, headers={"Authorization": f"token {hub.token}"}))
    session = uuid.uuid4().hex
    results = []
    for code in cells:
        msg_id = uuid.uuid4().hex
        msg = {"header": {"msg_id": msg_id, "msg_type": "execute_request", "username": user,
                          "session": session, "version": "5.3", "date": ""},
               "parent_header": {}, "metadata": {}, "channel": "shell",
               "content": {"code": code, "silent": False, "store_history": True,
                           "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}
        await conn.write_message(json.dumps(msg))
        text, status, idle = [], None, False
        deadline = time.monotonic() + 120
        while (status is None or not idle) and time.monotonic() < deadline:
            raw = await asyncio.wait_for(conn.read_message(), timeout=120)
            if raw is None:
                break
            m = json.loads(raw)
            if m.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            t = m["header"]["msg_type"]
            if t == "stream":
                text.append(m["content"]["text"])
            elif t in ("display_data", "execute_result"):
                text.append(m["content"]["data"].get("text/plain", ""))
            elif t == "error":
                text.append(m["content"]["ename"] + ": " + m["content"]["evalue"])
            elif t == "execute_reply":
                status = m["content"]["status"]
            elif t == "status" and m["content"]["execution_state"] == "idle":
                idle = True
        results.append((status, "".join(text)))
    conn.close()
    hub.api("DELETE", f"/user/{user}/api/kernels/{k['id']}")
    return results


def main():
    if not shutil.which("jupyterhub") or not shutil.which("configurable-http-proxy"):
        skip("Debian's jupyterhub and node-configurable-http-proxy are not installed")
    hub = Hub()
    failed = 0
    try:
        if not hub.start():
            hub.log.flush()
            tail = open(os.path.join(hub.dir, "hub.log")).read()[-1500:]
            skip(f"the Hub did not start:\n{tail}")
        for user in USERS:
            hub.start_server(user)
        for user in USERS:
            cells = ["%drill start loss-at-init", "%drill next", f"%drill predict {user}: about 2.3",
                     "with no_grad():\n    model[2].weight.mul_(0.5)", "%drill check",
                     "with no_grad():\n    model[2].weight.mul_(0.02)\n    model[2].bias.zero_()",
                     "%drill check", f"%drill export json {hub.klass}/{user}.json"]
            res = asyncio.run(run_cells(hub, user, cells))
            statuses = [s for s, _ in res]
            if statuses != ["ok"] * len(cells):
                failed += 1
                print(f"FAIL {user}: {statuses}: {[t for _, t in res]}")
                continue
            if "Not yet" not in res[4][1] or "The check holds" not in res[6][1]:
                failed += 1
                print(f"FAIL {user}: checks said {res[4][1]!r} then {res[6][1]!r}")
                continue
            print(f"ok   {user}: a drill step on the Hub's nndb kernel, evidence exported")
        r = subprocess.run([NNDB, "drill", "report", hub.klass], capture_output=True, text=True, timeout=60)
        want = ["# Drill report: 3 records"] + [f"| loss-at-init | {u} | in progress |" for u in USERS]
        missing = [w for w in want if w not in r.stdout]
        if r.returncode or missing:
            failed += 1
            print(f"FAIL report: missing {missing}\n{r.stdout}{r.stderr}")
        else:
            print("ok   nndb drill report over the three learners")
        passed = len(USERS) + 1 - failed
    finally:
        hub.stop()
        shutil.rmtree(hub.dir, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
