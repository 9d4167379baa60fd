# Every error class with its message, and tracebacks through def frames.
undefined_name  # expect error: NameError: name 'undefined_name' is not defined
1 + "a"  # expect error: TypeError: unsupported operand type(s) for +: 'int' and 'str'
1 < "a"  # expect error: TypeError: '<' not supported between instances of 'int' and 'str'
len(5)  # expect error: TypeError: object of type 'int' has no len()
# CPython's compiler warns first about calling or subscripting a literal.
None()
# expect error: TypeError: 'NoneType' object is not callable
# expect: tests/session/scripts/errors.py:7: SyntaxWarning: 'NoneType' object is not callable; perhaps you missed a comma?
# expect:   None()
5[0]
# expect error: TypeError: 'int' object is not subscriptable
# expect: tests/session/scripts/errors.py:11: SyntaxWarning: 'int' object is not subscriptable; perhaps you missed a comma?
# expect:   5[0]
int("x")  # expect error: ValueError: invalid literal for int() with base 10: 'x'
float("x")  # expect error: ValueError: could not convert string to float: 'x'
a, b = [1, 2, 3]  # expect error: ValueError: too many values to unpack (expected 2)
a, b, c = [1, 2]  # expect error: ValueError: not enough values to unpack (expected 3, got 2)
[1][5]  # expect error: IndexError: list index out of range
"ab"[9]  # expect error: IndexError: string index out of range
[].pop()  # expect error: IndexError: pop from empty list
{}["k"]  # expect error: KeyError: 'k'
"s".nope  # expect error: AttributeError: 'str' object has no attribute 'nope'
1 / 0  # expect error: ZeroDivisionError: division by zero
1 // 0  # expect error: ZeroDivisionError: integer division or modulo by zero
1 % 0  # expect error: ZeroDivisionError: integer modulo by zero
1.0 / 0  # expect error: ZeroDivisionError: float division by zero
# Python's ints have no size limit; a float's range has one.
2 ** 64  # expect: 18446744073709551616
9223372036854775807 + 1  # expect: 9223372036854775808
2.0 ** 10000  # expect error: OverflowError: (34, 'Numerical result out of range')
assert False  # expect error: AssertionError:
{[1]: 2}  # expect error: TypeError: unhashable type: 'list'
[1, 2].remove(3)  # expect error: ValueError: list.remove(x): x not in list
[1].index(7)  # expect error: ValueError: 7 is not in list
max([])  # expect error: ValueError: max() arg is an empty sequence
def f(a, b=1):
    return a + b
f()  # expect error: TypeError: f() missing 1 required positional argument: 'a'
f(1, 2, 3)  # expect error: TypeError: f() takes from 1 to 2 positional arguments but 3 were given
f(1, c=2)  # expect error: TypeError: f() got an unexpected keyword argument 'c'
f(1, a=2)  # expect error: TypeError: f() got multiple values for argument 'a'
def g(x, y, z):
    return x
g(1)  # expect error: TypeError: g() missing 2 required positional arguments: 'y' and 'z'
def recurse(n):
    return recurse(n + 1)
recurse(0)  # expect error: RecursionError: maximum recursion depth exceeded
def uses_later():
    v = later
    later = 1
uses_later()  # expect error: UnboundLocalError: cannot access local variable 'later' where it is not associated with a value
for x in 5:  # expect error: TypeError: 'int' object is not iterable
    pass
with 5:  # expect error: TypeError: 'int' object does not support the context manager protocol
    pass
def inner(v):
    return v + "x"
def outer(v):
    y = inner(v)
    return y
outer(1)
# expect error: TypeError: unsupported operand type(s) for +: 'int' and 'str'
# expect traceback: File "tests/session/scripts/errors.py", line 62, in <module>
# expect traceback: File "tests/session/scripts/errors.py", line 60, in outer
# expect traceback: File "tests/session/scripts/errors.py", line 58, in inner
# expect traceback: return v + "x"
# expect traceback: ^
print("still running")  # expect: still running
x = = 1  # expect error: SyntaxError: invalid syntax
# expect traceback: File "tests/session/scripts/errors.py", line 70
"%q" % 1  # expect error: ValueError: unsupported format character 'q'
f"{1:d}{'s':d}"  # expect error: ValueError: Unknown format code 'd' for object of type 'str'
exit()  # expect error: SystemExit: None
%nosuch  # expect error: UsageError: Line magic function `%nosuch` not found.
%break no-such-thing  # expect error: UsageError: 'no-such-thing' is not a breakpoint spec: a breakpoint is any of: an op name (matmul, log, cross_entropy), a module path (model.2, model.blocks.*.attn), forward, backward, nan, line N, FILE:LINE, step N; then optionally `if CONDITION`
