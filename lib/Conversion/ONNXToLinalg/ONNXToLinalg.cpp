//===- ONNXToLinalg.cpp - onnx dialect to linalg/tensor/arith -------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Lowers onnx.GatherElements (ONNX opset 13) to an all-parallel
// linalg.generic over the shape of `indices` that reads `data` with
// tensor.extract. The patterns match ops by name, so they also lower the
// ops of another `onnx` dialect (onnx-mlir's) or unregistered ones.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/GatherElementsView.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Runtime/RuntimeReporter.h"
#include "gather/Support/CheckedSize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/xxhash.h"

namespace gather {
#define GEN_PASS_DEF_CONVERTONNXTOLINALGPASS
#include "gather/Conversion/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;

namespace {

/// The ops lowered by name, whichever dialect (if any) defines them.
constexpr StringLiteral kReturnName = "onnx.Return";
constexpr StringLiteral kNoValueName = "onnx.NoValue";
constexpr StringLiteral kEntryPointName = "onnx.EntryPoint";

/// Bad index values reported one by one per execution of an op; the rest
/// are counted.
constexpr int64_t kMaxReportedIndices = 10;

/// Returns the size of dimension `dim` of the ranked tensor `value` as an
/// `index` value: a constant when it is static, a tensor.dim otherwise.
Value getDimSize(OpBuilder &builder, Location loc, Value value, int64_t dim) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(builder, loc, type.getDimSize(dim));
  return tensor::DimOp::create(builder, loc, value, dim);
}

Value negate(OpBuilder &builder, Location loc, Value condition) {
  return arith::XOrIOp::create(
      builder, loc, condition,
      arith::ConstantIntOp::create(builder, loc, 1, 1));
}

Value toI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

/// onnx.GatherElements -> tensor.empty + linalg.generic:
///
///   out[i0, .., ir-1] = data[i0, .., k, .., ir-1],  k at position `axis`,
///   k = safe(indices[i0, .., ir-1])
///
/// where safe(i) = i + s if i < 0 (s = data.shape[axis]), then 0 if the
/// result is still outside [0, s). The clamp keeps every read inside `data`
/// for any index value; valid inputs never reach it. With run-time checks,
/// invalid shapes and index values are reported through gather's runtime
/// before the gather (see Passes.td).
class GatherElementsLowering {
public:
  GatherElementsLowering(OpBuilder &builder, Location loc, Type declaredType,
                         const GatherElementsLoweringOptions &options)
      : loc(loc), declaredType(declaredType),
        runtimeChecks(options.runtimeChecks),
        anchor(builder.getInsertionBlock()->getParentOp()),
        start(builder.saveInsertionPoint()), listener(builder.getListener()) {}

