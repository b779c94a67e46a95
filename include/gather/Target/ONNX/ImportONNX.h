//===- ImportONNX.h - ONNX models to the onnx dialect -----------*- C++ -*-===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// Imports an ONNX model (a ModelProto file, read with Debian's libonnx) into
// a builtin.module holding one `func.func @main_graph` in the onnx dialect:
//   - graph inputs (other than initializers) become arguments and graph
//     outputs results, with the declared element types and shapes (a
//     symbolic or unknown dim becomes `?`, a missing shape unranked);
//   - initializers become onnx.Constant;
//   - GatherElements nodes (domain ai.onnx, opset 11 to 22) become
//     onnx.GatherElements with their `axis`.
// Any other op type, another opset, a model the ONNX checker rejects, or a
// file that is not an ONNX model is an error naming the file (and the node
// and its op type) — never a crash.
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
  /// |expected|. Both 0 (the default) means bit-exact.
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
void registerImportONNXTranslation();

} // namespace gather

#endif // GATHER_TARGET_ONNX_IMPORTONNX_H
