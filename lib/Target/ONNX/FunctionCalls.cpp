//===- FunctionCalls.cpp - Calls between model-local functions ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FunctionCalls.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstddef>
#include <vector>

/// The default domain has two spellings.
static llvm::StringRef normalizeDomain(llvm::StringRef domain) {
  return domain == "ai.onnx" ? "" : domain;
}

/// `domain.name` (`name` in the default domain).
static std::string describeFunction(const onnx::FunctionProto &function) {
  llvm::StringRef domain = normalizeDomain(function.domain());
  return (domain.empty() ? "" : domain.str() + ".") + function.name();
}

namespace {
/// The call graph of a model's local functions.
class CallGraph {
public:
  explicit CallGraph(const onnx::ModelProto &model) : model(model) {
    for (auto [index, function] : llvm::enumerate(model.functions()))
      indexOf.try_emplace(key(function.domain(), function.name()), index);
    callees.resize(model.functions_size());
    for (auto [index, function] : llvm::enumerate(model.functions()))
      for (const onnx::NodeProto &node : function.node())
        addCalls(index, node);
  }

  /// "" or the error of checkONNXFunctionCalls.
  std::string check() const;

private:
  static std::string key(llvm::StringRef domain, llvm::StringRef name) {
    return (normalizeDomain(domain) + llvm::Twine('\0') + name).str();
  }

  /// The calls of `node` and of the nodes of its subgraphs (bounded by
  /// protobuf's parse depth), from function `caller`.
  void addCalls(size_t caller, const onnx::NodeProto &node) {
    auto it = indexOf.find(key(node.domain(), node.op_type()));
    if (it != indexOf.end() && !llvm::is_contained(callees[caller], it->second))
      callees[caller].push_back(it->second);
    for (const onnx::AttributeProto &attribute : node.attribute()) {
      for (const onnx::NodeProto &nested : attribute.g().node())
        addCalls(caller, nested);
      for (const onnx::GraphProto &graph : attribute.graphs())
        for (const onnx::NodeProto &nested : graph.node())
          addCalls(caller, nested);
    }
  }

  const onnx::ModelProto &model;
  llvm::StringMap<size_t> indexOf;
  std::vector<llvm::SmallVector<size_t>> callees;
};
} // namespace

std::string CallGraph::check() const {
  // Depth-first, without recursion (a chain may be long): a callee still on
  // the path is a cycle; the nesting of a function is one more than its
  // deepest callee's.
  enum class State { New, OnPath, Done };
  size_t count = callees.size();
  std::vector<State> state(count, State::New);
  std::vector<int> nesting(count, 1);
  for (size_t root = 0; root < count; ++root) {
    if (state[root] != State::New)
      continue;
    // (function, index of its next callee)
    llvm::SmallVector<std::pair<size_t, size_t>> path = {{root, 0}};
    state[root] = State::OnPath;
    while (!path.empty()) {
      auto &[function, next] = path.back();
      if (next == callees[function].size()) {
        for (size_t callee : callees[function])
          nesting[function] = std::max(nesting[function], nesting[callee] + 1);
        state[function] = State::Done;
        if (nesting[function] > gather::detail::kMaxONNXFunctionNesting)
          return "calls between model-local functions nest deeper than " +
                 std::to_string(gather::detail::kMaxONNXFunctionNesting) +
                 " (function '" + describeFunction(model.functions(function)) +
                 "'), which gather does not import";
        path.pop_back();
        continue;
      }
      size_t callee = callees[function][next++];
      if (state[callee] == State::New) {
        state[callee] = State::OnPath;
        path.push_back({callee, 0});
        continue;
      }
      if (state[callee] != State::OnPath)
        continue;
      // The cycle: from `callee` on the path back to it.
      std::string cycle;
      auto *start = llvm::find_if(
          path, [&](const auto &entry) { return entry.first == callee; });
      for (auto *it = start; it != path.end(); ++it)
        cycle += describeFunction(model.functions(it->first)) + " -> ";
      cycle += describeFunction(model.functions(callee));
      return "model-local function '" +
             describeFunction(model.functions(callee)) + "' calls itself (" +
             cycle +
             "): ONNX functions must not be recursive, and gather does not "
             "import them";
    }
  }
  return "";
}

std::string
gather::detail::checkONNXFunctionCalls(const onnx::ModelProto &model) {
  return CallGraph(model).check();
}
