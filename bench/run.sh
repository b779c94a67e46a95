#!/usr/bin/env bash
# gather's benchmark, one command from a clean checkout (as root or with
# sudo, like utils/setup.sh): installs the peers (Debian: PyTorch, NumPy,
# ONNX, matplotlib; npm: onnxruntime-node), builds, then runs bench/run.py,
# which times gather's JIT kernel, the C loop forms, the memory floor, ONNX
# Runtime, torch.gather and numpy side by side, and string constants, and
# prints the tables (markdown). Arguments go to run.py, e.g.
# --only a,h --rounds 1, or --update-readme (bench/results/, README.md,
# docs/Benchmarks.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sudo=""
if [ "$(id -u)" != 0 ]; then sudo=sudo; fi

"$root/utils/setup.sh"
packages="python3-numpy python3-torch python3-onnx python3-matplotlib"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  packages="$packages nodejs npm"
fi
missing=""
for p in $packages; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
# onnxruntime-node's install script downloads GPU libraries from outside the
# npm registry; the CPU runtime is inside the package.
if [ ! -d "$root/bench/ort/node_modules/onnxruntime-node" ]; then
  (cd "$root/bench/ort" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --ignore-scripts --no-audit --no-fund)
fi
"$root/utils/build.sh"
exec /usr/bin/python3 "$root/bench/run.py" "$@"
