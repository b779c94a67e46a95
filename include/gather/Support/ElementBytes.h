//===- ElementBytes.h - Bytes of one element in memory ----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one answer to "how many bytes does an element of this type take in a
// buffer" as the LLVM lowering lays it out: the allocation check, the
// constant-size limit and the MPI collectives' byte counts all use it.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_ELEMENTBYTES_H
#define GATHER_SUPPORT_ELEMENTBYTES_H

#include "gather/Support/CheckedSize.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <optional>

namespace gather {

/// Bytes per element of `type` in memory: index 8, integers and floats
/// their width rounded up to whole bytes (an i1 takes one), complex both
/// parts, fixed-size vectors all their elements; std::nullopt for any other
/// type (e.g. strings, scalable vectors) or a size past INT64_MAX.
inline std::optional<int64_t> getElementBytes(mlir::Type type) {
  if (mlir::isa<mlir::IndexType>(type))
    return 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  if (auto complex = mlir::dyn_cast<mlir::ComplexType>(type)) {
    std::optional<int64_t> part = getElementBytes(complex.getElementType());
    return part ? getCheckedNumElements({2}, *part) : std::nullopt;
  }
  if (auto vector = mlir::dyn_cast<mlir::VectorType>(type)) {
    std::optional<int64_t> element = getElementBytes(vector.getElementType());
    if (!element || vector.isScalable())
      return std::nullopt;
    return getCheckedNumElements(vector.getShape(), *element);
  }
  return std::nullopt;
}

} // namespace gather

#endif // GATHER_SUPPORT_ELEMENTBYTES_H
