"""Checkpoint and array interop with NumPy, for tests/unit/test_io.c.

Run with no arguments (tests/run_all.sh does, before the unit tests): writes
fixtures into $NNDB_REF_DIR/io (default build/ref/io):
  - .npy files made by NumPy itself (np.save / np.lib.format.write_array) in
    every dtype nndb reads, both byte orders, Fortran order, versions 1.0,
    2.0 and 3.0, 0-dim and empty, listed with their values in npy_cases.txt;
  - a safetensors file written here from the format description (struct +
    json, not the safetensors package), with every dtype nndb reads, the
    data in a different order from the header and a __metadata__ block,
    listed in st_cases.txt.

Run as `ref_io.py check DIR`: reads DIR/manifest.txt, which the C test wrote
next to the .npy and .safetensors files nndb saved, and checks each file
with np.load, and with a safetensors reader written here from the format
description, against the values in the manifest. Prints "ok N" or the
first mismatch and exits non-zero.

Manifest lines (values as repr / %.17g, NaN as nan):
  npy FILE DTYPE NDIM D... COUNT V...            (DTYPE: numpy dtype str, e.g. <f4)
  st FILE KEY DTYPE NDIM D... COUNT V...         (DTYPE: safetensors dtype, e.g. F32)
  meta FILE KEY VALUE                            (KEY and VALUE without spaces)
"""
import json
import os
import struct
import sys

import numpy as np

OUT = os.path.join(os.environ.get("NNDB_REF_DIR", "build/ref"), "io")

NNDB_DTYPE = {"f": "float32", "i": "int64", "u": "int64", "b": "bool"}


def nndb_dtype(dt):
    """The dtype nndb loads [dt] as: its own where nndb has it (as torch)."""
    if dt.kind == "f":
        return {8: "float64", 4: "float32", 2: "float16"}[dt.itemsize]
    if dt.kind == "i":
        return {8: "int64", 4: "int32", 2: "int16", 1: "int8"}[dt.itemsize]
    if dt.kind == "u" and dt.itemsize == 1:
        return "uint8"
    return NNDB_DTYPE[dt.kind]


def fmt_values(a):
    vals = np.ascontiguousarray(a).reshape(-1)
    if a.dtype.kind == "f":
        return [repr(float(v)) for v in vals]
    return [str(int(v)) for v in vals]


def line(fields):
    return " ".join(str(f) for f in fields) + "\n"


# ---------------------------------------------------------------- npy fixtures


def npy_fixtures(man):
    cases = {}
    base = np.arange(24).reshape(2, 3, 4)
    for order in "<>":
        f2 = np.array([0.0, -0.0, 1.5, -2.25, 65504.0, 6e-8, np.inf, -np.inf, 1e-4], dtype=order + "f2")
        cases[f"f2{order}"] = f2
        cases[f"f4{order}"] = (base / 8.0 - 1.0).astype(order + "f4")
        cases[f"f8{order}"] = (base / 3.0 - 2.5).astype(order + "f8")
        cases[f"i1{order}"] = np.array([-128, -1, 0, 1, 127], dtype=order + "i1")
        cases[f"i2{order}"] = np.array([[-32768, -2], [7, 32767]], dtype=order + "i2")
        cases[f"i4{order}"] = np.array([-(2**31), -5, 0, 2**31 - 1], dtype=order + "i4")
        cases[f"i8{order}"] = np.array([-(2**63), -7, 0, 2**53 + 1, 2**63 - 1], dtype=order + "i8")
        cases[f"u1{order}"] = np.array([0, 1, 200, 255], dtype=order + "u1")
        cases[f"u2{order}"] = np.array([0, 65535, 1234], dtype=order + "u2")
        cases[f"u4{order}"] = np.array([0, 2**32 - 1, 77], dtype=order + "u4")
    cases["b1"] = np.array([[True, False, True], [False, False, True]])
    cases["f4_scalar"] = np.array(3.5, dtype="<f4")
    cases["f8_empty"] = np.zeros((0, 3), dtype="<f8")
    cases["i8_empty1d"] = np.zeros((0,), dtype="<i8")
    cases["f8_fortran"] = np.asfortranarray(base / 7.0)
    cases["i4_fortran_be"] = np.asfortranarray(np.arange(12, dtype=">i4").reshape(3, 4) - 6)
    cases["b1_fortran"] = np.asfortranarray(base % 3 == 0)
    cases["f4_1d_fortran"] = np.asfortranarray(np.arange(5, dtype="<f4"))
    for name, a in cases.items():
        path = os.path.join(OUT, f"np_{name.replace('<', 'le').replace('>', 'be')}.npy")
        np.save(path, a)
        man.append((path, a))
    # Versions 2.0 and 3.0 (np.save picks 1.0 for small headers).
    for ver in [(2, 0), (3, 0)]:
        a = (np.arange(6, dtype=">f8").reshape(3, 2) - 1.25)
        path = os.path.join(OUT, f"np_v{ver[0]}.npy")
        with open(path, "wb") as f:
            np.lib.format.write_array(f, a, version=ver)
        man.append((path, a))


