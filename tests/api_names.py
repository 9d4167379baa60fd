"""Which public names of PyTorch 1.13's `torch` and `torch.Tensor` nndb's
torch does not have (docs/language-tensors.md, "Not provided").

Run with Debian's python3 (PyTorch as the reference); it asks build/nndb
for nndb's names.  Names that are CUDA-, sparse-, quantized-, named-tensor-
or internal-only are left out (the patterns below say which); the rest are
printed one a line as `torch.NAME` or `Tensor.NAME`, with a count.

    /usr/bin/python3 tests/api_names.py [build/nndb]
"""
import json
import os
import re
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NNDB = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "nndb")

# Out of scope: GPU back ends, sparse and quantized tensors, named tensors,
# and what PyTorch itself marks internal (leading underscore, C++ bindings).
SKIP = re.compile(
    r"cuda|cudnn|miopen|mkldnn|mps|vulkan|xla|hip|ipu|xpu|hpu|ort|mlc|lazy|meta|"
    r"sparse|csr|csc|bsr|bsc|coalesce|_indices|_values|crow|ccol|row_indices|col_indices|"
    r"quantiz|qint|quint|q_|qscheme|int_repr|dequantize|fake_quant|fbgemm|"
    r"rename|refine_names|align_to|align_as|unflatten_names|names|has_names|"
    r"jit|script|trace|compile|onnx|fx|autocast|vmap|functorch|nested|"
    r"^is_vulkan|^is_mkldnn|^is_ort|^is_meta|^to_padded|^to_mkldnn|^storage_type|"
    r"share_memory|pin_memory|^record_stream|^data_ptr|^untyped_storage|"
    r"^classproperty|^ScriptFunction|^Future|^Stream|^Event|^Graph|^Node|^Value|^Block|"
    r"^Argument|^FunctionSchema|^Type|Type$|^DisableTorchFunction|^AggregationType|"
    r"^DispatchKey|^Aliasing|^Gradient|^ThroughputBenchmark|^Callable|^Code|^Use$|"
    r"^ErrorReport|^ExcludeDispatchKeyGuard|^ExecutionPlan|^FileCheck|^IODescriptor|"
    r"^LiteScriptModule|^LockingLogger|^LoggerBase|^ModuleDict|^NoopLogger|"
    r"^ParameterDict|^PyTorchFileReader|^PyTorchFileWriter|^StaticModule|"
    r"^TracingState|^AnyType|^ConcreteModuleType|^DeserializationStorageContext|"
    r"^SerializationStorageContext|^CompilationUnit|^ScriptModule|^ScriptObject|"
    r"^ScriptMethod|^ScriptClass|^ScriptDict|^ScriptList|^DeepCopyMemoTable|"
    r"^BenchmarkConfig|^BenchmarkExecutionStats|^CallStack|^InferredType|"
    r"^ParameterDict|^BufferDict|^set_anomaly|^PRIVATE_OPS|^SymInt|^SymFloat|^SymBool|"
    r"^sym_|^is_warn_always|^set_warn_always|^vitals|^set_vital|^read_vitals|"
    r"^import_ir_module|^merge_type_from_type_comment|^parse_ir|^parse_schema|"
    r"^parse_type_comment|^unify_type_list|^wait$|^fork$|^get_file_path|^prepare_multiprocessing|"
    r"^Storage$|Storage$|^TypedStorage|^UntypedStorage|^storage$|^pca_lowrank_|"
    r"^set_autocast|^get_autocast|^clear_autocast|^is_autocast|^autocast_|"
    r"^obj$|^segment_reduce_|^library$|^ops$|^classes$|^return_types$|^testing$|^overrides$|"
    r"^hub$|^package$|^profiler$|^quasirandom$|^special$|^linalg$|^fft$|^masked$|"
    r"^nn$|^optim$|^autograd$|^utils$|^multiprocessing$|^distributed$|^distributions$|"
    r"^futures$|^backends$|^random$|^serialization$|^types$|^version$|^torch$|^functional$|"
    r"^amp$|^ao$|^contrib$|^cpu$|^hub$|^onnx$|^sparse$|^quantization$|^jit$|^nested$|"
    r"^__config__$|^__future__$|^_|^typename$|^set_printoptions$")
MODULE_NAMES = {"functional", "return_types", "storage", "overrides", "library"}


def names_here():
    import types
    t = {n for n in dir(torch) if not n.startswith("_")
         and not isinstance(getattr(torch, n), types.ModuleType)}
    m = {n for n in dir(torch.Tensor) if not (n.startswith("_") and not n.startswith("__"))}
    return t, m


def names_nndb():
    code = ("import json, types, torch; print(json.dumps([sorted(n for n in dir(torch) "
            "if not n.startswith('_') and not isinstance(getattr(torch, n), types.ModuleType)), "
            "sorted(dir(torch.Tensor))]))")
    out = subprocess.run([NNDB, "python", "-c", code], capture_output=True, text=True,
                         check=True).stdout
    t, m = json.loads(out.strip().splitlines()[-1])
    return set(t), set(m)


def main():
    ref_t, ref_m = names_here()
    got_t, got_m = names_nndb()
    miss_t = sorted(n for n in ref_t - got_t if not SKIP.search(n))
    # dunder methods: only the operators and protocols users call
    miss_m = sorted(n for n in ref_m - got_m if not SKIP.search(n)
                    and not (n.startswith("__") and n not in (
                        "__array__", "__array_wrap__", "__dlpack__", "__dlpack_device__",
                        "__torch_function__", "__torch_dispatch__", "__reversed__",
                        "__format__", "__deepcopy__", "__reduce_ex__", "__setstate__",
                        "__contains__", "__len__", "__iter__", "__hash__", "__index__",
                        "__ilshift__", "__irshift__", "__lshift__", "__rshift__",
                        "__rlshift__", "__rrshift__", "__rmatmul__", "__rand__", "__ror__",
                        "__rxor__", "__ipow__", "__rpow__", "__rdiv__", "__idiv__",
                        "__ifloordiv__", "__rfloordiv__", "__rmod__", "__imod__")))
    for n in miss_t:
        print("torch." + n)
    for n in miss_m:
        print("Tensor." + n)
    print(f"# {len(miss_t)} torch names and {len(miss_m)} Tensor names of PyTorch 1.13 "
          f"missing (of {len(ref_t)} and {len(ref_m)}; out-of-scope families left out)")


if __name__ == "__main__":
    main()
