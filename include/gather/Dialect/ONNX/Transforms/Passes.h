//===- Passes.h - Transforms of the onnx dialect ----------------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Declares the onnx dialect's passes (Passes.td):
//   - createONNXShapeInferencePass(): `onnx-shape-inference`;
// and registerONNXTransformsPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H
#define GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace gather::ONNX {

#define GEN_PASS_DECL
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Dialect/ONNX/Transforms/Passes.h.inc"

} // namespace gather::ONNX

#endif // GATHER_DIALECT_ONNX_TRANSFORMS_PASSES_H
