"""Fixtures of the kernel suite.

Once per session the kernelspec is installed into a temporary prefix
(`build/nndb install-kernel --prefix TMP`) and JUPYTER_PATH points there, so
the user's own Jupyter configuration is neither read nor written. Two more
specs, one per interrupt mode (`--name nndb-signal --interrupt-mode signal`,
`--name nndb-message --interrupt-mode message`), are installed next to it
for the interrupt tests. Runtime files (connection files), IPython's profile (the ipykernel
development mode) and HOME also live in the temporary directory.

Figures worth reading (memory growth, interrupt latency, heartbeat) are
collected with the `figures` fixture and printed at the end of the run.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402

_TMP = tempfile.mkdtemp(prefix="nndb-kernel-tests-")
_FIGURES = []
_SETUP_ERROR = None


def _install_kernelspecs():
    prefix = os.path.join(_TMP, "prefix")
    kernels = os.path.join(prefix, "share", "jupyter", "kernels")
    modes = {harness.KERNEL_SIGNAL_MODE: "signal", harness.KERNEL_MESSAGE_MODE: "message"}
    if harness.IS_NNDB:
        runs = [[]] + [["--name", name, "--interrupt-mode", mode] for name, mode in modes.items()]
        for extra in runs:
            p = subprocess.run([harness.NNDB_KERNEL, "install-kernel", "--prefix", prefix] + extra,
                               capture_output=True, text=True, timeout=60)
            if p.returncode != 0:
                raise RuntimeError(f"nndb install-kernel --prefix {' '.join(extra)} failed "
                                   f"({p.returncode}): {(p.stderr or p.stdout).strip()[-400:]}")
        return prefix
    src = os.path.join(kernels, harness.KERNEL)
    shutil.copytree(f"/usr/share/jupyter/kernels/{harness.KERNEL}", src)
    with open(os.path.join(src, "kernel.json")) as f:
        spec = json.load(f)
    for name, mode in modes.items():
        shutil.copytree(src, os.path.join(kernels, name))
        with open(os.path.join(kernels, name, "kernel.json"), "w") as f:
            json.dump(dict(copy.deepcopy(spec), interrupt_mode=mode), f, indent=1)
    return prefix


def pytest_configure(config):
    global _SETUP_ERROR
    home = os.path.join(_TMP, "home")
    os.makedirs(home, exist_ok=True)
    os.environ.update(
        HOME=home,
        JUPYTER_CONFIG_DIR=os.path.join(_TMP, "config"),
        JUPYTER_DATA_DIR=os.path.join(_TMP, "data"),
        JUPYTER_RUNTIME_DIR=os.path.join(_TMP, "runtime"),
        IPYTHONDIR=os.path.join(_TMP, "ipython"),
        XDG_STATE_HOME=os.path.join(_TMP, "state"),
        PYDEVD_DISABLE_FILE_VALIDATION="1",
        NO_COLOR="1",
    )
    try:
        prefix = _install_kernelspecs()
        os.environ["JUPYTER_PATH"] = os.path.join(prefix, "share", "jupyter")
        os.environ["NNDB_KERNEL_PREFIX"] = prefix
    except Exception as e:  # reported by every test through the kernel fixtures
        _SETUP_ERROR = str(e)


def pytest_unconfigure(config):
    shutil.rmtree(_TMP, ignore_errors=True)


def pytest_terminal_summary(terminalreporter):
    if _SETUP_ERROR:
        terminalreporter.write_line(f"SETUP: {_SETUP_ERROR}")
    if _FIGURES:
        terminalreporter.section("kernel figures")
        for line in _FIGURES:
            terminalreporter.write_line("FIGURE " + line)


def _require_setup():
    if _SETUP_ERROR:
        pytest.fail(f"kernelspec setup failed: {_SETUP_ERROR}", pytrace=False)


@pytest.fixture
def figures():
    return _FIGURES.append


@pytest.fixture(scope="session")
def prefix():
    _require_setup()
    return os.environ["NNDB_KERNEL_PREFIX"]


@pytest.fixture(scope="module")
def kernel():
    """One kernel shared by the tests of a module (they do not depend on each
    other's state beyond names they set themselves)."""
    _require_setup()
    k = harness.Kernel()
    yield k
    k.close()


@pytest.fixture
def fresh_kernel():
    """A kernel of the test's own; a factory so a test can ask for the
    message-mode spec."""
    _require_setup()
    started = []

    def make(name=harness.KERNEL):
        k = harness.Kernel(name)
        started.append(k)
        return k

    yield make
    for k in started:
        try:
            k.close()
        except Exception:
            pass


@pytest.fixture
def k(kernel):
    """The module's kernel with stale iopub traffic drained."""
    kernel.drain_iopub(0.01)
    return kernel
