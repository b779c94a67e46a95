//===- GPUKernels.cpp - The gather-gpu-kernels pass -----------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Implements `gather-gpu-kernels` (see Passes.td): each bufferized gather
// (the marked linalg.generic of GatherLinalgForm.h) becomes host code that
// copies its buffers to the device, launches one gpu.launch with the index
// check fused into it, and copies the result back. The kernel is built by
// hand (not through convert-parallel-loops-to-gpu): its launch shape, the
// width of its offset arithmetic and the fused check are decided here, in
// one place, from the static shapes.
// The rewrites around the kernels that gpu-memory=device needs are in
// GPUDeviceMemory.cpp.
//
//===----------------------------------------------------------------------===//

#include "GPUDeviceMemory.h"
#include "gather/GPU/Passes.h"

#include "gather/Codegen/GatherDataRead.h"
#include "gather/Conversion/ONNXToLinalg/GatherLinalgForm.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/MapVector.h"

#include <functional>
#include <limits>
#include <optional>
#include <tuple>

namespace gather {
#define GEN_PASS_DEF_GPUKERNELSPASS
#include "gather/GPU/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather::device_memory;

namespace {

/// A bufferized gather and its index check (GatherLinalgForm.h).
struct GatherMatch {
  linalg::GenericOp gather;
  /// The index check fused into the kernel, or null.
  linalg::GenericOp check;
  Value data, indices, result;
  int64_t axis;
};

} // namespace

/// The gather of `op` if it is a bufferized marked gather: one input
/// (`indices`), one output, identity maps, all-parallel loops and the read
/// of `data` that makes a gather (gather/Codegen/GatherDataRead.h, the
/// recognizer gather-codegen uses on tensors): one memref.load of a buffer
/// defined outside the body at linalg.index d for every d but the axis.
static std::optional<GatherMatch> matchGather(linalg::GenericOp op) {
  if (!gather::isMarkedGatherElements(op) || !op.hasPureBufferSemantics() ||
      op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() == 0 || op.getNumLoops() != op.getNumParallelLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  std::optional<gather::codegen::GatherDataRead> read =
      gather::codegen::findGatherDataRead(op);
  if (!read || !isa<MemRefType>(read->data.getType()))
    return std::nullopt;
  std::optional<int64_t> axis = gather::codegen::getGatherAxis(op, *read);
  if (!axis)
    return std::nullopt;
  return GatherMatch{
      op,   nullptr, read->data, op.getDpsInputs()[0], op.getDpsInits()[0],
      *axis};
}

/// The index check of `match`: the next op in the block that is a marked
/// check reducing the same `indices` into a memref<i1>, with only fills of
/// that memref between them; null otherwise (the check then stays on the
/// host, as it is).
static linalg::GenericOp findIndexCheck(const GatherMatch &match) {
  for (Operation *op = match.gather->getNextNode(); op;
       op = op->getNextNode()) {
    if (isa<linalg::FillOp>(op))
      continue;
    auto check = dyn_cast<linalg::GenericOp>(op);
    if (!check || !gather::isMarkedGatherIndexCheck(check) ||
        !check.hasPureBufferSemantics() || check.getNumDpsInputs() != 1 ||
        check.getDpsInputs()[0] != match.indices || check.getNumDpsInits() != 1)
      return nullptr;
    auto output = dyn_cast<MemRefType>(check.getDpsInits()[0].getType());
    if (!output || output.getRank() != 0 ||
        !output.getElementType().isInteger(1))
      return nullptr;
    // Fills between the two must be of the check's output only.
    for (Operation *between = match.gather->getNextNode(); between != op;
         between = between->getNextNode())
      if (cast<linalg::FillOp>(between).getDpsInits()[0] !=
          check.getDpsInits()[0])
        return nullptr;
    return check;
  }
  return nullptr;
}

/// The sizes of `memref` as index values (constants where static).
static SmallVector<Value> getSizes(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(
        type.isDynamicDim(d)
            ? memref::DimOp::create(b, loc, memref, d).getResult()
            : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                  .getResult());
  return sizes;
}

static Value product(OpBuilder &b, Location loc, ArrayRef<Value> sizes) {
  Value result = arith::ConstantIndexOp::create(b, loc, 1);
  for (Value size : sizes)
    result = arith::MulIOp::create(b, loc, result, size);
  return result;
}

/// The number of elements of a static shape, or nullopt (dynamic, or more
/// than int64_t holds).
static std::optional<int64_t> getStaticNumElements(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  int64_t count = 1;
  for (int64_t size : type.getShape())
    if (llvm::MulOverflow(count, size, count))
      return std::nullopt;
  return count;
}

namespace {

/// Builds the host code and the kernel of one gather.
class GatherKernelBuilder {
public:
  GatherKernelBuilder(GatherMatch match, int64_t threadsPerBlock,
                      int64_t elementsPerThread, bool onDevice)
      : match(match), loc(match.gather.getLoc()),
        threadsPerBlock(threadsPerBlock), elementsPerThread(elementsPerThread),
        onDevice(onDevice) {}

  void build(OpBuilder &b) {
    auto dataType = cast<MemRefType>(match.data.getType());
    auto indicesType = cast<MemRefType>(match.indices.getType());
    std::optional<int64_t> staticCount = getStaticNumElements(indicesType);
    std::optional<int64_t> staticDataCount = getStaticNumElements(dataType);
    // Nothing to compute (the generics are loops of no iterations).
    if (staticCount == 0)
      return;
    indicesSizes = getSizes(b, loc, match.indices);
    dataSizes = getSizes(b, loc, match.data);
    Value count = product(b, loc, indicesSizes);
    // 32-bit offsets when every position (and the positions of the last
    // block, past the end) fits in an i32: decided here for static shapes,
    // at run time (two kernels) for dynamic ones.
    int64_t limit = std::numeric_limits<int32_t>::max() -
                    threadsPerBlock * elementsPerThread;
    auto work = [&](OpBuilder &nb) {
      if (staticCount && staticDataCount) {
        bool fits = *staticCount <= limit && *staticDataCount <= limit;
        offsetType = nb.getIntegerType(fits ? 32 : 64);
        return buildDeviceWork(nb, count);
      }
      Value max = arith::ConstantIndexOp::create(nb, loc, limit);
      Value fits = arith::AndIOp::create(
          nb, loc,
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ule, count, max),
          arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::ule,
                                product(nb, loc, dataSizes), max));
      scf::IfOp::create(
          nb, loc, fits,
          [&](OpBuilder &tb, Location) {
            offsetType = tb.getI32Type();
            buildDeviceWork(tb, count);
            scf::YieldOp::create(tb, loc);
          },
          [&](OpBuilder &eb, Location) {
            offsetType = eb.getI64Type();
            buildDeviceWork(eb, count);
            scf::YieldOp::create(eb, loc);
          });
    };
    if (staticCount) {
      work(b);
    } else {
      // Nothing to launch for no elements.
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value any =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count, zero);
      scf::IfOp::create(b, loc, any, [&](OpBuilder &nb, Location) {
        work(nb);
        scf::YieldOp::create(nb, loc);
      });
    }
    if (match.check)
      match.check.erase();
    match.gather.erase();
  }

private:
  /// `memref` (identity layout) viewed as rank 1.
  Value getRankOneView(OpBuilder &b, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    if (type.getRank() == 1)
      return memref;
    SmallVector<ReassociationIndices> all(1);
    for (int64_t d = 0; d < type.getRank(); ++d)
      all.front().push_back(d);
    return memref::CollapseShapeOp::create(b, loc, memref, all);
  }

