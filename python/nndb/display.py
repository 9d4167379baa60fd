"""Rich display in nndb sessions: IPython's display protocol over the front end.

format_bundle(obj) turns a value into a MIME bundle the way IPython's
display formatter does: text/plain is repr(obj), with long lists, tuples,
dicts and sets laid out as IPython's pretty printer does (nndb.pretty); an object's _repr_html_,
_repr_markdown_, _repr_svg_, _repr_png_ (sent base64, as Jupyter wants),
_repr_jpeg_, _repr_latex_ and _repr_mimebundle_ add the richer forms, and a
matplotlib Figure is drawn as a picture. display() sends bundles to the
front end (a notebook's display_data, the terminal's text), with display ids
that later updates replace.

matplotlib runs on nndb._mpl_backend (Agg underneath): at the end of every
cell the figures left open are shown and closed, as matplotlib-inline does,
and plt.show() shows them at once. Neither matplotlib nor IPython is
imported here: import hooks patch them when the user imports them.
"""

import base64
import sys

__all__ = ["display", "update_display", "clear_output", "DisplayHandle", "format_bundle",
           "HTML", "Markdown", "SVG", "Image"]

# %config InlineBackend.NAME = VALUE
inline_config = {"figure_format": "png", "rc": {}, "close_figures": True,
                 "print_figure_kwargs": {"bbox_inches": "tight"}}

_REPR_METHODS = [
    ("_repr_html_", "text/html"),
    ("_repr_png_", "image/png"),
    ("_repr_svg_", "image/svg+xml"),
    ("_repr_markdown_", "text/markdown"),
    ("_repr_latex_", "text/latex"),
    ("_repr_jpeg_", "image/jpeg"),
    ("_repr_json_", "application/json"),
    ("_repr_javascript_", "application/javascript"),
    ("_repr_pdf_", "application/pdf"),
]
_BINARY = {"image/png", "image/jpeg", "application/pdf"}
# The order a bundle keeps (the front end holds at most six forms).
_ORDER = ["text/plain", "text/html", "image/png", "image/svg+xml", "text/markdown", "text/latex",
          "image/jpeg", "application/json", "application/javascript", "application/pdf"]


def _method(obj, name):
    """obj.NAME when it is a real method: not on a class, not conjured up by
    a __getattr__ that answers everything (IPython's canary test)."""
    if isinstance(obj, type):
        return None
    try:
        if hasattr(obj, "_ipython_canary_method_should_not_exist_"):
            return None
        m = getattr(obj, name, None)
    except Exception:
        return None
    return m if callable(m) else None


def _as_text(mime, data):
    if isinstance(data, tuple) and len(data) == 2 and isinstance(data[1], dict):
        data = data[0]
    if mime in _BINARY:
        if isinstance(data, (bytes, bytearray, memoryview)):
            return base64.b64encode(bytes(data)).decode("ascii")
        return str(data)
    if isinstance(data, (bytes, bytearray)):
        return bytes(data).decode("utf-8", "replace")
    if isinstance(data, str) and not _is_json(mime):
        return data
    if _is_json(mime):
        import json
        try:
            return json.dumps(data)  # the kernel sends it as the JSON value
        except (TypeError, ValueError):
            return None
    return None


def _is_json(mime):
    return mime == "application/json" or mime.endswith("+json")


def _warn(obj, what, e):
    sys.stderr.write(f"nndb: {type(obj).__name__}.{what} failed: {type(e).__name__}: {e}\n")


def _figure_bundle(fig):
    import io
    fmt = inline_config.get("figure_format", "png")
    fmts = fmt if isinstance(fmt, (set, list, tuple)) else [fmt]
    out = {"text/plain": repr(fig)}
    kwargs = dict(inline_config.get("print_figure_kwargs") or {})
    for f in fmts:
        buf = io.BytesIO()
        if f in ("png", "retina", "png2x"):
            dpi = fig.dpi * (2 if f != "png" else 1)
            fig.canvas.print_figure(buf, format="png", dpi=dpi, **kwargs)
            out["image/png"] = base64.b64encode(buf.getvalue()).decode("ascii")
        elif f == "svg":
            fig.canvas.print_figure(buf, format="svg", **kwargs)
            out["image/svg+xml"] = buf.getvalue().decode("utf-8")
        elif f in ("jpg", "jpeg"):
            fig.canvas.print_figure(buf, format="jpeg", **kwargs)
            out["image/jpeg"] = base64.b64encode(buf.getvalue()).decode("ascii")
    return out


