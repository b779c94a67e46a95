#!/usr/bin/env bash
# The prepared GPU check (docs/GPU.md#checking-on-a-gpu), in two halves.
#
# Here (a machine with the build and LLVM/MLIR 22; no GPU needed), it builds
# ahead of time, into one folder, everything that must travel to a machine
# with an NVIDIA GPU and driver but no LLVM or MLIR:
#   bin/spec-examples[-cubin]  the spec's examples (the hand-written GPU
#              module test/Integration/CUDARuntime/Inputs/spec-examples-gpu.mlir)
#   bin/cases-gpu-host, bin/cases-gpu-device, bin/cases-cpu
#              the differential cases' runner (utils/gpu-check/cases.c) with
#              the kernels of utils/gpu-check/cases.py compiled by
#              onnx-to-llvm{gpu=cuda} (host memory), {gpu=cuda
#              gpu-memory=device} and for the CPU (the control)
#   bin/gpu-bench  the benchmark (utils/gpu-check/bench.cpp): the workloads of
#              bench/workloads.json with host and device memory
#   bin/gather-cuda-probe
#   lib/       libgather_runtime.so and libgather_cuda_runtime.so, checked
#              to need no LLVM, MLIR or CUDA library (ldd)
#   cases.py, cases.json, bench.py, workloads.json
#              the case generator and checker (numpy there; pure Python
#              where numpy is missing), the kernels' table, the torch side
#   expected/, cases, glibc-required, run.sh
# and packs it as <out>.tar.gz (a few MiB; the device tool carries 64 MiB).
# GPU kernels are fatbins (sm_90 SASS + PTX) where ptxas and fatbinary are
# found (/usr/local/cuda/bin or PATH), else PTX (compiled by the driver at
# the first launch).
#
# There (after `tar xzf gpu-check.tar.gz && gpu-check/run.sh`), run.sh
# (utils/gpu-check/run.sh) checks that the machine's glibc is new enough and
# every library resolves, runs gather-cuda-probe, the spec's examples (exit
# status and output apart), the reference kernels where they were built
# (ref/: utils/gpu-check/ref-gather.cu, with nvcc), the differential cases:
# 2400 random cases with host memory and 2400 with device memory, each
# bit-exact against numpy, and 40 bad-index cases each (exit status 1 and
# the exact located lines), the same on the CPU as a control, the no-driver
# error path, the benchmark against torch.gather and a same-bytes copy, and
# compute-sanitizer where it is installed. Each step has a timeout and the
# whole a budget (`run.sh --quick`: 4 minutes, the steps worth most first).
# It writes results/ next to itself (one log per step, summary.txt,
# bench.txt) and exits with status 0 only if no step failed.
#
# Usage: utils/gpu-check.sh [--build DIR] [--out DIR] [--cases N] [--bad N]
#                           [--quick]
#   --build DIR  gather's build (default build); not rebuilt here
#   --out DIR    the folder to fill (default DIR/gpu-check, emptied first)
#   --cases N    differential cases per runner on the GPU machine (2400)
#   --bad N      bad-index cases per runner there (40)
#   --quick      a check that fits 4 minutes there (run.sh --quick by
#                default; 300 cases and 6 bad-index cases per runner unless
#                given; utils/gpu-check/run.sh says what it runs)
# Exit status: 0 when the folder is ready, 1 when a step failed, 2 for a
# usage error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=
cases=
bad=
quick=0

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case $1 in
  --build) [ $# -ge 2 ] || usage; build=$(cd "$2" && pwd) || exit 2; shift 2 ;;
  --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  --cases) [ $# -ge 2 ] || usage; cases=$2; shift 2 ;;
  --bad) [ $# -ge 2 ] || usage; bad=$2; shift 2 ;;
  --quick) quick=1; shift ;;
  -h | --help) usage ;;
  *) echo "gpu-check.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[ -n "$out" ] || out=$build/gpu-check
[ -n "$cases" ] || cases=$([ $quick = 1 ] && echo 300 || echo 2400)
[ -n "$bad" ] || bad=$([ $quick = 1 ] && echo 6 || echo 40)
llvm_bin=/usr/lib/llvm-22/bin
fail() { echo "gpu-check.sh: $*" >&2; exit 1; }

for f in "$build/lib/libgather_runtime.so" "$build/lib/libgather_cuda_runtime.so"; do
  [ -f "$f" ] || fail "$f is missing: build gather first (utils/build.sh)"
done
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib" "$out/expected" || fail "cannot make $out"
cp "$build/lib/libgather_runtime.so" "$build/lib/libgather_cuda_runtime.so" "$out/lib/"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT

