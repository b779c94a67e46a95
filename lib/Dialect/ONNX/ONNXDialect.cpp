//===- ONNXDialect.cpp - The onnx dialect and its types -------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"

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
