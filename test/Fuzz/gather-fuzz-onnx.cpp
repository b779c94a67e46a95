//===- gather-fuzz-onnx.cpp - libFuzzer target: the ONNX importer ---------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A libFuzzer target for gather::importONNXModel. The input bytes are a
// serialized ModelProto; the custom mutator (LLVMFuzzerCustomMutator and
// LLVMFuzzerCustomCrossOver) parses them and mutates the model, not its bytes:
// nodes (op types, domains, inputs and outputs renamed, dropped, duplicated,
// cycles), attributes (axis values, wrong kinds), tensors (dims, data types,
// raw_data against typed fields, counts that do not match), value types
// (element types, shapes, ranks), graph inputs and outputs, initializers,
// opsets, the IR version and model-local functions (calls, recursion, arity);
// any field also through protobuf reflection. An input that does not parse
// is replaced by a generated valid model, or mutated as bytes. Every import
// either fails with diagnostics or yields a module that must verify; a
// crash, a sanitizer report or an invalid module is a finding. At exit it
// prints how many inputs parsed and imported (docs/Robustness.md).
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "gather/Target/ONNX/ImportONNX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

struct Stats {
  unsigned long long inputs = 0, parsed = 0, imported = 0;
  ~Stats() {
    if (inputs)
      fprintf(stderr,
              "gather-fuzz-onnx: %llu inputs: %llu parsed as a ModelProto "
              "(%.1f%%), %llu imported (%.1f%%)\n",
              inputs, parsed, 100.0 * double(parsed) / double(inputs), imported,
              100.0 * double(imported) / double(inputs));
  }
};

using Random = std::mt19937_64;
using Proto = ::onnx::AttributeProto;
using TensorProto = ::onnx::TensorProto;

/// Random choices of the mutator.
class Chooser {
public:
  explicit Chooser(unsigned seed) : random(seed) {}

  /// A number in [0, n) (0 for n = 0).
  size_t below(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(random);
  }
  bool oneIn(size_t n) { return below(n) == 0; }
  template <typename T>
  const T &pick(const std::vector<T> &values) {
    return values[below(values.size())];
  }
  int64_t any64() { return static_cast<int64_t>(random()); }

private:
  Random random;
};

/// The mutator of one model.
class ModelMutator {
public:
  ModelMutator(::onnx::ModelProto &model, Chooser &choose)
      : model(model), choose(choose) {}

  /// Applies one random mutation.
  void mutate();

  /// Fills `model` with a valid GatherElements model of random shape.
  void generate();

  /// Undoes the mutations that the importer's first checks reject (opset,
  /// IR version, external data, empty names), so that most mutated models
  /// get past them.
  void repair();

  /// Puts parts of `other` into the model.
  void crossOver(const ::onnx::ModelProto &other);

private:
  ::onnx::GraphProto &graph() { return *model.mutable_graph(); }

  /// The names of the values of the graph (inputs, initializers, node
  /// outputs) and some others.
  std::vector<std::string> valueNames();
  std::string valueName() { return choose.pick(valueNames()); }
  std::vector<std::string> functionNames();
  /// The values defined before graph node `node`: graph inputs,
  /// initializers and earlier outputs (all values for a function's node).
  std::vector<std::string> earlierValueNames(const ::onnx::NodeProto &node);
  /// A node of the graph or of a function (null if there is none).
  ::onnx::NodeProto *anyNode();
  /// A tensor: an initializer or a Constant's (null if there is none).
  TensorProto *anyTensor();
  ::onnx::ValueInfoProto *anyValueInfo();

  void fillTensor(TensorProto &tensor, int32_t dataType,
                  const std::vector<int64_t> &dims, bool raw, int64_t bound);
  void setType(::onnx::ValueInfoProto &info, int32_t elemType,
               const std::vector<int64_t> &dims);
  void addGatherElements(::onnx::GraphProto &graph, int64_t rank);
  void addFunction();

  void mutateNode(::onnx::NodeProto &node);
  void mutateAttribute(::onnx::NodeProto &node);
  void mutateTensor(TensorProto &tensor);
  void mutateValueInfo(::onnx::ValueInfoProto &info);
  void mutateGraphSignature();
  void mutateOpsets();
  void mutateFunctions();
  void mutateGraphNodes();
  void mutateReflected(google::protobuf::Message &message, int depth);
  void mutateField(google::protobuf::Message &message,
                   const google::protobuf::FieldDescriptor *field);

  ::onnx::ModelProto &model;
  Chooser &choose;
};

} // namespace

static Stats stats;

/// Values that trip range checks.
static const std::vector<int64_t> kInterestingInts = {
    0,
    1,
    -1,
    2,
    -2,
    3,
    -3,
    4,
    7,
    -7,
    8,
    -8,
    64,
    -65,
    255,
    256,
    -129,
    std::numeric_limits<int32_t>::max(),
    std::numeric_limits<int32_t>::min(),
    std::numeric_limits<int64_t>::max(),
    std::numeric_limits<int64_t>::min()};
static const std::vector<int64_t> kInterestingDims = {
    0,
    1,
    2,
    3,
    4,
    5,
    -1,
    -2,
    1 << 16,
    int64_t(1) << 31,
    int64_t(1) << 40,
    std::numeric_limits<int64_t>::max()};
/// Every ONNX data type, then invalid ones.
static const std::vector<int32_t> kDataTypes = {
    TensorProto::FLOAT,
    TensorProto::DOUBLE,
    TensorProto::FLOAT16,
    TensorProto::BFLOAT16,
    TensorProto::BOOL,
    TensorProto::INT8,
    TensorProto::INT16,
    TensorProto::INT32,
    TensorProto::INT64,
    TensorProto::UINT8,
    TensorProto::UINT16,
    TensorProto::UINT32,
    TensorProto::UINT64,
    TensorProto::COMPLEX64,
    TensorProto::COMPLEX128,
    TensorProto::STRING,
    TensorProto::UNDEFINED,
    17,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    99,
    -1,
    std::numeric_limits<int32_t>::max()};
/// The data types of valid generated tensors (gather's element types).
static const std::vector<int32_t> kValidDataTypes = {
    TensorProto::FLOAT,    TensorProto::DOUBLE, TensorProto::FLOAT16,
    TensorProto::BFLOAT16, TensorProto::BOOL,   TensorProto::INT8,
    TensorProto::INT16,    TensorProto::INT32,  TensorProto::INT64,
    TensorProto::UINT8,    TensorProto::UINT16, TensorProto::UINT32,
    TensorProto::UINT64,   TensorProto::STRING};
