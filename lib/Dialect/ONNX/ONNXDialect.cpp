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

/// Folded onnx ops become arith.constant.
Operation *ONNXDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto typedValue = dyn_cast<TypedAttr>(value);
  if (!typedValue || !arith::ConstantOp::isBuildableWith(typedValue, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typedValue);
}
