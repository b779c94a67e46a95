#!/usr/bin/env bash
# Regenerates the dialect, op and pass docs from the TableGen sources and
# copies them into docs/ (test/Docs/docs-are-fresh.test fails until you do).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
ninja -C "$build" mlir-doc
mkdir -p "$root/docs/generated"
cp "$build"/docs/gather/*.md "$root/docs/generated/"
echo "updated: $(cd "$build/docs/gather" && ls *.md | tr '\n' ' ')"