# Formatters by the qualified name of a class in the value's MRO, so the
# modules they are for are never imported to look them up.
_TYPE_FORMATTERS = {"matplotlib.figure.Figure": _figure_bundle}


def _type_formatter(obj):
    for cls in type(obj).__mro__:
        f = _TYPE_FORMATTERS.get(f"{cls.__module__}.{cls.__qualname__}")
        if f is not None:
            return f
    return None


def format_dict(obj, include=None, exclude=None):
    """{mime: text} for [obj]."""
    items = {}
    special = _type_formatter(obj)
    if special is not None:
        try:
            items.update(special(obj))
        except Exception as e:
            _warn(obj, "figure", e)
    bundle_fn = _method(obj, "_repr_mimebundle_")
    if bundle_fn is not None:
        try:
            data = bundle_fn(include=include, exclude=exclude)
            if isinstance(data, tuple):
                data = data[0]
            for mime, value in (data or {}).items():
                text = _as_text(mime, value)
                if text is not None:
                    items.setdefault(mime, text)
        except Exception as e:
            _warn(obj, "_repr_mimebundle_", e)
    for name, mime in _REPR_METHODS:
        if mime in items:
            continue
        fn = _method(obj, name)
        if fn is None:
            continue
        try:
            value = fn()
        except Exception as e:
            _warn(obj, name, e)
            continue
        if value is not None:
            text = _as_text(mime, value)
            if text is not None:
                items[mime] = text
    if "text/plain" not in items:
        from nndb.pretty import pretty
        items["text/plain"] = pretty(obj)
    if include:
        items = {k: v for k, v in items.items() if k in include}
    if exclude:
        items = {k: v for k, v in items.items() if k not in exclude}
    return items


def _ordered(items):
    rank = {m: i for i, m in enumerate(_ORDER)}
    return sorted(items.items(), key=lambda kv: rank.get(kv[0], len(rank)))


def format_bundle(obj, include=None, exclude=None):
    """[(mime, text)] for [obj], text/plain first."""
    return _ordered(format_dict(obj, include, exclude))


def _send(bundle, display_id=None, update=False):
    from nndb import session
    s = session.active()
    if s is None:
        text = dict(bundle).get("text/plain")
        if text is not None:
            print(text)
        return
    s.fe.display(bundle, display_id, update)


def display(*objs, include=None, exclude=None, metadata=None, transient=None, display_id=None,
            raw=False, clear=False, update=False, **kwargs):
    """Show each object as rich output. display_id=True makes a new id;
    with an id, the returned DisplayHandle updates what was shown."""
    if clear:
        clear_output(wait=True)
    if transient and "display_id" in transient and display_id is None:
        display_id = transient["display_id"]
    if display_id is True:
        import uuid
        display_id = uuid.uuid4().hex
    for obj in objs:
        shows_itself = None if raw else _method(obj, "_ipython_display_")
        if shows_itself is not None:  # a widget: it displays itself
            shows_itself()
            continue
        if raw and isinstance(obj, dict):
            bundle = _ordered({k: t for k, t in ((k, _as_text(k, v)) for k, v in obj.items())
                               if t is not None})
        else:
            bundle = format_bundle(obj, include, exclude)
        _send(bundle, display_id, update)
    if display_id is not None:
        return DisplayHandle(display_id)
    return None


def update_display(obj, *, display_id, **kwargs):
    """Replace what was shown under [display_id] with [obj]."""
    kwargs.pop("update", None)
    display(obj, display_id=display_id, update=True, **kwargs)


def clear_output(wait=False):
    """Empty the running cell's output area, as IPython's clear_output:
    now, or with wait=True when the next output arrives (no flicker in a
    loop that redraws). A terminal keeps what it printed."""
    import sys
    from nndb import session
    s = session.active()
    if s is not None:
        sys.stdout.flush()  # what was printed before goes before the clear
        sys.stderr.flush()
        s.fe.clear_output(bool(wait))