static const std::vector<std::string> kOpTypes = {"GatherElements",
                                                  "GatherElements",
                                                  "GatherElements",
                                                  "Constant",
                                                  "Constant",
                                                  "Identity",
                                                  "Identity",
                                                  "Gather",
                                                  "Add",
                                                  "Relu",
                                                  "Cast",
                                                  "Shape",
                                                  "Reshape",
                                                  "If",
                                                  "NotAnOp",
                                                  ""};
static const std::vector<std::string> kDomains = {
    "", "", "ai.onnx", "ai.onnx.ml", "local", "com.microsoft", "x.y"};
static const std::vector<std::string> kAttributeNames = {"axis",
                                                         "axis",
                                                         "value",
                                                         "value_int",
                                                         "value_ints",
                                                         "value_float",
                                                         "value_floats",
                                                         "value_string",
                                                         "value_strings",
                                                         "sparse_value",
                                                         "to",
                                                         "unknown",
                                                         ""};
static const std::vector<std::string> kNames = {"",  "x",   "data", "indices",
                                                "y", "out", "n",    "\xff"};

/// The element count of `tensor`'s dims, or -1 if negative or too large.
static int64_t countElements(const TensorProto &tensor) {
  int64_t count = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0 || (dim > 0 && count > (int64_t(1) << 12) / dim))
      return -1;
    count *= dim;
  }
  return count;
}

