//===- CheckConstantSizes.cpp - Constants too large to expand -------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-check-constant-sizes (include/gather/Pipelines/Passes.td): the
// limit of gather/Support/ConstantSizes.h, as a pass of onnx-to-llvm.
//
//===----------------------------------------------------------------------===//

#include "gather/Pipelines/Passes.h"
#include "gather/Support/ConstantSizes.h"

namespace gather {
#define GEN_PASS_DEF_CHECKCONSTANTSIZESPASS
#include "gather/Pipelines/Passes.h.inc"
} // namespace gather

using namespace mlir;

namespace {
struct CheckConstantSizesPass
    : gather::impl::CheckConstantSizesPassBase<CheckConstantSizesPass> {
  void runOnOperation() override {
    if (failed(gather::checkExpandedConstantSizes(getOperation())))
      signalPassFailure();
  }
};
} // namespace
