//===- FuzzContext.h - The MLIRContext of gather's fuzz targets -*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The MLIRContext of a fuzz input: with the dialects of the onnx-to-llvm
// pipeline (registered once), no threads and every diagnostic discarded
// (diagnostics are expected outcomes). FuzzContext is a fresh one per input
// (no state carried between inputs); getReusedFuzzContext() one shared by
// kInputsPerFuzzContext inputs in a row, its dialects loaded up front, for a
// target whose cost is mostly the context's creation.
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

/// How many inputs in a row getReusedFuzzContext() serves one context.
inline constexpr unsigned kInputsPerFuzzContext = 256;

/// The context for one input, shared with the inputs before it up to
/// kInputsPerFuzzContext of them, then a fresh one. Only uniqued types and
/// attributes are carried between inputs (the input's module is gone), so
/// the outcome of an input does not depend on the ones before it; a finding
/// still reproduces alone. Creating a context and loading the dialects is
/// about 40 % of the compiler fuzzer's time under the sanitizers.
inline mlir::MLIRContext &getReusedFuzzContext() {
  static FuzzContext *shared = nullptr;
  static unsigned served = 0;
  if (!shared || served == kInputsPerFuzzContext) {
    delete shared;
    shared = new FuzzContext();
    shared->context.loadAllAvailableDialects();
    served = 0;
  }
  ++served;
  return shared->context;
}

} // namespace gather

#endif // GATHER_TEST_FUZZ_FUZZCONTEXT_H
