# Exception classes and control flow as training scripts use them.
class ConfigError(Exception):
    pass

class MissingKey(ConfigError):
    def __init__(self, key):
        super().__init__(f"missing key: {key}")
        self.key = key

def get(cfg, key):
    if key not in cfg:
        raise MissingKey(key)
    return cfg[key]

cfg = {"lr": 0.1}
for k in ["lr", "wd"]:
    try:
        v = get(cfg, k)
    except MissingKey as e:
        print("error:", e, "| key =", e.key, "| is ConfigError:", isinstance(e, ConfigError))
    else:
        print("got", k, v)
    finally:
        print("checked", k)

def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise ConfigError("bad int") from e

try:
    parse("x1")
except ConfigError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)

def reraise():
    try:
        {}["k"]
    except KeyError:
        print("logging and re-raising")
        raise

try:
    reraise()
except LookupError as e:
    print("outer caught", repr(e))

count = 0
while True:
    try:
        count += 1
        if count < 3:
            raise RuntimeError("retry")
        break
    except RuntimeError:
        continue
print("attempts", count)
assert count == 3, "three attempts"
try:
    assert count == 4, f"count is {count}"
except AssertionError as e:
    print("assert:", e)
