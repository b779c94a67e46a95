//===- EnumOptions.h - Options whose values are an enumeration --*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One table per enumeration that a pass or pipeline option takes (gpu,
// gpu-memory, shard-io, ...): each row an enumerator, its spelling and its
// help. The table is the one list of the option's values: an option gets
// them with `getEnumOptionValues(table)` (a llvm::cl modifier, as
// llvm::cl::values), so `--help` lists them and MLIR's parser rejects any
// other spelling; stringifyEnumOption and getEnumOptionNames give the
// spellings to code and messages.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_ENUMOPTIONS_H
#define GATHER_SUPPORT_ENUMOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorHandling.h"

namespace gather {

/// A row of an enumeration's table: the enumerator, its option spelling and
/// its help in `--help`.
template <typename EnumT>
struct EnumOptionValue {
  EnumT value;
  llvm::StringLiteral name;
  llvm::StringLiteral description;
};

/// A llvm::cl modifier (like llvm::cl::values) that gives an option of type
/// EnumT the rows of its table as its literal values.
template <typename EnumT>
struct EnumOptionValues {
  llvm::ArrayRef<EnumOptionValue<EnumT>> rows;

  template <typename OptionT>
  void apply(OptionT &option) const {
    for (const EnumOptionValue<EnumT> &row : rows)
      option.getParser().addLiteralOption(row.name, row.value, row.description);
  }
};

/// The modifier for an option whose values are the rows of `table`.
template <typename EnumT, size_t N>
EnumOptionValues<EnumT>
getEnumOptionValues(const EnumOptionValue<EnumT> (&table)[N]) {
  return {llvm::ArrayRef(table)};
}

/// The spelling of `value` in `table`.
template <typename EnumT, size_t N>
llvm::StringRef stringifyEnumOption(const EnumOptionValue<EnumT> (&table)[N],
                                    EnumT value) {
  for (const EnumOptionValue<EnumT> &row : table)
    if (row.value == value)
      return row.name;
  llvm_unreachable("an enumerator without a row in its option table");
}

/// Every spelling of `table`, in its order.
template <typename EnumT, size_t N>
llvm::SmallVector<llvm::StringRef>
getEnumOptionNames(const EnumOptionValue<EnumT> (&table)[N]) {
  llvm::SmallVector<llvm::StringRef> names;
  for (const EnumOptionValue<EnumT> &row : table)
    names.push_back(row.name);
  return names;
}

} // namespace gather

#endif // GATHER_SUPPORT_ENUMOPTIONS_H
