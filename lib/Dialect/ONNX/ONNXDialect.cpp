//===- ONNXDialect.cpp - The onnx dialect and its types -------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace gather::ONNX;

#include "gather/Dialect/ONNX/ONNXOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "gather/Dialect/ONNX/ONNXOpsTypes.cpp.inc"

void ONNXDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "gather/Dialect/ONNX/ONNXOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "gather/Dialect/ONNX/ONNXOpsTypes.cpp.inc"
      >();
  // Ops of other ONNX front ends (onnx-mlir's onnx.Return, onnx.TopK, ...)
  // parse in generic form and are left alone.
  allowUnknownOperations();
}

/// `!onnx.string`, also spelled `!onnx.String` (onnx-mlir's spelling).
Type ONNXDialect::parseType(DialectAsmParser &parser) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult parsed = generatedTypeParser(parser, &mnemonic, type);
  if (parsed.has_value())
    return succeeded(*parsed) ? type : Type();
  if (mnemonic == "String")
    return StringType::get(getContext());
  parser.emitError(loc, "unknown onnx type '") << mnemonic << "'";
  return Type();
}

void ONNXDialect::printType(Type type, DialectAsmPrinter &printer) const {
  if (failed(generatedTypePrinter(type, printer)))
    llvm_unreachable("every onnx type has a printer");
}

/// Folded onnx ops become arith.constant, or onnx.Constant for what
/// arith.constant cannot hold (strings).
Operation *ONNXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto typedValue = dyn_cast<TypedAttr>(value);
  if (!typedValue)
    return nullptr;
  auto shaped = dyn_cast<ShapedType>(type);
  bool isString = shaped && isa<StringType>(shaped.getElementType());
  if (!isString && arith::ConstantOp::isBuildableWith(typedValue, type))
    return arith::ConstantOp::create(builder, loc, type, typedValue);
  if (auto elements = dyn_cast<ElementsAttr>(value);
      elements && elements.getType() == type)
    return ConstantOp::create(builder, loc, elements);
  return nullptr;
}

StringRef gather::getRuntimeTypeSuffix(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    return complex.getElementType().isF32()   ? "ComplexF32"
           : complex.getElementType().isF64() ? "ComplexF64"
                                              : "";
  if (isa<StringType>(elementType))
    return "String";
  if (elementType.isF32())
    return "F32";
  if (elementType.isF64())
    return "F64";
  if (elementType.isF16())
    return "F16";
  if (elementType.isBF16())
    return "BF16";
  auto integer = dyn_cast<IntegerType>(elementType);
  if (!integer || integer.isSigned())
    return "";
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return isUnsigned ? "" : "I1";
  case 8:
    return isUnsigned ? "UI8" : "I8";
  case 16:
    return isUnsigned ? "UI16" : "I16";
  case 32:
    return isUnsigned ? "UI32" : "I32";
  case 64:
    return isUnsigned ? "UI64" : "I64";
  default:
    return "";
  }
}

FailureOr<func::FuncOp>
gather::getOrDeclareRuntimeCInterfaceFunction(ModuleOp module, StringRef name,
                                              FunctionType type) {
  if (Operation *existing = module.lookupSymbol(name)) {
    auto function = dyn_cast<func::FuncOp>(existing);
    if (!function || !function.isExternal() ||
        function.getFunctionType() != type)
      return existing->emitError("symbol '")
             << name << "' is reserved for gather's runtime and must be an "
             << "external func.func of type " << type;
    return function;
  }
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto function = func::FuncOp::create(builder, module.getLoc(), name, type);
  function.setPrivate();
  function->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  // The runtime only reads the tensors it is given.
  for (auto [index, input] : llvm::enumerate(type.getInputs()))
    if (isa<TensorType>(input))
      function.setArgAttr(index, "bufferization.access",
                          builder.getStringAttr("read"));
  return function;
}

/// Prefixes of the names of the runtime's functions.
static constexpr StringLiteral kRuntimePrefixes[] = {
    "gatherReport", "gatherPrint", "gatherCompare", "gatherWriteTensorProto",
    "gatherSetErrorHandler"};

