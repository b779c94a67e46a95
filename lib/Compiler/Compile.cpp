//===- Compile.cpp - From a module to a library, all steps ----------------===//
//
// Part of the gather project.
// Under the Apache License v2.0 with LLVM Exceptions. See LICENSE for
// license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compiler/Compiler.h"
#include "gather/RuntimeABI/RuntimeReporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// Reports `error` at `loc`; returns failure.
static LogicalResult report(Location loc, llvm::Error error) {
  return emitError(loc) << llvm::toString(std::move(error));
}

/// Opens `path` for writing (`-` is stdout).
static std::unique_ptr<llvm::ToolOutputFile> open(Location loc,
                                                  llvm::StringRef path) {
  std::string why;
  auto file = openOutputFile(path, &why);
  if (!file)
    emitError(loc) << "cannot write '" << path << "': " << why;
  return file;
}

/// Whether `a` and `b` name the same file: the same path once absolute and
/// without dots (`-` is stdout), or one existing file.
static bool isSameFile(llvm::StringRef a, llvm::StringRef b) {
  if (a == "-" || b == "-")
    return a == b;
  bool same = false;
  if (!llvm::sys::fs::equivalent(a, b, same) && same)
    return true;
  auto normalize = [](llvm::StringRef path) {
    llvm::SmallString<256> full(path);
    (void)llvm::sys::fs::make_absolute(full);
    llvm::sys::path::remove_dots(full, /*remove_dot_dot=*/true);
    return full;
  };
  return normalize(a) == normalize(b);
}

FailureOr<gather::ModelPartition>
gather::compileModule(ModuleOp module, const CompileOptions &options) {
  Location loc = module.getLoc();
  auto pipelineOptions =
      parseONNXToLLVMPipelineOptions(options.pipelineOptions);
  if (!pipelineOptions) {
    (void)report(loc, pipelineOptions.takeError());
    return failure();
  }
  if (options.optLevel > 3)
    return emitError(loc) << "optimization level " << options.optLevel
                          << " is not one of 0-3";
  if (!options.headerFile.empty() &&
      isSameFile(options.headerFile, options.outputFile))
    return emitError(loc) << "the header '" << options.headerFile
                          << "' and the output '" << options.outputFile
                          << "' are the same file";

  FailureOr<ModelPartition> partition = partitionModel(module);
  if (failed(partition))
    return failure();
  FailureOr<std::vector<EntryPoint>> entryPoints =
      getEntryPoints(module, /*checkForC=*/!options.headerFile.empty());
  if (failed(entryPoints))
    return failure();
  if (entryPoints->empty())
    return emitError(loc)
           << (partition->outlined
                   ? "the model has no GatherElements node: nothing for "
                     "gather to compile"
                   : "the module has no public function with a body: "
                     "nothing to compile");

  // A library describes its entry points, for gather-run and Python,
  // and the target its code needs, for its loaders' check.
  if (options.emit == EmitKind::Library || options.emit == EmitKind::Object) {
    addEntryPointsGlobal(module, *entryPoints);
    if (llvm::Error error = addTargetGlobal(module, **pipelineOptions))
      return report(loc, std::move(error));
  }

  PassManager pm = PassManager::on<ModuleOp>(module.getContext());
  buildONNXToLLVMPipeline(pm, **pipelineOptions);
  if (options.configurePassManager && failed(options.configurePassManager(pm)))
    return failure();
  if (failed(pm.run(module)))
    return failure();
  // Every library has an error sink (gatherSetKernelErrorHandler), reports
  // or not, as JIT-compiled kernels do: a host may always give it a handler.
  if (failed(getOrCreateErrorSinkGlobal(module)))
    return emitError(loc) << "the module cannot have an error sink";

  if (options.emit == EmitKind::MLIR || options.emit == EmitKind::LLVMIR) {
    auto file = open(loc, options.outputFile);
    if (!file)
      return failure();
    if (options.emit == EmitKind::MLIR)
      module.print(file->os());
    else if (failed(emitObjectFile(module, **pipelineOptions, options.optLevel,
                                   EmitKind::LLVMIR, file->os())))
      return failure();
    file->keep();
    return partition;
  }

  // The object: the output itself, or a temporary file for the link.
  std::string objectPath = options.outputFile;
  llvm::FileRemover removeObject;
  if (options.emit == EmitKind::Library) {
    SmallString<128> temporary;
    if (std::error_code error = llvm::sys::fs::createTemporaryFile(
            "gather-compile", "o", temporary))
      return emitError(loc)
             << "cannot create a temporary object file: " << error.message();
    objectPath = temporary.str().str();
    removeObject.setFile(objectPath);
  }
  {
    auto file = open(loc, objectPath);
    if (!file)
      return failure();
    if (failed(emitObjectFile(module, **pipelineOptions, options.optLevel,
                              EmitKind::Object, file->os())))
      return failure();
    file->keep();
  }
  if (options.emit == EmitKind::Library) {
    FailureOr<RuntimeNeeds> needs = getRuntimeNeeds(module);
    if (failed(needs))
      return failure();
    if (llvm::Error error =
            linkSharedLibrary(objectPath, options.outputFile, *needs))
      return report(loc, std::move(error));
  }

  if (!options.headerFile.empty()) {
    auto file = open(loc, options.headerFile);
    if (!file)
      return failure();
    writeCHeader(*entryPoints, llvm::sys::path::filename(options.headerFile),
                 file->os());
    file->keep();
  }
  return partition;
}
