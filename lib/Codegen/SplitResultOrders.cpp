//===- SplitResultOrders.cpp - One gather per order of its results --------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SplitResultOrders.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;

/// The ops of `body` (but its terminator, none with memory effects) that
/// the values it yields at `yields` (operand numbers of the terminator)
/// depend on.
static llvm::DenseSet<Operation *> getOpsUsedBy(Block *body,
                                                ArrayRef<unsigned> yields) {
  Operation *terminator = body->getTerminator();
  llvm::DenseSet<Operation *> used;
  auto isUsed = [&](Value value) {
    return llvm::any_of(value.getUses(), [&](OpOperand &use) {
      Operation *owner = body->findAncestorOpInBlock(*use.getOwner());
      if (owner == terminator)
        return llvm::is_contained(yields, use.getOperandNumber());
      return used.contains(owner);
    });
  };
  for (Operation &op : llvm::reverse(body->without_terminator()))
    if (llvm::any_of(op.getResults(), isUsed))
      used.insert(&op);
  return used;
}

SmallVector<linalg::GenericOp>
gather::codegen::splitByResultOrder(RewriterBase &rewriter,
                                    linalg::GenericOp op, StringRef *whyNot) {
  Block *body = op.getBody();
  if (llvm::any_of(op.getRegionOutputArgs(),
                   [](BlockArgument output) { return !output.use_empty(); })) {
    *whyNot = "its body reads an output";
    return {};
  }
  // (Each part computes what its results use: effects would be repeated.)
  if (llvm::any_of(body->without_terminator(), [](Operation &bodyOp) {
        return !isMemoryEffectFree(&bodyOp);
      })) {
    *whyNot = "an op with memory effects in its body";
    return {};
  }
  bool nestedIndex = false;
  body->walk(
      [&](linalg::IndexOp index) { nestedIndex |= index->getBlock() != body; });
  if (nestedIndex) {
    *whyNot = "a linalg.index in a nested region";
    return {};
  }
  // The results by their output map, in the order of the first of each.
  llvm::MapVector<AffineMap, SmallVector<unsigned>> orders;
  for (OpOperand &init : op.getDpsInitsMutable())
    orders[op.getMatchingIndexingMap(&init)].push_back(
        op.getTiedOpResult(&init).getResultNumber());
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<linalg::GenericOp> split;
  SmallVector<Value> replacements(op.getNumResults());
  rewriter.setInsertionPoint(op);
  for (auto &entry : orders) {
    AffineMap order = entry.first;
    ArrayRef<unsigned> results = entry.second;
    AffineMap inverse = inversePermutation(order);
    llvm::DenseSet<Operation *> used = getOpsUsedBy(body, results);
    auto isUsed = [&](BlockArgument argument) {
      return llvm::any_of(argument.getUses(), [&](OpOperand &use) {
        Operation *owner = body->findAncestorOpInBlock(*use.getOwner());
        return owner == yield
                   ? llvm::is_contained(results, use.getOperandNumber())
                   : used.contains(owner);
      });
    };
    SmallVector<Value> inputs, inits;
    SmallVector<AffineMap> maps;
    SmallVector<BlockArgument> arguments;
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument argument = op.getMatchingBlockArgument(input);
      if (!isUsed(argument))
        continue;
      inputs.push_back(input->get());
      maps.push_back(op.getMatchingIndexingMap(input).compose(inverse));
      arguments.push_back(argument);
    }
    SmallVector<Type> resultTypes;
    for (unsigned result : results) {
      OpOperand *init = op.getDpsInitOperand(result);
      inits.push_back(init->get());
      maps.push_back(AffineMap::getMultiDimIdentityMap(order.getNumDims(),
                                                       op.getContext()));
      arguments.push_back(op.getMatchingBlockArgument(init));
      resultTypes.push_back(op.getResult(result).getType());
    }
    auto part = linalg::GenericOp::create(
        rewriter, op.getLoc(), resultTypes, inputs, inits, maps, iterators,
        [&](OpBuilder &b, Location loc, ValueRange newArguments) {
          IRMapping mapping;
          mapping.map(arguments, newArguments);
          for (Operation &bodyOp : body->without_terminator()) {
            if (!used.contains(&bodyOp))
              continue;
            if (auto index = dyn_cast<linalg::IndexOp>(bodyOp)) {
              // Loop d of `op` is loop r of the part where `order` sends d.
              unsigned r =
                  *order.getResultPosition(b.getAffineDimExpr(index.getDim()));
              mapping.map(index.getResult(),
                          linalg::IndexOp::create(b, loc, r).getResult());
              continue;
            }
            b.clone(bodyOp, mapping);
          }
          SmallVector<Value> yielded;
          for (unsigned result : results)
            yielded.push_back(
                mapping.lookupOrDefault(yield.getOperand(result)));
          linalg::YieldOp::create(b, loc, yielded);
        });
    for (auto [result, value] : llvm::zip_equal(results, part.getResults()))
      replacements[result] = value;
    split.push_back(part);
  }
  rewriter.replaceOp(op, replacements);
  return split;
}
