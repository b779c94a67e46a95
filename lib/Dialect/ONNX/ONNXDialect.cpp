//===- ONNXDialect.cpp - The onnx dialect and its types -------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace gather::onnx;

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
