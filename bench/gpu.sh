#!/usr/bin/env bash
# gather's GPU benchmark (docs/GPU.md, "Checking on a GPU"): the workloads
# of bench/workloads.json compiled ahead of time with onnx-to-llvm{gpu=cuda},
# ms per whole call with host memory (copies in and out) and with device
# memory (gpu-memory=device), each result checked bit for bit, against
# torch.gather's CUDA kernel and a device-to-device copy of the floor's
# bytes, with the GPU's name (utils/gpu-check/bench.py).
#
# In a checkout: builds the GPU check's folder (utils/gpu-check.sh, into
# build/gpu-check, unless --bundle names one already built) and runs its
# benchmark; the table goes to bench/results/gpu-<host>.txt. In the GPU
# check's folder (where utils/gpu-check.sh copies this script as
# gpu-bench.sh, and run.sh runs the same step): runs it there, the table in
# results/bench.txt. Needs an NVIDIA GPU; torch with CUDA for the peers'
# columns.
#
# Usage: bench/gpu.sh [--bundle DIR] [--only WORKLOAD]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bundle=
only=
while [ $# -gt 0 ]; do
  case $1 in
  --bundle) bundle=$(cd "$2" && pwd); shift 2 ;;
  --only) only=$2; shift 2 ;;
  *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
done
if [ -z "$bundle" ] && [ -x "$here/bin/gpu-bench" ]; then
  bundle=$here # (this copy lives in the GPU check's folder)
  mkdir -p "$bundle/results"
  out=$bundle/results/bench.txt
else
  root=$(cd "$here/.." && pwd)
  if [ -z "$bundle" ]; then
    "$root/utils/gpu-check.sh" --out "$root/build/gpu-check"
    bundle=$root/build/gpu-check
  fi
  out=$root/bench/results/gpu-$(hostname -s).txt
fi
export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
python3 "$bundle/bench.py" run --bench "$bundle/bin/gpu-bench" \
  --workloads "$bundle/workloads.json" --out "$out" ${only:+--only "$only"}
echo "bench/gpu.sh: the table is in $out"
