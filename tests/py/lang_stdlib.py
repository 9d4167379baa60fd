# The standard library modules course code imports, as CPython ships them.
import abc
import bisect
import collections
import copy
import csv
import dataclasses
import datetime
import enum
import functools
import gzip
import hashlib
import heapq
import inspect
import io
import itertools
import json
import logging
import math
import operator
import os
import pathlib
import pickle
import random
import re
import statistics
import string
import struct
import sys
import tempfile
import textwrap
import typing
import zipfile

print(re.findall(r"(\w+)=(\d+)", "lr=3 steps=200 bs=64"))
print(list(itertools.accumulate([1, 2, 3, 4])), list(itertools.combinations("abc", 2)))
print(list(itertools.islice(itertools.cycle("xy"), 5)), list(itertools.product([0, 1], repeat=2)))
print(functools.reduce(operator.mul, range(1, 8)), functools.partial(pow, 2)(10))


@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(90), fib.cache_info().hits)
T = typing.TypeVar("T")


def first(xs: typing.List[T]) -> typing.Optional[T]:
    return xs[0] if xs else None


print(first([5, 6]), typing.get_type_hints(first)["return"])
p = pathlib.PurePosixPath("/data/mnist/train.csv")
print(p.stem, p.suffix, p.parent.name, p.with_suffix(".npz"))
obj = {"w": [1.5, 2.5], "name": "mlp", "layers": (2, 64, 3)}
print(pickle.loads(pickle.dumps(obj)) == obj, copy.deepcopy(obj) is not obj)
h = [5, 1, 4, 2]
heapq.heapify(h)
print(heapq.heappop(h), heapq.nsmallest(2, [9, 3, 7, 1]), bisect.bisect([1, 3, 5], 4))
print(string.ascii_lowercase[:5], string.Template("$x + $y").substitute(x=1, y=2))
print(datetime.date(2024, 2, 28) + datetime.timedelta(days=2), datetime.datetime(2020, 1, 1).isoformat())
buf = io.StringIO()
w = csv.writer(buf)
w.writerows([["epoch", "loss"], [1, 0.5], [2, 0.25]])
print(list(csv.DictReader(io.StringIO(buf.getvalue()))))
print(gzip.decompress(gzip.compress(b"nndb" * 10)) == b"nndb" * 10)
print(struct.pack("<if", 7, 1.5).hex(), struct.unpack("<h", b"\xff\xff"))
print(inspect.signature(first), inspect.isfunction(first))


@dataclasses.dataclass
class Config:
    n_embd: int = 64
    dropout: float = 0.1
    tags: list = dataclasses.field(default_factory=list)


print(Config(), dataclasses.asdict(Config(n_embd=8)))


class Color(enum.Enum):
    RED = 1
    GREEN = 2


print(Color.RED, Color(2), [c.name for c in Color])


class Base(abc.ABC):
    @abc.abstractmethod
    def run(self):
        ...


try:
    Base()
except TypeError as e:
    print("TypeError:", e)
c = collections.Counter("mississippi")
print(c.most_common(2), collections.OrderedDict(a=1), collections.deque([1, 2, 3], maxlen=2))
dd = collections.defaultdict(list)
dd["x"].append(1)
print(dict(dd), collections.namedtuple("P", "x y")(1, 2))
print(json.dumps({"b": [1, 2.5, None], "a": True}, sort_keys=True))
random.seed(0)
print(random.random(), random.randint(1, 100), random.choice("abc"), random.sample(range(10), 3))
print(statistics.mean([1, 2, 3, 4]), statistics.stdev([1, 2, 3, 4]), math.isclose(0.1 + 0.2, 0.3))
print(hashlib.sha256(b"nndb").hexdigest()[:16], textwrap.fill("a " * 30, width=20).count("\n"))
with tempfile.TemporaryDirectory() as d:
    path = os.path.join(d, "x.zip")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("a.txt", "hello")
    with zipfile.ZipFile(path) as z:
        print(z.namelist(), z.read("a.txt"))
    pathlib.Path(d, "f.txt").write_text("line1\nline2\n")
    print(pathlib.Path(d, "f.txt").read_text().splitlines())
logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(levelname)s:%(name)s:%(message)s")
logging.getLogger("train").info("step %d", 3)
print(sys.version_info[:2] >= (3, 11), __name__)