/// The bytes of one element of `dataType` in raw_data (0 if none or
/// unknown).
static size_t elementBytes(int32_t dataType) {
  switch (dataType) {
  case TensorProto::BOOL:
  case TensorProto::INT8:
  case TensorProto::UINT8:
    return 1;
  case TensorProto::INT16:
  case TensorProto::UINT16:
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
    return 2;
  case TensorProto::INT32:
  case TensorProto::UINT32:
  case TensorProto::FLOAT:
    return 4;
  case TensorProto::INT64:
  case TensorProto::UINT64:
  case TensorProto::DOUBLE:
  case TensorProto::COMPLEX64:
    return 8;
  case TensorProto::COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

std::vector<std::string> ModelMutator::valueNames() {
  std::vector<std::string> names = kNames;
  for (const ::onnx::ValueInfoProto &input : model.graph().input())
    names.push_back(input.name());
  for (const TensorProto &initializer : model.graph().initializer())
    names.push_back(initializer.name());
  for (const ::onnx::NodeProto &node : model.graph().node())
    for (const std::string &output : node.output())
      names.push_back(output);
  for (const ::onnx::FunctionProto &function : model.functions()) {
    for (const std::string &input : function.input())
      names.push_back(input);
    for (const std::string &output : function.output())
      names.push_back(output);
  }
  return names;
}

std::vector<std::string>
ModelMutator::earlierValueNames(const ::onnx::NodeProto &node) {
  std::vector<std::string> names;
  for (const ::onnx::ValueInfoProto &input : model.graph().input())
    names.push_back(input.name());
  for (const TensorProto &initializer : model.graph().initializer())
    names.push_back(initializer.name());
  for (const ::onnx::NodeProto &earlier : model.graph().node()) {
    if (&earlier == &node)
      return names.empty() ? kNames : names;
    for (const std::string &output : earlier.output())
      names.push_back(output);
  }
  return valueNames(); // A function's node.
}

std::vector<std::string> ModelMutator::functionNames() {
  std::vector<std::string> names;
  for (const ::onnx::FunctionProto &function : model.functions())
    names.push_back(function.name());
  return names;
}

::onnx::NodeProto *ModelMutator::anyNode() {
  size_t count = model.graph().node_size();
  for (const ::onnx::FunctionProto &function : model.functions())
    count += function.node_size();
  if (count == 0)
    return nullptr;
  size_t index = choose.below(count);
  if (index < static_cast<size_t>(model.graph().node_size()))
    return graph().mutable_node(static_cast<int>(index));
  index -= model.graph().node_size();
  for (::onnx::FunctionProto &function : *model.mutable_functions()) {
    if (index < static_cast<size_t>(function.node_size()))
      return function.mutable_node(static_cast<int>(index));
    index -= function.node_size();
  }
  return nullptr;
}

TensorProto *ModelMutator::anyTensor() {
  std::vector<TensorProto *> tensors;
  for (TensorProto &initializer : *graph().mutable_initializer())
    tensors.push_back(&initializer);
  for (::onnx::NodeProto &node : *graph().mutable_node())
    for (Proto &attribute : *node.mutable_attribute())
      if (attribute.has_t())
        tensors.push_back(attribute.mutable_t());
  for (::onnx::FunctionProto &function : *model.mutable_functions())
    for (::onnx::NodeProto &node : *function.mutable_node())
      for (Proto &attribute : *node.mutable_attribute())
        if (attribute.has_t())
          tensors.push_back(attribute.mutable_t());
  return tensors.empty() ? nullptr : choose.pick(tensors);
}

::onnx::ValueInfoProto *ModelMutator::anyValueInfo() {
  std::vector<::onnx::ValueInfoProto *> infos;
  for (auto *list : {graph().mutable_input(), graph().mutable_output(),
                     graph().mutable_value_info()})
    for (::onnx::ValueInfoProto &info : *list)
      infos.push_back(&info);
  return infos.empty() ? nullptr : choose.pick(infos);
}

/// Sets `tensor` to `dims` elements of `dataType`, in raw_data or the typed
/// field; integer values in [-bound, bound) (indices).
void ModelMutator::fillTensor(TensorProto &tensor, int32_t dataType,
                              const std::vector<int64_t> &dims, bool raw,
                              int64_t bound) {
  std::string name = tensor.name();
  tensor.Clear();
  tensor.set_name(name);
  tensor.set_data_type(dataType);
  for (int64_t dim : dims)
    tensor.add_dims(dim);
  int64_t count = countElements(tensor);
  if (count < 0)
    return;
  auto value = [&]() -> int64_t {
    return bound > 0 ? static_cast<int64_t>(choose.below(2 * bound)) - bound
                     : choose.pick(kInterestingInts);
  };
  if (dataType == TensorProto::STRING) {
    for (int64_t i = 0; i < count; ++i)
      tensor.add_string_data(choose.pick(kNames));
    return;
  }
  size_t bytes = elementBytes(dataType);
  if (raw && bytes) {
    std::string data;
    for (int64_t i = 0; i < count; ++i) {
      int64_t v = value();
      char buffer[16] = {};
      if (dataType == TensorProto::FLOAT) {
        float f = static_cast<float>(v);
        memcpy(buffer, &f, sizeof(f));
      } else if (dataType == TensorProto::DOUBLE) {
        double d = static_cast<double>(v);
        memcpy(buffer, &d, sizeof(d));
      } else {
        memcpy(buffer, &v, sizeof(v)); // Little-endian: low bytes first.
      }
      data.append(buffer, bytes);
    }
    tensor.set_raw_data(data);
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = value();
    switch (dataType) {
    case TensorProto::FLOAT:
    case TensorProto::COMPLEX64:
      tensor.add_float_data(static_cast<float>(v));
      break;
    case TensorProto::DOUBLE:
    case TensorProto::COMPLEX128:
      tensor.add_double_data(static_cast<double>(v));
      break;
    case TensorProto::INT64:
      tensor.add_int64_data(v);
      break;
    case TensorProto::UINT32:
    case TensorProto::UINT64:
      tensor.add_uint64_data(static_cast<uint64_t>(v));
      break;
    case TensorProto::BOOL:
      tensor.add_int32_data(v & 1);
      break;
    default:
      tensor.add_int32_data(static_cast<int32_t>(v));
      break;
    }
  }
}

/// Gives `info` a tensor type; a dim of -1 becomes a dim_param, -2 a
/// dimension with neither value nor parameter.
void ModelMutator::setType(::onnx::ValueInfoProto &info, int32_t elemType,
                           const std::vector<int64_t> &dims) {
  auto *tensor = info.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(elemType);
  auto *shape = tensor->mutable_shape();
  shape->Clear();
  for (int64_t dim : dims) {
    auto *entry = shape->add_dim();
    if (dim >= 0)
      entry->set_dim_value(dim);
    else if (dim == -1)
      entry->set_dim_param(choose.oneIn(2) ? "N" : "M");
  }
}

/// Adds a GatherElements node to `graph` with graph inputs or constants of
/// rank `rank` as operands and a graph output.
void ModelMutator::addGatherElements(::onnx::GraphProto &graph, int64_t rank) {
  // A suffix no value of the model has yet.
  std::vector<std::string> names = valueNames();
  std::string suffix;
  for (size_t n = graph.node_size();; ++n) {
    suffix = std::to_string(n);
    if (!llvm::is_contained(names, "data" + suffix) &&
        !llvm::is_contained(names, "indices" + suffix) &&
        !llvm::is_contained(names, "out" + suffix))
      break;
  }
  std::vector<int64_t> dataDims, indexDims;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = static_cast<int64_t>(choose.below(4)) + 1;
    dataDims.push_back(size);
    indexDims.push_back(choose.oneIn(3) ? size
                                        : static_cast<int64_t>(choose.below(
                                              static_cast<size_t>(size) + 1)));
  }
  int64_t axis = static_cast<int64_t>(choose.below(rank));
  if (choose.oneIn(3))
    axis -= rank;
  int32_t dataType = choose.pick(kValidDataTypes);
  int32_t indexType = choose.oneIn(2) ? TensorProto::INT64 : TensorProto::INT32;
  std::string data = "data" + suffix, indices = "indices" + suffix;
  // Data: a graph input (maybe of symbolic sizes) or an initializer.
  if (choose.oneIn(4)) {
    TensorProto *tensor = graph.add_initializer();
    tensor->set_name(data);
    fillTensor(*tensor, dataType, dataDims, choose.oneIn(2), 0);
  } else {
    std::vector<int64_t> dims = dataDims;
    for (int64_t &dim : dims)
      if (choose.oneIn(4))
        dim = -1;
    setType(*graph.add_input(), dataType, dims);
    graph.mutable_input(graph.input_size() - 1)->set_name(data);
  }
  // Indices: a graph input, an initializer or a Constant node.
  int64_t bound = dataDims[static_cast<size_t>(axis < 0 ? axis + rank : axis)];
  switch (choose.below(3)) {
  case 0:
    setType(*graph.add_input(), indexType, indexDims);
    graph.mutable_input(graph.input_size() - 1)->set_name(indices);
    break;
  case 1: {
    TensorProto *tensor = graph.add_initializer();
    tensor->set_name(indices);
    fillTensor(*tensor, indexType, indexDims, choose.oneIn(2), bound);
    break;
  }
  default: {
    ::onnx::NodeProto *constant = graph.add_node();
    constant->set_op_type("Constant");
    constant->add_output(indices);
    Proto *value = constant->add_attribute();
    value->set_name("value");
    value->set_type(Proto::TENSOR);
    fillTensor(*value->mutable_t(), indexType, indexDims, choose.oneIn(2),
               bound);
    break;
  }
  }
  ::onnx::NodeProto *node = graph.add_node();
  node->set_op_type("GatherElements");
  node->set_name("gather" + suffix);
  node->add_input(data);
  node->add_input(indices);
  std::string output = "out" + suffix;
  if (choose.oneIn(3)) {
    node->add_output("mid" + suffix);
    ::onnx::NodeProto *identity = graph.add_node();
    identity->set_op_type("Identity");
    identity->add_input("mid" + suffix);
    identity->add_output(output);
  } else {
    node->add_output(output);
  }
  if (!choose.oneIn(4)) {
    Proto *attribute = node->add_attribute();
    attribute->set_name("axis");
    attribute->set_type(Proto::INT);
    attribute->set_i(axis);
  }
  ::onnx::ValueInfoProto *result = graph.add_output();
  result->set_name(output);
  // The checker wants a shape; its sizes may be unknown.
  std::vector<int64_t> resultDims = indexDims;
  for (int64_t &dim : resultDims)
    if (choose.oneIn(3))
      dim = choose.oneIn(2) ? -1 : -2;
  setType(*result, dataType, resultDims);
}

/// Adds a model-local function wrapping GatherElements (or Identity) and a
/// call to it on the graph's first input.
void ModelMutator::addFunction() {
  ::onnx::FunctionProto *function = model.add_functions();
  std::string name = "F" + std::to_string(model.functions_size());
  function->set_name(name);
  function->set_domain("local");
  auto *opset = function->add_opset_import();
  opset->set_domain("");
  // The version the model imports, mostly (the checker wants the same).
  int64_t version = 13;
  for (const auto &entry : model.opset_import())
    if (entry.domain().empty() || entry.domain() == "ai.onnx")
      version = entry.version();
  opset->set_version(choose.oneIn(8) ? 18 : version);
  ::onnx::NodeProto *node = function->add_node();
  if (choose.oneIn(2)) {
    function->add_input("d");
    function->add_input("i");
    node->set_op_type("GatherElements");
    node->add_input("d");
    node->add_input("i");
  } else {
    function->add_input("d");
    node->set_op_type("Identity");
    node->add_input("d");
  }
  node->add_output("r");
  function->add_output("r");
  bool hasLocal = false;
  for (const auto &entry : model.opset_import())
    hasLocal |= entry.domain() == "local";
  if (!hasLocal) {
    auto *local = model.add_opset_import();
    local->set_domain("local");
    local->set_version(1);
  }
  // A call from the graph.
  if (model.graph().input_size() == 0 && model.graph().initializer_size() == 0)
    return;
  ::onnx::NodeProto *call = graph().add_node();
  call->set_op_type(name);
  call->set_domain("local");
  for (int i = 0; i < function->input_size(); ++i)
    call->add_input(valueName());
  if (model.graph().input_size())
    call->set_input(0, model.graph().input(0).name());
  call->add_output("call" + std::to_string(model.graph().node_size()));
  ::onnx::ValueInfoProto *output = graph().add_output();
  output->set_name(call->output(0));
  if (model.graph().input_size())
    *output->mutable_type() = model.graph().input(0).type();
  else
    setType(*output, TensorProto::FLOAT, {-2});
}

void ModelMutator::generate() {
  model.Clear();
  model.set_ir_version(choose.pick(std::vector<int64_t>{7, 8, 8}));
  model.set_producer_name("gather-fuzz-onnx");
  auto *opset = model.add_opset_import();
  opset->set_domain(choose.oneIn(4) ? "ai.onnx" : "");
  opset->set_version(choose.pick(std::vector<int64_t>{11, 12, 13, 13, 18, 22}));
  graph().set_name("fuzz");
  int64_t rank = static_cast<int64_t>(choose.below(4)) + 1;
  addGatherElements(graph(), rank);
  if (choose.oneIn(4))
    addGatherElements(graph(), static_cast<int64_t>(choose.below(3)) + 1);
  if (choose.oneIn(4))
    addFunction();
}

void ModelMutator::repair() {
  // (Debian's ONNX checker reads IR versions up to 8.)
  if (model.ir_version() < 7 || model.ir_version() > 8)
    model.set_ir_version(8);
  bool hasDefault = false;
  for (auto &opset : *model.mutable_opset_import()) {
    if (!opset.domain().empty() && opset.domain() != "ai.onnx")
      continue;
    hasDefault = true;
    if (opset.version() < 11 || opset.version() > 22)
      opset.set_version(13);
  }
  if (!hasDefault) {
    auto *opset = model.add_opset_import();
    opset->set_version(13);
  }
  // Functions import the model's version of the default domain, and the
  // model imports their domains.
  int64_t version = 13;
  for (const auto &opset : model.opset_import())
    if (opset.domain().empty() || opset.domain() == "ai.onnx")
      version = opset.version();
  for (::onnx::FunctionProto &function : *model.mutable_functions()) {
    for (auto &opset : *function.mutable_opset_import())
      if (opset.domain().empty() || opset.domain() == "ai.onnx")
        opset.set_version(version);
    bool imported = false;
    for (const auto &opset : model.opset_import())
      imported |= opset.domain() == function.domain();
    if (!imported) {
      auto *opset = model.add_opset_import();
      opset->set_domain(function.domain());
      opset->set_version(1);
    }
  }
  for (TensorProto &initializer : *graph().mutable_initializer()) {
    initializer.clear_data_location();
    initializer.clear_external_data();
  }
  for (::onnx::NodeProto &node : *graph().mutable_node()) {
    if (node.op_type().empty())
      node.set_op_type("Identity");
    for (Proto &attribute : *node.mutable_attribute())
      if (attribute.has_t()) {
        attribute.mutable_t()->clear_data_location();
        attribute.mutable_t()->clear_external_data();
      }
  }
}

void ModelMutator::mutateNode(::onnx::NodeProto &node) {
  switch (choose.below(10)) {
  case 0: {
    std::vector<std::string> types = kOpTypes;
    for (const std::string &name : functionNames())
      types.push_back(name);
    node.set_op_type(choose.pick(types));
    break;
  }
  case 1: {
    std::vector<std::string> domains = kDomains;
    for (const ::onnx::FunctionProto &function : model.functions())
      domains.push_back(function.domain());
    node.set_domain(choose.pick(domains));
    break;
  }
  case 2: // Rename an input: mostly to a value defined before the node,
          // else to any (a later one, or its own output: a cycle).
    if (node.input_size())
      node.set_input(static_cast<int>(choose.below(node.input_size())),
                     choose.oneIn(8) && node.output_size() ? node.output(0)
                     : choose.oneIn(4) ? valueName()
                                       : choose.pick(earlierValueNames(node)));
    else
      node.add_input(valueName());
    break;
  case 3: // Drop or duplicate an input.
    if (node.input_size() && choose.oneIn(2))
      node.mutable_input()->DeleteSubrange(
          static_cast<int>(choose.below(node.input_size())), 1);
    else
      node.add_input(node.input_size() ? node.input(static_cast<int>(
                                             choose.below(node.input_size())))
                                       : valueName());
    break;
  case 4: // Rename an output (maybe to another value: redefinition).
    if (node.output_size())
      node.set_output(static_cast<int>(choose.below(node.output_size())),
                      valueName());
    else
      node.add_output(valueName());
    break;
  case 5: // Drop or add an output.
    if (node.output_size() && choose.oneIn(2))
      node.mutable_output()->DeleteSubrange(
          static_cast<int>(choose.below(node.output_size())), 1);
    else
      node.add_output(choose.oneIn(2) ? "" : valueName());
    break;
  case 6:
    node.set_name(choose.pick(kNames));
    break;
  default:
    mutateAttribute(node);
    break;
  }
}

void ModelMutator::mutateAttribute(::onnx::NodeProto &node) {
  if (node.attribute_size() == 0 || choose.oneIn(4)) {
    Proto *attribute = node.add_attribute();
    attribute->set_name(choose.pick(kAttributeNames));
    attribute->set_type(Proto::INT);
    attribute->set_i(choose.pick(kInterestingInts));
    if (attribute->name().rfind("value", 0) == 0 && choose.oneIn(2)) {
      attribute->set_type(Proto::TENSOR);
      std::vector<int64_t> dims(choose.below(3), 2);
      fillTensor(*attribute->mutable_t(), choose.pick(kValidDataTypes), dims,
                 choose.oneIn(2), 2);
    }
    return;
  }
  Proto &attribute = *node.mutable_attribute(
      static_cast<int>(choose.below(node.attribute_size())));
  switch (choose.below(9)) {
  case 0:
  case 1: // An axis in and out of range.
    attribute.set_i(choose.oneIn(3) ? choose.any64()
                                    : choose.pick(kInterestingInts));
    break;
  case 2: { // Another kind, its value maybe not set.
    const auto *kinds = Proto::AttributeType_descriptor();
    attribute.set_type(static_cast<Proto::AttributeType>(
        kinds->value(static_cast<int>(choose.below(kinds->value_count())))
            ->number()));
    break;
  }
  case 3: // A value of the wrong kind next to the declared one.
    switch (choose.below(5)) {
    case 0:
      attribute.set_f(1.5f);
      break;
    case 1:
      attribute.add_ints(choose.pick(kInterestingInts));
      break;
    case 2:
      attribute.set_s(choose.pick(kNames));
      break;
    case 3:
      fillTensor(*attribute.mutable_t(), choose.pick(kValidDataTypes), {2},
                 false, 2);
      break;
    default:
      attribute.add_floats(0.5f);
      break;
    }
    break;
  case 4:
    attribute.set_name(choose.pick(kAttributeNames));
    break;
  case 5: // Duplicate or remove.
    if (choose.oneIn(2))
      *node.add_attribute() = Proto(attribute);
    else
      node.mutable_attribute()->DeleteSubrange(0, 1);
    break;
  case 6:
    attribute.set_ref_attr_name(choose.pick(kNames));
    break;
  default:
    if (attribute.has_t())
      mutateTensor(*attribute.mutable_t());
    else
      attribute.set_i(choose.pick(kInterestingInts));
    break;
  }
}

void ModelMutator::mutateTensor(TensorProto &tensor) {
  std::vector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  switch (choose.below(9)) {
  case 0: // Refill consistently, maybe of another type or in the other
          // field.
    fillTensor(tensor,
               choose.oneIn(3) ? choose.pick(kValidDataTypes)
                               : tensor.data_type(),
               dims, !tensor.has_raw_data(), choose.oneIn(2) ? 4 : 0);
    break;
  case 1: // Change a dim, add or drop one (the data no longer fits).
    if (!dims.empty() && choose.oneIn(2))
      tensor.set_dims(static_cast<int>(choose.below(dims.size())),
                      choose.pick(kInterestingDims));
    else if (!dims.empty() && choose.oneIn(2))
      tensor.mutable_dims()->RemoveLast();
    else
      tensor.add_dims(choose.pick(kInterestingDims));
    break;
  case 2: { // Change the shape and refill.
    for (int64_t &dim : dims)
      dim = static_cast<int64_t>(choose.below(4));
    if (choose.oneIn(2))
      dims.push_back(static_cast<int64_t>(choose.below(4)));
    else if (!dims.empty())
      dims.pop_back();
    fillTensor(tensor, tensor.data_type(), dims, choose.oneIn(2), 4);
    break;
  }
  case 3:
    tensor.set_data_type(choose.pick(kDataTypes));
    break;
  case 4: // One element more or less.
    if (tensor.has_raw_data()) {
      std::string data = tensor.raw_data();
      if (!data.empty() && choose.oneIn(2))
        data.pop_back();
      else
        data.push_back('\x7f');
      tensor.set_raw_data(data);
    } else if (tensor.int64_data_size() && choose.oneIn(2)) {
      tensor.mutable_int64_data()->RemoveLast();
    } else {
      tensor.add_int32_data(1);
      tensor.add_int64_data(-1);
    }
    break;
  case 5: // Both raw and typed data.
    tensor.set_raw_data(std::string(8, '\1'));
    tensor.add_float_data(1);
    break;
  case 6:
    if (choose.oneIn(4)) {
      tensor.set_data_location(TensorProto::EXTERNAL);
    } else if (choose.oneIn(3)) {
      auto *entry = tensor.add_external_data();
      entry->set_key("location");
      entry->set_value("/nonexistent");
    } else {
      tensor.set_name(valueName());
    }
    break;
  default: // An index value at the limits.
    if (tensor.int64_data_size())
      tensor.set_int64_data(
          static_cast<int>(choose.below(tensor.int64_data_size())),
          choose.pick(kInterestingInts));
    else if (tensor.int32_data_size())
      tensor.set_int32_data(
          static_cast<int>(choose.below(tensor.int32_data_size())),
          static_cast<int32_t>(choose.pick(kInterestingInts)));
    else if (!tensor.raw_data().empty()) {
      std::string data = tensor.raw_data();
      data[choose.below(data.size())] = static_cast<char>(choose.below(256));
      tensor.set_raw_data(data);
    }
    break;
  }
}

void ModelMutator::mutateValueInfo(::onnx::ValueInfoProto &info) {
  ::onnx::TypeProto &type = *info.mutable_type();
  switch (choose.below(8)) {
  case 0:
    type.mutable_tensor_type()->set_elem_type(choose.pick(kDataTypes));
    break;
  case 1: { // A dimension: value (negative too), parameter or none.
    auto *shape = type.mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() == 0 || choose.oneIn(3)) {
      shape->add_dim()->set_dim_value(choose.pick(kInterestingDims));
      break;
    }
    auto *dim =
        shape->mutable_dim(static_cast<int>(choose.below(shape->dim_size())));
    switch (choose.below(3)) {
    case 0:
      dim->set_dim_value(choose.pick(kInterestingDims));
      break;
    case 1:
      dim->set_dim_param(choose.pick(kNames));
      break;
    default:
      dim->Clear();
      break;
    }
    break;
  }
  case 2: // A rank change.
    if (type.tensor_type().shape().dim_size() && choose.oneIn(2))
      type.mutable_tensor_type()->mutable_shape()->mutable_dim()->RemoveLast();
    else
      type.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(
          static_cast<int64_t>(choose.below(4)));
    break;
  case 3: // Unranked, or rank 0.
    if (choose.oneIn(2))
      type.mutable_tensor_type()->clear_shape();
    else
      type.mutable_tensor_type()->mutable_shape()->clear_dim();
    break;
  case 4: // Not a tensor.
    switch (choose.below(4)) {
    case 0:
      type.mutable_sequence_type()
          ->mutable_elem_type()
          ->mutable_tensor_type()
          ->set_elem_type(TensorProto::FLOAT);
      break;
    case 1:
      type.mutable_optional_type()
          ->mutable_elem_type()
          ->mutable_tensor_type()
          ->set_elem_type(TensorProto::INT64);
      break;
    case 2:
      type.mutable_sparse_tensor_type()->set_elem_type(TensorProto::FLOAT);
      break;
    default:
      type.Clear();
      break;
    }
    break;
  case 5:
    info.set_name(valueName());
    break;
  default: // A well-formed type of gather's element types.
    std::vector<int64_t> dims(choose.below(5));
    for (int64_t &dim : dims)
      dim = static_cast<int64_t>(choose.below(5)) - 2 + 1;
    setType(info, choose.pick(kValidDataTypes), dims);
    break;
  }
}

