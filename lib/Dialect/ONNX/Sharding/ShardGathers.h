//===- ShardGathers.h - onnx-shard-gathers' two halves ----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the two files of onnx-shard-gathers share: ShardGathers.cpp (the
// pass: which dimension and scheme, the outlining, the uneven and axis
// splits it partitions itself) and ShardIOSplit.cpp (shard-io=split: the
// slabs that cross a public function's boundary, its new signature and the
// calls adapted to it).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_DIALECT_ONNX_SHARDING_SHARDGATHERS_H
#define GATHER_LIB_DIALECT_ONNX_SHARDING_SHARDGATHERS_H

#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/Sharding/TrafficModel.h"
#include "gather/Runtime/ShardBlocks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace gather::ONNX {

/// The slice of `value` (static shape) that holds the indices [lo, lo +
/// count) of dimension `dim`.
mlir::Value createBlockSlice(mlir::OpBuilder &builder, mlir::Location loc,
                             mlir::Value value, int64_t dim,
                             mlir::OpFoldResult lo, mlir::OpFoldResult count);

/// The block of this process of `blocks` as a size: static when the blocks
/// are equal, else `count`.
mlir::OpFoldResult getBlockSize(mlir::OpBuilder &builder, ShardBlocks blocks,
                                mlir::Value count);

/// The type of a slab of `type` (a tensor or memref type) along `dim`
/// split into `blocks`: the block's size there when the blocks are equal,
/// else dynamic.
mlir::ShapedType getSlabType(mlir::Type type, int64_t dim, ShardBlocks blocks);

/// The whole `wholeType` from each process's `slab` (split along `dim`):
/// shard.all_gather, of dynamic size along `dim` cast to the whole size
/// when the slabs differ in size (CollectivesToRuntime.cpp lowers both).
mlir::Value createAllGather(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::StringAttr gridName, mlir::Value slab,
                            mlir::RankedTensorType wholeType, int64_t dim);

/// A private function marked kOutlinedGatherAttrName that takes `op`'s
/// operands and returns `resultTypes`, called in place of `op` (which is
/// erased); `builder` is set at the start of its body, which is returned.
mlir::Block *createOutlinedFunction(mlir::Operation *op,
                                    mlir::SymbolTable &symbolTable,
                                    mlir::OpBuilder &builder,
                                    mlir::TypeRange resultTypes);

/// The whole result of `op` split along its `axis` (into `blocks`) by
/// `scheme`, in the outlined function: `data` is the whole `data` or
/// (`dataIsSlab`) this process's slab, `indices` the whole indices, `lo`
/// and `count` this process's block of the axis. Every index is checked
/// with global positions first (the same error on every process).
mlir::Value createAxisSplit(mlir::OpBuilder &builder, mlir::Location loc,
                            mlir::Operation *op, AxisScheme scheme,
                            mlir::Value data, bool dataIsSlab,
                            mlir::Value indices, mlir::Value lo,
                            mlir::Value count, mlir::Value process,
                            ShardBlocks blocks, int64_t axis,
                            mlir::StringAttr gridName);

/// shard-io=split for one run of onnx-shard-gathers: the gathers whose
/// operands or result cross the boundary of their public function as this
/// process's slabs (outline), then the calls of the functions whose
/// signature changed (adaptCalls).
class ShardIOSplit {
public:
  /// With `remarks`, a remark at each gather says what is split, what stays
  /// whole and why.
  explicit ShardIOSplit(bool remarks) : remarks(remarks) {}

  /// Partitions `view` (split along `dim` into `blocks`) with the operands
  /// and result that cross the boundary of its public function taken and
  /// returned as this process's slabs (the function's signature changes),
  /// into a private function of its own (createOutlinedFunction). Returns
  /// false (nothing changed) when no operand or result is a slab.
  bool outline(const GatherElementsView &view, mlir::SymbolTable &symbolTable,
               mlir::StringAttr gridName, int64_t dim, int64_t axis,
               ShardBlocks blocks, AxisScheme scheme);

  /// Every call in `module` of a function whose signature io=split changed:
  /// it passes this process's slab of each whole value (a slice at the
  /// process's offset) and assembles each slab result for the caller, so the
  /// caller sees what it saw before.
  void adaptCalls(mlir::ModuleOp module, mlir::StringAttr gridName);

private:
  /// A slab of a function's signature with io=split: the dimension split, its
  /// blocks, and whether it is a memref argument the result is written to.
  struct SlabSplit {
    int64_t dim;
    ShardBlocks blocks;
    bool destination = false;
  };

  /// The arguments and results of a public function that are slabs with
  /// io=split.
  struct SplitSignature {
    llvm::SmallDenseMap<unsigned, SlabSplit> arguments;
    llvm::SmallDenseMap<unsigned, SlabSplit> results;
  };

  bool remarks;
  /// The public functions whose signature io=split changed.
  llvm::DenseMap<mlir::func::FuncOp, SplitSignature> signatures;
};

} // namespace gather::ONNX

#endif // GATHER_LIB_DIALECT_ONNX_SHARDING_SHARDGATHERS_H
