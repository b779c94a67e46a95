#!/bin/sh
# Interestingness test for gather-reduce: $1 is gather-opt, $2 the candidate
# file. The candidate is interesting (exit status 1, mlir-reduce's
# convention) while convert-onnx-to-linalg still rejects a GatherElements
# with both operands unranked.
"$1" "$2" --convert-onnx-to-linalg 2>&1 | grep -q "cannot be lowered with both 'data' and 'indices' unranked" && exit 1
exit 0