# -------------------------------------------------------- safetensors fixtures

ST_NP = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
    "I8": "i1", "U8": "u1", "U16": "<u2", "U32": "<u4", "BOOL": "?",
}


def st_write(path, tensors, metadata=None, data_order=None):
    """tensors: list of (key, dtype, shape, raw bytes). Written from the format
    description: u64 header length, JSON header padded with spaces, buffer."""
    order = data_order or [t[0] for t in tensors]
    by_key = {t[0]: t for t in tensors}
    offsets, buf = {}, b""
    for key in order:
        raw = by_key[key][3]
        offsets[key] = [len(buf), len(buf) + len(raw)]
        buf += raw
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    for key, dtype, shape, _ in tensors:
        header[key] = {"dtype": dtype, "shape": list(shape), "data_offsets": offsets[key]}
    h = json.dumps(header).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + buf)


def st_fixtures(lines):
    tensors = []
    expect = []

    def add(key, dtype, arr, raw=None, value=None):
        raw = raw if raw is not None else np.ascontiguousarray(arr.astype(ST_NP[dtype])).tobytes()
        tensors.append((key, dtype, arr.shape, raw))
        v = value if value is not None else arr
        expect.append((key, v))

    add("w.f32", "F32", np.arange(6, dtype="<f4").reshape(2, 3) / 4 - 0.5)
    add("w.f64", "F64", np.arange(5, dtype="<f8") / 3)
    add("idx.i64", "I64", np.array([-(2**63), -1, 0, 2**63 - 1], dtype="<i8"))
    add("mask", "BOOL", np.array([[True, False], [False, True]]))
    add("half", "F16", np.array([0.5, -1.75, 65504, 6e-8, -np.inf], dtype="<f2"))
    bf = np.array([1.5, -2.25, 3.0e38, 1e-30, 0.0], dtype="<f4")
    bf = (bf.view("<u4") & 0xFFFF0000).view("<f4")  # exactly representable in bf16
    add("brain", "BF16", bf, raw=(bf.view("<u4") >> 16).astype("<u2").tobytes())
    add("i32", "I32", np.array([-(2**31), 5, 2**31 - 1], dtype="<i4"))
    add("i16", "I16", np.array([-32768, 32767], dtype="<i2"))
    add("i8", "I8", np.array([[-128, 3], [4, 127]], dtype="i1"))
    add("u8", "U8", np.array([0, 255, 17], dtype="u1"))
    add("u16", "U16", np.array([65535, 1], dtype="<u2"))
    add("u32", "U32", np.array([2**32 - 1, 0], dtype="<u4"))
    add("scalar", "F32", np.array(2.5, dtype="<f4"))
    add("empty", "F32", np.zeros((0, 4), dtype="<f4"))
    add("blocks.1.attn.qkv.bias", "F64", np.array([1.0, -1.0], dtype="<f8"))
    path = os.path.join(OUT, "st_mixed.safetensors")
    keys = [t[0] for t in tensors]
    st_write(path, tensors, {"format": "pt", "note": 'h\u00e9llo "q"'}, data_order=keys[::-1])
    for key, v in expect:
        a = np.asarray(v)
        kind = "float64" if a.dtype == np.float64 else nndb_dtype(a.dtype)
        if key == "half":
            kind = "float16"
        if key == "brain":
            kind = "bfloat16"
        lines.append(line(["st", path, key, kind, a.ndim, *a.shape, a.size, *fmt_values(a)]))


