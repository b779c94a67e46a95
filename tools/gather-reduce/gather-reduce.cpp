//===- gather-reduce.cpp - mlir-reduce with gather ------------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// MLIR's test-case reducer (mlir-reduce) knowing the onnx dialect, gather's
// passes and every upstream dialect and pass: it shrinks an input while an
// interestingness script keeps exiting with a non-zero status, e.g.
//
//   gather-reduce in.mlir \
//     '--reduction-tree=traversal-mode=0 test=still-fails.sh'
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"
#include "gather/Support/ToolMain.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"

static int toolMain(int argc, char **argv) {
  mlir::registerAllPasses();
  gather::registerAllPasses();
  mlir::DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  mlir::MLIRContext context(registry);
  return mlir::failed(mlir::mlirReduceMain(argc, argv, context));
}

// Out of memory and fatal errors as located errors, a large stack.
int main(int argc, char **argv) {
  return gather::runToolMain(argc, argv, toolMain);
}