bool gather::isReservedRuntimeName(StringRef name) {
  name.consume_front("_mlir_ciface_");
  return llvm::any_of(kRuntimePrefixes, [&](StringRef prefix) {
    return name.starts_with(prefix);
  });
}

FunctionType gather::getRuntimeCInterfaceFunctionType(MLIRContext *context,
                                                      StringRef name) {
  StringRef suffix = name;
  enum { Print, Compare, Write } family;
  if (suffix.consume_front("gatherPrint"))
    family = Print;
  else if (suffix.consume_front("gatherCompare"))
    family = Compare;
  else if (suffix.consume_front("gatherWriteTensorProto"))
    family = Write;
  else
    return nullptr;
  // The element type whose suffix this is.
  Builder b(context);
  Type candidates[] = {b.getF32Type(),
                       b.getF64Type(),
                       b.getF16Type(),
                       b.getBF16Type(),
                       b.getI1Type(),
                       b.getI8Type(),
                       b.getI16Type(),
                       b.getI32Type(),
                       b.getI64Type(),
                       b.getIntegerType(8, /*isSigned=*/false),
                       b.getIntegerType(16, /*isSigned=*/false),
                       b.getIntegerType(32, /*isSigned=*/false),
                       b.getIntegerType(64, /*isSigned=*/false),
                       ComplexType::get(b.getF32Type()),
                       ComplexType::get(b.getF64Type())};
  Type elementType;
  if (suffix == "String") {
    // (!onnx.string exists only once the dialect is loaded.)
    if (!context->getLoadedDialect<ONNXDialect>())
      return nullptr;
    elementType = StringType::get(context);
  } else {
    const Type *found = llvm::find_if(candidates, [&](Type type) {
      return getRuntimeTypeSuffix(type) == suffix;
    });
    if (found == std::end(candidates))
      return nullptr;
    elementType = *found;
  }
  Type tensor = UnrankedTensorType::get(elementType);
  switch (family) {
  case Print:
    return b.getFunctionType({tensor, b.getI64Type()}, {});
  case Compare:
    return b.getFunctionType(
        {tensor, tensor, b.getI64Type(), b.getF64Type(), b.getF64Type()}, {});
  case Write:
    return b.getFunctionType({tensor, UnrankedTensorType::get(b.getI8Type())},
                             {});
  }
  return nullptr;
}

