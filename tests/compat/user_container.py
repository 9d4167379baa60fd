# A user class that behaves like a container (dunders) and a callable.
class Vocab:
    def __init__(self, words):
        self.itos = sorted(set(words))
        self.stoi = {w: i for i, w in enumerate(self.itos)}

    def __len__(self):
        return len(self.itos)

    def __getitem__(self, key):
        if isinstance(key, int):
            return self.itos[key]
        return self.stoi[key]

    def __contains__(self, w):
        return w in self.stoi

    def __iter__(self):
        return iter(self.itos)

    def __call__(self, sentence):
        return [self.stoi[w] for w in sentence.split()]

    def __repr__(self):
        return f"Vocab(size={len(self)})"

    def __eq__(self, other):
        return isinstance(other, Vocab) and self.itos == other.itos


v = Vocab("the cat sat on the mat".split())
print(v, len(v), v[0], v["sat"], "cat" in v, "dog" in v, list(v))
print(v("the cat"), v == Vocab(["mat", "on", "sat", "the", "cat"]), v != Vocab([]))
print(bool(v), bool(Vocab([])), sorted(v)[-1])
try:
    v["dog"]
except KeyError as e:
    print("KeyError", e)
