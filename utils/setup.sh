#!/usr/bin/env bash
# Installs every Debian package that gather's build and test suite need.
# Idempotent: packages already installed are skipped by apt-get.
# Usage: sudo utils/setup.sh   (as root on Debian 12; runs `apt-get update` first)
set -euo pipefail

packages=(
  # LLVM/MLIR 22.1 toolchain (headers, CMake packages, libMLIR.so, mlir-opt,
  # lit, FileCheck, llc and lli for the LLVM IR tests)
  llvm-22 llvm-22-runtime llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  clang-22 lld-22 libomp-22-dev clang-format-22
  # utils/clang-tidy.sh, which CI runs
  clang-tidy-22
  # ONNX model import (libonnx, protobuf) and the ONNX backend test data;
  # protoc encodes the text-format test models
  libonnx-dev libonnx-testdata libprotobuf-dev protobuf-compiler
  # build tools
  cmake ninja-build
  # MPI for kernels partitioned over processes (shard-grid): MPICH, which
  # MLIR 22's MPI lowering matches (libgather_mpi_runtime, MPI tests)
  mpich libmpich-dev
  # the install tests: a project built against the installed gather with the
  # system's default compiler (GCC), and the .deb made by cpack, whose
  # Depends come partly from dpkg-shlibdeps (dpkg-dev)
  g++ dpkg-dev
  # the sanitizer build and the fuzzers (ASan, UBSan, libFuzzer runtimes) and
  # the differential tests' oracle (numpy, for /usr/bin/python3)
  libclang-rt-22-dev python3-numpy
  # lit's per-test time limit (test/lit.cfg.py)
  python3-psutil
  # the Python package: its extension module's headers (python/), its tests
  python3-dev python3-pytest
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup: installed ${missing[*]}"
