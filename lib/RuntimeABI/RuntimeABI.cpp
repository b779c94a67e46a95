//===- RuntimeABI.cpp - gather's runtime as compiled code sees it ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeSupport.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir;
using namespace gather;

namespace {
/// One runtime function: its C name and its type as compiled code declares
/// it, in MLIR's syntax (`{0}` stands for the element type of a function on
/// tensors).
struct RuntimeFunctionInfo {
  StringLiteral name;
  StringLiteral type;
};

/// One element type of the runtime: its suffix and its MLIR spelling.
struct ElementTypeInfo {
  StringLiteral suffix;
  StringLiteral spelling;
};
} // namespace

/// The runtime functions (GatherRuntime.h, GatherMPIRuntime.h,
/// GatherCUDARuntime.h), in the order
/// of RuntimeFunction.
static constexpr RuntimeFunctionInfo kRuntimeFunctions[] = {
    {"gatherReportIndexError",
     "(!llvm.ptr, i64, !llvm.ptr, i64, i64, i64) -> ()"},
    {"gatherReportIndexErrorsOmitted", "(!llvm.ptr, i64, i64, i64) -> ()"},
    {"gatherReportShapeError", "(!llvm.ptr, i64, i64, i64, i64) -> ()"},
    {"gatherReportRankError", "(!llvm.ptr, i64, i64, i64) -> ()"},
    {"gatherReportResultShapeError", "(!llvm.ptr, i64, i64, i64) -> ()"},
    {"gatherReportDestinationShapeError", "(!llvm.ptr, i64, i64, i64) -> ()"},
    {"gatherReportSlabShapeError",
     "(!llvm.ptr, i64, i64, i64, i64, i64, i64, i64) -> ()"},
    {"gatherReportAllocationErrorIf", "(i32, i64, !llvm.ptr, !llvm.ptr) -> ()"},
    {"gatherMPIInit", "(i64) -> ()"},
    {"gatherMPIAllreduceSumBits", "(!llvm.ptr, i64, i64, i64, i64, i64) -> ()"},
    {"gatherMPIAllgatherv", "(!llvm.ptr, i64, i64, i64, i64, i64, i64) -> ()"},
    {"gatherMPIAlltoallLookup",
     "(!llvm.ptr, i64, !llvm.ptr, !llvm.ptr, i64, "
     "i64, i64, i64, i64, i64, i64, i64, i64) -> ()"},
    {"gatherMPICommSplitOnce", "(i64, i32, i32, !llvm.ptr) -> i64"},
    {"gatherMPIKernelEnter", "(!llvm.ptr) -> ()"},
    {"gatherMPIKernelExit", "() -> ()"},
    {"gatherCUDAGetKernel",
     "(!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i32, i32, !llvm.ptr) -> "
     "!llvm.ptr"},
    {"gatherCUDAUnloadModule", "(!llvm.ptr) -> ()"},
    {"mgpuLaunchKernel", "(!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, "
                         "!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()"},
    {"mgpuStreamSynchronize", "(!llvm.ptr) -> ()"},
};
static_assert(std::size(kRuntimeFunctions) ==
                  static_cast<size_t>(RuntimeFunction::CUDAStreamSynchronize) +
                      1,
              "one row per RuntimeFunction");

/// The runtime functions on tensors, in the order of RuntimeTensorFunction:
/// the stem of their names (then the suffix of the element type).
static constexpr RuntimeFunctionInfo kRuntimeTensorFunctions[] = {
    {"gatherPrint", "(tensor<*x{0}>, i64) -> ()"},
    {"gatherCompare", "(tensor<*x{0}>, tensor<*x{0}>, i64, f64, f64) -> ()"},
    {"gatherWriteTensorProto", "(tensor<*x{0}>, tensor<*xi8>) -> ()"},
};
static_assert(std::size(kRuntimeTensorFunctions) ==
                  static_cast<size_t>(RuntimeTensorFunction::WriteTensorProto) +
                      1,
              "one row per RuntimeTensorFunction");

/// The prefix of gather's own functions in libgather_cuda_runtime.
static constexpr StringLiteral kCUDARuntimePrefix = "gatherCUDA";

/// The prefixes of the names reserved for the runtime: every report, the
/// functions on tensors, and the host's gatherSetErrorHandler and
/// gatherSetPrintLimit.
static constexpr StringLiteral kReservedPrefixes[] = {
    "gatherReport",
    kRuntimeTensorFunctions[0].name,
    kRuntimeTensorFunctions[1].name,
    kRuntimeTensorFunctions[2].name,
    "gatherSetErrorHandler",
    "gatherSetPrintLimit"};

