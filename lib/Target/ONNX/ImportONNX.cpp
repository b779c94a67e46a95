//===- ImportONNX.cpp - ONNX models to the onnx dialect -------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Target/ONNX/ImportONNX.h"
#include "BuildTestMain.h"
#include "FunctionCalls.h"
#include "ONNXChecker.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/RuntimeABI/RuntimeABI.h"
#include "gather/Support/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

using namespace mlir;
using namespace gather;

/// ONNX opsets in which GatherElements has the semantics implemented here
/// (11 introduced it, 13 added bfloat16; unchanged since).
constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 22;

static const char *dataTypeName(int32_t type) {
  if (::onnx::TensorProto_DataType_IsValid(type))
    return ::onnx::TensorProto_DataType_Name(
               static_cast<::onnx::TensorProto_DataType>(type))
        .c_str();
  return "unknown";
}

/// The MLIR element type of ONNX TensorProto data type `type` (one of the
/// element types of gather's runtime, gather/Runtime/ElementTypes.def), or
/// null.
static Type getElementType(MLIRContext *context, int32_t type) {
  switch (type) {
#define GATHER_ELEMENT_TYPE(Suffix, Spelling, CType, ONNXType)                 \
  case ::onnx::TensorProto::ONNXType:                                          \
    return getRuntimeElementType(context, #Suffix);
#include "gather/Runtime/ElementTypes.def"
  default:
    return nullptr;
  }
}

/// The values an int32_data or uint64_data entry of a tensor of integer or
/// float `elementType` may hold: the type's values, or a float's bits.
static std::pair<int64_t, uint64_t> getEntryRange(Type elementType) {
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (bits >= 64)
    return {INT64_MIN, UINT64_MAX};
  if (isa<FloatType>(elementType) || elementType.isUnsignedInteger() ||
      bits == 1)
    return {0, (uint64_t(1) << bits) - 1};
  return {-(int64_t(1) << (bits - 1)), (uint64_t(1) << (bits - 1)) - 1};
}

/// Whether `tensor` refers to data outside the model (ONNX IR "External
/// Tensor Data": data_location = EXTERNAL, or `external_data` entries naming
/// a file, offset and length). gather never reads such data.
static bool hasExternalData(const ::onnx::TensorProto &tensor) {
  return tensor.data_location() == ::onnx::TensorProto::EXTERNAL ||
         tensor.external_data_size() > 0;
}

namespace {

/// Finds the first tensor with external data anywhere in a model: graph
/// initializers (dense and sparse), tensor-valued node attributes, subgraphs
/// (attributes of control-flow ops), model-local functions and training
/// graphs. Returns a description of where it is, or "" if there is none.
/// Reads only the in-memory protobuf: nothing touches the file system.
class ExternalDataFinder {
public:
  std::string find(const ::onnx::ModelProto &model) {
    if (visit(model.graph(), "the graph"))
      return where;
    for (const ::onnx::FunctionProto &function : model.functions())
      for (const ::onnx::NodeProto &node : function.node())
        if (visit(node, "function '" + function.name() + "'"))
          return where;
    for (const ::onnx::TrainingInfoProto &training : model.training_info())
      if (visit(training.initialization(), "a training initialization graph") ||
          visit(training.algorithm(), "a training algorithm graph"))
        return where;
    return "";
  }

private:
  bool visit(const ::onnx::TensorProto &tensor, const std::string &what) {
    if (!hasExternalData(tensor))
      return false;
    where = (tensor.name().empty() ? "a tensor"
                                   : "tensor '" + tensor.name() + "'") +
            " (" + what + ")";
    return true;
  }
  bool visit(const ::onnx::SparseTensorProto &tensor, const std::string &what) {
    return visit(tensor.values(), "values of " + what) ||
           visit(tensor.indices(), "indices of " + what);
  }
  bool visit(const ::onnx::GraphProto &graph, const std::string &what) {
    for (const ::onnx::TensorProto &tensor : graph.initializer())
      if (visit(tensor, "initializer of " + what))
        return true;
    for (const ::onnx::SparseTensorProto &tensor : graph.sparse_initializer())
      if (visit(tensor, "sparse initializer of " + what))
        return true;
    for (const ::onnx::NodeProto &node : graph.node())
      if (visit(node, what))
        return true;
    return false;
  }
  bool visit(const ::onnx::NodeProto &node, const std::string &what) {
    for (const ::onnx::AttributeProto &attribute : node.attribute()) {
      std::string name = "attribute '" + attribute.name() + "' of node '" +
                         node.name() + "' in " + what;
      if ((attribute.has_t() && visit(attribute.t(), name)) ||
          (attribute.has_sparse_tensor() &&
           visit(attribute.sparse_tensor(), name)) ||
          (attribute.has_g() && visit(attribute.g(), "a subgraph of " + name)))
        return true;
      for (const ::onnx::TensorProto &tensor : attribute.tensors())
        if (visit(tensor, name))
          return true;
      for (const ::onnx::SparseTensorProto &tensor : attribute.sparse_tensors())
        if (visit(tensor, name))
          return true;
      for (const ::onnx::GraphProto &graph : attribute.graphs())
        if (visit(graph, "a subgraph of " + name))
          return true;
    }
    return false;
  }

  std::string where;
};

/// Imports one model; every diagnostic is located at the model file.
class Importer {
public:
  Importer(MLIRContext *context, StringRef fileName)
      : context(context), fileName(fileName.str()),
        // A binary file has no lines: named by the file (printed
        // `loc("model.onnx")`), a node by its name in it
        // (`loc("node"("model.onnx"))`).
        fileLoc(NameLoc::get(StringAttr::get(context, fileName))),
        builder(context) {}

  /// An error at the model file's location.
  InFlightDiagnostic error(const Twine &message) {
    return emitError(fileLoc) << message;
  }

  /// The location of node `index` of the graph in the model file, named
  /// `node '<name>' (<op type>)`, or `node #<index> (<op type>)` if unnamed;
  /// errors print it as `model.onnx: node 'top2' (TopK): error: ...`
  /// (gather::formatRuntimeLocation).
  Location nodeLoc(const ::onnx::NodeProto &node, int index) {
    std::string name = node.name().empty()
                           ? "node #" + std::to_string(index) + inSubgraph()
                           : "node '" + node.name() + "'";
    return NameLoc::get(
        builder.getStringAttr(name + " (" + node.op_type() + ")"), fileLoc);
  }

  std::string describeNode(const ::onnx::NodeProto &node, int index) const {
    return shortNodeName(node, index) +
           (node.name().empty() ? inSubgraph() : "");
  }

  /// The name of a node, or `<op type> #<index>` in its graph if unnamed.
  static std::string shortNodeName(const ::onnx::NodeProto &node, int index) {
    if (!node.name().empty())
      return node.name();
    return node.op_type() + " #" + std::to_string(index);
  }

  /// ` in <path>` for a node of a subgraph (`Loop #0/body/If #1/then_branch`:
  /// the nodes and attributes that hold it), else empty.
  std::string inSubgraph() const {
    return subgraphPath.empty() ? "" : " in " + subgraphPath;
  }

  /// The type of a graph input or output; failure (diagnosed) if it is not
  /// a tensor of a supported element type.
  FailureOr<TensorType> getValueType(const ::onnx::ValueInfoProto &info,
                                     StringRef what) {
    if (!info.type().has_tensor_type())
      return error(what) << " '" << info.name() << "' is not a tensor";
    const ::onnx::TypeProto::Tensor &tensor = info.type().tensor_type();
    Type elementType = getElementType(context, tensor.elem_type());
    if (!elementType)
      return error(what) << " '" << info.name() << "' has unsupported type "
                         << dataTypeName(tensor.elem_type());
    if (!tensor.has_shape())
      return TensorType(UnrankedTensorType::get(elementType));
    SmallVector<int64_t> shape;
    for (const ::onnx::TensorShapeProto::Dimension &dim :
         tensor.shape().dim()) {
      if (dim.has_dim_value() && dim.dim_value() >= 0)
        shape.push_back(dim.dim_value());
      else
        shape.push_back(ShapedType::kDynamic); // dim_param or unknown
    }
    return TensorType(RankedTensorType::get(shape, elementType));
  }

  /// The value of a TensorProto as a dense elements attribute.
  FailureOr<DenseElementsAttr> getTensor(const ::onnx::TensorProto &tensor,
                                         StringRef what) {
    Type elementType = getElementType(context, tensor.data_type());
    if (!elementType)
      return error(what) << " has unsupported type "
                         << dataTypeName(tensor.data_type());
    if (hasExternalData(tensor))
      return error(what) << " uses external data, which is not supported";
    SmallVector<int64_t> shape;
    int64_t numElements = 1;
    for (int64_t dim : tensor.dims()) {
      if (dim < 0 || (dim > 0 && numElements > (int64_t(1) << 40) / dim))
        return error(what) << " has an invalid or too large shape";
      shape.push_back(dim);
      numElements *= dim;
    }
    auto type = RankedTensorType::get(shape, elementType);
    auto wrongCount = [&](int64_t count) {
      return error(what) << " has " << count << " values for " << numElements
                         << " elements (shape " << type << ")";
    };

    if (tensor.data_type() == ::onnx::TensorProto::STRING) {
      if (tensor.string_data_size() != numElements)
        return wrongCount(tensor.string_data_size());
      SmallVector<StringRef> strings(tensor.string_data().begin(),
                                     tensor.string_data().end());
      return DenseElementsAttr(DenseStringElementsAttr::get(type, strings));
    }

    // Everything else as little-endian bytes, one element after another.
    unsigned width = elementType.isInteger(1)
                         ? 8
                         : (isa<ComplexType>(elementType)
                                ? 2 * cast<ComplexType>(elementType)
                                          .getElementType()
                                          .getIntOrFloatBitWidth()
                                : elementType.getIntOrFloatBitWidth());
    size_t elementBytes = width / 8;
    if (tensor.has_segment())
      return error(what) << " is a segment of a tensor (segment), which is "
                            "not supported";
    int typedValues = tensor.float_data_size() + tensor.int32_data_size() +
                      tensor.string_data_size() + tensor.int64_data_size() +
                      tensor.double_data_size() + tensor.uint64_data_size();
    if (tensor.has_raw_data() && typedValues > 0)
      return error(what) << " has both raw_data and " << typedValues
                         << " typed values; ONNX allows one of them";
    // An int32_data or uint64_data entry must fit the element type (the
    // bits of f16 and bf16, 0 or 1 for bool), as an inline value must.
    auto checkRange = [&](auto values, StringRef field) -> LogicalResult {
      auto [lowest, highest] = getEntryRange(elementType);
      for (auto [i, v] : llvm::enumerate(values))
        if ((std::is_signed_v<std::decay_t<decltype(v)>> &&
             int64_t(v) < lowest) ||
            (v > 0 && uint64_t(v) > highest))
          return error(what)
                 << " has " << field << "[" << i << "] = " << v
                 << ", which does not fit " << dataTypeName(tensor.data_type());
      return success();
    };
    std::string bytes;
    if (tensor.has_raw_data()) {
      bytes = tensor.raw_data();
    } else {
      auto append = [&](const void *value, size_t size) {
        bytes.append(static_cast<const char *>(value), size);
      };
      switch (tensor.data_type()) {
      case ::onnx::TensorProto::FLOAT:
      case ::onnx::TensorProto::COMPLEX64:
        for (float v : tensor.float_data())
          append(&v, sizeof(v));
        break;
      case ::onnx::TensorProto::DOUBLE:
      case ::onnx::TensorProto::COMPLEX128:
        for (double v : tensor.double_data())
          append(&v, sizeof(v));
        break;
      case ::onnx::TensorProto::INT64:
        for (int64_t v : tensor.int64_data())
          append(&v, sizeof(v));
        break;
      case ::onnx::TensorProto::UINT32:
      case ::onnx::TensorProto::UINT64:
        if (failed(checkRange(tensor.uint64_data(), "uint64_data")))
          return failure();
        for (uint64_t v : tensor.uint64_data())
          append(&v, elementBytes); // little-endian: low bytes first
        break;
      default: // int32_data holds INT32, INT16, INT8, UINT16, UINT8, BOOL,
               // FLOAT16 and BFLOAT16 (as bits), one per entry.
        if (failed(checkRange(tensor.int32_data(), "int32_data")))
          return failure();
        for (int32_t v : tensor.int32_data())
          append(&v, elementBytes);
        break;
      }
    }
    if (bytes.size() != static_cast<size_t>(numElements) * elementBytes)
      return wrongCount(static_cast<int64_t>(bytes.size() / elementBytes));
    if (elementType.isInteger(1)) {
      SmallVector<bool> values;
      for (char byte : bytes)
        values.push_back(byte != 0);
      return DenseElementsAttr::get(type, ArrayRef<bool>(values));
    }
    return DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(bytes.data(), bytes.size()));
  }

  OwningOpRef<ModuleOp> import(const ::onnx::ModelProto &model,
                               const ONNXImportOptions &options);

private:
  LogicalResult checkOpsets(const ::onnx::ModelProto &model);
  FailureOr<func::FuncOp> importGraph(const ::onnx::GraphProto &graph,
                                      ModuleOp module);
  LogicalResult importNode(const ::onnx::NodeProto &node, int index,
                           llvm::StringMap<Value> &values,
                           const llvm::StringMap<Type> &types);
  /// Imports subgraph `graph` (attribute `name` of the node described by
  /// `where`) into `region` of the op made for the node: one block whose
  /// arguments are the subgraph's inputs (of the declared types, else of
  /// `argumentTypes` where given), its initializers and nodes, and an
  /// onnx.Yield of its outputs. The subgraph sees the values of the
  /// enclosing graphs (`values`, `types`) by name, as ONNX scopes them.
  LogicalResult importSubgraph(const ::onnx::GraphProto &graph, StringRef name,
                               const std::string &where,
                               const std::string &scopeName, Region &region,
                               ArrayRef<Type> argumentTypes,
                               const llvm::StringMap<Value> &values,
                               const llvm::StringMap<Type> &types);
  /// The subgraph attributes of `node` (If: then_branch, else_branch; Loop:
  /// body; any other op: its GRAPH attributes in order) imported into the
  /// regions of `op`, which has one per subgraph.
  LogicalResult importSubgraphs(const ::onnx::NodeProto &node,
                                const std::string &where,
                                const std::string &scopeName, Operation *op,
                                ArrayRef<StringRef> names,
                                ArrayRef<SmallVector<Type>> argumentTypes,
                                const llvm::StringMap<Value> &values,
                                const llvm::StringMap<Type> &types);
  /// An ONNX If or Loop node as onnx.If or onnx.Loop with its subgraphs.
  FailureOr<Operation *> importControlFlowNode(
      const ::onnx::NodeProto &node, const std::string &where,
      const std::string &scopeName, Location loc, ArrayRef<Value> operands,
      const llvm::StringMap<Value> &values, const llvm::StringMap<Type> &types);
  FailureOr<NamedAttribute>
  convertAttribute(const ::onnx::AttributeProto &attribute,
                   const std::string &where);
  /// The value of a Constant node's one attribute: `value` (a tensor), or
  /// since opset 12 `value_float`, `value_int`, `value_string` (a rank-0
  /// tensor of f32, i64, !onnx.string) or `value_floats`, `value_ints`,
  /// `value_strings` (rank 1). Any other attribute is an error at `where`.
  FailureOr<DenseElementsAttr>
  getConstantValue(const ::onnx::AttributeProto &attribute,
                   const std::string &where);

  MLIRContext *context;
  /// Where the nodes being imported are, for the names of unnamed ones:
  /// empty in the main graph, `<node>/<attribute>[/<node>/<attribute>...]`
  /// in a subgraph.
  std::string subgraphPath;
  std::string fileName;
  Location fileLoc;
  OpBuilder builder;
};

} // namespace

