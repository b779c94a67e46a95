//===- Dialects.cpp - C API of gather's dialect, passes and pipeline ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather-c/Dialects.h"

#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Pipelines/Pipelines.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(ONNX, onnx, gather::ONNX::ONNXDialect)

void mlirGatherRegisterPipelineDependencies(MlirDialectRegistry registry) {
  gather::registerONNXToLLVMPipelineDependencies(*unwrap(registry));
}

void mlirGatherRegisterPasses(void) { gather::registerAllPasses(); }
