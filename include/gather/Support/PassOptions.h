//===- PassOptions.h - Options text of gather's passes ----------*- C++ -*-===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// How gather's passes and pipelines check the options text they are given
// (`gather-codegen{vector-size=8}`, `--onnx-to-llvm='num-threads=1'`), so
// that a bad option is an error naming the pass, the option and what is
// valid. MLIR's own parser (PassOptions::parseFromString) says "no such
// option" for an unknown name, prints a wrong value's reason to stderr
// outside the diagnostic (which ends in a bare "error:"), and takes an empty
// value as `true` for a bool (`runtime-checks=`).
//
// Every gather pass derives from CheckedPassOptions (its Passes.td def is a
// GatherPass, include/gather/Support/PassBase.td). MLIR gives a pass no
// public view of its options, so the check learns them from what the pass
// prints for a fresh instance (Pass::printAsTextualPipeline,
// `name{a=16 b=true}`): an option whose default prints as `true` or `false`
// is a bool, one whose default is an integer an integer; any other value (a
// string, an enum) is left to MLIR's parser, and its failure gets a message
// naming the pass and the option text.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_SUPPORT_PASSOPTIONS_H
#define GATHER_SUPPORT_PASSOPTIONS_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gather {

/// One `key[=value]` item of an options text: `text` as written, `key` and
/// `value` without their quotes; `hasValue` whether it has an `=`.
struct OptionItem {
  llvm::StringRef text, key, value;
  bool hasValue;
};

/// The items of an options text (the braces' content), split where
/// PassOptions::parseFromString splits them: at spaces outside quotes and
/// braces.
llvm::SmallVector<OptionItem> splitOptionItems(llvm::StringRef text);

/// `names` as "valid <what>: a, b, c", with the one closest to `given` (a
/// likely typo) first as "did you mean 'x'? ".
std::string listValid(llvm::StringRef what, llvm::StringRef given,
                      llvm::ArrayRef<llvm::StringRef> names);

/// Whether llvm::cl's bool parser takes `value` (true, TRUE, True, 1, and
/// the same for false; not the empty value it takes as true).
bool isBoolOptionText(llvm::StringRef value);

/// Checks each item of `text` against the options that `defaults` names, as
/// a fresh instance prints them (`name{a=16 b=true}` or `{a=16 b=true}`): an
/// unknown name, an empty or other value of a bool (written `key=`; a bare
/// `key` is true) and a value of an integer option that is no integer are
/// errors "unknown option 'x'; did you mean ...? valid options: ..." and
/// "invalid value 'v' for option 'k' (true or false | an integer)".
llvm::Error checkOptionText(llvm::StringRef text, llvm::StringRef defaults);

/// An error through `errorHandler` for `pass`, whose options `text` MLIR's
/// parser rejected with `message` (often empty: the reason went to stderr).
mlir::LogicalResult reportPassOptionsError(
    mlir::Pass &pass, llvm::StringRef text, llvm::StringRef message,
    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)> errorHandler);

/// The base of every gather pass (between the generated impl::<Name>Base and
/// MLIR's OperationPass, `BaseT`): checkOptionText on the pass's options
/// before MLIR parses them, each error naming the pass.
template <typename BaseT>
class CheckedPassOptions : public BaseT {
public:
  mlir::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    std::string defaults;
    llvm::raw_string_ostream os(defaults);
    this->clonePass()->printAsTextualPipeline(os);
    if (llvm::Error error = checkOptionText(options, defaults))
      return errorHandler("invalid options of '" + this->getArgument() +
                          "': " + llvm::toString(std::move(error)));
    std::string message;
    if (succeeded(BaseT::initializeOptions(options, [&](const llvm::Twine &m) {
          message = m.str();
          return mlir::failure();
        })))
      return mlir::success();
    return reportPassOptionsError(*this, options, message, errorHandler);
  }

protected:
  using BaseT::BaseT;
  CheckedPassOptions(const CheckedPassOptions &) = default;
};

} // namespace gather

#endif // GATHER_SUPPORT_PASSOPTIONS_H