LogicalResult Importer::checkOpsets(const ::onnx::ModelProto &model) {
  bool hasDefaultDomain = false;
  for (const ::onnx::OperatorSetIdProto &opset : model.opset_import()) {
    if (!opset.domain().empty() && opset.domain() != "ai.onnx")
      continue;
    hasDefaultDomain = true;
    if (opset.version() < kMinOpset || opset.version() > kMaxOpset)
      return error("unsupported opset ai.onnx ")
             << opset.version() << " (GatherElements is imported from opset "
             << kMinOpset << " to " << kMaxOpset << ")";
  }
  if (!hasDefaultDomain)
    return error("the model imports no ai.onnx opset");
  return success();
}

FailureOr<func::FuncOp> Importer::importGraph(const ::onnx::GraphProto &graph,
                                              ModuleOp module) {
  llvm::StringMap<Value> values;
  llvm::StringMap<const ::onnx::TensorProto *> initializers;
  for (const ::onnx::TensorProto &initializer : graph.initializer())
    initializers[initializer.name()] = &initializer;
  if (graph.sparse_initializer_size() > 0)
    return error("sparse initializers are not supported");

  // The types of intermediate values: value_info (with what ONNX shape
  // inference added).
  llvm::StringMap<Type> types;
  for (const ::onnx::ValueInfoProto &info : graph.value_info()) {
    FailureOr<TensorType> type = getValueType(info, "value");
    if (succeeded(type))
      types[info.name()] = *type;
  }

  SmallVector<const ::onnx::ValueInfoProto *> inputs;
  SmallVector<Type> argumentTypes;
  for (const ::onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue; // An initializer with a declared type (IR < 4 style).
    FailureOr<TensorType> type = getValueType(input, "graph input");
    if (failed(type))
      return failure();
    inputs.push_back(&input);
    argumentTypes.push_back(*type);
  }
  SmallVector<Type> resultTypes;
  for (const ::onnx::ValueInfoProto &output : graph.output()) {
    FailureOr<TensorType> type = getValueType(output, "graph output");
    if (failed(type))
      return failure();
    resultTypes.push_back(*type);
    types[output.name()] = *type;
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto function =
      func::FuncOp::create(builder, fileLoc, "main_graph",
                           builder.getFunctionType(argumentTypes, resultTypes));
  function->setAttr("onnx.graph_name", builder.getStringAttr(graph.name()));
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  // Tensor names kept as onnx-mlir keeps them.
  for (auto [index, input] : llvm::enumerate(inputs)) {
    values[input->name()] = body->getArgument(index);
    function.setArgAttr(index, "onnx.name",
                        builder.getStringAttr(input->name()));
  }
  for (auto [index, output] : llvm::enumerate(graph.output()))
    function.setResultAttr(index, "onnx.name",
                           builder.getStringAttr(output.name()));
  for (const ::onnx::TensorProto &initializer : graph.initializer()) {
    FailureOr<DenseElementsAttr> value =
        getTensor(initializer, "initializer '" + initializer.name() + "'");
    if (failed(value))
      return failure();
    values[initializer.name()] =
        gather::ONNX::ConstantOp::create(builder, fileLoc, *value);
  }

  for (auto [index, node] : llvm::enumerate(graph.node())) {
    if (failed(importNode(node, static_cast<int>(index), values, types)))
      return failure();
  }

  SmallVector<Value> results;
  for (auto [output, type] : llvm::zip(graph.output(), resultTypes)) {
    auto it = values.find(output.name());
    if (it == values.end())
      return error("graph output '") << output.name() << "' is not computed";
    Value value = it->second;
    if (value.getType() != type) {
      if (!tensor::CastOp::areCastCompatible(value.getType(), type))
        return error("graph output '")
               << output.name() << "' is declared " << type
               << " but computed as " << value.getType();
      value = tensor::CastOp::create(builder, fileLoc, type, value);
    }
    results.push_back(value);
  }
  func::ReturnOp::create(builder, fileLoc, results);
  return function;
}

FailureOr<Operation *> Importer::importControlFlowNode(
    const ::onnx::NodeProto &node, const std::string &where,
    const std::string &scopeName, Location loc, ArrayRef<Value> operands,
    const llvm::StringMap<Value> &values, const llvm::StringMap<Type> &types) {
  auto nodeError = [&]() { return emitError(loc) << "the node"; };
  SmallVector<Type> resultTypes;
  for (const std::string &output : node.output()) {
    auto it = types.find(output);
    if (output.empty() || it == types.end())
      return nodeError() << "'s output '" << output
                         << "' has an unknown type (no value_info, and "
                            "ONNX shape inference finds none)";
    resultTypes.push_back(it->second);
  }
  bool isIf = node.op_type() == "If";
  SmallVector<StringRef> names;
  if (isIf)
    names = {"then_branch", "else_branch"};
  else
    names = {"body"};
  for (const ::onnx::AttributeProto &attribute : node.attribute())
    if (!llvm::is_contained(names, attribute.name()) ||
        attribute.type() != ::onnx::AttributeProto::GRAPH)
      return nodeError() << " has an unexpected attribute '" << attribute.name()
                         << "'";
  // (The ONNX checker requires the subgraph attributes; an absent one is an
  // empty graph here.)
  Operation *op;
  SmallVector<SmallVector<Type>> argumentTypes;
  if (isIf) {
    if (operands.size() != 1 || !isa<TensorType>(operands[0].getType()))
      return nodeError() << " must have 1 input (the condition), has "
                         << operands.size();
    op = gather::ONNX::IfOp::create(builder, loc, resultTypes, operands[0]);
    argumentTypes.resize(2);
  } else {
    if (operands.size() < 2)
      return nodeError() << " must have at least 2 inputs (M and cond), has "
                         << operands.size();
    op = gather::ONNX::LoopOp::create(builder, loc, resultTypes, operands[0],
                                      operands[1], operands.drop_front(2));
    // The iteration number, the condition, the loop-carried values.
    SmallVector<Type> body = {RankedTensorType::get({}, builder.getI64Type()),
                              RankedTensorType::get({}, builder.getI1Type())};
    llvm::append_range(body, ValueRange(operands.drop_front(2)).getTypes());
    argumentTypes.push_back(body);
  }
  if (failed(importSubgraphs(node, where, scopeName, op, names, argumentTypes,
                             values, types)))
    return failure();
  return op;
}

LogicalResult Importer::importSubgraphs(
    const ::onnx::NodeProto &node, const std::string &where,
    const std::string &scopeName, Operation *op, ArrayRef<StringRef> names,
    ArrayRef<SmallVector<Type>> argumentTypes,
    const llvm::StringMap<Value> &values, const llvm::StringMap<Type> &types) {
  static const ::onnx::GraphProto empty;
  for (auto [index, name] : llvm::enumerate(names)) {
    const ::onnx::GraphProto *graph = &empty;
    for (const ::onnx::AttributeProto &attribute : node.attribute())
      if (attribute.name() == name)
        graph = &attribute.g();
    if (failed(importSubgraph(*graph, name, where, scopeName,
                              op->getRegion(index), argumentTypes[index],
                              values, types)))
      return failure();
  }
  return success();
}

LogicalResult Importer::importSubgraph(
    const ::onnx::GraphProto &graph, StringRef name, const std::string &where,
    const std::string &scopeName, Region &region, ArrayRef<Type> argumentTypes,
    const llvm::StringMap<Value> &values, const llvm::StringMap<Type> &types) {
  std::string what = "subgraph '" + name.str() + "' of " + where;
  if (graph.sparse_initializer_size() > 0)
    return error(what) << " has sparse initializers, which are not supported";
  // The enclosing graphs' names, then the subgraph's own.
  llvm::StringMap<Value> scopeValues = values;
  llvm::StringMap<Type> scopeTypes = types;
  for (const auto *infos : {&graph.value_info(), &graph.output()})
    for (const ::onnx::ValueInfoProto &info : *infos) {
      FailureOr<TensorType> type = getValueType(info, "value");
      if (succeeded(type))
        scopeTypes[info.name()] = *type;
    }
  SmallVector<Type> blockTypes;
  for (auto [index, input] : llvm::enumerate(graph.input())) {
    if (!input.type().has_tensor_type() && index < argumentTypes.size()) {
      blockTypes.push_back(argumentTypes[index]);
      continue;
    }
    FailureOr<TensorType> type = getValueType(input, "input of " + what);
    if (failed(type))
      return failure();
    blockTypes.push_back(*type);
  }
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Location> locs(blockTypes.size(), fileLoc);
  Block *block = builder.createBlock(&region, {}, blockTypes, locs);
  for (auto [input, argument] : llvm::zip(graph.input(), block->getArguments()))
    scopeValues[input.name()] = argument;
  for (const ::onnx::TensorProto &initializer : graph.initializer()) {
    FailureOr<DenseElementsAttr> value = getTensor(
        initializer, "initializer '" + initializer.name() + "' of " + what);
    if (failed(value))
      return failure();
    scopeValues[initializer.name()] =
        gather::ONNX::ConstantOp::create(builder, fileLoc, *value);
  }
  std::string outerPath = subgraphPath;
  subgraphPath =
      (outerPath.empty() ? "" : outerPath + "/") + scopeName + "/" + name.str();
  llvm::scope_exit restorePath([&] { subgraphPath = outerPath; });
  for (auto [index, node] : llvm::enumerate(graph.node()))
    if (failed(
            importNode(node, static_cast<int>(index), scopeValues, scopeTypes)))
      return failure();
  SmallVector<Value> results;
  for (const ::onnx::ValueInfoProto &output : graph.output()) {
    auto it = scopeValues.find(output.name());
    if (it == scopeValues.end())
      return error("output '")
             << output.name() << "' of " << what << " is not computed";
    results.push_back(it->second);
  }
  gather::ONNX::YieldOp::create(builder, fileLoc, results);
  return success();
}

FailureOr<NamedAttribute>
Importer::convertAttribute(const ::onnx::AttributeProto &attribute,
                           const std::string &where) {
  // As onnx-mlir: int -> si64, ints -> [i64], float -> f32, floats -> [f32],
  // string(s) -> string(s), tensor -> dense elements.
  Attribute value;
  Type si64 = builder.getIntegerType(64, /*isSigned=*/true);
  switch (attribute.type()) {
  case ::onnx::AttributeProto::INT:
    value = builder.getIntegerAttr(si64, attribute.i());
    break;
  case ::onnx::AttributeProto::FLOAT:
    value = builder.getF32FloatAttr(attribute.f());
    break;
  case ::onnx::AttributeProto::STRING:
    value = builder.getStringAttr(attribute.s());
    break;
  case ::onnx::AttributeProto::INTS:
    value = builder.getI64ArrayAttr(
        SmallVector<int64_t>(attribute.ints().begin(), attribute.ints().end()));
    break;
  case ::onnx::AttributeProto::FLOATS:
    value = builder.getF32ArrayAttr(SmallVector<float>(
        attribute.floats().begin(), attribute.floats().end()));
    break;
  case ::onnx::AttributeProto::STRINGS:
    value = builder.getStrArrayAttr(SmallVector<StringRef>(
        attribute.strings().begin(), attribute.strings().end()));
    break;
  case ::onnx::AttributeProto::TENSOR: {
    FailureOr<DenseElementsAttr> tensor = getTensor(
        attribute.t(), where + " attribute '" + attribute.name() + "'");
    if (failed(tensor))
      return failure();
    value = *tensor;
    break;
  }
  default:
    return error(where) << " has attribute '" << attribute.name()
                        << "' of a kind gather does not import ("
                        << ::onnx::AttributeProto_AttributeType_Name(
                               attribute.type())
                        << ")";
  }
  return builder.getNamedAttr(attribute.name(), value);
}

FailureOr<DenseElementsAttr>
Importer::getConstantValue(const ::onnx::AttributeProto &attribute,
                           const std::string &where) {
  using Proto = ::onnx::AttributeProto;
  const std::string &name = attribute.name();
  auto scalarType = [](Type elementType) {
    return RankedTensorType::get({}, elementType);
  };
  auto vectorType = [](int64_t size, Type elementType) {
    return RankedTensorType::get({size}, elementType);
  };
  Type f32 = builder.getF32Type(), i64 = builder.getI64Type();
  Type string = gather::ONNX::StringType::get(context);
  switch (attribute.type()) {
  case Proto::TENSOR:
    if (name == "value")
      return getTensor(attribute.t(), where + " attribute 'value'");
    break;
  case Proto::FLOAT:
    if (name == "value_float")
      return DenseElementsAttr::get(scalarType(f32),
                                    llvm::ArrayRef(attribute.f()));
    break;
  case Proto::FLOATS:
    if (name == "value_floats")
      return DenseElementsAttr::get(
          vectorType(attribute.floats_size(), f32),
          llvm::ArrayRef(attribute.floats().data(), attribute.floats_size()));
    break;
  case Proto::INT:
    if (name == "value_int")
      return DenseElementsAttr::get(scalarType(i64),
                                    llvm::ArrayRef<int64_t>(attribute.i()));
    break;
  case Proto::INTS:
    if (name == "value_ints")
      return DenseElementsAttr::get(
          vectorType(attribute.ints_size(), i64),
          llvm::ArrayRef<int64_t>(attribute.ints().data(),
                                  attribute.ints_size()));
    break;
  case Proto::STRING:
    if (name == "value_string")
      return DenseElementsAttr(DenseStringElementsAttr::get(
          scalarType(string), llvm::ArrayRef<StringRef>(attribute.s())));
    break;
  case Proto::STRINGS:
    if (name == "value_strings") {
      SmallVector<StringRef> strings(attribute.strings().begin(),
                                     attribute.strings().end());
      return DenseElementsAttr(DenseStringElementsAttr::get(
          vectorType(attribute.strings_size(), string), strings));
    }
    break;
  default:
    break;
  }
  return error(where) << " has attribute '" << name << "' ("
                      << Proto::AttributeType_Name(attribute.type())
                      << "), which gather does not import as a constant";
}

LogicalResult Importer::importNode(const ::onnx::NodeProto &node, int index,
                                   llvm::StringMap<Value> &values,
                                   const llvm::StringMap<Type> &types) {
  Location loc = nodeLoc(node, index);
  std::string where = "node '" + describeNode(node, index) + "' (op type '" +
                      node.op_type() + "')";
  // (The location names the node.)
  auto nodeError = [&]() { return emitError(loc) << "the node"; };
  bool defaultDomain = node.domain().empty() || node.domain() == "ai.onnx";

  // Operands; an empty name is an omitted optional input (onnx.NoValue).
  SmallVector<Value> operands;
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      OperationState state(loc, "onnx.NoValue");
      state.addAttribute("value", builder.getUnitAttr());
      state.addTypes(builder.getNoneType());
      operands.push_back(builder.create(state)->getResult(0));
      continue;
    }
    auto it = values.find(input);
    if (it == values.end())
      return nodeError() << " uses '" << input
                         << "', which no input, initializer or earlier node "
                            "defines";
    operands.push_back(it->second);
  }

  Operation *op = nullptr;
  if (defaultDomain && node.op_type() == "GatherElements") {
    if (operands.size() != 2 || node.output_size() != 1)
      return nodeError() << " must have 2 inputs and 1 output, has "
                         << node.input_size() << " and " << node.output_size();
    int64_t axis = 0;
    for (const ::onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.name() != "axis" ||
          attribute.type() != ::onnx::AttributeProto::INT)
        return nodeError() << " has an unexpected attribute '"
                           << attribute.name() << "'";
      axis = attribute.i();
    }
    Type resultType = gather::ONNX::GatherElementsOp::inferResultType(
        operands[0].getType(), operands[1].getType());
    if (!resultType)
      return nodeError() << " has inputs that are not tensors";
    op = gather::ONNX::GatherElementsOp::create(builder, loc, resultType,
                                                operands[0], operands[1], axis);
  } else if (defaultDomain &&
             (node.op_type() == "If" || node.op_type() == "Loop")) {
    FailureOr<Operation *> controlFlow = importControlFlowNode(
        node, where, shortNodeName(node, index), loc, operands, values, types);
    if (failed(controlFlow))
      return failure();
    op = *controlFlow;
  } else if (defaultDomain && node.op_type() == "Constant" &&
             node.attribute_size() == 1) {
    FailureOr<DenseElementsAttr> value =
        getConstantValue(node.attribute(0), where);
    if (failed(value))
      return failure();
    op = gather::ONNX::ConstantOp::create(builder, loc, *value);
  } else {
    // Any other node: a generic op in onnx-mlir's spelling.
    OperationState state(loc, "onnx." + node.op_type());
    state.addOperands(operands);
    for (const std::string &output : node.output()) {
      if (output.empty()) {
        state.addTypes(builder.getNoneType()); // An omitted optional output.
        continue;
      }
      auto it = types.find(output);
      if (it == types.end())
        return nodeError() << "'s output '" << output
                           << "' has an unknown type (no value_info, and "
                              "ONNX shape inference finds none)";
      state.addTypes(it->second);
    }
    // Subgraphs (Scan's body, ...) become regions, in attribute order.
    SmallVector<StringRef> subgraphs;
    for (const ::onnx::AttributeProto &attribute : node.attribute()) {
      if (attribute.type() == ::onnx::AttributeProto::GRAPH) {
        subgraphs.push_back(attribute.name());
        state.addRegion();
        continue;
      }
      FailureOr<NamedAttribute> converted = convertAttribute(attribute, where);
      if (failed(converted))
        return failure();
      state.addAttribute(converted->getName(), converted->getValue());
    }
    if (!defaultDomain)
      state.addAttribute("domain_name", builder.getStringAttr(node.domain()));
    op = builder.create(state);
    if (failed(importSubgraphs(
            node, where, shortNodeName(node, index), op, subgraphs,
            SmallVector<SmallVector<Type>>(subgraphs.size()), values, types)))
      return failure();
  }
  if (!node.name().empty())
    op->setAttr("onnx_node_name", builder.getStringAttr(node.name()));
  if (op->getNumResults() != static_cast<unsigned>(node.output_size()))
    return nodeError() << " has " << node.output_size()
                       << " outputs, but the op has " << op->getNumResults();
  for (auto [output, result] : llvm::zip(node.output(), op->getResults()))
    if (!output.empty())
      values[output] = result;
  return success();
}

