"""nndb's built-in datasets, with bugs that can be planted on purpose.

The data itself is made by the engine (engine/nn_data.c, nn_text.c) through
the private kernels of binding/py_data.c, so it is the same, row for row, as
the old interpreter's: every dataset is deterministic given its seed and
draws from a generator of its own, never from torch's global stream.

    ds = spirals(300, classes=3, seed=0)        # ds.x [300, 2], ds.y [300]
    train, val, test = ds.split(0.8, 0.1)
    train = train.plant(bugs=['off_by_one'])    # break only the training part
    loader = DataLoader(train, batch_size=32, shuffle=True)

A Dataset is a torch.utils.data.Dataset (ds[i] is (x[i], y[i])), so
torch's DataLoader, Subset and random_split take it. Each generator takes
the bug keywords: bugs= one name or a list of names (BUG_NAMES), and each
bug's parameters (relabel_from=, leak_fraction=, nan_row=, ...); a
parameter whose bug is not listed is an error, so a typo does not pass
silently. docs/datasets.md describes every bug and the symptom it causes.
"""

import operator

import torch
from torch import _C

try:
    from torch.utils.data import Dataset as _TorchDataset
except ImportError:  # torch.utils.data is optional for the data itself
    _TorchDataset = object

__all__ = ["Dataset", "Vocab", "BUG_NAMES", "spirals", "moons", "blobs", "xor", "regression",
           "copy_task", "words", "text"]

# The bug names in the order of the engine's flags (nn_data_bug_flag: bit i
# is the i-th name). "unnormalized" is accepted as a spelling of
# "unnormalised".
BUG_NAMES = ["shuffled_labels", "off_by_one", "relabel", "leakage", "unnormalised",
             "zero_inputs", "transposed", "all_padding", "nan"]
_FLAGS = {name: 1 << i for i, name in enumerate(BUG_NAMES)}
_FLAGS["unnormalized"] = _FLAGS["unnormalised"]

# Each bug parameter and the bug it belongs to.
_PARAM_OF = {"relabel_from": "relabel", "relabel_to": "relabel", "leak_fraction": "leakage",
             "scale_column": "unnormalised", "scale": "unnormalised", "nan_row": "nan",
             "nan_col": "nan", "padding_fraction": "all_padding"}

_titles = None


def _bug_titles():
    """{flag: the engine's words for it} ("labels off by one", ...)."""
    global _titles
    if _titles is None:
        _titles = {flag: title for title, flag in _C._data_bugs()[0]}
    return _titles


_hiding = False


def _hide_planted(on):
    """While a drill's setup runs, datasets keep their planted bugs to
    themselves (repr, description, .bugs); the drill runner switches this."""
    global _hiding
    _hiding = bool(on)


def _flags_of(bugs):
    if bugs is None:
        return 0
    if isinstance(bugs, str):
        bugs = [bugs]
    elif not isinstance(bugs, (list, tuple)):
        raise TypeError(f"bugs must be a list of bug names, not {type(bugs).__name__}")
    flags = 0
    for name in bugs:
        if not isinstance(name, str):
            raise TypeError(f"a bug name must be a str, not {type(name).__name__}")
        if name not in _FLAGS:
            known = ", ".join(repr(n) for n in BUG_NAMES)
            raise ValueError(f"unknown bug '{name}': the bugs are {known}")
        flags |= _FLAGS[name]
    return flags


def _bug_params(flags, params, fname="plant"):
    """The given bug parameters as a dict for the engine; each must belong
    to a bug that [flags] plants."""
    out = {}
    for key, value in params.items():
        if key != "bug_seed" and key not in _PARAM_OF:
            raise TypeError(f"{fname}() got an unexpected keyword argument '{key}'")
        if value is None:
            continue
        bug = _PARAM_OF.get(key)
        if bug is not None and not flags & _FLAGS[bug]:
            raise ValueError(f"{key}= is a parameter of the '{bug}' bug, which bugs= does not "
                             f"list")
        out[key] = value
    return out


def _names_of(flags):
    return [name for name in BUG_NAMES if flags & _FLAGS[name]]


def _shape_dtype(t):
    return f"[{', '.join(str(s) for s in t.shape)}] {str(t.dtype).replace('torch.', '')}"


