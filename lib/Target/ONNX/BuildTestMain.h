//===- BuildTestMain.h - A @main running an imported graph ------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the importer (ImportONNX.cpp) and its test-harness generator
// (BuildTestMain.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_TARGET_ONNX_BUILDTESTMAIN_H
#define GATHER_LIB_TARGET_ONNX_BUILDTESTMAIN_H

#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <onnx/onnx_pb.h>

namespace gather::detail {

/// The importer's conversion of a TensorProto to a dense elements
/// attribute; `what` names the tensor in its errors.
using TensorConverter =
    llvm::function_ref<mlir::FailureOr<mlir::DenseElementsAttr>(
        const ::onnx::TensorProto &tensor, llvm::StringRef what)>;

/// Adds `func.func @main` to `module` (see ImportONNX.h): it calls
/// `graphFunction` on the tensors of `options.inputFiles` (as constants,
/// read with `getTensor`) and returns its outputs or, with
/// `options.expectedFiles`, compares each with the expected one through the
/// runtime's gatherCompare*; with `options.outputDirectory`, it also writes
/// each output through gatherWriteTensorProto*. Builds with `builder`; on an
/// unreadable file or a type or count that does not match the graph, emits
/// an error at `fileLoc` (the model file) and fails.
mlir::LogicalResult
buildTestMain(mlir::OpBuilder &builder, mlir::Location fileLoc,
              mlir::func::FuncOp graphFunction, mlir::ModuleOp module,
              const ONNXImportOptions &options, TensorConverter getTensor);

/// The ONNXImportOptions given on the command line (--onnx-inputs,
/// --onnx-expected, --onnx-write-outputs, --onnx-atol, --onnx-rtol), as
/// --import-onnx takes them.
ONNXImportOptions getImportOptionsFromCommandLine();

} // namespace gather::detail

#endif // GATHER_LIB_TARGET_ONNX_BUILDTESTMAIN_H
