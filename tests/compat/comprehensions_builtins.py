# Comprehensions and the builtins scripts reach for.
xs = [3, 1, 4, 1, 5, 9, 2, 6]
print([x * x for x in xs if x % 2], {x: x % 3 for x in xs}, sorted({x % 4 for x in xs}))
print(sum(xs), min(xs), max(xs), sorted(xs, reverse=True)[:3], sorted(xs, key=lambda v: -v)[0])
print(list(map(str, xs[:3])), list(filter(lambda v: v > 3, xs)), list(reversed(xs[:3])))
print(any(x > 8 for x in xs), all(x > 0 for x in xs), divmod(17, 5), abs(-2.5), round(2.675, 2))
print(list(zip("abc", range(3))), list(enumerate("xy", start=1)), dict(zip("ab", [1, 2])))
print(chr(97), ord("z"), hex(255), int("1010", 2), bin(5) if False else "-", hash(1) == hash(1.0))
pairs = [(2, "b"), (1, "a"), (2, "a")]
print(sorted(pairs), max(pairs, key=lambda p: p[1]))
matrix = [[1, 2, 3], [4, 5, 6]]
print([list(col) for col in zip(*matrix)], [v for row in matrix for v in row])
def f(*args, **kwargs):
    return len(args), sorted(kwargs)
print(f(1, 2, a=3, b=4), f(*[1, 2, 3], **{"z": 1}))
def kwonly(a, *, scale=2):
    return a * scale
print(kwonly(3), kwonly(3, scale=10))
total = 0
def add(n):
    global total
    total += n
add(5); add(6)
print(total)
def counter():
    count = 0
    def inc():
        nonlocal count
        count += 1
        return count
    return inc
c = counter()
c(); c()
print(c())