class Vocab:
    """A character vocabulary: tokens are Unicode characters, ids 0..size-1.
    itos {id: char} and stoi {char: id} are makemore's dicts."""

    def __init__(self, engine_vocab):
        self._v = engine_vocab
        self.size = engine_vocab.size()
        self.itos = {i: engine_vocab.itos(i) for i in range(self.size)}
        self.stoi = {c: i for i, c in self.itos.items()}

    def __len__(self):
        return self.size

    def __repr__(self):
        chars = "".join(self.itos[i] for i in range(min(self.size, 100)))
        if self.size > 100:
            chars += "..."
        return f"Vocab(size={self.size}, chars={chars!r})"

    def encode(self, text):
        """The int64 ids of [text]; a character not in the vocabulary is a
        ValueError naming it."""
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, not {type(text).__name__}")
        return self._v.encode(text)

    def decode(self, ids):
        """The text of integer ids: a tensor, a list or an int."""
        if not isinstance(ids, torch.Tensor):
            ids = torch.tensor(ids if isinstance(ids, (list, tuple)) else [ids], dtype=torch.int64)
        return self._v.decode(ids)


class Dataset(_TorchDataset):
    """A dataset: x (inputs), y (labels or targets), mask (copy_task), n and
    len(), num_classes, vocab (text), description (what it is and every
    planted bug), bugs (the names planted). ds[i] is (x[i], y[i]); split()
    cuts it, plant() breaks a copy, DataLoader(ds) batches it."""

    def __init__(self, engine_dataset, hide=None):
        self._ds = engine_dataset
        self._hide = _hiding if hide is None else hide
        f = engine_dataset.fields()
        self.name = f["name"]
        self.n = f["n"]
        self.x, self.y, self.mask = f["x"], f["y"], f["mask"]
        self.num_classes = f["num_classes"]
        self.vocab = Vocab(f["vocab"]) if f["vocab"] is not None else None
        self.true_w, self.true_b = f["true_w"], f["true_b"]
        self.bugs = _names_of(f["bug_flags"])
        self.nan_row, self.nan_col = f["nan_row"], f["nan_col"]
        self.padded_rows = f["padded_rows"]
        self.leaked_rows, self.leaked_from = f["leaked_rows"], f["leaked_from"]
        self.description = f["description"]
        if self._hide and self.bugs:
            # Built by a drill's setup: the learner finds the bug from the data.
            self.description = "\n".join(l for l in self.description.split("\n")
                                         if not l.startswith("planted"))
            self._hidden_bugs, self.bugs = self.bugs, []

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        if isinstance(index, bool) or (isinstance(index, torch.Tensor) and
                                       index.is_floating_point()):
            raise TypeError(f"Dataset indices must be integers, not {type(index).__name__}")
        try:
            index = operator.index(index)  # ints, NumPy ints, one-element int tensors
        except TypeError:
            raise TypeError(f"Dataset indices must be integers, not "
                            f"{type(index).__name__}") from None
        if not -self.n <= index < self.n:
            raise IndexError(f"index {index} is out of range for a dataset of {self.n}")
        return self.x[index], self.y[index]

    def __iter__(self):
        for i in range(self.n):
            yield self[i]

    def __repr__(self):
        parts = [f"Dataset({self.name!r}", f"n={self.n}", f"x={_shape_dtype(self.x)}",
                 f"y={_shape_dtype(self.y)}"]
        if self.mask is not None:
            parts.append("mask")
        if self.num_classes:
            parts.append(f"num_classes={self.num_classes}")
        if self.bugs:
            parts.append(f"bugs={self.bugs!r}")
        return ", ".join(parts) + ")"

    def _repr_html_(self):
        import html
        return f"<pre>{html.escape(self.description)}</pre>"

    def split(self, train=0.8, val=0.1, seed=0):
        """Permute the rows with [seed] and cut them into (train, val, test):
        round(train * n) rows, round(val * n) rows, and the rest. Planted
        bugs follow their rows; a dataset with the 'leakage' bug copies some
        val rows into train here."""
        parts = self._ds.split(float(train), float(val), int(seed))
        return tuple(Dataset(p, self._hide) for p in parts)

    def plant(self, bugs=None, *, bug_seed=None, relabel_from=None, relabel_to=None,
              leak_fraction=None, scale_column=None, scale=None, nan_row=None, nan_col=None,
              padding_fraction=None):
        """A copy of the dataset with [bugs] planted (this one is unchanged):
        use it to break only the train part of a split."""
        flags = _flags_of(bugs)
        if not flags:
            raise ValueError("plant() needs bugs=[...], at least one name")
        params = _bug_params(flags, dict(
            bug_seed=bug_seed, relabel_from=relabel_from, relabel_to=relabel_to,
            leak_fraction=leak_fraction, scale_column=scale_column, scale=scale,
            nan_row=nan_row, nan_col=nan_col, padding_fraction=padding_fraction))
        return Dataset(self._ds.plant(flags, params), self._hide)

    def subset(self, indices):
        """A new dataset of the given rows (any order, repeats allowed), e.g.
        one batch to overfit."""
        if not isinstance(indices, torch.Tensor):
            indices = torch.tensor(list(indices), dtype=torch.int64)
        if indices.dtype != torch.int64 or indices.dim() != 1:
            raise TypeError("subset() expects a list or 1-d int64 tensor of rows")
        return Dataset(self._ds.subset(indices.contiguous(), f"{self.name[:48]}[subset]"), self._hide)


