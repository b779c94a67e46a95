//===- RuntimeInternal.h - Shared internals of gather's runtimes -*- C++
//-*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the files of gather's runtime libraries (libgather_runtime,
// libgather_onnx_runtime, libgather_mpi_runtime, libgather_cuda_runtime)
// share and no host sees: the runtime's own C entry points (exported from
// libgather_runtime for the others, under names reserved for the runtime,
// but not declared in GatherRuntime.h), the in-memory element types of
// ElementTypes.def that C has not, and a view of the memrefs that MLIR's C
// interface passes.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_LIB_RUNTIME_RUNTIMEINTERNAL_H
#define GATHER_LIB_RUNTIME_RUNTIMEINTERNAL_H

#include "gather/Runtime/GatherRuntime.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
/// Passes `error: <message>` (no location) to the error handler, as every
/// report does (GatherRuntime.h).
__attribute__((visibility("default"))) void
gatherReportMessage(const char *message);

/// Passes `<location>: error: <message>` (`error: <message>` when `site` is
/// null or has no location) to the error handler of `site`'s module, or the
/// process's, as every report does (GatherRuntime.h).
__attribute__((visibility("default"))) void
gatherReportMessageAt(const GatherReportSite *site, const char *message);

/// Flushes stdout, prints `message` and a newline to stderr, calls
/// `beforeExit` unless it is null, and ends the process with exit status 1
/// without running static destructors (the report may come from inside
/// JIT-compiled code, where running the JIT's own is not safe). The default
/// error handler.
[[noreturn]] __attribute__((visibility("default"))) void
gatherPrintMessageAndExit(const char *message, void (*beforeExit)(void));

/// Sets what the runtime calls before it ends the process after an error
/// (null: nothing): the default error handler after printing the message,
/// and the reports that end the process even when a host's handler returns
/// (a failed allocation, a slab of the wrong size). libgather_mpi_runtime's
/// ending of an MPI job (which exits itself), so that a process of a job
/// never leaves the others waiting or lets the launcher kill them.
__attribute__((visibility("default"))) void
gatherSetErrorExit(void (*beforeExit)(void));
}

namespace gather::runtime {

/// gatherReportMessage for C++ strings.
inline void reportMessage(const std::string &message) {
  gatherReportMessage(message.c_str());
}

/// Elements that C has no type for (ElementTypes.def): 16-bit floats as
/// their bits, i1 as one byte (its low bit), complex numbers as two parts.
struct Half {
  uint16_t bits;
};
struct BFloat {
  uint16_t bits;
};
struct Bool {
  uint8_t byte;
};
template <typename T>
struct Complex {
  T re, im;
};

/// A strided memref of `T` as MLIR's C interface (`llvm.emit_c_interface`)
/// passes a tensor<*xT>: an unranked descriptor
///   struct { int64_t rank; Descriptor *descriptor; }
///   Descriptor = { T *allocated; T *aligned; int64_t offset;
///                  int64_t sizes[rank]; int64_t strides[rank]; }
template <typename T>
struct MemRefView {
  int64_t rank;
  const T *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  explicit MemRefView(const void *unranked) {
    const char *fields;
    std::memcpy(&rank, unranked, sizeof(rank));
    std::memcpy(&fields, static_cast<const char *>(unranked) + sizeof(int64_t),
                sizeof(fields));
    std::memcpy(&aligned, fields + sizeof(void *), sizeof(aligned));
    std::memcpy(&offset, fields + 2 * sizeof(void *), sizeof(offset));
    sizes = reinterpret_cast<const int64_t *>(fields + 2 * sizeof(void *) +
                                              sizeof(int64_t));
    strides = sizes + rank;
  }

  /// The number of elements (0 if any size is 0, whatever the others);
  /// -1 if it does not fit in int64_t (a view with zero strides).
  int64_t numElements() const {
    if (std::find(sizes, sizes + rank, 0) != sizes + rank)
      return 0;
    int64_t n = 1;
    for (int64_t d = 0; d < rank; ++d)
      if (__builtin_mul_overflow(n, sizes[d], &n))
        return -1;
    return n;
  }

  /// The element at row-major position `linear`, and its coordinates.
  const T &at(int64_t linear, std::vector<int64_t> *coordinates) const {
    int64_t position = offset;
    if (coordinates)
      coordinates->assign(rank, 0);
    for (int64_t d = rank - 1; d >= 0; --d) {
      int64_t c = sizes[d] ? linear % sizes[d] : 0;
      linear = sizes[d] ? linear / sizes[d] : 0;
      position += c * strides[d];
      if (coordinates)
        (*coordinates)[d] = c;
    }
    return aligned[position];
  }

  /// Calls `fn(element)` for the numElements() elements (>= 0) in row-major
  /// order.
  template <typename Fn>
  void forEach(Fn &&fn) const {
    std::vector<int64_t> index(rank, 0);
    for (int64_t n = 0, count = numElements(); n < count; ++n) {
      int64_t position = offset;
      for (int64_t d = 0; d < rank; ++d)
        position += index[d] * strides[d];
      fn(aligned[position]);
      for (int64_t d = rank - 1; d >= 0; --d) {
        if (++index[d] < sizes[d])
          break;
        index[d] = 0;
      }
    }
  }
};

} // namespace gather::runtime

#endif // GATHER_LIB_RUNTIME_RUNTIMEINTERNAL_H