# One ahead-of-time program: the .mlir lowered with the given GPU format,
# translated, compiled and linked against lib/ (RUNPATH $ORIGIN/../lib).
# (Until the onnx-to-llvm pipeline builds GPU kernels, upstream's
# gpu-lower-to-nvvm-pipeline lowers the hand-written module.)
build_case() {
  local name=$1 input=$2 format=$3
  "$llvm_bin/mlir-opt" "$input" \
    --gpu-lower-to-nvvm-pipeline="cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=$format" \
    -o "$work/$name.mlir" &&
    "$llvm_bin/mlir-translate" --mlir-to-llvmir "$work/$name.mlir" -o "$work/$name.ll" &&
    "$llvm_bin/clang" -c -O2 -Wno-override-module "$work/$name.ll" -o "$work/$name.o" &&
    "$llvm_bin/clang" "$work/$name.o" -L"$out/lib" -lgather_cuda_runtime -lgather_runtime \
      -Wl,-rpath,'$ORIGIN/../lib' -o "$out/bin/$name" ||
    fail "cannot build case $name from $input (format $format)"
  echo "$name" >> "$out/cases"
}

spec=$root/test/Integration/CUDARuntime/Inputs/spec-examples-gpu.mlir
cat > "$out/expected/spec-examples.out" <<'EXPECTED'
result 0: tensor<2x2xf32> = [[1, 1], [4, 3]]
result 1: tensor<2x3xf32> = [[4, 8, 3], [7, 2, 3]]
result 2: tensor<2x3xf32> = [[7, 5, 3], [4, 2, 3]]
EXPECTED
build_case spec-examples "$spec" isa
if PATH=/usr/local/cuda/bin:$PATH command -v ptxas > /dev/null; then
  PATH=/usr/local/cuda/bin:$PATH build_case spec-examples-cubin "$spec" bin
  cp "$out/expected/spec-examples.out" "$out/expected/spec-examples-cubin.out"
else
  echo "gpu-check.sh: no ptxas here: only the PTX (isa) programs are built"
fi
"$llvm_bin/clang" -O2 -I"$root/include" -I"$build/include" \
  "$root/tools/gather-cuda-probe/gather-cuda-probe.c" \
  -L"$out/lib" -lgather_cuda_runtime -lgather_runtime -Wl,-rpath,'$ORIGIN/../lib' \
  -o "$out/bin/gather-cuda-probe" || fail "cannot build gather-cuda-probe"

# The differential cases and the benchmark: kernels from the onnx dialect,
# compiled ahead of time by gather's own pipeline (gather-translate
# --onnx-to-llvmir), in $work so that their locations read "cases.mlir:L:C".
[ -x "$build/bin/gather-translate" ] || fail "$build/bin/gather-translate is missing"
# A fatbin (SASS for sm_90 and the PTX, which a newer chip's driver
# compiles) where the toolkit is here; PTX alone otherwise.
if PATH=/usr/local/cuda/bin:$PATH command -v ptxas > /dev/null &&
  PATH=/usr/local/cuda/bin:$PATH command -v fatbinary > /dev/null; then
  format=fatbin
else
  format=isa
fi
echo "$format" > "$out/gpu-format"
# aot_object NAME INPUT OPTIONS: $work/NAME.o from $work/INPUT.
aot_object() {
  (cd "$work" && PATH=/usr/local/cuda/bin:$PATH "$build/bin/gather-translate" --onnx-to-llvmir     --pipeline-options="$3" "$2" -o "$1.ll" &&
    "$llvm_bin/clang" -c -O2 -Wno-override-module "$1.ll" -o "$1.o") > "$work/$1.log" 2>&1 ||
    { cat "$work/$1.log" >&2; return 1; }
}
# link NAME SOURCE OBJECT CFLAGS...: bin/NAME, RUNPATH $ORIGIN/../lib.
link() {
  local name=$1 source=$2 object=$3
  shift 3
  local compiler=$llvm_bin/clang
  [ "${source##*.}" = cpp ] && compiler=$llvm_bin/clang++
  "$compiler" -O2 -I"$work" -I"$tools" -I"$root/bench" "$@" "$source" "$object" -L"$out/lib" -lgather_cuda_runtime \
    -lgather_runtime -Wl,-rpath,'$ORIGIN/../lib' -o "$out/bin/$name" || fail "cannot link $name"
}
tools=$root/utils/gpu-check
python3 "$tools/cases.py" kernels "$work/cases.mlir" "$out/cases.json" "$work/cases.h" ||
  fail "cannot write the cases' kernels"
python3 "$tools/bench.py" kernels "$root/bench/workloads.json" "$work/bench-host.mlir" \
  "$work/bench-device.mlir" "$work/bench.h" || fail "cannot write the benchmark's kernels"
# Two at a time (the translations take most of the time).
aot_object cases-gpu-host cases.mlir "gpu=cuda gpu-format=$format" & host_job=$!
aot_object cases-gpu-device cases.mlir "gpu=cuda gpu-format=$format gpu-memory=device" ||
  fail "cannot compile the cases for device memory"
