#!/usr/bin/env bash
# Configures (once) and builds gather in build/ with clang 22, lld and Ninja.
# Usage: utils/build.sh [extra cmake args...]   (BUILD_DIR overrides build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=/usr/lib/llvm-22/bin/clang \
    -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
    -DLLVM_USE_LINKER=lld \
    -DGATHER_WERROR=ON \
    "$@"
fi
# GATHER_BUILD_TARGETS: what to build (default: everything and the docs).
ninja -C "$build" ${GATHER_BUILD_TARGETS:-all mlir-doc}