  FailureOr<Value> lower(OpBuilder &builder, Value data, Value indices,
                         int64_t axis) {
    module = isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                   : anchor->getParentOfType<ModuleOp>();
    if (!module)
      return emitError(loc, "cannot lower 'onnx.GatherElements' outside a "
                            "builtin.module");
    // Every report takes the location string from where the lowering
    // started, so that it dominates them all.
    reporter.emplace(module, loc, listener);
    reporter->setLocationInsertionPoint(start);
    auto opError = [&]() {
      return emitError(loc) << "'onnx.GatherElements' op ";
    };
    if (failed(ONNX::verifyGatherElements(opError, data, indices, axis,
                                          declaredType)))
      return failure();
    // An unranked operand that is a tensor.cast of a ranked tensor: use the
    // ranked source (folding the cast later could otherwise produce a cast
    // between different ranks).
    auto rankedSource = [](Value value) {
      while (!isa<RankedTensorType>(value.getType())) {
        auto cast = value.getDefiningOp<tensor::CastOp>();
        if (!cast)
          break;
        value = cast.getSource();
      }
      return value;
    };
    data = rankedSource(data);
    indices = rankedSource(indices);
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
    if (dataType && indicesType && dataType.getRank() != indicesType.getRank())
      return opError() << "operand 'data' has rank " << dataType.getRank()
                       << " and operand 'indices' has rank "
                       << indicesType.getRank()
                       << " (seen through tensor.cast); the ranks must be "
                          "equal";
    if (!dataType && !indicesType)
      return opError() << "cannot be lowered with both 'data' and 'indices' "
                          "unranked: the rank is unknown";
    // rank(data) = rank(indices): the ranked operand gives it (verified).
    int64_t rank = dataType ? dataType.getRank() : indicesType.getRank();
    if (axis < 0)
      axis += rank;

    Value result =
        dataType && indicesType
            ? lowerRanked(builder, data, indices, axis)
            : lowerWithUnrankedOperand(builder, data, indices, rank, axis);
    if (result.getType() != declaredType)
      result = tensor::CastOp::create(builder, loc, declaredType, result);
    return result;
  }

private:
  /// Lowers with ranked `data` and `indices`; returns a tensor of the shape
  /// of `indices`.
  Value lowerRanked(OpBuilder &builder, Value data, Value indices,
                    int64_t axis) {
    auto dataType = cast<RankedTensorType>(data.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    Value axisSize = getDimSize(builder, loc, data, axis);
    // The shape of `indices`, with the static sizes the declared result type
    // adds (checked at run time below).
    SmallVector<int64_t> shape(indicesType.getShape());
    if (auto declared = dyn_cast<RankedTensorType>(declaredType))
      for (int64_t d = 0; d < indicesType.getRank(); ++d)
        if (ShapedType::isDynamic(shape[d]))
          shape[d] = declared.getDimSize(d);
    auto resultType = RankedTensorType::get(shape, dataType.getElementType());

    // Whether the gather stays inside its buffers: null when statically
    // known. These scalar guards stay even without run-time checks.
    Value gatherIsSafe =
        emitShapeChecks(builder, data, indices, axis, resultType);
    bool checkIndices = runtimeChecks && needsIndexCheck(data, indices, axis);
    // The gather and, with the index check, whether any index value was out
    // of range (found by the gather itself: one pass over `indices`).
    auto gather = [&](OpBuilder &b, Location nestedLoc) {
      return emitGather(b, nestedLoc, data, indices, axis, axisSize, resultType,
                        checkIndices);
    };
    SmallVector<Value> values;
    if (!gatherIsSafe) {
      values = gather(builder, loc);
    } else {
      auto ifOp = scf::IfOp::create(
          builder, loc, gatherIsSafe,
          [&](OpBuilder &b, Location nestedLoc) {
            scf::YieldOp::create(b, nestedLoc, gather(b, nestedLoc));
          },
          [&](OpBuilder &b, Location nestedLoc) {
            // The error has been reported (or checks are off); the result
            // is zero-filled (empty strings), not left uninitialized.
            SmallVector<Value> zeros = {
                emitZeroFilled(b, nestedLoc, indices, resultType)};
            // The index values are still checked (reading only `indices`).
            if (checkIndices)
              zeros.push_back(
                  emitAnyOutOfRange(b, nestedLoc, indices, axisSize));
            scf::YieldOp::create(b, nestedLoc, zeros);
          });
      values = ifOp.getResults();
    }
    if (checkIndices)
      emitReportIfOutOfRange(builder, values[1], indices, axis, axisSize);
    return values[0];
  }

  /// Lowers with one unranked operand: casts it to the rank of the other
  /// (ONNX requires equal ranks) and lowers as ranked. With run-time checks,
  /// the rank is checked first and the gather runs only if it matches.
  Value lowerWithUnrankedOperand(OpBuilder &builder, Value data, Value indices,
                                 int64_t rank, int64_t axis) {
    auto toRanked = [&](OpBuilder &b, Value value) -> Value {
      auto type = cast<TensorType>(value.getType());
      if (type.hasRank())
        return value;
      SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
      return tensor::CastOp::create(
          b, loc, RankedTensorType::get(shape, type.getElementType()), value);
    };
    // rankOk = rank(unranked operand) == rank; reported with run-time
    // checks, and always guarding the gather.
    bool dataIsUnranked = !isa<RankedTensorType>(data.getType());
    Value unranked = dataIsUnranked ? data : indices;
    Value actualRank = tensor::RankOp::create(builder, loc, unranked);
    Value rankOk = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq, actualRank,
        arith::ConstantIndexOp::create(builder, loc, rank));
    if (runtimeChecks)
      reporter->reportIf(
          builder, loc, negate(builder, loc, rankOk),
          RuntimeFunction::ReportRankError,
          [&](OpBuilder &b, Location nestedLoc) -> SmallVector<Value> {
            return {arith::ConstantIntOp::create(b, nestedLoc,
                                                 dataIsUnranked ? 0 : 1, 64),
                    toI64(b, nestedLoc, actualRank),
                    arith::ConstantIntOp::create(b, nestedLoc, rank, 64)};
          });

    auto elementType = cast<TensorType>(data.getType()).getElementType();
    RankedTensorType resultType =
        dataIsUnranked
            ? RankedTensorType::get(
                  cast<RankedTensorType>(indices.getType()).getShape(),
                  elementType)
            : RankedTensorType::get(
                  SmallVector<int64_t>(rank, ShapedType::kDynamic),
                  elementType);
    auto ifOp = scf::IfOp::create(
        builder, loc, rankOk,
        [&](OpBuilder &b, Location nestedLoc) {
          Value result =
              lowerRanked(b, toRanked(b, data), toRanked(b, indices), axis);
          if (result.getType() != resultType)
            result = tensor::CastOp::create(b, nestedLoc, resultType, result);
          scf::YieldOp::create(b, nestedLoc, result);
        },
        [&](OpBuilder &b, Location nestedLoc) {
          // The error has been reported (or checks are off); the result is
          // zero-filled (and, if `indices` is the unranked operand, empty).
          Value empty = dataIsUnranked
                            ? emitZeroFilled(b, nestedLoc, indices, resultType)
                            : tensor::EmptyOp::create(
                                  b, nestedLoc, SmallVector<int64_t>(rank, 0),
                                  elementType)
                                  .getResult();
          if (empty.getType() != resultType)
            empty = tensor::CastOp::create(b, nestedLoc, resultType, empty);
          scf::YieldOp::create(b, nestedLoc, empty);
        });
    return ifOp.getResult(0);
  }

