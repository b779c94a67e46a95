//===- gather-opt.cpp - gather's mlir-opt ---------------------------------===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the onnx dialect, gather's passes (convert-onnx-to-linalg,
// onnx-shape-inference)
// and pipeline (onnx-to-llvm), plus every upstream dialect, extension and
// pass, so that pipeline authors can mix them freely.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  gather::registerAllPasses();

  mlir::DialectRegistry registry;
  gather::registerONNXToLLVMPipelineDependencies(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "gather optimizer driver (onnx dialect + MLIR)\n", registry));
}
