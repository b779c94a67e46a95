//===- jit-gather.cpp - Build onnx.GatherElements and JIT-run it ----------===//
//
// Part of the gather project (an example of using an installed gather).
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds, with MLIR's C++ builder API, one kernel per example of the ONNX
// GatherElements spec (opset 13) in destination-passing form
//
//   func.func @name(%data: memref<DxF32>, %indices: memref<Ixi64>,
//                   %out: memref<Ixf32>) attributes {llvm.emit_c_interface}
//
// compiles them with gather::compileAndJit and calls them on the spec's
// inputs. Then shows the errors a host handles: an out-of-range index
// reported to its own error handler (with user data), a lookup of a
// function that does not exist, and a module that calls a function the
// process does not have (compileAndJit fails, naming it).
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/ExecutionEngine/JitCompiler.h"
#include "gather/Runtime/GatherRuntime.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/CRunnerUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace mlir;

/// Adds the kernel @`name` gathering along `axis` from f32 `data` of shape
/// `dataShape` with i64 `indices` of shape `indicesShape` into `out`.
static void addKernel(OpBuilder &b, ModuleOp module, StringRef name,
                      ArrayRef<int64_t> dataShape,
                      ArrayRef<int64_t> indicesShape, int64_t axis) {
  Location loc = NameLoc::get(b.getStringAttr(name));
  Type f32 = b.getF32Type();
  Type i64 = b.getI64Type();
  auto dataType = MemRefType::get(dataShape, f32);
  auto indicesType = MemRefType::get(indicesShape, i64);
  auto outType = MemRefType::get(indicesShape, f32);
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(
      b, loc, name, b.getFunctionType({dataType, indicesType, outType}, {}));
  func->setAttr("llvm.emit_c_interface", b.getUnitAttr());
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value data = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(dataShape, f32), body->getArgument(0),
      /*restrict=*/true);
  Value indices = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(indicesShape, i64), body->getArgument(1),
      /*restrict=*/true);
  // The result type is inferred: the shape of indices, the type of data.
  IntegerAttr axisAttr =
      b.getIntegerAttr(b.getIntegerType(64, /*isSigned=*/true), axis);
  Value out =
      gather::ONNX::GatherElementsOp::create(b, loc, data, indices, axisAttr);
  bufferization::MaterializeInDestinationOp::create(
      b, loc, /*result=*/Type(), out, body->getArgument(2),
      /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc);
}

template <typename T>
static StridedMemRefType<T, 2> descriptor(std::vector<T> &values, int64_t rows,
                                          int64_t cols) {
  return {values.data(), values.data(), 0, {rows, cols}, {cols, 1}};
}

using Kernel = void (*)(StridedMemRefType<float, 2> *,
                        StridedMemRefType<int64_t, 2> *,
                        StridedMemRefType<float, 2> *);

/// Runs kernel `name` of `engine` and prints `name: [[...], ...]`.
static bool run(ExecutionEngine &engine, StringRef name,
                std::vector<float> data, int64_t dataRows, int64_t dataCols,
                std::vector<int64_t> indices, int64_t rows, int64_t cols) {
  llvm::Expected<void *> address = gather::lookupCInterface(engine, name);
  if (!address) {
    llvm::errs() << "lookup: " << llvm::toString(address.takeError()) << "\n";
    return false;
  }
  std::vector<float> out(rows * cols, -1.0f);
  auto dataDesc = descriptor(data, dataRows, dataCols);
  auto indicesDesc = descriptor(indices, rows, cols);
  auto outDesc = descriptor(out, rows, cols);
  reinterpret_cast<Kernel>(*address)(&dataDesc, &indicesDesc, &outDesc);
  llvm::outs() << name << ": [";
  for (int64_t r = 0; r < rows; ++r) {
    llvm::outs() << (r ? ", [" : "[");
    for (int64_t c = 0; c < cols; ++c)
      llvm::outs() << (c ? ", " : "") << llvm::format("%g", out[r * cols + c]);
    llvm::outs() << "]";
  }
  llvm::outs() << "]\n";
  return true;
}

