#!/usr/bin/python3
"""The classic Notebook in a real browser, as a new user meets nndb.

Starts Debian's jupyter-notebook (Notebook 6) on 127.0.0.1 with the nndb
kernelspec in a temporary prefix, drives headless Chromium through
chromium-driver and python3-selenium, and checks in the page's DOM:

- each example notebook opens without "(unsaved changes)", runs with Run All
  without an error output, and shows its plot as a picture;
- the same notebook saved with outputs by someone else (so untrusted here,
  as a workshop handout is) still shows the plot, from its PNG;
- an error stops Run All, and the skipped cells keep "In [ ]:";
- exit() stops the kernel (the notebook restarts it) and an error after it
  is still shown;
- input() round trip through the page's input box;
- the Help menu's links open nndb's own pages, installed with the kernel.

Screenshots go to build/browser/*.png for people to look at. Everything it
starts is stopped at the end. Where Chromium cannot start (no browser, no
driver, a sandbox that forbids it) every test is reported as skipped with the
reason, never as passed.

    /usr/bin/python3 tests/browser/test_notebook.py [NAME...]

Prints "N passed, M failed" (", K skipped" when some were) and exits non-zero
when a test failed.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NNDB = os.path.abspath(os.environ.get("NNDB", os.path.join(ROOT, "build", "nndb")))
# beside the binary: build/browser for build/nndb, build/NAME/browser for another build
SHOTS = os.path.join(os.path.dirname(NNDB), "browser")
TOKEN = "nndb-browser-test"
WAIT = 90


class Skip(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """jupyter-notebook on 127.0.0.1 with the nndb kernel installed in a
    temporary prefix; notebooks are served from a temporary directory."""

    def __init__(self):
        self.tmp = tempfile.mkdtemp(prefix="nndb-browser-")
        self.nbdir = os.path.join(self.tmp, "notebooks")
        os.makedirs(self.nbdir)
        prefix = os.path.join(self.tmp, "prefix")
        subprocess.run([NNDB, "install-kernel", "--prefix", prefix], check=True,
                       capture_output=True, timeout=60)
        home = os.path.join(self.tmp, "home")
        os.makedirs(home)
        self.env = dict(os.environ, HOME=home, JUPYTER_PATH=os.path.join(prefix, "share", "jupyter"),
                        JUPYTER_CONFIG_DIR=os.path.join(home, ".jupyter"),
                        JUPYTER_DATA_DIR=os.path.join(home, "data"),
                        JUPYTER_RUNTIME_DIR=os.path.join(home, "runtime"))
        self.port = free_port()
        self.log = open(os.path.join(self.tmp, "server.log"), "w")
        self.proc = subprocess.Popen(
            ["/usr/bin/python3", "-m", "notebook", "--no-browser", "--ip=127.0.0.1",
             f"--port={self.port}", "--port-retries=0", f"--notebook-dir={self.nbdir}",
             f"--NotebookApp.token={TOKEN}", "--NotebookApp.open_browser=False",
             "--MappingKernelManager.cull_idle_timeout=0"]
            + (["--allow-root"] if os.getuid() == 0 else []),
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("jupyter-notebook exited: " + self.log_text()[-2000:])
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("jupyter-notebook did not listen in 60 s")

    def log_text(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/notebooks/{name}?token={TOKEN}"

    def add(self, name, cells=None, copy_of=None, kernel="nndb"):
        path = os.path.join(self.nbdir, name)
        if copy_of:
            shutil.copy(copy_of, path)
        else:
            nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                             "metadata": {}, "outputs": [], "source": src}
                            for i, src in enumerate(cells)],
                  "metadata": {"kernelspec": {"name": kernel, "display_name": kernel,
                                              "language": "python"}},
                  "nbformat": 4, "nbformat_minor": 5}
            with open(path, "w") as f:
                json.dump(nb, f)
        return path

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.tmp, ignore_errors=True)


def start_browser():
    """Headless Chromium, or Skip with the reason it cannot start."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise Skip(f"python3-selenium is missing ({e})")
    # NNDB_CHROMIUM names another browser binary (or a missing one, to see
    # the skip).
    chromium = os.environ.get("NNDB_CHROMIUM", "/usr/bin/chromium")
    for exe in (chromium, "/usr/bin/chromedriver"):
        if not os.path.exists(exe):
            raise Skip(f"{exe} is missing (Debian packages chromium, chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1200,1600", "--no-first-run", "--disable-extensions"):
        opts.add_argument(a)
    try:
        return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)
    except Exception as e:  # the driver says why in its message
        raise Skip(f"Chromium cannot start here: {str(e).strip().splitlines()[0][:300]}")


