//===- StandInONNXDialect.cpp - A stand-in `onnx` dialect -----------------===//
//
// Part of the gather project (tests only).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StandInONNXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace standin;

#include "StandInONNXOpsDialect.cpp.inc"

void StandInONNXDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "StandInONNXOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "StandInONNXOps.cpp.inc"
