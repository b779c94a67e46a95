//===- GPULoadLazily.cpp - Kernel modules loaded at their first launch ----===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gpu.binary and the gpu.launch_func ops of its kernels, on LLVM types (as
// gpu-to-llvm and gpu-module-to-binary leave them), lowered to LLVM dialect
// calls of gather's CUDA runtime that load the module at its first launch
// (gatherCUDAGetKernel) instead of #gpu.select_object's global constructor,
// which loads every module before `main` and leaves a host no way to see
// the error or fall back. A global destructor unloads what was loaded
// (gatherCUDAUnloadModule).
//
//===----------------------------------------------------------------------===//

#include "gather/GPU/Passes.h"
#include "gather/Runtime/GatherCUDARuntime.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"

namespace gather {
#define GEN_PASS_DEF_GPULOADLAZILYPASS
#include "gather/GPU/Passes.h.inc"
} // namespace gather

using namespace mlir;
using namespace gather;

namespace {
/// The globals of one gpu.binary: its bytes and its module slot (the
/// CUmodule, null until the first launch loads it), and how to load it.
struct BinaryGlobals {
  LLVM::GlobalOp bytes;
  LLVM::GlobalOp module;
  int64_t size = 0;
  GatherCUDABinaryFormat format = GATHER_CUDA_BINARY_PTX;
  int32_t optLevel = 2;
  /// The kernel slots (CUfunction, null until found), by kernel name.
  llvm::MapVector<StringAttr, std::pair<LLVM::GlobalOp, LLVM::GlobalOp>>
      kernels;
};
} // namespace

/// An internal global of `type` named `name` (made unique), at the start of
/// `module`; with `value` if given, zero-initialized otherwise.
static LLVM::GlobalOp createGlobal(ModuleOp module, SymbolTable &symbols,
                                   Location loc, Type type, StringRef name,
                                   bool isConstant, Attribute value) {
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto global = LLVM::GlobalOp::create(builder, loc, type, isConstant,
                                       LLVM::Linkage::Internal, name, value,
                                       /*alignment=*/isConstant ? 8 : 0);
  if (!value) {
    Block *block = builder.createBlock(&global.getInitializerRegion());
    builder.setInsertionPointToStart(block);
    Value zero = LLVM::ZeroOp::create(builder, loc, type);
    LLVM::ReturnOp::create(builder, loc, zero);
  }
  symbols.insert(global); // Renamed to be unique.
  return global;
}

/// A NUL-terminated string constant global.
static LLVM::GlobalOp createStringGlobal(ModuleOp module, SymbolTable &symbols,
                                         Location loc, StringRef name,
                                         StringRef text) {
  std::string bytes = text.str();
  bytes.push_back('\0');
  MLIRContext *context = module.getContext();
  Type type =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), bytes.size());
  return createGlobal(module, symbols, loc, type, name, /*isConstant=*/true,
                      StringAttr::get(context, bytes));
}

/// The globals of `binary`, or failure after an error at it: one object of
/// a format the driver loads (PTX, cubin, fatbin).
static FailureOr<BinaryGlobals> createBinaryGlobals(gpu::BinaryOp binary,
                                                    ModuleOp module,
                                                    SymbolTable &symbols) {
  ArrayAttr objects = binary.getObjects();
  auto object =
      objects.size() == 1 ? dyn_cast<gpu::ObjectAttr>(objects[0]) : nullptr;
  if (!object)
    return binary.emitOpError("holds ")
           << objects.size()
           << " objects; gather-gpu-load-lazily loads binaries of one";
  if (!isa<NVVM::NVVMTargetAttr>(object.getTarget()))
    return binary.emitOpError("holds an object for ")
           << object.getTarget()
           << "; gather-gpu-load-lazily loads NVVM objects (the CUDA driver)";
  BinaryGlobals globals;
  std::string bytes = object.getObject().str();
  switch (object.getFormat()) {
  case gpu::CompilationTarget::Assembly:
    // The driver's PTX compiler reads NUL-terminated text.
    bytes.push_back('\0');
    globals.format = GATHER_CUDA_BINARY_PTX;
    break;
  case gpu::CompilationTarget::Binary:
  case gpu::CompilationTarget::Fatbin:
    globals.format = GATHER_CUDA_BINARY_IMAGE;
    break;
  case gpu::CompilationTarget::Offload:
    return binary.emitOpError(
        "holds LLVM IR (format offload), which the CUDA driver cannot load");
  }
  if (DictionaryAttr properties = object.getProperties())
    if (auto level = properties.getAs<IntegerAttr>("O")) {
      // The driver's PTX compiler takes levels 0 to 4.
      if (level.getInt() < 0 || level.getInt() > 4)
        return binary.emitOpError("has optimization level ")
               << level.getInt() << "; the CUDA driver takes 0 to 4";
      globals.optLevel = static_cast<int32_t>(level.getInt());
    }
  MLIRContext *context = module.getContext();
  Location loc = binary.getLoc();
  globals.size = static_cast<int64_t>(bytes.size());
  Type bytesType =
      LLVM::LLVMArrayType::get(IntegerType::get(context, 8), bytes.size());
  std::string stem = ("__gather_gpu_" + binary.getSymName()).str();
  globals.bytes =
      createGlobal(module, symbols, loc, bytesType, stem + "_binary",
                   /*isConstant=*/true, StringAttr::get(context, bytes));
  globals.module =
      createGlobal(module, symbols, loc, LLVM::LLVMPointerType::get(context),
                   stem + "_module", /*isConstant=*/false, {});
  return globals;
}