void ModelMutator::mutateGraphSignature() {
  auto *inputs = graph().mutable_input();
  auto *outputs = graph().mutable_output();
  auto *list = choose.oneIn(2) ? inputs : outputs;
  switch (choose.below(5)) {
  case 0:
    if (list->size())
      list->DeleteSubrange(static_cast<int>(choose.below(list->size())), 1);
    break;
  case 1:
    if (list->size())
      *list->Add() = ::onnx::ValueInfoProto(
          list->Get(static_cast<int>(choose.below(list->size()))));
    break;
  case 2: { // A new value, maybe one the graph computes or defines.
    ::onnx::ValueInfoProto *info = list->Add();
    info->set_name(valueName());
    std::vector<int64_t> dims(choose.below(4), 2);
    setType(*info, choose.pick(kValidDataTypes), dims);
    break;
  }
  case 3: // value_info for an intermediate value.
    if (choose.oneIn(2) && graph().value_info_size()) {
      graph().mutable_value_info()->RemoveLast();
    } else {
      ::onnx::ValueInfoProto *info = graph().add_value_info();
      info->set_name(valueName());
      std::vector<int64_t> dims(choose.below(4), 2);
      setType(*info, choose.pick(kDataTypes), dims);
    }
    break;
  default: // Initializers: drop, duplicate, rename, add.
    if (graph().initializer_size() && choose.oneIn(3)) {
      graph().mutable_initializer()->DeleteSubrange(
          static_cast<int>(choose.below(graph().initializer_size())), 1);
    } else if (graph().initializer_size() && choose.oneIn(2)) {
      *graph().add_initializer() = TensorProto(graph().initializer(
          static_cast<int>(choose.below(graph().initializer_size()))));
      graph()
          .mutable_initializer(graph().initializer_size() - 1)
          ->set_name(valueName());
    } else {
      TensorProto *tensor = graph().add_initializer();
      tensor->set_name(valueName());
      std::vector<int64_t> dims(choose.below(3), 2);
      fillTensor(*tensor, choose.pick(kValidDataTypes), dims, choose.oneIn(2),
                 2);
    }
    break;
  }
}

