# Every syntax form, with the output Python prints.
a, b = 1, 2
print(a, b)  # expect: 1 2
a, b = b, a
print(a, b)  # expect: 2 1
first, *rest = [1, 2, 3]
print(first, rest)  # expect: 1 [2, 3]
x = y = 5
print(x + y)  # expect: 10
n = 10
n += 5
n -= 1
n *= 2
n //= 3
n %= 5
print(n)  # expect: 4
xs = [1]
alias = xs
xs += [2]
print(alias)  # expect: [1, 2]
print(7 // 2, -7 // 2, 7 % 3, -7 % 3, 7.5 // 2, -7.5 % 2)  # expect: 3 -4 1 2 3.0 0.5
print(2 ** 10, 2 ** -1, 2.0 ** 0.5)  # expect: 1024 0.5 1.4142135623730951
print(1 / 4, 3 / 3, 10 / 4)  # expect: 0.25 1.0 2.5
print(-2 ** 2, (-2) ** 2, not 1, ~5)  # expect: -4 4 False -6
print(1 < 2 < 3, 1 < 3 < 2, 1 == 1.0, 3 != 3)  # expect: True False True False
print(0 or "x", 1 and 0, None or [], "a" and "b")  # expect: x 0 [] b
print(3 if 1 > 0 else 4, 3 if 0 else 4)  # expect: 3 4
print(5 & 3, 5 | 3, True & False)  # expect: 1 7 False
print(1 in [1, 2], 3 not in [1, 2], "ell" in "hello", 2 in {2: 0})  # expect: True True True True
print(None is None, [] is [], None is not None)  # expect: True False False
print(1 is not None)  # a literal with "is": CPython's SyntaxWarning, then the value
# expect: tests/session/scripts/syntax.py:31: SyntaxWarning: "is not" with a literal. Did you mean "!="?
# expect:   print(1 is not None) ...
# expect: True
print([i * i for i in range(5) if i % 2 == 0])  # expect: [0, 4, 16]
print([(i, j) for i in range(2) for j in range(2)])  # expect: [(0, 0), (0, 1), (1, 0), (1, 1)]
print({k: v for k, v in zip("ab", [1, 2])})  # expect: {'a': 1, 'b': 2}
print(sum(i for i in range(4)))  # expect: 6
i = 99
_ = [i for i in range(3)]
print(i)  # expect: 99
if n > 3:
    print("big")
elif n > 1:
    print("mid")
else:
    print("small")
# expect: big
k = 0
while True:
    k += 1
    if k < 3:
        continue
    if k > 5:
        break
print(k)  # expect: 6
for i in range(3):
    pass
else:
    print("loop done", i)
# expect: loop done 2
for i in range(3):
    if i == 1:
        break
else:
    print("not printed")
w = 0
while w < 2:
    w += 1
else:
    print("while done")
# expect: while done
def add(a, b=10, *args, scale=1, **kw):
    return (a + b + sum(args)) * scale, kw
print(add(1))  # expect: (11, {})
print(add(1, 2, 3, 4, scale=2, tag="t"))  # expect: (20, {'tag': 't'})
print(add(b=1, a=2))  # expect: (3, {})
def counter():
    count = 0
    def inc():
        nonlocal_like = count + 1
        return nonlocal_like
    return inc
print(counter()())  # expect: 1
def make_adders():
    return [lambda x, n=n: x + n for n in range(3)]
print([f(10) for f in make_adders()])  # expect: [10, 11, 12]
late = [lambda: i for i in range(3)]
print([f() for f in late])  # expect: [2, 2, 2]
square = lambda v: v * v
print(square(7), (lambda: "no args")())  # expect: 49 no args
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
print(fact(20))  # expect: 2432902008176640000
g = 1
def set_global():
    global g
    g = 2
set_global()
print(g)  # expect: 2
def shadow():
    g = 3
    return g
print(shadow(), g)  # expect: 3 2
d = {"a": 1, "b": 2}
del d["a"]
print(d)  # expect: {'b': 2}
lst = [0, 1, 2, 3, 4]
del lst[1:3]
print(lst)  # expect: [0, 3, 4]
lst[0] = 9
lst[1:2] = [7, 7, 7]
print(lst)  # expect: [9, 7, 7, 7, 4]
print(lst[::-1], lst[1:4:2], lst[-1], lst[-2:])  # expect: [4, 7, 7, 7, 9] [7, 7] 4 [7, 4]
t = (1,)
print(t, (), (1, 2), len(t))  # expect: (1,) () (1, 2) 1
assert 1 + 1 == 2
assert 1 > 2, "math is broken"  # expect error: AssertionError: math is broken
with no_grad():
    print(is_grad_enabled())  # expect: False
print(is_grad_enabled())  # expect: True
x = 10
del x
x  # expect error: NameError: name 'x' is not defined
print(f"{3.14159:.2f}|{42:>5}|{'ab':<4}|{1234567:,}|{0.25:%}|{1e-5:e}|{7:03d}|{'s'!r}|{5:x}")  # expect: 3.14|   42|ab  |1,234,567|25.000000%|1.000000e-05|007|'s'|5
val = 3
print(f"{val=}, {val * 2 = }, {{braces}}")  # expect: val=3, val * 2 = 6, {braces}
width = 6
print(f"[{val:>{width}}]")  # expect: [     3]
print(1_000, 0x10, 0o10, 0b10, 1e3, .5, 5.)  # expect: 1000 16 8 2 1000.0 0.5 5.0
print("tab\tq'uote", 'a"b', "\u00e9\x41")  # expect: tab	q'uote a"b éA
print(repr("it's"), repr('say "hi"'), repr("nl\n"))  # expect: "it's" 'say "hi"' 'nl\n'
3 + 4  # expect: 7
"text"  # expect: 'text'
None
