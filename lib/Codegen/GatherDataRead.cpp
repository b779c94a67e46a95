//===- GatherDataRead.cpp - The one recognizer of a gather's read ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Codegen/GatherDataRead.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace gather::codegen;

/// Sets `*whyNot` (if not null) to `reason`; returns nullopt.
static std::optional<GatherDataRead> reject(StringRef *whyNot,
                                            StringRef reason) {
  if (whyNot)
    *whyNot = reason;
  return std::nullopt;
}

/// The inputs of `op` whose block arguments `coordinates` depend on
/// (through the ops of the body); the single input of `op` if they depend
/// on none (a gather at coordinates that do not depend on the index values
/// is still a gather).
static SmallVector<OpOperand *> getInputsReadAt(linalg::GenericOp op,
                                                ValueRange coordinates) {
  Block *body = op.getBody();
  SmallVector<OpOperand *> inputs;
  SmallVector<Value> worklist(coordinates);
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (argument.getOwner() == body &&
          argument.getArgNumber() < op.getNumDpsInputs())
        inputs.push_back(op.getDpsInputOperand(argument.getArgNumber()));
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() == body)
      llvm::append_range(worklist, def->getOperands());
  }
  if (inputs.empty() && op.getNumDpsInputs() == 1)
    inputs.push_back(op.getDpsInputOperand(0));
  return inputs;
}

std::optional<GatherDataRead>
gather::codegen::findGatherDataRead(linalg::GenericOp op, StringRef *whyNot) {
  GatherDataRead found;
  if (op.hasPureTensorSemantics()) {
    auto extracts = op.getBody()->getOps<tensor::ExtractOp>();
    if (std::distance(extracts.begin(), extracts.end()) != 1)
      return reject(whyNot, "not exactly one tensor.extract in its body");
    tensor::ExtractOp extract = *extracts.begin();
    found = {extract, extract.getTensor(), extract.getIndices(), nullptr};
  } else if (op.hasPureBufferSemantics()) {
    // (A memref.load of a bufferization.to_buffer folds into a
    // tensor.extract of its tensor: after a partial bufferization and a
    // canonicalization, the read of a generic on buffers may be either.)
    SmallVector<Operation *> reads;
    for (Operation &inBody : op.getBody()->getOperations())
      if (isa<memref::LoadOp, tensor::ExtractOp>(inBody))
        reads.push_back(&inBody);
    if (reads.size() != 1)
      return reject(whyNot, "not exactly one memref.load or tensor.extract in "
                            "its body");
    if (auto load = dyn_cast<memref::LoadOp>(reads.front())) {
      found = {load, load.getMemRef(), load.getIndices(), nullptr};
    } else {
      auto extract = cast<tensor::ExtractOp>(reads.front());
      found = {extract, extract.getTensor(), extract.getIndices(), nullptr};
    }
  } else {
    return reject(whyNot, "neither on tensors nor on buffers");
  }
  bool onTensors = isa<tensor::ExtractOp>(found.read);
  if (op->isAncestor(found.data.getParentBlock()->getParentOp()))
    return reject(whyNot, onTensors
                              ? "its tensor.extract reads a value of its body"
                              : "its memref.load reads a buffer of its body");
  SmallVector<OpOperand *> readAt = getInputsReadAt(op, found.coordinates);
  if (readAt.empty())
    return reject(whyNot, onTensors
                              ? "its tensor.extract reads at no input's value"
                              : "its memref.load reads at no input's value");
  if (readAt.size() > 1)
    return reject(whyNot, onTensors ? "its tensor.extract reads at the values "
                                      "of several inputs"
                                    : "its memref.load reads at the values of "
                                      "several inputs");
  found.indices = readAt.front();
  return found;
}

std::optional<int64_t>
gather::codegen::getGatherAxis(linalg::GenericOp op,
                               const GatherDataRead &read) {
  auto indicesType = cast<ShapedType>(read.indices->get().getType());
  std::optional<int64_t> axis;
  for (auto [d, coordinate] : llvm::enumerate(read.coordinates)) {
    auto index = coordinate.getDefiningOp<linalg::IndexOp>();
    if (index && index.getDim() == d)
      continue;
    if (d < static_cast<size_t>(indicesType.getRank()) &&
        indicesType.getDimSize(d) == 1 && matchPattern(coordinate, m_Zero()))
      continue;
    if (axis)
      return std::nullopt;
    axis = d;
  }
  return axis;
}
