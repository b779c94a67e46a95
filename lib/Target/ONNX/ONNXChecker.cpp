//===- ONNXChecker.cpp - Exception boundary around libonnx's checker ------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// onnx::checker reports problems by throwing; the rest of gather is built
// without exceptions (like LLVM). This file alone is compiled with
// -fexceptions and turns a throw into an error string.
//
//===----------------------------------------------------------------------===//

#include "ONNXChecker.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>

std::string gather::detail::checkONNXModel(const onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &error) {
    return error.what();
  } catch (...) {
    return "unknown error in the ONNX checker";
  }
  return "";
}

std::string gather::detail::inferONNXShapes(onnx::ModelProto &model) {
  try {
    onnx::shape_inference::InferShapes(model);
  } catch (const std::exception &error) {
    return error.what();
  } catch (...) {
    return "unknown error in ONNX shape inference";
  }
  return "";
}
