from collections import Counter, defaultdict, OrderedDict
c = Counter("abracadabra")
print(c.most_common(2), c["z"], len(c))
d = defaultdict(list)
d["x"].append(1); d["x"].append(2); d["y"]
print(dict(d), sorted(d.keys()))
dd = defaultdict(int)
for w in "a b a c a b".split():
    dd[w] += 1
print(dd["a"], dd["q"], len(dd))
o = OrderedDict(a=1, b=2)
print(list(o.items()))
print(isinstance(c, dict))
