//===- ONNXDialect.cpp - The onnx dialect and its types -------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

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

bool gather::ONNX::isForeignONNXOp(Operation *op) {
  if (op->getName().getDialectNamespace() != ONNXDialect::getDialectNamespace())
    return false;
  return !op->isRegistered() || !isa<ONNXDialect>(op->getDialect());
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
