import math, time, sys, os, json
import os.path
from math import sqrt, pi
print(math.sqrt(2), sqrt(16), pi, math.log(8, 2), math.floor(2.7), math.ceil(-1.2), math.isclose(0.1 + 0.2, 0.3))
print(math.exp(1) == math.e, math.inf, -math.inf, math.log10(1000), math.comb(10, 3), math.prod([1, 2, 3, 4]), math.factorial(10))
t0 = time.time(); t1 = time.perf_counter()
print(type(t0).__name__, time.perf_counter() >= t1)
print(len(sys.argv), type(sys.argv), sys.argv)
print(os.path.join("a", "b", "c.txt"), os.path.basename("/x/y/z.py"), os.path.dirname("/x/y/z.py"), os.path.splitext("model.pt"))
os.makedirs("build_tmp_std/sub", exist_ok=True)
with open("build_tmp_std/sub/names.txt", "w") as f:
    f.write("emma\nolivia\nava\n")
    print("isabella", file=f)
print(os.path.exists("build_tmp_std/sub/names.txt"), os.path.isdir("build_tmp_std"), sorted(os.listdir("build_tmp_std/sub")))
words = open("build_tmp_std/sub/names.txt", "r").read().splitlines()
print(words, len(words))
with open("build_tmp_std/sub/names.txt") as f:
    for line in f:
        print(repr(line))
with open("build_tmp_std/sub/names.txt") as f:
    print(f.readline(), f.readlines())
print(f.closed)
d = {"a": 1, "b": [1, 2.5, None, True], "c": {"x": "y\n"}}
s = json.dumps(d)
print(s)
print(json.loads(s) == d, json.dumps(d, indent=2))
with open("build_tmp_std/cfg.json", "w") as f:
    json.dump(d, f)
with open("build_tmp_std/cfg.json") as f:
    print(json.load(f))
print(os.environ.get("NO_SUCH_VAR_11", "dflt"))
try:
    open("build_tmp_std/missing.txt")
except FileNotFoundError as e:
    print("missing:", e)
try:
    json.loads("{bad")
except ValueError as e:
    print("json error")
print("to stderr", file=sys.stderr)