class Page:
    def __init__(self, driver, server):
        self.d = driver
        self.server = server

    def js(self, code, *args):
        return self.d.execute_script(code, *args)

    def wait(self, what, cond, timeout=WAIT):
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                last = cond()
                if last:
                    return last
            except Exception as e:  # the page may still be loading
                last = e
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {what} (last: {last!r})")

    def open(self, name):
        self.d.get(self.server.url(name))
        self.wait("the notebook and its kernel", lambda: self.js(
            "return window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&"
            " Jupyter.notebook.kernel.is_connected() && Jupyter.notebook._fully_loaded &&"
            " Jupyter.notebook.kernel.info_reply && Jupyter.notebook.kernel.info_reply.status"
            " == 'ok'"))
        # Give the front end the moment in which it writes the kernel's
        # language_info into the metadata (it marks the notebook dirty then).
        time.sleep(1.0)

    def idle(self):
        return self.js("return Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected()"
                       " && document.querySelector('#kernel_indicator_icon')"
                       ".classList.contains('kernel_idle_icon')")

    def run_all(self):
        self.js("Jupyter.notebook.execute_all_cells();")

    def prompts(self):
        return self.js("return Array.from(document.querySelectorAll('.code_cell .input_prompt'))"
                       ".map(e => e.innerText.replace(/\\u00a0/g, ' ').trim());")

    def errors(self):
        return self.js("return Array.from(document.querySelectorAll('.output_error'))"
                       ".map(e => e.innerText);")

    def answer_stops(self):
        """A debugger stop (the (nndb) prompt in an input box): continue, as
        the person reading along types "c"."""
        boxes = self.d.find_elements("css selector", "input.raw_input")
        for b in boxes:
            try:
                b.send_keys("c\n")
                self.stops += 1
            except Exception:  # answered and replaced meanwhile
                pass
        return False

    def wait_done(self, n_cells):
        """Every code cell ran (a number in its prompt) and the kernel is idle;
        debugger stops on the way are continued."""
        self.stops = 0
        self.wait("Run All to finish", lambda: self.answer_stops() or self.idle() and all(
            p.startswith("In [") and p[4:-2].strip().isdigit() for p in self.prompts()[:n_cells]))

    def shot(self, name):
        os.makedirs(SHOTS, exist_ok=True)
        # The whole notebook: the window as tall as the page.
        h = self.js("return (document.getElementById('notebook') || document.body).scrollHeight + 200;")
        self.d.set_window_size(1200, min(max(int(h), 800), 12000))
        self.d.save_screenshot(os.path.join(SHOTS, name + ".png"))
        self.d.set_window_size(1200, 1600)

    def close_notebook(self):
        self.js("Jupyter.notebook.session.delete();")
        time.sleep(0.3)


def plot_images(page):
    """The plot outputs as the page shows them: (kind, width, height)."""
    return page.js("""
        return Array.from(document.querySelectorAll('.output_svg svg, .output_png img'))
          .map(e => [e.tagName.toLowerCase(), e.getBoundingClientRect().width,
                     e.getBoundingClientRect().height,
                     e.tagName.toLowerCase() == 'img' ? e.naturalWidth : 1]);""")


# ---------------------------------------------------------------- tests


def check_example(page, name):
    page.server.add(name, copy_of=os.path.join(ROOT, "examples", name))
    page.open(name)
    assert not page.js("return Jupyter.notebook.dirty;"), \
        f"{name} opens as '(unsaved changes)': its metadata differs from what the kernel says"
    n = page.js("return Jupyter.notebook.get_cells().filter(c => c.cell_type == 'code').length;")
    page.run_all()
    page.wait_done(n)
    errors = page.errors()
    assert not errors, f"{name}: error outputs: {errors}"
    page.shot(name.replace(".ipynb", ""))
    return n


