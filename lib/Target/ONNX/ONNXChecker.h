//===- ONNXChecker.h - libonnx's checker, behind a catch --------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_TARGET_ONNX_ONNXCHECKER_H
#define GATHER_LIB_TARGET_ONNX_ONNXCHECKER_H

#include <onnx/onnx_pb.h>

#include <string>

namespace gather::detail {

/// Runs onnx::checker::check_model; returns its error message, or "" if the
/// model is valid. Never throws.
std::string checkONNXModel(const onnx::ModelProto &model);

/// Runs ONNX shape inference (onnx::shape_inference::InferShapes) on
/// `model`, adding the types it finds to graph.value_info. Returns "" or the
/// error it raised.
std::string inferONNXShapes(onnx::ModelProto &model);

} // namespace gather::detail

#endif // GATHER_LIB_TARGET_ONNX_ONNXCHECKER_H