void ModelMutator::mutateOpsets() {
  const std::vector<int64_t> versions = {
      1,  10, 11, 12,  13, 16, 18,
      21, 22, 23, 100, -1, 0,  std::numeric_limits<int64_t>::max()};
  auto *opsets = model.mutable_opset_import();
  switch (choose.below(5)) {
  case 0:
  case 1:
    if (opsets->size())
      opsets->Mutable(static_cast<int>(choose.below(opsets->size())))
          ->set_version(choose.pick(versions));
    break;
  case 2:
    if (opsets->size())
      opsets->Mutable(static_cast<int>(choose.below(opsets->size())))
          ->set_domain(choose.pick(kDomains));
    break;
  case 3: {
    auto *opset = opsets->Add();
    opset->set_domain(choose.pick(kDomains));
    opset->set_version(choose.pick(versions));
    break;
  }
  default:
    if (choose.oneIn(2) && opsets->size())
      opsets->DeleteSubrange(static_cast<int>(choose.below(opsets->size())), 1);
    else
      model.set_ir_version(choose.pick(
          std::vector<int64_t>{0, 1, 3, 4, 7, 8, 9, 10, 11, 1000, -1}));
    break;
  }
}

void ModelMutator::mutateFunctions() {
  if (model.functions_size() == 0 || choose.oneIn(4)) {
    addFunction();
    return;
  }
  ::onnx::FunctionProto &function = *model.mutable_functions(
      static_cast<int>(choose.below(model.functions_size())));
  switch (choose.below(7)) {
  case 0: // Recursion, direct or through another function.
    if (function.node_size()) {
      ::onnx::NodeProto &node = *function.mutable_node(
          static_cast<int>(choose.below(function.node_size())));
      const ::onnx::FunctionProto &callee = model.functions(
          static_cast<int>(choose.below(model.functions_size())));
      node.set_op_type(callee.name());
      node.set_domain(callee.domain());
    }
    break;
  case 1: // Arity: a formal input or output more or less.
    switch (choose.below(4)) {
    case 0:
      function.add_input(valueName());
      break;
    case 1:
      if (function.input_size())
        function.mutable_input()->RemoveLast();
      break;
    case 2:
      function.add_output(valueName());
      break;
    default:
      if (function.output_size())
        function.mutable_output()->RemoveLast();
      break;
    }
    break;
  case 2:
    model.mutable_functions()->DeleteSubrange(
        static_cast<int>(choose.below(model.functions_size())), 1);
    break;
  case 3:
    function.set_domain(choose.pick(kDomains));
    break;
  case 4:
    function.set_name(choose.pick(kOpTypes));
    break;
  case 5: // The function's opsets.
    if (function.opset_import_size() && choose.oneIn(2))
      function.mutable_opset_import(0)->set_version(
          choose.pick(std::vector<int64_t>{1, 11, 13, 18, 100}));
    else
      function.clear_opset_import();
    break;
  default: // An attribute parameter.
    function.add_attribute(choose.pick(kAttributeNames));
    break;
  }
}

