# A first smoke test of the runtime.
x = 1 + 2
x  # expect: 3
print("hi", x)  # expect: hi 3
s = 0
for i in range(10):
    s = s + i
print(s)  # expect: 45
1 / 0  # expect error: ZeroDivisionError: division by zero
[1, 2] + [3]  # expect: [1, 2, 3]
