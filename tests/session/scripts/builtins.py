# The core builtins.
print(len("héllo"), len([1, 2]), len({}), len(range(10)))  # expect: 5 2 0 10
print(list(range(3)), list(range(1, 10, 4)), list(range(5, 0, -2)))  # expect: [0, 1, 2] [1, 5, 9] [5, 3, 1]
print(range(3), range(0, 10, 2), len(range(10, 0, -3)))  # expect: range(0, 3) range(0, 10, 2) 4
print(list(enumerate("ab", start=1)), list(zip([1, 2, 3], "xy")))  # expect: [(1, 'a'), (2, 'b')] [(1, 'x'), (2, 'y')]
print(sum([1, 2, 3]), sum([0.5, 0.25]), sum([[1], [2]], []))  # expect: 6 0.75 [1, 2]
print(min(3, 1, 2), max([1, 5, 2]), max("abc", key=ord), min([], default=0))  # expect: 1 5 c 0
print(abs(-3), abs(-2.5), abs(True))  # expect: 3 2.5 1
print(round(2.5), round(3.5), round(2.675, 2), round(1234, -2), round(-0.5))  # expect: 2 4 2.67 1200 0
print(int("42"), int(" -7 "), int(3.9), int(-3.9), int("ff", 16), int(True))  # expect: 42 -7 3 -3 255 1
print(float("1e-3"), float("inf"), float(" 2 "), float(3))  # expect: 0.001 inf 2.0 3.0
print(str(1.0), str(None), str([1, "a"]), str(True))  # expect: 1.0 None [1, 'a'] True
print(bool(0), bool(""), bool([0]), bool(None), bool(0.0), bool("0"))  # expect: False False True False False True
print(list("ab"), tuple([1, 2]), dict(a=1), dict([("k", 2)]))  # expect: ['a', 'b'] (1, 2) {'a': 1} {'k': 2}
print(sorted([3, 1, 2]), sorted("bca", reverse=True), sorted([(2, "b"), (1, "z")], key=lambda p: p[1]))  # expect: [1, 2, 3] ['c', 'b', 'a'] [(2, 'b'), (1, 'z')]
print(list(reversed([1, 2, 3])), list(reversed(range(3))), list(reversed("ab")))  # expect: [3, 2, 1] [2, 1, 0] ['b', 'a']
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, int), isinstance("s", (int, str)))  # expect: True True False True
print(type(1), type(1.5), type("s"), type([]), type(None))  # expect: <class 'int'> <class 'float'> <class 'str'> <class 'list'> <class 'NoneType'>
print(type(1) == int, type(2.0) is float, type([]) == list, type(1) == float)  # expect: True True True False
print(any([0, 0, 1]), all([1, 1, 0]), any([]), all([]))  # expect: True False False True
print(repr(1.0), repr("x"), repr([1.5, None]))  # expect: 1.0 'x' [1.5, None]
print(divmod(7, 2), chr(65), ord("a"), format(0.5, ".1%"))  # expect: (3, 1) A 97 50.0%
print(callable(print), callable(3), hasattr("s", "upper"), getattr([], "nope", "dflt"))  # expect: True False True dflt
print("a", "b", sep="-", end="!\n")  # expect: a-b!
print()  # expect:
v = input("name? "); print(v)  # expect: name? typed text
print(dir([])[:3], dir([])[-3:])  # expect: ['__add__', '__class__', '__class_getitem__'] ['remove', 'reverse', 'sort']
help(len)
# expect: Help on built-in function len in module builtins:
# expect:
# expect: len(obj, /)
# expect:     Return the number of items in a container.
# expect:
manual_seed(0)  # expect: <torch._C.Generator at ...
_ = set_grad_enabled(False)
print(is_grad_enabled())  # expect: False
_ = set_grad_enabled(True)
print(is_grad_enabled())  # expect: True
with set_grad_enabled(False):
    print(is_grad_enabled())  # expect: False
print(is_grad_enabled())  # expect: True
print(0.1 + 0.2, 1e16, 1e-7, 123456789.0, -0.0, 2.0 ** 100)  # expect: 0.30000000000000004 1e+16 1e-07 123456789.0 -0.0 1.2676506002282294e+30
print(float("nan"), -float("inf"), 1e308 * 10)  # expect: nan -inf inf
print(10 ** 18, -2 ** 62 * 2)  # expect: 1000000000000000000 -9223372036854775808