def test_examples_run_all_without_errors_and_show_plots(page):
    for p in sorted(os.listdir(os.path.join(ROOT, "examples"))):
        if p.endswith(".ipynb"):
            check_example(page, p)
            pics = plot_images(page)
            if p == "debug_mlp.ipynb":
                # Its breakpoints stopped Run All at the (nndb) prompt in the
                # page, and "c" went on; %graph is a picture (Graphviz SVG and
                # its PNG).
                assert page.stops >= 2, page.stops
                assert pics, "no graph picture"
            if p == "train_mlp.ipynb":
                assert pics and all(w > 100 and h > 50 and nat > 0 for _, w, h, nat in pics), pics
                # Every picture in the live notebook has a PNG (matplotlib's
                # for plot(); beside the SVG for the others).
                mimes = page.js("""return [].concat(...Jupyter.notebook.get_cells()
                    .filter(c => c.output_area).map(c => c.output_area.outputs
                    .filter(o => o.data && (o.data['image/svg+xml'] || o.data['image/png']))
                    .map(o => Object.keys(o.data))));""")
                assert mimes and all("image/png" in m for m in mimes), mimes
            if p == "cnn_fashion_mnist.ipynb":
                # show_images' grid, the feature maps and the matplotlib
                # figure are PNG pictures the page shows.
                imgs = [x for x in pics if x[0] == "img"]
                assert len(imgs) >= 3 and all(w > 50 and h > 20 and nat > 0 for _, w, h, nat in imgs), pics
            page.close_notebook()


def test_matplotlib_figure_shows_as_png(page):
    """NumPy and matplotlib import as they do under ipykernel, and a figure
    drawn from a tensor arrives as a PNG the page shows (matplotlib-inline's
    behaviour)."""
    page.server.add("matplotlib.ipynb", [
        "import numpy as np\nimport matplotlib.pyplot as plt\nimport torch",
        "x = torch.linspace(0, 6.28, 100)\nplt.plot(x, torch.sin(x), label='sin')\n"
        "plt.plot(np.linspace(0, 6.28, 100), np.cos(np.linspace(0, 6.28, 100)), label='cos')\n"
        "plt.legend(); plt.title('tensors and arrays')",
        "print(np.asarray(torch.arange(3.0)) * 2, 2 ** 100, 3 ^ 5)",
    ])
    page.open("matplotlib.ipynb")
    page.run_all()
    page.wait_done(3)
    assert not page.errors(), page.errors()
    pics = plot_images(page)
    assert len(pics) == 1 and pics[0][0] == "img", pics
    kind, w, h, nat = pics[0]
    assert w > 200 and h > 150 and nat > 200, pics
    text = page.js("return Array.from(document.querySelectorAll('.output_stdout'))"
                   ".map(e => e.textContent).join('');")
    assert "[0. 2. 4.] 1267650600228229401496703205376 6" in text, text
    page.shot("matplotlib")
    page.close_notebook()


def test_course_libraries_render(page):
    """What a course notebook shows, in one page: matplotlib subplots, an
    imshow with text annotations (makemore's count table), a graphviz
    Digraph (micrograd's draw_dot) as SVG, and a tqdm bar that ends at 100%."""
    page.server.add("libraries.ipynb", [
        "import torch\nimport matplotlib.pyplot as plt\nfrom graphviz import Digraph\n"
        "from tqdm import tqdm",
        "fig, axs = plt.subplots(1, 2, figsize=(6, 2.5))\n"
        "axs[0].plot(torch.arange(10.0) ** 2); axs[0].set_title('loss')\n"
        "axs[1].hist(torch.randn(1000).tolist(), 30); axs[1].set_title('values')",
        "N = torch.arange(16).view(4, 4)\nplt.figure(figsize=(3, 3))\n"
        "plt.imshow(N, cmap='Blues')\nfor i in range(4):\n    for j in range(4):\n"
        "        plt.text(j, i, str(N[i, j].item()), ha='center', va='center')\nplt.axis('off')",
        "dot = Digraph(graph_attr={'rankdir': 'LR'})\n"
        "dot.node('a', 'a | data 2.0', shape='record'); dot.node('b', 'b | data -3.0', shape='record')\n"
        "dot.node('m', '*'); dot.edge('a', 'm'); dot.edge('b', 'm')\ndot",
        "total = 0\nfor i in tqdm(range(2000)):\n    total += i\nprint('total', total)",
    ])
    page.open("libraries.ipynb")
    page.run_all()
    page.wait_done(5)
    assert not page.errors(), page.errors()
    pics = plot_images(page)
    imgs = [p for p in pics if p[0] == "img"]
    svgs = [p for p in pics if p[0] == "svg"]
    assert len(imgs) >= 2 and all(w > 150 and h > 100 and nat > 0 for _, w, h, nat in imgs), pics
    assert svgs and svgs[0][1] > 50 and svgs[0][2] > 20, pics  # the Digraph
    graph = page.js("return Array.from(document.querySelectorAll('.output_svg svg text'))"
                    ".map(e => e.textContent).join(' ');")
    assert "data 2.0" in graph and "*" in graph, graph
    text = page.js("return Array.from(document.querySelectorAll('.output_area'))"
                   ".map(e => e.innerText).join('\\n');")
    assert "total 1999000" in text and "100%" in text and "2000/2000" in text, text[-500:]
    page.shot("libraries")
    page.close_notebook()


