//===- FuzzContext.h - The MLIRContext of gather's fuzz targets -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fresh MLIRContext per fuzz input (no state carried between inputs), with
// the dialects of the onnx-to-llvm pipeline (registered once), no threads
// and every diagnostic discarded: diagnostics are expected outcomes.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TEST_FUZZ_FUZZCONTEXT_H
#define GATHER_TEST_FUZZ_FUZZCONTEXT_H

#include "gather/Pipelines/Pipelines.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

namespace gather {

inline const mlir::DialectRegistry &getFuzzRegistry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    registerONNXToLLVMPipelineDependencies(*r);
    return r;
  }();
  return *registry;
}

struct FuzzContext {
  mlir::MLIRContext context{getFuzzRegistry(),
                            mlir::MLIRContext::Threading::DISABLED};
  mlir::ScopedDiagnosticHandler quiet{
      &context, [](mlir::Diagnostic &) { return mlir::success(); }};
};

} // namespace gather

#endif // GATHER_TEST_FUZZ_FUZZCONTEXT_H