void ModelMutator::mutateGraphNodes() {
  auto *nodes = graph().mutable_node();
  switch (choose.below(5)) {
  case 0: // Remove a node.
    if (nodes->size())
      nodes->DeleteSubrange(static_cast<int>(choose.below(nodes->size())), 1);
    break;
  case 1: // Duplicate one (its outputs defined twice).
    if (nodes->size())
      *nodes->Add() = ::onnx::NodeProto(
          nodes->Get(static_cast<int>(choose.below(nodes->size()))));
    break;
  case 2: // Swap two (out of topological order).
    if (nodes->size() > 1)
      nodes->SwapElements(static_cast<int>(choose.below(nodes->size())),
                          static_cast<int>(choose.below(nodes->size())));
    break;
  case 3: { // A new node of the usual kinds on existing values.
    ::onnx::NodeProto *node = nodes->Add();
    std::vector<std::string> types = kOpTypes;
    for (const std::string &name : functionNames())
      types.push_back(name);
    node->set_op_type(choose.pick(types));
    size_t arity = node->op_type() == "GatherElements" ? 2
                   : node->op_type() == "Constant"     ? 0
                                                       : 1;
    for (size_t i = 0; i < arity; ++i)
      node->add_input(valueName());
    node->add_output("v" + std::to_string(nodes->size()));
    if (node->op_type() == "Constant") {
      Proto *value = node->add_attribute();
      value->set_name("value");
      value->set_type(Proto::TENSOR);
      std::vector<int64_t> dims(choose.below(3), 2);
      fillTensor(*value->mutable_t(), choose.pick(kValidDataTypes), dims,
                 choose.oneIn(2), 2);
    }
    if (choose.oneIn(2)) {
      ::onnx::ValueInfoProto *output = graph().add_output();
      output->set_name(node->output(0));
      std::vector<int64_t> dims(choose.below(4), -2);
      setType(*output, choose.pick(kValidDataTypes), dims);
    }
    break;
  }
  default: // Another GatherElements chain with its inputs.
    addGatherElements(graph(), static_cast<int64_t>(choose.below(4)) + 1);
    break;
  }
}

