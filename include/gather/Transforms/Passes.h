//===- Passes.h - Code generation passes of gather --------------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Declares the code generation passes defined in Passes.td:
//   - createTileAndVectorizeGathersPass(): `linalg-tile-and-vectorize-gathers`
//   - createSelectGatherFormPass(): `select-gather-form`
//   - createEliminateDestinationEmptyTensorsPass():
//     `eliminate-destination-empty-tensors`
// and registerGatherTransformsPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TRANSFORMS_PASSES_H
#define GATHER_TRANSFORMS_PASSES_H

#include "gather/Transforms/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace gather {

#define GEN_PASS_DECL
#include "gather/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Transforms/Passes.h.inc"

} // namespace gather

#endif // GATHER_TRANSFORMS_PASSES_H
