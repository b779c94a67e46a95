//===- WriteTensorProto.cpp - Write results as ONNX TensorProto files -----===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// gatherWriteTensorProto<T>: writes a tensor as an ONNX TensorProto file
// (libonnx's protobuf classes), for modules that `gather-translate
// --import-onnx --onnx-write-outputs=<dir>` writes. Called through MLIR's C
// interface with unranked memref descriptors (MemRefView, RuntimeInternal.h):
// the tensor, and the file path as a tensor of i8.
//
//===----------------------------------------------------------------------===//

#include "RuntimeInternal.h"

#include <onnx/onnx_pb.h>

#include <fstream>
#include <string>
#include <type_traits>

using namespace gather::runtime;

/// Calls `fn(element)` for every element of `memref` in row-major order;
/// reports a count beyond int64_t (only possible for a view with zero
/// strides) and writes nothing then.
template <typename T, typename Fn>
static void forEachElement(const MemRefView<T> &memref, Fn &&fn) {
  if (memref.numElements() < 0) {
    reportMessage("cannot write a tensor of more than 2^63 - 1 elements");
    return;
  }
  memref.forEach(fn);
}

template <typename T>
static void writeTensorProto(void *tensor, void *path, int32_t dataType) {
  MemRefView<T> memref(tensor);
  std::string fileName;
  forEachElement(MemRefView<char>(path),
                 [&](char byte) { fileName.push_back(byte); });

  onnx::TensorProto proto;
  proto.set_data_type(dataType);
  for (int64_t d = 0; d < memref.rank; ++d)
    proto.add_dims(memref.sizes[d]);
  if constexpr (std::is_same_v<T, GatherString>) {
    forEachElement(memref, [&](const GatherString &string) {
      proto.add_string_data(std::string(string.data, string.size));
    });
  } else {
    // Little-endian raw bytes, as in memory (bool: one byte per element).
    std::string raw;
    forEachElement(memref, [&](const T &element) {
      raw.append(reinterpret_cast<const char *>(&element), sizeof(T));
    });
    proto.set_raw_data(raw);
  }
  std::ofstream file(fileName, std::ios::binary | std::ios::trunc);
  if (!file || !proto.SerializeToOstream(&file) || !file.flush())
    reportMessage("cannot write the TensorProto file '" + fileName + "'");
}

#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  extern "C" void _mlir_ciface_gatherWriteTensorProto##Suffix(void *tensor,    \
                                                              void *path) {    \
    writeTensorProto<CType>(tensor, path, onnx::TensorProto::ONNXType);        \
  }
#include "gather/Runtime/ElementTypes.def"