/// The run-time error handler: collects the messages in `userData`.
static void collectError(const char *message, void *userData) {
  static_cast<std::vector<std::string> *>(userData)->push_back(message);
}

int main() {
  DialectRegistry registry;
  gather::registerJitDependencies(registry);
  MLIRContext context(registry);
  context.loadDialect<func::FuncDialect, bufferization::BufferizationDialect,
                      gather::ONNX::ONNXDialect>();

  OpBuilder b(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(b.getUnknownLoc());
  addKernel(b, *module, "gather_elements_0", {2, 2}, {2, 2}, /*axis=*/1);
  addKernel(b, *module, "gather_elements_1", {3, 3}, {2, 3}, /*axis=*/0);
  if (failed(verify(*module)))
    return 1;

  auto engine =
      gather::compileAndJit(*module, gather::ONNXToLLVMPipelineOptions());
  if (!engine) {
    llvm::errs() << llvm::toString(engine.takeError()) << "\n";
    return 1;
  }
  std::vector<float> data3x3 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  bool ok = run(**engine, "gather_elements_0", {1, 2, 3, 4}, 2, 2, {0, 0, 1, 0},
                2, 2) &&
            run(**engine, "gather_elements_1", data3x3, 3, 3,
                {1, 2, 0, 2, 0, 0}, 2, 3) &&
            // test_gather_elements_negative_indices: the same kernel.
            run(**engine, "gather_elements_1", data3x3, 3, 3,
                {-1, -2, 0, -2, 0, 0}, 2, 3);
  if (!ok)
    return 1;

  // An index out of range: reported to our handler, which lets the kernel
  // go on (the bad element reads element 0 along the axis).
  std::vector<std::string> errors;
  gatherSetErrorHandler(collectError, &errors);
  run(**engine, "gather_elements_0", {1, 2, 3, 4}, 2, 2, {0, 5, 1, 0}, 2, 2);
  gatherSetErrorHandler(nullptr, nullptr);
  for (const std::string &error : errors)
    llvm::outs() << "reported: " << error << "\n";

  // A function the module does not have: an error, not a crash.
  llvm::Expected<void *> missing = gather::lookupCInterface(**engine, "nope");
  if (!missing)
    llvm::outs() << "lookup failed: " << llvm::toString(missing.takeError())
                 << "\n";

  // A module calling a function that nothing in the process defines:
  // compileAndJit fails and names it.
  auto unresolved =
      gather::compileSourceAndJit(context,
                                  "func.func private @notInThisProcess()\n"
                                  "func.func @entry() {\n"
                                  "  func.call @notInThisProcess() : () -> ()\n"
                                  "  return\n"
                                  "}\n",
                                  gather::ONNXToLLVMPipelineOptions());
  if (!unresolved)
    llvm::outs() << "compileAndJit failed: "
                 << llvm::toString(unresolved.takeError()) << "\n";

  // An element type that does not exist: the error shows the source line.
  auto badType = gather::compileSourceAndJit(
      context,
      gather::getGatherElementsKernelSource("typo", {2}, "f33", {2}, "i64", 0),
      gather::ONNXToLLVMPipelineOptions());
  if (!badType)
    llvm::outs() << "bad type: " << llvm::toString(badType.takeError()) << "\n";

  // A function without llvm.emit_c_interface: no C wrapper, and the error
  // says why.
  auto plain = gather::compileSourceAndJit(
      context, "func.func @plain() {\n  return\n}\n",
      gather::ONNXToLLVMPipelineOptions());
  bool plainFailed = !plain;
  if (plain) {
    llvm::Expected<void *> wrapper = gather::lookupCInterface(**plain, "plain");
    plainFailed = !wrapper;
    if (!wrapper)
      llvm::outs() << "lookup failed: " << llvm::toString(wrapper.takeError())
                   << "\n";
  }
  return errors.size() == 1 && !missing && !unresolved && !badType &&
                 plainFailed
             ? 0
             : 1;
}