  /// The result buffer, of the shape of `indices`. Its location names the
  /// op (`loc("onnx.GatherElements"(at <loc>))`), so that a failed
  /// allocation of it is reported as the gather's (gather-check-allocations).
  static Value emitEmpty(OpBuilder &b, Location loc, Value indices,
                         RankedTensorType resultType) {
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d))
        dynamicSizes.push_back(tensor::DimOp::create(b, loc, indices, d));
    Location named = NameLoc::get(
        b.getStringAttr(ONNX::GatherElementsOp::getOperationName()), loc);
    return tensor::EmptyOp::create(b, named, resultType.getShape(),
                                   resultType.getElementType(), dynamicSizes);
  }

  /// A tensor of the shape of `indices` (`resultType`) filled with zeros of
  /// its element type (empty strings for !onnx.string).
  static Value emitZeroFilled(OpBuilder &b, Location loc, Value indices,
                              RankedTensorType resultType) {
    Type elementType = resultType.getElementType();
    Value zero;
    if (isa<ONNX::StringType>(elementType)) {
      zero = ONNX::ConstantStringOp::create(b, loc, "");
    } else {
      // All-zero bits of one element, read from a 1-element constant (no
      // scalar arith.constant exists for unsigned or complex types).
      auto complex = dyn_cast<ComplexType>(elementType);
      unsigned bits = complex
                          ? 2 * complex.getElementType().getIntOrFloatBitWidth()
                          : elementType.getIntOrFloatBitWidth();
      SmallVector<char> bytes((bits + 7) / 8, 0);
      auto oneType = RankedTensorType::get({1}, elementType);
      Value one = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::getFromRawBuffer(oneType, bytes));
      zero = tensor::ExtractOp::create(
          b, loc, one, ValueRange{arith::ConstantIndexOp::create(b, loc, 0)});
    }
    Value empty = emitEmpty(b, loc, indices, resultType);
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }

  /// The gather: an all-parallel linalg.generic over the shape of
  /// `indices`. With `checkIndices`, also "any index value out of range"
  /// (second returned value, see emitAnyOutOfRange), emitted right after
  /// it: gather-codegen fuses the two into one loop nest
  /// that reads each index value once.
  SmallVector<Value> emitGather(OpBuilder &builder, Location loc, Value data,
                                Value indices, int64_t axis, Value axisSize,
                                RankedTensorType resultType,
                                bool checkIndices) {
    int64_t rank = resultType.getRank();
    Value init = emitEmpty(builder, loc, indices, resultType);
    SmallVector<AffineMap> indexingMaps(2,
                                        builder.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iteratorTypes(
        rank, utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        builder, loc, TypeRange{resultType}, ValueRange{indices},
        ValueRange{init}, indexingMaps, iteratorTypes,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          auto [normalized, inRange] =
              ONNX::buildNormalizedIndex(b, nestedLoc, args[0], axisSize);
          Value zero = arith::ConstantIndexOp::create(b, nestedLoc, 0);
          Value safeIndex =
              arith::SelectOp::create(b, nestedLoc, inRange, normalized, zero);
          SmallVector<Value> coordinates;
          for (int64_t d = 0; d < rank; ++d)
            coordinates.push_back(
                d == axis
                    ? safeIndex
                    : linalg::IndexOp::create(b, nestedLoc, d).getResult());
          Value element =
              tensor::ExtractOp::create(b, nestedLoc, data, coordinates);
          linalg::YieldOp::create(b, nestedLoc, element);
        });
    if (!checkIndices)
      return {generic.getResult(0)};
    return {generic.getResult(0),
            emitAnyOutOfRange(builder, loc, indices, axisSize)};
  }

  /// A tensor of `type` for scratch values: for a small static shape in a
  /// function body (not inside a loop), a buffer allocated once on the stack
  /// at function entry (no heap allocation per call); otherwise tensor.empty.
  Value emitScratch(OpBuilder &b, Location loc, RankedTensorType type,
                    ValueRange dynamicSizes) {
    constexpr int64_t kMaxStackBytes = 64 * 1024;
    auto function = dyn_cast<FunctionOpInterface>(anchor);
    std::optional<int64_t> bytes = gather::getCheckedNumElements(
        type.getShape(), (type.getElementTypeBitWidth() + 7) / 8);
    if (!function || !bytes || *bytes > kMaxStackBytes)
      return tensor::EmptyOp::create(b, loc, type.getShape(),
                                     type.getElementType(), dynamicSizes);
    Value buffer;
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&function.getFunctionBody().front());
      buffer = memref::AllocaOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()));
    }
    return bufferization::ToTensorOp::create(b, loc, type, buffer,
                                             /*restrict=*/true,
                                             /*writable=*/true);
  }

  /// Whether any value of `indices` is outside [-s, s-1] (s = `axisSize`):
  /// a linalg.generic reducing all dimensions of `indices` into a
  /// tensor<i1> (OR of !inRange). gather-codegen fuses it
  /// into the loop of the gather over the same `indices`.
  Value emitAnyOutOfRange(OpBuilder &builder, Location loc, Value indices,
                          Value axisSize) {
    MLIRContext *context = builder.getContext();
    int64_t rank = cast<RankedTensorType>(indices.getType()).getRank();
    Type i1 = builder.getI1Type();
    Value any = emitScratch(builder, loc, RankedTensorType::get({}, i1), {});
    Value falseValue = arith::ConstantIntOp::create(builder, loc, 0, 1);
    any = linalg::FillOp::create(builder, loc, falseValue, any).getResult(0);
    SmallVector<AffineMap> maps = {builder.getMultiDimIdentityMap(rank),
                                   AffineMap::get(rank, 0, {}, context)};
    any = linalg::GenericOp::create(
              builder, loc, TypeRange{any.getType()}, ValueRange{indices},
              ValueRange{any}, maps,
              SmallVector<utils::IteratorType>(rank,
                                               utils::IteratorType::reduction),
              [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
                Value inRange =
                    ONNX::buildNormalizedIndex(b, nestedLoc, args[0], axisSize)
                        .second;
                linalg::YieldOp::create(
                    b, nestedLoc,
                    arith::OrIOp::create(b, nestedLoc, args[1],
                                         negate(b, nestedLoc, inRange))
                        .getResult());
              })
              .getResult(0);
    return tensor::ExtractOp::create(builder, loc, any, ValueRange{});
  }

  /// Emits the scalar conditions under which the gather reads and writes
  /// only inside its buffers, reporting the first violation when run-time
  /// checks are on:
  ///   - indices.shape[d] <= data.shape[d] for d != axis, where either is
  ///     dynamic (the verifier checked the static ones);
  ///   - indices.shape[d] == resultType.shape[d] where the declared result
  ///     is static but `indices` is not;
  ///   - s > 0 for the axis size s, unless `indices` is statically empty.
  /// Returns their conjunction, or null when nothing needs checking.
  Value emitShapeChecks(OpBuilder &b, Value data, Value indices, int64_t axis,
                        RankedTensorType resultType) {
    auto dataType = cast<RankedTensorType>(data.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    // Only the first violation is reported.
    RuntimeConditions conditions(runtimeChecks ? &*reporter : nullptr);
    auto check = [&](Value holds, RuntimeFunction report, int64_t dim,
                     Value indicesSize, Value otherSize) {
      conditions.require(
          b, loc, holds, report,
          [&](OpBuilder &nb, Location nestedLoc) -> SmallVector<Value> {
            SmallVector<Value> args = {
                arith::ConstantIntOp::create(nb, nestedLoc, dim, 64),
                toI64(nb, nestedLoc, indicesSize),
                toI64(nb, nestedLoc, otherSize)};
            if (report == RuntimeFunction::ReportShapeError)
              args.push_back(
                  arith::ConstantIntOp::create(nb, nestedLoc, axis, 64));
            return args;
          });
    };
    for (int64_t d = 0; d < dataType.getRank(); ++d) {
      if (d == axis ||
          (!dataType.isDynamicDim(d) && !indicesType.isDynamicDim(d)))
        continue;
      Value indicesSize = getDimSize(b, loc, indices, d);
      Value dataSize = getDimSize(b, loc, data, d);
      check(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule,
                                  indicesSize, dataSize),
            RuntimeFunction::ReportShapeError, d, indicesSize, dataSize);
    }
    for (int64_t d = 0; d < resultType.getRank(); ++d) {
      if (!indicesType.isDynamicDim(d) || resultType.isDynamicDim(d))
        continue;
      Value indicesSize = getDimSize(b, loc, indices, d);
      Value resultSize =
          arith::ConstantIndexOp::create(b, loc, resultType.getDimSize(d));
      check(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, indicesSize,
                                  resultSize),
            RuntimeFunction::ReportResultShapeError, d, indicesSize,
            resultSize);
    }
    // An axis of size 0 has nothing to read: every index is then reported
    // by the index check (unless `indices` is empty), and the gather is
    // skipped. The guard is not reported itself.
    bool indicesEmpty = gather::hasZeroSize(indicesType.getShape());
    if (!indicesEmpty && dataType.isDynamicDim(axis)) {
      Value axisSize = getDimSize(b, loc, data, axis);
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      conditions.assume(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                              axisSize, zero));
    } else if (!indicesEmpty && dataType.getDimSize(axis) == 0) {
      return arith::ConstantIntOp::create(b, loc, 0, 1);
    }
    return conditions.getConjunction();
  }

  /// Whether the index values need a run-time check: not for constant
  /// `indices` on a static axis (the verifier checked them), nor for a
  /// static empty `indices`.
  static bool needsIndexCheck(Value data, Value indices, int64_t axis) {
    auto dataType = cast<RankedTensorType>(data.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    DenseIntElementsAttr constantIndices;
    if (!dataType.isDynamicDim(axis) &&
        matchPattern(indices, m_Constant(&constantIndices)))
      return false;
    return !gather::hasZeroSize(indicesType.getShape());
  }

  /// If `anyOutOfRange` (found by the gather), a cold loop reports the bad
  /// index values with their positions (see emitReportBadIndices).
  void emitReportIfOutOfRange(OpBuilder &b, Value anyOutOfRange, Value indices,
                              int64_t axis, Value axisSize) {
    scf::IfOp::create(
        b, loc, anyOutOfRange, [&](OpBuilder &nb, Location nestedLoc) {
          emitReportBadIndices(nb, nestedLoc, indices, axis, axisSize);
          scf::YieldOp::create(nb, nestedLoc);
        });
  }

  /// Cold path: walks `indices` in row-major order and reports the first
  /// kMaxReportedIndices values outside [-s, s-1] with their positions, then
  /// how many more there are.
  void emitReportBadIndices(OpBuilder &b, Location loc, Value indices,
                            int64_t axis, Value axisSize) {
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t rank = indicesType.getRank();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value cap = arith::ConstantIndexOp::create(b, loc, kMaxReportedIndices);
    SmallVector<Value> sizes;
    Value numElements = one;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(getDimSize(b, loc, indices, d));
      numElements = arith::MulIOp::create(b, loc, numElements, sizes.back());
    }
    // The position goes to the runtime through a small buffer allocated
    // here, on the cold path (freed by the buffer deallocation pipeline): a
    // report inside a loop does not grow the stack, and concurrent reports
    // (a gather inside a parallel loop) do not share it.
    auto positionType = MemRefType::get({rank}, b.getI64Type());
    Value position = memref::AllocOp::create(b, loc, positionType);
    Value positionIndex =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, position);
    Value positionPtr = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()),
        toI64(b, loc, positionIndex));

    // The loop carries the number of bad values seen so far.
    auto loop = scf::ForOp::create(
        b, loc, zero, numElements, one, ValueRange{zero},
        [&](OpBuilder &lb, Location nestedLoc, Value linear, ValueRange iter) {
          Value count = iter[0];
          // Delinearize (row-major).
          SmallVector<Value> coordinates(rank);
          Value rest = linear;
          for (int64_t d = rank - 1; d >= 0; --d) {
            coordinates[d] =
                arith::RemUIOp::create(lb, nestedLoc, rest, sizes[d]);
            rest = arith::DivUIOp::create(lb, nestedLoc, rest, sizes[d]);
          }
          Value index =
              tensor::ExtractOp::create(lb, nestedLoc, indices, coordinates);
          Value inRange =
              ONNX::buildNormalizedIndex(lb, nestedLoc, index, axisSize).second;
          Value outOfRange = negate(lb, nestedLoc, inRange);
          Value reportNow = arith::AndIOp::create(
              lb, nestedLoc, outOfRange,
              arith::CmpIOp::create(lb, nestedLoc, arith::CmpIPredicate::ult,
                                    count, cap));
          scf::IfOp::create(
              lb, nestedLoc, reportNow, [&](OpBuilder &nb, Location innerLoc) {
                for (int64_t d = 0; d < rank; ++d)
                  memref::StoreOp::create(
                      nb, innerLoc, toI64(nb, innerLoc, coordinates[d]),
                      position,
                      ValueRange{
                          arith::ConstantIndexOp::create(nb, innerLoc, d)});
                reporter->report(
                    nb, innerLoc, RuntimeFunction::ReportIndexError,
                    [&](OpBuilder &ab, Location al) -> SmallVector<Value> {
                      Value value = index.getType().isInteger(64)
                                        ? index
                                        : arith::ExtSIOp::create(
                                              ab, al, ab.getI64Type(), index)
                                              .getResult();
                      return {value, positionPtr,
                              arith::ConstantIntOp::create(ab, al, rank, 64),
                              arith::ConstantIntOp::create(ab, al, axis, 64),
                              toI64(ab, al, axisSize)};
                    });
                scf::YieldOp::create(nb, innerLoc);
              });
          Value next = arith::AddIOp::create(
              lb, nestedLoc, count,
              arith::IndexCastUIOp::create(lb, nestedLoc, lb.getIndexType(),
                                           outOfRange));
          scf::YieldOp::create(lb, nestedLoc, next);
        });
    Value count = loop.getResult(0);
    Value omitted =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, count, cap);
    reporter->reportIf(
        b, loc, omitted, RuntimeFunction::ReportIndexErrorsOmitted,
        [&](OpBuilder &nb, Location nestedLoc) -> SmallVector<Value> {
          return {toI64(nb, nestedLoc,
                        arith::SubIOp::create(nb, nestedLoc, count, cap)),
                  arith::ConstantIntOp::create(nb, nestedLoc, axis, 64),
                  toI64(nb, nestedLoc, axisSize)};
        });
  }

  Location loc;
  /// The type of the op's result.
  Type declaredType;
  bool runtimeChecks;
  /// The op that holds the gather (a function, a loop, ...).
  Operation *anchor;
  /// Where the lowering started.
  OpBuilder::InsertPoint start;
  OpBuilder::Listener *listener;
  ModuleOp module;
  /// The op's run-time reports.
  std::optional<RuntimeReporter> reporter;
};

