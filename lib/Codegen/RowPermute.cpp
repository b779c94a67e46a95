//===- RowPermute.cpp - In-register gathers from short rows ---------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements selectRowPermute and buildRowPermute (RowPermute.h): the table
// of x86 permute instructions and the IR of one in-register gather.
//
//===----------------------------------------------------------------------===//

#include "RowPermute.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace gather::codegen;

namespace {

/// One permute instruction of the table.
struct PermuteEntry {
  /// What the target must have.
  const char *features;
  unsigned bits;
  bool isFloat;
  RowPermute permute;
};

} // namespace

/// In order of preference: one register before two, 512-bit before 256-bit.
static const PermuteEntry kPermutes[] = {
    {"+avx512f",
     32,
     true,
     {"llvm.x86.avx512.permvar.sf.512", "vpermps zmm", 16, 1}},
    {"+avx512f",
     32,
     false,
     {"llvm.x86.avx512.permvar.si.512", "vpermd zmm", 16, 1}},
    {"+avx512f",
     64,
     true,
     {"llvm.x86.avx512.permvar.df.512", "vpermpd zmm", 8, 1}},
    {"+avx512f",
     64,
     false,
     {"llvm.x86.avx512.permvar.di.512", "vpermq zmm", 8, 1}},
    {"+avx512f",
     32,
     true,
     {"llvm.x86.avx512.vpermi2var.ps.512", "vpermi2ps zmm", 16, 2}},
    {"+avx512f",
     32,
     false,
     {"llvm.x86.avx512.vpermi2var.d.512", "vpermi2d zmm", 16, 2}},
    {"+avx512f",
     64,
     true,
     {"llvm.x86.avx512.vpermi2var.pd.512", "vpermi2pd zmm", 8, 2}},
    {"+avx512f",
     64,
     false,
     {"llvm.x86.avx512.vpermi2var.q.512", "vpermi2q zmm", 8, 2}},
    {"+avx2", 32, true, {"llvm.x86.avx2.permps", "vpermps ymm", 8, 1}},
    {"+avx2", 32, false, {"llvm.x86.avx2.permd", "vpermd ymm", 8, 1}},
};

std::optional<RowPermute>
gather::codegen::selectRowPermute(const TargetInfo &target, Type elementType,
                                  int64_t rowLength, int64_t vectorSize,
                                  std::string *whyNot) {
  bool isFloat = elementType.isF32() || elementType.isF64();
  if (!isFloat && !elementType.isSignlessInteger(32) &&
      !elementType.isSignlessInteger(64)) {
    std::string name;
    llvm::raw_string_ostream(name) << elementType;
    *whyNot = name + " elements";
    return std::nullopt;
  }
  unsigned bits = elementType.getIntOrFloatBitWidth();
  bool anyOnTarget = false;
  for (const PermuteEntry &entry : kPermutes) {
    if (entry.bits != bits || entry.isFloat != isFloat ||
        !target.hasFeatures(entry.features))
      continue;
    anyOnTarget = true;
    if (entry.permute.getCapacity() >= rowLength &&
        vectorSize % entry.permute.lanes == 0)
      return entry.permute;
  }
  if (!anyOnTarget)
    *whyNot = "no permute of " + std::to_string(bits) + "-bit elements on " +
              target.getCPU().str();
  else
    *whyNot = "rows of " + std::to_string(rowLength) + " with vectors of " +
              std::to_string(vectorSize) + ": no permute on " +
              target.getCPU().str() + " holds them";
  return std::nullopt;
}

const RowPermute *gather::codegen::lookupRowPermute(StringRef intrinsic) {
  for (const PermuteEntry &entry : kPermutes)
    if (entry.permute.intrinsic == intrinsic)
      return &entry.permute;
  return nullptr;
}

Value gather::codegen::buildRowPermute(OpBuilder &b, Location loc,
                                       const RowPermute &permute, Value tensor,
                                       ValueRange rowStart, int64_t rowLength,
                                       Value laneIndices) {
  Type element = getElementTypeOrSelf(tensor.getType());
  int64_t capacity = permute.getCapacity();
  int64_t vectorSize = cast<VectorType>(laneIndices.getType()).getNumElements();
  // The row, in `capacity` lanes: a masked read when it is shorter (the
  // lanes past it hold 0 and are never read from memory).
  auto rowType = VectorType::get({capacity}, element);
  Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  Value mask;
  if (rowLength < capacity)
    mask = vector::ConstantMaskOp::create(
        b, loc, VectorType::get({capacity}, b.getI1Type()),
        ArrayRef<int64_t>{rowLength});
  int64_t rank = cast<ShapedType>(tensor.getType()).getRank();
  Value row = vector::TransferReadOp::create(
      b, loc, rowType, tensor, rowStart,
      AffineMap::getMinorIdentityMap(rank, 1, b.getContext()), padding, mask,
      b.getBoolArrayAttr({true}));
  // Lane j: the row's element at lane number j.
  SmallVector<Value> elements;
  for (int64_t j = 0; j < vectorSize; ++j) {
    Value number =
        vector::ExtractOp::create(b, loc, laneIndices, ArrayRef<int64_t>{j});
    elements.push_back(
        vector::ExtractOp::create(b, loc, row, ArrayRef<OpFoldResult>{number}));
  }
  auto lanes = vector::FromElementsOp::create(
      b, loc, VectorType::get({vectorSize}, element), elements);
  lanes->setAttr(kRowPermuteAttrName, b.getStringAttr(permute.intrinsic));
  return lanes;
}