  /// A contiguous row-major host buffer of the elements of `memref` viewed
  /// as rank 1 (a copy where its layout is not the identity; `copyIn`: with
  /// its elements), and the buffer to free afterwards (or null).
  std::pair<Value, Value> getLinearHostBuffer(OpBuilder &b, Value memref,
                                              ArrayRef<Value> sizes,
                                              bool copyIn) {
    auto type = cast<MemRefType>(memref.getType());
    Value contiguous = memref, copy;
    if (!type.getLayout().isIdentity()) {
      auto identity = MemRefType::get(type.getShape(), type.getElementType());
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d))
          dynamicSizes.push_back(sizes[d]);
      copy = memref::AllocOp::create(b, loc, identity, dynamicSizes);
      if (copyIn)
        linalg::CopyOp::create(b, loc, memref, copy);
      contiguous = copy;
    }
    return {getRankOneView(b, contiguous), copy};
  }

  /// Device buffers, copies in, the launch, copies out (all on one stream),
  /// then the result of the fused check.
  void buildDeviceWork(OpBuilder &b, Value count) {
    MLIRContext *context = b.getContext();
    Type tokenType = gpu::AsyncTokenType::get(context);
    Type i64 = b.getI64Type();
    Value dataCount = product(b, loc, dataSizes);
    // gpu-memory=device: the buffers are the device's (identity layouts,
    // checked by the pass), viewed as rank 1; host: rank-1 host buffers.
    // An operand the host made (a constant, a host computation) is copied
    // to the device in either mode.
    bool dataOnDevice = onDevice && isDeviceResident(match.data);
    bool indicesOnDevice = onDevice && isDeviceResident(match.indices);
    Value hostData, dataCopy, hostIndices, indicesCopy, hostResult, resultCopy;
    if (!dataOnDevice)
      std::tie(hostData, dataCopy) =
          getLinearHostBuffer(b, match.data, dataSizes, /*copyIn=*/true);
    if (!indicesOnDevice)
      std::tie(hostIndices, indicesCopy) =
          getLinearHostBuffer(b, match.indices, indicesSizes, /*copyIn=*/true);
    if (!onDevice) {
      std::tie(hostResult, resultCopy) =
          getLinearHostBuffer(b, match.result, indicesSizes, /*copyIn=*/false);
    }
    // The first bad position, initially `count` (none).
    auto positionType = MemRefType::get({1}, i64);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value hostPosition = memref::AllocaOp::create(b, loc, positionType);
    Value count64 = arith::IndexCastOp::create(b, loc, i64, count);
    memref::StoreOp::create(b, loc, count64, hostPosition, ValueRange{zero});

    Value token =
        gpu::WaitOp::create(b, loc, tokenType, ValueRange{}).getAsyncToken();
    auto alloc = [&](Type elementType, Value size) {
      auto type = MemRefType::get({ShapedType::kDynamic}, elementType);
      auto op = gpu::AllocOp::create(b, loc, type, tokenType, token,
                                     ValueRange{size}, ValueRange{});
      token = op.getAsyncToken();
      return op.getMemref();
    };
    auto copy = [&](Value to, Value from) {
      token = gpu::MemcpyOp::create(b, loc, tokenType, token, to, from)
                  .getAsyncToken();
    };
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value deviceData, deviceIndices, deviceResult;
    deviceData = dataOnDevice ? getRankOneView(b, match.data)
                              : alloc(getElementType(match.data), dataCount);
    deviceIndices = indicesOnDevice
                        ? getRankOneView(b, match.indices)
                        : alloc(getElementType(match.indices), count);
    deviceResult = onDevice ? getRankOneView(b, match.result)
                            : alloc(getElementType(match.result), count);
    Value devicePosition = alloc(i64, one);
    if (!dataOnDevice)
      copy(deviceData, hostData);
    if (!indicesOnDevice)
      copy(deviceIndices, hostIndices);
    if (match.check)
      copy(devicePosition, hostPosition);

    int64_t perBlock = threadsPerBlock * elementsPerThread;
    Value blocks = arith::CeilDivUIOp::create(
        b, loc, count, arith::ConstantIndexOp::create(b, loc, perBlock));
    auto launch = gpu::LaunchOp::create(
        b, loc, blocks, one, one,
        arith::ConstantIndexOp::create(b, loc, threadsPerBlock), one, one,
        /*dynamicSharedMemorySize=*/nullptr, tokenType, ValueRange{token});
    token = launch.getAsyncToken();
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&launch.getBody().front());
      buildKernel(b, launch, count, deviceData, deviceIndices, deviceResult,
                  devicePosition);
      gpu::TerminatorOp::create(b, loc);
    }

    if (!onDevice)
      copy(hostResult, deviceResult);
    if (match.check)
      copy(hostPosition, devicePosition);
    SmallVector<Value> deviceBuffers = {devicePosition};
    if (!dataOnDevice)
      deviceBuffers.push_back(deviceData);
    if (!indicesOnDevice)
      deviceBuffers.push_back(deviceIndices);
    if (!onDevice)
      deviceBuffers.push_back(deviceResult);
    for (Value buffer : deviceBuffers)
      token = gpu::DeallocOp::create(b, loc, tokenType, token, buffer)
                  .getAsyncToken();
    gpu::WaitOp::create(b, loc, Type(), token);

    if (resultCopy)
      linalg::CopyOp::create(b, loc, resultCopy, match.result);
    for (Value buffer : {dataCopy, indicesCopy, resultCopy})
      if (buffer)
        memref::DeallocOp::create(b, loc, buffer);

    if (!match.check)
      return;
    // The check's "any out of range": whether a position was recorded.
    Value first = memref::LoadOp::create(b, loc, hostPosition, zero);
    Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, first,
                                      count64);
    Value any = match.check.getDpsInits()[0];
    Value previous = memref::LoadOp::create(b, loc, any, ValueRange{});
    memref::StoreOp::create(b, loc, arith::OrIOp::create(b, loc, previous, bad),
                            any, ValueRange{});
  }

  static Type getElementType(Value memref) {
    return cast<MemRefType>(memref.getType()).getElementType();
  }

  /// `value` (an index) as an offset (offsetType); a constant where it is
  /// one, so that the kernel sees static sizes as constants.
  Value toOffset(OpBuilder &b, Value value) {
    if (auto constant = value.getDefiningOp<arith::ConstantIndexOp>())
      return arith::ConstantIntOp::create(b, loc, offsetType, constant.value());
    return arith::IndexCastOp::create(b, loc, offsetType, value);
  }

  Value toIndex(OpBuilder &b, Value offset) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), offset);
  }

  /// The body of the launch: elementsPerThread copies per thread, at
  /// block * B * E + thread + k * B, each stored only if "< count". Per
  /// thread, every load comes before any store or atomic, and the loads
  /// take no branch (a position past the end reads element 0, in range
  /// since a launch has at least one element): the E index loads, then the
  /// E data loads, are in flight together, as in ONNX Runtime's kernel,
  /// where a store between elements would keep LLVM and ptxas from moving
  /// the next element's loads ahead of it.
  void buildKernel(OpBuilder &b, gpu::LaunchOp launch, Value count, Value data,
                   Value indices, Value result, Value position) {
    Value blockId = toOffset(b, launch.getBlockIds().x);
    Value threadId = toOffset(b, launch.getThreadIds().x);
    auto constant = [&](int64_t value) {
      return arith::ConstantIntOp::create(b, loc, offsetType, value);
    };
    SmallVector<Value> indicesSizesInKernel, dataSizesInKernel;
    for (Value size : indicesSizes)
      indicesSizesInKernel.push_back(toOffset(b, size));
    for (Value size : dataSizes)
      dataSizesInKernel.push_back(toOffset(b, size));
    Value countInKernel = toOffset(b, count);
    Value base = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, blockId,
                              constant(threadsPerBlock * elementsPerThread)),
        threadId);
    SmallVector<Value> linears, inBounds, readAt, indexValues;
    for (int64_t k = 0; k < elementsPerThread; ++k) {
      Value linear = k == 0 ? base
                            : arith::AddIOp::create(
                                  b, loc, base, constant(k * threadsPerBlock))
                                  .getResult();
      Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           linear, countInKernel);
      linears.push_back(linear);
      inBounds.push_back(inside);
      readAt.push_back(
          arith::SelectOp::create(b, loc, inside, linear, constant(0)));
      indexValues.push_back(
          memref::LoadOp::create(b, loc, indices, toIndex(b, readAt.back())));
    }
    SmallVector<Value> inRanges, elements;
    for (int64_t k = 0; k < elementsPerThread; ++k) {
      auto [offset, inRange] =
          getDataOffset(b, readAt[k], indexValues[k], indicesSizesInKernel,
                        dataSizesInKernel);
      inRanges.push_back(inRange);
      elements.push_back(
          memref::LoadOp::create(b, loc, data, toIndex(b, offset)));
    }
    Value one = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (int64_t k = 0; k < elementsPerThread; ++k) {
      if (match.check) {
        Value outOfRange = arith::AndIOp::create(
            b, loc, inBounds[k],
            arith::XOrIOp::create(b, loc, inRanges[k], one));
        scf::IfOp::create(b, loc, outOfRange, [&](OpBuilder &nb, Location) {
          Value at = linears[k];
          if (!at.getType().isInteger(64))
            at = arith::ExtUIOp::create(nb, loc, nb.getI64Type(), at);
          memref::AtomicRMWOp::create(
              nb, loc, arith::AtomicRMWKind::mins, at, position,
              ValueRange{arith::ConstantIndexOp::create(nb, loc, 0)});
          scf::YieldOp::create(nb, loc);
        });
      }
      scf::IfOp::create(b, loc, inBounds[k], [&](OpBuilder &nb, Location) {
        memref::StoreOp::create(nb, loc, elements[k], result,
                                toIndex(nb, linears[k]));
        scf::YieldOp::create(nb, loc);
      });
    }
  }

  /// The offset in `data` of the element at row-major position `linear` of
  /// the result, whose index value is `index`, and whether `index` is in
  /// range. The index value is normalized (negative values wrap) in its own
  /// type, then clamped into range: every read stays inside `data`.
  std::pair<Value, Value> getDataOffset(OpBuilder &b, Value linear, Value index,
                                        ArrayRef<Value> indicesSizes,
                                        ArrayRef<Value> dataSizes) {
    int64_t rank = indicesSizes.size();
    int64_t axis = match.axis;
    // The coordinates of `linear` in `indices` (row-major).
    SmallVector<Value> coordinates(rank);
    Value rest = linear;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (d == 0) {
        coordinates[d] = rest;
        break;
      }
      coordinates[d] = arith::RemUIOp::create(b, loc, rest, indicesSizes[d]);
      rest = arith::DivUIOp::create(b, loc, rest, indicesSizes[d]);
    }
    // Compared in the wider of the index and offset types.
    Type compareType = index.getType().getIntOrFloatBitWidth() >
                               offsetType.getIntOrFloatBitWidth()
                           ? index.getType()
                           : offsetType;
    Value value = index, size = dataSizes[axis];
    if (value.getType() != compareType)
      value = arith::ExtSIOp::create(b, loc, compareType, value);
    if (size.getType() != compareType)
      size = arith::ExtUIOp::create(b, loc, compareType, size);
    Value zero = arith::ConstantIntOp::create(b, loc, value.getType(), 0);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, value, zero);
    Value wrapped = arith::SelectOp::create(
        b, loc, negative, arith::AddIOp::create(b, loc, value, size), value);
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, wrapped, size);
    Value safe = arith::SelectOp::create(b, loc, inRange, wrapped, zero);
    if (safe.getType() != offsetType)
      safe = arith::TruncIOp::create(b, loc, offsetType, safe);
    // The offset in `data`, Horner's scheme over its sizes.
    Value offset;
    for (int64_t d = 0; d < rank; ++d) {
      Value coordinate = d == axis ? safe : coordinates[d];
      offset = d == 0 ? coordinate
                      : arith::AddIOp::create(
                            b, loc,
                            arith::MulIOp::create(b, loc, offset, dataSizes[d]),
                            coordinate)
                            .getResult();
    }
    return {offset, inRange};
  }

  GatherMatch match;
  Location loc;
  int64_t threadsPerBlock, elementsPerThread;
  /// gpu-memory=device: the function's buffers live on the device.
  bool onDevice;
  /// i32 or i64: the type of positions and offsets in the kernel.
  Type offsetType;
  /// Host values.
  SmallVector<Value> indicesSizes, dataSizes;
};

