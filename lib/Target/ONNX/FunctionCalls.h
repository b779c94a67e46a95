//===- FunctionCalls.h - Calls between model-local functions ----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// libonnx's checker and shape inference inline model-local functions
// (ModelProto.functions) recursively, without a limit: a function that calls
// itself, directly or through others, recurses until the stack overflows.
// The importer checks the calls between them first.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_TARGET_ONNX_FUNCTIONCALLS_H
#define GATHER_LIB_TARGET_ONNX_FUNCTIONCALLS_H

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>

namespace gather::detail {

/// The deepest nesting of calls between model-local functions the importer
/// accepts (libonnx inlines each level on the stack).
inline constexpr int kMaxONNXFunctionNesting = 100;

/// The most nodes the graph may have once every call of a model-local
/// function is inlined (libonnx inlines them for shape inference, in time
/// and memory proportional to that count: a chain of functions each calling
/// the next twice doubles it per level).
inline constexpr uint64_t kMaxONNXInlinedNodes = 1000000;

/// Checks the calls between the model-local functions of `model` (a node,
/// also in a subgraph, whose domain and op type name a function of the
/// model calls it). Returns "" when no function calls itself, directly or
/// through others, calls nest at most kMaxONNXFunctionNesting deep and
/// inlining them all gives the graph at most kMaxONNXInlinedNodes nodes
/// (counted before anything is inlined); otherwise an error naming the
/// functions, e.g. "model-local function 'local.F' calls itself (local.F ->
/// local.G -> local.F) ...".
std::string checkONNXFunctionCalls(const onnx::ModelProto &model);

} // namespace gather::detail

#endif // GATHER_LIB_TARGET_ONNX_FUNCTIONCALLS_H
