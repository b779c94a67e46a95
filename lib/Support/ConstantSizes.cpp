//===- ConstantSizes.cpp - The limit on constants held in memory ----------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Support/ConstantSizes.h"
#include "gather/Support/ElementBytes.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DynamicAPInt.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;

/// The bytes that `value` takes once each of its elements is held, exactly
/// (however large); std::nullopt if it is not expanded (dense values that
/// are not splat are held already) or has no static size.
static std::optional<llvm::DynamicAPInt> getExpandedBytes(ElementsAttr value) {
  if (!value.isSplat() && !isa<SparseElementsAttr>(value))
    return std::nullopt;
  ShapedType type = value.getShapedType();
  std::optional<int64_t> elementBytes =
      gather::getElementBytes(type.getElementType());
  if (!type.hasStaticShape() || !elementBytes)
    return std::nullopt;
  llvm::DynamicAPInt bytes(*elementBytes);
  for (int64_t size : type.getShape())
    bytes *= llvm::DynamicAPInt(size);
  return bytes;
}

LogicalResult gather::checkExpandedConstantSizes(Operation *root) {
  const llvm::DynamicAPInt limit(kMaxExpandedConstantBytes);
  bool tooLarge = false;
  root->walk([&](Operation *op) {
    for (NamedAttribute attribute : op->getAttrs()) {
      auto value = dyn_cast<ElementsAttr>(attribute.getValue());
      if (!value)
        continue;
      std::optional<llvm::DynamicAPInt> bytes = getExpandedBytes(value);
      if (!bytes || *bytes <= limit)
        continue;
      std::string count;
      llvm::raw_string_ostream(count) << *bytes;
      emitError(op->getLoc())
          << (value.isSplat() ? "splat" : "sparse") << " constant of type "
          << value.getShapedType() << " is too large: " << count
          << " bytes once expanded, more than the limit of "
          << kMaxExpandedConstantBytes << " bytes (1 GiB)";
      tooLarge = true;
    }
  });
  return failure(tooLarge);
}
