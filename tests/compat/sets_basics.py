s = {3, 1, 2}
s.add(2); s.add(5)
print(sorted(s), len(s), 3 in s, 9 in s, set(), sorted(set("hello")))
t = {x % 3 for x in range(10)}
print(sorted(t), sorted(s | t), sorted(s & t), sorted(s - t), {1, 2} <= {1, 2, 3}, {1} == {1})
chars = sorted(list(set(''.join(["ab", "bc"]))))
print(chars)
