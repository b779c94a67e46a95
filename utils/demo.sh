#!/usr/bin/env bash
# The main job: installs the dependencies, builds gather, then compiles the
# three examples of the ONNX GatherElements spec (opset 13) from the onnx
# dialect through linalg, bufferization, scf and the LLVM dialect, JIT-runs
# them with gather-runner and prints each result next to the spec's output.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/utils/setup.sh"
echo "Building gather in $build (a few minutes on a fresh machine)..."
# Show every 10th build step; a failed build still stops the script (pipefail).
"$root/utils/build.sh" | awk '/^\[[0-9]+\/[0-9]+\]/ { if (++n % 10 == 1) print }'
echo "gather built in $build"

input=$root/test/Runner/spec-examples.mlir
echo
echo "== Lowering of test_gather_elements_0 (onnx -> linalg) =="
"$build/bin/gather-opt" "$input" --convert-onnx-to-linalg --canonicalize \
  | sed -n '/func.func @gather_elements_0(/,/^  }/p'
echo
echo "== JIT-running the spec examples: gather-runner $input -e main --entry-point-result=void =="
output=$("$build/bin/gather-runner" "$input" -e main --entry-point-result=void)
names=(test_gather_elements_0 test_gather_elements_1 test_gather_elements_negative_indices)
expected=("[[1, 1], [4, 3]]" "[[4, 8, 3], [7, 2, 3]]" "[[7, 5, 3], [4, 2, 3]]")
i=0
status=0
# printMemref prints a header line, then the rows; join the rows of each result.
while IFS= read -r result; do
  got=$(echo "$result" | tr -s ' ' | sed 's/ ,/,/g')
  verdict="matches the spec"
  [ "$got" = "${expected[$i]}" ] || { verdict="DIFFERS from the spec (${expected[$i]})"; status=1; }
  printf '%-40s %-26s %s\n' "${names[$i]}:" "$got" "$verdict"
  i=$((i + 1))
done < <(echo "$output" | awk '/^Unranked Memref/ {if (row != "") print row; row=""; next} {row = row $0} END {if (row != "") print row}' | sed 's/, *$//')
[ "$i" -eq 3 ] || { echo "expected 3 results, got $i"; status=1; }
exit $status
