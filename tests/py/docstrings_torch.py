"""nndb's help text for torch's functions and torch.Tensor's methods: every
public one (torch.addmm?, x.masked_fill?, help(torch.cholesky)) has a
docstring whose first line is its signature, but for the names in
UNSIGNED below, whose docstrings do not start with one yet. The names are
read from torch and torch.Tensor, so a function added without a
docstring, or one that loses it, fails here, and so does a name in
UNSIGNED that gains a signature (take it off the list). The examples in
torch/_torch_docs.py and _tensor_docs.py run in tests/py/docstrings.py.

PyTorch's docstrings are other text, so under /usr/bin/python3 this script
prints the lines the checks must print."""
import types

import torch

try:
    import nndb  # noqa: F401
except ImportError:
    nndb = None

# Docstrings that say what the function does but do not start with its
# signature yet (most are nndb's notes for engineers).
UNSIGNED = {
    "torch": set("""
adaptive_max_pool1d angle autocast_decrement_nesting autocast_increment_nesting
batch_norm_update_stats broadcast_shapes can_cast clear_autocast_cache complex
embedding_renorm_ frexp from_file get_autocast_cpu_dtype get_autocast_gpu_dtype
get_printoptions heaviside histogram is_anomaly_check_nan_enabled is_anomaly_enabled
is_autocast_cache_enabled is_autocast_cpu_enabled is_autocast_enabled isreal ldexp load
mvlgamma native_dropout native_group_norm nextafter norm norm_except_dim polar promote_types
quantize_per_tensor result_type rsub save set_anomaly_enabled set_autocast_cache_enabled
set_autocast_cpu_dtype set_autocast_cpu_enabled set_autocast_enabled set_autocast_gpu_dtype
set_default_tensor_type set_printoptions use_deterministic_algorithms vander
""".split()),
    "Tensor": set("""
angle apply_ frexp heaviside isreal ldexp map_ multigammaln mvlgamma new nextafter
register_hook unfold
""".split()),
}


def public(owner):
    out = {}
    for name in sorted(dir(owner)):
        if name.startswith("_"):
            continue
        obj = getattr(owner, name, None)
        if (not callable(obj) or isinstance(obj, (type, types.ModuleType))
                or getattr(obj, "__module__", None) == "typing"):
            continue
        out[name] = obj
    return out


def signed(name, obj):
    doc = obj.__doc__
    return isinstance(doc, str) and (doc.lstrip().startswith(name + "(")
                                     or doc.lstrip().startswith(getattr(obj, "__name__", name) + "("))


for label, owner in (("torch", torch), ("Tensor", torch.Tensor)):
    if nndb is None:
        print(label, "functions at least 500: True")
        print(label, "without a signed docstring, not listed: []")
        print(label, "listed but signed now: []")
        continue
    names = public(owner)
    bad = {n for n, o in names.items() if not signed(n, o)}
    print(label, "functions at least 500:", len(names) >= 500)
    print(label, "without a signed docstring, not listed:", sorted(bad - UNSIGNED[label]))
    print(label, "listed but signed now:", sorted(UNSIGNED[label] - bad))
