//===- CheckedSize.h - Element counts that cannot wrap ----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Element counts and byte sizes of shapes, computed without wrap-around.
// ShapedType::getNumElements multiplies in int64_t and wraps silently (LLVM
// release builds have no assertions): tensor<2x9223372036854775807xf32>
// "has" -2 elements. Code that compares, reserves or allocates by a count
// uses these instead; an empty shape (a size 0 anywhere) has 0 elements even
// when the product of its other sizes does not fit.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_CHECKEDSIZE_H
#define GATHER_SUPPORT_CHECKEDSIZE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cstdint>
#include <optional>

namespace gather {

/// The number of elements of a static shape (sizes >= 0) times `factor`
/// (>= 0, e.g. bytes per element); std::nullopt if it exceeds INT64_MAX or a
/// size is negative (dynamic).
inline std::optional<int64_t>
getCheckedNumElements(llvm::ArrayRef<int64_t> shape, int64_t factor = 1) {
  if (factor < 0 || llvm::any_of(shape, [](int64_t size) { return size < 0; }))
    return std::nullopt;
  if (factor == 0 || llvm::is_contained(shape, 0))
    return 0;
  std::optional<int64_t> product = factor;
  for (int64_t size : shape) {
    product = llvm::checkedMul(*product, size);
    if (!product)
      return std::nullopt;
  }
  return product;
}

/// Whether a shape is known to be empty: a static size 0 in any dimension
/// (the other sizes may be dynamic or arbitrarily large).
inline bool hasZeroSize(llvm::ArrayRef<int64_t> shape) {
  return llvm::is_contained(shape, 0);
}

} // namespace gather

#endif // GATHER_SUPPORT_CHECKEDSIZE_H