/// The functions of MLIR's GPU lowering that libgather_cuda_runtime defines.
static constexpr StringLiteral kCUDARuntimeFunctions[] = {
#define GATHER_CUDA_RUNTIME_FUNCTION(Name, ResultType, Parameters) #Name,
#include "gather/Runtime/CUDARuntimeFunctions.def"
};

/// The element types of the runtime (ElementTypes.def).
static constexpr ElementTypeInfo kElementTypes[] = {
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  {#Suffix, Spelling},
#include "gather/Runtime/ElementTypes.def"
};

/// `text` (a type in MLIR's syntax, from the tables above) as a type.
static Type parseRuntimeType(MLIRContext *context, StringRef text) {
  Type type = parseType(text, context);
  assert(type && "the runtime's types are valid MLIR syntax");
  return type;
}

StringRef gather::getRuntimeFunctionName(RuntimeFunction function) {
  return kRuntimeFunctions[static_cast<size_t>(function)].name;
}

FunctionType gather::getRuntimeFunctionType(MLIRContext *context,
                                            RuntimeFunction function) {
  return cast<FunctionType>(parseRuntimeType(
      context, kRuntimeFunctions[static_cast<size_t>(function)].type));
}

StringRef gather::getRuntimeTypeSuffix(Type elementType) {
  std::string spelling;
  llvm::raw_string_ostream(spelling) << elementType;
  const ElementTypeInfo *found =
      llvm::find_if(kElementTypes, [&](const ElementTypeInfo &info) {
        return info.spelling == spelling;
      });
  return found == std::end(kElementTypes) ? StringRef()
                                          : StringRef(found->suffix);
}

Type gather::getRuntimeElementType(MLIRContext *context, StringRef suffix) {
  const ElementTypeInfo *found =
      llvm::find_if(kElementTypes, [&](const ElementTypeInfo &info) {
        return info.suffix == suffix;
      });
  if (found == std::end(kElementTypes))
    return nullptr;
  // A dialect's type (!onnx.string) exists only once the dialect defining
  // it is loaded (not another one of the same namespace).
  StringRef spelling = found->spelling;
  if (spelling.consume_front("!") &&
      !AbstractType::lookup(spelling, context).has_value())
    return nullptr;
  return parseRuntimeType(context, found->spelling);
}

std::string gather::getRuntimeFunctionName(RuntimeTensorFunction function,
                                           Type elementType) {
  return (kRuntimeTensorFunctions[static_cast<size_t>(function)].name +
          getRuntimeTypeSuffix(elementType))
      .str();
}

FunctionType gather::getRuntimeFunctionType(RuntimeTensorFunction function,
                                            Type elementType) {
  std::string spelling;
  llvm::raw_string_ostream(spelling) << elementType;
  return cast<FunctionType>(parseRuntimeType(
      elementType.getContext(),
      llvm::formatv(
          kRuntimeTensorFunctions[static_cast<size_t>(function)].type.data(),
          spelling)
          .str()));
}

/// The runtime function on tensors named `name` and its element type, if
/// there is one (and the element type's dialect is loaded).
static std::optional<std::pair<RuntimeTensorFunction, Type>>
lookupTensorFunction(MLIRContext *context, StringRef name) {
  for (auto [index, info] : llvm::enumerate(kRuntimeTensorFunctions)) {
    StringRef suffix = name;
    if (!suffix.consume_front(info.name))
      continue;
    if (Type elementType = getRuntimeElementType(context, suffix))
      return std::make_pair(static_cast<RuntimeTensorFunction>(index),
                            elementType);
    return std::nullopt;
  }
  return std::nullopt;
}

/// The type of runtime function `name` as compiled code declares it, or
/// null if `name` is none of the runtime functions.
static FunctionType getExpectedType(MLIRContext *context, StringRef name) {
  if (auto tensorFunction = lookupTensorFunction(context, name))
    return getRuntimeFunctionType(tensorFunction->first,
                                  tensorFunction->second);
  for (auto [index, info] : llvm::enumerate(kRuntimeFunctions))
    if (info.name == name)
      return getRuntimeFunctionType(context,
                                    static_cast<RuntimeFunction>(index));
  return nullptr;
}

/// `function`, or an error at it if it is not an external declaration of
/// `type`.
static FailureOr<func::FuncOp>
checkDeclaration(Operation *existing, StringRef name, FunctionType type) {
  auto function = dyn_cast<func::FuncOp>(existing);
  if (!function || !function.isExternal() || function.getFunctionType() != type)
    return existing->emitError("symbol '")
           << name << "' is reserved for gather's runtime and must be an "
           << "external func.func of type " << type;
  return function;
}

static func::FuncOp declare(ModuleOp module, StringRef name,
                            FunctionType type) {
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(builder, module.getLoc(), name, type);
  function.setPrivate();
  return function;
}

func::FuncOp gather::getOrDeclareRuntimeFunction(ModuleOp module,
                                                 RuntimeFunction function) {
  StringRef name = getRuntimeFunctionName(function);
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  return declare(module, name,
                 getRuntimeFunctionType(module.getContext(), function));
}

FailureOr<func::FuncOp>
gather::getOrDeclareCheckedRuntimeFunction(ModuleOp module,
                                           RuntimeFunction function) {
  StringRef name = getRuntimeFunctionName(function);
  FunctionType type = getRuntimeFunctionType(module.getContext(), function);
  if (Operation *existing = module.lookupSymbol(name))
    return checkDeclaration(existing, name, type);
  return declare(module, name, type);
}

FailureOr<func::FuncOp> gather::getOrDeclareRuntimeFunction(
    ModuleOp module, RuntimeTensorFunction function, Type elementType) {
  std::string name = getRuntimeFunctionName(function, elementType);
  FunctionType type = getRuntimeFunctionType(function, elementType);
  if (Operation *existing = module.lookupSymbol(name))
    return checkDeclaration(existing, name, type);
  func::FuncOp declaration = declare(module, name, type);
  Builder builder(module.getContext());
  declaration->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  // The runtime only reads the tensors it is given.
  for (auto [index, input] : llvm::enumerate(type.getInputs()))
    if (isa<TensorType>(input))
      declaration.setArgAttr(index, "bufferization.access",
                             builder.getStringAttr("read"));
  return declaration;
}

bool gather::isReservedRuntimeName(StringRef name) {
  name.consume_front("_mlir_ciface_");
  return llvm::any_of(kReservedPrefixes, [&](StringRef prefix) {
    return name.starts_with(prefix);
  });
}

bool gather::isCUDARuntimeFunctionName(StringRef name) {
  return name.starts_with(kCUDARuntimePrefix) ||
         llvm::is_contained(kCUDARuntimeFunctions, name);
}

LLVM::LLVMStructType gather::getErrorSinkType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMStructType::getLiteral(context, {ptr, ptr});
}