/// Any op named `onnx.GatherElements` (ours, onnx-mlir's, or unregistered)
/// with operands `data`, `indices` and an optional integer attribute `axis`
/// (default 0), as ONNX GatherElements: replaced by buildGatherElements.
struct GatherElementsOpLowering : public ConversionPattern {
  GatherElementsOpLowering(MLIRContext *context,
                           const GatherElementsLoweringOptions &options)
      : ConversionPattern(ONNX::kGatherElementsOpName, /*benefit=*/1, context),
        options(options) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<ONNX::GatherElementsView> gather =
        ONNX::GatherElementsView::getOrEmitError(op);
    if (failed(gather))
      return failure();
    FailureOr<Value> result =
        buildGatherElements(rewriter, op->getLoc(), operands[0], operands[1],
                            gather->axis, op->getResult(0).getType(), options);
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }

private:
  GatherElementsLoweringOptions options;
};

/// `onnx.Return` (onnx-mlir's function terminator) in a func.func ->
/// func.return, with a tensor.cast where an operand type differs from the
/// function's result type.
struct ReturnOpLowering : public ConversionPattern {
  ReturnOpLowering(MLIRContext *context)
      : ConversionPattern(kReturnName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto function = dyn_cast<func::FuncOp>(op->getParentOp());
    if (!function || function.getNumResults() != operands.size())
      return rewriter.notifyMatchFailure(op, "not the terminator of a "
                                             "func.func with as many results");
    SmallVector<Value> results;
    for (auto [operand, type] :
         llvm::zip(operands, function.getResultTypes())) {
      Value value = operand;
      if (value.getType() != type &&
          tensor::CastOp::areCastCompatible(value.getType(), type))
        value = tensor::CastOp::create(rewriter, op->getLoc(), type, value);
      results.push_back(value);
    }
    rewriter.replaceOpWithNewOp<func::ReturnOp>(op, results);
    return success();
  }
};

