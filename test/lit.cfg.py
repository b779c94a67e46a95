# -*- Python -*-
# lit configuration of gather's regression tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "GATHER"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes_dirs = ["Inputs", "lib"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gather_obj_root, "test")
config.excludes = ["Inputs", "lib", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# No test runs forever: one that hangs fails after 10 minutes (lit's
# per-test timeout, which needs psutil: utils/setup.sh installs it), unless
# lit's --timeout says otherwise.
if lit_config.maxIndividualTestTime == 0:
    supported, why = lit_config.maxIndividualTestTimeIsSupported
    if supported:
        lit_config.maxIndividualTestTime = 600
    else:
        lit_config.warning(f"tests run without a time limit: {why}")

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

tools = ["gather-opt", "gather-compile", "gather-run", "gather-runner", "gather-test-opt", "gather-jit-threads", "gather-capi-pipeline", "gather-translate", "gather-bench", "gather-mpi-bench",
         "gather-lsp-server", "gather-reduce", "mlir-opt", "mlir-runner", "mlir-tblgen", "llc", "lli"]
# ASan+UBSan build (docs/Robustness.md): every report, leaks included, aborts,
# so it fails the test even under `not` (an allocation too large returns null,
# as without ASan: the runtimes report it). Upstream tools are not instrumented
# but load our instrumented libraries (runtime, plugin): they get the ASan
# runtime preloaded.
if config.asan_runtime:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = "abort_on_error=1:detect_leaks=1:allocator_may_return_null=1"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:abort_on_error=1"
    # UCX (loaded by MPICH's libmpich) binary-patches mmap when it loads and
    # jumps into a wild address under ASan's mmap interceptor; its memory
    # hooks are not needed here (no RDMA).
    config.environment["UCX_MEM_MMAP_HOOK_MODE"] = "none"
    config.environment["LSAN_OPTIONS"] = "suppressions=" + os.path.join(
        config.gather_src_root, "utils", "lsan.supp")
    for tool in ("lli", "mlir-opt", "mlir-runner"):
        path = os.path.join(config.llvm_tools_dir, tool)
        tools[tools.index(tool)] = ToolSubst(tool, command=f"env LD_PRELOAD={config.asan_runtime} {path}")
# ThreadSanitizer build (utils/test.sh runs the thread tests there): every
# report fails the test. Only gather's own code is instrumented: calls from
# other modules (libMLIR, libLLVM, libomp, JIT-compiled code) are not
# checked (ignore_noninstrumented_modules; utils/tsan.supp).
if config.tsan:
    config.available_features.add("tsan")
    config.environment["TSAN_OPTIONS"] = "halt_on_error=1:exitcode=66:ignore_noninstrumented_modules=1:suppressions=" + os.path.join(
        config.gather_src_root, "utils", "tsan.supp")
    # (UCX, loaded by MPICH, patches mmap as under ASan, above.)
    config.environment["UCX_MEM_MMAP_HOOK_MODE"] = "none"
if config.enable_fuzzers:
    config.available_features.add("fuzzers")
    tools += ["gather-fuzz-mlir", "gather-fuzz-onnx", "gather-fuzz-runner"]
tool_dirs = [os.path.join(config.gather_obj_root, "bin"), config.llvm_tools_dir]
llvm_config.add_tool_substitutions(tools, tool_dirs)

if config.enable_execution_engine:
    config.available_features.add("jit")

# The Python package (GATHER_ENABLE_PYTHON): test/Python and the routes
# that use it.
if config.enable_python:
    config.available_features.add("python")

# MPI (MPICH; utils/setup.sh installs mpich and libmpich-dev): tests of
# kernels partitioned over processes (shard-grid).
if shutil.which("mpirun.mpich"):
    config.available_features.add("mpi")
    config.substitutions.append(("%mpirun", "mpirun.mpich"))
    # The PMPI library of test/lib/MPITraffic (bytes per process, injected
    # faults), preloaded into the ranks only: `%mpirun -genv LD_PRELOAD
    # %mpi_traffic ...`.
    config.substitutions.append(("%mpi_traffic", os.path.join(
        config.gather_obj_root, "lib", "libgather_mpi_traffic" + config.llvm_shlib_ext)))

# CPU flags of this host as Linux reports them (/proc/cpuinfo), independent of
# gather's own checks: `host-<flag>` features.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = next((line.split(":", 1)[1].split() for line in cpuinfo if line.startswith("flags")), [])
except OSError:
    flags = []
for flag in ("avx512_fp16",):
    if flag in flags:
        config.available_features.add(f"host-{flag}")

# Named target CPUs whose code runs on this host (gather-runner checks it:
# TargetInfo::checkRunsOnHost): `runs-<cpu>` features for the tests that JIT
# code for them (docs/CodeShape.md). The probes run in parallel, in the
# tests' environment (under ASan, UCX's mmap hooks must be off).
runner = os.path.join(config.gather_obj_root, "bin", "gather-runner")
if config.enable_execution_engine and os.path.exists(runner):  # (not in build-tsan/)
    import subprocess
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as probe:
        probe.write("func.func @main() {\n  return\n}\n")
    probes = {cpu: subprocess.Popen([runner, probe.name, "-e", "main", "--entry-point-result=void",
                                     f"--pipeline-options=target-cpu={cpu}"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                    env=dict(os.environ, **config.environment))
              for cpu in ("skylake-avx512", "znver4", "haswell", "sapphirerapids")}
    for cpu, process in probes.items():
        if process.wait() == 0:
            config.available_features.add(f"runs-{cpu}")
    os.unlink(probe.name)

# ---- GPU (CUDA) features and substitutions: begin (docs/GPU.md) ----------
# `ptxas`: an executable ptxas (CUDA toolkit) in /usr/local/cuda/bin or on
# PATH, which the cubin and fatbin GPU formats need. `cuda-device`: a CUDA
# driver and device are usable, as gather-cuda-probe (on gather's CUDA
# runtime alone) finds them. %clang compiles the ahead-of-time route's LLVM
# IR; %cuda_runtime_link links a program with gather's CUDA runtime (under
# the sanitizers with their runtimes, %aot_sanitize: the libraries are
# instrumented).
ptxas = shutil.which("ptxas", path=os.pathsep.join(["/usr/local/cuda/bin", os.environ.get("PATH", "")]))
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas_dir", os.path.dirname(ptxas)))
    config.substitutions.append(("%ptxas", ptxas))
cuda_probe = os.path.join(config.gather_obj_root, "bin", "gather-cuda-probe")
if os.path.exists(cuda_probe):
    import subprocess
    try:
        if subprocess.run([cuda_probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          env=dict(os.environ, **config.environment), timeout=120).returncode == 0:
            config.available_features.add("cuda-device")
    except subprocess.TimeoutExpired:
        lit_config.warning("gather-cuda-probe timed out: GPU tests are unsupported")
llvm_config.add_tool_substitutions(["gather-cuda-probe"], tool_dirs)
gather_lib_dir = os.path.join(config.gather_obj_root, "lib")
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%mlir-translate", os.path.join(config.llvm_tools_dir, "mlir-translate")))
aot_sanitize = "-fsanitize=address,undefined" if config.asan_runtime else ""
config.substitutions.append(("%cuda_runtime_link", f"-L{gather_lib_dir} -Wl,-rpath,{gather_lib_dir} -lgather_cuda_runtime -lgather_runtime {aot_sanitize}"))
config.substitutions.append(("%aot_sanitize", aot_sanitize))
# ---- GPU (CUDA) features and substitutions: end --------------------------
# gather's libraries, for hosts of the ahead-of-time route that link them.
config.substitutions.append(("%gather_lib_dir", gather_lib_dir))
