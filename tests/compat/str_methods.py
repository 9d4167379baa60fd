# str methods that data-preparation code reaches for (tokenizers, file names).
tests = ["", "abc", "ABC", "aBc", "a1", "1a", "_x", "Hello World", "a.b.c", "..a..", "  a  b  c  ", "a,b,,c,", ",a", "names.txt", "module.fc"]
for t in tests:
    print(repr(t), t.isascii(), t.islower(), t.isupper(), t.isidentifier(), t.isdecimal(), t.isnumeric(), t.swapcase())
    print(t.partition('.'), t.rpartition('.'), t.partition(','), t.rpartition(','))
    print(t.rsplit(), t.rsplit(None, 1), t.rsplit('.', 1), t.rsplit(',', 2), t.rsplit(',', 0), t.rsplit('..', 1))
    print(t.removeprefix('module.'), t.removesuffix('.txt'), t.removeprefix(''), t.rfind('b'))
print("a.b.c".rindex("."))
try:
    "abc".rindex("z")
except ValueError as e:
    print("ValueError", e)
try:
    "abc".partition("")
except ValueError as e:
    print("ValueError", e)
