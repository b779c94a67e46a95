// RUN: gather-opt %s --onnx-to-llvm -o /dev/null 2>&1 | FileCheck %s
// RUN: gather-opt %s --onnx-to-llvm="unfused-remarks=false" -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// A linalg.generic that reads a tensor with tensor.extract but does not get
// gather's code (here two reads per element) is named by a remark of
// gather-codegen through the pipeline too, and the pipeline option
// unfused-remarks=false silences it; the code is lowered either way.
// CHECK: unfused-remarks.mlir:[[# @LINE + 7]]:8: remark: gather-codegen: not fused: not exactly one tensor.extract in its body
// CHECK-NOT: {{: remark:}}
// QUIET-NOT: {{: remark:}}
#map = affine_map<(d0) -> (d0)>
func.func @two_reads(%data: tensor<8xf32>, %i: tensor<4xindex>,
                     %j: tensor<4xindex>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#map, #map, #map],
                       iterator_types = ["parallel"]}
      ins(%i, %j : tensor<4xindex>, tensor<4xindex>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: index, %b: index, %out: f32):
    %x = tensor.extract %data[%a] : tensor<8xf32>
    %y = tensor.extract %data[%b] : tensor<8xf32>
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