class DisplayHandle:
    """A display that can be shown again or updated in place."""

    def __init__(self, display_id=None):
        if display_id is None:
            import uuid
            display_id = uuid.uuid4().hex
        self.display_id = display_id

    def __repr__(self):
        return f"<{type(self).__name__} display_id={self.display_id}>"

    def display(self, obj, **kwargs):
        display(obj, display_id=self.display_id, **kwargs)

    def update(self, obj, **kwargs):
        update_display(obj, display_id=self.display_id, **kwargs)


class _Rich:
    mime = "text/plain"

    def __init__(self, data=None, url=None, filename=None):
        if data is None and filename is not None:
            mode = "rb" if self.mime in _BINARY else "r"
            with open(filename, mode) as f:
                data = f.read()
        self.data = data
        self.url = url

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {self.mime: self.data}

    def __repr__(self):
        return f"<{type(self).__name__} object>"


class HTML(_Rich):
    mime = "text/html"


class Markdown(_Rich):
    mime = "text/markdown"


class SVG(_Rich):
    mime = "image/svg+xml"


class Image(_Rich):
    mime = "image/png"

    def __init__(self, data=None, url=None, filename=None, format=None, **kwargs):
        if format in ("jpeg", "jpg") or (filename or "").lower().endswith((".jpg", ".jpeg")):
            self.mime = "image/jpeg"
        super().__init__(data, url, filename)


# ---- matplotlib ----

def flush_figures():
    """Show every open matplotlib figure and close them (the end of a cell,
    plt.show()). Nothing when pyplot was never imported."""
    if "matplotlib.pyplot" not in sys.modules:
        return
    from matplotlib._pylab_helpers import Gcf
    managers = Gcf.get_all_fig_managers()
    if not managers:
        return
    import matplotlib.pyplot as plt
    try:
        for manager in managers:
            display(manager.canvas.figure)
    finally:
        if inline_config.get("close_figures", True):
            plt.close("all")


# ---- import hooks ----

class _HookedLoader:
    """A module's own loader, with a function called after it ran."""

    def __init__(self, inner, hook):
        self._inner = inner
        self._hook = hook

    def create_module(self, spec):
        return self._inner.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = self._inner
        if module.__spec__ is not None:
            module.__spec__.loader = self._inner
        self._inner.exec_module(module)
        self._hook(module)

    def __getattr__(self, name):
        return getattr(self._inner, name)


class _PostImportFinder:
    """Runs a hook on a module right after its first import."""

    hooks = {}

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        hook = cls.hooks.get(fullname)
        if hook is None:
            return None
        for finder in sys.meta_path:
            if finder is cls or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = _HookedLoader(spec.loader, hook)
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


def _matplotlib_loaded(mpl):
    # Figures go to the front end: nndb's backend (Agg that shows at the
    # end of a cell), whatever MPLBACKEND says.
    try:
        mpl.rcParams["backend"] = "module://nndb._mpl_backend"
    except Exception as e:
        sys.stderr.write(f"nndb: matplotlib's backend could not be set: {e}\n")


def _ipython_display_loaded(module):
    for name, value in (("display", display), ("update_display", update_display),
                        ("clear_output", clear_output)):
        if hasattr(module, name):
            setattr(module, name, value)


def _comm_hook(name):
    def hook(module):
        from nndb import comm
        getattr(comm, name)(module)
    return hook


def install_import_hooks(getpass_fn):
    def getpass_loaded(module):
        module.getpass = getpass_fn

    hooks = {
        "matplotlib": _matplotlib_loaded,
        "IPython.core.display_functions": _ipython_display_loaded,
        "IPython.core.display": _ipython_display_loaded,
        "IPython.display": _ipython_display_loaded,
        "getpass": getpass_loaded,
        # ipywidgets in the kernel: comms are nndb's (nndb/comm.py).
        "ipykernel.comm": _comm_hook("ipykernel_comm_loaded"),
        "ipykernel.comm.comm": _comm_hook("ipykernel_comm_loaded"),
        "ipywidgets": _comm_hook("ipywidgets_loaded"),
    }
    _PostImportFinder.hooks.update(hooks)
    if _PostImportFinder not in sys.meta_path:
        sys.meta_path.insert(0, _PostImportFinder)
    for name, hook in hooks.items():
        if name in sys.modules:
            hook(sys.modules[name])

