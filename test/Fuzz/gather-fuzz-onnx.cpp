//===- gather-fuzz-onnx.cpp - libFuzzer target: the ONNX importer ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for gather::importONNXModel: the input bytes are a
// serialized ModelProto (the seed corpus in test/Fuzz/corpus-onnx holds valid
// GatherElements models; libFuzzer mutates their bytes). Every import either
// fails with diagnostics or yields a module that must verify; a crash, a
// sanitizer report or an invalid module is a finding. At exit it prints how
// many inputs imported (docs/Robustness.md).
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

struct Stats {
  unsigned long long inputs = 0, imported = 0;
  ~Stats() {
    if (inputs)
      fprintf(stderr, "gather-fuzz-onnx: %llu inputs: %llu imported (%.1f%%)\n",
              inputs, imported, 100.0 * double(imported) / double(inputs));
  }
};
Stats stats;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  ++stats.inputs;
  gather::FuzzContext fuzz;
  mlir::MLIRContext &context = fuzz.context;
  mlir::OwningOpRef<mlir::ModuleOp> module = gather::importONNXModel(
      llvm::StringRef(reinterpret_cast<const char *>(bytes), size), "fuzz.onnx",
      &context);
  if (!module)
    return 0;
  ++stats.imported;
  if (mlir::failed(mlir::verify(*module)))
    abort(); // The importer must only build valid IR.
  return 0;
}
