# The formatting training logs use.
loss, step, lr = 2.345678, 150, 3e-4
print(f"step {step:5d} | loss {loss:.4f} | lr {lr:.2e}")
print("step %d: loss %.3f" % (step, loss))
print("{:>8} {:<6}|".format("right", "left"), "{0}-{1}-{0}".format("a", "b"))
print(f"{0.123456:.1%}", f"{1234567:,}", f"{42:08.3f}", f"{'x':^5}|")
names = ["emma", "olivia"]
print(", ".join(f"{i}:{n}" for i, n in enumerate(names)))
print(f"{step=}", repr("quote's"), str(1e-5), 1e16, 0.1 + 0.2)
print("%-6s|%6s|" % ("ab", "cd"), "%5.1f%%" % 12.345)
print("a,b,,c".split(","), "  x y  ".split(), "a-b".replace("-", "+"), "Hello".lower().upper())
print("abc"[::-1], "abcdef"[1:4], len("héllo"), "é".encode if False else "ok")