/// The row and the lane numbers of `lanes`, a vector.from_elements whose
/// element j is vector.extract %row[%n] with %n = vector.extract
/// %numbers[j]; null values unless it is so.
static std::pair<Value, Value> matchRowPermute(vector::FromElementsOp lanes) {
  Value row, numbers;
  for (auto [j, element] : llvm::enumerate(lanes.getElements())) {
    auto extract = element.getDefiningOp<vector::ExtractOp>();
    if (!extract || extract.getNumIndices() != 1 ||
        extract.getDynamicPosition().size() != 1 ||
        (row && extract.getSource() != row))
      return {};
    row = extract.getSource();
    auto number =
        extract.getDynamicPosition().front().getDefiningOp<vector::ExtractOp>();
    if (!number || !number.getDynamicPosition().empty() ||
        number.getStaticPosition() != ArrayRef<int64_t>{int64_t(j)} ||
        (numbers && number.getSource() != numbers))
      return {};
    numbers = number.getSource();
  }
  return {row, numbers};
}

LogicalResult gather::codegen::lowerRowPermute(RewriterBase &rewriter,
                                               vector::FromElementsOp lanes) {
  auto name = lanes->getAttrOfType<StringAttr>(kRowPermuteAttrName);
  const RowPermute *permute = name ? lookupRowPermute(name) : nullptr;
  auto [row, numbers] = matchRowPermute(lanes);
  auto resultType = cast<VectorType>(lanes.getType());
  if (!permute || !row || resultType.getRank() != 1 ||
      cast<VectorType>(row.getType()).getNumElements() !=
          permute->getCapacity() ||
      resultType.getNumElements() % permute->lanes != 0)
    return failure();
  Location loc = lanes.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(lanes);
  Type element = resultType.getElementType();
  int64_t vectorSize = resultType.getNumElements();
  SmallVector<Value> registers;
  for (int64_t r = 0; r < permute->registers; ++r)
    registers.push_back(
        permute->registers == 1
            ? row
            : vector::ExtractStridedSliceOp::create(
                  rewriter, loc, row, ArrayRef<int64_t>{r * permute->lanes},
                  ArrayRef<int64_t>{permute->lanes}, ArrayRef<int64_t>{1}));
  // Lane numbers as integers of the element's width (exact: each is below
  // the row length).
  auto numberType = VectorType::get(
      {vectorSize}, rewriter.getIntegerType(element.getIntOrFloatBitWidth()));
  Value wide = numbers;
  if (getElementTypeOrSelf(numbers.getType()) != numberType.getElementType())
    wide = getElementTypeOrSelf(numbers.getType()).isIndex()
               ? arith::IndexCastOp::create(rewriter, loc, numberType, numbers)
                     .getResult()
               : arith::TruncIOp::create(rewriter, loc, numberType, numbers)
                     .getResult();
  auto partType = VectorType::get({permute->lanes}, element);
  Value result;
  for (int64_t first = 0; first < vectorSize; first += permute->lanes) {
    Value part = wide;
    if (permute->lanes != vectorSize)
      part = vector::ExtractStridedSliceOp::create(
          rewriter, loc, wide, ArrayRef<int64_t>{first},
          ArrayRef<int64_t>{permute->lanes}, ArrayRef<int64_t>{1});
    SmallVector<Value> arguments = {registers[0], part};
    if (permute->registers == 2)
      arguments.push_back(registers[1]);
    Value partLanes = LLVM::CallIntrinsicOp::create(
                          rewriter, loc, partType,
                          rewriter.getStringAttr(permute->intrinsic), arguments)
                          .getResult(0);
    if (permute->lanes == vectorSize) {
      result = partLanes;
      break;
    }
    if (!result)
      result = arith::ConstantOp::create(rewriter, loc,
                                         rewriter.getZeroAttr(resultType));
    result = vector::InsertStridedSliceOp::create(
        rewriter, loc, partLanes, result, ArrayRef<int64_t>{first},
        ArrayRef<int64_t>{1});
  }
  rewriter.replaceOp(lanes, result);
  return success();
}
