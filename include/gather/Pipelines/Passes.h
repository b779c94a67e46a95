//===- Passes.h - Passes of gather's pipeline -------------------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Declares every pass in include/gather/Pipelines/Passes.td (one
// create<Name>() per def, with its options struct) and
// registerGatherPipelinesPasses() for tools.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_PIPELINES_PASSES_H
#define GATHER_PIPELINES_PASSES_H

#include "gather/Support/PassOptions.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace gather {

#define GEN_PASS_DECL
#include "gather/Pipelines/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "gather/Pipelines/Passes.h.inc"

} // namespace gather

#endif // GATHER_PIPELINES_PASSES_H
