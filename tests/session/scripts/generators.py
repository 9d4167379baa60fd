# Generators: yield, yield from, send, close, return values, lazy
# generator expressions, map and filter as lazy iterators.
def count(n):
    i = 0
    while i < n:
        yield i
        i += 1
    return "done"
g = count(3)
print(next(g), next(g), next(g), next(g, "end"))  # expect: 0 1 2 end
print(list(count(4)), sum(count(5)))  # expect: [0, 1, 2, 3] 10
repr(count(1)).startswith("<generator object count at 0x")  # expect: True
repr(x for x in [1]).startswith("<generator object <genexpr> at 0x")  # expect: True
repr(map(str, [1])).startswith("<map object at 0x")  # expect: True
def outer():
    r = yield from count(2)
    yield r
print(list(outer()))  # expect: [0, 1, 'done']
def acc():
    total = 0
    while True:
        x = yield total
        total += x
a = acc()
print(next(a), a.send(5), a.send(7))  # expect: 0 5 12
def fin():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
f = fin()
print(next(f))  # expect: 1
f.close()  # expect: cleanup
next(count(0))  # expect error: StopIteration
def bad():
    yield 1
    1 / 0
list(bad())  # expect error: ZeroDivisionError: division by zero
# expect traceback: line 38, in bad
g = count(2)
print(list(g), list(g))  # expect: [0, 1] []
seen = []
m = map(lambda v: seen.append(v) or v * 10, [1, 2, 3])
print(len(seen))  # expect: 0
print(next(m), seen)  # expect: 10 [1]
print(list(filter(None, [0, 1, 2, 0])), list(filter(lambda v: v > 1, range(4))))  # expect: [1, 2] [2, 3]
print(sum(x * x for x in range(10 ** 6)))  # expect: 333332833333500000
yield 1  # expect error: SyntaxError: 'yield' outside function