def test_interact_slider_runs_the_function(page):
    """ipywidgets' interact in the classic Notebook (Debian's widget
    nbextension): the slider renders, the function's print shows under it,
    and moving the slider with the keyboard runs it again.
    NNDB_BROWSER_WIDGET_KERNEL=python3 runs the same on ipykernel (it
    passes there too, with the same "Widget Javascript not detected" note:
    the page asks the version before ipywidgets is imported)."""
    page.server.add("widgets.ipynb", [
        "from ipywidgets import interact\n"
        "def f(steps):\n    print('steps', steps * 2)\n"
        "_ = interact(f, steps=(0, 10))",
    ], kernel=os.environ.get("NNDB_BROWSER_WIDGET_KERNEL", "nndb"))
    page.open("widgets.ipynb")
    page.run_all()
    page.wait_done(1)
    assert not page.errors(), page.errors()
    handle = page.wait("the slider", lambda: page.d.find_elements(
        "css selector", ".widget-area .ui-slider-handle"))[0]
    area = lambda: page.js("return Array.from(document.querySelectorAll('.widget-area'))"
                           ".map(e => e.innerText).join('');")
    page.wait("f's output under the slider", lambda: "steps 10" in area())
    handle.click()
    from selenium.webdriver.common.keys import Keys
    handle.send_keys(Keys.ARROW_RIGHT)
    page.wait("f run again at 6", lambda: "steps 12" in area())
    page.shot("widgets")
    page.close_notebook()


def test_untrusted_notebook_shows_the_plot_from_png(page):
    """Saved with outputs elsewhere and so not trusted here: no SVG is shown,
    and the picture must come from the PNG (a handout's case)."""
    import nbformat
    from nbclient import NotebookClient
    nb = nbformat.read(os.path.join(ROOT, "examples", "train_mlp.ipynb"), as_version=4)
    NotebookClient(nb, kernel_name="nndb", timeout=120,
                   resources={"metadata": {"path": page.server.nbdir}}).execute()
    # nbclient runs with the test's environment; the kernelspec is the server's.
    path = os.path.join(page.server.nbdir, "handout.ipynb")
    with open(path, "w") as f:
        nbformat.write(nb, f)
    page.open("handout.ipynb")
    assert not page.js("return Jupyter.notebook.trusted;"), "the handout should not be trusted"
    pics = plot_images(page)
    assert pics and all(kind == "img" and w > 100 and nat > 0 for kind, w, h, nat in pics), pics
    page.shot("handout_untrusted")
    page.close_notebook()


def test_error_stops_run_all_and_skipped_cells_show_no_number(page):
    page.server.add("errors.ipynb", ["first = 1", "no_such_name_in_browser", "second = 2",
                                     "third = 3"])
    page.open("errors.ipynb")
    page.run_all()
    page.wait("the error output", lambda: page.errors() and page.idle())
    time.sleep(1.0)  # the aborted replies of the queued cells
    prompts = page.prompts()
    assert prompts[0] == "In [1]:" and prompts[1] == "In [2]:", prompts
    assert prompts[2] == "In [ ]:" and prompts[3] == "In [ ]:", prompts
    assert "NameError" in page.errors()[0]
    page.shot("errors")
    page.close_notebook()


def dismiss_dialogs(page):
    """Close the notice that the kernel died and is restarted (its OK only:
    the other dialogs' buttons would stop the restart)."""
    page.js("document.querySelectorAll('.modal.in .btn').forEach(b => {"
            " if (b.innerText.trim() == 'OK') b.click(); });")