struct GPUKernelsPass
    : public gather::impl::GPUKernelsPassBase<GPUKernelsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    auto fail = [&] {
      return emitError(UnknownLoc::get(context), "gather-gpu-kernels: ");
    };
    if (threadsPerBlock < 1 || threadsPerBlock > 1024)
      return fail() << "threads-per-block must be in [1, 1024], not "
                    << threadsPerBlock.getValue();
    if (elementsPerThread < 1 || elementsPerThread > 64)
      return fail() << "elements-per-thread must be in [1, 64], not "
                    << elementsPerThread.getValue();
    return success();
  }

  void runOnOperation() override {
    SmallVector<GatherMatch> matches;
    bool failed = false;
    getOperation().walk([&](linalg::GenericOp op) {
      std::optional<GatherMatch> match = matchGather(op);
      if (!match) {
        if (!gather::isMarkedGatherElements(op) || !op.hasPureBufferSemantics())
          return;
        // Host code cannot read the device's buffers.
        if (memory == gather::GPUMemory::Device) {
          op.emitError() << "gather-gpu-kernels: a linalg.generic marked '"
                         << gather::kGatherElementsAttrName
                         << "' not in the form of a bufferized gather cannot "
                            "stay on the host with memory=device";
          failed = true;
          return;
        }
        op.emitWarning() << "gather-gpu-kernels: a linalg.generic marked '"
                         << gather::kGatherElementsAttrName
                         << "' not in the form of a bufferized gather: "
                            "left on the host";
        return;
      }
      Type element = cast<MemRefType>(match->data.getType()).getElementType();
      if (isa<gather::ONNX::StringType>(element)) {
        op.emitError() << "'onnx.GatherElements' of " << element
                       << " elements cannot run on the GPU (gpu=cuda): "
                          "strings are pointers into host memory";
        failed = true;
        return;
      }
      if (memory == gather::GPUMemory::Device &&
          !llvm::all_of(ValueRange{match->data, match->indices, match->result},
                        [](Value buffer) {
                          return cast<MemRefType>(buffer.getType())
                              .getLayout()
                              .isIdentity();
                        })) {
        op.emitError() << "with gpu-memory=device the buffers of "
                          "'onnx.GatherElements' must be row-major (identity "
                          "layout): a view of device memory cannot be made "
                          "contiguous on the host";
        failed = true;
        return;
      }
      match->check = findIndexCheck(*match);
      matches.push_back(*match);
    });
    if (failed)
      return signalPassFailure();
    // gpu-memory=device: the results the function allocates, on the device
    // (a later gather may read one).
    if (memory == gather::GPUMemory::Device) {
      for (GatherMatch &match : matches) {
        auto alloc = match.result.getDefiningOp<memref::AllocOp>();
        if (!alloc)
          continue;
        Value old = match.result, device = allocateOnDevice(alloc);
        for (GatherMatch &other : matches)
          for (Value *buffer : {&other.data, &other.indices, &other.result})
            if (*buffer == old)
              *buffer = device;
      }
    }
    for (const GatherMatch &match : matches) {
      // At the check when fused: after the fills of its output (the
      // gather's operands and result are defined above it).
      OpBuilder b(match.check ? match.check : match.gather);
      GatherKernelBuilder(match, threadsPerBlock, elementsPerThread,
                          memory == gather::GPUMemory::Device)
          .build(b);
    }
    if (memory == gather::GPUMemory::Device) {
      copyArgumentsForHostReaders(getOperation());
      returnDeviceBuffers(getOperation());
      if (mlir::failed(checkNoHostAccessToDevice(getOperation())))
        signalPassFailure();
    }
  }
};

} // namespace
