//===- PassBase.td - The base of gather's passes -----------*- tablegen -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GatherPass: MLIR's Pass with gather::CheckedPassOptions between the
// generated base and OperationPass, so that every gather pass checks its
// options text (include/gather/Support/PassOptions.h). Every pass def in
// gather's Passes.td files is a GatherPass
// (test/Pipelines/pass-options-errors.test checks it).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_PASSBASE_TD
#define GATHER_SUPPORT_PASSBASE_TD

include "mlir/Pass/PassBase.td"

class GatherPass<string passArg, string operation = "">
    : PassBase<passArg, "::gather::CheckedPassOptions<::mlir::OperationPass<"
                            # operation # ">>">;

#endif // GATHER_SUPPORT_PASSBASE_TD
