//===- Kernel.cpp - C API of gather's kernel compilation ------------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather-c/Kernel.h"

#include "gather/ExecutionEngine/JitCompiler.h"

#include "mlir/CAPI/ExecutionEngine.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

void mlirGatherRegisterJitDependencies(MlirDialectRegistry registry) {
  gather::registerJitDependencies(*unwrap(registry));
}

/// Reports `message` to the caller and returns a failure.
static MlirLogicalResult fail(const std::string &message,
                              MlirStringCallback errorCallback,
                              void *userData) {
  if (errorCallback)
    errorCallback(mlirStringRefCreate(message.data(), message.size()),
                  userData);
  return mlirLogicalResultFailure();
}

/// The engine of `compiled` as `*engine`, or the failure.
static MlirLogicalResult
finish(llvm::Expected<std::unique_ptr<ExecutionEngine>> compiled,
       MlirExecutionEngine *engine, MlirStringCallback errorCallback,
       void *userData) {
  if (!compiled)
    return fail(llvm::toString(compiled.takeError()), errorCallback, userData);
  *engine = wrap(compiled->release());
  return mlirLogicalResultSuccess();
}

/// Parses the pipeline's option text, or reports it as invalid.
static std::unique_ptr<gather::ONNXToLLVMPipelineOptions>
parseOptions(MlirStringRef text, MlirStringCallback errorCallback,
             void *userData) {
  llvm::StringRef options = unwrap(text);
  auto parsed = gather::parseONNXToLLVMPipelineOptions(options);
  if (parsed)
    return std::move(*parsed);
  fail("invalid onnx-to-llvm pipeline options: '" + options.str() +
           "': " + llvm::toString(parsed.takeError()),
       errorCallback, userData);
  return nullptr;
}

using Compile =
    llvm::function_ref<llvm::Expected<std::unique_ptr<ExecutionEngine>>(
        const gather::ONNXToLLVMPipelineOptions &)>;

/// Clears `*engine`, checks `optLevel` and parses `pipelineOptions`, then
/// `compile`s with them into `*engine`; reports the failure of any step.
static MlirLogicalResult compileWith(int optLevel,
                                     MlirStringRef pipelineOptions,
                                     MlirExecutionEngine *engine,
                                     MlirStringCallback errorCallback,
                                     void *userData, Compile compile) {
  *engine = MlirExecutionEngine{nullptr};
  if (optLevel < 0 || optLevel > 3)
    return fail("optimization level must be 0-3", errorCallback, userData);
  auto options = parseOptions(pipelineOptions, errorCallback, userData);
  if (!options)
    return mlirLogicalResultFailure();
  return finish(compile(*options), engine, errorCallback, userData);
}

MlirLogicalResult
mlirGatherCompileModule(MlirModule module, MlirStringRef pipelineOptions,
                        int optLevel, MlirExecutionEngine *engine,
                        MlirStringCallback errorCallback, void *userData) {
  return compileWith(optLevel, pipelineOptions, engine, errorCallback, userData,
                     [&](const auto &options) {
                       return gather::compileAndJit(unwrap(module), options,
                                                    optLevel);
                     });
}

MlirLogicalResult
mlirGatherCompileSource(MlirContext context, MlirStringRef source,
                        MlirStringRef bufferName, MlirStringRef pipelineOptions,
                        int optLevel, MlirExecutionEngine *engine,
                        MlirStringCallback errorCallback, void *userData) {
  return compileWith(optLevel, pipelineOptions, engine, errorCallback, userData,
                     [&](const auto &options) {
                       return gather::compileSourceAndJit(
                           *unwrap(context), unwrap(source), options, optLevel,
                           unwrap(bufferName));
                     });
}

MlirLogicalResult mlirGatherCompileSourceWithDebugOptions(
    MlirContext context, MlirStringRef source, MlirStringRef bufferName,
    MlirStringRef pipelineOptions, int optLevel,
    MlirGatherJitDebugOptions debug, MlirExecutionEngine *engine,
    MlirStringCallback errorCallback, void *userData) {
  gather::JitDebugOptions options;
  options.irDirectory = unwrap(debug.irDirectory).str();
  options.crashReproducer = unwrap(debug.crashReproducer).str();
  options.objectFile = unwrap(debug.objectFile).str();
  return compileWith(optLevel, pipelineOptions, engine, errorCallback, userData,
                     [&](const auto &pipeline) {
                       return gather::compileSourceAndJit(
                           *unwrap(context), unwrap(source), pipeline, optLevel,
                           unwrap(bufferName), options);
                     });
}

MlirLogicalResult mlirGatherSetKernelErrorHandler(
    MlirExecutionEngine engine, GatherErrorHandler handler, void *handlerData,
    MlirStringCallback errorCallback, void *userData) {
  if (mlirExecutionEngineIsNull(engine))
    return fail("mlirGatherSetKernelErrorHandler: a null engine", errorCallback,
                userData);
  if (llvm::Error error =
          gather::setKernelErrorHandler(*unwrap(engine), handler, handlerData))
    return fail(llvm::toString(std::move(error)), errorCallback, userData);
  return mlirLogicalResultSuccess();
}
