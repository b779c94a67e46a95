//===- EntryPointCall.h - Call a compiled entry point on tensors -*- C++
//-*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gather-run's side of a call: the C wrapper `_mlir_ciface_<name>` of an
// entry point (gather/Compiler/Compiler.h, EntryPoint) called with the
// descriptors of host tensors, its results taken as host tensors; and the
// runtime's printing and comparison of results (gather/Runtime/
// GatherRuntime.h: gatherPrint*, gatherCompare*), so that gather-run prints
// and compares as gather-runner does.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNNER_ENTRYPOINTCALL_H
#define GATHER_RUNNER_ENTRYPOINTCALL_H

#include "gather/Compiler/Compiler.h"
#include "gather/Runner/HostTensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace gather {

/// The most tensors (arguments and results together) a call passes.
inline constexpr size_t kMaxCallTensors = 32;

/// Checks that `entry` can be called with `inputs`: every argument and
/// result a ranked tensor or memref, one input per argument, each fitting
/// its argument (HostTensor::checkFits). The error names the entry point,
/// the argument and why.
llvm::Error checkCall(const EntryPoint &entry,
                      llvm::ArrayRef<HostTensor> inputs);

/// Calls `wrapper` (the address of `_mlir_ciface_<entry.name>`) with the
/// descriptors of `inputs` (checkCall first) and returns its results, which
/// the tensors own.
llvm::Expected<std::vector<HostTensor>>
callEntryPoint(void *wrapper, const EntryPoint &entry,
               llvm::ArrayRef<HostTensor> inputs);

/// Prints `tensor` as result `index` with the runtime's format
/// (`result <index>: tensor<2x2xf32> = [[1, 1], [4, 3]]`).
llvm::Error printResult(const HostTensor &tensor, int64_t index);

/// Compares `actual` with `expected` bit for bit through the runtime
/// (gatherCompare*: `output <index>: <n> elements match`, or a run-time
/// error listing the first mismatches).
llvm::Error compareResult(const HostTensor &actual, const HostTensor &expected,
                          int64_t index);

} // namespace gather

#endif // GATHER_RUNNER_ENTRYPOINTCALL_H
