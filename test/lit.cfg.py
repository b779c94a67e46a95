# -*- Python -*-
# lit configuration of gather's regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes_dirs = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.environment["FILECHECK_OPTS"] = "-enable-var-scope --allow-unused-prefixes=false"
llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%libomp", config.libomp))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%gather_src_root", config.gather_src_root))
config.substitutions.append(("%gather_obj_root", config.gather_obj_root))
# Text-format protobuf -> binary, for the ONNX models and tensors in tests.
config.substitutions.append(("%encode-model", "protoc --proto_path=/usr/include/onnx --encode=onnx.ModelProto onnx.proto"))
config.substitutions.append(("%encode-tensor", "protoc --proto_path=/usr/include/onnx --encode=onnx.TensorProto onnx.proto"))
config.substitutions.append(("%onnx_backend_data", "/usr/share/libonnx-testdata/data/node"))
config.substitutions.append(("%gather_runtime", os.path.join(config.gather_obj_root, "lib", "libgather_runtime" + config.llvm_shlib_ext)))

tools = ["gather-opt", "gather-runner", "gather-translate", "gather-bench", "mlir-opt", "llc", "lli"]
# ASan+UBSan build (docs/Robustness.md): every report, leaks included, aborts,
# so it fails the test even under `not`. The uninstrumented lli loads our
# instrumented runtime, so it gets the ASan runtime preloaded.
if config.asan_runtime:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = "abort_on_error=1:detect_leaks=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:abort_on_error=1"
    config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.join(
        config.gather_src_root, "utils", "lsan.supp")
    lli = os.path.join(config.llvm_tools_dir, "lli")
    tools[tools.index("lli")] = ToolSubst("lli", command=f"env LD_PRELOAD={config.asan_runtime} {lli}")
if config.enable_fuzzers:
    config.available_features.add("fuzzers")
    tools += ["gather-fuzz-mlir", "gather-fuzz-onnx"]
tool_dirs = [os.path.join(config.gather_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.enable_execution_engine:
    config.available_features.add("jit")
