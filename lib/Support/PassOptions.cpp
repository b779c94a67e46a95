//===- PassOptions.cpp - Options text of gather's passes ------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Support/PassOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>

using namespace llvm;

/// `text` trimmed, without the quotes around it (as the pass options parser
/// takes a quoted value).
static StringRef unquote(StringRef text) {
  text = text.trim();
  if (text.size() >= 2 && (text.front() == '"' || text.front() == '\'') &&
      text.back() == text.front())
    return text.drop_front().drop_back().trim();
  return text;
}

SmallVector<gather::OptionItem> gather::splitOptionItems(StringRef text) {
  SmallVector<OptionItem> items;
  for (text = text.ltrim(); !text.empty(); text = text.ltrim()) {
    size_t end = 0;
    unsigned braces = 0;
    for (; end < text.size() && (braces || text[end] != ' '); ++end) {
      char c = text[end];
      if (c == '"' || c == '\'') {
        end = std::min(text.find(c, end + 1), text.size() - 1);
      } else if (c == '{') {
        ++braces;
      } else if (c == '}' && braces) {
        --braces;
      }
    }
    StringRef item = text.take_front(end);
    text = text.drop_front(end);
    auto [key, value] = item.split('=');
    items.push_back(
        {item, unquote(key), unquote(value), key.size() != item.size()});
  }
  return items;
}

std::string gather::listValid(StringRef what, StringRef given,
                              ArrayRef<StringRef> names) {
  std::string text;
  raw_string_ostream os(text);
  StringRef closest;
  unsigned closestDistance = 3; // At most two edits away.
  for (StringRef name : names) {
    unsigned distance =
        given.edit_distance(name, /*AllowReplacements=*/true, closestDistance);
    if (distance < closestDistance) {
      closest = name;
      closestDistance = distance;
    }
  }
  if (!closest.empty())
    os << "did you mean '" << closest << "'? ";
  os << "valid " << what << ": ";
  interleaveComma(names, os);
  return text;
}

bool gather::isBoolOptionText(StringRef value) {
  return is_contained(
      {"true", "TRUE", "True", "1", "false", "FALSE", "False", "0"}, value);
}

/// Whether llvm::cl's integer parsers take `value` (any radix prefix).
static bool isIntegerText(StringRef value) {
  int64_t signedValue;
  uint64_t unsignedValue;
  return !value.getAsInteger(0, signedValue) ||
         !value.getAsInteger(0, unsignedValue);
}

Error gather::checkOptionText(StringRef text, StringRef defaults) {
  // `name{a=1 b=2}` or `{a=1 b=2}`: the braces' content.
  size_t open = defaults.find('{');
  defaults = open == StringRef::npos
                 ? StringRef()
                 : defaults.drop_front(open + 1).rtrim().drop_back();
  SmallVector<OptionItem> known = splitOptionItems(defaults);
  SmallVector<StringRef> names =
      map_to_vector(known, [](const OptionItem &item) { return item.key; });
  llvm::sort(names);
  for (const OptionItem &item : splitOptionItems(text)) {
    const OptionItem *option = find_if(
        known, [&](const OptionItem &each) { return each.key == item.key; });
    if (option == known.end()) {
      if (names.empty())
        return createStringError("unknown option '" + item.key +
                                 "': it takes no options");
      return createStringError("unknown option '" + item.key + "'; " +
                               listValid("options", item.key, names));
    }
    StringRef kind;
    if (isBoolOptionText(option->value) && !isIntegerText(option->value))
      kind =
          item.hasValue && !isBoolOptionText(item.value) ? "true or false" : "";
    else if (isIntegerText(option->value))
      kind = isIntegerText(item.value) ? "" : "an integer";
    if (!kind.empty())
      return createStringError("invalid value '" + item.value +
                               "' for option '" + item.key + "' (" + kind +
                               ")");
  }
  return Error::success();
}

mlir::LogicalResult gather::reportPassOptionsError(
    mlir::Pass &pass, StringRef text, StringRef message,
    function_ref<mlir::LogicalResult(const Twine &)> errorHandler) {
  // MLIR's "<Pass-Options-Parser>: " prefix, and its trailing newline.
  message = message.trim();
  message.consume_front("<Pass-Options-Parser>: ");
  return errorHandler("invalid options of '" + pass.getArgument() + "': '" +
                      text + "'" + (message.empty() ? "" : ": ") + message);
}
