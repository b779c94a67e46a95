//===- StandInONNXDialect.h - A stand-in `onnx` dialect ---------*- C++ -*-===//
//
// Part of the gather project (tests only).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TEST_STANDINONNXDIALECT_H
#define GATHER_TEST_STANDINONNXDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "StandInONNXOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "StandInONNXOps.h.inc"

namespace standin {
/// The names of libonnx's TensorProto types and of gather's ops, from one
/// file that says `using namespace gather;` next to libonnx's headers
/// (UsingNamespaceGather.cpp): "FLOAT INT64 onnx.GatherElements".
std::string describeONNXAndGatherNames();
} // namespace standin

#endif // GATHER_TEST_STANDINONNXDIALECT_H
