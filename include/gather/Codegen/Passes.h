//===- Passes.h - Code generation passes of gather --------------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Declares the code generation passes defined in Passes.td:
//   - createCodegenPass(): `gather-codegen`
//   - createSelectFormPass(): `gather-select-form`
//   - createEliminateDestinationEmptyTensorsPass():
//     `gather-eliminate-destination-empty-tensors`
// and registerGatherCodegenPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CODEGEN_PASSES_H
#define GATHER_CODEGEN_PASSES_H

#include "gather/Codegen/TargetInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace gather {

#define GEN_PASS_DECL
#include "gather/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Codegen/Passes.h.inc"

} // namespace gather

#endif // GATHER_CODEGEN_PASSES_H
