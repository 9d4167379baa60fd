class Point:
    dims = 2
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __repr__(self):
        return f"Point({self.x}, {self.y})"
    def __add__(self, o):
        return Point(self.x + o.x, self.y + o.y)
    def __eq__(self, o):
        return self.x == o.x and self.y == o.y
    def norm2(self):
        return self.x ** 2 + self.y ** 2
    @property
    def first(self):
        return self.x
    @staticmethod
    def origin():
        return Point(0, 0)
    @classmethod
    def make(cls, v):
        return cls(v, v)

class P3(Point):
    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z
    def norm2(self):
        return super().norm2() + self.z ** 2

p = Point(1, 2)
print(p, p + Point(3, 4), p == Point(1, 2), p != Point(1, 2), p.norm2(), p.first, Point.dims)
print(Point.origin(), Point.make(3), P3(1, 2, 3).norm2(), isinstance(P3(1,2,3), Point), issubclass(P3, Point))
print(type(p), type(p).__name__, Point)
class Counter:
    def __init__(self, n): self.n = n
    def __len__(self): return self.n
    def __getitem__(self, i):
        if i >= self.n: raise IndexError("out")
        return i * 10
    def __iter__(self):
        self.i = 0
        return self
    def __next__(self):
        if self.i >= self.n: raise StopIteration
        self.i += 1
        return self.i
    def __call__(self, k): return k + self.n
c = Counter(3)
print(len(c), c[1], list(c), c(10), [x for x in c])
try:
    c[5]
except IndexError as e:
    print("caught", e, repr(e), type(e))
class MyError(Exception):
    pass
try:
    raise MyError("bad thing")
except (ValueError, MyError) as e:
    print("got", e, e.args)
try:
    try:
        1 / 0
    finally:
        print("finally")
except ZeroDivisionError as e:
    print("zde", e)
def f():
    try:
        return 1
    finally:
        print("f finally")
print(f())
try:
    int("x")
except Exception as e:
    print(type(e).__name__, e)
else:
    print("no")
try:
    pass
except Exception:
    pass
else:
    print("else ran")
try:
    raise ValueError
except ValueError as e:
    print(repr(e))
try:
    raise MyError("final")
except MyError as e:
    print("final:", e)