def generate():
    os.makedirs(OUT, exist_ok=True)
    man = []
    npy_fixtures(man)
    lines = []
    for path, a in man:
        lines.append(line(["npy", path, nndb_dtype(a.dtype), a.ndim, *a.shape, a.size, *fmt_values(a)]))
    st_fixtures(lines)
    with open(os.path.join(OUT, "cases.txt"), "w") as f:
        f.writelines(lines)


# ------------------------------------------------------------------- checking


def st_read(path):
    """A safetensors reader from the format description, strict about layout."""
    with open(path, "rb") as f:
        data = f.read()
    assert len(data) >= 8, "shorter than the 8-byte header length"
    (n,) = struct.unpack("<Q", data[:8])
    assert 8 + n <= len(data), "header length beyond the file"
    assert (8 + n) % 8 == 0, "data does not start 8-byte aligned"
    header = json.loads(data[8 : 8 + n].decode("utf-8"))
    buf = data[8 + n :]
    meta = header.pop("__metadata__", {})
    spans, out = [], {}
    for key, info in header.items():
        assert set(info) == {"dtype", "shape", "data_offsets"}, f"{key}: fields {sorted(info)}"
        b, e = info["data_offsets"]
        dt = np.dtype(ST_NP[info["dtype"]])
        count = int(np.prod(info["shape"], dtype=np.int64))
        assert e - b == count * dt.itemsize, f"{key}: {e - b} bytes for shape {info['shape']}"
        spans.append((b, e))
        out[key] = np.frombuffer(buf[b:e], dtype=dt).reshape(info["shape"])
    at = 0
    for b, e in sorted(spans):
        assert b == at, f"gap or overlap at byte {b}"
        at = e
    assert at == len(buf), "bytes after the last tensor"
    return out, meta, list(header)


def same(a, want):
    a = np.asarray(a, dtype=np.float64).reshape(-1)
    w = np.array([float(v) for v in want], dtype=np.float64)
    if a.shape != w.shape:
        return False
    return bool(np.all((a == w) | (np.isnan(a) & np.isnan(w))))


def check(d):
    n = 0
    st_cache = {}
    with open(os.path.join(d, "manifest.txt")) as f:
        for raw in f:
            p = raw.split()
            if not p:
                continue
            if p[0] == "npy":
                path, dtype, nd = p[1], p[2], int(p[3])
                shape = tuple(int(x) for x in p[4 : 4 + nd])
                vals = p[5 + nd :]
                with open(path, "rb") as fh:
                    assert fh.read(8) == b"\x93NUMPY\x01\x00", f"{path}: not npy version 1.0"
                a = np.load(path)
                if a.dtype != np.dtype(dtype) or a.shape != shape or not same(a, vals):
                    sys.exit(f"{path}: np.load gives {a.dtype} {a.shape} {a.reshape(-1)[:8]}, "
                             f"expected {dtype} {shape} {vals[:8]}")
            elif p[0] in ("st", "meta"):
                path = p[1]
                if path not in st_cache:
                    st_cache[path] = st_read(path)
                tensors, meta, keys = st_cache[path]
                if p[0] == "meta":
                    if meta.get(p[2]) != p[3]:
                        sys.exit(f"{path}: metadata {p[2]} = {meta.get(p[2])!r}, expected {p[3]!r}")
                else:
                    key, dtype, nd = p[2], p[3], int(p[4])
                    shape = tuple(int(x) for x in p[5 : 5 + nd])
                    vals = p[6 + nd :]
                    a = tensors.get(key)
                    if a is None or a.dtype != np.dtype(ST_NP[dtype]) or a.shape != shape or not same(a, vals):
                        sys.exit(f"{path}: key {key}: got {None if a is None else (a.dtype, a.shape)}, "
                                 f"expected {dtype} {shape}")
            else:
                sys.exit(f"bad manifest line: {raw!r}")
            n += 1
    print(f"ok {n}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        generate()