LogicalResult gather::verifyErrorSink(Operation *symbol) {
  // (Checked before any LLVM type is made: a module without the LLVM
  // dialect loaded cannot hold an llvm.mlir.global anyway.)
  auto global = dyn_cast<LLVM::GlobalOp>(symbol);
  bool linkable = global && (global.getLinkage() == LLVM::Linkage::Weak ||
                             global.getLinkage() == LLVM::Linkage::External);
  if (linkable &&
      global.getGlobalType() == getErrorSinkType(symbol->getContext()) &&
      !global.getConstant() && !global.getThreadLocal_() &&
      global.getAddrSpace() == 0 &&
      (global.getValueOrNull() || global.getInitializerBlock()))
    return success();
  return symbol->emitError()
         << "symbol '" << kErrorSinkName
         << "' is reserved for gather's runtime and must be a mutable, "
            "defined, weak or external llvm.mlir.global of type "
            "!llvm.struct<(ptr, ptr)> in address space 0, not thread-local";
}

LogicalResult gather::verifyRuntimeSymbols(Operation *root) {
  WalkResult result = root->walk([&](SymbolOpInterface symbol) {
    StringRef name = symbol.getName();
    if (name == kErrorSinkName)
      return failed(verifyErrorSink(symbol)) ? WalkResult::interrupt()
                                             : WalkResult::advance();
    if (!isReservedRuntimeName(name))
      return WalkResult::advance();
    MLIRContext *context = symbol->getContext();
    FunctionType expected = getExpectedType(context, name);
    auto function = dyn_cast<func::FuncOp>(symbol.getOperation());
    auto llvmFunction = dyn_cast<LLVM::LLVMFuncOp>(symbol.getOperation());
    // (Lowered code defines an llvm.func @gatherPrintF32 that forwards to
    // the runtime's _mlir_ciface_gatherPrintF32: MLIR's C interface wrapper.)
    bool isCInterfaceWrapper = llvmFunction &&
                               !name.starts_with("_mlir_ciface_") &&
                               lookupTensorFunction(context, name);
    bool ok = function
                  ? function.isExternal() &&
                        (!expected || function.getFunctionType() == expected)
                  : llvmFunction &&
                        (llvmFunction.isExternal() || isCInterfaceWrapper);
    if (ok)
      return WalkResult::advance();
    InFlightDiagnostic diag = symbol->emitError("symbol '")
                              << name << "' is reserved for gather's runtime";
    if (expected) {
      diag << " and must be an external func.func of type " << expected;
    } else {
      diag << " (names starting with ";
      llvm::interleaveComma(kReservedPrefixes, diag);
      diag << "); it can only declare an external function";
    }
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}