def _made(fname, make, args, bugs, params):
    """make(*args), with the requested bugs planted. The keywords are checked
    before the data is made."""
    flags = _flags_of(bugs)
    params = _bug_params(flags, params, fname)
    engine_dataset = make(*args)
    if not flags:
        return Dataset(engine_dataset)
    return Dataset(engine_dataset.plant(flags, params))


def spirals(n=300, classes=3, noise=0.2, seed=0, bugs=None, **bug_params):
    """[n] points in 2-D on [classes] interleaved spiral arms (CS231n): x
    float32 [n, 2], y int64 [n]; rows are shuffled."""
    return _made("spirals", _C._data_spirals, (int(n), int(classes), float(noise), int(seed)),
                 bugs, bug_params)


def moons(n=200, noise=0.1, seed=0, bugs=None, **bug_params):
    """Two interleaving half circles (scikit-learn's make_moons): x float32
    [n, 2], y int64 [n]."""
    return _made("moons", _C._data_moons, (int(n), float(noise), int(seed)), bugs, bug_params)


def blobs(n=300, centers=3, dim=2, std=1.0, seed=0, bugs=None, **bug_params):
    """Isotropic Gaussian blobs around [centers] centres (kept in true_w):
    x float32 [n, dim], y int64 [n] (the centre)."""
    return _made("blobs", _C._data_blobs, (int(n), int(centers), int(dim), float(std), int(seed)),
                 bugs, bug_params)


def xor(n=200, noise=0.1, seed=0, bugs=None, **bug_params):
    """Points around the corners (+-1, +-1); label 1 when the corner's signs
    differ. x float32 [n, 2], y int64 [n]."""
    return _made("xor", _C._data_xor, (int(n), float(noise), int(seed)), bugs, bug_params)


def regression(n=200, in_dim=1, out_dim=1, noise=0.1, seed=0, bugs=None, **bug_params):
    """Noisy linear regression y = x W^T + b + noise: x float32 [n, in_dim],
    y float32 [n, out_dim]; the true W and b in true_w and true_b."""
    return _made("regression", _C._data_regression,
                 (int(n), int(in_dim), int(out_dim), float(noise), int(seed)), bugs, bug_params)


def copy_task(n=256, length=8, vocab=10, seed=0, bugs=None, **bug_params):
    """Sequence copy: x int64 [n, length] of tokens in [1, vocab) then padding
    0; y is the same sequence; mask bool [n, length] is true on real tokens."""
    return _made("copy_task", _C._data_copy, (int(n), int(length), int(vocab), int(seed)), bugs,
                 bug_params)


def words(block_size=3, path=None, seed=0, bugs=None, **bug_params):
    """The words of /usr/share/dict/words (or [path]), makemore style: the
    [block_size] previous characters -> the next one; '.' (id 0) starts and
    ends a word. x int64 [n, block_size], y int64 [n], vocab '.a..z'."""
    if path is not None and not isinstance(path, str):
        raise TypeError(f"path must be a str, not {type(path).__name__}")
    return _made("words", _C._data_words, (path, int(block_size), int(seed)), bugs, bug_params)


def text(path, block_size=8, stride=1, bugs=None, **bug_params):
    """Any UTF-8 text file, GPT style: windows of [block_size] characters every
    [stride] characters; y is the window shifted by one character."""
    if not isinstance(path, str):
        raise TypeError(f"path must be a str, not {type(path).__name__}")
    return _made("text", _C._data_text, (path, int(block_size), int(stride)), bugs, bug_params)