/// An unused `onnx.NoValue` (onnx-mlir's placeholder for an omitted
/// optional operand) is erased; a used one is left to its users.
struct UnusedNoValueOpLowering : public ConversionPattern {
  UnusedNoValueOpLowering(MLIRContext *context)
      : ConversionPattern(kNoValueName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op->use_empty() || op->getNumRegions() != 0)
      return rewriter.notifyMatchFailure(op, "used");
    rewriter.eraseOp(op);
    return success();
  }
};

/// `onnx.EntryPoint` (onnx-mlir's module-level marker of the model's entry
/// function, `{func = @f}`) is erased: the function stays as it is, a
/// public func.func that gather-runner (`-e f`) or C code calls. One naming
/// no function of its symbol table is an error.
struct EntryPointOpLowering : public ConversionPattern {
  EntryPointOpLowering(MLIRContext *context)
      : ConversionPattern(kEntryPointName, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    auto function = op->getAttrOfType<FlatSymbolRefAttr>("func");
    if (!function || op->getNumOperands() != 0 || op->getNumResults() != 0 ||
        op->getNumRegions() != 0 ||
        !isa_and_nonnull<FunctionOpInterface>(
            SymbolTable::lookupNearestSymbolFrom(op, function)))
      return op->emitOpError("expects a 'func' attribute naming a function "
                             "of the module (onnx-mlir's entry point), and "
                             "no operands or results");
    rewriter.eraseOp(op);
    return success();
  }
};

