//===- HostTensor.h - Tensors a host passes to compiled code ----*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The tensors of gather-run (docs/Deploying.md): row-major buffers of any
// element type of gather/Runtime/ElementTypes.def but strings, read from the
// command line (`2x3xf32=1,2,3,4,5,6`), NumPy `.npy` files or ONNX
// TensorProto `.pb` files, written to `.npy` files, and passed to compiled
// code as memref descriptors (gather/Runtime/MemRefDescriptor.h).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_RUNNER_HOSTTENSOR_H
#define GATHER_RUNNER_HOSTTENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gather {

/// A row-major tensor in host memory (64-byte aligned), owned or borrowed.
class HostTensor {
public:
  /// A zero-filled tensor of `type` (static shape; an element type with a
  /// size, not a string).
  static llvm::Expected<HostTensor> allocate(mlir::RankedTensorType type);

  /// Takes the result buffer a compiled function returned (described by a
  /// memref descriptor of `rank`, at `descriptor`): the tensor frees its
  /// `allocated` pointer with free(). Fails for a non-row-major layout.
  static llvm::Expected<HostTensor>
  adoptResult(mlir::Type elementType, const int64_t *descriptor, int64_t rank);

  /// Parses a tensor as gather-run's `--input` gives it:
  ///   `<shape>x<type>=<v>,<v>,...`  values (or one value for all), e.g.
  ///                                 `2x3xf32=1,2,3,4,5,6`, `f64=2.5`,
  ///                                 `4xi1=true,false,0,1`;
  ///   `@<file>.npy`                 a NumPy array (version 1-3, C order);
  ///   `@<file>.pb`                  an ONNX TensorProto;
  ///   `<shape>x<type>=@<file>`      any of these, checked against the type.
  static llvm::Expected<HostTensor> parse(llvm::StringRef spec,
                                          mlir::MLIRContext *context);

  /// Reads a NumPy `.npy` file.
  static llvm::Expected<HostTensor> readNumPy(llvm::StringRef path,
                                              mlir::MLIRContext *context);

  /// Reads an ONNX TensorProto file.
  static llvm::Expected<HostTensor> readTensorProto(llvm::StringRef path,
                                                    mlir::MLIRContext *context);

  /// Writes the tensor as a NumPy `.npy` file (version 1.0).
  llvm::Error writeNumPy(llvm::StringRef path) const;

  mlir::RankedTensorType getType() const { return type; }
  llvm::ArrayRef<int64_t> getShape() const { return type.getShape(); }
  int64_t getNumElements() const { return type.getNumElements(); }
  size_t getSizeInBytes() const { return bytes; }
  void *getData() const { return data; }

  /// The memref descriptor of the tensor (allocated, aligned, offset,
  /// sizes, strides), as compiled code takes it.
  std::vector<int64_t> getDescriptor() const;

  /// Whether `type` (the parameter type of an entry point: a ranked tensor
  /// or memref) accepts this tensor: the same element type and rank, and
  /// each static size equal. Otherwise an error naming `what`.
  llvm::Error checkFits(mlir::Type type, llvm::StringRef what) const;

private:
  HostTensor() = default;

  mlir::RankedTensorType type;
  size_t bytes = 0;
  void *data = nullptr;
  std::shared_ptr<void> storage;
};

/// The NumPy `descr` of an element type (`<f4`, `|u1`, ...), or "" if NumPy
/// has none (bf16, strings).
std::string getNumPyDescr(mlir::Type elementType);

} // namespace gather

#endif // GATHER_RUNNER_HOSTTENSOR_H
