# Syntax the hand-written interpreter did not parse: several context
# managers in one with, structural pattern matching, the walrus, star
# expressions, keyword-only and positional-only parameters, nonlocal,
# decorators with arguments, async generators.
import asyncio
import contextlib


class Res:
    def __init__(self, name, log):
        self.name, self.log = name, log

    def __enter__(self):
        self.log.append(f"enter {self.name}")
        return self

    def __exit__(self, *exc):
        self.log.append(f"exit {self.name}")
        return False


log = []
with Res("A", log) as a, Res("B", log) as b:
    log.append(a.name + b.name)
print(log)

with (Res("C", log) as c,
      Res("D", log) as d):
    pass
print(log[-4:])


def describe(x):
    match x:
        case {"kind": "linear", "in": int(i), "out": int(o)}:
            return f"Linear({i}, {o})"
        case [first, *rest]:
            return f"list starting {first} and {len(rest)} more"
        case int() | float() as n if n < 0:
            return "negative"
        case str(s):
            return s.upper()
        case _:
            return "other"


for v in [{"kind": "linear", "in": 2, "out": 3}, [1, 2, 3], -4, "relu", None]:
    print(describe(v))

data = [3, 1, 4, 1, 5, 9, 2, 6]
if (n := len(data)) > 5:
    print("long list", n)
first, *middle, last = data
print(first, middle, last, [*data[:2], *"ab"], {**{"a": 1}, "b": 2})


def f(a, b, /, c, *, d=4, **kw):
    return a + b + c + d + sum(kw.values())


print(f(1, 2, 3), f(1, 2, c=3, d=5, e=6))


def counter():
    n = 0

    def inc():
        nonlocal n
        n += 1
        return n
    return inc


inc = counter()
inc()
print(inc())


def repeat(times):
    def deco(fn):
        def wrapper(*args):
            return [fn(*args) for _ in range(times)]
        return wrapper
    return deco


@repeat(3)
def hello(name):
    return f"hi {name}"


print(hello("nndb"))


async def agen(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i * i


async def main():
    return [x async for x in agen(5)]


print(asyncio.run(main()))

with contextlib.suppress(KeyError):
    {}["missing"]
print("suppressed")

try:
    raise ExceptionGroup("several", [ValueError("v"), TypeError("t")])
except* ValueError as eg:
    print("caught", [str(e) for e in eg.exceptions])
except* TypeError as eg:
    print("and", [str(e) for e in eg.exceptions])

print(type(...).__name__, (1).__class__.__mro__)
