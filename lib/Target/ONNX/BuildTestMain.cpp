//===- BuildTestMain.cpp - A @main that runs an imported ONNX graph -------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The test harness of --import-onnx: a `func.func @main` that runs the
// imported graph on TensorProto files and compares or writes its outputs
// (see BuildTestMain.h and ImportONNX.h), and the --onnx-* options that ask
// for it.
//
//===----------------------------------------------------------------------===//

#include "BuildTestMain.h"
#include "gather/Dialect/ONNX/ONNXDialect.h"
#include "gather/Dialect/ONNX/ONNXOps.h"
#include "gather/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace gather;

namespace {

/// Builds the test main of one import; every diagnostic is located at the
/// model file.
class TestMainBuilder {
public:
  TestMainBuilder(OpBuilder &builder, Location fileLoc,
                  gather::detail::TensorConverter getTensor)
      : fileLoc(fileLoc), builder(builder), getTensor(getTensor) {}

  LogicalResult build(func::FuncOp graphFunction, ModuleOp module,
                      const ONNXImportOptions &options);

private:
  /// An error at the model file's location.
  InFlightDiagnostic error(const Twine &message) {
    return emitError(fileLoc) << message;
  }

  FailureOr<DenseElementsAttr> readTensorFile(const std::string &path);

  Location fileLoc;
  OpBuilder &builder;
  gather::detail::TensorConverter getTensor;
};

} // namespace

FailureOr<DenseElementsAttr>
TestMainBuilder::readTensorFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return error("cannot read '")
           << path << "': " << buffer.getError().message();
  ::onnx::TensorProto tensor;
  if (!tensor.ParseFromArray((*buffer)->getBufferStart(),
                             static_cast<int>((*buffer)->getBufferSize())))
    return error("'") << path << "' is not a TensorProto";
  return getTensor(tensor, "tensor file '" + path + "'");
}

LogicalResult TestMainBuilder::build(func::FuncOp graphFunction,
                                     ModuleOp module,
                                     const ONNXImportOptions &options) {
  FunctionType type = graphFunction.getFunctionType();
  if (options.inputFiles.size() != type.getNumInputs())
    return error("the graph has ")
           << type.getNumInputs() << " inputs, but "
           << options.inputFiles.size() << " input files were given";
  if (!options.expectedFiles.empty() &&
      options.expectedFiles.size() != type.getNumResults())
    return error("the graph has ")
           << type.getNumResults() << " outputs, but "
           << options.expectedFiles.size() << " expected-output files were "
           << "given";

  builder.setInsertionPointToEnd(module.getBody());
  // Without expected outputs, @main returns the outputs (gather-runner
  // prints them); with them, it compares and returns nothing.
  auto main = func::FuncOp::create(
      builder, fileLoc, "main",
      builder.getFunctionType({}, options.expectedFiles.empty()
                                      ? type.getResults()
                                      : ArrayRef<Type>()));
  builder.setInsertionPointToStart(main.addEntryBlock());

  SmallVector<Value> arguments;
  for (auto [path, argumentType] :
       llvm::zip(options.inputFiles, type.getInputs())) {
    FailureOr<DenseElementsAttr> value = readTensorFile(path);
    if (failed(value))
      return failure();
    auto expectedType = cast<TensorType>(argumentType);
    if (value->getElementType() != expectedType.getElementType() ||
        !tensor::CastOp::areCastCompatible(value->getType(), argumentType))
      return error("input '") << path << "' holds " << value->getType()
                              << ", but the graph input is " << argumentType;
    Value argument = gather::ONNX::ConstantOp::create(builder, fileLoc, *value);
    if (argument.getType() != argumentType)
      argument =
          tensor::CastOp::create(builder, fileLoc, argumentType, argument);
    arguments.push_back(argument);
  }
  auto call = func::CallOp::create(builder, fileLoc, graphFunction, arguments);

  for (auto [index, path] : llvm::enumerate(options.expectedFiles)) {
    FailureOr<DenseElementsAttr> expected = readTensorFile(path);
    if (failed(expected))
      return failure();
    Value actual = call.getResult(index);
    Type elementType = expected->getElementType();
    if (cast<TensorType>(actual.getType()).getElementType() != elementType)
      return error("expected output '")
             << path << "' holds " << expected->getType()
             << ", but the graph output is " << actual.getType();
    auto unrankedType = UnrankedTensorType::get(elementType);
    FailureOr<func::FuncOp> compare = getOrDeclareRuntimeFunction(
        module, RuntimeTensorFunction::Compare, elementType);
    if (failed(compare))
      return failure();
    Value expectedValue =
        gather::ONNX::ConstantOp::create(builder, fileLoc, *expected);
    Value args[] = {
        tensor::CastOp::create(builder, fileLoc, unrankedType, actual),
        tensor::CastOp::create(builder, fileLoc, unrankedType, expectedValue),
        arith::ConstantIntOp::create(builder, fileLoc,
                                     static_cast<int64_t>(index), 64),
        arith::ConstantFloatOp::create(builder, fileLoc, builder.getF64Type(),
                                       llvm::APFloat(options.atol)),
        arith::ConstantFloatOp::create(builder, fileLoc, builder.getF64Type(),
                                       llvm::APFloat(options.rtol))};
    func::CallOp::create(builder, fileLoc, *compare, args);
  }
  if (!options.outputDirectory.empty()) {
    for (auto [index, actual] : llvm::enumerate(call.getResults())) {
      Type elementType = cast<TensorType>(actual.getType()).getElementType();
      auto unrankedType = UnrankedTensorType::get(elementType);
      auto pathType = UnrankedTensorType::get(builder.getI8Type());
      FailureOr<func::FuncOp> write = getOrDeclareRuntimeFunction(
          module, RuntimeTensorFunction::WriteTensorProto, elementType);
      if (failed(write))
        return failure();
      std::string path =
          options.outputDirectory + "/output_" + std::to_string(index) + ".pb";
      SmallVector<int8_t> bytes(path.begin(), path.end());
      auto bytesType = RankedTensorType::get(
          {static_cast<int64_t>(bytes.size())}, builder.getI8Type());
      Value pathValue = arith::ConstantOp::create(
          builder, fileLoc,
          DenseElementsAttr::get(bytesType, ArrayRef<int8_t>(bytes)));
      Value args[] = {
          tensor::CastOp::create(builder, fileLoc, unrankedType, actual),
          tensor::CastOp::create(builder, fileLoc, pathType, pathValue)};
      func::CallOp::create(builder, fileLoc, *write, args);
    }
  }
  func::ReturnOp::create(builder, fileLoc,
                         options.expectedFiles.empty() ? call.getResults()
                                                       : ValueRange());
  return success();
}