def test_exit_restarts_the_kernel_and_later_errors_show(page):
    page.server.add("exit.ipynb", ["kept = 1", "exit()", "no_such_after_exit", "kept"])
    page.open("exit.ipynb")
    first_id = page.js("return Jupyter.notebook.kernel.id;")
    page.js("Jupyter.notebook.execute_cells([0, 1]);")
    # The kernel stops after its ask_exit reply; the server restarts it.
    page.wait("the notice that the kernel restarts", lambda: page.js(
        "return document.body.innerText.includes('restart');"), timeout=30)
    # Notebook 6 does with nndb what it does with ipykernel here: the server
    # restarts the kernel, and the page may show "Dead kernel" behind the
    # notice. The user clicks OK, then Kernel > Reconnect if need be.
    time.sleep(2)
    dismiss_dialogs(page)
    try:
        page.wait("a fresh kernel", page.idle, timeout=5)
    except AssertionError:
        page.js("Jupyter.notebook.kernel.reconnect();")
        page.wait("a fresh kernel after Kernel > Reconnect", page.idle)
    dismiss_dialogs(page)
    page.js("Jupyter.notebook.execute_cells([2]);")
    page.wait("the error after exit()", lambda: page.errors())
    assert "NameError" in page.errors()[0], page.errors()
    page.js("Jupyter.notebook.execute_cells([3]);")
    # A fresh session: the value from before exit() is gone, and it says so.
    page.wait("the second error", lambda: len(page.errors()) >= 2)
    assert "kept" in page.errors()[1], page.errors()
    assert page.js("return Jupyter.notebook.kernel.id;") == first_id  # restarted in place
    page.shot("exit")
    page.close_notebook()


def test_input_box_round_trip(page):
    page.server.add("input.ipynb", ["name = input('your name? ')\nprint('hello', name)"])
    page.open("input.ipynb")
    page.js("Jupyter.notebook.execute_cells([0]);")
    box = page.wait("the input box", lambda: page.d.find_elements("css selector",
                                                                   "input.raw_input"))
    box[0].send_keys("Ada\n")
    page.wait("the reply printed", lambda: "hello Ada" in page.js(
        "return document.querySelector('.output_area').innerText;"))
    page.shot("input")
    page.close_notebook()


def test_help_menu_links_to_nndb_pages(page):
    page.server.add("help.ipynb", ["1"])
    page.open("help.ipynb")
    links = page.js("return Jupyter.notebook.kernel.info_reply.help_links;")
    ours = [l for l in links if "/kernelspecs/nndb/doc/" in l["url"]]
    assert ours and ours[0]["text"] == "nndb documentation", links
    # The Help menu lists them (the notebook adds a kernel's links there).
    menu = page.js("return Array.from(document.querySelectorAll('#help_menu a'))"
                   ".map(a => a.innerText.trim());")
    assert "The language: Python" in menu, menu
    page.close_notebook()
    for link in ours:
        page.d.get(f"http://127.0.0.1:{page.server.port}{link['url']}?token={TOKEN}")
        h1 = page.wait(f"the page {link['url']}", lambda: page.js(
            "var h = document.querySelector('h1'); return h && h.innerText;"), timeout=10)
        assert h1, link
        assert "nndb" in page.d.title, (page.d.title, link)
    page.d.get(f"http://127.0.0.1:{page.server.port}{ours[1]['url']}?token={TOKEN}")
    page.shot("help_language")


TESTS = [
    test_examples_run_all_without_errors_and_show_plots,
    test_matplotlib_figure_shows_as_png,
    test_course_libraries_render,
    test_interact_slider_runs_the_function,
    test_untrusted_notebook_shows_the_plot_from_png,
    test_error_stops_run_all_and_skipped_cells_show_no_number,
    test_exit_restarts_the_kernel_and_later_errors_show,
    test_input_box_round_trip,
    test_help_menu_links_to_nndb_pages,
]


def main():
    wanted = sys.argv[1:]
    tests = [t for t in TESTS if not wanted or any(w in t.__name__ for w in wanted)]
    passed = failed = skipped = 0
    t_start = time.monotonic()
    try:
        driver = start_browser()
    except Skip as e:
        print(f"SKIPPED (not passed): every browser test: {e}")
        print(f"0 passed, 0 failed, {len(tests)} skipped")
        return 0
    server = None
    try:
        server = Server()
        os.environ.update({k: server.env[k] for k in ("JUPYTER_PATH",)})
        page = Page(driver, server)
        for t in tests:
            t0 = time.monotonic()
            try:
                t(page)
                passed += 1
                print(f"ok   {t.__name__} ({time.monotonic() - t0:.1f} s)")
            except Exception as e:
                failed += 1
                print(f"FAIL {t.__name__}: {type(e).__name__}: {e}")
                traceback.print_exc(limit=3)
                try:
                    page.shot("FAILED-" + t.__name__)
                except Exception:
                    pass
    finally:
        driver.quit()
        if server:
            if failed:
                print(server.log_text()[-3000:])
            server.stop()
    print(f"   screenshots in {os.path.relpath(SHOTS, ROOT)}/; "
          f"{time.monotonic() - t_start:.0f} s in all")
    line = f"{passed} passed, {failed} failed"
    if skipped:
        line += f", {skipped} skipped"
    print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
