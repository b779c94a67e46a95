#!/usr/bin/env bash
# gather's GPU check on a machine with an NVIDIA GPU and driver (copied into
# the folder utils/gpu-check.sh makes; needs no LLVM or MLIR). Writes
# results/ next to itself, summary.txt first; exit status 0 only if no step
# failed.
#
# Usage: run.sh [--quick] [--budget SECONDS]
#   --quick     the steps worth most, within the budget (default 240 s): the
#               machine, the spec's examples (exit status and output apart),
#               the reference kernels (where the folder has them), the
#               differential and bad-index cases, the benchmark on
#               e, b, a, c_i32 and h; compute-sanitizer only if time is left.
#               A folder built with `gpu-check.sh --quick` runs so by default.
#   --budget S  the wall-clock budget of every step together; a step that
#               does not fit what is left is skipped and says so (SKIP).
# GATHER_GPU_CHECK_BENCH=NAME[,NAME...] limits the benchmark's workloads.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
quick=0
budget=
[ -f "$here/quick" ] && quick=1
while [ $# -gt 0 ]; do
  case $1 in
  --quick) quick=1; shift ;;
  --budget) [ $# -ge 2 ] || { echo "run.sh: --budget needs a value" >&2; exit 2; }
    budget=$2; shift 2 ;;
  *) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$budget" ] || budget=$([ $quick = 1 ] && echo 240 || echo 100000)
results=$here/results
rm -rf "$results" && mkdir -p "$results"
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=$PATH:/usr/local/cuda/bin
start=$SECONDS
passed=0 failed=0 skipped=0
report() { # step status detail
  printf '%-40s %s %s\n' "$1" "$2" "$3" | tee -a "$results/summary.txt"
  case $2 in
  PASS) passed=$((passed + 1)) ;;
  SKIP) skipped=$((skipped + 1)) ;;
  INFO) ;;
  *) failed=$((failed + 1)) ;;
  esac
}
# fits NEED NAME MAX: whether NEED seconds are left (else reports NAME as
# skipped); sets t, the step's timeout: MAX or what is left.
fits() {
  local left=$((budget - (SECONDS - start)))
  if [ "$left" -lt "$1" ]; then
    report "$2" SKIP "(needs ${1}s, ${left}s left)"
    return 1
  fi
  t=$(($3 < left ? $3 : left))
}