LogicalResult gather::detail::buildTestMain(OpBuilder &builder,
                                            Location fileLoc,
                                            func::FuncOp graphFunction,
                                            ModuleOp module,
                                            const ONNXImportOptions &options,
                                            TensorConverter getTensor) {
  return TestMainBuilder(builder, fileLoc, getTensor)
      .build(graphFunction, module, options);
}

static llvm::cl::list<std::string>
    inputFiles("onnx-inputs", llvm::cl::CommaSeparated,
               llvm::cl::desc("--import-onnx: TensorProto files of the graph "
                              "inputs; adds a @main that runs the graph"));
static llvm::cl::list<std::string> expectedFiles(
    "onnx-expected", llvm::cl::CommaSeparated,
    llvm::cl::desc("--import-onnx: TensorProto files of the expected graph "
                   "outputs; @main compares the outputs with them"));
static llvm::cl::opt<std::string> outputDirectory(
    "onnx-write-outputs", llvm::cl::value_desc("directory"),
    llvm::cl::desc("--import-onnx: @main also writes each output as "
                   "<directory>/output_<i>.pb (a TensorProto)"));
static llvm::cl::opt<double>
    atolOption("onnx-atol", llvm::cl::init(0.0),
               llvm::cl::desc("--import-onnx: absolute float tolerance of "
                              "the comparison (0 with rtol 0: bit-exact)"));
static llvm::cl::opt<double>
    rtolOption("onnx-rtol", llvm::cl::init(0.0),
               llvm::cl::desc("--import-onnx: relative float tolerance of "
                              "the comparison"));

ONNXImportOptions gather::detail::getImportOptionsFromCommandLine() {
  ONNXImportOptions options;
  options.inputFiles.assign(inputFiles.begin(), inputFiles.end());
  options.expectedFiles.assign(expectedFiles.begin(), expectedFiles.end());
  options.outputDirectory = outputDirectory;
  options.atol = atolOption;
  options.rtol = rtolOption;
  return options;
}