/// Mutates a random field of `message` or, more likely for shallow ones, of
/// a message below it.
void ModelMutator::mutateReflected(google::protobuf::Message &message,
                                   int depth) {
  const google::protobuf::Reflection *reflection = message.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor *> fields;
  reflection->ListFields(message, &fields);
  std::vector<const google::protobuf::FieldDescriptor *> messages;
  for (const google::protobuf::FieldDescriptor *field : fields)
    if (field->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE)
      messages.push_back(field);
  if (!messages.empty() && depth < 12 && !choose.oneIn(4)) {
    const google::protobuf::FieldDescriptor *field = choose.pick(messages);
    if (field->is_repeated())
      mutateReflected(*reflection->MutableRepeatedMessage(
                          &message, field,
                          static_cast<int>(choose.below(
                              reflection->FieldSize(message, field)))),
                      depth + 1);
    else
      mutateReflected(*reflection->MutableMessage(&message, field), depth + 1);
    return;
  }
  // Any field of this message, set or not.
  const google::protobuf::Descriptor *descriptor = message.GetDescriptor();
  if (descriptor->field_count() == 0)
    return;
  mutateField(message, descriptor->field(static_cast<int>(
                           choose.below(descriptor->field_count()))));
}

void ModelMutator::mutateField(google::protobuf::Message &message,
                               const google::protobuf::FieldDescriptor *field) {
  using Field = google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection *reflection = message.GetReflection();
  if (field->is_repeated()) {
    int size = reflection->FieldSize(message, field);
    switch (choose.below(4)) {
    case 0:
      if (size)
        reflection->RemoveLast(&message, field);
      return;
    case 1:
      if (size > 1)
        reflection->SwapElements(&message, field,
                                 static_cast<int>(choose.below(size)),
                                 static_cast<int>(choose.below(size)));
      return;
    default:
      break;
    }
    // Add an element.
    switch (field->cpp_type()) {
    case Field::CPPTYPE_INT32:
      reflection->AddInt32(&message, field,
                           static_cast<int32_t>(choose.pick(kInterestingInts)));
      break;
    case Field::CPPTYPE_INT64:
      reflection->AddInt64(&message, field, choose.pick(kInterestingDims));
      break;
    case Field::CPPTYPE_UINT32:
      reflection->AddUInt32(&message, field, 1);
      break;
    case Field::CPPTYPE_UINT64:
      reflection->AddUInt64(&message, field, ~uint64_t(0));
      break;
    case Field::CPPTYPE_FLOAT:
      reflection->AddFloat(&message, field, -0.0f);
      break;
    case Field::CPPTYPE_DOUBLE:
      reflection->AddDouble(&message, field, 1e300);
      break;
    case Field::CPPTYPE_BOOL:
      reflection->AddBool(&message, field, true);
      break;
    case Field::CPPTYPE_ENUM:
      reflection->AddEnum(
          &message, field,
          field->enum_type()->value(static_cast<int>(
              choose.below(field->enum_type()->value_count()))));
      break;
    case Field::CPPTYPE_STRING:
      reflection->AddString(&message, field, valueName());
      break;
    case Field::CPPTYPE_MESSAGE:
      if (size && choose.oneIn(2))
        reflection->AddMessage(&message, field)
            ->CopyFrom(reflection->GetRepeatedMessage(
                message, field, static_cast<int>(choose.below(size))));
      else
        reflection->AddMessage(&message, field);
      break;
    }
    return;
  }
  switch (field->cpp_type()) {
  case Field::CPPTYPE_INT32:
    reflection->SetInt32(&message, field,
                         choose.oneIn(2)
                             ? static_cast<int32_t>(choose.pick(kDataTypes))
                             : static_cast<int32_t>(choose.any64()));
    break;
  case Field::CPPTYPE_INT64:
    reflection->SetInt64(&message, field,
                         choose.oneIn(2) ? choose.pick(kInterestingInts)
                                         : choose.any64());
    break;
  case Field::CPPTYPE_UINT32:
    reflection->SetUInt32(&message, field,
                          static_cast<uint32_t>(choose.any64()));
    break;
  case Field::CPPTYPE_UINT64:
    reflection->SetUInt64(&message, field,
                          static_cast<uint64_t>(choose.any64()));
    break;
  case Field::CPPTYPE_FLOAT:
    reflection->SetFloat(
        &message, field,
        choose.oneIn(2) ? std::numeric_limits<float>::quiet_NaN() : 3.0f);
    break;
  case Field::CPPTYPE_DOUBLE:
    reflection->SetDouble(&message, field,
                          std::numeric_limits<double>::infinity());
    break;
  case Field::CPPTYPE_BOOL:
    reflection->SetBool(&message, field, !reflection->GetBool(message, field));
    break;
  case Field::CPPTYPE_ENUM:
    reflection->SetEnum(&message, field,
                        field->enum_type()->value(static_cast<int>(
                            choose.below(field->enum_type()->value_count()))));
    break;
  case Field::CPPTYPE_STRING: {
    std::string value = reflection->GetString(message, field);
    if (!value.empty() && choose.oneIn(3))
      value[choose.below(value.size())] = static_cast<char>(choose.below(256));
    else if (choose.oneIn(2))
      value = valueName();
    else
      value.clear();
    reflection->SetString(&message, field, value);
    break;
  }
  case Field::CPPTYPE_MESSAGE:
    if (reflection->HasField(message, field) && choose.oneIn(2))
      reflection->ClearField(&message, field);
    else
      reflection->MutableMessage(&message, field);
    break;
  }
}