# The machine.
{
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
  else
    echo "no nvidia-smi"
  fi
  getconf GNU_LIBC_VERSION
  python3 -c 'import numpy; print("numpy", numpy.__version__)' 2>&1 | tail -1
  python3 -c 'import torch; print("torch", torch.__version__)' 2>&1 | tail -1
} > "$results/machine.txt" 2>&1
report machine INFO "($(head -1 "$results/machine.txt" | cut -c1-80))"
need=$(cat "$here/glibc-required")
have=$(getconf GNU_LIBC_VERSION | awk '{print $2}')
if [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" = "$need" ]; then
  report glibc PASS "(needs $need, has $have)"
else
  report glibc FAIL "(needs $need, has $have): the programs cannot start here"
  exit 1
fi
if ldd "$here"/bin/* "$here"/lib/*.so > "$results/ldd.log" 2>&1 && ! grep -q 'not found' "$results/ldd.log"; then
  report libraries PASS "(every library resolves)"
else
  report libraries FAIL "(see results/ldd.log)"
fi
if timeout 30 "$here/bin/gather-cuda-probe" > "$results/probe.log" 2>&1; then
  report gather-cuda-probe PASS "($(tail -1 "$results/probe.log"))"
else
  report gather-cuda-probe FAIL "($(tail -1 "$results/probe.log"))"
  exit 1
fi

# The spec's examples: the exit status apart from the output (a failure at
# exit, after right results, is its own finding).
for name in $(cat "$here/cases"); do
  fits 10 "$name" 60 || continue
  timeout $t "$here/bin/$name" > "$results/$name.out" 2> "$results/$name.err"
  status=$?
  if [ $status -eq 0 ]; then
    report "$name exit" PASS "(exit 0)"
  else
    report "$name exit" FAIL "(exit $status: $(head -1 "$results/$name.err" | cut -c1-120))"
  fi
  if cmp -s "$results/$name.out" "$here/expected/$name.out"; then
    report "$name output" PASS "(as expected)"
  else
    report "$name output" FAIL "(diff: $(diff "$here/expected/$name.out" "$results/$name.out" | head -3 | tr '\n' ' '))"
  fi
done

# The kernels alone against the reference kernels (ref/ref-gather, built
# where the CUDA toolkit was: a torch-like and an ONNX-Runtime-like kernel,
# a same-bytes device copy; bit-exact, one bad index).
if [ -x "$here/ref/ref-gather" ]; then
  if fits 40 "reference kernels" 150; then
    timeout $t "$here/ref/ref-gather" "$here/ref" > "$results/ref-gather.txt" 2>&1
    status=$?
    if [ $status -eq 0 ]; then
      report "reference kernels" PASS "(see results/ref-gather.txt)"
    else
      report "reference kernels" FAIL "(exit $status; $(grep -m1 -E 'FAIL|MISMATCH|WRONG' "$results/ref-gather.txt"))"
    fi
  fi
else
  report "reference kernels" SKIP "(the folder was built without nvcc)"
fi

# The differential cases (cases.py: numpy's take_along_axis as the
# reference) with host memory, device memory and, as a control, on the CPU.
read -r count bad < "$here/case-counts"
if ! command -v python3 > /dev/null; then
  report "differential cases" FAIL "(no python3 here)"
else
  for runner in cases-gpu-host cases-gpu-device cases-cpu; do
    fits 20 "differential $runner" 300 || continue
    if timeout $t python3 "$here/cases.py" run --runner "$here/bin/$runner" \
      --table "$here/cases.json" --count "$count" --bad "$bad" > "$results/$runner.log" 2>&1; then
      report "differential $runner" PASS "($(tail -1 "$results/$runner.log"))"
    else
      report "differential $runner" FAIL "($(grep -m1 FAIL "$results/$runner.log" | cut -c1-200); see results/$runner.log)"
    fi
  done
fi

# The error path: a libcuda.so.1 that is not a library -> exit 1, one line.
mkdir -p "$results/not-a-library" && echo "not a library" > "$results/not-a-library/libcuda.so.1"
first=$(head -1 "$here/cases")
LD_LIBRARY_PATH=$results/not-a-library:$LD_LIBRARY_PATH timeout 30 "$here/bin/$first" > /dev/null 2> "$results/no-driver.err"
status=$?
if [ $status -eq 1 ] && grep -q '^error: no CUDA driver/device: cannot load libcuda.so.1' "$results/no-driver.err"; then
  report "no-driver error path" PASS "(exit 1: $(head -1 "$results/no-driver.err" | cut -c1-60)...)"
else
  report "no-driver error path" FAIL "(exit $status: $(head -1 "$results/no-driver.err"))"
fi

# The benchmark against torch.gather and a same-bytes copy (bench.py).
workloads=${GATHER_GPU_CHECK_BENCH:-$([ $quick = 1 ] && echo e,b,a,c_i32,h)}
if command -v python3 > /dev/null && fits 30 benchmark 400; then
  if timeout $t python3 "$here/bench.py" run --bench "$here/bin/gpu-bench" \
    --workloads "$here/workloads.json" --out "$results/bench.txt" \
    ${workloads:+--only "$workloads"} > "$results/bench.log" 2>&1; then
    report "benchmark" PASS "($(head -1 "$results/bench.txt"); see results/bench.txt)"
  else
    report "benchmark" FAIL "(see results/bench.log)"
  fi
fi

# compute-sanitizer (memcheck), slow to start: on the spec's examples and on
# fewer cases; its findings end a program with status 99.
if command -v compute-sanitizer > /dev/null; then
  for name in $(cat "$here/cases"); do
    fits 30 "$name (compute-sanitizer)" 300 || continue
    if timeout $t compute-sanitizer --error-exitcode 99 "$here/bin/$name" > "$results/$name.sanitizer" 2>&1; then
      report "$name (compute-sanitizer)" PASS "(clean)"
    else
      report "$name (compute-sanitizer)" FAIL "(see results/$name.sanitizer)"
    fi
  done
  for runner in cases-gpu-host cases-gpu-device; do
    fits 60 "$runner (compute-sanitizer)" 300 || continue
    if timeout $t python3 "$here/cases.py" run --runner "$here/bin/$runner" \
      --table "$here/cases.json" --count "$([ $quick = 1 ] && echo 100 || echo 300)" --bad 3 \
      --label "$runner (compute-sanitizer)" \
      --wrap "compute-sanitizer --error-exitcode 99 --log-file $results/sanitizer-$runner-%p.log" \
      > "$results/$runner-sanitizer.log" 2>&1; then
      report "$runner (compute-sanitizer)" PASS "(clean: $(tail -1 "$results/$runner-sanitizer.log"))"
    else
      report "$runner (compute-sanitizer)" FAIL "(see results/$runner-sanitizer.log, results/sanitizer-$runner-*)"
    fi
  done
fi

echo "$passed passed, $failed failed, $skipped skipped in $((SECONDS - start)) s" | tee -a "$results/summary.txt"
cat "$results/ref-gather.txt" "$results/bench.txt" 2> /dev/null
[ $failed -eq 0 ]
