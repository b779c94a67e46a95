#!/usr/bin/env bash
# The main job: installs the dependencies, builds gather, then takes the
# three examples of the ONNX GatherElements spec (opset 13) as the official
# ONNX backend node tests ship them (model.onnx + input/output TensorProtos,
# Debian's libonnx-testdata), imports each into the onnx dialect, compiles it
# through linalg, bufferization, scf and the LLVM dialect, JIT-runs it with
# gather-runner on the test inputs, prints the result next to the spec's
# output, and checks it against the expected output file.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
data=/usr/share/libonnx-testdata/data/node

"$root/utils/setup.sh"
echo "Building gather in $build (a few minutes on a fresh machine)..."
# Show every 10th build step; a failed build still stops the script (pipefail).
"$root/utils/build.sh" | awk '/^\[[0-9]+\/[0-9]+\]/ { if (++n % 10 == 1) print }'
echo "gather built in $build"
bin=$build/bin

first=$data/test_gather_elements_0
echo
echo "== test_gather_elements_0: the model imported into the onnx dialect =="
"$bin/gather-translate" --import-onnx "$first/model.onnx"
echo
echo "== ... lowered to linalg (gather-opt --convert-onnx-to-linalg --canonicalize) =="
"$bin/gather-translate" --import-onnx "$first/model.onnx" \
  | "$bin/gather-opt" --convert-onnx-to-linalg --canonicalize

echo
echo "== JIT-running the spec examples on their ONNX test data =="
names=(test_gather_elements_0 test_gather_elements_1 test_gather_elements_negative_indices)
spec=("[[1, 1], [4, 3]]" "[[4, 8, 3], [7, 2, 3]]" "[[7, 5, 3], [4, 2, 3]]")
status=0
for i in 0 1 2; do
  dir=$data/${names[$i]}
  inputs=$dir/test_data_set_0/input_0.pb,$dir/test_data_set_0/input_1.pb
  # The result, printed by gather-runner: "result 0: tensor<...> = [...]".
  result=$("$bin/gather-translate" --import-onnx "$dir/model.onnx" --onnx-inputs="$inputs" \
    | "$bin/gather-runner" -e main --entry-point-result=void)
  values=${result#*= }
  verdict="matches the spec"
  [ "$values" = "${spec[$i]}" ] || { verdict="DIFFERS from the spec (${spec[$i]})"; status=1; }
  # The same run compared with the test's output_0.pb, bit for bit.
  check=$("$bin/gather-translate" --import-onnx "$dir/model.onnx" --onnx-inputs="$inputs" \
    --onnx-expected="$dir/test_data_set_0/output_0.pb" \
    | "$bin/gather-runner" -e main --entry-point-result=void 2>&1) || status=1
  printf '%-40s %-26s %s; output_0.pb: %s\n' "${names[$i]}:" "$values" "$verdict" "${check#output 0: }"
done
exit $status