void ModelMutator::mutate() {
  switch (choose.below(16)) {
  case 0:
  case 1:
  case 2:
    if (::onnx::NodeProto *node = anyNode())
      mutateNode(*node);
    else
      mutateGraphNodes();
    break;
  case 3:
  case 4:
    if (::onnx::NodeProto *node = anyNode())
      mutateAttribute(*node);
    break;
  case 5:
  case 6:
    if (TensorProto *tensor = anyTensor())
      mutateTensor(*tensor);
    break;
  case 7:
  case 8:
    if (::onnx::ValueInfoProto *info = anyValueInfo())
      mutateValueInfo(*info);
    break;
  case 9:
    mutateGraphSignature();
    break;
  case 10:
    mutateOpsets();
    break;
  case 11:
    mutateFunctions();
    break;
  case 12:
  case 13:
    mutateGraphNodes();
    break;
  default:
    mutateReflected(model, 0);
    break;
  }
}

/// Prefixes every value name of `graph` with `prefix` (the empty name, an
/// omitted optional value, stays).
static void renameValues(::onnx::GraphProto &graph, const std::string &prefix) {
  auto rename = [&](std::string *name) {
    if (!name->empty())
      *name = prefix + *name;
  };
  for (auto *list : {graph.mutable_input(), graph.mutable_output(),
                     graph.mutable_value_info()})
    for (::onnx::ValueInfoProto &info : *list)
      rename(info.mutable_name());
  for (TensorProto &initializer : *graph.mutable_initializer())
    rename(initializer.mutable_name());
  for (::onnx::NodeProto &node : *graph.mutable_node()) {
    for (std::string &input : *node.mutable_input())
      rename(&input);
    for (std::string &output : *node.mutable_output())
      rename(&output);
    if (!node.name().empty())
      rename(node.mutable_name());
  }
}

void ModelMutator::crossOver(const ::onnx::ModelProto &other) {
  ::onnx::GraphProto renamed = other.graph();
  renameValues(renamed, "b." + std::to_string(choose.below(4)));
  switch (choose.below(4)) {
  case 0: // Both graphs in one (a valid model if both are).
    for (const ::onnx::ValueInfoProto &input : renamed.input())
      *graph().add_input() = input;
    for (const TensorProto &initializer : renamed.initializer())
      *graph().add_initializer() = initializer;
    for (const ::onnx::NodeProto &node : renamed.node())
      *graph().add_node() = node;
    for (const ::onnx::ValueInfoProto &output : renamed.output())
      *graph().add_output() = output;
    for (const ::onnx::ValueInfoProto &info : renamed.value_info())
      *graph().add_value_info() = info;
    break;
  case 1: // The other's nodes, on values that may not exist.
    for (const ::onnx::NodeProto &node :
         choose.oneIn(2) ? renamed.node() : other.graph().node())
      *graph().add_node() = node;
    break;
  case 2:
    for (const ::onnx::FunctionProto &function : other.functions())
      *model.add_functions() = function;
    for (const auto &opset : other.opset_import())
      *model.add_opset_import() = opset;
    break;
  default: // The other's graph under this model's header.
    *model.mutable_graph() = other.graph();
    break;
  }
}

/// Writes `model` to `data` if it fits in `maxSize`; its size, or 0.
static size_t serialize(const ::onnx::ModelProto &model, uint8_t *data,
                        size_t maxSize) {
  size_t size = model.ByteSizeLong();
  if (size == 0 || size > maxSize || size > INT32_MAX)
    return 0;
  if (!model.SerializeToArray(data, static_cast<int>(size)))
    return 0;
  return size;
}

/// Parses `data` as a ModelProto with a graph.
static bool parse(const uint8_t *data, size_t size, ::onnx::ModelProto &model) {
  return size <= INT32_MAX &&
         model.ParseFromArray(data, static_cast<int>(size)) &&
         model.has_graph();
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned int seed) {
  Chooser choose(seed);
  ::onnx::ModelProto model;
  bool parsed = parse(data, size, model);
  // Bytes, for the protobuf parser and the paths of unparsable input: one
  // in 16 inputs, and half of those that do not parse.
  if (choose.oneIn(16) || (!parsed && choose.oneIn(2)))
    return LLVMFuzzerMutate(data, size, maxSize);
  ModelMutator mutator(model, choose);
  // A fresh valid model now and then, so mutations start from valid ones;
  // half of them as generated.
  bool generated = !parsed || choose.oneIn(4);
  if (generated)
    mutator.generate();
  for (int attempt = 0; attempt < 4; ++attempt) {
    ::onnx::ModelProto mutated = model;
    ModelMutator step(mutated, choose);
    size_t count = generated && choose.oneIn(2) ? 0
                   : choose.oneIn(2)            ? 1
                                                : 1 + choose.below(4);
    for (size_t i = 0; i < count; ++i)
      step.mutate();
    if (!choose.oneIn(4))
      step.repair();
    if (size_t written = serialize(mutated, data, maxSize))
      return written;
  }
  if (size_t written = serialize(model, data, maxSize))
    return written;
  return LLVMFuzzerMutate(data, size, maxSize);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned int seed) {
  Chooser choose(seed);
  ::onnx::ModelProto first, second;
  if (parse(data1, size1, first) && parse(data2, size2, second)) {
    ModelMutator(first, choose).crossOver(second);
    if (size_t written = serialize(first, out, maxOutSize))
      return written;
  }
  // A splice of the bytes: the first's head, the second's tail.
  size_t head = std::min(choose.below(size1 + 1), maxOutSize);
  size_t tail = std::min(size2 - std::min(choose.below(size2 + 1), size2),
                         maxOutSize - head);
  memcpy(out, data1, head);
  memcpy(out + head, data2 + size2 - tail, tail);
  return head + tail;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *bytes, size_t size) {
  ++stats.inputs;
  {
    ::onnx::ModelProto model;
    if (parse(bytes, size, model))
      ++stats.parsed;
  }
  mlir::MLIRContext &context = gather::getReusedFuzzContext();
  // GATHER_FUZZ_PRINT=1: the reasons for rejection, on stderr.
  static const bool print = getenv("GATHER_FUZZ_PRINT") != nullptr;
  std::optional<mlir::ScopedDiagnosticHandler> printer;
  if (print)
    printer.emplace(&context, [](mlir::Diagnostic &diagnostic) {
      fprintf(stderr, "gather-fuzz-onnx: %s\n", diagnostic.str().c_str());
      return mlir::success();
    });
  mlir::OwningOpRef<mlir::ModuleOp> module = gather::importONNXModel(
      llvm::StringRef(reinterpret_cast<const char *>(bytes), size), "fuzz.onnx",
      &context);
  if (!module)
    return 0;
  ++stats.imported;
  if (mlir::failed(mlir::verify(*module)))
    abort(); // The importer must only build valid IR.
  return 0;
}