wait $host_job || fail "cannot compile the cases for host memory"
aot_object cases-cpu cases.mlir "num-threads=1" & cpu_job=$!
aot_object bench-host bench-host.mlir "gpu=cuda gpu-format=$format" ||
  fail "cannot compile the benchmark for host memory"
aot_object bench-device bench-device.mlir "gpu=cuda gpu-format=$format gpu-memory=device" ||
  fail "cannot compile the benchmark for device memory"
wait $cpu_job || fail "cannot compile the cases for the CPU"
link cases-gpu-host "$tools/cases.c" "$work/cases-gpu-host.o" -DCASES_MEMORY=0
link cases-gpu-device "$tools/cases.c" "$work/cases-gpu-device.o" -DCASES_MEMORY=1
link cases-cpu "$tools/cases.c" "$work/cases-cpu.o" -DCASES_MEMORY=0
link gpu-bench "$tools/bench.cpp" "$work/bench-host.o" "$work/bench-device.o"
cp "$tools/cases.py" "$tools/bench.py" "$root/bench/workloads.json" "$out/"
cp "$root/bench/gpu.sh" "$out/gpu-bench.sh"
echo "$cases $bad" > "$out/case-counts"

# Nothing that travels needs LLVM, MLIR or a CUDA library at link time.
for f in "$out"/bin/* "$out"/lib/*.so; do
  if ldd "$f" | grep -E 'libLLVM|libMLIR|libcuda|libcudart|not found'; then
    fail "$f needs a library it must not need (above)"
  fi
done
# The newest glibc symbol version any file needs.
objdump -T "$out"/bin/* "$out"/lib/*.so | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' |
  sort -V | tail -1 > "$out/glibc-required"

cp "$tools/run.sh" "$out/run.sh" && chmod +x "$out/run.sh" || fail "cannot copy run.sh"
[ $quick = 1 ] && touch "$out/quick"

# The reference kernels (utils/gpu-check/ref-gather.cu), where the CUDA
# toolkit is here: gather's own kernels for four 8192x8192 workloads as
# PTX and cubin, next to a torch-like and an ONNX-Runtime-like kernel and a
# same-bytes device copy.
cuda_bin=${CUDA_BIN:-/usr/local/cuda/bin}
if [ -x "$cuda_bin/nvcc" ] && [ -x "$cuda_bin/ptxas" ]; then
  mkdir -p "$out/ref"
  kernel() { # NAME DATA INDEX AXIS
    echo "func.func @$1(%d: tensor<8192x8192x$2>, %i: tensor<8192x8192x$3>) -> tensor<8192x8192x$2> {
  %o = onnx.GatherElements %d, %i axis = $4 : tensor<8192x8192x$2>, tensor<8192x8192x$3>
  return %o : tensor<8192x8192x$2>
}"
  }
  { kernel bench_device_e f32 i64 1; kernel e_axis0 f32 i64 0
    kernel e_i32 f32 i32 1; kernel e_f16 f16 i64 1; } > "$work/ref.mlir"
  "$build/bin/gather-opt" "$work/ref.mlir" --onnx-to-llvm='gpu=cuda gpu-memory=device' \
    -o "$work/ref-isa.mlir" || fail "cannot compile the reference workloads"
  python3 "$root/test/GPU/Inputs/extract-ptx.py" "$work/ref-isa.mlir" "$work/ref-kernel" > "$work/ref-files" ||
    fail "no PTX in the reference workloads"
  for f in $(cat "$work/ref-files"); do
    entry=$(grep -o '\.entry [A-Za-z0-9_]*_kernel' "$f" | head -1 | sed 's/\.entry //; s/_kernel$//')
    cp "$f" "$out/ref/$entry.ptx"
    "$cuda_bin/ptxas" -arch=sm_90 "$f" -o "$out/ref/$entry.cubin" || fail "ptxas rejects $f"
  done
  (cd "$out/ref" && "$cuda_bin/nvcc" -O3 -std=c++17 -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_90,code=compute_90 -I"$root/bench" "$tools/ref-gather.cu" -o ref-gather -lcuda \
    -L"$cuda_bin/../lib64/stubs") > "$work/nvcc.log" 2>&1 ||
    { cat "$work/nvcc.log" >&2; fail "cannot build ref-gather"; }
else
  echo "gpu-check.sh: no nvcc here: the reference kernels are not built"
fi
tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")" || fail "cannot pack $out"
echo "gpu-check.sh: ready: $out ($(du -sh "$out" | cut -f1)), packed as $out.tar.gz"
echo "  on the GPU machine: tar xzf $(basename "$out").tar.gz && $(basename "$out")/run.sh"
