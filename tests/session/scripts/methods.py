# str, list and dict methods.
s = "  Hello, World  "
print(s.strip(), s.lstrip(), s.rstrip() + "|")  # expect: Hello, World Hello, World     Hello, World|
print("a,b,,c".split(","), "a b  c".split(), "a b c".split(" ", 1))  # expect: ['a', 'b', '', 'c'] ['a', 'b', 'c'] ['a', 'b c']
print("-".join(["x", "y", "z"]), "".join([]) == "")  # expect: x-y-z True
print("abc".upper(), "ABC".lower(), "hello world".title(), "hi".capitalize())  # expect: ABC abc Hello World Hi
print("conv.weight".startswith("conv"), "a.nn".endswith((".py", ".nn")), "ab".startswith("b"))  # expect: True True False
print("aaa".replace("a", "b", 2), "banana".find("an"), "banana".rfind("an"), "x".find("y"), "banana".count("a"))  # expect: bba 1 3 -1 3
print("{} + {} = {}".format(1, 2, 3), "{0}{0}".format("ab"), "{name:>5}".format(name="x"), "{:.3f}".format(2 / 3))  # expect: 1 + 2 = 3 abab     x 0.667
print("%d items, %.2f loss, %s, %5s|" % (3, 0.12345, "ok", "r"))  # expect: 3 items, 0.12 loss, ok,     r|
print("42".isdigit(), "ab".isalpha(), " ".isspace(), "a1".isalnum(), "x".zfill(3), "ab".center(6, "*"))  # expect: True True True True 00x **ab**
print("héllo"[1], "héllo"[-1], "héllo"[1:3], "abc"[::-1], "a\nb".splitlines())  # expect: é o él cba ['a', 'b']
print("ab" * 3, "a" + "b", "x" < "y", "abc" == "abc")  # expect: ababab ab True True
print([c for c in "hé"])  # expect: ['h', 'é']
xs = [3, 1, 2]
xs.append(4)
xs.extend([5, 6])
xs.insert(0, 0)
print(str(xs), xs.pop(), xs.pop(0), xs)  # expect: [0, 3, 1, 2, 4, 5, 6] 6 0 [3, 1, 2, 4, 5]
xs.remove(4)
xs.sort()
print(xs, xs.index(3), xs.count(1))  # expect: [1, 2, 3, 5] 2 1
xs.sort(key=lambda v: -v)
print(xs)  # expect: [5, 3, 2, 1]
xs.sort(reverse=True)
xs.reverse()
ys = xs.copy()
xs.clear()
print(xs, ys, [1, 2] * 2, [[0] * 2] * 2)  # expect: [] [1, 2, 3, 5] [1, 2, 1, 2] [[0, 0], [0, 0]]
print([1, 2] == [1, 2], [1, 2] < [1, 3], (1, 2) < (1, 2, 0), [1] != [1])  # expect: True True True False
print((1, 2, 1).count(1), (1, 2).index(2))  # expect: 2 1
d = {"b": 1, "a": 2}
d["c"] = 3
print(d, list(d), d.keys(), d.values(), d.items())  # expect: {'b': 1, 'a': 2, 'c': 3} ['b', 'a', 'c'] dict_keys(['b', 'a', 'c']) dict_values([1, 2, 3]) dict_items([('b', 1), ('a', 2), ('c', 3)])
print(d.get("a"), d.get("z"), d.get("z", 0), "a" in d, "z" in d, len(d))  # expect: 2 None 0 True False 3
print(d.pop("b"), d.pop("zz", "gone"), d.setdefault("a", 9), d.setdefault("n", []), d)  # expect: 1 gone 2 [] {'a': 2, 'c': 3, 'n': []}
d.update({"c": 30}, e=5)
print(str(d), d.copy() == d, d.popitem(), d)  # expect: {'a': 2, 'c': 30, 'n': [], 'e': 5} True ('e', 5) {'a': 2, 'c': 30, 'n': []}
for k, v in {"x": 1, "y": 2}.items():
    print(k, v)
# expect: x 1
# expect: y 2
print({1: "int", 1.0: "float", (1, 2): "tuple", None: 0, True: "t"})  # expect: {1: 't', (1, 2): 'tuple', None: 0}
d.clear()
print(d)  # expect: {}
