//===- UsingNamespaceGather.cpp - gather next to libonnx ------------------===//
//
// Part of the gather project (tests only).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Compiles only if `using namespace gather;` leaves libonnx's `::onnx`
// unambiguous: gather declares no namespace (or other name) `onnx`.
//
//===----------------------------------------------------------------------===//

#include "StandInONNXDialect.h"

#include "gather/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "gather/Conversion/Passes.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/Pipelines/Pipelines.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include <onnx/onnx_pb.h>

using namespace gather;

std::string standin::describeONNXAndGatherNames() {
  onnx::TensorProto tensor;
  tensor.set_data_type(onnx::TensorProto::FLOAT);
  return onnx::TensorProto_DataType_Name(tensor.data_type()) + " " +
         onnx::TensorProto_DataType_Name(onnx::TensorProto::INT64) + " " +
         ONNX::GatherElementsOp::getOperationName().str();
}