/// Whether `type` is a tensor of !onnx.string.
bool isStringTensor(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<ONNX::StringType>(tensor.getElementType());
}

/// A constant tensor: numeric values become arith.constant; strings (which
/// arith.constant cannot lower) a table sliced by onnx.StringSlice in a
/// linalg.generic (see below; a linalg.fill of one onnx.ConstantString for a
/// splat, tensor.empty if there are no elements).
/// Also applies to an arith.constant of strings. Only the op class
/// `ConstantOpTy` itself is rewritten, not another dialect's op of the same
/// name (onnx-mlir's onnx.Constant).
template <typename ConstantOpTy>
struct ConstantLowering : public ConversionPattern {
  ConstantLowering(MLIRContext *context)
      : ConversionPattern(ConstantOpTy::getOperationName(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *rawOp, ArrayRef<Value>,
                  ConversionPatternRewriter &rewriter) const override {
    // (isa alone also accepts an unregistered op of that name.)
    auto op =
        rawOp->isRegistered() ? dyn_cast<ConstantOpTy>(rawOp) : ConstantOpTy();
    if (!op)
      return rewriter.notifyMatchFailure(rawOp, "another dialect's op");
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto value = dyn_cast<ElementsAttr>(op.getValue());
    if (!type || !value)
      return rewriter.notifyMatchFailure(op, "expects a ranked tensor");
    if (!isStringTensor(type)) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                     cast<TypedAttr>(value));
      return success();
    }
    auto strings = dyn_cast<DenseStringElementsAttr>(value);
    if (!strings)
      return op.emitOpError("expects a dense string elements attribute");
    if (gather::hasZeroSize(type.getShape())) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                   type.getElementType());
      return success();
    }
    Location loc = op.getLoc();
    if (strings.isSplat()) {
      // One string, filled in: no per-element ops.
      Value string = ONNX::ConstantStringOp::create(
          rewriter, loc, strings.getRawStringData().front());
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                            type.getElementType());
      rewriter.replaceOpWithNewOp<linalg::FillOp>(op, string, empty);
      return success();
    }
    // One table, whatever the number of elements (no op, global or store
    // per string): the bytes of the distinct strings, each once, in one
    // onnx.ConstantString; each element's offset and length in them in two
    // i64 constants; a linalg.generic slicing each element out of the bytes.
    std::string bytes;
    llvm::StringMap<int64_t> offsets;
    ArrayRef<StringRef> elements = strings.getRawStringData();
    SmallVector<int64_t> begins, lengths;
    begins.reserve(elements.size());
    lengths.reserve(elements.size());
    for (StringRef element : elements) {
      auto [offset, isNew] = offsets.try_emplace(element, bytes.size());
      if (isNew)
        bytes += element;
      begins.push_back(offset->second);
      lengths.push_back(static_cast<int64_t>(element.size()));
    }
    auto offsetType =
        RankedTensorType::get(type.getShape(), rewriter.getI64Type());
    Value all = ONNX::ConstantStringOp::create(rewriter, loc, bytes);
    Value inputs[] = {
        arith::ConstantOp::create(
            rewriter, loc, DenseIntElementsAttr::get(offsetType, begins)),
        arith::ConstantOp::create(
            rewriter, loc, DenseIntElementsAttr::get(offsetType, lengths))};
    Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(),
                                          type.getElementType());
    SmallVector<AffineMap> maps(
        3, rewriter.getMultiDimIdentityMap(type.getRank()));
    SmallVector<utils::IteratorType> iterators(type.getRank(),
                                               utils::IteratorType::parallel);
    rewriter.replaceOpWithNewOp<linalg::GenericOp>(
        op, TypeRange{type}, inputs, empty, maps, iterators,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          Value element =
              ONNX::StringSliceOp::create(b, bodyLoc, all, args[0], args[1]);
          linalg::YieldOp::create(b, bodyLoc, element);
        });
    return success();
  }
};