/// The declaration of runtime function `function` in `module` as an
/// llvm.func (the module is in the LLVM dialect here).
static LLVM::LLVMFuncOp declareRuntimeFunction(ModuleOp module,
                                               RuntimeFunction function) {
  MLIRContext *context = module.getContext();
  FunctionType type = getRuntimeFunctionType(context, function);
  Type result = type.getNumResults() ? type.getResult(0)
                                     : LLVM::LLVMVoidType::get(context);
  OpBuilder builder(context);
  FailureOr<LLVM::LLVMFuncOp> declared =
      LLVM::lookupOrCreateFn(builder, module, getRuntimeFunctionName(function),
                             type.getInputs(), result);
  return succeeded(declared) ? *declared : nullptr;
}

/// Replaces `launch` by the calls that find its kernel (loading the module
/// at the first launch) and launch it; an error at it if it has a form the
/// lowering does not take.
static LogicalResult
lowerLaunch(gpu::LaunchFuncOp launch, BinaryGlobals &globals, ModuleOp module,
            SymbolTable &symbols, LLVM::LLVMFuncOp getKernel,
            LLVM::LLVMFuncOp launchKernel, LLVM::LLVMFuncOp synchronize) {
  if (launch.hasClusterSize())
    return launch.emitOpError("with a cluster size: gather-gpu-load-lazily "
                              "launches without clusters");
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError("has async tokens; gpu-to-llvm lowers them to "
                              "streams first");
  if (Value stream = launch.getAsyncObject();
      stream && !isa<LLVM::LLVMPointerType>(stream.getType()))
    return launch.emitOpError("runs on a stream of type ")
           << stream.getType() << ", not !llvm.ptr (gpu-to-llvm first)";
  auto function = launch->getParentOfType<LLVM::LLVMFuncOp>();
  if (!function)
    return launch.emitOpError("is not in an llvm.func (gpu-to-llvm first)");
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  MLIRContext *context = module.getContext();
  Type i32 = IntegerType::get(context, 32);
  Type i64 = IntegerType::get(context, 64);
  for (Value size : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
    if (size.getType() != i64)
      return launch.emitOpError("has a size of type ")
             << size.getType() << "; gpu-to-llvm makes them i64";
  SmallVector<Type> types;
  for (Value operand : launch.getKernelOperands()) {
    if (!LLVM::isCompatibleType(operand.getType()))
      return launch.emitOpError("has a kernel operand of type ")
             << operand.getType() << ", not an LLVM type (gpu-to-llvm first)";
    types.push_back(operand.getType());
  }

  Location loc = launch.getLoc();
  StringAttr kernelName = launch.getKernelName();
  auto &slots = globals.kernels[kernelName];
  if (!slots.first) {
    std::string stem =
        (globals.module.getSymName().drop_back(strlen("_module")) + "_" +
         kernelName.getValue())
            .str();
    slots.first = createStringGlobal(module, symbols, loc, stem + "_name",
                                     kernelName.getValue());
    slots.second =
        createGlobal(module, symbols, loc, LLVM::LLVMPointerType::get(context),
                     stem + "_kernel", /*isConstant=*/false, {});
  }

  OpBuilder builder(launch);
  auto constant = [&](Type type, int64_t value) -> Value {
    return LLVM::ConstantOp::create(builder, loc, type,
                                    builder.getIntegerAttr(type, value));
  };
  auto ptr = LLVM::LLVMPointerType::get(context);
  Value kernel =
      LLVM::CallOp::create(
          builder, loc, getKernel,
          ValueRange{LLVM::AddressOfOp::create(builder, loc, globals.module),
                     LLVM::AddressOfOp::create(builder, loc, slots.second),
                     LLVM::AddressOfOp::create(builder, loc, globals.bytes),
                     constant(i64, globals.size),
                     constant(i32, static_cast<int32_t>(globals.format)),
                     constant(i32, globals.optLevel),
                     LLVM::AddressOfOp::create(builder, loc, slots.first)})
          .getResult();

  // One pointer per argument, to a copy of it, as cuLaunchKernel takes
  // them; the storage in the function's entry block (a launch in a loop
  // reuses it).
  Value params = LLVM::ZeroOp::create(builder, loc, ptr);
  if (!types.empty()) {
    OpBuilder entry = OpBuilder::atBlockBegin(&function.getBody().front());
    Value one =
        LLVM::ConstantOp::create(entry, loc, i64, entry.getI64IntegerAttr(1));
    auto argumentsType = LLVM::LLVMStructType::getLiteral(context, types);
    auto pointersType = LLVM::LLVMArrayType::get(ptr, types.size());
    Value arguments =
        LLVM::AllocaOp::create(entry, loc, ptr, argumentsType, one);
    params = LLVM::AllocaOp::create(entry, loc, ptr, pointersType, one);
    for (auto [i, operand] : llvm::enumerate(launch.getKernelOperands())) {
      auto index = static_cast<int32_t>(i);
      Value field =
          LLVM::GEPOp::create(builder, loc, ptr, argumentsType, arguments,
                              ArrayRef<LLVM::GEPArg>{0, index});
      LLVM::StoreOp::create(builder, loc, operand, field);
      Value pointer =
          LLVM::GEPOp::create(builder, loc, ptr, pointersType, params,
                              ArrayRef<LLVM::GEPArg>{0, index});
      LLVM::StoreOp::create(builder, loc, field, pointer);
    }
  }
  Value sharedMemory = launch.getDynamicSharedMemorySize();
  if (!sharedMemory)
    sharedMemory = constant(i32, 0);
  Value stream = launch.getAsyncObject();
  if (!stream)
    stream = LLVM::ZeroOp::create(builder, loc, ptr);
  LLVM::CallOp::create(
      builder, loc, launchKernel,
      ValueRange{kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                 sharedMemory, stream, params,
                 LLVM::ZeroOp::create(builder, loc, ptr),
                 constant(i64, static_cast<int64_t>(types.size()))});
  // A launch without a stream is synchronous.
  if (!launch.getAsyncObject())
    LLVM::CallOp::create(builder, loc, synchronize, ValueRange{stream});
  launch.erase();
  return success();
}

/// A global destructor that unloads every module loaded (and forgets its
/// kernels), for the JIT's deinitialization and the end of the process.
static void createUnloadDestructor(ModuleOp module, SymbolTable &symbols,
                                   ArrayRef<BinaryGlobals> binaries,
                                   LLVM::LLVMFuncOp unload) {
  MLIRContext *context = module.getContext();
  Location loc = module.getLoc();
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto destructor = LLVM::LLVMFuncOp::create(
      builder, loc, "__gather_gpu_unload_modules",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), {}),
      LLVM::Linkage::Internal);
  symbols.insert(destructor);
  builder.setInsertionPointToStart(destructor.addEntryBlock(builder));
  auto ptr = LLVM::LLVMPointerType::get(context);
  for (const BinaryGlobals &globals : binaries) {
    LLVM::CallOp::create(
        builder, loc, unload,
        ValueRange{LLVM::AddressOfOp::create(builder, loc, globals.module)});
    for (auto &entry : globals.kernels)
      LLVM::StoreOp::create(
          builder, loc, LLVM::ZeroOp::create(builder, loc, ptr),
          LLVM::AddressOfOp::create(builder, loc, entry.second.second));
  }
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  builder.setInsertionPointAfter(destructor);
  LLVM::GlobalDtorsOp::create(
      builder, loc,
      builder.getArrayAttr(FlatSymbolRefAttr::get(destructor.getSymNameAttr())),
      builder.getI32ArrayAttr({65535}),
      builder.getArrayAttr(LLVM::ZeroAttr::get(context)));
}

