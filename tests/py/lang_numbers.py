# Python's numbers as CPython has them: big integers, bit operators,
# complex numbers, fractions and decimals (the hand-written interpreter
# lacked all of these).
import cmath
import math
from decimal import Decimal, getcontext
from fractions import Fraction

print(2 ** 100, -(2 ** 100) // 7, (2 ** 100) % 97)
print(3 ^ 5, 6 & 3, 6 | 3, ~5, 1 << 200, (1 << 200) >> 190)
print(math.factorial(30), math.comb(60, 30), math.gcd(2 ** 64, 6 ** 20))
print(int("123456789" * 5) * 10 ** 3)
print(hex(2 ** 70), bin(37), oct(64), (255).to_bytes(2, "big"), int.from_bytes(b"\x01\x00", "little"))
z = 3 + 4j
print(z, abs(z), z.conjugate(), z * 2j, (1j) ** 2, complex("1-2j"))
print(cmath.sqrt(-1), cmath.exp(1j * math.pi).real, cmath.phase(-1 + 0j))
print(Fraction(1, 3) + Fraction(1, 6), Fraction("0.125"), Fraction(22, 7).limit_denominator(5))
getcontext().prec = 30
print(Decimal(1) / Decimal(7), Decimal("0.1") + Decimal("0.2"))
print(round(2.675, 2), round(0.5), round(1.5), divmod(-7, 2), pow(3, -1, 7))
print(float("inf") > 10 ** 400, 10 ** 400 > 1e308, math.isqrt(10 ** 40 + 1))
print(f"{2**64:,} {3.14159:.2e} {255:#x} {0.25:%} {7:08.3f}")
try:
    float(10 ** 400)
except OverflowError as e:
    print("OverflowError:", e)
try:
    1 / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
