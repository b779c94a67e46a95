//===- ImportONNX.h - ONNX models to the onnx dialect -----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Imports an ONNX model (a ModelProto file, read with Debian's libonnx) into
// a builtin.module holding one `func.func @main_graph` whose IR is valid
// onnx-mlir input:
//   - graph inputs (other than initializers) become arguments and graph
//     outputs results, with the declared element types and shapes (a
//     symbolic or unknown dim becomes `?`, a missing shape unranked) and
//     their names as `onnx.name` argument / result attributes;
//   - initializers become onnx.Constant;
//   - every node is imported: GatherElements (domain ai.onnx, opset 11 to
//     22) as onnx.GatherElements with its `axis`, Constant (attribute
//     `value`) as onnx.Constant, any other node as a generic op
//     `onnx.<OpType>` in onnx-mlir's spelling: attributes converted (int ->
//     si64, ints -> [i64], float -> f32, floats -> [f32], string(s),
//     tensor -> dense elements), a non-default domain kept as `domain_name`,
//     an omitted optional input as `"onnx.NoValue"() {value}`, result types
//     from value_info and ONNX shape inference;
//   - a named node keeps its name as `onnx_node_name`, and every op is
//     located at its node in the model file:
//     `loc("node '<name>' (<OpType>)"("model.onnx"))`, or
//     `loc("node #<index> (<OpType>)"("model.onnx"))` for an unnamed node;
//     errors print it as `model.onnx: node 'top2' (TopK): error: ...`.
// Another opset, an attribute of a kind not listed above, a value whose type
// is unknown, a model the ONNX checker rejects, or a file that is not an
// ONNX model is an error naming the file (and the node) — never a crash.
// The onnx-to-llvm pipeline lowers GatherElements and Constant; any other
// op is reported by it as an error at its node.
//
// With test data (ONNX backend-test layout: input_<i>.pb, output_<i>.pb, each
// a TensorProto), the module also gets a `func.func @main` that calls
// @main_graph on the inputs (as constants) and either returns the outputs
// (no expected files: `gather-runner -e main --entry-point-result=void`
// prints them) or compares each with the expected output through gather's
// runtime (gatherCompare*, see GatherRuntime.h): gather-runner then prints a
// line per output and exits with status 1 on a mismatch.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TARGET_ONNX_IMPORTONNX_H
#define GATHER_TARGET_ONNX_IMPORTONNX_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace gather {

struct ONNXImportOptions {
  /// TensorProto files for the graph inputs, in graph order (may be empty;
  /// if given, a @main runs the graph on them).
  std::vector<std::string> inputFiles;
  /// TensorProto files with the expected graph outputs, in graph order;
  /// when given, @main compares the outputs with them.
  std::vector<std::string> expectedFiles;
  /// If not empty, @main also writes each output as
  /// `<outputDirectory>/output_<i>.pb`, a TensorProto (through
  /// libgather_onnx_runtime's gatherWriteTensorProto*).
  std::string outputDirectory;
  /// Float tolerance of the comparison: |actual - expected| <= atol + rtol *
  /// |expected|. Both 0 (the default) means bit-exact. A negative or NaN
  /// tolerance is an error of importONNXModel.
  double atol = 0.0;
  double rtol = 0.0;
};

/// Imports the serialized ModelProto in `bytes`, read from `fileName` (used
/// in messages and locations). Returns null after emitting diagnostics on
/// `context` if the model is invalid or unsupported.
mlir::OwningOpRef<mlir::ModuleOp>
importONNXModel(llvm::StringRef bytes, llvm::StringRef fileName,
                mlir::MLIRContext *context,
                const ONNXImportOptions &options = {});

/// Registers `--import-onnx` (with --onnx-inputs, --onnx-expected,
/// --onnx-write-outputs, --onnx-atol, --onnx-rtol) for mlir-translate style
/// tools.
/// Reads the ONNX TensorProto file `path` (the backend tests' `.pb`) as a
/// dense elements attribute of `context`, as the importer reads
/// initializers. Errors (unreadable, not a TensorProto, a type gather does
/// not support, external data) are diagnostics at loc("<path>").
mlir::FailureOr<mlir::DenseElementsAttr>
readTensorProtoFile(llvm::StringRef path, mlir::MLIRContext *context);

void registerImportONNXTranslation();

} // namespace gather

#endif // GATHER_TARGET_ONNX_IMPORTONNX_H
