# -*- Python -*-
# lit configuration of gather's regression tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config

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

# Building against an installed gather (test/Install): %{cmake} etc. (%{..},
# so that no substitution is a prefix of another).
config.substitutions.append(("%{cmake}", config.cmake_command))
config.substitutions.append(("%{cpack}", config.cpack_command))
config.substitutions.append(("%{generator}", config.cmake_generator))
config.substitutions.append(("%mlir_include_dir", os.path.join(os.path.dirname(config.mlir_lib_dir), "include")))
config.substitutions.append(("%gather_examples", os.path.join(config.gather_src_root, "examples")))
config.substitutions.append(("%gather_plugin", os.path.join(config.gather_obj_root, "lib", "GatherPlugin" + config.llvm_shlib_ext)))

tool_dirs = [os.path.join(config.gather_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(
    ["gather-opt", "gather-runner", "gather-translate", "gather-bench",
     "gather-lsp-server", "gather-reduce", "mlir-opt", "mlir-runner", "mlir-tblgen", "llc", "lli"],
    tool_dirs,
)

if config.enable_execution_engine:
    config.available_features.add("jit")

# MPI (MPICH; utils/setup.sh installs mpich and libmpich-dev): tests of
# kernels partitioned over processes (shard-grid).
if shutil.which("mpirun.mpich"):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", "mpirun.mpich"))
