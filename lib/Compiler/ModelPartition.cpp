//===- ModelPartition.cpp - What gather compiles, what the host runs ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/Conversion/ONNXToLinalg/ControlFlowLowering.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Dialect/ONNX/Transforms/Passes.h"

#include "mlir/IR/Location.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// `node '<name>' (<op type>)` for an imported node (its location says it),
/// else the op's name and location.
static std::string describeNode(Operation *op) {
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return name.getName().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "' at " << op->getLoc();
  return text;
}

FailureOr<gather::ModelPartition> gather::partitionModel(ModuleOp module) {
  ModelPartition partition;
  // (Post-order: an onnx.If or onnx.Loop after the nodes of its subgraphs,
  // and left to the host with them, or where it does not lower itself.)
  llvm::SmallPtrSet<Operation *, 4> withHostNodes;
  module.walk([&](Operation *op) {
    bool isHostNode = (ONNX::isForeignONNXOp(op) &&
                       op->getName().getStringRef() != ONNX::kNoValueOpName) ||
                      (isa<ONNX::IfOp, ONNX::LoopOp>(op) &&
                       (withHostNodes.contains(op) || getWhyNotLowerable(op)));
    if (!isHostNode)
      return;
    partition.hostNodes.push_back(describeNode(op));
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp())
      withHostNodes.insert(parent);
  });
  if (partition.hostNodes.empty())
    return partition;
  PassManager pm = PassManager::on<ModuleOp>(module.getContext());
  ONNX::ONNXOutlineGathersPassOptions outline;
  outline.emit = ONNX::OutlinedPart::Kernels;
  pm.addPass(ONNX::createONNXOutlineGathersPass(outline));
  if (failed(pm.run(module)))
    return failure();
  partition.outlined = true;
  return partition;
}
