"""What torchvision's download helpers become without a network.

nndb never downloads: `download=True` checks whether the files are in
place and, when they are not, raises at once with the files to fetch and
the folder to put them in (docs/datasets.md). Nothing waits on a socket.
"""

import hashlib
import os


def check_integrity(fpath, md5=None):
    if not os.path.isfile(fpath):
        return False
    if md5 is None:
        return True
    h = hashlib.md5()
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest() == md5


def verify_str_arg(value, arg=None, valid_values=None, custom_msg=None):
    if not isinstance(value, str):
        msg = "Expected type str" + (f" for argument {arg}" if arg is not None else "") + f", but got type {type(value)}."
        raise ValueError(msg)
    if valid_values is None:
        return value
    if value not in valid_values:
        if custom_msg is not None:
            msg = custom_msg
        else:
            msg = ("Unknown value '{value}' for argument {arg}. Valid values are {{{valid_values}}}.").format(
                value=value, arg=arg, valid_values=", ".join(repr(v) for v in valid_values))
        raise ValueError(msg)
    return value


class DownloadUnavailable(RuntimeError):
    """download=True in nndb, where nothing is fetched from the network."""


def no_download(name, folder, files, urls=()):
    """Raise the error that says what to put where (never touches the network)."""
    lines = [f"{name}: nndb does not download (no network at run time). Put these files in {folder}:"]
    lines += [f"    {f}" for f in files]
    if urls:
        lines.append("They can be fetched on a machine with a network from:")
        lines += [f"    {u}" for u in urls]
    lines.append("See docs/datasets.md.")
    raise DownloadUnavailable("\n".join(lines))