OwningOpRef<ModuleOp> Importer::import(const ::onnx::ModelProto &model,
                                       const ONNXImportOptions &options) {
  context->loadDialect<gather::ONNX::ONNXDialect, func::FuncDialect,
                       tensor::TensorDialect, arith::ArithDialect,
                       LLVM::LLVMDialect>();
  // Before anything else (the ONNX checker would stat() the paths that
  // external data names, relative to the working directory): gather reads
  // nothing but the model itself, and the error does not depend on what
  // exists on the file system.
  std::string external = ExternalDataFinder().find(model);
  if (!external.empty()) {
    error(external) << " uses external data (data_location = EXTERNAL or "
                    << "external_data entries), which is not supported";
    return nullptr;
  }
  if (failed(checkOpsets(model)))
    return nullptr;
  // Before the checker and shape inference, which would recurse without end.
  std::string callError = gather::detail::checkONNXFunctionCalls(model);
  if (!callError.empty()) {
    error(callError);
    return nullptr;
  }
  std::string checkError = gather::detail::checkONNXModel(model);
  if (!checkError.empty()) {
    error("the ONNX checker rejects the model: ") << checkError;
    return nullptr;
  }
  // Types of the values between nodes, for the nodes imported generically.
  ::onnx::ModelProto inferred = model;
  std::string inferError = gather::detail::inferONNXShapes(inferred);
  if (!inferError.empty()) {
    error("ONNX shape inference rejects the model: ") << inferError;
    return nullptr;
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  FailureOr<func::FuncOp> graphFunction =
      importGraph(inferred.graph(), *module);
  if (failed(graphFunction))
    return nullptr;
  if ((!options.inputFiles.empty() || !options.expectedFiles.empty() ||
       !options.outputDirectory.empty()) &&
      failed(gather::detail::buildTestMain(
          builder, fileLoc, *graphFunction, *module, options,
          [&](const ::onnx::TensorProto &tensor, StringRef what) {
            return getTensor(tensor, what);
          })))
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

FailureOr<DenseElementsAttr> gather::readTensorProtoFile(StringRef path,
                                                         MLIRContext *context) {
  Importer importer(context, path);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return importer.error("cannot read the tensor file: ")
           << buffer.getError().message();
  ::onnx::TensorProto tensor;
  if ((*buffer)->getBufferSize() > static_cast<size_t>(INT32_MAX) ||
      !tensor.ParseFromArray((*buffer)->getBufferStart(),
                             static_cast<int>((*buffer)->getBufferSize())))
    return importer.error("not an ONNX TensorProto (truncated or not "
                          "protobuf)");
  return importer.getTensor(tensor, "tensor file '" + path.str() + "'");
}

OwningOpRef<ModuleOp>
gather::importONNXModel(StringRef bytes, StringRef fileName,
                        MLIRContext *context,
                        const ONNXImportOptions &options) {
  Importer importer(context, fileName);
  ::onnx::ModelProto model;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    importer.error("not an ONNX model (the ModelProto does not parse: "
                   "truncated or not protobuf)");
    return nullptr;
  }
  if (!model.has_graph()) {
    importer.error("the model has no graph");
    return nullptr;
  }
  // (Also false for NaN.)
  for (auto [name, value] : {std::pair<StringRef, double>{"atol", options.atol},
                             {"rtol", options.rtol}})
    if (!(value >= 0)) {
      importer.error("the comparison tolerance ")
          << name << " (--onnx-" << name << ") must be a number >= 0, not "
          << value;
      return nullptr;
    }
  return importer.import(model, options);
}

void gather::registerImportONNXTranslation() {
  TranslateToMLIRRegistration registration(
      "import-onnx",
      "Import an ONNX model (.onnx) into the onnx dialect (func @main_graph)",
      [](llvm::SourceMgr &sourceMgr,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        // Errors at the model file and its nodes, which have no line:
        // `model.onnx: node 'top2' (TopK): error: ...`.
        registerLocationDiagnosticHandler(context);
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        ONNXImportOptions options =
            gather::detail::getImportOptionsFromCommandLine();
        OwningOpRef<ModuleOp> module =
            importONNXModel(buffer->getBuffer(), buffer->getBufferIdentifier(),
                            context, options);
        return OwningOpRef<Operation *>(module.release());
      },
      [](DialectRegistry &registry) {
        registry.insert<gather::ONNX::ONNXDialect, func::FuncDialect,
                        tensor::TensorDialect, arith::ArithDialect,
                        LLVM::LLVMDialect>();
      });
}
