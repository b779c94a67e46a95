//===- EntryPointCall.cpp - Call a compiled entry point on tensors --------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Runner/EntryPointCall.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/DebugStringHelper.h"
#include "llvm/Support/raw_ostream.h"

#include <array>
#include <cstring>
#include <utility>

using namespace mlir;

// The runtime's printing and comparison, one function per element type.
extern "C" {
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  void _mlir_ciface_gatherPrint##Suffix(void *memref, int64_t resultIndex);    \
  void _mlir_ciface_gatherCompare##Suffix(                                     \
      void *actual, void *expected, int64_t index, double atol, double rtol);
#include "gather/Runtime/ElementTypes.def"
}

/// Whether a row-major buffer at offset 0 (what gather-run passes, and
/// reads results as) is a buffer of `type`: the identity layout, or strides and
/// an offset that are dynamic or those of such a buffer (a function bufferized
/// with one-shot-bufferize's default fully dynamic layout takes any buffer).
static bool admitsRowMajor(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      (!ShapedType::isDynamic(offset) && offset != 0))
    return false;
  int64_t expected = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (!ShapedType::isDynamic(strides[d]) &&
        (ShapedType::isDynamic(expected) || strides[d] != expected))
      return false;
    expected = ShapedType::isDynamic(expected) || type.isDynamicDim(d)
                   ? ShapedType::kDynamic
                   : expected * type.getDimSize(d);
  }
  return true;
}

llvm::Error gather::checkCall(const EntryPoint &entry,
                              ArrayRef<HostTensor> inputs) {
  // (A result's strides are checked when it comes back: adoptResult.)
  auto passable = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return isa<RankedTensorType>(type) || (memref && admitsRowMajor(memref));
  };
  for (auto [kind, types] :
       {std::pair{"argument", ArrayRef<Type>(entry.arguments)},
        std::pair{"result", ArrayRef<Type>(entry.results)}})
    for (auto [i, type] : llvm::enumerate(types))
      if (!passable(type))
        return llvm::createStringError(
            "'" + entry.name + "' has " + kind + " " + llvm::Twine(i) +
            " of type " + debugString(type) +
            ": gather-run passes ranked tensors and row-major buffers only");
  if (entry.arguments.size() + entry.results.size() > kMaxCallTensors)
    return llvm::createStringError("'" + entry.name + "' takes more than " +
                                   llvm::Twine(kMaxCallTensors) + " tensors");
  if (inputs.size() != entry.arguments.size()) {
    std::string types;
    for (Type type : entry.arguments)
      types += (types.empty() ? "" : ", ") + debugString(type);
    return llvm::createStringError(
        "'" + entry.name + "' takes " + llvm::Twine(entry.arguments.size()) +
        " arguments (" + types + "), but " + llvm::Twine(inputs.size()) +
        " --input were given");
  }
  for (auto [i, input] : llvm::enumerate(inputs))
    if (llvm::Error error =
            input.checkFits(entry.arguments[i], "--input " + std::to_string(i)))
      return llvm::createStringError("'" + entry.name + "' argument " +
                                     llvm::Twine(i) + ": " +
                                     llvm::toString(std::move(error)));
  return llvm::Error::success();
}

/// Calls a `void(void *, ..., void *)` function with N pointers.
template <size_t... I>
static void callWithPointers(void *function, void *const *pointers,
                             std::index_sequence<I...>) {
  using Pointer = void *;
  using Function = void (*)(decltype((void)I, Pointer())...);
  reinterpret_cast<Function>(function)(pointers[I]...);
}

template <size_t... N>
static constexpr auto makeCallTable(std::index_sequence<N...>) {
  return std::array<void (*)(void *, void *const *), sizeof...(N)>{
      [](void *function, void *const *pointers) {
        callWithPointers(function, pointers, std::make_index_sequence<N>());
      }...};
}

llvm::Expected<std::vector<gather::HostTensor>>
gather::callEntryPoint(void *wrapper, const EntryPoint &entry,
                       ArrayRef<HostTensor> inputs) {
  if (llvm::Error error = checkCall(entry, inputs))
    return std::move(error);
  static constexpr auto table =
      makeCallTable(std::make_index_sequence<kMaxCallTensors + 1>());

  // The results' descriptors, one after the other (one result: its own;
  // several: the fields of one struct, each 8-byte words).
  std::vector<int64_t> results;
  for (Type type : entry.results)
    results.resize(results.size() + 3 + 2 * cast<ShapedType>(type).getRank(),
                   0);
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> pointers;
  if (!entry.results.empty())
    pointers.push_back(results.data());
  for (const HostTensor &input : inputs)
    descriptors.push_back(input.getDescriptor());
  for (std::vector<int64_t> &descriptor : descriptors)
    pointers.push_back(descriptor.data());
  table[pointers.size()](wrapper, pointers.data());

  std::vector<HostTensor> outputs;
  const int64_t *at = results.data();
  llvm::Error firstError = llvm::Error::success();
  for (Type type : entry.results) {
    auto shaped = cast<ShapedType>(type);
    auto output =
        HostTensor::adoptResult(shaped.getElementType(), at, shaped.getRank());
    at += 3 + 2 * shaped.getRank();
    if (!output) {
      // (Later results are still adopted, so that they are freed.)
      if (!firstError)
        firstError = output.takeError();
      else
        llvm::consumeError(output.takeError());
      continue;
    }
    outputs.push_back(std::move(*output));
  }
  if (firstError)
    return std::move(firstError);
  return outputs;
}

/// The runtime's unranked descriptor of `tensor`: {rank, descriptor}.
namespace {
struct Unranked {
  int64_t rank;
  void *descriptor;
};
} // namespace

llvm::Error gather::printResult(const HostTensor &tensor, int64_t index) {
  std::vector<int64_t> descriptor = tensor.getDescriptor();
  Unranked unranked{tensor.getType().getRank(), descriptor.data()};
  std::string spelling = debugString(tensor.getType().getElementType());
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  if (spelling == Spelling) {                                                  \
    llvm::outs().flush();                                                      \
    _mlir_ciface_gatherPrint##Suffix(&unranked, index);                        \
    return llvm::Error::success();                                             \
  }
#include "gather/Runtime/ElementTypes.def"
  return llvm::createStringError("result " + llvm::Twine(index) +
                                 " of element type " + spelling +
                                 " cannot be printed");
}

llvm::Error gather::compareResult(const HostTensor &actual,
                                  const HostTensor &expected, int64_t index) {
  if (actual.getType().getElementType() != expected.getType().getElementType())
    return llvm::createStringError("result " + llvm::Twine(index) + " is a " +
                                   debugString(actual.getType()) +
                                   ", the expected output a " +
                                   debugString(expected.getType()));
  std::vector<int64_t> actualDescriptor = actual.getDescriptor();
  std::vector<int64_t> expectedDescriptor = expected.getDescriptor();
  Unranked actualUnranked{actual.getType().getRank(), actualDescriptor.data()};
  Unranked expectedUnranked{expected.getType().getRank(),
                            expectedDescriptor.data()};
  std::string spelling = debugString(actual.getType().getElementType());
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  if (spelling == Spelling) {                                                  \
    llvm::outs().flush();                                                      \
    _mlir_ciface_gatherCompare##Suffix(&actualUnranked, &expectedUnranked,     \
                                       index, 0.0, 0.0);                       \
    return llvm::Error::success();                                             \
  }
#include "gather/Runtime/ElementTypes.def"
  return llvm::createStringError("result " + llvm::Twine(index) +
                                 " of element type " + spelling +
                                 " cannot be compared");
}
