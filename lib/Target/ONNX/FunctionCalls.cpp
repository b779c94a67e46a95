//===- FunctionCalls.cpp - Calls between model-local functions ------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "FunctionCalls.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
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
  /// "" or the error for a graph whose inlined node count passes the limit
  /// (after check()'s other checks: the calls form no cycle).
  std::string checkExpansion(llvm::ArrayRef<size_t> postOrder) const;

  /// The nodes `nodes` (and their subgraphs' nodes) become once inlined,
  /// with `expanded` the count of each function already known; saturates at
  /// kMaxONNXInlinedNodes + 1.
  template <typename Nodes>
  uint64_t countInlined(const Nodes &nodes,
                        llvm::ArrayRef<uint64_t> expanded) const {
    constexpr uint64_t cap = gather::detail::kMaxONNXInlinedNodes + 1;
    uint64_t total = 0;
    for (const onnx::NodeProto &node : nodes) {
      auto it = indexOf.find(key(node.domain(), node.op_type()));
      total += it == indexOf.end() ? 1 : expanded[it->second];
      for (const onnx::AttributeProto &attribute : node.attribute()) {
        total += countInlined(attribute.g().node(), expanded);
        for (const onnx::GraphProto &graph : attribute.graphs())
          total += countInlined(graph.node(), expanded);
      }
      if (total >= cap)
        return cap;
    }
    return total;
  }

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
  std::vector<size_t> postOrder; // Callees before their callers.
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
        postOrder.push_back(function);
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
  return checkExpansion(postOrder);
}

std::string CallGraph::checkExpansion(llvm::ArrayRef<size_t> postOrder) const {
  std::vector<uint64_t> expanded(callees.size(), 0);
  for (size_t function : postOrder)
    expanded[function] =
        countInlined(model.functions(function).node(), expanded);
  uint64_t total = countInlined(model.graph().node(), expanded);
  if (total <= gather::detail::kMaxONNXInlinedNodes)
    return "";
  // The chain that grows: from the graph's largest call, each function's
  // largest callee.
  std::string chain;
  std::optional<size_t> at;
  auto largestCallee = [&](const auto &nodes) {
    std::optional<size_t> largest;
    for (const onnx::NodeProto &node : nodes) {
      auto it = indexOf.find(key(node.domain(), node.op_type()));
      if (it != indexOf.end() &&
          (!largest || expanded[it->second] > expanded[*largest]))
        largest = it->second;
    }
    return largest;
  };
  at = largestCallee(model.graph().node());
  for (int shown = 0; at && shown < 8; ++shown) {
    chain +=
        (chain.empty() ? "" : " -> ") + describeFunction(model.functions(*at));
    at = largestCallee(model.functions(*at).node());
  }
  if (at)
    chain += " -> ...";
  return "inlining the model-local functions would give the graph more "
         "than " +
         std::to_string(gather::detail::kMaxONNXInlinedNodes) +
         " nodes (calls of " + (chain.empty() ? "functions" : chain) +
         "), which gather does not import";
}

std::string
gather::detail::checkONNXFunctionCalls(const onnx::ModelProto &model) {
  return CallGraph(model).check();
}