LogicalResult gather::verifyRuntimeSymbols(
    Operation *root, function_ref<FunctionType(StringRef)> expectedType) {
  WalkResult result = root->walk([&](SymbolOpInterface symbol) {
    StringRef name = symbol.getName();
    if (!isReservedRuntimeName(name))
      return WalkResult::advance();
    FunctionType expected = expectedType(name);
    auto function = dyn_cast<func::FuncOp>(symbol.getOperation());
    auto llvmFunction = dyn_cast<LLVM::LLVMFuncOp>(symbol.getOperation());
    // (Lowered code defines an llvm.func @gatherPrintF32 that forwards to
    // the runtime's _mlir_ciface_gatherPrintF32: MLIR's C interface wrapper.)
    bool isCInterfaceWrapper =
        llvmFunction && !name.starts_with("_mlir_ciface_") &&
        getRuntimeCInterfaceFunctionType(symbol->getContext(), name);
    bool ok = function
                  ? function.isExternal() &&
                        (!expected || function.getFunctionType() == expected)
                  : llvmFunction &&
                        (llvmFunction.isExternal() || isCInterfaceWrapper);
    if (ok)
      return WalkResult::advance();
    InFlightDiagnostic diag = symbol->emitError("symbol '")
                              << name << "' is reserved for gather's runtime";
    if (expected)
      diag << " and must be an external func.func of type " << expected;
    else
      diag << " (names starting with gatherReport, gatherPrint, gatherCompare, "
              "gatherWriteTensorProto, gatherSetErrorHandler); it can only "
              "declare an external function";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

std::string gather::formatRuntimeLocation(Location loc) {
  return llvm::TypeSwitch<LocationAttr, std::string>(loc)
      .Case([](FileLineColRange file) {
        std::string text = file.getFilename().str();
        if (file.getStartLine() != 0 || file.getStartColumn() != 0)
          text += ":" + std::to_string(file.getStartLine()) + ":" +
                  std::to_string(file.getStartColumn());
        return text;
      })
      .Case([](NameLoc name) {
        std::string child = formatRuntimeLocation(name.getChildLoc());
        return child.empty() ? name.getName().str()
                             : child + ": " + name.getName().str();
      })
      .Case([](FusedLoc fused) {
        std::string text;
        for (Location part : fused.getLocations()) {
          std::string formatted = formatRuntimeLocation(part);
          if (formatted.empty())
            continue;
          text += (text.empty() ? "" : ", ") + formatted;
        }
        return text;
      })
      .Case([](CallSiteLoc call) {
        return formatRuntimeLocation(call.getCallee());
      })
      .Case([](OpaqueLoc opaque) {
        return formatRuntimeLocation(opaque.getFallbackLocation());
      })
      .Default([](LocationAttr) { return std::string(); });
}

void gather::printDiagnostic(llvm::raw_ostream &os, Diagnostic &diag) {
  auto print = [&](Diagnostic &one) {
    std::string location = formatRuntimeLocation(one.getLocation());
    if (!location.empty())
      os << location << ": ";
    switch (one.getSeverity()) {
    case DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << one << "\n";
  };
  print(diag);
  for (Diagnostic &note : diag.getNotes())
    print(note);
}

void gather::registerLocationDiagnosticHandler(MLIRContext *context) {
  context->getDiagEngine().registerHandler([](Diagnostic &diag) {
    auto file = diag.getLocation()->findInstanceOf<FileLineColLoc>();
    if (diag.getSeverity() != DiagnosticSeverity::Error ||
        (file && file.getLine() != 0))
      return failure(); // Shown with its source line by MLIR's handler.
    printDiagnostic(llvm::errs(), diag);
    llvm::errs().flush();
    return success();
  });
}

LLVM::GlobalOp
gather::getOrCreateLocationGlobal(ModuleOp module, Location loc,
                                  OpBuilder::Listener *listener) {
  std::string text = formatRuntimeLocation(loc);
  text.push_back('\0');
  MLIRContext *context = loc.getContext();
  std::string base =
      "__gather_location_" + llvm::utohexstr(llvm::xxh3_64bits(text));
  std::string name = base;
  for (unsigned suffix = 0;; ++suffix) {
    Operation *symbol = module.lookupSymbol(name);
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(symbol);
    auto value = global ? dyn_cast_or_null<StringAttr>(global.getValueOrNull())
                        : StringAttr();
    if (value && value.getValue() == text)
      return global;
    if (!symbol) {
      OpBuilder builder(context, listener);
      builder.setInsertionPointToStart(module.getBody());
      return LLVM::GlobalOp::create(
          builder, module.getLoc(),
          LLVM::LLVMArrayType::get(IntegerType::get(context, 8), text.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, name,
          StringAttr::get(context, text));
    }
    name = base + "_" + std::to_string(suffix);
  }
}

FunctionType gather::getReportFunctionType(MLIRContext *context,
                                           StringRef name) {
  Type i64 = IntegerType::get(context, 64);
  Type ptr = LLVM::LLVMPointerType::get(context);
  if (name == "gatherReportIndexError")
    return FunctionType::get(context, {ptr, i64, ptr, i64, i64, i64}, {});
  if (name == "gatherReportShapeError")
    return FunctionType::get(context, {ptr, i64, i64, i64, i64}, {});
  return FunctionType::get(context, {ptr, i64, i64, i64}, {});
}

func::FuncOp gather::getOrDeclareReportFunction(ModuleOp module,
                                                StringRef name) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto function =
      func::FuncOp::create(builder, module.getLoc(), name,
                           getReportFunctionType(module.getContext(), name));
  function.setPrivate();
  return function;
}