namespace {
struct GPULoadLazilyPass
    : gather::impl::GPULoadLazilyPassBase<GPULoadLazilyPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
    if (binaries.empty())
      return;
    SymbolTable symbols(module);
    LLVM::LLVMFuncOp getKernel =
        declareRuntimeFunction(module, RuntimeFunction::CUDAGetKernel);
    LLVM::LLVMFuncOp launchKernel =
        declareRuntimeFunction(module, RuntimeFunction::CUDALaunchKernel);
    LLVM::LLVMFuncOp synchronize =
        declareRuntimeFunction(module, RuntimeFunction::CUDAStreamSynchronize);
    LLVM::LLVMFuncOp unload =
        declareRuntimeFunction(module, RuntimeFunction::CUDAUnloadModule);
    if (!getKernel || !launchKernel || !synchronize || !unload) {
      module.emitError("gather-gpu-load-lazily: a symbol of gather's CUDA "
                       "runtime is taken by another definition");
      return signalPassFailure();
    }
    llvm::StringMap<size_t> indexOf;
    SmallVector<BinaryGlobals> globals;
    for (gpu::BinaryOp binary : binaries) {
      FailureOr<BinaryGlobals> created =
          createBinaryGlobals(binary, module, symbols);
      if (failed(created))
        return signalPassFailure();
      indexOf[binary.getSymName()] = globals.size();
      globals.push_back(std::move(*created));
    }
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (gpu::LaunchFuncOp launch : launches) {
      auto found = indexOf.find(launch.getKernelModuleName().getValue());
      if (found == indexOf.end()) {
        launch.emitOpError("launches a kernel of '")
            << launch.getKernelModuleName().getValue()
            << "', which is not a gpu.binary of this module "
               "(gpu-module-to-binary first)";
        return signalPassFailure();
      }
      if (failed(lowerLaunch(launch, globals[found->second], module, symbols,
                             getKernel, launchKernel, synchronize)))
        return signalPassFailure();
    }
    createUnloadDestructor(module, symbols, globals, unload);
    for (gpu::BinaryOp binary : binaries)
      binary.erase();
  }
};
} // namespace
