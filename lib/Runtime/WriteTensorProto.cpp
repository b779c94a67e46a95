//===- WriteTensorProto.cpp - Write results as ONNX TensorProto files -----===//
//
// Part of the gather project.
//
//===----------------------------------------------------------------------===//
//
// gatherWriteTensorProto<T>: writes a tensor as an ONNX TensorProto file
// (libonnx's protobuf classes), for modules that `gather-translate
// --import-onnx --onnx-write-outputs=<dir>` writes. Called through MLIR's C
// interface with unranked memref descriptors (see PrintTensor.cpp): the
// tensor, and the file path as a tensor of i8.
//
//===----------------------------------------------------------------------===//

#include "gather/Runtime/GatherRuntime.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

void gatherReport(const std::string &message);

namespace {

struct Descriptor {
  int64_t rank;
  char *fields; // allocated, aligned, offset, sizes[rank], strides[rank]
};

/// Row-major walk over a strided memref: calls `fn(elementPointer)`.
template <typename Fn>
void forEachElement(const Descriptor &memref, size_t elementSize, Fn &&fn) {
  char *aligned;
  int64_t offset;
  std::memcpy(&aligned, memref.fields + sizeof(void *), sizeof(aligned));
  std::memcpy(&offset, memref.fields + 2 * sizeof(void *), sizeof(offset));
  const auto *sizes = reinterpret_cast<const int64_t *>(
      memref.fields + 2 * sizeof(void *) + sizeof(int64_t));
  const int64_t *strides = sizes + memref.rank;
  // (0 if any size is 0; a count beyond int64_t, only possible for a view
  // with zero strides, is not written.)
  int64_t count = 1;
  for (int64_t d = 0; d < memref.rank; ++d)
    if (sizes[d] == 0)
      return;
  for (int64_t d = 0; d < memref.rank; ++d)
    if (__builtin_mul_overflow(count, sizes[d], &count)) {
      gatherReport("cannot write a tensor of more than 2^63 - 1 elements");
      return;
    }
  std::vector<int64_t> index(memref.rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t position = offset;
    for (int64_t d = 0; d < memref.rank; ++d)
      position += index[d] * strides[d];
    fn(aligned + position * elementSize);
    for (int64_t d = memref.rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
}

Descriptor unpack(void *unranked) {
  Descriptor memref;
  std::memcpy(&memref.rank, unranked, sizeof(int64_t));
  std::memcpy(&memref.fields, static_cast<char *>(unranked) + sizeof(int64_t),
              sizeof(void *));
  return memref;
}

void writeTensorProto(void *tensor, void *path, size_t elementSize,
                      int32_t dataType) {
  Descriptor memref = unpack(tensor);
  std::string fileName;
  forEachElement(unpack(path), 1,
                 [&](const char *byte) { fileName.push_back(*byte); });

  onnx::TensorProto proto;
  proto.set_data_type(dataType);
  const auto *sizes = reinterpret_cast<const int64_t *>(
      memref.fields + 2 * sizeof(void *) + sizeof(int64_t));
  for (int64_t d = 0; d < memref.rank; ++d)
    proto.add_dims(sizes[d]);
  if (dataType == onnx::TensorProto::STRING) {
    forEachElement(memref, elementSize, [&](const char *element) {
      GatherString string;
      std::memcpy(&string, element, sizeof(string));
      proto.add_string_data(std::string(string.data, string.size));
    });
  } else {
    // Little-endian raw bytes, as in memory (bool: one byte per element).
    std::string raw;
    forEachElement(memref, elementSize, [&](const char *element) {
      raw.append(element, elementSize);
    });
    proto.set_raw_data(raw);
  }
  std::ofstream file(fileName, std::ios::binary | std::ios::trunc);
  if (!file || !proto.SerializeToOstream(&file) || !file.flush())
    gatherReport("cannot write the TensorProto file '" + fileName + "'");
}

} // namespace

#define GATHER_DEFINE_WRITE(Suffix, Size, DataType)                            \
  extern "C" void _mlir_ciface_gatherWriteTensorProto##Suffix(void *tensor,    \
                                                              void *path) {    \
    writeTensorProto(tensor, path, Size, onnx::TensorProto::DataType);         \
  }
GATHER_DEFINE_WRITE(F32, 4, FLOAT)
GATHER_DEFINE_WRITE(F64, 8, DOUBLE)
GATHER_DEFINE_WRITE(F16, 2, FLOAT16)
GATHER_DEFINE_WRITE(BF16, 2, BFLOAT16)
GATHER_DEFINE_WRITE(I1, 1, BOOL)
GATHER_DEFINE_WRITE(I8, 1, INT8)
GATHER_DEFINE_WRITE(I16, 2, INT16)
GATHER_DEFINE_WRITE(I32, 4, INT32)
GATHER_DEFINE_WRITE(I64, 8, INT64)
GATHER_DEFINE_WRITE(UI8, 1, UINT8)
GATHER_DEFINE_WRITE(UI16, 2, UINT16)
GATHER_DEFINE_WRITE(UI32, 4, UINT32)
GATHER_DEFINE_WRITE(UI64, 8, UINT64)
GATHER_DEFINE_WRITE(ComplexF32, 8, COMPLEX64)
GATHER_DEFINE_WRITE(ComplexF64, 16, COMPLEX128)
GATHER_DEFINE_WRITE(String, sizeof(GatherString), STRING)
#undef GATHER_DEFINE_WRITE