struct ConvertONNXToLinalgPass
    : public gather::impl::ConvertONNXToLinalgPassBase<
          ConvertONNXToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    // By name: ours, another dialect's or unregistered. Other ops of the
    // onnx namespace (ops gather does not define) are left as they are.
    target.addIllegalOp(OperationName(ONNX::kGatherElementsOpName, context));
    target.addIllegalOp(OperationName(kReturnName, context));
    target.addIllegalOp(OperationName(kEntryPointName, context));
    target.addDynamicallyLegalOp(
        OperationName(kNoValueName, context),
        [](Operation *op) { return !op->use_empty(); });
    // Our onnx.Constant only (another dialect's stays).
    target.addDynamicallyLegalOp(
        OperationName(ONNX::ConstantOp::getOperationName(), context),
        [](Operation *op) {
          return !op->isRegistered() || !isa<ONNX::ConstantOp>(op);
        });
    target.addDynamicallyLegalOp<arith::ConstantOp>(
        [](arith::ConstantOp op) { return !isStringTensor(op.getType()); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    // The runtime's function names are reserved: an existing symbol of that
    // name must be its declaration (the report functions this pass calls,
    // and every other runtime function too).
    // (Declarations go into the module nearest to each op, so nested
    // modules are checked too.)
    if (failed(verifyRuntimeSymbols(getOperation())))
      return signalPassFailure();

    RewritePatternSet patterns(context);
    populateONNXToLinalgConversionPatterns(patterns, runtimeChecks);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

FailureOr<Value>
gather::buildGatherElements(OpBuilder &builder, Location loc, Value data,
                            Value indices, int64_t axis, Type resultType,
                            const GatherElementsLoweringOptions &options) {
  return GatherElementsLowering(builder, loc, resultType, options)
      .lower(builder, data, indices, axis);
}

void gather::populateONNXToLinalgConversionPatterns(RewritePatternSet &patterns,
                                                    bool runtimeChecks) {
  GatherElementsLoweringOptions options;
  options.runtimeChecks = runtimeChecks;
  patterns.add<GatherElementsOpLowering>(patterns.getContext(), options);
  patterns.add<EntryPointOpLowering, ReturnOpLowering, UnusedNoValueOpLowering>(
      patterns.getContext());
  patterns.add<ConstantLowering<ONNX::ConstantOp>,
               ConstantLowering<arith::ConstantOp>>(patterns.getContext());
}
